//! Game records (RULES 6.5): PGN-style tag pairs, numbered moves, a
//! result. Written with moves for people (6.4); read in either notation.

use std::fmt::Write as _;

use crate::game::{DrawReason, Game, Outcome, WinReason};
use crate::lfen::LfenError;
use crate::notation::{self, MoveParseError};
use crate::{Color, Position, Rules};

/// A game and its tags: what a game record (6.5) holds.
///
/// ```
/// use legion_rules::{Game, Record};
///
/// let mut game = Game::default();
/// for m in ["c3-d4", "f6-e5", "d4:f6", "g7:e5"] {
///     game.play_text(m).unwrap();
/// }
/// let mut record = Record::new(game);
/// record.set_tag("White", "Ann");
/// let text = record.write();
/// assert!(text.contains("[White \"Ann\"]"));
/// assert!(text.contains("1. c3-d4 f6-e5 2. d4:f6 g7:e5 *"));
///
/// // Read back, in either notation.
/// let back = Record::parse("1. c3d4 f6e5 2. d4f6 g7e5 *").unwrap();
/// assert_eq!(back.game.moves(), record.game.moves());
/// ```
#[derive(Debug, Clone)]
pub struct Record {
    /// Tag pairs in order, `Result`, `FEN` and `Rules` included.
    pub tags: Vec<(String, String)>,
    /// The game: start position, moves, declared result.
    pub game: Game,
    /// A comment after each move, by ply (`None` where there is none).
    pub comments: Vec<Option<String>>,
    /// The comment before the first move.
    pub opening_comment: Option<String>,
}

/// Why a text is not a game record (6.5), with the rule.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// A tag line is not `[Name "value"]`.
    #[error("6.5: line {line}: malformed tag pair; write [Name \"value\"]")]
    BadTag {
        /// The line, from 1.
        line: usize,
    },
    /// The `FEN` tag is no valid LFEN.
    #[error("6.5: the FEN tag is not a valid LFEN: {0}")]
    BadFen(LfenError),
    /// The `Rules` tag names no rule option of 5.4.
    #[error("6.5: unknown rule option '{0}' in the Rules tag (known: mate-ends-game)")]
    UnknownRules(String),
    /// A `{` comment is not closed.
    #[error("6.5: unclosed comment '{{' ")]
    UnclosedComment,
    /// A move is not legal where it stands: which, and why.
    #[error("6.5: move {number}{dots} '{text}': {error}")]
    BadMove {
        /// The full-move number.
        number: u32,
        /// `.` before a White move, `...` before a Black one.
        dots: &'static str,
        /// The move as written.
        text: String,
        /// Why it names no legal move.
        error: MoveParseError,
    },
    /// A move after the game has ended on the board.
    #[error("6.5: move {number}{dots} '{text}' comes after the end of the game ({outcome})")]
    MoveAfterEnd {
        /// The full-move number.
        number: u32,
        /// `.` before a White move, `...` before a Black one.
        dots: &'static str,
        /// The move as written.
        text: String,
        /// How the game had ended.
        outcome: Outcome,
    },
    /// A word after the result token, which ends the move text.
    #[error("6.5: unexpected '{text} after the result {result}' in the move text")]
    AfterResult {
        /// The word as written.
        text: String,
        /// The result token before it: `1-0`, `0-1`, `1/2-1/2` or `*`.
        result: String,
    },
    /// Something in the move text that is neither a move, a number, a
    /// comment nor a result (a `)` that closes no variation).
    #[error("6.5: unexpected '{0}' in the move text")]
    Unexpected(String),
}

impl RecordError {
    /// The number of the rule the text breaks: 6.5, the record's format
    /// (a move inside it that cannot be played says its own rule too).
    pub fn rule(&self) -> &'static str {
        "6.5"
    }
}

impl Record {
    /// A record of `game` with no tags or comments (writing fills in the
    /// tags of 6.5).
    pub fn new(game: Game) -> Record {
        Record {
            tags: Vec::new(),
            game,
            comments: Vec::new(),
            opening_comment: None,
        }
    }

