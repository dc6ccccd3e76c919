// The server's Content-Security-Policy forbids inline scripts, inline
// styles and event handler attributes. Every test already fails on a CSP
// violation (helpers.js); this one walks through every page and panel.

const { test, expect, createGame, openGame, openInvite, newPage, closePages, clickSquares } = require('./helpers');

/** Every violation the page reports, from the DOM event and the console. */
async function collectViolations(page) {
  const seen = [];
  page.on('console', (m) => { if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) seen.push(m.text()); });
  await page.addInitScript(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(`${e.violatedDirective}: ${e.sourceFile}:${e.lineNumber} ${e.sample}`));
  });
  return async () => [...seen, ...(await page.evaluate(() => window.__csp || []))];
}

test('no page breaks the Content-Security-Policy', async ({ browser, baseURL, request }) => {
  const res = await request.get('/');
  const csp = res.headers()['content-security-policy'] || '';
  expect(csp).toContain("default-src 'self'");
  expect(csp).not.toContain('unsafe-inline');

  const page = await newPage(browser, baseURL);
  const violations = await collectViolations(page);

  // The home board, a selection, the New game dialog.
  const ready = page.waitForResponse((r) => r.url().endsWith('/api/position') && r.ok());
  await page.goto('/');
  await ready;
  await page.locator('[data-square="c3"]').click();
  await page.getByRole('button', { name: 'New game' }).click();
  await expect(page.locator('dialog.new-game')).toBeVisible();
  await page.keyboard.press('Escape');
  expect(await violations()).toEqual([]);

  // A friend game: waiting with its invite, then with a takeback request.
  const g = await createGame(request, { mode: 'friend', color: 'white', clock: { initial_s: 600, increment_s: 5 } });
  await openGame(page, g.id, g.token, { invite: g.invite });
  await expect(page.locator('#invite-link')).toBeVisible();
  const friend = await newPage(browser, baseURL);
  await openInvite(friend, g.id, g.invite);
  await clickSquares(page, ['c3', 'd4']);
  await expect(friend.locator('[data-ply="1"]')).toBeVisible();
  await page.getByRole('button', { name: 'Ask to take back' }).click();
  await expect(friend.locator('[data-offer="takeback"]')).toBeVisible();
  expect(await violations()).toEqual([]);

  // The rules with their boards; the analysis board and its editor.
  await page.goto('/rules');
  await expect(page.locator('[data-rule-board]').first()).toBeVisible();
  await page.evaluate(() => localStorage.setItem('legion:engine', 'off'));
  await page.goto('/analysis');
  await expect(page.locator('[data-board]')).toBeVisible();
  await page.getByRole('button', { name: 'Set up a position' }).click();
  await page.getByRole('button', { name: 'Clear board' }).click();
  expect(await violations()).toEqual([]);
  await closePages(page, friend);
});
