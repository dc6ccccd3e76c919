//! Where players meet (issue 20): seeks listed in the lobby (`seeks`),
//! quick-pairing pools matched in waves by rating (`pools`), challenges by
//! name (`challenges`), and the news of all of it for the lobby's sockets
//! (`bus`). Seeks, places and challenges are kept in the database, so a
//! seek made on one server is seen and accepted on another; the game they
//! become is made by the game core (`Hub::create_paired`).

pub mod bus;
pub mod challenges;
pub mod pools;
pub mod seeks;

use std::sync::Arc;

use crate::games::hub::{Hub, PairedGame};
use crate::games::ids::{GameId, SeatToken, SecretHash, SeekId, UserId, now_ms};
use crate::games::model::{Pairing, Side};
use crate::games::refusal::CoreError;
use crate::lobby::bus::{Bus, News};
use crate::lobby::seeks::{ColorChoice, SeekRequest, SeekView, Terms};
use crate::players::ratings::{Rating, SpeedClass};
use crate::store::{SeekRow, Store, StoreError};

/// How long a timed seek (or a pool's place) lives without its owner's
/// socket renewing it: the owner has left.
pub const ALIVE_MS: i64 = 45_000;
/// How long a seek of days per move stays, owner present or not.
pub const SLOW_SEEK_MS: i64 = 86_400_000;
/// Open seeks (and places) one owner may have at once.
pub const SEEKS_PER_OWNER: usize = 3;
/// Open seeks listed at most (a lobby socket's first message).
pub const LISTED: usize = 2_000;

/// Why the lobby refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LobbyRefusal {
    #[error(
        "a clock has an initial time of 0 to 36,000 s and an increment of 0 to 600 s, not both 0"
    )]
    BadClock,
    #[error("a game has a clock or days per move, not both")]
    ClockAndDays,
    #[error("days per move are 1, 2, 3, 5, 7 or 14")]
    BadDays,
    #[error("a colour is random, white or black")]
    BadColor,
    #[error("a rated game needs an account: sign in")]
    RatedNeedsAccount,
    #[error("an untimed game is never rated")]
    UntimedRated,
    #[error("a rated game's colours are drawn by lot")]
    RatedColor,
    #[error(
        "a rating range is two differences, the first at most 0, the second at least 0, within 1000"
    )]
    BadRange,
    #[error("no such seek: it was taken, cancelled or it expired")]
    NoSeek,
    #[error("that is your own seek")]
    OwnSeek,
    #[error("your rating is outside the seek's range")]
    OutOfRange,
    #[error("too many open seeks: at most 3")]
    TooManySeeks,
    #[error("not your seek")]
    NotYours,
    #[error("no such quick-pairing pool")]
    NoPool,
    #[error("no such player")]
    NoPlayer,
    #[error("you cannot challenge yourself")]
    SelfChallenge,
    #[error("no such challenge: it was accepted, declined, cancelled or it expired")]
    NoChallenge,
    #[error("this challenge is not for you")]
    NotYourChallenge,
    #[error("sign in first")]
    NotSignedIn,
}

#[derive(Debug, thiserror::Error)]
pub enum LobbyError {
    #[error(transparent)]
    Refused(#[from] LobbyRefusal),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Core(#[from] CoreError),
}

pub type LobbyResult<T> = Result<T, LobbyError>;

/// Who asks, as the lobby knows them: an account, or an anonymous visitor.
#[derive(Clone, Debug, Default)]
pub struct Visitor {
    pub user: Option<UserId>,
}

/// A new seek or place, for its owner: its id and the owner's seat
/// secret in the game it becomes.
pub struct Made {
    pub id: SeekId,
    pub token: SeatToken,
}

/// An accepted seek, for its acceptor.
pub struct Accepted {
    pub game: GameId,
    pub color: Side,
    pub token: SeatToken,
}

pub struct Lobby {
    pub(crate) store: Arc<Store>,
    pub(crate) hub: Arc<Hub>,
    pub bus: Arc<Bus>,
}

impl Lobby {
    pub fn new(hub: Arc<Hub>) -> Arc<Lobby> {
        let store = hub.store.clone();
        Arc::new(Lobby {
            bus: Arc::new(Bus::new(store.clone())),
            store,
            hub,
        })
    }

