//! The edge every request passes: the site's names (`Host`), cross-site
//! protection (`Origin`, JSON bodies), request sizes, security headers,
//! JSON bodies on every error, and the count of answers by status.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::http::error::ApiError;
use crate::http::limits::BehindProxy;
use crate::i18n::Lang;
use crate::metrics::{Metrics, StatusLabel};

/// Longest request line (path and query) served.
pub const MAX_URI: usize = 4096;
/// Most bytes of headers served.
pub const MAX_HEADERS: usize = 16 * 1024;

pub const CSP: &str = "default-src 'self'; img-src 'self' data:; style-src 'self'; \
    frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/// Who the site is, for the checks on each request.
#[derive(Clone, Debug, Default)]
pub struct Site {
    /// The origin browsers see, `https://legion.example` (behind a proxy).
    pub public_origin: Option<String>,
    /// Host names served besides the loopback names and the public origin's.
    pub hosts: Vec<String>,
    /// Serve any `Host` (a public server with no name configured).
    pub any_host: bool,
    /// Believe `X-Forwarded-For` for the client's address.
    pub behind_proxy: bool,
}

const LOOPBACK_NAMES: &[&str] = &["localhost", "127.0.0.1", "[::1]"];

/// `host[:port]` → host, lowercased.
fn host_name(authority: &str) -> String {
    let a = authority.trim().to_ascii_lowercase();
    if a.starts_with('[') {
        // [::1]:8080
        return a
            .split_once(']')
            .map_or(a.clone(), |(h, _)| format!("{h}]"));
    }
    a.rsplit_once(':').map_or(a.clone(), |(h, _)| h.to_string())
}

/// Whether `Host` is a plain `name[:port]` or `[v6][:port]`: no user
/// part (`127.0.0.1:80@evil`), no path, no stray characters. Anything
/// else is refused before the name is compared, so that no reading of a
/// strange value can pass for a loopback name (issue 19.17).
fn well_formed_host(authority: &str) -> bool {
    let (host, port) = if let Some(rest) = authority.strip_prefix('[') {
        let Some((v6, after)) = rest.split_once(']') else {
            return false;
        };
        if v6.parse::<std::net::Ipv6Addr>().is_err() {
            return false;
        }
        match after {
            "" => return true,
            p => match p.strip_prefix(':') {
                Some(p) => ("x", Some(p)),
                None => return false,
            },
        }
    } else {
        match authority.split_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (authority, None),
        }
    };
    let name_ok = !host.is_empty()
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-');
    let port_ok =
        port.is_none_or(|p| !p.is_empty() && p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit()));
    name_ok && port_ok
}

impl Site {
    fn host_allowed(&self, host: Option<&str>) -> bool {
        if self.any_host {
            return true;
        }
        let Some(host) = host else { return false };
        let name = host_name(host);
        LOOPBACK_NAMES.contains(&name.as_str())
            || self.hosts.iter().any(|h| h.eq_ignore_ascii_case(&name))
            || self
                .public_origin
                .as_deref()
                .and_then(|o| o.split_once("://"))
                .is_some_and(|(_, a)| host_name(a) == name)
    }

    /// Whether a browser's `Origin` is this site: the configured public
    /// origin, or else the very host the request was sent to.
    fn origin_allowed(&self, origin: &str, host: Option<&str>) -> bool {
        if let Some(own) = &self.public_origin {
            return origin.eq_ignore_ascii_case(own.trim_end_matches('/'));
        }
        let Some((scheme, authority)) = origin.split_once("://") else {
            return false; // "null" and the like
        };
        matches!(scheme, "http" | "https")
            && host.is_some_and(|h| h.eq_ignore_ascii_case(authority))
    }
}

fn header_bytes(headers: &HeaderMap) -> usize {
    headers
        .iter()
        .map(|(k, v)| k.as_str().len() + v.len() + 4)
        .sum()
}

fn is_upgrade(req: &Request) -> bool {
    req.headers()
        .get(header::UPGRADE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("websocket"))
}

/// Refuses what must not reach the routes.
fn check(site: &Site, req: &Request) -> Result<(), ApiError> {
    if req.uri().to_string().len() > MAX_URI {
        return Err(ApiError::status_with(
            StatusCode::URI_TOO_LONG,
            format!("the address is longer than {MAX_URI} bytes"),
        ));
    }
    let headers = req.headers();
    if header_bytes(headers) > MAX_HEADERS {
        return Err(ApiError::status_with(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            format!("the headers are larger than {} KiB", MAX_HEADERS / 1024),
        ));
    }
    // This server is no proxy: a request names its target by path only
    // (an absolute URI would name a host besides `Host`), with one `Host`.
    if req.uri().scheme().is_some() || req.uri().authority().is_some() {
        return Err(ApiError::bad_request(
            "a request names its path only, not an absolute address",
        ));
    }
    if headers.get_all(header::HOST).iter().nth(1).is_some() {
        return Err(ApiError::bad_request("a request has one Host header"));
    }
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok());
    if host.is_some_and(|h| !well_formed_host(h)) {
        return Err(ApiError::bad_request(format!(
            "the Host '{}' is not a host name with an optional port",
            host.unwrap_or("")
        )));
    }
    if !site.host_allowed(host) {
        return Err(ApiError::bad_request(format!(
            "this server does not serve the host '{}'",
            host.unwrap_or("")
        )));
    }
    let changes = !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    if changes || is_upgrade(req) {
        if let Some(origin) = headers.get(header::ORIGIN) {
            let origin = origin.to_str().unwrap_or("");
            if !site.origin_allowed(origin, host) {
                return Err(ApiError::forbidden(format!(
                    "requests from other sites are refused (Origin '{origin}')"
                )));
            }
        }
        let cross = headers
            .get("sec-fetch-site")
            .is_some_and(|v| v.as_bytes() == b"cross-site");
        if cross {
            return Err(ApiError::forbidden("requests from other sites are refused"));
        }
    }
    if matches!(*req.method(), Method::POST | Method::PUT | Method::PATCH) {
        let json = headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"));
        if !json {
            return Err(ApiError::status_with(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "the body must be JSON, sent with Content-Type: application/json",
            ));
        }
    }
    Ok(())
}

