//! The site's two languages. Words for people come from one translation
//! file per language (`assets/en.json`, `assets/ru.json`), shared with the
//! pages: a `Text` is a key and its arguments, rendered in the reader's
//! language here (error messages, explanations) or in the page (game
//! results, which every watcher reads in their own language).
//!
//! Templates: `{name}` is the argument as it is; `{name:side}`,
//! `{name:piece}` and `{name:role}` look the value up under `side.`,
//! `piece.` and `role.`; `{name:list}` joins a list with commas;
//! `{name:or}` and `{name:and}` join it with commas and a last "or" or
//! "and"; `{name:placed}` is a piece on its square.

pub mod reading;

use std::collections::HashMap;
use std::sync::LazyLock;

use axum::http::{HeaderMap, header};
use legion_rules::explain::{Illegal, Placed};
use legion_rules::game::{DrawReason, Outcome, WinReason};
use legion_rules::{Color, Role, Square};
use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::games::model::{Declared, Side};

tokio::task_local! {
    /// The language of the request being answered (set by the edge).
    pub static LANG: Lang;
}

/// The language of the request being answered; English outside one.
pub fn current() -> Lang {
    LANG.try_with(|l| *l).unwrap_or(Lang::En)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    En,
    Ru,
}

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Ru];

    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ru => "ru",
        }
    }

    fn parse(tag: &str) -> Option<Lang> {
        let primary = tag.trim().split(['-', '_']).next()?.to_ascii_lowercase();
        match primary.as_str() {
            "en" => Some(Lang::En),
            "ru" => Some(Lang::Ru),
            _ => None,
        }
    }

    /// The reader's language: the `lang` cookie (the switch in the page),
    /// else the first of the browser's languages that the site has, else
    /// English.
    pub fn of(headers: &HeaderMap) -> Lang {
        let cookie = headers
            .get_all(header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .filter_map(|kv| kv.trim().strip_prefix("lang="))
            .find_map(Lang::parse);
        if let Some(l) = cookie {
            return l;
        }
        let mut wanted: Vec<(f32, usize, Lang)> = headers
            .get_all(header::ACCEPT_LANGUAGE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .enumerate()
            .filter_map(|(i, part)| {
                let mut bits = part.split(';');
                let lang = Lang::parse(bits.next()?)?;
                let q = bits
                    .find_map(|b| b.trim().strip_prefix("q="))
                    .and_then(|q| q.parse::<f32>().ok())
                    .unwrap_or(1.0);
                (q > 0.0).then_some((q, i, lang))
            })
            .collect();
        wanted.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        wanted.first().map_or(Lang::En, |w| w.2)
    }
}

/// One argument of a text.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    Text(String),
    Side(Side),
    /// Colour and letter, `wN`.
    Piece(String),
    Role(Role),
    List(Vec<String>),
    Placed(Placed),
    /// An explanation, rendered with its rule: "4.2: ...".
    Illegal(Box<Illegal>),
    /// Words within words, rendered in the same language.
    Words(Box<Text>),
}

/// Words for people, in no language yet.
#[derive(Clone, Debug, PartialEq)]
pub struct Text {
    pub key: &'static str,
    pub args: Vec<(&'static str, Arg)>,
}

impl Text {
    pub fn new(key: &'static str) -> Text {
        Text {
            key,
            args: Vec::new(),
        }
    }

    pub fn with(mut self, name: &'static str, arg: Arg) -> Text {
        self.args.push((name, arg));
        self
    }

    pub fn arg(self, name: &'static str, value: impl ToString) -> Text {
        self.with(name, Arg::Text(value.to_string()))
    }

    pub fn render(&self, lang: Lang) -> String {
        render(self, lang)
    }

