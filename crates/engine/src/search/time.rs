//! Time management: how much of the clock one move may use, when a search
//! must stop (time, nodes) and when it should not start another depth.

use std::time::{Duration, Instant};

use legion_rules::Color;

use super::Limits;

/// Moves assumed left in the game when `go` does not say (`movestogo`).
const DEFAULT_MOVES_TO_GO: u32 = 30;
/// Fewer moves left than this are not believed: the clock is shared over
/// at least one move and at most this many.
const MAX_MOVES_TO_GO: u32 = 60;
/// Kept back from the clock for the protocol's own delays.
const RESERVE: Duration = Duration::from_millis(30);
/// The hard limit is at most this many times the time aimed for.
const HARD_PER_SOFT: u32 = 4;
/// A new depth costs several times the last one: once this share of the
/// time aimed for (tenths) is gone, the next depth would not end in time.
const NEW_DEPTH_TENTHS: u32 = 6;
/// With a single legal move, searching deeper than this only fills the
/// table: the move is played.
const SINGLE_MOVE_DEPTH: i32 = 4;

/// Time to aim for and time never to exceed.
pub(super) fn allocate(limits: &Limits, turn: Color) -> (Option<Duration>, Option<Duration>) {
    if let Some(t) = limits.movetime {
        return (Some(t), Some(t));
    }
    let (time, inc) = match turn {
        Color::White => (limits.wtime, limits.winc),
        Color::Black => (limits.btime, limits.binc),
    };
    let Some(time) = time else {
        return (None, None);
    };
    // No increment given is no increment.
    let inc = inc.unwrap_or_default();
    let moves = limits
        .movestogo
        .unwrap_or(DEFAULT_MOVES_TO_GO)
        .clamp(1, MAX_MOVES_TO_GO);
    let reserve = RESERVE.min(time / 4);
    let usable = time.saturating_sub(reserve);
    let soft = (usable / moves + inc * 3 / 4).min(usable / 2);
    let hard = (soft * HARD_PER_SOFT)
        .min(usable / 3 + inc / 2)
        .max(soft)
        .min(usable);
    (Some(soft), Some(hard))
}

/// The time a move may take by these limits (the time aimed for), if they
/// bound time at all: what a search pondering on the opponent's time gets
/// once the opponent plays the expected move (`ponderhit`).
pub fn aim(limits: &Limits, turn: Color) -> Option<Duration> {
    allocate(limits, turn).0
}

/// The limits of one search thread, in time and nodes.
#[derive(Clone, Copy, Debug)]
pub(super) struct Budget {
    pub start: Instant,
    /// The time aimed for; only the main thread decides to stop by it,
    /// and never in an `infinite` search.
    soft: Option<Duration>,
    /// A `movetime` search: its time is given to this move alone, so a
    /// new depth starts whenever there is time left, and a depth cut short
    /// still answers if its first move beat the last depth's.
    fixed: bool,
    /// Never search past this (none in an `infinite` search).
    deadline: Option<Instant>,
    node_limit: Option<u64>,
}

impl Budget {
    /// The main thread's budget for a search started at `start`.
    pub fn new(limits: &Limits, turn: Color, start: Instant) -> Budget {
        let (soft, hard) = allocate(limits, turn);
        Budget {
            start,
            soft: if limits.infinite { None } else { soft },
            deadline: if limits.infinite {
                None
            } else {
                hard.map(|h| start + h)
            },
            node_limit: limits.nodes,
            fixed: limits.movetime.is_some(),
        }
    }

    /// A helper thread's budget: the same hard limits, no say in when the
    /// search ends.
    pub fn helper(&self) -> Budget {
        Budget {
            soft: None,
            ..*self
        }
    }

    /// Whether the search must stop now, `nodes` having been searched by
    /// all threads.
    pub fn exhausted(&self, nodes: u64) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.node_limit.is_some_and(|n| nodes >= n)
    }

    /// Whether the main thread, having completed `depth` with
    /// `root_moves` moves at the root, should start no deeper search.
    pub fn enough(&self, depth: i32, root_moves: usize) -> bool {
        let Some(soft) = self.soft else { return false };
        (!self.fixed && self.start.elapsed() > soft * NEW_DEPTH_TENTHS / 10)
            || (root_moves == 1 && depth >= SINGLE_MOVE_DEPTH)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_allocation_stays_within_the_clock() {
        let limits = Limits {
            wtime: Some(Duration::from_millis(1000)),
            winc: Some(Duration::from_millis(100)),
            ..Limits::default()
        };
        let (soft, hard) = allocate(&limits, Color::White);
        let (soft, hard) = (soft.unwrap(), hard.unwrap());
        assert!(
            soft <= hard && hard < Duration::from_millis(1000),
            "{soft:?} {hard:?}"
        );
        assert!(soft >= Duration::from_millis(50));
    }

    #[test]
    fn a_movetime_search_starts_new_depths_until_its_time_is_gone() {
        // 70 ms of 100 gone: past the 60% after which a clock search
        // starts no new depth, but a movetime search goes on.
        let Some(start) = Instant::now().checked_sub(Duration::from_millis(70)) else {
            return; // a clock younger than 70 ms: nothing to check
        };
        let movetime = Limits {
            movetime: Some(Duration::from_millis(100)),
            ..Limits::default()
        };
        let b = Budget::new(&movetime, Color::White, start);
        assert!(!b.enough(5, 20));
        // A single legal move is still played at once (depth 4).
        assert!(b.enough(4, 1));
        // A clock search whose time aimed for is 100 ms stops there.
        let clock = Limits {
            wtime: Some(Duration::from_millis(3030)),
            movestogo: Some(30),
            ..Limits::default()
        };
        assert_eq!(
            allocate(&clock, Color::White).0,
            Some(Duration::from_millis(100))
        );
        assert!(Budget::new(&clock, Color::White, start).enough(5, 20));
    }

    #[test]
    fn infinite_and_depth_searches_have_no_clock() {
        let start = Instant::now();
        let infinite = Limits {
            infinite: true,
            movetime: Some(Duration::ZERO),
            ..Limits::default()
        };
        let b = Budget::new(&infinite, Color::White, start);
        assert!(!b.exhausted(u64::MAX) && !b.enough(50, 1));
        let depth = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        let b = Budget::new(&depth, Color::Black, start);
        assert!(!b.exhausted(u64::MAX) && !b.enough(50, 1));
        let nodes = Limits {
            nodes: Some(10),
            ..Limits::default()
        };
        assert!(Budget::new(&nodes, Color::White, start).exhausted(10));
    }
}
