//! Figures for a host's monitoring, in Prometheus' text format at
//! `/metrics`: games in memory, moves played, the engine's queue,
//! WebSockets open, HTTP answers by status.

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::encoding::text::encode;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::registry::Registry;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct StatusLabel {
    pub status: u16,
}

pub struct Metrics {
    registry: Registry,
    pub moves: Counter,
    pub games_created: Counter,
    /// Games read again because another server changed them.
    pub reloads: Counter,
    /// Moves of other servers taken from their announcement (and the row).
    pub moves_heard: Counter,
    /// Times the announcements were lost and the watched games read again.
    pub resyncs: Counter,
    /// Announcements of other servers that could not be read (each one
    /// followed by reading the watched games again).
    pub unreadable_announcements: Counter,
    pub games_in_memory: Gauge,
    pub engine_waiting: Gauge,
    pub engine_running: Gauge,
    pub sockets: Gauge,
    /// Connections closed at accept: their address held as many as it may.
    pub connections_refused: Counter,
    pub http: Family<StatusLabel, Counter>,
}

impl Default for Metrics {
    fn default() -> Metrics {
        let mut registry = Registry::with_prefix("legion");
        let m = Metrics {
            moves: Counter::default(),
            games_created: Counter::default(),
            reloads: Counter::default(),
            moves_heard: Counter::default(),
            resyncs: Counter::default(),
            unreadable_announcements: Counter::default(),
            games_in_memory: Gauge::default(),
            engine_waiting: Gauge::default(),
            engine_running: Gauge::default(),
            sockets: Gauge::default(),
            connections_refused: Counter::default(),
            http: Family::default(),
            registry: Registry::default(),
        };
        registry.register(
            "moves",
            "Moves played (engine moves included)",
            m.moves.clone(),
        );
        registry.register("games_created", "Games created", m.games_created.clone());
        registry.register(
            "game_reloads",
            "Games read again because another server changed them",
            m.reloads.clone(),
        );
        registry.register(
            "moves_heard",
            "Moves of other servers taken from their announcement",
            m.moves_heard.clone(),
        );
        registry.register(
            "announcement_resyncs",
            "Times the other servers' announcements were lost and watched games read again",
            m.resyncs.clone(),
        );
        registry.register(
            "unreadable_announcements",
            "Announcements of other servers that could not be read (watched games read again)",
            m.unreadable_announcements.clone(),
        );
        registry.register(
            "games_in_memory",
            "Games held in memory",
            m.games_in_memory.clone(),
        );
        registry.register(
            "engine_waiting",
            "Engine searches waiting in the queue",
            m.engine_waiting.clone(),
        );
        registry.register(
            "engine_running",
            "Engine searches running",
            m.engine_running.clone(),
        );
        registry.register("websockets", "WebSockets open", m.sockets.clone());
        registry.register(
            "connections_refused",
            "Connections closed at accept because their address held as many as it may",
            m.connections_refused.clone(),
        );
        registry.register("http_responses", "HTTP responses by status", m.http.clone());
        Metrics { registry, ..m }
    }
}

impl Metrics {
    /// The text a Prometheus server scrapes.
    pub fn text(&self) -> String {
        let mut out = String::new();
        // Writing into a String cannot fail.
        let _ = encode(&mut out, &self.registry);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_come_out_in_prometheus_text() {
        let m = Metrics::default();
        m.moves.inc_by(3);
        m.sockets.set(2);
        m.http.get_or_create(&StatusLabel { status: 429 }).inc();
        let text = m.text();
        assert!(text.contains("legion_moves_total 3"), "{text}");
        assert!(text.contains("legion_websockets 2"), "{text}");
        assert!(
            text.contains("legion_http_responses_total{status=\"429\"} 1"),
            "{text}"
        );
        assert!(text.ends_with("# EOF\n"), "{text}");
    }
}
