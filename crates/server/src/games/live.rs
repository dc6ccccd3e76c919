//! A game in memory: its row, the rules' `Game`, the played moves as the
//! API shows them, and the channel that tells watchers of each change.
//! The state the API sends is built here from typed parts (docs/API.md,
//! "Game state"); the parts that do not depend on the time are built once
//! per change.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use legion_rules::notation::parse_move;
use legion_rules::{Game, Position, Rules};
use serde::Serialize;
use serde_json::value::RawValue;
use tokio::sync::broadcast;

use crate::engine::pool::ClientKey;
use crate::games::clock::ClockView;
use crate::games::event::{Notice, What};
use crate::games::ids::GameId;
use crate::games::model::{Declared, Mode, Side, Status};
use crate::games::players::Players;
use crate::games::seats::Seat;
use crate::games::view;
use crate::i18n;
use crate::store::GameRow;

/// A JSON text made once and sent many times.
pub type Json = Box<RawValue>;

pub fn rules_of(name: &str) -> Option<Rules> {
    match name {
        "default" => Some(Rules::DEFAULT),
        "mate-ends-game" => Some(Rules::MATE_ENDS_GAME),
        _ => None,
    }
}

fn to_json<T: Serialize + ?Sized>(v: &T) -> Json {
    // Serialising our own types into a string cannot fail.
    serde_json::value::to_raw_value(v).expect("serialisable")
}

pub struct Live {
    pub row: GameRow,
    pub game: Game,
    /// The played moves as the API shows them, each made once.
    pub moves: Vec<Json>,
    pub engine_thinking: bool,
    /// Stops the engine's search for this game (set on undo, results).
    pub engine_stop: Option<Arc<AtomicBool>>,
    /// Each change, for the game's sockets.
    pub tx: broadcast::Sender<Notice>,
    /// Who asked for the engine's next move (its share of the pool).
    pub client: ClientKey,
    /// The accounts on the seats and their ratings (issue 20), read by
    /// the hub when it loads the game.
    pub players: Option<Players>,
    core: Option<Arc<Core>>,
}

/// Everything of the state that does not depend on the time or the reader.
#[derive(Serialize)]
pub struct Core {
    id: GameId,
    mode: Mode,
    rules: String,
    level: Option<u8>,
    engine_color: Option<Side>,
    start: String,
    lfen: String,
    turn: Side,
    ply: usize,
    board: view::BoardView,
    status: Status,
    result: &'static str,
    /// Why the game ended, in English; `reason_i18n` for any language.
    reason: Option<String>,
    reason_i18n: Option<serde_json::Value>,
    check: bool,
    kings: view::Kings,
    phase: u8,
    phase_one: Option<PhaseOne>,
    legal: Json,
    must_capture: Vec<view::Sq>,
    /// For the side not to move: each piece's premove squares.
    premoves: std::collections::BTreeMap<view::Sq, Vec<view::Sq>>,
    draw_offer: Option<Side>,
    takeback_offer: Option<Side>,
    rematch_offer: Option<Side>,
    /// The id of the rematch, once there is one.
    rematch: Option<GameId>,
    engine_thinking: bool,
    /// Issue 20: a rated game, its speed class, days per move, and who
    /// plays it.
    rated: bool,
    speed: Option<crate::players::ratings::SpeedClass>,
    days: Option<u8>,
    players: Option<Players>,
}

#[derive(Serialize)]
struct PhaseOne {
    winner: Side,
    #[serde(rename = "move")]
    fullmove: u32,
    /// The number of the mating move in `moves` (1 for the first move).
    ply: usize,
}

/// The parts that depend on the moment the state is sent.
#[derive(Serialize)]
struct Timing {
    clock: Option<ClockView>,
    abort_in_ms: Option<i64>,
    now_ms: i64,
}

#[derive(Serialize)]
struct Full<'a> {
    #[serde(flatten)]
    core: &'a Core,
    moves: &'a [Json],
    #[serde(flatten)]
    timing: Timing,
    you: Option<Seat>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    draw_declined: bool,
}

#[derive(Serialize)]
struct Update<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(rename = "move")]
    added: Option<&'a RawValue>,
    state: UpdateState<'a>,
}

#[derive(Serialize)]
struct UpdateState<'a> {
    #[serde(flatten)]
    core: &'a Core,
    #[serde(flatten)]
    timing: Timing,
}

