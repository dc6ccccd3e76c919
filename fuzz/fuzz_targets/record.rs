//! Any text as a game record: a game or an error, never a panic; a game
//! that is read writes out and reads back to the same moves.
#![no_main]

use legion_rules::Record;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(record) = Record::parse(text) {
        let written = record.write();
        let again = Record::parse(&written).expect("own record reads back");
        assert_eq!(again.game.moves(), record.game.moves());
    }
    let _ = Record::parse_many(text);
});
