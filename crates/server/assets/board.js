// @ts-check
// The board: an SVG of 64 square groups, each holding its own highlight
// and piece, so a test (or a person) clicking a square always hits that
// square or something inside it. Rendering compares a small signature per
// square and rewrites only the squares that changed.
//
// Layers, bottom to top: the squares; the animation layer (pieces in
// flight); the page's arrows (view.arrows: an engine's line, a rule's
// diagram); the person's own drawings (right-click arrows and circles);
// the dragged piece. Every layer above the squares lets clicks through.
//
// Input: click-click and drag-and-drop. A Legion capture series is entered
// square by square; as soon as one legal move fits what was entered, it is
// played. Anything else is handed to `onAttempt` so the page can ask the
// server why it is illegal. While the opponent is to move (view.premovable)
// the same gestures enter a premove, kept here until the page asks for it.
//
// Animation: `set(view, {animate: {move, before}})` draws the new position
// and plays the move over it from the position `before`: a slide, or a
// capture series jump by jump with the jumped pieces fading when it ends, a
// man settling under its Captor, a liberated prisoner left behind, a mated
// King fading from its square. It follows prefers-reduced-motion.

import { ALL_SQUARES, fileOf, rankOf, isDark, FILES, describeOccupant } from './lfen.js';
import { ensureSprite, pieceNodes } from './pieces.js';
import { s, SVGNS } from './svg.js';
import { t } from './i18n.js';
const S = 100; // one square in SVG units

// Animation timings, in ms.
const SLIDE_MS = 210; // a chess move or a Legion step
const LEG_MS = 170; // each jump of a capture series
const FADE_MS = 170; // captured pieces leaving, a prisoner settling
const KING_MS = 800; // a mated King leaving the board (5.1)
const LONG_PRESS_MS = 450; // a finger held still this long draws instead

const samePrefix = (path, squares) => squares.every((s, i) => path[i] === s);
const pathOf = (m) => (m.path && m.path.length ? m.path : [m.from, m.to]);
const isLegion = (o) => !!o && /[MT]$/.test(o.piece);
/** A diagonal leap of two squares or more: a jump of a Legion capture. */
const isLeap = (a, b) => {
  const df = Math.abs(fileOf(a) - fileOf(b));
  return df >= 2 && df === Math.abs(rankOf(a) - rankOf(b));
};
const boardKey = (b) => Object.keys(b || {}).sort().map((sq) => `${sq}${b[sq].piece}${b[sq].prisoner || ''}`).join(',');
const ease = (p) => (p < 0.5 ? 2 * p * p : 1 - ((-2 * p + 2) ** 2) / 2);
const lerp = (a, b, p) => a + (b - a) * p;

export const prefersReducedMotion = () => {
  try { return matchMedia('(prefers-reduced-motion: reduce)').matches; } catch { return false; }
};

// The colours of the person's drawings: plain right-click green, Shift red,
// Alt blue, Shift+Alt orange (as on lichess).
function drawColor(e) {
  if (e.shiftKey && e.altKey) return 'orange';
  if (e.shiftKey) return 'red';
  if (e.altKey) return 'blue';
  return 'green';
}

export class Board {
  /**
   * options: small (a rule diagram: no test hooks, no input), coords,
   * onMove(move), onAttempt(squares), onPremove(squares|null),
   * onEdit(square, event) for the editor, onEditDrag(from, to),
   * label (accessible name), drawable (right-click drawings; default on).
   */
  constructor(container, options = {}) {
    ensureSprite();
    this.opts = options;
    this.small = !!options.small;
    this.flipped = false;
    this.view = { board: {}, turn: 'w', legal: [], movable: false };
    this.sel = null; // squares entered so far: [from, landing...]
    this.premove = null; // a premove entered: [from, landing...]
    this.drag = null;
    this.draw = null; // a drawing under way: right button, or a finger held
    this.press = null; // a finger down that may become a long press
    this.drawings = { arrows: new Map(), circles: new Map() };
    this.preview = null; // a dropped move waiting for the server: {move}
    this.anim = null; // the animation running: {id, hidden: Set}
    this.animSeq = 0;
    this.sigs = new Map();

    const svg = document.createElementNS(SVGNS, 'svg');
    svg.setAttribute('viewBox', `0 0 ${8 * S} ${8 * S}`);
    svg.setAttribute('class', this.small ? 'board board-small' : 'board');
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', options.label || t('board.label'));
    if (this.small) svg.setAttribute('data-rule-board', '');
    else svg.setAttribute('data-board', '');
    this.svg = svg;

    this.squareEls = new Map();
    const squares = document.createElementNS(SVGNS, 'g');
    for (const sq of ALL_SQUARES) {
      const g = document.createElementNS(SVGNS, 'g');
      if (!this.small) g.setAttribute('data-square', sq);
      g.setAttribute('class', 'sq ' + (isDark(sq) ? 'dark' : 'light'));
      squares.appendChild(g);
      this.squareEls.set(sq, g);
    }
    svg.appendChild(squares);
    const layer = (cls) => {
      const g = document.createElementNS(SVGNS, 'g');
      g.setAttribute('class', cls);
      g.setAttribute('pointer-events', 'none');
      svg.appendChild(g);
      return g;
    };
    this.animLayer = layer('anim');
    this.arrowLayer = layer('arrows');
    this.drawLayer = layer('drawings');
    this.dragLayer = layer('drag');

    container.appendChild(svg);
    this.layout();
    if (!this.small) this.bindInput();
  }

