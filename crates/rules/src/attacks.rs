//! Attack and movement patterns: leapers as constant tables, sliders by
//! magic bitboards, and the diagonal geometry the Legion moves on.

use crate::magics::{BISHOP_MAGICS, ROOK_MAGICS};
use crate::{Bitboard, Square};

/// The four diagonal directions as (file step, rank step), indexed so that
/// `3 - d` is the opposite of `d`.
pub const DIAGONALS: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

/// The direction opposite to diagonal `d`.
#[inline]
pub const fn opposite(d: usize) -> usize {
    3 - d
}

const fn leaper_table(steps: &[(i32, i32)]) -> [Bitboard; 64] {
    let mut table = [Bitboard::EMPTY; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut bits = 0u64;
        let mut i = 0;
        while i < steps.len() {
            let (nf, nr) = (f + steps[i].0, r + steps[i].1);
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                bits |= 1 << (nr * 8 + nf);
            }
            i += 1;
        }
        table[sq] = Bitboard(bits);
        sq += 1;
    }
    table
}

static KNIGHT: [Bitboard; 64] = leaper_table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);

static KING: [Bitboard; 64] = leaper_table(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);

/// For each diagonal direction and square, the whole ray to the edge.
static DIAGONAL_RAYS: [[Bitboard; 64]; 4] = {
    let mut rays = [[Bitboard::EMPTY; 64]; 4];
    let mut d = 0;
    while d < 4 {
        let mut sq = 0;
        while sq < 64 {
            let (mut f, mut r) = ((sq % 8) as i32, (sq / 8) as i32);
            let mut bits = 0u64;
            loop {
                f += DIAGONALS[d].0;
                r += DIAGONALS[d].1;
                if f < 0 || f >= 8 || r < 0 || r >= 8 {
                    break;
                }
                bits |= 1 << (r * 8 + f);
            }
            rays[d][sq] = Bitboard(bits);
            sq += 1;
        }
        d += 1;
    }
    rays
};

/// For each diagonal direction and square, the neighbouring square (64 = none).
static DIAGONAL_STEP: [[u8; 64]; 4] = {
    let mut steps = [[64u8; 64]; 4];
    let mut d = 0;
    while d < 4 {
        let mut sq = 0;
        while sq < 64 {
            let f = (sq % 8) as i32 + DIAGONALS[d].0;
            let r = (sq / 8) as i32 + DIAGONALS[d].1;
            if f >= 0 && f < 8 && r >= 0 && r < 8 {
                steps[d][sq] = (r * 8 + f) as u8;
            }
            sq += 1;
        }
        d += 1;
    }
    steps
};

/// Rook lines from each square on an empty board.
static ROOK_RAYS: [Bitboard; 64] = slider_rays(&[(1, 0), (0, 1), (-1, 0), (0, -1)]);
/// Bishop lines from each square on an empty board.
static BISHOP_RAYS: [Bitboard; 64] = slider_rays(&DIAGONALS);

const fn slider_rays(dirs: &[(i32, i32)]) -> [Bitboard; 64] {
    let mut table = [Bitboard::EMPTY; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut bits = 0u64;
        let mut i = 0;
        while i < dirs.len() {
            let (mut f, mut r) = ((sq % 8) as i32, (sq / 8) as i32);
            loop {
                f += dirs[i].0;
                r += dirs[i].1;
                if f < 0 || f >= 8 || r < 0 || r >= 8 {
                    break;
                }
                bits |= 1 << (r * 8 + f);
            }
            i += 1;
        }
        table[sq] = Bitboard(bits);
        sq += 1;
    }
    table
}

/// Rook moves from `sq` on an empty board.
#[inline]
pub fn rook_rays(sq: Square) -> Bitboard {
    ROOK_RAYS[sq.index()]
}

/// Bishop moves from `sq` on an empty board.
#[inline]
pub fn bishop_rays(sq: Square) -> Bitboard {
    BISHOP_RAYS[sq.index()]
}

/// The squares a Knight on `sq` reaches (2.1).
#[inline]
pub fn knight_attacks(sq: Square) -> Bitboard {
    KNIGHT[sq.index()]
}

/// The squares a King on `sq` reaches in one step (2.1).
#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    KING[sq.index()]
}

