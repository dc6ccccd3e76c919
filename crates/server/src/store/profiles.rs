//! What the players' pages read (issue 20): a player's finished games,
//! ratings and rating changes, the leaderboards' candidates, the games
//! being played now. Read-only; the lead's game ends write them.

use super::rows::{Kind, Param, Val};
use super::{Store, StoreError};
use crate::games::ids::UserId;

/// A game as the players' pages show it, read with its players' names
/// (`deleted` for a deleted account, `None` for a seat without one).
#[derive(Clone, Debug, PartialEq)]
pub struct GameLine {
    pub id: String,
    pub mode: String,
    pub white_user: Option<UserId>,
    pub black_user: Option<UserId>,
    pub white_name: Option<String>,
    pub black_name: Option<String>,
    /// `1-0`, `0-1`, `1/2-1/2`; `None` while it is played.
    pub result: Option<String>,
    /// `w` or `b`: who won Phase 1.
    pub phase_one: Option<String>,
    pub rated: bool,
    pub clock_initial_ms: Option<i64>,
    pub clock_increment_ms: Option<i64>,
    pub days: Option<i64>,
    /// When it ended (its start while it is played).
    pub at_ms: i64,
    pub plies: i64,
    /// Each player's rating before a rated game.
    pub white_rating: Option<f64>,
    pub black_rating: Option<f64>,
    pub engine_color: Option<String>,
    pub level: Option<i64>,
}

/// A rating as the `ratings` table keeps it.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRow {
    pub class: String,
    pub rating: f64,
    pub rd: f64,
    pub volatility: f64,
    pub games: i64,
    pub last_ms: i64,
}

/// A rating of the leaderboards' candidates, with its player's name.
#[derive(Clone, Debug, PartialEq)]
pub struct RankedRow {
    pub username: String,
    pub rating: RatingRow,
}

const GAME_KINDS: [Kind; 18] = [
    Kind::Text,
    Kind::Text,
    Kind::Int,
    Kind::Int,
    Kind::Text,
    Kind::Text,
    Kind::Text,
    Kind::Text,
    Kind::Int,
    Kind::Int,
    Kind::Int,
    Kind::Int,
    Kind::Int,
    Kind::Int,
    Kind::Real,
    Kind::Real,
    Kind::Text,
    Kind::Int,
];

/// The finished games of an account, newest first (local games, both of
/// whose seats are the same person, are not a player's games).
const FINISHED: &str = "SELECT g.id, g.mode, CAST(g.white_user AS BIGINT), CAST(g.black_user AS BIGINT),
    CASE WHEN wa.deleted_ms IS NOT NULL THEN 'deleted' ELSE wa.username END,
    CASE WHEN ba.deleted_ms IS NOT NULL THEN 'deleted' ELSE ba.username END,
    g.result, g.phase_one, CAST(CASE WHEN g.rated THEN 1 ELSE 0 END AS BIGINT),
    CAST(g.clock_initial_ms AS BIGINT), CAST(g.clock_increment_ms AS BIGINT), CAST(g.days AS BIGINT),
    CAST(COALESCE(g.ended_ms, g.started_ms, g.created_ms) AS BIGINT),
    (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id),
    rw.before_rating, rb.before_rating, g.engine_color, CAST(g.level AS BIGINT)
    FROM games g
    LEFT JOIN accounts wa ON wa.id = g.white_user
    LEFT JOIN accounts ba ON ba.id = g.black_user
    LEFT JOIN rating_changes rw ON rw.game_id = g.id AND rw.account_id = g.white_user
    LEFT JOIN rating_changes rb ON rb.game_id = g.id AND rb.account_id = g.black_user
    WHERE (g.white_user = $1 OR g.black_user = $1) AND g.result IS NOT NULL AND g.mode <> 'local'
    ORDER BY COALESCE(g.ended_ms, g.started_ms, g.created_ms) DESC, g.id DESC
    LIMIT $2";

/// Games between two people being played now: started, not ended, with
/// a move (or the start) since `$1`.
const ACTIVE: &str = "SELECT g.id, g.mode, CAST(g.white_user AS BIGINT), CAST(g.black_user AS BIGINT),
    CASE WHEN wa.deleted_ms IS NOT NULL THEN 'deleted' ELSE wa.username END,
    CASE WHEN ba.deleted_ms IS NOT NULL THEN 'deleted' ELSE ba.username END,
    g.result, g.phase_one, CAST(CASE WHEN g.rated THEN 1 ELSE 0 END AS BIGINT),
    CAST(g.clock_initial_ms AS BIGINT), CAST(g.clock_increment_ms AS BIGINT), CAST(g.days AS BIGINT),
    CAST(COALESCE(g.ended_ms, g.started_ms, g.created_ms) AS BIGINT),
    (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id),
    rw.before_rating, rb.before_rating, g.engine_color, CAST(g.level AS BIGINT)
    FROM games g
    LEFT JOIN accounts wa ON wa.id = g.white_user
    LEFT JOIN accounts ba ON ba.id = g.black_user
    LEFT JOIN rating_changes rw ON rw.game_id = g.id AND rw.account_id = g.white_user
    LEFT JOIN rating_changes rb ON rb.game_id = g.id AND rb.account_id = g.black_user
    WHERE g.mode = 'friend' AND g.started_ms IS NOT NULL AND g.declared IS NULL
      AND g.result IS NULL AND g.ended_ms IS NULL
      AND COALESCE((SELECT MAX(m.played_ms) FROM moves m WHERE m.game_id = g.id), g.started_ms) >= $1
    ORDER BY g.started_ms DESC LIMIT $2";

