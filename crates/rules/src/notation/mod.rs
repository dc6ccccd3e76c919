//! Move notation (RULES 6.3, 6.4).

mod canonical;
mod human;

pub use canonical::{MoveParseError, canonical, legion_path, parse_canonical, parse_squares};
pub use human::{human, parse_move};
