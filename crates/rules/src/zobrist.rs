//! Zobrist keys: one random word per (piece, square), per (prisoner,
//! square), per castling-rights set and for Black to move. A position's
//! hash is the XOR of the keys of what it holds (5.3 compares placement,
//! side to move and castling rights, so those are exactly what is hashed).

use crate::{Color, Piece, Role, Square};

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const PIECE_KEYS: usize = 2 * 7 * 64;
const PRISONER_KEYS: usize = 2 * 2 * 64;
const TOTAL: usize = PIECE_KEYS + PRISONER_KEYS + 16 + 1;

static KEYS: [u64; TOTAL] = {
    let mut keys = [0u64; TOTAL];
    let mut state = 0x4C45_4749_4F4E_u64; // "LEGION"
    let mut i = 0;
    while i < TOTAL {
        let (s, k) = splitmix(state);
        state = s;
        keys[i] = k;
        i += 1;
    }
    keys
};

/// The key of a free piece (or a Captor) on a square.
#[inline]
pub fn piece(p: Piece, sq: Square) -> u64 {
    KEYS[(p.color.index() * 7 + p.role.index()) * 64 + sq.index()]
}

/// The key of a prisoner of colour `color` and role `role` (Man or Tama).
#[inline]
pub fn prisoner(color: Color, role: Role, sq: Square) -> u64 {
    let kind = (role == Role::Tama) as usize;
    KEYS[PIECE_KEYS + (color.index() * 2 + kind) * 64 + sq.index()]
}

/// The key of a set of castling rights (bits as in `CastlingRights`).
#[inline]
pub fn castling(bits: u8) -> u64 {
    KEYS[PIECE_KEYS + PRISONER_KEYS + (bits & 15) as usize]
}

/// XORed in when Black is to move.
#[inline]
pub fn black_to_move() -> u64 {
    KEYS[TOTAL - 1]
}

#[cfg(test)]
mod tests {
    #[test]
    fn keys_are_distinct() {
        let mut keys = super::KEYS.to_vec();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), super::TOTAL);
    }
}
