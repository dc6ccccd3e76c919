//! Games in SQLite. Every accepted move is committed (WAL, synchronous
//! FULL) before it is acknowledged, so a crash loses no acknowledged move
//! and a restart finds every game where it stood. The schema is versioned
//! (`PRAGMA user_version`) and migrated when the server starts.

use std::path::Path;
use std::sync::{Arc, Mutex};

use rusqlite::{Connection, OptionalExtension, params};

use super::{COLUMNS, Exported, GameRow, RawRow, StoreError, Write};
use crate::games::ids::{GameId, SecretHash};
use crate::games::model::{Declared, Pairing, Side};

struct Job {
    write: Write,
    done: tokio::sync::oneshot::Sender<Result<(), StoreError>>,
}

pub struct SqliteStore {
    reader: Mutex<Connection>,
    writer: Mutex<std::sync::mpsc::Sender<Job>>,
    /// An exclusive lock on `<file>.lock`, held while the store is open:
    /// a second server on the same file would serve stale games (issue
    /// 19.15). The system frees it when the process ends, even by kill -9.
    /// The file's lock, held by the serving store.
    _lock: Option<std::fs::File>,
}

/// How long /healthz waits for a write lock before it says the file is
/// locked (games' writes wait 5 s).
const HEALTH_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// The sidecar lock file of the database at `path`.
pub fn lock_path(path: &Path) -> std::path::PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".lock");
    name.into()
}

/// Takes the database's lock, or says who holds it.
fn lock(path: &Path) -> Result<std::fs::File, StoreError> {
    let at = lock_path(path);
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&at)
        .map_err(|source| StoreError::Lock {
            path: at.clone(),
            source,
        })?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(StoreError::InUse(path.to_path_buf())),
        Err(std::fs::TryLockError::Error(source)) => Err(StoreError::Lock { path: at, source }),
    }
}

