//! The transposition table: what earlier searches learned about positions,
//! shared by all search threads without locks. Each entry is two words;
//! the key word is stored XORed with the data word, so a torn write by two
//! threads shows up as a key mismatch and is ignored.

use std::sync::atomic::{AtomicU64, Ordering};

use legion_rules::{Move, MoveKind, MoveList};

/// How a stored score bounds the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

/// A move in 32 bits: from, to, kind, crowning and a fold of the captured
/// squares, enough to pick it out of the legal moves again (4.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct PackedMove(u32);

impl PackedMove {
    pub const NONE: PackedMove = PackedMove(0);

    pub fn pack(m: Move) -> PackedMove {
        let kind = match m.kind() {
            MoveKind::Chess => 0,
            MoveKind::Castle => 1,
            MoveKind::Step => 2,
            MoveKind::Jump => 3,
        };
        let c = m.captured().0;
        let fold = (c ^ (c >> 16) ^ (c >> 32) ^ (c >> 48)) as u32 & 0xFFFF;
        // Bit 31 marks a stored move, so that a1a1 is never confused with none.
        PackedMove(
            1 << 31
                | (m.from().index() as u32)
                | (m.to().index() as u32) << 6
                | kind << 12
                | (m.crowns() as u32) << 14
                | fold << 15,
        )
    }

    pub fn is_none(self) -> bool {
        self.0 == 0
    }

    /// The legal move this stands for, if it is among `moves`.
    pub fn find(self, moves: &MoveList) -> Option<Move> {
        if self.is_none() {
            return None;
        }
        moves.iter().copied().find(|&m| PackedMove::pack(m) == self)
    }
}

#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub mv: PackedMove,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

struct Slot {
    key: AtomicU64,
    data: AtomicU64,
}

pub struct Table {
    slots: Vec<Slot>,
}

impl Table {
    /// A table of about `mb` megabytes.
    pub fn new(mb: usize) -> Table {
        let n = (mb.max(1) * 1024 * 1024 / std::mem::size_of::<Slot>()).max(1024);
        let slots = (0..n)
            .map(|_| Slot {
                key: AtomicU64::new(0),
                data: AtomicU64::new(0),
            })
            .collect();
        Table { slots }
    }

    pub fn clear(&self) {
        for s in &self.slots {
            s.key.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
    }

    #[inline]
    fn slot(&self, key: u64) -> &Slot {
        // Multiply-high maps the key onto any table size evenly.
        let i = ((key as u128 * self.slots.len() as u128) >> 64) as usize;
        &self.slots[i]
    }

    /// What the table knows of the position with hash `key`.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let s = self.slot(key);
        let data = s.data.load(Ordering::Relaxed);
        // The key word holds the high 48 bits of the key and, in its low 16
        // bits, depth and bound; all of it XORed with the data word.
        let plain = s.key.load(Ordering::Relaxed) ^ data;
        if plain >> 16 != key >> 16 || plain == 0 {
            return None;
        }
        let meta = plain & 0xFFFF;
        let bound = match meta & 3 {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Entry {
            mv: PackedMove(data as u32),
            score: (data >> 32) as u16 as i16 as i32,
            eval: (data >> 48) as u16 as i16 as i32,
            depth: ((meta >> 2) & 0xFF) as i32 - 20,
            bound,
        })
    }

    pub fn store(&self, key: u64, e: Entry) {
        let s = self.slot(key);
        // Replace unless a deeper result for the same position is there.
        let old = self.probe(key);
        if let Some(old) = old
            && old.depth > e.depth + 2
            && e.bound != Bound::Exact
        {
            return;
        }
        let mv = if e.mv.is_none() {
            old.map_or(PackedMove::NONE, |o| o.mv)
        } else {
            e.mv
        };
        let data = mv.0 as u64
            | ((e.score.clamp(-32767, 32767) as i16 as u16 as u64) << 32)
            | ((e.eval.clamp(-32767, 32767) as i16 as u16 as u64) << 48);
        let bound = match e.bound {
            Bound::Exact => 0,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        let meta = bound | (((e.depth + 20).clamp(0, 255) as u64) << 2);
        s.key
            .store((key & !0xFFFF | meta) ^ data, Ordering::Relaxed);
        s.data.store(data, Ordering::Relaxed);
    }

    /// Permille of slots in use, from a sample (for `info hashfull`).
    pub fn hashfull(&self) -> u32 {
        let n = self.slots.len().min(1000);
        let used = self.slots[..n]
            .iter()
            .filter(|s| s.key.load(Ordering::Relaxed) != 0)
            .count();
        (used * 1000 / n) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_entries() {
        let t = Table::new(1);
        let key = 0x1234_5678_9ABC_DEF0;
        assert!(t.probe(key).is_none());
        let pos = legion_rules::Position::initial();
        let moves = pos.legal_moves();
        let m = moves[3];
        t.store(
            key,
            Entry {
                mv: PackedMove::pack(m),
                score: -123,
                eval: 45,
                depth: 7,
                bound: Bound::Lower,
            },
        );
        let e = t.probe(key).unwrap();
        assert_eq!(
            (e.score, e.eval, e.depth, e.bound),
            (-123, 45, 7, Bound::Lower)
        );
        assert_eq!(e.mv.find(&moves), Some(m));
        // A different key in the same slot is not mistaken for it.
        assert!(t.probe(key ^ (1 << 40)).is_none());
        // Negative depths (quiescence) survive.
        t.store(
            key,
            Entry {
                mv: PackedMove::NONE,
                score: 5,
                eval: 5,
                depth: -3,
                bound: Bound::Exact,
            },
        );
        let e = t.probe(key).unwrap();
        assert_eq!(e.depth, -3);
        assert_eq!(e.mv.find(&moves), Some(m), "the old move is kept");
    }
}
