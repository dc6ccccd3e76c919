//! Why a move is illegal: given a position and an attempted move (the
//! squares a piece should visit), either the legal move it names or a
//! reason that cites the rule and names the pieces and squares.

use std::fmt;

use crate::attacks::{
    between, bishop_attacks, diagonal_ray, king_attacks, knight_attacks, queen_attacks,
    rook_attacks,
};
use crate::capture;
use crate::castling::{self, CastlingSide};
use crate::notation;
use crate::{Bitboard, Color, Move, MoveKind, Occupant, Piece, Position, Role, Square};

/// A piece as people name it, with its square: "the White Knight on g1".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placed {
    /// The piece, or construct, standing there.
    pub occupant: Occupant,
    /// Its square.
    pub square: Square,
}

impl fmt::Display for Placed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = self.occupant.piece;
        match self.occupant.prisoner {
            None => write!(f, "the {} on {}", p.role.name(), self.square),
            Some(r) => write!(
                f,
                "the {} (holding a {}) on {}",
                p.role.name(),
                r.name(),
                self.square
            ),
        }
    }
}

fn list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {}", init.join(", "), last),
    }
}

fn placed_list(items: &[Placed]) -> String {
    let names: Vec<String> = items.iter().map(|p| p.to_string()).collect();
    match names.as_slice() {
        [init @ .., last] if !init.is_empty() => format!("{} and {}", init.join(", "), last),
        _ => names.join(""),
    }
}

