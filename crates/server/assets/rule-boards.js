// One small board per numbered rule of docs/RULES.md (and Part VII): an
// LFEN, optional marked squares (squares: blue, red, green), arrows (a
// Legion series as a path), `last` for a move just played, `must` for
// pieces obliged to capture, and a one-line caption.
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
    caption: 'a1 is dark: a square is dark when file + rank is even (green a1, c1, e5, h8); h1, a8 and d5 (blue) are light.',
  },
  '1.2': {
    lfen: INITIAL,
    arrows: [{ from: 'c3', to: 'd4' }],
    caption: 'White, at the bottom, moves first — here the opening step c3-d4. Nobody may pass.',
  },
  '1.3': {
    lfen: INITIAL,
    squares: ['a1', 'b1', 'c1', 'd1', 'e1', 'f1', 'g1', 'h1', 'a8', 'b8', 'c8', 'd8', 'e8', 'f8', 'g8', 'h8'],
    caption: 'Each side’s chess pieces (marked): King, Queen, two Rooks, two Bishops, two Knights — and no pawns.',
  },
  '1.4': {
    lfen: '3k4/m1m1m3/1m1m3t/8/3T4/M1M5/1M1M4/4K3 w - 0 1',
    squares: ['d4', 'h6'],
    caption: 'Men are plain discs; a Tama (marked, d4 and h6) is a crowned man. All stand on dark squares only.',
  },
  '1.5': {
    lfen: '3k4/8/8/2[Qm]5/8/2[nT]5/8/4K3 w - 0 1',
    squares: ['c5', 'c3'],
    caption: 'Constructs: the White Queen on c5 holds a Black man prisoner; the Black Knight on c3 holds a White Tama.',
  },
  '1.6': {
    lfen: INITIAL,
    squares: ['e1', 'd8'],
    green: ['d1', 'e8'],
    caption: 'The initial position, symmetric under a half turn: Kings on e1 and d8 (dark), Queens on d1 and e8 (light).',
  },

  // Part II. Moves
  '2.1': {
    lfen: '3k4/8/8/8/3N4/8/8/4K3 w - 0 1',
    green: ['b3', 'b5', 'c2', 'c6', 'e2', 'e6', 'f3', 'f5'],
    caption: 'Chess pieces move as in chess: the Knight on d4 may go to any marked square.',
  },
  '2.2': {
    lfen: 'r2k3r/8/8/8/8/8/8/4K3 b kq 0 1',
    arrows: [{ from: 'd8', to: 'b8' }, { from: 'a8', to: 'c8', color: 'orange' }],
    caption: 'Black’s King starts on d8, so Black’s short castling is d8→b8 with the Rook a8→c8 (long: d8→f8, h8→e8).',
  },
  '2.3': {
    lfen: '3k4/8/8/8/8/8/8/[Rm]3K3 w - 0 1',
    arrows: [{ from: 'a1', to: 'a6' }],
    caption: 'A construct moves as its Captor and carries its prisoner along: the Rook takes the Black man from a1 to a6, a light square.',
  },
  '2.4': {
    lfen: '3k4/8/8/8/5T2/2M5/8/4K3 w - 0 1',
    arrows: [{ from: 'c3', to: 'b4' }, { from: 'c3', to: 'd4' }, { from: 'f4', to: 'b8', color: 'orange' }, { from: 'f4', to: 'h2', color: 'orange' }],
    caption: 'The man on c3 steps one square diagonally forward (b4 or d4); the Tama on f4 glides any distance along a diagonal.',
  },
  '2.5': {
    lfen: '3k4/6M1/8/8/8/8/8/4K3 w - 0 1',
    arrows: [{ from: 'g7', to: 'h8' }],
    caption: 'g7-h8 (or g7-f8) reaches the far rank: the man is crowned and becomes a Tama.',
  },

  // Part III. The King, check and mate
  '3.1': {
    lfen: '8/8/8/8/3k4/2M5/8/4K3 b - 0 1',
    red: ['d4'],
    arrows: [{ from: 'c3', to: 'e5', color: 'red' }],
    caption: 'The man on c3 could jump the King on d4 — so that King is in check. A King is never captured or removed by a capture.',
  },
  '3.2': {
    lfen: '3k4/8/8/t7/8/8/3K4/8 w - 0 1',
    red: ['d2'],
    arrows: [{ from: 'a5', to: 'e1', color: 'red' }],
    caption: 'Check by the Legion: the Black Tama on a5 could jump the King on d2, since e1 behind it is empty.',
  },
  '3.3': {
    lfen: '3k4/8/8/4q3/8/8/4R3/4K3 w - 0 1',
    arrows: [{ from: 'e2', to: 'a2', color: 'red' }],
    green: ['e3', 'e4', 'e5'],
    caption: 'The Rook on e2 is pinned by the Queen: Ra2 would leave its King in check, so only e3, e4 or Rxe5 are legal for it.',
  },
  '3.4': {
    lfen: '3k4/7R/8/8/8/8/8/R3K3 w - 0 30',
    arrows: [{ from: 'a1', to: 'a8' }],
    red: ['d8'],
    caption: 'Ra8 is mate: Black’s King is in check and Black has no legal move. Mate ends Phase 1.',
  },

  // Part IV. Capture
  '4.1': {
    lfen: '3k4/8/8/8/3m4/8/8/3QK3 w - 0 1',
    arrows: [{ from: 'd1', to: 'd4' }],
    caption: 'Qxd4 does not remove the man: the Queen takes it prisoner and stands on it as a construct.',
  },
  '4.2': {
    lfen: 'rnbkqbnr/m1m1m1m1/1m1m3m/4m3/3M4/M3M1M1/1M1M1M1M/RNBQKBNR w KQkq 0 2',
    must: ['d4'],
    last: ['f6', 'e5'],
    arrows: [{ path: ['d4', 'f6'] }],
    caption: 'After 1. c3-d4 f6-e5, White must capture d4:f6: it is the only legal move.',
  },
  '4.3': {
    lfen: '3k4/8/5m2/8/3m4/2M5/8/4K3 w - 0 1',
    arrows: [{ path: ['c3', 'e5', 'g7'] }],
    red: ['d4', 'f6'],
    caption: 'A series: the man jumps d4, then must jump again over f6: c3:e5:g7 takes both men.',
  },
  '4.4': {
    lfen: '3k4/8/[nM]7/8/8/8/8/R3K3 w - 0 1',
    arrows: [{ from: 'a1', to: 'a6' }],
    caption: 'Rxa6 captures along the Rook’s ordinary move. Absorption: the Knight and the man it holds both leave the board.',
  },
  '4.5': {
    lfen: '3k4/8/8/8/3m1m2/2M5/3m1m2/7K w - 0 1',
    arrows: [{ path: ['c3', 'e1', 'g3', 'e5', 'c3'] }],
    red: ['d2', 'f2', 'f4', 'd4'],
    caption: 'Round the ring either way, c3:e1:g3:e5:c3 or c3:e5:g3:e1:c3, is one move: same start, end and jumped men.',
  },

  // Part V. Phases and the end of the game
  '5.1': {
    lfen: 'R7/7R/8/2m1m3/8/8/8/4K3 b - 0 30',
    last: ['a1', 'a8'],
    caption: 'After Ra8 mated, Black’s King left the board: Black plays on with its men in Phase 2, and White won Phase 1.',
  },
  '5.2': {
    lfen: '8/m7/1M6/2M5/8/8/8/4K3 b - 0 40',
    red: ['a7'],
    caption: 'Black (to move) has no King and its only man, on a7, is blocked: no legal move, so Black loses.',
  },
  '5.3': {
    lfen: KINGS,
    caption: 'Only the two Kings are left, with no prisoner: a dead position, and the game is drawn.',
  },
  '5.4': {
    lfen: '3k4/7R/8/8/8/8/8/R3K3 w - 0 30',
    arrows: [{ from: 'a1', to: 'a8' }],
    red: ['d8'],
    caption: 'Under the option mate-ends-game, Ra8# wins the game at once, as in chess: there is no Phase 2.',
  },

  // Part VI. Notation
  '6.1': {
    lfen: KINGS,
    squares: ['e4', 'd5', 'a1', 'h8'],
    caption: 'Squares are named by file and rank: the marked squares are a1, d5, e4 and h8.',
  },
  '6.2': {
    lfen: '3k4/8/8/2[Qm]5/8/8/8/4K3 w - 0 1',
    squares: ['c5'],
    caption: 'This position is written 3k4/8/8/2[Qm]5/8/8/8/4K3 w - 0 1: the construct on c5 is [Qm].',
  },
  '6.3': {
    lfen: '3k4/8/5m2/8/3m4/2M5/8/4K3 w - 0 1',
    arrows: [{ path: ['c3', 'e5', 'g7'] }],
    caption: 'Canonical form lists every square the piece visits: this series is c3e5g7; a Knight move is g1f3, castling e1g1.',
  },
  '6.4': {
    lfen: INITIAL,
    arrows: [{ from: 'g1', to: 'f3' }, { from: 'c3', to: 'd4', color: 'orange' }],
    caption: 'For people: the Knight move is Nf3, the man’s step c3-d4; a capture series is written c3:e5:g7.',
  },
  '6.5': {
    lfen: 'rnbkqbnr/m1m1m3/1m1m3m/4m3/8/M3M1M1/1M1M1M1M/RNBQKBNR w KQkq 0 3',
    last: ['g7', 'e5'],
    caption: 'A record lists tags and numbered moves: this is the position after 1. c3-d4 f6-e5 2. d4:f6 g7:e5.',
  },

  // Part VII. Quick reference
  VII: {
    lfen: INITIAL,
    arrows: [
      { from: 'a3', to: 'b4' }, { from: 'c3', to: 'b4' }, { from: 'c3', to: 'd4' }, { from: 'e3', to: 'd4' },
      { from: 'e3', to: 'f4' }, { from: 'g3', to: 'f4' }, { from: 'g3', to: 'h4' },
    ],
    caption: 'White’s 7 first Legion moves; with the Knight, Bishop, Queen, King and Rook moves that makes 26.',
  },
};
