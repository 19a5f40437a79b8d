//! A model's drawing table ([`crate::lang::drawing`]) drawn as a
//! [`Scene`], from what is known of its scalars: their values in a
//! solution, the values each can take across solutions, some of them (a
//! step of a hint), or none (the puzzle alone). Every picture of a model
//! with a table comes from [`scene`], whichever command asks.
//!
//! Layers are drawn in order. In one cell a later layer's middle label
//! replaces an earlier one's (a Sudoku's givens stand over its solved
//! digits), corner labels are written one after another (a KenKen cage's
//! `12` and `+`), and symbols stack; the marks keep the order of their
//! layers.

use super::render::ShownRoute;
use crate::draw::{Along, Border, Corner, Edge, Ground, Link, Mark, Outside, Scene, Shape, Side, Stroke, Tint, text};
use crate::grid::Pos;
use crate::lang::drawing::{
    BorderStyle, CellCorner, Cells, Colour, Fill, GridSide, Layer, LayerKind, Names, Symbol, Table, TextAt,
};
use crate::lang::model::{Base, Model};

/// The values a scalar can take before a step and after it.
pub type Narrowed<'a> = &'a dyn Fn(usize) -> (Vec<i64>, Vec<i64>);

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
    /// The scalars singled out, sorted, such as those a hint step settles:
    /// the cells that draw them are shaded, the sides and links that draw
    /// them highlighted.
    pub settled: &'a [usize],
    /// The values each scalar can take before the step and after it, so
    /// that of the cells drawn from an expression (`x[i] = j`) only those
    /// whose drawing the step decides are shaded; `None`: every cell that
    /// reads a settled scalar is.
    pub narrowed: Option<Narrowed<'a>>,
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
        Known {
            values: &none,
            routes: &[],
            crosses: false,
            sets_as_text: false,
            settled: &[],
            narrowed: None,
            outlined,
        }
    }

    /// Whether an element of a layer's array reads a scalar singled out.
    fn settles(&self, cells: &Cells, k: usize) -> bool {
        !self.settled.is_empty() && cells.reads(k).iter().any(|s| self.settled.binary_search(s).is_ok())
    }

    /// Whether the step decides what an element that reads a scalar
    /// singled out draws: always for a scalar alone; for an expression,
    /// when the values before and after are given, only if it takes one
    /// value over every combination after the step and not before.
    fn decides(&self, cells: &Cells, k: usize) -> bool {
        match (cells.scalar(k), self.narrowed) {
            (None, Some(narrowed)) => {
                let reads = cells.reads(k);
                let (before, after): (Vec<Vec<i64>>, Vec<Vec<i64>>) = reads.iter().map(|&s| narrowed(s)).unzip();
                let one = |values: &[Vec<i64>]| one_value(cells, k, &reads, values);
                // Too many combinations to try: taken as decided, unless
                // the values after the step still draw it two ways (a
                // tour's cell, whose leg had 2,738 values before).
                match one(&after) {
                    Some(false) => false,
                    Some(true) => one(&before).is_none_or(|before| !before),
                    None => true,
                }
            }
            _ => true,
        }
    }
}

/// The most combinations of values [`one_value`] tries.
const COMBINATIONS: usize = 4096;

/// Whether element `k` takes one value over every combination of the
/// values of the scalars it reads (`values[i]` those of `reads[i]`); `None`
/// when there are more than [`COMBINATIONS`].
fn one_value(cells: &Cells, k: usize, reads: &[usize], values: &[Vec<i64>]) -> Option<bool> {
    if values.iter().any(Vec::is_empty) {
        return Some(false);
    }
    let combinations = values.iter().try_fold(1usize, |n, v| n.checked_mul(v.len()))?;
    if combinations > COMBINATIONS {
        return None;
    }
    let mut first = None;
    for mut n in 0..combinations {
        let mut pick = Vec::with_capacity(values.len());
        for v in values {
            pick.push(v[n % v.len()]);
            n /= v.len();
        }
        let lookup = |s: usize| reads.iter().position(|&r| r == s).map(|i| pick[i]);
        let Some(value) = cells.value(k, &lookup) else { return Some(false) };
        if *first.get_or_insert(value) != value {
            return Some(false);
        }
    }
    Some(true)
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

/// A table's scene as it is being drawn: the labels and symbols of each
/// cell, by layer, until they become the scene's marks.
struct Drawing<'t> {
    scene: Scene,
    model: &'t Model,
    /// The middle label of each cell, and the layer that drew it.
    labels: Vec<Option<(usize, Mark)>>,
    /// The corner label of each cell: its text so far, colour, size and
    /// the layer that began it.
    corners: Vec<Option<(usize, String, Tint, u8)>>,
    /// Symbols, by layer.
    symbols: Vec<(usize, Pos, Mark)>,
    /// The cells whose drawing the step decides.
    settled_cells: Vec<Pos>,
    /// The cells that read a scalar the step settles.
    touched_cells: Vec<Pos>,
}

