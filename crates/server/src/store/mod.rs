//! Where games are kept: one interface, two databases. SQLite (a file,
//! the default: nothing to install) and PostgreSQL (a server, for sites
//! that outgrow one machine). Every accepted move is committed before it
//! is acknowledged; the schema of each is versioned and migrated when the
//! server starts.

mod accounts;
mod chat;
mod lobby;
pub mod migrate;
mod postgres;
mod profiles;
mod puzzles;
mod ratings;
mod rows;
mod sqlite;
mod studies;

pub use accounts::{AccountRow, NewAccount};
pub use chat::ChatRow;
pub use lobby::{ChallengeRow, SeekRow};
pub use profiles::{GameLine, RankedRow, RatingRow};
pub use puzzles::{Attempt, Attempted, Glicko, NEW_PLAYER, PuzzlePlayer, PuzzleRow};
pub use ratings::{PlayerRating, RatedGame};
pub use studies::{NewStudy, StudyLine, StudyRow};

use crate::games::clock::Clock;
use crate::games::event::{Event, What};
use crate::games::ids::{GameId, SecretHash, UserId};
use crate::games::model::{Declared, Mode, Pairing, Side};

pub use postgres::{CHANNEL, PgStore};
pub use sqlite::SqliteStore;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Postgres(#[from] sqlx::Error),
    #[error("database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("the database writer has stopped")]
    WriterGone,
    #[error("a database lock was poisoned by a panic")]
    Poisoned,
    #[error("stored game '{id}' cannot be read: {why}")]
    Corrupt { id: String, why: String },
    #[error("cannot start the database writer: {0}")]
    Thread(std::io::Error),
    #[error("the database has schema version {0}, newer than this server knows")]
    TooNew(i64),
    #[error(
        "the database {} is in use by another server (it holds {}.lock): stop that one first; servers that share games share PostgreSQL (docs/HOSTING.md)",
        .0.display(), .0.display()
    )]
    InUse(std::path::PathBuf),
    #[error("cannot lock the database ({}): {source}", path.display())]
    Lock {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    #[error("a database task failed: {0}")]
    Task(String),
    /// The game was changed by another request (on this server or another
    /// one) since it was read: the write is refused, the caller reads the
    /// game again.
    #[error("game '{0}' changed meanwhile")]
    Stale(String),
    /// A username already taken (regardless of case).
    #[error("the username is taken")]
    Taken,
}

/// A game's settings and off-board state (the moves are kept apart).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub id: GameId,
    pub created_ms: i64,
    pub mode: Mode,
    /// `default` or `mate-ends-game`.
    pub rules: String,
    pub start_lfen: String,
    pub level: Option<u8>,
    /// Engine games only.
    pub engine_color: Option<Side>,
    /// The hashes of the seats' tokens (columns `white_token`,
    /// `black_token`: hashes since schema 6 on SQLite, 4 on PostgreSQL).
    pub white_seat: Option<SecretHash>,
    pub black_seat: Option<SecretHash>,
    /// The accounts that hold the seats, for players signed in (issue 20):
    /// their session is their seat, as the token is.
    pub white_user: Option<UserId>,
    pub black_user: Option<UserId>,
    /// The hash of a friend game's one-time invite code; the seat it opens
    /// is the one without a token until it is claimed.
    pub invite: Option<SecretHash>,
    /// When the game started (a friend game: when its invite was claimed).
    pub started_ms: Option<i64>,
    pub clock: Option<Clock>,
    pub declared: Option<Declared>,
    /// The side offering a draw.
    pub draw_offer: Option<Side>,
    /// The side asking to take back a move.
    pub takeback_offer: Option<Side>,
    /// When the server must look at the game if nothing happens (a flag
    /// fall, or the end of a first-move time); derived, kept for the sweep.
    pub deadline_ms: Option<i64>,
    /// The side asking for a rematch (friend games), after the end.
    pub rematch_offer: Option<Side>,
    /// The game that followed this one as its rematch.
    pub rematch: Option<GameId>,
    /// How many times the game was written: each write must name the
    /// version after the one it read (optimistic concurrency), so that of
    /// two servers acting on the same game only one succeeds.
    pub version: i64,
    /// The ply at which the engine is to move, if it is (derived, like
    /// `deadline_ms`; PostgreSQL keeps it as a job any server may claim).
    pub engine_ply: Option<i64>,
    /// A rated game (issue 20): two accounts, ratings changed at the end.
    pub rated: bool,
    /// Days per move (a correspondence game); the clock then has them.
    pub days: Option<u8>,
    /// How the players met, for games of the lobby.
    pub pairing: Option<Pairing>,
    /// When the game ended (a result or an abort).
    pub ended_ms: Option<i64>,
    /// The result (`1-0`, `0-1`, `1/2-1/2`) once there is one, and the
    /// side that won Phase 1 (5.1): derived, kept for profiles.
    pub result: Option<String>,
    pub phase_one: Option<Side>,
}

