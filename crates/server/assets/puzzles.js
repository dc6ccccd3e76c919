// @ts-check
// Puzzles (docs/API.md, "Puzzles"; docs/PUZZLES.md): /puzzles (the next
// puzzle, ?theme= to keep to one theme), /puzzles/daily, /puzzles/{id},
// /puzzles/themes and /puzzles/themes/{key} (what a theme means, with its
// rule). The opponent's move that sets the puzzle is played on the
// board, then the solver finds the rest. Moves come from the server's
// legal moves; an illegal one is explained with its rule, a legal wrong
// one is answered by the engine's refutation. A visitor's score is kept
// in this browser; a signed-in player's on the server.

import { api, request } from './api.js';
import { Board } from './board.js';
import { h, setText, showError } from './ui.js';
import { t } from './i18n.js';
import { parseLfen } from './lfen.js';

/**
 * @typedef {{id: string, lfen: string, moves: string[], themes: string[], rating: number, plays: number,
 *   solver: string, source: string}} Puzzle
 * @typedef {{rating: number, rd: number, volatility: number}} Score
 */

const SCORE_KEY = 'legion:puzzle-score';

/** The visitor's own score, from this browser. @returns {Score | null} */
function localScore() {
  try {
    const s = JSON.parse(localStorage.getItem(SCORE_KEY) || 'null');
    if (s && [s.rating, s.rd, s.volatility].every((x) => typeof x === 'number' && Number.isFinite(x))) return s;
  } catch { /* a damaged score starts again */ }
  return null;
}

/** @param {string} key */
const themeName = (key) => t(`puzzles.theme.${key}.name`);

/** @param {string} path */
function ruleLink(path) {
  return path ? h('a', { href: `/rules#rule-${path.replace('.', '-')}` }, t('puzzles.rule', { rule: path })) : null;
}

/** @param {HTMLElement} root @param {string} path the address, e.g. /puzzles/themes/capture */
export function mountPuzzles(root, path) {
  const themesPage = path.match(/^\/puzzles\/themes(?:\/([A-Za-z0-9]+))?$/);
  if (themesPage) return mountThemes(root, themesPage[1] || null);
  const one = path.match(/^\/puzzles\/([a-z0-9]{1,16})$/);
  const trainer = new Trainer(root, one && one[1] !== 'daily' ? { id: one[1] } : path === '/puzzles/daily' ? { daily: true } : {});
  return () => trainer.destroy();
}

/** The themes, or one theme's page. @param {HTMLElement} root @param {string | null} key */
function mountThemes(root, key) {
  const list = h('ul.puzzle-themes', { 'data-puzzle-themes': '' });
  const page = h('section.puzzles-page.themes-page');
  root.append(page);
  let alive = true;
  request('GET', '/api/puzzles/themes').then((/** @type {{key: string, rule: string, count: number}[]} */ themes) => {
    if (!alive) return;
    const theme = key ? themes.find((x) => x.key === key) : null;
    if (key && !theme) {
      page.append(h('h1', t('puzzles.themes.title')), h('p.error', t('puzzles.noTheme', { theme: key })));
    } else if (theme) {
      page.append(
        h('h1', { 'data-theme-title': '' }, themeName(theme.key)),
        h('p.theme-about', { 'data-theme-about': '' }, t(`puzzles.theme.${theme.key}.about`)),
        h('p', ruleLink(theme.rule)),
        h('p', t('puzzles.themes.count', { count: theme.count })),
        h('p', h('a.button.primary', { href: `/puzzles?theme=${theme.key}`, 'data-theme-solve': '' }, t('puzzles.themes.solve'))),
        h('p', h('a', { href: '/puzzles/themes' }, t('puzzles.themes.all'))));
    } else {
      page.append(h('h1', t('puzzles.themes.title')), h('p', t('puzzles.themes.intro')), list);
      list.replaceChildren(...themes.map((x) => h('li', { 'data-theme': x.key },
        h('a', { href: `/puzzles/themes/${x.key}` }, themeName(x.key)), ' ',
        h('span.small', `${x.count}`), h('div.small', t(`puzzles.theme.${x.key}.about`)))));
    }
  }).catch((e) => { if (alive) page.append(h('p.error', e.message || String(e))); });
  return () => { alive = false; };
}

