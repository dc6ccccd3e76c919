//! The rules of Legion: chess pieces and a Russian-draughts army on one
//! board. Every rule here follows `docs/RULES.md`; rule numbers in comments
//! and errors refer to it.

pub mod attacks;
mod bitboard;
mod board;
mod capture;
pub mod castling;
mod color;
pub mod explain;
pub mod game;
pub mod lfen;
mod magics;
mod movegen;
mod moves;
pub mod notation;
pub mod perft;
mod piece;
mod position;
pub mod record;
mod square;
mod zobrist;

pub use bitboard::Bitboard;
pub use board::Board;
pub use color::Color;
pub use explain::Illegal;
pub use game::{Game, Outcome};
pub use lfen::{INITIAL_LFEN, LfenError};
pub use moves::{Move, MoveKind, MoveList};
pub use notation::MoveParseError;
pub use piece::{Occupant, Piece, Role};
pub use position::{Position, Rules};
pub use record::Record;
pub use square::{ParseSquareError, Square};
