//! Properties that must hold in every position reached by play, and
//! parsers that must never panic whatever they are given.

use proptest::prelude::*;

use legion_rules::explain::{Illegal, Placed, find_move};
use legion_rules::notation::{canonical, human, parse_move};
use legion_rules::{Game, MoveKind, Position, PositionBuilder, Record, Rules, Square};

/// What a refusal says about the board is true of it: the pieces it names
/// stand where it says, the side it blames is the right one, the captures
/// it demands are legal captures, the pieces giving check are the enemy's.
fn fits_the_board(pos: &Position, from: Square, e: &Illegal) {
    let board = pos.board();
    let stands = |p: &Placed| assert_eq!(board.occupant(p.square), Some(p.occupant), "{e}");
    let enemy = |p: &Placed| {
        stands(p);
        assert_ne!(p.occupant.piece.color, pos.turn(), "{e}");
    };
    match e {
        Illegal::NoLegalMove { color } => {
            assert_eq!(*color, pos.turn());
            assert!(!pos.has_legal_move());
        }
        Illegal::EmptySquare { square } => {
            assert_eq!(*square, from);
            assert_eq!(board.occupant(from), None);
        }
        Illegal::NotYourPiece { piece, turn } => {
            assert_eq!((piece.square, *turn), (from, pos.turn()));
            enemy(piece);
        }
        Illegal::CannotReach { piece, .. }
        | Illegal::PathBlocked { piece, .. }
        | Illegal::ChessPieceMultiStep { piece }
        | Illegal::LegionOffDiagonal { piece, .. }
        | Illegal::ManBackward { piece, .. }
        | Illegal::ManTooFar { piece, .. }
        | Illegal::TamaBlocked { piece, .. }
        | Illegal::LegionTargetOccupied { piece, .. } => {
            assert_eq!(piece.square, from, "{e}");
            stands(piece);
            assert_eq!(piece.occupant.piece.color, pos.turn(), "{e}");
        }
        Illegal::OwnPieceOnTarget { piece, target } => {
            stands(piece);
            stands(target);
            assert_eq!(target.occupant.piece.color, pos.turn(), "{e}");
        }
        Illegal::KingCannotBeCaptured { target } => {
            enemy(target);
            assert_eq!(target.occupant.piece.role, legion_rules::Role::King);
        }
        Illegal::CastlingOutOfCheck => assert!(pos.is_check()),
        Illegal::CaptureObligation { captures } => {
            assert!(!pos.is_check() && !captures.is_empty(), "{e}");
            for c in captures {
                let m = parse_move(pos, c).unwrap();
                assert_eq!(m.kind(), MoveKind::Jump, "{e}");
            }
        }
        Illegal::StillInCheck { king, attackers } => {
            assert!(pos.is_check(), "{e}");
            assert_eq!(board.king(pos.turn()), Some(*king), "{e}");
            assert!(!attackers.is_empty(), "{e}");
            attackers.iter().for_each(|a| {
                enemy(a);
                assert!(pos.checkers().contains(a.square), "{e}");
            });
        }
        Illegal::ExposesKing { attackers, .. } => {
            assert!(board.king(pos.turn()).is_some(), "{e}");
            assert!(!attackers.is_empty(), "{e}");
            attackers
                .iter()
                .for_each(|a| assert_ne!(a.occupant.piece.color, pos.turn(), "{e}"));
        }
        _ => {}
    }
}

