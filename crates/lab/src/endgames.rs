//! Small endings solved exhaustively (issue 10, item 5): for a given
//! material, every legal placement with either side to move is valued
//! win, draw or loss for the side to move, with the distance in plies.
//!
//! The solver knows no rule of its own. Positions come from
//! [`PositionBuilder::build`] (the checks of 6.2: free Legion pieces on
//! dark squares, 1.4; men off their far rank, 2.5; the side not to move
//! out of check, 3.3; a side to move that is mated has already lost its
//! King, 5.1), and moves from [`Position::legal_moves`] and
//! [`Position::after`] (captures and their effects, 4.1–4.5; crowning,
//! 2.5; King removal, 5.1). A side with no legal move has lost (5.2). A
//! move that changes the material (a capture, a crowning, a King removal)
//! leads into another ending, which is solved first, recursively, and
//! looked up.
//!
//! Draws by rule are not applied while solving: repetition and the 50-move
//! rule (5.3) are ignored, so a position is drawn exactly when neither
//! side can force a position without a legal move for the other. What the
//! 50-move rule would change is then measured: for each position, the
//! distance to the next capture, man move, crowning or King removal (the
//! moves that reset the half-move clock, 5.3) under play that wins (or
//! resists) by that measure, "DTZ". A won position with DTZ above 100
//! plies cannot be converted before the 50-move rule may be claimed.
//!
//! Method: all placements of the material get an index (a mixed-radix
//! number of the squares, dark squares only for free men and Tamas, and
//! the side to move); one forward pass generates every move once and keeps
//! the moves inside the ending as edges; the values are then found
//! backwards from the positions without a legal move, level by level of
//! distance (retrograde analysis on the stored graph), first for the
//! result and the distance to the end, then for DTZ.

use std::collections::HashMap;
use std::path::Path;
use std::time::Instant;

use legion_engine::endgames::{Layout, Stored, TableError, write_table};
pub use legion_engine::endgames::{MAX_INDEX, MAX_UNITS, Material, MaterialError, Value};
use legion_rules::{MoveList, Position};

/// What went wrong while solving.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// An ending that is too large.
    #[error(transparent)]
    Material(#[from] MaterialError),
    /// A move led to a position that no placement of its ending gives
    /// (the rules crate and the enumeration disagree about 6.2): a bug.
    #[error(
        "after {mv} in {parent} the position {child} is not among the placements of its ending"
    )]
    MissingChild {
        /// The position before the move.
        parent: String,
        /// The move, in canonical form.
        mv: String,
        /// The position after it.
        child: String,
    },
}

/// A stored value that its position's moves do not bear out (`verify`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    /// The ending could not be solved.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// A position of the ending (or one a move leads to) has no value.
    #[error("{0}: no value")]
    NoValue(String),
    /// A value and the values of the position's moves disagree: a bug.
    #[error("{0}")]
    Disagrees(String),
}

/// One solved ending: the value and the DTZ of every placement.
struct Table {
    layout: Layout,
    values: Vec<Stored>,
    dtz: Vec<u16>,
    summary: Summary,
}

/// What the solver found for one ending.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// The ending.
    pub material: Material,
    /// Positions, White to move and Black to move.
    pub positions: [u64; 2],
    /// Positions won for the side to move, White to move and Black to move.
    pub wins: [u64; 2],
    /// Drawn positions.
    pub draws: [u64; 2],
    /// Positions lost for the side to move.
    pub losses: [u64; 2],
    /// The longest win in plies (to the loser's having no legal move) and
    /// one position that needs it, for each side to move.
    pub longest_win: [Option<(u16, String)>; 2],
    /// Won positions whose DTZ is above 100 plies: the 50-move rule (5.3)
    /// can be claimed before the winner captures, moves a man or crowns.
    pub wins_over_100: [u64; 2],
    /// The largest DTZ of a won position, with one position that has it.
    pub longest_dtz: [Option<(u16, String)>; 2],
    /// Seconds spent on this ending alone (not the smaller ones).
    pub seconds: f64,
}

