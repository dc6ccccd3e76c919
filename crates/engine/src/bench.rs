//! `legion bench`: a fixed set of positions searched to a fixed depth on
//! one thread with a fresh table. The total node count is a signature
//! that changes only when the search or evaluation changes.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use legion_rules::{Position, Rules};

use crate::nnue::Network;
use crate::search::{self, Config, Limits};
use crate::{Table, Weights};

/// Openings, middlegames with constructs, Phase 2, Legion endgames.
pub const POSITIONS: &[&str] = &[
    legion_rules::INITIAL_LFEN,
    "rnbkqbnr/m1m1m1m1/1m1m3m/4m3/3M4/M3M1M1/1M1M1M1M/RNBQKBNR w KQkq 0 2",
    "r1bk1bnr/m1m1m1m1/1mnm1q1m/4m3/3M1M2/M1N1M3/1M1MBM1M/R1BQK1NR w KQkq 4 6",
    "2r1k2r/3b4/1q[nM]2n2/m1m1m3/3M1M1t/2N2B2/1T1QB3/R3K2R w KQ 0 1",
    "r2k3r/m1[Bm]1m1m1/8/2M1t3/5[qT]2/2M1M3/1M3M2/R3K1NR b KQkq 0 12",
    "K6q/6m1/8/8/8/8/8/2RQR3 b - 0 1",
    "3k4/m1m1m3/8/2M5/3m4/2M1M3/8/4K3 w - 0 30",
    "1m1m1m1m/m1m1m1m1/1m1m1m1m/8/8/M1M1M1M1/1M1M1M1M/M1M1M1M1 w - 0 1",
    "4k3/2m5/8/8/3T4/8/5M2/4K3 b - 0 40",
    "r3k3/3n4/8/2b5/8/2N1M3/3B4/3RK3 w - 0 25",
];

pub const DEFAULT_DEPTH: i32 = 8;

pub struct BenchResult {
    pub lines: Vec<(String, u64)>,
    pub nodes: u64,
    pub time: Duration,
}

pub fn run(
    depth: i32,
    weights: &Weights,
    net: Option<Arc<Network>>,
    threads: usize,
) -> BenchResult {
    let mut lines = Vec::new();
    let mut nodes = 0;
    let mut time = Duration::ZERO;
    for lfen in POSITIONS {
        let pos = Position::from_lfen(lfen, Rules::DEFAULT).expect("bench positions are valid");
        let tt = Table::new(16);
        let stop = AtomicBool::new(false);
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let config = Config {
            weights: weights.clone(),
            net: net.clone(),
            threads,
            ..Config::default()
        };
        let out = search::search(&pos, &[], &limits, &config, &tt, &stop, &mut |_| {});
        nodes += out.nodes;
        time += out.time;
        lines.push((lfen.to_string(), out.nodes));
    }
    BenchResult { lines, nodes, time }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Options;

    /// The node counts `legion bench` prints, as docs/ARCHITECTURE.md
    /// states them: a change of the search or of an evaluation changes
    /// them, and must then change them here and there on purpose. About
    /// 2 s in the test profile.
    #[test]
    fn the_bench_signatures_are_the_documented_ones() {
        for (eval, signature) in [("nnue", 339_626), ("linear", 513_518)] {
            // As `legion bench [--eval linear]` makes them.
            let mut o = Options::default();
            o.set_eval(eval).unwrap();
            let r = run(DEFAULT_DEPTH, &o.weights, o.net, 1);
            assert_eq!(r.nodes, signature, "--eval {eval}");
            assert_eq!(r.lines.len(), POSITIONS.len());
            assert_eq!(r.lines.iter().map(|(_, n)| n).sum::<u64>(), r.nodes);
        }
    }
}
