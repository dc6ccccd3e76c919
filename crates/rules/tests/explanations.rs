//! Explanations name the rule the intended move really breaks.
//!
//! In positions reached by random legal play (from the initial position
//! and from set-ups with constructs, Tamas and a missing King, under both
//! rule options), random attempted moves are explained by the library
//! (`find_move`, `parse_move`, `try_play`) and judged independently by
//! `tests/reference/judge.rs`, written from RULES.md on the reference
//! board: the library's reason must be one the judge finds, down to the
//! kind of reason, the compulsory captures and the pieces giving check.

mod reference;

use proptest::prelude::*;

use legion_rules::explain::{Illegal, find_move};
use legion_rules::notation::{canonical, human, legion_path, parse_move};
use legion_rules::{Move, MoveKind, MoveParseError, Position, Rules, Square};
use reference::judge::{Judge, Reason, Verdict};
use reference::rng::Rng;

const SEEDS: [&str; 11] = [
    legion_rules::INITIAL_LFEN,
    "2r1k2r/3b4/1q[nM]2n2/m1m1m3/3M1M1t/2N2B2/1T1QB3/R3K2R w KQ 0 1",
    "r2k3r/m1[Bm]1m1m1/8/2M1t3/5[qT]2/2M1M3/1M3M2/R3K1NR b KQkq 0 12",
    "K2[kM]3q/6m1/8/7Q/8/8/8/2R1R3 w - 0 1",
    "k7/8/8/8/5m2/2m5/8/T5K1 w - 0 1",
    "6n1/8/3k4/2M3m1/3m1N2/8/8/4K3 b - 0 1",
    // Phase 2: White has lost its King (5.1).
    "r2k3r/m1m1m1m1/1m1m1m1m/8/8/M1M1M1M1/1M1M1M1M/1N1Q1BN1 w kq 0 20",
    // Phase 2: Black has lost its King; constructs and Tamas about.
    "8/m1[Bm]1m3/8/2M1t3/8/2M1M3/1T3M2/R3K1NR w KQ 0 30",
    // Phase 2: White, without its King, attacks the Black King (3.1).
    "3k4/m1m3m1/8/8/8/8/1M3M2/3R1B2 w - 0 60",
    // Tamas on long diagonals, men near crowning, constructs either side.
    "3k4/2M3t1/8/2[Rm]5/8/T4[nM]2/3m4/4K3 w - 0 40",
    "1m1k4/8/5t2/8/3T4/8/1m5M/4K3 b - 0 50",
];

/// The judge's kind of reason for a library explanation.
fn reason(e: &Illegal) -> Reason {
    use Illegal::*;
    let squares = |v: &[legion_rules::explain::Placed]| {
        let mut s: Vec<String> = v.iter().map(|p| p.square.to_string()).collect();
        s.sort();
        s
    };
    match e {
        TooFewSquares => panic!("every attempt names two squares"),
        NoLegalMove { .. } => Reason::NoLegalMove,
        EmptySquare { .. } => Reason::EmptySquare,
        NotYourPiece { .. } => Reason::NotYourPiece,
        ChessPieceMultiStep { .. } => Reason::ChessMultiStep,
        CannotReach { .. } | PathBlocked { .. } | OwnPieceOnTarget { .. } => Reason::ChessMovement,
        KingCannotBeCaptured { .. } => Reason::KingTarget,
        CastlingRightLost { .. }
        | CastlingBlocked { .. }
        | CastlingOutOfCheck
        | CastlingThroughAttack { .. } => Reason::Castling,
        LegionOffDiagonal { .. }
        | ManBackward { .. }
        | ManTooFar { .. }
        | TamaBlocked { .. }
        | LegionTargetOccupied { .. } => Reason::LegionMovement,
        NothingToJump { .. }
        | JumpOwnPiece { .. }
        | JumpedTwice { .. }
        | JumpTooMany { .. }
        | ManJumpLength { .. }
        | LandingOccupied { .. } => Reason::Jump,
        JumpKing { .. } => Reason::JumpKing,
        SeriesMustContinue { .. } | TamaMustLandToContinue { .. } => Reason::Incomplete,
        CaptureObligation { captures } => {
            let mut captures = captures.clone();
            captures.sort();
            Reason::Obligation { captures }
        }
        StillInCheck { king, attackers } => Reason::StillInCheck {
            king: king.to_string(),
            attackers: squares(attackers),
        },
        ExposesKing { king, attackers } => Reason::ExposesKing {
            king: king.to_string(),
            attackers: squares(attackers),
        },
        AmbiguousSeries { .. } => Reason::AmbiguousSeries,
        NoPieceFits { .. } => Reason::NoPieceFits,
        NoneCanReach { .. } => Reason::NoneCanReach,
    }
}

