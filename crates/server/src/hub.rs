//! Live games: loaded from the store on first use, changed one at a time
//! (a lock per game), every change written to the store before anyone is
//! told, and told to every watcher over a broadcast channel. Engine moves
//! are computed in a bounded pool off the async runtime.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use legion_engine::Options;
use legion_engine::player::{EnginePlayer, MoveLimit, Player};
use legion_rules::notation::{canonical, parse_move};
use legion_rules::{Color, Game, Position, Record, Rules};
use serde_json::{Value, json};
use tokio::sync::{Semaphore, broadcast};

use crate::store::{Clock, GameRow, Store, Write};
use crate::view;

/// An API error: status, message, and the rule it cites if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub status: u16,
    pub message: String,
    pub rule: Option<String>,
}

impl ApiError {
    pub fn new(status: u16, message: impl Into<String>) -> ApiError {
        let message = message.into();
        // Messages from the rules library start with the rule: "4.2: ...".
        let rule = message
            .split_once(": ")
            .map(|(r, _)| r)
            .filter(|r| {
                r.len() <= 4 && r.chars().all(|c| c.is_ascii_digit() || c == '.') && r.contains('.')
            })
            .map(str::to_string);
        ApiError {
            status,
            message,
            rule,
        }
    }

    pub fn json(&self) -> Value {
        let mut v = json!({"error": self.message});
        if let Some(r) = &self.rule {
            v["rule"] = json!(r);
        }
        v
    }
}

pub type ApiResult<T> = Result<T, ApiError>;

fn internal(e: impl std::fmt::Display) -> ApiError {
    ApiError::new(500, format!("internal error: {e}"))
}

pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// A random secret or id: `n` characters of base62.
pub fn random_id(n: usize) -> String {
    const ALPHABET: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    let mut bytes = vec![0u8; n];
    if getrandom::fill(&mut bytes).is_err() {
        // Never expected; fall back on the clock so the server still works.
        let t = now_ms() as u64;
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = (t
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                .rotate_left(i as u32 * 7)
                >> 3) as u8;
        }
    }
    bytes
        .iter()
        .map(|b| ALPHABET[*b as usize % 62] as char)
        .collect()
}

pub fn rules_of(name: &str) -> Option<Rules> {
    match name {
        "default" => Some(Rules::DEFAULT),
        "mate-ends-game" => Some(Rules::MATE_ENDS_GAME),
        _ => None,
    }
}

/// A game in memory.
pub struct Live {
    pub row: GameRow,
    pub game: Game,
    /// The played moves as the API shows them, built once.
    pub views: Vec<Value>,
    pub engine_thinking: bool,
    /// Bumped by every change; an engine reply for an older version is dropped.
    pub version: u64,
    pub tx: broadcast::Sender<Arc<Value>>,
    /// The state as last built; every change rebuilds it.
    current: Option<Arc<Value>>,
}

type Handle = Arc<tokio::sync::Mutex<Live>>;

pub struct Hub {
    store: Arc<Store>,
    games: Mutex<HashMap<String, Handle>>,
    engines: Arc<Semaphore>,
    analyses_waiting: AtomicUsize,
    /// Thinking time per engine move at level 10.
    engine_movetime: Duration,
}

/// What a token may do in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    White,
    Black,
    Both,
}

impl Seat {
    pub fn may_move(self, c: Color) -> bool {
        matches!(
            (self, c),
            (Seat::Both, _) | (Seat::White, Color::White) | (Seat::Black, Color::Black)
        )
    }

    pub fn name(self) -> &'static str {
        match self {
            Seat::White => "w",
            Seat::Black => "b",
            Seat::Both => "both",
        }
    }
}

pub fn seat(row: &GameRow, token: Option<&str>) -> Option<Seat> {
    let t = token?;
    if t.is_empty() {
        return None;
    }
    let w = row.white_token.as_deref() == Some(t);
    let b = row.black_token.as_deref() == Some(t);
    match (w, b) {
        (true, true) => Some(Seat::Both),
        (true, false) => Some(Seat::White),
        (false, true) => Some(Seat::Black),
        _ => None,
    }
}

