//! The chat routes (docs/API.md, "Chat"): a room's messages, and saying
//! something in it. The room is read once here into a `Room`.

use std::collections::HashMap;

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Query, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;

use crate::games::chat::{ChatError, ChatRefusal, MAX_CHARS, Room};
use crate::games::seats::Who;
use crate::http::api::{App, GamePath, body};
use crate::http::error::{ApiError, ApiResult};
use crate::i18n::Text;

impl From<ChatError> for ApiError {
    fn from(e: ChatError) -> ApiError {
        let said = |status, key| ApiError::said(status, Text::new(key));
        match e {
            ChatError::Core(e) => e.into(),
            ChatError::Refused(r) => match r {
                ChatRefusal::Empty => said(StatusCode::BAD_REQUEST, "server.chat_empty"),
                ChatRefusal::TooLong => ApiError::said(
                    StatusCode::BAD_REQUEST,
                    Text::new("server.chat_too_long").arg("max", MAX_CHARS),
                ),
                ChatRefusal::PlayersOnly => said(StatusCode::FORBIDDEN, "server.chat_players_only"),
                ChatRefusal::SpectatorsOnly => {
                    said(StatusCode::FORBIDDEN, "server.chat_spectators_only")
                }
                ChatRefusal::NeedsAccount => {
                    said(StatusCode::UNAUTHORIZED, "server.chat_needs_account")
                }
                ChatRefusal::AnonymousInvitesOnly => {
                    said(StatusCode::FORBIDDEN, "server.chat_anonymous")
                }
                ChatRefusal::NoPlayersRoom => said(StatusCode::CONFLICT, "server.chat_no_room"),
                ChatRefusal::TooFast(wait) => ApiError::RateLimited {
                    message: Text::new("server.chat_too_fast")
                        .arg("secs", wait.as_secs() + 1)
                        .render(crate::i18n::current()),
                    retry_after: wait,
                },
            },
        }
    }
}

/// A room's name as sent, read into a `Room`.
fn room(name: Option<&str>) -> ApiResult<Room> {
    let name = name.unwrap_or("");
    Room::parse(name).ok_or_else(|| {
        ApiError::said(
            StatusCode::BAD_REQUEST,
            Text::new("server.chat_bad_room")
                .arg("room", name.chars().take(20).collect::<String>()),
        )
    })
}

fn no_store(mut r: Response) -> Response {
    r.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

pub async fn read(
    State(app): State<App>,
    GamePath(id): GamePath,
    who: Who,
    q: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> ApiResult<Response> {
    let Query(q) = q.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let room = room(q.get("room").map(String::as_str))?;
    let messages = app.hub.chat(&id, room, &who).await?;
    Ok(no_store(
        axum::Json(json!({"room": room, "messages": messages})).into_response(),
    ))
}

#[derive(Deserialize)]
struct Say {
    room: String,
    text: String,
}

pub async fn say(
    State(app): State<App>,
    GamePath(id): GamePath,
    who: Who,
    b: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let req: Say = body(b)?;
    let room = room(Some(&req.room))?;
    let message = app.hub.say(&id, room, &who, &req.text).await?;
    Ok(no_store(
        (StatusCode::CREATED, axum::Json(json!({"message": message}))).into_response(),
    ))
}
