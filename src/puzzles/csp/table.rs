//! A model's drawing table ([`crate::lang::drawing`]) drawn as a
//! [`Scene`], from what is known of its scalars: their values in a
//! solution, the values each can take across solutions, some of them (a
//! step of a hint), or none (the puzzle alone). Every picture of a model
//! with a table comes from [`scene`], whichever command asks.

use super::render::ShownRoute;
use crate::draw::{Along, Edge, Ground, Mark, Scene, Stroke, Tint, text};
use crate::grid::Pos;
use crate::lang::drawing::{Cells, Fill, LayerKind, Symbol, Table};
use crate::lang::model::{Base, Model};

/// What a picture knows of the model's scalars, and what it singles out.
pub struct Known<'a> {
    /// The values a scalar can take: one in a solution, several where
    /// solutions differ, none where nothing is known of it.
    pub values: &'a dyn Fn(usize) -> &'a [i64],
    /// The routes of the grid paths and loops, when a solution gives them.
    pub routes: &'a [ShownRoute],
    /// Whether a side the loop is known not to take is drawn as a cross,
    /// as a player marks it while solving.
    pub crosses: bool,
    /// Whether a text cell that can take several values shows them all,
    /// `{1,2}`; otherwise it shows `?`.
    pub sets_as_text: bool,
    /// Cells shaded to single them out, such as those a hint step settles.
    pub highlighted: &'a [Pos],
    /// Cells outlined, such as those the constraints of an explanation read.
    pub outlined: &'a [Pos],
}

impl<'a> Known<'a> {
    /// Nothing known of any scalar: the puzzle alone, its givens drawn,
    /// with `outlined` outlined.
    pub fn nothing(outlined: &'a [Pos]) -> Known<'a> {
        fn none<'b>(_: usize) -> &'b [i64] {
            &[]
        }
        Known { values: &none, routes: &[], crosses: false, sets_as_text: false, highlighted: &[], outlined }
    }
}

/// What is known of one element of a layer's array.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Possible {
    /// It has this value.
    One(i64),
    /// It can take these values (empty: several, not known which).
    Many(Vec<i64>),
    /// Nothing is known of it.
    Unknown,
}

fn possible(cells: &Cells, k: usize, known: &Known<'_>) -> Possible {
    let of = |values: &[i64]| match values {
        [] => Possible::Unknown,
        [one] => Possible::One(*one),
        _ => Possible::Many(values.to_vec()),
    };
    if let Some(s) = cells.scalar(k) {
        return of((known.values)(s));
    }
    let single = |s: usize| {
        let values = (known.values)(s);
        (values.len() == 1).then(|| values[0])
    };
    match cells.value(k, &single) {
        Some(v) => Possible::One(v),
        None if cells.reads(k).into_iter().any(|s| (known.values)(s).len() > 1) => Possible::Many(Vec::new()),
        None => Possible::Unknown,
    }
}