/// Draws `table` from what `known` says, layer over layer.
pub fn scene(model: &Model, table: &Table, known: &Known<'_>) -> Scene {
    let (rows, cols) = (table.rows, table.cols);
    let mut drawing = Drawing {
        scene: Scene::new(rows, cols),
        model,
        labels: vec![None; rows * cols],
        corners: vec![None; rows * cols],
        symbols: Vec::new(),
        settled_cells: Vec::new(),
        touched_cells: Vec::new(),
    };
    drawing.scene.col_width = table.col_width;
    for (n, layer) in table.layers.iter().enumerate() {
        drawing.layer(n, layer, known);
    }
    drawing.finish(known)
}

impl Drawing<'_> {
    fn pos(&self, k: usize) -> Pos {
        (k / self.scene.cols(), k % self.scene.cols())
    }

    fn layer(&mut self, n: usize, layer: &Layer, known: &Known<'_>) {
        let drawn = |k: usize| layer.only.as_ref().is_none_or(|only| only[k]);
        let cells: Vec<usize> = match layer_cells(&layer.kind) {
            Some(cells) => (0..cells.len()).filter(|&k| drawn(k)).collect(),
            None => Vec::new(),
        };
        if let Some(array) = layer_cells(&layer.kind) {
            for &k in cells.iter().filter(|&&k| known.settles(array, k)) {
                self.touched_cells.push(self.pos(k));
                if known.decides(array, k) {
                    self.settled_cells.push(self.pos(k));
                }
            }
        }
        let colour = layer.colour.map(tint);
        match &layer.kind {
            LayerKind::Text { .. } | LayerKind::Arrows { .. } | LayerKind::Shade { .. } | LayerKind::Mark { .. } => {
                self.cell_layer(n, layer, &cells, colour, known);
            }
            _ => self.line_layer(layer, colour, known),
        }
    }

    /// A layer drawn cell by cell: text, arrows, shading or marks, over
    /// the `cells` it draws.
    fn cell_layer(&mut self, n: usize, layer: &Layer, cells: &[usize], colour: Option<Tint>, known: &Known<'_>) {
        match &layer.kind {
            LayerKind::Text { cells: array, blank, at, names } => {
                let mut words = Names2::default();
                for &k in cells {
                    let given = array.is_fixed(k);
                    let (pos, size) = (self.pos(k), layer.size);
                    match possible(array, k, known) {
                        Possible::One(v) if Some(v) == *blank => {}
                        Possible::One(v) => {
                            let tint = colour.unwrap_or(if given { Tint::Ink } else { Tint::Route(0) });
                            if given && *at == TextAt::Middle {
                                self.scene.set_ground(pos, Ground::Shaded(Tint::Given));
                            }
                            let word = words.of(self.model, array.base, names, v);
                            self.text(n, k, *at, word, tint, size);
                        }
                        Possible::Many(values) if *at == TextAt::Middle => {
                            self.labels[k] = Some((n, several(self.model, array.base, &values, known)));
                        }
                        _ => {}
                    }
                }
            }
            LayerKind::Arrows { cells: array, dirs, number } => {
                for &k in cells {
                    match possible(array, k, known) {
                        Possible::One(v) => {
                            let dir = usize::try_from(v - 1).ok().and_then(|i| dirs.get(i).copied().flatten());
                            let count = number.as_ref().and_then(|number| match possible(number, k, known) {
                                Possible::One(v) => Some(v.to_string()),
                                _ => None,
                            });
                            let mark = dir.map(|d| {
                                let shape = match count {
                                    Some(count) => Shape::NumberedArrow(d, count),
                                    None => Shape::Arrow(d),
                                };
                                sized(Mark::new(shape, colour.unwrap_or(Tint::Route(0))), layer.size)
                            });
                            self.labels[k] = mark.map(|m| (n, m));
                        }
                        Possible::Many(_) => self.labels[k] = Some((n, Mark::label("?", Tint::Ink))),
                        Possible::Unknown => {}
                    }
                }
            }
            LayerKind::Shade { cells: array, value, fill } => {
                for &k in cells {
                    match possible(array, k, known) {
                        Possible::One(v) if value.map_or(v != 0, |w| v == w) => {
                            self.scene.set_ground(self.pos(k), ground(*fill));
                        }
                        Possible::Many(_) => {
                            self.scene.set_ground(self.pos(k), Ground::Shaded(Tint::Highlight));
                            self.labels[k].get_or_insert((n, Mark::label("?", Tint::Ink)));
                        }
                        _ => {}
                    }
                }
            }
            LayerKind::Mark { cells: array, symbol, value, fills } => {
                for &k in cells {
                    let standing = if array.is_fixed(k) { Tint::Goal } else { Tint::Ink };
                    match possible(array, k, known) {
                        Possible::One(v) => {
                            let filled = fills.iter().find(|(w, _)| *w == v).map(|(_, c)| tint(*c));
                            let shown =
                                if fills.is_empty() { value.map_or(v != 0, |w| v == w) } else { filled.is_some() };
                            if shown {
                                let mark = sized(mark(*symbol, colour.or(filled).unwrap_or(standing)), layer.size);
                                self.symbols.push((n, self.pos(k), mark));
                            }
                        }
                        Possible::Many(_) => {
                            self.labels[k].get_or_insert((n, Mark::label("?", Tint::Ink)));
                        }
                        Possible::Unknown => {}
                    }
                }
            }
            _ => {}
        }
    }

    /// A layer of lines: region borders, edges, links, routes, or the
    /// clues outside the grid.
    fn line_layer(&mut self, layer: &Layer, colour: Option<Tint>, known: &Known<'_>) {
        match &layer.kind {
            LayerKind::Regions { cells: array, border } => {
                let style = match border {
                    BorderStyle::Heavy => Border::Heavy,
                    BorderStyle::Thin => Border::Thin,
                    BorderStyle::Dashed => Border::Dashed,
                };
                let at = self.scene.add_regions(style, colour.unwrap_or(Tint::Ink));
                for k in 0..array.len() {
                    let region = match possible(array, k, known) {
                        Possible::One(v) => v as usize,
                        _ => usize::MAX,
                    };
                    let pos = self.pos(k);
                    self.scene.set_region_in(at, pos, region);
                }
            }
            LayerKind::Edges { across, down } => {
                self.scene.corner_dots = true;
                self.scene.line_places.sides = true;
                for (array, along) in [(across, Along::Across), (down, Along::Down)] {
                    for k in 0..array.len() {
                        let highlight = known.settles(array, k);
                        let Some(stroke) = stroke(array, k, known, colour, highlight) else { continue };
                        let corner = (k / array.cols, k % array.cols);
                        self.scene.edges.push(Edge { corner, along, stroke, highlight });
                    }
                }
            }
            LayerKind::Links { across, down } => {
                self.scene.line_places.steps = true;
                for (array, along) in [(across, Along::Across), (down, Along::Down)] {
                    for k in 0..array.len() {
                        let highlight = known.settles(array, k);
                        let Some(stroke) = stroke(array, k, known, colour, highlight) else { continue };
                        let cell = (k / array.cols, k % array.cols);
                        self.scene.links.push(Link { cell, along, stroke, highlight });
                    }
                }
            }
            LayerKind::Corners { grids } => {
                self.scene.corner_dots = true;
                self.scene.line_places.sides = true;
                for route in known.routes.iter().filter(|r| grids.contains(&r.grid)) {
                    loop_edges(&mut self.scene, route, colour.unwrap_or(Tint::Route(0)));
                }
            }
            LayerKind::Lines { grids } => {
                for (k, route) in known.routes.iter().filter(|r| grids.contains(&r.grid)).enumerate() {
                    super::render::draw_route(&mut self.scene, route, 0, colour.unwrap_or(Tint::Route(k)));
                }
            }
            LayerKind::Outside { cells: array, side, blank, names, clues_only } => {
                self.outside(array, *side, *blank, names, *clues_only, colour, known);
            }
            _ => {}
        }
    }

    /// A label from a text layer: in the middle, replacing an earlier
    /// layer's, or in the corner, after an earlier layer's.
    fn text(&mut self, n: usize, k: usize, at: TextAt, word: String, tint: Tint, size: Option<u8>) {
        match at {
            TextAt::Middle => self.labels[k] = Some((n, sized(Mark::label(word, tint), size))),
            TextAt::Corner => match &mut self.corners[k] {
                Some((_, text, _, _)) => text.push_str(&word),
                slot => {
                    let size = size.unwrap_or(Shape::CornerLabel(String::new()).default_size());
                    *slot = Some((n, word, tint, size));
                }
            },
        }
    }

    /// The clues of an `outside` layer: each line's list, its blanks left
    /// out, packed towards the grid.
    #[allow(clippy::too_many_arguments)]
    fn outside(
        &mut self,
        array: &Cells,
        side: GridSide,
        blank: Option<i64>,
        names: &Names,
        clues_only: bool,
        colour: Option<Tint>,
        known: &Known<'_>,
    ) {
        let side = match side {
            GridSide::Top => Side::Top,
            GridSide::Bottom => Side::Bottom,
            GridSide::Left => Side::Left,
            GridSide::Right => Side::Right,
        };
        let mut words = Names2::default();
        for line in 0..array.rows {
            let mut clues: Vec<(String, Tint)> = Vec::new();
            for k in line * array.cols..(line + 1) * array.cols {
                let given = array.is_fixed(k);
                if clues_only && !given {
                    continue;
                }
                let Possible::One(v) = possible(array, k, known) else { continue };
                if Some(v) == blank {
                    continue;
                }
                let tint = colour.unwrap_or(if given { Tint::Ink } else { Tint::Route(0) });
                clues.push((words.of(self.model, array.base, names, v), tint));
            }
            let n = clues.len();
            for (i, (text, tint)) in clues.into_iter().enumerate() {
                // Away from the grid in reading order: above and left of it
                // the last clue is the nearest, below and right the first.
                let depth = if matches!(side, Side::Top | Side::Left) { n - 1 - i } else { i };
                self.scene.outside.push(Outside { side, line, depth, text, tint });
            }
        }
    }

    /// The marks in the order of their layers, the settled cells shaded and
    /// the outlines.
    fn finish(mut self, known: &Known<'_>) -> Scene {
        let cols = self.scene.cols();
        let pos = |k: usize| (k / cols, k % cols);
        let mut marks: Vec<(usize, Pos, Mark)> = Vec::new();
        marks.extend(self.labels.into_iter().enumerate().filter_map(|(k, l)| l.map(|(n, m)| (n, pos(k), m))));
        marks.extend(self.corners.into_iter().enumerate().filter_map(|(k, c)| {
            c.map(|(n, text, tint, size)| (n, pos(k), Mark::new(Shape::CornerLabel(text), tint).sized(size)))
        }));
        marks.extend(self.symbols);
        // Stable: within a layer, labels before corner labels before symbols.
        marks.sort_by_key(|(n, _, _)| *n);
        // A route's ring and square say where it starts and ends; a label
        // there (a numberlink's number) says it already.
        let labelled: std::collections::HashSet<Pos> =
            marks.iter().filter(|(_, _, m)| matches!(m.shape, Shape::Label(_))).map(|(_, p, _)| *p).collect();
        self.scene.marks.retain(|(pos, m)| !(matches!(m.shape, Shape::Ring | Shape::Square) && labelled.contains(pos)));
        self.scene.marks.reserve(marks.len());
        self.scene.marks.extend(marks.into_iter().map(|(_, pos, mark)| (pos, mark)));
        // A step that decides no cell's drawing (it rules out values that
        // leave each cell open) singles out the cells it bears on.
        let settled = if self.settled_cells.is_empty() { &self.touched_cells } else { &self.settled_cells };
        for &cell in settled {
            self.scene.set_ground(cell, Ground::Shaded(Tint::Highlight));
        }
        self.scene.outlines.extend(known.outlined.iter().copied());
        self.scene
    }
}

