//! Static evaluation: a weighted sum of features of the position, in
//! hundredths of a man, from the side to move's point of view.
//!
//! The evaluation is linear in its weights so that the same feature
//! extraction serves play (weights multiplied in) and tuning (feature
//! counts written out, `tune`).

use legion_rules::attacks::{
    bishop_attacks, king_attacks, knight_attacks, opposite, rook_attacks, shift_diagonal,
};
use legion_rules::{Bitboard, Board, Color, Position, Role, Square};

macro_rules! features {
    ($($name:ident = $doc:literal,)*) => {
        /// What the evaluation counts. Each count is White's minus Black's.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[repr(usize)]
        pub enum Feature { $(#[doc = $doc] $name,)* }

        impl Feature {
            pub const ALL: &'static [Feature] = &[$(Feature::$name,)*];
            pub const COUNT: usize = Feature::ALL.len();

            pub fn name(self) -> &'static str {
                match self { $(Feature::$name => stringify!($name),)* }
            }

            /// The feature called `name`, in any case.
            pub fn from_name(name: &str) -> Option<Feature> {
                Feature::ALL.iter().copied().find(|f| f.name().eq_ignore_ascii_case(name))
            }
        }
    };
}

features! {
    Man = "a man",
    Tama = "a Tama",
    Knight = "a Knight (or Knight Captor)",
    Bishop = "a Bishop",
    Rook = "a Rook",
    Queen = "a Queen",
    King = "having a King (Phase 1)",
    PrisonerMan = "one of our men held prisoner (it may be freed, 4.1)",
    PrisonerTama = "one of our Tamas held prisoner",
    BishopPair = "two Bishops",
    KnightMobility = "a square a Knight attacks (not our own)",
    BishopMobility = "a square a Bishop attacks",
    RookMobility = "a square a Rook attacks",
    QueenMobility = "a square a Queen attacks",
    TamaMobility = "an empty square a Tama could move to",
    ManRank3 = "a man on its 4th rank",
    ManRank4 = "a man on its 5th rank",
    ManRank5 = "a man on its 6th rank",
    ManRank6 = "a man on its 7th rank, one step from crowning",
    CrownThreat = "a man on its 7th rank with a free square to crown on",
    ManCenter = "a man on one of the central dark squares",
    ManSupported = "a man with a friendly piece diagonally behind it",
    KnightCenter = "a Knight on the central 16 squares",
    KingOnLight = "our King on a light square, where it cannot be jumped (3.2)",
    KingLegionDanger = "an enemy man or Tama within two diagonal steps of our King on a dark square",
    KingZoneAttacks = "a square next to our King attacked by an enemy chess piece",
    KingShelter = "one of our pieces next to our King",
    HangingPiece = "one of our chess pieces an enemy man could jump now",
    ExposedConstruct = "one of our constructs an enemy man could jump now (Liberation)",
    SafeMobility = "a square our chess pieces attack that no enemy man could jump them on",
    MinorCentral = "centrality of our Knights and Bishops (0 at the edge, 3 in the centre)",
    QueenCentral = "centrality of our Queen",
    KingCentral = "centrality of our King",
    PieceOnDark = "one of our chess pieces on an inner dark square, where men can reach it",
    ManBackRank = "a man still on its home rank, guarding it against crowning",
    ManMobility = "a step one of our men can make",
    TamaLongDiagonal = "a Tama on the long diagonal a1-h8",
    Tempo = "having the move",
}

/// One weight per feature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights(pub [i32; Feature::COUNT]);

impl Weights {
    pub fn get(&self, f: Feature) -> i32 {
        self.0[f as usize]
    }

    /// Only the material features of `self`; everything else zero. The
    /// baseline the full evaluation is measured against (issue 3).
    pub fn material_only(&self) -> Weights {
        let mut w = [0; Feature::COUNT];
        for f in [
            Feature::Man,
            Feature::Tama,
            Feature::Knight,
            Feature::Bishop,
            Feature::Rook,
            Feature::Queen,
            Feature::King,
            Feature::PrisonerMan,
            Feature::PrisonerTama,
        ] {
            w[f as usize] = self.get(f);
        }
        Weights(w)
    }

    /// The hand-set starting weights, before tuning.
    pub fn handset() -> Weights {
        use Feature::*;
        let mut w = [0; Feature::COUNT];
        for (f, v) in [
            (Man, 100),
            (Tama, 260),
            (Knight, 300),
            (Bishop, 320),
            (Rook, 460),
            (Queen, 880),
            (King, 150),
            (PrisonerMan, 30),
            (PrisonerTama, 70),
            (BishopPair, 30),
            (KnightMobility, 4),
            (BishopMobility, 4),
            (RookMobility, 3),
            (QueenMobility, 2),
            (TamaMobility, 3),
            (ManRank3, 6),
            (ManRank4, 14),
            (ManRank5, 26),
            (ManRank6, 45),
            (CrownThreat, 40),
            (ManCenter, 8),
            (ManSupported, 6),
            (KnightCenter, 12),
            (KingOnLight, 15),
            (KingLegionDanger, -18),
            (KingZoneAttacks, -9),
            (KingShelter, 5),
            (HangingPiece, -40),
            (ExposedConstruct, -30),
            (SafeMobility, 2),
            (MinorCentral, 6),
            (QueenCentral, 3),
            (KingCentral, 0),
            (PieceOnDark, -6),
            (ManBackRank, 6),
            (ManMobility, 3),
            (TamaLongDiagonal, 25),
            (Tempo, 12),
        ] {
            w[f as usize] = v;
        }
        Weights(w)
    }

    /// Weights tuned from self-play (`legion tune`); see docs/STRENGTH.md.
    /// The table names features, not strings: a name that is no feature
    /// does not compile.
    pub fn tuned() -> Weights {
        let mut w = Weights::handset();
        for &(f, value) in crate::tuned::TUNED {
            w.0[f as usize] = value;
        }
        w
    }

    /// The weights known by name: `tuned`, `handset`, `material`.
    pub fn by_name(name: &str) -> Option<Weights> {
        match name {
            "tuned" => Some(Weights::tuned()),
            "handset" => Some(Weights::handset()),
            "material" => Some(Weights::handset().material_only()),
            _ => None,
        }
    }
}

impl Default for Weights {
    fn default() -> Weights {
        Weights::tuned()
    }
}

/// Receives feature counts (White minus Black).
pub trait Sink {
    fn add(&mut self, f: Feature, count: i32);
}

/// Multiplies counts by weights as they come.
struct Score<'a> {
    weights: &'a Weights,
    total: i32,
}

