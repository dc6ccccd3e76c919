//! The one error type of the HTTP edge: a status, a message for people,
//! and the rule of RULES.md it cites. Internal failures are logged with an
//! id and answered with that id only, never with their details.

use std::time::Duration;

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::games::refusal::{CoreError, Refusal};
use crate::i18n::{Arg, Lang, Text};
use crate::store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The client's request cannot be done: 4xx with its message.
    #[error("{message}")]
    Refused {
        status: StatusCode,
        /// In English; `text`, when there is one, renders it in any language.
        message: String,
        rule: Option<String>,
        text: Option<Text>,
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
    /// What went wrong, for programs: the key of the message's words.
    #[serde(skip_serializing_if = "Option::is_none")]
    code: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<&'a str>,
}

impl ApiError {
    fn refused(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError::Refused {
            status,
            message: message.into(),
            rule: None,
            text: None,
        }
    }

    /// A refusal in words of the translation files.
    pub fn said(status: StatusCode, text: Text) -> ApiError {
        ApiError::Refused {
            status,
            message: text.render(Lang::En),
            rule: None,
            text: Some(text),
        }
    }

    /// A move that breaks a rule: the rule, and why, in any language.
    pub fn illegal(e: &legion_rules::Illegal) -> ApiError {
        ApiError::Refused {
            status: StatusCode::BAD_REQUEST,
            message: e.to_string(),
            rule: Some(e.rule().to_string()),
            text: Some(
                Text::new("illegal.with_rule")
                    .with("illegal", crate::i18n::Arg::Illegal(Box::new(e.clone()))),
            ),
        }
    }

    /// Words that cite a rule of RULES.md: `message` in English (the rules
    /// library's own), `text` for any language.
    pub fn cited(rule: &str, message: String, text: Text) -> ApiError {
        ApiError::Refused {
            status: StatusCode::BAD_REQUEST,
            message,
            rule: Some(rule.to_string()),
            text: Some(text),
        }
    }

    /// A move that cannot be read or played.
    pub fn bad_move(e: &legion_rules::MoveParseError) -> ApiError {
        match e {
            legion_rules::MoveParseError::Illegal(i) => ApiError::illegal(i),
            other => ApiError::cited(
                other.rule(),
                other.to_string(),
                crate::i18n::reading::typed_move(other),
            ),
        }
    }

    /// A position that cannot be read (6.2 and the rules it breaks).
    pub fn bad_lfen(e: &legion_rules::LfenError) -> ApiError {
        ApiError::cited(e.rule(), e.to_string(), crate::i18n::reading::lfen(e))
    }

    /// A game record that cannot be read (6.5).
    pub fn bad_record(e: &legion_rules::record::RecordError) -> ApiError {
        ApiError::cited(e.rule(), e.to_string(), crate::i18n::reading::record(e))
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

    /// The JSON body in the language of the request being answered; an
    /// internal error is logged here under a new id.
    pub fn body(&self) -> serde_json::Value {
        self.body_in(crate::i18n::current())
    }

    pub fn body_in(&self, lang: Lang) -> serde_json::Value {
        let rendered;
        let (error, rule, id) = match self {
            ApiError::Refused {
                message,
                rule,
                text: Some(t),
                ..
            } if lang != Lang::En => {
                rendered = t.render(lang);
                (rendered.as_str(), rule.as_deref(), None)
            }
            ApiError::Refused { message, rule, .. } => (message.as_str(), rule.as_deref(), None),
            ApiError::RateLimited { message, .. } => (message.as_str(), None, None),
            ApiError::Internal(detail) => {
                let id = crate::games::ids::random_id(12);
                if crate::http::logs::error_line() {
                    tracing::error!(error_id = %id, "{detail}");
                }
                return serde_json::json!({"error": "internal error", "id": id});
            }
        };
        let code = match self {
            ApiError::Refused { text: Some(t), .. } => Some(code_of(t)),
            ApiError::RateLimited { .. } => Some("server.rate_limited"),
            _ => None,
        };
        serde_json::to_value(Body {
            error,
            rule,
            code,
            id,
        })
        .unwrap_or_default()
    }
}

/// The key of a text, or of the explanation or words it carries first.
fn code_of(t: &Text) -> &'static str {
    match t.args.first() {
        Some((_, crate::i18n::Arg::Illegal(e))) => crate::i18n::illegal_text(e, Lang::En).key,
        Some((_, crate::i18n::Arg::Words(w))) => code_of(w),
        _ => t.key,
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        match e {
            // Another request (perhaps on another server) came first.
            StoreError::Stale(_) => ApiError::said(
                axum::http::StatusCode::CONFLICT,
                crate::i18n::Text::new("server.game_changed"),
            ),
            e if e.unavailable() => {
                if crate::http::logs::error_line() {
                    tracing::error!("database unavailable: {e}");
                }
                ApiError::busy("database unavailable: try again in a moment")
            }
            e => ApiError::Internal(e.to_string()),
        }
    }
}

