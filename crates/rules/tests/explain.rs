//! Why moves are illegal: each attempt gets the rule it breaks and the
//! pieces and squares involved. Expected reasons worked out from RULES.md.

use legion_rules::explain::{Illegal, find_move};
use legion_rules::notation::parse_squares;
use legion_rules::{Position, Rules};

fn why(lfen: &str, attempt: &str) -> Illegal {
    let p = Position::from_lfen(lfen, Rules::DEFAULT).unwrap();
    let squares = parse_squares(attempt).unwrap();
    match find_move(&p, &squares) {
        Ok(m) => panic!("{attempt} is legal in {lfen}: {m:?}"),
        Err(e) => e,
    }
}

const START: &str = legion_rules::INITIAL_LFEN;

#[test]
fn movement_rules_of_each_piece() {
    let e = why(START, "e4e5");
    assert_eq!(e.to_string(), "1.2: there is no piece on e4");
    let e = why(START, "b6a5");
    assert_eq!(
        e.to_string(),
        "1.2: the man on b6 is Black's; it is White's turn"
    );
    let e = why(START, "g1g3");
    assert!(matches!(e, Illegal::CannotReach { .. }));
    assert!(
        e.to_string()
            .starts_with("2.1: the Knight on g1 cannot reach g3"),
        "{e}"
    );
    let e = why(START, "a1a4");
    assert_eq!(
        e.to_string(),
        "2.1: the Rook on a1 cannot reach a4: a3 is in the way"
    );
    let e = why(START, "d1d2");
    assert_eq!(
        e.to_string(),
        "2.1: the Queen on d1 cannot go to d2: the man on d2 is your own"
    );
    let e = why(START, "c3c4");
    assert!(matches!(e, Illegal::LegionOffDiagonal { .. }), "{e}");
    let e = why(START, "c3e5");
    assert!(matches!(e, Illegal::ManTooFar { .. }), "{e}");
    assert!(
        e.to_string()
            .starts_with("2.4: the man on c3 cannot go to e5")
    );
}

#[test]
fn a_man_moves_only_forward() {
    // After c3-d4 h6-g5, the man d4 may not step back to c3.
    let lfen = "rnbkqbnr/m1m1m1m1/1m1m1m2/6m1/3M4/M3M1M1/1M1M1M1M/RNBQKBNR w KQkq 0 2";
    let e = why(lfen, "d4c3");
    assert!(matches!(e, Illegal::ManBackward { .. }), "{e}");
    assert!(
        e.to_string()
            .starts_with("2.4: the man on d4 cannot go to c3: a man moves only forward")
    );
}

#[test]
fn the_capture_obligation_lists_the_captures() {
    // After c3-d4 f6-e5 White must take: d4xf6.
    let lfen = "rnbkqbnr/m1m1m1m1/1m1m3m/4m3/3M4/M3M1M1/1M1M1M1M/RNBQKBNR w KQkq 0 2";
    let e = why(lfen, "g1f3");
    assert_eq!(e.to_string(), "4.2: a Legion capture is mandatory: d4:f6");
    let e = why(lfen, "a3b4");
    assert_eq!(e.to_string(), "4.2: a Legion capture is mandatory: d4:f6");
}

#[test]
fn moves_that_expose_or_keep_the_king_in_check() {
    // The man c3 shields the King c1 from the Rook c8.
    let lfen = "2r4k/8/8/8/3m4/2M5/8/2K5 w - 0 1";
    let e = why(lfen, "c3b4");
    assert_eq!(
        e.to_string(),
        "3.3: your King on c1 would be in check from the Rook on c8"
    );
    let e = why(lfen, "c3e5");
    assert_eq!(
        e.to_string(),
        "3.3: your King on c1 would be in check from the Rook on c8"
    );
    // In check from a man's jump threat, a move elsewhere does not help.
    let lfen = "6n1/8/3k4/2M3m1/3m1N2/8/8/4K3 b - 0 1";
    let e = why(lfen, "g5e3");
    assert_eq!(
        e.to_string(),
        "4.2: your King on d6 is in check from the man on c5; the move must end the check"
    );
    let e = why(lfen, "d6e6");
    assert_eq!(
        e.to_string(),
        "3.3: your King on e6 would be in check from the Knight on f4"
    );
}