  /** Places the square groups for the current orientation. */
  layout() {
    for (const [sq, g] of this.squareEls) {
      const [x, y] = this.xy(sq);
      g.setAttribute('transform', `translate(${x} ${y})`);
    }
    this.sigs.clear();
    this.arrowKey = null;
    this.render();
    this.renderDrawings();
  }

  xy(sq) {
    const f = fileOf(sq);
    const r = rankOf(sq);
    return this.flipped ? [(7 - f) * S, r * S] : [f * S, (7 - r) * S];
  }

  setFlipped(flipped) {
    if (this.flipped === !!flipped) return;
    this.flipped = !!flipped;
    this.cancelDrag();
    this.finishAnimation(false);
    this.layout();
  }

  /**
   * view: board, turn, legal, movable (may the user move now), premovable
   * and premoveSide (may the user enter a premove, for which side),
   * pending (the move sent and not yet answered), lastPath, lastCaptured,
   * checkSquare, mustCapture, arrows [{from,to,color}|{path}], marks {sq:
   * class} (extra highlights), editor (free editing mode).
   * options.animate: {move, before} plays `move` from the board `before`.
   */
  set(view, { animate = null } = {}) {
    const prevKey = boardKey(this.view.board);
    this.view = { board: {}, legal: [], ...view };
    const changed = boardKey(this.view.board) !== prevKey;
    // A new position: the animation under way ends at once, the person's
    // drawings go (they belong to the position they were drawn on).
    if (changed) {
      this.finishAnimation(false);
      this.clearDrawings();
    }
    // A dropped piece waits on its square until the server has answered.
    let dropped = false;
    if (this.preview) {
      const same = (m) => m && m.canonical === this.preview.move.canonical;
      if (animate && same(animate.move)) dropped = true;
      if (!same(this.view.pending) || animate || changed) this.preview = null;
    }
    // A selection survives a re-render only while it still fits a legal move.
    if (this.sel) {
      const premoving = !this.view.movable && this.view.premovable;
      const ok = premoving
        ? this.ownPiece(this.sel[0], this.view.premoveSide)
        : this.view.movable && this.ownPiece(this.sel[0])
          && (this.sel.length === 1 || this.candidates(this.sel).length > 0);
      if (!ok) this.sel = null;
    }
    if (this.premove && !this.view.premovable && !this.view.movable) this.setPremove(null, false);
    this.render();
    if (animate && animate.move && animate.before) this.animate(animate.move, animate.before, this.view.board, { slide: !dropped });
  }

  candidates(squares) {
    return (this.view.legal || []).filter((m) => m.from === squares[0] && samePrefix(pathOf(m), squares));
  }

