//! One or more hand-worked cases for every numbered rule of RULES.md.
//! Every expected move list and position below was derived from the rules
//! text by hand (the reasoning is in the comments), not from the code.

use legion_rules::game::{Outcome, WinReason};
use legion_rules::notation::{canonical, human, parse_move};
use legion_rules::{Color, Game, INITIAL_LFEN, Piece, Position, Role, Rules, Square, perft::perft};

fn pos(lfen: &str) -> Position {
    Position::from_lfen(lfen, Rules::DEFAULT).unwrap_or_else(|e| panic!("{lfen}: {e}"))
}

fn moves_of(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = p
        .legal_moves()
        .into_iter()
        .map(|m| canonical(p, m))
        .collect();
    v.sort();
    v
}

fn moves(lfen: &str) -> Vec<String> {
    moves_of(&pos(lfen))
}

fn sorted(list: &str) -> Vec<String> {
    let mut v: Vec<String> = list.split_whitespace().map(str::to_string).collect();
    v.sort();
    v
}

fn after(lfen: &str, mv: &str) -> String {
    let p = pos(lfen);
    let m = parse_move(&p, mv).unwrap_or_else(|e| panic!("{mv} in {lfen}: {e}"));
    p.after(m).to_lfen()
}

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

// Part I -----------------------------------------------------------------

#[test]
fn rule_1_1_a1_is_dark() {
    assert!(sq("a1").is_dark() && sq("c1").is_dark() && sq("b2").is_dark());
    assert!(!sq("b1").is_dark() && !sq("a2").is_dark());
}

#[test]
fn rule_1_2_white_moves_first() {
    assert_eq!(Position::initial().turn(), Color::White);
}

#[test]
fn rules_1_3_1_4_1_6_the_initial_position() {
    let p = Position::initial();
    assert_eq!(p.to_lfen(), INITIAL_LFEN);
    let b = p.board();
    for (color, king, queen) in [(Color::White, "e1", "d1"), (Color::Black, "d8", "e8")] {
        assert_eq!(b.pieces(color, Role::King), sq(king).into());
        assert_eq!(b.pieces(color, Role::Queen), sq(queen).into());
        assert_eq!(b.pieces(color, Role::Rook).count(), 2);
        assert_eq!(b.pieces(color, Role::Bishop).count(), 2);
        assert_eq!(b.pieces(color, Role::Knight).count(), 2);
        assert_eq!(b.pieces(color, Role::Man).count(), 8);
        // 1.4: the Legion stands on dark squares only.
        assert!(b.pieces(color, Role::Man).all(|s| s.is_dark()));
    }
    // Both Kings on dark squares, both Queens on light ones (1.6).
    assert!(sq("e1").is_dark() && sq("d8").is_dark());
    assert!(!sq("d1").is_dark() && !sq("e8").is_dark());
}

#[test]
fn rule_1_5_a_construct_belongs_to_its_captor() {
    let p = pos("3k4/8/8/8/8/8/8/4K2[Qm] w - 0 1");
    let o = p.board().occupant(sq("h1")).unwrap();
    assert_eq!(o.piece, Piece::new(Color::White, Role::Queen));
    assert_eq!(
        o.prisoner_piece(),
        Some(Piece::new(Color::Black, Role::Man))
    );
    assert!(p.board().by_color(Color::White).contains(sq("h1")));
}

// Part II ----------------------------------------------------------------

#[test]
fn rule_2_1_knight_and_king() {
    // Knight d4: b3 b5 c2 c6 e2 e6 f3 f5; King e1: d1 d2 e2 f1 f2.
    assert_eq!(
        moves("3k4/8/8/8/3N4/8/8/4K3 w - 0 1"),
        sorted("d4b3 d4b5 d4c2 d4c6 d4e2 d4e6 d4f3 d4f5 e1d1 e1d2 e1e2 e1f1 e1f2")
    );
}