/// Why an attempted move is not legal. [`rule`](Illegal::rule) is the
/// RULES.md number; `Display` writes "rule: explanation". The fields name
/// the pieces and squares involved, for a caller that words the reason
/// itself (the server translates them).
///
/// ```
/// use legion_rules::explain::{Illegal, find_move};
/// use legion_rules::{Position, Square};
///
/// let pos = Position::initial();
/// let sq = |s: &str| s.parse::<Square>().unwrap();
/// let err = find_move(&pos, &[sq("a1"), sq("a4")]).unwrap_err();
/// assert!(matches!(err, Illegal::PathBlocked { .. }));
/// assert_eq!(err.rule(), "2.1");
/// assert_eq!(err.to_string(), "2.1: the Rook on a1 cannot reach a4: a3 is in the way");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Illegal {
    /// 6.3: a move names the squares its piece visits, at least two.
    TooFewSquares,
    /// 5.2: the game is over, the side to move has no legal move.
    NoLegalMove {
        /// The side to move.
        color: Color,
    },
    /// 1.2: there is no piece on the first square.
    EmptySquare {
        /// The empty square.
        square: Square,
    },
    /// 1.2: the piece there is the other side's.
    NotYourPiece {
        /// The opponent's piece.
        piece: Placed,
        /// The side to move.
        turn: Color,
    },
    /// 6.3: a chess piece visits exactly two squares.
    ChessPieceMultiStep {
        /// The chess piece or construct.
        piece: Placed,
    },
    /// 2.1: the chess piece does not move that way.
    CannotReach {
        /// The chess piece or construct.
        piece: Placed,
        /// Where it was to go.
        to: Square,
    },
    /// 2.1: a piece stands in the way of a sliding piece.
    PathBlocked {
        /// The Queen, Rook or Bishop (or construct).
        piece: Placed,
        /// Where it was to go.
        to: Square,
        /// The nearest square in the way.
        blocker: Square,
    },
    /// 2.1: the target holds one of the mover's own pieces.
    OwnPieceOnTarget {
        /// The chess piece or construct.
        piece: Placed,
        /// The own piece on the target square.
        target: Placed,
    },
    /// 3.1: the target is the enemy King, which is never captured.
    KingCannotBeCaptured {
        /// The King (or a construct whose Captor is the King).
        target: Placed,
    },
    /// 2.2: the King or that Rook has moved.
    CastlingRightLost {
        /// The side to move.
        color: Color,
        /// The castling attempted.
        side: CastlingSide,
    },
    /// 2.2: a square between King and Rook is occupied.
    CastlingBlocked {
        /// The first occupied square.
        square: Square,
    },
    /// 2.2: the King may not castle out of check.
    CastlingOutOfCheck,
    /// 2.2: the King would pass over or land on an attacked square.
    CastlingThroughAttack {
        /// The attacked square.
        square: Square,
    },
    /// 2.4: Legion pieces move diagonally, on dark squares.
    LegionOffDiagonal {
        /// The man or Tama.
        piece: Placed,
        /// Where it was to go.
        to: Square,
    },
    /// 2.4: a man steps only forward.
    ManBackward {
        /// The man.
        piece: Placed,
        /// The square behind it.
        to: Square,
    },
    /// 2.4: a man steps one square; further only by jumping (4.3).
    ManTooFar {
        /// The man.
        piece: Placed,
        /// Where it was to go.
        to: Square,
    },
    /// 2.4: a Tama slides only through empty squares; through its own
    /// piece or several pieces it is blocked, not jumping.
    TamaBlocked {
        /// The Tama.
        piece: Placed,
        /// Where it was to go.
        to: Square,
        /// The nearest square in the way.
        blocker: Square,
    },
    /// 2.4: a Legion piece moves only to an empty square; with nothing to
    /// jump between, an occupied target is no move (it captures by jumping,
    /// 4.3).
    LegionTargetOccupied {
        /// The man or Tama.
        piece: Placed,
        /// The occupied square.
        to: Square,
    },
    /// 4.3: a jump goes over exactly one enemy piece, and there is none.
    NothingToJump {
        /// Where the jump starts.
        from: Square,
        /// Where it lands.
        to: Square,
    },
    /// 4.3: own pieces are never jumped.
    JumpOwnPiece {
        /// Where the jump starts.
        from: Square,
        /// Where it lands.
        to: Square,
        /// The own piece in between.
        own: Square,
    },
    /// 3.1 (4.3): the King is never jumped.
    JumpKing {
        /// Where the jump starts.
        from: Square,
        /// Where it lands.
        to: Square,
        /// The King's square.
        king: Square,
    },
    /// 4.3: a piece is jumped only once in a series.
    JumpedTwice {
        /// The piece jumped again.
        square: Square,
    },
    /// 4.3: a jump crosses more than one piece.
    JumpTooMany {
        /// Where the jump starts.
        from: Square,
        /// Where it lands.
        to: Square,
    },
    /// 4.3: a man jumps an adjacent piece to the square just beyond it.
    ManJumpLength {
        /// Where the jump starts.
        from: Square,
        /// Where it lands.
        to: Square,
    },
    /// 4.3: a jump lands on an empty square.
    LandingOccupied {
        /// The occupied landing square.
        square: Square,
    },
    /// 4.3: a series goes on while the piece can jump again.
    SeriesMustContinue {
        /// Where the series was stopped.
        at: Square,
        /// How it can go on, each as `e5:g3` (6.4), sorted.
        next: Vec<String>,
    },
    /// 4.3: a Tama lands where it can jump again, if such a landing exists.
    TamaMustLandToContinue {
        /// The landing chosen.
        at: Square,
        /// The landings from which it could go on.
        options: Vec<Square>,
    },
    /// 4.2: a Legion capture is compulsory.
    CaptureObligation {
        /// The legal captures, each as `c3:e5` (6.4), sorted.
        captures: Vec<String>,
    },
    /// 4.2 (4.2.1): in check, the move must end it.
    StillInCheck {
        /// The King in check.
        king: Square,
        /// The pieces giving check.
        attackers: Vec<Placed>,
    },
    /// 3.3: the move would leave the King in check.
    ExposesKing {
        /// Where the King would stand.
        king: Square,
        /// The pieces that would give check.
        attackers: Vec<Placed>,
    },
    /// 4.5: start and end squares fit several series; give the whole path.
    AmbiguousSeries {
        /// Each series, as `c3:e5:c7` (6.4), sorted.
        options: Vec<String>,
    },
    /// 1.3: a move written for people names a piece the side does not have.
    NoPieceFits {
        /// The kind of piece named.
        role: Role,
        /// The text as written.
        text: String,
    },
    /// 2.1: none of the side's pieces of that kind moves to the square.
    NoneCanReach {
        /// The kind of piece named.
        role: Role,
        /// The square named.
        to: Square,
    },
}

