// Talking to the server (docs/API.md). Every call resolves to parsed JSON or
// throws an ApiError whose message is words a person can read. The server
// writes its error messages in the page's language (the `lang` cookie
// travels with every request); the page's own are from i18n.js.

import { t } from './i18n.js';

export class ApiError extends Error {
  constructor(status, message, rule, body) {
    super(message);
    this.status = status;
    this.rule = rule || null;
    this.body = body || null;
  }
}

const TOKEN_KEY = (id) => `legion:seat:${id}`;

export const seats = {
  get(id) {
    try { return localStorage.getItem(TOKEN_KEY(id)); } catch { return null; }
  },
  set(id, token) {
    try { localStorage.setItem(TOKEN_KEY(id), token); } catch { /* private mode: the seat lasts this page only */ }
  },
  getExtra(id, key) {
    try { return localStorage.getItem(`legion:${key}:${id}`); } catch { return null; }
  },
  setExtra(id, key, value) {
    try { localStorage.setItem(`legion:${key}:${id}`, value); } catch { /* ignore */ }
  },
};

/** Seconds from a Retry-After header (seconds or an HTTP date), or null. */
function retryAfterSeconds(value) {
  if (!value) return null;
  if (/^\s*\d+\s*$/.test(value)) return Math.max(1, Number(value));
  const when = Date.parse(value);
  return Number.isFinite(when) ? Math.max(1, Math.ceil((when - Date.now()) / 1000)) : null;
}

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

export async function request(method, url, body, { token, signal, text } = {}) {
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  let res;
  try {
    res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal, cache: 'no-store' });
  } catch (e) {
    if (e && e.name === 'AbortError') throw e;
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

export const api = {
  createGame: (opts) => request('POST', '/api/games', opts),
  game: (id, token) => request('GET', `/api/games/${encodeURIComponent(id)}`, undefined, { token }),
  move: (id, token, move, ply) => request('POST', `/api/games/${encodeURIComponent(id)}/moves`, { move, ply }, { token }),
  join: (id, invite) => request('POST', `/api/games/${encodeURIComponent(id)}/join`, { invite }),
  abort: (id, token) => request('POST', `/api/games/${encodeURIComponent(id)}/abort`, {}, { token }),
  takeback: (id, token, action) => request('POST', `/api/games/${encodeURIComponent(id)}/takeback`, { action }, { token }),
  undo: (id, token) => request('POST', `/api/games/${encodeURIComponent(id)}/undo`, {}, { token }),
  resign: (id, token) => request('POST', `/api/games/${encodeURIComponent(id)}/resign`, {}, { token }),
  draw: (id, token, action) => request('POST', `/api/games/${encodeURIComponent(id)}/draw`, { action }, { token }),
  /** After the game: `{}` starts it at once (engine, local); friends `offer`, `accept` or `decline`. */
  rematch: (id, token, action) => request('POST', `/api/games/${encodeURIComponent(id)}/rematch`, action ? { action } : {}, { token }),
  explainInGame: (id, token, squares) => request('POST', `/api/games/${encodeURIComponent(id)}/explain`, { squares }, { token }),
  record: (id) => request('GET', `/api/games/${encodeURIComponent(id)}/record`, undefined, { text: true }),
  position: (lfen, rules, signal) => request('POST', '/api/position', { lfen, rules }, { signal }),
  explain: (lfen, rules, squares) => request('POST', '/api/explain', { lfen, rules, squares }),
  analyse: (lfen, rules, movetime_ms, signal) => request('POST', '/api/analyse', { lfen, rules, moves: [], movetime_ms }, { signal }),
  parseRecord: (text) => request('POST', '/api/records/parse', { text }),
  rulesHtml: () => request('GET', '/api/rules.html', undefined, { text: true }),
};

/** Copies text; falls back to a hidden text area where the Clipboard API is refused. */
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