/// The array of a layer that draws in cells, whose elements stand in the
/// grid's cells.
fn layer_cells(kind: &LayerKind) -> Option<&Cells> {
    match kind {
        LayerKind::Text { cells, .. }
        | LayerKind::Arrows { cells, .. }
        | LayerKind::Shade { cells, .. }
        | LayerKind::Mark { cells, .. }
        | LayerKind::Regions { cells, .. } => Some(cells),
        _ => None,
    }
}

/// How a step of an `edges` or `links` layer is drawn: a line where it is
/// taken, a cross where it is known not to be (when crosses are drawn),
/// and where nothing is known, only when it is singled out.
fn stroke(array: &Cells, k: usize, known: &Known<'_>, colour: Option<Tint>, singled: bool) -> Option<Stroke> {
    match possible(array, k, known) {
        Possible::One(1) => Some(Stroke::Line(colour.unwrap_or(Tint::Route(0)))),
        Possible::One(_) if known.crosses => Some(Stroke::Cross(Tint::Ink)),
        _ if singled => Some(Stroke::Unknown),
        _ => None,
    }
}

/// A mark at `size`, when a layer gives one.
fn sized(mark: Mark, size: Option<u8>) -> Mark {
    match size {
        Some(size) => mark.sized(size),
        None => mark,
    }
}

