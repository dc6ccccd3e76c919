// The practice lessons (/learn): a newcomer finishes tasks by moving on
// the board, is told why a wrong move is wrong (with its rule), earns
// stars by the par and finds them again after a reload; in Russian and
// on a phone too. The expected positions are worked out by hand from
// docs/RULES.md (2.4, 4.1, 4.2, 5.1).

const {
  test, expect, pieceOn, status, error, clickSquares, expectBoard, newPage, closePages,
} = require('./helpers');

// Each test plays several tasks, each move a round trip and Black's reply
// after a short pause: more than the default 30 s on a busy machine.
test.describe.configure({ timeout: 60_000 });

const result = (page) => page.locator('[data-learn-result]');
const taskLink = (page, id) => page.locator(`[data-task="${id}"]`);

/** Opens a task and waits until the board takes the player's move. */
async function openTask(page, id, yourMove = 'Your move') {
  await page.goto(`/learn/${id}`);
  await expect(page.locator('[data-learn-goal]')).toBeVisible();
  await expect(status(page)).toContainText(yourMove);
  await expect(page.locator('[data-turn]')).toHaveAttribute('data-turn', 'w');
}

test('a newcomer finishes a task, is told a wrong move with its rule, and keeps the stars', async ({ page }) => {
  await page.goto('/learn');
  await expect(page.locator('header nav a[data-nav="learn"]')).toHaveAttribute('aria-current', 'page');
  await expect(page.locator('[data-learn-progress]')).toContainText('Tasks done: 0 of 15');
  await taskLink(page, 'step').click();
  await expect(page).toHaveURL(/\/learn\/step$/);
  await expect(status(page)).toContainText('Your move');
  await expect(page.locator('[data-learn-goal]')).toContainText('Move your man to e5');
  await expect(page.locator('[data-learn-goal] [data-rule-link="2.4"]')).toHaveAttribute('href', '/rules#rule-2-4');

  // A man moves diagonally forward (2.4): c3-c4 is refused, with its rule.
  await clickSquares(page, ['c3', 'c4']);
  await expect(error(page)).toContainText('Not that move');
  await expect(error(page)).toContainText('2.4');
  await expect(error(page).locator('[data-rule-link="2.4"]')).toHaveAttribute('href', '/rules#rule-2-4');
  await expectBoard(page, { a8: 'bK', c3: 'wM', h1: 'wK' });

  // c3-d4; Black's scripted reply Ka8-b7; d4-e5 reaches the goal at the par.
  await clickSquares(page, ['c3', 'd4']);
  await expect(error(page)).toBeHidden();
  await expect(status(page)).toHaveAttribute('data-plies', '2');
  await expect(pieceOn(page, 'b7')).toHaveAttribute('data-piece', 'bK');
  await expect(status(page)).toContainText('Your move');
  await clickSquares(page, ['d4', 'e5']);
  await expect(result(page)).toBeVisible();
  await expect(result(page).locator('[data-stars]')).toHaveAttribute('data-stars', '3');
  await expect(page.locator('[data-learn-moves]')).toContainText('Your moves: 2. Par: 2.');

  // Next: the crowning task.
  await result(page).locator('[data-learn-next]').click();
  await expect(page).toHaveURL(/\/learn\/crown$/);
  await expect(status(page)).toContainText('Your move');

  // The stars stay after a reload.
  await page.goto('/learn');
  await expect(page.locator('[data-learn-progress]')).toContainText('Tasks done: 1 of 15. Stars: 3 of 45.');
  await expect(taskLink(page, 'step')).toHaveAttribute('data-stars', '3');
  await expect(taskLink(page, 'crown')).toHaveAttribute('data-stars', '0');
});

