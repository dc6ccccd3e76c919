//! Game clocks as on the big sites: a side's clock runs only once both
//! sides have made their first move; until then the side to move has a
//! limited time for its first move, or the game is aborted. The server
//! decides every flag fall from these functions alone (all times unix ms).

use serde::Serialize;

use crate::games::model::Side;

/// A day in ms.
pub const DAY_MS: i64 = 86_400_000;

/// The days per move a correspondence game may have (issue 20).
pub const DAYS: [u8; 6] = [1, 2, 3, 5, 7, 14];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    pub initial_ms: i64,
    pub increment_ms: i64,
    pub white_ms: i64,
    pub black_ms: i64,
    /// When the side to move's turn began; `None` before the game starts
    /// (a friend game waiting for its invite) and after it ends.
    pub turn_began_ms: Option<i64>,
    /// Days per move (correspondence, issue 20): each move gives the mover
    /// its whole time again, and a first move has that time too.
    pub per_move: bool,
}

/// The clock as the API shows it: the time each side has left at the
/// moment the state is sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ClockView {
    pub initial_ms: i64,
    pub increment_ms: i64,
    pub w_ms: i64,
    pub b_ms: i64,
    pub running: Option<Side>,
}

/// Whether the side to move's clock runs after `played` moves: only once
/// both sides have moved (sides alternate, so after two moves).
pub fn runs(played: usize) -> bool {
    played >= 2
}

impl Clock {
    pub fn new(initial_ms: i64, increment_ms: i64) -> Clock {
        Clock {
            initial_ms,
            increment_ms,
            white_ms: initial_ms,
            black_ms: initial_ms,
            turn_began_ms: None,
            per_move: false,
        }
    }

    /// A clock of `days` days per move.
    pub fn days_per_move(days: u8) -> Clock {
        Clock {
            per_move: true,
            ..Clock::new(i64::from(days) * DAY_MS, 0)
        }
    }

    /// The time for a first move: the server's (`limit_ms`), or a whole
    /// move's time with days per move.
    fn first_move_limit(&self, limit_ms: i64) -> i64 {
        if self.per_move {
            self.initial_ms
        } else {
            limit_ms
        }
    }

    fn time(&self, side: Side) -> i64 {
        match side {
            Side::White => self.white_ms,
            Side::Black => self.black_ms,
        }
    }

    fn time_mut(&mut self, side: Side) -> &mut i64 {
        match side {
            Side::White => &mut self.white_ms,
            Side::Black => &mut self.black_ms,
        }
    }

    /// Time spent on the current turn, if the clock of the side to move runs.
    fn spent(&self, played: usize, now: i64) -> Option<i64> {
        let began = self.turn_began_ms?;
        runs(played).then(|| (now - began).max(0))
    }

    /// What `side` has left at `now`, `to_move` being the side to move.
    pub fn left(&self, side: Side, to_move: Side, played: usize, now: i64) -> i64 {
        let spent = if side == to_move {
            self.spent(played, now).unwrap_or(0)
        } else {
            0
        };
        (self.time(side) - spent).max(0)
    }

    /// Whether the side to move has run out of time at `now`.
    pub fn flag_fell(&self, to_move: Side, played: usize, now: i64) -> bool {
        self.spent(played, now)
            .is_some_and(|s| s >= self.time(to_move))
    }

    /// Whether the side to move has let its first-move time pass.
    pub fn first_move_late(&self, played: usize, now: i64, limit_ms: i64) -> bool {
        self.abort_in(played, now, limit_ms).is_some_and(|t| t <= 0)
    }

    /// Before both sides have moved: how long the side to move has left
    /// for its first move.
    pub fn abort_in(&self, played: usize, now: i64, limit_ms: i64) -> Option<i64> {
        let began = self.turn_began_ms?;
        (!runs(played)).then(|| began + self.first_move_limit(limit_ms) - now)
    }

    /// The clock after `mover` moves at `now` with `played` moves before
    /// it: the time spent is taken and the increment given (from the
    /// first move whose time counted on), and the next turn begins now
    /// unless the game has ended.
    pub fn after_move(mut self, mover: Side, played: usize, now: i64, continues: bool) -> Clock {
        if let Some(spent) = self.spent(played, now) {
            let (inc, whole) = (self.increment_ms, self.initial_ms);
            let per_move = self.per_move;
            let t = self.time_mut(mover);
            *t = if per_move {
                whole
            } else {
                (*t - spent).max(0) + inc
            };
        }
        self.turn_began_ms = continues.then_some(now);
        self
    }

    /// The clock stopped where it stands (a result was declared).
    pub fn stopped(mut self, to_move: Side, played: usize, now: i64) -> Clock {
        if let Some(spent) = self.spent(played, now) {
            let t = self.time_mut(to_move);
            *t = (*t - spent).max(0);
        }
        self.turn_began_ms = None;
        self
    }

    /// The clock with a new turn beginning now (start, takeback, undo);
    /// times already spent stay spent.
    pub fn restarted(mut self, now: i64) -> Clock {
        self.turn_began_ms = Some(now);
        self
    }