  render() {
    const v = this.view;
    const marks = new Map();
    const add = (sq, cls) => { if (sq) marks.set(sq, (marks.get(sq) || '') + ' ' + cls); };
    for (const sq of v.lastPath || []) add(sq, 'last');
    for (const sq of v.lastCaptured || []) add(sq, 'last-captured');
    for (const sq of v.mustCapture || []) add(sq, 'must');
    if (v.checkSquare) add(v.checkSquare, 'check');
    for (const [sq, cls] of Object.entries(v.marks || {})) add(sq, cls);
    if (this.premove) this.premove.forEach((sq) => add(sq, 'premove'));
    if (this.sel) {
      const premoving = !v.movable;
      this.sel.forEach((sq, i) => add(sq, premoving ? 'premove-sel' : i === 0 ? 'selected' : 'entered'));
      const seen = new Set();
      if (!premoving) {
        for (const m of this.candidates(this.sel)) {
          const next = pathOf(m)[this.sel.length];
          if (next && !seen.has(next)) {
            seen.add(next);
            add(next, v.board[next] ? 'target capture' : 'target');
          }
        }
      } else if (this.sel.length === 1) {
        // Where the piece could go by its pattern, whatever stands there now.
        for (const sq of (v.premoves || {})[this.sel[0]] || []) add(sq, 'pretarget');
      }
    }
    if (this.drag && this.drag.over) add(this.drag.over, 'hover');

    const hiddenByAnim = this.anim ? this.anim.hidden : null;
    const previewFrom = this.preview ? this.preview.move.from : null;
    for (const [sq, g] of this.squareEls) {
      const o = v.board[sq];
      const m = marks.get(sq) || '';
      const ghost = !!(this.drag && this.drag.active && this.drag.from === sq);
      const away = !!((hiddenByAnim && hiddenByAnim.has(sq)) || sq === previewFrom);
      const coordF = this.opts.coords !== false && rankOf(sq) === (this.flipped ? 7 : 0);
      const coordR = this.opts.coords !== false && fileOf(sq) === (this.flipped ? 7 : 0);
      const sig = `${o ? o.piece + (o.prisoner || '') : ''}|${m}|${ghost}|${away}|${coordF}${coordR}`;
      if (this.sigs.get(sq) === sig) continue;
      this.sigs.set(sq, sig);
      g.replaceChildren(...this.squareNodes(sq, o, m, ghost, away, coordF, coordR));
    }
    this.renderArrows();
    this.renderPreview();
  }

  /**
   * What one square shows, bottom to top: its colour and tints, then the
   * last move's frame, dots and rings, its coordinates, its piece.
   */
  squareNodes(sq, o, marks, ghost, away, coordF, coordR) {
    const under = [s('rect', { class: 'bg', width: S, height: S })];
    const over = []; // drawn above every tint
    for (const c of marks.trim().split(/\s+/).filter(Boolean)) {
      if (c === 'target') over.push(s('circle', { class: 'dot', cx: 50, cy: 50, r: 15 }));
      else if (c === 'pretarget') over.push(s('circle', { class: 'dot premove-dot', cx: 50, cy: 50, r: 13 }));
      else if (c === 'capture') over.push(s('circle', { class: 'ring', cx: 50, cy: 50, r: 43 }));
      else if (c === 'must') under.push(s('circle', { class: 'must', cx: 50, cy: 50, r: 45 }));
      else if (c === 'check') under.push(s('circle', { class: 'check', cx: 50, cy: 50, r: 50 }));
      else if (c === 'last') {
        under.push(s('rect', { class: 'hl last', width: S, height: S }));
        over.unshift(s('rect', { class: 'hl-frame last', x: 3.5, y: 3.5, width: 93, height: 93 }));
      } else under.push(s('rect', { class: `hl ${c}`, width: S, height: S }));
    }
    const out = [...under, ...over];
    if (coordF) out.push(s('text', { class: 'coord', x: 94, y: 95, 'text-anchor': 'end' }, sq[0]));
    if (coordR) out.push(s('text', { class: 'coord', x: 5, y: 20 }, sq[1]));
    if (o) {
      const title = t('board.pieceOn', { piece: describeOccupant(o), square: sq });
      const state = away ? ' away' : ghost ? ' ghosted' : '';
      const hooks = this.small ? {} : { 'data-piece': o.piece, 'data-prisoner': o.prisoner };
      out.push(s('g', { class: `piece${state}`, ...hooks }, s('title', {}, title), pieceNodes(o.piece, o.prisoner)));
    }
    return out;
  }

  renderArrows() {
    const arrows = this.view.arrows || [];
    const key = JSON.stringify(arrows) + this.flipped;
    if (key === this.arrowKey) return;
    this.arrowKey = key;
    this.arrowLayer.replaceChildren(...arrows.map((a) => this.arrowNode(a.path || [a.from, a.to], a.color || 'green')).filter((a) => a !== null));
  }

