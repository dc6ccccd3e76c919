//! HTTP routes (docs/API.md). Every request is validated: malformed JSON,
//! missing or mistyped fields, bad positions or moves, wrong tokens and
//! oversized bodies all get a JSON error with a 4xx status, never a panic.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use legion_rules::explain::find_move;
use legion_rules::notation::{canonical, human, parse_move};
use legion_rules::{Game, Position, Record, Square};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Value, json};
use tokio::sync::watch;

use crate::games::hub::{Hub, NewGame};
use crate::games::ids::{GameId, InviteCode, SeatToken};
use crate::games::live::rules_of;
use crate::games::model::{Mode, Side};
use crate::games::offers::Action;
use crate::games::refusal::Refusal;
use crate::games::seats::{Seat, Who};
use crate::games::view;
use crate::http::error::{ApiError, ApiResult};
use crate::http::guard::{Edge, Site};
use crate::http::limits::{Client, Limits, Rate, Sockets};
use crate::http::{account, assets, chat, endgames, lobby, profiles, puzzles, studies, ws};
use crate::i18n::reading;
use crate::i18n::{self, Lang};
use crate::studies::model::MAX_STUDY_BYTES;

pub const MAX_BODY: usize = 64 * 1024;
/// Longest move text accepted, over HTTP and WebSocket alike.
pub const MAX_MOVE: usize = 64;
/// The longest LFEN read, in bytes.
pub const MAX_LFEN: usize = 200;

/// What every handler may use.
#[derive(Clone)]
pub struct App {
    pub hub: Arc<Hub>,
    /// Seeks, pools and challenges (issue 20).
    pub lobby: Arc<crate::lobby::Lobby>,
    pub limits: Arc<Limits>,
    pub new_games: Arc<Rate>,
    pub analyses: Arc<Rate>,
    /// Solved endings (`--endgames`), if the server has them.
    pub endgames: Option<Arc<legion_engine::endgames::Tablebase>>,
    /// Endings solved on demand into that folder, if the server does.
    pub solving: Option<Arc<crate::engine::solving::Solving>>,
    /// `GET /api/endgame` per client, as analyses.
    pub endgames_rate: Arc<Rate>,
    pub sockets: Arc<Sockets>,
    /// Turns true when the server stops (sockets close with 1001).
    pub shutdown: watch::Receiver<bool>,
    pub accounts: Arc<crate::players::accounts::Accounts>,
    /// Sign-in attempts (and password confirmations) per client.
    pub sign_ins: Arc<Rate>,
    pub registrations: Arc<Rate>,
    /// Puzzle attempts per client (issue 21).
    pub puzzle_attempts: Arc<Rate>,
    /// New studies per client (and hour).
    pub new_studies: Arc<Rate>,
    /// Whether session cookies are `Secure` (the public origin is https).
    pub secure_cookies: bool,
    /// `--public-origin`, for full addresses (a record's `Site`).
    pub public_origin: Option<String>,
}

/// A JSON answer made of text already serialised.
fn json_text(status: StatusCode, text: String) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], text).into_response()
}

fn state_response(state: &RawValue) -> Response {
    json_text(StatusCode::OK, state.get().to_string())
}

/// Reads a JSON body into `T`, with errors in the API's form.
pub(crate) fn body<T: DeserializeOwned>(bytes: Result<Bytes, BytesRejection>) -> ApiResult<T> {
    let bytes = bytes.map_err(|e| {
        ApiError::status_with(e.status(), format!("request body: {}", e.body_text()))
    })?;
    let bytes: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) {
        b"{}"
    } else {
        &bytes
    };
    serde_json::from_slice(bytes).map_err(|e| ApiError::bad_request(format!("bad JSON: {e}")))
}

/// The seat token of `Authorization: Bearer <token>`; a text that is no
/// token of ours holds no seat.
fn bearer(headers: &HeaderMap) -> Option<SeatToken> {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .and_then(|t| SeatToken::parse(t.trim()).ok())
}

/// Who asks, read once where the request arrives: the bearer token, and
/// the account of the session cookie (a signed-in player's session is
/// their seat).
impl axum::extract::FromRequestParts<App> for Who {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        app: &App,
    ) -> Result<Who, ApiError> {
        who(app, &parts.headers).await
    }
}

