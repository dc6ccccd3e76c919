//! Legion capture series (RULES 4.3): men and Tamas jump enemy pieces,
//! forward or backward, and must go on jumping while they can.
//!
//! Jumped pieces stay on the board until the series ends (they block, and
//! cannot be jumped twice); the capturing piece's start square is empty
//! once it leaves. A man that reaches its far rank is crowned at once and
//! goes on as a Tama (2.5). A Tama that could land on several squares must
//! pick one from which it can jump again, if there is one.

use crate::attacks::{self, diagonal_ray, diagonal_step, nearest};
use crate::{Bitboard, Board, Color, Move, MoveList, Role, Square};

/// Whether `sq` is on the far rank of `color` (2.5).
#[inline]
pub(crate) fn is_far_rank(sq: Square, color: Color) -> bool {
    sq.relative_rank(color) == 7
}

struct Search<'a> {
    color: Color,
    role: Role,
    from: Square,
    /// Occupied squares: everything but the capturing piece.
    occ: Bitboard,
    /// Enemy pieces that may be jumped (4.1, 3.1).
    jumpable: Bitboard,
    out: &'a mut MoveList,
    /// Where this piece's series begin in `out`, for de-duplication (4.5).
    first: usize,
}

impl Search<'_> {
    fn emit(&mut self, to: Square, captured: Bitboard, crowned: bool) {
        // 4.5: same start, end and jumped set is the same move.
        if self.out[self.first..]
            .iter()
            .any(|m| m.to() == to && m.captured() == captured)
        {
            return;
        }
        self.out
            .push(Move::jump(self.role, self.from, to, captured, crowned));
    }

    /// Series of a man on `cur` that has jumped `captured` so far. Returns
    /// whether it could jump at all (else the caller ends the series).
    fn man(&mut self, cur: Square, captured: Bitboard) -> bool {
        let mut jumped = false;
        let targets = self.jumpable & !captured;
        for d in 0..4 {
            let Some(mid) = diagonal_step(d, cur) else {
                continue;
            };
            if !targets.contains(mid) {
                continue;
            }
            let Some(land) = diagonal_step(d, mid) else {
                continue;
            };
            if self.occ.contains(land) {
                continue;
            }
            jumped = true;
            let next = captured.with(mid);
            if is_far_rank(land, self.color) {
                // 2.5: crowned mid-series, it continues as a Tama.
                if !self.tama(land, next, true) {
                    self.emit(land, next, true);
                }
            } else if !self.man(land, next) {
                self.emit(land, next, false);
            }
        }
        jumped
    }

    /// Series of a Tama on `cur`.
    fn tama(&mut self, cur: Square, captured: Bitboard, crowned: bool) -> bool {
        let mut jumped = false;
        let targets = self.jumpable & !captured;
        for d in 0..4 {
            let Some(victim) = nearest(diagonal_ray(d, cur) & self.occ, d) else {
                continue;
            };
            if !targets.contains(victim) {
                continue;
            }
            let beyond = diagonal_ray(d, victim);
            let stop = nearest(beyond & self.occ, d);
            let landings = match stop {
                Some(s) => beyond & !diagonal_ray(d, s).with(s),
                None => beyond,
            };
            if landings.is_empty() {
                continue;
            }
            jumped = true;
            let next = captured.with(victim);
            // 4.3: land where it can jump again, if any such square exists;
            // the recursion emits those series itself.
            let mut continued = false;
            for land in landings {
                continued |= self.tama(land, next, crowned);
            }
            if !continued {
                for land in landings {
                    self.emit(land, next, crowned);
                }
            }
        }
        jumped
    }
}

