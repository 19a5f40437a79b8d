//! What `generate` asks of a family: a [`Designer`] draws a random
//! solution from a template, as a [`Draft`] that names the clues it gives
//! and writes the model's text with any of them kept. Each family's
//! designer lives in its own folder and is registered in
//! [`super::FAMILIES`]; the driver that drops clues and recounts knows
//! only these traits.

use std::ops::Range;

use serde::Deserialize;

use crate::model::{LoadError, Source, Spanned};
use crate::puzzles::{Error, Puzzle, SolveOptions, Status};
use crate::rng::SplitMix64;
use crate::solver::{SolveStats, SolverConfig};

/// A clue's cell in its array's grid, for the symmetries.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Slot {
    /// Which of the designer's clue arrays.
    pub array: usize,
    /// Row and column; `None` for a clue off any grid (dropped alone).
    pub place: Option<(usize, usize)>,
    /// The array's rows and columns.
    pub extent: (usize, usize),
}

/// Which clues are dropped together, so the clues left are symmetric; a
/// designer whose kind allows it draws a symmetric layout too.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Symmetry {
    /// Each clue alone.
    #[default]
    None,
    /// A clue and the one turned half a turn about the grid's centre.
    Rot180,
    /// A clue and its mirror image across the vertical axis.
    Mirror,
}

impl Symmetry {
    /// The image of cell `(r, c)` of a grid of `(rows, cols)`; `None` with
    /// no symmetry.
    ///
    /// ```
    /// use somaria::puzzles::design::Symmetry;
    /// assert_eq!(Symmetry::Rot180.image((0, 1), (3, 4)), Some((2, 2)));
    /// assert_eq!(Symmetry::Mirror.image((0, 1), (3, 4)), Some((0, 2)));
    /// assert_eq!(Symmetry::None.image((0, 1), (3, 4)), None);
    /// ```
    pub fn image(self, (r, c): (usize, usize), (rows, cols): (usize, usize)) -> Option<(usize, usize)> {
        match self {
            Symmetry::None => None,
            Symmetry::Rot180 => Some((rows - 1 - r, cols - 1 - c)),
            Symmetry::Mirror => Some((r, cols - 1 - c)),
        }
    }

    /// Its name as `--symmetry` spells it.
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Rot180 => "rot180",
            Symmetry::Mirror => "mirror",
        }
    }
}

/// How dropping a clue acts on the drawn solution.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Drops {
    /// A clue only narrows the solutions: the drawn solution stays one
    /// whatever is dropped, so a check that finds none is a bug, and a clue
    /// that cannot be dropped never can once others are gone.
    Narrow,
    /// A dropped clue changes the puzzle (a wall that becomes a tile the
    /// route must cover): a drop may leave no solution, the one solution
    /// may move, and a clue kept once may be dropped after others are.
    Reshape,
    /// The puzzle reads which clues are present (a template constraint on
    /// how many clues there are): a drop may rule the drawn solution out,
    /// and then keeps its clue ([`Draft::holds`] says, and a check finds
    /// no solution); a drawn solution that its own clues rule out is drawn
    /// again; and, as with [`Drops::Reshape`], a clue kept once may be
    /// dropped after others are. The one solution is always the drawn one.
    Anchored,
}

/// A kind of puzzle `generate` can make from a template.
pub trait Designer: Sync {
    /// The template's file name, for messages and the generated models.
    fn name(&self) -> &str;

    /// A random solution, which depends on `rng` alone; `None` when the
    /// template has none. A kind that allows `symmetry` ([`Designer::allows`])
    /// draws a layout whose clues are symmetric, where it has one.
    fn draw<'a>(
        &'a self,
        rng: &mut SplitMix64,
        solver: &SolverConfig,
        symmetry: Symmetry,
    ) -> Result<Option<Box<dyn Draft + 'a>>, Error>;

    /// Whether the kind's clues can be kept in `symmetry`'s pairs; `Err`
    /// says why not. By default only [`Symmetry::None`]: a kind whose clues
    /// have no images says so rather than ignore the option.
    fn allows(&self, symmetry: Symmetry) -> Result<(), String> {
        match symmetry {
            Symmetry::None => Ok(()),
            _ => Err(format!("{}: this kind of puzzle has no symmetric form", self.name())),
        }
    }

    /// Whether a puzzle needs a clue to be one: a csp template's clue
    /// arrays are the puzzle, and one with every clue dropped is the same
    /// puzzle each time (refused); a vault's walls are scenery, and a
    /// vault with none is still a vault.
    fn needs_clues(&self) -> bool {
        false
    }

    /// How dropping a clue acts; most designers' clues narrow.
    fn drops(&self) -> Drops {
        Drops::Narrow
    }

    /// A figure of a puzzle's one solution that the kind rates its puzzles
    /// by (a vault's fewest steps), reported with each puzzle and compared
    /// by `--difficulty` in place of `steps`' rating; `None` (the default)
    /// rates by `steps`.
    fn measure(&self, _solution: &serde_json::Value) -> Option<Measure> {
        None
    }
}

