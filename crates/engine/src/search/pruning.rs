//! The margins and reductions of the search, each with why it is what it
//! is, and the tests of when a pruning is safe in this game. Changing any
//! of them changes the bench signature.

use legion_rules::{Move, Position, Role};

use crate::eval;

/// Reverse futility works this close to the horizon, where a margin can
/// still stand for what the remaining plies could lose.
pub const REVERSE_FUTILITY_DEPTH: i32 = 3;
/// Per ply of depth left: a little more than a man, what the side to move
/// could still lose per ply that the static evaluation does not see.
pub const REVERSE_FUTILITY_MARGIN: i32 = 110;

/// Null move needs this much depth: shallower, the reduced search says
/// nothing quiescence would not.
pub const NULL_MOVE_MIN_DEPTH: i32 = 3;
/// Plies the null move's search is reduced by; the usual 3 at low depth...
pub const NULL_MOVE_REDUCTION: i32 = 3;
/// ...and one more for each this many plies of depth, as deep trees can
/// afford a coarser verification.
pub const NULL_MOVE_DEPTH_DIVISOR: i32 = 6;

/// Futility works only this close to the horizon: deeper, a quiet move has
/// time to change the material.
pub const FUTILITY_DEPTH: i32 = 2;
/// Per ply of depth left: captures and crownings are never pruned, so this
/// bounds what a quiet move gains in position alone (about 1.4 men).
pub const FUTILITY_MARGIN: i32 = 140;

/// Late move pruning works this close to the horizon, where the ordering
/// (captures, killers, history) has put the good quiet moves first.
pub const LATE_MOVE_DEPTH: i32 = 3;
/// Quiet moves tried before late move pruning starts, at any depth...
pub const LATE_MOVE_BASE: usize = 6;
/// ...plus this many per ply of depth left, as deeper nodes are worth more.
pub const LATE_MOVE_PER_DEPTH: usize = 4;

/// Late move reductions need this much depth, so that the reduced search
/// is still a search.
pub const LMR_MIN_DEPTH: i32 = 3;
/// The first moves (hash move, captures, killers) are never reduced.
pub const LMR_MIN_INDEX: usize = 3;
/// The reduction's constant part (truncated with the rest): a late move
/// at moderate depth loses a ply.
const LMR_BASE: f32 = 0.6;
/// The reduction grows with ln(depth) x ln(move number) / this: larger is
/// gentler.
const LMR_DIVISOR: f32 = 2.4;

/// Aspiration windows start at this depth: before it, scores swing too
/// much between depths for a window to hold.
pub const ASPIRATION_MIN_DEPTH: i32 = 5;
/// Half-width of the first aspiration window (doubled on each failure):
/// about a third of a man.
pub const ASPIRATION_WINDOW: i32 = 30;

/// Forced quiescence (in check, or a compulsory Legion capture) stops
/// after this many plies with a plain evaluation: series of forced
/// captures can be long, and quiescence must end.
pub const QUIESCENCE_FORCED_PLIES: u32 = 8;

/// The late move reduction of the `index`th move at `depth`, in plies.
pub fn reduction(depth: i32, index: usize) -> i32 {
    let r = LMR_BASE + (depth as f32).ln() * ((index as f32).ln()) / LMR_DIVISOR;
    r as i32
}

/// The null move's reduction at `depth`.
pub fn null_move_reduction(depth: i32) -> i32 {
    NULL_MOVE_REDUCTION + depth / NULL_MOVE_DEPTH_DIVISOR
}

/// Whether the side to move has a chess piece besides its King: without
/// one, zugzwang is common and null-move pruning unsafe.
pub fn has_chess_pieces(pos: &Position) -> bool {
    let b = pos.board();
    let ours = b.by_color(pos.turn());
    (ours
        & (b.by_role(Role::Queen)
            | b.by_role(Role::Rook)
            | b.by_role(Role::Bishop)
            | b.by_role(Role::Knight)))
    .any()
}

/// Whether the chess capture `m` likely loses material: its piece is worth
/// more than its victim and the prisoner the victim holds (1.5, 4.1), and
/// the opponent attacks the square it lands on (a chess piece could take
/// it back, a man or Tama jump it, 4.1). The King is never counted: it may
/// not move onto an attacked square (3.3).
pub fn loses_material(pos: &Position, m: Move) -> bool {
    let board = pos.board();
    if m.role() == Role::King {
        return false;
    }
    eval::piece_value(m.role()) > eval::victim_value(board, m.to())
        && board.is_attacked(m.to(), !pos.turn(), board.occupied().without(m.from()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reductions_grow_with_depth_and_move_number() {
        assert_eq!(reduction(3, 3), 1);
        assert!(reduction(20, 40) > reduction(3, 3));
        assert_eq!(null_move_reduction(3), 3);
        assert_eq!(null_move_reduction(12), 5);
    }

    #[test]
    fn only_a_lone_king_and_legion_forbid_the_null_move() {
        let legion: Position = "3k4/m7/8/8/8/8/1M6/4K3 w - 0 1".parse().unwrap();
        let knight: Position = "3k4/m7/8/8/8/8/1M6/4K1N1 w - 0 1".parse().unwrap();
        assert!(!has_chess_pieces(&legion));
        assert!(has_chess_pieces(&knight));
    }

    /// `lfen` and its legal move from `from` to `to`.
    fn capture(lfen: &str, from: &str, to: &str) -> (Position, Move) {
        let pos: Position = lfen.parse().unwrap();
        let m = pos
            .legal_moves()
            .iter()
            .copied()
            .find(|m| m.from().to_string() == from && m.to().to_string() == to)
            .unwrap();
        (pos, m)
    }

    #[test]
    fn a_capture_loses_material_when_a_dearer_piece_lands_on_an_attacked_square() {
        // Queen (880) takes a man (100) that a Knight on d7 defends.
        let (pos, m) = capture("7k/3n4/8/4m3/8/8/8/K3Q3 w - 0 1", "e1", "e5");
        assert!(loses_material(&pos, m));
        // The same man defended by a man on d6: the construct formed on
        // e5 can be jumped to the empty f4 (4.1, Liberation).
        let (pos, m) = capture("7k/8/3m4/4m3/8/8/8/K3Q3 w - 0 1", "e1", "e5");
        assert!(loses_material(&pos, m));
        // f4 occupied: no jump lands, nothing else attacks e5.
        let (pos, m) = capture("7k/8/3m4/4m3/5N2/8/8/K3Q3 w - 0 1", "e1", "e5");
        assert!(!loses_material(&pos, m));
        // A Knight (300) takes a defended Rook (460): it wins at once.
        let (pos, m) = capture("7k/3n4/8/4r3/8/3N4/8/K7 w - 0 1", "d3", "e5");
        assert!(!loses_material(&pos, m));
        // The Queen absorbs a Knight holding a White man (300 + 100 < 880)
        // that the Knight on d7 defends.
        let (pos, m) = capture("7k/3n4/8/4[nM]3/8/8/8/K3Q3 w - 0 1", "e1", "e5");
        assert!(loses_material(&pos, m));
    }
}
