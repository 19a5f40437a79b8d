//! Solutions and facts in the model's own terms: the shown variables with
//! arrays as nested lists, enums by name, and 2-D arrays drawn as grids;
//! and their pictures, as [`Scene`]s.

use serde::Serialize;
use serde::ser::SerializeMap;

use super::model::{Base, Model, VarDecl};
use crate::draw::{Ground, Mark, Scene, Shape, Tint, Trail, text};
use crate::grid::Pos;

/// A shown value: a number, a Boolean, an enum value's name, or an array
/// as nested lists.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Shown {
    /// An integer.
    Int(i64),
    /// A Boolean.
    Bool(bool),
    /// An enum value.
    Name(String),
    /// An array, one entry per index of its first dimension.
    List(Vec<Shown>),
}

/// The shown variables of one solution, in declaration order, and the
/// routes of its grid paths and loops.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CspSolution {
    /// `(name, value)` per shown variable.
    pub values: Vec<(String, Shown)>,
    /// The objective's value, when the model has one.
    pub objective: Option<(String, i64)>,
    /// Each `grid_path` and `grid_loop` in the order the constraints state
    /// them.
    pub routes: Vec<ShownRoute>,
    /// The value of every scalar, shown or not, which a drawing table reads.
    pub scalars: Vec<i64>,
}

/// The route of a `grid_path` or `grid_loop` in a solution.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ShownRoute {
    /// `grid_path` or `grid_loop`.
    #[serde(skip)]
    pub global: &'static str,
    /// The constraint (instance) that states it.
    pub constraint: String,
    /// The line of the constraint's expression.
    pub line: usize,
    /// The array's cells `[row, col]` by its own indices, in order: a path
    /// from its start, a loop from its first cell in reading order towards
    /// the one of its two neighbours that comes first in reading order.
    pub cells: Vec<(i64, i64)>,
    /// The array's index ranges, rows then columns, for drawing.
    #[serde(skip)]
    pub index: [(i64, i64); 2],
    /// The grid global's number in the program, which a drawing table's
    /// layers name.
    #[serde(skip)]
    pub grid: usize,
}

impl Serialize for CspSolution {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        for (name, value) in &self.values {
            map.serialize_entry(name, value)?;
        }
        // Function names, which no variable can take.
        for global in ["grid_path", "grid_loop"] {
            let routes: Vec<&ShownRoute> = self.routes.iter().filter(|r| r.global == global).collect();
            if !routes.is_empty() {
                map.serialize_entry(global, &routes)?;
            }
        }
        map.end()
    }
}

/// The values each shown scalar takes across solutions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CspFacts {
    /// `(name, sets)` per shown variable; each leaf is the sorted list of
    /// values that element takes in some solution.
    pub values: Vec<(String, Shown)>,
    /// The same sets by scalar, which a drawing table reads; a scalar that
    /// is not shown has none.
    pub sets: std::collections::HashMap<usize, Vec<i64>>,
}

