//! LFEN, the position notation of RULES 6.2: placement, side to move,
//! castling rights, half-move clock, full-move number.

use std::fmt::{self, Write as _};
use std::str::FromStr;

use crate::builder::{MAX_COUNTER, PositionBuilder};
use crate::castling::{self, CastlingRights, CastlingSide};
use crate::{Board, Color, Piece, Position, Rules, Square};

/// The initial position (1.6) in LFEN.
pub const INITIAL_LFEN: &str =
    "rnbkqbnr/m1m1m1m1/1m1m1m1m/8/8/M1M1M1M1/1M1M1M1M/RNBQKBNR w KQkq 0 1";

/// Why a string is not a valid LFEN, or a [`PositionBuilder`] not a valid
/// position (6.2). Each message starts with the number of the rule it
/// breaks. The builder gives only the errors about what is placed and the
/// counters' values; the others are about how the text is written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LfenError {
    /// Not 3 to 5 fields separated by single spaces.
    #[error(
        "6.2: an LFEN has 5 fields separated by single spaces (the last two may be omitted), found {0}"
    )]
    FieldCount(usize),
    /// The placement does not have 8 ranks.
    #[error("6.2: the placement must have 8 ranks separated by '/', found {0}")]
    RankCount(usize),
    /// A rank does not describe 8 squares.
    #[error("6.2: rank {rank} describes {squares} squares, it must describe exactly 8")]
    RankLength {
        /// The rank, 1 to 8.
        rank: u8,
        /// How many squares it describes.
        squares: usize,
    },
    /// A letter that is no piece (nor a digit 1–8).
    #[error(
        "6.2: unknown letter '{letter}' on rank {rank} (pieces are K Q R B N M T, empty squares a digit 1-8)"
    )]
    UnknownLetter {
        /// The rank, 1 to 8.
        rank: u8,
        /// The letter.
        letter: char,
    },
    /// A construct not written `[` Captor prisoner `]`.
    #[error("6.2: a construct on rank {rank} must be written '[' Captor prisoner ']', e.g. [Qm]")]
    MalformedConstruct {
        /// The rank, 1 to 8.
        rank: u8,
    },
    /// 1.5: a construct whose Captor is not a chess piece.
    #[error("1.5: the construct on {square} has Captor '{letter}': a Captor must be a chess piece")]
    CaptorNotChess {
        /// The construct's square.
        square: Square,
        /// The Captor's LFEN letter.
        letter: char,
    },
    /// 1.5: a construct whose prisoner is not an enemy man or Tama.
    #[error(
        "1.5: the construct on {square} holds '{letter}': a prisoner must be an enemy man or Tama"
    )]
    BadPrisoner {
        /// The construct's square.
        square: Square,
        /// The prisoner's LFEN letter.
        letter: char,
    },
    /// 1.4: a free man or Tama on a light square.
    #[error(
        "1.4: a free {piece} stands on the light square {square}: Legion pieces stand only on dark squares"
    )]
    LegionOnLightSquare {
        /// The man or Tama.
        piece: Piece,
        /// Its light square.
        square: Square,
    },
    /// 2.5: a free man on its own far rank.
    #[error(
        "2.5: a free {color} man stands on {square}, its own far rank: it would have been crowned"
    )]
    ManOnFarRank {
        /// The man's side.
        color: Color,
        /// Its square.
        square: Square,
    },
    /// 1.3: a side with two Kings or more.
    #[error("1.3: {0} has more than one King")]
    TooManyKings(Color),
    /// The side to move is not `w` or `b`.
    #[error("6.2: the side to move must be 'w' or 'b', not '{0}'")]
    BadTurn(String),
    /// The castling field is not `-` or some of `KQkq` in order.
    #[error("6.2: castling rights are '-' or some of 'KQkq' in that order, not '{0}'")]
    BadCastling(String),
    /// 2.2: a castling right without its unmoved King and Rook at home.
    #[error(
        "2.2: castling right '{right}' needs {color}'s unmoved King on {king} and Rook on {rook}"
    )]
    CastlingWithoutPieces {
        /// The right's letter, `K`, `Q`, `k` or `q`.
        right: char,
        /// Whose right.
        color: Color,
        /// The King's home square.
        king: Square,
        /// The Rook's home square.
        rook: Square,
    },
    /// The half-move clock is not a number from 0 to [`MAX_COUNTER`].
    #[error("6.2: the half-move clock must be a whole number of at most nine digits, not '{0}'")]
    BadHalfmoveClock(String),
    /// The full-move number is not a number from 1 to [`MAX_COUNTER`].
    #[error(
        "6.2: the full-move number must be a whole number from 1, of at most nine digits, not '{0}'"
    )]
    BadFullmoveNumber(String),
    /// 3.3: the side not to move is in check while the side to move has
    /// its King.
    #[error(
        "3.3: {0} is in check but it is not its turn (only allowed when the side to move has lost its King, 5.1)"
    )]
    WaitingSideInCheck(Color),
}

