// @ts-check
// The practice lessons (/learn, and /learn/<task> for one task): short
// tasks that teach each rule of docs/RULES.md by doing it, as lichess's
// /learn and lidraughts' gamebooks do. The lessons are data
// (lessons.json; crates/server/tests/suite/lessons.rs replays every task's
// solution with the rules crate, so none is impossible). The moves are
// the server's: /api/position gives the legal moves and the position
// after each, /api/explain says why a move is not legal and cites its
// rule. The page applies no rule of its own: it only judges the goal
// from the placement the server sends.
//
// Black's replies: the task's scripted reply for that move number when it
// is legal, otherwise the first legal move in canonical order. Every task
// is set so that Black's moves cannot spoil it (a lone King far away, or
// forced replies), and the same reply always follows the same move.
// Progress (the best stars of each task) is kept in this browser.

import { api, request } from './api.js';
import { Board } from './board.js';
import { parseLfen } from './lfen.js';
import { h, setText, showError } from './ui.js';
import { t, tServer } from './i18n.js';

/**
 * @typedef {{type: string, square?: string, piece?: string, count?: number}} Goal
 * @typedef {{id: string, rule: string, lfen: string, goal: Goal, par: number, limit?: number, solution: string[]}} Task
 * @typedef {{id: string, rules: string[], tasks: Task[]}} Lesson
 * @typedef {{board: Record<string, {piece: string, prisoner?: string}>, turn: string, check: boolean,
 *   kings: Record<string, boolean>, legal: any[], must_capture: string[], outcome: any, lfen: string}} View
 */

const STORE = 'legion:learn';
/** Black waits this long before it answers, so the player's move is seen to land. */
const REPLY_PAUSE_MS = 350;

/** @type {Promise<Lesson[]> | null} */
let loading = null;

/** The lessons, fetched once. @returns {Promise<Lesson[]>} */
function lessons() {
  loading ||= request('GET', '/static/lessons.json').then((d) => {
    if (!d || !Array.isArray(d.lessons)) throw new Error(t('errors.unreadable'));
    return /** @type {Lesson[]} */ (d.lessons);
  });
  loading.catch(() => { loading = null; });
  return loading;
}

/** The best stars of each task done in this browser: {taskId: 1..3}. @returns {Record<string, number>} */
export function progress() {
  /** @type {Record<string, number>} */
  const out = {};
  try {
    const v = JSON.parse(localStorage.getItem(STORE) || '{}');
    if (v && typeof v === 'object') {
      for (const [k, n] of Object.entries(v)) if (n === 1 || n === 2 || n === 3) out[k] = n;
    }
  } catch { /* unreadable: no progress */ }
  return out;
}

/** Keeps `stars` for task `id` unless it already has more. @param {string} id @param {number} stars */
function keepStars(id, stars) {
  const p = progress();
  if ((p[id] || 0) >= stars) return;
  p[id] = stars;
  try { localStorage.setItem(STORE, JSON.stringify(p)); } catch { /* private mode: this page only */ }
}

/** Three stars at the par, two up to two moves above it, one beyond. @param {number} moves @param {number} par */
export const starsFor = (moves, par) => (moves <= par ? 3 : moves <= par + 2 ? 2 : 1);

/** The most moves a task allows: its limit, else par + 3 (tests/suite/lessons.rs reads it the same way). @param {Task} task */
const limitOf = (task) => task.limit ?? task.par + 3;

/** The rules page at rule `id` (rules.js names each rule `rule-4-1`). @param {string} id */
const ruleHref = (id) => `/rules#rule-${id.replace('.', '-')}`;

/** @param {string} id */
const ruleLink = (id) => h('a.rule-link', { href: ruleHref(id), 'data-rule-link': id }, t('learn.ruleLink', { id }));

/** @param {number} n out of 3 */
function starsView(n) {
  return h('span.stars', { 'data-stars': String(n), role: 'img', 'aria-label': t('learn.stars', { n }) },
    [1, 2, 3].map((i) => h(i <= n ? 'span.star.on' : 'span.star', { 'aria-hidden': 'true' }, i <= n ? '★' : '☆')));
}

