//! The solver's tables as the engine reads them (`legion_engine::endgames`):
//! written, read back, probed, and used by the search. Two- and
//! three-piece endings only (seconds).

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use legion_engine::endgames::{DEFAULT_BUDGET, ProbeError, Tablebase, Value};
use legion_engine::search::{self, Config, Limits};
use legion_engine::{Table, endgames};
use legion_lab::endgames::{Material, Solver};
use legion_rules::Position;

/// A fresh folder under the system's temporary one.
fn folder(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("legion-tables-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Solves `endings` (and what they lead to) and writes them to `dir`.
fn build(dir: &std::path::Path, endings: &[&str]) -> Solver<'static> {
    let mut solver = Solver::new();
    for m in endings {
        solver.solve(&m.parse::<Material>().unwrap()).unwrap();
    }
    solver.write_tables(dir, |_, _| {}).unwrap();
    solver
}

fn pos(lfen: &str) -> Position {
    lfen.parse().unwrap()
}

#[test]
fn the_files_give_back_what_the_solver_found() {
    let dir = folder("roundtrip");
    let mut solver = build(&dir, &["KQ vs K", "KT vs K"]);
    let tb = Tablebase::open(&dir, DEFAULT_BUDGET).unwrap();
    assert_eq!(tb.max_units(), 3);
    // Every placement of KQ vs K, as the solver has it and as the file has it.
    let m: Material = "KQ vs K".parse().unwrap();
    let layout = endgames::Layout::new(&m);
    let mut checked = 0;
    for i in 0..layout.size() {
        if let Some(p) = layout.position(i) {
            let (v, dtz) = solver.probe_with_dtz(&p).unwrap().unwrap();
            let got = tb.probe(&p).unwrap();
            assert_eq!((got.value, got.dtz), (v, dtz), "{}", p.to_lfen());
            checked += 1;
        }
    }
    // docs/STRENGTH.md: 144,508 positions White to move, 223,580 Black.
    assert_eq!(checked, 144_508 + 223_580);

    // By hand: Kb6, Qh2 against Ka8, White to move. Qh8 mates (a7, b7
    // the King's; b8, a8 the Queen's: 3.4); the mated King leaves the
    // board (5.1) and Black, with nothing, has no move: lost (5.2). Won
    // in 1 ply; the King's removal resets the clock (5.3): DTZ 1.
    let p = tb.probe(&pos("k7/8/1K6/8/8/8/7Q/8 w - 0 1")).unwrap();
    assert_eq!((p.value, p.dtz), (Value::Win(1), 1));
    // KT vs K is drawn in every position (docs/STRENGTH.md).
    let p = tb.probe(&pos("8/8/8/8/3T4/8/8/K6k w - 0 1")).unwrap();
    assert_eq!((p.value, p.dtz), (Value::Draw, 0));
    // Not in these tables: four pieces, an ending not built, castling
    // rights, the mate-ends-game option (5.4).
    assert!(matches!(
        tb.probe(&pos("k7/8/1K6/8/8/8/7Q/7R w - 0 1")),
        Err(ProbeError::TooManyPieces { pieces: 4, max: 3 })
    ));
    assert!(matches!(
        tb.probe(&pos("k7/8/1K6/8/8/8/8/7R w - 0 1")),
        Err(ProbeError::Missing(m)) if m == "KR vs K"
    ));
    assert!(matches!(
        tb.probe(&pos("4k3/8/8/8/8/8/8/R3K3 w Q 0 1")),
        Err(ProbeError::NotCovered(_))
    ));
    let mate_ends = Position::from_lfen(
        "k7/8/1K6/8/8/8/7Q/8 w - 0 1",
        legion_rules::Rules::MATE_ENDS_GAME,
    )
    .unwrap();
    assert!(matches!(
        tb.probe(&mate_ends),
        Err(ProbeError::NotCovered(_))
    ));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn tables_are_loaded_on_demand_within_the_budget() {
    let dir = folder("budget");
    build(&dir, &["KQ vs K", "KT vs K"]);
    // A budget below one three-piece table: each probe of another ending
    // drops the one before; nothing is read before the first probe.
    let tb = Tablebase::open(&dir, 1).unwrap();
    assert_eq!(tb.loaded_bytes(), 0);
    tb.probe(&pos("k7/8/1K6/8/8/8/7Q/8 w - 0 1")).unwrap();
    let kq = tb.loaded_bytes();
    assert_eq!(
        kq as u64,
        2 * "KQ vs K".parse::<Material>().unwrap().index_size()
    );
    tb.probe(&pos("8/8/8/8/3T4/8/8/K6k w - 0 1")).unwrap();
    assert_eq!(
        tb.loaded_bytes() as u64,
        2 * "KT vs K".parse::<Material>().unwrap().index_size()
    );
    std::fs::remove_dir_all(dir).unwrap();
}

/// Depth-1 searches of `lfen`, with and without the tables.
fn best_moves(tb: &Arc<Tablebase>, lfen: &str) -> (String, String) {
    let p = pos(lfen);
    let limits = Limits {
        depth: Some(1),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let run = |endgames: Option<Arc<Tablebase>>| {
        let config = Config {
            net: None,
            endgames,
            ..Config::default()
        };
        let out = search::search(
            &p,
            &[],
            &limits,
            &config,
            &Table::new(1),
            &stop,
            &mut |_| {},
        );
        legion_rules::notation::canonical(&p, out.best.unwrap())
    };
    (run(Some(tb.clone())), run(None))
}

#[test]
fn the_search_plays_the_tables_moves() {
    let dir = folder("search");
    build(&dir, &["KQ vs K"]);
    let tb = Arc::new(Tablebase::open(&dir, DEFAULT_BUDGET).unwrap());
    // Kb6, Qh2 against Ka8: Qb8+ would give the Queen away (Kxb8, two
    // lone Kings: drawn), and every move that mates or leaves Black
    // without a move wins in one ply (5.1, 5.2).
    let lfen = "k7/8/1K6/8/8/8/7Q/8 w - 0 1";
    let (with, _) = best_moves(&tb, lfen);
    let p = pos(lfen);
    let mv = legion_rules::notation::parse_move(&p, &with).unwrap();
    assert_eq!(
        tb.probe(&p.after(mv)).unwrap().value,
        Value::Loss(0),
        "{with}"
    );

    // A long win: the search with the tables keeps a winning move with
    // the fewest plies to the next reset of the clock (5.3); a depth-1
    // search without them does not see that far.
    let lfen = "8/8/8/2k5/8/8/8/K6Q w - 0 1";
    let (with, without) = best_moves(&tb, lfen);
    let p = pos(lfen);
    let ranked = tb.probe_moves(&p).unwrap();
    let step = |mv: legion_rules::Move, z: u16| {
        if p.after(mv).halfmove_clock() == 0 {
            1
        } else {
            z + 1
        }
    };
    let fewest = ranked
        .iter()
        .filter(|(_, q)| matches!(q.value, Value::Loss(_)))
        .map(|(mv, q)| step(*mv, q.dtz))
        .min()
        .unwrap();
    let mv = legion_rules::notation::parse_move(&p, &with).unwrap();
    let chosen = ranked.iter().find(|(m, _)| *m == mv).unwrap().1;
    assert!(matches!(chosen.value, Value::Loss(_)), "{with}");
    assert_eq!(step(mv, chosen.dtz), fewest, "{with}");
    assert_ne!(with, without, "the tables changed nothing here");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn the_protocol_option_reads_a_folder_or_says_why_not() {
    let dir = folder("uci");
    build(&dir, &["KT vs K"]);
    let mut o = legion_engine::Options::default();
    o.set_endgame_path(dir.to_str().unwrap()).unwrap();
    assert!(!o.endgames.as_ref().unwrap().is_empty());
    o.set_endgame_path("").unwrap();
    assert!(o.endgames.is_none());
    let err = o.set_endgame_path("/no/such/folder").unwrap_err();
    assert!(err.to_string().starts_with("/no/such/folder: "), "{err}");
    std::fs::remove_dir_all(dir).unwrap();
}
