// @ts-check
// The computer analysis of a whole finished game (docs/API.md, GET and
// POST /api/games/{id}/analysis): a button to ask for it, its progress, and
// when it is done an evaluation graph over the game (White's winning
// chances, ply by ply; a click goes to that move), each side's inaccuracies,
// mistakes and blunders, and a legend of the thresholds; for a position
// of the game that the server's solved endings hold, its exact value.

import { request, ApiError } from './api.js';
import { h, setText } from './ui.js';
import { t, formatNumber } from './i18n.js';
import { showMove } from './notation.js';
import { EndgamePanel } from './endgame.js';

// The thresholds of docs/API.md: winning chances lost, percentage points.
// Each class's words are named in full, so that the key check sees them.
export const CLASSES = [
  { cls: 'inaccuracy', glyph: '?!', from: 10, name: 'analysis.review.inaccuracy', rows: 'analysis.review.inaccuracies', legend: 'analysis.review.legendInaccuracy' },
  { cls: 'mistake', glyph: '?', from: 20, name: 'analysis.review.mistake', rows: 'analysis.review.mistakes', legend: 'analysis.review.legendMistake' },
  { cls: 'blunder', glyph: '??', from: 30, name: 'analysis.review.blunder', rows: 'analysis.review.blunders', legend: 'analysis.review.legendBlunder' },
];
/** @param {string} cls */
const classOf = (cls) => CLASSES.find((c) => c.cls === cls) || null;

/** Winning chances (per cent) of the side whose evaluation is `cp` centi-men: lichess's curve, as the server's. @param {number} cp */
export function winningChances(cp) {
  const x = Math.max(-10000, Math.min(10000, Number(cp) || 0));
  return 50 + 50 * (2 / (1 + Math.exp(-0.00368208 * x)) - 1);
}

/** An evaluation from White's side in words: "+0.35", "White wins in 3". @param {number} cp @param {string | null | undefined} score */
export function evalText(cp, score) {
  const [kind, n] = String(score || '').split(/\s+/);
  if (kind === 'win' || kind === 'loss') {
    const side = kind === 'win' ? 'w' : 'b';
    const moves = Number(n) || 0;
    return moves > 0 ? t('analysis.winsIn', { side, moves }) : t('analysis.review.won', { side });
  }
  const v = (Number(cp) || 0) / 100;
  return `${v > 0 ? '+' : ''}${v.toFixed(2)}`;
}

const SVGNS = 'http://www.w3.org/2000/svg';
const W = 600;
const H = 160;
/** @param {string} tag @param {Record<string, string | number>} [attrs] @returns {SVGElement} */
const svg = (tag, attrs = {}) => {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return /** @type {SVGElement} */ (el);
};

/**
 * A move of the report (docs/API.md): its ply, the evaluation after it
 * (centi-men, White's side), its score words, its class, the best move.
 * @typedef {{ply: number, eval: number, score?: string, class?: string | null, best?: string, best_human?: string, loss?: number}} ReviewMove
 * @typedef {{moves?: ReviewMove[], start_eval?: number, nodes_per_position?: number}} Report
 * @typedef {{
 *   onPick: (ply: number) => void, onReport?: (report: Report) => void,
 *   moveName: (ply: number) => string, sideOf: (ply: number) => 'w' | 'b',
 * }} ReviewOptions
 */

export class GameReview {
  /**
   * options: onPick(ply), onReport(report) when the report arrives,
   * moveName(ply) → "12. Nf3" for the graph's tooltip, sideOf(ply) the mover.
   * @param {ReviewOptions} options
   */
  constructor(options) {
    this.opts = options;
    /** @type {Report | null} */
    this.report = null;
    /** @type {number | null} */
    this.ply = null;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
    /** @type {string | null} */
    this.id = null;
    /** @type {HTMLProgressElement | null} */
    this.progress = null;
    /** @type {HTMLElement | null} */
    this.progressText = null;
    /** @type {SVGElement | null} */
    this.cursor = null;
    /** @type {number[]} */
    this.evals = [];
    /** @type {(string | null | undefined)[]} */
    this.scores = [];
    this.gen = 0;
    this.destroyed = false;
    this.body = h('div.review-body');
    // The solved endings' value of the move shown (the analysis board
    // lists its moves' values).
    this.endgame = new EndgamePanel({ moves: false });
    this.el = h('section.panel.review-panel', { 'aria-labelledby': 'review-title', 'data-review': '' },
      h('h2.review-title', { id: 'review-title' }, t('analysis.review.title')), this.body, this.endgame.el);
    this.el.hidden = true;
  }

  destroy() {
    this.destroyed = true;
    this.reset();
  }

  /** Forgets the game: hidden, nothing more asked of the server. */
  reset() {
    this.gen++;
    clearTimeout(this.timer);
    this.report = null;
    this.cursor = null;
    this.progress = null;
    this.id = null;
    this.el.hidden = true;
    this.body.replaceChildren();
  }