#[test]
fn rule_2_1_bishop_and_rook_stop_at_pieces() {
    assert_eq!(
        moves("3k4/8/8/8/8/8/8/2B1K3 w - 0 1"),
        sorted("c1b2 c1a3 c1d2 c1e3 c1f4 c1g5 c1h6 e1d1 e1d2 e1e2 e1f1 e1f2")
    );
    // Rook a1 up to the Black Rook on a4 (captures it, 4.4), along rank 1 up
    // to its own King.
    assert_eq!(
        moves("3k4/8/8/8/r7/8/8/R3K3 w - 0 1"),
        sorted("a1a2 a1a3 a1a4 a1b1 a1c1 a1d1 e1d1 e1d2 e1e2 e1f1 e1f2")
    );
}

#[test]
fn rule_2_2_white_castling() {
    // King 5 steps + both castlings; Rook a1: a2-a8, b1-d1; Rook h1: h2-h8, g1, f1.
    assert_eq!(
        moves("3k4/8/8/8/8/8/8/R3K2R w KQ 0 1"),
        sorted(
            "e1d1 e1d2 e1e2 e1f1 e1f2 e1g1 e1c1 a1a2 a1a3 a1a4 a1a5 a1a6 a1a7 a1a8 a1b1 a1c1 a1d1 \
             h1h2 h1h3 h1h4 h1h5 h1h6 h1h7 h1h8 h1g1 h1f1"
        )
    );
    assert_eq!(
        after("3k4/8/8/8/8/8/8/R3K2R w KQ 0 1", "e1g1"),
        "3k4/8/8/8/8/8/8/R4RK1 b - 1 1"
    );
    assert_eq!(
        after("3k4/8/8/8/8/8/8/R3K2R w KQ 0 1", "O-O-O"),
        "3k4/8/8/8/8/8/8/2KR3R b - 1 1"
    );
}

#[test]
fn rule_2_2_black_castles_from_d8() {
    // Short: d8->b8, a8->c8. Long: d8->f8, h8->e8.
    assert_eq!(
        moves("r2k3r/8/8/8/8/8/8/4K3 b kq 0 1"),
        sorted(
            "d8c8 d8e8 d8c7 d8d7 d8e7 d8b8 d8f8 a8b8 a8c8 a8a7 a8a6 a8a5 a8a4 a8a3 a8a2 a8a1 \
             h8g8 h8f8 h8e8 h8h7 h8h6 h8h5 h8h4 h8h3 h8h2 h8h1"
        )
    );
    assert_eq!(
        after("r2k3r/8/8/8/8/8/8/4K3 b kq 0 1", "d8b8"),
        "1kr4r/8/8/8/8/8/8/4K3 w - 1 2"
    );
    assert_eq!(
        after("r2k3r/8/8/8/8/8/8/4K3 b kq 0 1", "d8f8"),
        "r3rk2/8/8/8/8/8/8/4K3 w - 1 2"
    );
}

#[test]
fn rule_2_2_castling_not_through_attack_but_past_b1() {
    // The White Rook on c1 attacks c8, which short castling crosses.
    let m = moves("r2k3r/8/8/8/8/8/8/2R1K3 b kq 0 1");
    assert!(!m.contains(&"d8b8".to_string()));
    assert!(m.contains(&"d8f8".to_string()));
    // b1 attacked does not stop long castling: the King never crosses it.
    assert!(moves("1r1k4/8/8/8/8/8/8/R3K3 w Q 0 1").contains(&"e1c1".to_string()));
    // Not out of check: the Rook on e8 checks the King on e1.
    let m = moves("3kr3/8/8/8/8/8/8/R3K2R w KQ 0 1");
    assert!(!m.contains(&"e1g1".to_string()) && !m.contains(&"e1c1".to_string()));
    // A Rook that is a Captor has moved: no right can be written for it.
    assert!(Position::from_lfen("3k4/8/8/8/8/8/8/4K2[Rm] w K 0 1", Rules::DEFAULT).is_err());
}

