//! The one error type of the HTTP edge: a status, a message for people,
//! and the rule of RULES.md it cites. Internal failures are logged with an
//! id and answered with that id only, never with their details.

use std::time::Duration;

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The client's request cannot be done: 4xx with its message.
    #[error("{message}")]
    Refused {
        status: StatusCode,
        message: String,
        rule: Option<String>,
    },
    /// Too many requests from one client; try again after `retry_after`.
    #[error("{message}")]
    RateLimited {
        message: String,
        retry_after: Duration,
    },
    /// A failure of ours (database, a task that died): 500.
    #[error("internal error: {0}")]
    Internal(String),
}

pub type ApiResult<T> = Result<T, ApiError>;

/// The JSON body of every error.
#[derive(Serialize)]
struct Body<'a> {
    error: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    rule: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<&'a str>,
}

impl ApiError {
    fn refused(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError::Refused {
            status,
            message: message.into(),
            rule: None,
        }
    }

    pub fn bad_request(message: impl Into<String>) -> ApiError {
        Self::refused(StatusCode::BAD_REQUEST, message)
    }

    pub fn forbidden(message: impl Into<String>) -> ApiError {
        Self::refused(StatusCode::FORBIDDEN, message)
    }

    pub fn not_found(message: impl Into<String>) -> ApiError {
        Self::refused(StatusCode::NOT_FOUND, message)
    }

    pub fn conflict(message: impl Into<String>) -> ApiError {
        Self::refused(StatusCode::CONFLICT, message)
    }

    pub fn busy(message: impl Into<String>) -> ApiError {
        Self::refused(StatusCode::SERVICE_UNAVAILABLE, message)
    }

    pub fn status_with(status: StatusCode, message: impl Into<String>) -> ApiError {
        Self::refused(status, message)
    }

    /// A refusal by the rules: the message of the rules library, which
    /// starts with the rule it cites ("4.2: ..."), with that rule.
    pub fn rule(status: StatusCode, message: impl Into<String>, rule: Option<&str>) -> ApiError {
        ApiError::Refused {
            status,
            message: message.into(),
            rule: rule.map(str::to_string),
        }
    }

    /// A message of the rules library: its rule is the number it starts with.
    pub fn from_rules_text(message: impl Into<String>) -> ApiError {
        let message = message.into();
        let rule = rule_in(&message).map(str::to_string);
        ApiError::Refused {
            status: StatusCode::BAD_REQUEST,
            message,
            rule,
        }
    }

    pub fn internal(e: impl std::fmt::Display) -> ApiError {
        ApiError::Internal(e.to_string())
    }

    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::Refused { status, .. } => *status,
            ApiError::RateLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The JSON body; an internal error is logged here under a new id.
    pub fn body(&self) -> serde_json::Value {
        let (error, rule, id) = match self {
            ApiError::Refused { message, rule, .. } => (message.as_str(), rule.as_deref(), None),
            ApiError::RateLimited { message, .. } => (message.as_str(), None, None),
            ApiError::Internal(detail) => {
                let id = crate::ids::random_id(12);
                tracing::error!(error_id = %id, "{detail}");
                return serde_json::json!({"error": "internal error", "id": id});
            }
        };
        serde_json::to_value(Body { error, rule, id }).unwrap_or_default()
    }
}

/// The rule a message of the rules library starts with: "4.2: ..." → 4.2.
// Issue 11 replaces this by the rules library's typed errors.
fn rule_in(message: &str) -> Option<&str> {
    let (r, _) = message.split_once(": ")?;
    let ok = (3..=4).contains(&r.len())
        && r.contains('.')
        && r.chars().all(|c| c.is_ascii_digit() || c == '.');
    ok.then_some(r)
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        ApiError::Internal(e.to_string())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status(), axum::Json(self.body())).into_response();
        if let ApiError::RateLimited { retry_after, .. } = &self {
            let secs = retry_after.as_secs_f64().ceil().max(1.0) as u64;
            if let Ok(v) = HeaderValue::from_str(&secs.to_string()) {
                response.headers_mut().insert(header::RETRY_AFTER, v);
            }
        }
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_numbers_are_taken_from_rules_messages() {
        let e = ApiError::from_rules_text("4.2: a Legion capture is mandatory");
        assert_eq!(e.body()["rule"], "4.2");
        assert_eq!(e.status(), StatusCode::BAD_REQUEST);
        assert!(
            ApiError::from_rules_text("bad JSON: x")
                .body()
                .get("rule")
                .is_none()
        );
        assert!(
            ApiError::from_rules_text("stale move: 3 moves")
                .body()
                .get("rule")
                .is_none()
        );
    }

    #[test]
    fn internal_errors_show_only_an_id() {
        let body = ApiError::internal("database: disk I/O error at /secret/path").body();
        assert_eq!(body["error"], "internal error");
        assert_eq!(body["id"].as_str().map(str::len), Some(12));
        assert!(!body.to_string().contains("secret"));
    }

    #[test]
    fn rate_limits_say_when_to_come_back() {
        let r = ApiError::RateLimited {
            message: "too many".into(),
            retry_after: Duration::from_millis(2500),
        }
        .into_response();
        assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(r.headers()[header::RETRY_AFTER], "3");
    }
}
