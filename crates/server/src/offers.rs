//! What the players agree on or call off: draw offers, takeback requests
//! (friend games) and aborts before both sides have moved.

use std::sync::Arc;

use crate::error::{ApiError, ApiResult};
use crate::hub::{Hub, must_be_active, seated};
use crate::ids::now_ms;
use crate::live::{Json, Live};
use crate::model::{Declared, Mode, Side, Status};
use crate::pool::ClientKey;

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
        let mut g = handle.lock().await;
        let now = now_ms();
        self.settle(&mut g, now).await?;
        let seat = seated(&g, token, "a draw offer")?;
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
                let mut g = handle.lock().await;
                if g.version != version {
                    return Err(ApiError::conflict(
                        "the game changed while the engine considered your offer; offer again",
                    ));
                }
                if accepts {
                    self.declare(&mut g, Declared::DrawAgreed, now_ms()).await?;
                    return Ok(self.full(&mut g, Some(seat)));
                }
                return Ok(g.full_with(Some(seat), now_ms(), self.first_move_ms, true));
            }
            Action::Offer => {
                if g.row.draw_offer != Some(me) {
                    let mut row = g.row.clone();
                    row.draw_offer = Some(me);
                    self.save(&mut g, row).await?;
                }
            }
            Action::Accept => {
                let offer = g.row.draw_offer;
                // On one device the same seat offers and accepts.
                let own = offer == Some(me) && g.row.mode != Mode::Local;
                if offer.is_none() || own {
                    return Err(ApiError::conflict("there is no draw offer to accept"));
                }
                self.declare(&mut g, Declared::DrawAgreed, now).await?;
            }
            Action::Decline => {
                if g.row.draw_offer.is_none() {
                    return Err(ApiError::conflict("there is no draw offer to decline"));
                }
                let mut row = g.row.clone();
                row.draw_offer = None;
                self.save(&mut g, row).await?;
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
        let mut g = handle.lock().await;
        let now = now_ms();
        self.settle(&mut g, now).await?;
        let seat = seated(&g, token, "a takeback")?;
        if g.row.mode != Mode::Friend {
            return Err(ApiError::conflict(
                "takebacks are asked for in games between two people; use undo",
            ));
        }
        must_be_active(&g)?;
        let me = seat.side(g.turn());
        match action {
            Action::Offer => {
                if last_move_of(&g, me).is_none() {
                    return Err(ApiError::conflict("you have no move to take back"));
                }
                if g.row.takeback_offer != Some(me) {
                    let mut row = g.row.clone();
                    row.takeback_offer = Some(me);
                    self.save(&mut g, row).await?;
                }
            }
            Action::Accept => {
                let Some(asker) = g.row.takeback_offer.filter(|&s| s != me) else {
                    return Err(ApiError::conflict("there is no takeback request to accept"));
                };
                let Some(ply) = last_move_of(&g, asker) else {
                    return Err(ApiError::internal("a takeback request without a move"));
                };
                self.take_back_to(&mut g, &handle, ply, now).await?;
            }
            Action::Decline => {
                if g.row.takeback_offer.is_none() {
                    return Err(ApiError::conflict(
                        "there is no takeback request to decline",
                    ));
                }
                let mut row = g.row.clone();
                row.takeback_offer = None;
                self.save(&mut g, row).await?;
            }
        }
        Ok(self.full(&mut g, Some(seat)))
    }

    /// Until both sides have moved, either seat may call the game off.
    pub async fn abort(self: &Arc<Self>, id: &str, token: Option<&str>) -> ApiResult<Json> {
        let handle = self.get(id).await?;
        let mut g = handle.lock().await;
        let now = now_ms();
        self.settle(&mut g, now).await?;
        let seat = seated(&g, token, "aborting")?;
        if g.status() != Status::Waiting {
            must_be_active(&g)?;
        }
        if g.played() >= 2 {
            return Err(ApiError::conflict(
                "both sides have moved: the game can no longer be aborted (resign instead)",
            ));
        }
        let side = seat.side(g.turn());
        self.declare(&mut g, Declared::Aborted(side), now).await?;
        Ok(self.full(&mut g, Some(seat)))
    }
}
