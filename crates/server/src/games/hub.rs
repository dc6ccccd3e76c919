//! The live games and every action on them: the game core. It knows
//! nothing of HTTP: it takes typed words (`GameId`, `SeatToken`,
//! `InviteCode`), refuses with a `Refusal`, and answers with the game's
//! state.
//!
//! Every action goes through one path (`act`): lock the game, settle what
//! its clock decided, decide the change on the copy (`Edit`, or a
//! refusal), then `commit` it: derive, bump the one version, store, and
//! only then change the copy in memory, tell every watcher and start the
//! engine if it is to move. With several servers on one database the
//! copy may be behind: the store refuses a write that does not follow the
//! stored version, and a refusal may come from an old copy, so in either
//! case the game is read again and the action decided once more. A move
//! that is accepted costs one write, one round trip on PostgreSQL.
//!
//! The concerns around it live apart: the cache (`cache`), seats
//! (`seats`), clocks (`clock`), offers and aborts (`offers`), engine work
//! (`crate::engine::work`), records (`record`) and other servers
//! (`cluster`).

use std::net::{IpAddr, Ipv4Addr};
use std::sync::Arc;
use std::time::Duration;

use legion_rules::notation::{canonical, parse_move};
use legion_rules::{Move, Position, Rules};
use tokio::sync::OwnedMutexGuard;

use crate::engine::pool::{ClientKey, EnginePool};
use crate::games::cache::{GameCache, Handle};
use crate::games::clock::Clock;
use crate::games::event::What;
use crate::games::ids::{GameId, InviteCode, SeatToken, SecretHash, UserId, now_ms, random_id};
use crate::games::live::{Change, Json, Live, apply_declared, derive, rebuild, status_of};
use crate::games::model::{Declared, Mode, Pairing, Side, Status};
use crate::games::players;
use crate::games::refusal::{CoreError, CoreResult, Refusal};
use crate::games::seats::{Seat, Who, open_side};
use crate::games::view;
use crate::metrics::Metrics;
use crate::players::rated;
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
    /// The chat's rates per author and game (issue 20).
    pub(crate) chat: crate::games::chat::ChatLimits,
    /// The last answer of TV (issue 20), kept a moment.
    pub(crate) tv: crate::players::profiles::TvCache,
    /// Each move after which an account is to move (issue 20: "your
    /// turn" notices, sent on by the lobby).
    pub(crate) turns: tokio::sync::broadcast::Sender<YourTurn>,
    /// Solved endings (`--endgames`), set once at start: analyses
    /// (`POST /api/analyse`) search with them.
    pub(crate) endgames: std::sync::OnceLock<Arc<legion_engine::endgames::Tablebase>>,
}

/// An account is to move in a game: the move just made was its opponent's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct YourTurn {
    pub game: GameId,
    pub user: UserId,
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
    /// The creator's account, if signed in: it holds the creator's seat.
    pub creator: Option<crate::games::ids::UserId>,
}

/// A game the lobby paired: each seat's token hash and account.
pub struct PairedGame {
    pub id: GameId,
    pub white: (SecretHash, Option<UserId>),
    pub black: (SecretHash, Option<UserId>),
    /// Initial time and increment, ms (ignored with `days`).
    pub clock: Option<(i64, i64)>,
    pub days: Option<u8>,
    pub rated: bool,
    pub pairing: Pairing,
}

/// A new game, for its creator.
pub struct Created {
    pub id: GameId,
    pub token: SeatToken,
    pub seat: Seat,
    pub invite: Option<InviteCode>,
    pub state: Json,
}

/// A claimed invite, for the friend.
pub struct Joined {
    pub token: SeatToken,
    pub seat: Seat,
    pub state: Json,
}

/// What an action changes, decided on a current copy of the game.
pub(crate) enum Edit {
    /// Nothing: the answer is the state as it stands (a retried move, an
    /// offer already made).
    Nothing,
    /// A legal move.
    Move(Move),
    /// Every move from this ply on is taken back.
    TakeBack(usize),
    /// The state off the board, as the action leaves it.
    Row(Box<GameRow>),
    /// The game ends off the board.
    Declare(Declared),
}

/// What an action decides: the change, and the seat it was asked from.
pub(crate) type Decision = Result<(Edit, Option<Seat>), Refusal>;

