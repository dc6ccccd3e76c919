//! An independent reference implementation of the rules of Legion, written from
//! `docs/RULES.md` alone, to cross-check the fast implementation.
//!
//! It is deliberately slow and plain: a mailbox board, pseudo-legal candidates
//! each played on a copy of the position, check found by scanning the board.
//! It shares no types with `legion-rules`: positions go in and out as LFEN
//! (6.2) and moves as canonical strings (6.3).
//!
//! Rule numbers in comments refer to `docs/RULES.md`.

#![allow(dead_code)]

use std::collections::BTreeMap;

// ---------------------------------------------------------------------------
// Public interface
// ---------------------------------------------------------------------------

/// The legal moves of the position, canonical (6.3, 4.5), sorted.
pub fn legal_moves(lfen: &str, mate_ends_game: bool) -> Result<Vec<String>, String> {
    let pos = read(lfen, mate_ends_game)?;
    Ok(canonical(&legal(&pos))
        .into_iter()
        .map(|(s, _)| s)
        .collect())
}

/// The LFEN after playing `mv`, which must be legal. Any valid path of a
/// Legion capture series is accepted (4.5), with `-`, `x` or `:` allowed
/// between squares (6.3).
pub fn apply(lfen: &str, mv: &str, mate_ends_game: bool) -> Result<String, String> {
    let pos = read(lfen, mate_ends_game)?;
    let wanted: String = mv
        .chars()
        .filter(|c| !matches!(c, '-' | 'x' | ':'))
        .collect::<String>()
        .to_ascii_lowercase();
    let moves = legal(&pos);
    let Some(m) = moves.iter().find(|m| m.notation() == wanted) else {
        return Err(format!("illegal or unknown move `{mv}`"));
    };
    let next = play(&pos, m, mate_ends_game);
    Ok(write(&next))
}

/// Number of leaf nodes of the legal-move tree of depth `depth`, counting
/// each canonical move once (4.5).
pub fn perft(lfen: &str, depth: u32, mate_ends_game: bool) -> Result<u64, String> {
    let pos = read(lfen, mate_ends_game)?;
    Ok(perft_pos(&pos, depth, mate_ends_game))
}

fn perft_pos(pos: &Pos, depth: u32, mate_ends_game: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = canonical(&legal(pos));
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|(_, m)| perft_pos(&play(pos, m, mate_ends_game), depth - 1, mate_ends_game))
        .sum()
}

// ---------------------------------------------------------------------------
// Pieces and board
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Color {
    White,
    Black,
}

impl Color {
    fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 2.4: men move towards rank 8 (White) or rank 1 (Black).
    fn forward(self) -> i32 {
        match self {
            Color::White => 1,
            Color::Black => -1,
        }
    }

    /// 2.5: the rank (index) on which this side's men are crowned.
    fn far_rank(self) -> i32 {
        match self {
            Color::White => 7,
            Color::Black => 0,
        }
    }
}

/// 1.3, 1.4.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    King,
    Queen,
    Rook,
    Bishop,
    Knight,
    Man,
    Tama,
}

impl Kind {
    fn is_legion(self) -> bool {
        matches!(self, Kind::Man | Kind::Tama)
    }

    fn is_chess(self) -> bool {
        !self.is_legion()
    }

