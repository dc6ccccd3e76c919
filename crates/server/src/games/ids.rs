//! Random ids and secrets, and the server's clock.

use std::time::{SystemTime, UNIX_EPOCH};

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
    fn secrets_compare_exactly() {
        assert!(same_secret("abc", "abc"));
        assert!(!same_secret("abc", "abd"));
        assert!(!same_secret("abc", "abcd"));
    }
}
