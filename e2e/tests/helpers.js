// Shared helpers. The tests touch the page only through its stable hooks:
// [data-board], [data-square], [data-piece], [data-prisoner], [data-turn],
// [data-status], [data-ply], [data-error], [data-clock]. Games are set up
// through the API; a seat's token goes into the browser's localStorage,
// where the app keeps it (tokens never travel in a URL).

const base = require('@playwright/test');

const { expect } = base;

/**
 * Fails a test whose page threw an uncaught error or broke the server's
 * Content-Security-Policy (Chromium reports each violation as a console
 * error: an inline style or script, an event handler attribute ...).
 */
function trackErrors(page) {
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e && e.stack ? e.stack : e)));
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) errors.push(`CSP violation: ${m.text()}`);
  });
  return errors;
}

const test = base.test.extend({
  page: async ({ page }, use) => {
    const errors = trackErrors(page);
    await use(page);
    expect(errors, 'uncaught errors in the page').toEqual([]);
  },
});

const square = (page, sq) => page.locator(`[data-board] [data-square="${sq}"]`);
const pieceOn = (page, sq) => square(page, sq).locator('[data-piece]');
const ply = (page, n) => page.locator(`[data-ply="${n}"]`);
const status = (page) => page.locator('[data-status]');
const error = (page) => page.locator('[data-error]');

/** POST /api/games; returns {id, token, invite, color, state}. */
async function createGame(request, body) {
  const res = await request.post('/api/games', { data: body });
  expect(res.status(), await res.text()).toBe(201);
  return res.json();
}

async function gameState(request, id, token) {
  const res = await request.get(`/api/games/${id}`, token ? { headers: { Authorization: `Bearer ${token}` } } : {});
  expect(res.ok()).toBeTruthy();
  return res.json();
}

/** POST /api/games/{id}/join with an invite code; returns {token, color, state}. */
async function joinGame(request, id, invite) {
  const res = await request.post(`/api/games/${id}/join`, { data: { invite } });
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}

/** A POST to a game's action with a seat token; returns the response. */
function postAs(request, token, url, data) {
  return request.post(url, { data, headers: token ? { Authorization: `Bearer ${token}` } : {} });
}

/** Plays a move through the API; returns the new state. */
async function moveAs(request, id, token, move, ply) {
  const res = await postAs(request, token, `/api/games/${id}/moves`, { move, ply });
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}

/**
 * Gives the page's browser the seat `token` of game `id` (and the invite
 * code of a friend game it created), as the app keeps them.
 */
async function seat(page, id, token, invite) {
  const items = [[`legion:seat:${id}`, token]];
  if (invite) items.push([`legion:invite:${id}`, invite]);
  await page.context().addInitScript((pairs) => {
    try { for (const [k, v] of pairs) localStorage.setItem(k, v); } catch { /* about:blank has no storage */ }
  }, items);
}

/** A fresh browser context and page (its own storage: its own seat), in English unless `options.locale` says otherwise. */
async function newPage(browser, baseURL, options = {}) {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 860 }, locale: 'en-US', ...options });
  const page = await context.newPage();
  const errors = trackErrors(page);
  page.uncaughtErrors = errors;
  return page;
}

/** Closes pages made by newPage, failing if any of them threw. */
async function closePages(...pages) {
  for (const p of pages) await p.context().close();
  for (const p of pages) expect(p.uncaughtErrors, 'uncaught errors in the page').toEqual([]);
}

/** Resolves once the page has fetched the game's state. */
function gameLoaded(page, id) {
  return page.waitForResponse((r) => new URL(r.url()).pathname === `/api/games/${id}` && r.request().method() === 'GET');
}

/**
 * Opens a game, seated with `token` if given (put in the browser's storage
 * first, with the `invite` code of a friend game the browser made), and waits until the server's state is drawn (the status line is
 * filled and the start position shows).
 */
async function openGame(page, id, token, { invite } = {}) {
  if (token) await seat(page, id, token, invite);
  const loaded = gameLoaded(page, id);
  await page.goto(`/g/${id}`);
  await loaded;
  await expect(status(page)).not.toBeEmpty();
  await expect(page.locator('[data-board] [data-piece]').first()).toBeVisible();
}

/** Opens a friend game's invite link, `/g/{id}?invite=<code>`, like the friend does. */
async function openInvite(page, id, invite) {
  const loaded = gameLoaded(page, id);
  await page.goto(`/g/${id}?invite=${encodeURIComponent(invite)}`);
  await loaded;
  await expect(page).toHaveURL(new RegExp(`/g/${id}$`)); // the code leaves the address bar
  await expect(status(page)).not.toBeEmpty();
  await expect(page.locator('[data-board] [data-piece]').first()).toBeVisible();
}

/** The seat token the page's browser holds for game `id` (or null). */
const tokenIn = (page, id) => page.evaluate((key) => localStorage.getItem(key), `legion:seat:${id}`);

/** Clicks squares in order (a move, or a capture series landing by landing). */
async function clickSquares(page, squares) {
  for (const sq of squares) await square(page, sq).click();
}

/** Drags the piece on `from` to `to` with a real pointer, in small steps. */
async function drag(page, from, to) {
  const a = await square(page, from).boundingBox();
  const b = await square(page, to).boundingBox();
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2 + 8, a.y + a.height / 2 + 8, { steps: 2 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 8 });
  await page.mouse.up();
}

/** Expects exactly these occupants on the board: {e4: 'wQ', c5: 'wQ/bM'}. */
async function expectBoard(page, board) {
  const entries = Object.entries(board);
  for (const [sq, code] of entries) {
    const [piece, prisoner] = code.split('/');
    await expect(pieceOn(page, sq)).toHaveAttribute('data-piece', piece);
    if (prisoner) await expect(pieceOn(page, sq)).toHaveAttribute('data-prisoner', prisoner);
    else await expect(pieceOn(page, sq)).not.toHaveAttribute('data-prisoner');
  }
  await expect(page.locator('[data-board] [data-piece]')).toHaveCount(entries.length);
}

/** The API's board ({sq: {piece, prisoner}}) in expectBoard's form. */
function boardOf(state) {
  const out = {};
  for (const [sq, o] of Object.entries(state.board)) out[sq] = o.prisoner ? `${o.piece}/${o.prisoner}` : o.piece;
  return out;
}

/** The squares to click for a legal move of the API. */
const squaresOf = (move) => (move.kind === 'jump' ? move.path : [move.from, move.to]);

/** Records the move and explain requests a page sends. */
function watchActions(page) {
  const sent = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && /\/api\/games\/[^/]+\/(moves|explain)$/.test(r.url())) sent.push(r.url());
  });
  return sent;
}

module.exports = {
  test, expect, square, pieceOn, ply, status, error, createGame, gameState, joinGame, postAs, moveAs, seat,
  newPage, closePages, openGame, openInvite, tokenIn, clickSquares, drag, expectBoard, boardOf, squaresOf, watchActions,
};