test('fewer stars above the par; a prisoner taken; both kept after a reload', async ({ page }) => {
  // The Knight by a longer road: g1-h3-g5-f3-e5 is four moves for a par
  // of two, two stars. Black's first reply is scripted (Ka8-b7); after it
  // the King takes the first legal move in canonical order.
  await openTask(page, 'knight');
  for (const [from, to, ply] of [['g1', 'h3', 1], ['h3', 'g5', 2], ['g5', 'f3', 3]]) {
    await clickSquares(page, [from, to]);
    await expect(page.locator('[data-learn-moves]')).toContainText(`Your moves: ${ply}.`);
    await expect(status(page)).toHaveAttribute('data-plies', String(2 * ply));
    await expect(status(page)).toContainText('Your move');
  }
  await clickSquares(page, ['f3', 'e5']);
  await expect(result(page).locator('[data-stars]')).toHaveAttribute('data-stars', '2');
  await expect(pieceOn(page, 'e5')).toHaveAttribute('data-piece', 'wN');

  // Take a prisoner (4.1): the Rook stands on the man and holds it.
  await openTask(page, 'prisoner');
  await clickSquares(page, ['a1', 'a5']);
  await expect(result(page)).toBeVisible();
  await expect(result(page).locator('[data-stars]')).toHaveAttribute('data-stars', '3');
  await expectBoard(page, { h8: 'bK', a5: 'wR/bM', h1: 'wK' });

  await page.goto('/learn');
  await expect(page.locator('[data-learn-progress]')).toContainText('Tasks done: 2 of 15. Stars: 5 of 45.');
  await expect(taskLink(page, 'knight')).toHaveAttribute('data-stars', '2');
  await expect(taskLink(page, 'prisoner')).toHaveAttribute('data-stars', '3');
});

test('mate ends Phase 1 and Black plays on without its King', async ({ page }) => {
  // Qc1-c8 mates (5.1): the mated King leaves the board at once.
  await openTask(page, 'mate');
  await clickSquares(page, ['c1', 'c8']);
  await expect(result(page)).toBeVisible();
  await expect(pieceOn(page, 'a8')).toHaveCount(0);
  await expect(page.locator('[data-learn-phase]')).toBeVisible();
  // Play on: Qc8-g4, the man's forced g5-f4, Qxf4 takes Black's last piece (5.2).
  await result(page).locator('[data-learn-next]').click();
  await expect(page).toHaveURL(/\/learn\/play-on$/);
  await expect(status(page)).toContainText('Your move');
  await clickSquares(page, ['c8', 'g4']);
  await expect(status(page)).toHaveAttribute('data-plies', '2');
  await expect(pieceOn(page, 'f4')).toHaveAttribute('data-piece', 'bM');
  await clickSquares(page, ['g4', 'f4']);
  await expect(result(page).locator('[data-stars]')).toHaveAttribute('data-stars', '3');
  await expectBoard(page, { f4: 'wQ/bM', h7: 'wR', h1: 'wK' });
});

test('on a phone in Russian: the compulsory capture explained, a prisoner liberated, progress kept', async ({ browser, baseURL }) => {
  const page = await newPage(browser, baseURL, { locale: 'ru-RU', viewport: { width: 390, height: 844 } });
  await openTask(page, 'must', 'Ваш ход');
  await expect(page.locator('[data-learn-goal]')).toContainText('Цель');
  const board = await page.locator('[data-board]').boundingBox();
  expect(board.x).toBeGreaterThanOrEqual(0);
  expect(board.x + board.width).toBeLessThanOrEqual(390);

  // The man on c3 can capture, so the Queen may not move (4.2).
  await clickSquares(page, ['d1', 'd3']);
  await expect(error(page)).toContainText('Так ходить нельзя');
  await expect(error(page)).toContainText('4.2');
  await expect(error(page).locator('[data-rule-link="4.2"]')).toHaveText('Правило 4.2');
  await clickSquares(page, ['c3', 'e5']);
  await expect(result(page)).toContainText('Готово!');
  await expect(result(page).locator('[data-stars]')).toHaveAttribute('data-stars', '3');

  // Liberation (4.1): the man jumps the Knight's construct; the Knight goes,
  // the prisoner stays on d4 and is White's again.
  await openTask(page, 'liberate', 'Ваш ход');
  await expectBoard(page, { a8: 'bK', d4: 'bN/wM', c3: 'wM', h1: 'wK' });
  await clickSquares(page, ['c3', 'e5']);
  await expect(result(page)).toBeVisible();
  await expectBoard(page, { a8: 'bK', d4: 'wM', e5: 'wM', h1: 'wK' });

  // Retry starts the task again; the stars earned stay.
  await result(page).getByRole('button', { name: 'Заново' }).click();
  await expect(result(page)).toBeHidden();
  await expectBoard(page, { a8: 'bK', d4: 'bN/wM', c3: 'wM', h1: 'wK' });

  await page.goto('/learn');
  await expect(page.locator('[data-learn-progress]')).toContainText('Выполнено заданий: 2 из 15');
  await expect(taskLink(page, 'liberate')).toHaveAttribute('data-stars', '3');
  await expect(taskLink(page, 'must')).toHaveAttribute('data-stars', '3');
  await expect(page.locator('header nav a[data-nav="learn"]')).toHaveText('Учиться');
  await closePages(page);
});
