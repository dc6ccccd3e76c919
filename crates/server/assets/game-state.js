// @ts-check
// The game's state as the server sends it (docs/API.md, "Game state"),
// typed, and read once where it arrives: `readState` checks every field
// against STATE_SCHEMA and throws on a missing, mistyped or unknown one,
// never filling a gap with a default. The schema is typed by the typedef
// (`Record<keyof GameState, …>`), so the type check keeps the two in step;
// e2e/tests/state-schema.spec.js keeps the schema in step with what a
// real server sends.

import { INITIAL_LFEN, parseLfen, lfenTurnAndNumber } from './lfen.js';
import { t } from './i18n.js';
import { sideName, other } from './ui.js';

/**
 * @typedef {'w' | 'b'} Side
 * @typedef {'w' | 'b' | 'both'} Seat
 * @typedef {'engine' | 'friend' | 'local'} Mode
 * @typedef {'waiting' | 'active' | 'over' | 'aborted'} Status
 * @typedef {import('./lfen.js').BoardMap} BoardMap
 * @typedef {{key: string, args: Record<string, any>}} ServerText words the page renders itself (i18n.js)
 * @typedef {{canonical: string, human: string, from: string, to: string, path: string[], captured: string[], kind: 'chess' | 'castle' | 'step' | 'jump'}} LegalMove
 * @typedef {LegalMove & {ply: number, lfen: string, check: boolean}} PlayedMove a move of the game, with the position after it
 * @typedef {{initial_ms: number, increment_ms: number, w_ms: number, b_ms: number, running: Side | null}} ClockView
 * @typedef {{winner: Side, move: number, ply: number}} PhaseOne
 * @typedef {'bullet' | 'blitz' | 'rapid' | 'classical' | 'correspondence'} Speed
 * @typedef {{name: string | null, rating: number | null, provisional: boolean, diff: number | null}} SeatPlayer an account on a seat (name null: deleted), its rating in the game's class and what the game changed
 * @typedef {{w: SeatPlayer | null, b: SeatPlayer | null}} Players
 * @typedef {{
 *   id: string, mode: Mode, rules: string, level: number | null, engine_color: Side | null,
 *   start: string, lfen: string, turn: Side, ply: number, board: BoardMap,
 *   status: Status, result: string, reason: string | null, reason_i18n: ServerText | null,
 *   check: boolean, kings: {w: boolean, b: boolean}, phase: number, phase_one: PhaseOne | null,
 *   legal: LegalMove[], must_capture: string[], premoves: Record<string, string[]>,
 *   draw_offer: Side | null, takeback_offer: Side | null, rematch_offer: Side | null, rematch: string | null,
 *   engine_thinking: boolean, clock: ClockView | null, abort_in_ms: number | null, now_ms: number,
 *   moves: PlayedMove[], you: Seat | null, draw_declined?: boolean,
 *   rated: boolean, speed: Speed | null, days: number | null, players: Players | null,
 * }} GameState
 */

/**
 * A field's check: a predicate with its description (for the error).
 * @typedef {{ok: (v: unknown) => boolean, what: string, optional?: boolean}} Check
 */

/** @param {(v: unknown) => boolean} ok @param {string} what @returns {Check} */
const check = (ok, what) => ({ ok, what });
const str = check((v) => typeof v === 'string', 'a string');
const num = check((v) => typeof v === 'number' && Number.isFinite(v), 'a number');
const bool = check((v) => typeof v === 'boolean', 'a boolean');
/** @param {Check} c @returns {Check} */
const orNull = (c) => check((v) => v === null || c.ok(v), `${c.what} or null`);
/** @param {Check} c @returns {Check} */
const optional = (c) => ({ ...c, optional: true });
/** @param {...string} words @returns {Check} */
const oneOf = (...words) => check((v) => typeof v === 'string' && words.includes(v), words.map((w) => `'${w}'`).join(' | '));
/** @param {Check} c @returns {Check} */
const listOf = (c) => check((v) => Array.isArray(v) && v.every(c.ok), `a list of ${c.what}`);
/** @param {Check} c @returns {Check} */
const mapOf = (c) => check((v) => isObject(v) && Object.values(v).every(c.ok), `a map of ${c.what}`);
/** @param {Record<string, Check>} fields @returns {Check} */
const record = (fields) => check((v) => problems(v, fields).length === 0, `{${Object.keys(fields).join(', ')}}`);
const side = oneOf('w', 'b');

/** @param {unknown} v @returns {v is Record<string, unknown>} */
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

/** @type {Record<keyof LegalMove, Check>} */
export const LEGAL_MOVE_SCHEMA = {
  canonical: str, human: str, from: str, to: str, path: listOf(str), captured: listOf(str),
  kind: oneOf('chess', 'castle', 'step', 'jump'),
};

