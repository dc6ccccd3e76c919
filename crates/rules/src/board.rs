//! Piece placement: bitboards per colour and role, plus the prisoners of
//! constructs (RULES 1.5).

use crate::attacks;
use crate::{Bitboard, Color, Occupant, Piece, Role, Square};

/// Where everything stands. A construct counts for its Captor: its square is
/// in the Captor's colour and role sets, and also in `prisoners` (and in
/// `prisoner_tamas` when the prisoner is a Tama). A prisoner's colour is the
/// other side's (1.5), so it needs no set of its own.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Board {
    colors: [Bitboard; 2],
    roles: [Bitboard; 7],
    prisoners: Bitboard,
    prisoner_tamas: Bitboard,
}

impl Board {
    /// A board with nothing on it.
    pub const fn empty() -> Board {
        Board {
            colors: [Bitboard::EMPTY; 2],
            roles: [Bitboard::EMPTY; 7],
            prisoners: Bitboard::EMPTY,
            prisoner_tamas: Bitboard::EMPTY,
        }
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.colors[0] | self.colors[1]
    }

    /// Everything `color` owns, constructs with a Captor of `color` included.
    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.colors[color.index()]
    }

    /// Squares whose top piece has this role.
    #[inline]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.roles[role.index()]
    }

    /// Squares whose top piece is `color`'s and has this role (a
    /// construct counts for its Captor).
    #[inline]
    pub fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.colors[color.index()] & self.roles[role.index()]
    }

    /// Squares holding a construct.
    #[inline]
    pub fn constructs(&self) -> Bitboard {
        self.prisoners
    }

    /// Constructs whose prisoner is a Tama.
    #[inline]
    pub fn tama_prisoners(&self) -> Bitboard {
        self.prisoner_tamas
    }

    /// Free Legion pieces (men and Tamas) of `color`.
    #[inline]
    pub fn legion(&self, color: Color) -> Bitboard {
        self.colors[color.index()]
            & (self.roles[Role::Man.index()] | self.roles[Role::Tama.index()])
    }

    /// The King of `color`, if it is still on the board (5.1).
    #[inline]
    pub fn king(&self, color: Color) -> Option<Square> {
        self.pieces(color, Role::King).first()
    }

    /// What the Legion of `color` may jump (4.1, 4.3): enemy pieces and
    /// constructs, but never the enemy King, also not as a Captor (3.1).
    #[inline]
    pub fn jumpable_by(&self, color: Color) -> Bitboard {
        self.colors[(!color).index()] & !self.roles[Role::King.index()]
    }

    /// Squares whose top piece is a Rook or a Queen.
    #[inline]
    pub fn rook_like(&self) -> Bitboard {
        self.roles[Role::Rook.index()] | self.roles[Role::Queen.index()]
    }

    /// Squares whose top piece is a Bishop or a Queen.
    #[inline]
    pub fn bishop_like(&self) -> Bitboard {
        self.roles[Role::Bishop.index()] | self.roles[Role::Queen.index()]
    }

    /// The role of the top piece on `sq`.
    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        if !self.occupied().contains(sq) {
            return None;
        }
        Role::ALL
            .into_iter()
            .find(|r| self.roles[r.index()].contains(sq))
    }

    /// The role of the top piece on `sq`, which must be occupied (else
    /// `King`): read from the role sets without a search.
    #[inline]
    pub(crate) fn role_on(&self, sq: Square) -> Role {
        let mut index = 0;
        for (i, set) in self.roles.iter().enumerate().skip(1) {
            index |= i & (set.0 >> sq.index() & 1).wrapping_neg() as usize;
        }
        Role::ALL[index]
    }

    /// The colour of the top piece on `sq`.
    #[inline]
    pub fn color_at(&self, sq: Square) -> Option<Color> {
        if self.colors[0].contains(sq) {
            Some(Color::White)
        } else if self.colors[1].contains(sq) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The top piece on `sq` (a construct's Captor).
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Some(Piece::new(self.color_at(sq)?, self.role_at(sq)?))
    }

    /// The prisoner's role if `sq` holds a construct.
    #[inline]
    pub fn prisoner_at(&self, sq: Square) -> Option<Role> {
        if !self.prisoners.contains(sq) {
            None
        } else if self.prisoner_tamas.contains(sq) {
            Some(Role::Tama)
        } else {
            Some(Role::Man)
        }
    }

    /// What stands on `sq`: a piece or a construct.
    pub fn occupant(&self, sq: Square) -> Option<Occupant> {
        Some(Occupant {
            piece: self.piece_at(sq)?,
            prisoner: self.prisoner_at(sq),
        })
    }

    /// Puts `occ` on `sq`, which must be empty: on an occupied square the
    /// board would hold two pieces there (debug builds panic). To set up a
    /// position, [`PositionBuilder`](crate::PositionBuilder) replaces and
    /// validates.
    #[inline]
    pub fn put(&mut self, sq: Square, occ: Occupant) {
        debug_assert!(!self.occupied().contains(sq));
        self.colors[occ.piece.color.index()] ^= Bitboard::from(sq);
        self.roles[occ.piece.role.index()] ^= Bitboard::from(sq);
        match occ.prisoner {
            None => {}
            Some(Role::Tama) => {
                self.prisoners ^= Bitboard::from(sq);
                self.prisoner_tamas ^= Bitboard::from(sq);
            }
            Some(_) => self.prisoners ^= Bitboard::from(sq),
        }
    }

    /// Removes whatever stands on `sq`.
    #[inline]
    pub fn take(&mut self, sq: Square) -> Option<Occupant> {
        let occ = self.occupant(sq)?;
        let keep = !Bitboard::from(sq);
        self.colors[occ.piece.color.index()] &= keep;
        self.roles[occ.piece.role.index()] &= keep;
        self.prisoners &= keep;
        self.prisoner_tamas &= keep;
        Some(occ)
    }

    /// Puts `piece` on an empty `sq`, or takes it off `sq` where it stands,
    /// without touching prisoners.
    #[inline]
    pub(crate) fn toggle(&mut self, sq: Square, piece: Piece) {
        let b = Bitboard::from(sq);
        self.colors[piece.color.index()] ^= b;
        self.roles[piece.role.index()] ^= b;
    }

    /// Sets or clears the prisoner of the construct on `sq`.
    #[inline]
    pub(crate) fn toggle_prisoner(&mut self, sq: Square, role: Role) {
        let b = Bitboard::from(sq);
        self.prisoners ^= b;
        if role == Role::Tama {
            self.prisoner_tamas ^= b;
        }
    }

    /// Removes `piece`, known to stand on `sq`; returns its prisoner, if any.
    #[inline]
    pub(crate) fn remove(&mut self, sq: Square, piece: Piece) -> Option<Role> {
        let prisoner = self.prisoner_at(sq);
        let b = Bitboard::from(sq);
        self.colors[piece.color.index()] ^= b;
        self.roles[piece.role.index()] ^= b;
        self.prisoners &= !b;
        self.prisoner_tamas &= !b;
        prisoner
    }

    /// The initial position of 1.6.
    pub fn initial() -> Board {
        let mut b = Board::empty();
        let back = [
            Role::Rook,
            Role::Knight,
            Role::Bishop,
            Role::Queen,
            Role::King,
            Role::Bishop,
            Role::Knight,
            Role::Rook,
        ];
        for (file, role) in back.into_iter().enumerate() {
            let white = Square::new(file as u8);
            b.put(white, Occupant::piece(Piece::new(Color::White, role)));
            // Black's pieces stand where White's do after a half turn (1.6).
            b.put(
                white.rotate(),
                Occupant::piece(Piece::new(Color::Black, role)),
            );
        }
        for sq in Square::all().filter(|s| s.is_dark() && (s.rank() == 1 || s.rank() == 2)) {
            b.put(sq, Occupant::piece(Piece::new(Color::White, Role::Man)));
            b.put(
                sq.rotate(),
                Occupant::piece(Piece::new(Color::Black, Role::Man)),
            );
        }
        b
    }

    /// Chess attackers (3.2 a) of `by` on `sq`: pieces and constructs that
    /// could reach `sq` by a chess capture, given the occupancy `occ`.
    #[inline]
    pub fn chess_attackers(&self, sq: Square, by: Color, occ: Bitboard) -> Bitboard {
        let them = self.by_color(by);
        let mut found = (attacks::knight_attacks(sq) & self.by_role(Role::Knight))
            | (attacks::king_attacks(sq) & self.by_role(Role::King));
        // Magic look-ups only when a slider stands on a line through `sq`.
        let rooks = attacks::rook_rays(sq) & self.rook_like() & them;
        if rooks.any() {
            found |= attacks::rook_attacks(sq, occ) & rooks;
        }
        let bishops = attacks::bishop_rays(sq) & self.bishop_like() & them;
        if bishops.any() {
            found |= attacks::bishop_attacks(sq, occ) & bishops;
        }
        found & them
    }

    /// Legion attackers (3.2 b) of `by` on a King standing on `sq`: a man
    /// diagonally adjacent, or a Tama on a diagonal with only empty squares
    /// between, with the square directly beyond the King empty. A King on a
    /// light square, or on the edge (nothing beyond it), cannot be jumped.
    #[inline(always)]
    pub fn legion_attackers(&self, sq: Square, by: Color, occ: Bitboard) -> Bitboard {
        // Most calls end here: no Legion left, or a King that cannot be jumped.
        if self.legion(by).is_empty() || !(Bitboard::DARK & !Bitboard::EDGE).contains(sq) {
            return Bitboard::EMPTY;
        }
        self.legion_attackers_slow(sq, by, occ)
    }

    #[inline(never)]
    fn legion_attackers_slow(&self, sq: Square, by: Color, occ: Bitboard) -> Bitboard {
        let men = self.pieces(by, Role::Man);
        let tamas = self.pieces(by, Role::Tama);
        let near = attacks::bishop_attacks(sq, occ) & occ;
        let mut found = Bitboard::EMPTY;
        for d in 0..4 {
            // Both exist: `sq` is not on the edge.
            let (Some(adjacent), Some(beyond)) = (
                attacks::diagonal_step(d, sq),
                attacks::diagonal_step(attacks::opposite(d), sq),
            ) else {
                continue;
            };
            if occ.contains(beyond) {
                continue;
            }
            if men.contains(adjacent) {
                found |= Bitboard::from(adjacent);
            }
            found |= near & attacks::diagonal_ray(d, sq) & tamas;
        }
        found
    }

    /// Whether `by` gives check to a King on `sq` (3.2), for King moves.
    #[inline]
    pub fn is_attacked(&self, sq: Square, by: Color, occ: Bitboard) -> bool {
        let them = self.by_color(by);
        if (attacks::knight_attacks(sq) & self.by_role(Role::Knight) & them).any()
            || (attacks::king_attacks(sq) & self.by_role(Role::King) & them).any()
        {
            return true;
        }
        let bishops = attacks::bishop_rays(sq) & self.bishop_like() & them;
        if bishops.any() && (attacks::bishop_attacks(sq, occ) & bishops).any() {
            return true;
        }
        let rooks = attacks::rook_rays(sq) & self.rook_like() & them;
        if rooks.any() && (attacks::rook_attacks(sq, occ) & rooks).any() {
            return true;
        }
        self.legion_attackers(sq, by, occ).any()
    }

    /// Everything of `by` that gives check to a King on `sq` (3.2).
    #[inline]
    pub fn attackers(&self, sq: Square, by: Color, occ: Bitboard) -> Bitboard {
        self.chess_attackers(sq, by, occ) | self.legion_attackers(sq, by, occ)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    fn put(b: &mut Board, s: &str, c: Color, r: Role) {
        b.put(sq(s), Occupant::piece(Piece::new(c, r)));
    }

    #[test]
    fn initial_setup_is_rule_1_6() {
        let b = Board::initial();
        assert_eq!(b.king(Color::White), Some(sq("e1")));
        assert_eq!(b.king(Color::Black), Some(sq("d8")));
        assert_eq!(
            b.piece_at(sq("e8")),
            Some(Piece::new(Color::Black, Role::Queen))
        );
        let white_men: Bitboard = "b2 d2 f2 h2 a3 c3 e3 g3".split(' ').map(sq).collect();
        let black_men: Bitboard = "b6 d6 f6 h6 a7 c7 e7 g7".split(' ').map(sq).collect();
        assert_eq!(b.pieces(Color::White, Role::Man), white_men);
        assert_eq!(b.pieces(Color::Black, Role::Man), black_men);
        assert_eq!(b.occupied().count(), 32);
    }

    #[test]
    fn man_adjacent_gives_check_only_with_the_square_beyond_empty() {
        // 3.2 (b): a Black man on c5 next to a White King on d4, e3 empty.
        let mut b = Board::empty();
        put(&mut b, "d4", Color::White, Role::King);
        put(&mut b, "c5", Color::Black, Role::Man);
        assert_eq!(
            b.legion_attackers(sq("d4"), Color::Black, b.occupied()),
            Bitboard::from(sq("c5"))
        );
        // A man that would jump backwards (for Black: up the board) also checks.
        let mut b2 = Board::empty();
        put(&mut b2, "d4", Color::White, Role::King);
        put(&mut b2, "c3", Color::Black, Role::Man);
        assert_eq!(
            b2.legion_attackers(sq("d4"), Color::Black, b2.occupied()),
            Bitboard::from(sq("c3"))
        );
        // Fill the square beyond with anything: no check.
        put(&mut b, "e3", Color::White, Role::Knight);
        assert!(
            b.legion_attackers(sq("d4"), Color::Black, b.occupied())
                .is_empty()
        );
        // A man two squares away does not check.
        let mut b3 = Board::empty();
        put(&mut b3, "d4", Color::White, Role::King);
        put(&mut b3, "b6", Color::Black, Role::Man);
        assert!(
            b3.legion_attackers(sq("d4"), Color::Black, b3.occupied())
                .is_empty()
        );
    }

    #[test]
    fn tama_checks_from_a_distance_and_edge_kings_cannot_be_jumped() {
        let mut b = Board::empty();
        put(&mut b, "e5", Color::White, Role::King);
        put(&mut b, "b2", Color::Black, Role::Tama);
        assert_eq!(
            b.legion_attackers(sq("e5"), Color::Black, b.occupied()),
            Bitboard::from(sq("b2"))
        );
        put(&mut b, "c3", Color::White, Role::Knight);
        assert!(
            b.legion_attackers(sq("e5"), Color::Black, b.occupied())
                .is_empty()
        );
        // A King on the edge: a man next to it, but nothing beyond.
        let mut e = Board::empty();
        put(&mut e, "e1", Color::White, Role::King);
        put(&mut e, "d2", Color::Black, Role::Man);
        assert!(
            e.legion_attackers(sq("e1"), Color::Black, e.occupied())
                .is_empty()
        );
        let mut h = Board::empty();
        put(&mut h, "h4", Color::White, Role::King);
        put(&mut h, "g5", Color::Black, Role::Tama);
        assert!(
            h.legion_attackers(sq("h4"), Color::Black, h.occupied())
                .is_empty()
        );
    }

    #[test]
    fn constructs_keep_their_prisoner() {
        let mut b = Board::empty();
        let occ = Occupant {
            piece: Piece::new(Color::White, Role::Queen),
            prisoner: Some(Role::Tama),
        };
        b.put(sq("c5"), occ);
        assert_eq!(b.occupant(sq("c5")), Some(occ));
        assert_eq!(b.take(sq("c5")), Some(occ));
        assert_eq!(b, Board::empty());
    }
}
