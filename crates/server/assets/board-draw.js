// @ts-check
// The person's own drawings on the board: arrows and circles, drawn with
// the right button (colours by modifier, as on lichess), on a touch
// screen by a finger held still, or with any button or finger while the
// page's drawing tool is on (board.drawTool: its colour). They belong to
// the position they were drawn on and go when it changes; a study keeps
// them with its move (`load`, `list`, and the board's onDraw).

import { s } from './svg.js';
import { arrowNode } from './board-render.js';

/**
 * @typedef {import('./board.js').Board} Board
 * @typedef {{from: string, over: string, color: string, id: number, touch?: boolean}} Drawing a drawing under way
 * @typedef {{from: string, to?: string, color: string}} Shape an arrow (from, to) or a circle (from alone)
 */

/** The colours a drawing may have. */
export const DRAW_COLORS = ['green', 'red', 'blue', 'orange'];

/**
 * The colour of a drawing: plain green, Shift red, Alt blue, Shift+Alt orange.
 * @param {{shiftKey: boolean, altKey: boolean}} e
 */
export function drawColor(e) {
  if (e.shiftKey && e.altKey) return 'orange';
  if (e.shiftKey) return 'red';
  if (e.altKey) return 'blue';
  return 'green';
}

export class Drawings {
  /** @param {Board} board @param {SVGGElement} layer */
  constructor(board, layer) {
    this.board = board;
    this.layer = layer;
    /** @type {Map<string, {from: string, to: string, color: string}>} */
    this.arrows = new Map();
    /** @type {Map<string, string>} square → colour */
    this.circles = new Map();
    /** @type {Drawing | null} */
    this.draw = null;
  }

  render() {
    const b = this.board;
    if (b.small) return;
    const out = [];
    for (const [sq, color] of this.circles) {
      const [x, y] = b.xy(sq);
      out.push(s('circle', { class: `draw-circle circle-${color}`, 'data-circle': sq, 'data-color': color, cx: x + 50, cy: y + 50, r: 44 }));
    }
    for (const a of this.arrows.values()) {
      out.push(arrowNode(b, [a.from, a.to], a.color, { 'data-arrow': a.from + a.to, 'data-color': a.color }));
    }
    const d = this.draw;
    if (d && d.over !== d.from) out.push(arrowNode(b, [d.from, d.over], d.color, { 'data-drawing': '' }));
    else if (d && d.touch) {
      // A finger held on a square: the circle it will leave, shown faint.
      const [x, y] = b.xy(d.from);
      out.push(s('circle', { class: `draw-circle circle-${d.color} drawing`, 'data-drawing': '', cx: x + 50, cy: y + 50, r: 44 }));
    }
    this.layer.replaceChildren(...out.filter((n) => n !== null));
  }

  any() {
    return this.arrows.size > 0 || this.circles.size > 0;
  }

  clear() {
    if (!this.any() && !this.draw) return;
    this.arrows.clear();
    this.circles.clear();
    this.draw = null;
    this.render();
  }

  /** The drawings as shapes: circles first, then arrows, each in the order drawn. @returns {Shape[]} */
  list() {
    return [
      ...[...this.circles].map(([from, color]) => ({ from, color })),
      ...[...this.arrows.values()].map((a) => ({ from: a.from, to: a.to, color: a.color })),
    ];
  }

  /** Shows these shapes instead of the drawings there are. @param {Shape[]} shapes */
  load(shapes) {
    this.arrows.clear();
    this.circles.clear();
    for (const sh of shapes) {
      if (!sh.to || sh.to === sh.from) this.circles.set(sh.from, sh.color);
      else this.arrows.set(sh.from + sh.to, { from: sh.from, to: sh.to, color: sh.color });
    }
    this.render();
  }

  /** Draws an arrow (or a circle, from === to), or takes the same one away. @param {string} from @param {string} to @param {string} color */
  toggle(from, to, color) {
    if (from === to) {
      const c = this.circles;
      if (c.get(from) === color) c.delete(from);
      else c.set(from, color);
    } else {
      const a = this.arrows;
      const key = from + to;
      if (a.get(key)?.color === color) a.delete(key);
      else a.set(key, { from, to, color });
    }
    this.render();
  }
}
