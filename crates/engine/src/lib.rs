//! The Legion engine: evaluation, search, levels for people, and the
//! UCI-style protocol. It plays by the rules of `legion-rules` and never
//! parses text below the protocol layer.

pub mod bench;
pub mod engine;
pub mod eval;
pub mod levels;
pub mod player;
pub mod search;
pub mod stats;
pub mod tournament;
pub mod tt;
pub mod tune;
mod tuned;
pub mod uci;

pub use engine::{Engine, Options};
pub use eval::{Feature, Weights, evaluate};
pub use levels::Level;
pub use search::{Config, Info, Limits, Outcome, search, search_once};
pub use tt::Table;
