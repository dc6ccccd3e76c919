//! What the players agree on or call off: draw offers, takeback requests
//! (friend games) and aborts before both sides have moved.

use std::sync::Arc;

use crate::engine::pool::ClientKey;
use crate::games::clock::Clock;
use crate::games::hub::{Edit, Hub};
use crate::games::ids::{GameId, now_ms};
use crate::games::live::{Json, Live};
use crate::games::model::{Declared, Mode, Side, Status};
use crate::games::refusal::{CoreError, CoreResult, Refusal};
use crate::games::seats::{Seat, Who};
use crate::store::GameRow;

/// An answer to an offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    Offer,
    Accept,
    Decline,
}

/// The ply of `side`'s last move: a takeback by `side` goes back to it.
fn last_move_of(g: &Live, side: Side) -> Option<usize> {
    let positions = g.game.positions();
    (0..g.played())
        .rev()
        .find(|&i| Side::from(positions[i].turn()) == side)
}

/// The row with one change, as an edit.
fn edited(g: &Live, change: impl FnOnce(&mut GameRow)) -> Edit {
    let mut row = g.row.clone();
    change(&mut row);
    Edit::Row(Box::new(row))
}

impl Hub {
    pub async fn draw(
        self: &Arc<Self>,
        id: &GameId,
        who: &Who,
        action: Action,
        client: ClientKey,
    ) -> CoreResult<Json> {
        if action == Action::Offer {
            let (_, g) = self.current(id).await?;
            if g.row.mode == Mode::Engine {
                let seat = g.seated(who)?;
                g.must_be_active()?;
                let me = seat.side(g.turn());
                // The engine thinks without holding the game: moves and
                // watchers go on meanwhile, and its answer counts only if
                // the game is as it was.
                let (pos, version) = (*g.game.position(), g.row.version);
                drop(g);
                let accepts = self.engine_accepts_draw(pos, me.other(), client).await?;
                let (mut g, seat) = self
                    .act(id, None, |g, _| {
                        if g.row.version != version {
                            return Err(Refusal::ChangedWhileThinking);
                        }
                        let seat = g.seated(who)?;
                        let edit = if accepts {
                            Edit::Declare(Declared::DrawAgreed)
                        } else {
                            Edit::Nothing
                        };
                        Ok((edit, Some(seat)))
                    })
                    .await?;
                return Ok(g.full_with(seat, now_ms(), self.first_move_ms, !accepts));
            }
        }
        let (mut g, seat) = self
            .act(id, None, |g, _| {
                let seat = g.seated(who)?;
                g.must_be_active()?;
                let me = seat.side(g.turn());
                let edit = match action {
                    Action::Offer if g.row.draw_offer == Some(me) => Edit::Nothing,
                    Action::Offer => edited(g, |r| r.draw_offer = Some(me)),
                    Action::Accept => {
                        let offer = g.row.draw_offer;
                        // On one device the same seat offers and accepts.
                        let own = offer == Some(me) && g.row.mode != Mode::Local;
                        if offer.is_none() || own {
                            return Err(Refusal::NoDrawToAccept);
                        }
                        Edit::Declare(Declared::DrawAgreed)
                    }
                    Action::Decline => {
                        if g.row.draw_offer.is_none() {
                            return Err(Refusal::NoDrawToDecline);
                        }
                        edited(g, |r| r.draw_offer = None)
                    }
                };
                Ok((edit, Some(seat)))
            })
            .await?;
        Ok(self.full(&mut g, seat))
    }

    /// Friend games: ask to take back your last move, accept or decline.
    pub async fn takeback(
        self: &Arc<Self>,
        id: &GameId,
        who: &Who,
        action: Action,
    ) -> CoreResult<Json> {
        let (mut g, seat) = self
            .act(id, None, |g, _| {
                let seat = g.seated(who)?;
                if g.row.mode != Mode::Friend {
                    return Err(Refusal::UseUndo);
                }
                g.must_be_active()?;
                let me = seat.side(g.turn());
                let edit = match action {
                    Action::Offer => {
                        if last_move_of(g, me).is_none() {
                            return Err(Refusal::NoMoveOfYours);
                        }
                        if g.row.takeback_offer == Some(me) {
                            Edit::Nothing
                        } else {
                            edited(g, |r| r.takeback_offer = Some(me))
                        }
                    }
                    Action::Accept => {
                        let asker = g
                            .row
                            .takeback_offer
                            .filter(|&s| s != me)
                            .ok_or(Refusal::NoTakebackToAccept)?;
                        // An offer is made only by a side with a move.
                        let ply = last_move_of(g, asker).ok_or(Refusal::NoTakebackToAccept)?;
                        Edit::TakeBack(ply)
                    }
                    Action::Decline => {
                        if g.row.takeback_offer.is_none() {
                            return Err(Refusal::NoTakebackToDecline);
                        }
                        edited(g, |r| r.takeback_offer = None)
                    }
                };
                Ok((edit, Some(seat)))
            })
            .await?;
        Ok(self.full(&mut g, seat))
    }