  /** False once the page has gone or moved on to another game since `gen`. @param {number} gen */
  alive(gen) {
    return !this.destroyed && gen === this.gen;
  }

  /** Shows the analysis of game `id` (status: the game's) as it stands. @param {string} id @param {string} status */
  async load(id, status) {
    this.reset();
    this.id = id;
    this.el.hidden = false;
    if (status === 'active' || status === 'waiting') {
      this.body.replaceChildren(h('p.small', t('analysis.review.afterEnd')));
      return;
    }
    this.body.replaceChildren(h('p.small', t('analysis.review.checking')));
    await this.poll();
  }

  url() {
    return `/api/games/${encodeURIComponent(this.id || '')}/analysis`;
  }

  async poll() {
    clearTimeout(this.timer);
    const gen = this.gen;
    let r;
    try {
      r = await request('GET', this.url());
    } catch (e) {
      if (!this.alive(gen)) return;
      // A lost answer while the analysis runs: ask again in a moment.
      if (this.progress) { this.timer = setTimeout(() => this.poll(), 2000); return; }
      this.showRequest(e instanceof Error ? e.message : String(e));
      return;
    }
    if (!this.alive(gen)) return;
    if (r.status === 'done' && r.report) this.showReport(r.report);
    else if (r.status === 'running') this.showProgress(r.done || 0, r.positions || 0);
    else this.showRequest();
  }

  /** @param {string} [error] */
  showRequest(error) {
    const button = h('button.primary', { type: 'button', 'data-request-analysis': '' }, t('analysis.review.request'));
    const err = h('p.error', { role: 'alert', hidden: !error }, error || '');
    button.addEventListener('click', async () => {
      const gen = this.gen;
      button.disabled = true;
      err.hidden = true;
      try {
        const r = await request('POST', this.url(), {});
        if (!this.alive(gen)) return;
        if (r && r.status === 'done' && r.report) this.showReport(r.report);
        else this.showProgress((r && r.done) || 0, (r && r.positions) || 0);
      } catch (e) {
        if (!this.alive(gen)) return;
        button.disabled = false;
        setText(err, e instanceof ApiError && e.status === 409 ? t('analysis.review.afterEnd') : e instanceof Error ? e.message : String(e));
        err.hidden = false;
      }
    });
    this.body.replaceChildren(h('p.small', t('analysis.review.explain')), h('div.row', button), err);
  }

  /** @param {number} done @param {number} positions */
  showProgress(done, positions) {
    const progress = this.progress || (this.progress = h('progress', { max: 1, value: 0 }));
    const text = this.progressText || (this.progressText = h('span.small', { role: 'status' }));
    progress.max = Math.max(1, positions);
    progress.value = done;
    setText(text, t('analysis.review.progress', { done, positions }));
    if (!this.body.contains(progress)) {
      this.body.replaceChildren(h('div.review-progress', { 'data-review-progress': '' }, progress, text));
    }
    this.timer = setTimeout(() => this.poll(), 1000);
  }

  /** @param {Report} report */
  showReport(report) {
    this.report = report;
    this.progress = null;
    const moves = report.moves || [];
    this.evals = [report.start_eval || 0, ...moves.map((m) => m.eval)];
    this.scores = [null, ...moves.map((m) => m.score)];
    this.body.replaceChildren(this.graph(moves), this.summary(moves), this.legend(report));
    this.drawCursor();
    this.opts.onReport?.(report);
  }

  // ---- the graph ------------------------------------------------------------

  /** @param {number} ply */
  x(ply) {
    const n = Math.max(1, this.evals.length - 1);
    return (ply / n) * W;
  }

  /** @param {number} cp */
  y(cp) {
    return H - (winningChances(cp) / 100) * H;
  }