/// `Who` from a request's headers; the account is looked up only when a
/// cookie is sent.
pub(crate) async fn who(app: &App, headers: &HeaderMap) -> ApiResult<Who> {
    let user = match account::session_of(headers) {
        Some(s) => app.accounts.account_of(Some(&s)).await?,
        None => None,
    };
    Ok(Who {
        token: bearer(headers),
        user,
    })
}

/// The game of a request's path (`/api/games/{id}/…`), read once: a text
/// that is no id of ours names no game (404).
pub struct GamePath(pub GameId);

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for GamePath {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> Result<GamePath, ApiError> {
        let Path(raw) = Path::<String>::from_request_parts(parts, state)
            .await
            .map_err(|e| ApiError::bad_request(e.body_text()))?;
        GameId::parse(&raw)
            .map(GamePath)
            .map_err(|_| Refusal::NoGame(raw).into())
    }
}

pub fn router(app: App, site: Site) -> Router {
    let edge = Edge {
        site: Arc::new(site),
        metrics: app.hub.metrics.clone(),
    };
    Router::new()
        .route("/", get(page))
        .route("/g/{id}", get(page))
        .route("/analysis", get(page))
        .route("/rules", get(page))
        .route("/learn", get(page))
        .route("/learn/{task}", get(page))
        .route("/@/{name}", get(page))
        .route("/players", get(page))
        .route("/tv", get(page))
        .route("/puzzles", get(page))
        .route("/puzzles/{*rest}", get(page))
        .route("/study/{id}", get(page))
        .route("/account", get(page))
        .route("/signin", get(page))
        .route("/static/{file}", get(static_file))
        .route("/healthz", get(healthz))
        .route("/metrics", get(metrics))
        .route("/api/rules.html", get(rules_html))
        .route("/api/account", get(account::me))
        .route("/api/account/register", post(account::register))
        .route("/api/account/login", post(account::login))
        .route("/api/account/logout", post(account::logout))
        .route("/api/account/password", post(account::password))
        .route("/api/account/delete", post(account::delete))
        .route("/api/users/{name}", get(profiles::user))
        .route("/api/users/{name}/archive", get(profiles::archive))
        .route("/api/users/{name}/games", get(profiles::export))
        .route("/api/leaderboard", get(profiles::leaderboard))
        .route("/api/tv", get(profiles::tv))
        .route("/api/puzzles/next", get(puzzles::next))
        .route("/api/puzzles/daily", get(puzzles::daily))
        .route("/api/puzzles/themes", get(puzzles::themes))
        .route("/api/puzzles/{id}", get(puzzles::one))
        .route("/api/puzzles/{id}/attempt", post(puzzles::attempt))
        .route("/api/account/puzzles", get(puzzles::mine))
        .route("/api/account/playing", get(lobby::playing))
        .route("/api/account/studies", get(studies::mine))
        .route(
            "/api/studies",
            post(studies::create).layer(DefaultBodyLimit::max(MAX_STUDY_BYTES)),
        )
        .route(
            "/api/studies/{id}",
            get(studies::read)
                .put(studies::save)
                .delete(studies::delete)
                .layer(DefaultBodyLimit::max(MAX_STUDY_BYTES)),
        )
        .route(
            "/api/lobby/seeks",
            post(lobby::create_seek).get(lobby::list_seeks),
        )
        .route(
            "/api/lobby/seeks/{id}",
            get(lobby::get_seek).delete(lobby::cancel_seek),
        )
        .route("/api/lobby/seeks/{id}/accept", post(lobby::accept_seek))
        .route("/api/lobby/pools", get(lobby::list_pools))
        .route("/api/lobby/pools/{key}", post(lobby::join_pool))
        .route("/api/lobby/ws", get(lobby::socket))
        .route(
            "/api/challenges",
            post(lobby::challenge).get(lobby::challenges),
        )
        .route("/api/challenges/{id}/accept", post(lobby::accept_challenge))
        .route("/api/challenges/{id}/{action}", post(lobby::end_challenge))
        .route("/api/games", post(create_game))
        .route("/api/games/{id}", get(game_state))
        .route("/api/games/{id}/join", post(join))
        .route("/api/games/{id}/moves", post(play_move))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/takeback", post(takeback))
        .route("/api/games/{id}/abort", post(abort))
        .route("/api/games/{id}/rematch", post(rematch))
        .route(
            "/api/games/{id}/analysis",
            get(game_analysis).post(request_analysis),
        )
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/draw", post(draw))
        .route("/api/games/{id}/explain", post(game_explain))
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/chat", get(chat::read).post(chat::say))
        .route("/api/games/{id}/ws", get(ws::handler))
        .route("/api/position", post(position))
        .route("/api/explain", post(explain))
        .route("/api/analyse", post(analyse))
        .route("/api/endgame", get(endgames::endgame))
        .route("/api/records/parse", post(parse_record))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(
            edge,
            crate::http::guard::edge,
        ))
        .layer(crate::http::logs::layer())
        .with_state(app)
}

