// @ts-check
// The game page's boxes below the status: offers (draw, takeback) to
// answer, the invite to share, the end of the game; and the toasts that
// tell what the opponent did to our offers. Each box is redrawn only when
// what it shows changes (its `data-for` key).

import { h, toast } from './ui.js';
import { copyText } from './api.js';
import { t, tServer, locale } from './i18n.js';
import { other } from './ui.js';
import { resultWords, sideOf } from './game-state.js';

/** @typedef {import('./game-state.js').GameState} GameState */

/** Fills a box with `make()` when `key` changes; hides it when empty. @param {HTMLElement} box @param {string} key @param {() => (Node | string)[]} make */
export function fillBox(box, key, make) {
  box.hidden = !key;
  if (!key) { box.replaceChildren(); delete box.dataset.for; return; }
  if (box.dataset.for === key && box.childElementCount) return;
  box.dataset.for = key;
  box.replaceChildren(...make());
}

/**
 * A draw offered to us (accept or decline), and a takeback asked of us or
 * by us (which we may cancel).
 * @param {{draw: HTMLElement, takeback: HTMLElement}} boxes
 * @param {GameState} st
 * @param {boolean} home
 * @param {{draw: (action: string) => void, takeback: (action: string, withdraw?: boolean) => void}} on
 */
export function renderOffers(boxes, st, home, on) {
  const mine = sideOf(st);
  const active = st.status === 'active' && !home;
  const draw = active && st.draw_offer && mine && st.draw_offer !== mine ? `draw:${st.draw_offer}` : '';
  fillBox(boxes.draw, draw, () => [
    h('span', st.mode === 'friend' ? t('game.offer.drawFromOpponent') : t('game.offer.drawFromSide', { side: st.draw_offer })),
    h('span.offer-buttons',
      h('button.primary', { type: 'button', onclick: () => on.draw('accept') }, t('game.offer.accept')),
      h('button', { type: 'button', onclick: () => on.draw('decline') }, t('game.offer.decline')))]);
  const tb = st.takeback_offer;
  let takeback = '';
  if (active && st.mode === 'friend' && tb && mine) takeback = tb === mine ? 'takeback:asked' : 'takeback:asking';
  fillBox(boxes.takeback, takeback, () => (takeback === 'takeback:asking'
    ? [h('span', t('game.offer.takebackFromOpponent')),
      h('span.offer-buttons',
        h('button.primary', { type: 'button', onclick: () => on.takeback('accept') }, t('game.offer.accept')),
        h('button', { type: 'button', onclick: () => on.takeback('decline') }, t('game.offer.decline')))]
    : [h('span', t('game.offer.takebackRequested')),
      h('span.offer-buttons',
        h('button', { type: 'button', onclick: () => on.takeback('decline', true) }, t('game.offer.cancelRequest')))]));
}

/** A read-only link with a Copy button; `wrap` shows a long link whole. @param {string} text @param {string} id @param {string} label @param {{wrap?: boolean}} [opts] */
function copyRow(text, id, label, { wrap = false } = {}) {
  /** @param {Event} e */
  const select = (e) => /** @type {HTMLInputElement} */ (e.target).select();
  const input = wrap
    ? h('textarea.link', { readonly: true, rows: 3, id, 'aria-label': label, spellcheck: 'false', onfocus: select }, text)
    : h('input', { type: 'text', readonly: true, value: text, id, 'aria-label': label, onfocus: select });
  return h('div.copy-row', input, h('button', {
    type: 'button',
    onclick: async () => toast((await copyText(text)) ? t('game.invite.copied') : t('game.invite.copyFailed')),
  }, t('common.copy')));
}

/**
 * The invite of a friend game still waiting for the friend: the link
 * that claims the seat, and the one to watch.
 * @param {HTMLElement} box @param {string} id @param {string | null} invite
 */
export function renderInvite(box, id, invite) {
  box.hidden = !invite;
  if (!invite) return;
  if (box.dataset.for === invite && box.childElementCount) return;
  box.dataset.for = invite;
  const link = `${location.origin}/g/${id}?invite=${encodeURIComponent(invite)}`;
  const watch = `${location.origin}/g/${id}`;
  box.replaceChildren(
    h('p', h('strong', t('game.invite.title')), ' ', t('game.invite.text')),
    copyRow(link, 'invite-link', t('game.invite.link'), { wrap: true }),
    h('p.small', t('game.invite.watchText')),
    copyRow(watch, 'watch-link', t('game.invite.watchLink')));
}

/**
 * The end of the game: the result and its reason (with its rule), and
 * what to do next: a rematch (for the players), this game on the
 * analysis board, a new game.
 * @param {HTMLElement} box
 * @param {GameState} st
 * @param {{busy: boolean, rematch: (action: string) => void, newGame: () => void}} on
 */
