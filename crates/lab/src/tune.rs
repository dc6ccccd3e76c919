//! Texel-style tuning of the evaluation weights from self-play, and the
//! writer of `crates/engine/src/tuned.rs` (SPSA is in `spsa`).
//!
//! 1. `generate`: the engine plays itself from the balanced openings with
//!    a little variety; quiet positions (not in check, nothing to capture
//!    or crown) are written with the game's result for White.
//! 2. `fit`: the weights that best predict those results through a
//!    logistic curve, found by gradient descent (Adam) on the mean squared
//!    error. The evaluation is linear in its weights, so each position is
//!    reduced to its feature counts once.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::channel;

use legion_rules::{Color, LfenError, Position, Rules};

use legion_engine::eval::{self, Feature, Weights};
use legion_engine::{Level, Options, rng};

use crate::datagen::is_quiet;
use crate::player::{EnginePlayer, MoveLimit};
use crate::tournament::play_game;

/// A position for tuning: feature counts and the result for White.
pub struct Sample {
    pub counts: [i32; Feature::COUNT],
    pub result: f64,
}

/// Plays `games` self-play games (`limit` per move, `threads` at a time)
/// and writes `LFEN;result` lines for their quiet positions, in the order
/// the games end; `progress` hears how many games have ended.
pub fn generate(
    games: usize,
    limit: MoveLimit,
    weights: &Weights,
    openings: &[Position],
    threads: usize,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(usize),
) -> std::io::Result<usize> {
    if openings.is_empty() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "no opening positions",
        ));
    }
    let next = AtomicUsize::new(0);
    // Each game's lines, sent as it ends. The channel closes when every
    // worker is done, a failed one included (the scope then re-raises
    // its panic), so waiting on it cannot hang.
    let (tx, rx) = channel::<Vec<String>>();
    let lines = std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || {
                let options = Options {
                    weights: weights.clone(),
                    net: None,
                    hash_mb: 16,
                    level: 10,
                    ..Options::default()
                };
                let mut white = EnginePlayer::new(options.clone(), "white");
                let mut black = EnginePlayer::new(options, "black");
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= games {
                        break;
                    }
                    let start = openings[i % openings.len()];
                    let seed = rng::derive(0x7E57, i as u64);
                    let (game, winner, _) =
                        play_game(&mut white, &mut black, start, (limit, limit), 400, seed);
                    let result = match winner {
                        Some(Color::White) => "1",
                        Some(Color::Black) => "0",
                        None => "0.5",
                    };
                    let mut mine = Vec::new();
                    // Skip the opening plies: they come from the book.
                    for pos in game.positions().iter().skip(8) {
                        if is_quiet(pos) {
                            mine.push(format!("{};{result}", pos.to_lfen()));
                        }
                    }
                    if tx.send(mine).is_err() {
                        // Only if this function has panicked: stop.
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut lines = Vec::new();
        for (finished, mine) in rx.into_iter().enumerate() {
            lines.extend(mine);
            progress(finished + 1);
        }
        lines
    });
    for l in &lines {
        writeln!(out, "{l}")?;
    }
    Ok(lines.len())
}

/// Why tuning data cannot be read (`read_samples`). Lines count from 1.
#[derive(Debug, thiserror::Error)]
pub enum SampleError {
    /// The input failed.
    #[error("line {line}: {source}")]
    Read { line: usize, source: std::io::Error },
    /// A line without `;result`.
    #[error("line {line}: expected LFEN;result")]
    NoResult { line: usize },
    /// A result that is not a number.
    #[error("line {line}: result must be 1, 0.5 or 0, not '{text}'")]
    BadResult { line: usize, text: String },
    /// 6.2: the position is not a valid LFEN.
    #[error("line {line}: {source}")]
    Lfen { line: usize, source: LfenError },
}