/// A figure a kind rates its puzzles by.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Measure {
    /// What it counts, for people: "fewest steps".
    pub name: &'static str,
    /// Its value.
    pub value: usize,
}

/// A random solution with the clues it gives.
pub trait Draft: Send {
    /// The clues, one slot each.
    fn slots(&self) -> Vec<Slot>;

    /// The model's text with the clues in `kept` (one flag per slot).
    fn write(&self, kept: &[bool]) -> String;

    /// The one solution of the puzzle with the clues in `kept`, as `solve
    /// --format json` writes it under `"solution"` (those members the
    /// recount compares). A designer whose drops reshape the puzzle finds
    /// it on the written text, with an engine of its own choosing.
    fn solution(&self, kept: &[bool], solver: &SolverConfig) -> Result<serde_json::Value, Error>;

    /// Whether the drawn solution is one of the puzzle with the clues in
    /// `kept`, by a check that shares nothing with the encodings; asked
    /// before each check that loads the written text, for a designer whose
    /// drops are [`Drops::Anchored`] (a kept solver asks it itself), and
    /// once on every clue for [`Drops::Narrow`].
    fn holds(&self, _kept: &[bool]) -> Result<bool, Error> {
        Ok(true)
    }

    /// One solver that answers every uniqueness check of this draft, the
    /// clues switched on and off by assumptions; `None` when the designer
    /// has none, and each check loads the written text afresh instead.
    fn clue_solver<'s>(
        &'s self,
        _engine: Option<&str>,
        _solver: &SolverConfig,
    ) -> Result<Option<Box<dyn ClueSolver + 's>>, Error> {
        Ok(None)
    }
}

/// What a count up to 2 found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// No solution.
    None,
    /// Exactly one.
    Unique,
    /// Two or more.
    Several,
    /// The budget ran out first.
    OverBudget,
}

/// Uniqueness checks of one draft on one solver kept between them.
pub trait ClueSolver {
    /// The count up to 2 of the puzzle with the clues in `kept` (one flag
    /// per slot of the draft); for a designer whose drops are
    /// [`Drops::Anchored`], [`Verdict::None`] when the drawn solution is
    /// not one of that puzzle.
    fn verdict(&mut self, kept: &[bool]) -> Result<Verdict, Error>;

    /// The solver's counters so far.
    fn stats(&self) -> SolveStats;
}

/// A family's designer from a template of its kind.
pub type DesignerOf = fn(&Source) -> Result<Box<dyn Designer>, LoadError>;

/// A built-in family's `[design]` table: a title for the generated puzzles
/// alone, since the family's clues (weathercocks, walls) are fixed by its
/// kind. Its loader reads the table so that a misspelt key or a title that
/// is not a string is refused at its place.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FamilyDesign {
    /// The title of a generated puzzle, in place of the template's.
    pub title: Option<Spanned<String>>,
}

#[derive(Deserialize)]
struct TitleOnly {
    title: Option<Spanned<String>>,
}

#[derive(Deserialize)]
struct DesignOnly {
    design: Option<FamilyDesign>,
}

/// Where a design's `title` goes in a template's text and what is written
/// there: over the value of the template's own `title`, or a line of its
/// own at the top when it has none.
pub fn title_edit(source: &Source, title: &str) -> Result<(Range<usize>, String), LoadError> {
    let quoted = toml::Value::String(title.to_string()).to_string();
    let file: TitleOnly = source.parse()?;
    // A line of its own goes after a byte-order mark, which must stay first.
    let top = if source.text().starts_with(BOM) { BOM.len_utf8() } else { 0 };
    Ok(match file.title {
        Some(old) => (old.span(), quoted),
        None => (top..top, format!("title = {quoted}\n")),
    })
}

/// [`title_edit`] for a family's template: the edit of its `[design]`
/// title, if it has one.
pub fn family_title_edit(source: &Source) -> Result<Option<(Range<usize>, String)>, LoadError> {
    let file: DesignOnly = source.parse()?;
    match file.design.and_then(|d| d.title) {
        Some(title) => title_edit(source, title.get_ref()).map(Some),
        None => Ok(None),
    }
}