/// The square of `set` nearest along diagonal `d`, when every square of
/// `set` lies on that ray (a `diagonal_ray` masked): directions 0 and 1 go
/// up the board (lowest bit first), 2 and 3 go down (highest bit first).
#[inline]
pub(crate) fn nearest(set: Bitboard, d: usize) -> Option<Square> {
    if d < 2 { set.first() } else { set.last() }
}

/// All squares along diagonal `d` from `sq` to the edge, `sq` excluded.
#[inline]
pub fn diagonal_ray(d: usize, sq: Square) -> Bitboard {
    DIAGONAL_RAYS[d][sq.index()]
}

/// The neighbour of `sq` along diagonal `d`.
#[inline]
pub fn diagonal_step(d: usize, sq: Square) -> Option<Square> {
    let s = DIAGONAL_STEP[d][sq.index()];
    if s < 64 { Some(Square::new(s)) } else { None }
}

/// The change of square index one step along diagonal `d` makes: the
/// shift [`shift_diagonal`] applies to the squares it keeps.
pub(crate) const DIAGONAL_DELTA: [i32; 4] = [9, 7, -7, -9];

/// One step along diagonal `d` for every square of a set.
#[inline]
pub fn shift_diagonal(d: usize, b: Bitboard) -> Bitboard {
    match d {
        0 => b.north_east(),
        1 => b.north_west(),
        2 => b.south_east(),
        _ => b.south_west(),
    }
}

pub(crate) struct Magic {
    pub mask: u64,
    pub magic: u64,
    pub shift: u32,
    pub offset: u32,
}

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];

/// Slow reference attacks: walk each ray until the first blocker.
pub(crate) const fn slide_slow(sq: Square, occupied: u64, dirs: &[(i32, i32)]) -> u64 {
    let mut bits = 0;
    let mut i = 0;
    while i < dirs.len() {
        let (df, dr) = dirs[i];
        let mut cur = sq;
        while let Some(next) = cur.offset(df, dr) {
            bits |= 1 << next.index();
            if occupied & (1 << next.index()) != 0 {
                break;
            }
            cur = next;
        }
        i += 1;
    }
    bits
}

/// The occupancy bits that matter for a slider on `sq`: its rays without
/// the last square of each (a blocker there changes nothing).
pub(crate) const fn relevant_mask(sq: Square, dirs: &[(i32, i32)]) -> u64 {
    let mut bits = 0;
    let mut i = 0;
    while i < dirs.len() {
        let (df, dr) = dirs[i];
        let mut cur = sq;
        while let Some(next) = cur.offset(df, dr) {
            if next.offset(df, dr).is_none() {
                break;
            }
            bits |= 1 << next.index();
            cur = next;
        }
        i += 1;
    }
    bits
}

/// The magic entries of one slider, its attack sets laid out from `start`
/// in [`SLIDING`]; and where the next slider's begin.
const fn magics(
    multipliers: &[u64; 64],
    dirs: &[(i32, i32)],
    start: usize,
) -> ([Magic; 64], usize) {
    let mut out = [const {
        Magic {
            mask: 0,
            magic: 0,
            shift: 0,
            offset: 0,
        }
    }; 64];
    let mut offset = start;
    let mut i = 0;
    while i < 64 {
        let mask = relevant_mask(Square::new(i as u8), dirs);
        let bits = mask.count_ones();
        out[i] = Magic {
            mask,
            magic: multipliers[i],
            shift: 64 - bits,
            offset: offset as u32,
        };
        offset += 1 << bits;
        i += 1;
    }
    (out, offset)
}

const ROOK_TABLE: ([Magic; 64], usize) = magics(&ROOK_MAGICS, &ROOK_DIRS, 0);
const BISHOP_TABLE: ([Magic; 64], usize) = magics(&BISHOP_MAGICS, &DIAGONALS, ROOK_TABLE.1);
const SLIDING_LEN: usize = BISHOP_TABLE.1;

/// Rook, then Bishop magic entries. Built at compile time, like every
/// table here: a look-up is a load at a fixed address, with no check
/// that a lazily built table is ready.
static ROOK: [Magic; 64] = ROOK_TABLE.0;
static BISHOP: [Magic; 64] = BISHOP_TABLE.0;

