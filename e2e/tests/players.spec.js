// The players' views in the browser (issue 20): the game chat between
// two players (a message with HTML shown as text, muting the opponent,
// the switch that turns chat off, both kept in the browser), the
// spectators' room that needs an account, registering and signing in
// from the header, the profile page with its archive, the leaderboards
// and TV, in English and in Russian, on a desktop and a phone.

const { test, expect, createGame, joinGame, newPage, closePages, openGame } = require('./helpers');

const chat = (page) => page.locator('[data-chat]');
const messages = (page) => page.locator('[data-chat-message]');

/** A friend game made by an invite link, both seats anonymous: {id, white, black}. */
async function friendGame(request) {
  const g = await createGame(request, { mode: 'friend', color: 'white' });
  const j = await joinGame(request, g.id, g.invite);
  return { id: g.id, white: g.token, black: j.token };
}

/** A unique name for an account of this run. */
const uniqueName = (prefix) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`.slice(0, 20);

/** Registers through the page, as a person does. */
async function registerOnPage(page, name) {
  await page.goto('/');
  await page.locator('[data-sign-in]').click();
  await expect(page).toHaveURL(/\/signin/);
  await page.locator('[data-switch]').click();
  await page.locator('input[name=username]').fill(name);
  await page.locator('input[name=password]').fill('a good password');
  await page.locator('[data-sign-in-page] button[type=submit]').click();
  await expect(page.locator('[data-account-button]')).toContainText(name);
}

test('two players chat: HTML stays text, the opponent can be muted, chat can be turned off', async ({ browser, baseURL, request }) => {
  const { id, white, black } = await friendGame(request);
  const w = await newPage(browser, baseURL);
  const b = await newPage(browser, baseURL);
  await openGame(w, id, white);
  await openGame(b, id, black);
  await expect(chat(w)).toBeVisible();
  await expect(chat(w).locator('h2')).toHaveText('Chat with your opponent');

  const html = '<b>bold</b> <img src=x onerror="window.__pwned = 1"> & <script>window.__pwned = 2</script>';
  await w.locator('[data-chat-input]').fill(html);
  await w.locator('[data-chat-input]').press('Enter');
  // The other player sees exactly what was typed, as text.
  await expect(messages(b)).toHaveCount(1);
  await expect(messages(b).locator('[data-chat-text]')).toHaveText(html);
  await expect(chat(b).locator('b, img, script')).toHaveCount(0);
  expect(await b.evaluate(() => /** @type {any} */ (window).__pwned)).toBeUndefined();
  await expect(messages(w)).toHaveCount(1);
  await expect(messages(b).first()).toContainText('White');

  await b.locator('[data-chat-input]').fill('thanks');
  await b.locator('[data-chat-input]').press('Enter');
  await expect(messages(w)).toHaveCount(2);

  // Black mutes White: White's messages go, Black's own stay; kept after a reload.
  await b.locator('[data-chat-mute]').check();
  await expect(messages(b)).toHaveCount(1);
  await expect(messages(b).locator('[data-chat-text]')).toHaveText('thanks');
  await openGame(b, id, black);
  await expect(b.locator('[data-chat-mute]')).toBeChecked();
  await expect(messages(b)).toHaveCount(1);

  // The switch turns chat off, and the settings keep it off.
  await w.locator('[data-chat-switch]').uncheck();
  await expect(w.locator('[data-chat-messages]')).toBeHidden();
  await openGame(w, id, white);
  await expect(w.locator('[data-chat-switch]')).not.toBeChecked();
  await expect(w.locator('[data-chat-messages]')).toBeHidden();
  expect(await w.evaluate(() => JSON.parse(localStorage.getItem('legion:settings') || '{}').chat)).toBe(false);
  await w.locator('[data-settings-button]').click();
  await expect(w.locator('dialog[data-settings] input[name=chat]')).not.toBeChecked();
  await w.locator('dialog[data-settings] input[name=chat]').check();
  await w.keyboard.press('Escape');
  await expect(messages(w)).toHaveCount(2);
  await closePages(w, b);
});

test('spectators chat in their own room once signed in', async ({ browser, baseURL, request }) => {
  const { id, white } = await friendGame(request);
  const watcher = await newPage(browser, baseURL);
  await openGame(watcher, id, null);
  await expect(chat(watcher).locator('h2')).toHaveText("Spectators' chat");
  await expect(chat(watcher)).toContainText('Spectators chat when signed in.');
  await expect(watcher.locator('[data-chat-input]')).toBeHidden();

  const name = uniqueName('fan');
  await registerOnPage(watcher, name);
  await openGame(watcher, id, null);
  await watcher.locator('[data-chat-input]').fill('what a game');
  await watcher.locator('[data-chat-input]').press('Enter');
  await expect(messages(watcher)).toHaveCount(1);
  await expect(messages(watcher).locator('.chat-author')).toHaveText(name);
  // The players do not read the spectators' room.
  const player = await newPage(browser, baseURL);
  await openGame(player, id, white);
  await expect(chat(player).locator('h2')).toHaveText('Chat with your opponent');
  await expect(messages(player)).toHaveCount(0);
  await closePages(watcher, player);
});

test('register, the header menu, the profile page and signing out', async ({ browser, baseURL }) => {
  const page = await newPage(browser, baseURL);
  const name = uniqueName('Reg_');
  await registerOnPage(page, name);
  await page.locator('[data-account-button]').click();
  await page.getByRole('menuitem', { name: 'Profile' }).click();
  await expect(page).toHaveURL(new RegExp(`/@/${name}$`));
  await expect(page.locator('[data-profile] h1')).toHaveText(name);
  await expect(page.locator('.rating-card[data-class=blitz] [data-rating]')).toHaveText('1500?');
  await expect(page.locator('[data-count=games] dd')).toHaveText('0');
  await expect(page.locator('[data-archive-empty]')).toBeVisible();
  await expect(page.locator('[data-export]')).toHaveAttribute('href', `/api/users/${name}/games`);
  // The account page, then sign out.
  await page.goto('/account');
  await expect(page.locator('[data-password-form]')).toBeVisible();
  await page.locator('[data-account-button]').click();
  await page.locator('[data-sign-out]').click();
  await expect(page.locator('[data-sign-in]')).toBeVisible();
  await closePages(page);
});

test('the pages in Russian on a phone: sign-in, leaderboards, TV, a profile', async ({ browser, baseURL, request }) => {
  const { id } = await friendGame(request);
  const page = await newPage(browser, baseURL, { locale: 'ru-RU', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await page.goto('/players');
  await expect(page.locator('h1')).toHaveText('Рейтинг-листы');
  await expect(page.locator('.board-list')).toHaveCount(5);
  await expect(page.locator('[data-sign-in]')).toHaveText('Войти');
  // TV's answer is kept 2 s: let it see the game just made.
  await page.waitForTimeout(2100);
  await page.goto('/tv');
  await expect(page.locator('h1')).toHaveText('Легион ТВ');
  await expect(page.locator('[data-tv-featured] [data-board]')).toBeVisible();
  // The list or the featured board shows the game just made (others may be played too).
  await expect(page.locator(`[data-tv-game="${id}"], [data-tv-featured][data-game="${id}"]`)).toHaveCount(1);
  await page.goto('/signin?register');
  await expect(page.locator('h1')).toHaveText('Регистрация');
  await page.goto('/@/nobody_here');
  await expect(page.locator('h1')).toHaveText('Такого игрока нет');
  // Nothing sticks out of the phone's width.
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(wide).toBeLessThanOrEqual(390);
  await closePages(page);
});
