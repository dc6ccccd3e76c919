// @ts-check
// The lobby on the home page (issue 20, docs/API.md "Lobby"): quick
// pairing, the open seeks (live, over the lobby's socket), a seek of your
// own, challenges to and from you, and your games in progress with those
// where it is your turn first. A seek the page made is kept while the
// page is open (its socket holds it); when it is taken, the page goes to
// the game with the seat its seek's token holds.

import { t } from './i18n.js';
import { h, setText, showError, toast } from './ui.js';
import { request, seats } from './api.js';

/**
 * @typedef {{initial_s: number, increment_s: number}} ClockSpec
 * @typedef {{id: string, username: string | null, rating: number | null, provisional: boolean,
 *   clock: ClockSpec | null, days: number | null, rated: boolean, color: 'random' | 'white' | 'black',
 *   class: string | null, range: [number, number] | null, created_ms: number}} Seek
 * @typedef {{id: string, from: string, to: string, clock: ClockSpec | null, days: number | null,
 *   rated: boolean, color: string, class: string | null, created_ms: number, expires_ms: number}} Challenge
 * @typedef {{id: string, color: 'w' | 'b', opponent: string | null, my_turn: boolean, rated: boolean,
 *   speed: string | null, days: number | null, lfen: string, ply: number,
 *   clock: {w_ms: number, b_ms: number} | null, deadline_ms: number | null}} InProgress
 * @typedef {{id: string, token: string}} Held a seek this page made, and its seat's token
 */

const HELD_KEY = 'legion:seeks';

/** The seeks this browser made and still waits on. @returns {Held[]} */
function heldSeeks() {
  try {
    const v = JSON.parse(sessionStorage.getItem(HELD_KEY) || '[]');
    return Array.isArray(v) ? v.filter((x) => x && typeof x.id === 'string' && typeof x.token === 'string') : [];
  } catch { return []; }
}

/** @param {Held[]} list */
function keepHeld(list) {
  try { sessionStorage.setItem(HELD_KEY, JSON.stringify(list.slice(-8))); } catch { /* private mode: this page only */ }
}

/** "5+3", "3 days", "untimed". @param {{clock: ClockSpec | null, days: number | null}} s */
export function timeControl(s) {
  if (s.days) return t('lobby.days', { n: s.days });
  if (s.clock) return `${Math.round(s.clock.initial_s / 60 * 10) / 10}+${s.clock.increment_s}`;
  return t('lobby.untimed');
}

/** The quick-pairing buttons: the server's pools. */
const POOLS = [
  { key: '3+2', label: '3+2', cls: 'blitz' },
  { key: '5+3', label: '5+3', cls: 'blitz' },
  { key: '10+5', label: '10+5', cls: 'rapid' },
  { key: '15+10', label: '15+10', cls: 'rapid' },
  { key: '30+0', label: '30+0', cls: 'classical' },
  { key: '3d', label: '', cls: 'correspondence' },
];

/** How long ago, or how long until: "3 h", "2 d". @param {number} ms */
function span(ms) {
  const m = Math.max(0, Math.round(ms / 60000));
  if (m < 60) return t('lobby.minutes', { n: m });
  const hrs = Math.round(m / 60);
  if (hrs < 48) return t('lobby.hours', { n: hrs });
  return t('lobby.daysShort', { n: Math.round(hrs / 24) });
}

/**
 * Mounts the lobby at the end of `root`; returns its unmount.
 * @param {HTMLElement} root
 * @param {{navigate: (url: string) => void}} opts
 */
