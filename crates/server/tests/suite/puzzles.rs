//! Puzzles over HTTP (issue 21, docs/API.md "Puzzles"), on SQLite and,
//! under the test script, on PostgreSQL: a puzzle read back as seeded,
//! the Glicko-2 change of a player and a puzzle on a first attempt (by
//! hand: the same numbers as two new players' first rated game), nothing
//! on a second, a visitor's score computed but no puzzle changed, the
//! puzzles a player tried left out of the next ones, and the refusals.

use crate::common::*;
use legion_server::store::{PuzzleRow, Store, StoreError};
use serde_json::{Value, json};

fn row(id: &str, themes: &str, rating: f64) -> PuzzleRow {
    PuzzleRow {
        id: id.into(),
        // Black to move: the solver is White (docs/PUZZLES.md's skewer).
        lfen: "7q/8/8/3k4/8/8/6K1/R7 b - 0 1".into(),
        moves: "h8d8 a1d1 d5e6 d1d8".into(),
        themes: format!(" {themes} "),
        source: "test".into(),
        rating,
        rd: 350.0,
        volatility: 0.06,
        plays: 0,
        wins: 0,
    }
}

/// The store of a test's database, opened while no server holds it (a
/// server dropped a moment ago frees its SQLite lock soon after).
async fn open_store(db: &std::path::Path) -> Store {
    let c = on_backend(config(db.to_path_buf())).await;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        match Store::open(&c.database()).await {
            Ok(s) => return s,
            Err(StoreError::InUse(_)) if std::time::Instant::now() < deadline => {
                tokio::time::sleep(std::time::Duration::from_millis(20)).await
            }
            Err(e) => panic!("{e}"),
        }
    }
}

/// A server whose database holds three test puzzles besides the
/// committed ones.
async fn seeded() -> TestServer {
    let (dir, db) = temp_db("puzzles");
    let store = open_store(&db).await;
    let added = store
        .seed_puzzles(
            "test-set",
            vec![
                row("tsta001", "crushing short", 1500.0),
                row("tsta002", "capture short", 1500.0),
                row("tsta003", "series long", 3900.0),
            ],
            0,
        )
        .await
        .unwrap();
    assert_eq!(added, 3);
    // The same set again adds nothing.
    let again = store
        .seed_puzzles("test-set", vec![row("tsta009", "short", 1.0)], 0)
        .await;
    assert_eq!(again.unwrap(), 0);
    drop(store);
    start((dir, db)).await
}

fn close(v: &Value, want: f64) -> bool {
    v.as_f64().is_some_and(|x| (x - want).abs() < 0.01)
}

#[tokio::test]
async fn a_puzzle_reads_back_with_its_solver() {
    let s = seeded().await;
    let r = call(&s, "GET", "/api/puzzles/tsta001", None, None, Value::Null).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let p = r.json();
    assert_eq!(p["lfen"], "7q/8/8/3k4/8/8/6K1/R7 b - 0 1");
    assert_eq!(p["moves"], json!(["h8d8", "a1d1", "d5e6", "d1d8"]));
    assert_eq!(p["themes"], json!(["crushing", "short"]));
    assert_eq!(p["solver"], "white");
    assert_eq!(p["rating"], 1500);
    // The nearest to 4000, of its theme: the only series puzzle so rated.
    let r = call(
        &s,
        "GET",
        "/api/puzzles/next?theme=series&rating=4000",
        None,
        None,
        Value::Null,
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(
        r.json()["themes"]
            .as_array()
            .unwrap()
            .contains(&json!("series"))
    );
    // The day's puzzle is one puzzle for everybody.
    let a = call(&s, "GET", "/api/puzzles/daily", None, None, Value::Null)
        .await
        .json();
    let b = call(&s, "GET", "/api/puzzles/daily", None, None, Value::Null)
        .await
        .json();
    assert_eq!(a["id"], b["id"]);
    let themes = call(&s, "GET", "/api/puzzles/themes", None, None, Value::Null)
        .await
        .json();
    let capture = themes
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["key"] == "capture")
        .unwrap();
    assert_eq!(capture["rule"], "4.1");
    assert!(capture["count"].as_u64().unwrap() >= 1);
}

