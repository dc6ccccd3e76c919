//! The binary training-data format (`legion datagen --format binary`;
//! docs/STRENGTH.md gives it byte by byte). A 16-byte header, then
//! 40-byte records, every number little-endian:
//!
//! - header: the magic `LGNDATA\0`, the format version (`u16`, 1), the
//!   record size (`u16`, 40), four zero bytes;
//! - a position record (kind 0): flags (side to move, castling rights,
//!   rule option), the game's result, the half-move clock, the full-move
//!   number, the search's score (`i16`), the occupied squares (`u64`), a
//!   nibble per occupied square (its piece, or a construct's Captor), and
//!   two masks over the occupied squares: which hold a construct (1.5) and
//!   which of those hold a Tama. That is all a [`Position`] is (the phase
//!   of 5.1 is which Kings are on the board), so decoding rebuilds it
//!   exactly, through [`PositionBuilder`] and its checks of 6.2;
//! - a game-end record (kind 1) after each game's positions: the game's
//!   number, how many positions it has and a checksum of their bytes. A
//!   game is written at once, its end record last, so a file cut short by
//!   a crash ends with at most one unfinished game, which readers ignore
//!   and `datagen` cuts off before resuming.
//!
//! At most 32 occupied squares fit (the nibbles): play from 1.6 never has
//! more, since no move adds a piece (4.1); such a position is refused
//! when written, never cut.

use std::io::{self, Read};

use legion_engine::rng::{self, Rng};

use legion_rules::castling::{CastlingRights, CastlingSide};
use legion_rules::{
    Bitboard, Color, LfenError, Occupant, Piece, Position, PositionBuilder, Role, Rules,
};

/// The first eight bytes of a binary data file.
pub const MAGIC: [u8; 8] = *b"LGNDATA\0";
/// The format version this build writes and reads.
pub const VERSION: u16 = 1;
pub const HEADER_SIZE: usize = 16;
pub const RECORD_SIZE: usize = 40;
/// Occupied squares a record holds at most (one nibble each).
pub const MAX_OCCUPIED: u32 = 32;

const KIND_POSITION: u8 = 0;
const KIND_GAME_END: u8 = 1;
const FLAG_BLACK: u8 = 1;
const CASTLING_SHIFT: u8 = 1;
const FLAG_MATE_ENDS_GAME: u8 = 1 << 5;
const FLAGS_KNOWN: u8 = FLAG_BLACK | (15 << CASTLING_SHIFT) | FLAG_MATE_ENDS_GAME;
const NIBBLE_BLACK: u8 = 8;

/// One record.
pub type Record = [u8; RECORD_SIZE];

/// A position with its search score and its game's winner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    pub position: Position,
    /// For the side to move, in hundredths of a man (16 bits in a record).
    pub score: i32,
    /// `None` for a draw.
    pub winner: Option<Color>,
}

/// A position the format cannot hold.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    #[error(
        "{0} occupied squares: the binary format holds at most 32 (play from 1.6 never has more, no move adds a piece)"
    )]
    TooManyPieces(u32),
    #[error(
        "half-move clock {0} does not fit the binary format's byte (at most 255; 5.3 draws at 100)"
    )]
    Halfmove(u32),
    #[error("full-move number {0} does not fit the binary format's 16 bits")]
    Fullmove(u32),
    #[error("score {0} does not fit the binary format's 16 bits")]
    Score(i32),
    #[error("a game of {0} positions: an end record counts at most 2^32 - 1")]
    TooManyPositions(usize),
}

/// A record that is not one this version writes.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    #[error("unknown record kind {0}")]
    Kind(u8),
    #[error("unknown flag bits in {0:#04x}")]
    Flags(u8),
    #[error("result byte {0}, not 0 (Black won), 1 (draw) or 2 (White won)")]
    Result(u8),
    #[error("{0} occupied squares, more than the 32 a record holds")]
    TooManyPieces(u32),
    #[error("piece code {code} for occupied square {n}: no such piece")]
    Piece { code: u8, n: usize },
    #[error("bits set beyond the occupied squares")]
    Padding,
    #[error("a Tama prisoner marked where no construct stands")]
    TamaWithoutConstruct,
    #[error("bytes that must be zero are not")]
    Reserved,
    #[error("{0}")]
    Position(#[from] LfenError),
}

/// A file or stream that is not valid data of this version.
#[derive(Debug, thiserror::Error)]
pub enum FormatError {
    #[error("cannot read the data: {0}")]
    Io(#[from] io::Error),
    #[error("not a binary Legion data file (it does not start with LGNDATA)")]
    Magic,
    #[error("the header is cut short: {0} bytes of 16")]
    ShortHeader(usize),
    #[error(
        "binary data format version {0}: this build reads version 1 only (written by another legion, or damaged)"
    )]
    Version(u16),
    #[error("records of {0} bytes in the header; version 1 has 40")]
    RecordSize(u16),
    #[error("header bytes 12 to 15 are not zero")]
    HeaderReserved,
    #[error("record {index}: {error}")]
    Record { index: u64, error: RecordError },
    #[error(
        "record {index}: the end of game {game} counts {claimed} positions, but {found} stand before it"
    )]
    Count {
        index: u64,
        game: u64,
        claimed: u32,
        found: u32,
    },
    #[error("record {index}: the end of game {game} does not match its positions' checksum")]
    Checksum { index: u64, game: u64 },
}

