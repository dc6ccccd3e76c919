// The analysis board's move tree: a move played from the middle of a line
// starts a variation and the line stays whole; variations are promoted and
// deleted from the move's menu or the buttons under the list; the keys step
// through the tree. In English and in Russian.

const fs = require('node:fs');
const path = require('node:path');

const { test, expect, ply, clickSquares, expectBoard } = require('./helpers');

const ASSETS = path.resolve(__dirname, '..', '..', 'crates', 'server', 'assets');
const dict = (lang) => JSON.parse(fs.readFileSync(path.join(ASSETS, `${lang}.json`), 'utf8'));

// Eight quiet moves (no capture is ever due), and two other moves for
// White's third move.
const RECORD = '[White "A"]\n[Black "B"]\n\n1. c3-d4 d6-e5 2. b2-c3 c7-d6 3. a3-b4 b6-a5 4. e3-f4 a7-b6 *';
const MAIN = ['c3-d4', 'd6-e5', 'b2-c3', 'c7-d6', 'a3-b4', 'b6-a5', 'e3-f4', 'a7-b6'];

const tree = (page) => page.locator('[data-tree]');
const mainMoves = (page) => tree(page).locator('[data-line="main"]');
const variation = (page, text) => tree(page).locator('[data-line="variation"]', { hasText: text });
const current = (page) => tree(page).locator('[aria-current]');

async function loadRecord(page, T) {
  await page.addInitScript(() => localStorage.setItem('legion:engine', 'off'));
  const ready = page.waitForResponse((r) => r.url().endsWith('/api/position') && r.ok());
  await page.goto('/analysis');
  await ready;
  await page.locator('#record-input').fill(RECORD);
  await page.getByRole('button', { name: T['analysis.loadRecord'] }).click();
  await expect(mainMoves(page)).toHaveCount(8);
  // A record opens at its end, as a game does.
  await expect(ply(page, 8)).toHaveAttribute('aria-current', 'step');
}

/** Waits until the board has the server's legal moves for the position shown. */
const ready = (page) => expect(page.locator('[data-status]')).not.toHaveAttribute('aria-busy', 'true');

/** Plays a move on the board and waits until it is the move shown. */
async function play(page, squares, human) {
  await ready(page);
  await clickSquares(page, squares);
  await expect(current(page)).toHaveText(human);
}