  /** @param {ReviewMove[]} moves */
  graph(moves) {
    const evals = this.evals;
    const g = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'eval-graph', role: 'img', 'data-eval-graph': '', 'aria-label': t('analysis.review.graphLabel') });
    g.append(svg('rect', { class: 'graph-black', x: 0, y: 0, width: W, height: H }));
    const pts = evals.map((e, i) => `${this.x(i).toFixed(1)} ${this.y(e).toFixed(1)}`);
    if (evals.length === 1) pts.push(`${W} ${this.y(evals[0]).toFixed(1)}`);
    g.append(svg('path', { class: 'graph-white', d: `M0 ${H} L${pts.join(' L')} L${W} ${H} Z` }));
    g.append(svg('path', { class: 'graph-line', d: `M${pts.join(' L')}` }));
    g.append(svg('line', { class: 'graph-mid', x1: 0, y1: H / 2, x2: W, y2: H / 2 }));
    for (const m of moves) {
      if (!m.class) continue;
      g.append(svg('circle', { class: `graph-dot judged-${m.class}`, cx: this.x(m.ply), cy: this.y(m.eval), r: 4 }));
    }
    this.cursor = svg('line', { class: 'graph-cursor', x1: 0, y1: 0, x2: 0, y2: H });
    const hover = svg('line', { class: 'graph-hover', x1: 0, y1: 0, x2: 0, y2: H, visibility: 'hidden' });
    g.append(hover, this.cursor);
    const tip = h('div.graph-tip', { 'aria-hidden': 'true' });
    /** @param {MouseEvent} e */
    const plyAt = (e) => {
      const r = g.getBoundingClientRect();
      const n = evals.length - 1;
      return Math.max(0, Math.min(n, Math.round(((e.clientX - r.left) / Math.max(1, r.width)) * n)));
    };
    g.addEventListener('pointermove', (e) => {
      const ply = plyAt(/** @type {PointerEvent} */ (e));
      hover.setAttribute('x1', String(this.x(ply)));
      hover.setAttribute('x2', String(this.x(ply)));
      hover.setAttribute('visibility', 'visible');
      const name = ply === 0 ? t('analysis.review.start') : this.opts.moveName(ply);
      setText(tip, `${name}: ${evalText(evals[ply], this.scores[ply])}`);
    });
    g.addEventListener('pointerleave', () => {
      hover.setAttribute('visibility', 'hidden');
      setText(tip, '');
    });
    g.addEventListener('click', (e) => this.opts.onPick(plyAt(/** @type {MouseEvent} */ (e))));
    return h('div.graph-box', g, tip);
  }

  /**
   * Marks ply `ply` of the game on the graph (null: none), and shows the
   * solved endings' value of its position `lfen` under `rules`, if any.
   * @param {number | null} ply @param {string} [lfen] @param {string} [rules]
   */
  setPly(ply, lfen, rules) {
    this.ply = ply;
    this.drawCursor();
    if (ply !== null && lfen && rules && this.id) this.endgame.show(lfen, rules);
    else this.endgame.hide();
  }

  drawCursor() {
    if (!this.cursor) return;
    const ply = this.ply;
    const on = ply !== null && ply < this.evals.length;
    this.cursor.setAttribute('visibility', on ? 'visible' : 'hidden');
    if (on) {
      this.cursor.setAttribute('x1', String(this.x(ply)));
      this.cursor.setAttribute('x2', String(this.x(ply)));
    }
  }

  // ---- the summary ----------------------------------------------------------

  /** @param {ReviewMove[]} moves */
  summary(moves) {
    /** @type {Record<string, Record<string, number>>} */
    const count = { w: {}, b: {} };
    for (const m of moves) {
      if (!m.class) continue;
      const side = this.opts.sideOf(m.ply);
      count[side][m.class] = (count[side][m.class] || 0) + 1;
    }
    const head = h('tr', h('th', { scope: 'col' }, h('span.sr-only', t('analysis.review.class'))),
      h('th', { scope: 'col' }, t('side.w')), h('th', { scope: 'col' }, t('side.b')));
    const rows = CLASSES.map(({ cls, glyph, rows: label }) => h('tr', { 'data-class': cls },
      h('th', { scope: 'row' }, h(`span.glyph.judged-${cls}`, glyph), ' ', t(label)),
      ...['w', 'b'].map((side) => {
        const n = count[side][cls] || 0;
        if (!n) return h('td', '0');
        return h('td', h('button.count', {
          type: 'button',
          'data-side': side,
          title: t('analysis.review.next'),
          onclick: () => this.next(side, cls),
        }, String(n)));
      })));
    return h('table.review-summary', { 'data-review-summary': '' }, h('thead', head), h('tbody', rows));
  }

  /** Goes to the next move of `side` of class `cls` after the one shown. @param {string} side @param {string} cls */
  next(side, cls) {
    const list = ((this.report && this.report.moves) || []).filter((m) => m.class === cls && this.opts.sideOf(m.ply) === side);
    if (!list.length) return;
    const after = list.find((m) => m.ply > (this.ply ?? -1)) || list[0];
    this.opts.onPick(after.ply);
  }

  /** @param {Report} report */
  legend(report) {
    return h('div.review-legend', { 'data-review-legend': '' },
      h('p.small', t('analysis.review.legend', { nodes: formatNumber(report.nodes_per_position || 0) })),
      h('ul', CLASSES.map(({ cls, glyph, from, legend }) => h('li', { 'data-class': cls },
        h(`span.glyph.judged-${cls}`, glyph), ' ', t(legend, { from })))));
  }

  /** The annotation of the move that made ply `ply` (for the move tree), or null. @param {number} ply */
  judgement(ply) {
    const m = this.report && (this.report.moves || [])[ply - 1];
    if (!m || m.ply !== ply || !m.class) return null;
    const c = classOf(m.class);
    if (!c) return null;
    const best = m.best_human ? showMove(m.best_human) : m.best;
    const name = t(c.name);
    return {
      cls: m.class,
      glyph: c.glyph,
      title: best ? t('analysis.review.bestWas', { judgement: name, move: best }) : name,
      best: m.best,
      bestHuman: best,
      loss: m.loss,
    };
  }
}
