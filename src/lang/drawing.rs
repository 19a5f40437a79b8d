//! A model's drawing table, `[draw]`: how to draw it as a grid of R × C
//! cells, in layers, each an expression over the model's params and vars,
//! checked and unrolled like a constraint. Every fault (a layer naming an
//! unknown array, an array whose shape is not the grid's, a text layer over
//! Booleans) is reported at its place in the file.
//!
//! ```toml
//! [draw]
//! rows = 10                       # or a fixed expression: rows = "n"
//! cols = 10
//!
//! [[draw.layer]]
//! text = "clue"                   # numbers or enum names, one per cell
//! blank = -1                      # the value drawn as nothing
//!
//! [[draw.layer]]
//! edges = ["across", "down"]      # a loop along the cells' sides
//! ```
//!
//! The layers' kinds are in [`LayerKind`]. The table says what to draw,
//! never how: the csp adapter turns it and what is known of the scalars into
//! a [`crate::draw::Scene`].

use serde::Deserialize;

use super::check::{Checker, Fault};
use super::ir::{BExpr, GridGlobal, GridKind, IExpr, Known};
use super::load::{Loader, ParamValue, invalid};
use super::lower::{LVal, Lowerer};
use super::model::{Base, Shape, Value};
use crate::grid::Dir;
use crate::model::{LoadError, Spanned};

/// The `[draw]` table as TOML gives it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct DrawEntry {
    rows: Spanned<ParamValue>,
    cols: Spanned<ParamValue>,
    layer: Option<Vec<LayerEntry>>,
}

/// One `[[draw.layer]]` as TOML gives it: one kind key and its options.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LayerEntry {
    text: Option<Spanned<String>>,
    arrows: Option<Spanned<String>>,
    shade: Option<Spanned<String>>,
    mark: Option<Spanned<String>>,
    regions: Option<Spanned<String>>,
    edges: Option<Spanned<Vec<Spanned<String>>>>,
    corners: Option<Spanned<String>>,
    lines: Option<Spanned<String>>,
    blank: Option<Spanned<ParamValue>>,
    value: Option<Spanned<ParamValue>>,
    only: Option<Spanned<String>>,
    fill: Option<Spanned<String>>,
    symbol: Option<Spanned<String>>,
}

/// How to draw a model as a grid.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// Rows of cells.
    pub rows: usize,
    /// Columns of cells.
    pub cols: usize,
    /// The layers, each drawn over the ones before.
    pub layers: Vec<Layer>,
}

/// One layer: what it draws, and in which cells (all, unless `only`).
#[derive(Clone, Debug, PartialEq)]
pub struct Layer {
    /// What it draws.
    pub kind: LayerKind,
    /// The cells it draws in, row by row; `None`: every cell.
    pub only: Option<Vec<bool>>,
}

/// What a layer draws.
#[derive(Clone, Debug, PartialEq)]
pub enum LayerKind {
    /// A number or an enum value's name in each cell, nothing where the
    /// value is `blank`.
    Text {
        /// One per cell.
        cells: Cells,
        /// The value that stands for "no clue".
        blank: Option<i64>,
    },
    /// An arrow in each cell, from an enum whose values include `up`,
    /// `down`, `left` and `right` (other values draw nothing).
    Arrows {
        /// One per cell.
        cells: Cells,
        /// The direction of each enum value, from value 1.
        dirs: Vec<Option<Dir>>,
    },
    /// The cells where a Boolean array is true, or where an array equals
    /// `value`, filled.
    Shade {
        /// One per cell.
        cells: Cells,
        /// The value that fills a cell; `None`: true.
        value: Option<i64>,
        /// How the cells are filled.
        fill: Fill,
    },
    /// A symbol in each cell where a Boolean array is true.
    Mark {
        /// One per cell.
        cells: Cells,
        /// The symbol.
        symbol: Symbol,
    },
    /// Heavy borders between cells whose region numbers differ.
    Regions {
        /// One per cell.
        cells: Cells,
    },
    /// A loop along the cells' sides, from its steps: `across` has one per
    /// top or bottom side ((rows + 1) × cols), `down` one per left or right
    /// side (rows × (cols + 1)); with dots on the corners.
    Edges {
        /// The steps within rows of corners.
        across: Cells,
        /// The steps within columns of corners.
        down: Cells,
    },
    /// The route of a `grid_loop` over the (rows + 1) × (cols + 1) corners,
    /// drawn along the cells' sides, with dots on the corners.
    Corners {
        /// The grid globals, by their number in the program.
        grids: Vec<usize>,
    },
    /// The routes of every `grid_path` or `grid_loop` over the grid's
    /// cells, drawn through the cells' centres.
    Lines {
        /// The grid globals, by their number in the program.
        grids: Vec<usize>,
    },
}

