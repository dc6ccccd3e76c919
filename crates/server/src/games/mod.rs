//! The game core: live games and every action on them (`hub`), knowing
//! nothing of HTTP. A game in memory (`live`) and the bounded cache of them
//! (`cache`), seats, clocks, offers, records, the words of a game
//! (`model`), its JSON views (`view`), who plays it (`players`: accounts
//! and ratings), ids and secrets (`ids`), and how
//! several servers keep their copies in step (`cluster`).

pub mod cache;
pub mod chat;
pub mod clock;
pub(crate) mod cluster;
pub mod event;
pub mod hub;
pub mod ids;
pub mod live;
pub mod model;
pub mod offers;
pub mod players;
pub mod record;
pub mod refusal;
pub mod seats;
pub mod view;
