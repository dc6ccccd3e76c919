//! Legal move generation (RULES Parts II–V).
//!
//! Order of obligation (4.2): in check, any legal move that ends the check
//! (no capture obligation); otherwise a legal Legion capture if there is
//! one; otherwise any legal move. Legality (3.3) is decided without playing
//! the move for chess pieces, Legion steps and castling (check masks and
//! pins, extended to Legion jump threats); capture series, which remove
//! several pieces, are played on a copy of the board and tested.

use arrayvec::ArrayVec;

use crate::attacks::{
    DIAGONAL_DELTA, between, bishop_attacks, bishop_rays, diagonal_ray, diagonal_step,
    king_attacks, knight_attacks, nearest, opposite, rook_attacks, rook_rays, shift_diagonal,
};
use crate::capture;
use crate::castling::{self, CastlingSide};
use crate::{Bitboard, Board, Color, Move, MoveList, Occupant, Piece, Position, Role, Square};

/// What the side to move must respect to keep its King out of check.
struct Safety {
    /// None for a side that has lost its King (5.1): nothing restricts it.
    king: Option<Square>,
    /// Non-King moves must land on one of these (all squares if not in check).
    check_mask: Bitboard,
    in_check: bool,
    /// Pieces whose moves are restricted; see `pins`.
    pinned: Bitboard,
    /// At most one slider pin per line through the King (8) and one Legion
    /// pin per diagonal (4).
    pins: ArrayVec<(Square, Bitboard), 12>,
}

impl Safety {
    /// A side without a King is never in check (5.1).
    fn kingless() -> Safety {
        Safety {
            king: None,
            check_mask: Bitboard::FULL,
            in_check: false,
            pinned: Bitboard::EMPTY,
            pins: ArrayVec::new(),
        }
    }

    #[inline]
    fn pin(&mut self, sq: Square, allowed: Bitboard) {
        if self.pins.try_push((sq, allowed)).is_ok() {
            self.pinned |= Bitboard::from(sq);
        }
    }

    /// Where the piece on `sq` may go without exposing its King.
    #[inline]
    fn allowed(&self, sq: Square) -> Bitboard {
        let mut mask = self.check_mask;
        if self.pinned.contains(sq) {
            for &(s, a) in &self.pins {
                if s == sq {
                    mask &= a;
                }
            }
        }
        mask
    }
}

/// Checks and pins against the King of `us` on `k`; `checkers` are the
/// position's (3.2).
fn safety(board: &Board, us: Color, k: Square, checkers: Bitboard) -> Safety {
    let them = !us;
    let occ = board.occupied();
    let ours = board.by_color(us);
    let mut s = Safety {
        king: Some(k),
        check_mask: Bitboard::FULL,
        in_check: false,
        pinned: Bitboard::EMPTY,
        pins: ArrayVec::new(),
    };

    // 3.2 (a): chess checks. Block or capture each one.
    let legion = board.by_role(Role::Man) | board.by_role(Role::Tama);
    for c in checkers & !legion {
        s.in_check = true;
        s.check_mask &= between(k, c).with(c);
    }

    // Chess pins: one of ours alone between the King and an enemy slider.
    let enemy = board.by_color(them);
    let snipers =
        ((rook_rays(k) & board.rook_like()) | (bishop_rays(k) & board.bishop_like())) & enemy;
    for sniper in snipers {
        let blockers = between(k, sniper) & occ;
        if let Some(b) = blockers.single()
            && ours.contains(b)
        {
            s.pin(b, between(k, sniper).with(sniper));
        }
    }

    // 3.2 (b): Legion jump threats, and what holds them off.
    let men = board.pieces(them, Role::Man);
    let tamas = board.pieces(them, Role::Tama);
    if (men | tamas).any() && k.is_dark() && !Bitboard::EDGE.contains(k) {
        for d in 0..4 {
            let (Some(adjacent), Some(beyond)) =
                (diagonal_step(d, k), diagonal_step(opposite(d), k))
            else {
                continue;
            };
            let ray = diagonal_ray(d, k);
            let Some(first) = nearest(ray & occ, d) else {
                continue;
            };
            if (first == adjacent && men.contains(first)) || tamas.contains(first) {
                // A jumper in place: the square beyond decides.
                let attack_line = between(k, first).with(first);
                if !occ.contains(beyond) {
                    s.in_check = true;
                    s.check_mask &= attack_line.with(beyond);
                } else if ours.contains(beyond) {
                    // Our piece beyond the King must stay, or block the line.
                    s.pin(beyond, attack_line);
                }
            } else if ours.contains(first) && !occ.contains(beyond) {
                // One of ours shields the King from a Tama further along.
                if let Some(second) = nearest(diagonal_ray(d, first) & occ, d)
                    && tamas.contains(second)
                {
                    s.pin(first, between(k, second).with(second));
                }
            }
        }
    }
    s
}

