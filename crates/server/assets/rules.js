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
import { t } from './i18n.js';

export function mountRules(root) {
  const doc = h('article.rules-doc', { 'aria-busy': 'true' }, h('p', t('rules.loading')));
  root.append(h('div.rules-layout', legend(), doc));
  let alive = true;
  api.rulesHtml().then((html) => {
    if (!alive) return;
    doc.innerHTML = html;
    doc.removeAttribute('aria-busy');
    illustrate(doc);
    if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
  }).catch((e) => {
    if (!alive) return;
    doc.replaceChildren(h('p.error', t('rules.loadFailed', { error: e.message })));
  });
  return () => { alive = false; };
}

/** What each piece looks like, before the text that names them. */
function legend() {
  const items = [
    ['wK', null, 'rules.legend.king'], ['wQ', null, 'rules.legend.queen'], ['wR', null, 'rules.legend.rook'],
    ['wB', null, 'rules.legend.bishop'], ['wN', null, 'rules.legend.knight'], ['wM', null, 'rules.legend.man'],
    ['wT', null, 'rules.legend.tama'], ['wQ', 'bM', 'rules.legend.constructQueen'], ['bM', null, 'rules.legend.blackMan'],
    ['bT', null, 'rules.legend.blackTama'], ['bN', 'wT', 'rules.legend.constructKnight'],
  ];
  return h('section.panel', { 'aria-label': t('rules.legend.label') },
    h('strong', t('rules.legend.title')),
    h('div.legend-grid', items.map(([p, pr, key]) => h('div', { html: pieceIcon(p, pr, 34) }, t(key)))),
    h('p.small', t('rules.legend.note')));
}

const RULE_START = /^(\d\.\d+)\b/;

/** Every element that opens a numbered rule, with its number. */
function ruleStarts(doc) {
  const found = [];
  for (const el of doc.querySelectorAll('p, li')) {
    const m = el.textContent.trim().match(RULE_START);
    if (m && RULE_BOARDS[m[1]] && !found.some((f) => f.id === m[1])) found.push({ el, id: m[1] });
  }
  // Part VII has no number of its own: its board follows its first paragraph.
  for (const hd of doc.querySelectorAll('h1, h2, h3')) {
    if (/(Part|Часть) VII\b/.test(hd.textContent) && RULE_BOARDS.VII) {
      let p = hd.nextElementSibling;
      while (p && p.tagName !== 'P' && !/^H\d$/.test(p.tagName)) p = p.nextElementSibling;
      found.push({ el: p && p.tagName === 'P' ? p : hd, id: 'VII' });
    }
  }
  return found;
}

function illustrate(doc) {
  const starts = ruleStarts(doc);
  const isStart = new Set(starts.map((s) => s.el));
  for (const { el, id } of starts) {
    el.id ||= `rule-${id.replace('.', '-')}`;
    const fig = figure(id, RULE_BOARDS[id]);
    if (!fig) continue;
    if (el.tagName === 'LI') { el.append(fig); continue; }
    // After the rule's whole block: its lists, tables and code, up to the
    // next rule or heading.
    let last = el;
    let next = el.nextElementSibling;
    while (next && !isStart.has(next) && !/^H\d$/.test(next.tagName) && !RULE_START.test(next.textContent.trim())) {
      last = next;
      next = next.nextElementSibling;
    }
    last.after(fig);
  }
}

function figure(id, spec) {
  let pos;
  try { pos = parseLfen(spec.lfen); } catch { return null; }
  const box = h('div.mini');
  const label = id === 'VII' ? t('rules.quickReference') : t('rules.rule', { id });
  const caption = t(`rules.caption.${id}`);
  const fig = h('figure.rule-figure', { 'data-rule': id }, box,
    h('figcaption', h('b', label), caption));
  const board = new Board(box, { small: true, label: t('rules.boardLabel', { label, caption }) });
  const marks = {};
  for (const [cls, list] of [['mark', spec.squares], ['mark-red', spec.red], ['mark-green', spec.green]]) {
    for (const sq of list || []) marks[sq] = cls;
  }
  board.set({ board: pos.board, turn: pos.turn, marks, arrows: spec.arrows || [], lastPath: spec.last || [], mustCapture: spec.must || [] });
  if (spec.flip) board.setFlipped(true);
  return fig;
}
