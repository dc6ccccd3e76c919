//! The search: iterative deepening principal-variation alpha-beta with a
//! shared transposition table, quiescence, move ordering, pruning that is
//! safe in this game, and Lazy SMP threads.
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

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use legion_rules::{Color, Game, Move, MoveKind, MoveList, Position, Role};
use smallvec::SmallVec;

use crate::eval::{self, Weights};
use crate::tt::{Bound, Entry, PackedMove, Table};

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
}

impl Default for Config {
    fn default() -> Config {
        Config {
            weights: Weights::default(),
            threads: 1,
            noise: 0,
            variety: 0,
            variety_until_move: 0,
            seed: 0x1E61_0000_0000_0001,
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

/// State shared by the threads of one search.
pub struct Shared<'a> {
    pub tt: &'a Table,
    /// The caller's stop request; only read.
    pub external: &'a AtomicBool,
    /// Set when any thread decides the search is over.
    pub stop: AtomicBool,
    pub nodes: AtomicU64,
}

/// Time to aim for and time never to exceed.
fn allocate(limits: &Limits, turn: Color) -> (Option<Duration>, Option<Duration>) {
    if let Some(t) = limits.movetime {
        return (Some(t), Some(t));
    }
    let (time, inc) = match turn {
        Color::White => (limits.wtime, limits.winc),
        Color::Black => (limits.btime, limits.binc),
    };
    let Some(time) = time else {
        return (None, None);
    };
    let inc = inc.unwrap_or_default();
    let moves = limits.movestogo.unwrap_or(30).clamp(1, 60);
    let reserve = Duration::from_millis(30).min(time / 4);
    let usable = time.saturating_sub(reserve);
    let soft = (usable / moves + inc * 3 / 4).min(usable / 2);
    let hard = (soft * 4).min(usable / 3 + inc / 2).max(soft).min(usable);
    (Some(soft), Some(hard))
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
    let start = Instant::now();
    let shared = Shared {
        tt,
        external: stop,
        stop: AtomicBool::new(false),
        nodes: AtomicU64::new(0),
    };
    let (soft, hard) = allocate(limits, pos.turn());
    let threads = config.threads.max(1);
    let mut main_result = None;
    std::thread::scope(|scope| {
        let shared = &shared;
        for id in 1..threads {
            scope.spawn(move || {
                let mut t = Searcher::new(shared, config, id, start, hard, limits, history);
                t.iterate(pos, limits, None, &mut |_| {});
            });
        }
        let mut t = Searcher::new(shared, config, 0, start, hard, limits, history);
        main_result = Some(t.iterate(pos, limits, soft, info));
        shared.stop.store(true, Ordering::Relaxed);
    });
    let mut out = main_result.unwrap_or(Outcome {
        best: None,
        score: 0,
        depth: 0,
        nodes: 0,
        time: Duration::ZERO,
        pv: Vec::new(),
    });
    out.nodes = shared.nodes.load(Ordering::Relaxed);
    out.time = start.elapsed();
    out
}

/// The best `count` lines (MultiPV), best first: one search a line, each
/// without the first moves of the lines before it, sharing the time and
/// the table. With `count` 1 it is `search` itself; there is always at
/// least one line (without a legal move, the search's verdict).
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
    let mut each = limits.clone();
    each.movetime = limits.movetime.map(|t| t / count as u32);
    each.nodes = limits.nodes.map(|n| n / count as u64);
    let mut out: Vec<Outcome> = Vec::with_capacity(count);
    for _ in 0..count {
        each.searchmoves = candidates.clone();
        let o = search(pos, history, &each, config, tt, stop, &mut |_| {});
        let Some(best) = o.best else { break };
        candidates.retain(|m| *m != best);
        out.push(o);
        if candidates.is_empty() || stop.load(Ordering::Relaxed) {
            break;
        }
    }
    out
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

struct RootMove {
    mv: Move,
    /// Score with the variety bonus, as the root compares them.
    score: i32,
    /// Score without it, as reported.
    raw: i32,
    bonus: i32,
}

struct Searcher<'a> {
    shared: &'a Shared<'a>,
    config: &'a Config,
    id: usize,
    start: Instant,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
    nodes: u64,
    unflushed: u64,
    seldepth: usize,
    /// Hashes of the game before the root, then of the search path.
    path: Vec<u64>,
    killers: Vec<[Option<Move>; 2]>,
    history: Vec<i32>,
    pv: Vec<[Option<Move>; MAX_PLY]>,
    pv_len: [usize; MAX_PLY + 1],
    stopped: bool,
}

impl<'a> Searcher<'a> {
    fn new(
        shared: &'a Shared<'a>,
        config: &'a Config,
        id: usize,
        start: Instant,
        hard: Option<Duration>,
        limits: &Limits,
        history: &[u64],
    ) -> Searcher<'a> {
        Searcher {
            shared,
            config,
            id,
            start,
            deadline: if limits.infinite {
                None
            } else {
                hard.map(|h| start + h)
            },
            node_limit: limits.nodes,
            nodes: 0,
            unflushed: 0,
            seldepth: 0,
            path: history.to_vec(),
            killers: vec![[None, None]; MAX_PLY + 2],
            history: vec![0; 2 * 64 * 64],
            pv: vec![[None; MAX_PLY]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            stopped: false,
        }
    }

