// @ts-check
// The game's chat panel (docs/API.md, "Chat"): the players' room for the
// two seats of a game between people, the spectators' room for those
// who watch. Every message is drawn as text (text nodes), never as HTML.
// The switch that turns chat off is a setting (settings.js, kept in the
// browser); muting the opponent is kept in the browser for the game.
// New messages come on the game's socket (`onPush`); after a reconnect
// the page reads the room again (`reload`).

import { request, seats, ApiError } from './api.js';
import { h, showError, sideName } from './ui.js';
import { t } from './i18n.js';
import { settings, saveSettings, onSettingsChange } from './settings.js';
import { me, profilePath } from './account.js';

/**
 * @typedef {{seq: number, at_ms: number, author: string | null, side: 'w' | 'b' | null, text: string}} ChatMessage
 * @typedef {'players' | 'spectators'} Room
 */

const MAX = 140;

/** A message as the server sent it, checked. @param {any} m @returns {ChatMessage | null} */
function readMessage(m) {
  if (!m || typeof m !== 'object' || typeof m.seq !== 'number' || typeof m.at_ms !== 'number' || typeof m.text !== 'string') return null;
  return {
    seq: m.seq,
    at_ms: m.at_ms,
    author: typeof m.author === 'string' ? m.author : null,
    side: m.side === 'w' || m.side === 'b' ? m.side : null,
    text: m.text,
  };
}