class Trainer {
  /** @param {HTMLElement} root @param {{id?: string, daily?: boolean}} which */
  constructor(root, which) {
    this.which = which;
    this.alive = true;
    /** @type {Puzzle | null} */
    this.puzzle = null;
    /** moves of the solution played so far (the setting move is 1) */
    this.ply = 0;
    /** whether the result was sent: the first one counts */
    this.sent = false;
    this.failed = false;
    this.hints = 0;
    /** @type {any} the server's view of the position shown */
    this.view = null;
    /** @type {any} the position before a wrong move, to try again from */
    this.retryView = null;
    this.signedIn = false;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
    this.theme = new URLSearchParams(location.search).get('theme') || '';
    /** @type {Board} made by build() */
    this.board = /** @type {any} */ (null);
    this.build(root);
    this.load();
  }

  destroy() { this.alive = false; clearTimeout(this.timer); }

  /** @param {HTMLElement} root */
  build(root) {
    const boardBox = h('div.board-box');
    this.board = new Board(boardBox, {
      label: t('puzzles.boardLabel'),
      onMove: (m) => this.tryMove(m),
      onAttempt: (sq) => this.explain(sq),
    });
    this.title = h('h1.puzzle-title', { 'data-puzzle-title': '' });
    this.status = h('p.puzzle-status', { 'data-puzzle-status': '', role: 'status', 'aria-live': 'polite' });
    this.error = h('div.error', { 'data-error': '', role: 'alert', hidden: true });
    this.info = h('div.puzzle-info', { 'data-puzzle-info': '' });
    this.score = h('p.puzzle-score', { 'data-puzzle-score': '' });
    this.hintBtn = h('button', { type: 'button', 'data-puzzle-hint': '', onclick: () => this.hint() }, t('puzzles.hint'));
    this.solutionBtn = h('button', { type: 'button', 'data-puzzle-solution': '', onclick: () => this.solution() }, t('puzzles.solution'));
    this.retryBtn = h('button', { type: 'button', 'data-puzzle-retry': '', hidden: true, onclick: () => this.retry() }, t('puzzles.retry'));
    this.nextBtn = h('button.primary', { type: 'button', 'data-puzzle-next': '', onclick: () => this.next() }, t('puzzles.next'));
    this.themeSelect = h('select', { 'data-puzzle-theme-filter': '', 'aria-label': t('puzzles.filter') },
      h('option', { value: '' }, t('puzzles.anyTheme')));
    this.themeSelect.addEventListener('change', () => {
      this.theme = this.themeSelect.value;
      history.replaceState(null, '', this.theme ? `/puzzles?theme=${this.theme}` : '/puzzles');
      this.which = {};
      this.load();
    });
    request('GET', '/api/puzzles/themes').then((/** @type {{key: string, count: number}[]} */ themes) => {
      for (const x of themes.filter((y) => y.count > 0)) {
        this.themeSelect.append(h('option', { value: x.key, selected: x.key === this.theme }, `${themeName(x.key)} (${x.count})`));
      }
    }).catch(() => { /* the filter stays with "any" */ });
    const side = h('div.puzzle-side.panel',
      this.title, this.status, this.error,
      h('div.row.puzzle-buttons', this.hintBtn, this.solutionBtn, this.retryBtn, this.nextBtn),
      this.info, this.score,
      h('div.row.puzzle-links',
        h('label.small', t('puzzles.filter'), ' ', this.themeSelect),
        h('a', { href: '/puzzles/daily', 'data-puzzle-daily': '' }, t('puzzles.daily')),
        h('a', { href: '/puzzles/themes' }, t('puzzles.themes.title'))));
    root.append(h('section.puzzles-page', h('div.puzzle-layout', boardBox, side)));
    this.showScore();
  }

