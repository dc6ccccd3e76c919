// The analysis board plays moves by the server's results (each legal move
// comes with the LFEN after it), including the King removal of 5.1.

const {
  test, expect, pieceOn, ply, status, error, clickSquares, drag, expectBoard,
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