  /**
   * An arrow along `path` (squares), its head inside the last square.
   * @returns {SVGElement | null}
   */
  arrowNode(path, color, hooks = {}) {
    const pts = path.map((sq) => { const [x, y] = this.xy(sq); return [x + 50, y + 50]; });
    if (pts.length < 2) return null;
    // Shorten the last segment so the head ends inside the square.
    const [x1, y1] = pts[pts.length - 2];
    const [x2, y2] = pts[pts.length - 1];
    const len = Math.hypot(x2 - x1, y2 - y1) || 1;
    const end = [x2 - ((x2 - x1) / len) * 30, y2 - ((y2 - y1) / len) * 30];
    const d = pts.slice(0, -1).map((p, i) => `${i ? 'L' : 'M'}${p[0]} ${p[1]}`).join(' ') + ` L${end[0]} ${end[1]}`;
    const ang = Math.atan2(y2 - y1, x2 - x1);
    const head = [[x2 - Math.cos(ang) * 8, y2 - Math.sin(ang) * 8],
      [end[0] + Math.cos(ang + Math.PI / 2) * 22, end[1] + Math.sin(ang + Math.PI / 2) * 22],
      [end[0] + Math.cos(ang - Math.PI / 2) * 22, end[1] + Math.sin(ang - Math.PI / 2) * 22]];
    return s('g', { class: `arrow arrow-${color}`, ...hooks },
      s('path', { d, fill: 'none', 'stroke-width': 16, 'stroke-linecap': 'round', 'stroke-linejoin': 'round' }),
      s('path', { d: `M${head.map((p) => p.join(' ')).join(' L')} Z`, stroke: 'none' }));
  }

  // ---- the person's drawings ------------------------------------------------

  renderDrawings() {
    if (this.small) return;
    const out = [];
    for (const [sq, color] of this.drawings.circles) {
      const [x, y] = this.xy(sq);
      out.push(s('circle', { class: `draw-circle circle-${color}`, 'data-circle': sq, 'data-color': color, cx: x + 50, cy: y + 50, r: 44 }));
    }
    for (const a of this.drawings.arrows.values()) {
      out.push(this.arrowNode([a.from, a.to], a.color, { 'data-arrow': a.from + a.to, 'data-color': a.color }));
    }
    const d = this.draw;
    if (d && d.over && d.over !== d.from) out.push(this.arrowNode([d.from, d.over], d.color, { 'data-drawing': '' }));
    else if (d && d.touch && d.over === d.from) {
      // A finger held on a square: the circle it will leave, shown faint.
      const [x, y] = this.xy(d.from);
      out.push(s('circle', { class: `draw-circle circle-${d.color} drawing`, 'data-drawing': '', cx: x + 50, cy: y + 50, r: 44 }));
    }
    this.drawLayer.replaceChildren(...out.filter((n) => n !== null));
  }

  hasDrawings() {
    return this.drawings.arrows.size > 0 || this.drawings.circles.size > 0;
  }

  clearDrawings() {
    if (!this.hasDrawings() && !this.draw) return;
    this.drawings.arrows.clear();
    this.drawings.circles.clear();
    this.draw = null;
    this.renderDrawings();
  }

  toggleDrawing(from, to, color) {
    if (from === to) {
      const c = this.drawings.circles;
      if (c.get(from) === color) c.delete(from);
      else c.set(from, color);
    } else {
      const a = this.drawings.arrows;
      const key = from + to;
      if (a.has(key) && a.get(key).color === color) a.delete(key);
      else a.set(key, { from, to, color });
    }
    this.renderDrawings();
  }

  // ---- animation -------------------------------------------------------------

  /** A piece (or construct) drawn in the animation layer, placed on `sq`. */
  floating(o, sq, cls) {
    const outer = document.createElementNS(SVGNS, 'g');
    outer.setAttribute('class', `float ${cls}`);
    const [x, y] = this.xy(sq);
    outer.setAttribute('transform', `translate(${x} ${y})`);
    const parts = {};
    if (o.prisoner) {
      // As pieceNodes draws a construct, in two parts that can move apart.
      parts.prisoner = this.part(outer, o.prisoner, 'translate(10 40) scale(0.8)');
      parts.captor = this.part(outer, o.piece, 'translate(12 2) scale(0.76)');
    } else {
      parts.piece = this.part(outer, o.piece, '');
    }
    this.animLayer.appendChild(outer);
    return { el: outer, parts, o };
  }

  part(parent, code, transform) {
    const g = s('g', { transform: transform || null }, pieceNodes(code));
    parent.appendChild(g);
    return g;
  }

  place(f, from, to, p) {
    const [x1, y1] = this.xy(from);
    const [x2, y2] = this.xy(to);
    f.el.setAttribute('transform', `translate(${lerp(x1, x2, p)} ${lerp(y1, y2, p)})`);
  }

