//! HTTP routes (docs/API.md). Every request is validated: malformed JSON,
//! missing or mistyped fields, bad positions or moves, wrong tokens and
//! oversized bodies all get a JSON error with a 4xx status, never a panic.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use legion_rules::explain::find_move;
use legion_rules::notation::{canonical, human, parse_move};
use legion_rules::{Color, Game, Position, Record, Square};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::hub::{ApiError, ApiResult, Hub, NewGame, rules_of};
use crate::{assets, view, ws};

pub const MAX_BODY: usize = 64 * 1024;

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        (status, axum::Json(self.json())).into_response()
    }
}

fn ok(v: Value) -> Response {
    axum::Json(v).into_response()
}

/// Reads a JSON body into `T`, with errors in the API's form.
fn body<T: DeserializeOwned>(bytes: Result<Bytes, BytesRejection>) -> ApiResult<T> {
    let bytes = bytes.map_err(|e| {
        ApiError::new(
            e.status().as_u16(),
            format!("request body: {}", e.body_text()),
        )
    })?;
    let bytes: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) {
        b"{}"
    } else {
        &bytes
    };
    serde_json::from_slice(bytes).map_err(|e| ApiError::new(400, format!("bad JSON: {e}")))
}

#[derive(Deserialize)]
struct TokenQuery {
    token: Option<String>,
}

/// The token of `Authorization: Bearer <token>`, or `?token=`.
fn token(headers: &HeaderMap, q: &TokenQuery) -> Option<String> {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(|t| t.trim().to_string())
        .or_else(|| q.token.clone())
}

type AppState = Arc<Hub>;

pub fn router(hub: Arc<Hub>) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/g/{id}", get(page))
        .route("/analysis", get(page))
        .route("/rules", get(page))
        .route("/static/{file}", get(static_file))
        .route("/api/rules.html", get(rules_html))
        .route("/api/games", post(create_game))
        .route("/api/games/{id}", get(game_state))
        .route("/api/games/{id}/moves", post(play_move))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/draw", post(draw))
        .route("/api/games/{id}/explain", post(game_explain))
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/ws", get(ws::handler))
        .route("/api/position", post(position))
        .route("/api/explain", post(explain))
        .route("/api/analyse", post(analyse))
        .route("/api/records/parse", post(parse_record))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(hub)
}

async fn page() -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        assets::index(),
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
        None => ApiError::new(404, format!("no file '{file}'")).into_response(),
    }
}

async fn rules_html() -> Response {
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        assets::RULES_HTML.as_str(),
    )
        .into_response()
}

async fn not_found(uri: axum::http::Uri) -> Response {
    ApiError::new(404, format!("nothing at {}", uri.path())).into_response()
}

#[derive(Deserialize)]
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
        ApiError::new(
            400,
            format!("rules must be 'default' or 'mate-ends-game', not '{name}'"),
        )
    })
}

fn read_position(lfen: &str, rules: legion_rules::Rules) -> ApiResult<Position> {
    if lfen.len() > 200 {
        return Err(ApiError::new(400, "an LFEN is at most 200 characters"));
    }
    Position::from_lfen(lfen, rules).map_err(|e| ApiError::new(400, e.to_string()))
}

async fn create_game(
    State(hub): State<AppState>,
    b: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let req: CreateGame = body(b)?;
    if !matches!(req.mode.as_str(), "engine" | "friend" | "local") {
        return Err(ApiError::new(
            400,
            format!("mode must be engine, friend or local, not '{}'", req.mode),
        ));
    }
    let color = match req.color.as_deref().unwrap_or("white") {
        "white" | "w" => Color::White,
        "black" | "b" => Color::Black,
        "random" => {
            if crate::hub::random_id(1).as_bytes()[0].is_multiple_of(2) {
                Color::White
            } else {
                Color::Black
            }
        }
        other => {
            return Err(ApiError::new(
                400,
                format!("color must be white, black or random, not '{other}'"),
            ));
        }
    };
    let level = req.level.unwrap_or(3);
    if !(1..=10).contains(&level) {
        return Err(ApiError::new(
            400,
            format!("level must be from 1 to 10, not {level}"),
        ));
    }
    let rules = parse_rules(req.rules.as_deref())?;
    let start = match &req.start {
        Some(l) if !l.trim().is_empty() => read_position(l, rules)?,
        _ => Position::initial_with(rules),
    };
    if !start.has_legal_move() {
        return Err(ApiError::new(
            400,
            "5.2: the side to move has no legal move in that position",
        ));
    }
    let clock = match req.clock {
        None => None,
        Some(c) => {
            let ok = c.initial_s.is_finite() && c.increment_s.is_finite();
            if !ok
                || !(1.0..=36_000.0).contains(&c.initial_s)
                || !(0.0..=600.0).contains(&c.increment_s)
            {
                return Err(ApiError::new(
                    400,
                    "clock: initial_s from 1 to 36000 seconds, increment_s from 0 to 600",
                ));
            }
            Some((
                (c.initial_s * 1000.0) as i64,
                (c.increment_s * 1000.0) as i64,
            ))
        }
    };
    let (state, token, invite, _) = hub
        .create(NewGame {
            mode: req.mode,
            color,
            level,
            rules,
            start,
            clock,
        })
        .await?;
    let body = json!({
        "id": state["id"],
        "token": token,
        "color": state["you"],
        "invite": invite,
        "state": state,
    });
    Ok((StatusCode::CREATED, axum::Json(body)).into_response())
}