export function renderOver(box, st, on) {
  const mine = sideOf(st);
  const seated = !!st.you;
  const key = [st.id, st.status, st.result, st.rematch_offer, st.rematch, st.you, on.busy ? 1 : 0].join('|');
  if (box.dataset.for === key) return;
  box.dataset.for = key;
  const aborted = st.status === 'aborted';
  box.dataset.result = aborted ? 'aborted' : st.result;
  const reason = tServer(st.reason_i18n, st.reason || '');
  const parts = [
    h('h2.over-title', aborted ? null : h('span.over-score', resultWords(st.result)), h('span', { 'data-over-title': '' }, overTitle(st))),
    reason ? h('p.over-reason', { 'data-reason': '' }, capitalised(reason)) : null,
  ];
  // The rematch: against the engine or on one device it starts at once;
  // between two people it is asked for and accepted.
  /** @param {string} label @param {string} action @param {string} [cls] */
  const rematchBtn = (label, action, cls = 'button.primary') => h(cls, {
    type: 'button', 'data-rematch': action, disabled: on.busy, onclick: () => on.rematch(action),
  }, label);
  let rematchRow = null;
  if (st.rematch) {
    rematchRow = h('p', h('a', { href: `/g/${encodeURIComponent(st.rematch)}`, 'data-rematch-link': '' },
      t(seated ? 'game.over.toRematch' : 'game.over.watchRematch')));
  } else if (seated && st.mode === 'friend' && mine) {
    if (st.rematch_offer === mine) {
      rematchRow = h('div.over-offer', { 'data-rematch-offer': 'mine' }, h('span', t('game.over.rematchOffered')),
        rematchBtn(t('common.cancel'), 'decline', 'button'));
    } else if (st.rematch_offer) {
      rematchRow = h('div.over-offer', { 'data-rematch-offer': 'theirs' }, h('span', t('game.over.rematchFromOpponent')),
        h('span.offer-buttons', rematchBtn(t('game.offer.accept'), 'accept'), rematchBtn(t('game.offer.decline'), 'decline', 'button')));
    }
  }
  const buttons = h('div.over-buttons',
    seated && !st.rematch && !(st.mode === 'friend' && st.rematch_offer) ? rematchBtn(t('game.over.rematch'), 'offer') : null,
    h('a.button', { href: `/analysis?game=${encodeURIComponent(st.id)}`, 'data-analyse-game': '' }, t('game.over.analyse')),
    h('button', { type: 'button', onclick: () => on.newGame() }, t('game.btn.newGame')));
  box.replaceChildren(...parts.filter((p) => p !== null), rematchRow || '', buttons);
}

/** What the end means to the reader: you won or lost; a draw; which side won. @param {GameState} st */
function overTitle(st) {
  if (st.status === 'aborted') return t('game.over.aborted');
  if (st.result === '1/2-1/2') return t('game.over.draw');
  const winner = st.result === '1-0' ? 'w' : st.result === '0-1' ? 'b' : null;
  if (!winner) return t('game.status.gameOver');
  const mine = sideOf(st);
  if (mine) return t(winner === mine ? 'game.over.youWon' : 'game.over.youLost');
  return t('game.over.sideWon', { side: winner });
}

/** A reason shown as a sentence of its own starts with a capital letter. @param {string} text */
const capitalised = (text) => text.charAt(0).toLocaleUpperCase(locale) + text.slice(1);

/**
 * Toasts for what the opponent did to our offers in a friend game.
 * `withdrawing` says we cancelled our own offer (no toast for that);
 * returns whether it still holds.
 * @param {GameState} prev @param {GameState} st @param {boolean} withdrawing
 */
export function announce(prev, st, withdrawing) {
  const mine = sideOf(st);
  if (!mine || st.mode !== 'friend') return withdrawing;
  const stillPlaying = st.status === 'active' && prev.status === 'active';
  const theirs = other(mine);
  if (st.takeback_offer === theirs && prev.takeback_offer !== theirs) toast(t('game.toast.takebackAsked'));
  else if (st.draw_offer === theirs && prev.draw_offer !== theirs) toast(t('game.toast.drawOffered'));
  if (prev.draw_offer === mine && !st.draw_offer && stillPlaying && st.ply === prev.ply) toast(t('game.toast.drawDeclined'));
  if (prev.takeback_offer === mine && !st.takeback_offer) {
    if (withdrawing) withdrawing = false; // we cancelled it ourselves
    else if (stillPlaying && st.ply < prev.ply) toast(t('game.toast.takebackAccepted'));
    else if (stillPlaying && st.ply === prev.ply) toast(t('game.toast.takebackDeclined'));
  }
  if (st.rematch_offer === theirs && prev.rematch_offer !== theirs && !st.rematch) toast(t('game.over.rematchFromOpponent'));
  if (prev.rematch_offer === mine && !st.rematch_offer && !st.rematch) {
    if (withdrawing) withdrawing = false;
    else toast(t('game.over.rematchDeclined'));
  }
  return withdrawing;
}