#[test]
fn rule_2_3_a_construct_moves_as_its_captor_with_its_prisoner() {
    // Queen h1 holding a Black man: g1 f1, h2-h8, g2-a8; King: 5 steps.
    assert_eq!(
        moves("3k4/8/8/8/8/8/8/4K2[Qm] w - 0 1"),
        sorted(
            "h1g1 h1f1 h1h2 h1h3 h1h4 h1h5 h1h6 h1h7 h1h8 h1g2 h1f3 h1e4 h1d5 h1c6 h1b7 h1a8 \
             e1d1 e1d2 e1e2 e1f1 e1f2"
        )
    );
    // It carries the prisoner to a light square.
    assert_eq!(
        after("3k4/8/8/8/8/8/8/4K2[Qm] w - 0 1", "h1a8"),
        "[Qm]2k4/8/8/8/8/8/8/4K3 b - 1 1"
    );
}

#[test]
fn rule_2_4_men_step_forward_tamas_fly() {
    assert_eq!(
        moves("3k4/8/8/8/8/2M5/8/4K3 w - 0 1"),
        sorted("c3b4 c3d4 e1d1 e1d2 e1e2 e1f1 e1f2")
    );
    // A Black man steps towards rank 1.
    assert_eq!(
        moves("3k4/8/8/2m5/8/8/8/4K3 b - 0 1"),
        sorted("c5b4 c5d4 d8c8 d8e8 d8c7 d8d7 d8e7")
    );
    // Tama c3: b2 a1, d4-h8, b4 a5, d2 (e1 is its own King).
    assert_eq!(
        moves("3k4/8/8/8/8/2T5/8/4K3 w - 0 1"),
        sorted("c3b2 c3a1 c3d4 c3e5 c3f6 c3g7 c3h8 c3b4 c3a5 c3d2 e1d1 e1d2 e1e2 e1f1 e1f2")
    );
}

#[test]
fn rule_2_5_crowning_on_a_step_and_during_a_series() {
    assert_eq!(
        after("3k4/6M1/8/8/8/8/8/4K3 w - 0 1", "g7h8"),
        "3k3T/8/8/8/8/8/8/4K3 b - 0 1"
    );
    // b6 jumps c7 to d8 and is crowned; as a Tama it flies on over g5 to h4
    // (as a man it could not reach g5).
    let lfen = "k7/2m5/1M6/6m1/8/8/8/4K3 w - 0 1";
    assert_eq!(moves(lfen), sorted("b6d8h4"));
    assert_eq!(after(lfen, "b6d8h4"), "k7/8/8/8/7T/8/8/4K3 b - 0 1");
}

// Part III ---------------------------------------------------------------

#[test]
fn rule_3_1_the_king_is_never_jumped_even_in_a_series() {
    // a3 jumps b4 to c5; the King on d6 next to it cannot be jumped.
    let lfen = "8/8/3k4/8/1m6/M7/8/4K3 w - 0 1";
    assert_eq!(moves(lfen), sorted("a3c5"));
    // ... and afterwards the man checks it (3.2 b).
    assert!(pos(lfen).after(pos(lfen).legal_moves()[0]).is_check());
}

#[test]
fn rule_3_1_no_chess_piece_captures_a_king() {
    // White has lost its King (5.1); its Rook faces the Black King.
    let m = moves("3k4/8/8/8/8/8/8/3R4 w - 0 1");
    assert!(!m.contains(&"d1d8".to_string()));
    assert_eq!(m.len(), 13); // d2-d7 and the rank: a1 b1 c1 e1 f1 g1 h1
}

#[test]
fn rule_3_2_check_by_a_man_and_its_evasions() {
    // The White man c5 threatens to jump d6 (e7 empty). Black may capture it
    // with the man d4 (backwards, to b6), fill e7 with the Knight, or move
    // the King, but not to d5 or e6 (White Knight f4) nor make the capture
    // g5xf4 that leaves the check standing (no obligation in check, 4.2.1).
    let lfen = "6n1/8/3k4/2M3m1/3m1N2/8/8/4K3 b - 0 1";
    assert!(pos(lfen).is_check());
    assert_eq!(
        moves(lfen),
        sorted("d4b6 g8e7 d6c5 d6c6 d6c7 d6d7 d6e5 d6e7")
    );
}