/// The header of a file of this version.
pub fn header() -> [u8; HEADER_SIZE] {
    let mut h = [0u8; HEADER_SIZE];
    h[..8].copy_from_slice(&MAGIC);
    h[8..10].copy_from_slice(&VERSION.to_le_bytes());
    h[10..12].copy_from_slice(&(RECORD_SIZE as u16).to_le_bytes());
    h
}

/// Checks a header: the magic first, then the version (an unknown one is
/// refused before anything else is read), then the record size.
pub fn check_header(bytes: &[u8]) -> Result<(), FormatError> {
    let n = bytes.len().min(MAGIC.len());
    if bytes[..n] != MAGIC[..n] {
        return Err(FormatError::Magic);
    }
    if bytes.len() < HEADER_SIZE {
        return Err(FormatError::ShortHeader(bytes.len()));
    }
    let version = u16::from_le_bytes([bytes[8], bytes[9]]);
    if version != VERSION {
        return Err(FormatError::Version(version));
    }
    let size = u16::from_le_bytes([bytes[10], bytes[11]]);
    if size as usize != RECORD_SIZE {
        return Err(FormatError::RecordSize(size));
    }
    if bytes[12..16] != [0; 4] {
        return Err(FormatError::HeaderReserved);
    }
    Ok(())
}

/// Whether `head`, the first bytes of a file, start like a binary data
/// file (a text file starts with an LFEN or `#`, never with `L`).
pub fn looks_binary(head: &[u8]) -> bool {
    let n = head.len().min(MAGIC.len());
    n > 0 && head[..n] == MAGIC[..n]
}

fn castling_bit(color: Color, side: CastlingSide) -> u8 {
    let mut one = CastlingRights::NONE;
    one.set(color, side);
    one.bits()
}

fn winner_byte(winner: Option<Color>) -> u8 {
    match winner {
        Some(Color::Black) => 0,
        None => 1,
        Some(Color::White) => 2,
    }
}

fn piece_code(p: Piece) -> u8 {
    p.role.index() as u8
        | if p.color == Color::Black {
            NIBBLE_BLACK
        } else {
            0
        }
}

/// The record of `pos` with its search `score` (side to move) and its
/// game's `winner`.
pub fn encode(pos: &Position, score: i32, winner: Option<Color>) -> Result<Record, EncodeError> {
    let board = pos.board();
    let occupied = board.occupied();
    if occupied.count() > MAX_OCCUPIED {
        return Err(EncodeError::TooManyPieces(occupied.count()));
    }
    let halfmove = u8::try_from(pos.halfmove_clock())
        .map_err(|_| EncodeError::Halfmove(pos.halfmove_clock()))?;
    let fullmove = u16::try_from(pos.fullmove_number())
        .map_err(|_| EncodeError::Fullmove(pos.fullmove_number()))?;
    let score = i16::try_from(score).map_err(|_| EncodeError::Score(score))?;
    let mut r = [0u8; RECORD_SIZE];
    r[0] = KIND_POSITION;
    let mut flags = pos.castling().bits() << CASTLING_SHIFT;
    if pos.turn() == Color::Black {
        flags |= FLAG_BLACK;
    }
    if pos.rules().mate_ends_game {
        flags |= FLAG_MATE_ENDS_GAME;
    }
    r[1] = flags;
    r[2] = winner_byte(winner);
    r[3] = halfmove;
    r[4..6].copy_from_slice(&fullmove.to_le_bytes());
    r[6..8].copy_from_slice(&score.to_le_bytes());
    r[8..16].copy_from_slice(&occupied.0.to_le_bytes());
    let (mut constructs, mut tamas) = (0u32, 0u32);
    for (n, sq) in occupied.enumerate() {
        let Some(o) = board.occupant(sq) else {
            continue;
        };
        r[16 + n / 2] |= piece_code(o.piece) << (4 * (n % 2));
        match o.prisoner {
            None => {}
            Some(role) => {
                constructs |= 1 << n;
                if role == Role::Tama {
                    tamas |= 1 << n;
                }
            }
        }
    }
    r[32..36].copy_from_slice(&constructs.to_le_bytes());
    r[36..40].copy_from_slice(&tamas.to_le_bytes());
    Ok(r)
}