impl Illegal {
    /// The number of the rule the move breaks.
    pub fn rule(&self) -> &'static str {
        use Illegal::*;
        match self {
            TooFewSquares => "6.3",
            NoLegalMove { .. } => "5.2",
            EmptySquare { .. } | NotYourPiece { .. } => "1.2",
            ChessPieceMultiStep { .. } => "6.3",
            CannotReach { .. } | PathBlocked { .. } | OwnPieceOnTarget { .. } => "2.1",
            KingCannotBeCaptured { .. } => "3.1",
            CastlingRightLost { .. }
            | CastlingBlocked { .. }
            | CastlingOutOfCheck
            | CastlingThroughAttack { .. } => "2.2",
            LegionOffDiagonal { .. }
            | ManBackward { .. }
            | ManTooFar { .. }
            | TamaBlocked { .. }
            | LegionTargetOccupied { .. } => "2.4",
            JumpKing { .. } => "3.1",
            NothingToJump { .. }
            | JumpOwnPiece { .. }
            | JumpedTwice { .. }
            | JumpTooMany { .. }
            | ManJumpLength { .. }
            | LandingOccupied { .. }
            | SeriesMustContinue { .. }
            | TamaMustLandToContinue { .. } => "4.3",
            CaptureObligation { .. } => "4.2",
            StillInCheck { .. } => "4.2",
            ExposesKing { .. } => "3.3",
            AmbiguousSeries { .. } => "4.5",
            NoPieceFits { .. } => "1.3",
            NoneCanReach { .. } => "2.1",
        }
    }

    /// Whether the reason is only that the piece does not move that way
    /// (its kind of move, a piece in the way, its own piece on the target).
    pub fn is_about_reach(&self) -> bool {
        use Illegal::*;
        matches!(
            self,
            CannotReach { .. }
                | PathBlocked { .. }
                | OwnPieceOnTarget { .. }
                | ChessPieceMultiStep { .. }
                | NoneCanReach { .. }
        )
    }
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Illegal::*;
        write!(f, "{}: ", self.rule())?;
        match self {
            TooFewSquares => write!(f, "a move names the squares its piece visits, at least two"),
            NoLegalMove { color } => write!(f, "{color} has no legal move: the game is over"),
            EmptySquare { square } => write!(f, "there is no piece on {square}"),
            NotYourPiece { piece, turn } => write!(
                f,
                "{piece} is {}'s; it is {turn}'s turn",
                piece.occupant.piece.color
            ),
            ChessPieceMultiStep { piece } => {
                write!(f, "{piece} moves from one square to another in one step")
            }
            CannotReach { piece, to } => {
                let how = match piece.occupant.piece.role {
                    Role::King => "one square in any direction (or castles)",
                    Role::Queen => "along ranks, files and diagonals",
                    Role::Rook => "along ranks and files",
                    Role::Bishop => "along diagonals",
                    _ => "in an L: two squares one way and one square across",
                };
                write!(f, "{piece} cannot reach {to}: it moves {how}")
            }
            PathBlocked { piece, to, blocker } => {
                write!(f, "{piece} cannot reach {to}: {blocker} is in the way")
            }
            OwnPieceOnTarget { piece, target } => {
                write!(
                    f,
                    "{piece} cannot go to {}: {target} is your own",
                    target.square
                )
            }
            KingCannotBeCaptured { target } => {
                write!(
                    f,
                    "{target} is a King: a King is never captured (that is check)"
                )
            }
            CastlingRightLost { color, side } => write!(
                f,
                "{color} may no longer castle {}: the King or that Rook has moved",
                match side {
                    CastlingSide::Short => "short",
                    CastlingSide::Long => "long",
                }
            ),
            CastlingBlocked { square } => {
                write!(
                    f,
                    "castling needs every square between King and Rook empty, and {square} is not"
                )
            }
            CastlingOutOfCheck => write!(f, "the King may not castle out of check"),
            CastlingThroughAttack { square } => {
                write!(
                    f,
                    "the King may not castle over or onto {square}: it is attacked"
                )
            }
            LegionOffDiagonal { piece, to } => write!(
                f,
                "{piece} cannot go to {to}: Legion pieces move diagonally and stand only on dark squares"
            ),
            ManBackward { piece, to } => write!(
                f,
                "{piece} cannot go to {to}: a man moves only forward (it captures backward only by jumping, 4.3)"
            ),
            ManTooFar { piece, to } => write!(
                f,
                "{piece} cannot go to {to}: a man moves one square diagonally forward; it goes further only by jumping an enemy piece (4.3)"
            ),
            TamaBlocked { piece, to, blocker } => write!(
                f,
                "{piece} cannot go to {to}: a Tama moves only through empty squares, and {blocker} is occupied"
            ),
            LegionTargetOccupied { piece, to } => write!(
                f,
                "{piece} cannot go to {to}: it is occupied, and a Legion piece moves only to an empty square (it captures by jumping over a piece, 4.3)"
            ),
            NothingToJump { from, to } => {
                write!(f, "there is no enemy piece to jump between {from} and {to}")
            }
            JumpOwnPiece { from, to, own } => {
                write!(
                    f,
                    "from {from} to {to} would jump your own piece on {own}: own pieces can never be jumped"
                )
            }
            JumpKing { from, to, king } => write!(
                f,
                "from {from} to {to} would jump the King on {king}: the King can never be jumped"
            ),
            JumpedTwice { square } => write!(
                f,
                "the piece on {square} was already jumped in this series: a piece is jumped only once, and stays until the series ends"
            ),
            JumpTooMany { from, to } => write!(
                f,
                "from {from} to {to} crosses more than one piece: a jump goes over exactly one enemy piece"
            ),
            ManJumpLength { from, to } => write!(
                f,
                "a man jumps over an adjacent piece to the square directly beyond it, so it cannot jump from {from} to {to}"
            ),
            LandingOccupied { square } => write!(
                f,
                "a jump must land on an empty square, and {square} is occupied"
            ),
            SeriesMustContinue { at, next } => write!(
                f,
                "the series must go on: from {at} the piece can jump again ({})",
                list(next)
            ),
            TamaMustLandToContinue { at, options } => {
                let opts: Vec<String> = options.iter().map(|s| s.to_string()).collect();
                write!(
                    f,
                    "the Tama may not stop on {at}: it must land where it can jump again ({})",
                    list(&opts)
                )
            }
            CaptureObligation { captures } => {
                write!(f, "a Legion capture is mandatory: {}", list(captures))
            }
            StillInCheck { king, attackers } => write!(
                f,
                "your King on {king} is in check from {}; the move must end the check",
                placed_list(attackers)
            ),
            ExposesKing { king, attackers } => write!(
                f,
                "your King on {king} would be in check from {}",
                placed_list(attackers)
            ),
            AmbiguousSeries { options } => {
                write!(
                    f,
                    "several capture series join these squares; give the whole path: {}",
                    list(options)
                )
            }
            NoPieceFits { role, text } => {
                write!(f, "you have no {} that fits '{text}'", role.name())
            }
            NoneCanReach { role, to } => {
                write!(f, "none of your {}s can move to {to}", role.name())
            }
        }
    }
}

