// Studies (issue 21): a study made from the analysis board, moves played,
// one commented and an arrow drawn on it, saved by itself; then the share
// link opened in a second browser (another visitor): it reads the comment
// and sees the arrow, and cannot change anything. In English on a
// desktop, in Russian on a phone (the drawing tool instead of the right
// button).

const fs = require('node:fs');
const path = require('node:path');

const { test, expect, square, ply, clickSquares, newPage, closePages } = require('./helpers');

const ASSETS = path.resolve(__dirname, '..', '..', 'crates', 'server', 'assets');
const dict = (lang) => JSON.parse(fs.readFileSync(path.join(ASSETS, `${lang}.json`), 'utf8'));

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 860 };

/** Waits until the board has the server's legal moves for the position shown. */
const ready = (page) => expect(page.locator('[data-status]')).not.toHaveAttribute('aria-busy', 'true');
const current = (page) => page.locator('[data-tree] [aria-current]');
const saveState = (page) => page.locator('[data-save-state]');

/** Drags from one square to another with a button of the mouse (a right drag draws). */
async function dragWith(page, from, to, button) {
  await square(page, from).scrollIntoViewIfNeeded();
  const a = await square(page, from).boundingBox();
  const b = await square(page, to).boundingBox();
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down({ button });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 6 });
  await page.mouse.up({ button });
}

for (const [locale, viewport, comment] of [
  ['en-US', DESKTOP, 'The centre first'],
  ['ru-RU', PHONE, 'Сначала центр'],
]) {
  const T = dict(locale.slice(0, 2));
  const phone = viewport === PHONE;

  test(`a study is made, annotated, saved and shared read-only (${locale}${phone ? ', phone' : ''})`, async ({ browser, baseURL }) => {
    // Two browsers, and a save after each change: more than one game's time.
    test.slow();
    const page = await newPage(browser, baseURL, { locale, viewport });
    await page.addInitScript(() => localStorage.setItem('legion:engine', 'off'));
    await page.goto('/analysis');
    await ready(page);
    await page.getByRole('button', { name: T['study.saveAs'] }).click();
    await page.waitForURL(/\/study\/[A-Za-z0-9]+$/);
    const id = new URL(page.url()).pathname.split('/').pop();
    // Made without an account: this browser holds the edit key.
    expect(await page.evaluate((k) => localStorage.getItem(k), `legion:study:${id}`)).toMatch(/^[A-Za-z0-9]{24}$/);
    await expect(page.locator('[data-study-title]')).toHaveValue(new RegExp(T['study.defaultTitle'].split('{')[0]));
    await expect(page.locator('[data-chapter="0"]')).toHaveText(`1. ${T['study.chapterN'].replace('{n}', '1')}`);

    // Two moves (Part VII: c3-d4 is one of White's first moves; d6-e5
    // answers it, no capture being due), saved a moment later.
    await ready(page);
    await clickSquares(page, ['c3', 'd4']);
    await expect(current(page)).toHaveText('c3-d4');
    await ready(page);
    await clickSquares(page, ['d6', 'e5']);
    await expect(current(page)).toHaveText('d6-e5');
    await expect(saveState(page)).toHaveAttribute('data-save-state', 'saved');

    // A comment and an arrow on the first move.
    await ply(page, 1).click();
    await expect(ply(page, 1)).toHaveAttribute('aria-current', 'step');
    await page.locator('[data-study-comment-field]').fill(comment);
    if (phone) {
      // No right button on a phone: the drawing tool, green.
      await page.locator('[data-draw-tool]').click();
      await expect(page.locator('[data-draw-tool]')).toHaveAttribute('aria-pressed', 'true');
      await dragWith(page, 'e3', 'f4', 'left');
    } else {
      await dragWith(page, 'e3', 'f4', 'right');
    }
    await expect(page.locator('[data-board] [data-arrow="e3f4"]')).toHaveAttribute('data-color', 'green');
    await expect(saveState(page)).toHaveAttribute('data-save-state', 'saved');
    await expect(page.locator('[data-save-state]')).toHaveText(T['study.state.saved']);

    // What the server keeps: the moves canonical (6.3), the comment and the arrow on move 1.
    const stored = await (await page.request.get(`/api/studies/${id}`)).json();
    const nodes = stored.chapters[0].nodes;
    expect(nodes.map((n) => n.move || null)).toEqual([null, 'c3d4', 'd6e5']);
    expect(nodes[1].comment).toBe(comment);
    expect(nodes[1].shapes).toEqual([{ from: 'e3', to: 'f4', color: 'green' }]);
    expect(stored.can_edit).toBe(false); // asked without the key

    // The share link in another browser: read-only.
    const reader = await newPage(browser, baseURL, { locale, viewport });
    await reader.addInitScript(() => localStorage.setItem('legion:engine', 'off'));
    await reader.goto(`/study/${id}`);
    await expect(reader.locator('[data-study-readonly]')).toHaveText(T['study.readOnly']);
    await expect(reader.locator('h1[data-study-title]')).toHaveText(stored.title);
    await ply(reader, 1).click();
    await expect(reader.locator('[data-study-comment]')).toHaveText(comment);
    await expect(reader.locator('[data-board] [data-arrow="e3f4"]')).toHaveAttribute('data-color', 'green');
    for (const owner of ['[data-study-comment-field]', '[data-draw-tool]', '[data-chapter-add]', '[data-study-delete]', '[data-save-state]:visible']) {
      await expect(reader.locator(owner)).toHaveCount(0);
    }
    // The reader's own move stays on their page: the study is not changed.
    await ply(reader, 2).click();
    await ready(reader);
    await clickSquares(reader, ['b2', 'c3']);
    await expect(current(reader)).toHaveText('b2-c3');
    const after = await (await page.request.get(`/api/studies/${id}`)).json();
    expect(after.version).toBe(stored.version);
    // A save without the key is refused by the server too.
    const refused = await reader.request.put(`/api/studies/${id}`, {
      data: { version: after.version, title: 'Mine now', chapters: after.chapters.map((c) => ({ ...c, nodes: [{}] })) },
    });
    expect(refused.status()).toBe(403);
    await closePages(page, reader);
  });
}
