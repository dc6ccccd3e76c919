//! Challenges (issue 20): a signed-in player asks another, by name, for a
//! game on given terms; the other accepts or declines, the challenger may
//! cancel. A challenge lasts a day unless answered.

use serde::{Deserialize, Serialize};

use crate::games::hub::PairedGame;
use crate::games::ids::{ChallengeId, GameId, SeatToken, UserId, now_ms};
use crate::games::model::{Pairing, Side};
use crate::lobby::bus::News;
use crate::lobby::seeks::{ClockSpec, ColorChoice, Terms};
use crate::lobby::{Lobby, LobbyRefusal, LobbyResult};
use crate::players::accounts::Username;
use crate::players::ratings::SpeedClass;
use crate::store::ChallengeRow;

/// How long a challenge waits for its answer.
pub const CHALLENGE_MS: i64 = 86_400_000;

/// A challenge as its two players see it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChallengeView {
    pub id: ChallengeId,
    pub from: String,
    pub to: String,
    pub clock: Option<ClockSpec>,
    pub days: Option<u8>,
    pub rated: bool,
    /// The challenger's colour.
    pub color: ColorChoice,
    pub class: Option<SpeedClass>,
    pub created_ms: i64,
    pub expires_ms: i64,
}

impl ChallengeView {
    pub fn of(c: &ChallengeRow) -> ChallengeView {
        let terms = Terms {
            clock: c.clock,
            days: c.days,
            rated: c.rated,
            color: ColorChoice::parse(&c.color).unwrap_or_default(),
        };
        ChallengeView {
            id: c.id.clone(),
            from: c.from_name.clone(),
            to: c.to_name.clone(),
            clock: c.clock.map(ClockSpec::of_ms),
            days: c.days,
            rated: c.rated,
            color: terms.color,
            class: terms.class(),
            created_ms: c.created_ms,
            expires_ms: c.expires_ms,
        }
    }
}

/// An accepted challenge, for the one who accepted.
pub struct Answered {
    pub game: GameId,
    pub color: Side,
}

impl Lobby {
    /// Challenges player `name` on `terms`.
    pub async fn challenge(
        &self,
        from: UserId,
        name: &str,
        terms: Terms,
    ) -> LobbyResult<ChallengeView> {
        let key = Username::parse(name)
            .map_err(|_| LobbyRefusal::NoPlayer)?
            .key();
        let to = self
            .store
            .account_by_name(&key)
            .await?
            .filter(|a| !a.deleted && !a.disabled)
            .ok_or(LobbyRefusal::NoPlayer)?;
        if to.id == from {
            return Err(LobbyRefusal::SelfChallenge.into());
        }
        let now = now_ms();
        let row = ChallengeRow {
            id: ChallengeId::random(),
            from,
            from_name: String::new(),
            to: to.id,
            to_name: to.username.clone(),
            // The challenger holds the seat by its session; the token is
            // never given out.
            seat: SeatToken::random().hash(),
            clock: terms.clock,
            days: terms.days,
            rated: terms.rated,
            color: terms.color.name().to_string(),
            created_ms: now,
            expires_ms: now + CHALLENGE_MS,
            status: "open".into(),
            game: None,
        };
        self.store.create_challenge(&row).await?;
        let stored = self
            .store
            .challenge(&row.id)
            .await?
            .ok_or(LobbyRefusal::NoChallenge)?;
        let view = ChallengeView::of(&stored);
        self.bus
            .tell(News::Challenge {
                to: to.id,
                challenge: view.clone(),
            })
            .await;
        Ok(view)
    }

    /// The open challenges to and from `user`.
    pub async fn challenges(
        &self,
        user: UserId,
    ) -> LobbyResult<(Vec<ChallengeView>, Vec<ChallengeView>)> {
        let all = self.store.challenges_of(user, now_ms()).await?;
        let (to_me, from_me): (Vec<_>, Vec<_>) = all.iter().partition(|c| c.to == user);
        Ok((
            to_me.into_iter().map(ChallengeView::of).collect(),
            from_me.into_iter().map(ChallengeView::of).collect(),
        ))
    }

    async fn open_challenge(&self, id: &ChallengeId) -> LobbyResult<ChallengeRow> {
        self.store
            .challenge(id)
            .await?
            .filter(|c| c.status == "open" && c.expires_ms > now_ms())
            .ok_or_else(|| LobbyRefusal::NoChallenge.into())
    }

    /// Accepts a challenge to `user`: the game is made.
    pub async fn accept_challenge(&self, id: &ChallengeId, user: UserId) -> LobbyResult<Answered> {
        let c = self.open_challenge(id).await?;
        if c.to != user {
            return Err(LobbyRefusal::NotYourChallenge.into());
        }
        let game = GameId::random();
        if !self
            .store
            .settle_challenge(id, "accepted", Some(&game), now_ms())
            .await?
        {
            return Err(LobbyRefusal::NoChallenge.into());
        }
        let from_side = crate::lobby::side_of(ColorChoice::parse(&c.color).unwrap_or_default());
        let from = (c.seat.clone(), Some(c.from));
        let to = (SeatToken::random().hash(), Some(c.to));
        let (white, black) = match from_side {
            Side::White => (from, to),
            Side::Black => (to, from),
        };
        self.hub
            .create_paired(PairedGame {
                id: game.clone(),
                white,
                black,
                clock: c.clock,
                days: c.days,
                rated: c.rated,
                pairing: Pairing::Challenge,
            })
            .await?;
        self.bus
            .tell(News::ChallengeEnded {
                id: id.clone(),
                from: c.from,
                to: c.to,
                status: "accepted".into(),
                game: Some(game.clone()),
            })
            .await;
        Ok(Answered {
            game,
            color: from_side.other(),
        })
    }

    /// Declines (the challenged) or cancels (the challenger) a challenge.
    pub async fn end_challenge(&self, id: &ChallengeId, user: UserId) -> LobbyResult<()> {
        let c = self.open_challenge(id).await?;
        let status = if c.to == user {
            "declined"
        } else if c.from == user {
            "cancelled"
        } else {
            return Err(LobbyRefusal::NotYourChallenge.into());
        };
        if !self
            .store
            .settle_challenge(id, status, None, now_ms())
            .await?
        {
            return Err(LobbyRefusal::NoChallenge.into());
        }
        self.bus
            .tell(News::ChallengeEnded {
                id: id.clone(),
                from: c.from,
                to: c.to,
                status: status.into(),
                game: None,
            })
            .await;
        Ok(())
    }
}
