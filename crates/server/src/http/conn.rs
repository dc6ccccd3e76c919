//! Plain TCP connections: accepted here rather than by `axum::serve` so
//! that none stays open for nothing. A request's head must arrive within
//! the header timeout of the server waiting for it (on a new connection,
//! or on a kept-alive one after its last answer: so it is also the idle
//! keep-alive timeout), its body within the body timeout, and one address
//! may hold only so many connections at once (counted at accept, closed
//! at once beyond). docs/HOSTING.md, "Connections".

use std::collections::HashMap;
use std::future::Future;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::extract::ConnectInfo;
use hyper::body::{Body as HttpBody, Bytes, Frame, Incoming, SizeHint};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::sync::watch;
use tower::ServiceExt;

use crate::http::limits::block_of;
use crate::metrics::Metrics;

/// What bounds one connection (from `Limits`).
#[derive(Clone, Copy, Debug)]
pub struct ConnLimits {
    pub header_timeout: Duration,
    pub body_timeout: Duration,
    /// 0: no cap (behind a proxy every connection is the proxy's).
    pub per_address: usize,
    /// Whether `X-Forwarded-For` names the client (for logs and limits).
    pub behind_proxy: bool,
}

/// Open connections by address (IPv6 by /64, as the rate limits count).
struct Open {
    by_address: Mutex<HashMap<IpAddr, usize>>,
    max: usize,
}

/// One connection's place; dropping it frees the place.
struct Place {
    open: Arc<Open>,
    address: IpAddr,
}

impl Open {
    fn take(self: &Arc<Self>, ip: IpAddr) -> Option<Place> {
        let address = block_of(ip);
        let mut by = self.by_address.lock().unwrap_or_else(|p| p.into_inner());
        let n = by.entry(address).or_insert(0);
        if self.max > 0 && *n >= self.max {
            return None;
        }
        *n += 1;
        Some(Place {
            open: self.clone(),
            address,
        })
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut by = self
            .open
            .by_address
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        if let Some(n) = by.get_mut(&self.address) {
            *n -= 1;
            if *n == 0 {
                by.remove(&self.address);
            }
        }
    }
}

/// A request body that fails once its deadline has passed: a client that
/// sends its body slowly (or never) does not hold the handler and the
/// connection beyond the body timeout.
struct Deadline {
    inner: Incoming,
    sleep: Pin<Box<tokio::time::Sleep>>,
    after: Duration,
}

#[derive(Debug, thiserror::Error)]
#[error("the request body did not arrive within {0:?}")]
struct BodyTimedOut(Duration);

impl HttpBody for Deadline {
    type Data = Bytes;
    type Error = Box<dyn std::error::Error + Send + Sync>;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        let this = &mut *self;
        match Pin::new(&mut this.inner).poll_frame(cx) {
            Poll::Ready(frame) => Poll::Ready(frame.map(|f| f.map_err(Into::into))),
            Poll::Pending => match this.sleep.as_mut().poll(cx) {
                Poll::Ready(()) => Poll::Ready(Some(Err(Box::new(BodyTimedOut(this.after))))),
                Poll::Pending => Poll::Pending,
            },
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

fn is_transient(e: &std::io::Error) -> bool {
    use std::io::ErrorKind::*;
    matches!(
        e.kind(),
        ConnectionRefused | ConnectionAborted | ConnectionReset
    )
}

/// Serves `router` on `listener` until `stop` resolves, then lets the
/// connections finish their requests (upgraded sockets are not waited for).
pub async fn serve(
    listener: tokio::net::TcpListener,
    router: axum::Router,
    limits: ConnLimits,
    metrics: Arc<Metrics>,
    stop: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let open = Arc::new(Open {
        by_address: Mutex::new(HashMap::new()),
        max: limits.per_address,
    });
    // Each connection holds a receiver; the sender's `closed` is when all
    // are done. Dropping `shutdown` tells them to finish.
    let (shutdown, shutdown_rx) = watch::channel(());
    let (done, done_rx) = watch::channel(());
    tokio::pin!(stop);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) if is_transient(&e) => continue,
                Err(e) => {
                    // Out of file descriptors, usually: wait a moment for
                    // some to be given back rather than spin.
                    tracing::error!("accept: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        let Some(place) = open.take(peer.ip()) else {
            metrics.connections_refused.inc();
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let router = router.clone();
        let mut stopping = shutdown_rx.clone();
        let done_rx = done_rx.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |req: hyper::Request<Incoming>| {
                let mut req = req.map(|inner| {
                    axum::body::Body::new(Deadline {
                        inner,
                        sleep: Box::pin(tokio::time::sleep(limits.body_timeout)),
                        after: limits.body_timeout,
                    })
                });
                req.extensions_mut().insert(ConnectInfo(peer));
                req.extensions_mut()
                    .insert(crate::http::limits::BehindProxy(limits.behind_proxy));
                router.clone().oneshot(req)
            });
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(limits.header_timeout);
            let conn = builder
                .serve_connection(TokioIo::new(stream), service)
                .with_upgrades();
            tokio::pin!(conn);
            let mut told = false;
            loop {
                tokio::select! {
                    result = conn.as_mut() => {
                        if let Err(e) = result {
                            tracing::debug!(%peer, "connection: {e}");
                        }
                        break;
                    }
                    changed = stopping.changed(), if !told => {
                        let _ = changed;
                        told = true;
                        conn.as_mut().graceful_shutdown();
                    }
                }
            }
            drop(place);
            drop(done_rx);
        });
    }
    drop(listener);
    drop(shutdown);
    drop(done_rx);
    done.closed().await;
    Ok(())
}

/// Raises this process's soft limit on open files to its hard limit (a
/// connection is a file): (before, after). systemd's default soft limit
/// for services is 1,024.
#[cfg(unix)]
pub fn raise_open_files() -> std::io::Result<(Option<u64>, Option<u64>)> {
    use rustix::process::{Resource, getrlimit, setrlimit};
    let now = getrlimit(Resource::Nofile);
    if now.current == now.maximum {
        return Ok((now.current, now.current));
    }
    let raised = rustix::process::Rlimit {
        current: now.maximum,
        maximum: now.maximum,
    };
    setrlimit(Resource::Nofile, raised)?;
    Ok((now.current, getrlimit(Resource::Nofile).current))
}

#[cfg(not(unix))]
pub fn raise_open_files() -> std::io::Result<(Option<u64>, Option<u64>)> {
    Ok((None, None))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_are_counted_by_address_and_given_back() {
        let open = Arc::new(Open {
            by_address: Mutex::new(HashMap::new()),
            max: 2,
        });
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        let b: IpAddr = "192.0.2.2".parse().unwrap();
        let first = open.take(a).unwrap();
        let _second = open.take(a).unwrap();
        assert!(open.take(a).is_none(), "a third from one address");
        let _other = open.take(b).unwrap();
        drop(first);
        assert!(open.take(a).is_some());
        // IPv6 addresses count by their /64.
        let v6a: IpAddr = "2001:db8::1".parse().unwrap();
        let v6b: IpAddr = "2001:db8::2".parse().unwrap();
        let _x = open.take(v6a).unwrap();
        let _y = open.take(v6b).unwrap();
        assert!(open.take(v6a).is_none());
    }
}