/// Draws `table` from what `known` says, layer over layer.
pub fn scene(model: &Model, table: &Table, known: &Known<'_>) -> Scene {
    let (rows, cols) = (table.rows, table.cols);
    let mut scene = Scene::new(rows, cols);
    // One label (a text or an arrow) per cell: a later layer's replaces an
    // earlier one's, as a Sudoku's givens stand over its solved digits.
    let mut labels: Vec<Option<Mark>> = vec![None; rows * cols];
    let mut symbols: Vec<(Pos, Mark)> = Vec::new();
    let pos = |k: usize| (k / cols, k % cols);
    for layer in &table.layers {
        let drawn = |k: usize| layer.only.as_ref().is_none_or(|only| only[k]);
        match &layer.kind {
            LayerKind::Text { cells, blank } => {
                let mut names = Names::default();
                for k in (0..cells.len()).filter(|&k| drawn(k)) {
                    let given = cells.is_fixed(k);
                    match possible(cells, k, known) {
                        Possible::One(v) if Some(v) == *blank => {}
                        Possible::One(v) => {
                            let tint = if given { Tint::Ink } else { Tint::Route(0) };
                            if given {
                                scene.set_ground(pos(k), Ground::Shaded(Tint::Given));
                            }
                            labels[k] = Some(Mark::label(names.of(model, cells.base, v), tint));
                        }
                        Possible::Many(values) => labels[k] = Some(several(model, cells.base, &values, known)),
                        Possible::Unknown => {}
                    }
                }
            }
            LayerKind::Arrows { cells, dirs } => {
                for k in (0..cells.len()).filter(|&k| drawn(k)) {
                    match possible(cells, k, known) {
                        Possible::One(v) => {
                            let dir = usize::try_from(v - 1).ok().and_then(|i| dirs.get(i).copied().flatten());
                            labels[k] = dir.map(|d| Mark::arrow(d, Tint::Route(0)));
                        }
                        Possible::Many(_) => labels[k] = Some(Mark::label("?", Tint::Ink)),
                        Possible::Unknown => {}
                    }
                }
            }
            LayerKind::Shade { cells, value, fill } => {
                for k in (0..cells.len()).filter(|&k| drawn(k)) {
                    match possible(cells, k, known) {
                        Possible::One(v) if value.map_or(v != 0, |w| v == w) => {
                            scene.set_ground(pos(k), ground(*fill));
                        }
                        Possible::Many(_) => {
                            scene.set_ground(pos(k), Ground::Shaded(Tint::Highlight));
                            labels[k].get_or_insert(Mark::label("?", Tint::Ink));
                        }
                        _ => {}
                    }
                }
            }
            LayerKind::Mark { cells, symbol } => {
                for k in (0..cells.len()).filter(|&k| drawn(k)) {
                    let tint = if cells.is_fixed(k) { Tint::Goal } else { Tint::Ink };
                    match possible(cells, k, known) {
                        Possible::One(1) => symbols.push((pos(k), mark(*symbol, tint))),
                        Possible::Many(_) => {
                            labels[k].get_or_insert(Mark::label("?", Tint::Ink));
                        }
                        _ => {}
                    }
                }
            }
            LayerKind::Regions { cells } => {
                for k in 0..cells.len() {
                    let region = match possible(cells, k, known) {
                        Possible::One(v) => v as usize,
                        _ => usize::MAX,
                    };
                    scene.set_region(pos(k), region);
                }
            }
            LayerKind::Edges { across, down } => {
                scene.corner_dots = true;
                for (cells, along) in [(across, Along::Across), (down, Along::Down)] {
                    for k in 0..cells.len() {
                        let stroke = match possible(cells, k, known) {
                            Possible::One(1) => Stroke::Line(Tint::Route(0)),
                            Possible::One(_) if known.crosses => Stroke::Cross(Tint::Ink),
                            _ => continue,
                        };
                        let corner = (k / cells.cols, k % cells.cols);
                        scene.edges.push(Edge { corner, along, stroke, highlight: false });
                    }
                }
            }
            LayerKind::Corners { grids } => {
                scene.corner_dots = true;
                for route in known.routes.iter().filter(|r| grids.contains(&r.grid)) {
                    loop_edges(&mut scene, route);
                }
            }
            LayerKind::Lines { grids } => {
                for (n, route) in known.routes.iter().filter(|r| grids.contains(&r.grid)).enumerate() {
                    super::render::draw_route(&mut scene, route, 0, Tint::Route(n));
                }
            }
        }
    }
    scene.marks.reserve(labels.iter().filter(|l| l.is_some()).count() + symbols.len());
    scene.marks.extend(labels.into_iter().enumerate().filter_map(|(k, label)| Some((pos(k), label?))));
    scene.marks.extend(symbols);
    for &cell in known.highlighted {
        scene.set_ground(cell, Ground::Shaded(Tint::Highlight));
    }
    scene.outlines.extend(known.outlined.iter().copied());
    scene
}

/// The names of the values a text layer has drawn so far, so that a grid
/// of digits formats each digit once (a clone of a short name costs less
/// than formatting it anew).
#[derive(Default)]
struct Names(Vec<(i64, String)>);

impl Names {
    /// Past this many values a name is formatted each time: the search
    /// would cost more than the formatting.
    const KEPT: usize = 32;

    fn of(&mut self, model: &Model, base: Base, v: i64) -> String {
        if let Some((_, name)) = self.0.iter().find(|(w, _)| *w == v) {
            return name.clone();
        }
        let name = model.value_name(base, v);
        if self.0.len() < Self::KEPT {
            self.0.push((v, name.clone()));
        }
        name
    }
}

