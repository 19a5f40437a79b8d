//! A model's design table, `[design]`: how `somaria generate` makes new
//! puzzles of the model's kind. It names the parameter arrays that hold the
//! clues, the value that stands for "no clue", and how each clue is read
//! off a solution: an expression over the variables, an array of the clue
//! array's shape. Every fault (an unknown or non-array param, a `read` of
//! another shape or kind) is reported at its place in the file.
//!
//! ```toml
//! [[design.clue]]
//! param = "givens"     # an integer array of the params
//! blank = 0            # the value that means "no clue here"
//! read = "cell"        # the clue of each cell, from a solution
//! ```
//!
//! A template whose clues size its variables (a nurikabe's islands, one per
//! number) has no solution before it has clues to read off. Its design gives
//! `values` in place of `read`: the clue values to try, and `generate`
//! searches the clues themselves from the template's (see
//! `puzzles::csp::searched`).
//!
//! ```toml
//! [[design.clue]]
//! param = "clue"
//! blank = -1
//! values = "1..rows * cols"   # a clue is one of these, or blank
//! ```
//!
//! A puzzle whose clue is a division of the grid into rooms (LITS,
//! norinori, star battle) gives its room array as a region array: every
//! cell holds its region's number, from 1, each region one piece of cells
//! next to each other. `generate` searches the division too, moving one
//! cell at a time from its region into one beside it; the number of
//! regions stays the template's, so a param that counts them (`count`) stays
//! true. A region array has no blank and no clue to drop, and sits beside
//! `values` arrays (searched alike), never beside `read` ones.
//!
//! ```toml
//! [[design.clue]]
//! param = "room"       # a 2-D integer array: each cell's region, from 1
//! regions = true
//! count = "rooms"      # optional: the integer param that counts them
//! ```
//!
//! A clue that is a list (a tapa cell's run lengths, a nonogram line's
//! runs) is a row of an array of two or more dimensions: `list = true`
//! says that the last index runs over one clue's entries. Then a whole
//! row is one clue, kept or dropped together (dropped, every entry is the
//! blank), and a row is a clue when any entry differs from the blank;
//! an entry alone is never dropped, which would write another list.
//!
//! ```toml
//! [[design.clue]]
//! param = "clue"       # clue[cell, 1..4]
//! blank = -1
//! list = true
//! read = "..."         # an array over the same index, every entry read
//! ```
//!
//! An optional `title` under `[design]` is the generated puzzles' title in
//! place of the model's.
//!
//! A generated puzzle is the model's own text with the clue arrays'
//! values written anew, in the form they had (a TOML array, or a string
//! holding `[| .. |]`), so the rest of the file is kept as it was.

use std::collections::HashSet;
use std::ops::Range;

use serde::Deserialize;

use super::check::{Checker, Fault, Named, nearest};
use super::ir::{BExpr, IExpr, Known};
use super::load::{Loader, ParamValue, invalid};
use super::lower::{Context, LVal, Lowerer};
use super::model::{Base, Shape, Value};
use crate::model::{LoadError, Spanned};

/// The `[design]` table as TOML gives it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct DesignEntry {
    title: Option<String>,
    clue: Option<Spanned<Vec<ClueEntry>>>,
}

/// One `[[design.clue]]` as TOML gives it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClueEntry {
    param: Spanned<String>,
    blank: Option<Spanned<ParamValue>>,
    read: Option<Spanned<String>>,
    values: Option<Spanned<String>>,
    regions: Option<Spanned<bool>>,
    count: Option<Spanned<String>>,
    list: Option<Spanned<bool>>,
}

/// How `generate` makes puzzles of a model.
#[derive(Clone, Debug, PartialEq)]
pub struct Design {
    /// The title of a generated puzzle, in place of the model's own.
    pub title: Option<String>,
    /// The clue arrays, in the table's order.
    pub clues: Vec<ClueArray>,
}

impl Design {
    /// Whether the clues are searched (each array gives `values`, or is a
    /// region array) rather than read off a drawn solution.
    pub fn searched(&self) -> bool {
        self.clues.iter().all(ClueArray::searched)
    }

    /// Whether a clue array is a division into regions.
    pub fn has_regions(&self) -> bool {
        self.clues.iter().any(|c| c.regions.is_some())
    }
}

