//! `legion datagen`: self-play positions with search scores and results,
//! the training data of the neural evaluation (docs/STRENGTH.md).

use std::path::PathBuf;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use legion_engine::Options;
use legion_lab::datagen::{self, Plan};
use legion_lab::openings;
use legion_rules::Rules;

use crate::Failure;

#[derive(Args)]
pub struct DatagenArgs {
    /// Games in the file when done (games already there are kept: resume
    /// by running the same command again).
    #[arg(long, default_value_t = 1000)]
    pub games: usize,
    /// Nodes searched for each move.
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// Games played at once, one search thread each.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Seed of the games' random opening moves; game N depends only on it.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Fewest random moves after the book position.
    #[arg(long, default_value_t = 2)]
    pub random_min: usize,
    /// Most random moves after the book position.
    #[arg(long, default_value_t = 6)]
    pub random_max: usize,
    /// A start the search scores beyond this (hundredths of a man) is
    /// drawn again.
    #[arg(long, default_value_t = 300)]
    pub balance: i32,
    /// A game still going after this many plies is scored a draw.
    #[arg(long, default_value_t = 400)]
    pub max_plies: usize,
    /// The evaluation the players search with: nnue (the built-in
    /// network) or linear (the tuned weights; the first data was made so).
    #[arg(long, default_value = "nnue")]
    pub eval: String,
    /// Search with the network in this file instead (a recipe then names
    /// the net it used even after another is built in).
    #[arg(long, conflicts_with = "eval")]
    pub evalfile: Option<String>,
    /// The file to append to.
    #[arg(long)]
    pub out: PathBuf,
}

pub fn run(a: DatagenArgs) -> Result<(), Failure> {
    if a.random_min > a.random_max {
        return Err(Failure("--random-min is above --random-max".into()));
    }
    let mut options = crate::engine_cmds::options_with_eval(&a.eval)?;
    // As the match runner's `evalfile=` and the protocol's EvalFile: the
    // path as given, never a lossy rendering of it.
    if let Some(path) = &a.evalfile {
        options
            .set_eval_file(path)
            .map_err(|e| Failure(e.to_string()))?;
    }
    let plan = Plan {
        games: a.games,
        nodes: a.nodes,
        random_plies: (a.random_min, a.random_max),
        max_plies: a.max_plies,
        balance: a.balance,
        threads: a.threads.max(1),
        seed: a.seed,
        options: Options {
            hash_mb: 16,
            ..options
        },
    };
    let openings = openings::committed(Rules::DEFAULT)?;
    let bar = ProgressBar::new(a.games as u64);
    bar.set_style(
        ProgressStyle::with_template("[{bar:30}] {pos}/{len} games, {elapsed} spent, {eta} left")
            .map_err(|e| Failure(e.to_string()))?
            .progress_chars("=> "),
    );
    let summary = datagen::generate(&plan, &openings, &a.out, &mut |done, _| {
        bar.set_position(done as u64);
    });
    bar.finish_and_clear();
    let s = summary?;
    println!(
        "{} games were already in {}; played {} more, {} positions written",
        s.resumed,
        a.out.display(),
        s.played,
        s.positions
    );
    Ok(())
}