/// Reads `LFEN;result` lines into samples.
pub fn read_samples(input: impl BufRead) -> Result<Vec<Sample>, SampleError> {
    let mut samples = Vec::new();
    for (i, line) in input.lines().enumerate() {
        let n = i + 1;
        let line = line.map_err(|source| SampleError::Read { line: n, source })?;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (lfen, result) = line
            .rsplit_once(';')
            .ok_or(SampleError::NoResult { line: n })?;
        let result: f64 = result.parse().map_err(|_| SampleError::BadResult {
            line: n,
            text: result.to_string(),
        })?;
        let pos = Position::from_lfen(lfen, Rules::DEFAULT)
            .map_err(|source| SampleError::Lfen { line: n, source })?;
        samples.push(Sample {
            counts: eval::features(&pos).0,
            result,
        });
    }
    Ok(samples)
}

fn predict(w: &[f64], counts: &[i32; Feature::COUNT], k: f64) -> f64 {
    let e: f64 = w.iter().zip(counts).map(|(w, &c)| w * c as f64).sum();
    1.0 / (1.0 + 10f64.powf(-k * e / 400.0))
}

/// Mean squared error of the predictions.
pub fn error(samples: &[Sample], w: &[f64], k: f64) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| (s.result - predict(w, &s.counts, k)).powi(2))
        .sum();
    sum / samples.len().max(1) as f64
}

