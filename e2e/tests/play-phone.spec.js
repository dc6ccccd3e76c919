// Phones (issue 19, item 7): held upright, the game's actions come right
// under the status, reachable without scrolling past the move list; held
// sideways (844×390), nothing scrolls inside the screen and a toast never
// covers our own clock; and help for fingers says "touch", not "right-click".

const { test, expect, createGame, joinGame, moveAs, openGame, newPage, closePages } = require('./helpers');

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const SIDEWAYS = { viewport: { width: 844, height: 390 }, isMobile: true, hasTouch: true };

/** A friend game on the clock, 14 moves in, White's seat for the page. */
async function longGame(request) {
  const g = await createGame(request, { mode: 'friend', color: 'white', clock: { initial_s: 600, increment_s: 0 } });
  const friend = await joinGame(request, g.id, g.invite);
  let st = friend.state;
  // Varied moves: the same one each time would repeat the position (5.3).
  for (let i = 0; i < 14; i++) st = await moveAs(request, g.id, st.turn === 'w' ? g.token : friend.token, st.legal[(i * 7) % st.legal.length].canonical, st.ply);
  expect(st.status).toBe('active');
  return g;
}

test('upright: New game, Offer draw and Resign are on screen, above the move list, without scrolling', async ({ browser, baseURL, request }) => {
  const g = await longGame(request);
  const page = await newPage(browser, baseURL, PHONE);
  await openGame(page, g.id, g.token);
  await expect(page.locator('[data-ply="14"]')).toBeAttached();
  const list = await page.locator('.move-list').boundingBox();
  for (const name of ['New game', 'Offer draw', 'Resign']) {
    const b = await page.locator('.panel.actions').getByRole('button', { name, exact: true }).boundingBox();
    expect(b.y + b.height, name).toBeLessThanOrEqual(844);
    expect(b.y, name).toBeLessThan(list.y);
  }
  expect(await page.evaluate(() => scrollY)).toBe(0);
  await closePages(page);
});

test('sideways: the side column does not scroll inside the screen, and a toast leaves our clock in view', async ({ browser, baseURL, request }) => {
  const g = await longGame(request);
  const page = await newPage(browser, baseURL, SIDEWAYS);
  await openGame(page, g.id, g.token);
  const side = await page.locator('.side-col').evaluate((el) => ({ overflow: getComputedStyle(el).overflowY, scroll: el.scrollHeight, client: el.clientHeight }));
  expect(side.overflow).toBe('visible');
  expect(side.scroll).toBeLessThanOrEqual(side.client + 1);
  // The page itself scrolls to the tools; the board and our strip stay in view.
  await page.locator('.panel.actions').getByRole('button', { name: 'Copy LFEN' }).scrollIntoViewIfNeeded();
  await page.locator('.panel.actions').getByRole('button', { name: 'Copy LFEN' }).click();
  const toast = page.locator('#toast.show');
  await expect(toast).toBeVisible();
  const ours = await page.locator('.board-col > .player').last().boundingBox();
  const clock = await page.locator('.board-col > .player').last().locator('[data-clock]').boundingBox();
  const note = await toast.boundingBox();
  const overlaps = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  expect(clock).not.toBeNull();
  expect(overlaps(note, clock)).toBe(false);
  expect(ours.y + ours.height).toBeLessThanOrEqual(390);
  await expect(page.locator('[data-board]')).toBeInViewport({ ratio: 1 });
  await closePages(page);
});

test('on a touch screen the help says to touch and hold, not to right-click', async ({ browser, baseURL }) => {
  const page = await newPage(browser, baseURL, PHONE);
  await page.goto('/analysis');
  const help = page.locator('.tree-help');
  await expect(help).toContainText('Touch and hold a move');
  await expect(help).not.toContainText(/right-click/i);
  await closePages(page);
});
