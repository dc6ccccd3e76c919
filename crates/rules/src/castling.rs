//! Castling (RULES 2.2): which rights exist and the squares each castling
//! uses. Black's King starts on d8 (1.6), so Black's short castling goes
//! towards a8 and its long castling towards h8.

use std::fmt;

use crate::{Bitboard, Color, Square};

/// Short castling is towards the nearer Rook, long towards the farther (2.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastlingSide {
    /// Towards the nearer Rook: `e1g1` for White, `d8b8` for Black.
    Short,
    /// Towards the farther Rook: `e1c1` for White, `d8f8` for Black.
    Long,
}

impl CastlingSide {
    /// Both sides, short first.
    pub const ALL: [CastlingSide; 2] = [CastlingSide::Short, CastlingSide::Long];

    /// The side of a castling whose King lands on `king_to`: short castling
    /// lands on the g- or b-file, long castling on the c- or f-file (2.2).
    /// Total, so that playing a castling move needs no fallback.
    #[inline]
    pub const fn from_king_destination(king_to: Square) -> CastlingSide {
        match king_to.file() {
            1 | 6 => CastlingSide::Short,
            _ => CastlingSide::Long,
        }
    }
}

/// The squares one castling uses.
#[derive(Clone, Copy, Debug)]
pub struct CastlingPath {
    /// Whose castling.
    pub color: Color,
    /// Which castling.
    pub side: CastlingSide,
    /// The King's home square.
    pub king_from: Square,
    /// Where the King lands.
    pub king_to: Square,
    /// The Rook's home square.
    pub rook_from: Square,
    /// Where the Rook lands: the square the King crossed.
    pub rook_to: Square,
    /// Squares between King and Rook: all must be empty.
    pub must_be_empty: Bitboard,
    /// Squares the King passes over or lands on: none may be attacked (3.2).
    pub king_path: Bitboard,
}

const fn sq(file: u8, rank: u8) -> Square {
    Square::new(rank * 8 + file)
}

const fn bits(list: &[Square]) -> Bitboard {
    let mut b = 0u64;
    let mut i = 0;
    while i < list.len() {
        b |= 1 << list[i].index();
        i += 1;
    }
    Bitboard(b)
}

const E1: Square = sq(4, 0);
const D8: Square = sq(3, 7);

/// The table of 2.2, indexed by colour then side.
pub const PATHS: [[CastlingPath; 2]; 2] = [
    [
        CastlingPath {
            color: Color::White,
            side: CastlingSide::Short,
            king_from: E1,
            king_to: sq(6, 0),
            rook_from: sq(7, 0),
            rook_to: sq(5, 0),
            must_be_empty: bits(&[sq(5, 0), sq(6, 0)]),
            king_path: bits(&[sq(5, 0), sq(6, 0)]),
        },
        CastlingPath {
            color: Color::White,
            side: CastlingSide::Long,
            king_from: E1,
            king_to: sq(2, 0),
            rook_from: sq(0, 0),
            rook_to: sq(3, 0),
            must_be_empty: bits(&[sq(1, 0), sq(2, 0), sq(3, 0)]),
            king_path: bits(&[sq(3, 0), sq(2, 0)]),
        },
    ],
    [
        CastlingPath {
            color: Color::Black,
            side: CastlingSide::Short,
            king_from: D8,
            king_to: sq(1, 7),
            rook_from: sq(0, 7),
            rook_to: sq(2, 7),
            must_be_empty: bits(&[sq(1, 7), sq(2, 7)]),
            king_path: bits(&[sq(2, 7), sq(1, 7)]),
        },
        CastlingPath {
            color: Color::Black,
            side: CastlingSide::Long,
            king_from: D8,
            king_to: sq(5, 7),
            rook_from: sq(7, 7),
            rook_to: sq(4, 7),
            must_be_empty: bits(&[sq(4, 7), sq(5, 7), sq(6, 7)]),
            king_path: bits(&[sq(4, 7), sq(5, 7)]),
        },
    ],
];

/// The letter of a castling right in LFEN (6.2): `K`/`k` short, `Q`/`q`
/// long castling, upper case White.
pub const fn right_char(color: Color, side: CastlingSide) -> char {
    match (color, side) {
        (Color::White, CastlingSide::Short) => 'K',
        (Color::White, CastlingSide::Long) => 'Q',
        (Color::Black, CastlingSide::Short) => 'k',
        (Color::Black, CastlingSide::Long) => 'q',
    }
}

/// The squares of one castling (the table of 2.2).
#[inline]
pub fn path(color: Color, side: CastlingSide) -> &'static CastlingPath {
    &PATHS[color.index()][side as usize]
}

/// The castling rights of LFEN's third field (6.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct CastlingRights(u8);

impl CastlingRights {
    /// No right: `-`.
    pub const NONE: CastlingRights = CastlingRights(0);
    /// All four rights, as at the start: `KQkq`.
    pub const ALL: CastlingRights = CastlingRights(15);

    #[inline]
    const fn bit(color: Color, side: CastlingSide) -> u8 {
        1 << (color as u8 * 2 + side as u8)
    }

    /// The rights as four bits (White short, White long, Black short,
    /// Black long from the lowest), for hashing.
    #[inline]
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// Whether `color` may still castle on `side`.
    #[inline]
    pub const fn has(self, color: Color, side: CastlingSide) -> bool {
        self.0 & Self::bit(color, side) != 0
    }

    /// Grants `color` the right to castle on `side`.
    #[inline]
    pub fn set(&mut self, color: Color, side: CastlingSide) {
        self.0 |= Self::bit(color, side);
    }

    /// Takes both of `color`'s rights away.
    #[inline]
    pub fn clear_color(&mut self, color: Color) {
        self.0 &= !(3 << (color as u8 * 2));
    }

    /// Whether no right is left.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The rights that survive a move touching `sq` (from or to): a King or
    /// Rook that leaves, or is captured on, its home square loses them.
    #[inline]
    pub fn update(&mut self, sq: Square) {
        self.0 &= RIGHTS_KEPT[sq.index()];
    }
}

static RIGHTS_KEPT: [u8; 64] = {
    let mut kept = [15u8; 64];
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < 2 {
            let p = &PATHS[c][s];
            let bit = 1u8 << (c * 2 + s);
            kept[p.king_from.index()] &= !bit;
            kept[p.rook_from.index()] &= !bit;
            s += 1;
        }
        c += 1;
    }
    kept
};

impl fmt::Display for CastlingRights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("-");
        }
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if self.has(color, side) {
                    write!(f, "{}", right_char(color, side))?;
                }
            }
        }
        Ok(())
    }
}
