//! The search: iterative deepening principal-variation alpha-beta with a
//! shared transposition table, quiescence, move ordering, pruning that is
//! safe in this game, and Lazy SMP threads.
//!
//! - `searcher`: one thread's alpha-beta, quiescence and root.
//! - `ordering`: the order moves are tried in (hash move, captures,
//!   killers, history).
//! - `pruning`: every margin and reduction, named, with why.
//! - `time`: how much of the clock a move gets, when to stop.
//! - `threads`: the Lazy SMP driver.
//!
//! What is particular to Legion:
//! - A side with no legal move loses (5.2); that is the only terminal. A
//!   mate under the default rules is not terminal: `play` removes the
//!   King (5.1) and the search goes on in Phase 2; under `mate-ends-game`
//!   the mated side has no move and loses.
//! - When a Legion capture is compulsory (4.2), the side to move may not
//!   stand pat in quiescence and may not pass (no null move): it must
//!   capture.
//! - Null-move pruning is also off in check and when the side to move has
//!   no chess piece besides its King (draughts-like positions are full of
//!   zugzwang).

mod endgames;
mod ordering;
pub use ordering::Histories;
mod pruning;
mod searcher;
mod threads;
pub mod time;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use legion_rules::{Game, Move, Position};

use crate::endgames::Tablebase;
use crate::eval::Weights;
use crate::nnue::Network;
use crate::tt::Table;

/// Scores: a win is `WIN - plies to it`; anything beyond `WIN_BOUND` is a
/// forced result.
pub const INF: i32 = 32_000;
pub const WIN: i32 = 31_000;
pub const WIN_BOUND: i32 = WIN - 1_000;
pub const MAX_PLY: usize = 100;

/// How long and how deep to search (protocol `go`).
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    pub wtime: Option<Duration>,
    pub btime: Option<Duration>,
    pub winc: Option<Duration>,
    pub binc: Option<Duration>,
    pub movestogo: Option<u32>,
    pub infinite: bool,
    /// Search only these root moves (protocol `go searchmoves`); empty: all.
    pub searchmoves: Vec<Move>,
}

/// Settings of one search beyond its limits: evaluation and the handicaps
/// of the levels for people.
#[derive(Clone, Debug)]
pub struct Config {
    pub weights: Weights,
    /// The network to evaluate with; `None`: the linear `weights`.
    pub net: Option<Arc<Network>>,
    pub threads: usize,
    /// Amplitude of a deterministic per-position noise added to the
    /// evaluation (weaker levels).
    pub noise: i32,
    /// Random bonus (0..=variety) given to each root move, so that moves
    /// this close to the best are chosen at random: games differ.
    pub variety: i32,
    /// Apply `variety` only before this full-move number (0: always).
    pub variety_until_move: u32,
    pub seed: u64,
    /// Solved endings: the root keeps the moves that keep the best value
    /// by the tables (DTZ for the 50-move rule, 5.3), and the search
    /// scores a position inside them by its table value. `None`: the
    /// search is exactly as without (bench signatures unchanged).
    pub endgames: Option<Arc<Tablebase>>,
    /// The move-ordering histories kept between the searches of a game;
    /// `None`: each search starts without (as the bench does).
    pub histories: Option<Arc<Histories>>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            weights: Weights::default(),
            // The built-in network, as `Options::default` (a build whose
            // network does not load fails `the_embedded_network_loads`).
            net: crate::nnue::embedded().ok(),
            threads: 1,
            noise: 0,
            variety: 0,
            variety_until_move: 0,
            seed: 0x1E61_0000_0000_0001,
            endgames: None,
            histories: None,
        }
    }
}

/// What the search reports after each completed depth.
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: i32,
    pub seldepth: i32,
    pub score: i32,
    pub nodes: u64,
    pub time: Duration,
    pub pv: Vec<Move>,
    pub hashfull: u32,
}

#[derive(Clone, Debug)]
pub struct Outcome {
    pub best: Option<Move>,
    pub score: i32,
    pub depth: i32,
    pub nodes: u64,
    pub time: Duration,
    pub pv: Vec<Move>,
}

/// A score as the protocol shows it: `cp N`, `win N` or `loss N` (moves).
pub fn score_text(score: i32) -> String {
    if score > WIN_BOUND {
        format!("win {}", (WIN - score + 1) / 2)
    } else if score < -WIN_BOUND {
        format!("loss {}", (WIN + score + 1) / 2)
    } else {
        format!("cp {score}")
    }
}

/// Searches `pos`: `history` holds the hashes of the positions before it
/// in the game (for repetition). `info` hears of every completed depth.
pub fn search(
    pos: &Position,
    history: &[u64],
    limits: &Limits,
    config: &Config,
    tt: &Table,
    stop: &AtomicBool,
    info: &mut dyn FnMut(&Info),
) -> Outcome {
    if let Some(tb) = config.endgames.as_deref()
        && let Some(keep) = endgames::root_moves(tb, pos, &limits.searchmoves)
    {
        let limits = Limits {
            searchmoves: keep,
            ..limits.clone()
        };
        return threads::run(pos, history, &limits, config, tt, stop, info);
    }
    threads::run(pos, history, limits, config, tt, stop, info)
}

