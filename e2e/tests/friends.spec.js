// Friend games under the seat rules of docs/API.md: one-time invite codes,
// aborts before the first moves, takebacks by asking, clocks that agree
// between pages, and results that stay final.

const {
  test, expect, ply, status, createGame, gameState, joinGame, postAs, moveAs, newPage, closePages,
  openGame, openInvite, tokenIn, clickSquares,
} = require('./helpers');

const turn = (page) => page.locator('[data-turn]');
const seatNote = (page) => page.locator('[data-seat-note]');
const button = (page, name) => page.locator('.panel.actions').getByRole('button', { name, exact: true });
const confirmButton = (page, name) => page.locator('.confirm').getByRole('button', { name, exact: true });
const offerBox = (page, kind) => page.locator(`[data-offer="${kind}"]`);

/** Records the join requests a page sends. */
function watchJoins(page) {
  const sent = [];
  page.on('request', (r) => { if (r.method() === 'POST' && /\/join$/.test(r.url())) sent.push(r.url()); });
  return sent;
}

test('the creator opening their own invite link keeps their seat', async ({ browser, baseURL }) => {
  // Made with the New game dialog, as a person does.
  const creator = await newPage(browser, baseURL);
  const joins = watchJoins(creator);
  await creator.goto('/');
  await creator.getByRole('button', { name: 'New game' }).click();
  await creator.getByLabel('A friend (invite link)').check();
  await creator.getByRole('button', { name: 'Start' }).click();
  await expect(creator).toHaveURL(/\/g\/[A-Za-z0-9_-]+$/);
  const id = new URL(creator.url()).pathname.split('/').pop();
  await expect(status(creator)).toContainText('Waiting for your friend to open the invite link');
  const link = await creator.locator('#invite-link').inputValue();
  expect(link).toMatch(new RegExp(`/g/${id}\\?invite=[^&]+$`));
  const token = await tokenIn(creator, id);
  expect(token).toBeTruthy();

  // The creator tries the link: still White, nothing claimed, no query left.
  await creator.goto(link);
  await expect(creator).toHaveURL(new RegExp(`/g/${id}$`));
  await expect(status(creator)).toContainText('Waiting for your friend to open the invite link');
  await expect(creator.locator('#invite-link')).toHaveValue(link);
  expect(await tokenIn(creator, id)).toBe(token);
  expect(joins).toHaveLength(0);

  // The friend opens the same link in another browser and takes Black.
  const friend = await newPage(browser, baseURL);
  await openInvite(friend, id, new URL(link).searchParams.get('invite'));
  await expect(seatNote(friend)).toBeHidden();
  await expect(status(friend)).toContainText('Waiting for White to move');
  await expect(status(creator)).toContainText('Your move (White)');
  await expect(creator.locator('#invite-link')).toBeHidden();
  const friendToken = await tokenIn(friend, id);
  expect(friendToken).toBeTruthy();
  expect(friendToken).not.toBe(token);

  await clickSquares(creator, ['c3', 'd4']);
  await expect(ply(friend, 1)).toHaveText('c3-d4');
  await expect(status(friend)).toContainText('Your move (Black)');
  await closePages(creator, friend);
});

test('an invite already claimed only lets a second browser watch', async ({ browser, baseURL, request }) => {
  const g = await createGame(request, { mode: 'friend', color: 'white' });
  const joined = await joinGame(request, g.id, g.invite);
  expect(joined.color).toBe('b');

  const late = await newPage(browser, baseURL);
  const joins = watchJoins(late);
  await openInvite(late, g.id, g.invite);
  expect(joins).toHaveLength(1);
  await expect(seatNote(late)).toHaveText('This invite has already been used: you are watching.');
  await expect(status(late)).toContainText('You are watching this game');
  expect(await tokenIn(late, g.id)).toBeNull();
  // Its clicks move nothing.
  await clickSquares(late, ['c3', 'd4']);
  await expect(late.locator('[data-ply]')).toHaveCount(0);
  expect((await gameState(request, g.id)).ply).toBe(0);
  await closePages(late);
});

