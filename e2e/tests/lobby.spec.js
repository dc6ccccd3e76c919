// The lobby on the home page (issue 20): two people with accounts meet
// through a seek and play a rated game to the end, and each sees the
// rating it changed; two anonymous visitors on phones, in Russian, are
// paired by quick pairing. Other tests share the server, so a test finds
// its own seeks by their owner's name.

const { test, expect, newPage, closePages, clickSquares, status } = require('./helpers');

/** A fresh account for this page's browser (the cookie stays in it). */
async function register(page, name) {
  const res = await page.request.post('/api/account/register', { data: { username: name, password: 'correct horse' } });
  expect(res.status(), await res.text()).toBe(201);
}

/** The name of the account a page is signed in with. */
async function bobName(page) {
  return (await (await page.request.get('/api/account')).json()).username;
}

const unique = (prefix) => `${prefix}${Date.now().toString(36).slice(-6)}${Math.floor(Math.random() * 1000)}`;

test('two players meet through a rated seek, play it out and see their ratings change', async ({ browser, baseURL }) => {
  const anna = await newPage(browser, baseURL);
  const bob = await newPage(browser, baseURL);
  const annaName = unique('A');
  await register(anna, annaName);
  await register(bob, unique('B'));

  // Anna posts a rated 3+2 seek with the form, as a person does.
  await anna.goto('/');
  await anna.locator('[data-new-seek]').click();
  const dialog = anna.locator('[data-seek-dialog]');
  await dialog.locator('[data-seek-minutes]').fill('3');
  await dialog.locator('[data-seek-increment]').fill('2');
  await dialog.locator('[data-seek-rated]').check();
  await dialog.locator('[data-seek-submit]').click();
  await expect(dialog).toBeHidden();
  await expect(anna.locator('[data-lobby-waiting]')).toBeVisible();
  const mine = anna.locator('tr.mine', { hasText: annaName });
  await expect(mine).toContainText('3+2');
  await expect(mine).toContainText('Rated');

  // Bob sees it live and accepts it: both are taken to the game.
  await bob.goto('/');
  const row = bob.locator('[data-seeks] tr', { hasText: annaName });
  await expect(row).toContainText('1500?');
  await row.getByRole('button', { name: 'Accept' }).click();
  await expect(bob).toHaveURL(/\/g\/[A-Za-z0-9]+$/);
  await expect(anna).toHaveURL(bob.url());

  // Whoever is White moves first; then Black; then White resigns.
  const id = new URL(bob.url()).pathname.split('/').pop();
  const seen = await (await bob.request.get(`/api/games/${id}`)).json();
  expect(seen.rated).toBe(true);
  const bobIsWhite = seen.you === 'w';
  const [white, black] = bobIsWhite ? [bob, anna] : [anna, bob];
  await expect(status(white)).toContainText('Your move');
  await clickSquares(white, ['c3', 'd4']);
  await expect(status(black)).toContainText('Your move');
  await clickSquares(black, ['f6', 'e5']);
  await expect(status(white)).toContainText('Your move');
  await white.locator('.panel.actions').getByRole('button', { name: 'Resign', exact: true }).click();
  await white.locator('.confirm').getByRole('button', { name: 'Resign', exact: true }).click();
  await expect(status(black)).toContainText('resigned');

  // Two new players: the winner gains 162 points and the loser loses as
  // many (Glicko-2 by hand: crates/server/tests/suite/lobby.rs); each strip shows it.
  for (const p of [white, black]) {
    await expect(p.locator('.player[data-side="b"] [data-rating-diff]')).toHaveText('+162');
    await expect(p.locator('.player[data-side="w"] [data-rating-diff]')).toHaveText('\u2212162');
  }

  // They chat after the game.
  await black.locator('[data-chat-input]').fill('good game');
  await black.locator('[data-chat-input]').press('Enter');
  await expect(white.locator('[data-chat-message] [data-chat-text]')).toHaveText('good game');

  // Each profile shows the new blitz rating: 1662 for the winner, 1338
  // for the loser, still provisional (RD 290).
  const winner = bobIsWhite ? annaName : await bobName(bob);
  const loser = bobIsWhite ? await bobName(bob) : annaName;
  await black.goto(`/@/${winner}`);
  await expect(black.locator('[data-class="blitz"] [data-rating]')).toHaveText('1662?');
  await black.goto(`/@/${loser}`);
  await expect(black.locator('[data-class="blitz"] [data-rating]')).toHaveText('1338?');
  await closePages(anna, bob);
});

test('quick pairing on phones, in Russian, puts two visitors in one game', async ({ browser, baseURL }) => {
  const phone = { viewport: { width: 390, height: 844 }, locale: 'ru-RU', isMobile: true, hasTouch: true };
  const one = await newPage(browser, baseURL, phone);
  const two = await newPage(browser, baseURL, phone);
  for (const p of [one, two]) {
    await p.goto('/');
    await expect(p.locator('#lobby-title')).toHaveText('Игра с человеком');
  }
  // A pool other tests do not use.
  await one.locator('[data-pool="30+0"]').click();
  await expect(one.locator('[data-lobby-waiting]')).toContainText('Ждём соперника');
  await two.locator('[data-pool="30+0"]').click();
  await expect(one).toHaveURL(/\/g\/[A-Za-z0-9]+$/, { timeout: 15_000 });
  await expect(two).toHaveURL(one.url(), { timeout: 15_000 });
  // Each holds one side: one of them is to move, once both pages have
  // their game's state (the address changes before the socket answers).
  const sides = async () => {
    const texts = [await status(one).textContent(), await status(two).textContent()];
    const count = (words) => texts.filter((t) => (t ?? '').includes(words)).length;
    return [count('Ваш ход'), count('Ждём хода противника')];
  };
  await expect.poll(sides, { timeout: 15_000 }).toEqual([1, 1]);
  await closePages(one, two);
});
