//! The puzzles' routes (docs/API.md, "Puzzles"): the next puzzle, one by
//! id, the puzzle of the day, the themes, and an attempt. A query's theme
//! and rating are read here once.

use std::collections::HashMap;

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;

use crate::games::ids::now_ms;
use crate::games::seats::Who;
use crate::http::api::{App, body};
use crate::http::error::{ApiError, ApiResult};
use crate::http::limits::Client;
use crate::http::profiles::fresh;
use crate::i18n::Text;
use crate::puzzles::{self, PuzzleRefusal};

impl From<PuzzleRefusal> for ApiError {
    fn from(e: PuzzleRefusal) -> ApiError {
        match e {
            PuzzleRefusal::NoPuzzle(id) => ApiError::said(
                StatusCode::NOT_FOUND,
                Text::new("server.no_puzzle").arg("id", id),
            ),
            PuzzleRefusal::UnknownTheme(key) => ApiError::said(
                StatusCode::BAD_REQUEST,
                Text::new("server.no_theme").arg("theme", key),
            ),
            PuzzleRefusal::BadRating => ApiError::said(
                StatusCode::BAD_REQUEST,
                Text::new("server.bad_puzzle_rating"),
            ),
            PuzzleRefusal::NoneLeft => {
                ApiError::said(StatusCode::NOT_FOUND, Text::new("server.no_puzzle_left"))
            }
            PuzzleRefusal::Store(e) => e.into(),
        }
    }
}

/// `GET /api/puzzles/next?theme=…&rating=…`: a signed-in player's next
/// puzzle is near their puzzle rating and not tried before; a visitor's
/// near `rating` (the browser's score; 1500 without one).
pub async fn next(
    State(app): State<App>,
    who: Who,
    q: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> ApiResult<Response> {
    let Query(q) = q.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let theme = match q.get("theme").filter(|t| !t.is_empty()) {
        Some(t) => Some(puzzles::theme(t)?),
        None => None,
    };
    let account = who.user;
    let rating = match account {
        Some(a) => puzzles::player(&app.hub.store, a).await?.0.rating,
        None => match q.get("rating").filter(|r| !r.is_empty()) {
            Some(r) => match r.parse::<f64>() {
                Ok(v) if (400.0..=4000.0).contains(&v) => v,
                _ => return Err(PuzzleRefusal::BadRating.into()),
            },
            None => crate::store::NEW_PLAYER.rating,
        },
    };
    let pick = now_ms() as u64 ^ (rating.to_bits() >> 7);
    let p = puzzles::next(&app.hub.store, rating, theme, account, pick).await?;
    Ok(fresh(axum::Json(p).into_response()))
}

pub async fn one(State(app): State<App>, Path(id): Path<String>) -> ApiResult<Response> {
    let p = puzzles::get(&app.hub.store, &id).await?;
    Ok(fresh(axum::Json(p).into_response()))
}

/// `GET /api/puzzles/daily`: the puzzle of the day (UTC).
pub async fn daily(State(app): State<App>) -> ApiResult<Response> {
    let day = now_ms().div_euclid(86_400_000);
    let p = puzzles::daily(&app.hub.store, day).await?;
    Ok(fresh(axum::Json(p).into_response()))
}

pub async fn themes(State(app): State<App>) -> ApiResult<Response> {
    let t = puzzles::themes(&app.hub.store).await?;
    Ok(fresh(axum::Json(t).into_response()))
}

/// `GET /api/account/puzzles`: the signed-in player's puzzle rating.
pub async fn mine(State(app): State<App>, who: Who) -> ApiResult<Response> {
    let Some(a) = who.user else {
        return Err(ApiError::said(
            StatusCode::UNAUTHORIZED,
            Text::new("server.not_signed_in"),
        ));
    };
    let (rating, plays, wins) = puzzles::player(&app.hub.store, a).await?;
    Ok(fresh(
        axum::Json(json!({"rating": rating, "plays": plays, "wins": wins})).into_response(),
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AttemptRequest {
    win: bool,
    /// A visitor's score, kept by the browser.
    #[serde(default)]
    rating: Option<VisitorRating>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VisitorRating {
    rating: f64,
    rd: f64,
    volatility: f64,
}

/// `POST /api/puzzles/{id}/attempt`: `{"win": true}` once the solution
/// was played (false at the first wrong move or when the solution was
/// shown).
pub async fn attempt(
    State(app): State<App>,
    client: Client,
    who: Who,
    Path(id): Path<String>,
    b: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    app.puzzle_attempts.check(client)?;
    let req: AttemptRequest = body(b)?;
    let visitor = match req.rating {
        Some(r) => Some(puzzles::browser_rating(r.rating, r.rd, r.volatility)?),
        None => None,
    };
    let done = puzzles::attempt(&app.hub.store, &id, req.win, who.user, visitor, now_ms()).await?;
    Ok(fresh(axum::Json(done).into_response()))
}
