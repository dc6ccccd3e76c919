//! `legion serve`: the web app and its API on one port, games in SQLite.

use clap::Args;

use crate::Failure;

#[derive(Args)]
pub struct ServeArgs {
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The database file; created on first start.
    #[arg(long, default_value = "legion.db")]
    pub db: String,
    /// Engine searches run at a time (default: the number of cores).
    #[arg(long)]
    pub engine_threads: Option<usize>,
    /// Engine thinking time per move, in milliseconds.
    #[arg(long, default_value_t = 1000)]
    pub engine_movetime: u64,
    /// Listen on every interface, not only on this machine.
    #[arg(long)]
    pub public: bool,
}

pub fn run(a: ServeArgs) -> Result<(), Failure> {
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let config = legion_server::Config {
        port: a.port,
        db: a.db.clone().into(),
        engine_threads: a.engine_threads.unwrap_or(cores).max(1),
        engine_movetime: std::time::Duration::from_millis(a.engine_movetime.clamp(10, 60_000)),
        public: a.public,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure(format!("cannot start: {e}")))?;
    let db = a.db;
    runtime
        .block_on(legion_server::serve(config, |addr| {
            println!("Legion is ready: http://{addr}/  (games are kept in {db}; Ctrl-C stops)");
        }))
        .map_err(Failure)
}
