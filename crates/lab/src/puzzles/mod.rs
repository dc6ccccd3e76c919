//! Puzzles mined by the engine from games (`legion puzzles`, issue 21):
//! positions after a mistake where one line wins clearly. `mine` finds
//! them, `themes` tags them with this game's themes, `file` keeps them in
//! lichess's puzzle CSV columns and resumes a cut run.
//!
//! Games come from engine self-play made for the purpose (two engines at
//! a level with noise, from the initial position left by a few random
//! moves, so that mistakes happen as between people) or from game
//! records (6.5), such as the site's export of finished games.

pub mod file;
pub mod mine;
pub mod themes;

use std::collections::HashSet;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;

use legion_engine::search::history;
use legion_engine::{Engine, Limits, Options, rng};
use legion_rules::{Game, Position, Record};

pub use file::{FileError, read_file};

/// The committed puzzles (docs/PUZZLES.md says how they were made), in
/// the exported CSV form; the server seeds its database with them.
pub const COMMITTED: &str = include_str!("../../puzzles.csv");
pub use mine::{Source, mine_game};
pub use themes::{Theme, UnknownTheme};

/// One puzzle, as lichess's file has it: the position before the
/// opponent's move that sets it, then that move and the solution.
#[derive(Clone, Debug, PartialEq)]
pub struct Puzzle {
    /// Seven characters from the position and the moves: the same puzzle
    /// found twice has one id.
    pub id: String,
    /// The position before the setting move (LFEN, 6.2).
    pub lfen: String,
    /// Canonical moves (6.3): the opponent's, then solver, opponent, …,
    /// solver.
    pub moves: Vec<String>,
    pub rating: f64,
    pub deviation: f64,
    pub themes: Vec<Theme>,
    /// Where it was found: `selfplay/SEED/GAME#PLY` or a record's site.
    pub game: String,
}

/// The deviation of a puzzle nobody has tried (Glicko-2's default).
pub const NEW_DEVIATION: f64 = 350.0;

impl Puzzle {
    pub fn new(
        lfen: String,
        moves: Vec<String>,
        themes: Vec<Theme>,
        rating: f64,
        game: String,
    ) -> Puzzle {
        let id = puzzle_id(&lfen, &moves);
        Puzzle {
            id,
            lfen,
            moves,
            rating,
            deviation: NEW_DEVIATION,
            themes,
            game,
        }
    }

    /// The solver's moves in the solution.
    pub fn solver_moves(&self) -> usize {
        self.moves.len() / 2
    }
}

/// FNV-1a, 64 bits: a hash stable across runs and machines.
pub fn fnv1a(bytes: impl IntoIterator<Item = u8>) -> u64 {
    bytes.into_iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// FNV-1a of the placement and the moves, written in base 36.
pub fn puzzle_id(lfen: &str, moves: &[String]) -> String {
    let placement = lfen.split(' ').take(3).collect::<Vec<_>>().join(" ");
    let h = fnv1a(placement.bytes().chain(moves.join(" ").bytes()));
    const DIGITS: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    (0..7)
        .map(|i| DIGITS[((h >> (i * 9)) % 36) as usize] as char)
        .collect()
}

/// How puzzles are searched for.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Nodes of the scan of every position.
    pub scan_nodes: u64,
    /// Nodes of each search while building a line (two lines at solver
    /// turns).
    pub line_nodes: u64,
    /// Nodes of the deeper check of every solver move.
    pub verify_nodes: u64,
    /// A solver's score must be at least this (hundredths of a man).
    pub win_cp: i32,
    /// The mistake must raise the solver's win chances by this much.
    pub mistake_gap: f64,
    /// The best move's win chances must beat the second's by this much.
    pub unique_gap: f64,
    /// Material the solver must have won when the line ends without a
    /// mate or a blockade.
    pub gain_cp: i32,
    pub min_solver_moves: usize,
    pub max_solver_moves: usize,
    pub hash_mb: usize,
    /// Setting moves tried at each position besides the game's own: the
    /// mover's best moves at `tempting_depth` (0: only the game's moves).
    pub tempting: usize,
    pub tempting_depth: i32,
    /// Say on standard error why each candidate was kept or left.
    pub trace: bool,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            scan_nodes: 4_000,
            line_nodes: 60_000,
            verify_nodes: 200_000,
            win_cp: 200,
            mistake_gap: 0.3,
            unique_gap: 0.35,
            gain_cp: 100,
            min_solver_moves: 2,
            max_solver_moves: 8,
            hash_mb: 16,
            tempting: 6,
            tempting_depth: 2,
            trace: false,
        }
    }
}

/// Where the games come from.
#[derive(Clone, Debug)]
pub enum Games {
    /// `count` games of self-play at `level` (1–10), seeded.
    SelfPlay {
        count: usize,
        level: u8,
        seed: u64,
        /// Random moves from the initial position, at least and at most.
        random_plies: (usize, usize),
        max_plies: usize,
    },
    /// Game records (6.5), each named by its `Site` tag or its number.
    Records(Vec<Record>),
    /// Stretches of `legion datagen` games (`from_datagen`).
    Datagen(Vec<Stretch>),
}

/// Positions of a datagen game one legal move apart, with those moves:
/// the file keeps positions, not moves, and leaves some out, so a game
/// is cut where the next position is not one move on.
#[derive(Clone, Debug)]
pub struct Stretch {
    /// The game's number in the file, and the stretch's within the game.
    pub game: u64,
    pub part: usize,
    pub positions: Vec<Position>,
    pub moves: Vec<legion_rules::Move>,
}

