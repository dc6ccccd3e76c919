//! A folder of table files, probed by the search and the server. The
//! folder is listed once when opened; a table is read the first time a
//! position of its ending is probed, and the least recently used ones
//! are dropped when the tables in memory would pass the budget.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use legion_rules::{Move, Position};

use super::file::{TableData, TableError, read_table};
use super::layout::Layout;
use super::material::Material;
use super::value::Value;

/// Memory for tables when none is given: 1 GiB, room for about thirty
/// of the largest four-piece tables.
pub const DEFAULT_BUDGET: usize = 1 << 30;

/// What a table says of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    /// Won, drawn or lost for the side to move, and in how many plies
    /// (repetition and the 50-move rule ignored).
    pub value: Value,
    /// Plies to the next capture, man move, crowning or King removal
    /// (the moves that reset the half-move clock, 5.3) with the winner
    /// hastening it and the loser delaying it; 0 for a draw.
    pub dtz: u16,
}

impl Probe {
    /// Whether the 50-move rule (5.3) can come before the win is turned
    /// into a reset: the clock already run plus DTZ passes 100 plies.
    pub fn fifty_move_rule_matters(&self, halfmove_clock: u32) -> bool {
        !matches!(self.value, Value::Draw) && halfmove_clock + self.dtz as u32 > 100
    }
}

/// Why a position has no value from the tables.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProbeError {
    /// More pieces than any table in the folder.
    #[error("{pieces} pieces: the tables here have at most {max} (a construct counts as one)")]
    TooManyPieces {
        /// Pieces on the board, a construct counting once.
        pieces: usize,
        /// The most in any table of the folder.
        max: usize,
    },
    /// Few enough pieces, but this ending's table was not built.
    #[error("no table for {0} in this folder")]
    Missing(String),
    /// A position the tables do not cover (castling rights, the
    /// `mate-ends-game` option), with why.
    #[error("{0}")]
    NotCovered(&'static str),
    /// The table file could not be read.
    #[error(transparent)]
    Table(#[from] TableError),
}

struct Cache {
    tables: HashMap<Material, (Arc<TableData>, u64)>,
    /// Tables that could not be read, with why: said again at once, not
    /// read again at every probe (a damaged file stays damaged).
    broken: HashMap<Material, TableError>,
    bytes: usize,
    clock: u64,
}

/// Tables in a folder, loaded per ending on demand within a memory budget.
pub struct Tablebase {
    dir: PathBuf,
    /// The folder's tables; [`Tablebase::rescan`] adds those written since.
    files: RwLock<HashMap<Material, PathBuf>>,
    max_units: AtomicUsize,
    budget: usize,
    cache: Mutex<Cache>,
}

impl std::fmt::Debug for Tablebase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Tablebase({}, {} tables, up to {} pieces)",
            self.dir.display(),
            self.len(),
            self.max_units()
        )
    }
}

impl Tablebase {
    /// Lists the table files in `dir` (files named by
    /// [`Material::file_name`]; others are ignored). Nothing is read yet.
    pub fn open(dir: &Path, budget: usize) -> Result<Tablebase, TableError> {
        let files = list(dir)?;
        let max_units = files.keys().map(|m| m.units()).max().unwrap_or(0);
        Ok(Tablebase {
            dir: dir.to_path_buf(),
            files: RwLock::new(files),
            max_units: AtomicUsize::new(max_units),
            budget,
            cache: Mutex::new(Cache {
                tables: HashMap::new(),
                broken: HashMap::new(),
                bytes: 0,
                clock: 0,
            }),
        })
    }

