// The rules page on a phone (390×844): nothing makes the page scroll
// sideways (wide tables turn into cards, long LFENs wrap, the boards fit),
// and the table of contents leads to each rule. In English and in Russian.

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
