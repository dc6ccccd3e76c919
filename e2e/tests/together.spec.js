// Games between people: an invite game in two browser contexts, watching
// in a third, and a reload in the middle of a game.

const {
  test, expect, pieceOn, ply, status, createGame, gameState, newPage, closePages, openGame, openInvite,
  clickSquares, drag, expectBoard, boardOf, watchActions,
} = require('./helpers');

const turn = (page) => page.locator('[data-turn]');

test('an invite game between two browsers', async ({ browser, baseURL, request }) => {
  const g = await createGame(request, { mode: 'friend', color: 'white' });
  expect(g.color).toBe('w');
  const white = await newPage(browser, baseURL);
  const black = await newPage(browser, baseURL);
  const blackSent = watchActions(black);
  await openGame(white, g.id, g.token, { invite: g.invite });
  // Until the invite is claimed nobody moves; the creator sees the link.
  await expect(status(white)).toContainText('Waiting for your friend to open the invite link');
  await expect(white.locator('#invite-link')).toHaveValue(new RegExp(`/g/${g.id}\\?invite=`));
  await openInvite(black, g.id, g.invite);
  await expect(status(white)).toContainText('Your move');
  await expect(white.locator('#invite-link')).toBeHidden();
  await expect(status(black)).toContainText('Waiting for White');

  // Black cannot move White's pieces, neither on White's turn ...
  await clickSquares(black, ['a3', 'b4']);
  // ... nor is the invite code a seat's token.
  const refused = await request.post(`/api/games/${g.id}/moves`, {
    data: { move: 'c3d4', ply: 0 }, headers: { Authorization: `Bearer ${g.invite}` },
  });
  expect(refused.status()).toBe(403);

  await clickSquares(white, ['c3', 'd4']);
  for (const p of [white, black]) {
    await expect(ply(p, 1)).toHaveText('c3-d4');
    await expect(pieceOn(p, 'd4')).toHaveAttribute('data-piece', 'wM');
    await expect(pieceOn(p, 'a3')).toHaveAttribute('data-piece', 'wM');
    await expect(turn(p)).toHaveAttribute('data-turn', 'b');
  }
  await expect(status(black)).toContainText('Your move');

  await clickSquares(black, ['b6', 'a5']);
  for (const p of [white, black]) {
    await expect(ply(p, 2)).toHaveText('b6-a5');
    await expect(pieceOn(p, 'a5')).toHaveAttribute('data-piece', 'bM');
  }
  await drag(white, 'g3', 'h4');
  await expect(ply(black, 3)).toHaveText('g3-h4');

  // ... nor on its own turn.
  await clickSquares(black, ['d4', 'c5']);
  await clickSquares(black, ['a7', 'b6']);
  for (const p of [white, black]) {
    await expect(ply(p, 4)).toHaveText('a7-b6');
    await expect(pieceOn(p, 'd4')).toHaveAttribute('data-piece', 'wM');
    await expect(pieceOn(p, 'c5')).toHaveCount(0);
    await expect(turn(p)).toHaveAttribute('data-turn', 'w');
  }
  expect(blackSent).toHaveLength(2); // only Black's own two moves were sent
  await closePages(white, black);
});

test('a reload resumes the game where it stands', async ({ page, request }) => {
  const g = await createGame(request, { mode: 'local' });
  await openGame(page, g.id, g.token);
  await clickSquares(page, ['c3', 'd4']);
  await expect(ply(page, 1)).toHaveText('c3-d4');
  await drag(page, 'b6', 'a5');
  await expect(ply(page, 2)).toHaveText('b6-a5');
  await clickSquares(page, ['g1', 'f3']);
  await expect(ply(page, 3)).toHaveText('Nf3');
  await expect(turn(page)).toHaveAttribute('data-turn', 'b');
  const before = await page.locator('[data-ply]').allTextContents();

  await page.reload();
  await expect(page).toHaveURL(new RegExp(`/g/${g.id}$`));
  await expect(ply(page, 3)).toBeVisible();
  expect(await page.locator('[data-ply]').allTextContents()).toEqual(before);
  await expect(turn(page)).toHaveAttribute('data-turn', 'b');
  await expect(pieceOn(page, 'f3')).toHaveAttribute('data-piece', 'wN');
  await expect(pieceOn(page, 'a5')).toHaveAttribute('data-piece', 'bM');
  await expect(pieceOn(page, 'g1')).toHaveCount(0);

  // Still seated: the next move is accepted.
  await clickSquares(page, ['a7', 'b6']);
  await expect(ply(page, 4)).toHaveText('a7-b6');
  await expect(turn(page)).toHaveAttribute('data-turn', 'w');
});

test('a watcher sees the moves live and cannot move', async ({ browser, baseURL, request }) => {
  const g = await createGame(request, { mode: 'friend', color: 'white' });
  const white = await newPage(browser, baseURL);
  const black = await newPage(browser, baseURL);
  const watcher = await newPage(browser, baseURL);
  const watcherSent = watchActions(watcher);
  await openGame(white, g.id, g.token);
  await openInvite(black, g.id, g.invite);
  await openGame(watcher, g.id); // the plain game link
  await expect(status(watcher)).toContainText('watching');

  // The watcher's clicks move nothing, for either side.
  await clickSquares(watcher, ['a3', 'b4']);
  await clickSquares(white, ['c3', 'd4']);
  await expect(ply(watcher, 1)).toHaveText('c3-d4');
  await expect(pieceOn(watcher, 'd4')).toHaveAttribute('data-piece', 'wM');
  await expect(pieceOn(watcher, 'a3')).toHaveAttribute('data-piece', 'wM');
  await expect(pieceOn(watcher, 'b4')).toHaveCount(0);

  await clickSquares(watcher, ['b6', 'c5']);
  await clickSquares(black, ['f6', 'e5']);
  await expect(ply(watcher, 2)).toHaveText('f6-e5');
  await expect(turn(watcher)).toHaveAttribute('data-turn', 'w');
  await expect(pieceOn(watcher, 'b6')).toHaveAttribute('data-piece', 'bM');
  // d4:f6 is compulsory now (4.2); the watcher sees the capture land.
  await clickSquares(white, ['d4', 'f6']);
  await expect(ply(watcher, 3)).toHaveText('d4:f6');
  await expect(pieceOn(watcher, 'e5')).toHaveCount(0);
  await expect(pieceOn(watcher, 'f6')).toHaveAttribute('data-piece', 'wM');
  await expectBoard(watcher, boardOf(await gameState(request, g.id)));
  await expect(status(watcher)).toContainText('watching');
  expect(watcherSent).toHaveLength(0);
  await closePages(white, black, watcher);
});
