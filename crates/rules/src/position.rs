//! A position: placement, side to move, castling rights, clocks, and the
//! rule option in force; and how a move changes it.

use crate::attacks::{
    between, bishop_attacks, bishop_rays, king_attacks, knight_attacks, rook_attacks, rook_rays,
};
use crate::castling::{self, CastlingRights, CastlingSide};
use crate::explain::PlayError;
use crate::movegen;
use crate::zobrist;
use crate::{Bitboard, Board, Color, Move, MoveKind, MoveList, Occupant, Piece, Role, Square};

/// Rule options of 5.4, recorded in game records and engine settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Rules {
    /// `mate-ends-game`: mate wins at once, as in chess (no Phase 2).
    pub mate_ends_game: bool,
}

impl Rules {
    /// The rules as written, with Phase 2 (5.1).
    pub const DEFAULT: Rules = Rules {
        mate_ends_game: false,
    };
    /// The `mate-ends-game` option (5.4).
    pub const MATE_ENDS_GAME: Rules = Rules {
        mate_ends_game: true,
    };

    /// The name used in game records' `Rules` tag and engine options.
    pub fn name(self) -> &'static str {
        if self.mate_ends_game {
            "mate-ends-game"
        } else {
            "default"
        }
    }
}

/// A Legion position: placement (constructs included), side to move,
/// castling rights, clocks, and the rule option in force. Cheap to copy:
/// search and perft copy it per move.
///
/// Positions come from [`Position::initial`], from an LFEN (6.2) with
/// [`Position::from_lfen`] or `parse`, or from pieces with
/// [`PositionBuilder`](crate::PositionBuilder); all are valid by 6.2.
///
/// ```
/// use legion_rules::{MoveKind, Position, Rules, notation};
///
/// // A White man on c3 must take the Black man on d4 (4.2).
/// let pos = Position::from_lfen("3k4/8/8/8/3m4/2M5/8/4K3 w - 0 1", Rules::DEFAULT).unwrap();
/// let moves = pos.legal_moves();
/// assert_eq!(moves.len(), 1);
/// assert_eq!(moves[0].kind(), MoveKind::Jump);
/// assert_eq!(notation::human(&pos, moves[0]), "c3:e5");
///
/// let after = pos.after(moves[0]);
/// assert_eq!(after.to_lfen(), "3k4/8/8/4M3/8/8/8/4K3 b - 0 1");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Position {
    pub(crate) board: Board,
    pub(crate) turn: Color,
    pub(crate) castling: CastlingRights,
    pub(crate) rules: Rules,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) hash: u64,
    /// What gives check to the side to move (3.2): kept by `play`, read by
    /// move generation and by the King removal of 5.1.
    pub(crate) checkers: Bitboard,
}

impl PartialEq for Position {
    /// Equal when everything LFEN writes is equal, under the same rules.
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board
            && self.turn == other.turn
            && self.castling == other.castling
            && self.rules == other.rules
            && self.halfmove == other.halfmove
            && self.fullmove == other.fullmove
    }
}

impl Eq for Position {}

impl Default for Position {
    fn default() -> Position {
        Position::initial()
    }
}

impl Position {
    /// The initial position (1.6) under default rules.
    pub fn initial() -> Position {
        Position::initial_with(Rules::DEFAULT)
    }

    /// The initial position (1.6) under the given rules.
    pub fn initial_with(rules: Rules) -> Position {
        Position::from_parts(
            Board::initial(),
            Color::White,
            CastlingRights::ALL,
            rules,
            0,
            1,
        )
    }

    /// Assembles a position without validation; `lfen` validates.
    pub(crate) fn from_parts(
        board: Board,
        turn: Color,
        castling: CastlingRights,
        rules: Rules,
        halfmove: u32,
        fullmove: u32,
    ) -> Position {
        let mut pos = Position {
            board,
            turn,
            castling,
            rules,
            halfmove,
            fullmove,
            hash: 0,
            checkers: Bitboard::EMPTY,
        };
        pos.hash = pos.compute_hash();
        pos.checkers = pos.compute_checkers();
        pos
    }

