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
    /// Search threads (the node signature is only stable with 1).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
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
    let r = bench::run(a.depth, &weights, a.threads.clamp(1, 64));
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

/// Short openings played by a weak, varied engine (level 5, a new seed per
/// opening), kept only when a deeper search finds them balanced.
pub fn openings(a: OpeningsArgs) -> Result<(), Failure> {
    use legion_engine::search::Limits;
    use legion_engine::{Engine, Options};
    use legion_rules::Position;
    use std::sync::atomic::AtomicBool;

    let mut seen = std::collections::HashSet::new();
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "# Balanced openings: legion openings --count {} --plies {} --depth {} --max-eval {} --seed {}",
        a.count, a.plies, a.depth, a.max_eval, a.seed
    )?;
    let mut picker = Engine::new(Options {
        level: 5,
        hash_mb: 8,
        ..Options::default()
    });
    let stop = AtomicBool::new(false);
    let mut kept = 0;
    let mut tries = 0u64;
    while kept < a.count && tries < a.count as u64 * 50 {
        tries += 1;
        picker.new_game(a.seed.wrapping_mul(1_000_003).wrapping_add(tries));
        let mut pos = Position::initial();
        let mut history = Vec::new();
        for _ in 0..a.plies {
            let r = picker.go(&pos, &history, &Limits::default(), &stop, &mut |_| {});
            let Some(m) = r.best else { break };
            history.push(pos.hash());
            pos.play(m);
        }
        if pos.is_check() || !pos.has_legal_move() || !seen.insert(pos.hash()) {
            continue;
        }
        let limits = Limits {
            depth: Some(a.depth),
            ..Limits::default()
        };
        let r = legion_engine::search_once(&pos, &limits, 8);
        if r.score.abs() <= a.max_eval {
            writeln!(out, "{}", pos.to_lfen())?;
            kept += 1;
        }
    }
    Ok(())
}
