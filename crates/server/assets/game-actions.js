// @ts-check
// What the player does on the game page, as requests to the server
// (docs/API.md): moves (picked, typed, or the first one that creates a
// game from the home page), undo, takebacks, draws, abort, resign,
// rematches, claiming an invited seat. Each answer is a state the page
// takes (GamePage.accept); a refusal is shown in words, and a conflict
// (409) fetches the state afresh.

import { api, seats, copyText, ApiError } from './api.js';
import { toast } from './ui.js';
import { openNewGameDialog } from './newgame.js';
import { t } from './i18n.js';
import { readState, storedLevel, sideOf } from './game-state.js';
import { serverLetters, showMove } from './notation.js';
import { settings } from './settings.js';

/**
 * @typedef {import('./game.js').GamePage} GamePage
 * @typedef {import('./game-state.js').GameState} GameState
 * @typedef {import('./game-state.js').LegalMove} LegalMove
 * @typedef {{id: string, token: string, invite?: string, state: unknown}} Created
 */

/** @param {unknown} e */
export const messageOf = (e) => (e instanceof Error ? e.message : String(e));

export class GameActions {
  /** @param {GamePage} page */
  constructor(page) {
    this.p = page;
  }

  /** Claims the invited seat; a used (or wrong) invite leaves the page watching. @param {string} id @param {string} invite */
  async claim(id, invite) {
    try {
      const joined = await api.join(id, invite);
      if (this.p.destroyed || !joined || !joined.token) return;
      this.p.token = joined.token;
      seats.set(id, joined.token);
      try { localStorage.setItem('legion:last', id); } catch { /* ignore */ }
    } catch (e) {
      if (e instanceof ApiError && e.status === 409) {
        // The error's code says which 409 this is (docs/API.md).
        this.p.setSeatNote(e.body && e.body.code === 'server.invite_used'
          ? t('game.seat.inviteUsed')
          : t('game.seat.watchingBecause', { reason: e.message.replace(/\.$/, '') }));
      } else if (e instanceof ApiError && e.status === 403) {
        this.p.setSeatNote(t('game.seat.inviteInvalid'));
      } else if (!(e instanceof ApiError && e.status === 404)) {
        this.p.showError(messageOf(e)); // 404: loading the game says it
      }
    }
  }

  /** Goes to the rematch, taking this seat's token along (it stays valid there). @param {string} id */
  followRematch(id) {
    if (this.p.leaving || this.p.destroyed) return;
    if (!this.p.token) { this.p.render(); return; } // watchers get a link in the panel
    this.p.leaving = true;
    if (!seats.get(id)) seats.set(id, this.p.token);
    try { localStorage.setItem('legion:last', id); } catch { /* ignore */ }
    // After this message's handling: the page is replaced.
    setTimeout(() => this.p.navigate(`/g/${id}`), 0);
  }

  /**
   * A move made on the board: played at once, or, with move confirmation
   * on (settings.js), once the player has said so; cancelled, the board
   * shows the position as it was.
   * @param {LegalMove} move
   */
  pick(move) {
    if (!settings().confirmMoves) { this.play(move); return; }
    this.p.confirm(t('game.confirm.move', { move: showMove(move.human) }), t('game.confirm.moveYes'),
      () => this.play(move), () => this.p.render());
  }

  /**
   * Sends a move: a legal move picked on the board (its squares light up
   * at once), or the text typed in the move box, which the server reads
   * and, if it is refused, explains like a clicked one, with the rule.
   * The server's answer draws the new position; no second move is taken
   * meanwhile. Resolves true when the move was played.
   * @param {LegalMove | null} move
   * @param {{text?: string | null}} [opts]
   */
  async play(move, { text = null } = {}) {
    const st = this.p.state;
    if (!st || !this.p.canMoveNow()) return false;
    this.p.showError('');
    this.p.pending = { move, ply: st.ply };
    this.p.render();
    try {
      // On the home page the first move creates the game against the engine.
      if (this.p.home) await this.startFromHome();
      if (this.p.destroyed || !this.p.state) return false;
      const sent = text ?? (move ? move.canonical : '');
      const next = await api.move(this.p.need(), this.p.token, sent, this.p.state.ply);
      this.p.pending = null;
      this.p.accept(next);
      return true;
    } catch (e) {
      this.p.pending = null;
      if (this.p.destroyed) return false;
      this.p.showError(messageOf(e));
      if (e instanceof ApiError && e.status === 409) this.refresh();
      else this.p.render();
      return false;
    }
  }

  async startFromHome() {
    const created = await api.createGame({ mode: 'engine', color: 'white', level: this.p.level, rules: 'default' });
    if (this.p.destroyed) return;
    this.adopt(created);
    history.replaceState(null, '', `/g/${created.id}`);
    document.title = t('common.title.game');
    this.p.home = false;
    this.p.renderSetupLine();
    this.p.state = readState(created.state);
    this.p.clocks.set(this.p.state, false);
    this.p.connect(created.id);
  }

  /** @param {Created} created */
  adopt(created) {
    this.p.id = created.id;
    this.p.token = created.token;
    seats.set(created.id, created.token);
    if (created.invite) seats.setExtra(created.id, 'invite', created.invite);
    try { localStorage.setItem('legion:last', created.id); } catch { /* ignore */ }
  }

