//! `legion serve`: the web app and its API on one port, games in SQLite.
//! Every limit a host may want to change is an option (docs/HOSTING.md).

use std::time::Duration;

use clap::Args;

use crate::Failure;

#[derive(Args)]
pub struct ServeArgs {
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Where games are kept: a SQLite file (created on first start), or a
    /// PostgreSQL URL `postgres://user@host:port/dbname`. Default: the
    /// DATABASE_URL environment variable, else `legion.db`.
    #[arg(long)]
    pub db: Option<String>,
    /// Engine searches run at a time (default: the number of cores).
    #[arg(long)]
    pub engine_threads: Option<usize>,
    /// Engine thinking time per move, in milliseconds.
    #[arg(long, default_value_t = 1000)]
    pub engine_movetime: u64,
    /// Listen on every interface, not only on this machine.
    #[arg(long)]
    pub public: bool,
    /// The address people open, behind a proxy: `https://legion.example`.
    /// Browsers' requests must come from it; its host is served.
    #[arg(long, value_name = "URL")]
    pub public_origin: Option<String>,
    /// Another host name to serve (repeatable); loopback names always are.
    #[arg(long = "host", value_name = "NAME")]
    pub hosts: Vec<String>,
    /// Take the client's address from X-Forwarded-For (set by your proxy).
    #[arg(long)]
    pub behind_proxy: bool,
    /// Games kept in memory; idle ones beyond are evicted and reread.
    #[arg(long, default_value_t = 1000)]
    pub games_in_memory: usize,
    /// New games and invite claims per client address and minute (0: no limit).
    #[arg(long, default_value_t = 30)]
    pub games_per_minute: u32,
    /// Analyses per client address and minute (0: no limit).
    #[arg(long, default_value_t = 60)]
    pub analyses_per_minute: u32,
    /// New studies per client address and hour, and per account (0: no limit).
    #[arg(long, default_value_t = 30)]
    pub studies_per_hour: u32,
    /// Analyses that may wait for the engine.
    #[arg(long, default_value_t = 64)]
    pub engine_queue: usize,
    /// Open WebSockets in all.
    #[arg(long, default_value_t = 5000)]
    pub max_sockets: usize,
    /// Open WebSockets per client address.
    #[arg(long, default_value_t = 20)]
    pub max_sockets_per_client: usize,
    /// Seconds each side has for its first move in a clocked game.
    #[arg(long, default_value_t = 60)]
    pub first_move_s: u64,
    /// Seconds a request's head may take to arrive, from when the server
    /// waits for it: also how long an idle kept-alive connection stays.
    #[arg(long, default_value_t = 10)]
    pub header_timeout_s: u64,
    /// Seconds a request's body may take to arrive.
    #[arg(long, default_value_t = 20)]
    pub body_timeout_s: u64,
    /// Connections one client address may hold at once (0: no cap; not
    /// applied with --behind-proxy, where your proxy should apply it).
    #[arg(long, default_value_t = 256)]
    pub max_connections_per_address: usize,
    /// A secret that /metrics then requires as `Authorization: Bearer …`
    /// (default: the METRICS_TOKEN environment variable, else none).
    #[arg(long, value_name = "TOKEN")]
    pub metrics_token: Option<String>,
    /// The folder of solved endings' tables (`legion endgame build`, and
    /// those solved on demand) for `GET /api/endgame` and the analysis
    /// pages (default: the LEGION_ENDGAMES environment variable, else
    /// `legion-endgames`, made if missing).
    #[arg(long, value_name = "DIR")]
    pub endgames: Option<std::path::PathBuf>,
    /// Solve endings of at most this many pieces on demand (a construct
    /// counts once): 3 take half a second and a few MB each, 4 some 20 s
    /// and 2 GB of memory; 0 solves none (docs/HOSTING.md).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(0..=4))]
    pub solve_endings: u8,
    /// Megabytes of disk the tables solved on demand may take.
    #[arg(long, default_value_t = 2000)]
    pub endgames_disk_mb: u64,
}

