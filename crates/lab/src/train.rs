//! The trainer of the neural evaluation (`legion train`), in Rust: the
//! network is one hidden layer over sparse inputs, so its gradients are a
//! few loops, and the trainer needs no other language, no GPU and no
//! dependency to pin. It runs in the engine's own feature code
//! (`nnue::features`), so training and play cannot disagree on the
//! inputs.
//!
//! Each position of the data (`datagen`) is fitted to
//! `lambda * sigmoid(score / scale) + (1 - lambda) * result`, both for
//! the side to move, by the mean squared error of `sigmoid(output)`,
//! with Adam and a cosine-decaying learning rate. The games are sorted by
//! their number and shuffled by the seed; each batch is split into a
//! fixed number of slices whose gradients are summed in order, so the
//! same data, seed and settings give the same net on any number of
//! threads. Games whose number is a multiple of 50 are held out to
//! measure the fit.

use std::io::BufRead;

use legion_engine::nnue::features::{INPUTS, active};
use legion_engine::nnue::{
    Activation, BUCKETS, HIDDEN, Network, QA, QB, SCRELU_W2_MAX, bucket, format,
};
use legion_engine::rng::Rng;
use legion_rules::{Color, Position};

/// Weight limits that keep the quantised sums inside `i16` (33 features
/// at most: 32 pieces and the bias, 33 * 1.98 * 255 < 32767) and the
/// output products inside `i32`.
const W1_LIMIT: f32 = 1.98;
const W2_LIMIT: f32 = 8.0;
/// The output weights of a squared-activation net, so that they quantise
/// within ±`SCRELU_W2_MAX` (the engine multiplies them in 16 bits).
const SCRELU_W2_LIMIT: f32 = SCRELU_W2_MAX as f32 / QB as f32;
/// Slices a batch is split into (see the module's note on determinism).
const SLICES: usize = 8;
/// Held-out games: those whose number is a multiple of this.
const HOLD_OUT: usize = 50;

/// Whether game `number` of a data file is held out to measure the fit.
pub fn is_held_out(number: u64) -> bool {
    number.is_multiple_of(HOLD_OUT as u64)
}

/// One position: its features from each side's view (the same count).
pub struct Samples {
    white: Vec<u16>,
    black: Vec<u16>,
    /// Start of each position's features; one more than positions.
    start: Vec<u32>,
    white_to_move: Vec<bool>,
    /// The output bucket of the position (`nnue::bucket`).
    bucket: Vec<u8>,
    score: Vec<i32>,
    /// The result for the side to move: 1, 0.5 or 0.
    result: Vec<f32>,
}

impl Samples {
    pub fn len(&self) -> usize {
        self.score.len()
    }

    pub fn is_empty(&self) -> bool {
        self.score.is_empty()
    }

    /// Adds `other`'s positions after these.
    pub fn append(&mut self, other: Samples) {
        let base = *self.start.last().expect("start has one more");
        self.white.extend(other.white);
        self.black.extend(other.black);
        self.start.extend(other.start[1..].iter().map(|s| s + base));
        self.white_to_move.extend(other.white_to_move);
        self.bucket.extend(other.bucket);
        self.score.extend(other.score);
        self.result.extend(other.result);
    }

    fn features(&self, i: usize) -> (&[u16], &[u16]) {
        let (a, b) = (self.start[i] as usize, self.start[i + 1] as usize);
        if self.white_to_move[i] {
            (&self.white[a..b], &self.black[a..b])
        } else {
            (&self.black[a..b], &self.white[a..b])
        }
    }

    fn target(&self, i: usize, lambda: f32, scale: f32) -> f32 {
        lambda * sigmoid(self.score[i] as f32 / scale) + (1.0 - lambda) * self.result[i]
    }
}

pub use crate::datafile::DataError;

