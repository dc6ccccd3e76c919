//! What happened to a game, as one type: the announcement servers sharing
//! a database send each other (the NOTIFY payload, JSON), and what every
//! socket of the game hears from its server. Serialised once with serde;
//! nothing is said by an empty string or a word in a sentence.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::games::ids::GameId;

/// A change of game `game`, which is now at `version`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    pub game: GameId,
    pub version: i64,
    #[serde(flatten)]
    pub what: What,
}

/// The kinds of change, each with what a follower needs to catch up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum What {
    /// The game was made.
    Created,
    /// One move more: move number `ply` (0-based), canonical (6.3). A
    /// follower one version behind needs only the row.
    Move { ply: usize, text: String },
    /// Every move from `ply` on was taken back (undo, takeback).
    TakeBack { ply: usize },
    /// The state off the board changed: an offer, a seat, a clock, a
    /// rematch, or the engine starting or stopping.
    State,
    /// The game ended off the board (resignation, flag, agreement, abort).
    End,
    /// The copy was read again whole and its moves changed: a follower
    /// needs the whole state.
    Resync,
    /// A chat message (issue 20), said on server `node`; the game's
    /// version is not changed (an announcement's `version` is 0).
    Chat {
        node: String,
        room: crate::games::chat::Room,
        message: crate::games::chat::ChatMessage,
    },
}

impl Event {
    /// The payload of a NOTIFY (PostgreSQL bounds it at 8,000 bytes; an
    /// event is under 200).
    pub fn payload(&self) -> String {
        // Our own types serialise to JSON without fail.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads another server's announcement.
    pub fn from_payload(payload: &str) -> Result<Event, serde_json::Error> {
        serde_json::from_str(payload)
    }
}

/// What a game's watchers in this server are sent: the event, and the
/// socket message already made from it (made once for every watcher).
#[derive(Clone, Debug)]
pub struct Notice {
    pub what: What,
    /// The `update` message of the WebSocket; a `Resync` has none (each
    /// socket sends its reader the whole state instead).
    pub update: Option<Arc<str>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id() -> GameId {
        GameId::parse("g1").unwrap()
    }

    #[test]
    fn events_read_back_what_they_write() {
        for what in [
            What::Created,
            What::Move {
                ply: 3,
                text: "c3d4".into(),
            },
            What::TakeBack { ply: 2 },
            What::State,
            What::End,
            What::Resync,
        ] {
            let e = Event {
                game: id(),
                version: 7,
                what,
            };
            assert_eq!(Event::from_payload(&e.payload()).unwrap(), e);
        }
    }

    #[test]
    fn the_payload_is_plain_json() {
        let e = Event {
            game: id(),
            version: 2,
            what: What::Move {
                ply: 0,
                text: "c3d4".into(),
            },
        };
        assert_eq!(
            e.payload(),
            r#"{"game":"g1","version":2,"kind":"move","ply":0,"text":"c3d4"}"#
        );
    }

    #[test]
    fn unreadable_payloads_are_errors() {
        for bad in [
            "",
            "g1 2",
            r#"{"game":"g1","version":2}"#,
            r#"{"game":"g 1","version":2,"kind":"state"}"#,
            r#"{"game":"g1","version":2,"kind":"move","ply":0}"#,
            r#"{"game":"g1","version":2,"kind":"dance"}"#,
        ] {
            assert!(Event::from_payload(bad).is_err(), "{bad}");
        }
    }
}