impl StoreError {
    /// Whether the database cannot be reached or written at the moment
    /// (an outage, a locked or full file): such failures answer 503, not
    /// 500, and make /healthz say so.
    pub fn unavailable(&self) -> bool {
        use rusqlite::ErrorCode as C;
        match self {
            StoreError::Postgres(
                sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed | sqlx::Error::Io(_),
            ) => true,
            StoreError::Sqlite(rusqlite::Error::SqliteFailure(f, _)) => matches!(
                f.code,
                C::DatabaseBusy | C::DatabaseLocked | C::DiskFull | C::ReadOnly | C::CannotOpen
            ),
            _ => false,
        }
    }
}

impl GameRow {
    /// A game of `mode` from `start_lfen`, nothing else set yet.
    pub fn new(id: &GameId, mode: Mode, rules: &str, start_lfen: &str, created_ms: i64) -> GameRow {
        GameRow {
            id: id.clone(),
            created_ms,
            mode,
            rules: rules.to_string(),
            start_lfen: start_lfen.to_string(),
            level: None,
            engine_color: None,
            white_seat: None,
            black_seat: None,
            white_user: None,
            black_user: None,
            invite: None,
            started_ms: None,
            clock: None,
            declared: None,
            draw_offer: None,
            takeback_offer: None,
            deadline_ms: None,
            rematch_offer: None,
            rematch: None,
            version: 0,
            engine_ply: None,
            rated: false,
            days: None,
            pairing: None,
            ended_ms: None,
            result: None,
            phase_one: None,
        }
    }
}

/// A change to the database. Writes go through one writer thread that
/// commits whatever has queued up in one transaction (group commit): one
/// disk flush for many moves, each move still acknowledged only once it is
/// on disk, and each in its own savepoint so that one failure (a duplicate
/// ply) does not sink the others.
pub enum Write {
    Create(GameRow),
    /// Move number `ply` (0-based) and the game's off-board state.
    Append {
        row: GameRow,
        ply: usize,
        text: String,
        now_ms: i64,
    },
    /// Takes back every move from `ply` on, and saves the off-board state.
    Truncate {
        row: GameRow,
        ply: usize,
    },
    /// Saves the off-board state (offers, clocks, seats, rematches).
    Update(GameRow),
    /// Saves the off-board state of a game that has just ended off the
    /// board (resignation, flag fall, agreed draw, abort).
    End(GameRow),
    /// Stores a game's analysis.
    Analysis {
        id: GameId,
        report: String,
    },
    /// A whole game from another database (`legion migrate`), in one
    /// transaction.
    Import(Box<Exported>),
}

impl Write {
    /// The announcement of this write, if it changes a game.
    pub fn event(&self) -> Option<Event> {
        let (row, what) = match self {
            Write::Create(row) => (row, What::Created),
            Write::Append { row, ply, text, .. } => (
                row,
                What::Move {
                    ply: *ply,
                    text: text.clone(),
                },
            ),
            Write::Truncate { row, .. } => (row, What::Resync),
            Write::Update(row) => (row, What::State),
            Write::End(row) => (row, What::End),
            Write::Analysis { .. } | Write::Import(_) => return None,
        };
        Some(Event {
            game: row.id.clone(),
            version: row.version,
            what,
        })
    }
}

/// Everything the database holds of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exported {
    pub row: GameRow,
    /// Each move and when it was played (unix ms).
    pub moves: Vec<(String, i64)>,
    pub analysis: Option<String>,
}