/**
 * Whether `goal` is met in the server's view `now` of a task begun at
 * `start`, the player being `player`: judged from the placement, as
 * tests/suite/lessons.rs `reached` judges it.
 * @param {Goal} goal @param {View} start @param {View} now @param {string} player
 */
export function reached(goal, start, now, player) {
  const opp = player === 'w' ? 'b' : 'w';
  const cells = (/** @type {View} */ v) => Object.values(v.board || {});
  const at = (/** @type {string | undefined} */ sq) => (sq ? (now.board || {})[sq] : undefined);
  /** Squares whose top piece is `side`'s: a man taken prisoner leaves its side's count. */
  const owned = (/** @type {View} */ v, /** @type {string} */ side) => cells(v).filter((c) => c.piece[0] === side).length;
  const count = goal.count ?? 1;
  const legion = (/** @type {string} */ p) => p[1] === 'M' || p[1] === 'T';
  switch (goal.type) {
    case 'reach': { const c = at(goal.square); return !!c && c.piece === player + goal.piece && !c.prisoner; }
    case 'tama': return cells(now).filter((c) => c.piece === player + 'T').length >= count;
    case 'capture': return owned(start, opp) - owned(now, opp) >= count;
    case 'prisoner': return cells(now).filter((c) => c.piece[0] === player && c.prisoner).length >= count;
    case 'free': { const c = at(goal.square); return !!c && c.piece[0] === player && legion(c.piece) && !c.prisoner; }
    case 'absorb': { const c = at(goal.square); return !!c && c.piece[0] === player && !legion(c.piece); }
    case 'escape': return !(now.turn === player && now.check);
    case 'mate': return !!now.kings && now.kings[opp] === false;
    case 'win': return !!now.outcome && now.outcome.result === (player === 'w' ? '1-0' : '0-1');
    default: throw new Error(`lessons.json: no goal type '${goal.type}'`);
  }
}

/**
 * @param {HTMLElement} root
 * @param {{taskId: string | null, navigate: (url: string) => void}} opts
 */
export function mountLearn(root, { taskId, navigate }) {
  let close = () => {};
  let alive = true;
  const box = h('div.learn', { 'aria-busy': 'true' });
  root.append(box);
  lessons().then((list) => {
    if (!alive) return;
    box.removeAttribute('aria-busy');
    if (!taskId) {
      showList(box, list);
      return;
    }
    const where = find(list, taskId);
    if (!where) {
      box.append(h('section.learn-page', h('p.error', t('learn.notFound', { id: taskId })), h('p', h('a', { href: '/learn' }, t('learn.back')))));
      return;
    }
    const page = new TaskPage(box, list, where, navigate);
    close = () => page.destroy();
  }, (e) => {
    if (!alive) return;
    box.removeAttribute('aria-busy');
    box.append(h('p.error', t('learn.loadFailed', { error: e instanceof Error ? e.message : String(e) })));
  });
  return () => { alive = false; close(); };
}

/** @param {Lesson[]} list @param {string} id */
function find(list, id) {
  for (let li = 0; li < list.length; li++) {
    const ti = list[li].tasks.findIndex((x) => x.id === id);
    if (ti >= 0) return { lesson: list[li], li, task: list[li].tasks[ti], ti };
  }
  return null;
}

/** The task after `id`, across lessons, or null after the last. @param {Lesson[]} list @param {string} id */
function nextTask(list, id) {
  const all = list.flatMap((l) => l.tasks);
  const i = all.findIndex((x) => x.id === id);
  return i >= 0 && i + 1 < all.length ? all[i + 1] : null;
}

