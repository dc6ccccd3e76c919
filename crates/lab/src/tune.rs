//! Texel-style tuning of the evaluation weights from self-play.
//!
//! 1. `generate`: the engine plays itself from the balanced openings with
//!    a little variety; quiet positions (not in check, nothing to capture
//!    or crown) are written with the game's result for White.
//! 2. `fit`: the weights that best predict those results through a
//!    logistic curve, found by gradient descent (Adam) on the mean squared
//!    error. The evaluation is linear in its weights, so each position is
//!    reduced to its feature counts once.

use std::io::{BufRead, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use legion_rules::{Color, MoveList, Position, Rules};

use legion_engine::eval::{self, Feature, Weights};
use legion_engine::{Level, Options};

use crate::player::{EnginePlayer, MoveLimit};
use crate::tournament::play_game;

/// A position for tuning: feature counts and the result for White.
pub struct Sample {
    pub counts: [i32; Feature::COUNT],
    pub result: f64,
}

fn is_quiet(pos: &Position) -> bool {
    if pos.is_check() {
        return false;
    }
    let mut noisy = MoveList::new();
    pos.noisy_moves_into(&mut noisy);
    noisy.is_empty() && pos.has_legal_move()
}

/// Plays `games` self-play games (`limit` per move, `threads` at a time)
/// and writes `LFEN;result` lines for their quiet positions.
pub fn generate(
    games: usize,
    limit: MoveLimit,
    weights: &Weights,
    openings: &[Position],
    threads: usize,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(usize),
) -> std::io::Result<usize> {
    let next = AtomicUsize::new(0);
    let lines = Mutex::new(Vec::<String>::new());
    let finished = AtomicUsize::new(0);
    let written = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                let options = Options {
                    weights: weights.clone(),
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
                    let start = openings[i % openings.len().max(1)];
                    let seed = 0x7E57 ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                    let (game, winner, _) =
                        play_game(&mut white, &mut black, start, limit, 400, seed);
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
                    written.fetch_add(mine.len(), Ordering::Relaxed);
                    if let Ok(mut l) = lines.lock() {
                        l.extend(mine);
                    }
                    finished.fetch_add(1, Ordering::Relaxed);
                }
            });
        }
        // Report progress from this thread while the workers play.
        let mut last = 0;
        while finished.load(Ordering::Relaxed) < games {
            std::thread::sleep(std::time::Duration::from_millis(200));
            let f = finished.load(Ordering::Relaxed);
            if f != last {
                progress(f);
                last = f;
            }
        }
    });
    for l in lines.into_inner().unwrap_or_default() {
        writeln!(out, "{l}")?;
    }
    Ok(written.into_inner())
}