/// The app's page, in the reader's language.
async fn page(lang: Lang) -> Response {
    html(StatusCode::OK, assets::index(lang))
}

fn html(status: StatusCode, body: String) -> Response {
    (
        status,
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

async fn static_file(Path(file): Path<String>) -> Response {
    match assets::get(&file) {
        Some((bytes, kind)) => (
            [
                (header::CONTENT_TYPE, kind),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            bytes,
        )
            .into_response(),
        None => ApiError::not_found(format!("no file '{file}'")).into_response(),
    }
}

async fn rules_html(lang: Lang) -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::VARY, "Cookie, Accept-Language"),
        ],
        assets::rules_html(lang),
    )
        .into_response()
}

/// Programs get JSON; people who open an unknown page get a page.
async fn not_found(uri: axum::http::Uri, lang: Lang) -> Response {
    let path = uri.path();
    if path.starts_with("/api/") || path.starts_with("/static/") {
        return ApiError::said(
            StatusCode::NOT_FOUND,
            i18n::Text::new("server.nothing_at").arg("path", path),
        )
        .into_response();
    }
    html(StatusCode::NOT_FOUND, assets::not_found_page(lang))
}

async fn healthz(State(app): State<App>) -> Response {
    // A write, not a read: a locked, full, read-only or unreachable
    // database answers 503 with the reason (issue 19.14).
    match app.hub.store.check().await {
        Ok(()) => axum::Json(json!({"status": "ok"})).into_response(),
        Err(e) => {
            tracing::error!("health: {e}");
            ApiError::busy(format!("the database cannot be written: {e}")).into_response()
        }
    }
}

