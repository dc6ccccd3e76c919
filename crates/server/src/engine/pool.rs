//! The engine pool: every engine search of the server (game moves, draw
//! decisions, analysis) runs here, on a fixed number of threads, from one
//! queue. Game moves go first, then draw decisions, then analysis; among
//! equals, the client with fewer searches under way (queued or running)
//! goes first, then the oldest: one client's twenty games do not hold up
//! another's one. Analysis waits in a bounded queue and a client may have only a
//! few low-priority searches at once. Dropping a `Ticket` stops its search,
//! queued or running: a client that goes away costs nothing more.
//!
//! A game's move never waits for an analysis: analyses (of positions and
//! of whole games) run on at most `threads` threads, and the pool has one
//! thread more (`RESERVED`) that only game moves and draw decisions take.
//! A search that has started is never stopped for another: a game move
//! that finds every thread busy with analyses runs on the reserved one at
//! once (its time is the clock's, so it answers on time; it shares the
//! cores, not the queue).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

use tokio::sync::oneshot;

/// Who asked: searches are shared fairly between client addresses.
pub type ClientKey = IpAddr;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Priority {
    GameMove,
    Draw,
    Analysis,
    /// Work nobody waits for (a whole game's analysis): last, one
    /// position at a time; bounded by the analysis's `Hold`, not here.
    Background,
}

impl Priority {
    /// Searches a client asks for and waits on: bounded per client and in
    /// the queue.
    fn limited(self) -> bool {
        matches!(self, Priority::Draw | Priority::Analysis)
    }

    /// Analyses, which never take the reserved thread.
    fn analysis(self) -> bool {
        matches!(self, Priority::Analysis | Priority::Background)
    }
}

/// Threads beyond `threads` that only game moves and draw decisions use.
pub const RESERVED: usize = 1;

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PoolError {
    #[error("the engine is busy: its queue is full; try again in a moment")]
    Full,
    #[error("you already have {0} engine searches under way; wait for them to finish")]
    TooMany(usize),
    #[error("the search was stopped")]
    Stopped,
}

type Work = Box<dyn FnOnce(&AtomicBool) + Send>;

struct Queued {
    priority: Priority,
    seq: u64,
    client: ClientKey,
    stop: Arc<AtomicBool>,
    work: Work,
}

#[derive(Default)]
struct State {
    queue: Vec<Queued>,
    seq: u64,
    /// Searches queued or running, by client (for fairness).
    outstanding: HashMap<ClientKey, usize>,
    /// Low-priority searches queued or running, by client (for the limit).
    low: HashMap<ClientKey, usize>,
    running_total: usize,
    /// Analyses running (at most `Inner::analysis_threads`).
    running_analyses: usize,
    /// Whole-game analyses under way (`Hold`s), by client; each counts as
    /// one low-priority search of its client and one waiting in the queue.
    held: HashMap<ClientKey, usize>,
    held_total: usize,
    closed: bool,
}

struct Inner {
    state: Mutex<State>,
    ready: Condvar,
    /// Low-priority searches that may wait.
    capacity: usize,
    /// Low-priority searches one client may have queued or running.
    per_client: usize,
    /// Threads analyses may use at once.
    analysis_threads: usize,
}

pub struct EnginePool {
    inner: Arc<Inner>,
    threads: usize,
}

/// A submitted search. Dropping it before it is done stops the search.
pub struct Ticket<T> {
    rx: oneshot::Receiver<T>,
    stop: Arc<AtomicBool>,
}

impl<T> Ticket<T> {
    /// Waits for the result; `Stopped` if the search was stopped first.
    pub async fn result(mut self) -> Result<T, PoolError> {
        (&mut self.rx).await.map_err(|_| PoolError::Stopped)
    }

    /// The flag that stops this search (for the game that owns it).
    pub fn stopper(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }
}

