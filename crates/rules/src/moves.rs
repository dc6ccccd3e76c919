//! Moves as the generator produces them.

use smallvec::SmallVec;

use crate::castling::CastlingSide;
use crate::{Bitboard, Role, Square};

/// How a move changes the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MoveKind {
    /// A chess piece or construct moves or captures (2.1, 2.3, 4.4).
    Chess,
    /// Castling (2.2); `from`/`to` are the King's squares.
    Castle,
    /// A Legion man or Tama moves without capturing (2.4).
    Step,
    /// A Legion capture series (4.3).
    Jump,
}

/// A legal move. Two capture series with the same start, end and set of
/// jumped pieces are one move (4.5): a `Jump` is identified by exactly
/// those, and its path is recovered when it is written (`notation`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    from: Square,
    to: Square,
    kind: MoveKind,
    /// The moving piece's role (for a construct, its Captor's), before any
    /// crowning: it spares `play` a look-up.
    role: Role,
    crowns: bool,
    captured: Bitboard,
}

impl Move {
    #[inline]
    pub(crate) const fn chess(role: Role, from: Square, to: Square, target: Bitboard) -> Move {
        Move {
            from,
            to,
            kind: MoveKind::Chess,
            role,
            crowns: false,
            captured: target,
        }
    }

    #[inline]
    pub(crate) const fn castle(from: Square, to: Square) -> Move {
        Move {
            from,
            to,
            kind: MoveKind::Castle,
            role: Role::King,
            crowns: false,
            captured: Bitboard::EMPTY,
        }
    }

    #[inline]
    pub(crate) const fn step(role: Role, from: Square, to: Square, crowns: bool) -> Move {
        Move {
            from,
            to,
            kind: MoveKind::Step,
            role,
            crowns,
            captured: Bitboard::EMPTY,
        }
    }

    #[inline]
    pub(crate) const fn jump(
        role: Role,
        from: Square,
        to: Square,
        captured: Bitboard,
        crowns: bool,
    ) -> Move {
        Move {
            from,
            to,
            kind: MoveKind::Jump,
            role,
            crowns,
            captured,
        }
    }

    /// The square the piece leaves (the King's, for castling).
    #[inline]
    pub const fn from(self) -> Square {
        self.from
    }

    /// The square the piece ends on (the King's, for castling).
    #[inline]
    pub const fn to(self) -> Square {
        self.to
    }

    /// How the move changes the board.
    #[inline]
    pub const fn kind(self) -> MoveKind {
        self.kind
    }

    /// The role of the piece that moves (a construct's Captor's), as it
    /// was before the move.
    #[inline]
    pub const fn role(self) -> Role {
        self.role
    }

    /// A man becomes a Tama by this move (2.5).
    #[inline]
    pub const fn crowns(self) -> bool {
        self.crowns
    }

    /// The squares of the pieces this move captures: the target of a chess
    /// capture, or every piece a capture series jumps.
    #[inline]
    pub const fn captured(self) -> Bitboard {
        self.captured
    }

    /// Whether the move captures anything (4.1).
    #[inline]
    pub const fn is_capture(self) -> bool {
        self.captured.any()
    }

    /// Whether a man or Tama moves (a step or a capture series).
    #[inline]
    pub const fn is_legion(self) -> bool {
        matches!(self.kind, MoveKind::Step | MoveKind::Jump)
    }

    /// For castling, which side.
    pub fn castling_side(self) -> Option<CastlingSide> {
        match self.kind {
            MoveKind::Castle => Some(CastlingSide::from_king_destination(self.to)),
            _ => None,
        }
    }
}

/// The moves of one position. Inline room for any position reachable in
/// play; it spills to the heap for contrived set-ups with many pieces.
pub type MoveList = SmallVec<[Move; 256]>;
