//! Glicko-2 ratings (Glickman, "Example of the Glicko-2 system", 2013),
//! the formulas from the `skillratings` crate. One rating per speed class;
//! each rated game is one rating period for both players (as lichess
//! does), and a player's deviation grows while they do not play: one
//! empty period per day since their last rated game, capped at 350.
//!
//! τ, which bounds how fast the volatility changes, is 0.75: lichess's
//! choice, inside Glickman's advice of 0.3 to 1.2, for a young pool where
//! strengths move quickly.

use serde::{Deserialize, Serialize};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};

/// The system constant τ.
pub const TAU: f64 = 0.75;
/// A new player's rating, deviation and volatility.
pub const START: (f64, f64, f64) = (1500.0, 350.0, 0.06);
/// A rating is provisional (shown with `?`) while its deviation is at
/// least this.
pub const PROVISIONAL_RD: f64 = 110.0;
/// Glicko-2's scale factor (173.7178 = 400 / ln 10).
const SCALE: f64 = 173.7178;

/// How fast a game is, by lichess's estimate of its length: initial time
/// plus 40 increments; games with days per move are correspondence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SpeedClass {
    Bullet,
    Blitz,
    Rapid,
    Classical,
    Correspondence,
}

impl SpeedClass {
    pub const ALL: [SpeedClass; 5] = [
        SpeedClass::Bullet,
        SpeedClass::Blitz,
        SpeedClass::Rapid,
        SpeedClass::Classical,
        SpeedClass::Correspondence,
    ];

    /// The class of a clock of `initial_s` seconds and `increment_s` a
    /// move (lichess: under 3 minutes bullet, under 8 blitz, under 25
    /// rapid, else classical).
    pub fn of_clock(initial_s: f64, increment_s: f64) -> SpeedClass {
        let estimate = initial_s + 40.0 * increment_s;
        if estimate < 180.0 {
            SpeedClass::Bullet
        } else if estimate < 480.0 {
            SpeedClass::Blitz
        } else if estimate < 1500.0 {
            SpeedClass::Rapid
        } else {
            SpeedClass::Classical
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            SpeedClass::Bullet => "bullet",
            SpeedClass::Blitz => "blitz",
            SpeedClass::Rapid => "rapid",
            SpeedClass::Classical => "classical",
            SpeedClass::Correspondence => "correspondence",
        }
    }
}

/// A player's rating in one class.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    pub rating: f64,
    pub rd: f64,
    pub volatility: f64,
}

impl Default for Rating {
    fn default() -> Rating {
        Rating {
            rating: START.0,
            rd: START.1,
            volatility: START.2,
        }
    }
}

impl Rating {
    pub fn provisional(&self) -> bool {
        self.rd >= PROVISIONAL_RD
    }

    fn glicko(self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.rd,
            volatility: self.volatility,
        }
    }

    fn from_glicko(g: Glicko2Rating) -> Rating {
        Rating {
            rating: g.rating,
            rd: g.deviation,
            volatility: g.volatility,
        }
    }

    /// The rating after `days` days without a rated game: each day an
    /// empty rating period, φ' = √(φ² + days·σ²) on Glicko-2's scale,
    /// never above the start's 350.
    pub fn aged(self, days: f64) -> Rating {
        if days <= 0.0 {
            return self;
        }
        let phi = self.rd / SCALE;
        let grown = (phi * phi + days * self.volatility * self.volatility).sqrt() * SCALE;
        Rating {
            rd: grown.min(START.1),
            ..self
        }
    }
}

/// A game's result for the first player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Win,
    Draw,
    Loss,
}

/// Both players' ratings after one rated game between them (one rating
/// period each).
pub fn after_game(a: Rating, b: Rating, score: Score) -> (Rating, Rating) {
    let outcome = match score {
        Score::Win => Outcomes::WIN,
        Score::Draw => Outcomes::DRAW,
        Score::Loss => Outcomes::LOSS,
    };
    let config = Glicko2Config {
        tau: TAU,
        ..Glicko2Config::default()
    };
    let (a, b) = glicko2(&a.glicko(), &b.glicko(), &outcome, &config);
    (Rating::from_glicko(a), Rating::from_glicko(b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillratings::glicko2::glicko2_rating_period;

    #[test]
    fn glickmans_worked_example() {
        // Glickman's example: a 1500 player (RD 200, σ 0.06), τ = 0.5,
        // beats a 1400 (RD 30) and loses to a 1550 (RD 100) and a 1700
        // (RD 300) in one period: r' = 1464.06, RD' = 151.52,
        // σ' = 0.05999 (the paper's step 8).
        let me = Glicko2Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opp = |rating, deviation| Glicko2Rating {
            rating,
            deviation,
            volatility: 0.06,
        };
        let config = Glicko2Config {
            tau: 0.5,
            ..Glicko2Config::default()
        };
        let after = glicko2_rating_period(
            &me,
            &[
                (opp(1400.0, 30.0), Outcomes::WIN),
                (opp(1550.0, 100.0), Outcomes::LOSS),
                (opp(1700.0, 300.0), Outcomes::LOSS),
            ],
            &config,
        );
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    }

    #[test]
    fn a_game_moves_both_ratings_the_right_way() {
        let (w, l) = after_game(Rating::default(), Rating::default(), Score::Win);
        assert!(w.rating > 1500.0 && l.rating < 1500.0);
        // Equal players, one game: the changes mirror each other.
        assert!((w.rating - 1500.0 - (1500.0 - l.rating)).abs() < 1e-9);
        assert!(w.rd < 350.0 && w.provisional());
        let (d1, d2) = after_game(Rating::default(), Rating::default(), Score::Draw);
        assert!((d1.rating - 1500.0).abs() < 1e-9 && (d2.rating - 1500.0).abs() < 1e-9);
    }

    #[test]
    fn deviation_grows_while_a_player_waits() {
        let r = Rating {
            rating: 1700.0,
            rd: 60.0,
            volatility: 0.06,
        };
        // By hand: φ = 60/173.7178 = 0.345388, φ² = 0.119293; after 30
        // days √(0.119293 + 30·0.06²) = √0.227293 = 0.476752; × 173.7178
        // = 82.82.
        let aged = r.aged(30.0);
        assert!((aged.rd - 82.82).abs() < 0.01, "{aged:?}");
        assert_eq!(aged.rating, 1700.0);
        assert_eq!(r.aged(0.0), r);
        assert_eq!(r.aged(1e9).rd, 350.0);
        assert!(!r.provisional() && Rating::default().provisional());
    }

    #[test]
    fn speed_classes_by_lichess_estimate() {
        // initial + 40 × increment, in seconds.
        assert_eq!(SpeedClass::of_clock(60.0, 0.0), SpeedClass::Bullet);
        assert_eq!(SpeedClass::of_clock(120.0, 1.0), SpeedClass::Bullet); // 160
        assert_eq!(SpeedClass::of_clock(180.0, 0.0), SpeedClass::Blitz);
        assert_eq!(SpeedClass::of_clock(180.0, 2.0), SpeedClass::Blitz); // 260
        assert_eq!(SpeedClass::of_clock(300.0, 3.0), SpeedClass::Blitz); // 420
        assert_eq!(SpeedClass::of_clock(600.0, 5.0), SpeedClass::Rapid); // 800
        assert_eq!(SpeedClass::of_clock(900.0, 10.0), SpeedClass::Rapid); // 1300
        assert_eq!(SpeedClass::of_clock(1500.0, 0.0), SpeedClass::Classical);
        assert_eq!(SpeedClass::of_clock(1800.0, 0.0), SpeedClass::Classical);
    }
}
