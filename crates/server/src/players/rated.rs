//! A rated game's end (issue 20): both players' ratings in the game's
//! class change by Glicko-2, one rating period each, after their
//! deviations grew by the days each spent without a rated game. Only games
//! between two accounts with a class are rated, and only once both sides
//! have moved (a game ended before that is not).

use crate::games::players::class_of;
use crate::players::ratings::{Rating, Score, after_game};
use crate::store::{GameRow, PlayerRating, RatedGame, Store, StoreError};

/// Whether `row`, with `played` moves, changes ratings now that it ended.
pub fn counts(row: &GameRow, played: usize) -> bool {
    row.rated
        && row.result.is_some()
        && played >= 2
        && row.white_user.is_some()
        && row.black_user.is_some()
        && row.white_user != row.black_user
        && class_of(row).is_some()
}

fn rating(p: Option<PlayerRating>) -> (Rating, i64, Option<i64>) {
    match p {
        Some(p) => (
            Rating {
                rating: p.rating,
                rd: p.rd,
                volatility: p.volatility,
            },
            p.games,
            Some(p.last_ms),
        ),
        None => (Rating::default(), 0, None),
    }
}

/// The ratings as they stand `now`, their deviation grown by the days
/// since the last rated game.
fn aged(p: Option<PlayerRating>, now_ms: i64) -> (Rating, i64) {
    let (r, games, last) = rating(p);
    let days = last.map_or(0.0, |l| (now_ms - l).max(0) as f64 / 86_400_000.0);
    (r.aged(days), games)
}

/// Settles the ratings of an ended rated game, once; whether this call
/// did (`false`: not rated, or already settled).
pub async fn settle(
    store: &Store,
    row: &GameRow,
    played: usize,
    now_ms: i64,
) -> Result<bool, StoreError> {
    if !counts(row, played) {
        return Ok(false);
    }
    let (Some(class), Some(white), Some(black), Some(result)) = (
        class_of(row),
        row.white_user,
        row.black_user,
        row.result.clone(),
    ) else {
        return Ok(false);
    };
    let score = match result.as_str() {
        "1-0" => Score::Win,
        "0-1" => Score::Loss,
        _ => Score::Draw,
    };
    let game = RatedGame {
        game: row.id.clone(),
        class: class.name(),
        white,
        black,
        now_ms,
    };
    store
        .settle_rated(
            game,
            Box::new(move |w, b| {
                let (w, wg) = aged(w, now_ms);
                let (b, bg) = aged(b, now_ms);
                let (w2, b2) = after_game(w, b, score);
                let kept = |r: Rating, games: i64| PlayerRating {
                    rating: r.rating,
                    rd: r.rd,
                    volatility: r.volatility,
                    games,
                    last_ms: now_ms,
                };
                [
                    (kept(w, wg), kept(w2, wg + 1)),
                    (kept(b, bg), kept(b2, bg + 1)),
                ]
            }),
        )
        .await
}