/// The judge's reasons, with lists sorted as `reason` sorts them.
fn judged(v: Verdict) -> Verdict {
    match v {
        Verdict::Illegal(reasons) => Verdict::Illegal(
            reasons
                .into_iter()
                .map(|r| match r {
                    Reason::Obligation { mut captures } => {
                        captures.sort();
                        Reason::Obligation { captures }
                    }
                    other => other,
                })
                .collect(),
        ),
        legal => legal,
    }
}

/// The library's answer to an attempt agrees with the judge's.
fn agree(
    pos: &Position,
    attempt: &str,
    got: Result<Move, (Illegal, bool)>,
    want: Verdict,
) -> Result<(), TestCaseError> {
    let lfen = pos.to_lfen();
    match (got, judged(want)) {
        (Ok(m), Verdict::Legal(c)) => {
            prop_assert_eq!(canonical(pos, m), c, "{} in {}", attempt, lfen);
        }
        (Err((e, _)), Verdict::Illegal(reasons)) => {
            let r = reason(&e);
            prop_assert!(
                reasons.contains(&r),
                "{} in {}\n  library: {} ({:?})\n  judge:   {:?}",
                attempt,
                lfen,
                e,
                r,
                reasons
            );
            // Display starts with the rule, and the rule is the reason's.
            prop_assert_eq!(e.rule(), r.rule(), "{}", e);
            let prefix = format!("{}: ", r.rule());
            prop_assert!(e.to_string().starts_with(&prefix), "{}", e);
        }
        (Ok(m), want) => prop_assert!(
            false,
            "{} in {}: library plays {}, judge says {:?}",
            attempt,
            lfen,
            canonical(pos, m),
            want
        ),
        (Err((e, _)), want) => prop_assert!(
            false,
            "{} in {}: library refuses ({}), judge says {:?}",
            attempt,
            lfen,
            e,
            want
        ),
    }
    Ok(())
}

fn names(squares: &[Square]) -> Vec<String> {
    squares.iter().map(|s| s.to_string()).collect()
}

fn try_squares(pos: &Position, judge: &Judge, squares: &[Square]) -> Result<(), TestCaseError> {
    let text = names(squares);
    let refs: Vec<&str> = text.iter().map(String::as_str).collect();
    let got = find_move(pos, squares).map_err(|e| (e, false));
    agree(pos, &text.join(""), got, judge.squares(&refs))
}

fn try_text(pos: &Position, judge: &Judge, text: &str) -> Result<(), TestCaseError> {
    let got = match parse_move(pos, text) {
        Ok(m) => Ok(m),
        Err(MoveParseError::Illegal(e)) => Err((e, true)),
        Err(MoveParseError::Ambiguous { .. }) => {
            let want = judge.human(text);
            prop_assert_eq!(
                want,
                Verdict::Illegal(vec![Reason::AmbiguousText]),
                "{} in {}",
                text,
                pos.to_lfen()
            );
            return Ok(());
        }
        Err(e) => {
            prop_assert!(false, "{} in {}: {}", text, pos.to_lfen(), e);
            unreachable!()
        }
    };
    agree(pos, text, got, judge.human(text))
}

/// `try_play` plays exactly the legal moves, and refuses others with the
/// reason their squares get.
fn try_play_agrees(pos: &Position, m: Move) -> Result<(), TestCaseError> {
    let mut p = *pos;
    let legal = pos.legal_moves().contains(&m);
    match p.try_play(m) {
        Ok(()) => {
            prop_assert!(legal);
            prop_assert_eq!(p, pos.after(m));
        }
        Err(e) => {
            prop_assert!(!legal);
            prop_assert_eq!(p, *pos);
            prop_assert_eq!(e.mv(), m);
            let mine = pos.board().piece_at(m.from());
            if m.kind() != MoveKind::Jump
                && mine.is_some_and(|pc| pc.color == pos.turn() && pc.role == m.role())
                && let Err(why) = find_move(pos, &[m.from(), m.to()])
            {
                prop_assert_eq!(e.reason(), &why, "{:?} in {}", m, pos.to_lfen());
            }
            if mine.is_some_and(|pc| pc.color != pos.turn()) && pos.has_legal_move() {
                prop_assert!(matches!(e.reason(), Illegal::NotYourPiece { .. }), "{}", e);
            }
        }
    }
    Ok(())
}

