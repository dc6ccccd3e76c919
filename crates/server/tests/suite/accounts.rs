//! Accounts and sessions over HTTP (issue 20, docs/API.md "Accounts"), on
//! SQLite and, under the test script, on PostgreSQL: registration rules,
//! sign-in and sign-out, sessions renewed on sign-in and ended by a
//! password change, one answer for an unknown name and a wrong password,
//! the per-account rate limit, deletion, and only hashes in the database.

use crate::common::*;
use serde_json::{Value, json};

/// A request with a session cookie (if any); the reply.
async fn call(
    s: &TestServer,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    body: Value,
) -> Reply {
    let cookie = cookie
        .map(|c| format!("Cookie: legion_session={c}\r\n"))
        .unwrap_or_default();
    let headers = format!(
        "Host: {}\r\nContent-Type: application/json\r\n{cookie}",
        s.addr
    );
    let body = if method == "GET" {
        String::new()
    } else {
        body.to_string()
    };
    exchange(s.addr, None, method, path, &headers, body.as_bytes()).await
}

/// The session of a reply's `Set-Cookie`, with the cookie's attributes.
fn set_cookie(r: &Reply) -> (String, String) {
    let line = r
        .headers
        .lines()
        .find(|l| l.to_ascii_lowercase().starts_with("set-cookie:"))
        .unwrap_or_else(|| panic!("no Set-Cookie in {}", r.headers))
        .to_string();
    let value = line
        .split_once("legion_session=")
        .and_then(|(_, rest)| rest.split(';').next())
        .unwrap()
        .to_string();
    (value, line)
}

