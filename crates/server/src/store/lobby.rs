//! The lobby's seeks, quick-pairing places and challenges in either
//! database (issue 20). Kept in the database, not in one server's memory,
//! so that a seek made on one server is seen and accepted on another; a
//! seek is taken by one statement that only one acceptor can win
//! (`game_id IS NULL` in its condition), a pool's pair by one transaction.

use rusqlite::{OptionalExtension, params};
use sqlx::Row;

use super::accounts::Arg;
use super::sqlite::SqliteStore;
use super::{Store, StoreError};
use crate::games::ids::{ChallengeId, GameId, SecretHash, SeekId, UserId};

/// A seek (or a place in a pool) as the database keeps it.
#[derive(Clone, Debug, PartialEq)]
pub struct SeekRow {
    pub id: SeekId,
    pub owner: Option<UserId>,
    /// The owner's name, read with the seek (not stored in it).
    pub owner_name: Option<String>,
    /// The hash of the owner's seat token in the game to come.
    pub seat: SecretHash,
    /// Initial time and increment, ms.
    pub clock: Option<(i64, i64)>,
    pub days: Option<u8>,
    pub rated: bool,
    /// `random`, `white` or `black`: the owner's side.
    pub color: String,
    /// The owner's rating in the seek's class when it was made, and its
    /// deviation.
    pub rating: Option<f64>,
    pub rd: Option<f64>,
    pub min_rating: Option<i64>,
    pub max_rating: Option<i64>,
    /// The quick-pairing pool, for a place in one (not listed as a seek).
    pub pool: Option<String>,
    pub created_ms: i64,
    /// Gone unless kept alive by then (its owner's socket renews it).
    pub alive_until_ms: i64,
    /// The game it became, and the owner's side in it.
    pub game: Option<GameId>,
    pub game_color: Option<String>,
}

/// A challenge as the database keeps it.
#[derive(Clone, Debug, PartialEq)]
pub struct ChallengeRow {
    pub id: ChallengeId,
    pub from: UserId,
    pub from_name: String,
    pub to: UserId,
    pub to_name: String,
    pub seat: SecretHash,
    pub clock: Option<(i64, i64)>,
    pub days: Option<u8>,
    pub rated: bool,
    /// The challenger's side: `random`, `white` or `black`.
    pub color: String,
    pub created_ms: i64,
    pub expires_ms: i64,
    /// `open`, `accepted`, `declined` or `cancelled`.
    pub status: String,
    pub game: Option<GameId>,
}

const SEEK_COLUMNS: &str = "s.id, s.owner_account, a.username, s.seat_hash, s.clock_initial_ms,
    s.clock_increment_ms, s.days, s.rated, s.color, s.rating, s.rd, s.min_rating, s.max_rating, s.pool,
    s.created_ms, s.alive_until_ms, s.game_id, s.game_color";
const SEEK_FROM: &str = "seeks s LEFT JOIN accounts a ON a.id = s.owner_account";

const CHALLENGE_COLUMNS: &str = "c.id, c.from_account, f.username, c.to_account, t.username,
    c.seat_hash, c.clock_initial_ms, c.clock_increment_ms, c.days, c.rated, c.color,
    c.created_ms, c.expires_ms, c.status, c.game_id";
const CHALLENGE_FROM: &str = "challenges c JOIN accounts f ON f.id = c.from_account
    JOIN accounts t ON t.id = c.to_account";

/// A colour as kept: a word of the lobby's three, else the row is corrupt.
fn color(word: String, id: &str) -> Result<String, StoreError> {
    if ["random", "white", "black"].contains(&word.as_str()) {
        Ok(word)
    } else {
        Err(corrupt("colour", id))
    }
}

fn corrupt(what: &str, id: &str) -> StoreError {
    StoreError::Corrupt {
        id: id.to_string(),
        why: what.to_string(),
    }
}

