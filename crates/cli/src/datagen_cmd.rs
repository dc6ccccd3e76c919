//! `legion datagen`: self-play positions with search scores and results,
//! the training data of the neural evaluation (docs/STRENGTH.md), and
//! `legion datagen convert`, text files to the binary format.

use std::fs::{File, OpenOptions};
use std::io::{BufReader, BufWriter};
use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};
use legion_engine::Options;
use legion_lab::datagen::{self, DrawAdjudication, Format, Plan};
use legion_lab::{datafile, openings};
use legion_rules::{Position, Rules};

use crate::Failure;
use crate::progress::Progress;

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// Fixed 40-byte records (docs/STRENGTH.md): compact, fast to load.
    Binary,
    /// `LFEN;score;result` lines, as the first data was written.
    Text,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum StartArg {
    /// The initial position (1.6): the random moves from ply 1.
    Initial,
    /// The committed balanced openings (8 plies deep), as gen1 and gen2.
    Book,
}

#[derive(Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct DatagenArgs {
    #[command(subcommand)]
    pub command: Option<DatagenCommand>,
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
    /// Seed of the games' random opening moves; game N depends only on it
    /// and the settings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Where the games start before the random moves.
    #[arg(long, value_enum, default_value_t = StartArg::Initial)]
    pub start: StartArg,
    /// Fewest random moves after the start.
    #[arg(long, default_value_t = 8)]
    pub random_min: usize,
    /// Most random moves after the start.
    #[arg(long, default_value_t = 12)]
    pub random_max: usize,
    /// Plies after the random moves whose positions are not written.
    #[arg(long, default_value_t = 4)]
    pub skip_plies: usize,
    /// A start the search scores beyond this (hundredths of a man) is
    /// drawn again.
    #[arg(long, default_value_t = 300)]
    pub balance: i32,
    /// A game still going after this many plies is scored a draw.
    #[arg(long, default_value_t = 400)]
    pub max_plies: usize,
    /// Draw adjudication: a game still going after this many plies ...
    #[arg(long, default_value_t = 80)]
    pub draw_after: usize,
    /// ... whose last this many plies were all scored within
    /// --draw-score of 0 is a draw (0: never adjudicate).
    #[arg(long, default_value_t = 16)]
    pub draw_plies: usize,
    /// The bound of --draw-plies, in hundredths of a man.
    #[arg(long, default_value_t = 10)]
    pub draw_score: i32,
    /// Scores written are clamped to this, in hundredths of a man (30000
    /// or more: no cap, the search's own scores).
    #[arg(long, default_value_t = 3000)]
    pub score_cap: i32,
    /// The format of a new file (binary if not given); a file being
    /// resumed keeps its own, and naming another is an error.
    #[arg(long, value_enum)]
    pub format: Option<FormatArg>,
    /// The evaluation the players search with: nnue (the built-in
    /// network) or linear (the tuned weights; the first data was made so).
    #[arg(long, default_value = "nnue")]
    pub eval: String,
    /// Search with the network in this file instead (a recipe then names
    /// the net it used even after another is built in).
    #[arg(long, conflicts_with = "eval")]
    pub evalfile: Option<String>,
    /// The file to append to.
    #[arg(long, required = true)]
    pub out: Option<PathBuf>,
}

#[derive(Subcommand)]
pub enum DatagenCommand {
    /// Copy the finished games of a data file (text or binary) into a new
    /// binary file, all of them or fewer (--keep-positions, --keep-games).
    Convert(ConvertArgs),
}

