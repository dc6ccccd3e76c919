//! `legion`: a thin command line over the Legion crates. It parses
//! arguments and prints; the libraries do the work.

mod admin_cmd;
mod datagen_cmd;
mod diagram;
mod endgame_cmd;
mod engine_cmds;
mod match_cmd;
mod migrate_cmd;
mod play_cmd;
mod progress;
mod puzzles_cmd;
mod rules_cmds;
mod serve_cmd;
mod train_cmd;
mod tune_cmd;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// mimalloc for every command: the server makes and drops many small
/// strings per move (the notation and squares of each legal move), and
/// glibc's allocator took about a quarter of its CPU in the cluster
/// benchmark (docs/BENCHMARKS.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "legion",
    version,
    about = "Legion: chess pieces and a draughts army on one board"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Every legal move in canonical form (RULES 6.3), one per line, sorted.
    Moves(rules_cmds::PositionArgs),
    /// Count move sequences to a depth (perft); `--divide` splits by first move.
    Perft(rules_cmds::PerftArgs),
    /// Play moves (either notation) from a position and print the LFEN after them.
    Apply(rules_cmds::ApplyArgs),
    /// Show a position as a board diagram.
    Show(rules_cmds::PositionArgs),
    /// Serve the web app: play and study Legion in the browser.
    Serve(serve_cmd::ServeArgs),
    /// Copy every game to another database (SQLite to PostgreSQL) and check the copy.
    Migrate(migrate_cmd::MigrateArgs),
    /// Accounts of a site: the newest, disable or enable one, end its
    /// sessions (docs/HOSTING.md).
    Admin(admin_cmd::AdminArgs),
    /// Play the engine in the terminal (or --watch it play itself).
    Play(play_cmd::PlayArgs),
    /// Speak the UCI-style engine protocol on stdin/stdout (docs/PROTOCOL.md).
    Uci,
    /// Search fixed positions to a fixed depth: node signature and speed.
    Bench(engine_cmds::BenchArgs),
    /// Play games between two players and measure the difference.
    Match(match_cmd::MatchArgs),
    /// Generate balanced opening positions for matches.
    Openings(engine_cmds::OpeningsArgs),
    /// Tune the evaluation from self-play (generate data, then fit).
    Tune(tune_cmd::TuneArgs),
    /// Self-play positions with search scores and results (training
    /// data); `datagen convert` turns a text file into the binary format.
    Datagen(datagen_cmd::DatagenArgs),
    /// Train the neural evaluation on datagen files; writes a network file.
    Train(train_cmd::TrainArgs),
    /// Solve a small ending exhaustively: won, drawn and lost positions,
    /// longest win, wins the 50-move rule would spoil; `endgame build`
    /// writes the table files the engine and the server read.
    Endgame(endgame_cmd::EndgameArgs),
    /// Puzzles mined by the engine from games: `generate`, then `export`
    /// as lichess's puzzle CSV (docs/PUZZLES.md).
    Puzzles(puzzles_cmd::PuzzlesArgs),
}

/// A failure to report on one line, with exit status 2.
pub struct Failure(pub String);

impl<E: std::fmt::Display> From<E> for Failure {
    fn from(e: E) -> Failure {
        Failure(e.to_string())
    }
}

fn main() -> ExitCode {
    // A panic is a bug; still, users see one line, never a backtrace.
    std::panic::set_hook(Box::new(|info| {
        let msg = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        eprintln!("legion: internal error: {msg} (please report this)");
    }));
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                let _ = e.print();
                return ExitCode::from(2);
            }
            // clap writes several lines; keep the message, drop the usage.
            let text = e.to_string();
            let message: Vec<&str> = text
                .lines()
                .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .collect();
            let joined = message.join(" ");
            let joined = joined.strip_prefix("error: ").unwrap_or(&joined);
            eprintln!("legion: {joined} (see legion --help)");
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Command::Moves(a) => rules_cmds::moves(a),
        Command::Perft(a) => rules_cmds::perft(a),
        Command::Apply(a) => rules_cmds::apply(a),
        Command::Show(a) => rules_cmds::show(a),
        Command::Serve(a) => serve_cmd::run(a),
        Command::Migrate(a) => migrate_cmd::run(a),
        Command::Admin(a) => admin_cmd::run(a),
        Command::Play(a) => play_cmd::run(a),
        Command::Uci => engine_cmds::uci(),
        Command::Bench(a) => engine_cmds::bench(a),
        Command::Match(a) => match_cmd::run(a),
        Command::Openings(a) => engine_cmds::openings(a),
        Command::Tune(a) => tune_cmd::run(a),
        Command::Datagen(a) => datagen_cmd::run(a),
        Command::Train(a) => train_cmd::run(a),
        Command::Endgame(a) => endgame_cmd::run(a),
        Command::Puzzles(a) => puzzles_cmd::run(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure(msg)) => {
            eprintln!("legion: {}", msg.lines().next().unwrap_or(""));
            ExitCode::from(2)
        }
    }
}