/// Reads `LFEN;result` lines into samples.
pub fn read_samples(input: impl BufRead) -> Result<Vec<Sample>, String> {
    let mut samples = Vec::new();
    for (i, line) in input.lines().enumerate() {
        let line = line.map_err(|e| e.to_string())?;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (lfen, result) = line
            .rsplit_once(';')
            .ok_or_else(|| format!("line {}: expected LFEN;result", i + 1))?;
        let result: f64 = result
            .parse()
            .map_err(|_| format!("line {}: result must be 1, 0.5 or 0", i + 1))?;
        let pos = Position::from_lfen(lfen, Rules::DEFAULT)
            .map_err(|e| format!("line {}: {e}", i + 1))?;
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
        "//! {note}\n\npub const TUNED: &[(&str, i32)] = &[\n"
    ));
    for &f in Feature::ALL {
        s.push_str(&format!("    (\"{}\", {}),\n", f.name(), w.get(f)));
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

/// Weights tuned together by `spsa`: one multiplier per group.
pub struct Group {
    pub name: &'static str,
    pub features: &'static [Feature],
}

pub const GROUPS: &[Group] = &[
    Group {
        name: "mobility",
        features: &[
            Feature::KnightMobility,
            Feature::BishopMobility,
            Feature::RookMobility,
            Feature::QueenMobility,
            Feature::SafeMobility,
            Feature::TamaMobility,
        ],
    },
    Group {
        name: "legion",
        features: &[
            Feature::ManRank3,
            Feature::ManRank4,
            Feature::ManRank5,
            Feature::ManRank6,
            Feature::CrownThreat,
            Feature::ManCenter,
            Feature::ManSupported,
            Feature::ManBackRank,
            Feature::ManMobility,
        ],
    },
    Group {
        name: "king",
        features: &[
            Feature::KingOnLight,
            Feature::KingLegionDanger,
            Feature::KingZoneAttacks,
            Feature::KingShelter,
            Feature::KingCentral,
        ],
    },
    Group {
        name: "placement",
        features: &[
            Feature::MinorCentral,
            Feature::QueenCentral,
            Feature::KnightCenter,
            Feature::PieceOnDark,
            Feature::BishopPair,
            Feature::TamaLongDiagonal,
        ],
    },
    Group {
        name: "threats",
        features: &[Feature::HangingPiece, Feature::ExposedConstruct],
    },
    Group {
        name: "prisoners",
        features: &[Feature::PrisonerMan, Feature::PrisonerTama],
    },
    Group {
        name: "tama",
        features: &[Feature::Tama],
    },
    Group {
        name: "king-value",
        features: &[Feature::King],
    },
    Group {
        name: "tempo",
        features: &[Feature::Tempo],
    },
];

/// Finer groups for a second pass: single features or close kin, and the
/// chess pieces' values against the man's.
pub const FINE_GROUPS: &[Group] = &[
    Group {
        name: "knight-mobility",
        features: &[Feature::KnightMobility],
    },
    Group {
        name: "slider-mobility",
        features: &[
            Feature::BishopMobility,
            Feature::RookMobility,
            Feature::QueenMobility,
        ],
    },
    Group {
        name: "safe-mobility",
        features: &[Feature::SafeMobility],
    },
    Group {
        name: "tama-mobility",
        features: &[Feature::TamaMobility],
    },
    Group {
        name: "advance",
        features: &[
            Feature::ManRank3,
            Feature::ManRank4,
            Feature::ManRank5,
            Feature::ManRank6,
        ],
    },
    Group {
        name: "crown",
        features: &[Feature::CrownThreat],
    },
    Group {
        name: "formation",
        features: &[
            Feature::ManCenter,
            Feature::ManSupported,
            Feature::ManBackRank,
            Feature::ManMobility,
        ],
    },
    Group {
        name: "king-safety",
        features: &[
            Feature::KingLegionDanger,
            Feature::KingZoneAttacks,
            Feature::KingShelter,
        ],
    },
    Group {
        name: "king-place",
        features: &[Feature::KingOnLight, Feature::KingCentral],
    },
    Group {
        name: "centrality",
        features: &[
            Feature::MinorCentral,
            Feature::QueenCentral,
            Feature::KnightCenter,
        ],
    },
    Group {
        name: "piece-on-dark",
        features: &[Feature::PieceOnDark],
    },
    Group {
        name: "pair-diagonal",
        features: &[Feature::BishopPair, Feature::TamaLongDiagonal],
    },
    Group {
        name: "hanging",
        features: &[Feature::HangingPiece],
    },
    Group {
        name: "exposed",
        features: &[Feature::ExposedConstruct],
    },
    Group {
        name: "prisoners",
        features: &[Feature::PrisonerMan, Feature::PrisonerTama],
    },
    Group {
        name: "tama",
        features: &[Feature::Tama],
    },
    Group {
        name: "king-value",
        features: &[Feature::King],
    },
    Group {
        name: "tempo",
        features: &[Feature::Tempo],
    },
    Group {
        name: "minors",
        features: &[Feature::Knight, Feature::Bishop],
    },
    Group {
        name: "majors",
        features: &[Feature::Rook, Feature::Queen],
    },
];

/// `base` with each group's weights multiplied by `exp(theta[group])`.
pub fn scaled_by(groups: &[Group], base: &Weights, theta: &[f64]) -> Weights {
    let mut w = base.clone();
    for (g, t) in groups.iter().zip(theta) {
        for &f in g.features {
            w.0[f as usize] = (base.get(f) as f64 * t.exp()).round() as i32;
        }
    }
    w
}

/// Each group's name and multiplier, `name<sep>1.23`, for logs and notes.
pub fn multipliers(groups: &[Group], theta: &[f64], sep: &str) -> String {
    groups
        .iter()
        .zip(theta)
        .map(|(g, t)| format!("{}{sep}{:.2}", g.name, t.exp()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Score of `a` against `b` over `games` games (openings in pairs, both
/// colours), `threads` at a time.
#[allow(clippy::too_many_arguments)]
pub fn mini_match(
    a: &Weights,
    b: &Weights,
    openings: &[Position],
    first_opening: usize,
    games: usize,
    limit: MoveLimit,
    threads: usize,
    seed: u64,
) -> f64 {
    let next = AtomicUsize::new(0);
    let total = Mutex::new(0.0f64);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                let make = |w: &Weights| {
                    EnginePlayer::new(
                        Options {
                            weights: w.clone(),
                            hash_mb: 8,
                            ..Options::default()
                        },
                        "spsa",
                    )
                };
                let (mut pa, mut pb) = (make(a), make(b));
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= games {
                        break;
                    }
                    let start = openings[(first_opening + i / 2) % openings.len().max(1)];
                    let s = seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                    let a_white = i.is_multiple_of(2);
                    let (_, winner, _) = if a_white {
                        play_game(&mut pa, &mut pb, start, limit, 300, s)
                    } else {
                        play_game(&mut pb, &mut pa, start, limit, 300, s)
                    };
                    let a_color = if a_white { Color::White } else { Color::Black };
                    let score = match winner {
                        None => 0.5,
                        Some(c) if c == a_color => 1.0,
                        Some(_) => 0.0,
                    };
                    if let Ok(mut t) = total.lock() {
                        *t += score;
                    }
                }
            });
        }
    });
    total.into_inner().unwrap_or(0.0) / games.max(1) as f64
}

