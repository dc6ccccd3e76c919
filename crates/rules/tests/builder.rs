//! The position builder against the LFEN reader (6.2): the same position
//! given piece by piece or as text is accepted or refused alike, with the
//! same error, and built positions equal read ones.
//!
//! The builder calls here come from a small reader of this file's own,
//! not from the library's, so a check missing on either side shows.

use legion_rules::castling::{CastlingRights, CastlingSide};
use legion_rules::{
    Color, LfenError, MAX_COUNTER, Piece, Position, PositionBuilder, Role, Rules, Square,
};

/// The builder calls that an LFEN stands for. Panics on text that is not
/// well formed: only what the builder can be told is compared here.
fn builder_for(lfen: &str, rules: Rules) -> PositionBuilder {
    let fields: Vec<&str> = lfen.split(' ').collect();
    let mut b = PositionBuilder::new();
    for (i, rank) in fields[0].split('/').enumerate() {
        let r = 7 - i as u8;
        let mut f = 0u8;
        let mut chars = rank.chars();
        while let Some(c) = chars.next() {
            let sq = Square::new(r * 8 + f);
            if let Some(d) = c.to_digit(10) {
                f += d as u8;
            } else if c == '[' {
                let captor = Piece::from_char(chars.next().unwrap()).unwrap();
                let prisoner = Piece::from_char(chars.next().unwrap()).unwrap();
                assert_eq!(chars.next(), Some(']'));
                b.construct(sq, captor, prisoner);
                f += 1;
            } else {
                b.piece(sq, Piece::from_char(c).unwrap());
                f += 1;
            }
        }
    }
    b.turn(if fields[1] == "w" {
        Color::White
    } else {
        Color::Black
    });
    let mut rights = CastlingRights::NONE;
    for c in fields[2].chars().filter(|&c| c != '-') {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let side = if c.eq_ignore_ascii_case(&'k') {
            CastlingSide::Short
        } else {
            CastlingSide::Long
        };
        rights.set(color, side);
    }
    b.castling(rights);
    if let Some(n) = fields.get(3) {
        b.halfmove_clock(n.parse().unwrap());
    }
    if let Some(n) = fields.get(4) {
        b.fullmove_number(n.parse().unwrap());
    }
    b.rules(rules);
    b
}

fn same(lfen: &str) -> Result<Position, LfenError> {
    for rules in [Rules::DEFAULT, Rules::MATE_ENDS_GAME] {
        let read = Position::from_lfen(lfen, rules);
        let built = builder_for(lfen, rules).build();
        assert_eq!(built, read, "{lfen} under {}", rules.name());
        if let Ok(p) = &built {
            assert_eq!(p.hash(), read.as_ref().unwrap().hash(), "{lfen}");
            assert_eq!(p.checkers(), read.as_ref().unwrap().checkers(), "{lfen}");
            // And back: a position's builder builds it again.
            assert_eq!(PositionBuilder::from(p).build().as_ref(), Ok(p), "{lfen}");
        }
    }
    Position::from_lfen(lfen, Rules::DEFAULT)
}

#[test]
fn valid_positions_are_built_as_they_are_read() {
    for lfen in [
        legion_rules::INITIAL_LFEN,
        "3k4/8/8/2[Qm]5/8/8/8/4K2[nT] w - 3 20",
        "2r1k2r/3b4/1q[nM]2n2/m1m1m3/3M1M1t/2N2B2/1T1QB3/R3K2R w KQ 0 1",
        "r2k3r/m1[Bm]1m1m1/8/2M1t3/5[qT]2/2M1M3/1M3M2/R3K1NR b KQkq 0 12",
        "3k2[Nm]1/8/8/8/8/8/8/4K3 w - 0 1",
        "1[rM]1k4/8/8/8/8/8/8/4K3 w - 0 1",
        // Phase 2: no White King; the waiting side may then be in check.
        "3k4/8/8/8/8/8/8/3R4 w - 0 1",
        "8/8/8/8/3k4/2M5/8/8 w - 0 1",
        // A mated side to move loses its King under default rules (5.1).
        "3k3R/7R/8/8/8/8/8/4K3 b - 5 40",
        "3k4/8/8/8/8/8/8/4K3 w - 999999999 999999999",
    ] {
        assert!(same(lfen).is_ok(), "{lfen}");
    }
}

