//! The UCI-style text protocol (docs/PROTOCOL.md): commands on one input,
//! answers on one output. Searches run on their own thread so `stop` and
//! `isready` are answered at once. Nothing here panics on bad input: every
//! malformed command gets an `info string error: ...` line.
//!
//! Nothing is locked: answers go through a channel to the one thread that
//! writes them, and a search owns what it needs (`engine::Job`), so no
//! failure on one thread can leave the others a poisoned lock.

use std::any::Any;
use std::io::{self, BufRead, Write};
use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;
use std::time::Duration;

use legion_rules::notation::{MoveParseError, canonical, parse_move};
use legion_rules::{INITIAL_LFEN, LfenError, Move, Position, Rules};

use crate::engine::{Engine, Job};
use crate::eval;
use crate::nnue::{LoadError, NetError};
use crate::search::{Info, Limits, score_text};

mod options;

use options::{OPTIONS, Settings, UciOption};

pub const NAME: &str = concat!("Legion ", env!("CARGO_PKG_VERSION"));

/// Why a command was refused, or a search failed. The protocol prints each
/// as one line, `info string error: <message>` (docs/PROTOCOL.md); the
/// messages of positions and moves start with the rule of RULES.md they
/// break.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProtocolError {
    /// A line that is not UTF-8.
    #[error("a command that is not UTF-8 ({0})")]
    NotUtf8(#[from] std::str::Utf8Error),
    /// A first word that is no command.
    #[error("unknown command '{0}' (see docs/PROTOCOL.md)")]
    UnknownCommand(String),
    /// `ucinewgame` with a seed that is not a whole number.
    #[error("ucinewgame takes a whole number seed, not '{0}'")]
    BadSeed(String),
    /// `ucinewgame` with more than one word after it.
    #[error("ucinewgame takes at most one seed")]
    TooManySeeds,
    /// `setoption` without `name`.
    #[error("setoption needs: setoption name <Name> value <value>")]
    SetoptionSyntax,
    /// An option the engine does not have.
    #[error("unknown option '{0}'")]
    UnknownOption(String),
    /// A spin option's value: not a whole number, or out of its bounds.
    #[error("option {option} takes a whole number from {min} to {max}, not '{value}'")]
    BadNumber {
        /// The option as the engine names it.
        option: &'static str,
        min: usize,
        max: usize,
        /// The value as written.
        value: String,
    },
    /// `setoption name EvalFile` with a file that is not a network this
    /// engine reads.
    #[error("option EvalFile: {0}")]
    EvalFile(LoadError),
    /// `setoption name EndgamePath` with a folder that cannot be listed.
    #[error("option EndgamePath: {0}")]
    EndgamePath(crate::endgames::TableError),
    /// A check or combo option's value that is none of its choices.
    #[error("option {option} takes {choices}, not '{value}'")]
    BadChoice {
        /// The option as the engine names it.
        option: &'static str,
        /// Its values, for people: "true or false".
        choices: String,
        /// The value as written.
        value: String,
    },
    /// `Eval nnue` when the network built into the binary does not load
    /// (a broken build; `the_embedded_network_loads` guards against it).
    #[error("option Eval: the network built into this binary does not load: {0}")]
    BuiltInNetwork(NetError),
    /// `position` with neither `startpos` nor `lfen <LFEN>`.
    #[error("position needs: position startpos [moves ...] or position lfen <LFEN> [moves ...]")]
    PositionSyntax,
    /// 6.2: the position's LFEN does not read.
    #[error("invalid LFEN: {0}")]
    Lfen(#[from] LfenError),
    /// A move of the game that does not parse or is not legal there.
    #[error("move {number} '{text}': {source}")]
    Move {
        /// Its number in the game's moves, from 1.
        number: usize,
        /// The move as written.
        text: String,
        source: MoveParseError,
    },
    /// A `go` parameter without its number.
    #[error("go {0} needs a number")]
    MissingNumber(String),
    /// A `go` parameter whose value is not a whole number.
    #[error("go {key} needs a whole number, not '{value}'")]
    GoNumber {
        /// The parameter.
        key: String,
        /// The value as written.
        value: String,
    },
    /// A word of `go` that is no parameter.
    #[error("unknown go parameter '{0}'")]
    UnknownGoParameter(String),
    /// A move after `go searchmoves` that is not legal.
    #[error("go searchmoves '{text}': {source}")]
    SearchMove {
        /// The move as written.
        text: String,
        source: MoveParseError,
    },
    /// `go` while a search runs.
    #[error("already searching; send stop first")]
    AlreadySearching,
    /// The search panicked (a bug); the message is the panic's.
    #[error("the search failed: {0}")]
    SearchFailed(String),
    /// The search's thread failed outside the search (a bug).
    #[error("the search thread failed: {0}")]
    SearchThreadFailed(String),
}

impl ProtocolError {
    /// The number of the rule of RULES.md the error is about, if any: that
    /// of the LFEN or the move.
    pub fn rule(&self) -> Option<&'static str> {
        match self {
            ProtocolError::Lfen(e) => Some(e.rule()),
            ProtocolError::Move { source, .. } | ProtocolError::SearchMove { source, .. } => {
                Some(source.rule())
            }
            _ => None,
        }
    }
}