impl Sink for Score<'_> {
    #[inline]
    fn add(&mut self, f: Feature, count: i32) {
        self.total += self.weights.0[f as usize] * count;
    }
}

/// Keeps the counts, for tuning.
pub struct Counts(pub [i32; Feature::COUNT]);

impl Sink for Counts {
    #[inline]
    fn add(&mut self, f: Feature, count: i32) {
        self.0[f as usize] += count;
    }
}

/// The evaluation of `pos` for the side to move.
pub fn evaluate(pos: &Position, weights: &Weights) -> i32 {
    let mut s = Score { weights, total: 0 };
    accumulate(pos, &mut s);
    match pos.turn() {
        Color::White => s.total,
        Color::Black => -s.total,
    }
}

/// The feature counts of `pos`, White minus Black (tempo counted for the
/// side to move).
pub fn features(pos: &Position) -> Counts {
    let mut c = Counts([0; Feature::COUNT]);
    accumulate(pos, &mut c);
    c
}

const CENTER16: Bitboard = Bitboard(0x0000_3C3C_3C3C_0000);
const LONG_DIAGONAL: Bitboard = Bitboard(0x8040_2010_0804_0201);

/// 0 on the edge, 1 on the next ring, 2 on the next, 3 in the centre four.
#[inline]
fn centrality(sq: legion_rules::Square) -> i32 {
    let f = sq.file() as i32;
    let r = sq.rank() as i32;
    f.min(7 - f).min(r).min(7 - r)
}
const CENTER_DARK: Bitboard = Bitboard(0x0000_3C3C_3C3C_0000 & 0xAA55_AA55_AA55_AA55);

/// Squares of `color`'s relative rank `r`.
fn relative_rank(color: Color, r: u8) -> Bitboard {
    let rank = match color {
        Color::White => r,
        Color::Black => 7 - r,
    };
    Bitboard(0xFF << (8 * rank))
}

/// Per-side counts; White's minus Black's go to the sink.
struct Side {
    counts: [i32; Feature::COUNT],
    chess_attacks: Bitboard,
}

impl Default for Side {
    fn default() -> Side {
        Side {
            counts: [0; Feature::COUNT],
            chess_attacks: Bitboard::EMPTY,
        }
    }
}

impl Side {
    #[inline]
    fn add(&mut self, f: Feature, n: i32) {
        self.counts[f as usize] += n;
    }
}

/// Squares where a chess piece of the other side could be jumped by one of
/// `color`'s men: a man next to it and the square beyond empty (4.3).
fn legion_threats(board: &Board, color: Color) -> Bitboard {
    let men = board.pieces(color, Role::Man);
    let empty = !board.occupied();
    let mut t = Bitboard::EMPTY;
    for d in 0..4 {
        t |= shift_diagonal(d, men) & shift_diagonal(opposite(d), empty);
    }
    t
}

