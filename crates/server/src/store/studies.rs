//! Studies in either database (`studies`, schema 11 on SQLite, 9 on
//! PostgreSQL): one row each, the chapters as one JSON text, and one
//! version that every save must name (optimistic concurrency: of two
//! saves from the same version only the first is kept).

use super::rows::{Kind, Param, Val};
use super::{Store, StoreError};
use crate::games::ids::{SecretHash, StudyId, UserId};

/// A study as the database keeps it; the owner's name is read with it
/// (`deleted` for a deleted account).
#[derive(Clone, Debug, PartialEq)]
pub struct StudyRow {
    pub id: StudyId,
    pub owner: Option<UserId>,
    pub owner_name: Option<String>,
    /// The hash of an anonymous creator's edit key.
    pub edit_hash: Option<SecretHash>,
    pub title: String,
    /// The chapters, JSON.
    pub chapters: String,
    pub created_ms: i64,
    pub updated_ms: i64,
    pub version: i64,
}

/// A line of an account's list of studies.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct StudyLine {
    pub id: StudyId,
    pub title: String,
    pub created_ms: i64,
    pub updated_ms: i64,
}

/// A new study: version 1.
pub struct NewStudy<'a> {
    pub id: &'a StudyId,
    pub owner: Option<UserId>,
    pub edit_hash: Option<&'a SecretHash>,
    pub title: &'a str,
    pub chapters: &'a str,
    pub now_ms: i64,
}

const INSERT: &str = "INSERT INTO studies
    (id, owner_account, edit_hash, title, chapters, created_ms, updated_ms, version)
    VALUES ($1, $2, $3, $4, $5, $6, $6, 1) RETURNING CAST(version AS BIGINT)";

const READ: &str = "SELECT s.id, CAST(s.owner_account AS BIGINT),
    CASE WHEN a.deleted_ms IS NOT NULL THEN 'deleted' ELSE a.username END,
    s.edit_hash, s.title, s.chapters, CAST(s.created_ms AS BIGINT),
    CAST(s.updated_ms AS BIGINT), CAST(s.version AS BIGINT)
    FROM studies s LEFT JOIN accounts a ON a.id = s.owner_account WHERE s.id = $1";

const SAVE: &str = "UPDATE studies SET title = $3, chapters = $4, updated_ms = $5,
    version = version + 1 WHERE id = $1 AND version = $2
    RETURNING CAST(version AS BIGINT)";

const DELETE: &str = "DELETE FROM studies WHERE id = $1 RETURNING id";

const LIST: &str = "SELECT id, title, CAST(created_ms AS BIGINT), CAST(updated_ms AS BIGINT)
    FROM studies WHERE owner_account = $1 ORDER BY updated_ms DESC, id LIMIT $2";

const MADE_SINCE: &str =
    "SELECT CAST(COUNT(*) AS BIGINT) FROM studies WHERE owner_account = $1 AND created_ms > $2";

fn first_int(rows: &[Vec<Val>]) -> Option<i64> {
    rows.first().and_then(|r| r.first()).and_then(Val::int)
}

impl Store {
    pub async fn add_study(&self, s: NewStudy<'_>) -> Result<(), StoreError> {
        let params = vec![
            Param::Text(s.id.as_str().to_string()),
            s.owner.map_or(Param::NoInt, |u| Param::Int(u.0)),
            s.edit_hash
                .map_or(Param::NoText, |h| Param::Text(h.as_str().to_string())),
            Param::Text(s.title.to_string()),
            Param::Text(s.chapters.to_string()),
            Param::Int(s.now_ms),
        ];
        self.rows(INSERT, params, &[Kind::Int]).await?;
        Ok(())
    }

    pub async fn study(&self, id: &StudyId) -> Result<Option<StudyRow>, StoreError> {
        let kinds = [
            Kind::Text,
            Kind::Int,
            Kind::Text,
            Kind::Text,
            Kind::Text,
            Kind::Text,
            Kind::Int,
            Kind::Int,
            Kind::Int,
        ];
        let rows = self
            .rows(READ, vec![Param::Text(id.as_str().to_string())], &kinds)
            .await?;
        let Some(r) = rows.into_iter().next() else {
            return Ok(None);
        };
        let corrupt = |why: &str| StoreError::Corrupt {
            id: id.as_str().to_string(),
            why: why.to_string(),
        };
        let edit_hash = match r[3].text() {
            None => None,
            Some(h) => Some(SecretHash::parse(&h).ok_or_else(|| corrupt("edit key hash"))?),
        };
        Ok(Some(StudyRow {
            id: id.clone(),
            owner: r[1].int().map(UserId),
            owner_name: r[2].text(),
            edit_hash,
            title: r[4].text().ok_or_else(|| corrupt("title"))?,
            chapters: r[5].text().ok_or_else(|| corrupt("chapters"))?,
            created_ms: r[6].int().ok_or_else(|| corrupt("created_ms"))?,
            updated_ms: r[7].int().ok_or_else(|| corrupt("updated_ms"))?,
            version: r[8].int().ok_or_else(|| corrupt("version"))?,
        }))
    }

    /// Saves a study read at `version`: its new version, or `None` when it
    /// is no longer at `version` (or is gone).
    pub async fn save_study(
        &self,
        id: &StudyId,
        version: i64,
        title: &str,
        chapters: &str,
        now_ms: i64,
    ) -> Result<Option<i64>, StoreError> {
        let params = vec![
            Param::Text(id.as_str().to_string()),
            Param::Int(version),
            Param::Text(title.to_string()),
            Param::Text(chapters.to_string()),
            Param::Int(now_ms),
        ];
        let rows = self.rows(SAVE, params, &[Kind::Int]).await?;
        Ok(first_int(&rows))
    }

    /// Deletes a study; false when there was none.
    pub async fn delete_study(&self, id: &StudyId) -> Result<bool, StoreError> {
        let rows = self
            .rows(
                DELETE,
                vec![Param::Text(id.as_str().to_string())],
                &[Kind::Text],
            )
            .await?;
        Ok(!rows.is_empty())
    }

    /// An account's studies, the last changed first (at most `limit`).
    pub async fn studies_of(
        &self,
        owner: UserId,
        limit: i64,
    ) -> Result<Vec<StudyLine>, StoreError> {
        let rows = self
            .rows(
                LIST,
                vec![Param::Int(owner.0), Param::Int(limit)],
                &[Kind::Text, Kind::Text, Kind::Int, Kind::Int],
            )
            .await?;
        rows.into_iter()
            .map(|r| {
                let raw = r[0].text().unwrap_or_default();
                let id = StudyId::parse(&raw).map_err(|_| StoreError::Corrupt {
                    id: raw.clone(),
                    why: "study id".into(),
                })?;
                Ok(StudyLine {
                    id,
                    title: r[1].text().unwrap_or_default(),
                    created_ms: r[2].int().unwrap_or(0),
                    updated_ms: r[3].int().unwrap_or(0),
                })
            })
            .collect()
    }

    /// How many studies an account made after `since_ms`.
    pub async fn studies_made_since(
        &self,
        owner: UserId,
        since_ms: i64,
    ) -> Result<i64, StoreError> {
        let rows = self
            .rows(
                MADE_SINCE,
                vec![Param::Int(owner.0), Param::Int(since_ms)],
                &[Kind::Int],
            )
            .await?;
        Ok(first_int(&rows).unwrap_or(0))
    }
}
