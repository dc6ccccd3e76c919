// The end of a game and what follows it (the game-over panel, rematches,
// the analysis of the game), what watchers see, the move box, the one
// level control, the layout on phones and the contrast of the board's marks.

const {
  test, expect, square, pieceOn, ply, status, error, createGame, gameState, joinGame, postAs, moveAs, newPage,
  closePages, openGame, openInvite, tokenIn, clickSquares,
} = require('./helpers');

const panel = (page) => page.locator('[data-game-over]');
const actions = (page) => page.locator('.panel.actions');
const idOf = (page) => new URL(page.url()).pathname.split('/').pop();
const CYRILLIC = /[а-яё]{3,}/i;

const WORDS = {
  'en-US': { resign: 'Resign', rematch: 'Rematch', analyse: 'Analyse this game', newGame: 'New game', over: 'You lost', you: 'You (Black)', resigned: 'White resigned' },
  'ru-RU': { resign: 'Сдаться', rematch: 'Реванш', analyse: 'Анализ партии', newGame: 'Новая партия', over: 'Вы проиграли', you: 'Вы (Чёрные)', resigned: 'сдались' },
};

for (const locale of ['en-US', 'ru-RU']) {
  test(`game over against the engine: the panel, then a rematch with colours swapped (${locale})`, async ({ browser, baseURL, request }) => {
    const w = WORDS[locale];
    const page = await newPage(browser, baseURL, { locale });
    const g = await createGame(request, { mode: 'engine', color: 'white', level: 1 });
    await openGame(page, g.id, g.token);
    await expect(panel(page)).toBeHidden();
    await actions(page).getByRole('button', { name: w.resign, exact: true }).click();
    await page.locator('.confirm').getByRole('button', { name: w.resign, exact: true }).click();

    // The result, the reason in the page's language, and what comes next.
    await expect(panel(page)).toBeVisible();
    await expect(panel(page)).toContainText('0-1');
    await expect(panel(page)).toContainText(w.over);
    await expect(panel(page).locator('[data-reason]')).toContainText(w.resigned);
    if (locale === 'ru-RU') {
      await expect(panel(page)).toContainText(CYRILLIC);
      expect(await panel(page).innerText()).not.toMatch(/Rematch|Analyse|New game|resign/i);
    }
    const analyse = panel(page).getByRole('link', { name: w.analyse });
    await expect(analyse).toHaveAttribute('href', `/analysis?game=${g.id}`);
    await expect(panel(page).getByRole('button', { name: w.newGame })).toBeVisible();
    await expect(page.locator('#move-input')).toBeHidden();

    // Rematch, from the keyboard: the engine now has White; we have Black.
    const rematch = panel(page).getByRole('button', { name: w.rematch, exact: true });
    await rematch.focus();
    await page.keyboard.press('Enter');
    await expect(page).not.toHaveURL(new RegExp(`/g/${g.id}$`));
    await expect(page).toHaveURL(/\/g\/[A-Za-z0-9_-]+$/);
    const next = idOf(page);
    expect(await tokenIn(page, next)).toBe(g.token);
    await expect(page.locator('.player').last()).toHaveAttribute('data-side', 'b');
    await expect(page.locator('.player').last()).toContainText(w.you);
    await expect(panel(page)).toBeHidden();
    const st = await gameState(request, next, g.token);
    expect(st.you).toBe('b');
    expect(st.engine_color).toBe('w');
    expect((await gameState(request, g.id)).rematch).toBe(next);
    // The engine opens; then it is our move.
    await expect(ply(page, 1)).toBeVisible();
    await expect(status(page)).toHaveAttribute('data-turn', 'b');

    // The old game's page: "Analyse this game" opens the analysis board on it.
    await page.goto(`/g/${g.id}`);
    await expect(panel(page)).toBeVisible();
    await Promise.all([page.waitForURL(/\/analysis\?game=/), panel(page).getByRole('link', { name: w.analyse }).click()]);
    await expect(page).toHaveURL(new RegExp(`/analysis\\?game=${g.id}(&|$)`));
    await closePages(page);
  });
}