    fn compute_checkers(&self) -> Bitboard {
        match self.board.king(self.turn) {
            Some(k) => self.board.attackers(k, !self.turn, self.board.occupied()),
            None => Bitboard::EMPTY,
        }
    }

    /// The hash from scratch; `play` keeps `hash` equal to it.
    pub fn compute_hash(&self) -> u64 {
        let mut h = zobrist::castling(self.castling.bits());
        if self.turn == Color::Black {
            h ^= zobrist::black_to_move();
        }
        for sq in self.board.occupied() {
            if let Some(o) = self.board.occupant(sq) {
                h ^= occupant_key(o, sq);
            }
        }
        h
    }

    /// The placement, constructs included.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The castling rights left (2.2, 6.2).
    #[inline]
    pub fn castling(&self) -> CastlingRights {
        self.castling
    }

    /// The rule option in force (5.4).
    #[inline]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Plies since the last capture, man move, crowning or King removal (5.3).
    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// The full-move number: 1 at the start, increased after each Black
    /// move (6.2).
    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// Zobrist hash of placement, side to move and castling rights.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Pieces of the opponent giving check to the side to move (3.2).
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// Whether the side to move is in check (3.2).
    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers().any()
    }

    /// Whether `color`'s King is in check (false without a King).
    pub fn is_king_attacked(&self, color: Color) -> bool {
        match self.board.king(color) {
            Some(k) => self.board.attackers(k, !color, self.board.occupied()).any(),
            None => false,
        }
    }

    /// Every legal move (Parts II–V, with the obligation order of 4.2).
    ///
    /// ```
    /// use legion_rules::{Position, notation};
    ///
    /// let pos = Position::initial();
    /// let mut moves: Vec<String> = pos
    ///     .legal_moves()
    ///     .iter()
    ///     .map(|&m| notation::canonical(&pos, m))
    ///     .collect();
    /// moves.sort();
    /// assert_eq!(moves.len(), 26); // RULES Part VII
    /// assert_eq!(&moves[..3], ["a1a2", "a3b4", "c3b4"]);
    /// ```
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        movegen::legal_moves(self, &mut list);
        list
    }

    /// Appends the legal moves to `list` (no allocation for perft/search).
    #[inline]
    pub fn legal_moves_into(&self, list: &mut MoveList) {
        movegen::legal_moves(self, list);
    }

    /// The legal moves quiescence search needs: captures and crownings;
    /// every legal move when in check; the Legion captures when one is
    /// compulsory (4.2).
    pub fn noisy_moves_into(&self, list: &mut MoveList) {
        movegen::generate(self, list, movegen::Mode::Noisy);
    }

    /// Appends the legal Legion capture series (4.3) and returns how many.
    /// When the side to move is not in check and there is one, they are
    /// compulsory (4.2.2) and so are all its legal moves: a search can
    /// learn that a node is forced, or that it is not, without listing the
    /// rest.
    pub fn legion_captures_into(&self, list: &mut MoveList) -> usize {
        movegen::legion_captures(self, list)
    }

    /// Whether the side to move has a legal move, without listing them
    /// (5.2: without one, it has lost).
    pub fn has_legal_move(&self) -> bool {
        movegen::has_legal_move(self)
    }

    /// The phase of the game (5.1): 1 while both Kings are on the board,
    /// 2 once a King has left it.
    pub fn phase(&self) -> u8 {
        if Color::ALL.iter().all(|&c| self.board.king(c).is_some()) {
            1
        } else {
            2
        }
    }

    /// The squares of the Legion pieces that must capture (4.2): empty
    /// when no Legion capture is compulsory (none there, or the side to
    /// move is in check, 4.2.1).
    pub fn compulsory_capturers(&self) -> Bitboard {
        if self.is_check() {
            return Bitboard::EMPTY;
        }
        let mut captures = MoveList::new();
        self.legion_captures_into(&mut captures);
        captures
            .iter()
            .fold(Bitboard::EMPTY, |b, m| b | Bitboard::from(m.from()))
    }

    /// Whether a Legion capture is compulsory for the side to move (4.2).
    pub fn is_capture_compulsory(&self) -> bool {
        self.compulsory_capturers().any()
    }

    /// 3.4: in check with no legal move.
    pub fn is_mate(&self) -> bool {
        self.is_check() && !self.has_legal_move()
    }

    /// Whether `m` is one of the legal moves here.
    pub fn is_legal(&self, m: Move) -> bool {
        self.legal_moves().contains(&m)
    }

    #[inline]
    fn put(&mut self, sq: Square, o: Occupant) {
        self.hash ^= occupant_key(o, sq);
        self.board.put(sq, o);
    }

    #[inline]
    fn take(&mut self, sq: Square) -> Option<Occupant> {
        let o = self.board.take(sq)?;
        self.hash ^= occupant_key(o, sq);
        Some(o)
    }

    #[inline]
    fn toggle(&mut self, sq: Square, piece: Piece) {
        self.board.toggle(sq, piece);
        self.hash ^= zobrist::piece(piece, sq);
    }

    #[inline]
    fn toggle_prisoner(&mut self, sq: Square, color: Color, role: Role) {
        self.board.toggle_prisoner(sq, role);
        self.hash ^= zobrist::prisoner(color, role, sq);
    }

    /// Removes `piece`, known to stand on `sq`; returns its prisoner.
    #[inline]
    fn remove(&mut self, sq: Square, piece: Piece) -> Option<Role> {
        let prisoner = self.board.remove(sq, piece);
        self.hash ^= occupant_key(Occupant { piece, prisoner }, sq);
        prisoner
    }

    #[inline]
    fn touch_castling(&mut self, a: Square, b: Square) {
        if !self.castling.is_empty() {
            let mut rights = self.castling;
            rights.update(a);
            rights.update(b);
            if rights != self.castling {
                self.hash ^=
                    zobrist::castling(self.castling.bits()) ^ zobrist::castling(rights.bits());
                self.castling = rights;
            }
        }
    }

    #[inline]
    fn clear_castling(&mut self, color: Color) {
        let mut rights = self.castling;
        rights.clear_color(color);
        self.hash ^= zobrist::castling(self.castling.bits()) ^ zobrist::castling(rights.bits());
        self.castling = rights;
    }

    /// Plays `m`, which must be legal here: a checked [`try_play`] when it
    /// may not be. Kept under this name for existing callers; it is
    /// [`play_unchecked`].
    ///
    /// [`try_play`]: Position::try_play
    /// [`play_unchecked`]: Position::play_unchecked
    #[inline]
    pub fn play(&mut self, m: Move) {
        self.play_unchecked(m);
    }

    /// Plays `m` if it is legal here; otherwise leaves the position as it
    /// was and says which rule the move breaks, as [`explain`] does for
    /// the squares the move visits.
    ///
    /// [`explain`]: crate::explain
    ///
    /// ```
    /// use legion_rules::{Position, notation};
    ///
    /// let mut pos = Position::initial();
    /// let m = notation::parse_move(&pos, "c3-d4").unwrap();
    /// pos.try_play(m).unwrap();
    /// // The same move again: d4 is now White's man, and it is Black's turn.
    /// let err = pos.try_play(m).unwrap_err();
    /// assert_eq!(err.rule(), "1.2");
    /// assert_eq!(err.to_string(), "1.2: there is no piece on c3");
    /// ```
    pub fn try_play(&mut self, m: Move) -> Result<(), PlayError> {
        let legal = self.legal_moves();
        if !legal.contains(&m) {
            return Err(PlayError::new(
                m,
                crate::explain::explain_move(self, m, &legal),
            ));
        }
        self.play_unchecked(m);
        Ok(())
    }

    /// Plays `m` without checking it, including the King removal of 5.1
    /// when it mates: the fast path of search and perft.
    ///
    /// Precondition: `m` is one of [`legal_moves`] of this very position
    /// (generated here, or checked with [`is_legal`]). Any other move
    /// leaves an unspecified (but memory-safe) position; debug builds
    /// assert that the move at least fits the board (its piece on its
    /// square, its targets where it says). Use [`try_play`] for moves
    /// that come from outside.
    ///
    /// [`legal_moves`]: Position::legal_moves
    /// [`is_legal`]: Position::is_legal
    /// [`try_play`]: Position::try_play
    pub fn play_unchecked(&mut self, m: Move) {
        debug_assert!(
            self.fits(m),
            "{m:?} was not generated in {}",
            self.to_lfen()
        );
        let us = self.turn;
        let them = !us;
        let (from, to) = (m.from(), m.to());
        let mover = Piece::new(us, m.role());
        // 3.3: a side with a King never leaves it in check, so before this
        // move nothing of ours attacks the enemy King; only a side without
        // a King can face a waiting King in check (5.1). Then what a chess
        // move or a step changes is enough to find the checkers.
        let incremental = self.board.pieces(us, Role::King).any();
        let kind = m.kind();
        let irreversible = if kind == MoveKind::Chess {
            self.play_chess(m, mover, them)
        } else {
            self.play_other(m, mover, us)
        };
        self.halfmove = if irreversible {
            0
        } else {
            self.halfmove.saturating_add(1)
        };
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.turn = them;
        self.hash ^= zobrist::black_to_move();
        self.checkers = match self.board.king(them) {
            None => Bitboard::EMPTY,
            Some(k) if incremental && kind == MoveKind::Chess => {
                self.checkers_after_chess_move(k, m.role(), from, to)
            }
            Some(k) if incremental && kind == MoveKind::Step => {
                let occ = self.board.occupied();
                self.discovered_checkers(k, from, occ) | self.board.legion_attackers(k, us, occ)
            }
            Some(k) => self.board.attackers(k, us, self.board.occupied()),
        };
        debug_assert_eq!(self.checkers, self.compute_checkers(), "{m:?}");
        if !self.rules.mate_ends_game && self.checkers.any() {
            self.remove_mated_king();
        }
    }

    /// A chess move or capture (2.1, 2.3, 4.1, 4.4); returns whether it
    /// captured (5.3).
    #[inline(always)]
    fn play_chess(&mut self, m: Move, mover: Piece, them: Color) -> bool {
        let (from, to) = (m.from(), m.to());
        // 4.1: a plain chess piece takes an enemy man or Tama prisoner; a
        // Captor already holds one, so the target is removed; an enemy
        // construct is absorbed whole. The target is read from the board,
        // whole (a construct with its prisoner): nothing is assumed about it.
        let mut gained = None;
        if m.is_capture() {
            let role = self.board.role_on(to);
            self.remove(to, Piece::new(them, role));
            if role.is_legion() {
                gained = Some(role);
            }
        }
        self.toggle(from, mover);
        self.toggle(to, mover);
        if self.board.constructs().contains(from) {
            // A construct moves with its prisoner.
            let held = self.board.prisoner_at(from).unwrap_or(Role::Man);
            self.toggle_prisoner(from, them, held);
            self.toggle_prisoner(to, them, held);
        } else if let Some(role) = gained {
            self.toggle_prisoner(to, them, role);
        }
        self.touch_castling(from, to);
        m.is_capture()
    }

    /// Castling, a Legion step or a capture series; returns whether the
    /// move is irreversible (5.3).
    #[inline(always)]
    fn play_other(&mut self, m: Move, mover: Piece, us: Color) -> bool {
        let (from, to) = (m.from(), m.to());
        match m.kind() {
            MoveKind::Castle => {
                let path = castling::path(us, CastlingSide::from_king_destination(to));
                let rook = Piece::new(us, Role::Rook);
                self.remove(path.king_from, mover);
                self.remove(path.rook_from, rook);
                self.put(path.king_to, Occupant::piece(mover));
                self.put(path.rook_to, Occupant::piece(rook));
                self.clear_castling(us);
                false
            }
            MoveKind::Step => {
                // A free Legion piece: it never holds a prisoner.
                self.toggle(from, mover);
                let role = if m.crowns() { Role::Tama } else { mover.role };
                self.toggle(to, Piece::new(us, role));
                mover.role == Role::Man
            }
            MoveKind::Jump | MoveKind::Chess => {
                self.toggle(from, mover);
                for sq in m.captured() {
                    // 4.1 Liberation: a jumped construct loses its Captor; the
                    // prisoner stays and passes to the jumping side.
                    if let Some(Occupant {
                        prisoner: Some(role),
                        ..
                    }) = self.take(sq)
                    {
                        self.put(sq, Occupant::piece(Piece::new(us, role)));
                    }
                }
                let role = if m.crowns() { Role::Tama } else { mover.role };
                self.toggle(to, Piece::new(us, role));
                true
            }
        }
    }

    /// What gives check to the King on `k` of the side now to move, after
    /// the other side's chess move of a `role` from `from` to `to`, when
    /// nothing of that side attacked `k` before it (3.3): the piece that
    /// moved, a slider whose line `from` opened, a Legion threat.
    #[inline(always)]
    fn checkers_after_chess_move(
        &self,
        k: Square,
        role: Role,
        from: Square,
        to: Square,
    ) -> Bitboard {
        let b = &self.board;
        let occ = b.occupied();
        let to_bb = Bitboard::from(to);
        let open = (between(k, to) & occ).is_empty();
        let direct = match role {
            Role::Knight => knight_attacks(k) & to_bb,
            Role::King => king_attacks(k) & to_bb,
            Role::Bishop if open => bishop_rays(k) & to_bb,
            Role::Rook if open => rook_rays(k) & to_bb,
            Role::Queen if open => (bishop_rays(k) | rook_rays(k)) & to_bb,
            _ => Bitboard::EMPTY,
        };
        let us = !self.turn;
        direct | self.discovered_checkers(k, from, occ) | b.legion_attackers(k, us, occ)
    }

    /// The sliders of the side that just moved that attack `k` along the
    /// line through `from`, if there is one (none can elsewhere, 3.3).
    #[inline(always)]
    fn discovered_checkers(&self, k: Square, from: Square, occ: Bitboard) -> Bitboard {
        let b = &self.board;
        let ours = b.by_color(!self.turn);
        if rook_rays(k).contains(from) {
            rook_attacks(k, occ) & b.rook_like() & ours
        } else if bishop_rays(k).contains(from) {
            bishop_attacks(k, occ) & b.bishop_like() & ours
        } else {
            Bitboard::EMPTY
        }
    }

    /// Whether `m` fits the board, as every generated move does: its piece
    /// on its square, a chess capture's target an enemy piece other than
    /// the King, a step onto an empty square, jumped pieces the enemy's,
    /// castling with its right. Cheap, for the debug assertion of
    /// [`play_unchecked`](Position::play_unchecked); not a legality test.
    fn fits(&self, m: Move) -> bool {
        let b = &self.board;
        let us = self.turn;
        let (from, to) = (m.from(), m.to());
        let empty = !b.occupied();
        b.pieces(us, m.role()).contains(from)
            && match m.kind() {
                MoveKind::Chess => {
                    m.role().is_chess()
                        && if m.is_capture() {
                            m.captured() == Bitboard::from(to) && b.jumpable_by(us).contains(to)
                        } else {
                            empty.contains(to)
                        }
                }
                MoveKind::Castle => {
                    let side = CastlingSide::from_king_destination(to);
                    let path = castling::path(us, side);
                    self.castling.has(us, side) && path.king_from == from && path.king_to == to
                }
                MoveKind::Step => m.role().is_legion() && empty.contains(to) && !m.is_capture(),
                MoveKind::Jump => {
                    m.role().is_legion()
                        && m.is_capture()
                        && (m.captured() & !b.jumpable_by(us)).is_empty()
                        && (to == from || empty.contains(to))
                }
            }
    }

    /// 5.1: a mated side's King leaves the board at once, with its prisoner.
    /// Returns whether it did.
    pub(crate) fn remove_mated_king(&mut self) -> bool {
        let Some(k) = self.board.king(self.turn) else {
            return false;
        };
        if self.checkers.is_empty() || self.has_legal_move() {
            return false;
        }
        self.take(k);
        self.clear_castling(self.turn);
        self.halfmove = 0;
        self.checkers = Bitboard::EMPTY;
        true
    }

    /// The position after `m`, which must be legal here (as for
    /// [`play_unchecked`](Position::play_unchecked)).
    #[inline]
    pub fn after(&self, m: Move) -> Position {
        let mut p = *self;
        p.play(m);
        p
    }

    /// Passes the turn without moving: for engine null-move search only,
    /// never a legal move (1.2). Not allowed in check. Hidden from the
    /// documentation: it is not part of the rules' interface.
    #[doc(hidden)]
    pub fn null_move(&self) -> Position {
        let mut p = *self;
        p.turn = !p.turn;
        p.hash ^= zobrist::black_to_move();
        p.halfmove = p.halfmove.saturating_add(1);
        p.checkers = p.compute_checkers();
        p
    }
}