/// SPSA over the group multipliers (in log space), from `base`. Each
/// iteration plays a mini-match between the weights nudged up and down
/// along a random direction and steps towards the winner.
#[allow(clippy::too_many_arguments)]
pub fn spsa(
    groups: &[Group],
    base: &Weights,
    iterations: usize,
    games_per_iteration: usize,
    limit: MoveLimit,
    openings: &[Position],
    threads: usize,
    seed: u64,
    report: &mut dyn FnMut(usize, f64, &[f64]),
) -> Vec<f64> {
    let n = groups.len();
    let mut theta = vec![0.0f64; n];
    let big_a = (iterations as f64 / 10.0).max(1.0);
    let (a, c) = (0.6, 0.3);
    let mut state = seed | 1;
    for k in 0..iterations {
        let ck = c / ((k + 1) as f64).powf(0.101);
        let ak = a / ((k + 1) as f64 + big_a).powf(0.602);
        let delta: Vec<f64> = (0..n)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                if state & 1 == 0 { 1.0 } else { -1.0 }
            })
            .collect();
        let plus: Vec<f64> = theta.iter().zip(&delta).map(|(t, d)| t + ck * d).collect();
        let minus: Vec<f64> = theta.iter().zip(&delta).map(|(t, d)| t - ck * d).collect();
        let r = mini_match(
            &scaled_by(groups, base, &plus),
            &scaled_by(groups, base, &minus),
            openings,
            k * games_per_iteration / 2,
            games_per_iteration,
            limit,
            threads,
            seed ^ k as u64,
        );
        for i in 0..n {
            theta[i] = (theta[i] + ak * (2.0 * r - 1.0) / (2.0 * ck) * delta[i]).clamp(-2.3, 1.1);
        }
        report(k + 1, r, &theta);
    }
    theta
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
    fn samples_are_read_with_their_features() {
        let text =
            "3k4/8/8/8/8/8/1M6/4K3 w - 0 1;1\n# comment\n\n3k4/8/8/8/8/8/8/4K3 b - 0 1;0.5\n";
        let s = read_samples(text.as_bytes()).unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].counts[Feature::Man as usize], 1);
        assert!(read_samples("nonsense".as_bytes()).is_err());
        assert!(read_samples("3k4/8/8/8/8/8/8/4K3 w - 0 1;x".as_bytes()).is_err());
    }
}