    /// The value of tag `name`, if set.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets tag `name`, in place if it is there, else at the end.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(t) => t.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// Writes the record: the seven tags of 6.5 (plus `FEN`, `Rules`, and
    /// `Phase1`/`Termination` when they apply), then the moves.
    pub fn write(&self) -> String {
        let game = &self.game;
        let outcome = game.outcome();
        let result = outcome.map_or("*", |o| o.result());
        let mut tags: Vec<(String, String)> = Vec::new();
        for name in ["Event", "Site", "Date", "White", "Black"] {
            let default = if name == "Date" { "????.??.??" } else { "?" };
            tags.push((
                name.to_string(),
                self.tag(name).unwrap_or(default).to_string(),
            ));
        }
        tags.push(("Result".to_string(), result.to_string()));
        let start = game.start();
        if *start != Position::initial_with(start.rules()) {
            tags.push(("FEN".to_string(), start.to_lfen()));
        }
        if start.rules().mate_ends_game {
            tags.push(("Rules".to_string(), "mate-ends-game".to_string()));
        }
        if let Some(p1) = game.phase_one() {
            let dots = if p1.winner == Color::White {
                "."
            } else {
                "..."
            };
            tags.push((
                "Phase1".to_string(),
                format!("{} {}{}", p1.winner, p1.fullmove, dots),
            ));
        }
        if let Some(o) = outcome {
            tags.push(("Termination".to_string(), o.to_string()));
        }
        for (n, v) in &self.tags {
            if !tags.iter().any(|(t, _)| t == n) && !matches!(n.as_str(), "Phase1" | "Termination")
            {
                tags.push((n.clone(), v.clone()));
            }
        }
        let mut out = String::new();
        for (n, v) in &tags {
            let _ = writeln!(out, "[{n} \"{}\"]", escape(v));
        }
        out.push('\n');
        let mut body: Vec<String> = Vec::new();
        if let Some(c) = &self.opening_comment {
            body.push(format!("{{{}}}", c.replace('}', ")")));
        }
        for (i, m) in game.moves().iter().enumerate() {
            let pos = &game.positions()[i];
            if pos.turn() == Color::White {
                body.push(format!("{}.", pos.fullmove_number()));
            } else if i == 0 || self.comments.get(i - 1).is_some_and(|c| c.is_some()) {
                body.push(format!("{}...", pos.fullmove_number()));
            }
            body.push(notation::human(pos, *m));
            if let Some(Some(c)) = self.comments.get(i) {
                body.push(format!("{{{}}}", c.replace('}', ")")));
            }
        }
        body.push(result.to_string());
        // Wrap at 80 columns as PGN does.
        let mut line = String::new();
        for token in body {
            if !line.is_empty() && line.len() + 1 + token.len() > 80 {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&token);
        }
        out.push_str(&line);
        out.push('\n');
        out
    }

