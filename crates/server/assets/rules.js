// @ts-check
// The rules page (/rules): the server's HTML rendering of docs/RULES.md,
// with a small board after each numbered rule (from rule-boards.js). The
// server sends the rules in the page's language (its `lang` cookie); the
// boards' captions and the legend are translations of this page.

import { api } from './api.js';
import { Board } from './board.js';
import { parseLfen } from './lfen.js';
import { pieceIcon } from './pieces.js';
import { RULE_BOARDS } from './rule-boards.js';
import { h } from './ui.js';
import { pathIcon } from './svg.js';
import { t } from './i18n.js';

/** @param {HTMLElement} root */
export function mountRules(root) {
  const doc = h('article.rules-doc', { 'aria-busy': 'true' }, h('p', t('rules.loading')));
  const toc = h('details.rules-toc', { hidden: true, 'data-toc': '' });
  const top = h('button.rules-top', {
    type: 'button', hidden: true, title: t('rules.toc.top'), 'aria-label': t('rules.toc.top'),
    // On a phone the contents stay pinned above the text: the button
    // opens them where they are, and the page stays at the rule being read.
    onclick: () => { toc.open = true; toc.querySelector('summary')?.focus(); },
  }, pathIcon('M12 5l7 8h-4.5v6h-5v-6H5z', 22));
  root.append(h('div.rules-layout', toc, legend(), doc), top);
  // The contents stay open beside the text on a wide screen; on a phone
  // they fold away above it, and a button brings them back.
  const wide = matchMedia('(min-width: 1180px)');
  let spy = () => {};
  let frame = 0;
  const onScroll = () => {
    top.hidden = toc.hidden || wide.matches || scrollY < 600;
    if (!frame) frame = requestAnimationFrame(() => { frame = 0; spy(); });
  };
  addEventListener('scroll', onScroll, { passive: true });
  let alive = true;
  api.rulesHtml().then((html) => {
    if (!alive) return;
    doc.innerHTML = html;
    forPlayers(doc);
    doc.removeAttribute('aria-busy');
    illustrate(doc);
    reflowTables(doc);
    spy = contents(doc, toc, wide.matches);
    onScroll();
    if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
  }).catch((/** @type {Error} */ e) => {
    if (!alive) return;
    doc.replaceChildren(h('p.error', t('rules.loadFailed', { error: e.message })));
  });
  return () => { alive = false; removeEventListener('scroll', onScroll); };
}

/**
 * The contents: each Part, and under it each numbered rule, as links.
 * Returns the function that marks the link of the part or rule being read.
 * @param {HTMLElement} doc @param {HTMLDetailsElement} toc @param {boolean} open
 * @returns {() => void}
 */
function contents(doc, toc, open) {
  /** @type {{el: Element, rules: {id: string, el: Element, title: string}[]}[]} */
  const parts = [];
  for (const el of doc.children) {
    if (el.tagName === 'H2') {
      el.id ||= `part-${parts.length + 1}`;
      parts.push({ el, rules: [] });
      continue;
    }
    const m = el.tagName === 'P' && (el.textContent || '').trim().match(RULE_START);
    const part = parts[parts.length - 1];
    if (!m || !part || part.rules.some((r) => r.id === m[1])) continue;
    el.id ||= `rule-${m[1].replace('.', '-')}`;
    part.rules.push({ id: m[1], el, title: ruleTitle(el, m[1]) });
  }
  if (!parts.length) return () => {};
  /** @type {[Element, HTMLElement][]} [target, link] in the order of the text */
  const marks = [];
  /** @param {Element} el @param {string} text */
  const link = (el, text) => {
    const a = h('a', { href: `#${el.id}` }, text);
    marks.push([el, a]);
    return a;
  };
  toc.replaceChildren(
    h('summary', t('rules.toc.title')),
    h('nav', { 'aria-label': t('rules.toc.title') },
      h('ol', parts.map((p) => h('li.toc-part', link(p.el, (p.el.textContent || '').trim()),
        p.rules.length ? h('ol.toc-rules', p.rules.map((r) => h('li', link(r.el, r.title)))) : null)))));
  toc.open = open;
  toc.hidden = false;
  // Following a link on a phone folds the contents away again.
  toc.addEventListener('click', (e) => {
    if (/** @type {Element} */ (e.target).closest('a') && !matchMedia('(min-width: 1180px)').matches) toc.open = false;
  });
  /** @type {HTMLElement | null} */
  let shown = null;
  return () => {
    /** @type {HTMLElement | null} */
    let at = null;
    for (const [el, a] of marks) if (el.getBoundingClientRect().top < 120) at = a;
    if (at === shown) return;
    shown?.removeAttribute('aria-current');
    at?.setAttribute('aria-current', 'location');
    shown = at;
    // Beside the text, the contents scroll along to keep the mark in sight.
    if (at && toc.scrollHeight > toc.clientHeight) {
      const box = toc.getBoundingClientRect();
      const r = at.getBoundingClientRect();
      if (r.bottom > box.bottom) toc.scrollTop += r.bottom - box.bottom + 12;
      else if (r.top < box.top) toc.scrollTop -= box.top - r.top + 12;
    }
  };
}

/**
 * The rules as players read them: the title, then a word on what they are
 * and that the Russian text is the game's original, in place of the
 * document's own preamble (which speaks to developers: which text is
 * authoritative, the source files it comes from).
 * @param {HTMLElement} doc
 */
function forPlayers(doc) {
  const title = doc.querySelector('h1');
  for (const el of [...doc.children]) {
    if (el.tagName === 'H2') break;
    if (el !== title) el.remove();
  }
  const intro = h('p.rules-intro', { 'data-rules-intro': '' }, t('rules.intro'));
  if (title) title.after(intro);
  else doc.prepend(intro);
}

