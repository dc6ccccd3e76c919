//! Crash safety: `legion serve` is killed with SIGKILL while a client plays
//! as fast as it can; after a restart every acknowledged move is there
//! (at most the one move in flight may also be), and play goes on.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::Child;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

fn start(db: &Path) -> (Child, u16) {
    let db = db.to_str().expect("a UTF-8 path");
    common::serve(&["--engine-movetime", "50", "--db", db])
}

/// One HTTP request; `None` when the server is gone.
fn http(
    port: u16,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> Option<(u16, Value)> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(30))).ok()?;
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let auth = token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\n{auth}Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).ok()?;
    let mut buf = String::new();
    s.read_to_string(&mut buf).ok()?;
    let (head, rest) = buf.split_once("\r\n\r\n")?;
    let status = head.split_whitespace().nth(1)?.parse().ok()?;
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        let mut out = String::new();
        let mut r = rest;
        while let Some((size, more)) = r.split_once("\r\n") {
            let n = usize::from_str_radix(size.trim(), 16).ok()?;
            if n == 0 || more.len() < n {
                break;
            }
            out.push_str(&more[..n]);
            r = more[n..].trim_start_matches("\r\n");
        }
        out
    } else {
        rest.to_string()
    };
    Some((status, serde_json::from_str(&body).ok()?))
}

fn stored_moves(state: &Value) -> Vec<String> {
    state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["canonical"].as_str().unwrap().to_string())
        .collect()
}

fn temp_db() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("legion-crash-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("crash.db");
    for s in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{s}", db.display()));
    }
    db
}

#[test]
#[ignore = "slow: run by scripts/test.sh with --ignored"]
fn kill_9_loses_no_acknowledged_move() {
    let db = temp_db();
    let (child, port) = start(&db);
    let (status, created) = http(
        port,
        "POST",
        "/api/games",
        None,
        Some(json!({"mode": "local"})),
    )
    .unwrap();
    assert_eq!(status, 201);
    let mut id = created["id"].as_str().unwrap().to_string();
    let mut token = created["token"].as_str().unwrap().to_string();
    let mut finished: Vec<(String, Vec<String>)> = Vec::new();
    let mut child = Arc::new(Mutex::new(child));
    let mut port = port;
    let mut acked: Vec<String> = Vec::new();
    let mut rng = legion_engine::rng::Xorshift64::new(0x5EED);
    for round in 0..4 {
        // Kill the server at an arbitrary moment while moves fly.
        let victim = child.clone();
        let delay = 150 + 170 * round as u64;
        let killer = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(delay));
            let mut c = victim.lock().unwrap();
            let _ = c.kill(); // SIGKILL
            let _ = c.wait();
        });
        let Some((_, mut state)) = http(port, "GET", &format!("/api/games/{id}"), None, None)
        else {
            panic!("server not answering at the start of round {round}");
        };
        let started = Instant::now();
        let mut acked_this_round = 0;
        loop {
            if state["status"] == "over" {
                // A result is final: go on in a new game, and keep
                // checking the finished one after every restart.
                match http(
                    port,
                    "POST",
                    "/api/games",
                    None,
                    Some(json!({"mode": "local"})),
                ) {
                    Some((201, created)) => {
                        finished.push((id.clone(), std::mem::take(&mut acked)));
                        id = created["id"].as_str().unwrap().to_string();
                        token = created["token"].as_str().unwrap().to_string();
                        state = created["state"].clone();
                    }
                    Some((code, body)) => panic!("new game refused: {code} {body}"),
                    None => break, // the server died under us
                }
            }
            let legal = state["legal"].as_array().cloned().unwrap_or_default();
            if legal.is_empty() {
                break;
            }
            let mv = legal[rng.below(legal.len())]["canonical"]
                .as_str()
                .unwrap()
                .to_string();
            let ply = state["ply"].as_u64().unwrap();
            match http(
                port,
                "POST",
                &format!("/api/games/{id}/moves"),
                Some(&token),
                Some(json!({"move": mv, "ply": ply})),
            ) {
                Some((200, s)) => {
                    acked.push(mv);
                    acked_this_round += 1;
                    state = s;
                }
                Some((code, body)) => panic!("move refused: {code} {body}"),
                None => break, // the server died under us
            }
            assert!(started.elapsed() < Duration::from_secs(60));
        }
        killer.join().unwrap();
        // Restart on the same database.
        let (c, p) = start(&db);
        child = Arc::new(Mutex::new(c));
        port = p;
        let (status, state) = http(port, "GET", &format!("/api/games/{id}"), None, None).unwrap();
        assert_eq!(status, 200);
        let stored = stored_moves(&state);
        for (old, moves) in &finished {
            let (_, st) = http(port, "GET", &format!("/api/games/{old}"), None, None).unwrap();
            assert_eq!(&stored_moves(&st), moves, "finished game {old}");
            assert_eq!(st["status"], "over");
        }
        assert!(
            stored.len() >= acked.len() && stored[..acked.len()] == acked[..],
            "round {round}: acknowledged {acked:?}, stored {stored:?}"
        );
        assert!(stored.len() <= acked.len() + 1, "more moves than were sent");
        // The kill came while moves were being played, not before.
        assert!(
            acked_this_round > 0,
            "round {round}: no move acknowledged before the kill"
        );
        // A move that reached the disk but not the client counts as played.
        acked = stored;
    }
    let _ = child.lock().unwrap().kill();
}

#[test]
#[ignore = "slow: run by scripts/test.sh with --ignored"]
fn an_engine_game_resumes_thinking_after_a_crash() {
    let db = temp_db().with_file_name("engine.db");
    for s in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{s}", db.display()));
    }
    let (mut child, port) = start(&db);
    // The engine has White: it starts thinking at once; kill it right away.
    let (_, created) = http(
        port,
        "POST",
        "/api/games",
        None,
        Some(json!({"mode": "engine", "color": "black", "level": 1})),
    )
    .unwrap();
    let id = created["id"].as_str().unwrap().to_string();
    let _ = child.kill();
    let _ = child.wait();
    let (mut child, port) = start(&db);
    // Loading the game after the restart sets the engine thinking again.
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (_, st) = http(port, "GET", &format!("/api/games/{id}"), None, None).unwrap();
        if st["ply"].as_u64().unwrap_or(0) >= 1 {
            assert_eq!(st["turn"], "b");
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the engine never moved after the restart"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = child.kill();
}