/// Appends every complete capture series of `color`'s Legion, legal or not
/// as to King safety (3.3 is judged by the caller on the result).
pub(crate) fn series(board: &Board, color: Color, out: &mut MoveList) {
    let jumpable = board.jumpable_by(color);
    let occ = board.occupied();
    let men = board.pieces(color, Role::Man);
    let tamas = board.pieces(color, Role::Tama);
    if jumpable.is_empty() || (men | tamas).is_empty() {
        return;
    }
    // Men with a target next to them and an empty square beyond it.
    let empty = !occ;
    let mut candidates = Bitboard::EMPTY;
    for d in 0..4 {
        let back = attacks::opposite(d);
        let landing_behind = attacks::shift_diagonal(back, empty);
        candidates |= attacks::shift_diagonal(back, jumpable & landing_behind);
    }
    for from in (men & candidates) | tamas {
        let is_tama = tamas.contains(from);
        let mut s = Search {
            color,
            role: if is_tama { Role::Tama } else { Role::Man },
            from,
            occ: occ.without(from),
            jumpable,
            first: out.len(),
            out,
        };
        if is_tama {
            s.tama(from, Bitboard::EMPTY, false);
        } else {
            s.man(from, Bitboard::EMPTY);
        }
    }
}

/// Every path (start square, then each landing square) of the series that
/// is move `m`, in the order found. Used for notation (4.5, 6.3).
pub(crate) fn paths(board: &Board, color: Color, m: Move) -> Vec<Vec<Square>> {
    let mut found = Vec::new();
    let mut path = vec![m.from()];
    let is_tama = board.pieces(color, Role::Tama).contains(m.from());
    let mut walker = PathWalk {
        color,
        occ: board.occupied().without(m.from()),
        jumpable: board.jumpable_by(color),
        goal: m,
        found: &mut found,
    };
    if is_tama {
        walker.tama(&mut path, Bitboard::EMPTY);
    } else {
        walker.man(&mut path, Bitboard::EMPTY);
    }
    found
}

/// The same walk as `Search`, keeping paths that end as `goal` does.
struct PathWalk<'a> {
    color: Color,
    occ: Bitboard,
    jumpable: Bitboard,
    goal: Move,
    found: &'a mut Vec<Vec<Square>>,
}

impl PathWalk<'_> {
    fn finish(&mut self, path: &[Square], captured: Bitboard) {
        if captured == self.goal.captured() && path.last() == Some(&self.goal.to()) {
            self.found.push(path.to_vec());
        }
    }

    fn man(&mut self, path: &mut Vec<Square>, captured: Bitboard) -> bool {
        let cur = *path.last().expect("path starts with a square");
        let targets = self.jumpable & !captured;
        let mut jumped = false;
        for d in 0..4 {
            let Some(mid) = diagonal_step(d, cur) else {
                continue;
            };
            let Some(land) = diagonal_step(d, mid) else {
                continue;
            };
            if !targets.contains(mid) || self.occ.contains(land) {
                continue;
            }
            jumped = true;
            let next = captured.with(mid);
            path.push(land);
            let more = if is_far_rank(land, self.color) {
                self.tama(path, next)
            } else {
                self.man(path, next)
            };
            if !more {
                self.finish(path, next);
            }
            path.pop();
        }
        jumped
    }

    fn tama(&mut self, path: &mut Vec<Square>, captured: Bitboard) -> bool {
        let cur = *path.last().expect("path starts with a square");
        let targets = self.jumpable & !captured;
        let mut jumped = false;
        for d in 0..4 {
            let Some(victim) = nearest(diagonal_ray(d, cur) & self.occ, d) else {
                continue;
            };
            if !targets.contains(victim) {
                continue;
            }
            let beyond = diagonal_ray(d, victim);
            let landings = match nearest(beyond & self.occ, d) {
                Some(s) => beyond & !diagonal_ray(d, s).with(s),
                None => beyond,
            };
            if landings.is_empty() {
                continue;
            }
            jumped = true;
            let next = captured.with(victim);
            let mut continued = false;
            let mut ends = Vec::new();
            for land in landings {
                path.push(land);
                if self.tama(path, next) {
                    continued = true;
                } else {
                    ends.push(path.clone());
                }
                path.pop();
            }
            if !continued {
                for end in ends {
                    self.finish(&end, next);
                }
            }
        }
        jumped
    }
}