/// The schema, one step a version; `user_version` says how many ran.
const MIGRATIONS: &[&str] = &[
    // 1: games and their moves.
    "CREATE TABLE IF NOT EXISTS games (
        id TEXT PRIMARY KEY,
        created_ms INTEGER NOT NULL,
        mode TEXT NOT NULL,
        rules TEXT NOT NULL,
        start_lfen TEXT NOT NULL,
        level INTEGER,
        engine_color TEXT,
        white_token TEXT,
        black_token TEXT,
        clock_initial_ms INTEGER,
        clock_increment_ms INTEGER,
        white_ms INTEGER,
        black_ms INTEGER,
        turn_started_ms INTEGER,
        declared TEXT,
        draw_offer TEXT
    );
    CREATE TABLE IF NOT EXISTS moves (
        game_id TEXT NOT NULL REFERENCES games(id),
        ply INTEGER NOT NULL,
        move TEXT NOT NULL,
        played_ms INTEGER NOT NULL,
        PRIMARY KEY (game_id, ply)
    );",
    // 2: invites claimed once, game starts, takeback offers, and the
    // deadline the server sweeps for. Games of version 1 had started when
    // they were made; their deadline is looked at once and recomputed.
    "ALTER TABLE games ADD COLUMN invite TEXT;
    ALTER TABLE games ADD COLUMN started_ms INTEGER;
    ALTER TABLE games ADD COLUMN takeback_offer TEXT;
    ALTER TABLE games ADD COLUMN deadline_ms INTEGER;
    UPDATE games SET started_ms = created_ms;
    UPDATE games SET deadline_ms = turn_started_ms
        WHERE turn_started_ms IS NOT NULL AND declared IS NULL;
    CREATE INDEX games_deadline ON games(deadline_ms) WHERE deadline_ms IS NOT NULL;",
    // 3: rematches.
    "ALTER TABLE games ADD COLUMN rematch_offer TEXT;
    ALTER TABLE games ADD COLUMN rematch TEXT;",
    // 4: the engine's analysis of a finished game (JSON, crate::engine::analysis).
    "CREATE TABLE analyses (
        game_id TEXT PRIMARY KEY REFERENCES games(id),
        report TEXT NOT NULL
    );",
    // 5: each game's version, so that a write made from an old copy of the
    // game is refused (as on PostgreSQL, where several servers share it).
    "ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0;",
    // 6: seat tokens and invites kept as their SHA-256 (issue 19.16), the
    // secrets of older games hashed by `hash_secrets` (SQLite has no hash
    // function of its own).
    "",
    // 7: accounts and their sessions (issue 20). A username is unique
    // regardless of case (`username_key`, lower case) and is never given
    // again, even after its account is deleted; a session is kept as the
    // hash of its cookie's secret.
    "CREATE TABLE accounts (
        id INTEGER PRIMARY KEY,
        username TEXT NOT NULL,
        username_key TEXT NOT NULL UNIQUE,
        password_hash TEXT,
        created_ms INTEGER NOT NULL,
        disabled INTEGER NOT NULL DEFAULT 0,
        deleted_ms INTEGER
    );
    CREATE TABLE sessions (
        id_hash TEXT PRIMARY KEY,
        account_id INTEGER NOT NULL REFERENCES accounts(id),
        created_ms INTEGER NOT NULL,
        expires_ms INTEGER NOT NULL
    );
    CREATE INDEX sessions_account ON sessions(account_id);",
    // 8: the accounts that hold a game's seats (a signed-in player's
    // session is their seat).
    "ALTER TABLE games ADD COLUMN white_user INTEGER REFERENCES accounts(id);
    ALTER TABLE games ADD COLUMN black_user INTEGER REFERENCES accounts(id);",
    // 9: players meet (issue 20): rated games and days-per-move clocks,
    // how a game was paired, ratings per speed class with every change,
    // the lobby's seeks (quick-pairing pools included) and challenges, and
    // the games' chat rooms.
    "ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN days INTEGER;
    ALTER TABLE games ADD COLUMN pairing TEXT;
    ALTER TABLE games ADD COLUMN ended_ms INTEGER;
    ALTER TABLE games ADD COLUMN result TEXT;
    ALTER TABLE games ADD COLUMN phase_one TEXT;
    CREATE INDEX games_white_user ON games(white_user) WHERE white_user IS NOT NULL;
    CREATE INDEX games_black_user ON games(black_user) WHERE black_user IS NOT NULL;
    CREATE TABLE ratings (
        account_id INTEGER NOT NULL REFERENCES accounts(id),
        class TEXT NOT NULL,
        rating REAL NOT NULL,
        rd REAL NOT NULL,
        volatility REAL NOT NULL,
        games INTEGER NOT NULL,
        last_ms INTEGER NOT NULL,
        PRIMARY KEY (account_id, class)
    );
    CREATE TABLE rating_changes (
        game_id TEXT NOT NULL REFERENCES games(id),
        account_id INTEGER NOT NULL REFERENCES accounts(id),
        class TEXT NOT NULL,
        at_ms INTEGER NOT NULL,
        before_rating REAL NOT NULL,
        before_rd REAL NOT NULL,
        after_rating REAL NOT NULL,
        after_rd REAL NOT NULL,
        after_volatility REAL NOT NULL,
        PRIMARY KEY (game_id, account_id)
    );
    CREATE INDEX rating_changes_account ON rating_changes(account_id, class, at_ms);
    CREATE TABLE seeks (
        id TEXT PRIMARY KEY,
        owner_account INTEGER REFERENCES accounts(id),
        seat_hash TEXT NOT NULL,
        clock_initial_ms INTEGER,
        clock_increment_ms INTEGER,
        days INTEGER,
        rated INTEGER NOT NULL,
        color TEXT NOT NULL,
        rating REAL,
        rd REAL,
        min_rating INTEGER,
        max_rating INTEGER,
        pool TEXT,
        created_ms INTEGER NOT NULL,
        alive_until_ms INTEGER NOT NULL,
        game_id TEXT,
        game_color TEXT
    );
    CREATE INDEX seeks_open ON seeks(created_ms) WHERE game_id IS NULL;
    CREATE TABLE challenges (
        id TEXT PRIMARY KEY,
        from_account INTEGER NOT NULL REFERENCES accounts(id),
        to_account INTEGER NOT NULL REFERENCES accounts(id),
        seat_hash TEXT NOT NULL,
        clock_initial_ms INTEGER,
        clock_increment_ms INTEGER,
        days INTEGER,
        rated INTEGER NOT NULL,
        color TEXT NOT NULL,
        created_ms INTEGER NOT NULL,
        expires_ms INTEGER NOT NULL,
        status TEXT NOT NULL,
        game_id TEXT
    );
    CREATE INDEX challenges_to ON challenges(to_account, status);
    CREATE TABLE chat (
        game_id TEXT NOT NULL REFERENCES games(id),
        room TEXT NOT NULL,
        seq INTEGER NOT NULL,
        at_ms INTEGER NOT NULL,
        account_id INTEGER REFERENCES accounts(id),
        side TEXT,
        text TEXT NOT NULL,
        PRIMARY KEY (game_id, room, seq)
    );",
    // 10: puzzles (issue 21): the committed set, seeded at start; their
    // ratings and the signed-in players' puzzle ratings and attempts.
    "CREATE TABLE puzzles (
        id TEXT PRIMARY KEY,
        lfen TEXT NOT NULL,
        moves TEXT NOT NULL,
        themes TEXT NOT NULL,
        source TEXT NOT NULL,
        rating REAL NOT NULL,
        rd REAL NOT NULL,
        volatility REAL NOT NULL,
        plays INTEGER NOT NULL DEFAULT 0,
        wins INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX puzzles_rating ON puzzles(rating);
    CREATE TABLE puzzle_seeds (
        hash TEXT PRIMARY KEY,
        at_ms INTEGER NOT NULL
    );
    CREATE TABLE puzzle_players (
        account_id INTEGER PRIMARY KEY REFERENCES accounts(id),
        rating REAL NOT NULL,
        rd REAL NOT NULL,
        volatility REAL NOT NULL,
        plays INTEGER NOT NULL,
        wins INTEGER NOT NULL,
        last_ms INTEGER NOT NULL
    );
    CREATE TABLE puzzle_attempts (
        account_id INTEGER NOT NULL REFERENCES accounts(id),
        puzzle_id TEXT NOT NULL REFERENCES puzzles(id),
        at_ms INTEGER NOT NULL,
        win INTEGER NOT NULL,
        before_rating REAL NOT NULL,
        after_rating REAL NOT NULL,
        PRIMARY KEY (account_id, puzzle_id)
    );",
    // 11: studies (issue 21): a shared analysis, its chapters as one JSON
    // text; the owner an account or the hash of an edit key.
    "CREATE TABLE studies (
        id TEXT PRIMARY KEY,
        owner_account INTEGER REFERENCES accounts(id),
        edit_hash TEXT,
        title TEXT NOT NULL,
        chapters TEXT NOT NULL,
        created_ms INTEGER NOT NULL,
        updated_ms INTEGER NOT NULL,
        version INTEGER NOT NULL
    );
    CREATE INDEX studies_owner ON studies(owner_account, updated_ms)
        WHERE owner_account IS NOT NULL;",
];

