//! Endings solved on demand (issue 21, docs/API.md "Solved endings"):
//! when `GET /api/endgame` asks about a position whose ending has no table
//! yet and few enough pieces (`legion serve --solve-endings N`, 3 by
//! default), the ending is solved here by the exhaustive solver, on a
//! thread of its own, and its table and those of the endings it leads to
//! are written into the server's folder and added to the tablebase. The
//! next ask is answered from the table. So a new site answers for every
//! ending of three pieces (half a second each) without a table built
//! beforehand, and for every ending of four (some 20 s and 2 GB each) when
//! its host allows it.
//!
//! What one client can make the server spend is bounded: one ending at a
//! time, a short queue (a full queue refuses), a disk budget for the
//! tables written, and the per-client rate of `/api/endgame`.

use std::collections::{HashMap, VecDeque};
use std::path::Path;
use std::sync::{Arc, Mutex};

use legion_engine::endgames::{Material, Tablebase};
use legion_lab::endgames::Solver;

/// Endings waiting at most, besides the one being solved.
pub const QUEUE: usize = 8;

/// The disk the solved tables may take by default (2 GB: every ending of
/// three pieces a game reaches, and some dozens of four).
pub const DEFAULT_DISK_BUDGET: u64 = 2_000_000_000;

/// What became of an ask.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Asked {
    /// Being solved, or waiting with `ahead` endings before it.
    Solving { ahead: usize },
    /// Not solved here, and why.
    Refused(Refusal),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// More pieces than this server solves.
    TooManyPieces { max: usize },
    /// The queue is full: ask again later.
    Busy,
    /// The tables written have used the disk budget.
    DiskFull,
    /// Solving it failed before (said once in the log; not tried again).
    Failed,
}

#[derive(Default)]
struct State {
    queue: VecDeque<Material>,
    running: Option<Material>,
    failed: HashMap<Material, String>,
    disk_used: u64,
    worker: bool,
}

/// The on-demand solver of a tablebase folder.
pub struct Solving {
    tables: Arc<Tablebase>,
    max_units: usize,
    disk_budget: u64,
    state: Mutex<State>,
}

impl std::fmt::Debug for Solving {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Solving(up to {} pieces)", self.max_units)
    }
}

/// The bytes of the files in `dir` (the tables there count against the
/// budget).
fn used(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .filter_map(|e| e.metadata().ok())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0)
}

impl Solving {
    /// Solves endings of at most `max_units` pieces (a construct counts
    /// once) into `tables`' folder, within `disk_budget` bytes there.
    pub fn new(tables: Arc<Tablebase>, max_units: usize, disk_budget: u64) -> Arc<Solving> {
        let disk_used = used(tables.dir());
        Arc::new(Solving {
            tables,
            max_units,
            disk_budget,
            state: Mutex::new(State {
                disk_used,
                ..State::default()
            }),
        })
    }

    /// The most pieces solved on demand.
    pub fn max_units(&self) -> usize {
        self.max_units
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        // The state is whole between statements: a panic elsewhere
        // leaves nothing half done.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Asks for `m` to be solved (it has no table yet).
    pub fn ask(self: &Arc<Self>, m: Material) -> Asked {
        if m.units() > self.max_units {
            return Asked::Refused(Refusal::TooManyPieces {
                max: self.max_units,
            });
        }
        let mut s = self.state();
        if s.failed.contains_key(&m) {
            return Asked::Refused(Refusal::Failed);
        }
        let running = usize::from(s.running.is_some());
        if s.running == Some(m) {
            return Asked::Solving { ahead: 0 };
        }
        if let Some(i) = s.queue.iter().position(|q| *q == m) {
            return Asked::Solving { ahead: i + running };
        }
        if s.disk_used >= self.disk_budget {
            return Asked::Refused(Refusal::DiskFull);
        }
        if s.queue.len() >= QUEUE {
            return Asked::Refused(Refusal::Busy);
        }
        s.queue.push_back(m);
        let ahead = s.queue.len() - 1 + running;
        if !s.worker {
            let me = self.clone();
            let spawned = std::thread::Builder::new()
                .name("endgame-solver".into())
                .spawn(move || me.work());
            match spawned {
                Ok(_) => s.worker = true,
                Err(e) => {
                    tracing::error!("the endgame solver's thread: {e}");
                    s.queue.pop_back();
                    return Asked::Refused(Refusal::Busy);
                }
            }
        }
        Asked::Solving { ahead }
    }

    /// Solves the queue, one ending at a time, then ends.
    fn work(self: Arc<Self>) {
        loop {
            let m = {
                let mut s = self.state();
                match s.queue.pop_front() {
                    Some(m) => {
                        s.running = Some(m);
                        m
                    }
                    None => {
                        s.running = None;
                        s.worker = false;
                        return;
                    }
                }
            };
            let started = std::time::Instant::now();
            let result = std::panic::catch_unwind(|| self.solve(&m))
                .unwrap_or_else(|_| Err("the solver panicked".to_string()));
            let mut s = self.state();
            s.running = None;
            match result {
                Ok(bytes) => {
                    s.disk_used += bytes;
                    tracing::info!(
                        "solved the ending {m} in {:.1} s: {bytes} bytes of tables",
                        started.elapsed().as_secs_f64()
                    );
                }
                Err(why) => {
                    tracing::error!("solving the ending {m}: {why}");
                    s.failed.insert(m, why);
                }
            }
        }
    }

    /// Solves `m` and everything it leads to, writes the tables the folder
    /// lacks, and adds them to the tablebase. The bytes written.
    fn solve(&self, m: &Material) -> Result<u64, String> {
        let mut solver = Solver::new();
        solver.solve(m).map_err(|e| e.to_string())?;
        let bytes = solver
            .write_new_tables(self.tables.dir())
            .map_err(|e| e.to_string())?;
        self.tables.rescan().map_err(|e| e.to_string())?;
        Ok(bytes)
    }
}
