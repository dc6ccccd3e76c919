// @ts-check
// The board: an SVG of 64 square groups, each holding its own highlight
// and piece, so a test (or a person) clicking a square always hits that
// square or something inside it. Its parts, as chessground splits them:
//   board.js         the state (what is shown, what is selected) and its API
//   board-render.js  squares, highlights, pieces, the page's arrows
//   board-anim.js    a move played over the new position
//   board-drag.js    clicks, drags, premoves, long presses
//   board-draw.js    the person's own arrows and circles
//
// Layers, bottom to top: the squares; the animation layer (pieces in
// flight); the page's arrows (view.arrows: an engine's line, a rule's
// diagram); the person's own drawings; the dragged piece. Every layer
// above the squares lets clicks through.

import { ALL_SQUARES, fileOf, rankOf, isDark } from './lfen.js';
import { ensureSprite } from './pieces.js';
import { SVGNS } from './svg.js';
import { t } from './i18n.js';
import { render, renderPreview } from './board-render.js';
import { Animator } from './board-anim.js';
import { Drawings } from './board-draw.js';
import { bindInput, candidates, samePrefix, pathOf } from './board-drag.js';

export const S = 100; // one square in SVG units

/**
 * @typedef {import('./lfen.js').BoardMap} BoardMap
 * @typedef {{canonical: string, from: string, to: string, path: string[], captured: string[], kind: string | null}} BoardMove
 * @typedef {{from?: string, to?: string, path?: string[], color?: string}} Arrow
 * @typedef {{
 *   board: BoardMap, turn?: string, legal?: BoardMove[], movable?: boolean,
 *   premovable?: boolean, premoveSide?: string | null, premoves?: Record<string, string[]> | null,
 *   pending?: BoardMove | null, lastPath?: string[], lastCaptured?: string[], checkSquare?: string | null,
 *   mustCapture?: string[], arrows?: Arrow[], marks?: Record<string, string>, editor?: boolean,
 * }} View
 * @typedef {{
 *   small?: boolean, label?: string,
 *   onMove?: (move: any) => void, onAttempt?: (squares: string[]) => void,
 *   onPremove?: (squares: string[] | null) => void,
 *   onEdit?: (square: string, e: PointerEvent) => void, onEditDrag?: (from: string, to: string | null) => void,
 *   onDraw?: (shapes: import('./board-draw.js').Shape[]) => void, keepDrawings?: boolean,
 * }} BoardOptions
 * @typedef {{from: string, x: number, y: number, active: boolean, draggable: boolean, over: string | null, id: number}} Drag
 */

/** @param {BoardMap} b */
const boardKey = (b) => Object.keys(b).sort().map((sq) => `${sq}${b[sq].piece}${b[sq].prisoner || ''}`).join(',');

export class Board {
  /** @param {HTMLElement} container @param {BoardOptions} [options] */
  constructor(container, options = {}) {
    ensureSprite();
    this.opts = options;
    this.small = !!options.small;
    this.flipped = false;
    /** @type {View & {legal: BoardMove[]}} */
    this.view = { board: {}, turn: 'w', legal: [], movable: false };
    /** @type {string[] | null} squares entered so far: [from, landing...] */
    this.sel = null;
    /** @type {string[] | null} a premove entered: [from, landing...] */
    this.premove = null;
    /** @type {Drag | null} */
    this.drag = null;
    /** @type {{move: BoardMove} | null} a dropped move waiting for the server */
    this.preview = null;
    /** @type {Map<string, string>} each square's last drawn signature */
    this.sigs = new Map();
    /** @type {string | null} */
    this.arrowKey = null;
    /** @type {string | null} the drawing tool's colour: while set, a left click or a finger draws */
    this.drawTool = null;

    const svg = document.createElementNS(SVGNS, 'svg');
    svg.setAttribute('viewBox', `0 0 ${8 * S} ${8 * S}`);
    svg.setAttribute('class', this.small ? 'board board-small' : 'board');
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', options.label || t('board.label'));
    if (this.small) svg.setAttribute('data-rule-board', '');
    else svg.setAttribute('data-board', '');
    this.svg = svg;

    /** @type {Map<string, SVGGElement>} */
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
    /** @param {string} cls */
    const layer = (cls) => {
      const g = document.createElementNS(SVGNS, 'g');
      g.setAttribute('class', cls);
      g.setAttribute('pointer-events', 'none');
      svg.appendChild(g);
      return g;
    };
    this.animLayer = layer('anim');
    this.arrowLayer = layer('arrows');
    this.drawings = new Drawings(this, layer('drawings'));
    this.dragLayer = layer('drag');
    this.anim = new Animator(this, this.animLayer);

    container.appendChild(svg);
    this.layout();
    if (!this.small) bindInput(this);
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
    this.drawings.render();
  }

