//! An engine instance: options, the transposition table kept between
//! moves, and a game seed for the levels' variety.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use legion_rules::{Position, Rules};

use crate::endgames::{DEFAULT_BUDGET, TableError, Tablebase};
use crate::levels::Level;
use crate::nnue::{self, LoadError, NetError, Network};
use crate::search::{self, Config, Histories, Info, Limits, Outcome};
use crate::{Table, Weights};

/// Settings that the protocol's `setoption` changes.
#[derive(Clone, Debug)]
pub struct Options {
    pub threads: usize,
    pub hash_mb: usize,
    pub level: u8,
    pub rules: Rules,
    pub weights: Weights,
    /// The network, when the evaluation is NNUE; `None`: `weights`.
    pub net: Option<Arc<Network>>,
    /// Name of the evaluation for display: nnue, a net file, or the
    /// linear weights' name (tuned, handset, material).
    pub eval_name: String,
    /// Solved endings the search reads at level 10 (`EndgamePath`);
    /// `None`: none, and the search is exactly as without them.
    pub endgames: Option<Arc<Tablebase>>,
}

/// The evaluations `Options::set_eval` knows, in the order they are listed.
pub const EVALS: [&str; 5] = ["nnue", "linear", "tuned", "handset", "material"];

/// The evaluations `Options::set_eval` knows, for people.
pub const EVAL_CHOICES: &str = "nnue, linear, tuned, handset or material";

/// Why `Options::set_eval` refused a name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EvalError {
    /// A name that is none of `EVALS`.
    #[error("unknown evaluation '{0}': {EVAL_CHOICES}")]
    Unknown(String),
    /// `nnue`, but the network built into this binary does not load: the
    /// binary was built wrong (the test `the_embedded_network_loads`
    /// guards against it).
    #[error("the network built into this binary does not load: {0}")]
    BuiltInNetwork(NetError),
}

impl Options {
    /// Chooses the evaluation by name, in any case: `nnue` (the embedded
    /// network), `linear` (the tuned weights, as `tuned`), or the linear
    /// weights `tuned`, `handset`, `material`.
    pub fn set_eval(&mut self, name: &str) -> Result<(), EvalError> {
        self.set_eval_with(name, nnue::embedded)
    }

    /// `set_eval`, with the built-in network read by `embedded` (a test
    /// can give one that fails).
    pub(crate) fn set_eval_with(
        &mut self,
        name: &str,
        embedded: impl FnOnce() -> Result<Arc<Network>, NetError>,
    ) -> Result<(), EvalError> {
        let lower = name.to_ascii_lowercase();
        if lower == "nnue" {
            self.net = Some(embedded().map_err(EvalError::BuiltInNetwork)?);
        } else {
            let weights = if lower == "linear" { "tuned" } else { &lower };
            self.weights =
                Weights::by_name(weights).ok_or_else(|| EvalError::Unknown(name.to_string()))?;
            self.net = None;
        }
        self.eval_name = lower;
        Ok(())
    }

    /// Reads solved endings from the table files in `dir` (listed now,
    /// each read when first needed); an empty `dir`: none.
    pub fn set_endgame_path(&mut self, dir: &str) -> Result<(), TableError> {
        self.endgames = if dir.is_empty() {
            None
        } else {
            Some(Arc::new(Tablebase::open(
                std::path::Path::new(dir),
                DEFAULT_BUDGET,
            )?))
        };
        Ok(())
    }

    /// Evaluates with the network in `path` (a candidate not built in).
    pub fn set_eval_file(&mut self, path: &str) -> Result<(), LoadError> {
        self.net = Some(nnue::load(std::path::Path::new(path))?);
        self.eval_name = path.to_string();
        Ok(())
    }
}

impl Default for Options {
    /// Level 10 with the built-in network (docs/STRENGTH.md). Should the
    /// network not load (a broken build: the test
    /// `the_embedded_network_loads` guards against it), the evaluation is
    /// the linear one and its name says why.
    fn default() -> Options {
        let (net, eval_name) = match nnue::embedded() {
            Ok(net) => (Some(net), "nnue".to_string()),
            Err(e) => (None, format!("tuned (the built-in network: {e})")),
        };
        Options {
            threads: 1,
            hash_mb: 64,
            level: 10,
            rules: Rules::DEFAULT,
            weights: Weights::tuned(),
            net,
            eval_name,
            endgames: None,
        }
    }
}

pub struct Engine {
    options: Options,
    /// Shared with the `Job`s running on other threads.
    tt: Arc<Table>,
    /// The move-ordering histories of this game's searches.
    histories: Arc<Histories>,
    seed: u64,
}

