//! `GET /api/endgame` (docs/API.md): values from tables built here, in a
//! temporary folder, by the solver (two- and three-piece endings: a
//! second or so), checked against what RULES.md gives by hand.

use crate::common::*;
use legion_lab::endgames::{Material, Solver};
use serde_json::Value;

/// Tables of KQ vs K and KT vs K and every ending they lead to.
fn tables() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let mut solver = Solver::new();
    for m in ["KQ vs K", "KT vs K"] {
        solver.solve(&m.parse::<Material>().unwrap()).unwrap();
    }
    solver.write_tables(dir.path(), |_, _| {}).unwrap();
    dir
}

/// A server reading `tables`, with `per_minute` lookups a client (0: no
/// limit); the database's folder is kept as long as the server.
async fn server_with(
    tables: Option<&std::path::Path>,
    per_minute: u32,
) -> (TestServer, tempfile::TempDir) {
    let (dir, db) = temp_db("endgame");
    let mut c = config(db);
    c.endgames = tables.map(|p| p.to_path_buf());
    c.limits.analyses_per_minute = per_minute;
    c.limits.analyses_burst = per_minute;
    (start_config(c).await, dir)
}

fn query(lfen: &str) -> String {
    let mut q = String::from("/api/endgame?lfen=");
    for b in lfen.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' => q.push(b as char),
            _ => q.push_str(&format!("%{b:02X}")),
        }
    }
    q
}

async fn probe(s: &TestServer, lfen: &str) -> Reply {
    get(s.addr, &query(lfen), None).await
}

fn find<'a>(moves: &'a Value, canonical: &str) -> &'a Value {
    moves
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["canonical"] == canonical)
        .unwrap_or_else(|| panic!("no move {canonical} in {moves}"))
}

#[tokio::test]
async fn values_and_moves_agree_with_the_rules() {
    let t = tables();
    let (s, _db) = server_with(Some(t.path()), 0).await;

    // White Kb6, Queen h2, Black Ka8, White to move. Qh8 (or Qg8) is
    // mate: a7 and b7 are the King's, b8 and a8 the Queen's (3.4). The
    // mated King leaves the board (5.1) and Black, with nothing left, has
    // no legal move: lost (5.2). Won in 1 ply, and the King's removal
    // resets the half-move clock (5.3): DTZ 1.
    let r = probe(&s, "k7/8/1K6/8/8/8/7Q/8 w - 0 1").await;
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    assert_eq!(v["material"], "KQ vs K");
    assert_eq!(v["turn"], "w");
    assert_eq!(v["category"], "win");
    assert_eq!(v["plies"], 1);
    assert_eq!(v["dtz"], 1);
    assert_eq!(v["fifty_move_rule"], false);
    let moves = &v["moves"];
    let mate = find(moves, "h2h8");
    assert_eq!(mate["category"], "win");
    assert_eq!(mate["plies"], 1);
    assert_eq!(mate["resets_clock"], true);
    // Best first: a move winning in one ply leads the list.
    assert_eq!(moves[0]["category"], "win");
    assert_eq!(moves[0]["plies"], 1);
    // Qb8+ gives the Queen away: Kxb8 leaves two lone Kings, drawn (5.3).
    let blunder = find(moves, "h2b8");
    assert_eq!(blunder["category"], "draw");
    assert_eq!(blunder["plies"], Value::Null);
    assert_eq!(blunder["dtz"], 0);
    assert_eq!(
        moves.as_array().unwrap().last().unwrap()["category"],
        "draw"
    );

    // Black to move there: b8 is the Queen's (the h2-b8 diagonal), a7 and
    // b7 the King's: no legal move, lost now (5.2), nothing to list.
    let v = probe(&s, "k7/8/1K6/8/8/8/7Q/8 b - 0 1").await.json();
    assert_eq!(v["category"], "loss");
    assert_eq!(v["plies"], 0);
    assert_eq!(v["dtz"], 0);
    assert_eq!(v["moves"], serde_json::json!([]));

    // King and Tama against King: drawn in every position
    // (docs/STRENGTH.md): a Tama checks a King only by jumping it.
    for lfen in [
        "8/8/8/8/3T4/8/8/K6k w - 0 1",
        "8/8/8/8/3T4/8/8/K6k b - 0 1",
        "k7/8/1K6/T7/8/8/8/8 w - 0 1",
    ] {
        let v = probe(&s, lfen).await.json();
        assert_eq!(v["category"], "draw", "{lfen}: {v}");
        assert_eq!(v["dtz"], 0);
        for m in v["moves"].as_array().unwrap() {
            assert_eq!(m["category"], "draw", "{lfen}: {m}");
        }
    }

    // The 50-move rule (5.3): 99 plies already without a reset, and the
    // mate (a reset) comes on the 100th: still a win. So does Ka6, which
    // leaves Black without a move (5.2) on the 100th ply. A quiet move
    // that wins only later would pass 100 plies: the rule matters.
    let v = probe(&s, "k7/8/1K6/8/8/8/7Q/8 w - 99 80").await.json();
    assert_eq!(v["category"], "win");
    assert_eq!(v["fifty_move_rule"], false);
    assert_eq!(find(&v["moves"], "h2h8")["fifty_move_rule"], false);
    let quiet = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["category"] == "win" && m["resets_clock"] == false && m["plies"] != 1)
        .expect("a quiet winning move");
    assert_eq!(quiet["fifty_move_rule"], true, "{quiet}");
    assert_eq!(find(&v["moves"], "b6a6")["fifty_move_rule"], false);
}

