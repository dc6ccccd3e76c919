//! Games in PostgreSQL, for sites that outgrow one machine. Each write of
//! a game is one statement, so one round trip (issue 18): a data-modifying
//! CTE updates the row if it is at the version before, adds or removes
//! moves, keeps the engine's job, and announces the change, all or
//! nothing. Writes of several games that wait at once go together in one
//! such statement, so one commit (`group_commit`). The key of `moves` (game, ply) makes the database the judge of
//! which move is accepted at a ply. The schema is versioned in
//! `legion_schema` and migrated at start, under an advisory lock, so that
//! several servers starting at once migrate once.

use sqlx::postgres::{PgPool, PgPoolOptions, PgRow};
// The only SQL built at run time joins our own column list.
use sqlx::{AssertSqlSafe, Postgres, Row, Transaction};

use sqlx::postgres::PgArguments;
use sqlx::query::Query;

use super::{COLUMN_COUNT, COLUMNS, Exported, GameRow, RawRow, StoreError, Write};
use crate::games::ids::{GameId, SecretHash};
use crate::games::model::{Declared, Pairing, Side};

pub struct PgStore {
    pool: PgPool,
    /// Game writes on their way to the batcher (`group_commit`).
    queue: tokio::sync::mpsc::UnboundedSender<Queued>,
}

/// A game's write waiting to be committed, and who waits for it.
struct Queued {
    write: Write,
    done: tokio::sync::oneshot::Sender<Result<(), StoreError>>,
}

/// Game writes committed together, at most (each is 35 parameters at
/// most: 2,240 of PostgreSQL's 65,535).
const BATCH: usize = 64;

/// Batches committed at once, at most.
const BATCHES_IN_FLIGHT: usize = 4;

