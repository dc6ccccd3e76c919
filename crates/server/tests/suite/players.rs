//! The players' views over HTTP and WebSocket (issue 20, docs/API.md
//! "Chat" and "Players"), on SQLite and, under the test script, on
//! PostgreSQL: the game chat's two rooms (who reads and who writes, text
//! checks, the rate, pushes on the socket to the readers of each room,
//! across servers), profiles with their counts and rating history, the
//! archive and its filters, the export of every game as one record file,
//! the leaderboards and TV. Results and ratings are written into the
//! database directly, as the game ends will write them.

use std::time::Duration;

use crate::common::*;
use serde_json::{Value, json};

fn on_postgres() -> bool {
    std::env::var("LEGION_TEST_BACKEND").as_deref() == Ok("postgres")
}

/// A friend game made by `white` (a cookie, or none) and claimed by
/// `black`: (id, white's token, black's token).
async fn friend_game(
    s: &TestServer,
    white: Option<&str>,
    black: Option<&str>,
    extra: Value,
) -> (String, String, String) {
    let mut body = json!({"mode": "friend", "color": "white"});
    if let (Some(b), Some(e)) = (body.as_object_mut(), extra.as_object()) {
        b.extend(e.clone());
    }
    let r = call(s, "POST", "/api/games", white, None, body).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let created = r.json();
    let id = created["id"].as_str().unwrap().to_string();
    let invite = created["invite"].as_str().unwrap().to_string();
    let j = call(
        s,
        "POST",
        &format!("/api/games/{id}/join"),
        black,
        None,
        json!({ "invite": invite }),
    )
    .await;
    assert_eq!(j.status, 200, "{}", j.body);
    (
        id,
        created["token"].as_str().unwrap().to_string(),
        j.json()["token"].as_str().unwrap().to_string(),
    )
}

