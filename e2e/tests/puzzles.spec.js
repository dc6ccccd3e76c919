// Puzzles (issue 21): a visitor solves one (the opponent's move is played,
// then each solver move), keeps a score in the browser, tries a wrong move
// (told as wrong, refuted, tried again) and asks for hints; a signed-in
// player on a phone, in Russian, solves one and sees the rating change;
// the themes page explains a theme with its rule.

const { test, expect, newPage, closePages, clickSquares } = require('./helpers');

/** The squares a canonical move visits (6.3): "c3e5g7" -> c3, e5, g7. */
const squares = (canonical) => canonical.match(/[a-h][1-8]/g);

const state = (page) => page.locator('[data-puzzle-status]');

/** Opens the next puzzle, waits for the solver's turn, and reads it. */
async function openNext(page, path = '/puzzles') {
  await page.goto(path);
  await expect(state(page)).toHaveAttribute('data-state', 'yours', { timeout: 15_000 });
  const id = new URL(page.url()).pathname.split('/').pop();
  const res = await page.request.get(`/api/puzzles/${id}`);
  expect(res.status()).toBe(200);
  return res.json();
}

/** Plays the solver's moves of `p`, waiting for the opponent's replies. */
async function solve(page, p) {
  for (let i = 1; i < p.moves.length; i += 2) {
    await expect(state(page)).toHaveAttribute('data-state', 'yours');
    await clickSquares(page, squares(p.moves[i]));
    // The move is taken: not the solver's turn until the reply is played.
    await expect(state(page)).not.toHaveAttribute('data-state', 'yours');
  }
  await expect(state(page)).toHaveAttribute('data-state', 'over');
}

test('a visitor solves a puzzle, then errs, is refuted, retries and takes hints', async ({ browser, baseURL }) => {
  const page = await newPage(browser, baseURL);
  const p = await openNext(page);
  expect(p.moves.length).toBeGreaterThanOrEqual(4);
  await expect(page.locator('[data-puzzle-title]')).toContainText(p.id);
  await solve(page, p);
  await expect(state(page)).toHaveAttribute('data-result', 'solved');
  await expect(state(page)).toHaveText('Solved!');
  // The score kept in this browser moved up from the start.
  await expect(page.locator('[data-puzzle-score]')).toContainText('in this browser');
  const kept = await page.evaluate(() => JSON.parse(localStorage.getItem('legion:puzzle-score')));
  expect(kept.rating).toBeGreaterThan(1500);
  await expect(page.locator('[data-puzzle-themes-shown] a').first()).toBeVisible();

  // The same puzzle again: a legal move that is not the solution.
  await openNext(page, `/puzzles/${p.id}`);
  const before = await (await page.request.post('/api/position', { data: { lfen: p.lfen } })).json();
  const setting = before.legal.find((m) => m.canonical === p.moves[0]);
  const view = await (await page.request.post('/api/position', { data: { lfen: setting.lfen } })).json();
  const wrong = view.legal.find((m) => m.canonical !== p.moves[1]);
  test.skip(!wrong, 'the first solver move is the only legal one');
  await clickSquares(page, squares(wrong.canonical));
  await expect(state(page)).toHaveAttribute('data-state', 'wrong');
  await expect(state(page)).toContainText('not the move');
  await page.locator('[data-puzzle-retry]').click();
  await expect(state(page)).toHaveAttribute('data-state', 'yours');
  // Hints: first the piece, then the move's arrow.
  const from = squares(p.moves[1])[0];
  await page.locator('[data-puzzle-hint]').click();
  await expect(page.locator(`[data-board] [data-square="${from}"] .mark-green`)).toHaveCount(1);
  await page.locator('[data-puzzle-hint]').click();
  await expect(state(page)).toContainText('arrow');
  await page.locator('[data-puzzle-solution]').click();
  await expect(state(page)).toHaveAttribute('data-result', 'failed');
  await closePages(page);
});

test('a signed-in player on a phone, in Russian, solves a puzzle and gains rating', async ({ browser, baseURL }) => {
  const page = await newPage(browser, baseURL, { locale: 'ru-RU', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const name = `P${Date.now().toString(36).slice(-6)}`;
  const reg = await page.request.post('/api/account/register', { data: { username: name, password: 'correct horse' } });
  expect(reg.status()).toBe(201);
  const p = await openNext(page);
  await expect(page.locator('[data-puzzle-title]')).toContainText('Задача');
  // The whole board is on the screen.
  const box = await page.locator('[data-board]').boundingBox();
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390 + 1);
  await solve(page, p);
  await expect(state(page)).toHaveText('Решено!');
  await expect(page.locator('[data-puzzle-score]')).toContainText('Ваш рейтинг в задачах');
  await expect(page.locator('[data-puzzle-score]')).toHaveAttribute('data-diff', /^\+\d+$/);
  const me = await (await page.request.get('/api/account/puzzles')).json();
  expect(me.plays).toBe(1);
  await closePages(page);
});

test('the themes page explains a theme with its rule', async ({ browser, baseURL }) => {
  const page = await newPage(browser, baseURL);
  await page.goto('/puzzles/themes');
  await expect(page.locator('[data-theme="capture"]')).toContainText('Capture');
  await page.locator('[data-theme="liberation"] a').click();
  await expect(page.locator('[data-theme-title]')).toHaveText('Liberation');
  await expect(page.locator('a[href="/rules#rule-4-1"]')).toBeVisible();
  await closePages(page);
});
