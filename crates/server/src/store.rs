//! Games in SQLite. Every accepted move is committed (WAL, synchronous
//! FULL) before it is acknowledged, so a crash loses no acknowledged move
//! and a restart finds every game where it stood.

use std::path::Path;
use std::sync::{Arc, Mutex};

use rusqlite::{Connection, OptionalExtension, params};

/// A game's settings and off-board state (the moves are kept apart).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub id: String,
    pub created_ms: i64,
    /// `engine`, `friend` or `local`.
    pub mode: String,
    /// `default` or `mate-ends-game`.
    pub rules: String,
    pub start_lfen: String,
    pub level: Option<u8>,
    /// `w` or `b`, engine games only.
    pub engine_color: Option<String>,
    pub white_token: Option<String>,
    pub black_token: Option<String>,
    pub clock: Option<Clock>,
    /// A result declared off the board: `resign:w` (White resigned),
    /// `time:b` (Black lost on time), `draw`.
    pub declared: Option<String>,
    /// The side offering a draw.
    pub draw_offer: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    pub initial_ms: i64,
    pub increment_ms: i64,
    pub white_ms: i64,
    pub black_ms: i64,
    /// When the side to move's clock last started (unix ms), if running.
    pub turn_started_ms: Option<i64>,
}

/// A change to the database. Writes go through one writer thread that
/// commits whatever has queued up in one transaction (group commit): one
/// disk flush for many moves, each move still acknowledged only once it is
/// on disk, and each in its own savepoint so that one failure (a duplicate
/// ply) does not sink the others.
pub enum Write {
    Create(GameRow),
    /// Move number `ply` (0-based) and the game's off-board state.
    Append {
        row: GameRow,
        ply: usize,
        text: String,
        now_ms: i64,
    },
    /// Takes back every move from `ply` on, and saves the off-board state.
    Truncate {
        row: GameRow,
        ply: usize,
    },
    /// Saves the off-board state (declared result, draw offer, clocks).
    Update(GameRow),
}

struct Job {
    write: Write,
    done: tokio::sync::oneshot::Sender<Result<(), String>>,
}

pub struct Store {
    reader: Mutex<Connection>,
    writer: Mutex<std::sync::mpsc::Sender<Job>>,
}

pub type Shared = Arc<Store>;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS games (
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
);
";

fn db_err(e: rusqlite::Error) -> String {
    format!("database: {e}")
}

fn connect(path: &Path) -> Result<Connection, String> {
    let conn = Connection::open(path).map_err(db_err)?;
    conn.pragma_update(None, "journal_mode", "WAL")
        .map_err(db_err)?;
    conn.pragma_update(None, "synchronous", "FULL")
        .map_err(db_err)?;
    conn.pragma_update(None, "foreign_keys", "ON")
        .map_err(db_err)?;
    conn.busy_timeout(std::time::Duration::from_secs(5))
        .map_err(db_err)?;
    Ok(conn)
}

impl Store {
    /// Opens (creating if needed) the database at `path`.
    pub fn open(path: &Path) -> Result<Store, String> {
        let mut writer = connect(path)?;
        writer.execute_batch(SCHEMA).map_err(db_err)?;
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
            .map_err(|e| format!("cannot start the database writer: {e}"))?;
        Ok(Store {
            reader: Mutex::new(reader),
            writer: Mutex::new(tx),
        })
    }

    /// Queues a write and waits until it is committed to disk.
    pub async fn write(&self, write: Write) -> Result<(), String> {
        let (done, rx) = tokio::sync::oneshot::channel();
        self.writer
            .lock()
            .map_err(|_| "database writer lock poisoned".to_string())?
            .send(Job { write, done })
            .map_err(|_| "the database writer has stopped".to_string())?;
        rx.await
            .map_err(|_| "the database writer has stopped".to_string())?
    }

