// @ts-check
// What a change of the game sounds like, and the sound switch.

import { h } from './ui.js';
import { icon, s } from './svg.js';
import { t } from './i18n.js';
import * as sound from './sound.js';
import { ended } from './game-state.js';

/** @typedef {import('./game-state.js').GameState} GameState */

/**
 * The sounds of going from `prev` to `st`: the move it added (a King
 * removed, check, a capture, a move), then the end of the game.
 * @param {GameState} prev
 * @param {GameState} st
 */
export function soundChange(prev, st) {
  const added = st.ply === prev.ply + 1 && st.moves.length === prev.moves.length + 1 ? st.moves[st.moves.length - 1] : null;
  if (added) {
    const kingGone = (prev.kings.w && !st.kings.w) || (prev.kings.b && !st.kings.b);
    sound.play(kingGone ? 'kingRemoved' : st.check ? 'check' : added.captured.length ? 'capture' : 'move');
  }
  if (ended(st) && !ended(prev)) sound.play('end', added ? 0.35 : 0);
}

/** The sound switch: a toggle button, pressed while sounds are on; it follows every switch on the page. */
export class SoundSwitch {
  constructor() {
    /** @type {HTMLButtonElement} */
    this.el = h('button.sound-switch', { type: 'button', 'data-sound-switch': '', title: t('game.sound.title'), onclick: () => sound.setSoundOn(!sound.soundOn()) });
    this.render();
    this.off = sound.onSoundChange(() => this.render());
  }

  render() {
    const on = sound.soundOn();
    this.el.setAttribute('aria-pressed', String(on));
    this.el.replaceChildren(speaker(on), t('game.sound.label'));
  }

  destroy() {
    this.off();
  }
}

/** The sound switch's icon: a speaker with waves, or crossed out. @param {boolean} on */
const speaker = (on) => icon(18,
  s('path', { d: 'M4 9h4l5-4v14l-5-4H4z', fill: 'currentColor' }),
  s('path', {
    d: on ? 'M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12' : 'M16 9l5 6M21 9l-5 6',
    fill: 'none', stroke: 'currentColor', 'stroke-width': 2, 'stroke-linecap': 'round',
  }));