  async showScore() {
    let s = null;
    try { s = await request('GET', '/api/account/puzzles'); } catch { s = null; }
    if (!this.alive) return;
    this.signedIn = !!(s && s.rating);
    if (s && s.rating) {
      setText(this.score, t('puzzles.yourRating', { rating: Math.round(s.rating.rating) }) + (s.rating.provisional ? '?' : ''));
    } else {
      const mine = localScore();
      setText(this.score, mine ? t('puzzles.yourLocalRating', { rating: Math.round(mine.rating) }) : t('puzzles.visitor'));
    }
  }

  async load() {
    clearTimeout(this.timer);
    showError(this.error, '');
    setText(this.status, t('puzzles.loading'));
    this.info.replaceChildren();
    let p;
    try {
      if (this.which.id) p = await request('GET', `/api/puzzles/${encodeURIComponent(this.which.id)}`);
      else if (this.which.daily) p = await request('GET', '/api/puzzles/daily');
      else {
        const q = new URLSearchParams();
        if (this.theme) q.set('theme', this.theme);
        const mine = localScore();
        if (mine) q.set('rating', String(Math.round(mine.rating)));
        p = await request('GET', `/api/puzzles/next?${q}`);
      }
    } catch (e) {
      if (!this.alive) return;
      setText(this.status, '');
      showError(this.error, /** @type {any} */ (e).message || String(e));
      return;
    }
    if (!this.alive) return;
    this.start(p);
  }

  /** @param {Puzzle} p */
  async start(p) {
    this.puzzle = p;
    this.ply = 0;
    this.sent = false;
    this.failed = false;
    this.hints = 0;
    this.hintBtn.disabled = false;
    this.solutionBtn.disabled = false;
    this.retryBtn.hidden = true;
    this.board.setFlipped(p.solver === 'black');
    setText(this.title, this.which.daily ? t('puzzles.dailyTitle') : t('puzzles.title', { id: p.id }));
    if (!this.which.id && !this.which.daily) history.replaceState(null, '', `/puzzles/${p.id}${this.theme ? `?theme=${this.theme}` : ''}`);
    this.which = { id: p.id };
    const before = await this.position(p.lfen);
    if (!before || !this.alive) return;
    this.board.set({ board: before.board, turn: before.turn, legal: [], movable: false });
    setText(this.status, t('puzzles.watch'));
    this.status.dataset.state = 'watch';
    delete this.status.dataset.result;
    this.timer = setTimeout(() => this.playFrom(before, p.moves[0], () => this.yourTurn()), 600);
  }

  /** @param {string} lfen */
  async position(lfen) {
    try { return await api.position(lfen, 'default'); } catch (e) {
      showError(this.error, /** @type {any} */ (e).message || String(e));
      return null;
    }
  }

  /**
   * Plays `canonical` (a legal move of `view`) on the board, animated, then `then`.
   * @param {any} view @param {string} canonical @param {() => void} then
   */
  async playFrom(view, canonical, then) {
    const m = (view.legal || []).find((/** @type {any} */ x) => x.canonical === canonical);
    if (!m || !this.alive) { showError(this.error, t('puzzles.broken')); return; }
    const after = await this.position(m.lfen);
    if (!after || !this.alive) return;
    this.view = after;
    this.ply += 1;
    this.board.set({ board: after.board, turn: after.turn, legal: [], movable: false, lastPath: m.path, lastCaptured: m.captured || [] },
      { animate: { move: m, before: parseLfen(view.lfen).board } });
    then();
  }