/** @type {Record<keyof PlayedMove, Check>} */
export const PLAYED_MOVE_SCHEMA = { ...LEGAL_MOVE_SCHEMA, ply: num, lfen: str, check: bool };

const occupant = record({ piece: str, prisoner: optional(str) });
const seatPlayer = record({ name: orNull(str), rating: orNull(num), provisional: bool, diff: orNull(num) });

/** @type {Record<keyof GameState, Check>} */
export const STATE_SCHEMA = {
  id: str, mode: oneOf('engine', 'friend', 'local'), rules: str, level: orNull(num), engine_color: orNull(side),
  start: str, lfen: str, turn: side, ply: num, board: mapOf(occupant),
  status: oneOf('waiting', 'active', 'over', 'aborted'), result: oneOf('1-0', '0-1', '1/2-1/2', '*'),
  reason: orNull(str), reason_i18n: orNull(record({ key: str, args: check(isObject, 'an object') })),
  check: bool, kings: record({ w: bool, b: bool }), phase: num,
  phase_one: orNull(record({ winner: side, move: num, ply: num })),
  legal: listOf(record(LEGAL_MOVE_SCHEMA)), must_capture: listOf(str), premoves: mapOf(listOf(str)),
  draw_offer: orNull(side), takeback_offer: orNull(side), rematch_offer: orNull(side), rematch: orNull(str),
  engine_thinking: bool,
  clock: orNull(record({ initial_ms: num, increment_ms: num, w_ms: num, b_ms: num, running: orNull(side) })),
  abort_in_ms: orNull(num), now_ms: num,
  moves: listOf(record(PLAYED_MOVE_SCHEMA)), you: orNull(oneOf('w', 'b', 'both')),
  draw_declined: optional(bool),
  rated: bool, speed: orNull(oneOf('bullet', 'blitz', 'rapid', 'classical', 'correspondence')), days: orNull(num),
  players: orNull(record({ w: orNull(seatPlayer), b: orNull(seatPlayer) })),
};

/**
 * What is wrong with `v` against `fields`: each missing, mistyped or
 * unknown field, named (the state's nested records are checked whole).
 * @param {unknown} v
 * @param {Record<string, Check>} fields
 * @returns {string[]}
 */
export function problems(v, fields) {
  if (!isObject(v)) return ['not an object'];
  const out = [];
  for (const [name, c] of Object.entries(fields)) {
    if (!(name in v)) { if (!c.optional) out.push(`'${name}' is missing`); continue; }
    if (!c.ok(v[name])) out.push(`'${name}' is not ${c.what}: ${JSON.stringify(v[name])?.slice(0, 80)}`);
  }
  for (const name of Object.keys(v)) if (!(name in fields)) out.push(`'${name}' is not a field of the state`);
  return out;
}

/**
 * The server's state, checked; an Error naming what is wrong otherwise.
 * @param {unknown} v
 * @returns {GameState}
 */
export function readState(v) {
  const wrong = problems(v, STATE_SCHEMA);
  if (wrong.length) throw new Error(`the server sent a state the page cannot read: ${wrong.join('; ')}`);
  return /** @type {GameState} */ (v);
}

export const DEFAULT_LEVEL = 3;

/**
 * The home page's state: the initial position, as if a game against the
 * engine were waiting for the first move (no id yet).
 * @param {number} level
 * @returns {GameState}
 */
export function homeState(level) {
  return {
    id: '', mode: 'engine', rules: 'default', level, engine_color: 'b', start: INITIAL_LFEN, lfen: INITIAL_LFEN,
    turn: 'w', ply: 0, moves: [], board: parseLfen(INITIAL_LFEN).board, status: 'active', result: '*',
    reason: null, reason_i18n: null, check: false, kings: { w: true, b: true }, phase: 1, phase_one: null,
    legal: [], must_capture: [], premoves: {}, draw_offer: null, takeback_offer: null, rematch_offer: null,
    rematch: null, clock: null, abort_in_ms: null, now_ms: 0, engine_thinking: false, you: 'w',
    rated: false, speed: null, days: null, players: null,
  };
}

/** The engine's level as the New game dialog last left it. */
export function storedLevel() {
  let v = null;
  try { v = Number(localStorage.getItem('legion:level')); } catch { /* no storage */ }
  return v !== null && v >= 1 && v <= 10 ? v : DEFAULT_LEVEL;
}

/** The side that made the game's first move. @param {GameState} st @returns {Side} */
const firstMover = (st) => lfenTurnAndNumber(st.start).turn;

/** The side that made move `i` (0-based) of the game. @param {GameState} st @param {number} i @returns {Side} */
export const moverOf = (st, i) => ((i % 2 === 0) === (firstMover(st) === 'w') ? 'w' : 'b');

