//! Tuned evaluation weights, written by `legion tune` (docs/STRENGTH.md).
//! Features not listed keep their hand-set weight.
//! Round 1: SPSA from the hand-set weights: 300 iterations of 8 games at 5000 nodes a move; mobility x0.78, legion x0.61, king x0.62, placement x1.23, threats x0.78, prisoners x0.77, tama x0.73, king-value x0.34, tempo x1.33.
//! Round 2: SPSA from round 1 with the fine groups, 8 games at 8000 nodes a move, stopped after 291 of 400 iterations; multipliers as logged then: knight-mobility x1.41, slider-mobility x0.74, safe-mobility x1.91, tama-mobility x0.44, advance x0.69, crown x1.03, formation x0.83, king-safety x1.02, king-place x0.67, centrality x1.35, piece-on-dark x0.91, pair-diagonal x0.88, hanging x1.19, exposed x1.15, prisoners x0.43, tama x1.27, king-value x0.51, tempo x0.93, minors x1.12, majors x1.58.

use crate::eval::Feature::{self, *};

pub const TUNED: &[(Feature, i32)] = &[
    (Man, 100),
    (Tama, 243),
    (Knight, 336),
    (Bishop, 358),
    (Rook, 727),
    (Queen, 1390),
    (King, 26),
    (PrisonerMan, 10),
    (PrisonerTama, 23),
    (BishopPair, 33),
    (KnightMobility, 4),
    (BishopMobility, 2),
    (RookMobility, 1),
    (QueenMobility, 1),
    (TamaMobility, 1),
    (ManRank3, 3),
    (ManRank4, 6),
    (ManRank5, 11),
    (ManRank6, 19),
    (CrownThreat, 25),
    (ManCenter, 4),
    (ManSupported, 3),
    (KnightCenter, 20),
    (KingOnLight, 6),
    (KingLegionDanger, -11),
    (KingZoneAttacks, -6),
    (KingShelter, 3),
    (HangingPiece, -37),
    (ExposedConstruct, -26),
    (SafeMobility, 4),
    (MinorCentral, 9),
    (QueenCentral, 5),
    (KingCentral, 0),
    (PieceOnDark, -6),
    (ManBackRank, 3),
    (ManMobility, 2),
    (TamaLongDiagonal, 27),
    (Tempo, 15),
];