  yourTurn() {
    if (!this.puzzle || !this.view) return;
    const v = this.view;
    const side = this.puzzle.solver === 'black' ? 'b' : 'w';
    this.board.set({ ...this.board.view, legal: v.legal || [], movable: true, turn: side, marks: {}, arrows: [], mustCapture: v.must_capture || [] });
    this.status.dataset.state = 'yours';
    setText(this.status, this.failed ? t('puzzles.tryAgain') : t(side === 'w' ? 'puzzles.findWhite' : 'puzzles.findBlack'));
  }

  /** An illegal move: its rule, as everywhere. @param {string[]} squares */
  async explain(squares) {
    if (!this.view) return;
    try {
      const r = await api.explain(this.view.lfen, 'default', squares);
      if (r && r.legal && r.move) {
        const m = (this.view.legal || []).find((/** @type {any} */ x) => x.canonical === r.move.canonical);
        if (m) this.tryMove(m);
      } else if (r) showError(this.error, r.error || t('analysis.illegal'));
    } catch (e) { showError(this.error, /** @type {any} */ (e).message || String(e)); }
  }

  /** @param {any} m a legal move of the position shown */
  async tryMove(m) {
    const p = this.puzzle;
    if (!p || !this.view || !this.board.view.movable) return;
    showError(this.error, '');
    // At once, before the checks that wait on the server: no longer the
    // solver's turn (a second move is not taken meanwhile).
    this.board.set({ ...this.board.view, movable: false });
    this.status.dataset.state = 'checking';
    const expected = p.moves[this.ply];
    const before = this.view;
    if (m.canonical === expected || await this.alsoMates(m, expected)) {
      this.board.set({ ...this.board.view, movable: false, marks: {}, arrows: [] });
      await this.playFrom(before, m.canonical, () => {});
      if (this.ply >= p.moves.length) { this.solved(); return; }
      setText(this.status, t('puzzles.good'));
      this.status.dataset.state = 'good';
      this.timer = setTimeout(() => this.playFrom(this.view, p.moves[this.ply], () => this.yourTurn()), 500);
      return;
    }
    // A legal move that is not the solution: the engine's answer to it.
    this.board.set({ ...this.board.view, movable: false });
    this.failed = true;
    this.send(false);
    const after = await this.position(m.lfen);
    if (!after || !this.alive) return;
    this.board.set({ board: after.board, turn: after.turn, legal: [], movable: false, lastPath: m.path, lastCaptured: m.captured || [] },
      { animate: { move: m, before: parseLfen(before.lfen).board } });
    setText(this.status, t('puzzles.wrong'));
    this.status.dataset.state = 'wrong';
    this.retryBtn.hidden = false;
    this.retryView = before;
    try {
      const r = await request('POST', '/api/analyse', { lfen: after.lfen, rules: 'default', movetime_ms: 300 });
      if (!this.alive || !r || !r.best) return;
      const reply = (after.legal || []).find((/** @type {any} */ x) => x.canonical === r.best.canonical);
      if (reply) {
        const next = await this.position(reply.lfen);
        if (!next || !this.alive || this.retryView !== before) return;
        this.board.set({ board: next.board, turn: next.turn, legal: [], movable: false, lastPath: reply.path, lastCaptured: reply.captured || [] },
          { animate: { move: reply, before: after.board } });
        setText(this.status, t('puzzles.refuted', { move: r.best.human || r.best.canonical }));
      }
    } catch { /* no refutation: the retry button is there */ }
  }

  /**
   * Any mate ends Phase 1 (5.1): on the last move, another mate is as good.
   * @param {any} m @param {string} expected
   */
  async alsoMates(m, expected) {
    const p = this.puzzle;
    if (!p || this.ply !== p.moves.length - 1 || !p.themes.includes('phaseOneMate')) return false;
    const opponent = p.solver === 'black' ? 'w' : 'b';
    const after = await this.position(m.lfen);
    return !!after && after.kings && after.kings[opponent] === false && !!expected;
  }

  retry() {
    if (!this.retryView) return;
    this.view = this.retryView;
    this.retryView = null;
    this.retryBtn.hidden = true;
    const v = this.view;
    this.board.set({ board: v.board, turn: v.turn, legal: [], movable: false });
    this.yourTurn();
  }