for (const locale of ['en-US', 'ru-RU']) {
  const T = dict(locale.slice(0, 2));

  test.describe(`move tree (${locale})`, () => {
    test.use({ locale });

    test('a move from the middle of a line starts a variation and keeps the whole line', async ({ page }) => {
      await loadRecord(page, T);
      // Back to White's third move (the old bug: playing here cut the line to 5 moves).
      await ply(page, 4).click();
      await expect(ply(page, 4)).toHaveAttribute('aria-current', 'step');
      await expect(page.locator('[data-turn]')).toHaveAttribute('data-turn', 'w');
      await play(page, ['e3', 'f4'], 'e3-f4');
      await play(page, ['b6', 'a5'], 'b6-a5');

      // All eight moves are still the main line, and the variation is beside it.
      await expect(mainMoves(page)).toHaveCount(8);
      await expect(mainMoves(page)).toHaveText(MAIN);
      await expect(tree(page).locator('[data-line="variation"]')).toHaveText(['e3-f4', 'b6-a5']);
      await expect(tree(page).locator('.tree-vars')).toHaveCount(1);
      await expect(page.locator('[data-turn]')).toHaveAttribute('data-turn', 'w');

      // Back on the main line: its last move shows its position.
      await ply(page, 8).click();
      await expect(ply(page, 8)).toHaveAttribute('aria-current', 'step');
      await expect(page).toHaveURL(/lfen=/);
      // Playing a move that the tree already has goes to it: no copy is made.
      await ply(page, 4).click();
      await play(page, ['a3', 'b4'], 'a3-b4');
      await expect(ply(page, 5)).toHaveAttribute('aria-current', 'step');
      await expect(tree(page).locator('[data-node]')).toHaveCount(10);
    });

    test('a variation is promoted, made the main line and deleted', async ({ page }) => {
      await loadRecord(page, T);
      await ply(page, 4).click();
      await play(page, ['e3', 'f4'], 'e3-f4');
      await play(page, ['b6', 'a5'], 'b6-a5');

      // The move's menu: make the variation the main line.
      await variation(page, 'e3-f4').click({ button: 'right' });
      const menu = page.getByRole('menu');
      await expect(menu.getByRole('menuitem')).toHaveText([T['analysis.tree.promote'], T['analysis.tree.makeMain'], T['analysis.tree.delete']]);
      await menu.getByRole('menuitem', { name: T['analysis.tree.makeMain'] }).click();
      await expect(menu).toHaveCount(0);
      await expect(mainMoves(page)).toHaveText(['c3-d4', 'd6-e5', 'b2-c3', 'c7-d6', 'e3-f4', 'b6-a5']);
      await expect(tree(page).locator('[data-line="variation"]')).toHaveText(['a3-b4', 'b6-a5', 'e3-f4', 'a7-b6']);
      // The move shown stays the same.
      await expect(current(page)).toHaveText('b6-a5');
      await expect(current(page)).toHaveAttribute('data-ply', '6');

      // The buttons under the list: promote the old line back.
      await variation(page, 'a7-b6').click();
      await expect(current(page)).toHaveText('a7-b6');
      await page.locator('.tree-actions').getByRole('button', { name: T['analysis.tree.promote'] }).click();
      await expect(mainMoves(page)).toHaveText(MAIN);
      await expect(current(page)).toHaveAttribute('data-ply', '8');

      // Delete the variation from its menu: only the main line is left.
      await variation(page, 'e3-f4').click({ button: 'right' });
      await page.getByRole('menuitem', { name: T['analysis.tree.delete'] }).click();
      await expect(tree(page).locator('[data-line="variation"]')).toHaveCount(0);
      await expect(mainMoves(page)).toHaveText(MAIN);
      await expect(current(page)).toHaveAttribute('data-ply', '8');

      // Deleting from the move shown goes back to the move before.
      await ply(page, 7).click();
      await page.locator('.tree-actions').getByRole('button', { name: T['analysis.tree.delete'] }).click();
      await expect(mainMoves(page)).toHaveText(MAIN.slice(0, 6));
      await expect(current(page)).toHaveAttribute('data-ply', '6');
    });
  });
}

test('the keys step through the tree and between variations', async ({ page }) => {
  const T = dict('en');
  await loadRecord(page, T);
  const kb = page.keyboard;
  await kb.press('Home');
  await expect(current(page)).toHaveCount(0);
  await expectBoard(page, {
    a8: 'bR', b8: 'bN', c8: 'bB', d8: 'bK', e8: 'bQ', f8: 'bB', g8: 'bN', h8: 'bR',
    a7: 'bM', c7: 'bM', e7: 'bM', g7: 'bM', b6: 'bM', d6: 'bM', f6: 'bM', h6: 'bM',
    a3: 'wM', c3: 'wM', e3: 'wM', g3: 'wM', b2: 'wM', d2: 'wM', f2: 'wM', h2: 'wM',
    a1: 'wR', b1: 'wN', c1: 'wB', d1: 'wQ', e1: 'wK', f1: 'wB', g1: 'wN', h1: 'wR',
  });
  await kb.press('ArrowRight');
  await kb.press('ArrowRight');
  await kb.press('ArrowRight');
  await expect(ply(page, 3)).toHaveAttribute('aria-current', 'step');
  await kb.press('ArrowLeft');
  await expect(ply(page, 2)).toHaveAttribute('aria-current', 'step');
  await kb.press('End');
  await expect(ply(page, 8)).toHaveAttribute('aria-current', 'step');

  // Two variations for White's third move.
  await ply(page, 4).click();
  await play(page, ['e3', 'f4'], 'e3-f4');
  await play(page, ['b6', 'a5'], 'b6-a5');
  await ply(page, 4).click();
  await play(page, ['g3', 'h4'], 'g3-h4');
  await expect(tree(page).locator('.tree-vars .tree-line')).toHaveCount(2);

  // Up and down go round the three moves of that turn.
  await ply(page, 5).click();
  await kb.press('ArrowDown');
  await expect(current(page)).toHaveText('e3-f4');
  await kb.press('ArrowDown');
  await expect(current(page)).toHaveText('g3-h4');
  await kb.press('ArrowDown');
  await expect(current(page)).toHaveText('a3-b4');
  await kb.press('ArrowUp');
  await expect(current(page)).toHaveText('g3-h4');
  await kb.press('ArrowUp');
  await expect(current(page)).toHaveText('e3-f4');
  // Right follows the variation; End goes to its end; Left comes back.
  await kb.press('ArrowRight');
  await expect(current(page)).toHaveText('b6-a5');
  await expect(current(page)).toHaveAttribute('data-line', 'variation');
  await kb.press('End');
  await expect(current(page)).toHaveText('b6-a5');
  // From a move without other moves beside it, Up switches at the branch before it.
  await kb.press('ArrowUp');
  await expect(current(page)).toHaveText('a3-b4');
  await kb.press('ArrowLeft');
  await kb.press('ArrowLeft');
  await expect(ply(page, 3)).toHaveAttribute('aria-current', 'step');
  await expect(page.locator('[data-turn]')).toHaveAttribute('data-turn', 'b');
});