/// The schema, one step a version.
const MIGRATIONS: &[&str] = &[
    // 1: games (as SQLite's version 3), their moves, and the deadline index.
    "CREATE TABLE games (
        id TEXT PRIMARY KEY,
        created_ms BIGINT NOT NULL,
        mode TEXT NOT NULL,
        rules TEXT NOT NULL,
        start_lfen TEXT NOT NULL,
        level SMALLINT,
        engine_color TEXT,
        white_token TEXT,
        black_token TEXT,
        clock_initial_ms BIGINT,
        clock_increment_ms BIGINT,
        white_ms BIGINT,
        black_ms BIGINT,
        turn_started_ms BIGINT,
        declared TEXT,
        draw_offer TEXT,
        invite TEXT,
        started_ms BIGINT,
        takeback_offer TEXT,
        deadline_ms BIGINT,
        rematch_offer TEXT,
        rematch TEXT
    );
    CREATE TABLE moves (
        game_id TEXT NOT NULL REFERENCES games(id),
        ply INTEGER NOT NULL,
        move TEXT NOT NULL,
        played_ms BIGINT NOT NULL,
        PRIMARY KEY (game_id, ply)
    );
    CREATE INDEX games_deadline ON games(deadline_ms) WHERE deadline_ms IS NOT NULL;",
    // 2: the engine's analysis of a finished game (JSON, crate::engine::analysis).
    "CREATE TABLE analyses (
        game_id TEXT PRIMARY KEY REFERENCES games(id),
        report TEXT NOT NULL
    );",
    // 3: several servers on one database: each game's version (a write
    // names the version it follows), and the engine moves to be made, each
    // claimed by one server for a while (a lease it renews as it thinks).
    "ALTER TABLE games ADD COLUMN version BIGINT NOT NULL DEFAULT 0;
    CREATE TABLE engine_jobs (
        game_id TEXT PRIMARY KEY REFERENCES games(id),
        ply INTEGER NOT NULL,
        node TEXT,
        lease_until_ms BIGINT NOT NULL
    );
    CREATE INDEX engine_jobs_lease ON engine_jobs(lease_until_ms);",
    // 4: seat tokens and invites kept as their SHA-256 in hex (issue
    // 19.16), as SQLite's schema 6.
    "UPDATE games SET
        white_token = encode(sha256(convert_to(white_token, 'UTF8')), 'hex'),
        black_token = encode(sha256(convert_to(black_token, 'UTF8')), 'hex'),
        invite = encode(sha256(convert_to(invite, 'UTF8')), 'hex');",
    // 5: accounts and their sessions, as SQLite's schema 7.
    "CREATE TABLE accounts (
        id BIGSERIAL PRIMARY KEY,
        username TEXT NOT NULL,
        username_key TEXT NOT NULL UNIQUE,
        password_hash TEXT,
        created_ms BIGINT NOT NULL,
        disabled BOOLEAN NOT NULL DEFAULT FALSE,
        deleted_ms BIGINT
    );
    CREATE TABLE sessions (
        id_hash TEXT PRIMARY KEY,
        account_id BIGINT NOT NULL REFERENCES accounts(id),
        created_ms BIGINT NOT NULL,
        expires_ms BIGINT NOT NULL
    );
    CREATE INDEX sessions_account ON sessions(account_id);",
    // 6: the accounts that hold a game's seats, as SQLite's schema 8.
    "ALTER TABLE games ADD COLUMN white_user BIGINT REFERENCES accounts(id);
    ALTER TABLE games ADD COLUMN black_user BIGINT REFERENCES accounts(id);",
    // 7: players meet (issue 20), as SQLite's schema 9.
    "ALTER TABLE games ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE;
    ALTER TABLE games ADD COLUMN days SMALLINT;
    ALTER TABLE games ADD COLUMN pairing TEXT;
    ALTER TABLE games ADD COLUMN ended_ms BIGINT;
    ALTER TABLE games ADD COLUMN result TEXT;
    ALTER TABLE games ADD COLUMN phase_one TEXT;
    CREATE INDEX games_white_user ON games(white_user) WHERE white_user IS NOT NULL;
    CREATE INDEX games_black_user ON games(black_user) WHERE black_user IS NOT NULL;
    CREATE TABLE ratings (
        account_id BIGINT NOT NULL REFERENCES accounts(id),
        class TEXT NOT NULL,
        rating DOUBLE PRECISION NOT NULL,
        rd DOUBLE PRECISION NOT NULL,
        volatility DOUBLE PRECISION NOT NULL,
        games INTEGER NOT NULL,
        last_ms BIGINT NOT NULL,
        PRIMARY KEY (account_id, class)
    );
    CREATE TABLE rating_changes (
        game_id TEXT NOT NULL REFERENCES games(id),
        account_id BIGINT NOT NULL REFERENCES accounts(id),
        class TEXT NOT NULL,
        at_ms BIGINT NOT NULL,
        before_rating DOUBLE PRECISION NOT NULL,
        before_rd DOUBLE PRECISION NOT NULL,
        after_rating DOUBLE PRECISION NOT NULL,
        after_rd DOUBLE PRECISION NOT NULL,
        after_volatility DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, account_id)
    );
    CREATE INDEX rating_changes_account ON rating_changes(account_id, class, at_ms);
    CREATE TABLE seeks (
        id TEXT PRIMARY KEY,
        owner_account BIGINT REFERENCES accounts(id),
        seat_hash TEXT NOT NULL,
        clock_initial_ms BIGINT,
        clock_increment_ms BIGINT,
        days SMALLINT,
        rated BOOLEAN NOT NULL,
        color TEXT NOT NULL,
        rating DOUBLE PRECISION,
        rd DOUBLE PRECISION,
        min_rating INTEGER,
        max_rating INTEGER,
        pool TEXT,
        created_ms BIGINT NOT NULL,
        alive_until_ms BIGINT NOT NULL,
        game_id TEXT,
        game_color TEXT
    );
    CREATE INDEX seeks_open ON seeks(created_ms) WHERE game_id IS NULL;
    CREATE TABLE challenges (
        id TEXT PRIMARY KEY,
        from_account BIGINT NOT NULL REFERENCES accounts(id),
        to_account BIGINT NOT NULL REFERENCES accounts(id),
        seat_hash TEXT NOT NULL,
        clock_initial_ms BIGINT,
        clock_increment_ms BIGINT,
        days SMALLINT,
        rated BOOLEAN NOT NULL,
        color TEXT NOT NULL,
        created_ms BIGINT NOT NULL,
        expires_ms BIGINT NOT NULL,
        status TEXT NOT NULL,
        game_id TEXT
    );
    CREATE INDEX challenges_to ON challenges(to_account, status);
    CREATE TABLE chat (
        game_id TEXT NOT NULL REFERENCES games(id),
        room TEXT NOT NULL,
        seq INTEGER NOT NULL,
        at_ms BIGINT NOT NULL,
        account_id BIGINT REFERENCES accounts(id),
        side TEXT,
        text TEXT NOT NULL,
        PRIMARY KEY (game_id, room, seq)
    );",
    // 8: puzzles (issue 21), as SQLite's schema 10: the committed set, seeded at start; their
    // ratings and the signed-in players' puzzle ratings and attempts.
    "CREATE TABLE puzzles (
        id TEXT PRIMARY KEY,
        lfen TEXT NOT NULL,
        moves TEXT NOT NULL,
        themes TEXT NOT NULL,
        source TEXT NOT NULL,
        rating DOUBLE PRECISION NOT NULL,
        rd DOUBLE PRECISION NOT NULL,
        volatility DOUBLE PRECISION NOT NULL,
        plays INTEGER NOT NULL DEFAULT 0,
        wins INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX puzzles_rating ON puzzles(rating);
    CREATE TABLE puzzle_seeds (
        hash TEXT PRIMARY KEY,
        at_ms BIGINT NOT NULL
    );
    CREATE TABLE puzzle_players (
        account_id BIGINT PRIMARY KEY REFERENCES accounts(id),
        rating DOUBLE PRECISION NOT NULL,
        rd DOUBLE PRECISION NOT NULL,
        volatility DOUBLE PRECISION NOT NULL,
        plays INTEGER NOT NULL,
        wins INTEGER NOT NULL,
        last_ms BIGINT NOT NULL
    );
    CREATE TABLE puzzle_attempts (
        account_id BIGINT NOT NULL REFERENCES accounts(id),
        puzzle_id TEXT NOT NULL REFERENCES puzzles(id),
        at_ms BIGINT NOT NULL,
        win INTEGER NOT NULL,
        before_rating DOUBLE PRECISION NOT NULL,
        after_rating DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (account_id, puzzle_id)
    );",
    // 9: studies (issue 21), as SQLite's schema 11.
    "CREATE TABLE studies (
        id TEXT PRIMARY KEY,
        owner_account BIGINT REFERENCES accounts(id),
        edit_hash TEXT,
        title TEXT NOT NULL,
        chapters TEXT NOT NULL,
        created_ms BIGINT NOT NULL,
        updated_ms BIGINT NOT NULL,
        version BIGINT NOT NULL
    );
    CREATE INDEX studies_owner ON studies(owner_account, updated_ms)
        WHERE owner_account IS NOT NULL;",
];

