// The Settings dialog (issue 19, item 9): board colours and piece sets
// (several of each), animation speed, premoves and move confirmation,
// kept in this browser, in both languages.

const { test, expect, createGame, openGame, clickSquares, newPage, closePages, ply } = require('./helpers');

/** Settings put where the app keeps them, before the page loads. */
async function keep(page, value) {
  await page.context().addInitScript((v) => { try { localStorage.setItem('legion:settings', v); } catch { /* about:blank */ } }, JSON.stringify(value));
}

test('board colours, piece set, speed and the two switches are chosen, shown at once and kept', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('[data-board] [data-piece="wK"]')).toBeVisible();
  await page.locator('[data-settings-button]').click();
  const dialog = page.locator('dialog[data-settings]');
  await expect(dialog.getByRole('heading', { name: 'Settings' })).toBeVisible();
  await dialog.getByLabel('Green').check();
  await dialog.getByLabel('Letters').check();
  await dialog.getByLabel('None').check();
  await dialog.getByLabel(/Premoves/).uncheck();
  await dialog.getByLabel('Confirm each move made on the board').check();
  // At once: the dark squares' colour, the Kings drawn as lettered discs.
  const dark = page.locator('[data-board] [data-square="a1"] .bg');
  await expect(dark).toHaveCSS('fill', 'rgb(111, 143, 85)');
  await expect(page.locator('#lg-wK text')).toHaveText('K');
  expect(JSON.parse(await page.evaluate(() => localStorage.getItem('legion:settings')))).toEqual({
    board: 'green', pieces: 'letters', animation: 'off', premoves: false, confirmMoves: true, chat: true,
  });
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();
  // Kept: a new page load shows them, and the dialog has them checked.
  await page.reload();
  await expect(page.locator('[data-board] [data-square="a1"] .bg')).toHaveCSS('fill', 'rgb(111, 143, 85)');
  await expect(page.locator('#lg-wQ text')).toHaveText('Q');
  await page.locator('[data-settings-button]').click();
  await expect(page.locator('dialog[data-settings]').getByLabel('Blue')).not.toBeChecked();
  await page.locator('dialog[data-settings]').getByLabel('Wood').check();
  await expect(page.locator('[data-board] [data-square="a1"] .bg')).toHaveCSS('fill', 'rgb(156, 107, 74)');
});

test('with move confirmation on, a move on the board waits for Play; Cancel leaves the position', async ({ page, request }) => {
  await keep(page, { confirmMoves: true });
  const g = await createGame(request, { mode: 'local' });
  const sent = [];
  page.on('request', (r) => { if (r.method() === 'POST' && r.url().endsWith(`/api/games/${g.id}/moves`)) sent.push(r.url()); });
  await openGame(page, g.id, g.token);
  await clickSquares(page, ['c3', 'd4']);
  const confirm = page.locator('.confirm');
  await expect(confirm).toContainText('Play c3-d4?');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.locator('[data-board] [data-square="c3"] [data-piece]')).toHaveAttribute('data-piece', 'wM');
  expect(sent).toEqual([]);
  await clickSquares(page, ['c3', 'd4']);
  await confirm.getByRole('button', { name: 'Play', exact: true }).click();
  await expect(ply(page, 1)).toHaveText('c3-d4');
  expect(sent.length).toBe(1);
});

test('with premoves off nothing is entered while the opponent is to move; with animation off no move is animated', async ({ page, request }) => {
  await keep(page, { premoves: false, animation: 'off' });
  const g = await createGame(request, { mode: 'friend', color: 'black' });
  const friend = await (await request.post(`/api/games/${g.id}/join`, { data: { invite: g.invite } })).json();
  await openGame(page, g.id, g.token);
  await page.evaluate(() => {
    const board = document.querySelector('[data-board]');
    window.animated = 0;
    new MutationObserver(() => { if (board.hasAttribute('data-animating')) window.animated++; }).observe(board, { attributes: true });
  });
  // White (the friend) to move: our clicks enter no premove.
  await clickSquares(page, ['f6', 'e5']);
  await expect(page.locator('[data-board]')).not.toHaveAttribute('data-premove');
  await expect(page.locator('[data-premove-note]')).toBeHidden();
  const r = await request.post(`/api/games/${g.id}/moves`, { headers: { Authorization: `Bearer ${friend.token}` }, data: { move: 'c3d4', ply: 0 } });
  expect(r.status()).toBe(200);
  await expect(ply(page, 1)).toHaveText('c3-d4');
  expect(await page.evaluate(() => window.animated)).toBe(0);
});

test('the dialog speaks Russian on the Russian site', async ({ browser, baseURL }) => {
  const page = await newPage(browser, baseURL, { locale: 'ru-RU' });
  await page.goto('/');
  await page.locator('[data-settings-button]').click();
  const dialog = page.locator('dialog[data-settings]');
  await expect(dialog.getByRole('heading', { name: 'Настройки' })).toBeVisible();
  for (const words of ['Цвета доски', 'Фигуры', 'Анимация ходов', 'Подтверждать каждый ход']) await expect(dialog).toContainText(words);
  await dialog.getByLabel('Буквы').check();
  await expect(page.locator('#lg-wK text')).toHaveText('Кр');
  await closePages(page);
});