/// Each of the eight rays from each square to the edge, for the attack
/// sets below: rook directions (east, north, west, south), then the
/// diagonals in the order of [`DIAGONALS`].
const RAYS: [[u64; 64]; 8] = {
    let dirs = [
        (1, 0),
        (0, 1),
        (-1, 0),
        (0, -1),
        DIAGONALS[0],
        DIAGONALS[1],
        DIAGONALS[2],
        DIAGONALS[3],
    ];
    let mut rays = [[0; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 64 {
            rays[d][sq] = slide_slow(Square::new(sq as u8), 0, &[dirs[d]]);
            sq += 1;
        }
        d += 1;
    }
    rays
};

/// The squares along ray `d` from `sq` up to and including the first
/// occupied one: the ray, less the ray beyond that blocker.
const fn ray_attacks(d: usize, sq: usize, occupied: u64) -> u64 {
    let ray = RAYS[d][sq];
    let blockers = ray & occupied;
    if blockers == 0 {
        return ray;
    }
    // Rays east, north and up the board go to higher squares: the nearest
    // blocker is the lowest bit; the others, the highest.
    let up = d == 0 || d == 1 || d == 4 || d == 5;
    let first = if up {
        blockers.trailing_zeros()
    } else {
        63 - blockers.leading_zeros()
    };
    ray & !RAYS[d][first as usize]
}

/// The attack sets of every slider, square and relevant occupancy
/// (some 107,000 sets, built at compile time).
static SLIDING: [Bitboard; SLIDING_LEN] = {
    let mut table = [Bitboard::EMPTY; SLIDING_LEN];
    let mut slider = 0;
    while slider < 2 {
        let (entries, first_ray) = if slider == 0 {
            (&ROOK_TABLE.0, 0)
        } else {
            (&BISHOP_TABLE.0, 4)
        };
        let mut i = 0;
        while i < 64 {
            let m = &entries[i];
            // Enumerate every subset of the mask (Carry-Rippler).
            let mut subset = 0u64;
            loop {
                let idx = (subset.wrapping_mul(m.magic) >> m.shift) as usize;
                table[m.offset as usize + idx] = Bitboard(
                    ray_attacks(first_ray, i, subset)
                        | ray_attacks(first_ray + 1, i, subset)
                        | ray_attacks(first_ray + 2, i, subset)
                        | ray_attacks(first_ray + 3, i, subset),
                );
                subset = subset.wrapping_sub(m.mask) & m.mask;
                if subset == 0 {
                    break;
                }
            }
            i += 1;
        }
        slider += 1;
    }
    table
};

/// For two squares on a common line, the squares strictly between them
/// (`between`) and the whole line edge to edge (`line`).
const fn line_tables() -> ([[Bitboard; 64]; 64], [[Bitboard; 64]; 64]) {
    let mut between = [[Bitboard::EMPTY; 64]; 64];
    let mut line = [[Bitboard::EMPTY; 64]; 64];
    let dirs = [
        (1, 0),
        (0, 1),
        (-1, 0),
        (0, -1),
        (1, 1),
        (-1, 1),
        (1, -1),
        (-1, -1),
    ];
    let mut a = 0;
    while a < 64 {
        let sq = Square::new(a as u8);
        let mut i = 0;
        while i < dirs.len() {
            let (df, dr) = dirs[i];
            let full = slide_slow(sq, 0, &[(df, dr)]) | slide_slow(sq, 0, &[(-df, -dr)]);
            let mut cur = sq;
            let mut acc = 0u64;
            while let Some(next) = cur.offset(df, dr) {
                between[a][next.index()] = Bitboard(acc);
                line[a][next.index()] = Bitboard(full | 1 << a);
                acc |= 1 << next.index();
                cur = next;
            }
            i += 1;
        }
        a += 1;
    }
    (between, line)
}

const LINES: ([[Bitboard; 64]; 64], [[Bitboard; 64]; 64]) = line_tables();
static BETWEEN: [[Bitboard; 64]; 64] = LINES.0;
static LINE: [[Bitboard; 64]; 64] = LINES.1;

#[inline]
fn magic_lookup(m: &Magic, occupied: Bitboard) -> Bitboard {
    let idx = ((occupied.0 & m.mask).wrapping_mul(m.magic) >> m.shift) as usize;
    // The index is < 2^(64-shift) by construction, so the bounds check
    // here never fails.
    SLIDING[m.offset as usize + idx]
}

/// The squares a Rook on `sq` reaches given the occupied squares:
/// along ranks and files up to and including the first piece (2.1).
#[inline]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(&ROOK[sq.index()], occupied)
}

