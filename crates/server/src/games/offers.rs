//! What the players agree on or call off: draw offers, takeback requests
//! (friend games) and aborts before both sides have moved.

use std::sync::Arc;

use crate::engine::pool::ClientKey;
use crate::games::clock::Clock;
use crate::games::hub::{Hub, conflict, must_be_active, seated};
use crate::games::ids::now_ms;
use crate::games::ids::random_id;
use crate::games::live::{Json, Live};
use crate::games::model::{Declared, Mode, Side, Status};
use crate::games::seats::Seat;
use crate::http::error::{ApiError, ApiResult};
use crate::i18n::Text;
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

impl Hub {
    pub async fn draw(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
        action: Action,
        client: ClientKey,
    ) -> ApiResult<Json> {
        let handle = self.get(id).await?;
        let mut g = self.fresh(&handle).await?;
        let now = now_ms();
        self.settle(&mut g, now).await?;
        let seat = seated(&g, token)?;
        must_be_active(&g)?;
        let me = seat.side(g.turn());
        match action {
            Action::Offer if g.row.mode == Mode::Engine => {
                // The engine thinks without holding the game: moves and
                // watchers go on meanwhile, and its answer counts only if
                // the game is as it was.
                let (pos, version) = (*g.game.position(), g.version);
                drop(g);
                let accepts = self.engine_accepts_draw(pos, me.other(), client).await?;
                let mut g = self.fresh(&handle).await?;
                if g.version != version {
                    return Err(conflict(Text::new("server.changed_meanwhile")));
                }
                if accepts {
                    self.declare(&mut g, Declared::DrawAgreed, now_ms()).await?;
                    return Ok(self.full(&mut g, Some(seat)));
                }
                return Ok(g.full_with(Some(seat), now_ms(), self.first_move_ms, true));
            }
            Action::Offer => {
                if g.row.draw_offer != Some(me) {
                    self.edit(&mut g, |r| r.draw_offer = Some(me)).await?;
                }
            }
            Action::Accept => {
                let offer = g.row.draw_offer;
                // On one device the same seat offers and accepts.
                let own = offer == Some(me) && g.row.mode != Mode::Local;
                if offer.is_none() || own {
                    return Err(conflict(Text::new("server.no_draw_to_accept")));
                }
                self.declare(&mut g, Declared::DrawAgreed, now).await?;
            }
            Action::Decline => {
                if g.row.draw_offer.is_none() {
                    return Err(conflict(Text::new("server.no_draw_to_decline")));
                }
                self.edit(&mut g, |r| r.draw_offer = None).await?;
            }
        }
        Ok(self.full(&mut g, Some(seat)))
    }

    /// Friend games: ask to take back your last move, accept or decline.
    pub async fn takeback(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
        action: Action,
    ) -> ApiResult<Json> {
        let handle = self.get(id).await?;
        let mut g = self.fresh(&handle).await?;
        let now = now_ms();
        self.settle(&mut g, now).await?;
        let seat = seated(&g, token)?;
        if g.row.mode != Mode::Friend {
            return Err(conflict(Text::new("server.use_undo")));
        }
        must_be_active(&g)?;
        let me = seat.side(g.turn());
        match action {
            Action::Offer => {
                if last_move_of(&g, me).is_none() {
                    return Err(conflict(Text::new("server.no_move_of_yours")));
                }
                if g.row.takeback_offer != Some(me) {
                    self.edit(&mut g, |r| r.takeback_offer = Some(me)).await?;
                }
            }
            Action::Accept => {
                let Some(asker) = g.row.takeback_offer.filter(|&s| s != me) else {
                    return Err(conflict(Text::new("server.no_takeback_to_accept")));
                };
                let Some(ply) = last_move_of(&g, asker) else {
                    return Err(ApiError::internal("a takeback request without a move"));
                };
                self.take_back_to(&mut g, &handle, ply, now).await?;
            }
            Action::Decline => {
                if g.row.takeback_offer.is_none() {
                    return Err(conflict(Text::new("server.no_takeback_to_decline")));
                }
                self.edit(&mut g, |r| r.takeback_offer = None).await?;
            }
        }
        Ok(self.full(&mut g, Some(seat)))
    }

    /// Until both sides have moved, either seat may call the game off.
    pub async fn abort(self: &Arc<Self>, id: &str, token: Option<&str>) -> ApiResult<Json> {
        let handle = self.get(id).await?;
        let mut g = self.fresh(&handle).await?;
        let now = now_ms();
        self.settle(&mut g, now).await?;
        let seat = seated(&g, token)?;
        if g.status() != Status::Waiting {
            must_be_active(&g)?;
        }
        if g.played() >= 2 {
            return Err(conflict(Text::new("server.too_late_to_abort")));
        }
        let side = seat.side(g.turn());
        self.declare(&mut g, Declared::Aborted(side), now).await?;
        Ok(self.full(&mut g, Some(seat)))
    }
}

/// A rematch: the new game, for the one who asked or accepted.
pub struct Rematch {
    pub id: String,
    pub token: String,
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
        id: &str,
        token: Option<&str>,
        action: Action,
        client: ClientKey,
    ) -> ApiResult<Option<Rematch>> {
        let handle = self.get(id).await?;
        let mut g = self.fresh(&handle).await?;
        let now = now_ms();
        self.settle(&mut g, now).await?;
        let seat = seated(&g, token)?;
        if matches!(g.status(), Status::Active | Status::Waiting) {
            return Err(conflict(Text::new("server.rematch_after_end")));
        }
        if g.row.rematch.is_some() {
            return Err(conflict(Text::new("server.rematch_exists")));
        }
        let me = seat.side(g.turn());
        if g.row.mode == Mode::Friend {
            match action {
                Action::Offer if g.row.rematch_offer != Some(me) => {
                    self.edit(&mut g, |r| r.rematch_offer = Some(me)).await?;
                    return Ok(None);
                }
                Action::Offer => return Ok(None),
                Action::Decline => {
                    if g.row.rematch_offer.is_none() {
                        return Err(conflict(Text::new("server.no_rematch_offer")));
                    }
                    self.edit(&mut g, |r| r.rematch_offer = None).await?;
                    return Ok(None);
                }
                Action::Accept if g.row.rematch_offer.is_some_and(|s| s != me) => {}
                Action::Accept => return Err(conflict(Text::new("server.no_rematch_offer"))),
            }
        }
        let old = g.row.clone();
        let new_id = random_id(10);
        let started = Some(now);
        let row = GameRow {
            level: old.level,
            engine_color: old.engine_color.map(Side::other),
            white_token: old.black_token.clone(),
            black_token: old.white_token.clone(),
            started_ms: started,
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
        self.edit(&mut g, |r| {
            r.rematch = Some(new_id.clone());
            r.rematch_offer = None;
        })
        .await?;
        Ok(Some(Rematch {
            id: new_id,
            token: token.unwrap_or_default().to_string(),
            seat: new_seat,
            state,
        }))
    }
}