/** The list of lessons with each task's stars. @param {HTMLElement} box @param {Lesson[]} list */
function showList(box, list) {
  const p = progress();
  const all = list.flatMap((l) => l.tasks);
  const done = all.filter((x) => p[x.id]).length;
  const stars = all.reduce((s, x) => s + (p[x.id] || 0), 0);
  const firstOpen = all.find((x) => !p[x.id]);
  const reset = h('button', {
    type: 'button', 'data-learn-reset': '', hidden: !done,
    onclick: () => {
      if (!confirm(t('learn.resetSure'))) return;
      try { localStorage.removeItem(STORE); } catch { /* nothing kept */ }
      box.replaceChildren();
      showList(box, list);
    },
  }, t('learn.reset'));
  box.append(h('section.learn-page', { 'data-learn-list': '' },
    h('h1', t('learn.title')),
    h('p.learn-intro', t('learn.intro')),
    h('p.learn-progress', { 'data-learn-progress': '' }, t('learn.progress', { done, total: all.length, stars, max: 3 * all.length })),
    firstOpen
      ? h('p', h('a.button.primary', { href: `/learn/${firstOpen.id}`, 'data-learn-continue': '' }, t('learn.continue', { title: t(`learn.task.${firstOpen.id}.title`) })))
      : h('p.note', t('learn.allDone'), ' ', h('a', { href: '/' }, t('learn.play'))),
    h('ol.learn-lessons', list.map((l, i) => h('li.panel.learn-lesson', { 'data-lesson': l.id },
      h('h2', h('span.small', t('learn.lessonN', { n: i + 1 })), ' ', t(`learn.lesson.${l.id}.title`)),
      h('p.small', t(`learn.lesson.${l.id}.about`), ' ', l.rules.flatMap((r, k) => (k ? [', ', ruleLink(r)] : [ruleLink(r)]))),
      h('ol.learn-tasks', l.tasks.map((x) => h('li',
        h('a.learn-task', { href: `/learn/${x.id}`, 'data-task': x.id, 'data-stars': String(p[x.id] || 0) },
          h('span.learn-task-title', t(`learn.task.${x.id}.title`)), starsView(p[x.id] || 0)))))))),
    h('p', reset)));
}

class TaskPage {
  /**
   * @param {HTMLElement} box
   * @param {Lesson[]} list
   * @param {{lesson: Lesson, li: number, task: Task, ti: number}} where
   * @param {(url: string) => void} navigate
   */
  constructor(box, list, where, navigate) {
    this.list = list;
    this.task = where.task;
    this.navigate = navigate;
    this.player = parseLfen(this.task.lfen).turn;
    this.destroyed = false;
    /** A new try (Retry) makes every answer of the one before stale. */
    this.generation = 0;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.pause = undefined;
    /** the player's moves in this try */
    this.moves = 0;
    /** @type {string[]} every move of this try, both sides', canonical */
    this.line = [];
    /** the goal is reached, or the try failed */
    this.finished = false;
    /** @type {View | null} the position shown */
    this.view = null;
    /** @type {View | null} the task's start, as the server sees it */
    this.startView = null;
    const task = this.task;

    const boardBox = h('div.board-box');
    this.board = new Board(boardBox, {
      label: t('analysis.boardLabel'),
      onMove: (m) => this.play(m),
      onAttempt: (sq) => this.attempt(sq),
    });
    this.board.setFlipped(this.player === 'b');
    this.status = h('div.status', { 'data-status': '', role: 'status', 'aria-live': 'polite' });
    this.counter = h('div.small', { 'data-learn-moves': '' });
    this.error = h('div.error', { 'data-error': '', role: 'alert', hidden: true });
    this.phase = h('div.note.phase', { hidden: true, 'data-learn-phase': '' }, t('learn.blackNoKing'));
    this.doneText = h('p', t(`learn.task.${task.id}.done`));
    this.stars = h('div.learn-stars');
    const next = nextTask(list, task.id);
    this.result = h('div.panel.learn-result', { hidden: true, 'data-learn-result': '', role: 'status' },
      h('strong.learn-done', t('learn.done')), this.stars, h('p.small', t('learn.starsHint')), this.doneText,
      h('div.row',
        next
          ? h('a.button.primary', { href: `/learn/${next.id}`, 'data-learn-next': '', onclick: (/** @type {MouseEvent} */ e) => this.go(e, `/learn/${next.id}`) }, t('learn.next'))
          : h('a.button.primary', { href: '/learn', 'data-learn-next': '', onclick: (/** @type {MouseEvent} */ e) => this.go(e, '/learn') }, t('learn.back')),
        h('button', { type: 'button', onclick: () => this.start() }, t('learn.retry'))));

    // Four parts: the task's words, the board, the play (status, moves,
    // a refusal) and the result; learn.css places them beside the board on
    // a wide screen, and words, board, play, result in a column on a phone.
    box.append(h('div.learn-layout', { 'data-learn-task': task.id },
      h('div.panel.learn-head',
        h('div.small.learn-crumbs',
          h('a', { href: '/learn', onclick: (/** @type {MouseEvent} */ e) => this.go(e, '/learn') }, t('learn.back')), ' · ',
          t('learn.lessonN', { n: where.li + 1 }), ' · ', t('learn.taskN', { n: where.ti + 1, total: where.lesson.tasks.length })),
        h('h1', t(`learn.task.${task.id}.title`)),
        h('p.learn-goal', { 'data-learn-goal': '' }, h('strong', t('learn.goal') + ': '), t(`learn.task.${task.id}.goal`), ' ', ruleLink(task.rule))),
      h('section.board-col', { 'aria-label': t('game.region.board') }, boardBox),
      h('div.panel.learn-play',
        this.status,
        h('div.row.learn-counter', this.counter, task.limit ? h('span.small', t('learn.limit', { limit: task.limit })) : null,
          h('button', { type: 'button', 'data-learn-retry': '', onclick: () => this.start() }, t('learn.retry'))),
        this.phase, this.error),
      this.result));
    this.start();
  }