    /// The same as `write`, for code outside the async runtime.
    pub fn write_blocking(&self, write: Write) -> Result<(), String> {
        let (done, rx) = tokio::sync::oneshot::channel();
        self.writer
            .lock()
            .map_err(|_| "database writer lock poisoned".to_string())?
            .send(Job { write, done })
            .map_err(|_| "the database writer has stopped".to_string())?;
        rx.blocking_recv()
            .map_err(|_| "the database writer has stopped".to_string())?
    }

    fn read<T>(&self, f: impl FnOnce(&mut Connection) -> rusqlite::Result<T>) -> Result<T, String> {
        let mut conn = self
            .reader
            .lock()
            .map_err(|_| "database lock poisoned".to_string())?;
        f(&mut conn).map_err(db_err)
    }

    pub fn load(&self, id: &str) -> Result<Option<(GameRow, Vec<String>)>, String> {
        self.read(|c| {
            let row = c
                .query_row(
                    "SELECT id, created_ms, mode, rules, start_lfen, level, engine_color, white_token,
                        black_token, clock_initial_ms, clock_increment_ms, white_ms, black_ms,
                        turn_started_ms, declared, draw_offer
                     FROM games WHERE id = ?1",
                    params![id],
                    |r| {
                        let initial: Option<i64> = r.get(9)?;
                        let clock = match initial {
                            Some(initial_ms) => Some(Clock {
                                initial_ms,
                                increment_ms: r.get::<_, Option<i64>>(10)?.unwrap_or(0),
                                white_ms: r.get::<_, Option<i64>>(11)?.unwrap_or(0),
                                black_ms: r.get::<_, Option<i64>>(12)?.unwrap_or(0),
                                turn_started_ms: r.get(13)?,
                            }),
                            None => None,
                        };
                        Ok(GameRow {
                            id: r.get(0)?,
                            created_ms: r.get(1)?,
                            mode: r.get(2)?,
                            rules: r.get(3)?,
                            start_lfen: r.get(4)?,
                            level: r.get(5)?,
                            engine_color: r.get(6)?,
                            white_token: r.get(7)?,
                            black_token: r.get(8)?,
                            clock,
                            declared: r.get(14)?,
                            draw_offer: r.get(15)?,
                        })
                    },
                )
                .optional()?;
            let Some(row) = row else { return Ok(None) };
            let mut stmt = c.prepare("SELECT move FROM moves WHERE game_id = ?1 ORDER BY ply")?;
            let moves = stmt
                .query_map(params![id], |r| r.get::<_, String>(0))?
                .collect::<rusqlite::Result<Vec<String>>>()?;
            Ok(Some((row, moves)))
        })
    }

    /// Ids of games with a running clock, to watch for time running out.
    pub fn clocked_games(&self) -> Result<Vec<String>, String> {
        self.read(|c| {
            let mut stmt = c.prepare(
                "SELECT id FROM games WHERE turn_started_ms IS NOT NULL AND declared IS NULL",
            )?;
            stmt.query_map([], |r| r.get::<_, String>(0))?.collect()
        })
    }
}

/// One transaction for the whole batch, a savepoint per write.
fn commit_batch(conn: &mut Connection, batch: Vec<Job>) {
    let mut results: Vec<Result<(), String>> = Vec::with_capacity(batch.len());
    let outcome = (|| -> rusqlite::Result<()> {
        let mut tx = conn.transaction()?;
        for job in &batch {
            let sp = tx.savepoint()?;
            let r = apply(&sp, &job.write);
            match r {
                Ok(()) => {
                    sp.commit()?;
                    results.push(Ok(()));
                }
                Err(e) => {
                    drop(sp);
                    results.push(Err(db_err(e)));
                }
            }
        }
        tx.set_drop_behavior(rusqlite::DropBehavior::Commit);
        tx.commit()
    })();
    for (i, job) in batch.into_iter().enumerate() {
        let r = match &outcome {
            Ok(()) => results
                .get(i)
                .cloned()
                .unwrap_or_else(|| Err("not written".into())),
            Err(e) => Err(format!("database: {e}")),
        };
        let _ = job.done.send(r);
    }
}

