//! The tests' one random-number generator: xorshift64*, small and
//! deterministic, so that a failure reproduces from its seed. (The rules
//! crate sits below the engine, whose `rng` it cannot use.)

use legion_rules::Square;

pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn square(&mut self) -> Square {
        Square::new(self.below(64) as u8)
    }
}
