// The analysis board plays moves by the server's results (each legal move
// comes with the LFEN after it), including the King removal of 5.1.

const {
  test, expect, pieceOn, ply, status, error, clickSquares, drag, expectBoard, newPage, closePages,
} = require('./helpers');

test('the analysis board steps through moves the server plays', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('legion:engine', 'off'));
  const start = 'k7/7Q/1K6/6m1/8/m7/8/8 w - 0 1';
  const ready = page.waitForResponse((r) => r.url().endsWith('/api/position') && r.ok());
  await page.goto(`/analysis?lfen=${encodeURIComponent(start)}`);
  await ready;
  await expect(page.locator('[data-turn]')).toHaveAttribute('data-turn', 'w');
  await expectBoard(page, { a8: 'bK', h7: 'wQ', b6: 'wK', g5: 'bM', a3: 'bM' });

  // Qa7 mates: Black's King leaves the board at once (5.1), and Black plays on.
  await clickSquares(page, ['h7', 'a7']);
  await expect(ply(page, 1)).toContainText('Qa7');
  await expect(page.locator('[data-turn]')).toHaveAttribute('data-turn', 'b');
  await expectBoard(page, { a7: 'wQ', b6: 'wK', g5: 'bM', a3: 'bM' });
  await expect(status(page)).toContainText('Black to move');

  await drag(page, 'g5', 'h4');
  await expect(ply(page, 2)).toHaveText('g5-h4');
  await expect(page.locator('[data-turn]')).toHaveAttribute('data-turn', 'w');
  // The Queen takes the man on a3 prisoner: a construct (4.1).
  await clickSquares(page, ['a7', 'a3']);
  await expect(ply(page, 3)).toHaveText('Qxa3');
  await expectBoard(page, { a3: 'wQ/bM', b6: 'wK', h4: 'bM' });
  await expect(page).toHaveURL(/lfen=8%2F8%2F1K6%2F8%2F7m%2F%5BQm%5D7%2F8%2F8(\+|%20)b/);

  // An illegal try is explained; then back through the line.
  await clickSquares(page, ['h4', 'h5']);
  await expect(error(page)).toContainText('2.4');
  await ply(page, 1).click();
  await expectBoard(page, { a7: 'wQ', b6: 'wK', g5: 'bM', a3: 'bM' });
  await expect(pieceOn(page, 'a8')).toHaveCount(0);
});

// What the server and the page say about a position or record they cannot
// read, in the reader's language: the rule, the square, the letter.
const UNREADABLE = {
  'en-US': {
    load: 'Load', loadRecord: 'Load record',
    light: '1.4: a free White man stands on the light square b1',
    record: "6.5: move 2. 'd4-d5': 2.4: the man on d4 cannot go to d5",
    letter: "6.2: unknown letter 'x' on rank 8",
    prisoner: "1.5: the construct on a8 holds 'M'",
  },
  'ru-RU': {
    load: 'Загрузить', loadRecord: 'Загрузить запись',
    light: '1.4: свободная белая шашка стоит на светлом поле b1',
    record: '6.5: ход 2. «d4-d5»: 2.4: шашка на d4 не может пойти на d5',
    letter: '6.2: неизвестная буква «x» на горизонтали 8',
    prisoner: '1.5: Захват на a8 держит «M»',
  },
};

for (const locale of ['en-US', 'ru-RU']) {
  test(`a position or record that cannot be read is explained by its rule (${locale})`, async ({ browser, baseURL }) => {
    const words = UNREADABLE[locale];
    const page = await newPage(browser, baseURL, { locale });
    await page.addInitScript(() => localStorage.setItem('legion:engine', 'off'));
    const ready = page.waitForResponse((r) => r.url().endsWith('/api/position') && r.ok());
    await page.goto('/analysis');
    await ready;
    // The server reads the LFEN typed in.
    await page.locator('#lfen-input').fill('4k3/8/8/8/8/8/8/1M2K3 w - 0 1');
    await page.getByRole('button', { name: words.load, exact: true }).click();
    await expect(error(page)).toContainText(words.light);
    // And a record: the move that breaks a rule, with both rules.
    await page.locator('#record-input').fill('1. c3-d4 f6-e5 2. d4-d5 *');
    await page.getByRole('button', { name: words.loadRecord, exact: true }).click();
    await expect(error(page)).toContainText(words.record);
    // The page's own reader checks every letter, inside constructs too.
    const read = (lfen) => page.evaluate(async (text) => {
      const { parseLfen } = await import('/static/lfen.js');
      try { parseLfen(text); return 'ok'; } catch (e) { return e.message; }
    }, lfen);
    expect(await read('x7/8/8/8/8/8/8/8 w - 0 1')).toContain(words.letter);
    expect(await read('[QM]7/8/8/8/8/8/8/8 w - 0 1')).toContain(words.prisoner);
    expect(await read('[Q1]7/8/8/8/8/8/8/8 w - 0 1')).toMatch(/^6\.2: /);
    expect(await read('8/8/8/8/8/8/8/8 w KQkq-')).toMatch(/^6\.2: /);
    expect(await read('[Qm]7/8/8/8/8/8/8/8 b - 3 12')).toBe('ok');
    await closePages(page);
  });
}
