//! `legion play`: a person against the engine in the terminal, or
//! `--watch` the engine against itself.

use std::io::{self, BufRead, Write};
use std::time::Duration;

use clap::{Args, ValueEnum};
use legion_engine::{Level, Options};
use legion_lab::player::{EnginePlayer, MoveLimit, Player};
use legion_rules::notation::{human, parse_move};
use legion_rules::{Color, Game, INITIAL_LFEN, Position, Record, Rules};

use crate::{Failure, diagram};

#[derive(Clone, Copy, ValueEnum)]
pub enum Side {
    White,
    Black,
}

#[derive(Args)]
pub struct PlayArgs {
    /// The side you play.
    #[arg(long, value_enum, default_value = "white")]
    pub color: Side,
    /// The engine's level, 1 (a beginner can win) to 10 (full strength).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u8).range(1..=10))]
    pub level: u8,
    /// Start from this position (LFEN) instead of the initial one.
    #[arg(long)]
    pub fen: Option<String>,
    /// Mate wins at once (RULES 5.4).
    #[arg(long)]
    pub mate_ends_game: bool,
    /// Watch the engine play both sides.
    #[arg(long)]
    pub watch: bool,
    /// Thinking time per move at level 10, in milliseconds.
    #[arg(long, default_value_t = 1000)]
    pub movetime: u64,
    /// Pause between moves when watching, in milliseconds.
    #[arg(long, default_value_t = 400)]
    pub delay: u64,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

const HELP: &str =
    "Type a move as in RULES 6.3/6.4: c3-d4, c3:e5:c7, Nf3, Qxd7, O-O (or c3d4, g1f3).
Commands: moves (list legal moves), hint, undo, save FILE, resign, flip, help, quit.";

struct Session {
    game: Game,
    engine: EnginePlayer,
    limit: MoveLimit,
    human: Option<Color>,
    flip: bool,
    out: io::Stdout,
}

pub fn run(a: PlayArgs) -> Result<(), Failure> {
    let rules = if a.mate_ends_game {
        Rules::MATE_ENDS_GAME
    } else {
        Rules::DEFAULT
    };
    let start = Position::from_lfen(a.fen.as_deref().unwrap_or(INITIAL_LFEN), rules)
        .map_err(|e| Failure(format!("invalid LFEN: {e}")))?;
    let options = Options {
        level: a.level,
        hash_mb: 32,
        rules,
        ..Options::default()
    };
    let mut engine = EnginePlayer::new(options, &format!("Legion level {}", a.level));
    engine.new_game(a.seed, rules)?;
    let human = if a.watch {
        None
    } else {
        Some(match a.color {
            Side::White => Color::White,
            Side::Black => Color::Black,
        })
    };
    let mut s = Session {
        game: Game::new(start),
        engine,
        limit: MoveLimit::Time(Duration::from_millis(a.movetime.max(10))),
        human,
        flip: human == Some(Color::Black),
        out: io::stdout(),
    };
    let level = Level::get(a.level);
    match human {
        Some(c) => s.say(&format!(
            "Legion: you play {c}; the engine plays {} ({}).\n{HELP}",
            !c,
            level.describe()
        )),
        None => s.say(&format!(
            "Legion: the engine plays itself ({}).",
            level.describe()
        )),
    }
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    // Show the board again only when something changed.
    let mut shown: Option<(usize, bool, bool)> = None;
    loop {
        let state = (s.game.moves().len(), s.flip, s.game.outcome().is_some());
        if shown != Some(state) {
            s.show();
            shown = Some(state);
        }
        if let Some(o) = s.game.outcome() {
            s.say(&format!("Game over: {}. Result {}.", o, o.result()));
            if let Some(p1) = s.game.phase_one() {
                s.say(&format!(
                    "{} won Phase 1 on move {}.",
                    p1.winner, p1.fullmove
                ));
            }
            if human.is_none() {
                return Ok(());
            }
            // After the end only save, undo, moves and quit make sense.
            s.prompt("save FILE, undo or quit: ");
            // The end of input leaves; a failed read is an error.
            let Some(line) = lines.next().transpose()? else {
                return Ok(());
            };
            if !s.command(line.trim(), true) {
                return Ok(());
            }
            continue;
        }
        let turn = s.game.position().turn();
        if Some(turn) != human {
            s.engine_move();
            if human.is_none() {
                std::thread::sleep(Duration::from_millis(a.delay));
            }
            continue;
        }
        s.prompt(&format!("{turn} to move: "));
        let Some(line) = lines.next().transpose()? else {
            s.say("");
            return Ok(());
        };
        if !s.command(line.trim(), false) {
            return Ok(());
        }
    }
}

impl Session {
    fn say(&mut self, text: &str) {
        let _ = writeln!(self.out, "{text}");
        let _ = self.out.flush();
    }

