// Playing on one board: against the engine from the home page, and local
// games (both sides on one device) from set positions.

const {
  test, expect, square, pieceOn, ply, status, error, createGame, gameState, openGame,
  clickSquares, drag, expectBoard, boardOf, squaresOf,
} = require('./helpers');

test('plays the engine from the home page', async ({ page, request }) => {
  const ready = page.waitForResponse((r) => r.url().endsWith('/api/position') && r.ok());
  await page.goto('/');
  await ready; // the initial position's legal moves are in
  await expect(page.locator('[data-board]')).toBeVisible();
  await expect(page.locator('[data-turn]')).toHaveAttribute('data-turn', 'w');
  await expect(page.locator('[data-ply]')).toHaveCount(0);

  // The first move creates the game.
  await clickSquares(page, ['c3', 'd4']);
  await expect(page).toHaveURL(/\/g\/[A-Za-z0-9_-]+$/);
  await expect(ply(page, 1)).toHaveText('c3-d4');
  await expect(pieceOn(page, 'd4')).toHaveAttribute('data-piece', 'wM');

  // The engine answers: its move is listed, and it is White's turn again.
  await expect(ply(page, 2)).toBeVisible();
  await expect(page.locator('[data-turn]')).toHaveAttribute('data-turn', 'w');
  const id = new URL(page.url()).pathname.split('/').pop();
  let st = await gameState(request, id);
  expect(st.mode).toBe('engine');
  expect(st.ply).toBe(2);
  await expect(ply(page, 2)).toHaveText(st.moves[1].human);
  await expectBoard(page, boardOf(st)); // the board shows the engine's move

  // A second move of ours (whatever is legal now), and a second answer.
  const mine = st.legal.find((m) => m.kind === 'jump') || st.legal.find((m) => m.kind === 'step') || st.legal[0];
  await clickSquares(page, squaresOf(mine));
  await expect(ply(page, 3)).toHaveText(mine.human);
  await expect(ply(page, 4)).toBeVisible();
  await expect(page.locator('[data-turn]')).toHaveAttribute('data-turn', 'w');
  await expect(page.locator('[data-ply]')).toHaveCount(4);
  st = await gameState(request, id);
  expect(st.moves.map((m) => m.canonical).slice(2, 3)).toEqual([mine.canonical]);
  await expectBoard(page, boardOf(st));
});

test('enters a Legion capture series square by square', async ({ page, request }) => {
  // The man on c1 must capture; after c1:e3:c5 it may go on to a7 (over b6)
  // or to e7 (over d6), so every landing has to be entered.
  const g = await createGame(request, { mode: 'local', start: '6k1/8/1m1m4/8/3m4/8/3m4/2M4K w - 0 1' });
  await openGame(page, g.id, g.token);
  await expect(status(page)).toContainText('4.2');

  await clickSquares(page, ['c1', 'e3', 'c5']);
  await expect(page.locator('[data-ply]')).toHaveCount(0); // not played yet: two series fit
  await square(page, 'e7').click();

  await expect(ply(page, 1)).toHaveText('c1:e3:c5:e7');
  await expect(page.locator('[data-turn]')).toHaveAttribute('data-turn', 'b');
  // d2, d4 and d6 are gone; b6 (not jumped) stays; the man stands on e7.
  await expectBoard(page, { e7: 'wM', b6: 'bM', g8: 'bK', h1: 'wK' });
});

test('forms a construct and liberates its prisoner', async ({ page, request }) => {
  const g = await createGame(request, { mode: 'local', start: '2k5/8/5m2/4m3/8/8/8/Q6K w - 0 1' });
  await openGame(page, g.id, g.token);

  // The Queen takes the man on e5 prisoner (4.1), by drag and drop.
  await drag(page, 'a1', 'e5');
  await expect(ply(page, 1)).toHaveText('Qxe5');
  await expect(pieceOn(page, 'e5')).toHaveAttribute('data-piece', 'wQ');
  await expect(pieceOn(page, 'e5')).toHaveAttribute('data-prisoner', 'bM');
  await expect(pieceOn(page, 'a1')).toHaveCount(0);

  // Black's man jumps the construct: the Queen is removed, the prisoner
  // stays on e5 as a free Black man (Liberation, 4.1).
  await expect(page.locator('[data-turn]')).toHaveAttribute('data-turn', 'b');
  await clickSquares(page, ['f6', 'd4']);
  await expect(ply(page, 2)).toHaveText('f6:d4');
  await expectBoard(page, { e5: 'bM', d4: 'bM', c8: 'bK', h1: 'wK' });
  await expect(page.locator('[data-board] [data-piece="wQ"]')).toHaveCount(0);
  await expect(page.locator('[data-board] [data-prisoner]')).toHaveCount(0);
});

test('explains an illegal move by its rule', async ({ page, request }) => {
  // A non-capture while a Legion capture is compulsory: 4.2.
  const g = await createGame(request, { mode: 'local', start: 'k7/8/8/8/3m4/2M5/8/7K w - 0 1' });
  await openGame(page, g.id, g.token);
  await expect(error(page)).toBeHidden();
  await clickSquares(page, ['h1', 'g2']);
  await expect(error(page)).toBeVisible();
  await expect(error(page)).toContainText('4.2');
  await expect(error(page)).toContainText('c3:e5');
  await expect(pieceOn(page, 'h1')).toHaveAttribute('data-piece', 'wK');
  await expect(page.locator('[data-ply]')).toHaveCount(0);
  // The legal capture is still accepted, and the explanation goes away.
  await clickSquares(page, ['c3', 'e5']);
  await expect(ply(page, 1)).toHaveText('c3:e5');
  await expect(error(page)).toBeHidden();

  // A man moved backwards: 2.4.
  const g2 = await createGame(request, { mode: 'local', start: 'k7/8/8/8/8/2M5/8/7K w - 0 1' });
  await openGame(page, g2.id, g2.token);
  await clickSquares(page, ['c3', 'b2']);
  await expect(error(page)).toContainText('2.4');
  await expect(pieceOn(page, 'c3')).toHaveAttribute('data-piece', 'wM');
  await expect(pieceOn(page, 'b2')).toHaveCount(0);
  await expect(page.locator('[data-turn]')).toHaveAttribute('data-turn', 'w');
});

test('a rate-limited request says when to try again', async ({ page }) => {
  // The server's 429 (docs/API.md) is simulated: the limit itself is the server's business.
  await page.route('**/api/games', (route) => (route.request().method() === 'POST'
    ? route.fulfill({ status: 429, headers: { 'Retry-After': '7' }, contentType: 'application/json', body: '{"error":"too many new games from your address"}' })
    : route.continue()));
  await page.goto('/');
  await page.getByRole('button', { name: 'New game' }).click();
  await page.getByLabel('Both sides on this device').check();
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page.locator('dialog.new-game [role=alert]')).toHaveText('Too many requests: try again in 7 s');
  await expect(page).toHaveURL(/\/$/);
});
