//! The Legion web app: an HTTP and WebSocket API (docs/API.md) over the
//! rules and the engine, its pages built into the binary, and games kept
//! in an embedded SQLite database. docs/HOSTING.md tells how to run it
//! for strangers.

#![forbid(unsafe_code)]

// The folders are the server's layers: `http` (the edge: routes, sockets,
// guards, limits, the one API error), `games` (the game core: live games,
// seats, clocks, offers, records, and how servers keep them in step),
// `engine` (engine work: the pool, game moves, analyses), `store` (both
// databases and copying between them), `i18n` (words in every language),
// `players` (accounts, ratings) and `lobby` (seeks, pools, challenges).
pub mod engine;
pub mod games;
pub mod http;
pub mod i18n;
pub mod lobby;
pub mod metrics;
pub mod players;
pub mod puzzles;
pub mod store;
pub mod studies;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

pub use games::hub::Hub;
pub use http::guard::Site;
pub use http::limits::Limits;

use engine::pool::EnginePool;
use http::api::{self, App};
use http::limits::{Rate, Sockets};
use store::{Store, StoreError};
use tokio::sync::watch;

#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The committed puzzles do not read (a build from a broken file).
    #[error("the committed puzzles: {0}")]
    Puzzles(String),
    #[error("cannot listen on port {port}: {source}")]
    Listen { port: u16, source: std::io::Error },
    #[error("the server stopped: {0}")]
    Serve(std::io::Error),
    #[error("the endgame tables: {0}")]
    Endgames(#[from] legion_engine::endgames::TableError),
}

pub struct Config {
    pub port: u16,
    /// The SQLite file (the default database).
    pub db: PathBuf,
    /// A PostgreSQL URL, used instead of `db` when set.
    pub postgres: Option<String>,
    /// Engine searches at a time (the pool's threads).
    pub engine_threads: usize,
    /// Thinking time per engine move (levels below 10 usually stop sooner).
    pub engine_movetime: Duration,
    /// Bind to all interfaces instead of loopback only.
    pub public: bool,
    pub site: Site,
    pub limits: Limits,
    /// The folder of solved endings' tables (`--endgames`), if any.
    pub endgames: Option<PathBuf>,
    /// Endings of at most this many pieces are solved on demand into that
    /// folder (`--solve-endings`; 0: never).
    pub solve_endings: usize,
    /// The bytes the tables solved on demand may take in the folder.
    pub endgames_disk: u64,
}

impl Config {
    /// A server on this machine with the default limits (tests, `serve`).
    pub fn local(db: impl Into<PathBuf>) -> Config {
        Config {
            port: 8080,
            db: db.into(),
            postgres: None,
            engine_threads: 2,
            engine_movetime: Duration::from_millis(1000),
            public: false,
            site: Site::default(),
            limits: Limits::default(),
            endgames: None,
            solve_endings: 0,
            endgames_disk: engine::solving::DEFAULT_DISK_BUDGET,
        }
    }
}

/// Sign-in attempts per address and minute, and at once (per account:
/// `players::accounts::SIGN_INS_PER_ACCOUNT`).
const SIGN_INS_PER_MINUTE: u32 = 20;
const SIGN_INS_BURST: u32 = 10;
/// Accounts made per address and minute, and at once (at most as many as
/// new games: 0 there means no limit here either).
const REGISTRATIONS_PER_MINUTE: u32 = 10;
const REGISTRATIONS_BURST: u32 = 5;
/// Puzzle attempts per address and minute, and at once: a quick solver
/// tries a few a minute.
const PUZZLE_ATTEMPTS_PER_MINUTE: u32 = 30;
const PUZZLE_ATTEMPTS_BURST: u32 = 10;

/// The app's parts: the router, the hub, and the switch that tells live
/// sockets the server is stopping.
pub struct Built {
    pub router: axum::Router,
    pub hub: Arc<Hub>,
    pub stopping: watch::Sender<bool>,
    app: App,
    behind_proxy: bool,
}

impl Config {
    /// Where the games are, as `Store::open` takes it.
    pub fn database(&self) -> String {
        match &self.postgres {
            Some(url) => url.clone(),
            None => self.db.display().to_string(),
        }
    }
}