  hint() {
    const p = this.puzzle;
    if (!p || !this.view || this.ply >= p.moves.length) return;
    const m = (this.view.legal || []).find((/** @type {any} */ x) => x.canonical === p.moves[this.ply]);
    if (!m) return;
    this.hints += 1;
    if (this.hints === 1) {
      this.board.set({ ...this.board.view, marks: { [m.from]: 'mark-green' } });
      setText(this.status, t('puzzles.hintPiece'));
    } else {
      this.board.set({ ...this.board.view, arrows: [{ from: m.from, to: m.to, path: m.path, color: 'green' }] });
      setText(this.status, t('puzzles.hintMove'));
    }
  }

  async solution() {
    const p = this.puzzle;
    if (!p || !this.view) return;
    this.failed = true;
    this.send(false);
    this.hintBtn.disabled = true;
    this.solutionBtn.disabled = true;
    this.retryBtn.hidden = true;
    if (this.retryView) { this.view = this.retryView; this.retryView = null; }
    this.board.set({ ...this.board.view, movable: false, marks: {}, arrows: [] });
    const step = () => {
      if (!this.alive || !this.puzzle || this.ply >= p.moves.length) { this.ended(false); return; }
      this.playFrom(this.view, p.moves[this.ply], () => { this.timer = setTimeout(step, 500); });
    };
    step();
  }

  solved() {
    this.send(true);
    this.ended(true);
  }

  /** @param {boolean} win */
  ended(win) {
    const p = this.puzzle;
    if (!p) return;
    this.hintBtn.disabled = true;
    this.solutionBtn.disabled = true;
    this.retryBtn.hidden = true;
    setText(this.status, win && !this.failed ? t('puzzles.solved') : t('puzzles.over'));
    this.status.dataset.result = win && !this.failed ? 'solved' : 'failed';
    this.status.dataset.state = 'over';
    this.info.replaceChildren(
      h('p', t('puzzles.rating', { rating: p.rating, plays: p.plays })),
      h('p.puzzle-theme-list', { 'data-puzzle-themes-shown': '' }, t('puzzles.themesLabel'), ' ',
        ...p.themes.flatMap((k, i) => [i ? ', ' : '', h('a', { href: `/puzzles/themes/${k}` }, themeName(k))])),
      h('p.small', h('a', { href: `/analysis?lfen=${encodeURIComponent(p.lfen)}` }, t('puzzles.analyse'))));
  }

  /** Sends the first result of this puzzle. @param {boolean} win */
  async send(win) {
    const p = this.puzzle;
    if (!p || this.sent) return;
    this.sent = true;
    const mine = localScore();
    const signedIn = !!this.signedIn;
    // A visitor's own score goes with the attempt; a player's is kept by the server.
    const req = !signedIn && mine ? { win, rating: mine } : { win };
    let r;
    try {
      r = await request('POST', `/api/puzzles/${encodeURIComponent(p.id)}/attempt`, req);
    } catch (e) {
      showError(this.error, /** @type {any} */ (e).message || String(e));
      return;
    }
    if (!this.alive || !r) return;
    if (!signedIn) localStorage.setItem(SCORE_KEY, JSON.stringify({ rating: r.player.rating, rd: r.player.rd, volatility: r.player.volatility }));
    const diff = r.diff > 0 ? `+${r.diff}` : `${r.diff}`;
    setText(this.score, (signedIn ? t('puzzles.yourRating', { rating: Math.round(r.player.rating) })
      : t('puzzles.yourLocalRating', { rating: Math.round(r.player.rating) })) + (r.player.provisional ? '?' : '') + (r.diff ? ` (${diff})` : ''));
    this.score.dataset.diff = diff;
  }

  next() {
    this.which = {};
    history.replaceState(null, '', this.theme ? `/puzzles?theme=${this.theme}` : '/puzzles');
    this.load();
  }
}
