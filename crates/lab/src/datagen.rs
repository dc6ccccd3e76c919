//! Self-play training data for the neural evaluation (`legion datagen`).
//!
//! The engine plays itself from the committed balanced openings, each
//! game first leaving the book by a few random legal moves (seeded by the
//! game's number) so that no two games are alike. Every quiet position
//! (not in check, nothing to capture or crown: what the evaluation is
//! asked about) is written with the search's score and the game's result:
//!
//! ```text
//! LFEN;score;result
//! # game N
//! ```
//!
//! `score` is the search's score for the side to move, in hundredths of a
//! man; `result` is the game's for White (1, 0.5, 0). A game's lines are
//! written at once, its `# game N` line last, so a file cut short by a
//! crash ends with at most one unfinished game: resuming drops it and
//! plays every game that has no `# game` line. A game depends only on
//! the seed and its number (a fresh table for each game, one search
//! thread), so a resumed file holds the same games as an uninterrupted
//! one, in another order.

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;

use legion_engine::search::{WIN_BOUND, history};
use legion_engine::{Engine, Limits, Options, rng};
use legion_rules::{Color, Game, MoveList, Position};

/// What to generate.
#[derive(Clone, Debug)]
pub struct Plan {
    pub games: usize,
    /// Nodes searched for each move.
    pub nodes: u64,
    /// Random moves played after the opening position, at least and at most.
    pub random_plies: (usize, usize),
    /// A game still going after this many plies is a draw.
    pub max_plies: usize,
    /// A start (after the random moves) the search scores beyond this,
    /// in hundredths of a man, is drawn again.
    pub balance: i32,
    pub threads: usize,
    pub seed: u64,
    /// The engine's options (evaluation, rules); level 10 is forced.
    pub options: Options,
}

/// Random starts drawn before a game is played from a lopsided one.
const START_ATTEMPTS: usize = 20;

/// What `generate` did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games found finished in the file before this run.
    pub resumed: usize,
    /// Games played by this run.
    pub played: usize,
    /// Positions written by this run.
    pub positions: usize,
}

#[derive(Debug, thiserror::Error)]
pub enum DatagenError {
    #[error("cannot use {path}: {source}")]
    File {
        path: String,
        source: std::io::Error,
    },
    #[error("no opening positions")]
    NoOpenings,
}

/// The numbers of the finished games in `path`, after cutting off an
/// unfinished last game. A missing file has none.
pub fn finished_games(path: &Path) -> std::io::Result<HashSet<usize>> {
    let mut done = HashSet::new();
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(done),
        Err(e) => return Err(e),
    };
    let mut reader = BufReader::new(file);
    let mut line = String::new();
    let mut offset = 0u64;
    let mut end_of_last_game = 0u64;
    loop {
        line.clear();
        let n = reader.read_line(&mut line)?;
        if n == 0 {
            break;
        }
        offset += n as u64;
        if let Some(rest) = line.strip_prefix("# game ")
            && line.ends_with('\n')
            && let Ok(i) = rest.trim().parse()
        {
            done.insert(i);
            end_of_last_game = offset;
        }
    }
    if end_of_last_game < offset {
        let f = OpenOptions::new().write(true).open(path)?;
        f.set_len(end_of_last_game)?;
    }
    Ok(done)
}

