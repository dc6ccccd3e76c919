//! The rules of Legion: chess pieces and a Russian-draughts army on one
//! board. Every rule here follows `docs/RULES.md` of the Legion
//! repository; rule numbers in comments and errors refer to it.
//!
//! ```
//! use legion_rules::{Position, notation};
//!
//! let pos = Position::initial();
//! assert_eq!(pos.legal_moves().len(), 26); // RULES Part VII
//!
//! // Moves are read in either notation, and illegal ones explained.
//! let m = notation::parse_move(&pos, "c3-d4").unwrap();
//! let pos = pos.after(m);
//! let err = notation::parse_move(&pos, "d4c3").unwrap_err();
//! assert!(err.to_string().starts_with("1.2:")); // it is Black's turn
//!
//! // Positions are written and read as LFEN (6.2).
//! let again: Position = pos.to_lfen().parse().unwrap();
//! assert_eq!(again, pos);
//! ```
//!
//! Moves from outside are played checked, with the rule they break:
//!
//! ```
//! use legion_rules::{Illegal, Position, notation};
//!
//! // After 1. c3-d4 b6-c5 White must take on c5 (4.2).
//! let mut pos = Position::initial();
//! for text in ["c3-d4", "b6-c5"] {
//!     let m = notation::parse_move(&pos, text).unwrap();
//!     pos.try_play(m).unwrap();
//! }
//! let knight = notation::parse_move(&Position::initial(), "Nf3").unwrap();
//! let err = pos.try_play(knight).unwrap_err();
//! assert!(matches!(err.reason(), Illegal::CaptureObligation { .. }));
//! assert_eq!(err.to_string(), "4.2: a Legion capture is mandatory: d4:b6");
//! ```
//!
//! The entry points: [`Position`] (from [`Position::initial`], an LFEN,
//! or a [`PositionBuilder`]) with [`Position::legal_moves`],
//! [`Position::try_play`] and [`Position::play_unchecked`]; moves in
//! [`notation`]; reasons for illegal moves in [`explain`]; games and how
//! they end in [`game`]; game records in [`record`]; [`perft`].
//!
//! Where each rule lives: placement and constructs in [`Board`]; check
//! (3.2) in [`Board::attackers`]; legal moves with the obligation order of
//! 4.2 in `movegen`, Legion capture series (4.3, 4.5) in `capture`; making
//! a move and the King removal of 5.1 in [`Position::play_unchecked`];
//! validity of a position (6.2) in [`PositionBuilder::build`]; draws and
//! results (5.2, 5.3) in [`game`]; notation (6.2–6.5) in [`lfen`],
//! [`notation`] and [`record`]; reasons for illegal moves in [`explain`].

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod attacks;
mod bitboard;
mod board;
mod builder;
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
pub use builder::{MAX_COUNTER, PositionBuilder};
pub use color::Color;
pub use explain::{Illegal, PlayError};
pub use game::{Game, Outcome};
pub use lfen::{INITIAL_LFEN, LfenError};
pub use moves::{Move, MoveKind, MoveList};
pub use notation::MoveParseError;
pub use piece::{Occupant, Piece, Role};
pub use position::{Position, Rules};
pub use record::Record;
pub use square::{ParseSquareError, Square};