async fn metrics(State(app): State<App>, headers: axum::http::HeaderMap) -> Response {
    if let Some(want) = &app.limits.metrics_token {
        let given = headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .unwrap_or("");
        // Compared by hash, so the time taken says nothing of the token.
        use sha2::Digest;
        if sha2::Sha256::digest(given.as_bytes()) != sha2::Sha256::digest(want.as_bytes()) {
            let mut r = ApiError::status_with(
                StatusCode::UNAUTHORIZED,
                "the figures need the metrics token (Authorization: Bearer)",
            )
            .into_response();
            r.headers_mut()
                .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
            return r;
        }
    }
    let m = app.hub.metrics();
    let (waiting, running) = app.hub.pool.load();
    m.engine_waiting.set(waiting as i64);
    m.engine_running.set(running as i64);
    m.games_in_memory.set(app.hub.games.len() as i64);
    (
        [(
            header::CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        m.text(),
    )
        .into_response()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClockSpec {
    initial_s: f64,
    #[serde(default)]
    increment_s: f64,
}

#[derive(Deserialize)]
struct CreateGame {
    mode: String,
    color: Option<String>,
    level: Option<u8>,
    rules: Option<String>,
    start: Option<String>,
    clock: Option<ClockSpec>,
}

fn parse_rules(name: Option<&str>) -> ApiResult<legion_rules::Rules> {
    let name = name.unwrap_or("default");
    rules_of(name).ok_or_else(|| {
        ApiError::said(
            StatusCode::BAD_REQUEST,
            i18n::Text::new("server.bad_rules").arg("rules", name),
        )
    })
}

pub(crate) fn read_position(lfen: &str, rules: legion_rules::Rules) -> ApiResult<Position> {
    if lfen.len() > MAX_LFEN {
        return Err(ApiError::said(
            StatusCode::BAD_REQUEST,
            i18n::Text::new("server.lfen_too_long").arg("max", MAX_LFEN),
        ));
    }
    Position::from_lfen(lfen, rules).map_err(|e| ApiError::bad_lfen(&e))
}

#[derive(Serialize)]
struct CreatedBody<'a> {
    id: &'a GameId,
    /// `null` only for a rematch asked with a session and no token.
    token: Option<&'a SeatToken>,
    color: Seat,
    invite: Option<&'a InviteCode>,
    state: &'a RawValue,
}

fn random_side() -> Side {
    if crate::games::ids::random_id(1).as_bytes()[0].is_multiple_of(2) {
        Side::White
    } else {
        Side::Black
    }
}

async fn create_game(
    State(app): State<App>,
    client: Client,
    who: Who,
    b: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let req: CreateGame = body(b)?;
    let mode = Mode::parse(&req.mode).ok_or_else(|| {
        ApiError::said(
            StatusCode::BAD_REQUEST,
            i18n::Text::new("server.bad_mode").arg("mode", &req.mode),
        )
    })?;
    let color = match req.color.as_deref().unwrap_or("white") {
        "white" | "w" => Side::White,
        "black" | "b" => Side::Black,
        "random" => random_side(),
        other => {
            return Err(ApiError::said(
                StatusCode::BAD_REQUEST,
                i18n::Text::new("server.bad_color").arg("color", other),
            ));
        }
    };
    let level = req.level.unwrap_or(3);
    if !(1..=10).contains(&level) {
        return Err(ApiError::said(
            StatusCode::BAD_REQUEST,
            i18n::Text::new("server.bad_level").arg("level", level),
        ));
    }
    let rules = parse_rules(req.rules.as_deref())?;
    let start = match &req.start {
        Some(l) if !l.trim().is_empty() => read_position(l, rules)?,
        _ => Position::initial_with(rules),
    };
    if !start.has_legal_move() {
        return Err(ApiError::cited(
            "5.2",
            "5.2: the side to move has no legal move in that position".into(),
            i18n::cited("5.2", i18n::Text::new("server.start_without_moves")),
        ));
    }
    let clock = match req.clock {
        None => None,
        Some(c) => {
            let ok = c.initial_s.is_finite()
                && c.increment_s.is_finite()
                && (1.0..=36_000.0).contains(&c.initial_s)
                && (0.0..=600.0).contains(&c.increment_s);
            if !ok {
                return Err(ApiError::said(
                    StatusCode::BAD_REQUEST,
                    i18n::Text::new("server.bad_clock"),
                ));
            }
            Some((
                (c.initial_s * 1000.0) as i64,
                (c.increment_s * 1000.0) as i64,
            ))
        }
    };
    // Checked last, so that a refused request costs no token.
    app.new_games.check(client)?;
    let created = app
        .hub
        .create(
            NewGame {
                mode,
                color,
                level,
                rules,
                start,
                clock,
                creator: who.user,
            },
            client.0,
        )
        .await?;
    let text = serde_json::to_string(&CreatedBody {
        id: &created.id,
        token: Some(&created.token),
        color: created.seat,
        invite: created.invite.as_ref(),
        state: &created.state,
    })
    .map_err(ApiError::internal)?;
    Ok(json_text(StatusCode::CREATED, text))
}

#[derive(Deserialize)]
struct JoinRequest {
    invite: String,
}

#[derive(Serialize)]
struct JoinedBody<'a> {
    token: &'a SeatToken,
    color: Seat,
    state: &'a RawValue,
}

async fn join(
    State(app): State<App>,
    GamePath(id): GamePath,
    who: Who,
    client: Client,
    b: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let req: JoinRequest = body(b)?;
    // Guessing invites costs the same tokens as making games.
    app.new_games.check(client)?;
    // A text that is no invite of ours is a wrong invite.
    let invite =
        InviteCode::parse(&req.invite).map_err(|_| ApiError::from(Refusal::WrongInvite))?;
    let joined = app.hub.join(&id, &invite, &who).await?;
    let text = serde_json::to_string(&JoinedBody {
        token: &joined.token,
        color: joined.seat,
        state: &joined.state,
    })
    .map_err(ApiError::internal)?;
    Ok(json_text(StatusCode::OK, text))
}

async fn game_state(
    State(app): State<App>,
    GamePath(id): GamePath,
    who: Who,
) -> ApiResult<Response> {
    Ok(state_response(&app.hub.state(&id, &who).await?))
}

#[derive(Deserialize)]
struct MoveRequest {
    #[serde(rename = "move")]
    mv: String,
    ply: usize,
    token: Option<String>,
}

async fn play_move(
    State(app): State<App>,
    GamePath(id): GamePath,
    who: Who,
    client: Client,
    b: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let req: MoveRequest = body(b)?;
    let mut t = who;
    if t.token.is_none() {
        t.token = req.token.and_then(|t| SeatToken::parse(&t).ok());
    }
    if req.mv.len() > MAX_MOVE {
        return Err(move_too_long());
    }
    Ok(state_response(
        &app.hub.play(&id, &t, &req.mv, req.ply, client.0).await?,
    ))
}

pub fn move_too_long() -> ApiError {
    ApiError::said(
        StatusCode::BAD_REQUEST,
        i18n::Text::new("server.move_too_long").arg("max", MAX_MOVE),
    )
}

/// A POST whose body must be JSON (an empty object is enough).
fn no_fields(b: Result<Bytes, BytesRejection>) -> ApiResult<()> {
    body::<serde_json::Map<String, Value>>(b).map(|_| ())
}

#[derive(Deserialize)]
struct UndoRequest {
    /// The moves the asker saw: a retry takes back nothing more.
    ply: Option<usize>,
}

async fn undo(
    State(app): State<App>,
    GamePath(id): GamePath,
    who: Who,
    b: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let req: UndoRequest = body(b)?;
    Ok(state_response(&app.hub.undo(&id, &who, req.ply).await?))
}

async fn resign(
    State(app): State<App>,
    GamePath(id): GamePath,
    who: Who,
    b: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    no_fields(b)?;
    Ok(state_response(&app.hub.resign(&id, &who).await?))
}

async fn abort(
    State(app): State<App>,
    GamePath(id): GamePath,
    who: Who,
    b: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    no_fields(b)?;
    Ok(state_response(&app.hub.abort(&id, &who).await?))
}

#[derive(Deserialize)]
struct ActionRequest {
    action: String,
}

fn action(b: Result<Bytes, BytesRejection>, what: &str) -> ApiResult<Action> {
    let req: ActionRequest = body(b)?;
    match req.action.as_str() {
        "offer" => Ok(Action::Offer),
        "accept" => Ok(Action::Accept),
        "decline" => Ok(Action::Decline),
        other => Err(ApiError::bad_request(format!(
            "{what} action must be offer, accept or decline, not '{other}'"
        ))),
    }
}

async fn draw(
    State(app): State<App>,
    GamePath(id): GamePath,
    who: Who,
    client: Client,
    b: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let a = action(b, "draw")?;
    Ok(state_response(&app.hub.draw(&id, &who, a, client.0).await?))
}

async fn takeback(
    State(app): State<App>,
    GamePath(id): GamePath,
    who: Who,
    b: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let a = action(b, "takeback")?;
    Ok(state_response(&app.hub.takeback(&id, &who, a).await?))
}

/// `{"action": ...}`; against the engine or on one device the body may be `{}`.
async fn rematch(
    State(app): State<App>,
    GamePath(id): GamePath,
    who: Who,
    client: Client,
    b: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let req: serde_json::Map<String, Value> = body(b)?;
    let a = match req.get("action").and_then(Value::as_str) {
        None | Some("offer") => Action::Offer,
        Some("accept") => Action::Accept,
        Some("decline") => Action::Decline,
        Some(other) => {
            return Err(ApiError::bad_request(format!(
                "rematch action must be offer, accept or decline, not '{other}'"
            )));
        }
    };
    app.new_games.check(client)?;
    let me = who;
    match app.hub.rematch(&id, &me, a, client.0).await? {
        None => Ok(state_response(&app.hub.state(&id, &me).await?)),
        Some(r) => {
            // The rematch keeps each player's token (and account).
            let text = serde_json::to_string(&CreatedBody {
                id: &r.id,
                token: me.token.as_ref(),
                color: r.seat,
                invite: None,
                state: &r.state,
            })
            .map_err(ApiError::internal)?;
            Ok(json_text(StatusCode::CREATED, text))
        }
    }
}

async fn game_analysis(State(app): State<App>, GamePath(id): GamePath) -> ApiResult<Response> {
    Ok(axum::Json(app.hub.analysis(&id).await?).into_response())
}

/// Starts the engine's analysis of a finished game (once; anyone may ask).
async fn request_analysis(
    State(app): State<App>,
    GamePath(id): GamePath,
    client: Client,
    b: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    no_fields(b)?;
    app.analyses.check(client)?;
    let progress = app.hub.request_analysis(&id, client.0).await?;
    Ok((StatusCode::ACCEPTED, axum::Json(progress)).into_response())
}

async fn record(
    State(app): State<App>,
    GamePath(id): GamePath,
    headers: HeaderMap,
) -> ApiResult<Response> {
    // The public origin when the host set one, else the address the
    // request came to (its Host was checked by the guard).
    let site = match &app.public_origin {
        Some(o) => o.clone(),
        None => {
            let host = headers
                .get(header::HOST)
                .and_then(|h| h.to_str().ok())
                .unwrap_or("localhost");
            format!("http://{host}")
        }
    };
    let text = app.hub.record(&id, &site).await?;
    // The id is checked (base62) by the time the record exists.
    let disposition = HeaderValue::from_str(&format!("attachment; filename=\"legion-{id}.pgn\""))
        .map_err(ApiError::internal)?;
    Ok((
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/plain; charset=utf-8"),
            ),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        text,
    )
        .into_response())
}

