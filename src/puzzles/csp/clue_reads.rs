//! Which parts of a csp template read its clue arrays, for `generate`.
//!
//! A puzzle is the template with its clue arrays written anew, so every
//! constraint that reads a clue array (directly, through a parameter
//! computed from one, or through a predicate that reads one) says
//! something else for each set of clues kept. The uniqueness checks must
//! state exactly that puzzle, so they need to know which constraints
//! those are; the rest is the same for every puzzle and is encoded once.
//!
//! Most templates state their clues cell by cell:
//! `forall(i, j in 1..9 where givens[i, j] > 0)(cell[i, j] = givens[i, j])`.
//! Each instance of such a constraint reads one cell of one clue array,
//! and, when every instance holds trivially with the cell blank, a clue
//! dropped only takes its own instances away: the solutions only widen
//! ([`Drops::Narrow`](crate::puzzles::design::Drops)). Any other reading
//! (how many clues there are, a clue beside another, a parameter computed
//! from the clues) may narrow when a clue is dropped, so each check also
//! asks whether the solution the clues were read from is still one
//! ([`Drops::Anchored`](crate::puzzles::design::Drops)).
//!
//! The names are found by their spelling, ignoring what a local binding
//! hides: a constraint is taken to read a clue array whenever it names it,
//! which costs at most a slower check, never a wrong one. What cannot be
//! checked this way is refused at its place: a variable whose declaration
//! reads the clues (the solution is drawn before there are clues), an
//! objective or a `read` that reads them, and, where the clues are not
//! read cell by cell, an objective or a grid global among the constraints
//! that read them.

use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;

use crate::lang::design::Design;
use crate::lang::model::Model;
use crate::lang::syntax::{Expr, ExprKind, LetItem, children};
use crate::model::{LoadError, Problem, Source, Spanned};

/// What a template's clue arrays reach.
#[derive(Clone, Debug, Default)]
pub struct ClueReads {
    /// The constraints (indices into the model's) that read a clue array.
    pub dependent: Vec<usize>,
    /// The parameters computed from a clue array that those constraints
    /// (or the predicates they call) read, in file order.
    pub derived: Vec<String>,
    /// Every constraint among `dependent` is a top-level `forall` each of
    /// whose instances reads one cell of one clue array, by the loop's
    /// variables, and nothing else computed from the clues.
    pub cellwise: bool,
    /// When `cellwise`, per constraint of `dependent`: the clue array it
    /// reads (its number in the design) and the loop variables that index
    /// it, in the array's order.
    pub cells: Vec<(usize, Vec<String>)>,
    /// A constraint among `dependent` that holds a grid global.
    pub grid: Option<usize>,
}

type Table = BTreeMap<Spanned<String>, Spanned<toml::Value>>;

/// The tables whose strings may name a clue array, as TOML gives them.
#[derive(Deserialize)]
struct Raw {
    params: Option<Table>,
    vars: Option<Table>,
    minimize: Option<Spanned<String>>,
    maximize: Option<Spanned<String>>,
    design: Option<RawDesign>,
}

#[derive(Deserialize)]
struct RawDesign {
    clue: Option<Vec<RawClue>>,
}

#[derive(Deserialize)]
struct RawClue {
    read: Option<Spanned<String>>,
}

/// The names a TOML value's strings spell: every word of letters, digits
/// and `_` that starts with a letter.
fn words(value: &toml::Value, out: &mut BTreeSet<String>) {
    match value {
        toml::Value::String(text) => {
            for word in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
                if word.starts_with(|c: char| c.is_ascii_alphabetic()) {
                    out.insert(word.to_string());
                }
            }
        }
        toml::Value::Array(items) => items.iter().for_each(|v| words(v, out)),
        toml::Value::Table(table) => table.values().for_each(|v| words(v, out)),
        _ => {}
    }
}

fn words_of(value: &toml::Value) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    words(value, &mut out);
    out
}