test('a game aborted before the moves ends for both players', async ({ browser, baseURL, request }) => {
  const g = await createGame(request, { mode: 'friend', color: 'white' });
  const white = await newPage(browser, baseURL);
  const black = await newPage(browser, baseURL);
  await openGame(white, g.id, g.token);
  await openInvite(black, g.id, g.invite);
  await expect(status(white)).toContainText('Your move');

  // One move made: either side may still abort.
  await clickSquares(white, ['c3', 'd4']);
  await expect(ply(black, 1)).toHaveText('c3-d4');
  await expect(button(black, 'Abort')).toBeVisible();
  await button(white, 'Abort').click();
  await confirmButton(white, 'Abort game').click();

  for (const p of [white, black]) {
    await expect(status(p)).toContainText('Game aborted');
    await expect(button(p, 'Abort')).toBeHidden();
    await expect(button(p, 'Resign')).toBeHidden();
    await expect(button(p, 'Offer draw')).toBeHidden();
  }
  const st = await gameState(request, g.id);
  expect(st.status).toBe('aborted');
  expect(st.result).toBe('*');
  // Nothing more can happen in it.
  const blackToken = await tokenIn(black, g.id);
  const res = await postAs(request, blackToken, `/api/games/${g.id}/moves`, { move: 'b6a5', ply: 1 });
  expect(res.status()).toBe(409);
  await clickSquares(black, ['b6', 'a5']);
  await expect(black.locator('[data-ply]')).toHaveCount(1);
  await closePages(white, black);
});

test('a takeback asked for, declined, then accepted', async ({ browser, baseURL, request }) => {
  const g = await createGame(request, { mode: 'friend', color: 'white' });
  const white = await newPage(browser, baseURL);
  const black = await newPage(browser, baseURL);
  await openGame(white, g.id, g.token);
  await openInvite(black, g.id, g.invite);

  await expect(button(white, 'Ask to take back')).toBeHidden(); // nothing of White's to take back
  await clickSquares(white, ['c3', 'd4']);
  await expect(ply(black, 1)).toHaveText('c3-d4');
  await clickSquares(black, ['b6', 'a5']);
  await expect(ply(white, 2)).toHaveText('b6-a5');
  await expect(button(white, 'Abort')).toBeHidden(); // both sides have moved

  // White asks; Black declines; White hears of it.
  await button(white, 'Ask to take back').click();
  await expect(offerBox(white, 'takeback')).toContainText('Takeback requested');
  await expect(button(white, 'Ask to take back')).toBeHidden();
  await expect(offerBox(black, 'takeback')).toContainText('Your opponent asks to take back a move');
  await offerBox(black, 'takeback').getByRole('button', { name: 'Decline' }).click();
  await expect(white.locator('#toast')).toHaveText('Takeback declined');
  for (const p of [white, black]) await expect(offerBox(p, 'takeback')).toBeHidden();
  await expect(white.locator('[data-ply]')).toHaveCount(2);

  // White asks again; Black accepts: White's move and Black's reply go.
  await button(white, 'Ask to take back').click();
  await expect(offerBox(black, 'takeback')).toContainText('Your opponent asks to take back a move');
  await offerBox(black, 'takeback').getByRole('button', { name: 'Accept' }).click();
  for (const p of [white, black]) {
    await expect(p.locator('[data-ply]')).toHaveCount(0);
    await expect(turn(p)).toHaveAttribute('data-turn', 'w');
    await expect(offerBox(p, 'takeback')).toBeHidden();
  }
  const st = await gameState(request, g.id);
  expect(st.ply).toBe(0);
  expect(st.takeback_offer).toBeNull();
  await expect(status(white)).toContainText('Your move (White)');

  // The game goes on from there.
  await clickSquares(white, ['e3', 'f4']);
  await expect(ply(black, 1)).toHaveText('e3-f4');
  await closePages(white, black);
});

