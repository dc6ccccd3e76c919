//! The HTTP and WebSocket API against a real server (docs/API.md).

use crate::common::*;
use serde_json::{Value, json};

async fn create(addr: std::net::SocketAddr, body: Value) -> (String, String, Value) {
    let r = post(addr, "/api/games", None, body).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let v = r.json();
    (
        v["id"].as_str().unwrap().to_string(),
        v["token"].as_str().unwrap().to_string(),
        v,
    )
}

async fn play(
    addr: std::net::SocketAddr,
    id: &str,
    token: Option<&str>,
    mv: &str,
    ply: usize,
) -> Reply {
    post(
        addr,
        &format!("/api/games/{id}/moves"),
        token,
        json!({"move": mv, "ply": ply}),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_engine_game_with_the_engine_answering_over_the_websocket() {
    let s = start(temp_db("engine")).await;
    let (id, token, created) = create(s.addr, json!({"mode": "engine", "level": 2})).await;
    assert_eq!(created["color"], "w");
    let state = &created["state"];
    assert_eq!(state["ply"], 0);
    assert_eq!(state["turn"], "w");
    assert_eq!(state["engine_color"], "b");
    assert_eq!(state["legal"].as_array().unwrap().len(), 26);
    assert_eq!(state["board"]["d8"]["piece"], "bK");
    let mut ws = connect(s.addr, &id, Some(&token)).await;
    let first = next(&mut ws, 5).await;
    assert_eq!(first["type"], "state");
    assert_eq!(first["state"]["you"], "w");
    // An illegal move is explained with its rule.
    let r = play(s.addr, &id, Some(&token), "c3c4", 0).await;
    assert_eq!(r.status, 400);
    assert_eq!(r.json()["rule"], "2.4");
    let r = play(s.addr, &id, Some(&token), "c3-d4", 0).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["ply"], 1);
    // The engine's reply arrives on the socket.
    let st = state_where(&mut ws, 20, |st| {
        st["ply"] == 2 && st["engine_thinking"] == false
    })
    .await;
    // An update carries the move it added, not the whole list.
    assert!(st.get("moves").is_none());
    let st = get(s.addr, &format!("/api/games/{id}"), Some(&token))
        .await
        .json();
    assert_eq!(st["moves"][0]["human"], "c3-d4");
    assert_eq!(st["moves"][0]["path"], json!(["c3", "d4"]));
    assert_eq!(st["turn"], "w");
    // A watcher without a token sees the game and cannot move.
    let watch = get(s.addr, &format!("/api/games/{id}"), None).await.json();
    assert_eq!(watch["you"], Value::Null);
    assert_eq!(watch["ply"], 2);
    let legal = watch["legal"][0]["canonical"].as_str().unwrap().to_string();
    let r = play(s.addr, &id, None, &legal, 2).await;
    assert_eq!(r.status, 403);
    // Undo takes back the engine's reply and our move.
    let r = post(
        s.addr,
        &format!("/api/games/{id}/undo"),
        Some(&token),
        json!({}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["ply"], 0);
    // The record downloads.
    let r = get(s.addr, &format!("/api/games/{id}/record"), None).await;
    assert_eq!(r.status, 200);
    assert!(
        r.headers
            .to_ascii_lowercase()
            .contains("content-disposition: attachment")
    );
    assert!(
        r.body.contains("[Black \"Legion engine level 2\"]"),
        "{}",
        r.body
    );
    // Its Site is the game's full address (issue 19.6): here the address
    // the request came to, as no public origin is set.
    let site = format!("[Site \"http://{}/g/{id}\"]", s.addr);
    assert!(r.body.contains(&site), "{site} in {}", r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_engine_moves_first_when_it_has_white() {
    let s = start(temp_db("engine-white")).await;
    let (id, token, created) = create(
        s.addr,
        json!({"mode": "engine", "color": "black", "level": 1}),
    )
    .await;
    assert_eq!(created["color"], "b");
    let mut ws = connect(s.addr, &id, Some(&token)).await;
    let first = next(&mut ws, 5).await;
    assert_eq!(first["type"], "state");
    assert_eq!(first["state"]["you"], "b");
    // The engine may have moved before the socket said hello.
    let st = if first["state"]["ply"] == 1 {
        first["state"].clone()
    } else {
        state_where(&mut ws, 20, |st| st["ply"] == 1).await
    };
    assert_eq!(st["turn"], "b");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_friend_game_seats_and_watchers() {
    let s = start(temp_db("friend")).await;
    let (id, white, created) = create(s.addr, json!({"mode": "friend"})).await;
    assert_eq!(created["state"]["status"], "waiting");
    let invite = created["invite"].as_str().unwrap().to_string();
    // Nobody moves before the friend has come.
    assert_eq!(play(s.addr, &id, Some(&white), "c3d4", 0).await.status, 409);
    let joined = post(
        s.addr,
        &format!("/api/games/{id}/join"),
        None,
        json!({"invite": invite}),
    )
    .await;
    assert_eq!(joined.status, 200, "{}", joined.body);
    let joined = joined.json();
    assert_eq!(joined["color"], "b");
    assert_eq!(joined["state"]["status"], "active");
    let black = joined["token"].as_str().unwrap().to_string();
    assert_ne!(white, black);
    assert_ne!(invite, black);
    let mut watcher = connect(s.addr, &id, None).await;
    assert_eq!(next(&mut watcher, 5).await["state"]["you"], Value::Null);
    // Black may not move White's men, nor move out of turn.
    let r = play(s.addr, &id, Some(&black), "c3d4", 0).await;
    assert_eq!(r.status, 409, "{}", r.body);
    let r = play(s.addr, &id, Some("not-a-seat"), "c3d4", 0).await;
    assert_eq!(r.status, 403);
    assert_eq!(play(s.addr, &id, Some(&white), "c3d4", 0).await.status, 200);
    // The watcher is told.
    let st = state_where(&mut watcher, 5, |st| st["ply"] == 1).await;
    assert_eq!(st["turn"], "b");
    // Moves over the socket, with ack; a stale one is refused.
    let mut bs = connect(s.addr, &id, Some(&black)).await;
    let _ = next(&mut bs, 5).await;
    send(&mut bs, json!({"type": "move", "move": "f6e5", "ply": 1})).await;
    let ack = next(&mut bs, 5).await;
    assert_eq!(ack, json!({"type": "ack", "ply": 1, "move": "f6e5"}));
    send(&mut bs, json!({"type": "move", "move": "b6a5", "ply": 1})).await;
    let mut reply = next(&mut bs, 5).await;
    while reply["type"] == "state" || reply["type"] == "update" {
        reply = next(&mut bs, 5).await;
    }
    assert_eq!(reply["type"], "error");
    assert_eq!(reply["status"], 409);
    send(&mut bs, json!({"type": "ping"})).await;
    let mut pong = next(&mut bs, 5).await;
    while pong["type"] == "state" || pong["type"] == "update" {
        pong = next(&mut bs, 5).await;
    }
    assert_eq!(pong, json!({"type": "pong"}));
    // White must now capture (4.2): the state says which piece.
    let st = get(s.addr, &format!("/api/games/{id}"), Some(&white))
        .await
        .json();
    assert_eq!(st["must_capture"], json!(["d4"]));
    assert_eq!(st["you"], "w");
    // Draw offer and decline, offer and accept.
    let draw = |tok: String, action: &'static str| {
        let addr = s.addr;
        let id = id.clone();
        async move {
            post(
                addr,
                &format!("/api/games/{id}/draw"),
                Some(&tok),
                json!({"action": action}),
            )
            .await
        }
    };
    assert_eq!(draw(white.clone(), "offer").await.json()["draw_offer"], "w");
    assert_eq!(draw(white.clone(), "accept").await.status, 409);
    assert_eq!(
        draw(black.clone(), "decline").await.json()["draw_offer"],
        Value::Null
    );
    draw(black.clone(), "offer").await;
    let st = draw(white.clone(), "accept").await.json();
    assert_eq!(st["result"], "1/2-1/2");
    assert_eq!(st["status"], "over");
    assert_eq!(play(s.addr, &id, Some(&white), "d4f6", 2).await.status, 409);
    // Undo is not for friend games.
    assert_eq!(
        post(
            s.addr,
            &format!("/api/games/{id}/undo"),
            Some(&white),
            json!({})
        )
        .await
        .status,
        409
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_local_game_and_a_safe_retry() {
    let s = start(temp_db("local")).await;
    let (id, token, created) =
        create(s.addr, json!({"mode": "local", "rules": "mate-ends-game"})).await;
    assert_eq!(created["state"]["you"], "both");
    assert_eq!(created["state"]["rules"], "mate-ends-game");
    let a = play(s.addr, &id, Some(&token), "c3d4", 0).await;
    assert_eq!(a.status, 200);
    // The same move again at the same ply: answered, not applied twice.
    let b = play(s.addr, &id, Some(&token), "c3d4", 0).await;
    assert_eq!(b.status, 200);
    assert_eq!(b.json()["ply"], 1);
    // Another move at that ply is stale; a ply from the future too.
    assert_eq!(play(s.addr, &id, Some(&token), "a3b4", 0).await.status, 409);
    assert_eq!(play(s.addr, &id, Some(&token), "f6e5", 5).await.status, 409);
    assert_eq!(play(s.addr, &id, Some(&token), "f6e5", 1).await.status, 200);
    // Resign: the side to move resigns on a shared device.
    let st = post(
        s.addr,
        &format!("/api/games/{id}/resign"),
        Some(&token),
        json!({}),
    )
    .await
    .json();
    assert_eq!(st["result"], "0-1");
    assert!(st["reason"].as_str().unwrap().contains("White resigned"));
    // The result is final: no undo, move, draw or second resignation.
    for (path, body) in [
        ("undo", json!({})),
        ("resign", json!({})),
        ("draw", json!({"action": "offer"})),
        ("abort", json!({})),
    ] {
        let r = post(
            s.addr,
            &format!("/api/games/{id}/{path}"),
            Some(&token),
            body,
        )
        .await;
        assert_eq!(r.status, 409, "{path}: {}", r.body);
        assert!(
            r.json()["error"].as_str().unwrap().contains("over"),
            "{}",
            r.body
        );
    }
    assert_eq!(play(s.addr, &id, Some(&token), "c1d2", 2).await.status, 409);
    let st = get(s.addr, &format!("/api/games/{id}"), None).await.json();
    assert_eq!(st["status"], "over");
    assert_eq!(st["result"], "0-1");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_requests_get_clear_errors() {
    let s = start(temp_db("bad")).await;
    let (id, token, _) = create(s.addr, json!({"mode": "local"})).await;
    let cases: Vec<(&str, &str, Option<&str>, u16, &str)> = vec![
        ("POST", "/api/games", Some("{not json"), 400, "bad JSON"),
        ("POST", "/api/games", Some("{}"), 400, "mode"),
        (
            "POST",
            "/api/games",
            Some(r#"{"mode":"engine","level":11}"#),
            400,
            "level",
        ),
        (
            "POST",
            "/api/games",
            Some(r#"{"mode":"engine","level":"x"}"#),
            400,
            "bad JSON",
        ),
        (
            "POST",
            "/api/games",
            Some(r#"{"mode":"local","color":"green"}"#),
            400,
            "color",
        ),
        (
            "POST",
            "/api/games",
            Some(r#"{"mode":"local","rules":"fast"}"#),
            400,
            "rules",
        ),
        (
            "POST",
            "/api/games",
            Some(r#"{"mode":"local","start":"8/8 w"}"#),
            400,
            "6.2",
        ),
        (
            "POST",
            "/api/games",
            Some(r#"{"mode":"local","clock":{"initial_s":-5}}"#),
            400,
            "clock",
        ),
        (
            "POST",
            "/api/games",
            Some(r#"{"mode":"local","start":"k7/8/1Q6/8/8/8/8/7K b - 0 1"}"#),
            400,
            "5.2",
        ),
        ("GET", "/api/games/nope", None, 404, "no game"),
        ("GET", "/api/games/..%2F..%2Fetc", None, 404, ""),
        (
            "POST",
            "/api/position",
            Some(r#"{"lfen":"3k4/8/8/8/8/8/8/1M2K3 w - 0 1"}"#),
            400,
            "1.4",
        ),
        (
            "POST",
            "/api/position",
            Some(r#"{"rules":"default"}"#),
            400,
            "lfen",
        ),
        (
            "POST",
            "/api/explain",
            Some(r#"{"lfen":"3k4/8/8/8/8/8/8/4K3 w - 0 1","squares":["z9"]}"#),
            400,
            "6.1",
        ),
        (
            "POST",
            "/api/analyse",
            Some(r#"{"lfen":"3k4/8/8/8/8/8/8/4K3 w - 0 1","moves":["e1e3"]}"#),
            400,
            "move 1",
        ),
        (
            "POST",
            "/api/records/parse",
            Some(r#"{"text":"1. c3-c4 *"}"#),
            400,
            "6.5",
        ),
        ("GET", "/api/nothing", None, 404, "nothing"),
        (
            "POST",
            "/api/games/nope/moves",
            Some(r#"{"move":"c3d4","ply":0}"#),
            404,
            "no game",
        ),
    ];
    for (method, path, body, status, needle) in cases {
        let r = request(s.addr, method, path, None, body).await;
        assert_eq!(r.status, status, "{method} {path}: {}", r.body);
        let v = r.json();
        assert!(
            v["error"].as_str().unwrap().contains(needle),
            "{path}: {}",
            r.body
        );
    }
    // Wrong field types and missing fields in a move.
    for body in [
        r#"{"move":"c3d4"}"#,
        r#"{"move":5,"ply":0}"#,
        r#"{"move":"c3d4","ply":-1}"#,
        "[]",
        "",
    ] {
        let r = request(
            s.addr,
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(&token),
            Some(body),
        )
        .await;
        assert_eq!(r.status, 400, "{body}: {}", r.body);
    }
    // An oversized body.
    let big = vec![b'x'; 70 * 1024];
    let r = raw(s.addr, "POST", "/api/position", None, Some(&big)).await;
    assert_eq!(r.status, 413);
    assert!(r.json()["error"].is_string());
    // The server still works.
    assert_eq!(
        get(s.addr, &format!("/api/games/{id}"), None).await.status,
        200
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn study_endpoints() {
    let s = start(temp_db("study")).await;
    let r = post(
        s.addr,
        "/api/position",
        None,
        json!({"lfen": "3k4/8/8/2[Qm]5/8/8/8/4K3 w - 0 1"}),
    )
    .await;
    let v = r.json();
    assert_eq!(v["board"]["c5"], json!({"piece": "wQ", "prisoner": "bM"}));
    assert_eq!(v["phase"], 1);
    // A mated side loses its King on reading (5.1): phase 2 and no move.
    let v = post(
        s.addr,
        "/api/position",
        None,
        json!({"lfen": "3k3R/7R/8/8/8/8/8/4K3 b - 0 1"}),
    )
    .await
    .json();
    assert_eq!(v["kings"]["b"], false);
    assert_eq!(v["phase"], 2);
    assert!(v["outcome"]["reason"].as_str().unwrap().contains("5.2"));
    let v = post(
        s.addr,
        "/api/explain",
        None,
        json!({"lfen": legion_rules::INITIAL_LFEN, "squares": ["c3", "c4"]}),
    )
    .await
    .json();
    assert_eq!(v["legal"], false);
    assert_eq!(v["rule"], "2.4");
    let v = post(
        s.addr,
        "/api/explain",
        None,
        json!({"lfen": legion_rules::INITIAL_LFEN, "squares": ["g1", "f3"]}),
    )
    .await
    .json();
    assert_eq!(v["legal"], true);
    assert_eq!(v["move"]["human"], "Nf3");
    let v = post(
        s.addr,
        "/api/analyse",
        None,
        json!({"lfen": legion_rules::INITIAL_LFEN, "moves": ["c3d4", "f6e5"], "movetime_ms": 100}),
    )
    .await
    .json();
    assert_eq!(v["best"]["canonical"], "d4f6");
    assert!(v["score"].as_str().unwrap().starts_with("cp "));
    // Three lines (MultiPV), each with its own first move, best first.
    let v = post(
        s.addr,
        "/api/analyse",
        None,
        json!({"lfen": legion_rules::INITIAL_LFEN, "movetime_ms": 300, "lines": 3}),
    )
    .await
    .json();
    let lines = v["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 3, "{v}");
    let firsts: std::collections::BTreeSet<&str> = lines
        .iter()
        .map(|l| l["best"]["canonical"].as_str().unwrap())
        .collect();
    assert_eq!(firsts.len(), 3);
    assert_eq!(v["best"], lines[0]["best"]);
    // A won position (two Queens against a man): every line searched
    // (depth 1 or more), best first by its score, the answer's own score
    // and depth line 1's; a search out of time at once is a 503, not a
    // line "cp 0, depth 0" of a move never searched.
    for ms in [300, 10] {
        let r = post(
            s.addr,
            "/api/analyse",
            None,
            json!({"lfen": "7k/6m1/8/8/8/8/1QQ5/4K3 w - 0 1", "movetime_ms": ms, "lines": 3}),
        )
        .await;
        if r.status == 503 {
            assert_eq!(r.json()["code"], "server.analysis_cut");
            assert_eq!(ms, 10, "{}", r.body);
            continue;
        }
        assert_eq!(r.status, 200, "{}", r.body);
        let v = r.json();
        let lines = v["lines"].as_array().unwrap();
        assert!(!lines.is_empty(), "{v}");
        for l in lines {
            assert!(l["depth"].as_i64().unwrap() >= 1, "{v}");
        }
        let order = |l: &Value| {
            let text = l["score"].as_str().unwrap();
            let (kind, n) = text.split_once(' ').unwrap();
            let n: i64 = n.parse().unwrap();
            // A nearer win is better, a later loss less bad.
            match kind {
                "win" => (2, -n),
                "cp" => (1, n),
                "loss" => (0, n),
                _ => panic!("{text}"),
            }
        };
        assert!(
            lines.windows(2).all(|w| order(&w[0]) >= order(&w[1])),
            "{v}"
        );
        assert_eq!(
            (&v["score"], &v["depth"]),
            (&lines[0]["score"], &lines[0]["depth"])
        );
        if ms == 300 {
            assert_eq!(lines.len(), 3, "{v}");
            assert!(
                lines[0]["score"].as_str().unwrap().starts_with("win "),
                "{v}"
            );
        }
    }
    let r = post(
        s.addr,
        "/api/analyse",
        None,
        json!({"lfen": legion_rules::INITIAL_LFEN, "lines": 4}),
    )
    .await;
    assert_eq!(r.status, 400);
    let v = post(
        s.addr,
        "/api/records/parse",
        None,
        json!({"text": "[White \"A\"]\n\n1. c3-d4 f6-e5 2. d4:f6 *"}),
    )
    .await
    .json();
    assert_eq!(v["moves"].as_array().unwrap().len(), 3);
    assert_eq!(v["tags"]["White"], "A");
    let r = get(s.addr, "/api/rules.html", None).await;
    assert!(
        r.body.contains("Capture"),
        "{}",
        &r.body[..200.min(r.body.len())]
    );
    // Pages answer with the app.
    for page in [
        "/",
        "/g/abc",
        "/analysis",
        "/rules",
        "/learn",
        "/learn/step",
    ] {
        let r = get(s.addr, page, None).await;
        assert_eq!(r.status, 200, "{page}");
        assert!(r.headers.contains("text/html"));
    }
    // The practice lessons are data the page fetches (docs/API.md).
    let r = get(s.addr, "/static/lessons.json", None).await;
    assert_eq!(r.status, 200);
    assert!(r.headers.contains("application/json"));
    assert!(!r.json()["lessons"].as_array().unwrap().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clocks_run_out() {
    let s = start(temp_db("clock")).await;
    let (id, token, created) = create(
        s.addr,
        json!({"mode": "local", "clock": {"initial_s": 1, "increment_s": 0}}),
    )
    .await;
    // No clock runs before each side has moved.
    assert_eq!(created["state"]["clock"]["running"], Value::Null);
    assert_eq!(play(s.addr, &id, Some(&token), "c3d4", 0).await.status, 200);
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    let st = play(s.addr, &id, Some(&token), "f6e5", 1).await.json();
    assert_eq!(st["status"], "active", "{st}");
    assert_eq!(st["clock"]["running"], "w");
    // White's clock runs now; nobody asks, the server decides the flag.
    let mut ws = connect(s.addr, &id, None).await;
    let st = state_where(&mut ws, 5, |st| st["status"] == "over").await;
    assert_eq!(st["result"], "0-1", "{st}");
    assert!(st["reason"].as_str().unwrap().contains("on time"));
    assert_eq!(st["clock"]["w_ms"], 0);
    assert_eq!(play(s.addr, &id, Some(&token), "d4f6", 2).await.status, 409);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_survive_a_restart() {
    let (_dir, db) = temp_db("restart");
    let (id, token) = {
        let s = start_config(config(db.clone())).await;
        let (id, token, _) = create(s.addr, json!({"mode": "local"})).await;
        for (i, m) in ["c3d4", "f6e5", "d4f6", "e7g5"].iter().enumerate() {
            assert_eq!(play(s.addr, &id, Some(&token), m, i).await.status, 200);
        }
        (id, token)
    };
    let s = start_config(config(db)).await;
    let st = get(s.addr, &format!("/api/games/{id}"), Some(&token))
        .await
        .json();
    assert_eq!(st["ply"], 4);
    assert_eq!(st["you"], "both");
    let moves: Vec<&str> = st["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["canonical"].as_str().unwrap())
        .collect();
    assert_eq!(moves, vec!["c3d4", "f6e5", "d4f6", "e7g5"]);
}