/// Every kind of attempt in one position.
fn check_position(
    pos: &Position,
    before: Option<&Position>,
    rng: &mut Rng,
) -> Result<(), TestCaseError> {
    let mate = pos.rules().mate_ends_game;
    let lfen = pos.to_lfen();
    let judge = Judge::new(&lfen, mate).map_err(TestCaseError::fail)?;
    let legal = pos.legal_moves();
    let mut mine: Vec<String> = legal.iter().map(|&m| canonical(pos, m)).collect();
    mine.sort();
    mine.dedup();
    prop_assert_eq!(&mine, &judge.legal_moves(), "{}", lfen);

    // Legal moves, in both notations, are legal to the judge too.
    for &m in legal.iter().take(12) {
        try_squares(pos, &judge, &legion_path(pos, m))?;
        let h = human(pos, m);
        try_text(pos, &judge, &h)?;
    }
    // Random pairs of squares, and each own piece to random squares.
    let own = pos.board().by_color(pos.turn());
    for _ in 0..12 {
        let (a, b) = (rng.square(), rng.square());
        if a != b {
            try_squares(pos, &judge, &[a, b])?;
        }
    }
    for from in own {
        for _ in 0..3 {
            let to = rng.square();
            if to != from {
                try_squares(pos, &judge, &[from, to])?;
            }
        }
        // Along the piece's own diagonals, where Legion moves go.
        let diagonal: Vec<Square> = Square::all()
            .filter(|&s| {
                s != from && s.file().abs_diff(from.file()) == s.rank().abs_diff(from.rank())
            })
            .collect();
        if !diagonal.is_empty() {
            let to = diagonal[rng.below(diagonal.len())];
            try_squares(pos, &judge, &[from, to])?;
            // Three squares: a series attempt, or a chess piece's two steps.
            let next: Vec<Square> = Square::all()
                .filter(|&s| {
                    s != to && s.file().abs_diff(to.file()) == s.rank().abs_diff(to.rank())
                })
                .collect();
            let third = next[rng.below(next.len())];
            try_squares(pos, &judge, &[from, to, third])?;
        }
    }
    // Capture series cut short, led astray or carried on too far.
    for &m in legal.iter().filter(|m| m.kind() == MoveKind::Jump).take(6) {
        let path = legion_path(pos, m);
        if path.len() > 2 {
            try_squares(pos, &judge, &path[..path.len() - 1])?;
            let mut other = path.clone();
            let i = 1 + rng.below(path.len() - 1);
            other[i] = rng.square();
            if other.windows(2).all(|w| w[0] != w[1]) {
                try_squares(pos, &judge, &other)?;
            }
        }
        let mut longer = path.clone();
        longer.push(rng.square());
        if longer.windows(2).all(|w| w[0] != w[1]) {
            try_squares(pos, &judge, &longer)?;
        }
        // Start and end only (4.5).
        try_squares(pos, &judge, &[m.from(), m.to()])?;
    }
    // Moves for people naming the wrong kind of piece.
    for &m in legal.iter().filter(|m| m.kind() == MoveKind::Chess).take(6) {
        let h = human(pos, m);
        let h = h.trim_end_matches(['+', '#']);
        for letter in ['K', 'Q', 'R', 'B', 'N'] {
            if !h.starts_with(letter) {
                try_text(pos, &judge, &format!("{letter}{}", &h[1..]))?;
            }
        }
    }
    try_text(pos, &judge, "O-O")?;
    try_text(pos, &judge, "O-O-O")?;
    // Moves the other side could play, were it its turn.
    let flipped = if lfen.contains(" w ") {
        lfen.replacen(" w ", " b ", 1)
    } else {
        lfen.replacen(" b ", " w ", 1)
    };
    if let Ok(other) = Position::from_lfen(&flipped, pos.rules()) {
        for &m in other.legal_moves().iter().take(8) {
            try_squares(pos, &judge, &legion_path(&other, m))?;
            try_text(pos, &judge, human(&other, m).trim_end_matches(['+', '#']))?;
            try_play_agrees(pos, m)?;
        }
    }
    // Moves of the position before: some still legal, some not.
    if let Some(before) = before {
        for &m in before.legal_moves().iter().take(16) {
            try_play_agrees(pos, m)?;
        }
    }
    for &m in legal.iter().take(4) {
        try_play_agrees(pos, m)?;
    }
    Ok(())
}

fn check_game(start: Position, choices: &[u16], seed: u64) -> Result<(), TestCaseError> {
    let mut rng = Rng(seed | 1);
    let mut pos = start;
    let mut before = None;
    for &c in choices {
        check_position(&pos, before.as_ref(), &mut rng)?;
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return Ok(());
        }
        before = Some(pos);
        // Play on through draws (5.3): positions are what matters here.
        pos.play_unchecked(moves[c as usize % moves.len()]);
    }
    check_position(&pos, before.as_ref(), &mut rng)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

    #[test]
    fn explanations_name_the_rule_the_move_breaks(
        which in 0..SEEDS.len(),
        mate in any::<bool>(),
        choices in prop::collection::vec(any::<u16>(), 0..80),
        seed in any::<u64>(),
    ) {
        let rules = if mate { Rules::MATE_ENDS_GAME } else { Rules::DEFAULT };
        let start = Position::from_lfen(SEEDS[which], rules).unwrap();
        check_game(start, &choices, seed)?;
    }
}

#[test]
fn the_seeds_are_valid_positions() {
    for lfen in SEEDS {
        for rules in [Rules::DEFAULT, Rules::MATE_ENDS_GAME] {
            let p = Position::from_lfen(lfen, rules).unwrap();
            assert!(p.has_legal_move(), "{lfen}");
        }
    }
}