  /** Runs fn(eased progress) for `ms`; resolves at the end, or at once when the animation is cut. */
  tween(id, ms, fn) {
    return new Promise((resolve) => {
      const t0 = performance.now();
      let done = false;
      const end = () => {
        if (done) return;
        done = true;
        clearTimeout(guard);
        if (this.animSeq === id) fn(1);
        resolve();
      };
      const frame = (now) => {
        if (done) return;
        if (this.animSeq !== id) { end(); return; }
        const p = Math.min(1, (now - t0) / ms);
        fn(ease(p));
        if (p >= 1) end();
        else requestAnimationFrame(frame);
      };
      // Frames stop in a hidden tab: a timer makes sure the move still lands.
      const guard = setTimeout(end, ms + 120);
      requestAnimationFrame(frame);
    });
  }

  /** Plays `move` from `before` to `after` (already drawn underneath). */
  async animate(move, before, after, { slide = true } = {}) {
    if (this.small || prefersReducedMotion() || document.hidden) return;
    const mover = before[move.from];
    if (!mover) return;
    this.finishAnimation(false);
    const id = ++this.animSeq;
    const alive = () => this.animSeq === id;
    const path = pathOf(move);
    const captured = (move.captured || []).filter((sq) => before[sq]);
    const color = mover.piece[0];
    // Castling: the Rook moves too.
    let rook = null;
    if (move.kind === 'castle') {
      const rf = Object.keys(before).find((sq) => sq !== move.from && before[sq].piece === `${color}R` && !after[sq]);
      const rt = Object.keys(after).find((sq) => sq !== move.to && after[sq].piece === `${color}R` && !before[sq]);
      if (rf && rt) rook = { from: rf, to: rt, o: before[rf] };
    }
    // Pieces gone that the move did not capture: a mated King (5.1).
    const vanished = Object.keys(before).filter((sq) => !after[sq] && sq !== move.from
      && !captured.includes(sq) && !(rook && sq === rook.from));
    const hidden = new Set([move.to, ...captured, ...vanished]);
    if (rook) hidden.add(rook.to);
    this.anim = { id, hidden };
    this.svg.setAttribute('data-animating', move.kind || 'move');
    this.animLayer.replaceChildren();
    this.render();

    const gone = vanished.map((sq) => ({ sq, f: this.floating(before[sq], sq, /K$/.test(before[sq].piece) ? 'king-mated' : 'vanishing') }));
    const victims = captured.map((sq) => ({ sq, f: this.floating(before[sq], sq, 'captured') }));
    const rookF = rook ? this.floating(rook.o, rook.from, 'moving') : null;
    const moverF = this.floating(mover, slide ? move.from : move.to, 'moving');

    if (slide) {
      const legs = path.length - 1;
      const legMs = move.kind === 'jump' ? LEG_MS : SLIDE_MS;
      for (let i = 0; i < legs; i++) {
        await this.tween(id, legMs, (p) => {
          this.place(moverF, path[i], path[i + 1], p);
          if (rookF && i === 0) this.place(rookF, rook.from, rook.to, p);
        });
        if (!alive()) return;
      }
    }

    // The aftermath, all at once: jumped and captured pieces leave, a man
    // settles under its Captor, a liberated prisoner stays behind.
    const fades = [];
    for (const { sq, f } of victims) {
      const was = before[sq];
      const now = after[sq];
      if (sq === move.to && now && now.prisoner && !was.prisoner && now.prisoner === was.piece && !mover.prisoner) {
        // Taken prisoner (4.1): the man slides under, the Captor rises on it.
        f.el.classList.add('settling');
        const man = f.parts.piece;
        const top = moverF.parts.piece;
        fades.push(this.tween(id, FADE_MS, (p) => {
          man.setAttribute('transform', `translate(${10 * p} ${40 * p}) scale(${1 - 0.2 * p})`);
          top.setAttribute('transform', `translate(${12 * p} ${2 * p}) scale(${1 - 0.24 * p})`);
        }));
        this.animLayer.appendChild(moverF.el); // the Captor on top
      } else if (was.prisoner && now && now.piece === was.prisoner && !now.prisoner) {
        // Liberation (4.1): the Captor goes, its prisoner is left standing.
        f.el.classList.add('liberated');
        fades.push(this.tween(id, FADE_MS * 1.5, (p) => {
          f.parts.captor.setAttribute('opacity', String(1 - p));
          f.parts.prisoner.setAttribute('transform', `translate(${10 * (1 - p)} ${40 * (1 - p)}) scale(${0.8 + 0.2 * p})`);
        }));
      } else {
        f.el.classList.add('fading');
        fades.push(this.tween(id, FADE_MS, (p) => f.el.setAttribute('opacity', String(1 - p))));
      }
    }
    for (const { f } of gone) {
      const slow = f.el.classList.contains('king-mated');
      fades.push(this.tween(id, slow ? KING_MS : FADE_MS, (p) => f.el.setAttribute('opacity', String(1 - p))));
    }
    await Promise.all(fades);
    if (alive()) this.finishAnimation(true);
  }

