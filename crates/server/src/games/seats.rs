//! Seats and their secrets. A seat's token is made by the server and
//! handed out once: to the creator, or to whoever claims a friend game's
//! one-time invite; the database keeps only its hash. Tokens travel in
//! `Authorization` headers and WebSocket messages, never in URLs.

use serde::Serialize;

use crate::games::ids::{SeatToken, UserId};
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

/// Who asks: the seat token they sent, and the account they are signed
/// in with (a signed-in player's session is their seat, issue 20).
#[derive(Clone, Debug, Default)]
pub struct Who {
    pub token: Option<SeatToken>,
    pub user: Option<UserId>,
}

impl Who {
    pub fn token(token: Option<SeatToken>) -> Who {
        Who { token, user: None }
    }
}

/// The seat `who` holds in the game of `row`, if any: by its token, or by
/// its account.
pub fn seat_of(row: &GameRow, who: &Who) -> Option<Seat> {
    let holds = |seat: &Option<_>, user: Option<UserId>| {
        who.token
            .as_ref()
            .is_some_and(|t| seat.as_ref().is_some_and(|s| t.opens(s)))
            || (who.user.is_some() && who.user == user)
    };
    match (
        holds(&row.white_seat, row.white_user),
        holds(&row.black_seat, row.black_user),
    ) {
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

    fn with(t: &str) -> Who {
        Who::token(Some(token(t)))
    }

    #[test]
    fn tokens_give_their_seats_only() {
        let r = row(Some("whiteSecret"), Some("blackSecret"));
        assert_eq!(seat_of(&r, &with("whiteSecret")), Some(Seat::White));
        assert_eq!(seat_of(&r, &with("blackSecret")), Some(Seat::Black));
        assert_eq!(seat_of(&r, &with("blackSecreT")), None);
        assert_eq!(seat_of(&r, &Who::default()), None);
        let local = row(Some("both"), Some("both"));
        assert_eq!(seat_of(&local, &with("both")), Some(Seat::Both));
    }

    #[test]
    fn an_account_holds_its_seat_without_a_token() {
        let mut r = row(Some("whiteSecret"), Some("blackSecret"));
        r.black_user = Some(UserId(7));
        let me = Who {
            token: None,
            user: Some(UserId(7)),
        };
        assert_eq!(seat_of(&r, &me), Some(Seat::Black));
        let other = Who {
            token: None,
            user: Some(UserId(8)),
        };
        assert_eq!(seat_of(&r, &other), None);
        // No account on either seat: a signed-in stranger holds nothing.
        assert_eq!(seat_of(&row(Some("w"), None), &other), None);
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
