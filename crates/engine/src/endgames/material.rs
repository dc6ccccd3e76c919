//! An ending's pieces: how many of each kind each side has, written like
//! `KR/M vs KT` (White first, LFEN letters of 6.2, a construct as
//! Captor/prisoner, `-` for a side with nothing), as
//! `tools/strength/endings.py` writes it.

use std::fmt;
use std::str::FromStr;

use legion_rules::{Board, Color, Role};

/// Free Legion pieces (men and Tamas) stand on the 32 dark squares (1.4).
pub(crate) const DARK_SQUARES: usize = 32;
/// Kinds of thing on a square, per side: K Q R B N, each alone or holding
/// a man or a Tama (1.5), then a free man, a free Tama.
pub const KINDS_PER_SIDE: usize = 17;
pub const KINDS: usize = 2 * KINDS_PER_SIDE;
/// The most pieces (constructs counted once) an ending may have.
pub const MAX_UNITS: usize = 6;
/// The largest index the solver takes on: 2^25 placements (four pieces
/// at most; the move graph of a larger ending outgrows 24 GiB).
pub const MAX_INDEX: u64 = 1 << 25;
/// The order in which pieces are written, as `tools/strength/endings.py`
/// writes them.
const ORDER: &str = "KQRBNTM";

/// A material string that cannot be read, or an ending too large to solve.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MaterialError {
    /// No ` vs ` between the two sides.
    #[error("'{0}': write White's pieces, 'vs', then Black's, e.g. 'KT vs K'")]
    NoVs(String),
    /// A letter that is not one of `K Q R B N M T`.
    #[error("'{letter}' is not a piece letter (upper case K Q R B N M T, 6.2)")]
    UnknownLetter {
        /// The letter.
        letter: char,
    },
    /// A prisoner after a man or a Tama, or a `/` with nothing after it.
    #[error("'{0}': only a chess piece holds a prisoner, written like R/M (1.5)")]
    BadConstruct(String),
    /// A prisoner that is not a man or a Tama.
    #[error("'{0}': a prisoner is an enemy man or Tama, written like R/M or R/T (1.5)")]
    BadPrisoner(String),
    /// Two Kings on one side.
    #[error("{0} has more than one King (1.3)")]
    TwoKings(&'static str),
    /// More pieces than the solver takes on.
    #[error("{0} pieces: the solver takes at most {MAX_UNITS}")]
    TooManyPieces(usize),
    /// More pieces than squares.
    #[error("{0} pieces do not fit on 64 squares (1.1, 1.5)")]
    MoreThanTheBoard(usize),
    /// More placements than the solver takes on.
    #[error("{material} has {size} placements: the solver takes at most {MAX_INDEX}")]
    TooLarge {
        /// The ending.
        material: String,
        /// Its number of placements with either side to move.
        size: u64,
    },
}

/// One thing standing on a square: a piece, or a construct (1.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Unit {
    pub(crate) color: Color,
    pub(crate) role: Role,
    pub(crate) prisoner: Option<Role>,
}

impl Unit {
    pub(crate) fn kind(self) -> usize {
        let k = match self.role {
            Role::Man => 15,
            Role::Tama => 16,
            r => {
                r.index() * 3
                    + match self.prisoner {
                        None => 0,
                        Some(Role::Tama) => 2,
                        Some(_) => 1,
                    }
            }
        };
        self.color.index() * KINDS_PER_SIDE + k
    }

    pub(crate) fn of_kind(kind: usize) -> Unit {
        let color = if kind < KINDS_PER_SIDE {
            Color::White
        } else {
            Color::Black
        };
        let k = kind % KINDS_PER_SIDE;
        let (role, prisoner) = match k {
            15 => (Role::Man, None),
            16 => (Role::Tama, None),
            _ => (
                Role::ALL[k / 3],
                [None, Some(Role::Man), Some(Role::Tama)][k % 3],
            ),
        };
        Unit {
            color,
            role,
            prisoner,
        }
    }

    /// Free men and Tamas stand on dark squares only (1.4).
    pub(crate) fn dark_only(self) -> bool {
        self.role.is_legion()
    }

    fn text(self) -> String {
        let mut s = self.role.upper_char().to_string();
        if let Some(p) = self.prisoner {
            s.push('/');
            s.push(p.upper_char());
        }
        s
    }
}

/// The pieces of an ending: how many of each kind (constructs apart) each
/// side has. Written like `KR/M vs KT`: White first, letters of 6.2,
/// a construct as Captor/prisoner; `-` for a side with nothing.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Material {
    pub(crate) counts: [u8; KINDS],
}

impl Material {
    /// The material on a board.
    pub fn of(board: &Board) -> Material {
        let mut counts = [0u8; KINDS];
        for sq in board.occupied() {
            if let Some(o) = board.occupant(sq) {
                let u = Unit {
                    color: o.piece.color,
                    role: o.piece.role,
                    prisoner: o.prisoner,
                };
                counts[u.kind()] = counts[u.kind()].saturating_add(1);
            }
        }
        Material { counts }
    }

    /// Pieces on the board, a construct counting once.
    pub fn units(&self) -> usize {
        self.counts.iter().map(|&c| c as usize).sum()
    }

