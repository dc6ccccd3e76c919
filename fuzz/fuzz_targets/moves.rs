//! Any text as a move, in positions of every kind: a move or an error
//! with a reason, never a panic.
#![no_main]

use legion_rules::notation::parse_move;
use legion_rules::{Position, Rules};
use libfuzzer_sys::fuzz_target;

const POSITIONS: &[&str] = &[
    legion_rules::INITIAL_LFEN,
    "2r1k2r/3b4/1q[nM]2n2/m1m1m3/3M1M1t/2N2B2/1T1QB3/R3K2R w KQ 0 1",
    "r2k3r/m1[Bm]1m1m1/8/2M1t3/5[qT]2/2M1M3/1M3M2/R3K1NR b KQkq 0 12",
    "k7/8/8/8/5m2/2m5/8/T5K1 w - 0 1",
    "3k4/8/1m1m4/8/1m1m4/2M5/8/4K3 w - 0 1",
    "K6q/6m1/8/8/8/8/8/2RQR3 b - 0 1",
];

fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let lfen = POSITIONS[which as usize % POSITIONS.len()];
    let pos = Position::from_lfen(lfen, Rules::DEFAULT).expect("fixed positions are valid");
    if let Ok(m) = parse_move(&pos, text) {
        assert!(pos.is_legal(m));
    }
});
