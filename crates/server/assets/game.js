// The game page: `/` (a board ready to play the engine; the first move
// creates the game) and `/g/{id}` (play your seat, or watch).
// The server is the authority: every state it sends is drawn whole, and
// the page keeps only what it needs to draw and to send the next action.

import { api, seats, copyText, ApiError } from './api.js';
import { Board } from './board.js';
import { INITIAL_LFEN, parseLfen } from './lfen.js';
import { h, setText, showError, formatClock, toast, typingIn, sideName, other } from './ui.js';
import { openNewGameDialog } from './newgame.js';
import { MoveList, ICONS } from './movelist.js';

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
    this.level = Number(localStorage.getItem('legion:level')) || DEFAULT_LEVEL;
    this.build(root);

    // `?seat=` carries a seat's secret: keep it, then drop it from the
    // address so that sharing the address bar shares only the watch link.
    const params = new URLSearchParams(location.search);
    if (id && params.get('seat')) {
      seats.set(id, params.get('seat'));
      history.replaceState(null, '', `/g/${id}`);
    }
    this.token = id ? seats.get(id) : null;
    if (id) this.loadGame();
    else this.loadHome();

    this.onKey = (e) => this.key(e);
    document.addEventListener('keydown', this.onKey);
    this.onVisible = () => { if (!document.hidden && this.id && !this.wsOpen()) this.connect(); };
    document.addEventListener('visibilitychange', this.onVisible);
    this.clockTimer = setInterval(() => this.renderClocks(), 100);
  }

  destroy() {
    this.destroyed = true;
    document.removeEventListener('keydown', this.onKey);
    document.removeEventListener('visibilitychange', this.onVisible);
    clearInterval(this.clockTimer);
    clearTimeout(this.reconnectTimer);
    clearInterval(this.pingTimer);
    if (this.ws) { this.ws.onclose = null; this.ws.close(); }
  }

  // ---- layout --------------------------------------------------------------

  build(root) {
    this.topPlayer = new PlayerStrip();
    this.bottomPlayer = new PlayerStrip();
    const boardBox = h('div.board-box');
    this.board = new Board(boardBox, {
      label: 'Game board',
      onMove: (m) => this.play(m),
      onAttempt: (sq) => this.explain(sq),
    });
    this.status = h('div.status', { 'data-status': '', 'data-turn': 'w', role: 'status', 'aria-live': 'polite' });
    this.phaseNote = h('div.note.phase', { hidden: true });
    this.error = h('div.error', { 'data-error': '', role: 'alert', hidden: true });
    this.offer = h('div.note.offer', { hidden: true });
    this.invite = h('div.invite', { hidden: true });
    this.historyNote = h('div.note.history', { hidden: true });
    this.moveList = new MoveList((ply) => this.goTo(ply));
    this.setupLine = h('div.setup-line');

    const nav = h('div.nav-buttons', { role: 'group', 'aria-label': 'Move navigation' },
      this.navBtn(ICONS.first, 'First position (Home)', () => this.goTo(0)),
      this.navBtn(ICONS.prev, 'Previous move (Left arrow)', () => this.step(-1)),
      this.navBtn(ICONS.next, 'Next move (Right arrow)', () => this.step(1)),
      this.navBtn(ICONS.last, 'Live position (End)', () => this.goTo(null)));

    this.moveInput = h('input', { type: 'text', id: 'move-input', autocomplete: 'off', spellcheck: 'false', placeholder: 'Type a move: Nf3, c3-d4, c3:e5:c7' });
    const moveForm = h('form.move-form', { onsubmit: (e) => { e.preventDefault(); this.typedMove(); } },
      h('label.sr-only', { for: 'move-input' }, 'Type a move'), this.moveInput, h('button', { type: 'submit' }, 'Play'));

    this.btn = {
      newGame: h('button.primary', { type: 'button', onclick: () => this.newGame() }, 'New game'),
      undo: h('button', { type: 'button', onclick: () => this.undo() }, 'Undo'),
      draw: h('button', { type: 'button', onclick: () => this.offerDraw() }, 'Offer draw'),
      resign: h('button', { type: 'button', onclick: () => this.resign() }, 'Resign'),
      flip: h('button', { type: 'button', onclick: () => this.flip(), title: 'Flip the board (f)' }, 'Flip board'),
      record: h('a.button', { href: '#', download: 'legion-game.pgn' }, 'Download record'),
      lfen: h('button', { type: 'button', onclick: () => this.copyLfen() }, 'Copy LFEN'),
      analyse: h('a.button', { href: '/analysis' }, 'Analyse'),
    };
    this.confirmBox = h('div.confirm', { hidden: true });

    root.append(h('div.play-layout',
      h('section.board-col', { 'aria-label': 'Board' }, this.topPlayer.el, boardBox, this.bottomPlayer.el),
      h('aside.side-col', { 'aria-label': 'Game' },
        h('div.panel',
          this.status, this.phaseNote, this.error, this.offer, this.confirmBox, this.setupLine, this.invite),
        h('div.panel.moves-panel', this.moveList.el, this.historyNote, nav, moveForm),
        h('div.panel.actions', this.btn.newGame, this.btn.undo, this.btn.draw, this.btn.resign,
          this.btn.flip, this.btn.record, this.btn.lfen, this.btn.analyse))));
  }

  navBtn(text, label, fn) {
    return h('button.nav', { type: 'button', 'aria-label': label, title: label, onclick: fn, html: text });
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
    if (!this.home) { this.setupLine.replaceChildren(); return; }
    const sel = h('select', { id: 'home-level', onchange: (e) => { this.level = Number(e.target.value); localStorage.setItem('legion:level', String(this.level)); this.state.level = this.level; this.render(); } },
      [...Array(10)].map((_, i) => h('option', { value: i + 1, selected: i + 1 === this.level }, `Level ${i + 1}`)));
    const last = localStorage.getItem('legion:last');
    this.setupLine.replaceChildren(...[
      h('p', 'You play White against the engine. Make your first move to start — or choose another game with ', h('strong', 'New game'), '.'),
      h('div.row', h('label', { for: 'home-level' }, 'Engine strength'), sel),
      last ? h('p.small', h('a', { href: `/g/${last}` }, 'Return to your last game')) : null].filter(Boolean));
  }

  async loadGame() {
    this.home = false;
    this.renderSetupLine();
    try {
      const st = await api.game(this.id, this.token);
      this.accept(st, { force: true });
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) {
        this.showFatal('There is no game at this address. It may have been mistyped.');
        return;
      }
      this.showError(e.message);
    }
    this.connect();
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
    const q = this.token ? `?token=${encodeURIComponent(this.token)}` : '';
    let ws;
    try {
      ws = new WebSocket(`${proto}//${location.host}/api/games/${encodeURIComponent(this.id)}/ws${q}`);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.wsRetry = 0;
      this.offline = false;
      this.renderStatus();
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => { if (ws.readyState === WebSocket.OPEN) ws.send('{"type":"ping"}'); }, 25000);
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg && msg.type === 'state' && msg.state) this.accept(msg.state, { force: true });
      else if (msg && msg.type === 'error' && msg.error) this.showError(msg.error);
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

  scheduleReconnect() {
    // Back off: 0.5 s, 1 s, 2 s ... up to 15 s; a visible tab retries at once.
    const delay = Math.min(15000, 500 * 2 ** this.wsRetry++);
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => this.connect(), delay);
  }

  /**
   * Takes a state from the server. WebSocket states arrive in order and
   * always win; an HTTP answer may be older than a state already pushed
   * (the engine's reply can overtake it), so it wins only if not behind.
   */
  accept(st, { force = false } = {}) {
    if (!st || typeof st !== 'object' || !st.board) return;
    if (!force && this.state && !this.home && typeof st.ply === 'number' && st.ply < this.state.ply) return;
    const prev = this.state;
    this.state = normalise(st);
    this.stateAt = performance.now();
    this.clockLag = clockLag(this.state.clock);
    if (this.pending && this.state.ply !== this.pending.ply) this.pending = null;
    if (prev && this.state.ply !== prev.ply) {
      this.viewPly = null; // new moves bring the view back to the live position
      this.clearConfirm();
    }
    if (this.viewPly !== null && this.viewPly > this.state.moves.length) this.viewPly = null;
    this.render();
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
    } else if (this.pending) {
      last = this.pending.move;
    }
    const movable = this.canMoveNow();
    this.board.set({
      board,
      turn,
      legal: movable ? st.legal : [],
      movable,
      lastPath: last ? last.path || [last.from, last.to] : [],
      lastCaptured: last ? last.captured || [] : [],
      checkSquare,
      mustCapture: !viewing && !this.pending && movable ? st.must_capture : [],
    });
    const mine = this.mySide();
    this.board.setFlipped((mine === 'b') !== this.userFlip);
    this.renderPlayers();
    this.renderStatus();
    this.moveList.set(moves, viewing ? this.viewPly : moves.length, st.start);
    this.historyNote.hidden = !viewing;
    if (viewing) setText(this.historyNote, `Viewing the position after move ${this.viewPly} of ${moves.length}. Press End (or the last arrow button) to return to the game.`);
    this.renderButtons();
    this.renderOffer();
    this.renderInvite();
    this.renderClocks();
  }

  renderPlayers() {
    const st = this.state;
    const bottom = this.board.flipped ? 'b' : 'w';
    for (const [strip, side] of [[this.bottomPlayer, bottom], [this.topPlayer, other(bottom)]]) {
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
    if (st.status === 'over') {
      text = `${resultWords(st.result)} — ${st.reason || 'the game is over'}`;
    } else if (this.home) {
      text = 'Your move: you play White against the engine (level ' + this.level + ').';
    } else {
      const you = st.you;
      const who = sideName(st.turn);
      if (st.engine_thinking) text = 'The engine is thinking…';
      else if (you === st.turn) text = `Your move (${who}).`;
      else if (you === 'both') text = `${who} to move.`;
      else if (you) text = `Waiting for ${who} to move.`;
      else text = `${who} to move. You are watching this game.`;
      if (st.check) text += ` ${who} is in check (3.2).`;
      else if ((st.must_capture || []).length && (you === st.turn || you === 'both')) text += ' A Legion capture is compulsory (4.2): the marked pieces can capture.';
    }
    if (this.offline && this.id) text += ' Connection lost — reconnecting…';
    setText(this.status, text);
    this.status.classList.toggle('over', st.status === 'over');

    const phase = phaseWords(st);
    this.phaseNote.hidden = !phase;
    setText(this.phaseNote, phase || '');
  }

  renderButtons() {
    const st = this.state;
    const seated = !!st.you && !this.home;
    const active = st.status === 'active';
    const b = this.btn;
    b.undo.hidden = !(seated && (st.mode === 'engine' || st.mode === 'local'));
    b.undo.disabled = !st.moves.length || st.engine_thinking || !!this.pending;
    b.resign.hidden = !(seated && active);
    b.draw.hidden = !(seated && active);
    b.draw.disabled = st.draw_offer === this.mySide() && st.mode === 'friend';
    setText(b.draw, st.mode === 'local' ? 'Agree a draw' : st.draw_offer && st.draw_offer === this.mySide() ? 'Draw offered' : 'Offer draw');
    b.record.hidden = this.home;
    if (this.id) {
      b.record.href = `/api/games/${encodeURIComponent(this.id)}/record`;
      b.record.setAttribute('download', `legion-${this.id}.pgn`);
    }
    const lfen = this.currentLfen();
    b.analyse.href = `/analysis?lfen=${encodeURIComponent(lfen)}${st.rules === 'mate-ends-game' ? '&rules=mate-ends-game' : ''}`;
    this.moveInput.disabled = !this.canMoveNow();
  }

  renderOffer() {
    const st = this.state;
    const mine = this.mySide();
    const show = st.status === 'active' && st.draw_offer && mine && st.draw_offer !== mine;
    this.offer.hidden = !show;
    if (!show) { this.offer.replaceChildren(); return; }
    if (this.offer.dataset.for === st.draw_offer && this.offer.childElementCount) return;
    this.offer.dataset.for = st.draw_offer;
    this.offer.replaceChildren(
      h('span', `${sideName(st.draw_offer)} offers a draw.`),
      h('button.primary', { type: 'button', onclick: () => this.drawAction('accept') }, 'Accept'),
      h('button', { type: 'button', onclick: () => this.drawAction('decline') }, 'Decline'));
  }

  renderInvite() {
    const st = this.state;
    const invite = this.id && seats.getExtra(this.id, 'invite');
    const show = st.mode === 'friend' && invite && st.status === 'active' && st.moves.length < 2;
    this.invite.hidden = !show;
    if (!show || this.invite.childElementCount) return;
    const link = `${location.origin}/g/${this.id}?seat=${encodeURIComponent(invite)}`;
    const watch = `${location.origin}/g/${this.id}`;
    this.invite.replaceChildren(
      h('p', h('strong', 'Invite a friend:'), ' send this link. Whoever opens it takes the other seat.'),
      copyRow(link, 'invite-link', 'Copy invite link'),
      h('p.small', 'Anyone with the plain game link can watch:'),
      copyRow(watch, 'watch-link', 'Copy watch link'));
  }

  renderClocks() {
    const st = this.state;
    if (!st) return;
    const c = st.clock;
    for (const strip of [this.topPlayer, this.bottomPlayer]) {
      if (!c) { strip.setClock(null); continue; }
      let ms = strip.side === 'w' ? c.w_ms : c.b_ms;
      const running = c.running === strip.side && st.status === 'active';
      if (running) ms -= this.clockLag + (performance.now() - this.stateAt);
      strip.setClock(ms, running);
    }
  }

  // ---- actions -------------------------------------------------------------

  currentLfen() {
    const st = this.state;
    if (!st) return INITIAL_LFEN;
    if (this.viewPly === null) return st.lfen;
    return this.viewPly === 0 ? st.start : st.moves[this.viewPly - 1].lfen;
  }

  async play(move) {
    const st = this.state;
    if (!this.canMoveNow()) return;
    this.showError('');
    // Mark the move's squares at once; the server plays it, and its answer
    // draws the new position. No second move is taken meanwhile.
    this.pending = { move, ply: st.ply };
    this.render();
    try {
      if (this.home) {
        await this.startFromHome(move);
        return;
      }
      const next = await api.move(this.id, this.token, move.canonical, st.ply);
      this.pending = null;
      this.accept(next);
    } catch (e) {
      this.pending = null;
      if (e instanceof ApiError && e.status === 409) {
        this.showError(e.message);
        this.refresh();
      } else {
        this.showError(e.message);
        this.render();
      }
    }
  }

  async startFromHome(move) {
    const created = await api.createGame({ mode: 'engine', color: 'white', level: this.level, rules: 'default' });
    if (this.destroyed) return;
    this.adopt(created);
    history.replaceState(null, '', `/g/${created.id}`);
    this.home = false;
    this.renderSetupLine();
    this.state = normalise(created.state);
    const next = await api.move(this.id, this.token, move.canonical, 0);
    this.pending = null;
    this.accept(next);
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

  typedMove() {
    const text = this.moveInput.value.trim();
    if (!text || !this.canMoveNow()) return;
    const norm = (s) => s.replace(/[+#!?]/g, '').replace(/[-x:]/g, '').replace(/0/g, 'O').toLowerCase();
    const found = this.state.legal.find((m) => norm(m.human) === norm(text) || m.canonical === norm(text));
    if (found) { this.moveInput.value = ''; this.play(found); return; }
    const squares = text.toLowerCase().match(/[a-h][1-8]/g);
    if (squares && squares.length >= 2 && squares.join('') === text.toLowerCase().replace(/[^a-h1-8]/g, '')) {
      this.moveInput.value = '';
      this.explain(squares);
    } else {
      this.showError(`'${text}' is not a legal move here. Write e.g. Nf3, c3-d4 or c3:e5:c7 (6.4).`);
    }
  }

  showError(text) {
    showError(this.error, text);
  }

  async action(fn, { after } = {}) {
    this.showError('');
    try {
      const st = await fn();
      this.accept(st, { force: true });
      after?.(st);
    } catch (e) {
      this.showError(e.message);
      if (e instanceof ApiError && e.status === 409) this.refresh();
    }
  }

  undo() {
    this.clearConfirm();
    this.action(() => api.undo(this.id, this.token));
  }

  resign() {
    this.confirm('Resign this game?', 'Resign', () => this.action(() => api.resign(this.id, this.token)));
  }

  offerDraw() {
    const st = this.state;
    if (st.mode === 'local') {
      // One device holds both seats: offering and accepting is one decision.
      this.confirm('Agree a draw?', 'Agree', () => this.action(async () => {
        const s = await api.draw(this.id, this.token, 'offer');
        if (s.status === 'active' && s.draw_offer) return api.draw(this.id, this.token, 'accept');
        return s;
      }));
      return;
    }
    this.action(() => api.draw(this.id, this.token, 'offer'), {
      after: (s) => {
        if (st.mode === 'engine' && s.status === 'active') toast('The engine declines the draw.');
        else if (s.status === 'active') toast('Draw offered.');
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
      h('button', { type: 'button', onclick: () => this.clearConfirm() }, 'Cancel'));
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
    toast(ok ? 'LFEN copied' : `Copy failed: ${this.currentLfen()}`);
  }

  newGame() {
    openNewGameDialog({
      level: this.level,
      onCreated: (created) => {
        this.adopt(created);
        this.navigate(`/g/${created.id}`);
      },
    });
  }

  // ---- history navigation --------------------------------------------------

  goTo(ply) {
    const n = this.state ? this.state.moves.length : 0;
    if (ply !== null && ply >= n) ply = null;
    if (ply !== null && ply < 0) ply = 0;
    if (ply === this.viewPly) return;
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
    this.clock = h('span.clock', { hidden: true, 'aria-label': 'clock' });
    this.el = h('div.player', h('span.swatch'), this.name, this.flag, this.clock);
    this.side = 'w';
  }

  set({ side, name, thinking, toMove, kingGone }) {
    this.side = side;
    this.el.dataset.side = side;
    setText(this.name, name);
    setText(this.flag, thinking ? 'thinking…' : kingGone ? 'no King (Phase 2)' : '');
    this.el.classList.toggle('to-move', !!toMove);
    this.el.classList.toggle('thinking', !!thinking);
  }

  setClock(ms, running) {
    if (ms === null || ms === undefined) { this.clock.hidden = true; return; }
    this.clock.hidden = false;
    setText(this.clock, formatClock(ms));
    this.clock.classList.toggle('running', !!running);
    this.clock.classList.toggle('low', ms < 20000);
  }
}

function copyRow(text, id, label) {
  const input = h('input', { type: 'text', readonly: true, value: text, id, 'aria-label': label, onfocus: (e) => e.target.select() });
  return h('div.copy-row', input, h('button', {
    type: 'button',
    onclick: async () => toast((await copyText(text)) ? 'Link copied' : 'Select the link and copy it'),
  }, 'Copy'));
}

function homeState(level) {
  const pos = parseLfen(INITIAL_LFEN);
  return {
    id: null, mode: 'engine', rules: 'default', level, engine_color: 'b', start: INITIAL_LFEN, lfen: INITIAL_LFEN,
    turn: 'w', ply: 0, moves: [], board: pos.board, status: 'active', result: '*', reason: null, check: false,
    kings: { w: true, b: true }, phase: 1, phase_one: null, legal: [], must_capture: [], draw_offer: null,
    clock: null, engine_thinking: false, you: 'w',
  };
}

/** Fills in what a reply may lack so drawing never trips on a missing field. */
function normalise(st) {
  return {
    ...st,
    moves: Array.isArray(st.moves) ? st.moves : [],
    legal: Array.isArray(st.legal) ? st.legal : [],
    must_capture: Array.isArray(st.must_capture) ? st.must_capture : [],
    board: st.board || {},
    kings: st.kings || { w: true, b: true },
    ply: typeof st.ply === 'number' ? st.ply : (st.moves || []).length,
    start: st.start || INITIAL_LFEN,
    lfen: st.lfen || INITIAL_LFEN,
    turn: st.turn === 'b' ? 'b' : 'w',
  };
}

function clockLag(clock) {
  // Time since the server stamped the clock; ignored when the two machines'
  // clocks disagree by more than network delay could explain.
  if (!clock || typeof clock.as_of !== 'number') return 0;
  const lag = Date.now() - clock.as_of;
  return lag > 0 && lag < 5000 ? lag : 0;
}

function kingSquare(board, side) {
  for (const [sq, o] of Object.entries(board)) if (o.piece === side + 'K') return sq;
  return null;
}

function playerName(st, side, home) {
  const colour = sideName(side);
  if (st.mode === 'engine') {
    if (st.engine_color === side) return `Engine · level ${st.level ?? DEFAULT_LEVEL} (${colour})`;
    return home || st.you === side ? `You (${colour})` : `Player (${colour})`;
  }
  if (st.mode === 'local') return colour;
  if (st.you === side) return `You (${colour})`;
  return st.you ? `Your friend (${colour})` : colour;
}

function resultWords(result) {
  if (result === '1-0') return '1-0';
  if (result === '0-1') return '0-1';
  if (result === '1/2-1/2') return '½-½';
  return 'Game over';
}

function phaseWords(st) {
  if (!st.kings || (st.kings.w && st.kings.b)) return '';
  const gone = ['w', 'b'].filter((c) => !st.kings[c]);
  if (gone.length === 2) return 'Phase 2: both Kings have been mated and removed (5.1). The game goes on without Kings; a side with no legal move loses.';
  const p = st.phase_one;
  const when = p && p.move ? ` on move ${p.move}` : '';
  return `Phase 2: ${sideName(gone[0])}'s King was mated${when} and left the board (5.1). ${sideName(other(gone[0]))} won Phase 1; ${sideName(gone[0])} plays on without a King.`;
}