/// Plays the game chosen by `choices` (each picks among the legal moves),
/// checking the invariants at every position.
fn check_game(start: Position, choices: &[u16], explain_sample: usize) {
    let mut game = Game::new(start);
    for (ply, &c) in choices.iter().enumerate() {
        let pos = *game.position();
        // The incremental hash is the hash from scratch.
        assert_eq!(pos.hash(), pos.compute_hash(), "{pos}");
        // LFEN writes and reads back the same position; so does the builder.
        let back = Position::from_lfen(&pos.to_lfen(), pos.rules()).unwrap();
        assert_eq!(back, pos);
        assert_eq!(back.hash(), pos.hash());
        assert_eq!(PositionBuilder::from(&pos).build(), Ok(pos));
        let moves = pos.legal_moves();
        // The generator's other modes agree with the full list.
        assert_eq!(pos.has_legal_move(), !moves.is_empty());
        let mut noisy = legion_rules::MoveList::new();
        pos.noisy_moves_into(&mut noisy);
        let forced = moves
            .iter()
            .any(|m| m.kind() == legion_rules::MoveKind::Jump);
        let mut expected: Vec<_> = moves
            .iter()
            .copied()
            .filter(|m| pos.is_check() || forced || m.is_capture() || m.crowns())
            .collect();
        let mut got: Vec<_> = noisy.to_vec();
        expected.sort();
        got.sort();
        assert_eq!(got, expected, "noisy moves of {pos}");
        // The Legion captures alone are the full list's jumps; out of
        // check, when there are any, they are the whole list (4.2.2).
        let mut captures = legion_rules::MoveList::new();
        let n = pos.legion_captures_into(&mut captures);
        assert_eq!(n, captures.len());
        let mut got: Vec<_> = captures.to_vec();
        let mut jumps: Vec<_> = moves
            .iter()
            .copied()
            .filter(|m| m.kind() == legion_rules::MoveKind::Jump)
            .collect();
        got.sort();
        jumps.sort();
        assert_eq!(got, jumps, "Legion captures of {pos}");
        if !pos.is_check() && n > 0 {
            assert_eq!(n, moves.len(), "compulsory captures of {pos}");
        }
        // Both notations name each move and read back to it.
        for &m in &moves {
            assert_eq!(parse_move(&pos, &canonical(&pos, m)).unwrap(), m, "{pos}");
            assert_eq!(
                parse_move(&pos, &human(&pos, m)).unwrap(),
                m,
                "{pos} {}",
                human(&pos, m)
            );
        }
        // Every other pair of squares is refused with a reason.
        for i in 0..explain_sample {
            let from = Square::new(((c as usize * 7 + i * 13) % 64) as u8);
            let to = Square::new(((c as usize * 11 + i * 29 + ply) % 64) as u8);
            if from == to {
                continue;
            }
            match find_move(&pos, &[from, to]) {
                Ok(m) => assert!(moves.contains(&m)),
                Err(e) => {
                    // No legal move joins the two squares, and the reason
                    // fits the board (which rule it is, the independent
                    // judge of tests/explanations.rs checks).
                    assert!(!moves.iter().any(|m| m.from() == from
                        && m.to() == to
                        && m.kind() != legion_rules::MoveKind::Jump));
                    fits_the_board(&pos, from, &e);
                }
            }
        }
        if moves.is_empty() || game.outcome().is_some() {
            break;
        }
        let m = moves[c as usize % moves.len()];
        game.play(m).unwrap();
        // Undo restores the position exactly.
        let mut copy = game.clone();
        copy.undo();
        assert_eq!(*copy.position(), pos);
        assert_eq!(copy.position().hash(), pos.hash());
    }
    // A record of the game reads back to the same moves.
    let text = Record::new(game.clone()).write();
    let back = Record::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(back.game.moves(), game.moves());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

    #[test]
    fn games_from_the_start_keep_every_invariant(choices in prop::collection::vec(any::<u16>(), 0..200), mate in any::<bool>()) {
        let rules = if mate { Rules::MATE_ENDS_GAME } else { Rules::DEFAULT };
        check_game(Position::initial_with(rules), &choices, 8);
    }

    #[test]
    fn games_from_busy_positions_keep_every_invariant(choices in prop::collection::vec(any::<u16>(), 0..60), which in 0usize..6) {
        let starts = [
            "2r1k2r/3b4/1q[nM]2n2/m1m1m3/3M1M1t/2N2B2/1T1QB3/R3K2R w KQ 0 1",
            "r2k3r/m1[Bm]1m1m1/8/2M1t3/5[qT]2/2M1M3/1M3M2/R3K1NR b KQkq 0 12",
            "K2[kM]3q/6m1/8/7Q/8/8/8/2R1R3 w - 0 1",
            "1m1m1m1m/m1m1m1m1/1m1m1m1m/8/8/M1M1M1M1/1M1M1M1M/M1M1M1M1 w - 0 1",
            "k7/8/8/8/5m2/2m5/8/T5K1 w - 0 1",
            "6n1/8/3k4/2M3m1/3m1N2/8/8/4K3 b - 0 1",
        ];
        let start = Position::from_lfen(starts[which], Rules::DEFAULT).unwrap();
        check_game(start, &choices, 16);
    }

    #[test]
    fn lfen_reader_never_panics(s in "\\PC{0,80}") {
        let _ = Position::from_lfen(&s, Rules::DEFAULT);
    }

    #[test]
    fn lfen_like_input_never_panics(s in "[KQRBNMTkqrbnmt1-9/\\[\\] wb-]{0,90}", clocks in "( [0-9-]{0,12}){0,3}") {
        let text = format!("{s}{clocks}");
        if let Ok(p) = Position::from_lfen(&text, Rules::DEFAULT) {
            // Whatever is accepted writes out as a valid LFEN again.
            prop_assert!(Position::from_lfen(&p.to_lfen(), Rules::DEFAULT).is_ok());
            let _ = p.legal_moves();
        }
    }

    #[test]
    fn move_readers_never_panic(s in "\\PC{0,24}", t in "[a-hx:\\-1-8KQRBNO0+#]{0,20}") {
        let p = Position::initial();
        let _ = parse_move(&p, &s);
        let _ = parse_move(&p, &t);
        let busy = Position::from_lfen("2r1k2r/3b4/1q[nM]2n2/m1m1m3/3M1M1t/2N2B2/1T1QB3/R3K2R w KQ 0 1", Rules::DEFAULT).unwrap();
        let _ = parse_move(&busy, &t);
    }

    #[test]
    fn record_reader_never_panics(s in "\\PC{0,200}", t in "(\\[[A-Za-z]{1,6} \"[^\"]{0,12}\"\\]\n){0,3}([0-9]{1,2}\\.{1,3} ?[a-hx:\\-1-8KQRBNO{}() ]{0,12} ?){0,6}(1-0|0-1|\\*)?") {
        let _ = Record::parse(&s);
        let _ = Record::parse(&t);
        let _ = Record::parse_many(&t);
    }
}
