//! The `legion` command's output formats are a contract scripts depend on:
//! these tests run the binary as a user would.

use std::process::{Command, Output};

fn legion(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_legion"))
        .args(args)
        .output()
        .expect("run legion")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// A failure: status 2, one line on stderr, no panic or backtrace.
fn assert_one_line_error(o: &Output, contains: &str) {
    assert_eq!(o.status.code(), Some(2), "stderr: {}", stderr(o));
    let err = stderr(o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("legion: "), "{err}");
    assert!(err.contains(contains), "{err}");
    assert!(
        !err.contains("panicked") && !err.contains("backtrace"),
        "{err}"
    );
    assert!(o.stdout.is_empty());
}

#[test]
fn moves_lists_the_26_first_moves_sorted() {
    let o = legion(&["moves"]);
    assert!(o.status.success());
    let lines: Vec<String> = stdout(&o).lines().map(str::to_string).collect();
    let mut expected: Vec<&str> =
        "a3b4 c3b4 c3d4 e3d4 e3f4 g3f4 g3h4 g1e2 g1f3 g1h3 f1e2 f1d3 f1c4 f1b5 \
         f1a6 f1g2 f1h3 d1c2 d1b3 d1a4 d1e2 d1f3 d1g4 d1h5 e1e2 a1a2"
            .split_whitespace()
            .collect();
    expected.sort();
    assert_eq!(lines, expected);
}

#[test]
fn moves_with_a_position_and_the_rule_option() {
    // Mate on the board: under mate-ends-game no move; by default the
    // King was removed at once (5.1) and Black plays on.
    let fen = "3k3R/7R/8/8/8/8/8/4K3 b - 0 1";
    let o = legion(&["moves", "--fen", fen, "--mate-ends-game"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o), "");
    let o = legion(&["moves", "--fen", fen]);
    assert!(o.status.success());
    assert_eq!(stdout(&o), "", "Black has no piece left at all");
}

#[test]
fn perft_prints_nodes_last_and_divide_per_move() {
    let o = legion(&["perft", "--depth", "3"]);
    assert_eq!(stdout(&o), "nodes 18067\n");
    let o = legion(&["perft", "--depth", "2", "--divide"]);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 27);
    assert_eq!(*lines.last().unwrap(), "nodes 670");
    let mut moves: Vec<&str> = lines[..26]
        .iter()
        .map(|l| l.split(' ').next().unwrap())
        .collect();
    let sorted = {
        let mut s = moves.clone();
        s.sort();
        s
    };
    assert_eq!(moves, sorted);
    let total: u64 = lines[..26]
        .iter()
        .map(|l| l.split(' ').nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(total, 670);
    moves.dedup();
    assert_eq!(moves.len(), 26);
    let o = legion(&["perft", "--depth", "0"]);
    assert_eq!(stdout(&o), "nodes 1\n");
}

#[test]
fn apply_plays_moves_in_either_notation() {
    // d4xe5 lands on f6 (4.2 forces it), e7xf6 lands on g5, then Nf3.
    let o = legion(&["apply", "c3d4", "f6-e5", "d4:f6", "e7xg5", "Nf3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "rnbkqbnr/m1m3m1/1m1m3m/6m1/8/M3MNM1/1M1M1M1M/RNBQKB1R b KQkq 1 3\n"
    );
    let o = legion(&["apply", "--fen", "3k4/8/8/8/8/8/8/R3K2R w KQ 0 1", "O-O"]);
    assert_eq!(stdout(&o), "3k4/8/8/8/8/8/8/R4RK1 b - 1 1\n");
}

#[test]
fn show_draws_the_board_with_constructs() {
    let o = legion(&["show", "--fen", "3k4/8/8/2[Qm]5/8/8/8/4K3 b - 0 1"]);
    let out = stdout(&o);
    assert!(out.contains("[Qm]"), "{out}");
    assert!(out.contains("Black to move"), "{out}");
    assert!(out.contains("Phase 1"), "{out}");
    let o = legion(&["show", "--fen", "6k1/8/8/8/8/8/8/4K1R1 b - 0 1"]);
    assert!(stdout(&o).contains("in check"));
    let o = legion(&["show", "--fen", "3k4/8/8/8/8/8/8/3R4 b - 0 1"]);
    assert!(stdout(&o).contains("Phase 2: White has lost its King"));
}

#[test]
fn bad_input_is_one_line_with_status_2() {
    assert_one_line_error(&legion(&["moves", "--fen", "8/8/8 w - 0 1"]), "6.2");
    assert_one_line_error(
        &legion(&["moves", "--fen", "3k4/8/8/8/8/8/8/1M2K3 w - 0 1"]),
        "1.4",
    );
    assert_one_line_error(&legion(&["apply", "c3c4"]), "move 1 'c3c4'");
    assert_one_line_error(&legion(&["apply", "c3d4", "g1f3"]), "it is Black's turn");
    assert_one_line_error(&legion(&["apply", "c3d4", "d6d5"]), "2.4");
    assert_one_line_error(&legion(&["apply", "zz"]), "6.4");
    assert_one_line_error(&legion(&["perft"]), "--depth");
    assert_one_line_error(&legion(&["perft", "--depth", "-1"]), "-1");
    assert_one_line_error(&legion(&["frobnicate"]), "frobnicate");
    assert_one_line_error(&legion(&["moves", "--fen", "\u{1F600}"]), "LFEN");
}

#[test]
fn endgame_solves_a_tiny_ending_and_refuses_bad_material() {
    // A lone King against nothing (5.2): White to move wins in one ply,
    // Black to move has already lost.
    let o = legion(&["endgame", "--material", "K vs -"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("ending K vs - "), "{out}");
    let white: Vec<&str> = out
        .lines()
        .find(|l| l.starts_with("White to move"))
        .unwrap()
        .split_whitespace()
        .collect();
    assert_eq!(white[3..], ["64", "64", "0", "0", "1", "0"]);
    let o = legion(&["endgame", "--fen", "8/8/8/8/8/8/8/K7 b - 0 1", "--verify"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("8/8/8/8/8/8/8/K7 b - 0 1: Black to move loses in 0 plies, DTZ 0"),
        "{out}"
    );
    assert!(
        out.contains("verified: the values of all 128 positions"),
        "{out}"
    );
    assert_one_line_error(
        &legion(&["endgame", "--material", "KX vs K"]),
        "'X' is not a piece letter",
    );
    assert_one_line_error(
        &legion(&["endgame", "--material", "KQRB vs KN"]),
        "placements",
    );
}

/// The training pipeline as the docs give it: data, a net from it, and
/// a match with that net; bad arguments are one-line errors. The games
/// start from the balanced openings: from random moves at ply 1 a short
/// search often finds a forced result within a few plies, and three such
/// games may hold no position outside the held-out game 0, whatever net
/// plays them.
#[test]
fn datagen_then_train_then_play_with_the_net() {
    let dir = std::env::temp_dir().join(format!("legion-cli-nnue-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("data.txt");
    let net = dir.join("net.nnue");
    let (d, n) = (data.to_str().unwrap(), net.to_str().unwrap());
    let o = legion(&[
        "datagen",
        "--games",
        "3",
        "--nodes",
        "300",
        "--start",
        "book",
        "--max-plies",
        "40",
        "--format",
        "text",
        "--out",
        d,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("0 games were already in"),
        "{}",
        stdout(&o)
    );
    // Its stderr is no terminal, so the bar becomes a log line (at the
    // end, and once a minute on longer runs).
    assert!(stderr(&o).contains("3/3 games, "), "{}", stderr(&o));
    let text = std::fs::read_to_string(&data).unwrap();
    assert_eq!(text.lines().filter(|l| l.starts_with("# game ")).count(), 3);
    // Run again: nothing left to do.
    let o = legion(&["datagen", "--games", "3", "--nodes", "300", "--out", d]);
    assert!(
        stdout(&o).starts_with("3 games were already in"),
        "{}",
        stdout(&o)
    );
    assert!(stdout(&o).contains("played 0 more"), "{}", stdout(&o));
    assert!(stdout(&o).contains("(text)"), "{}", stdout(&o));

    // New files are binary; the text file converts to the same games.
    let bin = dir.join("data.bin");
    let conv = dir.join("conv.bin");
    let (b, c) = (bin.to_str().unwrap(), conv.to_str().unwrap());
    let _ = std::fs::remove_file(&bin);
    let _ = std::fs::remove_file(&conv);
    let o = legion(&[
        "datagen",
        "--games",
        "3",
        "--nodes",
        "300",
        "--start",
        "book",
        "--max-plies",
        "40",
        "--out",
        b,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("(binary)"), "{}", stdout(&o));
    assert!(
        std::fs::read(&bin)
            .unwrap()
            .starts_with(b"LGNDATA\0\x01\0\x28\0")
    );
    let o = legion(&["datagen", "convert", "--from", d, "--to", c]);
    assert!(o.status.success(), "{}", stderr(&o));
    let positions = text.lines().filter(|l| !l.starts_with('#')).count();
    assert!(
        stdout(&o).starts_with(&format!("3 games, {positions} positions from")),
        "{}",
        stdout(&o)
    );
    assert_eq!(
        std::fs::metadata(&conv).unwrap().len() as usize,
        16 + 40 * (positions + 3)
    );
    assert_one_line_error(
        &legion(&["datagen", "convert", "--from", d, "--to", c]),
        "conv.bin",
    );
    // A copy of no training game keeps the held-out game 0 alone.
    let held = dir.join("held.bin");
    let h = held.to_str().unwrap();
    let _ = std::fs::remove_file(&held);
    let o = legion(&[
        "datagen",
        "convert",
        "--from",
        d,
        "--to",
        h,
        "--keep-games",
        "0",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    // A game's positions stand before its `# game N` line. Game 0 is held
    // out, so copied whole; a game with no position at all (it ended in
    // the plies datagen skips) is copied as it is, an empty game, so that
    // the copy's games keep their numbers.
    let mut per_game = Vec::new();
    let mut count = 0;
    for line in text.lines() {
        if line.starts_with("# game ") {
            per_game.push(count);
            count = 0;
        } else if !line.starts_with('#') {
            count += 1;
        }
    }
    let empty = per_game.iter().skip(1).filter(|&&n| n == 0).count();
    assert!(
        stdout(&o).starts_with(&format!("{} games, {} positions", 1 + empty, per_game[0])),
        "{} (positions per game: {per_game:?})",
        stdout(&o)
    );
    for bad in [
        &["--keep-positions", "1.5"][..],
        &["--keep-games=-0.1"],
        &["--keep-positions", "0.5", "--keep-games", "0.5"],
    ] {
        let other = dir.join("other.bin");
        let mut args = vec!["datagen", "convert", "--from", d, "--to"];
        args.push(other.to_str().unwrap());
        args.extend_from_slice(bad);
        let o = legion(&args);
        assert!(!o.status.success(), "{bad:?}");
        assert!(
            stderr(&o).contains("not a chance from 0 to 1")
                || stderr(&o).contains("cannot be used with"),
            "{bad:?}: {}",
            stderr(&o)
        );
        assert!(!other.exists(), "{bad:?}");
    }
    assert_one_line_error(
        &legion(&["datagen", "--games", "4", "--format", "text", "--out", b]),
        "resume it in its own format",
    );
    let o = legion(&[
        "train", "--data", b, c, "--out", n, "--epochs", "1", "--batch", "64",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("positions/s"), "{}", stderr(&o));

    let o = legion(&[
        "train", "--data", d, "--out", n, "--epochs", "2", "--batch", "64",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("epoch   2: training loss"),
        "{}",
        stdout(&o)
    );
    // Two epochs of 64-position steps, logged as one last line.
    assert!(stderr(&o).contains(" steps, "), "{}", stderr(&o));
    // A decayed net says so in its description; a decay beyond 1 is refused.
    let decayed = dir.join("decayed.nnue");
    let dn = decayed.to_str().unwrap();
    let o = legion(&[
        "train",
        "--data",
        d,
        "--out",
        dn,
        "--epochs",
        "1",
        "--batch",
        "64",
        "--weight-decay",
        "0.01",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let net = std::fs::read(&decayed).unwrap();
    assert!(
        net.windows(19).any(|w| w == b"--weight-decay 0.01"),
        "the description names the decay"
    );
    let o = legion(&["train", "--data", d, "--out", dn, "--weight-decay", "2"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("not a weight decay from 0 to 1"),
        "{}",
        stderr(&o)
    );
    let spec = format!("engine:evalfile={n}");
    let o = legion(&[
        "match",
        "--engine1",
        &spec,
        "--engine2",
        "engine:eval=linear",
        "--games",
        "2",
        "--nodes",
        "500",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("games 2:"), "{}", stdout(&o));
    // The next generation's data, made with that net by its file.
    let next = dir.join("next.txt");
    let o = legion(&[
        "datagen",
        "--games",
        "1",
        "--nodes",
        "300",
        "--max-plies",
        "20",
        "--evalfile",
        n,
        "--format",
        "text",
        "--out",
        next.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&next).unwrap();
    assert!(text.ends_with("# game 0\n"), "{text}");

    assert_one_line_error(
        &legion(&["datagen", "--evalfile", "/nonexistent/x.nnue", "--out", d]),
        "/nonexistent/x.nnue",
    );
    assert_one_line_error(
        &legion(&["train", "--data", d, "--out", n, "--buckets", "9"]),
        "--buckets must be between 1 and 8",
    );
    assert_one_line_error(
        &legion(&["train", "--data", d, "--out", n, "--scale", "0"]),
        "--scale must be between 1 and 4000",
    );
    assert_one_line_error(
        &legion(&["datagen", "--eval", "best", "--out", d]),
        "unknown evaluation 'best'",
    );
    assert_one_line_error(
        &legion(&["train", "--data", "/nonexistent/data.txt", "--out", n]),
        "/nonexistent/data.txt",
    );
    std::fs::write(dir.join("bad.nnue"), b"not a net").unwrap();
    let bad = format!("engine:evalfile={}", dir.join("bad.nnue").display());
    assert_one_line_error(
        &legion(&[
            "match",
            "--engine1",
            &bad,
            "--engine2",
            "random",
            "--games",
            "2",
        ]),
        "not a Legion network",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
