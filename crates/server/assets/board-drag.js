// @ts-check
// The board's input: click-click and drag-and-drop. A Legion capture
// series is entered square by square; as soon as one legal move fits what
// was entered, it is played. Anything else is handed to `onAttempt` so the
// page can ask the server why it is illegal. While the opponent is to move
// (view.premovable) the same gestures enter a premove, kept on the board
// until the page asks for it. The right button (or a finger held still)
// draws instead (board-draw.js).

import { fileOf, rankOf, FILES } from './lfen.js';
import { pieceNodes } from './pieces.js';
import { s } from './svg.js';
import { drawColor } from './board-draw.js';

/**
 * @typedef {import('./board.js').Board} Board
 * @typedef {import('./board.js').BoardMove} BoardMove
 * @typedef {import('./lfen.js').Occupant} Occupant
 */

const S = 100;
const LONG_PRESS_MS = 450; // a finger held still this long draws instead

/** @param {string[]} path @param {string[]} squares */
export const samePrefix = (path, squares) => squares.every((s, i) => path[i] === s);
/** @param {{path: string[], from: string, to: string}} m */
export const pathOf = (m) => (m.path.length ? m.path : [m.from, m.to]);
/** @param {Occupant | undefined} o */
const isLegion = (o) => !!o && /[MT]$/.test(o.piece);
/** A diagonal leap of two squares or more: a jump of a Legion capture. @param {string} a @param {string} b */
const isLeap = (a, b) => {
  const df = Math.abs(fileOf(a) - fileOf(b));
  return df >= 2 && df === Math.abs(rankOf(a) - rankOf(b));
};

/** The legal moves that begin with the squares entered. @param {Board} b @param {string[]} squares */
export function candidates(b, squares) {
  return b.view.legal.filter((m) => m.from === squares[0] && samePrefix(pathOf(m), squares));
}

/** @param {Board} b */
export function bindInput(b) {
  const input = new Input(b);
  const svg = b.svg;
  svg.addEventListener('pointerdown', (e) => input.down(e));
  svg.addEventListener('pointermove', (e) => input.move(e));
  svg.addEventListener('pointerup', (e) => input.up(e));
  svg.addEventListener('pointercancel', () => { input.endPress(); b.drawings.draw = null; b.cancelDrag(); b.drawings.render(); });
  // The right button draws: no context menu over the board.
  svg.addEventListener('contextmenu', (e) => e.preventDefault());
  // One document listener per board; it removes itself once the board
  // has left the page, so moving between pages does not pile them up.
  /** @param {KeyboardEvent} e */
  const onKey = (e) => {
    if (!svg.isConnected) { document.removeEventListener('keydown', onKey); return; }
    if (e.key === 'Escape' && (b.sel || b.drag || b.premove)) {
      b.sel = null;
      b.setPremove(null, false);
      b.cancelDrag();
      b.render();
    }
  };
  document.addEventListener('keydown', onKey);
}

class Input {
  /** @param {Board} b */
  constructor(b) {
    this.b = b;
    /** @type {{id: number, x: number, y: number, sq: string, timer: ReturnType<typeof setTimeout> | undefined} | null} a finger down that may become a long press */
    this.press = null;
  }

  /** @param {number} clientX @param {number} clientY */
  squareAt(clientX, clientY) {
    const ctm = this.b.svg.getScreenCTM();
    if (!ctm) return null;
    const pt = new DOMPoint(clientX, clientY).matrixTransform(ctm.inverse());
    let f = Math.floor(pt.x / S);
    let r = 7 - Math.floor(pt.y / S);
    if (f < 0 || f > 7 || r < 0 || r > 7) return null;
    if (this.b.flipped) { f = 7 - f; r = 7 - r; }
    return FILES[f] + (r + 1);
  }

  /** @param {number} clientX @param {number} clientY */
  svgPoint(clientX, clientY) {
    const ctm = this.b.svg.getScreenCTM();
    return ctm ? new DOMPoint(clientX, clientY).matrixTransform(ctm.inverse()) : { x: 0, y: 0 };
  }

