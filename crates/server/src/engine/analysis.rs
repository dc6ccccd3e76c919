//! A whole game analysed by the engine after it ends: an evaluation of
//! every position, and each move classed by how much of the mover's
//! winning chances it gave away, with the better move. Computed once, in
//! the background (the pool's lowest priority, one position at a time, so
//! games in play always go first), and stored with the game.
//!
//! Winning chances are those of lichess: `50 + 50·(2/(1 + e^(−0.00368208·cp)) − 1)`
//! per cent for an evaluation of `cp` centi-men (a man is 100), from the
//! mover's side. A move that loses at least 10 points of them is an
//! inaccuracy, 20 a mistake, 30 a blunder.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use legion_engine::search::{WIN, WIN_BOUND};
use legion_engine::{Config, Limits, Table, search};
use legion_rules::notation::{canonical, human};
use legion_rules::{Game, Move, Position};
use serde::{Deserialize, Serialize};

use crate::engine::pool::{ClientKey, Priority};
use crate::games::hub::Hub;
use crate::games::ids::GameId;
use crate::games::model::Status;
use crate::games::refusal::{CoreError, CoreResult, Refusal};

/// Nodes searched per position: about a tenth of a second here.
pub const NODES_PER_POSITION: u64 = 150_000;
/// Losses of winning chances (percentage points) that class a move.
pub const INACCURACY: f64 = 10.0;
pub const MISTAKE: f64 = 20.0;
pub const BLUNDER: f64 = 30.0;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Class {
    Inaccuracy,
    Mistake,
    Blunder,
}

/// A move of the game, judged.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Judged {
    /// 1 for the first move.
    pub ply: usize,
    /// The evaluation after the move, from White's side: centi-men, or
    /// the engine's win scores (near ±31,000) for a forced win.
    pub eval: i32,
    /// The same as the protocol writes it: `cp 35`, `win 3`.
    pub score: String,
    /// Winning chances the mover gave away, percentage points.
    pub loss: f64,
    pub class: Option<Class>,
    /// The engine's move in the position before, when it differs.
    pub best: Option<String>,
    pub best_human: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// The evaluation of the start, from White's side.
    pub start_eval: i32,
    pub moves: Vec<Judged>,
    pub nodes_per_position: u64,
    /// The losses that class a move, as used for this report.
    #[serde(default = "Thresholds::now")]
    pub thresholds: Thresholds,
}

/// Losses of winning chances (percentage points) from which a move is an
/// inaccuracy, a mistake, a blunder.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Thresholds {
    pub inaccuracy: f64,
    pub mistake: f64,
    pub blunder: f64,
}

impl Thresholds {
    fn now() -> Thresholds {
        Thresholds {
            inaccuracy: INACCURACY,
            mistake: MISTAKE,
            blunder: BLUNDER,
        }
    }
}

/// Where a game's analysis stands.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "status", rename_all = "lowercase")]
pub enum Progress {
    None,
    Running { done: usize, positions: usize },
    Done { report: Report },
}

/// Analyses under way, by game.
#[derive(Default)]
pub struct Running(Mutex<HashMap<GameId, (usize, usize)>>);

impl Running {
    fn get(&self, id: &GameId) -> Option<(usize, usize)> {
        self.0
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(id)
            .copied()
    }

    fn set(&self, id: &GameId, done: usize, of: usize) {
        self.0
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(id.clone(), (done, of));
    }

    fn end(&self, id: &GameId) {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).remove(id);
    }
}

/// Winning chances, per cent, of the side whose evaluation is `cp`.
pub fn winning_chances(cp: i32) -> f64 {
    let cp = f64::from(cp.clamp(-10_000, 10_000));
    50.0 + 50.0 * (2.0 / (1.0 + (-0.003_682_08 * cp).exp()) - 1.0)
}

pub fn class_of(loss: f64) -> Option<Class> {
    if loss >= BLUNDER {
        Some(Class::Blunder)
    } else if loss >= MISTAKE {
        Some(Class::Mistake)
    } else if loss >= INACCURACY {
        Some(Class::Inaccuracy)
    } else {
        None
    }
}

/// A search score for winning chances: forced wins count as won.
fn as_cp(score: i32) -> i32 {
    if score > WIN_BOUND {
        10_000
    } else if score < -WIN_BOUND {
        -10_000
    } else {
        score
    }
}

