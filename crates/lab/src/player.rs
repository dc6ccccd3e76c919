//! Players for matches and the terminal game: the engine in-process, a
//! uniformly random mover, a one-ply greedy material player, and an
//! external program speaking the protocol (`external`).

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use legion_rules::notation::MoveParseError;
use legion_rules::{Game, Move, Rules};

use legion_engine::engine::{EVAL_CHOICES, EvalError};
use legion_engine::rng::Rng;
use legion_engine::search::{Limits, history};
use legion_engine::{Engine, Options, Weights, eval};

pub use crate::external::External;

/// How long a player may think about one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveLimit {
    Time(Duration),
    Nodes(u64),
    Depth(i32),
}

impl MoveLimit {
    pub fn limits(self) -> Limits {
        match self {
            MoveLimit::Time(t) => Limits {
                movetime: Some(t),
                ..Limits::default()
            },
            MoveLimit::Nodes(n) => Limits {
                nodes: Some(n),
                ..Limits::default()
            },
            MoveLimit::Depth(d) => Limits {
                depth: Some(d),
                ..Limits::default()
            },
        }
    }

    /// The protocol's `go` arguments.
    pub fn go_args(self) -> String {
        match self {
            MoveLimit::Time(t) => format!("movetime {}", t.as_millis()),
            MoveLimit::Nodes(n) => format!("nodes {n}"),
            MoveLimit::Depth(d) => format!("depth {d}"),
        }
    }
}

pub trait Player: Send {
    fn name(&self) -> String;
    /// A new game begins; `seed` varies choices between games.
    fn new_game(&mut self, seed: u64, rules: Rules) -> Result<(), PlayerError>;
    /// A legal move for the side to move in `game`.
    fn choose(&mut self, game: &Game, limit: MoveLimit) -> Result<Move, PlayerError>;
}

/// Why a player spec is not valid (see `parse_spec`; `make` checks the
/// engine's options).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// A spec that names no kind of player.
    #[error(
        "unknown player '{0}': use engine[:level=N,eval=NAME,evalfile=NET,...], random, greedy or cmd:PROGRAM"
    )]
    UnknownKind(String),
    /// An option written without `=`.
    #[error("'{0}' is not name=value")]
    NotNameValue(String),
    /// `cmd:` without a program.
    #[error("cmd: needs a program")]
    NoProgram,
    /// An engine option the engine player does not have.
    #[error("unknown engine option '{0}'")]
    UnknownEngineOption(String),
    /// An engine option with a value it cannot take.
    #[error("engine option {key}={value} is not valid: it takes {expected}")]
    BadEngineOption {
        /// The option as written.
        key: String,
        /// The value as written.
        value: String,
        /// What it takes, for people: "a whole number from 1 to 10".
        expected: &'static str,
    },
    /// `eval=nnue` when the network built in does not load (a broken
    /// build).
    #[error("engine option eval: {0}")]
    Eval(String),
    /// `evalfile=PATH` naming no network this engine reads.
    #[error("engine option evalfile: {0}")]
    EvalFile(String),
    /// `w.<Feature>` with no such feature of the evaluation.
    #[error("unknown feature '{0}' (the features are in crates/engine/src/eval.rs)")]
    UnknownFeature(String),
}

