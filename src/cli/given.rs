//! `--given` arguments: each an entry, `NAME=VALUE` or `NAME!=VALUE`, or a
//! state file; anything else is refused (exit 2), saying what was expected
//! and, where there is one, at which character.

use std::path::Path;

use somaria::model::{LoadError, Problem, Source};

use super::Failure;

const EXPECTED: &str = "expected NAME=VALUE, NAME!=VALUE or a state file";

/// The entries, in order, and the state files read.
pub fn split(given: &[String]) -> Result<(Vec<String>, Vec<Source>), Failure> {
    let mut entries = Vec::new();
    let mut files = Vec::new();
    for g in given {
        if g.trim().is_empty() {
            return Err(Failure::bad_input(format!("--given {g:?}: an empty entry; {EXPECTED}")));
        }
        if let Some((at, op)) = wrong_operator(g) {
            return Err(Failure::bad_input(format!("--given {g:?}: found `{op}` at character {at}; {EXPECTED}")));
        }
        if g.contains('=') {
            entries.push(g.clone());
        } else {
            files.push(Source::read(Path::new(g)).map_err(|e| unreadable(g, e))?);
        }
    }
    Ok((entries, files))
}

/// A comparison other than `=` and `!=` where an entry's `=` would stand,
/// and its 1-based character position; `<` or `>` only in an argument with
/// no `=` that names no file.
fn wrong_operator(given: &str) -> Option<(usize, &'static str)> {
    let mut ops = vec!["==", "<=", ">=", "=>", "=<"];
    if !given.contains('=') && !Path::new(given).exists() {
        ops.extend(["<>", "≠", "<", ">"]);
    }
    // The first found, and the longest there (`<>` rather than `<`).
    let (byte, op) = ops
        .into_iter()
        .filter_map(|op| Some((given.find(op)?, op)))
        .min_by_key(|&(byte, op)| (byte, std::cmp::Reverse(op.len())))?;
    Some((given[..byte].chars().count() + 1, op))
}

/// A `--given` file that could not be read as a state file.
fn unreadable(given: &str, error: LoadError) -> Failure {
    let message = match error.problem {
        Problem::Unreadable(_) if !Path::new(given).exists() => {
            format!("--given {given:?}: no `=` and no file of that name; {EXPECTED}")
        }
        Problem::NotRegular { found } => format!("--given {given:?}: it is {found}; {EXPECTED} (a JSON or TOML file)"),
        Problem::TooLarge { limit } => {
            format!("--given {given:?}: the file is larger than the limit of {limit} bytes; expected a state file")
        }
        Problem::NotText => {
            let at = error.at.map(|at| format!(":{}:{}", at.line, at.col)).unwrap_or_default();
            format!("{}{at}: found a byte that is not UTF-8 text; expected a state file, JSON or TOML", error.file)
        }
        other => format!("--given {given:?}: {other}"),
    };
    Failure::bad_input(message)
}
