//! A game's chat (issue 20, docs/API.md "Chat"): two rooms, the players'
//! (the two seats of a game between people) and the spectators' (signed-in
//! watchers; the players do not read it). A message is 1 to 140
//! characters once trimmed, kept with the game, numbered in its room, and
//! pushed to the sockets that may read its room, on this server at once
//! and on the others through the announcement (`Event`, `What::Chat`).
//! Anonymous players chat only in friend games made by an invite link; a
//! spectator needs an account. Each author has a rate per game.

use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use serde::{Deserialize, Serialize};

use crate::games::event::{Event, Notice, What};
use crate::games::hub::Hub;
use crate::games::ids::{GameId, UserId, now_ms};
use crate::games::model::{Mode, Side};
use crate::games::refusal::{CoreError, Refusal};
use crate::games::seats::{Seat, Who, seat_of};
use crate::store::{ChatRow, Store};

/// The longest message, in characters once trimmed.
pub const MAX_CHARS: usize = 140;
/// An author's messages in one game: this many at once, then one per
/// `EVERY`.
const BURST: u32 = 5;
const EVERY: Duration = Duration::from_secs(2);

/// A game's two rooms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Room {
    Players,
    Spectators,
}

impl Room {
    pub fn parse(s: &str) -> Option<Room> {
        match s {
            "players" => Some(Room::Players),
            "spectators" => Some(Room::Spectators),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Room::Players => "players",
            Room::Spectators => "spectators",
        }
    }

    /// Whether the holder of `seat` (none: a watcher) reads this room.
    pub fn readable_by(self, seat: Option<Seat>) -> bool {
        match self {
            Room::Players => matches!(seat, Some(Seat::White | Seat::Black)),
            Room::Spectators => seat.is_none(),
        }
    }
}

/// One message, as the API shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatMessage {
    pub seq: i64,
    pub at_ms: i64,
    /// The author's name; `None` for an anonymous player.
    pub author: Option<String>,
    /// The author's side, for a player's message.
    pub side: Option<Side>,
    pub text: String,
}

impl ChatMessage {
    fn of(r: ChatRow) -> ChatMessage {
        ChatMessage {
            seq: r.seq,
            at_ms: r.at_ms,
            author: r.author,
            side: r.side.as_deref().and_then(Side::parse),
            text: r.text,
        }
    }
}

/// What the socket of a reader of `room` is sent.
#[derive(Serialize)]
struct Pushed<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    room: Room,
    message: &'a ChatMessage,
}

/// Why a chat action was refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ChatRefusal {
    #[error("a message has at least one character")]
    Empty,
    #[error("a message has at most {MAX_CHARS} characters")]
    TooLong,
    /// The players' room of a game is for its two seats only.
    #[error("the players' room is for the game's players")]
    PlayersOnly,
    /// A player of the game does not read the spectators' room.
    #[error("the spectators' room is for those who watch")]
    SpectatorsOnly,
    /// Spectators chat with an account.
    #[error("spectators chat when signed in")]
    NeedsAccount,
    /// Anonymous players chat only in a friend game made by an invite.
    #[error("without an account, chat only in a game made by an invite link")]
    AnonymousInvitesOnly,
    /// Engine and one-device games have no players' room.
    #[error("this game has no players' chat")]
    NoPlayersRoom,
    /// The author's rate in this game is spent.
    #[error("too many messages")]
    TooFast(Duration),
}

