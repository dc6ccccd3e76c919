//! A real server on a free port, and small clients for HTTP and WebSocket.

#![allow(dead_code)]

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

pub struct TestServer {
    pub addr: SocketAddr,
    pub db: PathBuf,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

pub fn temp_db(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("legion-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("test.db");
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
    db
}

pub async fn start(db: PathBuf) -> TestServer {
    start_with(db, 2, Duration::from_millis(100)).await
}

pub async fn start_with(db: PathBuf, engine_threads: usize, movetime: Duration) -> TestServer {
    let (router, _hub) = legion_server::app(&db, engine_threads, movetime).unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let task = tokio::spawn(async move {
        let _ = axum::serve(listener, router).await;
    });
    TestServer { addr, db, task }
}

pub struct Reply {
    pub status: u16,
    pub body: String,
    pub headers: String,
}

impl Reply {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }
}

/// One HTTP/1.1 request on a fresh connection.
pub async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&str>,
) -> Reply {
    raw(addr, method, path, token, body.map(str::as_bytes)).await
}

pub async fn raw(
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&[u8]>,
) -> Reply {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let body = body.unwrap_or(b"");
    let auth = token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\nContent-Type: application/json\r\n{auth}Content-Length: {}\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).await.unwrap();
    let _ = s.write_all(body).await;
    let mut buf = Vec::new();
    let _ = s.read_to_end(&mut buf).await;
    let text = String::from_utf8_lossy(&buf).to_string();
    let (headers, rest) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = headers
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = if headers
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(rest)
    } else {
        rest.to_string()
    };
    Reply {
        status,
        body,
        headers: headers.to_string(),
    }
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        s = rest[n..].trim_start_matches("\r\n");
    }
    out
}

pub async fn post(addr: SocketAddr, path: &str, token: Option<&str>, body: Value) -> Reply {
    request(addr, "POST", path, token, Some(&body.to_string())).await
}

pub async fn get(addr: SocketAddr, path: &str, token: Option<&str>) -> Reply {
    request(addr, "GET", path, token, None).await
}

pub type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

pub async fn connect(addr: SocketAddr, id: &str, token: Option<&str>) -> Socket {
    let q = token.map(|t| format!("?token={t}")).unwrap_or_default();
    let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws{q}"))
        .await
        .unwrap();
    ws
}

/// The next JSON message, within `secs` seconds.
pub async fn next(ws: &mut Socket, secs: u64) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(secs), ws.next())
            .await
            .expect("a message in time")
            .expect("socket open")
            .expect("no socket error");
        if let Message::Text(t) = msg {
            return serde_json::from_str(&t).unwrap();
        }
    }
}

/// Waits for a state message satisfying `f`.
pub async fn state_where(ws: &mut Socket, secs: u64, f: impl Fn(&Value) -> bool) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(secs);
    loop {
        let left = deadline
            .saturating_duration_since(tokio::time::Instant::now())
            .as_secs()
            .max(1);
        let m = next(ws, left).await;
        if m["type"] == "state" && f(&m["state"]) {
            return m["state"].clone();
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "no such state in time"
        );
    }
}

pub async fn send(ws: &mut Socket, v: Value) {
    ws.send(Message::Text(v.to_string().into())).await.unwrap();
}
