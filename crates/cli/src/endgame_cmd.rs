//! `legion endgame`: solve a small ending exhaustively and say which of
//! its positions are won, drawn or lost, and whether the 50-move rule
//! (RULES 5.3) would get in the way of the wins (docs/STRENGTH.md).

use std::time::Instant;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use legion_lab::endgames::{Material, Solver, Summary, Value};
use legion_rules::Position;

use crate::Failure;

#[derive(Args)]
pub struct EndgameArgs {
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

pub fn run(a: EndgameArgs) -> Result<(), Failure> {
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
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template(
            "{msg:>14} [{bar:30}] {pos}/{len} placements, {elapsed} spent, {eta} left",
        )
        .map_err(|e| Failure(e.to_string()))?
        .progress_chars("=> "),
    );
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
