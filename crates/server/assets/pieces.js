// @ts-check
// The pieces, drawn once as SVG symbols (a hidden sprite in the page) and
// referenced by <use>: every board, big or small, shares them.
// Each symbol lives in a 100x100 box, the size of one square.

import { s } from './svg.js';
import { lang } from './i18n.js';

/** The set the chess pieces are drawn in (settings.js): figurines, or discs with their letter. */
let pieceSet = 'figurines';
// 6.4's letters, in Russian the glossary's (notation.js).
/** @type {Record<string, Record<string, string>>} */
const LETTERS = {
  en: { K: 'K', Q: 'Q', R: 'R', B: 'B', N: 'N' },
  ru: { K: 'Кр', Q: 'Ф', R: 'Л', B: 'С', N: 'К' },
};

/** @typedef {{body: string[], detail?: string[], balls?: number[][], eye?: number[]}} Shape */

// Colours per side: fill, outline, inner detail lines.
/** @type {Record<string, {fill: string, line: string, detail: string}>} */
const INK = {
  w: { fill: '#fbfaf5', line: '#1b1b1b', detail: '#1b1b1b' },
  b: { fill: '#262626', line: '#000', detail: '#e8e2d0' },
};

const BASE = 'M24 88 H76 Q80 88 80 84 V80 Q80 76 76 76 H24 Q20 76 20 80 V84 Q20 88 24 88 Z';

// Chess figurines: outline paths (filled) and detail strokes.
/** @type {Record<string, Shape>} */
const SHAPES = {
  K: {
    body: [
      BASE,
      'M29 76 C25 66 18 56 22 48 C26 40 38 38 44 46 L50 54 L56 46 C62 38 74 40 78 48 C82 56 75 66 71 76 Z',
      'M50 56 C44 48 42 42 44 36 C46 31 54 31 56 36 C58 42 56 48 50 56 Z',
      'M47 10 H53 V16 H59 V22 H53 V31 H47 V22 H41 V16 H47 Z',
    ],
    detail: ['M30 68 Q50 62 70 68'],
  },
  Q: {
    body: [
      BASE,
      'M28 76 L20 36 L35 58 L36 28 L46 56 L50 24 L54 56 L64 28 L65 58 L80 36 L72 76 Z',
    ],
    balls: [[20, 32], [36, 24], [50, 19], [64, 24], [80, 32]],
    detail: ['M29 68 Q50 62 71 68'],
  },
  R: {
    body: [
      BASE,
      'M27 76 V69 H73 V76 Z',
      'M32 69 L35 40 H65 L68 69 Z',
      'M28 40 V20 H37 V27 H45 V20 H55 V27 H63 V20 H72 V40 Z',
    ],
    detail: ['M35 40 H65'],
  },
  B: {
    body: [
      BASE,
      'M33 76 Q36 70 40 68 H60 Q64 70 67 76 Z',
      'M50 20 C38 30 30 44 35 58 Q38 66 40 68 H60 Q62 66 65 58 C70 44 62 30 50 20 Z',
    ],
    balls: [[50, 15]],
    detail: ['M56 34 L46 48', 'M40 62 H60'],
  },
  N: {
    body: [
      BASE,
      'M30 76 C30 66 36 58 44 52 C40 52 34 56 28 58 C22 60 16 56 18 50 C20 42 28 34 34 28 L34 18 L40 24 L44 16 L48 24 C62 26 74 38 74 56 C74 64 73 70 72 76 Z',
    ],
    detail: ['M26 50 Q28 48 30 50'],
    eye: [40, 36],
  },
};

/**
 * A chess figurine's parts.
 * @param {string} color 'w' or 'b'
 * @param {string} role K Q R B N
 * @returns {SVGElement[]}
 */
function figurine(color, role) {
  const ink = INK[color];
  const shape = SHAPES[role];
  const out = [
    s('g', { fill: ink.fill, stroke: ink.line, 'stroke-width': 3, 'stroke-linejoin': 'round' },
      shape.body.map((d) => s('path', { d })),
      (shape.balls || []).map(([cx, cy]) => s('circle', { cx, cy, r: 4.5 }))),
    s('g', { fill: 'none', stroke: ink.detail, 'stroke-width': 2.5, 'stroke-linecap': 'round' },
      (shape.detail || []).map((d) => s('path', { d }))),
  ];
  if (shape.eye) out.push(s('circle', { cx: shape.eye[0], cy: shape.eye[1], r: 3, fill: ink.detail }));
  return out;
}

// Draughts discs seen slightly from above: a rim (thickness) and a top.
/** @type {Record<string, {top: string, rim: string, line: string, ring: string}>} */
const DISC = {
  w: { top: '#f3ead7', rim: '#cdbf9f', line: '#3a3226', ring: '#b9a985' },
  b: { top: '#3b3330', rim: '#1c1715', line: '#000', ring: '#6d615b' },
};

/**
 * A man's or Tama's disc.
 * @param {string} color
 * @param {boolean} crowned a Tama
 * @returns {SVGElement[]}
 */
