//! Match statistics: Elo difference with a 95% interval, and the
//! sequential probability ratio test (SPRT) used to accept or reject a
//! change by playing only as many games as needed.

/// Wins, draws and losses of the first player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Mean score per game (win 1, draw ½).
    pub fn score(&self) -> f64 {
        let n = self.games().max(1) as f64;
        (self.wins as f64 + self.draws as f64 / 2.0) / n
    }

    /// Variance of one game's score.
    fn variance(&self) -> f64 {
        let n = self.games().max(1) as f64;
        let s = self.score();
        let (w, d, l) = (
            self.wins as f64 / n,
            self.draws as f64 / n,
            self.losses as f64 / n,
        );
        w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2)
    }

    /// Elo difference and the half-width of its 95% interval.
    pub fn elo(&self) -> (f64, f64) {
        let n = self.games().max(1) as f64;
        let s = self.score();
        let sd = (self.variance() / n).sqrt();
        let lo = elo_of(s - 1.96 * sd);
        let hi = elo_of(s + 1.96 * sd);
        (elo_of(s), (hi - lo) / 2.0)
    }

    /// Log-likelihood ratio of H1 (elo1) against H0 (elo0), normal
    /// approximation of the game score.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let n = self.games() as f64;
        let var = self.variance();
        if n < 2.0 || var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_of(elo0), score_of(elo1));
        let s = self.score();
        (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var) * n
    }
}

/// Expected score for an Elo difference.
pub fn score_of(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Elo difference for an expected score (clamped away from 0 and 1).
pub fn elo_of(score: f64) -> f64 {
    let s = score.clamp(1e-4, 1.0 - 1e-4);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// SPRT bounds for error rates alpha and beta.
pub fn sprt_bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_known_scores() {
        assert!(elo_of(0.5).abs() < 1e-9);
        // 75% is about +191 Elo.
        assert!((elo_of(0.75) - 190.85).abs() < 0.1);
        assert!((score_of(elo_of(0.64)) - 0.64).abs() < 1e-9);
    }

    #[test]
    fn interval_shrinks_with_games() {
        let a = Tally {
            wins: 30,
            draws: 40,
            losses: 30,
        };
        let b = Tally {
            wins: 300,
            draws: 400,
            losses: 300,
        };
        assert!(a.elo().0.abs() < 1e-9);
        assert!(b.elo().1 < a.elo().1);
        // 100 games, 30/40/30: variance 0.15 per game, sd of the mean
        // sqrt(0.15/100) = 0.0387; 0.5 ± 1.96 sd = 0.424..0.576, which is
        // -400 log10(1/0.576 - 1) = ±53.2 Elo.
        assert!((a.elo().1 - 53.2).abs() < 0.5, "{}", a.elo().1);
    }

    #[test]
    fn sprt_leans_the_right_way() {
        let strong = Tally {
            wins: 120,
            draws: 60,
            losses: 40,
        };
        assert!(strong.llr(0.0, 10.0) > 0.0);
        let weak = Tally {
            wins: 40,
            draws: 60,
            losses: 120,
        };
        assert!(weak.llr(0.0, 10.0) < 0.0);
        let (lo, hi) = sprt_bounds(0.05, 0.05);
        assert!((hi - 2.944).abs() < 0.01 && (lo + 2.944).abs() < 0.01);
    }
}
