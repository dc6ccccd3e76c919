//! A game: its moves with undo, and how it ends (RULES Part V): no legal
//! move (5.2), mate under `mate-ends-game` (5.4), threefold repetition,
//! the 50-move rule and dead positions (5.3), resignation and agreement.
//! It also remembers who won Phase 1, and on which move (5.1).

use std::fmt;

use crate::notation::{self, MoveParseError};
use crate::{Color, Move, PlayError, Position, Role};

/// Why a game was won.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WinReason {
    /// 5.2: the loser had no legal move on its turn.
    NoLegalMove,
    /// 5.4: mate, under the `mate-ends-game` option.
    Mate,
    /// The loser resigned.
    Resignation,
    /// The loser's clock ran out (clocks are optional, kept by the app).
    Time,
}

/// Why a game was drawn (5.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DrawReason {
    /// Threefold repetition.
    Repetition,
    /// 100 plies without capture, man move, crowning or King removal.
    FiftyMoves,
    /// Only the two Kings are left.
    DeadPosition,
    /// The players agreed.
    Agreement,
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// One side won.
    Win {
        /// The winner.
        winner: Color,
        /// How.
        reason: WinReason,
    },
    /// A draw (5.3).
    Draw {
        /// How.
        reason: DrawReason,
    },
}

impl Outcome {
    /// The result token of game records (6.5).
    pub fn result(self) -> &'static str {
        match self {
            Outcome::Win {
                winner: Color::White,
                ..
            } => "1-0",
            Outcome::Win {
                winner: Color::Black,
                ..
            } => "0-1",
            Outcome::Draw { .. } => "1/2-1/2",
        }
    }

    /// The winner, if it was won.
    pub fn winner(self) -> Option<Color> {
        match self {
            Outcome::Win { winner, .. } => Some(winner),
            Outcome::Draw { .. } => None,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Outcome::Win { winner, reason } => {
                let loser = !winner;
                match reason {
                    WinReason::NoLegalMove => {
                        write!(f, "{winner} wins: {loser} has no legal move (5.2)")
                    }
                    WinReason::Mate => write!(f, "{winner} wins by mate (5.4, mate-ends-game)"),
                    WinReason::Resignation => write!(f, "{winner} wins: {loser} resigned"),
                    WinReason::Time => write!(f, "{winner} wins on time"),
                }
            }
            Outcome::Draw { reason } => match reason {
                DrawReason::Repetition => write!(f, "draw by threefold repetition (5.3)"),
                DrawReason::FiftyMoves => write!(f, "draw by the 50-move rule (5.3)"),
                DrawReason::DeadPosition => write!(f, "draw: only the two Kings are left (5.3)"),
                DrawReason::Agreement => write!(f, "draw by agreement (5.3)"),
            },
        }
    }
}

/// Who won Phase 1 (5.1): the side that mated, and the move that did it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PhaseOne {
    /// The side that mated.
    pub winner: Color,
    /// The full-move number of the mating move.
    pub fullmove: u32,
    /// Index of the mating move in the game's move list.
    pub ply: usize,
}