#[derive(Debug, thiserror::Error)]
pub enum ChatError {
    #[error(transparent)]
    Refused(#[from] ChatRefusal),
    #[error(transparent)]
    Core(#[from] CoreError),
}

impl From<Refusal> for ChatError {
    fn from(r: Refusal) -> ChatError {
        ChatError::Core(r.into())
    }
}

impl From<crate::store::StoreError> for ChatError {
    fn from(e: crate::store::StoreError) -> ChatError {
        ChatError::Core(e.into())
    }
}

pub type ChatResult<T> = Result<T, ChatError>;

/// Who a rate is counted for: an account, or an anonymous player's seat.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Author {
    Account(UserId),
    Seat(Side),
}

/// The authors' rates, per game.
pub struct ChatLimits {
    rate: DefaultKeyedRateLimiter<(GameId, Author)>,
}

impl Default for ChatLimits {
    fn default() -> ChatLimits {
        let burst = NonZeroU32::new(BURST).unwrap_or(NonZeroU32::MIN);
        let quota = Quota::with_period(EVERY)
            .unwrap_or_else(|| Quota::per_second(NonZeroU32::MIN))
            .allow_burst(burst);
        ChatLimits {
            rate: RateLimiter::keyed(quota),
        }
    }
}

impl ChatLimits {
    fn check(&self, game: &GameId, author: Author) -> Result<(), ChatRefusal> {
        // Forget the authors who have been quiet long enough.
        if self.rate.len() > 10_000 {
            self.rate.retain_recent();
        }
        self.rate
            .check_key(&(game.clone(), author))
            .map_err(|not_until| {
                ChatRefusal::TooFast(not_until.wait_time_from(DefaultClock::default().now()))
            })
    }
}

/// A message's text, trimmed, with line breaks and other control
/// characters as spaces; refused when empty or too long.
pub fn clean_text(text: &str) -> Result<String, ChatRefusal> {
    let t: String = text
        .trim()
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let n = t.chars().count();
    if n == 0 {
        Err(ChatRefusal::Empty)
    } else if n > MAX_CHARS {
        Err(ChatRefusal::TooLong)
    } else {
        Ok(t)
    }
}

/// What a game's chat needs to know of it, read under its lock.
struct Place {
    mode: Mode,
    seat: Option<Seat>,
    /// The accounts recorded on the seats.
    white_user: Option<UserId>,
    black_user: Option<UserId>,
}

impl Hub {
    async fn place(self: &Arc<Self>, id: &GameId, who: &Who) -> ChatResult<Place> {
        let (_, g) = self.current(id).await?;
        Ok(Place {
            mode: g.row.mode,
            seat: seat_of(&g.row, who),
            white_user: g.row.white_user,
            black_user: g.row.black_user,
        })
    }

    /// A room's newest messages, for someone who may read it.
    pub async fn chat(
        self: &Arc<Self>,
        id: &GameId,
        room: Room,
        who: &Who,
    ) -> ChatResult<Vec<ChatMessage>> {
        let p = self.place(id, who).await?;
        if !room.readable_by(p.seat) {
            return Err(match room {
                Room::Players => ChatRefusal::PlayersOnly,
                Room::Spectators => ChatRefusal::SpectatorsOnly,
            }
            .into());
        }
        let rows = self.store.chat(id, room.name()).await?;
        Ok(rows.into_iter().map(ChatMessage::of).collect())
    }

    /// Says `text` in `room`: kept, then pushed to the room's readers here
    /// and announced to the other servers.
    pub async fn say(
        self: &Arc<Self>,
        id: &GameId,
        room: Room,
        who: &Who,
        text: &str,
    ) -> ChatResult<ChatMessage> {
        let text = clean_text(text)?;
        let p = self.place(id, who).await?;
        let (side, author) = match room {
            Room::Players => {
                if p.mode != Mode::Friend {
                    return Err(ChatRefusal::NoPlayersRoom.into());
                }
                let side = match p.seat {
                    Some(Seat::White) => Side::White,
                    Some(Seat::Black) => Side::Black,
                    _ => return Err(ChatRefusal::PlayersOnly.into()),
                };
                // The seat's account speaks (its token or its session
                // holds the seat), else the signed-in reader's.
                let seat_user = match side {
                    Side::White => p.white_user,
                    Side::Black => p.black_user,
                };
                match seat_user.or(who.user) {
                    Some(u) => (Some(side), Author::Account(u)),
                    None => {
                        // A game paired by the lobby is between strangers:
                        // there, only accounts chat.
                        if self.store.pairing(id).await?.is_some() {
                            return Err(ChatRefusal::AnonymousInvitesOnly.into());
                        }
                        (Some(side), Author::Seat(side))
                    }
                }
            }
            Room::Spectators => {
                if p.seat.is_some() {
                    return Err(ChatRefusal::SpectatorsOnly.into());
                }
                match who.user {
                    Some(u) => (None, Author::Account(u)),
                    None => return Err(ChatRefusal::NeedsAccount.into()),
                }
            }
        };
        self.chat.check(id, author.clone())?;
        let account = match author {
            Author::Account(u) => Some(u),
            Author::Seat(_) => None,
        };
        let name = match account {
            Some(u) => self.store.account_name(u).await?,
            None => None,
        };
        let at_ms = now_ms();
        let seq = self
            .store
            .add_chat(id, room.name(), at_ms, account, side.map(Side::code), &text)
            .await?;
        let message = ChatMessage {
            seq,
            at_ms,
            author: name,
            side,
            text,
        };
        self.push_chat(id, room, &message).await;
        self.announce_chat(id, room, &message).await;
        Ok(message)
    }