/// The positions of `datagen` files of either format (binary by its
/// header, else text), split into training and held-out games, each in
/// the order of the games' numbers. Only games numbered below `games`
/// are used, if given, so that a file that ran on past a number trains
/// the same net as one stopped there.
pub fn read_data(
    input: impl BufRead,
    games_limit: Option<usize>,
) -> Result<(Samples, Samples), DataError> {
    // Features are computed as games arrive (a position costs far more
    // memory than its features); the games are put in order after.
    let mut train = (Samples::new(), Vec::new());
    let mut held = (Samples::new(), Vec::new());
    crate::datafile::read_games(input, &mut |number, samples| {
        if games_limit.is_some_and(|n| number >= n as u64) {
            return;
        }
        let (set, games) = if is_held_out(number) {
            &mut held
        } else {
            &mut train
        };
        let first = set.len();
        for s in &samples {
            let white = match s.winner {
                Some(Color::White) => 1.0,
                Some(Color::Black) => 0.0,
                None => 0.5,
            };
            set.push(&s.position, s.score, white);
        }
        games.push((number, first..set.len()));
    })?;
    Ok((in_order(train), in_order(held)))
}

/// The positions of `games` (their numbers and ranges in `set`) sorted
/// by game number, stably.
fn in_order((set, mut games): (Samples, Vec<(u64, std::ops::Range<usize>)>)) -> Samples {
    if games.is_sorted_by_key(|g| g.0) {
        return set;
    }
    games.sort_by_key(|g| g.0);
    let mut out = Samples::new();
    for (_, range) in games {
        for i in range {
            out.push_from(&set, i);
        }
    }
    out
}

impl Samples {
    fn new() -> Samples {
        Samples {
            white: Vec::new(),
            black: Vec::new(),
            start: vec![0],
            white_to_move: Vec::new(),
            bucket: Vec::new(),
            score: Vec::new(),
            result: Vec::new(),
        }
    }

    /// Adds position `i` of `other`.
    fn push_from(&mut self, other: &Samples, i: usize) {
        let (a, b) = (other.start[i] as usize, other.start[i + 1] as usize);
        self.white.extend_from_slice(&other.white[a..b]);
        self.black.extend_from_slice(&other.black[a..b]);
        self.start.push(self.white.len() as u32);
        self.white_to_move.push(other.white_to_move[i]);
        self.bucket.push(other.bucket[i]);
        self.score.push(other.score[i]);
        self.result.push(other.result[i]);
    }

    fn push(&mut self, pos: &Position, score: i32, white_result: f32) {
        let w = active(pos.board(), Color::White);
        let b = active(pos.board(), Color::Black);
        self.white.extend(w.iter().map(|&f| f as u16));
        self.black.extend(b.iter().map(|&f| f as u16));
        self.start.push(self.white.len() as u32);
        let white = pos.turn() == Color::White;
        self.white_to_move.push(white);
        self.bucket.push(bucket(pos.board()) as u8);
        self.score.push(score);
        self.result.push(if white {
            white_result
        } else {
            1.0 - white_result
        });
    }
}

/// How to train.
#[derive(Clone, Debug)]
pub struct Settings {
    pub epochs: usize,
    pub batch: usize,
    pub learning_rate: f32,
    /// Weight of the search's score against the game's result.
    pub lambda: f32,
    pub seed: u64,
    pub threads: usize,
    /// Sets of output weights trained (1 to `BUCKETS`): bucket `b` of the
    /// engine uses set `b * buckets / BUCKETS`, so 1 is one output for
    /// every board and `BUCKETS` one per bucket.
    pub buckets: usize,
    /// Hundredths of a man per unit of the output's logit: the score
    /// `scale` is fitted as an expected result of sigmoid(1) = 0.73.
    pub scale: i32,
    /// The hidden layer's activation.
    pub activation: Activation,
    /// Decoupled weight decay (AdamW): each step multiplies the weights,
    /// not the biases, by 1 − learning rate × this; 0 for none.
    pub weight_decay: f32,
}

/// The float network being trained.
#[derive(Clone)]
pub struct Model {
    w1: Vec<f32>,
    b1: Vec<f32>,
    /// `buckets` sets of `2 * HIDDEN`.
    w2: Vec<f32>,
    b2: Vec<f32>,
    buckets: usize,
    /// Hundredths of a man per unit of the output.
    scale: i32,
    activation: Activation,
}

