//! The game WebSocket: the state on connect and after every change; moves
//! and pings from the client. A lagging client gets the latest state.

use std::sync::Arc;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::sync::broadcast::error::RecvError;

use crate::hub::{Hub, seat, with_you};

#[derive(serde::Deserialize)]
pub struct WsQuery {
    token: Option<String>,
}

pub async fn handler(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Query(q): Query<WsQuery>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    // Refuse unknown games before upgrading.
    let (rx, handle) = match hub.subscribe(&id).await {
        Ok(x) => x,
        Err(e) => return e.into_response(),
    };
    let token = headers
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::to_string)
        .or(q.token);
    upgrade
        .max_message_size(64 * 1024)
        .on_upgrade(move |socket| session(socket, hub, id, token, rx, handle))
}

async fn session(
    socket: WebSocket,
    hub: Arc<Hub>,
    id: String,
    token: Option<String>,
    mut updates: tokio::sync::broadcast::Receiver<Arc<Value>>,
    handle: Arc<tokio::sync::Mutex<crate::hub::Live>>,
) {
    let (mut out, mut incoming) = socket.split();
    let you = |row: &crate::store::GameRow| seat(row, token.as_deref());
    // The current state first.
    let first = {
        let mut g = handle.lock().await;
        with_you((*g.snapshot()).clone(), you(&g.row))
    };
    if send(&mut out, json!({"type": "state", "state": first}))
        .await
        .is_err()
    {
        return;
    }
    loop {
        tokio::select! {
            update = updates.recv() => {
                let state = match update {
                    Ok(s) => (*s).clone(),
                    // Too slow to follow: skip to the latest state.
                    Err(RecvError::Lagged(_)) => (*handle.lock().await.snapshot()).clone(),
                    Err(RecvError::Closed) => break,
                };
                let seat = you(&handle.lock().await.row);
                if send(&mut out, json!({"type": "state", "state": with_you(state, seat)})).await.is_err() {
                    break;
                }
            }
            msg = incoming.next() => {
                let text = match msg {
                    Some(Ok(Message::Text(t))) => t.to_string(),
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                    Some(Ok(_)) => continue,
                };
                let reply = answer(&hub, &id, token.as_deref(), &text).await;
                if send(&mut out, reply).await.is_err() {
                    break;
                }
            }
        }
    }
}

async fn send(
    out: &mut futures_util::stream::SplitSink<WebSocket, Message>,
    v: Value,
) -> Result<(), axum::Error> {
    out.send(Message::Text(v.to_string().into())).await
}

/// Handles one client message.
async fn answer(hub: &Arc<Hub>, id: &str, token: Option<&str>, text: &str) -> Value {
    let Ok(msg) = serde_json::from_str::<Value>(text) else {
        return json!({"type": "error", "error": "bad JSON"});
    };
    match msg["type"].as_str() {
        Some("ping") => json!({"type": "pong"}),
        Some("move") => {
            let (Some(mv), Some(ply)) = (msg["move"].as_str(), msg["ply"].as_u64()) else {
                return json!({"type": "error", "error": "a move message needs \"move\" and \"ply\""});
            };
            let token = msg["token"].as_str().or(token);
            match hub.play(id, token, mv, ply as usize).await {
                Ok(_) => json!({"type": "ack", "ply": ply, "move": mv}),
                Err(e) => {
                    let mut v = e.json();
                    v["type"] = json!("error");
                    v["ply"] = json!(ply);
                    v["status"] = json!(e.status);
                    v
                }
            }
        }
        _ => json!({"type": "error", "error": "unknown message type (move, ping)"}),
    }
}