impl Engine {
    pub fn new(options: Options) -> Engine {
        let tt = Arc::new(Table::new(options.hash_mb));
        Engine {
            options,
            tt,
            histories: Arc::new(Histories::new()),
            seed: 0x5EED_1E61_0000_0001,
        }
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Applies new options; the table is rebuilt if its size changed.
    pub fn set_options(&mut self, options: Options) {
        if options.hash_mb != self.options.hash_mb {
            self.tt = Arc::new(Table::new(options.hash_mb));
        }
        self.options = options;
    }

    /// Forgets the last game; `seed` varies the levels' choices.
    pub fn new_game(&mut self, seed: u64) {
        self.tt.clear();
        self.histories.clear();
        self.seed = seed;
    }

    /// The best move for `pos` within `limits` and the level's caps.
    /// `history` holds the hashes of the game's earlier positions.
    pub fn go(
        &self,
        pos: &Position,
        history: &[u64],
        limits: &Limits,
        stop: &AtomicBool,
        info: &mut dyn FnMut(&Info),
    ) -> Outcome {
        self.job(limits).go(pos, history, stop, info)
    }

    /// The best `count` lines (MultiPV) within the same caps, best first.
    pub fn lines(
        &self,
        pos: &Position,
        history: &[u64],
        limits: &Limits,
        stop: &AtomicBool,
        count: usize,
    ) -> Vec<Outcome> {
        self.job(limits).lines(pos, history, stop, count)
    }

    /// A search within `limits` and the level's caps that owns what it
    /// needs, to run on another thread while the engine stays here.
    pub fn job(&self, limits: &Limits) -> Job {
        let (limits, config) = self.prepare(limits);
        Job {
            limits,
            config,
            tt: self.tt.clone(),
        }
    }

    /// The limits with the level's caps, and the search configuration.
    fn prepare(&self, limits: &Limits) -> (Limits, Config) {
        let level = Level::get(self.options.level);
        let mut limits = limits.clone();
        if let Some(d) = level.depth {
            limits.depth = Some(limits.depth.map_or(d, |x| x.min(d)));
        }
        if let Some(n) = level.nodes {
            limits.nodes = Some(limits.nodes.map_or(n, |x| x.min(n)));
        }
        if let Some(t) = level.max_time {
            limits.movetime = Some(limits.movetime.map_or(t, |x| x.min(t)));
        }
        // Below full strength, a level alone bounds the search, so `go`
        // with no limits (or `infinite`) must still end.
        if self.options.level < 10 {
            limits.infinite = false;
        }
        let config = Config {
            weights: self.options.weights.clone(),
            // Levels 1-9 keep the linear evaluation their ladder was
            // measured with (docs/STRENGTH.md); `Eval` chooses level 10's.
            net: if self.options.level < 10 {
                None
            } else {
                self.options.net.clone()
            },
            threads: if self.options.level < 10 {
                1
            } else {
                self.options.threads
            },
            noise: level.noise,
            variety: level.variety,
            variety_until_move: level.variety_until_move,
            seed: self.seed,
            // Levels 1-9 keep their measured strength: no tables.
            endgames: if self.options.level < 10 {
                None
            } else {
                self.options.endgames.clone()
            },
            histories: Some(self.histories.clone()),
        };
        (limits, config)
    }
}

/// One search of an `Engine` (`Engine::job`), sharing its table.
pub struct Job {
    limits: Limits,
    config: Config,
    tt: Arc<Table>,
}

impl Job {
    /// The limits this job searches within (the level's caps applied).
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The best move for `pos`, as `Engine::go`.
    pub fn go(
        &self,
        pos: &Position,
        history: &[u64],
        stop: &AtomicBool,
        info: &mut dyn FnMut(&Info),
    ) -> Outcome {
        search::search(
            pos,
            history,
            &self.limits,
            &self.config,
            &self.tt,
            stop,
            info,
        )
    }

    /// The best `count` lines, as `Engine::lines`.
    pub fn lines(
        &self,
        pos: &Position,
        history: &[u64],
        stop: &AtomicBool,
        count: usize,
    ) -> Vec<Outcome> {
        search::lines(
            pos,
            history,
            &self.limits,
            &self.config,
            &self.tt,
            stop,
            count,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_below_ten_search_with_the_linear_evaluation() {
        let mut o = Options::default();
        o.set_eval("nnue").unwrap();
        for level in 1..=10 {
            let engine = Engine::new(Options {
                level,
                hash_mb: 1,
                ..o.clone()
            });
            let (_, config) = engine.prepare(&Limits::default());
            assert_eq!(config.net.is_some(), level == 10, "level {level}");
        }
        o.set_eval("linear").unwrap();
        let (_, config) = Engine::new(o).prepare(&Limits::default());
        assert!(config.net.is_none());
    }

    #[test]
    fn every_evaluation_is_chosen_by_its_name_in_any_case() {
        let people = format!(
            "{} or {}",
            EVALS[..EVALS.len() - 1].join(", "),
            EVALS[EVALS.len() - 1]
        );
        assert_eq!(people, EVAL_CHOICES);
        for name in EVALS {
            let mut o = Options::default();
            o.set_eval(&name.to_ascii_uppercase()).unwrap();
            assert_eq!(o.eval_name, name);
            assert_eq!(o.net.is_some(), name == "nnue", "{name}");
        }
        let mut o = Options::default();
        assert_eq!(
            o.set_eval("best"),
            Err(EvalError::Unknown("best".to_string()))
        );
    }

    #[test]
    fn a_built_in_network_that_does_not_load_is_said_so() {
        let mut o = Options::default();
        o.set_eval("linear").unwrap();
        let broken = || Err(NetError::Checksum);
        let e = o.set_eval_with("nnue", broken).unwrap_err();
        assert_eq!(e, EvalError::BuiltInNetwork(NetError::Checksum));
        // Nothing changed.
        assert_eq!(o.eval_name, "linear");
        assert!(o.net.is_none());
    }
}