impl LfenError {
    /// The number of the rule the text breaks, as its message cites it:
    /// 6.2 for the way it is written, else the rule of what it places.
    pub fn rule(&self) -> &'static str {
        use LfenError::*;
        match self {
            FieldCount(_)
            | RankCount(_)
            | RankLength { .. }
            | UnknownLetter { .. }
            | MalformedConstruct { .. }
            | BadTurn(_)
            | BadCastling(_)
            | BadHalfmoveClock(_)
            | BadFullmoveNumber(_) => "6.2",
            CaptorNotChess { .. } | BadPrisoner { .. } => "1.5",
            LegionOnLightSquare { .. } => "1.4",
            ManOnFarRank { .. } => "2.5",
            TooManyKings(_) => "1.3",
            CastlingWithoutPieces { .. } => "2.2",
            WaitingSideInCheck(_) => "3.3",
        }
    }
}

/// Reads the placement field into `b`: only how it is written (ranks,
/// letters, brackets) is checked here; what it places is checked by
/// [`PositionBuilder::build`].
fn parse_placement(field: &str, b: &mut PositionBuilder) -> Result<(), LfenError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return Err(LfenError::RankCount(ranks.len()));
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let rank_name = rank + 1;
        let mut file = 0usize;
        let mut chars = text.chars();
        let too_long = |file: usize| LfenError::RankLength {
            rank: rank_name,
            squares: file,
        };
        let letter = |c: char| {
            Piece::from_char(c).ok_or(LfenError::UnknownLetter {
                rank: rank_name,
                letter: c,
            })
        };
        while let Some(c) = chars.next() {
            if file >= 8 {
                // Count the rest for the message, without going further.
                let rest: usize = std::iter::once(c)
                    .chain(chars.by_ref())
                    .map(|c| c.to_digit(10).map_or(1, |d| d as usize))
                    .sum();
                return Err(too_long(file + rest));
            }
            let sq = Square::new(rank * 8 + file as u8);
            match c {
                '1'..='8' => file += c as usize - '0' as usize,
                '[' => {
                    let (Some(top), Some(bottom), Some(']')) =
                        (chars.next(), chars.next(), chars.next())
                    else {
                        return Err(LfenError::MalformedConstruct { rank: rank_name });
                    };
                    b.construct(sq, letter(top)?, letter(bottom)?);
                    file += 1;
                }
                _ => {
                    b.piece(sq, letter(c)?);
                    file += 1;
                }
            }
        }
        if file != 8 {
            return Err(too_long(file));
        }
    }
    Ok(())
}

fn parse_castling(field: &str) -> Result<CastlingRights, LfenError> {
    let mut rights = CastlingRights::NONE;
    if field == "-" {
        return Ok(rights);
    }
    let order = [
        (Color::White, CastlingSide::Short),
        (Color::White, CastlingSide::Long),
        (Color::Black, CastlingSide::Short),
        (Color::Black, CastlingSide::Long),
    ]
    .map(|(color, side)| (castling::right_char(color, side), color, side));
    let mut next = 0;
    for c in field.chars() {
        let Some(pos) = order[next..].iter().position(|(l, _, _)| *l == c) else {
            return Err(LfenError::BadCastling(field.to_string()));
        };
        let (_, color, side) = order[next + pos];
        rights.set(color, side);
        next += pos + 1;
    }
    if field.is_empty() {
        return Err(LfenError::BadCastling(field.to_string()));
    }
    Ok(rights)
}