    /// Reads one game record.
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        let mut tags: Vec<(String, String)> = Vec::new();
        let mut body = String::new();
        let mut in_body = false;
        for (i, line) in text.lines().enumerate() {
            let t = line.trim();
            if !in_body && t.starts_with('[') {
                tags.push(parse_tag(t).ok_or(RecordError::BadTag { line: i + 1 })?);
            } else if !in_body && t.is_empty() {
                continue;
            } else {
                in_body = true;
                // ';' starts a comment to the end of the line (PGN).
                let code = match t.find(';') {
                    Some(p) if !t[..p].contains('{') => &t[..p],
                    _ => t,
                };
                body.push_str(code);
                body.push('\n');
            }
        }
        let rules = match tags
            .iter()
            .find(|(n, _)| n == "Rules")
            .map(|(_, v)| v.as_str())
        {
            None | Some("") | Some("default") => Rules::DEFAULT,
            Some("mate-ends-game") => Rules::MATE_ENDS_GAME,
            Some(other) => return Err(RecordError::UnknownRules(other.to_string())),
        };
        let start = match tags.iter().find(|(n, _)| n == "FEN") {
            Some((_, fen)) => Position::from_lfen(fen, rules).map_err(RecordError::BadFen)?,
            None => Position::initial_with(rules),
        };
        let mut record = Record::new(Game::new(start));
        record.tags = tags;
        let mut result_token = None;
        for token in tokenize(&body)? {
            match token {
                Token::Comment(c) => {
                    let n = record.game.moves().len();
                    if n == 0 {
                        record.opening_comment = Some(c);
                    } else {
                        record.comments.resize(n, None);
                        record.comments[n - 1] = Some(c);
                    }
                }
                Token::Result(r) => result_token = Some(r),
                Token::Word(w) => {
                    if let Some(r) = result_token {
                        return Err(RecordError::AfterResult { text: w, result: r });
                    }
                    let pos = *record.game.position();
                    let number = pos.fullmove_number();
                    let dots = if pos.turn() == Color::White {
                        "."
                    } else {
                        "..."
                    };
                    if let Some(o) = record.game.outcome() {
                        return Err(RecordError::MoveAfterEnd {
                            number,
                            dots,
                            text: w,
                            outcome: o,
                        });
                    }
                    let m =
                        notation::parse_move(&pos, &w).map_err(|error| RecordError::BadMove {
                            number,
                            dots,
                            text: w.clone(),
                            error,
                        })?;
                    if record.game.play(m).is_err() {
                        return Err(RecordError::Unexpected(w));
                    }
                }
            }
        }
        record.comments.resize(record.game.moves().len(), None);
        // A decisive or drawn result the board does not show was declared
        // (resignation, agreement, time); keep it.
        let declared = result_token.or_else(|| record.tag("Result").map(str::to_string));
        if record.game.outcome().is_none() {
            let termination = record.tag("Termination").unwrap_or("").to_ascii_lowercase();
            let win_reason = if termination.contains("time") {
                WinReason::Time
            } else {
                WinReason::Resignation
            };
            match declared.as_deref() {
                Some("1-0") => record.game.declare(Outcome::Win {
                    winner: Color::White,
                    reason: win_reason,
                }),
                Some("0-1") => record.game.declare(Outcome::Win {
                    winner: Color::Black,
                    reason: win_reason,
                }),
                Some("1/2-1/2") => record.game.declare(Outcome::Draw {
                    reason: DrawReason::Agreement,
                }),
                _ => {}
            }
        }
        Ok(record)
    }

    /// Reads every game of a file of records.
    pub fn parse_many(text: &str) -> Result<Vec<Record>, RecordError> {
        let mut games = Vec::new();
        let mut current = String::new();
        let mut seen_body = false;
        for line in text.lines() {
            let t = line.trim();
            if t.starts_with('[') && seen_body {
                games.push(Record::parse(&current)?);
                current.clear();
                seen_body = false;
            }
            if !t.is_empty() && !t.starts_with('[') {
                seen_body = true;
            }
            current.push_str(line);
            current.push('\n');
        }
        if !current.trim().is_empty() {
            games.push(Record::parse(&current)?);
        }
        Ok(games)
    }
}

fn escape(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"")
}

fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?.trim();
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    let rest = rest.trim();
    let quoted = rest.strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => value.push(chars.next()?),
            '"' => return None,
            _ => value.push(c),
        }
    }
    Some((name.to_string(), value))
}

enum Token {
    Word(String),
    Comment(String),
    Result(String),
}

