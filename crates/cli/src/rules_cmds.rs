//! The rules tools: `moves`, `perft`, `apply`, `show`. Their output formats
//! are a contract that scripts depend on.

use std::io::{self, Write};

use clap::Args;
use legion_rules::{INITIAL_LFEN, Position, Rules, notation, perft as perft_mod};

use crate::{Failure, diagram};

#[derive(Args)]
pub struct PositionArgs {
    /// The position in LFEN (RULES 6.2); the initial position if omitted.
    #[arg(long, value_name = "LFEN")]
    pub fen: Option<String>,
    /// Play with the rule option of 5.4: mate wins at once (no Phase 2).
    #[arg(long)]
    pub mate_ends_game: bool,
}

impl PositionArgs {
    pub fn position(&self) -> Result<Position, Failure> {
        let rules = if self.mate_ends_game {
            Rules::MATE_ENDS_GAME
        } else {
            Rules::DEFAULT
        };
        let lfen = self.fen.as_deref().unwrap_or(INITIAL_LFEN);
        Position::from_lfen(lfen, rules).map_err(|e| Failure(format!("invalid LFEN: {e}")))
    }
}

#[derive(Args)]
pub struct PerftArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// How many plies deep to count.
    #[arg(long, value_name = "D")]
    pub depth: u32,
    /// One line `<move> <count>` per legal move before the total.
    #[arg(long)]
    pub divide: bool,
}

#[derive(Args)]
pub struct ApplyArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Moves to play in order, canonical (c3e5c7) or for people (Nf3, c3:e5:c7).
    #[arg(value_name = "MOVE", allow_hyphen_values = true)]
    pub moves: Vec<String>,
}

fn out() -> io::BufWriter<io::StdoutLock<'static>> {
    io::BufWriter::new(io::stdout().lock())
}

pub fn moves(a: PositionArgs) -> Result<(), Failure> {
    let pos = a.position()?;
    let mut list: Vec<String> = pos
        .legal_moves()
        .into_iter()
        .map(|m| notation::canonical(&pos, m))
        .collect();
    list.sort();
    let mut w = out();
    for m in list {
        writeln!(w, "{m}")?;
    }
    w.flush()?;
    Ok(())
}

pub fn perft(a: PerftArgs) -> Result<(), Failure> {
    let pos = a.position.position()?;
    let mut w = out();
    let total = if a.divide && a.depth > 0 {
        let mut total = 0;
        for (m, n) in perft_mod::divide(&pos, a.depth) {
            writeln!(w, "{m} {n}")?;
            total += n;
        }
        total
    } else {
        perft_mod::perft(&pos, a.depth)
    };
    writeln!(w, "nodes {total}")?;
    w.flush()?;
    Ok(())
}

pub fn apply(a: ApplyArgs) -> Result<(), Failure> {
    let mut pos = a.position.position()?;
    for (i, text) in a.moves.iter().enumerate() {
        let m = notation::parse_move(&pos, text)
            .map_err(|e| Failure(format!("move {} '{}': {e}", i + 1, text)))?;
        pos.play(m);
    }
    let mut w = out();
    writeln!(w, "{}", pos.to_lfen())?;
    w.flush()?;
    Ok(())
}

pub fn show(a: PositionArgs) -> Result<(), Failure> {
    let pos = a.position()?;
    let mut w = out();
    write!(w, "{}", diagram::render(&pos))?;
    w.flush()?;
    Ok(())
}
