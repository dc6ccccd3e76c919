// @ts-check
// TV, /tv (docs/API.md, "Players"): the highest-rated game being played,
// live (the game page's board, watching), and the list of the others.
// The list is read again every 20 seconds; when the game shown has ended,
// the next featured one takes its place.

import { request } from './api.js';
import { h } from './ui.js';
import { t } from './i18n.js';
import { playerName } from './profile.js';
import { mountGame } from './game.js';

/**
 * @typedef {{id: string, white: string | null, black: string | null, white_rating: number, black_rating: number,
 *   class: string | null, rated: boolean, plies: number}} Summary
 */

/** @param {HTMLElement} root @param {(path: string) => void} navigate */
export function mountTv(root, navigate) {
  const featured = h('div.tv-featured', { 'data-tv-featured': '' });
  const list = h('ol.tv-list', { 'data-tv-list': '' });
  const empty = h('p.tv-empty', { hidden: true, 'data-tv-empty': '' }, t('tv.none'), ' ', h('a', { href: '/' }, t('tv.play')));
  root.append(h('section.tv-page', h('h1', t('tv.title')), empty, featured, h('h2', t('tv.others')), list));
  /** @type {string | null} */
  let shown = null;
  /** @type {(() => void) | null} */
  let unmountGame = null;
  let alive = true;
  /** @param {Summary} g */
  const line = (g) => h('li', { 'data-tv-game': g.id },
    h('a', { href: `/g/${g.id}` }, t('tv.watch')), ' ',
    playerName(g.white), h('span.small', ` ${Math.round(g.white_rating)}`), ' – ',
    playerName(g.black), h('span.small', ` ${Math.round(g.black_rating)}`), ' ',
    h('span.small', [g.class ? t(`class.${g.class}`) : t('class.none'), g.rated ? ` · ${t('profile.rated.true')}` : '']));
  const refresh = async () => {
    let tv;
    try { tv = await request('GET', '/api/tv'); } catch { return; }
    if (!alive) return;
    /** @type {Summary[]} */
    const games = Array.isArray(tv.games) ? tv.games : [];
    const stillOn = shown !== null && games.some((g) => g.id === shown);
    const next = stillOn ? shown : tv.featured ? tv.featured.id : null;
    if (next !== shown) {
      unmountGame?.();
      unmountGame = null;
      featured.replaceChildren();
      shown = next;
      featured.dataset.game = next || '';
      if (next) {
        const g = games.find((x) => x.id === next);
        const box = h('div.tv-game');
        if (g) featured.append(h('p.tv-players', { 'data-tv-players': '' }, ...Array.from(line(g).childNodes).slice(2)));
        featured.append(box);
        unmountGame = mountGame(box, { id: next, navigate });
      }
    }
    empty.hidden = games.length > 0;
    list.replaceChildren(...games.filter((g) => g.id !== shown).map(line));
    if (!list.childNodes.length) list.append(h('li.small', t('tv.noOthers')));
  };
  refresh();
  const timer = setInterval(refresh, 20000);
  return () => { alive = false; clearInterval(timer); unmountGame?.(); };
}
