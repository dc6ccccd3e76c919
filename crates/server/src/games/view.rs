//! What the API shows of positions, moves and games, as JSON
//! (docs/API.md, "Game state").

use std::collections::BTreeMap;

use legion_rules::attacks::{bishop_rays, diagonal_ray, king_attacks, knight_attacks, rook_rays};
use legion_rules::castling::{self, CastlingSide};
use legion_rules::game::Outcome;
use legion_rules::notation::{canonical, human, legion_path};
use legion_rules::{Bitboard, Color, Move, MoveKind, Position, Role, Square};
use serde::Serialize;
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
/// A struct, not a `json!` map: the server writes one for every legal
/// move after every move, and building maps was most of its work in the
/// flood benchmark (docs/BENCHMARKS.md).
#[derive(Debug, Serialize)]
pub struct LegalMove {
    pub canonical: String,
    pub human: String,
    pub from: String,
    pub to: String,
    pub path: Vec<String>,
    pub captured: Vec<String>,
    pub kind: &'static str,
}

pub fn legal_move(pos: &Position, m: Move) -> LegalMove {
    LegalMove {
        canonical: canonical(pos, m),
        human: human(pos, m),
        from: m.from().to_string(),
        to: m.to().to_string(),
        path: squares(legion_path(pos, m)),
        captured: squares(m.captured()),
        kind: kind(m),
    }
}

/// A played move: as `legal_move`, with its number, the LFEN after it and
/// whether the side to move there is in check (the page marks the King of
/// any position in the game's history from it, not from notation).
#[derive(Debug, Serialize)]
pub struct PlayedMove {
    #[serde(flatten)]
    pub mv: LegalMove,
    pub ply: usize,
    pub lfen: String,
    pub check: bool,
}

pub fn played_move(before: &Position, m: Move, ply: usize, after: &Position) -> PlayedMove {
    PlayedMove {
        mv: legal_move(before, m),
        ply,
        lfen: after.to_lfen(),
        check: after.is_check(),
    }
}

pub fn legal_moves(pos: &Position, over: bool) -> Vec<LegalMove> {
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

/// Where each piece of the side not to move could go by its movement
/// pattern alone, as if the board were empty: the squares offered for a
/// premove (lichess does the same). A King adds its castling squares while
/// it has the right (2.2); a man steps forward and jumps two squares in
/// any diagonal (2.4, 4.3); a Tama flies along its diagonals. Whether the
/// premove is legal is known only when its turn comes.
pub fn premove_targets(pos: &Position) -> BTreeMap<String, Vec<String>> {
    let side = !pos.turn();
    let board = pos.board();
    let mut out = BTreeMap::new();
    for sq in board.occupied() {
        let Some(o) = board.occupant(sq) else {
            continue;
        };
        if o.piece.color != side {
            continue;
        }
        let diagonals = || (0..4).map(|d| diagonal_ray(d, sq));
        let targets: Bitboard = match o.piece.role {
            Role::King => {
                let mut t = king_attacks(sq);
                for way in CastlingSide::ALL {
                    let path = castling::path(side, way);
                    if pos.castling().has(side, way) && path.king_from == sq {
                        t |= Bitboard::from(path.king_to);
                    }
                }
                t
            }
            Role::Queen => rook_rays(sq) | bishop_rays(sq),
            Role::Rook => rook_rays(sq),
            Role::Bishop => bishop_rays(sq),
            Role::Knight => knight_attacks(sq),
            Role::Man => {
                let ahead = if side == Color::White { 1 } else { -1 };
                let steps = [(-1, ahead), (1, ahead), (-2, 2), (2, 2), (-2, -2), (2, -2)];
                steps
                    .iter()
                    .filter_map(|&(df, dr)| sq.offset(df, dr))
                    .collect()
            }
            Role::Tama => diagonals().fold(Bitboard::EMPTY, |a, b| a | b),
        };
        out.insert(sq.to_string(), squares(targets));
    }
    out
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
pub fn legal_move_with_lfen(pos: &Position, m: Move) -> WithLfen {
    WithLfen {
        mv: legal_move(pos, m),
        lfen: pos.after(m).to_lfen(),
    }
}

/// A legal move and the LFEN after it.
#[derive(Debug, Serialize)]
pub struct WithLfen {
    #[serde(flatten)]
    pub mv: LegalMove,
    pub lfen: String,
}

/// The state-like view of any position (`POST /api/position`).
pub fn position(pos: &Position, o: Option<Outcome>) -> Value {
    let legal: Vec<WithLfen> = if o.is_some() {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn premove_squares_follow_each_pieces_pattern_on_an_empty_board() {
        // White to move: the squares are Black's.
        let t = premove_targets(&Position::initial());
        assert!(!t.contains_key("c3"));
        let at = |sq: &str| t[sq].join(" ");
        assert_eq!(at("b8"), "a6 c6 d7");
        // A man steps forward (down for Black) and jumps two squares any way.
        assert_eq!(at("b6"), "d4 a5 c5 d8");
        // The King: its neighbours and both castling squares (2.2).
        assert_eq!(at("d8"), "c7 d7 e7 b8 c8 e8 f8");
        // A Rook's rays go through every piece.
        assert_eq!(t["a8"].len(), 14);
    }
}