/// Progress of a solve: the ending being solved, placements looked at and
/// the total.
#[derive(Clone, Copy, Debug)]
pub struct Progress<'a> {
    /// The ending being enumerated.
    pub material: &'a Material,
    /// Placements done.
    pub done: u64,
    /// Placements in all.
    pub total: u64,
}

/// A store of solved endings; solving one solves every ending it leads to.
pub struct Solver<'p> {
    tables: HashMap<Material, Table>,
    order: Vec<Material>,
    progress: Box<dyn FnMut(Progress) + 'p>,
}

impl Default for Solver<'_> {
    fn default() -> Self {
        Solver::new()
    }
}

impl<'p> Solver<'p> {
    /// A solver with nothing solved, reporting no progress.
    pub fn new() -> Solver<'p> {
        Solver::with_progress(|_| {})
    }

    /// A solver that calls `progress` now and then while enumerating.
    pub fn with_progress(progress: impl FnMut(Progress) + 'p) -> Solver<'p> {
        Solver {
            tables: HashMap::new(),
            order: Vec::new(),
            progress: Box::new(progress),
        }
    }

    /// Solves `m` (and first every ending it leads to) and says what it found.
    pub fn solve(&mut self, m: &Material) -> Result<&Summary, SolveError> {
        self.ensure(m)?;
        Ok(&self.tables[m].summary)
    }

    /// Writes the table file of every ending solved so far into `dir`
    /// (named by [`Material::file_name`], format of
    /// `legion_engine::endgames`), smaller endings first, telling `each`
    /// of every file and its size in bytes. Returns the bytes written.
    pub fn write_tables(
        &self,
        dir: &Path,
        mut each: impl FnMut(&Material, u64),
    ) -> Result<u64, TableError> {
        self.write_where(dir, |_| true, &mut each)
    }

    /// As [`Solver::write_tables`], but only the endings `dir` has no
    /// file for yet (a server solving on demand, whose files are being
    /// read). Returns the bytes written.
    pub fn write_new_tables(&self, dir: &Path) -> Result<u64, TableError> {
        self.write_where(dir, |path| !path.exists(), &mut |_, _| {})
    }

    /// Writes the tables whose path `keep` accepts, smaller endings first.
    fn write_where(
        &self,
        dir: &Path,
        keep: impl Fn(&Path) -> bool,
        each: &mut dyn FnMut(&Material, u64),
    ) -> Result<u64, TableError> {
        let mut total = 0;
        for m in &self.order {
            let path = dir.join(m.file_name());
            if !keep(&path) {
                continue;
            }
            let t = &self.tables[m];
            let bytes = write_table(&path, m, &t.values, &t.dtz)?;
            each(m, bytes);
            total += bytes;
        }
        Ok(total)
    }

    /// Every ending solved so far, smaller ones first.
    pub fn summaries(&self) -> Vec<&Summary> {
        self.order.iter().map(|m| &self.tables[m].summary).collect()
    }

    /// The value of `pos` (solving its ending if need be), or `None` when
    /// it is not a placement the solver covers (castling rights, or a man
    /// where 6.2 forbids it).
    pub fn probe(&mut self, pos: &Position) -> Result<Option<Value>, SolveError> {
        Ok(self.probe_with_dtz(pos)?.map(|(v, _)| v))
    }

    /// The value of `pos` and its DTZ (plies to the next capture, man move,
    /// crowning or King removal with the side to move winning, or losing,
    /// by that measure; 0 for a drawn position).
    pub fn probe_with_dtz(&mut self, pos: &Position) -> Result<Option<(Value, u16)>, SolveError> {
        if !pos.castling().is_empty() {
            return Ok(None);
        }
        let m = Material::of(pos.board());
        self.ensure(&m)?;
        let t = &self.tables[&m];
        let i = t.layout.index(pos) as usize;
        Ok(t.values[i].value().map(|v| (v, t.dtz[i])))
    }

    /// Checks every position of a solved ending against its moves, one
    /// ply deep (the equations the values must satisfy, found again from
    /// [`Position::legal_moves`] and not from the stored graph): a
    /// position without a legal move is lost in 0 (5.2); a win in `d` has
    /// a move to a loss in `d - 1` and none to a faster loss; a loss in `d`
    /// has only moves to wins, the slowest in `d - 1`; a draw has a move to
    /// a draw and none to a loss. DTZ likewise, a move that resets the
    /// half-move clock counting 1. Returns the number of positions
    /// checked, or the first that fails, with why.
    pub fn verify(&mut self, m: &Material) -> Result<u64, VerifyError> {
        self.ensure(m)?;
        let layout = self.tables[m].layout.clone();
        let mut checked = 0;
        let mut list = MoveList::new();
        for idx in 0..layout.size() {
            let Some(pos) = layout.position(idx) else {
                continue;
            };
            let (v, z) = self
                .probe_with_dtz(&pos)?
                .ok_or_else(|| VerifyError::NoValue(pos.to_lfen()))?;
            list.clear();
            pos.legal_moves_into(&mut list);
            // Fastest loss among children and its DTZ step; slowest win.
            let mut fastest_loss: Option<u16> = None;
            let mut slowest_win: Option<u16> = None;
            let mut draw = false;
            let mut win_dtz: Option<u16> = None;
            let mut loss_dtz: u16 = 0;
            for &mv in list.iter() {
                let child = pos.after(mv);
                let (cv, cz) = self
                    .probe_with_dtz(&child)?
                    .ok_or_else(|| VerifyError::NoValue(child.to_lfen()))?;
                let step = if child.halfmove_clock() == 0 {
                    1
                } else {
                    cz + 1
                };
                match cv {
                    Value::Loss(d) => {
                        fastest_loss = Some(fastest_loss.map_or(d, |f| f.min(d)));
                        win_dtz = Some(win_dtz.map_or(step, |w| w.min(step)));
                    }
                    Value::Win(d) => {
                        slowest_win = Some(slowest_win.map_or(d, |w| w.max(d)));
                        loss_dtz = loss_dtz.max(step);
                    }
                    Value::Draw => draw = true,
                }
            }
            let ok = match v {
                Value::Win(d) => fastest_loss == Some(d.wrapping_sub(1)) && win_dtz == Some(z),
                Value::Loss(0) => list.is_empty() && z == 0,
                Value::Loss(d) => {
                    fastest_loss.is_none() && !draw && slowest_win == Some(d - 1) && loss_dtz == z
                }
                Value::Draw => fastest_loss.is_none() && draw,
            };
            if !ok {
                return Err(VerifyError::Disagrees(format!(
                    "{}: stored {v:?} (DTZ {z}), but its moves give: fastest loss {fastest_loss:?}, slowest win {slowest_win:?}, a draw {draw}, DTZ as winner {win_dtz:?}, as loser {loss_dtz}",
                    pos.to_lfen()
                )));
            }
            checked += 1;
        }
        Ok(checked)
    }

    fn ensure(&mut self, m: &Material) -> Result<(), SolveError> {
        if self.tables.contains_key(m) {
            return Ok(());
        }
        if m.units() > MAX_UNITS {
            return Err(MaterialError::TooManyPieces(m.units()).into());
        }
        if m.index_size() > MAX_INDEX {
            return Err(MaterialError::TooLarge {
                material: m.to_string(),
                size: m.index_size(),
            }
            .into());
        }
        let table = self.build(m)?;
        self.tables.insert(*m, table);
        self.order.push(*m);
        Ok(())
    }

    /// The value (for its side to move) of a position of another ending.
    fn lookup(&mut self, pos: &Position, m: &Material) -> Result<Option<Value>, SolveError> {
        self.ensure(m)?;
        let t = &self.tables[m];
        Ok(t.values[t.layout.index(pos) as usize].value())
    }

    /// Solves ending `m`, the endings its captures, crownings and King
    /// removals lead to first: the move graph, then the results and
    /// distances to the end, then DTZ, then the summary.
    fn build(&mut self, m: &Material) -> Result<Table, SolveError> {
        let start = Instant::now();
        let layout = Layout::new(m);
        let graph = self.graph(m, &layout)?;
        let values = results(&graph);
        let dtz = dtz(&graph, &values);
        let mut summary = summarise(m, &layout, &graph, &values, &dtz);
        summary.seconds = start.elapsed().as_secs_f64();
        Ok(Table {
            layout,
            values,
            dtz,
            summary,
        })
    }

    /// The forward pass: every move of every position once. Moves that
    /// stay in the ending are edges; moves into another ending are looked
    /// up there and summarised per position (`Exits`). Then the reverse
    /// edges.
    fn graph(&mut self, m: &Material, layout: &Layout) -> Result<Graph, SolveError> {
        let n = layout.size() as usize;
        let mut node = vec![false; n];
        let mut offsets: Vec<u32> = vec![0; n + 1];
        let mut edges: Vec<Edge> = Vec::new();
        let mut exits = vec![Exits::default(); n];
        let mut list = MoveList::new();
        for idx in 0..n {
            if idx % (1 << 16) == 0 {
                (self.progress)(Progress {
                    material: m,
                    done: idx as u64,
                    total: n as u64,
                });
            }
            if let Some(pos) = layout.position(idx as u64) {
                node[idx] = true;
                list.clear();
                pos.legal_moves_into(&mut list);
                for &mv in list.iter() {
                    let child = pos.after(mv);
                    let cm = Material::of(child.board());
                    if cm == *m {
                        let resets = child.halfmove_clock() == 0;
                        edges.push(Edge::new(layout.index(&child) as usize, resets));
                        continue;
                    }
                    let Some(value) = self.lookup(&child, &cm)? else {
                        return Err(SolveError::MissingChild {
                            parent: pos.to_lfen(),
                            mv: legion_rules::notation::canonical(&pos, mv),
                            child: child.to_lfen(),
                        });
                    };
                    exits[idx].add(value);
                }
            }
            offsets[idx + 1] = edges.len() as u32;
        }
        (self.progress)(Progress {
            material: m,
            done: n as u64,
            total: n as u64,
        });
        // Every edge must end at a placement of this ending.
        for idx in 0..n {
            for e in &edges[offsets[idx] as usize..offsets[idx + 1] as usize] {
                if !node[e.node()] {
                    let pos = layout.position(idx as u64);
                    return Err(SolveError::MissingChild {
                        parent: pos.map(|p| p.to_lfen()).unwrap_or_default(),
                        mv: String::new(),
                        child: format!("index {}", e.node()),
                    });
                }
            }
        }
        let (roffsets, parents) = reverse(&offsets, &edges);
        Ok(Graph {
            node,
            offsets,
            edges,
            roffsets,
            parents,
            exits,
        })
    }
}