/// How a shade layer fills its cells.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Fill {
    /// Dark, as nurikabe's sea (`fill = "dark"`, the default).
    Dark,
    /// Light, as a cell singled out (`fill = "light"`).
    Light,
    /// A wall (`fill = "wall"`).
    Wall,
}

/// A mark layer's symbol.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Symbol {
    /// A filled disc (`symbol = "disc"`, the default): a queen, a light.
    Disc,
    /// A ring (`symbol = "ring"`).
    Ring,
    /// A filled square (`symbol = "square"`).
    Square,
}

/// A layer's array over the grid: one value per cell, row by row.
#[derive(Clone, Debug, PartialEq)]
pub struct Cells {
    /// The elements' kind.
    pub base: Base,
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// Row by row.
    pub(crate) elems: Vec<Cell>,
}

/// One element of a layer's array: fixed, a scalar, or an expression over
/// scalars.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Cell {
    Int(IExpr),
    Bool(BExpr),
}

impl Cells {
    /// Number of elements.
    pub fn len(&self) -> usize {
        self.elems.len()
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.elems.is_empty()
    }

    /// The scalar an element is, when it is exactly one decision variable.
    pub fn scalar(&self, k: usize) -> Option<usize> {
        match self.elems.get(k)? {
            Cell::Int(IExpr { kind: super::ir::IKind::Var(v), .. }) | Cell::Bool(BExpr::Var(v)) => Some(*v),
            _ => None,
        }
    }

    /// Whether an element is fixed: a param's value, or one folded from
    /// params.
    pub fn is_fixed(&self, k: usize) -> bool {
        match self.elems.get(k) {
            Some(Cell::Int(e)) => e.as_const().is_some(),
            Some(Cell::Bool(b)) => b.as_const().is_some(),
            None => true,
        }
    }

    /// The value of an element (a Boolean as 0 or 1) when the scalars it
    /// reads are known.
    pub fn value(&self, k: usize, known: Known<'_>) -> Option<i64> {
        match self.elems.get(k)? {
            Cell::Int(e) => e.eval(known),
            Cell::Bool(b) => b.eval(known).map(i64::from),
        }
    }

    /// The scalars an element reads.
    pub fn reads(&self, k: usize) -> Vec<usize> {
        let mut found = std::collections::BTreeSet::new();
        match self.elems.get(k) {
            Some(Cell::Int(e)) => e.read(&[], &mut found),
            Some(Cell::Bool(b)) => super::ir::read_scalars(b, &[]).into_iter().for_each(|s| {
                found.insert(s);
            }),
            None => {}
        }
        found.into_iter().collect()
    }
}

/// The most cells a drawing's grid may have, as many as the most scalars a
/// model may declare.
pub const MAX_CELLS: usize = 1_000_000;

/// The keys that name a layer's kind, for messages.
const KINDS: &str = "one of `text`, `arrows`, `shade`, `mark`, `regions`, `edges`, `corners` or `lines`";