impl std::error::Error for Illegal {}

fn placed(pos: &Position, sq: Square) -> Option<Placed> {
    pos.board.occupant(sq).map(|occupant| Placed {
        occupant,
        square: sq,
    })
}

/// The legal move named by `squares` (the squares the piece visits), or why
/// there is none. For a capture series any valid path is accepted (4.5),
/// and start and end alone suffice when only one legal series joins them.
pub fn find_move(pos: &Position, squares: &[Square]) -> Result<Move, Illegal> {
    find_among(pos, squares, &pos.legal_moves())
}

/// [`find_move`] with the legal moves of `pos` already generated.
fn find_among(pos: &Position, squares: &[Square], legal: &[Move]) -> Result<Move, Illegal> {
    if squares.len() < 2 {
        return Err(Illegal::TooFewSquares);
    }
    if let Some(m) = match_legal(pos, legal, squares) {
        return Ok(m);
    }
    // Start and end of a series, when only one fits.
    if let [from, to] = squares {
        let series: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| m.kind() == MoveKind::Jump && m.from() == *from && m.to() == *to)
            .collect();
        match series.as_slice() {
            [m] => return Ok(*m),
            [] => {}
            many => {
                let mut options: Vec<String> = many.iter().map(|m| colon_path(pos, *m)).collect();
                options.sort();
                return Err(Illegal::AmbiguousSeries { options });
            }
        }
    }
    Err(explain(pos, squares, legal))
}

