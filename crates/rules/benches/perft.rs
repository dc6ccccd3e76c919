//! Perft throughput: Legion's generator on the Legion initial position, on
//! pawnless chess positions (beside cozy-chess on the same positions, in
//! the same run) and on the Russian draughts start. Every leaf is played:
//! no bulk counting, so the rates compare.
//!
//! Run: `cargo bench -p legion-rules --bench perft` (prints a Markdown table).
//! `-- --quick` runs each case once at a smaller depth (used by the tests
//! to keep this file compiling and correct, not for numbers).

use std::hint::black_box;
use std::time::{Duration, Instant};

use legion_rules::{Position, Rules, perft::perft};

/// Pawnless chess positions: FEN for cozy-chess, the same position in LFEN
/// (no en-passant field), and the depth to count.
const CHESS: &[(&str, u32)] = &[
    ("rnbqkbnr/8/8/8/8/8/8/RNBQKBNR w KQ - 0 1", 4),
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQ - 0 1", 5),
    ("2r1k2r/3b4/1qn2n2/8/8/2N2B2/1Q1B4/R3K2R w KQ - 0 1", 4),
    ("8/3k4/8/2n5/5B2/8/3K4/6R1 w - - 0 1", 5),
    ("1k6/8/8/3q4/8/8/3Q4/4K2R b K - 0 1", 5),
];

const LEGION_DEPTH: u32 = 5;
const DRAUGHTS: &str = "1m1m1m1m/m1m1m1m1/1m1m1m1m/8/8/M1M1M1M1/1M1M1M1M/M1M1M1M1 w - 0 1";
const DRAUGHTS_DEPTH: u32 = 9;

fn lfen_of(fen: &str) -> String {
    let f: Vec<&str> = fen.split(' ').collect();
    format!("{} {} {} {} {}", f[0], f[1], f[2], f[4], f[5])
}

fn cozy_perft(board: &cozy_chess::Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    board.generate_moves(|moves| {
        for m in moves {
            let mut child = board.clone();
            child.play_unchecked(m);
            nodes += cozy_perft(&child, depth - 1);
        }
        false
    });
    nodes
}

/// Best of several timed runs, at least `min` in total: nodes and seconds.
fn measure(min: Duration, mut run: impl FnMut() -> u64) -> (u64, f64) {
    let mut best = f64::INFINITY;
    let mut nodes = 0;
    let started = Instant::now();
    let mut rounds = 0;
    while rounds < 3 || started.elapsed() < min {
        let t = Instant::now();
        nodes = black_box(run());
        best = best.min(t.elapsed().as_secs_f64());
        rounds += 1;
    }
    (nodes, best)
}

/// Two generators timed in alternation, so that a slow spell of the
/// machine hits both alike; the best time of each.
fn measure_pair(
    min: Duration,
    mut a: impl FnMut() -> u64,
    mut b: impl FnMut() -> u64,
) -> ((u64, f64), (u64, f64)) {
    let (mut ra, mut rb) = ((0, f64::INFINITY), (0, f64::INFINITY));
    let started = Instant::now();
    let mut rounds = 0;
    while rounds < 5 || started.elapsed() < min {
        let x = measure(Duration::ZERO, &mut a);
        let y = measure(Duration::ZERO, &mut b);
        ra = (x.0, ra.1.min(x.1));
        rb = (y.0, rb.1.min(y.1));
        rounds += 1;
    }
    (ra, rb)
}

fn mnps(nodes: u64, secs: f64) -> f64 {
    nodes as f64 / secs / 1e6
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let min = if quick {
        Duration::ZERO
    } else {
        Duration::from_secs(3)
    };
    let shallow = |d: u32| if quick { d.min(3) } else { d };

    println!("| position | depth | nodes | Legion Mnps | cozy-chess Mnps | ratio |");
    println!("|---|---|---|---|---|---|");
    // The Legion start, timed in alternation with cozy-chess on the first
    // chess position so that both see the same machine.
    let legion = Position::initial();
    let d = shallow(LEGION_DEPTH);
    let (fen0, d0) = CHESS[0];
    let board0: cozy_chess::Board = fen0.parse().expect("bench FEN");
    let d0 = shallow(d0);
    let ((n, t), (cn, ct)) = measure_pair(min, || perft(&legion, d), || cozy_perft(&board0, d0));
    let legion_rate = mnps(n, t);
    let cozy_alongside = mnps(cn, ct);
    println!(
        "| Legion initial | {d} | {n} | {legion_rate:.1} | {cozy_alongside:.1} (first chess position, same run) | {:.2} |",
        legion_rate / cozy_alongside
    );

    let mut sum_ratio = 0.0;
    let mut cozy_sum = 0.0;
    for &(fen, depth) in CHESS {
        let d = shallow(depth);
        let pos = Position::from_lfen(&lfen_of(fen), Rules::MATE_ENDS_GAME).expect("bench LFEN");
        let board: cozy_chess::Board = fen.parse().expect("bench FEN");
        let ((n, t), (cn, ct)) = measure_pair(min, || perft(&pos, d), || cozy_perft(&board, d));
        assert_eq!(n, cn, "perft disagrees with cozy-chess on {fen}");
        let (a, b) = (mnps(n, t), mnps(cn, ct));
        sum_ratio += a / b;
        cozy_sum += b;
        println!("| `{fen}` | {d} | {n} | {a:.1} | {b:.1} | {:.2} |", a / b);
    }
    let k = CHESS.len() as f64;
    println!(
        "| pawnless chess, mean | | | | {:.1} | {:.2} |",
        cozy_sum / k,
        sum_ratio / k
    );
    println!(
        "| Legion initial vs cozy-chess mean | | | {legion_rate:.1} | {:.1} | {:.2} |",
        cozy_sum / k,
        legion_rate / (cozy_sum / k)
    );

    let draughts = Position::from_lfen(DRAUGHTS, Rules::DEFAULT).expect("draughts LFEN");
    let d = shallow(DRAUGHTS_DEPTH);
    let (n, t) = measure(min, || perft(&draughts, d));
    println!(
        "| Russian draughts start | {d} | {n} | {:.1} | | |",
        mnps(n, t)
    );
}