  destroy() {
    this.destroyed = true;
    clearTimeout(this.pause);
  }

  /** Follows a page link without reloading. @param {MouseEvent} e @param {string} url */
  go(e, url) {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    this.navigate(url);
  }

  /** A new try from the task's start. */
  async start() {
    clearTimeout(this.pause);
    const gen = ++this.generation;
    this.moves = 0;
    this.line = [];
    this.finished = false;
    this.view = null;
    this.result.hidden = true;
    delete this.status.dataset.failed;
    this.showError('');
    this.countMoves();
    try {
      /** @type {View} */
      const v = await api.position(this.task.lfen, 'default');
      if (gen !== this.generation || this.destroyed) return;
      this.startView = v;
      this.show(v, null, null);
    } catch (e) {
      if (gen === this.generation && !this.destroyed) this.showError(e instanceof Error ? e.message : String(e));
    }
  }

  /**
   * Draws the server's view `v`; the player may move when it is the
   * player's turn and the task is not over.
   * @param {View} v @param {any} last the move that led here @param {View | null} before
   */
  show(v, last, before) {
    this.view = v;
    const mine = v.turn === this.player && !this.finished && !v.outcome;
    const check = v.check ? Object.entries(v.board || {}).find(([, o]) => o.piece === v.turn + 'K')?.[0] : null;
    this.board.set({
      board: v.board, turn: v.turn, legal: mine ? v.legal : [], movable: mine,
      checkSquare: check, mustCapture: mine ? v.must_capture : [],
      lastPath: last ? last.path : [], lastCaptured: last ? last.captured || [] : [],
    }, { animate: last && before ? { move: last, before: before.board } : null });
    this.phase.hidden = !(v.kings && v.kings.b === false && this.player === 'w');
    if (!this.finished) setText(this.status, mine ? t('learn.yourMove') : t('learn.replying'));
    this.status.dataset.turn = v.turn;
    // Moves shown so far, both sides': a test waits on it, not on time.
    this.status.dataset.plies = String(this.line.length);
  }

  countMoves() {
    setText(this.counter, t('learn.moves', { n: this.moves, par: this.task.par }));
  }

  /** @param {string} text */
  showError(text) {
    showError(this.error, text);
  }

