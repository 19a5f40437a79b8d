//! A model's drawing table, `[draw]`: how to draw it as a grid of R × C
//! cells, in layers, each an expression over the model's params and vars,
//! checked and unrolled like a constraint. Every fault (a layer naming an
//! unknown array, an array whose shape is not the grid's, a text layer over
//! Booleans, an unknown side or colour) is reported at its place in the
//! file.
//!
//! ```toml
//! [draw]
//! rows = 10                       # or a fixed expression: rows = "n"
//! cols = 10
//! col_width = 1                   # cells this many times wider than tall
//!
//! [[draw.layer]]
//! text = "clue"                   # numbers or enum names, one per cell
//! blank = -1                      # the value drawn as nothing
//!
//! [[draw.layer]]
//! edges = ["across", "down"]      # a loop along the cells' sides
//! ```
//!
//! Layers are drawn in order, any number of each kind: two `regions`
//! layers draw two kinds of border. The layers' kinds are in
//! [`LayerKind`], their styles in `style`. The table says what to draw,
//! never how: the csp adapter turns it and what is known of the scalars into
//! a [`crate::draw::Scene`].

mod style;

use std::collections::BTreeMap;

use serde::Deserialize;

pub use style::{BorderStyle, CellCorner, Colour, GridSide, Symbol, TextAt, parse_colour};

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
    col_width: Option<Spanned<ParamValue>>,
    layer: Option<Vec<LayerEntry>>,
}

/// `fill`: a word for a shade layer, a table of colours by value for a
/// mark layer.
#[derive(Deserialize)]
#[serde(untagged)]
enum FillEntry {
    Word(String),
    ByValue(BTreeMap<String, String>),
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
    links: Option<Spanned<Vec<Spanned<String>>>>,
    corners: Option<Spanned<String>>,
    lines: Option<Spanned<String>>,
    outside: Option<Spanned<String>>,
    blank: Option<Spanned<ParamValue>>,
    value: Option<Spanned<ParamValue>>,
    only: Option<Spanned<String>>,
    fill: Option<Spanned<FillEntry>>,
    symbol: Option<Spanned<String>>,
    at: Option<Spanned<String>>,
    side: Option<Spanned<String>>,
    border: Option<Spanned<String>>,
    colour: Option<Spanned<String>>,
    size: Option<Spanned<f64>>,
    names: Option<Spanned<BTreeMap<String, String>>>,
    number: Option<Spanned<String>>,
    clues_only: Option<Spanned<bool>>,
}

/// How to draw a model as a grid.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// Rows of cells.
    pub rows: usize,
    /// Columns of cells.
    pub cols: usize,
    /// How many times wider than tall a cell is drawn (`col_width`, 1 to
    /// 10; 1 unless given), for a grid of names.
    pub col_width: usize,
    /// The layers, each drawn over the ones before.
    pub layers: Vec<Layer>,
}

/// One layer: what it draws, in which cells (all, unless `only`), in
/// which colour and size (the drawing's own, unless given).
#[derive(Clone, Debug, PartialEq)]
pub struct Layer {
    /// What it draws.
    pub kind: LayerKind,
    /// The cells it draws in, row by row; `None`: every cell.
    pub only: Option<Vec<bool>>,
    /// `colour`: the colour of its labels, marks or lines.
    pub colour: Option<Colour>,
    /// `size`: its labels' or marks' size, in hundredths of a cell.
    pub size: Option<u8>,
}

/// How each value of an array is written: `names = { 1 = "+", add = "+" }`
/// (a value without a name is written as itself).
pub type Names = Vec<(i64, String)>;