impl Loader<'_> {
    /// Reads the `[draw]` table, after the constraints (whose grid globals
    /// `corners` and `lines` layers draw).
    pub(super) fn drawing(&self, entry: &DrawEntry, grids: &[GridGlobal]) -> Result<Table, LoadError> {
        let rows = self.grid_size(&entry.rows, "rows")?;
        let cols = self.grid_size(&entry.cols, "cols")?;
        if rows * cols > MAX_CELLS {
            return Err(self.source.error_at(
                &entry.cols,
                invalid(format!("a grid of {rows} × {cols} cells"), format!("at most {MAX_CELLS} cells")),
            ));
        }
        let mut table = Table { rows, cols, layers: Vec::new() };
        for layer in entry.layer.iter().flatten() {
            let layer = self.layer(layer, &table, grids)?;
            table.layers.push(layer);
        }
        Ok(table)
    }

    fn grid_size(&self, value: &Spanned<ParamValue>, what: &str) -> Result<usize, LoadError> {
        match self.param(value)? {
            (_, Value::Int(n)) if (1..=100_000).contains(&n) => Ok(n as usize),
            (ty, v) => {
                let found = match v {
                    Value::Int(n) => format!("{what} = {n}"),
                    _ => format!("{what} as {}", ty.describe(&self.enums)),
                };
                Err(self.source.error_at(value, invalid(found, format!("a number of {what} from 1 to 100000"))))
            }
        }
    }

    fn layer(&self, entry: &LayerEntry, table: &Table, grids: &[GridGlobal]) -> Result<Layer, LoadError> {
        let grid = (table.rows, table.cols);
        let kinds = [
            entry.text.as_ref().map(|s| ("text", s.span())),
            entry.arrows.as_ref().map(|s| ("arrows", s.span())),
            entry.shade.as_ref().map(|s| ("shade", s.span())),
            entry.mark.as_ref().map(|s| ("mark", s.span())),
            entry.regions.as_ref().map(|s| ("regions", s.span())),
            entry.edges.as_ref().map(|s| ("edges", s.span())),
            entry.corners.as_ref().map(|s| ("corners", s.span())),
            entry.lines.as_ref().map(|s| ("lines", s.span())),
        ];
        let given: Vec<(&str, std::ops::Range<usize>)> = kinds.into_iter().flatten().collect();
        let kind = match &given[..] {
            [] => {
                let at = [&entry.blank, &entry.value].into_iter().flatten().next().map(|v| v.span().start);
                return Err(self.source.error(at, invalid("a layer of no kind", format!("a layer with {KINDS}"))));
            }
            [_, (second, span), ..] => {
                return Err(self.source.error(
                    Some(span.start),
                    invalid(format!("a second kind, `{second}`, in one layer"), format!("a layer with {KINDS}")),
                ));
            }
            [(kind, _)] => *kind,
        };
        let only = match &entry.only {
            Some(text) => Some(self.fixed_cells(text, grid)?),
            None => None,
        };
        let kind = match kind {
            "text" => self.text_layer(entry, grid)?,
            "arrows" => self.arrows_layer(entry, grid)?,
            "shade" => {
                let text = entry.shade.as_ref().expect("the kind key");
                let value = match &entry.value {
                    Some(v) => Some(self.fixed_scalar(v, "value")?),
                    None => None,
                };
                let cells = self.cells(text, grid, "shade")?;
                if value.is_none() && cells.base != Base::Bool {
                    return Err(self.wrong_base(text, "shade", "a Boolean array, or an array with `value = ...`"));
                }
                let fill = match entry.fill.as_ref().map(|f| (f, f.get_ref().as_str())) {
                    None | Some((_, "dark")) => Fill::Dark,
                    Some((_, "light")) => Fill::Light,
                    Some((_, "wall")) => Fill::Wall,
                    Some((f, other)) => {
                        return Err(self.source.error_at(
                            f,
                            invalid(format!("fill = {other:?}"), "fill = \"dark\", \"light\" or \"wall\""),
                        ));
                    }
                };
                LayerKind::Shade { cells, value, fill }
            }
            "mark" => {
                let text = entry.mark.as_ref().expect("the kind key");
                let cells = self.cells(text, grid, "mark")?;
                if cells.base != Base::Bool {
                    return Err(self.wrong_base(text, "mark", "a Boolean array: a symbol where it is true"));
                }
                let symbol = match entry.symbol.as_ref().map(|s| (s, s.get_ref().as_str())) {
                    None | Some((_, "disc")) => Symbol::Disc,
                    Some((_, "ring")) => Symbol::Ring,
                    Some((_, "square")) => Symbol::Square,
                    Some((s, other)) => {
                        return Err(self.source.error_at(
                            s,
                            invalid(format!("symbol = {other:?}"), "symbol = \"disc\", \"ring\" or \"square\""),
                        ));
                    }
                };
                LayerKind::Mark { cells, symbol }
            }
            "regions" => {
                let text = entry.regions.as_ref().expect("the kind key");
                let cells = self.cells(text, grid, "regions")?;
                if cells.base == Base::Bool {
                    return Err(self.wrong_base(text, "regions", "an array of region numbers or enum values"));
                }
                LayerKind::Regions { cells }
            }
            "edges" => self.edges_layer(entry.edges.as_ref().expect("the kind key"), grid)?,
            "corners" => self.corners_layer(entry.corners.as_ref().expect("the kind key"), grid, grids)?,
            _ => self.lines_layer(entry.lines.as_ref().expect("the kind key"), grid, grids)?,
        };
        self.refuse_unused_options(entry, &kind)?;
        Ok(Layer { kind, only })
    }

    fn text_layer(&self, entry: &LayerEntry, grid: (usize, usize)) -> Result<LayerKind, LoadError> {
        let text = entry.text.as_ref().expect("the kind key");
        let cells = self.cells(text, grid, "text")?;
        if cells.base == Base::Bool {
            return Err(self.wrong_base(
                text,
                "text",
                "numbers or enum values (a Boolean array is drawn by a `shade` or a `mark` layer)",
            ));
        }
        let blank = match &entry.blank {
            Some(v) => Some(self.fixed_scalar(v, "blank")?),
            None => None,
        };
        Ok(LayerKind::Text { cells, blank })
    }

    fn arrows_layer(&self, entry: &LayerEntry, grid: (usize, usize)) -> Result<LayerKind, LoadError> {
        let text = entry.arrows.as_ref().expect("the kind key");
        let cells = self.cells(text, grid, "arrows")?;
        let dirs: Vec<Option<Dir>> = match cells.base {
            Base::Enum(e) => self.enums[e]
                .values
                .iter()
                .map(|name| Dir::ALL.into_iter().find(|d| d.name() == name.as_str()))
                .collect(),
            _ => Vec::new(),
        };
        if dirs.iter().flatten().count() == 0 {
            return Err(self.wrong_base(
                text,
                "arrows",
                "an array of an enum with the values `up`, `down`, `left` or `right`",
            ));
        }
        Ok(LayerKind::Arrows { cells, dirs })
    }

    fn edges_layer(&self, edges: &Spanned<Vec<Spanned<String>>>, grid: (usize, usize)) -> Result<LayerKind, LoadError> {
        let [across, down] = &edges.get_ref()[..] else {
            return Err(self.source.error_at(
                edges,
                invalid(
                    format!("edges with {} arrays", edges.get_ref().len()),
                    "edges = [\"across\", \"down\"]: the steps within rows of corners, then within columns",
                ),
            ));
        };
        let across = self.cells(across, (grid.0 + 1, grid.1), "edges (across)")?;
        let down = self.cells(down, (grid.0, grid.1 + 1), "edges (down)")?;
        for (cells, text) in [(&across, &edges.get_ref()[0]), (&down, &edges.get_ref()[1])] {
            if cells.base != Base::Bool {
                return Err(self.wrong_base(text, "edges", "Boolean arrays of steps"));
            }
        }
        Ok(LayerKind::Edges { across, down })
    }

    fn corners_layer(
        &self,
        text: &Spanned<String>,
        grid: (usize, usize),
        grids: &[GridGlobal],
    ) -> Result<LayerKind, LoadError> {
        let corners = self.cells(text, (grid.0 + 1, grid.1 + 1), "corners")?;
        let on: Vec<Option<&BExpr>> =
            corners.elems.iter().map(|c| if let Cell::Bool(b) = c { Some(b) } else { None }).collect();
        let found: Vec<usize> = (0..grids.len())
            .filter(|&g| {
                grids[g].kind == GridKind::Loop
                    && grids[g].on.len() == on.len()
                    && grids[g].on.iter().zip(&on).all(|(a, b)| Some(a) == *b)
            })
            .collect();
        if found.is_empty() {
            return Err(self.source.error_at(
                text,
                invalid(
                    format!("corners = {:?}, which no `grid_loop` walks", text.get_ref()),
                    "the first argument of a `grid_loop` over the grid's corners",
                ),
            ));
        }
        Ok(LayerKind::Corners { grids: found })
    }

    fn lines_layer(
        &self,
        text: &Spanned<String>,
        grid: (usize, usize),
        grids: &[GridGlobal],
    ) -> Result<LayerKind, LoadError> {
        let name = text.get_ref().as_str();
        if name != "grid_path" && name != "grid_loop" {
            return Err(self
                .source
                .error_at(text, invalid(format!("lines = {name:?}"), "lines = \"grid_path\" or \"grid_loop\"")));
        }
        let found: Vec<usize> = (0..grids.len()).filter(|&g| grids[g].name() == name).collect();
        if let Some(&g) = found.iter().find(|&&g| grids[g].shape() != grid) {
            let (r, c) = grids[g].shape();
            return Err(self.source.error_at(
                text,
                invalid(
                    format!("a `{name}` over {r} × {c} cells"),
                    format!("lines over the grid's {} × {} cells", grid.0, grid.1),
                ),
            ));
        }
        // A model may state its globals under a generator that some
        // parameters leave empty (a numberlink without numbers): it then
        // draws no line. A model that never calls the global is refused.
        if found.is_empty() && !self.source.text().contains(&format!("{name}(")) {
            return Err(self.source.error_at(
                text,
                invalid(format!("lines = {name:?} in a model without `{name}`"), "a grid global the model states"),
            ));
        }
        Ok(LayerKind::Lines { grids: found })
    }

    /// Options that only other kinds of layer take are refused, so that a
    /// misplaced `blank` is not silently ignored.
    fn refuse_unused_options(&self, entry: &LayerEntry, kind: &LayerKind) -> Result<(), LoadError> {
        let takes = |option: &str| match kind {
            LayerKind::Text { .. } => matches!(option, "blank" | "only"),
            LayerKind::Arrows { .. } => option == "only",
            LayerKind::Shade { .. } => matches!(option, "value" | "fill" | "only"),
            LayerKind::Mark { .. } => matches!(option, "symbol" | "only"),
            _ => false,
        };
        let options = [
            ("blank", entry.blank.as_ref().map(|v| v.span())),
            ("value", entry.value.as_ref().map(|v| v.span())),
            ("only", entry.only.as_ref().map(|v| v.span())),
            ("fill", entry.fill.as_ref().map(|v| v.span())),
            ("symbol", entry.symbol.as_ref().map(|v| v.span())),
        ];
        for (option, span) in options {
            if let Some(span) = span.filter(|_| !takes(option)) {
                return Err(self.source.error(
                    Some(span.start),
                    invalid(format!("`{option}` in this kind of layer"), "only the options its kind takes"),
                ));
            }
        }
        Ok(())
    }

    /// A layer over an array of the wrong kind, at its expression.
    fn wrong_base(&self, text: &Spanned<String>, kind: &str, expected: &str) -> LoadError {
        let found = format!("a `{kind}` layer over {:?}", text.get_ref());
        let Ok(expr) = self.parse(text) else { return self.source.error_at(text, invalid(found, expected)) };
        let scope = self.scope();
        let found = match Checker::new(&scope).check(&expr) {
            Ok(ty) => format!("{found}, an {}", ty.describe(&self.enums)),
            Err(_) => found,
        };
        self.fault(Fault::new(expr.span, found, expected))
    }

    /// A layer's expression, checked and unrolled: a 2-D array of `shape`.
    fn cells(&self, text: &Spanned<String>, shape: (usize, usize), kind: &str) -> Result<Cells, LoadError> {
        let expr = self.parse(text)?;
        let scope = self.scope();
        let ty = Checker::new(&scope).check(&expr).map_err(|f| self.fault(f))?;
        let dims = match &ty.shape {
            Shape::Array(index) => index.len(),
            _ => 0,
        };
        if dims != 2 {
            return Err(self.fault(Fault::new(
                expr.span,
                format!("a `{kind}` layer over {}", ty.describe(&self.enums)),
                format!("a 2-D array of {} × {}", shape.0, shape.1),
            )));
        }
        let ctx = self.context();
        let LVal::Array(array) = Lowerer::new(&ctx).lower(&expr).map_err(|f| self.fault(f))? else {
            return Err(self.fault(Fault::new(expr.span, "not an array", "a 2-D array")));
        };
        let size = |(lo, hi): (i64, i64)| (hi - lo + 1).max(0) as usize;
        let found = (size(array.index[0]), size(array.index[1]));
        if found != shape {
            return Err(self.fault(Fault::new(
                expr.span,
                format!("a `{kind}` layer over an array of {} × {}", found.0, found.1),
                format!("{} × {}, to match the grid's {} rows and {} columns", shape.0, shape.1, shape.0, shape.1),
            )));
        }
        let elems = array
            .elems
            .into_iter()
            .map(|e| match e {
                LVal::Int(i, _) => Ok(Cell::Int(i)),
                LVal::Bool(b) => Ok(Cell::Bool(b)),
                _ => Err(self.fault(Fault::new(expr.span, "an array of arrays or sets", "an array of values"))),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let base = if array.base == Base::Any { Base::Int } else { array.base };
        Ok(Cells { base, rows: shape.0, cols: shape.1, elems })
    }

    /// `only`: a fixed Boolean array over the grid.
    fn fixed_cells(&self, text: &Spanned<String>, grid: (usize, usize)) -> Result<Vec<bool>, LoadError> {
        let cells = self.cells(text, grid, "only")?;
        let none = |_: usize| None;
        let values: Option<Vec<bool>> = (0..cells.len())
            .map(|k| cells.value(k, &none).map(|v| v != 0).filter(|_| cells.base == Base::Bool))
            .collect();
        values.ok_or_else(|| {
            self.source.error_at(text, invalid(format!("only = {:?}", text.get_ref()), "a fixed Boolean array"))
        })
    }

    /// `blank` or `value`: an integer, a Boolean, or a fixed expression (an
    /// enum value's name).
    fn fixed_scalar(&self, value: &Spanned<ParamValue>, what: &str) -> Result<i64, LoadError> {
        match self.param(value)? {
            (_, Value::Int(v)) => Ok(v),
            (_, Value::Bool(b)) => Ok(i64::from(b)),
            (ty, _) => Err(self.source.error_at(
                value,
                invalid(format!("{what} as {}", ty.describe(&self.enums)), "a number, a Boolean or an enum value"),
            )),
        }
    }
}
