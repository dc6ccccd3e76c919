// @ts-check
// One small board per numbered rule of docs/RULES.md (and Part VII): an
// LFEN, optional marked squares (squares: blue, red, green), arrows (a
// Legion series as a path), `last` for a move just played, `must` for
// pieces obliged to capture. Each board's one-line caption is the
// translation `rules.caption.<id>` (en.json, ru.json).
//
// Every LFEN was checked with `legion show --fen`, and every move a caption
// calls legal or illegal with `legion moves --fen` (or `legion apply`).

const INITIAL = 'rnbkqbnr/m1m1m1m1/1m1m1m1m/8/8/M1M1M1M1/1M1M1M1M/RNBQKBNR w KQkq 0 1';
const KINGS = '3k4/8/8/8/8/8/8/4K3 w - 0 1';

export const RULE_BOARDS = {
  // Part I. Board, pieces, setup
  '1.1': {
    lfen: KINGS,
    green: ['a1', 'c1', 'h8', 'e5'],
    squares: ['h1', 'a8', 'd5'],
  },
  '1.2': {
    lfen: INITIAL,
    arrows: [{ from: 'c3', to: 'd4' }],
  },
  '1.3': {
    lfen: INITIAL,
    squares: ['a1', 'b1', 'c1', 'd1', 'e1', 'f1', 'g1', 'h1', 'a8', 'b8', 'c8', 'd8', 'e8', 'f8', 'g8', 'h8'],
  },
  '1.4': {
    lfen: '3k4/m1m1m3/1m1m3t/8/3T4/M1M5/1M1M4/4K3 w - 0 1',
    squares: ['d4', 'h6'],
  },
  '1.5': {
    lfen: '3k4/8/8/2[Qm]5/8/2[nT]5/8/4K3 w - 0 1',
    squares: ['c5', 'c3'],
  },
  '1.6': {
    lfen: INITIAL,
    squares: ['e1', 'd8'],
    green: ['d1', 'e8'],
  },

  // Part II. Moves
  '2.1': {
    lfen: '3k4/8/8/8/3N4/8/8/4K3 w - 0 1',
    green: ['b3', 'b5', 'c2', 'c6', 'e2', 'e6', 'f3', 'f5'],
  },
  '2.2': {
    lfen: 'r2k3r/8/8/8/8/8/8/4K3 b kq 0 1',
    arrows: [{ from: 'd8', to: 'b8' }, { from: 'a8', to: 'c8', color: 'orange' }],
  },
  '2.3': {
    lfen: '3k4/8/8/8/8/8/8/[Rm]3K3 w - 0 1',
    arrows: [{ from: 'a1', to: 'a6' }],
  },
  '2.4': {
    lfen: '3k4/8/8/8/5T2/2M5/8/4K3 w - 0 1',
    arrows: [{ from: 'c3', to: 'b4' }, { from: 'c3', to: 'd4' }, { from: 'f4', to: 'b8', color: 'orange' }, { from: 'f4', to: 'h2', color: 'orange' }],
  },
  '2.5': {
    lfen: '3k4/6M1/8/8/8/8/8/4K3 w - 0 1',
    arrows: [{ from: 'g7', to: 'h8' }],
  },

  // Part III. The King, check and mate
  '3.1': {
    lfen: '8/8/8/8/3k4/2M5/8/4K3 b - 0 1',
    red: ['d4'],
    arrows: [{ from: 'c3', to: 'e5', color: 'red' }],
  },
  '3.2': {
    lfen: '3k4/8/8/t7/8/8/3K4/8 w - 0 1',
    red: ['d2'],
    arrows: [{ from: 'a5', to: 'e1', color: 'red' }],
  },
  '3.3': {
    lfen: '3k4/8/8/4q3/8/8/4R3/4K3 w - 0 1',
    arrows: [{ from: 'e2', to: 'a2', color: 'red' }],
    green: ['e3', 'e4', 'e5'],
  },
  '3.4': {
    lfen: '3k4/7R/8/8/8/8/8/R3K3 w - 0 30',
    arrows: [{ from: 'a1', to: 'a8' }],
    red: ['d8'],
  },

  // Part IV. Capture
  '4.1': {
    lfen: '3k4/8/8/8/3m4/8/8/3QK3 w - 0 1',
    arrows: [{ from: 'd1', to: 'd4' }],
  },
  '4.2': {
    lfen: 'rnbkqbnr/m1m1m1m1/1m1m3m/4m3/3M4/M3M1M1/1M1M1M1M/RNBQKBNR w KQkq 0 2',
    must: ['d4'],
    last: ['f6', 'e5'],
    arrows: [{ path: ['d4', 'f6'] }],
  },
  '4.3': {
    lfen: '3k4/8/5m2/8/3m4/2M5/8/4K3 w - 0 1',
    arrows: [{ path: ['c3', 'e5', 'g7'] }],
    red: ['d4', 'f6'],
  },
  '4.4': {
    lfen: '3k4/8/[nM]7/8/8/8/8/R3K3 w - 0 1',
    arrows: [{ from: 'a1', to: 'a6' }],
  },
  '4.5': {
    lfen: '3k4/8/8/8/3m1m2/2M5/3m1m2/7K w - 0 1',
    arrows: [{ path: ['c3', 'e1', 'g3', 'e5', 'c3'] }],
    red: ['d2', 'f2', 'f4', 'd4'],
  },

  // Part V. Phases and the end of the game
  '5.1': {
    lfen: 'R7/7R/8/2m1m3/8/8/8/4K3 b - 0 30',
    last: ['a1', 'a8'],
  },
  '5.2': {
    lfen: '8/m7/1M6/2M5/8/8/8/4K3 b - 0 40',
    red: ['a7'],
  },
  '5.3': {
    lfen: KINGS,
  },
  '5.4': {
    lfen: '3k4/7R/8/8/8/8/8/R3K3 w - 0 30',
    arrows: [{ from: 'a1', to: 'a8' }],
    red: ['d8'],
  },

  // Part VI. Notation
  '6.1': {
    lfen: KINGS,
    squares: ['e4', 'd5', 'a1', 'h8'],
  },
  '6.2': {
    lfen: '3k4/8/8/2[Qm]5/8/8/8/4K3 w - 0 1',
    squares: ['c5'],
  },
  '6.3': {
    lfen: '3k4/8/5m2/8/3m4/2M5/8/4K3 w - 0 1',
    arrows: [{ path: ['c3', 'e5', 'g7'] }],
  },
  '6.4': {
    lfen: INITIAL,
    arrows: [{ from: 'g1', to: 'f3' }, { from: 'c3', to: 'd4', color: 'orange' }],
  },
  '6.5': {
    lfen: 'rnbkqbnr/m1m1m3/1m1m3m/4m3/8/M3M1M1/1M1M1M1M/RNBQKBNR w KQkq 0 3',
    last: ['g7', 'e5'],
  },

  // Part VII. Quick reference
  VII: {
    lfen: INITIAL,
    arrows: [
      { from: 'a3', to: 'b4' }, { from: 'c3', to: 'b4' }, { from: 'c3', to: 'd4' }, { from: 'e3', to: 'd4' },
      { from: 'e3', to: 'f4' }, { from: 'g3', to: 'f4' }, { from: 'g3', to: 'h4' },
    ],
  },
};