function disc(color, crowned, cy = 50, scale = 1) {
  const c = DISC[color];
  const rx = 36 * scale;
  const ry = 30 * scale;
  const th = 9 * scale;
  const out = [
    s('g', { stroke: c.line, 'stroke-width': 2.5 },
      s('path', { d: `M${50 - rx} ${cy - th / 2} V${cy + th / 2} A${rx} ${ry} 0 0 0 ${50 + rx} ${cy + th / 2} V${cy - th / 2}`, fill: c.rim }),
      s('ellipse', { cx: 50, cy: cy - th / 2, rx, ry, fill: c.top }),
      s('ellipse', { cx: 50, cy: cy - th / 2, rx: rx * 0.66, ry: ry * 0.66, fill: 'none', stroke: c.ring, 'stroke-width': 2.5 })),
  ];
  if (crowned) {
    // A gold crown on the top face: the Tama's mark (1.4).
    const y = cy - th / 2;
    const w = 22 * scale;
    const h = 15 * scale;
    out.push(s('path', {
      d: `M${50 - w} ${y + h * 0.55} L${50 - w * 1.05} ${y - h * 0.6} L${50 - w * 0.5} ${y - h * 0.05} L50 ${y - h * 0.9} L${50 + w * 0.5} ${y - h * 0.05} L${50 + w * 1.05} ${y - h * 0.6} L${50 + w} ${y + h * 0.55} Z`,
      fill: '#e2b42c', stroke: '#6b4e00', 'stroke-width': 2, 'stroke-linejoin': 'round',
    }));
  }
  return out;
}

const PIECE = /^[wb][KQRBNMT]$/;

/**
 * A reference to a symbol of the sprite, filling a 100x100 square.
 * @param {string} id
 * @param {string} [transform]
 */
const use = (id, transform) => s('use', { href: `#${id}`, width: 100, height: 100, transform });

/**
 * A piece or construct inside a 100x100 square, as elements. Codes that
 * are not pieces draw nothing.
 * @param {string} code 'wQ'
 * @param {string} [prisoner] 'bM', for a construct
 * @returns {SVGElement[]}
 */
export function pieceNodes(code, prisoner) {
  if (!PIECE.test(code)) return [];
  if (!prisoner || !PIECE.test(prisoner)) return [use(`lg-${code}`)];
  // A construct: the prisoner lies flat under its Captor (1.5), so both
  // stay readable: the disc at the foot, the figurine raised and smaller.
  return [use(`lg-under-${prisoner}`), use(`lg-${code}`, 'translate(12 2) scale(0.76)')];
}

/**
 * One piece's symbol drawing.
 * @param {string} code
 * @returns {SVGElement[]}
 */
export function symbolNodes(code) {
  const color = code[0];
  const role = code[1];
  if (role === 'M' || role === 'T') return disc(color, role === 'T');
  if (pieceSet === 'letters') return lettered(color, role);
  return figurine(color, role);
}

/**
 * A chess piece of the letter set: a round token with its letter, so that
 * it is told from the Legion's flat discs by shape as well as by letter.
 * @param {string} color @param {string} role
 * @returns {SVGElement[]}
 */
function lettered(color, role) {
  const ink = INK[color];
  const letter = (LETTERS[lang] || LETTERS.en)[role] || role;
  return [
    s('circle', { cx: 50, cy: 52, r: 38, fill: ink.fill, stroke: ink.line, 'stroke-width': 5 }),
    s('circle', { cx: 50, cy: 52, r: 30, fill: 'none', stroke: ink.detail, 'stroke-width': 2, opacity: 0.6 }),
    s('text', {
      x: 50, y: 53, 'text-anchor': 'middle', 'dominant-baseline': 'central', fill: ink.detail,
      'font-size': letter.length > 1 ? 32 : 42, 'font-weight': 700, 'font-family': 'system-ui, sans-serif',
    }, letter),
  ];
}

/** @type {SVGElement | null} */
let spriteDefs = null;

/**
 * Draws the chess pieces in another set: the sprite's symbols change, and
 * every board showing them follows at once.
 * @param {string} set 'figurines' or 'letters'
 */
export function setPieceSet(set) {
  if (set === pieceSet) return;
  pieceSet = set;
  if (!spriteDefs) return;
  for (const color of ['w', 'b']) {
    for (const role of 'KQRBN') spriteDefs.querySelector(`#lg-${color}${role}`)?.replaceChildren(...symbolNodes(color + role));
  }
}

let spriteDone = false;

/** Adds the hidden sprite with every symbol to the document, once. */
export function ensureSprite() {
  if (spriteDone) return;
  spriteDone = true;
  const defs = s('defs');
  spriteDefs = defs;
  for (const color of ['w', 'b']) {
    for (const role of 'KQRBNMT') {
      defs.append(s('symbol', { id: `lg-${color}${role}`, viewBox: '0 0 100 100' }, symbolNodes(color + role)));
    }
    for (const role of 'MT') {
      defs.append(s('symbol', { id: `lg-under-${color}${role}`, viewBox: '0 0 100 100' }, disc(color, role === 'T', 80, 0.8)));
    }
  }
  // The red glow under a King in check.
  defs.append(s('radialGradient', { id: 'lg-check' },
    s('stop', { offset: 0, 'stop-color': '#ff3b2f' }),
    s('stop', { offset: 0.5, 'stop-color': '#e3241b', 'stop-opacity': 0.85 }),
    s('stop', { offset: 1, 'stop-color': '#b30000', 'stop-opacity': 0 })));
  const svg = s('svg', { 'aria-hidden': 'true', width: 0, height: 0 }, defs);
  svg.style.position = 'absolute';
  document.body.prepend(svg);
}

/**
 * A standalone small SVG of one piece (palette, legends).
 * @param {string} code
 * @param {string} [prisoner]
 * @param {number} [size]
 * @returns {SVGElement}
 */
export function pieceIcon(code, prisoner, size = 40) {
  ensureSprite();
  return s('svg', { viewBox: '0 0 100 100', width: size, height: size, 'aria-hidden': 'true' }, pieceNodes(code, prisoner));
}
