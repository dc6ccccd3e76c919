//! What may be done with a study, and by whom: anyone with its id reads
//! it; its owner (the account that made it, or the browser that holds the
//! edit key given once at its creation) saves and deletes it.

use legion_rules::Position;
use legion_rules::notation::parse_canonical;
use serde::Serialize;

use super::check::check;
use super::model::{Chapter, Draft};
use super::refusal::StudyRefusal;
use crate::games::ids::{EditKey, StudyId, UserId};
use crate::games::live::rules_of;
use crate::games::view::legal_move_with_lfen;
use crate::store::{NewStudy, Store, StudyLine, StudyRow};

/// The studies an account's list shows at most.
pub const LIST_LENGTH: i64 = 200;
const HOUR_MS: i64 = 3_600_000;

/// Who asks: the account of the session cookie, and the edit key of
/// `Authorization: Bearer`, either or both absent.
#[derive(Clone, Debug, Default)]
pub struct Asker {
    pub user: Option<UserId>,
    pub key: Option<EditKey>,
}

impl Asker {
    /// Whether this asker owns the study `row`.
    pub fn owns(&self, row: &StudyRow) -> bool {
        let by_account = row.owner.is_some() && row.owner == self.user;
        let by_key = match (&row.edit_hash, &self.key) {
            (Some(stored), Some(key)) => key.opens(stored),
            _ => false,
        };
        by_account || by_key
    }
}

/// A study as the API shows it.
#[derive(Clone, Debug, Serialize)]
pub struct Shown {
    pub id: StudyId,
    pub title: String,
    /// The owning account's name; `null` for a study made without one.
    pub owner: Option<String>,
    /// Whether the one asking may change it.
    pub can_edit: bool,
    pub version: i64,
    pub created_ms: i64,
    pub updated_ms: i64,
    /// The chapters, each node's move with what a board needs to draw it
    /// (`played`, derived on reading: see `annotate`).
    pub chapters: Vec<serde_json::Value>,
}

/// A chapter as the API shows it: each node with its move `played` as a
/// legal move of the analysis board (`canonical`, `human`, `path`,
/// `captured`, `lfen` after it...), so that a page rebuilds the tree
/// without asking the server about every position.
fn annotate(id: &StudyId, c: &Chapter) -> Result<serde_json::Value, StudyRefusal> {
    let corrupt = |why: String| StudyRefusal::Corrupt {
        id: id.as_str().to_string(),
        why,
    };
    let rules = rules_of(&c.rules).ok_or_else(|| corrupt(format!("rules '{}'", c.rules)))?;
    let start = Position::from_lfen(&c.start, rules).map_err(|e| corrupt(e.to_string()))?;
    let mut positions: Vec<Position> = Vec::with_capacity(c.nodes.len());
    let mut nodes = Vec::with_capacity(c.nodes.len());
    for (i, n) in c.nodes.iter().enumerate() {
        let mut v = serde_json::to_value(n).map_err(|e| corrupt(e.to_string()))?;
        let pos = match (n.parent, &n.mv) {
            (Some(p), Some(text)) if p < i => {
                let before = positions[p];
                let m = parse_canonical(&before, text).map_err(|e| corrupt(e.to_string()))?;
                v["played"] = serde_json::json!(legal_move_with_lfen(&before, m));
                before.after(m)
            }
            _ if i == 0 => start,
            _ => return Err(corrupt(format!("node {i}"))),
        };
        positions.push(pos);
        nodes.push(v);
    }
    Ok(serde_json::json!({
        "name": c.name,
        "start": c.start,
        "rules": c.rules,
        "orientation": c.orientation,
        "nodes": nodes,
    }))
}

fn shown(row: StudyRow, asker: &Asker) -> Result<Shown, StudyRefusal> {
    let chapters: Vec<Chapter> =
        serde_json::from_str(&row.chapters).map_err(|e| StudyRefusal::Corrupt {
            id: row.id.as_str().to_string(),
            why: e.to_string(),
        })?;
    let chapters = chapters
        .iter()
        .map(|c| annotate(&row.id, c))
        .collect::<Result<_, _>>()?;
    Ok(Shown {
        can_edit: asker.owns(&row),
        id: row.id,
        title: row.title,
        owner: row.owner_name,
        version: row.version,
        created_ms: row.created_ms,
        updated_ms: row.updated_ms,
        chapters,
    })
}