impl<T> Drop for Ticket<T> {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

fn count_down(map: &mut HashMap<ClientKey, usize>, client: ClientKey) {
    if let Some(n) = map.get_mut(&client) {
        *n -= 1;
        if *n == 0 {
            map.remove(&client);
        }
    }
}

impl State {
    /// Places taken in the bounded queue: searches a client waits on,
    /// queued, and whole-game analyses under way.
    fn waiting(&self) -> usize {
        self.queue.iter().filter(|j| j.priority.limited()).count() + self.held_total
    }
}

/// Whole-game analyses under way at once, in all and per client.
pub const GAME_ANALYSES: usize = 4;
pub const GAME_ANALYSES_PER_CLIENT: usize = 1;

/// A whole-game analysis's place (`EnginePool::hold`), given back on drop.
pub struct Hold {
    inner: Arc<Inner>,
    client: ClientKey,
}

impl Drop for Hold {
    fn drop(&mut self) {
        let mut st = self.inner.lock();
        count_down(&mut st.low, self.client);
        count_down(&mut st.held, self.client);
        st.held_total -= 1;
    }
}

impl Inner {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic inside a search happens outside this lock, so a poisoned
        // lock still holds a consistent queue.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl EnginePool {
    pub fn new(threads: usize, capacity: usize, per_client: usize) -> EnginePool {
        let inner = Arc::new(Inner {
            state: Mutex::new(State::default()),
            ready: Condvar::new(),
            capacity,
            per_client: per_client.max(1),
            analysis_threads: threads.max(1),
        });
        for i in 0..threads.max(1) + RESERVED {
            let inner = inner.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("legion-engine-{i}"))
                .spawn(move || worker(&inner));
            if let Err(e) = spawned {
                tracing::error!("cannot start engine thread {i}: {e}");
            }
        }
        EnginePool {
            inner,
            threads: threads.max(1),
        }
    }

    /// Searches that run at once, not counting the thread reserved for
    /// game moves.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Queues `search`, which is given the flag that stops it.
    pub fn submit<T: Send + 'static>(
        &self,
        priority: Priority,
        client: ClientKey,
        search: impl FnOnce(&AtomicBool) -> T + Send + 'static,
    ) -> Result<Ticket<T>, PoolError> {
        let (tx, rx) = oneshot::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let mut st = self.inner.lock();
        if priority.limited() {
            let waiting = st.waiting();
            if waiting >= self.inner.capacity {
                return Err(PoolError::Full);
            }
            let mine = st.low.get(&client).copied().unwrap_or(0);
            if mine >= self.inner.per_client {
                return Err(PoolError::TooMany(mine));
            }
            *st.low.entry(client).or_default() += 1;
        }
        *st.outstanding.entry(client).or_default() += 1;
        st.seq += 1;
        let seq = st.seq;
        st.queue.push(Queued {
            priority,
            seq,
            client,
            stop: stop.clone(),
            work: Box::new(move |stop| {
                let _ = tx.send(search(stop));
            }),
        });
        drop(st);
        // Every idle thread looks: one that may not take an analysis
        // must not swallow the wake-up of one that may.
        self.inner.ready.notify_all();
        Ok(Ticket { rx, stop })
    }

    /// Holds a place for a whole-game analysis of `client` while it runs
    /// (its positions are then queued one at a time as `Background`): one
    /// of the client's low-priority searches and one place in the queue,
    /// and at most `GAME_ANALYSES_PER_CLIENT` of the client's and
    /// `GAME_ANALYSES` in all. Dropping the `Hold` gives them back.
    pub fn hold(&self, client: ClientKey) -> Result<Hold, PoolError> {
        let mut st = self.inner.lock();
        if st.waiting() >= self.inner.capacity || st.held_total >= GAME_ANALYSES {
            return Err(PoolError::Full);
        }
        let mine = st.low.get(&client).copied().unwrap_or(0);
        let games = st.held.get(&client).copied().unwrap_or(0);
        if mine >= self.inner.per_client || games >= GAME_ANALYSES_PER_CLIENT {
            return Err(PoolError::TooMany(mine));
        }
        *st.low.entry(client).or_default() += 1;
        *st.held.entry(client).or_default() += 1;
        st.held_total += 1;
        Ok(Hold {
            inner: self.inner.clone(),
            client,
        })
    }

    /// Searches waiting, and searches running.
    pub fn load(&self) -> (usize, usize) {
        let st = self.inner.lock();
        (st.queue.len(), st.running_total)
    }

    /// Stops the threads once the queue is empty (for tests).
    pub fn close(&self) {
        self.inner.lock().closed = true;
        self.inner.ready.notify_all();
    }
}

impl Drop for EnginePool {
    fn drop(&mut self) {
        self.close();
    }
}