    /// `{"key", "args"}` for a page to render itself; sides, pieces and
    /// roles as their codes.
    pub fn json(&self) -> Value {
        let args: Map<String, Value> = self
            .args
            .iter()
            .map(|(k, a)| {
                let v = match a {
                    Arg::Text(t) => json!(t),
                    Arg::Side(s) => json!(s.code()),
                    Arg::Piece(p) => json!(p),
                    Arg::Role(r) => json!(r.upper_char().to_string()),
                    Arg::List(l) => json!(l),
                    Arg::Placed(p) => json!(p.to_string()),
                    Arg::Illegal(e) => json!(e.to_string()),
                    Arg::Words(t) => t.json(),
                };
                (k.to_string(), v)
            })
            .collect();
        json!({"key": self.key, "args": args})
    }
}

fn load(file: &str) -> HashMap<String, String> {
    let bytes = crate::http::assets::get(file).map_or(&b"{}"[..], |(b, _)| b);
    // The files are checked by the tests; a broken one shows keys.
    serde_json::from_slice(bytes).unwrap_or_else(|e| {
        tracing::error!("translation file {file} is not valid JSON: {e}");
        HashMap::new()
    })
}

static EN: LazyLock<HashMap<String, String>> = LazyLock::new(|| load("en.json"));
static RU: LazyLock<HashMap<String, String>> = LazyLock::new(|| load("ru.json"));

fn dictionary(lang: Lang) -> &'static HashMap<String, String> {
    match lang {
        Lang::En => &EN,
        Lang::Ru => &RU,
    }
}

/// The template of `key`: the language's, else English's, else the key.
pub fn template(key: &str, lang: Lang) -> String {
    dictionary(lang)
        .get(key)
        .or_else(|| EN.get(key))
        .cloned()
        .unwrap_or_else(|| key.to_string())
}

fn lookup(prefix: &str, value: &str, lang: Lang) -> String {
    template(&format!("{prefix}.{value}"), lang)
}

fn placed(p: &Placed, lang: Lang) -> String {
    let piece = p.occupant.piece;
    let code = format!("{}{}", piece.color.char(), piece.role.upper_char());
    let t = match p.occupant.prisoner {
        None => Text::new("piece.placed"),
        Some(r) => Text::new("piece.placed_holding").with("prisoner", Arg::Role(r)),
    };
    render(
        &t.with("piece", Arg::Piece(code))
            .with("role", Arg::Role(piece.role))
            .arg("square", p.square),
        lang,
    )
}

/// "a, b or c" (`or`) or "a, b and c" (`and`), in the language's words.
fn join_last(items: &[String], word: &str, lang: Lang) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => {
            let w = template(
                if word == "or" {
                    "illegal.or"
                } else {
                    "illegal.and"
                },
                lang,
            );
            format!("{} {w} {last}", init.join(", "))
        }
    }
}

fn show(arg: &Arg, format: &str, lang: Lang) -> String {
    match (arg, format) {
        (Arg::Side(s), _) => lookup("side", s.code(), lang),
        (Arg::Piece(p), _) => lookup("piece", p, lang),
        (Arg::Role(r), _) => lookup("role", &r.upper_char().to_string(), lang),
        (Arg::List(l), "or" | "and") => join_last(l, format, lang),
        (Arg::List(l), _) => l.join(", "),
        (Arg::Placed(p), _) => placed(p, lang),
        (Arg::Illegal(e), _) => illegal(e, lang),
        (Arg::Words(t), _) => render(t, lang),
        (Arg::Text(t), "side") => lookup("side", t, lang),
        (Arg::Text(t), "piece") => lookup("piece", t, lang),
        (Arg::Text(t), _) => t.clone(),
    }
}