/// The best `count` lines (MultiPV), best first: one search a line, each
/// without the first moves of the lines before it, sharing the time and
/// the table (each line gets an equal share of what is left). With
/// `count` 1 it is `search` itself. Every line is one whose search
/// completed at least depth 1, with that search's score and depth; a
/// search stopped before its first depth found nothing and is not
/// reported (it would say "depth 0, score 0" of a move never searched),
/// and no later line is searched. So the lines are empty when even the
/// first search completed no depth (stopped, or out of time at once).
/// Without a legal move the one line is the search's verdict (a loss).
#[allow(clippy::too_many_arguments)]
pub fn lines(
    pos: &Position,
    history: &[u64],
    limits: &Limits,
    config: &Config,
    tt: &Table,
    stop: &AtomicBool,
    count: usize,
) -> Vec<Outcome> {
    let mut candidates: Vec<Move> = pos.legal_moves().into_iter().collect();
    if !limits.searchmoves.is_empty() {
        candidates.retain(|m| limits.searchmoves.contains(m));
    }
    if candidates.is_empty() {
        // No move to search: the one "line" is the search's verdict.
        return vec![search(pos, history, limits, config, tt, stop, &mut |_| {})];
    }
    let count = count.clamp(1, candidates.len());
    let start = Instant::now();
    let mut used = 0u64;
    let mut each = limits.clone();
    let mut out: Vec<Outcome> = Vec::with_capacity(count);
    for k in 0..count {
        // What is left, shared by the lines still to search: a line that
        // ends early (a forced result) leaves its time to the others.
        let left = (count - k) as u32;
        each.movetime = limits
            .movetime
            .map(|t| t.saturating_sub(start.elapsed()) / left);
        each.nodes = limits.nodes.map(|n| n.saturating_sub(used) / left as u64);
        each.searchmoves = candidates.clone();
        let o = search(pos, history, &each, config, tt, stop, &mut |_| {});
        used += o.nodes;
        let Some(best) = o.best.filter(|_| o.depth >= 1) else {
            break;
        };
        candidates.retain(|m| *m != best);
        out.push(o);
        if candidates.is_empty() || stop.load(Ordering::Relaxed) {
            break;
        }
    }
    best_first(out)
}

/// Lines in the order of their scores, best first. Each line's search
/// excluded the moves of the lines before it, but their depths differ
/// (each had its own share of the time), so a later line may score
/// better; ties keep the order they were found in.
fn best_first(mut lines: Vec<Outcome>) -> Vec<Outcome> {
    lines.sort_by_key(|o| std::cmp::Reverse(o.score));
    lines
}

/// The `history` argument of `search` for a game: the hashes of the
/// positions before the current one, for repetition.
pub fn history(game: &Game) -> Vec<u64> {
    let p = game.positions();
    p[..p.len() - 1].iter().map(Position::hash).collect()
}

