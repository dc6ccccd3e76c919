//! Several servers on one PostgreSQL database, in one process: moves seen
//! across servers, races at one ply, flag falls and engine moves decided
//! once. Run by the test script on PostgreSQL (`LEGION_TEST_BACKEND=
//! postgres`); on SQLite there is one server and these tests say so and
//! pass. The same with real processes, one of them killed, is
//! crates/cli/tests/cluster.rs.

use std::time::{Duration, Instant};

use crate::common::*;
use serde_json::{Value, json};

fn on_postgres() -> bool {
    let yes = std::env::var("LEGION_TEST_BACKEND").as_deref() == Ok("postgres");
    if !yes {
        eprintln!("several servers need PostgreSQL: run with LEGION_TEST_BACKEND=postgres");
    }
    yes
}

/// `n` servers on one database (the same path maps to the same database).
async fn servers(name: &str, n: usize) -> (tempfile::TempDir, Vec<TestServer>) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join(format!("{name}.db"));
    let mut out = Vec::new();
    for _ in 0..n {
        out.push(start_config(config(db.clone())).await);
    }
    (dir, out)
}

/// A new game on server `on`: its id, the creator's token, the answer.
async fn new_game(on: &TestServer, body: Value) -> (String, String, Value) {
    let created = post(on.addr, "/api/games", None, body).await.json();
    let id = created["id"].as_str().unwrap().to_string();
    let token = created["token"].as_str().unwrap().to_string();
    (id, token, created)
}

fn first_legal(st: &Value) -> String {
    st["legal"][0]["canonical"].as_str().unwrap().to_string()
}

async fn stored_version(s: &TestServer, id: &str) -> i64 {
    // The version as the database has it, through the server's store.
    let url = s_url(s);
    let mut conn = <sqlx::PgConnection as sqlx::Connection>::connect(&url)
        .await
        .unwrap();
    sqlx::query_scalar("SELECT version FROM games WHERE id = $1")
        .bind(id)
        .fetch_one(&mut conn)
        .await
        .unwrap()
}