  /** @param {PointerEvent} e */
  down(e) {
    const b = this.b;
    const sq = this.squareAt(e.clientX, e.clientY);
    const tool = b.drawTool && !b.view.editor && (e.button === undefined || e.button === 0);
    if (e.button === 2 || tool) {
      if (b.view.editor) return;
      e.preventDefault();
      // A right click also drops a premove or a selection (lichess does).
      if (b.premove || b.sel) { b.sel = null; b.setPremove(null, false); b.render(); }
      if (sq) {
        b.drawings.draw = { from: sq, over: sq, color: tool && b.drawTool ? b.drawTool : drawColor(e), id: e.pointerId };
        try { b.svg.setPointerCapture(e.pointerId); } catch { /* not capturable: fine */ }
      }
      return;
    }
    if (e.button !== undefined && e.button !== 0) return;
    const touch = e.pointerType === 'touch';
    // A left click clears the drawings; a finger does once it is a tap or a
    // drag, not a long press that draws another. A study keeps them.
    if (b.drawings.any() && !touch && !b.opts.keepDrawings) b.drawings.clear();
    if (!sq) return;
    if (touch && !b.view.editor) this.armPress(e, sq);
    let draggable;
    if (b.view.editor) draggable = !!b.view.board[sq];
    else if (b.premoving()) draggable = b.ownPiece(sq, b.view.premoveSide);
    else draggable = !!b.view.movable && b.ownPiece(sq);
    b.drag = { from: sq, x: e.clientX, y: e.clientY, active: false, draggable, over: null, id: e.pointerId };
    if (draggable) {
      e.preventDefault();
      try { b.svg.setPointerCapture(e.pointerId); } catch { /* not capturable: fine */ }
    }
  }

  /**
   * A finger on a square: held still for a moment, it draws as the right
   * button does (released there, a circle; moved on, an arrow).
   * @param {PointerEvent} e @param {string} sq
   */
  armPress(e, sq) {
    const b = this.b;
    this.endPress();
    /** @type {NonNullable<Input['press']>} */
    const press = { id: e.pointerId, x: e.clientX, y: e.clientY, sq, timer: undefined };
    press.timer = setTimeout(() => {
      if (this.press !== press) return;
      this.press = null;
      b.cancelDrag(false);
      if (b.sel) { b.sel = null; b.setPremove(null, false); }
      b.drawings.draw = { from: sq, over: sq, color: 'green', id: press.id, touch: true };
      b.render();
      b.drawings.render();
    }, LONG_PRESS_MS);
    this.press = press;
  }

  endPress() {
    if (this.press) clearTimeout(this.press.timer);
    this.press = null;
  }

  /** @param {PointerEvent} e */
  move(e) {
    const b = this.b;
    const press = this.press;
    if (press && press.id === e.pointerId && Math.hypot(e.clientX - press.x, e.clientY - press.y) >= 5) {
      this.endPress(); // it moves: a drag, not a long press
      if (b.drawings.any() && !b.opts.keepDrawings) b.drawings.clear();
    }
    const draw = b.drawings.draw;
    if (draw && draw.id === e.pointerId) {
      const over = this.squareAt(e.clientX, e.clientY);
      if (over && over !== draw.over) { draw.over = over; b.drawings.render(); }
      return;
    }
    const d = b.drag;
    if (!d || !d.draggable || d.id !== e.pointerId) return;
    if (!d.active) {
      if (Math.hypot(e.clientX - d.x, e.clientY - d.y) < 5) return;
      d.active = true;
      if (!b.view.editor && !(b.sel && b.sel[0] === d.from && b.sel.length === 1)) b.sel = [d.from];
      const o = b.view.board[d.from];
      b.dragLayer.replaceChildren(s('g', { class: 'dragging' }, pieceNodes(o.piece, o.prisoner)));
      b.render();
    }
    const p = this.svgPoint(e.clientX, e.clientY);
    b.dragLayer.firstElementChild?.setAttribute('transform', `translate(${p.x - 50} ${p.y - 58}) scale(1.08)`);
    const over = this.squareAt(e.clientX, e.clientY);
    if (over !== d.over) { d.over = over; b.render(); }
  }

  /** @param {PointerEvent} e */
  up(e) {
    const b = this.b;
    if (this.press && this.press.id === e.pointerId) {
      this.endPress(); // a tap
      if (b.drawings.any() && !b.opts.keepDrawings) b.drawings.clear();
    }
    const draw = b.drawings.draw;
    if (draw && draw.id === e.pointerId) {
      b.drawings.draw = null;
      const sq = this.squareAt(e.clientX, e.clientY) || draw.over;
      b.drawings.toggle(draw.from, sq, draw.color);
      b.opts.onDraw?.(b.drawings.list());
      return;
    }
    const d = b.drag;
    if (!d || d.id !== e.pointerId) return;
    const sq = this.squareAt(e.clientX, e.clientY);
    const wasDrag = d.active;
    b.cancelDrag(false);
    if (b.view.editor) {
      if (wasDrag) { if (sq !== d.from) b.opts.onEditDrag?.(d.from, sq); }
      else if (sq) b.opts.onEdit?.(sq, e);
      b.render();
      return;
    }
    if (!sq) { b.render(); return; }
    if (b.premoving()) {
      if (wasDrag) {
        b.sel = null;
        b.setPremove(sq === d.from ? null : [d.from, sq]);
        b.render();
      } else this.premoveClick(sq);
      return;
    }
    if (wasDrag) this.drop(d.from, sq);
    else this.click(sq);
  }

