//! The lobby's routes and socket (docs/API.md, "Lobby"): seeks, quick
//! pairing, challenges, a player's games in progress, and the lobby's
//! WebSocket that lists the open seeks live and tells a player when a
//! seek of theirs was taken, a challenge came, or it is their turn.

use std::collections::BTreeSet;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use serde::{Deserialize, Serialize};
use serde_json::json;
use tokio::sync::broadcast::error::RecvError;
use tokio::time::Instant;

use crate::games::ids::{ChallengeId, SeatToken, SeekId};
use crate::games::model::Side;
use crate::games::seats::Who;
use crate::http::api::{App, body};
use crate::http::error::{ApiError, ApiResult};
use crate::http::limits::{Client, SocketPlace};
use crate::i18n::Text;
use crate::lobby::bus::News;
use crate::lobby::pools::POOLS;
use crate::lobby::seeks::{SeekRequest, SeekView};
use crate::lobby::{Lobby, LobbyError, LobbyRefusal, Visitor};

impl From<LobbyError> for ApiError {
    fn from(e: LobbyError) -> ApiError {
        match e {
            LobbyError::Refused(r) => {
                use LobbyRefusal as R;
                let (status, key) = match r {
                    R::BadClock => (StatusCode::BAD_REQUEST, "lobby.refused.bad_clock"),
                    R::ClockAndDays => (StatusCode::BAD_REQUEST, "lobby.refused.clock_and_days"),
                    R::BadDays => (StatusCode::BAD_REQUEST, "lobby.refused.bad_days"),
                    R::BadColor => (StatusCode::BAD_REQUEST, "lobby.refused.bad_color"),
                    R::RatedNeedsAccount => (
                        StatusCode::UNAUTHORIZED,
                        "lobby.refused.rated_needs_account",
                    ),
                    R::UntimedRated => (StatusCode::BAD_REQUEST, "lobby.refused.untimed_rated"),
                    R::RatedColor => (StatusCode::BAD_REQUEST, "lobby.refused.rated_color"),
                    R::BadRange => (StatusCode::BAD_REQUEST, "lobby.refused.bad_range"),
                    R::NoSeek => (StatusCode::NOT_FOUND, "lobby.refused.no_seek"),
                    R::OwnSeek => (StatusCode::CONFLICT, "lobby.refused.own_seek"),
                    R::OutOfRange => (StatusCode::FORBIDDEN, "lobby.refused.out_of_range"),
                    R::TooManySeeks => (
                        StatusCode::TOO_MANY_REQUESTS,
                        "lobby.refused.too_many_seeks",
                    ),
                    R::NotYours => (StatusCode::FORBIDDEN, "lobby.refused.not_yours"),
                    R::NoPool => (StatusCode::NOT_FOUND, "lobby.refused.no_pool"),
                    R::NoPlayer => (StatusCode::NOT_FOUND, "lobby.refused.no_player"),
                    R::SelfChallenge => (StatusCode::BAD_REQUEST, "lobby.refused.self_challenge"),
                    R::NoChallenge => (StatusCode::NOT_FOUND, "lobby.refused.no_challenge"),
                    R::NotYourChallenge => {
                        (StatusCode::FORBIDDEN, "lobby.refused.not_your_challenge")
                    }
                    R::NotSignedIn => (StatusCode::UNAUTHORIZED, "server.not_signed_in"),
                };
                ApiError::said(status, Text::new(key))
            }
            LobbyError::Store(e) => e.into(),
            LobbyError::Core(e) => e.into(),
        }
    }
}

fn visitor(who: &Who) -> Visitor {
    Visitor { user: who.user }
}

fn signed_in(who: &Who) -> ApiResult<crate::games::ids::UserId> {
    who.user
        .ok_or_else(|| LobbyError::from(LobbyRefusal::NotSignedIn).into())
}

