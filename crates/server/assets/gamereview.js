// @ts-check
// The computer analysis of a whole finished game (docs/API.md, GET and
// POST /api/games/{id}/analysis): a button to ask for it, its progress, and
// when it is done an evaluation graph over the game (White's winning
// chances, ply by ply; a click goes to that move), each side's inaccuracies,
// mistakes and blunders, and a legend of the thresholds.

import { request, ApiError } from './api.js';
import { h, setText } from './ui.js';
import { t, formatNumber } from './i18n.js';

// The thresholds of docs/API.md: winning chances lost, percentage points.
// Each class's words are named in full, so that the key check sees them.
export const CLASSES = [
  { cls: 'inaccuracy', glyph: '?!', from: 10, name: 'analysis.review.inaccuracy', rows: 'analysis.review.inaccuracies', legend: 'analysis.review.legendInaccuracy' },
  { cls: 'mistake', glyph: '?', from: 20, name: 'analysis.review.mistake', rows: 'analysis.review.mistakes', legend: 'analysis.review.legendMistake' },
  { cls: 'blunder', glyph: '??', from: 30, name: 'analysis.review.blunder', rows: 'analysis.review.blunders', legend: 'analysis.review.legendBlunder' },
];
const classOf = (cls) => CLASSES.find((c) => c.cls === cls) || null;

/** Winning chances (per cent) of the side whose evaluation is `cp` centi-men: lichess's curve, as the server's. */
export function winningChances(cp) {
  const x = Math.max(-10000, Math.min(10000, Number(cp) || 0));
  return 50 + 50 * (2 / (1 + Math.exp(-0.00368208 * x)) - 1);
}

/** An evaluation from White's side in words: "+0.35", "White wins in 3". */
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
const svg = (tag, attrs = {}) => {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
};

