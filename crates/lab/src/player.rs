//! Players for matches and the terminal game: the engine in-process, a
//! uniformly random mover, a one-ply greedy material player, and an
//! external program speaking the protocol (`external`).

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use legion_rules::{Game, Move, Rules};

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
    fn new_game(&mut self, seed: u64, rules: Rules) -> Result<(), String>;
    /// A legal move for the side to move in `game`.
    fn choose(&mut self, game: &Game, limit: MoveLimit) -> Result<Move, String>;
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
pub fn parse_spec(text: &str) -> Result<Spec, String> {
    let pairs = |s: &str| -> Result<Vec<(String, String)>, String> {
        s.split(',')
            .filter(|p| !p.trim().is_empty())
            .map(|p| {
                p.split_once('=')
                    .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                    .ok_or_else(|| format!("'{p}' is not name=value"))
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
                    return Err("cmd: needs a program".to_string());
                }
                Ok(Spec::External(argv, pairs(opts)?))
            } else {
                Err(format!(
                    "unknown player '{text}': use engine[:level=N,eval=NAME,...], random, greedy or cmd:PROGRAM"
                ))
            }
        }
    }
}

/// Makes a player from a spec.
pub fn make(spec: &Spec) -> Result<Box<dyn Player>, String> {
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
                let bad = || format!("engine option {k}={v} is not valid");
                match k.to_ascii_lowercase().as_str() {
                    "level" => {
                        o.level = v
                            .parse()
                            .ok()
                            .filter(|l| (1..=10).contains(l))
                            .ok_or_else(bad)?
                    }
                    "threads" => {
                        o.threads = v
                            .parse()
                            .ok()
                            .filter(|t| (1..=64).contains(t))
                            .ok_or_else(bad)?
                    }
                    "hash" => {
                        o.hash_mb = v
                            .parse()
                            .ok()
                            .filter(|h| (1..=4096).contains(h))
                            .ok_or_else(bad)?
                    }
                    "eval" => {
                        o.weights = Weights::by_name(v).ok_or_else(bad)?;
                        o.eval_name = v.clone();
                    }
                    "name" => name = v.clone(),
                    // w.<Feature>=<weight>: one evaluation weight, for experiments.
                    key if key.starts_with("w.") => {
                        let f = legion_engine::Feature::from_name(&key[2..])
                            .ok_or_else(|| format!("unknown feature '{}'", &key[2..]))?;
                        o.weights.0[f as usize] = v.parse().map_err(|_| bad())?;
                    }
                    _ => return Err(format!("unknown engine option '{k}'")),
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

    fn new_game(&mut self, seed: u64, rules: Rules) -> Result<(), String> {
        let mut o = self.engine.options().clone();
        o.rules = rules;
        self.engine.set_options(o);
        self.engine.new_game(seed);
        Ok(())
    }

    fn choose(&mut self, game: &Game, limit: MoveLimit) -> Result<Move, String> {
        let stop = AtomicBool::new(false);
        let out = self.engine.go(
            game.position(),
            &history(game),
            &limit.limits(),
            &stop,
            &mut |_| {},
        );
        out.best.ok_or_else(|| "no legal move".to_string())
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

    fn new_game(&mut self, seed: u64, _: Rules) -> Result<(), String> {
        self.rng = Rng::new(seed);
        Ok(())
    }

    fn choose(&mut self, game: &Game, _: MoveLimit) -> Result<Move, String> {
        let moves = game.position().legal_moves();
        if moves.is_empty() {
            return Err("no legal move".to_string());
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

    fn new_game(&mut self, seed: u64, _: Rules) -> Result<(), String> {
        self.rng = Rng::new(seed);
        Ok(())
    }

    fn choose(&mut self, game: &Game, _: MoveLimit) -> Result<Move, String> {
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
            return Err("no legal move".to_string());
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
        assert!(parse_spec("nonsense").is_err());
        assert!(parse_spec("engine:level").is_err());
        assert!(make(&parse_spec("engine:level=11").unwrap()).is_err());
    }

    #[test]
    fn single_weights_are_set_by_feature_name() {
        let ok = make(&parse_spec("engine:w.KnightMobility=7").unwrap()).unwrap();
        assert!(ok.name().contains("w.KnightMobility=7"), "{}", ok.name());
        let unknown = make(&parse_spec("engine:w.Pawn=1").unwrap()).err().unwrap();
        assert!(
            unknown.to_lowercase().contains("unknown feature 'pawn'"),
            "{unknown}"
        );
        assert!(make(&parse_spec("engine:w.Man=many").unwrap()).is_err());
    }

    #[test]
    fn greedy_takes_material() {
        let pos: Position = "q2k4/8/8/8/8/8/8/R3K3 w - 0 1".parse().unwrap();
        let mut g = GreedyPlayer { rng: Rng::new(1) };
        let m = g.choose(&Game::new(pos), MoveLimit::Depth(1)).unwrap();
        assert_eq!(canonical(&pos, m), "a1a8");
    }
}