#[test]
fn series_must_be_complete_and_land_where_they_can_go_on() {
    let lfen = "k7/8/8/8/5m2/2m5/8/T5K1 w - 0 1";
    let e = why(lfen, "a1e5");
    assert_eq!(
        e.to_string(),
        "4.3: the series must go on: from e5 the piece can jump again (e5:g3 or e5:h2)"
    );
    let e = why(lfen, "a1d4");
    assert_eq!(
        e.to_string(),
        "4.3: the Tama may not stop on d4: it must land where it can jump again (e5)"
    );
    let e = why(lfen, "a1f6");
    assert!(matches!(e, Illegal::TamaMustLandToContinue { .. }), "{e}");
    // A man's series stopped early.
    let lfen = "3k4/8/1m1m4/8/1m1m4/2M5/8/4K3 w - 0 1";
    let e = why(lfen, "c3a5");
    assert!(matches!(e, Illegal::SeriesMustContinue { .. }), "{e}");
}

#[test]
fn jumps_that_break_rule_4_3() {
    // Own piece in the way.
    let e = why(START, "b2d4");
    assert!(
        matches!(
            e,
            Illegal::LandingOccupied { .. } | Illegal::JumpOwnPiece { .. }
        ),
        "{e}"
    );
    // Nothing to jump: the man c3 over the empty d4.
    let lfen = "3k4/8/8/8/8/2M5/8/4K3 w - 0 1";
    let e = why(lfen, "c3e5");
    assert!(e.to_string().starts_with("2.4:"), "{e}");
    // A King can never be jumped (White has lost its own King here, so the
    // Black King may stand in its threat while White is to move).
    let e = why("8/8/8/8/3k4/2M5/8/8 w - 0 1", "c3e5");
    assert_eq!(
        e.to_string(),
        "3.1: from c3 to e5 would jump the King on d4: the King can never be jumped"
    );
    // A jump needs an empty landing square.
    let e = why("3k4/8/8/4n3/3m4/2M5/8/4K3 w - 0 1", "c3e5");
    assert_eq!(
        e.to_string(),
        "4.3: a jump must land on an empty square, and e5 is occupied"
    );
}

#[test]
fn a_king_is_never_captured() {
    let e = why("3k4/8/8/8/8/8/8/3R4 w - 0 1", "d1d8");
    assert_eq!(
        e.to_string(),
        "3.1: the King on d8 is a King: a King is never captured (that is check)"
    );
}

#[test]
fn castling_reasons() {
    let e = why("3k4/8/8/8/8/8/8/R3K2R w Q 0 1", "e1g1");
    assert_eq!(
        e.to_string(),
        "2.2: White may no longer castle short: the King or that Rook has moved"
    );
    let e = why("3k4/8/8/8/8/8/8/RN2K2R w KQ 0 1", "e1c1");
    assert_eq!(
        e.to_string(),
        "2.2: castling needs every square between King and Rook empty, and b1 is not"
    );
    let e = why("3kr3/8/8/8/8/8/8/R3K2R w KQ 0 1", "e1g1");
    assert_eq!(e.to_string(), "2.2: the King may not castle out of check");
    let e = why("3k1r2/8/8/8/8/8/8/R3K2R w KQ 0 1", "e1g1");
    assert_eq!(
        e.to_string(),
        "2.2: the King may not castle over or onto f1: it is attacked"
    );
}

#[test]
fn the_game_over_is_reported() {
    let e = why("k7/8/1Q6/8/8/8/8/7K b - 0 1", "a8b8");
    assert_eq!(
        e.to_string(),
        "5.2: Black has no legal move: the game is over"
    );
}

#[test]
fn start_and_end_of_a_series_suffice_when_unique() {
    let p = Position::from_lfen("3k4/8/1m1m4/8/1m1m4/2M5/8/4K3 w - 0 1", Rules::DEFAULT).unwrap();
    let m = find_move(&p, &parse_squares("c3c3").unwrap());
    assert!(m.is_ok(), "{m:?}");
}