#[derive(Deserialize)]
struct PositionRequest {
    lfen: String,
    rules: Option<String>,
}

async fn position(b: Result<Bytes, BytesRejection>) -> ApiResult<Response> {
    let req: PositionRequest = body(b)?;
    let pos = read_position(&req.lfen, parse_rules(req.rules.as_deref())?)?;
    let outcome = Game::new(pos).outcome();
    Ok(axum::Json(view::position(&pos, outcome)).into_response())
}

#[derive(Deserialize)]
struct ExplainRequest {
    lfen: Option<String>,
    rules: Option<String>,
    #[serde(default)]
    squares: Vec<String>,
    /// A move as typed, in either notation, instead of squares.
    #[serde(rename = "move")]
    typed: Option<String>,
}

fn explain_req(pos: &Position, req: &ExplainRequest, lang: Lang) -> ApiResult<Value> {
    let Some(text) = &req.typed else {
        return explain_in(pos, &req.squares, lang);
    };
    if text.len() > MAX_MOVE {
        return Err(move_too_long());
    }
    Ok(match parse_move(pos, text) {
        Ok(m) => json!({"legal": true, "move": view::legal_move_with_lfen(pos, m)}),
        Err(e) => json!({
            "legal": false,
            "error": reading::typed_move(&e).render(lang),
            "rule": e.rule(),
        }),
    })
}

