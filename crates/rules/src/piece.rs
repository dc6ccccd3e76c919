//! Kinds of piece (RULES 1.3, 1.4) and what can stand on a square (1.5).

use std::fmt;

use crate::Color;

/// What a piece is, without its colour. Chess roles first, then the Legion's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// The King (1.3); never captured (3.1).
    King = 0,
    /// The Queen.
    Queen = 1,
    /// A Rook.
    Rook = 2,
    /// A Bishop.
    Bishop = 3,
    /// A Knight.
    Knight = 4,
    /// A Legion man (шашка), 1.4.
    Man = 5,
    /// A crowned man (тама), 1.4 and 2.5.
    Tama = 6,
}

impl Role {
    /// Every role, chess roles first.
    pub const ALL: [Role; 7] = [
        Role::King,
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Man,
        Role::Tama,
    ];

    /// 0 to 6 in the order of [`Role::ALL`]: an index for per-role tables.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Chess pieces (1.3): they capture by taking the square (4.4).
    #[inline]
    pub const fn is_chess(self) -> bool {
        (self as u8) <= Role::Knight as u8
    }

    /// Legion pieces (1.4): men and Tamas.
    #[inline]
    pub const fn is_legion(self) -> bool {
        !self.is_chess()
    }

    /// The upper-case letter of LFEN (6.2) and of the notation for people (6.4).
    pub const fn upper_char(self) -> char {
        match self {
            Role::King => 'K',
            Role::Queen => 'Q',
            Role::Rook => 'R',
            Role::Bishop => 'B',
            Role::Knight => 'N',
            Role::Man => 'M',
            Role::Tama => 'T',
        }
    }

    /// Reads a role letter of LFEN (6.2), in either case.
    pub fn from_char(c: char) -> Option<Role> {
        Some(match c.to_ascii_uppercase() {
            'K' => Role::King,
            'Q' => Role::Queen,
            'R' => Role::Rook,
            'B' => Role::Bishop,
            'N' => Role::Knight,
            'M' => Role::Man,
            'T' => Role::Tama,
            _ => return None,
        })
    }

    /// The role's name in explanations: "Knight", "man", "Tama".
    pub const fn name(self) -> &'static str {
        match self {
            Role::King => "King",
            Role::Queen => "Queen",
            Role::Rook => "Rook",
            Role::Bishop => "Bishop",
            Role::Knight => "Knight",
            Role::Man => "man",
            Role::Tama => "Tama",
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A piece: a role and a colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Its side.
    pub color: Color,
    /// Its kind.
    pub role: Role,
}

impl Piece {
    /// The piece of this side and kind.
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// LFEN letter: upper case White, lower case Black (6.2).
    pub fn char(self) -> char {
        let c = self.role.upper_char();
        match self.color {
            Color::White => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// Reads an LFEN letter (6.2): upper case White, lower case Black.
    pub fn from_char(c: char) -> Option<Piece> {
        let role = Role::from_char(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece { color, role })
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.color.name(), self.role.name())
    }
}

/// What stands on an occupied square: a piece, or a construct (1.5): a chess
/// piece (the Captor) holding an enemy man or Tama (the prisoner).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Occupant {
    /// The piece, or for a construct its Captor: its colour owns the square.
    pub piece: Piece,
    /// For a construct, the prisoner's role (`Man` or `Tama`); its colour is
    /// always the other side's (1.5). [`Board::put`](crate::Board::put)
    /// takes any role but a Tama for a man; [`PositionBuilder`](crate::PositionBuilder)
    /// refuses what 1.5 forbids.
    pub prisoner: Option<Role>,
}

impl Occupant {
    /// A piece standing alone.
    pub const fn piece(piece: Piece) -> Occupant {
        Occupant {
            piece,
            prisoner: None,
        }
    }

    /// The prisoner as a piece, if this is a construct.
    pub fn prisoner_piece(self) -> Option<Piece> {
        self.prisoner
            .map(|role| Piece::new(!self.piece.color, role))
    }

    /// Whether this is a construct (1.5).
    pub fn is_construct(self) -> bool {
        self.prisoner.is_some()
    }
}

impl fmt::Display for Occupant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.prisoner_piece() {
            None => write!(f, "{}", self.piece),
            Some(p) => write!(
                f,
                "{} holding a {} {}",
                self.piece,
                p.color.name(),
                p.role.name()
            ),
        }
    }
}
