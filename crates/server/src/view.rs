//! What the API shows of positions, moves and games, as JSON
//! (docs/API.md, "Game state").

use legion_rules::game::Outcome;
use legion_rules::notation::{canonical, human, legion_path};
use legion_rules::{Color, Move, MoveKind, Position, Square};
use serde_json::{Map, Value, json};

/// A piece as the API names it: colour and letter, `wQ`, `bM`.
pub fn piece_code(color: Color, letter: char) -> String {
    format!("{}{}", color.char(), letter)
}

pub fn board(pos: &Position) -> Value {
    let mut map = Map::new();
    for sq in pos.board().occupied() {
        let Some(o) = pos.board().occupant(sq) else {
            continue;
        };
        let mut cell = Map::new();
        cell.insert(
            "piece".into(),
            piece_code(o.piece.color, o.piece.role.upper_char()).into(),
        );
        if let Some(p) = o.prisoner_piece() {
            cell.insert(
                "prisoner".into(),
                piece_code(p.color, p.role.upper_char()).into(),
            );
        }
        map.insert(sq.to_string(), Value::Object(cell));
    }
    Value::Object(map)
}

fn kind(m: Move) -> &'static str {
    match m.kind() {
        MoveKind::Chess => "chess",
        MoveKind::Castle => "castle",
        MoveKind::Step => "step",
        MoveKind::Jump => "jump",
    }
}

fn squares(list: impl IntoIterator<Item = Square>) -> Vec<String> {
    list.into_iter().map(|s| s.to_string()).collect()
}

/// A legal move of `pos` with everything a client needs to draw it.
pub fn legal_move(pos: &Position, m: Move) -> Value {
    json!({
        "canonical": canonical(pos, m),
        "human": human(pos, m),
        "from": m.from().to_string(),
        "to": m.to().to_string(),
        "path": squares(legion_path(pos, m)),
        "captured": squares(m.captured()),
        "kind": kind(m),
    })
}

/// A played move: as `legal_move`, with its number and the LFEN after it.
pub fn played_move(before: &Position, m: Move, ply: usize, after: &Position) -> Value {
    let mut v = legal_move(before, m);
    if let Value::Object(map) = &mut v {
        map.insert("ply".into(), json!(ply));
        map.insert("lfen".into(), json!(after.to_lfen()));
    }
    v
}

pub fn legal_moves(pos: &Position, over: bool) -> Vec<Value> {
    if over {
        return Vec::new();
    }
    pos.legal_moves()
        .into_iter()
        .map(|m| legal_move(pos, m))
        .collect()
}

/// Pieces that must capture when a Legion capture is compulsory (4.2).
pub fn must_capture(pos: &Position) -> Vec<String> {
    pos.compulsory_capturers()
        .into_iter()
        .map(|s| s.to_string())
        .collect()
}

pub fn kings(pos: &Position) -> Value {
    json!({
        "w": pos.board().king(Color::White).is_some(),
        "b": pos.board().king(Color::Black).is_some(),
    })
}

pub fn outcome(o: Option<Outcome>) -> Value {
    match o {
        None => Value::Null,
        Some(o) => json!({
            "result": o.result(),
            "reason": o.to_string(),
            "reason_i18n": crate::i18n::outcome(o).json(),
        }),
    }
}

/// A legal move with the LFEN of the position it leads to: the analysis
/// board plays moves by the server's rules, not its own.
pub fn legal_move_with_lfen(pos: &Position, m: Move) -> Value {
    let mut v = legal_move(pos, m);
    v["lfen"] = json!(pos.after(m).to_lfen());
    v
}

/// The state-like view of any position (`POST /api/position`).
pub fn position(pos: &Position, o: Option<Outcome>) -> Value {
    let legal: Vec<Value> = if o.is_some() {
        Vec::new()
    } else {
        pos.legal_moves()
            .into_iter()
            .map(|m| legal_move_with_lfen(pos, m))
            .collect()
    };
    json!({
        "lfen": pos.to_lfen(),
        "turn": pos.turn().char().to_string(),
        "board": board(pos),
        "check": pos.is_check(),
        "kings": kings(pos),
        "phase": pos.phase(),
        "legal": legal,
        "must_capture": must_capture(pos),
        "outcome": outcome(o),
    })
}
