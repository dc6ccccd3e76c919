// @ts-check
// A player's page, /@/{name} (docs/API.md, "Players"): ratings per speed
// class (a provisional one with "?"), the rating history as a small
// inline SVG chart, wins, draws, losses and Phase 1 wins, the game
// archive paged with its filters, and the export of every game.

import { request, ApiError } from './api.js';
import { h, sideName } from './ui.js';
import { t, locale } from './i18n.js';
import { profilePath } from './account.js';

export const CLASSES = /** @type {const} */ (['bullet', 'blitz', 'rapid', 'classical', 'correspondence']);
/** A line's colour for each class in the chart. */
const COLOURS = { bullet: '#c0392b', blitz: '#2f6f4f', rapid: '#1f6feb', classical: '#8e44ad', correspondence: '#b7791f' };
const SVG = 'http://www.w3.org/2000/svg';

/** A rating as people read it: rounded, "?" while provisional. @param {{rating: number, provisional?: boolean}} r */
export const ratingText = (r) => `${Math.round(r.rating)}${r.provisional ? '?' : ''}`;

/** A day as the reader writes it. @param {number} ms */
export const dateText = (ms) => new Date(ms).toLocaleDateString(locale, { year: 'numeric', month: 'short', day: 'numeric' });

/** A player's name as a link, or the words for a seat without one. @param {string | null} name */
export function playerName(name) {
  if (name === null) return h('span.anonymous', t('profile.anonymous'));
  if (name === 'deleted') return h('span.deleted', t('profile.deleted'));
  return h('a', { href: profilePath(name) }, name);
}

/**
 * An SVG element with attributes.
 * @param {string} tag @param {Record<string, string | number>} attrs @param {...Node} children
 */
function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  el.append(...children);
  return el;
}

/**
 * The rating history: a line per class, time across, rating up.
 * @param {Record<string, [number, number][]>} history
 */
export function historyChart(history) {
  const series = CLASSES.filter((c) => Array.isArray(history[c]) && history[c].length);
  if (!series.length) return h('p.small', { 'data-no-history': '' }, t('profile.noHistory'));
  const points = series.flatMap((c) => history[c]);
  // As wide as the screen allows, so that its words keep their size on a phone.
  const W = Math.round(Math.min(600, Math.max(300, window.innerWidth - 48))), H = 220, PAD = 40;
  let t0 = Math.min(...points.map((p) => p[0]));
  let t1 = Math.max(...points.map((p) => p[0]));
  if (t1 === t0) { t0 -= 86400000; t1 += 86400000; }
  let lo = Math.min(...points.map((p) => p[1]));
  let hi = Math.max(...points.map((p) => p[1]));
  lo = Math.floor((lo - 20) / 50) * 50;
  hi = Math.ceil((hi + 20) / 50) * 50;
  const x = (/** @type {number} */ ms) => PAD + ((ms - t0) / (t1 - t0)) * (W - PAD - 10);
  const y = (/** @type {number} */ r) => H - 24 - ((r - lo) / (hi - lo)) * (H - 34);
  const chart = svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', class: 'rating-chart', 'data-rating-chart': '' });
  chart.append(svg('title', {}, document.createTextNode(t('profile.chartLabel'))));
  for (const r of [lo, (lo + hi) / 2, hi]) {
    chart.append(svg('line', { x1: PAD, x2: W - 10, y1: y(r), y2: y(r), class: 'grid' }),
      svg('text', { x: PAD - 6, y: y(r) + 4, 'text-anchor': 'end', class: 'axis' }, document.createTextNode(String(Math.round(r)))));
  }
  chart.append(svg('text', { x: PAD, y: H - 6, class: 'axis' }, document.createTextNode(dateText(t0))),
    svg('text', { x: W - 10, y: H - 6, 'text-anchor': 'end', class: 'axis' }, document.createTextNode(dateText(t1))));
  for (const c of series) {
    const pts = history[c].map(([ms, r]) => `${x(ms).toFixed(1)},${y(r).toFixed(1)}`).join(' ');
    chart.append(svg('polyline', { points: pts, fill: 'none', stroke: COLOURS[c], 'stroke-width': 2.5, 'data-class': c }));
    for (const [ms, r] of history[c]) chart.append(svg('circle', { cx: x(ms), cy: y(r), r: 3, fill: COLOURS[c] }));
  }
  const legend = h('ul.chart-legend', series.map((c) => h('li', h('span.swatch', { style: `background:${COLOURS[c]}` }), t(`class.${c}`))));
  return h('figure.rating-history', chart, legend);
}