/// The sample a position record holds, checked as an LFEN is (6.2).
pub fn decode(r: &Record) -> Result<Sample, RecordError> {
    if r[0] != KIND_POSITION {
        return Err(RecordError::Kind(r[0]));
    }
    let flags = r[1];
    if flags & !FLAGS_KNOWN != 0 {
        return Err(RecordError::Flags(flags));
    }
    let winner = match r[2] {
        0 => Some(Color::Black),
        1 => None,
        2 => Some(Color::White),
        b => return Err(RecordError::Result(b)),
    };
    let halfmove = u32::from(r[3]);
    let fullmove = u32::from(u16::from_le_bytes([r[4], r[5]]));
    let score = i16::from_le_bytes([r[6], r[7]]);
    let occupied = Bitboard(u64::from_le_bytes(r[8..16].try_into().expect("8 bytes")));
    let count = occupied.count();
    if count > MAX_OCCUPIED {
        return Err(RecordError::TooManyPieces(count));
    }
    let constructs = u32::from_le_bytes(r[32..36].try_into().expect("4 bytes"));
    let tamas = u32::from_le_bytes(r[36..40].try_into().expect("4 bytes"));
    let used = if count == 32 {
        u32::MAX
    } else {
        (1u32 << count) - 1
    };
    if constructs & !used != 0 {
        return Err(RecordError::Padding);
    }
    if tamas & !constructs != 0 {
        return Err(RecordError::TamaWithoutConstruct);
    }
    let mut b = PositionBuilder::new();
    for (n, sq) in occupied.enumerate() {
        let code = (r[16 + n / 2] >> (4 * (n % 2))) & 15;
        let role = Role::ALL
            .get(usize::from(code & !NIBBLE_BLACK))
            .copied()
            .ok_or(RecordError::Piece { code, n })?;
        let color = if code & NIBBLE_BLACK != 0 {
            Color::Black
        } else {
            Color::White
        };
        let prisoner = (constructs >> n & 1 == 1).then(|| {
            if tamas >> n & 1 == 1 {
                Role::Tama
            } else {
                Role::Man
            }
        });
        b.occupant(
            sq,
            Occupant {
                piece: Piece::new(color, role),
                prisoner,
            },
        );
    }
    // Unused nibbles are zero, so that one position has one record.
    for n in count as usize..32 {
        if (r[16 + n / 2] >> (4 * (n % 2))) & 15 != 0 {
            return Err(RecordError::Padding);
        }
    }
    let mut castling = CastlingRights::NONE;
    let bits = flags >> CASTLING_SHIFT & 15;
    for color in Color::ALL {
        for side in CastlingSide::ALL {
            if bits & castling_bit(color, side) != 0 {
                castling.set(color, side);
            }
        }
    }
    let rules = if flags & FLAG_MATE_ENDS_GAME != 0 {
        Rules::MATE_ENDS_GAME
    } else {
        Rules::DEFAULT
    };
    let position = b
        .turn(if flags & FLAG_BLACK != 0 {
            Color::Black
        } else {
            Color::White
        })
        .castling(castling)
        .halfmove_clock(halfmove)
        .fullmove_number(fullmove)
        .rules(rules)
        .build()?;
    Ok(Sample {
        position,
        score: i32::from(score),
        winner,
    })
}

/// FNV-1a over `bytes`, continuing from `hash` (start with
/// [`CHECKSUM_START`]).
pub fn checksum(hash: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(hash, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01B3)
    })
}

/// The checksum of no bytes.
pub const CHECKSUM_START: u64 = 0xCBF2_9CE4_8422_2325;

/// The record that ends game `game` of `positions` position records
/// whose bytes have checksum `sum`.
pub fn game_end(game: u64, positions: u32, sum: u64) -> Record {
    let mut r = [0u8; RECORD_SIZE];
    r[0] = KIND_GAME_END;
    r[4..8].copy_from_slice(&positions.to_le_bytes());
    r[8..16].copy_from_slice(&game.to_le_bytes());
    r[16..24].copy_from_slice(&sum.to_le_bytes());
    r
}

/// A game-end record's game number, positions and checksum.
fn read_game_end(r: &Record) -> Result<(u64, u32, u64), RecordError> {
    if r[1..4] != [0; 3] || r[24..] != [0; 16] {
        return Err(RecordError::Reserved);
    }
    Ok((
        u64::from_le_bytes(r[8..16].try_into().expect("8 bytes")),
        u32::from_le_bytes(r[4..8].try_into().expect("4 bytes")),
        u64::from_le_bytes(r[16..24].try_into().expect("8 bytes")),
    ))
}

/// The bytes of one game: its positions' records, then its end record.
pub fn encode_game(
    game: u64,
    positions: &[(Position, i32)],
    winner: Option<Color>,
) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::with_capacity((positions.len() + 1) * RECORD_SIZE);
    for (pos, score) in positions {
        out.extend_from_slice(&encode(pos, *score, winner)?);
    }
    let sum = checksum(CHECKSUM_START, &out);
    let count = u32::try_from(positions.len())
        .map_err(|_| EncodeError::TooManyPositions(positions.len()))?;
    out.extend_from_slice(&game_end(game, count, sum));
    Ok(out)
}

