//! The players' routes (docs/API.md, "Players"): a public profile, its
//! game archive and the export of its games, the leaderboards, and TV.
//! Names and filters are read here once.

use std::collections::HashMap;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::http::api::App;
use crate::http::error::{ApiError, ApiResult};
use crate::i18n::Text;
use crate::players::profiles::{self, Filter, Outcome, ProfileError};
use crate::players::ratings::SpeedClass;
use crate::store::AccountRow;

impl From<ProfileError> for ApiError {
    fn from(e: ProfileError) -> ApiError {
        match e {
            ProfileError::Store(e) => e.into(),
            ProfileError::Internal(detail) => ApiError::Internal(detail),
        }
    }
}

/// The account of a profile's name, or 404.
async fn named(app: &App, name: &str) -> ApiResult<AccountRow> {
    match profiles::account(&app.hub.store, name).await? {
        Some(a) => Ok(a),
        None => Err(ApiError::said(
            StatusCode::NOT_FOUND,
            Text::new("server.no_user").arg("name", name.chars().take(40).collect::<String>()),
        )),
    }
}

/// Answers that change with every game are not to be kept by caches.
pub(crate) fn fresh(mut r: Response) -> Response {
    r.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    r
}

pub async fn user(State(app): State<App>, Path(name): Path<String>) -> ApiResult<Response> {
    let a = named(&app, &name).await?;
    let p = profiles::profile(&app.hub.store, &a).await?;
    Ok(fresh(axum::Json(p).into_response()))
}

fn bad_filter(what: &str, value: &str) -> ApiError {
    ApiError::said(
        StatusCode::BAD_REQUEST,
        Text::new("server.bad_filter")
            .arg("what", what)
            .arg("value", value.chars().take(40).collect::<String>()),
    )
}

/// The archive's query: `page`, `result`, `opponent`, `rated`, `class`.
fn filter(q: &HashMap<String, String>) -> ApiResult<(Filter, usize)> {
    let page = match q.get("page").map(String::as_str) {
        None | Some("") => 1,
        Some(p) => match p.parse::<usize>() {
            Ok(n) if (1..=100_000).contains(&n) => n,
            _ => return Err(bad_filter("page", p)),
        },
    };
    let mut f = Filter::default();
    if let Some(r) = q.get("result").filter(|v| !v.is_empty()) {
        f.result = Some(Outcome::parse(r).ok_or_else(|| bad_filter("result", r))?);
    }
    if let Some(o) = q.get("opponent").filter(|v| !v.is_empty()) {
        f.opponent = Some(o.chars().take(40).collect());
    }
    if let Some(r) = q.get("rated").filter(|v| !v.is_empty()) {
        f.rated = Some(match r.as_str() {
            "true" => true,
            "false" => false,
            _ => return Err(bad_filter("rated", r)),
        });
    }
    if let Some(c) = q.get("class").filter(|v| !v.is_empty()) {
        f.class = Some(
            SpeedClass::ALL
                .into_iter()
                .find(|k| k.name() == c)
                .ok_or_else(|| bad_filter("class", c))?,
        );
    }
    Ok((f, page))
}

pub async fn archive(
    State(app): State<App>,
    Path(name): Path<String>,
    q: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> ApiResult<Response> {
    let Query(q) = q.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let (f, page) = filter(&q)?;
    let a = named(&app, &name).await?;
    let p = profiles::archive(&app.hub.store, &a, &f, page).await?;
    Ok(fresh(axum::Json(p).into_response()))
}

/// Every finished game as one record file, as an attachment.
pub async fn export(
    State(app): State<App>,
    Path(name): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let a = named(&app, &name).await?;
    let site = match &app.public_origin {
        Some(o) => o.clone(),
        None => {
            let host = headers
                .get(header::HOST)
                .and_then(|h| h.to_str().ok())
                .unwrap_or("localhost");
            format!("http://{host}")
        }
    };
    let text = profiles::export(&app.hub.store, &a, &site).await?;
    // The name was checked (letters, digits, '_' and '-').
    let disposition = HeaderValue::from_str(&format!(
        "attachment; filename=\"legion-{}.pgn\"",
        a.username
    ))
    .map_err(ApiError::internal)?;
    Ok((
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/plain; charset=utf-8"),
            ),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        text,
    )
        .into_response())
}

pub async fn leaderboard(State(app): State<App>) -> ApiResult<Response> {
    let boards = profiles::leaderboard(&app.hub.store).await?;
    Ok(fresh(axum::Json(boards).into_response()))
}

pub async fn tv(State(app): State<App>) -> ApiResult<Response> {
    let tv = app.hub.tv.get(&app.hub.store).await?;
    Ok(fresh(axum::Json(tv).into_response()))
}
