//! The game WebSocket (docs/API.md). The client says `hello` (with its
//! seat token, if any) and gets the whole state; after that each change
//! comes as a small `update`. Moves and pings come from the client. Every
//! socket is bounded: a place among the client's and the server's, a
//! message size, a time to say hello, pings and an idle timeout.

use axum::extract::State;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::response::{IntoResponse, Response};
use futures_util::stream::SplitSink;
use futures_util::{SinkExt, StreamExt};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use tokio::sync::broadcast::error::RecvError;
use tokio::time::Instant;

use crate::games::cache::Handle;
use crate::games::event::{Notice, What};
use crate::games::ids::{GameId, SeatToken};
use crate::games::seats::{Seat, Who, seat_of};
use crate::http::api::{App, GamePath, MAX_MOVE};
use crate::http::error::ApiError;
use crate::http::limits::{Client, SocketPlace};
use crate::i18n::Lang;

/// Largest message a client may send; larger ones close the socket (1009).
pub const MAX_MESSAGE: usize = 4 * 1024;
/// Largest frame read at all (the socket library's own bound).
const MAX_FRAME: usize = 64 * 1024;
const READ_BUFFER: usize = 4 * 1024;

const POLICY: u16 = 1008;
const TOO_BIG: u16 = 1009;
const GOING_AWAY: u16 = 1001;
const NORMAL: u16 = 1000;

#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum ClientMessage {
    Hello {
        /// A text that is no token of ours holds no seat (the socket
        /// watches).
        #[serde(default, deserialize_with = "lenient_token")]
        token: Option<SeatToken>,
    },
    Move {
        #[serde(rename = "move")]
        mv: String,
        ply: usize,
    },
    Ping,
}

/// A token as the client sent it: one of ours, or none.
fn lenient_token<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<SeatToken>, D::Error> {
    let text = Option::<String>::deserialize(d)?;
    Ok(text.and_then(|t| SeatToken::parse(&t).ok()))
}

/// What the server sends on a game's socket (docs/API.md, "WebSocket").
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum ServerMessage<'a> {
    /// The whole state.
    State {
        state: &'a RawValue,
    },
    /// A move was accepted at `ply`.
    Ack {
        ply: usize,
        #[serde(rename = "move")]
        mv: &'a str,
    },
    /// A message refused: the API's error body, with the status an HTTP
    /// request would have had and the ply of a refused move.
    Error {
        #[serde(flatten)]
        body: serde_json::Value,
        #[serde(skip_serializing_if = "Option::is_none")]
        ply: Option<usize>,
        #[serde(skip_serializing_if = "Option::is_none")]
        status: Option<u16>,
    },
    Pong,
}

