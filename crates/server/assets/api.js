// @ts-check
// Talking to the server (docs/API.md). Every call resolves to parsed JSON or
// throws an ApiError whose message is words a person can read. The server
// writes its error messages in the page's language (the `lang` cookie
// travels with every request); the page's own are from i18n.js.

import { t } from './i18n.js';

/**
 * @typedef {string | null | undefined} Token a seat's token, if the page holds one
 * @typedef {'default' | 'mate-ends-game' | string} RulesName
 */

export class ApiError extends Error {
  /**
   * @param {number} status the HTTP status (0 when the server was not reached)
   * @param {string} message words for people
   * @param {string | null} [rule] the rule of RULES.md the refusal cites
   * @param {any} [body] the server's JSON answer
   */
  constructor(status, message, rule, body) {
    super(message);
    this.status = status;
    this.rule = rule || null;
    this.body = body || null;
  }
}

const TOKEN_KEY = (/** @type {string} */ id) => `legion:seat:${id}`;

/** The seats (tokens) and invites this browser holds, in its storage. */
export const seats = {
  /** @param {string} id */
  get(id) {
    try { return localStorage.getItem(TOKEN_KEY(id)); } catch { return null; }
  },
  /** @param {string} id @param {string} token */
  set(id, token) {
    try { localStorage.setItem(TOKEN_KEY(id), token); } catch { /* private mode: the seat lasts this page only */ }
  },
  /** @param {string} id @param {string} key */
  getExtra(id, key) {
    try { return localStorage.getItem(`legion:${key}:${id}`); } catch { return null; }
  },
  /** @param {string} id @param {string} key @param {string} value */
  setExtra(id, key, value) {
    try { localStorage.setItem(`legion:${key}:${id}`, value); } catch { /* ignore */ }
  },
};

/**
 * Seconds from a Retry-After header (seconds or an HTTP date), or null.
 * @param {string | null} value
 */
function retryAfterSeconds(value) {
  if (!value) return null;
  if (/^\s*\d+\s*$/.test(value)) return Math.max(1, Number(value));
  const when = Date.parse(value);
  return Number.isFinite(when) ? Math.max(1, Math.ceil((when - Date.now()) / 1000)) : null;
}

/**
 * Words for a refusal: the server's own, else ours for its status.
 * @param {number} status
 * @param {any} body
 * @param {string | null} retryAfter
 */
function messageFor(status, body, retryAfter) {
  if (status === 429) {
    const s = retryAfterSeconds(retryAfter);
    return s ? t('errors.tooManyRequestsIn', { s }) : t('errors.tooManyRequests');
  }
  if (body && typeof body.error === 'string' && body.error) return body.error;
  if (status === 404) return t('errors.noSuchGame');
  if (status === 503) return t('errors.engineBusy');
  if (status === 413) return t('errors.tooLong');
  if (status >= 500) return t('errors.serverFailed', { status });
  return t('errors.serverRefused', { status });
}

/**
 * One request to the server: JSON in, parsed JSON (or, with `text`, the
 * raw text) out; an ApiError with the server's words when it refuses.
 * @param {string} method
 * @param {string} url
 * @param {unknown} [body]
 * @param {{token?: string | null, signal?: AbortSignal, text?: boolean}} [options]
 */
export async function request(method, url, body, { token, signal, text } = {}) {
  /** @type {Record<string, string>} */
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  let res;
  try {
    res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal, cache: 'no-store' });
  } catch (e) {
    if (e instanceof Error && e.name === 'AbortError') throw e;
    throw new ApiError(0, t('errors.offline'));
  }
  const raw = await res.text().catch(() => '');
  if (text && res.ok) return raw;
  let data = null;
  try { data = raw ? JSON.parse(raw) : null; } catch { data = null; }
  if (!res.ok) throw new ApiError(res.status, messageFor(res.status, data, res.headers.get('Retry-After')), data && data.rule, data);
  if (data === null && !text) throw new ApiError(res.status, t('errors.unreadable'));
  return data;
}

const gamePath = (/** @type {string} */ id) => `/api/games/${encodeURIComponent(id)}`;

/**
 * The server's API, one function a request (docs/API.md). Ids are game ids,
 * tokens seat tokens, squares names like 'e4', moves as typed or canonical.
 */
export const api = {
  /** @param {Record<string, unknown>} opts */
  createGame: (opts) => request('POST', '/api/games', opts),
  /** @param {string} id @param {Token} token */
  game: (id, token) => request('GET', gamePath(id), undefined, { token }),
  /** @param {string} id @param {Token} token @param {string} move @param {number} ply */
  move: (id, token, move, ply) => request('POST', `${gamePath(id)}/moves`, { move, ply }, { token }),
  /** @param {string} id @param {string} invite */
  join: (id, invite) => request('POST', `${gamePath(id)}/join`, { invite }),
  /** @param {string} id @param {Token} token */
  abort: (id, token) => request('POST', `${gamePath(id)}/abort`, {}, { token }),
  /** @param {string} id @param {Token} token @param {string} action */
  takeback: (id, token, action) => request('POST', `${gamePath(id)}/takeback`, { action }, { token }),
  /** @param {string} id @param {Token} token */
  undo: (id, token) => request('POST', `${gamePath(id)}/undo`, {}, { token }),
  /** @param {string} id @param {Token} token */
  resign: (id, token) => request('POST', `${gamePath(id)}/resign`, {}, { token }),
  /** @param {string} id @param {Token} token @param {string} action */
  draw: (id, token, action) => request('POST', `${gamePath(id)}/draw`, { action }, { token }),
  /** After the game: `{}` starts it at once (engine, local); friends `offer`, `accept` or `decline`. */
  /** @param {string} id @param {Token} token @param {string} action */
  rematch: (id, token, action) => request('POST', `${gamePath(id)}/rematch`, action ? { action } : {}, { token }),
  /** @param {string} id @param {Token} token @param {string[]} squares */
  explainInGame: (id, token, squares) => request('POST', `${gamePath(id)}/explain`, { squares }, { token }),
  /** @param {string} lfen @param {RulesName} rules @param {AbortSignal} [signal] */
  position: (lfen, rules, signal) => request('POST', '/api/position', { lfen, rules }, { signal }),
  /** @param {string} lfen @param {RulesName} rules @param {string[]} squares */
  explain: (lfen, rules, squares) => request('POST', '/api/explain', { lfen, rules, squares }),
  /** @param {string} text */
  parseRecord: (text) => request('POST', '/api/records/parse', { text }),
  rulesHtml: () => request('GET', '/api/rules.html', undefined, { text: true }),
};

/**
 * Copies text; falls back to a hidden text area where the Clipboard API is refused.
 * @param {string} text
 */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const ta = document.createElement('textarea');
    ta.value = text;
    ta.setAttribute('readonly', '');
    ta.style.position = 'fixed';
    ta.style.opacity = '0';
    document.body.appendChild(ta);
    ta.select();
    let ok = false;
    try { ok = document.execCommand('copy'); } catch { ok = false; }
    ta.remove();
    return ok;
  }
}
