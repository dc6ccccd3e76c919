// @ts-check
// The game's live connection (docs/API.md, "WebSocket"): one socket per
// game page, a hello with the seat's token, the whole state in answer,
// then updates merged into it ply by ply; a missed message asks for the
// whole state again. A lost socket reconnects with a growing delay.

import { readState } from './game-state.js';

/**
 * @typedef {import('./game-state.js').GameState} GameState
 * @typedef {{
 *   current: () => GameState | null,
 *   onState: (st: GameState) => void,
 *   onError: (text: string) => void,
 *   onOnline: (online: boolean) => void,
 *   onChat?: (msg: any) => void,
 * }} TransportHooks
 */

export class Transport {
  /**
   * @param {string} id the game
   * @param {() => string | null} token the seat's token, read at each hello
   * @param {TransportHooks} hooks
   */
  constructor(id, token, hooks) {
    this.id = id;
    this.token = token;
    this.hooks = hooks;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.retry = 0;
    this.closed = false;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.reconnectTimer = undefined;
    /** @type {ReturnType<typeof setInterval> | undefined} */
    this.pingTimer = undefined;
  }

  /** Whether a socket is open or opening. */
  open() {
    const ws = this.ws;
    return !!ws && (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING);
  }

  connect() {
    if (this.closed) return;
    clearTimeout(this.reconnectTimer);
    this.drop();
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
      this.retry = 0;
      this.hello();
      this.hooks.onOnline(true);
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => { if (ws.readyState === WebSocket.OPEN) ws.send('{"type":"ping"}'); }, 25000);
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (!msg || ws !== this.ws) return;
      if (msg.type === 'state' && msg.state) this.hooks.onState(readState(msg.state));
      else if (msg.type === 'update' && msg.state) this.update(msg);
      else if (msg.type === 'error' && msg.error) this.hooks.onError(msg.error);
      else if (msg.type === 'chat' && this.hooks.onChat) this.hooks.onChat(msg);
    };
    ws.onclose = () => {
      clearInterval(this.pingTimer);
      if (this.closed) return;
      this.hooks.onOnline(false);
      this.scheduleReconnect();
    };
    ws.onerror = () => { /* onclose follows and reconnects */ };
  }

  /** Says who we are; the server answers with the whole state. */
  hello() {
    const ws = this.ws;
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: 'hello', token: this.token() }));
  }

  /**
   * A change pushed by the server: the state without `moves` and `you`, and
   * the move it added (or null). Holding n moves, a state at ply n + 1
   * appends the move; at ply n or less it drops the moves past it; anything
   * else means a message was missed: say hello again for the whole state.
   * @param {{state: Record<string, unknown>, move?: unknown}} msg
   */
  update(msg) {
    const cur = this.hooks.current();
    const st = msg.state;
    if (!cur || typeof st.ply !== 'number') { this.hello(); return; }
    const n = cur.moves.length;
    let moves;
    if (st.ply === n + 1 && msg.move) moves = [...cur.moves, msg.move];
    else if (st.ply <= n) moves = cur.moves.slice(0, st.ply);
    else { this.hello(); return; }
    this.hooks.onState(readState({ ...st, moves, you: cur.you }));
  }

  scheduleReconnect() {
    // Back off: 0.5 s, 1 s, 2 s ... up to 15 s; a visible tab retries at once.
    const delay = Math.min(15000, 500 * 2 ** this.retry++);
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => this.connect(), delay);
  }

  drop() {
    if (this.ws) { this.ws.onclose = null; this.ws.close(); }
    this.ws = null;
  }

  close() {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    clearInterval(this.pingTimer);
    this.drop();
  }
}