test('a spectator sees the same clock as the players', async ({ browser, baseURL, request }) => {
  const g = await createGame(request, { mode: 'friend', color: 'white', clock: { initial_s: 300, increment_s: 0 } });
  const white = await newPage(browser, baseURL);
  await openGame(white, g.id, g.token);
  const black = await joinGame(request, g.id, g.invite);

  // Before its first move White has a minute, or the game is aborted.
  const abortNote = white.locator('[data-abort-note]');
  await expect(abortNote).toContainText(/White \(you\) must move within 0:[0-5]\d or the game is aborted/);
  const clock = (page, side) => page.locator(`.player[data-side="${side}"] [data-clock]`);
  await expect(clock(white, 'w')).toHaveText('5:00');

  // No clock runs before each side's first move; then White's does.
  let st = await moveAs(request, g.id, g.token, 'c3d4', 0);
  expect(st.clock.running).toBeNull();
  st = await moveAs(request, g.id, black.token, 'b6a5', 1);
  expect(st.clock.running).toBe('w');
  await expect(clock(white, 'w')).toHaveClass(/running/);
  await expect(abortNote).toBeHidden();
  await white.waitForTimeout(2500);

  const watcher = await newPage(browser, baseURL);
  await openGame(watcher, g.id);
  await expect(clock(watcher, 'w')).toHaveClass(/running/);
  await watcher.waitForTimeout(300); // past the first state's arrival

  // White's time as each page shows it, read player-watcher-player.
  const ms = async (page) => Number(await clock(page, 'w').getAttribute('data-ms'));
  const text = async (page) => (await clock(page, 'w').textContent()).trim();
  const before = await ms(white);
  const seen = await ms(watcher);
  const after = await ms(white);
  expect(before).toBeLessThan(300000 - 2000);
  expect(seen).toBeLessThanOrEqual(before + 500);
  expect(seen).toBeGreaterThanOrEqual(after - 500);
  // The text shown (m:ss) agrees too, to the second.
  const secs = (t) => { const [m, s] = t.split(':').map(Number); return m * 60 + s; };
  expect(Math.abs(secs(await text(watcher)) - secs(await text(white)))).toBeLessThanOrEqual(1);
  // Black's clock waits.
  await expect(clock(watcher, 'b')).toHaveText('5:00');
  await expect(clock(white, 'b')).toHaveText('5:00');
  await closePages(white, watcher);
});

test('a result is final: no moves, undo or resign after it', async ({ page, request }) => {
  const g = await createGame(request, { mode: 'local' });
  await openGame(page, g.id, g.token);
  await clickSquares(page, ['c3', 'd4']);
  await expect(ply(page, 1)).toHaveText('c3-d4');
  await expect(button(page, 'Undo')).toBeVisible();
  await expect(button(page, 'Abort')).toBeVisible();

  // In a local game the side to move (Black) resigns.
  await button(page, 'Resign').click();
  await confirmButton(page, 'Resign').click();
  await expect(status(page)).toContainText('1-0');
  for (const name of ['Undo', 'Resign', 'Abort', 'Agree a draw']) await expect(button(page, name)).toBeHidden();
  await clickSquares(page, ['b6', 'a5']);
  await expect(page.locator('[data-ply]')).toHaveCount(1);

  const move = await postAs(request, g.token, `/api/games/${g.id}/moves`, { move: 'b6a5', ply: 1 });
  expect(move.status()).toBe(409);
  expect((await move.json()).error).toBeTruthy();
  const undo = await postAs(request, g.token, `/api/games/${g.id}/undo`, {});
  expect(undo.status()).toBe(409);
  const st = await gameState(request, g.id);
  expect(st.status).toBe('over');
  expect(st.result).toBe('1-0');
  expect(st.ply).toBe(1);
});