/// A table's colour as a tint.
fn tint(colour: Colour) -> Tint {
    match colour {
        Colour::Ink => Tint::Ink,
        Colour::Paper => Tint::Paper,
        Colour::Rgb(rgb) => Tint::Rgb(rgb),
    }
}

/// The names of the values a text layer has drawn so far, so that a grid
/// of digits formats each digit once (a clone of a short name costs less
/// than formatting it anew).
#[derive(Default)]
struct Names2(Vec<(i64, String)>);

impl Names2 {
    /// Past this many values a name is formatted each time: the search
    /// would cost more than the formatting.
    const KEPT: usize = 32;

    /// How `v` is written: its name in `names`, or its value's name.
    fn of(&mut self, model: &Model, base: Base, names: &Names, v: i64) -> String {
        if let Some((_, name)) = self.0.iter().find(|(w, _)| *w == v) {
            return name.clone();
        }
        let name = match names.iter().find(|(w, _)| *w == v) {
            Some((_, name)) => name.clone(),
            None => model.value_name(base, v),
        };
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
    let corner = |c: CellCorner| match c {
        CellCorner::TopLeft => Corner::TopLeft,
        CellCorner::TopRight => Corner::TopRight,
        CellCorner::BottomLeft => Corner::BottomLeft,
        CellCorner::BottomRight => Corner::BottomRight,
    };
    match symbol {
        Symbol::Disc => Mark::dot(tint),
        Symbol::Dot => Mark::dot(tint).sized(16),
        Symbol::Ring => Mark::ring(tint),
        Symbol::Square => Mark::square(tint),
        Symbol::Circle => Mark::new(Shape::Circle, tint),
        Symbol::Star => Mark::new(Shape::Star, tint),
        Symbol::Cross => Mark::new(Shape::Cross, tint),
        Symbol::Triangle(c) => Mark::new(Shape::Triangle(corner(c)), tint),
        Symbol::Sun => Mark::new(Shape::Sun, tint),
        Symbol::Moon => Mark::new(Shape::Moon, tint),
    }
}

/// A loop over the corners drawn along the sides between them.
fn loop_edges(scene: &mut Scene, route: &ShownRoute, tint: Tint) {
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
            scene.edges.push(Edge { corner, along, stroke: Stroke::Line(tint), highlight: false });
        }
    }
}

