//! The neural evaluation (NNUE): a network small enough to be updated
//! incrementally as moves are made, evaluated on every node.
//!
//! Shape: 1,152 inputs (`features`: 18 planes of 64 squares, constructs'
//! Captors and prisoners included) → 128 per side, the side to move's
//! first → clipped ReLU → 1 output, with its weights chosen from
//! `BUCKETS` sets by how many squares are occupied (`bucket`), so that
//! an ending and a full board can weigh the same hidden neurons
//! differently at no cost per node. One hidden layer, because the data a
//! 2-core machine can make in an hour (about two million positions) is
//! enough for its 148 thousand weights, and a deeper net would cost more
//! per node than its accuracy on such data repays (docs/STRENGTH.md).
//!
//! Quantised for integer arithmetic: the first layer and the accumulators
//! in `i16` (scale `QA` = 255, so the clipped ReLU is a clamp to 0..=255),
//! the output weights in `i16` (scale `QB` = 64), the output bias in
//! `i32`. The output is a logit of the expected result; the net's
//! `scale` (in its file, 400 for the first nets) in hundredths of a man
//! per unit of logit turns it into the search's units (the trainer fits
//! `sigmoid(score / scale)`).
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

use legion_rules::{Board, Color, Position};

pub use accumulator::{Accumulator, Stack};
pub use format::NetError;

/// Hidden neurons per side.
pub const HIDDEN: usize = 128;
/// Scale of the first layer's weights and of the clipped ReLU's top.
pub const QA: i32 = 255;
/// Scale of the output weights.
pub const QB: i32 = 64;
/// Hundredths of a man per unit of the output (a logit) in the first
/// nets (format version 1, which had no field for it).
pub const DEFAULT_SCALE: i32 = 400;
/// The largest scale a file may give.
pub const MAX_SCALE: i32 = 4000;
/// Sets of output weights, chosen by the number of occupied squares.
pub const BUCKETS: usize = 8;

/// The output bucket of `board`: its occupied squares (a construct is
/// one), four counts to a bucket: 1–4 is bucket 0, 29–32 bucket 7.
#[inline]
pub fn bucket(board: &Board) -> usize {
    ((board.occupied().count() as usize).saturating_sub(1) / 4).min(BUCKETS - 1)
}

/// A network, quantised.
#[derive(Clone)]
pub struct Network {
    /// `INPUTS` rows of `HIDDEN`: row `f` is added when feature `f` is on.
    pub(crate) w1: Vec<[i16; HIDDEN]>,
    pub(crate) b1: [i16; HIDDEN],
    /// For each bucket, the side to move's half, then the other side's.
    pub(crate) w2: [[i16; 2 * HIDDEN]; BUCKETS],
    pub(crate) b2: [i32; BUCKETS],
    /// Hundredths of a man per unit of the output.
    pub(crate) scale: i32,
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
    /// The evaluation for the side to move `turn`, in hundredths of a
    /// man, from accumulators that match a board of output bucket
    /// `bucket` (see `bucket`).
    #[inline]
    pub fn output(&self, acc: &Accumulator, turn: Color, bucket: usize) -> i32 {
        let (us, them) = match turn {
            Color::White => (&acc.white, &acc.black),
            Color::Black => (&acc.black, &acc.white),
        };
        let (w_us, w_them) = self.w2[bucket].split_at(HIDDEN);
        let sum = simd::crelu_dot(us, w_us) + simd::crelu_dot(them, w_them) + self.b2[bucket];
        // i64: the product can pass i32 for an extreme position.
        ((sum as i64 * self.scale as i64) / (QA as i64 * QB as i64)) as i32
    }

    /// The evaluation of `pos`, computing the accumulators from scratch.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let acc = Accumulator::new(self, pos.board());
        self.output(&acc, pos.turn(), bucket(pos.board()))
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
    fn the_bucket_counts_occupied_squares_four_to_a_bucket() {
        // 1.6: 32 occupied squares.
        assert_eq!(bucket(Position::initial().board()), 7);
        let b = |lfen: &str| bucket(lfen.parse::<Position>().unwrap().board());
        assert_eq!(b("3k4/8/8/8/8/8/8/4K3 w - 0 1"), 0);
        assert_eq!(b("3k4/8/8/8/8/8/8/QR2K3 w - 0 1"), 0);
        assert_eq!(b("3k4/8/8/8/8/8/8/QBR1K3 w - 0 1"), 1);
        // A construct (a Queen holding a man, 1.5) is one square.
        assert_eq!(b("3k4/8/8/8/8/[Qm]7/8/BR2K3 w - 0 1"), 1);
    }

    #[test]
    fn each_bucket_has_its_own_output() {
        let mut net = (*embedded().unwrap()).clone();
        let full = Position::initial();
        let few: Position = "3k4/8/8/8/8/8/8/Q3K3 w - 0 1".parse().unwrap();
        let (a, b) = (net.evaluate(&full), net.evaluate(&few));
        // One unit of logit more in bucket 7 moves only the full board, by
        // `scale`; within one, since the output divides toward zero and a
        // value crossing zero loses a fraction on one side of it.
        let near = |got: i32, want: i32| (got - want).abs() <= 1;
        net.b2[7] += QA * QB;
        let moved = net.evaluate(&full);
        assert!(near(moved, a + net.scale));
        assert_eq!(net.evaluate(&few), b);
        net.b2[0] -= QA * QB;
        assert!(near(net.evaluate(&few), b - net.scale));
        assert_eq!(net.evaluate(&full), moved);
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