/// A locked game: the copy in memory, held by one action at a time.
pub(crate) type Locked = OwnedMutexGuard<Live>;

impl Live {
    /// Refuses unless the game is active.
    pub(crate) fn must_be_active(&self) -> Result<(), Refusal> {
        self.over().map_or(Ok(()), Err)
    }

    /// Why the game takes no moves, if it does not.
    pub(crate) fn over(&self) -> Option<Refusal> {
        match self.status() {
            Status::Over => Some(Refusal::GameOver),
            Status::Aborted => Some(Refusal::GameAborted),
            Status::Waiting => Some(Refusal::NotStarted),
            Status::Active => None,
        }
    }

    /// The seat `who` holds, if any.
    pub(crate) fn seat_of(&self, who: &Who) -> Option<Seat> {
        crate::games::seats::seat_of(&self.row, who)
    }

    /// The account of the side to move, if another account made the
    /// last move (a local game's one account moves both sides).
    pub(crate) fn user_to_move(&self) -> Option<UserId> {
        let (next, last) = match self.turn() {
            Side::White => (self.row.white_user, self.row.black_user),
            Side::Black => (self.row.black_user, self.row.white_user),
        };
        next.filter(|u| Some(*u) != last)
    }

    /// The seat `who` holds, or a refusal.
    pub(crate) fn seated(&self, who: &Who) -> Result<Seat, Refusal> {
        self.seat_of(who).ok_or(Refusal::NeedsSeat)
    }
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
            turns: tokio::sync::broadcast::channel(256).0,
            chat: Default::default(),
            tv: Default::default(),
            endgames: Default::default(),
        })
    }

    pub fn games_in_memory(&self) -> usize {
        self.games.len()
    }

    pub fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    /// Every move after which an account is to move, from now on.
    pub fn turns(&self) -> tokio::sync::broadcast::Receiver<YourTurn> {
        self.turns.subscribe()
    }

    /// The live game `id`, from memory or the store.
    pub async fn get(self: &Arc<Self>, id: &GameId) -> CoreResult<Handle> {
        if let Some(h) = self.games.get(id) {
            return Ok(h);
        }
        let Some((row, moves)) = self.store.load(id).await? else {
            return Err(Refusal::NoGame(id.to_string()).into());
        };
        let mut live = rebuild(row, &moves, SERVER)
            .map_err(|e| CoreError::internal(format!("game {id}: {e}")))?;
        live.players = players::load(&self.store, &live.row).await?;
        let handle = self.games.insert(id, live);
        // A game whose engine was thinking when it left memory goes on.
        let mut g = handle.lock().await;
        if g.engine_to_move() && !g.engine_thinking {
            self.start_engine(&mut g, &handle).await;
        }
        drop(g);
        Ok(handle)
    }

    /// Locks game `id`.
    async fn lock(self: &Arc<Self>, id: &GameId) -> CoreResult<(Handle, Locked)> {
        let handle = self.get(id).await?;
        let g = handle.clone().lock_owned().await;
        Ok((handle, g))
    }

    /// Locks game `id` as it is now: with several servers, its stored
    /// version is checked first and the game read again if another server
    /// changed it (for reads, which have no write to be refused); then
    /// what its clock decided is applied.
    pub(crate) async fn current(self: &Arc<Self>, id: &GameId) -> CoreResult<(Handle, Locked)> {
        let (handle, mut g) = self.lock(id).await?;
        if self.store.is_shared() {
            self.refresh(&mut g, &handle).await?;
        }
        if let Err(e) = self.settle(&mut g, &handle, now_ms()).await {
            if !e.is_stale() {
                return Err(e);
            }
            self.reload(&mut g, &handle).await?;
            self.settle(&mut g, &handle, now_ms()).await?;
        }
        Ok((handle, g))
    }

    /// The one path of every action on a game: `decide` looks at a
    /// current copy and says what changes (or refuses); the change is
    /// committed. `client` is whose share of the engine pays for what
    /// follows (the engine's reply to a move).
    pub(crate) async fn act(
        self: &Arc<Self>,
        id: &GameId,
        client: Option<ClientKey>,
        mut decide: impl FnMut(&Live, i64) -> Decision,
    ) -> CoreResult<(Locked, Option<Seat>)> {
        let (handle, mut g) = self.lock(id).await?;
        // With one server the copy in memory is the game; with several it
        // may be behind until a write or a refusal says so.
        let mut known_current = !self.store.is_shared();
        loop {
            let now = now_ms();
            let attempt = async {
                self.settle(&mut g, &handle, now).await?;
                let (edit, seat) = decide(&g, now)?;
                if let Some(c) = client {
                    g.client = c;
                }
                self.commit(&mut g, &handle, edit, now).await?;
                Ok::<_, CoreError>(seat)
            }
            .await;
            match attempt {
                Ok(seat) => return Ok((g, seat)),
                // A database that cannot be reached is answered at once:
                // reading the game again would wait for a connection twice.
                Err(e @ (CoreError::Refused(_) | CoreError::Store(_)))
                    if !known_current && !e.unavailable() =>
                {
                    known_current = true;
                    // A refusal from a copy that was current stands.
                    if !self.refresh(&mut g, &handle).await? && !e.is_stale() {
                        return Err(e);
                    }
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// `act`, answered with the state for the seat that asked.
    async fn act_for_state(
        self: &Arc<Self>,
        id: &GameId,
        client: Option<ClientKey>,
        decide: impl FnMut(&Live, i64) -> Decision,
    ) -> CoreResult<Json> {
        let (mut g, seat) = self.act(id, client, decide).await?;
        Ok(self.full(&mut g, seat))
    }

    /// Reads the game again if the stored version is not this copy's;
    /// says whether it did.
    pub(crate) async fn refresh(
        self: &Arc<Self>,
        g: &mut Live,
        handle: &Handle,
    ) -> CoreResult<bool> {
        match self.store.version(&g.row.id).await? {
            None => Err(Refusal::NoGame(g.row.id.to_string()).into()),
            Some(v) if v == g.row.version => Ok(false),
            Some(_) => {
                self.reload(g, handle).await?;
                Ok(true)
            }
        }
    }

    /// Replaces the copy in memory by the stored game and tells watchers.
    pub(crate) async fn reload(self: &Arc<Self>, g: &mut Live, handle: &Handle) -> CoreResult<()> {
        let id = g.row.id.clone();
        let (row, moves) = self
            .store
            .load(&id)
            .await?
            .ok_or_else(|| Refusal::NoGame(id.to_string()))?;
        let mut fresh = rebuild(row, &moves, g.client)
            .map_err(|e| CoreError::internal(format!("game {id}: {e}")))?;
        fresh.players = players::load(&self.store, &fresh.row).await?;
        match g.take_from(fresh) {
            Change::Same => self.publish(g, What::State),
            Change::Appended => {
                let ply = g.played() - 1;
                let text = canonical(&g.game.positions()[ply], g.game.moves()[ply]);
                self.publish(g, What::Move { ply, text });
            }
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

    pub(crate) fn publish(&self, g: &mut Live, what: What) {
        g.publish(what, now_ms(), self.first_move_ms);
    }

    /// Applies what the clock decided by `now` (a flag fall, an abort for
    /// a missing first move) before anything else is done to the game.
    pub(crate) async fn settle(
        self: &Arc<Self>,
        g: &mut Live,
        handle: &Handle,
        now: i64,
    ) -> CoreResult<()> {
        if let Some(d) = g.due(now, self.first_move_ms) {
            self.commit(g, handle, Edit::Declare(d), now).await?;
        }
        Ok(())
    }

    /// Makes a change: the next row and game, derived, at the next
    /// version; stored; then the copy in memory, the watchers, and the
    /// engine if it is to move. Nothing in memory changes if the store
    /// refuses.
    pub(crate) async fn commit(
        self: &Arc<Self>,
        g: &mut Live,
        handle: &Handle,
        edit: Edit,
        now: i64,
    ) -> CoreResult<()> {
        let mut row = g.row.clone();
        let mut game = g.game.clone();
        let mut added = None;
        let what = match edit {
            Edit::Nothing => return Ok(()),
            Edit::Move(m) => {
                let before = *g.game.position();
                game.play(m).map_err(CoreError::internal)?;
                let ply = g.played();
                row.clock = row
                    .clock
                    .map(|c| c.after_move(g.turn(), ply, now, game.outcome().is_none()));
                row.draw_offer = None;
                row.takeback_offer = None;
                added = Some(view::played_move(&before, m, ply + 1, game.position()));
                What::Move {
                    ply,
                    text: canonical(&before, m),
                }
            }
            Edit::TakeBack(ply) => {
                while game.moves().len() > ply {
                    game.undo();
                }
                row.draw_offer = None;
                row.takeback_offer = None;
                row.clock = row.clock.map(|c| c.restarted(now));
                What::TakeBack { ply }
            }
            Edit::Row(new) => {
                row = *new;
                What::State
            }
            Edit::Declare(d) => {
                row.declared = Some(d);
                row.draw_offer = None;
                row.takeback_offer = None;
                row.clock = row.clock.map(|c| c.stopped(g.turn(), g.played(), now));
                apply_declared(&mut game, d);
                What::End
            }
        };
        derive(&mut row, &game, self.first_move_ms);
        // When it ended: kept once, for profiles (a takeback of an ended
        // local game clears it with the result).
        row.ended_ms = match status_of(&row, &game) {
            Status::Over | Status::Aborted => row.ended_ms.or(Some(now)),
            Status::Active | Status::Waiting => None,
        };
        row.version = g.row.version + 1;
        let write = match &what {
            What::Move { ply, text } => Write::Append {
                row: row.clone(),
                ply: *ply,
                text: text.clone(),
                now_ms: now,
            },
            What::TakeBack { ply } => Write::Truncate {
                row: row.clone(),
                ply: *ply,
            },
            What::End => Write::End(row.clone()),
            _ => Write::Update(row.clone()),
        };
        self.store.write(write).await?;
        let ended = g.row.result.is_none() && row.result.is_some();
        g.row = row;
        g.game = game;
        let added_move = added.is_some();
        if let Some(view) = added {
            g.moves
                .push(serde_json::value::to_raw_value(&view).map_err(CoreError::internal)?);
            self.metrics.moves.inc();
        }
        if let What::TakeBack { ply } = what {
            g.moves.truncate(ply);
        }
        // The search was for a position that is gone.
        if matches!(what, What::TakeBack { .. } | What::End) {
            g.stop_engine();
        }
        self.publish(g, what);
        if g.engine_to_move() && !g.engine_thinking {
            self.start_engine(g, handle).await;
        }
        if let Some(user) = g.user_to_move()
            && g.status() == Status::Active
            && added_move
        {
            // Nobody may be listening: not an error.
            let _ = self.turns.send(YourTurn {
                game: g.row.id.clone(),
                user,
            });
        }
        if ended && rated::counts(&g.row, g.played()) {
            tokio::spawn(self.clone().settle_ratings_later(g.row.id.clone()));
        }
        Ok(())
    }

    /// `settle_ratings` as a task of its own: boxed, so that `commit`
    /// (which starts it) and `settle_ratings` (which commits) do not make
    /// one endless future type.
    fn settle_ratings_later(
        self: Arc<Self>,
        id: GameId,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>> {
        Box::pin(async move {
            if let Err(e) = self.settle_ratings(&id).await {
                tracing::error!(game = %id, "cannot settle the ratings: {e}");
            }
        })
    }

    /// Changes the ratings of a rated game that ended (once, whichever
    /// server ends it), then shows the change: the game's next version,
    /// with its players read again, announced to every server.
    pub(crate) async fn settle_ratings(self: &Arc<Self>, id: &GameId) -> CoreResult<()> {
        let (handle, mut g) = self.lock(id).await?;
        let played = g.played();
        if !rated::settle(&self.store, &g.row, played, now_ms()).await? {
            return Ok(());
        }
        g.players = players::load(&self.store, &g.row).await?;
        let row = Box::new(g.row.clone());
        self.commit(&mut g, &handle, Edit::Row(row), now_ms()).await
    }

    /// A game of two players the lobby paired (a seek, a pool, a
    /// challenge): both seats known, started at once.
    pub async fn create_paired(self: &Arc<Self>, p: PairedGame) -> CoreResult<Json> {
        let now = now_ms();
        let clock = match (p.days, p.clock) {
            (Some(d), _) => Some(Clock::days_per_move(d).restarted(now)),
            (None, Some((initial, inc))) => Some(Clock::new(initial, inc).restarted(now)),
            (None, None) => None,
        };
        let row = GameRow {
            white_seat: Some(p.white.0),
            black_seat: Some(p.black.0),
            white_user: p.white.1,
            black_user: p.black.1,
            started_ms: Some(now),
            clock,
            days: p.days,
            rated: p.rated,
            pairing: Some(p.pairing),
            ..GameRow::new(
                &p.id,
                Mode::Friend,
                Rules::DEFAULT.name(),
                legion_rules::INITIAL_LFEN,
                now,
            )
        };
        self.open_game(row, SERVER, Seat::White).await
    }

    pub async fn create(self: &Arc<Self>, new: NewGame, client: ClientKey) -> CoreResult<Created> {
        let id = GameId::random();
        let now = now_ms();
        let mine = SeatToken::random();
        let invite = (new.mode == Mode::Friend).then(InviteCode::random);
        let seat = match new.mode {
            Mode::Local => Seat::Both,
            Mode::Engine | Mode::Friend => Seat::from(new.color),
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
        let holds = |side: Side| (seat.may_move(side)).then(|| mine.hash());
        let user = |side: Side| new.creator.filter(|_| seat.may_move(side));
        let row = GameRow {
            level: (new.mode == Mode::Engine).then_some(new.level),
            engine_color: (new.mode == Mode::Engine).then(|| new.color.other()),
            white_seat: holds(Side::White),
            black_seat: holds(Side::Black),
            white_user: user(Side::White),
            black_user: user(Side::Black),
            invite: invite.as_ref().map(InviteCode::hash),
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
    ) -> CoreResult<Json> {
        let id = row.id.clone();
        let mut live = rebuild(row.clone(), &[], client).map_err(CoreError::internal)?;
        live.players = players::load(&self.store, &row).await?;
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
    /// the game starts. An invite is claimed once, and not by a seat of
    /// the game (issue 19.17: the creator's own invite would give it both).
    pub async fn join(
        self: &Arc<Self>,
        id: &GameId,
        invite: &InviteCode,
        who: &Who,
    ) -> CoreResult<Joined> {
        let token = SeatToken::random();
        let (mut g, seat) = self
            .act(id, None, |g, now| {
                let code = g.row.invite.as_ref().ok_or(Refusal::NoInvite)?;
                if !invite.opens(code) {
                    return Err(Refusal::WrongInvite);
                }
                if g.seat_of(who).is_some() {
                    return Err(Refusal::AlreadySeated);
                }
                let side = open_side(&g.row).ok_or(Refusal::InviteUsed)?;
                if g.status() != Status::Waiting {
                    return Err(g.over().unwrap_or(Refusal::InviteUsed));
                }
                let mut row = g.row.clone();
                match side {
                    Side::White => {
                        row.white_seat = Some(token.hash());
                        row.white_user = who.user;
                    }
                    Side::Black => {
                        row.black_seat = Some(token.hash());
                        row.black_user = who.user;
                    }
                }
                row.started_ms = Some(now);
                row.clock = row.clock.map(|c| c.restarted(now));
                Ok((Edit::Row(Box::new(row)), Some(Seat::from(side))))
            })
            .await?;
        let seat = seat.ok_or_else(|| CoreError::internal("a claimed invite without a seat"))?;
        Ok(Joined {
            token,
            seat,
            state: self.full(&mut g, Some(seat)),
        })
    }

    pub async fn state(self: &Arc<Self>, id: &GameId, who: &Who) -> CoreResult<Json> {
        let (_, mut g) = self.current(id).await?;
        let seat = g.seat_of(who);
        Ok(self.full(&mut g, seat))
    }

    /// The game `id` for a socket, current (see `current`).
    pub async fn watch(self: &Arc<Self>, id: &GameId) -> CoreResult<Handle> {
        let (handle, g) = self.current(id).await?;
        drop(g);
        Ok(handle)
    }

    /// Plays `text` as move number `ply` (0-based) for the holder of `token`.
    pub async fn play(
        self: &Arc<Self>,
        id: &GameId,
        who: &Who,
        text: &str,
        ply: usize,
        client: ClientKey,
    ) -> CoreResult<Json> {
        self.act_for_state(id, Some(client), |g, _| {
            let seat = g.seat_of(who);
            let played = g.played();
            // A retry of the move already accepted at this ply is answered
            // as before; anything else for an old position is stale.
            if ply < played {
                let before = &g.game.positions()[ply];
                let same = parse_move(before, text).is_ok_and(|m| m == g.game.moves()[ply]);
                if same && seat.is_some() {
                    return Ok((Edit::Nothing, seat));
                }
            }
            if ply != played {
                return Err(Refusal::StaleMove { played, ply });
            }
            g.must_be_active()?;
            let seat = seat.ok_or(Refusal::OnlySeatedMove)?;
            let turn = g.turn();
            if !seat.may_move(turn) {
                return Err(Refusal::NotYourTurn(turn));
            }
            if g.engine_thinking {
                return Err(Refusal::EngineThinking);
            }
            let m = parse_move(g.game.position(), text).map_err(Refusal::BadMove)?;
            Ok((Edit::Move(m), Some(seat)))
        })
        .await
    }

    /// Takes back the last move (local) or the engine's reply and your
    /// move (engine games); friend games ask for a takeback instead. With
    /// `ply` (the moves the asker saw), a retry takes back nothing more.
    pub async fn undo(
        self: &Arc<Self>,
        id: &GameId,
        who: &Who,
        ply: Option<usize>,
    ) -> CoreResult<Json> {
        self.act_for_state(id, None, |g, _| {
            let seat = g.seated(who)?;
            if g.row.mode == Mode::Friend {
                return Err(Refusal::AskTakeback);
            }
            g.must_be_active()?;
            let played = g.played();
            if let Some(seen) = ply
                && seen != played
            {
                return Err(Refusal::StaleMove { played, ply: seen });
            }
            if played == 0 {
                return Err(Refusal::NothingToUndo);
            }
            let mut back = played - 1;
            if g.row.mode == Mode::Engine {
                let positions = g.game.positions();
                while back > 0 && !seat.may_move(positions[back].turn().into()) {
                    back -= 1;
                }
                if !seat.may_move(positions[back].turn().into()) {
                    return Err(Refusal::NoMoveOfYours);
                }
            }
            Ok((Edit::TakeBack(back), Some(seat)))
        })
        .await
    }

    pub async fn resign(self: &Arc<Self>, id: &GameId, who: &Who) -> CoreResult<Json> {
        self.act_for_state(id, None, |g, _| {
            let seat = g.seated(who)?;
            g.must_be_active()?;
            let loser = seat.side(g.turn());
            Ok((Edit::Declare(Declared::Resigned(loser)), Some(seat)))
        })
        .await
    }

    pub async fn position_of(self: &Arc<Self>, id: &GameId) -> CoreResult<Position> {
        let (_, g) = self.current(id).await?;
        Ok(*g.game.position())
    }

    /// Decides flag falls and missed first moves of games nobody looks at:
    /// the store names the games whose deadline has come. With several
    /// servers each sweeps; the game's version lets one decide. Answers
    /// when the next deadline comes (ms since the epoch), so that the
    /// sweeper wakes for it rather than at its next round.
    pub async fn sweep(self: &Arc<Self>) -> CoreResult<Option<i64>> {
        let now = now_ms();
        let due = self.store.due(now).await?;
        // All at once: the SQLite writer commits the games' writes in one
        // transaction (one sync), where one game after another cost a sync
        // each and 200 flags falling together took over half a second
        // (issue 19.17).
        let settled = futures_util::future::join_all(due.iter().map(|id| self.sweep_one(id))).await;
        for (id, r) in due.iter().zip(settled) {
            match r {
                Ok(()) => {}
                // Another server (or a player) came first, or the game
                // ended meanwhile.
                Err(CoreError::Refused(_)) => {}
                Err(e) => tracing::error!(game = %id, "sweep: {e}"),
            }
        }
        // A full batch: more games are due now.
        if due.len() >= 500 {
            return Ok(Some(now));
        }
        Ok(self.store.next_deadline(now).await?)
    }

    async fn sweep_one(self: &Arc<Self>, id: &GameId) -> CoreResult<()> {
        let first_move_ms = self.first_move_ms;
        // `act` settles a due game first; one not due after all (a
        // deadline of an older schema, or one moved by a change since) has
        // the right deadline stored.
        self.act(id, None, |g, _| {
            let mut derived = g.row.clone();
            derive(&mut derived, &g.game, first_move_ms);
            if derived.deadline_ms == g.row.deadline_ms {
                Ok((Edit::Nothing, None))
            } else {
                Ok((Edit::Row(Box::new(g.row.clone())), None))
            }
        })
        .await
        .map(drop)
    }
}

/// A game in progress as its player's list shows it (issue 20).
#[derive(serde::Serialize)]
pub struct InProgress {
    pub id: GameId,
    /// The player's side.
    pub color: Side,
    /// The opponent's name (`None`: anonymous or deleted).
    pub opponent: Option<String>,
    pub my_turn: bool,
    pub rated: bool,
    pub speed: Option<crate::players::ratings::SpeedClass>,
    pub days: Option<u8>,
    pub lfen: String,
    pub ply: usize,
    pub clock: Option<crate::games::clock::ClockView>,
    /// When the side to move runs out of time (unix ms).
    pub deadline_ms: Option<i64>,
}

impl Hub {
    /// The games `user` plays now, those where it is their turn first,
    /// then the ones whose time runs out soonest.
    pub async fn playing(self: &Arc<Self>, user: UserId) -> CoreResult<Vec<InProgress>> {
        let mut out = Vec::new();
        for id in self.store.games_in_progress(user, 100).await? {
            let Ok((_, g)) = self.current(&id).await else {
                continue;
            };
            if g.status() != Status::Active {
                continue;
            }
            let color = if g.row.white_user == Some(user) {
                Side::White
            } else {
                Side::Black
            };
            let opponent = g.players.as_ref().and_then(|p| match color {
                Side::White => p.b.as_ref().and_then(|s| s.name.clone()),
                Side::Black => p.w.as_ref().and_then(|s| s.name.clone()),
            });
            let now = now_ms();
            out.push(InProgress {
                id: id.clone(),
                color,
                opponent,
                my_turn: g.turn() == color
                    || (g.row.white_user == Some(user) && g.row.black_user == Some(user)),
                rated: g.row.rated,
                speed: players::class_of(&g.row),
                days: g.row.days,
                lfen: g.game.position().to_lfen(),
                ply: g.played(),
                clock: g.row.clock.map(|c| c.view(g.turn(), g.played(), now)),
                deadline_ms: g.row.deadline_ms,
            });
        }
        out.sort_by_key(|p| (!p.my_turn, p.deadline_ms.unwrap_or(i64::MAX)));
        Ok(out)
    }
}

/// Plays the engine's move `m`, found for version `version` of the game,
/// unless the game changed meanwhile (then the answer is void).
pub(crate) enum EngineReply {
    Played,
    Void,
}

impl Hub {
    /// The engine's answer, through the same path as a player's move.
    pub(crate) async fn engine_reply(
        self: &Arc<Self>,
        g: &mut Live,
        handle: &Handle,
        m: Move,
        version: i64,
    ) -> CoreResult<EngineReply> {
        if g.row.version != version {
            return Ok(EngineReply::Void);
        }
        g.engine_thinking = false;
        g.engine_stop = None;
        let now = now_ms();
        // The engine's flag may have fallen while it thought.
        self.settle(g, handle, now).await?;
        if !g.engine_to_move() {
            self.publish(g, What::State);
            return Ok(EngineReply::Void);
        }
        match self.commit(g, handle, Edit::Move(m), now).await {
            Ok(()) => Ok(EngineReply::Played),
            // Another server changed the game: the answer is for an old
            // position; the copy is read again (which restarts the engine
            // if it is still to move).
            Err(e) if e.is_stale() => {
                self.reload(g, handle).await?;
                Ok(EngineReply::Void)
            }
            Err(e) => Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_that_takes_no_moves_says_why() {
        let id = GameId::parse("g").unwrap();
        let row = GameRow::new(&id, Mode::Local, "default", legion_rules::INITIAL_LFEN, 0);
        let mut live = rebuild(row, &[], SERVER).unwrap();
        assert_eq!(live.over(), Some(Refusal::NotStarted));
        live.row.started_ms = Some(1);
        assert_eq!(live.must_be_active(), Ok(()));
        live.row.declared = Some(Declared::Aborted(Side::White));
        assert_eq!(live.over(), Some(Refusal::GameAborted));
        live.row.declared = Some(Declared::Resigned(Side::White));
        apply_declared(&mut live.game, Declared::Resigned(Side::White));
        assert_eq!(live.over(), Some(Refusal::GameOver));
        assert_eq!(live.seated(&Who::default()), Err(Refusal::NeedsSeat));
    }
}