#[test]
fn rule_3_2_a_tama_checks_from_afar() {
    // Tama a7 on the King's diagonal, e3 beyond the King empty: check.
    // c5 and e3 stay on that diagonal; the other six squares are safe.
    let lfen = "3k4/t7/8/8/3K4/8/8/8 w - 0 1";
    assert!(pos(lfen).is_check());
    assert_eq!(moves(lfen), sorted("d4c3 d4c4 d4d3 d4d5 d4e4 d4e5"));
}

#[test]
fn rule_3_2_a_pinned_piece_still_gives_check() {
    // The White Rook e4 is pinned to its King h4 by the Queen a4, yet checks.
    assert!(pos("4k3/8/8/8/q3R2K/8/8/8 b - 0 1").is_check());
}

#[test]
fn rule_3_3_a_series_that_exposes_the_king_is_illegal_and_not_obligatory() {
    // c3xd4 would open the c-file to the Rook c8: illegal, so no capture is
    // obligatory; the man c3 is pinned too, so only the King moves.
    assert_eq!(
        moves("2r4k/8/8/8/3m4/2M5/8/2K5 w - 0 1"),
        sorted("c1b1 c1b2 c1c2 c1d1 c1d2")
    );
}

#[test]
fn rules_3_4_and_5_1_mate_removes_the_king_and_its_prisoner() {
    // Qh5-d1 mates the Black King d8 (holding a White man): Rooks c1 and e1
    // cover the c- and e-files, the man g7 shuts the Queen h8 in.
    let lfen = "K2[kM]3q/6m1/8/7Q/8/8/8/2R1R3 w - 0 1";
    let p = pos(lfen);
    let m = parse_move(&p, "h5d1").unwrap();
    assert_eq!(human(&p, m), "Qd1#");
    let next = p.after(m);
    // King and prisoner gone; the removal resets the clock (5.3).
    assert_eq!(next.to_lfen(), "K6q/6m1/8/8/8/8/8/2RQR3 b - 0 1");
    // The removal opened rank 8: the White King is now in check.
    assert!(next.is_king_attacked(Color::White));
    // Black plays on without a King: Queen 13 moves, man 2 (5.1).
    assert_eq!(
        moves_of(&next),
        sorted("h8g8 h8f8 h8e8 h8d8 h8c8 h8b8 h8h7 h8h6 h8h5 h8h4 h8h3 h8h2 h8h1 g7f6 g7h6")
    );
    // 5.4: under mate-ends-game the same move ends the game instead.
    let p = Position::from_lfen(lfen, Rules::MATE_ENDS_GAME).unwrap();
    let next = p.after(parse_move(&p, "h5d1").unwrap());
    assert!(next.is_mate());
    assert_eq!(next.board().king(Color::Black), Some(sq("d8")));
    let mut g = Game::new(p);
    g.play_text("Qd1").unwrap();
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            reason: WinReason::Mate
        })
    );
}

// Part IV ----------------------------------------------------------------

#[test]
fn rule_4_1_the_capture_table() {
    // Plain chess piece takes a chess piece: removed.
    assert_eq!(
        after("3k4/8/1n6/8/8/8/1R6/4K3 w - 0 1", "b2b6"),
        "3k4/8/1R6/8/8/8/8/4K3 b - 0 1"
    );
    // Plain chess piece takes a man: a construct forms.
    assert_eq!(
        after("3k4/8/8/8/8/4m3/8/2B1K3 w - 0 1", "c1e3"),
        "3k4/8/8/8/8/4[Bm]3/8/4K3 b - 0 1"
    );
    // Plain chess piece takes a construct: Absorption, both removed.
    assert_eq!(
        after("3k4/8/8/8/8/5[qM]2/8/4K1N1 w - 0 1", "g1f3"),
        "3k4/8/8/8/8/5N2/8/4K3 b - 0 1"
    );
    // A construct takes a chess piece: removed, the prisoner stays held.
    assert_eq!(
        after("r2k4/8/8/8/[Qm]7/8/8/4K3 w - 0 1", "a4a8"),
        "[Qm]2k4/8/8/8/8/8/8/4K3 b - 0 1"
    );
    // A construct takes a man: removed (a Captor holds one prisoner).
    assert_eq!(
        after("3k4/8/8/8/8/m7/8/[Rt]3K3 w - 0 1", "a1a3"),
        "3k4/8/8/8/8/[Rt]7/8/4K3 b - 0 1"
    );
    // A construct takes a construct: Absorption; it keeps its own prisoner.
    assert_eq!(
        after("3k4/8/8/8/8/8/8/[Rt]2[bM]K3 w - 0 1", "a1d1"),
        "3k4/8/8/8/8/8/8/3[Rt]K3 b - 0 1"
    );
    // A man jumps a chess piece: removed.
    assert_eq!(
        after("3k4/8/8/8/3n4/2M5/8/4K3 w - 0 1", "c3e5"),
        "3k4/8/8/4M3/8/8/8/4K3 b - 0 1"
    );
    // A man jumps a construct: Liberation. The Captor goes, the prisoner
    // stays and is White's again.
    assert_eq!(
        after("3k4/8/8/8/3[nM]4/2M5/8/4K3 w - 0 1", "c3e5"),
        "3k4/8/8/4M3/3M4/8/8/4K3 b - 0 1"
    );
}

