// Positions on the client: reading and writing LFEN (RULES 6.2), to draw
// history positions and rule diagrams and to write what the editor sets up.
// The client never plays a move itself: the server is the authority, and
// every legal move it lists comes with the LFEN of the position after it.

import { t } from './i18n.js';

export const INITIAL_LFEN = 'rnbkqbnr/m1m1m1m1/1m1m1m1m/8/8/M1M1M1M1/1M1M1M1M/RNBQKBNR w KQkq 0 1';
export const FILES = 'abcdefgh';

export const sqName = (file, rank) => FILES[file] + (rank + 1);
export const fileOf = (sq) => sq.charCodeAt(0) - 97;
export const rankOf = (sq) => sq.charCodeAt(1) - 49;
/** 1.1: a1 is dark; dark when file + rank is even. */
export const isDark = (sq) => (fileOf(sq) + rankOf(sq)) % 2 === 0;
export const isSquare = (s) => typeof s === 'string' && /^[a-h][1-8]$/.test(s);

export const ALL_SQUARES = [];
for (let r = 7; r >= 0; r--) for (let f = 0; f < 8; f++) ALL_SQUARES.push(sqName(f, r));

const colorOfChar = (c) => (c === c.toUpperCase() ? 'w' : 'b');
const pieceCode = (c) => colorOfChar(c) + c.toUpperCase();
const pieceChar = (code) => (code[0] === 'w' ? code[1] : code[1].toLowerCase());

/**
 * Reads the placement and the other fields, without judging legality
 * (the server does that). Throws an Error with a short reason when the text
 * cannot even be read.
 */
export function parseLfen(text) {
  const fields = String(text).trim().split(/\s+/);
  const ranks = fields[0].split('/');
  if (ranks.length !== 8) throw new Error(t('board.lfen.ranks'));
  const board = {};
  ranks.forEach((row, i) => {
    const rank = 7 - i;
    let file = 0;
    for (let j = 0; j < row.length; j++) {
      const c = row[j];
      if (/[1-8]/.test(c)) { file += Number(c); continue; }
      if (file > 7) throw new Error(t('board.lfen.rankTooLong', { rank: rank + 1 }));
      if (c === '[') {
        const close = row.indexOf(']', j);
        if (close !== j + 3) throw new Error(t('board.lfen.construct'));
        board[sqName(file, rank)] = { piece: pieceCode(row[j + 1]), prisoner: pieceCode(row[j + 2]) };
        j = close;
      } else if (/[kqrbnmtKQRBNMT]/.test(c)) {
        board[sqName(file, rank)] = { piece: pieceCode(c) };
      } else {
        throw new Error(t('board.lfen.letter', { letter: c }));
      }
      file++;
    }
    if (file !== 8) throw new Error(t('board.lfen.rankLength', { rank: rank + 1 }));
  });
  return {
    board,
    turn: fields[1] === 'b' ? 'b' : 'w',
    castling: fields[2] && fields[2] !== '-' ? fields[2] : '',
    halfmove: Number(fields[3]) || 0,
    fullmove: Number(fields[4]) || 1,
  };
}

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

/** Rights still backed by an unmoved King and Rook on their home squares. */
export function possibleCastling(board) {
  return CASTLINGS.filter((c) => {
    const color = c.right === c.right.toUpperCase() ? 'w' : 'b';
    const k = board[c.king[0]];
    const r = board[c.rook[0]];
    return k && !k.prisoner && k.piece === color + 'K' && r && !r.prisoner && r.piece === color + 'R';
  }).map((c) => c.right).join('');
}

/** "White Queen holding a Black man" — for titles and screen readers. */
export function describeOccupant(o) {
  return o.prisoner ? t('board.construct', { piece: o.piece, prisoner: o.prisoner }) : t(`piece.${o.piece}`);
}
