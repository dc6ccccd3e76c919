//! Perft: the number of legal move sequences of a given length, the
//! standard test of a move generator.

use crate::{MoveList, Position};

/// Counts leaf positions `depth` plies ahead. Every leaf is played (no bulk
/// counting), so rates compare with other generators measured the same way.
///
/// ```
/// use legion_rules::{Position, perft::perft};
///
/// // RULES Part VII: 26, 670, 18067, 464157, 12581553.
/// let start = Position::initial();
/// assert_eq!(perft(&start, 1), 26);
/// assert_eq!(perft(&start, 3), 18067);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    perft_moves(pos, depth)
}

/// Perft of a position with moves left to play. Apart from `perft`, so
/// that reaching a leaf costs a test and not a call that sets up a move
/// list it will not use; every leaf is still played.
#[inline(never)]
fn perft_moves(pos: &Position, depth: u32) -> u64 {
    let mut moves = MoveList::new();
    pos.legal_moves_into(&mut moves);
    let mut nodes = 0;
    for &m in &moves {
        // Copied, then played in place: made by `after` and moved out,
        // the child was read back right after play's narrow writes, a
        // store-forwarding stall that cost AMD processors a third of
        // the time.
        let mut child = *pos;
        child.play_unchecked(m);
        nodes += perft(&child, depth - 1);
    }
    nodes
}

/// Perft split by first move: (canonical move, count), sorted by move.
///
/// ```
/// use legion_rules::{Position, perft::divide};
///
/// let split = divide(&Position::initial(), 2);
/// assert_eq!(split.len(), 26);
/// assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), 670);
/// ```
pub fn divide(pos: &Position, depth: u32) -> Vec<(String, u64)> {
    let mut out: Vec<(String, u64)> = pos
        .legal_moves()
        .into_iter()
        .map(|m| {
            let n = if depth <= 1 {
                1
            } else {
                let mut child = *pos;
                child.play_unchecked(m);
                perft(&child, depth - 1)
            };
            (crate::notation::canonical(pos, m), n)
        })
        .collect();
    out.sort();
    out
}
