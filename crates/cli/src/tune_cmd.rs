//! `legion tune`: make self-play data and fit the evaluation weights.

use std::io::{BufReader, BufWriter};

use clap::{Args, Subcommand};
use legion_engine::{Feature, Weights};
use legion_lab::player::MoveLimit;
use legion_lab::{openings, spsa, tune};
use legion_rules::Rules;

use crate::Failure;

#[derive(Args)]
pub struct TuneArgs {
    #[command(subcommand)]
    pub step: Step,
}

#[derive(Subcommand)]
pub enum Step {
    /// Self-play games; writes `LFEN;result` lines of quiet positions.
    Generate {
        #[arg(long, default_value_t = 2000)]
        games: usize,
        /// Nodes per move.
        #[arg(long, default_value_t = 4000)]
        nodes: u64,
        /// Starting weights for the players: handset or tuned.
        #[arg(long, default_value = "handset")]
        eval: String,
        #[arg(long, default_value_t = 2)]
        threads: usize,
        #[arg(long)]
        out: String,
    },
    /// Tunes group multipliers of the weights by self-play (SPSA) and
    /// writes `tuned.rs`.
    Spsa {
        #[arg(long, default_value_t = 300)]
        iterations: usize,
        /// Games per iteration (pairs of colours).
        #[arg(long, default_value_t = 8)]
        games: usize,
        /// Nodes per move.
        #[arg(long, default_value_t = 5000)]
        nodes: u64,
        #[arg(long, default_value_t = 2)]
        threads: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value = "crates/engine/src/tuned.rs")]
        out: String,
        /// Weights to start from: handset or tuned.
        #[arg(long, default_value = "handset")]
        start: String,
        /// Group the weights coarsely (9 groups) or finely (20).
        #[arg(long, default_value = "coarse")]
        groups: String,
    },
    /// Fits the weights to a data file and writes `tuned.rs`.
    Fit {
        #[arg(long)]
        data: String,
        /// Where to write the weights as Rust source.
        #[arg(long, default_value = "crates/engine/src/tuned.rs")]
        out: String,
        #[arg(long, default_value_t = 600)]
        epochs: usize,
        #[arg(long, default_value = "handset")]
        start: String,
        /// Pull of every weight towards its start (L2).
        #[arg(long, default_value_t = 1e-7)]
        l2: f64,
    },
}

pub fn run(a: TuneArgs) -> Result<(), Failure> {
    match a.step {
        Step::Generate {
            games,
            nodes,
            eval,
            threads,
            out,
        } => {
            let weights = weights_named(&eval)?;
            let openings = openings::committed(Rules::DEFAULT)?;
            let file = std::fs::File::create(&out)
                .map_err(|e| Failure(format!("cannot write {out}: {e}")))?;
            let mut w = BufWriter::new(file);
            let limit = MoveLimit::Nodes(nodes.max(100));
            eprintln!("{}", tune::describe_generation(limit));
            let n = tune::generate(
                games,
                limit,
                &weights,
                &openings,
                threads,
                &mut w,
                &mut |done| {
                    eprint!("\r{done}/{games} games");
                },
            )?;
            eprintln!();
            println!("{n} positions from {games} games written to {out}");
            Ok(())
        }
        Step::Spsa {
            iterations,
            games,
            nodes,
            threads,
            seed,
            out,
            start,
            groups,
        } => {
            let base = weights_named(&start)?;
            let groups = match groups.as_str() {
                "coarse" => spsa::GROUPS,
                "fine" => spsa::FINE_GROUPS,
                other => {
                    return Err(Failure(format!(
                        "--groups is coarse or fine, not '{other}'"
                    )));
                }
            };
            let openings = openings::committed(Rules::DEFAULT)?;
            let theta = spsa::spsa(
                groups,
                &base,
                iterations,
                games.max(2),
                MoveLimit::Nodes(nodes.max(100)),
                &openings,
                threads,
                seed,
                &mut |k, r, theta| {
                    println!(
                        "iteration {k}: plus scored {r:.3}; {}",
                        spsa::multipliers(groups, theta, "=")
                    );
                },
            )?;
            let tuned = spsa::scaled_by(groups, &base, &theta);
            let note = format!(
                "SPSA from the {start} weights: {iterations} iterations of {games} games at {nodes} nodes a move; {}.",
                spsa::multipliers(groups, &theta, " x")
            );
            std::fs::write(&out, tune::source(&tuned, &note))
                .map_err(|e| Failure(format!("cannot write {out}: {e}")))?;
            println!("written to {out}");
            Ok(())
        }
        Step::Fit {
            data,
            out,
            epochs,
            start,
            l2,
        } => {
            let start = weights_named(&start)?;
            let file = std::fs::File::open(&data)
                .map_err(|e| Failure(format!("cannot read {data}: {e}")))?;
            let samples = tune::read_samples(BufReader::new(file))?;
            if samples.is_empty() {
                return Err(Failure(format!("{data} has no positions")));
            }
            let w0: Vec<f64> = start.0.iter().map(|&x| x as f64).collect();
            let k = tune::fit_k(&samples, &w0);
            let before = tune::error(&samples, &w0, k);
            println!("{} positions; K = {k:.3}; error {before:.5}", samples.len());
            let tuned = tune::fit(&samples, &start, k, epochs, l2, &mut |epoch, e| {
                println!("epoch {epoch}: error {e:.5}");
            });
            for &f in Feature::ALL {
                println!(
                    "{:>18} {:>6} -> {:>6}",
                    f.name(),
                    start.get(f),
                    tuned.get(f)
                );
            }
            let note = format!(
                "Fitted to {} positions of {data}: error {before:.5} -> {:.5}, K = {k:.3}.",
                samples.len(),
                tune::error(
                    &samples,
                    &tuned.0.iter().map(|&x| x as f64).collect::<Vec<_>>(),
                    k
                )
            );
            std::fs::write(&out, tune::source(&tuned, &note))
                .map_err(|e| Failure(format!("cannot write {out}: {e}")))?;
            println!("written to {out}");
            Ok(())
        }
    }
}

/// The named starting weights (`handset`, `tuned`, `material`).
fn weights_named(name: &str) -> Result<Weights, Failure> {
    Weights::by_name(name).ok_or_else(|| Failure(format!("unknown weights '{name}'")))
}
