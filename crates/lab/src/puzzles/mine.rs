//! Finding puzzles in a game, after lichess-puzzler's criteria adapted to
//! this game's evaluation (docs/PUZZLES.md):
//!
//! 1. **Scan**: every position of the game is searched briefly. A move
//!    after which its opponent (the solver) stands clearly better than
//!    before, and winning, is a mistake: the position after it is a
//!    candidate.
//! 2. **Line**: from the candidate, the two best moves are searched more
//!    deeply at every solver turn; the best must be winning and much
//!    better than the second (in win chances), else the line stops. The
//!    opponent answers with its best move. The line ends on a solver move
//!    once the gain is secured (material won and nothing to take back),
//!    with a mate (5.1) or a position without a move for the opponent
//!    (5.2), and needs at least two solver moves.
//! 3. **Check**: every solver move is searched again, deeper, with a fresh
//!    table; the line stands only if that search picks the same moves.

use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

use legion_engine::search::{self, WIN_BOUND};
use legion_engine::{Config, Limits, Outcome, Table, eval::piece_value};
use legion_rules::notation::canonical;
use legion_rules::{Color, Move, MoveList, Position, Role};

use super::themes;
use super::{Puzzle, Settings};

/// A score below every other, for a missing second line.
const INF_SCORE: i32 = legion_engine::search::INF;

/// The win chances of a score for the side it is given for, −1 to 1 (the
/// logistic curve lichess uses, on hundredths of a man; forced results
/// are ±1).
pub fn win_chances(score: i32) -> f64 {
    if score > WIN_BOUND {
        return 1.0;
    }
    if score < -WIN_BOUND {
        return -1.0;
    }
    2.0 / (1.0 + (-0.004 * f64::from(score)).exp()) - 1.0
}

/// Material of `color`: its chess pieces but the King, and its free men
/// and Tamas; a prisoner counts for neither side (it is out of play until
/// freed, 4.1).
pub fn material(pos: &Position, color: Color) -> i32 {
    let board = pos.board();
    let mut total = 0;
    for sq in board.by_color(color) {
        if let Some(role) = board.role_at(sq)
            && role != Role::King
        {
            total += piece_value(role);
        }
    }
    total
}

/// Material of `color` minus its opponent's.
fn balance(pos: &Position, color: Color) -> i32 {
    material(pos, color) - material(pos, !color)
}

/// A search of one position.
struct Searcher<'a> {
    settings: &'a Settings,
    config: Config,
    table: Table,
    stop: AtomicBool,
}