/// Opens the database and builds the app (for tests and `serve`).
pub async fn app(config: &Config) -> Result<Built, ServerError> {
    // Listed now (a wrong folder stops the start, with why); each table
    // is read when first asked for.
    let endgames = match &config.endgames {
        Some(dir) => Some(Arc::new(legion_engine::endgames::Tablebase::open(
            // A server that solves endings makes its folder.
            if config.solve_endings > 0 {
                std::fs::create_dir_all(dir).map(|()| dir).map_err(|e| {
                    legion_engine::endgames::TableError::Io {
                        path: dir.display().to_string(),
                        reason: e.to_string(),
                    }
                })?
            } else {
                dir
            },
            legion_engine::endgames::DEFAULT_BUDGET,
        )?)),
        None => None,
    };
    let store = Arc::new(Store::open(&config.database()).await?);
    // The committed puzzles (issue 21): added once, kept with their ratings.
    let committed = puzzles::committed().map_err(ServerError::Puzzles)?;
    store
        .seed_puzzles(&puzzles::committed_hash(), committed, games::ids::now_ms())
        .await?;
    let accounts = Arc::new(players::accounts::Accounts::new(
        store.clone(),
        players::accounts::SIGN_INS_PER_ACCOUNT,
    ));
    let l = &config.limits;
    let pool = EnginePool::new(config.engine_threads, l.engine_queue, l.engine_per_client);
    let hub = Hub::new(
        store,
        pool,
        l.games_in_memory,
        config.engine_movetime,
        l.first_move,
    );
    let solving = endgames
        .as_ref()
        .filter(|_| config.solve_endings > 0)
        .map(|tb| {
            engine::solving::Solving::new(tb.clone(), config.solve_endings, config.endgames_disk)
        });
    if let Some(tb) = &endgames {
        // Set once, here, on a hub just made: it cannot be set already.
        let _ = hub.endgames.set(tb.clone());
    }
    let (stopping, shutdown) = watch::channel(false);
    let lobby = lobby::Lobby::new(hub.clone());
    let app = App {
        lobby,
        hub: hub.clone(),
        limits: Arc::new(l.clone()),
        new_games: Arc::new(Rate::new(
            l.games_per_minute,
            l.games_burst,
            "server.what_games",
        )),
        analyses: Arc::new(Rate::new(
            l.analyses_per_minute,
            l.analyses_burst,
            "server.what_analyses",
        )),
        endgames,
        solving,
        endgames_rate: Arc::new(Rate::new(
            l.analyses_per_minute,
            l.analyses_burst,
            "server.what_endgames",
        )),
        sockets: Sockets::new(l.sockets_total, l.sockets_per_client),
        shutdown,
        accounts,
        sign_ins: Arc::new(Rate::new(
            SIGN_INS_PER_MINUTE,
            SIGN_INS_BURST,
            "server.what_sign_ins",
        )),
        puzzle_attempts: Arc::new(Rate::new(
            PUZZLE_ATTEMPTS_PER_MINUTE,
            PUZZLE_ATTEMPTS_BURST,
            "server.what_puzzle_attempts",
        )),
        registrations: Arc::new(Rate::new(
            l.games_per_minute.min(REGISTRATIONS_PER_MINUTE),
            REGISTRATIONS_BURST,
            "server.what_registrations",
        )),
        new_studies: Arc::new(Rate::per_hour(
            l.studies_per_hour,
            l.studies_per_hour,
            "server.what_studies",
        )),
        secure_cookies: config
            .site
            .public_origin
            .as_deref()
            .is_some_and(|o| o.starts_with("https://")),
        public_origin: config.site.public_origin.clone(),
    };
    Ok(Built {
        router: api::router(app.clone(), config.site.clone()),
        hub,
        stopping,
        app,
        behind_proxy: config.site.behind_proxy,
    })
}

