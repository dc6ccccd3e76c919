//! The web app's files, built into the binary (see build.rs), and the
//! rules rendered from docs/RULES.md.

use std::sync::LazyLock;

use crate::i18n::Lang;

include!(concat!(env!("OUT_DIR"), "/assets.rs"));

/// Shown when the app's files are missing from a build.
const FALLBACK_INDEX: &str = "<!doctype html><html><head><meta charset=\"utf-8\"><title>Legion</title></head>\
<body><h1>Legion</h1><p>The web app's files were not built into this server.</p></body></html>";

pub fn get(name: &str) -> Option<(&'static [u8], &'static str)> {
    let bytes = ASSETS.iter().find(|(n, _)| *n == name).map(|(_, b)| *b)?;
    Some((bytes, content_type(name)))
}

/// The app's page, marked with the reader's language (the page's
/// scripts read it to pick their words).
pub fn index(lang: Lang) -> String {
    let page = get("index.html").map_or(FALLBACK_INDEX.as_bytes(), |(b, _)| b);
    String::from_utf8_lossy(page).replacen(
        "<html lang=\"en\">",
        &format!("<html lang=\"{}\">", lang.code()),
        1,
    )
}

/// A page for an address that leads nowhere, in the reader's language,
/// with the site's header and navigation (as the app's shell has them,
/// without its script: the page works without one).
pub fn not_found_page(lang: Lang) -> String {
    let t = |k: &str| escape(&crate::i18n::template(k, lang));
    let brand = "<svg viewBox=\"0 0 100 100\" width=\"28\" height=\"28\" aria-hidden=\"true\">\
<rect width=\"100\" height=\"100\" rx=\"18\" fill=\"#8b5a3c\"/>\
<ellipse cx=\"50\" cy=\"58\" rx=\"34\" ry=\"26\" fill=\"#f3ead7\" stroke=\"#222\" stroke-width=\"5\"/>\
<path d=\"M30 58 L28 38 L40 50 L50 32 L60 50 L72 38 L70 58 Z\" fill=\"#e2b42c\" stroke=\"#222\" stroke-width=\"4\"/></svg>";
    format!(
        "<!doctype html><html lang=\"{code}\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<title>{title} — Legion</title><link rel=\"stylesheet\" href=\"/static/style.css\"></head>\
<body><header class=\"top\"><a class=\"brand\" href=\"/\" aria-label=\"{brand_home}\">{brand}<span>{brand_name}</span></a>\
<nav aria-label=\"{nav}\"><a href=\"/\">{play}</a><a href=\"/learn\">{learn}</a><a href=\"/analysis\">{analysis}</a><a href=\"/rules\">{rules}</a>\
<a href=\"/players\">{players}</a><a href=\"/tv\">{tv}</a></nav></header>\
<main class=\"not-found\"><h1>{title}</h1><p>{text}</p><p><a href=\"/\">{home}</a></p></main></body></html>",
        code = lang.code(),
        title = t("server.page_not_found"),
        text = t("server.page_not_found_text"),
        home = t("server.page_not_found_home"),
        brand_home = t("common.brandHome"),
        brand_name = t("common.brand"),
        nav = t("common.nav.label"),
        play = t("common.nav.play"),
        learn = t("common.nav.learn"),
        analysis = t("common.nav.analysis"),
        rules = t("common.nav.rules"),
        players = t("common.nav.players"),
        tv = t("common.nav.tv"),
    )
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn content_type(name: &str) -> &'static str {
    match name.rsplit('.').next().unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "json" => "application/json",
        "ico" => "image/x-icon",
        "txt" | "md" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

pub const RULES_MD: &str = include_str!("../../../../docs/RULES.md");
/// The Russian translation (docs/RULES.md is the authority).
pub const RULES_RU_MD: &str = include_str!("../../../../docs/RULES.ru.md");

fn markdown(md: &str) -> String {
    let mut options = pulldown_cmark::Options::empty();
    options.insert(pulldown_cmark::Options::ENABLE_TABLES);
    let parser = pulldown_cmark::Parser::new_ext(md, options);
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, parser);
    html
}

/// The rules as HTML, rendered once per language.
static RULES_HTML: LazyLock<String> = LazyLock::new(|| markdown(RULES_MD));
static RULES_RU_HTML: LazyLock<String> = LazyLock::new(|| markdown(RULES_RU_MD));

pub fn rules_html(lang: Lang) -> &'static str {
    match lang {
        Lang::En => &RULES_HTML,
        Lang::Ru => &RULES_RU_HTML,
    }
}
