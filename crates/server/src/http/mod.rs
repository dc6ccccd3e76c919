//! The HTTP and WebSocket edge: routes, the game socket, the guards every
//! request passes (hosts, origins, headers), rate limits and socket caps,
//! the one API error built from the core's refusals, and the built-in pages.

pub mod account;
pub mod api;
pub mod assets;
pub mod chat;
pub mod conn;
pub mod endgames;
pub mod error;
pub mod guard;
pub mod limits;
pub mod lobby;
pub(crate) mod logs;
pub mod profiles;
pub mod puzzles;
pub mod studies;
pub(crate) mod ws;