    /// Sends a message to this server's sockets of the game (each socket
    /// passes on only what its reader may read).
    pub(crate) async fn push_chat(&self, id: &GameId, room: Room, message: &ChatMessage) {
        let Some(handle) = self.games.peek(id) else {
            return;
        };
        let g = handle.lock().await;
        if g.tx.receiver_count() == 0 {
            return;
        }
        let text = serde_json::to_string(&Pushed {
            kind: "chat",
            room,
            message,
        })
        .unwrap_or_default();
        let _ = g.tx.send(Notice {
            what: What::Chat {
                node: String::new(),
                room,
                message: message.clone(),
            },
            update: Some(text.into()),
        });
    }

    /// Tells the other servers sharing the database (PostgreSQL).
    async fn announce_chat(&self, id: &GameId, room: Room, message: &ChatMessage) {
        let Store::Postgres(pg) = &*self.store else {
            return;
        };
        let event = Event {
            game: id.clone(),
            version: 0,
            what: What::Chat {
                node: self.node.clone(),
                room,
                message: message.clone(),
            },
        };
        let sent = sqlx::query("SELECT pg_notify($1, $2)")
            .bind(crate::store::CHANNEL)
            .bind(event.payload())
            .execute(pg.pool())
            .await;
        if let Err(e) = sent {
            tracing::warn!(game = %id, "cannot announce a chat message: {e}");
        }
    }

    /// Another server's message: to this server's readers of the room.
    pub(crate) fn heard_chat(self: &Arc<Self>, event: &Event) -> bool {
        let What::Chat {
            node,
            room,
            message,
        } = &event.what
        else {
            return false;
        };
        if *node == self.node {
            return true;
        }
        let hub = self.clone();
        let (id, room, message) = (event.game.clone(), *room, message.clone());
        tokio::spawn(async move { hub.push_chat(&id, room, &message).await });
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_trimmed_and_bounded_in_characters() {
        assert_eq!(clean_text("  hi  "), Ok("hi".into()));
        assert_eq!(clean_text(" \n\t "), Err(ChatRefusal::Empty));
        assert_eq!(clean_text("a\nb"), Ok("a b".into()));
        assert_eq!(clean_text(&"я".repeat(140)), Ok("я".repeat(140)));
        assert_eq!(clean_text(&"я".repeat(141)), Err(ChatRefusal::TooLong));
        // Markup is kept as typed: it is shown as text.
        assert_eq!(clean_text("<b>x</b>"), Ok("<b>x</b>".into()));
    }

    #[test]
    fn who_reads_which_room() {
        assert!(Room::Players.readable_by(Some(Seat::White)));
        assert!(!Room::Players.readable_by(None));
        assert!(!Room::Players.readable_by(Some(Seat::Both)));
        assert!(Room::Spectators.readable_by(None));
        assert!(!Room::Spectators.readable_by(Some(Seat::Black)));
    }

    #[test]
    fn an_author_has_a_burst_then_waits() {
        let l = ChatLimits::default();
        let g = GameId::parse("g1").unwrap();
        for _ in 0..BURST {
            assert!(l.check(&g, Author::Seat(Side::White)).is_ok());
        }
        assert!(matches!(
            l.check(&g, Author::Seat(Side::White)),
            Err(ChatRefusal::TooFast(_))
        ));
        // Another author, or the same in another game, is not held back.
        assert!(l.check(&g, Author::Seat(Side::Black)).is_ok());
        let h = GameId::parse("g2").unwrap();
        assert!(l.check(&h, Author::Seat(Side::White)).is_ok());
    }
}
