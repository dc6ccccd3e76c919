//! The live games and every action on them. A game is changed by one
//! request at a time (a lock per game); every change is written to the
//! store before anyone is told, then sent to every watcher. The concerns
//! around it live apart: the cache (`cache`), seats (`seats`), clocks
//! (`clock`), offers and aborts (`offers`), engine work (`engine`) and
//! records (`record`).

use std::net::{IpAddr, Ipv4Addr};
use std::sync::Arc;
use std::time::Duration;

use legion_rules::notation::{canonical, parse_move};
use legion_rules::{Game, Position, Rules};

use crate::games::cache::{GameCache, Handle};
use crate::games::clock::Clock;
use axum::http::StatusCode;

use crate::engine::pool::{ClientKey, EnginePool};
use crate::games::ids::{now_ms, random_id};
use crate::games::live::{Change, Json, Live, apply_declared, derive, rebuild};
use crate::games::model::{Declared, Mode, Side, Status};
use crate::games::seats::{Seat, TOKEN_LEN, open_side, seat_of};
use crate::games::view;
use crate::http::error::{ApiError, ApiResult};
use crate::i18n::{Arg, Text};
use crate::metrics::Metrics;
use crate::store::{GameRow, Store, Write};

/// The client of work the server does by itself (a restart's resumed
/// engine move, the sweep).
pub const SERVER: ClientKey = IpAddr::V4(Ipv4Addr::UNSPECIFIED);

pub struct Hub {
    pub(crate) store: Arc<Store>,
    pub(crate) games: GameCache,
    pub(crate) pool: EnginePool,
    /// Thinking time per engine move at level 10.
    pub(crate) engine_movetime: Duration,
    /// Time for each side's first move in a clocked game.
    pub(crate) first_move_ms: i64,
    pub(crate) metrics: Arc<Metrics>,
    /// Whole-game analyses under way.
    pub(crate) running: crate::engine::analysis::Running,
    /// This server's name among those sharing a database (engine claims).
    pub(crate) node: String,
}

/// Parameters of a new game (`POST /api/games`), already checked.
pub struct NewGame {
    pub mode: Mode,
    pub color: Side,
    pub level: u8,
    pub rules: Rules,
    pub start: Position,
    /// Initial time and increment, ms.
    pub clock: Option<(i64, i64)>,
}

/// A new game, for its creator.
pub struct Created {
    pub id: String,
    pub token: String,
    pub seat: Seat,
    pub invite: Option<String>,
    pub state: Json,
}

/// A claimed invite, for the friend.
pub struct Joined {
    pub token: String,
    pub seat: Seat,
    pub state: Json,
}

fn over(status: Status) -> Option<ApiError> {
    match status {
        Status::Over => Some(conflict(Text::new("server.game_over"))),
        Status::Aborted => Some(conflict(Text::new("server.game_aborted"))),
        Status::Waiting => Some(conflict(Text::new("server.not_started"))),
        Status::Active => None,
    }
}

/// Refuses unless the game is active.
pub(crate) fn must_be_active(g: &Live) -> ApiResult<()> {
    over(g.status()).map_or(Ok(()), Err)
}

pub(crate) fn seated(g: &Live, token: Option<&str>) -> ApiResult<Seat> {
    seat_of(&g.row, token)
        .ok_or_else(|| ApiError::said(StatusCode::FORBIDDEN, Text::new("server.needs_seat")))
}

pub(crate) fn conflict(text: Text) -> ApiError {
    ApiError::said(StatusCode::CONFLICT, text)
}

fn no_game(id: &str) -> ApiError {
    ApiError::said(
        StatusCode::NOT_FOUND,
        Text::new("server.no_game").arg("id", id),
    )
}

impl Hub {
    pub fn new(
        store: Arc<Store>,
        pool: EnginePool,
        games_in_memory: usize,
        engine_movetime: Duration,
        first_move: Duration,
    ) -> Arc<Hub> {
        Arc::new(Hub {
            store,
            games: GameCache::new(games_in_memory),
            pool,
            engine_movetime,
            first_move_ms: first_move.as_millis() as i64,
            metrics: Arc::new(Metrics::default()),
            running: Default::default(),
            node: random_id(12),
        })
    }