/// `text` with each range replaced by its string; the ranges must not
/// overlap (they are applied from the last, so none moves another).
///
/// ```
/// use somaria::puzzles::design::rewrite;
/// assert_eq!(rewrite("kind = 1\ngrid = 2\n", vec![(16..17, "\"x\"".into()), (0..0, "# a\n".into())]),
///            "# a\nkind = 1\ngrid = \"x\"\n");
/// ```
pub fn rewrite(text: &str, mut edits: Vec<(Range<usize>, String)>) -> String {
    edits.sort_by_key(|(span, _)| std::cmp::Reverse((span.start, span.end)));
    let ending = line_ending(text);
    let mut out = text.to_string();
    for (span, written) in edits {
        out.replace_range(span, &with_line_ending(&written, ending));
    }
    out
}

/// The byte-order mark a template may start with: what is written from it
/// keeps the mark first, where a reader looks for it.
pub const BOM: char = '\u{feff}';

/// A text's line ending: `"\r\n"` when its first line ends so, else `"\n"`.
///
/// ```
/// use somaria::puzzles::design::line_ending;
/// assert_eq!(line_ending("a = 1\r\nb = 2\r\n"), "\r\n");
/// assert_eq!(line_ending("a = 1\nb = 2\r\n"), "\n");
/// assert_eq!(line_ending("a = 1"), "\n");
/// ```
pub fn line_ending(text: &str) -> &'static str {
    match text.find('\n') {
        Some(at) if text[..at].ends_with('\r') => "\r\n",
        _ => "\n",
    }
}

/// `written` (whose lines end in `"\n"`) with its lines ending in `ending`.
///
/// ```
/// use somaria::puzzles::design::with_line_ending;
/// assert_eq!(with_line_ending("a\nb\r\nc", "\r\n"), "a\r\nb\r\nc");
/// assert_eq!(with_line_ending("a\nb", "\n"), "a\nb");
/// ```
pub fn with_line_ending(written: &str, ending: &str) -> String {
    if ending == "\n" {
        return written.to_string();
    }
    let mut out = String::with_capacity(written.len() + written.len() / 16);
    let mut last = '\0';
    for c in written.chars() {
        if c == '\n' && last != '\r' {
            out.push('\r');
        }
        out.push(c);
        last = c;
    }
    out
}

/// `header` (lines ending in `"\n"`) put at the top of `body`: after its
/// byte-order mark, if it has one, and in its line ending.
///
/// ```
/// use somaria::puzzles::design::above;
/// assert_eq!(above("# made\n", "\u{feff}a = 1\r\n"), "\u{feff}# made\r\na = 1\r\n");
/// assert_eq!(above("# made\n", "a = 1\n"), "# made\na = 1\n");
/// ```
pub fn above(header: &str, body: &str) -> String {
    let (mark, rest) = match body.strip_prefix(BOM) {
        Some(rest) => (&body[..BOM.len_utf8()], rest),
        None => ("", body),
    };
    format!("{mark}{}{rest}", with_line_ending(header, line_ending(rest)))
}

/// A family model's text with its grid string replaced by `rows` (and its
/// title by the design table's, if any).
pub fn rewrite_grid(
    text: &str,
    grid_span: &Range<usize>,
    title: Option<&(Range<usize>, String)>,
    rows: &[String],
) -> String {
    let grid = (grid_span.clone(), format!("\"\"\"\n{}\n\"\"\"", rows.join("\n")));
    rewrite(text, std::iter::once(grid).chain(title.cloned()).collect())
}

/// The solution of a written model found by `engine`, another than the one
/// its recount uses, so that two encodings must agree; `what` names the
/// model in the errors ("vault", "room").
pub fn solve_written(
    puzzle: Result<impl Puzzle, LoadError>,
    engine: &str,
    solver: &SolverConfig,
    what: &str,
) -> Result<serde_json::Value, Error> {
    let puzzle = puzzle.map_err(|e| Error::Internal(format!("a generated {what} does not load: {e}")))?;
    let options = SolveOptions { engine: Some(engine.to_string()), solver: solver.clone(), ..SolveOptions::default() };
    let report = puzzle.solve(&options)?;
    match report.solution {
        Some(solution) if report.status == Status::Solved => Ok(solution.json),
        _ => Err(Error::CheckFailed(format!(
            "a generated {what} has no route by the {engine} engine, though its count found one"
        ))),
    }
}
