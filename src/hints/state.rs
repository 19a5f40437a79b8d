//! The player's state from a file (`--given FILE`): TOML, or JSON in the
//! shape of `solve --format json`'s `solution` (or the whole report), with
//! holes. The family reads the values ([`crate::puzzles::Deducible::entries_of_solution`]);
//! this reads the file and places every error at its line and column.

use serde_json::Value;

use crate::model::{Problem, Source};
use crate::puzzles::{Error, Puzzle, StateError};

/// The entries a state file states, as `--given` takes them.
pub fn entries(puzzle: &dyn Puzzle, source: &Source) -> Result<Vec<String>, Error> {
    let text = source.text();
    let start = text.len() - text.trim_start().len();
    if start == text.len() {
        let message = format!("an empty file; expected a state file, JSON or TOML in {}", expected());
        return Err(Error::BadRequest(source.error(None, Problem::Toml(message)).to_string()));
    }
    let (value, member_at) = if is_json(source) { read_json(source)? } else { read_toml(source)? };
    let Some(read) = puzzle.deducible().and_then(|d| d.entries_of_solution(&value)) else {
        let message = format!(
            "a state file is not taken for {} puzzles; expected --given entries such as NAME=VALUE",
            puzzle.kind()
        );
        return Err(Error::BadRequest(source.error(Some(start), Problem::Toml(message)).to_string()));
    };
    read.map_err(|StateError { member, message }| {
        // A problem with no member is one with the whole value.
        let at = member.map_or(Some(start), |m| member_at(source, &m));
        Error::BadRequest(source.error(at, Problem::Toml(message)).to_string())
    })
}

/// Whether a state file is JSON: by its name's extension, else by its
/// first character (`{`, or `[` where the whole text is JSON: a TOML file
/// may start with a `[table]`).
fn is_json(source: &Source) -> bool {
    let extension = std::path::Path::new(source.name()).extension().and_then(|e| e.to_str());
    let text = source.text().trim_start();
    match extension.map(str::to_ascii_lowercase).as_deref() {
        Some("json") => true,
        Some("toml") => false,
        _ => {
            text.starts_with('{')
                || text.starts_with('[') && serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok()
        }
    }
}

fn expected() -> String {
    "the shape of `solve --format json`'s solution, holes as null or \"_\"".to_string()
}

/// Where a member's value starts in the file, when it can be found.
type MemberAt = fn(&Source, &str) -> Option<usize>;

fn read_json(source: &Source) -> Result<(Value, MemberAt), Error> {
    let value = serde_json::from_str::<Strict>(source.text()).map(|strict| strict.0).map_err(|e| {
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

/// A JSON value read as `serde_json::Value` is, but refused where an object
/// names a member twice, which `Value` would keep only the last of.
struct Strict(Value);

impl<'de> serde::Deserialize<'de> for Strict {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Strict, D::Error> {
        deserializer.deserialize_any(StrictVisitor).map(Strict)
    }
}

struct StrictVisitor;

impl<'de> serde::de::Visitor<'de> for StrictVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(Strict(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut members = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if members.contains_key(&key) {
                return Err(serde::de::Error::custom(format!("a second member named {key:?}")));
            }
            let Strict(value) = map.next_value()?;
            members.insert(key, value);
        }
        Ok(Value::Object(members))
    }
}
