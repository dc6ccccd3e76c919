//! The terminal game, the match runner, bench and openings, run as a
//! user runs them.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn legion_with_input(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_legion"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run legion");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).to_string()
}

#[test]
fn play_explains_illegal_moves_and_answers() {
    let dir = std::env::temp_dir().join(format!("legion-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.pgn");
    let input = format!(
        "c3c4\nNb1c3\nc3-d4\nmoves\nundo\ne3f4\nsave {}\nresign\nquit\n",
        file.display()
    );
    let o = legion_with_input(&["play", "--level", "1", "--seed", "7"], &input);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = text(&o);
    // The illegal attempts are explained with their rule.
    assert!(
        out.contains("Not played: 2.4: the man on c3 cannot go to c4"),
        "{out}"
    );
    assert!(out.contains("Not played: 2.1"), "{out}");
    assert!(out.contains("You play c3-d4"), "{out}");
    assert!(out.contains("Black plays"), "{out}");
    assert!(out.contains("Legal moves: "), "{out}");
    assert!(out.contains("You play e3-f4"), "{out}");
    assert!(
        out.contains("Game over: Black wins: White resigned. Result 0-1."),
        "{out}"
    );
    // The saved record reads back: after undo only e3-f4 and the reply.
    let record = std::fs::read_to_string(&file).unwrap();
    let r = legion_rules::Record::parse(&record).unwrap();
    assert_eq!(r.game.moves().len(), 2, "{record}");
    assert!(record.starts_with("[Event \"Legion terminal game\"]"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn play_as_black_and_end_of_input() {
    let o = legion_with_input(&["play", "--color", "black", "--level", "1"], "");
    assert!(o.status.success());
    let out = text(&o);
    assert!(out.contains("you play Black"), "{out}");
    assert!(out.contains("White plays"), "{out}");
}

#[test]
fn watch_plays_a_whole_game() {
    // A short endgame: the engine plays both sides to the end.
    let o = legion_with_input(
        &[
            "play",
            "--watch",
            "--level",
            "3",
            "--delay",
            "0",
            "--fen",
            "3k4/8/8/8/8/8/2Q5/4K3 w - 0 1",
        ],
        "",
    );
    assert!(o.status.success());
    let out = text(&o);
    assert!(out.contains("Game over: "), "{out}");
}

#[test]
fn match_reports_elo_and_saves_games() {
    let dir = std::env::temp_dir().join(format!("legion-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("games.pgn");
    let o = legion_with_input(
        &[
            "match",
            "--engine1",
            "engine:level=4",
            "--engine2",
            "random",
            "--games",
            "4",
            "--depth",
            "2",
            "--save",
            file.to_str().unwrap(),
        ],
        "",
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = text(&o);
    assert!(out.contains("games 4: engine1 wins"), "{out}");
    assert!(out.contains("elo "), "{out}");
    assert!(out.matches("game ").count() >= 4, "{out}");
    let records =
        legion_rules::Record::parse_many(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(records.len(), 4);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn match_against_an_external_engine_over_the_protocol() {
    let me = env!("CARGO_BIN_EXE_legion");
    let o = legion_with_input(
        &[
            "match",
            "--engine1",
            &format!("cmd:{me} uci;Level=2"),
            "--engine2",
            "greedy",
            "--games",
            "2",
            "--movetime",
            "20",
            "--quiet",
        ],
        "",
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = text(&o);
    assert!(out.contains("engine1: Legion"), "{out}");
    assert!(out.contains("games 2:"), "{out}");
}

#[test]
fn bad_match_arguments_are_one_line_errors() {
    for args in [
        vec!["match", "--engine1", "nobody", "--engine2", "random"],
        vec![
            "match",
            "--engine1",
            "random",
            "--engine2",
            "random",
            "--sprt",
            "5",
        ],
        vec![
            "match",
            "--engine1",
            "cmd:/nonexistent/engine",
            "--engine2",
            "random",
            "--games",
            "2",
        ],
    ] {
        let o = legion_with_input(&args, "");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

#[test]
fn bench_prints_a_node_signature() {
    let a = legion_with_input(&["bench", "--depth", "4"], "");
    let b = legion_with_input(&["bench", "--depth", "4"], "");
    let nodes = |o: &Output| {
        text(o)
            .lines()
            .find(|l| l.starts_with("nodes "))
            .map(str::to_string)
    };
    assert!(nodes(&a).is_some());
    // Same search, same signature.
    assert_eq!(nodes(&a), nodes(&b));
    // The built-in network given by its file searches the same tree.
    let net = concat!(env!("CARGO_MANIFEST_DIR"), "/../engine/nets/legion.nnue");
    let c = legion_with_input(&["bench", "--depth", "4", "--evalfile", net], "");
    assert!(c.status.success(), "{}", String::from_utf8_lossy(&c.stderr));
    assert_eq!(nodes(&c), nodes(&a));
    // A file that is not a network is refused with its name, not searched.
    let bad = legion_with_input(&["bench", "--evalfile", "Cargo.toml"], "");
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("Cargo.toml"));
    // --eval names another evaluation: both at once is an error.
    let both = legion_with_input(&["bench", "--eval", "linear", "--evalfile", net], "");
    assert_eq!(both.status.code(), Some(2));
}

#[test]
fn openings_are_valid_positions() {
    let o = legion_with_input(&["openings", "--count", "3", "--depth", "3"], "");
    let out = text(&o);
    let lines: Vec<&str> = out.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 3, "{out}");
    for l in lines {
        assert!(l.parse::<legion_rules::Position>().is_ok(), "{l}");
    }
}
