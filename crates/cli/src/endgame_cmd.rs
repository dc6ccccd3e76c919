//! `legion endgame`: solve a small ending exhaustively and say which of
//! its positions are won, drawn or lost, and whether the 50-move rule
//! (RULES 5.3) would get in the way of the wins (docs/STRENGTH.md); and
//! `legion endgame build`: write the table files that the engine and the
//! server read (`legion_engine::endgames`, docs/HOSTING.md).

use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, Subcommand};
use legion_lab::endgames::{MAX_INDEX, Material, Solver, Summary, Value};
use legion_rules::Position;

use crate::Failure;
use crate::progress::Progress;

#[derive(Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct EndgameArgs {
    #[command(subcommand)]
    pub build: Option<EndgameCommand>,
    /// The ending: White's pieces, `vs`, Black's, letters of LFEN (K Q R B
    /// N M T), a construct as Captor/prisoner (`R/M`), `-` for nothing,
    /// e.g. "KT vs K" or "KB/M vs KT".
    #[arg(long, required_unless_present = "fen", conflicts_with = "fen")]
    pub material: Option<String>,
    /// Instead of a material: solve this position's ending (LFEN, RULES
    /// 6.2) and say what this position is worth. May be repeated: the
    /// first position names the ending, the others are solved as needed.
    #[arg(long)]
    pub fen: Vec<String>,
    /// Also print every smaller ending solved on the way.
    #[arg(long)]
    pub all: bool,
    /// Then check every position's value against its moves, one ply deep
    /// (moves generated again, not read from the solver's graph).
    #[arg(long)]
    pub verify: bool,
}

#[derive(Subcommand)]
pub enum EndgameCommand {
    /// Solve endings and write their table files (one per ending, with
    /// every smaller ending they lead to) into a folder.
    Build(BuildArgs),
}

#[derive(Args)]
pub struct BuildArgs {
    /// The folder to write the tables into (made if missing).
    #[arg(long)]
    pub dir: PathBuf,
    /// Every ending of up to this many pieces (a construct counts as
    /// one), each side with at most one King.
    #[arg(long)]
    pub pieces: Option<usize>,
    /// One ending, written like "KR vs KT" (and the endings it leads
    /// to). May be repeated.
    #[arg(long)]
    pub material: Vec<String>,
    /// Solve nothing: list the endings asked for (one a line) and what
    /// their files would take on disk.
    #[arg(long)]
    pub plan: bool,
}