  /** Ends the animation under way: the final position shows. */
  finishAnimation(render = true) {
    if (!this.anim) return;
    this.anim = null;
    this.animSeq++;
    this.animLayer.replaceChildren();
    this.svg.removeAttribute('data-animating');
    if (this.preview) this.renderPreview();
    if (render) this.render();
  }

  /** A dropped piece shown on its target while the server decides. */
  renderPreview() {
    if (this.anim) return;
    const p = this.preview;
    const el = /** @type {SVGElement | null} */ (this.animLayer.querySelector('.preview'));
    if (!p) { el?.remove(); return; }
    if (el && el.dataset.move === p.move.canonical) return;
    el?.remove();
    const o = this.view.board[p.move.from];
    if (!o) return;
    const f = this.floating(o, p.move.to, 'preview');
    f.el.dataset.move = p.move.canonical;
  }

  // ---- input -------------------------------------------------------------

  squareAt(clientX, clientY) {
    const ctm = this.svg.getScreenCTM();
    if (!ctm) return null;
    const pt = new DOMPoint(clientX, clientY).matrixTransform(ctm.inverse());
    let f = Math.floor(pt.x / S);
    let r = 7 - Math.floor(pt.y / S);
    if (f < 0 || f > 7 || r < 0 || r > 7) return null;
    if (this.flipped) { f = 7 - f; r = 7 - r; }
    return FILES[f] + (r + 1);
  }

  svgPoint(clientX, clientY) {
    const ctm = this.svg.getScreenCTM();
    return ctm ? new DOMPoint(clientX, clientY).matrixTransform(ctm.inverse()) : { x: 0, y: 0 };
  }

  bindInput() {
    const svg = this.svg;
    svg.addEventListener('pointerdown', (e) => this.pointerDown(e));
    svg.addEventListener('pointermove', (e) => this.pointerMove(e));
    svg.addEventListener('pointerup', (e) => this.pointerUp(e));
    svg.addEventListener('pointercancel', () => { this.endPress(); this.draw = null; this.cancelDrag(); this.renderDrawings(); });
    // The right button draws: no context menu over the board.
    svg.addEventListener('contextmenu', (e) => { if (this.drag || this.opts.drawable !== false) e.preventDefault(); });
    // One document listener per board; it removes itself once the board
    // has left the page, so moving between pages does not pile them up.
    const onKey = (e) => {
      if (!svg.isConnected) { document.removeEventListener('keydown', onKey); return; }
      if (e.key === 'Escape' && (this.sel || this.drag || this.premove)) {
        this.sel = null;
        this.setPremove(null, false);
        this.cancelDrag();
        this.render();
      }
    };
    document.addEventListener('keydown', onKey);
  }

  ownPiece(sq, side = this.view.turn) {
    const o = this.view.board[sq];
    return !!o && !!side && o.piece[0] === side;
  }

  premoving() {
    return !this.view.movable && !!this.view.premovable && !this.view.editor;
  }

  pointerDown(e) {
    const sq = this.squareAt(e.clientX, e.clientY);
    if (e.button === 2) {
      if (this.opts.drawable === false || this.view.editor) return;
      e.preventDefault();
      // A right click also drops a premove or a selection (lichess does).
      if (this.premove || this.sel) { this.sel = null; this.setPremove(null, false); this.render(); }
      if (sq) this.draw = { from: sq, over: sq, color: drawColor(e), id: e.pointerId };
      return;
    }
    if (e.button !== undefined && e.button !== 0) return;
    const touch = e.pointerType === 'touch';
    // A left click clears the drawings; a finger does once it is a tap or a
    // drag, not a long press that draws another.
    if (this.hasDrawings() && !touch) this.clearDrawings();
    if (!sq) return;
    if (touch && this.opts.drawable !== false && !this.view.editor) this.armPress(e, sq);
    const editor = this.view.editor;
    let draggable;
    if (editor) draggable = !!this.view.board[sq] && !this.opts.editorPlacing?.();
    else if (this.premoving()) draggable = this.ownPiece(sq, this.view.premoveSide);
    else draggable = this.view.movable && this.ownPiece(sq);
    this.drag = { from: sq, x: e.clientX, y: e.clientY, active: false, draggable, over: null, id: e.pointerId };
    if (draggable) {
      e.preventDefault();
      try { this.svg.setPointerCapture(e.pointerId); } catch { /* not capturable: fine */ }
    }
  }