fn color_code(c: Color) -> &'static str {
    match c {
        Color::White => "w",
        Color::Black => "b",
    }
}

fn color_of(code: &str) -> Option<Color> {
    match code {
        "w" => Some(Color::White),
        "b" => Some(Color::Black),
        _ => None,
    }
}

/// Rebuilds the in-memory game from its row and moves.
fn rebuild(row: GameRow, moves: &[String]) -> Result<Live, String> {
    let rules = rules_of(&row.rules).ok_or("unknown rules in the database")?;
    let start = Position::from_lfen(&row.start_lfen, rules).map_err(|e| e.to_string())?;
    let mut game = Game::new(start);
    let mut views = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let before = *game.position();
        let m = parse_move(&before, text)
            .map_err(|e| format!("stored move {} '{text}': {e}", i + 1))?;
        game.play(m).map_err(|e| e.to_string())?;
        views.push(view::played_move(&before, m, i + 1, game.position()));
    }
    if let Some(d) = &row.declared {
        apply_declared(&mut game, d);
    }
    let (tx, _) = broadcast::channel(64);
    Ok(Live {
        row,
        game,
        views,
        engine_thinking: false,
        version: 0,
        tx,
        current: None,
    })
}

fn apply_declared(game: &mut Game, declared: &str) {
    match declared.split_once(':') {
        Some(("resign", c)) => {
            if let Some(c) = color_of(c) {
                game.resign(c);
            }
        }
        Some(("time", c)) => {
            if let Some(c) = color_of(c) {
                game.lose_on_time(c);
            }
        }
        _ if declared == "draw" => game.agree_draw(),
        _ => {}
    }
}

/// Parameters of a new game (`POST /api/games`), already checked.
pub struct NewGame {
    pub mode: String,
    pub color: Color,
    pub level: u8,
    pub rules: Rules,
    pub start: Position,
    pub clock: Option<(i64, i64)>,
}

impl Live {
    /// The full state as the API shows it (without `you`).
    pub fn state(&self, now: i64) -> Value {
        let pos = self.game.position();
        let outcome = self.game.outcome();
        let over = outcome.is_some();
        let clock = self.row.clock.map(|c| {
            json!({
                "initial_ms": c.initial_ms,
                "increment_ms": c.increment_ms,
                "w_ms": c.white_ms,
                "b_ms": c.black_ms,
                "running": if c.turn_started_ms.is_some() && !over { json!(color_code(pos.turn())) } else { Value::Null },
                "as_of": c.turn_started_ms.unwrap_or(now),
            })
        });
        let phase_one = self
            .game
            .phase_one()
            .map(|p| json!({"winner": color_code(p.winner), "move": p.fullmove}));
        json!({
            "id": self.row.id,
            "mode": self.row.mode,
            "rules": self.row.rules,
            "level": self.row.level,
            "engine_color": self.row.engine_color,
            "start": self.row.start_lfen,
            "lfen": pos.to_lfen(),
            "turn": color_code(pos.turn()),
            "ply": self.game.moves().len(),
            "moves": self.views,
            "board": view::board(pos),
            "status": if over { "over" } else { "active" },
            "result": outcome.map_or("*", |o| o.result()),
            "reason": outcome.map(|o| o.to_string()),
            "check": pos.is_check(),
            "kings": view::kings(pos),
            "phase": view::phase(pos),
            "phase_one": phase_one,
            "legal": view::legal_moves(pos, over),
            "must_capture": if over { Vec::new() } else { view::must_capture(pos) },
            "draw_offer": self.row.draw_offer,
            "clock": clock,
            "engine_thinking": self.engine_thinking,
            "you": Value::Null,
        })
    }

    fn publish(&mut self) {
        self.version += 1;
        let state = Arc::new(self.state(now_ms()));
        self.current = Some(state.clone());
        let _ = self.tx.send(state);
    }

    /// The current state, built once per change.
    pub fn snapshot(&mut self) -> Arc<Value> {
        if let Some(s) = &self.current {
            return s.clone();
        }
        let s = Arc::new(self.state(now_ms()));
        self.current = Some(s.clone());
        s
    }