fn s_url(s: &TestServer) -> String {
    let server = std::env::var("LEGION_TEST_POSTGRES").unwrap();
    let name = on_backend_name(&s.db);
    format!("{}/{name}", server.trim_end_matches('/'))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_on_one_server_reaches_watchers_on_another() {
    if !on_postgres() {
        return;
    }
    let (_dir, s) = servers("watch", 2).await;
    let (a, b) = (&s[0], &s[1]);
    let (id, token, created) = new_game(a, json!({"mode": "local"})).await;
    let mut watcher = connect(b.addr, &id, None).await;
    state_where(&mut watcher, 5, |st| st["ply"] == 0).await;
    let mut st = created["state"].clone();
    let mut slowest = Duration::ZERO;
    for ply in 0..10 {
        // Moves alternate between the servers: each must act on the
        // other's last move, never on an old copy.
        let (on, mv) = (if ply % 2 == 0 { a } else { b }, first_legal(&st));
        let sent = Instant::now();
        let r = post(
            on.addr,
            &format!("/api/games/{id}/moves"),
            Some(&token),
            json!({"move": mv, "ply": ply}),
        )
        .await;
        assert_eq!(r.status, 200, "ply {ply}: {}", r.body);
        st = r.json();
        let seen = state_where(&mut watcher, 5, |s| s["ply"] == ply + 1).await;
        slowest = slowest.max(sent.elapsed());
        assert_eq!(seen["lfen"], st["lfen"]);
    }
    eprintln!("slowest move seen across servers: {slowest:?}");
    // A's five moves reached B's watcher from their announcement (and the
    // row), without reading the whole game again.
    assert_eq!(b.hub.metrics().moves_heard.get(), 5);
    assert!(slowest < Duration::from_secs(2), "{slowest:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn servers_racing_at_one_ply_have_exactly_one_winner() {
    if !on_postgres() {
        return;
    }
    let (_dir, s) = servers("race", 3).await;
    for round in 0..10 {
        let (id, token, created) = new_game(&s[0], json!({"mode": "local"})).await;
        // Every server knows the game before the race.
        for x in &s {
            assert_eq!(
                get(x.addr, &format!("/api/games/{id}"), None).await.status,
                200
            );
        }
        let legal = created["state"]["legal"].as_array().unwrap().clone();
        let tries = s.iter().enumerate().map(|(i, x)| {
            let (addr, id, token) = (x.addr, id.clone(), token.clone());
            let mv = legal[i % legal.len()]["canonical"]
                .as_str()
                .unwrap()
                .to_string();
            tokio::spawn(async move {
                let r = post(
                    addr,
                    &format!("/api/games/{id}/moves"),
                    Some(&token),
                    json!({"move": mv, "ply": 0}),
                )
                .await;
                (r.status, mv)
            })
        });
        let mut won = Vec::new();
        for t in tries.collect::<Vec<_>>() {
            let (status, mv) = t.await.unwrap();
            match status {
                200 => won.push(mv),
                409 => {}
                other => panic!("round {round}: status {other}"),
            }
        }
        assert_eq!(won.len(), 1, "round {round}: {won:?}");
        // Every server now shows the winner's move, and only it.
        for x in &s {
            let st = get(x.addr, &format!("/api/games/{id}"), None).await.json();
            assert_eq!(st["ply"], 1);
            assert_eq!(st["moves"][0]["canonical"], won[0].as_str());
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flag_fall_is_decided_once() {
    if !on_postgres() {
        return;
    }
    let (_dir, s) = servers("flag", 3).await;
    let body = json!({"mode": "local", "clock": {"initial_s": 1}});
    let (id, token, created) = new_game(&s[0], body).await;
    let mut st = created["state"].clone();
    for ply in 0..2 {
        let r = post(
            s[ply % 3].addr,
            &format!("/api/games/{id}/moves"),
            Some(&token),
            json!({"move": first_legal(&st), "ply": ply}),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        st = r.json();
    }
    // White's clock runs out; three servers sweep for it.
    let mut watcher = connect(s[2].addr, &id, None).await;
    let over = state_where(&mut watcher, 10, |st| st["status"] == "over").await;
    assert_eq!(over["result"], "0-1");
    tokio::time::sleep(Duration::from_millis(800)).await;
    // Created (0), two moves (2), the flag (3): no second decision.
    assert_eq!(stored_version(&s[0], &id).await, 3);
    for x in &s {
        let st = get(x.addr, &format!("/api/games/{id}"), None).await.json();
        assert_eq!(st["result"], "0-1");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_engine_move_is_made_once_by_one_of_the_servers() {
    if !on_postgres() {
        return;
    }
    let (_dir, s) = servers("engine", 3).await;
    for _ in 0..3 {
        let body = json!({"mode": "engine", "color": "white", "level": 1});
        let (id, token, created) = new_game(&s[0], body).await;
        let mut st = created["state"].clone();
        let mut watcher = connect(s[2].addr, &id, None).await;
        for round in 0..3 {
            let ply = round * 2;
            let r = post(
                s[round % 2].addr,
                &format!("/api/games/{id}/moves"),
                Some(&token),
                json!({"move": first_legal(&st), "ply": ply}),
            )
            .await;
            assert_eq!(r.status, 200, "{}", r.body);
            st = state_where(&mut watcher, 10, |x| x["ply"] == ply + 2).await;
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
        let full = get(s[1].addr, &format!("/api/games/{id}"), None)
            .await
            .json();
        assert_eq!(full["ply"], 6, "one engine move a turn, no more");
        // Six moves, each written once: the version counts them.
        assert_eq!(stored_version(&s[0], &id).await, 6);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_lost_its_announcements_catches_up() {
    if !on_postgres() {
        return;
    }
    let (_dir, s) = servers("resync", 2).await;
    let (a, b) = (&s[0], &s[1]);
    let (id, token, created) = new_game(a, json!({"mode": "local"})).await;
    let mut watcher = connect(b.addr, &id, None).await;
    state_where(&mut watcher, 5, |st| st["ply"] == 0).await;
    // Cut every listening connection (both servers'): what is announced
    // meanwhile is lost; each server connects again and reads its
    // watched games.
    let mut db = <sqlx::PgConnection as sqlx::Connection>::connect(&s_url(a))
        .await
        .unwrap();
    let cut: Vec<bool> = sqlx::query_scalar(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE datname = current_database() AND query LIKE 'LISTEN%'",
    )
    .fetch_all(&mut db)
    .await
    .unwrap();
    assert!(!cut.is_empty(), "no listening connection found");
    let mv = first_legal(&created["state"]);
    let r = post(
        a.addr,
        &format!("/api/games/{id}/moves"),
        Some(&token),
        json!({"move": mv, "ply": 0}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    // Whether the announcement was lost or not, B's watcher gets the move.
    let seen = state_where(&mut watcher, 10, |st| st["ply"] == 1).await;
    assert_eq!(seen["lfen"], r.json()["lfen"]);
    // B noticed the cut and read its watched games again.
    let waited = Instant::now();
    while b.hub.metrics().resyncs.get() == 0 {
        assert!(waited.elapsed() < Duration::from_secs(10), "no resync");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_announcement_that_cannot_be_read_is_counted_and_followed_by_a_resync() {
    if !on_postgres() {
        return;
    }
    let (_dir, s) = servers("garbled", 2).await;
    let (a, b) = (&s[0], &s[1]);
    let (id, _, _) = new_game(a, json!({"mode": "local"})).await;
    let mut watcher = connect(b.addr, &id, None).await;
    state_where(&mut watcher, 5, |st| st["ply"] == 0).await;
    // A change whose announcement arrives garbled: the row changes in the
    // database, and the channel carries words no server wrote.
    let mut db = <sqlx::PgConnection as sqlx::Connection>::connect(&s_url(a))
        .await
        .unwrap();
    sqlx::query("UPDATE games SET version = version + 1, draw_offer = 'w' WHERE id = $1")
        .bind(&id)
        .execute(&mut db)
        .await
        .unwrap();
    sqlx::query("SELECT pg_notify('legion_games', $1)")
        .bind(format!("{id} 2 garbled"))
        .execute(&mut db)
        .await
        .unwrap();
    // B counts it and reads its watched games again: the watcher sees the
    // change all the same.
    let seen = state_where(&mut watcher, 10, |st| st["draw_offer"] == "w").await;
    assert_eq!(seen["ply"], 0);
    assert!(b.hub.metrics().unreadable_announcements.get() >= 1);
    let text = get(b.addr, "/metrics", None).await.body;
    assert!(
        text.contains("legion_unreadable_announcements_total"),
        "{text}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seek_made_on_one_server_is_seen_and_accepted_on_another() {
    if !on_postgres() {
        return;
    }
    let (_dir, s) = servers("lobby", 2).await;
    let (a, b) = (&s[0], &s[1]);
    let mut watcher = lobby_socket(b.addr, None, json!([])).await;
    lobby_next(&mut watcher, "seeks", 5).await;
    let made = post(
        a.addr,
        "/api/lobby/seeks",
        None,
        json!({"clock": {"initial_s": 300, "increment_s": 3}}),
    )
    .await;
    assert_eq!(made.status, 201, "{}", made.body);
    let made = made.json();
    let (id, token) = (
        made["id"].as_str().unwrap(),
        made["token"].as_str().unwrap(),
    );
    let mut owner = lobby_socket(a.addr, None, json!([{"id": id, "token": token}])).await;
    lobby_next(&mut owner, "seeks", 5).await;
    // Seen on the other server, live and in its list.
    assert_eq!(lobby_next(&mut watcher, "seek", 5).await["seek"]["id"], id);
    let listed = get(b.addr, "/api/lobby/seeks", None).await.json();
    assert!(
        listed["seeks"]
            .as_array()
            .unwrap()
            .iter()
            .any(|x| x["id"] == id)
    );
    // Accepted there: the owner, on the first server, is told.
    let accepted = post(
        b.addr,
        &format!("/api/lobby/seeks/{id}/accept"),
        None,
        json!({}),
    )
    .await;
    assert_eq!(accepted.status, 201, "{}", accepted.body);
    let game = accepted.json()["game"].as_str().unwrap().to_string();
    let paired = lobby_next(&mut owner, "paired", 5).await;
    assert_eq!(paired["game"], game.as_str());
    assert_eq!(lobby_next(&mut watcher, "gone", 5).await["id"], id);
    // The owner's token holds its side of the game on its own server.
    let st = get(a.addr, &format!("/api/games/{game}"), Some(token))
        .await
        .json();
    assert_eq!(st["you"], paired["color"]);
    // Quick pairing across servers: a place on each, one game.
    let place = |on: &TestServer| {
        let addr = on.addr;
        async move {
            let r = post(addr, "/api/lobby/pools/10+5", None, json!({})).await;
            assert_eq!(r.status, 201, "{}", r.body);
            let v = r.json();
            json!([{"id": v["id"], "token": v["token"]}])
        }
    };
    let (pa, pb) = (place(a).await, place(b).await);
    let mut sa = lobby_socket(a.addr, None, pa).await;
    let mut sb = lobby_socket(b.addr, None, pb).await;
    let ma = lobby_next(&mut sa, "paired", 10).await;
    let mb = lobby_next(&mut sb, "paired", 10).await;
    assert_eq!(ma["game"], mb["game"]);
    assert_ne!(ma["color"], mb["color"]);
}