fn worker(inner: &Inner) {
    loop {
        let job = {
            let mut st = inner.lock();
            loop {
                // Searches whose client has gone are dropped unrun.
                let mut i = 0;
                while i < st.queue.len() {
                    if st.queue[i].stop.load(Ordering::Relaxed) {
                        let gone = st.queue.swap_remove(i);
                        count_down(&mut st.outstanding, gone.client);
                        if gone.priority.limited() {
                            count_down(&mut st.low, gone.client);
                        }
                    } else {
                        i += 1;
                    }
                }
                let outstanding = &st.outstanding;
                // Analyses beyond their threads wait: the last thread is
                // kept for game moves.
                let analyses_may_run = st.running_analyses < inner.analysis_threads;
                let next = st
                    .queue
                    .iter()
                    .enumerate()
                    .filter(|(_, j)| analyses_may_run || !j.priority.analysis())
                    .min_by_key(|(_, j)| {
                        let mine = outstanding.get(&j.client).copied().unwrap_or(0);
                        (j.priority, mine, j.seq)
                    })
                    .map(|(i, _)| i);
                if let Some(i) = next {
                    let job = st.queue.swap_remove(i);
                    st.running_total += 1;
                    if job.priority.analysis() {
                        st.running_analyses += 1;
                    }
                    break job;
                }
                if st.closed {
                    return;
                }
                st = inner.ready.wait(st).unwrap_or_else(|p| p.into_inner());
            }
        };
        let (client, priority) = (job.client, job.priority);
        let stop = job.stop;
        let work = job.work;
        // A panicking search must not take the thread (and its slot) with it.
        let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(&stop)));
        if ran.is_err() {
            tracing::error!("an engine search panicked");
        }
        let mut st = inner.lock();
        count_down(&mut st.outstanding, client);
        st.running_total -= 1;
        if priority.analysis() {
            st.running_analyses -= 1;
        }
        if priority.limited() {
            count_down(&mut st.low, client);
        }
        drop(st);
        // A thread that could not take an analysis may now.
        inner.ready.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::Ipv4Addr;
    use std::sync::mpsc;
    use std::time::Duration;

    fn ip(n: u8) -> ClientKey {
        IpAddr::V4(Ipv4Addr::new(10, 0, 0, n))
    }

    /// A search that waits until released (or stopped) and reports its tag.
    fn gate(
        order: mpsc::Sender<&'static str>,
        tag: &'static str,
        release: Arc<AtomicBool>,
    ) -> impl FnOnce(&AtomicBool) -> &'static str + Send + 'static {
        move |stop| {
            order.send(tag).unwrap();
            while !release.load(Ordering::Relaxed) && !stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
            }
            tag
        }
    }

    #[tokio::test]
    async fn game_moves_before_analysis_and_fair_between_clients() {
        let pool = EnginePool::new(1, 16, 8);
        let (tx, rx) = mpsc::channel();
        let release = Arc::new(AtomicBool::new(false));
        // The reserved thread is busy with a game until the end, and the
        // other with an analysis; then a greedy client queues three moves,
        // an analysis waits, and a quiet client queues one move.
        let game = Arc::new(AtomicBool::new(false));
        let held = pool
            .submit(
                Priority::GameMove,
                ip(8),
                gate(tx.clone(), "held", game.clone()),
            )
            .unwrap();
        assert_eq!(rx.recv().unwrap(), "held");
        let busy = pool
            .submit(
                Priority::Analysis,
                ip(9),
                gate(tx.clone(), "busy", release.clone()),
            )
            .unwrap();
        assert_eq!(rx.recv().unwrap(), "busy");
        let mut tickets = vec![busy];
        tickets.push(
            pool.submit(
                Priority::Analysis,
                ip(3),
                gate(tx.clone(), "analysis", release.clone()),
            )
            .unwrap(),
        );
        for tag in ["greedy1", "greedy2", "greedy3"] {
            tickets.push(
                pool.submit(
                    Priority::GameMove,
                    ip(1),
                    gate(tx.clone(), tag, release.clone()),
                )
                .unwrap(),
            );
        }
        tickets.push(
            pool.submit(
                Priority::GameMove,
                ip(2),
                gate(tx.clone(), "quiet", release.clone()),
            )
            .unwrap(),
        );
        release.store(true, Ordering::Relaxed);
        let order: Vec<_> = (0..5).map(|_| rx.recv().unwrap()).collect();
        // The quiet client's one move goes before the greedy client's
        // three; game moves all come before the analysis.
        assert_eq!(
            order,
            ["quiet", "greedy1", "greedy2", "greedy3", "analysis"]
        );
        game.store(true, Ordering::Relaxed);
        tickets.push(held);
        for t in tickets {
            t.result().await.unwrap();
        }
    }

    #[tokio::test]
    async fn whole_game_analyses_are_bounded_with_the_others() {
        let pool = EnginePool::new(1, 64, 2);
        // One whole-game analysis a client; it counts as one of its two
        // low-priority searches.
        let h1 = pool.hold(ip(1)).unwrap();
        assert_eq!(pool.hold(ip(1)).err(), Some(PoolError::TooMany(1)));
        let (tx, rx) = mpsc::channel();
        let never = Arc::new(AtomicBool::new(false));
        let a = pool
            .submit(Priority::Analysis, ip(1), gate(tx, "a", never))
            .unwrap();
        assert_eq!(rx.recv().unwrap(), "a");
        assert_eq!(
            pool.submit(Priority::Analysis, ip(1), |_| ()).err(),
            Some(PoolError::TooMany(2))
        );
        drop(a);
        // At most GAME_ANALYSES in all.
        let others: Vec<Hold> = (2..=GAME_ANALYSES as u8)
            .map(|n| pool.hold(ip(n)).unwrap())
            .collect();
        assert_eq!(pool.hold(ip(99)).err(), Some(PoolError::Full));
        drop(h1);
        let again = pool.hold(ip(99)).unwrap();
        drop((others, again));
        // Each holds a place in the queue: a queue of 2 holds two.
        let pool = EnginePool::new(1, 2, 2);
        let _x = pool.hold(ip(1)).unwrap();
        let _y = pool.hold(ip(2)).unwrap();
        assert_eq!(pool.hold(ip(3)).err(), Some(PoolError::Full));
        assert_eq!(
            pool.submit(Priority::Analysis, ip(3), |_| ()).err(),
            Some(PoolError::Full)
        );
    }

    #[tokio::test]
    async fn a_game_move_never_waits_for_analyses() {
        // One thread for analyses, one more kept for game moves.
        let pool = EnginePool::new(1, 16, 8);
        let (tx, rx) = mpsc::channel();
        let analyses = Arc::new(AtomicBool::new(false));
        let games = Arc::new(AtomicBool::new(false));
        let wait = Duration::from_secs(60);
        let a = pool
            .submit(
                Priority::Analysis,
                ip(1),
                gate(tx.clone(), "analysis-1", analyses.clone()),
            )
            .unwrap();
        assert_eq!(rx.recv_timeout(wait).unwrap(), "analysis-1");
        // Another analysis and a whole game's position wait for the
        // analysis thread...
        let b = pool
            .submit(
                Priority::Analysis,
                ip(2),
                gate(tx.clone(), "analysis-2", analyses.clone()),
            )
            .unwrap();
        let c = pool
            .submit(
                Priority::Background,
                ip(3),
                gate(tx.clone(), "background", analyses.clone()),
            )
            .unwrap();
        // ...while a game move and a draw decision start at once, one
        // after the other, on the reserved thread.
        let g = pool
            .submit(
                Priority::GameMove,
                ip(4),
                gate(tx.clone(), "game", games.clone()),
            )
            .unwrap();
        assert_eq!(rx.recv_timeout(wait).unwrap(), "game");
        games.store(true, Ordering::Relaxed);
        assert_eq!(g.result().await.unwrap(), "game");
        let d = pool.submit(Priority::Draw, ip(4), |_| "draw").unwrap();
        assert_eq!(d.result().await.unwrap(), "draw");
        // The analyses have not started: the analysis thread is held.
        assert!(rx.try_recv().is_err());
        analyses.store(true, Ordering::Relaxed);
        let mut rest = vec![
            rx.recv_timeout(wait).unwrap(),
            rx.recv_timeout(wait).unwrap(),
        ];
        rest.sort();
        assert_eq!(rest, ["analysis-2", "background"]);
        for t in [a, b, c] {
            t.result().await.unwrap();
        }
    }

    #[tokio::test]
    async fn a_client_with_more_searches_under_way_waits_behind_one_with_fewer() {
        let pool = EnginePool::new(2, 16, 8);
        let (tx, rx) = mpsc::channel();
        let hold = Arc::new(AtomicBool::new(false));
        let release = Arc::new(AtomicBool::new(false));
        // Client 1 holds one thread; the other thread is held by client 9.
        let a = pool
            .submit(
                Priority::GameMove,
                ip(1),
                gate(tx.clone(), "one-running", hold.clone()),
            )
            .unwrap();
        let b = pool
            .submit(
                Priority::GameMove,
                ip(9),
                gate(tx.clone(), "nine", release.clone()),
            )
            .unwrap();
        // The third thread (reserved for game moves) is held by client 7.
        let seven = Arc::new(AtomicBool::new(false));
        let e = pool
            .submit(
                Priority::GameMove,
                ip(7),
                gate(tx.clone(), "seven", seven.clone()),
            )
            .unwrap();
        let mut seen = vec![rx.recv().unwrap(), rx.recv().unwrap(), rx.recv().unwrap()];
        seen.sort();
        assert_eq!(seen, ["nine", "one-running", "seven"]);
        // Client 1 queues first, client 2 second; when a thread frees,
        // client 2 (nothing running) goes first.
        let c = pool
            .submit(
                Priority::GameMove,
                ip(1),
                gate(tx.clone(), "one-again", release.clone()),
            )
            .unwrap();
        let d = pool
            .submit(
                Priority::GameMove,
                ip(2),
                gate(tx.clone(), "two", release.clone()),
            )
            .unwrap();
        release.store(true, Ordering::Relaxed);
        assert_eq!(b.result().await.unwrap(), "nine");
        assert_eq!(rx.recv().unwrap(), "two");
        hold.store(true, Ordering::Relaxed);
        assert_eq!(rx.recv().unwrap(), "one-again");
        seven.store(true, Ordering::Relaxed);
        for t in [a, c, d, e] {
            t.result().await.unwrap();
        }
    }

    #[tokio::test]
    async fn dropping_a_ticket_stops_its_search() {
        let pool = EnginePool::new(1, 16, 8);
        let (tx, rx) = mpsc::channel();
        let never = Arc::new(AtomicBool::new(false));
        let t = pool
            .submit(
                Priority::Analysis,
                ip(1),
                gate(tx.clone(), "long", never.clone()),
            )
            .unwrap();
        assert_eq!(rx.recv().unwrap(), "long");
        // A queued search whose client has gone never runs.
        let queued = pool
            .submit(
                Priority::Analysis,
                ip(2),
                gate(tx.clone(), "gone", never.clone()),
            )
            .unwrap();
        drop(queued);
        drop(t);
        let after = pool.submit(Priority::Analysis, ip(3), |_| "after").unwrap();
        assert_eq!(after.result().await.unwrap(), "after");
        assert!(rx.try_recv().is_err(), "the dropped search ran");
        // The thread counts itself free just after answering.
        for _ in 0..1000 {
            if pool.load() == (0, 0) {
                break;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        assert_eq!(pool.load(), (0, 0));
    }

    #[tokio::test]
    async fn analysis_is_bounded_in_all_and_per_client() {
        let pool = EnginePool::new(1, 2, 2);
        let (tx, rx) = mpsc::channel();
        let release = Arc::new(AtomicBool::new(false));
        // Both threads (one of them reserved for game moves) are busy.
        let _busy: Vec<_> = (0..2)
            .map(|_| {
                pool.submit(
                    Priority::GameMove,
                    ip(9),
                    gate(tx.clone(), "busy", release.clone()),
                )
                .unwrap()
            })
            .collect();
        assert_eq!((rx.recv().unwrap(), rx.recv().unwrap()), ("busy", "busy"));
        let _a = pool.submit(Priority::Analysis, ip(1), |_| ()).unwrap();
        let _b = pool.submit(Priority::Analysis, ip(1), |_| ()).unwrap();
        assert_eq!(
            pool.submit(Priority::Analysis, ip(1), |_| ()).err(),
            Some(PoolError::Full)
        );
        let pool = EnginePool::new(1, 10, 2);
        // Both threads (one of them reserved for game moves) are busy.
        let _busy: Vec<_> = (0..2)
            .map(|_| {
                pool.submit(
                    Priority::GameMove,
                    ip(9),
                    gate(tx.clone(), "busy", release.clone()),
                )
                .unwrap()
            })
            .collect();
        assert_eq!((rx.recv().unwrap(), rx.recv().unwrap()), ("busy", "busy"));
        let _a = pool.submit(Priority::Analysis, ip(1), |_| ()).unwrap();
        let _b = pool.submit(Priority::Draw, ip(1), |_| ()).unwrap();
        assert_eq!(
            pool.submit(Priority::Analysis, ip(1), |_| ()).err(),
            Some(PoolError::TooMany(2))
        );
        // Another client, and game moves, are not held back by it.
        assert!(pool.submit(Priority::Analysis, ip(2), |_| ()).is_ok());
        assert!(pool.submit(Priority::GameMove, ip(1), |_| ()).is_ok());
        release.store(true, Ordering::Relaxed);
    }
}
