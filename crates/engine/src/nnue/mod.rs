//! The neural evaluation (NNUE): a network small enough to be updated
//! incrementally as moves are made, evaluated on every node.
//!
//! Shape: 1,152 inputs (`features`: 18 planes of 64 squares, constructs'
//! Captors and prisoners included) → 128 per side, the side to move's
//! first → clipped ReLU → 1 output. One hidden layer, because the data a
//! 2-core machine can make in an hour (about two million positions) is
//! enough for its 148 thousand weights, and a deeper net would cost more
//! per node than its accuracy on such data repays (docs/STRENGTH.md).
//!
//! Quantised for integer arithmetic: the first layer and the accumulators
//! in `i16` (scale `QA` = 255, so the clipped ReLU is a clamp to 0..=255),
//! the output weights in `i16` (scale `QB` = 64), the output bias in
//! `i32`. The output is a logit of the expected result; `SCALE`
//! hundredths of a man per unit of logit turns it into the search's units
//! (the trainer fits `sigmoid(score / SCALE)`).
//!
//! - `features`: what the inputs are.
//! - `accumulator`: the first layer's sums, kept up to date by the
//!   difference between two boards.
//! - `simd`: the vector arithmetic (AVX2 through `std::arch` when the
//!   processor has it, plain loops otherwise).
//! - `format`: the file format and its version check.

pub mod accumulator;
pub mod features;
pub mod format;
mod simd;

use std::sync::{Arc, OnceLock};

use legion_rules::{Color, Position};

pub use accumulator::{Accumulator, Stack};
pub use format::NetError;

/// Hidden neurons per side.
pub const HIDDEN: usize = 128;
/// Scale of the first layer's weights and of the clipped ReLU's top.
pub const QA: i32 = 255;
/// Scale of the output weights.
pub const QB: i32 = 64;
/// Hundredths of a man per unit of the output (a logit).
pub const SCALE: i32 = 400;

/// A network, quantised.
#[derive(Clone)]
pub struct Network {
    /// `INPUTS` rows of `HIDDEN`: row `f` is added when feature `f` is on.
    pub(crate) w1: Vec<[i16; HIDDEN]>,
    pub(crate) b1: [i16; HIDDEN],
    /// The side to move's half, then the other side's.
    pub(crate) w2: [i16; 2 * HIDDEN],
    pub(crate) b2: i32,
    /// What the file says it was made from (shown by the protocol).
    pub description: String,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({})", self.description)
    }
}

/// The network built into the engine (`nets/`).
const EMBEDDED: &[u8] = include_bytes!("../../nets/legion.nnue");

/// The embedded network, read once. A binary whose network does not load
/// was built wrong; the test `the_embedded_network_loads` keeps that
/// from being released.
pub fn embedded() -> Result<Arc<Network>, NetError> {
    static NET: OnceLock<Result<Arc<Network>, NetError>> = OnceLock::new();
    NET.get_or_init(|| format::read(EMBEDDED).map(Arc::new))
        .clone()
}

/// A network from a file (a candidate not yet built in).
pub fn load(path: &std::path::Path) -> Result<Arc<Network>, LoadError> {
    let bytes = std::fs::read(path).map_err(|e| LoadError::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    })?;
    format::read(&bytes)
        .map(Arc::new)
        .map_err(|source| LoadError::Net {
            path: path.display().to_string(),
            source,
        })
}

/// Why a network file could not be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    #[error("cannot read {path}: {message}")]
    Io { path: String, message: String },
    #[error("{path}: {source}")]
    Net { path: String, source: NetError },
}

impl Network {
    /// The evaluation of `pos` for the side to move, in hundredths of a
    /// man, from accumulators that match its board.
    #[inline]
    pub fn output(&self, acc: &Accumulator, turn: Color) -> i32 {
        let (us, them) = match turn {
            Color::White => (&acc.white, &acc.black),
            Color::Black => (&acc.black, &acc.white),
        };
        let (w_us, w_them) = self.w2.split_at(HIDDEN);
        let sum = simd::crelu_dot(us, w_us) + simd::crelu_dot(them, w_them) + self.b2;
        // i64: the product can pass i32 for an extreme position.
        ((sum as i64 * SCALE as i64) / (QA as i64 * QB as i64)) as i32
    }

    /// The evaluation of `pos`, computing the accumulators from scratch.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let acc = Accumulator::new(self, pos.board());
        self.output(&acc, pos.turn())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_network_loads() {
        let net = embedded().expect("the embedded network");
        assert!(!net.description.is_empty());
    }

    #[test]
    fn a_symmetric_position_is_level_for_both_sides() {
        // The initial position (1.6) turned half a turn is itself with the
        // colours swapped, so each side to move sees the same.
        let net = &*embedded().unwrap();
        let w = Position::initial();
        let b: Position = "rnbkqbnr/m1m1m1m1/1m1m1m1m/8/8/M1M1M1M1/1M1M1M1M/RNBQKBNR b KQkq 0 1"
            .parse()
            .unwrap();
        assert_eq!(net.evaluate(&w), net.evaluate(&b));
    }
}
