// How the board feels: moves animated (a slide, a construct forming, a
// liberation, a mated King leaving), sounds and their switch, premoves,
// and the person's own arrows and circles.

const {
  test, expect, square, pieceOn, ply, status, error, createGame, gameState, joinGame, moveAs, newPage, closePages,
  openGame, clickSquares, expectBoard,
} = require('./helpers');

/**
 * Records what the board's animation layer shows: every value the board's
 * data-animating takes, and the classes of the pieces in flight.
 */
async function recordAnimations(page) {
  await page.addInitScript(() => {
    window.__anim = [];
    const note = (v) => { if (v && window.__anim[window.__anim.length - 1] !== v) window.__anim.push(v); };
    new MutationObserver((records) => {
      for (const r of records) {
        if (r.type === 'attributes' && r.attributeName === 'data-animating') note(`animating:${r.target.getAttribute('data-animating') || ''}`.replace(/:$/, ''));
        if (r.type === 'attributes' && r.attributeName === 'class' && r.target.classList.contains('float')) note(r.target.getAttribute('class'));
        for (const n of r.addedNodes) if (n.nodeType === 1 && n.classList.contains('float')) note(n.getAttribute('class'));
      }
    }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-animating', 'class'] });
  });
  return () => page.evaluate(() => window.__anim.filter((v) => v !== 'animating'));
}

const board = (page) => page.locator('[data-board]');

test('moves are animated: a slide, a man taken prisoner, a liberation', async ({ page, request }) => {
  const seen = await recordAnimations(page);
  const g = await createGame(request, { mode: 'local', start: '2k5/8/5m2/4m3/8/8/8/Q6K w - 0 1' });
  await openGame(page, g.id, g.token);

  // The Queen takes the man on e5 prisoner: it slides, the man settles under it.
  await clickSquares(page, ['a1', 'e5']);
  await expect(ply(page, 1)).toHaveText('Qxe5');
  await expect(board(page)).not.toHaveAttribute('data-animating'); // over within a moment
  await expect(pieceOn(page, 'e5')).toHaveAttribute('data-prisoner', 'bM');
  let log = await seen();
  expect(log).toContain('animating:chess');
  expect(log.some((c) => /\bfloat\b.*\bsettling\b/.test(c))).toBeTruthy();

  // Black's man jumps the construct: the Queen goes, the prisoner stays (Liberation).
  await clickSquares(page, ['f6', 'd4']);
  await expect(ply(page, 2)).toHaveText('f6:d4');
  await expect(board(page)).not.toHaveAttribute('data-animating');
  log = await seen();
  expect(log).toContain('animating:jump');
  expect(log.some((c) => /\bliberated\b/.test(c))).toBeTruthy();
  await expectBoard(page, { e5: 'bM', d4: 'bM', c8: 'bK', h1: 'wK' });
});

test('a capture series jumps square by square; reduced motion moves at once', async ({ browser, baseURL, request }) => {
  const g = await createGame(request, { mode: 'local', start: '6k1/8/1m1m4/8/3m4/8/3m4/2M4K w - 0 1' });
  const page = await newPage(browser, baseURL);
  const seen = await recordAnimations(page);
  await openGame(page, g.id, g.token);
  // Each landing of c1:e3:c5:e7 is a step of the animation; the three jumped men fade together.
  await page.evaluate(() => {
    window.__legs = [];
    const svg = document.querySelector('[data-board]');
    new MutationObserver(() => {
      const f = svg.querySelector('.anim .float.moving');
      if (f) window.__legs.push(f.getAttribute('transform'));
    }).observe(svg, { subtree: true, attributes: true, attributeFilter: ['transform'] });
  });
  await clickSquares(page, ['c1', 'e3', 'c5', 'e7']);
  await expect(ply(page, 1)).toHaveText('c1:e3:c5:e7');
  await expect(board(page)).not.toHaveAttribute('data-animating');
  const log = await seen();
  expect(log).toContain('animating:jump');
  expect(log.filter((c) => /\bcaptured\b/.test(c)).length).toBeGreaterThanOrEqual(1);
  // The piece in flight passed through e3 and c5 (square corners in SVG units: e3 = 400 500, c5 = 200 300).
  const legs = await page.evaluate(() => window.__legs);
  expect(legs).toContain('translate(400 500)');
  expect(legs).toContain('translate(200 300)');
  await closePages(page);

  // With prefers-reduced-motion the position simply changes.
  const calm = await newPage(browser, baseURL, { reducedMotion: 'reduce' });
  const calmSeen = await recordAnimations(calm);
  const g2 = await createGame(request, { mode: 'local' });
  await openGame(calm, g2.id, g2.token);
  await clickSquares(calm, ['c3', 'd4']);
  await expect(ply(calm, 1)).toHaveText('c3-d4');
  await expect(pieceOn(calm, 'd4')).toHaveAttribute('data-piece', 'wM');
  expect(await calmSeen()).toEqual([]);
  await closePages(calm);
});

for (const locale of ['en-US', 'ru-RU']) {
  test(`a mated King fades from the board, with a note in the status and the move list (${locale})`, async ({ browser, baseURL, request }) => {
    const page = await newPage(browser, baseURL, { locale });
    const seen = await recordAnimations(page);
    // Ra8 mates Black's King on d8 (the Rook on h7 holds rank 7): it leaves
    // the board (5.1) and Black plays on with its man.
    const g = await createGame(request, { mode: 'local', start: '3k4/7R/8/8/7m/8/8/R3K3 w - 0 30' });
    await openGame(page, g.id, g.token);
    await clickSquares(page, ['a1', 'a8']);
    // The Russian site writes the Rook with the glossary's letter (issue 19, item 4).
    await expect(ply(page, 1)).toHaveText(locale === 'en-US' ? 'Ra8#' : 'Лa8#');
    const note = page.locator('[data-phase-note]');
    const mark = page.locator('[data-phase-mark="1"]');
    if (locale === 'en-US') {
      await expect(note).toContainText("Black's King is mated: Phase 2");
      await expect(note).toContainText('move 30');
      await expect(mark).toHaveText("Black's King is mated: Phase 2");
    } else {
      await expect(note).toContainText('Чёрные: Королю мат — Фаза 2');
      await expect(mark).toHaveText('Чёрные: Королю мат — Фаза 2');
    }
    await expect(board(page)).not.toHaveAttribute('data-animating');
    expect((await seen()).some((c) => /\bking-mated\b/.test(c))).toBeTruthy();
    await expectBoard(page, { a8: 'wR', h7: 'wR', e1: 'wK', h4: 'bM' });
    await expect(status(page)).toHaveAttribute('data-turn', 'b');
    await closePages(page);
  });
}

test('sounds: none before the first gesture, then on moves; the switch is remembered', async ({ page, request }) => {
  const g = await createGame(request, { mode: 'local' });
  await openGame(page, g.id, g.token);
  const html = page.locator('html');
  const soundSwitch = page.locator('[data-sound-switch]');
  await expect(soundSwitch).toHaveAttribute('aria-pressed', 'true');

  // A move arriving before the person has touched the page makes no sound.
  await moveAs(request, g.id, g.token, 'c3d4', 0);
  await expect(ply(page, 1)).toHaveText('c3-d4');
  await expect(html).not.toHaveAttribute('data-sound');

  // After a click, moves sound: a plain move, then a capture.
  await clickSquares(page, ['f6', 'e5']);
  await expect(ply(page, 2)).toHaveText('f6-e5');
  await expect(html).toHaveAttribute('data-sound', 'move');
  await clickSquares(page, ['d4', 'f6']);
  await expect(ply(page, 3)).toHaveText('d4:f6');
  await expect(html).toHaveAttribute('data-sound', 'capture');

  // Muted, and still muted after a reload: no sound.
  await soundSwitch.click();
  await expect(soundSwitch).toHaveAttribute('aria-pressed', 'false');
  expect(await page.evaluate(() => localStorage.getItem('legion:sound'))).toBe('off');
  await page.reload();
  await expect(ply(page, 3)).toBeVisible();
  await expect(soundSwitch).toHaveAttribute('aria-pressed', 'false');
  await clickSquares(page, ['g7', 'e5']);
  await expect(ply(page, 4)).toHaveText('g7:e5');
  await expect(html).not.toHaveAttribute('data-sound');
  // From the keyboard, back on.
  await soundSwitch.focus();
  await page.keyboard.press('Space');
  await expect(soundSwitch).toHaveAttribute('aria-pressed', 'true');
});

test('low time (under ten seconds on our own clock) sounds once', async ({ page, request }) => {
  const g = await createGame(request, { mode: 'friend', color: 'white', clock: { initial_s: 9, increment_s: 0 } });
  const black = await joinGame(request, g.id, g.invite);
  await openGame(page, g.id, g.token);
  await clickSquares(page, ['c3', 'd4']); // our first move (and the page's first gesture)
  await expect(ply(page, 1)).toHaveText('c3-d4');
  await moveAs(request, g.id, black.token, 'b6a5', 1); // now our clock runs, from 9 s
  await expect(page.locator('.player[data-side="w"] [data-clock]')).toHaveClass(/running/);
  await expect(page.locator('html')).toHaveAttribute('data-sound', 'lowTime');
  const count = await page.locator('html').getAttribute('data-sound-count');
  await page.waitForTimeout(600);
  expect(await page.locator('html').getAttribute('data-sound-count')).toBe(count);
});

test('a premove is played when its turn comes if legal, else dropped; clicks cancel it', async ({ browser, baseURL, request }) => {
  const g = await createGame(request, { mode: 'friend', color: 'white' });
  const black = await joinGame(request, g.id, g.invite);
  const page = await newPage(browser, baseURL);
  const sent = [];
  page.on('request', (r) => { if (r.method() === 'POST' && /\/moves$/.test(r.url())) sent.push(r.postDataJSON().move); });
  await openGame(page, g.id, g.token);
  await clickSquares(page, ['c3', 'd4']);
  await expect(ply(page, 1)).toHaveText('c3-d4');
  await expect(status(page)).toContainText('Waiting for Black');

  // Picked up on Black's turn, a man shows where it could go by its
  // pattern: blue dots for its steps forward and its jumps (the server's).
  await square(page, 'g3').click();
  for (const sq of ['f4', 'h4', 'e5', 'e1']) await expect(square(page, sq).locator('.dot.premove-dot'), sq).toHaveCount(1);
  await expect(page.locator('[data-board] .dot')).toHaveCount(4);
  await square(page, 'g3').click(); // put down again
  await expect(page.locator('[data-board] .dot')).toHaveCount(0);

  // Entered on Black's turn: shown, not sent. A click on an empty square
  // cancels it; so does a right click.
  await clickSquares(page, ['g3', 'h4']);
  await expect(board(page)).toHaveAttribute('data-premove', 'g3-h4');
  await expect(square(page, 'h4').locator('.hl.premove')).toHaveCount(1);
  await expect(page.locator('[data-premove-note]')).toContainText('g3-h4');
  await square(page, 'e5').click();
  await expect(board(page)).not.toHaveAttribute('data-premove');
  await clickSquares(page, ['g3', 'h4']);
  await expect(board(page)).toHaveAttribute('data-premove', 'g3-h4');
  await square(page, 'c5').click({ button: 'right' });
  await expect(board(page)).not.toHaveAttribute('data-premove');
  await expect(page.locator('[data-premove-note]')).toBeHidden();

  // Black moves: the premove is played at once.
  await clickSquares(page, ['g3', 'h4']);
  await moveAs(request, g.id, black.token, 'b6a5', 1);
  await expect(ply(page, 3)).toHaveText('g3-h4');
  await expect(board(page)).not.toHaveAttribute('data-premove');
  let st = await gameState(request, g.id);
  expect(st.moves.map((m) => m.canonical)).toEqual(['c3d4', 'b6a5', 'g3h4']);

  // A premove the reply makes illegal (f6-e5 makes d4:f6 compulsory, 4.2) is dropped without a word.
  await clickSquares(page, ['e3', 'f4']);
  await expect(board(page)).toHaveAttribute('data-premove', 'e3-f4');
  await moveAs(request, g.id, black.token, 'f6e5', 3);
  await expect(ply(page, 4)).toHaveText('f6-e5');
  await expect(board(page)).not.toHaveAttribute('data-premove');
  await expect(status(page)).toContainText('Your move');
  await expect(error(page)).toBeHidden();
  await page.waitForTimeout(300);
  st = await gameState(request, g.id);
  expect(st.ply).toBe(4);
  expect(sent).toEqual(['c3d4', 'g3h4']);


  // A capture series premoved landing by landing: c1:e3:c5 over d2 and d4,
  // entered while Black is to move, is played as soon as Black has moved.
  const s = await createGame(request, { mode: 'friend', color: 'white', start: '7k/8/8/8/3m4/8/3m4/K1M5 b - 0 1' });
  const sBlack = await joinGame(request, s.id, s.invite);
  await openGame(page, s.id, s.token);
  await clickSquares(page, ['c1', 'e3', 'c5']);
  await expect(board(page)).toHaveAttribute('data-premove', 'c1-e3-c5');
  await moveAs(request, s.id, sBlack.token, 'h8g8', 0);
  await expect(ply(page, 2)).toHaveText('c1:e3:c5');
  await expectBoard(page, { c5: 'wM', a1: 'wK', g8: 'bK' });
  await closePages(page);
});

test('right-click draws arrows and circles; a left click or a move clears them', async ({ page, request }) => {
  const g = await createGame(request, { mode: 'local' });
  await openGame(page, g.id, g.token);
  const centre = async (sq) => {
    const b = await square(page, sq).boundingBox();
    return [b.x + b.width / 2, b.y + b.height / 2];
  };
  const rightDrag = async (from, to, modifiers = []) => {
    for (const m of modifiers) await page.keyboard.down(m);
    await page.mouse.move(...(await centre(from)));
    await page.mouse.down({ button: 'right' });
    await page.mouse.move(...(await centre(to)), { steps: 6 });
    await page.mouse.up({ button: 'right' });
    for (const m of modifiers) await page.keyboard.up(m);
  };
  await rightDrag('e3', 'e5');
  await expect(page.locator('[data-arrow="e3e5"]')).toHaveAttribute('data-color', 'green');
  await rightDrag('b2', 'b6', ['Shift']);
  await expect(page.locator('[data-arrow="b2b6"]')).toHaveAttribute('data-color', 'red');
  await square(page, 'd4').click({ button: 'right' });
  await expect(page.locator('[data-circle="d4"]')).toHaveAttribute('data-color', 'green');
  // The page shows no context menu over the board, and no move was made.
  await expect(page.locator('[data-ply]')).toHaveCount(0);
  // A second right click on the same circle removes it.
  await square(page, 'd4').click({ button: 'right' });
  await expect(page.locator('[data-circle]')).toHaveCount(0);

  // A left click clears the drawings.
  await square(page, 'e5').click();
  await expect(page.locator('[data-arrow]')).toHaveCount(0);

  // And every move does too.
  await rightDrag('g1', 'f3');
  await expect(page.locator('[data-arrow="g1f3"]')).toBeVisible();
  const st = await moveAs(request, g.id, g.token, 'c3d4', 0);
  expect(st.ply).toBe(1);
  await expect(ply(page, 1)).toHaveText('c3-d4');
  await expect(page.locator('[data-arrow]')).toHaveCount(0);
});

test('on a phone a finger held still draws: a circle where it stays, an arrow where it goes (ru-RU)', async ({ browser, baseURL, request }) => {
  const page = await newPage(browser, baseURL, { locale: 'ru-RU', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  const g = await createGame(request, { mode: 'local' });
  await openGame(page, g.id, g.token);
  await expect(status(page)).toContainText('Очередь хода');
  // Real touches, as a phone's screen sends them.
  const cdp = await page.context().newCDPSession(page);
  const finger = (type, p) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: p ? [p] : [] });
  const centre = async (sq) => {
    const b = await square(page, sq).boundingBox();
    return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
  };
  const slide = async (a, b) => {
    for (let i = 1; i <= 6; i++) await finger('touchMove', { x: a.x + ((b.x - a.x) * i) / 6, y: a.y + ((b.y - a.y) * i) / 6 });
  };
  const touch = async (from, to, holdMs) => {
    const a = await centre(from);
    await finger('touchStart', a);
    if (holdMs) await page.waitForTimeout(holdMs);
    if (to) await slide(a, await centre(to));
    await finger('touchEnd');
  };
  // Held on an empty square: a circle.
  await touch('d4', null, 700);
  await expect(page.locator('[data-circle="d4"]')).toHaveAttribute('data-color', 'green');
  // Held on a man of ours, then moved on: an arrow, and no move.
  await touch('e3', 'e5', 700);
  await expect(page.locator('[data-arrow="e3e5"]')).toHaveAttribute('data-color', 'green');
  await expect(page.locator('[data-circle="d4"]')).toHaveCount(1);
  await expect(page.locator('[data-ply]')).toHaveCount(0);
  // Held on the same square again: the circle goes.
  await touch('d4', null, 700);
  await expect(page.locator('[data-circle]')).toHaveCount(0);
  // A tap clears the drawings; a quick slide of a finger still moves.
  await touch('e5');
  await expect(page.locator('[data-arrow]')).toHaveCount(0);
  await touch('c3', 'd4');
  await expect(ply(page, 1)).toHaveText('c3-d4');
  await closePages(page);
});
