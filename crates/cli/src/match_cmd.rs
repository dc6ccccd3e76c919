//! `legion match`: two players, many games, a verdict with numbers.

use std::io::Write;
use std::time::Duration;

use clap::Args;
use legion_lab::openings;
use legion_lab::player::{MoveLimit, parse_spec};
use legion_lab::tournament::{self, MatchConfig};
use legion_rules::Rules;

use crate::Failure;

#[derive(Args)]
pub struct MatchArgs {
    /// First player: engine[:level=N,eval=nnue|linear|tuned|handset|material,evalfile=NET,threads=N,hash=MB],
    /// random, greedy, or cmd:PROGRAM ARGS[;Option=value,...]
    #[arg(long)]
    pub engine1: String,
    /// Second player, same forms.
    #[arg(long)]
    pub engine2: String,
    /// Number of games (each opening is played twice, colours swapped).
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Milliseconds per move (the default limit: 100).
    #[arg(long, conflicts_with_all = ["nodes", "depth"])]
    pub movetime: Option<u64>,
    /// The second player's own milliseconds per move (time odds, e.g. one
    /// thread at 180 ms against 100 ms); by default it has the first's limit.
    #[arg(long, conflicts_with_all = ["nodes", "depth"])]
    pub movetime2: Option<u64>,
    /// Nodes per move.
    #[arg(long, conflicts_with = "depth")]
    pub nodes: Option<u64>,
    /// Depth per move.
    #[arg(long)]
    pub depth: Option<i32>,
    /// Games played at the same time.
    #[arg(long, default_value_t = 2)]
    pub concurrency: usize,
    /// A file of opening positions, one LFEN per line (default: the
    /// committed balanced openings).
    #[arg(long)]
    pub openings: Option<String>,
    /// Stop when the SPRT for H0: elo0, H1: elo1 decides (alpha = beta = 0.05).
    #[arg(long, value_name = "ELO0,ELO1")]
    pub sprt: Option<String>,
    /// Write every game as a record (RULES 6.5) to this file.
    #[arg(long)]
    pub save: Option<String>,
    #[arg(long)]
    pub mate_ends_game: bool,
    /// Adjudicate a draw after this many plies.
    #[arg(long, default_value_t = 600)]
    pub max_plies: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Only the summary, not a line per game.
    #[arg(long)]
    pub quiet: bool,
}

pub fn run(a: MatchArgs) -> Result<(), Failure> {
    let rules = if a.mate_ends_game {
        Rules::MATE_ENDS_GAME
    } else {
        Rules::DEFAULT
    };
    let first = parse_spec(&a.engine1)?;
    let second = parse_spec(&a.engine2)?;
    let text = match &a.openings {
        Some(path) => std::fs::read_to_string(path)
            .map_err(|e| Failure(format!("cannot read {path}: {e}")))?,
        None => openings::OPENINGS.to_string(),
    };
    let openings = openings::parse(&text, rules)?;
    let limit = match (a.movetime, a.nodes, a.depth) {
        (_, Some(n), _) => MoveLimit::Nodes(n.max(1)),
        (_, _, Some(d)) => MoveLimit::Depth(d.clamp(1, 60)),
        (t, _, _) => MoveLimit::Time(Duration::from_millis(t.unwrap_or(100).max(1))),
    };
    let sprt = match &a.sprt {
        None => None,
        Some(s) => {
            // Every part must be a number: `10,x,20` is not `10,20`.
            let parts: Result<Vec<f64>, _> = s.split(',').map(|x| x.trim().parse()).collect();
            match parts.as_deref() {
                Ok([e0, e1]) if e0 < e1 => Some((*e0, *e1)),
                _ => {
                    return Err(Failure(format!(
                        "--sprt takes ELO0,ELO1 with ELO0 < ELO1, not '{s}'"
                    )));
                }
            }
        }
    };
    if a.games == 0 {
        return Err(Failure("--games must be at least 1".to_string()));
    }
    let config = MatchConfig {
        first,
        second,
        games: a.games,
        openings,
        limit,
        second_limit: a
            .movetime2
            .map(|t| MoveLimit::Time(Duration::from_millis(t.max(1)))),
        concurrency: a.concurrency,
        max_plies: a.max_plies.max(1),
        sprt,
        seed: a.seed,
    };
    let quiet = a.quiet;
    let total = a.games;
    let mut done = 0;
    let report = tournament::run(&config, &mut |g, t| {
        done += 1;
        if !quiet {
            let result = match g.record.game.outcome() {
                Some(o) => o.result(),
                None => "1/2-1/2",
            };
            println!(
                "game {done}/{total} (opening {}, engine1 {}): {result} {} [{}-{}-{}]",
                g.index / 2 + 1,
                if g.first_is_white { "White" } else { "Black" },
                g.reason,
                t.wins,
                t.draws,
                t.losses
            );
        }
    })?;
    let t = report.tally;
    let (elo, margin) = t.elo();
    println!("engine1: {}", report.names.0);
    println!("engine2: {}", report.names.1);
    println!(
        "games {}: engine1 wins {}, draws {}, losses {} (score {:.1}%)",
        t.games(),
        t.wins,
        t.draws,
        t.losses,
        100.0 * t.score()
    );
    let n = t.games() as f64;
    if t.wins as f64 == n {
        // Every game won: no finite estimate; the 95% lower bound of the
        // win rate is 0.05^(1/n).
        let bound = legion_lab::stats::elo_of(0.05f64.powf(1.0 / n));
        println!("elo > {bound:+.1} (every game won; 95% lower bound)");
    } else if t.losses as f64 == n {
        let bound = legion_lab::stats::elo_of(1.0 - 0.05f64.powf(1.0 / n));
        println!("elo < {bound:+.1} (every game lost; 95% upper bound)");
    } else {
        println!("elo {elo:+.1} ± {margin:.1} (95% interval)");
    }
    if let Some(s) = report.sprt {
        let (e0, e1) = s.elo;
        let (verdict, bounds) = (
            s.verdict(),
            format!("bounds {:.2}, {:.2}", s.lower, s.upper),
        );
        match s.decided {
            Some((games, llr)) if games != report.games.len() => println!(
                "sprt({e0},{e1}): {verdict} at game {games}, llr {llr:.2} ({bounds}); \
                 with the games in flight then, llr {:.2}",
                s.llr
            ),
            _ => println!("sprt({e0},{e1}): {verdict}, llr {:.2} ({bounds})", s.llr),
        }
    }
    if let Some(path) = &a.save {
        let mut f = std::fs::File::create(path)
            .map_err(|e| Failure(format!("cannot write {path}: {e}")))?;
        for g in &report.games {
            writeln!(f, "{}", g.record.write())?;
        }
    }
    Ok(())
}