/// Why a player could not be made, start a game or move. A player that
/// fails during a game loses it (`tournament::play_game`).
#[derive(Debug, thiserror::Error)]
pub enum PlayerError {
    /// The spec is not valid.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// 5.2: asked for a move where the side to move has none.
    #[error("5.2: no legal move, the game is over")]
    NoLegalMove,
    /// An external program could not be started.
    #[error("cannot start '{program}': {source}")]
    Start {
        /// The command line.
        program: String,
        source: std::io::Error,
    },
    /// An external program's standard input or output could not be had.
    #[error("cannot reach the standard {stream} of '{program}'")]
    NoPipe {
        /// The command line.
        program: String,
        /// "input" or "output".
        stream: &'static str,
    },
    /// A command could not be sent to the program.
    #[error("{name}: cannot send it '{command}': {source}")]
    Send {
        /// The program's name.
        name: String,
        /// The command.
        command: String,
        source: std::io::Error,
    },
    /// The program's output could not be read (not UTF-8, say).
    #[error("{name}: unreadable output: {source}")]
    Unreadable {
        /// The program's name.
        name: String,
        source: std::io::Error,
    },
    /// The program's output ended: it has exited or closed it.
    #[error("{name}: output ended before '{expected}' (has it exited?)")]
    Exited {
        /// The program's name.
        name: String,
        /// The answer awaited.
        expected: String,
    },
    /// The program did not answer in time.
    #[error("{name}: no '{expected}' in {waited:?}")]
    Timeout {
        /// The program's name.
        name: String,
        /// The answer awaited.
        expected: String,
        /// How long it was awaited.
        waited: Duration,
    },
    /// The program answered an option with an error line.
    #[error("{name} refused option {option}={value}: {answer}")]
    RefusedOption {
        /// The program's name.
        name: String,
        option: String,
        value: String,
        /// Its error line.
        answer: String,
    },
    /// The program's `bestmove` is no legal move (6.3, or the rule it
    /// breaks).
    #[error("{name} played '{text}': {source}")]
    IllegalMove {
        /// The program's name.
        name: String,
        /// The move as it wrote it.
        text: String,
        source: MoveParseError,
    },
}

/// What a player spec names (see `parse_spec`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Spec {
    Engine(Vec<(String, String)>),
    Random,
    Greedy,
    External(Vec<String>, Vec<(String, String)>),
}

/// Reads a player spec:
/// - `engine` or `engine:level=5,eval=material,hash=16,threads=1`
/// - `random` (a uniformly random legal move)
/// - `greedy` (the move that leaves the best material, one ply)
/// - `cmd:PROGRAM ARGS...` with options after `;`: `cmd:legion uci;Level=3`
pub fn parse_spec(text: &str) -> Result<Spec, SpecError> {
    let pairs = |s: &str| -> Result<Vec<(String, String)>, SpecError> {
        s.split(',')
            .filter(|p| !p.trim().is_empty())
            .map(|p| {
                p.split_once('=')
                    .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                    .ok_or_else(|| SpecError::NotNameValue(p.to_string()))
            })
            .collect()
    };
    match text {
        "random" => Ok(Spec::Random),
        "greedy" => Ok(Spec::Greedy),
        "engine" => Ok(Spec::Engine(Vec::new())),
        _ => {
            if let Some(rest) = text.strip_prefix("engine:") {
                Ok(Spec::Engine(pairs(rest)?))
            } else if let Some(rest) = text.strip_prefix("cmd:") {
                let (cmd, opts) = rest.split_once(';').unwrap_or((rest, ""));
                let argv: Vec<String> = cmd.split_whitespace().map(str::to_string).collect();
                if argv.is_empty() {
                    return Err(SpecError::NoProgram);
                }
                Ok(Spec::External(argv, pairs(opts)?))
            } else {
                Err(SpecError::UnknownKind(text.to_string()))
            }
        }
    }
}

