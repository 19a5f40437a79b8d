//! A player's state read back from a value in the shape of `solve`'s
//! solution: each shown variable by name, arrays nested as `solve` nests
//! them, with holes (`null` or `"_"`) where nothing is entered yet.

use serde_json::Value;

use crate::lang::model::{Base, Model, VarDecl};
use crate::puzzles::StateError;

/// The entries `NAME=VALUE` that `solution` states, in the order of its
/// members and, within an array, row-major. `solve --format json`'s whole
/// report is taken too: its `solution` member is read.
pub fn entries(model: &Model, solution: &Value) -> Result<Vec<String>, StateError> {
    let shown: Vec<&VarDecl> = model.show.iter().map(|&v| &model.vars[v]).collect();
    let Value::Object(members) = solution else {
        return Err(StateError {
            member: None,
            message: format!("found {}; expected a table of the shown variables", kind_of(solution)),
        });
    };
    let report = members.contains_key("solution") && members.contains_key("status");
    let members = match members.get("solution") {
        Some(Value::Object(inner)) if report => inner,
        Some(other) if report => {
            let message = format!("the report's solution is {}; expected a report with a solution", kind_of(other));
            return Err(StateError { member: Some("solution".into()), message });
        }
        _ => members,
    };
    let mut entries = Vec::new();
    for (name, value) in members {
        if name == "grid_path" || name == "grid_loop" {
            // The routes follow from the variables; `solve` writes them for pictures.
            continue;
        }
        let Some(decl) = shown.iter().find(|d| d.name == *name) else {
            let names: Vec<String> = shown.iter().map(|d| d.name.clone()).collect();
            return Err(StateError {
                member: Some(name.clone()),
                message: format!("no shown variable is named {name:?}; expected one of {}", names.join(", ")),
            });
        };
        let dims: Vec<usize> = decl.index.iter().map(|&(lo, hi)| (hi - lo + 1).max(0) as usize).collect();
        let mut leaves = Vec::new();
        walk(value, (&dims, decl.base), 0, name, &mut leaves)
            .map_err(|message| StateError { member: Some(name.clone()), message })?;
        for (flat, text) in leaves {
            entries.push(format!("{}={text}", model.scalar_name(decl.first + flat)));
        }
    }
    Ok(entries)
}

/// Collects the leaves of `value`, nested by `dims`, as (row-major index,
/// value text); holes are skipped. Each leaf is of the kind `solve` writes
/// for the variable's values: a number, a Boolean or an enum value's name.
fn walk(
    value: &Value,
    (dims, kind): (&[usize], Base),
    base: usize,
    path: &str,
    out: &mut Vec<(usize, String)>,
) -> Result<(), String> {
    let Some((&n, rest)) = dims.split_first() else {
        let text = match (value, kind) {
            (Value::Null, _) => return Ok(()),
            (Value::String(s), _) if s.trim() == "_" => return Ok(()),
            (Value::String(s), Base::Enum(_)) => s.clone(),
            (Value::Number(number), Base::Int | Base::Any) if number.is_i64() => value.to_string(),
            (Value::Bool(_), Base::Bool) => value.to_string(),
            (other, _) => {
                let expected = match kind {
                    Base::Enum(_) => "the name of a value, as a string",
                    Base::Bool => "true or false",
                    Base::Int | Base::Any => "an integer",
                };
                let found = match other {
                    Value::String(s) => format!("the string {s:?}"),
                    Value::Number(n) => format!("the number {n}"),
                    Value::Bool(b) => format!("the Boolean {b}"),
                    _ => kind_of(other).to_string(),
                };
                return Err(format!("{path} is {found}; expected {expected}, or null or \"_\" for a hole"));
            }
        };
        out.push((base, text));
        return Ok(());
    };
    let Value::Array(items) = value else {
        return Err(format!("{path} is {}; expected a list of {n}, as `solve` writes it", kind_of(value)));
    };
    if items.len() != n {
        return Err(format!("{path} has {} entries; expected {n}", items.len()));
    }
    let stride: usize = rest.iter().product();
    for (k, item) in items.iter().enumerate() {
        walk(item, (rest, kind), base + k * stride, &format!("{path}[entry {}]", k + 1), out)?;
    }
    Ok(())
}

/// The state file of the `known` entries, in the shape [`entries`] reads
/// back: each shown variable nested as `solve` writes it, `null` where
/// nothing is entered. An entry ruling a Boolean out states its other
/// value; other entries ruling a value out state nothing.
pub fn of_entries(model: &Model, known: &[crate::puzzles::Entry]) -> Value {
    let mut members = serde_json::Map::new();
    for &shown in &model.show {
        let decl = &model.vars[shown];
        let mut leaves = vec![Value::Null; decl.len];
        for entry in known.iter().filter(|e| (decl.first..decl.first + decl.len).contains(&e.subject)) {
            let value = match (entry.holds, decl.base) {
                (true, _) => entry.value,
                (false, Base::Bool) => 1 - entry.value,
                (false, _) => continue,
            };
            leaves[entry.subject - decl.first] = match decl.base {
                Base::Bool => Value::Bool(value != 0),
                Base::Enum(_) => Value::String(model.value_name(decl.base, value)),
                Base::Int | Base::Any => Value::from(value),
            };
        }
        let dims: Vec<usize> = decl.index.iter().map(|&(lo, hi)| (hi - lo + 1).max(0) as usize).collect();
        members.insert(decl.name.clone(), nested(&leaves, &dims));
    }
    Value::Object(members)
}

/// `leaves` (row-major) nested by `dims`.
fn nested(leaves: &[Value], dims: &[usize]) -> Value {
    let Some((&n, rest)) = dims.split_first() else { return leaves.first().cloned().unwrap_or(Value::Null) };
    let stride: usize = rest.iter().product();
    Value::Array((0..n).map(|k| nested(leaves.get(k * stride..).unwrap_or(&[]), rest)).collect())
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a Boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "a table",
    }
}
