//! The URL envelope around a genre's body, as pzprjs reads and writes it:
//!
//! ```text
//! https://puzz.link/p?GENRE/[FLAGS/]COLS/ROWS/BODY
//! ```
//!
//! Only the part after the first `?` is read, so any host serves (puzz.link,
//! pzprxs.vercel.app, pzv.jp's `p.html?`), and a bare `GENRE/COLS/ROWS/BODY`
//! too. Leading `key=value&` pairs are skipped, and a genre's `_edit` or
//! `_play` suffix is dropped. The genre is its pzprjs id or any of its
//! aliases. FLAGS is one piece of letters, each a variant the genre knows
//! (slitherlink's `f`: the loop visits every grid point). BODY is the rest,
//! `/`s included (a star battle's `1/...`); one trailing `/` is dropped.
//! An empty BODY is the empty board. What somaria does not read is refused
//! at its place: a pzprjs `v:` variant, a pzprv3 file in a URL, a flag the
//! genre does not know.

use std::fmt;

use super::codec::{Codec, Fault, decode_body};
use super::{GENRES, Genre};

/// The most rows or columns a URL may give.
pub const MAX_SIDE: usize = 200;

/// The host written in the URLs somaria makes.
pub const HOST: &str = "https://puzz.link/p?";

/// A URL that cannot be read: the character where (from 1; 0 for the URL
/// as a whole), what was found and what was expected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct UrlError {
    /// The URL as given.
    pub url: String,
    /// The character from 1, 0 for no particular place.
    pub at: usize,
    /// What was found.
    pub found: String,
    /// What was expected.
    pub expected: String,
}

impl fmt::Display for UrlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.at {
            0 => write!(f, "{}: found {}; expected {}", self.url, self.found, self.expected),
            at => write!(f, "{}: character {at}: found {}; expected {}", self.url, self.found, self.expected),
        }
    }
}

/// A URL split into its genre, flags, size and body.
#[derive(Clone, Debug)]
pub struct Envelope<'u> {
    /// The whole URL.
    pub url: &'u str,
    /// The genre it names.
    pub genre: &'static Genre,
    /// The flag letters, in the order given.
    pub flags: String,
    /// Columns.
    pub cols: usize,
    /// Rows.
    pub rows: usize,
    /// The body.
    pub body: &'u str,
    /// Where the body starts in the URL (bytes).
    body_at: usize,
    /// Where the size starts in the URL (bytes).
    size_at: usize,
}