const RATINGS: &str =
    "SELECT class, rating, rd, volatility, CAST(games AS BIGINT), CAST(last_ms AS BIGINT)
    FROM ratings WHERE account_id = $1 ORDER BY class";

const HISTORY: &str = "SELECT class, CAST(at_ms AS BIGINT), after_rating FROM rating_changes
    WHERE account_id = $1 ORDER BY at_ms, game_id";

const RANKED: &str = "SELECT a.username, r.class, r.rating, r.rd, r.volatility,
    CAST(r.games AS BIGINT), CAST(r.last_ms AS BIGINT)
    FROM ratings r JOIN accounts a ON a.id = r.account_id
    WHERE r.rd < $1 AND r.last_ms >= $2 AND a.deleted_ms IS NULL
      AND CAST(CASE WHEN a.disabled THEN 1 ELSE 0 END AS BIGINT) = 0
    ORDER BY r.rating DESC";

fn game_line(r: &[Val]) -> GameLine {
    GameLine {
        id: r[0].text().unwrap_or_default(),
        mode: r[1].text().unwrap_or_default(),
        white_user: r[2].int().map(UserId),
        black_user: r[3].int().map(UserId),
        white_name: r[4].text(),
        black_name: r[5].text(),
        result: r[6].text(),
        phase_one: r[7].text(),
        rated: r[8].int() == Some(1),
        clock_initial_ms: r[9].int(),
        clock_increment_ms: r[10].int(),
        days: r[11].int(),
        at_ms: r[12].int().unwrap_or(0),
        plies: r[13].int().unwrap_or(0),
        white_rating: r[14].real(),
        black_rating: r[15].real(),
        engine_color: r[16].text(),
        level: r[17].int(),
    }
}

fn rating_row(r: &[Val]) -> RatingRow {
    RatingRow {
        class: r[0].text().unwrap_or_default(),
        rating: r[1].real().unwrap_or(0.0),
        rd: r[2].real().unwrap_or(0.0),
        volatility: r[3].real().unwrap_or(0.0),
        games: r[4].int().unwrap_or(0),
        last_ms: r[5].int().unwrap_or(0),
    }
}

impl Store {
    /// An account's finished games, newest first, at most `limit`.
    pub async fn finished_games(
        &self,
        account: UserId,
        limit: i64,
    ) -> Result<Vec<GameLine>, StoreError> {
        let rows = self
            .rows(
                FINISHED,
                vec![Param::Int(account.0), Param::Int(limit)],
                &GAME_KINDS,
            )
            .await?;
        Ok(rows.iter().map(|r| game_line(r)).collect())
    }

    /// Games between two people being played, with a move since
    /// `since_ms`; the newest first, at most `limit`.
    pub async fn active_games(
        &self,
        since_ms: i64,
        limit: i64,
    ) -> Result<Vec<GameLine>, StoreError> {
        let rows = self
            .rows(
                ACTIVE,
                vec![Param::Int(since_ms), Param::Int(limit)],
                &GAME_KINDS,
            )
            .await?;
        Ok(rows.iter().map(|r| game_line(r)).collect())
    }

    /// An account's ratings, one a class it has played rated.
    pub async fn ratings_of(&self, account: UserId) -> Result<Vec<RatingRow>, StoreError> {
        let rows = self
            .rows(
                RATINGS,
                vec![Param::Int(account.0)],
                &[
                    Kind::Text,
                    Kind::Real,
                    Kind::Real,
                    Kind::Real,
                    Kind::Int,
                    Kind::Int,
                ],
            )
            .await?;
        Ok(rows.iter().map(|r| rating_row(r)).collect())
    }

    /// Every rating change of an account, oldest first: (class, when,
    /// rating after).
    pub async fn rating_history(
        &self,
        account: UserId,
    ) -> Result<Vec<(String, i64, f64)>, StoreError> {
        let rows = self
            .rows(
                HISTORY,
                vec![Param::Int(account.0)],
                &[Kind::Text, Kind::Int, Kind::Real],
            )
            .await?;
        Ok(rows
            .iter()
            .map(|r| {
                (
                    r[0].text().unwrap_or_default(),
                    r[1].int().unwrap_or(0),
                    r[2].real().unwrap_or(0.0),
                )
            })
            .collect())
    }

    /// Ratings whose stored deviation is under `rd_below` and whose last
    /// rated game was at `since_ms` or later, of accounts neither deleted
    /// nor disabled; the highest first.
    pub async fn ranked(&self, rd_below: f64, since_ms: i64) -> Result<Vec<RankedRow>, StoreError> {
        let rows = self
            .rows(
                RANKED,
                vec![Param::Int(rd_below.ceil() as i64), Param::Int(since_ms)],
                &[
                    Kind::Text,
                    Kind::Text,
                    Kind::Real,
                    Kind::Real,
                    Kind::Real,
                    Kind::Int,
                    Kind::Int,
                ],
            )
            .await?;
        Ok(rows
            .iter()
            .map(|r| RankedRow {
                username: r[0].text().unwrap_or_default(),
                rating: rating_row(&r[1..]),
            })
            .collect())
    }
}