test('a rematch between friends: offered, declined, offered again, accepted; both pages follow', async ({ browser, baseURL, request }) => {
  const g = await createGame(request, { mode: 'friend', color: 'white' });
  const white = await newPage(browser, baseURL);
  const black = await newPage(browser, baseURL);
  await openGame(white, g.id, g.token);
  await openInvite(black, g.id, g.invite);
  const blackToken = await tokenIn(black, g.id);
  await clickSquares(white, ['c3', 'd4']);
  await expect(ply(black, 1)).toHaveText('c3-d4');
  expect((await postAs(request, blackToken, `/api/games/${g.id}/resign`, {})).status()).toBe(200);
  for (const p of [white, black]) await expect(panel(p)).toContainText('1-0');

  // White asks; Black sees the offer and declines; White hears of it.
  await panel(white).getByRole('button', { name: 'Rematch', exact: true }).click();
  await expect(panel(white).locator('[data-rematch-offer="mine"]')).toContainText('Rematch offered');
  await expect(panel(black).locator('[data-rematch-offer="theirs"]')).toContainText('Your opponent offers a rematch');
  await panel(black).getByRole('button', { name: 'Decline' }).click();
  await expect(white.locator('#toast')).toHaveText('Rematch declined');
  await expect(panel(white).getByRole('button', { name: 'Rematch', exact: true })).toBeVisible();

  // Asked again and accepted: both pages go to the new game, colours swapped.
  await panel(white).getByRole('button', { name: 'Rematch', exact: true }).click();
  await panel(black).getByRole('button', { name: 'Accept' }).click();
  for (const p of [white, black]) await expect(p).not.toHaveURL(new RegExp(`/g/${g.id}$`));
  const next = idOf(black);
  await expect(white).toHaveURL(new RegExp(`/g/${next}$`));
  expect(await tokenIn(white, next)).toBe(g.token);
  expect(await tokenIn(black, next)).toBe(blackToken);
  await expect(white.locator('.player').last()).toHaveAttribute('data-side', 'b');
  await expect(black.locator('.player').last()).toHaveAttribute('data-side', 'w');
  // The former Black now opens the game, and the other page sees the move.
  await expect(status(black)).toContainText('Your move (White)');
  await clickSquares(black, ['e3', 'f4']);
  await expect(ply(white, 1)).toHaveText('e3-f4');
  await expect(status(white)).toContainText('Your move (Black)');
  await closePages(white, black);
});

test('a watcher sees no move box and no player actions, only what it can use', async ({ browser, baseURL, request }) => {
  const g = await createGame(request, { mode: 'friend', color: 'white' });
  const black = await joinGame(request, g.id, g.invite);
  await moveAs(request, g.id, g.token, 'c3d4', 0);
  const watcher = await newPage(browser, baseURL);
  await openGame(watcher, g.id);
  await expect(status(watcher)).toContainText('You are watching');
  await expect(watcher.locator('#move-input')).toBeHidden();
  for (const name of ['Resign', 'Offer draw', 'Abort', 'Undo', 'Ask to take back']) {
    await expect(actions(watcher).getByRole('button', { name, exact: true })).toHaveCount(0);
  }
  const hiddenOrAbsent = await actions(watcher).locator('button:visible').allInnerTexts();
  expect(hiddenOrAbsent.join('|')).not.toMatch(/Resign|draw|Abort|Undo|take back/);
  // Flipping is theirs to use (and the keyboard's f).
  await expect(watcher.locator('.player').last()).toHaveAttribute('data-side', 'w');
  await actions(watcher).getByRole('button', { name: 'Flip board' }).click();
  await expect(watcher.locator('.player').last()).toHaveAttribute('data-side', 'b');

  // The end: the result, no rematch for a watcher.
  await moveAs(request, g.id, black.token, 'b6a5', 1);
  expect((await postAs(request, g.token, `/api/games/${g.id}/resign`, {})).status()).toBe(200);
  await expect(panel(watcher)).toContainText('0-1');
  await expect(panel(watcher).getByRole('button', { name: 'Rematch' })).toHaveCount(0);
  await expect(panel(watcher).getByRole('link', { name: 'Analyse this game' })).toBeVisible();
  await expect(watcher.locator('[data-watching]')).toHaveText('You are watching this game.');
  await closePages(watcher);
});