/** The number of moves `side` has made in the game. @param {GameState} st @param {Side} side */
export function movesBy(st, side) {
  const n = st.moves.length;
  const firstCount = Math.ceil(n / 2);
  return side === firstMover(st) ? firstCount : n - firstCount;
}

/** The LFEN after `ply` moves of the game (0: the start). @param {GameState} st @param {number} ply */
export const lfenAt = (st, ply) => (ply === st.moves.length ? st.lfen : ply === 0 ? st.start : st.moves[ply - 1].lfen);

/** The board after `ply` moves of the game (0: the start). @param {GameState} st @param {number} ply @returns {BoardMap} */
export function boardAt(st, ply) {
  return ply === st.moves.length ? st.board : parseLfen(lfenAt(st, ply)).board;
}

/** Whether the side to move after `ply` moves is in check: the server says so of every position. @param {GameState} st @param {number} ply */
export const checkAt = (st, ply) => (ply === st.moves.length ? st.check : ply > 0 && st.moves[ply - 1].check);

/** @param {BoardMap} board @param {string} side */
export function kingSquare(board, side) {
  for (const [sq, o] of Object.entries(board)) if (o.piece === side + 'K') return sq;
  return null;
}

/** @type {WeakMap<PlayedMove[], Record<string, string>>} */
const matesSeen = new WeakMap();

/**
 * The moves after which a King was mated and left the board (5.1), as
 * {ply: the mated side}: the mover's opponent had a King before the move
 * and none after it. Under `mate-ends-game` no King leaves.
 * @param {GameState} st
 * @returns {Record<string, string>}
 */
export function kingMates(st) {
  /** @type {Record<string, string>} */
  const out = {};
  if (st.rules === 'mate-ends-game') return out;
  const seen = matesSeen.get(st.moves);
  if (seen) return seen;
  let before = parseLfen(st.start).board;
  st.moves.forEach((m, i) => {
    const after = parseLfen(m.lfen).board;
    const them = other(moverOf(st, i));
    if (kingSquare(before, them) && !kingSquare(after, them)) out[i + 1] = them;
    before = after;
  });
  matesSeen.set(st.moves, out);
  return out;
}

/**
 * A player's name on their strip.
 * @param {GameState} st @param {Side} side @param {boolean} home
 */
export function playerName(st, side, home) {
  const account = st.players?.[side];
  if (account) return account.name ?? t('players.deleted');
  if (st.mode === 'engine') {
    if (st.engine_color === side) return t('game.player.engine', { level: st.level ?? DEFAULT_LEVEL, side });
    return t(home || st.you === side ? 'game.player.you' : 'game.player.player', { side });
  }
  if (st.mode === 'local') return sideName(side);
  if (st.you === side) return t('game.player.you', { side });
  return st.you ? t('game.player.friend', { side }) : sideName(side);
}

/**
 * An account's rating in the game's class, as the strip shows it: "1512?"
 * (provisional), and what a rated game changed: "+12", "−8"; empty for a
 * seat without an account or a game without a class.
 * @param {GameState} st @param {Side} side
 * @returns {{rating: string, diff: string, up: boolean | null}}
 */
export function playerRating(st, side) {
  const p = st.players?.[side];
  if (!p || p.rating === null) return { rating: '', diff: '', up: null };
  const rating = `${Math.round(p.rating)}${p.provisional ? '?' : ''}`;
  if (p.diff === null || !st.rated) return { rating, diff: '', up: null };
  const d = Math.round(p.diff);
  return { rating, diff: d > 0 ? `+${d}` : d < 0 ? `−${-d}` : '±0', up: d === 0 ? null : d > 0 };
}

/** The result as a score: 1-0, 0-1, ½-½. @param {string} result */
export function resultWords(result) {
  if (result === '1-0') return '1-0';
  if (result === '0-1') return '0-1';
  if (result === '1/2-1/2') return '½-½';
  return t('game.status.gameOver');
}

/** The Phase 2 note: [headline, details], or null while both Kings stand. @param {GameState} st */
export function phaseWords(st) {
  if (st.kings.w && st.kings.b) return null;
  const gone = /** @type {Side[]} */ (['w', 'b']).filter((c) => !st.kings[c]);
  if (gone.length === 2) return [t('game.phase.bothGone')];
  const p = st.phase_one;
  const args = { side: gone[0], winner: other(gone[0]), move: p && p.move };
  return [t('game.moves.kingMated', { side: gone[0] }), t(p && p.move ? 'game.phase.oneGoneOnMove' : 'game.phase.oneGone', args)];
}

/** The seat's side, or null for a watcher or both seats. @param {GameState | null} st @returns {Side | null} */
export function sideOf(st) {
  const you = st && st.you;
  return you === 'w' || you === 'b' ? you : null;
}

/** Whether the game has ended, with or without a result. @param {GameState} st */
export const ended = (st) => st.status === 'over' || st.status === 'aborted';