  async refresh() {
    if (!this.p.id) return;
    try { this.p.accept(await api.game(this.p.id, this.p.token)); } catch (e) { this.p.showError(messageOf(e)); }
  }

  /** Asks the server why the squares entered are no legal move (or plays the move they are). @param {string[]} squares */
  async explain(squares) {
    const st = this.p.state;
    if (!st || !this.p.canMoveNow()) return;
    try {
      const r = this.p.home
        ? await api.explain(st.lfen, st.rules, squares)
        : await api.explainInGame(this.p.need(), this.p.token, squares);
      if (r && r.legal && r.move) {
        const m = st.legal.find((x) => x.canonical === r.move.canonical) || r.move;
        this.pick(m);
      } else if (r && r.error) {
        this.p.showError(r.error);
      }
    } catch (e) {
      this.p.showError(messageOf(e));
    }
  }

  /** The move box: what was typed goes to the server as it is; a refusal keeps the text to correct. */
  async typedMove() {
    const input = this.p.el.moveInput;
    const text = serverLetters(input.value);
    if (!text || !this.p.canMoveNow()) return;
    if (await this.play(null, { text })) {
      input.value = '';
      if (document.activeElement === document.body) input.focus();
    } else {
      input.focus();
      input.select();
    }
  }

  /**
   * Runs a request that answers with the game's state, and shows it.
   * @param {() => Promise<any>} fn
   * @param {{after?: (st: GameState) => void, failed?: (e: unknown) => void}} [options]
   */
  async action(fn, { after, failed } = {}) {
    this.p.showError('');
    try {
      const st = readState(await fn());
      this.p.accept(st);
      after?.(st);
    } catch (e) {
      failed?.(e);
      this.p.showError(messageOf(e));
      if (e instanceof ApiError && e.status === 409) this.refresh();
    }
  }

  undo() {
    this.p.clearConfirm();
    this.action(() => api.undo(this.p.need(), this.p.token));
  }

  abort() {
    this.p.confirm(t('game.confirm.abort'), t('game.confirm.abortYes'), () => this.action(() => api.abort(this.p.need(), this.p.token)));
  }

  askTakeback() {
    this.p.clearConfirm();
    this.action(() => api.takeback(this.p.need(), this.p.token, 'offer'));
  }

  /** @param {string} action @param {boolean} [withdraw] */
  takebackAction(action, withdraw = false) {
    if (withdraw) this.p.withdrawing = true;
    this.action(() => api.takeback(this.p.need(), this.p.token, action), {
      failed: () => { this.p.withdrawing = false; },
    });
  }

  resign() {
    this.p.confirm(t('game.confirm.resign'), t('game.confirm.resignYes'), () => this.action(() => api.resign(this.p.need(), this.p.token)));
  }

  offerDraw() {
    const st = this.p.state;
    if (!st) return;
    const id = this.p.need();
    if (st.mode === 'local') {
      // One device holds both seats: offering and accepting is one decision.
      this.p.confirm(t('game.confirm.draw'), t('game.confirm.drawYes'), () => this.action(async () => {
        const s = await api.draw(id, this.p.token, 'offer');
        if (s.status === 'active' && s.draw_offer) return api.draw(id, this.p.token, 'accept');
        return s;
      }));
      return;
    }
    // Like resigning, offering a draw is asked twice: the engine answers
    // at once, and an accepted draw ends the game.
    const question = st.mode === 'engine' ? t('game.confirm.drawEngine') : t('game.confirm.drawOffer');
    this.p.confirm(question, t('game.confirm.drawOfferYes'), () => this.action(() => api.draw(id, this.p.token, 'offer'), {
      after: (s) => {
        if (st.mode === 'engine' && s.status === 'active') toast(t('game.toast.engineDeclinesDraw'));
        else if (s.status === 'active') toast(t('game.toast.youOfferedDraw'));
      },
    }));
  }

  /** @param {string} action */
  async rematch(action) {
    const st = this.p.state;
    if (!st || this.p.rematchBusy || this.p.leaving) return;
    this.p.showError('');
    this.p.rematchBusy = true;
    if (action === 'decline' && st.rematch_offer === sideOf(st)) this.p.withdrawing = true;
    this.p.renderOver();
    try {
      const res = await api.rematch(this.p.need(), this.p.token, st.mode === 'friend' ? action : '');
      this.p.rematchBusy = false;
      if (this.p.destroyed) return;
      if (res && res.id && res.token) {
        // The rematch has started (201): the same token holds the other colour there.
        seats.set(res.id, res.token);
        this.followRematch(res.id);
      } else if (res && res.board) {
        this.p.accept(res);
      }
    } catch (e) {
      this.p.rematchBusy = false;
      this.p.withdrawing = false;
      this.p.showError(messageOf(e));
      if (e instanceof ApiError && e.status === 409) this.refresh();
      else this.p.renderOver();
    }
  }

  async copyLfen() {
    const ok = await copyText(this.p.currentLfen());
    toast(ok ? t('common.lfenCopied') : t('common.copyFailedText', { text: this.p.currentLfen() }));
  }

  newGame() {
    openNewGameDialog({
      level: storedLevel(),
      onCreated: (/** @type {Created} */ created) => {
        this.adopt(created);
        this.p.navigate(`/g/${created.id}`);
      },
    });
  }
}
