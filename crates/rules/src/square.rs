//! Squares `a1`…`h8` (RULES 1.1, 6.1).

use std::fmt;
use std::str::FromStr;

use crate::Color;

/// A square, `a1` = 0, `b1` = 1, …, `h8` = 63.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square of index 0 (`a1`) to 63 (`h8`); debug builds check the
    /// range, release builds take the index modulo 64.
    #[inline]
    pub const fn new(index: u8) -> Square {
        debug_assert!(index < 64);
        Square(index & 63)
    }

    /// The square at `file` (0 = a) and `rank` (0 = rank 1), if on the board.
    #[inline]
    pub const fn from_coords(file: i32, rank: i32) -> Option<Square> {
        if file >= 0 && file < 8 && rank >= 0 && rank < 8 {
            Some(Square((rank * 8 + file) as u8))
        } else {
            None
        }
    }

    /// 0 (`a1`) to 63 (`h8`), rank by rank.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 0 for the a-file to 7 for the h-file.
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// 0 for rank 1 to 7 for rank 8.
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// 1.1: a square is dark when file index + rank index is even (`a1` is dark).
    #[inline]
    pub const fn is_dark(self) -> bool {
        (self.file() + self.rank()) & 1 == 0
    }

    /// The square `df` files and `dr` ranks away, if on the board.
    #[inline]
    pub const fn offset(self, df: i32, dr: i32) -> Option<Square> {
        Square::from_coords(self.file() as i32 + df, self.rank() as i32 + dr)
    }

    /// The rank as seen by `color`: 0 is its home rank, 7 its far rank (2.5).
    #[inline]
    pub const fn relative_rank(self, color: Color) -> u8 {
        match color {
            Color::White => self.rank(),
            Color::Black => 7 - self.rank(),
        }
    }

    /// The square after a half turn of the board (1.6).
    #[inline]
    pub const fn rotate(self) -> Square {
        Square(63 - self.0)
    }

    /// The 64 squares from `a1` to `h8`, rank by rank.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }

    /// The file's letter, `a` to `h`.
    pub fn file_char(self) -> char {
        (b'a' + self.file()) as char
    }

    /// The rank's digit, `1` to `8`.
    pub fn rank_char(self) -> char {
        (b'1' + self.rank()) as char
    }

    /// Parses two bytes such as `b"e4"`.
    pub fn from_ascii(s: &[u8]) -> Option<Square> {
        match s {
            [f @ b'a'..=b'h', r @ b'1'..=b'8'] => Some(Square((r - b'1') * 8 + (f - b'a'))),
            _ => None,
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file_char(), self.rank_char())
    }
}

/// A string that is not a square name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("6.1: '{0}' is not a square (a1 … h8)")]
pub struct ParseSquareError(pub String);

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        Square::from_ascii(s.as_bytes()).ok_or_else(|| ParseSquareError(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_of_squares_follow_rule_1_1() {
        let a1: Square = "a1".parse().unwrap();
        let b1: Square = "b1".parse().unwrap();
        let h8: Square = "h8".parse().unwrap();
        let h1: Square = "h1".parse().unwrap();
        assert!(a1.is_dark());
        assert!(!b1.is_dark());
        assert!(h8.is_dark());
        assert!(!h1.is_dark());
        // Both Kings start on dark squares (1.6).
        assert!("e1".parse::<Square>().unwrap().is_dark());
        assert!("d8".parse::<Square>().unwrap().is_dark());
    }

    #[test]
    fn names_round_trip() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>().unwrap(), sq);
        }
        assert!("i1".parse::<Square>().is_err());
        assert!("a9".parse::<Square>().is_err());
        assert!("a".parse::<Square>().is_err());
        assert!("a10".parse::<Square>().is_err());
    }
}
