//! The site in English and in Russian: the reader's language from the
//! `lang` cookie or Accept-Language, the same rule and squares in either,
//! and typed moves explained exactly like clicked ones.

mod common;

use std::net::SocketAddr;

use common::*;
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