/// Plays the games of `plan` that `out` does not hold yet, appending
/// them; `progress` hears (games finished in all, games in the plan).
pub fn generate(
    plan: &Plan,
    openings: &[Position],
    out: &Path,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Summary, DatagenError> {
    if openings.is_empty() {
        return Err(DatagenError::NoOpenings);
    }
    let file_error = |source| DatagenError::File {
        path: out.display().to_string(),
        source,
    };
    let done = finished_games(out).map_err(file_error)?;
    let todo: Vec<usize> = (0..plan.games).filter(|i| !done.contains(i)).collect();
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .map_err(file_error)?;
    file.seek(SeekFrom::End(0)).map_err(file_error)?;
    let mut summary = Summary {
        resumed: done.len().min(plan.games),
        ..Summary::default()
    };
    progress(summary.resumed, plan.games);
    let next = AtomicUsize::new(0);
    let (tx, rx) = channel::<(usize, Vec<String>)>();
    let mut failure = None;
    std::thread::scope(|scope| {
        for _ in 0..plan.threads.max(1) {
            let tx = tx.clone();
            let (next, todo) = (&next, &todo);
            scope.spawn(move || {
                let mut engine = Engine::new(Options {
                    level: 10,
                    threads: 1,
                    ..plan.options.clone()
                });
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&i) = todo.get(k) else { break };
                    let lines = play(&mut engine, plan, openings, i);
                    if tx.send((i, lines)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for (i, lines) in rx {
            let mut block = String::new();
            for l in &lines {
                block.push_str(l);
                block.push('\n');
            }
            block.push_str(&format!("# game {i}\n"));
            if let Err(e) = file.write_all(block.as_bytes()).and_then(|_| file.flush()) {
                failure = Some(e);
                // Let the workers end: the receiver is dropped below.
                break;
            }
            summary.played += 1;
            summary.positions += lines.len();
            progress(summary.resumed + summary.played, plan.games);
        }
    });
    match failure {
        Some(e) => Err(file_error(e)),
        None => Ok(summary),
    }
}

/// One game, as the lines of its quiet positions.
fn play(engine: &mut Engine, plan: &Plan, openings: &[Position], i: usize) -> Vec<String> {
    let seed = rng::derive(plan.seed, i as u64);
    let mut chance = rng::Rng::new(seed);
    engine.new_game(seed);
    let limits = Limits {
        nodes: Some(plan.nodes),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    // Random moves can throw a piece away; a start the search finds
    // lopsided is drawn again (the same numbers, so the same game).
    let mut game = Game::new(openings[i % openings.len()]);
    for _ in 0..START_ATTEMPTS {
        game = Game::new(openings[i % openings.len()]);
        let (lo, hi) = plan.random_plies;
        let random = lo + chance.below(hi.saturating_sub(lo) + 1);
        for _ in 0..random {
            let moves = game.position().legal_moves();
            if moves.is_empty() || game.outcome().is_some() {
                break;
            }
            let m = moves[chance.below(moves.len())];
            if game.play(m).is_err() {
                break;
            }
        }
        let pos = *game.position();
        let out = engine.go(&pos, &history(&game), &limits, &stop, &mut |_| {});
        if out.score.abs() <= plan.balance {
            break;
        }
    }
    let mut scored = Vec::new();
    let mut winner: Option<Option<Color>> = None;
    while game.outcome().is_none() && game.moves().len() < plan.max_plies {
        let pos = *game.position();
        let out = engine.go(&pos, &history(&game), &limits, &stop, &mut |_| {});
        let Some(best) = out.best else { break };
        // A forced result found by the search ends the game: playing it
        // out teaches nothing new.
        if out.score.abs() > WIN_BOUND {
            let mover = pos.turn();
            winner = Some(Some(if out.score > 0 { mover } else { !mover }));
            break;
        }
        if is_quiet(&pos) {
            scored.push((pos.to_lfen(), out.score));
        }
        if game.play(best).is_err() {
            break;
        }
    }
    let winner = match winner {
        Some(w) => w,
        None => game.outcome().and_then(|o| o.winner()),
    };
    let result = match winner {
        Some(Color::White) => "1",
        Some(Color::Black) => "0",
        None => "0.5",
    };
    scored
        .into_iter()
        .map(|(lfen, score)| format!("{lfen};{score};{result}"))
        .collect()
}

/// Not in check, nothing to capture or crown, and a move to make.
pub fn is_quiet(pos: &Position) -> bool {
    if pos.is_check() {
        return false;
    }
    let mut noisy = MoveList::new();
    pos.noisy_moves_into(&mut noisy);
    noisy.is_empty() && pos.has_legal_move()
}

#[cfg(test)]
mod tests {
    use super::*;
    use legion_rules::Rules;

    fn plan(games: usize) -> Plan {
        Plan {
            games,
            nodes: 300,
            random_plies: (2, 4),
            max_plies: 40,
            balance: 300,
            threads: 2,
            seed: 7,
            options: Options {
                hash_mb: 1,
                ..Options::default()
            },
        }
    }

    fn games_in(text: &str) -> Vec<(usize, Vec<String>)> {
        let mut out = Vec::new();
        let mut cur = Vec::new();
        for l in text.lines() {
            if let Some(i) = l.strip_prefix("# game ") {
                out.push((i.parse().unwrap(), std::mem::take(&mut cur)));
            } else {
                cur.push(l.to_string());
            }
        }
        assert!(cur.is_empty(), "lines after the last game");
        out.sort();
        out
    }

    #[test]
    fn a_cut_file_resumes_to_the_same_games() {
        let dir = std::env::temp_dir().join(format!("legion-datagen-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let openings = crate::openings::committed(Rules::DEFAULT).unwrap();
        let whole = dir.join("whole.txt");
        let cut = dir.join("cut.txt");
        let _ = std::fs::remove_file(&whole);
        let _ = std::fs::remove_file(&cut);
        let s = generate(&plan(4), &openings, &whole, &mut |_, _| {}).unwrap();
        assert_eq!((s.resumed, s.played), (0, 4));
        let text = std::fs::read_to_string(&whole).unwrap();
        assert_eq!(
            text.lines().filter(|l| !l.starts_with('#')).count(),
            s.positions
        );
        // Every line is a position, a score and a result.
        for l in text.lines().filter(|l| !l.starts_with('#')) {
            let f: Vec<&str> = l.split(';').collect();
            assert_eq!(f.len(), 3, "{l}");
            let pos: Position = f[0].parse().unwrap();
            assert!(is_quiet(&pos));
            assert!(f[1].parse::<i32>().unwrap().abs() <= WIN_BOUND);
            assert!(["1", "0", "0.5"].contains(&f[2]));
        }
        // A crash in the middle of the third game's block.
        let games = games_in(&text);
        let mut partial = String::new();
        for (i, lines) in &games[..2] {
            for l in lines {
                partial.push_str(l);
                partial.push('\n');
            }
            partial.push_str(&format!("# game {i}\n"));
        }
        partial.push_str("rnbkqbnr/m1m1m1m1/1m1m1m1m/8/8/M1M1M1M1/1M1M1M1M/RNBQ");
        std::fs::write(&cut, &partial).unwrap();
        let s = generate(&plan(4), &openings, &cut, &mut |_, _| {}).unwrap();
        assert_eq!((s.resumed, s.played), (2, 2));
        assert_eq!(games_in(&std::fs::read_to_string(&cut).unwrap()), games);
        // Nothing left to do.
        let s = generate(&plan(4), &openings, &cut, &mut |_, _| {}).unwrap();
        assert_eq!((s.resumed, s.played, s.positions), (4, 0, 0));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