    /// `user`'s rating in `class` as it stands (the start's for a new
    /// player or an anonymous one).
    pub(crate) async fn rating(
        &self,
        user: Option<UserId>,
        class: Option<SpeedClass>,
    ) -> LobbyResult<Rating> {
        let (Some(user), Some(class)) = (user, class) else {
            return Ok(Rating::default());
        };
        Ok(self
            .store
            .ratings_of(user)
            .await?
            .into_iter()
            .find(|r| r.class == class.name())
            .map_or_else(Rating::default, |r| Rating {
                rating: r.rating,
                rd: r.rd,
                volatility: r.volatility,
            }))
    }

    /// Makes a seek (or, with `pool`, a place in a pool) for `who`.
    pub(crate) async fn open(
        &self,
        who: &Visitor,
        terms: Terms,
        range: Option<[i64; 2]>,
        pool: Option<&str>,
    ) -> LobbyResult<Made> {
        let now = now_ms();
        let token = SeatToken::random();
        let mine = self.store.seeks_of(who.user, &[], now).await?;
        if who.user.is_some() && mine.len() >= SEEKS_PER_OWNER {
            return Err(LobbyRefusal::TooManySeeks.into());
        }
        let class = terms.class();
        let rating = self.rating(who.user, class).await?;
        let rated_range = range.map(|[lo, hi]| {
            let r = rating.rating.round() as i64;
            [r + lo, r + hi]
        });
        let row = SeekRow {
            id: SeekId::random(),
            owner: who.user,
            owner_name: None,
            seat: token.hash(),
            clock: terms.clock,
            days: terms.days,
            rated: terms.rated,
            color: terms.color.name().to_string(),
            rating: (who.user.is_some() && class.is_some()).then_some(rating.rating),
            rd: (who.user.is_some() && class.is_some()).then_some(rating.rd),
            min_rating: rated_range.map(|r| r[0]),
            max_rating: rated_range.map(|r| r[1]),
            pool: pool.map(str::to_string),
            created_ms: now,
            alive_until_ms: now + if terms.slow() { SLOW_SEEK_MS } else { ALIVE_MS },
            game: None,
            game_color: None,
        };
        self.store.create_seek(&row).await?;
        if pool.is_none() {
            // Read back with its owner's name, as the list shows it.
            if let Some(stored) = self.store.seek(&row.id).await? {
                let view = SeekView::of(&stored);
                self.bus.tell(News::Seek { seek: view }).await;
            }
        }
        Ok(Made { id: row.id, token })
    }

    /// The open seeks, oldest first.
    pub async fn list(&self) -> LobbyResult<Vec<SeekView>> {
        let rows = self.store.open_seeks(now_ms()).await?;
        Ok(rows.iter().take(LISTED).map(SeekView::of).collect())
    }

    /// A seek, open or taken (for its owner to learn what became of it).
    pub async fn seek(&self, id: &SeekId) -> LobbyResult<SeekRow> {
        self.store
            .seek(id)
            .await?
            .ok_or_else(|| LobbyRefusal::NoSeek.into())
    }

    /// Whether `who` (or the holder of `token`) owns seek `s`.
    pub fn owns(s: &SeekRow, who: &Visitor, token: Option<&SeatToken>) -> bool {
        (who.user.is_some() && s.owner == who.user) || token.is_some_and(|t| t.hash() == s.seat)
    }

    /// Cancels an open seek of `who`'s.
    pub async fn cancel(
        &self,
        id: &SeekId,
        who: &Visitor,
        token: Option<&SeatToken>,
    ) -> LobbyResult<()> {
        let s = self.seek(id).await?;
        if !Lobby::owns(&s, who, token) {
            return Err(LobbyRefusal::NotYours.into());
        }
        if !self.store.cancel_seek(id).await? {
            return Err(LobbyRefusal::NoSeek.into());
        }
        self.bus.tell(News::Gone { id: id.clone() }).await;
        Ok(())
    }

    /// Cancels an open seek whose owner left (its socket closed).
    pub async fn cancel_owned(&self, id: &SeekId) -> LobbyResult<()> {
        if self.store.cancel_seek(id).await? {
            self.bus.tell(News::Gone { id: id.clone() }).await;
        }
        Ok(())
    }

