// The site in English and in Russian: the language comes from the `lang`
// cookie (the switch in the header) or else the browser's Accept-Language;
// the page's own words come from assets/en.json and assets/ru.json, the
// server's (errors, illegal moves, game-over reasons) from the server in
// the same language.

const fs = require('node:fs');
const path = require('node:path');

const { test, expect, status, error, createGame, openGame, newPage, closePages, clickSquares } = require('./helpers');

const ASSETS = path.resolve(__dirname, '..', '..', 'crates', 'server', 'assets');
const readDict = (lang) => JSON.parse(fs.readFileSync(path.join(ASSETS, `${lang}.json`), 'utf8'));

const CYRILLIC = /[а-яё]/i;
// Keys the server defines (and fills in); the rest are the page's.
const SERVER_KEY = /^(illegal|outcome|server|side|piece|role|lfen|record|move)\./;
// A translation key shown instead of its text (what t() does with a missing key).
const RAW_KEY = /\b(common|home|game|newgame|analysis|editor|rules|board|errors|side|piece|role|outcome|illegal|server)\.[a-zA-Z]\w*/;

/** Collects the page's warnings about missing translations. */
function watchMissing(page) {
  const missing = [];
  page.on('console', (m) => { if (m.type() === 'warning' && /^i18n:/.test(m.text())) missing.push(m.text()); });
  return missing;
}

const nav = (page) => page.locator('header nav');
const langButton = (page, code) => page.locator('header .lang-switch button', { hasText: code });

/** Opens the home page and waits for its legal moves (the board takes moves). */
async function openHome(page) {
  const ready = page.waitForResponse((r) => r.url().endsWith('/api/position') && r.ok());
  await page.goto('/');
  await ready;
}

test('the two translation files have exactly the same keys, sorted, with the same placeholders', () => {
  const en = readDict('en');
  const ru = readDict('ru');
  const enKeys = Object.keys(en);
  const ruKeys = Object.keys(ru);
  expect(ruKeys.filter((k) => !(k in en)), 'keys only in ru.json').toEqual([]);
  expect(enKeys.filter((k) => !(k in ru)), 'keys only in en.json').toEqual([]);
  expect(enKeys, 'en.json is sorted').toEqual([...enKeys].sort());
  expect(ruKeys, 'ru.json is sorted').toEqual([...ruKeys].sort());
  const placeholders = (s) => [...new Set(s.match(/\{\w+(?::\w+)?\}/g) || [])].sort();
  for (const k of enKeys) {
    expect(typeof en[k] === 'string' && en[k].length > 0, `en.json ${k} is a text`).toBeTruthy();
    expect(typeof ru[k] === 'string' && ru[k].length > 0, `ru.json ${k} is a text`).toBeTruthy();
    expect(placeholders(ru[k]), `placeholders of ${k}`).toEqual(placeholders(en[k]));
    // The page's own templates use only the kinds that i18n.js fills in (the
    // server's, which it fills in itself, have more).
    if (!SERVER_KEY.test(k)) for (const p of placeholders(en[k])) expect(p, `${k}: a known placeholder kind`).toMatch(/^\{\w+(:(side|piece|list))?\}$/);
  }
});