    /// Whether it is the engine's turn in an active engine game.
    fn engine_to_move(&self) -> bool {
        self.row.mode == "engine"
            && self.game.outcome().is_none()
            && self.row.engine_color.as_deref() == Some(color_code(self.game.position().turn()))
    }

    /// Runs the clock of the side to move; declares a loss on time.
    /// Returns whether anything changed.
    fn run_clock(&mut self, now: i64) -> bool {
        let Some(c) = self.row.clock else {
            return false;
        };
        let Some(started) = c.turn_started_ms else {
            return false;
        };
        if self.game.outcome().is_some() {
            return false;
        }
        let turn = self.game.position().turn();
        let left = match turn {
            Color::White => c.white_ms,
            Color::Black => c.black_ms,
        } - (now - started);
        if left > 0 {
            return false;
        }
        let mut c = c;
        match turn {
            Color::White => c.white_ms = 0,
            Color::Black => c.black_ms = 0,
        }
        c.turn_started_ms = None;
        self.row.clock = Some(c);
        self.row.declared = Some(format!("time:{}", color_code(turn)));
        self.game.lose_on_time(turn);
        true
    }

    /// The clock after the side to move moves at `now` (with increment).
    fn clock_after_move(&self, now: i64, game_continues: bool) -> Option<Clock> {
        let mut c = self.row.clock?;
        let turn = self.game.position().turn();
        let spent = c.turn_started_ms.map_or(0, |s| now - s);
        let left = match turn {
            Color::White => &mut c.white_ms,
            Color::Black => &mut c.black_ms,
        };
        *left = (*left - spent).max(0) + c.increment_ms;
        c.turn_started_ms = game_continues.then_some(now);
        Some(c)
    }
}

impl Hub {
    pub fn new(store: Arc<Store>, engine_threads: usize, engine_movetime: Duration) -> Arc<Hub> {
        Arc::new(Hub {
            store,
            games: Mutex::new(HashMap::new()),
            engines: Arc::new(Semaphore::new(engine_threads.max(1))),
            analyses_waiting: AtomicUsize::new(0),
            engine_movetime,
        })
    }

    /// A write, committed to disk when this returns.
    async fn write(&self, w: Write) -> ApiResult<()> {
        self.store.write(w).await.map_err(internal)
    }

