//! What one client may make the server spend: who a client is (its
//! address), how often it may create games or ask for analysis (token
//! buckets, `governor`), and how many WebSockets it may hold.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::engine::pool::ClientKey;
use crate::http::error::{ApiError, ApiResult};

/// The limits a host may set (`legion serve` options; docs/HOSTING.md).
#[derive(Clone, Debug)]
pub struct Limits {
    /// Games kept in memory before idle ones are evicted.
    pub games_in_memory: usize,
    /// New games and invite claims per client and minute (0: no limit).
    pub games_per_minute: u32,
    pub games_burst: u32,
    /// Analyses per client and minute (0: no limit).
    pub analyses_per_minute: u32,
    pub analyses_burst: u32,
    /// New studies per client and hour, and per account and hour (0: no
    /// limit).
    pub studies_per_hour: u32,
    /// Analyses and draw decisions one client may have under way.
    pub engine_per_client: usize,
    /// Analyses that may wait for the engine.
    pub engine_queue: usize,
    pub sockets_total: usize,
    pub sockets_per_client: usize,
    /// A clocked game's time for each side's first move.
    pub first_move: Duration,
    /// A WebSocket's time to say hello, the server's ping interval, and
    /// the silence after which it is closed.
    pub ws_hello: Duration,
    pub ws_ping: Duration,
    pub ws_idle: Duration,
    /// A request head's time to arrive in full, counted from when the
    /// server waits for it: also how long an idle kept-alive connection
    /// stays open.
    pub header_timeout: Duration,
    /// A request body's time to arrive in full.
    pub body_timeout: Duration,
    /// Connections one address may hold at once (0: no cap; not applied
    /// behind a proxy, where every connection is the proxy's).
    pub connections_per_address: usize,
    /// When set, `/metrics` answers only `Authorization: Bearer <this>`.
    pub metrics_token: Option<String>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            games_in_memory: 1000,
            games_per_minute: 30,
            games_burst: 20,
            analyses_per_minute: 60,
            analyses_burst: 20,
            studies_per_hour: 30,
            engine_per_client: 2,
            engine_queue: 64,
            sockets_total: 5000,
            sockets_per_client: 20,
            first_move: Duration::from_secs(60),
            ws_hello: Duration::from_secs(10),
            ws_ping: Duration::from_secs(20),
            ws_idle: Duration::from_secs(60),
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(20),
            connections_per_address: 256,
            metrics_token: None,
        }
    }
}

/// A client's address: the peer's, or behind a proxy the one the proxy
/// adds last to `X-Forwarded-For`. IPv6 addresses count by their /64, the
/// block one subscriber usually holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Client(pub ClientKey);

/// Whether `X-Forwarded-For` is to be believed (set once at start).
#[derive(Clone, Copy, Debug, Default)]
pub struct BehindProxy(pub bool);

