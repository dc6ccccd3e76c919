//! Accounts: registration, sign-in, sign-out, password change, deletion,
//! following OWASP's guidance (ASVS level 1): passwords only as Argon2id
//! hashes, sessions renewed on sign-in and ended on sign-out and by a
//! password change, and no way to tell an unknown name from a wrong
//! password (the same answer, and a hash verified either way, so the same
//! time). Sign-ins are rate-limited per address (at the edge) and per
//! account (here); hashing runs off the async threads, a few at a time.

use std::num::NonZeroU32;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use serde::Serialize;
use tokio::sync::Semaphore;

use crate::games::ids::{SessionId, UserId, now_ms};
use crate::players::password;
use crate::players::ratings::{Rating, SpeedClass};
use crate::store::{AccountRow, NewAccount, Store, StoreError};

/// How long a session lasts without signing in again.
pub const SESSION_DAYS: i64 = 30;
/// Sign-in attempts per account and minute (and at once).
pub const SIGN_INS_PER_ACCOUNT: u32 = 10;
pub const SIGN_IN_ACCOUNT_BURST: u32 = 5;
/// Password hashes computed at once (each takes 19 MiB).
const HASHES_AT_ONCE: usize = 2;

/// Names nobody may take: the site's own words, and names that would
/// mislead.
pub const RESERVED: &[&str] = &[
    "admin",
    "administrator",
    "anonymous",
    "deleted",
    "engine",
    "guest",
    "legion",
    "mod",
    "moderator",
    "null",
    "root",
    "staff",
    "support",
    "system",
];

/// Why an account action was refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum AccountRefusal {
    #[error("a username is 2 to 20 letters, digits, '_' or '-'")]
    BadUsername,
    #[error("that username is reserved")]
    Reserved,
    #[error("that username is taken")]
    Taken,
    #[error("a password has at least 8 and at most 128 characters")]
    BadPassword,
    /// The one answer for an unknown name, a wrong password, a deleted or
    /// disabled account.
    #[error("wrong username or password")]
    WrongCredentials,
    #[error("not signed in")]
    NotSignedIn,
    #[error("too many sign-in attempts for this account")]
    TooManyAttempts(Duration),
}

#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    #[error(transparent)]
    Refused(#[from] AccountRefusal),
    #[error(transparent)]
    Store(StoreError),
    #[error("{0}")]
    Internal(String),
}

impl From<StoreError> for AccountError {
    fn from(e: StoreError) -> AccountError {
        match e {
            StoreError::Taken => AccountRefusal::Taken.into(),
            e => AccountError::Store(e),
        }
    }
}

pub type AccountResult<T> = Result<T, AccountError>;

/// A username as typed, checked: 2–20 of `A-Z a-z 0-9 _ -`, not reserved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Username(String);

