//! Puzzles in either database (issue 21; schema 10 on SQLite, 8 on
//! PostgreSQL): the committed set, seeded when the server starts, each
//! with its Glicko-2 rating; the signed-in players' puzzle ratings; and
//! their attempts, one rated attempt per player and puzzle (the key
//! refuses a second).

use rusqlite::{OptionalExtension, params};
use sqlx::Row;

use super::rows::{Kind, Param, Val};
use super::sqlite::SqliteStore;
use super::{Store, StoreError};
use crate::games::ids::UserId;

/// A puzzle as kept. `themes` is written with a space on each side of
/// every key (` capture short `), so that one `LIKE` finds a theme.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleRow {
    pub id: String,
    pub lfen: String,
    pub moves: String,
    pub themes: String,
    pub source: String,
    pub rating: f64,
    pub rd: f64,
    pub volatility: f64,
    pub plays: i64,
    pub wins: i64,
}

/// A rating as kept: the puzzle's or a player's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Glicko {
    pub rating: f64,
    pub rd: f64,
    pub volatility: f64,
}

/// A signed-in player's puzzle rating and counts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PuzzlePlayer {
    pub rating: Glicko,
    pub plays: i64,
    pub wins: i64,
}

/// A rated attempt: who, which puzzle, solved or not, when.
#[derive(Clone, Debug)]
pub struct Attempt {
    pub account: UserId,
    pub puzzle: String,
    pub win: bool,
    pub now_ms: i64,
}

/// Both ratings after an attempt, from the puzzle's and the player's
/// (`None`: the player's first puzzle).
pub type Rate = Box<dyn FnOnce(Glicko, Option<Glicko>) -> (Glicko, Glicko) + Send>;

/// What a rated attempt did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Attempted {
    /// The puzzle's and the player's ratings before and after.
    Rated {
        puzzle: (Glicko, Glicko),
        player: (Glicko, Glicko),
    },
    /// The player had tried this puzzle before: nothing changed.
    Again,
    /// No such puzzle.
    NoPuzzle,
}

/// A puzzle's columns, in the order of `KINDS` (reals are DOUBLE
/// PRECISION on PostgreSQL already; integers are cast to BIGINT).
macro_rules! columns {
    () => {
        "SELECT id, lfen, moves, themes, source, rating, rd, volatility,
        CAST(plays AS BIGINT), CAST(wins AS BIGINT)"
    };
}

const KINDS: [Kind; 10] = [
    Kind::Text,
    Kind::Text,
    Kind::Text,
    Kind::Text,
    Kind::Text,
    Kind::Real,
    Kind::Real,
    Kind::Real,
    Kind::Int,
    Kind::Int,
];

fn puzzle_row(r: &[Val]) -> Option<PuzzleRow> {
    Some(PuzzleRow {
        id: r[0].text()?,
        lfen: r[1].text()?,
        moves: r[2].text()?,
        themes: r[3].text()?,
        source: r[4].text()?,
        rating: r[5].real()?,
        rd: r[6].real()?,
        volatility: r[7].real()?,
        plays: r[8].int()?,
        wins: r[9].int()?,
    })
}

const BY_ID: &str = concat!(columns!(), " FROM puzzles WHERE id = $1");

/// The puzzles nearest a rating, of a theme (`$2`: a `LIKE` pattern),
/// that the account (`$3`, NULL for a visitor) has not tried.
const NEAR: &str = concat!(
    columns!(),
    " FROM puzzles p WHERE p.themes LIKE $2
    AND NOT EXISTS (SELECT 1 FROM puzzle_attempts a WHERE a.account_id = $3 AND a.puzzle_id = p.id)
    ORDER BY ABS(p.rating - $1), p.id LIMIT $4"
);

const NTH: &str = concat!(columns!(), " FROM puzzles ORDER BY id LIMIT 1 OFFSET $1");

const COUNT: &str = "SELECT CAST(COUNT(*) AS BIGINT) FROM puzzles";

const THEMES: &str = "SELECT themes FROM puzzles";

const PLAYER: &str = "SELECT rating, rd, volatility, CAST(plays AS BIGINT), CAST(wins AS BIGINT) FROM puzzle_players WHERE account_id = $1";

const INSERT: &str = "INSERT INTO puzzles (id, lfen, moves, themes, source, rating, rd, volatility)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (id) DO NOTHING";