#[test]
fn rule_4_2_a_legion_capture_is_compulsory() {
    // The Rook could capture nothing better: only c3xe5 is legal.
    assert_eq!(moves("3k4/8/8/8/3m4/2M5/8/R3K3 w Q 0 1"), sorted("c3e5"));
    // Any capture may be chosen, not the longest: a3xb4 takes one piece,
    // g3xf4xf6 two (from e5 it must go on over f6 to g7). Both are legal.
    assert_eq!(
        moves("3k4/8/5m2/8/1m3m2/M5M1/8/4K3 w - 0 1"),
        sorted("a3c5 g3e5g7")
    );
}

#[test]
fn rule_4_3_men_jump_backwards_and_must_go_on() {
    // The White man e5 jumps d4 backwards to c3.
    assert_eq!(moves("3k4/8/8/4M3/3m4/8/8/4K3 w - 0 1"), sorted("e5c3"));
    // Four men around d5: two paths round the square, one move (4.5),
    // through its own start square; written by the smaller path.
    let lfen = "3k4/8/1m1m4/8/1m1m4/2M5/8/4K3 w - 0 1";
    assert_eq!(moves(lfen), sorted("c3a5c7e5c3"));
    assert_eq!(after(lfen, "c3a5c7e5c3"), "3k4/8/8/8/8/2M5/8/4K3 b - 0 1");
    assert_eq!(
        after(lfen, "c3:e5:c7:a5:c3"),
        "3k4/8/8/8/8/2M5/8/4K3 b - 0 1"
    );
}

#[test]
fn rule_4_3_a_tama_lands_where_it_can_jump_again() {
    // Over c3 the Tama may land d4..h8, but only from e5 can it jump again
    // (over f4, to g3 or h2).
    assert_eq!(
        moves("k7/8/8/8/5m2/2m5/8/T5K1 w - 0 1"),
        sorted("a1e5g3 a1e5h2")
    );
}

#[test]
fn rule_4_3_a_piece_on_the_edge_cannot_be_jumped() {
    // The Knight a1 holds a White man on the edge: no square beyond it.
    assert_eq!(
        moves("3k4/8/8/8/8/8/1M6/[nM]3K3 w - 0 1"),
        sorted("b2a3 b2c3 e1d1 e1d2 e1e2 e1f1 e1f2")
    );
}

#[test]
fn rule_4_5_any_path_is_accepted_and_the_smallest_written() {
    let p = pos("3k4/8/1m1m4/8/1m1m4/2M5/8/4K3 w - 0 1");
    let a = parse_move(&p, "c3e5c7a5c3").unwrap();
    let b = parse_move(&p, "c3a5c7e5c3").unwrap();
    assert_eq!(a, b);
    assert_eq!(canonical(&p, a), "c3a5c7e5c3");
    assert_eq!(human(&p, a), "c3:a5:c7:e5:c3");
}

// Part V -----------------------------------------------------------------

