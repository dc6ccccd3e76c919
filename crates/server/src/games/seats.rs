//! Seats and their secrets. A seat's token is made by the server and
//! handed out once: to the creator, or to whoever claims a friend game's
//! one-time invite; the database keeps only its hash. Tokens travel in
//! `Authorization` headers and WebSocket messages, never in URLs.

use serde::Serialize;

use crate::games::ids::SeatToken;
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
pub fn seat_of(row: &GameRow, token: Option<&SeatToken>) -> Option<Seat> {
    let t = token?;
    let holds = |seat: &Option<_>| seat.as_ref().is_some_and(|s| t.opens(s));
    match (holds(&row.white_seat), holds(&row.black_seat)) {
        (true, true) => Some(Seat::Both),
        (true, false) => Some(Seat::White),
        (false, true) => Some(Seat::Black),
        (false, false) => None,
    }
}

/// The side an unclaimed invite opens: the seat that has no token yet.
pub fn open_side(row: &GameRow) -> Option<Side> {
    match (&row.white_seat, &row.black_seat) {
        (None, Some(_)) => Some(Side::White),
        (Some(_), None) => Some(Side::Black),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::model::Mode;

    fn token(s: &str) -> SeatToken {
        SeatToken::parse(s).unwrap()
    }

    fn row(w: Option<&str>, b: Option<&str>) -> GameRow {
        let id = crate::games::ids::GameId::parse("g").unwrap();
        let mut r = GameRow::new(&id, Mode::Friend, "default", legion_rules::INITIAL_LFEN, 0);
        r.white_seat = w.map(|t| token(t).hash());
        r.black_seat = b.map(|t| token(t).hash());
        r
    }

    #[test]
    fn tokens_give_their_seats_only() {
        let r = row(Some("whiteSecret"), Some("blackSecret"));
        assert_eq!(seat_of(&r, Some(&token("whiteSecret"))), Some(Seat::White));
        assert_eq!(seat_of(&r, Some(&token("blackSecret"))), Some(Seat::Black));
        assert_eq!(seat_of(&r, Some(&token("blackSecreT"))), None);
        assert_eq!(seat_of(&r, None), None);
        let local = row(Some("both"), Some("both"));
        assert_eq!(seat_of(&local, Some(&token("both"))), Some(Seat::Both));
    }

    #[test]
    fn an_invite_opens_the_seat_without_a_token() {
        assert_eq!(open_side(&row(Some("w"), None)), Some(Side::Black));
        assert_eq!(open_side(&row(None, Some("b"))), Some(Side::White));
        assert_eq!(open_side(&row(Some("w"), Some("b"))), None);
    }

    #[test]
    fn a_shared_device_acts_for_the_side_to_move() {
        assert_eq!(Seat::Both.side(Side::Black), Side::Black);
        assert_eq!(Seat::White.side(Side::Black), Side::White);
        assert!(Seat::Both.may_move(Side::White));
        assert!(!Seat::Black.may_move(Side::White));
    }
}