/// How a table's scene is drawn as text: blank floor on the corner lattice,
/// dots between cells of a compact grid.
pub fn style(scene: &Scene) -> text::Style {
    let lattice = text::on_lattice(scene);
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

/// Where the scalars the layers read are drawn, for outlining what a
/// constraint reads: in cells, or between them.
#[derive(Clone, Debug, Default)]
pub struct ScalarCells {
    /// The cells a scalar is drawn in (a corner's in the cell below and
    /// right of it, kept inside the grid). A queen's column, read by every
    /// cell of its row, stands in the whole row.
    within: std::collections::HashMap<usize, Vec<Pos>>,
    /// The cells on either side of a scalar drawn between them: a side of
    /// an `edges` layer, a step of a `links` layer (one cell at the grid's
    /// edge).
    between: std::collections::HashMap<usize, Vec<Pos>>,
}

impl ScalarCells {
    /// The cells of `scalars`, read together by one constraint: those the
    /// scalars are drawn in, and of the sides and steps, the cells that two
    /// or more of them border (a slitherlink clue's four sides give its
    /// cell, not the cells beside it; a pearl's steps give the pearl), or
    /// every cell they border when none is bordered twice (a lone side).
    pub fn read_by(&self, scalars: &[usize]) -> Vec<Pos> {
        let mut cells: Vec<Pos> =
            scalars.iter().flat_map(|s| self.within.get(s).into_iter().flatten()).copied().collect();
        let mut bordered: std::collections::HashMap<Pos, usize> = std::collections::HashMap::new();
        for cell in scalars.iter().flat_map(|s| self.between.get(s).into_iter().flatten()) {
            *bordered.entry(*cell).or_default() += 1;
        }
        let twice: Vec<Pos> = bordered.iter().filter(|&(_, &n)| n >= 2).map(|(&c, _)| c).collect();
        if twice.is_empty() {
            cells.extend(bordered.keys());
        } else {
            cells.extend(twice);
        }
        cells.sort_unstable();
        cells.dedup();
        cells
    }
}

/// Where each scalar the table's layers read is drawn ([`ScalarCells`]).
pub fn cells_of_scalars(table: &Table) -> ScalarCells {
    let mut found = ScalarCells::default();
    let inside = |(r, c): Pos| (r.min(table.rows - 1), c.min(table.cols - 1));
    let add = |map: &mut std::collections::HashMap<usize, Vec<Pos>>, s: usize, cell: Pos| {
        let list = map.entry(s).or_default();
        if !list.contains(&cell) {
            list.push(cell);
        }
    };
    for layer in &table.layers {
        match &layer.kind {
            LayerKind::Text { cells, .. }
            | LayerKind::Arrows { cells, .. }
            | LayerKind::Shade { cells, .. }
            | LayerKind::Mark { cells, .. }
            | LayerKind::Regions { cells, .. } => {
                for k in 0..cells.len() {
                    let cell = inside((k / cells.cols, k % cells.cols));
                    cells.reads(k).into_iter().for_each(|s| add(&mut found.within, s, cell));
                }
            }
            LayerKind::Edges { across, down } | LayerKind::Links { across, down } => {
                let sides = matches!(layer.kind, LayerKind::Edges { .. });
                for (array, along) in [(across, Along::Across), (down, Along::Down)] {
                    for k in 0..array.len() {
                        let at = (k / array.cols, k % array.cols);
                        for cell in between(at, along, sides, (table.rows, table.cols)) {
                            array.reads(k).into_iter().for_each(|s| add(&mut found.between, s, cell));
                        }
                    }
                }
            }
            LayerKind::Corners { .. } | LayerKind::Lines { .. } | LayerKind::Outside { .. } => {}
        }
    }
    found
}

/// The cells of a `rows` × `cols` grid on either side of the side that
/// starts at corner `at` (`sides`), or joined by the step that starts at
/// cell `at`, running `along`.
fn between(at: Pos, along: Along, sides: bool, (rows, cols): (usize, usize)) -> Vec<Pos> {
    let (r, c) = at;
    let pair = match (sides, along) {
        // The side above cell (r, c): the cell above it and the cell itself.
        (true, Along::Across) => [r.checked_sub(1).map(|r| (r, c)), Some((r, c))],
        // The side left of cell (r, c).
        (true, Along::Down) => [c.checked_sub(1).map(|c| (r, c)), Some((r, c))],
        (false, Along::Across) => [Some((r, c)), Some((r, c + 1))],
        (false, Along::Down) => [Some((r, c)), Some((r + 1, c))],
    };
    pair.into_iter().flatten().filter(|&(r, c)| r < rows && c < cols).collect()
}

/// A table's scene as the text reports draw it.
pub fn text(scene: &Scene) -> String {
    text::draw(scene, &style(scene))
}

/// What the text of a table's facts means.
pub fn facts_legend(scene: &Scene) -> &'static str {
    if !scene.edges.is_empty() {
        "(? or {a,b}: a cell whose value differs between solutions; ×: a side the loop never takes)\n"
    } else if !scene.links.is_empty() {
        "(? or {a,b}: a cell whose value differs between solutions; ×: a step the loop never takes)\n"
    } else {
        "(? or {a,b}: a cell whose value differs between solutions)\n"
    }
}
