//! Seeks: a player's open offer of a game (a clock or days per move or
//! none, rated or casual, a colour, a rating range), listed in the lobby
//! until someone accepts it, its owner cancels it or leaves, or its time
//! runs out. The settings are checked here, once, into `Terms`.

use serde::{Deserialize, Serialize};

use crate::games::clock::DAYS;
use crate::games::ids::SeekId;
use crate::lobby::LobbyRefusal;
use crate::players::ratings::{PROVISIONAL_RD, SpeedClass};
use crate::store::SeekRow;

/// A clock as a client writes it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockSpec {
    pub initial_s: f64,
    #[serde(default)]
    pub increment_s: f64,
}

impl ClockSpec {
    /// A clock kept as initial time and increment in ms.
    pub fn of_ms((initial_ms, increment_ms): (i64, i64)) -> ClockSpec {
        ClockSpec {
            initial_s: initial_ms as f64 / 1000.0,
            increment_s: increment_ms as f64 / 1000.0,
        }
    }
}

/// The colour a player asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum ColorChoice {
    #[default]
    Random,
    White,
    Black,
}

impl ColorChoice {
    pub fn name(self) -> &'static str {
        match self {
            ColorChoice::Random => "random",
            ColorChoice::White => "white",
            ColorChoice::Black => "black",
        }
    }

    pub fn parse(s: &str) -> Option<ColorChoice> {
        match s {
            "random" => Some(ColorChoice::Random),
            "white" | "w" => Some(ColorChoice::White),
            "black" | "b" => Some(ColorChoice::Black),
            _ => None,
        }
    }
}

/// A seek or a challenge as a client asks for it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeekRequest {
    #[serde(default)]
    pub clock: Option<ClockSpec>,
    #[serde(default)]
    pub days: Option<u8>,
    #[serde(default)]
    pub rated: bool,
    #[serde(default)]
    pub color: Option<String>,
    /// The acceptor's rating, as differences from the owner's:
    /// `[-200, 300]`.
    #[serde(default)]
    pub range: Option<[i64; 2]>,
}

/// The settings of a game to come, checked.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Terms {
    /// Initial time and increment, ms.
    pub clock: Option<(i64, i64)>,
    pub days: Option<u8>,
    pub rated: bool,
    pub color: ColorChoice,
}

impl Terms {
    /// The speed class, if the game has a clock or days per move.
    pub fn class(&self) -> Option<SpeedClass> {
        match (self.days, self.clock) {
            (Some(_), _) => Some(SpeedClass::Correspondence),
            (None, Some((i, inc))) => {
                Some(SpeedClass::of_clock(i as f64 / 1000.0, inc as f64 / 1000.0))
            }
            (None, None) => None,
        }
    }

    /// Whether it is a game of days per move (whose seeks stay a day,
    /// owner present or not).
    pub fn slow(&self) -> bool {
        self.days.is_some()
    }
}

/// The longest initial time and increment, as for `POST /api/games`.
const MAX_INITIAL_S: f64 = 36_000.0;
const MAX_INCREMENT_S: f64 = 600.0;

impl SeekRequest {
    /// The terms, or why they cannot be a game (`signed_in`: rated games
    /// are for accounts).
    pub fn terms(&self, signed_in: bool) -> Result<Terms, LobbyRefusal> {
        let clock = match self.clock {
            None => None,
            Some(c) => {
                let ok = c.initial_s.is_finite()
                    && c.increment_s.is_finite()
                    && (0.0..=MAX_INITIAL_S).contains(&c.initial_s)
                    && (0.0..=MAX_INCREMENT_S).contains(&c.increment_s)
                    && (c.initial_s > 0.0 || c.increment_s > 0.0);
                if !ok {
                    return Err(LobbyRefusal::BadClock);
                }
                Some((
                    (c.initial_s * 1000.0).round() as i64,
                    (c.increment_s * 1000.0).round() as i64,
                ))
            }
        };
        if let Some(d) = self.days {
            if clock.is_some() {
                return Err(LobbyRefusal::ClockAndDays);
            }
            if !DAYS.contains(&d) {
                return Err(LobbyRefusal::BadDays);
            }
        }
        let color = match &self.color {
            None => ColorChoice::Random,
            Some(c) => ColorChoice::parse(c).ok_or(LobbyRefusal::BadColor)?,
        };
        let terms = Terms {
            clock,
            days: self.days,
            rated: self.rated,
            color,
        };
        if self.rated {
            if !signed_in {
                return Err(LobbyRefusal::RatedNeedsAccount);
            }
            if terms.class().is_none() {
                return Err(LobbyRefusal::UntimedRated);
            }
            // A rated game's colours are not chosen.
            if color != ColorChoice::Random {
                return Err(LobbyRefusal::RatedColor);
            }
        }
        if let Some([lo, hi]) = self.range
            && (lo > 0 || hi < 0 || lo < -1000 || hi > 1000)
        {
            return Err(LobbyRefusal::BadRange);
        }
        Ok(terms)
    }
}

