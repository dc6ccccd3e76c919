// What a new player found on the game page (issue 19, items 2, 3, 5, 6):
// a draw offer to the engine asked twice like resigning; "Analyse" taking
// the game along; a link to no game saying so; the status while looking
// at earlier moves; the result in the player's own terms.

const { test, expect, createGame, moveAs, openGame, status, ply } = require('./helpers');

const actions = (page) => page.locator('.panel.actions');

test('a draw offer to the engine is confirmed first, as resigning is', async ({ page, request }) => {
  const g = await createGame(request, { mode: 'engine', color: 'white', level: 1 });
  const sent = [];
  page.on('request', (r) => { if (r.method() === 'POST' && r.url().endsWith(`/api/games/${g.id}/draw`)) sent.push(r.url()); });
  await openGame(page, g.id, g.token);
  await actions(page).getByRole('button', { name: 'Offer draw', exact: true }).click();
  const confirm = page.locator('.confirm');
  await expect(confirm).toContainText('Offer the engine a draw?');
  // Nothing is sent before the second click; Cancel sends nothing at all.
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await actions(page).getByRole('button', { name: 'Offer draw', exact: true }).click();
  expect(sent).toEqual([]);
  const answered = page.waitForResponse((r) => r.url().endsWith(`/api/games/${g.id}/draw`));
  await confirm.getByRole('button', { name: 'Offer a draw' }).click();
  await answered;
  expect(sent.length).toBe(1);
});

test('"Analyse" during a game opens the game with its moves, at the move shown', async ({ page, request }) => {
  const g = await createGame(request, { mode: 'local' });
  let st = g.state;
  for (let i = 0; i < 3; i++) st = await moveAs(request, g.id, g.token, st.legal[0].canonical, st.ply);
  await openGame(page, g.id, g.token);
  const analyse = actions(page).getByRole('link', { name: 'Analyse', exact: true });
  await expect(analyse).toHaveAttribute('href', `/analysis?game=${g.id}&ply=3`);
  await ply(page, 2).click();
  await expect(analyse).toHaveAttribute('href', `/analysis?game=${g.id}&ply=2`);
  await analyse.click();
  await expect(page).toHaveURL(new RegExp(`/analysis\\?game=${g.id}&ply=2$`));
  // The three moves played are in the analysis board's tree, the second shown.
  await expect(page.locator('[data-tree] [data-ply]')).toHaveCount(3);
  await expect(page.locator('[data-tree] [data-ply="2"]')).toHaveAttribute('aria-current', 'step');
});

test('a link to a game that does not exist says so, with no game actions', async ({ page }) => {
  await page.goto('/g/NoSuchGame42');
  await expect(status(page)).toContainText('No such game');
  await expect(status(page)).toContainText('There is no game at this address');
  for (const name of ['Undo', 'Abort', 'Resign', 'Offer draw', 'Flip board', 'Copy LFEN']) {
    await expect(page.getByRole('button', { name, exact: true })).toBeHidden();
  }
  await expect(page.locator('[data-board]')).toBeHidden();
  await expect(page.getByRole('button', { name: 'New game' })).toBeVisible();
});

test('an address that leads nowhere answers 404 with the site\'s header and navigation', async ({ page }) => {
  const res = await page.goto('/no/such/page');
  expect(res.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const name of ['Play', 'Analysis', 'Rules']) await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Legion, home' })).toHaveAttribute('href', '/');
});

test('looking at an earlier move the status says so, not "Your move"; the result says who won', async ({ page, request }) => {
  const g = await createGame(request, { mode: 'friend', color: 'white' });
  const friend = await (await request.post(`/api/games/${g.id}/join`, { data: { invite: g.invite } })).json();
  let st = friend.state;
  for (let i = 0; i < 2; i++) st = await moveAs(request, g.id, st.turn === 'w' ? g.token : friend.token, st.legal[0].canonical, st.ply);
  await openGame(page, g.id, g.token);
  await expect(status(page)).toContainText('Your move');
  await ply(page, 1).click();
  await expect(status(page)).toHaveText('You are looking at an earlier position (after move 1 of 2).');
  await page.keyboard.press('End');
  await expect(status(page)).toContainText('Your move');
  // Black resigns: White's page says "You won".
  const r = await request.post(`/api/games/${g.id}/resign`, { headers: { Authorization: `Bearer ${friend.token}` }, data: {} });
  expect(r.status()).toBe(200);
  await expect(page.locator('[data-game-over] [data-over-title]')).toHaveText('You won');
  await expect(page.locator('[data-game-over] [data-reason]')).toHaveText('White wins: Black resigned');
});