/// The columns read, checked the same way for both databases.
#[allow(clippy::too_many_arguments)]
fn seek_of(
    id: String,
    owner: Option<i64>,
    owner_name: Option<String>,
    seat: String,
    clock: (Option<i64>, Option<i64>),
    days: Option<i64>,
    rated: bool,
    color_word: String,
    (rating, rd): (Option<f64>, Option<f64>),
    range: (Option<i64>, Option<i64>),
    pool: Option<String>,
    created_ms: i64,
    alive_until_ms: i64,
    game: Option<String>,
    game_color: Option<String>,
) -> Result<SeekRow, StoreError> {
    Ok(SeekRow {
        color: color(color_word, &id)?,
        seat: SecretHash::parse(&seat).ok_or_else(|| corrupt("seek seat", &id))?,
        clock: match clock {
            (Some(i), Some(inc)) => Some((i, inc)),
            (None, None) => None,
            _ => return Err(corrupt("seek clock", &id)),
        },
        days: days
            .map(u8::try_from)
            .transpose()
            .map_err(|_| corrupt("seek days", &id))?,
        game: game
            .map(|g| GameId::parse(&g))
            .transpose()
            .map_err(|_| corrupt("seek game", &id))?,
        id: SeekId::parse(&id).map_err(|_| corrupt("seek id", &id))?,
        owner: owner.map(UserId),
        owner_name,
        rated,
        rating,
        rd,
        min_rating: range.0,
        max_rating: range.1,
        pool,
        created_ms,
        alive_until_ms,
        game_color,
    })
}

fn sqlite_seek(r: &rusqlite::Row<'_>) -> rusqlite::Result<Result<SeekRow, StoreError>> {
    Ok(seek_of(
        r.get(0)?,
        r.get(1)?,
        r.get(2)?,
        r.get(3)?,
        (r.get(4)?, r.get(5)?),
        r.get(6)?,
        r.get::<_, i64>(7)? != 0,
        r.get(8)?,
        (r.get(9)?, r.get(10)?),
        (r.get(11)?, r.get(12)?),
        r.get(13)?,
        r.get(14)?,
        r.get(15)?,
        r.get(16)?,
        r.get(17)?,
    ))
}

fn pg_seek(r: &sqlx::postgres::PgRow) -> Result<SeekRow, StoreError> {
    seek_of(
        r.try_get(0)?,
        r.try_get(1)?,
        r.try_get(2)?,
        r.try_get(3)?,
        (r.try_get(4)?, r.try_get(5)?),
        r.try_get::<Option<i16>, _>(6)?.map(i64::from),
        r.try_get(7)?,
        r.try_get(8)?,
        (r.try_get(9)?, r.try_get(10)?),
        (
            r.try_get::<Option<i32>, _>(11)?.map(i64::from),
            r.try_get::<Option<i32>, _>(12)?.map(i64::from),
        ),
        r.try_get(13)?,
        r.try_get(14)?,
        r.try_get(15)?,
        r.try_get(16)?,
        r.try_get(17)?,
    )
}

#[allow(clippy::too_many_arguments)]
fn challenge_of(
    id: String,
    from: i64,
    from_name: String,
    to: i64,
    to_name: String,
    seat: String,
    clock: (Option<i64>, Option<i64>),
    days: Option<i64>,
    rated: bool,
    color_word: String,
    created_ms: i64,
    expires_ms: i64,
    status: String,
    game: Option<String>,
) -> Result<ChallengeRow, StoreError> {
    Ok(ChallengeRow {
        color: color(color_word, &id)?,
        seat: SecretHash::parse(&seat).ok_or_else(|| corrupt("challenge seat", &id))?,
        clock: match clock {
            (Some(i), Some(inc)) => Some((i, inc)),
            (None, None) => None,
            _ => return Err(corrupt("challenge clock", &id)),
        },
        days: days
            .map(u8::try_from)
            .transpose()
            .map_err(|_| corrupt("challenge days", &id))?,
        game: game
            .map(|g| GameId::parse(&g))
            .transpose()
            .map_err(|_| corrupt("challenge game", &id))?,
        id: ChallengeId::parse(&id).map_err(|_| corrupt("challenge id", &id))?,
        from: UserId(from),
        from_name,
        to: UserId(to),
        to_name,
        rated,
        created_ms,
        expires_ms,
        status,
    })
}

