//! The games in memory: a cache with a bound. A game is read from the
//! store on first use and evicted when the cache is over its bound and
//! nobody uses it (no request, socket or engine search holds it); the
//! store is always up to date, so an evicted game is read back as it was.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use crate::games::ids::GameId;
use crate::games::live::Live;

pub type Handle = Arc<tokio::sync::Mutex<Live>>;

struct Entry {
    handle: Handle,
    last_used: u64,
}

pub struct GameCache {
    games: Mutex<HashMap<GameId, Entry>>,
    capacity: usize,
    tick: AtomicU64,
}

impl GameCache {
    pub fn new(capacity: usize) -> GameCache {
        GameCache {
            games: Mutex::new(HashMap::new()),
            capacity: capacity.max(1),
            tick: AtomicU64::new(0),
        }
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<GameId, Entry>> {
        // Nothing panics while holding this lock; a poisoned map is whole.
        self.games.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub fn get(&self, id: &GameId) -> Option<Handle> {
        let tick = self.tick.fetch_add(1, Ordering::Relaxed);
        let mut games = self.lock();
        let e = games.get_mut(id)?;
        e.last_used = tick;
        Some(e.handle.clone())
    }

    /// Keeps `live` under `id`, or returns the game another caller kept
    /// there first; evicts idle games if the cache is over its bound.
    pub fn insert(&self, id: &GameId, live: Live) -> Handle {
        let tick = self.tick.fetch_add(1, Ordering::Relaxed);
        let mut games = self.lock();
        let handle = games
            .entry(id.clone())
            .or_insert_with(|| Entry {
                handle: Arc::new(tokio::sync::Mutex::new(live)),
                last_used: tick,
            })
            .handle
            .clone();
        if games.len() > self.capacity {
            evict(&mut games, self.capacity);
        }
        handle
    }

    /// Every game in memory (to read again those others may have changed).
    pub fn all(&self) -> Vec<Handle> {
        self.lock().values().map(|e| e.handle.clone()).collect()
    }

    /// The game `id` if it is in memory, without counting as a use.
    pub fn peek(&self, id: &GameId) -> Option<Handle> {
        self.lock().get(id).map(|e| e.handle.clone())
    }

    pub fn len(&self) -> usize {
        self.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Drops the least recently used idle games, down to 90% of the bound so
/// that the scan is paid once for many inserts.
fn evict(games: &mut HashMap<GameId, Entry>, capacity: usize) {
    let target = capacity - capacity / 10;
    let mut idle: Vec<(u64, GameId)> = games
        .iter()
        .filter(|(_, e)| is_idle(&e.handle))
        .map(|(id, e)| (e.last_used, id.clone()))
        .collect();
    idle.sort_unstable();
    let excess = games.len().saturating_sub(target);
    for (_, id) in idle.into_iter().take(excess) {
        games.remove(&id);
    }
}

/// Nobody but the cache holds the game, and no engine search is due.
fn is_idle(h: &Handle) -> bool {
    Arc::strong_count(h) == 1 && h.try_lock().is_ok_and(|g| !g.engine_thinking)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::model::Mode;
    use crate::store::GameRow;
    use std::net::{IpAddr, Ipv4Addr};

    fn id(s: &str) -> GameId {
        GameId::parse(s).unwrap()
    }

    fn live(name: &str) -> Live {
        let mut row = GameRow::new(
            &id(name),
            Mode::Local,
            "default",
            legion_rules::INITIAL_LFEN,
            0,
        );
        row.started_ms = Some(0);
        crate::games::live::rebuild(row, &[], IpAddr::V4(Ipv4Addr::LOCALHOST)).unwrap()
    }

    #[test]
    fn the_bound_holds_and_the_least_recently_used_go_first() {
        let cache = GameCache::new(10);
        for i in 0..10 {
            cache.insert(&id(&format!("g{i}")), live(&format!("g{i}")));
        }
        // g0 is used again; the 11th game evicts down to 9: g1 and g2 go.
        assert!(cache.get(&id("g0")).is_some());
        cache.insert(&id("g10"), live("g10"));
        assert_eq!(cache.len(), 9);
        assert!(cache.get(&id("g0")).is_some());
        assert!(cache.get(&id("g1")).is_none());
        assert!(cache.get(&id("g2")).is_none());
        assert!(cache.get(&id("g3")).is_some());
    }

    #[test]
    fn games_in_use_are_never_evicted() {
        let cache = GameCache::new(2);
        let held: Vec<Handle> = (0..5)
            .map(|i| cache.insert(&id(&format!("h{i}")), live(&format!("h{i}"))))
            .collect();
        // Every game is held by someone: the cache grows rather than drop one.
        assert_eq!(cache.len(), 5);
        drop(held);
        cache.insert(&id("x"), live("x"));
        assert!(cache.len() <= 2);
        // A game whose engine is thinking stays, held or not.
        let cache = GameCache::new(1);
        let h = cache.insert(&id("e"), live("e"));
        h.try_lock().unwrap().engine_thinking = true;
        drop(h);
        cache.insert(&id("f"), live("f"));
        assert!(cache.get(&id("e")).is_some());
    }
}