/// Judges every move of a game from the evaluations of its positions
/// (`evals[i]` from the side to move in position `i`, with its best move).
pub fn judge(game: &Game, evals: &[(i32, Option<Move>)]) -> Report {
    let positions = game.positions();
    let white = |i: usize, score: i32| {
        if positions[i].turn() == legion_rules::Color::White {
            score
        } else {
            -score
        }
    };
    let mut moves = Vec::new();
    for (i, &played) in game.moves().iter().enumerate() {
        let (before, best) = evals[i];
        let after = -evals[i + 1].0; // from the mover's side
        let loss = (winning_chances(as_cp(before)) - winning_chances(as_cp(after))).max(0.0);
        let class = class_of(loss);
        let pos = &positions[i];
        let better = best.filter(|&b| b != played && class.is_some());
        moves.push(Judged {
            ply: i + 1,
            eval: white(i + 1, evals[i + 1].0),
            score: legion_engine::search::score_text(white(i + 1, evals[i + 1].0)),
            loss: (loss * 10.0).round() / 10.0,
            class,
            best: better.map(|b| canonical(pos, b)),
            best_human: better.map(|b| human(pos, b)),
        });
    }
    Report {
        start_eval: white(0, evals.first().map_or(0, |e| e.0)),
        moves,
        nodes_per_position: NODES_PER_POSITION,
        thresholds: Thresholds::now(),
    }
}

/// A search that completes no depth within its nodes is given this many
/// times more, up to `RETRIES` times (a position where checks and forced
/// replies are extended can need far more than usual for depth 1).
const MORE_NODES: u64 = 4;
const RETRIES: u32 = 3;

/// One position's evaluation for its side to move, with its best move.
/// A position without a legal move is lost. The score is always that of
/// a completed depth: a search stopped before its first depth found
/// nothing (its "0" is no evaluation), so it is searched again with more
/// nodes; `None` if it was stopped, or still completed no depth.
fn evaluate(pos: &Position, stop: &std::sync::atomic::AtomicBool) -> Option<(i32, Option<Move>)> {
    evaluate_from(pos, stop, NODES_PER_POSITION)
}

/// `evaluate`, starting with `nodes` nodes.
fn evaluate_from(
    pos: &Position,
    stop: &std::sync::atomic::AtomicBool,
    mut nodes: u64,
) -> Option<(i32, Option<Move>)> {
    if !pos.has_legal_move() {
        return Some((-WIN, None));
    }
    let table = Table::new(8);
    for _ in 0..=RETRIES {
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let out = search(
            pos,
            &[],
            &limits,
            &Config::default(),
            &table,
            stop,
            &mut |_| {},
        );
        if out.depth >= 1 {
            return Some((out.score, out.best));
        }
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            return None;
        }
        nodes *= MORE_NODES;
    }
    None
}

impl Hub {
    /// Where the analysis of game `id` stands.
    pub async fn analysis(self: &Arc<Self>, id: &GameId) -> CoreResult<Progress> {
        let _ = self.get(id).await?;
        if let Some((done, positions)) = self.running.get(id) {
            return Ok(Progress::Running { done, positions });
        }
        let stored = self.store.analysis(id).await?;
        Ok(match stored {
            Some(text) => Progress::Done {
                report: serde_json::from_str(&text).map_err(CoreError::internal)?,
            },
            None => Progress::None,
        })
    }