    /// The same ending with the colours exchanged (not the same positions:
    /// men move the other way).
    pub fn flipped(&self) -> Material {
        let mut counts = [0u8; KINDS];
        counts[..KINDS_PER_SIDE].copy_from_slice(&self.counts[KINDS_PER_SIDE..]);
        counts[KINDS_PER_SIDE..].copy_from_slice(&self.counts[..KINDS_PER_SIDE]);
        Material { counts }
    }

    fn side_text(&self, color: Color) -> String {
        let mut units: Vec<String> = Vec::new();
        for k in 0..KINDS_PER_SIDE {
            let kind = color.index() * KINDS_PER_SIDE + k;
            for _ in 0..self.counts[kind] {
                units.push(Unit::of_kind(kind).text());
            }
        }
        units.sort_by_key(|u| {
            let first = u.chars().next().unwrap_or('K');
            (ORDER.find(first).unwrap_or(0), u.clone())
        });
        if units.is_empty() {
            "-".to_string()
        } else {
            units.concat()
        }
    }

    /// The name of this ending's table file: the text with ` vs ` as
    /// `_vs_` and a construct's `/` as `+` (a file name has no `/`), then
    /// `.legtb`; e.g. `KR+M_vs_KT.legtb`.
    pub fn file_name(&self) -> String {
        format!(
            "{}.legtb",
            self.to_string().replace(" vs ", "_vs_").replace('/', "+")
        )
    }

    /// The ending a table file's name stands for, if it is one.
    pub fn from_file_name(name: &str) -> Option<Material> {
        let stem = name.strip_suffix(".legtb")?;
        let m: Material = stem
            .replace("_vs_", " vs ")
            .replace('+', "/")
            .parse()
            .ok()?;
        (m.file_name() == name).then_some(m)
    }

    /// Every ending of exactly `units` pieces (a construct counting once),
    /// each side with at most one King (1.3), smaller kinds first.
    pub fn all_with(units: usize) -> Vec<Material> {
        fn king(kind: usize) -> bool {
            kind % KINDS_PER_SIDE < 3
        }
        fn walk(from: usize, left: usize, counts: &mut [u8; KINDS], out: &mut Vec<Material>) {
            if left == 0 {
                out.push(Material { counts: *counts });
                return;
            }
            for kind in from..KINDS {
                if king(kind) {
                    let side = kind / KINDS_PER_SIDE * KINDS_PER_SIDE;
                    if (side..side + 3).any(|k| counts[k] > 0) {
                        continue;
                    }
                }
                counts[kind] += 1;
                walk(kind, left - 1, counts, out);
                counts[kind] -= 1;
            }
        }
        let mut out = Vec::new();
        if units > 0 && units <= MAX_UNITS {
            walk(0, units, &mut [0; KINDS], &mut out);
        }
        out
    }

    /// Number of placements (both sides to move) the index covers.
    pub fn index_size(&self) -> u64 {
        let mut size: u64 = 2;
        for kind in 0..KINDS {
            let radix = if Unit::of_kind(kind).dark_only() {
                DARK_SQUARES as u64
            } else {
                64
            };
            for _ in 0..self.counts[kind] {
                size = size.saturating_mul(radix);
            }
        }
        size
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} vs {}",
            self.side_text(Color::White),
            self.side_text(Color::Black)
        )
    }
}

impl fmt::Debug for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Material({self})")
    }
}

fn parse_side(text: &str, color: Color, counts: &mut [u8; KINDS]) -> Result<(), MaterialError> {
    let text = text.trim();
    if text == "-" {
        return Ok(());
    }
    let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let role = match Role::from_char(c) {
            Some(r) if c.is_ascii_uppercase() => r,
            _ => return Err(MaterialError::UnknownLetter { letter: c }),
        };
        let mut prisoner = None;
        if chars.get(i + 1) == Some(&'/') {
            let written: String = chars[i..(i + 3).min(chars.len())].iter().collect();
            if role.is_legion() {
                return Err(MaterialError::BadConstruct(written));
            }
            prisoner = match chars.get(i + 2) {
                Some('M') => Some(Role::Man),
                Some('T') => Some(Role::Tama),
                Some(_) => return Err(MaterialError::BadPrisoner(written)),
                None => return Err(MaterialError::BadConstruct(written)),
            };
            i += 2;
        }
        i += 1;
        let u = Unit {
            color,
            role,
            prisoner,
        };
        counts[u.kind()] = counts[u.kind()].saturating_add(1);
        if counts[u.kind()] as usize > 64 {
            return Err(MaterialError::MoreThanTheBoard(counts[u.kind()] as usize));
        }
    }
    let kings: usize = (0..3)
        .map(|p| counts[color.index() * KINDS_PER_SIDE + p] as usize)
        .sum();
    if kings > 1 {
        return Err(MaterialError::TwoKings(color.name()));
    }
    Ok(())
}

impl FromStr for Material {
    type Err = MaterialError;

    /// Reads `KT vs K`, `KB/M vs KT`, `KT vs -`.
    fn from_str(s: &str) -> Result<Material, MaterialError> {
        let parts: Vec<&str> = s.split("vs").collect();
        if parts.len() != 2 {
            return Err(MaterialError::NoVs(s.to_string()));
        }
        let mut counts = [0u8; KINDS];
        parse_side(parts[0], Color::White, &mut counts)?;
        parse_side(parts[1], Color::Black, &mut counts)?;
        let m = Material { counts };
        if m.units() > 64 {
            return Err(MaterialError::MoreThanTheBoard(m.units()));
        }
        Ok(m)
    }
}