/// A region array's design: the array divides its grid into regions, one
/// piece each, numbered from 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Regions {
    /// The integer param that holds how many regions there are, if the
    /// design names one.
    pub count: Option<usize>,
}

/// How a param's value is written in the file, and so how a generated
/// puzzle writes it again.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ValueForm {
    /// A TOML array, nested for 2-D.
    Toml,
    /// A string holding an expression: written back as `[..]` or `[| .. |]`,
    /// or `array2d(..)` when the index does not start at 1.
    Expr,
}

/// One clue array of a design.
#[derive(Clone, Debug, PartialEq)]
pub struct ClueArray {
    /// The param's name.
    pub name: String,
    /// The param's index in the model's params.
    pub param: usize,
    /// The value that means "no clue"; a region array has none, and holds
    /// 0 here, which is no region's number.
    pub blank: i64,
    /// The param's index ranges.
    pub index: Vec<(i64, i64)>,
    /// Where the param's value is in the file, in bytes.
    pub value_span: Range<usize>,
    /// How the value is written there.
    pub form: ValueForm,
    /// The line of the `read` expression (or of `values`), for messages.
    pub line: usize,
    /// The number of cells.
    cells: usize,
    /// The clue of each cell, row-major, as an expression over scalars;
    /// empty when the design searches the clues.
    pub(crate) read: Vec<IExpr>,
    /// The clue values a search tries (the blank apart), in increasing
    /// order; `None` when the clues are read off a solution, or when the
    /// array is a region array.
    pub values: Option<Vec<i64>>,
    /// `Some` for a region array (a division into regions, searched by
    /// moving cells between them).
    pub regions: Option<Regions>,
    /// Whether a clue is a list: a row of the array along its last index.
    pub list: bool,
}

impl ClueArray {
    /// Whether the array is searched rather than read off a solution.
    pub fn searched(&self) -> bool {
        self.values.is_some() || self.regions.is_some()
    }

    /// The number of cells.
    pub fn len(&self) -> usize {
        self.cells
    }

    /// Whether the array has no cells.
    pub fn is_empty(&self) -> bool {
        self.cells == 0
    }

    /// The cells of one clue, consecutive in row-major order: the size of
    /// the last index for a list, else 1.
    pub fn entries(&self) -> usize {
        match (self.list, self.index.last()) {
            (true, Some(&(lo, hi))) => (hi - lo + 1).max(1) as usize,
            _ => 1,
        }
    }

    /// The index of the clues' own grid: the array's, without the last
    /// index for a list.
    pub fn clue_index(&self) -> &[(i64, i64)] {
        match self.list {
            true => &self.index[..self.index.len() - 1],
            false => &self.index,
        }
    }

    /// The clue of every cell when the scalars it reads are known; `None`
    /// for a cell whose expression is undefined there.
    pub fn read_off(&self, known: Known<'_>) -> Vec<Option<i64>> {
        self.read.iter().map(|e| e.eval(known)).collect()
    }

    /// The array's value as the file writes it, in the param's own form:
    /// `values` row-major.
    pub fn written(&self, values: &[i64]) -> String {
        match self.form {
            ValueForm::Toml => toml_array(&self.index, values),
            ValueForm::Expr => expr_array(&self.index, values),
        }
    }
}

/// The widest number among `values`, for aligned columns.
fn width(values: &[i64]) -> usize {
    values.iter().map(|v| v.to_string().len()).max().unwrap_or(1)
}

/// A TOML array: one line for 1-D, one row per line for 2-D, nested rows
/// beyond.
fn toml_array(index: &[(i64, i64)], values: &[i64]) -> String {
    let w = width(values);
    let cell = |v: &i64| format!("{v:>w$}");
    let dims: Vec<usize> = index.iter().map(|&(lo, hi)| (hi - lo + 1).max(0) as usize).collect();
    fn nest(dims: &[usize], values: &[i64], cell: &dyn Fn(&i64) -> String) -> String {
        match dims {
            [] | [_] => format!("[{}]", values.iter().map(cell).collect::<Vec<_>>().join(", ")),
            [_, rest @ ..] => {
                let stride: usize = rest.iter().product::<usize>().max(1);
                let rows: Vec<String> = values.chunks(stride).map(|row| nest(rest, row, cell)).collect();
                format!("[{}]", rows.join(", "))
            }
        }
    }
    match dims[..] {
        [_, cols] if cols > 0 => {
            let rows: Vec<String> =
                values.chunks(cols).map(|row| format!("  {},\n", nest(&[cols], row, &cell))).collect();
            format!("[\n{}]", rows.concat())
        }
        _ => nest(&dims, values, &cell),
    }
}

