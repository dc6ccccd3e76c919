//! Puzzles as text: lichess's puzzle CSV columns
//! (`PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags`),
//! `FEN` holding the LFEN and `Moves` canonical moves (6.3) separated by
//! spaces. While mining, the file also holds `# game N` lines, one after
//! each mined game's rows, so that a cut run resumes; `export` drops
//! them, removes duplicates and writes the header.

use std::collections::{BTreeMap, HashSet};
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;

use super::{Puzzle, Theme, UnknownTheme};

/// The header of an exported file.
pub const HEADER: &str =
    "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags";

/// A puzzle file that cannot be read or written.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("line {line}: {problem}")]
    Row { line: usize, problem: RowError },
}

/// Why a row is not a puzzle.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RowError {
    #[error("{0} columns, not 10")]
    Columns(usize),
    #[error("the rating or deviation '{0}' is not a number")]
    Number(String),
    #[error("no moves")]
    NoMoves,
    #[error(transparent)]
    Theme(#[from] UnknownTheme),
}

/// One row of the CSV.
pub fn row(p: &Puzzle) -> String {
    let themes: Vec<String> = p.themes.iter().map(|t| t.key()).collect();
    format!(
        "{},{},{},{:.0},{:.0},0,0,{},{},",
        p.id,
        p.lfen,
        p.moves.join(" "),
        p.rating,
        p.deviation,
        themes.join(" "),
        p.game
    )
}

/// Reads one row (not the header).
pub fn parse_row(line: &str) -> Result<Puzzle, RowError> {
    let cols: Vec<&str> = line.split(',').collect();
    if cols.len() != 10 {
        return Err(RowError::Columns(cols.len()));
    }
    let number = |s: &str| {
        s.parse::<f64>()
            .map_err(|_| RowError::Number(s.to_string()))
    };
    let moves: Vec<String> = cols[2].split_whitespace().map(str::to_string).collect();
    if moves.is_empty() {
        return Err(RowError::NoMoves);
    }
    let themes = cols[7]
        .split_whitespace()
        .map(str::parse::<Theme>)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Puzzle {
        id: cols[0].to_string(),
        lfen: cols[1].to_string(),
        moves,
        rating: number(cols[3])?,
        deviation: number(cols[4])?,
        themes,
        game: cols[8].to_string(),
    })
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> FileError + '_ {
    move |source| FileError::Io {
        path: path.display().to_string(),
        source,
    }
}

/// The puzzles of a file (a mining file or an export), in file order.
pub fn read_file(path: &Path) -> Result<Vec<Puzzle>, FileError> {
    let text = std::fs::read_to_string(path).map_err(io(path))?;
    read_text(&text)
}

/// The puzzles of a text in either form.
pub fn read_text(text: &str) -> Result<Vec<Puzzle>, FileError> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#') && *l != HEADER)
        .map(|(i, l)| {
            parse_row(l).map_err(|problem| FileError::Row {
                line: i + 1,
                problem,
            })
        })
        .collect()
}

/// The games a mining file says are done.
pub fn done_games(path: &Path) -> Result<HashSet<usize>, FileError> {
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(HashSet::new()),
        Err(e) => return Err(io(path)(e)),
    };
    let mut done = HashSet::new();
    for line in BufReader::new(file).lines() {
        let line = line.map_err(io(path))?;
        if let Some(n) = line
            .strip_prefix("# game ")
            .and_then(|n| n.trim().parse().ok())
        {
            done.insert(n);
        }
    }
    Ok(done)
}

/// A mining file open for appending.
pub struct Appender {
    file: File,
    path: String,
}

impl Appender {
    pub fn open(path: &Path) -> Result<Appender, FileError> {
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(io(path))?;
        Ok(Appender {
            file,
            path: path.display().to_string(),
        })
    }

    /// Writes a mined game's puzzles and its `# game N` line at once.
    pub fn game(&mut self, game: usize, puzzles: &[Puzzle]) -> Result<(), FileError> {
        let mut text = String::new();
        for p in puzzles {
            text.push_str(&row(p));
            text.push('\n');
        }
        text.push_str(&format!("# game {game}\n"));
        self.file
            .write_all(text.as_bytes())
            .and_then(|_| self.file.flush())
            .map_err(|source| FileError::Io {
                path: self.path.clone(),
                source,
            })
    }
}

/// The export: the header, then each puzzle once (by id), sorted by id.
pub fn export(puzzles: &[Puzzle]) -> String {
    let unique: BTreeMap<&str, &Puzzle> = puzzles.iter().map(|p| (p.id.as_str(), p)).collect();
    let mut out = String::from(HEADER);
    out.push('\n');
    for p in unique.values() {
        out.push_str(&row(p));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_read_back_and_bad_rows_say_why() {
        let p = Puzzle::new(
            "3k4/8/8/8/8/8/8/4K3 w - 0 1".into(),
            vec!["e1e2".into(), "d8d7".into(), "e2e3".into()],
            vec![Theme::Short, Theme::MateIn(2)],
            1240.0,
            "selfplay/1/2#3".into(),
        );
        let text = export(&[p.clone(), p.clone()]);
        assert_eq!(text.lines().count(), 2, "the header and one row: {text}");
        assert_eq!(read_text(&text).expect("reads"), vec![p]);
        assert!(matches!(parse_row("a,b"), Err(RowError::Columns(2))));
        let bad = "x,8/8/8/8/8/8/8/8 w - 0 1,e1e2,12a,350,0,0,short,,";
        assert_eq!(parse_row(bad), Err(RowError::Number("12a".into())));
        let theme = "x,8/8/8/8/8/8/8/8 w - 0 1,e1e2,1200,350,0,0,fork,,";
        assert!(matches!(parse_row(theme), Err(RowError::Theme(_))));
    }
}
