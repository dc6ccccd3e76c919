//! Ratings per speed class and their changes, in either database (issue
//! 20). A rated game's two changes are written in one transaction, once:
//! the changes' key (game, account) refuses a second settling of the same
//! game, and the two players' rows are locked (PostgreSQL) or the writer
//! is alone (SQLite), so two games ending at once for one player both
//! count.

use rusqlite::{OptionalExtension, params};
use sqlx::Row;

use super::sqlite::SqliteStore;
use super::{Store, StoreError};
use crate::games::ids::{GameId, UserId};

/// One account's rating in one class, as kept.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayerRating {
    pub rating: f64,
    pub rd: f64,
    pub volatility: f64,
    /// Rated games played in the class.
    pub games: i64,
    /// When the last of them ended (unix ms).
    pub last_ms: i64,
}

/// A rated game that ended: who played which side, in which class.
#[derive(Clone, Debug)]
pub struct RatedGame {
    pub game: GameId,
    pub class: &'static str,
    pub white: UserId,
    pub black: UserId,
    pub now_ms: i64,
}

/// Both players' ratings before and after, as the caller computes them
/// from what is kept (`None`: no rated game in the class yet).
pub type Compute = Box<
    dyn FnOnce(Option<PlayerRating>, Option<PlayerRating>) -> [(PlayerRating, PlayerRating); 2]
        + Send,
>;

/// A rating change of one game, for one account.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatingChange {
    pub account: UserId,
    pub before: f64,
    pub before_rd: f64,
    pub after: f64,
    pub after_rd: f64,
}

fn sqlite_rating(
    c: &rusqlite::Transaction<'_>,
    account: UserId,
    class: &str,
) -> Result<Option<PlayerRating>, StoreError> {
    Ok(c.query_row(
        "SELECT rating, rd, volatility, games, last_ms FROM ratings
         WHERE account_id = ?1 AND class = ?2",
        params![account.0, class],
        |r| {
            Ok(PlayerRating {
                rating: r.get(0)?,
                rd: r.get(1)?,
                volatility: r.get(2)?,
                games: r.get(3)?,
                last_ms: r.get(4)?,
            })
        },
    )
    .optional()?)
}

fn sqlite_settle(s: &SqliteStore, (g, compute): (RatedGame, Compute)) -> Result<bool, StoreError> {
    s.read(|c| {
        let tx = c.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let done: Option<i64> = tx
            .query_row(
                "SELECT 1 FROM rating_changes WHERE game_id = ?1",
                params![g.game.as_str()],
                |r| r.get(0),
            )
            .optional()?;
        if done.is_some() {
            return Ok(false);
        }
        let w = sqlite_rating(&tx, g.white, g.class)?;
        let b = sqlite_rating(&tx, g.black, g.class)?;
        let changes = compute(w, b);
        for (account, (before, after)) in [g.white, g.black].into_iter().zip(changes) {
            tx.execute(
                "INSERT INTO ratings (account_id, class, rating, rd, volatility, games, last_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                 ON CONFLICT (account_id, class) DO UPDATE SET rating = excluded.rating,
                   rd = excluded.rd, volatility = excluded.volatility, games = excluded.games,
                   last_ms = excluded.last_ms",
                params![
                    account.0,
                    g.class,
                    after.rating,
                    after.rd,
                    after.volatility,
                    after.games,
                    after.last_ms
                ],
            )?;
            tx.execute(
                "INSERT INTO rating_changes (game_id, account_id, class, at_ms, before_rating,
                   before_rd, after_rating, after_rd, after_volatility)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                params![
                    g.game.as_str(),
                    account.0,
                    g.class,
                    g.now_ms,
                    before.rating,
                    before.rd,
                    after.rating,
                    after.rd,
                    after.volatility
                ],
            )?;
        }
        tx.commit()?;
        Ok(true)
    })
}