    /// Lists the folder again and adds the tables written since (a
    /// server that solves endings on demand); how many were added.
    pub fn rescan(&self) -> Result<usize, TableError> {
        let now = list(&self.dir)?;
        let mut files = self.files.write().unwrap_or_else(|e| e.into_inner());
        let mut added = 0;
        for (m, path) in now {
            if let std::collections::hash_map::Entry::Vacant(v) = files.entry(m) {
                self.max_units.fetch_max(m.units(), Ordering::Relaxed);
                v.insert(path);
                added += 1;
            }
        }
        Ok(added)
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// How many tables the folder has.
    pub fn len(&self) -> usize {
        self.files.read().map(|f| f.len()).unwrap_or(0)
    }

    /// Whether the folder has no table.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The most pieces in any table of the folder.
    pub fn max_units(&self) -> usize {
        self.max_units.load(Ordering::Relaxed)
    }

    /// Bytes of tables now in memory.
    pub fn loaded_bytes(&self) -> usize {
        self.cache.lock().map(|c| c.bytes).unwrap_or(0)
    }

    /// A cheap test the search makes before probing: few enough pieces,
    /// no castling right, the default rules.
    pub fn may_cover(&self, pos: &Position) -> bool {
        (pos.board().occupied().count() as usize) <= self.max_units()
            && pos.castling().is_empty()
            && !pos.rules().mate_ends_game
    }

    /// The value of `pos` from its ending's table (read now if need be).
    pub fn probe(&self, pos: &Position) -> Result<Probe, ProbeError> {
        let pieces = pos.board().occupied().count() as usize;
        if pieces > self.max_units() {
            return Err(ProbeError::TooManyPieces {
                pieces,
                max: self.max_units(),
            });
        }
        if !pos.castling().is_empty() {
            return Err(ProbeError::NotCovered(
                "the tables hold no position with castling rights",
            ));
        }
        if pos.rules().mate_ends_game {
            return Err(ProbeError::NotCovered(
                "the tables are for the default rules, not mate-ends-game (5.4)",
            ));
        }
        let m = Material::of(pos.board());
        let table = self.table(&m)?;
        let (stored, dtz) = table.get(Layout::new(&m).index(pos));
        match stored.value() {
            Some(value) => Ok(Probe { value, dtz }),
            None => Err(ProbeError::NotCovered(
                "the table has no such position (a bug or a damaged table)",
            )),
        }
    }

    /// Every legal move of `pos` with the value of the position it leads
    /// to (for the side to move there).
    pub fn probe_moves(&self, pos: &Position) -> Result<Vec<(Move, Probe)>, ProbeError> {
        pos.legal_moves()
            .iter()
            .map(|&mv| Ok((mv, self.probe(&pos.after(mv))?)))
            .collect()
    }

    fn table(&self, m: &Material) -> Result<Arc<TableData>, ProbeError> {
        let path = self
            .files
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(m)
            .cloned();
        let Some(path) = path else {
            return Err(ProbeError::Missing(m.to_string()));
        };
        // A poisoned lock only means a probe panicked elsewhere; the
        // cache itself is always whole, so take it back.
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        cache.clock += 1;
        let now = cache.clock;
        if let Some((t, used)) = cache.tables.get_mut(m) {
            *used = now;
            return Ok(t.clone());
        }
        if let Some(e) = cache.broken.get(m) {
            return Err(e.clone().into());
        }
        let t = match read_table(&path, Some(m)) {
            Ok(t) => Arc::new(t),
            Err(e) => {
                cache.broken.insert(*m, e.clone());
                return Err(e.into());
            }
        };
        // Drop the least recently used tables until this one fits (it is
        // kept even when it alone passes the budget).
        while cache.bytes + t.bytes() > self.budget && !cache.tables.is_empty() {
            let oldest = cache
                .tables
                .iter()
                .min_by_key(|(_, (_, used))| *used)
                .map(|(k, _)| *k);
            if let Some(k) = oldest
                && let Some((old, _)) = cache.tables.remove(&k)
            {
                cache.bytes -= old.bytes();
            }
        }
        cache.bytes += t.bytes();
        cache.tables.insert(*m, (t.clone(), now));
        Ok(t)
    }
}

/// The table files in `dir` (files named by [`Material::file_name`];
/// others, such as a table being written, are ignored).
fn list(dir: &Path) -> Result<HashMap<Material, PathBuf>, TableError> {
    let io = |e: std::io::Error| TableError::Io {
        path: dir.display().to_string(),
        reason: e.to_string(),
    };
    let mut files = HashMap::new();
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let entry = entry.map_err(io)?;
        let name = entry.file_name();
        if let Some(m) = name.to_str().and_then(Material::from_file_name) {
            files.insert(m, entry.path());
        }
    }
    Ok(files)
}