/// The schema version from which seat tokens and invites are hashes.
const HASHED_SECRETS: usize = 6;

/// Replaces the seat tokens and invites kept in clear by their hashes.
fn hash_secrets(tx: &rusqlite::Transaction<'_>) -> Result<(), StoreError> {
    type Secrets = (String, Option<String>, Option<String>, Option<String>);
    let rows: Vec<Secrets> = tx
        .prepare("SELECT id, white_token, black_token, invite FROM games")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
        .collect::<rusqlite::Result<_>>()?;
    let hash = |s: Option<String>| s.map(|s| SecretHash::of_stored_secret(&s).as_str().to_string());
    let mut update = tx.prepare(
        "UPDATE games SET white_token = ?2, black_token = ?3, invite = ?4 WHERE id = ?1",
    )?;
    for (id, w, b, i) in rows {
        update.execute(params![id, hash(w), hash(b), hash(i)])?;
    }
    Ok(())
}

fn connect(path: &Path) -> Result<Connection, StoreError> {
    let conn = Connection::open(path)?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    Ok(conn)
}

/// Brings the schema to the newest version, each step in a transaction.
fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if version > MIGRATIONS.len() as i64 {
        return Err(StoreError::TooNew(version));
    }
    for (i, step) in MIGRATIONS.iter().enumerate().skip(version as usize) {
        let tx = conn.transaction()?;
        tx.execute_batch(step)?;
        if i + 1 == HASHED_SECRETS {
            hash_secrets(&tx)?;
        }
        tx.pragma_update(None, "user_version", (i + 1) as i64)?;
        tx.commit()?;
    }
    Ok(())
}

