// @ts-check
// The game page: `/` (a board ready to play the engine; the first move
// creates the game) and `/g/{id}` (play your seat, or watch).
// The server is the authority: every state it sends is read whole
// (game-state.js) and drawn; the page keeps only what it needs to draw
// and to send the next action. Its parts: the layout (game-layout.js),
// the connection (game-transport.js), the player's actions
// (game-actions.js), the status line and buttons (game-status.js), the
// boxes below it (game-panels.js), clocks (game-clocks.js), sounds
// (game-sounds.js), the board (board.js); this file holds the state
// shown and draws it.

import { api, seats, ApiError } from './api.js';
import { Board } from './board.js';
import { INITIAL_LFEN } from './lfen.js';
import { h, setText, showError, typingIn, touchScreen } from './ui.js';
import { t } from './i18n.js';
import { readState, homeState, storedLevel, moverOf, lfenAt, boardAt, checkAt, kingSquare, kingMates, sideOf, ended } from './game-state.js';
import { Transport } from './game-transport.js';
import { Clocks } from './game-clocks.js';
import { soundChange } from './game-sounds.js';
import { renderOffers, renderInvite, renderOver, announce } from './game-panels.js';
import { renderPlayers, renderStatus, renderButtons } from './game-status.js';
import { buildLayout } from './game-layout.js';
import { GameActions, messageOf } from './game-actions.js';
import { settings } from './settings.js';
import { ChatPanel } from './chat.js';

/**
 * @typedef {import('./game-state.js').GameState} GameState
 * @typedef {import('./game-state.js').LegalMove} LegalMove
 */

/** @param {HTMLElement} root @param {{id: string | null, navigate: (path: string) => void}} opts */
export function mountGame(root, { id, navigate }) {
  const page = new GamePage(root, id, navigate);
  return () => page.destroy();
}

export class GamePage {
  /** @param {HTMLElement} root @param {string | null} id @param {(path: string) => void} navigate */
  constructor(root, id, navigate) {
    this.navigate = navigate;
    this.id = id;
    /** @type {GameState | null} */
    this.state = null;
    /** @type {number | null} null: the live position; else a ply of history */
    this.viewPly = null;
    this.userFlip = false;
    /** @type {{move: LegalMove | null, ply: number} | null} a move sent and not yet answered */
    this.pending = null;
    this.destroyed = false;
    this.home = !id;
    this.offline = false;
    this.withdrawing = false; // we cancelled our own offer: no toast for it
    this.rematchBusy = false;
    this.leaving = false; // on the way to the rematch
    /** @type {{move: LegalMove, before: import('./lfen.js').BoardMap} | null} a move to animate at the next drawing */
    this.pendingAnim = null;
    this.level = storedLevel();
    /** @type {Transport | null} */
    this.transport = null;
    this.actions = new GameActions(this);
    const boardBox = h('div.board-box');
    this.board = new Board(boardBox, {
      label: t('game.boardLabel'),
      onMove: (m) => this.actions.pick(m),
      onAttempt: (sq) => this.actions.explain(sq),
      onPremove: () => this.renderPremove(),
    });
    this.el = buildLayout(root, boardBox, {
      goTo: (ply) => this.goTo(ply),
      step: (d) => this.step(d),
      typedMove: () => this.actions.typedMove(),
      newGame: () => this.actions.newGame(),
      undo: () => this.actions.undo(),
      askTakeback: () => this.actions.askTakeback(),
      abort: () => this.actions.abort(),
      offerDraw: () => this.actions.offerDraw(),
      resign: () => this.actions.resign(),
      flip: () => this.flip(),
      copyLfen: () => this.actions.copyLfen(),
    });
    this.clocks = new Clocks([this.el.top, this.el.bottom], this.el.abortNote);
    /** @type {ChatPanel | null} the game's chat (issue 20), once there is a game */
    this.chat = id ? new ChatPanel(id, () => this.token) : null;
    if (this.chat) this.el.actionsPanel.after(this.chat.el);

    // `?invite=` carries a one-time invite code. A browser that already
    // holds a seat of this game keeps it (the creator opening their own
    // link); otherwise the page claims the seat with the code. Either way
    // the query leaves the address bar, so that sharing it shares only the
    // watch link. Seat tokens themselves never appear in an address.
    const params = new URLSearchParams(location.search);
    const invite = id ? params.get('invite') : null;
    if (id && location.search) history.replaceState(null, '', `/g/${id}${location.hash}`);
    /** @type {string | null} */
    this.token = id ? seats.get(id) : null;
    if (id) this.loadGame(id, this.token ? null : invite);
    else this.loadHome();

    this.onKey = (/** @type {KeyboardEvent} */ e) => this.key(e);
    document.addEventListener('keydown', this.onKey);
    this.onVisible = () => {
      if (!document.hidden && this.transport && !this.transport.open()) this.transport.connect();
      if (!document.hidden && this.state) this.showTurnInTitle(this.state, sideOf(this.state));
    };
    document.addEventListener('visibilitychange', this.onVisible);
  }