    fn letter(self, color: Color) -> char {
        let c = match self {
            Kind::King => 'K',
            Kind::Queen => 'Q',
            Kind::Rook => 'R',
            Kind::Bishop => 'B',
            Kind::Knight => 'N',
            Kind::Man => 'M',
            Kind::Tama => 'T',
        };
        match color {
            Color::White => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    fn from_letter(c: char) -> Option<(Color, Kind)> {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let kind = match c.to_ascii_uppercase() {
            'K' => Kind::King,
            'Q' => Kind::Queen,
            'R' => Kind::Rook,
            'B' => Kind::Bishop,
            'N' => Kind::Knight,
            'M' => Kind::Man,
            'T' => Kind::Tama,
            _ => return None,
        };
        Some((color, kind))
    }
}

/// The content of an occupied square: a piece, or a construct (1.5) when
/// `prisoner` is set. `color` and `kind` are those of the piece on top (the
/// Captor of a construct); the prisoner always belongs to the other side.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Cell {
    color: Color,
    kind: Kind,
    prisoner: Option<Kind>,
}

type Board = [Option<Cell>; 64];

#[derive(Clone, PartialEq, Eq, Debug)]
struct Pos {
    board: Board,
    to_move: Color,
    /// Castling rights `K Q k q` (6.2 field 3).
    castling: [bool; 4],
    halfmove: u32,
    fullmove: u32,
}

fn file(sq: usize) -> i32 {
    (sq % 8) as i32
}

fn rank(sq: usize) -> i32 {
    (sq / 8) as i32
}

fn square(f: i32, r: i32) -> Option<usize> {
    if (0..8).contains(&f) && (0..8).contains(&r) {
        Some((r * 8 + f) as usize)
    } else {
        None
    }
}

fn offset(sq: usize, df: i32, dr: i32) -> Option<usize> {
    square(file(sq) + df, rank(sq) + dr)
}

/// 1.1: a1 is dark; dark when file + rank is even.
fn is_dark(sq: usize) -> bool {
    (file(sq) + rank(sq)) % 2 == 0
}

fn name(sq: usize) -> String {
    let f = (b'a' + file(sq) as u8) as char;
    let r = (b'1' + rank(sq) as u8) as char;
    format!("{f}{r}")
}

const DIAGONAL: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
const ORTHOGONAL: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const KNIGHT: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// The square holding `color`'s King, alone or as a Captor.
fn king_square(board: &Board, color: Color) -> Option<usize> {
    (0..64).find(|&sq| matches!(board[sq], Some(c) if c.color == color && c.kind == Kind::King))
}

/// 2.1: the squares a chess piece of `kind` on `from` reaches, whatever is on
/// them: every leap of a King or Knight, and for a slider every square along
/// its lines up to and including the first occupied one.
fn chess_reach(board: &Board, from: usize, kind: Kind) -> Vec<usize> {
    let mut out = Vec::new();
    let mut leaps = |dirs: &[(i32, i32)]| {
        for &(df, dr) in dirs {
            if let Some(to) = offset(from, df, dr) {
                out.push(to);
            }
        }
    };
    match kind {
        Kind::King => {
            leaps(&DIAGONAL);
            leaps(&ORTHOGONAL);
            return out;
        }
        Kind::Knight => {
            leaps(&KNIGHT);
            return out;
        }
        _ => {}
    }
    let dirs: Vec<(i32, i32)> = match kind {
        Kind::Queen => DIAGONAL.iter().chain(ORTHOGONAL.iter()).copied().collect(),
        Kind::Rook => ORTHOGONAL.to_vec(),
        Kind::Bishop => DIAGONAL.to_vec(),
        _ => unreachable!("not a chess piece"),
    };
    for (df, dr) in dirs {
        let mut cur = offset(from, df, dr);
        while let Some(sq) = cur {
            out.push(sq);
            if board[sq].is_some() {
                break;
            }
            cur = offset(sq, df, dr);
        }
    }
    out
}

/// 3.2: is `color`'s King in check? A side without a King never is (5.1).
fn in_check(board: &Board, color: Color) -> bool {
    let Some(k) = king_square(board, color) else {
        return false;
    };
    let enemy = color.other();
    // 3.2(a): chess attacks of chess pieces and constructs (by their Captor),
    // the enemy King included.
    for sq in 0..64 {
        if let Some(c) = board[sq]
            && c.color == enemy
            && c.kind.is_chess()
            && chess_reach(board, sq, c.kind).contains(&k)
        {
            return true;
        }
    }
    // 3.2(b): a jump threat by a free man (adjacent, any diagonal direction)
    // or a Tama (any distance over empty squares), the square directly beyond
    // the King empty.
    for (df, dr) in DIAGONAL {
        let Some(beyond) = offset(k, -df, -dr) else {
            continue;
        };
        if board[beyond].is_some() {
            continue;
        }
        let mut distance = 1;
        let mut cur = offset(k, df, dr);
        while let Some(sq) = cur {
            match board[sq] {
                None => {
                    distance += 1;
                    cur = offset(sq, df, dr);
                }
                Some(c) => {
                    if c.color == enemy
                        && (c.kind == Kind::Tama || (c.kind == Kind::Man && distance == 1))
                    {
                        return true;
                    }
                    break;
                }
            }
        }
    }
    false
}

// ---------------------------------------------------------------------------
// Moves
// ---------------------------------------------------------------------------

#[derive(Clone, PartialEq, Eq, Debug)]
enum MoveKind {
    /// A chess piece or construct moving or capturing (2.1, 2.3, 4.4).
    Chess,
    /// 2.2; `from`/`to` are the King's.
    Castle { rook_from: usize, rook_to: usize },
    /// A non-capturing Legion move (2.4).
    Step,
    /// A Legion capture series (4.3): every landing square in order, the
    /// jumped squares (sorted), and the kind the piece ends as (2.5).
    Series {
        landings: Vec<usize>,
        jumped: Vec<usize>,
        final_kind: Kind,
    },
}

#[derive(Clone, PartialEq, Eq, Debug)]
struct Move {
    from: usize,
    to: usize,
    kind: MoveKind,
}

impl Move {
    /// 6.3 canonical form.
    fn notation(&self) -> String {
        match &self.kind {
            MoveKind::Series { landings, .. } => {
                let mut s = name(self.from);
                for &l in landings {
                    s.push_str(&name(l));
                }
                s
            }
            _ => format!("{}{}", name(self.from), name(self.to)),
        }
    }

