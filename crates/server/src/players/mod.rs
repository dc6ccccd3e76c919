//! Players (issue 20): accounts with hashed passwords and sessions kept
//! in the database. Anonymous play needs none of it: an account is an
//! option, never a wall.

pub mod accounts;
pub mod password;
pub mod profiles;
pub mod rated;
pub mod ratings;