/// Ids read from the database, each checked.
pub(crate) fn game_ids(ids: Vec<String>) -> Result<Vec<GameId>, StoreError> {
    ids.into_iter()
        .map(|id| {
            GameId::parse(&id).map_err(|_| StoreError::Corrupt {
                id,
                why: "id".into(),
            })
        })
        .collect()
}

/// The columns of a game row, in the order both databases read them.
pub(crate) const COLUMNS: &str =
    "id, created_ms, mode, rules, start_lfen, level, engine_color, white_token,
    black_token, clock_initial_ms, clock_increment_ms, white_ms, black_ms, turn_started_ms,
    declared, draw_offer, invite, started_ms, takeback_offer, deadline_ms, rematch_offer, rematch,
    version, white_user, black_user, rated, days, pairing, ended_ms, result, phase_one";

/// How many columns `COLUMNS` names.
pub(crate) const COLUMN_COUNT: usize = 31;

/// A word read back from the database, or a `Corrupt` error naming it.
fn word<T>(
    id: &str,
    what: &str,
    text: Option<String>,
    parse: fn(&str) -> Option<T>,
) -> Result<Option<T>, StoreError> {
    match text {
        None => Ok(None),
        Some(t) => parse(&t).map(Some).ok_or_else(|| StoreError::Corrupt {
            id: id.to_string(),
            why: format!("{what} '{t}'"),
        }),
    }
}

/// The raw columns of a row, before the words are checked.
pub(crate) struct RawRow {
    pub(crate) id: String,
    pub(crate) created_ms: i64,
    pub(crate) mode: String,
    pub(crate) rules: String,
    pub(crate) start_lfen: String,
    pub(crate) level: Option<u8>,
    pub(crate) engine_color: Option<String>,
    pub(crate) white_token: Option<String>,
    pub(crate) black_token: Option<String>,
    pub(crate) clock: Option<[Option<i64>; 5]>,
    pub(crate) declared: Option<String>,
    pub(crate) draw_offer: Option<String>,
    pub(crate) invite: Option<String>,
    pub(crate) started_ms: Option<i64>,
    pub(crate) takeback_offer: Option<String>,
    pub(crate) deadline_ms: Option<i64>,
    pub(crate) rematch_offer: Option<String>,
    pub(crate) rematch: Option<String>,
    pub(crate) version: i64,
    pub(crate) white_user: Option<i64>,
    pub(crate) black_user: Option<i64>,
    pub(crate) rated: bool,
    pub(crate) days: Option<i64>,
    pub(crate) pairing: Option<String>,
    pub(crate) ended_ms: Option<i64>,
    pub(crate) result: Option<String>,
    pub(crate) phase_one: Option<String>,
}

impl RawRow {
    pub(crate) fn check(self) -> Result<GameRow, StoreError> {
        let raw_id = self.id.clone();
        let corrupt = |why: &str| StoreError::Corrupt {
            id: raw_id.clone(),
            why: why.to_string(),
        };
        let id = GameId::parse(&self.id).map_err(|_| corrupt("id"))?;
        let hash = |what: &str, text: Option<String>| word(&raw_id, what, text, SecretHash::parse);
        let mode = Mode::parse(&self.mode).ok_or_else(|| corrupt("mode"))?;
        let clock = match self.clock {
            None => None,
            Some(
                [
                    Some(initial_ms),
                    Some(increment_ms),
                    Some(white_ms),
                    Some(black_ms),
                    began,
                ],
            ) => Some(Clock {
                initial_ms,
                increment_ms,
                white_ms,
                black_ms,
                turn_began_ms: began,
                per_move: self.days.is_some(),
            }),
            Some(_) => return Err(corrupt("a clock with missing times")),
        };
        Ok(GameRow {
            engine_color: word(&raw_id, "engine colour", self.engine_color, Side::parse)?,
            declared: word(&raw_id, "declared result", self.declared, Declared::parse)?,
            draw_offer: word(&raw_id, "draw offer", self.draw_offer, Side::parse)?,
            takeback_offer: word(&raw_id, "takeback offer", self.takeback_offer, Side::parse)?,
            rematch_offer: word(&raw_id, "rematch offer", self.rematch_offer, Side::parse)?,
            rematch: word(&raw_id, "rematch", self.rematch, |s| GameId::parse(s).ok())?,
            white_user: self.white_user.map(UserId),
            black_user: self.black_user.map(UserId),
            white_seat: hash("white seat", self.white_token)?,
            black_seat: hash("black seat", self.black_token)?,
            invite: hash("invite", self.invite)?,
            id,
            created_ms: self.created_ms,
            mode,
            rules: self.rules,
            start_lfen: self.start_lfen,
            level: self.level,
            started_ms: self.started_ms,
            clock,
            deadline_ms: self.deadline_ms,
            version: self.version,
            engine_ply: None,
            rated: self.rated,
            days: match self.days {
                None => None,
                Some(d) => Some(u8::try_from(d).map_err(|_| corrupt("days per move"))?),
            },
            pairing: word(&raw_id, "pairing", self.pairing, Pairing::parse)?,
            ended_ms: self.ended_ms,
            result: match self.result {
                None => None,
                Some(r) if ["1-0", "0-1", "1/2-1/2"].contains(&r.as_str()) => Some(r),
                Some(_) => return Err(corrupt("result")),
            },
            phase_one: word(&raw_id, "Phase 1 winner", self.phase_one, Side::parse)?,
        })
    }
}