/// Where answers go: a line sent here is written and flushed by the
/// writer thread, in the order sent.
#[derive(Clone)]
struct Out(Sender<String>);

/// The writer thread: writes each line and flushes it, until every sender
/// is gone or a write fails (the reader went away); the error is `run`'s.
fn writer(mut output: Box<dyn Write + Send>) -> (Out, JoinHandle<io::Result<()>>) {
    let (tx, rx) = channel::<String>();
    let thread = std::thread::spawn(move || {
        for line in rx {
            writeln!(output, "{line}")?;
            output.flush()?;
        }
        Ok(())
    });
    (Out(tx), thread)
}

fn say(out: &Out, line: &str) {
    // A send fails only once the writer has stopped on a write error,
    // which `run` reports; there is no one left to tell.
    let _ = out.0.send(line.to_string());
}

/// The error line of `e`.
fn error(out: &Out, e: &ProtocolError) {
    say(out, &format!("info string error: {e}"));
}

/// The error line of `e`, and what the engine did about it.
fn error_then(out: &Out, e: &ProtocolError, then: &str) {
    say(out, &format!("info string error: {e}; {then}"));
}

/// The message of a panic, for the error line that reports it.
fn panic_text(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".to_string()
    }
}

/// The game as the protocol last set it.
#[derive(Clone)]
struct Game {
    start: String,
    moves: Vec<String>,
}

struct Session {
    out: Out,
    engine: Engine,
    /// The options as `setoption` last set them.
    settings: Settings,
    game: Game,
    stop: Arc<AtomicBool>,
    search: Option<JoinHandle<()>>,
    /// The running search has given (or is giving) its answer: a `go` may
    /// follow at once, though its thread has not quite ended.
    answered: Arc<AtomicBool>,
    /// The running search waits for `stop`.
    infinite: bool,
    /// The running search ponders (`go ponder`): it waits for `ponderhit`
    /// or `stop`, then has `ponder_time` (if its clock gave any).
    pondering: Arc<AtomicBool>,
    ponder_time: Option<Duration>,
    /// Wakes the running search's thread when it waits to answer (for
    /// `stop`, or `ponderhit`): it re-reads `stop` and `pondering`.
    wake: Option<Sender<()>>,
}

/// Reads commands until `quit` or the end of input. A line that is not
/// UTF-8 is a malformed command; an input or output that fails ends the
/// session with that error.
pub fn run(mut input: impl BufRead, output: Box<dyn Write + Send>) -> io::Result<()> {
    let (out, written) = writer(output);
    let mut s = Session::new(out);
    let mut quit = false;
    let mut failure = None;
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        match input.read_until(b'\n', &mut bytes) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => {
                failure = Some(e);
                break;
            }
        }
        match std::str::from_utf8(&bytes) {
            Ok(line) => {
                if !s.command(line.trim()) {
                    quit = true;
                    break;
                }
            }
            Err(e) => error(&s.out, &ProtocolError::NotUtf8(e)),
        }
        if written.is_finished() {
            // The output failed: nobody reads the answers any more.
            quit = true;
            break;
        }
    }
    // `quit` stops at once; the end of input lets a bounded search finish,
    // so that `echo "go depth 8" | legion uci` answers.
    if quit || failure.is_some() || s.infinite || s.pondering.load(Ordering::Relaxed) {
        s.finish_search();
    } else {
        s.join_search();
    }
    drop(s);
    let written = match written.join() {
        Ok(result) => result,
        Err(p) => Err(io::Error::other(format!(
            "the output thread failed: {}",
            panic_text(&*p)
        ))),
    };
    match failure {
        Some(e) => Err(e),
        None => written,
    }
}

impl Session {
    /// A session at the initial position with the default options.
    fn new(out: Out) -> Session {
        let settings = Settings::default();
        Session {
            out,
            engine: Engine::new(settings.engine.clone()),
            settings,
            game: Game {
                start: INITIAL_LFEN.to_string(),
                moves: Vec::new(),
            },
            stop: Arc::new(AtomicBool::new(false)),
            search: None,
            answered: Arc::new(AtomicBool::new(false)),
            infinite: false,
            pondering: Arc::new(AtomicBool::new(false)),
            ponder_time: None,
            wake: None,
        }
    }

