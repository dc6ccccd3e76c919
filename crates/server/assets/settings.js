// @ts-check
// The player's settings, kept in this browser ('legion:settings', JSON):
// the board's colours, the piece set, how fast moves are animated,
// premoves on or off, and whether a move made on the board waits for a
// second click, and whether the games' chat is shown. The dialog behind the header's Settings button changes
// them; a change shows at once on every board of the page.

import { h } from './ui.js';
import { t } from './i18n.js';
import { setPieceSet } from './pieces.js';

/**
 * @typedef {'wood' | 'green' | 'blue'} BoardTheme
 * @typedef {'figurines' | 'letters'} PieceSet
 * @typedef {'off' | 'fast' | 'normal' | 'slow'} AnimationSpeed
 * @typedef {{board: BoardTheme, pieces: PieceSet, animation: AnimationSpeed, premoves: boolean, confirmMoves: boolean, chat: boolean}} Settings
 */

const KEY = 'legion:settings';
export const BOARD_THEMES = /** @type {const} */ (['wood', 'green', 'blue']);
export const PIECE_SETS = /** @type {const} */ (['figurines', 'letters']);
export const SPEEDS = /** @type {const} */ (['off', 'fast', 'normal', 'slow']);
/** How long an animation takes, against the normal speed. */
const SCALE = { off: 0, fast: 0.5, normal: 1, slow: 1.8 };

/** @type {Settings} */
const DEFAULTS = { board: 'wood', pieces: 'figurines', animation: 'normal', premoves: true, confirmMoves: false, chat: true };

/**
 * @template {string} T
 * @param {readonly T[]} words @param {unknown} v
 * @returns {v is T}
 */
const isOneOf = (words, v) => typeof v === 'string' && /** @type {readonly string[]} */ (words).includes(v);

/**
 * What this browser keeps. A setting never chosen, or written by another
 * version of the page in a form this one does not know, is the default:
 * the storage is the browser's, not the server's, and may hold anything.
 * @returns {Settings}
 */
function load() {
  /** @type {Record<string, unknown>} */
  let kept = {};
  try {
    const v = JSON.parse(localStorage.getItem(KEY) || '{}');
    if (v && typeof v === 'object') kept = v;
  } catch { /* no storage, or not JSON: the defaults */ }
  return {
    board: isOneOf(BOARD_THEMES, kept.board) ? kept.board : DEFAULTS.board,
    pieces: isOneOf(PIECE_SETS, kept.pieces) ? kept.pieces : DEFAULTS.pieces,
    animation: isOneOf(SPEEDS, kept.animation) ? kept.animation : DEFAULTS.animation,
    premoves: typeof kept.premoves === 'boolean' ? kept.premoves : DEFAULTS.premoves,
    confirmMoves: typeof kept.confirmMoves === 'boolean' ? kept.confirmMoves : DEFAULTS.confirmMoves,
    chat: typeof kept.chat === 'boolean' ? kept.chat : DEFAULTS.chat,
  };
}

let current = load();
/** @type {Set<() => void>} */
const listeners = new Set();

/** The settings in force. */
export const settings = () => current;

/** The animation's length against the normal speed (0: none). */
export const animationScale = () => SCALE[current.animation];

/** Calls fn whenever a setting changes; returns the function that stops it. @param {() => void} fn */
export function onSettingsChange(fn) {
  listeners.add(fn);
  return () => { listeners.delete(fn); };
}

/** Changes some settings, keeps them, and shows them. @param {Partial<Settings>} change */
export function saveSettings(change) {
  current = { ...current, ...change };
  try { localStorage.setItem(KEY, JSON.stringify(current)); } catch { /* private mode: this page only */ }
  applySettings();
  for (const fn of listeners) fn();
}

/** Shows the settings on the page: the board's colours (style.css) and the pieces' drawings. */
export function applySettings() {
  document.documentElement.dataset.boardTheme = current.board;
  document.documentElement.dataset.pieceSet = current.pieces;
  setPieceSet(current.pieces);
}

/** The Settings dialog: each change takes effect at once. */
export function openSettingsDialog() {
  document.querySelector('dialog.settings')?.remove();
  /**
   * A group of choices, one checked.
   * @param {keyof Settings} name @param {readonly string[]} values @param {string} prefix
   */
  const choices = (name, values, prefix) => h('fieldset', h('legend', t(`settings.${name}`)),
    values.map((v) => h('label.choice', h('input', { type: 'radio', name, value: v, checked: current[name] === v }), h('span', t(`${prefix}.${v}`)))));
  /** @param {'premoves' | 'confirmMoves' | 'chat'} name */
  const toggle = (name) => h('label.choice', h('input', { type: 'checkbox', name, checked: current[name] }), h('span', t(`settings.${name}`)));
  const form = h('form', { method: 'dialog' },
    h('h2', t('settings.title')),
    choices('board', BOARD_THEMES, 'settings.boardTheme'),
    choices('pieces', PIECE_SETS, 'settings.pieceSet'),
    choices('animation', SPEEDS, 'settings.speed'),
    h('fieldset', h('legend', t('settings.play')), toggle('premoves'), toggle('confirmMoves'), toggle('chat')),
    h('div.row.buttons', h('button.primary', { type: 'submit' }, t('settings.done'))));
  const dialog = h('dialog.settings.new-game', { 'aria-label': t('settings.title'), 'data-settings': '' }, form);
  form.addEventListener('change', () => {
    const f = /** @type {HTMLFormElement} */ (form);
    /** @param {string} n */
    const value = (n) => /** @type {RadioNodeList} */ (f.elements.namedItem(n)).value;
    /** @param {string} n */
    const checked = (n) => /** @type {HTMLInputElement} */ (f.elements.namedItem(n)).checked;
    const board = value('board');
    const pieces = value('pieces');
    const animation = value('animation');
    saveSettings({
      board: isOneOf(BOARD_THEMES, board) ? board : current.board,
      pieces: isOneOf(PIECE_SETS, pieces) ? pieces : current.pieces,
      animation: isOneOf(SPEEDS, animation) ? animation : current.animation,
      premoves: checked('premoves'),
      confirmMoves: checked('confirmMoves'),
      chat: checked('chat'),
    });
  });
  dialog.addEventListener('close', () => dialog.remove());
  document.body.appendChild(dialog);
  dialog.showModal();
  form.querySelector('input:checked')?.focus();
}
