//! Seats and their secrets. A seat's token is made by the server and
//! handed out once: to the creator, or to whoever claims a friend game's
//! one-time invite. Tokens travel in `Authorization` headers and
//! WebSocket messages, never in URLs.

use serde::Serialize;

use crate::games::ids::same_secret;
use crate::games::model::Side;
use crate::store::GameRow;

/// What a token may do in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Seat {
    #[serde(rename = "w")]
    White,
    #[serde(rename = "b")]
    Black,
    /// Both sides on one device (a local game).
    #[serde(rename = "both")]
    Both,
}

/// Characters in a seat token and in an invite code.
pub const TOKEN_LEN: usize = 24;

impl Seat {
    pub fn may_move(self, side: Side) -> bool {
        matches!(
            (self, side),
            (Seat::Both, _) | (Seat::White, Side::White) | (Seat::Black, Side::Black)
        )
    }

    /// The side this seat acts for when `to_move` is to move: its own, or
    /// on a shared device the side to move.
    pub fn side(self, to_move: Side) -> Side {
        match self {
            Seat::White => Side::White,
            Seat::Black => Side::Black,
            Seat::Both => to_move,
        }
    }
}

impl From<Side> for Seat {
    fn from(s: Side) -> Seat {
        match s {
            Side::White => Seat::White,
            Side::Black => Seat::Black,
        }
    }
}

/// The seat `token` holds in the game of `row`, if any.
pub fn seat_of(row: &GameRow, token: Option<&str>) -> Option<Seat> {
    let t = token.filter(|t| !t.is_empty())?;
    let holds = |seat: &Option<String>| seat.as_deref().is_some_and(|s| same_secret(s, t));
    match (holds(&row.white_token), holds(&row.black_token)) {
        (true, true) => Some(Seat::Both),
        (true, false) => Some(Seat::White),
        (false, true) => Some(Seat::Black),
        (false, false) => None,
    }
}

/// The side an unclaimed invite opens: the seat that has no token yet.
pub fn open_side(row: &GameRow) -> Option<Side> {
    match (&row.white_token, &row.black_token) {
        (None, Some(_)) => Some(Side::White),
        (Some(_), None) => Some(Side::Black),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::model::Mode;

    fn row(w: Option<&str>, b: Option<&str>) -> GameRow {
        let mut r = GameRow::new("g", Mode::Friend, "default", legion_rules::INITIAL_LFEN, 0);
        r.white_token = w.map(str::to_string);
        r.black_token = b.map(str::to_string);
        r
    }

    #[test]
    fn tokens_give_their_seats_only() {
        let r = row(Some("white-secret"), Some("black-secret"));
        assert_eq!(seat_of(&r, Some("white-secret")), Some(Seat::White));
        assert_eq!(seat_of(&r, Some("black-secret")), Some(Seat::Black));
        assert_eq!(seat_of(&r, Some("black-secreT")), None);
        assert_eq!(seat_of(&r, Some("")), None);
        assert_eq!(seat_of(&r, None), None);
        let local = row(Some("both"), Some("both"));
        assert_eq!(seat_of(&local, Some("both")), Some(Seat::Both));
    }

    #[test]
    fn an_invite_opens_the_seat_without_a_token() {
        assert_eq!(open_side(&row(Some("w"), None)), Some(Side::Black));
        assert_eq!(open_side(&row(None, Some("b"))), Some(Side::White));
        assert_eq!(open_side(&row(Some("w"), Some("b"))), None);
        // An empty token matches no seat, even an open one.
        assert_eq!(seat_of(&row(Some("w"), None), Some("")), None);
    }

    #[test]
    fn a_shared_device_acts_for_the_side_to_move() {
        assert_eq!(Seat::Both.side(Side::Black), Side::Black);
        assert_eq!(Seat::White.side(Side::Black), Side::White);
        assert!(Seat::Both.may_move(Side::White));
        assert!(!Seat::Black.may_move(Side::White));
    }
}
