//! Puzzles on the site (issue 21): the committed set mined by the engine
//! (`legion puzzles`, docs/PUZZLES.md), the next puzzle for a player, the
//! puzzle of the day, the themes, and the Glicko-2 ratings of puzzles and
//! players on each attempt. No HTTP here: refusals are `PuzzleRefusal`.
//!
//! A signed-in player's first attempt at a puzzle is rated, and changes
//! the puzzle's rating too (one rating period each, as a game between the
//! two); a second attempt changes nothing. A visitor without an account
//! keeps a score in the browser: the browser sends it, the same formulas
//! answer the new one, and the puzzle's rating is left alone (a visitor's
//! repeats cannot be told from first tries), as lichess does.

use legion_lab::puzzles::{self as mined, Theme};
use legion_rules::{Color, Position};
use serde::Serialize;

use crate::games::ids::UserId;
use crate::players::ratings::{Rating, Score, after_game};
use crate::store::{Attempt, Attempted, Glicko, PuzzleRow, Store, StoreError};

/// Why a puzzle request is refused.
#[derive(Debug, thiserror::Error)]
pub enum PuzzleRefusal {
    #[error("no puzzle '{0}'")]
    NoPuzzle(String),
    #[error("'{0}' is not a puzzle theme")]
    UnknownTheme(String),
    /// A browser's rating out of Glicko-2's sensible bounds.
    #[error("a puzzle rating must be 400–4000 with a deviation of 30–350")]
    BadRating,
    /// Every puzzle of the theme was tried.
    #[error("no puzzle left")]
    NoneLeft,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A puzzle as pages and programs get it.
#[derive(Clone, Debug, Serialize)]
pub struct PuzzleView {
    pub id: String,
    /// The position before the opponent's setting move.
    pub lfen: String,
    /// Canonical moves (6.3): the setting move, then the solution.
    pub moves: Vec<String>,
    pub themes: Vec<String>,
    pub rating: i64,
    pub plays: i64,
    /// The side the solver plays: the one to move after the setting move.
    pub solver: &'static str,
    pub source: String,
}

impl PuzzleView {
    fn of(row: &PuzzleRow) -> PuzzleView {
        let solver = row
            .lfen
            .parse::<Position>()
            .map(|p| match !p.turn() {
                Color::White => "white",
                Color::Black => "black",
            })
            .unwrap_or("white");
        PuzzleView {
            id: row.id.clone(),
            lfen: row.lfen.clone(),
            moves: row.moves.split(' ').map(str::to_string).collect(),
            themes: row.themes.split_whitespace().map(str::to_string).collect(),
            rating: row.rating.round() as i64,
            plays: row.plays,
            solver,
            source: row.source.clone(),
        }
    }
}

/// A player's puzzle rating as answered.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct PlayerRating {
    pub rating: f64,
    pub rd: f64,
    pub volatility: f64,
    pub provisional: bool,
}

impl PlayerRating {
    fn of(g: Glicko) -> PlayerRating {
        PlayerRating {
            rating: g.rating,
            rd: g.rd,
            volatility: g.volatility,
            provisional: rating(g).provisional(),
        }
    }
}

fn rating(g: Glicko) -> Rating {
    Rating {
        rating: g.rating,
        rd: g.rd,
        volatility: g.volatility,
    }
}

fn glicko(r: Rating) -> Glicko {
    Glicko {
        rating: r.rating,
        rd: r.rd,
        volatility: r.volatility,
    }
}

/// The puzzle's and the player's ratings after one attempt: a game the
/// player wins by solving it.
pub fn rate(puzzle: Glicko, player: Glicko, win: bool) -> (Glicko, Glicko) {
    let score = if win { Score::Win } else { Score::Loss };
    let (me, p) = after_game(rating(player), rating(puzzle), score);
    (glicko(p), glicko(me))
}

