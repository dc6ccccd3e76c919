//! The words of a game as the API and the database write them: mode,
//! side, status, and results declared off the board. Each is a type, so
//! an unknown word is an error where it is read, never a silent default.

use legion_rules::Color;
use serde::{Deserialize, Serialize};

/// Who plays a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// A person against the engine.
    Engine,
    /// Two people, each with a seat token.
    Friend,
    /// Both sides on one device.
    Local,
}

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Mode::Engine => "engine",
            Mode::Friend => "friend",
            Mode::Local => "local",
        }
    }

    pub fn parse(s: &str) -> Option<Mode> {
        match s {
            "engine" => Some(Mode::Engine),
            "friend" => Some(Mode::Friend),
            "local" => Some(Mode::Local),
            _ => None,
        }
    }
}

/// How two players of a friend game met (issue 20): a seek of the lobby,
/// a quick-pairing pool, or a challenge by name. A game made by invite
/// link has none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Pairing {
    Seek,
    Pool,
    Challenge,
}

impl Pairing {
    pub fn name(self) -> &'static str {
        match self {
            Pairing::Seek => "seek",
            Pairing::Pool => "pool",
            Pairing::Challenge => "challenge",
        }
    }

    pub fn parse(s: &str) -> Option<Pairing> {
        match s {
            "seek" => Some(Pairing::Seek),
            "pool" => Some(Pairing::Pool),
            "challenge" => Some(Pairing::Challenge),
            _ => None,
        }
    }
}

/// A side, written `w` or `b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Side {
    #[serde(rename = "w")]
    White,
    #[serde(rename = "b")]
    Black,
}

impl Side {
    pub fn code(self) -> &'static str {
        match self {
            Side::White => "w",
            Side::Black => "b",
        }
    }

    pub fn parse(s: &str) -> Option<Side> {
        match s {
            "w" => Some(Side::White),
            "b" => Some(Side::Black),
            _ => None,
        }
    }

    pub fn color(self) -> Color {
        match self {
            Side::White => Color::White,
            Side::Black => Color::Black,
        }
    }

    pub fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }
}

impl From<Color> for Side {
    fn from(c: Color) -> Side {
        match c {
            Color::White => Side::White,
            Color::Black => Side::Black,
        }
    }
}

impl std::fmt::Display for Side {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Side::White => "White",
            Side::Black => "Black",
        })
    }
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// A friend game whose invite has not been claimed.
    Waiting,
    Active,
    /// Ended with a result.
    Over,
    /// Ended without a result.
    Aborted,
}

/// A result declared off the board, as the database keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Declared {
    Resigned(Side),
    LostOnTime(Side),
    DrawAgreed,
    /// A seat aborted the game before both sides had moved.
    Aborted(Side),
    /// The side did not make its first move in time; the server aborted.
    NoFirstMove(Side),
}

impl Declared {
    pub fn text(self) -> String {
        match self {
            Declared::Resigned(s) => format!("resign:{}", s.code()),
            Declared::LostOnTime(s) => format!("time:{}", s.code()),
            Declared::DrawAgreed => "draw".to_string(),
            Declared::Aborted(s) => format!("abort:{}", s.code()),
            Declared::NoFirstMove(s) => format!("noshow:{}", s.code()),
        }
    }

    pub fn parse(s: &str) -> Option<Declared> {
        if s == "draw" {
            return Some(Declared::DrawAgreed);
        }
        let (kind, side) = s.split_once(':')?;
        let side = Side::parse(side)?;
        match kind {
            "resign" => Some(Declared::Resigned(side)),
            "time" => Some(Declared::LostOnTime(side)),
            "abort" => Some(Declared::Aborted(side)),
            "noshow" => Some(Declared::NoFirstMove(side)),
            _ => None,
        }
    }

    pub fn is_abort(self) -> bool {
        matches!(self, Declared::Aborted(_) | Declared::NoFirstMove(_))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declared_results_read_back_what_they_write() {
        for d in [
            Declared::Resigned(Side::White),
            Declared::LostOnTime(Side::Black),
            Declared::DrawAgreed,
            Declared::Aborted(Side::Black),
            Declared::NoFirstMove(Side::White),
        ] {
            assert_eq!(Declared::parse(&d.text()), Some(d));
        }
        assert_eq!(Declared::parse("resign:x"), None);
        assert_eq!(Declared::parse("win:w"), None);
        assert_eq!(
            Declared::parse("resign:w"),
            Some(Declared::Resigned(Side::White))
        );
    }

    #[test]
    fn words_of_the_api() {
        assert_eq!(serde_json::to_string(&Side::Black).unwrap(), "\"b\"");
        assert_eq!(
            serde_json::to_string(&Status::Aborted).unwrap(),
            "\"aborted\""
        );
        assert_eq!(Mode::parse("friend"), Some(Mode::Friend));
        assert_eq!(Mode::parse("Friend"), None);
    }
}