fn explain_in(pos: &Position, squares: &[String], lang: Lang) -> ApiResult<Value> {
    if squares.len() > 20 {
        return Err(ApiError::bad_request("at most 20 squares"));
    }
    let list: Vec<Square> = squares
        .iter()
        .map(|s| {
            s.parse::<Square>()
                .map_err(|e| ApiError::bad_request(e.to_string()))
        })
        .collect::<ApiResult<_>>()?;
    Ok(match find_move(pos, &list) {
        Ok(m) => json!({"legal": true, "move": view::legal_move_with_lfen(pos, m)}),
        Err(e) => json!({"legal": false, "error": i18n::illegal(&e, lang), "rule": e.rule()}),
    })
}

async fn explain(lang: Lang, b: Result<Bytes, BytesRejection>) -> ApiResult<Response> {
    let req: ExplainRequest = body(b)?;
    let lfen = req
        .lfen
        .clone()
        .ok_or_else(|| ApiError::bad_request("missing field `lfen`"))?;
    let pos = read_position(&lfen, parse_rules(req.rules.as_deref())?)?;
    Ok(axum::Json(explain_req(&pos, &req, lang)?).into_response())
}

async fn game_explain(
    State(app): State<App>,
    GamePath(id): GamePath,
    lang: Lang,
    b: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let req: ExplainRequest = body(b)?;
    let pos = app.hub.position_of(&id).await?;
    Ok(axum::Json(explain_req(&pos, &req, lang)?).into_response())
}