fn raw_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<RawRow> {
    let initial: Option<i64> = r.get(9)?;
    Ok(RawRow {
        id: r.get(0)?,
        created_ms: r.get(1)?,
        mode: r.get(2)?,
        rules: r.get(3)?,
        start_lfen: r.get(4)?,
        level: r.get(5)?,
        engine_color: r.get(6)?,
        white_token: r.get(7)?,
        black_token: r.get(8)?,
        clock: match initial {
            None => None,
            Some(i) => Some([Some(i), r.get(10)?, r.get(11)?, r.get(12)?, r.get(13)?]),
        },
        declared: r.get(14)?,
        draw_offer: r.get(15)?,
        invite: r.get(16)?,
        started_ms: r.get(17)?,
        takeback_offer: r.get(18)?,
        deadline_ms: r.get(19)?,
        rematch_offer: r.get(20)?,
        rematch: r.get(21)?,
        version: r.get(22)?,
        white_user: r.get(23)?,
        black_user: r.get(24)?,
        rated: r.get::<_, i64>(25)? != 0,
        days: r.get(26)?,
        pairing: r.get(27)?,
        ended_ms: r.get(28)?,
        result: r.get(29)?,
        phase_one: r.get(30)?,
    })
}

impl SqliteStore {
    /// Opens (creating and migrating if needed) the database at `path`,
    /// as its one server: the file's lock is held until the store is
    /// dropped (issue 19.15).
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        SqliteStore::open_with(path, true)
    }

    /// Opens the database beside the server that serves it (`legion
    /// admin`: a few account changes, ordered by SQLite's own locks; it
    /// keeps no games in memory, so nothing of it can be stale).
    pub fn open_beside_server(path: &Path) -> Result<SqliteStore, StoreError> {
        SqliteStore::open_with(path, false)
    }

    fn open_with(path: &Path, exclusive: bool) -> Result<SqliteStore, StoreError> {
        let lock = exclusive.then(|| lock(path)).transpose()?;
        let mut writer = connect(path)?;
        migrate(&mut writer)?;
        // /healthz writes here (not part of the games' schema: no version).
        writer.execute_batch(
            "CREATE TABLE IF NOT EXISTS legion_health (id INTEGER PRIMARY KEY, at_ms INTEGER NOT NULL)",
        )?;
        let reader = connect(path)?;
        let (tx, rx) = std::sync::mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("legion-db-writer".into())
            .spawn(move || {
                while let Ok(first) = rx.recv() {
                    let mut batch = vec![first];
                    while batch.len() < 512 {
                        match rx.try_recv() {
                            Ok(j) => batch.push(j),
                            Err(_) => break,
                        }
                    }
                    commit_batch(&mut writer, batch);
                }
            })
            .map_err(StoreError::Thread)?;
        Ok(SqliteStore {
            reader: Mutex::new(reader),
            writer: Mutex::new(tx),
            _lock: lock,
        })
    }

    fn queue(
        &self,
        write: Write,
    ) -> Result<tokio::sync::oneshot::Receiver<Result<(), StoreError>>, StoreError> {
        let (done, rx) = tokio::sync::oneshot::channel();
        self.writer
            .lock()
            .map_err(|_| StoreError::Poisoned)?
            .send(Job { write, done })
            .map_err(|_| StoreError::WriterGone)?;
        Ok(rx)
    }

    /// Queues a write and waits until it is committed to disk.
    pub async fn write(&self, write: Write) -> Result<(), StoreError> {
        self.queue(write)?
            .await
            .map_err(|_| StoreError::WriterGone)?
    }

    /// The same as `write`, for code outside the async runtime.
    pub fn write_blocking(&self, write: Write) -> Result<(), StoreError> {
        self.queue(write)?
            .blocking_recv()
            .map_err(|_| StoreError::WriterGone)?
    }

    /// Runs a read off the async runtime (reads take the one reading
    /// connection in turn).
    pub(crate) async fn blocking<A: Send + 'static, T: Send + 'static>(
        self: &Arc<Self>,
        arg: A,
        f: fn(&SqliteStore, A) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let me = self.clone();
        tokio::task::spawn_blocking(move || f(&me, arg))
            .await
            .map_err(|e| StoreError::Task(e.to_string()))?
    }

    pub(crate) fn read<T>(
        &self,
        f: impl FnOnce(&mut Connection) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let mut conn = self.reader.lock().map_err(|_| StoreError::Poisoned)?;
        f(&mut conn)
    }

    pub fn load(&self, id: &GameId) -> Result<Option<(GameRow, Vec<String>)>, StoreError> {
        self.read(|c| {
            let raw = c
                .query_row(
                    &format!("SELECT {COLUMNS} FROM games WHERE id = ?1"),
                    params![id.as_str()],
                    raw_row,
                )
                .optional()?;
            let Some(raw) = raw else { return Ok(None) };
            let row = raw.check()?;
            let mut stmt =
                c.prepare_cached("SELECT move FROM moves WHERE game_id = ?1 ORDER BY ply")?;
            let moves = stmt
                .query_map(params![id.as_str()], |r| r.get::<_, String>(0))?
                .collect::<rusqlite::Result<Vec<String>>>()?;
            Ok(Some((row, moves)))
        })
    }

    pub fn version(&self, id: &GameId) -> Result<Option<i64>, StoreError> {
        self.read(|c| {
            Ok(c.query_row(
                "SELECT version FROM games WHERE id = ?1",
                params![id.as_str()],
                |r| r.get(0),
            )
            .optional()?)
        })
    }

    /// Ids of games whose deadline has come (flag falls, first moves).
    pub fn due(&self, now_ms: i64) -> Result<Vec<GameId>, StoreError> {
        self.read(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT id FROM games WHERE deadline_ms IS NOT NULL AND deadline_ms <= ?1
                 ORDER BY deadline_ms LIMIT 500",
            )?;
            let ids = stmt
                .query_map(params![now_ms], |r| r.get::<_, String>(0))?
                .collect::<rusqlite::Result<Vec<String>>>()?;
            super::game_ids(ids)
        })
    }

    /// The earliest deadline after `now_ms`, if any game has one.
    pub fn next_deadline(&self, now_ms: i64) -> Result<Option<i64>, StoreError> {
        self.read(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT min(deadline_ms) FROM games WHERE deadline_ms IS NOT NULL AND deadline_ms > ?1",
            )?;
            Ok(stmt.query_row(params![now_ms], |r| r.get(0))?)
        })
    }

    /// A game's stored analysis (JSON), if it has one.
    pub fn analysis(&self, id: &GameId) -> Result<Option<String>, StoreError> {
        self.read(|c| {
            Ok(c.query_row(
                "SELECT report FROM analyses WHERE game_id = ?1",
                params![id.as_str()],
                |r| r.get(0),
            )
            .optional()?)
        })
    }

    /// Whether the database answers (for `/healthz`).
    pub fn count(&self) -> Result<i64, StoreError> {
        self.read(|c| Ok(c.query_row("SELECT count(*) FROM games", [], |r| r.get(0))?))
    }

    pub fn ids(&self, after: &str, limit: i64) -> Result<Vec<String>, StoreError> {
        self.read(|c| {
            let mut stmt =
                c.prepare_cached("SELECT id FROM games WHERE id > ?1 ORDER BY id LIMIT ?2")?;
            let ids = stmt
                .query_map(params![after, limit], |r| r.get::<_, String>(0))?
                .collect::<rusqlite::Result<Vec<String>>>()?;
            Ok(ids)
        })
    }

    pub fn export(&self, id: &GameId) -> Result<Option<Exported>, StoreError> {
        let Some((row, _)) = self.load(id)? else {
            return Ok(None);
        };
        let analysis = self.analysis(id)?;
        self.read(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT move, played_ms FROM moves WHERE game_id = ?1 ORDER BY ply",
            )?;
            let moves = stmt
                .query_map(params![id.as_str()], |r| {
                    Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?))
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            Ok(Some(Exported {
                row,
                moves,
                analysis,
            }))
        })
    }

    /// Whether the file can be written: a one-row write in its own
    /// table (a read would pass on a locked, full or read-only file; issue
    /// 19.14), and the integrity of the first pages read by it.
    pub fn check(&self) -> Result<(), StoreError> {
        self.read(|c| {
            c.busy_timeout(HEALTH_WAIT)?;
            let probe = c.execute(
                "INSERT INTO legion_health (id, at_ms) VALUES (1, ?1)
                 ON CONFLICT (id) DO UPDATE SET at_ms = excluded.at_ms",
                params![now_ms()],
            );
            c.busy_timeout(std::time::Duration::from_secs(5))?;
            probe?;
            Ok(())
        })
    }
}