#[test]
fn rule_5_2_no_legal_move_loses_even_without_check() {
    // Black King a8 not in check, every square covered by the Queen b6.
    let g = Game::new(pos("k7/8/1Q6/8/8/8/8/7K b - 0 1"));
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            reason: WinReason::NoLegalMove
        })
    );
}

// Part VI ----------------------------------------------------------------

#[test]
fn rule_6_3_separators_are_accepted() {
    let p = Position::initial();
    let m = parse_move(&p, "c3d4").unwrap();
    for text in ["c3-d4", "c3:d4", "c3xd4", " c3d4 "] {
        assert_eq!(parse_move(&p, text).unwrap(), m, "{text}");
    }
    assert_eq!(canonical(&p, parse_move(&p, "e1e2").unwrap()), "e1e2");
}

#[test]
fn rule_6_4_notation_for_people() {
    let p = pos("3k4/8/8/8/8/8/8/1N2KN2 w - 0 1");
    let names: Vec<String> = p.legal_moves().into_iter().map(|m| human(&p, m)).collect();
    // Both Knights reach d2: the file tells them apart.
    assert!(names.contains(&"Nbd2".to_string()) && names.contains(&"Nfd2".to_string()));
    assert!(names.contains(&"Nc3".to_string()) && names.contains(&"Ke2".to_string()));
    assert_eq!(parse_move(&p, "Nbd2").unwrap().from(), sq("b1"));
    assert!(parse_move(&p, "Nd2").is_err()); // ambiguous
    // Captures, checks, Legion moves.
    let p = pos("3k4/8/1n6/8/8/8/1R6/4K3 w - 0 1");
    assert_eq!(human(&p, parse_move(&p, "b2b6").unwrap()), "Rxb6");
    let p = pos("3k4/8/8/8/8/8/8/R3K3 w Q 0 1");
    assert_eq!(human(&p, parse_move(&p, "a1a8").unwrap()), "Ra8+");
    assert_eq!(human(&p, parse_move(&p, "e1c1").unwrap()), "O-O-O+");
    let p = Position::initial();
    assert_eq!(human(&p, parse_move(&p, "c3d4").unwrap()), "c3-d4");
}

// Part VII ---------------------------------------------------------------

#[test]
fn part_7_the_26_first_moves() {
    assert_eq!(
        moves(INITIAL_LFEN),
        sorted(
            "a3b4 c3b4 c3d4 e3d4 e3f4 g3f4 g3h4 g1e2 g1f3 g1h3 f1e2 f1d3 f1c4 f1b5 f1a6 f1g2 f1h3 \
             d1c2 d1b3 d1a4 d1e2 d1f3 d1g4 d1h5 e1e2 a1a2"
        )
    );
}

#[test]
fn part_7_perft() {
    let p = Position::initial();
    for (depth, nodes) in [(1, 26), (2, 670), (3, 18067), (4, 464157), (5, 12581553)] {
        assert_eq!(perft(&p, depth), nodes, "depth {depth}");
    }
}

/// 4.2 and 5.1 as the position tells them: who must capture, and the phase.
#[test]
fn rule_4_2_and_5_1_compulsory_capturers_and_phase() {
    let start = Position::from_lfen(legion_rules::INITIAL_LFEN, Rules::DEFAULT).unwrap();
    assert_eq!(start.phase(), 1);
    assert!(!start.is_capture_compulsory());
    // 1. c3-d4 b6-c5: the man on d4 must take c5 (4.2); nothing else may.
    let p = start.after(legion_rules::notation::parse_move(&start, "c3d4").unwrap());
    let p = p.after(legion_rules::notation::parse_move(&p, "b6c5").unwrap());
    let who: Vec<String> = p
        .compulsory_capturers()
        .into_iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(who, vec!["d4"]);
    assert!(p.is_capture_compulsory());
    // A side without its King plays Phase 2 (5.1).
    let no_black_king = Position::from_lfen("8/2m5/8/8/8/8/8/4K3 b - 0 1", Rules::DEFAULT).unwrap();
    assert_eq!(no_black_king.phase(), 2);
}