pub fn run(a: EndgameArgs) -> Result<(), Failure> {
    if let Some(EndgameCommand::Build(b)) = a.build {
        return build(b);
    }
    let positions: Vec<Position> = a
        .fen
        .iter()
        .map(|text| text.parse::<Position>())
        .collect::<Result<_, _>>()?;
    let material: Material = match (positions.first(), &a.material) {
        (Some(p), _) => Material::of(p.board()),
        (None, Some(text)) => text.parse()?,
        (None, None) => return Err(Failure("give --material or --fen".into())),
    };
    let bar = Progress::new(
        0,
        "{msg:>14} [{bar:30}] {pos}/{len} placements, {elapsed} spent, {eta} left",
        "placements",
    )?;
    let start = Instant::now();
    let mut current = String::new();
    let mut solver = Solver::with_progress(|p| {
        let name = p.material.to_string();
        if name != current {
            bar.reset();
            bar.set_length(p.total);
            bar.set_message(name.clone());
            current = name;
        }
        bar.set_position(p.done);
    });
    let result = solver.solve(&material).cloned();
    bar.finish_and_clear();
    let main = result?;
    bar.log_end();
    println!(
        "ending {} (default rules; repetition and the 50-move rule ignored while solving)",
        main.material
    );
    print_summary(&main);
    let others: Vec<&Summary> = solver
        .summaries()
        .into_iter()
        .filter(|s| s.material != main.material)
        .collect();
    if a.all {
        for s in &others {
            println!();
            println!("ending {} (on the way)", s.material);
            print_summary(s);
        }
    } else if !others.is_empty() {
        let names: Vec<String> = others.iter().map(|s| s.material.to_string()).collect();
        println!(
            "also solved on the way ({}): {}",
            names.len(),
            names.join(", ")
        );
    }
    println!(
        "total time {:.1} s, this ending alone {:.1} s",
        start.elapsed().as_secs_f64(),
        main.seconds
    );
    for p in &positions {
        match solver.probe_with_dtz(p)? {
            None => println!("{}: not covered (castling rights)", p.to_lfen()),
            Some((v, dtz)) => {
                let side = p.turn().name();
                let text = match v {
                    Value::Win(d) => format!("{side} to move wins in {d} plies, DTZ {dtz}"),
                    Value::Loss(d) => format!("{side} to move loses in {d} plies, DTZ {dtz}"),
                    Value::Draw => format!("drawn with best play ({side} to move)"),
                };
                println!("{}: {text}", p.to_lfen());
            }
        }
    }
    if a.verify {
        let t = Instant::now();
        let n = solver.verify(&material)?;
        println!(
            "verified: the values of all {n} positions agree with their moves one ply deep ({:.1} s)",
            t.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

fn print_summary(s: &Summary) {
    println!(
        "{:<14} {:>10} {:>10} {:>10} {:>10} {:>12} {:>14}",
        "", "positions", "won", "drawn", "lost", "longest win", "wins DTZ>100"
    );
    for (side, name) in ["White to move", "Black to move"].iter().enumerate() {
        let longest = s.longest_win[side]
            .as_ref()
            .map(|(d, _)| d.to_string())
            .unwrap_or_else(|| "-".into());
        println!(
            "{:<14} {:>10} {:>10} {:>10} {:>10} {:>12} {:>14}",
            name,
            s.positions[side],
            s.wins[side],
            s.draws[side],
            s.losses[side],
            longest,
            s.wins_over_100[side]
        );
    }
    for (side, name) in ["White", "Black"].iter().enumerate() {
        if let Some((d, lfen)) = &s.longest_win[side] {
            println!("longest win, {name} to move: {d} plies: {lfen}");
        }
        if let Some((d, lfen)) = &s.longest_dtz[side] {
            println!("longest DTZ of a win, {name} to move: {d} plies: {lfen}");
        }
    }
}

/// `legion endgame build`: solves the endings asked for (the ones they
/// lead to first) and writes a table file for each.
fn build(a: BuildArgs) -> Result<(), Failure> {
    let mut wanted: Vec<Material> = Vec::new();
    if let Some(n) = a.pieces {
        if n == 0 || n > 4 {
            return Err(Failure(format!(
                "--pieces {n}: give 1 to 4 (five pieces outgrow the solver's memory, docs/STRENGTH.md)"
            )));
        }
        for units in 1..=n {
            wanted.extend(Material::all_with(units));
        }
    }
    for text in &a.material {
        wanted.push(text.parse()?);
    }
    if wanted.is_empty() {
        return Err(Failure("give --pieces N or --material \"KR vs KT\"".into()));
    }
    // Endings too large for the solver are said, not skipped silently.
    let too_large: Vec<String> = wanted
        .iter()
        .filter(|m| m.index_size() > MAX_INDEX)
        .map(|m| m.to_string())
        .collect();
    if !too_large.is_empty() {
        return Err(Failure(format!(
            "too large for the solver (more than {MAX_INDEX} placements): {}",
            too_large.join(", ")
        )));
    }
    if a.plan {
        let placements: u64 = wanted.iter().map(|m| m.index_size()).sum();
        for m in &wanted {
            println!("{m}");
        }
        // One byte per value and per DTZ (every ending measured fits).
        println!(
            "{} endings asked for, {placements} placements: about {:.1} MB of tables, more for the endings they lead to",
            wanted.len(),
            2.0 * placements as f64 / 1e6
        );
        return Ok(());
    }
    std::fs::create_dir_all(&a.dir)?;
    let start = Instant::now();
    let total = wanted.len();
    let mut solver = Solver::new();
    for (i, m) in wanted.iter().enumerate() {
        let t = Instant::now();
        solver.solve(m)?;
        if !a.material.is_empty() || i % 100 == 0 {
            eprintln!(
                "{}/{total} {m}: {:.1} s (total {:.0} s)",
                i + 1,
                t.elapsed().as_secs_f64(),
                start.elapsed().as_secs_f64()
            );
        }
    }
    let solved = start.elapsed().as_secs_f64();
    let mut files = 0;
    let bytes = solver.write_tables(&a.dir, |_, _| files += 1)?;
    println!(
        "{files} tables ({total} asked for, the rest on the way), {:.1} MB in {}; solved in {solved:.1} s, written in {:.1} s",
        bytes as f64 / 1e6,
        a.dir.display(),
        start.elapsed().as_secs_f64() - solved
    );
    Ok(())
}
