//! The lobby under load (issue 20, docs/BENCHMARKS.md "The lobby"): 1,000
//! open seeks and 1,000 lobby watchers; how long a new seek takes to reach
//! every watcher, how long an accepted seek takes to reach its owner, how
//! long quick pairing takes, and what a sign-in costs. Figures, not
//! bounds a busy machine must meet: ignored by `cargo test`, run with
//! `cargo test --release -p legion-server --test suite -- --ignored lobby_load::
//! --nocapture`.

use std::net::Ipv4Addr;
use std::time::{Duration, Instant};

use crate::common::*;
use serde_json::{Value, json};

const SEEKS: usize = 1_000;
const WATCHERS: usize = 1_000;

fn percentile(sorted: &[Duration], p: usize) -> Duration {
    sorted[(sorted.len() * p / 100).min(sorted.len() - 1)]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// A request from the loopback address `from` (a client of its own).
async fn from(s: &TestServer, ip: Ipv4Addr, method: &str, path: &str, body: Value) -> Reply {
    let headers = format!("Host: {}\r\nContent-Type: application/json\r\n", s.addr);
    exchange(
        s.addr,
        Some(ip),
        method,
        path,
        &headers,
        body.to_string().as_bytes(),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore]
async fn a_thousand_seeks_and_a_thousand_watchers() {
    let mut c = config(std::path::PathBuf::new());
    let dir = tempfile::tempdir().unwrap();
    c.db = dir.path().join("lobby.db");
    c.limits.sockets_per_client = WATCHERS + 50;
    c.limits.sockets_total = WATCHERS + 100;
    c.limits.connections_per_address = WATCHERS + 100;
    let s = start_config(c).await;

    // 1,000 open seeks, of days per move (they stay without their pages).
    let t = Instant::now();
    for _ in 0..SEEKS {
        let r = post(s.addr, "/api/lobby/seeks", None, json!({"days": 3})).await;
        assert_eq!(r.status, 201, "{}", r.body);
    }
    let made = t.elapsed();
    let t = Instant::now();
    let list = get(s.addr, "/api/lobby/seeks", None).await;
    let listed = t.elapsed();
    assert_eq!(list.json()["seeks"].as_array().unwrap().len(), SEEKS);
    eprintln!(
        "{SEEKS} seeks made in {:.2} s ({:.0}/s); the list ({} KB) read in {:.1} ms",
        made.as_secs_f64(),
        SEEKS as f64 / made.as_secs_f64(),
        list.body.len() / 1024,
        ms(listed)
    );

    // 1,000 watchers, each reading the whole list first.
    let t = Instant::now();
    let mut watchers = Vec::with_capacity(WATCHERS);
    for _ in 0..WATCHERS {
        let mut ws = lobby_socket(s.addr, None, json!([])).await;
        let first = lobby_next(&mut ws, "seeks", 30).await;
        assert_eq!(first["seeks"].as_array().unwrap().len(), SEEKS);
        watchers.push(ws);
    }
    eprintln!(
        "{WATCHERS} lobby sockets connected, each sent the {SEEKS} seeks, in {:.2} s",
        t.elapsed().as_secs_f64()
    );

    // A new seek: how long until each watcher hears it.
    let mut heard = Vec::new();
    for round in 0..3 {
        let sent = Instant::now();
        let r = post(s.addr, "/api/lobby/seeks", None, json!({"days": 5})).await;
        assert_eq!(r.status, 201);
        let id = r.json()["id"].as_str().unwrap().to_string();
        let times = futures_util::future::join_all(watchers.iter_mut().map(|ws| {
            let id = id.clone();
            async move {
                let m = lobby_next(ws, "seek", 30).await;
                assert_eq!(m["seek"]["id"], id.as_str());
                sent.elapsed()
            }
        }))
        .await;
        if round > 0 {
            heard.extend(times);
        }
    }
    heard.sort();
    eprintln!(
        "a new seek reaches {WATCHERS} watchers: p50 {:.1} ms, p99 {:.1} ms, last {:.1} ms",
        ms(percentile(&heard, 50)),
        ms(percentile(&heard, 99)),
        ms(*heard.last().unwrap())
    );
    drop(watchers);

    // Pairing: a timed seek accepted, until its owner's socket hears it.
    let mut paired = Vec::new();
    for i in 0..20u8 {
        let r = post(
            s.addr,
            "/api/lobby/seeks",
            None,
            json!({"clock": {"initial_s": 300, "increment_s": 3}}),
        )
        .await;
        let v = r.json();
        let mut owner =
            lobby_socket(s.addr, None, json!([{"id": v["id"], "token": v["token"]}])).await;
        lobby_next(&mut owner, "seeks", 10).await;
        let id = v["id"].as_str().unwrap();
        let t = Instant::now();
        let a = from(
            &s,
            Ipv4Addr::new(127, 0, 9, i + 1),
            "POST",
            &format!("/api/lobby/seeks/{id}/accept"),
            json!({}),
        )
        .await;
        assert_eq!(a.status, 201, "{}", a.body);
        let accepted = t.elapsed();
        lobby_next(&mut owner, "paired", 10).await;
        paired.push((accepted, t.elapsed()));
    }
    let mut acc: Vec<_> = paired.iter().map(|p| p.0).collect();
    let mut told: Vec<_> = paired.iter().map(|p| p.1).collect();
    acc.sort();
    told.sort();
    eprintln!(
        "accepting a seek (with {SEEKS} open): answered p50 {:.1} ms, max {:.1} ms; the owner told p50 {:.1} ms, max {:.1} ms",
        ms(percentile(&acc, 50)),
        ms(*acc.last().unwrap()),
        ms(percentile(&told, 50)),
        ms(*told.last().unwrap())
    );

    // Quick pairing: two places, until both are told (waves every second).
    let mut pools = Vec::new();
    for _ in 0..5 {
        let t = Instant::now();
        let mut socks = Vec::new();
        for _ in 0..2 {
            let v = post(s.addr, "/api/lobby/pools/5+3", None, json!({}))
                .await
                .json();
            socks.push(
                lobby_socket(s.addr, None, json!([{"id": v["id"], "token": v["token"]}])).await,
            );
        }
        for ws in &mut socks {
            lobby_next(ws, "paired", 10).await;
        }
        pools.push(t.elapsed());
    }
    pools.sort();
    eprintln!(
        "quick pairing, two visitors: paired p50 {:.0} ms, max {:.0} ms",
        ms(percentile(&pools, 50)),
        ms(*pools.last().unwrap())
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore]
async fn what_a_sign_in_costs() {
    // The hash alone (Argon2id, 19 MiB, t = 2, p = 1).
    let mut hashes = Vec::new();
    for _ in 0..5 {
        let t = Instant::now();
        legion_server::players::password::hash("correct horse battery").unwrap();
        hashes.push(t.elapsed());
    }
    hashes.sort();
    eprintln!("one Argon2id hash: median {:.1} ms", ms(hashes[2]));
    // Sign-ins over HTTP, each from an address of its own (the limit per
    // address is 20 a minute), two hashes at a time at most.
    let s = start(temp_db("signin")).await;
    const N: u8 = 20;
    for i in 0..N {
        let r = from(
            &s,
            Ipv4Addr::new(127, 0, 7, i + 1),
            "POST",
            "/api/account/register",
            json!({"username": format!("u{i}"), "password": "correct horse"}),
        )
        .await;
        assert_eq!(r.status, 201, "{}", r.body);
    }
    let t = Instant::now();
    let replies = futures_util::future::join_all((0..N).map(|i| {
        let s = &s;
        async move {
            from(
                s,
                Ipv4Addr::new(127, 0, 8, i + 1),
                "POST",
                "/api/account/login",
                json!({"username": format!("u{i}"), "password": "correct horse"}),
            )
            .await
        }
    }))
    .await;
    let took = t.elapsed();
    assert!(replies.iter().all(|r| r.status == 200));
    eprintln!(
        "{N} sign-ins at once: {:.2} s, {:.1} sign-ins/s",
        took.as_secs_f64(),
        f64::from(N) / took.as_secs_f64()
    );
}
