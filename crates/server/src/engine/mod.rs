//! The engine's work for the server: one pool of search threads
//! (`pool`), and what is searched in it: game moves and draw decisions
//! (`work`), and whole-game analyses (`analysis`); and, beside the pool,
//! endings solved on demand (`solving`).

pub mod analysis;
pub mod pool;
pub mod solving;
pub mod work;