fn side(board: &Board, us: Color, enemy_threats: Bitboard) -> Side {
    use Feature::*;
    let mut s = Side::default();
    let occ = board.occupied();
    let ours = board.by_color(us);
    let them = !us;
    let men = board.pieces(us, Role::Man);
    let tamas = board.pieces(us, Role::Tama);

    s.add(Man, men.count() as i32);
    s.add(Tama, tamas.count() as i32);
    let held = board.constructs() & board.by_color(them);
    s.add(PrisonerTama, (held & board.tama_prisoners()).count() as i32);
    s.add(PrisonerMan, (held & !board.tama_prisoners()).count() as i32);
    let bishops = board.pieces(us, Role::Bishop);
    if bishops.count() >= 2 {
        s.add(BishopPair, 1);
    }

    let mut attacks = Bitboard::EMPTY;
    let unsafe_squares = ours | enemy_threats;
    for from in board.pieces(us, Role::Knight) {
        s.add(Knight, 1);
        let a = knight_attacks(from);
        attacks |= a;
        s.add(KnightMobility, (a & !ours).count() as i32);
        s.add(SafeMobility, (a & !unsafe_squares).count() as i32);
        s.add(MinorCentral, centrality(from));
        if CENTER16.contains(from) {
            s.add(KnightCenter, 1);
        }
    }
    for from in bishops {
        s.add(Bishop, 1);
        let a = bishop_attacks(from, occ);
        attacks |= a;
        s.add(BishopMobility, (a & !ours).count() as i32);
        s.add(SafeMobility, (a & !unsafe_squares).count() as i32);
        s.add(MinorCentral, centrality(from));
    }
    for from in board.pieces(us, Role::Rook) {
        s.add(Rook, 1);
        let a = rook_attacks(from, occ);
        attacks |= a;
        s.add(RookMobility, (a & !ours).count() as i32);
        s.add(SafeMobility, (a & !unsafe_squares).count() as i32);
    }
    for from in board.pieces(us, Role::Queen) {
        s.add(Queen, 1);
        let a = bishop_attacks(from, occ) | rook_attacks(from, occ);
        attacks |= a;
        s.add(QueenMobility, (a & !ours).count() as i32);
        s.add(SafeMobility, (a & !unsafe_squares).count() as i32);
        s.add(QueenCentral, centrality(from));
    }
    let chess = ours
        & (board.by_role(Role::Queen)
            | board.by_role(Role::Rook)
            | board.by_role(Role::Bishop)
            | board.by_role(Role::Knight));
    s.add(
        PieceOnDark,
        (chess & Bitboard::DARK & !Bitboard::EDGE).count() as i32,
    );
    s.add(TamaLongDiagonal, (tamas & LONG_DIAGONAL).count() as i32);
    s.add(ManBackRank, (men & relative_rank(us, 0)).count() as i32);
    for from in tamas {
        s.add(
            TamaMobility,
            (bishop_attacks(from, occ) & !occ).count() as i32,
        );
    }
    s.chess_attacks = attacks;

    // The Legion's advance.
    s.add(ManRank3, (men & relative_rank(us, 3)).count() as i32);
    s.add(ManRank4, (men & relative_rank(us, 4)).count() as i32);
    s.add(ManRank5, (men & relative_rank(us, 5)).count() as i32);
    let near_crown = men & relative_rank(us, 6);
    s.add(ManRank6, near_crown.count() as i32);
    let forward: [usize; 2] = match us {
        Color::White => [0, 1],
        Color::Black => [2, 3],
    };
    let mut crowning = Bitboard::EMPTY;
    let mut supported = Bitboard::EMPTY;
    for d in forward {
        // Men whose forward square in direction d is empty.
        crowning |= near_crown & shift_diagonal(opposite(d), !occ);
        // Men with a friend behind them in direction d.
        supported |= men & shift_diagonal(d, ours);
    }
    s.add(CrownThreat, crowning.count() as i32);
    let mut steps = 0;
    for d in forward {
        steps += (shift_diagonal(d, men) & !occ).count() as i32;
    }
    s.add(ManMobility, steps);
    s.add(ManSupported, supported.count() as i32);
    s.add(ManCenter, (men & CENTER_DARK).count() as i32);

    // What the enemy's men could jump right now (4.3): a piece of ours
    // next to an enemy man with the square beyond it empty.
    let enemy_men = board.pieces(them, Role::Man);
    let mut jumpable = Bitboard::EMPTY;
    for d in 0..4 {
        jumpable |= shift_diagonal(d, enemy_men) & shift_diagonal(opposite(d), !occ);
    }
    let exposed = jumpable & board.jumpable_by(them);
    let constructs = board.constructs() & ours;
    let chess_pieces =
        ours & !board.by_role(Role::Man) & !board.by_role(Role::Tama) & !board.by_role(Role::King);
    s.add(
        HangingPiece,
        (exposed & chess_pieces & !constructs).count() as i32,
    );
    s.add(ExposedConstruct, (exposed & constructs).count() as i32);
    s
}