fn to_json(chapters: &[Chapter]) -> Result<String, StudyRefusal> {
    serde_json::to_string(chapters).map_err(|e| StudyRefusal::Corrupt {
        id: String::new(),
        why: e.to_string(),
    })
}

/// Creates a study: it, and for a creator without an account the edit key
/// (shown this once; the database keeps its hash). `per_hour` bounds an
/// account's new studies (0: no bound).
pub async fn create(
    store: &Store,
    asker: &Asker,
    draft: Draft,
    per_hour: u32,
    now_ms: i64,
) -> Result<(Shown, Option<EditKey>), StudyRefusal> {
    let checked = check(draft)?;
    if let Some(user) = asker.user
        && per_hour > 0
        && store.studies_made_since(user, now_ms - HOUR_MS).await? >= i64::from(per_hour)
    {
        return Err(StudyRefusal::TooManyStudies { max: per_hour });
    }
    let key = asker.user.is_none().then(EditKey::random);
    let hash = key.as_ref().map(EditKey::hash);
    let id = StudyId::random();
    let chapters = to_json(&checked.chapters)?;
    store
        .add_study(NewStudy {
            id: &id,
            owner: asker.user,
            edit_hash: hash.as_ref(),
            title: &checked.title,
            chapters: &chapters,
            now_ms,
        })
        .await?;
    let row = store
        .study(&id)
        .await?
        .ok_or_else(|| StudyRefusal::NoStudy(id.to_string()))?;
    // The key was sent with the request that made it: this asker owns it.
    let asker = Asker {
        user: asker.user,
        key: key.clone(),
    };
    Ok((shown(row, &asker)?, key))
}

pub async fn read(store: &Store, id: &StudyId, asker: &Asker) -> Result<Shown, StudyRefusal> {
    let row = store
        .study(id)
        .await?
        .ok_or_else(|| StudyRefusal::NoStudy(id.to_string()))?;
    shown(row, asker)
}

/// The owner's row of study `id`: 404 before 403, so that nobody learns
/// more than that a study exists (its link shows it to anyone anyway).
async fn owned(store: &Store, id: &StudyId, asker: &Asker) -> Result<StudyRow, StudyRefusal> {
    let row = store
        .study(id)
        .await?
        .ok_or_else(|| StudyRefusal::NoStudy(id.to_string()))?;
    if !asker.owns(&row) {
        return Err(StudyRefusal::NotOwner);
    }
    Ok(row)
}

/// Saves the whole study read at `version`: its new version and time.
pub async fn save(
    store: &Store,
    id: &StudyId,
    asker: &Asker,
    version: i64,
    draft: Draft,
    now_ms: i64,
) -> Result<(i64, i64), StudyRefusal> {
    let row = owned(store, id, asker).await?;
    if row.version != version {
        return Err(StudyRefusal::Stale {
            current: row.version,
        });
    }
    let checked = check(draft)?;
    let chapters = to_json(&checked.chapters)?;
    match store
        .save_study(id, version, &checked.title, &chapters, now_ms)
        .await?
    {
        Some(v) => Ok((v, now_ms)),
        // Another save came between the read and this one.
        None => match store.study(id).await? {
            Some(row) => Err(StudyRefusal::Stale {
                current: row.version,
            }),
            None => Err(StudyRefusal::NoStudy(id.to_string())),
        },
    }
}

pub async fn delete(store: &Store, id: &StudyId, asker: &Asker) -> Result<(), StudyRefusal> {
    owned(store, id, asker).await?;
    if store.delete_study(id).await? {
        Ok(())
    } else {
        Err(StudyRefusal::NoStudy(id.to_string()))
    }
}

pub async fn list(store: &Store, user: UserId) -> Result<Vec<StudyLine>, StudyRefusal> {
    Ok(store.studies_of(user, LIST_LENGTH).await?)
}
