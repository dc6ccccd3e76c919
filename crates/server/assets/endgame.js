// @ts-check
// Solved endings (docs/API.md, GET /api/endgame): for a position with few
// pieces, its exact value from the server's tables ("White wins in 23
// plies", "Drawn with best play"), DTZ (plies to the next capture, man
// move, crowning or King removal), a note when the 50-move rule (5.3)
// can come first, and every legal move's value. An ending the server
// solves on demand says so until it is solved. Nothing is shown for a
// position the tables do not hold, or when the server has none.

import { request, ApiError } from './api.js';
import { h, setText } from './ui.js';
import { t } from './i18n.js';
import { parseLfen } from './lfen.js';
import { showMove } from './notation.js';

/** No table holds more pieces (the solver takes four, a construct counting once). */
const MAX_PIECES = 6;

/**
 * The server's answer (docs/API.md).
 * @typedef {{canonical: string, human?: string, category: string, plies: number | null, dtz: number, resets_clock: boolean, fifty_move_rule: boolean}} EndgameMove
 * @typedef {{lfen: string, material: string, turn: string, category: string, plies: number | null, dtz: number, halfmove_clock: number, fifty_move_rule: boolean, moves: EndgameMove[]}} EndgameAnswer
 * An ending without a table yet, being solved by the server (202): asked again.
 * @typedef {{solving: string, ahead: number}} EndgameSolving
 */

/** How long to wait before asking again about an ending being solved. */
const SOLVING_RETRY_MS = 1000;

/** Answers by LFEN (null: not in the tables); whether the server has tables at all. */
/** @type {Map<string, Promise<EndgameAnswer | EndgameSolving | null>>} */
const answers = new Map();
let serverHasTables = true;

/** Pieces on the board of `lfen` (a construct is one square, one piece); Infinity when unreadable. @param {string} lfen */
function pieces(lfen) {
  try { return Object.keys(parseLfen(lfen).board).length; } catch { return Infinity; }
}

/**
 * The tables' answer for `lfen` under `rules`, or null when they do not
 * hold it (too many pieces, no table, castling rights, mate-ends-game,
 * a server without tables, or an error: the tables are a help, never in
 * the way).
 * @param {string} lfen @param {string} rules
 * @returns {Promise<EndgameAnswer | EndgameSolving | null>}
 */
export function endgameOf(lfen, rules) {
  if (!serverHasTables || rules !== 'default' || pieces(lfen) > MAX_PIECES) return Promise.resolve(null);
  let p = answers.get(lfen);
  if (!p) {
    p = request('GET', `/api/endgame?lfen=${encodeURIComponent(lfen)}`).then((a) => {
      // Being solved: not kept, so that the next look asks again.
      if (a && 'solving' in a) answers.delete(lfen);
      return a;
    }).catch((e) => {
      if (e instanceof ApiError && e.body && e.body.code === 'server.endgames_off') serverHasTables = false;
      // A refusal that may pass (rate, busy) is asked again next time.
      if (!(e instanceof ApiError) || e.status === 429 || e.status >= 500) answers.delete(lfen);
      return null;
    });
    answers.set(lfen, p);
  }
  return p;
}

/** "White wins in 23 plies", "Drawn with best play", "Black has no legal move…". @param {EndgameAnswer} a */
export function valueText(a) {
  const side = a.turn === 'b' ? 'b' : 'w';
  if (a.category === 'draw') return t('analysis.endgame.draw');
  if (a.category === 'loss' && a.plies === 0) return t('analysis.endgame.over', { side });
  // The winner: the side to move if it wins, else the other.
  const w = a.category === 'win' ? side : side === 'w' ? 'b' : 'w';
  return a.plies === 1 ? t('analysis.endgame.winsInOne', { side: w }) : t('analysis.endgame.wins', { side: w, plies: a.plies ?? 0 });
}

