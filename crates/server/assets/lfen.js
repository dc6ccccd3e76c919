// @ts-check
// Positions on the client: reading and writing LFEN (RULES 6.2), to draw
// history positions and rule diagrams and to write what the editor sets up.
// The client never plays a move itself: the server is the authority, and
// every legal move it lists comes with the LFEN of the position after it.

import { t } from './i18n.js';

export const INITIAL_LFEN = 'rnbkqbnr/m1m1m1m1/1m1m1m1m/8/8/M1M1M1M1/1M1M1M1M/RNBQKBNR w KQkq 0 1';
export const FILES = 'abcdefgh';

/** @param {number} file 0-7 @param {number} rank 0-7 */
export const sqName = (file, rank) => FILES[file] + (rank + 1);
/** @param {string} sq 'e4' */
export const fileOf = (sq) => sq.charCodeAt(0) - 97;
/** @param {string} sq 'e4' */
export const rankOf = (sq) => sq.charCodeAt(1) - 49;
/** 1.1: a1 is dark; dark when file + rank is even. @param {string} sq */
export const isDark = (sq) => (fileOf(sq) + rankOf(sq)) % 2 === 0;
/** @param {unknown} s */
export const isSquare = (s) => typeof s === 'string' && /^[a-h][1-8]$/.test(s);

/** @type {string[]} a8 to h1, rank by rank */
export const ALL_SQUARES = [];
for (let r = 7; r >= 0; r--) for (let f = 0; f < 8; f++) ALL_SQUARES.push(sqName(f, r));

/** @param {string} c a piece letter */
const colorOfChar = (c) => (c === c.toUpperCase() ? 'w' : 'b');
/** @param {string} c a piece letter */
const pieceCode = (c) => colorOfChar(c) + c.toUpperCase();
/** @param {string} code 'wQ' */
const pieceChar = (code) => (code[0] === 'w' ? code[1] : code[1].toLowerCase());

// 1.3, 6.2: the piece letters; a Captor is a chess piece (1.5), its
// prisoner an enemy man or Tama.
const PIECE_LETTER = /^[KQRBNMTkqrbnmt]$/;
const CHESS_LETTER = /^[KQRBNkqrbn]$/;
const LEGION_LETTER = /^[MTmt]$/;
const CASTLING = /^(-|K?Q?k?q?)$/;
/** A counter of 6.2: a whole number of at most nine digits, as the rules library reads it. */
const WHOLE = /^\d{1,9}$/;

/**
 * @typedef {{piece: string, prisoner?: string}} Occupant
 * @typedef {Record<string, Occupant>} BoardMap
 * @typedef {{board: BoardMap, turn: 'w' | 'b', castling: string, halfmove: number, fullmove: number}} Lfen
 */

/**
 * Reads an LFEN: the placement (every letter checked, inside constructs
 * too) and whichever of the other fields are given (the side to move,
 * castling rights, the half-move clock and the full-move number). Throws an
 * Error whose message says what is wrong, citing its rule; whether the
 * position itself is lawful (kings, men on light squares ...) is the
 * server's to judge.
 * @param {string} text
 * @returns {Lfen}
 */