/// The stretches of a datagen file's games (either format), two positions
/// at least each.
pub fn from_datagen(
    input: impl std::io::BufRead,
) -> Result<Vec<Stretch>, crate::datafile::DataError> {
    let mut out = Vec::new();
    crate::datafile::read_games(input, &mut |game, samples| {
        let mut part = 0;
        let mut current: Option<Stretch> = None;
        for s in samples {
            let p = s.position;
            let step = current.as_ref().and_then(|c| {
                let last = c.positions.last()?;
                last.legal_moves()
                    .iter()
                    .copied()
                    .find(|&m| last.after(m).hash() == p.hash())
            });
            match (step, current.as_mut()) {
                (Some(m), Some(c)) => {
                    c.moves.push(m);
                    c.positions.push(p);
                }
                _ => {
                    if let Some(c) = current.take().filter(|c| !c.moves.is_empty()) {
                        out.push(c);
                        part += 1;
                    }
                    current = Some(Stretch {
                        game,
                        part,
                        positions: vec![p],
                        moves: Vec::new(),
                    });
                }
            }
        }
        if let Some(c) = current.filter(|c| !c.moves.is_empty()) {
            out.push(c);
        }
    })?;
    Ok(out)
}

impl Games {
    fn count(&self) -> usize {
        match self {
            Games::SelfPlay { count, .. } => *count,
            Games::Records(r) => r.len(),
            Games::Datagen(d) => d.len(),
        }
    }
}

/// Plays self-play game `i`: positions and moves.
fn self_play(
    i: usize,
    level: u8,
    seed: u64,
    random_plies: (usize, usize),
    max_plies: usize,
) -> Game {
    let game_seed = rng::derive(seed, i as u64);
    let mut chance = rng::Rng::new(game_seed);
    let mut engine = Engine::new(Options {
        level,
        threads: 1,
        hash_mb: 8,
        ..Options::default()
    });
    engine.new_game(game_seed);
    let mut game = Game::new(Position::initial());
    let (lo, hi) = random_plies;
    let random = lo + chance.below(hi.saturating_sub(lo) + 1);
    let stop = AtomicBool::new(false);
    while game.outcome().is_none() && game.moves().len() < max_plies {
        let pos = *game.position();
        let m = if game.moves().len() < random {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            moves[chance.below(moves.len())]
        } else {
            let out = engine.go(
                &pos,
                &history(&game),
                &Limits::default(),
                &stop,
                &mut |_| {},
            );
            match out.best {
                Some(m) => m,
                None => break,
            }
        };
        if game.play(m).is_err() {
            break;
        }
    }
    game
}

/// What a run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games found done in the file before this run.
    pub resumed: usize,
    /// Games mined by this run.
    pub mined: usize,
    /// Puzzles found by this run.
    pub found: usize,
}

/// Mines `games` on `threads` threads into `out`, a file of puzzle rows
/// and `# game N` lines (`file`): a game is written whole once mined, so
/// a run cut short resumes with the games not yet written.
/// `progress(done, total, found)` hears of every game.
pub fn generate(
    games: &Games,
    settings: &Settings,
    threads: usize,
    out: &Path,
    progress: &mut dyn FnMut(usize, usize, usize),
) -> Result<Summary, FileError> {
    let done: HashSet<usize> = file::done_games(out)?;
    let total = games.count();
    let todo: Vec<usize> = (0..total).filter(|i| !done.contains(i)).collect();
    let mut writer = file::Appender::open(out)?;
    let mut summary = Summary {
        resumed: done.len().min(total),
        ..Summary::default()
    };
    progress(summary.resumed, total, 0);
    let next = AtomicUsize::new(0);
    let (tx, rx) = channel::<(usize, Vec<Puzzle>)>();
    let mut failure = None;
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            let tx = tx.clone();
            let (next, todo) = (&next, &todo);
            scope.spawn(move || {
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&i) = todo.get(k) else { break };
                    let found = mine_one(games, i, settings);
                    if tx.send((i, found)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for (i, found) in rx {
            if let Err(e) = writer.game(i, &found) {
                failure = Some(e);
                break;
            }
            summary.mined += 1;
            summary.found += found.len();
            progress(summary.resumed + summary.mined, total, summary.found);
        }
    });
    match failure {
        Some(e) => Err(e),
        None => Ok(summary),
    }
}

/// The puzzles of game `i`.
fn mine_one(games: &Games, i: usize, settings: &Settings) -> Vec<Puzzle> {
    let (game, name) = match games {
        Games::SelfPlay {
            level,
            seed,
            random_plies,
            max_plies,
            ..
        } => (
            self_play(i, *level, *seed, *random_plies, *max_plies),
            format!("selfplay/{seed}/{i}"),
        ),
        Games::Datagen(stretches) => {
            let st = &stretches[i];
            let name = format!("datagen/{}.{}", st.game, st.part);
            return mine_game(&st.positions, &st.moves, &Source { name }, settings);
        }
        Games::Records(records) => {
            let r = &records[i];
            let name = r
                .tag("Site")
                .filter(|s| !s.is_empty() && *s != "?")
                .map_or_else(|| format!("record/{i}"), str::to_string);
            (r.game.clone(), name)
        }
    };
    mine_game(game.positions(), game.moves(), &Source { name }, settings)
}
