//! Engine commands: `uci`, `bench` and `openings`.

use std::io::{self, Write};

use clap::Args;
use legion_engine::bench;
use legion_lab::openings;

use crate::Failure;

#[derive(Args)]
pub struct BenchArgs {
    /// Search depth for every position.
    #[arg(long, default_value_t = bench::DEFAULT_DEPTH)]
    pub depth: i32,
    /// Evaluation: nnue, linear (as tuned), tuned, handset or material.
    #[arg(long, default_value = "nnue")]
    pub eval: String,
    /// Search threads (the node signature is only stable with 1).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// A network file to search with instead of `--eval` (a candidate, or
    /// a net of another width for a binary built with it: the speed of
    /// each width, docs/STRENGTH.md).
    #[arg(long, conflicts_with = "eval")]
    pub evalfile: Option<String>,
}

pub fn uci() -> Result<(), Failure> {
    legion_engine::uci::run(io::stdin().lock(), Box::new(io::stdout()))?;
    Ok(())
}

pub fn bench(a: BenchArgs) -> Result<(), Failure> {
    let o = match &a.evalfile {
        Some(path) => {
            let mut o = legion_engine::Options::default();
            o.set_eval_file(path).map_err(|e| Failure(e.to_string()))?;
            o
        }
        None => options_with_eval(&a.eval)?,
    };
    if !(1..=30).contains(&a.depth) {
        return Err(Failure("--depth must be from 1 to 30".to_string()));
    }
    let r = bench::run(a.depth, &o.weights, o.net, a.threads.clamp(1, 64));
    let mut w = io::stdout().lock();
    for (lfen, nodes) in &r.lines {
        writeln!(w, "{nodes:>12}  {lfen}")?;
    }
    let ms = r.time.as_millis().max(1);
    writeln!(w, "nodes {}", r.nodes)?;
    writeln!(w, "nps {}", r.nodes as u128 * 1000 / ms)?;
    writeln!(w, "time {ms} ms")?;
    Ok(())
}

#[derive(Args)]
pub struct OpeningsArgs {
    /// How many positions.
    #[arg(long, default_value_t = 50)]
    pub count: usize,
    /// Random plies played from the initial position.
    #[arg(long, default_value_t = 6)]
    pub plies: usize,
    /// Search depth used to judge balance.
    #[arg(long, default_value_t = 6)]
    pub depth: i32,
    /// Keep positions whose score is within this many hundredths of a man.
    #[arg(long, default_value_t = 40)]
    pub max_eval: i32,
    #[arg(long, default_value_t = 2026)]
    pub seed: u64,
}

/// Balanced openings (`legion_lab::openings::generate`), one LFEN a line
/// after a header that says how they were made.
pub fn openings(a: OpeningsArgs) -> Result<(), Failure> {
    let g = openings::Generation {
        count: a.count,
        plies: a.plies,
        depth: a.depth,
        max_eval: a.max_eval,
        seed: a.seed,
    };
    let mut out = io::stdout().lock();
    writeln!(out, "{}", g.header())?;
    openings::generate(&g, &mut |pos| writeln!(out, "{}", pos.to_lfen()))?;
    Ok(())
}

/// Engine options with the evaluation named on the command line: `linear`
/// (the tuned weights) or `nnue` (the embedded network).
pub fn options_with_eval(eval: &str) -> Result<legion_engine::Options, Failure> {
    let mut o = legion_engine::Options::default();
    // "unknown evaluation 'x': nnue, linear, ..." or why the built-in
    // network does not load.
    o.set_eval(eval).map_err(|e| Failure(e.to_string()))?;
    Ok(o)
}
