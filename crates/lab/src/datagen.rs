//! Self-play training data for the neural evaluation (`legion datagen`).
//!
//! The engine plays itself from a start (the initial position, or the
//! committed balanced openings), each game first leaving it by a few
//! random legal moves (seeded by the game's number) so that no two games
//! are alike. Every quiet position (not in check, nothing to capture or
//! crown: what the evaluation is asked about) after the first
//! `skip_plies` is written with the search's score, capped, and the
//! game's result; long shuffles scored near 0 can be adjudicated drawn.
//!
//! Two formats (`datafile`): the binary one, fixed 40-byte records, and
//! the first, text:
//!
//! ```text
//! LFEN;score;result
//! # game N
//! ```
//!
//! `score` is the search's score for the side to move, in hundredths of a
//! man; `result` is the game's for White (1, 0.5, 0). In both, a game is
//! written at once, its end (`# game N`, or an end record) last, so a
//! file cut short by a crash ends with at most one unfinished game:
//! resuming drops it and plays every game that has not ended. A resumed
//! file keeps its format. A game depends only on the seed, its number and
//! the plan (a fresh table for each game, one search thread), so a
//! resumed file holds the same games as an uninterrupted one, in another
//! order.

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;

use legion_engine::search::{WIN_BOUND, history};
use legion_engine::{Engine, Limits, Options, rng};
use legion_rules::{Color, Game, MoveList, Position};

use crate::datafile::{self, EncodeError, FormatError};

/// How a data file is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `LFEN;score;result` lines and `# game N` lines.
    Text,
    /// Fixed-size records (`datafile`).
    Binary,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Binary => "binary",
        }
    }
}

/// The format of the data in `path` by its first bytes (the binary
/// magic or not), `None` for a missing or empty file.
pub fn detect(path: &Path) -> std::io::Result<Option<Format>> {
    let mut file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let mut head = [0u8; datafile::HEADER_SIZE];
    let mut n = 0;
    while n < head.len() {
        match file.read(&mut head[n..])? {
            0 => break,
            k => n += k,
        }
    }
    Ok(match n {
        0 => None,
        _ if datafile::looks_binary(&head[..n]) => Some(Format::Binary),
        _ => Some(Format::Text),
    })
}

/// Ends a game early as a draw: still going after `after` plies, with
/// the search's score within `score` of 0 for the last `plies` plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawAdjudication {
    pub after: usize,
    pub plies: usize,
    pub score: i32,
}

/// What to generate.
#[derive(Clone, Debug)]
pub struct Plan {
    pub games: usize,
    /// Nodes searched for each move.
    pub nodes: u64,
    /// Random moves played after the opening position, at least and at most.
    pub random_plies: (usize, usize),
    /// Plies after the random moves whose positions are not written.
    pub skip_plies: usize,
    /// A game still going after this many plies is a draw.
    pub max_plies: usize,
    /// Long shuffles scored near 0 end as draws.
    pub draw_adjudication: Option<DrawAdjudication>,
    /// Scores written are clamped to this many hundredths of a man either
    /// way (the search plays on its own scores).
    pub score_cap: Option<i32>,
    /// A start (after the random moves) the search scores beyond this,
    /// in hundredths of a man, is drawn again.
    pub balance: i32,
    pub threads: usize,
    pub seed: u64,
    /// The format of a new file; `None` keeps an existing file's and
    /// makes a new one binary. Given, it must match an existing file's.
    pub format: Option<Format>,
    /// The engine's options (evaluation, rules); level 10 is forced.
    pub options: Options,
}

/// Random starts drawn before a game is played from a lopsided one.
const START_ATTEMPTS: usize = 20;

/// What `generate` did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Games found finished in the file before this run.
    pub resumed: usize,
    /// Games played by this run.
    pub played: usize,
    /// Positions written by this run.
    pub positions: usize,
    /// Games of this run drawn by the draw adjudication.
    pub adjudicated: usize,
    /// The file's format.
    pub format: Format,
}

#[derive(Debug, thiserror::Error)]
pub enum DatagenError {
    #[error("cannot use {path}: {source}")]
    File {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}: {source}")]
    Data { path: String, source: FormatError },
    #[error("{path} holds {found} data, not {asked}: resume it in its own format")]
    FormatMismatch {
        path: String,
        found: &'static str,
        asked: &'static str,
    },
    #[error("game {game}: {source}")]
    Encode { game: usize, source: EncodeError },
    #[error("no opening positions")]
    NoOpenings,
}