impl From<Refusal> for ApiError {
    /// The status and words of each refusal of the core; the keys are the
    /// answer's `code` (docs/API.md).
    fn from(r: Refusal) -> ApiError {
        let said = |status, key| ApiError::said(status, Text::new(key));
        let conflict = |key| said(StatusCode::CONFLICT, key);
        match r {
            Refusal::NoGame(id) => ApiError::said(
                StatusCode::NOT_FOUND,
                Text::new("server.no_game").arg("id", id),
            ),
            Refusal::GameOver => conflict("server.game_over"),
            Refusal::GameAborted => conflict("server.game_aborted"),
            Refusal::NotStarted => conflict("server.not_started"),
            Refusal::NeedsSeat => said(StatusCode::FORBIDDEN, "server.needs_seat"),
            Refusal::OnlySeatedMove => said(StatusCode::FORBIDDEN, "server.only_seated_move"),
            Refusal::NotYourTurn(side) => ApiError::said(
                StatusCode::CONFLICT,
                Text::new("server.not_your_turn").with("side", Arg::Side(side)),
            ),
            Refusal::EngineThinking => conflict("server.engine_thinking"),
            Refusal::StaleMove { played, ply } => ApiError::said(
                StatusCode::CONFLICT,
                Text::new("server.stale_move")
                    .arg("played", played)
                    .arg("ply", ply),
            ),
            Refusal::Changed => conflict("server.game_changed"),
            Refusal::ChangedWhileThinking => conflict("server.changed_meanwhile"),
            Refusal::BadMove(e) => ApiError::bad_move(&e),
            Refusal::AskTakeback => conflict("server.ask_takeback"),
            Refusal::UseUndo => conflict("server.use_undo"),
            Refusal::NothingToUndo => conflict("server.nothing_to_undo"),
            Refusal::NoMoveOfYours => conflict("server.no_move_of_yours"),
            Refusal::NoDrawToAccept => conflict("server.no_draw_to_accept"),
            Refusal::NoDrawToDecline => conflict("server.no_draw_to_decline"),
            Refusal::NoTakebackToAccept => conflict("server.no_takeback_to_accept"),
            Refusal::NoTakebackToDecline => conflict("server.no_takeback_to_decline"),
            Refusal::TooLateToAbort => conflict("server.too_late_to_abort"),
            Refusal::RematchAfterEnd => conflict("server.rematch_after_end"),
            Refusal::RematchExists => conflict("server.rematch_exists"),
            Refusal::NoRematchOffer => conflict("server.no_rematch_offer"),
            Refusal::NoInvite => said(StatusCode::FORBIDDEN, "server.no_invite"),
            Refusal::WrongInvite => said(StatusCode::FORBIDDEN, "server.wrong_invite"),
            Refusal::InviteUsed => conflict("server.invite_used"),
            Refusal::AlreadySeated => conflict("server.already_seated"),
            Refusal::AnalysisAfterEnd => conflict("server.analysis_after_end"),
            Refusal::AnalysisCut => said(StatusCode::SERVICE_UNAVAILABLE, "server.analysis_cut"),
            Refusal::EngineBusy => said(StatusCode::SERVICE_UNAVAILABLE, "server.engine_busy"),
            Refusal::EngineTooMany(n) => ApiError::RateLimited {
                message: Text::new("server.engine_too_many")
                    .arg("count", n)
                    .render(crate::i18n::current()),
                retry_after: Duration::from_secs(1),
            },
        }
    }
}

impl From<CoreError> for ApiError {
    fn from(e: CoreError) -> ApiError {
        match e {
            CoreError::Refused(r) => r.into(),
            CoreError::Store(e) => e.into(),
            CoreError::Internal(detail) => ApiError::Internal(detail),
        }
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
    fn reading_errors_keep_their_rule_and_say_what_went_wrong() {
        let e =
            legion_rules::Position::from_lfen("8/8 w", legion_rules::Rules::DEFAULT).unwrap_err();
        let body = ApiError::bad_lfen(&e).body_in(Lang::Ru);
        assert_eq!(body["rule"], "6.2");
        assert_eq!(body["code"], "lfen.field_count");
        assert!(
            body["error"].as_str().unwrap().starts_with("6.2: "),
            "{body}"
        );
        let en = ApiError::bad_lfen(&e).body_in(Lang::En);
        assert_eq!(en["error"], e.to_string());
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