impl<'u> Envelope<'u> {
    /// Reads the envelope of `url`.
    ///
    /// ```
    /// let env = somaria::genres::url::Envelope::parse("https://puzz.link/p?slitherlink/f/5/4/cbcb").unwrap();
    /// assert_eq!((env.genre.id, env.flags.as_str(), env.cols, env.rows, env.body), ("slither", "f", 5, 4, "cbcb"));
    /// let error = somaria::genres::url::Envelope::parse("https://puzz.link/p?slither/5/0/cbcb").unwrap_err();
    /// assert_eq!(error.to_string(), "https://puzz.link/p?slither/5/0/cbcb: character 31: found the rows \"0\"; \
    ///     expected a number of rows from 1 to 200");
    /// ```
    pub fn parse(url: &'u str) -> Result<Envelope<'u>, UrlError> {
        let query = match url.find('?') {
            Some(q) => q + 1,
            None if !url.contains("://") => 0,
            None => {
                return Err(fault(
                    url,
                    url.len(),
                    "no `?`",
                    "a puzz.link URL such as https://puzz.link/p?slither/5/5/BODY",
                ));
            }
        };
        let mut at = skip_settings(url, query);
        let genre_end = url[at..].find('/').map(|i| at + i).ok_or_else(|| {
            fault(url, url.len(), "the end of the URL after the genre", "GENRE/COLS/ROWS/BODY after the `?`")
        })?;
        let genre = genre_named(url, at, genre_end)?;
        at = genre_end + 1;
        let (mut piece, mut end) = next_piece(url, at);
        if piece.starts_with("v:") {
            return Err(fault(
                url,
                at,
                &format!("the variant {piece:?}"),
                &format!("a {} URL without a variant", genre.id),
            ));
        }
        let mut flags = String::new();
        if !piece.is_empty() && !piece.bytes().all(|b| b.is_ascii_digit()) {
            flags = read_flags(url, at, piece, genre)?;
            at = end + 1;
            (piece, end) = next_piece(url, at);
        }
        let size_at = at;
        let cols = side(url, at, piece, "columns")?;
        at = end + 1;
        (piece, end) = next_piece(url, at);
        let rows = side(url, at, piece, "rows")?;
        if end >= url.len() {
            return Err(fault(url, url.len(), "the end of the URL after the rows", "`/` and the body"));
        }
        let body_at = end + 1;
        let body = url[body_at..].strip_suffix('/').unwrap_or(&url[body_at..]);
        Ok(Envelope { url, genre, flags, cols, rows, body, body_at, size_at })
    }

    /// Whether flag `f` is set.
    pub fn flag(&self, f: char) -> bool {
        self.flags.contains(f)
    }

    /// The body read with `codec`, every character of it, with a fault at
    /// its place in the URL.
    pub fn decode<C: Codec>(&self, codec: &C) -> Result<C::Value, UrlError> {
        decode_body(codec, self.body).map_err(|f| self.fault(f))
    }

    /// A fault in the body as an error at its place in the URL.
    pub fn fault(&self, fault: Fault) -> UrlError {
        let at = self.body_at + fault.at;
        UrlError { url: self.url.to_string(), at: column(self.url, at), found: fault.found, expected: fault.expected }
    }

    /// An error about the size (a sudoku that is not square).
    pub fn size_error(&self, found: &str, expected: &str) -> UrlError {
        fault(self.url, self.size_at, found, expected)
    }

    /// An error about the body at byte `at` of it, for what a genre finds
    /// wrong after reading it.
    pub fn body_error(&self, at: usize, found: &str, expected: &str) -> UrlError {
        fault(self.url, self.body_at + at.min(self.body.len()), found, expected)
    }
}

/// The URL of a puzzle of `genre` with `flags`, `cols` × `rows` and `body`,
/// on puzz.link, as pzprjs writes it.
///
/// ```
/// use somaria::genres::{lookup, url::write};
/// let slither = lookup("slither").unwrap();
/// assert_eq!(write(slither, "", 5, 5, "cbcbcddad"), "https://puzz.link/p?slither/5/5/cbcbcddad");
/// assert_eq!(write(slither, "f", 2, 1, "."), "https://puzz.link/p?slither/f/2/1/./");
/// ```
pub fn write(genre: &Genre, flags: &str, cols: usize, rows: usize, body: &str) -> String {
    let flags = if flags.is_empty() { String::new() } else { format!("{flags}/") };
    let end = if body.chars().last().is_some_and(|c| !c.is_ascii_alphanumeric()) { "/" } else { "" };
    format!("{HOST}{}/{flags}{cols}/{rows}/{body}{end}", genre.url_id)
}

fn fault(url: &str, at: usize, found: &str, expected: &str) -> UrlError {
    UrlError { url: url.to_string(), at: column(url, at), found: found.to_string(), expected: expected.to_string() }
}

/// The character (from 1) at byte `at`.
fn column(url: &str, at: usize) -> usize {
    let mut at = at.min(url.len());
    while !url.is_char_boundary(at) {
        at -= 1;
    }
    url[..at].chars().count() + 1
}

/// Past the `type=editor&` settings that may lead the query.
fn skip_settings(url: &str, mut at: usize) -> usize {
    loop {
        let rest = &url[at..];
        let piece_end = rest.find(['&', '/']).unwrap_or(rest.len());
        if rest[..piece_end].contains('=') && rest[piece_end..].starts_with('&') {
            at += piece_end + 1;
        } else {
            return at;
        }
    }
}

/// The piece of `url` from `at` to the next `/` (or the end), and where it
/// ends.
fn next_piece(url: &str, at: usize) -> (&str, usize) {
    let at = at.min(url.len());
    let end = url[at..].find('/').map_or(url.len(), |i| at + i);
    (&url[at..end], end)
}

fn genre_named(url: &str, at: usize, end: usize) -> Result<&'static Genre, UrlError> {
    let name = &url[at..end];
    if name.starts_with("pzprv") {
        return Err(fault(url, at, "a pzprv3 file written into the URL", "GENRE/COLS/ROWS/BODY"));
    }
    let id = name.strip_suffix("_edit").or_else(|| name.strip_suffix("_play")).unwrap_or(name);
    super::lookup(id).ok_or_else(|| {
        let near = GENRES
            .iter()
            .flat_map(|g| std::iter::once(g.id).chain(g.aliases.iter().copied()))
            .min_by(|a, b| strsim::levenshtein(id, a).cmp(&strsim::levenshtein(id, b)))
            .filter(|n| strsim::levenshtein(id, n) <= 3)
            .map(|n| format!(" (did you mean {n}?)"))
            .unwrap_or_default();
        fault(
            url,
            at,
            &format!("the genre {id:?}"),
            &format!("one of the {} genres somaria reads{near}; `somaria genres` lists them", GENRES.len()),
        )
    })
}

fn read_flags(url: &str, at: usize, piece: &str, genre: &Genre) -> Result<String, UrlError> {
    for (k, c) in piece.char_indices() {
        if !genre.flags.iter().any(|(f, _)| *f == c) {
            let known: Vec<String> = genre.flags.iter().map(|(f, what)| format!("{f} ({what})")).collect();
            let expected = match known.is_empty() {
                true => format!("COLS/ROWS: {} has no variant flags", genre.id),
                false => format!("a flag of {}: {}", genre.id, known.join(", ")),
            };
            return Err(fault(url, at + k, &format!("the flag {c:?} in {piece:?}"), &expected));
        }
    }
    Ok(piece.to_string())
}

fn side(url: &str, at: usize, piece: &str, what: &str) -> Result<usize, UrlError> {
    let expected = format!("a number of {what} from 1 to {MAX_SIDE}");
    let at = at.min(url.len());
    match piece.parse::<usize>() {
        Ok(n) if (1..=MAX_SIDE).contains(&n) && piece.bytes().all(|b| b.is_ascii_digit()) => Ok(n),
        _ if at >= url.len() => Err(fault(url, at, &format!("the end of the URL before the {what}"), &expected)),
        _ => Err(fault(url, at, &format!("the {what} {piece:?}"), &expected)),
    }
}