/// Why a move could not be played in a game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The game has ended: no move is played after the end.
    #[error("the game is over: {0}")]
    Over(Outcome),
    /// The text names no legal move: why, with its rule.
    #[error(transparent)]
    Move(#[from] MoveParseError),
    /// The move is not legal here: why, with its rule.
    #[error(transparent)]
    Illegal(#[from] PlayError),
}

/// A game from a start position: its moves, with undo, and how it ends.
///
/// ```
/// use legion_rules::game::{DrawReason, Game, Outcome};
///
/// let mut game = Game::default();
/// for _ in 0..2 {
///     for m in ["Nf3", "Na6", "Ng1", "Nb8"] {
///         game.play_text(m).unwrap();
///     }
/// }
/// // The initial position has stood three times (5.3).
/// assert_eq!(
///     game.outcome(),
///     Some(Outcome::Draw { reason: DrawReason::Repetition })
/// );
/// assert!(game.play_text("Nf3").is_err());
/// game.undo();
/// assert_eq!(game.outcome(), None);
/// ```
#[derive(Debug, Clone)]
pub struct Game {
    /// positions[0] is the start; positions[i] follows moves[i - 1].
    positions: Vec<Position>,
    moves: Vec<Move>,
    /// Resignation, agreement, time: set from outside the board.
    declared: Option<Outcome>,
}

impl Default for Game {
    fn default() -> Game {
        Game::new(Position::initial())
    }
}

impl Game {
    /// A game from `start`, with no move played.
    pub fn new(start: Position) -> Game {
        Game {
            positions: vec![start],
            moves: Vec::new(),
            declared: None,
        }
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        // Never empty: `new` puts the start there and `undo` keeps it.
        &self.positions[self.positions.len() - 1]
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The positions from the start to now (one more than the moves).
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// Plays a legal move; refuses when the game is over.
    pub fn play(&mut self, m: Move) -> Result<(), GameError> {
        if let Some(o) = self.outcome() {
            return Err(GameError::Over(o));
        }
        let mut next = *self.position();
        next.try_play(m)?;
        self.positions.push(next);
        self.moves.push(m);
        Ok(())
    }

    /// Reads a move in either notation and plays it.
    pub fn play_text(&mut self, text: &str) -> Result<Move, GameError> {
        if let Some(o) = self.outcome() {
            return Err(GameError::Over(o));
        }
        let m = notation::parse_move(self.position(), text)?;
        self.play(m)?;
        Ok(m)
    }

    /// Takes back the last move (and any declared result).
    pub fn undo(&mut self) -> Option<Move> {
        self.declared = None;
        let m = self.moves.pop()?;
        self.positions.pop();
        Some(m)
    }

    /// `loser` resigns; nothing if the game is already over.
    pub fn resign(&mut self, loser: Color) {
        if self.outcome().is_none() {
            self.declared = Some(Outcome::Win {
                winner: !loser,
                reason: WinReason::Resignation,
            });
        }
    }

    /// The players agree a draw (5.3); nothing if the game is over.
    pub fn agree_draw(&mut self) {
        if self.outcome().is_none() {
            self.declared = Some(Outcome::Draw {
                reason: DrawReason::Agreement,
            });
        }
    }

    /// `loser`'s clock has run out; nothing if the game is over.
    pub fn lose_on_time(&mut self, loser: Color) {
        if self.outcome().is_none() {
            self.declared = Some(Outcome::Win {
                winner: !loser,
                reason: WinReason::Time,
            });
        }
    }

    /// Sets a result declared outside the board (e.g. read from a record).
    pub fn declare(&mut self, outcome: Outcome) {
        self.declared = Some(outcome);
    }

    /// How many times the current position has stood in this game,
    /// counting placement, side to move and castling rights (5.3).
    pub fn repetitions(&self) -> usize {
        let now = self.position();
        // Positions before the last capture, man move, crowning or King
        // removal cannot recur: they had other material or men.
        let window = (now.halfmove_clock() as usize).min(self.positions.len() - 1);
        self.positions[self.positions.len() - 1 - window..]
            .iter()
            .filter(|p| {
                p.hash() == now.hash()
                    && p.board == now.board
                    && p.turn == now.turn
                    && p.castling == now.castling
            })
            .count()
    }

    /// How the game has ended, if it has. No legal move (a loss) is looked
    /// at before the draws: like mate in chess, it takes precedence.
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.declared {
            return Some(o);
        }
        let pos = self.position();
        if !pos.has_legal_move() {
            let reason = if pos.rules().mate_ends_game && pos.is_check() {
                WinReason::Mate
            } else {
                WinReason::NoLegalMove
            };
            return Some(Outcome::Win {
                winner: !pos.turn(),
                reason,
            });
        }
        if is_dead_position(pos) {
            return Some(Outcome::Draw {
                reason: DrawReason::DeadPosition,
            });
        }
        if self.repetitions() >= 3 {
            return Some(Outcome::Draw {
                reason: DrawReason::Repetition,
            });
        }
        if pos.halfmove_clock() >= 100 {
            return Some(Outcome::Draw {
                reason: DrawReason::FiftyMoves,
            });
        }
        None
    }

    /// Who won Phase 1 (5.1), if a King has been removed in this game.
    pub fn phase_one(&self) -> Option<PhaseOne> {
        self.king_removals().next()
    }

    /// Every King removal of the game, in order (at most two).
    pub fn king_removals(&self) -> impl Iterator<Item = PhaseOne> + '_ {
        self.moves.iter().enumerate().filter_map(|(i, _)| {
            let before = &self.positions[i];
            let after = &self.positions[i + 1];
            let loser = !before.turn();
            (before.board.king(loser).is_some() && after.board.king(loser).is_none()).then_some(
                PhaseOne {
                    winner: before.turn(),
                    fullmove: before.fullmove_number(),
                    ply: i,
                },
            )
        })
    }
}