/// The numbers of the finished games in the text file `path`, after
/// cutting off an unfinished last game. A missing file has none.
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

/// The numbers of the finished games in the binary file `path`, after
/// cutting off an unfinished last game; a file cut inside its header (a
/// crash as it was made) is started again.
pub fn finished_binary_games(path: &Path) -> Result<HashSet<usize>, FormatError> {
    let len = std::fs::metadata(path)?.len();
    let mut file = File::open(path)?;
    if len < datafile::HEADER_SIZE as u64 {
        let mut head = Vec::new();
        file.read_to_end(&mut head)?;
        if !datafile::header().starts_with(&head) {
            return Err(datafile::check_header(&head)
                .err()
                .unwrap_or(FormatError::Magic));
        }
        OpenOptions::new().write(true).open(path)?.set_len(0)?;
        return Ok(HashSet::new());
    }
    let scan = datafile::scan(&mut file)?;
    if scan.finished_len < len {
        OpenOptions::new()
            .write(true)
            .open(path)?
            .set_len(scan.finished_len)?;
    }
    // Game numbers come from `usize` when written.
    Ok(scan.games.into_iter().map(|g| g as usize).collect())
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
    let path = out.display().to_string();
    let file_error = |source| DatagenError::File {
        path: path.clone(),
        source,
    };
    let found = detect(out).map_err(file_error)?;
    let format = match (found, plan.format) {
        (Some(f), Some(asked)) if f != asked => {
            return Err(DatagenError::FormatMismatch {
                path,
                found: f.name(),
                asked: asked.name(),
            });
        }
        (Some(f), _) => f,
        (None, asked) => asked.unwrap_or(Format::Binary),
    };
    let done = match format {
        Format::Text => finished_games(out).map_err(file_error)?,
        Format::Binary if found.is_none() => HashSet::new(),
        Format::Binary => finished_binary_games(out).map_err(|source| DatagenError::Data {
            path: path.clone(),
            source,
        })?,
    };
    let todo: Vec<usize> = (0..plan.games).filter(|i| !done.contains(i)).collect();
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .map_err(file_error)?;
    let end = file.seek(SeekFrom::End(0)).map_err(file_error)?;
    if format == Format::Binary && end == 0 {
        file.write_all(&datafile::header())
            .and_then(|_| file.flush())
            .map_err(file_error)?;
    }
    let mut summary = Summary {
        resumed: done.len().min(plan.games),
        played: 0,
        positions: 0,
        adjudicated: 0,
        format,
    };
    progress(summary.resumed, plan.games);
    let next = AtomicUsize::new(0);
    let (tx, rx) = channel::<(usize, Played)>();
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
                    let game = play(&mut engine, plan, openings, i);
                    if tx.send((i, game)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for (i, game) in rx {
            let block = match format {
                Format::Text => Ok(datafile::text_block(i as u64, &game.positions, game.winner)),
                Format::Binary => datafile::encode_game(i as u64, &game.positions, game.winner)
                    .map_err(|source| DatagenError::Encode { game: i, source }),
            };
            let written = block.and_then(|b| {
                file.write_all(&b)
                    .and_then(|_| file.flush())
                    .map_err(file_error)
            });
            if let Err(e) = written {
                failure = Some(e);
                // Let the workers end: the receiver is dropped below.
                break;
            }
            summary.played += 1;
            summary.positions += game.positions.len();
            summary.adjudicated += usize::from(game.adjudicated);
            progress(summary.resumed + summary.played, plan.games);
        }
    });
    match failure {
        Some(e) => Err(e),
        None => Ok(summary),
    }
}

/// One game played: its quiet positions with their (capped) scores, and
/// who won.
struct Played {
    positions: Vec<(Position, i32)>,
    winner: Option<Color>,
    /// Drawn by the draw adjudication.
    adjudicated: bool,
}

