//! puzz.link URLs of slitherlinks and nurikabes read into clue grids and
//! written as csp models (the `puzzlink` example prints them).
//!
//! A URL is `https://puzz.link/p?KIND/COLS/ROWS/BODY` (also from
//! pzprxs.vercel.app or pzv.jp, with `slither`, `slitherlink` or `nurikabe`
//! as the kind). The body lists the cells in reading order:
//! - slitherlink: `0`–`4` a clue; `5`–`9` a clue and one blank cell; `a`–`e`
//!   a clue and two blank cells; `.` a question mark (no constraint);
//! - nurikabe: a hex digit is a clue, `-` and two hex digits a clue of up to
//!   255, `+` and three hex digits one of up to 4095; `.` a question mark,
//!   which is refused (its island may have any size);
//! - both: `g`–`z` are 1–20 blank cells.

use super::templates;

/// What a URL holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decoded {
    /// A slitherlink: the clues in reading order, `None` where a cell has
    /// none.
    Slitherlink { rows: usize, cols: usize, clues: Vec<Option<u32>> },
    /// A nurikabe: the clues in reading order, `None` where a cell has none.
    Nurikabe { rows: usize, cols: usize, clues: Vec<Option<u32>> },
}

/// Reads `url`; an error says what was found where, and what was expected.
pub fn decode(url: &str) -> Result<Decoded, String> {
    let query = url.split_once("/p?").map(|(_, q)| q).ok_or_else(|| {
        format!("the URL {url:?} has no `/p?`; expected one like https://puzz.link/p?slither/10/10/...")
    })?;
    let parts: Vec<&str> = query.split('/').collect();
    if let Some(flag) = parts.iter().find(|p| p.ends_with(':')) {
        return Err(format!("the variant flag {flag:?} in the URL; expected the plain puzzle, with no flag"));
    }
    let [kind, cols, rows, body] = parts[..] else {
        return Err(format!("the URL's query {query:?} has {} parts; expected KIND/COLS/ROWS/BODY", parts.len()));
    };
    let size = |what: &str, text: &str| -> Result<usize, String> {
        match text.parse::<usize>() {
            Ok(n) if (1..=200).contains(&n) => Ok(n),
            _ => Err(format!("the {what} {text:?} in the URL; expected a number from 1 to 200")),
        }
    };
    let (cols, rows) = (size("width", cols)?, size("height", rows)?);
    match kind {
        "slither" | "slitherlink" => Ok(Decoded::Slitherlink { rows, cols, clues: cells(body, rows * cols, slither)? }),
        "nurikabe" => Ok(Decoded::Nurikabe { rows, cols, clues: cells(body, rows * cols, nurikabe)? }),
        _ => Err(format!("the puzzle kind {kind:?} in the URL; expected slither, slitherlink or nurikabe")),
    }
}

/// The somaria model of the puzzle at `url`, under a header naming it.
pub fn model_text(url: &str) -> Result<String, String> {
    let origin = format!("# Decoded from {url}\n# by `cargo run --release --example puzzlink -- '{url}'`.");
    Ok(match decode(url)? {
        Decoded::Slitherlink { rows, cols, clues } => templates::slitherlink_model(rows, cols, &clues, &origin),
        Decoded::Nurikabe { rows, cols, clues } => {
            let numbered: Vec<(usize, usize, usize)> =
                (0..rows * cols).filter_map(|i| clues[i].map(|n| (i / cols + 1, i % cols + 1, n as usize))).collect();
            templates::nurikabe_model(rows, cols, &numbered, &origin)
        }
    })
}

/// One item of a body: the clue it gives (if any), the blank cells after
/// it, and how many characters it took.
type Item = (Option<u32>, usize, usize);

/// The `count` cells of `body`, read item by item with `item`.
fn cells(body: &str, count: usize, item: fn(&[u8]) -> Result<Item, String>) -> Result<Vec<Option<u32>>, String> {
    let bytes = body.as_bytes();
    let (mut at, mut out) = (0, Vec::with_capacity(count));
    while out.len() < count {
        let Some(&c) = bytes.get(at) else {
            return Err(format!("the body {body:?} ends after {} of {count} cells; expected more", out.len()));
        };
        let (clue, blanks, took) = match c {
            b'g'..=b'z' => (None, usize::from(c - b'f') - 1, 1),
            _ => item(&bytes[at..]).map_err(|e| format!("{e} at character {} of the body {body:?}", at + 1))?,
        };
        out.push(clue);
        out.extend(std::iter::repeat_n(None, blanks));
        at += took;
    }
    // Blanks that run past the last cell are how pzpr ends some bodies.
    out.truncate(count);
    if at < bytes.len() {
        return Err(format!("the body {body:?} runs past its {count} cells; expected it to end there"));
    }
    Ok(out)
}

fn slither(bytes: &[u8]) -> Result<Item, String> {
    let c = bytes[0];
    match c {
        b'0'..=b'9' => Ok((Some(u32::from(c - b'0') % 5), usize::from(c - b'0') / 5, 1)),
        b'a'..=b'e' => Ok((Some(u32::from(c - b'a')), 2, 1)),
        b'.' => Ok((None, 0, 1)),
        _ => Err(format!("{:?}; expected 0-9, a-e, . or g-z", char::from(c))),
    }
}

fn nurikabe(bytes: &[u8]) -> Result<Item, String> {
    let hex = |digits: &[u8]| -> Result<u32, String> {
        let text = std::str::from_utf8(digits).unwrap_or("");
        u32::from_str_radix(text, 16).map_err(|_| format!("{text:?} after a length mark; expected hex digits"))
    };
    let wide = |len: usize| -> Result<u32, String> {
        bytes.get(1..=len).ok_or_else(|| format!("an unfinished number; expected {len} hex digits")).and_then(hex)
    };
    let (clue, took) = match bytes[0] {
        b'0'..=b'9' | b'a'..=b'f' => (hex(&bytes[..1])?, 1),
        b'-' => (wide(2)?, 3),
        b'+' => (wide(3)?, 4),
        b'.' => return Err("a question mark `.`, an island of any size; expected a number".to_string()),
        c => return Err(format!("{:?}; expected 0-9, a-f, -, + or g-z", char::from(c))),
    };
    if clue == 0 {
        return Err("an island of size 0; expected 1 or more".to_string());
    }
    Ok((Some(clue), 0, took))
}