/// A series as people write it (6.4): `c3:e5:c7`.
fn colon_path(pos: &Position, m: Move) -> String {
    notation::legion_path(pos, m)
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(":")
}

fn match_legal(pos: &Position, legal: &[Move], squares: &[Square]) -> Option<Move> {
    let (&from, &to) = (squares.first()?, squares.last()?);
    if squares.len() == 2 {
        // A move given by its two squares: any kind, including a one-jump series.
        let hit = legal.iter().copied().find(|m| {
            m.from() == from
                && m.to() == to
                && (m.kind() != MoveKind::Jump || m.captured().count() == 1)
        });
        if hit.is_some() {
            return hit;
        }
    }
    let walk = walk_series(pos, squares).ok()?;
    legal.iter().copied().find(|m| {
        m.kind() == MoveKind::Jump
            && m.from() == from
            && m.to() == to
            && m.captured() == walk.captured
    })
}

struct Walk {
    captured: Bitboard,
    tama: bool,
}

/// Follows a capture path jump by jump under 4.3, without judging whether
/// it ends where it must.
fn walk_series(pos: &Position, squares: &[Square]) -> Result<Walk, Illegal> {
    let board = &pos.board;
    let us = pos.turn;
    let Some(&from) = squares.first() else {
        return Err(Illegal::TooFewSquares);
    };
    let occ = board.occupied().without(from);
    let jumpable = board.jumpable_by(us);
    let mut tama = board.pieces(us, Role::Tama).contains(from);
    let mut captured = Bitboard::EMPTY;
    for pair in squares.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let dir = diagonal_direction(a, b).ok_or(Illegal::NothingToJump { from: a, to: b })?;
        let crossed = between(a, b) & occ;
        if occ.contains(b) {
            return Err(Illegal::LandingOccupied { square: b });
        }
        let Some(victim) = crossed.first() else {
            return Err(Illegal::NothingToJump { from: a, to: b });
        };
        if crossed.more_than_one() {
            return Err(Illegal::JumpTooMany { from: a, to: b });
        }
        if captured.contains(victim) {
            return Err(Illegal::JumpedTwice { square: victim });
        }
        if board.by_color(us).contains(victim) {
            return Err(Illegal::JumpOwnPiece {
                from: a,
                to: b,
                own: victim,
            });
        }
        if !jumpable.contains(victim) {
            return Err(Illegal::JumpKing {
                from: a,
                to: b,
                king: victim,
            });
        }
        if !tama {
            // A man jumps an adjacent piece to the square just beyond.
            let adjacent = crate::attacks::diagonal_step(dir, a) == Some(victim);
            let lands_next = crate::attacks::diagonal_step(dir, victim) == Some(b);
            if !adjacent || !lands_next {
                return Err(Illegal::ManJumpLength { from: a, to: b });
            }
        }
        captured = captured.with(victim);
        if !tama && capture::is_far_rank(b, us) {
            tama = true;
        }
    }
    Ok(Walk { captured, tama })
}

fn diagonal_direction(a: Square, b: Square) -> Option<usize> {
    (0..4).find(|&d| diagonal_ray(d, a).contains(b))
}

/// The pieces of `by` that give check to a King on `k` on `board`.
fn attackers_of(board: &crate::Board, k: Square, by: Color) -> Vec<Placed> {
    board
        .attackers(k, by, board.occupied())
        .into_iter()
        .filter_map(|sq| {
            board.occupant(sq).map(|occupant| Placed {
                occupant,
                square: sq,
            })
        })
        .collect()
}

