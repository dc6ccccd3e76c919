// @ts-check
// The leaderboards, /players (docs/API.md, "Players"): the best players
// of each speed class whose rating is settled (deviation below 150) and
// who played rated in the last 30 days.

import { request } from './api.js';
import { h } from './ui.js';
import { t } from './i18n.js';
import { CLASSES, playerName } from './profile.js';

/** @param {HTMLElement} root */
export function mountLeaderboard(root) {
  const boards = h('div.leaderboards', { 'data-leaderboards': '' }, h('p.small', t('profile.loading')));
  root.append(h('section.players-page', h('h1', t('players.title')), h('p.small', t('players.about')), boards));
  let alive = true;
  request('GET', '/api/leaderboard').then((b) => {
    if (!alive) return;
    boards.replaceChildren(...CLASSES.map((c) => {
      /** @type {{username: string, rating: number, rd: number, games: number}[]} */
      const lines = Array.isArray(b[c]) ? b[c] : [];
      return h('section.board-list', { 'data-class': c },
        h('h2', t(`class.${c}`)),
        lines.length
          ? h('ol.ranking', lines.map((l, i) => h('li', { 'data-player': l.username },
            h('span.rank', `${i + 1}.`), playerName(l.username), h('strong.rating', String(Math.round(l.rating))), h('span.small', t('profile.games', { n: l.games })))))
          : h('p.small', t('players.nobody')));
    }));
  }, (e) => { if (alive) boards.replaceChildren(h('p.error', e instanceof Error ? e.message : String(e))); });
  return () => { alive = false; };
}
