//! The studies' routes (docs/API.md, "Studies"): create, read, save,
//! delete, and a signed-in player's list. Who asks is read once here: the
//! session cookie's account and the edit key of `Authorization: Bearer`.

use std::time::Duration;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::json;

use crate::games::ids::{EditKey, StudyId, now_ms};
use crate::http::account::session_of;
use crate::http::api::App;
use crate::http::error::{ApiError, ApiResult};
use crate::http::limits::Client;
use crate::i18n::{self, Arg, Text};
use crate::players::accounts::AccountRefusal;
use crate::studies::actions::{self, Asker};
use crate::studies::check::end_rule;
use crate::studies::model::{Chapter, Draft, MAX_STUDY_BYTES};
use crate::studies::refusal::StudyRefusal;

impl From<StudyRefusal> for ApiError {
    /// Sizes over their bounds are 413, content that is no study 422, a
    /// stale version 409 (its body adds `version`: see `stale`).
    fn from(r: StudyRefusal) -> ApiError {
        use StudyRefusal as R;
        let said = ApiError::said;
        let large = StatusCode::PAYLOAD_TOO_LARGE;
        let bad = StatusCode::UNPROCESSABLE_ENTITY;
        let at = |key, a: crate::studies::refusal::At| {
            Text::new(key).arg("chapter", a.chapter).arg("node", a.node)
        };
        match r {
            R::NoStudy(id) => said(
                StatusCode::NOT_FOUND,
                Text::new("server.study_not_found").arg("id", id),
            ),
            R::NotOwner => said(StatusCode::FORBIDDEN, Text::new("server.study_not_owner")),
            R::Stale { current } => said(
                StatusCode::CONFLICT,
                Text::new("server.study_stale").arg("version", current),
            ),
            R::NoTitle => said(bad, Text::new("server.study_no_title")),
            R::TitleTooLong { max } => said(
                large,
                Text::new("server.study_title_too_long").arg("max", max),
            ),
            R::NoChapters => said(bad, Text::new("server.study_no_chapters")),
            R::TooManyChapters { max } => said(
                large,
                Text::new("server.study_too_many_chapters").arg("max", max),
            ),
            R::BadName { chapter, max } => said(
                bad,
                Text::new("server.study_bad_name")
                    .arg("chapter", chapter)
                    .arg("max", max),
            ),
            R::TooManyNodes { chapter, max } => said(
                large,
                Text::new("server.study_too_many_nodes")
                    .arg("chapter", chapter)
                    .arg("max", max),
            ),
            R::TooManyStudyNodes { max } => said(
                large,
                Text::new("server.study_too_many_study_nodes").arg("max", max),
            ),
            R::CommentTooLong { at: a, max } => said(
                large,
                at("server.study_comment_too_long", a).arg("max", max),
            ),
            R::TooManyShapes { at: a, max } => {
                said(large, at("server.study_too_many_shapes", a).arg("max", max))
            }
            R::BadRules { chapter } => said(
                bad,
                Text::new("server.study_bad_rules").arg("chapter", chapter),
            ),
            R::BadOrientation { chapter } => said(
                bad,
                Text::new("server.study_bad_orientation").arg("chapter", chapter),
            ),
            R::StartTooLong { chapter, max } => said(
                large,
                Text::new("server.study_start_too_long")
                    .arg("chapter", chapter)
                    .arg("max", max),
            ),
            // The reading error first: its key is the answer's code.
            R::BadStart { chapter, error } => cited(
                error.rule(),
                Text::new("server.study_in_chapter")
                    .with(
                        "error",
                        Arg::Words(Box::new(crate::i18n::reading::lfen(&error))),
                    )
                    .arg("chapter", chapter),
            ),
            R::BadTree { at: a } => said(bad, at("server.study_bad_tree", a)),
            R::BadMove { at: a, text, error } => cited(
                error.rule(),
                Text::new("server.study_bad_move")
                    .with(
                        "error",
                        Arg::Words(Box::new(crate::i18n::reading::typed_move(&error))),
                    )
                    .arg("chapter", a.chapter)
                    .arg("node", a.node)
                    .arg("text", text),
            ),
            R::AfterEnd {
                at: a,
                text,
                outcome,
            } => cited(
                end_rule(outcome),
                at("server.study_after_end", a)
                    .arg("text", text)
                    .arg("rule", end_rule(outcome))
                    .with("outcome", Arg::Words(Box::new(i18n::outcome(outcome)))),
            ),
            R::SameMoveTwice { at: a, text } => {
                said(bad, at("server.study_same_move_twice", a).arg("text", text))
            }
            R::BadSquare { at: a, square } => {
                said(bad, at("server.study_bad_square", a).arg("square", square))
            }
            R::BadColor { at: a } => said(bad, at("server.study_bad_color", a)),
            R::TooManyStudies { max } => ApiError::RateLimited {
                message: Text::new("server.study_too_many_per_hour")
                    .arg("max", max)
                    .render(i18n::current()),
                retry_after: Duration::from_secs(60),
            },
            R::Store(e) => e.into(),
            R::Corrupt { id, why } => {
                ApiError::Internal(format!("stored study '{id}' cannot be read: {why}"))
            }
        }
    }
}