/// One transaction for the whole batch, a savepoint per write.
fn commit_batch(conn: &mut Connection, batch: Vec<Job>) {
    let mut results: Vec<Result<(), StoreError>> = Vec::with_capacity(batch.len());
    let outcome = (|| -> rusqlite::Result<()> {
        let mut tx = conn.transaction()?;
        for job in &batch {
            let sp = tx.savepoint()?;
            match apply(&sp, &job.write) {
                Ok(()) => {
                    sp.commit()?;
                    results.push(Ok(()));
                }
                Err(e) => {
                    drop(sp);
                    results.push(Err(e));
                }
            }
        }
        tx.commit()
    })();
    let mut results = results.into_iter();
    for job in batch {
        let r = match &outcome {
            Ok(()) => results.next().unwrap_or(Err(StoreError::WriterGone)),
            Err(e) => Err(StoreError::Corrupt {
                id: String::new(),
                why: format!("the batch was not committed: {e}"),
            }),
        };
        let _ = job.done.send(r);
    }
}

fn apply(c: &Connection, w: &Write) -> Result<(), StoreError> {
    match w {
        Write::Create(g) => {
            let clock = g.clock;
            c.execute(
                &format!(
                    "INSERT INTO games ({COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10,
                     ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25,
                     ?26, ?27, ?28, ?29, ?30, ?31)"
                ),
                params![
                    g.id.as_str(),
                    g.created_ms,
                    g.mode.name(),
                    g.rules,
                    g.start_lfen,
                    g.level,
                    g.engine_color.map(Side::code),
                    g.white_seat.as_ref().map(SecretHash::as_str),
                    g.black_seat.as_ref().map(SecretHash::as_str),
                    clock.map(|c| c.initial_ms),
                    clock.map(|c| c.increment_ms),
                    clock.map(|c| c.white_ms),
                    clock.map(|c| c.black_ms),
                    clock.and_then(|c| c.turn_began_ms),
                    g.declared.map(Declared::text),
                    g.draw_offer.map(Side::code),
                    g.invite.as_ref().map(SecretHash::as_str),
                    g.started_ms,
                    g.takeback_offer.map(Side::code),
                    g.deadline_ms,
                    g.rematch_offer.map(Side::code),
                    g.rematch.as_ref().map(GameId::as_str),
                    g.version,
                    g.white_user.map(|u| u.0),
                    g.black_user.map(|u| u.0),
                    g.rated,
                    g.days,
                    g.pairing.map(Pairing::name),
                    g.ended_ms,
                    g.result,
                    g.phase_one.map(Side::code),
                ],
            )?;
            Ok(())
        }
        Write::Append {
            row,
            ply,
            text,
            now_ms,
        } => {
            // The version first: a write from an old copy inserts nothing.
            update_row(c, row)?;
            c.prepare_cached(
                "INSERT INTO moves (game_id, ply, move, played_ms) VALUES (?1, ?2, ?3, ?4)",
            )?
            .execute(params![row.id.as_str(), *ply as i64, text, now_ms])?;
            Ok(())
        }
        Write::Truncate { row, ply } => {
            update_row(c, row)?;
            c.execute(
                "DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2",
                params![row.id.as_str(), *ply as i64],
            )?;
            Ok(())
        }
        Write::Update(row) | Write::End(row) => update_row(c, row),
        Write::Import(e) => {
            apply(c, &Write::Create(e.row.clone()))?;
            for (ply, (text, at)) in e.moves.iter().enumerate() {
                c.prepare_cached(
                    "INSERT INTO moves (game_id, ply, move, played_ms) VALUES (?1, ?2, ?3, ?4)",
                )?
                .execute(params![e.row.id.as_str(), ply as i64, text, at])?;
            }
            if let Some(report) = &e.analysis {
                apply(
                    c,
                    &Write::Analysis {
                        id: e.row.id.clone(),
                        report: report.clone(),
                    },
                )?;
            }
            Ok(())
        }
        Write::Analysis { id, report } => {
            c.execute(
                "INSERT OR REPLACE INTO analyses (game_id, report) VALUES (?1, ?2)",
                params![id.as_str(), report],
            )?;
            Ok(())
        }
    }
}

