//! Moves for people (6.4): `Nf3`, `Qxd7`, `Rae1`, `O-O`, `c3-d4`,
//! `c3:e5:c7`, with `+` for check and `#` for mate.

use crate::castling::CastlingSide;
use crate::explain::{self, Illegal};
use crate::notation::canonical::{MoveParseError, legion_path, parse_squares};
use crate::{Move, MoveKind, Position, Role, Square};

/// The move as people write it (6.4), with `+` or `#`.
pub fn human(pos: &Position, m: Move) -> String {
    human_among(pos, m, &pos.legal_moves())
}

/// `human`, given the legal moves of `pos` (6.4's disambiguation looks at
/// them): who writes every legal move of a position finds them once, not
/// once per chess move.
pub fn human_among(pos: &Position, m: Move, legal: &[Move]) -> String {
    let mut s = human_without_suffix(pos, m, legal);
    s.push_str(suffix(pos, m));
    s
}

/// `#` if the move mates (the King removal of 5.1, or under
/// `mate-ends-game` a side left in check without a move), `+` for check.
fn suffix(pos: &Position, m: Move) -> &'static str {
    let them = !pos.turn;
    let had_king = pos.board.king(them).is_some();
    let after = pos.after(m);
    if had_king && after.board.king(them).is_none() {
        "#"
    } else if after.is_check() {
        if after.has_legal_move() { "+" } else { "#" }
    } else {
        ""
    }
}

fn human_without_suffix(pos: &Position, m: Move, legal: &[Move]) -> String {
    match m.kind() {
        MoveKind::Castle => match m.castling_side() {
            Some(CastlingSide::Long) => "O-O-O".to_string(),
            _ => "O-O".to_string(),
        },
        MoveKind::Step => format!("{}-{}", m.from(), m.to()),
        MoveKind::Jump => legion_path(pos, m)
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(":"),
        MoveKind::Chess => {
            // The move knows its piece (a construct's Captor): no look-up.
            let role = m.role();
            let mut s = String::new();
            s.push(role.upper_char());
            // 6.4: add file and/or rank when another piece of the same kind
            // (a Captor counts as its own kind) could go there too.
            let rivals: Vec<Square> = legal
                .iter()
                .filter(|o| {
                    o.kind() == MoveKind::Chess
                        && o.to() == m.to()
                        && o.from() != m.from()
                        && o.role() == role
                })
                .map(|o| o.from())
                .collect();
            if !rivals.is_empty() {
                let same_file = rivals.iter().any(|r| r.file() == m.from().file());
                let same_rank = rivals.iter().any(|r| r.rank() == m.from().rank());
                if !same_file {
                    s.push(m.from().file_char());
                } else if !same_rank {
                    s.push(m.from().rank_char());
                } else {
                    s.push(m.from().file_char());
                    s.push(m.from().rank_char());
                }
            }
            if m.is_capture() {
                s.push('x');
            }
            s.push_str(&m.to().to_string());
            s
        }
    }
}

/// Reads a move in either notation (6.3 or 6.4), as game records and
/// people do.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveParseError> {
    let t = text.trim().trim_end_matches(['+', '#', '!', '?']);
    let Some(first) = t.chars().next() else {
        return Err(MoveParseError::HumanSyntax(text.to_string()));
    };
    if matches!(t, "O-O" | "0-0" | "O-O-O" | "0-0-0") {
        let side = if t.len() == 3 {
            CastlingSide::Short
        } else {
            CastlingSide::Long
        };
        // Without the right there is no castling to explain by squares:
        // the King or Rook has moved, maybe off e1 or d8 (2.2).
        if !pos.castling.has(pos.turn, side) && pos.has_legal_move() {
            return Err(Illegal::CastlingRightLost {
                color: pos.turn,
                side,
            }
            .into());
        }
        let path = crate::castling::path(pos.turn, side);
        return Ok(explain::find_move(pos, &[path.king_from, path.king_to])?);
    }
    if let Some(role) =
        Role::from_char(first).filter(|r| r.is_chess() && first.is_ascii_uppercase())
    {
        return parse_piece_move(pos, role, &t[1..], text);
    }
    match parse_squares(t) {
        Some(squares) => Ok(explain::find_move(pos, &squares)?),
        None => Err(MoveParseError::HumanSyntax(text.to_string())),
    }
}

/// `Nf3`, `Nbd2`, `R1e2`, `Qh4xe1`: a role letter, optional origin file
/// and/or rank, optional `x`, destination.
fn parse_piece_move(
    pos: &Position,
    role: Role,
    rest: &str,
    text: &str,
) -> Result<Move, MoveParseError> {
    let syntax = || MoveParseError::HumanSyntax(text.to_string());
    let cleaned: String = rest
        .chars()
        .filter(|&c| c != 'x' && c != '-' && c != ':')
        .collect();
    if !cleaned.is_ascii() || cleaned.len() < 2 || cleaned.len() > 4 {
        return Err(syntax());
    }
    let (hint, dest) = cleaned.split_at(cleaned.len() - 2);
    let to: Square = dest.parse().map_err(|_| syntax())?;
    let mut file = None;
    let mut rank = None;
    for c in hint.chars() {
        match c {
            'a'..='h' if file.is_none() && rank.is_none() => file = Some(c as u8 - b'a'),
            '1'..='8' if rank.is_none() => rank = Some(c as u8 - b'1'),
            _ => return Err(syntax()),
        }
    }
    let ours = pos.board.pieces(pos.turn, role);
    let origins: Vec<Square> = ours
        .into_iter()
        .filter(|s| file.is_none_or(|f| s.file() == f) && rank.is_none_or(|r| s.rank() == r))
        .collect();
    let legal = pos.legal_moves();
    let matches: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| m.kind() == MoveKind::Chess && m.to() == to && origins.contains(&m.from()))
        .collect();
    match matches.as_slice() {
        [m] => Ok(*m),
        [] => {
            // The game over comes first, as for squares (5.2).
            if legal.is_empty() {
                return Err(Illegal::NoLegalMove { color: pos.turn }.into());
            }
            if origins.is_empty() {
                return Err(Illegal::NoPieceFits {
                    role,
                    text: text.trim().to_string(),
                }
                .into());
            }
            // The reason is that of a piece that reaches the square but may
            // not go there (4.2, 3.3 ...); only when none reaches it is the
            // reason how the pieces move (2.1). Clicking the same squares
            // gives the same reason.
            let reasons: Vec<Illegal> = origins
                .iter()
                .filter_map(|&from| explain::find_move(pos, &[from, to]).err())
                .collect();
            let reaches = reasons.iter().find(|e| !e.is_about_reach());
            Err(match (reaches, reasons.as_slice()) {
                (Some(e), _) => e.clone(),
                (None, [only]) => only.clone(),
                (None, _) => Illegal::NoneCanReach { role, to },
            }
            .into())
        }
        many => Err(MoveParseError::Ambiguous {
            text: text.trim().to_string(),
            options: many.iter().map(|m| human(pos, *m)).collect(),
        }),
    }
}