/// Every check of 6.2 that is about what is placed, not how it is written:
/// the builder refuses it with the same error as the reader.
#[test]
fn every_invalid_position_is_refused_alike() {
    type Expected = fn(&LfenError) -> bool;
    let cases: [(&str, Expected); 14] = [
        // 1.5: a prisoner that is not an enemy man or Tama.
        ("3k4/8/8/2[QM]5/8/8/8/4K3 w - 0 1", |e| {
            matches!(e, LfenError::BadPrisoner { letter: 'M', .. })
        }),
        ("3k4/8/8/2[Qn]5/8/8/8/4K3 w - 0 1", |e| {
            matches!(e, LfenError::BadPrisoner { letter: 'n', .. })
        }),
        // 1.5: a Captor that is not a chess piece.
        ("3k4/8/8/2[Mm]5/8/8/8/4K3 w - 0 1", |e| {
            matches!(e, LfenError::CaptorNotChess { letter: 'M', .. })
        }),
        ("3k4/8/8/2[Tn]5/8/8/8/4K3 w - 0 1", |e| {
            matches!(e, LfenError::CaptorNotChess { .. })
        }),
        // 1.4: a free Legion piece on a light square.
        ("3k4/8/8/8/8/8/8/1M2K3 w - 0 1", |e| {
            matches!(e, LfenError::LegionOnLightSquare { .. })
        }),
        ("3k4/8/8/8/4t3/8/8/4K3 w - 0 1", |e| {
            matches!(e, LfenError::LegionOnLightSquare { .. })
        }),
        // 2.5: a free man on its own far rank.
        ("3k3M/8/8/8/8/8/8/4K3 w - 0 1", |e| {
            matches!(e, LfenError::ManOnFarRank { .. })
        }),
        ("3k4/8/8/8/8/8/8/m3K3 w - 0 1", |e| {
            matches!(e, LfenError::ManOnFarRank { .. })
        }),
        // 1.3: two Kings of one side.
        ("3k4/8/8/8/8/8/8/K3K3 w - 0 1", |e| {
            matches!(e, LfenError::TooManyKings(Color::White))
        }),
        // 2.2: a castling right without unmoved King and Rook at home.
        ("3k4/8/8/8/8/8/8/4K3 w K 0 1", |e| {
            matches!(e, LfenError::CastlingWithoutPieces { right: 'K', .. })
        }),
        ("r2k4/8/8/8/8/8/8/4K3 w q 0 1", |e| {
            matches!(e, LfenError::CastlingWithoutPieces { right: 'q', .. })
        }),
        ("3k4/8/8/8/8/8/8/4K2[Rm] w K 0 1", |e| {
            matches!(e, LfenError::CastlingWithoutPieces { .. })
        }),
        // 3.3: the side not to move in check while the side to move has a King.
        ("3k4/8/8/8/8/8/8/3RK3 w - 0 1", |e| {
            matches!(e, LfenError::WaitingSideInCheck(Color::Black))
        }),
        // 6.2: the full-move number starts at 1.
        ("3k4/8/8/8/8/8/8/4K3 w - 0 0", |e| {
            matches!(e, LfenError::BadFullmoveNumber(_))
        }),
    ];
    for (lfen, expected) in cases {
        let err = same(lfen).unwrap_err();
        assert!(expected(&err), "{lfen}: {err}");
    }
}

/// The counters' bound: what LFEN cannot write, the builder refuses.
#[test]
fn counters_stay_within_what_lfen_can_write() {
    let kings = |b: &mut PositionBuilder| {
        b.piece("e1".parse().unwrap(), Piece::new(Color::White, Role::King))
            .piece("d8".parse().unwrap(), Piece::new(Color::Black, Role::King));
    };
    let mut b = PositionBuilder::new();
    kings(&mut b);
    b.halfmove_clock(MAX_COUNTER).fullmove_number(MAX_COUNTER);
    let p = b.build().unwrap();
    assert_eq!(Position::from_lfen(&p.to_lfen(), Rules::DEFAULT), Ok(p));
    b.halfmove_clock(MAX_COUNTER + 1);
    assert!(matches!(b.build(), Err(LfenError::BadHalfmoveClock(_))));
    b.halfmove_clock(0).fullmove_number(MAX_COUNTER + 1);
    assert!(matches!(b.build(), Err(LfenError::BadFullmoveNumber(_))));
    assert!(matches!(
        Position::from_lfen("3k4/8/8/8/8/8/8/4K3 w - 1000000000 1", Rules::DEFAULT),
        Err(LfenError::BadHalfmoveClock(_))
    ));
}

/// A square holds one piece or one construct (1.5): placing again
/// replaces, and clearing empties.
#[test]
fn placing_twice_replaces() {
    let sq = |s: &str| s.parse::<Square>().unwrap();
    let mut b = PositionBuilder::new();
    b.piece(sq("e1"), Piece::new(Color::White, Role::King))
        .piece(sq("d8"), Piece::new(Color::Black, Role::King))
        .piece(sq("c5"), Piece::new(Color::White, Role::Rook))
        .construct(
            sq("c5"),
            Piece::new(Color::White, Role::Queen),
            Piece::new(Color::Black, Role::Tama),
        );
    assert_eq!(
        b.build().unwrap().to_lfen(),
        "3k4/8/8/2[Qt]5/8/8/8/4K3 w - 0 1"
    );
    b.clear(sq("c5"));
    assert_eq!(b.build().unwrap().to_lfen(), "3k4/8/8/8/8/8/8/4K3 w - 0 1");
}
