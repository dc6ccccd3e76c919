//! Building a position from its pieces: placement, constructs, side to
//! move, castling rights and counters, checked exactly as an LFEN is
//! (6.2). The LFEN reader itself only reads text into a
//! [`PositionBuilder`] and calls [`PositionBuilder::build`], so the two
//! cannot disagree about what a valid position is.

use crate::castling::{self, CastlingRights, CastlingSide};
use crate::lfen::LfenError;
use crate::{Board, Color, Occupant, Piece, Position, Role, Rules, Square};

/// The largest half-move clock and full-move number a position may carry:
/// nine digits in LFEN (6.2), so that play never overflows them.
pub const MAX_COUNTER: u32 = 999_999_999;

/// What one square is given before validation: a piece, and for a
/// construct the piece it holds, with its own colour so that 1.5 can be
/// checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Placement {
    piece: Piece,
    held: Option<Piece>,
}

/// A position under construction: an empty board with White to move, no
/// castling rights, half-move clock 0, full-move number 1 and default
/// rules, until told otherwise. [`build`](PositionBuilder::build) checks
/// it as an LFEN is checked and gives the same [`LfenError`], with the
/// rule broken.
///
/// ```
/// use legion_rules::castling::CastlingRights;
/// use legion_rules::{Color, Piece, Position, PositionBuilder, Role, Square};
///
/// let sq = |s: &str| s.parse::<Square>().unwrap();
/// let pos = PositionBuilder::new()
///     .piece(sq("e1"), Piece::new(Color::White, Role::King))
///     .piece(sq("d8"), Piece::new(Color::Black, Role::King))
///     // A White Queen holding a Black man (1.5).
///     .construct(
///         sq("c5"),
///         Piece::new(Color::White, Role::Queen),
///         Piece::new(Color::Black, Role::Man),
///     )
///     .turn(Color::Black)
///     .fullmove_number(20)
///     .build()
///     .unwrap();
/// assert_eq!(pos, "3k4/8/8/2[Qm]5/8/8/8/4K3 b - 0 20".parse::<Position>().unwrap());
///
/// // Invalid set-ups are refused with the rule they break, as in LFEN.
/// let err = PositionBuilder::new()
///     .piece(sq("b1"), Piece::new(Color::White, Role::Man))
///     .build()
///     .unwrap_err();
/// assert!(err.to_string().starts_with("1.4:"));
/// let err = PositionBuilder::new()
///     .piece(sq("e1"), Piece::new(Color::White, Role::King))
///     .castling(CastlingRights::ALL)
///     .build()
///     .unwrap_err();
/// assert!(err.to_string().starts_with("2.2:"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PositionBuilder {
    squares: [Option<Placement>; 64],
    turn: Color,
    castling: CastlingRights,
    halfmove: u32,
    fullmove: u32,
    rules: Rules,
}

impl Default for PositionBuilder {
    fn default() -> PositionBuilder {
        PositionBuilder::new()
    }
}

impl From<&Position> for PositionBuilder {
    fn from(pos: &Position) -> PositionBuilder {
        PositionBuilder::from_position(pos)
    }
}

impl PositionBuilder {
    /// An empty board, White to move, no castling rights, clocks 0 and 1,
    /// default rules.
    pub fn new() -> PositionBuilder {
        PositionBuilder {
            squares: [None; 64],
            turn: Color::White,
            castling: CastlingRights::NONE,
            halfmove: 0,
            fullmove: 1,
            rules: Rules::DEFAULT,
        }
    }

    /// Everything `pos` holds, to change and build again.
    pub fn from_position(pos: &Position) -> PositionBuilder {
        let mut b = PositionBuilder::new();
        for sq in pos.board().occupied() {
            if let Some(o) = pos.board().occupant(sq) {
                b.occupant(sq, o);
            }
        }
        b.turn(pos.turn())
            .castling(pos.castling())
            .halfmove_clock(pos.halfmove_clock())
            .fullmove_number(pos.fullmove_number())
            .rules(pos.rules());
        b
    }

    /// Puts `piece` alone on `sq`, replacing whatever was there (a square
    /// holds one piece or one construct, 1.5).
    pub fn piece(&mut self, sq: Square, piece: Piece) -> &mut PositionBuilder {
        self.squares[sq.index()] = Some(Placement { piece, held: None });
        self
    }

    /// Puts a construct on `sq` (1.5): `captor`, a chess piece, holding
    /// `prisoner`, an enemy man or Tama. Replaces whatever was there.
    pub fn construct(
        &mut self,
        sq: Square,
        captor: Piece,
        prisoner: Piece,
    ) -> &mut PositionBuilder {
        self.squares[sq.index()] = Some(Placement {
            piece: captor,
            held: Some(prisoner),
        });
        self
    }

    /// Puts an [`Occupant`] (a piece or a construct) on `sq`.
    pub fn occupant(&mut self, sq: Square, occupant: Occupant) -> &mut PositionBuilder {
        self.squares[sq.index()] = Some(Placement {
            piece: occupant.piece,
            held: occupant.prisoner_piece(),
        });
        self
    }

