//! Tests of the reference implementation (`tests/reference`) alone.
//!
//! Every expected value here was worked out by hand from `docs/RULES.md`
//! (Part VII for the initial position), not taken from running code.

mod reference;

use reference::{apply, legal_moves, perft};

const START: &str = "rnbkqbnr/m1m1m1m1/1m1m1m1m/8/8/M1M1M1M1/1M1M1M1M/RNBQKBNR w KQkq 0 1";

fn sorted(moves: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = moves.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

fn moves(lfen: &str) -> Vec<String> {
    legal_moves(lfen, false).unwrap()
}

fn play(lfen: &str, mv: &str) -> String {
    apply(lfen, mv, false).unwrap()
}

// --- Part VII --------------------------------------------------------------

#[test]
fn initial_position_has_the_26_moves_of_part_vii() {
    let expected = sorted(&[
        "a3b4", "c3b4", "c3d4", "e3d4", "e3f4", "g3f4", "g3h4", // Legion
        "g1e2", "g1f3", "g1h3", // Knight
        "f1e2", "f1d3", "f1c4", "f1b5", "f1a6", "f1g2", "f1h3", // Bishop
        "d1c2", "d1b3", "d1a4", "d1e2", "d1f3", "d1g4", "d1h5", // Queen
        "e1e2", // King
        "a1a2", // Rook
    ]);
    assert_eq!(moves(START), expected);
    assert_eq!(legal_moves(START, true).unwrap(), expected);
}

#[test]
fn perft_initial_depths_1_to_3() {
    assert_eq!(perft(START, 1, false).unwrap(), 26);
    assert_eq!(perft(START, 2, false).unwrap(), 670);
    assert_eq!(perft(START, 3, false).unwrap(), 18067);
}

#[test]
fn perft_initial_depth_4() {
    assert_eq!(perft(START, 4, false).unwrap(), 464157);
}

#[test]
#[ignore = "slow: about half a minute"]
fn perft_initial_depth_5() {
    assert_eq!(perft(START, 5, false).unwrap(), 12581553);
}

#[test]
fn first_moves_round_trip() {
    // A man move resets the clock; a Black move advances the move number.
    let after = play(START, "c3d4");
    assert_eq!(
        after,
        "rnbkqbnr/m1m1m1m1/1m1m1m1m/8/3M4/M3M1M1/1M1M1M1M/RNBQKBNR b KQkq 0 1"
    );
    let after = play(&after, "c8f5");
    assert_eq!(
        after,
        "rn1kqbnr/m1m1m1m1/1m1m1m1m/5b2/3M4/M3M1M1/1M1M1M1M/RNBQKBNR w KQkq 1 2"
    );
}

// --- 2.5, 4.3: a man's series, crowned on the way ---------------------------

#[test]
fn man_is_crowned_mid_series_and_goes_on_as_a_tama() {
    // b6 jumps c7 to d8 (crowned, 2.5), then as a Tama jumps f6 from a
    // distance (e7 empty) and may land on g5 or h4; neither continues.
    let lfen = "k7/2m5/1M3m2/8/8/8/8/4K3 w - 7 1";
    assert_eq!(moves(lfen), sorted(&["b6d8g5", "b6d8h4"]));
    assert_eq!(play(lfen, "b6d8h4"), "k7/8/8/8/7T/8/8/4K3 b - 0 1");
    assert_eq!(play(lfen, "b6d8g5"), "k7/8/8/6T1/8/8/8/4K3 b - 0 1");
    // Stopping early is not a move.
    assert!(apply(lfen, "b6d8", false).is_err());
}

#[test]
fn tama_must_land_where_it_can_jump_again() {
    // a1 jumps c3; of d4 e5 f6 g7 h8 only e5 continues (over f4), so e5 it is.
    let lfen = "K7/8/8/8/5m2/2m5/8/T6k w - 0 1";
    assert_eq!(moves(lfen), sorted(&["a1e5g3", "a1e5h2"]));
    assert_eq!(play(lfen, "a1e5h2"), "K7/8/8/8/8/8/7T/7k b - 0 1");
    assert!(apply(lfen, "a1f6", false).is_err());
    assert!(apply(lfen, "a1d4", false).is_err());
}

#[test]
fn one_move_many_paths() {
    // A closed loop over d4 f4 f2 d2 from c3 back to c3, both ways round: one
    // move (4.5), written by its smallest path; either path is accepted.
    let lfen = "k7/8/8/8/3m1m2/2M5/3m1m2/7K w - 0 1";
    assert_eq!(moves(lfen), sorted(&["c3e1g3e5c3"]));
    let expected = "k7/8/8/8/8/2M5/8/7K b - 0 1";
    assert_eq!(play(lfen, "c3e1g3e5c3"), expected);
    assert_eq!(play(lfen, "c3e5g3e1c3"), expected);
    assert_eq!(play(lfen, "c3:e5:g3:e1:c3"), expected);
    assert!(apply(lfen, "c3e5", false).is_err());
    assert!(apply(lfen, "c3e5g3", false).is_err());
    assert_eq!(perft(lfen, 1, false).unwrap(), 1);
}

// --- 4.1: constructs ------------------------------------------------------

#[test]
fn liberation_frees_the_prisoner_to_the_jumping_side() {
    // c3 jumps the Black Queen holding a White man on d4, lands e5, then must
    // go on over f6 to g7. The Queen goes; the man on d4 is White's again.
    let lfen = "k7/8/5m2/8/3[qM]4/2M5/8/7K w - 0 1";
    assert_eq!(moves(lfen), sorted(&["c3e5g7"]));
    assert_eq!(play(lfen, "c3e5g7"), "k7/6M1/8/8/3M4/8/8/7K b - 0 1");
}

#[test]
fn chess_piece_takes_a_man_prisoner_and_carries_it() {
    let lfen = "k7/8/3m4/8/8/8/8/3R3K w - 5 10";
    assert!(moves(lfen).contains(&"d1d6".to_string()));
    let after = play(lfen, "d1d6");
    assert_eq!(after, "k7/8/3[Rm]4/8/8/8/8/7K b - 0 10");
    assert_eq!(moves(&after), sorted(&["a8a7", "a8b7", "a8b8"]));
    let after = play(&after, "a8b8");
    assert_eq!(after, "1k6/8/3[Rm]4/8/8/8/8/7K w - 1 11");
    // 2.3: the construct goes to a light square with its prisoner.
    assert_eq!(play(&after, "d6d5"), "1k6/8/8/3[Rm]4/8/8/8/7K b - 2 11");
}

#[test]
fn construct_capturing_a_tama_removes_it() {
    // 4.1: a Captor holds one prisoner; the Tama is removed.
    let lfen = "k7/8/3[Rm]4/8/3t4/8/8/7K w - 0 1";
    assert_eq!(play(lfen, "d6d4"), "k7/8/8/8/3[Rm]4/8/8/7K b - 0 1");
}

#[test]
fn absorption() {
    // A plain Bishop absorbs a Black Knight holding a White man: both go.
    let lfen = "k7/8/8/8/8/4[nM]3/8/2B4K w - 3 20";
    assert_eq!(play(lfen, "c1e3"), "k7/8/8/8/8/4B3/8/7K b - 0 20");
    // A construct absorbs a construct and keeps its own prisoner.
    let lfen = "7k/8/8/3[rT]4/8/8/8/3[Qm]3K w - 0 1";
    assert_eq!(play(lfen, "d1d5"), "7k/8/8/3[Qm]4/8/8/8/7K b - 0 1");
}

// --- 3.2, 4.2: check by a jump threat --------------------------------------

#[test]
fn check_by_a_man_jump_threat_and_its_evasions() {
    // The Black man d4 threatens to jump the King e3 to f2: check. Not the
    // capture obligation but the check governs (4.2.1). Evasions: every King
    // move but f2 (there the Tama h4 threatens to jump it to e1), the King
    // taking d4 prisoner, the Knight filling f2, the man c3 taking d4.
    // The Knight to g3 and the man to b4 leave the check.
    let lfen = "7k/8/8/8/3m3t/2M1K3/8/7N w - 0 1";
    assert_eq!(
        moves(lfen),
        sorted(&[
            "c3e5", "e3d2", "e3d3", "e3d4", "e3e2", "e3e4", "e3f3", "e3f4", "h1f2",
        ])
    );
    assert_eq!(play(lfen, "e3d4"), "7k/8/8/8/3[Km]3t/2M5/8/7N b - 0 1");
}

#[test]
fn king_construct_is_never_jumped_but_is_checked() {
    // a3 jumps b4 to c5; beside it the Black King holds a White man on d6
    // with e7 empty: the series stops (3.1) but Black is in check.
    let lfen = "8/8/3[kM]4/8/1m6/M7/8/7K w - 0 1";
    assert_eq!(moves(lfen), sorted(&["a3c5"]));
    let after = play(lfen, "a3c5");
    assert_eq!(after, "8/8/3[kM]4/2M5/8/8/8/7K b - 0 1");
    assert_eq!(
        moves(&after),
        sorted(&[
            "d6c5", "d6c6", "d6c7", "d6d5", "d6d7", "d6e5", "d6e6", "d6e7",
        ])
    );
    // Taking the man, the King construct keeps its own prisoner.
    assert_eq!(play(&after, "d6c5"), "8/8/8/2[kM]5/8/8/8/7K w - 0 2");
}

// --- 4.2: the obligation ---------------------------------------------------

#[test]
fn legion_capture_is_obligatory() {
    // Two captures, both to e5; the Rook and the King may not move.
    let lfen = "k7/8/8/8/3m1m1m/2M3M1/8/1R5K w - 0 1";
    assert_eq!(moves(lfen), sorted(&["c3e5", "g3e5"]));
}

#[test]
fn illegal_capture_creates_no_obligation() {
    // c3 takes d4 only by unmasking the Rook c8 on the King c1: illegal, so
    // no obligation (4.2); the man may not step either.
    let lfen = "2r4k/8/8/8/3m4/2M5/8/2K3N1 w - 0 1";
    assert_eq!(
        moves(lfen),
        sorted(&[
            "c1b1", "c1b2", "c1c2", "c1d1", "c1d2", "g1e2", "g1f3", "g1h3",
        ])
    );
}

// --- 2.2: castling ---------------------------------------------------------

#[test]
fn black_castles_d8_b8() {
    // The Bishop h5 covers e8, so only the short castling d8-b8.
    let lfen = "r2k3r/8/8/7B/8/8/8/4K3 b kq 0 1";
    assert_eq!(
        moves(lfen),
        sorted(&[
            "a8a1", "a8a2", "a8a3", "a8a4", "a8a5", "a8a6", "a8a7", "a8b8", "a8c8", //
            "d8b8", "d8c7", "d8c8", "d8d7", "d8e7", //
            "h8e8", "h8f8", "h8g8", "h8h5", "h8h6", "h8h7",
        ])
    );
    assert_eq!(play(lfen, "d8b8"), "1kr4r/8/8/7B/8/8/8/4K3 w - 1 2");
    // Moving the a8 Rook loses the short right only.
    assert_eq!(play(lfen, "a8a7"), "3k3r/r7/8/7B/8/8/8/4K3 w q 1 2");
}

#[test]
fn white_castles_long() {
    let lfen = "3k4/8/8/8/8/8/8/R3K2R w KQ 0 1";
    let list = moves(lfen);
    assert!(list.contains(&"e1g1".to_string()));
    assert!(list.contains(&"e1c1".to_string()));
    assert_eq!(play(lfen, "e1c1"), "3k4/8/8/8/8/8/8/2KR3R b - 1 1");
    assert_eq!(play(lfen, "e1g1"), "3k4/8/8/8/8/8/8/R4RK1 b - 1 1");
}

// --- 5.1: mate and King removal --------------------------------------------

#[test]
fn mate_removes_the_king_by_default_and_ends_play_under_the_option() {
    // Qb1-b7 mates: a7 is Black's own man, b8 is covered, b7 is guarded by
    // the Knight c5, the man cannot help.
    let lfen = "k7/m7/8/2N5/8/8/8/1Q5K w - 7 30";
    let removed = play(lfen, "b1b7");
    assert_eq!(removed, "8/mQ6/8/2N5/8/8/8/7K b - 0 30");
    assert_eq!(moves(&removed), sorted(&["a7b6"]));

    let mated = apply(lfen, "b1b7", true).unwrap();
    assert_eq!(mated, "k7/mQ6/8/2N5/8/8/8/7K b - 8 30");
    assert_eq!(legal_moves(&mated, true).unwrap(), Vec::<String>::new());
    assert_eq!(perft(&mated, 1, true).unwrap(), 0);

    // Read under the default rules, the mated King is removed on reading.
    assert_eq!(moves(&mated), sorted(&["a7b6"]));
    assert_eq!(perft(&mated, 1, false).unwrap(), 1);
    assert_eq!(play(&mated, "a7b6"), "8/1Q6/1m6/2N5/8/8/8/7K w - 0 31");
}

// --- clocks, crowning by a step, LFEN --------------------------------------

#[test]
fn clocks_and_crowning_by_a_step() {
    // A man step (here crowning) resets the clock; a Tama step does not.
    assert_eq!(
        play("k7/6M1/8/8/8/8/8/7K w - 9 5", "g7h8"),
        "k6T/8/8/8/8/8/8/7K b - 0 5"
    );
    assert_eq!(
        play("k7/8/8/8/8/8/8/T6K w - 9 5", "a1d4"),
        "k7/8/8/8/3T4/8/8/7K b - 10 5"
    );
    // Fields 4 and 5 may be omitted.
    assert_eq!(
        play("k7/8/8/8/8/8/8/T6K w -", "a1d4"),
        "k7/8/8/8/3T4/8/8/7K b - 1 1"
    );
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    for bad in [
        "",
        "xyz",
        "8/8/8/8/8/8/8 w - 0 1",
        "9/8/8/8/8/8/8/8 w - 0 1",
        "k7/8/8/8/8/8/8/7K x - 0 1",
        "k6z/8/8/8/8/8/8/7K w - 0 1",
        "k7/8/8/8/8/8/8/6[KK] w - 0 1",
        "k7/8/8/8/8/8/8/6[Mm w - 0 1",
        "k7/8/8/8/8/8/8/6[Qm]2 w - 0 1",
        "k7/8/8/8/8/8/8/7K w K 0 1",
        "k7/8/8/8/8/8/8/7K w - a 1",
    ] {
        assert!(legal_moves(bad, false).is_err(), "{bad}");
        assert!(perft(bad, 1, false).is_err(), "{bad}");
        assert!(apply(bad, "a1a2", false).is_err(), "{bad}");
    }
    assert!(apply(START, "e1e3", false).is_err());
    assert!(apply(START, "zz", false).is_err());
}

// --- colour symmetry -------------------------------------------------------

/// The position turned half round with the colours exchanged (1.6: the game
/// is symmetric under this), full-move number left out.
fn mirror(lfen: &str) -> String {
    let fields: Vec<&str> = lfen.split(' ').collect();
    let swap = |c: char| {
        if c.is_ascii_uppercase() {
            c.to_ascii_lowercase()
        } else {
            c.to_ascii_uppercase()
        }
    };
    let ranks: Vec<String> = fields[0]
        .split('/')
        .rev()
        .map(|rank| {
            // Reverse the squares of the rank, keeping constructs whole.
            let mut items: Vec<String> = Vec::new();
            let mut chars = rank.chars();
            while let Some(c) = chars.next() {
                if c == '[' {
                    let captor = swap(chars.next().unwrap());
                    let prisoner = swap(chars.next().unwrap());
                    chars.next();
                    items.push(format!("[{captor}{prisoner}]"));
                } else if c.is_ascii_digit() {
                    items.push(c.to_string());
                } else {
                    items.push(swap(c).to_string());
                }
            }
            items.reverse();
            items.concat()
        })
        .collect();
    let side = if fields[1] == "w" { "b" } else { "w" };
    let mut rights: Vec<char> = fields[2].chars().map(swap).collect();
    rights.sort_by_key(|c| "KQkq-".find(*c));
    let rights: String = rights.into_iter().collect();
    format!("{} {side} {rights} {}", ranks.join("/"), fields[3])
}

fn mirror_move(mv: &str) -> String {
    mv.as_bytes()
        .chunks(2)
        .map(|sq| {
            let f = (b'h' - (sq[0] - b'a')) as char;
            let r = (b'8' - (sq[1] - b'1')) as char;
            format!("{f}{r}")
        })
        .collect()
}

fn without_move_number(lfen: &str) -> String {
    lfen.rsplit_once(' ').unwrap().0.to_string()
}

#[test]
fn mirror_helper_is_right() {
    assert_eq!(
        mirror(START),
        without_move_number(START).replace(" w ", " b ")
    );
    assert_eq!(
        mirror("k7/8/3[Rm]4/8/3t4/8/8/7K w Kq 3 9"),
        "k7/8/8/4T3/8/4[rM]3/8/7K b Qk 3"
    );
    assert_eq!(mirror_move("c3e5g3"), "f6d4b6");
}

#[test]
fn both_colours_play_by_the_same_rules() {
    for game in 0..12u64 {
        let mut lfen = START.to_string();
        let mut seed = game * 7919 + 1;
        for _ in 0..60 {
            let list = moves(&lfen);
            let mirrored = mirror(&lfen);
            let mirror_list = moves(&format!("{mirrored} 1"));
            assert_eq!(list.len(), mirror_list.len(), "{lfen}");
            assert_eq!(
                perft(&lfen, 2, false).unwrap(),
                perft(&format!("{mirrored} 1"), 2, false).unwrap(),
                "{lfen}"
            );
            if list.is_empty() {
                break;
            }
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let mv = &list[(seed >> 33) as usize % list.len()];
            let next = play(&lfen, mv);
            let next_mirrored = apply(&format!("{mirrored} 1"), &mirror_move(mv), false).unwrap();
            assert_eq!(
                mirror(&next),
                without_move_number(&next_mirrored),
                "{lfen} {mv}"
            );
            lfen = next;
        }
    }
}