  /**
   * A move the board entered that no legal move matched: the server says
   * why, with its rule, or finds the move (a capture series given by its
   * ends only).
   * @param {string[]} squares
   */
  async attempt(squares) {
    const v = this.view;
    if (!v || this.finished) return;
    const gen = this.generation;
    try {
      const r = await api.explain(v.lfen, 'default', squares);
      if (gen !== this.generation || this.destroyed) return;
      if (r.legal && r.move) {
        this.play((v.legal || []).find((m) => m.canonical === r.move.canonical) || r.move);
        return;
      }
      this.wrong(r.error || t('analysis.illegal'), typeof r.rule === 'string' ? r.rule : null);
    } catch (e) {
      if (gen === this.generation) this.showError(e instanceof Error ? e.message : String(e));
    }
  }

  /** A move refused, told with its rule and a link to it. @param {string} text @param {string | null} rule */
  wrong(text, rule) {
    this.error.replaceChildren(h('strong', t('learn.wrong')), ' ', text);
    if (rule && /^\d\.\d+$/.test(rule)) this.error.append(' ', ruleLink(rule));
    this.error.hidden = false;
  }

  /**
   * Plays a legal move of the server's (it carries the position after it),
   * judges the goal, then lets Black answer.
   * @param {any} move
   */
  async play(move) {
    const before = this.view;
    if (!before || this.finished || before.turn !== this.player || !move.lfen) return;
    const gen = this.generation;
    this.showError('');
    this.line.push(move.canonical);
    this.moves += 1;
    this.countMoves();
    let v;
    try {
      v = /** @type {View} */ (await api.position(move.lfen, 'default'));
    } catch (e) {
      if (gen === this.generation) this.showError(e instanceof Error ? e.message : String(e));
      return;
    }
    if (gen !== this.generation || this.destroyed || !this.startView) return;
    if (reached(this.task.goal, this.startView, v, this.player)) {
      this.finished = true;
      this.show(v, move, before);
      this.finish();
      return;
    }
    const failed = this.moves >= limitOf(this.task) ? t('learn.failedLimit')
      : v.outcome ? t('learn.failedOver', { reason: tServer(v.outcome.reason_i18n, v.outcome.reason) || v.outcome.result }) : null;
    if (failed) this.finished = true;
    this.show(v, move, before);
    if (failed) {
      this.fail(failed);
      return;
    }
    this.pause = setTimeout(() => this.reply(v, gen), REPLY_PAUSE_MS);
  }

  /**
   * Black's answer: the scripted reply for this move number when it is
   * legal, else the first legal move in canonical order.
   * @param {View} v @param {number} gen
   */
  async reply(v, gen) {
    if (gen !== this.generation || this.destroyed) return;
    const legal = v.legal || [];
    const scripted = this.task.solution[this.line.length];
    const m = legal.find((x) => x.canonical === scripted)
      || [...legal].sort((a, b) => (a.canonical < b.canonical ? -1 : a.canonical > b.canonical ? 1 : 0))[0];
    if (!m) return;
    this.line.push(m.canonical);
    let after;
    try {
      after = /** @type {View} */ (await api.position(m.lfen, 'default'));
    } catch (e) {
      if (gen === this.generation) this.showError(e instanceof Error ? e.message : String(e));
      return;
    }
    if (gen !== this.generation || this.destroyed) return;
    if (after.outcome) this.finished = true;
    this.show(after, m, v);
    if (after.outcome) this.fail(t('learn.failedOver', { reason: tServer(after.outcome.reason_i18n, after.outcome.reason) || after.outcome.result }));
  }

  finish() {
    const stars = starsFor(this.moves, this.task.par);
    keepStars(this.task.id, stars);
    setText(this.status, t('learn.done'));
    this.stars.replaceChildren(starsView(stars));
    this.result.hidden = false;
    this.result.querySelector('a')?.focus({ preventScroll: true });
    // On a phone the result is under the board: bring it into view.
    this.result.scrollIntoView({ block: 'nearest' });
  }

  /** @param {string} text */
  fail(text) {
    setText(this.status, text);
    this.status.dataset.failed = '';
  }
}
