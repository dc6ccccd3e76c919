//! The alpha-beta search of one thread: iterative deepening with
//! aspiration windows, principal-variation search, quiescence, and the
//! pruning of `pruning` where it is safe in this game (see `search`).

use std::sync::atomic::Ordering;
use std::time::Duration;

use legion_rules::{Move, MoveKind, MoveList, Position};

use super::ordering::{Orderer, Scores, pick};
use super::pruning::*;
use super::threads::Shared;
use super::time::Budget;
use super::{Config, INF, Info, Limits, MAX_PLY, Outcome, WIN, WIN_BOUND};
use crate::nnue::{self, Stack};
use crate::tt::{Bound, Entry, PackedMove};
use crate::{eval, rng};

struct RootMove {
    mv: Move,
    /// Score with the variety bonus, as the root compares them.
    score: i32,
    /// Score without it, as reported.
    raw: i32,
    bonus: i32,
}

/// One thread's search.
pub(super) struct Searcher<'a> {
    shared: &'a Shared<'a>,
    config: &'a Config,
    id: usize,
    budget: Budget,
    nodes: u64,
    unflushed: u64,
    seldepth: usize,
    /// Hashes of the game before the root, then of the search path.
    path: Vec<u64>,
    ordering: Orderer,
    pv: Vec<[Option<Move>; MAX_PLY]>,
    pv_len: [usize; MAX_PLY + 1],
    stopped: bool,
    /// The depth of the iteration under way: extensions stop at twice
    /// it, or checks answered by a single move would extend forever.
    root_depth: i32,
    /// The network's sums along the path, when the evaluation is NNUE.
    nnue: Option<Stack>,
}

impl<'a> Searcher<'a> {
    pub fn new(
        shared: &'a Shared<'a>,
        config: &'a Config,
        id: usize,
        budget: Budget,
        history: &[u64],
        ordering: Orderer,
    ) -> Searcher<'a> {
        Searcher {
            shared,
            config,
            id,
            budget,
            nodes: 0,
            unflushed: 0,
            seldepth: 0,
            path: history.to_vec(),
            ordering,
            pv: vec![[None; MAX_PLY]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            stopped: false,
            root_depth: 1,
            nnue: config
                .net
                .as_deref()
                .map(|net| Stack::new(net, MAX_PLY + 1)),
        }
    }

    /// What the search learned of move ordering, for the next one.
    pub fn into_ordering(self) -> Orderer {
        self.ordering
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
            if self.shared.external.load(Ordering::Relaxed) || self.budget.exhausted(total) {
                self.shared.stop.store(true, Ordering::Relaxed);
            }
        } else if self.nodes == 1
            && (self.shared.external.load(Ordering::Relaxed)
                || self
                    .budget
                    .exhausted(self.shared.nodes.load(Ordering::Relaxed) + 1))
        {
            // The first node looks at the stop flag and the clock too,
            // without flushing (the cadence above decides where node
            // limits stop): a search stopped before it began, or given no
            // time, stops at once instead of after 1,024 nodes.
            self.shared.stop.store(true, Ordering::Relaxed);
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

    /// The static evaluation of `pos`, entered at `ply`.
    fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        let e = match (self.config.net.as_deref(), self.nnue.as_mut()) {
            (Some(net), Some(stack)) => {
                let e = net.output(stack.get(net, ply), pos.turn(), nnue::bucket(pos.board()));
                // Every debug-built search checks the incremental sums.
                debug_assert_eq!(e, net.evaluate(pos), "{}", pos.to_lfen());
                e
            }
            _ => eval::evaluate(pos, &self.config.weights),
        };
        if self.config.noise == 0 {
            return e;
        }
        e + rng::noise(pos.hash(), self.config.seed, self.config.noise)
    }