/// A seek's id from the path: a text that is no id of ours names none.
fn seek_id(raw: &str) -> ApiResult<SeekId> {
    SeekId::parse(raw).map_err(|_| LobbyError::from(LobbyRefusal::NoSeek).into())
}

fn challenge_id(raw: &str) -> ApiResult<ChallengeId> {
    ChallengeId::parse(raw).map_err(|_| LobbyError::from(LobbyRefusal::NoChallenge).into())
}

fn created(v: serde_json::Value) -> Response {
    (StatusCode::CREATED, axum::Json(v)).into_response()
}

/// `POST /api/lobby/seeks`.
pub async fn create_seek(
    State(app): State<App>,
    client: Client,
    who: Who,
    b: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let req: SeekRequest = body(b)?;
    let v = visitor(&who);
    let terms = Lobby::terms(&req, &v).map_err(LobbyError::from)?;
    app.new_games.check(client)?;
    let made = app.lobby.open(&v, terms, req.range, None).await?;
    Ok(created(
        json!({"id": made.id, "token": made.token.as_str()}),
    ))
}

/// `GET /api/lobby/seeks`.
pub async fn list_seeks(State(app): State<App>) -> ApiResult<Response> {
    let seeks = app.lobby.list().await?;
    Ok(axum::Json(json!({ "seeks": seeks })).into_response())
}

/// `GET /api/lobby/seeks/{id}`: the seek, and the game it became.
pub async fn get_seek(State(app): State<App>, Path(raw): Path<String>) -> ApiResult<Response> {
    let s = app.lobby.seek(&seek_id(&raw)?).await?;
    Ok(axum::Json(json!({
        "seek": SeekView::of(&s),
        "game": s.game,
        "color": s.game_color.as_deref().and_then(Side::parse),
    }))
    .into_response())
}

/// `DELETE /api/lobby/seeks/{id}`: by its owner (session or token).
pub async fn cancel_seek(
    State(app): State<App>,
    Path(raw): Path<String>,
    who: Who,
) -> ApiResult<Response> {
    app.lobby
        .cancel(&seek_id(&raw)?, &visitor(&who), who.token.as_ref())
        .await?;
    Ok(axum::Json(json!({})).into_response())
}

/// `POST /api/lobby/seeks/{id}/accept`.
pub async fn accept_seek(
    State(app): State<App>,
    Path(raw): Path<String>,
    client: Client,
    who: Who,
) -> ApiResult<Response> {
    let id = seek_id(&raw)?;
    app.new_games.check(client)?;
    let a = app.lobby.accept(&id, &visitor(&who)).await?;
    Ok(created(json!({
        "game": a.game,
        "color": a.color,
        "token": a.token.as_str(),
    })))
}

/// `GET /api/lobby/pools`: each pool and how many wait in it.
pub async fn list_pools(State(app): State<App>) -> ApiResult<Response> {
    let places = app
        .hub
        .store
        .pool_places(crate::games::ids::now_ms())
        .await?;
    let pools: Vec<_> = POOLS
        .iter()
        .map(|(key, clock, days)| {
            json!({
                "key": key,
                "clock": clock.map(|(i, inc)| json!({"initial_s": i, "increment_s": inc})),
                "days": days,
                "waiting": places.iter().filter(|p| p.pool.as_deref() == Some(*key)).count(),
            })
        })
        .collect();
    Ok(axum::Json(json!({ "pools": pools })).into_response())
}