/// What a layer draws.
#[derive(Clone, Debug, PartialEq)]
pub enum LayerKind {
    /// A number or an enum value's name in each cell, nothing where the
    /// value is `blank`; in the middle, or small in the corner.
    Text {
        /// One per cell.
        cells: Cells,
        /// The value that stands for "no clue".
        blank: Option<i64>,
        /// Where the labels stand.
        at: TextAt,
        /// How values are written.
        names: Names,
    },
    /// An arrow in each cell, from an enum whose values include `up`,
    /// `down`, `left` and `right` (other values draw nothing), with a
    /// number beside it when `number` gives one (a Yajilin clue).
    Arrows {
        /// One per cell.
        cells: Cells,
        /// The direction of each enum value, from value 1.
        dirs: Vec<Option<Dir>>,
        /// The number beside each arrow.
        number: Option<Cells>,
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
    /// A symbol in each cell where a Boolean array is true, where an array
    /// equals `value`, or where its value has a colour in `fill`.
    Mark {
        /// One per cell.
        cells: Cells,
        /// The symbol.
        symbol: Symbol,
        /// The value that draws the symbol; `None`: true, or any value
        /// `fills` names.
        value: Option<i64>,
        /// The symbol's colour by value (Masyu's white and black pearls).
        fills: Vec<(i64, Colour)>,
    },
    /// Borders between cells whose region numbers differ.
    Regions {
        /// One per cell.
        cells: Cells,
        /// How the borders are drawn.
        border: BorderStyle,
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
    /// A loop through the cells' centres, from its steps: `across` has one
    /// per pair of neighbours in a row (rows × (cols - 1)), `down` one per
    /// pair in a column ((rows - 1) × cols). What is known is drawn, what
    /// is known not to be crossed, the rest left blank.
    Links {
        /// The steps within rows of cells.
        across: Cells,
        /// The steps within columns of cells.
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
    /// Clues outside the grid along one side: a 1-D array with one clue per
    /// row (left, right) or column (top, bottom), or a 2-D array with a
    /// list of clues per row or column (a nonogram's), written away from
    /// the grid in reading order, the `blank` ones left out.
    Outside {
        /// One row per line of the grid, one column per clue of its list.
        cells: Cells,
        /// The side.
        side: GridSide,
        /// The value that stands for "no clue".
        blank: Option<i64>,
        /// How values are written.
        names: Names,
        /// Whether only fixed entries (clues) are drawn, not the values a
        /// solution gives a variable entry.
        clues_only: bool,
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
const KINDS: &str =
    "one of `text`, `arrows`, `shade`, `mark`, `regions`, `edges`, `links`, `corners`, `lines` or `outside`";

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
        let col_width = match &entry.col_width {
            Some(width) => match self.param(width)? {
                (_, Value::Int(w)) if (1..=10).contains(&w) => w as usize,
                _ => {
                    return Err(self
                        .source
                        .error_at(width, invalid("this col_width", "a whole number of cells from 1 to 10")));
                }
            },
            None => 1,
        };
        let mut table = Table { rows, cols, col_width, layers: Vec::new() };
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

    /// The one kind key a layer has, refused when it has none or several.
    fn kind_of(&self, entry: &LayerEntry) -> Result<&'static str, LoadError> {
        let kinds = [
            entry.text.as_ref().map(|s| ("text", s.span())),
            entry.arrows.as_ref().map(|s| ("arrows", s.span())),
            entry.shade.as_ref().map(|s| ("shade", s.span())),
            entry.mark.as_ref().map(|s| ("mark", s.span())),
            entry.regions.as_ref().map(|s| ("regions", s.span())),
            entry.edges.as_ref().map(|s| ("edges", s.span())),
            entry.links.as_ref().map(|s| ("links", s.span())),
            entry.corners.as_ref().map(|s| ("corners", s.span())),
            entry.lines.as_ref().map(|s| ("lines", s.span())),
            entry.outside.as_ref().map(|s| ("outside", s.span())),
        ];
        let given: Vec<(&'static str, std::ops::Range<usize>)> = kinds.into_iter().flatten().collect();
        match &given[..] {
            [] => {
                let at = [&entry.blank, &entry.value].into_iter().flatten().next().map(|v| v.span().start);
                Err(self.source.error(at, invalid("a layer of no kind", format!("a layer with {KINDS}"))))
            }
            [_, (second, span), ..] => Err(self.source.error(
                Some(span.start),
                invalid(format!("a second kind, `{second}`, in one layer"), format!("a layer with {KINDS}")),
            )),
            [(kind, _)] => Ok(kind),
        }
    }

    fn layer(&self, entry: &LayerEntry, table: &Table, grids: &[GridGlobal]) -> Result<Layer, LoadError> {
        let grid = (table.rows, table.cols);
        let kind = self.kind_of(entry)?;
        self.refuse_unused_options(entry, kind)?;
        let only = match &entry.only {
            Some(text) => Some(self.fixed_cells(text, grid)?),
            None => None,
        };
        let colour = entry.colour.as_ref().map(|c| self.colour(c)).transpose()?;
        let size = entry.size.as_ref().map(|s| self.size(s)).transpose()?;
        let kind = match kind {
            "text" => self.text_layer(entry, grid)?,
            "arrows" => self.arrows_layer(entry, grid)?,
            "shade" => self.shade_layer(entry, grid)?,
            "mark" => self.mark_layer(entry, grid)?,
            "regions" => {
                let text = entry.regions.as_ref().expect("the kind key");
                let cells = self.cells(text, grid, "regions")?;
                if cells.base == Base::Bool {
                    return Err(self.wrong_base(text, "regions", "an array of region numbers or enum values"));
                }
                let styles =
                    [("heavy", BorderStyle::Heavy), ("thin", BorderStyle::Thin), ("dashed", BorderStyle::Dashed)];
                let border = match &entry.border {
                    Some(b) => self.choice("border", b, &styles)?,
                    None => BorderStyle::Heavy,
                };
                LayerKind::Regions { cells, border }
            }
            "edges" => {
                let steps = entry.edges.as_ref().expect("the kind key");
                let (across, down) = self.steps(steps, "edges", (grid.0 + 1, grid.1), (grid.0, grid.1 + 1))?;
                LayerKind::Edges { across, down }
            }
            "links" => {
                let steps = entry.links.as_ref().expect("the kind key");
                let shapes = ((grid.0, grid.1.saturating_sub(1)), (grid.0.saturating_sub(1), grid.1));
                let (across, down) = self.steps(steps, "links", shapes.0, shapes.1)?;
                LayerKind::Links { across, down }
            }
            "corners" => self.corners_layer(entry.corners.as_ref().expect("the kind key"), grid, grids)?,
            "lines" => self.lines_layer(entry.lines.as_ref().expect("the kind key"), grid, grids)?,
            _ => self.outside_layer(entry, grid)?,
        };
        Ok(Layer { kind, only, colour, size })
    }

    /// `blank = v`, when given.
    fn blank(&self, entry: &LayerEntry) -> Result<Option<i64>, LoadError> {
        entry.blank.as_ref().map(|v| self.fixed_scalar(v, "blank")).transpose()
    }

    /// `names = { ... }` over an array of `base`.
    fn names(&self, entry: &LayerEntry, base: Base) -> Result<Names, LoadError> {
        match &entry.names {
            Some(table) => self.keyed("names", table, base, |t| Some(t.to_string()), "a text"),
            None => Ok(Vec::new()),
        }
    }

    fn text_layer(&self, entry: &LayerEntry, grid: (usize, usize)) -> Result<LayerKind, LoadError> {
        let text = entry.text.as_ref().expect("the kind key");
        let at = match &entry.at {
            Some(at) => self.choice("at", at, &[("middle", TextAt::Middle), ("corner", TextAt::Corner)])?,
            None => TextAt::Middle,
        };
        let kind = if at == TextAt::Corner { "text (at the corner)" } else { "text" };
        let cells = self.cells(text, grid, kind)?;
        if cells.base == Base::Bool {
            return Err(self.wrong_base(
                text,
                "text",
                "numbers or enum values (a Boolean array is drawn by a `shade` or a `mark` layer)",
            ));
        }
        let names = self.names(entry, cells.base)?;
        Ok(LayerKind::Text { blank: self.blank(entry)?, at, names, cells })
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
        let number = match &entry.number {
            Some(number) => {
                let cells = self.cells(number, grid, "arrows (number)")?;
                if cells.base == Base::Bool {
                    return Err(self.wrong_base(number, "arrows (number)", "an array of numbers"));
                }
                Some(cells)
            }
            None => None,
        };
        Ok(LayerKind::Arrows { cells, dirs, number })
    }

    fn shade_layer(&self, entry: &LayerEntry, grid: (usize, usize)) -> Result<LayerKind, LoadError> {
        let text = entry.shade.as_ref().expect("the kind key");
        let value = entry.value.as_ref().map(|v| self.fixed_scalar(v, "value")).transpose()?;
        let cells = self.cells(text, grid, "shade")?;
        if value.is_none() && cells.base != Base::Bool {
            return Err(self.wrong_base(text, "shade", "a Boolean array, or an array with `value = ...`"));
        }
        let fills = [("dark", Fill::Dark), ("light", Fill::Light), ("wall", Fill::Wall)];
        let fill = match &entry.fill {
            None => Fill::Dark,
            Some(f) => match f.get_ref() {
                FillEntry::Word(word) => self.choice("fill", &Spanned::new(f.span(), word.clone()), &fills)?,
                FillEntry::ByValue(_) => {
                    return Err(self.source.error_at(
                        f,
                        invalid("a table of colours in a shade layer", "fill = \"dark\", \"light\" or \"wall\""),
                    ));
                }
            },
        };
        Ok(LayerKind::Shade { cells, value, fill })
    }

    fn mark_layer(&self, entry: &LayerEntry, grid: (usize, usize)) -> Result<LayerKind, LoadError> {
        let text = entry.mark.as_ref().expect("the kind key");
        let cells = self.cells(text, grid, "mark")?;
        let value = entry.value.as_ref().map(|v| self.fixed_scalar(v, "value")).transpose()?;
        let fills = match &entry.fill {
            None => Vec::new(),
            Some(f) => match f.get_ref() {
                FillEntry::ByValue(table) => {
                    let table = Spanned::new(f.span(), table.clone());
                    self.keyed("fill", &table, cells.base, parse_colour, "a colour: \"#rrggbb\" or a colour's name")?
                }
                FillEntry::Word(word) => {
                    return Err(self.source.error_at(
                        f,
                        invalid(
                            format!("fill = {word:?} in a mark layer"),
                            "a colour per value, as fill = { 1 = \"white\", 2 = \"black\" }",
                        ),
                    ));
                }
            },
        };
        if cells.base != Base::Bool && value.is_none() && fills.is_empty() {
            return Err(self.wrong_base(
                text,
                "mark",
                "a Boolean array (a symbol where it is true), or an array with `value = ...` or a `fill` table",
            ));
        }
        let symbol = self.symbol(entry.symbol.as_ref(), entry.at.as_ref())?;
        Ok(LayerKind::Mark { cells, symbol, value, fills })
    }

    /// The two arrays of steps of an `edges` or `links` layer.
    fn steps(
        &self,
        steps: &Spanned<Vec<Spanned<String>>>,
        kind: &str,
        across_shape: (usize, usize),
        down_shape: (usize, usize),
    ) -> Result<(Cells, Cells), LoadError> {
        let [across, down] = &steps.get_ref()[..] else {
            return Err(self.source.error_at(
                steps,
                invalid(
                    format!("{kind} with {} arrays", steps.get_ref().len()),
                    format!("{kind} = [\"across\", \"down\"]: the steps within rows, then within columns"),
                ),
            ));
        };
        let across_cells = self.cells(across, across_shape, &format!("{kind} (across)"))?;
        let down_cells = self.cells(down, down_shape, &format!("{kind} (down)"))?;
        for (cells, text) in [(&across_cells, across), (&down_cells, down)] {
            if cells.base != Base::Bool {
                return Err(self.wrong_base(text, kind, "Boolean arrays of steps"));
            }
        }
        Ok((across_cells, down_cells))
    }

    fn outside_layer(&self, entry: &LayerEntry, grid: (usize, usize)) -> Result<LayerKind, LoadError> {
        let text = entry.outside.as_ref().expect("the kind key");
        let Some(side) = &entry.side else {
            return Err(self.source.error_at(
                text,
                invalid("an `outside` layer without a side", "side = \"top\", \"bottom\", \"left\" or \"right\""),
            ));
        };
        let side = self.side(side)?;
        let lines = match side {
            GridSide::Top | GridSide::Bottom => grid.1,
            GridSide::Left | GridSide::Right => grid.0,
        };
        let cells = self.outside_cells(text, lines)?;
        if cells.base == Base::Bool {
            return Err(self.wrong_base(text, "outside", "numbers or enum values"));
        }
        let names = self.names(entry, cells.base)?;
        let clues_only = entry.clues_only.as_ref().is_some_and(|c| *c.get_ref());
        Ok(LayerKind::Outside { blank: self.blank(entry)?, names, clues_only, side, cells })
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
    fn refuse_unused_options(&self, entry: &LayerEntry, kind: &str) -> Result<(), LoadError> {
        let takes = |option: &str| match kind {
            "text" => matches!(option, "blank" | "only" | "at" | "names" | "colour" | "size"),
            "arrows" => matches!(option, "only" | "number" | "colour" | "size"),
            "shade" => matches!(option, "value" | "fill" | "only"),
            "mark" => matches!(option, "value" | "symbol" | "fill" | "at" | "only" | "colour" | "size"),
            "regions" => matches!(option, "border" | "colour"),
            "edges" | "links" | "lines" => option == "colour",
            "outside" => matches!(option, "side" | "blank" | "names" | "clues_only" | "colour"),
            _ => false,
        };
        let span = |v: Option<std::ops::Range<usize>>| v;
        let options = [
            ("blank", span(entry.blank.as_ref().map(|v| v.span()))),
            ("value", entry.value.as_ref().map(|v| v.span())),
            ("only", entry.only.as_ref().map(|v| v.span())),
            ("fill", entry.fill.as_ref().map(|v| v.span())),
            ("symbol", entry.symbol.as_ref().map(|v| v.span())),
            ("at", entry.at.as_ref().map(|v| v.span())),
            ("side", entry.side.as_ref().map(|v| v.span())),
            ("border", entry.border.as_ref().map(|v| v.span())),
            ("colour", entry.colour.as_ref().map(|v| v.span())),
            ("size", entry.size.as_ref().map(|v| v.span())),
            ("names", entry.names.as_ref().map(|v| v.span())),
            ("number", entry.number.as_ref().map(|v| v.span())),
            ("clues_only", entry.clues_only.as_ref().map(|v| v.span())),
        ];
        for (option, span) in options {
            if let Some(span) = span.filter(|_| !takes(option)) {
                return Err(self.source.error(
                    Some(span.start),
                    invalid(format!("`{option}` in a `{kind}` layer"), "only the options its kind takes"),
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
        let expected = format!("a 2-D array of {} × {}", shape.0, shape.1);
        let (span, array) = self.lowered(text, kind, &[2], &expected)?;
        let size = |(lo, hi): (i64, i64)| (hi - lo + 1).max(0) as usize;
        let found = (size(array.index[0]), size(array.index[1]));
        if found != shape {
            return Err(self.fault(Fault::new(
                span,
                format!("a `{kind}` layer over an array of {} × {}", found.0, found.1),
                format!("{} × {}, to match the grid's {} rows and {} columns", shape.0, shape.1, shape.0, shape.1),
            )));
        }
        self.elements(span, array, shape)
    }

    /// An `outside` layer's expression: a 1-D array of `lines` clues, or a
    /// 2-D array of `lines` lists of clues.
    fn outside_cells(&self, text: &Spanned<String>, lines: usize) -> Result<Cells, LoadError> {
        let expected = format!("a 1-D array of {lines} clues, or a 2-D array of {lines} lists of clues");
        let (span, array) = self.lowered(text, "outside", &[1, 2], &expected)?;
        let size = |(lo, hi): (i64, i64)| (hi - lo + 1).max(0) as usize;
        let found = size(array.index[0]);
        if found != lines {
            return Err(self.fault(Fault::new(
                span,
                format!("an `outside` layer over {found} lines of clues"),
                format!("{lines}, one per line of the grid along its side"),
            )));
        }
        let width = array.index.get(1).map_or(1, |&range| size(range));
        self.elements(span, array, (lines, width))
    }

    /// A layer's expression, checked and unrolled: an array with one of
    /// `dims` dimensions.
    fn lowered(
        &self,
        text: &Spanned<String>,
        kind: &str,
        dims: &[usize],
        expected: &str,
    ) -> Result<(super::syntax::Span, super::lower::LArray), LoadError> {
        let expr = self.parse(text)?;
        let scope = self.scope();
        let ty = Checker::new(&scope).check(&expr).map_err(|f| self.fault(f))?;
        let found = match &ty.shape {
            Shape::Array(index) => index.len(),
            _ => 0,
        };
        if !dims.contains(&found) {
            return Err(self.fault(Fault::new(
                expr.span,
                format!("a `{kind}` layer over {}", ty.describe(&self.enums)),
                expected.to_string(),
            )));
        }
        let ctx = self.context();
        let LVal::Array(array) = Lowerer::new(&ctx).lower(&expr).map_err(|f| self.fault(f))? else {
            return Err(self.fault(Fault::new(expr.span, "not an array", expected.to_string())));
        };
        Ok((expr.span, array))
    }

    /// An unrolled array's elements as a layer's cells of `shape`.
    fn elements(
        &self,
        span: super::syntax::Span,
        array: super::lower::LArray,
        shape: (usize, usize),
    ) -> Result<Cells, LoadError> {
        let elems = array
            .elems
            .into_iter()
            .map(|e| match e {
                LVal::Int(i, _) => Ok(Cell::Int(i)),
                LVal::Bool(b) => Ok(Cell::Bool(b)),
                _ => Err(self.fault(Fault::new(span, "an array of arrays or sets", "an array of values"))),
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
