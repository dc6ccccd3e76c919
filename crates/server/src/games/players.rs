//! Who plays a game, as its state shows them (issue 20): each seat's
//! account, its rating in the game's speed class, and the change a rated
//! game made. Read from the store when a game is loaded and after its
//! ratings are settled; anonymous seats show nothing.

use serde::Serialize;

use crate::games::model::Side;
use crate::players::ratings::{PROVISIONAL_RD, Rating, SpeedClass};
use crate::store::{GameRow, Store, StoreError};

/// A seat held by an account.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeatPlayer {
    /// As typed at registration; `None` for a deleted account.
    pub name: Option<String>,
    /// The rating in the game's class: before the game once it was
    /// rated and settled, else as it stands now.
    pub rating: Option<f64>,
    pub provisional: bool,
    /// What the game changed (after minus before), once settled.
    pub diff: Option<f64>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Players {
    pub w: Option<SeatPlayer>,
    pub b: Option<SeatPlayer>,
}

/// The speed class of a game: days per move are correspondence, a clock
/// is classed by its estimate; an untimed game has none (never rated).
pub fn class_of(row: &GameRow) -> Option<SpeedClass> {
    if row.days.is_some() {
        return Some(SpeedClass::Correspondence);
    }
    row.clock
        .map(|c| SpeedClass::of_clock(c.initial_ms as f64 / 1000.0, c.increment_ms as f64 / 1000.0))
}

/// The players of `row`, or `None` when no seat has an account.
pub async fn load(store: &Store, row: &GameRow) -> Result<Option<Players>, StoreError> {
    if row.white_user.is_none() && row.black_user.is_none() {
        return Ok(None);
    }
    let class = class_of(row);
    let changes = if row.rated && row.result.is_some() {
        store.rating_changes(&row.id).await?
    } else {
        Vec::new()
    };
    let seat = async |side: Side| -> Result<Option<SeatPlayer>, StoreError> {
        let user = match side {
            Side::White => row.white_user,
            Side::Black => row.black_user,
        };
        let Some(user) = user else { return Ok(None) };
        let account = store.account_by_id(user).await?;
        let name = account.filter(|a| !a.deleted).map(|a| a.username);
        if let Some(c) = changes.iter().find(|c| c.account == user) {
            return Ok(Some(SeatPlayer {
                name,
                rating: Some(c.before),
                provisional: c.before_rd >= PROVISIONAL_RD,
                diff: Some(c.after - c.before),
            }));
        }
        let current = match class {
            Some(class) => store
                .ratings_of(user)
                .await?
                .into_iter()
                .find(|r| r.class == class.name())
                .map(|r| (r.rating, r.rd)),
            None => None,
        };
        let start = Rating::default();
        let (rating, rd) = current.unwrap_or((start.rating, start.rd));
        Ok(Some(SeatPlayer {
            name,
            rating: class.map(|_| rating),
            provisional: rd >= PROVISIONAL_RD,
            diff: None,
        }))
    };
    let w = seat(Side::White).await?;
    let b = seat(Side::Black).await?;
    Ok(Some(Players { w, b }))
}