fn apply(c: &Connection, w: &Write) -> rusqlite::Result<()> {
    match w {
        Write::Create(g) => {
            let clock = g.clock;
            c.execute(
                "INSERT INTO games (id, created_ms, mode, rules, start_lfen, level, engine_color,
                    white_token, black_token, clock_initial_ms, clock_increment_ms, white_ms, black_ms,
                    turn_started_ms, declared, draw_offer)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)",
                params![
                    g.id,
                    g.created_ms,
                    g.mode,
                    g.rules,
                    g.start_lfen,
                    g.level,
                    g.engine_color,
                    g.white_token,
                    g.black_token,
                    clock.map(|c| c.initial_ms),
                    clock.map(|c| c.increment_ms),
                    clock.map(|c| c.white_ms),
                    clock.map(|c| c.black_ms),
                    clock.and_then(|c| c.turn_started_ms),
                    g.declared,
                    g.draw_offer,
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
            c.execute(
                "INSERT INTO moves (game_id, ply, move, played_ms) VALUES (?1, ?2, ?3, ?4)",
                params![row.id, *ply as i64, text, now_ms],
            )?;
            update_row(c, row)
        }
        Write::Truncate { row, ply } => {
            c.execute(
                "DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2",
                params![row.id, *ply as i64],
            )?;
            update_row(c, row)
        }
        Write::Update(row) => update_row(c, row),
    }
}

fn update_row(c: &Connection, g: &GameRow) -> rusqlite::Result<()> {
    let clock = g.clock;
    c.execute(
        "UPDATE games SET white_ms = ?2, black_ms = ?3, turn_started_ms = ?4, declared = ?5, draw_offer = ?6
         WHERE id = ?1",
        params![
            g.id,
            clock.map(|c| c.white_ms),
            clock.map(|c| c.black_ms),
            clock.and_then(|c| c.turn_started_ms),
            g.declared,
            g.draw_offer,
        ],
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_and_moves_survive_reopening() {
        let dir = std::env::temp_dir().join(format!("legion-store-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.db");
        let _ = std::fs::remove_file(&path);
        let row = GameRow {
            id: "abc".into(),
            created_ms: 1,
            mode: "friend".into(),
            rules: "default".into(),
            start_lfen: legion_rules::INITIAL_LFEN.into(),
            level: None,
            engine_color: None,
            white_token: Some("w".into()),
            black_token: Some("b".into()),
            clock: Some(Clock {
                initial_ms: 60_000,
                increment_ms: 1000,
                white_ms: 60_000,
                black_ms: 60_000,
                turn_started_ms: None,
            }),
            declared: None,
            draw_offer: None,
        };
        let append = |ply: usize, text: &str| Write::Append {
            row: row.clone(),
            ply,
            text: text.into(),
            now_ms: 5,
        };
        {
            let s = Store::open(&path).unwrap();
            s.write_blocking(Write::Create(row.clone())).unwrap();
            s.write_blocking(append(0, "c3d4")).unwrap();
            s.write_blocking(append(1, "f6e5")).unwrap();
            // The same ply twice is refused by the key; nothing else suffers.
            assert!(s.write_blocking(append(1, "b6a5")).is_err());
        }
        let s = Store::open(&path).unwrap();
        let (back, moves) = s.load("abc").unwrap().unwrap();
        assert_eq!(back, row);
        assert_eq!(moves, vec!["c3d4", "f6e5"]);
        s.write_blocking(Write::Truncate {
            row: row.clone(),
            ply: 1,
        })
        .unwrap();
        assert_eq!(s.load("abc").unwrap().unwrap().1, vec!["c3d4"]);
        assert!(s.load("nope").unwrap().is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