/// The reason `squares` is not a legal move (which it is not).
fn explain(pos: &Position, squares: &[Square], legal: &[Move]) -> Illegal {
    let us = pos.turn;
    if legal.is_empty() {
        return Illegal::NoLegalMove { color: us };
    }
    let [from, .., to] = *squares else {
        return Illegal::TooFewSquares;
    };
    let Some(mover) = placed(pos, from) else {
        return Illegal::EmptySquare { square: from };
    };
    if mover.occupant.piece.color != us {
        return Illegal::NotYourPiece {
            piece: mover,
            turn: us,
        };
    }
    // First the movement rules of the piece, then obligation, then the King.
    let attempt = match pseudo_move(pos, mover, squares, to) {
        Ok(m) => m,
        Err(e) => return e,
    };
    let in_check = pos.is_check();
    let captures: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| m.kind() == MoveKind::Jump)
        .collect();
    if !in_check && !captures.is_empty() && attempt.kind() != MoveKind::Jump {
        let mut names: Vec<String> = captures.iter().map(|m| colon_path(pos, *m)).collect();
        names.sort();
        return Illegal::CaptureObligation { captures: names };
    }
    if let Some(k) = pos.board.king(us) {
        let after = apply_without_removal(pos, attempt);
        let k_after = if from == k { to } else { k };
        let attackers = attackers_of(&after.board, k_after, !us);
        if !attackers.is_empty() {
            // In check, a non-King move that leaves the same attackers did
            // not end it (4.2.1); anything else exposes the King (3.3).
            let before = pos.checkers();
            let same = attackers.iter().all(|a| before.contains(a.square));
            return if in_check && from != k && same {
                Illegal::StillInCheck {
                    king: k,
                    attackers: attackers_of(&pos.board, k, !us),
                }
            } else {
                Illegal::ExposesKing {
                    king: k_after,
                    attackers,
                }
            };
        }
    }
    // Unreachable for a sound generator; say the most likely thing.
    Illegal::CannotReach { piece: mover, to }
}

fn apply_without_removal(pos: &Position, m: Move) -> Position {
    let mut p = *pos;
    p.rules.mate_ends_game = true;
    p.play(m);
    p
}

/// The move `squares` would be if the piece's own movement rules were all
/// that mattered (Parts II and IV), or the rule it breaks.
fn pseudo_move(
    pos: &Position,
    mover: Placed,
    squares: &[Square],
    to: Square,
) -> Result<Move, Illegal> {
    let board = &pos.board;
    let us = pos.turn;
    let from = mover.square;
    let role = mover.occupant.piece.role;
    let occ = board.occupied();

    if role.is_chess() {
        if squares.len() != 2 {
            return Err(Illegal::ChessPieceMultiStep { piece: mover });
        }
        if role == Role::King
            && let Some(side) = CastlingSide::ALL.into_iter().find(|&s| {
                castling::path(us, s).king_from == from && castling::path(us, s).king_to == to
            })
        {
            return castling_attempt(pos, side);
        }
        let reach = match role {
            Role::King => king_attacks(from),
            Role::Knight => knight_attacks(from),
            Role::Bishop => bishop_attacks(from, occ),
            Role::Rook => rook_attacks(from, occ),
            _ => queen_attacks(from, occ),
        };
        if !reach.contains(to) {
            let open = match role {
                Role::Bishop => bishop_attacks(from, Bitboard::EMPTY),
                Role::Rook => rook_attacks(from, Bitboard::EMPTY),
                Role::Queen => queen_attacks(from, Bitboard::EMPTY),
                _ => Bitboard::EMPTY,
            };
            if open.contains(to)
                && let Some(blocker) = (between(from, to) & occ)
                    .into_iter()
                    .min_by_key(|s| distance(from, *s))
            {
                return Err(Illegal::PathBlocked {
                    piece: mover,
                    to,
                    blocker,
                });
            }
            return Err(Illegal::CannotReach { piece: mover, to });
        }
        if let Some(target) = placed(pos, to) {
            if target.occupant.piece.color == us {
                return Err(Illegal::OwnPieceOnTarget {
                    piece: mover,
                    target,
                });
            }
            if target.occupant.piece.role == Role::King {
                return Err(Illegal::KingCannotBeCaptured { target });
            }
            return Ok(Move::chess(role, from, to, Bitboard::from(to)));
        }
        return Ok(Move::chess(role, from, to, Bitboard::EMPTY));
    }

    // A Legion piece. Two squares with nothing between them are a move
    // without capture (2.4); anything else is a capture series (4.3).
    if squares.len() == 2 {
        let Some(dir) = diagonal_direction(from, to) else {
            return Err(Illegal::LegionOffDiagonal { piece: mover, to });
        };
        let crossed = between(from, to) & occ;
        if crossed.is_empty() {
            if occ.contains(to) {
                return Err(Illegal::LegionTargetOccupied { piece: mover, to });
            }
            if role == Role::Man {
                let forward = match us {
                    Color::White => dir < 2,
                    Color::Black => dir >= 2,
                };
                let adjacent = between(from, to).is_empty();
                if !forward && adjacent {
                    return Err(Illegal::ManBackward { piece: mover, to });
                }
                if !adjacent || !forward {
                    return Err(Illegal::ManTooFar { piece: mover, to });
                }
                return Ok(Move::step(role, from, to, capture::is_far_rank(to, us)));
            }
            return Ok(Move::step(role, from, to, false));
        }
        if role == Role::Tama {
            // A slide through a piece is a jump attempt when exactly one
            // enemy piece is crossed; otherwise it is a blocked move.
            let one = !crossed.more_than_one();
            let enemy = one && (crossed & pos.board.jumpable_by(us)).any();
            let king = one
                && crossed
                    .first()
                    .is_some_and(|s| pos.board.king(!us) == Some(s));
            if !enemy
                && !king
                && let Some(blocker) = crossed.into_iter().min_by_key(|&s| distance(from, s))
            {
                // Own pieces, or more than one piece, stand in the way (2.4).
                return Err(Illegal::TamaBlocked {
                    piece: mover,
                    to,
                    blocker,
                });
            }
        }
    }
    let walk = walk_series(pos, squares)?;
    // The series must be complete (4.3), with Tama landings as 4.3 says.
    check_series_end(pos, squares, from, to, walk)
}