impl ServerMessage<'_> {
    fn text(&self) -> String {
        // Our own types serialise to JSON without fail.
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// An error message with words only (no API error behind it).
fn said(error: &str) -> String {
    ServerMessage::Error {
        body: serde_json::json!({ "error": error }),
        ply: None,
        status: None,
    }
    .text()
}

/// Whether a read failed on a frame or message over the library's bound.
fn too_big(e: axum::Error) -> bool {
    use tungstenite::error::{CapacityError, Error};
    matches!(
        e.into_inner().downcast::<Error>().map(|e| *e),
        Ok(Error::Capacity(
            CapacityError::MessageTooLong { .. } | CapacityError::TooManyHeaders
        ))
    )
}

pub async fn handler(
    State(app): State<App>,
    GamePath(id): GamePath,
    client: Client,
    lang: Lang,
    headers: axum::http::HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    let place = match app.sockets.take(client) {
        Ok(p) => p,
        Err(e) => return e.into_response(),
    };
    // A signed-in player's session cookie (sent with the upgrade) holds
    // their seat; a token may come in the hello.
    let who = match crate::http::api::who(&app, &headers).await {
        Ok(w) => w,
        Err(e) => return e.into_response(),
    };
    // Unknown games are refused before the upgrade.
    let handle = match app.hub.watch(&id).await {
        Ok(x) => x,
        Err(e) => return ApiError::from(e).into_response(),
    };
    // Small buffers: a socket mostly waits, and 1,000 of them should cost
    // megabytes, not the library's default 128 KiB each.
    upgrade
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(0)
        .max_write_buffer_size(MAX_FRAME)
        .max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        .on_upgrade(move |socket| async move {
            app.hub.metrics().sockets.inc();
            let s = Session {
                app: app.clone(),
                id,
                client,
                lang,
                handle,
                who,
                seat: None,
                _place: place,
            };
            s.run(socket).await;
            app.hub.metrics().sockets.dec();
        })
}

struct Session {
    app: App,
    id: GameId,
    client: Client,
    /// The language of the page that opened the socket, for its errors.
    lang: Lang,
    handle: Handle,
    who: Who,
    /// The seat the socket's reader holds, as of its last hello: which
    /// chat room it reads (issue 20).
    seat: Option<Seat>,
    _place: SocketPlace,
}

type Out = SplitSink<WebSocket, Message>;

async fn close(out: &mut Out, code: u16, reason: &str) {
    let frame = CloseFrame {
        code,
        reason: reason.into(),
    };
    let _ = out.send(Message::Close(Some(frame))).await;
    let _ = out.close().await;
}

/// What the loop is to do after a message.
enum Next {
    Reply(String),
    /// Send the whole state, and follow the changes from there on.
    State,
    Close(u16, &'static str),
}

type Updates = tokio::sync::broadcast::Receiver<Notice>;

impl Session {
    /// The whole state, and the changes after it: both taken under the
    /// game's lock, so that no change made before the state (queued while
    /// the client was saying hello, say) is sent after it.
    async fn full_state(&mut self) -> (String, Updates) {
        let mut g = self.handle.lock().await;
        let seat = seat_of(&g.row, &self.who);
        self.seat = seat;
        let state = self.app.hub.full(&mut g, seat);
        let updates = g.tx.subscribe();
        (ServerMessage::State { state: &state }.text(), updates)
    }

    async fn run(mut self, socket: WebSocket) {
        let (mut out, mut incoming) = socket.split();
        let limits = self.app.limits.clone();
        // The first message says who the client is.
        let first = tokio::time::timeout(limits.ws_hello, incoming.next()).await;
        let hello = match first {
            Ok(Some(Ok(Message::Text(t)))) if t.len() <= MAX_MESSAGE => {
                serde_json::from_str::<ClientMessage>(&t).ok()
            }
            _ => None,
        };
        let Some(ClientMessage::Hello { token }) = hello else {
            close(&mut out, POLICY, "the first message must be a hello").await;
            return;
        };
        self.who.token = token;
        let (state, mut updates) = self.full_state().await;
        if out.send(Message::Text(state.into())).await.is_err() {
            return;
        }
        let mut shutdown = self.app.shutdown.clone();
        let mut heard = Instant::now();
        let mut ping = tokio::time::interval_at(Instant::now() + limits.ws_ping, limits.ws_ping);
        loop {
            let next = tokio::select! {
                update = updates.recv() => match update {
                    // A chat message, for the readers of its room only.
                    Ok(Notice { what: What::Chat { room, .. }, update: Some(text) }) => {
                        if room.readable_by(self.seat) {
                            Next::Reply(text.to_string())
                        } else {
                            continue;
                        }
                    }
                    Ok(Notice { update: Some(text), .. }) => Next::Reply(text.to_string()),
                    // The game was read again as a whole (another server changed it).
                    Ok(Notice { update: None, .. }) => Next::State,
                    // Too slow to follow: the whole state instead.
                    Err(RecvError::Lagged(_)) => Next::State,
                    Err(RecvError::Closed) => Next::Close(GOING_AWAY, "the game is gone"),
                },
                msg = incoming.next() => {
                    heard = Instant::now();
                    match msg {
                        Some(Ok(Message::Text(t))) => self.answer(&t).await,
                        Some(Ok(Message::Binary(b))) if b.len() > MAX_MESSAGE => Next::Close(TOO_BIG, "message too big"),
                        Some(Ok(Message::Binary(_))) => Next::Reply(said("send JSON text messages")),
                        Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                        Some(Ok(Message::Close(_))) | None => break,
                        Some(Err(e)) => {
                            // A frame over the library's bound: say why.
                            if too_big(e) {
                                close(&mut out, TOO_BIG, "message too big").await;
                            }
                            break;
                        }
                    }
                },
                _ = ping.tick() => {
                    if heard.elapsed() > limits.ws_idle {
                        Next::Close(NORMAL, "idle")
                    } else {
                        match out.send(Message::Ping(Vec::new().into())).await {
                            Ok(()) => continue,
                            Err(_) => break,
                        }
                    }
                },
                _ = shutdown.changed() => Next::Close(GOING_AWAY, "the server is stopping"),
            };
            match next {
                Next::Reply(text) => {
                    if out.send(Message::Text(text.into())).await.is_err() {
                        break;
                    }
                }
                Next::State => {
                    let (text, fresh) = self.full_state().await;
                    updates = fresh;
                    if out.send(Message::Text(text.into())).await.is_err() {
                        break;
                    }
                }
                Next::Close(code, reason) => {
                    close(&mut out, code, reason).await;
                    break;
                }
            }
        }
    }

    /// Handles one text message of the client.
    async fn answer(&mut self, text: &str) -> Next {
        if text.len() > MAX_MESSAGE {
            return Next::Close(TOO_BIG, "message too big");
        }
        let msg = match serde_json::from_str::<ClientMessage>(text) {
            Ok(m) => m,
            Err(e) => {
                return Next::Reply(said(&format!(
                    "unreadable message ({e}); the types are hello, move and ping"
                )));
            }
        };
        match msg {
            ClientMessage::Ping => Next::Reply(ServerMessage::Pong.text()),
            ClientMessage::Hello { token } => {
                self.who.token = token;
                Next::State
            }
            ClientMessage::Move { mv, ply } => {
                let refused = |e: ApiError, ply| {
                    ServerMessage::Error {
                        status: Some(e.status().as_u16()),
                        body: e.body_in(self.lang),
                        ply,
                    }
                    .text()
                };
                if mv.len() > MAX_MOVE {
                    return Next::Reply(refused(crate::http::api::move_too_long(), None));
                }
                let played = self
                    .app
                    .hub
                    .play(&self.id, &self.who, &mv, ply, self.client.0)
                    .await;
                Next::Reply(match played {
                    Ok(_) => ServerMessage::Ack { ply, mv: &mv }.text(),
                    Err(e) => refused(e.into(), Some(ply)),
                })
            }
        }
    }
}