/// The activation of a hidden sum, and its derivative.
#[inline]
fn activate(activation: Activation, x: f32) -> (f32, f32) {
    let inside = x > 0.0 && x < 1.0;
    let c = x.clamp(0.0, 1.0);
    match activation {
        Activation::ClippedRelu => (c, if inside { 1.0 } else { 0.0 }),
        Activation::SquaredClippedRelu => (c * c, if inside { 2.0 * c } else { 0.0 }),
    }
}

/// The active features of `pos` for the side to move, then the other.
fn side_features(pos: &Position) -> (Vec<u16>, Vec<u16>) {
    let of = |c: Color| active(pos.board(), c).iter().map(|&f| f as u16).collect();
    (of(pos.turn()), of(!pos.turn()))
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

impl Model {
    /// Small random weights from `seed`, `buckets` sets of output
    /// weights (clamped to 1..=`BUCKETS`), `scale` hundredths of a man
    /// per unit of the output (clamped to 1..=`MAX_SCALE`), the hidden
    /// layer's `activation`.
    pub fn new(seed: u64, buckets: usize, scale: i32, activation: Activation) -> Model {
        let buckets = buckets.clamp(1, BUCKETS);
        let scale = scale.clamp(1, legion_engine::nnue::MAX_SCALE);
        let mut rng = Rng::new(seed);
        let mut uniform =
            |a: f32| ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * a;
        Model {
            w1: (0..INPUTS * HIDDEN).map(|_| uniform(0.1)).collect(),
            b1: (0..HIDDEN).map(|_| uniform(0.1)).collect(),
            // Every set starts the same, so the sets part only where the
            // data asks them to.
            w2: {
                let set: Vec<f32> = (0..2 * HIDDEN).map(|_| uniform(0.1)).collect();
                set.repeat(buckets)
            },
            b2: vec![0.0; buckets],
            buckets,
            scale,
            activation,
        }
    }

    fn sums(&self, features: &[u16]) -> [f32; HIDDEN] {
        let mut acc: [f32; HIDDEN] = self.b1.as_slice().try_into().expect("HIDDEN");
        for &f in features {
            let row = &self.w1[f as usize * HIDDEN..][..HIDDEN];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
        acc
    }

    /// The set of output weights of the engine's bucket `bucket`.
    fn set(&self, bucket: usize) -> usize {
        bucket * self.buckets / BUCKETS
    }

    /// The output (a logit) for the side to move, on a board of the
    /// engine's output bucket `bucket`.
    pub fn output(&self, us: &[u16], them: &[u16], bucket: usize) -> f32 {
        self.forward(us, them, self.set(bucket)).2
    }

    /// Both sides' sums and the output with set `set` of output
    /// weights: what the gradient needs too.
    fn forward(&self, us: &[u16], them: &[u16], set: usize) -> ([f32; HIDDEN], [f32; HIDDEN], f32) {
        let (a, b) = (self.sums(us), self.sums(them));
        let (w_us, w_them) = self.w2[set * 2 * HIDDEN..][..2 * HIDDEN].split_at(HIDDEN);
        let mut out = self.b2[set];
        for j in 0..HIDDEN {
            out += activate(self.activation, a[j]).0 * w_us[j]
                + activate(self.activation, b[j]).0 * w_them[j];
        }
        (a, b, out)
    }

    /// The evaluation in the engine's units, in floats.
    pub fn evaluate(&self, pos: &Position) -> f32 {
        let (us, them) = side_features(pos);
        self.output(&us, &them, bucket(pos.board())) * self.scale as f32
    }

    /// The network in the engine's integers.
    pub fn quantise(&self, description: String) -> Network {
        let q = |x: f32, scale: i32| (x * scale as f32).round().clamp(-32767.0, 32767.0) as i16;
        let w1 = (0..INPUTS)
            .map(|f| std::array::from_fn(|j| q(self.w1[f * HIDDEN + j], QA)))
            .collect();
        let b1 = std::array::from_fn(|j| q(self.b1[j], QA));
        // The trainer keeps a squared net's output weights within the
        // limit; the clamp only catches a rounding past it.
        let w2_max = match self.activation {
            Activation::ClippedRelu => i16::MAX,
            Activation::SquaredClippedRelu => SCRELU_W2_MAX,
        };
        let w2 = std::array::from_fn(|k| {
            let set = &self.w2[self.set(k) * 2 * HIDDEN..];
            std::array::from_fn(|j| q(set[j], QB).clamp(-w2_max, w2_max))
        });
        let b2 = std::array::from_fn(|k| (self.b2[self.set(k)] * (QA * QB) as f32).round() as i32);
        Network::from_parts(w1, b1, w2, b2, self.scale, self.activation, description)
            .expect("INPUTS rows, a scale in range and output weights within the activation's")
    }
}

#[cfg(test)]
impl Model {
    /// This model with each weight rounded as `quantise` rounds it, still
    /// in floats: what the engine's integers should compute exactly.
    fn rounded(&self) -> Model {
        let r = |x: &f32, scale: i32| (x * scale as f32).round() / scale as f32;
        let w2_max = f32::from(SCRELU_W2_MAX) / QB as f32;
        Model {
            w1: self.w1.iter().map(|x| r(x, QA)).collect(),
            b1: self.b1.iter().map(|x| r(x, QA)).collect(),
            w2: (self.w2.iter())
                .map(|x| match self.activation {
                    Activation::ClippedRelu => r(x, QB),
                    Activation::SquaredClippedRelu => r(x, QB).clamp(-w2_max, w2_max),
                })
                .collect(),
            b2: self.b2.iter().map(|x| r(x, QA * QB)).collect(),
            ..self.clone()
        }
    }
}

/// Gradients of one slice of a batch.
struct Gradient {
    w1: Vec<f32>,
    /// Rows of `w1` touched, so that only they are cleared and summed.
    touched: Vec<bool>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: Vec<f32>,
    loss: f64,
}

impl Gradient {
    fn new(buckets: usize) -> Gradient {
        Gradient {
            w1: vec![0.0; INPUTS * HIDDEN],
            touched: vec![false; INPUTS],
            b1: vec![0.0; HIDDEN],
            w2: vec![0.0; buckets * 2 * HIDDEN],
            b2: vec![0.0; buckets],
            loss: 0.0,
        }
    }

    fn clear(&mut self) {
        for f in 0..INPUTS {
            if self.touched[f] {
                self.w1[f * HIDDEN..][..HIDDEN].fill(0.0);
                self.touched[f] = false;
            }
        }
        self.b1.fill(0.0);
        self.w2.fill(0.0);
        self.b2.fill(0.0);
        self.loss = 0.0;
    }

    /// Adds the gradient of the squared error of sample `i`.
    fn add(&mut self, m: &Model, data: &Samples, i: usize, lambda: f32) {
        let (us, them) = data.features(i);
        let set = m.set(data.bucket[i] as usize);
        let (a, b, out) = m.forward(us, them, set);
        let (w_us, w_them) = m.w2[set * 2 * HIDDEN..][..2 * HIDDEN].split_at(HIDDEN);
        let p = sigmoid(out);
        let err = p - data.target(i, lambda, m.scale as f32);
        self.loss += f64::from(err * err);
        let d_out = 2.0 * err * p * (1.0 - p);
        self.b2[set] += d_out;
        let mut d_a = [0.0f32; HIDDEN];
        let mut d_b = [0.0f32; HIDDEN];
        let g2 = &mut self.w2[set * 2 * HIDDEN..][..2 * HIDDEN];
        for j in 0..HIDDEN {
            let ((fa, da), (fb, db)) = (activate(m.activation, a[j]), activate(m.activation, b[j]));
            g2[j] += d_out * fa;
            g2[HIDDEN + j] += d_out * fb;
            d_a[j] = d_out * w_us[j] * da;
            d_b[j] = d_out * w_them[j] * db;
            self.b1[j] += d_a[j] + d_b[j];
        }
        for (features, d) in [(us, &d_a), (them, &d_b)] {
            for &f in features {
                let f = f as usize;
                self.touched[f] = true;
                for (g, x) in self.w1[f * HIDDEN..][..HIDDEN].iter_mut().zip(d) {
                    *g += x;
                }
            }
        }
    }
}

/// Adam's moments for one array.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
}

impl Adam {
    fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
        }
    }

    /// One step; `keep` multiplies the weights first (decoupled weight
    /// decay, 1 for none), as AdamW does.
    fn step(&mut self, w: &mut [f32], g: &[f32], lr: f32, t: i32, limit: f32, keep: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        let (c1, c2) = (1.0 - B1.powi(t), 1.0 - B2.powi(t));
        for i in 0..w.len() {
            self.m[i] = B1 * self.m[i] + (1.0 - B1) * g[i];
            self.v[i] = B2 * self.v[i] + (1.0 - B2) * g[i] * g[i];
            let update = lr * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + 1e-8);
            w[i] = (w[i] * keep - update).clamp(-limit, limit);
        }
    }
}