/** The page. @param {HTMLElement} root @param {string} name */
export function mountProfile(root, name) {
  const page = h('section.profile-page', { 'data-profile': '' }, h('p.small', t('profile.loading')));
  root.append(page);
  let alive = true;
  (async () => {
    let p;
    try {
      p = await request('GET', `/api/users/${encodeURIComponent(name)}`);
    } catch (e) {
      if (!alive) return;
      const missing = e instanceof ApiError && e.status === 404;
      page.replaceChildren(h('h1', missing ? t('profile.noSuchPlayer') : t('profile.title')),
        h('p.error', e instanceof Error ? e.message : String(e)));
      return;
    }
    if (!alive) return;
    document.title = t('profile.pageTitle', { name: p.username });
    const c = p.counts;
    const ratings = h('div.rating-cards', CLASSES.map((k) => {
      const r = p.ratings[k];
      return h('div.rating-card', { 'data-class': k },
        h('span.class-name', t(`class.${k}`)),
        h('strong.rating', { 'data-rating': '' }, r ? ratingText(r) : '1500?'),
        h('span.small', t('profile.games', { n: r ? r.games : 0 })));
    }));
    const counts = h('dl.counts', { 'data-counts': '' },
      ...[['games', c.games], ['wins', c.wins], ['draws', c.draws], ['losses', c.losses], ['phaseOne', c.phase_one_wins]]
        .map(([k, v]) => h('div', { 'data-count': k }, h('dt', t(`profile.count.${k}`)), h('dd', String(v)))));
    const archive = h('section.archive', { 'aria-label': t('profile.archive') });
    page.replaceChildren(
      h('header.profile-head', h('h1', p.username), h('p.small', t('profile.since', { date: dateText(p.created_ms) }))),
      h('h2', t('profile.ratings')), ratings,
      h('p.small', t('profile.provisionalNote')),
      h('h2', t('profile.history')), historyChart(p.history || {}),
      h('h2', t('profile.results')), counts,
      h('h2', t('profile.archive')), archive,
      h('p', h('a.button', { href: `/api/users/${encodeURIComponent(p.username)}/games`, download: `legion-${p.username}.pgn`, 'data-export': '' }, t('profile.export'))));
    mountArchive(archive, p.username);
  })();
  return () => { alive = false; };
}

/**
 * The archive: filters, a page of games, the pager.
 * @param {HTMLElement} box @param {string} name
 */
function mountArchive(box, name) {
  /** @param {string} n @param {string[]} values @param {string} prefix */
  const select = (n, values, prefix) => h('label.field', h('span', t(`profile.filter.${n}`)),
    h('select', { name: n }, h('option', { value: '' }, t('profile.filter.any')),
      values.map((v) => h('option', { value: v }, t(`${prefix}${v}`)))));
  const form = h('form.archive-filters', { 'data-archive-filters': '' },
    select('result', ['win', 'draw', 'loss'], 'profile.result.'),
    h('label.field', h('span', t('profile.filter.opponent')), h('input', { name: 'opponent', maxlength: 20, autocomplete: 'off', autocapitalize: 'off' })),
    select('rated', ['true', 'false'], 'profile.rated.'),
    select('class', [...CLASSES], 'class.'),
    h('button', { type: 'submit' }, t('profile.filter.apply')));
  const list = h('div.archive-list', { 'data-archive': '' });
  const pager = h('nav.pager', { 'aria-label': t('profile.pages') });
  box.replaceChildren(form, list, pager);
  let page = 1;
  const query = () => {
    const f = /** @type {HTMLFormElement} */ (form);
    const q = new URLSearchParams();
    q.set('page', String(page));
    for (const n of ['result', 'opponent', 'rated', 'class']) {
      const v = String(new FormData(f).get(n) || '').trim();
      if (v) q.set(n, v);
    }
    return q;
  };
  const load = async () => {
    let r;
    try {
      r = await request('GET', `/api/users/${encodeURIComponent(name)}/archive?${query()}`);
    } catch (e) {
      list.replaceChildren(h('p.error', e instanceof Error ? e.message : String(e)));
      return;
    }
    /** @type {any[]} */
    const games = r.games;
    list.replaceChildren(games.length ? h('table.archive-table',
      h('thead', h('tr', ...['date', 'white', 'black', 'result', 'class', 'moves'].map((k) => h('th', t(`profile.col.${k}`))))),
      h('tbody', games.map((g) => h('tr', { 'data-game': g.id },
        h('td', h('a', { href: `/g/${g.id}` }, dateText(g.ended_ms))),
        h('td', side(g, 'w')),
        h('td', side(g, 'b')),
        h('td.result', resultFor(g, name)),
        h('td', [g.class ? t(`class.${g.class}`) : t('class.none'), ' · ', g.rated ? t('profile.rated.true') : t('profile.rated.false')]),
        h('td', String(Math.ceil(g.plies / 2)))))))
      : h('p.small', { 'data-archive-empty': '' }, t('profile.noGames')));
    pager.replaceChildren(
      h('button', { type: 'button', disabled: page <= 1, onclick: () => { page -= 1; load(); } }, t('profile.prev')),
      h('span', { 'data-page': '' }, t('profile.page', { page: r.page, pages: r.pages })),
      h('button', { type: 'button', disabled: page >= r.pages, onclick: () => { page += 1; load(); } }, t('profile.next')));
  };
  form.addEventListener('submit', (/** @type {Event} */ e) => { e.preventDefault(); page = 1; load(); });
  load();
}

/** A seat of an archived game: the player, the engine, or nobody's. @param {any} g @param {'w' | 'b'} s */
function side(g, s) {
  const name = s === 'w' ? g.white : g.black;
  const rating = s === 'w' ? g.white_rating : g.black_rating;
  if (name === null && g.mode === 'engine' && g.engine === s) return t('profile.engine', { level: g.level ?? '' });
  return [playerName(name), typeof rating === 'number' ? h('span.small', ` ${Math.round(rating)}`) : ''];
}

/** The result, and whether it was a win for the profile's player. @param {any} g @param {string} name */
function resultFor(g, name) {
  const lower = name.toLowerCase();
  const mine = (g.white || '').toLowerCase() === lower ? 'w' : 'b';
  const won = (g.result === '1-0' && mine === 'w') || (g.result === '0-1' && mine === 'b');
  const lost = (g.result === '1-0' && mine === 'b') || (g.result === '0-1' && mine === 'w');
  const word = won ? t('profile.result.win') : lost ? t('profile.result.loss') : t('profile.result.draw');
  return h('span', { class: won ? 'won' : lost ? 'lost' : 'drawn', title: sideName(mine) }, `${g.result} · ${word}`);
}
