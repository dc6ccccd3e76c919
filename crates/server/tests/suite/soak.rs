//! Soak: what one anonymous flood costs the server, bounded in count and
//! time, on loopback only. Slow, so run on purpose (the test script does):
//! `cargo test --release -p legion-server --test suite -- --ignored --nocapture soak::`.
//! Prints the figures of docs/BENCHMARKS.md ("Hosting under load").

use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::common::*;
use futures_util::StreamExt;
use serde_json::{Value, json};

const GAMES: usize = 20_000;
const SOCKETS: usize = 1_000;
const CLIENTS: usize = 32;
/// The bound the test holds the server to: resident memory of the whole
/// test process (server and clients) after 20,000 games created and read
/// and 1,000 sockets held.
const RSS_BOUND_MB: u64 = 150;

/// Resident memory of this process, MB (Linux).
fn rss_mb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
        })
        .map_or(0, |kb| kb / 1024)
}

/// One request from the loopback address `from` (a client of its own).
async fn request_from(
    from: Ipv4Addr,
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: &str,
) -> (u16, String) {
    let auth = token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    let headers = format!("Host: {addr}\r\nContent-Type: application/json\r\n{auth}");
    let r = exchange(addr, Some(from), method, path, &headers, body.as_bytes()).await;
    (r.status, r.body)
}