fn sqlite_changes(s: &SqliteStore, game: GameId) -> Result<Vec<RatingChange>, StoreError> {
    s.read(|c| {
        let mut stmt = c.prepare(
            "SELECT account_id, before_rating, before_rd, after_rating, after_rd
             FROM rating_changes WHERE game_id = ?1",
        )?;
        let rows = stmt
            .query_map(params![game.as_str()], |r| {
                Ok(RatingChange {
                    account: UserId(r.get(0)?),
                    before: r.get(1)?,
                    before_rd: r.get(2)?,
                    after: r.get(3)?,
                    after_rd: r.get(4)?,
                })
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(rows)
    })
}

fn pg_rating(r: &sqlx::postgres::PgRow) -> Result<PlayerRating, sqlx::Error> {
    Ok(PlayerRating {
        rating: r.try_get("rating")?,
        rd: r.try_get("rd")?,
        volatility: r.try_get("volatility")?,
        games: i64::from(r.try_get::<i32, _>("games")?),
        last_ms: r.try_get("last_ms")?,
    })
}

impl Store {
    /// Settles a rated game's ratings, once: `false` if it was already.
    pub async fn settle_rated(&self, g: RatedGame, compute: Compute) -> Result<bool, StoreError> {
        match self {
            Store::Sqlite(s) => s.blocking((g, compute), sqlite_settle).await,
            Store::Postgres(p) => {
                let mut tx = p.pool().begin().await?;
                // Both rows locked in the accounts' order (no deadlock
                // between two games of the same two players).
                let mut ids = [g.white.0, g.black.0];
                ids.sort_unstable();
                let mut kept = std::collections::HashMap::new();
                for id in ids {
                    if let Some(r) = sqlx::query(
                        "SELECT rating, rd, volatility, games, last_ms FROM ratings
                         WHERE account_id = $1 AND class = $2 FOR UPDATE",
                    )
                    .bind(id)
                    .bind(g.class)
                    .fetch_optional(&mut *tx)
                    .await?
                    {
                        kept.insert(id, pg_rating(&r)?);
                    }
                }
                // Taken after the locks: a second settling waits, then sees it.
                let done: Option<i32> =
                    sqlx::query_scalar("SELECT 1 FROM rating_changes WHERE game_id = $1")
                        .bind(g.game.as_str())
                        .fetch_optional(&mut *tx)
                        .await?;
                if done.is_some() {
                    tx.rollback().await?;
                    return Ok(false);
                }
                let changes = compute(kept.get(&g.white.0).copied(), kept.get(&g.black.0).copied());
                for (account, (before, after)) in [g.white, g.black].into_iter().zip(changes) {
                    sqlx::query(
                        "INSERT INTO ratings (account_id, class, rating, rd, volatility, games,
                           last_ms)
                         VALUES ($1, $2, $3, $4, $5, $6, $7)
                         ON CONFLICT (account_id, class) DO UPDATE SET rating = excluded.rating,
                           rd = excluded.rd, volatility = excluded.volatility,
                           games = excluded.games, last_ms = excluded.last_ms",
                    )
                    .bind(account.0)
                    .bind(g.class)
                    .bind(after.rating)
                    .bind(after.rd)
                    .bind(after.volatility)
                    .bind(after.games as i32)
                    .bind(after.last_ms)
                    .execute(&mut *tx)
                    .await?;
                    sqlx::query(
                        "INSERT INTO rating_changes (game_id, account_id, class, at_ms,
                           before_rating, before_rd, after_rating, after_rd, after_volatility)
                         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                    )
                    .bind(g.game.as_str())
                    .bind(account.0)
                    .bind(g.class)
                    .bind(g.now_ms)
                    .bind(before.rating)
                    .bind(before.rd)
                    .bind(after.rating)
                    .bind(after.rd)
                    .bind(after.volatility)
                    .execute(&mut *tx)
                    .await?;
                }
                tx.commit().await?;
                Ok(true)
            }
        }
    }

    /// The rating changes a game made.
    pub async fn rating_changes(&self, game: &GameId) -> Result<Vec<RatingChange>, StoreError> {
        match self {
            Store::Sqlite(s) => s.blocking(game.clone(), sqlite_changes).await,
            Store::Postgres(p) => {
                let rows = sqlx::query(
                    "SELECT account_id, before_rating, before_rd, after_rating, after_rd
                     FROM rating_changes WHERE game_id = $1",
                )
                .bind(game.as_str())
                .fetch_all(p.pool())
                .await?;
                let mut out = Vec::with_capacity(rows.len());
                for r in &rows {
                    out.push(RatingChange {
                        account: UserId(r.try_get(0)?),
                        before: r.try_get(1)?,
                        before_rd: r.try_get(2)?,
                        after: r.try_get(3)?,
                        after_rd: r.try_get(4)?,
                    });
                }
                Ok(out)
            }
        }
    }
}
