//! What the players' pages show (issue 20, docs/API.md "Players"): a
//! public profile with its counts and rating history, the game archive
//! with its filters, the export of every finished game as one record file
//! (RULES 6.5), the leaderboards, and the games being played now (TV).
//! Read-only: the game ends write the rows these read.

use std::collections::{BTreeMap, HashMap};

use legion_rules::Record;
use serde::Serialize;

use crate::games::ids::{GameId, UserId, now_ms};
use crate::games::record::date_of;
use crate::players::accounts::{RatingView, Username};
use crate::players::ratings::{Rating, SpeedClass};
use crate::store::{AccountRow, GameLine, RatingRow, Store, StoreError};

/// Games in a page of the archive.
pub const PAGE: usize = 20;
/// The most finished games read for a profile (its counts, archive and
/// export).
pub const MOST_GAMES: i64 = 20_000;
/// The leaderboards: players whose deviation is below this, with a rated
/// game in the last `ACTIVE_DAYS` days; the best `BOARD_LENGTH` a class.
pub const RANKED_RD: f64 = 150.0;
pub const ACTIVE_DAYS: i64 = 30;
pub const BOARD_LENGTH: usize = 50;
/// TV: games with a move in the last this many minutes; at most this
/// many.
pub const TV_MINUTES: i64 = 30;
pub const TV_GAMES: i64 = 50;
/// The word the API says for a deleted player (a reserved name, so no
/// account can have it).
pub const DELETED: &str = "deleted";

const DAY_MS: i64 = 86_400_000;

/// W/D/L of finished games, and the Phase 1 wins (RULES 5.1).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub phase_one_wins: u32,
}

/// A public profile: the name, ratings, when the account was made, its
/// counts, and each class's rating after every rated game.
#[derive(Clone, Debug, Serialize)]
pub struct PublicProfile {
    pub username: String,
    pub ratings: BTreeMap<SpeedClass, RatingView>,
    pub created_ms: i64,
    pub counts: Counts,
    pub history: BTreeMap<String, Vec<(i64, f64)>>,
}

/// A game of the archive.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ArchiveGame {
    pub id: String,
    pub white: Option<String>,
    pub black: Option<String>,
    pub result: String,
    pub rated: bool,
    pub class: Option<SpeedClass>,
    pub ended_ms: i64,
    pub plies: i64,
    pub white_rating: Option<f64>,
    pub black_rating: Option<f64>,
    /// `engine` or `friend`; the engine's side and level in an engine game.
    pub mode: String,
    pub engine: Option<String>,
    pub level: Option<i64>,
}

#[derive(Clone, Debug, Serialize)]
pub struct ArchivePage {
    pub page: usize,
    pub pages: usize,
    pub games: Vec<ArchiveGame>,
}

/// The archive's filters, read at the edge.
#[derive(Clone, Debug, Default)]
pub struct Filter {
    pub result: Option<Outcome>,
    /// An opponent's name (any case).
    pub opponent: Option<String>,
    pub rated: Option<bool>,
    pub class: Option<SpeedClass>,
}

/// A game's result for one of its players.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

impl Outcome {
    pub fn parse(s: &str) -> Option<Outcome> {
        match s {
            "win" => Some(Outcome::Win),
            "draw" => Some(Outcome::Draw),
            "loss" => Some(Outcome::Loss),
            _ => None,
        }
    }
}

/// A leaderboard's line.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Ranked {
    pub username: String,
    pub rating: f64,
    pub rd: f64,
    pub games: i64,
}

/// A game being played, for TV.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Summary {
    pub id: String,
    pub white: Option<String>,
    pub black: Option<String>,
    pub white_rating: f64,
    pub black_rating: f64,
    pub class: Option<SpeedClass>,
    pub rated: bool,
    pub plies: i64,
}

#[derive(Clone, Debug, Serialize)]
pub struct Tv {
    pub featured: Option<Summary>,
    pub games: Vec<Summary>,
}

/// The speed class of a game's time control.
pub fn class_of(g: &GameLine) -> Option<SpeedClass> {
    if g.days.is_some() {
        return Some(SpeedClass::Correspondence);
    }
    let initial = g.clock_initial_ms? as f64 / 1000.0;
    let increment = g.clock_increment_ms.unwrap_or(0) as f64 / 1000.0;
    Some(SpeedClass::of_clock(initial, increment))
}

fn class_named(name: &str) -> Option<SpeedClass> {
    SpeedClass::ALL.into_iter().find(|c| c.name() == name)
}

/// Whether `me` played White in `g` (else Black).
fn white_is(g: &GameLine, me: UserId) -> bool {
    g.white_user == Some(me)
}

