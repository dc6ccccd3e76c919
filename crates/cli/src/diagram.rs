//! A readable board diagram for terminals: constructs shown as `[Qm]`,
//! dark squares dotted (the Legion's squares), light squares blank.

use std::fmt::Write as _;

use legion_rules::{Color, Position, Square};

/// The board from White's side (or Black's when `flip`), with a legend.
pub fn board(pos: &Position, flip: bool) -> String {
    let mut s = String::new();
    let files: Vec<u8> = if flip {
        (0..8).rev().collect()
    } else {
        (0..8).collect()
    };
    let ranks: Vec<u8> = if flip {
        (0..8).collect()
    } else {
        (0..8).rev().collect()
    };
    let header: String = files
        .iter()
        .map(|&f| format!("  {} ", (b'a' + f) as char))
        .collect();
    let _ = writeln!(s, "  {header}");
    for &r in &ranks {
        let _ = write!(s, "{} ", r + 1);
        for &f in &files {
            let sq = Square::new(r * 8 + f);
            let cell = match pos.board().occupant(sq) {
                Some(o) => match o.prisoner_piece() {
                    Some(p) => format!("[{}{}]", o.piece.char(), p.char()),
                    None => format!("  {} ", o.piece.char()),
                },
                None if sq.is_dark() => "  . ".to_string(),
                None => "    ".to_string(),
            };
            s.push_str(&cell);
        }
        let _ = writeln!(s, "  {}", r + 1);
    }
    let _ = writeln!(s, "  {header}");
    s
}

/// Board, whose move, check, phase and the LFEN.
pub fn render(pos: &Position) -> String {
    let mut s = board(pos, false);
    s.push('\n');
    let turn = pos.turn();
    let _ = write!(s, "{turn} to move");
    if pos.is_check() {
        s.push_str(", in check");
    }
    s.push('\n');
    let kings: Vec<Color> = Color::ALL
        .into_iter()
        .filter(|&c| pos.board().king(c).is_none())
        .collect();
    match kings.as_slice() {
        [] => s.push_str("Phase 1: both Kings on the board\n"),
        [c] => {
            let _ = writeln!(
                s,
                "Phase 2: {c} has lost its King and plays on without it (5.1)"
            );
        }
        _ => s.push_str("Phase 2: neither side has a King (5.1)\n"),
    }
    let capturers = pos.compulsory_capturers();
    if capturers.any() {
        let from: Vec<String> = capturers.into_iter().map(|s| s.to_string()).collect();
        let _ = writeln!(
            s,
            "A Legion capture is compulsory (4.2): {}",
            from.join(", ")
        );
    }
    if pos.rules().mate_ends_game {
        s.push_str("Rules: mate-ends-game (5.4)\n");
    }
    let _ = writeln!(
        s,
        "Castling: {}   Half-move clock: {}   Move: {}",
        pos.castling(),
        pos.halfmove_clock(),
        pos.fullmove_number()
    );
    if pos.board().constructs().any() {
        s.push_str("[Xy] is a construct: Captor X holding prisoner y (1.5)\n");
    }
    let _ = writeln!(s, "LFEN: {}", pos.to_lfen());
    s
}
