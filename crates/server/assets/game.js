// @ts-check
// The game page: `/` (a board ready to play the engine; the first move
// creates the game) and `/g/{id}` (play your seat, or watch).
// The server is the authority: every state it sends is drawn whole, and
// the page keeps only what it needs to draw and to send the next action.

import { api, seats, copyText, ApiError } from './api.js';
import { Board } from './board.js';
import { INITIAL_LFEN, parseLfen } from './lfen.js';
import { h, setText, showError, formatClock, toast, typingIn, sideName, other } from './ui.js';
import { openNewGameDialog } from './newgame.js';
import { MoveList } from './movelist.js';
import { NAV_PATHS as ICONS, pathIcon, icon, s } from './svg.js';
import { t, tServer } from './i18n.js';
import * as sound from './sound.js';

const DEFAULT_LEVEL = 3;

export function mountGame(root, { id, navigate }) {
  const page = new GamePage(root, id, navigate);
  return () => page.destroy();
}

class GamePage {
  constructor(root, id, navigate) {
    this.navigate = navigate;
    this.id = id;
    this.state = null;
    this.viewPly = null; // null: the live position; else a ply of history
    this.userFlip = false;
    this.pending = null; // a move sent and not yet answered: {move, ply}
    this.ws = null;
    this.wsRetry = 0;
    this.destroyed = false;
    this.timers = [];
    this.pendingAnim = null; // a move to animate at the next drawing: {move, before}
    this.lowWarned = new Set(); // sides whose low-time sound has played
    this.leaving = false; // on the way to the rematch
    this.level = storedLevel();
    this.build(root);

    // `?invite=` carries a one-time invite code. A browser that already
    // holds a seat of this game keeps it (the creator opening their own
    // link); otherwise the page claims the seat with the code. Either way
    // the query leaves the address bar, so that sharing it shares only the
    // watch link. Seat tokens themselves never appear in an address.
    const params = new URLSearchParams(location.search);
    const invite = id ? params.get('invite') : null;
    if (id && location.search) history.replaceState(null, '', `/g/${id}${location.hash}`);
    this.token = id ? seats.get(id) : null;
    if (id) this.loadGame(this.token ? null : invite);
    else this.loadHome();

    this.onKey = (e) => this.key(e);
    document.addEventListener('keydown', this.onKey);
    this.onVisible = () => { if (!document.hidden && this.id && !this.wsOpen()) this.connect(); };
    document.addEventListener('visibilitychange', this.onVisible);
    this.clockTimer = setInterval(() => this.renderClocks(), 100);
    this.offSound = sound.onSoundChange(() => this.renderSoundSwitch());
  }

  destroy() {
    this.destroyed = true;
    document.removeEventListener('keydown', this.onKey);
    document.removeEventListener('visibilitychange', this.onVisible);
    clearInterval(this.clockTimer);
    clearTimeout(this.reconnectTimer);
    clearInterval(this.pingTimer);
    this.offSound?.();
    if (this.ws) { this.ws.onclose = null; this.ws.close(); }
  }

  // ---- layout --------------------------------------------------------------