fn sqlite_seed(
    s: &SqliteStore,
    (hash, rows, now_ms): (String, Vec<PuzzleRow>, i64),
) -> Result<usize, StoreError> {
    s.read(|c| {
        let tx = c.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let added_set = tx.execute(
            "INSERT INTO puzzle_seeds (hash, at_ms) VALUES (?1, ?2) ON CONFLICT (hash) DO NOTHING",
            params![hash, now_ms],
        )?;
        if added_set == 0 {
            return Ok(0);
        }
        let mut added = 0;
        {
            let mut stmt = tx.prepare(&INSERT.replace('$', "?"))?;
            for p in &rows {
                added += stmt.execute(params![
                    p.id,
                    p.lfen,
                    p.moves,
                    p.themes,
                    p.source,
                    p.rating,
                    p.rd,
                    p.volatility
                ])?;
            }
        }
        tx.commit()?;
        Ok(added)
    })
}

fn sqlite_glicko(
    tx: &rusqlite::Transaction<'_>,
    sql: &str,
    key: &dyn rusqlite::ToSql,
) -> Result<Option<Glicko>, StoreError> {
    Ok(tx
        .query_row(sql, [key], |r| {
            Ok(Glicko {
                rating: r.get(0)?,
                rd: r.get(1)?,
                volatility: r.get(2)?,
            })
        })
        .optional()?)
}

fn sqlite_attempt(s: &SqliteStore, (a, rate): (Attempt, Rate)) -> Result<Attempted, StoreError> {
    s.read(|c| {
        let tx = c.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let Some(puzzle) = sqlite_glicko(
            &tx,
            "SELECT rating, rd, volatility FROM puzzles WHERE id = ?1",
            &a.puzzle,
        )?
        else {
            return Ok(Attempted::NoPuzzle);
        };
        let tried: Option<i64> = tx
            .query_row(
                "SELECT 1 FROM puzzle_attempts WHERE account_id = ?1 AND puzzle_id = ?2",
                params![a.account.0, a.puzzle],
                |r| r.get(0),
            )
            .optional()?;
        if tried.is_some() {
            return Ok(Attempted::Again);
        }
        let player = sqlite_glicko(
            &tx,
            "SELECT rating, rd, volatility FROM puzzle_players WHERE account_id = ?1",
            &a.account.0,
        )?;
        let before_player = player.unwrap_or(NEW_PLAYER);
        let (p, me) = rate(puzzle, player);
        let win = i64::from(a.win);
        tx.execute(
            "UPDATE puzzles SET rating = ?2, rd = ?3, volatility = ?4, plays = plays + 1,
             wins = wins + ?5 WHERE id = ?1",
            params![a.puzzle, p.rating, p.rd, p.volatility, win],
        )?;
        tx.execute(
            "INSERT INTO puzzle_players (account_id, rating, rd, volatility, plays, wins, last_ms)
             VALUES (?1, ?2, ?3, ?4, 1, ?5, ?6)
             ON CONFLICT (account_id) DO UPDATE SET rating = excluded.rating, rd = excluded.rd,
               volatility = excluded.volatility, plays = plays + 1, wins = wins + excluded.wins,
               last_ms = excluded.last_ms",
            params![a.account.0, me.rating, me.rd, me.volatility, win, a.now_ms],
        )?;
        tx.execute(
            "INSERT INTO puzzle_attempts (account_id, puzzle_id, at_ms, win, before_rating,
               after_rating) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![
                a.account.0,
                a.puzzle,
                a.now_ms,
                win,
                before_player.rating,
                me.rating
            ],
        )?;
        tx.commit()?;
        Ok(Attempted::Rated {
            puzzle: (puzzle, p),
            player: (before_player, me),
        })
    })
}

/// A player's first puzzle is rated from Glicko-2's start, as a new
/// player's first game.
pub const NEW_PLAYER: Glicko = Glicko {
    rating: crate::players::ratings::START.0,
    rd: crate::players::ratings::START.1,
    volatility: crate::players::ratings::START.2,
};

fn pg_glicko(r: &sqlx::postgres::PgRow) -> Result<Glicko, sqlx::Error> {
    Ok(Glicko {
        rating: r.try_get(0)?,
        rd: r.try_get(1)?,
        volatility: r.try_get(2)?,
    })
}