/// Makes a player from a spec.
pub fn make(spec: &Spec) -> Result<Box<dyn Player>, PlayerError> {
    match spec {
        Spec::Random => Ok(Box::new(RandomPlayer { rng: Rng::new(1) })),
        Spec::Greedy => Ok(Box::new(GreedyPlayer { rng: Rng::new(1) })),
        Spec::Engine(pairs) => {
            let mut o = Options {
                hash_mb: 16,
                ..Options::default()
            };
            let mut name = "engine".to_string();
            for (k, v) in pairs {
                let bad = |expected| SpecError::BadEngineOption {
                    key: k.clone(),
                    value: v.clone(),
                    expected,
                };
                match k.to_ascii_lowercase().as_str() {
                    "level" => {
                        o.level = v
                            .parse()
                            .ok()
                            .filter(|l| (1..=10).contains(l))
                            .ok_or_else(|| bad("a whole number from 1 to 10"))?
                    }
                    "threads" => {
                        o.threads = v
                            .parse()
                            .ok()
                            .filter(|t| (1..=64).contains(t))
                            .ok_or_else(|| bad("a whole number from 1 to 64"))?
                    }
                    "hash" => {
                        o.hash_mb = v
                            .parse()
                            .ok()
                            .filter(|h| (1..=4096).contains(h))
                            .ok_or_else(|| bad("a whole number from 1 to 4096"))?
                    }
                    "eval" => o.set_eval(v).map_err(|e| match e {
                        EvalError::Unknown(_) => bad(EVAL_CHOICES),
                        EvalError::BuiltInNetwork(_) => SpecError::Eval(e.to_string()),
                    })?,
                    "evalfile" => o
                        .set_eval_file(v)
                        .map_err(|e| SpecError::EvalFile(e.to_string()))?,
                    "name" => name = v.clone(),
                    // w.<Feature>=<weight>: one evaluation weight, for experiments.
                    key if key.starts_with("w.") => {
                        let f = legion_engine::Feature::from_name(&key[2..])
                            .ok_or_else(|| SpecError::UnknownFeature(k[2..].to_string()))?;
                        o.weights.0[f as usize] =
                            v.parse().map_err(|_| bad("a whole number (a weight)"))?;
                        // A weight is the linear evaluation's: it is the one used.
                        o.net = None;
                    }
                    _ => return Err(SpecError::UnknownEngineOption(k.clone()).into()),
                }
                if k != "name" {
                    name.push_str(&format!(" {k}={v}"));
                }
            }
            Ok(Box::new(EnginePlayer {
                engine: Engine::new(o),
                name,
            }))
        }
        Spec::External(argv, opts) => Ok(Box::new(External::start(argv, opts)?)),
    }
}

pub struct EnginePlayer {
    engine: Engine,
    name: String,
}

impl EnginePlayer {
    pub fn new(options: Options, name: &str) -> EnginePlayer {
        EnginePlayer {
            engine: Engine::new(options),
            name: name.to_string(),
        }
    }

    pub fn engine(&self) -> &Engine {
        &self.engine
    }
}

impl Player for EnginePlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self, seed: u64, rules: Rules) -> Result<(), PlayerError> {
        let mut o = self.engine.options().clone();
        o.rules = rules;
        self.engine.set_options(o);
        self.engine.new_game(seed);
        Ok(())
    }

    fn choose(&mut self, game: &Game, limit: MoveLimit) -> Result<Move, PlayerError> {
        let stop = AtomicBool::new(false);
        let out = self.engine.go(
            game.position(),
            &history(game),
            &limit.limits(),
            &stop,
            &mut |_| {},
        );
        out.best.ok_or(PlayerError::NoLegalMove)
    }
}

/// Plays a uniformly random legal move.
pub struct RandomPlayer {
    rng: Rng,
}

impl Player for RandomPlayer {
    fn name(&self) -> String {
        "random".to_string()
    }

    fn new_game(&mut self, seed: u64, _: Rules) -> Result<(), PlayerError> {
        self.rng = Rng::new(seed);
        Ok(())
    }

    fn choose(&mut self, game: &Game, _: MoveLimit) -> Result<Move, PlayerError> {
        let moves = game.position().legal_moves();
        if moves.is_empty() {
            return Err(PlayerError::NoLegalMove);
        }
        Ok(moves[self.rng.below(moves.len())])
    }
}

/// Looks one ply ahead and keeps the most material (random among equals).
pub struct GreedyPlayer {
    rng: Rng,
}

impl Player for GreedyPlayer {
    fn name(&self) -> String {
        "greedy".to_string()
    }

    fn new_game(&mut self, seed: u64, _: Rules) -> Result<(), PlayerError> {
        self.rng = Rng::new(seed);
        Ok(())
    }

