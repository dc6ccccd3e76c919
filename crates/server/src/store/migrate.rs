//! `legion migrate`: copies every game from one database to another (a
//! site moving from SQLite to PostgreSQL), then checks the copy game by
//! game. Running it again copies only what is missing; a game that exists
//! on both sides with other contents stops it.
//!
//! It copies games only. What the players' features keep (accounts and
//! their ratings, studies, puzzle ratings, chat, the lobby) it does not
//! copy yet: `left_behind` counts it, so that `legion migrate` says so
//! and stops unless told to copy the games alone.

use crate::store::rows::Kind;
use crate::store::{Store, StoreError, Write};

/// The tables `copy` does not copy, each with the statement that counts
/// its rows (the same text on both databases).
const LEFT_BEHIND: [(&str, &str); 9] = [
    ("accounts", "SELECT CAST(COUNT(*) AS BIGINT) FROM accounts"),
    ("ratings", "SELECT CAST(COUNT(*) AS BIGINT) FROM ratings"),
    (
        "rating changes",
        "SELECT CAST(COUNT(*) AS BIGINT) FROM rating_changes",
    ),
    ("studies", "SELECT CAST(COUNT(*) AS BIGINT) FROM studies"),
    (
        "puzzle ratings of players",
        "SELECT CAST(COUNT(*) AS BIGINT) FROM puzzle_players",
    ),
    (
        "puzzle attempts",
        "SELECT CAST(COUNT(*) AS BIGINT) FROM puzzle_attempts",
    ),
    ("chat lines", "SELECT CAST(COUNT(*) AS BIGINT) FROM chat"),
    (
        "open challenges",
        "SELECT CAST(COUNT(*) AS BIGINT) FROM challenges",
    ),
    ("open seeks", "SELECT CAST(COUNT(*) AS BIGINT) FROM seeks"),
];

/// What `from` holds that `copy` would leave behind: each kind with its
/// count, those with none left out.
pub async fn left_behind(from: &Store) -> Result<Vec<(&'static str, i64)>, StoreError> {
    let mut out = Vec::new();
    for (what, sql) in LEFT_BEHIND {
        let n = from
            .rows(sql, Vec::new(), &[Kind::Int])
            .await?
            .first()
            .and_then(|r| r.first())
            .and_then(|v| v.int())
            .unwrap_or(0);
        if n > 0 {
            out.push((what, n));
        }
    }
    Ok(out)
}

#[derive(Debug, thiserror::Error)]
pub enum MigrateError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("game '{0}' is already in the target with other contents; nothing of it was copied")]
    Conflict(String),
    #[error("the copy of game '{0}' differs from the original")]
    Differs(String),
    #[error("game '{0}' is missing from the target after the copy")]
    Missing(String),
}

/// What a migration did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Report {
    pub games: u64,
    pub copied: u64,
    /// Games that were already there, the same.
    pub present: u64,
    pub moves: u64,
    pub analyses: u64,
}

const PAGE: i64 = 500;

/// Copies every game of `from` into `to`; `progress` hears (games done,
/// games in all) during the copy and then during the check.
pub async fn copy(
    from: &Store,
    to: &Store,
    mut progress: impl FnMut(&str, u64, u64),
) -> Result<Report, MigrateError> {
    let total = from.count().await?.max(0) as u64;
    let mut report = Report::default();
    let mut after = None;
    loop {
        let ids = from.ids(after.as_ref(), PAGE).await?;
        let Some(last) = ids.last() else { break };
        after = Some(last.clone());
        for id in ids {
            let Some(game) = from.export(&id).await? else {
                continue; // removed meanwhile
            };
            report.games += 1;
            report.moves += game.moves.len() as u64;
            report.analyses += u64::from(game.analysis.is_some());
            match to.export(&id).await? {
                Some(there) if there == game => report.present += 1,
                Some(_) => return Err(MigrateError::Conflict(id.to_string())),
                None => {
                    to.write(Write::Import(Box::new(game))).await?;
                    report.copied += 1;
                }
            }
            progress("copy", report.games, total);
        }
    }
    // The check: every game of the source, the same in the target.
    let mut checked = 0;
    let mut after = None;
    loop {
        let ids = from.ids(after.as_ref(), PAGE).await?;
        let Some(last) = ids.last() else { break };
        after = Some(last.clone());
        for id in ids {
            let (Some(a), b) = (from.export(&id).await?, to.export(&id).await?) else {
                continue;
            };
            match b {
                None => return Err(MigrateError::Missing(id.to_string())),
                Some(b) if b != a => return Err(MigrateError::Differs(id.to_string())),
                Some(_) => {}
            }
            checked += 1;
            progress("check", checked, report.games);
        }
    }
    Ok(report)
}
