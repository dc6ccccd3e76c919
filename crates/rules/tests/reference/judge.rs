//! Which rule an attempted move breaks, judged from `docs/RULES.md` alone
//! on the reference board (no code shared with `legion-rules`), to check
//! the library's explanations (`explain.rs`) against.
//!
//! An attempt is the squares a piece should visit (6.3), or a move
//! written for people (6.4). The judgement follows the order in which a
//! move comes to be: first the piece's own way of moving (Parts II and IV:
//! 2.1, 2.2, 2.4, 3.1, 4.3, 6.3), which, when broken, leaves no move to
//! judge further; then, for a move the piece can make, the obligation of
//! 4.2 and the King's safety (3.3, 4.2.1). A move that breaks several
//! rules of the same stage gets them all: any of them is a true reason.
//! A move that leaves its side in check is judged "did not end the check"
//! (4.2.1) when the King stayed put and every piece giving check after it
//! gave check before; otherwise "exposes the King" (3.3).

use super::{
    Board, CASTLINGS, Cell, Color, DIAGONAL, Kind, Move, MoveKind, Pos, canonical, chess_reach,
    in_check, jumps, king_square, legal, make_move, name, offset, rank, read,
};

/// A reason, as precise as the rules make it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// 5.2: the side to move has no legal move at all.
    NoLegalMove,
    /// 1.2: no piece on the first square.
    EmptySquare,
    /// 1.2: the piece there is the opponent's.
    NotYourPiece,
    /// 6.3: a chess piece visits exactly two squares.
    ChessMultiStep,
    /// 2.1: the chess piece does not move that way, a piece is in the way,
    /// or its own piece stands on the target.
    ChessMovement,
    /// 3.1: the target is the enemy King.
    KingTarget,
    /// 2.2: castling without its right, with a piece between, out of
    /// check, or over or onto an attacked square.
    Castling,
    /// 2.4: how a Legion piece moves without capturing (diagonally, a man
    /// one square forward, a Tama through empty squares, to an empty square).
    LegionMovement,
    /// 4.3: a jump of the series does not go as jumps go.
    Jump,
    /// 3.1 (4.3): a jump over the King.
    JumpKing,
    /// 4.3: the series stops where the piece could jump again, or a Tama
    /// lands where it cannot go on while another landing could.
    Incomplete,
    /// 4.2: a Legion capture is compulsory; these are they (6.4 form).
    Obligation { captures: Vec<String> },
    /// 4.2 (4.2.1): in check, and the move leaves the same check.
    StillInCheck {
        king: String,
        attackers: Vec<String>,
    },
    /// 3.3: the move leaves the King in check.
    ExposesKing {
        king: String,
        attackers: Vec<String>,
    },
    /// 4.5: start and end of several legal series.
    AmbiguousSeries,
    /// 1.3: written for people, it names a piece the side does not have.
    NoPieceFits,
    /// 2.1: written for people, no piece of that kind moves there.
    NoneCanReach,
    /// 6.4: written for people, it fits several legal moves.
    AmbiguousText,
}

impl Reason {
    /// The rule's number in RULES.md.
    pub fn rule(&self) -> &'static str {
        use Reason::*;
        match self {
            NoLegalMove => "5.2",
            EmptySquare | NotYourPiece => "1.2",
            ChessMultiStep => "6.3",
            ChessMovement | NoneCanReach => "2.1",
            KingTarget | JumpKing => "3.1",
            Castling => "2.2",
            LegionMovement => "2.4",
            Jump | Incomplete => "4.3",
            Obligation { .. } | StillInCheck { .. } => "4.2",
            ExposesKing { .. } => "3.3",
            AmbiguousSeries => "4.5",
            NoPieceFits => "1.3",
            AmbiguousText => "6.4",
        }
    }
}

/// What an attempt is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// It names this legal move (its canonical form, 6.3).
    Legal(String),
    /// It is refused; each of these reasons is true of it.
    Illegal(Vec<Reason>),
}

/// A position with its legal moves, ready to judge attempts.
pub struct Judge {
    pos: Pos,
    legal: Vec<Move>,
}