impl Store {
    /// Adds a set of puzzles once: `hash` names the set (the committed
    /// file's hash), and a set already added is not read again. Puzzles
    /// kept already (by id) keep their ratings. How many were added.
    pub async fn seed_puzzles(
        &self,
        hash: &str,
        rows: Vec<PuzzleRow>,
        now_ms: i64,
    ) -> Result<usize, StoreError> {
        match self {
            Store::Sqlite(s) => {
                s.blocking((hash.to_string(), rows, now_ms), sqlite_seed)
                    .await
            }
            Store::Postgres(p) => {
                let mut tx = p.pool().begin().await?;
                // Two servers starting at once: the second waits here, then
                // finds the set added.
                let added_set = sqlx::query(
                    "INSERT INTO puzzle_seeds (hash, at_ms) VALUES ($1, $2)
                     ON CONFLICT (hash) DO NOTHING",
                )
                .bind(hash)
                .bind(now_ms)
                .execute(&mut *tx)
                .await?
                .rows_affected();
                if added_set == 0 {
                    tx.rollback().await?;
                    return Ok(0);
                }
                // One statement for the whole set (columns as arrays): a
                // round trip a puzzle made every start of a new database
                // wait for thousands.
                let column = |f: fn(&PuzzleRow) -> &String| -> Vec<String> {
                    rows.iter().map(|r| f(r).clone()).collect()
                };
                let number =
                    |f: fn(&PuzzleRow) -> f64| -> Vec<f64> { rows.iter().map(f).collect() };
                let added = sqlx::query(
                    "INSERT INTO puzzles (id, lfen, moves, themes, source, rating, rd, volatility)
                     SELECT * FROM UNNEST($1::TEXT[], $2::TEXT[], $3::TEXT[], $4::TEXT[],
                                          $5::TEXT[], $6::FLOAT8[], $7::FLOAT8[], $8::FLOAT8[])
                     ON CONFLICT (id) DO NOTHING",
                )
                .bind(column(|r| &r.id))
                .bind(column(|r| &r.lfen))
                .bind(column(|r| &r.moves))
                .bind(column(|r| &r.themes))
                .bind(column(|r| &r.source))
                .bind(number(|r| r.rating))
                .bind(number(|r| r.rd))
                .bind(number(|r| r.volatility))
                .execute(&mut *tx)
                .await?
                .rows_affected() as usize;
                tx.commit().await?;
                Ok(added)
            }
        }
    }

    pub async fn puzzle(&self, id: &str) -> Result<Option<PuzzleRow>, StoreError> {
        let rows = self
            .rows(BY_ID, vec![Param::Text(id.to_string())], &KINDS)
            .await?;
        Ok(rows.first().and_then(|r| puzzle_row(r)))
    }

    /// Up to `count` puzzles nearest `rating`, of `theme` (any when
    /// `None`), not tried by `account`.
    pub async fn puzzles_near(
        &self,
        rating: i64,
        theme: Option<&str>,
        account: Option<UserId>,
        count: i64,
    ) -> Result<Vec<PuzzleRow>, StoreError> {
        let pattern = theme.map_or_else(|| "%".to_string(), |t| format!("% {t} %"));
        let rows = self
            .rows(
                NEAR,
                vec![
                    Param::Int(rating),
                    Param::Text(pattern),
                    account.map_or(Param::NoInt, |a| Param::Int(a.0)),
                    Param::Int(count),
                ],
                &KINDS,
            )
            .await?;
        Ok(rows.iter().filter_map(|r| puzzle_row(r)).collect())
    }

    /// The `n`-th puzzle by id (for the puzzle of the day), and how many.
    pub async fn nth_puzzle(&self, n: i64) -> Result<Option<PuzzleRow>, StoreError> {
        let rows = self.rows(NTH, vec![Param::Int(n)], &KINDS).await?;
        Ok(rows.first().and_then(|r| puzzle_row(r)))
    }

    pub async fn puzzle_count(&self) -> Result<i64, StoreError> {
        let rows = self.rows(COUNT, vec![], &[Kind::Int]).await?;
        Ok(rows.first().and_then(|r| r[0].int()).unwrap_or(0))
    }

    /// Every puzzle's themes, as kept.
    pub async fn puzzle_themes(&self) -> Result<Vec<String>, StoreError> {
        let rows = self.rows(THEMES, vec![], &[Kind::Text]).await?;
        Ok(rows.iter().filter_map(|r| r[0].text()).collect())
    }