  /**
   * A finger on a square: held still for a moment, it draws as the right
   * button does (released there, a circle; moved on, an arrow).
   */
  armPress(e, sq) {
    this.endPress();
    const press = { id: e.pointerId, x: e.clientX, y: e.clientY, sq, timer: 0 };
    press.timer = setTimeout(() => {
      if (this.press !== press) return;
      this.press = null;
      this.cancelDrag(false);
      if (this.sel) { this.sel = null; this.setPremove(null, false); }
      this.draw = { from: sq, over: sq, color: 'green', id: press.id, touch: true };
      this.render();
      this.renderDrawings();
    }, LONG_PRESS_MS);
    this.press = press;
  }

  endPress() {
    if (this.press) clearTimeout(this.press.timer);
    this.press = null;
  }

  pointerMove(e) {
    const press = this.press;
    if (press && press.id === e.pointerId && Math.hypot(e.clientX - press.x, e.clientY - press.y) >= 5) {
      this.endPress(); // it moves: a drag, not a long press
      if (this.hasDrawings()) this.clearDrawings();
    }
    if (this.draw && this.draw.id === e.pointerId) {
      const over = this.squareAt(e.clientX, e.clientY);
      if (over && over !== this.draw.over) { this.draw.over = over; this.renderDrawings(); }
      return;
    }
    const d = this.drag;
    if (!d || !d.draggable || d.id !== e.pointerId) return;
    if (!d.active) {
      if (Math.hypot(e.clientX - d.x, e.clientY - d.y) < 5) return;
      d.active = true;
      if (!this.view.editor && !(this.sel && this.sel[0] === d.from && this.sel.length === 1)) this.sel = [d.from];
      const o = this.view.board[d.from];
      this.dragLayer.replaceChildren(s('g', { class: 'dragging' }, pieceNodes(o.piece, o.prisoner)));
      this.render();
    }
    const p = this.svgPoint(e.clientX, e.clientY);
    this.dragLayer.firstElementChild?.setAttribute('transform', `translate(${p.x - 50} ${p.y - 58}) scale(1.08)`);
    const over = this.squareAt(e.clientX, e.clientY);
    if (over !== d.over) { d.over = over; this.render(); }
  }

  pointerUp(e) {
    if (this.press && this.press.id === e.pointerId) {
      this.endPress(); // a tap
      if (this.hasDrawings()) this.clearDrawings();
    }
    if (this.draw && this.draw.id === e.pointerId) {
      const d = this.draw;
      this.draw = null;
      const sq = this.squareAt(e.clientX, e.clientY) || d.over;
      if (sq) this.toggleDrawing(d.from, sq, d.color);
      else this.renderDrawings();
      return;
    }
    const d = this.drag;
    if (!d || d.id !== e.pointerId) return;
    const sq = this.squareAt(e.clientX, e.clientY);
    const wasDrag = d.active;
    this.cancelDrag(false);
    if (this.view.editor) {
      if (wasDrag) { if (sq !== d.from) this.opts.onEditDrag?.(d.from, sq); }
      else if (sq) this.opts.onEdit?.(sq, e);
      this.render();
      return;
    }
    if (!sq) { this.render(); return; }
    if (this.premoving()) {
      if (wasDrag) {
        this.sel = null;
        this.setPremove(sq === d.from ? null : [d.from, sq]);
        this.render();
      } else this.premoveClick(sq);
      return;
    }
    if (wasDrag) this.drop(d.from, sq);
    else this.click(sq);
  }

  cancelDrag(render = true) {
    if (!this.drag) return;
    this.drag = null;
    this.dragLayer.replaceChildren();
    if (render) this.render();
  }

  click(sq) {
    const v = this.view;
    if (!v.movable) { this.sel = null; this.render(); return; }
    if (!this.sel) {
      if (this.ownPiece(sq)) this.sel = [sq];
      this.render();
      return;
    }
    const ext = [...this.sel, sq];
    if (this.candidates(ext).length) { this.extend(ext); return; }
    // Clicking the selected piece (or the last square entered) again cancels.
    const last = this.sel[this.sel.length - 1];
    if ((this.sel.length === 1 && sq === this.sel[0]) || (this.sel.length > 1 && sq === last)) {
      this.sel = null;
      this.render();
      return;
    }
    // Another own piece: select it instead (a series may end where it began).
    if (sq !== this.sel[0] && this.ownPiece(sq)) { this.sel = [sq]; this.render(); return; }
    this.extend(ext);
  }