pub(crate) fn block_of(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
        v4 => v4,
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Client {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Client, Self::Rejection> {
        let proxied = parts.extensions.get::<BehindProxy>().is_some_and(|b| b.0);
        let forwarded = proxied
            .then(|| {
                parts
                    .headers
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
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|c| c.0.ip());
        // Requests handed to the router without a connection (tests) share
        // one unspecified address.
        let ip = forwarded
            .or(peer)
            .unwrap_or(IpAddr::V6(Ipv6Addr::UNSPECIFIED));
        Ok(Client(block_of(ip)))
    }
}

/// A token bucket per client address.
pub struct Rate {
    limiter: Option<DefaultKeyedRateLimiter<ClientKey>>,
    what: &'static str,
}

impl Rate {
    /// `per_minute` 0 means no limit; `what` is the key of the words for
    /// what is limited.
    pub fn new(per_minute: u32, burst: u32, what: &'static str) -> Rate {
        let limiter = NonZeroU32::new(per_minute).map(|n| {
            let burst = NonZeroU32::new(burst).unwrap_or(n);
            RateLimiter::keyed(Quota::per_minute(n).allow_burst(burst))
        });
        Rate { limiter, what }
    }

    /// As `new`, counted by the hour: all of `per_hour` may be used at once.
    pub fn per_hour(per_hour: u32, burst: u32, what: &'static str) -> Rate {
        let limiter = NonZeroU32::new(per_hour).map(|n| {
            let burst = NonZeroU32::new(burst).unwrap_or(n);
            RateLimiter::keyed(Quota::per_hour(n).allow_burst(burst))
        });
        Rate { limiter, what }
    }

    pub fn check(&self, client: Client) -> ApiResult<()> {
        let Some(l) = &self.limiter else {
            return Ok(());
        };
        l.check_key(&client.0).map_err(|not_until| {
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            ApiError::RateLimited {
                message: {
                    let lang = crate::i18n::current();
                    crate::i18n::Text::new("server.rate_limited")
                        .arg("what", crate::i18n::Text::new(self.what).render(lang))
                        .arg("secs", wait.as_secs() + 1)
                        .render(lang)
                },
                retry_after: wait,
            }
        })
    }

    /// Forgets clients whose bucket is full again (bounds the memory).
    pub fn forget_idle(&self) {
        if let Some(l) = &self.limiter {
            l.retain_recent();
            l.shrink_to_fit();
        }
    }
}

/// Counts open WebSockets, in all and by client.
pub struct Sockets {
    total: AtomicUsize,
    by_client: Mutex<HashMap<ClientKey, usize>>,
    max_total: usize,
    max_per_client: usize,
}

/// One open socket; dropping it frees its place.
pub struct SocketPlace {
    sockets: Arc<Sockets>,
    client: ClientKey,
}

impl Sockets {
    pub fn new(max_total: usize, max_per_client: usize) -> Arc<Sockets> {
        Arc::new(Sockets {
            total: AtomicUsize::new(0),
            by_client: Mutex::new(HashMap::new()),
            max_total,
            max_per_client,
        })
    }

    /// A place for one more socket of `client`, or why there is none.
    pub fn take(self: &Arc<Self>, client: Client) -> ApiResult<SocketPlace> {
        let mut by = self.by_client.lock().unwrap_or_else(|p| p.into_inner());
        let mine = by.get(&client.0).copied().unwrap_or(0);
        if mine >= self.max_per_client {
            return Err(ApiError::RateLimited {
                message: format!(
                    "at most {} live connections from one address",
                    self.max_per_client
                ),
                retry_after: Duration::from_secs(5),
            });
        }
        if self.total.load(Ordering::Relaxed) >= self.max_total {
            return Err(ApiError::busy(
                "the server holds as many live connections as it may; try again later",
            ));
        }
        by.insert(client.0, mine + 1);
        self.total.fetch_add(1, Ordering::Relaxed);
        Ok(SocketPlace {
            sockets: self.clone(),
            client: client.0,
        })
    }

    pub fn open(&self) -> usize {
        self.total.load(Ordering::Relaxed)
    }
}

impl Drop for SocketPlace {
    fn drop(&mut self) {
        let mut by = self
            .sockets
            .by_client
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        if let Some(n) = by.get_mut(&self.client) {
            *n -= 1;
            if *n == 0 {
                by.remove(&self.client);
            }
        }
        self.sockets.total.fetch_sub(1, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::Ipv4Addr;

    fn client(n: u8) -> Client {
        Client(IpAddr::V4(Ipv4Addr::new(192, 0, 2, n)))
    }

    #[test]
    fn a_bucket_refuses_past_its_burst_and_says_when() {
        let rate = Rate::new(6, 3, "server.what_games");
        for _ in 0..3 {
            rate.check(client(1)).unwrap();
        }
        let e = rate.check(client(1)).unwrap_err();
        let ApiError::RateLimited {
            message,
            retry_after,
        } = e
        else {
            panic!("not a rate limit");
        };
        // 6 a minute: one more every 10 s.
        assert!(retry_after <= Duration::from_secs(10) && retry_after > Duration::from_secs(8));
        assert!(
            message.starts_with("too many requests (new games)"),
            "{message}"
        );
        // Another client has its own bucket.
        rate.check(client(2)).unwrap();
        // No limit at all when the host sets 0.
        let free = Rate::new(0, 0, "x");
        for _ in 0..1000 {
            free.check(client(1)).unwrap();
        }
    }

    #[test]
    fn socket_places_are_bounded_and_given_back() {
        let s = Sockets::new(3, 2);
        let a = s.take(client(1)).unwrap();
        let _b = s.take(client(1)).unwrap();
        assert!(s.take(client(1)).is_err(), "a third from one client");
        let _c = s.take(client(2)).unwrap();
        assert!(s.take(client(3)).is_err(), "a fourth in all");
        drop(a);
        assert_eq!(s.open(), 2);
        assert!(s.take(client(1)).is_ok());
    }

    #[test]
    fn ipv6_clients_count_by_their_block() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::9".parse().unwrap();
        assert_eq!(block_of(a), block_of(b));
        let mapped: IpAddr = "::ffff:192.0.2.7".parse().unwrap();
        assert_eq!(block_of(mapped), IpAddr::V4(Ipv4Addr::new(192, 0, 2, 7)));
    }
}