/// The scaling constant K that best fits the starting weights.
pub fn fit_k(samples: &[Sample], w: &[f64]) -> f64 {
    let (mut lo, mut hi) = (0.05, 4.0);
    for _ in 0..60 {
        let a = lo + (hi - lo) / 3.0;
        let b = hi - (hi - lo) / 3.0;
        if error(samples, w, a) < error(samples, w, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Gradient descent (Adam) on the weights from `start`. The man's weight
/// stays fixed (it sets the scale: hundredths of a man), and `l2` pulls
/// every weight towards its start, so that noisy data cannot drag a weight
/// far without evidence.
pub fn fit(
    samples: &[Sample],
    start: &Weights,
    k: f64,
    epochs: usize,
    l2: f64,
    report: &mut dyn FnMut(usize, f64),
) -> Weights {
    let n = Feature::COUNT;
    let mut w: Vec<f64> = start.0.iter().map(|&x| x as f64).collect();
    let (mut m, mut v) = (vec![0.0; n], vec![0.0; n]);
    let (b1, b2, rate) = (0.9, 0.999, 2.0);
    let scale = k * std::f64::consts::LN_10 / 400.0;
    for epoch in 1..=epochs {
        let mut grad = vec![0.0; n];
        for s in samples {
            let p = predict(&w, &s.counts, k);
            let g = -2.0 * (s.result - p) * p * (1.0 - p) * scale;
            for (gi, &c) in grad.iter_mut().zip(&s.counts) {
                *gi += g * c as f64;
            }
        }
        let count = samples.len().max(1) as f64;
        for i in 0..n {
            if i == Feature::Man as usize {
                continue;
            }
            let g = grad[i] / count + 2.0 * l2 * (w[i] - start.0[i] as f64);
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - b1.powi(epoch as i32));
            let vh = v[i] / (1.0 - b2.powi(epoch as i32));
            w[i] -= rate * mh / (vh.sqrt() + 1e-9);
        }
        if epoch % 50 == 0 || epoch == epochs {
            report(epoch, error(samples, &w, k));
        }
    }
    let mut out = [0; Feature::COUNT];
    for (o, x) in out.iter_mut().zip(&w) {
        *o = x.round() as i32;
    }
    Weights(out)
}

/// Rust source for `tuned.rs`.
pub fn source(w: &Weights, note: &str) -> String {
    let mut s = String::from(
        "//! Tuned evaluation weights, written by `legion tune` (docs/STRENGTH.md).\n\
         //! Features not listed keep their hand-set weight.\n",
    );
    s.push_str(&format!(
        "//! {note}\n\nuse crate::eval::Feature::{{self, *}};\n\npub const TUNED: &[(Feature, i32)] = &[\n"
    ));
    for &f in Feature::ALL {
        s.push_str(&format!("    ({}, {}),\n", f.name(), w.get(f)));
    }
    s.push_str("];\n");
    s
}

/// The level used for self-play, for the record.
pub fn describe_generation(limit: MoveLimit) -> String {
    format!(
        "self-play at {} with {}",
        match limit {
            MoveLimit::Time(t) => format!("{} ms per move", t.as_millis()),
            MoveLimit::Nodes(n) => format!("{n} nodes per move"),
            MoveLimit::Depth(d) => format!("depth {d}"),
        },
        Level::get(10).describe()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fitting_recovers_a_known_weight() {
        // Results drawn from a model where only material counts: White
        // wins when a man up, loses when a man down. The fit must move the
        // man's weight up from a low start, and lower the error.
        let mut samples = Vec::new();
        for i in 0..400 {
            let mut counts = [0; Feature::COUNT];
            let diff = (i % 3) - 1;
            counts[Feature::Man as usize] = diff;
            samples.push(Sample {
                counts,
                result: match diff {
                    1 => 1.0,
                    -1 => 0.0,
                    _ => 0.5,
                },
            });
        }
        // The man's weight is the fixed unit; a Tama, here counted
        // exactly like a man, must rise from a low start towards it.
        for s in &mut samples {
            s.counts[Feature::Tama as usize] = s.counts[Feature::Man as usize];
            s.counts[Feature::Man as usize] = 0;
        }
        let mut start = Weights([0; Feature::COUNT]);
        start.0[Feature::Man as usize] = 100;
        start.0[Feature::Tama as usize] = 10;
        let w0: Vec<f64> = start.0.iter().map(|&x| x as f64).collect();
        let before = error(&samples, &w0, 1.0);
        let tuned = fit(&samples, &start, 1.0, 200, 0.0, &mut |_, _| {});
        let w1: Vec<f64> = tuned.0.iter().map(|&x| x as f64).collect();
        assert!(error(&samples, &w1, 1.0) < before);
        assert!(
            tuned.get(Feature::Tama) > 200,
            "{}",
            tuned.get(Feature::Tama)
        );
        assert_eq!(tuned.get(Feature::Man), 100);
        // A strong pull keeps the weight near its start.
        let held = fit(&samples, &start, 1.0, 200, 1.0, &mut |_, _| {});
        assert!(held.get(Feature::Tama) < tuned.get(Feature::Tama));
    }

    #[test]
    fn the_written_table_is_the_committed_one() {
        // `source` writes what the engine compiles: the committed table,
        // from its `use` line on, is what `source` gives for those weights.
        let committed = include_str!("../../engine/src/tuned.rs");
        let written = source(&Weights::tuned(), "a note");
        let table = |s: &str| s[s.find("use crate::eval").unwrap()..].to_string();
        assert_eq!(table(&written), table(committed));
        assert!(written.contains("//! a note\n"));
    }

    #[test]
    fn samples_are_read_with_their_features() {
        let text =
            "3k4/8/8/8/8/8/1M6/4K3 w - 0 1;1\n# comment\n\n3k4/8/8/8/8/8/8/4K3 b - 0 1;0.5\n";
        let s = read_samples(text.as_bytes()).unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].counts[Feature::Man as usize], 1);
        assert!(matches!(
            read_samples("nonsense".as_bytes()),
            Err(SampleError::NoResult { line: 1 })
        ));
        assert!(matches!(
            read_samples("# data\n3k4/8/8/8/8/8/8/4K3 w - 0 1;x".as_bytes()),
            Err(SampleError::BadResult { line: 2, .. })
        ));
        assert!(matches!(
            read_samples("8/8 w;1".as_bytes()),
            Err(SampleError::Lfen { line: 1, .. })
        ));
    }
}