#[tokio::test]
async fn refusals_have_their_codes() {
    let t = tables();
    let (s, _db) = server_with(Some(t.path()), 0).await;
    // A bad LFEN: the reading error, with its rule, as everywhere (400).
    let r = probe(&s, "k7/8/8/8/8/8/8/7M w - 0 1").await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.json()["rule"].is_string(), "{}", r.body);
    let r = get(s.addr, "/api/endgame", None).await;
    assert_eq!(r.status, 400, "{}", r.body);
    // The start position: 32 pieces, the tables here hold at most 3.
    let r = probe(&s, legion_rules::INITIAL_LFEN).await;
    assert_eq!(r.status, 404, "{}", r.body);
    assert_eq!(r.json()["code"], "server.endgame_too_many");
    // Few pieces, but no table for King and Rook against King here.
    let r = probe(&s, "k7/8/1K6/8/8/8/8/7R w - 0 1").await;
    assert_eq!(r.status, 404, "{}", r.body);
    assert_eq!(r.json()["code"], "server.endgame_missing");
    // Castling rights (White's long castling, Rook a1 and King e1): no
    // table holds such a position.
    let r = probe(&s, "4k3/8/8/8/8/8/8/R3K3 w Q 0 1").await;
    assert_eq!(r.status, 404, "{}", r.body);
    assert_eq!(r.json()["code"], "server.endgame_not_covered");

    // A damaged table is the server's fault, answered 500 with an id.
    let path = t.path().join("KT_vs_K.legtb");
    let mut bytes = std::fs::read(&path).unwrap();
    let at = bytes.len() / 2;
    bytes[at] ^= 0xFF;
    std::fs::write(&path, &bytes).unwrap();
    let r = probe(&s, "8/8/8/8/3T4/8/8/K6k w - 0 1").await;
    assert_eq!(r.status, 500, "{}", r.body);
    assert!(r.json()["id"].is_string());

    // A server with no tables says so.
    let (none, _db2) = server_with(None, 0).await;
    let r = probe(&none, "k7/8/1K6/8/8/8/7Q/8 w - 0 1").await;
    assert_eq!(r.status, 404, "{}", r.body);
    assert_eq!(r.json()["code"], "server.endgames_off");
}

#[tokio::test]
async fn lookups_are_rate_limited_per_client() {
    let t = tables();
    let (s, _db) = server_with(Some(t.path()), 2).await;
    for _ in 0..2 {
        assert_eq!(probe(&s, "k7/8/1K6/8/8/8/7Q/8 w - 0 1").await.status, 200);
    }
    let r = probe(&s, "k7/8/1K6/8/8/8/7Q/8 w - 0 1").await;
    assert_eq!(r.status, 429, "{}", r.body);
    assert_eq!(r.json()["code"], "server.rate_limited");
}

#[tokio::test]
async fn an_ending_without_a_table_is_solved_on_demand() {
    // A new site: an empty folder, endings of up to 3 pieces solved when
    // asked for. The mate in one of the first test (KQ vs K, 5.1, 5.2).
    let folder = tempfile::tempdir().unwrap();
    let (dir, db) = temp_db("endgame-solve");
    let mut c = config(db);
    c.endgames = Some(folder.path().to_path_buf());
    c.solve_endings = 3;
    let s = start_config(c).await;
    let lfen = "k7/8/1K6/8/8/8/7Q/8 w - 0 1";
    let first = probe(&s, lfen).await;
    assert_eq!(first.status, 202, "{}", first.body);
    assert_eq!(first.json()["solving"], "KQ vs K");
    // Asked again until solved (half a second or so), then the table's
    // answer, as from a table built beforehand.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    let v = loop {
        let r = probe(&s, lfen).await;
        match r.status {
            200 => break r.json(),
            202 => assert_eq!(r.json()["solving"], "KQ vs K"),
            other => panic!("{other}: {}", r.body),
        }
        assert!(std::time::Instant::now() < deadline, "not solved in 120 s");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    };
    assert_eq!(v["category"], "win");
    assert_eq!(v["plies"], 1);
    assert_eq!(find(&v["moves"], "h2h8")["plies"], 1);
    // The table and those of the endings it leads to are on disk (K vs K
    // after the Queen is taken; K vs - after the mate).
    for name in ["KQ vs K", "K vs K"] {
        let m: Material = name.parse().unwrap();
        assert!(folder.path().join(m.file_name()).exists(), "{name}");
    }
    // Four pieces are more than this server solves: refused at once.
    let r = probe(&s, "k7/m7/1K6/8/8/8/7Q/8 w - 0 1").await;
    assert_eq!(r.status, 404, "{}", r.body);
    assert_eq!(r.json()["code"], "server.endgame_too_many");
    drop(s);
    drop(dir);
}