/// Whether the King of `us` moving from `from` to `to` would be in check.
#[inline]
fn king_square_attacked(board: &Board, us: Color, from: Square, to: Square) -> bool {
    board.is_attacked(to, !us, board.occupied().without(from))
}

/// Whether the series `m` leaves the King of `us` out of check (3.3).
fn series_is_safe(board: &Board, us: Color, king: Square, m: Move) -> bool {
    let mut b = *board;
    let Some(mut mover) = b.take(m.from()) else {
        return false;
    };
    for sq in m.captured() {
        if let Some(Occupant {
            prisoner: Some(role),
            ..
        }) = b.take(sq)
        {
            b.put(sq, Occupant::piece(Piece::new(us, role)));
        }
    }
    if m.crowns() {
        mover.piece.role = Role::Tama;
    }
    b.put(m.to(), mover);
    b.attackers(king, !us, b.occupied()).is_empty()
}

/// Appends the legal Legion capture series; returns how many.
fn legal_series(pos: &Position, king: Option<Square>, out: &mut MoveList) -> usize {
    let start = out.len();
    capture::series(&pos.board, pos.turn, out);
    if let Some(k) = king {
        let mut i = start;
        while i < out.len() {
            if series_is_safe(&pos.board, pos.turn, k, out[i]) {
                i += 1;
            } else {
                out.swap_remove(i);
            }
        }
    }
    out.len() - start
}

/// Which legal moves to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    All,
    /// Captures and crownings, for quiescence search; in check, every
    /// evasion; when a Legion capture is compulsory, those captures.
    Noisy,
    /// Stop at the first legal move found.
    Any,
}

/// The legal moves of the side to move, appended to `out`.
pub(crate) fn legal_moves(pos: &Position, out: &mut MoveList) {
    generate(pos, out, Mode::All);
}

pub(crate) fn generate(pos: &Position, out: &mut MoveList, mut mode: Mode) {
    let board = &pos.board;
    let us = pos.turn;
    let king = board.king(us);
    let safety = match king {
        Some(k) => safety(board, us, k, pos.checkers),
        None => Safety::kingless(),
    };

    // 4.2.2: a legal Legion capture, when not in check, is compulsory.
    let captures = legal_series(pos, king, out);
    if captures > 0 && (!safety.in_check || mode == Mode::Any) {
        return;
    }
    if mode == Mode::Noisy && safety.in_check {
        mode = Mode::All;
    }
    other_moves(pos, &safety, mode, out);
}

/// The legal Legion captures alone (4.3, judged whole by 3.3).
pub(crate) fn legion_captures(pos: &Position, out: &mut MoveList) -> usize {
    legal_series(pos, pos.board.king(pos.turn), out)
}

/// Whether the side to move has any legal move (for 5.1 and 5.2).
pub(crate) fn has_legal_move(pos: &Position) -> bool {
    let mut list = MoveList::new();
    generate(pos, &mut list, Mode::Any);
    !list.is_empty()
}

/// Targets a chess piece of `us` may move to, before King safety: empty
/// squares and enemy pieces, never an enemy King (3.1, 4.1).
#[inline]
fn chess_targets(board: &Board, us: Color) -> Bitboard {
    !board.by_color(us) & !board.by_role(Role::King)
}

#[inline]
fn push_chess(board: &Board, role: Role, from: Square, targets: Bitboard, out: &mut MoveList) {
    let occ = board.occupied();
    for to in targets {
        let target = Bitboard(occ.0 & (1 << to.index()));
        out.push(Move::chess(role, from, to, target));
    }
}

/// Legion steps of `us` (2.4): men one square diagonally forward, Tamas
/// any distance; a man reaching its far rank is crowned (2.5).
#[inline]
fn push_steps(
    board: &Board,
    us: Color,
    from: Square,
    role: Role,
    allowed: Bitboard,
    out: &mut MoveList,
) {
    let occ = board.occupied();
    let targets = match role {
        Role::Man => {
            let forward = Bitboard::from(from);
            let f = match us {
                Color::White => forward.north_east() | forward.north_west(),
                Color::Black => forward.south_east() | forward.south_west(),
            };
            f & !occ
        }
        _ => bishop_attacks(from, occ) & !occ,
    } & allowed;
    for to in targets {
        let crowns = role == Role::Man && capture::is_far_rank(to, us);
        out.push(Move::step(role, from, to, crowns));
    }
}

