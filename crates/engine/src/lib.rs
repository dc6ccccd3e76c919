//! The Legion engine: evaluation, search, levels for people, the
//! transposition table, the UCI-style protocol and bench. It plays by the
//! rules of `legion-rules` and never parses text below the protocol layer.
//! Matches, tuning and statistics live in `legion-lab`.

pub mod bench;
pub mod endgames;
pub mod engine;
pub mod eval;
pub mod levels;
pub mod nnue;
pub mod rng;
pub mod search;
pub mod tt;
mod tuned;
pub mod uci;

pub use engine::{Engine, Options};
pub use eval::{Feature, Weights, evaluate};
pub use levels::Level;
pub use search::{Config, Info, Limits, Outcome, search, search_once};
pub use tt::Table;
pub use uci::ProtocolError;
