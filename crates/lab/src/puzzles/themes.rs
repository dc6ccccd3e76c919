//! A puzzle's themes, found from what its moves do in this game (not
//! chess's words): the kinds of capture of 4.1, the series of 4.3, the
//! obligation of 4.2, Legion check (3.2 b), mate and King removal (5.1),
//! crowning (2.5), a side left without a move (5.2), and the length.

use std::fmt;
use std::str::FromStr;

use legion_rules::{Move, MoveKind, Position, Role};

/// A theme a puzzle is tagged with. `key` is its name in files and
/// addresses (lichess's style: camelCase words).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Theme {
    /// A chess piece takes a man or Tama prisoner: a construct forms
    /// (Захват, 1.5, 4.1).
    Capture,
    /// A Legion piece jumps a construct: its Captor is removed and the
    /// prisoner changes sides (Освобождение, 4.1).
    Liberation,
    /// A chess piece takes a construct: Captor and prisoner are removed
    /// (Поглощение, 4.1).
    Absorption,
    /// A Legion capture series that jumps two pieces or more (4.3).
    Series,
    /// A quiet move that obliges the opponent to capture (4.2) into a
    /// position where the solver then captures.
    CompulsoryTrap,
    /// The opponent's King is checked by a man or Tama (3.2 b).
    LegionCheck,
    /// The line ends with mate, which ends Phase 1 and removes the King
    /// (3.4, 5.1).
    PhaseOneMate,
    /// A King is removed during the line (5.1), also when play goes on.
    KingRemoval,
    /// A man is crowned (2.5).
    Crowning,
    /// The puzzle is played in Phase 2: a side has no King (5.1).
    PhaseTwo,
    /// The line leaves the opponent without a legal move: the game is won
    /// (5.2).
    Blockade,
    /// The solver ends at least two men (200) better off.
    Advantage,
    /// The solver ends at least six men (600) better off, or wins.
    Crushing,
    /// Two moves of the solver.
    Short,
    /// Three moves of the solver.
    Long,
    /// Four moves of the solver or more.
    VeryLong,
    /// The line ends in a Phase 1 mate at the solver's n-th move (1–5).
    MateIn(u8),
}

/// Every theme but the mates in n, in the order the docs list them.
pub const THEMES: [Theme; 16] = [
    Theme::Capture,
    Theme::Liberation,
    Theme::Absorption,
    Theme::Series,
    Theme::CompulsoryTrap,
    Theme::LegionCheck,
    Theme::PhaseOneMate,
    Theme::KingRemoval,
    Theme::Crowning,
    Theme::PhaseTwo,
    Theme::Blockade,
    Theme::Advantage,
    Theme::Crushing,
    Theme::Short,
    Theme::Long,
    Theme::VeryLong,
];

/// The longest "mate in n" theme.
pub const MAX_MATE_IN: u8 = 5;

/// Every theme, the mates in n after the mate, in the docs' order.
pub fn all() -> Vec<Theme> {
    let mut out = Vec::new();
    for t in THEMES {
        out.push(t);
        if t == Theme::PhaseOneMate {
            out.extend((1..=MAX_MATE_IN).map(Theme::MateIn));
        }
    }
    out
}

impl Theme {
    /// The theme's key in files and addresses.
    pub fn key(self) -> String {
        match self {
            Theme::MateIn(n) => format!("mateIn{n}"),
            other => other.base_key().to_string(),
        }
    }

    fn base_key(self) -> &'static str {
        match self {
            Theme::Capture => "capture",
            Theme::Liberation => "liberation",
            Theme::Absorption => "absorption",
            Theme::Series => "series",
            Theme::CompulsoryTrap => "compulsoryTrap",
            Theme::LegionCheck => "legionCheck",
            Theme::PhaseOneMate => "phaseOneMate",
            Theme::KingRemoval => "kingRemoval",
            Theme::Crowning => "crowning",
            Theme::PhaseTwo => "phaseTwo",
            Theme::Blockade => "blockade",
            Theme::Advantage => "advantage",
            Theme::Crushing => "crushing",
            Theme::Short => "short",
            Theme::Long => "long",
            Theme::VeryLong => "veryLong",
            Theme::MateIn(_) => "mateIn",
        }
    }

    /// The rule the theme is about, for its page.
    pub fn rule(self) -> &'static str {
        match self {
            Theme::Capture | Theme::Liberation | Theme::Absorption => "4.1",
            Theme::Series => "4.3",
            Theme::CompulsoryTrap => "4.2",
            Theme::LegionCheck => "3.2",
            Theme::PhaseOneMate | Theme::KingRemoval | Theme::PhaseTwo | Theme::MateIn(_) => "5.1",
            Theme::Crowning => "2.5",
            Theme::Blockade => "5.2",
            Theme::Advantage | Theme::Crushing | Theme::Short | Theme::Long | Theme::VeryLong => "",
        }
    }
}

impl fmt::Display for Theme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.key())
    }
}

