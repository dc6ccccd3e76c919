//! What the API shows of positions, moves and games, as JSON
//! (docs/API.md, "Game state").

use std::cmp::Ordering;
use std::collections::BTreeMap;

use legion_rules::attacks::{bishop_rays, diagonal_ray, king_attacks, knight_attacks, rook_rays};
use legion_rules::castling::{self, CastlingSide};
use legion_rules::game::Outcome;
use legion_rules::notation::{canonical_path, human_among, legion_path};
use legion_rules::{Bitboard, Color, Move, MoveKind, Piece, Position, Role, Square};
use serde::{Serialize, Serializer};
use serde_json::{Value, json};

/// A square as the API writes it, `e4`. Written from two bytes on the
/// stack, not a `String`: the server writes some hundred squares for
/// every move it publishes (docs/BENCHMARKS.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sq(pub Square);

impl Sq {
    fn bytes(self) -> [u8; 2] {
        [self.0.file_char() as u8, self.0.rank_char() as u8]
    }
}

/// As the names sort (`a1`, `a2`, … `b1`): the order of a JSON object's
/// keys stays what it was when they were strings.
impl Ord for Sq {
    fn cmp(&self, other: &Self) -> Ordering {
        self.bytes().cmp(&other.bytes())
    }
}

impl PartialOrd for Sq {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Serialize for Sq {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match std::str::from_utf8(&self.bytes()) {
            Ok(name) => s.serialize_str(name),
            // Files and ranks are ASCII; this is the same text, slower.
            Err(_) => s.collect_str(&self.0),
        }
    }
}

/// A piece as the API names it: colour and letter, `wQ`, `bM`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceCode(pub Piece);

impl Serialize for PieceCode {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (color, letter) = (self.0.color.char(), self.0.role.upper_char());
        match std::str::from_utf8(&[color as u8, letter as u8]) {
            Ok(code) if color.is_ascii() && letter.is_ascii() => s.serialize_str(code),
            _ => s.collect_str(&format_args!("{color}{letter}")),
        }
    }
}

/// What stands on a square: a piece, and the prisoner it holds.
#[derive(Debug, Serialize)]
pub struct Cell {
    pub piece: PieceCode,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prisoner: Option<PieceCode>,
}

/// The board as the API shows it: occupied squares by name, in the
/// names' order (a JSON object).
#[derive(Debug)]
pub struct BoardView(Vec<(Sq, Cell)>);

impl Serialize for BoardView {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(sq, cell)| (sq, cell)))
    }
}

pub fn board(pos: &Position) -> BoardView {
    let mut cells: Vec<(Sq, Cell)> = pos
        .board()
        .occupied()
        .into_iter()
        .filter_map(|sq| {
            let o = pos.board().occupant(sq)?;
            Some((
                Sq(sq),
                Cell {
                    piece: PieceCode(o.piece),
                    prisoner: o.prisoner_piece().map(PieceCode),
                },
            ))
        })
        .collect();
    cells.sort_by_key(|(sq, _)| *sq);
    BoardView(cells)
}

fn kind(m: Move) -> &'static str {
    match m.kind() {
        MoveKind::Chess => "chess",
        MoveKind::Castle => "castle",
        MoveKind::Step => "step",
        MoveKind::Jump => "jump",
    }
}

fn squares(list: impl IntoIterator<Item = Square>) -> Vec<Sq> {
    list.into_iter().map(Sq).collect()
}

/// A legal move of `pos` with everything a client needs to draw it.
/// A struct, not a `json!` map: the server writes one for every legal
/// move after every move, and building maps was most of its work in the
/// flood benchmark (docs/BENCHMARKS.md).
#[derive(Debug, Serialize)]
pub struct LegalMove {
    pub canonical: String,
    pub human: String,
    pub from: Sq,
    pub to: Sq,
    pub path: Vec<Sq>,
    pub captured: Vec<Sq>,
    pub kind: &'static str,
}

pub fn legal_move(pos: &Position, m: Move) -> LegalMove {
    legal_move_among(pos, m, &pos.legal_moves())
}

