//! The storage interface on both databases: SQLite always, PostgreSQL
//! when the test script starts one (`LEGION_TEST_BACKEND=postgres`, see
//! scripts/with-postgres.sh). The same expectations for both.

use legion_server::games::clock::Clock;
use legion_server::games::ids::{GameId, SeatToken, SecretHash};
use legion_server::games::model::{Declared, Mode, Side};
use legion_server::store::{GameRow, Store, StoreError, Write};

fn id(s: &str) -> GameId {
    GameId::parse(s).unwrap()
}

fn secret(s: &str) -> SecretHash {
    SeatToken::parse(s).unwrap().hash()
}

fn row(name: &str) -> GameRow {
    let mut r = GameRow::new(
        &id(name),
        Mode::Friend,
        "default",
        legion_rules::INITIAL_LFEN,
        1,
    );
    r.level = Some(7);
    r.white_seat = Some(secret("w"));
    r.invite = Some(secret("inv"));
    r.clock = Some(Clock::new(60_000, 1000));
    r.draw_offer = Some(Side::Black);
    r.deadline_ms = Some(77);
    r
}

/// The databases to check: (name, location to open, again).
async fn backends(dir: &std::path::Path) -> Vec<(&'static str, String)> {
    let mut out = vec![("sqlite", dir.join("s.db").display().to_string())];
    if std::env::var("LEGION_TEST_BACKEND").as_deref() == Ok("postgres") {
        let c = crate::common::on_backend(legion_server::Config::local(dir.join("pg.db"))).await;
        out.push(("postgres", c.postgres.expect("a PostgreSQL URL")));
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_moves_and_analyses_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    for (name, at) in backends(dir.path()).await {
        let r = row("abc");
        // Each write names the version after the one it read.
        let append = |ply: usize, text: &str| Write::Append {
            row: GameRow {
                version: ply as i64 + 1,
                ..r.clone()
            },
            ply,
            text: text.into(),
            now_ms: 5,
        };
        {
            let s = Store::open(&at).await.unwrap();
            s.write(Write::Create(r.clone())).await.unwrap();
            s.write(append(0, "c3d4")).await.unwrap();
            s.write(append(1, "f6e5")).await.unwrap();
            // The same ply twice: the database refuses the second (one
            // move a ply, whoever races), and nothing else suffers.
            let twice = s.write(append(1, "b6a5")).await;
            assert!(
                matches!(twice, Err(StoreError::Stale(ref id)) if id == "abc"),
                "{name}: a second move at ply 1: {twice:?}"
            );
        }
        let s = Store::open(&at).await.unwrap();
        let (back, moves) = s.load(&id("abc")).await.unwrap().unwrap();
        assert_eq!(
            back,
            GameRow {
                version: 2,
                ..r.clone()
            },
            "{name}"
        );
        assert_eq!(s.version(&id("abc")).await.unwrap(), Some(2), "{name}");
        assert_eq!(s.version(&id("nope")).await.unwrap(), None, "{name}");
        assert_eq!(moves, vec!["c3d4", "f6e5"], "{name}");
        // Off-board state, truncation, deadlines.
        let mut changed = r.clone();
        changed.declared = Some(Declared::Resigned(Side::White));
        changed.deadline_ms = None;
        changed.black_seat = Some(secret("b"));
        changed.rematch = Some(id("next"));
        changed.version = 3;
        s.write(Write::Truncate {
            row: changed.clone(),
            ply: 1,
        })
        .await
        .unwrap();
        let (back, moves) = s.load(&id("abc")).await.unwrap().unwrap();
        assert_eq!(
            (back, moves),
            (changed.clone(), vec!["c3d4".to_string()]),
            "{name}"
        );
        // A change made from a copy older than the stored game is refused
        // and changes nothing, whatever it is.
        let mut old = changed.clone();
        old.declared = None;
        for w in [
            Write::Update(old.clone()),
            Write::Truncate {
                row: old.clone(),
                ply: 0,
            },
        ] {
            let e = s.write(w).await.unwrap_err();
            assert!(matches!(e, StoreError::Stale(_)), "{name}: {e}");
        }
        let (back, moves) = s.load(&id("abc")).await.unwrap().unwrap();
        assert_eq!((back, moves.len()), (changed, 1), "{name}");
        assert!(s.load(&id("nope")).await.unwrap().is_none(), "{name}");
        let mut timed = row("timed");
        timed.deadline_ms = Some(500);
        s.write(Write::Create(timed)).await.unwrap();
        assert_eq!(s.due(499).await.unwrap(), Vec::<GameId>::new(), "{name}");
        assert_eq!(s.due(500).await.unwrap(), vec![id("timed")], "{name}");
        // Analyses: stored, replaced, read back.
        assert_eq!(s.analysis(&id("abc")).await.unwrap(), None, "{name}");
        for report in ["{\"a\":1}", "{\"a\":2}"] {
            s.write(Write::Analysis {
                id: id("abc"),
                report: report.into(),
            })
            .await
            .unwrap();
        }
        assert_eq!(
            s.analysis(&id("abc")).await.unwrap().as_deref(),
            Some("{\"a\":2}"),
            "{name}"
        );
        s.check().await.unwrap();
        // Opening again migrates nothing twice.
        drop(s);
        Store::open(&at).await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn racing_writers_at_one_ply_have_exactly_one_winner() {
    let dir = tempfile::tempdir().unwrap();
    for (name, at) in backends(dir.path()).await {
        let s = std::sync::Arc::new(Store::open(&at).await.unwrap());
        let r = row("race");
        s.write(Write::Create(r.clone())).await.unwrap();
        let tries: Vec<_> = ["c3d4", "a3b4", "e3f4", "g3h4", "c3b4", "e3d4"]
            .into_iter()
            .map(|m| {
                let (s, r) = (s.clone(), r.clone());
                tokio::spawn(async move {
                    s.write(Write::Append {
                        row: GameRow { version: 1, ..r },
                        ply: 0,
                        text: m.into(),
                        now_ms: 1,
                    })
                    .await
                    .map(|()| m)
                })
            })
            .collect();
        let mut won = Vec::new();
        for t in tries {
            if let Ok(m) = t.await.unwrap() {
                won.push(m);
            }
        }
        assert_eq!(won.len(), 1, "{name}: {won:?}");
        let (_, moves) = s.load(&id("race")).await.unwrap().unwrap();
        assert_eq!(moves, won, "{name}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn writes_of_many_games_at_once_are_each_judged_alone() {
    // Both databases commit the writes that wait together (SQLite in one
    // transaction, PostgreSQL in one statement): each is still accepted or
    // refused on its own.
    let dir = tempfile::tempdir().unwrap();
    for (name, at) in backends(dir.path()).await {
        let s = Store::open(&at).await.unwrap();
        let names: Vec<String> = (0..100).map(|i| format!("many{i}")).collect();
        let made =
            futures_util::future::join_all(names.iter().map(|n| s.write(Write::Create(row(n)))))
                .await;
        assert!(made.iter().all(Result::is_ok), "{name}: {made:?}");
        // A move in each game; every third names a version that does not
        // follow the stored one (a write from an old copy).
        let stale = |i: usize| i.is_multiple_of(3);
        let moved = futures_util::future::join_all(names.iter().enumerate().map(|(i, n)| {
            s.write(Write::Append {
                row: GameRow {
                    version: if stale(i) { 0 } else { 1 },
                    ..row(n)
                },
                ply: 0,
                text: "c3d4".into(),
                now_ms: 1,
            })
        }))
        .await;
        for (i, (n, r)) in names.iter().zip(moved).enumerate() {
            match r {
                Err(StoreError::Stale(ref id)) if stale(i) && id == n => {}
                Ok(()) if !stale(i) => {}
                other => panic!("{name}: game {n}: {other:?}"),
            }
            let (back, moves) = s.load(&id(n)).await.unwrap().unwrap();
            let want: Vec<String> = if stale(i) {
                vec![]
            } else {
                vec!["c3d4".into()]
            };
            assert_eq!(moves, want, "{name}: game {n}");
            assert_eq!(
                back.version,
                if stale(i) { 0 } else { 1 },
                "{name}: game {n}"
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_word_in_the_database_is_an_error_not_a_default() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.db");
    let s = Store::open(&path.display().to_string()).await.unwrap();
    s.write(Write::Create(row("abc"))).await.unwrap();
    {
        let c = rusqlite::Connection::open(&path).unwrap();
        c.execute("UPDATE games SET declared = 'resign:x'", [])
            .unwrap();
    }
    let e = s.load(&id("abc")).await.unwrap_err();
    assert!(matches!(e, StoreError::Corrupt { .. }), "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn migrating_copies_and_checks_every_game() {
    use legion_server::store::migrate::{MigrateError, copy};
    let dir = tempfile::tempdir().unwrap();
    let from = Store::open(&dir.path().join("from.db").display().to_string())
        .await
        .unwrap();
    for (i, id) in ["g1", "g2", "g3"].iter().enumerate() {
        let r = row(id);
        from.write(Write::Create(r.clone())).await.unwrap();
        for (ply, m) in ["c3d4", "f6e5", "d4f6"].iter().take(i + 1).enumerate() {
            let w = Write::Append {
                row: GameRow {
                    version: ply as i64 + 1,
                    ..r.clone()
                },
                ply,
                text: m.to_string(),
                now_ms: 100 + ply as i64,
            };
            from.write(w).await.unwrap();
        }
    }
    from.write(Write::Analysis {
        id: id("g2"),
        report: "{}".into(),
    })
    .await
    .unwrap();
    let mut targets = vec![dir.path().join("to.db").display().to_string()];
    targets.extend(
        backends(dir.path())
            .await
            .into_iter()
            .filter(|b| b.0 == "postgres")
            .map(|b| b.1),
    );
    for at in targets {
        let to = Store::open(&at).await.unwrap();
        let mut seen = Vec::new();
        let r = copy(&from, &to, |phase, done, total| {
            seen.push((phase.to_string(), done, total))
        })
        .await
        .unwrap();
        assert_eq!(
            (r.games, r.copied, r.present, r.moves, r.analyses),
            (3, 3, 0, 6, 1),
            "{at}"
        );
        assert_eq!(seen.last().unwrap(), &("check".to_string(), 3, 3));
        for g in ["g1", "g2", "g3"] {
            assert_eq!(
                to.export(&id(g)).await.unwrap(),
                from.export(&id(g)).await.unwrap(),
                "{at} {g}"
            );
        }
        // Again: nothing to copy, everything checked.
        let r = copy(&from, &to, |_, _, _| {}).await.unwrap();
        assert_eq!((r.copied, r.present), (0, 3), "{at}");
        // A game that differs in the target stops the migration.
        let mut other = row("g4");
        from.write(Write::Create(other.clone())).await.unwrap();
        other.level = Some(1);
        to.write(Write::Create(other)).await.unwrap();
        let e = copy(&from, &to, |_, _, _| {}).await.unwrap_err();
        assert!(
            matches!(e, MigrateError::Conflict(ref id) if id == "g4"),
            "{e}"
        );
        // g4 is left in the source: remove it before the next target.
        let c = rusqlite::Connection::open(dir.path().join("from.db")).unwrap();
        c.execute("DELETE FROM games WHERE id = 'g4'", []).unwrap();
    }
    // Games only so far: nothing would be left behind. An account and a
    // study (what `copy` does not copy yet) are counted, so that
    // `legion migrate` says so instead of dropping them silently.
    use legion_server::store::migrate::left_behind;
    assert_eq!(left_behind(&from).await.unwrap(), vec![]);
    let c = rusqlite::Connection::open(dir.path().join("from.db")).unwrap();
    c.execute_batch(
        "INSERT INTO accounts (id, username, username_key, created_ms) VALUES (1, 'Ann', 'ann', 0);
         INSERT INTO studies (id, owner_account, title, chapters, created_ms, updated_ms, version)
             VALUES ('s1', 1, 'A study', '[]', 0, 0, 1);",
    )
    .unwrap();
    assert_eq!(
        left_behind(&from).await.unwrap(),
        vec![("accounts", 1), ("studies", 1)]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_server_on_one_sqlite_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let at = dir.path().join("one.db").display().to_string();
    let first = Store::open(&at).await.unwrap();
    let second = Store::open(&at).await;
    let Err(e) = second else {
        panic!("a second store opened the same SQLite file");
    };
    assert!(matches!(e, StoreError::InUse(_)), "{e:?}");
    let said = e.to_string();
    assert!(
        said.contains("one.db is in use by another server") && !said.contains('\n'),
        "{said}"
    );
    // The whole server says the same before it listens.
    let refused = legion_server::app(&legion_server::Config::local(&at)).await;
    assert!(
        refused
            .err()
            .is_some_and(|e| e.to_string().contains("in use by another server")),
        "a second server started on the same file"
    );
    // Once the first has stopped, the file is free again.
    drop(first);
    Store::open(&at).await.unwrap();
}
