//! Reading and validating a `kind = "tile-cover"` model.

use serde::Deserialize;

use super::{Cell, SYMBOLS, TileCoverPuzzle};
use crate::model::{LoadError, Problem, Source, Spanned};
use crate::puzzles::Puzzle;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TileCoverFile {
    #[allow(dead_code)]
    kind: String,
    title: Option<String>,
    #[allow(dead_code)]
    description: Option<String>,
    grid: Spanned<String>,
    leave_uncovered: Option<Spanned<i64>>,
    /// Read here so that a malformed table is refused by every command;
    /// `generate` uses its title.
    #[allow(dead_code)]
    design: Option<crate::puzzles::design::FamilyDesign>,
}

/// Loads a `kind = "tile-cover"` model.
pub fn load(source: &Source) -> Result<Box<dyn Puzzle>, LoadError> {
    Ok(Box::new(load_puzzle(source)?))
}

/// Loads a `kind = "tile-cover"` model as a [`TileCoverPuzzle`].
///
/// ```
/// use somaria::model::Source;
/// use somaria::puzzles::tile_cover::load_puzzle;
/// let source = Source::from_text("m.toml", "kind = \"tile-cover\"\ngrid = \"S..\"\n");
/// assert_eq!(load_puzzle(&source).unwrap().room().num_tiles(), 2);
/// let bad = Source::from_text("m.toml", "kind = \"tile-cover\"\ngrid = \"S.S\"\n");
/// assert_eq!(
///     load_puzzle(&bad).unwrap_err().to_string(),
///     "m.toml:2:11: a second start 'S' at grid cell (0, 2), after the one at (0, 0); expected exactly one 'S'"
/// );
/// ```
pub fn load_puzzle(source: &Source) -> Result<TileCoverPuzzle, LoadError> {
    let file: TileCoverFile = source.parse()?;
    let parsed = source.parse_grid(&file.grid, SYMBOLS, Cell::from_symbol)?;
    let grid = parsed.grid.clone();
    for (symbol, cell, rule) in [('S', Cell::Start, "exactly one 'S'"), ('E', Cell::End, "at most one 'E'")] {
        let mut found = grid.cells().filter(|(_, c)| **c == cell).map(|(p, _)| p);
        if let (Some(first), Some(second)) = (found.next(), found.next()) {
            let kind = if cell == Cell::Start { "start" } else { "end" };
            let problem = Problem::Invalid {
                found: format!("a second {kind} '{symbol}' at grid cell {second:?}, after the one at {first:?}"),
                expected: rule.to_string(),
            };
            return Err(source.error(Some(parsed.offset_of(second)), problem));
        }
    }
    if !grid.cells().any(|(_, c)| *c == Cell::Start) {
        let problem = Problem::Invalid {
            found: "no start 'S' in the grid".to_string(),
            expected: "exactly one 'S', the cell the walk starts on".to_string(),
        };
        return Err(source.error_at(&file.grid, problem));
    }
    let tiles = grid.cells().filter(|(_, c)| matches!(c, Cell::Tile | Cell::End)).count();
    let leave_uncovered = match &file.leave_uncovered {
        None => 0,
        Some(value) => {
            let k = *value.get_ref();
            if k < 0 || k as u64 > tiles as u64 {
                let problem = Problem::Invalid {
                    found: format!("`leave_uncovered = {k}`"),
                    expected: format!("a number of tiles from 0 to {tiles}, the tiles in the room"),
                };
                return Err(source.error_at(value, problem));
            }
            k as usize
        }
    };
    // The checks above cover the layout's rules, and say where in the file.
    let puzzle = TileCoverPuzzle::new(grid, leave_uncovered).map_err(|e| {
        let message = e.to_string();
        let (found, expected) = message.split_once("; expected ").unwrap_or((&message, "a valid room"));
        source.error_at(&file.grid, Problem::Invalid { found: found.to_string(), expected: expected.to_string() })
    })?;
    Ok(puzzle.with_title(file.title))
}
