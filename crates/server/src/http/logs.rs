//! Request logs through `tracing`: method, path (never the query, which
//! may hold an invite), status and time, one line per answer.

use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, Response};
use tower_http::classify::{ServerErrorsAsFailures, SharedClassifier};
use tower_http::trace::TraceLayer;
use tracing::Span;

type MakeSpan = fn(&Request<Body>) -> Span;
type OnResponse = fn(&Response<Body>, Duration, &Span);

fn span(req: &Request<Body>) -> Span {
    tracing::info_span!("http", method = %req.method(), path = %req.uri().path())
}

fn answered(resp: &Response<Body>, latency: Duration, _: &Span) {
    let status = resp.status().as_u16();
    let ms = format_args!("{:.1}", latency.as_secs_f64() * 1000.0);
    if status >= 500 {
        tracing::error!(status, %ms, "answered");
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
