//! The words that name a game and its seats, each a type parsed once
//! where a request arrives (`GameId`, `SeatToken`, `InviteCode`); random
//! ids and secrets; and the server's clock.

use std::fmt;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

/// Characters in a new game's id.
pub const GAME_ID_LEN: usize = 10;
/// Characters in a seat token and in an invite code.
pub const SECRET_LEN: usize = 24;
/// The longest id or secret read: anything longer names nothing.
const MAX_LEN: usize = 64;

fn is_base62(s: &str) -> bool {
    !s.is_empty() && s.len() <= MAX_LEN && s.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// A text that is no id or secret of this server (empty, too long, or
/// not base62): it names no game and holds no seat.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not an id of this server")]
pub struct NotAnId(pub String);

macro_rules! word {
    ($(#[$doc:meta])* $name:ident, $len:expr, secret: $secret:literal) => {
        $(#[$doc])*
        #[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
        #[serde(transparent)]
        pub struct $name(String);

        impl $name {
            /// A new random one.
            pub fn random() -> $name {
                $name(random_id($len))
            }

            /// Reads one as a client or the database wrote it.
            pub fn parse(s: &str) -> Result<$name, NotAnId> {
                if is_base62(s) {
                    Ok($name(s.to_string()))
                } else {
                    // A client's bad secret is not echoed in full.
                    Err(NotAnId(s.chars().take(40).collect()))
                }
            }

            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                if $secret {
                    // Secrets stay out of logs and panics.
                    write!(f, "{}(…)", stringify!($name))
                } else {
                    write!(f, "{}({})", stringify!($name), self.0)
                }
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<$name, D::Error> {
                let s = String::deserialize(d)?;
                $name::parse(&s).map_err(serde::de::Error::custom)
            }
        }
    };
}

word!(
    /// A game's id: base62, as it appears in `/g/{id}` and the API's paths.
    GameId, GAME_ID_LEN, secret: false
);
word!(
    /// The secret that holds a seat of a game (`Authorization: Bearer`).
    SeatToken, SECRET_LEN, secret: true
);
word!(
    /// A friend game's one-time invite.
    InviteCode, SECRET_LEN, secret: true
);

word!(
    /// A seek of the lobby, or a place in a quick-pairing pool (issue 20).
    SeekId, GAME_ID_LEN, secret: false
);
word!(
    /// A challenge of one player by another (issue 20).
    ChallengeId, GAME_ID_LEN, secret: false
);

word!(
    /// A study's id: as a game's, in `/study/{id}` and the API's paths.
    StudyId, GAME_ID_LEN, secret: false
);
word!(
    /// The secret that lets an anonymous creator edit their study
    /// (`Authorization: Bearer`); the database keeps its hash.
    EditKey, SECRET_LEN, secret: true
);

word!(
    /// A signed-in browser's session: the secret of its cookie.
    SessionId, SESSION_LEN, secret: true
);

/// Characters in a session id (about 190 random bits).
pub const SESSION_LEN: usize = 32;

/// An account, as the database numbers it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct UserId(pub i64);

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Display for SeekId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What the database keeps of a secret: its SHA-256, in lower-case hex
/// (issue 19.16: a backup holds no seat's secret). The secrets are 143
/// random bits, so a fast hash is enough: there is nothing to guess by
/// trying words.
#[derive(Clone, PartialEq, Eq)]
pub struct SecretHash(String);

impl SecretHash {
    fn of(secret: &str) -> SecretHash {
        use sha2::{Digest, Sha256};
        let digest = Sha256::digest(secret.as_bytes());
        let mut hex = String::with_capacity(64);
        for b in digest {
            hex.push_str(&format!("{b:02x}"));
        }
        SecretHash(hex)
    }

    /// Reads a stored hash: 64 lower-case hex digits.
    pub fn parse(s: &str) -> Option<SecretHash> {
        (s.len() == 64 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')))
            .then(|| SecretHash(s.to_string()))
    }

    /// The hash of a secret kept in clear by a database of schema 5 or
    /// older (its migration).
    pub fn of_stored_secret(secret: &str) -> SecretHash {
        SecretHash::of(secret)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether this is the hash of `other`'s, in time independent of where
    /// they differ.
    fn matches(&self, other: &SecretHash) -> bool {
        same_secret(&self.0, &other.0)
    }
}

impl fmt::Debug for SecretHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SecretHash({}…)", &self.0[..8.min(self.0.len())])
    }
}

impl SeatToken {
    pub fn hash(&self) -> SecretHash {
        SecretHash::of(&self.0)
    }

    /// Whether this token is the one whose hash is `stored`.
    pub fn opens(&self, stored: &SecretHash) -> bool {
        stored.matches(&self.hash())
    }
}

impl SessionId {
    pub fn hash(&self) -> SecretHash {
        SecretHash::of(&self.0)
    }
}

impl EditKey {
    pub fn hash(&self) -> SecretHash {
        SecretHash::of(&self.0)
    }

    /// Whether this key is the one whose hash is `stored`.
    pub fn opens(&self, stored: &SecretHash) -> bool {
        stored.matches(&self.hash())
    }
}

impl fmt::Display for StudyId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl InviteCode {
    pub fn hash(&self) -> SecretHash {
        SecretHash::of(&self.0)
    }

    pub fn opens(&self, stored: &SecretHash) -> bool {
        stored.matches(&self.hash())
    }
}

/// Unix time in milliseconds.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// A random id or secret: `n` characters of base62 from the system's
/// random source. Without one the server cannot make secrets: it stops
/// rather than hand out guessable seats.
pub fn random_id(n: usize) -> String {
    const ALPHABET: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    let mut out = String::with_capacity(n);
    while out.len() < n {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes).expect("the system's random source failed");
        // 248 = 4 × 62: rejecting larger bytes keeps every letter equally likely.
        for b in bytes.into_iter().filter(|&b| b < 248) {
            if out.len() < n {
                out.push(ALPHABET[b as usize % 62] as char);
            }
        }
    }
    out
}

/// Whether two secrets are equal, in time independent of where they differ.
pub fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_have_the_length_and_alphabet_asked_for() {
        let id = random_id(40);
        assert_eq!(id.len(), 40);
        assert!(id.chars().all(|c| c.is_ascii_alphanumeric()));
        assert_ne!(random_id(24), random_id(24));
    }

    #[test]
    fn words_are_read_once_and_checked() {
        assert_eq!(GameId::parse("abc123").unwrap().as_str(), "abc123");
        for bad in ["", "a b", "ab/c", "é", &"a".repeat(65)] {
            assert!(GameId::parse(bad).is_err(), "{bad:?}");
            assert!(SeatToken::parse(bad).is_err(), "{bad:?}");
        }
        assert_eq!(GameId::random().as_str().len(), GAME_ID_LEN);
        assert_eq!(SeatToken::random().as_str().len(), SECRET_LEN);
        // JSON is read through the same check.
        assert!(serde_json::from_str::<InviteCode>("\"x y\"").is_err());
        let t: SeatToken = serde_json::from_str("\"Tok3n\"").unwrap();
        assert!(t.opens(&SeatToken::parse("Tok3n").unwrap().hash()));
        assert!(!t.opens(&SeatToken::parse("Tok3N").unwrap().hash()));
        // A secret never shows in a log line.
        assert_eq!(format!("{t:?}"), "SeatToken(…)");
        assert_eq!(format!("{:?}", GameId::parse("g1").unwrap()), "GameId(g1)");
    }

    #[test]
    fn secrets_are_kept_as_their_sha256() {
        // SHA-256("abc"), FIPS 180-2 appendix B.1.
        let h = SeatToken::parse("abc").unwrap().hash();
        assert_eq!(
            h.as_str(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(SecretHash::parse(h.as_str()), Some(h));
        assert_eq!(SecretHash::parse("abc"), None);
        assert_eq!(SecretHash::parse(&"A".repeat(64)), None);
    }

    #[test]
    fn secrets_compare_exactly() {
        assert!(same_secret("abc", "abc"));
        assert!(!same_secret("abc", "abd"));
        assert!(!same_secret("abc", "abcd"));
    }
}