  build(root) {
    this.topPlayer = new PlayerStrip();
    this.bottomPlayer = new PlayerStrip();
    const boardBox = h('div.board-box');
    this.board = new Board(boardBox, {
      label: t('game.boardLabel'),
      onMove: (m) => this.play(m),
      onAttempt: (sq) => this.explain(sq),
      onPremove: () => this.renderPremove(),
    });
    this.status = h('div.status', { 'data-status': '', 'data-turn': 'w', role: 'status', 'aria-live': 'polite' });
    this.phaseNote = h('div.note.phase', { 'data-phase-note': '', hidden: true });
    this.premoveNote = h('div.note.premove-note', { 'data-premove-note': '', hidden: true });
    this.watchNote = h('div.note.watching', { 'data-watching': '', hidden: true }, t('game.watching'));
    this.overPanel = h('section.game-over', { 'data-game-over': '', 'aria-label': t('game.status.gameOver'), hidden: true });
    this.error = h('div.error', { 'data-error': '', role: 'alert', hidden: true });
    this.seatNote = h('div.note.seat-note', { 'data-seat-note': '', hidden: true });
    this.abortNote = h('div.note.abort-note', { 'data-abort-note': '', hidden: true });
    this.offer = h('div.note.offer', { 'data-offer': 'draw', hidden: true });
    this.takebackBox = h('div.note.offer', { 'data-offer': 'takeback', hidden: true });
    this.invite = h('div.invite', { hidden: true });
    this.historyNote = h('div.note.history', { hidden: true });
    this.moveList = new MoveList((ply) => this.goTo(ply));
    this.setupLine = h('div.setup-line');

    const nav = h('div.nav-buttons', { role: 'group', 'aria-label': t('game.nav.label') },
      this.navBtn(ICONS.first, t('game.nav.first'), () => this.goTo(0)),
      this.navBtn(ICONS.prev, t('game.nav.prev'), () => this.step(-1)),
      this.navBtn(ICONS.next, t('game.nav.next'), () => this.step(1)),
      this.navBtn(ICONS.last, t('game.nav.live'), () => this.goTo(null)));

    this.moveInput = h('input', { type: 'text', id: 'move-input', autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false', placeholder: t('game.moveInput.placeholder') });
    const moveForm = this.moveForm = h('form.move-form', { onsubmit: (e) => { e.preventDefault(); this.typedMove(); } },
      h('label.sr-only', { for: 'move-input' }, t('game.moveInput.label')), this.moveInput, this.movePlay = h('button', { type: 'submit' }, t('game.moveInput.play')));

    this.btn = {
      newGame: h('button.primary', { type: 'button', onclick: () => this.newGame() }, t('game.btn.newGame')),
      undo: h('button', { type: 'button', onclick: () => this.undo() }, t('game.btn.undo')),
      takeback: h('button', { type: 'button', onclick: () => this.askTakeback(), title: t('game.btn.takebackTitle') }, t('game.btn.takeback')),
      abort: h('button', { type: 'button', onclick: () => this.abort(), title: t('game.btn.abortTitle') }, t('game.btn.abort')),
      draw: h('button', { type: 'button', onclick: () => this.offerDraw() }, t('game.btn.offerDraw')),
      resign: h('button', { type: 'button', onclick: () => this.resign() }, t('game.btn.resign')),
      flip: h('button', { type: 'button', onclick: () => this.flip(), title: t('game.btn.flipTitle') }, t('game.btn.flip')),
      record: h('a.button', { href: '#', download: 'legion-game.pgn' }, t('game.btn.record')),
      lfen: h('button', { type: 'button', onclick: () => this.copyLfen() }, t('game.btn.copyLfen')),
      analyse: h('a.button', { href: '/analysis' }, t('game.btn.analyse')),
      sound: h('button.sound-switch', { type: 'button', 'data-sound-switch': '', title: t('game.sound.title'), onclick: () => sound.setSoundOn(!sound.soundOn()) }),
    };
    this.renderSoundSwitch();
    this.confirmBox = h('div.confirm', { hidden: true });

    root.append(h('div.play-layout',
      h('section.board-col', { 'aria-label': t('game.region.board') }, this.topPlayer.el, boardBox, this.bottomPlayer.el),
      h('aside.side-col', { 'aria-label': t('game.region.game') },
        this.statusPanel = h('div.panel.status-panel',
          this.overPanel, this.status, this.watchNote, this.seatNote, this.phaseNote, this.premoveNote, this.abortNote, this.error, this.offer, this.takebackBox,
          this.confirmBox, this.setupLine, this.invite),
        h('div.panel.moves-panel', this.moveList.el, this.historyNote, nav, moveForm),
        h('div.panel.actions', this.btn.newGame, this.btn.undo, this.btn.takeback, this.btn.abort, this.btn.draw, this.btn.resign,
          this.btn.flip, this.btn.record, this.btn.lfen, this.btn.analyse, this.btn.sound))));
  }

  /** The sound switch: a toggle button, pressed while sounds are on. */
  renderSoundSwitch() {
    const on = sound.soundOn();
    const b = this.btn.sound;
    b.setAttribute('aria-pressed', String(on));
    b.replaceChildren(speaker(on), t('game.sound.label'));
  }

  navBtn(d, label, fn) {
    return h('button.nav', { type: 'button', 'aria-label': label, title: label, onclick: fn }, pathIcon(d));
  }

  // ---- loading -------------------------------------------------------------

  async loadHome() {
    // Before the first move there is no game: draw the initial position with
    // its legal moves, as if a game against the engine were waiting.
    this.home = true;
    this.state = homeState(this.level);
    this.renderSetupLine();
    this.render();
    try {
      const view = await api.position(INITIAL_LFEN, 'default');
      if (this.destroyed || !this.home) return;
      Object.assign(this.state, { legal: view.legal || [], board: view.board || this.state.board, must_capture: view.must_capture || [] });
      this.render();
    } catch (e) {
      this.showError(e.message);
    }
  }

  renderSetupLine() {
    // The engine's level is the one the New game dialog remembers: one
    // control for it on the site, the dialog's.
    this.setupLine.hidden = !this.home;
    if (!this.home) { this.setupLine.replaceChildren(); return; }
    let last = null;
    try { last = localStorage.getItem('legion:last'); } catch { /* no storage */ }
    this.setupLine.replaceChildren(...[
      h('p', t('home.intro')),
      last ? h('p.small', h('a', { href: `/g/${last}` }, t('home.lastGame'))) : null].filter(Boolean));
  }

  async loadGame(invite) {
    this.home = false;
    this.renderSetupLine();
    if (invite) await this.claim(invite);
    if (this.destroyed) return;
    try {
      const st = await api.game(this.id, this.token);
      this.accept(st, { force: true });
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) {
        this.showFatal(t('game.noSuchGame'));
        return;
      }
      this.showError(e.message);
    }
    this.connect();
  }

  /** Claims the invited seat; a used (or wrong) invite leaves the page watching. */
  async claim(invite) {
    try {
      const joined = await api.join(this.id, invite);
      if (this.destroyed || !joined || !joined.token) return;
      this.token = joined.token;
      seats.set(this.id, joined.token);
      try { localStorage.setItem('legion:last', this.id); } catch { /* ignore */ }
    } catch (e) {
      if (e instanceof ApiError && e.status === 409) {
        // The error's code says which 409 this is (docs/API.md).
        this.setSeatNote(e.body && e.body.code === 'server.invite_used'
          ? t('game.seat.inviteUsed')
          : t('game.seat.watchingBecause', { reason: e.message.replace(/\.$/, '') }));
      } else if (e instanceof ApiError && e.status === 403) {
        this.setSeatNote(t('game.seat.inviteInvalid'));
      } else if (!(e instanceof ApiError && e.status === 404)) {
        this.showError(e.message); // 404: loading the game says it
      }
    }
  }

  setSeatNote(text) {
    setText(this.seatNote, text || '');
    this.seatNote.hidden = !text;
  }

  showFatal(text) {
    this.state = null;
    setText(this.status, text);
    this.board.set({ board: {}, legal: [], movable: false });
  }

  // ---- live updates --------------------------------------------------------

  wsOpen() {
    return this.ws && (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING);
  }

  connect() {
    if (this.destroyed || !this.id) return;
    clearTimeout(this.reconnectTimer);
    if (this.ws) { this.ws.onclose = null; this.ws.close(); }
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    let ws;
    try {
      ws = new WebSocket(`${proto}//${location.host}/api/games/${encodeURIComponent(this.id)}/ws`);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.wsRetry = 0;
      this.offline = false;
      this.hello();
      this.renderStatus();
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => { if (ws.readyState === WebSocket.OPEN) ws.send('{"type":"ping"}'); }, 25000);
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (!msg || ws !== this.ws) return;
      if (msg.type === 'state' && msg.state) this.accept(msg.state, { live: true });
      else if (msg.type === 'update' && msg.state) this.update(msg);
      else if (msg.type === 'error' && msg.error) this.showError(msg.error);
    };
    ws.onclose = () => {
      clearInterval(this.pingTimer);
      if (this.destroyed) return;
      this.offline = true;
      this.renderStatus();
      this.scheduleReconnect();
    };
    ws.onerror = () => { /* onclose follows and reconnects */ };
  }