  /**
   * A click while the opponent is to move. The first click picks one of
   * our pieces, the second sets the premove; a Legion piece that has just
   * leapt diagonally may go on leaping (a capture series, square by
   * square). Any other click drops the premove.
   */
  premoveClick(sq) {
    const side = this.view.premoveSide;
    const board = this.view.board;
    const p = this.premove;
    if (p) {
      const last = p[p.length - 1];
      const prev = p[p.length - 2];
      const goesOn = isLegion(board[p[0]]) && isLeap(prev, last) && isLeap(last, sq) && (!board[sq] || sq === p[0]);
      if (goesOn) { this.setPremove([...p, sq]); this.render(); return; }
      this.setPremove(null);
      if (this.ownPiece(sq, side)) this.sel = [sq];
      this.render();
      return;
    }
    if (!this.sel) {
      if (this.ownPiece(sq, side)) this.sel = [sq];
      this.render();
      return;
    }
    if (sq === this.sel[0]) { this.sel = null; this.render(); return; }
    if (this.ownPiece(sq, side)) { this.sel = [sq]; this.render(); return; }
    const from = this.sel[0];
    this.sel = null;
    this.setPremove([from, sq]);
    this.render();
  }

  setPremove(squares, notify = true) {
    const had = !!this.premove;
    this.premove = squares && squares.length >= 2 ? squares : null;
    if (this.premove) this.svg.setAttribute('data-premove', this.premove.join('-'));
    else this.svg.removeAttribute('data-premove');
    if (notify || had !== !!this.premove) this.opts.onPremove?.(this.premove);
  }

  /**
   * The legal move the premove stands for, if one fits (its whole path;
   * or a single move from its first to its last square; or a single move
   * whose path begins with it), and the premove is gone either way.
   */
  takePremove(legal) {
    const p = this.premove;
    if (!p) return null;
    this.setPremove(null);
    this.sel = null;
    const from = legal.filter((m) => m.from === p[0]);
    const exact = from.filter((m) => pathOf(m).length === p.length && samePrefix(pathOf(m), p));
    const ending = from.filter((m) => m.to === p[p.length - 1] && (p.length === 2 || samePrefix(pathOf(m), p.slice(0, -1))));
    const begun = from.filter((m) => samePrefix(pathOf(m), p));
    for (const list of [exact, ending, begun]) if (list.length === 1) return list[0];
    return null;
  }

  drop(from, to) {
    if (from === to) { this.sel = [from]; this.render(); return; }
    // Dropped on the end of a series: fine when only one series ends there.
    const ending = (this.view.legal || []).filter((m) => m.from === from && m.to === to);
    if (ending.length === 1) { this.commit(ending[0], { dropped: true }); return; }
    this.extend([from, to], { dropped: true });
  }

  extend(squares, { dropped = false } = {}) {
    const c = this.candidates(squares);
    const exact = c.filter((m) => pathOf(m).length === squares.length);
    if (c.length === 1 || exact.length === 1) { this.commit(exact[0] || c[0], { dropped: dropped && squares.length === 2 }); return; }
    if (c.length > 1) { this.sel = squares; this.render(); return; }
    // Start and end of one series written another way (4.5).
    if (squares.length === 2) {
      const ending = (this.view.legal || []).filter((m) => m.from === squares[0] && m.to === squares[1]);
      if (ending.length === 1) { this.commit(ending[0], { dropped }); return; }
    }
    // Another path of a series (4.5) than the one the server listed: keep
    // collecting diagonal landings until one ends a legal series, then let
    // the server match the whole path.
    const jumps = (this.view.legal || []).filter((m) => m.from === squares[0] && m.kind === 'jump');
    const last = squares[squares.length - 1];
    const prev = squares[squares.length - 2];
    if (jumps.length && isLeap(prev, last) && (!this.view.board[last] || last === squares[0])) {
      if (!jumps.some((m) => m.to === last)) { this.sel = squares; this.render(); return; }
    }
    this.sel = null;
    this.render();
    this.opts.onAttempt?.(squares);
  }

  /** Plays a legal move: a dropped piece stays where it was dropped until the answer. */
  commit(move, { dropped = false } = {}) {
    this.sel = null;
    this.preview = dropped && move.to !== move.from ? { move } : null;
    this.render();
    this.opts.onMove?.(move);
  }

  clearSelection() {
    this.sel = null;
    this.render();
  }
}
