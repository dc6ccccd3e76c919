//! The first layer's sums for both sides, and the search's stack of them.
//!
//! A move changes a few squares, so a child's sums are its parent's plus
//! the rows of the features that appeared and minus those that went. The
//! changes are found by comparing the two boards plane by plane rather
//! than by following each kind of move: a Legion series that frees
//! prisoners and crowns (4.1–4.3, 2.5) or a King removal (5.1) needs no
//! code of its own.

use legion_rules::{Board, Color, Square};

use super::features::{self, PLANES};
use super::{HIDDEN, Network, simd};

/// The hidden layer's input for each side's view.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub struct Accumulator {
    pub white: [i16; HIDDEN],
    pub black: [i16; HIDDEN],
}

impl Accumulator {
    /// Adds (or subtracts) the row of the feature `plane` on `sq` to both
    /// sides' sums, each in its own view.
    #[inline]
    fn apply(
        &mut self,
        net: &Network,
        plane: usize,
        sq: Square,
        op: fn(&mut [i16; HIDDEN], &[i16; HIDDEN]),
    ) {
        op(
            &mut self.white,
            &net.w1[features::index(Color::White, plane, sq)],
        );
        op(
            &mut self.black,
            &net.w1[features::index(Color::Black, plane, sq)],
        );
    }

    /// The sums for `board`, from scratch.
    pub fn new(net: &Network, board: &Board) -> Accumulator {
        let mut acc = Accumulator {
            white: net.b1,
            black: net.b1,
        };
        for (plane, set) in features::planes(board).iter().enumerate() {
            for sq in *set {
                acc.apply(net, plane, sq, simd::add);
            }
        }
        acc
    }

    /// The sums for `to`, from these sums for `from`.
    pub fn update(&self, net: &Network, from: &Board, to: &Board) -> Accumulator {
        let mut acc = *self;
        acc.change(net, from, to);
        acc
    }

    /// These sums, for `from`, made the sums for `to` in place.
    fn change(&mut self, net: &Network, from: &Board, to: &Board) {
        let (a, b) = (features::planes(from), features::planes(to));
        for plane in 0..PLANES {
            if a[plane] == b[plane] {
                continue;
            }
            for sq in a[plane] & !b[plane] {
                self.apply(net, plane, sq, simd::sub);
            }
            for sq in b[plane] & !a[plane] {
                self.apply(net, plane, sq, simd::add);
            }
        }
    }
}

/// One ply of the search path: its board, and its sums once computed.
#[derive(Clone, Copy)]
struct Entry {
    board: Board,
    acc: Accumulator,
    computed: bool,
}

/// Sums along the search path, computed only when a node is evaluated,
/// from the nearest computed ancestor.
pub struct Stack {
    entries: Vec<Entry>,
}

/// Beyond this many plies from a computed ancestor, computing from
/// scratch is cheaper than updating ply by ply.
const MAX_CHAIN: usize = 6;

impl Stack {
    pub fn new(net: &Network, plies: usize) -> Stack {
        let empty = Board::empty();
        let acc = Accumulator::new(net, &empty);
        Stack {
            entries: vec![
                Entry {
                    board: empty,
                    acc,
                    computed: false,
                };
                plies + 1
            ],
        }
    }

    /// The search has reached `board` at `ply`: what was below it is gone.
    #[inline]
    pub fn enter(&mut self, ply: usize, board: &Board) {
        let e = &mut self.entries[ply];
        e.board = *board;
        e.computed = false;
    }

    /// The sums of the board entered at `ply`.
    pub fn get(&mut self, net: &Network, ply: usize) -> &Accumulator {
        if !self.entries[ply].computed {
            let lowest = ply.saturating_sub(MAX_CHAIN);
            match (lowest..ply).rev().find(|&p| self.entries[p].computed) {
                Some(base) => {
                    for p in base + 1..=ply {
                        let (below, here) = self.entries.split_at_mut(p);
                        let (parent, e) = (&below[p - 1], &mut here[0]);
                        // In place: a returned copy cost a memmove a node.
                        e.acc = parent.acc;
                        e.acc.change(net, &parent.board, &e.board);
                        e.computed = true;
                    }
                }
                None => {
                    let e = &mut self.entries[ply];
                    e.acc = Accumulator::new(net, &e.board);
                    e.computed = true;
                }
            }
        }
        &self.entries[ply].acc
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::embedded;
    use legion_rules::{Position, Rules};

    /// Plays random games and checks that the sums updated move by move
    /// equal the sums computed from scratch, whatever the moves were:
    /// captures, series, crownings, constructs, King removals.
    #[test]
    fn updated_sums_equal_fresh_ones() {
        let net = &*embedded().unwrap();
        let mut rng = crate::rng::Rng::new(11);
        let mut kinds = std::collections::HashSet::new();
        let (mut with_constructs, mut freed) = (0, 0);
        for game in 0..60 {
            let mut pos = Position::initial_with(Rules::DEFAULT);
            let mut stack = Stack::new(net, 400);
            stack.enter(0, pos.board());
            for ply in 1..300 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.below(moves.len())];
                kinds.insert(format!("{:?}", m.kind()));
                let before = pos.board().constructs().count();
                pos = pos.after(m);
                let after = pos.board().constructs().count();
                with_constructs += usize::from(after > 0);
                freed += usize::from(after < before);
                stack.enter(ply, pos.board());
                // Evaluate only some plies, so chains of several are used.
                if rng.below(3) == 0 {
                    let fresh = Accumulator::new(net, pos.board());
                    let got = stack.get(net, ply);
                    assert_eq!(got.white, fresh.white, "game {game} ply {ply}");
                    assert_eq!(got.black, fresh.black, "game {game} ply {ply}");
                }
            }
        }
        assert_eq!(kinds.len(), 4, "not every kind of move: {kinds:?}");
        assert!(
            with_constructs > 100 && freed > 5,
            "{with_constructs} {freed}"
        );
    }
}
