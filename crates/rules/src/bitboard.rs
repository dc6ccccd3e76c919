//! Sets of squares as 64-bit words.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use crate::Square;

/// A set of squares: bit `i` is square `i` (`a1` = bit 0).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No square.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// Every square.
    pub const FULL: Bitboard = Bitboard(!0);
    /// The dark squares (1.1): `a1` and every square of even file + rank.
    pub const DARK: Bitboard = Bitboard(0xAA55_AA55_AA55_AA55);
    /// The light squares (1.1), where no free Legion piece stands.
    pub const LIGHT: Bitboard = Bitboard(!0xAA55_AA55_AA55_AA55);
    /// The a-file.
    pub const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
    /// The h-file.
    pub const FILE_H: Bitboard = Bitboard(0x8080_8080_8080_8080);
    /// Rank 1: White's home rank, Black's far rank (2.5).
    pub const RANK_1: Bitboard = Bitboard(0xFF);
    /// Rank 8: Black's home rank, White's far rank (2.5).
    pub const RANK_8: Bitboard = Bitboard(0xFF << 56);
    /// Squares on the board's edge: a piece there can never be jumped (4.3).
    pub const EDGE: Bitboard = Bitboard(0xFF81_8181_8181_81FF);

    /// The set of one square.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }

    /// Whether the set has no square.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set has a square.
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Whether `sq` is in the set.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq.index()) != 0
    }

    /// How many squares the set has.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set has two squares or more.
    #[inline]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new(self.0.trailing_zeros() as u8))
        }
    }

    /// The highest square, if any.
    #[inline]
    pub const fn last(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new(63 - self.0.leading_zeros() as u8))
        }
    }

    /// The only square of a one-square set.
    #[inline]
    pub const fn single(self) -> Option<Square> {
        if self.0 != 0 && !self.more_than_one() {
            self.first()
        } else {
            None
        }
    }

    /// The set with `sq` added.
    #[inline]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | (1 << sq.index()))
    }

    /// The set with `sq` removed.
    #[inline]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq.index()))
    }

    /// The set with `sq` added if absent, removed if present.
    #[inline]
    pub const fn toggle(self, sq: Square) -> Bitboard {
        Bitboard(self.0 ^ (1 << sq.index()))
    }

    /// Whether the two sets share a square.
    #[inline]
    pub const fn intersects(self, other: Bitboard) -> bool {
        self.0 & other.0 != 0
    }

    /// One step north-east, dropping what leaves the board.
    #[inline]
    pub const fn north_east(self) -> Bitboard {
        Bitboard((self.0 & !Self::FILE_H.0) << 9)
    }
    /// One step north-west, dropping what leaves the board.
    #[inline]
    pub const fn north_west(self) -> Bitboard {
        Bitboard((self.0 & !Self::FILE_A.0) << 7)
    }
    /// One step south-east, dropping what leaves the board.
    #[inline]
    pub const fn south_east(self) -> Bitboard {
        Bitboard((self.0 & !Self::FILE_H.0) >> 7)
    }
    /// One step south-west, dropping what leaves the board.
    #[inline]
    pub const fn south_west(self) -> Bitboard {
        Bitboard((self.0 & !Self::FILE_A.0) >> 9)
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = Square::new(self.0.trailing_zeros() as u8);
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

impl From<Square> for Bitboard {
    #[inline]
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

macro_rules! bitop {
    ($trait:ident, $fn:ident, $op:tt, $atrait:ident, $afn:ident) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $fn(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $atrait for Bitboard {
            #[inline]
            fn $afn(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bitop!(BitAnd, bitand, &, BitAndAssign, bitand_assign);
bitop!(BitOr, bitor, |, BitOrAssign, bitor_assign);
bitop!(BitXor, bitxor, ^, BitXorAssign, bitxor_assign);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(*self).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn dark_mask_matches_rule_1_1() {
        for s in Square::all() {
            assert_eq!(Bitboard::DARK.contains(s), s.is_dark(), "{s}");
        }
    }

    #[test]
    fn edge_mask() {
        for s in Square::all() {
            let edge = s.file() == 0 || s.file() == 7 || s.rank() == 0 || s.rank() == 7;
            assert_eq!(Bitboard::EDGE.contains(s), edge, "{s}");
        }
    }

    #[test]
    fn diagonal_shifts_do_not_wrap() {
        assert_eq!(Bitboard::from(sq("h4")).north_east(), Bitboard::EMPTY);
        assert_eq!(Bitboard::from(sq("a4")).north_west(), Bitboard::EMPTY);
        assert_eq!(
            Bitboard::from(sq("c3")).north_east(),
            Bitboard::from(sq("d4"))
        );
        assert_eq!(
            Bitboard::from(sq("c3")).south_west(),
            Bitboard::from(sq("b2"))
        );
        assert_eq!(
            Bitboard::from(sq("c3")).south_east(),
            Bitboard::from(sq("d2"))
        );
        assert_eq!(
            Bitboard::from(sq("c3")).north_west(),
            Bitboard::from(sq("b4"))
        );
        assert_eq!(Bitboard::from(sq("a1")).south_west(), Bitboard::EMPTY);
    }
}
