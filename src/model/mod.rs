//! Reading model files: the source text, positions in it, typed TOML
//! deserialization, and the errors that name the file, line and column.
//!
//! This module knows nothing of puzzle families. Each family deserializes its
//! own typed table with [`Source::parse`] and reads its grid with
//! [`Source::parse_grid`]; both report problems as [`LoadError`]s.

mod grid_text;
mod params;
mod serde_words;

use std::fmt;
use std::io::Read;
use std::ops::Range;
use std::path::Path;

pub use grid_text::{GridText, MAX_GRID_CELLS};
pub use toml::Spanned;

/// The largest model file read, in bytes.
pub const MAX_MODEL_BYTES: u64 = 16 * 1024 * 1024;

/// A model file's name and text.
#[derive(Clone, Debug)]
pub struct Source {
    name: String,
    text: String,
}

/// A 1-based line and column (in characters) in a model file.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// Line, from 1.
    pub line: usize,
    /// Column in characters, from 1.
    pub col: usize,
}

/// A model that could not be loaded: which file, where in it, and what is wrong.
#[derive(Debug, thiserror::Error)]
pub struct LoadError {
    /// The file as the user named it.
    pub file: String,
    /// Where in the file, when known.
    pub at: Option<Location>,
    /// What was found and what was expected.
    pub problem: Problem,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.at {
            Some(at) => write!(f, "{}:{}:{}: {}", self.file, at.line, at.col, self.problem),
            None => write!(f, "{}: {}", self.file, self.problem),
        }
    }
}

/// What is wrong with a model. Each message says what was found and what was
/// expected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    /// The file could not be read at all.
    #[error("cannot read the file: {0}")]
    Unreadable(String),
    /// The path names something other than a regular file.
    #[error("cannot read the file: it is {found}; expected a regular TOML model file, or - for standard input")]
    NotRegular {
        /// What the path names, such as "a FIFO".
        found: &'static str,
    },
    /// The file is larger than [`MAX_MODEL_BYTES`].
    #[error("the file is larger than the limit of {limit} bytes; expected a TOML model")]
    TooLarge {
        /// The limit in bytes.
        limit: u64,
    },
    /// The bytes are not UTF-8.
    #[error("found a byte that is not UTF-8 text; expected a TOML model")]
    NotText,
    /// The TOML parser or the typed schema refused the text.
    #[error("{0}")]
    Toml(String),
    /// There is no `kind` key.
    #[error("missing `kind`; expected `kind = \"...\"` with one of {expected}")]
    MissingKind {
        /// The kinds that exist.
        expected: String,
    },
    /// The `kind` names no puzzle family.
    #[error("unknown kind {found:?}; expected one of {expected}")]
    UnknownKind {
        /// The kind found.
        found: String,
        /// The kinds that exist.
        expected: String,
    },
    /// A grid cell holds a symbol the family does not know.
    #[error("unknown symbol {symbol:?} at grid cell ({row}, {col}); expected {expected}")]
    UnknownSymbol {
        /// The symbol found.
        symbol: char,
        /// Row from 0.
        row: usize,
        /// Column from 0.
        col: usize,
        /// The symbols the family knows.
        expected: String,
    },
    /// Rows of different lengths.
    #[error(
        "ragged grid: row {row} has {found} cells, but row 0 has {expected}; expected every row to have the same length"
    )]
    RaggedRow {
        /// Row from 0.
        row: usize,
        /// Its length.
        found: usize,
        /// The first row's length.
        expected: usize,
    },
    /// The grid has no rows.
    #[error("the grid is empty; expected at least one row of cells")]
    EmptyGrid,
    /// The grid is larger than [`MAX_GRID_CELLS`].
    #[error("the grid has {found} cells; the limit is {limit}")]
    GridTooLarge {
        /// Cells in the grid.
        found: usize,
        /// The limit.
        limit: usize,
    },
    /// Any other value that breaks the family's rules.
    #[error("{found}; expected {expected}")]
    Invalid {
        /// What was found.
        found: String,
        /// What was expected.
        expected: String,
    },
}