/// The game's result for `me`.
pub fn outcome_for(g: &GameLine, me: UserId) -> Option<Outcome> {
    let white = white_is(g, me);
    match g.result.as_deref()? {
        "1/2-1/2" => Some(Outcome::Draw),
        "1-0" if white => Some(Outcome::Win),
        "0-1" if !white => Some(Outcome::Win),
        "1-0" | "0-1" => Some(Outcome::Loss),
        _ => None,
    }
}

/// W/D/L and Phase 1 wins of `me` in `games`.
pub fn counts(games: &[GameLine], me: UserId) -> Counts {
    let mut c = Counts::default();
    for g in games {
        let Some(o) = outcome_for(g, me) else {
            continue;
        };
        c.games += 1;
        match o {
            Outcome::Win => c.wins += 1,
            Outcome::Draw => c.draws += 1,
            Outcome::Loss => c.losses += 1,
        }
        let mine = if white_is(g, me) { "w" } else { "b" };
        if g.phase_one.as_deref() == Some(mine) {
            c.phase_one_wins += 1;
        }
    }
    c
}

/// A rating as it stands now: its deviation grown with the days since
/// its last rated game.
fn current(r: &RatingRow, now: i64) -> Rating {
    Rating {
        rating: r.rating,
        rd: r.rd,
        volatility: r.volatility,
    }
    .aged((now - r.last_ms).max(0) as f64 / DAY_MS as f64)
}

/// Every class's rating: the stored ones, the others at the start.
pub fn ratings_view(rows: &[RatingRow], now: i64) -> BTreeMap<SpeedClass, RatingView> {
    SpeedClass::ALL
        .into_iter()
        .map(|c| {
            let view = match rows.iter().find(|r| r.class == c.name()) {
                Some(r) => RatingView::of(current(r, now), r.games.max(0) as u32),
                None => RatingView::of(Rating::default(), 0),
            };
            (c, view)
        })
        .collect()
}

fn archive_game(g: &GameLine) -> ArchiveGame {
    ArchiveGame {
        id: g.id.clone(),
        white: g.white_name.clone(),
        black: g.black_name.clone(),
        result: g.result.clone().unwrap_or_else(|| "*".into()),
        rated: g.rated,
        class: class_of(g),
        ended_ms: g.at_ms,
        plies: g.plies,
        white_rating: g.white_rating.map(f64::round),
        black_rating: g.black_rating.map(f64::round),
        mode: g.mode.clone(),
        engine: g.engine_color.clone(),
        level: g.level,
    }
}

/// One page (from 1) of `me`'s games that pass `filter`.
pub fn archive_page(games: &[GameLine], me: UserId, filter: &Filter, page: usize) -> ArchivePage {
    let opponent = filter.opponent.as_ref().map(|o| o.to_ascii_lowercase());
    let kept: Vec<&GameLine> = games
        .iter()
        .filter(|g| filter.result.is_none_or(|r| outcome_for(g, me) == Some(r)))
        .filter(|g| filter.rated.is_none_or(|r| g.rated == r))
        .filter(|g| filter.class.is_none_or(|c| class_of(g) == Some(c)))
        .filter(|g| {
            opponent.as_ref().is_none_or(|o| {
                let theirs = if white_is(g, me) {
                    &g.black_name
                } else {
                    &g.white_name
                };
                theirs
                    .as_ref()
                    .is_some_and(|n| n.to_ascii_lowercase() == *o)
            })
        })
        .collect();
    let pages = kept.len().div_ceil(PAGE).max(1);
    let page = page.max(1);
    let games = kept
        .iter()
        .skip((page - 1).saturating_mul(PAGE))
        .take(PAGE)
        .map(|g| archive_game(g))
        .collect();
    ArchivePage { page, pages, games }
}

/// The leaderboards from the candidates the database gave (their stored
/// deviation under the bound): each deviation grown to today, the best
/// of each class.
pub fn leaderboards(
    rows: Vec<crate::store::RankedRow>,
    now: i64,
) -> BTreeMap<SpeedClass, Vec<Ranked>> {
    let mut boards: BTreeMap<SpeedClass, Vec<Ranked>> = SpeedClass::ALL
        .into_iter()
        .map(|c| (c, Vec::new()))
        .collect();
    for r in rows {
        let Some(class) = class_named(&r.rating.class) else {
            continue;
        };
        let now_r = current(&r.rating, now);
        let board = boards.entry(class).or_default();
        if now_r.rd < RANKED_RD && board.len() < BOARD_LENGTH {
            board.push(Ranked {
                username: r.username,
                rating: now_r.rating.round(),
                rd: now_r.rd.round(),
                games: r.rating.games,
            });
        }
    }
    boards
}