impl<'a> Searcher<'a> {
    fn new(settings: &'a Settings) -> Searcher<'a> {
        Searcher {
            settings,
            config: Config::default(),
            table: Table::new(settings.hash_mb),
            stop: AtomicBool::new(false),
        }
    }

    fn limits(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    fn best(&self, pos: &Position, history: &[u64], nodes: u64) -> Outcome {
        search::search(
            pos,
            history,
            &Self::limits(nodes),
            &self.config,
            &self.table,
            &self.stop,
            &mut |_| {},
        )
    }

    fn two(&self, pos: &Position, history: &[u64], nodes: u64) -> Vec<Outcome> {
        search::lines(
            pos,
            history,
            &Self::limits(nodes),
            &self.config,
            &self.table,
            &self.stop,
            2,
        )
    }
}

/// Where a game came from, for the puzzle's `GameUrl` column.
#[derive(Clone, Debug)]
pub struct Source {
    /// E.g. `selfplay/4/17` or a game's address on the site.
    pub name: String,
}

/// The puzzles of one game: `positions[i]` is the position before
/// `moves[i]` (and `positions` one longer than `moves`).
///
/// At every position the setting move tried first is the game's own; if
/// it is no mistake, the moves a shallow search of the mover likes best
/// (`Settings::tempting`) are tried too: a move that looks good at a
/// glance and loses is the mistake a player makes, and trying them finds
/// far more puzzles in a game than the one or two mistakes engines make.
/// A game gives at most one puzzle per position, and a puzzle whose
/// positions an earlier one of the game went through is left.
pub fn mine_game(
    positions: &[Position],
    moves: &[Move],
    source: &Source,
    settings: &Settings,
) -> Vec<Puzzle> {
    let mut out = Vec::new();
    if positions.len() != moves.len() + 1 {
        return out;
    }
    let searcher = Searcher::new(settings);
    let hashes: Vec<u64> = positions.iter().map(Position::hash).collect();
    // Scores of the scan, for the side to move; None: no move there.
    let scores: Vec<Option<i32>> = positions
        .iter()
        .enumerate()
        .map(|(i, p)| {
            p.has_legal_move()
                .then(|| searcher.best(p, &hashes[..i], settings.scan_nodes).score)
        })
        .collect();
    // Positions the puzzles found so far go through, at solver turns.
    let mut seen: HashSet<u64> = HashSet::new();
    for (i, &played) in moves.iter().enumerate() {
        let Some(mover_score) = scores[i] else {
            continue;
        };
        // The solver's view before the mistake: already winning, it has
        // nothing to punish.
        let before = -mover_score;
        if before >= settings.win_cp {
            continue;
        }
        let start = &positions[i];
        let history = &hashes[..=i];
        let mut tries: Vec<(Move, Option<i32>)> = vec![(played, scores[i + 1])];
        if settings.tempting > 0 {
            for m in tempting(&searcher, start, &hashes[..i], settings) {
                if m != played {
                    let after = start.after(m);
                    let score = after
                        .has_legal_move()
                        .then(|| searcher.best(&after, history, settings.scan_nodes).score);
                    tries.push((m, score));
                }
            }
        }
        for (setting, after) in tries {
            let Some(after) = after else { continue };
            if after < settings.win_cp
                || win_chances(after) - win_chances(before) < settings.mistake_gap
            {
                continue;
            }
            if seen.contains(&start.after(setting).hash()) {
                continue;
            }
            searcher.table.clear();
            let name = format!("{}#{}", source.name, i + 1);
            let found = line(&searcher, start, setting, &hashes[..i], name);
            if settings.trace {
                eprintln!(
                    "{}#{}: {} {} {before} -> {after}: {}",
                    source.name,
                    i + 1,
                    if setting == played {
                        "played"
                    } else {
                        "tempting"
                    },
                    canonical(start, setting),
                    match &found {
                        Ok((p, _)) => p.moves.join(" "),
                        Err(why) => format!("left: {why:?}"),
                    }
                );
            }
            if let Ok((p, through)) = found {
                seen.extend(through);
                out.push(p);
                break;
            }
        }
    }
    out
}

/// The moves the side to move at `pos` likes best at a shallow depth,
/// best first: natural moves, the ones a player considers.
fn tempting(
    searcher: &Searcher,
    pos: &Position,
    history: &[u64],
    settings: &Settings,
) -> Vec<Move> {
    let limits = Limits {
        depth: Some(settings.tempting_depth),
        ..Limits::default()
    };
    search::lines(
        pos,
        history,
        &limits,
        &searcher.config,
        &searcher.table,
        &searcher.stop,
        settings.tempting,
    )
    .into_iter()
    .filter_map(|o| o.best)
    .collect()
}

/// How a line ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    /// Material won, nothing to take back.
    Secured,
    /// A Phase 1 mate (5.1) or a position without a move (5.2).
    Decided,
    /// The next solver move is not clearly the best: the line ends before
    /// it, if what it won so far is enough.
    Unclear,
}

/// Why a candidate gave no puzzle (`Settings::trace` says it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Left {
    /// The search found no move.
    NoLine,
    /// The first solver move is the only legal one.
    Forced,
    /// The best move no longer wins.
    NotWinning,
    /// The best move is not clearly better than the second: their scores
    /// and the solver move it was.
    Ambiguous { best: i32, second: i32, at: usize },
    /// Fewer solver moves than the minimum.
    Short,
    /// The line stopped before the material was won for good.
    NoGain,
    /// The deeper search chose otherwise.
    NotConfirmed,
}

/// The line after the setting move `setting` from `start` (`before`: the
/// hashes of the game's positions before `start`), and the positions it
/// goes through at solver turns.
fn line(
    searcher: &Searcher,
    start: &Position,
    setting: Move,
    before: &[u64],
    game: String,
) -> Result<(Puzzle, Vec<u64>), Left> {
    let settings = searcher.settings;
    let start = *start;
    let mut history: Vec<u64> = before.to_vec();
    history.push(start.hash());
    let mut pos = start.after(setting);
    let after_setting = pos;
    let solver = pos.turn();
    let balance_before = balance(&pos, solver);
    let mut through = vec![pos.hash()];
    let mut line: Vec<Move> = vec![setting];
    let mut first_margin = 1.0;
    let mut end = End::Unclear;
    let mut stop = None;
    loop {
        let solver_moves = line.len() / 2;
        if solver_moves >= settings.max_solver_moves {
            break;
        }
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let lines = searcher.two(&pos, &history, settings.line_nodes);
        let best = lines.first().ok_or(Left::NoLine)?;
        let best_move = best.best.ok_or(Left::NoLine)?;
        if best.score < settings.win_cp {
            stop = Some(Left::NotWinning);
            break;
        }
        let second_score = lines.get(1).map_or(-INF_SCORE, |l| l.score);
        let margin = match lines.get(1) {
            Some(second) => win_chances(best.score) - win_chances(second.score),
            // The only legal move: no choice, so not a first move.
            None if solver_moves == 0 => return Err(Left::Forced),
            None => 2.0,
        };
        if margin < settings.unique_gap {
            stop = Some(Left::Ambiguous {
                best: best.score,
                second: second_score,
                at: solver_moves + 1,
            });
            break;
        }
        if solver_moves == 0 {
            first_margin = margin;
        }
        history.push(pos.hash());
        let next = pos.after(best_move);
        line.push(best_move);
        let king_removed =
            pos.board().king(!solver).is_some() && next.board().king(!solver).is_none();
        pos = next;
        if king_removed || !pos.has_legal_move() {
            end = End::Decided;
            break;
        }
        let gain = balance(&pos, solver) - balance_before;
        if line.len() / 2 >= settings.min_solver_moves
            && gain >= settings.gain_cp
            && !has_capture(&pos)
        {
            end = End::Secured;
            break;
        }
        let reply = searcher
            .best(&pos, &history, settings.line_nodes)
            .best
            .ok_or(Left::NoLine)?;
        history.push(pos.hash());
        pos = pos.after(reply);
        line.push(reply);
        through.push(pos.hash());
    }
    // The line ends on a solver move (the setting move is first, so an
    // odd length ends with the opponent's reply).
    if !line.len().is_multiple_of(2) {
        line.pop();
    }
    let solver_moves = line.len() / 2;
    if solver_moves < settings.min_solver_moves {
        return Err(stop.unwrap_or(Left::Short));
    }
    let mut end_pos = start;
    for &m in &line {
        end_pos = end_pos.after(m);
    }
    let gain = balance(&end_pos, solver) - balance_before;
    if end == End::Unclear && (gain < settings.gain_cp || has_capture(&end_pos)) {
        return Err(Left::NoGain);
    }
    if !confirmed(settings, &start, &line, before) {
        return Err(Left::NotConfirmed);
    }
    let themes = themes::find(&start, &line, gain);
    let text: Vec<String> = {
        let mut p = start;
        line.iter()
            .map(|&m| {
                let t = canonical(&p, m);
                p = p.after(m);
                t
            })
            .collect()
    };
    let quiet_first = !line[1].is_capture() && !after_setting.after(line[1]).is_check();
    let puzzle = Puzzle::new(
        start.to_string(),
        text,
        themes,
        starting_rating(solver_moves, first_margin, quiet_first),
        game,
    );
    Ok((puzzle, through))
}