export function parseLfen(text) {
  const fields = String(text).trim().split(/\s+/);
  if (fields.length > 5) throw new Error(t('board.lfen.fields', { count: fields.length }));
  const ranks = fields[0].split('/');
  if (ranks.length !== 8) throw new Error(t('board.lfen.ranks'));
  /** @type {BoardMap} */
  const board = {};
  ranks.forEach((row, i) => {
    const rank = 7 - i;
    const name = rank + 1;
    /** @param {string} c */
    const letter = (c) => {
      if (!PIECE_LETTER.test(c)) throw new Error(t('board.lfen.letter', { letter: c, rank: name }));
      return c;
    };
    let file = 0;
    for (let j = 0; j < row.length; j++) {
      const c = row[j];
      if (/[1-8]/.test(c)) { file += Number(c); continue; }
      if (file > 7) throw new Error(t('board.lfen.rankTooLong', { rank: name }));
      const sq = sqName(file, rank);
      if (c === '[') {
        if (row[j + 3] !== ']' || row.slice(j + 1, j + 3).includes(']')) throw new Error(t('board.lfen.construct', { rank: name }));
        const captor = letter(row[j + 1]);
        const prisoner = letter(row[j + 2]);
        if (!CHESS_LETTER.test(captor)) throw new Error(t('board.lfen.captor', { square: sq, letter: captor }));
        if (!LEGION_LETTER.test(prisoner) || colorOfChar(prisoner) === colorOfChar(captor)) {
          throw new Error(t('board.lfen.prisoner', { square: sq, letter: prisoner }));
        }
        board[sq] = { piece: pieceCode(captor), prisoner: pieceCode(prisoner) };
        j += 3;
      } else {
        board[sq] = { piece: pieceCode(letter(c)) };
      }
      file++;
    }
    if (file > 8) throw new Error(t('board.lfen.rankTooLong', { rank: name }));
    if (file !== 8) throw new Error(t('board.lfen.rankLength', { rank: name }));
  });
  const [, turn = 'w', castling = '-', halfmove = '0', fullmove = '1'] = fields;
  if (turn !== 'w' && turn !== 'b') throw new Error(t('board.lfen.turn', { text: turn }));
  if (!castling || !CASTLING.test(castling)) throw new Error(t('board.lfen.castling', { text: castling }));
  if (!WHOLE.test(halfmove)) throw new Error(t('board.lfen.halfmove', { text: halfmove }));
  if (!WHOLE.test(fullmove) || Number(fullmove) < 1) throw new Error(t('board.lfen.fullmove', { text: fullmove }));
  return {
    board,
    turn: turn === 'b' ? 'b' : 'w',
    castling: castling === '-' ? '' : castling,
    halfmove: Number(halfmove),
    fullmove: Number(fullmove),
  };
}

/**
 * The side to move and the full-move number of an LFEN (6.2), as
 * parseLfen reads them: for numbering moves from a game's start.
 * @param {string} text
 * @returns {{turn: 'w' | 'b', fullmove: number}}
 */
export function lfenTurnAndNumber(text) {
  const pos = parseLfen(text);
  return { turn: pos.turn, fullmove: pos.fullmove };
}

/**
 * The placement field of an LFEN.
 * @param {BoardMap} board
 */
export function placementOf(board) {
  const rows = [];
  for (let r = 7; r >= 0; r--) {
    let row = '';
    let empty = 0;
    for (let f = 0; f < 8; f++) {
      const o = board[sqName(f, r)];
      if (!o) { empty++; continue; }
      if (empty) { row += empty; empty = 0; }
      row += o.prisoner ? `[${pieceChar(o.piece)}${pieceChar(o.prisoner)}]` : pieceChar(o.piece);
    }
    if (empty) row += empty;
    rows.push(row);
  }
  return rows.join('/');
}

/** @param {{board: BoardMap, turn: string, castling?: string, halfmove?: number, fullmove?: number}} pos */
export function writeLfen(pos) {
  return `${placementOf(pos.board)} ${pos.turn} ${pos.castling || '-'} ${pos.halfmove || 0} ${pos.fullmove || 1}`;
}

// 2.2: the squares of each castling, and the right letter it needs.
export const CASTLINGS = [
  { right: 'K', king: ['e1', 'g1'], rook: ['h1', 'f1'] },
  { right: 'Q', king: ['e1', 'c1'], rook: ['a1', 'd1'] },
  { right: 'k', king: ['d8', 'b8'], rook: ['a8', 'c8'] },
  { right: 'q', king: ['d8', 'f8'], rook: ['h8', 'e8'] },
];

/**
 * Rights still backed by an unmoved King and Rook on their home squares.
 * @param {BoardMap} board
 */
export function possibleCastling(board) {
  return CASTLINGS.filter((c) => {
    const color = c.right === c.right.toUpperCase() ? 'w' : 'b';
    const k = board[c.king[0]];
    const r = board[c.rook[0]];
    return k && !k.prisoner && k.piece === color + 'K' && r && !r.prisoner && r.piece === color + 'R';
  }).map((c) => c.right).join('');
}

/**
 * "White Queen holding a Black man" — for titles and screen readers.
 * @param {Occupant} o
 */
export function describeOccupant(o) {
  return o.prisoner ? t('board.construct', { piece: o.piece, prisoner: o.prisoner }) : t(`piece.${o.piece}`);
}