#[derive(Args)]
pub struct ConvertArgs {
    /// The file to read.
    #[arg(long)]
    pub from: PathBuf,
    /// The binary file to write; it must not exist.
    #[arg(long)]
    pub to: PathBuf,
    /// Keep each position of a training game with this chance (0 to 1);
    /// held-out games (numbers that are multiples of 50) stay whole
    #[arg(long, value_parser = fraction, conflicts_with = "keep_games")]
    pub keep_positions: Option<u32>,
    /// Keep each training game, whole, with this chance (0 to 1);
    /// held-out games always
    #[arg(long, value_parser = fraction)]
    pub keep_games: Option<u32>,
    /// Seed of what --keep-positions and --keep-games keep
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// A chance from 0 to 1, in millionths.
fn fraction(s: &str) -> Result<u32, String> {
    match s.parse::<f64>() {
        Ok(f) if (0.0..=1.0).contains(&f) => Ok((f * 1e6).round() as u32),
        _ => Err(format!("'{s}' is not a chance from 0 to 1")),
    }
}

pub fn run(a: DatagenArgs) -> Result<(), Failure> {
    if let Some(DatagenCommand::Convert(c)) = a.command {
        return convert(c);
    }
    let Some(out) = a.out else {
        return Err(Failure("--out is required".into()));
    };
    if a.random_min > a.random_max {
        return Err(Failure("--random-min is above --random-max".into()));
    }
    if a.score_cap < 0 || a.draw_score < 0 {
        return Err(Failure(
            "--score-cap and --draw-score must not be negative".into(),
        ));
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
        skip_plies: a.skip_plies,
        max_plies: a.max_plies,
        draw_adjudication: (a.draw_plies > 0).then_some(DrawAdjudication {
            after: a.draw_after,
            plies: a.draw_plies,
            score: a.draw_score,
        }),
        // Written scores never pass WIN_BOUND (a forced result ends the
        // game), so a cap there is no cap.
        score_cap: (a.score_cap < legion_engine::search::WIN_BOUND).then_some(a.score_cap),
        balance: a.balance,
        threads: a.threads.max(1),
        seed: a.seed,
        format: a.format.map(|f| match f {
            FormatArg::Binary => Format::Binary,
            FormatArg::Text => Format::Text,
        }),
        options: Options {
            hash_mb: 16,
            ..options
        },
    };
    let openings = match a.start {
        StartArg::Initial => vec![Position::initial()],
        StartArg::Book => openings::committed(Rules::DEFAULT)?,
    };
    let bar = Progress::new(
        a.games as u64,
        "[{bar:30}] {pos}/{len} games, {elapsed} spent, {eta} left",
        "games",
    )?;
    let summary = datagen::generate(&plan, &openings, &out, &mut |done, _| {
        bar.set_position(done as u64);
    });
    bar.finish_and_clear();
    let s = summary?;
    bar.log_end();
    println!(
        "{} games were already in {} ({}); played {} more ({} drawn by adjudication), {} positions written",
        s.resumed,
        out.display(),
        s.format.name(),
        s.played,
        s.adjudicated,
        s.positions
    );
    Ok(())
}

fn convert(c: ConvertArgs) -> Result<(), Failure> {
    let input = File::open(&c.from).map_err(|e| Failure(format!("{}: {e}", c.from.display())))?;
    // Never over another file: a half-made copy must not replace data.
    let output = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&c.to)
        .map_err(|e| Failure(format!("{}: {e}", c.to.display())))?;
    let started = std::time::Instant::now();
    let mut writer = BufWriter::new(output);
    let keep = match (c.keep_positions, c.keep_games) {
        (Some(per_million), _) => datafile::Keep::Positions {
            per_million,
            seed: c.seed,
        },
        (None, Some(per_million)) => datafile::Keep::Games {
            per_million,
            seed: c.seed,
        },
        (None, None) => datafile::Keep::All,
    };
    let done = datafile::convert(BufReader::with_capacity(1 << 16, input), &mut writer, keep);
    drop(writer);
    let done = match done {
        Ok(d) => d,
        Err(e) => {
            // The partial copy is ours (created above): remove it.
            let _ = std::fs::remove_file(&c.to);
            return Err(Failure(format!("{}: {e}", c.from.display())));
        }
    };
    println!(
        "{} games, {} positions from {} into {} in {:.1} s",
        done.games,
        done.positions,
        c.from.display(),
        c.to.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