async fn game_state(
    State(hub): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(q): Query<TokenQuery>,
) -> ApiResult<Response> {
    let t = token(&headers, &q);
    Ok(ok(hub.state(&id, t.as_deref()).await?))
}

#[derive(Deserialize)]
struct MoveRequest {
    #[serde(rename = "move")]
    mv: String,
    ply: usize,
    token: Option<String>,
}

async fn play_move(
    State(hub): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(q): Query<TokenQuery>,
    b: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let req: MoveRequest = body(b)?;
    let t = token(&headers, &q).or(req.token);
    if req.mv.len() > 64 {
        return Err(ApiError::new(400, "a move is at most 64 characters"));
    }
    Ok(ok(hub.play(&id, t.as_deref(), &req.mv, req.ply).await?))
}

async fn undo(
    State(hub): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(q): Query<TokenQuery>,
) -> ApiResult<Response> {
    let t = token(&headers, &q);
    Ok(ok(hub.undo(&id, t.as_deref()).await?))
}

async fn resign(
    State(hub): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(q): Query<TokenQuery>,
) -> ApiResult<Response> {
    let t = token(&headers, &q);
    Ok(ok(hub.resign(&id, t.as_deref()).await?))
}

#[derive(Deserialize)]
struct DrawRequest {
    action: String,
}

async fn draw(
    State(hub): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(q): Query<TokenQuery>,
    b: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let req: DrawRequest = body(b)?;
    let t = token(&headers, &q);
    Ok(ok(hub.draw(&id, t.as_deref(), &req.action).await?))
}

async fn record(State(hub): State<AppState>, Path(id): Path<String>) -> ApiResult<Response> {
    let text = hub.record(&id).await?;
    let disposition = HeaderValue::from_str(&format!("attachment; filename=\"legion-{id}.pgn\""))
        .unwrap_or(HeaderValue::from_static("attachment"));
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
    Ok(ok(view::position(&pos, outcome)))
}

#[derive(Deserialize)]
struct ExplainRequest {
    lfen: Option<String>,
    rules: Option<String>,
    squares: Vec<String>,
}

fn explain_in(pos: &Position, squares: &[String]) -> ApiResult<Value> {
    if squares.len() > 20 {
        return Err(ApiError::new(400, "at most 20 squares"));
    }
    let list: Vec<Square> = squares
        .iter()
        .map(|s| {
            s.parse::<Square>()
                .map_err(|e| ApiError::new(400, e.to_string()))
        })
        .collect::<ApiResult<_>>()?;
    Ok(match find_move(pos, &list) {
        Ok(m) => json!({"legal": true, "move": view::legal_move_with_lfen(pos, m)}),
        Err(e) => json!({"legal": false, "error": e.to_string(), "rule": e.rule()}),
    })
}

async fn explain(b: Result<Bytes, BytesRejection>) -> ApiResult<Response> {
    let req: ExplainRequest = body(b)?;
    let lfen = req
        .lfen
        .ok_or_else(|| ApiError::new(400, "missing field `lfen`"))?;
    let pos = read_position(&lfen, parse_rules(req.rules.as_deref())?)?;
    Ok(ok(explain_in(&pos, &req.squares)?))
}

async fn game_explain(
    State(hub): State<AppState>,
    Path(id): Path<String>,
    b: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let req: ExplainRequest = body(b)?;
    let pos = hub.position_of(&id).await?;
    Ok(ok(explain_in(&pos, &req.squares)?))
}

#[derive(Deserialize)]
struct AnalyseRequest {
    lfen: String,
    rules: Option<String>,
    #[serde(default)]
    moves: Vec<String>,
    movetime_ms: Option<u64>,
}

async fn analyse(
    State(hub): State<AppState>,
    b: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let req: AnalyseRequest = body(b)?;
    let mut pos = read_position(&req.lfen, parse_rules(req.rules.as_deref())?)?;
    if req.moves.len() > 1000 {
        return Err(ApiError::new(400, "at most 1000 moves"));
    }
    for (i, text) in req.moves.iter().enumerate() {
        let m = parse_move(&pos, text)
            .map_err(|e| ApiError::new(400, format!("move {} '{text}': {e}", i + 1)))?;
        pos.play(m);
    }
    let ms = req.movetime_ms.unwrap_or(1000).clamp(10, 10_000);
    let out = hub.analyse(pos, Duration::from_millis(ms)).await?;
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
    Ok(ok(json!({
        "score": legion_engine::search::score_text(out.score),
        "depth": out.depth,
        "nodes": out.nodes,
        "best": best,
        "pv": pv,
    })))
}

#[derive(Deserialize)]
struct RecordRequest {
    text: String,
}

async fn parse_record(b: Result<Bytes, BytesRejection>) -> ApiResult<Response> {
    let req: RecordRequest = body(b)?;
    let r = Record::parse(&req.text).map_err(|e| ApiError::new(400, e.to_string()))?;
    let mut moves = Vec::new();
    for (i, &m) in r.game.moves().iter().enumerate() {
        let before = &r.game.positions()[i];
        let after = &r.game.positions()[i + 1];
        moves.push(json!({"canonical": canonical(before, m), "human": human(before, m), "lfen": after.to_lfen()}));
    }
    let tags: serde_json::Map<String, Value> =
        r.tags.iter().map(|(k, v)| (k.clone(), json!(v))).collect();
    Ok(ok(json!({
        "start": r.game.start().to_lfen(),
        "rules": r.game.start().rules().name(),
        "moves": moves,
        "tags": tags,
        "result": r.game.outcome().map_or("*", |o| o.result()),
    })))
}
