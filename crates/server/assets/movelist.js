// @ts-check
// The move list: numbered pairs, each move a button with data-ply. It is
// rebuilt only when the moves change; moving through history only moves
// the "current" mark.

import { h } from './ui.js';
import { t } from './i18n.js';
import { lfenTurnAndNumber } from './lfen.js';
import { showMove } from './notation.js';

/**
 * @typedef {{human?: string, canonical?: string}} ListedMove
 * @typedef {Record<string, string>} KingMates ply → the side whose King was mated
 */

export class MoveList {
  /** @param {(ply: number) => void} onPick */
  constructor(onPick) {
    this.onPick = onPick;
    this.el = h('ol.move-list', { 'aria-label': t('game.moves') });
    this.key = '';
    /** @type {HTMLElement[]} */
    this.buttons = [];
    this.current = -1;
    this.el.addEventListener('click', (/** @type {MouseEvent} */ e) => {
      const b = /** @type {Element} */ (e.target).closest('[data-ply]');
      if (b) this.onPick(Number(b.getAttribute('data-ply')));
    });
  }

  /**
   * moves: [{human}], current: the ply shown (0 = start), start: LFEN;
   * kingMates: {ply: side} — the moves after which that side's King was
   * mated and left the board (5.1), each noted under its move.
   * @param {ListedMove[]} moves
   * @param {number} current
   * @param {string} start
   * @param {KingMates} [kingMates]
   */
  set(moves, current, start, kingMates = {}) {
    const marks = Object.entries(kingMates).map(([p, s]) => p + s).join(',');
    const key = `${moves.length}|${moves.length ? `${moves[moves.length - 1].human}${moves[0].human}` : ''}|${start}|${marks}`;
    if (key !== this.key) {
      this.key = key;
      this.build(moves, start, kingMates);
      this.current = -1;
    }
    if (current !== this.current) {
      this.buttons.forEach((b, i) => {
        if (i + 1 === current) b.setAttribute('aria-current', 'step');
        else b.removeAttribute('aria-current');
      });
      this.current = current;
      // Scroll the list only: scrollIntoView would scroll the whole page
      // too, pulling the board away on a phone at every move.
      const b = this.buttons[current - 1];
      if (b) {
        const top = b.offsetTop;
        const bottom = top + b.offsetHeight + (kingMates[current] ? 34 : 0);
        if (top < this.el.scrollTop) this.el.scrollTop = top;
        else if (bottom > this.el.scrollTop + this.el.clientHeight) this.el.scrollTop = bottom - this.el.clientHeight;
      } else if (current === moves.length) this.el.scrollTop = this.el.scrollHeight;
    }
  }

  /** @param {ListedMove[]} moves @param {string} start @param {KingMates} [kingMates] */
  build(moves, start, kingMates = {}) {
    const first = lfenTurnAndNumber(start);
    const blackFirst = first.turn === 'b';
    let number = first.fullmove;
    this.buttons = moves.map((m, i) => h('button.mv', { type: 'button', 'data-ply': i + 1, title: m.canonical || '' }, m.human ? showMove(m.human) : m.canonical || '?'));
    const rows = [];
    const notes = (/** @type {number[]} */ ...plies) => plies.filter((p) => kingMates[p]).map((p) => h('li.phase-mark', { 'data-phase-mark': p },
      t('game.moves.kingMated', { side: kingMates[p] })));
    let i = 0;
    if (!moves.length) rows.push(h('li.empty', t('game.noMoves')));
    if (blackFirst && moves.length) {
      rows.push(h('li', h('span.num', `${number}…`), h('span.blank'), this.buttons[0]), ...notes(1));
      i = 1;
      number++;
    }
    for (; i < moves.length; i += 2, number++) {
      rows.push(h('li', h('span.num', `${number}.`), this.buttons[i], this.buttons[i + 1] || h('span.blank')), ...notes(i + 1, i + 2));
    }
    this.el.replaceChildren(...rows);
  }
}
