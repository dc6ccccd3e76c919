//! Balanced openings for matches and tuning: the committed set, its
//! reader, and the generator that made it (`legion openings`).

use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

use legion_engine::search::Limits;
use legion_engine::{Engine, Options, search_once};
use legion_rules::{LfenError, Position, Rules};

/// The committed balanced openings (docs/STRENGTH.md says how they were made).
pub const OPENINGS: &str = include_str!("../openings.txt");

/// An opening that is not a valid LFEN (6.2).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("opening {number}: {source}")]
pub struct OpeningError {
    /// Its number among the openings (blank lines and comments are not
    /// counted), from 1.
    pub number: usize,
    pub source: LfenError,
}

/// Reads one LFEN a line; blank lines and `#` comments are skipped.
pub fn parse(text: &str, rules: Rules) -> Result<Vec<Position>, OpeningError> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .enumerate()
        .map(|(i, l)| {
            Position::from_lfen(l, rules).map_err(|source| OpeningError {
                number: i + 1,
                source,
            })
        })
        .collect()
}

/// The committed openings under `rules`.
pub fn committed(rules: Rules) -> Result<Vec<Position>, OpeningError> {
    parse(OPENINGS, rules)
}

/// How `generate` makes openings.
#[derive(Clone, Copy, Debug)]
pub struct Generation {
    /// How many positions.
    pub count: usize,
    /// Plies played from the initial position.
    pub plies: usize,
    /// Search depth used to judge balance.
    pub depth: i32,
    /// Keep positions whose score is within this many hundredths of a man.
    pub max_eval: i32,
    pub seed: u64,
}

impl Generation {
    /// The comment line that heads a file of these openings.
    pub fn header(&self) -> String {
        format!(
            "# Balanced openings: legion openings --count {} --plies {} --depth {} --max-eval {} --seed {}",
            self.count, self.plies, self.depth, self.max_eval, self.seed
        )
    }
}

/// Short openings played by a weak, varied engine (level 5, a new seed per
/// opening), kept only when a deeper search finds them balanced. `keep`
/// hears of each kept position as it is found; gives up after 50 tries a
/// position. Returns how many were kept.
pub fn generate<E>(
    g: &Generation,
    keep: &mut dyn FnMut(&Position) -> Result<(), E>,
) -> Result<usize, E> {
    let mut seen = HashSet::new();
    let mut picker = Engine::new(Options {
        level: 5,
        hash_mb: 8,
        ..Options::default()
    });
    let stop = AtomicBool::new(false);
    let mut kept = 0;
    let mut tries = 0u64;
    while kept < g.count && tries < g.count as u64 * 50 {
        tries += 1;
        picker.new_game(g.seed.wrapping_mul(1_000_003).wrapping_add(tries));
        let mut pos = Position::initial();
        let mut history = Vec::new();
        for _ in 0..g.plies {
            let r = picker.go(&pos, &history, &Limits::default(), &stop, &mut |_| {});
            let Some(m) = r.best else { break };
            history.push(pos.hash());
            pos.play(m);
        }
        if pos.is_check() || !pos.has_legal_move() || !seen.insert(pos.hash()) {
            continue;
        }
        let limits = Limits {
            depth: Some(g.depth),
            ..Limits::default()
        };
        let r = search_once(&pos, &limits, 8);
        if r.score.abs() <= g.max_eval {
            keep(&pos)?;
            kept += 1;
        }
    }
    Ok(kept)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_openings_read_under_both_rules() {
        let a = committed(Rules::DEFAULT).unwrap();
        let b = committed(Rules::MATE_ENDS_GAME).unwrap();
        assert_eq!(a.len(), 60);
        assert_eq!(a.len(), b.len());
        let bad = parse("# fine\n\nnot a position\n", Rules::DEFAULT).unwrap_err();
        assert_eq!(bad.number, 1);
        assert!(bad.to_string().starts_with("opening 1: 6.2: "), "{bad}");
    }
}