/// A move written for people is explained by the rule the meant move
/// breaks, as the same move given by its squares is.
#[test]
fn moves_for_people_are_explained_like_their_squares() {
    use legion_rules::MoveParseError;
    use legion_rules::notation::parse_move;
    // After 1. c3-d4 b6-c5 the man on d4 must take c5 (4.2): the Knight
    // on g1 reaches f3, but may not go there.
    let p = Position::from_lfen(START, Rules::DEFAULT).unwrap();
    let p = p.after(parse_move(&p, "c3d4").unwrap());
    let p = p.after(parse_move(&p, "b6c5").unwrap());
    let typed = match parse_move(&p, "Nf3") {
        Err(MoveParseError::Illegal(e)) => e,
        other => panic!("{other:?}"),
    };
    let clicked = find_move(&p, &parse_squares("g1f3").unwrap()).unwrap_err();
    assert_eq!(typed, clicked);
    assert_eq!(typed.rule(), "4.2");
    assert!(matches!(typed, Illegal::CaptureObligation { .. }));
    // Neither Knight reaches e4: that is how Knights move (2.1).
    let e = match parse_move(&p, "Ne4") {
        Err(MoveParseError::Illegal(e)) => e,
        other => panic!("{other:?}"),
    };
    assert_eq!(e.to_string(), "2.1: none of your Knights can move to e4");
    // A piece the side does not have there.
    let e = parse_move(&p, "Nc1d3").unwrap_err();
    assert_eq!(e.rule(), "1.3");
}

/// A Tama slides only through empty squares (2.4): through its own man it
/// is blocked, not making a jump (4.3).
#[test]
fn a_tama_is_blocked_by_its_own_pieces() {
    let e = why("3k4/8/8/8/8/8/3M4/2T1K3 w - 0 1", "c1e3");
    assert!(
        matches!(e, Illegal::TamaBlocked { blocker, .. } if blocker.to_string() == "d2"),
        "{e:?}"
    );
    assert_eq!(e.rule(), "2.4");
    // Over one enemy man it is a jump, with the jump's rules (here fine
    // but for the landing: e3 is taken).
    let e = why("3k4/8/8/8/8/4m3/3m4/2T1K3 w - 0 1", "c1e3");
    assert_eq!(e.rule(), "4.3", "{e}");
}

/// With nothing to jump between its squares, a Legion piece's move is a
/// move without capture (2.4): to an occupied square it is no move, not a
/// jump that lands badly (4.3). Found by the property test of
/// `tests/explanations.rs`.
#[test]
fn a_legion_piece_moves_only_to_empty_squares() {
    // The man b2 back onto its own Bishop on c1.
    let e = why(START, "b2c1");
    assert!(matches!(e, Illegal::LegionTargetOccupied { .. }), "{e:?}");
    assert_eq!(
        e.to_string(),
        "2.4: the man on b2 cannot go to c1: it is occupied, and a Legion piece moves only to an empty square (it captures by jumping over a piece, 4.3)"
    );
    // Forward onto an enemy man: it must jump it, not step on it.
    let e = why("3k4/8/8/8/3m4/2M5/8/4K3 w - 0 1", "c3d4");
    assert!(matches!(e, Illegal::LegionTargetOccupied { .. }), "{e:?}");
    // A Tama onto a piece with nothing between.
    let e = why("3k4/8/8/8/8/4n3/8/2T1K3 w - 0 1", "c1e3");
    assert_eq!(e.rule(), "2.4", "{e}");
}

/// A series is judged leg by leg (4.3), even when its start and end are
/// not on one diagonal (`c3:e5:g3` is a fine shape for a series).
#[test]
fn a_series_is_not_judged_by_its_ends() {
    let e = why(START, "c3e5g3");
    assert!(matches!(e, Illegal::NothingToJump { .. }), "{e:?}");
    assert_eq!(e.rule(), "4.3");
}

/// Castling written for people without the right is refused by 2.2, also
/// when the King has left its square.
#[test]
fn castling_without_the_right_is_rule_2_2() {
    use legion_rules::notation::parse_move;
    let p = Position::from_lfen(
        "r2k1bnr/m1m3m1/1m1m3m/2m3m1/1M5N/Mq1nM1M1/1M1M1MBM/RNBQ1K1R w kq 0 9",
        Rules::DEFAULT,
    )
    .unwrap();
    let e = parse_move(&p, "O-O").unwrap_err();
    assert_eq!(
        e.to_string(),
        "2.2: White may no longer castle short: the King or that Rook has moved"
    );
}

/// When the game is over that is the reason, whatever the move names.
#[test]
fn no_legal_move_comes_before_the_piece_named() {
    use legion_rules::notation::parse_move;
    let p = Position::from_lfen("8/8/8/2M3M1/3R3M/2M5/8/T1K3NR b - 0 37", Rules::DEFAULT).unwrap();
    let e = parse_move(&p, "Kb1").unwrap_err();
    assert_eq!(e.rule(), "5.2", "{e}");
}
