//! Any bytes as an LFEN: an error or a position, never a panic; a position
//! that is accepted writes out and reads back to itself.
#![no_main]

use legion_rules::{Position, Rules};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for rules in [Rules::DEFAULT, Rules::MATE_ENDS_GAME] {
        if let Ok(pos) = Position::from_lfen(text, rules) {
            let again = Position::from_lfen(&pos.to_lfen(), rules).expect("own LFEN reads back");
            assert_eq!(again, pos);
            let moves = pos.legal_moves();
            for m in moves.iter().take(8) {
                let _ = pos.after(*m);
            }
        }
    }
});