/// Content that breaks a rule of RULES.md: 422, with the rule.
fn cited(rule: &str, text: Text) -> ApiError {
    ApiError::Refused {
        status: StatusCode::UNPROCESSABLE_ENTITY,
        message: text.render(i18n::Lang::En),
        rule: Some(rule.to_string()),
        text: Some(text),
    }
}

/// A refusal as an answer; a stale save's body adds the current version.
fn answer(r: StudyRefusal) -> Response {
    let version = match &r {
        StudyRefusal::Stale { current } => Some(*current),
        _ => None,
    };
    let e = ApiError::from(r);
    match version {
        Some(v) => {
            let mut body = e.body();
            body["version"] = json!(v);
            (StatusCode::CONFLICT, axum::Json(body)).into_response()
        }
        None => e.into_response(),
    }
}

/// The study of a request's path: a text that is no id of ours names no
/// study (404).
fn study_id(raw: &str) -> Result<StudyId, StudyRefusal> {
    StudyId::parse(raw).map_err(|_| StudyRefusal::NoStudy(raw.chars().take(40).collect()))
}

/// A JSON body; one over the studies' bound is 413 with its own words.
fn read_body<T: DeserializeOwned>(b: Result<Bytes, BytesRejection>) -> ApiResult<T> {
    if let Err(e) = &b
        && e.status() == StatusCode::PAYLOAD_TOO_LARGE
    {
        return Err(ApiError::said(
            StatusCode::PAYLOAD_TOO_LARGE,
            Text::new("server.study_too_big").arg("max", MAX_STUDY_BYTES / 1024),
        ));
    }
    crate::http::api::body(b)
}

/// Who asks: the session's account and the bearer's edit key.
async fn asker(app: &App, headers: &HeaderMap) -> ApiResult<Asker> {
    let user = match session_of(headers) {
        Some(s) => app.accounts.account_of(Some(&s)).await?,
        None => None,
    };
    let key = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .and_then(|t| EditKey::parse(t.trim()).ok());
    Ok(Asker { user, key })
}

/// Whether the asker may edit depends on who asks: no shared cache keeps it.
fn private(mut r: Response) -> Response {
    r.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

pub async fn create(
    State(app): State<App>,
    client: Client,
    headers: HeaderMap,
    b: Result<Bytes, BytesRejection>,
) -> Result<Response, Response> {
    let draft: Draft = read_body(b).map_err(IntoResponse::into_response)?;
    app.new_studies
        .check(client)
        .map_err(IntoResponse::into_response)?;
    let asker = asker(&app, &headers)
        .await
        .map_err(IntoResponse::into_response)?;
    let (shown, key) = actions::create(
        &app.hub.store,
        &asker,
        draft,
        app.limits.studies_per_hour,
        now_ms(),
    )
    .await
    .map_err(answer)?;
    let mut body = json!(shown);
    body["edit_key"] = json!(key);
    Ok(private(
        (StatusCode::CREATED, axum::Json(body)).into_response(),
    ))
}

pub async fn read(
    State(app): State<App>,
    Path(raw): Path<String>,
    headers: HeaderMap,
) -> Result<Response, Response> {
    let id = study_id(&raw).map_err(answer)?;
    let asker = asker(&app, &headers)
        .await
        .map_err(IntoResponse::into_response)?;
    let shown = actions::read(&app.hub.store, &id, &asker)
        .await
        .map_err(answer)?;
    Ok(private(axum::Json(shown).into_response()))
}

/// A save: the whole study and the version it was read at.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Save {
    version: i64,
    title: String,
    chapters: Vec<Chapter>,
}

pub async fn save(
    State(app): State<App>,
    Path(raw): Path<String>,
    headers: HeaderMap,
    b: Result<Bytes, BytesRejection>,
) -> Result<Response, Response> {
    let id = study_id(&raw).map_err(answer)?;
    let req: Save = read_body(b).map_err(IntoResponse::into_response)?;
    let asker = asker(&app, &headers)
        .await
        .map_err(IntoResponse::into_response)?;
    let draft = Draft {
        title: req.title,
        chapters: req.chapters,
    };
    let (version, updated_ms) =
        actions::save(&app.hub.store, &id, &asker, req.version, draft, now_ms())
            .await
            .map_err(answer)?;
    Ok(private(
        axum::Json(json!({"version": version, "updated_ms": updated_ms})).into_response(),
    ))
}

pub async fn delete(
    State(app): State<App>,
    Path(raw): Path<String>,
    headers: HeaderMap,
) -> Result<Response, Response> {
    let id = study_id(&raw).map_err(answer)?;
    let asker = asker(&app, &headers)
        .await
        .map_err(IntoResponse::into_response)?;
    actions::delete(&app.hub.store, &id, &asker)
        .await
        .map_err(answer)?;
    Ok(axum::Json(json!({})).into_response())
}

/// The signed-in player's studies, the last changed first.
pub async fn mine(State(app): State<App>, headers: HeaderMap) -> ApiResult<Response> {
    let Some(user) = asker(&app, &headers).await?.user else {
        return Err(
            crate::players::accounts::AccountError::Refused(AccountRefusal::NotSignedIn).into(),
        );
    };
    let list = actions::list(&app.hub.store, user).await?;
    Ok(private(
        axum::Json(json!({ "studies": list })).into_response(),
    ))
}