fn sqlite_challenge(r: &rusqlite::Row<'_>) -> rusqlite::Result<Result<ChallengeRow, StoreError>> {
    Ok(challenge_of(
        r.get(0)?,
        r.get(1)?,
        r.get(2)?,
        r.get(3)?,
        r.get(4)?,
        r.get(5)?,
        (r.get(6)?, r.get(7)?),
        r.get(8)?,
        r.get::<_, i64>(9)? != 0,
        r.get(10)?,
        r.get(11)?,
        r.get(12)?,
        r.get(13)?,
        r.get(14)?,
    ))
}

fn pg_challenge(r: &sqlx::postgres::PgRow) -> Result<ChallengeRow, StoreError> {
    challenge_of(
        r.try_get(0)?,
        r.try_get(1)?,
        r.try_get(2)?,
        r.try_get(3)?,
        r.try_get(4)?,
        r.try_get(5)?,
        (r.try_get(6)?, r.try_get(7)?),
        r.try_get::<Option<i16>, _>(8)?.map(i64::from),
        r.try_get(9)?,
        r.try_get(10)?,
        r.try_get(11)?,
        r.try_get(12)?,
        r.try_get(13)?,
        r.try_get(14)?,
    )
}

fn opt_int(v: Option<i64>) -> Arg {
    v.map_or(Arg::NullInt, Arg::Int)
}

fn opt_text(v: Option<&str>) -> Arg {
    v.map_or(Arg::Null, |t| Arg::Text(t.to_string()))
}

fn sqlite_seeks(
    s: &SqliteStore,
    (filter, args): (String, Vec<rusqlite::types::Value>),
) -> Result<Vec<SeekRow>, StoreError> {
    s.read(|c| {
        let mut stmt = c.prepare(&format!(
            "SELECT {SEEK_COLUMNS} FROM {SEEK_FROM} WHERE {filter} ORDER BY s.created_ms"
        ))?;
        let rows = stmt
            .query_map(rusqlite::params_from_iter(args), sqlite_seek)?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        rows.into_iter().collect()
    })
}

fn sqlite_challenges(
    s: &SqliteStore,
    (filter, args): (String, Vec<rusqlite::types::Value>),
) -> Result<Vec<ChallengeRow>, StoreError> {
    s.read(|c| {
        let mut stmt = c.prepare(&format!(
            "SELECT {CHALLENGE_COLUMNS} FROM {CHALLENGE_FROM} WHERE {filter}
             ORDER BY c.created_ms"
        ))?;
        let rows = stmt
            .query_map(rusqlite::params_from_iter(args), sqlite_challenge)?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        rows.into_iter().collect()
    })
}

/// Both places of a pool's pair taken in one transaction, or neither.
fn sqlite_claim_pair(
    s: &SqliteStore,
    (pair, game, now): ([(SeekId, String); 2], GameId, i64),
) -> Result<bool, StoreError> {
    s.read(|c| {
        let tx = c.transaction()?;
        for (id, color) in &pair {
            let n = tx.execute(
                "UPDATE seeks SET game_id = ?2, game_color = ?3
                 WHERE id = ?1 AND game_id IS NULL AND alive_until_ms > ?4",
                params![id.as_str(), game.as_str(), color, now],
            )?;
            if n == 0 {
                return Ok(false);
            }
        }
        tx.commit()?;
        Ok(true)
    })
}

