//! Load: 200 games at once over WebSockets on loopback, each client playing
//! random legal moves as fast as the server acknowledges them. Bounded in
//! time; checks that no move is lost or applied twice, also after reopening
//! the database. Prints moves per second and latency percentiles:
//! `cargo test --release -p legion-server --test suite -- --ignored --nocapture two_hundred_games_at_once`.

use std::time::{Duration, Instant};

use crate::common::*;
use legion_engine::rng::Rng;
use serde_json::{Value, json};

const GAMES: usize = 200;
const MOVES_PER_GAME: usize = 24;
const TIME_LIMIT: Duration = Duration::from_secs(240);

/// One client: plays its game over the socket; returns the moves it had
/// acknowledged, in order, and each move's latency.
async fn client(
    addr: std::net::SocketAddr,
    id: String,
    token: String,
    seed: u64,
) -> (Vec<String>, Vec<Duration>, Vec<Duration>) {
    let mut ws = connect(addr, &id, Some(&token)).await;
    let mut state = next(&mut ws, 30).await["state"].clone();
    let mut acked = Vec::new();
    let mut latencies = Vec::new();
    // From sending a move to holding the state after it (ack and update).
    let mut turns = Vec::new();
    let mut rng = Rng::new(seed);
    while acked.len() < MOVES_PER_GAME {
        let legal = state["legal"].as_array().cloned().unwrap_or_default();
        if legal.is_empty() || state["status"] == "over" {
            break;
        }
        let mv = legal[rng.below(legal.len())]["canonical"]
            .as_str()
            .unwrap()
            .to_string();
        let ply = state["ply"].as_u64().unwrap();
        let sent = Instant::now();
        send(&mut ws, json!({"type": "move", "move": mv, "ply": ply})).await;
        // Until the ack; states may come before or after it.
        let mut next_state: Option<Value> = None;
        loop {
            let m = next(&mut ws, 60).await;
            match m["type"].as_str() {
                Some("ack") => {
                    latencies.push(sent.elapsed());
                    assert_eq!(m["ply"], ply);
                    acked.push(mv.clone());
                    break;
                }
                Some("state" | "update") => {
                    if m["state"]["ply"].as_u64() == Some(ply + 1) {
                        next_state = Some(m["state"].clone());
                    }
                }
                _ => panic!("unexpected reply {m}"),
            }
        }
        state = match next_state {
            Some(s) => s,
            None => state_where(&mut ws, 60, |s| s["ply"].as_u64() == Some(ply + 1)).await,
        };
        turns.push(sent.elapsed());
    }
    (acked, latencies, turns)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow: run by scripts/test.sh with --ignored"]
async fn two_hundred_games_at_once_lose_and_duplicate_nothing() {
    let (_dir, db) = temp_db("load");
    // All 200 clients share one address here.
    let mut c = config(db.clone());
    c.limits.sockets_per_client = GAMES;
    let s = start_config(c).await;
    let mut games = Vec::new();
    for _ in 0..GAMES {
        let r = post(s.addr, "/api/games", None, json!({"mode": "local"})).await;
        assert_eq!(r.status, 201);
        let v = r.json();
        games.push((
            v["id"].as_str().unwrap().to_string(),
            v["token"].as_str().unwrap().to_string(),
        ));
    }
    let started = Instant::now();
    let tasks: Vec<_> = games
        .iter()
        .enumerate()
        .map(|(i, (id, token))| {
            tokio::spawn(client(
                s.addr,
                id.clone(),
                token.clone(),
                i as u64 * 7919 + 1,
            ))
        })
        .collect();
    let mut results = Vec::new();
    for t in tasks {
        let left = TIME_LIMIT.saturating_sub(started.elapsed());
        let r = tokio::time::timeout(left, t)
            .await
            .expect("load test within its time limit")
            .unwrap();
        results.push(r);
    }
    let elapsed = started.elapsed();
    let mut all: Vec<Duration> = results
        .iter()
        .flat_map(|(_, l, _)| l.iter().copied())
        .collect();
    all.sort();
    let mut turns: Vec<Duration> = results
        .iter()
        .flat_map(|(_, _, t)| t.iter().copied())
        .collect();
    turns.sort();
    let turn = |p: f64| turns[((turns.len() as f64 * p) as usize).min(turns.len() - 1)];
    let total = all.len();
    let pct = |p: f64| all[((total as f64 * p) as usize).min(total - 1)];
    println!(
        "load: {GAMES} games, {total} moves in {:.2} s: {:.0} moves/s; latency p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; \
         to the update p50 {:.1} ms, p99 {:.1} ms",
        elapsed.as_secs_f64(),
        total as f64 / elapsed.as_secs_f64(),
        pct(0.50).as_secs_f64() * 1e3,
        pct(0.99).as_secs_f64() * 1e3,
        all[total - 1].as_secs_f64() * 1e3,
        turn(0.50).as_secs_f64() * 1e3,
        turn(0.99).as_secs_f64() * 1e3,
    );
    assert!(total >= GAMES * MOVES_PER_GAME / 2, "only {total} moves");
    // Every acknowledged move is there, in order, once.
    let check = |addr| {
        let games = games.clone();
        let results: Vec<Vec<String>> = results.iter().map(|(a, _, _)| a.clone()).collect();
        async move {
            for ((id, _), acked) in games.iter().zip(&results) {
                let st = get(addr, &format!("/api/games/{id}"), None).await.json();
                let stored: Vec<String> = st["moves"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| m["canonical"].as_str().unwrap().to_string())
                    .collect();
                assert_eq!(&stored, acked, "game {id}");
            }
        }
    };
    check(s.addr).await;
    drop(s);
    // And after reopening the database.
    let again = start_config(config(db)).await;
    check(again.addr).await;
}
