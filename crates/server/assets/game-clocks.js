// @ts-check
// The players' strips (name, "thinking", clock) and the clocks' ticking.
// The server sends the time left at the moment it sent the state; the
// running side's clock is that minus the time since the state arrived
// here (the two machines' clocks are never compared).

import { h, setText, formatClock } from './ui.js';
import { t } from './i18n.js';
import * as sound from './sound.js';

/** @typedef {import('./game-state.js').GameState} GameState */

export class PlayerStrip {
  constructor() {
    this.name = h('span.name');
    this.rating = h('span.rating', { 'data-rating': '' });
    this.diff = h('span.rating-diff', { 'data-rating-diff': '' });
    this.flag = h('span.flag');
    this.clock = h('span.clock', { hidden: true, 'aria-label': t('game.clock'), 'data-clock': '' });
    /** @type {HTMLElement} */
    this.el = h('div.player', h('span.swatch'), this.name, this.rating, this.diff, this.flag, this.clock);
    /** @type {'w' | 'b'} */
    this.side = 'w';
  }

  /** @param {{side: 'w' | 'b', name: string, rating?: {rating: string, diff: string, up: boolean | null}, thinking: boolean, toMove: boolean, kingGone: boolean}} p */
  set({ side, name, rating, thinking, toMove, kingGone }) {
    this.side = side;
    this.el.dataset.side = side;
    setText(this.name, name);
    setText(this.rating, rating?.rating ?? '');
    setText(this.diff, rating?.diff ?? '');
    this.diff.classList.toggle('up', rating?.up === true);
    this.diff.classList.toggle('down', rating?.up === false);
    setText(this.flag, thinking ? t('game.player.thinking') : kingGone ? t('game.player.noKing') : '');
    this.el.classList.toggle('to-move', toMove);
    this.el.classList.toggle('thinking', thinking);
  }

  /** @param {number | null} ms @param {boolean} [running] */
  setClock(ms, running = false) {
    if (ms === null) { this.clock.hidden = true; return; }
    this.clock.hidden = false;
    setText(this.clock, formatClock(ms));
    const whole = String(Math.max(0, Math.round(ms)));
    if (this.clock.dataset.ms !== whole) this.clock.dataset.ms = whole; // for tests: the exact time shown
    this.clock.classList.toggle('running', running);
    this.clock.classList.toggle('low', ms < 20000);
  }
}

/** 0:42 — whole seconds, rounded up, for the abort countdown. @param {number} ms */
export function formatCountdown(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}

/** Both clocks and the abort countdown, redrawn every 100 ms. */
export class Clocks {
  /** @param {PlayerStrip[]} strips @param {HTMLElement} abortNote */
  constructor(strips, abortNote) {
    this.strips = strips;
    this.abortNote = abortNote;
    /** @type {GameState | null} */
    this.state = null;
    this.home = false;
    this.stateAt = performance.now();
    /** sides whose low-time sound has played */
    this.lowWarned = new Set();
    this.timer = setInterval(() => this.render(), 100);
  }

  /** A new state: the clocks count down from now. @param {GameState} st @param {boolean} home */
  set(st, home) {
    this.state = st;
    this.home = home;
    this.stateAt = performance.now();
  }

  render() {
    const st = this.state;
    if (!st) return;
    const c = st.clock;
    const since = performance.now() - this.stateAt;
    for (const strip of this.strips) {
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
    const abortIn = st.abort_in_ms !== null && st.status === 'active' && !this.home ? st.abort_in_ms - since : null;
    this.abortNote.hidden = abortIn === null;
    if (abortIn !== null) {
      setText(this.abortNote, t(st.you === st.turn ? 'game.abortNote.you' : 'game.abortNote.other', { side: st.turn, time: formatCountdown(abortIn) }));
    }
  }

  stop() {
    clearInterval(this.timer);
  }
}