test('a typed move goes to the server, which explains a refusal by its rule', async ({ browser, baseURL, request }) => {
  const page = await newPage(browser, baseURL);
  const sent = [];
  page.on('request', (r) => { if (r.method() === 'POST' && /\/moves$/.test(r.url())) sent.push(r.postDataJSON().move); });
  // A non-capture while a Legion capture is compulsory: 4.2.
  const g = await createGame(request, { mode: 'local', start: 'k7/8/8/8/3m4/2M5/8/7K w - 0 1' });
  await openGame(page, g.id, g.token);
  const box = page.locator('#move-input');
  await box.fill('Kg2');
  await box.press('Enter');
  await expect(error(page)).toContainText('4.2');
  await expect(error(page)).toContainText('c3:e5');
  await expect(box).toHaveValue('Kg2'); // kept, to correct
  await expect(box).toBeFocused();
  // Not a move at all: the server's words for it (6.4).
  await box.fill('hello');
  await box.press('Enter');
  await expect(error(page)).toContainText('6.4');
  // A legal one, written for people.
  await box.fill('c3:e5');
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await expect(ply(page, 1)).toHaveText('c3:e5');
  await expect(error(page)).toBeHidden();
  await expect(box).toHaveValue('');
  expect(sent).toEqual(['Kg2', 'hello', 'c3:e5']);
  await closePages(page);

  // In Russian the server's explanation is Russian, with the same rule.
  const ru = await newPage(browser, baseURL, { locale: 'ru-RU' });
  const h = await createGame(request, { mode: 'local', start: 'k7/8/8/8/3m4/2M5/8/7K w - 0 1' });
  await openGame(ru, h.id, h.token);
  await ru.locator('#move-input').fill('Kg2');
  await ru.locator('#move-input').press('Enter');
  await expect(error(ru)).toContainText('4.2');
  await expect(error(ru)).toContainText(CYRILLIC);
  // And what is not a move at all, in Russian too.
  await ru.locator('#move-input').fill('hello');
  await ru.locator('#move-input').press('Enter');
  await expect(error(ru)).toContainText('6.4: «hello» — не ход');
  await closePages(ru);
});

test('one level control: the New game dialog sets the level the home page plays', async ({ page }) => {
  const ready = page.waitForResponse((r) => r.url().endsWith('/api/position') && r.ok());
  await page.goto('/');
  await ready;
  await expect(page.locator('main select, main input[type=range]')).toHaveCount(0);
  await page.getByRole('button', { name: 'New game' }).first().click();
  const level = page.locator('dialog.new-game input[type=range]');
  await level.fill('7');
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page).toHaveURL(/\/g\/[A-Za-z0-9_-]+$/);
  await expect(page.locator('.player').first()).toContainText('level 7');
  // Back home: the board waits to play the engine at the level chosen.
  await page.goto('/');
  await expect(status(page)).toContainText('level 7');
  await expect(page.locator('main select, main input[type=range]')).toHaveCount(0);
  await page.getByRole('button', { name: 'New game' }).first().click();
  await expect(page.locator('dialog.new-game input[type=range]')).toHaveValue('7');
});

/** Buttons on the page whose words do not fit them (cut off or spilling out). */
const crampedButtons = (page) => page.evaluate(() => [...document.querySelectorAll('button')]
  .filter((b) => b.offsetParent !== null && (b.scrollWidth > b.clientWidth + 1 || b.scrollHeight > b.clientHeight + 1))
  .map((b) => b.textContent.trim() || b.getAttribute('aria-label')));

