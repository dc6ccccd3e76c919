//! What happens in the lobby, as one type: told to this server's lobby
//! sockets, and to every other server sharing PostgreSQL through a
//! channel of its own (LISTEN/NOTIFY, JSON). On SQLite there is one
//! server and the news goes straight to its sockets.

use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use sqlx::postgres::PgListener;
use tokio::sync::broadcast;

use crate::games::ids::{ChallengeId, GameId, SeekId, UserId};
use crate::games::model::Side;
use crate::lobby::challenges::ChallengeView;
use crate::lobby::seeks::SeekView;
use crate::metrics::Metrics;
use crate::store::Store;

/// The PostgreSQL channel of the lobby's news.
pub const LOBBY_CHANNEL: &str = "legion_lobby";

/// A piece of the lobby's news. Those with `to` are for one account's
/// sockets (or the sockets holding one seek); the others for every lobby
/// socket.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum News {
    /// A new open seek.
    Seek { seek: SeekView },
    /// A seek that is no longer open (taken, cancelled, expired).
    Gone { id: SeekId },
    /// A seek or a pool's place became game `game`, its owner playing
    /// `color`.
    Paired {
        seek: SeekId,
        game: GameId,
        color: Side,
    },
    /// A challenge to account `to`.
    Challenge {
        to: UserId,
        challenge: ChallengeView,
    },
    /// A challenge ended: accepted (with its game), declined or cancelled.
    ChallengeEnded {
        id: ChallengeId,
        from: UserId,
        to: UserId,
        status: String,
        game: Option<GameId>,
    },
    /// Account `user` is to move in `game` (its opponent just moved).
    Turn { user: UserId, game: GameId },
}

pub struct Bus {
    store: Arc<Store>,
    tx: broadcast::Sender<Arc<News>>,
}

impl Bus {
    pub fn new(store: Arc<Store>) -> Bus {
        Bus {
            store,
            tx: broadcast::channel(1024).0,
        }
    }

    pub fn subscribe(&self) -> broadcast::Receiver<Arc<News>> {
        self.tx.subscribe()
    }

    /// Tells every lobby socket of every server.
    pub async fn tell(&self, news: News) {
        match &*self.store {
            Store::Postgres(pg) => {
                // Our own listener hears it too, like the other servers.
                let payload = serde_json::to_string(&news).unwrap_or_default();
                if let Err(e) = sqlx::query("SELECT pg_notify($1, $2)")
                    .bind(LOBBY_CHANNEL)
                    .bind(payload)
                    .execute(pg.pool())
                    .await
                {
                    tracing::error!("cannot tell the other servers' lobbies: {e}");
                }
            }
            Store::Sqlite(_) => {
                // Nobody may be listening: not an error.
                let _ = self.tx.send(Arc::new(news));
            }
        }
    }

    /// Listens to the lobby's channel (PostgreSQL only) for as long as the
    /// server runs, reconnecting when the connection is lost. News that
    /// cannot be read is logged and counted.
    pub fn spawn_listener(
        self: &Arc<Self>,
        metrics: Arc<Metrics>,
    ) -> Option<tokio::task::JoinHandle<()>> {
        let Store::Postgres(pg) = &*self.store else {
            return None;
        };
        let pool = pg.pool().clone();
        let bus = self.clone();
        Some(tokio::spawn(async move {
            loop {
                let mut listener = match PgListener::connect_with(&pool).await {
                    Ok(l) => l,
                    Err(e) => {
                        tracing::error!("cannot listen for the lobby's news: {e}");
                        tokio::time::sleep(Duration::from_secs(1)).await;
                        continue;
                    }
                };
                if let Err(e) = listener.listen(LOBBY_CHANNEL).await {
                    tracing::error!("cannot listen for the lobby's news: {e}");
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    continue;
                }
                loop {
                    match listener.try_recv().await {
                        Ok(Some(n)) => match serde_json::from_str::<News>(n.payload()) {
                            Ok(news) => {
                                let _ = bus.tx.send(Arc::new(news));
                            }
                            Err(e) => {
                                tracing::warn!(
                                    "lobby news that cannot be read ({e}): {:.200}",
                                    n.payload()
                                );
                                metrics.unreadable_announcements.inc();
                            }
                        },
                        // Lost and connected again: the sockets' lists may
                        // be behind; they ask again every minute anyway.
                        Ok(None) => {}
                        Err(e) => {
                            tracing::error!("lost the lobby's news: {e}");
                            break;
                        }
                    }
                }
            }
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn news_reads_back_what_it_writes() {
        let news = News::Paired {
            seek: SeekId::parse("s1").unwrap(),
            game: GameId::parse("g1").unwrap(),
            color: Side::Black,
        };
        let text = serde_json::to_string(&news).unwrap();
        assert_eq!(
            text,
            r#"{"type":"paired","seek":"s1","game":"g1","color":"b"}"#
        );
        assert_eq!(serde_json::from_str::<News>(&text).unwrap(), news);
        assert!(serde_json::from_str::<News>(r#"{"type":"dance"}"#).is_err());
    }
}
