// The rules page on a phone (390×844): nothing makes the page scroll
// sideways (wide tables turn into cards, long LFENs wrap, the boards fit),
// and the table of contents leads to each rule and stays pinned above the
// text. In English and in Russian. Then what the rules page and the home
// page say to a new player (issue 19, item 8).

const { test, expect } = require('./helpers');

for (const locale of ['en-US', 'ru-RU']) {
  test.describe(`the rules on a phone (${locale})`, () => {
    test.use({ locale, viewport: { width: 390, height: 844 } });

    test('no sideways scroll, boards within the width, contents that lead to a rule', async ({ page }) => {
      await page.goto('/rules');
      await expect(page.locator('[data-rule-board]').first()).toBeVisible();
      const toc = page.locator('[data-toc]');
      await expect(toc).toBeVisible();

      const sizes = await page.evaluate(() => ({
        scroll: document.scrollingElement.scrollWidth,
        inner: innerWidth,
        boards: [...document.querySelectorAll('[data-rule-board]')].map((b) => b.getBoundingClientRect().right),
        doc: document.querySelector('.rules-doc').getBoundingClientRect().right,
      }));
      expect(sizes.scroll).toBeLessThanOrEqual(sizes.inner);
      expect(sizes.boards.length).toBeGreaterThan(20);
      for (const right of sizes.boards) expect(right).toBeLessThanOrEqual(sizes.doc);

      // The contents, folded on a phone: open them and go to rule 4.1.
      await toc.locator('summary').click();
      const link = toc.locator('a[href="#rule-4-1"]');
      await expect(link).toBeVisible();
      await expect(toc.locator('.toc-part > a')).toHaveCount(7);
      await link.click();
      await expect(page).toHaveURL(/#rule-4-1$/);
      await expect(page.locator('#rule-4-1')).toBeInViewport();
      // Far down the page the contents are still at hand, pinned above the text.
      await expect(toc.locator('summary')).toBeInViewport();
      expect((await toc.boundingBox()).y).toBeLessThan(2);
      // The table of 4.1, as cards; the button back to the contents.
      const table = page.locator('.rules-doc table.reflow').first();
      await expect(table).toBeVisible();
      const box = await table.boundingBox();
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      await page.locator('.rules-top').click();
      await expect(toc).toHaveAttribute('open', '');
      await expect(link).toBeInViewport();
      expect(await page.evaluate(() => document.scrollingElement.scrollWidth <= innerWidth)).toBe(true);
    });
  });
}

test('the rules page speaks to players: what the rules are, Russian as the original; no developer preamble', async ({ browser, baseURL }) => {
  for (const [locale, original, banned] of [
    ['en-US', 'the Russian page is its original language', /authority|software implements|seeds\/|\.txt\b|RULES\.md/],
    ['ru-RU', 'язык оригинала игры', /перевод|авторитет|seeds\/|\.txt\b|RULES\.md/],
  ]) {
    const context = await browser.newContext({ baseURL, locale });
    const page = await context.newPage();
    await page.goto('/rules');
    await expect(page.locator('[data-rules-intro]')).toContainText(original);
    await expect(page.locator('[data-rule-board]').first()).toBeVisible();
    const text = await page.locator('.rules-doc').innerText();
    expect(text).not.toMatch(banned);
    await context.close();
  }
});

test('the home page says in two sentences what Legion is, with a link to the rules', async ({ page }) => {
  await page.goto('/');
  const about = page.locator('[data-home-about]');
  await expect(about).toContainText('Legion is played on a chessboard');
  expect((await about.innerText()).split(/[.!?](\s|$)/).filter((x) => x && x.trim().length > 20).length).toBe(2);
  await about.getByRole('link', { name: 'Read the rules' }).click();
  await expect(page).toHaveURL(/\/rules$/);
});