/// A move that stays inside its ending, as the move graph keeps it: the
/// index of the position at its other end (the child in the forward
/// edges, the parent in the reverse ones), and whether the move resets
/// the half-move clock (a man move, 5.3), which ends a DTZ count. 32 bits
/// (an index is below `MAX_INDEX`, 2^25): the graph is most of the
/// solver's memory.
#[derive(Clone, Copy, Debug)]
#[repr(transparent)]
struct Edge(u32);

impl Edge {
    const RESETS_CLOCK: u32 = 1 << 31;

    fn new(node: usize, resets_clock: bool) -> Edge {
        Edge(node as u32 | if resets_clock { Edge::RESETS_CLOCK } else { 0 })
    }

    /// The same move seen from its other end.
    fn to(self, node: usize) -> Edge {
        Edge::new(node, self.resets_clock())
    }

    fn node(self) -> usize {
        (self.0 & !Edge::RESETS_CLOCK) as usize
    }

    fn resets_clock(self) -> bool {
        self.0 & Edge::RESETS_CLOCK != 0
    }
}

/// What a position's moves out of its ending (captures, crownings, King
/// removals) lead to, valued in the endings solved before, for the side
/// to move there.
#[derive(Clone, Copy, Debug, Default)]
struct Exits {
    /// Some move leaves the ending.
    any: bool,
    /// One leads to a draw.
    draw: bool,
    /// The fastest loss among them: a win for the side to move here.
    fastest_loss: Option<u16>,
    /// The slowest win among them (0 if none): where the opponent wins.
    slowest_win: u16,
}

