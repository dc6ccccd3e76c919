//! The Legion web app: an HTTP and WebSocket API (docs/API.md) over the
//! rules and the engine, its pages built into the binary, and games kept
//! in an embedded SQLite database.

pub mod api;
pub mod assets;
pub mod hub;
pub mod store;
pub mod view;
mod ws;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

pub use hub::Hub;

pub struct Config {
    pub port: u16,
    pub db: PathBuf,
    /// Engine searches at a time (the pool's size).
    pub engine_threads: usize,
    /// Thinking time per engine move (levels below 10 usually stop sooner).
    pub engine_movetime: Duration,
    /// Bind to all interfaces instead of loopback only.
    pub public: bool,
}

/// Opens the database and builds the app (for tests and `serve`).
pub fn app(
    db: &std::path::Path,
    engine_threads: usize,
    engine_movetime: Duration,
) -> Result<(axum::Router, Arc<Hub>), String> {
    let store = Arc::new(store::Store::open(db)?);
    let hub = Hub::new(store, engine_threads, engine_movetime);
    Ok((api::router(hub.clone()), hub))
}

/// Runs the server until Ctrl-C; `ready` hears the address once listening.
pub async fn serve(config: Config, ready: impl FnOnce(SocketAddr)) -> Result<(), String> {
    let (router, hub) = app(&config.db, config.engine_threads, config.engine_movetime)?;
    let ip = if config.public {
        [0, 0, 0, 0]
    } else {
        [127, 0, 0, 1]
    };
    let listener = tokio::net::TcpListener::bind(SocketAddr::from((ip, config.port)))
        .await
        .map_err(|e| format!("cannot listen on port {}: {e}", config.port))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    // Games with running clocks are watched even when nobody looks.
    hub.load_clocked().await;
    let sweeper = hub.clone();
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(Duration::from_millis(500)).await;
            sweeper.sweep_clocks().await;
        }
    });
    ready(addr);
    axum::serve(listener, router)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .map_err(|e| e.to_string())
}