async fn register(s: &TestServer, name: &str, password: &str) -> String {
    let r = call(
        s,
        "POST",
        "/api/account/register",
        None,
        json!({"username": name, "password": password}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    set_cookie(&r).0
}

async fn login(s: &TestServer, name: &str, password: &str, old: Option<&str>) -> Reply {
    call(
        s,
        "POST",
        "/api/account/login",
        old,
        json!({"username": name, "password": password}),
    )
    .await
}

async fn whoami(s: &TestServer, cookie: &str) -> Reply {
    call(s, "GET", "/api/account", Some(cookie), Value::Null).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn register_sign_in_and_out() {
    let s = start(temp_db("accounts")).await;
    let r = call(
        &s,
        "POST",
        "/api/account/register",
        None,
        json!({"username": "Anna_K", "password": "correct horse"}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let (first, line) = set_cookie(&r);
    assert!(line.contains("HttpOnly"), "{line}");
    assert!(line.contains("SameSite=Lax"), "{line}");
    assert!(line.contains("Path=/"), "{line}");
    // The test server's origin is not https: no Secure attribute.
    assert!(!line.contains("Secure"), "{line}");
    assert_eq!(r.json()["username"], "Anna_K");
    // Signed in at once; the name as typed; every class at Glicko-2's start.
    let me = whoami(&s, &first).await;
    assert_eq!(me.status, 200, "{}", me.body);
    let me = me.json();
    assert_eq!(me["username"], "Anna_K");
    for class in ["bullet", "blitz", "rapid", "classical", "correspondence"] {
        let r = &me["ratings"][class];
        assert_eq!(
            (
                &r["rating"],
                &r["rd"],
                &r["volatility"],
                &r["games"],
                &r["provisional"]
            ),
            (
                &json!(1500.0),
                &json!(350.0),
                &json!(0.06),
                &json!(0),
                &json!(true)
            ),
            "{class}"
        );
    }
    // Signing in again with the old cookie renews the session: the old one
    // ends (no session fixation), the new one works. Any case of the name.
    let r = login(&s, "anna_k", "correct horse", Some(&first)).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let (second, _) = set_cookie(&r);
    assert_ne!(second, first);
    assert_eq!(whoami(&s, &first).await.status, 401);
    assert_eq!(whoami(&s, &second).await.status, 200);
    // Signing out ends it.
    let r = call(&s, "POST", "/api/account/logout", Some(&second), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(set_cookie(&r).1.contains("Max-Age=0"));
    let gone = whoami(&s, &second).await;
    assert_eq!(gone.status, 401);
    assert_eq!(gone.json()["code"], "server.not_signed_in");
    // Not signed in, and a cookie that is no session of ours.
    assert_eq!(
        call(&s, "GET", "/api/account", None, Value::Null)
            .await
            .status,
        401
    );
    assert_eq!(whoami(&s, "not a session").await.status, 401);
    // The public profile, in any case of the name.
    let p = call(&s, "GET", "/api/users/ANNA_k", None, Value::Null).await;
    assert_eq!(p.status, 200, "{}", p.body);
    assert_eq!(p.json()["username"], "Anna_K");
    assert_eq!(p.json()["ratings"]["blitz"]["rating"], 1500.0);
    let none = call(&s, "GET", "/api/users/nobody", None, Value::Null).await;
    assert_eq!(
        (none.status, none.json()["code"].clone()),
        (404, json!("server.no_user"))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_and_passwords_follow_the_rules() {
    let s = start(temp_db("rules")).await;
    register(&s, "Boris", "12345678").await;
    for (name, password, status, code) in [
        ("boris", "12345678", 409, "server.username_taken"),
        ("BORIS", "12345678", 409, "server.username_taken"),
        ("b", "12345678", 400, "server.bad_username"),
        (
            "ABCDEFGHIJKLMNOPQRSTU",
            "12345678",
            400,
            "server.bad_username",
        ),
        ("bo ris", "12345678", 400, "server.bad_username"),
        ("<b>x</b>", "12345678", 400, "server.bad_username"),
        ("Борис", "12345678", 400, "server.bad_username"),
        ("Admin", "12345678", 400, "server.reserved_username"),
        ("legion", "12345678", 400, "server.reserved_username"),
        ("Vera", "1234567", 400, "server.bad_password"),
    ] {
        let r = call(
            &s,
            "POST",
            "/api/account/register",
            None,
            json!({"username": name, "password": password}),
        )
        .await;
        assert_eq!(
            (r.status, r.json()["code"].clone()),
            (status, json!(code)),
            "{name}"
        );
    }
    // Missing fields are a bad request, not a crash.
    let r = call(
        &s,
        "POST",
        "/api/account/register",
        None,
        json!({"username": "x"}),
    )
    .await;
    assert_eq!(r.status, 400, "{}", r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_name_and_a_wrong_password_get_the_same_answer() {
    let s = start(temp_db("enumeration")).await;
    register(&s, "Clara", "a good password").await;
    let wrong = login(&s, "Clara", "a bad password", None).await;
    let unknown = login(&s, "Dmitri", "a bad password", None).await;
    let impossible = login(&s, "no such name!", "a bad password", None).await;
    for r in [&wrong, &unknown, &impossible] {
        assert_eq!(r.status, 401, "{}", r.body);
        assert!(!r.headers.to_ascii_lowercase().contains("set-cookie"));
    }
    assert_eq!(wrong.body, unknown.body);
    assert_eq!(wrong.body, impossible.body);
    assert_eq!(wrong.json()["code"], "server.wrong_credentials");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_ins_are_rate_limited_per_account() {
    let s = start(temp_db("limit")).await;
    register(&s, "Elena", "a good password").await;
    // Five at once, then one more each six seconds.
    for i in 0..5 {
        let r = login(&s, "Elena", "wrong password", None).await;
        assert_eq!(r.status, 401, "attempt {i}: {}", r.body);
    }
    let r = login(&s, "elena", "a good password", None).await;
    assert_eq!(r.status, 429, "{}", r.body);
    assert!(
        r.headers.to_ascii_lowercase().contains("retry-after"),
        "{}",
        r.headers
    );
    // Another account is not held up by it.
    register(&s, "Fyodor", "a good password").await;
    assert_eq!(
        login(&s, "Fyodor", "a good password", None).await.status,
        200
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_password_change_ends_every_session() {
    let s = start(temp_db("password")).await;
    let a = register(&s, "Galina", "first password").await;
    let b = set_cookie(&login(&s, "Galina", "first password", None).await).0;
    // The old password must be right.
    let r = call(
        &s,
        "POST",
        "/api/account/password",
        Some(&a),
        json!({"old": "not it at all", "new": "second password"}),
    )
    .await;
    assert_eq!(r.status, 401, "{}", r.body);
    assert_eq!(whoami(&s, &a).await.status, 200);
    let r = call(
        &s,
        "POST",
        "/api/account/password",
        Some(&a),
        json!({"old": "first password", "new": "second password"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let c = set_cookie(&r).0;
    // Both old sessions are gone, this browser's new one works.
    assert_eq!(whoami(&s, &a).await.status, 401);
    assert_eq!(whoami(&s, &b).await.status, 401);
    assert_eq!(whoami(&s, &c).await.status, 200);
    assert_eq!(
        login(&s, "Galina", "first password", None).await.status,
        401
    );
    assert_eq!(
        login(&s, "Galina", "second password", None).await.status,
        200
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deleted_account_signs_in_no_more_and_keeps_its_name() {
    let s = start(temp_db("delete")).await;
    let a = register(&s, "Igor", "a good password").await;
    let r = call(
        &s,
        "POST",
        "/api/account/delete",
        Some(&a),
        json!({"password": "wrong one!"}),
    )
    .await;
    assert_eq!(r.status, 401, "{}", r.body);
    let r = call(
        &s,
        "POST",
        "/api/account/delete",
        Some(&a),
        json!({"password": "a good password"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(whoami(&s, &a).await.status, 401);
    assert_eq!(login(&s, "Igor", "a good password", None).await.status, 401);
    assert_eq!(
        call(&s, "GET", "/api/users/Igor", None, Value::Null)
            .await
            .status,
        404
    );
    // Nobody else may take the name (its games stay under it).
    let r = call(
        &s,
        "POST",
        "/api/account/register",
        None,
        json!({"username": "igor", "password": "another password"}),
    )
    .await;
    assert_eq!(r.status, 409, "{}", r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_database_holds_hashes_only() {
    let s = start(temp_db("hashes")).await;
    let cookie = register(&s, "Kira", "my secret words").await;
    let (hashes, sessions): (Vec<Option<String>>, Vec<String>) =
        match std::env::var("LEGION_TEST_POSTGRES") {
            Ok(server) if std::env::var("LEGION_TEST_BACKEND").as_deref() == Ok("postgres") => {
                let url = format!(
                    "{}/{}",
                    server.trim_end_matches('/'),
                    on_backend_name(&s.db)
                );
                let mut db = <sqlx::PgConnection as sqlx::Connection>::connect(&url)
                    .await
                    .unwrap();
                let h = sqlx::query_scalar("SELECT password_hash FROM accounts")
                    .fetch_all(&mut db)
                    .await
                    .unwrap();
                let t = sqlx::query_scalar("SELECT id_hash FROM sessions")
                    .fetch_all(&mut db)
                    .await
                    .unwrap();
                (h, t)
            }
            _ => {
                let c = rusqlite::Connection::open(&s.db).unwrap();
                let h = c
                    .prepare("SELECT password_hash FROM accounts")
                    .unwrap()
                    .query_map([], |r| r.get(0))
                    .unwrap()
                    .collect::<Result<_, _>>()
                    .unwrap();
                let t = c
                    .prepare("SELECT id_hash FROM sessions")
                    .unwrap()
                    .query_map([], |r| r.get(0))
                    .unwrap()
                    .collect::<Result<_, _>>()
                    .unwrap();
                (h, t)
            }
        };
    assert_eq!(hashes.len(), 1);
    let h = hashes[0].clone().unwrap();
    assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{h}");
    assert!(!h.contains("my secret words"));
    assert_eq!(sessions.len(), 1);
    assert_ne!(sessions[0], cookie);
    assert_eq!(sessions[0].len(), 64, "a SHA-256 in hex");
    // The SQLite files as a whole (with the write-ahead log): neither the
    // password nor the cookie's secret anywhere.
    if std::env::var("LEGION_TEST_BACKEND").as_deref() != Ok("postgres") {
        let mut bytes = std::fs::read(&s.db).unwrap();
        bytes.extend(std::fs::read(s.db.with_extension("db-wal")).unwrap_or_default());
        let has = |needle: &str| bytes.windows(needle.len()).any(|w| w == needle.as_bytes());
        assert!(!has("my secret words"));
        assert!(!has(&cookie));
        assert!(has("Kira"), "the file read is the database");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_signed_in_players_session_is_their_seat() {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;

    let s = start(temp_db("seat")).await;
    let mine = register(&s, "Lena", "a good password").await;
    let theirs = register(&s, "Mark", "a good password").await;
    // A game made while signed in: the creator's seat is also the account's.
    let created = call(
        &s,
        "POST",
        "/api/games",
        Some(&mine),
        json!({"mode": "friend", "color": "white"}),
    )
    .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let created = created.json();
    let id = created["id"].as_str().unwrap().to_string();
    let invite = created["invite"].as_str().unwrap().to_string();
    // Mark claims the invite signed in: his account holds Black.
    let joined = call(
        &s,
        "POST",
        &format!("/api/games/{id}/join"),
        Some(&theirs),
        json!({"invite": invite}),
    )
    .await;
    assert_eq!(joined.status, 200, "{}", joined.body);
    // The cookie alone, no token: each sees their own seat and moves.
    let st = call(
        &s,
        "GET",
        &format!("/api/games/{id}"),
        Some(&mine),
        Value::Null,
    )
    .await;
    assert_eq!(st.json()["you"], "w", "{}", st.body);
    let mv = st.json()["legal"][0]["canonical"]
        .as_str()
        .unwrap()
        .to_string();
    // Mark may not move White's man.
    let r = call(
        &s,
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(&theirs),
        json!({"move": mv, "ply": 0}),
    )
    .await;
    assert_eq!(r.status, 409, "{}", r.body);
    assert_eq!(r.json()["code"], "server.not_your_turn");
    let r = call(
        &s,
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(&mine),
        json!({"move": mv, "ply": 0}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    // A stranger signed in holds no seat.
    let third = register(&s, "Nina", "a good password").await;
    let r = call(
        &s,
        "POST",
        &format!("/api/games/{id}/resign"),
        Some(&third),
        json!({}),
    )
    .await;
    assert_eq!(r.status, 403, "{}", r.body);
    // The socket recognises the session sent with its upgrade.
    let mut req = format!("ws://{}/api/games/{id}/ws", s.addr)
        .into_client_request()
        .unwrap();
    req.headers_mut().insert(
        "Cookie",
        format!("legion_session={theirs}").parse().unwrap(),
    );
    let (mut ws, _) = tokio_tungstenite::connect_async(req).await.unwrap();
    ws.send(Message::Text(json!({"type": "hello"}).to_string().into()))
        .await
        .unwrap();
    let first = loop {
        match ws.next().await.unwrap().unwrap() {
            Message::Text(t) => break serde_json::from_str::<Value>(&t).unwrap(),
            _ => continue,
        }
    };
    assert_eq!(first["type"], "state");
    assert_eq!(first["state"]["you"], "b", "{first}");
}
