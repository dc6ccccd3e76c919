//! Studies: analyses kept on the server, with their move trees, comments,
//! arrows and circles, in chapters, shared by a read-only link and edited
//! by their owner (an account, or the browser that holds the edit key).
//! No HTTP here: `model` is the study as saved, `check` replays every tree
//! with the rules crate and bounds every size, `refusal` says why a study
//! is refused (mapped to the API's errors in `http::studies`).

pub mod actions;
pub mod check;
pub mod model;
pub mod refusal;

pub use actions::{Asker, Shown};
pub use check::{Checked, check};
pub use model::{Chapter, Draft, Node, Shape};
pub use refusal::StudyRefusal;
