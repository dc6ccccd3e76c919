//! Accounts and their sessions in either database (issue 20). Kept in the
//! database, not in one server's memory, so that every server of a
//! cluster knows a session. A session is stored as the hash of its
//! cookie's secret, a password as its Argon2id hash (`players::password`).
//!
//! Account writes are rare (a registration, a sign-in): on SQLite they
//! take the reading connection (SQLite's lock orders them with the game
//! writer's batches) rather than a place in the games' group commit.

use rusqlite::{OptionalExtension, params};

use super::sqlite::SqliteStore;
use super::{Store, StoreError};
use crate::games::ids::{SecretHash, UserId};

/// An account as the database keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountRow {
    pub id: UserId,
    /// As typed at registration.
    pub username: String,
    /// The PHC string of the password's hash; `None` once deleted.
    pub password_hash: Option<String>,
    pub created_ms: i64,
    pub disabled: bool,
    pub deleted: bool,
}

/// A registration, checked.
#[derive(Clone, Debug)]
pub struct NewAccount {
    pub username: String,
    /// `username` in lower case: unique.
    pub key: String,
    pub password_hash: String,
    pub now_ms: i64,
}

const ACCOUNT_COLUMNS: &str =
    "id, username, password_hash, created_ms, disabled, deleted_ms IS NOT NULL";

fn sqlite_account(r: &rusqlite::Row<'_>) -> rusqlite::Result<AccountRow> {
    Ok(AccountRow {
        id: UserId(r.get(0)?),
        username: r.get(1)?,
        password_hash: r.get(2)?,
        created_ms: r.get(3)?,
        disabled: r.get::<_, i64>(4)? != 0,
        deleted: r.get(5)?,
    })
}

type PgAccount = (i64, String, Option<String>, i64, bool, bool);

fn pg_account(
    (id, username, password_hash, created_ms, disabled, deleted): PgAccount,
) -> AccountRow {
    AccountRow {
        id: UserId(id),
        username,
        password_hash,
        created_ms,
        disabled,
        deleted,
    }
}

fn is_unique_violation_sqlite(e: &rusqlite::Error) -> bool {
    matches!(
        e,
        rusqlite::Error::SqliteFailure(f, _)
            if f.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE
    )
}

fn sqlite_create(s: &SqliteStore, a: NewAccount) -> Result<UserId, StoreError> {
    s.read(|c| {
        match c.execute(
            "INSERT INTO accounts (username, username_key, password_hash, created_ms)
             VALUES (?1, ?2, ?3, ?4)",
            params![a.username, a.key, a.password_hash, a.now_ms],
        ) {
            Ok(_) => Ok(UserId(c.last_insert_rowid())),
            Err(e) if is_unique_violation_sqlite(&e) => Err(StoreError::Taken),
            Err(e) => Err(e.into()),
        }
    })
}

fn sqlite_by_key(s: &SqliteStore, key: String) -> Result<Option<AccountRow>, StoreError> {
    s.read(|c| {
        Ok(c.query_row(
            &format!("SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE username_key = ?1"),
            params![key],
            sqlite_account,
        )
        .optional()?)
    })
}

fn sqlite_by_id(s: &SqliteStore, id: UserId) -> Result<Option<AccountRow>, StoreError> {
    s.read(|c| {
        Ok(c.query_row(
            &format!("SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE id = ?1"),
            params![id.0],
            sqlite_account,
        )
        .optional()?)
    })
}