    /// Starts the analysis of a game that has ended, unless it is done or
    /// under way, for `client`: it holds one of the client's analyses and
    /// a place in the engine's queue while it runs (`EnginePool::hold`),
    /// and its positions are the client's searches in the pool's turns.
    pub async fn request_analysis(
        self: &Arc<Self>,
        id: &GameId,
        client: ClientKey,
    ) -> CoreResult<Progress> {
        let game = {
            let (_, g) = self.current(id).await?;
            if matches!(g.status(), Status::Active | Status::Waiting) {
                return Err(Refusal::AnalysisAfterEnd.into());
            }
            g.game.clone()
        };
        let progress = self.analysis(id).await?;
        if !matches!(progress, Progress::None) {
            return Ok(progress);
        }
        let hold = self.pool.hold(client)?;
        let positions = game.positions().len();
        self.running.set(id, 0, positions);
        let hub = self.clone();
        let id = id.clone();
        tokio::spawn(async move {
            // Given back when the analysis ends, however it ends.
            let _hold = hold;
            let mut evals = Vec::with_capacity(positions);
            for (i, pos) in game.positions().iter().copied().enumerate() {
                let ticket = hub.pool.submit(Priority::Background, client, move |stop| {
                    evaluate(&pos, stop)
                });
                let Ok(ticket) = ticket else {
                    break;
                };
                match ticket.result().await {
                    Ok(Some(e)) => evals.push(e),
                    Ok(None) => {
                        tracing::error!(game = %id, ply = i, "a position of the game could not be evaluated; the analysis is given up");
                        break;
                    }
                    Err(_) => break,
                }
                hub.running.set(&id, i + 1, positions);
            }
            if evals.len() == positions {
                let report = judge(&game, &evals);
                let text = serde_json::to_string(&report).unwrap_or_default();
                let key = id.clone();
                if let Err(e) = hub
                    .store
                    .write(crate::store::Write::Analysis {
                        id: key,
                        report: text,
                    })
                    .await
                {
                    tracing::error!(game = %id, "the analysis was not stored: {e}");
                }
            }
            hub.running.end(&id);
        });
        Ok(Progress::Running { done: 0, positions })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_is_scored_by_a_completed_depth_never_by_a_stopped_search() {
        // Two Queens against a King and a man, White to move. Given one
        // node, a search stops at its first (it looks at its budget
        // there) and completes no depth: its "score" would be 0. The
        // evaluation searches on, with more nodes, until a depth is
        // complete, and scores that: White is two Queens (1,760) against
        // a man (100) ahead.
        let pos: Position = "7k/6m1/8/8/8/8/1QQ5/4K3 w - 0 1".parse().unwrap();
        let one = Limits {
            nodes: Some(1),
            ..Limits::default()
        };
        assert_eq!(legion_engine::search::search_once(&pos, &one, 1).depth, 0);
        let stop = std::sync::atomic::AtomicBool::new(false);
        let (score, best) = evaluate_from(&pos, &stop, 1).unwrap();
        assert!(score > 1_500, "{score}");
        assert!(best.is_some());
        // A stopped evaluation is no evaluation.
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        assert_eq!(evaluate_from(&pos, &stop, 1_000), None);
    }

    #[test]
    fn winning_chances_are_lichess_s() {
        assert!((winning_chances(0) - 50.0).abs() < 1e-9);
        // 100 centi-men (a man): about 59.1 per cent.
        assert!(
            (winning_chances(100) - 59.1).abs() < 0.1,
            "{}",
            winning_chances(100)
        );
        assert!(
            (winning_chances(-300) - 24.9).abs() < 0.1,
            "{}",
            winning_chances(-300)
        );
        assert!(winning_chances(10_000) > 99.9);
    }

    #[test]
    fn moves_are_classed_by_the_chances_they_lose() {
        assert_eq!(class_of(9.9), None);
        assert_eq!(class_of(10.0), Some(Class::Inaccuracy));
        assert_eq!(class_of(25.0), Some(Class::Mistake));
        assert_eq!(class_of(30.0), Some(Class::Blunder));
    }

    #[test]
    fn a_move_that_throws_a_man_away_is_a_blunder() {
        // Made-up evaluations: level, then after White's move Black (to
        // move) stands 400 better; White's best move was another.
        let mut game = Game::new(Position::initial_with(legion_rules::Rules::DEFAULT));
        let start = *game.position();
        let played = legion_rules::notation::parse_move(&start, "c3d4").unwrap();
        let other = legion_rules::notation::parse_move(&start, "a3b4").unwrap();
        game.play(played).unwrap();
        let report = judge(&game, &[(0, Some(other)), (400, None)]);
        let j = &report.moves[0];
        assert_eq!(j.eval, -400);
        // 50 − 18.6 = 31.4 points lost.
        assert!((j.loss - 31.4).abs() < 0.11, "{}", j.loss);
        assert_eq!(j.class, Some(Class::Blunder));
        assert_eq!(j.best.as_deref(), Some("a3b4"));
        // The same move with a level evaluation after it is no mistake.
        let report = judge(&game, &[(0, Some(other)), (0, None)]);
        assert_eq!(
            (report.moves[0].class, report.moves[0].best.clone()),
            (None, None)
        );
    }
}
