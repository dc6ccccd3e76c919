//! The neural evaluation (NNUE): a network small enough to be updated
//! incrementally as moves are made, evaluated on every node.
//!
//! Shape: 1,152 inputs (`features`: 18 planes of 64 squares, constructs'
//! Captors and prisoners included) → 256 per side, the side to move's
//! first → clipped ReLU, or its square (`Activation`) → 1 output, with
//! its weights chosen from `BUCKETS` sets by how many squares are
//! occupied (`bucket`), so that
//! an ending and a full board can weigh the same hidden neurons
//! differently at no cost per node. One hidden layer, because the data a
//! 2-core machine makes in a few sessions (6.7 million positions for the
//! built-in net) is enough for its 299 thousand weights with weight decay,
//! and a deeper net would cost more per node than its accuracy on such
//! data repays. 256 rather than 128 since gen7 (docs/STRENGTH.md).
//!
//! Quantised for integer arithmetic: the first layer and the accumulators
//! in `i16` (scale `QA` = 255, so the clipped ReLU is a clamp to 0..=255),
//! the output weights in `i16` (scale `QB` = 64), the output bias in
//! `i32`. The squared activation (SCReLU) keeps those scales: its
//! products `clamp(a)² · w` carry `QA² · QB` and are divided by `QA` once
//! summed, and its output weights are kept within ±`SCRELU_W2_MAX` so
//! that `clamp(a) · w` fits an `i16` (the vector path multiplies in
//! 16 bits first). The output is a logit of the expected result; the net's
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
pub const HIDDEN: usize = 256;
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
/// The largest output weight a squared-activation net may have:
/// `QA * SCRELU_W2_MAX` must fit an `i16`.
pub const SCRELU_W2_MAX: i16 = (i16::MAX as i32 / QA) as i16;

/// What the hidden layer does to its sums before the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Activation {
    /// `clamp(x, 0, 1)`: the first nets (format versions 1 and 2).
    #[default]
    ClippedRelu,
    /// `clamp(x, 0, 1)²` (SCReLU), which other engines measured stronger
    /// for the same width.
    SquaredClippedRelu,
}

impl Activation {
    /// Its code in the network file (format version 3).
    pub fn code(self) -> u32 {
        match self {
            Activation::ClippedRelu => 0,
            Activation::SquaredClippedRelu => 1,
        }
    }

    /// The activation of a file's code, if there is one.
    pub fn from_code(code: u32) -> Option<Activation> {
        match code {
            0 => Some(Activation::ClippedRelu),
            1 => Some(Activation::SquaredClippedRelu),
            _ => None,
        }
    }
}

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
    pub(crate) activation: Activation,
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
        let sum = match self.activation {
            Activation::ClippedRelu => {
                i64::from(simd::crelu_dot(us, w_us)) + i64::from(simd::crelu_dot(them, w_them))
            }
            // Products at QA² · QB, back to QA · QB.
            Activation::SquaredClippedRelu => {
                (simd::screlu_dot(us, w_us) + simd::screlu_dot(them, w_them)) / i64::from(QA)
            }
        } + i64::from(self.b2[bucket]);
        // i64: the product can pass i32 for an extreme position.
        ((sum * self.scale as i64) / (QA as i64 * QB as i64)) as i32
    }

    /// The hidden layer's activation.
    pub fn activation(&self) -> Activation {
        self.activation
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
    fn the_squared_activation_squares_the_clipped_sums() {
        // Worked by hand: no feature weighs anything, so both sides' sums
        // are the bias, 128 (0.502 of the clamp's top) in neuron 0 only.
        // The output weights 64 (1.0) for the side to move's and 32 (0.5)
        // for the other's, bias 0, scale 400.
        let mut net = (*embedded().unwrap()).clone();
        net.w1.iter_mut().for_each(|row| row.fill(0));
        net.b1 = [0; HIDDEN];
        net.b1[0] = 128;
        net.w2 = [[0; 2 * HIDDEN]; BUCKETS];
        net.w2[7][0] = 64;
        net.w2[7][HIDDEN] = 32;
        net.b2 = [0; BUCKETS];
        net.scale = 400;
        let full = Position::initial();
        // Clipped: 128 · 64 + 128 · 32 = 12,288; · 400 / (255 · 64) =
        // 301.2 (0.502 · 1.5 · 400), toward zero 301.
        net.activation = Activation::ClippedRelu;
        assert_eq!(net.evaluate(&full), 301);
        // Squared: 128² · 96 = 1,572,864; / 255 = 6,168; · 400 / 16,320
        // = 151.2 (0.502² · 1.5 · 400), toward zero 151.
        net.activation = Activation::SquaredClippedRelu;
        assert_eq!(net.evaluate(&full), 151);
        // A sum past the clamp's top counts as the top: 255² · 96 / 255
        // · 400 / 16,320 = 600.
        net.b1[0] = 1000;
        assert_eq!(net.evaluate(&full), 600);
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
