// @ts-check
// The status line of the game page (whose move it is, check, a capture
// that must be made, the result; built from the state's facts and the
// server's reason key `reason_i18n`, never from cutting its text), the
// player strips' names and which buttons show.

import { t, tServer } from './i18n.js';
import { h, setText, other } from './ui.js';
import { resultWords, playerName, playerRating, phaseWords, movesBy, sideOf, ended } from './game-state.js';

/**
 * @typedef {import('./game-state.js').GameState} GameState
 * @typedef {import('./game-layout.js').Layout} Layout
 * @typedef {{
 *   id: string | null, home: boolean, level: number, offline: boolean, flipped: boolean,
 *   pending: boolean, canMove: boolean, lfen: string, viewing: number | null,
 * }} PageView what the page adds to the state (`viewing`: the ply of an earlier position shown, or null)
 */

// Aborted games: the status says "Game aborted" once, then why, in the
// words each reason has for that place.
/** @type {Record<string, string>} */
const ABORTED_WHY = {
  'outcome.aborted': 'game.status.abortedBy',
  'outcome.no_first_move': 'game.status.abortedNoFirstMove',
};

/**
 * @param {GameState} st
 * @param {{home: boolean, level: number, offline: boolean, viewing: number | null}} view
 */
export function statusText(st, { home, level, offline, viewing }) {
  let text;
  if (viewing !== null && st.status === 'active') {
    // An earlier position: whose move it is now is not what is shown.
    text = t('game.status.viewing', { ply: viewing, total: st.moves.length });
  } else if (st.status === 'over') {
    const reason = tServer(st.reason_i18n, st.reason || '');
    text = t('game.status.over', { result: resultWords(st.result), reason: reason || t('game.status.overNoReason') });
  } else if (st.status === 'aborted') {
    const r = st.reason_i18n;
    const why = r && ABORTED_WHY[r.key];
    text = why && r ? t(why, r.args) : t('game.status.aborted');
  } else if (home) {
    text = t('home.status', { level });
  } else if (st.status === 'waiting') {
    text = t(st.you ? 'game.status.waitingFriend' : 'game.status.waitingWatcher');
  } else {
    const you = st.you;
    const side = st.turn;
    if (st.engine_thinking) text = t('game.status.engineThinking');
    else if (you === st.turn) text = t('game.status.yourMove', { side });
    else if (you === 'both') text = t('game.status.toMove', { side });
    else if (you) text = t('game.status.waitingFor', { side });
    else text = t('game.status.toMoveWatching', { side });
    if (st.check) text += ' ' + t('game.status.check', { side });
    else if (st.must_capture.length && (you === st.turn || you === 'both')) text += ' ' + t('game.status.mustCapture');
  }
  if (offline && !home) text += ' ' + t('game.status.offline');
  return text;
}

/** @param {Layout} el @param {GameState} st @param {PageView} v */
export function renderPlayers(el, st, v) {
  const bottom = v.flipped ? 'b' : 'w';
  /** @type {[import('./game-clocks.js').PlayerStrip, 'w' | 'b'][]} */
  const strips = [[el.bottom, bottom], [el.top, other(bottom) === 'b' ? 'b' : 'w']];
  for (const [strip, side] of strips) {
    strip.set({
      side,
      name: playerName(st, side, v.home),
      rating: playerRating(st, side),
      thinking: st.engine_thinking && st.engine_color === side,
      toMove: st.status === 'active' && st.turn === side,
      kingGone: !st.kings[side],
    });
  }
}

/** @param {Layout} el @param {GameState} st @param {PageView} v */
export function renderStatus(el, st, v) {
  el.status.dataset.turn = st.turn;
  setText(el.status, statusText(st, v));
  // Once the game has ended the game-over panel shows the result; the
  // status line stays for screen readers.
  const over = !v.home && ended(st);
  el.status.classList.toggle('sr-only', over);
  el.statusPanel.classList.toggle('ended', over);
  el.statusPanel.dataset.result = st.status === 'aborted' ? 'aborted' : st.result;
  el.status.classList.toggle('over', st.status === 'over');
  el.status.classList.toggle('aborted', st.status === 'aborted');
  el.status.dataset.gameStatus = v.home ? 'home' : st.status;

  const phase = phaseWords(st);
  el.phaseNote.hidden = !phase;
  const phaseKey = phase ? phase.join('|') : '';
  if (el.phaseNote.dataset.for !== phaseKey) {
    el.phaseNote.dataset.for = phaseKey;
    el.phaseNote.replaceChildren(...(phase ? [h('strong', phase[0]), phase[1] ? ' ' + phase[1] : ''] : []));
  }
  // Watchers are told so; while a game is on, the status line says it.
  el.watchNote.hidden = !(v.id && !v.home && !st.you && ended(st));
}

/** Which actions show, and which wait. @param {Layout} el @param {GameState} st @param {PageView} v */
export function renderButtons(el, st, v) {
  const seated = !!st.you && !v.home;
  const active = st.status === 'active';
  const mine = sideOf(st);
  el.undo.hidden = !(seated && active && (st.mode === 'engine' || st.mode === 'local'));
  el.undo.disabled = !st.moves.length || st.engine_thinking || v.pending;
  // While a request is open its box (below the status) says what to do.
  el.takebackBtn.hidden = !(seated && active && st.mode === 'friend' && mine && movesBy(st, mine) > 0 && !st.takeback_offer);
  el.takebackBtn.disabled = v.pending;
  // The creator of a friend game may call it off while waiting, too.
  el.abort.hidden = !(seated && (active || st.status === 'waiting') && st.moves.length < 2);
  el.abort.disabled = v.pending || st.engine_thinking;
  el.resign.hidden = !(seated && active);
  el.draw.hidden = !(seated && active);
  el.draw.disabled = st.draw_offer === mine && st.mode === 'friend';
  setText(el.draw, t(st.mode === 'local' ? 'game.btn.agreeDraw' : st.draw_offer && st.draw_offer === mine ? 'game.btn.drawOffered' : 'game.btn.offerDraw'));
  el.record.hidden = v.home;
  if (v.id) {
    el.record.href = `/api/games/${encodeURIComponent(v.id)}/record`;
    el.record.setAttribute('download', `legion-${v.id}.pgn`);
  }
  // A game goes to the analysis board whole, at the move shown; the home
  // page's position alone.
  el.analyse.href = v.id && !v.home
    ? `/analysis?game=${encodeURIComponent(v.id)}&ply=${v.viewing ?? st.moves.length}`
    : `/analysis?lfen=${encodeURIComponent(v.lfen)}${st.rules === 'mate-ends-game' ? '&rules=mate-ends-game' : ''}`;
  // The move box is for the players of a game under way, not for watchers.
  el.moveForm.hidden = !(v.home || (seated && active));
  // The box stays open while the opponent thinks (the next move can be
  // typed meanwhile, and the focus stays there); Play waits for the turn.
  el.movePlay.disabled = !v.canMove;
}