    fn choose(&mut self, game: &Game, _: MoveLimit) -> Result<Move, PlayerError> {
        let pos = game.position();
        let material = Weights::handset().material_only();
        let mut best: Vec<Move> = Vec::new();
        let mut best_score = i32::MIN;
        for m in pos.legal_moves() {
            let after = pos.after(m);
            // Leaving the opponent without a move wins at once (5.2).
            let score = if !after.has_legal_move() {
                i32::MAX
            } else {
                -eval::evaluate(&after, &material)
            };
            if score > best_score {
                best_score = score;
                best.clear();
            }
            if score == best_score {
                best.push(m);
            }
        }
        if best.is_empty() {
            return Err(PlayerError::NoLegalMove);
        }
        Ok(best[self.rng.below(best.len())])
    }
}

impl std::fmt::Debug for dyn Player {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use legion_rules::Position;
    use legion_rules::notation::canonical;

    #[test]
    fn specs() {
        assert_eq!(parse_spec("random"), Ok(Spec::Random));
        assert_eq!(
            parse_spec("engine:level=3,eval=material"),
            Ok(Spec::Engine(vec![
                ("level".into(), "3".into()),
                ("eval".into(), "material".into())
            ]))
        );
        assert_eq!(
            parse_spec("cmd:legion uci;Level=2"),
            Ok(Spec::External(
                vec!["legion".into(), "uci".into()],
                vec![("Level".into(), "2".into())]
            ))
        );
        assert_eq!(
            parse_spec("nonsense"),
            Err(SpecError::UnknownKind("nonsense".into()))
        );
        assert_eq!(
            parse_spec("engine:level"),
            Err(SpecError::NotNameValue("level".into()))
        );
        assert_eq!(parse_spec("cmd: ;Level=2"), Err(SpecError::NoProgram));
        let e = make(&parse_spec("engine:level=11").unwrap()).err().unwrap();
        assert!(
            matches!(
                &e,
                PlayerError::Spec(SpecError::BadEngineOption { key, value, .. })
                    if key == "level" && value == "11"
            ),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            "engine option level=11 is not valid: it takes a whole number from 1 to 10"
        );
        let e = make(&parse_spec("engine:depth=3").unwrap()).err().unwrap();
        assert!(
            matches!(&e, PlayerError::Spec(SpecError::UnknownEngineOption(k)) if k == "depth"),
            "{e:?}"
        );
    }

    #[test]
    fn no_legal_move_is_said_so() {
        // White has no piece that can move: the game is over (5.2).
        let pos: Position = "k7/8/8/8/8/8/8/8 w - 0 1".parse().unwrap();
        let mut r = RandomPlayer { rng: Rng::new(1) };
        assert!(matches!(
            r.choose(&Game::new(pos), MoveLimit::Depth(1)),
            Err(PlayerError::NoLegalMove)
        ));
    }

    #[test]
    fn single_weights_are_set_by_feature_name() {
        let ok = make(&parse_spec("engine:w.KnightMobility=7").unwrap()).unwrap();
        assert!(ok.name().contains("w.KnightMobility=7"), "{}", ok.name());
        let unknown = make(&parse_spec("engine:w.Pawn=1").unwrap()).err().unwrap();
        assert!(
            matches!(&unknown, PlayerError::Spec(SpecError::UnknownFeature(f)) if f == "Pawn"),
            "{unknown:?}"
        );
        assert!(matches!(
            make(&parse_spec("engine:w.Man=many").unwrap()),
            Err(PlayerError::Spec(SpecError::BadEngineOption { .. }))
        ));
    }

    #[test]
    fn greedy_takes_material() {
        let pos: Position = "q2k4/8/8/8/8/8/8/R3K3 w - 0 1".parse().unwrap();
        let mut g = GreedyPlayer { rng: Rng::new(1) };
        let m = g.choose(&Game::new(pos), MoveLimit::Depth(1)).unwrap();
        assert_eq!(canonical(&pos, m), "a1a8");
    }
}