    /// Handles one command; false on `quit`.
    fn command(&mut self, line: &str) -> bool {
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else { return true };
        let rest: Vec<&str> = words.collect();
        match cmd {
            "uci" => self.uci(),
            "isready" => say(&self.out, "readyok"),
            "ucinewgame" => {
                self.finish_search();
                match self.seed_from(&rest) {
                    Ok(seed) => {
                        self.engine.new_game(seed);
                        self.game = Game {
                            start: INITIAL_LFEN.to_string(),
                            moves: Vec::new(),
                        };
                    }
                    Err(e) => error(&self.out, &e),
                }
            }
            "setoption" => {
                self.finish_search();
                self.setoption(&rest);
            }
            "position" => {
                self.finish_search();
                self.position(&rest);
            }
            "go" => self.go(&rest),
            "stop" => self.finish_search(),
            "ponderhit" => self.ponderhit(),
            "quit" => return false,
            "show" | "d" => self.show(),
            "eval" => self.eval(),
            _ => error(&self.out, &ProtocolError::UnknownCommand(cmd.to_string())),
        }
        true
    }

    /// The seed `ucinewgame` names, or one from the last game's length.
    fn seed_from(&self, rest: &[&str]) -> Result<u64, ProtocolError> {
        match rest {
            [] => Ok(0x5EED_0000 ^ self.game.moves.len() as u64),
            [seed] => seed
                .parse()
                .map_err(|_| ProtocolError::BadSeed(seed.to_string())),
            _ => Err(ProtocolError::TooManySeeds),
        }
    }

    fn uci(&self) {
        say(&self.out, &format!("id name {NAME}"));
        say(&self.out, "id author The Legion developers");
        for option in OPTIONS {
            say(&self.out, &option.line());
        }
        say(&self.out, "uciok");
    }

    fn rules(&self) -> Rules {
        self.settings.engine.rules
    }

    /// Replays the current game; an error names the failing move.
    fn replay(&self, game: &Game) -> Result<(Position, Vec<u64>), ProtocolError> {
        let mut pos = Position::from_lfen(&game.start, self.rules())?;
        let mut history = Vec::with_capacity(game.moves.len());
        for (i, text) in game.moves.iter().enumerate() {
            let m = parse_move(&pos, text).map_err(|source| ProtocolError::Move {
                number: i + 1,
                text: text.clone(),
                source,
            })?;
            history.push(pos.hash());
            pos.play(m);
        }
        Ok((pos, history))
    }

    fn setoption(&mut self, rest: &[&str]) {
        // setoption name <Name> [value <v>]
        let Some(name_at) = rest.iter().position(|w| *w == "name") else {
            return error(&self.out, &ProtocolError::SetoptionSyntax);
        };
        // `value` after the name (one before it would leave no name).
        let value_at = rest[name_at + 1..]
            .iter()
            .position(|w| *w == "value")
            .map(|i| name_at + 1 + i);
        let name = rest[name_at + 1..value_at.unwrap_or(rest.len())].join(" ");
        let value = value_at
            .map(|v| rest[v + 1..].join(" "))
            .unwrap_or_default();
        let Some(option) = UciOption::find(&name) else {
            return error(&self.out, &ProtocolError::UnknownOption(name));
        };
        let mut settings = self.settings.clone();
        if let Err(e) = option.set(&mut settings, &value) {
            return error(&self.out, &e);
        }
        let rules_changed = settings.engine.rules != self.settings.engine.rules;
        self.engine.set_options(settings.engine.clone());
        self.settings = settings;
        if rules_changed && let Err(e) = self.replay(&self.game) {
            error_then(&self.out, &e, "back to the initial position");
            self.game = Game {
                start: INITIAL_LFEN.to_string(),
                moves: Vec::new(),
            };
        }
    }

    fn position(&mut self, rest: &[&str]) {
        let moves_at = rest.iter().position(|w| *w == "moves");
        let (setup, moves) = match moves_at {
            Some(i) => (&rest[..i], &rest[i + 1..]),
            None => (rest, &[][..]),
        };
        let start = match setup.first() {
            Some(&"startpos") if setup.len() == 1 => INITIAL_LFEN.to_string(),
            Some(&"lfen") | Some(&"fen") if setup.len() > 1 => setup[1..].join(" "),
            _ => {
                return error(&self.out, &ProtocolError::PositionSyntax);
            }
        };
        let game = Game {
            start,
            moves: moves.iter().map(|m| m.to_string()).collect(),
        };
        match self.replay(&game) {
            Ok(_) => self.game = game,
            Err(e) => error_then(&self.out, &e, "position unchanged"),
        }
    }

