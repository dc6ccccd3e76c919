// Shared helpers. The tests touch the page only through its stable hooks:
// [data-board], [data-square], [data-piece], [data-prisoner], [data-turn],
// [data-status], [data-ply], [data-error]. Games are set up through the API.

const base = require('@playwright/test');

const { expect } = base;

/** Fails a test whose page threw an uncaught error. */
function trackErrors(page) {
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e && e.stack ? e.stack : e)));
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

async function gameState(request, id) {
  const res = await request.get(`/api/games/${id}`);
  expect(res.ok()).toBeTruthy();
  return res.json();
}

/** A fresh browser context and page (its own storage: its own seat). */
async function newPage(browser, baseURL, options = {}) {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 860 }, ...options });
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

/**
 * Opens a game, seated with `token` if given, and waits until the server's
 * state is drawn (the status line is filled and the start position shows).
 */
async function openGame(page, id, token) {
  const loaded = page.waitForResponse((r) => r.url().includes(`/api/games/${id}`) && r.request().method() === 'GET');
  await page.goto(token ? `/g/${id}?seat=${encodeURIComponent(token)}` : `/g/${id}`);
  await loaded;
  await expect(status(page)).not.toBeEmpty();
  await expect(page.locator('[data-board] [data-piece]').first()).toBeVisible();
}

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
  test, expect, square, pieceOn, ply, status, error, createGame, gameState, newPage, closePages, openGame,
  clickSquares, drag, expectBoard, boardOf, squaresOf, watchActions,
};