test('the engine shows up to three lines when the server sends them, else its best line', async ({ page }) => {
  const start = 'rnbkqbnr/m1m1m1m1/1m1m1m1m/8/8/M1M1M1M1/1M1M1M1M/RNBQKBNR w KQkq 0 1';
  const mv = (canonical, human) => ({ canonical, human });
  let answer = {
    score: 'cp 30', depth: 9, nodes: 12345, best: mv('g1f3', 'Nf3'),
    pv: [mv('g1f3', 'Nf3'), mv('b8c6', 'Nc6')],
    lines: [
      { score: 'cp 30', pv: [mv('g1f3', 'Nf3'), mv('b8c6', 'Nc6')] },
      { score: 'cp 12', pv: [mv('c3d4', 'c3-d4'), mv('f6e5', 'f6-e5')] },
      { score: 'cp -5', pv: [mv('a3b4', 'a3-b4')] },
      { score: 'cp -40', pv: [mv('e3f4', 'e3-f4')] },
    ],
  };
  const asked = [];
  await page.route('**/api/analyse', async (route) => {
    asked.push(route.request().postDataJSON());
    await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(answer) });
  });
  await page.addInitScript(() => localStorage.setItem('legion:engine', 'on'));
  await page.goto(`/analysis?lfen=${encodeURIComponent(start)}`);
  const lines = page.locator('[data-engine-lines] .pv-line');
  await expect(lines).toHaveCount(3);
  await expect(lines.nth(0)).toContainText('+0.30');
  await expect(lines.nth(0)).toContainText('Nf3');
  await expect(lines.nth(1)).toContainText('+0.12');
  await expect(lines.nth(2)).toContainText('-0.05');
  await expect(page.locator('.eval .score')).toHaveText('+0.30');
  expect(asked[0].lines).toBe(3);
  // The first line's arrow in blue, the others' in grey.
  await expect(page.locator('[data-board] .arrow-blue')).toHaveCount(1);
  await expect(page.locator('[data-board] .arrow-grey')).toHaveCount(2);

  // A move of a line plays the line up to it (here two moves) into the tree.
  await lines.nth(1).getByRole('button', { name: 'f6-e5' }).click();
  await expect(ply(page, 2)).toHaveAttribute('aria-current', 'step');
  await expect(ply(page, 1)).toHaveText('c3-d4');

  // Without `lines`: the one best line.
  answer = { score: 'cp -20', depth: 7, nodes: 999, best: mv('g1f3', 'Nf3'), pv: [mv('g1f3', 'Nf3')] };
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  await expect(lines).toHaveCount(1);
  await expect(lines.first()).toContainText('Best line');
  await expect(page.locator('.eval .score')).toHaveText('+0.20'); // Black to move: -20 for Black is +0.20 for White
});