/// The names an expression spells, and the functions it calls.
fn names(expr: &Expr) -> (BTreeSet<&str>, BTreeSet<&str>) {
    let (mut named, mut called) = (BTreeSet::new(), BTreeSet::new());
    let mut stack = vec![expr];
    while let Some(e) = stack.pop() {
        match &e.kind {
            ExprKind::Name(name) => {
                named.insert(name.as_str());
            }
            ExprKind::Call { name, .. } | ExprKind::GenCall { name, .. } => {
                called.insert(name.as_str());
            }
            _ => {}
        }
        stack.extend(children(e));
    }
    (named, called)
}

/// Finds what the clue arrays of `design` reach in `model`, loaded from
/// `source`; refuses (at its place) what generate cannot check exactly.
pub fn clue_reads(source: &Source, model: &Model, design: &Design) -> Result<ClueReads, LoadError> {
    let raw: Raw = source.parse()?;
    let refuse = |at: usize, found: String, expected: &str| {
        source.error(Some(at), Problem::Invalid { found, expected: expected.to_string() })
    };
    // The clue arrays, then every parameter computed from one, to a fixpoint.
    let mut reached: BTreeSet<String> = design.clues.iter().map(|c| c.name.clone()).collect();
    let params: Vec<(&Spanned<String>, BTreeSet<String>)> =
        raw.params.iter().flatten().map(|(k, v)| (k, words_of(v.get_ref()))).collect();
    let mut derived: Vec<(usize, String)> = Vec::new();
    while let Some((key, _)) = params
        .iter()
        .find(|(k, uses)| !reached.contains(k.get_ref().as_str()) && uses.iter().any(|u| reached.contains(u)))
    {
        reached.insert(key.get_ref().clone());
        derived.push((key.span().start, key.get_ref().clone()));
    }
    derived.sort();
    let reading = |uses: &BTreeSet<String>| uses.iter().find(|u| reached.contains(*u)).cloned();
    let what = |name: &str| match derived.iter().any(|(_, d)| d == name) {
        true => format!("the parameter `{name}`, computed from the clues"),
        false => format!("the clue array `{name}`"),
    };
    for (key, value) in raw.vars.iter().flatten() {
        if let Some(name) = reading(&words_of(value.get_ref())) {
            return Err(refuse(
                key.span().start,
                format!("the variable `{}`, whose declaration reads {}", key.get_ref(), what(&name)),
                "variables declared the same whatever the clues: generate draws a solution before there are \
                 clues and reads the clues off it (or, in place of `read`, give each clue array the `values` \
                 its clues take, and generate searches the clues from the template's own)",
            ));
        }
    }
    for objective in [&raw.minimize, &raw.maximize].into_iter().flatten() {
        if let Some(name) = reading(&words_of(&toml::Value::String(objective.get_ref().clone()))) {
            return Err(refuse(
                objective.span().start,
                format!("an objective that reads {}", what(&name)),
                "an objective the same whatever the clues: a generated puzzle's one solution is its optimum",
            ));
        }
    }
    for read in raw.design.iter().flat_map(|d| d.clue.iter().flatten()).filter_map(|c| c.read.as_ref()) {
        if let Some(name) = reading(&words_of(&toml::Value::String(read.get_ref().clone()))) {
            return Err(refuse(
                read.span().start,
                format!("a `read` that reads {}", what(&name)),
                "a `read` over the variables alone: it reads the clues off a solution",
            ));
        }
    }
    let functions = reading_functions(model, &reached);
    let dependent = dependent_constraints(model, &reached, &functions);
    // A parameter computed from the clues that no constraint reads (one a
    // drawing shows) changes no check.
    let bodies = model.functions.iter().filter(|f| functions.contains(f.name.as_str())).map(|f| &f.body);
    let read: BTreeSet<&str> =
        dependent.iter().map(|&k| &model.constraints[k].expr).chain(bodies).flat_map(|e| names(e).0).collect();
    derived.retain(|(_, name)| read.contains(name.as_str()));
    let clue_names: BTreeSet<&str> = design.clues.iter().map(|c| c.name.as_str()).collect();
    let cells: Option<Vec<(usize, Vec<String>)>> = dependent
        .iter()
        .map(|&k| {
            let expr = &model.constraints[k].expr;
            let (array, by) = reads_one_cell(expr, &clue_names).filter(|_| names(expr).1.is_disjoint(&functions))?;
            let a = design.clues.iter().position(|c| c.name == array)?;
            Some((a, by.into_iter().map(str::to_string).collect()))
        })
        .collect();
    let cellwise = derived.is_empty() && cells.is_some();
    let cells = cells.filter(|_| cellwise).unwrap_or_default();
    let grid =
        dependent.iter().copied().find(|&k| names(&model.constraints[k].expr).1.iter().any(|f| f.starts_with("grid_")));
    let derived = derived.into_iter().map(|(_, n)| n).collect();
    let reads = ClueReads { dependent, derived, cellwise, cells, grid };
    Ok(reads)
}

