//! A player that is another program speaking the protocol
//! (docs/PROTOCOL.md) on its standard input and output.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use legion_rules::notation::{canonical, parse_move};
use legion_rules::{Game, Move, Rules};

use crate::player::{MoveLimit, Player};

/// Another program that speaks the protocol (docs/PROTOCOL.md).
pub struct External {
    name: String,
    child: Child,
    stdin: ChildStdin,
    /// The program's output lines; an error if one could not be read.
    lines: Receiver<Result<String, String>>,
}

impl External {
    pub fn start(argv: &[String], options: &[(String, String)]) -> Result<External, String> {
        let mut child = Command::new(&argv[0])
            .args(&argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start '{}': {e}", argv.join(" ")))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let failed = line.is_err();
                if tx.send(line.map_err(|e| e.to_string())).is_err() || failed {
                    break;
                }
            }
        });
        let mut e = External {
            name: argv.join(" "),
            child,
            stdin,
            lines,
        };
        e.send("uci")?;
        let id = e.wait_for("uciok", Duration::from_secs(10))?;
        if let Some(n) = id.iter().find_map(|l| l.strip_prefix("id name ")) {
            e.name = n.to_string();
        }
        for (k, v) in options {
            e.send(&format!("setoption name {k} value {v}"))?;
        }
        // An option the program refuses must not pass unnoticed.
        e.send("isready")?;
        let answers = e.wait_for("readyok", Duration::from_secs(10))?;
        if let Some(refused) = answers.iter().find(|l| l.starts_with("info string error")) {
            return Err(format!("{}: {refused}", e.name));
        }
        Ok(e)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| format!("{}: {e}", self.name))
    }

    fn wait_for(&mut self, prefix: &str, timeout: Duration) -> Result<Vec<String>, String> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(Ok(line)) => {
                    let done = line.starts_with(prefix);
                    seen.push(line);
                    if done {
                        return Ok(seen);
                    }
                }
                Ok(Err(e)) => return Err(format!("{}: unreadable output: {e}", self.name)),
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("{}: no '{prefix}' in time", self.name));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!(
                        "{}: output ended before '{prefix}' (has it exited?)",
                        self.name
                    ));
                }
            }
        }
    }
}

impl Drop for External {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Player for External {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self, seed: u64, rules: Rules) -> Result<(), String> {
        let mate = rules.mate_ends_game;
        self.send(&format!("setoption name MateEndsGame value {mate}"))?;
        self.send(&format!("ucinewgame {seed}"))?;
        self.send("isready")?;
        self.wait_for("readyok", Duration::from_secs(10))
            .map(|_| ())
    }

    fn choose(&mut self, game: &Game, limit: MoveLimit) -> Result<Move, String> {
        let start = game.start();
        let mut words = vec![format!("position lfen {}", start.to_lfen())];
        if !game.moves().is_empty() {
            words.push("moves".to_string());
            for (i, &m) in game.moves().iter().enumerate() {
                words.push(canonical(&game.positions()[i], m));
            }
        }
        self.send(&words.join(" "))?;
        self.send(&format!("go {}", limit.go_args()))?;
        let timeout = match limit {
            MoveLimit::Time(t) => t * 3 + Duration::from_secs(2),
            _ => Duration::from_secs(120),
        };
        let lines = self.wait_for("bestmove", timeout)?;
        let text = lines
            .last()
            .and_then(|l| l.split_whitespace().nth(1))
            .unwrap_or("")
            .to_string();
        // Only legal moves parse: anything else forfeits the game.
        parse_move(game.position(), &text)
            .map_err(|e| format!("{} played '{text}': {e}", self.name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Vec<String> {
        vec!["sh".into(), "-c".into(), script.into()]
    }

    #[test]
    fn a_refused_option_is_an_error() {
        let fake = "while read -r l; do case \"$l\" in \
            uci) echo 'id name fake'; echo uciok;; \
            setoption*) echo 'info string error: unknown option';; \
            isready) echo readyok;; quit) exit 0;; esac; done";
        let e = External::start(&sh(fake), &[("Levle".into(), "3".into())])
            .err()
            .unwrap();
        assert_eq!(e, "fake: info string error: unknown option");
        assert!(External::start(&sh(fake), &[]).is_ok());
    }

    #[test]
    fn a_program_that_exits_is_named_as_such() {
        let e = External::start(&sh("read -r l; echo uciok; read -r l"), &[])
            .err()
            .unwrap();
        assert!(e.contains("output ended before 'readyok'"), "{e}");
    }
}