/// An error answer without a body of its own (axum's 405) gets a JSON one.
fn with_json_error(resp: Response) -> Response {
    let status = resp.status();
    // Answers that say what they are (our JSON, the HTML 404 page) stay.
    let typed = resp.headers().contains_key(header::CONTENT_TYPE);
    if !(status.is_client_error() || status.is_server_error()) || typed {
        return resp;
    }
    let allow = resp.headers().get(header::ALLOW).cloned();
    let mut message = status
        .canonical_reason()
        .unwrap_or("error")
        .to_ascii_lowercase();
    if let Some(a) = allow.as_ref().and_then(|a| a.to_str().ok()) {
        message = format!("{message}: this address takes {a}");
    }
    let mut fixed = ApiError::status_with(status, message).into_response();
    if let Some(a) = allow {
        fixed.headers_mut().insert(header::ALLOW, a);
    }
    fixed
}

fn secure(headers: &mut HeaderMap) {
    let set = |h: &mut HeaderMap, name: &'static str, value: &'static str| {
        h.entry(name).or_insert(HeaderValue::from_static(value));
    };
    set(headers, "content-security-policy", CSP);
    set(headers, "x-content-type-options", "nosniff");
    set(headers, "x-frame-options", "DENY");
    set(headers, "referrer-policy", "same-origin");
    set(headers, "cross-origin-opener-policy", "same-origin");
}

#[derive(Clone)]
pub struct Edge {
    pub site: Arc<Site>,
    pub metrics: Arc<Metrics>,
}

pub async fn edge(State(edge): State<Edge>, mut req: Request<Body>, next: Next) -> Response {
    // Errors are written in the reader's language (crate::i18n).
    let lang = Lang::of(req.headers());
    let behind_proxy = edge.site.behind_proxy;
    let checked = check(&edge.site, &req);
    let mut resp = crate::i18n::LANG
        .scope(lang, async move {
            match checked {
                Err(e) => e.into_response(),
                Ok(()) => {
                    req.extensions_mut().insert(BehindProxy(behind_proxy));
                    with_json_error(next.run(req).await)
                }
            }
        })
        .await;
    secure(resp.headers_mut());
    edge.metrics
        .http
        .get_or_create(&StatusLabel {
            status: resp.status().as_u16(),
        })
        .inc();
    resp
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_are_the_loopback_names_and_the_configured_ones() {
        let site = Site::default();
        assert!(site.host_allowed(Some("127.0.0.1:8080")));
        assert!(site.host_allowed(Some("localhost")));
        assert!(site.host_allowed(Some("[::1]:80")));
        assert!(!site.host_allowed(Some("evil.example")));
        assert!(!site.host_allowed(None));
        let site = Site {
            public_origin: Some("https://legion.example".into()),
            hosts: vec!["play.example".into()],
            ..Site::default()
        };
        assert!(site.host_allowed(Some("Legion.Example")));
        assert!(site.host_allowed(Some("play.example:443")));
        assert!(!site.host_allowed(Some("legion.example.evil")));
    }

    #[test]
    fn hosts_are_plain_names_with_a_port() {
        for ok in [
            "127.0.0.1:8080",
            "localhost",
            "[::1]:80",
            "[::1]",
            "legion.example",
        ] {
            assert!(well_formed_host(ok), "{ok}");
        }
        for bad in [
            "127.0.0.1:80@evil",
            "evil@127.0.0.1",
            "127.0.0.1/x",
            "127.0.0.1:",
            "127.0.0.1:80:81",
            "[::1]x",
            "[evil]:80",
            "",
            "127.0.0.1 evil",
        ] {
            assert!(!well_formed_host(bad), "{bad}");
        }
    }

    #[test]
    fn origins_must_be_the_site_itself() {
        let site = Site::default();
        assert!(site.origin_allowed("http://127.0.0.1:8080", Some("127.0.0.1:8080")));
        assert!(!site.origin_allowed("http://evil.example", Some("127.0.0.1:8080")));
        assert!(!site.origin_allowed("http://127.0.0.1:9999", Some("127.0.0.1:8080")));
        assert!(!site.origin_allowed("null", Some("127.0.0.1:8080")));
        let site = Site {
            public_origin: Some("https://legion.example".into()),
            ..Site::default()
        };
        assert!(site.origin_allowed("https://legion.example", Some("127.0.0.1:8080")));
        assert!(!site.origin_allowed("http://legion.example", Some("legion.example")));
    }
}
