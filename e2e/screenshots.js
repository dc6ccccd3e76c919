#!/usr/bin/env node
// Screenshots for the docs, written to docs/screenshots/: the home board, a
// game against the engine with a construct on the board, a friend game
// waiting with its invite and later with a takeback request (desktop and
// phone), the analysis board with the engine's line, the position editor,
// the rules page, and a game on a phone-sized screen; then the home page,
// the engine game and the rules in Russian (suffix `-ru`), on a desktop and
// on a phone (`-phone-ru`; the game on a phone is `phone-ru`); the engine
// game on a phone held sideways (`phone-landscape`, `phone-landscape-ru`); and last, that game
// resigned: the game-over panel in English and Russian (`game-over`,
// `game-over-ru`, and on a phone `game-over-phone-ru`); the rules on a
// phone (`rules-phone`, `rules-phone-contents`); the analysis board with
// variations (`analysis-variation`) and with the computer's analysis of a
// finished game (`analysis-review`), in English and Russian (`-ru`).
//
//   cd e2e && npm ci && node screenshots.js      (needs target/release/legion)
//   node screenshots.js friend                    (only the shots whose name has "friend")
//   node screenshots.js -ru                       (only the Russian ones)
//
// LEGION_SHOTS_DIR writes them elsewhere (to look at them before keeping them).
// It starts its own server on a free port with a fresh database, and uses
// Debian's Chromium like the tests.

const fs = require('node:fs');
const path = require('node:path');
const { chromium } = require('@playwright/test');
const { launchOptions } = require('./chromium.js');
const { startServer } = require('./global-setup.js');

const OUT = process.env.LEGION_SHOTS_DIR ? path.resolve(process.env.LEGION_SHOTS_DIR) : path.resolve(__dirname, '..', 'docs', 'screenshots');
const ONLY = process.argv[2] || '';
const DESKTOP = { width: 1200, height: 800 };
const WIDE = { width: 1280, height: 860 };
const PHONE = { width: 390, height: 844 };
const LANDSCAPE = { width: 844, height: 390 };

/** Puts a seat's token (and a friend game's invite) where the app keeps them, before the page loads. */
async function seat(ctx, id, token, invite) {
  const items = [[`legion:seat:${id}`, token]];
  if (invite) items.push([`legion:invite:${id}`, invite]);
  await ctx.addInitScript((pairs) => {
    try { for (const [k, v] of pairs) localStorage.setItem(k, v); } catch { /* about:blank */ }
  }, items);
}

