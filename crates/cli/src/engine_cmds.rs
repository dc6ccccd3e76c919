//! Engine commands: `uci` and `bench`.

use std::io::{self, Write};

use clap::Args;
use legion_engine::{Weights, bench};

use crate::Failure;

#[derive(Args)]
pub struct BenchArgs {
    /// Search depth for every position.
    #[arg(long, default_value_t = bench::DEFAULT_DEPTH)]
    pub depth: i32,
    /// Evaluation weights: tuned, handset or material.
    #[arg(long, default_value = "tuned")]
    pub eval: String,
}

pub fn uci() -> Result<(), Failure> {
    legion_engine::uci::run(io::stdin().lock(), Box::new(io::stdout()));
    Ok(())
}

pub fn bench(a: BenchArgs) -> Result<(), Failure> {
    let weights =
        Weights::by_name(&a.eval).ok_or_else(|| Failure(format!("unknown eval '{}'", a.eval)))?;
    if !(1..=30).contains(&a.depth) {
        return Err(Failure("--depth must be from 1 to 30".to_string()));
    }
    let r = bench::run(a.depth, &weights);
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
