//! A player that is another program speaking the protocol
//! (docs/PROTOCOL.md) on its standard input and output.

use std::io::{self, BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use legion_rules::notation::{canonical, parse_move};
use legion_rules::{Game, Move, Rules};

use crate::player::{MoveLimit, Player, PlayerError};

/// Another program that speaks the protocol (docs/PROTOCOL.md).
pub struct External {
    name: String,
    child: Child,
    stdin: ChildStdin,
    /// The program's output lines; an error if one could not be read.
    lines: Receiver<io::Result<String>>,
}

/// How long a program may take to answer `uci` or `isready`.
const ANSWER_TIME: Duration = Duration::from_secs(10);

impl External {
    /// Starts the program `argv` (not empty) and sets its `options`, each
    /// checked: one the program answers with an error line is an error.
    pub fn start(argv: &[String], options: &[(String, String)]) -> Result<External, PlayerError> {
        let program = argv.join(" ");
        let Some((command, args)) = argv.split_first() else {
            return Err(PlayerError::Start {
                program,
                source: io::Error::new(io::ErrorKind::InvalidInput, "no program named"),
            });
        };
        let mut child = Command::new(command)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|source| PlayerError::Start {
                program: program.clone(),
                source,
            })?;
        let no_pipe = |stream| PlayerError::NoPipe {
            program: program.clone(),
            stream,
        };
        let stdin = child.stdin.take().ok_or_else(|| no_pipe("input"))?;
        let stdout = child.stdout.take().ok_or_else(|| no_pipe("output"))?;
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let failed = line.is_err();
                if tx.send(line).is_err() || failed {
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
        let id = e.wait_for("uciok", ANSWER_TIME)?;
        if let Some(n) = id.iter().find_map(|l| l.strip_prefix("id name ")) {
            e.name = n.to_string();
        }
        // An option the program refuses must not pass unnoticed: each is
        // checked on its own, so that the error names it. Without options,
        // `isready` still checks that the program is ready.
        for (k, v) in options {
            e.send(&format!("setoption name {k} value {v}"))?;
            e.send("isready")?;
            let answers = e.wait_for("readyok", ANSWER_TIME)?;
            if let Some(refused) = answers.iter().find(|l| l.starts_with("info string error")) {
                return Err(PlayerError::RefusedOption {
                    name: e.name.clone(),
                    option: k.clone(),
                    value: v.clone(),
                    answer: refused.clone(),
                });
            }
        }
        if options.is_empty() {
            e.send("isready")?;
            e.wait_for("readyok", ANSWER_TIME)?;
        }
        Ok(e)
    }

    fn send(&mut self, line: &str) -> Result<(), PlayerError> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|source| PlayerError::Send {
                name: self.name.clone(),
                command: line.to_string(),
                source,
            })
    }

    /// The program's lines up to the first that starts with `prefix`.
    fn wait_for(&mut self, prefix: &str, timeout: Duration) -> Result<Vec<String>, PlayerError> {
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
                Ok(Err(source)) => {
                    return Err(PlayerError::Unreadable {
                        name: self.name.clone(),
                        source,
                    });
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(PlayerError::Timeout {
                        name: self.name.clone(),
                        expected: prefix.to_string(),
                        waited: timeout,
                    });
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(PlayerError::Exited {
                        name: self.name.clone(),
                        expected: prefix.to_string(),
                    });
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

    fn new_game(&mut self, seed: u64, rules: Rules) -> Result<(), PlayerError> {
        let mate = rules.mate_ends_game;
        self.send(&format!("setoption name MateEndsGame value {mate}"))?;
        self.send(&format!("ucinewgame {seed}"))?;
        self.send("isready")?;
        self.wait_for("readyok", ANSWER_TIME).map(|_| ())
    }

    fn choose(&mut self, game: &Game, limit: MoveLimit) -> Result<Move, PlayerError> {
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
        parse_move(game.position(), &text).map_err(|source| PlayerError::IllegalMove {
            name: self.name.clone(),
            text,
            source,
        })
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
        assert!(
            matches!(&e, PlayerError::RefusedOption { name, option, value, answer }
                if name == "fake" && option == "Levle" && value == "3"
                    && answer == "info string error: unknown option"),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            "fake refused option Levle=3: info string error: unknown option"
        );
        assert!(External::start(&sh(fake), &[]).is_ok());
    }

    #[test]
    fn a_program_that_exits_is_named_as_such() {
        let e = External::start(&sh("read -r l; echo uciok; read -r l"), &[])
            .err()
            .unwrap();
        assert!(
            matches!(&e, PlayerError::Exited { expected, .. } if expected == "readyok"),
            "{e:?}"
        );
        assert!(
            e.to_string().contains("output ended before 'readyok'"),
            "{e}"
        );
    }

    #[test]
    fn a_program_that_does_not_exist_cannot_start() {
        let argv = vec!["/nonexistent/legion-engine".to_string(), "uci".to_string()];
        let e = External::start(&argv, &[]).err().unwrap();
        assert!(
            matches!(&e, PlayerError::Start { program, source }
                if program == "/nonexistent/legion-engine uci"
                    && source.kind() == io::ErrorKind::NotFound),
            "{e:?}"
        );
        assert!(External::start(&[], &[]).is_err());
    }

    #[test]
    fn an_illegal_move_is_the_programs_fault() {
        let fake = "while read -r l; do case \"$l\" in \
            uci) echo 'id name liar'; echo uciok;; \
            isready) echo readyok;; go*) echo 'bestmove a1a8';; quit) exit 0;; esac; done";
        let mut p = External::start(&sh(fake), &[]).unwrap();
        p.new_game(1, Rules::DEFAULT).unwrap();
        let e = p
            .choose(
                &Game::new(legion_rules::Position::initial()),
                MoveLimit::Depth(1),
            )
            .unwrap_err();
        assert!(
            matches!(&e, PlayerError::IllegalMove { name, text, .. }
                if name == "liar" && text == "a1a8"),
            "{e:?}"
        );
    }
}