/// A string holding the array as an expression: `[..]` in 1-D and
/// `[| .. |]` in 2-D from index 1, `array2d(..)` from any other.
fn expr_array(index: &[(i64, i64)], values: &[i64]) -> String {
    let w = width(values);
    let cells = |row: &[i64]| row.iter().map(|v| format!("{v:>w$}")).collect::<Vec<_>>().join(", ");
    match index {
        [(1, _)] | [_] => format!("\"[{}]\"", cells(values)),
        [(1, _), (1, hi)] if *hi > 0 => {
            let rows: Vec<String> = values.chunks(*hi as usize).map(|row| format!("  {} |", cells(row))).collect();
            format!("\"\"\"[|\n{}]\"\"\"", rows.join("\n"))
        }
        [(r0, r1), (c0, c1)] => {
            format!("\"array2d({r0}..{r1}, {c0}..{c1}, [{}])\"", cells(values))
        }
        _ => format!("\"[{}]\"", cells(values)),
    }
}

/// The instances of constraints `which` of `model` (indices into its
/// constraints), unrolled against its params as they stand: a template's
/// constraints that read its clue arrays, unrolled again once the clue
/// arrays are written anew. `Err` says why not: a grid global among them
/// (whose encoding generate keeps for the whole draft), or a fault of the
/// values, with the constraint's line.
pub(crate) fn unroll(model: &super::model::Model, which: &[usize]) -> Result<Vec<BExpr>, String> {
    let mut out = Vec::new();
    for &k in which {
        out.extend(unroll_instances(model, k)?.into_iter().map(|(_, expr)| expr));
    }
    Ok(out)
}

/// An unrolled instance: the names and shown values of its loop's
/// variables, and its expression.
pub(crate) type Bound = (Vec<(String, String)>, BExpr);

/// [`unroll`] of constraint `k` alone, each instance with the values of
/// its top-level `forall`'s variables (their names, and their values as
/// shown: a number, or an enum value's name).
pub(crate) fn unroll_instances(model: &super::model::Model, k: usize) -> Result<Vec<Bound>, String> {
    let mut names = std::collections::HashMap::new();
    for (e, decl) in model.enums.iter().enumerate() {
        names.insert(decl.name.clone(), Named::EnumType(e));
        for (k, value) in decl.values.iter().enumerate() {
            names.insert(value.clone(), Named::EnumValue(e, k as i64 + 1));
        }
    }
    for (p, param) in model.params.iter().enumerate() {
        names.insert(param.name.clone(), Named::Param(p));
    }
    for (v, var) in model.vars.iter().enumerate() {
        names.insert(var.name.clone(), Named::Var(v));
    }
    let ctx = Context {
        names: &names,
        enums: &model.enums,
        params: &model.params,
        vars: &model.vars,
        functions: &model.functions,
    };
    let constraint = &model.constraints[k];
    let mut lowerer = Lowerer::new(&ctx);
    let instances = lowerer
        .constraint(&constraint.expr)
        .map_err(|f| format!("{} (line {}): {}; expected {}", constraint.name, constraint.line, f.found, f.expected))?;
    if !lowerer.take_grids().is_empty() {
        return Err(format!("{} (line {}) holds a grid global", constraint.name, constraint.line));
    }
    Ok(instances.into_iter().map(|i| (i.bindings, i.expr)).collect())
}