export class GameReview {
  /**
   * options: onPick(ply), onReport(report) when the report arrives,
   * moveName(ply) → "12. Nf3" for the graph's tooltip.
   */
  constructor(options) {
    this.opts = options;
    this.report = null;
    this.ply = null;
    this.timer = null;
    this.gen = 0;
    this.destroyed = false;
    this.body = h('div.review-body');
    this.el = h('section.panel.review-panel', { 'aria-labelledby': 'review-title', 'data-review': '' },
      h('h2.review-title', { id: 'review-title' }, t('analysis.review.title')), this.body);
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

  /** False once the page has gone or moved on to another game since `gen`. */
  alive(gen) {
    return !this.destroyed && gen === this.gen;
  }

  /** Shows the analysis of game `id` (status: the game's) as it stands. */
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
    return `/api/games/${encodeURIComponent(this.id)}/analysis`;
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
      this.showRequest(e.message);
      return;
    }
    if (!this.alive(gen)) return;
    if (r.status === 'done' && r.report) this.showReport(r.report);
    else if (r.status === 'running') this.showProgress(r.done || 0, r.positions || 0);
    else this.showRequest();
  }

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
        setText(err, e instanceof ApiError && e.status === 409 ? t('analysis.review.afterEnd') : e.message);
        err.hidden = false;
      }
    });
    this.body.replaceChildren(h('p.small', t('analysis.review.explain')), h('div.row', button), err);
  }

  showProgress(done, positions) {
    if (!this.progress) {
      this.progress = h('progress', { max: 1, value: 0 });
      this.progressText = h('span.small', { role: 'status' });
    }
    this.progress.max = Math.max(1, positions);
    this.progress.value = done;
    setText(this.progressText, t('analysis.review.progress', { done, positions }));
    if (!this.body.contains(this.progress)) {
      this.body.replaceChildren(h('div.review-progress', { 'data-review-progress': '' }, this.progress, this.progressText));
    }
    this.timer = setTimeout(() => this.poll(), 1000);
  }

  showReport(report) {
    this.report = report;
    this.progress = null;
    const moves = report.moves || [];
    this.evals = [report.start_eval || 0, ...moves.map((m) => m.eval)];
    this.scores = [null, ...moves.map((m) => m.score)];
    this.body.replaceChildren(this.graph(), this.summary(moves), this.legend());
    this.drawCursor();
    this.opts.onReport?.(report);
  }

  // ---- the graph ------------------------------------------------------------

  x(ply) {
    const n = Math.max(1, this.evals.length - 1);
    return (ply / n) * W;
  }

  y(cp) {
    return H - (winningChances(cp) / 100) * H;
  }

  graph() {
    const evals = this.evals;
    const g = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'eval-graph', role: 'img', 'data-eval-graph': '', 'aria-label': t('analysis.review.graphLabel') });
    g.append(svg('rect', { class: 'graph-black', x: 0, y: 0, width: W, height: H }));
    const pts = evals.map((e, i) => `${this.x(i).toFixed(1)} ${this.y(e).toFixed(1)}`);
    if (evals.length === 1) pts.push(`${W} ${this.y(evals[0]).toFixed(1)}`);
    g.append(svg('path', { class: 'graph-white', d: `M0 ${H} L${pts.join(' L')} L${W} ${H} Z` }));
    g.append(svg('path', { class: 'graph-line', d: `M${pts.join(' L')}` }));
    g.append(svg('line', { class: 'graph-mid', x1: 0, y1: H / 2, x2: W, y2: H / 2 }));
    for (const m of this.report.moves || []) {
      if (!m.class) continue;
      g.append(svg('circle', { class: `graph-dot judged-${m.class}`, cx: this.x(m.ply), cy: this.y(m.eval), r: 4 }));
    }
    this.cursor = svg('line', { class: 'graph-cursor', x1: 0, y1: 0, x2: 0, y2: H });
    this.hover = svg('line', { class: 'graph-hover', x1: 0, y1: 0, x2: 0, y2: H, visibility: 'hidden' });
    g.append(this.hover, this.cursor);
    this.tip = h('div.graph-tip', { 'aria-hidden': 'true' });
    const plyAt = (e) => {
      const r = g.getBoundingClientRect();
      const n = evals.length - 1;
      return Math.max(0, Math.min(n, Math.round(((e.clientX - r.left) / Math.max(1, r.width)) * n)));
    };
    g.addEventListener('pointermove', (e) => {
      const ply = plyAt(e);
      this.hover.setAttribute('x1', this.x(ply));
      this.hover.setAttribute('x2', this.x(ply));
      this.hover.setAttribute('visibility', 'visible');
      const name = ply === 0 ? t('analysis.review.start') : this.opts.moveName(ply);
      setText(this.tip, `${name}: ${evalText(evals[ply], this.scores[ply])}`);
    });
    g.addEventListener('pointerleave', () => {
      this.hover.setAttribute('visibility', 'hidden');
      setText(this.tip, '');
    });
    g.addEventListener('click', (e) => this.opts.onPick(plyAt(e)));
    return h('div.graph-box', g, this.tip);
  }

  /** Marks ply `ply` of the game on the graph (null: none). */
  setPly(ply) {
    this.ply = ply;
    this.drawCursor();
  }

  drawCursor() {
    if (!this.cursor) return;
    const on = this.ply !== null && this.ply !== undefined && this.ply < this.evals.length;
    this.cursor.setAttribute('visibility', on ? 'visible' : 'hidden');
    if (on) {
      this.cursor.setAttribute('x1', this.x(this.ply));
      this.cursor.setAttribute('x2', this.x(this.ply));
    }
  }

  // ---- the summary ----------------------------------------------------------

  summary(moves) {
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

  /** Goes to the next move of `side` of class `cls` after the one shown. */
  next(side, cls) {
    const list = (this.report.moves || []).filter((m) => m.class === cls && this.opts.sideOf(m.ply) === side);
    if (!list.length) return;
    const after = list.find((m) => m.ply > (this.ply ?? -1)) || list[0];
    this.opts.onPick(after.ply);
  }

  legend() {
    return h('div.review-legend', { 'data-review-legend': '' },
      h('p.small', t('analysis.review.legend', { nodes: formatNumber(this.report.nodes_per_position || 0) })),
      h('ul', CLASSES.map(({ cls, glyph, from, legend }) => h('li', { 'data-class': cls },
        h(`span.glyph.judged-${cls}`, glyph), ' ', t(legend, { from })))));
  }

  /** The annotation of the move that made ply `ply` (for the move tree), or null. */
  judgement(ply) {
    const m = this.report && (this.report.moves || [])[ply - 1];
    if (!m || m.ply !== ply || !m.class) return null;
    const c = classOf(m.class);
    if (!c) return null;
    const best = m.best_human || m.best;
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