impl Position {
    /// Reads an LFEN under the given rules. Under default rules a side to
    /// move that is mated loses its King at once, as 5.1 prescribes.
    /// `str::parse` reads under default rules.
    ///
    /// ```
    /// use legion_rules::{Color, LfenError, Position, Rules};
    ///
    /// let pos = Position::from_lfen("3k4/8/8/2[Qm]5/8/8/8/4K3 b - 3 20", Rules::DEFAULT).unwrap();
    /// assert_eq!(pos.turn(), Color::Black);
    /// assert!(pos.board().occupant("c5".parse().unwrap()).unwrap().is_construct());
    /// assert_eq!(pos.to_lfen(), "3k4/8/8/2[Qm]5/8/8/8/4K3 b - 3 20");
    ///
    /// // The error names the rule broken: a man on a light square (1.4).
    /// let err = "3k4/8/8/8/8/8/8/1M2K3 w - 0 1".parse::<Position>().unwrap_err();
    /// assert!(matches!(err, LfenError::LegionOnLightSquare { .. }));
    /// assert!(err.to_string().starts_with("1.4:"));
    /// ```
    pub fn from_lfen(lfen: &str, rules: Rules) -> Result<Position, LfenError> {
        let fields: Vec<&str> = lfen.trim().split(' ').collect();
        if !(3..=5).contains(&fields.len()) {
            return Err(LfenError::FieldCount(fields.len()));
        }
        let mut b = PositionBuilder::new();
        parse_placement(fields[0], &mut b)?;
        let turn = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(LfenError::BadTurn(other.to_string())),
        };
        let castling = parse_castling(fields[2])?;
        let halfmove = match fields.get(3) {
            None => 0,
            Some(s) => parse_number(s).ok_or_else(|| LfenError::BadHalfmoveClock(s.to_string()))?,
        };
        let fullmove = match fields.get(4) {
            None => 1,
            Some(s) => parse_number(s)
                .filter(|&n| n >= 1)
                .ok_or_else(|| LfenError::BadFullmoveNumber(s.to_string()))?,
        };
        // Everything else is checked where positions built from pieces are.
        b.turn(turn)
            .castling(castling)
            .halfmove_clock(halfmove)
            .fullmove_number(fullmove)
            .rules(rules)
            .build()
    }

    /// The LFEN of this position (6.2).
    pub fn to_lfen(&self) -> String {
        let mut s = String::with_capacity(80);
        write_placement(&self.board, &mut s);
        let _ = write!(
            s,
            " {} {} {} {}",
            self.turn.char(),
            self.castling,
            self.halfmove,
            self.fullmove
        );
        s
    }
}

/// Digits only: no sign, no spaces; at most 9 digits ([`MAX_COUNTER`]) so
/// play cannot overflow.
fn parse_number(s: &str) -> Option<u32> {
    if s.is_empty() || s.len() > 9 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok().filter(|&n| n <= MAX_COUNTER)
}

pub(crate) fn write_placement(board: &Board, s: &mut String) {
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            let sq = Square::new(rank * 8 + file);
            match board.occupant(sq) {
                None => empty += 1,
                Some(o) => {
                    if empty > 0 {
                        s.push((b'0' + empty) as char);
                        empty = 0;
                    }
                    match o.prisoner_piece() {
                        None => s.push(o.piece.char()),
                        Some(p) => {
                            s.push('[');
                            s.push(o.piece.char());
                            s.push(p.char());
                            s.push(']');
                        }
                    }
                }
            }
        }
        if empty > 0 {
            s.push((b'0' + empty) as char);
        }
        if rank > 0 {
            s.push('/');
        }
    }
}

