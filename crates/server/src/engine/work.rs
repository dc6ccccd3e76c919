//! The engine's work for the server, all of it through the pool: game
//! moves (first), draw decisions, and analysis. A game's move is stopped
//! when the game changes under it; an analysis when its client goes away.

use std::sync::Arc;
use std::time::Duration;

use legion_engine::search::history;
use legion_engine::{Config, Engine, Limits, Options, Outcome, Table, search};
use legion_rules::Position;

use crate::engine::pool::{ClientKey, Priority};
use crate::games::cache::Handle;
use crate::games::event::What;
use crate::games::hub::{EngineReply, Hub};
use crate::games::ids::now_ms;
use crate::games::live::Live;
use crate::games::model::Side;
use crate::games::refusal::{CoreError, CoreResult};

/// Hash table of one game move's search, MB.
const GAME_TABLE_MB: usize = 8;
/// Hash table of one analysis, MB.
const ANALYSIS_TABLE_MB: usize = 16;
/// The engine accepts a draw unless it judges itself better by this much
/// (centi-men: half a man).
const DRAW_MARGIN: i32 = 50;

impl Hub {
    /// The engine's searches waiting, and running (as `/metrics` shows
    /// them).
    pub fn engine_load(&self) -> (usize, usize) {
        self.pool.load()
    }

    /// The engine's thinking time for its next move: the server's move
    /// time, or less when its clock runs low.
    fn engine_time(&self, g: &Live) -> Duration {
        let Some(c) = g.row.clock else {
            return self.engine_movetime;
        };
        let left = c.left(g.turn(), g.turn(), g.played(), now_ms());
        let budget = (left / 30 + c.increment_ms / 2).max(10) as u64;
        self.engine_movetime.min(Duration::from_millis(budget))
    }

    /// Starts the engine on its move, in the pool.
    pub(crate) fn schedule_engine(self: &Arc<Self>, g: &mut Live, handle: Handle) {
        g.engine_thinking = true;
        self.publish(g, What::State);
        let version = g.row.version;
        let game = g.game.clone();
        let options = Options {
            level: g.row.level.unwrap_or(3),
            rules: game.start().rules(),
            hash_mb: GAME_TABLE_MB,
            ..Options::default()
        };
        // Each game plays its own line, the same after a restart.
        let seed = g
            .row
            .id
            .as_str()
            .bytes()
            .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(b as u64));
        let limits = Limits {
            movetime: Some(self.engine_time(g)),
            ..Limits::default()
        };
        let submitted = self.pool.submit(Priority::GameMove, g.client, move |stop| {
            let mut engine = Engine::new(options);
            engine.new_game(seed);
            let past = history(&game);
            engine
                .go(game.position(), &past, &limits, stop, &mut |_| {})
                .best
        });
        let ticket = match submitted {
            Ok(t) => t,
            Err(e) => {
                tracing::error!(game = %g.row.id, "cannot queue the engine's move: {e}");
                g.engine_thinking = false;
                return;
            }
        };
        g.engine_stop = Some(ticket.stopper());
        let hub = self.clone();
        let id = g.row.id.clone();
        tokio::spawn(async move {
            let best = hub.await_engine(&id, ticket).await;
            let mut g = handle.lock().await;
            let played = match best {
                Ok(Some(m)) => hub.engine_reply(&mut g, &handle, m, version).await,
                Ok(None) => Err(CoreError::internal("the engine found no move")),
                Err(e) => Err(e.into()),
            };
            match played {
                Ok(EngineReply::Played) => {}
                // The game changed meanwhile (undo, result, another
                // server): the claim goes unless a new search holds it.
                Ok(EngineReply::Void) => {
                    if !g.engine_thinking {
                        hub.release_engine(&id).await;
                    }
                }
                Err(e) => {
                    tracing::error!(game = %id, "the engine's move was not played: {e}");
                    if g.row.version == version {
                        g.engine_thinking = false;
                        g.engine_stop = None;
                    }
                    hub.publish(&mut g, What::State);
                    hub.release_engine(&id).await;
                }
            }
        });
    }

    /// Whether the engine, playing `engine_side`, accepts a draw in `pos`.
    pub(crate) async fn engine_accepts_draw(
        &self,
        pos: Position,
        engine_side: Side,
        client: ClientKey,
    ) -> CoreResult<bool> {
        let ticket = self.pool.submit(Priority::Draw, client, move |stop| {
            let limits = Limits {
                depth: Some(6),
                movetime: Some(Duration::from_millis(500)),
                ..Limits::default()
            };
            let table = Table::new(4);
            search(
                &pos,
                &[],
                &limits,
                &Config::default(),
                &table,
                stop,
                &mut |_| {},
            )
            .score
        })?;
        let score = ticket.result().await?;
        let for_engine = if Side::from(pos.turn()) == engine_side {
            score
        } else {
            -score
        };
        Ok(for_engine < DRAW_MARGIN)
    }

    /// Searches `pos` for analysis, the best `lines` lines (1 to 3);
    /// stopped if the caller goes away.
    pub async fn analyse(
        &self,
        pos: Position,
        movetime: Duration,
        lines: usize,
        client: ClientKey,
    ) -> CoreResult<Vec<Outcome>> {
        // With the server's solved endings, if it has them.
        let config = Config {
            endgames: self.endgames.get().cloned(),
            ..Config::default()
        };
        let ticket = self.pool.submit(Priority::Analysis, client, move |stop| {
            let limits = Limits {
                movetime: Some(movetime),
                ..Limits::default()
            };
            let table = Table::new(ANALYSIS_TABLE_MB);
            legion_engine::search::lines(&pos, &[], &limits, &config, &table, stop, lines)
        })?;
        Ok(ticket.result().await?)
    }
}