fn sqlite_expire(s: &SqliteStore, now: i64) -> Result<Vec<SeekId>, StoreError> {
    s.read(|c| {
        let ids: Vec<String> = c
            .prepare(
                "DELETE FROM seeks WHERE game_id IS NULL AND alive_until_ms <= ?1 RETURNING id",
            )?
            .query_map(params![now], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        // Taken seeks are kept a day, for an owner who asks what became
        // of theirs.
        c.execute(
            "DELETE FROM seeks WHERE game_id IS NOT NULL AND created_ms <= ?1",
            params![now - 86_400_000],
        )?;
        ids.iter()
            .map(|i| SeekId::parse(i).map_err(|_| corrupt("seek id", i)))
            .collect()
    })
}

fn sqlite_one_seek(s: &SqliteStore, id: SeekId) -> Result<Option<SeekRow>, StoreError> {
    s.read(|c| {
        c.query_row(
            &format!("SELECT {SEEK_COLUMNS} FROM {SEEK_FROM} WHERE s.id = ?1"),
            params![id.as_str()],
            sqlite_seek,
        )
        .optional()?
        .transpose()
    })
}

fn sqlite_values(args: &[Arg]) -> Vec<rusqlite::types::Value> {
    args.iter().map(Arg::sqlite).collect()
}

/// Binds `args` to a PostgreSQL query.
fn pg_bind<'q>(
    mut q: sqlx::query::Query<'q, sqlx::Postgres, sqlx::postgres::PgArguments>,
    args: Vec<Arg>,
) -> sqlx::query::Query<'q, sqlx::Postgres, sqlx::postgres::PgArguments> {
    for a in args {
        q = match a {
            Arg::Int(i) => q.bind(i),
            Arg::Real(r) => q.bind(r),
            Arg::Text(t) => q.bind(t),
            Arg::Null => q.bind(None::<String>),
            Arg::NullInt => q.bind(None::<i64>),
            Arg::NullReal => q.bind(None::<f64>),
        };
    }
    q
}

impl Store {
    async fn seeks_where(
        &self,
        sqlite: &str,
        pg: &str,
        args: Vec<Arg>,
    ) -> Result<Vec<SeekRow>, StoreError> {
        match self {
            Store::Sqlite(s) => {
                s.blocking((sqlite.to_string(), sqlite_values(&args)), sqlite_seeks)
                    .await
            }
            Store::Postgres(p) => {
                let sql = format!(
                    "SELECT {SEEK_COLUMNS} FROM {SEEK_FROM} WHERE {pg} ORDER BY s.created_ms"
                );
                pg_bind(sqlx::query(sqlx::AssertSqlSafe(sql)), args)
                    .fetch_all(p.pool())
                    .await?
                    .iter()
                    .map(pg_seek)
                    .collect()
            }
        }
    }

    async fn challenges_where(
        &self,
        sqlite: &str,
        pg: &str,
        args: Vec<Arg>,
    ) -> Result<Vec<ChallengeRow>, StoreError> {
        match self {
            Store::Sqlite(s) => {
                s.blocking(
                    (sqlite.to_string(), sqlite_values(&args)),
                    sqlite_challenges,
                )
                .await
            }
            Store::Postgres(p) => {
                let sql = format!(
                    "SELECT {CHALLENGE_COLUMNS} FROM {CHALLENGE_FROM} WHERE {pg}
                     ORDER BY c.created_ms"
                );
                pg_bind(sqlx::query(sqlx::AssertSqlSafe(sql)), args)
                    .fetch_all(p.pool())
                    .await?
                    .iter()
                    .map(pg_challenge)
                    .collect()
            }
        }
    }