impl Built {
    /// Runs the server's own rounds: flag falls and first-move times every
    /// quarter second and when the next deadline comes, and forgetting idle
    /// rate-limit buckets now and then.
    /// With servers sharing PostgreSQL, also the engine moves nobody has
    /// taken, and (its own task) other servers' announcements.
    pub fn spawn_sweeper(&self) -> tokio::task::JoinHandle<()> {
        let app = self.app.clone();
        let listener = self.hub.spawn_listener();
        tokio::spawn(async move {
            // Stops the listener when the sweeper is stopped.
            struct Abort(Option<tokio::task::JoinHandle<()>>);
            impl Drop for Abort {
                fn drop(&mut self) {
                    if let Some(h) = &self.0 {
                        h.abort();
                    }
                }
            }
            let _listener = Abort(listener);
            let _lobby_news = Abort(app.lobby.bus.spawn_listener(app.hub.metrics.clone()));
            let _turns = Abort(Some(app.lobby.spawn_turns()));
            let shared = app.hub.store.is_shared();
            let mut round = 0u64;
            let every = Duration::from_millis(250);
            let mut next_round = tokio::time::Instant::now() + every;
            let mut next_sweep = next_round;
            loop {
                tokio::time::sleep_until(next_sweep.min(next_round)).await;
                // A sweep every round, and also when a deadline comes
                // between rounds: a flag falls within milliseconds of its
                // time, not up to a round later (issue 19.17).
                let now = tokio::time::Instant::now();
                next_sweep = now + every;
                match app.hub.sweep().await {
                    Ok(Some(at)) => {
                        // A millisecond after it, so that it is due.
                        let wait = (at + 1 - games::ids::now_ms()).clamp(0, 250) as u64;
                        let at = tokio::time::Instant::now() + Duration::from_millis(wait);
                        next_sweep = next_sweep.min(at);
                    }
                    Ok(None) => {}
                    Err(e) => tracing::error!("sweep: {e}"),
                }
                if now < next_round {
                    continue;
                }
                next_round = now + every;
                if shared {
                    app.hub.claim_engine_jobs().await;
                }
                round += 1;
                // The lobby every second: owners gone, pools' waves.
                if round.is_multiple_of(4)
                    && let Err(e) = app.lobby.sweep().await
                {
                    tracing::error!("lobby: {e}");
                }
                if round.is_multiple_of(240) {
                    app.new_games.forget_idle();
                    app.analyses.forget_idle();
                    app.sign_ins.forget_idle();
                    app.registrations.forget_idle();
                }
            }
        })
    }

    /// Serves on `listener` until `stop` resolves; live sockets are told.
    pub async fn serve_on(
        self,
        listener: tokio::net::TcpListener,
        stop: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> Result<(), ServerError> {
        // Aborted however this future ends (also when it is dropped): the
        // sweeper holds the store, and with it the SQLite file's lock.
        struct AbortOnDrop(tokio::task::JoinHandle<()>);
        impl Drop for AbortOnDrop {
            fn drop(&mut self) {
                self.0.abort();
            }
        }
        let _sweeper = AbortOnDrop(self.spawn_sweeper());
        let metrics = self.hub.metrics.clone();
        let stopping = self.stopping;
        let l = &self.app.limits;
        let limits = http::conn::ConnLimits {
            header_timeout: l.header_timeout,
            body_timeout: l.body_timeout,
            // Behind a proxy every connection is the proxy's: the cap
            // per address is the proxy's to apply.
            per_address: if self.behind_proxy {
                0
            } else {
                l.connections_per_address
            },
            behind_proxy: self.behind_proxy,
        };
        let result =
            http::conn::serve(listener, self.router, limits, metrics.clone(), async move {
                stop.await;
                let _ = stopping.send(true);
            })
            .await
            .map_err(ServerError::Serve);
        drop(_sweeper);
        // Upgraded sockets are not connections the shutdown waits for:
        // give them a moment to send their going-away frames.
        for _ in 0..50 {
            if metrics.sockets.get() == 0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        result
    }
}

/// The runtime the server runs on: threads for the cores, and a small
/// pool for blocking database reads (they take one connection in turn,
/// so more threads would only wait, each with memory of its own).
pub fn runtime() -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .max_blocking_threads(8)
        .build()
}

/// Runs the server until Ctrl-C or SIGTERM; `ready` hears the address.
pub async fn serve(config: Config, ready: impl FnOnce(SocketAddr)) -> Result<(), ServerError> {
    // Each connection is an open file: the soft limit (1,024 under
    // systemd by default) would cap the server far below its memory.
    match http::conn::raise_open_files() {
        Ok((Some(was), Some(now))) if was != now => {
            tracing::info!("open files limit raised from {was} to {now}")
        }
        Ok(_) => {}
        Err(e) => tracing::warn!("cannot raise the open files limit: {e}"),
    }
    let built = app(&config).await?;
    let ip = if config.public {
        [0, 0, 0, 0]
    } else {
        [127, 0, 0, 1]
    };
    let listener = tokio::net::TcpListener::bind(SocketAddr::from((ip, config.port)))
        .await
        .map_err(|source| ServerError::Listen {
            port: config.port,
            source,
        })?;
    let addr = listener.local_addr().map_err(ServerError::Serve)?;
    if config.public && config.site.public_origin.is_none() && config.site.hosts.is_empty() {
        tracing::warn!("serving any Host name: set --public-origin or --host to refuse others");
    }
    let db = match &config.postgres {
        // The URL may hold a password: name the database only.
        Some(url) => format!("PostgreSQL {}", url.rsplit('/').next().unwrap_or("")),
        None => config.db.display().to_string(),
    };
    tracing::info!(%addr, %db, "listening");
    ready(addr);
    built.serve_on(listener, stop_signal()).await
}

async fn stop_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
    tracing::info!("stopping");
}