    /// Accepts seek `id` for `who`: the game is made, the owner told.
    pub async fn accept(&self, id: &SeekId, who: &Visitor) -> LobbyResult<Accepted> {
        let now = now_ms();
        let s = self.seek(id).await?;
        if s.game.is_some() || s.alive_until_ms <= now || s.pool.is_some() {
            return Err(LobbyRefusal::NoSeek.into());
        }
        if who.user.is_some() && s.owner == who.user {
            return Err(LobbyRefusal::OwnSeek.into());
        }
        let terms = Terms {
            clock: s.clock,
            days: s.days,
            rated: s.rated,
            color: ColorChoice::parse(&s.color).unwrap_or_default(),
        };
        if s.rated && who.user.is_none() {
            return Err(LobbyRefusal::RatedNeedsAccount.into());
        }
        if let (Some(lo), Some(hi)) = (s.min_rating, s.max_rating) {
            let mine = self.rating(who.user, terms.class()).await?.rating.round() as i64;
            if !(lo..=hi).contains(&mine) {
                return Err(LobbyRefusal::OutOfRange.into());
            }
        }
        let owner_side = side_of(terms.color);
        let game = GameId::random();
        if !self
            .store
            .claim_seek(id, &game, owner_side.code(), now)
            .await?
        {
            // Another acceptor came first (or it expired meanwhile).
            return Err(LobbyRefusal::NoSeek.into());
        }
        let token = SeatToken::random();
        let owner = (s.seat.clone(), s.owner);
        let mine = (token.hash(), who.user);
        let (white, black) = match owner_side {
            Side::White => (owner, mine),
            Side::Black => (mine, owner),
        };
        let made = self
            .hub
            .create_paired(PairedGame {
                id: game.clone(),
                white,
                black,
                clock: s.clock,
                days: s.days,
                rated: s.rated && s.owner.is_some() && who.user.is_some(),
                pairing: Pairing::Seek,
            })
            .await;
        if let Err(e) = made {
            self.store.release_seek(id).await?;
            return Err(e.into());
        }
        self.bus.tell(News::Gone { id: id.clone() }).await;
        self.bus
            .tell(News::Paired {
                seek: id.clone(),
                game: game.clone(),
                color: owner_side,
            })
            .await;
        Ok(Accepted {
            game,
            color: owner_side.other(),
            token,
        })
    }

    /// Keeps the open seeks of the sockets' owners alive (a round of the
    /// lobby's sweeper for each socket's seeks).
    pub async fn keep(&self, ids: &[SeekId]) -> LobbyResult<()> {
        self.store.keep_seeks(ids, now_ms() + ALIVE_MS).await?;
        Ok(())
    }

    /// A round of the lobby: seeks whose owner left are removed and told,
    /// and the pools are paired.
    pub async fn sweep(&self) -> LobbyResult<()> {
        for id in self.store.expire_seeks(now_ms()).await? {
            self.bus.tell(News::Gone { id }).await;
        }
        self.pair_pools().await
    }

    /// Tells each account whose turn it now is, across servers, for as
    /// long as the server runs.
    pub fn spawn_turns(self: &Arc<Self>) -> tokio::task::JoinHandle<()> {
        let mut turns = self.hub.turns();
        let lobby = self.clone();
        tokio::spawn(async move {
            loop {
                match turns.recv().await {
                    Ok(t) => {
                        lobby
                            .bus
                            .tell(News::Turn {
                                user: t.user,
                                game: t.game,
                            })
                            .await
                    }
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
                }
            }
        })
    }

    /// The seeks that `user` or the holders of `seats` own, open now.
    pub async fn seeks_of(
        &self,
        user: Option<UserId>,
        seats: &[SecretHash],
    ) -> LobbyResult<Vec<SeekRow>> {
        Ok(self.store.seeks_of(user, seats, now_ms()).await?)
    }

    /// Reads a seek request's terms for `who`.
    pub fn terms(req: &SeekRequest, who: &Visitor) -> Result<Terms, LobbyRefusal> {
        req.terms(who.user.is_some())
    }
}

/// The owner's side for a colour choice (random: drawn now).
pub(crate) fn side_of(c: ColorChoice) -> Side {
    match c {
        ColorChoice::White => Side::White,
        ColorChoice::Black => Side::Black,
        ColorChoice::Random => {
            if crate::games::ids::random_id(1).as_bytes()[0].is_multiple_of(2) {
                Side::White
            } else {
                Side::Black
            }
        }
    }
}
