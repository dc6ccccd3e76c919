// @ts-check
// SVG as elements, never as markup: s('circle', {cx: 50, cy: 50, r: 15})
// makes an element with its attributes set one by one, text goes in as
// text nodes, so no data is ever read as markup.

export const SVGNS = 'http://www.w3.org/2000/svg';

/** @typedef {Record<string, string | number | null | undefined | false>} Attrs */
/** @typedef {Node | string | null | undefined | false} Child */

/**
 * An SVG element with attributes (null, undefined and false are left out)
 * and children (strings become text).
 * @param {string} tag
 * @param {Attrs} [attrs]
 * @param {...(Child | Child[])} children
 * @returns {SVGElement}
 */
export function s(tag, attrs = {}, ...children) {
  const el = /** @type {SVGElement} */ (document.createElementNS(SVGNS, tag));
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    el.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === 'string' ? document.createTextNode(c) : c);
  }
  return el;
}

/**
 * A small icon for a button: paths filled (or stroked) with the text's colour.
 * @param {number} size
 * @param {...SVGElement} parts
 * @returns {SVGElement}
 */
export function icon(size, ...parts) {
  return s('svg', { viewBox: '0 0 24 24', width: size, height: size, 'aria-hidden': 'true' }, ...parts);
}

/**
 * One filled path as an icon.
 * @param {string} d
 * @param {number} [size]
 */
export const pathIcon = (d, size = 20) => icon(size, s('path', { d, fill: 'currentColor' }));

/** Navigation icons (path data): no font is sure to have the media glyphs. */
export const NAV_PATHS = {
  first: 'M5 5h2.5v14H5zM19 5v14L8.5 12z',
  prev: 'M16.5 5v14L6 12z',
  next: 'M7.5 5v14L18 12z',
  last: 'M16.5 5H19v14h-2.5zM5 5v14l10.5-7z',
};