fn tokenize(body: &str) -> Result<Vec<Token>, RecordError> {
    let mut out = Vec::new();
    let mut chars = body.chars().peekable();
    let mut depth = 0usize; // inside ( ... ) variations, which are skipped
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c == '{' {
            chars.next();
            let mut text = String::new();
            loop {
                match chars.next() {
                    Some('}') => break,
                    Some(x) => text.push(x),
                    None => return Err(RecordError::UnclosedComment),
                }
            }
            if depth == 0 {
                out.push(Token::Comment(text.trim().to_string()));
            }
        } else if c == '(' {
            chars.next();
            depth += 1;
        } else if c == ')' {
            chars.next();
            if depth == 0 {
                return Err(RecordError::Unexpected(")".to_string()));
            }
            depth -= 1;
        } else {
            let mut word = String::new();
            while let Some(&x) = chars.peek() {
                if x.is_whitespace() || matches!(x, '{' | '(' | ')') {
                    break;
                }
                word.push(x);
                chars.next();
            }
            if depth > 0 || word.starts_with('$') {
                continue;
            }
            if matches!(word.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*") {
                out.push(Token::Result(word));
                continue;
            }
            // Strip a move number: "12.", "12...", or "12.c3-d4".
            let stripped = word.trim_start_matches(|c: char| c.is_ascii_digit());
            let move_text = if stripped.len() < word.len() && stripped.starts_with('.') {
                stripped.trim_start_matches('.')
            } else {
                word.as_str()
            };
            if !move_text.is_empty() {
                out.push(Token::Word(move_text.to_string()));
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_round_trips() {
        let mut g = Game::default();
        for m in ["c3d4", "f6e5", "d4f6", "g7e5", "Nf3", "e5f4"] {
            g.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        }
        let mut r = Record::new(g);
        r.set_tag("Event", "Test \"quoted\"");
        r.comments = vec![None, Some("a comment".into()), None, None, None, None];
        let text = r.write();
        let back = Record::parse(&text).unwrap();
        assert_eq!(back.game.moves(), r.game.moves());
        assert_eq!(back.tag("Event"), Some("Test \"quoted\""));
        assert_eq!(back.comments[1].as_deref(), Some("a comment"));
        assert_eq!(back.write(), text);
    }

    #[test]
    fn reads_both_notations_and_numbers() {
        let text = "[Event \"x\"]\n\n1. c3-d4 f6-e5 2. d4xf6 g7:e5 3.Ng1f3 {knight} e5f4 *";
        let r = Record::parse(text).unwrap();
        assert_eq!(r.game.moves().len(), 6);
        assert_eq!(r.comments[4].as_deref(), Some("knight"));
    }

    #[test]
    fn bad_records_give_errors() {
        assert!(matches!(
            Record::parse("[Event x]\n1. c3-d4 *"),
            Err(RecordError::BadTag { line: 1 })
        ));
        assert!(matches!(
            Record::parse("1. c3-c4 *"),
            Err(RecordError::BadMove { number: 1, .. })
        ));
        assert!(matches!(
            Record::parse("1. c3-d4 {open"),
            Err(RecordError::UnclosedComment)
        ));
        assert!(matches!(
            Record::parse("[FEN \"8/8 w\"]\n*"),
            Err(RecordError::BadFen(_))
        ));
        assert!(matches!(
            Record::parse("[Rules \"fast\"]\n*"),
            Err(RecordError::UnknownRules(_))
        ));
    }

    /// The errors carry data (an `Outcome`, the readings, the word after
    /// the result) and their English messages are those the command line
    /// has always printed.
    #[test]
    fn typed_errors_keep_their_messages() {
        let after = Record::parse("1. c3-d4 1-0 f6-e5").unwrap_err();
        assert_eq!(
            after,
            RecordError::AfterResult {
                text: "f6-e5".into(),
                result: "1-0".into()
            }
        );
        assert_eq!(
            after.to_string(),
            "6.5: unexpected 'f6-e5 after the result 1-0' in the move text"
        );
        // Two Kings alone: the game is drawn before any move (5.3).
        let dead = Record::parse("[FEN \"4k3/8/8/8/8/8/8/4K3 w - 0 1\"]\n\n1. Ke2 *").unwrap_err();
        assert_eq!(
            dead,
            RecordError::MoveAfterEnd {
                number: 1,
                dots: ".",
                text: "Ke2".into(),
                outcome: Outcome::Draw {
                    reason: DrawReason::DeadPosition
                },
            }
        );
        assert_eq!(
            dead.to_string(),
            "6.5: move 1. 'Ke2' comes after the end of the game \
             (draw: only the two Kings are left (5.3))"
        );
        let two_rooks =
            Record::parse("[FEN \"4k3/8/8/8/8/8/4K3/R6R w - 0 1\"]\n\n1. Rd1 *").unwrap_err();
        let RecordError::BadMove { error, .. } = &two_rooks else {
            panic!("{two_rooks:?}");
        };
        assert_eq!(
            *error,
            MoveParseError::Ambiguous {
                text: "Rd1".into(),
                options: vec!["Rad1".into(), "Rhd1".into()],
            }
        );
        assert_eq!(
            two_rooks.to_string(),
            "6.5: move 1. 'Rd1': 6.4: 'Rd1' is ambiguous: it could be Rad1 or Rhd1"
        );
        assert_eq!(
            Record::parse("1. c3-d4 ) *").unwrap_err().to_string(),
            "6.5: unexpected ')' in the move text"
        );
    }
}