/// 5.3: each side has its King and no other piece (no prisoner either).
pub fn is_dead_position(pos: &Position) -> bool {
    let b = pos.board();
    Color::ALL.iter().all(|&c| b.king(c).is_some())
        && b.occupied() == b.by_role(Role::King)
        && b.constructs().is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rules;

    #[test]
    fn knights_shuffling_repeat_three_times() {
        let mut g = Game::default();
        for _ in 0..2 {
            for m in ["g1f3", "b8a6", "f3g1", "a6b8"] {
                g.play_text(m).unwrap();
            }
        }
        // The initial position has now stood three times.
        assert_eq!(g.repetitions(), 3);
        assert_eq!(
            g.outcome(),
            Some(Outcome::Draw {
                reason: DrawReason::Repetition
            })
        );
        assert!(matches!(g.play_text("g1f3"), Err(GameError::Over(_))));
        g.undo();
        assert_eq!(g.outcome(), None);
    }

    #[test]
    fn fifty_move_rule_counts_plies_without_capture_or_man_move() {
        let start = Position::from_lfen("3k4/8/8/8/8/8/8/R3K3 w - 98 80", Rules::DEFAULT).unwrap();
        let mut g = Game::new(start);
        g.play_text("a1a2").unwrap();
        assert_eq!(g.outcome(), None);
        g.play_text("d8c8").unwrap();
        assert_eq!(
            g.outcome(),
            Some(Outcome::Draw {
                reason: DrawReason::FiftyMoves
            })
        );
    }

    #[test]
    fn two_bare_kings_are_a_dead_position() {
        let g = Game::new("3k4/8/8/8/8/8/8/4K3 w - 0 1".parse().unwrap());
        assert_eq!(
            g.outcome(),
            Some(Outcome::Draw {
                reason: DrawReason::DeadPosition
            })
        );
        // A King holding a prisoner is not bare.
        let g = Game::new("3k4/8/8/8/8/8/8/4[Km]3 w - 0 1".parse().unwrap());
        assert_eq!(g.outcome(), None);
    }

    #[test]
    fn mate_removes_the_king_and_phase_one_is_recorded() {
        // The Rook on h7 holds rank 7; the other Rook mates on rank 8.
        let start = Position::from_lfen("3k4/7R/8/8/8/8/8/R3K3 w - 0 30", Rules::DEFAULT).unwrap();
        let mut g = Game::new(start);
        g.play_text("Ra8#").unwrap();
        assert_eq!(g.position().board().king(Color::Black), None);
        assert_eq!(
            g.phase_one(),
            Some(PhaseOne {
                winner: Color::White,
                fullmove: 30,
                ply: 0
            })
        );
        // Black has no piece at all: no legal move, White wins (5.2).
        assert_eq!(
            g.outcome(),
            Some(Outcome::Win {
                winner: Color::White,
                reason: WinReason::NoLegalMove
            })
        );
        // Under mate-ends-game the same move simply wins.
        let start =
            Position::from_lfen("3k4/7R/8/8/8/8/8/R3K3 w - 0 30", Rules::MATE_ENDS_GAME).unwrap();
        let mut g = Game::new(start);
        g.play_text("a1a8").unwrap();
        assert_eq!(
            g.position().board().king(Color::Black),
            Some("d8".parse().unwrap())
        );
        assert_eq!(
            g.outcome(),
            Some(Outcome::Win {
                winner: Color::White,
                reason: WinReason::Mate
            })
        );
    }
}
