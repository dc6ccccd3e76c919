//! Tuned evaluation weights, written by `legion tune` (docs/STRENGTH.md).
//! Features not listed keep their hand-set weight.

pub const TUNED: &[(&str, i32)] = &[];
