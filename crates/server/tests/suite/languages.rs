//! The site in English and in Russian: the reader's language from the
//! `lang` cookie or Accept-Language, the same rule and squares in either,
//! and typed moves explained exactly like clicked ones.

use std::net::SocketAddr;

use crate::common::*;
use serde_json::{Value, json};

/// A request with extra headers (the reader's language).
async fn ask(
    addr: SocketAddr,
    method: &str,
    path: &str,
    extra: &str,
    token: Option<&str>,
    body: &str,
) -> Reply {
    let auth = token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    let headers = format!("Host: {addr}\r\nContent-Type: application/json\r\n{auth}{extra}");
    exchange(addr, None, method, path, &headers, body.as_bytes()).await
}

const RU: &str = "Accept-Language: ru-RU,ru;q=0.9,en;q=0.5\r\n";

async fn local_game(addr: SocketAddr) -> (String, String) {
    let v = post(addr, "/api/games", None, json!({"mode": "local"}))
        .await
        .json();
    (
        v["id"].as_str().unwrap().to_string(),
        v["token"].as_str().unwrap().to_string(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn errors_and_explanations_in_the_readers_language() {
    let s = start(temp_db("lang")).await;
    let (id, token) = local_game(s.addr).await;
    let mv = |m: &str, ply: usize| json!({"move": m, "ply": ply}).to_string();
    let path = format!("/api/games/{id}/moves");
    // c3-c4 is not diagonal (2.4): the same rule in both languages.
    let en = ask(s.addr, "POST", &path, "", Some(&token), &mv("c3c4", 0))
        .await
        .json();
    let ru = ask(s.addr, "POST", &path, RU, Some(&token), &mv("c3c4", 0))
        .await
        .json();
    assert_eq!(
        (en["rule"].as_str(), ru["rule"].as_str()),
        (Some("2.4"), Some("2.4"))
    );
    assert!(
        en["error"]
            .as_str()
            .unwrap()
            .starts_with("2.4: the man on c3 cannot go to c4"),
        "{en}"
    );
    let ru_text = ru["error"].as_str().unwrap();
    assert!(
        ru_text.starts_with("2.4: шашка на c3 не может пойти на c4"),
        "{ru_text}"
    );
    assert!(ru_text.contains("Легиона"), "{ru_text}");
    // The cookie set by the page's switch wins over the browser's languages.
    let chosen = ask(
        s.addr,
        "POST",
        &path,
        &format!("{RU}Cookie: lang=en\r\n"),
        Some(&token),
        &mv("c3c4", 0),
    )
    .await
    .json();
    assert_eq!(chosen["error"], en["error"]);
    // Server refusals too: a move out of turn.
    let r = ask(s.addr, "POST", &path, RU, None, &mv("c3d4", 0)).await;
    assert_eq!(r.status, 403);
    assert_eq!(
        r.json()["error"],
        "ходить может только игрок за доской: нужен ключ вашего места"
    );
    // Explanations of clicked squares, in Russian.
    let body = json!({"lfen": legion_rules::INITIAL_LFEN, "squares": ["g1", "g3"]}).to_string();
    let v = ask(s.addr, "POST", "/api/explain", RU, None, &body)
        .await
        .json();
    assert_eq!(v["rule"], "2.1");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .starts_with("2.1: Конь на g1 не может пойти на g3"),
        "{v}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typed_moves_are_explained_like_clicked_ones() {
    let s = start(temp_db("typed")).await;
    let (id, token) = local_game(s.addr).await;
    for (ply, m) in ["c3d4", "b6c5"].iter().enumerate() {
        let r = post(
            s.addr,
            &format!("/api/games/{id}/moves"),
            Some(&token),
            json!({"move": m, "ply": ply}),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    // White must take on c5 (4.2); the Knight on g1 does reach f3.
    let lfen = get(s.addr, &format!("/api/games/{id}"), None).await.json()["lfen"]
        .as_str()
        .unwrap()
        .to_string();
    for lang in ["", RU] {
        // The same, asked of a position rather than a game, typed.
        let typed = ask(
            s.addr,
            "POST",
            "/api/explain",
            lang,
            None,
            &json!({"lfen": lfen, "move": "Nf3"}).to_string(),
        )
        .await
        .json();
        let clicked = ask(
            s.addr,
            "POST",
            "/api/explain",
            lang,
            None,
            &json!({"lfen": lfen, "squares": ["g1", "f3"]}).to_string(),
        )
        .await
        .json();
        assert_eq!(
            (typed["rule"].as_str(), &typed["error"]),
            (Some("4.2"), &clicked["error"])
        );
        let clicked = ask(
            s.addr,
            "POST",
            &format!("/api/games/{id}/explain"),
            lang,
            None,
            &json!({"squares": ["g1", "f3"]}).to_string(),
        )
        .await
        .json();
        assert_eq!(clicked["legal"], false);
        for typed in ["Nf3", "g1f3", "Ng1-f3"] {
            let r = ask(
                s.addr,
                "POST",
                &format!("/api/games/{id}/moves"),
                lang,
                Some(&token),
                &json!({"move": typed, "ply": 2}).to_string(),
            )
            .await;
            assert_eq!(r.status, 400);
            let v = r.json();
            assert_eq!(v["rule"], "4.2", "{typed}: {v}");
            assert_eq!(v["error"], clicked["error"], "{typed}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_rules_and_results_in_either_language() {
    let s = start(temp_db("pages")).await;
    let page = ask(s.addr, "GET", "/g/abc", RU, None, "").await;
    assert!(
        page.body.contains("<html lang=\"ru\">"),
        "{}",
        &page.body[..200.min(page.body.len())]
    );
    let page = ask(s.addr, "GET", "/", "", None, "").await;
    assert!(page.body.contains("<html lang=\"en\">"));
    let rules = ask(s.addr, "GET", "/api/rules.html", RU, None, "").await;
    assert!(
        rules.body.contains("Легион") && rules.body.contains("Захват"),
        "Russian rules"
    );
    assert!(
        rules
            .headers
            .to_ascii_lowercase()
            .contains("vary: cookie, accept-language")
    );
    let rules = ask(s.addr, "GET", "/api/rules.html", "", None, "").await;
    assert!(rules.body.contains("Legion") && !rules.body.contains("Легион ("));
    // An unknown page is a page; an unknown API path is JSON.
    let r = ask(s.addr, "GET", "/no/such/page", RU, None, "").await;
    assert_eq!(r.status, 404);
    assert!(r.headers.contains("text/html"));
    assert!(r.body.contains("Страница не найдена"), "{}", r.body);
    let r = ask(s.addr, "GET", "/api/nothing", "", None, "").await;
    assert_eq!(r.status, 404);
    assert_eq!(r.json()["error"], "nothing at /api/nothing");
    // A result carries its words as a key for every reader's language.
    let (id, token) = local_game(s.addr).await;
    let st: Value = post(
        s.addr,
        &format!("/api/games/{id}/resign"),
        Some(&token),
        json!({}),
    )
    .await
    .json();
    assert_eq!(st["reason"], "Black wins: White resigned");
    assert_eq!(
        st["reason_i18n"],
        json!({"key": "outcome.resignation", "args": {"winner": "b", "loser": "w"}})
    );
}

/// Both languages' answers to one request: (English, Russian).
async fn both(addr: SocketAddr, path: &str, body: Value) -> (Value, Value) {
    let body = body.to_string();
    let en = ask(addr, "POST", path, "", None, &body).await;
    let ru = ask(addr, "POST", path, RU, None, &body).await;
    assert_eq!((en.status, ru.status), (400, 400), "{}", en.body);
    let (en, ru) = (en.json(), ru.json());
    // The rule and the code are the same in either language.
    assert_eq!(
        (&en["rule"], &en["code"]),
        (&ru["rule"], &ru["code"]),
        "{en} {ru}"
    );
    (en, ru)
}

fn text(v: &Value) -> &str {
    v["error"].as_str().unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn positions_and_records_that_cannot_be_read_in_either_language() {
    let s = start(temp_db("reading")).await;
    let a = s.addr;
    // A game from a position: a man on a light square (1.4).
    let light = "4k3/8/8/8/8/8/8/1M2K3 w - 0 1";
    let (en, ru) = both(a, "/api/games", json!({"mode": "local", "start": light})).await;
    assert_eq!(
        (en["rule"].as_str(), en["code"].as_str()),
        (Some("1.4"), Some("lfen.legion_on_light_square"))
    );
    assert_eq!(
        text(&en),
        "1.4: a free White man stands on the light square b1: Legion pieces stand only on dark squares"
    );
    assert_eq!(
        text(&ru),
        "1.4: свободная белая шашка стоит на светлом поле b1: фигуры Легиона стоят только на тёмных полях"
    );
    // The editor's check of a position: a construct with a man as Captor (1.5).
    let (en, ru) = both(
        a,
        "/api/position",
        json!({"lfen": "[Mm]3k3/8/8/8/8/8/8/4K3 w - 0 1"}),
    )
    .await;
    assert_eq!(en["rule"], "1.5");
    assert!(
        text(&en).starts_with("1.5: the construct on a8 has Captor 'M'"),
        "{en}"
    );
    assert_eq!(
        text(&ru),
        "1.5: у Захвата на a8 Захватчик «M», а Захватчиком может быть только шахматная фигура"
    );
    // Analysis and explanations of a position read it the same way.
    let (en, ru) = both(a, "/api/analyse", json!({"lfen": "8/8/8 w - 0 1"})).await;
    assert_eq!(
        (en["rule"].as_str(), en["code"].as_str()),
        (Some("6.2"), Some("lfen.rank_count"))
    );
    assert_eq!(
        text(&ru),
        "6.2: в расстановке должно быть 8 горизонталей через «/», а здесь их 3"
    );
    let (_, ru) = both(
        a,
        "/api/explain",
        json!({"lfen": "4k3/8/8/8/8/8/8/4K3 x - 0 1", "squares": []}),
    )
    .await;
    assert_eq!(
        text(&ru),
        "6.2: сторона, имеющая очередь хода, записывается «w» или «b», а не «x»"
    );
    // A move of an analysis that cannot be read: its rule and its number.
    let start = legion_rules::INITIAL_LFEN;
    let (en, ru) = both(
        a,
        "/api/analyse",
        json!({"lfen": start, "moves": ["c3d4", "c3c4"]}),
    )
    .await;
    assert_eq!(en["rule"], "1.2");
    assert!(text(&en).starts_with("move 2 'c3c4': 1.2:"), "{en}");
    assert!(text(&ru).starts_with("ход 2 «c3c4»: 1.2: "), "{ru}");
    // A record: a move that breaks a rule, with the rule it breaks.
    let (en, ru) = both(
        a,
        "/api/records/parse",
        json!({"text": "1. c3-d4 f6-e5 2. d4-d5 *"}),
    )
    .await;
    assert_eq!(
        (en["rule"].as_str(), en["code"].as_str()),
        (Some("6.5"), Some("record.bad_move"))
    );
    assert!(text(&en).starts_with("6.5: move 2. 'd4-d5': "), "{en}");
    let ru_text = text(&ru);
    assert!(ru_text.starts_with("6.5: ход 2. «d4-d5»: "), "{ru_text}");
    assert!(ru_text.contains("шашка на d4"), "{ru_text}");
    // A record whose FEN tag is not a position; a record that goes on
    // after its result.
    let (en, ru) = both(
        a,
        "/api/records/parse",
        json!({"text": "[FEN \"4k3/8/8/8/8/8/8/KK6 w - 0 1\"]\n*"}),
    )
    .await;
    assert_eq!(
        text(&en),
        "6.5: the FEN tag is not a valid LFEN: 1.3: White has more than one King"
    );
    assert_eq!(
        text(&ru),
        "6.5: в теге FEN неверная запись LFEN: 1.3: у стороны «Белые» больше одного Короля"
    );
    let (_, ru) = both(
        a,
        "/api/records/parse",
        json!({"text": "1. c3-d4 1-0 f6-e5"}),
    )
    .await;
    assert_eq!(
        text(&ru),
        "6.5: после результата 1-0 в записи ходов лишнее «f6-e5»"
    );
    // Typed moves that are not moves.
    let (en, ru) = both(a, "/api/analyse", json!({"lfen": start, "moves": ["Zz9"]})).await;
    assert_eq!(en["code"], "move.human_syntax");
    assert!(
        text(&ru).starts_with("ход 1 «Zz9»: 6.4: «Zz9» — не ход"),
        "{ru}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn new_game_settings_are_refused_with_a_code_in_either_language() {
    let s = start(temp_db("settings")).await;
    let cases = [
        (
            json!({"mode": "chess"}),
            "server.bad_mode",
            "mode must be engine, friend or local, not 'chess'",
            "режим (mode) — engine, friend или local, а не «chess»",
        ),
        (
            json!({"mode": "engine", "color": "green"}),
            "server.bad_color",
            "color must be white, black or random, not 'green'",
            "цвет (color) — white, black или random, а не «green»",
        ),
        (
            json!({"mode": "engine", "level": 11}),
            "server.bad_level",
            "level must be from 1 to 10, not 11",
            "уровень (level) — от 1 до 10, а не 11",
        ),
        (
            json!({"mode": "local", "rules": "checkers"}),
            "server.bad_rules",
            "rules must be 'default' or 'mate-ends-game', not 'checkers'",
            "правила (rules) — «default» или «mate-ends-game», а не «checkers»",
        ),
        (
            json!({"mode": "local", "clock": {"initial_s": 0}}),
            "server.bad_clock",
            "clock: initial_s from 1 to 36000 seconds, increment_s from 0 to 600",
            "часы (clock): initial_s — от 1 до 36000 секунд, increment_s — от 0 до 600",
        ),
    ];
    for (body, code, en_text, ru_text) in cases {
        let (en, ru) = both(s.addr, "/api/games", body).await;
        assert_eq!(en["code"], code, "{en}");
        assert_eq!((text(&en), text(&ru)), (en_text, ru_text));
    }
}
