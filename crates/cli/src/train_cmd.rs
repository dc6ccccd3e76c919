//! `legion train`: fits the neural evaluation to `legion datagen` files
//! and writes a network file (docs/STRENGTH.md has the commands that made
//! the committed one).

use std::fs::File;
use std::io::BufReader;
use std::path::PathBuf;

use clap::Args;
use legion_lab::train::{self, Settings};

use crate::Failure;
use crate::progress::Progress;

#[derive(Args)]
pub struct TrainArgs {
    /// Data files written by `legion datagen`, binary or text (told apart
    /// by the binary header; read in this order).
    #[arg(long, required = true, num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// The network file to write.
    #[arg(long)]
    pub out: PathBuf,
    #[arg(long, default_value_t = 20)]
    pub epochs: usize,
    /// Positions per step.
    #[arg(long, default_value_t = 16384)]
    pub batch: usize,
    /// Adam's starting learning rate (decays to a twentieth).
    #[arg(long, default_value_t = 0.001)]
    pub lr: f32,
    /// Weight of the search's score; the game's result has the rest (1:
    /// the score alone, which played best, docs/STRENGTH.md).
    #[arg(long, default_value_t = 1.0)]
    pub lambda: f32,
    /// Seed of the starting weights and of the order of the positions.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Use only games numbered below this (a file that ran on past it
    /// then trains the same net as one stopped there).
    #[arg(long)]
    pub games: Option<usize>,
    /// Threads (the net does not depend on it).
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Sets of output weights, chosen by how full the board is: 1 (one
    /// for every board, as the first nets) up to 8 (one per bucket of
    /// four occupied squares).
    #[arg(long, default_value_t = legion_engine::nnue::BUCKETS)]
    pub buckets: usize,
    /// Hundredths of a man per unit of the output's logit: the score
    /// fitted as an expected result of 0.73 (the first nets: 400). Larger
    /// keeps clearly won positions apart.
    #[arg(long, default_value_t = legion_engine::nnue::DEFAULT_SCALE)]
    pub scale: i32,
    /// The hidden layer's activation: `crelu` (clamped to 0..1, the first
    /// nets) or `screlu` (its square).
    #[arg(long, value_enum, default_value_t = ActivationArg::Crelu)]
    pub activation: ActivationArg,
    /// Decoupled weight decay (AdamW): each step shrinks the weights (not
    /// the biases) by the learning rate times this; 0 (the built-in nets)
    /// for none. Against a wide net's overfitting, e.g. 0.01
    #[arg(long, default_value_t = 0.0, value_parser = weight_decay)]
    pub weight_decay: f32,
}

/// A weight decay: from 0 to 1.
fn weight_decay(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(d) if (0.0..=1.0).contains(&d) => Ok(d),
        _ => Err(format!("'{s}' is not a weight decay from 0 to 1")),
    }
}

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum ActivationArg {
    /// Clipped ReLU.
    Crelu,
    /// Squared clipped ReLU.
    Screlu,
}

impl From<ActivationArg> for legion_engine::nnue::Activation {
    fn from(a: ActivationArg) -> Self {
        match a {
            ActivationArg::Crelu => legion_engine::nnue::Activation::ClippedRelu,
            ActivationArg::Screlu => legion_engine::nnue::Activation::SquaredClippedRelu,
        }
    }
}

pub fn run(a: TrainArgs) -> Result<(), Failure> {
    if !(0.0..=1.0).contains(&a.lambda) {
        return Err(Failure("--lambda must be between 0 and 1".into()));
    }
    if !(1..=legion_engine::nnue::MAX_SCALE).contains(&a.scale) {
        return Err(Failure(format!(
            "--scale must be between 1 and {}",
            legion_engine::nnue::MAX_SCALE
        )));
    }
    if !(1..=legion_engine::nnue::BUCKETS).contains(&a.buckets) {
        return Err(Failure(format!(
            "--buckets must be between 1 and {}",
            legion_engine::nnue::BUCKETS
        )));
    }
    let mut train_set = None;
    let mut held = None;
    let mut text = String::new();
    let reading = std::time::Instant::now();
    for path in &a.data {
        let file = File::open(path).map_err(|e| Failure(format!("{}: {e}", path.display())))?;
        let (t, h) = train::read_data(BufReader::with_capacity(1 << 16, file), a.games)
            .map_err(|e| Failure(format!("{}: {e}", path.display())))?;
        train_set = Some(match train_set {
            None => t,
            Some(mut all) => {
                train::Samples::append(&mut all, t);
                all
            }
        });
        held = Some(match held {
            None => h,
            Some(mut all) => {
                train::Samples::append(&mut all, h);
                all
            }
        });
    }
    let (train_set, held) = (train_set.expect("one file"), held.expect("one file"));
    if train_set.is_empty() {
        return Err(Failure("no positions to train on".into()));
    }
    let seconds = reading.elapsed().as_secs_f64();
    eprintln!(
        "{} training positions, {} held out; read in {:.1} s, {:.0} positions/s",
        train_set.len(),
        held.len(),
        seconds,
        (train_set.len() + held.len()) as f64 / seconds.max(1e-9)
    );
    let settings = Settings {
        epochs: a.epochs,
        batch: a.batch,
        learning_rate: a.lr,
        lambda: a.lambda,
        seed: a.seed,
        threads: a.threads.max(1),
        buckets: a.buckets,
        scale: a.scale,
        activation: a.activation.into(),
        weight_decay: a.weight_decay,
    };
    let batches = train_set.len().div_ceil(a.batch.max(1)) * a.epochs;
    let bar = Progress::new(
        batches as u64,
        "[{bar:30}] {pos}/{len} steps, {elapsed} spent, {eta} left {msg}",
        "steps",
    )?;
    let model = train::train(&train_set, &held, &settings, &mut || bar.inc(1), &mut |e| {
        let line = format!(
            "epoch {:>3}: training loss {:.6}, held-out loss {:.6}, rate {:.6}",
            e.epoch, e.train_loss, e.held_out_loss, e.learning_rate
        );
        // Each epoch as it ends, so that a run in the background shows
        // its curve while it trains.
        bar.println(&line);
        text.push_str(&line);
        text.push('\n');
    });
    bar.finish_and_clear();
    let description = format!(
        "legion train --epochs {} --batch {} --lr {} --lambda {} --seed {} --buckets {} --scale {} --activation {}{}{} on {} positions ({}); last held-out loss {}",
        a.epochs,
        a.batch,
        a.lr,
        a.lambda,
        a.seed,
        a.buckets,
        a.scale,
        // The flag's own spelling, as clap parses it.
        clap::ValueEnum::to_possible_value(&a.activation)
            .map_or_else(String::new, |v| v.get_name().to_string()),
        if a.weight_decay > 0.0 {
            format!(" --weight-decay {}", a.weight_decay)
        } else {
            String::new()
        },
        a.games.map_or(String::new(), |n| format!(" --games {n}")),
        train_set.len(),
        a.data
            .iter()
            .map(|p| p
                .file_name()
                .map_or(String::new(), |n| n.to_string_lossy().into_owned()))
            .collect::<Vec<_>>()
            .join(", "),
        text.lines()
            .last()
            .and_then(|l| l.split("held-out loss ").nth(1))
            .and_then(|l| l.split(',').next())
            .unwrap_or("?")
    );
    std::fs::write(&a.out, train::net_file(&model, description))
        .map_err(|e| Failure(format!("{}: {e}", a.out.display())))?;
    bar.log_end();
    println!("wrote {}", a.out.display());
    Ok(())
}