/// The predicates and functions that name a reached parameter, or call
/// one that does.
fn reading_functions<'m>(model: &'m Model, reached: &BTreeSet<String>) -> BTreeSet<&'m str> {
    let mut reading: BTreeSet<&str> = BTreeSet::new();
    loop {
        let more: Vec<&str> = model
            .functions
            .iter()
            .filter(|f| !reading.contains(f.name.as_str()))
            .filter(|f| {
                let (named, called) = names(&f.body);
                named.iter().any(|n| reached.contains(*n)) || called.iter().any(|c| reading.contains(c))
            })
            .map(|f| f.name.as_str())
            .collect();
        if more.is_empty() {
            break;
        }
        reading.extend(more);
    }
    reading
}

/// The constraints that name a reached parameter, or call one of
/// `functions`.
fn dependent_constraints(model: &Model, reached: &BTreeSet<String>, functions: &BTreeSet<&str>) -> Vec<usize> {
    (0..model.constraints.len())
        .filter(|&k| {
            let (named, called) = names(&model.constraints[k].expr);
            named.iter().any(|n| reached.contains(*n)) || !called.is_disjoint(functions)
        })
        .collect()
}

/// The clue array and the loop variables that index it, when `expr` is a
/// `forall` each of whose instances reads one cell of one clue array: every
/// clue array named in it is indexed by the loop's own variables, the same
/// ones everywhere, which no inner binding hides, and the loop's sources
/// read no clue array.
fn reads_one_cell<'e>(expr: &'e Expr, clues: &BTreeSet<&str>) -> Option<(&'e str, Vec<&'e str>)> {
    let ExprKind::GenCall { name, generators, body, .. } = &expr.kind else { return None };
    if name != "forall" {
        return None;
    }
    let loop_vars: BTreeSet<&str> = generators.iter().flat_map(|g| g.names.iter().map(|(n, _)| n.as_str())).collect();
    if generators.iter().any(|g| names(&g.source).0.iter().any(|n| clues.contains(n))) {
        return None;
    }
    let mut cell: Option<(&str, Vec<&str>)> = None;
    let mut stack: Vec<&Expr> = generators.iter().filter_map(|g| g.filter.as_ref()).collect();
    stack.push(body);
    while let Some(e) = stack.pop() {
        match &e.kind {
            ExprKind::Index { array, indices } if matches!(&array.kind, ExprKind::Name(n) if clues.contains(n.as_str())) =>
            {
                let ExprKind::Name(array) = &array.kind else { return None };
                let by: Option<Vec<&str>> = indices
                    .iter()
                    .map(|i| match &i.kind {
                        ExprKind::Name(n) if loop_vars.contains(n.as_str()) => Some(n.as_str()),
                        _ => None,
                    })
                    .collect();
                let by = by?;
                match &cell {
                    Some(seen) if *seen != (array.as_str(), by.clone()) => return None,
                    Some(_) => {}
                    None => cell = Some((array.as_str(), by)),
                }
                continue;
            }
            ExprKind::Name(n) if clues.contains(n.as_str()) => return None,
            ExprKind::GenCall { generators, .. } | ExprKind::Comprehension { generators, .. }
                if generators.iter().flat_map(|g| &g.names).any(|(n, _)| loop_vars.contains(n.as_str())) =>
            {
                return None;
            }
            ExprKind::Let { items, .. }
                if items.iter().any(|i| matches!(i, LetItem::Decl(d) if loop_vars.contains(d.name.as_str()))) =>
            {
                return None;
            }
            _ => {}
        }
        stack.extend(children(e));
    }
    cell
}