fn square(name: &str) -> usize {
    let b = name.as_bytes();
    ((b[1] - b'1') * 8 + (b[0] - b'a')) as usize
}

fn diagonal_between(a: usize, b: usize) -> Option<Vec<usize>> {
    let (df, dr) = (
        super::file(b) - super::file(a),
        super::rank(b) - super::rank(a),
    );
    if df == 0 || df.abs() != dr.abs() {
        return None;
    }
    let (sf, sr) = (df.signum(), dr.signum());
    Some(
        (1..df.abs())
            .filter_map(|i| offset(a, sf * i, sr * i))
            .collect(),
    )
}

/// Every piece of `by` giving check to a King on `k` (3.2), as squares.
fn checkers(board: &Board, k: usize, by: Color) -> Vec<usize> {
    let mut out = Vec::new();
    for sq in 0..64 {
        if let Some(c) = board[sq]
            && c.color == by
            && c.kind.is_chess()
            && chess_reach(board, sq, c.kind).contains(&k)
        {
            out.push(sq);
        }
    }
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
                    if c.color == by
                        && (c.kind == Kind::Tama || (c.kind == Kind::Man && distance == 1))
                    {
                        out.push(sq);
                    }
                    break;
                }
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

fn names(squares: &[usize]) -> Vec<String> {
    let mut v: Vec<String> = squares.iter().map(|&s| name(s)).collect();
    v.sort();
    v
}

impl Judge {
    pub fn new(lfen: &str, mate_ends_game: bool) -> Result<Judge, String> {
        let pos = read(lfen, mate_ends_game)?;
        let legal = legal(&pos);
        Ok(Judge { pos, legal })
    }

    fn me(&self) -> Color {
        self.pos.to_move
    }

    /// The legal moves, canonical.
    pub fn legal_moves(&self) -> Vec<String> {
        canonical(&self.legal).into_iter().map(|(s, _)| s).collect()
    }

    /// The attempt given as the squares a piece visits (6.3).
    pub fn squares(&self, attempt: &[&str]) -> Verdict {
        let sq: Vec<usize> = attempt.iter().map(|s| square(s)).collect();
        if let Some(v) = self.names_legal(&sq) {
            return v;
        }
        Verdict::Illegal(self.why(&sq))
    }

    /// A legal move the squares name (any path of a series, 4.5; start and
    /// end alone when they fit one series), or the ambiguity of 4.5.
    fn names_legal(&self, sq: &[usize]) -> Option<Verdict> {
        let (from, to) = (sq[0], sq[sq.len() - 1]);
        let identity = |m: &Move| {
            canonical(std::slice::from_ref(m))
                .pop()
                .map(|(s, _)| s)
                .unwrap_or_default()
        };
        let canon = |m: &Move| {
            // The canonical form of m's identity among all legal paths.
            let same: Vec<Move> = self
                .legal
                .iter()
                .filter(|o| {
                    o.from == m.from
                        && o.to == m.to
                        && match (&o.kind, &m.kind) {
                            (
                                MoveKind::Series { jumped: a, .. },
                                MoveKind::Series { jumped: b, .. },
                            ) => a == b,
                            (a, b) => a == b,
                        }
                })
                .cloned()
                .collect();
            canonical(&same)
                .first()
                .map(|(s, _)| s.clone())
                .unwrap_or_else(|| identity(m))
        };
        if sq.len() == 2 {
            let one = self.legal.iter().find(|m| {
                m.from == from
                    && m.to == to
                    && match &m.kind {
                        MoveKind::Series { jumped, .. } => jumped.len() == 1,
                        _ => true,
                    }
            });
            if let Some(m) = one {
                return Some(Verdict::Legal(canon(m)));
            }
        }
        let path = self.legal.iter().find(|m| match &m.kind {
            MoveKind::Series { landings, .. } => m.from == from && landings[..] == sq[1..],
            _ => false,
        });
        if let Some(m) = path {
            return Some(Verdict::Legal(canon(m)));
        }
        if sq.len() == 2 {
            let mut sets: Vec<&Vec<usize>> = self
                .legal
                .iter()
                .filter(|m| m.from == from && m.to == to)
                .filter_map(|m| match &m.kind {
                    MoveKind::Series { jumped, .. } => Some(jumped),
                    _ => None,
                })
                .collect();
            sets.sort();
            sets.dedup();
            match sets.len() {
                0 => {}
                1 => {
                    let m = self
                        .legal
                        .iter()
                        .find(|m| m.from == from && m.to == to)
                        .expect("a series");
                    return Some(Verdict::Legal(canon(m)));
                }
                _ => return Some(Verdict::Illegal(vec![Reason::AmbiguousSeries])),
            }
        }
        None
    }

