//! Passwords, hashed with Argon2id (RustCrypto's `argon2`) at OWASP's
//! first recommended setting: 19 MiB of memory, 2 passes, 1 lane
//! (docs/HOSTING.md). A hash is a PHC string that carries its own
//! parameters and salt, so a later change of the setting still verifies
//! older hashes.

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};

/// Memory in KiB, passes, lanes.
pub const MEMORY_KIB: u32 = 19 * 1024;
pub const PASSES: u32 = 2;
pub const LANES: u32 = 1;

#[derive(Debug, thiserror::Error)]
pub enum HashError {
    #[error("password hashing: {0}")]
    Argon2(String),
    #[error("the system's random source failed: {0}")]
    Random(String),
}

fn hasher() -> Result<Argon2<'static>, HashError> {
    let params = Params::new(MEMORY_KIB, PASSES, LANES, None)
        .map_err(|e| HashError::Argon2(e.to_string()))?;
    Ok(Argon2::new(Algorithm::Argon2id, Version::V0x13, params))
}

/// The PHC string of `password` with a fresh random salt.
pub fn hash(password: &str) -> Result<String, HashError> {
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).map_err(|e| HashError::Random(e.to_string()))?;
    let salt = SaltString::encode_b64(&salt).map_err(|e| HashError::Argon2(e.to_string()))?;
    Ok(hasher()?
        .hash_password(password.as_bytes(), &salt)
        .map_err(|e| HashError::Argon2(e.to_string()))?
        .to_string())
}

/// Whether `password` is the one hashed in `phc`. A hash that cannot be
/// read matches nothing.
pub fn verify(password: &str, phc: &str) -> bool {
    let Ok(parsed) = PasswordHash::new(phc) else {
        return false;
    };
    hasher().is_ok_and(|h| h.verify_password(password.as_bytes(), &parsed).is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_verifies_its_password_only() {
        let h = hash("correct horse").unwrap();
        assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{h}");
        assert!(verify("correct horse", &h));
        assert!(!verify("correct horsE", &h));
        assert!(!verify("correct horse", "not a hash"));
        // Each hash has its own salt.
        assert_ne!(hash("correct horse").unwrap(), h);
    }

    #[test]
    fn argon2id_matches_the_rfc_9106_parameters_it_names() {
        // A hash made by another implementation (the reference `argon2`
        // command line, Debian's package: `echo -n password | argon2
        // somesalt -id -t 2 -m 16 -p 1 -e`) verifies here.
        let reference = "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc";
        assert!(verify("password", reference));
        assert!(!verify("passwore", reference));
    }
}