impl Loader<'_> {
    /// Reads the `[design]` table.
    pub(super) fn design(&self, entry: &DesignEntry, spans: &[(Range<usize>, bool)]) -> Result<Design, LoadError> {
        let Some(list) = entry.clue.as_ref().filter(|l| !l.get_ref().is_empty()) else {
            // TOML gives no place for an empty table: its header's.
            let at = entry.clue.as_ref().map(|l| l.span().start).or_else(|| self.source.text().find("[design"));
            return Err(self.source.error(
                at,
                invalid(
                    "a design table with no clue array",
                    "[[design.clue]] with `param`, `blank` and `read` (or `values`, or `regions = true`), once per \
                     clue array",
                ),
            ));
        };
        let mut clues: Vec<ClueArray> = Vec::new();
        let mut seen = HashSet::new();
        for clue in list.get_ref() {
            let array = self.clue_array(clue, spans)?;
            if let Some(first) = clues.first()
                && first.searched() != array.searched()
            {
                let how = |a: &ClueArray| match (&a.regions, &a.values) {
                    (Some(_), _) => "`regions`",
                    (None, Some(_)) => "`values`",
                    (None, None) => "`read`",
                };
                let why = if first.searched() {
                    "the clues are searched, or read, all alike"
                } else {
                    "the clues are read, or searched, all alike"
                };
                return Err(self.source.error_at(
                    &clue.param,
                    invalid(
                        format!("`{}` with {}", array.name, how(&array)),
                        format!("{} as the first clue array has: {why}", how(first)),
                    ),
                ));
            }
            if !seen.insert(array.param) {
                return Err(self.source.error_at(
                    &clue.param,
                    invalid(format!("a second clue array `{}`", array.name), "each param in one [[design.clue]]"),
                ));
            }
            clues.push(array);
        }
        Ok(Design { title: entry.title.clone(), clues })
    }

    fn clue_array(&self, entry: &ClueEntry, spans: &[(Range<usize>, bool)]) -> Result<ClueArray, LoadError> {
        let scope = self.scope();
        let name = entry.param.get_ref().trim();
        let param = match scope.names.get(name) {
            Some(Named::Param(p)) => *p,
            other => {
                let what = match other {
                    Some(Named::Var(_)) => format!("param = {name:?}, a decision variable"),
                    Some(_) => format!("param = {name:?}, an enum or enum value"),
                    None => format!("param = {name:?}, which is not declared"),
                };
                let hint = nearest(name, scope.params.iter().map(|p| p.name.as_str()))
                    .map(|n| format!(" (did you mean {n}?)"))
                    .unwrap_or_default();
                return Err(self
                    .source
                    .error_at(&entry.param, invalid(what, format!("the name of an integer array in [params]{hint}"))));
            }
        };
        let decl = &scope.params[param];
        let Value::Array(value) = &decl.value else {
            return Err(self.source.error_at(
                &entry.param,
                invalid(format!("param = {name:?}, a single value"), "an integer array in [params]"),
            ));
        };
        if decl.ty.base != Base::Int || value.index.len() > 2 && spans[param].1 {
            let found = if decl.ty.base != Base::Int {
                format!("param = {name:?}, an array of {}", super::model::base_name(decl.ty.base, &self.enums))
            } else {
                format!("param = {name:?}, a string of {} dimensions", value.index.len())
            };
            return Err(self
                .source
                .error_at(&entry.param, invalid(found, "an integer array (as a string, of one or two dimensions)")));
        }
        if spans[param].1 && value.index.len() == 1 && value.index[0].0 != 1 {
            return Err(self.source.error_at(
                &entry.param,
                invalid(
                    format!("param = {name:?}, a string of an array indexed from {}", value.index[0].0),
                    "a 1-D clue array indexed from 1, or a TOML array",
                ),
            ));
        }
        let (value_span, is_string) = spans[param].clone();
        let mut array = ClueArray {
            name: name.to_string(),
            param,
            blank: 0,
            index: value.index.clone(),
            value_span,
            form: if is_string { ValueForm::Expr } else { ValueForm::Toml },
            line: self.source.location(entry.param.span().start).line,
            cells: value.elems.len(),
            read: Vec::new(),
            values: None,
            regions: None,
            list: false,
        };
        if entry.regions.as_ref().is_some_and(|r| *r.get_ref()) {
            array.regions = Some(self.regions(entry, name, param)?);
            return Ok(array);
        }
        self.read_or_values(entry, array)
    }

    /// `array` (not a region array) with its `blank`, and its `read` or
    /// its `values`.
    fn read_or_values(&self, entry: &ClueEntry, array: ClueArray) -> Result<ClueArray, LoadError> {
        let name = array.name.as_str();
        if let Some(count) = &entry.count {
            return Err(self.source.error_at(
                count,
                invalid(
                    "`count` without `regions = true`",
                    "`count` only in a region array: the param that counts its regions",
                ),
            ));
        }
        let Some(blank) = &entry.blank else {
            return Err(self.source.error_at(
                &entry.param,
                invalid(
                    format!("clue array `{name}` with no `blank`"),
                    "`blank`, the value that means no clue (or `regions = true` for a division into regions)",
                ),
            ));
        };
        let blank = match self.param(blank)? {
            (_, Value::Int(v)) => v,
            (ty, _) => {
                return Err(self.source.error_at(
                    blank,
                    invalid(format!("blank as {}", ty.describe(&self.enums)), "an integer: the value of no clue"),
                ));
            }
        };
        let (read, values, at) = match (&entry.read, &entry.values) {
            (Some(read), None) => (self.read(read, name, &array.index)?, None, read.span().start),
            (None, Some(values)) => (Vec::new(), Some(self.values(values, blank)?), values.span().start),
            (Some(_), Some(values)) => {
                return Err(self.source.error_at(
                    values,
                    invalid(
                        "both `read` and `values`",
                        "one of them: `read` to read the clues off a solution, \
                             `values` to search them",
                    ),
                ));
            }
            (None, None) => {
                return Err(self.source.error_at(
                    &entry.param,
                    invalid(
                        format!("clue array `{name}` with neither `read` nor `values`"),
                        "`read`, how a clue is read off a solution, or `values`, the clue values to search \
                         (or `regions = true` for a division into regions)",
                    ),
                ));
            }
        };
        let line = self.source.location(at).line;
        let list = self.list(entry, name, array.index.len())?;
        Ok(ClueArray { blank, read, values, line, list, ..array })
    }

    /// A region array's design (`regions = true`): refused with `blank`,
    /// `list`, `read` or `values` beside it, on other than a 2-D array, or with a
    /// `count` that is not an integer param.
    fn regions(&self, entry: &ClueEntry, name: &str, param: usize) -> Result<Regions, LoadError> {
        let list = entry.list.as_ref().filter(|l| *l.get_ref()).map(Spanned::span);
        let beside = [("blank", entry.blank.as_ref().map(Spanned::span)), ("list = true", list)].into_iter().chain(
            [("read", &entry.read), ("values", &entry.values)].map(|(key, v)| (key, v.as_ref().map(Spanned::span))),
        );
        for (key, span) in beside {
            if let Some(span) = span {
                return Err(self.source.error(
                    Some(span.start),
                    invalid(
                        format!("`{key}` with `regions = true`"),
                        "`regions` alone: a region array numbers every cell's region, with no blank, and generate \
                         searches it by moving cells between regions",
                    ),
                ));
            }
        }
        let scope = self.scope();
        let dims = match &scope.params[param].value {
            Value::Array(array) => array.index.len(),
            _ => 0,
        };
        if dims != 2 {
            return Err(self.source.error_at(
                &entry.param,
                invalid(
                    format!("param = {name:?}, an array of {dims} dimension{}", if dims == 1 { "" } else { "s" }),
                    "a 2-D integer array for `regions = true`: each cell's region, from 1",
                ),
            ));
        }
        let Some(count) = &entry.count else { return Ok(Regions { count: None }) };
        let counted = count.get_ref().trim();
        match scope.names.get(counted) {
            Some(Named::Param(p))
                if scope.params[*p].ty.base == Base::Int && matches!(scope.params[*p].value, Value::Int(_)) =>
            {
                Ok(Regions { count: Some(*p) })
            }
            _ => Err(self.source.error_at(
                count,
                invalid(
                    format!("count = {counted:?}"),
                    "the name of an integer param in [params]: how many regions there are",
                ),
            )),
        }
    }

    /// The `list` key: a list clue needs an array of two or more
    /// dimensions (the last runs over its entries), and clues read off a
    /// solution (a search changes one cell at a time).
    fn list(&self, entry: &ClueEntry, name: &str, dims: usize) -> Result<bool, LoadError> {
        let Some(list) = entry.list.as_ref().filter(|l| *l.get_ref()) else { return Ok(false) };
        if dims < 2 {
            return Err(self.source.error_at(
                list,
                invalid(
                    format!("list = true on `{name}`, an array of one dimension"),
                    "an array of two or more dimensions, its last index running over one clue's entries",
                ),
            ));
        }
        if entry.values.is_some() {
            return Err(self.source.error_at(
                list,
                invalid(
                    format!("list = true on `{name}`, whose clues are searched (`values`)"),
                    "`read` for a list clue: a search changes one entry at a time, and would write lists no \
                     puzzle has",
                ),
            ));
        }
        Ok(true)
    }

    /// A `values` expression: a set of integers, or a 1-D array of them, of
    /// the template's params; the blank among them is left out.
    fn values(&self, text: &Spanned<String>, blank: i64) -> Result<Vec<i64>, LoadError> {
        let expr = self.parse(text)?;
        let expected = "a set or 1-D array of integers, from the params alone (the clue values to try)";
        let ctx = self.context();
        let found = |what: &str| self.fault(Fault::new(expr.span, format!("values as {what}"), expected));
        let mut values: Vec<i64> = match Lowerer::new(&ctx).lower(&expr).map_err(|f| self.fault(f))? {
            LVal::Set(set, _) => set.values().collect(),
            LVal::Array(array) if array.index.len() == 1 => array
                .elems
                .into_iter()
                .map(|e| match e {
                    LVal::Int(i, _) => i.as_const().ok_or_else(|| found("an array of other than known integers")),
                    _ => Err(found("an array of other than integers")),
                })
                .collect::<Result<_, _>>()?,
            _ => return Err(found("other than a set or a 1-D array")),
        };
        values.retain(|&v| v != blank);
        values.sort_unstable();
        values.dedup();
        if values.is_empty() {
            return Err(found("no value but the blank"));
        }
        Ok(values)
    }

    /// A `read` expression: an integer array over the clue array's index.
    fn read(&self, text: &Spanned<String>, name: &str, index: &[(i64, i64)]) -> Result<Vec<IExpr>, LoadError> {
        let expr = self.parse(text)?;
        let scope = self.scope();
        let ty = Checker::new(&scope).check(&expr).map_err(|f| self.fault(f))?;
        let shape =
            |index: &[(i64, i64)]| index.iter().map(|(lo, hi)| format!("{lo}..{hi}")).collect::<Vec<_>>().join(", ");
        let expected = format!("an integer array over [{}], the index of `{name}`", shape(index));
        let dims = match &ty.shape {
            Shape::Array(dims) => dims.len(),
            _ => 0,
        };
        if dims != index.len() || ty.base == Base::Bool || matches!(ty.base, Base::Enum(_)) {
            let hint = if ty.base == Base::Bool { " (write bool2int(..) for a Boolean's 0 or 1)" } else { "" };
            return Err(self.fault(Fault::new(
                expr.span,
                format!("read as {}", ty.describe(&self.enums)),
                format!("{expected}{hint}"),
            )));
        }
        let ctx = self.context();
        let LVal::Array(array) = Lowerer::new(&ctx).lower(&expr).map_err(|f| self.fault(f))? else {
            return Err(self.fault(Fault::new(expr.span, "not an array", expected)));
        };
        if array.index != index {
            return Err(self.fault(Fault::new(expr.span, format!("read over [{}]", shape(&array.index)), expected)));
        }
        array
            .elems
            .into_iter()
            .map(|e| match e {
                LVal::Int(i, _) => Ok(i),
                _ => Err(self.fault(Fault::new(expr.span, "an array of arrays, sets or Booleans", expected.clone()))),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrays_are_written_in_their_form() {
        assert_eq!(toml_array(&[(1, 3)], &[1, -1, 10]), "[ 1, -1, 10]");
        assert_eq!(toml_array(&[(1, 2), (1, 2)], &[0, 5, 12, 0]), "[\n  [ 0,  5],\n  [12,  0],\n]");
        assert_eq!(expr_array(&[(1, 2), (1, 2)], &[0, -1, 3, 0]), "\"\"\"[|\n   0, -1 |\n   3,  0 |]\"\"\"");
        assert_eq!(expr_array(&[(0, 1), (1, 2)], &[1, 2, 3, 4]), "\"array2d(0..1, 1..2, [1, 2, 3, 4])\"");
        assert_eq!(expr_array(&[(1, 2)], &[7, 8]), "\"[7, 8]\"");
    }
}
