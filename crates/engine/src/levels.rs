//! Levels for people, 1 (a beginner can win) to 10 (full strength). Each
//! is a cap on depth and nodes, evaluation noise, and how far from the
//! best score a move may be to be picked at random (so games differ).
//! The same level always plays the same way for the same game seed.

use std::time::Duration;

/// What limits a level. See the table in docs/PROTOCOL.md.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    pub level: u8,
    /// Maximum search depth in plies (quiescence goes beyond).
    pub depth: Option<i32>,
    /// Maximum nodes per move.
    pub nodes: Option<u64>,
    /// Noise added to every evaluation, ± this many hundredths of a man.
    pub noise: i32,
    /// Moves whose score is within this of the best may be chosen.
    pub variety: i32,
    /// Variety only before this full-move number (0: the whole game).
    pub variety_until_move: u32,
    /// Never think longer than this per move.
    pub max_time: Option<Duration>,
}

const fn level(
    level: u8,
    depth: Option<i32>,
    nodes: Option<u64>,
    noise: i32,
    variety: i32,
    variety_until_move: u32,
) -> Level {
    Level {
        level,
        depth,
        nodes,
        noise,
        variety,
        variety_until_move,
        max_time: None,
    }
}

/// Caps grow geometrically in nodes, so each level searches about twice as
/// much as the one below; noise and variety shrink.
pub const LEVELS: [Level; 10] = [
    level(1, Some(1), Some(2_000), 250, 350, 0),
    level(2, Some(1), Some(5_000), 140, 200, 0),
    level(3, Some(2), Some(10_000), 90, 120, 0),
    level(4, Some(3), Some(20_000), 50, 70, 0),
    level(5, Some(4), Some(30_000), 30, 45, 0),
    level(6, Some(5), Some(50_000), 18, 30, 0),
    level(7, Some(6), Some(80_000), 8, 20, 20),
    level(8, None, Some(150_000), 0, 14, 16),
    level(9, None, Some(300_000), 0, 10, 12),
    level(10, None, None, 0, 8, 8),
];

impl Level {
    /// Level `n`, clamped to 1..=10.
    pub fn get(n: u8) -> Level {
        LEVELS[(n.clamp(1, 10) - 1) as usize]
    }

    /// One line for people: what holds this level back.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        match self.depth {
            Some(d) => parts.push(format!("depth {d}")),
            None => parts.push("no depth limit".to_string()),
        }
        if let Some(n) = self.nodes {
            parts.push(format!("{n} nodes"));
        }
        if self.noise > 0 {
            parts.push(format!("evaluation noise ±{}", self.noise));
        }
        if self.variety > 0 {
            let span = if self.variety_until_move > 0 {
                format!(" until move {}", self.variety_until_move)
            } else {
                String::new()
            };
            parts.push(format!("picks among moves within {}{span}", self.variety));
        }
        format!("level {}: {}", self.level, parts.join(", "))
    }
}
