//! Quick pairing (issue 20): a player joins a pool of one time control
//! and is matched in waves, as lichess's pools are: every wave pairs the
//! waiting players whose ratings are close enough, and the gap allowed
//! grows the longer they wait. Accounts are paired with accounts (a rated
//! game), anonymous visitors with anonymous visitors (casual).

use crate::games::hub::PairedGame;
use crate::games::ids::{GameId, now_ms};
use crate::games::model::{Pairing, Side};
use crate::lobby::bus::News;
use crate::lobby::seeks::{ColorChoice, Terms};
use crate::lobby::{Lobby, LobbyRefusal, LobbyResult, Made, Visitor};
use crate::store::SeekRow;

/// A pool: its key, and its clock (initial s, increment s) or days per
/// move.
pub type Pool = (&'static str, Option<(i64, i64)>, Option<u8>);

/// The pools.
pub const POOLS: &[Pool] = &[
    ("3+2", Some((180, 2)), None),
    ("5+3", Some((300, 3)), None),
    ("10+5", Some((600, 5)), None),
    ("15+10", Some((900, 10)), None),
    ("30+0", Some((1800, 0)), None),
    ("3d", None, Some(3)),
];

/// The rating gap a wave allows between two players, the longer of their
/// waits in ms: 200 at once, 100 more every 5 s, any after a minute.
pub fn gap(waited_ms: i64) -> f64 {
    if waited_ms >= 60_000 {
        f64::INFINITY
    } else {
        200.0 + 100.0 * (waited_ms / 5_000) as f64
    }
}

/// The terms of pool `key`, if there is one: rated for accounts.
pub fn terms(key: &str, signed_in: bool) -> Option<Terms> {
    POOLS
        .iter()
        .find(|(k, ..)| *k == key)
        .map(|(_, clock, days)| Terms {
            clock: clock.map(|(i, inc)| (i * 1000, inc * 1000)),
            days: *days,
            rated: signed_in,
            color: ColorChoice::Random,
        })
}

/// Pairs of places to match in one wave: closest ratings first, each
/// place at most once, never two of one owner.
pub fn wave(places: &[SeekRow], now: i64) -> Vec<(usize, usize)> {
    let mut candidates = Vec::new();
    for (i, a) in places.iter().enumerate() {
        for (j, b) in places.iter().enumerate().skip(i + 1) {
            let same_owner = (a.owner.is_some() && a.owner == b.owner) || a.seat == b.seat;
            if a.pool != b.pool || a.rated != b.rated || same_owner {
                continue;
            }
            let diff = (a.rating.unwrap_or(1500.0) - b.rating.unwrap_or(1500.0)).abs();
            let waited = now - a.created_ms.min(b.created_ms);
            if diff <= gap(waited) {
                candidates.push((diff, i, j));
            }
        }
    }
    candidates.sort_by(|x, y| x.0.total_cmp(&y.0));
    let mut taken = vec![false; places.len()];
    let mut pairs = Vec::new();
    for (_, i, j) in candidates {
        if !taken[i] && !taken[j] {
            taken[i] = true;
            taken[j] = true;
            pairs.push((i, j));
        }
    }
    pairs
}

impl Lobby {
    /// Joins pool `key`.
    pub async fn join_pool(&self, key: &str, who: &Visitor) -> LobbyResult<Made> {
        let terms = terms(key, who.user.is_some()).ok_or(LobbyRefusal::NoPool)?;
        self.open(who, terms, None, Some(key)).await
    }

    /// One wave of every pool.
    pub(crate) async fn pair_pools(&self) -> LobbyResult<()> {
        let now = now_ms();
        let places = self.store.pool_places(now).await?;
        for (i, j) in wave(&places, now) {
            self.pair(&places[i], &places[j]).await?;
        }
        Ok(())
    }

    async fn pair(&self, a: &SeekRow, b: &SeekRow) -> LobbyResult<()> {
        let game = GameId::random();
        let a_side = crate::lobby::side_of(ColorChoice::Random);
        let pair = [
            (a.id.clone(), a_side.code().to_string()),
            (b.id.clone(), a_side.other().code().to_string()),
        ];
        // Another server's wave may have taken one of them.
        if !self.store.claim_pair(pair, &game, now_ms()).await? {
            return Ok(());
        }
        let (white, black) = match a_side {
            Side::White => (a, b),
            Side::Black => (b, a),
        };
        let made = self
            .hub
            .create_paired(PairedGame {
                id: game.clone(),
                white: (white.seat.clone(), white.owner),
                black: (black.seat.clone(), black.owner),
                clock: a.clock,
                days: a.days,
                rated: a.rated && a.owner.is_some() && b.owner.is_some(),
                pairing: Pairing::Pool,
            })
            .await;
        if let Err(e) = made {
            self.store.release_seek(&a.id).await?;
            self.store.release_seek(&b.id).await?;
            return Err(e.into());
        }
        for (place, side) in [(a, a_side), (b, a_side.other())] {
            self.bus
                .tell(News::Paired {
                    seek: place.id.clone(),
                    game: game.clone(),
                    color: side,
                })
                .await;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::ids::{SeatToken, SeekId, UserId};

    fn place(pool: &str, user: Option<i64>, rating: f64, created_ms: i64) -> SeekRow {
        SeekRow {
            id: SeekId::random(),
            owner: user.map(UserId),
            owner_name: None,
            seat: SeatToken::random().hash(),
            clock: Some((180_000, 2_000)),
            days: None,
            rated: user.is_some(),
            color: "random".into(),
            rating: Some(rating),
            rd: Some(100.0),
            min_rating: None,
            max_rating: None,
            pool: Some(pool.into()),
            created_ms,
            alive_until_ms: i64::MAX,
            game: None,
            game_color: None,
        }
    }

    #[test]
    fn the_gap_grows_with_the_wait() {
        assert_eq!(gap(0), 200.0);
        assert_eq!(gap(4_999), 200.0);
        assert_eq!(gap(5_000), 300.0);
        assert_eq!(gap(30_000), 800.0);
        assert!(gap(60_000).is_infinite());
    }

    #[test]
    fn a_wave_pairs_the_closest_ratings_first() {
        let now = 1_000_000;
        let places = vec![
            place("3+2", Some(1), 1500.0, now),
            place("3+2", Some(2), 1900.0, now),
            place("3+2", Some(3), 1550.0, now),
            place("3+2", Some(4), 1850.0, now),
            // Another pool, and an anonymous visitor: not with these.
            place("5+3", Some(5), 1520.0, now),
            place("3+2", None, 1500.0, now),
        ];
        assert_eq!(wave(&places, now), vec![(0, 2), (1, 3)]);
        // 1500 and 1900 alone: 400 apart, paired only after 10 s.
        let two = vec![
            place("3+2", Some(1), 1500.0, now),
            place("3+2", Some(2), 1900.0, now),
        ];
        assert!(wave(&two, now + 9_999).is_empty());
        assert_eq!(wave(&two, now + 10_000), vec![(0, 1)]);
        // One account's two places are never paired together.
        let same = vec![
            place("3+2", Some(1), 1500.0, now),
            place("3+2", Some(1), 1500.0, now),
        ];
        assert!(wave(&same, now).is_empty());
        assert_eq!(terms("3d", true).unwrap().days, Some(3));
        assert!(terms("3+2", false).is_some_and(|t| !t.rated));
        assert!(terms("4+4", true).is_none());
    }
}
