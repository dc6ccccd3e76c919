//! Studies over HTTP (docs/API.md, "Studies"), on SQLite and, under the
//! test script, on PostgreSQL: made by an anonymous visitor (an edit key)
//! or by an account, read by anyone with the link, saved and deleted by
//! their owner only, saves naming a stale version refused, every move
//! replayed by the rules (an illegal one refused with its rule), and
//! every size bounded.

use crate::common::*;
use serde_json::{Value, json};

/// RULES Part VII: the start position.
const START: &str = "rnbkqbnr/m1m1m1m1/1m1m1m1m/8/8/M1M1M1M1/1M1M1M1M/RNBQKBNR w KQkq 0 1";

/// A request with an optional session cookie and edit key.
async fn ask(
    s: &TestServer,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    key: Option<&str>,
    body: Value,
) -> Reply {
    call(s, method, path, cookie, key, body).await
}

/// A study of one chapter from the start with these nodes.
fn study(title: &str, nodes: Value) -> Value {
    json!({
        "title": title,
        "chapters": [{"name": "Main", "start": START, "orientation": "white", "nodes": nodes}],
    })
}

/// The opening of the tests: c3d4 (a Legion move, Part VII lists it),
/// Black's f6e5, and White's Knight g1f3 as a variation of the first move.
fn opening() -> Value {
    json!([
        {"comment": "The start"},
        {"parent": 0, "move": "c3-d4", "comment": "Into the centre",
         "shapes": [{"from": "c3", "to": "d4", "color": "green"}, {"from": "d4", "color": "red"}]},
        {"parent": 1, "move": "f6e5"},
        {"parent": 0, "move": "g1f3"},
    ])
}

fn code(r: &Reply) -> String {
    r.json()["code"].as_str().unwrap_or_default().to_string()
}

#[tokio::test]
async fn an_anonymous_study_is_read_by_anyone_and_changed_with_its_key() {
    let s = start(temp_db("studies_anonymous")).await;
    let r = ask(
        &s,
        "POST",
        "/api/studies",
        None,
        None,
        study(" First ", opening()),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let made = r.json();
    let id = made["id"].as_str().unwrap().to_string();
    let key = made["edit_key"].as_str().unwrap().to_string();
    assert_eq!(made["version"], 1);
    assert_eq!(made["can_edit"], true);
    assert_eq!(made["owner"], Value::Null);
    assert_eq!(made["title"], "First");

    // Anyone with the link reads it, moves written canonically (6.3).
    let path = format!("/api/studies/{id}");
    let r = ask(&s, "GET", &path, None, None, json!(null)).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let read = r.json();
    assert_eq!(read["can_edit"], false);
    let nodes = &read["chapters"][0]["nodes"];
    assert_eq!(nodes[1]["move"], "c3d4");
    assert_eq!(nodes[1]["comment"], "Into the centre");
    assert_eq!(
        nodes[1]["shapes"][0],
        json!({"from": "c3", "to": "d4", "color": "green"})
    );
    assert_eq!(nodes[1]["shapes"][1], json!({"from": "d4", "color": "red"}));
    assert_eq!(nodes[3]["parent"], 0);
    assert_eq!(read["chapters"][0]["rules"], "default");
    let r = ask(&s, "GET", &path, None, Some(&key), json!(null)).await;
    assert_eq!(r.json()["can_edit"], true);

    // The owner saves; a save from the old version is refused (409) with
    // the version to name.
    let mut save = study("First, edited", opening());
    save["version"] = json!(1);
    let r = ask(&s, "PUT", &path, None, Some(&key), save.clone()).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["version"], 2);
    let r = ask(&s, "PUT", &path, None, Some(&key), save.clone()).await;
    assert_eq!(r.status, 409, "{}", r.body);
    assert_eq!(code(&r), "server.study_stale");
    assert_eq!(r.json()["version"], 2);
    assert_eq!(
        ask(&s, "GET", &path, None, None, json!(null)).await.json()["title"],
        "First, edited"
    );

    // Without the key, or with another, nobody else changes or deletes it.
    save["version"] = json!(2);
    let other = "x".repeat(24);
    for key in [None, Some(other.as_str())] {
        let r = ask(&s, "PUT", &path, None, key, save.clone()).await;
        assert_eq!(r.status, 403, "{}", r.body);
        assert_eq!(code(&r), "server.study_not_owner");
        let r = ask(&s, "DELETE", &path, None, key, json!(null)).await;
        assert_eq!(r.status, 403, "{}", r.body);
    }

    let r = ask(&s, "DELETE", &path, None, Some(&key), json!(null)).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = ask(&s, "GET", &path, None, None, json!(null)).await;
    assert_eq!(r.status, 404, "{}", r.body);
    assert_eq!(code(&r), "server.study_not_found");
    for unknown in ["/api/studies/nope0000", "/api/studies/no%21pe"] {
        assert_eq!(
            ask(&s, "GET", unknown, None, None, json!(null))
                .await
                .status,
            404
        );
    }
}