  /** Says who we are; the server answers with the whole state. */
  hello() {
    const ws = this.ws;
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: 'hello', token: this.token || null }));
  }

  /**
   * A change pushed by the server: the state without `moves` and `you`, and
   * the move it added (or null). Holding n moves, a state at ply n + 1
   * appends the move; at ply n or less it drops the moves past it; anything
   * else means a message was missed: say hello again for the whole state.
   */
  update(msg) {
    const cur = this.state;
    const st = msg.state;
    if (!cur || this.home || typeof st.ply !== 'number') { this.hello(); return; }
    const n = cur.moves.length;
    let moves;
    if (st.ply === n + 1 && msg.move) moves = [...cur.moves, msg.move];
    else if (st.ply <= n) moves = cur.moves.slice(0, st.ply);
    else { this.hello(); return; }
    this.accept({ ...st, moves, you: cur.you }, { live: true });
  }

  scheduleReconnect() {
    // Back off: 0.5 s, 1 s, 2 s ... up to 15 s; a visible tab retries at once.
    const delay = Math.min(15000, 500 * 2 ** this.wsRetry++);
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => this.connect(), delay);
  }

  /**
   * Takes a state from the server. WebSocket messages arrive in order; an
   * HTTP answer may be older than a state already pushed (the engine's
   * reply can overtake it). The server stamps every state with its time
   * (`now_ms`), so a state a little older than the one shown is dropped.
   * Without stamps, an HTTP answer wins only if it is not behind in moves
   * (or when `force`d: an undo goes back on purpose).
   */
  accept(st, { force = false, live = false } = {}) {
    if (!st || typeof st !== 'object' || !st.board) return;
    const cur = this.state;
    if (cur && !this.home) {
      const age = typeof st.now_ms === 'number' && typeof cur.now_ms === 'number' ? cur.now_ms - st.now_ms : null;
      // (A jump of more than a minute is the server's clock being reset.)
      if (age !== null) { if (age > 0 && age < 60000) return; }
      else if (!live && !force && typeof st.ply === 'number' && st.ply < cur.ply) return;
    }
    const prev = this.state;
    this.state = normalise(st);
    this.stateAt = performance.now(); // the clocks count down from here
    if (this.pending && this.state.ply !== this.pending.ply) this.pending = null;
    const same = prev && !this.home && prev.id === this.state.id;
    if (same) {
      this.announce(prev, this.state);
      this.react(prev, this.state);
    }
    if (prev && this.state.ply !== prev.ply) {
      this.viewPly = null; // new moves bring the view back to the live position
      this.clearConfirm();
    }
    if (prev && this.state.status !== prev.status) this.clearConfirm(); // nothing left to confirm
    if (this.viewPly !== null && this.viewPly > this.state.moves.length) this.viewPly = null;
    this.render();
    // A rematch has begun: a seated page follows it with its token.
    if (same && !prev.rematch && this.state.rematch) this.followRematch(this.state.rematch);
    else this.tryPremove();
  }

  /**
   * What a change looks and sounds like: the move it added slides in (from
   * the live position shown until now), with its sound; the end of the
   * game has its own.
   */
  react(prev, st) {
    const added = st.ply === prev.ply + 1 && st.moves.length === prev.moves.length + 1 ? st.moves[st.moves.length - 1] : null;
    let moved = false;
    if (added) {
      if (this.viewPly === null) this.pendingAnim = { move: added, before: prev.board };
      const kingGone = ['w', 'b'].some((c) => prev.kings && prev.kings[c] && st.kings && st.kings[c] === false);
      sound.play(kingGone ? 'kingRemoved' : st.check ? 'check' : (added.captured || []).length ? 'capture' : 'move');
      moved = true;
    }
    const ended = (s) => s === 'over' || s === 'aborted';
    if (ended(st.status) && !ended(prev.status)) sound.play('end', moved ? 0.35 : 0);
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
    if (m) this.play(m);
    else this.render();
  }

  renderPremove() {
    const p = this.board.premove;
    this.premoveNote.hidden = !p;
    if (p) setText(this.premoveNote, t('game.premove', { move: p.join('-') }));
  }

  /** Goes to the rematch, taking this seat's token along (it stays valid there). */
  followRematch(id) {
    if (this.leaving || this.destroyed) return;
    if (!this.token) { this.render(); return; } // watchers get a link in the panel
    this.leaving = true;
    if (!seats.get(id)) seats.set(id, this.token);
    try { localStorage.setItem('legion:last', id); } catch { /* ignore */ }
    // After this message's handling: the page is replaced.
    setTimeout(() => this.navigate(`/g/${id}`), 0);
  }

  /** Toasts for what the opponent did to our offers. */
  announce(prev, st) {
    const mine = this.mySide();
    if (!mine || st.mode !== 'friend') return;
    const stillPlaying = st.status === 'active' && prev.status === 'active';
    const theirs = other(mine);
    if (st.takeback_offer === theirs && prev.takeback_offer !== theirs) toast(t('game.toast.takebackAsked'));
    else if (st.draw_offer === theirs && prev.draw_offer !== theirs) toast(t('game.toast.drawOffered'));
    if (prev.draw_offer === mine && !st.draw_offer && stillPlaying && st.ply === prev.ply) toast(t('game.toast.drawDeclined'));
    if (prev.takeback_offer === mine && !st.takeback_offer) {
      if (this.withdrawing) this.withdrawing = false; // we cancelled it ourselves
      else if (stillPlaying && st.ply < prev.ply) toast(t('game.toast.takebackAccepted'));
      else if (stillPlaying && st.ply === prev.ply) toast(t('game.toast.takebackDeclined'));
    }
    if (st.rematch_offer === theirs && prev.rematch_offer !== theirs && !st.rematch) toast(t('game.over.rematchFromOpponent'));
    if (prev.rematch_offer === mine && !st.rematch_offer && !st.rematch) {
      if (this.withdrawing) this.withdrawing = false;
      else toast(t('game.over.rematchDeclined'));
    }
  }

  // ---- drawing -------------------------------------------------------------

  mySide() {
    const you = this.state && this.state.you;
    return you === 'w' || you === 'b' ? you : null;
  }

  canMoveNow() {
    const st = this.state;
    if (!st || st.status !== 'active' || this.viewPly !== null || this.pending || st.engine_thinking) return false;
    return st.you === 'both' || st.you === st.turn;
  }

  render() {
    const st = this.state;
    if (!st) return;
    const moves = st.moves;
    const viewing = this.viewPly !== null;
    let board = st.board;
    let last = moves[moves.length - 1];
    let checkSquare = st.check ? kingSquare(st.board, st.turn) : null;
    let turn = st.turn;
    if (viewing) {
      const lfen = this.viewPly === 0 ? st.start : moves[this.viewPly - 1].lfen;
      try {
        const pos = parseLfen(lfen);
        board = pos.board;
        turn = pos.turn;
      } catch { board = {}; }
      last = this.viewPly ? moves[this.viewPly - 1] : null;
      checkSquare = last && /[+#]$/.test(last.human || '') ? kingSquare(board, turn) : null;
    } else if (this.pending && this.pending.move) {
      last = this.pending.move;
    }
    const movable = this.canMoveNow();
    const mine = this.mySide();
    // Premoves: a seated player (one side) while the other side is to move.
    const premovable = !this.home && !viewing && st.status === 'active' && !!mine && !movable
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
      premoves: premovable && st.turn !== mine ? st.premoves || {} : null,
      pending: this.pending ? this.pending.move : null,
      lastPath: last ? last.path || [last.from, last.to] : [],
      lastCaptured: last ? last.captured || [] : [],
      checkSquare,
      mustCapture: !viewing && !this.pending && movable ? st.must_capture : [],
    }, { animate });
    this.renderPlayers();
    this.renderStatus();
    this.moveList.set(moves, viewing ? this.viewPly : moves.length, st.start, kingMates(st));
    this.historyNote.hidden = !viewing;
    if (viewing) setText(this.historyNote, t('game.history', { ply: this.viewPly, total: moves.length }));
    this.renderButtons();
    this.renderOffer();
    this.renderInvite();
    this.renderOver();
    this.renderPremove();
    this.renderClocks();
  }

  renderPlayers() {
    const st = this.state;
    const bottom = this.board.flipped ? 'b' : 'w';
    /** @type {[PlayerStrip, string][]} */
    const strips = [[this.bottomPlayer, bottom], [this.topPlayer, other(bottom)]];
    for (const [strip, side] of strips) {
      strip.set({
        side,
        name: playerName(st, side, this.home),
        thinking: st.engine_thinking && st.engine_color === side,
        toMove: st.status === 'active' && st.turn === side,
        kingGone: st.kings && st.kings[side] === false,
      });
    }
  }

  renderStatus() {
    const st = this.state;
    if (!st) return;
    this.status.dataset.turn = st.turn;
    let text;
    const reason = tServer(st.reason_i18n, st.reason);
    if (st.status === 'over') {
      text = t('game.status.over', { result: resultWords(st.result), reason: reason || t('game.status.overNoReason') });
    } else if (st.status === 'aborted') {
      // The reason usually begins "Aborted by White ..." ("Партия отменена ..."): say it once.
      const why = (reason || '')
        .replace(/^\s*(the\s+)?(game\s+)?(was\s+)?aborted\b[\s:,.—–-]*/i, '')
        .replace(/^\s*(партия\s+)?(отменена|прервана)(?=[\s:,.—–-]|$)[\s:,.—–-]*/i, '');
      text = why ? t('game.status.abortedWhy', { reason: why }) : t('game.status.aborted');
    } else if (this.home) {
      text = t('home.status', { level: this.level });
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
      else if ((st.must_capture || []).length && (you === st.turn || you === 'both')) text += ' ' + t('game.status.mustCapture');
    }
    if (this.offline && this.id) text += ' ' + t('game.status.offline');
    setText(this.status, text);
    // Once the game has ended the game-over panel shows the result; the
    // status line stays for screen readers.
    const ended = !this.home && (st.status === 'over' || st.status === 'aborted');
    this.status.classList.toggle('sr-only', ended);
    this.statusPanel.classList.toggle('ended', ended);
    this.statusPanel.dataset.result = st.status === 'aborted' ? 'aborted' : st.result || '';
    this.status.classList.toggle('over', st.status === 'over');
    this.status.classList.toggle('aborted', st.status === 'aborted');
    this.status.dataset.gameStatus = this.home ? 'home' : st.status;

    const phase = phaseWords(st);
    this.phaseNote.hidden = !phase;
    const phaseKey = phase ? phase.join('|') : '';
    if (this.phaseNote.dataset.for !== phaseKey) {
      this.phaseNote.dataset.for = phaseKey;
      this.phaseNote.replaceChildren(...(phase ? [h('strong', phase[0]), phase[1] ? ' ' + phase[1] : ''] : []));
    }
    // Watchers are told so; while a game is on, the status line says it.
    this.watchNote.hidden = !(this.id && !this.home && !st.you && (st.status === 'over' || st.status === 'aborted'));
  }

  renderButtons() {
    const st = this.state;
    const seated = !!st.you && !this.home;
    const active = st.status === 'active';
    const b = this.btn;
    const mine = this.mySide();
    b.undo.hidden = !(seated && active && (st.mode === 'engine' || st.mode === 'local'));
    b.undo.disabled = !st.moves.length || st.engine_thinking || !!this.pending;
    // While a request is open its box (below the status) says what to do.
    b.takeback.hidden = !(seated && active && st.mode === 'friend' && mine && movesBy(st, mine) > 0 && !st.takeback_offer);
    b.takeback.disabled = !!this.pending;
    // The creator of a friend game may call it off while waiting, too.
    b.abort.hidden = !(seated && (active || st.status === 'waiting') && st.moves.length < 2);
    b.abort.disabled = !!this.pending || st.engine_thinking;
    b.resign.hidden = !(seated && active);
    b.draw.hidden = !(seated && active);
    b.draw.disabled = st.draw_offer === this.mySide() && st.mode === 'friend';
    setText(b.draw, t(st.mode === 'local' ? 'game.btn.agreeDraw' : st.draw_offer && st.draw_offer === this.mySide() ? 'game.btn.drawOffered' : 'game.btn.offerDraw'));
    b.record.hidden = this.home;
    if (this.id) {
      b.record.href = `/api/games/${encodeURIComponent(this.id)}/record`;
      b.record.setAttribute('download', `legion-${this.id}.pgn`);
    }
    const lfen = this.currentLfen();
    b.analyse.href = `/analysis?lfen=${encodeURIComponent(lfen)}${st.rules === 'mate-ends-game' ? '&rules=mate-ends-game' : ''}`;
    // The move box is for the players of a game under way, not for watchers.
    this.moveForm.hidden = !(this.home || (seated && active));
    // The box stays open while the opponent thinks (the next move can be
    // typed meanwhile, and the focus stays there); Play waits for the turn.
    this.movePlay.disabled = !this.canMoveNow();
  }

  /**
   * The end of the game: the result and its reason (with its rule), and
   * what to do next: a rematch (for the players), this game on the
   * analysis board, a new game.
   */
  renderOver() {
    const st = this.state;
    const box = this.overPanel;
    const ended = !this.home && !!this.id && (st.status === 'over' || st.status === 'aborted');
    box.hidden = !ended;
    if (!ended) { box.replaceChildren(); delete box.dataset.for; return; }
    const mine = this.mySide();
    const seated = !!st.you;
    const key = [st.id, st.status, st.result, st.rematch_offer, st.rematch, st.you, this.rematchBusy ? 1 : 0].join('|');
    if (box.dataset.for === key) return;
    box.dataset.for = key;
    // The result, big; the reason says who won and how, with its rule.
    const aborted = st.status === 'aborted';
    box.dataset.result = aborted ? 'aborted' : st.result;
    const reason = tServer(st.reason_i18n, st.reason);
    const parts = [
      h('h2.over-title', aborted ? null : h('span.over-score', resultWords(st.result)), h('span', t(aborted ? 'game.over.aborted' : 'game.status.gameOver'))),
      reason ? h('p.over-reason', { 'data-reason': '' }, reason) : null,
    ];
    // The rematch: against the engine or on one device it starts at once;
    // between two people it is asked for and accepted.
    const busy = !!this.rematchBusy;
    const rematchBtn = (label, action, cls = 'button.primary') => h(cls, {
      type: 'button', 'data-rematch': action, disabled: busy, onclick: () => this.rematch(action),
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
      h('button', { type: 'button', onclick: () => this.newGame() }, t('game.btn.newGame')));
    box.replaceChildren(...parts.filter(Boolean), rematchRow || '', buttons);
  }

  async rematch(action) {
    const st = this.state;
    if (!st || this.rematchBusy || this.leaving) return;
    this.showError('');
    this.rematchBusy = true;
    if (action === 'decline' && st.rematch_offer === this.mySide()) this.withdrawing = true;
    this.renderOver();
    try {
      const res = await api.rematch(this.id, this.token, st.mode === 'friend' ? action : null);
      this.rematchBusy = false;
      if (this.destroyed) return;
      if (res && res.id && res.token) {
        // The rematch has started (201): the same token holds the other colour there.
        seats.set(res.id, res.token);
        this.followRematch(res.id);
      } else if (res && res.board) {
        this.accept(res);
      }
    } catch (e) {
      this.rematchBusy = false;
      this.withdrawing = false;
      this.showError(e.message);
      if (e instanceof ApiError && e.status === 409) this.refresh();
      else this.renderOver();
    }
  }

  renderOffer() {
    const st = this.state;
    const mine = this.mySide();
    const active = st.status === 'active' && !this.home;
    // A draw offered to us: accept or decline.
    const draw = active && st.draw_offer && mine && st.draw_offer !== mine ? `draw:${st.draw_offer}` : '';
    fillBox(this.offer, draw, () => [
      h('span', st.mode === 'friend' ? t('game.offer.drawFromOpponent') : t('game.offer.drawFromSide', { side: st.draw_offer })),
      h('span.offer-buttons',
        h('button.primary', { type: 'button', onclick: () => this.drawAction('accept') }, t('game.offer.accept')),
        h('button', { type: 'button', onclick: () => this.drawAction('decline') }, t('game.offer.decline')))]);
    // A takeback: the opponent asks us, or we asked and may cancel.
    const tb = st.takeback_offer;
    let takeback = '';
    if (active && st.mode === 'friend' && tb && mine) takeback = tb === mine ? 'takeback:asked' : 'takeback:asking';
    fillBox(this.takebackBox, takeback, () => (takeback === 'takeback:asking'
      ? [h('span', t('game.offer.takebackFromOpponent')),
        h('span.offer-buttons',
          h('button.primary', { type: 'button', onclick: () => this.takebackAction('accept') }, t('game.offer.accept')),
          h('button', { type: 'button', onclick: () => this.takebackAction('decline') }, t('game.offer.decline')))]
      : [h('span', t('game.offer.takebackRequested')),
        h('span.offer-buttons',
          h('button', { type: 'button', onclick: () => this.takebackAction('decline', { withdraw: true }) }, t('game.offer.cancelRequest')))]));
  }

  renderInvite() {
    const st = this.state;
    const invite = this.id && seats.getExtra(this.id, 'invite');
    const show = !this.home && st.mode === 'friend' && !!invite && !!st.you && st.status === 'waiting';
    this.invite.hidden = !show;
    if (!show) return;
    if (this.invite.dataset.for === invite && this.invite.childElementCount) return;
    this.invite.dataset.for = invite;
    const link = `${location.origin}/g/${this.id}?invite=${encodeURIComponent(invite)}`;
    const watch = `${location.origin}/g/${this.id}`;
    this.invite.replaceChildren(
      h('p', h('strong', t('game.invite.title')), ' ', t('game.invite.text')),
      copyRow(link, 'invite-link', t('game.invite.link'), { wrap: true }),
      h('p.small', t('game.invite.watchText')),
      copyRow(watch, 'watch-link', t('game.invite.watchLink')));
  }

  /**
   * The server sends the time left at the moment it sent the state; the
   * running side's clock is that minus the time since the state arrived
   * here (the two machines' clocks are never compared).
   */
  renderClocks() {
    const st = this.state;
    if (!st) return;
    const c = st.clock;
    const since = performance.now() - (this.stateAt || performance.now());
    for (const strip of [this.topPlayer, this.bottomPlayer]) {
      if (!c) { strip.setClock(null); continue; }
      let ms = strip.side === 'w' ? c.w_ms : c.b_ms;
      const running = c.running === strip.side && st.status === 'active';
      if (running) ms -= since;
      strip.setClock(ms, running);
      // Under ten seconds on one's own running clock: one warning a game.
      const own = st.you === 'both' || st.you === strip.side;
      if (running && own && !this.home && ms > 0 && ms < 10000 && !this.lowWarned.has(strip.side)) {
        this.lowWarned.add(strip.side);
        sound.play('lowTime');
      }
    }
    const abortIn = typeof st.abort_in_ms === 'number' && st.status === 'active' && !this.home ? st.abort_in_ms - since : null;
    this.abortNote.hidden = abortIn === null;
    if (abortIn !== null) {
      setText(this.abortNote, t(st.you === st.turn ? 'game.abortNote.you' : 'game.abortNote.other', { side: st.turn, time: formatCountdown(abortIn) }));
    }
  }

  // ---- actions -------------------------------------------------------------

  currentLfen() {
    const st = this.state;
    if (!st) return INITIAL_LFEN;
    if (this.viewPly === null) return st.lfen;
    return this.viewPly === 0 ? st.start : st.moves[this.viewPly - 1].lfen;
  }

  /**
   * Sends a move: a legal move picked on the board (its squares light up
   * at once), or the text typed in the move box, which the server reads
   * and, if it is refused, explains like a clicked one, with the rule.
   * The server's answer draws the new position; no second move is taken
   * meanwhile. Resolves true when the move was played.
   */
  async play(move, { text = null } = {}) {
    const st = this.state;
    if (!this.canMoveNow()) return false;
    this.showError('');
    this.pending = { move, ply: st.ply };
    this.render();
    try {
      // On the home page the first move creates the game against the engine.
      if (this.home) await this.startFromHome();
      if (this.destroyed) return false;
      const next = await api.move(this.id, this.token, text ?? move.canonical, this.state.ply);
      this.pending = null;
      this.accept(next);
      return true;
    } catch (e) {
      this.pending = null;
      if (this.destroyed) return false;
      this.showError(e.message);
      if (e instanceof ApiError && e.status === 409) this.refresh();
      else this.render();
      return false;
    }
  }

  async startFromHome() {
    const created = await api.createGame({ mode: 'engine', color: 'white', level: this.level, rules: 'default' });
    if (this.destroyed) return;
    this.adopt(created);
    history.replaceState(null, '', `/g/${created.id}`);
    document.title = t('common.title.game');
    this.home = false;
    this.renderSetupLine();
    this.state = normalise(created.state);
    this.connect();
  }

  adopt(created) {
    this.id = created.id;
    this.token = created.token;
    seats.set(created.id, created.token);
    if (created.invite) seats.setExtra(created.id, 'invite', created.invite);
    try { localStorage.setItem('legion:last', created.id); } catch { /* ignore */ }
  }

  async refresh() {
    if (!this.id) return;
    try { this.accept(await api.game(this.id, this.token), { force: true }); } catch (e) { this.showError(e.message); }
  }


  async explain(squares) {
    const st = this.state;
    if (!st || !this.canMoveNow()) return;
    try {
      const r = this.home
        ? await api.explain(st.lfen, st.rules, squares)
        : await api.explainInGame(this.id, this.token, squares);
      if (r && r.legal && r.move) {
        const m = st.legal.find((x) => x.canonical === r.move.canonical) || r.move;
        this.play(m);
      } else if (r && r.error) {
        this.showError(r.error);
      }
    } catch (e) {
      this.showError(e.message);
    }
  }

  /** The move box: what was typed goes to the server as it is; a refusal keeps the text to correct. */
  async typedMove() {
    const text = this.moveInput.value.trim();
    if (!text || !this.canMoveNow()) return;
    if (await this.play(null, { text })) {
      this.moveInput.value = '';
      if (document.activeElement === document.body) this.moveInput.focus();
    } else {
      this.moveInput.focus();
      this.moveInput.select();
    }
  }

  showError(text) {
    showError(this.error, text);
  }

  /**
   * Runs a request that answers with the game's state, and shows it.
   * @param {() => Promise<any>} fn
   * @param {{after?: (st: any) => void, force?: boolean, failed?: (e: Error) => void}} [options]
   */
  async action(fn, { after, force = false, failed } = {}) {
    this.showError('');
    try {
      const st = await fn();
      this.accept(st, { force });
      after?.(st);
    } catch (e) {
      failed?.(e);
      this.showError(e.message);
      if (e instanceof ApiError && e.status === 409) this.refresh();
    }
  }

  undo() {
    this.clearConfirm();
    this.action(() => api.undo(this.id, this.token), { force: true });
  }

  abort() {
    this.confirm(t('game.confirm.abort'), t('game.confirm.abortYes'), () => this.action(() => api.abort(this.id, this.token)));
  }

  askTakeback() {
    this.clearConfirm();
    this.action(() => api.takeback(this.id, this.token, 'offer'));
  }

  takebackAction(action, { withdraw = false } = {}) {
    if (withdraw) this.withdrawing = true;
    this.action(() => api.takeback(this.id, this.token, action), {
      force: action === 'accept',
      failed: () => { this.withdrawing = false; },
    });
  }

  resign() {
    this.confirm(t('game.confirm.resign'), t('game.confirm.resignYes'), () => this.action(() => api.resign(this.id, this.token)));
  }

  offerDraw() {
    const st = this.state;
    if (st.mode === 'local') {
      // One device holds both seats: offering and accepting is one decision.
      this.confirm(t('game.confirm.draw'), t('game.confirm.drawYes'), () => this.action(async () => {
        const s = await api.draw(this.id, this.token, 'offer');
        if (s.status === 'active' && s.draw_offer) return api.draw(this.id, this.token, 'accept');
        return s;
      }));
      return;
    }
    this.action(() => api.draw(this.id, this.token, 'offer'), {
      after: (s) => {
        if (st.mode === 'engine' && s.status === 'active') toast(t('game.toast.engineDeclinesDraw'));
        else if (s.status === 'active') toast(t('game.toast.youOfferedDraw'));
      },
    });
  }

  drawAction(action) {
    this.action(() => api.draw(this.id, this.token, action));
  }

  confirm(question, yes, fn) {
    this.confirmBox.hidden = false;
    this.confirmBox.replaceChildren(h('span', question),
      h('button.danger', { type: 'button', onclick: () => { this.clearConfirm(); fn(); } }, yes),
      h('button', { type: 'button', onclick: () => this.clearConfirm() }, t('common.cancel')));
    this.confirmBox.querySelector('button').focus();
  }

  clearConfirm() {
    this.confirmBox.hidden = true;
    this.confirmBox.replaceChildren();
  }

  flip() {
    this.userFlip = !this.userFlip;
    this.render();
  }

  async copyLfen() {
    const ok = await copyText(this.currentLfen());
    toast(ok ? t('common.lfenCopied') : t('common.copyFailedText', { text: this.currentLfen() }));
  }

  newGame() {
    openNewGameDialog({
      level: storedLevel(),
      onCreated: (created) => {
        this.adopt(created);
        this.navigate(`/g/${created.id}`);
      },
    });
  }

  // ---- history navigation --------------------------------------------------

  goTo(ply) {
    const st = this.state;
    const n = st ? st.moves.length : 0;
    if (ply !== null && ply >= n) ply = null;
    if (ply !== null && ply < 0) ply = 0;
    if (ply === this.viewPly) return;
    // One move forward: it is played on the board, as it was in the game.
    const from = this.viewPly === null ? n : this.viewPly;
    const to = ply === null ? n : ply;
    if (st && to === from + 1) {
      const before = boardAt(st, from);
      if (before) this.pendingAnim = { move: st.moves[from], before };
    }
    this.viewPly = ply;
    this.board.clearSelection();
    this.render();
  }

  step(d) {
    const n = this.state ? this.state.moves.length : 0;
    const cur = this.viewPly === null ? n : this.viewPly;
    this.goTo(Math.max(0, Math.min(n, cur + d)));
  }

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

// ---- pieces of the page -------------------------------------------------------

class PlayerStrip {
  constructor() {
    this.name = h('span.name');
    this.flag = h('span.flag');
    this.clock = h('span.clock', { hidden: true, 'aria-label': t('game.clock'), 'data-clock': '' });
    this.el = h('div.player', h('span.swatch'), this.name, this.flag, this.clock);
    this.side = 'w';
  }

  set({ side, name, thinking, toMove, kingGone }) {
    this.side = side;
    this.el.dataset.side = side;
    setText(this.name, name);
    setText(this.flag, thinking ? t('game.player.thinking') : kingGone ? t('game.player.noKing') : '');
    this.el.classList.toggle('to-move', !!toMove);
    this.el.classList.toggle('thinking', !!thinking);
  }

  setClock(ms, running) {
    if (ms === null || ms === undefined) { this.clock.hidden = true; return; }
    this.clock.hidden = false;
    setText(this.clock, formatClock(ms));
    const whole = String(Math.max(0, Math.round(ms)));
    if (this.clock.dataset.ms !== whole) this.clock.dataset.ms = whole; // for tests: the exact time shown
    this.clock.classList.toggle('running', !!running);
    this.clock.classList.toggle('low', ms < 20000);
  }
}

/** A read-only link with a Copy button; `wrap` shows a long link whole. */
function copyRow(text, id, label, { wrap = false } = {}) {
  const input = wrap
    ? h('textarea.link', { readonly: true, rows: 3, id, 'aria-label': label, spellcheck: 'false', onfocus: (e) => e.target.select() }, text)
    : h('input', { type: 'text', readonly: true, value: text, id, 'aria-label': label, onfocus: (e) => e.target.select() });
  return h('div.copy-row', input, h('button', {
    type: 'button',
    onclick: async () => toast((await copyText(text)) ? t('game.invite.copied') : t('game.invite.copyFailed')),
  }, t('common.copy')));
}

function homeState(level) {
  const pos = parseLfen(INITIAL_LFEN);
  return {
    id: null, mode: 'engine', rules: 'default', level, engine_color: 'b', start: INITIAL_LFEN, lfen: INITIAL_LFEN,
    turn: 'w', ply: 0, moves: [], board: pos.board, status: 'active', result: '*', reason: null, check: false,
    kings: { w: true, b: true }, phase: 1, phase_one: null, legal: [], must_capture: [], premoves: {}, draw_offer: null,
    takeback_offer: null, clock: null, abort_in_ms: null, engine_thinking: false, you: 'w',
  };
}

/** Fills in what a reply may lack so drawing never trips on a missing field. */
function normalise(st) {
  return {
    ...st,
    moves: Array.isArray(st.moves) ? st.moves : [],
    legal: Array.isArray(st.legal) ? st.legal : [],
    must_capture: Array.isArray(st.must_capture) ? st.must_capture : [],
    premoves: st.premoves && typeof st.premoves === 'object' ? st.premoves : {},
    board: st.board || {},
    kings: st.kings || { w: true, b: true },
    ply: typeof st.ply === 'number' ? st.ply : (st.moves || []).length,
    start: st.start || INITIAL_LFEN,
    lfen: st.lfen || INITIAL_LFEN,
    turn: st.turn === 'b' ? 'b' : 'w',
  };
}

/** The number of moves `side` has made in the game. */
function movesBy(st, side) {
  const first = (st.start || '').split(/\s+/)[1] === 'b' ? 'b' : 'w';
  const n = st.moves.length;
  const firstCount = Math.ceil(n / 2);
  return side === first ? firstCount : n - firstCount;
}

/** Fills an offer box with `make()` when `key` changes; hides it when empty. */
function fillBox(box, key, make) {
  box.hidden = !key;
  if (!key) { box.replaceChildren(); delete box.dataset.for; return; }
  if (box.dataset.for === key && box.childElementCount) return;
  box.dataset.for = key;
  box.replaceChildren(...make());
}

/** 0:42 — whole seconds, rounded up, for the abort countdown. */
function formatCountdown(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}

/** The board after `ply` moves of the game (0: the start), or null. */
function boardAt(st, ply) {
  if (ply === st.moves.length) return st.board;
  try { return parseLfen(ply === 0 ? st.start : st.moves[ply - 1].lfen).board; } catch { return null; }
}

function kingSquare(board, side) {
  for (const [sq, o] of Object.entries(board)) if (o.piece === side + 'K') return sq;
  return null;
}

function playerName(st, side, home) {
  if (st.mode === 'engine') {
    if (st.engine_color === side) return t('game.player.engine', { level: st.level ?? DEFAULT_LEVEL, side });
    return t(home || st.you === side ? 'game.player.you' : 'game.player.player', { side });
  }
  if (st.mode === 'local') return sideName(side);
  if (st.you === side) return t('game.player.you', { side });
  return st.you ? t('game.player.friend', { side }) : sideName(side);
}

function resultWords(result) {
  if (result === '1-0') return '1-0';
  if (result === '0-1') return '0-1';
  if (result === '1/2-1/2') return '½-½';
  return t('game.status.gameOver');
}

/** The Phase 2 note: [headline, details], or null while both Kings stand. */
function phaseWords(st) {
  if (!st.kings || (st.kings.w && st.kings.b)) return null;
  const gone = ['w', 'b'].filter((c) => !st.kings[c]);
  if (gone.length === 2) return [t('game.phase.bothGone')];
  const p = st.phase_one;
  const args = { side: gone[0], winner: other(gone[0]), move: p && p.move };
  return [t('game.moves.kingMated', { side: gone[0] }), t(p && p.move ? 'game.phase.oneGoneOnMove' : 'game.phase.oneGone', args)];
}

/**
 * The moves after which a King was mated and left the board (5.1), as
 * {ply: the mated side}: the move `phase_one` names (its winner's move of
 * that number), and any mate (`#`) of a game played on into Phase 2.
 */
function kingMates(st) {
  /** @type {Record<string, string>} */
  const out = {};
  if (st.rules === 'mate-ends-game') return out;
  const fields = (st.start || '').split(/\s+/);
  const first = fields[1] === 'b' ? 'b' : 'w';
  const number = Number(fields[4]) || 1;
  st.moves.forEach((m, i) => {
    const mover = (i % 2 === 0) === (first === 'w') ? 'w' : 'b';
    const fullmove = number + Math.floor((i + (first === 'b' ? 1 : 0)) / 2);
    const p = st.phase_one;
    if ((p && p.winner === mover && p.move === fullmove) || /#$/.test(m.human || '')) out[i + 1] = other(mover);
  });
  return out;
}

/** The engine's level as the New game dialog last left it. */
function storedLevel() {
  let v = null;
  try { v = Number(localStorage.getItem('legion:level')); } catch { /* no storage */ }
  return v >= 1 && v <= 10 ? v : DEFAULT_LEVEL;
}

/** The sound switch's icon: a speaker with waves, or crossed out. */
const speaker = (on) => icon(18,
  s('path', { d: 'M4 9h4l5-4v14l-5-4H4z', fill: 'currentColor' }),
  s('path', {
    d: on ? 'M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12' : 'M16 9l5 6M21 9l-5 6',
    fill: 'none', stroke: 'currentColor', 'stroke-width': 2, 'stroke-linecap': 'round',
  }));