pub fn render(text: &Text, lang: Lang) -> String {
    let template = template(text.key, lang);
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template.as_str();
    while let Some(open) = rest.find('{') {
        // A brace that closes nothing is a brace.
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        out.push_str(&rest[..open]);
        let inner = &rest[open + 1..open + close];
        let (name, format) = inner.split_once(':').unwrap_or((inner, ""));
        match text.args.iter().find(|(k, _)| *k == name) {
            Some((_, a)) => out.push_str(&show(a, format, lang)),
            None => out.push_str(&rest[open..=open + close]),
        }
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    out
}

fn side(c: Color) -> Arg {
    Arg::Side(c.into())
}

fn squares(list: &[Square]) -> Arg {
    Arg::List(list.iter().map(|s| s.to_string()).collect())
}

fn placed_list(list: &[Placed], lang: Lang) -> Arg {
    Arg::List(list.iter().map(|p| placed(p, lang)).collect())
}

/// Words that cite a rule: "6.2: ...", the rule the same in every
/// language.
pub fn cited(rule: &'static str, words: Text) -> Text {
    Text::new("server.cited")
        .with("words", Arg::Words(Box::new(words)))
        .arg("rule", rule)
}

/// Why a move is illegal, with its rule: "4.2: ...".
pub fn illegal(e: &Illegal, lang: Lang) -> String {
    format!("{}: {}", e.rule(), illegal_text(e, lang).render(lang))
}

/// The words of an explanation (without its rule number). Attackers are
/// rendered at once: they are lists of pieces on squares.
pub fn illegal_text(e: &Illegal, lang: Lang) -> Text {
    use Illegal::*;
    let t = Text::new;
    let p = |x: &Placed| Arg::Placed(*x);
    match e {
        TooFewSquares => t("illegal.too_few_squares"),
        NoLegalMove { color } => t("illegal.no_legal_move").with("side", side(*color)),
        EmptySquare { square } => t("illegal.empty_square").arg("square", square),
        NotYourPiece { piece, turn } => t("illegal.not_your_piece")
            .with("piece", p(piece))
            .with("owner", side(piece.occupant.piece.color))
            .with("turn", side(*turn)),
        ChessPieceMultiStep { piece } => t("illegal.chess_multi_step").with("piece", p(piece)),
        CannotReach { piece, to } => {
            let how = match piece.occupant.piece.role {
                Role::King => "illegal.how_king",
                Role::Queen => "illegal.how_queen",
                Role::Rook => "illegal.how_rook",
                Role::Bishop => "illegal.how_bishop",
                _ => "illegal.how_knight",
            };
            t("illegal.cannot_reach")
                .with("piece", p(piece))
                .arg("to", to)
                .arg("how", render(&t(how), lang))
        }
        PathBlocked { piece, to, blocker } => t("illegal.path_blocked")
            .with("piece", p(piece))
            .arg("to", to)
            .arg("blocker", blocker),
        OwnPieceOnTarget { piece, target } => t("illegal.own_piece_on_target")
            .with("piece", p(piece))
            .with("target", p(target))
            .arg("to", target.square),
        KingCannotBeCaptured { target } => t("illegal.king_not_captured").with("target", p(target)),
        CastlingRightLost { color, side: which } => t(match which {
            legion_rules::castling::CastlingSide::Short => "illegal.castling_lost_short",
            legion_rules::castling::CastlingSide::Long => "illegal.castling_lost_long",
        })
        .with("side", side(*color)),
        CastlingBlocked { square } => t("illegal.castling_blocked").arg("square", square),
        CastlingOutOfCheck => t("illegal.castling_out_of_check"),
        CastlingThroughAttack { square } => t("illegal.castling_attacked").arg("square", square),
        LegionOffDiagonal { piece, to } => t("illegal.legion_off_diagonal")
            .with("piece", p(piece))
            .arg("to", to),
        ManBackward { piece, to } => t("illegal.man_backward")
            .with("piece", p(piece))
            .arg("to", to),
        ManTooFar { piece, to } => t("illegal.man_too_far")
            .with("piece", p(piece))
            .arg("to", to),
        TamaBlocked { piece, to, blocker } => t("illegal.tama_blocked")
            .with("piece", p(piece))
            .arg("to", to)
            .arg("blocker", blocker),
        LegionTargetOccupied { piece, to } => t("illegal.legion_target_occupied")
            .with("piece", p(piece))
            .arg("to", to),
        NothingToJump { from, to } => t("illegal.nothing_to_jump").arg("from", from).arg("to", to),
        JumpOwnPiece { from, to, own } => t("illegal.jump_own")
            .arg("from", from)
            .arg("to", to)
            .arg("own", own),
        JumpKing { from, to, king } => t("illegal.jump_king")
            .arg("from", from)
            .arg("to", to)
            .arg("king", king),
        JumpedTwice { square } => t("illegal.jumped_twice").arg("square", square),
        JumpTooMany { from, to } => t("illegal.jump_too_many").arg("from", from).arg("to", to),
        ManJumpLength { from, to } => t("illegal.man_jump_length").arg("from", from).arg("to", to),
        LandingOccupied { square } => t("illegal.landing_occupied").arg("square", square),
        SeriesMustContinue { at, next } => t("illegal.series_must_continue")
            .arg("at", at)
            .with("next", Arg::List(next.clone())),
        TamaMustLandToContinue { at, options } => t("illegal.tama_must_land")
            .arg("at", at)
            .with("options", squares(options)),
        CaptureObligation { captures } => {
            t("illegal.capture_obligation").with("captures", Arg::List(captures.clone()))
        }
        StillInCheck { king, attackers } => t("illegal.still_in_check")
            .arg("king", king)
            .with("attackers", placed_list(attackers, lang)),
        ExposesKing { king, attackers } => t("illegal.exposes_king")
            .arg("king", king)
            .with("attackers", placed_list(attackers, lang)),
        AmbiguousSeries { options } => {
            t("illegal.ambiguous_series").with("options", Arg::List(options.clone()))
        }
        NoPieceFits { role, text } => t("illegal.no_piece_fits")
            .with("role", Arg::Role(*role))
            .arg("text", text),
        NoneCanReach { role, to } => t("illegal.none_can_reach")
            .with("role", Arg::Role(*role))
            .arg("to", to),
    }
}

/// How a game ended, in words.
pub fn outcome(o: Outcome) -> Text {
    match o {
        Outcome::Win { winner, reason } => Text::new(match reason {
            WinReason::NoLegalMove => "outcome.no_legal_move",
            WinReason::Mate => "outcome.mate",
            WinReason::Resignation => "outcome.resignation",
            WinReason::Time => "outcome.time",
        })
        .with("winner", side(winner))
        .with("loser", side(!winner)),
        Outcome::Draw { reason } => Text::new(match reason {
            DrawReason::Repetition => "outcome.repetition",
            DrawReason::FiftyMoves => "outcome.fifty_moves",
            DrawReason::DeadPosition => "outcome.dead_position",
            DrawReason::Agreement => "outcome.agreement",
        }),
    }
}

/// Why a game was aborted, in words.
pub fn aborted(d: Declared) -> Option<Text> {
    match d {
        Declared::Aborted(s) => Some(Text::new("outcome.aborted").with("side", Arg::Side(s))),
        Declared::NoFirstMove(s) => {
            Some(Text::new("outcome.no_first_move").with("side", Arg::Side(s)))
        }
        _ => None,
    }
}

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for Lang {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _: &S,
    ) -> Result<Lang, Self::Rejection> {
        Ok(Lang::of(&parts.headers))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, HeaderValue::from_static(v));
        }
        h
    }

    #[test]
    fn the_language_comes_from_the_cookie_then_the_browser() {
        assert_eq!(Lang::of(&headers(&[])), Lang::En);
        assert_eq!(
            Lang::of(&headers(&[("accept-language", "ru-RU,ru;q=0.9,en;q=0.8")])),
            Lang::Ru
        );
        assert_eq!(
            Lang::of(&headers(&[(
                "accept-language",
                "de-DE, en;q=0.5, ru;q=0.7"
            )])),
            Lang::Ru
        );
        assert_eq!(
            Lang::of(&headers(&[("accept-language", "fr, de")])),
            Lang::En
        );
        assert_eq!(
            Lang::of(&headers(&[("accept-language", "ru;q=0, en")])),
            Lang::En
        );
        let both = [("accept-language", "ru"), ("cookie", "theme=dark; lang=en")];
        assert_eq!(Lang::of(&headers(&both)), Lang::En);
        assert_eq!(Lang::of(&headers(&[("cookie", "lang=ru")])), Lang::Ru);
    }

    #[test]
    fn templates_fill_in_their_arguments() {
        let t = Text::new("no.such.key").arg("x", 1);
        // An unknown key shows itself, never a panic.
        assert_eq!(t.render(Lang::Ru), "no.such.key");
        let t = Text {
            key: "outcome.resignation",
            args: vec![
                ("winner", Arg::Side(Side::Black)),
                ("loser", Arg::Side(Side::White)),
            ],
        };
        assert_eq!(
            t.json(),
            json!({"key": "outcome.resignation", "args": {"winner": "b", "loser": "w"}})
        );
    }
}