/// A text cell that can take several values: them all, or `?`.
fn several(model: &Model, base: Base, values: &[i64], known: &Known<'_>) -> Mark {
    if known.sets_as_text && !values.is_empty() {
        let names: Vec<String> = values.iter().map(|&v| model.value_name(base, v)).collect();
        Mark::label(format!("{{{}}}", names.join(",")), Tint::Ink)
    } else {
        Mark::label("?", Tint::Ink)
    }
}

fn ground(fill: Fill) -> Ground {
    match fill {
        Fill::Dark => Ground::Shaded(Tint::Ink),
        Fill::Light => Ground::Shaded(Tint::Highlight),
        Fill::Wall => Ground::Wall,
    }
}

fn mark(symbol: Symbol, tint: Tint) -> Mark {
    match symbol {
        Symbol::Disc => Mark::dot(tint),
        Symbol::Ring => Mark::ring(tint),
        Symbol::Square => Mark::square(tint),
    }
}

/// A loop over the corners drawn along the sides between them.
fn loop_edges(scene: &mut Scene, route: &ShownRoute) {
    let [(r0, _), (c0, _)] = route.index;
    let corners: Vec<Pos> = route.cells.iter().map(|&(r, c)| ((r - r0) as usize, (c - c0) as usize)).collect();
    let n = corners.len();
    for i in 0..n {
        let (a, b) = (corners[i], corners[(i + 1) % n]);
        let edge = if a.0 == b.0 && a.1.abs_diff(b.1) == 1 {
            Some(((a.0, a.1.min(b.1)), Along::Across))
        } else if a.1 == b.1 && a.0.abs_diff(b.0) == 1 {
            Some(((a.0.min(b.0), a.1), Along::Down))
        } else {
            None
        };
        if let Some((corner, along)) = edge {
            scene.edges.push(Edge { corner, along, stroke: Stroke::Line(Tint::Route(0)), highlight: false });
        }
    }
}

/// How a table's scene is drawn as text: blank floor on the corner lattice,
/// dots between cells of a compact grid.
pub fn style(scene: &Scene) -> text::Style {
    let lattice = !scene.edges.is_empty() || scene.has_regions() || scene.corner_dots;
    text::Style {
        floor: if lattice { ' ' } else { '.' },
        wall: '#',
        shaded: '█',
        dot: Some('●'),
        ring: Some('○'),
        square: Some('■'),
        indent: "",
    }
}

/// The cells of the table's grid that each scalar the layers read is drawn
/// in (a side's or a corner's scalar in the cell below and right of it,
/// kept inside the grid), for outlining what a constraint reads. A queen's
/// column, read by every cell of its row, stands in the whole row.
pub fn cells_of_scalars(table: &Table) -> std::collections::HashMap<usize, Vec<Pos>> {
    let mut found: std::collections::HashMap<usize, Vec<Pos>> = std::collections::HashMap::new();
    let inside = |(r, c): Pos| (r.min(table.rows - 1), c.min(table.cols - 1));
    for layer in &table.layers {
        let arrays: Vec<&Cells> = match &layer.kind {
            LayerKind::Text { cells, .. }
            | LayerKind::Arrows { cells, .. }
            | LayerKind::Shade { cells, .. }
            | LayerKind::Mark { cells, .. }
            | LayerKind::Regions { cells } => vec![cells],
            LayerKind::Edges { across, down } => vec![across, down],
            LayerKind::Corners { .. } | LayerKind::Lines { .. } => Vec::new(),
        };
        for cells in arrays {
            for k in 0..cells.len() {
                let cell = inside((k / cells.cols, k % cells.cols));
                for s in cells.reads(k) {
                    let list = found.entry(s).or_default();
                    if !list.contains(&cell) {
                        list.push(cell);
                    }
                }
            }
        }
    }
    found
}

/// A table's scene as the text reports draw it.
pub fn text(scene: &Scene) -> String {
    text::draw(scene, &style(scene))
}

/// What the text of a table's facts means.
pub fn facts_legend(scene: &Scene) -> &'static str {
    if scene.edges.is_empty() {
        "(? or {a,b}: a cell whose value differs between solutions)\n"
    } else {
        "(? or {a,b}: a cell whose value differs between solutions; ×: a side the loop never takes)\n"
    }
}