    pub async fn create_seek(&self, s: &SeekRow) -> Result<(), StoreError> {
        self.change(
            "INSERT INTO seeks (id, owner_account, seat_hash, clock_initial_ms,
                clock_increment_ms, days, rated, color, rating, rd, min_rating, max_rating, pool,
                created_ms, alive_until_ms)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?15, ?10, ?11, ?12, ?13, ?14)",
            "INSERT INTO seeks (id, owner_account, seat_hash, clock_initial_ms,
                clock_increment_ms, days, rated, color, rating, rd, min_rating, max_rating, pool,
                created_ms, alive_until_ms)
             VALUES ($1, $2, $3, $4, $5, $6::smallint, $7 <> 0, $8, $9::double precision,
                $15::double precision, $10::integer, $11::integer, $12, $13, $14)",
            vec![
                Arg::Text(s.id.as_str().into()),
                opt_int(s.owner.map(|u| u.0)),
                Arg::Text(s.seat.as_str().into()),
                opt_int(s.clock.map(|c| c.0)),
                opt_int(s.clock.map(|c| c.1)),
                opt_int(s.days.map(i64::from)),
                Arg::Int(i64::from(s.rated)),
                Arg::Text(s.color.clone()),
                s.rating.map_or(Arg::NullReal, Arg::Real),
                opt_int(s.min_rating),
                opt_int(s.max_rating),
                opt_text(s.pool.as_deref()),
                Arg::Int(s.created_ms),
                Arg::Int(s.alive_until_ms),
                s.rd.map_or(Arg::NullReal, Arg::Real),
            ],
        )
        .await
        .map(drop)
    }

    /// The open seeks at `now` (places in pools are not seeks).
    pub async fn open_seeks(&self, now: i64) -> Result<Vec<SeekRow>, StoreError> {
        self.seeks_where(
            "s.game_id IS NULL AND s.pool IS NULL AND s.alive_until_ms > ?1",
            "s.game_id IS NULL AND s.pool IS NULL AND s.alive_until_ms > $1",
            vec![Arg::Int(now)],
        )
        .await
    }

    /// The open places of every pool at `now`.
    pub async fn pool_places(&self, now: i64) -> Result<Vec<SeekRow>, StoreError> {
        self.seeks_where(
            "s.game_id IS NULL AND s.pool IS NOT NULL AND s.alive_until_ms > ?1",
            "s.game_id IS NULL AND s.pool IS NOT NULL AND s.alive_until_ms > $1",
            vec![Arg::Int(now)],
        )
        .await
    }

    /// The seeks (and places) of an account or of seat hashes, open at `now`.
    pub async fn seeks_of(
        &self,
        owner: Option<UserId>,
        seats: &[SecretHash],
        now: i64,
    ) -> Result<Vec<SeekRow>, StoreError> {
        // A handful of seats at most (the lobby socket bounds them).
        let mut rows = Vec::new();
        if let Some(u) = owner {
            rows.extend(
                self.seeks_where(
                    "s.game_id IS NULL AND s.alive_until_ms > ?2 AND s.owner_account = ?1",
                    "s.game_id IS NULL AND s.alive_until_ms > $2 AND s.owner_account = $1",
                    vec![Arg::Int(u.0), Arg::Int(now)],
                )
                .await?,
            );
        }
        for seat in seats {
            for r in self
                .seeks_where(
                    "s.game_id IS NULL AND s.alive_until_ms > ?2 AND s.seat_hash = ?1",
                    "s.game_id IS NULL AND s.alive_until_ms > $2 AND s.seat_hash = $1",
                    vec![Arg::Text(seat.as_str().into()), Arg::Int(now)],
                )
                .await?
            {
                if !rows.iter().any(|x: &SeekRow| x.id == r.id) {
                    rows.push(r);
                }
            }
        }
        Ok(rows)
    }

    pub async fn seek(&self, id: &SeekId) -> Result<Option<SeekRow>, StoreError> {
        match self {
            Store::Sqlite(s) => s.blocking(id.clone(), sqlite_one_seek).await,
            Store::Postgres(p) => {
                let sql = format!("SELECT {SEEK_COLUMNS} FROM {SEEK_FROM} WHERE s.id = $1");
                match sqlx::query(sqlx::AssertSqlSafe(sql))
                    .bind(id.as_str())
                    .fetch_optional(p.pool())
                    .await?
                {
                    Some(r) => pg_seek(&r).map(Some),
                    None => Ok(None),
                }
            }
        }
    }

    /// Takes an open seek for game `game`, the owner playing `color`;
    /// whether this call took it (of two acceptors, one does).
    pub async fn claim_seek(
        &self,
        id: &SeekId,
        game: &GameId,
        color: &str,
        now: i64,
    ) -> Result<bool, StoreError> {
        self.change(
            "UPDATE seeks SET game_id = ?2, game_color = ?3
             WHERE id = ?1 AND game_id IS NULL AND alive_until_ms > ?4",
            "UPDATE seeks SET game_id = $2, game_color = $3
             WHERE id = $1 AND game_id IS NULL AND alive_until_ms > $4",
            vec![
                Arg::Text(id.as_str().into()),
                Arg::Text(game.as_str().into()),
                Arg::Text(color.into()),
                Arg::Int(now),
            ],
        )
        .await
        .map(|n| n == 1)
    }

    /// Takes two open places of a pool for game `game`, each with its
    /// owner's side, in one transaction: both, or neither.
    pub async fn claim_pair(
        &self,
        pair: [(SeekId, String); 2],
        game: &GameId,
        now: i64,
    ) -> Result<bool, StoreError> {
        match self {
            Store::Sqlite(s) => {
                s.blocking((pair, game.clone(), now), sqlite_claim_pair)
                    .await
            }
            Store::Postgres(p) => {
                let mut tx = p.pool().begin().await?;
                for (id, color) in &pair {
                    let n = sqlx::query(
                        "UPDATE seeks SET game_id = $2, game_color = $3
                         WHERE id = $1 AND game_id IS NULL AND alive_until_ms > $4",
                    )
                    .bind(id.as_str())
                    .bind(game.as_str())
                    .bind(color)
                    .bind(now)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected();
                    if n == 0 {
                        tx.rollback().await?;
                        return Ok(false);
                    }
                }
                tx.commit().await?;
                Ok(true)
            }
        }
    }

    /// Gives a taken seek back (its game could not be made).
    pub async fn release_seek(&self, id: &SeekId) -> Result<(), StoreError> {
        self.change(
            "UPDATE seeks SET game_id = NULL, game_color = NULL WHERE id = ?1",
            "UPDATE seeks SET game_id = NULL, game_color = NULL WHERE id = $1",
            vec![Arg::Text(id.as_str().into())],
        )
        .await
        .map(drop)
    }

    /// Removes an open seek; whether there was one.
    pub async fn cancel_seek(&self, id: &SeekId) -> Result<bool, StoreError> {
        self.change(
            "DELETE FROM seeks WHERE id = ?1 AND game_id IS NULL",
            "DELETE FROM seeks WHERE id = $1 AND game_id IS NULL",
            vec![Arg::Text(id.as_str().into())],
        )
        .await
        .map(|n| n > 0)
    }

    /// Keeps open seeks alive until `until`.
    pub async fn keep_seeks(&self, ids: &[SeekId], until: i64) -> Result<(), StoreError> {
        for id in ids {
            self.change(
                "UPDATE seeks SET alive_until_ms = ?2 WHERE id = ?1 AND game_id IS NULL",
                "UPDATE seeks SET alive_until_ms = $2 WHERE id = $1 AND game_id IS NULL",
                vec![Arg::Text(id.as_str().into()), Arg::Int(until)],
            )
            .await?;
        }
        Ok(())
    }

    /// Removes the open seeks whose time ran out by `now` (and taken ones
    /// a day old); the ids of the open ones removed.
    pub async fn expire_seeks(&self, now: i64) -> Result<Vec<SeekId>, StoreError> {
        match self {
            Store::Sqlite(s) => s.blocking(now, sqlite_expire).await,
            Store::Postgres(p) => {
                let ids: Vec<String> = sqlx::query_scalar(
                    "DELETE FROM seeks WHERE game_id IS NULL AND alive_until_ms <= $1
                     RETURNING id",
                )
                .bind(now)
                .fetch_all(p.pool())
                .await?;
                sqlx::query("DELETE FROM seeks WHERE game_id IS NOT NULL AND created_ms <= $1")
                    .bind(now - 86_400_000)
                    .execute(p.pool())
                    .await?;
                ids.iter()
                    .map(|i| SeekId::parse(i).map_err(|_| corrupt("seek id", i)))
                    .collect()
            }
        }
    }

    pub async fn create_challenge(&self, c: &ChallengeRow) -> Result<(), StoreError> {
        self.change(
            "INSERT INTO challenges (id, from_account, to_account, seat_hash, clock_initial_ms,
                clock_increment_ms, days, rated, color, created_ms, expires_ms, status)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, 'open')",
            "INSERT INTO challenges (id, from_account, to_account, seat_hash, clock_initial_ms,
                clock_increment_ms, days, rated, color, created_ms, expires_ms, status)
             VALUES ($1, $2, $3, $4, $5, $6, $7::smallint, $8 <> 0, $9, $10, $11, 'open')",
            vec![
                Arg::Text(c.id.as_str().into()),
                Arg::Int(c.from.0),
                Arg::Int(c.to.0),
                Arg::Text(c.seat.as_str().into()),
                opt_int(c.clock.map(|x| x.0)),
                opt_int(c.clock.map(|x| x.1)),
                opt_int(c.days.map(i64::from)),
                Arg::Int(i64::from(c.rated)),
                Arg::Text(c.color.clone()),
                Arg::Int(c.created_ms),
                Arg::Int(c.expires_ms),
            ],
        )
        .await
        .map(drop)
    }

    pub async fn challenge(&self, id: &ChallengeId) -> Result<Option<ChallengeRow>, StoreError> {
        Ok(self
            .challenges_where(
                "c.id = ?1",
                "c.id = $1",
                vec![Arg::Text(id.as_str().into())],
            )
            .await?
            .pop())
    }

    /// The open challenges to or from an account, at `now`.
    pub async fn challenges_of(
        &self,
        account: UserId,
        now: i64,
    ) -> Result<Vec<ChallengeRow>, StoreError> {
        self.challenges_where(
            "c.status = 'open' AND c.expires_ms > ?2 AND (c.from_account = ?1 OR c.to_account = ?1)",
            "c.status = 'open' AND c.expires_ms > $2 AND (c.from_account = $1 OR c.to_account = $1)",
            vec![Arg::Int(account.0), Arg::Int(now)],
        )
        .await
    }

    /// Ends an open challenge with `status` (and its game); whether this
    /// call ended it (of an accept and a cancel, one wins).
    pub async fn settle_challenge(
        &self,
        id: &ChallengeId,
        status: &str,
        game: Option<&GameId>,
        now: i64,
    ) -> Result<bool, StoreError> {
        self.change(
            "UPDATE challenges SET status = ?2, game_id = ?3
             WHERE id = ?1 AND status = 'open' AND expires_ms > ?4",
            "UPDATE challenges SET status = $2, game_id = $3
             WHERE id = $1 AND status = 'open' AND expires_ms > $4",
            vec![
                Arg::Text(id.as_str().into()),
                Arg::Text(status.into()),
                opt_text(game.map(GameId::as_str)),
                Arg::Int(now),
            ],
        )
        .await
        .map(|n| n == 1)
    }

    /// The games of `user` that may be in progress (started, not ended),
    /// newest first, at most `limit`.
    pub async fn games_in_progress(
        &self,
        user: UserId,
        limit: i64,
    ) -> Result<Vec<GameId>, StoreError> {
        let ids: Vec<String> = match self {
            Store::Sqlite(s) => s.blocking((user, limit), sqlite_in_progress).await?,
            Store::Postgres(p) => {
                sqlx::query_scalar(
                    "SELECT id FROM games WHERE (white_user = $1 OR black_user = $1)
                     AND started_ms IS NOT NULL AND ended_ms IS NULL AND declared IS NULL
                     ORDER BY created_ms DESC LIMIT $2",
                )
                .bind(user.0)
                .bind(limit)
                .fetch_all(p.pool())
                .await?
            }
        };
        super::game_ids(ids)
    }
}

fn sqlite_in_progress(
    s: &SqliteStore,
    (user, limit): (UserId, i64),
) -> Result<Vec<String>, StoreError> {
    s.read(|c| {
        let mut stmt = c.prepare(
            "SELECT id FROM games WHERE (white_user = ?1 OR black_user = ?1)
             AND started_ms IS NOT NULL AND ended_ms IS NULL AND declared IS NULL
             ORDER BY created_ms DESC LIMIT ?2",
        )?;
        let ids = stmt
            .query_map(params![user.0, limit], |r| r.get(0))?
            .collect::<rusqlite::Result<Vec<String>>>()?;
        Ok(ids)
    })
}
