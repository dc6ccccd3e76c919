//! `GET /api/endgame?lfen=…` (docs/API.md): the exact value of a position
//! with few pieces from the solved endings the server was given
//! (`legion serve --endgames DIR`), with every legal move's value, as
//! lichess's tablebase answers. Tables are read on demand, off the async
//! threads; the answers are rate-limited per client like analyses. An
//! ending without a table is solved on demand when the server does
//! (`engine::solving`): 202 until it is.

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use legion_engine::endgames::{Material, Probe, ProbeError, Tablebase, Value};
use legion_rules::notation::{canonical, human};
use legion_rules::{Position, Rules};
use serde_json::{Value as Json, json};

use crate::engine::solving::{Asked, Refusal, Solving};
use crate::http::api::{App, read_position};
use crate::http::error::{ApiError, ApiResult};
use crate::http::limits::Client;
use crate::i18n::Text;

/// `win`, `draw` or `loss`, and the plies to the end (none for a draw).
fn category(v: Value) -> (&'static str, Option<u16>) {
    match v {
        Value::Win(d) => ("win", Some(d)),
        Value::Draw => ("draw", None),
        Value::Loss(d) => ("loss", Some(d)),
    }
}

/// The refusal for a position the tables do not answer for.
fn not_answered(e: ProbeError) -> ApiError {
    let not_found = |t: Text| ApiError::said(StatusCode::NOT_FOUND, t);
    match e {
        ProbeError::TooManyPieces { pieces, max } => not_found(
            Text::new("server.endgame_too_many")
                .arg("pieces", pieces)
                .arg("max", max),
        ),
        ProbeError::Missing(material) => {
            not_found(Text::new("server.endgame_missing").arg("material", material))
        }
        ProbeError::NotCovered(_) => not_found(Text::new("server.endgame_not_covered")),
        // A damaged or unreadable table is the host's problem: logged.
        ProbeError::Table(e) => ApiError::internal(e),
    }
}

/// One legal move's value for the side making it, and its ordering key
/// (best first: wins by fewest plies to a reset, then draws, then losses
/// by most).
fn move_entry(pos: &Position, mv: legion_rules::Move, after: Probe) -> ((u8, i32, i32), Json) {
    let child = pos.after(mv);
    let resets = child.halfmove_clock() == 0;
    let dtz = if resets { 1 } else { after.dtz as i32 + 1 };
    let mine = after.value.before();
    let (cat, plies) = category(mine);
    let key = match mine {
        Value::Win(d) => (2, -dtz, -(d as i32)),
        Value::Draw => (1, 0, 0),
        Value::Loss(d) => (0, dtz, d as i32),
    };
    let entry = json!({
        "canonical": canonical(pos, mv),
        "human": human(pos, mv),
        "category": cat,
        "plies": plies,
        "dtz": if cat == "draw" { 0 } else { dtz },
        "resets_clock": resets,
        "fifty_move_rule": after.fifty_move_rule_matters(child.halfmove_clock()),
    });
    (key, entry)
}

/// The whole answer for `pos`, computed on a blocking thread.
fn answer(tb: &Tablebase, pos: &Position) -> Result<Json, ProbeError> {
    let probe = tb.probe(pos)?;
    let mut moves: Vec<((u8, i32, i32), Json)> = tb
        .probe_moves(pos)?
        .into_iter()
        .map(|(mv, p)| move_entry(pos, mv, p))
        .collect();
    moves.sort_by_key(|m| std::cmp::Reverse(m.0));
    let (cat, plies) = category(probe.value);
    Ok(json!({
        "lfen": pos.to_lfen(),
        "material": legion_engine::endgames::Material::of(pos.board()).to_string(),
        "turn": if pos.turn() == legion_rules::Color::White { "w" } else { "b" },
        "category": cat,
        "plies": plies,
        "dtz": probe.dtz,
        "halfmove_clock": pos.halfmove_clock(),
        "fifty_move_rule": probe.fifty_move_rule_matters(pos.halfmove_clock()),
        "moves": moves.into_iter().map(|(_, m)| m).collect::<Vec<_>>(),
    }))
}

/// The answer while an ending is being solved: 202 with the ending and
/// how many are before it (the page asks again), or the refusal.
fn solving_answer(solving: &Arc<Solving>, material: Material) -> ApiResult<Response> {
    let refused = |status, key| Err(ApiError::said(status, Text::new(key)));
    match solving.ask(material) {
        Asked::Solving { ahead } => Ok((
            StatusCode::ACCEPTED,
            [(axum::http::header::RETRY_AFTER, "1")],
            axum::Json(json!({
                "solving": material.to_string(),
                "ahead": ahead,
            })),
        )
            .into_response()),
        Asked::Refused(Refusal::TooManyPieces { max }) => {
            Err(not_answered(ProbeError::TooManyPieces {
                pieces: material.units(),
                max,
            }))
        }
        Asked::Refused(Refusal::Busy) => refused(
            StatusCode::SERVICE_UNAVAILABLE,
            "server.endgame_solver_busy",
        ),
        Asked::Refused(Refusal::DiskFull) => {
            refused(StatusCode::NOT_FOUND, "server.endgame_solver_full")
        }
        Asked::Refused(Refusal::Failed) => Err(ApiError::internal(format!(
            "solving the ending {material} failed (see the server's log)"
        ))),
    }
}

pub async fn endgame(
    State(app): State<App>,
    client: Client,
    q: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> ApiResult<Response> {
    let Query(q) = q.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let lfen = q
        .get("lfen")
        .ok_or_else(|| ApiError::bad_request("missing query parameter `lfen`"))?;
    // The tables are for the default rules (5.1, 5.4).
    let pos = read_position(lfen, Rules::DEFAULT)?;
    let Some(tb) = app.endgames.clone() else {
        return Err(ApiError::said(
            StatusCode::NOT_FOUND,
            Text::new("server.endgames_off"),
        ));
    };
    // Refused before any work (and before the rate is spent) when neither
    // the tables nor the solver can hold it.
    let pieces = pos.board().occupied().count() as usize;
    let max = tb
        .max_units()
        .max(app.solving.as_ref().map_or(0, |s| s.max_units()));
    if pieces > max {
        return Err(not_answered(ProbeError::TooManyPieces { pieces, max }));
    }
    app.endgames_rate.check(client)?;
    let material = Material::of(pos.board());
    let answered = tokio::task::spawn_blocking(move || answer(&tb, &pos))
        .await
        .map_err(ApiError::internal)?;
    match (answered, &app.solving) {
        (Ok(json), _) => Ok(axum::Json(json).into_response()),
        // No table yet: solved here if the server does (the ending of the
        // position, with everything it leads to), and asked again.
        (Err(ProbeError::Missing(_) | ProbeError::TooManyPieces { .. }), Some(solving))
            if pieces <= solving.max_units() =>
        {
            solving_answer(solving, material)
        }
        (Err(e), _) => Err(not_answered(e)),
    }
}
