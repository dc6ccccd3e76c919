// @ts-check
// Drawing the board: each square's highlights and piece (rewritten only
// when its signature changes), the page's arrows, and a dropped piece
// waiting for the server's answer.

import { fileOf, rankOf, describeOccupant } from './lfen.js';
import { pieceNodes } from './pieces.js';
import { s } from './svg.js';
import { t } from './i18n.js';
import { candidates, pathOf } from './board-drag.js';

/**
 * @typedef {import('./board.js').Board} Board
 * @typedef {import('./lfen.js').Occupant} Occupant
 */

const S = 100;

/** @param {Board} b */
export function render(b) {
  const v = b.view;
  /** @type {Map<string, string>} */
  const marks = new Map();
  /** @param {string | null | undefined} sq @param {string} cls */
  const add = (sq, cls) => { if (sq) marks.set(sq, (marks.get(sq) || '') + ' ' + cls); };
  for (const sq of v.lastPath || []) add(sq, 'last');
  for (const sq of v.lastCaptured || []) add(sq, 'last-captured');
  for (const sq of v.mustCapture || []) add(sq, 'must');
  if (v.checkSquare) add(v.checkSquare, 'check');
  for (const [sq, cls] of Object.entries(v.marks || {})) add(sq, cls);
  if (b.premove) b.premove.forEach((sq) => add(sq, 'premove'));
  if (b.sel) {
    const premoving = !v.movable;
    b.sel.forEach((sq, i) => add(sq, premoving ? 'premove-sel' : i === 0 ? 'selected' : 'entered'));
    const seen = new Set();
    if (!premoving) {
      for (const m of candidates(b, b.sel)) {
        const next = pathOf(m)[b.sel.length];
        if (next && !seen.has(next)) {
          seen.add(next);
          add(next, v.board[next] ? 'target capture' : 'target');
        }
      }
    } else if (b.sel.length === 1) {
      // Where the piece could go by its pattern, whatever stands there now.
      for (const sq of (v.premoves || {})[b.sel[0]] || []) add(sq, 'pretarget');
    }
  }
  if (b.drag && b.drag.over) add(b.drag.over, 'hover');

  const hiddenByAnim = b.anim.hidden;
  const previewFrom = b.preview ? b.preview.move.from : null;
  for (const [sq, g] of b.squareEls) {
    const o = v.board[sq];
    const m = marks.get(sq) || '';
    const ghost = !!(b.drag && b.drag.active && b.drag.from === sq);
    const away = !!((hiddenByAnim && hiddenByAnim.has(sq)) || sq === previewFrom);
    const coordF = rankOf(sq) === (b.flipped ? 7 : 0);
    const coordR = fileOf(sq) === (b.flipped ? 7 : 0);
    const sig = `${o ? o.piece + (o.prisoner || '') : ''}|${m}|${ghost}|${away}|${coordF}${coordR}`;
    if (b.sigs.get(sq) === sig) continue;
    b.sigs.set(sq, sig);
    g.replaceChildren(...squareNodes(b, sq, o, m, ghost, away, coordF, coordR));
  }
  renderArrows(b);
  renderPreview(b);
}

/**
 * What one square shows, bottom to top: its colour and tints, then the
 * last move's frame, dots and rings, its coordinates, its piece.
 * @param {Board} b @param {string} sq @param {Occupant | undefined} o @param {string} marks
 * @param {boolean} ghost @param {boolean} away @param {boolean} coordF @param {boolean} coordR
 */
function squareNodes(b, sq, o, marks, ghost, away, coordF, coordR) {
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
    const hooks = b.small ? {} : { 'data-piece': o.piece, 'data-prisoner': o.prisoner };
    out.push(s('g', { class: `piece${state}`, ...hooks }, s('title', {}, title), pieceNodes(o.piece, o.prisoner)));
  }
  return out;
}

/** The page's arrows (an engine's line, a rule's diagram). @param {Board} b */
function renderArrows(b) {
  const arrows = b.view.arrows || [];
  const key = JSON.stringify(arrows) + b.flipped;
  if (key === b.arrowKey) return;
  b.arrowKey = key;
  const nodes = [];
  for (const a of arrows) {
    const path = a.path || (a.from && a.to ? [a.from, a.to] : []);
    const node = arrowNode(b, path, a.color || 'green');
    if (node) nodes.push(node);
  }
  b.arrowLayer.replaceChildren(...nodes);
}

/**
 * An arrow along `path` (squares), its head inside the last square.
 * @param {Board} b @param {string[]} path @param {string} color @param {Record<string, string>} [hooks]
 * @returns {SVGElement | null}
 */
export function arrowNode(b, path, color, hooks = {}) {
  const pts = path.map((sq) => { const [x, y] = b.xy(sq); return [x + 50, y + 50]; });
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

/** A dropped piece shown on its target while the server decides. @param {Board} b */
export function renderPreview(b) {
  if (b.anim.running()) return;
  const p = b.preview;
  const el = /** @type {SVGElement | null} */ (b.animLayer.querySelector('.preview'));
  if (!p) { el?.remove(); return; }
  if (el && el.dataset.move === p.move.canonical) return;
  el?.remove();
  const o = b.view.board[p.move.from];
  if (!o) return;
  const f = b.anim.floating(o, p.move.to, 'preview');
  f.el.dataset.move = p.move.canonical;
}
