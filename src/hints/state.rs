//! The player's state from a file (`--given FILE`): TOML, or JSON in the
//! shape of `solve --format json`'s `solution` (or the whole report), with
//! holes. The family reads the values ([`Puzzle::entries_of_solution`]);
//! this reads the file and places every error at its line and column.

use serde_json::Value;

use crate::model::{Problem, Source};
use crate::puzzles::{Error, Puzzle, StateError};

/// The entries a state file states, as `--given` takes them.
pub fn entries(puzzle: &dyn Puzzle, source: &Source) -> Result<Vec<String>, Error> {
    let (value, member_at) =
        if source.text().trim_start().starts_with('{') { read_json(source)? } else { read_toml(source)? };
    puzzle.entries_of_solution(&value).map_err(|StateError { member, message }| {
        let at = member.as_deref().and_then(|m| member_at(source, m));
        Error::BadRequest(source.error(at, Problem::Toml(message)).to_string())
    })
}

fn expected() -> String {
    "the shape of `solve --format json`'s solution, holes as null or \"_\"".to_string()
}

/// Where a member's value starts in the file, when it can be found.
type MemberAt = fn(&Source, &str) -> Option<usize>;

fn read_json(source: &Source) -> Result<(Value, MemberAt), Error> {
    let value: Value = serde_json::from_str(source.text()).map_err(|e| {
        let at = offset_of(source.text(), e.line(), e.column());
        let message = e.to_string();
        let message = message.split(" at line ").next().unwrap_or(&message);
        let message = format!("{message}; expected JSON in {}", expected());
        Error::BadRequest(source.error(Some(at), Problem::Toml(message)).to_string())
    })?;
    Ok((value, |source, member| source.text().find(&format!("{member:?}"))))
}

fn read_toml(source: &Source) -> Result<(Value, MemberAt), Error> {
    let table: toml::Table = source.parse().map_err(|e| Error::BadRequest(e.to_string()))?;
    let value = serde_json::to_value(table).map_err(|e| Error::BadRequest(format!("{}: {e}", source.name())))?;
    Ok((value, |source, member| {
        let members: std::collections::BTreeMap<String, toml::Spanned<toml::Value>> = source.parse().ok()?;
        members.get(member).map(|v| v.span().start)
    }))
}

/// The byte offset of a 1-based line and column.
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let start: usize = text.split_inclusive('\n').take(line.saturating_sub(1)).map(str::len).sum();
    let line_text = text[start.min(text.len())..].lines().next().unwrap_or("");
    let within: usize = line_text.chars().take(column.saturating_sub(1)).map(char::len_utf8).sum();
    (start + within).min(text.len())
}
