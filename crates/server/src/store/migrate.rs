//! `legion migrate`: copies every game from one database to another (a
//! site moving from SQLite to PostgreSQL), then checks the copy game by
//! game. Running it again copies only what is missing; a game that exists
//! on both sides with other contents stops it.

use crate::store::{Store, StoreError, Write};

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