/// One game.
fn play(engine: &mut Engine, plan: &Plan, openings: &[Position], i: usize) -> Played {
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
    let first_written = game.moves().len() + plan.skip_plies;
    let mut scored = Vec::new();
    let mut winner: Option<Option<Color>> = None;
    // Plies in a row scored within the adjudication's bound.
    let mut level_plies = 0;
    let mut adjudicated = false;
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
        if game.moves().len() >= first_written && is_quiet(&pos) {
            let score = match plan.score_cap {
                Some(cap) => out.score.clamp(-cap, cap),
                None => out.score,
            };
            scored.push((pos, score));
        }
        if let Some(d) = plan.draw_adjudication {
            level_plies = if out.score.abs() <= d.score {
                level_plies + 1
            } else {
                0
            };
            if game.moves().len() >= d.after && level_plies >= d.plies {
                winner = Some(None);
                adjudicated = true;
                break;
            }
        }
        if game.play(best).is_err() {
            break;
        }
    }
    let winner = match winner {
        Some(w) => w,
        None => game.outcome().and_then(|o| o.winner()),
    };
    Played {
        positions: scored,
        winner,
        adjudicated,
    }
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
            skip_plies: 0,
            max_plies: 40,
            draw_adjudication: None,
            score_cap: None,
            balance: 300,
            threads: 2,
            seed: 7,
            format: Some(Format::Text),
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

    /// The games of a file of either format as text lines, by number.
    fn games_of(path: &Path) -> Vec<(usize, Vec<String>)> {
        let file = BufReader::new(File::open(path).unwrap());
        let mut out = Vec::new();
        datafile::read_games(file, &mut |n, samples| {
            let lines = samples
                .iter()
                .map(|s| {
                    let r = match s.winner {
                        Some(Color::White) => "1",
                        Some(Color::Black) => "0",
                        None => "0.5",
                    };
                    format!("{};{};{r}", s.position.to_lfen(), s.score)
                })
                .collect();
            out.push((n as usize, lines));
        })
        .unwrap();
        out.sort();
        out
    }

    struct Dir(std::path::PathBuf);

    impl Dir {
        fn new(name: &str) -> Dir {
            let d = std::env::temp_dir().join(format!("legion-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&d);
            std::fs::create_dir_all(&d).unwrap();
            Dir(d)
        }
    }

    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn a_cut_file_resumes_to_the_same_games() {
        let dir = Dir::new("datagen-text");
        let openings = crate::openings::committed(Rules::DEFAULT).unwrap();
        let whole = dir.0.join("whole.txt");
        let cut = dir.0.join("cut.txt");
        let s = generate(&plan(4), &openings, &whole, &mut |_, _| {}).unwrap();
        assert_eq!((s.resumed, s.played, s.format), (0, 4, Format::Text));
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
        // Resumed without a format named: the file's own, text.
        let resume = Plan {
            format: None,
            ..plan(4)
        };
        let s = generate(&resume, &openings, &cut, &mut |_, _| {}).unwrap();
        assert_eq!((s.resumed, s.played, s.format), (2, 2, Format::Text));
        assert_eq!(games_in(&std::fs::read_to_string(&cut).unwrap()), games);
        // Nothing left to do.
        let s = generate(&plan(4), &openings, &cut, &mut |_, _| {}).unwrap();
        assert_eq!((s.resumed, s.played, s.positions), (4, 0, 0));
        // Another format than the file's is refused, not mixed in.
        let asked = Plan {
            format: Some(Format::Binary),
            ..plan(5)
        };
        let e = generate(&asked, &openings, &cut, &mut |_, _| {}).unwrap_err();
        assert!(matches!(e, DatagenError::FormatMismatch { .. }), "{e}");
        assert_eq!(games_in(&std::fs::read_to_string(&cut).unwrap()), games);
    }

    #[test]
    fn binary_files_hold_the_text_games_and_resume_after_a_crash() {
        let dir = Dir::new("datagen-binary");
        let openings = crate::openings::committed(Rules::DEFAULT).unwrap();
        let text = dir.0.join("games.txt");
        let bin = dir.0.join("games.bin");
        generate(&plan(4), &openings, &text, &mut |_, _| {}).unwrap();
        let binary = Plan {
            format: None,
            ..plan(4)
        };
        let s = generate(&binary, &openings, &bin, &mut |_, _| {}).unwrap();
        assert_eq!((s.played, s.format), (4, Format::Binary));
        assert_eq!(detect(&bin).unwrap(), Some(Format::Binary));
        let games = games_of(&text);
        assert_eq!(games.len(), 4);
        assert_eq!(games_of(&bin), games);
        let bytes = std::fs::read(&bin).unwrap();
        assert_eq!(
            bytes.len(),
            datafile::HEADER_SIZE + (s.positions + 4) * datafile::RECORD_SIZE
        );
        // A crash inside the last game written, in the middle of a record.
        let scan = datafile::scan(&mut &bytes[..]).unwrap();
        let last = *scan.games.last().unwrap() as usize;
        let last_len = games.iter().find(|g| g.0 == last).unwrap().1.len();
        let cut_at = bytes.len() - datafile::RECORD_SIZE - last_len * datafile::RECORD_SIZE / 2;
        std::fs::write(&bin, &bytes[..cut_at]).unwrap();
        let s = generate(&binary, &openings, &bin, &mut |_, _| {}).unwrap();
        assert_eq!((s.resumed, s.played, s.format), (3, 1, Format::Binary));
        assert_eq!(games_of(&bin), games);
        // A crash while the header was written: started again.
        std::fs::write(&bin, &datafile::header()[..5]).unwrap();
        let s = generate(&binary, &openings, &bin, &mut |_, _| {}).unwrap();
        assert_eq!((s.resumed, s.played), (0, 4));
        assert_eq!(games_of(&bin), games);
        // A file of another version is refused with the reason.
        let mut v2 = std::fs::read(&bin).unwrap();
        v2[8] = 2;
        std::fs::write(&bin, &v2).unwrap();
        let e = generate(&binary, &openings, &bin, &mut |_, _| {}).unwrap_err();
        assert!(e.to_string().contains("version 2"), "{e}");
        assert_eq!(std::fs::read(&bin).unwrap(), v2);
    }

    /// Positions the plan writes, with the ply each stands at.
    fn written(plan: &Plan, openings: &[Position]) -> Vec<(usize, Vec<datafile::Sample>)> {
        let dir = Dir::new(&format!("datagen-settings-{}", plan.skip_plies));
        let out = dir.0.join("d.bin");
        let p = Plan {
            format: Some(Format::Binary),
            ..plan.clone()
        };
        generate(&p, openings, &out, &mut |_, _| {}).unwrap();
        let mut games = Vec::new();
        datafile::read_games(BufReader::new(File::open(&out).unwrap()), &mut |n, s| {
            games.push((n as usize, s))
        })
        .unwrap();
        games.sort_by_key(|g| g.0);
        games
    }

    fn ply(pos: &Position) -> usize {
        2 * (pos.fullmove_number() as usize - 1) + usize::from(pos.turn() == Color::Black)
    }

    #[test]
    fn random_moves_from_ply_one_skipped_plies_caps_and_draw_adjudication() {
        // From the initial position (ply 0) with exactly 4 random moves,
        // the games start at ply 4; skipping 6 plies writes nothing
        // before ply 10.
        let initial = [Position::initial()];
        let base = Plan {
            random_plies: (4, 4),
            max_plies: 30,
            ..plan(3)
        };
        let all = written(&base, &initial);
        assert!(all.iter().flat_map(|g| &g.1).all(|s| ply(&s.position) >= 4));
        assert!(all.iter().flat_map(|g| &g.1).any(|s| ply(&s.position) < 10));
        let skipped = written(
            &Plan {
                skip_plies: 6,
                ..base.clone()
            },
            &initial,
        );
        for ((n, a), (m, b)) in all.iter().zip(&skipped) {
            assert_eq!(n, m);
            // The same games, less their first plies.
            let kept: Vec<_> = a.iter().filter(|s| ply(&s.position) >= 10).collect();
            assert_eq!(kept, b.iter().collect::<Vec<_>>());
        }
        // Capped scores: the same positions, scores clamped to 50.
        let capped = written(
            &Plan {
                score_cap: Some(50),
                ..base.clone()
            },
            &initial,
        );
        for ((_, a), (_, b)) in all.iter().zip(&capped) {
            assert_eq!(a.len(), b.len());
            for (x, y) in a.iter().zip(b) {
                assert_eq!((x.position, x.score.clamp(-50, 50)), (y.position, y.score));
            }
        }
        assert!(all.iter().flat_map(|g| &g.1).any(|s| s.score.abs() > 50));
        // Any score is "near 0" and one ply is enough after ply 0: every
        // game is drawn at its first search, one position at most.
        let drawn = written(
            &Plan {
                draw_adjudication: Some(DrawAdjudication {
                    after: 0,
                    plies: 1,
                    score: i32::MAX,
                }),
                ..base
            },
            &initial,
        );
        assert_eq!(drawn.len(), 3);
        let dir = Dir::new("datagen-adjudicated");
        let s = generate(
            &Plan {
                draw_adjudication: Some(DrawAdjudication {
                    after: 0,
                    plies: 1,
                    score: i32::MAX,
                }),
                ..plan(3)
            },
            &initial,
            &dir.0.join("a.txt"),
            &mut |_, _| {},
        )
        .unwrap();
        assert_eq!(s.adjudicated, 3);
        for (_, g) in &drawn {
            assert!(g.len() <= 1);
            assert!(
                g.iter()
                    .all(|s| s.winner.is_none() && ply(&s.position) == 4)
            );
        }
    }
}