    /// A signed-in player's puzzle rating, if they have tried one.
    pub async fn puzzle_player(&self, account: UserId) -> Result<Option<PuzzlePlayer>, StoreError> {
        let rows = self
            .rows(
                PLAYER,
                vec![Param::Int(account.0)],
                &[Kind::Real, Kind::Real, Kind::Real, Kind::Int, Kind::Int],
            )
            .await?;
        Ok(rows.first().and_then(|r| {
            Some(PuzzlePlayer {
                rating: Glicko {
                    rating: r[0].real()?,
                    rd: r[1].real()?,
                    volatility: r[2].real()?,
                },
                plays: r[3].int()?,
                wins: r[4].int()?,
            })
        }))
    }

    /// A signed-in player's attempt: both ratings change in one
    /// transaction, once per player and puzzle.
    pub async fn puzzle_attempt(&self, a: Attempt, rate: Rate) -> Result<Attempted, StoreError> {
        match self {
            Store::Sqlite(s) => s.blocking((a, rate), sqlite_attempt).await,
            Store::Postgres(p) => {
                let mut tx = p.pool().begin().await?;
                // The puzzle's row locked first, then the player's: two
                // attempts at once queue here.
                let Some(puzzle) = sqlx::query(
                    "SELECT rating, rd, volatility FROM puzzles WHERE id = $1 FOR UPDATE",
                )
                .bind(&a.puzzle)
                .fetch_optional(&mut *tx)
                .await?
                else {
                    return Ok(Attempted::NoPuzzle);
                };
                let puzzle = pg_glicko(&puzzle)?;
                let player = sqlx::query(
                    "SELECT rating, rd, volatility FROM puzzle_players WHERE account_id = $1
                     FOR UPDATE",
                )
                .bind(a.account.0)
                .fetch_optional(&mut *tx)
                .await?
                .map(|r| pg_glicko(&r))
                .transpose()?;
                let tried: Option<i32> = sqlx::query_scalar(
                    "SELECT 1 FROM puzzle_attempts WHERE account_id = $1 AND puzzle_id = $2",
                )
                .bind(a.account.0)
                .bind(&a.puzzle)
                .fetch_optional(&mut *tx)
                .await?;
                if tried.is_some() {
                    tx.rollback().await?;
                    return Ok(Attempted::Again);
                }
                let before_player = player.unwrap_or(NEW_PLAYER);
                let (p2, me) = rate(puzzle, player);
                let win = i32::from(a.win);
                sqlx::query(
                    "UPDATE puzzles SET rating = $2, rd = $3, volatility = $4, plays = plays + 1,
                     wins = wins + $5 WHERE id = $1",
                )
                .bind(&a.puzzle)
                .bind(p2.rating)
                .bind(p2.rd)
                .bind(p2.volatility)
                .bind(win)
                .execute(&mut *tx)
                .await?;
                sqlx::query(
                    "INSERT INTO puzzle_players (account_id, rating, rd, volatility, plays, wins,
                       last_ms) VALUES ($1, $2, $3, $4, 1, $5, $6)
                     ON CONFLICT (account_id) DO UPDATE SET rating = excluded.rating,
                       rd = excluded.rd, volatility = excluded.volatility,
                       plays = puzzle_players.plays + 1,
                       wins = puzzle_players.wins + excluded.wins, last_ms = excluded.last_ms",
                )
                .bind(a.account.0)
                .bind(me.rating)
                .bind(me.rd)
                .bind(me.volatility)
                .bind(win)
                .bind(a.now_ms)
                .execute(&mut *tx)
                .await?;
                sqlx::query(
                    "INSERT INTO puzzle_attempts (account_id, puzzle_id, at_ms, win,
                       before_rating, after_rating) VALUES ($1, $2, $3, $4, $5, $6)",
                )
                .bind(a.account.0)
                .bind(&a.puzzle)
                .bind(a.now_ms)
                .bind(win)
                .bind(before_player.rating)
                .bind(me.rating)
                .execute(&mut *tx)
                .await?;
                tx.commit().await?;
                Ok(Attempted::Rated {
                    puzzle: (puzzle, p2),
                    player: (before_player, me),
                })
            }
        }
    }
}