impl Exits {
    fn add(&mut self, v: Value) {
        self.any = true;
        match v {
            Value::Loss(d) => self.fastest_loss = Some(self.fastest_loss.map_or(d, |f| f.min(d))),
            Value::Win(d) => self.slowest_win = self.slowest_win.max(d),
            Value::Draw => self.draw = true,
        }
    }
}

/// An ending's move graph: its moves inside it, both ways, and per
/// position what the others lead to.
struct Graph {
    /// Which indices are positions (the others place no legal position).
    node: Vec<bool>,
    /// The moves of position `i` are `edges[offsets[i]..offsets[i + 1]]`.
    offsets: Vec<u32>,
    edges: Vec<Edge>,
    /// The moves into position `i` are `parents[roffsets[i]..roffsets[i + 1]]`.
    roffsets: Vec<u32>,
    parents: Vec<Edge>,
    exits: Vec<Exits>,
}

impl Graph {
    fn len(&self) -> usize {
        self.node.len()
    }

    fn children(&self, i: usize) -> &[Edge] {
        &self.edges[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }

    fn parents(&self, i: usize) -> &[Edge] {
        &self.parents[self.roffsets[i] as usize..self.roffsets[i + 1] as usize]
    }
}

/// The reverse edges of `edges` (by position: `offsets`), in the same
/// layout: offsets and the parents, each with its move's clock flag.
fn reverse(offsets: &[u32], edges: &[Edge]) -> (Vec<u32>, Vec<Edge>) {
    let n = offsets.len() - 1;
    let mut roffsets: Vec<u32> = vec![0; n + 1];
    for e in edges {
        roffsets[e.node() + 1] += 1;
    }
    for i in 0..n {
        roffsets[i + 1] += roffsets[i];
    }
    let mut fill = roffsets.clone();
    let mut parents = vec![Edge(0); edges.len()];
    for idx in 0..n {
        for &e in &edges[offsets[idx] as usize..offsets[idx + 1] as usize] {
            let c = e.node();
            parents[fill[c] as usize] = e.to(idx);
            fill[c] += 1;
        }
    }
    (roffsets, parents)
}

/// Positions by distance, taken in increasing order; each level may add
/// to the ones after it.
#[derive(Default)]
struct Levels(Vec<Vec<u32>>);

impl Levels {
    fn push(&mut self, d: u16, i: usize) {
        let d = d as usize;
        if self.0.len() <= d {
            self.0.resize_with(d + 1, Vec::new);
        }
        self.0[d].push(i as u32);
    }