#[derive(Deserialize)]
struct AnalyseRequest {
    lfen: String,
    rules: Option<String>,
    #[serde(default)]
    moves: Vec<String>,
    movetime_ms: Option<u64>,
    /// How many best lines (MultiPV), 1 to 3.
    lines: Option<usize>,
}

async fn analyse(
    State(app): State<App>,
    client: Client,
    b: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let req: AnalyseRequest = body(b)?;
    let mut pos = read_position(&req.lfen, parse_rules(req.rules.as_deref())?)?;
    if req.moves.len() > 1000 {
        return Err(ApiError::bad_request("at most 1000 moves"));
    }
    for (i, text) in req.moves.iter().enumerate() {
        if text.len() > MAX_MOVE {
            return Err(ApiError::bad_request(format!(
                "move {}: a move is at most {MAX_MOVE} characters",
                i + 1
            )));
        }
        let m = parse_move(&pos, text).map_err(|e| {
            // The error first: its key is the answer's code.
            let words = i18n::Text::new("server.bad_move_at")
                .with("error", i18n::Arg::Words(Box::new(reading::typed_move(&e))))
                .arg("number", i + 1)
                .arg("text", text);
            ApiError::cited(e.rule(), format!("move {} '{text}': {e}", i + 1), words)
        })?;
        pos.play(m);
    }
    let ms = req.movetime_ms.unwrap_or(1000).clamp(10, 10_000);
    let count = req.lines.unwrap_or(1);
    if !(1..=3).contains(&count) {
        return Err(ApiError::bad_request("lines: from 1 to 3"));
    }
    app.analyses.check(client)?;
    let found = app
        .hub
        .analyse(pos, Duration::from_millis(ms), count, client.0)
        .await?;
    let line = |out: &legion_engine::Outcome| {
        let mut p = pos;
        let mut pv = Vec::new();
        for &m in &out.pv {
            if !p.is_legal(m) {
                break;
            }
            pv.push(json!({"canonical": canonical(&p, m), "human": human(&p, m)}));
            p.play(m);
        }
        let best = out
            .best
            .map(|m| json!({"canonical": canonical(&pos, m), "human": human(&pos, m)}));
        json!({
            "score": legion_engine::search::score_text(out.score),
            "depth": out.depth,
            "nodes": out.nodes,
            "best": best,
            "pv": pv,
        })
    };
    // Best first (the engine sorts them): the answer's own score, depth
    // and move are line 1's.
    let lines: Vec<Value> = found.iter().map(line).collect();
    let Some(mut answer) = lines.first().cloned() else {
        return Err(Refusal::AnalysisCut.into());
    };
    answer["nodes"] = json!(found.iter().map(|o| o.nodes).sum::<u64>());
    answer["lines"] = json!(lines);
    Ok(axum::Json(answer).into_response())
}

#[derive(Deserialize)]
struct RecordRequest {
    text: String,
}

async fn parse_record(b: Result<Bytes, BytesRejection>) -> ApiResult<Response> {
    let req: RecordRequest = body(b)?;
    let r = Record::parse(&req.text).map_err(|e| ApiError::bad_record(&e))?;
    let mut moves = Vec::new();
    for (i, &m) in r.game.moves().iter().enumerate() {
        let before = &r.game.positions()[i];
        let after = &r.game.positions()[i + 1];
        // Everything a board needs to draw the move, as in a game's state.
        moves.push(view::played_move(before, m, i + 1, after));
    }
    let tags: serde_json::Map<String, Value> =
        r.tags.iter().map(|(k, v)| (k.clone(), json!(v))).collect();
    Ok(axum::Json(json!({
        "start": r.game.start().to_lfen(),
        "rules": r.game.start().rules().name(),
        "moves": moves,
        "tags": tags,
        "result": r.game.outcome().map_or("*", |o| o.result()),
    }))
    .into_response())
}