/// The games' database: SQLite or PostgreSQL.
pub enum Store {
    Sqlite(std::sync::Arc<SqliteStore>),
    Postgres(PgStore),
}

impl Store {
    /// Opens (creating and migrating if needed) the database: a
    /// `postgres://` or `postgresql://` URL, else a SQLite file.
    pub async fn open(location: &str) -> Result<Store, StoreError> {
        if location.starts_with("postgres://") || location.starts_with("postgresql://") {
            Ok(Store::Postgres(PgStore::open(location).await?))
        } else {
            let path = std::path::PathBuf::from(location);
            let s = tokio::task::spawn_blocking(move || SqliteStore::open(&path))
                .await
                .map_err(|e| StoreError::Task(e.to_string()))??;
            Ok(Store::Sqlite(std::sync::Arc::new(s)))
        }
    }

    /// Opens the database for a host's commands beside a running server
    /// (`legion admin`): as `open`, but a SQLite file's server lock is
    /// neither taken nor needed.
    pub async fn open_beside_server(location: &str) -> Result<Store, StoreError> {
        if location.starts_with("postgres://") || location.starts_with("postgresql://") {
            return Store::open(location).await;
        }
        let path = std::path::PathBuf::from(location);
        let s = tokio::task::spawn_blocking(move || SqliteStore::open_beside_server(&path))
            .await
            .map_err(|e| StoreError::Task(e.to_string()))??;
        Ok(Store::Sqlite(std::sync::Arc::new(s)))
    }