    pub fn games_in_memory(&self) -> usize {
        self.games.len()
    }

    pub fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    /// The live game `id`, from memory or the store.
    pub async fn get(self: &Arc<Self>, id: &str) -> ApiResult<Handle> {
        if id.is_empty() || id.len() > 32 || !id.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(no_game(id));
        }
        if let Some(h) = self.games.get(id) {
            return Ok(h);
        }
        let key = id.to_string();
        let Some((row, moves)) = self.store.load(&key).await? else {
            return Err(no_game(id));
        };
        let live = rebuild(row, &moves, SERVER)
            .map_err(|e| ApiError::internal(format!("game {id}: {e}")))?;
        let handle = self.games.insert(id, live);
        // A game whose engine was thinking when it left memory goes on.
        let mut g = handle.lock().await;
        if g.engine_to_move() && !g.engine_thinking {
            self.start_engine(&mut g, &handle).await;
        }
        drop(g);
        Ok(handle)
    }

    /// Locks a game to act on it. When servers share the database, this
    /// copy is first checked against the stored version and read again if
    /// another server changed the game: no server acts on an old copy.
    pub(crate) async fn fresh<'a>(
        self: &Arc<Self>,
        handle: &'a Handle,
    ) -> ApiResult<tokio::sync::MutexGuard<'a, Live>> {
        let mut g = handle.lock().await;
        if self.store.is_shared() {
            self.refresh(&mut g, handle).await?;
        }
        Ok(g)
    }

    /// Reads the game again if the stored version is not this copy's.
    pub(crate) async fn refresh(self: &Arc<Self>, g: &mut Live, handle: &Handle) -> ApiResult<()> {
        let id = g.row.id.clone();
        match self.store.version(&id).await? {
            None => Err(no_game(&id)),
            Some(v) if v == g.row.version => Ok(()),
            Some(_) => self.reload(g, handle).await,
        }
    }

    /// Replaces the copy in memory by the stored game and tells watchers.
    pub(crate) async fn reload(self: &Arc<Self>, g: &mut Live, handle: &Handle) -> ApiResult<()> {
        let id = g.row.id.clone();
        let (row, moves) = self.store.load(&id).await?.ok_or_else(|| no_game(&id))?;
        let fresh = rebuild(row, &moves, g.client)
            .map_err(|e| ApiError::internal(format!("game {id}: {e}")))?;
        match g.take_from(fresh) {
            Change::Same => self.publish(g, false),
            Change::Appended => self.publish(g, true),
            Change::Other => g.publish_resync(),
        }
        self.metrics.reloads.inc();
        if g.engine_to_move() && !g.engine_thinking {
            self.start_engine(g, handle).await;
        }
        Ok(())
    }

    pub fn full(&self, g: &mut Live, you: Option<Seat>) -> Json {
        g.full(you, now_ms(), self.first_move_ms)
    }

    fn publish(&self, g: &mut Live, added_move: bool) {
        g.publish(added_move, now_ms(), self.first_move_ms);
    }

    /// Saves a changed off-board state (with its deadline) and tells everyone.
    pub(crate) async fn save(&self, g: &mut Live, mut row: GameRow) -> ApiResult<()> {
        derive(&mut row, &g.game, self.first_move_ms);
        row.version = g.row.version + 1;
        self.store.write(Write::Update(row.clone())).await?;
        g.row = row;
        self.publish(g, false);
        Ok(())
    }

    /// Changes the off-board state with `change`, saves it, tells everyone.
    pub(crate) async fn edit(
        &self,
        g: &mut Live,
        change: impl FnOnce(&mut GameRow),
    ) -> ApiResult<()> {
        let mut row = g.row.clone();
        change(&mut row);
        self.save(g, row).await
    }

    /// Ends the game off the board: the clock and the engine stop.
    pub(crate) async fn declare(&self, g: &mut Live, d: Declared, now: i64) -> ApiResult<()> {
        let mut row = g.row.clone();
        row.declared = Some(d);
        row.draw_offer = None;
        row.takeback_offer = None;
        row.clock = row.clock.map(|c| c.stopped(g.turn(), g.played(), now));
        let mut game = g.game.clone();
        apply_declared(&mut game, d);
        derive(&mut row, &game, self.first_move_ms);
        row.version = g.row.version + 1;
        self.store.write(Write::Update(row.clone())).await?;
        g.row = row;
        g.game = game;
        g.stop_engine();
        self.publish(g, false);
        Ok(())
    }

    /// Applies what the clock decided by `now` (a flag fall, an abort for
    /// a missing first move) before anything else is done to the game.
    pub(crate) async fn settle(&self, g: &mut Live, now: i64) -> ApiResult<()> {
        if let Some(d) = g.due(now, self.first_move_ms) {
            self.declare(g, d, now).await?;
        }
        Ok(())
    }

    pub async fn create(self: &Arc<Self>, new: NewGame, client: ClientKey) -> ApiResult<Created> {
        let id = random_id(10);
        let now = now_ms();
        let mine = random_id(TOKEN_LEN);
        let (white, black, invite, engine_color, seat) = match new.mode {
            Mode::Engine => match new.color {
                Side::White => (
                    Some(mine.clone()),
                    None,
                    None,
                    Some(Side::Black),
                    Seat::White,
                ),
                Side::Black => (
                    None,
                    Some(mine.clone()),
                    None,
                    Some(Side::White),
                    Seat::Black,
                ),
            },
            Mode::Friend => {
                let invite = Some(random_id(TOKEN_LEN));
                match new.color {
                    Side::White => (Some(mine.clone()), None, invite, None, Seat::White),
                    Side::Black => (None, Some(mine.clone()), invite, None, Seat::Black),
                }
            }
            Mode::Local => (
                Some(mine.clone()),
                Some(mine.clone()),
                None,
                None,
                Seat::Both,
            ),
        };
        // A friend game starts when its invite is claimed; others at once.
        let started = (new.mode != Mode::Friend).then_some(now);
        let clock = new.clock.map(|(initial, inc)| {
            let c = Clock::new(initial, inc);
            if started.is_some() {
                c.restarted(now)
            } else {
                c
            }
        });
        let row = GameRow {
            level: (new.mode == Mode::Engine).then_some(new.level),
            engine_color,
            white_token: white,
            black_token: black,
            invite: invite.clone(),
            started_ms: started,
            clock,
            ..GameRow::new(&id, new.mode, new.rules.name(), &new.start.to_lfen(), now)
        };
        let state = self.open_game(row, client, seat).await?;
        Ok(Created {
            id,
            token: mine,
            seat,
            invite,
            state,
        })
    }

    /// Stores a new game, keeps it in memory and starts the engine if it
    /// moves first; the state for `seat`.
    pub(crate) async fn open_game(
        self: &Arc<Self>,
        mut row: GameRow,
        client: ClientKey,
        seat: Seat,
    ) -> ApiResult<Json> {
        let id = row.id.clone();
        let mut live = rebuild(row.clone(), &[], client).map_err(ApiError::internal)?;
        derive(&mut row, &live.game, self.first_move_ms);
        live.row = row.clone();
        self.store.write(Write::Create(row)).await?;
        self.metrics.games_created.inc();
        let handle = self.games.insert(&id, live);
        let mut g = handle.lock().await;
        if g.engine_to_move() {
            self.start_engine(&mut g, &handle).await;
        }
        Ok(self.full(&mut g, Some(seat)))
    }

    /// Claims a friend game's invite: the open seat gets a new token and
    /// the game starts. An invite is claimed once.
    pub async fn join(self: &Arc<Self>, id: &str, invite: &str) -> ApiResult<Joined> {
        let handle = self.get(id).await?;
        let mut g = self.fresh(&handle).await?;
        let code =
            g.row.invite.clone().ok_or_else(|| {
                ApiError::said(StatusCode::FORBIDDEN, Text::new("server.no_invite"))
            })?;
        if !crate::games::ids::same_secret(&code, invite) {
            return Err(ApiError::said(
                StatusCode::FORBIDDEN,
                Text::new("server.wrong_invite"),
            ));
        }
        let Some(side) = open_side(&g.row) else {
            return Err(conflict(Text::new("server.invite_used")));
        };
        if g.status() != Status::Waiting {
            return Err(
                over(g.status()).unwrap_or_else(|| conflict(Text::new("server.invite_used")))
            );
        }
        let now = now_ms();
        let token = random_id(TOKEN_LEN);
        let mut row = g.row.clone();
        match side {
            Side::White => row.white_token = Some(token.clone()),
            Side::Black => row.black_token = Some(token.clone()),
        }
        row.started_ms = Some(now);
        row.clock = row.clock.map(|c| c.restarted(now));
        self.save(&mut g, row).await?;
        let seat = Seat::from(side);
        Ok(Joined {
            token,
            seat,
            state: self.full(&mut g, Some(seat)),
        })
    }

    pub async fn state(self: &Arc<Self>, id: &str, token: Option<&str>) -> ApiResult<Json> {
        let handle = self.get(id).await?;
        let mut g = self.fresh(&handle).await?;
        self.settle(&mut g, now_ms()).await?;
        let seat = seat_of(&g.row, token);
        Ok(self.full(&mut g, seat))
    }

    /// The game `id` for a socket, current (see `fresh`).
    pub async fn watch(self: &Arc<Self>, id: &str) -> ApiResult<Handle> {
        let handle = self.get(id).await?;
        drop(self.fresh(&handle).await?);
        Ok(handle)
    }

    /// Plays `text` as move number `ply` (0-based) for the holder of `token`.
    pub async fn play(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
        text: &str,
        ply: usize,
        client: ClientKey,
    ) -> ApiResult<Json> {
        let handle = self.get(id).await?;
        let mut g = self.fresh(&handle).await?;
        let now = now_ms();
        self.settle(&mut g, now).await?;
        let seat = seat_of(&g.row, token);
        let played = g.played();
        // A retry of the move already accepted at this ply is answered as
        // before; anything else for an old position is stale.
        if ply < played {
            let before = &g.game.positions()[ply];
            let same = parse_move(before, text).is_ok_and(|m| m == g.game.moves()[ply]);
            if same && seat.is_some() {
                return Ok(self.full(&mut g, seat));
            }
        }
        if ply != played {
            return Err(conflict(
                Text::new("server.stale_move")
                    .arg("played", played)
                    .arg("ply", ply),
            ));
        }
        must_be_active(&g)?;
        let Some(seat) = seat else {
            return Err(ApiError::said(
                StatusCode::FORBIDDEN,
                Text::new("server.only_seated_move"),
            ));
        };
        let turn = g.turn();
        if !seat.may_move(turn) {
            return Err(conflict(
                Text::new("server.not_your_turn").with("side", Arg::Side(turn)),
            ));
        }
        if g.engine_thinking {
            return Err(conflict(Text::new("server.engine_thinking")));
        }
        let before = *g.game.position();
        let m = parse_move(&before, text).map_err(|e| ApiError::bad_move(&e))?;
        g.client = client;
        self.commit_move(&mut g, m, now).await?;
        if g.engine_to_move() {
            self.start_engine(&mut g, &handle).await;
        }
        Ok(self.full(&mut g, Some(seat)))
    }

    /// Stores and applies a legal move, then tells everyone.
    pub(crate) async fn commit_move(
        &self,
        g: &mut Live,
        m: legion_rules::Move,
        now: i64,
    ) -> ApiResult<()> {
        let before = *g.game.position();
        let mut next = Game::clone(&g.game);
        next.play(m).map_err(ApiError::internal)?;
        let continues = next.outcome().is_none();
        let ply = g.played();
        let mut row = g.row.clone();
        row.clock = row
            .clock
            .map(|c| c.after_move(g.turn(), ply, now, continues));
        row.draw_offer = None;
        row.takeback_offer = None;
        derive(&mut row, &next, self.first_move_ms);
        row.version = g.row.version + 1;
        self.store
            .write(Write::Append {
                row: row.clone(),
                ply,
                text: canonical(&before, m),
                now_ms: now,
            })
            .await?;
        let view = view::played_move(&before, m, ply + 1, next.position());
        g.row = row;
        g.game = next;
        g.moves
            .push(serde_json::value::to_raw_value(&view).map_err(ApiError::internal)?);
        self.metrics.moves.inc();
        self.publish(g, true);
        Ok(())
    }

    /// Takes the game back to `ply` moves (undo, takeback).
    pub(crate) async fn take_back_to(
        self: &Arc<Self>,
        g: &mut Live,
        handle: &Handle,
        ply: usize,
        now: i64,
    ) -> ApiResult<()> {
        let mut next = g.game.clone();
        while next.moves().len() > ply {
            next.undo();
        }
        let mut row = g.row.clone();
        row.draw_offer = None;
        row.takeback_offer = None;
        row.clock = row.clock.map(|c| c.restarted(now));
        derive(&mut row, &next, self.first_move_ms);
        row.version = g.row.version + 1;
        self.store
            .write(Write::Truncate {
                row: row.clone(),
                ply,
            })
            .await?;
        g.row = row;
        g.game = next;
        g.moves.truncate(ply);
        g.stop_engine();
        self.publish(g, false);
        if g.engine_to_move() {
            self.start_engine(g, handle).await;
        }
        Ok(())
    }

    /// Takes back the last move (local) or the engine's reply and your
    /// move (engine games); friend games ask for a takeback instead.
    pub async fn undo(self: &Arc<Self>, id: &str, token: Option<&str>) -> ApiResult<Json> {
        let handle = self.get(id).await?;
        let mut g = self.fresh(&handle).await?;
        let now = now_ms();
        self.settle(&mut g, now).await?;
        let seat = seated(&g, token)?;
        if g.row.mode == Mode::Friend {
            return Err(conflict(Text::new("server.ask_takeback")));
        }
        must_be_active(&g)?;
        if g.played() == 0 {
            return Err(conflict(Text::new("server.nothing_to_undo")));
        }
        let mut ply = g.played() - 1;
        if g.row.mode == Mode::Engine {
            let positions = g.game.positions();
            while ply > 0 && !seat.may_move(positions[ply].turn().into()) {
                ply -= 1;
            }
            if !seat.may_move(positions[ply].turn().into()) {
                return Err(conflict(Text::new("server.no_move_of_yours")));
            }
        }
        self.take_back_to(&mut g, &handle, ply, now).await?;
        Ok(self.full(&mut g, Some(seat)))
    }

    pub async fn resign(self: &Arc<Self>, id: &str, token: Option<&str>) -> ApiResult<Json> {
        let handle = self.get(id).await?;
        let mut g = self.fresh(&handle).await?;
        let now = now_ms();
        self.settle(&mut g, now).await?;
        let seat = seated(&g, token)?;
        must_be_active(&g)?;
        let loser = seat.side(g.turn());
        self.declare(&mut g, Declared::Resigned(loser), now).await?;
        Ok(self.full(&mut g, Some(seat)))
    }

    pub async fn position_of(self: &Arc<Self>, id: &str) -> ApiResult<Position> {
        let handle = self.get(id).await?;
        let g = self.fresh(&handle).await?;
        Ok(*g.game.position())
    }

    /// Decides flag falls and missed first moves of games nobody looks at:
    /// the store names the games whose deadline has come. With several
    /// servers each sweeps; the game's version lets one decide.
    pub async fn sweep(self: &Arc<Self>) -> ApiResult<()> {
        let now = now_ms();
        let due = self.store.due(now).await?;
        for id in due {
            match self.sweep_one(&id).await {
                Ok(()) => {}
                // Another server (or a player) came first.
                Err(e) if e.status() == StatusCode::CONFLICT => {}
                Err(e) => tracing::error!(game = %id, "sweep: {e}"),
            }
        }
        Ok(())
    }

    async fn sweep_one(self: &Arc<Self>, id: &str) -> ApiResult<()> {
        let handle = self.get(id).await?;
        let mut g = self.fresh(&handle).await?;
        let now = now_ms();
        if g.due(now, self.first_move_ms).is_some() {
            self.settle(&mut g, now).await?;
        } else {
            // Not due after all (a deadline of an older schema, or one
            // moved by a change since): store the right one.
            let row = g.row.clone();
            let mut derived = row.clone();
            derive(&mut derived, &g.game, self.first_move_ms);
            if derived.deadline_ms != row.deadline_ms {
                self.save(&mut g, row).await?;
            }
        }
        Ok(())
    }
}
