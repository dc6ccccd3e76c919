//! The web app's files, built into the binary (see build.rs), and the
//! rules rendered from docs/RULES.md.

use std::sync::LazyLock;

include!(concat!(env!("OUT_DIR"), "/assets.rs"));

/// Shown when the app's files are missing from a build.
const FALLBACK_INDEX: &str = "<!doctype html><html><head><meta charset=\"utf-8\"><title>Legion</title></head>\
<body><h1>Legion</h1><p>The web app's files were not built into this server.</p></body></html>";

pub fn get(name: &str) -> Option<(&'static [u8], &'static str)> {
    let bytes = ASSETS.iter().find(|(n, _)| *n == name).map(|(_, b)| *b)?;
    Some((bytes, content_type(name)))
}

pub fn index() -> &'static [u8] {
    get("index.html").map_or(FALLBACK_INDEX.as_bytes(), |(b, _)| b)
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

pub const RULES_MD: &str = include_str!("../../../docs/RULES.md");

/// RULES.md as HTML, rendered once.
pub static RULES_HTML: LazyLock<String> = LazyLock::new(|| {
    let mut options = pulldown_cmark::Options::empty();
    options.insert(pulldown_cmark::Options::ENABLE_TABLES);
    let parser = pulldown_cmark::Parser::new_ext(RULES_MD, options);
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, parser);
    html
});