/** A move's value for the side making it. @param {EndgameMove} m */
function moveValue(m) {
  const plies = m.plies ?? 0;
  const text = m.category === 'win' ? t('analysis.endgame.moveWins', { plies })
    : m.category === 'loss' ? t('analysis.endgame.moveLoses', { plies })
      : t('analysis.endgame.moveDraw');
  return m.fifty_move_rule ? `${text} ${t('analysis.endgame.moveFifty')}` : text;
}

/**
 * A panel that shows the tables' answer for the position given to
 * `show`, or hides itself. With `onPlay`, each move is a button that
 * plays it (the analysis board); without, the value alone (the review).
 */
export class EndgamePanel {
  /** @param {{onPlay?: (canonical: string) => void, moves?: boolean}} [options] */
  constructor(options = {}) {
    this.opts = options;
    this.gen = 0;
    this.value = h('strong.endgame-value', { 'data-endgame-value': '' });
    this.dtz = h('div.small.endgame-dtz', { 'data-endgame-dtz': '' });
    this.fifty = h('div.note.endgame-fifty', { 'data-endgame-fifty': '', hidden: true });
    this.moves = h('ul.endgame-moves', { 'data-endgame-moves': '' });
    // On the analysis board a panel of its own; in the review, a part of its panel.
    this.el = h(options.moves === false ? 'div.endgame-panel.endgame-inline' : 'div.panel.endgame-panel', { 'data-endgame': options.moves === false ? 'review' : 'board', hidden: true },
      h('div.row', h('strong', t('analysis.endgame.title')), h('span.small.endgame-material', { 'data-endgame-material': '' })),
      this.value, this.dtz, this.fifty, this.moves);
  }

  /** Shows the value of `lfen`, or hides the panel. @param {string} lfen @param {string} rules */
  async show(lfen, rules) {
    const gen = ++this.gen;
    const a = await endgameOf(lfen, rules);
    if (gen !== this.gen) return;
    if (!a) { this.el.hidden = true; return; }
    const material = /** @type {HTMLElement} */ (this.el.querySelector('[data-endgame-material]'));
    if ('solving' in a) {
      // The server solves this ending now (half a second for three
      // pieces, some seconds for four): say so, and look again.
      setText(material, a.solving);
      setText(this.value, a.ahead > 0
        ? t('analysis.endgame.solvingQueued', { material: a.solving, ahead: a.ahead })
        : t('analysis.endgame.solving', { material: a.solving }));
      this.el.dataset.category = 'solving';
      this.dtz.hidden = true;
      this.fifty.hidden = true;
      this.moves.hidden = true;
      this.el.hidden = false;
      setTimeout(() => { if (gen === this.gen) this.show(lfen, rules); }, SOLVING_RETRY_MS);
      return;
    }
    setText(material, a.material);
    setText(this.value, valueText(a));
    this.el.dataset.category = a.category;
    const decided = a.category !== 'draw' && a.plies !== 0;
    this.dtz.hidden = !decided;
    setText(this.dtz, decided ? t('analysis.endgame.dtz', { dtz: a.dtz }) : '');
    this.fifty.hidden = !a.fifty_move_rule;
    setText(this.fifty, a.fifty_move_rule ? t('analysis.endgame.fifty', { clock: a.halfmove_clock, dtz: a.dtz }) : '');
    const showMoves = this.opts.moves !== false && a.moves.length > 0;
    this.moves.hidden = !showMoves;
    this.moves.replaceChildren(...(showMoves ? a.moves.map((m) => {
      const name = m.human ? showMove(m.human) : m.canonical;
      const label = this.opts.onPlay
        ? h('button.pv-move', { type: 'button', title: t('analysis.endgame.play'), onclick: () => this.opts.onPlay?.(m.canonical) }, name)
        : h('span', name);
      return h(`li.endgame-${m.category}`, { 'data-move': m.canonical, 'data-category': m.category }, label, ' ', h('span.small', moveValue(m)));
    }) : []));
    this.el.hidden = false;
  }

  /** Hides the panel (and drops an answer still on its way). */
  hide() {
    this.gen++;
    this.el.hidden = true;
  }
}
