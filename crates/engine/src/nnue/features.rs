//! The network's inputs: one feature for each (plane, square) seen from
//! one side, "ours" and "theirs" relative to that side.
//!
//! Planes (RULES 1.3–1.5): our King, Queen, Rook, Bishop, Knight, man,
//! Tama (the top piece of a square, so a construct counts as its Captor),
//! then the same seven of theirs, then the prisoners: our man, our Tama
//! (held by their Captor), their man, their Tama (held by ours). A
//! construct thus lights two features, its Captor's and its prisoner's.
//!
//! Black sees the board turned half a turn (square `63 - s`): the initial
//! position (1.6) is symmetric that way (the Kings stand on e1 and d8,
//! the men on dark squares), so a pattern learnt for one side serves the
//! other.

use legion_rules::{Bitboard, Board, Color, Role, Square};

/// Planes of 64 squares.
pub const PLANES: usize = 18;
/// Inputs of the network.
pub const INPUTS: usize = PLANES * 64;

/// The 18 sets of a board as White sees them: White's seven roles,
/// Black's seven, then White's men and Tamas held prisoner, Black's men
/// and Tamas held prisoner.
#[inline]
pub fn planes(board: &Board) -> [Bitboard; PLANES] {
    let mut p = [Bitboard::EMPTY; PLANES];
    for (i, role) in Role::ALL.iter().enumerate() {
        p[i] = board.pieces(Color::White, *role);
        p[7 + i] = board.pieces(Color::Black, *role);
    }
    let tamas = board.tama_prisoners();
    let men = board.constructs() & !tamas;
    // A prisoner belongs to the side its Captor is not (1.5).
    let held_by_black = board.by_color(Color::Black);
    let held_by_white = board.by_color(Color::White);
    p[14] = men & held_by_black;
    p[15] = tamas & held_by_black;
    p[16] = men & held_by_white;
    p[17] = tamas & held_by_white;
    p
}

/// For Black, plane `i` of `planes` is this plane of Black's own view.
const BLACK_PLANE: [usize; PLANES] = [7, 8, 9, 10, 11, 12, 13, 0, 1, 2, 3, 4, 5, 6, 16, 17, 14, 15];

/// The feature of plane `plane` (as White sees it) on `sq`, from `side`'s
/// point of view.
#[inline]
pub fn index(side: Color, plane: usize, sq: Square) -> usize {
    let s = sq.index();
    match side {
        Color::White => plane * 64 + s,
        Color::Black => BLACK_PLANE[plane] * 64 + (63 - s),
    }
}

/// Every active feature of `board` from `side`'s point of view.
pub fn active(board: &Board, side: Color) -> Vec<usize> {
    let mut out = Vec::with_capacity(40);
    for (plane, set) in planes(board).iter().enumerate() {
        for sq in *set {
            out.push(index(side, plane, sq));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use legion_rules::Position;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn the_initial_position_looks_the_same_to_both_sides() {
        // 1.6: White's King on e1 and Black's on d8 are both "our King on
        // the fifth square of our first rank" in each side's own view.
        let p = Position::initial();
        let mut w = active(p.board(), Color::White);
        let mut b = active(p.board(), Color::Black);
        w.sort();
        b.sort();
        assert_eq!(w, b);
        assert_eq!(w.len(), 32);
        assert!(w.contains(&(sq("e1").index())));
        assert_eq!(index(Color::Black, 7, sq("d8")), sq("e1").index());
    }

    #[test]
    fn a_construct_lights_its_captor_and_its_prisoner() {
        // 6.2: `[Nm]` on d4 is a White Knight holding a Black man; `[qT]`
        // on e5 a Black Queen holding a White Tama.
        let p: Position = "3k4/8/8/4[qT]3/3[Nm]4/8/8/4K3 w - 0 1".parse().unwrap();
        let w = active(p.board(), Color::White);
        let d4 = sq("d4").index();
        let e5 = sq("e5").index();
        let mut expected = vec![
            sq("e1").index(),          // our King
            7 * 64 + sq("d8").index(), // their King
            4 * 64 + d4,               // our Knight (the Captor)
            16 * 64 + d4,              // their man, our prisoner
            8 * 64 + e5,               // their Queen
            15 * 64 + e5,              // our Tama, their prisoner
        ];
        let mut w_sorted = w.clone();
        w_sorted.sort();
        expected.sort();
        assert_eq!(w_sorted, expected);
        // Black's view: the same pieces with "ours" and "theirs" swapped.
        let mut b = active(p.board(), Color::Black);
        b.sort();
        let mut expected_b = vec![
            63 - sq("d8").index(),
            7 * 64 + 63 - sq("e1").index(),
            11 * 64 + 63 - d4,
            14 * 64 + 63 - d4,
            64 + 63 - e5,
            17 * 64 + 63 - e5,
        ];
        expected_b.sort();
        assert_eq!(b, expected_b);
    }
}
