//! The engine protocol (docs/PROTOCOL.md), driven through the binary as a
//! GUI or match runner would drive it.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_legion"))
            .arg("uci")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start legion uci");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, cmd: &str) {
        writeln!(self.stdin, "{cmd}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Lines up to and including the first that starts with `prefix`.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no '{prefix}' line; saw {seen:?}"));
            let done = line.starts_with(prefix);
            seen.push(line);
            if done {
                return seen;
            }
        }
    }

    fn bestmove(&mut self) -> (String, Vec<String>) {
        let lines = self.until("bestmove");
        let best = lines
            .last()
            .unwrap()
            .split_whitespace()
            .nth(1)
            .unwrap()
            .to_string();
        (best, lines)
    }

    fn quit(mut self) {
        self.send("quit");
        let status = self.child.wait().unwrap();
        assert!(status.success());
    }
}

#[test]
fn handshake_lists_id_and_options() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok");
    assert!(lines[0].starts_with("id name Legion"), "{lines:?}");
    for name in ["Threads", "Hash", "Level", "MateEndsGame"] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {name} "))),
            "{name}"
        );
    }
    e.send("isready");
    assert_eq!(e.until("readyok"), vec!["readyok"]);
    e.quit();
}

#[test]
fn plays_the_forced_capture() {
    let mut e = Engine::start();
    e.send("position startpos moves c3d4 f6e5");
    e.send("go depth 3");
    let (best, lines) = e.bestmove();
    // 4.2: d4xe5 is the only legal move.
    assert_eq!(best, "d4f6");
    let info: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert!(!info.is_empty());
    for key in ["seldepth", "score cp", "nodes", "nps", "time", "pv d4f6"] {
        assert!(info[0].contains(key), "{key}: {}", info[0]);
    }
    e.quit();
}

#[test]
fn reports_a_won_position_as_win() {
    let mut e = Engine::start();
    // Black's King a8 is boxed in by the Queen b6: any quiet White move
    // or Rh8 leaves Black without a legal move (5.2).
    e.send("position lfen k7/8/1Q6/8/8/8/8/4K2R w - 0 1");
    e.send("go depth 4");
    let (_, lines) = e.bestmove();
    assert!(lines.iter().any(|l| l.contains("score win 1")), "{lines:?}");
    // The side to move with no move answers (none).
    e.send("position lfen k7/8/1Q6/8/8/8/8/7K b - 0 1");
    e.send("go depth 2");
    assert_eq!(e.bestmove().0, "(none)");
    e.quit();
}

#[test]
fn infinite_waits_for_stop_and_movetime_is_kept() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    e.send("isready");
    let lines = e.until("readyok");
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "answered before stop"
    );
    e.send("stop");
    let (best, _) = e.bestmove();
    assert_eq!(best.len(), 4);
    let t = Instant::now();
    e.send("go movetime 200");
    e.bestmove();
    assert!(
        t.elapsed() < Duration::from_millis(1500),
        "{:?}",
        t.elapsed()
    );
    e.send("position startpos moves g1f3");
    e.send("go wtime 1000 btime 1000 winc 10 binc 10");
    let (best, _) = e.bestmove();
    assert!(!best.is_empty());
    e.quit();
}

#[test]
fn options_change_the_play() {
    let mut e = Engine::start();
    e.send("setoption name Level value 1");
    e.send("setoption name Threads value 2");
    e.send("setoption name Hash value 8");
    e.send("ucinewgame");
    e.send("position startpos");
    e.send("go");
    assert_eq!(e.bestmove().0.len(), 4, "a level bounds a plain go");
    // mate-ends-game: after Qd1 mate there is no move; by default there is.
    e.send("setoption name Level value 10");
    e.send("setoption name MateEndsGame value true");
    e.send("position lfen K2[kM]3q/6m1/8/7Q/8/8/8/2R1R3 w - 0 1 moves h5d1");
    e.send("go depth 2");
    assert_eq!(e.bestmove().0, "(none)");
    e.send("setoption name MateEndsGame value false");
    e.send("go depth 2");
    assert_ne!(e.bestmove().0, "(none)");
    e.quit();
}

#[test]
fn malformed_commands_get_an_error_line_and_no_crash() {
    let mut e = Engine::start();
    for (cmd, expect) in [
        ("frobnicate", "unknown command"),
        ("position", "position needs"),
        ("position lfen 8/8 w", "invalid LFEN"),
        ("position startpos moves c3d4 c3d4", "move 2 'c3d4'"),
        ("go depth", "needs a number"),
        ("go depth x", "whole number"),
        ("go sideways 3", "unknown go parameter"),
        ("setoption name Hash value lots", "Hash"),
        ("setoption name Nonsense value 1", "unknown option"),
        ("setoption", "setoption needs"),
    ] {
        e.send(cmd);
        let lines = e.until("info string error:");
        assert!(lines.last().unwrap().contains(expect), "{cmd}: {lines:?}");
    }
    // Still alive and the position was kept.
    e.send("go depth 1");
    assert_eq!(e.bestmove().0.len(), 4);
    e.quit();
}

#[test]
fn multipv_and_searchmoves() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name MultiPV type spin"))
    );
    // Three lines from the start, each with its own first move.
    e.send("setoption name MultiPV value 3");
    e.send("position startpos");
    e.send("go depth 3");
    let (best, lines) = e.bestmove();
    let multi: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info multipv"))
        .collect();
    assert_eq!(multi.len(), 3, "{lines:?}");
    let firsts: Vec<&str> = multi
        .iter()
        .map(|l| {
            l.split(" pv ")
                .nth(1)
                .unwrap()
                .split_whitespace()
                .next()
                .unwrap()
        })
        .collect();
    assert!(
        multi[0].starts_with("info multipv 1 depth 3"),
        "{}",
        multi[0]
    );
    assert_eq!(firsts[0], best);
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    // Back to one line; searchmoves limits the root (either notation).
    e.send("setoption name MultiPV value 1");
    e.send("go depth 3 searchmoves a3b4 Nf3");
    let (best, _) = e.bestmove();
    assert!(best == "a3b4" || best == "g1f3", "{best}");
    e.send("go searchmoves c3c4 depth 2");
    let seen = e.until("info string error");
    assert!(
        seen.last().unwrap().contains("searchmoves 'c3c4'"),
        "{seen:?}"
    );
    e.send("setoption name MultiPV value 99");
    let seen = e.until("info string error");
    assert!(seen.last().unwrap().contains("MultiPV"), "{seen:?}");
    e.quit();
}