impl Serialize for CspFacts {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.values.len()))?;
        for (name, value) in &self.values {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

fn scalar(model: &Model, base: Base, v: i64) -> Shown {
    match base {
        Base::Bool => Shown::Bool(v != 0),
        Base::Enum(_) => Shown::Name(model.value_name(base, v)),
        Base::Int | Base::Any => Shown::Int(v),
    }
}

/// Nests row-major leaves by the array's dimensions.
fn nest(leaves: Vec<Shown>, dims: &[usize]) -> Shown {
    match dims {
        [] => leaves.into_iter().next().unwrap_or(Shown::List(Vec::new())),
        [_] => Shown::List(leaves),
        [first, rest @ ..] => {
            let width: usize = rest.iter().product();
            let mut rows = Vec::with_capacity(*first);
            let mut leaves = leaves.into_iter();
            for _ in 0..*first {
                let row: Vec<Shown> = leaves.by_ref().take(width).collect();
                rows.push(nest(row, rest));
            }
            Shown::List(rows)
        }
    }
}

fn dims(decl: &VarDecl) -> Vec<usize> {
    decl.index.iter().map(|&(lo, hi)| (hi - lo + 1).max(0) as usize).collect()
}

/// The shown variables' values in an assignment of every scalar, with the
/// routes of the grid paths and loops.
pub fn solution(model: &Model, values: &[i64], objective: Option<i64>, routes: &[ShownRoute]) -> CspSolution {
    let shown = model
        .show
        .iter()
        .map(|&v| {
            let decl = &model.vars[v];
            let leaves: Vec<Shown> = (0..decl.len).map(|k| scalar(model, decl.base, values[decl.first + k])).collect();
            (decl.name.clone(), nest(leaves, &dims(decl)))
        })
        .collect();
    let objective = objective.zip(model.objective.as_ref()).map(|(v, o)| {
        let sense = match o.sense {
            super::model::Sense::Minimize => "minimum",
            super::model::Sense::Maximize => "maximum",
        };
        (sense.to_string(), v)
    });
    CspSolution { values: shown, objective, routes: routes.to_vec(), scalars: values.to_vec() }
}

/// The shown variables' possible values: `possible(scalar)` lists them.
pub fn facts(model: &Model, possible: &dyn Fn(usize) -> Vec<i64>) -> CspFacts {
    let mut sets = std::collections::HashMap::new();
    let values = model
        .show
        .iter()
        .map(|&v| {
            let decl = &model.vars[v];
            let leaves: Vec<Shown> = (0..decl.len)
                .map(|k| {
                    let values = possible(decl.first + k);
                    let leaf = Shown::List(values.iter().map(|&x| scalar(model, decl.base, x)).collect());
                    sets.insert(decl.first + k, values);
                    leaf
                })
                .collect();
            (decl.name.clone(), nest(leaves, &dims(decl)))
        })
        .collect();
    CspFacts { values, sets }
}

/// A leaf as text: the value, or a set of values `{1, 2}` (a single value
/// stands alone).
fn leaf_text(value: &Shown) -> String {
    match value {
        Shown::Int(v) => v.to_string(),
        Shown::Bool(b) => b.to_string(),
        Shown::Name(n) => n.clone(),
        Shown::List(items) if items.len() == 1 => leaf_text(&items[0]),
        Shown::List(items) => format!("{{{}}}", items.iter().map(leaf_text).collect::<Vec<_>>().join(",")),
    }
}

/// Text for one variable. `depth` is the number of array dimensions; a
/// leaf that is itself a list (a set of facts) counts as one cell.
fn var_text(name: &str, value: &Shown, depth: usize, labels: Option<&[String]>) -> String {
    match (depth, value) {
        (0, v) => format!("{name} = {}\n", leaf_text(v)),
        (1, Shown::List(items)) => {
            let parts: Vec<String> = match labels {
                Some(labels) => items.iter().zip(labels).map(|(v, l)| format!("{l}: {}", leaf_text(v))).collect(),
                None => items.iter().map(leaf_text).collect(),
            };
            format!("{name} = [{}]\n", parts.join(", "))
        }
        (2, Shown::List(rows)) => {
            let cells: Vec<Vec<String>> = rows
                .iter()
                .map(|row| match row {
                    Shown::List(items) => items.iter().map(leaf_text).collect(),
                    other => vec![leaf_text(other)],
                })
                .collect();
            let columns = cells.iter().map(Vec::len).max().unwrap_or(0);
            let widths: Vec<usize> = (0..columns)
                .map(|c| cells.iter().filter_map(|r| r.get(c)).map(|s| s.chars().count()).max().unwrap_or(0))
                .collect();
            let mut out = format!("{name} =\n");
            for row in &cells {
                let line: Vec<String> = row.iter().zip(&widths).map(|(s, &w)| format!("{s:>w$}")).collect();
                out.push_str(&format!("  {}\n", line.join(" ")));
            }
            out
        }
        (_, Shown::List(items)) => {
            let mut out = String::new();
            for (k, item) in items.iter().enumerate() {
                out.push_str(&var_text(&format!("{name}[{}]", k + 1), item, depth - 1, None));
            }
            out
        }
        (_, other) => format!("{name} = {}\n", leaf_text(other)),
    }
}

/// The names of an enum-indexed 1-D array's indices.
fn labels(model: &Model, decl: &VarDecl) -> Option<Vec<String>> {
    match decl.index_bases[..] {
        [base @ Base::Enum(_)] => {
            let (lo, hi) = decl.index[0];
            Some((lo..=hi).map(|i| model.value_name(base, i)).collect())
        }
        _ => None,
    }
}

/// The solution for a person, with 2-D arrays as grids.
pub fn solution_text(model: &Model, solution: &CspSolution) -> String {
    let mut out = String::new();
    for ((name, value), &v) in solution.values.iter().zip(&model.show) {
        let decl = &model.vars[v];
        out.push_str(&var_text(name, value, decl.index.len(), labels(model, decl).as_deref()));
    }
    out.push_str(&objective_text(solution));
    for route in &solution.routes {
        out.push_str(&route_text(route));
    }
    out
}

/// The objective's line, when the model has one.
pub fn objective_text(solution: &CspSolution) -> String {
    match &solution.objective {
        Some((sense, value)) => format!("objective = {value} (the proven {sense})\n"),
        None => String::new(),
    }
}

/// A route drawn over its array: a path with `S` on its start, an arrow on
/// each cell towards the next and `*` on its last cell; a loop as a line;
/// `.` for the cells it does not take.
fn route_text(route: &ShownRoute) -> String {
    let closed = is_loop(route.global);
    let first = route.cells.first().map_or(String::new(), |&(r, c)| format!("[{r}, {c}]"));
    let mut out = match route.cells.last() {
        Some(&(r, c)) if !closed => {
            format!("{}: {} cells from {first} to [{r}, {c}]\n", route.constraint, route.cells.len())
        }
        _ => format!("{}: a loop of {} cells through {first}\n", route.constraint, route.cells.len()),
    };
    let (rows, cols) = route_shape(route);
    let mut scene = Scene::new(rows, cols);
    draw_route(&mut scene, route, 0, Tint::Route(0));
    out.push_str(&text::draw(&scene, &ROUTE_STYLE));
    if !closed {
        out.push_str("  (S the start, arrows the next step, * the last cell, . a cell off the path)\n");
    }
    out
}

/// How a route is drawn as text, under its heading.
const ROUTE_STYLE: text::Style =
    text::Style { floor: '.', wall: '#', shaded: '.', dot: None, ring: Some('S'), square: Some('*'), indent: "  " };

/// Whether a grid global's route closes on itself, by the drawing role the
/// table of built-ins gives it.
fn is_loop(global: &str) -> bool {
    crate::lang::builtins::lookup(global).is_some_and(|b| b.drawing == crate::lang::builtins::Drawing::CornerLoop)
}

/// The rows and columns of a route's array.
fn route_shape(route: &ShownRoute) -> (usize, usize) {
    let [(r0, r1), (c0, c1)] = route.index;
    ((r1 - r0 + 1).max(0) as usize, (c1 - c0 + 1).max(0) as usize)
}

/// Draws a route over its array's cells, whose first row is `top`: a loop
/// closed, a path from a ring to a square.
pub(super) fn draw_route(scene: &mut Scene, route: &ShownRoute, top: usize, tint: Tint) {
    let [(r0, _), (c0, _)] = route.index;
    let cells: Vec<Pos> = route.cells.iter().map(|&(r, c)| (top + (r - r0) as usize, (c - c0) as usize)).collect();
    let closed = is_loop(route.global);
    if !closed {
        if let Some(&first) = cells.first() {
            scene.marks.push((first, Mark::ring(tint)));
        }
        if let Some(&last) = cells.last().filter(|_| cells.len() > 1) {
            scene.marks.push((last, Mark::square(tint)));
        }
    }
    scene.trails.push(Trail { cells, tint, closed });
}

/// The facts for a person: each shown variable with the values it can
/// take, a single value meaning forced.
pub fn facts_text(model: &Model, facts: &CspFacts) -> String {
    let mut out = String::new();
    for ((name, value), &v) in facts.values.iter().zip(&model.show) {
        let decl = &model.vars[v];
        out.push_str(&var_text(name, value, decl.index.len(), labels(model, decl).as_deref()));
    }
    out.push_str("(a single value is forced; {a,b} lists the values possible in some solution)\n");
    out
}

/// A picture of shown values without a drawing table: each 2-D array as a
/// clean grid of its values under a heading that names it with its true
/// index ranges (`x[1..6, 1..6]`), one under another; then the routes on
/// grids of their arrays' shapes, each under a heading; the other shown
/// values in the caption. With `sets`, each leaf is the list of values a
/// cell can take: one value is drawn, several shade the cell. The values
/// come in name order, the order of the JSON object, which the pictures
/// have always followed. Beside a narrower grid the picture is bare paper.
pub fn picture(model: &Model, values: &[(String, Shown)], sets: bool, routes: &[ShownRoute]) -> Scene {
    let mut named: Vec<&(String, Shown)> = values.iter().collect();
    named.sort_by(|a, b| a.0.cmp(&b.0));
    let mut grids: Vec<(String, Vec<&[Shown]>)> = Vec::new();
    let mut caption = Vec::new();
    for (name, value) in named {
        match grid_rows(value, sets) {
            Some(rows) if !rows.is_empty() => grids.push((heading(model, name), rows)),
            _ => caption.push(format!("{name} = {}", serde_json::to_string(value).unwrap_or_default())),
        }
    }
    // Routes over arrays of one shape share a grid (numberlink's lines).
    let mut shapes: Vec<(usize, usize)> = Vec::new();
    for route in routes {
        if !shapes.contains(&route_shape(route)) {
            shapes.push(route_shape(route));
        }
    }
    let route_headings: Vec<String> = shapes.iter().map(|&shape| routes_heading(routes, shape)).collect();
    // As wide as the widest grid, and as its longest heading at about a
    // third of a cell a letter.
    let headings = grids.iter().map(|(h, _)| h).chain(&route_headings);
    let cols = grids
        .iter()
        .flat_map(|(_, rows)| rows.iter().map(|row| row.len()))
        .chain(shapes.iter().map(|shape| shape.1))
        .chain(headings.map(|h| (h.chars().count() as f64 * 0.33).ceil() as usize))
        .max()
        .unwrap_or(0);
    let height: usize = grids.iter().map(|(_, rows)| rows.len() + 1).sum::<usize>()
        + shapes.iter().map(|shape| shape.0 + 1).sum::<usize>();
    let mut scene = Scene::new(height, cols);
    let mut top = 0;
    for (name, rows) in &grids {
        top = heading_row(&mut scene, top, name);
        draw_grid(&mut scene, rows, top, sets);
        top += rows.len();
    }
    for (&(rows, width), named) in shapes.iter().zip(&route_headings) {
        top = heading_row(&mut scene, top, named);
        for r in 0..rows {
            for c in width..cols {
                scene.set_ground((top + r, c), Ground::Blank);
            }
        }
        for (k, route) in routes.iter().enumerate().filter(|(_, r)| route_shape(r) == (rows, width)) {
            draw_route(&mut scene, route, top, Tint::Route(k));
        }
        top += rows;
    }
    scene.caption.extend(caption);
    scene
}

/// A 2-D array's heading: its name and true index ranges, `x[1..6, 1..6]`
/// (an enum's range by its first and last names).
fn heading(model: &Model, name: &str) -> String {
    let Some(decl) = model.vars.iter().find(|d| d.name == name) else { return name.to_string() };
    let ranges: Vec<String> = decl
        .index
        .iter()
        .zip(&decl.index_bases)
        .map(|(&(lo, hi), &base)| format!("{}..{}", model.value_name(base, lo), model.value_name(base, hi)))
        .collect();
    format!("{name}[{}]", ranges.join(", "))
}

/// The heading of the routes over arrays of `shape`.
fn routes_heading(routes: &[ShownRoute], shape: (usize, usize)) -> String {
    let mut names = Vec::new();
    let mut ranges = String::new();
    for route in routes.iter().filter(|r| route_shape(r) == shape) {
        names.push(format!("{} of {}", route.global, route.constraint));
        let [(r0, r1), (c0, c1)] = route.index;
        ranges = format!("[{r0}..{r1}, {c0}..{c1}]");
    }
    let named = match names.len() {
        0..=3 => names.join("; "),
        n => format!("{n} routes, {} and more", names[..2].join("; ")),
    };
    format!("{named} {ranges}")
}

/// A row of bare paper with `text` along it, from row `top`; returns the
/// row after it.
fn heading_row(scene: &mut Scene, top: usize, text: &str) -> usize {
    for c in 0..scene.cols() {
        scene.set_ground((top, c), Ground::Blank);
    }
    scene.marks.push(((top, 0), Mark::new(Shape::Heading(text.to_string()), Tint::Ink)));
    top + 1
}

/// A shown value's rows, when it is a 2-D array of leaves: scalars, or with
/// `sets` the lists of values a cell can take.
fn grid_rows(value: &Shown, sets: bool) -> Option<Vec<&[Shown]>> {
    let is_leaf = |v: &Shown| match v {
        Shown::List(items) => sets && items.iter().all(|x| !matches!(x, Shown::List(_))),
        _ => true,
    };
    let Shown::List(rows) = value else { return None };
    if is_leaf(value) {
        return None;
    }
    rows.iter()
        .map(|row| match row {
            Shown::List(cells) if !is_leaf(row) && cells.iter().all(is_leaf) => Some(cells.as_slice()),
            _ => None,
        })
        .collect()
}

/// Draws a grid of leaves from row `top`, as wide as the scene: a value as
/// a label (a Boolean as a dot or nothing), a set of several values as the
/// number of them on a shaded cell, the columns past the grid bare.
fn draw_grid(scene: &mut Scene, rows: &[&[Shown]], top: usize, sets: bool) {
    for (r, row) in rows.iter().enumerate() {
        for (c, leaf) in row.iter().enumerate() {
            let (text, shaded) = match leaf {
                Shown::List(options) if sets && options.len() != 1 => (options.len().to_string(), true),
                other => (leaf_text(other), false),
            };
            if shaded {
                scene.set_ground((top + r, c), Ground::Shaded(Tint::Highlight));
            }
            // Booleans as a dot or nothing: "false" does not fit a cell.
            match text.as_str() {
                "true" => scene.marks.push(((top + r, c), Mark::dot(Tint::Ink))),
                "false" => {}
                _ => scene.marks.push(((top + r, c), Mark::label(text, Tint::Ink))),
            }
        }
        for c in row.len()..scene.cols() {
            scene.set_ground((top + r, c), Ground::Blank);
        }
    }
}

/// The value `value` of the scalar `scalar_id` as JSON, as `solve` writes it.
pub fn value_json(model: &Model, scalar_id: usize, value: i64) -> serde_json::Value {
    let base = model.scalar_owner(scalar_id).0.base;
    serde_json::to_value(scalar(model, base, value)).unwrap_or(serde_json::Value::Null)
}

/// "x[2,4] = 5", "on[1] = true", "colour = red": a scalar taking a value,
/// as a fact about a solution is named.
pub fn value_statement(model: &Model, scalar_id: usize, value: i64) -> String {
    let base = model.scalar_owner(scalar_id).0.base;
    format!("{} = {}", model.scalar_name(scalar_id), leaf_text(&scalar(model, base, value)))
}