    fn go(&mut self, rest: &[&str]) {
        if self.search.as_ref().is_some_and(|h| !h.is_finished())
            && !self.answered.load(Ordering::SeqCst)
        {
            return error(&self.out, &ProtocolError::AlreadySearching);
        }
        self.finish_search();
        let (mut limits, pos, history, ponder) = match self.read_go(rest) {
            Ok(request) => request,
            Err(e) => return error(&self.out, &e),
        };
        // Each search its own flags: a timer of an old search cannot stop
        // a new one.
        self.stop = Arc::new(AtomicBool::new(false));
        self.pondering = Arc::new(AtomicBool::new(ponder));
        self.infinite = limits.infinite;
        self.ponder_time = None;
        if ponder {
            // No clock while pondering; the clock's share from `ponderhit` on.
            self.ponder_time = crate::search::time::aim(&limits, pos.turn());
            limits = Limits {
                movetime: None,
                wtime: None,
                btime: None,
                winc: None,
                binc: None,
                movestogo: None,
                infinite: true,
                ..limits
            };
        }
        let (wake, woken) = channel();
        self.wake = Some(wake);
        self.answered = Arc::new(AtomicBool::new(false));
        let search = Search {
            job: self.engine.job(&limits),
            pos,
            history,
            out: self.out.clone(),
            multipv: self.settings.multipv,
            name_reply: self.settings.ponder,
            wait_for_stop: self.infinite,
            stop: self.stop.clone(),
            pondering: self.pondering.clone(),
            woken,
            answered: self.answered.clone(),
        };
        self.search = Some(std::thread::spawn(move || search.run()));
    }

    /// What `go` asks: its limits (`searchmoves` among them), the position
    /// searched and the hashes before it, and whether to ponder.
    fn read_go(&self, rest: &[&str]) -> Result<(Limits, Position, Vec<u64>, bool), ProtocolError> {
        // `ponder`: search on the opponent's time, as if it had played the
        // last move of the position, until `ponderhit` or `stop`.
        let ponder = rest.contains(&"ponder");
        let rest: Vec<&str> = rest.iter().copied().filter(|w| *w != "ponder").collect();
        // `searchmoves` takes the moves after it, up to the next keyword.
        let at = rest.iter().position(|w| *w == "searchmoves");
        let (words, searched): (Vec<&str>, Vec<&str>) = match at {
            None => (rest.clone(), Vec::new()),
            Some(i) => {
                let end = rest[i + 1..]
                    .iter()
                    .position(|w| GO_KEYWORDS.contains(w))
                    .map_or(rest.len(), |j| i + 1 + j);
                let mut words = rest[..i].to_vec();
                words.extend_from_slice(&rest[end..]);
                (words, rest[i + 1..end].to_vec())
            }
        };
        let mut limits = parse_go(&words)?;
        let (pos, history) = self.replay(&self.game)?;
        for text in searched {
            let m = parse_move(&pos, text).map_err(|source| ProtocolError::SearchMove {
                text: text.to_string(),
                source,
            })?;
            limits.searchmoves.push(m);
        }
        Ok((limits, pos, history, ponder))
    }

    /// The opponent played the move pondered on: the search goes on as a
    /// normal one, with the clock's share from now on.
    fn ponderhit(&mut self) {
        if !self.pondering.swap(false, Ordering::SeqCst) {
            return;
        }
        self.wake_search();
        if let Some(t) = self.ponder_time {
            let stop = self.stop.clone();
            let wake = self.wake.clone();
            // The clock's share, a time to let pass (not a condition to
            // poll for): then the search stops as `stop` would stop it.
            std::thread::spawn(move || {
                std::thread::sleep(t);
                stop.store(true, Ordering::SeqCst);
                if let Some(wake) = wake {
                    let _ = wake.send(());
                }
            });
        }
    }

    /// Stops a running search and waits for its `bestmove`.
    fn finish_search(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        self.wake_search();
        self.join_search();
    }

    /// Has the running search's thread re-read its flags, if it waits.
    fn wake_search(&self) {
        if let Some(wake) = &self.wake {
            // Fails only once the thread has answered and gone: nothing
            // waits.
            let _ = wake.send(());
        }
    }

    /// Waits for the running search, if any, to answer.
    fn join_search(&mut self) {
        if let Some(h) = self.search.take()
            && let Err(p) = h.join()
        {
            let why = panic_text(&*p);
            error(&self.out, &ProtocolError::SearchThreadFailed(why));
        }
    }

    fn show(&self) {
        match self.replay(&self.game) {
            Ok((pos, _)) => {
                say(&self.out, &format!("info string lfen {}", pos.to_lfen()));
                say(
                    &self.out,
                    &format!(
                        "info string level {}",
                        crate::Level::get(self.settings.engine.level).describe()
                    ),
                );
            }
            Err(e) => error(&self.out, &e),
        }
    }

    fn eval(&self) {
        match self.replay(&self.game) {
            Ok((pos, _)) => {
                let o = &self.settings.engine;
                let v = match &o.net {
                    Some(net) => net.evaluate(&pos),
                    None => eval::evaluate(&pos, &o.weights),
                };
                say(
                    &self.out,
                    &format!("info string eval {v} (side to move, {})", o.eval_name),
                );
            }
            Err(e) => error(&self.out, &e),
        }
    }
}

