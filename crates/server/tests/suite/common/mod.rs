//! A real server on a free port, and small clients for HTTP and WebSocket.

#![allow(dead_code)]

use std::net::SocketAddr;
use std::path::PathBuf;

use std::time::Duration;
pub use tempfile;

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

pub struct TestServer {
    pub addr: SocketAddr,
    pub db: PathBuf,
    pub hub: std::sync::Arc<legion_server::Hub>,
    task: tokio::task::JoinHandle<()>,
    /// Keeps the database's folder until the server is dropped.
    pub _dir: Option<tempfile::TempDir>,
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// A database in a fresh temporary folder, removed with the server.
pub fn temp_db(_name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("test.db");
    (dir, db)
}

/// A server with the default limits, except that one address (the tests')
/// may create games without pause.
pub fn config(db: PathBuf) -> legion_server::Config {
    let mut c = legion_server::Config::local(db);
    c.engine_movetime = Duration::from_millis(100);
    c.limits.games_per_minute = 0;
    c.limits.analyses_per_minute = 0;
    c
}

pub async fn start((dir, db): (tempfile::TempDir, PathBuf)) -> TestServer {
    let mut s = start_config(config(db)).await;
    s._dir = Some(dir);
    s
}

pub async fn start_with(
    (dir, db): (tempfile::TempDir, PathBuf),
    engine_threads: usize,
    movetime: Duration,
) -> TestServer {
    let mut c = config(db);
    c.engine_threads = engine_threads;
    c.engine_movetime = movetime;
    let mut s = start_config(c).await;
    s._dir = Some(dir);
    s
}

/// With `LEGION_TEST_BACKEND=postgres` the tests run on PostgreSQL: the
/// server at `LEGION_TEST_POSTGRES` (a URL without a database), one
/// database per SQLite path the test would have used, so that a test that
/// restarts its server finds its games again.
pub async fn on_backend(mut c: legion_server::Config) -> legion_server::Config {
    if std::env::var("LEGION_TEST_BACKEND").as_deref() != Ok("postgres") || c.postgres.is_some() {
        return c;
    }
    let server = std::env::var("LEGION_TEST_POSTGRES")
        .expect("LEGION_TEST_POSTGRES: the PostgreSQL server's URL, without a database");
    let name = on_backend_name(&c.db);
    create_database(&server, &name).await;
    c.postgres = Some(format!("{}/{name}", server.trim_end_matches('/')));
    c
}

/// The PostgreSQL database that stands for the SQLite path `db`.
pub fn on_backend_name(db: &std::path::Path) -> String {
    format!("legion_{:016x}", fnv(db.display().to_string().as_bytes()))
}

/// FNV-1a: a stable name for a path.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

pub async fn create_database(server: &str, name: &str) {
    use sqlx::Connection;
    let url = format!("{}/postgres", server.trim_end_matches('/'));
    let mut conn = sqlx::PgConnection::connect(&url).await.unwrap();
    let exists: Option<i32> = sqlx::query_scalar("SELECT 1 FROM pg_database WHERE datname = $1")
        .bind(name)
        .fetch_optional(&mut conn)
        .await
        .unwrap();
    if exists.is_none() {
        sqlx::raw_sql(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
            .execute(&mut conn)
            .await
            .unwrap();
    }
}

/// A server with this configuration on a free port of this machine.
pub async fn start_config(config: legion_server::Config) -> TestServer {
    let config = on_backend(config).await;
    // A server the test dropped a moment ago on the same SQLite file frees
    // its lock once its last connection's task has ended: wait for that.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    let built = loop {
        match legion_server::app(&config).await {
            Ok(b) => break b,
            Err(legion_server::ServerError::Store(legion_server::store::StoreError::InUse(_)))
                if std::time::Instant::now() < deadline =>
            {
                tokio::time::sleep(Duration::from_millis(20)).await
            }
            Err(e) => panic!("{e}"),
        }
    };
    let hub = built.hub.clone();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let task = tokio::spawn(async move {
        let _ = built.serve_on(listener, std::future::pending()).await;
    });
    TestServer {
        addr,
        db: config.db,
        hub,
        task,
        _dir: None,
    }
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
    let auth = token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    let headers = format!("Host: {addr}\r\nContent-Type: application/json\r\n{auth}");
    exchange(addr, None, method, path, &headers, body.unwrap_or(b"")).await
}

/// One request on a fresh connection with exactly these header lines
/// (each ending in CRLF; `Connection` and `Content-Length` are added),
/// from the loopback address `from` if given: a client of its own.
pub async fn exchange(
    addr: SocketAddr,
    from: Option<std::net::Ipv4Addr>,
    method: &str,
    path: &str,
    headers: &str,
    body: &[u8],
) -> Reply {
    let mut s = match from {
        None => TcpStream::connect(addr).await.unwrap(),
        Some(ip) => {
            let sock = tokio::net::TcpSocket::new_v4().unwrap();
            sock.bind(SocketAddr::new(std::net::IpAddr::V4(ip), 0))
                .unwrap();
            sock.connect(addr).await.unwrap()
        }
    };
    let head = format!(
        "{method} {path} HTTP/1.1\r\nConnection: close\r\n{headers}Content-Length: {}\r\n\r\n",
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

/// A socket to the game that has said hello (with `token`, if any).
pub async fn connect(addr: SocketAddr, id: &str, token: Option<&str>) -> Socket {
    let mut ws = connect_quiet(addr, id).await;
    send(
        &mut ws,
        serde_json::json!({"type": "hello", "token": token}),
    )
    .await;
    ws
}

/// A socket that has said nothing yet.
pub async fn connect_quiet(addr: SocketAddr, id: &str) -> Socket {
    let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws"))
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

/// Waits for a state or update message whose state satisfies `f`.
pub async fn state_where(ws: &mut Socket, secs: u64, f: impl Fn(&Value) -> bool) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(secs);
    loop {
        let left = deadline
            .saturating_duration_since(tokio::time::Instant::now())
            .as_secs()
            .max(1);
        let m = next(ws, left).await;
        if (m["type"] == "state" || m["type"] == "update") && f(&m["state"]) {
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

/// A lobby socket of the server at `addr` (with a session cookie, if
/// any) that said hello holding `held` (`[{"id", "token"}]`).
pub async fn lobby_socket(addr: SocketAddr, cookie: Option<&str>, held: Value) -> Socket {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut req = format!("ws://{addr}/api/lobby/ws")
        .into_client_request()
        .unwrap();
    if let Some(c) = cookie {
        req.headers_mut()
            .insert("Cookie", format!("legion_session={c}").parse().unwrap());
    }
    let (mut ws, _) = tokio_tungstenite::connect_async(req).await.unwrap();
    send(&mut ws, serde_json::json!({"type": "hello", "seeks": held})).await;
    ws
}

/// The next lobby message of `kind`, within `secs` seconds.
pub async fn lobby_next(ws: &mut Socket, kind: &str, secs: u64) -> Value {
    let deadline = std::time::Instant::now() + Duration::from_secs(secs);
    loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        let m = next(ws, left.as_secs().max(1)).await;
        if m["type"] == kind {
            return m;
        }
        assert!(std::time::Instant::now() < deadline, "no '{kind}' in time");
    }
}

/// A request with a session cookie and a seat token (either may be
/// absent); a GET or DELETE sends no body.
pub async fn call(
    s: &TestServer,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    token: Option<&str>,
    body: Value,
) -> Reply {
    let cookie = cookie
        .map(|c| format!("Cookie: legion_session={c}\r\n"))
        .unwrap_or_default();
    let auth = token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    let headers = format!(
        "Host: {}\r\nContent-Type: application/json\r\n{cookie}{auth}",
        s.addr
    );
    let body = if method == "GET" || method == "DELETE" {
        String::new()
    } else {
        body.to_string()
    };
    exchange(s.addr, None, method, path, &headers, body.as_bytes()).await
}

/// A new account's session cookie.
pub async fn register(s: &TestServer, name: &str) -> String {
    let r = call(
        s,
        "POST",
        "/api/account/register",
        None,
        None,
        serde_json::json!({"username": name, "password": "a good password"}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let line = r
        .headers
        .lines()
        .find(|l| l.to_ascii_lowercase().starts_with("set-cookie:"))
        .unwrap()
        .to_string();
    line.split_once("legion_session=")
        .and_then(|(_, rest)| rest.split(';').next())
        .unwrap()
        .to_string()
}
