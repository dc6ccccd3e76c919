//! The library against the independent reference implementation
//! (`tests/reference/`, written from RULES.md alone, sharing no code):
//! in random games from the initial position and from random mixed
//! positions (constructs, Tamas, missing Kings), under both rule options,
//! every position must have the same legal moves and every move must lead
//! to the same position.

mod reference;

use legion_rules::{Position, Rules, notation};
use reference::rng::Rng;

/// A random placement: maybe Kings, some chess pieces, men, Tamas and
/// constructs, on squares where 1.4 and 2.5 allow them. Returns `None`
/// when the library rejects it (e.g. the waiting side is in check).
fn random_position(rng: &mut Rng, rules: Rules) -> Option<Position> {
    let mut cells: Vec<String> = vec![String::new(); 64];
    let mut free: Vec<usize> = (0..64).collect();
    let mut take =
        |rng: &mut Rng, dark: Option<bool>, avoid_rank: Option<usize>| -> Option<usize> {
            let options: Vec<usize> = free
                .iter()
                .copied()
                .filter(|&s| dark.is_none_or(|d| ((s % 8 + s / 8) % 2 == 0) == d))
                .filter(|&s| avoid_rank != Some(s / 8))
                .collect();
            if options.is_empty() {
                return None;
            }
            let s = options[rng.below(options.len())];
            free.retain(|&x| x != s);
            Some(s)
        };
    for (upper, far) in [(true, 7usize), (false, 0usize)] {
        let case = |c: char| if upper { c } else { c.to_ascii_lowercase() };
        let enemy = |c: char| if upper { c.to_ascii_lowercase() } else { c };
        if rng.below(8) != 0 {
            let s = take(rng, None, None)?;
            cells[s] = case('K').to_string();
        }
        for _ in 0..rng.below(5) {
            let s = take(rng, None, None)?;
            cells[s] = case(['Q', 'R', 'B', 'N'][rng.below(4)]).to_string();
        }
        for _ in 0..rng.below(7) {
            let s = take(rng, Some(true), Some(far))?;
            cells[s] = case('M').to_string();
        }
        for _ in 0..rng.below(3) {
            let s = take(rng, Some(true), None)?;
            cells[s] = case('T').to_string();
        }
        for _ in 0..rng.below(3) {
            let s = take(rng, None, None)?;
            let captor = case(['Q', 'R', 'B', 'N', 'K'][rng.below(5)]);
            let prisoner = enemy(['M', 'T'][rng.below(2)]);
            cells[s] = format!("[{captor}{prisoner}]");
        }
    }
    let mut placement = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            let c = &cells[rank * 8 + file];
            if c.is_empty() {
                empty += 1;
            } else {
                if empty > 0 {
                    placement.push_str(&empty.to_string());
                    empty = 0;
                }
                placement.push_str(c);
            }
        }
        if empty > 0 {
            placement.push_str(&empty.to_string());
        }
        if rank > 0 {
            placement.push('/');
        }
    }
    let turn = if rng.below(2) == 0 { "w" } else { "b" };
    Position::from_lfen(&format!("{placement} {turn} - 0 1"), rules).ok()
}

fn library_moves(pos: &Position) -> Vec<String> {
    let mut v: Vec<String> = pos
        .legal_moves()
        .into_iter()
        .map(|m| notation::canonical(pos, m))
        .collect();
    v.sort();
    v
}

/// Plays a random game, comparing every position and every move.
fn compare_game(rng: &mut Rng, start: Position, plies: usize) -> usize {
    let mate = start.rules().mate_ends_game;
    let mut pos = start;
    let mut checked = 0;
    for _ in 0..plies {
        let lfen = pos.to_lfen();
        let ours = library_moves(&pos);
        let theirs = reference::legal_moves(&lfen, mate)
            .unwrap_or_else(|e| panic!("reference rejects {lfen}: {e}"));
        assert_eq!(
            ours, theirs,
            "legal moves differ in {lfen} (mate-ends-game: {mate})"
        );
        checked += 1;
        if ours.is_empty() {
            break;
        }
        let moves = pos.legal_moves();
        let m = moves[rng.below(moves.len())];
        let text = notation::canonical(&pos, m);
        let next = pos.after(m);
        let expected = reference::apply(&lfen, &text, mate).unwrap();
        assert_eq!(
            next.to_lfen(),
            expected,
            "{lfen} after {text} (mate-ends-game: {mate})"
        );
        pos = next;
    }
    checked
}

#[test]
fn random_games_from_the_initial_position_agree() {
    let mut rng = Rng(0x5EED_0001);
    let mut positions = 0;
    for game in 0..60 {
        let rules = if game % 3 == 0 {
            Rules::MATE_ENDS_GAME
        } else {
            Rules::DEFAULT
        };
        positions += compare_game(&mut rng, Position::initial_with(rules), 160);
    }
    assert!(positions > 3000, "only {positions} positions compared");
}

#[test]
fn random_mixed_positions_agree() {
    let mut rng = Rng(0x5EED_0002);
    let mut games = 0;
    let mut positions = 0;
    while games < 400 {
        let rules = if games % 4 == 0 {
            Rules::MATE_ENDS_GAME
        } else {
            Rules::DEFAULT
        };
        let Some(start) = random_position(&mut rng, rules) else {
            continue;
        };
        games += 1;
        positions += compare_game(&mut rng, start, 40);
    }
    assert!(positions > 4000, "only {positions} positions compared");
}

#[test]
fn perft_agrees_on_random_mixed_positions() {
    let mut rng = Rng(0x5EED_0003);
    let mut done = 0;
    while done < 40 {
        let rules = if done % 2 == 0 {
            Rules::MATE_ENDS_GAME
        } else {
            Rules::DEFAULT
        };
        let Some(pos) = random_position(&mut rng, rules) else {
            continue;
        };
        done += 1;
        let lfen = pos.to_lfen();
        let theirs = reference::perft(&lfen, 3, rules.mate_ends_game).unwrap();
        assert_eq!(
            legion_rules::perft::perft(&pos, 3),
            theirs,
            "perft 3 of {lfen}"
        );
    }
}