/// With `LEGION_FIGURES=DIR`, keeps the figures as `DIR/NAME.json` for the
/// plot of docs/BENCHMARKS.md (tools/plots/hosting.py).
fn write_figures(name: &str, v: Value) {
    if let Ok(dir) = std::env::var("LEGION_FIGURES") {
        let path = std::path::Path::new(&dir).join(format!("{name}.json"));
        std::fs::write(&path, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    }
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    sorted[((sorted.len() as f64 * p) as usize).min(sorted.len() - 1)].as_secs_f64() * 1e3
}

/// A local game's move latency, HTTP, one move after another.
async fn latencies(addr: SocketAddr, moves: usize) -> Vec<Duration> {
    let (s, b) = request_from(
        Ipv4Addr::new(127, 0, 0, 9),
        addr,
        "POST",
        "/api/games",
        None,
        r#"{"mode":"local"}"#,
    )
    .await;
    assert_eq!(s, 201, "{b}");
    let v: Value = serde_json::from_str(&b).unwrap();
    let (id, token) = (
        v["id"].as_str().unwrap().to_string(),
        v["token"].as_str().unwrap().to_string(),
    );
    let mut legal: Vec<String> = v["state"]["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["canonical"].as_str().unwrap().to_string())
        .collect();
    let mut out = Vec::new();
    for ply in 0..moves {
        let Some(mv) = legal.get(ply * 7 % legal.len().max(1)).cloned() else {
            break;
        };
        let t = Instant::now();
        let (s, b) = request_from(
            Ipv4Addr::new(127, 0, 0, 9),
            addr,
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(&token),
            &json!({"move": mv, "ply": ply}).to_string(),
        )
        .await;
        out.push(t.elapsed());
        assert_eq!(s, 200, "{b}");
        let st: Value = serde_json::from_str(&b).unwrap();
        if st["status"] != "active" {
            break;
        }
        legal = st["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["canonical"].as_str().unwrap().to_string())
            .collect();
    }
    out.sort();
    out
}

/// Runs on the server's own runtime (`legion serve` uses the same).
fn on_server_runtime(f: impl std::future::Future<Output = ()>) {
    legion_server::runtime().unwrap().block_on(f);
}

/// A watcher's socket with small buffers, as a browser's would be: the
/// process's memory is then mostly the server's.
async fn watch(addr: SocketAddr, id: &str) -> Socket {
    use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
    let config = WebSocketConfig::default()
        .read_buffer_size(4096)
        .write_buffer_size(0);
    let (mut ws, _) = tokio_tungstenite::connect_async_with_config(
        format!("ws://{addr}/api/games/{id}/ws"),
        Some(config),
        false,
    )
    .await
    .unwrap();
    send(&mut ws, json!({"type": "hello", "token": null})).await;
    ws
}

#[test]
#[ignore = "slow: run by scripts/test.sh with --ignored"]
fn twenty_thousand_games_and_a_thousand_sockets_stay_bounded() {
    on_server_runtime(soak());
}

async fn soak() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = config(dir.path().join("soak.db"));
    c.limits.sockets_per_client = SOCKETS + 10;
    let s = start_config(c).await;
    let addr = s.addr;
    let rss_start = rss_mb();
    let quiet = latencies(addr, 40).await;

    // A flood: 32 clients create 20,000 games and read each back, while
    // one player's game is timed.
    let started = Instant::now();
    let next_game = Arc::new(AtomicUsize::new(0));
    let flood: Vec<_> = (0..CLIENTS)
        .map(|_| {
            let next_game = next_game.clone();
            tokio::spawn(async move {
                let mut ids = Vec::new();
                while next_game.fetch_add(1, Ordering::Relaxed) < GAMES {
                    let (st, body) = request_from(
                        Ipv4Addr::new(127, 0, 0, 2),
                        addr,
                        "POST",
                        "/api/games",
                        None,
                        r#"{"mode":"local"}"#,
                    )
                    .await;
                    assert_eq!(st, 201, "{body}");
                    let v: Value = serde_json::from_str(&body).unwrap();
                    ids.push(v["id"].as_str().unwrap().to_string());
                }
                for id in &ids {
                    let (st, body) = request_from(
                        Ipv4Addr::new(127, 0, 0, 2),
                        addr,
                        "GET",
                        &format!("/api/games/{id}"),
                        None,
                        "",
                    )
                    .await;
                    assert_eq!(st, 200, "{body}");
                }
                ids
            })
        })
        .collect();
    let loaded = latencies(addr, 40).await;
    let mut ids = Vec::new();
    for t in flood {
        ids.extend(
            tokio::time::timeout(Duration::from_secs(600), t)
                .await
                .expect("flood in time")
                .unwrap(),
        );
    }
    let flood_secs = started.elapsed().as_secs_f64();
    assert_eq!(ids.len(), GAMES);
    let rss_games = rss_mb();
    let in_memory = s.hub.games_in_memory();

    // 1,000 sockets watching 100 games, each reading what it is sent.
    let mut sockets = Vec::new();
    for i in 0..SOCKETS {
        let mut ws = watch(addr, &ids[i % 100]).await;
        let first = next(&mut ws, 30).await;
        assert_eq!(first["type"], "state");
        sockets.push(tokio::spawn(async move {
            while let Some(Ok(_)) = ws.next().await {}
        }));
    }
    let rss_sockets = rss_mb();
    let with_sockets = latencies(addr, 40).await;
    let m = get(addr, "/metrics", None).await.body;
    assert!(m.contains(&format!("legion_websockets {SOCKETS}\n")), "{m}");
    for t in &sockets {
        assert!(!t.is_finished(), "a socket closed");
    }

    println!(
        "soak: {GAMES} games created and read by {CLIENTS} clients in {flood_secs:.1} s ({:.0} requests/s); games in memory {in_memory}",
        2.0 * GAMES as f64 / flood_secs
    );
    println!(
        "soak: RSS {rss_start} MB at start, {rss_games} MB after the games, {rss_sockets} MB with {SOCKETS} sockets (bound {RSS_BOUND_MB} MB)"
    );
    for (name, l) in [
        ("quiet", &quiet),
        ("during the flood", &loaded),
        (&format!("with {SOCKETS} sockets") as &str, &with_sockets),
    ] {
        println!(
            "soak: a player's move {name}: p50 {:.1} ms, p99 {:.1} ms ({} moves)",
            percentile(l, 0.5),
            percentile(l, 0.99),
            l.len()
        );
    }
    write_figures(
        "soak",
        json!({
            "games": GAMES, "clients": CLIENTS, "flood_secs": flood_secs, "games_in_memory": in_memory,
            "rss_mb": {"start": rss_start, "games": rss_games, "sockets": rss_sockets, "bound": RSS_BOUND_MB},
            "move_ms": {
                "quiet": [percentile(&quiet, 0.5), percentile(&quiet, 0.99)],
                "flood": [percentile(&loaded, 0.5), percentile(&loaded, 0.99)],
                "sockets": [percentile(&with_sockets, 0.5), percentile(&with_sockets, 0.99)],
            },
        }),
    );
    assert!(in_memory <= 1000, "{in_memory} games in memory");
    assert!(rss_sockets < RSS_BOUND_MB, "RSS {rss_sockets} MB");
    for t in sockets {
        t.abort();
    }
}

#[test]
#[ignore = "slow: run by scripts/test.sh with --ignored"]
fn one_clients_engine_games_do_not_hold_up_anothers() {
    on_server_runtime(fairness());
}

async fn fairness() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = config(dir.path().join("fair.db"));
    c.engine_threads = 2;
    c.engine_movetime = Duration::from_millis(500);
    c.limits.sockets_per_client = 100;
    let s = start_config(c).await;
    let addr = s.addr;
    // Client .3 alone: the engine's reply time.
    let reply = |from: Ipv4Addr| async move {
        let (st, b) = request_from(
            from,
            addr,
            "POST",
            "/api/games",
            None,
            r#"{"mode":"engine","level":10}"#,
        )
        .await;
        assert_eq!(st, 201, "{b}");
        let v: Value = serde_json::from_str(&b).unwrap();
        let id = v["id"].as_str().unwrap().to_string();
        let token = v["token"].as_str().unwrap().to_string();
        let mut ws = connect(addr, &id, None).await;
        let _ = next(&mut ws, 10).await;
        let t = Instant::now();
        let (st, b) = request_from(
            from,
            addr,
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(&token),
            r#"{"move":"c3d4","ply":0}"#,
        )
        .await;
        assert_eq!(st, 200, "{b}");
        state_where(&mut ws, 60, |st| st["ply"] == 2).await;
        t.elapsed()
    };
    let alone = reply(Ipv4Addr::new(127, 0, 0, 3)).await;
    // Client .2 starts 20 engine games at once; once the engine is busy
    // with them and more wait, .3 plays a move.
    let flood: Vec<_> = (0..20)
        .map(|_| tokio::spawn(reply(Ipv4Addr::new(127, 0, 0, 2))))
        .collect();
    wait_for_load(&s, 2, 1).await;
    let during = reply(Ipv4Addr::new(127, 0, 0, 3)).await;
    for t in flood {
        t.await.unwrap();
    }
    println!(
        "fairness: the engine's reply to another client alone {:.2} s, while one client has 20 engine games thinking {:.2} s",
        alone.as_secs_f64(),
        during.as_secs_f64()
    );
    write_figures(
        "fairness",
        json!({"alone_s": alone.as_secs_f64(), "during_s": during.as_secs_f64()}),
    );
    // One search ahead of it at most per thread: about two move times.
    assert!(
        during < alone * 3 + Duration::from_millis(500),
        "{during:?} vs {alone:?}"
    );
    drop(s);

    // Analyses of 10 s from 40 addresses (each at its limit of 2 at once,
    // the queue full) while a game's engine replies are timed: each
    // within its move time and a margin, since analyses never take the
    // thread kept for game moves.
    let dir = tempfile::tempdir().unwrap();
    let mut c = config(dir.path().join("fair-analyses.db"));
    c.engine_threads = 2;
    c.engine_movetime = MOVETIME;
    let s = start_config(c).await;
    let addr = s.addr;
    let analysis = json!({"lfen": legion_rules::INITIAL_LFEN, "movetime_ms": 10_000}).to_string();
    let flood: Vec<_> = (0..ANALYSTS)
        .flat_map(|k| {
            let analysis = analysis.clone();
            (0..2).map(move |_| {
                let analysis = analysis.clone();
                tokio::spawn(async move {
                    let from = Ipv4Addr::new(127, 0, 1, k as u8 + 10);
                    // Asked again as soon as answered or refused, until the
                    // test ends (aborting the task closes the request,
                    // which stops its search).
                    loop {
                        let (st, b) =
                            request_from(from, addr, "POST", "/api/analyse", None, &analysis).await;
                        assert!(matches!(st, 200 | 429 | 503), "{st} {b}");
                        if st != 200 {
                            tokio::time::sleep(Duration::from_millis(50)).await;
                        }
                    }
                })
            })
        })
        .collect();
    // Both analysis threads busy and analyses waiting.
    wait_for_load(&s, 2, 8).await;
    let replies = engine_replies(addr, Ipv4Addr::new(127, 0, 0, 4), REPLIES).await;
    let (queued, running) = s.hub.engine_load();
    for t in flood {
        t.abort();
    }
    let worst = replies.iter().max().copied().unwrap_or_default();
    println!(
        "fairness: with {ANALYSTS} addresses flooding 10 s analyses ({queued} waiting, {running} running at the end), the engine's {} replies (move time {} ms) took {}; worst {:.2} s",
        replies.len(),
        MOVETIME.as_millis(),
        replies
            .iter()
            .map(|d| format!("{:.2}", d.as_secs_f64()))
            .collect::<Vec<_>>()
            .join(", "),
        worst.as_secs_f64()
    );
    write_figures(
        "fairness-analyses",
        json!({
            "analysts": ANALYSTS,
            "movetime_ms": MOVETIME.as_millis() as u64,
            "replies_s": replies.iter().map(Duration::as_secs_f64).collect::<Vec<_>>(),
        }),
    );
    assert!(
        worst < MOVETIME + REPLY_MARGIN,
        "an engine reply took {worst:?} (move time {MOVETIME:?})"
    );
}

/// The engine's move time in the analysis flood, its replies timed, and
/// the margin a reply may take beyond it (HTTP, the socket, a loaded
/// machine's scheduling: no queue).
const MOVETIME: Duration = Duration::from_millis(500);
const REPLY_MARGIN: Duration = Duration::from_millis(1000);
const ANALYSTS: usize = 40;
const REPLIES: usize = 8;

/// Waits until the pool runs at least `running` searches with at least
/// `waiting` more queued (the flood has arrived).
async fn wait_for_load(s: &TestServer, running: usize, waiting: usize) {
    let started = Instant::now();
    loop {
        let (q, r) = s.hub.engine_load();
        if r >= running && q >= waiting {
            return;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the pool never had {running} running and {waiting} waiting: {q} waiting, {r} running"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// One engine game from `from`: `moves` moves of ours, each timed from
/// sending it to the engine's reply on the socket.
async fn engine_replies(addr: SocketAddr, from: Ipv4Addr, moves: usize) -> Vec<Duration> {
    let (st, b) = request_from(
        from,
        addr,
        "POST",
        "/api/games",
        None,
        r#"{"mode":"engine","level":10}"#,
    )
    .await;
    assert_eq!(st, 201, "{b}");
    let v: Value = serde_json::from_str(&b).unwrap();
    let id = v["id"].as_str().unwrap().to_string();
    let token = v["token"].as_str().unwrap().to_string();
    let mut ws = connect(addr, &id, None).await;
    let _ = next(&mut ws, 10).await;
    let mut times = Vec::new();
    for _ in 0..moves {
        let (st, b) = request_from(from, addr, "GET", &format!("/api/games/{id}"), None, "").await;
        assert_eq!(st, 200, "{b}");
        let state: Value = serde_json::from_str(&b).unwrap();
        if state["status"] != "active" {
            break;
        }
        let ply = state["ply"].as_u64().unwrap();
        let lfen = state["lfen"].as_str().unwrap();
        let pos: legion_rules::Position = lfen.parse().unwrap();
        // Any legal move of ours: the engine's time is what is measured.
        let m = legion_rules::notation::canonical(&pos, pos.legal_moves()[0]);
        let t = Instant::now();
        let (st, b) = request_from(
            from,
            addr,
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(&token),
            &json!({"move": m, "ply": ply}).to_string(),
        )
        .await;
        assert_eq!(st, 200, "{b}");
        state_where(&mut ws, 60, |st| {
            st["ply"].as_u64() == Some(ply + 2) || st["status"] != "active"
        })
        .await;
        times.push(t.elapsed());
    }
    assert!(!times.is_empty());
    times
}