/// One search with a fresh table of `table_mb` megabytes and the default
/// configuration: for tools and tests that need one answer.
pub fn search_once(pos: &Position, limits: &Limits, table_mb: usize) -> Outcome {
    let tt = Table::new(table_mb);
    let stop = AtomicBool::new(false);
    search(
        pos,
        &[],
        limits,
        &Config::default(),
        &tt,
        &stop,
        &mut |_| {},
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use legion_rules::notation::canonical;

    fn depth(d: i32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    fn best(lfen: &str, d: i32) -> (String, i32) {
        let pos: Position = lfen.parse().unwrap();
        let out = search_once(&pos, &depth(d), 8);
        (canonical(&pos, out.best.unwrap()), out.score)
    }

    #[test]
    fn searchmoves_and_lines() {
        // The Rook a1 can take the undefended Queen a8; told to search
        // only Rook moves along the first rank, it finds none that wins it.
        let pos: Position = "q2k4/8/8/8/8/8/8/R3K3 w - 0 1".parse().unwrap();
        let legal = pos.legal_moves();
        let only: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| canonical(&pos, *m) == "a1b1" || canonical(&pos, *m) == "a1c1")
            .collect();
        let limits = Limits {
            depth: Some(3),
            searchmoves: only.clone(),
            ..Limits::default()
        };
        let table = Table::new(4);
        let stop = AtomicBool::new(false);
        let out = search(
            &pos,
            &[],
            &limits,
            &Config::default(),
            &table,
            &stop,
            &mut |_| {},
        );
        assert!(only.contains(&out.best.unwrap()));
        // Three lines: the capture first, then two other moves, all different.
        let three = lines(&pos, &[], &depth(4), &Config::default(), &table, &stop, 3);
        let firsts: Vec<String> = three
            .iter()
            .map(|o| canonical(&pos, o.best.unwrap()))
            .collect();
        assert_eq!(three.len(), 3);
        assert_eq!(firsts[0], "a1a8");
        assert!(firsts[1] != firsts[2] && !firsts[1..].contains(&"a1a8".to_string()));
        assert!(three[0].score >= three[1].score && three[1].score >= three[2].score - 1);
        // More lines than moves: one line a move.
        let pos: Position = "k7/8/8/8/8/8/8/7K w - 0 1".parse().unwrap();
        let n = pos.legal_moves().len();
        assert_eq!(
            lines(&pos, &[], &depth(2), &Config::default(), &table, &stop, 10).len(),
            n
        );
    }

    /// Two Queens against a King and a man: White mates at once or soon
    /// (c2-h7 is a check that Kg8 answers).
    const TWO_QUEENS: &str = "7k/6m1/8/8/8/8/1QQ5/4K3 w - 0 1";

    #[test]
    fn a_line_never_searched_is_not_reported() {
        let pos: Position = TWO_QUEENS.parse().unwrap();
        let no_time = Limits {
            movetime: Some(Duration::ZERO),
            ..Limits::default()
        };
        // The premise: out of time at once (the search looks at its clock
        // at its first node), it completes no depth (its answer is the
        // first legal move, unsearched, "score 0").
        let cut = search_once(&pos, &no_time, 1);
        assert_eq!(
            cut.depth, 0,
            "depth 1 ended within the first look at the clock"
        );
        let table = Table::new(1);
        let stop = AtomicBool::new(false);
        let three = lines(&pos, &[], &no_time, &Config::default(), &table, &stop, 3);
        for o in &three {
            assert!(
                o.depth >= 1,
                "a line of depth {} score {}",
                o.depth,
                o.score
            );
        }
        // With time for them, three lines, each searched, best first: the
        // first a forced win (White has two Queens against a man).
        let some = Limits {
            nodes: Some(300_000),
            ..Limits::default()
        };
        let table = Table::new(4);
        let three = lines(&pos, &[], &some, &Config::default(), &table, &stop, 3);
        assert_eq!(three.len(), 3);
        assert!(three.iter().all(|o| o.depth >= 1));
        assert!(three[0].score > WIN_BOUND, "{}", three[0].score);
        assert!(three.windows(2).all(|w| w[0].score >= w[1].score));
    }

    #[test]
    fn lines_are_sorted_best_first_and_ties_keep_their_order() {
        let line = |score, depth| Outcome {
            best: None,
            score,
            depth,
            nodes: 0,
            time: Duration::ZERO,
            pv: Vec::new(),
        };
        // Found in the order 1685, 1664, 1678 (the issue's +16.85, +16.64,
        // +16.78): shown 1685, 1678, 1664; equal scores stay as found.
        let sorted = best_first(vec![
            line(1685, 9),
            line(1664, 8),
            line(1678, 7),
            line(1664, 6),
        ]);
        let got: Vec<(i32, i32)> = sorted.iter().map(|o| (o.score, o.depth)).collect();
        assert_eq!(got, [(1685, 9), (1678, 7), (1664, 8), (1664, 6)]);
    }

    #[test]
    fn takes_a_free_queen() {
        // The Rook a1 can take the undefended Queen a8.
        let (m, s) = best("q2k4/8/8/8/8/8/8/R3K3 w - 0 1", 4);
        assert_eq!(m, "a1a8");
        assert!(s > 500, "{s}");
    }

    #[test]
    fn sees_a_win_by_leaving_the_opponent_without_moves() {
        // The Queen b6 boxes the Black King a8 in. Rh8 mates (the King is
        // removed, 5.1, and Black has nothing left); a quiet move leaves
        // Black without a move too. Either way Black loses at once (5.2).
        let (m, s) = best("k7/8/1Q6/8/8/8/8/4K2R w - 0 1", 3);
        assert_eq!(s, WIN - 1, "{m}");
    }

    #[test]
    fn no_legal_move_is_a_loss_for_the_side_to_move() {
        let pos: Position = "k7/8/1Q6/8/8/8/8/7K b - 0 1".parse().unwrap();
        let out = search_once(&pos, &depth(3), 1);
        assert!(out.best.is_none());
        assert_eq!(out.score, -WIN);
    }

    /// The searcher evaluates from sums kept up to date move by move; in a
    /// debug build each evaluation is compared with one from scratch
    /// (`Searcher::evaluate`), over every kind of node of these searches.
    #[cfg(debug_assertions)]
    #[test]
    fn a_network_search_keeps_its_sums_exact() {
        let config = Config {
            net: Some(crate::nnue::embedded().unwrap()),
            ..Config::default()
        };
        for lfen in crate::bench::POSITIONS.iter().take(6) {
            let pos: Position = lfen.parse().unwrap();
            let table = Table::new(1);
            let out = search(
                &pos,
                &[],
                &depth(4),
                &config,
                &table,
                &AtomicBool::new(false),
                &mut |_| {},
            );
            assert!(out.best.is_some() && out.nodes > 100, "{lfen}");
        }
    }

    #[test]
    fn score_texts() {
        assert_eq!(score_text(35), "cp 35");
        assert_eq!(score_text(WIN - 1), "win 1");
        assert_eq!(score_text(WIN - 3), "win 2");
        assert_eq!(score_text(-WIN + 2), "loss 1");
    }
}