test('a Russian browser gets the Russian site', async ({ browser, baseURL, request }) => {
  const page = await newPage(browser, baseURL, { locale: 'ru-RU' });
  const missing = watchMissing(page);

  // The home page: header, switch, the board's status and the buttons.
  await openHome(page);
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
  await expect(nav(page)).toContainText('Играть');
  await expect(nav(page)).toContainText('Анализ');
  await expect(nav(page)).toContainText('Правила');
  await expect(langButton(page, 'RU')).toHaveAttribute('aria-pressed', 'true');
  await expect(langButton(page, 'EN')).toHaveAttribute('aria-pressed', 'false');
  await expect(status(page)).toContainText('Ваш ход');
  await expect(page.getByRole('button', { name: 'Новая партия' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Перевернуть доску' })).toBeVisible();
  await expect(page).toHaveTitle(/Легион/);
  let text = await page.locator('body').innerText();
  expect(text).not.toMatch(RAW_KEY);
  expect(text).not.toMatch(/New game|Flip board|Your move|Engine strength/);

  // The New game dialog.
  await page.getByRole('button', { name: 'Новая партия' }).click();
  await expect(page.getByLabel('Друг (по ссылке-приглашению)')).toBeVisible();
  await expect(page.locator('dialog.new-game')).toContainText('Противник');
  await page.keyboard.press('Escape');

  // A game page: a local game made through the API, shown in Russian.
  const g = await createGame(request, { mode: 'local' });
  await openGame(page, g.id, g.token);
  await expect(status(page)).toContainText('Очередь хода');
  await expect(page.locator('.player').first()).toContainText(CYRILLIC);
  await expect(page.locator('.panel.actions').getByRole('button', { name: 'Сдаться' })).toBeVisible();
  await expect(page.locator('[data-board]')).toHaveAttribute('aria-label', 'Доска партии');
  text = await page.locator('body').innerText();
  expect(text).not.toMatch(RAW_KEY);
  expect(text).not.toMatch(/to move|Resign|Download record/);

  // An illegal move is explained by the server, in Russian, with its rule.
  const h = await createGame(request, { mode: 'local', start: 'k7/8/8/8/3m4/2M5/8/7K w - 0 1' });
  await openGame(page, h.id, h.token);
  await clickSquares(page, ['h1', 'g2']);
  await expect(error(page)).toContainText('4.2');
  await expect(error(page)).toContainText(CYRILLIC);

  // The analysis board and its position editor.
  await page.evaluate(() => localStorage.setItem('legion:engine', 'off'));
  await page.goto('/analysis');
  await expect(status(page)).toContainText('Очередь хода');
  await page.getByRole('button', { name: 'Расставить позицию' }).click();
  await expect(page.getByRole('button', { name: 'белый Король', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Очистить доску' }).click();
  await expect(page.locator('.editor')).toContainText('Права на рокировку');
  expect(await page.locator('body').innerText()).not.toMatch(RAW_KEY);

  // The rules: the server's Russian text, with the boards' Russian captions.
  await page.goto('/rules');
  await expect(page.locator('[data-rule-board]').first()).toBeVisible();
  await expect(page.locator('.rules-doc h1').first()).toContainText('Легион');
  await expect(page.locator('figure[data-rule="4.1"] figcaption')).toContainText('Правило 4.1');
  await expect(page.locator('figure[data-rule="4.1"] figcaption')).toContainText('Захват');
  await expect(page.locator('figure[data-rule="VII"]')).toHaveCount(1);
  expect(await page.locator('body').innerText()).not.toMatch(RAW_KEY);

  expect(missing, 'missing translations').toEqual([]);
  await closePages(page);
});

test('an English browser stays English', async ({ browser, baseURL }) => {
  const page = await newPage(browser, baseURL, { locale: 'en-US' });
  const missing = watchMissing(page);
  await openHome(page);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(nav(page)).toContainText('Play');
  await expect(langButton(page, 'EN')).toHaveAttribute('aria-pressed', 'true');
  await expect(status(page)).toContainText('Your move');
  await expect(page.getByRole('button', { name: 'New game' })).toBeVisible();
  const text = await page.locator('body').innerText();
  expect(text).not.toMatch(CYRILLIC);
  expect(text).not.toMatch(RAW_KEY);
  await page.goto('/analysis');
  await expect(page.getByRole('button', { name: 'Set up a position' })).toBeVisible();
  expect(await page.locator('body').innerText()).not.toMatch(CYRILLIC);
  expect(missing, 'missing translations').toEqual([]);
  await closePages(page);
});

test('the switch changes the language, and the choice is remembered', async ({ browser, baseURL }) => {
  const page = await newPage(browser, baseURL, { locale: 'en-US' });
  await openHome(page);
  await expect(nav(page)).toContainText('Play');

  // To Russian, from the keyboard: the page reloads in Russian.
  await langButton(page, 'RU').focus();
  await Promise.all([page.waitForEvent('load'), page.keyboard.press('Enter')]);
  await expect(nav(page)).toContainText('Играть');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
  await expect(langButton(page, 'RU')).toHaveAttribute('aria-pressed', 'true');
  const cookie = (await page.context().cookies()).find((c) => c.name === 'lang');
  expect(cookie && cookie.value).toBe('ru');
  expect(await page.evaluate(() => localStorage.getItem('legion:lang'))).toBe('ru');

  // Remembered: after a reload, and on another page, though the browser asks for English.
  await page.reload();
  await expect(nav(page)).toContainText('Играть');
  await page.goto('/analysis');
  await expect(page.getByRole('button', { name: 'Расставить позицию' })).toBeVisible();
  await expect(page).toHaveTitle(/Анализ/);

  // And back to English with a click.
  await Promise.all([page.waitForEvent('load'), langButton(page, 'EN').click()]);
  await expect(nav(page)).toContainText('Analysis');
  await expect(page.getByRole('button', { name: 'Set up a position' })).toBeVisible();
  expect((await page.context().cookies()).find((c) => c.name === 'lang').value).toBe('en');
  await closePages(page);
});

test('a game-over reason is shown in Russian', async ({ browser, baseURL, request }) => {
  const page = await newPage(browser, baseURL, { locale: 'ru-RU' });
  const missing = watchMissing(page);
  const g = await createGame(request, { mode: 'local' });
  await openGame(page, g.id, g.token);
  await page.locator('.panel.actions').getByRole('button', { name: 'Сдаться' }).click();
  await page.locator('.confirm').getByRole('button', { name: 'Сдаться' }).click();
  // White resigned on move 1: Black wins, and the reason is in Russian.
  await expect(status(page)).toContainText('0-1');
  const line = await status(page).innerText();
  expect(line).toMatch(/0-1 — .*[а-яё]{3,}/i);
  expect(line).not.toMatch(/resign|white|black|game/i);
  expect(line).not.toMatch(RAW_KEY);
  expect(missing, 'missing translations').toEqual([]);
  await closePages(page);
});

test('Russian moves use the glossary\'s letters (Кр Ф Л С К), either kind is typed, records keep RULES 6.4; reasons start with a capital', async ({ browser, baseURL, request }) => {
  const page = await newPage(browser, baseURL, { locale: 'ru-RU' });
  const g = await createGame(request, { mode: 'local' });
  await openGame(page, g.id, g.token);
  await expect(page.locator('#move-input')).toHaveAttribute('placeholder', 'Ход: Кf3, c3-d4, c3:e5:c7');
  // A Knight typed with the Russian letter, then one with the English.
  await page.locator('#move-input').fill('Кf3');
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-ply="1"]')).toHaveText('Кf3');
  await page.locator('#move-input').fill('Nc6');
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-ply="2"]')).toHaveText('Кc6');
  const st = await (await request.get(`/api/games/${g.id}`)).json();
  expect(st.moves.map((m) => [m.canonical, m.human])).toEqual([['g1f3', 'Nf3'], ['b8c6', 'Nc6']]);
  const record = await (await request.get(`/api/games/${g.id}/record`)).text();
  expect(record).toContain('1. Nf3 Nc6');
  // A draw agreed on one device: its reason, a sentence of its own, begins with a capital.
  await page.locator('.panel.actions').getByRole('button', { name: 'Ничья по соглашению' }).click();
  await page.locator('.confirm').getByRole('button', { name: 'Согласиться' }).click();
  await expect(page.locator('[data-game-over] [data-reason]')).toHaveText('Ничья по соглашению (5.3)');
  await closePages(page);
});