  /** @param {string} sq */
  click(sq) {
    const b = this.b;
    if (!b.view.movable) { b.sel = null; b.render(); return; }
    if (!b.sel) {
      if (b.ownPiece(sq)) b.sel = [sq];
      b.render();
      return;
    }
    const ext = [...b.sel, sq];
    if (candidates(b, ext).length) { this.extend(ext); return; }
    // Clicking the selected piece (or the last square entered) again cancels.
    const last = b.sel[b.sel.length - 1];
    if ((b.sel.length === 1 && sq === b.sel[0]) || (b.sel.length > 1 && sq === last)) {
      b.sel = null;
      b.render();
      return;
    }
    // Another own piece: select it instead (a series may end where it began).
    if (sq !== b.sel[0] && b.ownPiece(sq)) { b.sel = [sq]; b.render(); return; }
    this.extend(ext);
  }

  /**
   * A click while the opponent is to move. The first click picks one of
   * our pieces, the second sets the premove; a Legion piece that has just
   * leapt diagonally may go on leaping (a capture series, square by
   * square). Any other click drops the premove.
   * @param {string} sq
   */
  premoveClick(sq) {
    const b = this.b;
    const side = b.view.premoveSide;
    const board = b.view.board;
    const p = b.premove;
    if (p) {
      const last = p[p.length - 1];
      const prev = p[p.length - 2];
      const goesOn = isLegion(board[p[0]]) && isLeap(prev, last) && isLeap(last, sq) && (!board[sq] || sq === p[0]);
      if (goesOn) { b.setPremove([...p, sq]); b.render(); return; }
      b.setPremove(null);
      if (b.ownPiece(sq, side)) b.sel = [sq];
      b.render();
      return;
    }
    if (!b.sel) {
      if (b.ownPiece(sq, side)) b.sel = [sq];
      b.render();
      return;
    }
    if (sq === b.sel[0]) { b.sel = null; b.render(); return; }
    if (b.ownPiece(sq, side)) { b.sel = [sq]; b.render(); return; }
    const from = b.sel[0];
    b.sel = null;
    b.setPremove([from, sq]);
    b.render();
  }

  /** @param {string} from @param {string} to */
  drop(from, to) {
    const b = this.b;
    if (from === to) { b.sel = [from]; b.render(); return; }
    // Dropped on the end of a series: fine when only one series ends there.
    const ending = b.view.legal.filter((m) => m.from === from && m.to === to);
    if (ending.length === 1) { this.commit(ending[0], true); return; }
    this.extend([from, to], true);
  }

  /** @param {string[]} squares @param {boolean} [dropped] */
  extend(squares, dropped = false) {
    const b = this.b;
    const c = candidates(b, squares);
    const exact = c.filter((m) => pathOf(m).length === squares.length);
    if (c.length === 1 || exact.length === 1) { this.commit(exact[0] || c[0], dropped && squares.length === 2); return; }
    if (c.length > 1) { b.sel = squares; b.render(); return; }
    // Start and end of one series written another way (4.5).
    if (squares.length === 2) {
      const ending = b.view.legal.filter((m) => m.from === squares[0] && m.to === squares[1]);
      if (ending.length === 1) { this.commit(ending[0], dropped); return; }
    }
    // Another path of a series (4.5) than the one the server listed: keep
    // collecting diagonal landings until one ends a legal series, then let
    // the server match the whole path.
    const jumps = b.view.legal.filter((m) => m.from === squares[0] && m.kind === 'jump');
    const last = squares[squares.length - 1];
    const prev = squares[squares.length - 2];
    if (jumps.length && isLeap(prev, last) && (!b.view.board[last] || last === squares[0])) {
      if (!jumps.some((m) => m.to === last)) { b.sel = squares; b.render(); return; }
    }
    b.sel = null;
    b.render();
    b.opts.onAttempt?.(squares);
  }

  /** Plays a legal move: a dropped piece stays where it was dropped until the answer. @param {BoardMove} move @param {boolean} dropped */
  commit(move, dropped) {
    const b = this.b;
    b.sel = null;
    b.preview = dropped && move.to !== move.from ? { move } : null;
    b.render();
    b.opts.onMove?.(move);
  }
}