/// `legal_move`, given the legal moves of `pos` (the notation's
/// disambiguation reads them, 6.4).
fn legal_move_among(pos: &Position, m: Move, legal: &[Move]) -> LegalMove {
    let path = legion_path(pos, m);
    LegalMove {
        canonical: canonical_path(&path),
        human: human_among(pos, m, legal),
        from: Sq(m.from()),
        to: Sq(m.to()),
        path: squares(path),
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
    let legal = pos.legal_moves();
    legal
        .iter()
        .map(|&m| legal_move_among(pos, m, &legal))
        .collect()
}

/// Pieces that must capture when a Legion capture is compulsory (4.2).
pub fn must_capture(pos: &Position) -> Vec<Sq> {
    squares(pos.compulsory_capturers())
}

/// Where each piece of the side not to move could go by its movement
/// pattern alone, as if the board were empty: the squares offered for a
/// premove (lichess does the same). A King adds its castling squares while
/// it has the right (2.2); a man steps forward and jumps two squares in
/// any diagonal (2.4, 4.3); a Tama flies along its diagonals. Whether the
/// premove is legal is known only when its turn comes.
pub fn premove_targets(pos: &Position) -> BTreeMap<Sq, Vec<Sq>> {
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
        out.insert(Sq(sq), squares(targets));
    }
    out
}

/// Which Kings are on the board (5.1 can take one off).
#[derive(Debug, Serialize)]
pub struct Kings {
    w: bool,
    b: bool,
}

pub fn kings(pos: &Position) -> Kings {
    Kings {
        w: pos.board().king(Color::White).is_some(),
        b: pos.board().king(Color::Black).is_some(),
    }
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
    with_lfen_among(pos, m, &pos.legal_moves())
}

/// `legal_move_with_lfen`, given the legal moves of `pos`.
fn with_lfen_among(pos: &Position, m: Move, legal: &[Move]) -> WithLfen {
    WithLfen {
        mv: legal_move_among(pos, m, legal),
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
        let all = pos.legal_moves();
        all.iter().map(|&m| with_lfen_among(pos, m, &all)).collect()
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
    fn the_board_is_written_by_square_names_in_their_order() {
        // 6.2: a White Queen on a1 holding a Black man, Rooks on a7 and
        // h1, the Kings on e1 and e8. Keys sort as names (a7 before e1),
        // as they did when they were strings.
        let pos = Position::from_lfen(
            "4k3/R7/8/8/8/8/8/[Qm]3K2R w - 0 1",
            legion_rules::Rules::DEFAULT,
        )
        .unwrap();
        assert_eq!(
            serde_json::to_string(&board(&pos)).unwrap(),
            r#"{"a1":{"piece":"wQ","prisoner":"bM"},"a7":{"piece":"wR"},"e1":{"piece":"wK"},"e8":{"piece":"bK"},"h1":{"piece":"wR"}}"#
        );
        assert_eq!(
            serde_json::to_string(&kings(&pos)).unwrap(),
            r#"{"w":true,"b":true}"#
        );
    }

    #[test]
    fn premove_squares_follow_each_pieces_pattern_on_an_empty_board() {
        // White to move: the squares are Black's.
        let t = premove_targets(&Position::initial());
        assert!(!t.contains_key(&Sq("c3".parse().unwrap())));
        let at = |sq: &str| {
            let sq = Sq(sq.parse().unwrap());
            serde_json::to_value(&t[&sq])
                .unwrap()
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap().to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        assert_eq!(at("b8"), "a6 c6 d7");
        // A man steps forward (down for Black) and jumps two squares any way.
        assert_eq!(at("b6"), "d4 a5 c5 d8");
        // The King: its neighbours and both castling squares (2.2).
        assert_eq!(at("d8"), "c7 d7 e7 b8 c8 e8 f8");
        // A Rook's rays go through every piece.
        assert_eq!(t[&Sq("a8".parse().unwrap())].len(), 14);
    }
}
