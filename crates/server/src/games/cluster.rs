//! Several servers on one PostgreSQL database (docs/HOSTING.md, "Several
//! servers"). Three things make them one site:
//! - **versions**: every write names the game's next version and is refused
//!   if another server wrote first (`StoreError::Stale`): the action is
//!   then decided again on the game read afresh (`Hub::act`), and a read
//!   checks the stored version first (`Hub::current`);
//! - **announcements**: each write is announced on a PostgreSQL channel
//!   (LISTEN/NOTIFY, an `Event` in JSON); a server with watchers of that
//!   game reads it again and tells them; after a lost connection, or an
//!   announcement it cannot read, it reads all its watched games again;
//! - **engine jobs**: an engine move due is a row that one server claims
//!   for a lease it renews while it thinks; if it dies, the lease runs out
//!   and another server takes the move.
//!
//! With SQLite there is one server: none of this runs and claims always
//! succeed.

use std::sync::Arc;
use std::time::Duration;

use legion_rules::Move;
use sqlx::postgres::PgListener;

use crate::engine::pool::{PoolError, Ticket};
use crate::games::cache::Handle;
use crate::games::event::{Event, What};
use crate::games::hub::Hub;
use crate::games::ids::GameId;
use crate::games::live::Live;
use crate::games::refusal::CoreResult;
use crate::store::{CHANNEL, Store};

/// How long a claim on an engine move lasts without renewal: a server that
/// dies mid-search loses its moves to the others after at most this.
pub const LEASE_MS: i64 = 3_000;
/// How often a thinking server renews its claim.
const RENEW_EVERY: Duration = Duration::from_millis(1_000);
/// Engine moves a server claims in one round of the sweeper, at most.
const CLAIMS_PER_ROUND: usize = 4;

impl Hub {
    /// Starts the engine on its move: at once with one server; with
    /// several, if this one claims the move (else another server has it).
    pub(crate) async fn start_engine(self: &Arc<Self>, g: &mut Live, handle: &Handle) {
        if self.store.is_shared() {
            let ply = g.played() as i64;
            match self
                .store
                .claim_engine(&g.row.id, ply, &self.node, LEASE_MS)
                .await
            {
                Ok(true) => {}
                Ok(false) => return,
                Err(e) => {
                    // The claim is tried again by the sweeper's rounds.
                    tracing::error!(game = %g.row.id, "cannot claim the engine's move: {e}");
                    return;
                }
            }
        }
        self.schedule_engine(g, handle.clone());
    }

    /// Waits for the engine's answer, renewing this server's claim on the
    /// move meanwhile; a lost claim (this server was too slow to renew, and
    /// another took the move) stops the search.
    pub(crate) async fn await_engine(
        &self,
        id: &GameId,
        ticket: Ticket<Option<Move>>,
    ) -> Result<Option<Move>, PoolError> {
        if !self.store.is_shared() {
            return ticket.result().await;
        }
        let answer = ticket.result();
        tokio::pin!(answer);
        let mut renew = tokio::time::interval(RENEW_EVERY);
        renew.tick().await;
        let ids = [id.clone()];
        loop {
            tokio::select! {
                r = &mut answer => return r,
                _ = renew.tick() => {
                    if let Err(e) = self.store.renew_engine(&self.node, &ids, LEASE_MS).await {
                        tracing::warn!(game = %id, "cannot renew the engine's claim: {e}");
                    }
                }
            }
        }
    }

    /// Gives up this server's claim on a game's engine move.
    pub(crate) async fn release_engine(&self, id: &GameId) {
        if let Err(e) = self.store.release_engine(id, &self.node).await {
            tracing::warn!(game = %id, "cannot release the engine's claim: {e}");
        }
    }

    /// One round of engine work from other servers: moves never claimed
    /// (their server did not take them) or whose claim ran out (their
    /// server died). Taken whatever this server's load (issue 19.13: when
    /// every server waited for room, a dead server's moves waited 14–28 s
    /// behind the others' games): a taken move is a game move like any
    /// other in the pool, and its client (the server's own key, which has
    /// few searches under way) goes first among equals, so it waits at
    /// most for a running search to end. A round takes a few, so that the
    /// servers share a dead one's moves.
    pub async fn claim_engine_jobs(self: &Arc<Self>) {
        let limit = CLAIMS_PER_ROUND as i64;
        let jobs = match self
            .store
            .claim_engine_jobs(&self.node, LEASE_MS, limit)
            .await
        {
            Ok(j) => j,
            Err(e) => {
                tracing::error!("cannot claim engine moves: {e}");
                return;
            }
        };
        for (id, ply) in jobs {
            if let Err(e) = self.take_engine_job(&id, ply).await {
                tracing::warn!(game = %id, "claimed engine move: {e}");
                self.release_engine(&id).await;
            }
        }
    }