/// The default folder of endgame tables: `legion-endgames` beside the
/// SQLite file, or in the current folder for a PostgreSQL URL.
fn beside_database(location: &str) -> std::path::PathBuf {
    let folder = "legion-endgames";
    if location.contains("://") {
        return folder.into();
    }
    match std::path::Path::new(location).parent() {
        Some(dir) => dir.join(folder),
        None => folder.into(),
    }
}

/// `https://Legion.Example/` → `https://legion.example`; anything else is refused.
fn origin(url: &str) -> Result<String, Failure> {
    let url = url.trim().trim_end_matches('/').to_ascii_lowercase();
    let ok = url.split_once("://").is_some_and(|(scheme, host)| {
        matches!(scheme, "http" | "https") && !host.is_empty() && !host.contains('/')
    });
    if ok {
        Ok(url)
    } else {
        Err(Failure(format!(
            "--public-origin must be like https://legion.example, not '{url}'"
        )))
    }
}

pub fn run(a: ServeArgs) -> Result<(), Failure> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_target(false)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_writer(std::io::stderr)
        .init();
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let limits = legion_server::Limits {
        games_in_memory: a.games_in_memory.max(1),
        games_per_minute: a.games_per_minute,
        analyses_per_minute: a.analyses_per_minute,
        studies_per_hour: a.studies_per_hour,
        engine_queue: a.engine_queue,
        sockets_total: a.max_sockets,
        sockets_per_client: a.max_sockets_per_client,
        first_move: Duration::from_secs(a.first_move_s.max(1)),
        header_timeout: Duration::from_secs(a.header_timeout_s.max(1)),
        body_timeout: Duration::from_secs(a.body_timeout_s.max(1)),
        connections_per_address: a.max_connections_per_address,
        metrics_token: a
            .metrics_token
            .clone()
            .or_else(|| std::env::var("METRICS_TOKEN").ok())
            .filter(|t| !t.is_empty()),
        ..legion_server::Limits::default()
    };
    let site = legion_server::Site {
        public_origin: a.public_origin.as_deref().map(origin).transpose()?,
        hosts: a.hosts.iter().map(|h| h.to_ascii_lowercase()).collect(),
        any_host: a.public && a.public_origin.is_none() && a.hosts.is_empty(),
        behind_proxy: a.behind_proxy,
    };
    let location =
        a.db.clone()
            .or_else(|| std::env::var("DATABASE_URL").ok().filter(|u| !u.is_empty()))
            .unwrap_or_else(|| "legion.db".to_string());
    let postgres = (location.starts_with("postgres://") || location.starts_with("postgresql://"))
        .then(|| location.clone());
    let config = legion_server::Config {
        port: a.port,
        db: location.clone().into(),
        postgres,
        engine_threads: a.engine_threads.unwrap_or(cores).max(1),
        engine_movetime: Duration::from_millis(a.engine_movetime.clamp(10, 60_000)),
        public: a.public,
        site,
        limits,
        endgames: Some(
            a.endgames
                .clone()
                .or_else(|| std::env::var_os("LEGION_ENDGAMES").map(Into::into))
                .filter(|d: &std::path::PathBuf| !d.as_os_str().is_empty())
                .unwrap_or_else(|| beside_database(&location)),
        ),
        solve_endings: usize::from(a.solve_endings),
        endgames_disk: a.endgames_disk_mb.saturating_mul(1_000_000),
    };
    let runtime = legion_server::runtime().map_err(|e| Failure(format!("cannot start: {e}")))?;
    // A URL may hold a password: show where the games are without it.
    let db = match location.split_once('@') {
        Some((_, host)) if location.contains("://") => format!("PostgreSQL at {host}"),
        _ => location,
    };
    runtime
        .block_on(legion_server::serve(config, |addr| {
            println!("Legion is ready: http://{addr}/  (games are kept in {db}; Ctrl-C stops)");
        }))
        .map_err(|e| Failure(e.to_string()))
}