    /// Iterative deepening. Only the main thread (`id` 0) reports and
    /// decides, by its budget, that no new depth is worth starting.
    pub fn iterate(
        &mut self,
        pos: &Position,
        limits: &Limits,
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
            self.root_depth = depth;
            let mut window = ASPIRATION_WINDOW;
            let (mut alpha, mut beta) = if depth >= ASPIRATION_MIN_DEPTH {
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
                time: self.budget.start.elapsed(),
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
                    time: self.budget.start.elapsed(),
                    pv: best.pv.clone(),
                    hashfull: self.shared.tt.hashfull(),
                });
                if self.budget.enough(depth, root.len()) {
                    break;
                }
                // A forced result found within this depth will not change.
                if !limits.infinite
                    && best.score.abs() > WIN_BOUND
                    && WIN - best.score.abs() <= depth
                {
                    break;
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
        rng::pick(pos.hash(), c.seed, i, c.variety)
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
                let (main_line, child) = self.pv.split_at_mut(1);
                main_line[0][1..=n].copy_from_slice(&child[0][..n]);
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
        if let Some(stack) = self.nnue.as_mut() {
            stack.enter(ply, pos.board());
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
        // A solved ending: its value is exact (no tables: never taken).
        if let Some(tb) = self.config.endgames.as_deref()
            && let Some(s) = super::endgames::score(tb, pos, ply)
        {
            return s;
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

        let in_check = pos.is_check();
        // Out of check the Legion's captures are listed first: if there is
        // one, they are compulsory (4.2.2) and are all the moves; if there
        // is none, the pruning below may end the node before the rest,
        // most of the generator's work, are listed.
        let mut moves = MoveList::new();
        let forced = !in_check && pos.legion_captures_into(&mut moves) > 0;
        let static_eval = if in_check {
            -INF
        } else {
            tt_entry
                .map(|e| e.eval)
                .unwrap_or_else(|| self.evaluate(pos, ply))
        };

        if !pv_node && !in_check && !forced {
            // Reverse futility: far above beta with little depth left.
            if depth <= REVERSE_FUTILITY_DEPTH
                && static_eval - REVERSE_FUTILITY_MARGIN * depth >= beta
                && static_eval.abs() < WIN_BOUND
                // 5.2: without a legal move the side has lost, whatever
                // the evaluation says; asked only where a prune would
                // answer, and cheaper than the list (it stops at one).
                && pos.has_legal_move()
            {
                return static_eval;
            }
            // Null move: give the opponent a free move; if still above
            // beta, this node is good enough.
            if allow_null
                && depth >= NULL_MOVE_MIN_DEPTH
                && static_eval >= beta
                && has_chess_pieces(pos)
                && pos.has_legal_move()
            {
                let r = null_move_reduction(depth);
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

        if !forced {
            pos.legal_moves_into(&mut moves);
        }
        if moves.is_empty() {
            // 5.2: no legal move loses.
            return -WIN + ply as i32;
        }
        let tt_move = tt_entry.and_then(|e| e.mv.find(&moves));
        let mut scores = Scores::new();
        self.ordering
            .scores_into(pos, &moves, tt_move, ply, &mut scores);
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
            // Stockfish's bound: no extension beyond twice the root depth.
            // Without it a depth-2 search of a King chased by checks, each
            // with one answer, ran 29 plies deep and 157 million nodes.
            let extension = ((gives_check || single) && (ply as i32) < 2 * self.root_depth) as i32;
            let new_depth = depth - 1 + extension;

            // Futility: a quiet move at the horizon that cannot lift alpha.
            if !pv_node && !in_check && !gives_check && quiet && i > 0 && best > -WIN_BOUND {
                if depth <= FUTILITY_DEPTH && static_eval + FUTILITY_MARGIN * depth <= alpha {
                    continue;
                }
                // Late move pruning at low depth.
                if depth <= LATE_MOVE_DEPTH
                    && i >= LATE_MOVE_BASE + LATE_MOVE_PER_DEPTH * depth as usize
                {
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
                if depth >= LMR_MIN_DEPTH
                    && i >= LMR_MIN_INDEX
                    && quiet
                    && !in_check
                    && !gives_check
                {
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
                    // Only the child's line is copied, not its whole row.
                    let (this, child) = self.pv.split_at_mut(ply + 1);
                    this[ply][1..=n].copy_from_slice(&child[0][..n]);
                    self.pv_len[ply] = n + 1;
                    if s >= beta {
                        if quiet {
                            self.ordering.reward(us, m, ply, depth);
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
        if let Some(stack) = self.nnue.as_mut() {
            stack.enter(ply, pos.board());
        }
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
            return self.evaluate(pos, ply);
        }
        let forced = !in_check && moves.first().is_some_and(|m| m.kind() == MoveKind::Jump);
        let mut best = -INF;
        if !in_check && !forced {
            let stand = self.evaluate(pos, ply);
            if stand >= beta || moves.is_empty() {
                return stand;
            }
            best = stand;
            alpha = alpha.max(stand);
        } else if qdepth >= QUIESCENCE_FORCED_PLIES {
            // Long forced lines end here with a plain evaluation.
            return self.evaluate(pos, ply);
        }
        let mut scores = Scores::new();
        self.ordering
            .scores_into(pos, &moves, None, ply, &mut scores);
        let stand_pat = !in_check && !forced;
        for i in 0..moves.len() {
            let (m, _) = pick(&mut moves, &mut scores, i);
            // A losing chess capture (a piece worth more than what it
            // takes, onto a square the opponent attacks) is not searched
            // where standing pat is allowed: the score stays a true lower
            // bound, and quiescence stops chasing exchanges it loses.
            if stand_pat && m.kind() == MoveKind::Chess && loses_material(pos, m) {
                continue;
            }
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
