//! A game's chat rooms in either database (issue 20): each message kept
//! with its game (`chat`, schema 9 on SQLite, 7 on PostgreSQL), numbered
//! from 1 in its room.

use super::rows::{Kind, Param, Val, is_unique_violation};
use super::{Store, StoreError};
use crate::games::ids::{GameId, UserId};

/// A message as the database keeps it; the author's name is read with it
/// (`deleted` for a deleted account).
#[derive(Clone, Debug, PartialEq)]
pub struct ChatRow {
    pub seq: i64,
    pub at_ms: i64,
    pub author: Option<String>,
    /// `w` or `b` for a player's message.
    pub side: Option<String>,
    pub text: String,
}

/// How many of the newest messages a room shows.
pub const ROOM_LENGTH: i64 = 200;

const INSERT: &str = "INSERT INTO chat (game_id, room, seq, at_ms, account_id, side, text)
    SELECT $1, $2, COALESCE(MAX(seq), 0) + 1, $3, $4, $5, $6 FROM chat
    WHERE game_id = $1 AND room = $2
    RETURNING CAST(seq AS BIGINT)";

const LIST: &str = "SELECT CAST(c.seq AS BIGINT), CAST(c.at_ms AS BIGINT),
    CASE WHEN a.deleted_ms IS NOT NULL THEN 'deleted' ELSE a.username END, c.side, c.text
    FROM chat c LEFT JOIN accounts a ON a.id = c.account_id
    WHERE c.game_id = $1 AND c.room = $2 ORDER BY c.seq DESC LIMIT $3";

const NAME: &str = "SELECT username FROM accounts WHERE id = $1";

const PAIRING: &str = "SELECT pairing FROM games WHERE id = $1";

impl Store {
    /// Keeps a message; its number in the room. Two servers numbering a
    /// message at the same moment: the second tries again.
    pub async fn add_chat(
        &self,
        game: &GameId,
        room: &str,
        at_ms: i64,
        author: Option<UserId>,
        side: Option<&str>,
        text: &str,
    ) -> Result<i64, StoreError> {
        let mut tries = 0;
        loop {
            let params = vec![
                Param::Text(game.as_str().to_string()),
                Param::Text(room.to_string()),
                Param::Int(at_ms),
                author.map_or(Param::NoInt, |u| Param::Int(u.0)),
                side.map_or(Param::NoText, |s| Param::Text(s.to_string())),
                Param::Text(text.to_string()),
            ];
            match self.rows(INSERT, params, &[Kind::Int]).await {
                Ok(rows) => {
                    return rows
                        .first()
                        .and_then(|r| r.first())
                        .and_then(Val::int)
                        .ok_or_else(|| StoreError::Task("no number for the message".into()));
                }
                Err(e) if is_unique_violation(&e) && tries < 5 => tries += 1,
                Err(e) => return Err(e),
            }
        }
    }

    /// The newest messages of a room (at most `ROOM_LENGTH`), oldest first.
    pub async fn chat(&self, game: &GameId, room: &str) -> Result<Vec<ChatRow>, StoreError> {
        let rows = self
            .rows(
                LIST,
                vec![
                    Param::Text(game.as_str().to_string()),
                    Param::Text(room.to_string()),
                    Param::Int(ROOM_LENGTH),
                ],
                &[Kind::Int, Kind::Int, Kind::Text, Kind::Text, Kind::Text],
            )
            .await?;
        let mut out: Vec<ChatRow> = rows
            .into_iter()
            .map(|r| ChatRow {
                seq: r[0].int().unwrap_or(0),
                at_ms: r[1].int().unwrap_or(0),
                author: r[2].text(),
                side: r[3].text(),
                text: r[4].text().unwrap_or_default(),
            })
            .collect();
        out.reverse();
        Ok(out)
    }

    /// An account's name as typed, if there is such an account.
    pub async fn account_name(&self, id: UserId) -> Result<Option<String>, StoreError> {
        let rows = self
            .rows(NAME, vec![Param::Int(id.0)], &[Kind::Text])
            .await?;
        Ok(rows.first().and_then(|r| r[0].text()))
    }

    /// How a game's players were paired (`None`: by an invite link, or
    /// no pairing at all: engine and local games).
    pub async fn pairing(&self, game: &GameId) -> Result<Option<String>, StoreError> {
        let rows = self
            .rows(
                PAIRING,
                vec![Param::Text(game.as_str().to_string())],
                &[Kind::Text],
            )
            .await?;
        Ok(rows.first().and_then(|r| r[0].text()))
    }
}