/// Saves the row if it is the next version of the stored one.
fn update_row(c: &Connection, g: &GameRow) -> Result<(), StoreError> {
    let clock = g.clock;
    let changed = c
        .prepare_cached(
            "UPDATE games SET white_ms = ?2, black_ms = ?3, turn_started_ms = ?4, declared = ?5,
            draw_offer = ?6, white_token = ?7, black_token = ?8, started_ms = ?9,
            takeback_offer = ?10, deadline_ms = ?11, rematch_offer = ?12, rematch = ?13,
            version = ?14, white_user = ?15, black_user = ?16, ended_ms = ?17, result = ?18,
            phase_one = ?19
         WHERE id = ?1 AND version = ?14 - 1",
        )?
        .execute(params![
            g.id.as_str(),
            clock.map(|c| c.white_ms),
            clock.map(|c| c.black_ms),
            clock.and_then(|c| c.turn_began_ms),
            g.declared.map(Declared::text),
            g.draw_offer.map(Side::code),
            g.white_seat.as_ref().map(SecretHash::as_str),
            g.black_seat.as_ref().map(SecretHash::as_str),
            g.started_ms,
            g.takeback_offer.map(Side::code),
            g.deadline_ms,
            g.rematch_offer.map(Side::code),
            g.rematch.as_ref().map(GameId::as_str),
            g.version,
            g.white_user.map(|u| u.0),
            g.black_user.map(|u| u.0),
            g.ended_ms,
            g.result,
            g.phase_one.map(Side::code),
        ])?;
    if changed == 0 {
        return Err(StoreError::Stale(g.id.to_string()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::SqliteStore as Store;
    use super::*;

    // The round trip, races and unknown words are tested on both
    // databases in tests/suite/storage.rs; the SQLite schema's history here.
    #[test]
    fn a_version_1_database_is_migrated() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.db");
        {
            let c = Connection::open(&path).unwrap();
            c.execute_batch(MIGRATIONS[0]).unwrap();
            c.pragma_update(None, "user_version", 1).unwrap();
            c.execute(
                "INSERT INTO games (id, created_ms, mode, rules, start_lfen, white_token,
                    black_token, clock_initial_ms, clock_increment_ms, white_ms, black_ms,
                    turn_started_ms)
                 VALUES ('old', 10, 'friend', 'default', ?1, 'a', 'b', 60000, 0, 60000, 50000, 500)",
                params![legion_rules::INITIAL_LFEN],
            )
            .unwrap();
        }
        let s = Store::open(&path).unwrap();
        let old = GameId::parse("old").unwrap();
        let (g, _) = s.load(&old).unwrap().unwrap();
        assert_eq!(g.started_ms, Some(10));
        // The secrets kept in clear are now their hashes (schema 6):
        // SHA-256 of "b".
        assert_eq!(
            g.black_seat.as_ref().map(SecretHash::as_str),
            Some("3e23e8160039594a33894f6564e1b1348bbd7a0088d42c4acb73eeaed59c009d")
        );
        assert_eq!(g.clock.unwrap().black_ms, 50_000);
        // Its deadline is looked at at once and recomputed by the server.
        assert_eq!(s.due(500).unwrap(), vec![old]);
    }
}