/// The channel on which every change of a game is announced (an `Event`
/// in JSON); servers listen to it to keep their watchers current.
pub const CHANNEL: &str = "legion_games";

/// The database's clock in ms: leases are judged by one clock for all
/// servers.
const NOW_MS: &str = "(extract(epoch from clock_timestamp()) * 1000)::bigint";

/// How long a new engine move waits for the server that made it due
/// before any other server may take it.
const FIRST_CLAIM_MS: i64 = 500;

/// How long a request waits for a database connection (issue 19.14).
pub const ACQUIRE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(3);

/// Any number, to take the same advisory lock from every server.
const MIGRATION_LOCK: i64 = 0x1E61_0000;

impl PgStore {
    pub async fn open(url: &str) -> Result<PgStore, StoreError> {
        // A request waits at most this for a connection: during an outage
        // it answers 503 in seconds, not 500 after sqlx's default 30 s.
        let pool = PgPoolOptions::new()
            .max_connections(16)
            .acquire_timeout(ACQUIRE_TIMEOUT)
            .connect(url)
            .await?;
        migrate(&pool).await?;
        let (queue, queued) = tokio::sync::mpsc::unbounded_channel();
        tokio::spawn(group_commit(pool.clone(), queued));
        Ok(PgStore { pool, queue })
    }

    pub async fn write(&self, w: Write) -> Result<(), StoreError> {
        match w {
            Write::Import(_) => {
                let mut tx = self.pool.begin().await?;
                apply(&mut tx, &w).await?;
                tx.commit().await?;
                Ok(())
            }
            Write::Analysis { ref id, ref report } => {
                analysis_query(id, report).execute(&self.pool).await?;
                Ok(())
            }
            w => self.write_game(w).await,
        }
    }

    /// A change of a game: queued for the batcher, which commits the
    /// changes that wait together in one statement (`group_commit`).
    async fn write_game(&self, write: Write) -> Result<(), StoreError> {
        if write.event().is_none() {
            return Ok(());
        }
        let (done, answer) = tokio::sync::oneshot::channel();
        let queued = Queued { write, done };
        if self.queue.send(queued).is_err() {
            return Err(StoreError::WriterGone);
        }
        answer.await.map_err(|_| StoreError::WriterGone)?
    }

    /// The pool, for a listener of `CHANNEL`.
    pub fn pool(&self) -> &PgPool {
        &self.pool
    }