    /// Why the squares are no legal move.
    fn why(&self, sq: &[usize]) -> Vec<Reason> {
        if self.legal.is_empty() {
            return vec![Reason::NoLegalMove];
        }
        let from = sq[0];
        let Some(cell) = self.pos.board[from] else {
            return vec![Reason::EmptySquare];
        };
        if cell.color != self.me() {
            return vec![Reason::NotYourPiece];
        }
        if cell.kind.is_chess() {
            self.why_chess(sq, cell)
        } else {
            self.why_legion(sq, cell)
        }
    }

    fn why_chess(&self, sq: &[usize], cell: Cell) -> Vec<Reason> {
        let board = &self.pos.board;
        let me = self.me();
        if sq.len() != 2 {
            return vec![Reason::ChessMultiStep];
        }
        let (from, to) = (sq[0], sq[1]);
        if cell.kind == Kind::King
            && let Some(c) = CASTLINGS
                .iter()
                .filter(|c| (c.right < 2) == (me == Color::White))
                .find(|c| c.king_from == from && c.king_to == to)
        {
            // 2.2, from the table and its conditions.
            if !self.pos.castling[c.right]
                || c.between.iter().any(|&s| board[s].is_some())
                || in_check(board, me)
                || [c.passed, c.king_to].iter().any(|&s| {
                    let mut b = *board;
                    b[s] = b[c.king_from].take();
                    in_check(&b, me)
                })
            {
                return vec![Reason::Castling];
            }
            return self.why_not_played(&Move {
                from,
                to,
                kind: MoveKind::Castle {
                    rook_from: c.rook_from,
                    rook_to: c.rook_to,
                },
            });
        }
        // 2.1: the piece's own pattern, up to the first piece in the way.
        if !chess_reach(board, from, cell.kind).contains(&to) {
            return vec![Reason::ChessMovement];
        }
        match board[to] {
            Some(t) if t.color == me => return vec![Reason::ChessMovement],
            Some(t) if t.kind == Kind::King => return vec![Reason::KingTarget],
            _ => {}
        }
        self.why_not_played(&Move {
            from,
            to,
            kind: MoveKind::Chess,
        })
    }

