//! The placements of an ending's pieces as an index: a mixed-radix number
//! of the squares (dark squares only for free men and Tamas, 1.4), like
//! pieces on ascending squares, and the side to move first (White 0).
//! Some indices place no legal position (two pieces on a square, a
//! position 6.2 refuses); the tables keep "no position" there.

use legion_rules::{Color, Piece, Position, PositionBuilder, Square};

use super::material::{DARK_SQUARES, KINDS, MAX_UNITS, Material, Unit};

/// Squares of one ending's pieces as an index, and back.
#[derive(Clone, Debug)]
pub struct Layout {
    /// The kind of each slot, kinds in ascending order.
    slots: Vec<usize>,
    /// Where each kind's slots start.
    first: [usize; KINDS],
    size: u64,
}

fn dark_index(sq: Square) -> usize {
    sq.rank() as usize * 4 + sq.file() as usize / 2
}

fn dark_square(i: usize) -> Square {
    let rank = i / 4;
    let file = 2 * (i % 4) + rank % 2;
    Square::new((rank * 8 + file) as u8)
}

impl Layout {
    /// The layout of an ending.
    pub fn new(m: &Material) -> Layout {
        let mut slots = Vec::new();
        let mut first = [0; KINDS];
        for (kind, f) in first.iter_mut().enumerate() {
            *f = slots.len();
            for _ in 0..m.counts[kind] {
                slots.push(kind);
            }
        }
        Layout {
            slots,
            first,
            size: m.index_size(),
        }
    }

    /// Indices: placements with either side to move.
    pub fn size(&self) -> u64 {
        self.size
    }

    fn radix(&self, slot: usize) -> u64 {
        if Unit::of_kind(self.slots[slot]).dark_only() {
            DARK_SQUARES as u64
        } else {
            64
        }
    }

    /// The index of a position of this material (squares of like pieces
    /// ascending). A position of another material gives a meaningless
    /// index below `size`, never a panic.
    pub fn index(&self, pos: &Position) -> u64 {
        let mut coords = [0u64; MAX_UNITS];
        let mut next = self.first;
        let board = pos.board();
        for sq in board.occupied() {
            if let Some(o) = board.occupant(sq) {
                let u = Unit {
                    color: o.piece.color,
                    role: o.piece.role,
                    prisoner: o.prisoner,
                };
                let kind = u.kind();
                let slot = next[kind];
                next[kind] += 1;
                if slot < MAX_UNITS {
                    coords[slot] = if u.dark_only() {
                        dark_index(sq) as u64
                    } else {
                        sq.index() as u64
                    };
                }
            }
        }
        let mut idx = pos.turn().index() as u64;
        for (slot, &c) in coords.iter().enumerate().take(self.slots.len()) {
            idx = idx * self.radix(slot) + c % self.radix(slot);
        }
        idx % self.size.max(1)
    }

    /// The position of an index, if it is a canonical placement (like
    /// pieces on ascending squares, no two on one square) that 6.2 accepts
    /// and whose side to move keeps its King (a mated side to move has
    /// already lost it, 5.1, and is another ending).
    pub fn position(&self, mut idx: u64) -> Option<Position> {
        let n = self.slots.len();
        let mut squares = [Square::new(0); MAX_UNITS];
        for slot in (0..n).rev() {
            let r = self.radix(slot);
            let c = (idx % r) as usize;
            idx /= r;
            squares[slot] = if r == DARK_SQUARES as u64 {
                dark_square(c)
            } else {
                Square::new(c as u8)
            };
        }
        let turn = if idx == 0 { Color::White } else { Color::Black };
        let mut used = 0u64;
        let mut b = PositionBuilder::new();
        for slot in 0..n {
            let sq = squares[slot];
            if used & (1 << sq.index()) != 0 {
                return None;
            }
            used |= 1 << sq.index();
            if slot > 0 && self.slots[slot - 1] == self.slots[slot] && squares[slot - 1] > sq {
                return None;
            }
            let u = Unit::of_kind(self.slots[slot]);
            let piece = Piece::new(u.color, u.role);
            match u.prisoner {
                Some(p) => b.construct(sq, piece, Piece::new(!u.color, p)),
                None => b.piece(sq, piece),
            };
        }
        b.turn(turn);
        let pos = b.build().ok()?;
        (pos.board().occupied().count() as usize == n).then_some(pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_index_round_trips() {
        let m: Material = "KT vs K/M".parse().unwrap();
        let layout = Layout::new(&m);
        let p: Position = "8/8/8/4T3/8/8/8/K1[kM]5 b - 0 1".parse().unwrap();
        let i = layout.index(&p);
        assert_eq!(layout.position(i).unwrap(), p);
        for i in 0..32 {
            assert_eq!(dark_index(dark_square(i)), i);
            assert!(dark_square(i).is_dark());
        }
    }
}