/// `POST /api/lobby/pools/{key}`: a place in a pool.
pub async fn join_pool(
    State(app): State<App>,
    Path(key): Path<String>,
    client: Client,
    who: Who,
) -> ApiResult<Response> {
    app.new_games.check(client)?;
    let made = app.lobby.join_pool(&key, &visitor(&who)).await?;
    Ok(created(
        json!({"id": made.id, "token": made.token.as_str()}),
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChallengeRequest {
    to: String,
    #[serde(flatten)]
    terms: SeekRequestFields,
}

/// The terms of a challenge: a seek's, without a range.
#[derive(Deserialize)]
pub struct SeekRequestFields {
    #[serde(default)]
    clock: Option<crate::lobby::seeks::ClockSpec>,
    #[serde(default)]
    days: Option<u8>,
    #[serde(default)]
    rated: bool,
    #[serde(default)]
    color: Option<String>,
}

/// `POST /api/challenges`.
pub async fn challenge(
    State(app): State<App>,
    client: Client,
    who: Who,
    b: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let me = signed_in(&who)?;
    let req: ChallengeRequest = body(b)?;
    let seek = SeekRequest {
        clock: req.terms.clock,
        days: req.terms.days,
        rated: req.terms.rated,
        color: req.terms.color,
        range: None,
    };
    let terms = seek.terms(true).map_err(LobbyError::from)?;
    app.new_games.check(client)?;
    let view = app.lobby.challenge(me, &req.to, terms).await?;
    Ok((StatusCode::CREATED, axum::Json(view)).into_response())
}

/// `GET /api/challenges`: those to me (`in`) and from me (`out`).
pub async fn challenges(State(app): State<App>, who: Who) -> ApiResult<Response> {
    let me = signed_in(&who)?;
    let (to_me, from_me) = app.lobby.challenges(me).await?;
    Ok(axum::Json(json!({"in": to_me, "out": from_me})).into_response())
}

/// `POST /api/challenges/{id}/accept`.
pub async fn accept_challenge(
    State(app): State<App>,
    Path(raw): Path<String>,
    who: Who,
) -> ApiResult<Response> {
    let me = signed_in(&who)?;
    let a = app.lobby.accept_challenge(&challenge_id(&raw)?, me).await?;
    Ok(created(json!({"game": a.game, "color": a.color})))
}

/// `POST /api/challenges/{id}/decline` and `…/cancel`.
pub async fn end_challenge(
    State(app): State<App>,
    Path((raw, action)): Path<(String, String)>,
    who: Who,
) -> ApiResult<Response> {
    if action != "decline" && action != "cancel" {
        return Err(ApiError::said(
            StatusCode::NOT_FOUND,
            Text::new("server.page_not_found"),
        ));
    }
    let me = signed_in(&who)?;
    app.lobby.end_challenge(&challenge_id(&raw)?, me).await?;
    Ok(axum::Json(json!({})).into_response())
}

/// `GET /api/account/playing`: the signed-in player's games in progress,
/// those where it is their turn first.
pub async fn playing(State(app): State<App>, who: Who) -> ApiResult<Response> {
    let me = signed_in(&who)?;
    let games = app.hub.playing(me).await?;
    Ok(axum::Json(json!({ "games": games })).into_response())
}

/// What a lobby socket's client may send.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum ClientMessage {
    /// The seeks (and pool places) this page made, to keep them while it
    /// is open: each with the token `POST` answered.
    Hello {
        #[serde(default)]
        seeks: Vec<Held>,
    },
    Ping,
}

#[derive(Deserialize)]
struct Held {
    id: String,
    token: String,
}

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum ServerMessage<'a> {
    Seeks { seeks: &'a [SeekView] },
    Pong,
    Error { error: &'a str },
}

/// The `paired` news of the seeks a hello names that are games already
/// (each checked against its token).
async fn already_paired(app: &App, seeks: &[Held]) -> Vec<String> {
    let mut out = Vec::new();
    for h in seeks.iter().take(HELD_MAX) {
        let (Ok(id), Ok(token)) = (SeekId::parse(&h.id), SeatToken::parse(&h.token)) else {
            continue;
        };
        if let Ok(s) = app.lobby.seek(&id).await
            && s.seat == token.hash()
            && let (Some(game), Some(color)) =
                (s.game, s.game_color.as_deref().and_then(Side::parse))
        {
            out.push(text(&News::Paired {
                seek: id,
                game,
                color,
            }));
        }
    }
    out
}

/// The seat hashes of the seeks a hello names (at most `HELD_MAX`).
fn seats_of(seeks: &[Held]) -> Vec<crate::games::ids::SecretHash> {
    seeks
        .iter()
        .take(HELD_MAX)
        .filter_map(|h| {
            SeekId::parse(&h.id).ok()?;
            Some(SeatToken::parse(&h.token).ok()?.hash())
        })
        .collect()
}

/// Seeks one socket may hold.
const HELD_MAX: usize = 8;
/// How often a socket renews its seeks (they live `lobby::ALIVE_MS`).
const KEEP_EVERY: std::time::Duration = std::time::Duration::from_secs(15);

/// `GET /api/lobby/ws`.
pub async fn socket(
    State(app): State<App>,
    client: Client,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    let place = match app.sockets.take(client) {
        Ok(p) => p,
        Err(e) => return e.into_response(),
    };
    let who = match crate::http::api::who(&app, &headers).await {
        Ok(w) => w,
        Err(e) => return e.into_response(),
    };
    let name = match crate::http::account::session_of(&headers) {
        Some(s) => match app.accounts.signed_in(Some(&s)).await {
            Ok(s) => s.map(|s| s.profile.username),
            Err(e) => return ApiError::from(e).into_response(),
        },
        None => None,
    };
    upgrade
        .read_buffer_size(4 * 1024)
        .write_buffer_size(0)
        .max_message_size(64 * 1024)
        .max_frame_size(64 * 1024)
        .on_upgrade(move |ws| async move {
            app.hub.metrics().sockets.inc();
            run(app.clone(), ws, who, name, place).await;
            app.hub.metrics().sockets.dec();
        })
}

fn text<T: Serialize>(m: &T) -> String {
    serde_json::to_string(m).unwrap_or_default()
}

async fn run(app: App, ws: WebSocket, who: Who, name: Option<String>, _place: SocketPlace) {
    let (mut out, mut incoming) = ws.split();
    let limits = app.limits.clone();
    let first = tokio::time::timeout(limits.ws_hello, incoming.next()).await;
    let hello = match first {
        Ok(Some(Ok(Message::Text(t)))) if t.len() <= crate::http::ws::MAX_MESSAGE => {
            serde_json::from_str::<ClientMessage>(&t).ok()
        }
        _ => None,
    };
    let Some(ClientMessage::Hello { seeks }) = hello else {
        let frame = CloseFrame {
            code: 1008,
            reason: "the first message must be a hello".into(),
        };
        let _ = out.send(Message::Close(Some(frame))).await;
        return;
    };
    // The seeks this socket holds: its account's, and those whose tokens
    // it showed (in its first hello or a later one).
    let mut seats = seats_of(&seeks);
    let mut held: BTreeSet<SeekId> = BTreeSet::new();
    let mut news = app.lobby.bus.subscribe();
    let refresh = async |held: &mut BTreeSet<SeekId>, seats: &[crate::games::ids::SecretHash]| {
        if let Ok(rows) = app.lobby.seeks_of(who.user, seats).await {
            held.extend(rows.into_iter().map(|r| r.id));
        }
        let ids: Vec<_> = held.iter().cloned().collect();
        if let Err(e) = app.lobby.keep(&ids).await {
            tracing::warn!("cannot keep the lobby's seeks: {e}");
        }
    };
    refresh(&mut held, &seats).await;
    let list = match app.lobby.list().await {
        Ok(l) => l,
        Err(e) => {
            let e = ApiError::from(e);
            let _ = out
                .send(Message::Text(
                    text(&ServerMessage::Error {
                        error: &e.to_string(),
                    })
                    .into(),
                ))
                .await;
            return;
        }
    };
    if out
        .send(Message::Text(
            text(&ServerMessage::Seeks { seeks: &list }).into(),
        ))
        .await
        .is_err()
    {
        return;
    }
    // Seeks of the first hello that became games before it came.
    let mut pending: Vec<String> = already_paired(&app, &seeks).await;
    let mut shutdown = app.shutdown.clone();
    let mut heard = Instant::now();
    let mut ping = tokio::time::interval_at(Instant::now() + limits.ws_ping, limits.ws_ping);
    let mut keep = tokio::time::interval_at(Instant::now() + KEEP_EVERY, KEEP_EVERY);
    loop {
        // News found by a hello, sent before anything else is awaited.
        let mut gone = false;
        for t in pending.drain(..) {
            if out.send(Message::Text(t.into())).await.is_err() {
                gone = true;
                break;
            }
        }
        if gone {
            break;
        }
        let send: Option<String> = tokio::select! {
            n = news.recv() => match n {
                Ok(n) => {
                    let mine = match &*n {
                        News::Seek { seek } => {
                            if name.is_some() && seek.username == name {
                                held.insert(seek.id.clone());
                            }
                            true
                        }
                        News::Gone { .. } => true,
                        News::Paired { seek, .. } => held.remove(seek),
                        News::Challenge { to, .. } => who.user == Some(*to),
                        News::ChallengeEnded { from, to, .. } => {
                            who.user == Some(*from) || who.user == Some(*to)
                        }
                        News::Turn { user, .. } => who.user == Some(*user),
                    };
                    mine.then(|| text(&*n))
                }
                // Too slow to follow: the whole list again.
                Err(RecvError::Lagged(_)) => match app.lobby.list().await {
                    Ok(l) => Some(text(&ServerMessage::Seeks { seeks: &l })),
                    Err(_) => None,
                },
                Err(RecvError::Closed) => break,
            },
            msg = incoming.next() => {
                heard = Instant::now();
                match msg {
                    Some(Ok(Message::Text(t))) => match serde_json::from_str::<ClientMessage>(&t) {
                        Ok(ClientMessage::Ping) => Some(text(&ServerMessage::Pong)),
                        Ok(ClientMessage::Hello { seeks }) => {
                            // The page made a seek or joined a pool since.
                            for s in seats_of(&seeks) {
                                if !seats.contains(&s) && seats.len() < HELD_MAX {
                                    seats.push(s);
                                }
                            }
                            refresh(&mut held, &seats).await;
                            // One may have become a game before this hello.
                            pending.extend(already_paired(&app, &seeks).await);
                            match app.lobby.list().await {
                                Ok(l) => Some(text(&ServerMessage::Seeks { seeks: &l })),
                                Err(_) => None,
                            }
                        }
                        Err(_) => Some(text(&ServerMessage::Error {
                            error: "unreadable message; the types are hello and ping",
                        })),
                    },
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => None,
                    Some(Ok(Message::Binary(_))) => Some(text(&ServerMessage::Error {
                        error: "send JSON text messages",
                    })),
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                }
            },
            _ = keep.tick() => {
                refresh(&mut held, &seats).await;
                None
            },
            _ = ping.tick() => {
                if heard.elapsed() > limits.ws_idle {
                    break;
                }
                if out.send(Message::Ping(Vec::new().into())).await.is_err() {
                    break;
                }
                None
            },
            _ = shutdown.changed() => break,
        };
        if let Some(t) = send
            && out.send(Message::Text(t.into())).await.is_err()
        {
            break;
        }
    }
    let _ = out.close().await;
    // The owner left: its timed seeks go (a seek of days stays its day).
    // `held` has only this socket's own seeks.
    for id in held {
        if let Ok(s) = app.lobby.seek(&id).await
            && s.game.is_none()
            && s.days.is_none()
            && let Err(e) = app.lobby.cancel_owned(&id).await
        {
            tracing::warn!("cannot remove a seek whose owner left: {e}");
        }
    }
}