/// A search on its own thread, with what it needs to answer.
struct Search {
    job: Job,
    pos: Position,
    history: Vec<u64>,
    out: Out,
    multipv: usize,
    /// `bestmove` names the reply expected (the Ponder option).
    name_reply: bool,
    /// `go infinite`: the answer waits for `stop`.
    wait_for_stop: bool,
    stop: Arc<AtomicBool>,
    /// `go ponder` until `ponderhit`: the answer waits.
    pondering: Arc<AtomicBool>,
    /// A message each time `stop` or `pondering` changes.
    woken: Receiver<()>,
    /// Set before the answer is out: whoever reads it may send `go`.
    answered: Arc<AtomicBool>,
}

impl Search {
    fn run(self) {
        let Search {
            job,
            pos,
            history,
            out,
            stop,
            ..
        } = &self;
        let searched = panic::catch_unwind(AssertUnwindSafe(|| {
            if self.multipv > 1 {
                let lines = job.lines(pos, history, stop, self.multipv);
                for (k, o) in lines.iter().enumerate() {
                    say(out, &multipv_line(pos, k + 1, o));
                }
                match lines.into_iter().next() {
                    Some(o) => Some((o.best, o.pv)),
                    // Stopped before any line completed a depth: the
                    // answer is what `go` would give (its first move).
                    None => Some(first_move(pos, &job.limits().searchmoves)),
                }
            } else {
                let mut report = |i: &Info| say(out, &info_line(pos, i));
                let o = job.go(pos, history, stop, &mut report);
                Some((o.best, o.pv))
            }
        }));
        let best = match searched {
            Ok(best) => best,
            Err(p) => {
                // A bug; the position and table are still sound.
                self.answered.store(true, Ordering::SeqCst);
                return error(out, &ProtocolError::SearchFailed(panic_text(&*p)));
            }
        };
        self.wait_to_answer();
        let (best, pv) = best.unwrap_or_default();
        self.answered.store(true, Ordering::SeqCst);
        match best {
            Some(m) => {
                let mut line = format!("bestmove {}", canonical(pos, m));
                // The reply expected, from the line the search found.
                let mut after = *pos;
                if self.name_reply && pv.len() > 1 && pv[0] == m {
                    after.play_unchecked(m);
                    line += &format!(" ponder {}", canonical(&after, pv[1]));
                }
                say(out, &line);
            }
            None => say(out, "bestmove (none)"),
        }
    }

    /// `infinite` waits for `stop` before answering; pondering for
    /// `ponderhit` or `stop`. The session sends a wake-up after it changes
    /// either flag, so the flags are re-read only when they may have
    /// changed.
    fn wait_to_answer(&self) {
        while (self.wait_for_stop || self.pondering.load(Ordering::SeqCst))
            && !self.stop.load(Ordering::SeqCst)
        {
            if self.woken.recv().is_err() {
                // The session is gone: no `stop` can come.
                return;
            }
        }
    }
}

/// The move a search that completed no depth answers with: the first
/// legal one (of `searchmoves`, when given), unsearched.
fn first_move(pos: &Position, searchmoves: &[Move]) -> (Option<Move>, Vec<Move>) {
    let first = pos
        .legal_moves()
        .into_iter()
        .find(|m| searchmoves.is_empty() || searchmoves.contains(m));
    (first, first.into_iter().collect())
}

/// The words of `go` that take a value or stand alone.
const GO_KEYWORDS: &[&str] = &[
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "infinite",
];

/// One line of a MultiPV search: `info multipv K depth .. score .. nodes .. pv ..`.
pub fn multipv_line(pos: &Position, k: usize, o: &crate::Outcome) -> String {
    format!(
        "info multipv {k} depth {} score {} nodes {} time {} pv {}",
        o.depth,
        score_text(o.score),
        o.nodes,
        o.time.as_millis(),
        pv_text(pos, &o.pv)
    )
}

/// `go [depth N] [nodes N] [movetime MS] [wtime MS] [btime MS] [winc MS]
/// [binc MS] [movestogo N] [infinite]` (`searchmoves` is read by `go`,
/// which knows the position).
pub fn parse_go(words: &[&str]) -> Result<Limits, ProtocolError> {
    let mut l = Limits::default();
    let mut i = 0;
    while i < words.len() {
        let key = words[i];
        if key == "infinite" {
            l.infinite = true;
            i += 1;
            continue;
        }
        let value = words
            .get(i + 1)
            .ok_or_else(|| ProtocolError::MissingNumber(key.to_string()))?;
        let n: u64 = value.parse().map_err(|_| ProtocolError::GoNumber {
            key: key.to_string(),
            value: value.to_string(),
        })?;
        let ms = Some(Duration::from_millis(n));
        match key {
            "depth" => l.depth = Some(n.clamp(1, 90) as i32),
            "nodes" => l.nodes = Some(n.max(1)),
            "movetime" => l.movetime = ms,
            "wtime" => l.wtime = ms,
            "btime" => l.btime = ms,
            "winc" => l.winc = ms,
            "binc" => l.binc = ms,
            "movestogo" => l.movestogo = Some(n.clamp(1, 1000) as u32),
            _ => return Err(ProtocolError::UnknownGoParameter(key.to_string())),
        }
        i += 2;
    }
    Ok(l)
}

