//! The server's integration tests, one module per subject, in one test
//! binary: each binary links the whole server, and sixteen of them took
//! some eight minutes of the CI's build on two cores.
//!
//! Run one subject with a filter: `cargo test -p legion-server --test
//! suite -- accounts::`. The slow ones (`load::`, `soak::`,
//! `lobby_load::`) are `#[ignore]`d, as before; scripts/test.sh runs them
//! with `--ignored`. `LEGION_TEST_BACKEND=postgres` (scripts/with-postgres.sh)
//! puts the subjects that take a database on PostgreSQL.

mod common;

mod accounts;
mod api;
mod cluster;
mod endgame;
mod hosting;
mod i18n;
mod languages;
mod lessons;
mod load;
mod lobby;
mod lobby_load;
mod players;
mod puzzles;
mod soak;
mod storage;
mod studies;
