// A game of the site on the analysis board (/analysis?game=<id>): the whole
// game as the main line, at its end or at ?ply=N; for a finished game, the
// engine's analysis of every move (POST and GET /api/games/{id}/analysis)
// with its graph, each side's counts and the legend of the classes.

const fs = require('node:fs');
const path = require('node:path');

const { test, expect, ply, status, createGame, moveAs, postAs, gameState, boardOf, expectBoard, clickSquares } = require('./helpers');

const ASSETS = path.resolve(__dirname, '..', '..', 'crates', 'server', 'assets');
const dict = (lang) => JSON.parse(fs.readFileSync(path.join(ASSETS, `${lang}.json`), 'utf8'));

const MOVES = ['c3d4', 'f6e5', 'd4f6', 'g7e5'];
const HUMAN = ['c3-d4', 'f6-e5', 'd4:f6', 'g7:e5'];

/** A local game of four moves (two captures), then White resigns; returns its id and final state. */
async function shortGame(request) {
  const g = await createGame(request, { mode: 'local' });
  for (let i = 0; i < MOVES.length; i++) await moveAs(request, g.id, g.token, MOVES[i], i);
  const res = await postAs(request, g.token, `/api/games/${g.id}/resign`, {});
  expect(res.status(), await res.text()).toBe(200);
  return { id: g.id, state: await gameState(request, g.id) };
}

const tree = (page) => page.locator('[data-tree]');
const mainMoves = (page) => tree(page).locator('[data-line="main"]');
const current = (page) => tree(page).locator('[aria-current]');
const ready = (page) => expect(status(page)).not.toHaveAttribute('aria-busy', 'true');

async function openAnalysis(page, url) {
  await page.addInitScript(() => localStorage.setItem('legion:engine', 'off'));
  await page.goto(url);
  await expect(tree(page)).toBeVisible();
}

for (const locale of ['en-US', 'ru-RU']) {
  const T = dict(locale.slice(0, 2));

  test.describe(`a game on the analysis board (${locale})`, () => {
    test.use({ locale });

    test('?game= loads the whole game at its end, and ?ply= at that move', async ({ page, request }) => {
      const { id, state } = await shortGame(request);
      await openAnalysis(page, `/analysis?game=${id}`);
      await expect(mainMoves(page)).toHaveText(HUMAN);
      await expect(ply(page, 4)).toHaveAttribute('aria-current', 'step');
      await expectBoard(page, boardOf(state));
      await expect(page.locator('[data-result]')).toContainText('0-1');
      await expect(page.locator('.game-panel')).toContainText(id);
      await expect(page.locator('.game-panel a')).toHaveAttribute('href', `/g/${id}`);
      await expect(page).toHaveURL(new RegExp(`game=${id}&ply=4$`));

      // A move from the middle is a variation; the game stays whole.
      await ply(page, 1).click();
      await ready(page);
      await clickSquares(page, ['b6', 'a5']);
      await expect(current(page)).toHaveText('b6-a5');
      await expect(current(page)).toHaveAttribute('data-line', 'variation');
      await expect(mainMoves(page)).toHaveText(HUMAN);

      // At a chosen move.
      await page.goto(`/analysis?game=${id}&ply=2`);
      await expect(ply(page, 2)).toHaveAttribute('aria-current', 'step');
      await expect(mainMoves(page)).toHaveCount(4);
      await expect(page.locator('[data-turn]')).toHaveAttribute('data-turn', 'w');
    });

    test('a finished game\'s computer analysis runs and shows its graph, counts and legend', async ({ page, request }) => {
      const { id } = await shortGame(request);
      await openAnalysis(page, `/analysis?game=${id}`);
      const review = page.locator('[data-review]');
      await expect(review).toContainText(T['analysis.review.title']);
      const progress = [];
      page.on('request', (r) => { if (r.url().endsWith(`/api/games/${id}/analysis`)) progress.push(r.method()); });
      await review.getByRole('button', { name: T['analysis.review.request'] }).click();

      const graph = page.locator('[data-eval-graph]');
      await expect(graph).toBeVisible({ timeout: 20_000 });
      expect(progress[0]).toBe('POST');
      // Five positions: five points, from the start to the last move.
      await expect(graph.locator('.graph-line')).toHaveAttribute('d', /^M(\S+ \S+ L){4}\S+ \S+$/);
      const legend = page.locator('[data-review-legend]');
      for (const key of ['analysis.review.legendInaccuracy', 'analysis.review.legendMistake', 'analysis.review.legendBlunder']) {
        await expect(legend).toContainText(T[key].replace(/\{from\}.*$/, '').trim());
      }
      await expect(legend.locator('li')).toHaveText([/^\?! .*10/, /^\? .*20/, /^\?\? .*30/]);
      const summary = page.locator('[data-review-summary]');
      await expect(summary.locator('tbody tr')).toHaveCount(3);
      await expect(summary.locator('thead')).toContainText(T['side.w']);
      await expect(summary.locator('thead')).toContainText(T['side.b']);

      // A click on the graph goes to that move: the left edge is the start.
      const box = await graph.boundingBox();
      await graph.click({ position: { x: 2, y: box.height / 2 } });
      await expect(current(page)).toHaveCount(0);
      await expect(page).toHaveURL(new RegExp(`game=${id}&ply=0$`));
      await graph.click({ position: { x: box.width * 0.5, y: box.height / 2 } });
      await expect(ply(page, 2)).toHaveAttribute('aria-current', 'step');
      const width = Number((await graph.getAttribute('viewBox')).split(' ')[2]);
      await expect(graph.locator('.graph-cursor')).toHaveAttribute('x1', String(width / 2));

      // The report is kept with the game: it shows again at once.
      await page.reload();
      await expect(graph).toBeVisible();
      await expect(review.getByRole('button', { name: T['analysis.review.request'] })).toHaveCount(0);
    });
  });
}

test('a game still being played has no analysis to ask for', async ({ page, request }) => {
  const g = await createGame(request, { mode: 'local' });
  await moveAs(request, g.id, g.token, 'c3d4', 0);
  await openAnalysis(page, `/analysis?game=${g.id}`);
  await expect(mainMoves(page)).toHaveText(['c3-d4']);
  await expect(page.locator('[data-review]')).toContainText('once the game has ended');
  await expect(page.locator('[data-request-analysis]')).toHaveCount(0);
});

test('a game that does not exist says so and leaves an empty board to analyse', async ({ page }) => {
  await openAnalysis(page, '/analysis?game=nosuchgame1');
  await expect(page.locator('[data-error]')).toBeVisible();
  await expect(mainMoves(page)).toHaveCount(0);
  await expect(page.locator('[data-board] [data-piece]')).toHaveCount(32);
});