/// The squares a Bishop on `sq` reaches given the occupied squares:
/// along diagonals up to and including the first piece (2.1).
#[inline]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(&BISHOP[sq.index()], occupied)
}

/// The squares a Queen on `sq` reaches given the occupied squares:
/// those of a Rook and a Bishop together (2.1).
#[inline]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

/// Squares strictly between `a` and `b` on a common line, else empty.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    BETWEEN[a.index()][b.index()]
}

/// The whole line through `a` and `b` (edge to edge), else empty.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    LINE[a.index()][b.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    fn squares(list: &str) -> Bitboard {
        list.split_whitespace().map(sq).collect()
    }

    #[test]
    fn leapers() {
        assert_eq!(knight_attacks(sq("g1")), squares("e2 f3 h3"));
        assert_eq!(knight_attacks(sq("d4")).count(), 8);
        assert_eq!(king_attacks(sq("a1")), squares("a2 b1 b2"));
        assert_eq!(king_attacks(sq("e4")).count(), 8);
    }

    #[test]
    fn magics_agree_with_ray_walking_on_every_subset() {
        // Every occupancy subset of every square must map to the right set.
        for s in Square::all() {
            for (dirs, f) in [
                (
                    &ROOK_DIRS[..],
                    rook_attacks as fn(Square, Bitboard) -> Bitboard,
                ),
                (&DIAGONALS[..], bishop_attacks),
            ] {
                let mask = relevant_mask(s, dirs);
                let mut subset = 0u64;
                loop {
                    // Noise outside the mask must not matter.
                    let occ = subset | (!mask & 0x1234_5678_9ABC_DEF0);
                    assert_eq!(f(s, Bitboard(occ)).0, slide_slow(s, occ, dirs), "{s}");
                    subset = subset.wrapping_sub(mask) & mask;
                    if subset == 0 {
                        break;
                    }
                }
            }
        }
    }

    #[test]
    fn sliders_stop_at_blockers() {
        let occ = squares("e1 d2 b5");
        assert_eq!(bishop_attacks(sq("f1"), occ), squares("e2 d3 c4 b5 g2 h3"));
        assert_eq!(
            rook_attacks(sq("a1"), squares("a3 c1")),
            squares("a2 a3 b1 c1")
        );
    }

    #[test]
    fn empty_board_rays() {
        for s in Square::all() {
            assert_eq!(rook_rays(s), rook_attacks(s, Bitboard::EMPTY));
            assert_eq!(bishop_rays(s), bishop_attacks(s, Bitboard::EMPTY));
        }
    }

    #[test]
    fn between_and_line() {
        assert_eq!(between(sq("a1"), sq("d4")), squares("b2 c3"));
        assert_eq!(between(sq("e1"), sq("e4")), squares("e2 e3"));
        assert_eq!(between(sq("a1"), sq("b3")), Bitboard::EMPTY);
        assert_eq!(between(sq("a1"), sq("b2")), Bitboard::EMPTY);
        assert_eq!(line(sq("c3"), sq("e5")), squares("a1 b2 c3 d4 e5 f6 g7 h8"));
        assert_eq!(line(sq("a1"), sq("b3")), Bitboard::EMPTY);
    }

    #[test]
    fn diagonal_geometry() {
        for d in 0..4 {
            for s in Square::all() {
                let step = diagonal_step(d, s);
                assert_eq!(
                    step.map(Bitboard::from).unwrap_or_default(),
                    shift_diagonal(d, Bitboard::from(s))
                );
                if let Some(n) = step {
                    let delta = n.index() as i32 - s.index() as i32;
                    assert_eq!(Some(&delta), DIAGONAL_DELTA.get(d));
                    assert_eq!(diagonal_step(opposite(d), n), Some(s));
                    assert!(diagonal_ray(d, s).contains(n));
                }
            }
        }
        assert_eq!(diagonal_ray(0, sq("c3")), squares("d4 e5 f6 g7 h8"));
    }
}