/// A theme key that names no theme.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a puzzle theme (docs/PUZZLES.md lists them)")]
pub struct UnknownTheme(pub String);

impl FromStr for Theme {
    type Err = UnknownTheme;

    fn from_str(s: &str) -> Result<Theme, UnknownTheme> {
        if let Some(n) = s.strip_prefix("mateIn") {
            return match n.parse::<u8>() {
                Ok(n) if (1..=MAX_MATE_IN).contains(&n) => Ok(Theme::MateIn(n)),
                _ => Err(UnknownTheme(s.to_string())),
            };
        }
        THEMES
            .iter()
            .copied()
            .find(|t| t.base_key() == s)
            .ok_or_else(|| UnknownTheme(s.to_string()))
    }
}

/// The themes of a line: `start` is the position before the opponent's
/// setting move, `moves` that move then the solution (solver, opponent,
/// …, ending with the solver's move); `gain` is the solver's material
/// gain over the line in hundredths of a man.
pub fn find(start: &Position, moves: &[Move], gain: i32) -> Vec<Theme> {
    let mut themes = Vec::new();
    if moves.is_empty() {
        return themes;
    }
    let add = |t: Theme, themes: &mut Vec<Theme>| {
        if !themes.contains(&t) {
            themes.push(t);
        }
    };
    let mut pos = *start;
    let mut positions = Vec::with_capacity(moves.len() + 1);
    positions.push(pos);
    for &m in moves {
        pos = pos.after(m);
        positions.push(pos);
    }
    let solver = positions[1].turn();
    let opponent = !solver;
    let solver_moves = moves.len() / 2;
    let last = *positions.last().unwrap_or(start);
    if positions[1].board().king(solver).is_none() || positions[1].board().king(opponent).is_none()
    {
        add(Theme::PhaseTwo, &mut themes);
    }
    for (i, &m) in moves.iter().enumerate().skip(1) {
        let before = positions[i];
        let after = positions[i + 1];
        if before.turn() != solver {
            continue;
        }
        let board = before.board();
        let constructs = board.constructs();
        match m.kind() {
            MoveKind::Chess if m.is_capture() => {
                let target = m.captured();
                if target.intersects(constructs) {
                    add(Theme::Absorption, &mut themes);
                } else if !constructs.contains(m.from())
                    && target
                        .filter(|&sq| matches!(board.role_at(sq), Some(Role::Man | Role::Tama)))
                        .count()
                        > 0
                {
                    add(Theme::Capture, &mut themes);
                }
            }
            MoveKind::Jump => {
                if m.captured().intersects(constructs) {
                    add(Theme::Liberation, &mut themes);
                }
                if m.captured().count() >= 2 {
                    add(Theme::Series, &mut themes);
                }
            }
            _ => {}
        }
        if m.crowns() {
            add(Theme::Crowning, &mut themes);
        }
        let had_king = board.king(opponent).is_some();
        let has_king = after.board().king(opponent).is_some();
        if had_king && !has_king {
            add(Theme::KingRemoval, &mut themes);
        }
        if has_king && after.is_check() && after.checkers().intersects(after.board().legion(solver))
        {
            add(Theme::LegionCheck, &mut themes);
        }
        // 4.2: a quiet move after which the opponent must capture, and
        // the solver's next move captures.
        if !m.is_capture()
            && after.is_capture_compulsory()
            && moves.get(i + 2).is_some_and(|next| next.is_capture())
        {
            add(Theme::CompulsoryTrap, &mut themes);
        }
    }
    let before_last = positions[positions.len() - 2];
    let mated_at_end =
        before_last.board().king(opponent).is_some() && last.board().king(opponent).is_none();
    if mated_at_end {
        add(Theme::PhaseOneMate, &mut themes);
        if solver_moves >= 1 && solver_moves <= MAX_MATE_IN as usize {
            add(Theme::MateIn(solver_moves as u8), &mut themes);
        }
    }
    let blockade = !last.has_legal_move();
    if blockade {
        add(Theme::Blockade, &mut themes);
    }
    if blockade || gain >= 600 {
        add(Theme::Crushing, &mut themes);
    } else if gain >= 200 {
        add(Theme::Advantage, &mut themes);
    }
    match solver_moves {
        0 | 1 => {}
        2 => add(Theme::Short, &mut themes),
        3 => add(Theme::Long, &mut themes),
        _ => add(Theme::VeryLong, &mut themes),
    }
    themes.sort();
    themes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_read_back() {
        for t in THEMES {
            assert_eq!(t.key().parse::<Theme>(), Ok(t));
        }
        for n in 1..=MAX_MATE_IN {
            assert_eq!(format!("mateIn{n}").parse::<Theme>(), Ok(Theme::MateIn(n)));
        }
        assert!("mateIn0".parse::<Theme>().is_err());
        assert!("mateIn6".parse::<Theme>().is_err());
        assert!("fork".parse::<Theme>().is_err());
    }
}