    pub async fn row(&self, id: &GameId) -> Result<Option<GameRow>, StoreError> {
        let row = sqlx::query(AssertSqlSafe(format!(
            "SELECT {COLUMNS} FROM games WHERE id = $1"
        )))
        .bind(id.as_str())
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| raw_row(&r)?.check()).transpose()
    }

    pub async fn version(&self, id: &GameId) -> Result<Option<i64>, StoreError> {
        Ok(
            sqlx::query_scalar("SELECT version FROM games WHERE id = $1")
                .bind(id.as_str())
                .fetch_optional(&self.pool)
                .await?,
        )
    }

    pub async fn claim_engine(
        &self,
        id: &GameId,
        ply: i64,
        node: &str,
        lease_ms: i64,
    ) -> Result<bool, StoreError> {
        // Made if missing (a game copied by `legion migrate`); jobs are
        // only for liveness: the game's version keeps its moves right.
        let done = sqlx::query(AssertSqlSafe(format!(
            "INSERT INTO engine_jobs (game_id, ply, node, lease_until_ms)
             VALUES ($1, $2, $3, {NOW_MS} + $4)
             ON CONFLICT (game_id) DO UPDATE
               SET node = excluded.node, lease_until_ms = excluded.lease_until_ms
               WHERE engine_jobs.ply = excluded.ply
                 AND (engine_jobs.node IS NULL OR engine_jobs.node = excluded.node
                      OR engine_jobs.lease_until_ms < {NOW_MS})"
        )))
        .bind(id.as_str())
        .bind(ply as i32)
        .bind(node)
        .bind(lease_ms)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    pub async fn claim_engine_jobs(
        &self,
        node: &str,
        lease_ms: i64,
        limit: i64,
    ) -> Result<Vec<(GameId, i64)>, StoreError> {
        // SKIP LOCKED: servers claiming at once take different jobs.
        let rows: Vec<(String, i32)> = sqlx::query_as(AssertSqlSafe(format!(
            "UPDATE engine_jobs SET node = $1, lease_until_ms = {NOW_MS} + $2
             WHERE game_id IN (
                SELECT game_id FROM engine_jobs WHERE lease_until_ms < {NOW_MS}
                ORDER BY lease_until_ms LIMIT $3 FOR UPDATE SKIP LOCKED)
             RETURNING game_id, ply"
        )))
        .bind(node)
        .bind(lease_ms)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        let plies: Vec<i64> = rows.iter().map(|&(_, p)| p as i64).collect();
        let ids = super::game_ids(rows.into_iter().map(|(id, _)| id).collect())?;
        Ok(ids.into_iter().zip(plies).collect())
    }

    pub async fn renew_engine(
        &self,
        node: &str,
        ids: &[GameId],
        lease_ms: i64,
    ) -> Result<(), StoreError> {
        let ids: Vec<&str> = ids.iter().map(GameId::as_str).collect();
        sqlx::query(AssertSqlSafe(format!(
            "UPDATE engine_jobs SET lease_until_ms = {NOW_MS} + $3
             WHERE node = $1 AND game_id = ANY($2)"
        )))
        .bind(node)
        .bind(&ids)
        .bind(lease_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    pub async fn drop_engine_job(&self, id: &GameId, ply: i64) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM engine_jobs WHERE game_id = $1 AND ply = $2")
            .bind(id.as_str())
            .bind(ply as i32)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    pub async fn release_engine(&self, id: &GameId, node: &str) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE engine_jobs SET node = NULL, lease_until_ms = 0
             WHERE game_id = $1 AND node = $2",
        )
        .bind(id.as_str())
        .bind(node)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    pub async fn load(&self, id: &GameId) -> Result<Option<(GameRow, Vec<String>)>, StoreError> {
        let row = sqlx::query(AssertSqlSafe(format!(
            "SELECT {COLUMNS} FROM games WHERE id = $1"
        )))
        .bind(id.as_str())
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else { return Ok(None) };
        let game = raw_row(&row)?.check()?;
        let moves: Vec<String> =
            sqlx::query_scalar("SELECT move FROM moves WHERE game_id = $1 ORDER BY ply")
                .bind(id.as_str())
                .fetch_all(&self.pool)
                .await?;
        Ok(Some((game, moves)))
    }

    pub async fn due(&self, now_ms: i64) -> Result<Vec<GameId>, StoreError> {
        super::game_ids(
            sqlx::query_scalar(
                "SELECT id FROM games WHERE deadline_ms IS NOT NULL AND deadline_ms <= $1
                 ORDER BY deadline_ms LIMIT 500",
            )
            .bind(now_ms)
            .fetch_all(&self.pool)
            .await?,
        )
    }

    pub async fn next_deadline(&self, now_ms: i64) -> Result<Option<i64>, StoreError> {
        Ok(sqlx::query_scalar(
            "SELECT min(deadline_ms) FROM games WHERE deadline_ms IS NOT NULL AND deadline_ms > $1",
        )
        .bind(now_ms)
        .fetch_one(&self.pool)
        .await?)
    }

    pub async fn analysis(&self, id: &GameId) -> Result<Option<String>, StoreError> {
        Ok(
            sqlx::query_scalar("SELECT report FROM analyses WHERE game_id = $1")
                .bind(id.as_str())
                .fetch_optional(&self.pool)
                .await?,
        )
    }

    pub async fn count(&self) -> Result<i64, StoreError> {
        Ok(sqlx::query_scalar("SELECT count(*) FROM games")
            .fetch_one(&self.pool)
            .await?)
    }

    pub async fn ids(&self, after: &str, limit: i64) -> Result<Vec<String>, StoreError> {
        Ok(
            sqlx::query_scalar("SELECT id FROM games WHERE id > $1 ORDER BY id LIMIT $2")
                .bind(after)
                .bind(limit)
                .fetch_all(&self.pool)
                .await?,
        )
    }

    pub async fn export(&self, id: &GameId) -> Result<Option<Exported>, StoreError> {
        let Some((row, _)) = self.load(id).await? else {
            return Ok(None);
        };
        let moves: Vec<(String, i64)> =
            sqlx::query_as("SELECT move, played_ms FROM moves WHERE game_id = $1 ORDER BY ply")
                .bind(id.as_str())
                .fetch_all(&self.pool)
                .await?;
        let analysis = self.analysis(id).await?;
        Ok(Some(Exported {
            row,
            moves,
            analysis,
        }))
    }

    pub async fn check(&self) -> Result<(), StoreError> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }
}