fn king_terms(board: &Board, us: Color, enemy_attacks: Bitboard, sink: &mut Side) {
    use Feature::*;
    let Some(k) = board.king(us) else { return };
    sink.add(King, 1);
    sink.add(KingCentral, centrality(k));
    let zone = king_attacks(k);
    sink.add(KingZoneAttacks, (zone & enemy_attacks).count() as i32);
    sink.add(KingShelter, (zone & board.by_color(us)).count() as i32);
    if !k.is_dark() {
        sink.add(KingOnLight, 1);
    } else {
        let legion = board.legion(!us);
        let mut near = Bitboard::EMPTY;
        let b = Bitboard::from(k);
        for d in 0..4 {
            let one = shift_diagonal(d, b);
            near |= one | shift_diagonal(d, one);
        }
        sink.add(KingLegionDanger, (near & legion).count() as i32);
    }
}

fn accumulate<S: Sink>(pos: &Position, sink: &mut S) {
    let board = pos.board();
    let mut white = side(board, Color::White, legion_threats(board, Color::Black));
    let mut black = side(board, Color::Black, legion_threats(board, Color::White));
    let (wa, ba) = (white.chess_attacks, black.chess_attacks);
    king_terms(board, Color::White, ba, &mut white);
    king_terms(board, Color::Black, wa, &mut black);
    for &f in Feature::ALL {
        let n = white.counts[f as usize] - black.counts[f as usize];
        if n != 0 {
            sink.add(f, n);
        }
    }
    sink.add(
        Feature::Tempo,
        match pos.turn() {
            Color::White => 1,
            Color::Black => -1,
        },
    );
}

/// The value of what stands on a square, for move ordering and pruning.
pub fn piece_value(role: Role) -> i32 {
    match role {
        Role::Man => 100,
        Role::Tama => 260,
        Role::Knight => 300,
        Role::Bishop => 320,
        Role::Rook => 460,
        Role::Queen => 880,
        Role::King => 2000,
    }
}

/// What a chess capture onto `sq` takes at most: the piece there and the
/// prisoner it holds if it is a construct (1.5, 4.1).
pub fn victim_value(board: &Board, sq: Square) -> i32 {
    board.role_at(sq).map_or(0, piece_value) + board.prisoner_at(sq).map_or(0, piece_value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_are_found_by_name_in_any_case() {
        assert_eq!(
            Feature::from_name("KnightMobility"),
            Some(Feature::KnightMobility)
        );
        assert_eq!(
            Feature::from_name("tamalongdiagonal"),
            Some(Feature::TamaLongDiagonal)
        );
        assert_eq!(Feature::from_name("Pawn"), None);
        for &f in Feature::ALL {
            assert_eq!(Feature::from_name(f.name()), Some(f));
        }
    }

    #[test]
    fn every_tuned_weight_is_set_once() {
        // A feature listed twice would silently lose its first weight.
        let tuned = Weights::tuned();
        for &f in Feature::ALL {
            let listed: Vec<i32> = crate::tuned::TUNED
                .iter()
                .filter(|(g, _)| *g == f)
                .map(|&(_, v)| v)
                .collect();
            assert!(
                listed.len() <= 1,
                "{} is listed {} times",
                f.name(),
                listed.len()
            );
            let expected = listed.first().copied().unwrap_or(Weights::handset().get(f));
            assert_eq!(tuned.get(f), expected, "{}", f.name());
        }
    }

    #[test]
    fn the_initial_position_is_level_but_for_the_tempo() {
        let p = Position::initial();
        let w = Weights::handset();
        assert_eq!(evaluate(&p, &w), w.get(Feature::Tempo));
        let c = features(&p);
        for &f in Feature::ALL {
            if f != Feature::Tempo {
                assert_eq!(c.0[f as usize], 0, "{}", f.name());
            }
        }
    }

    #[test]
    fn evaluation_is_symmetric_under_the_half_turn() {
        // The same position with colours swapped and the board turned
        // half round must score the same for the side to move.
        let a: Position = "3k4/8/1m6/2M5/8/5N2/8/4K3 w - 0 1".parse().unwrap();
        let b: Position = "3k4/8/2n5/8/5m2/6M1/8/4K3 b - 0 1".parse().unwrap();
        let w = Weights::handset();
        assert_eq!(evaluate(&a, &w), evaluate(&b, &w));
    }

    #[test]
    fn material_counts() {
        let p: Position = "3k4/8/8/2[Qm]5/8/8/8/4K3 w - 0 1".parse().unwrap();
        let c = features(&p);
        assert_eq!(c.0[Feature::Queen as usize], 1);
        // Black's man is a prisoner: Black counts it as held.
        assert_eq!(c.0[Feature::PrisonerMan as usize], -1);
        assert_eq!(c.0[Feature::Man as usize], 0);
    }
}
