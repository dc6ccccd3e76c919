//! The table file: one per ending, written by `legion endgame build` and
//! read, checked, by [`Tablebase`](super::Tablebase). Little-endian:
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `LEGIONEG` |
//! | 2 | format version, [`FORMAT_VERSION`] |
//! | 1 | width: bytes per value and per DTZ, 1 or 2 |
//! | 1 | 0 (reserved) |
//! | 8 | placements: the ending's index size ([`Layout`](super::Layout)) |
//! | 2 | length of the material text |
//! | n | the material, UTF-8, e.g. `KR/M vs KT` |
//! | placements × width | each placement's value ([`Stored`]: 0 no position, 1 draw, 2 + 2d won in d plies, 3 + 2d lost in d) |
//! | placements × width | each placement's DTZ in plies (0 for a draw) |
//! | 8 | checksum: FNV-1a 64 of every byte before it |
//!
//! The width is 1 when every value and DTZ fits in a byte (all the
//! endings measured: the longest win is 79 plies), else 2. A reader
//! refuses a file whose magic, version, width, material, size or
//! checksum is wrong, and says which.

use std::io::Write;
use std::path::Path;

use super::material::{MAX_INDEX, Material};
use super::value::Stored;

/// The first bytes of every table file.
pub const MAGIC: [u8; 8] = *b"LEGIONEG";
/// The version of the format this build writes and reads.
pub const FORMAT_VERSION: u16 = 1;
/// Magic, version, width, reserved, placements, text length.
const FIXED_HEADER: usize = 8 + 2 + 1 + 1 + 8 + 2;
const CHECKSUM: usize = 8;
/// The longest material text a file may name.
const MAX_TEXT: usize = 64;

/// Why a table file could not be written or read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// The file could not be opened, read or written.
    #[error("{path}: {reason}")]
    Io {
        /// The file.
        path: String,
        /// What the system said.
        reason: String,
    },
    /// Not a Legion endgame table.
    #[error("{path}: not a Legion endgame table (the first bytes are not LEGIONEG)")]
    Magic {
        /// The file.
        path: String,
    },
    /// A format this build does not read.
    #[error("{path}: table format version {found}, this build reads version {FORMAT_VERSION}")]
    Version {
        /// The file.
        path: String,
        /// The version in the file.
        found: u16,
    },
    /// A width other than 1 or 2.
    #[error("{path}: {found} bytes per value: the format has 1 or 2")]
    Width {
        /// The file.
        path: String,
        /// The width in the file.
        found: u8,
    },
    /// The material named in the file cannot be read, or is not the one
    /// its name says.
    #[error("{path}: {reason}")]
    Material {
        /// The file.
        path: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The file's length or placement count is not its ending's.
    #[error("{path}: {what} is {found}, the ending needs {expected}")]
    Size {
        /// The file.
        path: String,
        /// Which size.
        what: &'static str,
        /// What the ending needs.
        expected: u64,
        /// What the file has.
        found: u64,
    },
    /// The bytes are not those written (a damaged or truncated copy).
    #[error("{path}: checksum {found:016x}, the file says {expected:016x}: the file is damaged")]
    Checksum {
        /// The file.
        path: String,
        /// The checksum stored in the file.
        expected: u64,
        /// The checksum of its bytes.
        found: u64,
    },
}

/// FNV-1a, 64 bits: simple, and enough to catch a damaged copy.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// One ending's table as read: the value and DTZ of every placement.
#[derive(Clone, Debug)]
pub struct TableData {
    material: Material,
    width: usize,
    placements: usize,
    /// Values then DTZs, `width` bytes each.
    body: Vec<u8>,
}

impl TableData {
    /// The ending.
    pub fn material(&self) -> Material {
        self.material
    }

    /// Bytes held in memory.
    pub fn bytes(&self) -> usize {
        self.body.len()
    }

    fn field(&self, at: usize) -> u16 {
        if self.width == 1 {
            self.body[at] as u16
        } else {
            u16::from_le_bytes([self.body[2 * at], self.body[2 * at + 1]])
        }
    }

    /// The stored value and DTZ of placement `i` (no position past the end).
    pub fn get(&self, i: u64) -> (Stored, u16) {
        let i = i as usize;
        if i >= self.placements {
            return (Stored::UNKNOWN, 0);
        }
        (Stored(self.field(i)), self.field(self.placements + i))
    }
}