  /**
   * While its tab is hidden, the page's title says it is your move (a
   * slow game's opponent moved); back to the game's title once looked at.
   * @param {GameState} st @param {string | null} mine
   */
  showTurnInTitle(st, mine) {
    if (this.home) return;
    const myMove = st.status === 'active' && (mine === 'w' || mine === 'b') && st.turn === mine;
    const title = myMove && document.hidden ? `\u25CF ${t('lobby.yourTurn')} \u2014 ${t('common.title.game')}` : t('common.title.game');
    if (document.title !== title) document.title = title;
  }

  destroy() {
    this.destroyed = true;
    document.removeEventListener('keydown', this.onKey);
    document.removeEventListener('visibilitychange', this.onVisible);
    this.clocks.stop();
    this.el.sound.destroy();
    this.transport?.close();
    this.chat?.destroy();
  }

  // ---- loading -------------------------------------------------------------

  async loadHome() {
    // Before the first move there is no game: draw the initial position with
    // its legal moves, as if a game against the engine were waiting.
    const st = this.state = homeState(this.level);
    this.renderSetupLine();
    this.render();
    try {
      const view = await api.position(INITIAL_LFEN, 'default');
      if (this.destroyed || !this.home) return;
      Object.assign(st, { legal: view.legal, board: view.board, must_capture: view.must_capture });
      this.render();
    } catch (e) {
      this.showError(messageOf(e));
    }
  }

  renderSetupLine() {
    // The engine's level is the one the New game dialog remembers: one
    // control for it on the site, the dialog's.
    const line = this.el.setupLine;
    line.hidden = !this.home;
    if (!this.home) { line.replaceChildren(); return; }
    let last = null;
    try { last = localStorage.getItem('legion:last'); } catch { /* no storage */ }
    line.replaceChildren(
      h('p.home-about', { 'data-home-about': '' }, t('home.about'), ' ', h('a', { href: '/rules' }, t('home.rulesLink'))),
      h('p.home-about', h('a', { href: '/learn', 'data-home-learn': '' }, t('home.learnLink'))),
      h('p', t('home.intro')),
      last ? h('p.small', h('a', { href: `/g/${last}` }, t('home.lastGame'))) : '');
  }

