// @ts-check
// Translations. One flat JSON file per language (en.json, ru.json: {"key":
// "template"}), fetched once before the first page is drawn. A template's
// placeholders:
//   {name}        args[name] as text
//   {name:side}   the translation of `side.<args[name]>` ("w" or "b")
//   {name:piece}  the translation of `piece.<args[name]>` ("wN", "bM" ...)
//   {name:list}   an array of strings joined with ", "
// Messages are phrased so that no plural forms or grammatical cases are
// needed. A missing key shows the key itself (and a warning), never a crash.
//
// The language: the cookie `lang` (set by the switch in the header), else
// what the server wrote into <html lang> (it also reads the cookie, then
// Accept-Language), else the browser's own language.

export const LANGUAGES = ['en', 'ru'];
const STORE_KEY = 'legion:lang';

function cookieLang() {
  const m = document.cookie.match(/(?:^|;\s*)lang=([a-z]+)/);
  return m && LANGUAGES.includes(m[1]) ? m[1] : null;
}

function storedLang() {
  try {
    const v = localStorage.getItem(STORE_KEY);
    return v !== null && LANGUAGES.includes(v) ? v : null;
  } catch {
    return null;
  }
}

/** @param {string} l */
function writeCookie(l) {
  document.cookie = `lang=${l}; Path=/; Max-Age=31536000; SameSite=Lax`;
}

function detect() {
  const cookie = cookieLang();
  if (cookie) return cookie;
  // A choice kept in this browser whose cookie has gone: put the cookie
  // back, so that the server answers in it too from the next request on.
  const stored = storedLang();
  if (stored) {
    writeCookie(stored);
    return stored;
  }
  const page = (document.documentElement.getAttribute('lang') || '').toLowerCase().slice(0, 2);
  if (LANGUAGES.includes(page)) return page;
  return /^ru\b/i.test(navigator.language || '') ? 'ru' : 'en';
}

/** The language of the page: 'en' or 'ru'. */
export const lang = detect();
/** For Intl: number formats and the like. */
export const locale = lang === 'ru' ? 'ru-RU' : 'en-GB';

/** @type {Record<string, string>} */
let dict = {};
/** @type {Promise<void> | null} */
let loading = null;
const warned = new Set();

/** @param {string} what */
function warn(what) {
  if (warned.has(what)) return;
  warned.add(what);
  console.warn(`i18n: ${what}`);
}

/** Fetches the translations of `lang` (once); resolves even when that fails. */
export function loadLanguage() {
  if (!loading) {
    document.documentElement.lang = lang;
    loading = fetch(`/static/${lang}.json`, { cache: 'no-cache' })
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`HTTP ${r.status}`))))
      .then((d) => { dict = d && typeof d === 'object' ? d : {}; })
      .catch((e) => { warn(`cannot load /static/${lang}.json: ${e && e.message}`); });
  }
  return loading;
}

const PLACEHOLDER = /\{(\w+)(?::(side|piece|list))?\}/g;

/**
 * The text of `key` in the page's language, with `args` filled in.
 * @param {string} key
 * @param {Record<string, any>} [args]
 * @returns {string}
 */
export function t(key, args) {
  const template = dict[key];
  if (typeof template !== 'string') {
    warn(`missing key '${key}' (${lang})`);
    return key;
  }
  if (!template.includes('{')) return template;
  const a = args || {};
  return template.replace(PLACEHOLDER, (whole, /** @type {string} */ name, /** @type {string | undefined} */ kind) => {
    const v = a[name];
    if (v === undefined || v === null) {
      warn(`'${key}' needs the argument '${name}'`);
      return whole;
    }
    if (kind === 'side') return t(`side.${v}`);
    if (kind === 'piece') return t(`piece.${v}`);
    if (kind === 'list') return Array.isArray(v) ? v.map(String).join(', ') : String(v);
    return String(v);
  });
}

/** A number written the page's way (1 234 567 in Russian). */
/** @param {number} n */
export function formatNumber(n) {
  try { return Number(n).toLocaleString(locale); } catch { return String(n); }
}

/**
 * The text of a {key, args} object the server sent (`reason_i18n`), or `fallback`.
 * @param {any} obj
 * @param {string} fallback
 */
export function tServer(obj, fallback) {
  if (obj && typeof obj === 'object' && typeof obj.key === 'string' && obj.key) return t(obj.key, obj.args || {});
  return fallback;
}

/** Chooses a language: the cookie (which the server reads), this browser's storage, a reload. */
/** @param {string} l */
export function setLanguage(l) {
  if (!LANGUAGES.includes(l)) return;
  writeCookie(l);
  try { localStorage.setItem(STORE_KEY, l); } catch { /* private mode: the cookie is enough */ }
  location.reload();
}

/**
 * Fills the page's static elements: `data-i18n="key"` sets the text,
 * `data-i18n-aria-label`, `data-i18n-title`, `data-i18n-placeholder` the
 * attribute of that name.
 */
export function translateStatic(root = document) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.getAttribute('data-i18n') || '');
  for (const attr of ['aria-label', 'title', 'placeholder']) {
    for (const el of root.querySelectorAll(`[data-i18n-${attr}]`)) el.setAttribute(attr, t(el.getAttribute(`data-i18n-${attr}`) || ''));
  }
}
