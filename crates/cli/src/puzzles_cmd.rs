//! `legion puzzles`: mine puzzles from games (`generate`, resumable, on
//! several threads) and print them in lichess's puzzle CSV columns
//! (`export`). docs/PUZZLES.md gives the criteria, the themes and the
//! commands that made the committed set.

use std::path::PathBuf;

use clap::{Args, Subcommand};
use legion_lab::puzzles::{self, Games, Settings, file};
use legion_rules::Record;

use crate::Failure;
use crate::progress::Progress;

#[derive(Args)]
pub struct PuzzlesArgs {
    #[command(subcommand)]
    command: PuzzlesCommand,
}

#[derive(Subcommand)]
enum PuzzlesCommand {
    /// Mine puzzles from self-play (or from --records) into a file that
    /// the same command resumes.
    Generate(GenerateArgs),
    /// Print the puzzles of mining files as CSV, each once, sorted by id.
    Export(ExportArgs),
}

#[derive(Args)]
struct GenerateArgs {
    /// Games of self-play to mine (ignored with --records).
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Level (1–10) of both self-play engines: lower levels err more.
    #[arg(long, default_value_t = 5)]
    level: u8,
    /// Random moves at the start of a self-play game, at least.
    #[arg(long, default_value_t = 2)]
    random_min: usize,
    /// Random moves at the start of a self-play game, at most.
    #[arg(long, default_value_t = 8)]
    random_max: usize,
    /// A self-play game still going after this many plies is left.
    #[arg(long, default_value_t = 200)]
    max_plies: usize,
    /// Mine these game records (6.5) instead of self-play.
    #[arg(long, conflicts_with = "datagen")]
    records: Option<PathBuf>,
    /// Mine the games of this `legion datagen` file (either format)
    /// instead of self-play: their positions one move apart.
    #[arg(long)]
    datagen: Option<PathBuf>,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Nodes of the scan of every position.
    #[arg(long, default_value_t = Settings::default().scan_nodes)]
    scan_nodes: u64,
    /// Nodes of each search while building a line.
    #[arg(long, default_value_t = Settings::default().line_nodes)]
    line_nodes: u64,
    /// Nodes of the deeper check of every solver move.
    #[arg(long, default_value_t = Settings::default().verify_nodes)]
    verify_nodes: u64,
    /// Setting moves tried at each position besides the game's own: the
    /// mover's best moves at --tempting-depth (0: the game's moves only).
    #[arg(long, default_value_t = Settings::default().tempting)]
    tempting: usize,
    /// Depth of the search that chooses the tempting moves.
    #[arg(long, default_value_t = Settings::default().tempting_depth)]
    tempting_depth: i32,
    /// Say on standard error why each candidate was kept or left.
    #[arg(long)]
    trace: bool,
    /// The mining file (puzzle rows and `# game N` lines).
    #[arg(long)]
    out: PathBuf,
}

#[derive(Args)]
struct ExportArgs {
    /// Mining files (or exports) to read.
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

pub fn run(a: PuzzlesArgs) -> Result<(), Failure> {
    match a.command {
        PuzzlesCommand::Generate(g) => generate(g),
        PuzzlesCommand::Export(e) => export(e),
    }
}

fn generate(a: GenerateArgs) -> Result<(), Failure> {
    let games = match (&a.records, &a.datagen) {
        (None, Some(path)) => {
            let file = std::fs::File::open(path)
                .map_err(|e| Failure(format!("{}: {e}", path.display())))?;
            Games::Datagen(
                puzzles::from_datagen(std::io::BufReader::new(file))
                    .map_err(|e| Failure(format!("{}: {e}", path.display())))?,
            )
        }
        (Some(path), _) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| Failure(format!("{}: {e}", path.display())))?;
            Games::Records(
                Record::parse_many(&text)
                    .map_err(|e| Failure(format!("{}: {e}", path.display())))?,
            )
        }
        (None, None) => {
            if !(1..=10).contains(&a.level) {
                return Err(Failure(format!("--level {}: levels are 1 to 10", a.level)));
            }
            Games::SelfPlay {
                count: a.games,
                level: a.level,
                seed: a.seed,
                random_plies: (a.random_min, a.random_max.max(a.random_min)),
                max_plies: a.max_plies,
            }
        }
    };
    let settings = Settings {
        scan_nodes: a.scan_nodes,
        line_nodes: a.line_nodes,
        verify_nodes: a.verify_nodes,
        tempting: a.tempting,
        tempting_depth: a.tempting_depth,
        trace: a.trace,
        ..Settings::default()
    };
    let bar = Progress::new(
        0,
        "[{bar:30}] {pos}/{len} games, {msg}, {elapsed} spent, {eta} left",
        "games",
    )?;
    let summary = puzzles::generate(
        &games,
        &settings,
        a.threads,
        &a.out,
        &mut |done, total, found| {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
            bar.set_message(format!("{found} puzzles"));
        },
    );
    bar.finish_and_clear();
    let s = summary?;
    bar.log_end();
    println!(
        "{} games were already in {}; mined {} more and found {} puzzles",
        s.resumed,
        a.out.display(),
        s.mined,
        s.found
    );
    Ok(())
}

fn export(a: ExportArgs) -> Result<(), Failure> {
    let mut all = Vec::new();
    for path in &a.files {
        all.extend(
            puzzles::read_file(path).map_err(|e| Failure(format!("{}: {e}", path.display())))?,
        );
    }
    print!("{}", file::export(&all));
    Ok(())
}