fn other_moves(pos: &Position, s: &Safety, mode: Mode, out: &mut MoveList) {
    let board = &pos.board;
    let us = pos.turn;
    let ours = board.by_color(us);
    let occ = board.occupied();
    let mut targets = chess_targets(board, us);
    if mode == Mode::Noisy {
        targets &= board.by_color(!us);
    }
    let done = |out: &MoveList| mode == Mode::Any && !out.is_empty();

    // King moves: the destination must not be attacked once the King has left.
    if let Some(k) = s.king {
        for to in king_attacks(k) & targets {
            if !king_square_attacked(board, us, k, to) {
                push_chess(board, Role::King, k, Bitboard::from(to), out);
                if done(out) {
                    return;
                }
            }
        }
    }

    // The other chess pieces and constructs.
    for from in board.by_role(Role::Knight) & ours & !s.pinned {
        // A pinned Knight can never stay on its line.
        let to = knight_attacks(from) & targets & s.check_mask;
        push_chess(board, Role::Knight, from, to, out);
        if done(out) {
            return;
        }
    }
    for from in board.by_role(Role::Bishop) & ours {
        let to = bishop_attacks(from, occ) & targets & s.allowed(from);
        push_chess(board, Role::Bishop, from, to, out);
        if done(out) {
            return;
        }
    }
    for from in board.by_role(Role::Rook) & ours {
        let to = rook_attacks(from, occ) & targets & s.allowed(from);
        push_chess(board, Role::Rook, from, to, out);
        if done(out) {
            return;
        }
    }
    for from in board.by_role(Role::Queen) & ours {
        let to = (rook_attacks(from, occ) | bishop_attacks(from, occ)) & targets & s.allowed(from);
        push_chess(board, Role::Queen, from, to, out);
        if done(out) {
            return;
        }
    }

    // The Legion's steps: unpinned men all at once, direction by direction.
    let men = board.pieces(us, Role::Man);
    let free_men = men & !s.pinned;
    let forward: [usize; 2] = match us {
        Color::White => [0, 1],
        Color::Black => [2, 3],
    };
    // In quiescence only crowning steps count (2.5).
    let step_targets = match mode {
        Mode::Noisy => !occ & s.check_mask & far_rank(us),
        _ => !occ & s.check_mask,
    };
    for d in forward {
        for to in shift_diagonal(d, free_men) & step_targets {
            // `to` is a man's square shifted one step along `d`: step back.
            let from = Square::new((to.index() as i32 - DIAGONAL_DELTA[d]) as u8);
            out.push(Move::step(
                Role::Man,
                from,
                to,
                capture::is_far_rank(to, us),
            ));
        }
    }
    for from in men & s.pinned {
        let allowed = match mode {
            Mode::Noisy => s.allowed(from) & far_rank(us),
            _ => s.allowed(from),
        };
        push_steps(board, us, from, Role::Man, allowed, out);
    }
    if done(out) || mode == Mode::Noisy {
        return;
    }
    for from in board.pieces(us, Role::Tama) {
        push_steps(board, us, from, Role::Tama, s.allowed(from), out);
        if done(out) {
            return;
        }
    }

    // Castling (2.2): not out of, through or into check.
    if let Some(k) = s.king
        && !s.in_check
    {
        for side in CastlingSide::ALL {
            if !pos.castling.has(us, side) {
                continue;
            }
            let path = castling::path(us, side);
            if path.king_from != k || (path.must_be_empty & occ).any() {
                continue;
            }
            if !board.pieces(us, Role::Rook).contains(path.rook_from)
                || board.constructs().contains(path.rook_from)
            {
                continue;
            }
            if path
                .king_path
                .into_iter()
                .all(|sq| board.attackers(sq, !us, occ).is_empty())
            {
                out.push(Move::castle(path.king_from, path.king_to));
            }
        }
    }
}

/// The far rank of `color` (2.5).
#[inline]
fn far_rank(color: Color) -> Bitboard {
    match color {
        Color::White => Bitboard::RANK_8,
        Color::Black => Bitboard::RANK_1,
    }
}