  /** @param {string} id @param {string | null} invite */
  async loadGame(id, invite) {
    this.renderSetupLine();
    if (invite) await this.actions.claim(id, invite);
    if (this.destroyed) return;
    try {
      this.accept(await api.game(id, this.token));
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) {
        this.showFatal(t('game.noSuchGameTitle'), t('game.noSuchGame'));
        return;
      }
      this.showError(messageOf(e));
    }
    this.connect(id);
  }

  /** @param {string} id */
  connect(id) {
    this.transport?.close();
    this.transport = new Transport(id, () => this.token, {
      current: () => (this.home ? null : this.state),
      onState: (st) => this.accept(st),
      onError: (text) => this.showError(text),
      onOnline: (online) => { this.offline = !online; this.renderStatus(); if (online) this.chat?.reload(); },
      onChat: (msg) => this.chat?.onPush(msg),
    });
    this.transport.connect();
  }

  /** @param {string} text */
  setSeatNote(text) {
    setText(this.el.seatNote, text);
    this.el.seatNote.hidden = !text;
  }

  /**
   * A page with no game to show (a link to a game that does not exist):
   * it says so, and offers only a new game; no board, no game actions.
   * @param {string} title @param {string} text
   */
  showFatal(title, text) {
    this.state = null;
    const el = this.el;
    el.boardCol.hidden = true;
    el.movesPanel.hidden = true;
    for (const b of el.actionsPanel.querySelectorAll('button, a')) /** @type {HTMLElement} */ (b).hidden = b !== el.newGame;
    el.status.dataset.gameStatus = 'missing';
    el.status.replaceChildren(h('h2.no-game', title), h('p', text));
    el.statusPanel.dataset.noGame = '';
  }

  // ---- states --------------------------------------------------------------

  /**
   * Takes a state from the server. WebSocket messages arrive in order; an
   * HTTP answer may be older than a state already pushed (the engine's
   * reply can overtake it). The server stamps every state with its time
   * (`now_ms`), so a state a little older than the one shown is dropped
   * (a jump of more than a minute is the server's clock being reset).
   * @param {unknown} raw
   */
  accept(raw) {
    const st = readState(raw);
    const prev = this.state;
    if (prev && !this.home) {
      const age = prev.now_ms - st.now_ms;
      if (age > 0 && age < 60000) return;
    }
    this.state = st;
    this.chat?.setState(st);
    this.clocks.set(st, this.home);
    if (this.pending && st.ply !== this.pending.ply) this.pending = null;
    const same = prev && !this.home && prev.id === st.id;
    if (prev && same) {
      this.withdrawing = announce(prev, st, this.withdrawing);
      const added = st.ply === prev.ply + 1 && st.moves.length === prev.moves.length + 1;
      if (added && this.viewPly === null) this.pendingAnim = { move: st.moves[st.moves.length - 1], before: prev.board };
      soundChange(prev, st);
    }
    if (prev && st.ply !== prev.ply) {
      this.viewPly = null; // new moves bring the view back to the live position
      this.clearConfirm();
    }
    if (prev && st.status !== prev.status) this.clearConfirm(); // nothing left to confirm
    if (this.viewPly !== null && this.viewPly > st.moves.length) this.viewPly = null;
    this.render();
    // A rematch has begun: a seated page follows it with its token.
    if (same && prev && !prev.rematch && st.rematch) this.actions.followRematch(st.rematch);
    else this.tryPremove();
  }

  /** Plays the premove when the turn has come, if it is legal now; else drops it without a word. */
  tryPremove() {
    if (!this.board.premove || this.destroyed) return;
    const st = this.state;
    if (!st || st.status !== 'active' || this.home) {
      this.board.setPremove(null);
      this.board.render();
      return;
    }
    if (!this.canMoveNow()) return;
    const m = this.board.takePremove(st.legal);
    if (m) this.actions.play(m);
    else this.render();
  }

  renderPremove() {
    const p = this.board.premove;
    this.el.premoveNote.hidden = !p;
    if (p) setText(this.el.premoveNote, t(touchScreen() ? 'game.premoveTouch' : 'game.premove', { move: p.join('-') }));
  }

  canMoveNow() {
    const st = this.state;
    if (!st || st.status !== 'active' || this.viewPly !== null || this.pending || st.engine_thinking) return false;
    return st.you === 'both' || st.you === st.turn;
  }

  // ---- drawing -------------------------------------------------------------

  render() {
    const st = this.state;
    if (!st) return;
    const moves = st.moves;
    const viewing = this.viewPly !== null;
    const ply = this.viewPly ?? moves.length;
    const board = boardAt(st, ply);
    const turn = ply === moves.length ? st.turn : moverOf(st, ply);
    /** @type {LegalMove | null} */
    let last = ply ? moves[ply - 1] : null;
    if (!viewing && this.pending && this.pending.move) last = this.pending.move;
    const movable = this.canMoveNow();
    const mine = sideOf(st);
    this.showTurnInTitle(st, mine);
    // Premoves: a seated player (one side) while the other side is to move.
    const premovable = settings().premoves && !this.home && !viewing && st.status === 'active' && !!mine && !movable
      && (st.turn !== mine || !!this.pending);
    const animate = this.pendingAnim;
    this.pendingAnim = null;
    this.board.setFlipped((mine === 'b') !== this.userFlip);
    this.board.set({
      board,
      turn,
      legal: movable ? st.legal : [],
      movable,
      premovable,
      premoveSide: mine,
      // The server's premove squares are for the side not to move: ours
      // while the opponent is to move (not while our own move is on its way).
      premoves: premovable && st.turn !== mine ? st.premoves : null,
      pending: this.pending ? this.pending.move : null,
      lastPath: last ? (last.path.length ? last.path : [last.from, last.to]) : [],
      lastCaptured: last ? last.captured : [],
      checkSquare: checkAt(st, ply) ? kingSquare(board, turn) : null,
      mustCapture: !viewing && !this.pending && movable ? st.must_capture : [],
    }, { animate });
    const v = this.pageView();
    renderPlayers(this.el, st, v);
    renderStatus(this.el, st, v);
    this.el.moveList.set(moves, ply, st.start, kingMates(st));
    this.el.historyNote.hidden = !viewing;
    if (viewing) setText(this.el.historyNote, t('game.history', { ply, total: moves.length }));
    renderButtons(this.el, st, v);
    renderOffers({ draw: this.el.offer, takeback: this.el.takeback }, st, this.home, {
      draw: (action) => this.actions.action(() => api.draw(this.need(), this.token, action)),
      takeback: (action, withdraw) => this.actions.takebackAction(action, withdraw),
    });
    const invite = this.id && seats.getExtra(this.id, 'invite');
    renderInvite(this.el.invite, this.id || '',
      !this.home && st.mode === 'friend' && !!st.you && st.status === 'waiting' ? invite : null);
    this.renderOver();
    this.renderPremove();
    this.clocks.render();
  }

  /** What the page adds to the state to draw it. @returns {import('./game-status.js').PageView} */
  pageView() {
    return {
      id: this.id, home: this.home, level: this.level, offline: this.offline, flipped: this.board.flipped,
      pending: !!this.pending, canMove: this.canMoveNow(), lfen: this.currentLfen(), viewing: this.viewPly,
    };
  }

  renderStatus() {
    if (this.state) renderStatus(this.el, this.state, this.pageView());
  }

  renderOver() {
    const st = this.state;
    const box = this.el.overPanel;
    const show = !!st && !this.home && !!this.id && ended(st);
    box.hidden = !show;
    if (!st || !show) { box.replaceChildren(); delete box.dataset.for; return; }
    renderOver(box, st, { busy: this.rematchBusy, rematch: (a) => this.actions.rematch(a), newGame: () => this.actions.newGame() });
  }

  // ---- actions -------------------------------------------------------------

  /** The game's id; actions exist only once there is a game. */
  need() {
    if (!this.id) throw new Error('no game yet');
    return this.id;
  }

  currentLfen() {
    const st = this.state;
    if (!st) return INITIAL_LFEN;
    return lfenAt(st, this.viewPly ?? st.moves.length);
  }

  /** @param {string} text */
  showError(text) {
    showError(this.el.error, text);
  }

  /** @param {string} question @param {string} yes @param {() => void} fn @param {() => void} [cancelled] */
  confirm(question, yes, fn, cancelled) {
    const box = this.el.confirm;
    box.hidden = false;
    box.replaceChildren(h('span', question),
      h('button.danger', { type: 'button', onclick: () => { this.clearConfirm(); fn(); } }, yes),
      h('button', { type: 'button', onclick: () => { this.clearConfirm(); cancelled?.(); } }, t('common.cancel')));
    box.querySelector('button')?.focus();
  }

  clearConfirm() {
    this.el.confirm.hidden = true;
    this.el.confirm.replaceChildren();
  }

  flip() {
    this.userFlip = !this.userFlip;
    this.render();
  }

  // ---- history navigation --------------------------------------------------

  /** @param {number | null} ply */
  goTo(ply) {
    const st = this.state;
    const n = st ? st.moves.length : 0;
    if (ply !== null && ply >= n) ply = null;
    if (ply !== null && ply < 0) ply = 0;
    if (ply === this.viewPly) return;
    // One move forward: it is played on the board, as it was in the game.
    const from = this.viewPly === null ? n : this.viewPly;
    const to = ply === null ? n : ply;
    if (st && to === from + 1) this.pendingAnim = { move: st.moves[from], before: boardAt(st, from) };
    this.viewPly = ply;
    this.board.clearSelection();
    this.render();
  }

  /** @param {number} d */
  step(d) {
    const n = this.state ? this.state.moves.length : 0;
    const cur = this.viewPly === null ? n : this.viewPly;
    this.goTo(Math.max(0, Math.min(n, cur + d)));
  }

  /** @param {KeyboardEvent} e */
  key(e) {
    if (typingIn(e) || e.altKey || e.ctrlKey || e.metaKey) return;
    if (document.querySelector('dialog[open]')) return;
    if (e.key === 'ArrowLeft') this.step(-1);
    else if (e.key === 'ArrowRight') this.step(1);
    else if (e.key === 'Home') this.goTo(0);
    else if (e.key === 'End') this.goTo(null);
    else if (e.key === 'f') { this.flip(); return; }
    else return;
    e.preventDefault();
  }
}