#[tokio::test]
async fn a_first_attempt_rates_player_and_puzzle_once() {
    let mut s = seeded().await;
    let cookie = register(&s, "solver").await;
    let path = "/api/puzzles/tsta001/attempt";
    let r = call(&s, "POST", path, Some(&cookie), None, json!({"win": true})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    // Two new ratings (1500, RD 350, σ 0.06), τ 0.75, one period each: the
    // winner 1662.31 (RD 290.32), the loser 1337.69 (lobby.rs).
    assert_eq!(v["rated"], true);
    assert!(close(&v["player"]["rating"], 1662.31), "{v}");
    assert!(close(&v["player"]["rd"], 290.32), "{v}");
    assert_eq!(v["diff"], 162);
    assert_eq!(v["puzzle"]["rating"], 1338);
    assert_eq!(v["puzzle"]["plays"], 1);
    // Again: nothing changes.
    let v = call(&s, "POST", path, Some(&cookie), None, json!({"win": false}))
        .await
        .json();
    assert_eq!(v["rated"], false);
    assert_eq!(v["diff"], 0);
    assert!(close(&v["player"]["rating"], 1662.31), "{v}");
    assert_eq!(v["puzzle"]["rating"], 1338);
    let me = call(
        &s,
        "GET",
        "/api/account/puzzles",
        Some(&cookie),
        None,
        Value::Null,
    )
    .await
    .json();
    assert_eq!(
        (me["plays"].as_i64(), me["wins"].as_i64()),
        (Some(1), Some(1))
    );
    // The tried puzzle is never offered again to this player.
    let db = s.db.clone();
    let dir = s._dir.take();
    drop(s);
    let store = open_store(&db).await;
    let account = store.account_by_name("solver").await.unwrap().unwrap();
    let near = |who| store.puzzles_near(1338, Some("crushing"), who, 1000);
    let theirs = near(Some(account.id)).await.unwrap();
    let anyone = near(None).await.unwrap();
    assert!(anyone.iter().any(|p| p.id == "tsta001"));
    assert!(!theirs.iter().any(|p| p.id == "tsta001"));
    drop(store);
    drop(dir);
}

#[tokio::test]
async fn a_visitor_keeps_a_score_and_changes_no_puzzle() {
    let s = seeded().await;
    let mine = json!({"rating": 1500.0, "rd": 350.0, "volatility": 0.06});
    let r = call(
        &s,
        "POST",
        "/api/puzzles/tsta002/attempt",
        None,
        None,
        json!({"win": false, "rating": mine}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    assert_eq!(v["rated"], false);
    assert!(close(&v["player"]["rating"], 1337.69), "{v}");
    assert_eq!(v["diff"], -162);
    let p = call(&s, "GET", "/api/puzzles/tsta002", None, None, Value::Null)
        .await
        .json();
    assert_eq!(
        (p["rating"].as_i64(), p["plays"].as_i64()),
        (Some(1500), Some(0))
    );
}

#[tokio::test]
async fn refusals_say_what_is_wrong() {
    let s = seeded().await;
    let code = |r: &Reply| r.json()["code"].as_str().unwrap_or_default().to_string();
    let r = call(&s, "GET", "/api/puzzles/nothere", None, None, Value::Null).await;
    assert_eq!((r.status, code(&r).as_str()), (404, "server.no_puzzle"));
    let r = call(
        &s,
        "GET",
        "/api/puzzles/next?theme=fork",
        None,
        None,
        Value::Null,
    )
    .await;
    assert_eq!((r.status, code(&r).as_str()), (400, "server.no_theme"));
    let r = call(
        &s,
        "GET",
        "/api/puzzles/next?rating=99999",
        None,
        None,
        Value::Null,
    )
    .await;
    assert_eq!(
        (r.status, code(&r).as_str()),
        (400, "server.bad_puzzle_rating")
    );
    let bad = json!({"win": true, "rating": {"rating": 1500.0, "rd": 5.0, "volatility": 0.06}});
    let r = call(&s, "POST", "/api/puzzles/tsta001/attempt", None, None, bad).await;
    assert_eq!(
        (r.status, code(&r).as_str()),
        (400, "server.bad_puzzle_rating")
    );
    let r = call(
        &s,
        "POST",
        "/api/puzzles/nothere/attempt",
        None,
        None,
        json!({"win": true}),
    )
    .await;
    assert_eq!(r.status, 404);
    let r = call(
        &s,
        "POST",
        "/api/puzzles/tsta001/attempt",
        None,
        None,
        json!({"won": true}),
    )
    .await;
    assert_eq!(r.status, 400, "{}", r.body);
    let r = call(&s, "GET", "/api/account/puzzles", None, None, Value::Null).await;
    assert_eq!(r.status, 401);
}