    /// Empties `sq`.
    pub fn clear(&mut self, sq: Square) -> &mut PositionBuilder {
        self.squares[sq.index()] = None;
        self
    }

    /// The side to move (6.2 field 2).
    pub fn turn(&mut self, color: Color) -> &mut PositionBuilder {
        self.turn = color;
        self
    }

    /// The castling rights (6.2 field 3); each needs its unmoved King and
    /// Rook at home (2.2).
    pub fn castling(&mut self, rights: CastlingRights) -> &mut PositionBuilder {
        self.castling = rights;
        self
    }

    /// Plies since the last capture, man move, crowning or King removal
    /// (5.3; 6.2 field 4), at most [`MAX_COUNTER`].
    pub fn halfmove_clock(&mut self, plies: u32) -> &mut PositionBuilder {
        self.halfmove = plies;
        self
    }

    /// The full-move number (6.2 field 5): from 1 to [`MAX_COUNTER`].
    pub fn fullmove_number(&mut self, number: u32) -> &mut PositionBuilder {
        self.fullmove = number;
        self
    }

    /// The rule option in force (5.4).
    pub fn rules(&mut self, rules: Rules) -> &mut PositionBuilder {
        self.rules = rules;
        self
    }

    /// The position, if it is valid by 6.2: the checks of the LFEN reader,
    /// which uses this very function. Under default rules a side to move
    /// that is mated loses its King at once (5.1).
    pub fn build(&self) -> Result<Position, LfenError> {
        let board = self.board()?;
        if self.halfmove > MAX_COUNTER {
            return Err(LfenError::BadHalfmoveClock(self.halfmove.to_string()));
        }
        if !(1..=MAX_COUNTER).contains(&self.fullmove) {
            return Err(LfenError::BadFullmoveNumber(self.fullmove.to_string()));
        }
        validate(&board, self.turn, self.castling)?;
        let mut pos = Position::from_parts(
            board,
            self.turn,
            self.castling,
            self.rules,
            self.halfmove,
            self.fullmove,
        );
        if !self.rules.mate_ends_game {
            pos.remove_mated_king();
        }
        Ok(pos)
    }

    /// The placement, with every construct checked (1.5).
    fn board(&self) -> Result<Board, LfenError> {
        let mut board = Board::empty();
        for sq in Square::all() {
            let Some(Placement { piece, held }) = self.squares[sq.index()] else {
                continue;
            };
            let prisoner = match held {
                None => None,
                Some(_) if !piece.role.is_chess() => {
                    return Err(LfenError::CaptorNotChess {
                        square: sq,
                        letter: piece.char(),
                    });
                }
                Some(p) if !p.role.is_legion() || p.color == piece.color => {
                    return Err(LfenError::BadPrisoner {
                        square: sq,
                        letter: p.char(),
                    });
                }
                Some(p) => Some(p.role),
            };
            board.put(sq, Occupant { piece, prisoner });
        }
        Ok(board)
    }
}

/// The checks of 6.2 on a placement that is well formed: free Legion
/// pieces on dark squares (1.4) and men off their far rank (2.5), one
/// King a side (1.3), castling rights with their pieces (2.2), and the
/// side not to move out of check while the side to move has a King (3.3).
fn validate(board: &Board, turn: Color, castling: CastlingRights) -> Result<(), LfenError> {
    for sq in board.occupied() {
        let Some(o) = board.occupant(sq) else {
            continue;
        };
        let p = o.piece;
        if p.role.is_legion() {
            if !sq.is_dark() {
                return Err(LfenError::LegionOnLightSquare {
                    piece: p,
                    square: sq,
                });
            }
            if p.role == Role::Man && sq.relative_rank(p.color) == 7 {
                return Err(LfenError::ManOnFarRank {
                    color: p.color,
                    square: sq,
                });
            }
        }
    }
    for color in Color::ALL {
        if board.pieces(color, Role::King).more_than_one() {
            return Err(LfenError::TooManyKings(color));
        }
    }
    for color in Color::ALL {
        for side in CastlingSide::ALL {
            if !castling.has(color, side) {
                continue;
            }
            let path = castling::path(color, side);
            let unmoved = |sq: Square, role: Role| {
                board.piece_at(sq) == Some(Piece::new(color, role))
                    && board.prisoner_at(sq).is_none()
            };
            if !unmoved(path.king_from, Role::King) || !unmoved(path.rook_from, Role::Rook) {
                return Err(LfenError::CastlingWithoutPieces {
                    right: castling::right_char(color, side),
                    color,
                    king: path.king_from,
                    rook: path.rook_from,
                });
            }
        }
    }
    if board.king(turn).is_some()
        && let Some(k) = board.king(!turn)
        && board.attackers(k, turn, board.occupied()).any()
    {
        return Err(LfenError::WaitingSideInCheck(!turn));
    }
    Ok(())
}