/// Why a profile view failed.
#[derive(Debug, thiserror::Error)]
pub enum ProfileError {
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A stored game that cannot be read back into a record.
    #[error("{0}")]
    Internal(String),
}

/// The account of a public name (any case), unless there is none or it
/// was deleted.
pub async fn account(store: &Store, name: &str) -> Result<Option<AccountRow>, StoreError> {
    let Ok(name) = Username::parse(name) else {
        return Ok(None);
    };
    Ok(store
        .account_by_name(&name.key())
        .await?
        .filter(|a| !a.deleted))
}

pub async fn profile(store: &Store, a: &AccountRow) -> Result<PublicProfile, StoreError> {
    let now = now_ms();
    let games = store.finished_games(a.id, MOST_GAMES).await?;
    let mut history: BTreeMap<String, Vec<(i64, f64)>> = BTreeMap::new();
    for (class, at, rating) in store.rating_history(a.id).await? {
        history
            .entry(class)
            .or_default()
            .push((at, (rating * 10.0).round() / 10.0));
    }
    Ok(PublicProfile {
        username: a.username.clone(),
        ratings: ratings_view(&store.ratings_of(a.id).await?, now),
        created_ms: a.created_ms,
        counts: counts(&games, a.id),
        history,
    })
}

pub async fn archive(
    store: &Store,
    a: &AccountRow,
    filter: &Filter,
    page: usize,
) -> Result<ArchivePage, StoreError> {
    let games = store.finished_games(a.id, MOST_GAMES).await?;
    Ok(archive_page(&games, a.id, filter, page))
}

/// Every finished game of the account as one file of records (RULES
/// 6.5), newest first; `site` is the origin for each game's `Site`.
pub async fn export(store: &Store, a: &AccountRow, site: &str) -> Result<String, ProfileError> {
    let games = store.finished_games(a.id, MOST_GAMES).await?;
    let mut out = String::new();
    for line in &games {
        let Ok(id) = GameId::parse(&line.id) else {
            continue;
        };
        let Some((row, moves)) = store.load(&id).await? else {
            continue;
        };
        let live = crate::games::live::rebuild(row, &moves, crate::games::hub::SERVER)
            .map_err(ProfileError::Internal)?;
        let mut r = Record::new(live.game);
        r.set_tag(
            "Event",
            if line.rated {
                "Legion rated game"
            } else {
                "Legion game"
            },
        );
        r.set_tag("Site", &format!("{}/g/{id}", site.trim_end_matches('/')));
        r.set_tag("Date", &date_of(line.at_ms));
        let name = |user: &Option<String>, side: &str| -> String {
            match user {
                Some(n) => n.clone(),
                None if line.engine_color.as_deref() == Some(side) => {
                    format!("Legion engine level {}", line.level.unwrap_or(3))
                }
                None => "Anonymous".to_string(),
            }
        };
        r.set_tag("White", &name(&line.white_name, "w"));
        r.set_tag("Black", &name(&line.black_name, "b"));
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&r.write());
    }
    Ok(out)
}

pub async fn leaderboard(store: &Store) -> Result<BTreeMap<SpeedClass, Vec<Ranked>>, StoreError> {
    let now = now_ms();
    let rows = store.ranked(RANKED_RD, now - ACTIVE_DAYS * DAY_MS).await?;
    Ok(leaderboards(rows, now))
}

/// How long a TV answer is kept: every TV page asks every 20 seconds,
/// and the query looks through the games not ended.
const TV_KEPT: std::time::Duration = std::time::Duration::from_secs(2);

/// The last TV answer, and when it was made.
#[derive(Default)]
pub struct TvCache(std::sync::Mutex<Option<(std::time::Instant, Tv)>>);

impl TvCache {
    /// TV as of at most `TV_KEPT` ago.
    pub async fn get(&self, store: &Store) -> Result<Tv, StoreError> {
        if let Ok(kept) = self.0.lock()
            && let Some((at, tv)) = kept.as_ref()
            && at.elapsed() < TV_KEPT
        {
            return Ok(tv.clone());
        }
        let fresh = tv(store).await?;
        if let Ok(mut kept) = self.0.lock() {
            *kept = Some((std::time::Instant::now(), fresh.clone()));
        }
        Ok(fresh)
    }
}