/// Fills `buf` from `input`; returns how many bytes were read (fewer
/// than its length only at the end of the input).
fn fill(input: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match input.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

/// Reads and checks the header at the start of `input`.
pub fn read_header(input: &mut impl Read) -> Result<(), FormatError> {
    let mut h = [0u8; HEADER_SIZE];
    let n = fill(input, &mut h)?;
    check_header(&h[..n])
}

/// The finished games of a file, in the order they stand.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scan {
    /// Game numbers.
    pub games: Vec<u64>,
    /// Position records in them.
    pub positions: u64,
    /// Bytes up to the end of the last finished game (the header
    /// included): what a resumed file keeps.
    pub finished_len: u64,
}

/// Walks the records after the header without decoding positions: a
/// game counts when its end record matches the records before it. An
/// unfinished last game (a crash) is left out; an end record that does
/// not match is an error, as is an unknown kind.
pub fn scan(input: &mut impl Read) -> Result<Scan, FormatError> {
    read_header(input)?;
    let mut s = Scan {
        finished_len: HEADER_SIZE as u64,
        ..Scan::default()
    };
    let mut index = 0u64;
    let (mut count, mut sum) = (0u32, CHECKSUM_START);
    let mut r = [0u8; RECORD_SIZE];
    let mut buf = io::BufReader::with_capacity(1 << 16, input);
    loop {
        if fill(&mut buf, &mut r)? < RECORD_SIZE {
            return Ok(s);
        }
        match r[0] {
            KIND_POSITION => {
                count = count.saturating_add(1);
                sum = checksum(sum, &r);
            }
            KIND_GAME_END => {
                let (game, claimed, stored) =
                    read_game_end(&r).map_err(|error| FormatError::Record { index, error })?;
                if claimed != count {
                    return Err(FormatError::Count {
                        index,
                        game,
                        claimed,
                        found: count,
                    });
                }
                if stored != sum {
                    return Err(FormatError::Checksum { index, game });
                }
                s.games.push(game);
                s.positions += u64::from(count);
                s.finished_len = HEADER_SIZE as u64 + (index + 1) * RECORD_SIZE as u64;
                (count, sum) = (0, CHECKSUM_START);
            }
            k => {
                return Err(FormatError::Record {
                    index,
                    error: RecordError::Kind(k),
                });
            }
        }
        index += 1;
    }
}

/// A finished game read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameBlock {
    pub number: u64,
    pub samples: Vec<Sample>,
}

/// Reads a binary data stream game by game.
pub struct GameReader<R: Read> {
    input: R,
    /// Index of the next record.
    index: u64,
}

impl<R: Read> GameReader<R> {
    /// Checks the header; `input` should be buffered.
    pub fn new(mut input: R) -> Result<GameReader<R>, FormatError> {
        read_header(&mut input)?;
        Ok(GameReader { input, index: 0 })
    }

    /// The next finished game, or `None` at the end (positions after the
    /// last end record belong to an unfinished game and are left out).
    pub fn next_game(&mut self) -> Result<Option<GameBlock>, FormatError> {
        let mut samples = Vec::new();
        let mut sum = CHECKSUM_START;
        let mut r = [0u8; RECORD_SIZE];
        loop {
            if fill(&mut self.input, &mut r)? < RECORD_SIZE {
                return Ok(None);
            }
            let index = self.index;
            self.index += 1;
            let bad = |error| FormatError::Record { index, error };
            if r[0] == KIND_GAME_END {
                let (game, claimed, stored) = read_game_end(&r).map_err(bad)?;
                let found = u32::try_from(samples.len()).unwrap_or(u32::MAX);
                if claimed != found {
                    return Err(FormatError::Count {
                        index,
                        game,
                        claimed,
                        found,
                    });
                }
                if stored != sum {
                    return Err(FormatError::Checksum { index, game });
                }
                return Ok(Some(GameBlock {
                    number: game,
                    samples,
                }));
            }
            sum = checksum(sum, &r);
            samples.push(decode(&r).map_err(bad)?);
        }
    }
}

/// The result of the text format: White's score.
fn text_result(winner: Option<Color>) -> &'static str {
    match winner {
        Some(Color::White) => "1",
        Some(Color::Black) => "0",
        None => "0.5",
    }
}

/// A game in the text format: a line `LFEN;score;result` for each
/// position (`result` White's: 1, 0.5 or 0), then `# game N`.
pub fn text_block(game: u64, positions: &[(Position, i32)], winner: Option<Color>) -> Vec<u8> {
    let result = text_result(winner);
    let mut block = String::new();
    for (pos, score) in positions {
        block.push_str(&format!("{};{score};{result}\n", pos.to_lfen()));
    }
    block.push_str(&format!("# game {game}\n"));
    block.into_bytes()
}

