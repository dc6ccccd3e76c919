//! The Legion lab: everything that measures or tunes a player rather than
//! plays. Players (the engine, simple movers and external programs), the
//! match runner, Elo and SPRT statistics, the balanced openings, and the
//! tuning of the evaluation weights. It drives `legion-engine` from
//! outside; the engine knows nothing of it.

pub mod datafile;
pub mod datagen;
pub mod endgames;
pub mod external;
pub mod openings;
pub mod player;
pub mod puzzles;
pub mod spsa;
pub mod stats;
pub mod tournament;
pub mod train;
pub mod tune;