for (const locale of ['en-US', 'ru-RU']) {
  test(`a phone held sideways shows the whole board and our player strip; arrow keys step through moves (${locale})`, async ({ browser, baseURL, request }) => {
    const g = await createGame(request, { mode: 'engine', color: 'white', level: 1, clock: { initial_s: 300, increment_s: 0 } });
    await moveAs(request, g.id, g.token, 'c3d4', 0);
    const page = await newPage(browser, baseURL, { locale, viewport: { width: 844, height: 390 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    await openGame(page, g.id, g.token);
    await expect(ply(page, 2)).toBeVisible();
    const view = { width: 844, height: 390 };
    const inside = (b) => b && b.x >= 0 && b.y >= 0 && b.x + b.width <= view.width + 0.5 && b.y + b.height <= view.height + 0.5;
    const boardBox = await page.locator('[data-board]').boundingBox();
    expect(boardBox.height).toBeGreaterThan(250);
    expect(inside(boardBox), JSON.stringify(boardBox)).toBeTruthy();
    const ours = page.locator('.player').last();
    await expect(ours).toContainText(locale === 'ru-RU' ? 'Вы (Белые)' : 'You (White)');
    // Every button's words fit it, in either language.
    expect(await crampedButtons(page)).toEqual([]);
    expect(inside(await ours.boundingBox()), 'our strip in view').toBeTruthy();
    expect(inside(await ours.locator('[data-clock]').boundingBox()), 'our clock in view').toBeTruthy();
    expect(inside(await page.locator('.player').first().boundingBox()), 'their strip in view').toBeTruthy();
    // Nothing is scrolled sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(view.width);

    // The keyboard: arrows step back and forth through the moves.
    await page.locator('[data-ply="2"]').focus();
    await page.keyboard.press('ArrowLeft');
    await expect(page.locator('[data-ply="1"]')).toHaveAttribute('aria-current', 'step');
    await page.keyboard.press('ArrowLeft');
    await expect(pieceOn(page, 'c3')).toHaveAttribute('data-piece', 'wM');
    await page.keyboard.press('ArrowRight');
    await expect(page.locator('[data-ply="1"]')).toHaveAttribute('aria-current', 'step');
    await page.keyboard.press('End');
    await expect(page.locator('[data-ply="2"]')).toHaveAttribute('aria-current', 'step');

    // A phone upright: the board as wide as the screen, both strips in view.
    await page.setViewportSize({ width: 390, height: 844 });
    const upright = await page.locator('[data-board]').boundingBox();
    expect(upright.width).toBeGreaterThan(340);
    expect(upright.x + upright.width).toBeLessThanOrEqual(390.5);
    expect((await ours.boundingBox()).y + 30).toBeLessThanOrEqual(844);
    expect(await crampedButtons(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await closePages(page);
  });
}

test('legal-move dots and last-move marks stand out 3:1 on both square colours', async ({ page, request }) => {
  const g = await createGame(request, { mode: 'local' });
  await openGame(page, g.id, g.token);
  // The Knight's targets are light squares, the man's dark ones; Nf3 then
  // marks a dark square (g1) and a light one (f3).
  const colours = () => page.evaluate(() => {
    const rgba = (s) => { const m = s.match(/[\d.]+/g).map(Number); return { r: m[0], g: m[1], b: m[2], a: m.length > 3 ? m[3] : 1 }; };
    const out = [];
    for (const el of document.querySelectorAll('[data-board] .dot, [data-board] .hl-frame.last')) {
      const sq = el.closest('[data-square]');
      const bg = rgba(getComputedStyle(sq.querySelector('.bg')).fill);
      const tint = sq.querySelector('.hl.last');
      const style = getComputedStyle(el);
      const paint = el.classList.contains('dot') ? style.fill : style.stroke;
      const around = [bg];
      if (tint) {
        const t = rgba(getComputedStyle(tint).fill);
        const o = Number(getComputedStyle(tint).opacity);
        const a = t.a * o;
        around.push({ r: t.r * a + bg.r * (1 - a), g: t.g * a + bg.g * (1 - a), b: t.b * a + bg.b * (1 - a), a: 1 });
      }
      out.push({ sq: sq.dataset.square, kind: el.getAttribute('class'), light: sq.classList.contains('light'), paint: rgba(paint), opacity: Number(style.opacity), around });
    }
    return out;
  });
  const lum = ({ r, g, b }) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const ratio = (x, y) => { const [a, b] = [lum(x), lum(y)].sort((p, q) => q - p); return (a + 0.05) / (b + 0.05); };
  const check = (marks) => {
    for (const m of marks) {
      for (const bg of m.around) {
        const a = m.paint.a * m.opacity;
        const seen = { r: m.paint.r * a + bg.r * (1 - a), g: m.paint.g * a + bg.g * (1 - a), b: m.paint.b * a + bg.b * (1 - a) };
        expect(ratio(seen, bg), `${m.kind} on ${m.sq}`).toBeGreaterThanOrEqual(3);
      }
    }
  };
  await square(page, 'g1').click();
  let marks = await colours();
  expect(marks.filter((m) => m.light).length).toBeGreaterThanOrEqual(2);
  check(marks);
  await square(page, 'c3').click();
  marks = await colours();
  expect(marks.filter((m) => !m.light).length).toBeGreaterThanOrEqual(2);
  check(marks);
  await clickSquares(page, ['g1', 'f3']);
  await expect(ply(page, 1)).toHaveText('Nf3');
  marks = (await colours()).filter((m) => /last/.test(m.kind));
  expect(marks.map((m) => m.light).sort()).toEqual([false, true]);
  check(marks);
});