    fn why_legion(&self, sq: &[usize], cell: Cell) -> Vec<Reason> {
        let board = &self.pos.board;
        let me = self.me();
        let (from, to) = (sq[0], sq[sq.len() - 1]);
        if sq.len() == 2 {
            let Some(between) = diagonal_between(from, to) else {
                return vec![Reason::LegionMovement];
            };
            let crossed: Vec<usize> = between
                .iter()
                .copied()
                .filter(|&s| board[s].is_some())
                .collect();
            if crossed.is_empty() {
                // Nothing to jump: a move without capture (2.4), which
                // goes to an empty square, a man one square forward.
                if board[to].is_some() {
                    return vec![Reason::LegionMovement];
                }
                let forward = super::rank(to) - super::rank(from) == me.forward();
                if cell.kind == Kind::Man && !(between.is_empty() && forward) {
                    return vec![Reason::LegionMovement];
                }
                return self.why_not_played(&Move {
                    from,
                    to,
                    kind: MoveKind::Step,
                });
            }
            // A Tama sliding through its own piece, or through several
            // pieces, is blocked (2.4): that is no jump.
            let own = crossed
                .iter()
                .any(|&s| board[s].is_some_and(|c| c.color == me));
            if cell.kind == Kind::Tama && (crossed.len() > 1 || own) {
                return vec![Reason::LegionMovement];
            }
        }
        // A capture series (4.3), leg by leg.
        let mut b = *board;
        b[from] = None;
        let mut kind = cell.kind;
        let mut jumped: Vec<usize> = Vec::new();
        for leg in sq.windows(2) {
            let (a, l) = (leg[0], leg[1]);
            let mut reasons = Vec::new();
            let Some(between) = diagonal_between(a, l) else {
                return vec![Reason::Jump];
            };
            let crossed: Vec<usize> = between
                .iter()
                .copied()
                .filter(|&s| b[s].is_some())
                .collect();
            if b[l].is_some() {
                reasons.push(Reason::Jump);
            }
            match crossed[..] {
                [victim] => {
                    let v = b[victim].expect("occupied");
                    if jumped.contains(&victim) || v.color == me {
                        reasons.push(Reason::Jump);
                    } else if v.kind == Kind::King {
                        reasons.push(Reason::JumpKing);
                    }
                    // A man jumps an adjacent piece to the square beyond.
                    if kind == Kind::Man && between.len() != 1 {
                        reasons.push(Reason::Jump);
                    }
                    if reasons.is_empty() {
                        jumped.push(victim);
                    }
                }
                _ => reasons.push(Reason::Jump),
            }
            if !reasons.is_empty() {
                reasons.dedup();
                return reasons;
            }
            if kind == Kind::Man && rank(l) == me.far_rank() {
                kind = Kind::Tama;
            }
        }
        // Every jump goes as jumps go; the series must also end only where
        // no jump is left, and a Tama land where it can go on if it can.
        let mut kind = cell.kind;
        let mut so_far: Vec<usize> = Vec::new();
        for leg in sq.windows(2) {
            let (a, l) = (leg[0], leg[1]);
            let options = jumps(board, me, from, a, kind, &so_far);
            let victim = jumped[so_far.len()];
            let lands = options
                .iter()
                .find(|(mid, _)| *mid == victim)
                .map(|(_, lands)| lands.clone())
                .unwrap_or_default();
            so_far.push(victim);
            if kind == Kind::Tama {
                let goes_on = |s: usize| !jumps(board, me, from, s, Kind::Tama, &so_far).is_empty();
                if lands.iter().any(|&s| goes_on(s)) && !goes_on(l) {
                    return vec![Reason::Incomplete];
                }
            }
            if kind == Kind::Man && rank(l) == me.far_rank() {
                kind = Kind::Tama;
            }
        }
        if !jumps(board, me, from, to, kind, &so_far).is_empty() {
            return vec![Reason::Incomplete];
        }
        let mut set = jumped.clone();
        set.sort_unstable();
        self.why_not_played(&Move {
            from,
            to,
            kind: MoveKind::Series {
                landings: sq[1..].to_vec(),
                jumped: set,
                final_kind: kind,
            },
        })
    }

    /// A move the piece can make (Parts II and IV) that is not legal: the
    /// obligation (4.2), or the King (3.3, 4.2.1); both when both hold.
    fn why_not_played(&self, m: &Move) -> Vec<Reason> {
        let board = &self.pos.board;
        let me = self.me();
        let king = king_square(board, me);
        let in_check = king.is_some() && in_check(board, me);
        let mut reasons = Vec::new();
        let compulsory: Vec<String> = canonical(&self.legal)
            .into_iter()
            .filter(|(_, m)| m.is_legion_capture())
            .map(|(_, m)| {
                let mut s = name(m.from);
                if let MoveKind::Series { landings, .. } = &m.kind {
                    for &l in landings {
                        s.push(':');
                        s.push_str(&name(l));
                    }
                }
                s
            })
            .collect();
        if !in_check && !m.is_legion_capture() && !compulsory.is_empty() {
            reasons.push(Reason::Obligation {
                captures: compulsory,
            });
        }
        if let Some(k) = king {
            let after = make_move(&self.pos, m);
            let k_after = if m.from == k { m.to } else { k };
            let now = checkers(&after.board, k_after, me.other());
            assert_eq!(now.is_empty(), !super::in_check(&after.board, me));
            if !now.is_empty() {
                let before = checkers(board, k, me.other());
                if in_check && m.from != k && now.iter().all(|s| before.contains(s)) {
                    reasons.push(Reason::StillInCheck {
                        king: name(k),
                        attackers: names(&before),
                    });
                } else {
                    reasons.push(Reason::ExposesKing {
                        king: name(k_after),
                        attackers: names(&now),
                    });
                }
            }
        }
        assert!(
            !reasons.is_empty(),
            "{}: {m:?} is a move the piece can make, legal by 3.3 and 4.2, yet not legal",
            super::write(&self.pos)
        );
        reasons
    }

