//! One query text for both databases, for the players' views (chat,
//! profiles, leaderboards, TV): written with PostgreSQL's `$N`
//! parameters (SQLite reads them as `?N`), every integer column cast to
//! `BIGINT` and every real one a `REAL`/`DOUBLE PRECISION`, so that both
//! drivers read the same types. Rows come back as `Val`s, one per column,
//! of the kinds asked for.

use super::sqlite::SqliteStore;
use super::{Store, StoreError};

/// A parameter of a statement.
#[derive(Clone, Debug)]
pub(crate) enum Param {
    Int(i64),
    Text(String),
    /// NULL in an integer column, and in a text one: PostgreSQL keeps a
    /// statement's parameter types, so a NULL is typed as its column.
    NoInt,
    NoText,
}

/// What a column holds.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Kind {
    Int,
    Real,
    Text,
}

/// A value read back (`None`: SQL's NULL).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Val {
    Int(Option<i64>),
    Real(Option<f64>),
    Text(Option<String>),
}

impl Val {
    pub(crate) fn int(&self) -> Option<i64> {
        match self {
            Val::Int(i) => *i,
            _ => None,
        }
    }

    pub(crate) fn real(&self) -> Option<f64> {
        match self {
            Val::Real(r) => *r,
            Val::Int(i) => i.map(|i| i as f64),
            _ => None,
        }
    }

    pub(crate) fn text(&self) -> Option<String> {
        match self {
            Val::Text(t) => t.clone(),
            _ => None,
        }
    }
}

/// `$N` parameters as SQLite's `?N`.
fn sqlite_sql(sql: &str) -> String {
    sql.replace('$', "?")
}

fn sqlite_rows(
    s: &SqliteStore,
    (sql, params, kinds): (String, Vec<Param>, Vec<Kind>),
) -> Result<Vec<Vec<Val>>, StoreError> {
    use rusqlite::types::Value;
    let values: Vec<Value> = params
        .into_iter()
        .map(|p| match p {
            Param::Int(i) => Value::Integer(i),
            Param::Text(t) => Value::Text(t),
            Param::NoInt | Param::NoText => Value::Null,
        })
        .collect();
    s.read(|c| {
        let mut stmt = c.prepare_cached(&sqlite_sql(&sql))?;
        let rows = stmt
            .query_map(rusqlite::params_from_iter(values), |r| {
                kinds
                    .iter()
                    .enumerate()
                    .map(|(i, k)| {
                        Ok(match k {
                            Kind::Int => Val::Int(r.get(i)?),
                            Kind::Real => Val::Real(r.get(i)?),
                            Kind::Text => Val::Text(r.get(i)?),
                        })
                    })
                    .collect::<rusqlite::Result<Vec<Val>>>()
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(rows)
    })
}

impl Store {
    /// Runs a query (or a changing statement with `RETURNING`) and reads
    /// its rows, each column as `kinds` says.
    pub(crate) async fn rows(
        &self,
        sql: &'static str,
        params: Vec<Param>,
        kinds: &[Kind],
    ) -> Result<Vec<Vec<Val>>, StoreError> {
        match self {
            Store::Sqlite(s) => {
                s.blocking((sql.to_string(), params, kinds.to_vec()), sqlite_rows)
                    .await
            }
            Store::Postgres(p) => {
                use sqlx::Row;
                let mut q = sqlx::query(sql);
                for a in params {
                    q = match a {
                        Param::Int(i) => q.bind(i),
                        Param::Text(t) => q.bind(t),
                        Param::NoInt => q.bind(None::<i64>),
                        Param::NoText => q.bind(None::<String>),
                    };
                }
                let rows = q.fetch_all(p.pool()).await?;
                rows.iter()
                    .map(|r| {
                        kinds
                            .iter()
                            .enumerate()
                            .map(|(i, k)| {
                                Ok(match k {
                                    Kind::Int => Val::Int(r.try_get(i)?),
                                    Kind::Real => Val::Real(r.try_get(i)?),
                                    Kind::Text => Val::Text(r.try_get(i)?),
                                })
                            })
                            .collect::<Result<Vec<Val>, sqlx::Error>>()
                            .map_err(StoreError::from)
                    })
                    .collect()
            }
        }
    }
}

/// Whether a write failed on a unique key (two writers chose the same
/// number at once).
pub(crate) fn is_unique_violation(e: &StoreError) -> bool {
    match e {
        StoreError::Postgres(sqlx::Error::Database(d)) => d.is_unique_violation(),
        StoreError::Sqlite(rusqlite::Error::SqliteFailure(f, _)) => {
            f.code == rusqlite::ErrorCode::ConstraintViolation
        }
        _ => false,
    }
}