    /// Applies a write; it is on disk (committed) when this returns.
    pub async fn write(&self, write: Write) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(s) => s.write(write).await,
            Store::Postgres(p) => p.write(write).await,
        }
    }

    /// A game's row and its moves, if there is such a game.
    pub async fn load(&self, id: &GameId) -> Result<Option<(GameRow, Vec<String>)>, StoreError> {
        match self {
            Store::Sqlite(s) => s.blocking(id.clone(), |s, id| s.load(&id)).await,
            Store::Postgres(p) => p.load(id).await,
        }
    }

    /// Ids of games whose deadline has come (flag falls, first moves).
    pub async fn due(&self, now_ms: i64) -> Result<Vec<GameId>, StoreError> {
        match self {
            Store::Sqlite(s) => s.blocking(now_ms, SqliteStore::due).await,
            Store::Postgres(p) => p.due(now_ms).await,
        }
    }

    /// The earliest deadline after `now_ms`, if any game has one: when the
    /// sweeper is next needed.
    pub async fn next_deadline(&self, now_ms: i64) -> Result<Option<i64>, StoreError> {
        match self {
            Store::Sqlite(s) => s.blocking(now_ms, SqliteStore::next_deadline).await,
            Store::Postgres(p) => p.next_deadline(now_ms).await,
        }
    }

    /// A game's stored analysis (JSON), if it has one.
    pub async fn analysis(&self, id: &GameId) -> Result<Option<String>, StoreError> {
        match self {
            Store::Sqlite(s) => s.blocking(id.clone(), |s, id| s.analysis(&id)).await,
            Store::Postgres(p) => p.analysis(id).await,
        }
    }

    /// How many games there are.
    pub async fn count(&self) -> Result<i64, StoreError> {
        match self {
            Store::Sqlite(s) => s.blocking((), |s, ()| s.count()).await,
            Store::Postgres(p) => p.count().await,
        }
    }

    /// Up to `limit` game ids after `after` (from the first when `None`),
    /// in order: to go through them all.
    pub async fn ids(&self, after: Option<&GameId>, limit: i64) -> Result<Vec<GameId>, StoreError> {
        let after = after.map_or(String::new(), |a| a.as_str().to_string());
        let ids = match self {
            Store::Sqlite(s) => s.blocking((after, limit), |s, (a, l)| s.ids(&a, l)).await?,
            Store::Postgres(p) => p.ids(&after, limit).await?,
        };
        game_ids(ids)
    }

    /// Everything of one game, if there is such a game.
    pub async fn export(&self, id: &GameId) -> Result<Option<Exported>, StoreError> {
        match self {
            Store::Sqlite(s) => s.blocking(id.clone(), |s, id| s.export(&id)).await,
            Store::Postgres(p) => p.export(id).await,
        }
    }

    /// Whether several servers may share this database (PostgreSQL): then
    /// a server checks a game's version before acting on its copy, hears
    /// other servers' changes, and claims engine work.
    pub fn is_shared(&self) -> bool {
        matches!(self, Store::Postgres(_))
    }

    /// A game's row without its moves, if there is such a game.
    pub async fn row(&self, id: &GameId) -> Result<Option<GameRow>, StoreError> {
        match self {
            Store::Sqlite(s) => Ok(s
                .blocking(id.clone(), |s, id| s.load(&id))
                .await?
                .map(|(row, _)| row)),
            Store::Postgres(p) => p.row(id).await,
        }
    }

    /// A game's version (how many writes it has had), if there is such a game.
    pub async fn version(&self, id: &GameId) -> Result<Option<i64>, StoreError> {
        match self {
            Store::Sqlite(s) => s.blocking(id.clone(), |s, id| s.version(&id)).await,
            Store::Postgres(p) => p.version(id).await,
        }
    }

    /// Claims the engine's move at `ply` of game `id` for `node`, for
    /// `lease_ms` (by the database's clock), unless another node holds it.
    /// One server alone (SQLite) always has it.
    pub async fn claim_engine(
        &self,
        id: &GameId,
        ply: i64,
        node: &str,
        lease_ms: i64,
    ) -> Result<bool, StoreError> {
        match self {
            Store::Sqlite(_) => Ok(true),
            Store::Postgres(p) => p.claim_engine(id, ply, node, lease_ms).await,
        }
    }

    /// Claims up to `limit` engine moves nobody holds (new ones left by
    /// their server, or ones whose holder stopped renewing): (game, ply).
    pub async fn claim_engine_jobs(
        &self,
        node: &str,
        lease_ms: i64,
        limit: i64,
    ) -> Result<Vec<(GameId, i64)>, StoreError> {
        match self {
            Store::Sqlite(_) => Ok(Vec::new()),
            Store::Postgres(p) => p.claim_engine_jobs(node, lease_ms, limit).await,
        }
    }

    /// Extends `node`'s claims on the engine moves of `ids` by `lease_ms`.
    pub async fn renew_engine(
        &self,
        node: &str,
        ids: &[GameId],
        lease_ms: i64,
    ) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(_) => Ok(()),
            Store::Postgres(p) => p.renew_engine(node, ids, lease_ms).await,
        }
    }

    /// Removes the job of an engine move that is not due after all.
    pub async fn drop_engine_job(&self, id: &GameId, ply: i64) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(_) => Ok(()),
            Store::Postgres(p) => p.drop_engine_job(id, ply).await,
        }
    }

    /// Gives up `node`'s claim on game `id`'s engine move (a search that
    /// ended without a move), so that any node may take it at once.
    pub async fn release_engine(&self, id: &GameId, node: &str) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(_) => Ok(()),
            Store::Postgres(p) => p.release_engine(id, node).await,
        }
    }

    /// Whether the database answers (for `/healthz`).
    pub async fn check(&self) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(s) => s.blocking((), |s, ()| s.check()).await,
            Store::Postgres(p) => p.check().await,
        }
    }
}