    fn is_legion_capture(&self) -> bool {
        matches!(self.kind, MoveKind::Series { .. })
    }
}

/// Everything the side to move could play, before the check test of 3.3 and
/// the obligation of 4.2. Castling is checked fully here (2.2).
fn pseudo_moves(pos: &Pos) -> Vec<Move> {
    let me = pos.to_move;
    let board = &pos.board;
    let mut out = Vec::new();
    for from in 0..64 {
        let Some(cell) = board[from] else { continue };
        if cell.color != me {
            continue;
        }
        match cell.kind {
            Kind::Man | Kind::Tama => legion_moves(board, me, from, cell.kind, &mut out),
            chess => {
                // 2.1, 2.3, 4.4: to an empty square, or onto an enemy piece or
                // construct that is not the King (4.1: never the King).
                for to in chess_reach(board, from, chess) {
                    let ok = match board[to] {
                        None => true,
                        Some(t) => t.color != me && t.kind != Kind::King,
                    };
                    if ok {
                        out.push(Move {
                            from,
                            to,
                            kind: MoveKind::Chess,
                        });
                    }
                }
            }
        }
    }
    castling_moves(pos, &mut out);
    out
}

/// 2.4 steps and 4.3 capture series of the Legion piece on `from`.
fn legion_moves(board: &Board, me: Color, from: usize, kind: Kind, out: &mut Vec<Move>) {
    match kind {
        Kind::Man => {
            for df in [-1, 1] {
                if let Some(to) = offset(from, df, me.forward())
                    && board[to].is_none()
                {
                    out.push(Move {
                        from,
                        to,
                        kind: MoveKind::Step,
                    });
                }
            }
        }
        Kind::Tama => {
            for (df, dr) in DIAGONAL {
                let mut cur = offset(from, df, dr);
                while let Some(to) = cur
                    && board[to].is_none()
                {
                    out.push(Move {
                        from,
                        to,
                        kind: MoveKind::Step,
                    });
                    cur = offset(to, df, dr);
                }
            }
        }
        _ => unreachable!("not a Legion piece"),
    }
    let mut jumped = Vec::new();
    let mut landings = Vec::new();
    series(board, me, from, from, kind, &mut jumped, &mut landings, out);
}

/// 4.3: during a series the capturing piece has left its start square, so
/// that square counts as empty; jumped pieces stay on the board (occupied).
fn series_empty(board: &Board, origin: usize, sq: usize) -> bool {
    sq == origin || board[sq].is_none()
}

/// 4.3: may the Legion piece of `me` jump the piece on `sq`? Only an enemy
/// piece or construct, not yet jumped in this series, never the King or a
/// construct whose Captor is the King (3.1).
fn jumpable(board: &Board, me: Color, jumped: &[usize], sq: usize) -> bool {
    match board[sq] {
        Some(c) => c.color != me && c.kind != Kind::King && !jumped.contains(&sq),
        None => false,
    }
}

/// 4.3: the jumps open to a Legion piece of `kind` standing on `cur`, each as
/// (square jumped, possible landing squares).
fn jumps(
    board: &Board,
    me: Color,
    origin: usize,
    cur: usize,
    kind: Kind,
    jumped: &[usize],
) -> Vec<(usize, Vec<usize>)> {
    let mut out = Vec::new();
    for (df, dr) in DIAGONAL {
        match kind {
            // A man jumps an adjacent enemy, forward or backward, to the empty
            // square directly beyond it.
            Kind::Man => {
                if let Some(mid) = offset(cur, df, dr)
                    && jumpable(board, me, jumped, mid)
                    && let Some(land) = offset(mid, df, dr)
                    && series_empty(board, origin, land)
                {
                    out.push((mid, vec![land]));
                }
            }
            // A Tama: empty squares (or none), one enemy piece, then any of the
            // empty squares beyond it up to the next occupied square.
            Kind::Tama => {
                let mut cur_sq = offset(cur, df, dr);
                while let Some(sq) = cur_sq
                    && series_empty(board, origin, sq)
                {
                    cur_sq = offset(sq, df, dr);
                }
                let Some(mid) = cur_sq else { continue };
                if !jumpable(board, me, jumped, mid) {
                    continue;
                }
                let mut lands = Vec::new();
                let mut beyond = offset(mid, df, dr);
                while let Some(sq) = beyond
                    && series_empty(board, origin, sq)
                {
                    lands.push(sq);
                    beyond = offset(sq, df, dr);
                }
                if !lands.is_empty() {
                    out.push((mid, lands));
                }
            }
            _ => unreachable!("not a Legion piece"),
        }
    }
    out
}

/// Depth-first enumeration of every complete capture series (4.3) from
/// `cur`; every path is emitted (4.5 merging is done by [`canonical`]).
#[allow(clippy::too_many_arguments)]
fn series(
    board: &Board,
    me: Color,
    origin: usize,
    cur: usize,
    kind: Kind,
    jumped: &mut Vec<usize>,
    landings: &mut Vec<usize>,
    out: &mut Vec<Move>,
) {
    let options = jumps(board, me, origin, cur, kind, jumped);
    if options.is_empty() {
        // The series ends only when no further jump exists.
        if !jumped.is_empty() {
            let mut set = jumped.clone();
            set.sort_unstable();
            out.push(Move {
                from: origin,
                to: cur,
                kind: MoveKind::Series {
                    landings: landings.clone(),
                    jumped: set,
                    final_kind: kind,
                },
            });
        }
        return;
    }
    for (mid, lands) in options {
        jumped.push(mid);
        // 4.3: a Tama must land where it can jump again, if it can anywhere.
        let lands = if kind == Kind::Tama {
            let continuing: Vec<usize> = lands
                .iter()
                .copied()
                .filter(|&l| !jumps(board, me, origin, l, Kind::Tama, jumped).is_empty())
                .collect();
            if continuing.is_empty() {
                lands
            } else {
                continuing
            }
        } else {
            lands
        };
        for land in lands {
            // 2.5: a man reaching the far rank is crowned at once and goes on
            // as a Tama.
            let next_kind = if kind == Kind::Man && rank(land) == me.far_rank() {
                Kind::Tama
            } else {
                kind
            };
            landings.push(land);
            series(board, me, origin, land, next_kind, jumped, landings, out);
            landings.pop();
        }
        jumped.pop();
    }
}

/// One castling of the table of 2.2 (squares: a1=0 .. h1=7, a8=56 .. h8=63).
struct Castling {
    /// Index in the rights `K Q k q`.
    right: usize,
    king_from: usize,
    king_to: usize,
    rook_from: usize,
    rook_to: usize,
    /// The squares between King and Rook, which must be empty.
    between: &'static [usize],
    /// The square the King passes over.
    passed: usize,
}

const CASTLINGS: [Castling; 4] = [
    // White short: e1g1, h1f1.
    Castling {
        right: 0,
        king_from: 4,
        king_to: 6,
        rook_from: 7,
        rook_to: 5,
        between: &[5, 6],
        passed: 5,
    },
    // White long: e1c1, a1d1.
    Castling {
        right: 1,
        king_from: 4,
        king_to: 2,
        rook_from: 0,
        rook_to: 3,
        between: &[1, 2, 3],
        passed: 3,
    },
    // Black short: d8b8, a8c8.
    Castling {
        right: 2,
        king_from: 59,
        king_to: 57,
        rook_from: 56,
        rook_to: 58,
        between: &[57, 58],
        passed: 58,
    },
    // Black long: d8f8, h8e8.
    Castling {
        right: 3,
        king_from: 59,
        king_to: 61,
        rook_from: 63,
        rook_to: 60,
        between: &[60, 61, 62],
        passed: 60,
    },
];

/// 2.2 castling.
fn castling_moves(pos: &Pos, out: &mut Vec<Move>) {
    let me = pos.to_move;
    let mine = match me {
        Color::White => &CASTLINGS[0..2],
        Color::Black => &CASTLINGS[2..4],
    };
    let board = &pos.board;
    let plain = |sq: usize, kind: Kind| {
        board[sq]
            == Some(Cell {
                color: me,
                kind,
                prisoner: None,
            })
    };
    for c in mine {
        if !pos.castling[c.right]
            || !plain(c.king_from, Kind::King)
            || !plain(c.rook_from, Kind::Rook)
        {
            continue;
        }
        if c.between.iter().any(|&sq| board[sq].is_some()) {
            continue;
        }
        // The King not in check, the squares it passes over and lands on not
        // attacked (3.2): tested with the King placed there.
        if in_check(board, me) {
            continue;
        }
        let attacked = [c.passed, c.king_to].iter().any(|&sq| {
            let mut b = *board;
            b[sq] = b[c.king_from].take();
            in_check(&b, me)
        });
        if attacked {
            continue;
        }
        out.push(Move {
            from: c.king_from,
            to: c.king_to,
            kind: MoveKind::Castle {
                rook_from: c.rook_from,
                rook_to: c.rook_to,
            },
        });
    }
}

/// Squares whose involvement in a move clears a castling right (K Q k q):
/// the King's and the Rook's home squares.
const CASTLING_SQUARES: [[usize; 2]; 4] = [[4, 7], [4, 0], [59, 56], [59, 63]];

/// Plays `m` (assumed pseudo-legal) on a copy, without the King removal of
/// 5.1: 4.1 effects, crowning, castling rights, clocks, side to move.
fn make_move(pos: &Pos, m: &Move) -> Pos {
    let me = pos.to_move;
    let mut p = pos.clone();
    let mut reset_clock = false;
    let mut touched = vec![m.from, m.to];
    match &m.kind {
        MoveKind::Chess => {
            let mover = p.board[m.from].take().expect("a piece on the from square");
            let placed = match p.board[m.to] {
                None => mover,
                Some(target) => {
                    reset_clock = true;
                    if target.prisoner.is_some() {
                        // 4.1 Absorption: Captor and prisoner both removed; the
                        // attacker (and any prisoner it holds) takes the square.
                        mover
                    } else if target.kind.is_legion() && mover.prisoner.is_none() {
                        // 4.1: a plain chess piece takes a man or Tama prisoner.
                        Cell {
                            prisoner: Some(target.kind),
                            ..mover
                        }
                    } else {
                        // 4.1: a chess piece is removed; a construct removes a
                        // Legion piece (a Captor holds one prisoner).
                        mover
                    }
                }
            };
            p.board[m.to] = Some(placed);
        }
        MoveKind::Castle { rook_from, rook_to } => {
            let king = p.board[m.from].take();
            let rook = p.board[*rook_from].take();
            p.board[m.to] = king;
            p.board[*rook_to] = rook;
            touched.push(*rook_from);
            touched.push(*rook_to);
        }
        MoveKind::Step => {
            let mut piece = p.board[m.from].take().expect("a piece on the from square");
            if piece.kind == Kind::Man {
                reset_clock = true;
                // 2.5: crowned on the far rank.
                if rank(m.to) == me.far_rank() {
                    piece.kind = Kind::Tama;
                }
            }
            p.board[m.to] = Some(piece);
        }
        MoveKind::Series {
            landings,
            jumped,
            final_kind,
        } => {
            reset_clock = true;
            let piece = p.board[m.from].take().expect("a piece on the from square");
            // 4.3: all jumped pieces removed together at the end; a jumped
            // construct loses its Captor and its prisoner, freed, passes to
            // the jumping side (4.1 Liberation).
            for &sq in jumped {
                let target = p.board[sq].expect("a jumped piece");
                p.board[sq] = target.prisoner.map(|k| Cell {
                    color: me,
                    kind: k,
                    prisoner: None,
                });
            }
            p.board[m.to] = Some(Cell {
                kind: *final_kind,
                ..piece
            });
            touched.extend(landings.iter().copied());
            touched.extend(jumped.iter().copied());
        }
    }
    for (right, squares) in CASTLING_SQUARES.iter().enumerate() {
        if squares.iter().any(|sq| touched.contains(sq)) {
            p.castling[right] = false;
        }
    }
    p.halfmove = if reset_clock { 0 } else { pos.halfmove + 1 };
    if me == Color::Black {
        p.fullmove += 1;
    }
    p.to_move = me.other();
    p
}

/// The legal moves (3.3, 4.2), every path of a series listed separately.
fn legal(pos: &Pos) -> Vec<Move> {
    let me = pos.to_move;
    let has_king = king_square(&pos.board, me).is_some();
    // 3.3: a move is illegal if, complete, it leaves the mover's King in
    // check. A side without a King is exempt (5.1).
    let moves: Vec<Move> = pseudo_moves(pos)
        .into_iter()
        .filter(|m| !has_king || !in_check(&make_move(pos, m).board, me))
        .collect();
    // 4.2.1: in check, any legal move (all of them end the check).
    if has_king && in_check(&pos.board, me) {
        return moves;
    }
    // 4.2.2: a legal Legion capture obliges a Legion capture.
    if moves.iter().any(Move::is_legion_capture) {
        return moves.into_iter().filter(Move::is_legion_capture).collect();
    }
    // 4.2.3.
    moves
}

/// Start, end, jumped squares, and a tag (the notation of a non-series move).
type Identity = (usize, usize, Vec<usize>, String);

/// 4.5: series with the same start, end and set of jumped pieces are one
/// move, written with its lexicographically smallest path. Sorted by notation.
fn canonical(moves: &[Move]) -> Vec<(String, Move)> {
    let mut by_identity: BTreeMap<Identity, (String, Move)> = BTreeMap::new();
    for m in moves {
        let text = m.notation();
        let key = match &m.kind {
            MoveKind::Series {
                jumped, final_kind, ..
            } => {
                // The jumped set fixes whether a man was crowned; kept in the
                // key only as a safeguard.
                (m.from, m.to, jumped.clone(), format!("{final_kind:?}"))
            }
            _ => (m.from, m.to, Vec::new(), text.clone()),
        };
        match by_identity.get_mut(&key) {
            Some(entry) => {
                if text < entry.0 {
                    *entry = (text, m.clone());
                }
            }
            None => {
                by_identity.insert(key, (text, m.clone()));
            }
        }
    }
    let mut out: Vec<(String, Move)> = by_identity.into_values().collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// Plays a legal move and then applies 5.1.
fn play(pos: &Pos, m: &Move, mate_ends_game: bool) -> Pos {
    let mut next = make_move(pos, m);
    remove_mated_king(&mut next, mate_ends_game);
    next
}

/// 5.1: if the side to move has its King, is in check and has no legal move,
/// its King is removed at once with any prisoner it holds; its castling
/// rights go and the half-move clock restarts. Not under `mate-ends-game`
/// (5.4), where the mated side simply has no legal move.
fn remove_mated_king(pos: &mut Pos, mate_ends_game: bool) {
    if mate_ends_game {
        return;
    }
    let me = pos.to_move;
    if let Some(k) = king_square(&pos.board, me)
        && in_check(&pos.board, me)
        && legal(pos).is_empty()
    {
        pos.board[k] = None;
        let rights = match me {
            Color::White => [0, 1],
            Color::Black => [2, 3],
        };
        for r in rights {
            pos.castling[r] = false;
        }
        pos.halfmove = 0;
    }
}

// ---------------------------------------------------------------------------
// LFEN (6.2)
// ---------------------------------------------------------------------------

/// Parses an LFEN and applies 5.1 if the side to move is mated.
fn read(lfen: &str, mate_ends_game: bool) -> Result<Pos, String> {
    let mut pos = parse(lfen)?;
    remove_mated_king(&mut pos, mate_ends_game);
    // 6.2: the side not to move may not be in check while the side to move
    // has its King (judged after any removal of 5.1).
    if king_square(&pos.board, pos.to_move).is_some() && in_check(&pos.board, pos.to_move.other()) {
        return Err("6.2: the side not to move is in check".into());
    }
    Ok(pos)
}

fn parse(lfen: &str) -> Result<Pos, String> {
    let fields: Vec<&str> = lfen.split_whitespace().collect();
    if !(3..=5).contains(&fields.len()) {
        return Err(format!("6.2: expected 5 fields, found {}", fields.len()));
    }
    let mut board: Board = [None; 64];
    let ranks: Vec<&str> = fields[0].split('/').collect();
    if ranks.len() != 8 {
        return Err("6.2: placement must have 8 ranks".into());
    }
    for (i, text) in ranks.iter().enumerate() {
        let r = 7 - i as i32;
        let mut f = 0i32;
        let mut chars = text.chars();
        while let Some(c) = chars.next() {
            if let Some(d) = c.to_digit(10) {
                if !(1..=8).contains(&d) {
                    return Err(format!("6.2: bad digit `{c}`"));
                }
                f += d as i32;
                continue;
            }
            let cell = if c == '[' {
                let captor = chars.next().ok_or("6.2: unterminated construct")?;
                let prisoner = chars.next().ok_or("6.2: unterminated construct")?;
                if chars.next() != Some(']') {
                    return Err("6.2: malformed construct".into());
                }
                let (cc, ck) =
                    Kind::from_letter(captor).ok_or(format!("6.2: unknown letter `{captor}`"))?;
                let (pc, pk) = Kind::from_letter(prisoner)
                    .ok_or(format!("6.2: unknown letter `{prisoner}`"))?;
                if !ck.is_chess() {
                    return Err("6.2: a construct's Captor must be a chess piece".into());
                }
                if !pk.is_legion() || pc == cc {
                    return Err("6.2: a construct's prisoner must be an enemy man or Tama".into());
                }
                Cell {
                    color: cc,
                    kind: ck,
                    prisoner: Some(pk),
                }
            } else {
                let (color, kind) =
                    Kind::from_letter(c).ok_or(format!("6.2: unknown letter `{c}`"))?;
                Cell {
                    color,
                    kind,
                    prisoner: None,
                }
            };
            let sq = square(f, r).ok_or("6.2: a rank has more than 8 squares")?;
            if cell.kind.is_legion() && !is_dark(sq) {
                return Err(format!("6.2: a Legion piece on light square {}", name(sq)));
            }
            if cell.kind == Kind::Man && r == cell.color.far_rank() {
                return Err(format!("6.2: a man on its far rank at {}", name(sq)));
            }
            board[sq] = Some(cell);
            f += 1;
        }
        if f != 8 {
            return Err(format!("6.2: rank {} does not have 8 squares", r + 1));
        }
    }
    for color in [Color::White, Color::Black] {
        let kings = board
            .iter()
            .filter(|c| matches!(c, Some(c) if c.color == color && c.kind == Kind::King))
            .count();
        if kings > 1 {
            return Err("6.2: a side has more than one King".into());
        }
    }
    let to_move = match fields[1] {
        "w" => Color::White,
        "b" => Color::Black,
        other => return Err(format!("6.2: bad side to move `{other}`")),
    };
    let mut castling = [false; 4];
    if fields[2] != "-" {
        let mut last = None;
        for c in fields[2].chars() {
            let idx = "KQkq"
                .find(c)
                .ok_or(format!("6.2: bad castling letter `{c}`"))?;
            if last.is_some_and(|l| idx <= l) {
                return Err("6.2: castling rights out of order".into());
            }
            last = Some(idx);
            castling[idx] = true;
        }
    }
    let homes = [
        (Color::White, 4, 7),
        (Color::White, 4, 0),
        (Color::Black, 59, 56),
        (Color::Black, 59, 63),
    ];
    for (right, &(color, k, r)) in homes.iter().enumerate() {
        let plain = |sq: usize, kind| {
            board[sq]
                == Some(Cell {
                    color,
                    kind,
                    prisoner: None,
                })
        };
        if castling[right] && !(plain(k, Kind::King) && plain(r, Kind::Rook)) {
            return Err("6.2: a castling right without its King and Rook at home".into());
        }
    }
    let number = |i: usize, default: u32| -> Result<u32, String> {
        match fields.get(i) {
            None => Ok(default),
            Some(t) => t
                .parse::<u32>()
                .map_err(|_| format!("6.2: bad number `{t}`")),
        }
    };
    let halfmove = number(3, 0)?;
    let fullmove = number(4, 1)?;
    if fullmove == 0 {
        return Err("6.2: the full-move number starts at 1".into());
    }
    Ok(Pos {
        board,
        to_move,
        castling,
        halfmove,
        fullmove,
    })
}

fn write(pos: &Pos) -> String {
    let mut s = String::new();
    for r in (0..8).rev() {
        let mut empty = 0;
        for f in 0..8 {
            match pos.board[(r * 8 + f) as usize] {
                None => empty += 1,
                Some(c) => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    match c.prisoner {
                        None => s.push(c.kind.letter(c.color)),
                        Some(p) => {
                            s.push('[');
                            s.push(c.kind.letter(c.color));
                            s.push(p.letter(c.color.other()));
                            s.push(']');
                        }
                    }
                }
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        if r > 0 {
            s.push('/');
        }
    }
    s.push(' ');
    s.push(match pos.to_move {
        Color::White => 'w',
        Color::Black => 'b',
    });
    s.push(' ');
    let rights: String = "KQkq"
        .chars()
        .zip(pos.castling)
        .filter(|&(_, on)| on)
        .map(|(c, _)| c)
        .collect();
    s.push_str(if rights.is_empty() { "-" } else { &rights });
    s.push_str(&format!(" {} {}", pos.halfmove, pos.fullmove));
    s
}

pub mod judge;
pub mod rng;
