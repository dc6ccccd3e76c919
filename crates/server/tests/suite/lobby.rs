//! The lobby over HTTP and WebSocket (issue 20, docs/API.md "Lobby"), on
//! SQLite and, under the test script, on PostgreSQL: seeks made, listed,
//! accepted (once) and gone when their owner leaves; a rated game whose
//! end changes both ratings as Glicko-2 says; days per move; quick
//! pairing; challenges; "your turn".

use std::time::{Duration, Instant};

use crate::common::*;
use serde_json::{Value, json};

/// Waits (polling, bounded) until `f` holds for the JSON at `path`.
async fn until(
    s: &TestServer,
    path: &str,
    cookie: Option<&str>,
    f: impl Fn(&Value) -> bool,
) -> Value {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let r = call(s, "GET", path, cookie, None, Value::Null).await;
        if r.status == 200 {
            let v = r.json();
            if f(&v) {
                return v;
            }
        }
        assert!(
            Instant::now() < deadline,
            "{path} never became as expected: {}",
            r.body
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn listed(v: &Value, id: &str) -> bool {
    v["seeks"].as_array().unwrap().iter().any(|s| s["id"] == id)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_seek_becomes_a_game_whose_end_changes_both_ratings() {
    let s = start(temp_db("rated")).await;
    let anna = register(&s, "Anna").await;
    let bob = register(&s, "Bob").await;
    let mut watcher = lobby_socket(s.addr, None, json!([])).await;
    assert_eq!(
        lobby_next(&mut watcher, "seeks", 5).await["seeks"],
        json!([])
    );
    let r = call(
        &s,
        "POST",
        "/api/lobby/seeks",
        Some(&anna),
        None,
        json!({"clock": {"initial_s": 180, "increment_s": 2}, "rated": true}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let seek = r.json()["id"].as_str().unwrap().to_string();
    // Anna's page holds it: she hears when it is taken.
    let mut owner = lobby_socket(s.addr, Some(&anna), json!([])).await;
    lobby_next(&mut owner, "seeks", 5).await;
    // Everyone sees it, with Anna's name and starting rating.
    let m = lobby_next(&mut watcher, "seek", 5).await;
    assert_eq!(m["seek"]["id"], seek.as_str());
    assert_eq!(m["seek"]["username"], "Anna");
    assert_eq!(m["seek"]["rating"], 1500.0);
    assert_eq!(m["seek"]["provisional"], true);
    assert_eq!(m["seek"]["class"], "blitz");
    // Her own seek: 409; a rated seek for an anonymous visitor: 401.
    let own = call(
        &s,
        "POST",
        &format!("/api/lobby/seeks/{seek}/accept"),
        Some(&anna),
        None,
        Value::Null,
    )
    .await;
    assert_eq!(own.status, 409, "{}", own.body);
    assert_eq!(own.json()["code"], "lobby.refused.own_seek");
    let anon = call(
        &s,
        "POST",
        &format!("/api/lobby/seeks/{seek}/accept"),
        None,
        None,
        Value::Null,
    )
    .await;
    assert_eq!(anon.status, 401, "{}", anon.body);
    // Bob accepts.
    let a = call(
        &s,
        "POST",
        &format!("/api/lobby/seeks/{seek}/accept"),
        Some(&bob),
        None,
        Value::Null,
    )
    .await;
    assert_eq!(a.status, 201, "{}", a.body);
    let a = a.json();
    let game = a["game"].as_str().unwrap().to_string();
    let bob_side = a["color"].as_str().unwrap().to_string();
    assert!(bob_side == "w" || bob_side == "b");
    let paired = lobby_next(&mut owner, "paired", 5).await;
    assert_eq!(paired["game"], game.as_str());
    assert_ne!(paired["color"], bob_side.as_str());
    assert_eq!(
        lobby_next(&mut watcher, "gone", 5).await["id"],
        seek.as_str()
    );
    // Taken once: a second acceptor finds nothing.
    let late = register(&s, "Carl").await;
    let again = call(
        &s,
        "POST",
        &format!("/api/lobby/seeks/{seek}/accept"),
        Some(&late),
        None,
        Value::Null,
    )
    .await;
    assert_eq!(again.status, 404, "{}", again.body);
    // The game: rated, blitz, both names, both at 1500.
    let st = call(
        &s,
        "GET",
        &format!("/api/games/{game}"),
        Some(&anna),
        None,
        Value::Null,
    )
    .await
    .json();
    assert_eq!(st["rated"], true);
    assert_eq!(st["speed"], "blitz");
    assert_eq!(st["status"], "active");
    let (white, black) = if bob_side == "w" {
        (&bob, &anna)
    } else {
        (&anna, &bob)
    };
    assert_eq!(st["you"], if bob_side == "w" { "b" } else { "w" });
    assert_eq!(st["players"][bob_side.as_str()]["name"], "Bob");
    assert_eq!(st["players"][bob_side.as_str()]["rating"], 1500.0);
    // Both sides move (by their sessions), then White resigns.
    let mv = |cookie: &str, m: &str, ply: usize| {
        let path = format!("/api/games/{game}/moves");
        let cookie = cookie.to_string();
        let body = json!({"move": m, "ply": ply});
        let s = &s;
        async move { call(s, "POST", &path, Some(&cookie), None, body).await }
    };
    assert_eq!(mv(white, "c3d4", 0).await.status, 200);
    let r = mv(black, "f6e5", 1).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = call(
        &s,
        "POST",
        &format!("/api/games/{game}/resign"),
        Some(white),
        None,
        json!({}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    // The ratings change once it is settled: by hand from Glickman's
    // formulas, two new players (1500, RD 350, σ 0.06): g = 0.66907,
    // E = 0.5, v = 8.93545; φ' = 1.67122 (RD 290.32), μ' = ±0.93434
    // (±162.31): the winner 1662.31, the loser 1337.69.
    let st = until(&s, &format!("/api/games/{game}"), None, |st| {
        st["players"]["w"]["diff"].is_number()
    })
    .await;
    assert_eq!(st["result"], "0-1");
    let diff_b = st["players"]["b"]["diff"].as_f64().unwrap();
    let diff_w = st["players"]["w"]["diff"].as_f64().unwrap();
    assert!((diff_b - 162.31).abs() < 0.1, "{st}");
    assert!((diff_w + 162.31).abs() < 0.1, "{st}");
    let me = call(&s, "GET", "/api/account", Some(black), None, Value::Null)
        .await
        .json();
    let blitz = &me["ratings"]["blitz"];
    assert!(
        (blitz["rating"].as_f64().unwrap() - 1662.31).abs() < 0.1,
        "{me}"
    );
    assert!((blitz["rd"].as_f64().unwrap() - 290.32).abs() < 0.1, "{me}");
    assert_eq!(blitz["games"], 1);
    assert_eq!(blitz["provisional"], true);
    // Other classes are untouched.
    assert_eq!(me["ratings"]["rapid"]["games"], 0);
    let loser = call(&s, "GET", "/api/account", Some(white), None, Value::Null)
        .await
        .json();
    assert!((loser["ratings"]["blitz"]["rating"].as_f64().unwrap() - 1337.69).abs() < 0.1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seeks_are_checked_and_go_when_their_owner_leaves() {
    let s = start(temp_db("leave")).await;
    let post_seek = |body: Value| {
        let s = &s;
        async move { call(s, "POST", "/api/lobby/seeks", None, None, body).await }
    };
    for (body, status, code) in [
        (json!({"days": 4}), 400, "lobby.refused.bad_days"),
        (
            json!({"days": 1, "clock": {"initial_s": 60}}),
            400,
            "lobby.refused.clock_and_days",
        ),
        (
            json!({"clock": {"initial_s": 60}, "rated": true}),
            401,
            "lobby.refused.rated_needs_account",
        ),
        (json!({"color": "green"}), 400, "lobby.refused.bad_color"),
        (json!({"range": [10, 20]}), 400, "lobby.refused.bad_range"),
    ] {
        let r = post_seek(body.clone()).await;
        assert_eq!(r.status, status, "{body}: {}", r.body);
        assert_eq!(r.json()["code"], code, "{body}");
    }
    assert_eq!(post_seek(json!({"dance": true})).await.status, 400);
    // An anonymous casual seek, held by its page's socket.
    let r =
        post_seek(json!({"clock": {"initial_s": 300, "increment_s": 3}, "color": "white"})).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let made = r.json();
    let id = made["id"].as_str().unwrap().to_string();
    let token = made["token"].as_str().unwrap().to_string();
    let mut page = lobby_socket(s.addr, None, json!([{"id": id, "token": token}])).await;
    let first = lobby_next(&mut page, "seeks", 5).await;
    assert!(listed(&first, &id), "{first}");
    let v = call(
        &s,
        "GET",
        &format!("/api/lobby/seeks/{id}"),
        None,
        None,
        Value::Null,
    )
    .await
    .json();
    assert_eq!(v["seek"]["color"], "white");
    assert_eq!(v["game"], Value::Null);
    // Someone else's cancel is refused; the page leaves: the seek goes.
    let stranger = call(
        &s,
        "DELETE",
        &format!("/api/lobby/seeks/{id}"),
        None,
        None,
        Value::Null,
    )
    .await;
    assert_eq!(stranger.status, 403, "{}", stranger.body);
    drop(page);
    until(&s, "/api/lobby/seeks", None, |v| !listed(v, &id)).await;
    // A seek of days per move stays without its owner; its owner cancels it.
    let r = post_seek(json!({"days": 3})).await;
    let made = r.json();
    let id = made["id"].as_str().unwrap().to_string();
    let token = made["token"].as_str().unwrap().to_string();
    let page = lobby_socket(s.addr, None, json!([{"id": id, "token": token}])).await;
    drop(page);
    let v = call(&s, "GET", "/api/lobby/seeks", None, None, Value::Null)
        .await
        .json();
    assert!(
        listed(&v, &id),
        "a seek of days is not tied to its page: {v}"
    );
    let r = call(
        &s,
        "DELETE",
        &format!("/api/lobby/seeks/{id}"),
        None,
        Some(&token),
        Value::Null,
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let v = call(&s, "GET", "/api/lobby/seeks", None, None, Value::Null)
        .await
        .json();
    assert!(!listed(&v, &id));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_of_days_per_move_gives_days_and_lists_whose_turn_it_is() {
    let s = start(temp_db("days")).await;
    let anna = register(&s, "Anna").await;
    let bob = register(&s, "Bob").await;
    let r = call(
        &s,
        "POST",
        "/api/lobby/seeks",
        Some(&anna),
        None,
        json!({"days": 2, "color": "white"}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let seek = r.json()["id"].as_str().unwrap().to_string();
    let mut bobs = lobby_socket(s.addr, Some(&bob), json!([])).await;
    lobby_next(&mut bobs, "seeks", 5).await;
    let a = call(
        &s,
        "POST",
        &format!("/api/lobby/seeks/{seek}/accept"),
        Some(&bob),
        None,
        Value::Null,
    )
    .await;
    assert_eq!(a.status, 201, "{}", a.body);
    let a = a.json();
    assert_eq!(a["color"], "b");
    let game = a["game"].as_str().unwrap().to_string();
    let st = call(
        &s,
        "GET",
        &format!("/api/games/{game}"),
        None,
        None,
        Value::Null,
    )
    .await
    .json();
    assert_eq!(st["days"], 2);
    assert_eq!(st["speed"], "correspondence");
    assert_eq!(st["rated"], false);
    // Two days for the first move (not the server's minute).
    let two_days = 2 * 86_400_000i64;
    assert_eq!(st["clock"]["initial_ms"], two_days);
    let abort = st["abort_in_ms"].as_i64().unwrap();
    assert!(abort > two_days - 60_000 && abort <= two_days, "{st}");
    // Anna (White) is to move: her list says so, Bob's says it is not his.
    let mine = call(
        &s,
        "GET",
        "/api/account/playing",
        Some(&anna),
        None,
        Value::Null,
    )
    .await
    .json();
    assert_eq!(mine["games"][0]["id"], game.as_str());
    assert_eq!(mine["games"][0]["my_turn"], true);
    assert_eq!(mine["games"][0]["opponent"], "Bob");
    let his = call(
        &s,
        "GET",
        "/api/account/playing",
        Some(&bob),
        None,
        Value::Null,
    )
    .await
    .json();
    assert_eq!(his["games"][0]["my_turn"], false);
    // Anna moves: Bob's lobby hears it is his turn.
    let r = call(
        &s,
        "POST",
        &format!("/api/games/{game}/moves"),
        Some(&anna),
        None,
        json!({"move": "c3d4", "ply": 0}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let turn = lobby_next(&mut bobs, "turn", 5).await;
    assert_eq!(turn["game"], game.as_str());
    let his = call(
        &s,
        "GET",
        "/api/account/playing",
        Some(&bob),
        None,
        Value::Null,
    )
    .await
    .json();
    assert_eq!(his["games"][0]["my_turn"], true);
    let anon = call(&s, "GET", "/api/account/playing", None, None, Value::Null).await;
    assert_eq!(anon.status, 401);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quick_pairing_matches_two_visitors_in_a_wave() {
    let s = start(temp_db("pools")).await;
    let join = |key: &'static str| {
        let s = &s;
        async move {
            let r = call(
                s,
                "POST",
                &format!("/api/lobby/pools/{key}"),
                None,
                None,
                Value::Null,
            )
            .await;
            assert_eq!(r.status, 201, "{}", r.body);
            let v = r.json();
            (
                v["id"].as_str().unwrap().to_string(),
                v["token"].as_str().unwrap().to_string(),
            )
        }
    };
    assert_eq!(
        call(&s, "POST", "/api/lobby/pools/4+4", None, None, Value::Null)
            .await
            .status,
        404
    );
    let (a, ta) = join("5+3").await;
    let (b, tb) = join("5+3").await;
    let mut pa = lobby_socket(s.addr, None, json!([{"id": a, "token": ta}])).await;
    let mut pb = lobby_socket(s.addr, None, json!([{"id": b, "token": tb}])).await;
    let ma = lobby_next(&mut pa, "paired", 10).await;
    let mb = lobby_next(&mut pb, "paired", 10).await;
    assert_eq!(ma["game"], mb["game"]);
    assert_ne!(ma["color"], mb["color"]);
    // Each token holds its side.
    let game = ma["game"].as_str().unwrap();
    let st = call(
        &s,
        "GET",
        &format!("/api/games/{game}"),
        None,
        Some(&ta),
        Value::Null,
    )
    .await
    .json();
    assert_eq!(st["you"], ma["color"]);
    assert_eq!(st["rated"], false);
    assert_eq!(st["clock"]["initial_ms"], 300_000);
    // Places are not listed as seeks.
    let v = call(&s, "GET", "/api/lobby/seeks", None, None, Value::Null)
        .await
        .json();
    assert_eq!(v["seeks"], json!([]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_is_declined_or_accepted() {
    let s = start(temp_db("challenge")).await;
    let anna = register(&s, "Anna").await;
    let bob = register(&s, "Bob").await;
    let no = call(
        &s,
        "POST",
        "/api/challenges",
        None,
        None,
        json!({"to": "Bob"}),
    )
    .await;
    assert_eq!(no.status, 401);
    let nobody = call(
        &s,
        "POST",
        "/api/challenges",
        Some(&anna),
        None,
        json!({"to": "Zed"}),
    )
    .await;
    assert_eq!(nobody.status, 404);
    let me = call(
        &s,
        "POST",
        "/api/challenges",
        Some(&anna),
        None,
        json!({"to": "anna"}),
    )
    .await;
    assert_eq!(me.status, 400);
    let mut bobs = lobby_socket(s.addr, Some(&bob), json!([])).await;
    lobby_next(&mut bobs, "seeks", 5).await;
    let c = call(
        &s,
        "POST",
        "/api/challenges",
        Some(&anna),
        None,
        json!({"to": "bob", "clock": {"initial_s": 600, "increment_s": 5}, "color": "black"}),
    )
    .await;
    assert_eq!(c.status, 201, "{}", c.body);
    let id = c.json()["id"].as_str().unwrap().to_string();
    let heard = lobby_next(&mut bobs, "challenge", 5).await;
    assert_eq!(heard["challenge"]["from"], "Anna");
    assert_eq!(heard["challenge"]["class"], "rapid");
    let list = call(&s, "GET", "/api/challenges", Some(&bob), None, Value::Null)
        .await
        .json();
    assert_eq!(list["in"][0]["id"], id.as_str());
    // Anna cannot accept her own; Bob declines.
    let r = call(
        &s,
        "POST",
        &format!("/api/challenges/{id}/accept"),
        Some(&anna),
        None,
        Value::Null,
    )
    .await;
    assert_eq!(r.status, 403);
    let r = call(
        &s,
        "POST",
        &format!("/api/challenges/{id}/decline"),
        Some(&bob),
        None,
        Value::Null,
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = call(
        &s,
        "POST",
        &format!("/api/challenges/{id}/accept"),
        Some(&bob),
        None,
        Value::Null,
    )
    .await;
    assert_eq!(r.status, 404);
    // Again, accepted: Anna plays Black as she asked.
    let c = call(
        &s,
        "POST",
        "/api/challenges",
        Some(&anna),
        None,
        json!({"to": "Bob", "clock": {"initial_s": 600, "increment_s": 5}, "color": "black"}),
    )
    .await;
    let id = c.json()["id"].as_str().unwrap().to_string();
    let r = call(
        &s,
        "POST",
        &format!("/api/challenges/{id}/accept"),
        Some(&bob),
        None,
        Value::Null,
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let r = r.json();
    assert_eq!(r["color"], "w");
    let game = r["game"].as_str().unwrap();
    let st = call(
        &s,
        "GET",
        &format!("/api/games/{game}"),
        Some(&anna),
        None,
        Value::Null,
    )
    .await
    .json();
    assert_eq!(st["you"], "b");
    assert_eq!(st["players"]["w"]["name"], "Bob");
    assert_eq!(st["players"]["b"]["name"], "Anna");
}
