//! What the search takes from solved endings (`crate::endgames`), as
//! Stockfish does with its tables: at the root, only the moves that keep
//! the best value the tables give, ranked with DTZ so that the 50-move
//! rule (5.3) cannot spoil a win; inside the search, a position of a
//! solved ending is scored by its table value and not searched.

use legion_rules::{Move, Position};

use super::{WIN, WIN_BOUND};
use crate::endgames::{Probe, Tablebase, Value};

/// The score of `pos` at `ply` from the tables, if they hold it: a win or
/// loss in `d` plies is scored as a forced result `d` plies further, a
/// draw 0. A win (or loss) the 50-move rule can spoil, the clock already
/// run plus DTZ passing 100 plies, is scored as the draw it may be.
pub(super) fn score(tb: &Tablebase, pos: &Position, ply: usize) -> Option<i32> {
    if !tb.may_cover(pos) {
        return None;
    }
    let p = tb.probe(pos).ok()?;
    if p.fifty_move_rule_matters(pos.halfmove_clock()) {
        return Some(0);
    }
    let far = |d: u16| (ply as i32 + d as i32).min(WIN - WIN_BOUND - 1);
    Some(match p.value {
        Value::Win(d) => WIN - far(d),
        Value::Loss(d) => -WIN + far(d),
        Value::Draw => 0,
    })
}

/// How good a root move is by the tables, for the side making it, higher
/// better: a win kept within the 50-move rule, fewer plies to a reset
/// first; then a draw (a win or loss the rule spoils counts as one); then
/// a loss, more plies to a reset first (the rule may yet save it).
fn rank(child: &Position, p: Probe) -> (u8, i32) {
    // Plies from the move to the next reset of the half-move clock: 1
    // when the move itself resets it.
    let step = if child.halfmove_clock() == 0 {
        1
    } else {
        p.dtz as i32 + 1
    };
    if p.fifty_move_rule_matters(child.halfmove_clock()) {
        return (1, 0);
    }
    match p.value {
        // The opponent loses: a win for the mover.
        Value::Loss(_) => (2, -step),
        Value::Draw => (1, 0),
        Value::Win(_) => (0, step),
    }
}

/// The root moves to search when the tables hold `pos` and every move's
/// result: those of the best rank (among `allowed`, when not empty).
/// `None` when the tables do not hold them, or no allowed move is
/// ranked (the search then goes on as without tables).
pub(super) fn root_moves(tb: &Tablebase, pos: &Position, allowed: &[Move]) -> Option<Vec<Move>> {
    if !tb.may_cover(pos) {
        return None;
    }
    let mut ranked: Vec<(Move, (u8, i32))> = tb
        .probe_moves(pos)
        .ok()?
        .into_iter()
        .filter(|(mv, _)| allowed.is_empty() || allowed.contains(mv))
        .map(|(mv, p)| (mv, rank(&pos.after(mv), p)))
        .collect();
    let best = ranked.iter().map(|(_, r)| *r).max()?;
    ranked.retain(|(_, r)| *r == best);
    Some(ranked.into_iter().map(|(mv, _)| mv).collect())
}