    async fn take_engine_job(self: &Arc<Self>, id: &GameId, ply: i64) -> CoreResult<()> {
        let (handle, mut g) = self.current(id).await?;
        if g.engine_thinking {
            return Ok(());
        }
        if g.engine_to_move() {
            if g.played() as i64 != ply {
                // A job left from an older state of the game.
                self.store.drop_engine_job(id, ply).await?;
            }
            self.start_engine(&mut g, &handle).await;
        } else {
            self.store.drop_engine_job(id, ply).await?;
        }
        Ok(())
    }

    /// Another server announced a change: if anyone here watches the game
    /// and this copy is older, bring it up to date. An announcement that
    /// cannot be read is logged, counted, and answered by reading every
    /// watched game again (it may have been any of them).
    fn heard(self: &Arc<Self>, payload: &str) {
        let event = match Event::from_payload(payload) {
            Ok(e) => e,
            Err(e) => {
                tracing::warn!("an announcement that cannot be read ({e}): {payload:.200}");
                self.metrics.unreadable_announcements.inc();
                let hub = self.clone();
                tokio::spawn(async move { hub.resync_all().await });
                return;
            }
        };
        if self.heard_chat(&event) {
            return;
        }
        let Some(handle) = self.games.peek(&event.game) else {
            return;
        };
        let hub = self.clone();
        tokio::spawn(async move {
            let mut g = handle.lock().await;
            // Nobody watching: the next request checks the version anyway.
            if g.row.version >= event.version || g.tx.receiver_count() == 0 {
                return;
            }
            if let Err(e) = hub.catch_up(&mut g, &handle, &event).await {
                tracing::warn!(game = %g.row.id, "cannot read the game again: {e}");
            }
        });
    }

    /// Brings a copy up to the announced version: the next move needs
    /// only the row; anything else, the whole game.
    async fn catch_up(
        self: &Arc<Self>,
        g: &mut Live,
        handle: &Handle,
        event: &Event,
    ) -> CoreResult<()> {
        if let What::Move { ply, text } = &event.what
            && event.version == g.row.version + 1
            && *ply == g.played()
            && let Some(row) = self.store.row(&g.row.id).await?
            && row.version == event.version
            && g.take_move(row, text).is_ok()
        {
            self.metrics.moves_heard.inc();
            self.publish(g, event.what.clone());
            if g.engine_to_move() && !g.engine_thinking {
                self.start_engine(g, handle).await;
            }
            return Ok(());
        }
        self.reload(g, handle).await
    }

    /// Reads again every watched game whose stored version differs (after
    /// the announcements were not heard for a while).
    async fn resync_all(self: &Arc<Self>) {
        for handle in self.games.all() {
            let mut g = handle.lock().await;
            if g.tx.receiver_count() == 0 {
                continue;
            }
            if let Err(e) = self.refresh(&mut g, &handle).await {
                tracing::warn!(game = %g.row.id, "cannot read the game again: {e}");
            }
        }
    }

    /// Listens to other servers' announcements, for as long as the server
    /// runs; reconnects (and reads its watched games again) when the
    /// connection is lost.
    pub fn spawn_listener(self: &Arc<Self>) -> Option<tokio::task::JoinHandle<()>> {
        let Store::Postgres(pg) = &*self.store else {
            return None;
        };
        let pool = pg.pool().clone();
        let hub = self.clone();
        Some(tokio::spawn(async move {
            let mut first = true;
            loop {
                let mut listener = match PgListener::connect_with(&pool).await {
                    Ok(l) => l,
                    Err(e) => {
                        tracing::error!("cannot listen for other servers' changes: {e}");
                        tokio::time::sleep(Duration::from_secs(1)).await;
                        continue;
                    }
                };
                if let Err(e) = listener.listen(CHANNEL).await {
                    tracing::error!("cannot listen for other servers' changes: {e}");
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    continue;
                }
                // Whatever changed before we listened.
                if !std::mem::take(&mut first) {
                    hub.metrics.resyncs.inc();
                }
                hub.resync_all().await;
                loop {
                    match listener.try_recv().await {
                        Ok(Some(n)) => hub.heard(n.payload()),
                        // Lost and connected again: changes may have been missed.
                        Ok(None) => {
                            hub.metrics.resyncs.inc();
                            hub.resync_all().await
                        }
                        Err(e) => {
                            tracing::error!("lost other servers' changes: {e}");
                            break;
                        }
                    }
                }
            }
        }))
    }
}