async fn migrate(pool: &PgPool) -> Result<(), StoreError> {
    let mut tx = pool.begin().await?;
    sqlx::query("SELECT pg_advisory_xact_lock($1)")
        .bind(MIGRATION_LOCK)
        .execute(&mut *tx)
        .await?;
    sqlx::query("CREATE TABLE IF NOT EXISTS legion_schema (version INTEGER NOT NULL)")
        .execute(&mut *tx)
        .await?;
    let version: Option<i32> = sqlx::query_scalar("SELECT max(version) FROM legion_schema")
        .fetch_one(&mut *tx)
        .await?;
    let version = version.unwrap_or(0) as usize;
    if version > MIGRATIONS.len() {
        return Err(StoreError::TooNew(version as i64));
    }
    for (i, step) in MIGRATIONS.iter().enumerate().skip(version) {
        sqlx::raw_sql(*step).execute(&mut *tx).await?;
        sqlx::query("INSERT INTO legion_schema (version) VALUES ($1)")
            .bind((i + 1) as i32)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(())
}

/// Commits the game writes that wait, together: one statement and one
/// commit (one flush of the log to disk) for all of them, where a
/// statement each cost a flush each and the disk's flushes bounded the
/// moves per second (issue 18). A write waits for no one: the first goes
/// at once, and those queued meanwhile go together in the next statement.
/// Up to `BATCHES_IN_FLIGHT` statements run at once.
async fn group_commit(pool: PgPool, mut queued: tokio::sync::mpsc::UnboundedReceiver<Queued>) {
    let room = std::sync::Arc::new(tokio::sync::Semaphore::new(BATCHES_IN_FLIGHT));
    loop {
        let Ok(permit) = room.clone().acquire_owned().await else {
            return;
        };
        let mut batch = Vec::new();
        if queued.recv_many(&mut batch, BATCH).await == 0 {
            return; // the store is gone
        }
        let pool = pool.clone();
        tokio::spawn(async move {
            write_batch(&pool, batch).await;
            drop(permit);
        });
    }
}

/// The writes of `batch`, each told its own outcome. A game is locked
/// while its write is under way, so a batch seldom has two writes of one
/// game (the store's own tests race them); those go in turn, as two
/// changes of one row in one statement would not be judged one by one.
async fn write_batch(pool: &PgPool, batch: Vec<Queued>) {
    let mut rest = batch;
    while !rest.is_empty() {
        let mut seen = std::collections::HashSet::new();
        let (distinct, later): (Vec<Queued>, Vec<Queued>) = rest
            .into_iter()
            .partition(|q| seen.insert(row_of(&q.write).id.as_str().to_string()));
        write_distinct(pool, distinct).await;
        rest = later;
    }
}

/// One statement for the writes of `batch`, each of another game.
async fn write_distinct(pool: &PgPool, mut batch: Vec<Queued>) {
    // The same order of row locks on every server: two batches that share
    // games wait for each other instead of deadlocking.
    batch.sort_by(|a, b| {
        row_of(&a.write)
            .id
            .as_str()
            .cmp(row_of(&b.write).id.as_str())
    });
    let writes: Vec<&Write> = batch.iter().map(|q| &q.write).collect();
    let outcome = write_games(pool, &writes).await;
    match outcome {
        Ok(changed) => {
            for (q, changed) in batch.into_iter().zip(changed) {
                let r = if changed {
                    Ok(())
                } else {
                    Err(StoreError::Stale(row_of(&q.write).id.to_string()))
                };
                let _ = q.done.send(r);
            }
        }
        // Unreachable: each is told so (the statement was not committed).
        Err(e) if e.unavailable() || batch.len() == 1 => {
            let why = e.to_string();
            let mut e = Some(e);
            for q in batch {
                let err = e.take().unwrap_or_else(|| {
                    StoreError::Postgres(sqlx::Error::Io(std::io::Error::other(why.clone())))
                });
                let _ = q.done.send(Err(err));
            }
        }
        // One write's failure fails the statement: each is tried alone,
        // so that only its own failure is its answer.
        Err(_) => {
            let alone = batch
                .iter()
                .map(|q| async move { write_games(pool, &[&q.write]).await });
            let outcomes = futures_util::future::join_all(alone).await;
            for (q, r) in batch.into_iter().zip(outcomes) {
                let r = r.and_then(|changed| match changed.first() {
                    Some(true) => Ok(()),
                    _ => Err(StoreError::Stale(row_of(&q.write).id.to_string())),
                });
                let _ = q.done.send(r);
            }
        }
    }
}

/// The game row a write changes (`Write::event` is some for each queued).
fn row_of(w: &Write) -> &GameRow {
    match w {
        Write::Create(row)
        | Write::Append { row, .. }
        | Write::Truncate { row, .. }
        | Write::Update(row)
        | Write::End(row) => row,
        Write::Import(e) => &e.row,
        Write::Analysis { .. } => unreachable!("an analysis is written directly"),
    }
}

/// The writes of games in one statement; for each, whether its row
/// changed (false: stale).
async fn write_games(pool: &PgPool, writes: &[&Write]) -> Result<Vec<bool>, StoreError> {
    let mut parts = Vec::new();
    let mut reads = Vec::new();
    let mut n = 0;
    for (i, w) in writes.iter().enumerate() {
        let (first, moves) = match w {
            Write::Create(_) => (First::Insert, Moves::Same),
            Write::Append { .. } => (First::Update, Moves::Add),
            Write::Truncate { .. } => (First::Update, Moves::Cut),
            _ => (First::Update, Moves::Same),
        };
        parts.extend(statement_parts(first, moves, row_of(w), i, &mut n));
        // `told` is read so that it runs (a plain WITH query runs only if used).
        reads.push(format!(
            "(SELECT count(*) FROM changed{i}), (SELECT count(*) FROM told{i})"
        ));
    }
    let sql = format!("WITH {} SELECT {}", parts.join(",\n"), reads.join(", "));
    let mut q = sqlx::query(AssertSqlSafe(sql));
    for w in writes {
        let row = row_of(w);
        q = match w {
            Write::Create(g) => bind_new_row(q, g),
            _ => bind_row(q, row),
        };
        q = match w {
            Write::Append {
                ply, text, now_ms, ..
            } => q.bind(*ply as i32).bind(text.as_str()).bind(*now_ms),
            Write::Truncate { ply, .. } => q.bind(*ply as i32),
            _ => q,
        };
        let payload = w.event().map(|e| e.payload()).unwrap_or_default();
        q = q.bind(CHANNEL).bind(payload);
        q = match row.engine_ply {
            Some(ply) => q.bind(ply as i32).bind(FIRST_CLAIM_MS),
            None => q,
        };
    }
    // Kept prepared on each connection, a statement for each shape of
    // batch met (the kinds of write in order: a flood of moves makes one
    // per batch size). Unprepared, PostgreSQL parsed and planned each
    // batch anew, a fifth of its CPU in the flood (docs/BENCHMARKS.md);
    // sqlx's cache of statements per connection is bounded (LRU).
    let q = q.persistent(true);
    let row = q.fetch_one(pool).await?;
    (0..writes.len())
        .map(|i| Ok(row.try_get::<i64, _>(2 * i)? != 0))
        .collect()
}

fn raw_row(r: &PgRow) -> Result<RawRow, StoreError> {
    let initial: Option<i64> = r.try_get(9)?;
    let level: Option<i16> = r.try_get(5)?;
    Ok(RawRow {
        id: r.try_get(0)?,
        created_ms: r.try_get(1)?,
        mode: r.try_get(2)?,
        rules: r.try_get(3)?,
        start_lfen: r.try_get(4)?,
        level: level.and_then(|l| u8::try_from(l).ok()),
        engine_color: r.try_get(6)?,
        white_token: r.try_get(7)?,
        black_token: r.try_get(8)?,
        clock: match initial {
            None => None,
            Some(i) => Some([
                Some(i),
                r.try_get(10)?,
                r.try_get(11)?,
                r.try_get(12)?,
                r.try_get(13)?,
            ]),
        },
        declared: r.try_get(14)?,
        draw_offer: r.try_get(15)?,
        invite: r.try_get(16)?,
        started_ms: r.try_get(17)?,
        takeback_offer: r.try_get(18)?,
        deadline_ms: r.try_get(19)?,
        rematch_offer: r.try_get(20)?,
        rematch: r.try_get(21)?,
        version: r.try_get(22)?,
        white_user: r.try_get(23)?,
        black_user: r.try_get(24)?,
        rated: r.try_get(25)?,
        days: r.try_get::<Option<i16>, _>(26)?.map(i64::from),
        pairing: r.try_get(27)?,
        ended_ms: r.try_get(28)?,
        result: r.try_get(29)?,
        phase_one: r.try_get(30)?,
    })
}

/// A game copied from another database (`legion migrate`), in the
/// transaction `tx`: its row, its moves, its analysis. Copies are not
/// announced: no server has the game yet.
async fn apply(tx: &mut Transaction<'_, Postgres>, w: &Write) -> Result<(), StoreError> {
    let Write::Import(e) = w else {
        return Ok(());
    };
    let g = &e.row;
    bind_new_row(
        sqlx::query(AssertSqlSafe(format!(
            "INSERT INTO games ({COLUMNS}) VALUES ({})",
            params(1, COLUMN_COUNT)
        ))),
        g,
    )
    .execute(&mut **tx)
    .await?;
    for (ply, (text, at)) in e.moves.iter().enumerate() {
        sqlx::query("INSERT INTO moves (game_id, ply, move, played_ms) VALUES ($1, $2, $3, $4)")
            .bind(g.id.as_str())
            .bind(ply as i32)
            .bind(text)
            .bind(at)
            .execute(&mut **tx)
            .await?;
    }
    if let Some(report) = &e.analysis {
        analysis_query(&g.id, report).execute(&mut **tx).await?;
    }
    Ok(())
}

fn analysis_query<'q>(id: &'q GameId, report: &'q str) -> Query<'q, Postgres, PgArguments> {
    sqlx::query(
        "INSERT INTO analyses (game_id, report) VALUES ($1, $2)
         ON CONFLICT (game_id) DO UPDATE SET report = excluded.report",
    )
    .bind(id.as_str())
    .bind(report)
}

/// `$from, …, $to`.
fn params(from: usize, to: usize) -> String {
    (from..=to)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// How a game's statement changes its row.
#[derive(Clone, Copy)]
enum First {
    /// A new game: every column (`COLUMN_COUNT` parameters).
    Insert,
    /// The next version of the row: the columns that change (19).
    Update,
}

/// What a game's statement does to its moves.
#[derive(Clone, Copy)]
enum Moves {
    Same,
    /// One more: ply, move, time (3 parameters).
    Add,
    /// Every move from a ply on goes (1 parameter).
    Cut,
}

/// The parts of the statement that make a change of `g`, the `i`th of
/// the statement, its parameters numbered after `n`: the row
/// (`changed{i}`, which is empty if another write came first), then the
/// moves, the announcement and the engine's job, each only for a changed
/// row. Parameters in order: the row's, the moves', the channel and
/// payload, then (if the engine is to move) the engine's ply and the first
/// claim's wait.
fn statement_parts(
    first: First,
    moves: Moves,
    g: &GameRow,
    i: usize,
    n: &mut usize,
) -> Vec<String> {
    let base = *n;
    let p = |k: usize| format!("${}", base + k);
    let row = match first {
        First::Insert => {
            *n += COLUMN_COUNT;
            format!(
                "INSERT INTO games ({COLUMNS}) VALUES ({}) RETURNING id",
                params(base + 1, base + COLUMN_COUNT)
            )
        }
        First::Update => {
            *n += 19;
            format!(
                "UPDATE games SET white_ms = {}, black_ms = {}, turn_started_ms = {},
                    declared = {}, draw_offer = {}, white_token = {}, black_token = {},
                    started_ms = {}, takeback_offer = {}, deadline_ms = {},
                    rematch_offer = {}, rematch = {}, version = {},
                    white_user = {}, black_user = {}, ended_ms = {}, result = {},
                    phase_one = {}
                 WHERE id = {} AND version = {} - 1 RETURNING id",
                p(2),
                p(3),
                p(4),
                p(5),
                p(6),
                p(7),
                p(8),
                p(9),
                p(10),
                p(11),
                p(12),
                p(13),
                p(14),
                p(15),
                p(16),
                p(17),
                p(18),
                p(19),
                p(1),
                p(14)
            )
        }
    };
    let mut next = || {
        *n += 1;
        *n
    };
    let mut parts = vec![format!("changed{i} AS ({row})")];
    match moves {
        Moves::Same => {}
        Moves::Add => {
            let (ply, text, at) = (next(), next(), next());
            parts.push(format!(
                "added{i} AS (INSERT INTO moves (game_id, ply, move, played_ms)
                 SELECT id, ${ply}, ${text}, ${at} FROM changed{i})"
            ));
        }
        Moves::Cut => {
            let ply = next();
            parts.push(format!(
                "cut{i} AS (DELETE FROM moves
                 WHERE game_id IN (SELECT id FROM changed{i}) AND ply >= ${ply})"
            ));
        }
    }
    // Sent on commit: a refused write is never heard.
    let (channel, payload) = (next(), next());
    parts.push(format!(
        "told{i} AS (SELECT pg_notify(${channel}, ${payload}) FROM changed{i})"
    ));
    match g.engine_ply {
        // A new ply is a new job; any other change keeps the claim.
        Some(_) => {
            let (ply, wait) = (next(), next());
            parts.push(format!(
                "job{i} AS (INSERT INTO engine_jobs (game_id, ply, node, lease_until_ms)
                 SELECT id, ${ply}, NULL, {NOW_MS} + ${wait} FROM changed{i}
                 ON CONFLICT (game_id) DO UPDATE
                   SET ply = excluded.ply, node = NULL, lease_until_ms = excluded.lease_until_ms
                   WHERE engine_jobs.ply <> excluded.ply)"
            ));
        }
        None => parts.push(format!(
            "job{i} AS (DELETE FROM engine_jobs WHERE game_id IN (SELECT id FROM changed{i}))"
        )),
    }
    parts
}