    /// The attempt written for people (6.4): `Nf3`, `Rae1`, `O-O`, or
    /// squares joined by `-`, `x`, `:`.
    pub fn human(&self, text: &str) -> Verdict {
        let t = text.trim_end_matches(['+', '#']);
        let me = self.me();
        if t == "O-O" || t == "O-O-O" {
            if self.legal.is_empty() {
                return Verdict::Illegal(vec![Reason::NoLegalMove]);
            }
            let c = CASTLINGS
                .iter()
                .filter(|c| (c.right < 2) == (me == Color::White))
                .nth(if t == "O-O" { 0 } else { 1 })
                .expect("two castlings a side");
            if !self.pos.castling[c.right] {
                return Verdict::Illegal(vec![Reason::Castling]);
            }
            return self.squares(&[&name(c.king_from), &name(c.king_to)]);
        }
        let first = t.chars().next().expect("a move");
        // A piece letter is upper case (6.4); `b2-a1` names squares.
        let Some((_, kind)) =
            Kind::from_letter(first).filter(|(_, k)| k.is_chess() && first.is_ascii_uppercase())
        else {
            let squares: Vec<String> = t
                .split(['-', 'x', ':'])
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect();
            let refs: Vec<&str> = squares.iter().map(String::as_str).collect();
            return self.squares(&refs);
        };
        let rest: String = t[1..].chars().filter(|&c| c != 'x').collect();
        let (hint, dest) = rest.split_at(rest.len() - 2);
        let to = square(dest);
        if self.legal.is_empty() {
            return Verdict::Illegal(vec![Reason::NoLegalMove]);
        }
        let fits = |s: usize| {
            hint.chars().all(|h| {
                if h.is_ascii_digit() {
                    name(s).ends_with(h)
                } else {
                    name(s).starts_with(h)
                }
            })
        };
        let origins: Vec<usize> = (0..64)
            .filter(|&s| matches!(self.pos.board[s], Some(c) if c.color == me && c.kind == kind))
            .filter(|&s| fits(s))
            .collect();
        if origins.is_empty() {
            return Verdict::Illegal(vec![Reason::NoPieceFits]);
        }
        // A piece letter names a chess move; castling is written O-O (6.4).
        let hits: Vec<&Move> = self
            .legal
            .iter()
            .filter(|m| origins.contains(&m.from) && m.to == to && m.kind == MoveKind::Chess)
            .collect();
        match hits[..] {
            [m] => return Verdict::Legal(m.notation()),
            [] => {}
            _ => return Verdict::Illegal(vec![Reason::AmbiguousText]),
        }
        // The reason of a piece that can go there but may not; only when
        // none can is it how the pieces move (2.1).
        let reach = |r: &Reason| {
            matches!(
                r,
                Reason::ChessMovement | Reason::ChessMultiStep | Reason::NoneCanReach
            )
        };
        let mut reasons: Vec<Reason> = Vec::new();
        let mut all = Vec::new();
        for &o in &origins {
            let why = match self.squares(&[&name(o), &name(to)]) {
                Verdict::Illegal(why) => why,
                // Castling written as a King move: the King moves one
                // square (2.1); castling is O-O.
                Verdict::Legal(_) => vec![Reason::NoneCanReach],
            };
            if !why.iter().all(reach) {
                reasons.extend(why.iter().filter(|r| !reach(r)).cloned());
            }
            all.push(why);
        }
        if reasons.is_empty() {
            reasons = match &all[..] {
                [only] => only.clone(),
                _ => vec![Reason::NoneCanReach],
            };
        }
        Verdict::Illegal(reasons)
    }
}