/// A data file of either format that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    #[error("cannot read the data: {0}")]
    Io(#[from] io::Error),
    #[error("line {line}: {message}")]
    Line { line: usize, message: String },
    #[error("{0}")]
    Binary(#[from] FormatError),
}

/// Reads a data file of either format (binary by its magic, else text),
/// handing each finished game to `each` with its number, in the order
/// they stand. Positions after the last finished game (a crash) are
/// left out in both.
pub fn read_games(
    mut input: impl io::BufRead,
    each: &mut dyn FnMut(u64, Vec<Sample>),
) -> Result<(), DataError> {
    if looks_binary(input.fill_buf()?) {
        let mut reader = GameReader::new(input)?;
        while let Some(g) = reader.next_game()? {
            each(g.number, g.samples);
        }
        return Ok(());
    }
    let mut current = Vec::new();
    let mut line = String::new();
    let mut n = 0;
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            return Ok(());
        }
        n += 1;
        let text = line.trim_end_matches(['\n', '\r']);
        let bad = |message: String| DataError::Line { line: n, message };
        if let Some(rest) = text.strip_prefix("# game ") {
            let i = rest
                .trim()
                .parse()
                .map_err(|_| bad(format!("bad game number '{rest}'")))?;
            each(i, std::mem::take(&mut current));
            continue;
        }
        if text.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = text.split(';').collect();
        let [lfen, score, result] = fields[..] else {
            return Err(bad("expected LFEN;score;result".into()));
        };
        let position = Position::from_lfen(lfen, Rules::DEFAULT).map_err(|e| bad(e.to_string()))?;
        let score = score
            .parse()
            .map_err(|_| bad(format!("bad score '{score}'")))?;
        let winner = match result {
            "1" => Some(Color::White),
            "0.5" => None,
            "0" => Some(Color::Black),
            _ => return Err(bad(format!("bad result '{result}'"))),
        };
        current.push(Sample {
            position,
            score,
            winner,
        });
    }
}

/// What `convert` did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Converted {
    pub games: u64,
    pub positions: u64,
}

/// A conversion that failed.
#[derive(Debug, thiserror::Error)]
pub enum ConvertError {
    #[error("{0}")]
    Read(#[from] DataError),
    #[error("game {game}: {source}")]
    Encode { game: u64, source: EncodeError },
    #[error("cannot write: {0}")]
    Write(io::Error),
}

/// What a copy keeps of the games `legion train` learns from (`datagen
/// convert --keep-positions`, `--keep-games`): fewer positions of each
/// game, or fewer whole games, to tell whether a net lacks positions or
/// games. Games the trainer holds out are always copied whole, so that
/// nets trained on different copies are measured on the same positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// Everything.
    All,
    /// Each position of a training game with this chance, in millionths.
    Positions { per_million: u32, seed: u64 },
    /// Each training game, whole, with this chance, in millionths.
    Games { per_million: u32, seed: u64 },
}

impl Keep {
    /// The positions of game `game` that are kept (the choice depends
    /// only on the seed and the game's number, not on the file's order).
    fn apply(self, game: u64, samples: Vec<Sample>) -> Vec<Sample> {
        let (per_million, seed) = match self {
            Keep::All => return samples,
            Keep::Positions { per_million, seed } | Keep::Games { per_million, seed } => {
                (per_million, seed)
            }
        };
        if crate::train::is_held_out(game) {
            return samples;
        }
        let mut chance = Rng::new(rng::derive(seed, game));
        let mut kept = move || chance.below(1_000_000) < per_million as usize;
        match self {
            Keep::Games { .. } if !kept() => Vec::new(),
            Keep::Positions { .. } => samples.into_iter().filter(|_| kept()).collect(),
            _ => samples,
        }
    }
}