/// Runs statements on the test server's database, as the game ends will
/// write them (SQLite's file, or the PostgreSQL database of the test).
async fn sql(s: &TestServer, statements: &str) {
    if on_postgres() {
        let server = std::env::var("LEGION_TEST_POSTGRES").unwrap();
        let url = format!(
            "{}/{}",
            server.trim_end_matches('/'),
            on_backend_name(&s.db)
        );
        let mut conn = <sqlx::PgConnection as sqlx::Connection>::connect(&url)
            .await
            .unwrap();
        sqlx::raw_sql(sqlx::AssertSqlSafe(statements.to_string()))
            .execute(&mut conn)
            .await
            .unwrap();
    } else {
        let db = s.db.clone();
        let statements = statements.to_string();
        tokio::task::spawn_blocking(move || {
            let c = rusqlite::Connection::open(db).unwrap();
            c.busy_timeout(Duration::from_secs(5)).unwrap();
            c.execute_batch(&statements).unwrap();
        })
        .await
        .unwrap();
    }
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

/// The next chat message a socket is sent (other messages skipped).
async fn next_chat(ws: &mut Socket) -> Value {
    loop {
        let m = next(ws, 5).await;
        if m["type"] == "chat" {
            return m;
        }
    }
}

/// Says `text` in `room`.
async fn say(
    s: &TestServer,
    id: &str,
    cookie: Option<&str>,
    token: Option<&str>,
    room: &str,
    text: &str,
) -> Reply {
    call(
        s,
        "POST",
        &format!("/api/games/{id}/chat"),
        cookie,
        token,
        json!({"room": room, "text": text}),
    )
    .await
}

async fn read(
    s: &TestServer,
    id: &str,
    cookie: Option<&str>,
    token: Option<&str>,
    room: &str,
) -> Reply {
    call(
        s,
        "GET",
        &format!("/api/games/{id}/chat?room={room}"),
        cookie,
        token,
        Value::Null,
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_and_spectators_each_have_their_room() {
    let s = start(temp_db("chat")).await;
    let alice = register(&s, "alice").await;
    let bob = register(&s, "Bob").await;
    let carol = register(&s, "carol").await;
    let (id, wt, bt) = friend_game(&s, Some(&alice), Some(&bob), json!({})).await;
    let mut white_ws = connect(s.addr, &id, Some(&wt)).await;
    let mut black_ws = connect(s.addr, &id, Some(&bt)).await;
    let mut watcher_ws = connect(s.addr, &id, None).await;
    for ws in [&mut white_ws, &mut black_ws, &mut watcher_ws] {
        state_where(ws, 5, |_| true).await;
    }

    // Markup is kept as typed, to be shown as text.
    let html = "hi <b>Bob</b> <img src=x onerror=alert(1)>";
    let r = say(&s, &id, Some(&alice), None, "players", html).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let m = r.json()["message"].clone();
    assert_eq!(
        (&m["seq"], &m["author"], &m["side"], &m["text"]),
        (&json!(1), &json!("alice"), &json!("w"), &json!(html))
    );
    assert!(m["at_ms"].as_i64().unwrap() > 0);
    // A spectator speaks in their own room.
    let r = say(&s, &id, Some(&carol), None, "spectators", "  nice game  ").await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.json()["message"]["text"], "nice game");
    assert_eq!(r.json()["message"]["side"], Value::Null);
    // Bob's seat by its token alone: his account is on it, so he is named.
    let r = say(&s, &id, None, Some(&bt), "players", "hello").await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.json()["message"]["author"], "Bob");
    assert_eq!(r.json()["message"]["seq"], 2);

    // Each socket hears its room only, in order.
    for ws in [&mut white_ws, &mut black_ws] {
        let first = next_chat(ws).await;
        assert_eq!(first["room"], "players");
        assert_eq!(first["message"]["text"], html);
        let second = next_chat(ws).await;
        assert_eq!(second["message"]["text"], "hello");
    }
    let heard = next_chat(&mut watcher_ws).await;
    assert_eq!(heard["room"], "spectators");
    assert_eq!(heard["message"]["author"], "carol");

    // Reading: the players' room for the seats only, the spectators'
    // room for everyone else (an anonymous watcher too).
    let r = read(&s, &id, None, Some(&wt), "players").await;
    assert_eq!(r.status, 200, "{}", r.body);
    let texts: Vec<Value> = r.json()["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].clone())
        .collect();
    assert_eq!(texts, vec![json!(html), json!("hello")]);
    assert_eq!(r.json()["room"], "players");
    for (cookie, status) in [(Some(carol.as_str()), 403), (None, 403)] {
        let r = read(&s, &id, cookie, None, "players").await;
        assert_eq!(r.status, status, "{}", r.body);
        assert_eq!(r.json()["code"], "server.chat_players_only");
    }
    let r = read(&s, &id, None, None, "spectators").await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["messages"][0]["text"], "nice game");
    let r = read(&s, &id, Some(&alice), None, "spectators").await;
    assert_eq!(r.status, 403, "{}", r.body);
    assert_eq!(r.json()["code"], "server.chat_spectators_only");

    // Writing: spectators need an account; players stay in their room;
    // strangers are not players.
    let r = say(&s, &id, None, None, "spectators", "hi").await;
    assert_eq!(r.status, 401, "{}", r.body);
    assert_eq!(r.json()["code"], "server.chat_needs_account");
    let r = say(&s, &id, Some(&alice), None, "spectators", "hi").await;
    assert_eq!(r.status, 403, "{}", r.body);
    let r = say(&s, &id, Some(&carol), None, "players", "hi").await;
    assert_eq!(r.status, 403, "{}", r.body);
    assert_eq!(r.json()["code"], "server.chat_players_only");

    // Texts: 1 to 140 characters once trimmed (characters, not bytes).
    let r = say(&s, &id, Some(&alice), None, "players", "   ").await;
    assert_eq!(
        (r.status, r.json()["code"].clone()),
        (400, json!("server.chat_empty"))
    );
    let r = say(&s, &id, Some(&alice), None, "players", &"x".repeat(141)).await;
    assert_eq!(
        (r.status, r.json()["code"].clone()),
        (400, json!("server.chat_too_long"))
    );
    let r = say(&s, &id, Some(&alice), None, "players", &"ж".repeat(140)).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let r = say(&s, &id, Some(&alice), None, "kitchen", "hi").await;
    assert_eq!(
        (r.status, r.json()["code"].clone()),
        (400, json!("server.chat_bad_room"))
    );
    let r = read(&s, &id, None, None, "").await;
    assert_eq!(r.status, 400, "{}", r.body);
    let r = say(&s, "nosuchgame", Some(&alice), None, "players", "hi").await;
    assert_eq!(r.status, 404, "{}", r.body);

    // The rate: a burst of 5 an author and game, then one per 2 s.
    let mut statuses = Vec::new();
    for i in 0..6 {
        let r = say(&s, &id, None, Some(&bt), "players", &format!("m{i}")).await;
        if r.status == 429 {
            let retry = r
                .headers
                .lines()
                .find(|l| l.to_ascii_lowercase().starts_with("retry-after:"))
                .unwrap_or_else(|| panic!("no Retry-After: {}", r.headers));
            assert!(
                retry
                    .split(':')
                    .nth(1)
                    .unwrap()
                    .trim()
                    .parse::<u64>()
                    .unwrap()
                    >= 1
            );
        }
        statuses.push(r.status);
    }
    // Bob has said one message before: four more pass, then no more.
    assert_eq!(statuses, vec![201, 201, 201, 201, 429, 429]);
    // Another author of the same game is not held back.
    let r = say(&s, &id, Some(&alice), None, "players", "still here").await;
    assert_eq!(r.status, 201, "{}", r.body);
}

/// A socket whose upgrade carries a session cookie, that has said hello
/// without a token: its account is who it is.
async fn connect_signed_in(s: &TestServer, id: &str, cookie: &str) -> Socket {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut req = format!("ws://{}/api/games/{id}/ws", s.addr)
        .into_client_request()
        .unwrap();
    req.headers_mut().insert(
        "Cookie",
        format!("legion_session={cookie}").parse().unwrap(),
    );
    let (mut ws, _) = tokio_tungstenite::connect_async(req).await.unwrap();
    send(&mut ws, json!({"type": "hello", "token": null})).await;
    ws
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_socket_knows_its_reader_by_the_session_cookie() {
    let s = start(temp_db("chat-cookie")).await;
    let alice = register(&s, "alice").await;
    let bob = register(&s, "bob").await;
    let carol = register(&s, "carol").await;
    let (id, _, _) = friend_game(&s, Some(&alice), Some(&bob), json!({})).await;
    // Alice's socket holds White by her session; Carol's is a spectator's.
    let mut alice_ws = connect_signed_in(&s, &id, &alice).await;
    let mut carol_ws = connect_signed_in(&s, &id, &carol).await;
    let st = state_where(&mut alice_ws, 5, |_| true).await;
    assert_eq!(st["you"], "w");
    let st = state_where(&mut carol_ws, 5, |_| true).await;
    assert_eq!(st["you"], Value::Null);
    let r = say(&s, &id, Some(&carol), None, "spectators", "first").await;
    assert_eq!(r.status, 201, "{}", r.body);
    let r = say(&s, &id, Some(&bob), None, "players", "second").await;
    assert_eq!(r.status, 201, "{}", r.body);
    // Each hears only its room's message: Alice the second, Carol the first.
    let m = next_chat(&mut alice_ws).await;
    assert_eq!(
        (&m["room"], &m["message"]["text"]),
        (&json!("players"), &json!("second"))
    );
    let m = next_chat(&mut carol_ws).await;
    assert_eq!(
        (&m["room"], &m["message"]["text"]),
        (&json!("spectators"), &json!("first"))
    );
    let r = say(&s, &id, Some(&alice), None, "players", "third").await;
    assert_eq!(r.status, 201, "{}", r.body);
    let m = next_chat(&mut alice_ws).await;
    assert_eq!(m["message"]["text"], "third");
    // Carol's socket was not sent the players' messages.
    let quiet = tokio::time::timeout(Duration::from_millis(300), next_chat(&mut carol_ws)).await;
    assert!(quiet.is_err(), "a spectator was sent {quiet:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn anonymous_players_chat_only_in_games_made_by_invite() {
    let s = start(temp_db("anon-chat")).await;
    let (id, wt, bt) = friend_game(&s, None, None, json!({})).await;
    let r = say(&s, &id, None, Some(&wt), "players", "hello friend").await;
    assert_eq!(r.status, 201, "{}", r.body);
    let m = r.json()["message"].clone();
    assert_eq!((&m["author"], &m["side"]), (&Value::Null, &json!("w")));
    let r = read(&s, &id, None, Some(&bt), "players").await;
    assert_eq!(r.json()["messages"][0]["text"], "hello friend");
    // A game paired by the lobby: strangers chat with accounts only.
    sql(
        &s,
        &format!("UPDATE games SET pairing = 'seek' WHERE id = '{id}'"),
    )
    .await;
    let r = say(&s, &id, None, Some(&bt), "players", "hi").await;
    assert_eq!(r.status, 403, "{}", r.body);
    assert_eq!(r.json()["code"], "server.chat_anonymous");
    let signed = register(&s, "dora").await;
    let (lobby, _, dora_token) = friend_game(&s, None, Some(&signed), json!({})).await;
    sql(
        &s,
        &format!("UPDATE games SET pairing = 'seek' WHERE id = '{lobby}'"),
    )
    .await;
    let r = say(
        &s,
        &lobby,
        Some(&signed),
        Some(&dora_token),
        "players",
        "hi",
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    // Against the engine there is nobody to talk to.
    let r = call(
        &s,
        "POST",
        "/api/games",
        None,
        None,
        json!({"mode": "engine"}),
    )
    .await;
    let engine = r.json();
    let r = say(
        &s,
        engine["id"].as_str().unwrap(),
        None,
        engine["token"].as_str(),
        "players",
        "hi",
    )
    .await;
    assert_eq!(r.status, 409, "{}", r.body);
    assert_eq!(r.json()["code"], "server.chat_no_room");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_said_on_one_server_reaches_readers_on_another() {
    if !on_postgres() {
        eprintln!("several servers need PostgreSQL: run with LEGION_TEST_BACKEND=postgres");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("chat-cluster.db");
    let a = start_config(config(db.clone())).await;
    let b = start_config(config(db)).await;
    let (id, wt, bt) = friend_game(&a, None, None, json!({})).await;
    let mut black_on_b = connect(b.addr, &id, Some(&bt)).await;
    let mut watcher_on_b = connect(b.addr, &id, None).await;
    state_where(&mut black_on_b, 5, |_| true).await;
    state_where(&mut watcher_on_b, 5, |_| true).await;
    let r = say(&a, &id, None, Some(&wt), "players", "across").await;
    assert_eq!(r.status, 201, "{}", r.body);
    let m = next_chat(&mut black_on_b).await;
    assert_eq!(
        (&m["room"], &m["message"]["text"]),
        (&json!("players"), &json!("across"))
    );
    let carol = register(&a, "carol").await;
    let r = say(&b, &id, Some(&carol), None, "spectators", "from b").await;
    assert_eq!(r.status, 201, "{}", r.body);
    // The watcher hears the spectators' message, and never the players'.
    let m = next_chat(&mut watcher_on_b).await;
    assert_eq!(m["message"]["text"], "from b");
    // The numbering is one per room for the whole site.
    let r = say(&b, &id, None, Some(&bt), "players", "back").await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.json()["message"]["seq"], 2);
}

/// The id of an account in SQL, by its name.
fn acct(name: &str) -> String {
    format!(
        "(SELECT id FROM accounts WHERE username_key = '{}')",
        name.to_ascii_lowercase()
    )
}

async fn first_move(s: &TestServer, id: &str, token: &str) {
    let r = post(
        s.addr,
        &format!("/api/games/{id}/moves"),
        Some(token),
        json!({"move": "c3d4", "ply": 0}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
}

fn ids(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn profiles_count_list_and_export_finished_games() {
    let s = start(temp_db("profiles")).await;
    let alice = register(&s, "alice").await;
    let bob = register(&s, "Bob").await;
    let blitz = json!({"clock": {"initial_s": 180, "increment_s": 2}});
    let now = now_ms();
    let mut games = Vec::new();
    for _ in 0..4 {
        let (id, wt, _) = friend_game(&s, Some(&alice), Some(&bob), blitz.clone()).await;
        first_move(&s, &id, &wt).await;
        games.push(id);
    }
    let r = call(
        &s,
        "POST",
        "/api/games",
        Some(&alice),
        None,
        json!({"mode": "engine"}),
    )
    .await;
    let engine = r.json()["id"].as_str().unwrap().to_string();
    let (g1, g2, g3, playing) = (&games[0], &games[1], &games[2], &games[3]);
    sql(&s, &format!(
        "UPDATE games SET result = '1-0', phase_one = 'w', rated = TRUE, ended_ms = {t1} WHERE id = '{g1}';
         UPDATE games SET result = '0-1', ended_ms = {t2} WHERE id = '{g2}';
         UPDATE games SET result = '1/2-1/2', rated = TRUE, ended_ms = {t3} WHERE id = '{g3}';
         UPDATE games SET result = '0-1', ended_ms = {t4} WHERE id = '{engine}';
         INSERT INTO ratings (account_id, class, rating, rd, volatility, games, last_ms)
           VALUES ({a}, 'blitz', 1650.5, 80, 0.06, 2, {t3});
         INSERT INTO rating_changes (game_id, account_id, class, at_ms, before_rating, before_rd,
           after_rating, after_rd, after_volatility)
           VALUES ('{g1}', {a}, 'blitz', {t1}, 1500, 350, 1600, 200, 0.06),
                  ('{g3}', {a}, 'blitz', {t3}, 1600, 200, 1650.5, 80, 0.06);",
        t1 = now - 4000, t2 = now - 3000, t3 = now - 2000, t4 = now - 1000, a = acct("alice"),
    )).await;

    let r = get(s.addr, "/api/users/ALICE", None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let p = r.json();
    assert_eq!(p["username"], "alice");
    assert!(p["created_ms"].as_i64().unwrap() > now - 600_000);
    assert_eq!(
        p["counts"],
        json!({"games": 4, "wins": 1, "draws": 1, "losses": 2, "phase_one_wins": 1})
    );
    assert_eq!(
        p["history"],
        json!({"blitz": [[now - 4000, 1600.0], [now - 2000, 1650.5]]})
    );
    assert_eq!(p["ratings"]["blitz"]["rating"], 1650.5);
    assert_eq!(p["ratings"]["blitz"]["provisional"], false);
    assert_eq!(p["ratings"]["blitz"]["games"], 2);
    assert_eq!(p["ratings"]["rapid"]["rating"], 1500.0);
    let bob_p = get(s.addr, "/api/users/bob", None).await.json();
    assert_eq!(
        bob_p["counts"],
        json!({"games": 3, "wins": 1, "draws": 1, "losses": 1, "phase_one_wins": 0})
    );

    // The archive, newest first, with each filter.
    let archive = |q: &str| {
        let q = q.to_string();
        let addr = s.addr;
        async move { get(addr, &format!("/api/users/alice/archive{q}"), None).await }
    };
    let all = archive("").await.json();
    assert_eq!(
        (all["page"].clone(), all["pages"].clone()),
        (json!(1), json!(1))
    );
    assert_eq!(
        ids(&all["games"]),
        vec![engine.clone(), g3.clone(), g2.clone(), g1.clone()]
    );
    let first = &all["games"][3];
    assert_eq!(
        (
            &first["white"],
            &first["black"],
            &first["result"],
            &first["rated"],
            &first["class"]
        ),
        (
            &json!("alice"),
            &json!("Bob"),
            &json!("1-0"),
            &json!(true),
            &json!("blitz")
        )
    );
    assert_eq!(
        (&first["white_rating"], &first["black_rating"]),
        (&json!(1500.0), &Value::Null)
    );
    assert_eq!(first["plies"], 1);
    assert_eq!(first["ended_ms"], now - 4000);
    assert_eq!(
        (&all["games"][0]["black"], &all["games"][0]["class"]),
        (&Value::Null, &Value::Null)
    );
    assert!(!ids(&all["games"]).contains(playing));
    for (q, want) in [
        ("?result=win", vec![g1.clone()]),
        ("?result=loss", vec![engine.clone(), g2.clone()]),
        ("?result=draw", vec![g3.clone()]),
        ("?rated=true", vec![g3.clone(), g1.clone()]),
        ("?rated=false&result=loss", vec![engine.clone(), g2.clone()]),
        (
            "?class=blitz&opponent=BOB",
            vec![g3.clone(), g2.clone(), g1.clone()],
        ),
        ("?class=rapid", vec![]),
        ("?opponent=nobody", vec![]),
    ] {
        let r = archive(q).await;
        assert_eq!(r.status, 200, "{q}: {}", r.body);
        assert_eq!(ids(&r.json()["games"]), want, "{q}");
    }
    for q in [
        "?page=0",
        "?page=x",
        "?result=maybe",
        "?rated=yes",
        "?class=fast",
    ] {
        let r = archive(q).await;
        assert_eq!(
            (r.status, r.json()["code"].clone()),
            (400, json!("server.bad_filter")),
            "{q}"
        );
    }
    let r = get(s.addr, "/api/users/nobody/archive", None).await;
    assert_eq!(r.status, 404, "{}", r.body);

    // Twenty a page.
    let mut inserts = String::new();
    for i in 0..21 {
        inserts.push_str(&format!(
            "INSERT INTO games (id, created_ms, mode, rules, start_lfen, white_user, result, ended_ms)
             VALUES ('old{i}', {c}, 'friend', 'default', '{lfen}', {a}, '1-0', {c});",
            c = now - 100_000 - i,
            lfen = legion_rules::INITIAL_LFEN,
            a = acct("alice"),
        ));
    }
    sql(&s, &inserts).await;
    let p1 = archive("").await.json();
    assert_eq!(
        (p1["pages"].clone(), p1["games"].as_array().unwrap().len()),
        (json!(2), 20)
    );
    let p2 = archive("?page=2").await.json();
    assert_eq!(p2["games"].as_array().unwrap().len(), 5);
    assert_eq!(p2["games"][4]["id"], "old20");
    assert_eq!(archive("?page=3").await.json()["games"], json!([]));

    // Every finished game as one record file.
    let r = get(s.addr, "/api/users/alice/games", None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let h = r.headers.to_ascii_lowercase();
    assert!(
        h.contains("content-disposition: attachment; filename=\"legion-alice.pgn\""),
        "{h}"
    );
    assert!(h.contains("content-type: text/plain"), "{h}");
    let records = legion_rules::Record::parse_many(&r.body).unwrap();
    assert_eq!(records.len(), 25);
    assert_eq!(records[0].tag("Black"), Some("Legion engine level 3"));
    assert_eq!(records[1].tag("White"), Some("alice"));
    assert_eq!(records[1].tag("Black"), Some("Bob"));
    assert_eq!(records[3].tag("Event"), Some("Legion rated game"));
    assert_eq!(records[3].game.moves().len(), 1);
    assert_eq!(records[24].tag("Black"), Some("Anonymous"));

    // A deleted player: no profile, "deleted" in the others' archives.
    let r = call(
        &s,
        "POST",
        "/api/account/delete",
        Some(&bob),
        None,
        json!({"password": "a good password"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(get(s.addr, "/api/users/bob", None).await.status, 404);
    let all = archive("?opponent=deleted").await.json();
    assert_eq!(all["games"][0]["black"], "deleted");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leaderboards_rank_settled_and_active_players() {
    let s = start(temp_db("leaders")).await;
    for name in ["p1", "p2", "p3", "p4"] {
        register(&s, name).await;
    }
    let now = now_ms();
    let day = 86_400_000;
    sql(
        &s,
        &format!(
            "INSERT INTO ratings (account_id, class, rating, rd, volatility, games, last_ms) VALUES
           ({p1}, 'blitz', 1700, 60, 0.06, 30, {now}),
           ({p2}, 'blitz', 1800, 60, 0.06, 30, {old}),
           ({p3}, 'blitz', 1900, 200, 0.06, 3, {now}),
           ({p4}, 'blitz', 1750.4, 90, 0.06, 12, {yesterday}),
           ({p1}, 'rapid', 1550, 100, 0.06, 9, {now}),
           ({p3}, 'bullet', 1600, 140, 0.06, 9, {now});",
            p1 = acct("p1"),
            p2 = acct("p2"),
            p3 = acct("p3"),
            p4 = acct("p4"),
            old = now - 40 * day,
            yesterday = now - day,
        ),
    )
    .await;
    let r = get(s.addr, "/api/leaderboard", None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let b = r.json();
    let names = |class: &str| -> Vec<String> {
        b[class]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["username"].as_str().unwrap().to_string())
            .collect()
    };
    // p2 has not played for 40 days; p3's blitz deviation is too wide.
    assert_eq!(names("blitz"), vec!["p4", "p1"]);
    assert_eq!(names("rapid"), vec!["p1"]);
    assert_eq!(names("bullet"), vec!["p3"]);
    assert!(names("classical").is_empty() && names("correspondence").is_empty());
    let top = &b["blitz"][0];
    assert_eq!(
        (&top["rating"], &top["games"]),
        (&json!(1750.0), &json!(12))
    );
    assert!(top["rd"].as_f64().unwrap() >= 90.0 && top["rd"].as_f64().unwrap() < 100.0);
    // A disabled or deleted player leaves the boards.
    sql(
        &s,
        &format!(
            "UPDATE accounts SET disabled = TRUE WHERE id = {}",
            acct("p4")
        ),
    )
    .await;
    let b = get(s.addr, "/api/leaderboard", None).await.json();
    assert_eq!(b["blitz"][0]["username"], "p1");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tv_features_the_highest_rated_game_being_played() {
    let s = start(temp_db("tv")).await;
    let x = register(&s, "xavier").await;
    let y = register(&s, "yana").await;
    let blitz = json!({"clock": {"initial_s": 300, "increment_s": 3}});
    let (anon, _, _) = friend_game(&s, None, None, blitz.clone()).await;
    let (rated, wt, _) = friend_game(&s, Some(&x), Some(&y), blitz.clone()).await;
    first_move(&s, &rated, &wt).await;
    let (done, _, _) = friend_game(&s, Some(&x), Some(&y), blitz.clone()).await;
    let r = call(
        &s,
        "POST",
        "/api/games",
        Some(&x),
        None,
        json!({"mode": "engine"}),
    )
    .await;
    assert_eq!(r.status, 201);
    // A friend game whose invite nobody claimed has not started.
    let r = call(
        &s,
        "POST",
        "/api/games",
        None,
        None,
        json!({"mode": "friend"}),
    )
    .await;
    let waiting = r.json()["id"].as_str().unwrap().to_string();
    sql(
        &s,
        &format!(
            "UPDATE games SET result = '1-0', ended_ms = {now} WHERE id = '{done}';
         INSERT INTO ratings (account_id, class, rating, rd, volatility, games, last_ms) VALUES
           ({x}, 'blitz', 1900, 60, 0.06, 30, {now}), ({y}, 'blitz', 1800.4, 60, 0.06, 30, {now}),
           ({x}, 'rapid', 2500, 60, 0.06, 30, {now});",
            now = now_ms(),
            x = acct("xavier"),
            y = acct("yana"),
        ),
    )
    .await;
    let r = get(s.addr, "/api/tv", None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let tv = r.json();
    assert_eq!(ids(&tv["games"]), vec![rated.clone(), anon.clone()]);
    let f = &tv["featured"];
    assert_eq!(f["id"], json!(rated));
    assert_eq!(
        (
            &f["white"],
            &f["black"],
            &f["white_rating"],
            &f["black_rating"],
            &f["class"],
            &f["plies"]
        ),
        (
            &json!("xavier"),
            &json!("yana"),
            &json!(1900.0),
            &json!(1800.0),
            &json!("blitz"),
            &json!(1)
        )
    );
    let a = &tv["games"][1];
    assert_eq!(
        (&a["white"], &a["white_rating"], &a["black_rating"]),
        (&Value::Null, &json!(1500.0), &json!(1500.0))
    );
    assert!(!ids(&tv["games"]).contains(&waiting));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tv_is_empty_without_games() {
    let s = start(temp_db("tv-empty")).await;
    let tv = get(s.addr, "/api/tv", None).await.json();
    assert_eq!(tv, json!({"featured": null, "games": []}));
    let pages = ["/@/anyone", "/players", "/tv", "/account", "/signin"];
    for p in pages {
        let r = get(s.addr, p, None).await;
        assert_eq!(r.status, 200, "{p}");
        assert!(r.body.contains("<main id=\"app\""), "{p}");
    }
}
