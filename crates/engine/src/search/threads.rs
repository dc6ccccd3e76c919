//! The thread driver (Lazy SMP): helper threads search the same position
//! with the shared transposition table, half of them starting one depth
//! deeper so that they fill the table ahead of the main thread; the main
//! thread alone reports, decides when to stop, and gives the answer.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use legion_rules::Position;

use super::ordering::Orderer;
use super::searcher::Searcher;
use super::time::Budget;
use super::{Config, Info, Limits, Outcome};
use crate::tt::Table;

/// State shared by the threads of one search.
pub(super) struct Shared<'a> {
    pub tt: &'a Table,
    /// The caller's stop request; only read.
    pub external: &'a AtomicBool,
    /// Set when any thread decides the search is over.
    pub stop: AtomicBool,
    pub nodes: AtomicU64,
}

/// Searches `pos` on `config.threads` threads (at least one) and returns
/// the main thread's outcome with the nodes of all.
pub(super) fn run(
    pos: &Position,
    history: &[u64],
    limits: &Limits,
    config: &Config,
    tt: &Table,
    stop: &AtomicBool,
    info: &mut dyn FnMut(&Info),
) -> Outcome {
    let start = Instant::now();
    let shared = Shared {
        tt,
        external: stop,
        stop: AtomicBool::new(false),
        nodes: AtomicU64::new(0),
    };
    let budget = Budget::new(limits, pos.turn(), start);
    let threads = config.threads.max(1);
    let ordering = |id| {
        config
            .histories
            .as_ref()
            .map_or_else(Orderer::new, |h| h.take(id))
    };
    let keep = |id, t: Searcher| {
        if let Some(h) = &config.histories {
            h.give_back(id, t.into_ordering());
        }
    };
    let mut out = std::thread::scope(|scope| {
        let shared = &shared;
        for id in 1..threads {
            scope.spawn(move || {
                let mut t =
                    Searcher::new(shared, config, id, budget.helper(), history, ordering(id));
                t.iterate(pos, limits, &mut |_| {});
                keep(id, t);
            });
        }
        let mut t = Searcher::new(shared, config, 0, budget, history, ordering(0));
        let out = t.iterate(pos, limits, info);
        shared.stop.store(true, Ordering::Relaxed);
        keep(0, t);
        out
    });
    out.nodes = shared.nodes.load(Ordering::Relaxed);
    out.time = start.elapsed();
    out
}