export function mountLobby(root, { navigate }) {
  /** @type {string | null} */
  let me = null;
  /** @type {Seek[]} */
  let seeks = [];
  /** @type {Held[]} */
  let held = heldSeeks();
  /** @type {WebSocket | null} */
  let socket = null;
  let closed = false;
  let retry = 0;
  const baseTitle = document.title;
  let unseenTurns = 0;

  const error = h('p.error', { role: 'alert', hidden: true, 'data-lobby-error': '' });
  const waiting = h('p.lobby-waiting', { 'data-lobby-waiting': '' });
  const cancelWait = h('button', { type: 'button', onclick: () => cancelHeld() }, t('lobby.cancel'));
  const waitBox = h('div.lobby-wait', { hidden: true }, waiting, cancelWait);
  const pools = h('div.pools', { role: 'group', 'aria-label': t('lobby.quick') },
    POOLS.map((p) => h(`button.pool.${p.cls}`, {
      type: 'button', 'data-pool': p.key, onclick: () => joinPool(p.key),
    }, h('strong', p.label || t('lobby.pool3d')), h('small', t(`speed.${p.cls}`)))));
  const list = h('tbody');
  const empty = h('p.muted', { 'data-lobby-empty': '' }, t('lobby.noSeeks'));
  const table = h('table.seeks', { 'data-seeks': '' },
    h('thead', h('tr', h('th', t('lobby.player')), h('th', t('lobby.rating')), h('th', t('lobby.time')),
      h('th', t('lobby.mode')), h('th', h('span.visually-hidden', t('lobby.action'))))), list);
  const challengesIn = h('ul.challenges', { 'data-challenges-in': '' });
  const challengesOut = h('ul.challenges', { 'data-challenges-out': '' });
  const playing = h('ul.playing', { 'data-playing': '' });
  const playingBox = h('section.lobby-part', { hidden: true },
    h('h3', t('lobby.yourGames')), playing);
  const challengeBox = h('section.lobby-part', { hidden: true },
    h('h3', t('lobby.challenges')), challengesIn, challengesOut);

  const form = seekForm();
  const section = h('section.lobby', { 'aria-labelledby': 'lobby-title', 'data-lobby': '' },
    h('h2', { id: 'lobby-title' }, t('lobby.title')),
    h('p.muted', t('lobby.intro')),
    error, waitBox,
    h('section.lobby-part', h('h3', t('lobby.quick')), pools),
    playingBox, challengeBox,
    h('section.lobby-part',
      h('div.lobby-head', h('h3', t('lobby.seeks')),
        h('button.primary', { type: 'button', 'data-new-seek': '', onclick: () => form.open() }, t('lobby.newSeek'))),
      table, empty));
  root.append(section);
  // The form lives outside the page's main part while closed (it is a
  // dialog over the page, not one of its controls).
  document.body.append(form.dialog);

  /** @param {unknown} e */
  const fail = (e) => showError(error, e instanceof Error ? e.message : String(e));

  function showWaiting() {
    const mine = held.length;
    waitBox.hidden = mine === 0;
    setText(waiting, mine ? t('lobby.waiting') : '');
  }

  function renderSeeks() {
    list.replaceChildren(...seeks.map((s) => {
      const mine = held.some((x) => x.id === s.id) || (me !== null && s.username === me);
      const who = s.username ?? t('lobby.anonymous');
      const rating = s.rating === null ? '' : `${Math.round(s.rating)}${s.provisional ? '?' : ''}`;
      const mode = s.rated ? t('lobby.rated') : t('lobby.casual');
      const color = s.color === 'random' ? '' : ` · ${t(`lobby.color.${s.color}`)}`;
      const button = mine
        ? h('button', { type: 'button', 'data-cancel-seek': s.id, onclick: () => cancel(s.id) }, t('lobby.cancel'))
        : h('button.primary', { type: 'button', 'data-accept-seek': s.id, onclick: () => accept(s.id) }, t('lobby.accept'));
      return h('tr', { 'data-seek': s.id, class: mine ? 'mine' : undefined },
        h('td', who), h('td', rating), h('td', timeControl(s)), h('td', mode + color), h('td', button));
    }));
    empty.hidden = seeks.length > 0;
    table.hidden = seeks.length === 0;
  }

  /** @param {string} game @param {string} token */
  function enter(game, token) {
    seats.set(game, token);
    navigate(`/g/${game}`);
  }

  /** @param {string} key */
  async function joinPool(key) {
    showError(error, null);
    try {
      const made = await request('POST', `/api/lobby/pools/${encodeURIComponent(key)}`, {});
      hold({ id: made.id, token: made.token });
    } catch (e) { fail(e); }
  }

  /** @param {Held} x */
  function hold(x) {
    held = [...held.filter((y) => y.id !== x.id), x];
    keepHeld(held);
    showWaiting();
    renderSeeks();
    // The socket holds it from now on.
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: 'hello', seeks: held }));
  }

  /** @param {string} id */
  function drop(id) {
    held = held.filter((y) => y.id !== id);
    keepHeld(held);
    showWaiting();
  }

  async function cancelHeld() {
    for (const x of [...held]) await cancel(x.id);
  }

  /** @param {string} id */
  async function cancel(id) {
    const x = held.find((y) => y.id === id);
    try {
      await request('DELETE', `/api/lobby/seeks/${id}`, undefined, { token: x ? x.token : null });
    } catch (e) { if (!(e instanceof Error && 'status' in e && e.status === 404)) fail(e); }
    drop(id);
    seeks = seeks.filter((s) => s.id !== id);
    renderSeeks();
  }

  /** @param {string} id */
  async function accept(id) {
    showError(error, null);
    try {
      const a = await request('POST', `/api/lobby/seeks/${id}/accept`, {});
      enter(a.game, a.token);
    } catch (e) { fail(e); }
  }

  async function loadMine() {
    if (!me) return;
    try {
      const [p, c] = await Promise.all([request('GET', '/api/account/playing'), request('GET', '/api/challenges')]);
      renderPlaying(p.games);
      renderChallenges(c.in, c.out);
    } catch (e) { fail(e); }
  }

  /** @param {InProgress[]} games */
  function renderPlaying(games) {
    playingBox.hidden = games.length === 0;
    playing.replaceChildren(...games.map((g) => {
      const left = g.deadline_ms ? span(g.deadline_ms - Date.now()) : '';
      return h('li', { class: g.my_turn ? 'my-turn' : undefined, 'data-in-progress': g.id },
        h('a', { href: `/g/${g.id}`, onclick: (/** @type {Event} */ e) => { e.preventDefault(); navigate(`/g/${g.id}`); } },
          g.opponent ?? t('lobby.anonymous')),
        ' ', h('span.muted', g.days ? t('lobby.days', { n: g.days }) : g.speed ? t(`speed.${g.speed}`) : t('lobby.untimed')),
        ' ', h('span.turn', g.my_turn ? t('lobby.yourTurn') : t('lobby.theirTurn')),
        left ? h('span.muted', ` · ${t('lobby.timeLeft', { time: left })}`) : null);
    }));
  }

  /** @param {Challenge[]} incoming @param {Challenge[]} outgoing */
  function renderChallenges(incoming, outgoing) {
    challengeBox.hidden = incoming.length + outgoing.length === 0;
    challengesIn.replaceChildren(...incoming.map((c) => h('li', { 'data-challenge': c.id },
      t('lobby.challengeFrom', { name: c.from }), ' · ', timeControl(c), ' · ', c.rated ? t('lobby.rated') : t('lobby.casual'), ' ',
      h('button.primary', { type: 'button', 'data-accept-challenge': c.id, onclick: () => answer(c.id, 'accept') }, t('lobby.accept')),
      h('button', { type: 'button', 'data-decline-challenge': c.id, onclick: () => answer(c.id, 'decline') }, t('lobby.decline')))));
    challengesOut.replaceChildren(...outgoing.map((c) => h('li', { 'data-challenge': c.id },
      t('lobby.challengeTo', { name: c.to }), ' · ', timeControl(c), ' ',
      h('button', { type: 'button', onclick: () => answer(c.id, 'cancel') }, t('lobby.cancel')))));
  }

  /** @param {string} id @param {'accept' | 'decline' | 'cancel'} what */
  async function answer(id, what) {
    showError(error, null);
    try {
      const r = await request('POST', `/api/challenges/${id}/${what}`, {});
      if (what === 'accept') { navigate(`/g/${r.game}`); return; }
    } catch (e) { fail(e); }
    loadMine();
  }

  /** @param {any} m */
  function heard(m) {
    switch (m.type) {
      case 'seeks': seeks = m.seeks; renderSeeks(); break;
      case 'seek':
        if (!seeks.some((s) => s.id === m.seek.id)) seeks = [...seeks, m.seek];
        renderSeeks();
        break;
      case 'gone': seeks = seeks.filter((s) => s.id !== m.id); renderSeeks(); break;
      case 'paired': {
        const x = held.find((y) => y.id === m.seek);
        drop(m.seek);
        if (x) enter(m.game, x.token);
        else if (me) navigate(`/g/${m.game}`);
        break;
      }
      case 'challenge': toast(t('lobby.challengeFrom', { name: m.challenge.from })); loadMine(); break;
      case 'challenge_ended':
        // Both players go to the game a challenge became.
        if (m.status === 'accepted' && m.game) { navigate(`/g/${m.game}`); break; }
        loadMine();
        break;
      case 'turn':
        unseenTurns += 1;
        if (document.hidden) document.title = `(${unseenTurns}) ${t('lobby.yourTurn')} — ${baseTitle}`;
        toast(t('lobby.yourTurn'));
        loadMine();
        break;
      default: break;
    }
  }

  function connect() {
    if (closed) return;
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    const ws = new WebSocket(`${proto}://${location.host}/api/lobby/ws`);
    socket = ws;
    ws.onopen = () => { retry = 0; ws.send(JSON.stringify({ type: 'hello', seeks: held })); };
    ws.onmessage = (e) => { try { heard(JSON.parse(String(e.data))); } catch { /* one bad message is not the page's end */ } };
    ws.onclose = () => {
      if (closed) return;
      retry = Math.min(retry + 1, 6);
      setTimeout(connect, 500 * 2 ** retry);
    };
  }

  const onVisible = () => { if (!document.hidden) { unseenTurns = 0; document.title = baseTitle; } };
  document.addEventListener('visibilitychange', onVisible);

  /** The form of a new seek, or of a challenge when a name is given. */
  function seekForm() {
    const kind = h('select', { name: 'kind', 'data-seek-kind': '' },
      h('option', { value: 'clock' }, t('lobby.form.clock')),
      h('option', { value: 'days' }, t('lobby.form.days')),
      h('option', { value: 'none' }, t('lobby.untimed')));
    const minutes = h('input', { type: 'number', name: 'minutes', min: '0', max: '600', step: '1', value: '5', 'data-seek-minutes': '' });
    const increment = h('input', { type: 'number', name: 'increment', min: '0', max: '600', step: '1', value: '3', 'data-seek-increment': '' });
    const days = h('select', { name: 'days', 'data-seek-days': '' }, [1, 2, 3, 5, 7, 14].map((d) => h('option', { value: String(d), selected: d === 3 }, t('lobby.days', { n: d }))));
    const rated = h('input', { type: 'checkbox', name: 'rated', 'data-seek-rated': '' });
    const color = h('select', { name: 'color', 'data-seek-color': '' },
      ['random', 'white', 'black'].map((c) => h('option', { value: c }, t(`lobby.color.${c}`))));
    const opponent = h('input', { type: 'text', name: 'to', maxlength: '20', autocomplete: 'off', 'data-seek-to': '', placeholder: t('lobby.form.anyone') });
    const formError = h('p.error', { role: 'alert', hidden: true });
    const clockRow = h('div.row', h('label', t('lobby.form.minutes'), minutes), h('label', t('lobby.form.increment'), increment));
    const daysRow = h('div.row', { hidden: true }, h('label', t('lobby.form.daysPerMove'), days));
    const sync = () => {
      clockRow.hidden = kind.value !== 'clock';
      daysRow.hidden = kind.value !== 'days';
      if (kind.value === 'none') rated.checked = false;
      rated.disabled = !me || kind.value === 'none';
      color.disabled = rated.checked;
      if (rated.checked) color.value = 'random';
    };
    kind.addEventListener('change', sync);
    rated.addEventListener('change', sync);
    const dialog = h('dialog.seek-dialog', { 'aria-labelledby': 'seek-title', 'data-seek-dialog': '' },
      h('form', { method: 'dialog', onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); submit(); } },
        h('h2', { id: 'seek-title' }, t('lobby.newSeek')),
        h('label', t('lobby.form.kind'), kind), clockRow, daysRow,
        h('label.check', rated, t('lobby.rated')),
        h('label', t('lobby.form.color'), color),
        h('label', t('lobby.form.opponent'), opponent),
        formError,
        h('div.buttons',
          h('button', { type: 'button', onclick: () => dialog.close() }, t('lobby.cancel')),
          h('button.primary', { type: 'submit', 'data-seek-submit': '' }, t('lobby.form.create')))));
    async function submit() {
      showError(formError, null);
      /** @type {Record<string, any>} */
      const body = { rated: rated.checked, color: color.value };
      if (kind.value === 'clock') body.clock = { initial_s: Number(minutes.value) * 60, increment_s: Number(increment.value) };
      if (kind.value === 'days') body.days = Number(days.value);
      const to = opponent.value.trim();
      try {
        if (to) {
          await request('POST', '/api/challenges', { ...body, to });
          dialog.close();
          toast(t('lobby.challengeSent', { name: to }));
          loadMine();
        } else {
          const made = await request('POST', '/api/lobby/seeks', body);
          dialog.close();
          hold({ id: made.id, token: made.token });
        }
      } catch (e) { showError(formError, e instanceof Error ? e.message : String(e)); }
    }
    return {
      dialog,
      open() {
        sync();
        opponent.disabled = !me;
        if (!me) opponent.placeholder = t('lobby.form.signInToChallenge');
        dialog.showModal();
      },
    };
  }

  request('GET', '/api/account').then((a) => { me = a.username; renderSeeks(); loadMine(); }).catch(() => { me = null; });
  showWaiting();
  renderSeeks();
  connect();
  return () => {
    closed = true;
    form.dialog.remove();
    document.removeEventListener('visibilitychange', onVisible);
    if (socket) socket.close();
    document.title = baseTitle;
  };
}