impl Source {
    /// Reads a model file, refusing files that are too large or not text,
    /// and anything but a regular file: a FIFO or a device could keep the
    /// reader waiting forever. `-` reads standard input, for which the
    /// caller sets the time limit.
    pub fn read(path: &Path) -> Result<Source, LoadError> {
        let from_stdin = path == Path::new("-");
        let name = if from_stdin { "<stdin>".to_string() } else { path.display().to_string() };
        let fail = |problem| LoadError { file: name.clone(), at: None, problem };
        let reader: Box<dyn Read> = if from_stdin {
            Box::new(std::io::stdin())
        } else {
            // `metadata` does not open the file, so it cannot block on a FIFO.
            let meta = std::fs::metadata(path).map_err(|e| fail(Problem::Unreadable(e.to_string())))?;
            if !meta.is_file() {
                return Err(fail(Problem::NotRegular { found: file_type_name(&meta) }));
            }
            Box::new(std::fs::File::open(path).map_err(|e| fail(Problem::Unreadable(e.to_string())))?)
        };
        let mut bytes = Vec::new();
        // `take` bounds the read even for endless input.
        reader
            .take(MAX_MODEL_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| fail(Problem::Unreadable(e.to_string())))?;
        if bytes.len() as u64 > MAX_MODEL_BYTES {
            return Err(fail(Problem::TooLarge { limit: MAX_MODEL_BYTES }));
        }
        match String::from_utf8(bytes) {
            Ok(text) => Ok(Source { name, text }),
            Err(e) => {
                let valid = e.utf8_error().valid_up_to();
                let prefix = std::str::from_utf8(&e.as_bytes()[..valid]).expect("valid prefix");
                Err(LoadError { file: name, at: Some(location_in(prefix, valid)), problem: Problem::NotText })
            }
        }
    }

    /// A source from text in memory; `name` stands in for the file name.
    ///
    /// ```
    /// use somaria::model::Source;
    /// let source = Source::from_text("inline", "kind = \"fans\"\n");
    /// assert_eq!(source.kind().unwrap().unwrap().get_ref(), "fans");
    /// ```
    pub fn from_text(name: impl Into<String>, text: impl Into<String>) -> Source {
        Source { name: name.into(), text: text.into() }
    }

    /// The file name as given.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The whole text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The line and column of a byte offset.
    ///
    /// ```
    /// use somaria::model::{Location, Source};
    /// let source = Source::from_text("x", "ab\ncd");
    /// assert_eq!(source.location(4), Location { line: 2, col: 2 });
    /// ```
    pub fn location(&self, offset: usize) -> Location {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        location_in(&self.text, offset)
    }

    /// An error at a byte offset, or at no particular place.
    pub fn error(&self, offset: Option<usize>, problem: Problem) -> LoadError {
        LoadError { file: self.name.clone(), at: offset.map(|o| self.location(o)), problem }
    }

    /// An error about the value whose span is given.
    pub fn error_at<T>(&self, value: &Spanned<T>, problem: Problem) -> LoadError {
        self.error(Some(value.span().start), problem)
    }

    /// The `kind` key, if there is one, without checking anything else.
    pub fn kind(&self) -> Result<Option<Spanned<String>>, LoadError> {
        #[derive(serde::Deserialize)]
        struct Probe {
            kind: Option<Spanned<String>>,
        }
        Ok(self.parse::<Probe>()?.kind)
    }

    /// Deserializes the whole file into a typed table.
    pub fn parse<T: serde::de::DeserializeOwned>(&self) -> Result<T, LoadError> {
        toml::from_str(&self.text).map_err(|e| {
            let at = e.span().map(|s: Range<usize>| s.start);
            let key = at.and_then(|at| self.key_before(at));
            let message = serde_words::in_model_words(e.message().trim_end(), key);
            self.error(at, Problem::Toml(message))
        })
    }

    /// The key of a `key = value` line whose value starts at `offset`, for
    /// naming the value in a message.
    fn key_before(&self, offset: usize) -> Option<&str> {
        let before = self.text.get(..offset)?;
        let line = &before[before.rfind('\n').map_or(0, |i| i + 1)..];
        let (key, _) = line.rsplit_once('=')?;
        let key = key.trim().rsplit(['{', ',']).next()?.trim();
        let plain = !key.is_empty() && key.chars().all(|c| c.is_alphanumeric() || "_-.\"".contains(c));
        plain.then_some(key)
    }
}

/// "a directory", "a FIFO" and so on, for messages.
/// A constraint's name with the line of the model that states it, said
/// once: the name the loader gives an unnamed constraint or a defined
/// variable already says its line ("constraint 3 (line 15)", "y is defined
/// (line 4)", "between (line 7) (i = 1)").
///
/// ```
/// use somaria::model::with_line;
/// assert_eq!(with_line("each row", Some(9)), "each row (line 9)");
/// assert_eq!(with_line("constraint 3 (line 15)", Some(15)), "constraint 3 (line 15)");
/// assert_eq!(with_line("the givens", None), "the givens");
/// ```
pub fn with_line(name: &str, line: Option<usize>) -> String {
    match line {
        Some(line) if !name.contains(&format!("(line {line})")) => format!("{name} (line {line})"),
        _ => name.to_string(),
    }
}

fn file_type_name(meta: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let kind = meta.file_type();
    if kind.is_dir() {
        "a directory"
    } else if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_char_device() || kind.is_block_device() {
        "a device"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    }
}

fn location_in(text: &str, offset: usize) -> Location {
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    Location { line, col: before[line_start..].chars().count() + 1 }
}
