//! Move notation (RULES 6.3, 6.4): canonical moves for programs (`g1f3`,
//! `c3e5c7`) and moves for people (`Nf3`, `c3:e5:c7`, `O-O`), written by
//! [`canonical`] and [`human`], read (either form) by [`parse_move`].
//!
//! ```
//! use legion_rules::Position;
//! use legion_rules::notation::{MoveParseError, canonical, human, parse_move};
//!
//! let pos = Position::initial();
//! let m = parse_move(&pos, "Nf3").unwrap();
//! assert_eq!(canonical(&pos, m), "g1f3");
//! assert_eq!(parse_move(&pos, "g1-f3").unwrap(), m);
//! assert_eq!(human(&pos, m), "Nf3");
//!
//! // A move that is written well but illegal is explained with its rule.
//! let err = parse_move(&pos, "Nd2").unwrap_err();
//! assert!(matches!(err, MoveParseError::Illegal(_)));
//! assert_eq!(err.rule(), "2.1");
//! assert_eq!(err.to_string(), "2.1: none of your Knights can move to d2");
//! ```

mod canonical;
mod human;

pub use canonical::{
    MoveParseError, canonical, canonical_path, legion_path, parse_canonical, parse_squares,
};
pub use human::{human, human_among, parse_move};