type PgQuery<'q> = Query<'q, Postgres, PgArguments>;

fn hash(h: &Option<SecretHash>) -> Option<&str> {
    h.as_ref().map(SecretHash::as_str)
}

/// Binds every column of a new row, in `COLUMNS`' order.
fn bind_new_row<'q>(q: PgQuery<'q>, g: &'q GameRow) -> PgQuery<'q> {
    let c = g.clock;
    q.bind(g.id.as_str())
        .bind(g.created_ms)
        .bind(g.mode.name())
        .bind(&g.rules)
        .bind(&g.start_lfen)
        .bind(g.level.map(i16::from))
        .bind(g.engine_color.map(Side::code))
        .bind(hash(&g.white_seat))
        .bind(hash(&g.black_seat))
        .bind(c.map(|c| c.initial_ms))
        .bind(c.map(|c| c.increment_ms))
        .bind(c.map(|c| c.white_ms))
        .bind(c.map(|c| c.black_ms))
        .bind(c.and_then(|c| c.turn_began_ms))
        .bind(g.declared.map(Declared::text))
        .bind(g.draw_offer.map(Side::code))
        .bind(hash(&g.invite))
        .bind(g.started_ms)
        .bind(g.takeback_offer.map(Side::code))
        .bind(g.deadline_ms)
        .bind(g.rematch_offer.map(Side::code))
        .bind(g.rematch.as_ref().map(GameId::as_str))
        .bind(g.version)
        .bind(g.white_user.map(|u| u.0))
        .bind(g.black_user.map(|u| u.0))
        .bind(g.rated)
        .bind(g.days.map(i16::from))
        .bind(g.pairing.map(Pairing::name))
        .bind(g.ended_ms)
        .bind(g.result.as_deref())
        .bind(g.phase_one.map(Side::code))
}

/// Binds the columns an update changes, as `First::Update` numbers them.
fn bind_row<'q>(q: PgQuery<'q>, g: &'q GameRow) -> PgQuery<'q> {
    let c = g.clock;
    q.bind(g.id.as_str())
        .bind(c.map(|c| c.white_ms))
        .bind(c.map(|c| c.black_ms))
        .bind(c.and_then(|c| c.turn_began_ms))
        .bind(g.declared.map(Declared::text))
        .bind(g.draw_offer.map(Side::code))
        .bind(hash(&g.white_seat))
        .bind(hash(&g.black_seat))
        .bind(g.started_ms)
        .bind(g.takeback_offer.map(Side::code))
        .bind(g.deadline_ms)
        .bind(g.rematch_offer.map(Side::code))
        .bind(g.rematch.as_ref().map(GameId::as_str))
        .bind(g.version)
        .bind(g.white_user.map(|u| u.0))
        .bind(g.black_user.map(|u| u.0))
        .bind(g.ended_ms)
        .bind(g.result.as_deref())
        .bind(g.phase_one.map(Side::code))
}