#[inline]
pub(crate) fn occupant_key(o: Occupant, sq: Square) -> u64 {
    let mut k = zobrist::piece(o.piece, sq);
    if let Some(role) = o.prisoner {
        k ^= zobrist::prisoner(!o.piece.color, role, sq);
    }
    k
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Illegal;
    use crate::notation::parse_move;

    fn pos(lfen: &str) -> Position {
        lfen.parse().unwrap()
    }

    #[test]
    fn try_play_plays_legal_moves_like_play_unchecked() {
        let start = Position::initial();
        for m in start.legal_moves() {
            let mut checked = start;
            checked.try_play(m).unwrap();
            let mut unchecked = start;
            unchecked.play_unchecked(m);
            assert_eq!(checked, unchecked);
            assert_eq!(checked.hash(), unchecked.hash());
            assert_eq!(checked, start.after(m));
        }
    }

    #[test]
    fn try_play_refuses_with_the_rule_and_leaves_the_position() {
        // After c3-d4 b6-c5 the man on d4 must take (4.2): Nf3 is refused.
        let mut p = Position::initial();
        for text in ["c3d4", "b6c5"] {
            let m = parse_move(&p, text).unwrap();
            p.try_play(m).unwrap();
        }
        let before = p;
        let knight = parse_move(&Position::initial(), "Nf3").unwrap();
        let err = p.try_play(knight).unwrap_err();
        assert_eq!(p, before);
        assert_eq!(err.rule(), "4.2");
        assert!(matches!(err.reason(), Illegal::CaptureObligation { .. }));
        assert_eq!(err.mv(), knight);
        assert_eq!(err.to_string(), "4.2: a Legion capture is mandatory: d4:b6");
        // A move of the other side: it is not White's piece (1.2).
        let black = parse_move(&pos(&before.to_lfen().replace(" w ", " b ")), "c5b4");
        let err = p.try_play(black.unwrap()).unwrap_err();
        assert!(
            matches!(err.reason(), Illegal::NotYourPiece { .. }),
            "{err}"
        );
    }

    #[test]
    fn try_play_explains_moves_made_in_other_positions() {
        // A Knight move g1f3 where a Bishop now stands on g1 (1.3).
        let knight = parse_move(&Position::initial(), "Nf3").unwrap();
        let mut p = pos("3k4/8/8/8/8/8/8/4K1B1 w - 0 1");
        let err = p.try_play(knight).unwrap_err();
        assert!(matches!(
            err.reason(),
            Illegal::NoPieceFits {
                role: Role::Knight,
                ..
            }
        ));
        assert_eq!(err.rule(), "1.3");
        // A Rook capture on d5 where d5 is now empty.
        let capture = parse_move(&pos("k7/8/8/3n4/8/8/8/3RK3 w - 0 1"), "Rxd5").unwrap();
        let mut p = pos("k7/8/8/8/8/8/8/3RK3 w - 0 1");
        assert!(p.try_play(capture).is_err());
        // ...and a plain Rook move to d5 where an enemy Knight now stands.
        let quiet = parse_move(&pos("k7/8/8/8/8/8/8/3RK3 w - 0 1"), "Rd5").unwrap();
        let mut p = pos("k7/8/8/3n4/8/8/8/3RK3 w - 0 1");
        let err = p.try_play(quiet).unwrap_err();
        assert_eq!(err.rule(), "2.1", "{err}");
        // A series whose jumped man has gone: the man cannot go that far.
        let series = parse_move(&pos("3k4/8/8/8/3m4/2M5/8/4K3 w - 0 1"), "c3:e5").unwrap();
        let mut p = pos("3k4/8/8/8/8/2M5/8/4K3 w - 0 1");
        let err = p.try_play(series).unwrap_err();
        assert!(matches!(err.reason(), Illegal::ManTooFar { .. }), "{err}");
        // A Tama's series over b2 where b2 is now empty: the same squares
        // make a plain slide here, but there is nothing to jump (4.3).
        let series = parse_move(&pos("3k4/8/8/8/8/8/1m6/T3K3 w - 0 1"), "a1:d4").unwrap();
        let mut p = pos("3k4/8/8/8/8/8/8/T3K3 w - 0 1");
        let err = p.try_play(series).unwrap_err();
        assert!(
            matches!(err.reason(), Illegal::NothingToJump { .. }),
            "{err}"
        );
    }

    /// `play` finds the checkers from what the move changed; they must be
    /// those counted afresh, also in Phase 2 (5.1), where the side to
    /// move has no King and the waiting King may already be in check.
    #[test]
    fn checkers_kept_by_play_are_those_counted_afresh() {
        fn walk(p: &Position, depth: u32) {
            let fresh = pos(&p.to_lfen());
            assert_eq!(p.checkers(), fresh.checkers(), "{}", p.to_lfen());
            if depth > 0 {
                for m in p.legal_moves() {
                    walk(&p.after(m), depth - 1);
                }
            }
        }
        for lfen in [
            crate::INITIAL_LFEN,
            "r2k3r/8/8/8/8/8/8/R3K2R w KQkq 0 1",
            "2r1k2r/3b4/1qn2n2/8/8/2N2B2/1Q1B4/R3K2R w KQ 0 1",
            // Black has lost its King; its Rook checks White's, and Black
            // moves on (5.1).
            "8/8/1m6/8/4r3/8/3M4/4K2n b - 0 1",
            "3k4/2m5/8/4M3/2b5/8/5T2/R3K3 w Q 0 1",
        ] {
            walk(&pos(lfen), 3);
        }
    }

    #[test]
    fn castling_needs_no_fallback_for_its_side() {
        for (lfen, text, king, rook) in [
            ("r2k3r/8/8/8/8/8/8/R3K2R w KQkq 0 1", "O-O", "g1", "f1"),
            ("r2k3r/8/8/8/8/8/8/R3K2R w KQkq 0 1", "O-O-O", "c1", "d1"),
            ("r2k3r/8/8/8/8/8/8/R3K2R b KQkq 0 1", "O-O", "b8", "c8"),
            ("r2k3r/8/8/8/8/8/8/R3K2R b KQkq 0 1", "O-O-O", "f8", "e8"),
        ] {
            let mut p = pos(lfen);
            let m = parse_move(&p, text).unwrap();
            p.try_play(m).unwrap();
            let role = |s: &str| p.board().role_at(s.parse().unwrap());
            assert_eq!(role(king), Some(Role::King), "{lfen} {text}");
            assert_eq!(role(rook), Some(Role::Rook), "{lfen} {text}");
        }
    }
}
