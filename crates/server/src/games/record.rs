//! A game's record (RULES 6.5) with its tags, for download.

use std::sync::Arc;

use legion_rules::Record;

use crate::games::hub::Hub;
use crate::games::ids::GameId;
use crate::games::model::Side;
use crate::games::refusal::CoreResult;

/// `YYYY.MM.DD` of a unix time in ms (UTC), as game records write dates.
pub fn date_of(ms: i64) -> String {
    // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
    let z = ms.div_euclid(86_400_000) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + (m <= 2) as i64;
    format!("{y:04}.{m:02}.{d:02}")
}

impl Hub {
    /// The game's record; its `Site` tag is the game's full address on
    /// `site` (an origin such as `https://legion.example`).
    pub async fn record(self: &Arc<Self>, id: &GameId, site: &str) -> CoreResult<String> {
        let (_, g) = self.current(id).await?;
        let mut r = Record::new(g.game.clone());
        r.set_tag("Event", "Legion game");
        r.set_tag("Date", &date_of(g.row.created_ms));
        r.set_tag("Site", &format!("{}/g/{id}", site.trim_end_matches('/')));
        let name = |side: Side| -> String {
            if g.row.engine_color == Some(side) {
                format!("Legion engine level {}", g.row.level.unwrap_or(3))
            } else {
                "Player".to_string()
            }
        };
        r.set_tag("White", &name(Side::White));
        r.set_tag("Black", &name(Side::Black));
        Ok(r.write())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_of_known_days() {
        assert_eq!(date_of(0), "1970.01.01");
        // 2026-11-29 is 20_786 days after 1970-01-01 (56 years with 14
        // leap days, then 332 days into 2026).
        assert_eq!(date_of(20_786 * 86_400_000), "2026.11.29");
        assert_eq!(date_of(951_782_400_000), "2000.02.29");
    }
}