#[tokio::test]
async fn an_account_owns_its_studies_and_lists_them() {
    let s = start(temp_db("studies_accounts")).await;
    let alice = register(&s, "alice").await;
    let bob = register(&s, "bob").await;
    let r = ask(
        &s,
        "POST",
        "/api/studies",
        Some(&alice),
        None,
        study("Alice's", opening()),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let made = r.json();
    // An account needs no key: its session is its right to edit.
    assert_eq!(made["edit_key"], Value::Null);
    assert_eq!(made["owner"], "alice");
    let id = made["id"].as_str().unwrap().to_string();
    let path = format!("/api/studies/{id}");

    let list = ask(
        &s,
        "GET",
        "/api/account/studies",
        Some(&alice),
        None,
        json!(null),
    )
    .await;
    assert_eq!(list.status, 200, "{}", list.body);
    assert_eq!(list.json()["studies"][0]["id"], id.as_str());
    assert_eq!(list.json()["studies"][0]["title"], "Alice's");
    let list = ask(
        &s,
        "GET",
        "/api/account/studies",
        Some(&bob),
        None,
        json!(null),
    )
    .await;
    assert_eq!(list.json()["studies"], json!([]));
    let r = ask(&s, "GET", "/api/account/studies", None, None, json!(null)).await;
    assert_eq!(r.status, 401, "{}", r.body);

    assert_eq!(
        ask(&s, "GET", &path, Some(&bob), None, json!(null))
            .await
            .json()["can_edit"],
        false
    );
    let mut save = study("Alice's, more", opening());
    save["version"] = json!(1);
    let r = ask(&s, "PUT", &path, Some(&bob), None, save.clone()).await;
    assert_eq!(r.status, 403, "{}", r.body);
    let r = ask(&s, "PUT", &path, Some(&alice), None, save).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = ask(&s, "DELETE", &path, Some(&bob), None, json!(null)).await;
    assert_eq!(r.status, 403, "{}", r.body);
    let r = ask(&s, "DELETE", &path, Some(&alice), None, json!(null)).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let list = ask(
        &s,
        "GET",
        "/api/account/studies",
        Some(&alice),
        None,
        json!(null),
    )
    .await;
    assert_eq!(list.json()["studies"], json!([]));
}

#[tokio::test]
async fn illegal_moves_are_refused_with_their_rule() {
    let s = start(temp_db("studies_rules")).await;
    // 2.1: after c3d4 Black's Rook on a8 cannot slide to a5 past Black's
    // own man on a7 (the start's seventh rank is m1m1m1m1).
    let r = ask(
        &s,
        "POST",
        "/api/studies",
        None,
        None,
        study(
            "Bad",
            json!([{}, {"parent": 0, "move": "c3d4"}, {"parent": 1, "move": "a8a5"}]),
        ),
    )
    .await;
    assert_eq!(r.status, 422, "{}", r.body);
    let body = r.json();
    assert_eq!(body["rule"], "2.1");
    assert_eq!(body["code"], "illegal.path_blocked");
    let error = body["error"].as_str().unwrap();
    assert!(
        error.starts_with("chapter 1, position 3: 'a8a5'"),
        "{error}"
    );
    assert!(error.contains("a7"), "{error}");

    // 6.3: a move names squares.
    let r = ask(
        &s,
        "POST",
        "/api/studies",
        None,
        None,
        study("Bad", json!([{}, {"parent": 0, "move": "Nf3"}])),
    )
    .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(r.json()["rule"], "6.3");

    // 5.3: two bare Kings are a dead position, a draw; nothing is played
    // after it (LFEN 6.2 has no en-passant field).
    let mut lone = study("Kings", json!([{}, {"parent": 0, "move": "e1e2"}]));
    lone["chapters"][0]["start"] = json!("3k4/8/8/8/8/8/8/4K3 w - 0 1");
    let r = ask(&s, "POST", "/api/studies", None, None, lone).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(r.json()["rule"], "5.3");
    assert_eq!(code(&r), "server.study_after_end");

    // 6.2: a start that is no position.
    let mut bad = study("Start", json!([{}]));
    bad["chapters"][0]["start"] = json!("8/8 w");
    let r = ask(&s, "POST", "/api/studies", None, None, bad).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(r.json()["rule"], "6.2");

    // A parent after its child, and a save whose moves break the rules,
    // are refused too; the stored study stays as it was.
    let r = ask(
        &s,
        "POST",
        "/api/studies",
        None,
        None,
        study(
            "Tree",
            json!([{}, {"parent": 2, "move": "c3d4"}, {"parent": 0, "move": "e3d4"}]),
        ),
    )
    .await;
    assert_eq!(code(&r), "server.study_bad_tree");
    let made = ask(
        &s,
        "POST",
        "/api/studies",
        None,
        None,
        study("Good", opening()),
    )
    .await
    .json();
    let path = format!("/api/studies/{}", made["id"].as_str().unwrap());
    let key = made["edit_key"].as_str().unwrap();
    let mut save = study("Good", json!([{}, {"parent": 0, "move": "a1a4"}]));
    save["version"] = json!(1);
    let r = ask(&s, "PUT", &path, None, Some(key), save).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(r.json()["rule"], "2.1");
    let read = ask(&s, "GET", &path, None, None, json!(null)).await.json();
    assert_eq!(read["version"], 1);
    assert_eq!(read["chapters"][0]["nodes"][1]["move"], "c3d4");
}

#[tokio::test]
async fn errors_are_in_the_readers_language() {
    let s = start(temp_db("studies_russian")).await;
    let body = study("Плохо", json!([{}, {"parent": 0, "move": "a1a4"}])).to_string();
    let headers = format!(
        "Host: {}\r\nContent-Type: application/json\r\nAccept-Language: ru\r\n",
        s.addr
    );
    let r = exchange(
        s.addr,
        None,
        "POST",
        "/api/studies",
        &headers,
        body.as_bytes(),
    )
    .await;
    assert_eq!(r.status, 422, "{}", r.body);
    let error = r.json()["error"].as_str().unwrap().to_string();
    assert!(
        error.starts_with("глава 1, позиция 2: «a1a4»: 2.1"),
        "{error}"
    );
}

#[tokio::test]
async fn every_size_is_bounded() {
    let s = start(temp_db("studies_bounds")).await;
    let post = |body: Value| {
        let s = &s;
        async move { ask(s, "POST", "/api/studies", None, None, body).await }
    };
    let r = post(study(&"t".repeat(101), json!([{}]))).await;
    assert_eq!(
        (r.status, code(&r)),
        (413, "server.study_title_too_long".into())
    );
    let r = post(study("  ", json!([{}]))).await;
    assert_eq!((r.status, code(&r)), (422, "server.study_no_title".into()));

    let chapter = json!({"name": "C", "start": START, "nodes": [{}]});
    let r = post(json!({"title": "Many", "chapters": vec![chapter.clone(); 65]})).await;
    assert_eq!(
        (r.status, code(&r)),
        (413, "server.study_too_many_chapters".into())
    );
    assert_eq!(
        post(json!({"title": "64", "chapters": vec![chapter; 64]}))
            .await
            .status,
        201
    );
    let r = post(json!({"title": "None", "chapters": []})).await;
    assert_eq!(
        (r.status, code(&r)),
        (422, "server.study_no_chapters".into())
    );

    let r = post(study("Long", json!([{"comment": "c".repeat(2001)}]))).await;
    assert_eq!(
        (r.status, code(&r)),
        (413, "server.study_comment_too_long".into())
    );
    assert_eq!(
        post(study("Just", json!([{"comment": "ж".repeat(2000)}])))
            .await
            .status,
        201
    );

    let r = post(study("Nodes", Value::Array(vec![json!({}); 1001]))).await;
    assert_eq!(
        (r.status, code(&r)),
        (413, "server.study_too_many_nodes".into())
    );

    let shapes: Vec<Value> = (0..65)
        .map(|_| json!({"from": "a1", "to": "h8", "color": "green"}))
        .collect();
    let r = post(study("Shapes", json!([{"shapes": shapes}]))).await;
    assert_eq!(
        (r.status, code(&r)),
        (413, "server.study_too_many_shapes".into())
    );
    let r = post(study(
        "Colour",
        json!([{"shapes": [{"from": "a1", "color": "pink"}]}]),
    ))
    .await;
    assert_eq!((r.status, code(&r)), (422, "server.study_bad_color".into()));
    let r = post(study(
        "Square",
        json!([{"shapes": [{"from": "i9", "color": "red"}]}]),
    ))
    .await;
    assert_eq!(
        (r.status, code(&r)),
        (422, "server.study_bad_square".into())
    );

    // The body itself: at most 512 KiB.
    let r = post(study("Big", json!([{"comment": "c".repeat(600 * 1024)}]))).await;
    assert_eq!((r.status, code(&r)), (413, "server.study_too_big".into()));
    // A field the API does not know is no study.
    let r = post(json!({"title": "X", "chapters": [], "extra": 1})).await;
    assert_eq!(r.status, 400, "{}", r.body);
}

#[tokio::test]
async fn new_studies_per_hour_are_bounded() {
    let (_dir, db) = temp_db("studies_rate");
    let mut c = config(db);
    c.limits.studies_per_hour = 2;
    let s = start_config(c).await;
    for _ in 0..2 {
        let r = ask(
            &s,
            "POST",
            "/api/studies",
            None,
            None,
            study("One", json!([{}])),
        )
        .await;
        assert_eq!(r.status, 201, "{}", r.body);
    }
    let r = ask(
        &s,
        "POST",
        "/api/studies",
        None,
        None,
        study("Three", json!([{}])),
    )
    .await;
    assert_eq!(r.status, 429, "{}", r.body);
    assert!(
        r.headers.to_ascii_lowercase().contains("retry-after"),
        "{}",
        r.headers
    );
}
