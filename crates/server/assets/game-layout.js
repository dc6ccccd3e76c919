// @ts-check
// The game page's layout: the board between the two player strips, and
// beside it the status panel, the move list with its navigation and move
// box, and the action buttons. Every element the page updates is returned
// by name; what the buttons do is the page's (`on`).

import { h } from './ui.js';
import { MoveList } from './movelist.js';
import { NAV_PATHS as ICONS, pathIcon } from './svg.js';
import { t } from './i18n.js';
import { PlayerStrip } from './game-clocks.js';
import { SoundSwitch } from './game-sounds.js';

/**
 * @typedef {{
 *   goTo: (ply: number | null) => void, step: (d: number) => void, typedMove: () => void, newGame: () => void,
 *   undo: () => void, askTakeback: () => void, abort: () => void, offerDraw: () => void, resign: () => void,
 *   flip: () => void, copyLfen: () => void,
 * }} LayoutActions
 * @typedef {ReturnType<typeof buildLayout>} Layout
 */

/** @param {HTMLElement} root @param {HTMLElement} boardBox @param {LayoutActions} on */
export function buildLayout(root, boardBox, on) {
  /** @param {string} d @param {string} label @param {() => void} fn */
  const navBtn = (d, label, fn) => h('button.nav', { type: 'button', 'aria-label': label, title: label, onclick: fn }, pathIcon(d));
  /** @param {string} label @param {() => void} fn @param {string} [title] */
  const button = (label, fn, title) => h('button', { type: 'button', onclick: fn, title }, label);
  const el = {
    top: new PlayerStrip(),
    bottom: new PlayerStrip(),
    status: h('div.status', { 'data-status': '', 'data-turn': 'w', role: 'status', 'aria-live': 'polite' }),
    phaseNote: h('div.note.phase', { 'data-phase-note': '', hidden: true }),
    premoveNote: h('div.note.premove-note', { 'data-premove-note': '', hidden: true }),
    watchNote: h('div.note.watching', { 'data-watching': '', hidden: true }, t('game.watching')),
    overPanel: h('section.game-over', { 'data-game-over': '', 'aria-label': t('game.status.gameOver'), hidden: true }),
    error: h('div.error', { 'data-error': '', role: 'alert', hidden: true }),
    seatNote: h('div.note.seat-note', { 'data-seat-note': '', hidden: true }),
    abortNote: h('div.note.abort-note', { 'data-abort-note': '', hidden: true }),
    offer: h('div.note.offer', { 'data-offer': 'draw', hidden: true }),
    takeback: h('div.note.offer', { 'data-offer': 'takeback', hidden: true }),
    invite: h('div.invite', { hidden: true }),
    historyNote: h('div.note.history', { hidden: true }),
    confirm: h('div.confirm', { hidden: true }),
    setupLine: h('div.setup-line'),
    moveList: new MoveList((ply) => on.goTo(ply)),
    moveInput: h('input', { type: 'text', id: 'move-input', autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false', placeholder: t('game.moveInput.placeholder') }),
    movePlay: h('button', { type: 'submit' }, t('game.moveInput.play')),
    moveForm: /** @type {HTMLFormElement} */ (h('form.move-form', { onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); on.typedMove(); } })),
    statusPanel: h('div.panel.status-panel'),
    sound: new SoundSwitch(),
    newGame: h('button.primary', { type: 'button', onclick: () => on.newGame() }, t('game.btn.newGame')),
    undo: button(t('game.btn.undo'), () => on.undo()),
    takebackBtn: button(t('game.btn.takeback'), () => on.askTakeback(), t('game.btn.takebackTitle')),
    abort: button(t('game.btn.abort'), () => on.abort(), t('game.btn.abortTitle')),
    draw: button(t('game.btn.offerDraw'), () => on.offerDraw()),
    resign: button(t('game.btn.resign'), () => on.resign()),
    flip: button(t('game.btn.flip'), () => on.flip(), t('game.btn.flipTitle')),
    record: h('a.button', { href: '#', download: 'legion-game.pgn' }, t('game.btn.record')),
    lfen: button(t('game.btn.copyLfen'), () => on.copyLfen()),
    analyse: h('a.button', { href: '/analysis' }, t('game.btn.analyse')),
    boardCol: h('section.board-col', { 'aria-label': t('game.region.board') }),
    movesPanel: h('div.panel.moves-panel'),
    actionsPanel: h('div.panel.actions'),
  };
  el.moveForm.append(h('label.sr-only', { for: 'move-input' }, t('game.moveInput.label')), el.moveInput, el.movePlay);
  const nav = h('div.nav-buttons', { role: 'group', 'aria-label': t('game.nav.label') },
    navBtn(ICONS.first, t('game.nav.first'), () => on.goTo(0)),
    navBtn(ICONS.prev, t('game.nav.prev'), () => on.step(-1)),
    navBtn(ICONS.next, t('game.nav.next'), () => on.step(1)),
    navBtn(ICONS.last, t('game.nav.live'), () => on.goTo(null)));
  el.statusPanel.append(el.overPanel, el.status, el.watchNote, el.seatNote, el.phaseNote, el.premoveNote, el.abortNote,
    el.error, el.offer, el.takeback, el.confirm, el.setupLine, el.invite);
  el.boardCol.append(el.top.el, boardBox, el.bottom.el);
  el.movesPanel.append(el.moveList.el, el.historyNote, nav, el.moveForm);
  // Two rows: the game's own actions, and the tools. On a phone held
  // upright the first comes right under the status, above the move list.
  el.actionsPanel.append(
    h('div.action-row.game-actions', el.newGame, el.undo, el.takebackBtn, el.abort, el.draw, el.resign),
    h('div.action-row.tool-actions', el.flip, el.record, el.lfen, el.analyse, el.sound.el));
  root.append(h('div.play-layout', el.boardCol,
    h('aside.side-col', { 'aria-label': t('game.region.game') }, el.statusPanel, el.movesPanel, el.actionsPanel)));
  return el;
}