/// The committed puzzles as rows to seed, each with its starting rating.
pub fn committed() -> Result<Vec<PuzzleRow>, String> {
    let puzzles = mined::file::read_text(mined::COMMITTED).map_err(|e| e.to_string())?;
    Ok(puzzles
        .into_iter()
        .map(|p| PuzzleRow {
            themes: format!(
                " {} ",
                p.themes
                    .iter()
                    .map(|t| t.key())
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            moves: p.moves.join(" "),
            id: p.id,
            lfen: p.lfen,
            source: p.game,
            rating: p.rating,
            rd: p.deviation,
            volatility: 0.06,
            plays: 0,
            wins: 0,
        })
        .collect())
}

/// The committed file's name in `puzzle_seeds`: FNV-1a of its text, so
/// a new file is added once (its new puzzles; kept ones keep their
/// ratings).
pub fn committed_hash() -> String {
    format!("committed-{:016x}", mined::fnv1a(mined::COMMITTED.bytes()))
}

/// A theme key from a request.
pub fn theme(key: &str) -> Result<Theme, PuzzleRefusal> {
    key.parse::<Theme>()
        .map_err(|_| PuzzleRefusal::UnknownTheme(key.chars().take(40).collect()))
}

pub async fn get(store: &Store, id: &str) -> Result<PuzzleView, PuzzleRefusal> {
    match store.puzzle(id).await? {
        Some(r) => Ok(PuzzleView::of(&r)),
        None => Err(PuzzleRefusal::NoPuzzle(id.chars().take(40).collect())),
    }
}

/// How many of the nearest puzzles the next one is drawn from, so that
/// two requests in a row differ.
const NEAR: i64 = 12;

/// The next puzzle for a player at `rating`: one of those nearest it, of
/// `theme`, not tried by `account`; `pick` chooses among them.
pub async fn next(
    store: &Store,
    rating: f64,
    theme: Option<Theme>,
    account: Option<UserId>,
    pick: u64,
) -> Result<PuzzleView, PuzzleRefusal> {
    let key = theme.map(|t| t.key());
    let near = store
        .puzzles_near(rating.round() as i64, key.as_deref(), account, NEAR)
        .await?;
    if near.is_empty() {
        return Err(PuzzleRefusal::NoneLeft);
    }
    Ok(PuzzleView::of(&near[(pick % near.len() as u64) as usize]))
}

/// The puzzle of day `day` (days since 1970-01-01, UTC): the same for
/// everybody that day, a different one each day.
pub async fn daily(store: &Store, day: i64) -> Result<PuzzleView, PuzzleRefusal> {
    let count = store.puzzle_count().await?;
    if count == 0 {
        return Err(PuzzleRefusal::NoneLeft);
    }
    // A large prime step walks the whole set before repeating.
    let n = (day.rem_euclid(count) * 7_919).rem_euclid(count);
    match store.nth_puzzle(n).await? {
        Some(r) => Ok(PuzzleView::of(&r)),
        None => Err(PuzzleRefusal::NoneLeft),
    }
}

/// A theme and how many puzzles have it.
#[derive(Clone, Debug, Serialize)]
pub struct ThemeCount {
    pub key: String,
    /// The rule it is about (empty for length and size).
    pub rule: &'static str,
    pub count: usize,
}

/// Every theme with its count, in the docs' order.
pub async fn themes(store: &Store) -> Result<Vec<ThemeCount>, PuzzleRefusal> {
    let all = store.puzzle_themes().await?;
    Ok(mined::themes::all()
        .into_iter()
        .filter_map(|t| {
            let key = t.key();
            let count = all
                .iter()
                .filter(|s| s.split_whitespace().any(|k| k == key))
                .count();
            (count > 0 || !matches!(t, Theme::MateIn(_))).then_some(ThemeCount {
                key,
                rule: t.rule(),
                count,
            })
        })
        .collect())
}

/// What an attempt did, as answered.
#[derive(Clone, Debug, Serialize)]
pub struct AttemptView {
    pub win: bool,
    /// Whether ratings changed (a signed-in player's first try).
    pub rated: bool,
    pub puzzle: PuzzleRatingView,
    /// The player's puzzle rating after the attempt.
    pub player: PlayerRating,
    /// Its change, rounded.
    pub diff: i64,
}

#[derive(Clone, Copy, Debug, Serialize)]
pub struct PuzzleRatingView {
    pub rating: i64,
    pub plays: i64,
}

/// A browser's own score, checked.
pub fn browser_rating(rating: f64, rd: f64, volatility: f64) -> Result<Glicko, PuzzleRefusal> {
    let ok = (400.0..=4000.0).contains(&rating)
        && (30.0..=350.0).contains(&rd)
        && (0.01..=0.2).contains(&volatility);
    if ok {
        Ok(Glicko {
            rating,
            rd,
            volatility,
        })
    } else {
        Err(PuzzleRefusal::BadRating)
    }
}

/// An attempt: by a signed-in `account` (rated once a puzzle), or by a
/// visitor whose browser holds `visitor` (nothing kept).
pub async fn attempt(
    store: &Store,
    id: &str,
    win: bool,
    account: Option<UserId>,
    visitor: Option<Glicko>,
    now_ms: i64,
) -> Result<AttemptView, PuzzleRefusal> {
    let Some(account) = account else {
        let row = store
            .puzzle(id)
            .await?
            .ok_or_else(|| PuzzleRefusal::NoPuzzle(id.chars().take(40).collect()))?;
        let me = visitor.unwrap_or(crate::store::NEW_PLAYER);
        let puzzle = Glicko {
            rating: row.rating,
            rd: row.rd,
            volatility: row.volatility,
        };
        let (_, after) = rate(puzzle, me, win);
        return Ok(AttemptView {
            win,
            rated: false,
            puzzle: PuzzleRatingView {
                rating: row.rating.round() as i64,
                plays: row.plays,
            },
            player: PlayerRating::of(after),
            diff: (after.rating - me.rating).round() as i64,
        });
    };
    let done = store
        .puzzle_attempt(
            Attempt {
                account,
                puzzle: id.to_string(),
                win,
                now_ms,
            },
            Box::new(move |puzzle, player| {
                rate(puzzle, player.unwrap_or(crate::store::NEW_PLAYER), win)
            }),
        )
        .await?;
    match done {
        Attempted::NoPuzzle => Err(PuzzleRefusal::NoPuzzle(id.chars().take(40).collect())),
        Attempted::Rated { puzzle, player } => {
            let row = store.puzzle(id).await?;
            Ok(AttemptView {
                win,
                rated: true,
                puzzle: PuzzleRatingView {
                    rating: puzzle.1.rating.round() as i64,
                    plays: row.map_or(0, |r| r.plays),
                },
                player: PlayerRating::of(player.1),
                diff: (player.1.rating - player.0.rating).round() as i64,
            })
        }
        Attempted::Again => {
            let row = store
                .puzzle(id)
                .await?
                .ok_or_else(|| PuzzleRefusal::NoPuzzle(id.chars().take(40).collect()))?;
            let me = store
                .puzzle_player(account)
                .await?
                .map_or(crate::store::NEW_PLAYER, |p| p.rating);
            Ok(AttemptView {
                win,
                rated: false,
                puzzle: PuzzleRatingView {
                    rating: row.rating.round() as i64,
                    plays: row.plays,
                },
                player: PlayerRating::of(me),
                diff: 0,
            })
        }
    }
}

/// A signed-in player's puzzle rating (Glicko-2's start before any).
pub async fn player(
    store: &Store,
    account: UserId,
) -> Result<(PlayerRating, i64, i64), PuzzleRefusal> {
    Ok(match store.puzzle_player(account).await? {
        Some(p) => (PlayerRating::of(p.rating), p.plays, p.wins),
        None => (PlayerRating::of(crate::store::NEW_PLAYER), 0, 0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_attempt_is_a_game_between_player_and_puzzle() {
        // Two new ratings (1500, RD 350, σ 0.06), τ 0.75, one period:
        // the winner goes to 1662.31 and RD 290.32, as in the players'
        // hand calculation of a first rated game (tests/suite/lobby.rs).
        let new = crate::store::NEW_PLAYER;
        let (puzzle, me) = rate(new, new, true);
        assert!((me.rating - 1662.31).abs() < 0.01, "{me:?}");
        assert!((me.rd - 290.32).abs() < 0.01, "{me:?}");
        assert!((puzzle.rating - 1337.69).abs() < 0.01, "{puzzle:?}");
        let (puzzle, me) = rate(new, new, false);
        assert!((me.rating - 1337.69).abs() < 0.01 && (puzzle.rating - 1662.31).abs() < 0.01);
    }

    #[test]
    fn browser_ratings_are_bounded() {
        assert!(browser_rating(1500.0, 350.0, 0.06).is_ok());
        assert!(browser_rating(9999.0, 350.0, 0.06).is_err());
        assert!(browser_rating(1500.0, 1.0, 0.06).is_err());
        assert!(browser_rating(f64::NAN, 100.0, 0.06).is_err());
    }

    #[test]
    fn the_committed_puzzles_read() {
        let rows = committed().expect("the committed file reads");
        for r in &rows {
            assert!(r.themes.starts_with(' ') && r.themes.ends_with(' '));
        }
    }
}