    fn prompt(&mut self, text: &str) {
        let _ = write!(self.out, "{text}");
        let _ = self.out.flush();
    }

    fn show(&mut self) {
        let pos = *self.game.position();
        let mut text = String::from("\n");
        text.push_str(&diagram::board(&pos, self.flip));
        if let (Some(&m), Some(before)) = (
            self.game.moves().last(),
            self.game.positions().iter().rev().nth(1),
        ) {
            text.push_str(&format!("Last move: {}\n", human(before, m)));
        }
        let kings: Vec<Color> = Color::ALL
            .into_iter()
            .filter(|&c| pos.board().king(c).is_none())
            .collect();
        if !kings.is_empty() {
            let names: Vec<&str> = kings.iter().map(|c| c.name()).collect();
            text.push_str(&format!(
                "Phase 2: no King for {} (5.1)\n",
                names.join(" and ")
            ));
        }
        if pos.is_check() {
            text.push_str(&format!("{} is in check.\n", pos.turn()));
        }
        self.prompt(&text);
    }

    fn engine_move(&mut self) {
        let pos = *self.game.position();
        match self.engine.choose(&self.game, self.limit) {
            Ok(m) => {
                let text = human(&pos, m);
                match self.game.play(m) {
                    Ok(()) => self.say(&format!("{} plays {text}", pos.turn())),
                    Err(e) => self.say(&format!("The engine's move {text} was refused: {e}")),
                }
            }
            Err(e) => self.say(&format!("The engine could not move: {e}")),
        }
    }

    /// Handles a line; false to leave.
    fn command(&mut self, line: &str, over: bool) -> bool {
        let (word, arg) = line
            .split_once(' ')
            .map_or((line, ""), |(w, a)| (w, a.trim()));
        match word {
            "" => {}
            "quit" | "exit" => return false,
            "help" | "?" => self.say(HELP),
            "flip" => self.flip = !self.flip,
            "moves" => {
                let pos = *self.game.position();
                let mut names: Vec<String> = pos
                    .legal_moves()
                    .into_iter()
                    .map(|m| human(&pos, m))
                    .collect();
                names.sort();
                self.say(&format!("Legal moves: {}", names.join(" ")));
            }
            "undo" => {
                // Back to the person's previous turn: their move and the reply.
                let mut taken = 0;
                while self.game.undo().is_some() {
                    taken += 1;
                    if Some(self.game.position().turn()) == self.human {
                        break;
                    }
                }
                if taken == 0 {
                    self.say("Nothing to undo.");
                }
            }
            "save" => {
                if arg.is_empty() {
                    self.say("save needs a file name: save game.pgn");
                } else {
                    let mut r = Record::new(self.game.clone());
                    r.set_tag("Event", "Legion terminal game");
                    let (w, b) = match self.human {
                        Some(Color::White) => ("You".to_string(), self.engine.name()),
                        Some(Color::Black) => (self.engine.name(), "You".to_string()),
                        None => (self.engine.name(), self.engine.name()),
                    };
                    r.set_tag("White", &w);
                    r.set_tag("Black", &b);
                    match std::fs::write(arg, r.write()) {
                        Ok(()) => self.say(&format!("Saved to {arg}.")),
                        Err(e) => self.say(&format!("Could not save to {arg}: {e}")),
                    }
                }
            }
            _ if over => self.say("The game is over: save FILE, undo or quit."),
            "resign" => {
                if let Some(c) = self.human {
                    self.game.resign(c);
                }
            }
            "hint" => {
                let mut helper = EnginePlayer::new(
                    Options {
                        level: 10,
                        hash_mb: 16,
                        rules: self.game.start().rules(),
                        ..Options::default()
                    },
                    "hint",
                );
                let pos = *self.game.position();
                match helper.choose(&self.game, MoveLimit::Time(Duration::from_millis(700))) {
                    Ok(m) => self.say(&format!("Hint: {}", human(&pos, m))),
                    Err(e) => self.say(&format!("No hint: {e}")),
                }
            }
            _ => {
                let pos = *self.game.position();
                match parse_move(&pos, line) {
                    Ok(m) => {
                        let text = human(&pos, m);
                        match self.game.play(m) {
                            Ok(()) => self.say(&format!("You play {text}")),
                            Err(e) => self.say(&format!("Not played: {e}")),
                        }
                    }
                    Err(e) => self.say(&format!("Not played: {e}")),
                }
            }
        }
        true
    }
}
