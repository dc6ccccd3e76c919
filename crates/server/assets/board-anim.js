// @ts-check
// Animation: the new position is drawn, and the move is played over it
// from the position before: a slide, or a capture series jump by jump
// with the jumped pieces fading when it ends, a man settling under its
// Captor, a liberated prisoner left behind, a mated King fading from its
// square. It follows prefers-reduced-motion and the speed setting (settings.js).

import { pieceNodes } from './pieces.js';
import { s, SVGNS } from './svg.js';
import { pathOf } from './board-drag.js';
import { animationScale } from './settings.js';

/**
 * @typedef {import('./board.js').Board} Board
 * @typedef {import('./board.js').BoardMove} BoardMove
 * @typedef {import('./lfen.js').BoardMap} BoardMap
 * @typedef {import('./lfen.js').Occupant} Occupant
 * @typedef {{el: SVGGElement, parts: {piece?: SVGElement, prisoner?: SVGElement, captor?: SVGElement}, o: Occupant}} Floating
 */

// Animation timings, in ms, at the normal speed.
const SLIDE_MS = 210; // a chess move or a Legion step
const LEG_MS = 170; // each jump of a capture series
const FADE_MS = 170; // captured pieces leaving, a prisoner settling
const KING_MS = 800; // a mated King leaving the board (5.1)

/** @param {number} p */
const ease = (p) => (p < 0.5 ? 2 * p * p : 1 - ((-2 * p + 2) ** 2) / 2);
/** @param {number} a @param {number} b @param {number} p */
const lerp = (a, b, p) => a + (b - a) * p;

const prefersReducedMotion = () => {
  try { return matchMedia('(prefers-reduced-motion: reduce)').matches; } catch { return false; }
};

export class Animator {
  /** @param {Board} board @param {SVGGElement} layer */
  constructor(board, layer) {
    this.board = board;
    this.layer = layer;
    /** @type {Set<string> | null} the squares whose pieces are in flight */
    this.hidden = null;
    this.seq = 0;
  }

  running() {
    return this.hidden !== null;
  }

  /** A piece (or construct) drawn in the animation layer, placed on `sq`. @param {Occupant} o @param {string} sq @param {string} cls @returns {Floating} */
  floating(o, sq, cls) {
    const outer = /** @type {SVGGElement} */ (document.createElementNS(SVGNS, 'g'));
    outer.setAttribute('class', `float ${cls}`);
    const [x, y] = this.board.xy(sq);
    outer.setAttribute('transform', `translate(${x} ${y})`);
    /** @type {Floating['parts']} */
    const parts = {};
    if (o.prisoner) {
      // As pieceNodes draws a construct, in two parts that can move apart.
      parts.prisoner = this.part(outer, o.prisoner, 'translate(10 40) scale(0.8)');
      parts.captor = this.part(outer, o.piece, 'translate(12 2) scale(0.76)');
    } else {
      parts.piece = this.part(outer, o.piece, '');
    }
    this.layer.appendChild(outer);
    return { el: outer, parts, o };
  }

  /** @param {SVGElement} parent @param {string} code @param {string} transform */
  part(parent, code, transform) {
    const g = s('g', { transform: transform || null }, pieceNodes(code));
    parent.appendChild(g);
    return g;
  }

  /** @param {Floating} f @param {string} from @param {string} to @param {number} p */
  place(f, from, to, p) {
    const [x1, y1] = this.board.xy(from);
    const [x2, y2] = this.board.xy(to);
    f.el.setAttribute('transform', `translate(${lerp(x1, x2, p)} ${lerp(y1, y2, p)})`);
  }

  /**
   * Runs fn(eased progress) for `ms`; resolves at the end, or at once when the animation is cut.
   * @param {number} id @param {number} ms @param {(p: number) => void} fn
   * @returns {Promise<void>}
   */
  tween(id, ms, fn) {
    return new Promise((resolve) => {
      const t0 = performance.now();
      let done = false;
      /** @type {ReturnType<typeof setTimeout> | undefined} */
      let guard;
      const end = () => {
        if (done) return;
        done = true;
        clearTimeout(guard);
        if (this.seq === id) fn(1);
        resolve();
      };
      /** @param {number} now */
      const frame = (now) => {
        if (done) return;
        if (this.seq !== id) { end(); return; }
        const p = Math.min(1, (now - t0) / ms);
        fn(ease(p));
        if (p >= 1) end();
        else requestAnimationFrame(frame);
      };
      // Frames stop in a hidden tab: a timer makes sure the move still lands.
      guard = setTimeout(end, ms + 120);
      requestAnimationFrame(frame);
    });
  }