/// `info depth .. seldepth .. score .. nodes .. nps .. time .. hashfull .. pv ..`
pub fn info_line(pos: &Position, i: &Info) -> String {
    let ms = i.time.as_millis().max(1);
    let nps = i.nodes as u128 * 1000 / ms;
    format!(
        "info depth {} seldepth {} score {} nodes {} nps {} time {} hashfull {} pv {}",
        i.depth,
        i.seldepth,
        score_text(i.score),
        i.nodes,
        nps,
        i.time.as_millis(),
        i.hashfull,
        pv_text(pos, &i.pv)
    )
}

/// A principal variation in canonical moves, replayed from `pos`.
pub fn pv_text(pos: &Position, pv: &[Move]) -> String {
    let mut p = *pos;
    let mut words = Vec::with_capacity(pv.len());
    for &m in pv {
        if !p.is_legal(m) {
            break;
        }
        words.push(canonical(&p, m));
        p.play(m);
    }
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// An output the test can read after `run`.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, b: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn session(input: &[u8]) -> (io::Result<()>, Vec<String>) {
        let out = Shared::default();
        let result = run(input, Box::new(out.clone()));
        let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        (result, text.lines().map(str::to_string).collect())
    }

    #[test]
    fn answers_in_order_and_searches() {
        let (result, lines) = session(b"uci\nisready\nposition startpos\ngo depth 2\n");
        result.unwrap();
        assert_eq!(
            lines.first().map(String::as_str),
            Some(&*format!("id name {NAME}"))
        );
        assert!(lines.contains(&"uciok".to_string()) && lines.contains(&"readyok".to_string()));
        assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
    }

    /// A session fed line by line, as a program driving the engine would;
    /// the lines it has answered so far can be read at any time.
    struct Live {
        input: io::PipeWriter,
        out: Shared,
        session: std::thread::JoinHandle<io::Result<()>>,
    }

    impl Live {
        fn start() -> Live {
            let (reader, input) = io::pipe().unwrap();
            let out = Shared::default();
            let o = out.clone();
            let session = std::thread::spawn(move || run(io::BufReader::new(reader), Box::new(o)));
            Live {
                input,
                out,
                session,
            }
        }
        fn send(&mut self, line: &str) {
            writeln!(self.input, "{line}").unwrap();
        }
        fn lines(&self) -> Vec<String> {
            let text = String::from_utf8(self.out.0.lock().unwrap().clone()).unwrap();
            text.lines().map(str::to_string).collect()
        }
        /// Waits (up to 10 s) until a line starting with `start` is answered.
        fn wait_for(&self, start: &str) -> Vec<String> {
            for _ in 0..1000 {
                let lines = self.lines();
                if lines.iter().any(|l| l.starts_with(start)) {
                    return lines;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
            panic!("no '{start}' in {:?}", self.lines());
        }
        fn end(mut self) -> Vec<String> {
            self.send("quit");
            drop(self.input);
            self.session.join().unwrap().unwrap();
            let text = String::from_utf8(self.out.0.lock().unwrap().clone()).unwrap();
            text.lines().map(str::to_string).collect()
        }
    }

    fn bestmoves(lines: &[String]) -> usize {
        lines.iter().filter(|l| l.starts_with("bestmove")).count()
    }

    #[test]
    fn a_pondering_search_answers_only_after_ponderhit() {
        let mut s = Live::start();
        s.send("setoption name Ponder value true");
        s.send("position startpos moves c3d4");
        // A short search that would end at once, were it not pondering.
        s.send("go ponder depth 2 wtime 1000 btime 1000");
        s.send("isready");
        let lines = s.wait_for("readyok");
        std::thread::sleep(Duration::from_millis(300));
        assert_eq!(bestmoves(&s.lines()), 0, "{lines:?}");
        s.send("ponderhit");
        let lines = s.wait_for("bestmove");
        assert_eq!(bestmoves(&lines), 1);
        // With the Ponder option the answer names the reply it expects.
        let best = lines.iter().find(|l| l.starts_with("bestmove")).unwrap();
        assert_eq!(best.split(' ').nth(2), Some("ponder"), "{best}");
        assert_eq!(bestmoves(&s.end()), 1);
    }

    #[test]
    fn stop_ends_pondering_with_one_answer() {
        let mut s = Live::start();
        s.send("position startpos");
        s.send("go ponder wtime 60000 btime 60000");
        s.send("isready");
        s.wait_for("readyok");
        std::thread::sleep(Duration::from_millis(200));
        assert_eq!(bestmoves(&s.lines()), 0);
        s.send("stop");
        let lines = s.wait_for("bestmove");
        // Without the Ponder option, no expected reply.
        let best = lines.iter().find(|l| l.starts_with("bestmove")).unwrap();
        assert_eq!(best.split(' ').count(), 2, "{best}");
        // A new search after it is not stopped by the old one's clock.
        s.send("ponderhit");
        s.send("go depth 3");
        s.wait_for("bestmove");
        let lines = s.end();
        assert_eq!(bestmoves(&lines), 2, "{lines:?}");
    }

    #[test]
    fn after_ponderhit_the_clock_s_share_ends_the_search() {
        let mut s = Live::start();
        s.send("position startpos");
        // 2 s on the clock, 30 moves to go: about 60 ms from ponderhit.
        s.send("go ponder wtime 2000 btime 2000");
        s.send("isready");
        s.wait_for("readyok");
        s.send("ponderhit");
        // No `stop`: the search ends by itself, within the clock.
        let lines = s.wait_for("bestmove");
        assert_eq!(bestmoves(&lines), 1);
        assert_eq!(bestmoves(&s.end()), 1);
    }

    #[test]
    fn malformed_lines_are_errors_not_the_end() {
        let (result, lines) = session(b"\xff\xfe\nucinewgame soon\nucinewgame 7\nisready\n");
        result.unwrap();
        assert!(lines[0].starts_with("info string error: a command that is not UTF-8"));
        assert!(lines[1].contains("ucinewgame takes a whole number seed, not 'soon'"));
        assert_eq!(lines[2], "readyok");
    }

    #[test]
    fn go_errors_say_which_parameter() {
        assert_eq!(
            parse_go(&["movetime", "x"]).unwrap_err(),
            ProtocolError::GoNumber {
                key: "movetime".into(),
                value: "x".into()
            }
        );
        assert_eq!(
            parse_go(&["depth"]).unwrap_err(),
            ProtocolError::MissingNumber("depth".into())
        );
        assert_eq!(
            parse_go(&["sideways", "3"]).unwrap_err(),
            ProtocolError::UnknownGoParameter("sideways".into())
        );
        let l = parse_go(&["depth", "5", "infinite"]).unwrap();
        assert_eq!((l.depth, l.infinite), (Some(5), true));
    }

    #[test]
    fn error_lines_keep_their_format() {
        let (result, lines) = session(
            b"setoption name Hash value 0\nsetoption name Eval value best\n\
              position startpos moves c3d4 c3d4\nposition lfen 8/8 w\ngo searchmoves zz\nisready\n",
        );
        result.unwrap();
        assert_eq!(
            lines[0],
            "info string error: option Hash takes a whole number from 1 to 4096, not '0'"
        );
        assert_eq!(
            lines[1],
            "info string error: option Eval takes nnue, linear, tuned, handset or material, not 'best'"
        );
        assert!(
            lines[2].starts_with("info string error: move 2 'c3d4': ")
                && lines[2].ends_with("; position unchanged"),
            "{}",
            lines[2]
        );
        assert!(
            lines[3].starts_with("info string error: invalid LFEN: 6.2: "),
            "{}",
            lines[3]
        );
        assert!(
            lines[4].starts_with("info string error: go searchmoves 'zz': 6."),
            "{}",
            lines[4]
        );
        assert_eq!(lines[5], "readyok");
    }

    #[test]
    fn the_evaluation_is_chosen_by_name_or_by_file() {
        let dir = std::env::temp_dir().join(format!("legion-uci-net-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good.nnue");
        std::fs::write(
            &good,
            crate::nnue::format::write(&crate::nnue::embedded().unwrap()),
        )
        .unwrap();
        let bad = dir.join("bad.nnue");
        std::fs::write(&bad, b"LGNN\x09\0\0\0").unwrap();
        let script = format!(
            "position startpos\nsetoption name Eval value tuned\neval\nsetoption name Eval value nnue\neval\n\
             setoption name EvalFile value {}\neval\nsetoption name EvalFile value {}\n\
             setoption name Eval value linear\neval\nisready\n",
            good.display(),
            bad.display()
        );
        let (result, lines) = session(script.as_bytes());
        result.unwrap();
        let linear = crate::eval::evaluate(&Position::initial(), &crate::Weights::tuned());
        let nnue = crate::nnue::embedded()
            .unwrap()
            .evaluate(&Position::initial());
        assert_eq!(
            lines[0],
            format!("info string eval {linear} (side to move, tuned)")
        );
        assert_eq!(
            lines[1],
            format!("info string eval {nnue} (side to move, nnue)")
        );
        assert_eq!(
            lines[2],
            format!("info string eval {nnue} (side to move, {})", good.display())
        );
        assert_eq!(
            lines[3],
            format!(
                "info string error: option EvalFile: {}: network format version 9, this engine reads versions 1 to 3",
                bad.display()
            )
        );
        assert_eq!(
            lines[4],
            format!("info string eval {linear} (side to move, linear)")
        );
        assert_eq!(lines[5], "readyok");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn replay_errors_carry_the_rules_error() {
        let s = |moves: &[&str]| Game {
            start: INITIAL_LFEN.to_string(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
        };
        let (out, _written) = writer(Box::new(io::sink()));
        let session = Session::new(out);
        let e = session.replay(&s(&["c3d4", "c3d4"])).unwrap_err();
        assert!(
            matches!(&e, ProtocolError::Move { number: 2, text, .. } if text == "c3d4"),
            "{e:?}"
        );
        assert!(e.rule().is_some());
        let bad = Game {
            start: "8/8 w".to_string(),
            moves: Vec::new(),
        };
        let e = session.replay(&bad).unwrap_err();
        assert!(matches!(e, ProtocolError::Lfen(_)), "{e:?}");
        assert_eq!(e.rule(), Some("6.2"));
    }

    #[test]
    fn uci_lists_every_declared_option_and_setoption_keeps_its_bounds() {
        let mut script = String::from("uci\n");
        for o in OPTIONS {
            if let options::Kind::Spin { min, max, .. } = o.kind {
                // Out of bounds, in another case: refused with the bounds.
                let name = o.name.to_ascii_lowercase();
                script += &format!("setoption name {name} value {}\n", max + 1);
                script += &format!("setoption name {name} value {}\n", min - 1);
                script += &format!("setoption name {name} value {max}\n");
            }
        }
        script += "isready\n";
        let (result, lines) = session(script.as_bytes());
        result.unwrap();
        for o in OPTIONS {
            assert!(
                lines.contains(&o.line()),
                "{} not listed: {lines:?}",
                o.name
            );
        }
        let listed = lines
            .iter()
            .filter(|l| l.starts_with("option name "))
            .count();
        assert_eq!(listed, OPTIONS.len());
        let errors: Vec<&String> = lines.iter().filter(|l| l.contains("error")).collect();
        let mut expected = Vec::new();
        for o in OPTIONS {
            if let options::Kind::Spin { min, max, .. } = o.kind {
                for bad in [max + 1, min - 1] {
                    expected.push(format!(
                        "info string error: option {} takes a whole number from {min} to {max}, not '{bad}'",
                        o.name
                    ));
                }
            }
        }
        assert_eq!(errors, expected.iter().collect::<Vec<_>>());
        assert_eq!(lines.last().map(String::as_str), Some("readyok"));
    }

    #[test]
    fn option_values_are_read_in_any_case() {
        // Names and the words of check and combo values alike.
        let (result, lines) = session(
            b"setoption name mateendsgame value TRUE\nsetoption name PONDER value False\n\
              setoption name eval value LINEAR\neval\nsetoption name MateEndsGame value yes\nisready\n",
        );
        result.unwrap();
        let linear = crate::eval::evaluate(&Position::initial(), &crate::Weights::tuned());
        assert_eq!(
            lines[0],
            format!("info string eval {linear} (side to move, linear)")
        );
        assert_eq!(
            lines[1],
            "info string error: option MateEndsGame takes true or false, not 'yes'"
        );
        assert_eq!(lines[2], "readyok");
    }

    #[test]
    fn setoption_with_value_before_name_is_an_error_not_a_panic() {
        let (result, lines) = session(
            b"setoption value 3 name Hash\nsetoption name\nsetoption name Nothing value 1\nisready\n",
        );
        result.unwrap();
        assert_eq!(
            lines,
            [
                // The value is what follows the name: here nothing.
                "info string error: option Hash takes a whole number from 1 to 4096, not ''",
                "info string error: unknown option ''",
                "info string error: unknown option 'Nothing'",
                "readyok"
            ]
        );
    }

    #[test]
    fn an_infinite_search_answers_when_stopped() {
        let mut s = Live::start();
        s.send("position startpos");
        s.send("go infinite");
        s.send("isready");
        s.wait_for("readyok");
        assert_eq!(bestmoves(&s.lines()), 0);
        s.send("stop");
        let lines = s.wait_for("bestmove");
        assert_eq!(bestmoves(&lines), 1);
        assert_eq!(bestmoves(&s.end()), 1);
    }

    struct Closed;

    impl Write for Closed {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::from(io::ErrorKind::BrokenPipe))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// `isready` for ever.
    struct Endless;

    impl io::Read for Endless {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let line = b"isready\n";
            let n = buf.len() / line.len() * line.len();
            for chunk in buf[..n].chunks_mut(line.len()) {
                chunk.copy_from_slice(line);
            }
            Ok(n)
        }
    }

    #[test]
    fn a_closed_output_ends_the_session_with_its_error() {
        // Only the failed output can end this session.
        let err = run(io::BufReader::new(Endless), Box::new(Closed)).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::BrokenPipe);
    }
}