impl FromStr for Position {
    type Err = LfenError;
    /// Reads an LFEN under default rules.
    fn from_str(s: &str) -> Result<Position, LfenError> {
        Position::from_lfen(s, Rules::DEFAULT)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_lfen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Role;

    fn err(s: &str) -> LfenError {
        Position::from_lfen(s, Rules::DEFAULT).unwrap_err()
    }

    #[test]
    fn initial_position_round_trips() {
        let p: Position = INITIAL_LFEN.parse().unwrap();
        assert_eq!(p, Position::initial());
        assert_eq!(p.to_lfen(), INITIAL_LFEN);
        assert_eq!(p.hash(), Position::initial().hash());
    }

    #[test]
    fn clocks_may_be_omitted() {
        let p = Position::from_lfen("4k3/8/8/8/8/8/8/4K3 w - ", Rules::DEFAULT);
        assert!(p.is_ok());
        let p: Position = "3k4/8/8/8/8/8/8/4K3 b -".parse().unwrap();
        assert_eq!(p.to_lfen(), "3k4/8/8/8/8/8/8/4K3 b - 0 1");
        let p: Position = "3k4/8/8/8/8/8/8/4K3 b - 7".parse().unwrap();
        assert_eq!(p.halfmove_clock(), 7);
    }

    #[test]
    fn constructs_are_read_and_written() {
        let s = "3k4/8/8/2[Qm]5/8/8/8/4K2[nT] w - 3 20";
        let p: Position = s.parse().unwrap();
        assert_eq!(p.to_lfen(), s);
        let c5: Square = "c5".parse().unwrap();
        let o = p.board().occupant(c5).unwrap();
        assert_eq!(o.piece, Piece::new(Color::White, Role::Queen));
        assert_eq!(
            o.prisoner_piece(),
            Some(Piece::new(Color::Black, Role::Man))
        );
    }

    #[test]
    fn every_invalid_input_of_6_2_names_its_rule() {
        // A rank without 8 squares.
        assert!(matches!(
            err("3k4/8/8/8/8/8/8/4K2 w - 0 1"),
            LfenError::RankLength {
                rank: 1,
                squares: 7
            }
        ));
        assert!(matches!(
            err("3k4/8/8/8/8/8/8/4K4 w - 0 1"),
            LfenError::RankLength {
                rank: 1,
                squares: 9
            }
        ));
        assert!(matches!(
            err("3k4/8/8/8/8/8/4K3 w - 0 1"),
            LfenError::RankCount(7)
        ));
        // An unknown letter.
        assert!(matches!(
            err("3k4/8/8/8/8/8/8/4K2P w - 0 1"),
            LfenError::UnknownLetter { letter: 'P', .. }
        ));
        assert!(matches!(
            err("3k4/8/8/8/8/8/8/4K2Z w - 0 1"),
            LfenError::UnknownLetter { letter: 'Z', .. }
        ));
        assert!(matches!(
            err("3k4/8/8/8/8/8/8/4K209 w - 0 1"),
            LfenError::UnknownLetter { letter: '0', .. }
        ));
        // A construct whose prisoner is not an enemy man or Tama, or whose
        // Captor is not a chess piece.
        assert!(matches!(
            err("3k4/8/8/2[QM]5/8/8/8/4K3 w - 0 1"),
            LfenError::BadPrisoner { .. }
        ));
        assert!(matches!(
            err("3k4/8/8/2[Qn]5/8/8/8/4K3 w - 0 1"),
            LfenError::BadPrisoner { .. }
        ));
        assert!(matches!(
            err("3k4/8/8/2[Mm]5/8/8/8/4K3 w - 0 1"),
            LfenError::CaptorNotChess { .. }
        ));
        assert!(matches!(
            err("3k4/8/8/2[Tn]5/8/8/8/4K3 w - 0 1"),
            LfenError::CaptorNotChess { .. }
        ));
        assert!(matches!(
            err("3k4/8/8/2[Qm5/8/8/8/4K3 w - 0 1"),
            LfenError::MalformedConstruct { .. }
        ));
        assert!(matches!(err("3k4/8/8/2[Q"), LfenError::FieldCount(1)));
        // A free Legion piece on a light square.
        assert!(matches!(
            err("3k4/8/8/8/8/8/8/1M2K3 w - 0 1"),
            LfenError::LegionOnLightSquare { .. }
        ));
        assert!(matches!(
            err("3k4/8/8/8/4t3/8/8/4K3 w - 0 1"),
            LfenError::LegionOnLightSquare { .. }
        ));
        // A free man on its own far rank; a prisoner may be carried there.
        assert!(matches!(
            err("3k3M/8/8/8/8/8/8/4K3 w - 0 1"),
            LfenError::ManOnFarRank {
                color: Color::White,
                ..
            }
        ));
        assert!(matches!(
            err("3k4/8/8/8/8/8/8/m3K3 w - 0 1"),
            LfenError::ManOnFarRank {
                color: Color::Black,
                ..
            }
        ));
        assert!(
            "3k2[Nm]1/8/8/8/8/8/8/4K3 w - 0 1"
                .parse::<Position>()
                .is_ok()
        );
        assert!(
            "1[rM]1k4/8/8/8/8/8/8/4K3 w - 0 1"
                .parse::<Position>()
                .is_ok()
        );
        // Two Kings of one side.
        assert!(matches!(
            err("3k4/8/8/8/8/8/8/K3K3 w - 0 1"),
            LfenError::TooManyKings(Color::White)
        ));
        // A castling right without unmoved King and Rook at home.
        assert!(matches!(
            err("3k4/8/8/8/8/8/8/4K3 w K 0 1"),
            LfenError::CastlingWithoutPieces { right: 'K', .. }
        ));
        assert!(matches!(
            err("r2k4/8/8/8/8/8/8/4K3 w q 0 1"),
            LfenError::CastlingWithoutPieces { right: 'q', .. }
        ));
        assert!(matches!(
            err("3k4/8/8/8/8/8/8/4K2[Rm] w K 0 1"),
            LfenError::CastlingWithoutPieces { .. }
        ));
        assert!(matches!(
            err("3k4/8/8/8/8/8/8/4K3 w X 0 1"),
            LfenError::BadCastling(_)
        ));
        assert!(matches!(
            err("3k4/8/8/8/8/8/8/4K3 w kK 0 1"),
            LfenError::BadCastling(_)
        ));
        assert!(matches!(
            err("3k4/8/8/8/8/8/8/4K3 w KK 0 1"),
            LfenError::BadCastling(_)
        ));
        // The side not to move in check while the side to move has a King.
        assert!(matches!(
            err("3k4/8/8/8/8/8/8/3RK3 w - 0 1"),
            LfenError::WaitingSideInCheck(Color::Black)
        ));
        // ...which is fine when the side to move has no King (5.1).
        assert!("3k4/8/8/8/8/8/8/3R4 w - 0 1".parse::<Position>().is_ok());
        // Other fields.
        assert!(matches!(
            err("3k4/8/8/8/8/8/8/4K3 x - 0 1"),
            LfenError::BadTurn(_)
        ));
        assert!(matches!(
            err("3k4/8/8/8/8/8/8/4K3 w - -1 1"),
            LfenError::BadHalfmoveClock(_)
        ));
        assert!(matches!(
            err("3k4/8/8/8/8/8/8/4K3 w - 0 0"),
            LfenError::BadFullmoveNumber(_)
        ));
        assert!(matches!(
            err("3k4/8/8/8/8/8/8/4K3  w - 0 1"),
            LfenError::FieldCount(6)
        ));
        assert!(matches!(err(""), LfenError::FieldCount(1)));
        // Messages start with the rule number.
        assert!(
            err("3k4/8/8/8/8/8/8/1M2K3 w - 0 1")
                .to_string()
                .starts_with("1.4:")
        );
    }

    #[test]
    fn a_mated_side_to_move_loses_its_king_under_default_rules() {
        // Black King d8 mated by Rooks on rank 8 and 7: removed (5.1).
        let s = "3k3R/7R/8/8/8/8/8/4K3 b - 5 40";
        let p = Position::from_lfen(s, Rules::DEFAULT).unwrap();
        assert_eq!(p.board().king(Color::Black), None);
        assert_eq!(p.halfmove_clock(), 0);
        let p = Position::from_lfen(s, Rules::MATE_ENDS_GAME).unwrap();
        assert_eq!(p.board().king(Color::Black), Some("d8".parse().unwrap()));
        assert!(p.is_mate());
    }
}