fn distance(a: Square, b: Square) -> u8 {
    (a.file().abs_diff(b.file())).max(a.rank().abs_diff(b.rank()))
}

/// A walked series is a whole move only if it cannot go on from its end,
/// and a Tama stopped only where no landing let it continue (4.3).
fn check_series_end(
    pos: &Position,
    squares: &[Square],
    from: Square,
    to: Square,
    walk: Walk,
) -> Result<Move, Illegal> {
    let us = pos.turn;
    let is_man = pos.board.pieces(us, Role::Man).contains(from);
    let role = if is_man { Role::Man } else { Role::Tama };
    let candidate = Move::jump(role, from, to, walk.captured, is_man && walk.tama);
    // Every complete series from this piece; is ours among them?
    let mut all = crate::MoveList::new();
    capture::series(&pos.board, us, &mut all);
    if all.contains(&candidate) {
        return Ok(candidate);
    }
    // Not complete: find complete series that extend this path.
    let mut extensions: Vec<Vec<Square>> = Vec::new();
    for m in all
        .iter()
        .filter(|m| m.from() == from && (m.captured() & walk.captured) == walk.captured)
    {
        for path in capture::paths(&pos.board, us, *m) {
            if path.len() > squares.len() && path[..squares.len()] == *squares {
                extensions.push(path);
            }
        }
    }
    if !extensions.is_empty() {
        let mut next: Vec<String> = extensions
            .iter()
            .map(|p| {
                p[squares.len() - 1..]
                    .iter()
                    .map(|s| s.to_string())
                    .collect::<Vec<_>>()
                    .join(":")
            })
            .collect();
        next.sort();
        next.dedup();
        return Err(Illegal::SeriesMustContinue { at: to, next });
    }
    // The path stopped a Tama where it could not continue while another
    // landing beyond the same piece could: find that step.
    for i in 1..squares.len() {
        let prefix = &squares[..i];
        let mut options: Vec<Square> = Vec::new();
        for m in all.iter().filter(|m| m.from() == from) {
            for path in capture::paths(&pos.board, us, *m) {
                if path.len() > i && path[..i] == *prefix && path[i] != squares[i] {
                    let same_line = diagonal_direction(squares[i - 1], path[i])
                        == diagonal_direction(squares[i - 1], squares[i]);
                    if same_line {
                        options.push(path[i]);
                    }
                }
            }
        }
        if !options.is_empty()
            && !all.iter().any(|m| {
                capture::paths(&pos.board, us, *m)
                    .iter()
                    .any(|p| p.len() > i && p[..=i] == squares[..=i])
            })
        {
            options.sort();
            options.dedup();
            return Err(Illegal::TamaMustLandToContinue {
                at: squares[i],
                options,
            });
        }
    }
    Err(Illegal::NothingToJump { from, to })
}

