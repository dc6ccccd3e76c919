//! The account routes (docs/API.md, "Accounts"): register, sign in, sign
//! out, the signed-in account, password change, deletion, and public
//! profiles. The session is a cookie (`legion_session`: `HttpOnly`,
//! `SameSite=Lax`, `Secure` when the public origin is https), read once
//! here into a `SessionId`.

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;

use crate::games::ids::SessionId;
use crate::http::api::{App, body};
use crate::http::error::{ApiError, ApiResult};
use crate::http::limits::Client;
use crate::i18n::Text;
use crate::players::accounts::{AccountError, AccountRefusal, SESSION_DAYS, SignedIn};

/// The session cookie's name.
pub const COOKIE: &str = "legion_session";

/// The session id of the request's cookie; a value that is no id of ours
/// is no session.
pub fn session_of(headers: &HeaderMap) -> Option<SessionId> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE)
        .and_then(|(_, value)| SessionId::parse(value.trim()).ok())
}

impl From<AccountError> for ApiError {
    fn from(e: AccountError) -> ApiError {
        let said = |status, key| ApiError::said(status, Text::new(key));
        match e {
            AccountError::Refused(r) => match r {
                AccountRefusal::BadUsername => said(StatusCode::BAD_REQUEST, "server.bad_username"),
                AccountRefusal::Reserved => {
                    said(StatusCode::BAD_REQUEST, "server.reserved_username")
                }
                AccountRefusal::Taken => said(StatusCode::CONFLICT, "server.username_taken"),
                AccountRefusal::BadPassword => said(StatusCode::BAD_REQUEST, "server.bad_password"),
                AccountRefusal::WrongCredentials => {
                    said(StatusCode::UNAUTHORIZED, "server.wrong_credentials")
                }
                AccountRefusal::NotSignedIn => {
                    said(StatusCode::UNAUTHORIZED, "server.not_signed_in")
                }
                AccountRefusal::TooManyAttempts(wait) => ApiError::RateLimited {
                    message: Text::new("server.too_many_sign_ins")
                        .arg("secs", wait.as_secs() + 1)
                        .render(crate::i18n::current()),
                    retry_after: wait,
                },
            },
            AccountError::Store(e) => e.into(),
            AccountError::Internal(detail) => ApiError::Internal(detail),
        }
    }
}

/// `Set-Cookie` for a new session, or to end one (`None`).
fn cookie(app: &App, session: Option<&SessionId>) -> ApiResult<HeaderValue> {
    let secure = if app.secure_cookies { "; Secure" } else { "" };
    let text = match session {
        Some(s) => format!(
            "{COOKIE}={}; Path=/; HttpOnly; SameSite=Lax; Max-Age={}{secure}",
            s.as_str(),
            SESSION_DAYS * 86_400
        ),
        None => format!("{COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0{secure}"),
    };
    HeaderValue::from_str(&text).map_err(ApiError::internal)
}

/// The answer to a sign-in or registration: the account and its cookie.
fn signed_in(app: &App, status: StatusCode, s: &SignedIn) -> ApiResult<Response> {
    let mut r = (status, axum::Json(&s.profile)).into_response();
    r.headers_mut()
        .insert(header::SET_COOKIE, cookie(app, Some(&s.session))?);
    // Nothing about an account is to be kept by a shared cache.
    r.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(r)
}

#[derive(Deserialize)]
struct Credentials {
    username: String,
    password: String,
}

pub async fn register(
    State(app): State<App>,
    client: Client,
    headers: HeaderMap,
    b: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let req: Credentials = body(b)?;
    app.registrations.check(client)?;
    let s = app
        .accounts
        .register(&req.username, &req.password, session_of(&headers).as_ref())
        .await?;
    signed_in(&app, StatusCode::CREATED, &s)
}

pub async fn login(
    State(app): State<App>,
    client: Client,
    headers: HeaderMap,
    b: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let req: Credentials = body(b)?;
    app.sign_ins.check(client)?;
    let s = app
        .accounts
        .sign_in(&req.username, &req.password, session_of(&headers).as_ref())
        .await?;
    signed_in(&app, StatusCode::OK, &s)
}

pub async fn logout(State(app): State<App>, headers: HeaderMap) -> ApiResult<Response> {
    app.accounts
        .end_session(session_of(&headers).as_ref())
        .await?;
    let mut r = axum::Json(json!({})).into_response();
    r.headers_mut()
        .insert(header::SET_COOKIE, cookie(&app, None)?);
    Ok(r)
}

pub async fn me(State(app): State<App>, headers: HeaderMap) -> ApiResult<Response> {
    match app
        .accounts
        .signed_in(session_of(&headers).as_ref())
        .await?
    {
        Some(s) => {
            let mut r = axum::Json(&s.profile).into_response();
            r.headers_mut()
                .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
            Ok(r)
        }
        None => Err(AccountError::from(AccountRefusal::NotSignedIn).into()),
    }
}

#[derive(Deserialize)]
struct PasswordChange {
    old: String,
    new: String,
}

pub async fn password(
    State(app): State<App>,
    client: Client,
    headers: HeaderMap,
    b: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let req: PasswordChange = body(b)?;
    app.sign_ins.check(client)?;
    let s = app
        .accounts
        .change_password(session_of(&headers).as_ref(), &req.old, &req.new)
        .await?;
    signed_in(&app, StatusCode::OK, &s)
}

#[derive(Deserialize)]
struct Deletion {
    password: String,
}

pub async fn delete(
    State(app): State<App>,
    client: Client,
    headers: HeaderMap,
    b: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let req: Deletion = body(b)?;
    app.sign_ins.check(client)?;
    app.accounts
        .delete(session_of(&headers).as_ref(), &req.password)
        .await?;
    let mut r = axum::Json(json!({})).into_response();
    r.headers_mut()
        .insert(header::SET_COOKIE, cookie(&app, None)?);
    Ok(r)
}

pub async fn user(State(app): State<App>, Path(name): Path<String>) -> ApiResult<Response> {
    match app.accounts.profile(&name).await? {
        Some(p) => Ok(axum::Json(p).into_response()),
        None => Err(ApiError::said(
            StatusCode::NOT_FOUND,
            Text::new("server.no_user").arg("name", name.chars().take(40).collect::<String>()),
        )),
    }
}
