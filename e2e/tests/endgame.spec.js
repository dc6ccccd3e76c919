// Solved endings on the analysis board (endgame.js, GET /api/endgame): the
// e2e server reads the tables of KQ vs K that global-setup.js builds, and
// solves another three-piece ending when it is first asked for. The
// exact value, DTZ and every move's value show for a position inside the
// tables, and nothing for one outside; in English, in Russian and on a
// phone. Hand-derived: Kb6 and Qh2 against Ka8, White to move; Qh8 mates
// (a7, b7 the King's; a8, b8 the Queen's, 3.4), the mated King leaves the
// board (5.1) and Black, with nothing left, has lost (5.2): won in 1 ply;
// Qb8+ gives the Queen away (Kxb8: two lone Kings, drawn, 5.3).

const { test, expect, ply, closePages, newPage } = require('./helpers');

const MATE_IN_ONE = 'k7/8/1K6/8/8/8/7Q/8 w - 0 1';

const WORDS = {
  'en-US': {
    value: 'White wins in 1 ply', title: 'Solved ending', dtz: 'DTZ 1',
    draw: 'draw', lost: 'Black has no legal move and has lost (5.2)',
  },
  'ru-RU': {
    value: 'Белые выигрывают за 1 полуход', title: 'Решённое окончание', dtz: 'DTZ 1',
    draw: 'ничья', lost: 'Чёрные: законного хода нет — партия проиграна (5.2)',
  },
};

async function openAnalysis(page, lfen) {
  await page.addInitScript(() => localStorage.setItem('legion:engine', 'off'));
  const ready = page.waitForResponse((r) => r.url().includes('/api/endgame') && r.ok());
  await page.goto(`/analysis?lfen=${encodeURIComponent(lfen)}`);
  await ready;
}

for (const locale of ['en-US', 'ru-RU']) {
  test(`the analysis board shows a solved ending's value and its moves' (${locale})`, async ({ browser, baseURL }) => {
    const words = WORDS[locale];
    const page = await newPage(browser, baseURL, { locale });
    await openAnalysis(page, MATE_IN_ONE);
    const panel = page.locator('[data-endgame="board"]');
    await expect(panel).toBeVisible();
    await expect(panel).toContainText(words.title);
    await expect(panel).toContainText('KQ vs K');
    await expect(page.locator('[data-endgame="board"] [data-endgame-value]')).toHaveText(words.value);
    await expect(page.locator('[data-endgame="board"] [data-endgame-dtz]')).toContainText(words.dtz);
    await expect(page.locator('[data-endgame="board"] [data-endgame-fifty]')).toBeHidden();
    await expect(page.locator('[data-endgame-moves] [data-move="h2h8"]')).toHaveAttribute('data-category', 'win');
    const blunder = page.locator('[data-endgame-moves] [data-move="h2b8"]');
    await expect(blunder).toHaveAttribute('data-category', 'draw');
    await expect(blunder).toContainText(words.draw);
    // Wins are listed first.
    await expect(page.locator('[data-endgame-moves] li').first()).toHaveAttribute('data-category', 'win');

    // Playing the mate from the list: Black has lost.
    await page.locator('[data-endgame-moves] [data-move="h2h8"] button').click();
    await expect(ply(page, 1)).toBeVisible();
    await expect(page.locator('[data-endgame="board"] [data-endgame-value]')).toHaveText(words.lost);

    // The start position is outside the tables: nothing is shown.
    await page.goto('/analysis');
    await expect(page.locator('[data-turn]')).toHaveAttribute('data-turn', 'w');
    await expect(page.locator('[data-endgame="board"]')).toBeHidden();
    await closePages(page);
  });
}

test('an ending without a table is solved when first asked for', async ({ browser, baseURL }) => {
  // KR vs K has no table on the e2e server, which solves endings of up to
  // three pieces on demand (--solve-endings 3, the default): the first
  // answer is 202 (being solved), then the value. Kb6 and Rh1 against
  // Ka8: Rh8 mates (a7, b7 the King's; b8 the Rook's, 3.4), won in 1 ply.
  const page = await newPage(browser, baseURL);
  await page.addInitScript(() => localStorage.setItem('legion:engine', 'off'));
  const solving = page.waitForResponse((r) => r.url().includes('/api/endgame') && r.status() === 202);
  await page.goto(`/analysis?lfen=${encodeURIComponent('k7/8/1K6/8/8/8/8/7R w - 0 1')}`);
  expect(await (await solving).json()).toEqual({ solving: 'KR vs K', ahead: 0 });
  await expect(page.locator('[data-endgame="board"] [data-endgame-value]')).toHaveText('White wins in 1 ply', { timeout: 30_000 });
  await expect(page.locator('[data-endgame-moves] [data-move="h1h8"]')).toHaveAttribute('data-category', 'win');
  await closePages(page);
});

test.describe('a solved ending on a phone', () => {
  test.use({ locale: 'ru-RU', viewport: { width: 390, height: 844 } });

  test('the value and the moves fit the width', async ({ page }) => {
    await openAnalysis(page, MATE_IN_ONE);
    const panel = page.locator('[data-endgame="board"]');
    await expect(page.locator('[data-endgame="board"] [data-endgame-value]')).toHaveText(WORDS['ru-RU'].value);
    await panel.scrollIntoViewIfNeeded();
    const sizes = await page.evaluate(() => ({
      scroll: document.scrollingElement.scrollWidth,
      inner: innerWidth,
      right: document.querySelector('[data-endgame="board"]').getBoundingClientRect().right,
    }));
    expect(sizes.scroll).toBeLessThanOrEqual(sizes.inner);
    expect(sizes.right).toBeLessThanOrEqual(sizes.inner);
  });
});
