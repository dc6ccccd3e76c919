//! Request logs through `tracing`: client address, method, path (never
//! the query, which may hold an invite), status and time, one line per
//! answer. A failure's details are logged once at ERROR where it is
//! answered (`error::ApiError`); its answer line is a WARN. In a flood
//! the ERROR lines are bounded: `error_line` writes at most
//! `ERRORS_PER_WINDOW` a window and then one line with how many it held
//! back.

use std::net::{IpAddr, SocketAddr};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::extract::ConnectInfo;

use axum::body::Body;
use axum::http::{Request, Response};
use tower_http::classify::{ServerErrorsAsFailures, SharedClassifier};
use tower_http::trace::TraceLayer;
use tracing::Span;

type MakeSpan = fn(&Request<Body>) -> Span;
type OnResponse = fn(&Response<Body>, Duration, &Span);

/// The client's address as the rate limits see it: the peer's, or behind
/// a proxy the last `X-Forwarded-For` entry.
fn client(req: &Request<Body>) -> Option<IpAddr> {
    let proxied = req
        .extensions()
        .get::<crate::http::limits::BehindProxy>()
        .is_some_and(|b| b.0);
    let forwarded = proxied
        .then(|| {
            req.headers()
                .get("x-forwarded-for")?
                .to_str()
                .ok()?
                .rsplit(',')
                .next()?
                .trim()
                .parse::<IpAddr>()
                .ok()
        })
        .flatten();
    forwarded.or_else(|| {
        req.extensions()
            .get::<ConnectInfo<SocketAddr>>()
            .map(|c| c.0.ip())
    })
}

fn span(req: &Request<Body>) -> Span {
    let client = client(req).map_or_else(|| "-".to_string(), |ip| ip.to_string());
    tracing::info_span!("http", %client, method = %req.method(), path = %req.uri().path())
}

/// ERROR lines written in one window before the rest are only counted.
pub const ERRORS_PER_WINDOW: u32 = 20;
const WINDOW: Duration = Duration::from_secs(10);

struct Flood {
    since: Option<Instant>,
    written: u32,
    held: u64,
}

static FLOOD: Mutex<Flood> = Mutex::new(Flood {
    since: None,
    written: 0,
    held: 0,
});

/// Whether an ERROR line may be written now; when a window ends with
/// lines held back, says how many first.
pub fn error_line() -> bool {
    let mut f = FLOOD.lock().unwrap_or_else(|p| p.into_inner());
    let now = Instant::now();
    if f.since.is_none_or(|t| now.duration_since(t) >= WINDOW) {
        if f.held > 0 {
            tracing::error!(
                held = f.held,
                "{} more errors in {} s were not logged one by one",
                f.held,
                WINDOW.as_secs()
            );
        }
        *f = Flood {
            since: Some(now),
            written: 0,
            held: 0,
        };
    }
    if f.written < ERRORS_PER_WINDOW {
        f.written += 1;
        true
    } else {
        f.held += 1;
        false
    }
}

fn answered(resp: &Response<Body>, latency: Duration, _: &Span) {
    let status = resp.status().as_u16();
    let ms = format_args!("{:.1}", latency.as_secs_f64() * 1000.0);
    if status >= 500 {
        // The details were logged once at ERROR where the error was made.
        tracing::warn!(status, %ms, "answered");
    } else {
        tracing::info!(status, %ms, "answered");
    }
}

pub fn layer() -> TraceLayer<SharedClassifier<ServerErrorsAsFailures>, MakeSpan, (), OnResponse> {
    TraceLayer::new_for_http()
        .make_span_with(span as MakeSpan)
        .on_request(())
        .on_response(answered as OnResponse)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(peer: &str, forwarded: Option<&str>, proxied: bool) -> Request<Body> {
        let mut r = Request::builder().uri("/x");
        if let Some(f) = forwarded {
            r = r.header("x-forwarded-for", f);
        }
        let mut r = r.body(Body::empty()).unwrap();
        r.extensions_mut()
            .insert(ConnectInfo(peer.parse::<SocketAddr>().unwrap()));
        r.extensions_mut()
            .insert(crate::http::limits::BehindProxy(proxied));
        r
    }

    #[test]
    fn log_lines_name_the_client_forwarded_only_behind_a_proxy() {
        let ip = |s: &str| Some(s.parse::<IpAddr>().unwrap());
        let r = request("192.0.2.1:5000", Some("198.51.100.7"), false);
        assert_eq!(client(&r), ip("192.0.2.1"));
        let r = request("127.0.0.1:5000", Some("203.0.113.9, 198.51.100.7"), true);
        assert_eq!(client(&r), ip("198.51.100.7"));
        let r = request("127.0.0.1:5000", None, true);
        assert_eq!(client(&r), ip("127.0.0.1"));
    }

    #[test]
    fn a_flood_of_errors_is_bounded_in_a_window() {
        // Other tests may log errors meanwhile: whatever they took, no
        // more than the bound of 200 calls in one window are let through.
        let through = (0..200).filter(|_| error_line()).count();
        assert!(through <= ERRORS_PER_WINDOW as usize, "{through}");
        assert!(FLOOD.lock().unwrap().held >= 180);
    }
}