/// The mean squared error of `model` on `data`.
pub fn loss(model: &Model, data: &Samples, lambda: f32) -> f64 {
    let mut total = 0.0f64;
    for i in 0..data.len() {
        let (us, them) = data.features(i);
        let e = sigmoid(model.output(us, them, data.bucket[i] as usize))
            - data.target(i, lambda, model.scale as f32);
        total += f64::from(e * e);
    }
    total / data.len().max(1) as f64
}

/// What `train` reports after each epoch.
#[derive(Clone, Copy, Debug)]
pub struct Epoch {
    pub epoch: usize,
    pub train_loss: f64,
    pub held_out_loss: f64,
    pub learning_rate: f32,
}

/// Trains a model on `data`; `batch_done` hears of each batch (for a
/// progress bar) and `epoch_done` of each epoch.
pub fn train(
    data: &Samples,
    held_out: &Samples,
    settings: &Settings,
    batch_done: &mut dyn FnMut(),
    epoch_done: &mut dyn FnMut(&Epoch),
) -> Model {
    let mut model = Model::new(
        settings.seed,
        settings.buckets,
        settings.scale,
        settings.activation,
    );
    let w2_limit = match settings.activation {
        Activation::ClippedRelu => W2_LIMIT,
        Activation::SquaredClippedRelu => SCRELU_W2_LIMIT,
    };
    let buckets = model.buckets;
    let mut adam = (
        Adam::new(model.w1.len()),
        Adam::new(HIDDEN),
        Adam::new(buckets * 2 * HIDDEN),
        Adam::new(buckets),
    );
    let mut grads: Vec<Gradient> = (0..SLICES).map(|_| Gradient::new(buckets)).collect();
    let mut order: Vec<usize> = (0..data.len()).collect();
    let mut rng = Rng::new(rng_seed(settings.seed));
    let mut t = 0;
    let batches_per_epoch = data.len().div_ceil(settings.batch.max(1));
    let total_batches = (batches_per_epoch * settings.epochs).max(1);
    let mut total_w1 = vec![0.0f32; INPUTS * HIDDEN];
    for epoch in 0..settings.epochs {
        // Fisher–Yates with the seeded generator.
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let mut epoch_loss = 0.0;
        let mut lr = settings.learning_rate;
        for batch in order.chunks(settings.batch.max(1)) {
            t += 1;
            // Cosine decay to a twentieth of the starting rate.
            let progress = (t - 1) as f32 / total_batches as f32;
            lr = settings.learning_rate
                * (0.05 + 0.95 * 0.5 * (1.0 + (std::f32::consts::PI * progress).cos()));
            let slice_len = batch.len().div_ceil(SLICES);
            let model_ref = &model;
            std::thread::scope(|scope| {
                let mut work: Vec<(&[usize], &mut Gradient)> = batch
                    .chunks(slice_len.max(1))
                    .zip(grads.iter_mut())
                    .collect();
                let per_thread = work.len().div_ceil(settings.threads.max(1));
                let mut handles = Vec::new();
                while !work.is_empty() {
                    let mine: Vec<_> = work.drain(..per_thread.min(work.len())).collect();
                    handles.push(scope.spawn(move || {
                        for (slice, g) in mine {
                            g.clear();
                            for &i in slice {
                                g.add(model_ref, data, i, settings.lambda);
                            }
                        }
                    }));
                }
                for h in handles {
                    h.join().expect("a training thread panicked");
                }
            });
            let used = batch.chunks(slice_len.max(1)).count();
            let n = batch.len() as f32;
            // Sum the slices in order, then average.
            total_w1.fill(0.0);
            let (mut b1, mut w2, mut b2) = (
                vec![0.0f32; HIDDEN],
                vec![0.0f32; buckets * 2 * HIDDEN],
                vec![0.0f32; buckets],
            );
            for g in &grads[..used] {
                for f in 0..INPUTS {
                    if g.touched[f] {
                        let dst = &mut total_w1[f * HIDDEN..][..HIDDEN];
                        for (d, s) in dst.iter_mut().zip(&g.w1[f * HIDDEN..][..HIDDEN]) {
                            *d += s;
                        }
                    }
                }
                b1.iter_mut().zip(&g.b1).for_each(|(d, s)| *d += s);
                w2.iter_mut().zip(&g.w2).for_each(|(d, s)| *d += s);
                b2.iter_mut().zip(&g.b2).for_each(|(d, s)| *d += s);
                epoch_loss += g.loss;
            }
            total_w1.iter_mut().for_each(|x| *x /= n);
            b1.iter_mut().for_each(|x| *x /= n);
            w2.iter_mut().for_each(|x| *x /= n);
            b2.iter_mut().for_each(|x| *x /= n);
            // Exactly 1 without decay, so that such nets are as before.
            let keep = 1.0 - lr * settings.weight_decay;
            adam.0.step(&mut model.w1, &total_w1, lr, t, W1_LIMIT, keep);
            adam.1.step(&mut model.b1, &b1, lr, t, W1_LIMIT, 1.0);
            adam.2.step(&mut model.w2, &w2, lr, t, w2_limit, keep);
            adam.3.step(&mut model.b2, &b2, lr, t, f32::MAX, 1.0);
            batch_done();
        }
        epoch_done(&Epoch {
            epoch: epoch + 1,
            train_loss: epoch_loss / data.len().max(1) as f64,
            held_out_loss: loss(&model, held_out, settings.lambda),
            learning_rate: lr,
        });
    }
    model
}