    async fn blocking<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Store) -> Result<T, String> + Send + 'static,
    ) -> ApiResult<T> {
        let store = self.store.clone();
        tokio::task::spawn_blocking(move || f(&store))
            .await
            .map_err(internal)?
            .map_err(internal)
    }

    /// The live game `id`, from memory or the store.
    pub async fn get(self: &Arc<Self>, id: &str) -> ApiResult<Handle> {
        if id.is_empty() || id.len() > 32 || !id.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(ApiError::new(404, format!("no game '{id}'")));
        }
        if let Some(h) = self.games.lock().map_err(internal)?.get(id) {
            return Ok(h.clone());
        }
        let key = id.to_string();
        let loaded = self.blocking(move |s| s.load(&key)).await?;
        let Some((row, moves)) = loaded else {
            return Err(ApiError::new(404, format!("no game '{id}'")));
        };
        let live = rebuild(row, &moves).map_err(internal)?;
        let resume_engine = live.engine_to_move();
        let handle = {
            let mut games = self.games.lock().map_err(internal)?;
            games
                .entry(id.to_string())
                .or_insert_with(|| Arc::new(tokio::sync::Mutex::new(live)))
                .clone()
        };
        // A game whose engine was thinking when the server stopped goes on.
        if resume_engine {
            let mut g = handle.lock().await;
            if g.engine_to_move() && !g.engine_thinking {
                self.schedule_engine(&mut g, handle.clone());
            }
        }
        Ok(handle)
    }

    pub async fn create(
        self: &Arc<Self>,
        new: NewGame,
    ) -> ApiResult<(Value, String, Option<String>, Color)> {
        let id = random_id(10);
        let now = now_ms();
        let mine = random_id(24);
        let (white, black, invite, engine_color) = match new.mode.as_str() {
            "engine" => match new.color {
                Color::White => (Some(mine.clone()), None, None, Some("b")),
                Color::Black => (None, Some(mine.clone()), None, Some("w")),
            },
            "friend" => {
                let other = random_id(24);
                match new.color {
                    Color::White => (Some(mine.clone()), Some(other.clone()), Some(other), None),
                    Color::Black => (Some(other.clone()), Some(mine.clone()), Some(other), None),
                }
            }
            _ => (Some(mine.clone()), Some(mine.clone()), None, None),
        };
        let row = GameRow {
            id: id.clone(),
            created_ms: now,
            mode: new.mode.clone(),
            rules: new.rules.name().to_string(),
            start_lfen: new.start.to_lfen(),
            level: (new.mode == "engine").then_some(new.level),
            engine_color: engine_color.map(str::to_string),
            white_token: white,
            black_token: black,
            clock: new.clock.map(|(initial, inc)| Clock {
                initial_ms: initial,
                increment_ms: inc,
                white_ms: initial,
                black_ms: initial,
                turn_started_ms: Some(now),
            }),
            declared: None,
            draw_offer: None,
        };
        self.write(Write::Create(row.clone())).await?;
        let live = rebuild(row, &[]).map_err(internal)?;
        let handle = Arc::new(tokio::sync::Mutex::new(live));
        self.games
            .lock()
            .map_err(internal)?
            .insert(id, handle.clone());
        let mut g = handle.lock().await;
        if g.engine_to_move() {
            self.schedule_engine(&mut g, handle.clone());
        }
        let mut state = (*g.snapshot()).clone();
        state["you"] = json!(if new.mode == "local" {
            "both"
        } else {
            color_code(new.color)
        });
        Ok((state, mine, invite, new.color))
    }

    /// Plays `text` as move number `ply` (0-based) for the holder of `token`.
    pub async fn play(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
        text: &str,
        ply: usize,
    ) -> ApiResult<Value> {
        let handle = self.get(id).await?;
        let mut g = handle.lock().await;
        let now = now_ms();
        if g.run_clock(now) {
            self.write(Write::Update(g.row.clone())).await?;
            g.publish();
        }
        let seat = seat(&g.row, token);
        let played = g.game.moves().len();
        // A retry of the move already accepted at this ply is answered as
        // before; anything else for an old position is stale.
        if ply < played {
            let before = &g.game.positions()[ply];
            let same = parse_move(before, text).is_ok_and(|m| m == g.game.moves()[ply]);
            if same && seat.is_some() {
                return Ok(with_you((*g.snapshot()).clone(), seat));
            }
            return Err(ApiError::new(
                409,
                format!("stale move: {played} moves have been played, not {ply}"),
            ));
        }
        if ply > played {
            return Err(ApiError::new(
                409,
                format!("stale move: {played} moves have been played, not {ply}"),
            ));
        }
        if let Some(o) = g.game.outcome() {
            return Err(ApiError::new(409, format!("the game is over: {o}")));
        }
        let turn = g.game.position().turn();
        let Some(seat) = seat else {
            return Err(ApiError::new(
                403,
                "only a seated player may move: this needs your seat's token",
            ));
        };
        if !seat.may_move(turn) {
            return Err(ApiError::new(409, format!("it is {turn}'s turn")));
        }
        if g.engine_thinking {
            return Err(ApiError::new(409, "the engine is thinking"));
        }
        let before = *g.game.position();
        let m = parse_move(&before, text).map_err(|e| ApiError::new(400, e.to_string()))?;
        self.commit_move(&mut g, m, now).await?;
        if g.engine_to_move() {
            self.schedule_engine(&mut g, handle.clone());
        }
        Ok(with_you((*g.snapshot()).clone(), Some(seat)))
    }

    /// Stores and applies a legal move, then tells everyone.
    async fn commit_move(&self, g: &mut Live, m: legion_rules::Move, now: i64) -> ApiResult<()> {
        let before = *g.game.position();
        let after = before.after(m);
        let mut next = Game::clone(&g.game);
        next.play(m).map_err(internal)?;
        let continues = next.outcome().is_none();
        let mut row = g.row.clone();
        row.clock = g.clock_after_move(now, continues);
        row.draw_offer = None;
        let ply = g.game.moves().len();
        let text = canonical(&before, m);
        self.write(Write::Append {
            row: row.clone(),
            ply,
            text,
            now_ms: now,
        })
        .await?;
        g.row = row;
        g.game = next;
        g.views.push(view::played_move(&before, m, ply + 1, &after));
        g.publish();
        Ok(())
    }

    /// Starts the engine on its move, in the bounded pool.
    fn schedule_engine(self: &Arc<Self>, g: &mut Live, handle: Handle) {
        g.engine_thinking = true;
        g.publish();
        let version = g.version;
        let game = g.game.clone();
        let level = g.row.level.unwrap_or(3);
        let rules = rules_of(&g.row.rules).unwrap_or_default();
        let seed = g
            .row
            .id
            .bytes()
            .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(b as u64));
        let movetime = self.engine_movetime;
        let hub = self.clone();
        tokio::spawn(async move {
            let Ok(_permit) = hub.engines.clone().acquire_owned().await else {
                return;
            };
            let chosen = tokio::task::spawn_blocking(move || {
                let mut p = EnginePlayer::new(
                    Options {
                        level,
                        rules,
                        hash_mb: 8,
                        ..Options::default()
                    },
                    "engine",
                );
                let _ = p.new_game(seed, rules);
                p.choose(&game, MoveLimit::Time(movetime))
            })
            .await;
            let mut g = handle.lock().await;
            if g.version != version {
                // The game changed meanwhile (undo): this reply is void.
                return;
            }
            g.engine_thinking = false;
            match chosen {
                Ok(Ok(m)) if g.engine_to_move() => {
                    if hub.commit_move(&mut g, m, now_ms()).await.is_err() {
                        g.publish();
                    }
                }
                _ => g.publish(),
            }
        });
    }

    pub async fn state(self: &Arc<Self>, id: &str, token: Option<&str>) -> ApiResult<Value> {
        let handle = self.get(id).await?;
        let mut g = handle.lock().await;
        let now = now_ms();
        if g.run_clock(now) {
            self.write(Write::Update(g.row.clone())).await?;
            g.publish();
        }
        let seat = seat(&g.row, token);
        Ok(with_you((*g.snapshot()).clone(), seat))
    }

    pub async fn subscribe(
        self: &Arc<Self>,
        id: &str,
    ) -> ApiResult<(broadcast::Receiver<Arc<Value>>, Handle)> {
        let handle = self.get(id).await?;
        let rx = handle.lock().await.tx.subscribe();
        Ok((rx, handle))
    }

    pub async fn undo(self: &Arc<Self>, id: &str, token: Option<&str>) -> ApiResult<Value> {
        let handle = self.get(id).await?;
        let mut g = handle.lock().await;
        let seat = seat(&g.row, token)
            .ok_or_else(|| ApiError::new(403, "undo needs your seat's token"))?;
        if g.row.mode == "friend" {
            return Err(ApiError::new(
                409,
                "undo is for games against the engine or on one device",
            ));
        }
        if g.game.moves().is_empty() {
            return Err(ApiError::new(409, "there is no move to take back"));
        }
        // Back to the person's previous turn (engine games), or one move.
        let mut next = g.game.clone();
        next.undo();
        if g.row.mode == "engine" {
            while !next.moves().is_empty() && !seat.may_move(next.position().turn()) {
                next.undo();
            }
            if !seat.may_move(next.position().turn()) {
                return Err(ApiError::new(409, "there is no move of yours to take back"));
            }
        }
        let ply = next.moves().len();
        let mut row = g.row.clone();
        row.declared = None;
        row.draw_offer = None;
        if let Some(c) = &mut row.clock {
            c.turn_started_ms = Some(now_ms());
        }
        self.write(Write::Truncate {
            row: row.clone(),
            ply,
        })
        .await?;
        g.row = row;
        g.game = next;
        g.views.truncate(ply);
        g.engine_thinking = false;
        g.publish();
        if g.engine_to_move() {
            self.schedule_engine(&mut g, handle.clone());
        }
        Ok(with_you((*g.snapshot()).clone(), Some(seat)))
    }

    pub async fn resign(self: &Arc<Self>, id: &str, token: Option<&str>) -> ApiResult<Value> {
        let handle = self.get(id).await?;
        let mut g = handle.lock().await;
        let seat = seat(&g.row, token)
            .ok_or_else(|| ApiError::new(403, "resigning needs your seat's token"))?;
        if let Some(o) = g.game.outcome() {
            return Err(ApiError::new(409, format!("the game is over: {o}")));
        }
        let loser = match seat {
            Seat::White => Color::White,
            Seat::Black => Color::Black,
            Seat::Both => g.game.position().turn(),
        };
        self.declare(&mut g, format!("resign:{}", color_code(loser)))
            .await?;
        Ok(with_you((*g.snapshot()).clone(), Some(seat)))
    }

    /// Saves a changed off-board state and tells everyone.
    async fn set_row(&self, g: &mut Live, row: GameRow) -> ApiResult<()> {
        self.write(Write::Update(row.clone())).await?;
        g.row = row;
        g.publish();
        Ok(())
    }

    async fn declare(&self, g: &mut Live, declared: String) -> ApiResult<()> {
        let mut row = g.row.clone();
        row.declared = Some(declared.clone());
        row.draw_offer = None;
        if let Some(c) = &mut row.clock {
            // Stop the clock where it stands.
            let now = now_ms();
            if let Some(s) = c.turn_started_ms.take() {
                let spent = now - s;
                match g.game.position().turn() {
                    Color::White => c.white_ms = (c.white_ms - spent).max(0),
                    Color::Black => c.black_ms = (c.black_ms - spent).max(0),
                }
            }
        }
        self.write(Write::Update(row.clone())).await?;
        g.row = row;
        apply_declared(&mut g.game, &declared);
        g.publish();
        Ok(())
    }

    pub async fn draw(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
        action: &str,
    ) -> ApiResult<Value> {
        let handle = self.get(id).await?;
        let mut g = handle.lock().await;
        let seat = seat(&g.row, token)
            .ok_or_else(|| ApiError::new(403, "a draw offer needs your seat's token"))?;
        if let Some(o) = g.game.outcome() {
            return Err(ApiError::new(409, format!("the game is over: {o}")));
        }
        let me = match seat {
            Seat::White => Color::White,
            Seat::Black => Color::Black,
            Seat::Both => g.game.position().turn(),
        };
        match action {
            "offer" if g.row.mode == "engine" => {
                // The engine accepts unless it judges itself better.
                let pos = *g.game.position();
                let engine_side = !me;
                let score = tokio::task::spawn_blocking(move || {
                    let limits = legion_engine::Limits {
                        depth: Some(6),
                        movetime: Some(Duration::from_millis(500)),
                        ..Default::default()
                    };
                    let out = legion_engine::search_once(&pos, &limits, 4);
                    if pos.turn() == engine_side {
                        out.score
                    } else {
                        -out.score
                    }
                })
                .await
                .map_err(internal)?;
                if score < 50 {
                    self.declare(&mut g, "draw".to_string()).await?;
                } else {
                    let mut v = with_you((*g.snapshot()).clone(), Some(seat));
                    v["draw_declined"] = json!(true);
                    return Ok(v);
                }
            }
            "offer" => {
                let mut row = g.row.clone();
                row.draw_offer = Some(color_code(me).to_string());
                self.set_row(&mut g, row).await?;
            }
            "accept" => {
                let offer = g.row.draw_offer.clone();
                let accepting_own = offer.as_deref() == Some(color_code(me)) && seat != Seat::Both;
                if offer.is_none() || accepting_own {
                    return Err(ApiError::new(409, "there is no draw offer to accept"));
                }
                self.declare(&mut g, "draw".to_string()).await?;
            }
            "decline" => {
                if g.row.draw_offer.is_none() {
                    return Err(ApiError::new(409, "there is no draw offer to decline"));
                }
                let mut row = g.row.clone();
                row.draw_offer = None;
                self.set_row(&mut g, row).await?;
            }
            other => {
                return Err(ApiError::new(
                    400,
                    format!("draw action must be offer, accept or decline, not '{other}'"),
                ));
            }
        }
        Ok(with_you((*g.snapshot()).clone(), Some(seat)))
    }

    pub async fn record(self: &Arc<Self>, id: &str) -> ApiResult<String> {
        let handle = self.get(id).await?;
        let g = handle.lock().await;
        let mut r = Record::new(g.game.clone());
        r.set_tag("Event", "Legion game");
        r.set_tag("Date", &date_of(g.row.created_ms));
        r.set_tag("Site", &format!("/g/{id}"));
        let name = |c: &str| -> String {
            if g.row.engine_color.as_deref() == Some(c) {
                format!("Legion engine level {}", g.row.level.unwrap_or(3))
            } else {
                "Player".to_string()
            }
        };
        r.set_tag("White", &name("w"));
        r.set_tag("Black", &name("b"));
        Ok(r.write())
    }

    pub async fn position_of(self: &Arc<Self>, id: &str) -> ApiResult<Position> {
        let handle = self.get(id).await?;
        let g = handle.lock().await;
        Ok(*g.game.position())
    }

    /// Searches for analysis in the engine pool; refuses when too many wait.
    pub async fn analyse(
        self: &Arc<Self>,
        pos: Position,
        movetime: Duration,
    ) -> ApiResult<legion_engine::Outcome> {
        if self.analyses_waiting.fetch_add(1, Ordering::SeqCst) >= 32 {
            self.analyses_waiting.fetch_sub(1, Ordering::SeqCst);
            return Err(ApiError::new(
                503,
                "the engine is busy; try again in a moment",
            ));
        }
        let permit = self.engines.clone().acquire_owned().await;
        self.analyses_waiting.fetch_sub(1, Ordering::SeqCst);
        let _permit = permit.map_err(internal)?;
        tokio::task::spawn_blocking(move || {
            let limits = legion_engine::Limits {
                movetime: Some(movetime),
                ..Default::default()
            };
            legion_engine::search_once(&pos, &limits, 16)
        })
        .await
        .map_err(internal)
    }

    /// Declares losses on time in clocked games nobody is looking at.
    pub async fn sweep_clocks(self: &Arc<Self>) {
        let handles: Vec<Handle> = match self.games.lock() {
            Ok(g) => g.values().cloned().collect(),
            Err(_) => return,
        };
        for h in handles {
            let mut g = h.lock().await;
            if g.run_clock(now_ms()) && self.write(Write::Update(g.row.clone())).await.is_ok() {
                g.publish();
            }
        }
    }

    /// Loads clocked games after a restart so their clocks are watched.
    pub async fn load_clocked(self: &Arc<Self>) {
        if let Ok(ids) = self.blocking(|s| s.clocked_games()).await {
            for id in ids {
                let _ = self.get(&id).await;
            }
        }
    }
}

/// `YYYY.MM.DD` of a unix time in ms (UTC), as game records write dates.
pub fn date_of(ms: i64) -> String {
    // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
    let z = ms.div_euclid(86_400_000) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + (m <= 2) as i64;
    format!("{y:04}.{m:02}.{d:02}")
}

pub fn with_you(mut state: Value, seat: Option<Seat>) -> Value {
    state["you"] = match seat {
        Some(s) => json!(s.name()),
        None => Value::Null,
    };
    state
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_of_known_days() {
        assert_eq!(date_of(0), "1970.01.01");
        // 2026-11-29 is 20_786 days after 1970-01-01 (56 years with 14
        // leap days, then 332 days into 2026).
        assert_eq!(date_of(20_786 * 86_400_000), "2026.11.29");
        assert_eq!(date_of(951_782_400_000), "2000.02.29");
    }

    #[test]
    fn rule_numbers_are_taken_from_messages() {
        assert_eq!(
            ApiError::new(400, "4.2: a Legion capture is mandatory")
                .rule
                .as_deref(),
            Some("4.2")
        );
        assert_eq!(ApiError::new(400, "bad JSON: x").rule, None);
        assert_eq!(ApiError::new(409, "stale move: 3 moves").rule, None);
    }
}