fn castling_attempt(pos: &Position, side: CastlingSide) -> Result<Move, Illegal> {
    let us = pos.turn;
    let path = castling::path(us, side);
    if !pos.castling.has(us, side) {
        return Err(Illegal::CastlingRightLost { color: us, side });
    }
    let occ = pos.board.occupied();
    if let Some(sq) = (path.must_be_empty & occ).first() {
        return Err(Illegal::CastlingBlocked { square: sq });
    }
    if pos.is_check() {
        return Err(Illegal::CastlingOutOfCheck);
    }
    if let Some(sq) = path
        .king_path
        .into_iter()
        .find(|&sq| pos.board.attackers(sq, !us, occ).any())
    {
        return Err(Illegal::CastlingThroughAttack { square: sq });
    }
    Ok(Move::castle(path.king_from, path.king_to))
}

/// A move refused by [`Position::try_play`]: the move, and the rule it
/// breaks in that position. `Display` writes the reason, "rule: text".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayError {
    mv: Move,
    reason: Illegal,
}

impl PlayError {
    pub(crate) fn new(mv: Move, reason: Illegal) -> PlayError {
        PlayError { mv, reason }
    }

    /// The move that was refused.
    pub fn mv(&self) -> Move {
        self.mv
    }

    /// Why it was refused.
    pub fn reason(&self) -> &Illegal {
        &self.reason
    }

    /// Why it was refused, by value.
    pub fn into_reason(self) -> Illegal {
        self.reason
    }

    /// The number of the rule the move breaks (`docs/RULES.md`).
    pub fn rule(&self) -> &'static str {
        self.reason.rule()
    }
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.reason.fmt(f)
    }
}

impl std::error::Error for PlayError {}

impl From<PlayError> for Illegal {
    fn from(e: PlayError) -> Illegal {
        e.reason
    }
}

/// Why `m`, which is not among `legal` (the legal moves of `pos`), cannot
/// be played in `pos`: the reason [`find_move`] gives for the squares the
/// move visits. A `Move` made in another position may name squares that
/// here make a different move; the reason then says what differs.
pub(crate) fn explain_move(pos: &Position, m: Move, legal: &[Move]) -> Illegal {
    let us = pos.turn;
    let (from, to) = (m.from(), m.to());
    if legal.is_empty() {
        return Illegal::NoLegalMove { color: us };
    }
    let Some(mover) = placed(pos, from) else {
        return Illegal::EmptySquare { square: from };
    };
    if mover.occupant.piece.color != us {
        return Illegal::NotYourPiece {
            piece: mover,
            turn: us,
        };
    }
    if mover.occupant.piece.role != m.role() {
        // 1.3: the side has no such piece there.
        return Illegal::NoPieceFits {
            role: m.role(),
            text: format!("{from}{to}"),
        };
    }
    // A series by one of its paths here, if it has one; else its ends.
    let path = match m.kind() {
        MoveKind::Jump => capture::paths(&pos.board, us, m).into_iter().min(),
        _ => None,
    };
    let squares = path.unwrap_or_else(|| vec![from, to]);
    let found = match find_among(pos, &squares, legal) {
        Err(Illegal::AmbiguousSeries { .. }) => None,
        Err(e) => return e,
        Ok(found) => Some(found),
    };
    // The squares name another move here (or several series): say how
    // `m` differs from what stands on the board.
    let occ = pos.board.occupied();
    match (m.kind(), found) {
        (MoveKind::Step, Some(f)) if f.kind() == MoveKind::Jump => {
            match (between(from, to) & occ)
                .into_iter()
                .min_by_key(|&s| distance(from, s))
            {
                Some(blocker) => Illegal::TamaBlocked {
                    piece: mover,
                    to,
                    blocker,
                },
                None => Illegal::CannotReach { piece: mover, to },
            }
        }
        (MoveKind::Chess, Some(f)) if m.is_capture() && !f.is_capture() => {
            Illegal::EmptySquare { square: to }
        }
        (MoveKind::Chess, Some(f)) if !m.is_capture() && f.is_capture() => Illegal::PathBlocked {
            piece: mover,
            to,
            blocker: to,
        },
        (MoveKind::Jump, _) | (_, None) => Illegal::NothingToJump { from, to },
        _ => Illegal::CannotReach { piece: mover, to },
    }
}

impl Piece {
    /// "White man", "Black Queen".
    pub fn describe(self) -> String {
        format!("{} {}", self.color.name(), self.role.name())
    }
}