    /// When the server must look at the game if nothing else happens: the
    /// flag fall of the side to move, or the end of its first-move time.
    pub fn deadline(&self, to_move: Side, played: usize, limit_ms: i64) -> Option<i64> {
        let began = self.turn_began_ms?;
        Some(if runs(played) {
            began + self.time(to_move)
        } else {
            began + self.first_move_limit(limit_ms)
        })
    }

    pub fn view(&self, to_move: Side, played: usize, now: i64) -> ClockView {
        let running = (self.turn_began_ms.is_some() && runs(played)).then_some(to_move);
        ClockView {
            initial_ms: self.initial_ms,
            increment_ms: self.increment_ms,
            w_ms: self.left(Side::White, to_move, played, now),
            b_ms: self.left(Side::Black, to_move, played, now),
            running,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const W: Side = Side::White;
    const B: Side = Side::Black;

    /// A 5+3 game started at t = 1000.
    fn started() -> Clock {
        Clock::new(300_000, 3_000).restarted(1_000)
    }

    #[test]
    fn no_clock_runs_before_each_side_has_moved() {
        let c = started();
        // White thinks 20 s over its first move: nothing is taken.
        assert_eq!(c.left(W, W, 0, 21_000), 300_000);
        assert!(!c.flag_fell(W, 0, 10_000_000));
        let c = c.after_move(W, 0, 21_000, true);
        assert_eq!((c.white_ms, c.black_ms), (300_000, 300_000));
        // Black's first move is free too.
        let c = c.after_move(B, 1, 50_000, true);
        assert_eq!((c.white_ms, c.black_ms), (300_000, 300_000));
        // Now White's clock runs: 10 s later White has 4:50.
        assert_eq!(c.left(W, W, 2, 60_000), 290_000);
        assert_eq!(c.view(W, 2, 60_000).running, Some(W));
        // White moves after 12 s: 300 - 12 + 3 = 291 s.
        let c = c.after_move(W, 2, 62_000, true);
        assert_eq!(c.white_ms, 291_000);
        assert_eq!(c.left(B, B, 3, 62_500), 299_500);
    }

    #[test]
    fn first_move_time_aborts() {
        let c = started();
        let limit = 30_000;
        assert_eq!(c.abort_in(0, 11_000, limit), Some(20_000));
        assert!(!c.first_move_late(0, 30_999, limit));
        assert!(c.first_move_late(0, 31_000, limit));
        assert_eq!(c.deadline(W, 0, limit), Some(31_000));
        // Black's first-move time counts from White's first move.
        let c = c.after_move(W, 0, 20_000, true);
        assert_eq!(c.deadline(B, 1, limit), Some(50_000));
        // Once both have moved there is no abort time, only the flag.
        let c = c.after_move(B, 1, 25_000, true);
        assert_eq!(c.abort_in(2, 26_000, limit), None);
        assert_eq!(c.deadline(W, 2, limit), Some(325_000));
    }

    #[test]
    fn flags_fall_when_the_time_is_spent() {
        let c = Clock::new(1_000, 0)
            .restarted(0)
            .after_move(W, 0, 10, true)
            .after_move(B, 1, 20, true);
        assert!(!c.flag_fell(W, 2, 1_019));
        assert!(c.flag_fell(W, 2, 1_020));
        assert_eq!(c.view(W, 2, 5_000).w_ms, 0);
    }

    #[test]
    fn days_per_move_give_the_whole_time_back_after_each_move() {
        // 2 days a move, the game started at t = 0.
        let c = Clock::days_per_move(2).restarted(0);
        assert_eq!(c.initial_ms, 172_800_000);
        // A first move has the two days too (not the server's minute):
        // the abort comes at 2 days.
        assert_eq!(c.abort_in(0, 1_000, 60_000), Some(172_799_000));
        assert_eq!(c.deadline(W, 0, 60_000), Some(172_800_000));
        let c = c.after_move(W, 0, 3_600_000, true);
        let c = c.after_move(B, 1, 7_200_000, true);
        // White thinks a day and a half: half a day is left...
        assert_eq!(c.left(W, W, 2, 7_200_000 + 129_600_000), 43_200_000);
        // ...and after the move White has two whole days again.
        let c = c.after_move(W, 2, 7_200_000 + 129_600_000, true);
        assert_eq!(c.white_ms, 172_800_000);
        // Black lets its two days pass: the flag falls.
        assert!(!c.flag_fell(B, 3, 136_800_000 + 172_799_999));
        assert!(c.flag_fell(B, 3, 136_800_000 + 172_800_000));
    }

    #[test]
    fn a_waiting_or_finished_game_has_no_deadline() {
        let waiting = Clock::new(60_000, 0);
        assert_eq!(waiting.deadline(W, 0, 30_000), None);
        assert_eq!(waiting.abort_in(0, 5, 30_000), None);
        let c = started()
            .after_move(W, 0, 2_000, true)
            .after_move(B, 1, 3_000, true);
        let stopped = c.stopped(W, 2, 13_000);
        assert_eq!(stopped.white_ms, 290_000);
        assert_eq!(stopped.deadline(W, 2, 30_000), None);
        assert_eq!(stopped.view(W, 2, 99_000).running, None);
    }
}
