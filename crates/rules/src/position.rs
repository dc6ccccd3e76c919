//! A position: placement, side to move, castling rights, clocks, and the
//! rule option in force; and how a move changes it.

use crate::castling::{self, CastlingRights};
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
    pub const DEFAULT: Rules = Rules {
        mate_ends_game: false,
    };
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

/// A Legion position. Cheap to copy: search and perft copy it per move.
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

    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    #[inline]
    pub fn castling(&self) -> CastlingRights {
        self.castling
    }

    #[inline]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Plies since the last capture, man move, crowning or King removal (5.3).
    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

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
        self.legal_moves()
            .iter()
            .filter(|m| m.kind() == MoveKind::Jump)
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

    /// Plays a move given by the generator, including the King removal of 5.1
    /// when it mates. The move must be legal in this position.
    pub fn play(&mut self, m: Move) {
        let us = self.turn;
        let them = !us;
        let (from, to) = (m.from(), m.to());
        let mover = Piece::new(us, m.role());
        let irreversible = match m.kind() {
            MoveKind::Chess => {
                // 4.1: a plain chess piece takes an enemy man or Tama prisoner;
                // a Captor already holds one, so the target is removed; an
                // enemy construct is absorbed whole.
                let mut gained = None;
                if m.is_capture() {
                    let role = self.board.role_at(to).unwrap_or(Role::Man);
                    self.remove(to, Piece::new(them, role));
                    if role.is_legion() {
                        gained = Some(role);
                    }
                }
                self.toggle(from, mover);
                self.toggle(to, mover);
                match self.board.prisoner_at(from) {
                    Some(held) => {
                        self.toggle_prisoner(from, them, held);
                        self.toggle_prisoner(to, them, held);
                    }
                    None => {
                        if let Some(role) = gained {
                            self.toggle_prisoner(to, them, role);
                        }
                    }
                }
                self.touch_castling(from, to);
                m.is_capture()
            }
            MoveKind::Castle => {
                let side = m.castling_side().unwrap_or(castling::CastlingSide::Short);
                let path = castling::path(us, side);
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
            MoveKind::Jump => {
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
        self.checkers = self.compute_checkers();
        if !self.rules.mate_ends_game && self.checkers.any() {
            self.remove_mated_king();
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

    /// The position after `m`.
    #[inline]
    pub fn after(&self, m: Move) -> Position {
        let mut p = *self;
        p.play(m);
        p
    }

    /// Passes the turn without moving: for engine null-move search only,
    /// never a legal move (1.2). Not allowed in check.
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