impl Username {
    pub fn parse(s: &str) -> Result<Username, AccountRefusal> {
        let ok = (2..=20).contains(&s.len())
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
        if !ok {
            return Err(AccountRefusal::BadUsername);
        }
        if RESERVED.contains(&s.to_ascii_lowercase().as_str()) {
            return Err(AccountRefusal::Reserved);
        }
        Ok(Username(s.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The name in lower case: unique regardless of case.
    pub fn key(&self) -> String {
        self.0.to_ascii_lowercase()
    }
}

/// A new password, checked.
fn check_password(p: &str) -> Result<(), AccountRefusal> {
    if (8..=128).contains(&p.chars().count()) {
        Ok(())
    } else {
        Err(AccountRefusal::BadPassword)
    }
}

/// A rating as the API shows it.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct RatingView {
    pub rating: f64,
    pub rd: f64,
    pub volatility: f64,
    pub games: u32,
    pub provisional: bool,
}

impl RatingView {
    pub fn of(r: Rating, games: u32) -> RatingView {
        RatingView {
            rating: r.rating,
            rd: r.rd,
            volatility: r.volatility,
            games,
            provisional: r.provisional(),
        }
    }
}

/// An account as the API shows it: its name as typed, its ratings.
#[derive(Clone, Debug, Serialize)]
pub struct Profile {
    pub username: String,
    pub ratings: std::collections::BTreeMap<SpeedClass, RatingView>,
}

impl Profile {
    /// An account's profile: its ratings as kept, every class it has not
    /// played at the start, a deviation grown by the days since its last
    /// rated game.
    async fn of(store: &Store, a: &AccountRow) -> Result<Profile, StoreError> {
        Ok(Profile {
            username: a.username.clone(),
            ratings: crate::players::profiles::ratings_view(
                &store.ratings_of(a.id).await?,
                now_ms(),
            ),
        })
    }
}

/// A signed-in browser: its account, and the session that proves it.
#[derive(Clone, Debug)]
pub struct SignedIn {
    pub account: UserId,
    pub profile: Profile,
    pub session: SessionId,
}

pub struct Accounts {
    store: Arc<Store>,
    hashing: Semaphore,
    per_account: Option<DefaultKeyedRateLimiter<String>>,
    /// A hash verified when there is no account, so that an unknown name
    /// costs the time a wrong password costs.
    dummy: OnceLock<String>,
}

impl Accounts {
    pub fn new(store: Arc<Store>, sign_ins_per_account: u32) -> Accounts {
        let per_account = NonZeroU32::new(sign_ins_per_account).map(|n| {
            let burst = NonZeroU32::new(SIGN_IN_ACCOUNT_BURST.min(n.get())).unwrap_or(n);
            RateLimiter::keyed(Quota::per_minute(n).allow_burst(burst))
        });
        Accounts {
            store,
            hashing: Semaphore::new(HASHES_AT_ONCE),
            per_account,
            dummy: OnceLock::new(),
        }
    }

    /// Runs Argon2 work off the async threads, a few at a time.
    async fn hashing<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> AccountResult<T> {
        let _permit = self
            .hashing
            .acquire()
            .await
            .map_err(|e| AccountError::Internal(e.to_string()))?;
        tokio::task::spawn_blocking(f)
            .await
            .map_err(|e| AccountError::Internal(e.to_string()))
    }

    async fn hash(&self, password: String) -> AccountResult<String> {
        self.hashing(move || password::hash(&password))
            .await?
            .map_err(|e| AccountError::Internal(e.to_string()))
    }

    async fn verify(&self, password: String, phc: Option<String>) -> AccountResult<bool> {
        let dummy = match &phc {
            Some(_) => None,
            None => Some(self.dummy_hash().await?),
        };
        self.hashing(move || {
            let matched =
                password::verify(&password, phc.as_deref().or(dummy.as_deref()).unwrap_or(""));
            // The dummy's own password is never accepted.
            matched && phc.is_some()
        })
        .await
    }

    async fn dummy_hash(&self) -> AccountResult<String> {
        if let Some(h) = self.dummy.get() {
            return Ok(h.clone());
        }
        let h = self.hash("no account has this password".into()).await?;
        Ok(self.dummy.get_or_init(|| h).clone())
    }

    /// A new session for `account`, kept in the database.
    async fn open_session(&self, account: &AccountRow) -> AccountResult<SignedIn> {
        let session = SessionId::random();
        let now = now_ms();
        self.store
            .create_session(
                &session.hash(),
                account.id,
                now,
                now + SESSION_DAYS * 86_400_000,
            )
            .await?;
        Ok(SignedIn {
            account: account.id,
            profile: Profile::of(&self.store, account).await?,
            session,
        })
    }

    /// Ends the session a browser came with, if any (a sign-in replaces
    /// it: no session fixation).
    pub async fn end_session(&self, old: Option<&SessionId>) -> AccountResult<()> {
        if let Some(s) = old {
            self.store.delete_session(&s.hash()).await?;
        }
        Ok(())
    }

    pub async fn register(
        &self,
        username: &str,
        password: &str,
        old: Option<&SessionId>,
    ) -> AccountResult<SignedIn> {
        let name = Username::parse(username)?;
        check_password(password)?;
        let password_hash = self.hash(password.to_string()).await?;
        let id = self
            .store
            .create_account(NewAccount {
                username: name.as_str().to_string(),
                key: name.key(),
                password_hash: password_hash.clone(),
                now_ms: now_ms(),
            })
            .await?;
        self.end_session(old).await?;
        self.open_session(&AccountRow {
            id,
            username: name.as_str().to_string(),
            password_hash: Some(password_hash),
            created_ms: now_ms(),
            disabled: false,
            deleted: false,
        })
        .await
    }

    /// Counts a sign-in attempt against the account named `key`.
    fn attempt(&self, key: &str) -> Result<(), AccountRefusal> {
        let Some(l) = &self.per_account else {
            return Ok(());
        };
        l.check_key(&key.to_string()).map_err(|not_until| {
            AccountRefusal::TooManyAttempts(not_until.wait_time_from(DefaultClock::default().now()))
        })
    }

    /// The account whose name and password these are, if it may sign in.
    async fn check_credentials(&self, username: &str, password: &str) -> AccountResult<AccountRow> {
        let key = username.to_ascii_lowercase();
        // A name no account could have is looked up all the same: the
        // answer and its time are those of a wrong password.
        self.attempt(&key)?;
        let account = match Username::parse(username) {
            Ok(_) => self.store.account_by_name(&key).await?,
            Err(_) => None,
        }
        .filter(|a| !a.deleted && !a.disabled);
        let phc = account.as_ref().and_then(|a| a.password_hash.clone());
        let ok = self.verify(password.to_string(), phc).await?;
        match account {
            Some(a) if ok => Ok(a),
            _ => Err(AccountRefusal::WrongCredentials.into()),
        }
    }

    pub async fn sign_in(
        &self,
        username: &str,
        password: &str,
        old: Option<&SessionId>,
    ) -> AccountResult<SignedIn> {
        let account = self.check_credentials(username, password).await?;
        self.end_session(old).await?;
        self.open_session(&account).await
    }

    /// The account of a session cookie, if it is live.
    pub async fn signed_in(&self, session: Option<&SessionId>) -> AccountResult<Option<SignedIn>> {
        let Some(s) = session else {
            return Ok(None);
        };
        let account = self.store.session_account(&s.hash(), now_ms()).await?;
        let Some(a) = account.filter(|a| !a.deleted && !a.disabled) else {
            return Ok(None);
        };
        Ok(Some(SignedIn {
            account: a.id,
            profile: Profile::of(&self.store, &a).await?,
            session: s.clone(),
        }))
    }

    /// The account of a session cookie, if it is live, without its
    /// profile (every request with a cookie asks this).
    pub async fn account_of(&self, session: Option<&SessionId>) -> AccountResult<Option<UserId>> {
        let Some(s) = session else {
            return Ok(None);
        };
        let account = self.store.session_account(&s.hash(), now_ms()).await?;
        Ok(account.filter(|a| !a.deleted && !a.disabled).map(|a| a.id))
    }

    async fn require(&self, session: Option<&SessionId>) -> AccountResult<SignedIn> {
        self.signed_in(session)
            .await?
            .ok_or_else(|| AccountRefusal::NotSignedIn.into())
    }

    /// Changes the password: every session of the account ends (other
    /// browsers too), and this browser gets a new one.
    pub async fn change_password(
        &self,
        session: Option<&SessionId>,
        old: &str,
        new: &str,
    ) -> AccountResult<SignedIn> {
        let me = self.require(session).await?;
        check_password(new)?;
        let account = self.check_credentials(&me.profile.username, old).await?;
        let hash = self.hash(new.to_string()).await?;
        self.store.set_password(account.id, &hash).await?;
        self.store.delete_sessions(account.id).await?;
        self.open_session(&account).await
    }

    /// Deletes the signed-in account (its password confirms it): its
    /// sessions end, its name stays taken, its games stay.
    pub async fn delete(&self, session: Option<&SessionId>, password: &str) -> AccountResult<()> {
        let me = self.require(session).await?;
        let account = self
            .check_credentials(&me.profile.username, password)
            .await?;
        self.store.delete_account(account.id, now_ms()).await?;
        self.store.delete_sessions(account.id).await?;
        Ok(())
    }

    /// The public profile of `name` (any case), unless there is no such
    /// account or it was deleted.
    pub async fn profile(&self, name: &str) -> AccountResult<Option<Profile>> {
        if Username::parse(name).is_err() {
            return Ok(None);
        }
        let a = self
            .store
            .account_by_name(&name.to_ascii_lowercase())
            .await?;
        match a.filter(|a| !a.deleted) {
            Some(a) => Ok(Some(Profile::of(&self.store, &a).await?)),
            None => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usernames_are_checked_as_the_issue_says() {
        for ok in ["ab", "Anna_K", "x-1", "ABCDEFGHIJKLMNOPQRST"] {
            assert!(Username::parse(ok).is_ok(), "{ok}");
        }
        for bad in [
            "a",
            "",
            "ABCDEFGHIJKLMNOPQRSTU",
            "an na",
            "анна",
            "a.b",
            "<b>",
        ] {
            assert_eq!(
                Username::parse(bad),
                Err(AccountRefusal::BadUsername),
                "{bad}"
            );
        }
        for reserved in ["admin", "Legion", "ANONYMOUS"] {
            assert_eq!(
                Username::parse(reserved),
                Err(AccountRefusal::Reserved),
                "{reserved}"
            );
        }
        assert_eq!(Username::parse("Anna").unwrap().key(), "anna");
    }

    #[test]
    fn passwords_have_at_least_eight_characters() {
        assert_eq!(check_password("1234567"), Err(AccountRefusal::BadPassword));
        assert_eq!(check_password("12345678"), Ok(()));
        // Characters, not bytes: eight Cyrillic letters are enough.
        assert_eq!(check_password("пароль12"), Ok(()));
        assert_eq!(
            check_password(&"x".repeat(129)),
            Err(AccountRefusal::BadPassword)
        );
    }
}