fn rng_seed(seed: u64) -> u64 {
    legion_engine::rng::derive(0x7A41, seed)
}

/// The file of a trained network.
pub fn net_file(model: &Model, description: String) -> Vec<u8> {
    format::write(&model.quantise(description))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(text: &str) -> (Samples, Samples) {
        read_data(std::io::Cursor::new(text), None).unwrap()
    }

    /// Positions with a clear material edge, labelled by hand: White a
    /// Queen up wins, Black a Queen up wins, plus their mirror images.
    const LESSON: &str = "\
3k4/8/8/8/8/8/8/Q3K3 w - 0 1;900;1
3k4/8/8/8/8/8/8/Q3K3 b - 0 1;-900;1
3k3q/8/8/8/8/8/8/4K3 w - 0 1;-900;0
3k3q/8/8/8/8/8/8/4K3 b - 0 1;900;0
# game 1
3k4/8/8/8/8/8/8/2Q1K3 w - 0 1;900;1
3k3q/8/8/8/8/8/8/4K3 b - 0 1;900;0
rnbkqbnr/m1m1m1m1/1m1m1m1m/8/8/M1M1M1M1/1M1M1M1M/RNBQKBNR w KQkq 0 1;0;0.5
# game 2
";

    #[test]
    fn training_learns_a_lesson_and_the_engine_reads_it_the_same() {
        learns_the_lesson(Activation::ClippedRelu);
    }

    #[test]
    fn a_squared_activation_learns_it_too_and_the_engine_reads_it_the_same() {
        learns_the_lesson(Activation::SquaredClippedRelu);
    }

    fn learns_the_lesson(activation: Activation) {
        let (train_set, held) = data(LESSON);
        assert_eq!((train_set.len(), held.len()), (7, 0));
        let (first, _) = read_data(std::io::Cursor::new(LESSON), Some(2)).unwrap();
        assert_eq!(first.len(), 4);
        let settings = Settings {
            epochs: 300,
            batch: 4,
            learning_rate: 0.01,
            lambda: 0.5,
            seed: 3,
            threads: 2,
            buckets: BUCKETS,
            // Not the first nets' 400: the file must carry it to the engine.
            scale: 600,
            activation,
            weight_decay: 0.0,
        };
        let before = loss(&Model::new(3, BUCKETS, 600, activation), &train_set, 0.5);
        let model = train(&train_set, &held, &settings, &mut || {}, &mut |_| {});
        let after = loss(&model, &train_set, 0.5);
        assert!(after < before / 4.0, "{before} -> {after}");
        // The side with the Queen is ahead, whoever moves.
        let white_queen: Position = "3k4/8/8/8/8/8/8/Q3K3 b - 0 1".parse().unwrap();
        assert!(model.evaluate(&white_queen) < -100.0);
        // The engine's integers agree with the floats within rounding,
        // which grows with the features summed (a quarter of a hundredth
        // each), in the bucket of each position (3 pieces: 0, the full
        // board: 7).
        let net = model.quantise("test".into());
        let bytes = format::write(&net);
        let back = format::read(&bytes).unwrap();
        assert_eq!(back.activation(), activation);
        let rounded = model.rounded();
        for lfen in LESSON.lines().filter(|l| !l.starts_with('#')) {
            let pos: Position = lfen.split(';').next().unwrap().parse().unwrap();
            let (f, q) = (model.evaluate(&pos), back.evaluate(&pos) as f32);
            let features = active(pos.board(), Color::White).len() as f32;
            // The square's slope is up to 2, so its rounding is up to
            // twice as large, on 2 · HIDDEN neurons.
            let slope = match activation {
                Activation::ClippedRelu => 1.0,
                Activation::SquaredClippedRelu => 2.0,
            };
            // The output weights' rounding (up to 1 / (2 · QB) each) adds
            // up over 2 · HIDDEN neurons as a random walk: three standard
            // deviations (a uniform error's is 1 / (QB · √12)) of that
            // sum, weighted by the activations. At 256 a side it is the
            // larger part on a full board.
            let (us, them) = side_features(&pos);
            let (a, b, _) = model.forward(&us, &them, model.set(bucket(pos.board())));
            let squares: f32 = (a.iter().chain(&b))
                .map(|&x| activate(activation, x).0.powi(2))
                .sum();
            let output_rounding =
                3.0 * settings.scale as f32 * squares.sqrt() / (QB as f32 * 12f32.sqrt());
            let tolerance = slope * (4.0 + features / 4.0) + f.abs() / 50.0 + output_rounding;
            assert!((f - q).abs() <= tolerance, "{lfen}: {f} vs {q}");
            // The engine's arithmetic is exact on the rounded weights:
            // the floats of the same rounded net agree within the final
            // division's truncation (and, squared, the division by QA).
            let r = rounded.evaluate(&pos);
            assert!((r - q).abs() <= 1.5, "{lfen}: rounded {r} vs {q}");
        }
    }

    /// Settings for the lesson's seven positions: small batches, one
    /// thread, no decay.
    fn small_settings() -> Settings {
        Settings {
            epochs: 3,
            batch: 3,
            learning_rate: 0.01,
            lambda: 0.5,
            seed: 9,
            threads: 1,
            buckets: BUCKETS,
            scale: 400,
            activation: Activation::ClippedRelu,
            weight_decay: 0.0,
        }
    }

    #[test]
    fn weight_decay_shrinks_weights_by_the_rate_times_the_decay() {
        // No gradient: Adam moves nothing, so the step is the decay alone,
        // w × (1 − 0.1 × 0.5) = 0.95 w, clamped to the limit.
        let mut adam = Adam::new(3);
        let mut w = [1.0, -2.0, 3.0];
        adam.step(&mut w, &[0.0; 3], 0.1, 1, 2.5, 1.0 - 0.1 * 0.5);
        assert_eq!(w, [0.95, -1.9, 2.5]);
        // Trained with a strong decay, the weights end smaller.
        let (train_set, held) = data(LESSON);
        let mut s = Settings {
            epochs: 20,
            ..small_settings()
        };
        let plain = train(&train_set, &held, &s, &mut || {}, &mut |_| {});
        s.weight_decay = 5.0;
        let decayed = train(&train_set, &held, &s, &mut || {}, &mut |_| {});
        let norm = |w: &[f32]| w.iter().map(|x| x * x).sum::<f32>();
        assert!(norm(&decayed.w1) < 0.8 * norm(&plain.w1));
        assert!(norm(&decayed.w2) < 0.8 * norm(&plain.w2));
    }

    #[test]
    fn the_same_seed_gives_the_same_net_on_any_number_of_threads() {
        let (train_set, held) = data(LESSON);
        let mut s = Settings {
            epochs: 5,
            ..small_settings()
        };
        let one = train(&train_set, &held, &s, &mut || {}, &mut |_| {});
        s.threads = 2;
        let two = train(&train_set, &held, &s, &mut || {}, &mut |_| {});
        assert_eq!(net_file(&one, "x".into()), net_file(&two, "x".into()));
        s.seed = 10;
        let other = train(&train_set, &held, &s, &mut || {}, &mut |_| {});
        assert_ne!(net_file(&one, "x".into()), net_file(&other, "x".into()));
    }

    #[test]
    fn binary_data_trains_the_same_net_as_its_text() {
        let mut bin = Vec::new();
        let done = crate::datafile::convert(
            std::io::Cursor::new(LESSON),
            &mut bin,
            crate::datafile::Keep::All,
        )
        .unwrap();
        assert_eq!((done.games, done.positions), (2, 7));
        assert_eq!(
            bin.len(),
            crate::datafile::HEADER_SIZE + 9 * crate::datafile::RECORD_SIZE
        );
        let (t1, h1) = data(LESSON);
        let (t2, h2) = read_data(std::io::Cursor::new(&bin), None).unwrap();
        assert_eq!((t2.len(), h2.len()), (t1.len(), h1.len()));
        let s = small_settings();
        let a = train(&t1, &h1, &s, &mut || {}, &mut |_| {});
        let b = train(&t2, &h2, &s, &mut || {}, &mut |_| {});
        assert_eq!(net_file(&a, "x".into()), net_file(&b, "x".into()));
        // Games out of order are put in order of their numbers: game 2
        // first, then game 1, trains as the file in order.
        let (one, two) = LESSON.split_at(LESSON.find("# game 1\n").unwrap() + 9);
        let swapped = format!("{two}{one}");
        let mut bin = Vec::new();
        crate::datafile::convert(
            std::io::Cursor::new(swapped),
            &mut bin,
            crate::datafile::Keep::All,
        )
        .unwrap();
        let (t3, h3) = read_data(std::io::Cursor::new(&bin), None).unwrap();
        let c = train(&t3, &h3, &s, &mut || {}, &mut |_| {});
        assert_eq!(net_file(&a, "x".into()), net_file(&c, "x".into()));
        // The games limit applies to binary files too.
        let (first, _) = read_data(std::io::Cursor::new(&bin), Some(2)).unwrap();
        assert_eq!(first.len(), 4);
    }

    #[test]
    fn a_bad_line_is_named() {
        let e = read_data(std::io::Cursor::new("8/8 w;1;1\n"), None)
            .err()
            .unwrap();
        assert!(e.to_string().starts_with("line 1:"), "{e}");
        let e = read_data(
            std::io::Cursor::new("3k4/8/8/8/8/8/8/Q3K3 w - 0 1;9;2\n"),
            None,
        )
        .err()
        .unwrap();
        assert!(e.to_string().contains("bad result"), "{e}");
    }
}