export class ChatPanel {
  /** @param {string} id the game @param {() => string | null} token the seat's token */
  constructor(id, token) {
    this.id = id;
    this.token = token;
    /** @type {Room | null} null: no room for this reader (engine and one-device games) */
    this.room = null;
    /** @type {'w' | 'b' | null} */
    this.mySide = null;
    /** @type {ChatMessage[]} */
    this.messages = [];
    this.signedIn = false;
    this.loading = 0;
    this.list = h('ol.chat-messages', { 'aria-live': 'polite', 'data-chat-messages': '' });
    this.input = h('input', { type: 'text', maxlength: MAX, autocomplete: 'off', 'aria-label': t('chat.placeholder'), placeholder: t('chat.placeholder'), 'data-chat-input': '' });
    this.send = h('button', { type: 'submit' }, t('chat.send'));
    this.form = h('form.chat-form', { onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); this.say(); } }, this.input, this.send);
    this.error = h('div.error', { role: 'alert', hidden: true, 'data-chat-error': '' });
    this.note = h('p.small.chat-note', { hidden: true });
    this.title = h('h2.chat-title');
    this.mute = h('label.switch.chat-mute', { hidden: true },
      h('input', { type: 'checkbox', 'data-chat-mute': '', onchange: (/** @type {Event} */ e) => this.setMuted(/** @type {HTMLInputElement} */ (e.target).checked) }),
      h('span', t('chat.muteOpponent')));
    this.offSwitch = h('label.switch.chat-switch',
      h('input', { type: 'checkbox', 'data-chat-switch': '', checked: settings().chat, onchange: (/** @type {Event} */ e) => saveSettings({ chat: /** @type {HTMLInputElement} */ (e.target).checked }) }),
      h('span', t('chat.on')));
    this.body = h('div.chat-body', this.list, this.note, this.error, this.form);
    this.el = h('section.panel.chat-panel', { 'aria-label': t('chat.title'), hidden: true, 'data-chat': '' },
      h('div.chat-head', this.title, this.offSwitch), this.mute, this.body);
    this.wasOn = settings().chat;
    this.stopSettings = onSettingsChange(() => {
      const on = settings().chat;
      // Turned on: read the room, which was not followed while off.
      if (on && !this.wasOn) this.reload();
      this.wasOn = on;
      this.render();
    });
    me().then((a) => { this.signedIn = !!a; this.render(); });
  }

  destroy() {
    this.stopSettings();
  }

  muted() {
    return seats.getExtra(this.id, 'chatMuted') === '1';
  }

  /** @param {boolean} on */
  setMuted(on) {
    seats.setExtra(this.id, 'chatMuted', on ? '1' : '0');
    this.render();
  }

  /**
   * The game as it stands: which room the reader is in.
   * @param {{mode: string, you: string | null}} st
   */
  setState(st) {
    /** @type {Room | null} */
    let room = null;
    if (st.you === 'w' || st.you === 'b') room = st.mode === 'friend' ? 'players' : null;
    else if (st.you === null) room = 'spectators';
    this.mySide = st.you === 'w' || st.you === 'b' ? st.you : null;
    if (room !== this.room) {
      this.room = room;
      this.messages = [];
      this.render();
      this.reload();
    }
  }

  /** Reads the room again (at first, and after the socket came back). */
  async reload() {
    const room = this.room;
    if (!room || !settings().chat) return;
    const ticket = ++this.loading;
    try {
      const r = await request('GET', `/api/games/${encodeURIComponent(this.id)}/chat?room=${room}`, undefined, { token: this.token() });
      if (ticket !== this.loading || room !== this.room) return;
      this.messages = (Array.isArray(r.messages) ? r.messages : []).map(readMessage).filter((/** @type {ChatMessage | null} */ m) => m !== null);
      showError(this.error, null);
    } catch (e) {
      if (ticket === this.loading) showError(this.error, e instanceof ApiError ? e.message : String(e));
    }
    this.render();
  }

  /** A message pushed on the socket. @param {any} msg */
  onPush(msg) {
    if (msg.room !== this.room) return;
    const m = readMessage(msg.message);
    if (!m) return;
    const last = this.messages.length ? this.messages[this.messages.length - 1].seq : 0;
    if (m.seq <= last) return;
    if (m.seq > last + 1 && this.messages.length) { this.reload(); return; }
    this.messages.push(m);
    this.render();
  }

  async say() {
    const text = this.input.value.trim();
    if (!text || !this.room) return;
    this.send.disabled = true;
    try {
      const r = await request('POST', `/api/games/${encodeURIComponent(this.id)}/chat`, { room: this.room, text }, { token: this.token() });
      this.input.value = '';
      showError(this.error, null);
      this.onPush({ room: this.room, message: r.message });
    } catch (e) {
      showError(this.error, e instanceof ApiError ? e.message : String(e));
    }
    this.send.disabled = false;
    this.input.focus();
  }

  /** Who wrote a message, in words. @param {ChatMessage} m */
  authorOf(m) {
    if (m.author === 'deleted') return t('profile.deleted');
    if (m.author) return m.author;
    return m.side ? sideName(m.side) : t('profile.anonymous');
  }

  render() {
    const on = settings().chat;
    this.el.hidden = !this.room;
    /** @type {HTMLInputElement} */ (this.offSwitch.querySelector('input')).checked = on;
    this.title.textContent = this.room === 'players' ? t('chat.players') : t('chat.spectators');
    this.body.hidden = !on;
    this.mute.hidden = !on || this.room !== 'players';
    /** @type {HTMLInputElement} */ (this.mute.querySelector('input')).checked = this.muted();
    if (!on || !this.room) return;
    const muted = this.room === 'players' && this.muted();
    const shown = this.messages.filter((m) => !(muted && m.side && m.side !== this.mySide));
    this.list.replaceChildren(...shown.map((m) => h('li.chat-message', { 'data-chat-message': '', 'data-side': m.side || '' },
      m.author && m.author !== 'deleted' ? h('a.chat-author', { href: profilePath(m.author) }, m.author) : h('span.chat-author', this.authorOf(m)),
      ' ',
      h('span.chat-text', { 'data-chat-text': '' }, m.text))));
    if (!shown.length) this.list.append(h('li.chat-empty.small', muted && this.messages.length ? t('chat.mutedNote') : t('chat.empty')));
    this.list.scrollTop = this.list.scrollHeight;
    // Spectators write with an account; players may try (the server says
    // when an anonymous seat may not).
    const canWrite = this.room === 'players' || this.signedIn;
    this.form.hidden = !canWrite;
    this.note.hidden = canWrite;
    if (!canWrite) {
      this.note.replaceChildren(t('chat.signInToChat'), ' ',
        h('a', { href: `/signin?next=${encodeURIComponent(location.pathname)}` }, t('account.signIn')));
    }
  }
}