/// The games being played now, the highest sum of the two players'
/// ratings in the game's class first (a seat without an account, or a
/// class not yet played, counts as 1500).
pub async fn tv(store: &Store) -> Result<Tv, StoreError> {
    let now = now_ms();
    let lines = store
        .active_games(now - TV_MINUTES * 60_000, TV_GAMES)
        .await?;
    let mut known: HashMap<UserId, Vec<RatingRow>> = HashMap::new();
    let mut games = Vec::with_capacity(lines.len());
    for g in &lines {
        let class = class_of(g);
        let white_rating = rating_in(store, &mut known, g.white_user, class).await?;
        let black_rating = rating_in(store, &mut known, g.black_user, class).await?;
        games.push(Summary {
            id: g.id.clone(),
            white: g.white_name.clone(),
            black: g.black_name.clone(),
            white_rating,
            black_rating,
            class,
            rated: g.rated,
            plies: g.plies,
        });
    }
    games.sort_by(|a, b| {
        (b.white_rating + b.black_rating).total_cmp(&(a.white_rating + a.black_rating))
    });
    Ok(Tv {
        featured: games.first().cloned(),
        games,
    })
}

/// A player's rating in `class` (1500 without an account or a rating),
/// read once per player.
async fn rating_in(
    store: &Store,
    known: &mut HashMap<UserId, Vec<RatingRow>>,
    user: Option<UserId>,
    class: Option<SpeedClass>,
) -> Result<f64, StoreError> {
    let Some(u) = user else {
        return Ok(Rating::default().rating);
    };
    if let std::collections::hash_map::Entry::Vacant(e) = known.entry(u) {
        e.insert(store.ratings_of(u).await?);
    }
    Ok(known
        .get(&u)
        .and_then(|rows| {
            rows.iter()
                .find(|r| Some(r.class.as_str()) == class.map(SpeedClass::name))
        })
        .map_or(Rating::default().rating, |r| r.rating.round()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(white: Option<i64>, black: Option<i64>, result: &str) -> GameLine {
        GameLine {
            id: "g".into(),
            mode: "friend".into(),
            white_user: white.map(UserId),
            black_user: black.map(UserId),
            white_name: white.map(|w| format!("p{w}")),
            black_name: black.map(|b| format!("p{b}")),
            result: Some(result.into()),
            phase_one: None,
            rated: false,
            clock_initial_ms: None,
            clock_increment_ms: None,
            days: None,
            at_ms: 0,
            plies: 10,
            white_rating: None,
            black_rating: None,
            engine_color: None,
            level: None,
        }
    }

    #[test]
    fn results_count_for_the_side_played() {
        let me = UserId(1);
        let mut won_phase_one = line(Some(2), Some(1), "1-0");
        won_phase_one.phase_one = Some("b".into());
        let games = [
            line(Some(1), Some(2), "1-0"),
            line(Some(2), Some(1), "1-0"),
            line(Some(1), None, "1/2-1/2"),
            won_phase_one,
        ];
        assert_eq!(
            counts(&games, me),
            Counts {
                games: 4,
                wins: 1,
                draws: 1,
                losses: 2,
                phase_one_wins: 1
            }
        );
    }

    #[test]
    fn classes_follow_the_time_control() {
        let mut g = line(Some(1), Some(2), "1-0");
        assert_eq!(class_of(&g), None);
        g.clock_initial_ms = Some(180_000);
        g.clock_increment_ms = Some(2_000);
        assert_eq!(class_of(&g), Some(SpeedClass::Blitz));
        g.days = Some(3);
        assert_eq!(class_of(&g), Some(SpeedClass::Correspondence));
    }

    #[test]
    fn the_archive_filters_and_pages() {
        let me = UserId(1);
        let games: Vec<GameLine> = (0..45)
            .map(|i| {
                let mut g = line(
                    Some(1),
                    Some(2 + i % 3),
                    ["1-0", "0-1", "1/2-1/2"][i as usize % 3],
                );
                g.id = format!("g{i}");
                g
            })
            .collect();
        let all = archive_page(&games, me, &Filter::default(), 1);
        assert_eq!((all.page, all.pages, all.games.len()), (1, 3, 20));
        let last = archive_page(&games, me, &Filter::default(), 3);
        assert_eq!(last.games.len(), 5);
        assert!(
            archive_page(&games, me, &Filter::default(), 9)
                .games
                .is_empty()
        );
        let wins = Filter {
            result: Some(Outcome::Win),
            ..Filter::default()
        };
        assert_eq!(archive_page(&games, me, &wins, 1).games.len(), 15);
        let against = Filter {
            opponent: Some("P3".into()),
            ..Filter::default()
        };
        let p = archive_page(&games, me, &against, 1);
        assert_eq!(p.games.len(), 15);
        assert!(p.games.iter().all(|g| g.black.as_deref() == Some("p3")));
    }
}