    /// Until both sides have moved, either seat may call the game off.
    pub async fn abort(self: &Arc<Self>, id: &GameId, who: &Who) -> CoreResult<Json> {
        let (mut g, seat) = self
            .act(id, None, |g, _| {
                let seat = g.seated(who)?;
                if g.status() != Status::Waiting {
                    g.must_be_active()?;
                }
                if g.played() >= 2 {
                    return Err(Refusal::TooLateToAbort);
                }
                let side = seat.side(g.turn());
                Ok((Edit::Declare(Declared::Aborted(side)), Some(seat)))
            })
            .await?;
        Ok(self.full(&mut g, seat))
    }
}

/// A rematch: the new game, for the one who asked or accepted.
pub struct Rematch {
    pub id: GameId,
    pub seat: Seat,
    pub state: Json,
}

impl Hub {
    /// After a game: the same game again with colours swapped. Against the
    /// engine or on one device it starts at once; between two people one
    /// asks and the other accepts. Each keeps their token, now for the
    /// other colour, so both pages follow without a new invite.
    pub async fn rematch(
        self: &Arc<Self>,
        id: &GameId,
        who: &Who,
        action: Action,
        client: ClientKey,
    ) -> CoreResult<Option<Rematch>> {
        // Whether the new game is to be made now (else an offer changed).
        let mut start = false;
        let (mut g, seat) = self
            .act(id, None, |g, _| {
                start = false;
                let seat = g.seated(who)?;
                if matches!(g.status(), Status::Active | Status::Waiting) {
                    return Err(Refusal::RematchAfterEnd);
                }
                if g.row.rematch.is_some() {
                    return Err(Refusal::RematchExists);
                }
                let me = seat.side(g.turn());
                let edit = match (g.row.mode, action) {
                    (Mode::Friend, Action::Offer) if g.row.rematch_offer == Some(me) => {
                        Edit::Nothing
                    }
                    (Mode::Friend, Action::Offer) => edited(g, |r| r.rematch_offer = Some(me)),
                    (Mode::Friend, Action::Decline) => {
                        if g.row.rematch_offer.is_none() {
                            return Err(Refusal::NoRematchOffer);
                        }
                        edited(g, |r| r.rematch_offer = None)
                    }
                    (Mode::Friend, Action::Accept)
                        if !g.row.rematch_offer.is_some_and(|s| s != me) =>
                    {
                        return Err(Refusal::NoRematchOffer);
                    }
                    _ => {
                        start = true;
                        Edit::Nothing
                    }
                };
                Ok((edit, Some(seat)))
            })
            .await?;
        if !start {
            return Ok(None);
        }
        let seat = seat.ok_or_else(|| CoreError::internal("a rematch without a seat"))?;
        // The old game stays locked while the new one is made: one
        // rematch per game.
        let old = g.row.clone();
        let new_id = GameId::random();
        let now = now_ms();
        let row = GameRow {
            level: old.level,
            engine_color: old.engine_color.map(Side::other),
            white_seat: old.black_seat.clone(),
            black_seat: old.white_seat.clone(),
            white_user: old.black_user,
            black_user: old.white_user,
            started_ms: Some(now),
            clock: old
                .clock
                .map(|c| Clock::new(c.initial_ms, c.increment_ms).restarted(now)),
            ..GameRow::new(&new_id, old.mode, &old.rules, &old.start_lfen, now)
        };
        let new_seat = match seat {
            Seat::White => Seat::Black,
            Seat::Black => Seat::White,
            Seat::Both => Seat::Both,
        };
        let state = self.open_game(row, client, new_seat).await?;
        let handle = self.get(id).await?;
        let edit = edited(&g, |r| {
            r.rematch = Some(new_id.clone());
            r.rematch_offer = None;
        });
        self.commit(&mut g, &handle, edit, now).await?;
        Ok(Some(Rematch {
            id: new_id,
            seat: new_seat,
            state,
        }))
    }
}