/// A seek as the lobby lists it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeekView {
    pub id: SeekId,
    /// The owner's name; `None` for an anonymous visitor.
    pub username: Option<String>,
    pub rating: Option<f64>,
    pub provisional: bool,
    pub clock: Option<ClockSpec>,
    pub days: Option<u8>,
    pub rated: bool,
    pub color: ColorChoice,
    pub class: Option<SpeedClass>,
    /// The acceptor's rating range, absolute.
    pub range: Option<[i64; 2]>,
    pub created_ms: i64,
}

impl SeekView {
    pub fn of(s: &SeekRow) -> SeekView {
        let terms = Terms {
            clock: s.clock,
            days: s.days,
            rated: s.rated,
            color: ColorChoice::parse(&s.color).unwrap_or_default(),
        };
        SeekView {
            id: s.id.clone(),
            username: s.owner_name.clone(),
            rating: s.rating.map(f64::round),
            provisional: s.rd.is_none_or(|rd| rd >= PROVISIONAL_RD),
            clock: s.clock.map(ClockSpec::of_ms),
            days: s.days,
            rated: s.rated,
            color: terms.color,
            class: terms.class(),
            range: match (s.min_rating, s.max_rating) {
                (Some(lo), Some(hi)) => Some([lo, hi]),
                _ => None,
            },
            created_ms: s.created_ms,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(json: &str) -> SeekRequest {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn terms_are_checked() {
        let t = req(r#"{"clock": {"initial_s": 300, "increment_s": 3}, "rated": true}"#)
            .terms(true)
            .unwrap();
        assert_eq!(t.clock, Some((300_000, 3_000)));
        assert_eq!(t.class(), Some(SpeedClass::Blitz));
        let t = req(r#"{"days": 3}"#).terms(false).unwrap();
        assert_eq!(t.class(), Some(SpeedClass::Correspondence));
        assert!(t.slow());
        assert_eq!(req("{}").terms(false).unwrap().class(), None);
        let refused = |json: &str, signed_in: bool| req(json).terms(signed_in).unwrap_err();
        assert_eq!(refused(r#"{"days": 4}"#, true), LobbyRefusal::BadDays);
        assert_eq!(
            refused(r#"{"days": 3, "clock": {"initial_s": 60}}"#, true),
            LobbyRefusal::ClockAndDays
        );
        assert_eq!(
            refused(r#"{"clock": {"initial_s": 60}, "rated": true}"#, false),
            LobbyRefusal::RatedNeedsAccount
        );
        assert_eq!(
            refused(r#"{"rated": true}"#, true),
            LobbyRefusal::UntimedRated
        );
        assert_eq!(
            refused(r#"{"clock": {"initial_s": -1}}"#, true),
            LobbyRefusal::BadClock
        );
        assert_eq!(
            refused(r#"{"clock": {"initial_s": 0, "increment_s": 0}}"#, true),
            LobbyRefusal::BadClock
        );
        assert_eq!(
            refused(r#"{"color": "green"}"#, true),
            LobbyRefusal::BadColor
        );
        assert_eq!(
            refused(r#"{"days": 1, "rated": true, "color": "white"}"#, true),
            LobbyRefusal::RatedColor
        );
        assert_eq!(
            refused(r#"{"range": [100, 200]}"#, true),
            LobbyRefusal::BadRange
        );
        assert!(serde_json::from_str::<SeekRequest>(r#"{"dance": 1}"#).is_err());
    }
}