/// Writes the finished games of `input` (either format) to `output` in
/// the binary format, in the order they stand, every record with its own
/// line's result; `keep` may leave out positions or games (a game it
/// leaves no position of is left out whole).
pub fn convert(
    input: impl io::BufRead,
    output: &mut impl io::Write,
    keep: Keep,
) -> Result<Converted, ConvertError> {
    output.write_all(&header()).map_err(ConvertError::Write)?;
    let mut done = Converted::default();
    let mut failure = None;
    let mut block = Vec::new();
    read_games(input, &mut |game, samples| {
        if failure.is_some() {
            return;
        }
        let had_positions = !samples.is_empty();
        let samples = keep.apply(game, samples);
        if had_positions && samples.is_empty() {
            return;
        }
        block.clear();
        let encoded: Result<(), EncodeError> = samples.iter().try_for_each(|s| {
            block.extend_from_slice(&encode(&s.position, s.score, s.winner)?);
            Ok(())
        });
        let count =
            u32::try_from(samples.len()).map_err(|_| EncodeError::TooManyPositions(samples.len()));
        let written = encoded
            .and(count)
            .map_err(|source| ConvertError::Encode { game, source })
            .and_then(|count| {
                let end = game_end(game, count, checksum(CHECKSUM_START, &block));
                output
                    .write_all(&block)
                    .and_then(|_| output.write_all(&end))
                    .map_err(ConvertError::Write)
            });
        match written {
            Ok(()) => {
                done.games += 1;
                done.positions += samples.len() as u64;
            }
            Err(e) => failure = Some(e),
        }
    })?;
    if let Some(e) = failure {
        return Err(e);
    }
    output.flush().map_err(ConvertError::Write)?;
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;
    use legion_engine::rng::Rng;
    use legion_rules::Game;

    fn round_trip(pos: &Position, score: i32, winner: Option<Color>) {
        let r = encode(pos, score, winner).unwrap();
        let back = decode(&r).unwrap();
        assert_eq!(back.position.to_lfen(), pos.to_lfen());
        assert_eq!(back.position, *pos);
        assert_eq!(back.position.rules(), pos.rules());
        assert_eq!(back.position.phase(), pos.phase());
        assert_eq!(back.position.hash(), pos.hash());
        assert_eq!((back.score, back.winner), (score, winner));
    }

    /// Every position of random legal games from 1.6, under both rule
    /// options: constructs, liberations, Tamas and King removals all come
    /// up in a few hundred games.
    #[test]
    fn random_games_round_trip() {
        let mut rng = Rng::new(11);
        let (mut constructs, mut tamas, mut tama_prisoners, mut kingless, mut positions) =
            (0, 0, 0, 0, 0);
        for g in 0..400 {
            let rules = if g % 4 == 3 {
                Rules::MATE_ENDS_GAME
            } else {
                Rules::DEFAULT
            };
            let mut game = Game::new(Position::initial_with(rules));
            for ply in 0..300 {
                let pos = *game.position();
                let b = pos.board();
                constructs += usize::from(b.constructs().any());
                tama_prisoners += usize::from(b.tama_prisoners().any());
                tamas += usize::from(b.by_role(Role::Tama).any());
                kingless += usize::from(pos.phase() == 2);
                positions += 1;
                let winner = [None, Some(Color::White), Some(Color::Black)][ply % 3];
                round_trip(&pos, (ply as i32 * 37 % 4001) - 2000, winner);
                let moves = pos.legal_moves();
                if moves.is_empty() || game.outcome().is_some() {
                    break;
                }
                game.play(moves[rng.below(moves.len())]).unwrap();
            }
        }
        // The kinds of position the format must carry did come up.
        assert!(positions > 50_000, "{positions}");
        assert!(constructs > 10_000, "{constructs}");
        assert!(tamas > 10_000, "{tamas}");
        assert!(tama_prisoners > 1000, "{tama_prisoners}");
        assert!(kingless > 1000, "{kingless}");
    }

    #[test]
    fn set_up_positions_round_trip() {
        for lfen in [
            // A White Queen holding a Black man, Black to move (1.5).
            "3k4/8/8/2[Qm]5/8/8/8/4K3 b - 0 20",
            // A Black Knight holding a White Tama on a light square (2.3),
            // White's King gone after Phase 1 (5.1).
            "3k4/8/8/8/8/8/8/1[nT]6 w - 37 61",
            // No King at all; a Black Tama, a White man.
            "8/8/8/4t3/8/8/1M6/8 b - 99 300",
            // Every castling right; a King as a Captor elsewhere.
            "r2k3r/8/8/8/8/8/8/R3K2R w KQkq 0 1",
            "[Kt]7/8/8/8/8/8/8/3k4 w - 0 1",
            legion_rules::INITIAL_LFEN,
        ] {
            let pos = Position::from_lfen(lfen, Rules::DEFAULT).unwrap();
            round_trip(&pos, -32768, None);
            round_trip(&pos, 32767, Some(Color::White));
        }
        // The initial position (1.6) by hand: ranks 1, 2, 3 and 6, 7, 8
        // occupied; a1 Rook (2), b1 Knight (4), c1 Bishop (3), d1 Queen
        // (1), e1 King (0), ...; the men (5) of b2 d2 next; the last two
        // nibbles Black's g8 Knight and h8 Rook (4 | 8, 2 | 8).
        let r = encode(&Position::initial(), -3, Some(Color::Black)).unwrap();
        assert_eq!(&r[..8], &[0, 15 << 1, 0, 0, 1, 0, 0xFD, 0xFF]);
        assert_eq!(
            u64::from_le_bytes(r[8..16].try_into().unwrap()),
            0xFF55_AA00_0055_AAFF
        );
        assert_eq!(&r[16..22], &[0x42, 0x13, 0x30, 0x24, 0x55, 0x55]);
        assert_eq!(&r[30..32], &[0xB9, 0xAC]);
        assert_eq!(&r[32..], &[0; 8]);
    }

    #[test]
    fn what_does_not_fit_is_refused() {
        // 33 occupied squares: a legal set-up by 6.2, not from play.
        let many = Position::from_lfen(
            "qqqqqqqq/qqqqqqqq/q7/8/8/8/QQQQQQQQ/QQQQQQQQ w - 0 1",
            Rules::DEFAULT,
        )
        .unwrap();
        assert_eq!(encode(&many, 0, None), Err(EncodeError::TooManyPieces(33)));
        let pos = Position::from_lfen("3k4/8/8/8/8/8/8/4K3 w - 256 1", Rules::DEFAULT).unwrap();
        assert_eq!(encode(&pos, 0, None), Err(EncodeError::Halfmove(256)));
        let pos = Position::from_lfen("3k4/8/8/8/8/8/8/4K3 w - 0 65536", Rules::DEFAULT).unwrap();
        assert_eq!(encode(&pos, 0, None), Err(EncodeError::Fullmove(65536)));
        assert_eq!(
            encode(&Position::initial(), 40_000, None),
            Err(EncodeError::Score(40_000))
        );
    }

    #[test]
    fn damaged_records_are_refused_with_the_reason() {
        let good = encode(&Position::initial(), 12, None).unwrap();
        let mut r = good;
        r[0] = 7;
        assert_eq!(decode(&r), Err(RecordError::Kind(7)));
        let mut r = good;
        r[1] |= 0x80;
        assert!(matches!(decode(&r), Err(RecordError::Flags(_))));
        let mut r = good;
        r[2] = 3;
        assert_eq!(decode(&r), Err(RecordError::Result(3)));
        // Role code 7 does not exist.
        let mut r = good;
        r[16] = (r[16] & 0xF0) | 7;
        assert_eq!(decode(&r), Err(RecordError::Piece { code: 7, n: 0 }));
        // A man on a light square (a2, index 8 of a file-by-file walk):
        // the 6.2 check of the builder speaks.
        let lone = Position::from_lfen("3k4/8/8/8/8/8/8/4K3 w - 0 1", Rules::DEFAULT).unwrap();
        let mut r = encode(&lone, 0, None).unwrap();
        assert_eq!(decode(&r).unwrap().position, lone);
        let occupied = u64::from_le_bytes(r[8..16].try_into().unwrap()) | 1 << 8;
        r[8..16].copy_from_slice(&occupied.to_le_bytes());
        // e1, a2, d8 in square order: a2 is the second nibble.
        r[16] = (r[16] & 0x0F) | ((Role::Man.index() as u8) << 4);
        r[17] = Role::King.index() as u8 | NIBBLE_BLACK;
        assert!(matches!(
            decode(&r),
            Err(RecordError::Position(LfenError::LegionOnLightSquare { .. }))
        ));
        // A nibble beyond the occupied squares, a Tama without a construct.
        let mut r = encode(&lone, 0, None).unwrap();
        r[17] |= 0x10;
        assert_eq!(decode(&r), Err(RecordError::Padding));
        let mut r = encode(&lone, 0, None).unwrap();
        r[36] = 1;
        assert_eq!(decode(&r), Err(RecordError::TamaWithoutConstruct));
    }

    #[test]
    fn headers_are_checked() {
        let h = header();
        assert_eq!(&h[..8], b"LGNDATA\0");
        assert!(check_header(&h).is_ok());
        let mut v2 = h;
        v2[8] = 2;
        let e = check_header(&v2).unwrap_err();
        assert!(matches!(e, FormatError::Version(2)));
        assert!(e.to_string().contains("version 2"), "{e}");
        let mut size = h;
        size[10] = 48;
        assert!(matches!(
            check_header(&size),
            Err(FormatError::RecordSize(48))
        ));
        assert!(matches!(
            check_header(b"3k4/8/8/8/8/8/8/4K3 w - 0 1;0;0.5\n"),
            Err(FormatError::Magic)
        ));
        assert!(matches!(
            check_header(&h[..5]),
            Err(FormatError::ShortHeader(5))
        ));
        assert!(looks_binary(&h[..3]) && !looks_binary(b"rnbk") && !looks_binary(b""));
    }

    fn games_file(games: &[(u64, Vec<(Position, i32)>)]) -> Vec<u8> {
        let mut out = header().to_vec();
        for (n, positions) in games {
            out.extend(encode_game(*n, positions, Some(Color::White)).unwrap());
        }
        out
    }

    /// The games of a binary file as (number, scores).
    fn scores_of(file: &[u8]) -> Vec<(u64, Vec<i32>)> {
        let mut games = Vec::new();
        read_games(file, &mut |n, samples| {
            games.push((n, samples.iter().map(|s| s.score).collect()))
        })
        .unwrap();
        games
    }

    #[test]
    fn copies_keep_fewer_positions_or_games_and_every_held_out_game() {
        // Games 0..200, ten positions each, scored n * 100 + i so that
        // every position is known by its score.
        let pos = Position::initial();
        let games: Vec<(u64, Vec<(Position, i32)>)> = (0..200u64)
            .map(|n| (n, (0..10).map(|i| (pos, (n * 100 + i) as i32)).collect()))
            .collect();
        let file = games_file(&games);
        let all = scores_of(&file);
        let copy = |keep| {
            let mut out = Vec::new();
            let done = convert(&file[..], &mut out, keep).unwrap();
            let games = scores_of(&out);
            assert_eq!(done.games, games.len() as u64);
            let positions: usize = games.iter().map(|(_, s)| s.len()).sum();
            assert_eq!(done.positions, positions as u64);
            games
        };
        assert_eq!(copy(Keep::All), all);
        let half = |seed| Keep::Positions {
            per_million: 500_000,
            seed,
        };
        let positions = copy(half(1));
        // Every game is there (ten positions all left out has chance
        // 1/1024 per game, and this seed leaves none empty), a held-out
        // game (0, 50, 100, 150) whole, the others in their own order.
        assert_eq!(positions.len(), 200);
        let mut kept = 0;
        for ((n, scores), (_, whole)) in positions.iter().zip(&all) {
            if n % 50 == 0 {
                assert_eq!(scores, whole);
            } else {
                assert!(scores.windows(2).all(|w| w[0] < w[1]));
                assert!(scores.iter().all(|s| whole.contains(s)), "game {n}");
                kept += scores.len();
            }
        }
        // About half of the 1,960 training positions: far from all or none.
        assert!((800..1_160).contains(&kept), "{kept}");
        assert_eq!(copy(half(1)), positions, "the seed decides");
        assert_ne!(copy(half(2)), positions);
        let games_kept = copy(Keep::Games {
            per_million: 500_000,
            seed: 1,
        });
        assert!(games_kept.iter().all(|g| all.contains(g)));
        assert!(
            [0, 50, 100, 150]
                .iter()
                .all(|n| games_kept.iter().any(|g| g.0 == *n))
        );
        assert!(
            (70..130).contains(&games_kept.len()),
            "{}",
            games_kept.len()
        );
        // None kept: the held-out games only.
        let none = copy(Keep::Games {
            per_million: 0,
            seed: 1,
        });
        assert_eq!(
            none.iter().map(|g| g.0).collect::<Vec<_>>(),
            [0, 50, 100, 150]
        );
        assert_eq!(
            copy(Keep::Positions {
                per_million: 1_000_000,
                seed: 3
            }),
            all
        );
        // A game that had no position is copied as it was.
        let empty = games_file(&[(3, vec![])]);
        let mut out = Vec::new();
        let done = convert(&empty[..], &mut out, Keep::All).unwrap();
        assert_eq!((done.games, done.positions), (1, 0));
        assert_eq!(out, empty);
    }

    #[test]
    fn games_read_back_and_a_cut_tail_is_left_out() {
        let a = Position::initial();
        let b = Position::from_lfen("3k4/8/8/2[Qm]5/8/8/8/4K3 b - 0 20", Rules::DEFAULT).unwrap();
        let file = games_file(&[(5, vec![(a, 1), (b, -2)]), (2, vec![]), (9, vec![(b, 3)])]);
        let s = scan(&mut &file[..]).unwrap();
        assert_eq!(s.games, vec![5, 2, 9]);
        assert_eq!(s.positions, 3);
        assert_eq!(s.finished_len, file.len() as u64);
        let mut reader = GameReader::new(&file[..]).unwrap();
        let g = reader.next_game().unwrap().unwrap();
        assert_eq!(g.number, 5);
        assert_eq!(
            g.samples
                .iter()
                .map(|s| (s.position, s.score))
                .collect::<Vec<_>>(),
            vec![(a, 1), (b, -2)]
        );
        assert_eq!(reader.next_game().unwrap().unwrap().samples, vec![]);
        assert_eq!(reader.next_game().unwrap().unwrap().number, 9);
        assert!(reader.next_game().unwrap().is_none());
        // Cut in the last game: its position and half its end record.
        let cut = &file[..file.len() - RECORD_SIZE / 2];
        let s = scan(&mut &cut[..]).unwrap();
        assert_eq!(s.games, vec![5, 2]);
        assert_eq!(
            s.finished_len,
            (HEADER_SIZE + 4 * RECORD_SIZE) as u64,
            "header, two positions and two ends"
        );
        let mut reader = GameReader::new(cut).unwrap();
        reader.next_game().unwrap().unwrap();
        reader.next_game().unwrap().unwrap();
        assert!(reader.next_game().unwrap().is_none());
        // A changed byte inside a finished game is found by its checksum.
        let mut bad = file.clone();
        bad[HEADER_SIZE + 6] ^= 1;
        assert!(matches!(
            scan(&mut &bad[..]),
            Err(FormatError::Checksum { index: 2, game: 5 })
        ));
        // A position record missing before an end record.
        let mut short = file.clone();
        short.drain(HEADER_SIZE..HEADER_SIZE + RECORD_SIZE);
        assert!(matches!(
            scan(&mut &short[..]),
            Err(FormatError::Count {
                index: 1,
                game: 5,
                claimed: 2,
                found: 1
            })
        ));
    }
}
