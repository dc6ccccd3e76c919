//! Solved small endings (issue 21, item 4): the exact value of positions
//! with few pieces, read from table files that `legion endgame build`
//! writes (the solver is `legion_lab::endgames`; docs/STRENGTH.md).
//!
//! - `material`: an ending's pieces (`KR vs KT`) and their text.
//! - `layout`: a placement of an ending's pieces as an index, and back.
//! - `value`: a position's value (won, drawn, lost in so many plies) and
//!   its 16-bit stored form.
//! - `file`: the table file format, written and read (checked).
//! - `tablebase`: a folder of tables, loaded per ending on demand within
//!   a memory budget, probed by the search and the server.
//!
//! The tables are for the default rules (Phase 2 after a mate, 5.1); a
//! position under `mate-ends-game` (5.4) or with castling rights is not
//! in them. Repetition and the 50-move rule (5.3) are not part of the
//! values; DTZ (the plies to the next move that resets the half-move
//! clock) says when the 50-move rule gets in a win's way.

mod file;
mod layout;
mod material;
mod tablebase;
mod value;

pub use file::{FORMAT_VERSION, MAGIC, TableData, TableError, read_table, write_table};
pub use layout::Layout;
pub use material::{KINDS, KINDS_PER_SIDE, MAX_INDEX, MAX_UNITS, Material, MaterialError};
pub use tablebase::{DEFAULT_BUDGET, Probe, ProbeError, Tablebase};
pub use value::{Stored, Value};