fn sqlite_session(
    s: &SqliteStore,
    (hash, now): (SecretHash, i64),
) -> Result<Option<AccountRow>, StoreError> {
    s.read(|c| {
        Ok(c.query_row(
            &format!(
                "SELECT {} FROM sessions s JOIN accounts a ON a.id = s.account_id
                 WHERE s.id_hash = ?1 AND s.expires_ms > ?2",
                ACCOUNT_COLUMNS
                    .split(", ")
                    .map(|col| format!("a.{col}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            params![hash.as_str(), now],
            sqlite_account,
        )
        .optional()?)
    })
}

fn sqlite_execute(
    s: &SqliteStore,
    (sql, args): (&'static str, Vec<rusqlite::types::Value>),
) -> Result<usize, StoreError> {
    s.read(|c| Ok(c.execute(sql, rusqlite::params_from_iter(args))?))
}

fn sqlite_newest(s: &SqliteStore, limit: i64) -> Result<Vec<AccountRow>, StoreError> {
    s.read(|c| {
        let mut stmt = c.prepare(&format!(
            "SELECT {ACCOUNT_COLUMNS} FROM accounts ORDER BY id DESC LIMIT ?1"
        ))?;
        let rows = stmt
            .query_map(params![limit], sqlite_account)?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(rows)
    })
}

/// A statement's parameters for either database.
pub(super) enum Arg {
    Int(i64),
    Real(f64),
    Text(String),
    /// A text NULL (PostgreSQL types its parameters).
    Null,
    NullInt,
    NullReal,
}

impl Arg {
    pub(super) fn sqlite(&self) -> rusqlite::types::Value {
        match self {
            Arg::Int(i) => rusqlite::types::Value::Integer(*i),
            Arg::Real(r) => rusqlite::types::Value::Real(*r),
            Arg::Text(t) => rusqlite::types::Value::Text(t.clone()),
            Arg::Null | Arg::NullInt | Arg::NullReal => rusqlite::types::Value::Null,
        }
    }
}

impl Store {
    /// Runs one changing statement, written with `?N` parameters (SQLite)
    /// and `$N` (PostgreSQL); the rows it changed.
    pub(super) async fn change(
        &self,
        sqlite: &'static str,
        pg: &'static str,
        args: Vec<Arg>,
    ) -> Result<u64, StoreError> {
        match self {
            Store::Sqlite(s) => {
                let values = args.iter().map(Arg::sqlite).collect();
                Ok(s.blocking((sqlite, values), sqlite_execute).await? as u64)
            }
            Store::Postgres(p) => {
                let mut q = sqlx::query(pg);
                for a in args {
                    q = match a {
                        Arg::Int(i) => q.bind(i),
                        Arg::Real(r) => q.bind(r),
                        Arg::Text(t) => q.bind(t),
                        Arg::Null => q.bind(None::<String>),
                        Arg::NullInt => q.bind(None::<i64>),
                        Arg::NullReal => q.bind(None::<f64>),
                    };
                }
                Ok(q.execute(p.pool()).await?.rows_affected())
            }
        }
    }

    /// Makes an account; `StoreError::Taken` if the name is (in any case).
    pub async fn create_account(&self, a: NewAccount) -> Result<UserId, StoreError> {
        match self {
            Store::Sqlite(s) => s.blocking(a, sqlite_create).await,
            Store::Postgres(p) => {
                let made: Result<i64, sqlx::Error> = sqlx::query_scalar(
                    "INSERT INTO accounts (username, username_key, password_hash, created_ms)
                     VALUES ($1, $2, $3, $4) RETURNING id",
                )
                .bind(&a.username)
                .bind(&a.key)
                .bind(&a.password_hash)
                .bind(a.now_ms)
                .fetch_one(p.pool())
                .await;
                match made {
                    Ok(id) => Ok(UserId(id)),
                    Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
                        Err(StoreError::Taken)
                    }
                    Err(e) => Err(e.into()),
                }
            }
        }
    }

    /// The account whose name is `key` (lower case), deleted or not.
    pub async fn account_by_name(&self, key: &str) -> Result<Option<AccountRow>, StoreError> {
        match self {
            Store::Sqlite(s) => s.blocking(key.to_string(), sqlite_by_key).await,
            Store::Postgres(p) => Ok(sqlx::query_as::<_, PgAccount>(
                "SELECT id, username, password_hash, created_ms, disabled, deleted_ms IS NOT NULL
                 FROM accounts WHERE username_key = $1",
            )
            .bind(key)
            .fetch_optional(p.pool())
            .await?
            .map(pg_account)),
        }
    }

    /// The account `id`, deleted or not.
    pub async fn account_by_id(&self, id: UserId) -> Result<Option<AccountRow>, StoreError> {
        match self {
            Store::Sqlite(s) => s.blocking(id, sqlite_by_id).await,
            Store::Postgres(p) => Ok(sqlx::query_as::<_, PgAccount>(
                "SELECT id, username, password_hash, created_ms, disabled, deleted_ms IS NOT NULL
                 FROM accounts WHERE id = $1",
            )
            .bind(id.0)
            .fetch_optional(p.pool())
            .await?
            .map(pg_account)),
        }
    }

    /// The newest accounts first (`legion admin accounts`).
    pub async fn newest_accounts(&self, limit: i64) -> Result<Vec<AccountRow>, StoreError> {
        match self {
            Store::Sqlite(s) => s.blocking(limit, sqlite_newest).await,
            Store::Postgres(p) => Ok(sqlx::query_as::<_, PgAccount>(
                "SELECT id, username, password_hash, created_ms, disabled, deleted_ms IS NOT NULL
                 FROM accounts ORDER BY id DESC LIMIT $1",
            )
            .bind(limit)
            .fetch_all(p.pool())
            .await?
            .into_iter()
            .map(pg_account)
            .collect()),
        }
    }

    /// Keeps a session (the hash of its secret) for an account.
    pub async fn create_session(
        &self,
        hash: &SecretHash,
        account: UserId,
        now_ms: i64,
        expires_ms: i64,
    ) -> Result<(), StoreError> {
        self.change(
            "INSERT INTO sessions (id_hash, account_id, created_ms, expires_ms) VALUES (?1, ?2, ?3, ?4)",
            "INSERT INTO sessions (id_hash, account_id, created_ms, expires_ms) VALUES ($1, $2, $3, $4)",
            vec![
                Arg::Text(hash.as_str().into()),
                Arg::Int(account.0),
                Arg::Int(now_ms),
                Arg::Int(expires_ms),
            ],
        )
        .await
        .map(drop)
    }

    /// The account of a live session (not expired at `now_ms`).
    pub async fn session_account(
        &self,
        hash: &SecretHash,
        now_ms: i64,
    ) -> Result<Option<AccountRow>, StoreError> {
        match self {
            Store::Sqlite(s) => s.blocking((hash.clone(), now_ms), sqlite_session).await,
            Store::Postgres(p) => Ok(sqlx::query_as::<_, PgAccount>(
                "SELECT a.id, a.username, a.password_hash, a.created_ms, a.disabled,
                        a.deleted_ms IS NOT NULL
                 FROM sessions s JOIN accounts a ON a.id = s.account_id
                 WHERE s.id_hash = $1 AND s.expires_ms > $2",
            )
            .bind(hash.as_str())
            .bind(now_ms)
            .fetch_optional(p.pool())
            .await?
            .map(pg_account)),
        }
    }

    /// Ends one session.
    pub async fn delete_session(&self, hash: &SecretHash) -> Result<(), StoreError> {
        self.change(
            "DELETE FROM sessions WHERE id_hash = ?1",
            "DELETE FROM sessions WHERE id_hash = $1",
            vec![Arg::Text(hash.as_str().into())],
        )
        .await
        .map(drop)
    }

    /// Ends every session of an account; how many there were.
    pub async fn delete_sessions(&self, account: UserId) -> Result<u64, StoreError> {
        self.change(
            "DELETE FROM sessions WHERE account_id = ?1",
            "DELETE FROM sessions WHERE account_id = $1",
            vec![Arg::Int(account.0)],
        )
        .await
    }

    pub async fn set_password(&self, account: UserId, hash: &str) -> Result<(), StoreError> {
        self.change(
            "UPDATE accounts SET password_hash = ?2 WHERE id = ?1",
            "UPDATE accounts SET password_hash = $2 WHERE id = $1",
            vec![Arg::Int(account.0), Arg::Text(hash.into())],
        )
        .await
        .map(drop)
    }

    /// Disables (or enables again) an account; whether there is one.
    pub async fn set_disabled(&self, account: UserId, disabled: bool) -> Result<bool, StoreError> {
        self.change(
            "UPDATE accounts SET disabled = ?2 WHERE id = ?1",
            "UPDATE accounts SET disabled = ($2 <> 0) WHERE id = $1",
            vec![Arg::Int(account.0), Arg::Int(i64::from(disabled))],
        )
        .await
        .map(|n| n > 0)
    }

    /// Deletes an account: its password goes, its name stays taken (its
    /// games stay, shown as a deleted player's).
    pub async fn delete_account(&self, account: UserId, now_ms: i64) -> Result<(), StoreError> {
        self.change(
            "UPDATE accounts SET password_hash = ?2, deleted_ms = ?3 WHERE id = ?1",
            "UPDATE accounts SET password_hash = $2, deleted_ms = $3 WHERE id = $1",
            vec![Arg::Int(account.0), Arg::Null, Arg::Int(now_ms)],
        )
        .await
        .map(drop)
    }
}