  /** The top left corner of a square, in SVG units. @param {string} sq @returns {[number, number]} */
  xy(sq) {
    const f = fileOf(sq);
    const r = rankOf(sq);
    return this.flipped ? [(7 - f) * S, r * S] : [f * S, (7 - r) * S];
  }

  /** @param {boolean} flipped */
  setFlipped(flipped) {
    if (this.flipped === flipped) return;
    this.flipped = flipped;
    this.cancelDrag();
    this.anim.finish(false);
    this.layout();
  }

  /**
   * Shows a position (the View's fields are listed in its typedef);
   * options.animate: {move, before} plays `move` from the board `before`.
   * @param {View} view
   * @param {{animate?: {move: BoardMove, before: BoardMap} | null}} [options]
   */
  set(view, { animate = null } = {}) {
    const prevKey = boardKey(this.view.board);
    this.view = { legal: [], ...view };
    const changed = boardKey(this.view.board) !== prevKey;
    // A new position: the animation under way ends at once, the person's
    // drawings go (they belong to the position they were drawn on).
    if (changed) {
      this.anim.finish(false);
      this.drawings.clear();
    }
    // A dropped piece waits on its square until the server has answered.
    let dropped = false;
    if (this.preview) {
      const was = this.preview.move.canonical;
      /** @param {BoardMove | null | undefined} m */
      const same = (m) => !!m && m.canonical === was;
      if (animate && same(animate.move)) dropped = true;
      if (!same(this.view.pending) || animate || changed) this.preview = null;
    }
    // A selection survives a re-render only while it still fits a legal move.
    if (this.sel) {
      const sel = this.sel;
      const premoving = !this.view.movable && this.view.premovable;
      const ok = premoving
        ? this.ownPiece(sel[0], this.view.premoveSide)
        : this.view.movable && this.ownPiece(sel[0])
          && (sel.length === 1 || candidates(this, sel).length > 0);
      if (!ok) this.sel = null;
    }
    if (this.premove && !this.view.premovable && !this.view.movable) this.setPremove(null, false);
    this.render();
    if (animate) this.anim.play(animate.move, animate.before, this.view.board, { slide: !dropped });
  }

  render() {
    render(this);
  }

  renderPreview() {
    renderPreview(this);
  }

  /** @param {string} sq @param {string | null | undefined} [side] */
  ownPiece(sq, side = this.view.turn) {
    const o = this.view.board[sq];
    return !!o && !!side && o.piece[0] === side;
  }

  premoving() {
    return !this.view.movable && !!this.view.premovable && !this.view.editor;
  }

  cancelDrag(render = true) {
    if (!this.drag) return;
    this.drag = null;
    this.dragLayer.replaceChildren();
    if (render) this.render();
  }

  /** @param {string[] | null} squares @param {boolean} [notify] */
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
   * @template {BoardMove} M
   * @param {M[]} legal
   * @returns {M | null}
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

  clearSelection() {
    this.sel = null;
    this.render();
  }
}