/**
 * Wide tables (four columns or more) become one card per row on a narrow
 * screen (analysis.css): each cell names its column, from the header.
 * @param {HTMLElement} doc
 */
function reflowTables(doc) {
  for (const table of doc.querySelectorAll('table')) {
    const heads = [...table.querySelectorAll('thead th')].map((th) => (th.textContent || '').trim());
    if (heads.length < 4) continue;
    table.classList.add('reflow');
    for (const tr of table.querySelectorAll('tbody tr')) {
      [...tr.children].forEach((td, i) => { if (heads[i]) /** @type {HTMLElement} */ (td).dataset.label = heads[i]; });
    }
  }
}

/** "1.1 Board": the rule's number and its bold name, else its first words. @param {Element} el @param {string} id */
function ruleTitle(el, id) {
  const strong = el.querySelector('strong');
  const lead = !!strong && (strong.previousSibling?.textContent || '').trim() === id && strong.parentElement === el;
  let name = strong && lead ? strong.textContent || '' : (el.textContent || '').trim().slice(id.length);
  name = name.trim().replace(/[.:]$/, '');
  if (!lead && name.length > 36) name = name.slice(0, 34).replace(/\s+\S*$/, '') + '…';
  return `${id} ${name}`;
}

/** What each piece looks like, before the text that names them. */
function legend() {
  /** @type {[string, string | undefined, string][]} */
  const items = [
    ['wK', undefined, 'rules.legend.king'], ['wQ', undefined, 'rules.legend.queen'], ['wR', undefined, 'rules.legend.rook'],
    ['wB', undefined, 'rules.legend.bishop'], ['wN', undefined, 'rules.legend.knight'], ['wM', undefined, 'rules.legend.man'],
    ['wT', undefined, 'rules.legend.tama'], ['wQ', 'bM', 'rules.legend.constructQueen'], ['bM', undefined, 'rules.legend.blackMan'],
    ['bT', undefined, 'rules.legend.blackTama'], ['bN', 'wT', 'rules.legend.constructKnight'],
  ];
  return h('section.panel', { 'aria-label': t('rules.legend.label') },
    h('strong', t('rules.legend.title')),
    h('div.legend-grid', items.map(([p, pr, key]) => h('div', pieceIcon(p, pr, 34), t(key)))),
    h('p.small', t('rules.legend.note')));
}

const RULE_START = /^(\d\.\d+)\b/;

/** Every element that opens a numbered rule, with its number. @param {HTMLElement} doc */
function ruleStarts(doc) {
  /** @type {{el: Element, id: string}[]} */
  const found = [];
  for (const el of doc.querySelectorAll('p, li')) {
    const m = (el.textContent || '').trim().match(RULE_START);
    if (m && boardOf(m[1]) && !found.some((f) => f.id === m[1])) found.push({ el, id: m[1] });
  }
  // Part VII has no number of its own: its board follows its first paragraph.
  for (const hd of doc.querySelectorAll('h1, h2, h3')) {
    if (/(Part|Часть) VII\b/.test(hd.textContent || '') && RULE_BOARDS.VII) {
      let p = hd.nextElementSibling;
      while (p && p.tagName !== 'P' && !/^H\d$/.test(p.tagName)) p = p.nextElementSibling;
      found.push({ el: p && p.tagName === 'P' ? p : hd, id: 'VII' });
    }
  }
  return found;
}

/** @param {HTMLElement} doc */
function illustrate(doc) {
  const starts = ruleStarts(doc);
  const isStart = new Set(starts.map((s) => s.el));
  for (const { el, id } of starts) {
    el.id ||= `rule-${id.replace('.', '-')}`;
    const spec = boardOf(id);
    const fig = spec && figure(id, spec);
    if (!fig) continue;
    if (el.tagName === 'LI') { el.append(fig); continue; }
    // After the rule's whole block: its lists, tables and code, up to the
    // next rule or heading.
    let last = el;
    let next = el.nextElementSibling;
    while (next && !isStart.has(next) && !/^H\d$/.test(next.tagName) && !RULE_START.test((next.textContent || '').trim())) {
      last = next;
      next = next.nextElementSibling;
    }
    last.after(fig);
  }
}

/**
 * @typedef {{lfen: string, squares?: string[], red?: string[], green?: string[], arrows?: import('./board.js').Arrow[], last?: string[], must?: string[], flip?: boolean}} RuleBoard
 */

/** The board of a rule, if it has one. @param {string} id @returns {RuleBoard | null} */
function boardOf(id) {
  return /** @type {Record<string, RuleBoard>} */ (RULE_BOARDS)[id] || null;
}

/** @param {string} id @param {RuleBoard} spec */
function figure(id, spec) {
  let pos;
  try { pos = parseLfen(spec.lfen); } catch { return null; }
  const box = h('div.mini');
  const label = id === 'VII' ? t('rules.quickReference') : t('rules.rule', { id });
  const caption = t(`rules.caption.${id}`);
  const fig = h('figure.rule-figure', { 'data-rule': id }, box,
    h('figcaption', h('b', label), caption));
  const board = new Board(box, { small: true, label: t('rules.boardLabel', { label, caption }) });
  /** @type {Record<string, string>} */
  const marks = {};
  /** @type {[string, string[] | undefined][]} */
  const kinds = [['mark', spec.squares], ['mark-red', spec.red], ['mark-green', spec.green]];
  for (const [cls, list] of kinds) {
    for (const sq of list || []) marks[sq] = cls;
  }
  board.set({ board: pos.board, turn: pos.turn, marks, arrows: spec.arrows || [], lastPath: spec.last || [], mustCapture: spec.must || [] });
  if (spec.flip) board.setFlipped(true);
  return fig;
}
