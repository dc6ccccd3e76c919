//! The translation files: one per language, the same keys in each, every
//! key used by the pages or the server, every key they use present, and
//! the same placeholders in every language.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

const ASSETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/assets");
const SOURCES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src");

fn dictionary(lang: &str) -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(Path::new(ASSETS).join(format!("{lang}.json"))).unwrap();
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{lang}.json: {e}"))
}

/// Every file ending in `ext` under `dir`, in its folders too.
fn files(dir: &str, ext: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut folders = vec![std::path::PathBuf::from(dir)];
    while let Some(folder) = folders.pop() {
        for p in std::fs::read_dir(&folder)
            .unwrap()
            .filter_map(Result::ok)
            .map(|e| e.path())
        {
            if p.is_dir() {
                folders.push(p);
            } else if p.extension().is_some_and(|x| x == ext) {
                let text = std::fs::read_to_string(&p).unwrap();
                out.push((p.display().to_string(), text));
            }
        }
    }
    out.sort();
    out
}

/// The quoted strings of `text` that look like keys: `a.b` with letters,
/// digits, `_` and dots, at least one dot. Every quote opens a candidate,
/// so an apostrophe in a comment cannot hide the keys after it.
fn keys_in(text: &str, quotes: &[char]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (i, c) in text.char_indices() {
        if !quotes.contains(&c) {
            continue;
        }
        let rest = &text[i + c.len_utf8()..];
        let Some(end) = rest.find(c) else { continue };
        let piece = &rest[..end];
        let key_like = piece.contains('.')
            && !piece.starts_with('.')
            && !piece.ends_with('.')
            && piece
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
            && piece.chars().next().is_some_and(|c| c.is_ascii_lowercase());
        if key_like {
            out.insert(piece.to_string());
        }
    }
    out
}

/// Prefixes of keys built at run time: `t(\`rules.caption.${...}\`)` in
/// the pages, `role.`/`piece.`/`side.` from codes in the server.
fn dynamic_prefixes(js: &[(String, String)]) -> Vec<String> {
    let mut out: Vec<String> = vec!["role.".into(), "piece.".into(), "side.".into()];
    for (_, text) in js {
        for part in text.split("t(`").skip(1) {
            if let Some((prefix, _)) = part.split_once("${")
                && !prefix.is_empty()
                && prefix.ends_with('.')
            {
                out.push(prefix.to_string());
            }
        }
    }
    out
}

fn placeholders(template: &str) -> BTreeSet<String> {
    template
        .split('{')
        .skip(1)
        .filter_map(|p| p.split_once('}').map(|(inner, _)| inner.to_string()))
        .collect()
}

#[test]
fn every_language_has_every_key_and_nothing_else() {
    let en = dictionary("en");
    let ru = dictionary("ru");
    let missing_ru: Vec<_> = en.keys().filter(|k| !ru.contains_key(*k)).collect();
    let missing_en: Vec<_> = ru.keys().filter(|k| !en.contains_key(*k)).collect();
    assert!(missing_ru.is_empty(), "missing in ru.json: {missing_ru:?}");
    assert!(missing_en.is_empty(), "missing in en.json: {missing_en:?}");
    for (k, v) in &en {
        assert_eq!(
            placeholders(v),
            placeholders(&ru[k]),
            "placeholders of '{k}'"
        );
        assert!(!ru[k].trim().is_empty(), "empty Russian for '{k}'");
    }
}

#[test]
fn every_key_is_used_and_every_used_key_exists() {
    let en = dictionary("en");
    let js = files(ASSETS, "js");
    let html = files(ASSETS, "html");
    let rs = files(SOURCES, "rs");
    let mut used = BTreeSet::new();
    for (_, text) in js.iter().chain(&html) {
        used.extend(keys_in(text, &['\'', '"', '`']));
    }
    for (_, text) in &rs {
        used.extend(keys_in(text, &['"']));
    }
    let mut prefixes = dynamic_prefixes(&js);
    // A quoted word that only begins keys (`'settings.speed'`, joined to a
    // value in the code) names a family of keys, as a template does.
    let families: Vec<String> = used
        .iter()
        .filter(|k| !en.contains_key(*k))
        .filter(|k| en.keys().any(|key| key.starts_with(&format!("{k}."))))
        .cloned()
        .collect();
    for f in &families {
        used.remove(f);
        prefixes.push(format!("{f}."));
    }
    // Keys the code names that the files lack (only those that look like
    // ours: a known prefix).
    let ours: BTreeSet<&str> = en.keys().filter_map(|k| k.split('.').next()).collect();
    let absent: Vec<_> = used
        .iter()
        .filter(|k| k.split('.').next().is_some_and(|p| ours.contains(p)))
        .filter(|k| !en.contains_key(*k))
        .filter(|k| !k.ends_with(".js") && !k.ends_with(".json") && !k.ends_with(".css"))
        .collect();
    assert!(
        absent.is_empty(),
        "used but in no translation file: {absent:?}"
    );
    let unused: Vec<_> = en
        .keys()
        .filter(|k| !used.contains(*k))
        .filter(|k| !prefixes.iter().any(|p| k.starts_with(p.as_str())))
        .collect();
    assert!(
        unused.is_empty(),
        "in the translation files but used nowhere: {unused:?}"
    );
}

#[test]
fn russian_uses_the_games_own_terms() {
    let ru = dictionary("ru");
    let all: String = ru.values().cloned().collect::<Vec<_>>().join("\n");
    for term in ["Легион", "шашк", "Там", "Захват", "Пленник", "шах", "мат"]
    {
        assert!(all.contains(term), "no '{term}' in ru.json");
    }
}