async function api(base, method, url, body, token) {
  const headers = { 'Content-Type': 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(base + url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await res.json();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(data)}`);
  return data;
}

const hasConstruct = (st) => Object.values(st.board).some((o) => o.prisoner);

/**
 * Plays White against the engine through the API until, after the engine's
 * reply, a construct stands on the board. White takes a man prisoner when
 * it can; otherwise it plays a Legion move chosen by a fixed rule, so that
 * runs look alike (the engine's replies decide the rest).
 */
async function engineGameWithConstruct(base) {
  for (let attempt = 0; attempt < 5; attempt++) {
    const g = await api(base, 'POST', '/api/games', { mode: 'engine', color: 'white', level: 3 });
    let st = g.state;
    for (let i = 0; i < 14 && st.status === 'active'; i++) {
      const takes = st.legal.filter((m) => m.kind === 'chess' && st.board[m.to]
        && /[MT]/.test(st.board[m.to].piece[1]) && !st.board[m.to].prisoner && !st.board[m.from].prisoner);
      const steps = st.legal.filter((m) => m.kind === 'step' || m.kind === 'jump');
      const pick = takes[0] || steps[(i * 5) % Math.max(1, steps.length)] || st.legal[0];
      st = await api(base, 'POST', `/api/games/${g.id}/moves`, { move: pick.canonical, ply: st.ply }, g.token);
      const deadline = Date.now() + 15000;
      while (st.status === 'active' && st.turn !== 'w' && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        st = await api(base, 'GET', `/api/games/${g.id}`);
      }
      if (st.status === 'active' && st.turn === 'w' && st.ply >= 8 && hasConstruct(st)) return g;
    }
  }
  throw new Error('no engine game with a construct came about');
}

/**
 * A finished game against the engine with moves the computer's analysis
 * classes: White plays moves picked by a fixed rule (not good ones), then
 * resigns; the analysis is asked for and waited for. Returns {id, report}.
 */
async function reviewedGame(base) {
  let last = null;
  for (let attempt = 0; attempt < 4; attempt++) {
    const g = await api(base, 'POST', '/api/games', { mode: 'engine', color: 'white', level: 2 });
    let st = g.state;
    for (let i = 0; i < 12 && st.status === 'active'; i++) {
      const pick = st.legal[(i * 7 + 3 + attempt) % st.legal.length];
      st = await api(base, 'POST', `/api/games/${g.id}/moves`, { move: pick.canonical, ply: st.ply }, g.token);
      const deadline = Date.now() + 15000;
      while (st.status === 'active' && st.turn !== 'w' && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        st = await api(base, 'GET', `/api/games/${g.id}`);
      }
    }
    if (st.status === 'active') await api(base, 'POST', `/api/games/${g.id}/resign`, {}, g.token);
    await api(base, 'POST', `/api/games/${g.id}/analysis`, {});
    let a = { status: 'running' };
    const deadline = Date.now() + 60000;
    while (a.status !== 'done' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 300));
      a = await api(base, 'GET', `/api/games/${g.id}/analysis`);
    }
    if (a.status !== 'done') continue;
    last = { id: g.id, report: a.report };
    const classes = new Set(a.report.moves.map((m) => m.class).filter(Boolean));
    if (classes.size >= 2) return last;
  }
  if (!last) throw new Error('no game was analysed');
  return last;
}

const wanted = (name) => !ONLY || name.includes(ONLY);

async function shot(page, name, options = {}) {
  if (!wanted(name)) return;
  const file = path.join(OUT, `${name}.png`);
  await page.mouse.move(0, 0); // no hover effects
  await page.screenshot({ path: file, ...options });
  const kb = Math.round(fs.statSync(file).size / 1024);
  console.log(`${path.relative(process.cwd(), file)} ${kb} KB`);
}

async function main() {
  fs.mkdirSync(OUT, { recursive: true });
  const server = await startServer({ movetime: 300 });
  const base = server.url;
  const browser = await chromium.launch(launchOptions);
  try {
    // English unless a Russian shot asks for 'ru-RU' (the server and the page go by Accept-Language).
    const desktop = (locale = 'en-US') => browser.newContext({ baseURL: base, viewport: DESKTOP, colorScheme: 'light', locale });
    const phone = (locale = 'en-US') => browser.newContext({ baseURL: base, viewport: PHONE, deviceScaleFactor: 2, isMobile: true, hasTouch: true, colorScheme: 'light', locale });
    let ctx;
    let page;

    // Friend games: waiting for the friend, then a takeback asked for, on a
    // desktop and on a phone.
    if (['friend-waiting', 'friend-takeback'].some((n) => wanted(n) || wanted(`${n}-phone`))) {
      for (const [suffix, make] of [['', () => browser.newContext({ baseURL: base, viewport: WIDE, colorScheme: 'light', locale: 'en-US' })], ['-phone', () => phone()]]) {
        const f = await api(base, 'POST', '/api/games', { mode: 'friend', color: 'white', clock: { initial_s: 600, increment_s: 5 } });
        ctx = await make();
        await seat(ctx, f.id, f.token, f.invite);
        page = await ctx.newPage();
        await page.goto(`/g/${f.id}`);
        await page.locator('#invite-link').waitFor();
        await page.locator('[data-board] [data-piece]').first().waitFor();
        await shot(page, `friend-waiting${suffix}`);

        const joined = await api(base, 'POST', `/api/games/${f.id}/join`, { invite: f.invite });
        await api(base, 'POST', `/api/games/${f.id}/moves`, { move: 'c3d4', ply: 0 }, f.token);
        await api(base, 'POST', `/api/games/${f.id}/moves`, { move: 'b6a5', ply: 1 }, joined.token);
        await api(base, 'POST', `/api/games/${f.id}/moves`, { move: 'g3h4', ply: 2 }, f.token);
        await api(base, 'POST', `/api/games/${f.id}/moves`, { move: 'f6e5', ply: 3 }, joined.token);
        await api(base, 'POST', `/api/games/${f.id}/takeback`, { action: 'offer' }, joined.token);
        await page.locator('[data-offer="takeback"]').waitFor();
        await page.locator('[data-ply="4"]').waitFor();
        await page.waitForFunction(() => !document.querySelector('#toast.show')); // the note that came with it
        await page.waitForTimeout(300);
        await shot(page, `friend-takeback${suffix}`);
        await ctx.close();
      }
    }
    if (ONLY.startsWith('friend')) return; // the new friend shots only

    // 1. The home page: the initial position, ready to play the engine.
    ctx = await desktop();
    page = await ctx.newPage();
    const ready = page.waitForResponse((r) => r.url().endsWith('/api/position'));
    await page.goto('/');
    await ready;
    await page.locator('[data-square="c3"]').click(); // show the man's moves
    await shot(page, 'home');
    await ctx.close();

    // 2. A game against the engine, with a construct on the board.
    const g = await engineGameWithConstruct(base);
    ctx = await desktop();
    await seat(ctx, g.id, g.token);
    page = await ctx.newPage();
    await page.goto(`/g/${g.id}`);
    await page.locator('[data-prisoner]').first().waitFor();
    await page.locator('[data-ply="8"]').waitFor();
    await shot(page, 'engine-game');
    await ctx.close();

    // 3. A friend game, made with the New game dialog: the invite link shows.
    ctx = await desktop();
    page = await ctx.newPage();
    await page.goto('/');
    await page.getByRole('button', { name: 'New game' }).click();
    await page.getByLabel('A friend (invite link)').check();
    await page.getByRole('button', { name: 'Start' }).click();
    await page.locator('#invite-link').waitFor();
    await page.locator('[data-board] [data-piece]').first().waitFor();
    await shot(page, 'friend-invite');
    await ctx.close();

    // 4. The analysis board: a position from the engine game, with the
    // engine's evaluation and best line.
    const st = await api(base, 'GET', `/api/games/${g.id}`);
    ctx = await desktop();
    await ctx.addInitScript(() => localStorage.setItem('legion:engine', 'on'));
    page = await ctx.newPage();
    await page.goto(`/analysis?lfen=${encodeURIComponent(st.lfen)}`);
    await page.locator('.pv .pv-line').first().waitFor({ timeout: 20000 });
    await page.locator('.arrow').first().waitFor();
    await shot(page, 'analysis');

    // 5. The position editor, a position half set up.
    await page.getByRole('button', { name: 'Set up a position' }).click();
    await page.getByRole('button', { name: 'Clear board' }).click();
    const place = async (tool, squares) => {
      await page.getByRole('button', { name: tool, exact: true }).click();
      for (const sq of squares) await page.locator(`[data-square="${sq}"]`).click();
    };
    await place('White King', ['g1']);
    await place('Black King', ['b8']);
    await place('White man', ['c3', 'e3', 'f2']);
    await place('Black man', ['d6', 'f6', 'b6']);
    await place('White Queen holding a Black man', ['d4']);
    await place('Black Knight holding a White man', ['g5']);
    await place('White Rook', ['a1']);
    await page.getByText('A valid position').waitFor();
    await page.getByRole('button', { name: 'White man', exact: true }).click();
    await shot(page, 'editor');
    await ctx.close();

    // 6. The rules, with a board beside a rule.
    ctx = await desktop();
    page = await ctx.newPage();
    await page.goto('/rules');
    await page.locator('[data-rule-board]').first().waitFor();
    await page.evaluate(() => {
      const h = [...document.querySelectorAll('.rules-doc p, .rules-doc li')].find((el) => /^4\.1\b/.test(el.textContent.trim()));
      if (h) window.scrollTo(0, h.getBoundingClientRect().top + window.scrollY - 70);
    });
    await shot(page, 'rules');
    await ctx.close();

    // 7. The engine game on a phone.
    ctx = await phone();
    await seat(ctx, g.id, g.token);
    page = await ctx.newPage();
    await page.goto(`/g/${g.id}`);
    await page.locator('[data-prisoner]').first().waitFor();
    await shot(page, 'phone');
    await ctx.close();

    // 8. In Russian: the home page, the engine game and the rules, on a
    // desktop and on a phone.
    for (const [suffix, make] of [['-ru', () => desktop('ru-RU')], ['-phone-ru', () => phone('ru-RU')]]) {
      ctx = await make();
      page = await ctx.newPage();
      const homeReady = page.waitForResponse((r) => r.url().endsWith('/api/position'));
      await page.goto('/');
      await homeReady;
      await page.locator('[data-square="c3"]').click();
      await shot(page, `home${suffix}`);
      await ctx.close();

      ctx = await make();
      await seat(ctx, g.id, g.token);
      page = await ctx.newPage();
      await page.goto(`/g/${g.id}`);
      await page.locator('[data-prisoner]').first().waitFor();
      await page.locator('[data-ply="8"]').waitFor();
      await shot(page, suffix === '-ru' ? 'engine-game-ru' : 'phone-ru');
      await ctx.close();

      ctx = await make();
      page = await ctx.newPage();
      await page.goto('/rules');
      await page.locator('[data-rule-board]').first().waitFor();
      await page.evaluate(() => {
        const h = [...document.querySelectorAll('.rules-doc p, .rules-doc li')].find((el) => /^4\.1\b/.test(el.textContent.trim()));
        if (h) window.scrollTo(0, h.getBoundingClientRect().top + window.scrollY - 70);
      });
      await shot(page, `rules${suffix}`);
      await ctx.close();
    }

    // 9. The engine game on a phone held sideways: the board fills the
    // height, the players' strips stand beside it; in English and Russian.
    for (const [name, locale] of [['phone-landscape', 'en-US'], ['phone-landscape-ru', 'ru-RU']]) {
      if (!wanted(name)) continue;
      ctx = await browser.newContext({ baseURL: base, viewport: LANDSCAPE, deviceScaleFactor: 2, isMobile: true, hasTouch: true, colorScheme: 'light', locale });
      await seat(ctx, g.id, g.token);
      page = await ctx.newPage();
      await page.goto(`/g/${g.id}`);
      await page.locator('[data-prisoner]').first().waitFor();
      await page.locator('[data-ply="8"]').waitFor();
      await shot(page, name);
      await ctx.close();
    }

    // 10. The end: White resigns the engine game. The game-over panel with
    // its result, reason and rematch, in English and in Russian.
    if (['game-over', 'game-over-ru', 'game-over-phone-ru'].some(wanted)) {
      await api(base, 'POST', `/api/games/${g.id}/resign`, {}, g.token);
      for (const [name, make] of [['game-over', () => desktop()], ['game-over-ru', () => desktop('ru-RU')], ['game-over-phone-ru', () => phone('ru-RU')]]) {
        ctx = await make();
        await seat(ctx, g.id, g.token);
        page = await ctx.newPage();
        await page.goto(`/g/${g.id}`);
        await page.locator('[data-game-over]').waitFor();
        await page.waitForTimeout(400); // the panel's fade-in
        await shot(page, name);
        await ctx.close();
      }
    }

    // 11. The rules on a phone, in English: at rule 4.1 (its table as
    // cards, its board), and at the top with the contents opened.
    if (['rules-phone', 'rules-phone-contents'].some(wanted)) {
      ctx = await phone();
      page = await ctx.newPage();
      await page.goto('/rules');
      await page.locator('[data-rule-board]').first().waitFor();
      await page.evaluate(() => {
        const h = [...document.querySelectorAll('.rules-doc p, .rules-doc li')].find((el) => /^4\.1\b/.test(el.textContent.trim()));
        if (h) window.scrollTo(0, h.getBoundingClientRect().top + window.scrollY - 70);
      });
      await shot(page, 'rules-phone');
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.locator('[data-toc] summary').click();
      await shot(page, 'rules-phone-contents');
      await ctx.close();
    }

    // 12. The analysis board: a record with two variations from White's
    // third move, one with a variation of its own, and the engine's line;
    // then a finished game with the computer's analysis: the graph, the
    // moves' classes, each side's counts and the legend. English, Russian.
    if (['analysis-variation', 'analysis-review'].some(wanted)) {
      const reviewed = await reviewedGame(base);
      const judged = reviewed.report.moves.find((m) => m.class === 'blunder' || m.class === 'mistake')
        || reviewed.report.moves.find((m) => m.class) || { ply: reviewed.report.moves.length };
      for (const [suffix, locale] of [['', 'en-US'], ['-ru', 'ru-RU']]) {
        ctx = await desktop(locale);
        await ctx.addInitScript(() => localStorage.setItem('legion:engine', 'on'));
        page = await ctx.newPage();
        await page.goto('/analysis');
        const ready = () => page.locator('[data-status]:not([aria-busy])').waitFor();
        await ready();
        await page.locator('#record-input').fill('[White "Anna"]\n[Black "Boris"]\n\n1. c3-d4 d6-e5 2. b2-c3 c7-d6 3. a3-b4 b6-a5 4. e3-f4 a7-b6 *');
        await page.locator('#record-input ~ .row button[type=submit]').click();
        await page.locator('[data-ply="8"]').waitFor();
        const move = async (from, to, text) => {
          await ready();
          await page.locator(`[data-square="${from}"]`).click();
          await page.locator(`[data-square="${to}"]`).click();
          await page.locator('[data-tree] [aria-current]', { hasText: text }).waitFor();
        };
        const pick = (sel, text) => page.locator(`[data-tree] ${sel}`, { hasText: text }).first().click();
        await pick('[data-ply="4"]', 'c7-d6');
        await move('e3', 'f4', 'e3-f4');
        await move('b6', 'a5', 'b6-a5');
        await move('g1', 'f3', 'Nf3');
        await pick('[data-line="variation"]', 'e3-f4');
        await move('b8', 'c6', 'Nc6');
        await move('g1', 'f3', 'Nf3');
        await pick('[data-ply="4"]', 'c7-d6');
        await move('g3', 'h4', 'g3-h4');
        await pick('[data-line="variation"]', 'Nc6');
        await page.locator('.pv-line').first().waitFor({ timeout: 20000 });
        await page.locator('[data-board] .arrow').first().waitFor();
        await page.waitForFunction(() => !document.querySelector('#toast.show'));
        await shot(page, `analysis-variation${suffix}`);
        await ctx.close();

        ctx = await desktop(locale);
        await ctx.addInitScript(() => localStorage.setItem('legion:engine', 'on'));
        page = await ctx.newPage();
        await page.goto(`/analysis?game=${reviewed.id}&ply=${judged.ply}`);
        await page.locator('[data-eval-graph]').waitFor();
        await page.locator('.pv-line').first().waitFor({ timeout: 20000 });
        await shot(page, `analysis-review${suffix}`, { fullPage: true });
        await ctx.close();
      }
    }
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