    /// The positions at distance `d`, or `None` past the last level.
    fn take(&mut self, d: usize) -> Option<Vec<u32>> {
        self.0.get_mut(d).map(std::mem::take)
    }
}

/// The result and distance to the end of every position, level by level
/// from the positions without a move (5.2) or whose every move leaves
/// the ending into a loss; what no level reaches is drawn.
fn results(g: &Graph) -> Vec<Stored> {
    let n = g.len();
    let mut values = vec![Stored::UNKNOWN; n];
    // A win found at this distance (u16::MAX: none yet).
    let mut pending = vec![u16::MAX; n];
    // Moves inside the ending not yet known to lead to a win for the
    // opponent.
    let mut left: Vec<u16> = (0..n).map(|i| g.children(i).len() as u16).collect();
    let mut levels = Levels::default();
    for i in 0..n {
        if !g.node[i] {
            continue;
        }
        let exits = g.exits[i];
        if let Some(loss) = exits.fastest_loss {
            pending[i] = loss + 1;
            levels.push(pending[i], i);
        } else if left[i] == 0 && !exits.draw {
            // No move (5.2: lost now), or every move leaves the ending
            // into a position the opponent wins.
            let d = if exits.any { exits.slowest_win + 1 } else { 0 };
            levels.push(d, i);
        }
    }
    let mut d = 0;
    while let Some(level) = levels.take(d) {
        let at = d as u16;
        for &i in &level {
            let i = i as usize;
            if values[i] != Stored::UNKNOWN {
                continue;
            }
            let lost = pending[i] != at;
            values[i] = Stored::of(if lost {
                Value::Loss(at)
            } else {
                Value::Win(at)
            });
            for p in g.parents(i) {
                let p = p.node();
                if values[p] != Stored::UNKNOWN {
                    continue;
                }
                if lost {
                    if pending[p] > at + 1 {
                        pending[p] = at + 1;
                        levels.push(at + 1, p);
                    }
                } else {
                    left[p] -= 1;
                    if left[p] == 0 && pending[p] == u16::MAX && !g.exits[p].draw {
                        let dp = at.max(g.exits[p].slowest_win) + 1;
                        levels.push(dp, p);
                    }
                }
            }
        }
        d += 1;
    }
    for (v, &node) in values.iter_mut().zip(&g.node) {
        if node && *v == Stored::UNKNOWN {
            *v = Stored::DRAW;
        }
    }
    values
}

/// DTZ, found as the results are, with every move that resets the
/// half-move clock an end: a won position with such a move into a loss,
/// or a move out of the ending into a loss, is 1 ply from a reset; a lost
/// position whose every move resets the clock or leaves the ending is 1
/// too (0 when it has no move: the game is over, 5.2).
fn dtz(g: &Graph, values: &[Stored]) -> Vec<u16> {
    let n = g.len();
    let mut dtz = vec![0u16; n];
    let mut done = vec![false; n];
    let mut pending = vec![u16::MAX; n];
    // A lost position's moves that keep the clock, not yet known to lead
    // to a win for the opponent.
    let mut left = vec![0u16; n];
    let mut levels = Levels::default();
    for i in 0..n {
        let v = values[i];
        if !g.node[i] || v == Stored::DRAW {
            continue;
        }
        let out = g.children(i);
        if v.is_win() {
            let zero_win = g.exits[i].fastest_loss.is_some()
                || out
                    .iter()
                    .any(|e| e.resets_clock() && values[e.node()].is_loss());
            if zero_win {
                pending[i] = 1;
                levels.push(1, i);
            }
        } else {
            let quiet = out.iter().filter(|e| !e.resets_clock()).count() as u16;
            left[i] = quiet;
            if quiet == 0 {
                let d = if out.is_empty() && !g.exits[i].any {
                    0
                } else {
                    1
                };
                levels.push(d, i);
            }
        }
    }
    let mut d = 0;
    while let Some(level) = levels.take(d) {
        let at = d as u16;
        for &i in &level {
            let i = i as usize;
            if done[i] {
                continue;
            }
            done[i] = true;
            dtz[i] = at;
            let i_lost = values[i].is_loss();
            for p in g.parents(i) {
                if p.resets_clock() {
                    continue;
                }
                let p = p.node();
                if done[p] {
                    continue;
                }
                if i_lost && values[p].is_win() {
                    if pending[p] > at + 1 {
                        pending[p] = at + 1;
                        levels.push(at + 1, p);
                    }
                } else if !i_lost && values[p].is_loss() {
                    left[p] -= 1;
                    if left[p] == 0 {
                        levels.push(at + 1, p);
                    }
                }
            }
        }
        d += 1;
    }
    dtz
}

/// The counts, the longest win and the longest DTZ of each side to move
/// (`seconds` left at 0 for the caller).
fn summarise(m: &Material, layout: &Layout, g: &Graph, values: &[Stored], dtz: &[u16]) -> Summary {
    let n = g.len();
    let mut s = Summary {
        material: *m,
        positions: [0; 2],
        wins: [0; 2],
        draws: [0; 2],
        losses: [0; 2],
        longest_win: [None, None],
        wins_over_100: [0; 2],
        longest_dtz: [None, None],
        seconds: 0.0,
    };
    // White to move in the first half of the indices, Black in the second.
    let half = n / 2;
    let mut best_win: [Option<(u16, usize)>; 2] = [None, None];
    let mut best_dtz: [Option<(u16, usize)>; 2] = [None, None];
    for i in 0..n {
        if !g.node[i] {
            continue;
        }
        let side = i / half;
        s.positions[side] += 1;
        match values[i].value() {
            Some(Value::Win(w)) => {
                s.wins[side] += 1;
                if best_win[side].is_none_or(|(b, _)| w > b) {
                    best_win[side] = Some((w, i));
                }
                if best_dtz[side].is_none_or(|(b, _)| dtz[i] > b) {
                    best_dtz[side] = Some((dtz[i], i));
                }
                if dtz[i] > 100 {
                    s.wins_over_100[side] += 1;
                }
            }
            Some(Value::Loss(_)) => s.losses[side] += 1,
            _ => s.draws[side] += 1,
        }
    }
    let lfen = |i: usize| {
        layout
            .position(i as u64)
            .map(|p| p.to_lfen())
            .unwrap_or_default()
    };
    for side in 0..2 {
        s.longest_win[side] = best_win[side].map(|(d, i)| (d, lfen(i)));
        s.longest_dtz[side] = best_dtz[side].map(|(d, i)| (d, lfen(i)));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(lfen: &str) -> Position {
        lfen.parse().unwrap()
    }

    #[test]
    fn material_reads_and_writes_the_syntax_of_endings_py() {
        for text in [
            "KT vs K",
            "KR/M vs KT",
            "K/MR/M vs KTTTT",
            "KT vs -",
            "- vs K",
        ] {
            let m: Material = text.parse().unwrap();
            assert_eq!(m.to_string(), text);
        }
        // Order as endings.py sorts: K Q R B N T M, then the text.
        let m: Material = "TKB/M vs K".parse().unwrap();
        assert_eq!(m.to_string(), "KB/MT vs K");
        assert_eq!(m.flipped().to_string(), "K vs KB/MT");
    }

    #[test]
    fn bad_material_is_an_error_not_a_panic() {
        let bad = [
            "",
            "KT",
            "KT vs K vs K",
            "KX vs K",
            "kt vs K",
            "KM/T vs K",
            "KR/ vs K",
            "KR/Q vs K",
            "KK vs K",
            "K/MK vs K",
            "KTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTT vs K",
            "Кр vs K",
            "/ vs /",
        ];
        for text in bad {
            assert!(text.parse::<Material>().is_err(), "{text:?} was accepted");
        }
        let big: Material = "KQRB vs KN".parse().unwrap();
        let err = Solver::new().solve(&big).unwrap_err();
        assert!(matches!(
            err,
            SolveError::Material(MaterialError::TooLarge { .. })
        ));
        let many: Material = "KTTT vs KTT".parse().unwrap();
        let err = Solver::new().solve(&many).unwrap_err();
        assert!(matches!(
            err,
            SolveError::Material(MaterialError::TooManyPieces(7))
        ));
    }

    #[test]
    fn a_side_with_nothing_has_lost_and_a_move_against_it_wins() {
        // 5.2: no pieces left, no legal move: lost in 0 plies. White to
        // move with a lone King moves, and Black has then lost: won in 1.
        let mut s = Solver::new();
        assert_eq!(
            s.probe(&pos("8/8/8/8/8/8/8/K7 b - 0 1")).unwrap(),
            Some(Value::Loss(0))
        );
        assert_eq!(
            s.probe(&pos("8/8/8/8/8/8/8/K7 w - 0 1")).unwrap(),
            Some(Value::Win(1))
        );
        let sum = s.solve(&"K vs -".parse().unwrap()).unwrap().clone();
        assert_eq!(sum.positions, [64, 64]);
        assert_eq!(sum.wins, [64, 0]);
        assert_eq!(sum.losses, [0, 64]);
    }

    #[test]
    fn two_lone_kings_are_drawn() {
        // A King never captures a King (3.1) and two Kings never stand
        // side by side (3.2, 3.3); a lone King always has a move (of its
        // three to eight neighbours the other King covers at most two
        // when they do not touch), so nobody can run out of moves: every
        // position is drawn (and dead by 5.3).
        let mut s = Solver::new();
        let sum = s.solve(&"K vs K".parse().unwrap()).unwrap().clone();
        // 64 * 63 placements, minus those with the Kings side by side:
        // 4 corners * 3 + 24 edge squares * 5 + 36 inner * 8 = 420.
        assert_eq!(sum.positions, [64 * 63 - 420, 64 * 63 - 420]);
        assert_eq!(sum.draws, sum.positions);
    }

    #[test]
    fn men_without_kings_by_hand() {
        let mut s = Solver::new();
        // Phase 2, no Kings (5.1). Black man a3, White man b2, Black to
        // move: a3 must jump b2 to c1 (4.2, 4.3) and crowns there (2.5);
        // White has nothing left, no legal move, and has lost (5.2).
        assert_eq!(
            s.probe(&pos("8/8/8/8/8/m7/1M6/8 b - 0 1")).unwrap(),
            Some(Value::Win(1))
        );
        // White to move: b2 cannot jump a3 (nothing beyond the edge, 4.3),
        // so b2-c3 is its only move; Black's a3 then has only a3-b2; White
        // must jump c3:a1 (4.2, a man jumps backwards too, 4.3) and Black,
        // with nothing left, has lost: won in 3 plies.
        assert_eq!(
            s.probe(&pos("8/8/8/8/8/m7/1M6/8 w - 0 1")).unwrap(),
            Some(Value::Win(3))
        );
        // A man with no move: White man a7, Black Tama b8. A man steps
        // forward only (2.4) and b8, on the edge, cannot be jumped (4.3):
        // White to move has no legal move and has lost in 0 (5.2).
        assert_eq!(
            s.probe(&pos("1t6/M7/8/8/8/8/8/8 w - 0 1")).unwrap(),
            Some(Value::Loss(0))
        );
    }

    #[test]
    fn mate_in_one_wins_in_one_ply() {
        let mut s = Solver::new();
        // King and Rook against King: Black King a8, White King b6, Rook
        // h1. Rh8 is mate (a7 and b7 are the King's, b8 and a8 the
        // Rook's, 3.4); the mated King leaves the board (5.1) and Black,
        // with nothing left, has no legal move: lost (5.2). Nothing wins
        // faster than one ply.
        let p = pos("k7/8/1K6/8/8/8/8/7R w - 0 1");
        assert_eq!(s.probe(&p).unwrap(), Some(Value::Win(1)));
        // Black to move there has a legal move (Kb8), so it has not lost
        // in 0; it cannot reach the Rook, and King and Rook win against a
        // lone King as in chess (here a stalemate would win too, 5.2).
        let p = pos("k7/8/1K6/8/8/8/8/7R b - 0 1");
        let v = s.probe(&p).unwrap().unwrap();
        assert!(matches!(v, Value::Loss(d) if d >= 2), "{v:?}");
    }

    #[test]
    fn stalemate_is_a_loss_for_the_side_without_a_move() {
        // 5.2: no legal move loses, in check or not. Black King a1, White
        // King c2 (covers b1 and b2, 3.2), White Knight b4 (covers a2, does
        // not attack a1). Black to move has no legal move (3.3): lost in 0.
        let mut s = Solver::new();
        let p = pos("8/8/8/8/1N6/8/2K5/k7 b - 0 1");
        assert!(!p.is_check());
        assert_eq!(s.probe(&p).unwrap(), Some(Value::Loss(0)));
        // One move earlier, Knight on d3 and White to move: Nb4 leaves
        // Black without a move, so White wins in one ply.
        let p = pos("8/8/8/8/8/3N4/2K5/k7 w - 0 1");
        assert_eq!(s.probe(&p).unwrap(), Some(Value::Win(1)));
    }

    #[test]
    fn every_value_agrees_with_the_moves_one_ply_deep() {
        // Endings with men, Tamas, constructs, crowning, captures into
        // other endings and Phase 2: each position's value is checked
        // against its moves (generated again, not read from the graph).
        let mut s = Solver::new();
        for text in ["KT vs M", "T vs KN"] {
            let m: Material = text.parse().unwrap();
            let n = s.verify(&m).unwrap();
            let sum = s.solve(&m).unwrap();
            assert_eq!(n, sum.positions[0] + sum.positions[1], "{text}");
        }
    }
}
