//! Canonical moves (6.3): the squares a piece visits, written together:
//! `g1f3`, `e1g1` (castling), `c3d4`, `c3e5c7` (a capture series). On input
//! `-`, `x` and `:` may stand between squares, and any valid path of a
//! series is accepted (4.5).

use crate::capture;
use crate::{Move, MoveKind, Position, Square};

/// Why a move text does not name a legal move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveParseError {
    /// 6.3: the text is not a list of squares.
    #[error("6.3: '{0}' is not a move: write the squares the piece visits, like g1f3 or c3e5c7")]
    Syntax(String),
    /// 6.4: the text is no move written for people either.
    #[error("6.4: '{0}' is not a move: write e.g. Nf3, Qxd7, O-O, c3-d4 or c3:e5:c7")]
    HumanSyntax(String),
    /// The move is written well but breaks a rule: which, and why.
    #[error("{0}")]
    Illegal(#[from] crate::explain::Illegal),
    /// 6.4: the text fits several legal moves (add the file or rank).
    #[error("6.4: '{text}' is ambiguous: it could be {}", .options.join(" or "))]
    Ambiguous {
        /// The text as written.
        text: String,
        /// The moves it could be, for people (6.4), in the order found.
        options: Vec<String>,
    },
}

impl MoveParseError {
    /// The number of the rule the text breaks: 6.3 or 6.4 for the way it
    /// is written, else the rule the move breaks.
    pub fn rule(&self) -> &'static str {
        match self {
            MoveParseError::Syntax(_) => "6.3",
            MoveParseError::HumanSyntax(_) | MoveParseError::Ambiguous { .. } => "6.4",
            MoveParseError::Illegal(e) => e.rule(),
        }
    }
}

/// The path of a capture series written by a program: the lexicographically
/// smallest of its valid paths (4.5, 6.3); for any other move its two
/// squares. `m` must be a move of `pos`: a series that cannot be played
/// there has no path, and is given by its two ends.
pub fn legion_path(pos: &Position, m: Move) -> Vec<Square> {
    if m.kind() != MoveKind::Jump {
        return vec![m.from(), m.to()];
    }
    let mut paths = capture::paths(&pos.board, pos.turn, m);
    paths.sort_by_cached_key(|p| p.iter().map(|s| s.to_string()).collect::<String>());
    paths
        .into_iter()
        .next()
        .unwrap_or_else(|| vec![m.from(), m.to()])
}

/// The canonical form of a legal move (6.3).
pub fn canonical(pos: &Position, m: Move) -> String {
    canonical_path(&legion_path(pos, m))
}

/// The canonical form (6.3) of a move's path, as `legion_path` gives it:
/// its squares one after the other.
pub fn canonical_path(path: &[Square]) -> String {
    let mut text = String::with_capacity(2 * path.len());
    for sq in path {
        text.push(sq.file_char());
        text.push(sq.rank_char());
    }
    text
}

/// Splits `c3:e5-c7`, `c3xe5`, `c3e5c7` into squares; `None` if it is not
/// a list of at least two squares.
pub fn parse_squares(text: &str) -> Option<Vec<Square>> {
    let bytes: Vec<u8> = text
        .trim()
        .bytes()
        .filter(|b| !matches!(b, b'-' | b'x' | b':'))
        .collect();
    if bytes.len() < 4 || !bytes.len().is_multiple_of(2) || text.trim().starts_with(['-', 'x', ':'])
    {
        return None;
    }
    bytes.chunks(2).map(Square::from_ascii).collect()
}

/// Reads a canonical move and finds the legal move it names.
pub fn parse_canonical(pos: &Position, text: &str) -> Result<Move, MoveParseError> {
    let squares = parse_squares(text).ok_or_else(|| MoveParseError::Syntax(text.to_string()))?;
    Ok(crate::explain::find_move(pos, &squares)?)
}