  /**
   * Plays `move` from `before` to `after` (already drawn underneath).
   * @param {BoardMove} move @param {BoardMap} before @param {BoardMap} after @param {{slide?: boolean}} [opts]
   */
  async play(move, before, after, { slide = true } = {}) {
    const b = this.board;
    const scale = animationScale();
    if (b.small || prefersReducedMotion() || document.hidden || scale === 0) return;
    const mover = before[move.from];
    if (!mover) return;
    this.finish(false);
    const id = ++this.seq;
    const alive = () => this.seq === id;
    const path = pathOf(move);
    const captured = move.captured.filter((sq) => before[sq]);
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
    this.hidden = hidden;
    b.svg.setAttribute('data-animating', move.kind || 'move');
    this.layer.replaceChildren();
    b.render();

    const gone = vanished.map((sq) => ({ sq, f: this.floating(before[sq], sq, /K$/.test(before[sq].piece) ? 'king-mated' : 'vanishing') }));
    const victims = captured.map((sq) => ({ sq, f: this.floating(before[sq], sq, 'captured') }));
    const rookF = rook ? this.floating(rook.o, rook.from, 'moving') : null;
    const moverF = this.floating(mover, slide ? move.from : move.to, 'moving');

    if (slide) {
      const legs = path.length - 1;
      const legMs = (move.kind === 'jump' ? LEG_MS : SLIDE_MS) * scale;
      for (let i = 0; i < legs; i++) {
        await this.tween(id, legMs, (p) => {
          this.place(moverF, path[i], path[i + 1], p);
          if (rook && rookF && i === 0) this.place(rookF, rook.from, rook.to, p);
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
      const { piece: man, prisoner, captor } = f.parts;
      const top = moverF.parts.piece;
      if (sq === move.to && now && now.prisoner && !was.prisoner && now.prisoner === was.piece && !mover.prisoner && man && top) {
        // Taken prisoner (4.1): the man slides under, the Captor rises on it.
        f.el.classList.add('settling');
        fades.push(this.tween(id, FADE_MS * scale, (p) => {
          man.setAttribute('transform', `translate(${10 * p} ${40 * p}) scale(${1 - 0.2 * p})`);
          top.setAttribute('transform', `translate(${12 * p} ${2 * p}) scale(${1 - 0.24 * p})`);
        }));
        this.layer.appendChild(moverF.el); // the Captor on top
      } else if (was.prisoner && now && now.piece === was.prisoner && !now.prisoner && captor && prisoner) {
        // Liberation (4.1): the Captor goes, its prisoner is left standing.
        f.el.classList.add('liberated');
        fades.push(this.tween(id, FADE_MS * 1.5 * scale, (p) => {
          captor.setAttribute('opacity', String(1 - p));
          prisoner.setAttribute('transform', `translate(${10 * (1 - p)} ${40 * (1 - p)}) scale(${0.8 + 0.2 * p})`);
        }));
      } else {
        f.el.classList.add('fading');
        fades.push(this.tween(id, FADE_MS * scale, (p) => f.el.setAttribute('opacity', String(1 - p))));
      }
    }
    for (const { f } of gone) {
      const slow = f.el.classList.contains('king-mated');
      fades.push(this.tween(id, (slow ? KING_MS : FADE_MS) * scale, (p) => f.el.setAttribute('opacity', String(1 - p))));
    }
    await Promise.all(fades);
    if (alive()) this.finish(true);
  }

  /** Ends the animation under way: the final position shows. */
  finish(render = true) {
    if (!this.hidden) return;
    this.hidden = null;
    this.seq++;
    this.layer.replaceChildren();
    this.board.svg.removeAttribute('data-animating');
    if (this.board.preview) this.board.renderPreview();
    if (render) this.board.render();
  }
}