/// Rebuilds a game from its row and moves, as stored.
pub fn rebuild(row: GameRow, moves: &[String], client: ClientKey) -> Result<Live, String> {
    let rules = rules_of(&row.rules).ok_or_else(|| format!("unknown rules '{}'", row.rules))?;
    let start = Position::from_lfen(&row.start_lfen, rules).map_err(|e| e.to_string())?;
    let mut game = Game::new(start);
    let mut views = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let before = *game.position();
        let m = parse_move(&before, text)
            .map_err(|e| format!("stored move {} '{text}': {e}", i + 1))?;
        game.play(m).map_err(|e| e.to_string())?;
        views.push(to_json(&view::played_move(
            &before,
            m,
            i + 1,
            game.position(),
        )));
    }
    if let Some(d) = row.declared {
        apply_declared(&mut game, d);
    }
    let (tx, _) = broadcast::channel(64);
    Ok(Live {
        row,
        game,
        moves: views,
        engine_thinking: false,
        engine_stop: None,
        tx,
        client,
        players: None,
        core: None,
    })
}

/// Makes a declared result part of the rules' game (an abort has none).
pub fn apply_declared(game: &mut Game, d: Declared) {
    match d {
        Declared::Resigned(s) => game.resign(s.color()),
        Declared::LostOnTime(s) => game.lose_on_time(s.color()),
        Declared::DrawAgreed => game.agree_draw(),
        Declared::Aborted(_) | Declared::NoFirstMove(_) => {}
    }
}

/// Where a game with this row and this game stands.
pub fn status_of(row: &GameRow, game: &Game) -> Status {
    if row.declared.is_some_and(Declared::is_abort) {
        Status::Aborted
    } else if game.outcome().is_some() {
        Status::Over
    } else if row.started_ms.is_none() {
        Status::Waiting
    } else {
        Status::Active
    }
}

/// Sets the row's derived fields from the game: when the server must look
/// at it, and the ply at which the engine is to move.
pub fn derive(row: &mut GameRow, game: &Game, first_move_ms: i64) {
    row.deadline_ms = deadline_of(row, game, first_move_ms);
    row.result = game.outcome().map(|o| o.result().to_string());
    row.phase_one = game.phase_one().map(|p| p.winner.into());
    let turn: Side = game.position().turn().into();
    row.engine_ply = (row.mode == Mode::Engine
        && status_of(row, game) == Status::Active
        && row.engine_color == Some(turn))
    .then_some(game.moves().len() as i64);
}

/// How a game read again from the store differs from the copy in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// The same moves (an offer, a seat, a result changed).
    Same,
    /// One move more.
    Appended,
    /// Anything else (moves taken back, several moves): watchers need
    /// the whole state.
    Other,
}

/// When the server must look at the game if nothing else happens.
pub fn deadline_of(row: &GameRow, game: &Game, first_move_ms: i64) -> Option<i64> {
    if status_of(row, game) != Status::Active {
        return None;
    }
    let c = row.clock?;
    c.deadline(
        game.position().turn().into(),
        game.moves().len(),
        first_move_ms,
    )
}

impl Live {
    pub fn status(&self) -> Status {
        status_of(&self.row, &self.game)
    }

    pub fn turn(&self) -> Side {
        self.game.position().turn().into()
    }

    pub fn played(&self) -> usize {
        self.game.moves().len()
    }

    /// Whether it is the engine's turn in an active engine game.
    pub fn engine_to_move(&self) -> bool {
        self.row.mode == Mode::Engine
            && self.status() == Status::Active
            && self.row.engine_color == Some(self.turn())
    }

    /// What the clock or the first-move time decide at `now`, if anything.
    pub fn due(&self, now: i64, first_move_ms: i64) -> Option<Declared> {
        if self.status() != Status::Active {
            return None;
        }
        let c = self.row.clock?;
        let played = self.played();
        if c.flag_fell(self.turn(), played, now) {
            Some(Declared::LostOnTime(self.turn()))
        } else if c.first_move_late(played, now, first_move_ms) {
            Some(Declared::NoFirstMove(self.turn()))
        } else {
            None
        }
    }

    /// Takes the stored game in place of this copy (watchers stay
    /// subscribed); a search for the old copy is stopped.
    pub fn take_from(&mut self, fresh: Live) -> Change {
        let (old, new) = (self.game.moves(), fresh.game.moves());
        let change = if new == old {
            Change::Same
        } else if new.len() == old.len() + 1 && new[..old.len()] == *old {
            Change::Appended
        } else {
            Change::Other
        };
        self.stop_engine();
        self.row = fresh.row;
        self.game = fresh.game;
        self.moves = fresh.moves;
        self.players = fresh.players;
        change
    }