/// Writes the table of `material` to `path` (through a temporary file
/// renamed into place, so a reader never sees half a file). `values`
/// and `dtz` have one entry per placement. Returns the file's size.
pub fn write_table(
    path: &Path,
    material: &Material,
    values: &[Stored],
    dtz: &[u16],
) -> Result<u64, TableError> {
    let shown = path.display().to_string();
    let placements = material.index_size();
    for (what, n) in [("values", values.len()), ("DTZs", dtz.len())] {
        if n as u64 != placements {
            return Err(TableError::Size {
                path: shown,
                what,
                expected: placements,
                found: n as u64,
            });
        }
    }
    let text = material.to_string();
    let narrow = values.iter().all(|v| v.0 <= 255) && dtz.iter().all(|&z| z <= 255);
    let width: u8 = if narrow { 1 } else { 2 };
    let mut out = Vec::with_capacity(
        FIXED_HEADER + text.len() + 2 * width as usize * values.len() + CHECKSUM,
    );
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.push(width);
    out.push(0);
    out.extend_from_slice(&placements.to_le_bytes());
    out.extend_from_slice(&(text.len() as u16).to_le_bytes());
    out.extend_from_slice(text.as_bytes());
    for field in values.iter().map(|v| v.0).chain(dtz.iter().copied()) {
        if narrow {
            out.push(field as u8);
        } else {
            out.extend_from_slice(&field.to_le_bytes());
        }
    }
    let sum = fnv1a(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    let io = |e: std::io::Error| TableError::Io {
        path: shown.clone(),
        reason: e.to_string(),
    };
    let tmp = path.with_extension("legtb.part");
    let mut f = std::fs::File::create(&tmp).map_err(io)?;
    f.write_all(&out).map_err(io)?;
    f.sync_all().map_err(io)?;
    drop(f);
    std::fs::rename(&tmp, path).map_err(io)?;
    Ok(out.len() as u64)
}

/// Reads and checks a table file; `expected` is the ending its name
/// stands for, if known. The file's length is checked before it is
/// read whole, so a wrong file costs no more memory than a right one.
pub fn read_table(path: &Path, expected: Option<&Material>) -> Result<TableData, TableError> {
    let shown = path.display().to_string();
    let io = |e: std::io::Error| TableError::Io {
        path: shown.clone(),
        reason: e.to_string(),
    };
    let len = std::fs::metadata(path).map_err(io)?.len();
    let largest = (FIXED_HEADER + MAX_TEXT + CHECKSUM) as u64 + 4 * MAX_INDEX;
    if len > largest || len < (FIXED_HEADER + CHECKSUM) as u64 {
        return Err(TableError::Size {
            path: shown,
            what: "the file's length",
            expected: expected.map_or(largest, |m| m.index_size()),
            found: len,
        });
    }
    let bytes = std::fs::read(path).map_err(io)?;
    parse(&shown, bytes, expected)
}

fn parse(
    path: &str,
    mut bytes: Vec<u8>,
    expected: Option<&Material>,
) -> Result<TableData, TableError> {
    let path = path.to_string();
    if bytes.len() < FIXED_HEADER + CHECKSUM || bytes[..8] != MAGIC {
        return Err(TableError::Magic { path });
    }
    let version = u16::from_le_bytes([bytes[8], bytes[9]]);
    if version != FORMAT_VERSION {
        return Err(TableError::Version {
            path,
            found: version,
        });
    }
    let width = bytes[10];
    if width != 1 && width != 2 {
        return Err(TableError::Width { path, found: width });
    }
    let placements = u64::from_le_bytes(bytes[12..20].try_into().unwrap_or([0; 8]));
    let text_len = u16::from_le_bytes([bytes[20], bytes[21]]) as usize;
    let text_end = FIXED_HEADER + text_len;
    if text_len > MAX_TEXT || bytes.len() < text_end + CHECKSUM {
        return Err(TableError::Material {
            path,
            reason: format!("a material text of {text_len} bytes"),
        });
    }
    let text =
        std::str::from_utf8(&bytes[FIXED_HEADER..text_end]).map_err(|_| TableError::Material {
            path: path.clone(),
            reason: "the material is not UTF-8".into(),
        })?;
    let material: Material = text.parse().map_err(|e| TableError::Material {
        path: path.clone(),
        reason: format!("the material '{text}': {e}"),
    })?;
    if let Some(m) = expected
        && *m != material
    {
        return Err(TableError::Material {
            path,
            reason: format!("the file holds {material}, its name says {m}"),
        });
    }
    if placements != material.index_size() {
        return Err(TableError::Size {
            path,
            what: "the placement count",
            expected: material.index_size(),
            found: placements,
        });
    }
    let body_len = 2 * width as u64 * placements;
    let want = (text_end + CHECKSUM) as u64 + body_len;
    if bytes.len() as u64 != want {
        return Err(TableError::Size {
            path,
            what: "the file's length",
            expected: want,
            found: bytes.len() as u64,
        });
    }
    let split = bytes.len() - CHECKSUM;
    let stored = u64::from_le_bytes(bytes[split..].try_into().unwrap_or([0; 8]));
    let found = fnv1a(&bytes[..split]);
    if stored != found {
        return Err(TableError::Checksum {
            path,
            expected: stored,
            found,
        });
    }
    bytes.truncate(split);
    bytes.drain(..text_end);
    Ok(TableData {
        material,
        width: width as usize,
        placements: placements as usize,
        body: bytes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::endgames::Value;

    fn tiny() -> (Material, Vec<Stored>, Vec<u16>) {
        let m: Material = "K vs -".parse().unwrap();
        let n = m.index_size() as usize;
        let values: Vec<Stored> = (0..n)
            .map(|i| {
                Stored::of(if i < n / 2 {
                    Value::Win(1)
                } else {
                    Value::Loss(0)
                })
            })
            .collect();
        let dtz: Vec<u16> = (0..n).map(|i| if i < n / 2 { 1 } else { 0 }).collect();
        (m, values, dtz)
    }

    fn dir(name: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("legion-egtb-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn a_table_round_trips_in_one_and_two_bytes() {
        let d = dir("roundtrip");
        let (m, mut values, dtz) = tiny();
        let path = d.join(m.file_name());
        let size = write_table(&path, &m, &values, &dtz).unwrap();
        // 22 header bytes, "K vs -" (6), 128 values and 128 DTZs of one
        // byte, 8 checksum bytes.
        assert_eq!(size, 22 + 6 + 256 + 8);
        let t = read_table(&path, Some(&m)).unwrap();
        assert_eq!(t.get(0), (Stored::of(Value::Win(1)), 1));
        assert_eq!(t.get(127), (Stored::of(Value::Loss(0)), 0));
        assert_eq!(t.get(128), (Stored::UNKNOWN, 0));
        values[3] = Stored::of(Value::Win(300));
        let size = write_table(&path, &m, &values, &dtz).unwrap();
        assert_eq!(size, 22 + 6 + 512 + 8);
        let t = read_table(&path, None).unwrap();
        assert_eq!(t.get(3).0.value(), Some(Value::Win(300)));
        assert_eq!(t.get(4), (Stored::of(Value::Win(1)), 1));
        std::fs::remove_dir_all(d).unwrap();
    }

    #[test]
    fn damaged_files_are_refused_with_the_reason() {
        let d = dir("damaged");
        let (m, values, dtz) = tiny();
        let path = d.join(m.file_name());
        write_table(&path, &m, &values, &dtz).unwrap();
        let good = std::fs::read(&path).unwrap();
        let bad = |edit: &dyn Fn(&mut Vec<u8>)| {
            let mut b = good.clone();
            edit(&mut b);
            std::fs::write(&path, &b).unwrap();
            read_table(&path, Some(&m)).unwrap_err()
        };
        assert!(matches!(bad(&|b| b[0] = b'X'), TableError::Magic { .. }));
        assert!(matches!(
            bad(&|b| b[8] = 2),
            TableError::Version { found: 2, .. }
        ));
        assert!(matches!(
            bad(&|b| b[10] = 3),
            TableError::Width { found: 3, .. }
        ));
        assert!(matches!(
            bad(&|b| b[12] = 200),
            TableError::Size { found: 200, .. }
        ));
        assert!(matches!(
            bad(&|b| {
                b.pop();
            }),
            TableError::Size { .. }
        ));
        assert!(matches!(bad(&|b| b[40] ^= 1), TableError::Checksum { .. }));
        assert!(matches!(
            bad(&|b| b[22] = b'X'),
            TableError::Material { .. }
        ));
        // Another ending's table under this one's name.
        std::fs::write(&path, &good).unwrap();
        let other: Material = "- vs K".parse().unwrap();
        let err = read_table(&path, Some(&other)).unwrap_err();
        assert!(err.to_string().contains("holds K vs -"), "{err}");
        // Not a file at all, and an empty one.
        assert!(matches!(
            read_table(&d.join("none.legtb"), None).unwrap_err(),
            TableError::Io { .. }
        ));
        std::fs::write(&path, b"").unwrap();
        assert!(matches!(
            read_table(&path, None).unwrap_err(),
            TableError::Size { .. }
        ));
        std::fs::remove_dir_all(d).unwrap();
    }
}