    /// Counts a node and sometimes checks the clock, the node limit and
    /// the stop flag.
    #[inline]
    fn tick(&mut self) {
        self.nodes += 1;
        self.unflushed += 1;
        if self.unflushed >= 1024 {
            let total = self
                .shared
                .nodes
                .fetch_add(self.unflushed, Ordering::Relaxed)
                + self.unflushed;
            self.unflushed = 0;
            if self.shared.external.load(Ordering::Relaxed)
                || self.deadline.is_some_and(|d| Instant::now() >= d)
                || self.node_limit.is_some_and(|n| total >= n)
            {
                self.shared.stop.store(true, Ordering::Relaxed);
            }
        }
        if self.shared.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
    }

    fn flush(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.unflushed, Ordering::Relaxed);
        self.unflushed = 0;
    }

    fn evaluate(&self, pos: &Position) -> i32 {
        let e = eval::evaluate(pos, &self.config.weights);
        if self.config.noise == 0 {
            return e;
        }
        let n = self.config.noise as i64;
        let h = (pos.hash() ^ self.config.seed).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20;
        e + ((h as i64).rem_euclid(2 * n + 1) - n) as i32
    }

    /// Iterative deepening. `soft` is the time after which no new depth
    /// is started (main thread only).
    fn iterate(
        &mut self,
        pos: &Position,
        limits: &Limits,
        soft: Option<Duration>,
        info: &mut dyn FnMut(&Info),
    ) -> Outcome {
        let mut moves = pos.legal_moves();
        if !limits.searchmoves.is_empty() {
            moves.retain(|m| limits.searchmoves.contains(m));
        }
        let mut root: Vec<RootMove> = moves
            .iter()
            .enumerate()
            .map(|(i, &mv)| RootMove {
                mv,
                score: -INF,
                raw: -INF,
                bonus: self.root_bonus(pos, i),
            })
            .collect();
        let mut best = Outcome {
            best: root.first().map(|r| r.mv),
            score: if root.is_empty() { -WIN } else { 0 },
            depth: 0,
            nodes: 0,
            time: Duration::ZERO,
            pv: root.first().map(|r| vec![r.mv]).unwrap_or_default(),
        };
        if root.is_empty() {
            return best;
        }
        // Order the root once by a shallow look: captures and checks first.
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as i32 - 4)
            .clamp(1, MAX_PLY as i32 - 4);
        let mut score = 0;
        let first = 1 + (self.id % 2) as i32;
        for depth in first..=max_depth {
            self.seldepth = 0;
            let mut window = 30;
            let (mut alpha, mut beta) = if depth >= 5 {
                (score - window, score + window)
            } else {
                (-INF, INF)
            };
            loop {
                let s = self.root(pos, &mut root, depth, alpha, beta);
                if self.stopped {
                    break;
                }
                if s <= alpha {
                    alpha = (alpha - window).max(-INF);
                    window *= 2;
                } else if s >= beta {
                    beta = (beta + window).min(INF);
                    window *= 2;
                } else {
                    score = s;
                    break;
                }
            }
            // A depth cut short still counts if its best move was searched
            // fully and beats the last depth's choice.
            if self.stopped {
                if depth > 1 && root[0].raw > -INF && root[0].raw > best.score {
                    best.best = Some(root[0].mv);
                    best.score = root[0].raw;
                    best.pv = vec![root[0].mv];
                }
                break;
            }
            best = Outcome {
                best: Some(root[0].mv),
                score: root[0].raw,
                depth,
                nodes: 0,
                time: self.start.elapsed(),
                pv: self.pv[0][..self.pv_len[0]]
                    .iter()
                    .flatten()
                    .copied()
                    .collect(),
            };
            if best.pv.first() != best.best.as_ref() {
                best.pv = vec![root[0].mv];
            }
            if self.id == 0 {
                self.flush();
                info(&Info {
                    depth,
                    seldepth: self.seldepth as i32,
                    score: best.score,
                    nodes: self.shared.nodes.load(Ordering::Relaxed),
                    time: self.start.elapsed(),
                    pv: best.pv.clone(),
                    hashfull: self.shared.tt.hashfull(),
                });
                if !limits.infinite {
                    if soft.is_some_and(|s| self.start.elapsed() > s * 6 / 10) {
                        break;
                    }
                    // A forced result found within this depth will not change.
                    if best.score.abs() > WIN_BOUND && WIN - best.score.abs() <= depth {
                        break;
                    }
                    if root.len() == 1 && depth >= 4 && soft.is_some() {
                        break;
                    }
                }
            }
        }
        self.flush();
        best
    }

    fn root_bonus(&self, pos: &Position, i: usize) -> i32 {
        let c = self.config;
        if c.variety <= 0
            || (c.variety_until_move > 0 && pos.fullmove_number() >= c.variety_until_move)
        {
            return 0;
        }
        let h = (c.seed ^ pos.hash())
            .wrapping_add((i as u64 + 1).wrapping_mul(0xD1B5_4A32_D192_ED03))
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        ((h >> 33) % (c.variety as u64 + 1)) as i32
    }

    /// One pass over the root moves; keeps them sorted best first.
    fn root(
        &mut self,
        pos: &Position,
        root: &mut [RootMove],
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let mut best = -INF;
        self.pv_len[0] = 0;
        for i in 0..root.len() {
            let mv = root[i].mv;
            let bonus = root[i].bonus;
            let child = pos.after(mv);
            self.path.push(pos.hash());
            let gives_check = child.is_check();
            let d = depth - 1 + gives_check as i32;
            // The bonus shifts the window: bonus-adjusted scores compete.
            let (a, b) = (alpha - bonus, beta - bonus);
            let mut s;
            if i == 0 {
                s = -self.negamax(&child, d, -b, -a, 1, true, true);
            } else {
                s = -self.negamax(&child, d, -a - 1, -a, 1, false, true);
                if s > a && s < b && !self.stopped {
                    s = -self.negamax(&child, d, -b, -a, 1, true, true);
                }
            }
            self.path.pop();
            if self.stopped {
                break;
            }
            // A forced result is what it is: no bonus.
            let raw = s;
            let s = if s.abs() > WIN_BOUND { s } else { s + bonus };
            root[i].score = if s > alpha { s } else { -INF };
            root[i].raw = raw;
            if s > best {
                best = s;
            }
            if s > alpha {
                alpha = s;
                self.pv[0][0] = Some(mv);
                let n = self.pv_len[1];
                let child_pv = self.pv[1];
                self.pv[0][1..=n].copy_from_slice(&child_pv[..n]);
                self.pv_len[0] = n + 1;
                // Move the new best to the front, keep the rest in order.
                root[..=i].rotate_right(1);
                if s >= beta {
                    break;
                }
            }
        }
        best
    }

    fn is_repetition(&self, pos: &Position) -> bool {
        // Only positions since the last irreversible move can repeat; the
        // side to move must match, so step back two plies at a time.
        let n = self.path.len();
        let window = (pos.halfmove_clock() as usize).min(n);
        let mut i = 2;
        while i <= window {
            if self.path[n - i] == pos.hash() {
                return true;
            }
            i += 2;
        }
        false
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
        allow_null: bool,
    ) -> i32 {
        self.pv_len[ply] = 0;
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiesce(pos, alpha, beta, ply, 0);
        }
        self.tick();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        // Draws (5.3): repetition and the 50-move rule.
        if pos.halfmove_clock() >= 100 || self.is_repetition(pos) {
            return 0;
        }
        // Mate-distance pruning.
        alpha = alpha.max(-WIN + ply as i32);
        beta = beta.min(WIN - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        let key = pos.hash();
        let tt_entry = self.shared.tt.probe(key);
        if let Some(e) = tt_entry
            && !pv_node
            && e.depth >= depth
        {
            let s = from_tt(e.score, ply);
            match e.bound {
                Bound::Exact => return s,
                Bound::Lower if s >= beta => return s,
                Bound::Upper if s <= alpha => return s,
                _ => {}
            }
        }

        let mut moves = MoveList::new();
        pos.legal_moves_into(&mut moves);
        if moves.is_empty() {
            // 5.2: no legal move loses.
            return -WIN + ply as i32;
        }
        let in_check = pos.is_check();
        let forced = !in_check && moves[0].kind() == MoveKind::Jump;
        let static_eval = if in_check {
            -INF
        } else {
            tt_entry
                .map(|e| e.eval)
                .unwrap_or_else(|| self.evaluate(pos))
        };

        if !pv_node && !in_check && !forced {
            // Reverse futility: far above beta with little depth left.
            if depth <= 3 && static_eval - 110 * depth >= beta && static_eval.abs() < WIN_BOUND {
                return static_eval;
            }
            // Null move: give the opponent a free move; if still above
            // beta, this node is good enough.
            if allow_null && depth >= 3 && static_eval >= beta && has_chess_pieces(pos) {
                let r = 3 + depth / 6;
                let child = pos.null_move();
                self.path.push(key);
                let s = -self.negamax(
                    &child,
                    depth - 1 - r,
                    -beta,
                    -beta + 1,
                    ply + 1,
                    false,
                    false,
                );
                self.path.pop();
                if self.stopped {
                    return 0;
                }
                if s >= beta {
                    return if s > WIN_BOUND { beta } else { s };
                }
            }
        }

        let tt_move = tt_entry.and_then(|e| e.mv.find(&moves));
        let mut scores = self.score_moves(pos, &moves, tt_move, ply);
        // A single legal move (often a forced capture) is searched deeper.
        let single = moves.len() == 1;
        let mut best = -INF;
        let mut best_move = None;
        let original_alpha = alpha;
        let us = pos.turn();
        for i in 0..moves.len() {
            let (m, _) = pick(&mut moves, &mut scores, i);
            let child = pos.after(m);
            let gives_check = child.is_check();
            let quiet = !m.is_capture() && !m.crowns();
            let extension = (gives_check || single) as i32;
            let new_depth = depth - 1 + extension;

            // Futility: a quiet move at the horizon that cannot lift alpha.
            if !pv_node && !in_check && !gives_check && quiet && i > 0 && best > -WIN_BOUND {
                if depth <= 2 && static_eval + 140 * depth <= alpha {
                    continue;
                }
                // Late move pruning at low depth.
                if depth <= 3 && i >= 6 + 4 * depth as usize {
                    continue;
                }
            }

            self.path.push(key);
            let mut s;
            if i == 0 {
                s = -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, pv_node, true);
            } else {
                // Late quiet moves are searched shallower first.
                let mut r = 0;
                if depth >= 3 && i >= 3 && quiet && !in_check && !gives_check {
                    r = reduction(depth, i) - pv_node as i32;
                    r = r.clamp(0, new_depth - 1);
                }
                s = -self.negamax(
                    &child,
                    new_depth - r,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    false,
                    true,
                );
                if s > alpha && r > 0 && !self.stopped {
                    s = -self.negamax(&child, new_depth, -alpha - 1, -alpha, ply + 1, false, true);
                }
                if s > alpha && s < beta && pv_node && !self.stopped {
                    s = -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, true, true);
                }
            }
            self.path.pop();
            if self.stopped {
                return 0;
            }
            if s > best {
                best = s;
                best_move = Some(m);
                if s > alpha {
                    alpha = s;
                    self.pv[ply][0] = Some(m);
                    let n = self.pv_len[ply + 1];
                    let child_pv = self.pv[ply + 1];
                    self.pv[ply][1..=n].copy_from_slice(&child_pv[..n]);
                    self.pv_len[ply] = n + 1;
                    if s >= beta {
                        if quiet {
                            self.reward(us, m, ply, depth);
                        }
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if alpha > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store(
            key,
            Entry {
                mv: best_move.map_or(PackedMove::NONE, PackedMove::pack),
                score: to_tt(best, ply),
                eval: if in_check { 0 } else { static_eval },
                depth,
                bound,
            },
        );
        best
    }

    /// Quiescence: only moves that change material, until the position is
    /// quiet. In check, or when a Legion capture is compulsory, the side to
    /// move cannot stand pat and every legal move is searched.
    fn quiesce(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qdepth: u32,
    ) -> i32 {
        self.tick();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if pos.halfmove_clock() >= 100 {
            return 0;
        }
        let mut moves = MoveList::new();
        pos.noisy_moves_into(&mut moves);
        let in_check = pos.is_check();
        if moves.is_empty() && (in_check || !pos.has_legal_move()) {
            // 5.2: no legal move loses.
            return -WIN + ply as i32;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos);
        }
        let forced = !in_check && moves.first().is_some_and(|m| m.kind() == MoveKind::Jump);
        let mut best = -INF;
        if !in_check && !forced {
            let stand = self.evaluate(pos);
            if stand >= beta || moves.is_empty() {
                return stand;
            }
            best = stand;
            alpha = alpha.max(stand);
        } else if qdepth >= 8 {
            // Long forced lines end here with a plain evaluation.
            return self.evaluate(pos);
        }
        let mut scores = self.score_moves(pos, &moves, None, ply);
        for i in 0..moves.len() {
            let (m, _) = pick(&mut moves, &mut scores, i);
            let child = pos.after(m);
            self.path.push(pos.hash());
            let s = -self.quiesce(&child, -beta, -alpha, ply + 1, qdepth + 1);
            self.path.pop();
            if self.stopped {
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    fn score_moves(
        &self,
        pos: &Position,
        moves: &MoveList,
        tt_move: Option<Move>,
        ply: usize,
    ) -> Scores {
        let board = pos.board();
        let us = pos.turn();
        let killers = self.killers[ply.min(MAX_PLY)];
        moves
            .iter()
            .map(|&m| {
                if Some(m) == tt_move {
                    return 2_000_000;
                }
                match m.kind() {
                    MoveKind::Jump => {
                        let mut v = 0;
                        for sq in m.captured() {
                            v += board.role_at(sq).map_or(0, eval::piece_value);
                            // Liberation returns the prisoner to us.
                            v += board.prisoner_at(sq).map_or(0, eval::piece_value);
                        }
                        1_000_000 + v + 200 * m.crowns() as i32
                    }
                    MoveKind::Chess if m.is_capture() => {
                        let victim = board.role_at(m.to()).map_or(0, eval::piece_value)
                            + board.prisoner_at(m.to()).map_or(0, eval::piece_value);
                        1_000_000 + 10 * victim - eval::piece_value(m.role()) / 10
                    }
                    _ if m.crowns() => 900_000,
                    _ if Some(m) == killers[0] => 800_000,
                    _ if Some(m) == killers[1] => 799_000,
                    _ => self.history[history_index(us, m)],
                }
            })
            .collect()
    }

    fn reward(&mut self, us: Color, m: Move, ply: usize, depth: i32) {
        let k = &mut self.killers[ply.min(MAX_PLY)];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
        let h = &mut self.history[history_index(us, m)];
        *h = (*h + depth * depth).min(400_000);
    }
}

fn history_index(us: Color, m: Move) -> usize {
    (us.index() * 64 + m.from().index()) * 64 + m.to().index()
}

/// Ordering scores, one per move, without allocating.
type Scores = SmallVec<[i32; 256]>;

/// Selection sort step: moves the best remaining move to `i`.
fn pick(moves: &mut MoveList, scores: &mut [i32], i: usize) -> (Move, i32) {
    let mut best = i;
    for j in i + 1..moves.len() {
        if scores[j] > scores[best] {
            best = j;
        }
    }
    moves.swap(i, best);
    scores.swap(i, best);
    (moves[i], scores[i])
}

fn reduction(depth: i32, index: usize) -> i32 {
    let r = 0.6 + (depth as f32).ln() * ((index as f32).ln()) / 2.4;
    r as i32
}

/// Whether the side to move has a chess piece besides its King: without
/// one, zugzwang is common and null-move pruning unsafe.
fn has_chess_pieces(pos: &Position) -> bool {
    let b = pos.board();
    let ours = b.by_color(pos.turn());
    (ours
        & (b.by_role(Role::Queen)
            | b.by_role(Role::Rook)
            | b.by_role(Role::Bishop)
            | b.by_role(Role::Knight)))
    .any()
}

/// Win scores are stored relative to the node, not the root.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score > WIN_BOUND {
        score + ply as i32
    } else if score < -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score > WIN_BOUND {
        score - ply as i32
    } else if score < -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
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

    #[test]
    fn score_texts() {
        assert_eq!(score_text(35), "cp 35");
        assert_eq!(score_text(WIN - 1), "win 1");
        assert_eq!(score_text(WIN - 3), "win 2");
        assert_eq!(score_text(-WIN + 2), "loss 1");
    }

    #[test]
    fn time_allocation_stays_within_the_clock() {
        let limits = Limits {
            wtime: Some(Duration::from_millis(1000)),
            winc: Some(Duration::from_millis(100)),
            ..Limits::default()
        };
        let (soft, hard) = allocate(&limits, Color::White);
        let (soft, hard) = (soft.unwrap(), hard.unwrap());
        assert!(
            soft <= hard && hard < Duration::from_millis(1000),
            "{soft:?} {hard:?}"
        );
        assert!(soft >= Duration::from_millis(50));
    }
}