    /// Plays a move another server stored, with the row it stored with it.
    pub fn take_move(&mut self, row: GameRow, text: &str) -> Result<(), String> {
        let before = *self.game.position();
        let m = parse_move(&before, text).map_err(|e| format!("stored move '{text}': {e}"))?;
        let mut next = self.game.clone();
        next.play(m).map_err(|e| e.to_string())?;
        if let Some(d) = row.declared {
            apply_declared(&mut next, d);
        }
        let ply = self.played();
        self.moves.push(to_json(&view::played_move(
            &before,
            m,
            ply + 1,
            next.position(),
        )));
        self.stop_engine();
        self.game = next;
        self.row = row;
        Ok(())
    }

    /// Stops the engine's search, if one runs for this game.
    pub fn stop_engine(&mut self) {
        if let Some(s) = self.engine_stop.take() {
            s.store(true, Ordering::Relaxed);
        }
        self.engine_thinking = false;
    }

    fn core(&mut self) -> Arc<Core> {
        if let Some(c) = &self.core {
            return c.clone();
        }
        let pos = self.game.position();
        let status = self.status();
        let active = status == Status::Active;
        let outcome = self.game.outcome();
        let why = match self.row.declared.and_then(i18n::aborted) {
            Some(t) => Some(t),
            None => outcome.map(i18n::outcome),
        };
        let reason = why.as_ref().map(|t| t.render(i18n::Lang::En));
        let legal = view::legal_moves(pos, !active);
        let core = Arc::new(Core {
            id: self.row.id.clone(),
            mode: self.row.mode,
            rules: self.row.rules.clone(),
            level: self.row.level,
            engine_color: self.row.engine_color,
            start: self.row.start_lfen.clone(),
            lfen: pos.to_lfen(),
            turn: pos.turn().into(),
            ply: self.game.moves().len(),
            board: view::board(pos),
            status,
            result: outcome.map_or("*", |o| o.result()),
            reason,
            reason_i18n: why.map(|t| t.json()),
            check: pos.is_check(),
            kings: view::kings(pos),
            phase: pos.phase(),
            phase_one: self.game.phase_one().map(|p| PhaseOne {
                winner: p.winner.into(),
                fullmove: p.fullmove,
                ply: p.ply + 1,
            }),
            legal: to_json(&legal),
            must_capture: if active {
                view::must_capture(pos)
            } else {
                Vec::new()
            },
            premoves: if active {
                view::premove_targets(pos)
            } else {
                Default::default()
            },
            draw_offer: self.row.draw_offer,
            takeback_offer: self.row.takeback_offer,
            rematch_offer: self.row.rematch_offer,
            rematch: self.row.rematch.clone(),
            // With several servers the one thinking may be another.
            engine_thinking: self.engine_thinking || self.engine_to_move(),
            rated: self.row.rated,
            speed: crate::games::players::class_of(&self.row),
            days: self.row.days,
            players: self.players.clone(),
        });
        self.core = Some(core.clone());
        core
    }

    fn timing(&self, now: i64, first_move_ms: i64) -> Timing {
        let played = self.played();
        let active = self.status() == Status::Active;
        Timing {
            clock: self.row.clock.map(|c| c.view(self.turn(), played, now)),
            abort_in_ms: self
                .row
                .clock
                .filter(|_| active)
                .and_then(|c| c.abort_in(played, now, first_move_ms))
                .map(|t| t.max(0)),
            now_ms: now,
        }
    }

    /// The whole state for one reader, at `now`.
    pub fn full(&mut self, you: Option<Seat>, now: i64, first_move_ms: i64) -> Json {
        self.full_with(you, now, first_move_ms, false)
    }

    pub fn full_with(
        &mut self,
        you: Option<Seat>,
        now: i64,
        first_move_ms: i64,
        draw_declined: bool,
    ) -> Json {
        let core = self.core();
        to_json(&Full {
            core: &core,
            moves: &self.moves,
            timing: self.timing(now, first_move_ms),
            you,
            draw_declined,
        })
    }

    /// Records a change that watchers cannot follow move by move: each
    /// socket sends its reader the whole state.
    pub fn publish_resync(&mut self) {
        self.core = None;
        let _ = self.tx.send(Notice {
            what: What::Resync,
            update: None,
        });
    }

    /// Records a change: the cached state is rebuilt and every watcher
    /// is sent the update (with the move it added, if any).
    pub fn publish(&mut self, what: What, now: i64, first_move_ms: i64) {
        self.core = None;
        let core = self.core();
        let added = match what {
            What::Move { .. } => self.moves.last().map(|m| &**m),
            _ => None,
        };
        let msg = Update {
            kind: "update",
            added,
            state: UpdateState {
                core: &core,
                timing: self.timing(now, first_move_ms),
            },
        };
        let update: Arc<str> = to_json(&msg).get().into();
        let _ = self.tx.send(Notice {
            what,
            update: Some(update),
        });
    }
}