/// Whether the side to move has a capture (a chess capture or a Legion
/// one): material may still change hands.
fn has_capture(pos: &Position) -> bool {
    pos.legal_moves().iter().any(|m| m.is_capture())
}

/// The deeper check: with a fresh table and more nodes, the search picks
/// every solver move of the line.
fn confirmed(settings: &Settings, start: &Position, line: &[Move], before: &[u64]) -> bool {
    let searcher = Searcher::new(settings);
    let mut history = before.to_vec();
    let mut pos = *start;
    for (i, &m) in line.iter().enumerate() {
        if i % 2 == 1 {
            let legal: MoveList = pos.legal_moves();
            if legal.len() > 1 {
                let out = searcher.best(&pos, &history, settings.verify_nodes);
                if out.best != Some(m) || out.score < settings.win_cp {
                    return false;
                }
            }
        }
        history.push(pos.hash());
        pos = pos.after(m);
    }
    true
}

/// A puzzle's first rating, before anyone tries it: longer lines, closer
/// second moves and a quiet first move are harder.
pub fn starting_rating(solver_moves: usize, first_margin: f64, quiet_first: bool) -> f64 {
    let length = 220.0 * (solver_moves.saturating_sub(1) as f64);
    let closeness = 300.0 * (1.0 - first_margin.clamp(0.0, 1.0));
    let quiet = if quiet_first { 200.0 } else { 0.0 };
    (900.0 + length + closeness + quiet)
        .clamp(600.0, 2600.0)
        .round()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn win_chances_are_symmetric_and_bounded() {
        assert_eq!(win_chances(0), 0.0);
        assert!((win_chances(300) + win_chances(-300)).abs() < 1e-12);
        assert_eq!(win_chances(WIN_BOUND + 1), 1.0);
        assert_eq!(win_chances(-WIN_BOUND - 1), -1.0);
        // 2/(1+e^-0.8)-1 = tanh(0.4) = 0.379949…
        assert!((win_chances(200) - 0.379_949).abs() < 1e-5);
    }

    #[test]
    fn starting_ratings_grow_with_length_and_closeness() {
        // 900 + 220·1 + 300·0.4 + 0 = 1240.
        assert_eq!(starting_rating(2, 0.6, false), 1240.0);
        // 900 + 220·3 + 0 + 200 = 1760.
        assert_eq!(starting_rating(4, 1.0, true), 1760.0);
        assert_eq!(starting_rating(20, 0.0, true), 2600.0);
    }

    #[test]
    fn material_counts_free_pieces_and_captors_not_prisoners() {
        let pos: Position = "rnbkqbnr/m1m1m1m1/1m1m1m1m/8/8/M1M1M1M1/1M1M1M1M/RNBQKBNR w KQkq 0 1"
            .parse()
            .expect("the initial position");
        // 8 men, Q, 2R, 2B, 2N: 800 + 880 + 920 + 640 + 600.
        assert_eq!(material(&pos, Color::White), 3840);
        assert_eq!(balance(&pos, Color::Black), 0);
        // A White Knight holding a Black man on d4: the man counts for
        // neither side.
        let held: Position = "3k4/8/8/8/3[Nm]4/8/8/4K3 w - 0 1"
            .parse()
            .expect("a construct");
        assert_eq!(material(&held, Color::White), 300);
        assert_eq!(material(&held, Color::Black), 0);
    }
}
