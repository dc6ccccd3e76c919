//! SPSA tuning of the evaluation weights by self-play: weights move in
//! groups, each group by one multiplier, and every iteration plays a
//! mini-match between the weights nudged up and down along a random
//! direction (docs/STRENGTH.md has the runs that made `tuned.rs`).

use std::sync::atomic::{AtomicUsize, Ordering};

use legion_engine::Options;
use legion_engine::eval::{Feature, Weights};
use legion_engine::rng::{self, Xorshift64};
use legion_rules::{Color, Position};

use crate::player::{EnginePlayer, MoveLimit};
use crate::tournament::{MatchError, play_game};

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
/// colours), `threads` at a time; an error without openings or games.
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
) -> Result<f64, MatchError> {
    if openings.is_empty() {
        return Err(MatchError::NoOpenings);
    }
    if games == 0 {
        return Err(MatchError::NoGames);
    }
    let next = AtomicUsize::new(0);
    // In half points: a draw is 1, a win 2, so the sum is exact.
    let half_points = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                let make = |w: &Weights| {
                    EnginePlayer::new(
                        Options {
                            weights: w.clone(),
                            net: None,
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
                    let start = openings[(first_opening + i / 2) % openings.len()];
                    let s = rng::derive(seed, i as u64);
                    let a_white = i.is_multiple_of(2);
                    let (_, winner, _) = if a_white {
                        play_game(&mut pa, &mut pb, start, (limit, limit), 300, s)
                    } else {
                        play_game(&mut pb, &mut pa, start, (limit, limit), 300, s)
                    };
                    let a_color = if a_white { Color::White } else { Color::Black };
                    let score = match winner {
                        None => 1,
                        Some(c) if c == a_color => 2,
                        Some(_) => 0,
                    };
                    half_points.fetch_add(score, Ordering::Relaxed);
                }
            });
        }
    });
    Ok(half_points.into_inner() as f64 / 2.0 / games as f64)
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
) -> Result<Vec<f64>, MatchError> {
    let n = groups.len();
    let mut theta = vec![0.0f64; n];
    let big_a = (iterations as f64 / 10.0).max(1.0);
    let (a, c) = (0.6, 0.3);
    let mut directions = Xorshift64::new(seed);
    for k in 0..iterations {
        let ck = c / ((k + 1) as f64).powf(0.101);
        let ak = a / ((k + 1) as f64 + big_a).powf(0.602);
        let delta: Vec<f64> = (0..n)
            .map(|_| {
                if directions.next_u64() & 1 == 0 {
                    1.0
                } else {
                    -1.0
                }
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
        )?;
        for i in 0..n {
            theta[i] = (theta[i] + ak * (2.0 * r - 1.0) / (2.0 * ck) * delta[i]).clamp(-2.3, 1.1);
        }
        report(k + 1, r, &theta);
    }
    Ok(theta)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mini_match_needs_openings_and_games() {
        let w = Weights::handset();
        let openings = [Position::initial()];
        let limit = MoveLimit::Depth(1);
        assert!(matches!(
            mini_match(&w, &w, &[], 0, 2, limit, 1, 1),
            Err(MatchError::NoOpenings)
        ));
        assert!(matches!(
            mini_match(&w, &w, &openings, 0, 0, limit, 1, 1),
            Err(MatchError::NoGames)
        ));
    }
}
