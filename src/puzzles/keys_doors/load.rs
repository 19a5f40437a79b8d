//! The keys-and-doors model file, read and validated.

use serde::Deserialize;

use super::{Cell, KeysDoorsPuzzle, LayoutError, SYMBOLS};
use crate::model::{LoadError, Problem, Source, Spanned};
use crate::puzzles::Puzzle;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct KeysDoorsFile {
    #[allow(dead_code)]
    kind: String,
    title: Option<String>,
    #[allow(dead_code)]
    description: Option<String>,
    grid: Spanned<String>,
    /// Read here so that a malformed table is refused by every command;
    /// `generate` uses its title.
    #[allow(dead_code)]
    design: Option<crate::puzzles::design::FamilyDesign>,
}

/// Loads a `kind = "keys-doors"` model.
pub fn load(source: &Source) -> Result<Box<dyn Puzzle>, LoadError> {
    Ok(Box::new(load_puzzle(source)?))
}

/// Loads a `kind = "keys-doors"` model as a [`KeysDoorsPuzzle`]. Errors name
/// the file, line and column of the offending cell.
///
/// ```
/// use somaria::model::Source;
/// use somaria::puzzles::keys_doors::load_puzzle;
/// let source = Source::from_text("m.toml", "kind = \"keys-doors\"\ngrid = \"\"\"\n@.a\n\"\"\"\n");
/// assert_eq!(load_puzzle(&source).unwrap().keys().len(), 1);
/// let five = Source::from_text("m.toml", "kind = \"keys-doors\"\ngrid = \"\"\"\n@@@.@@\n\"\"\"\n");
/// let err = load_puzzle(&five).unwrap_err().to_string();
/// assert!(err.starts_with("m.toml:3:6: a fifth start '@' at grid cell (0, 5)"), "{err}");
/// ```
pub fn load_puzzle(source: &Source) -> Result<KeysDoorsPuzzle, LoadError> {
    let file: KeysDoorsFile = source.parse()?;
    let parsed = source.parse_grid(&file.grid, SYMBOLS, Cell::from_symbol)?;
    match KeysDoorsPuzzle::from_grid(parsed.grid.clone()) {
        Ok(puzzle) => Ok(puzzle.with_title(file.title)),
        Err(error) => {
            let offset = match &error {
                LayoutError::NoStart => file.grid.span().start,
                LayoutError::TooManyStarts { fifth } => parsed.offset_of(*fifth),
                LayoutError::SecondKey { second, .. } => parsed.offset_of(*second),
            };
            let (found, expected) = error.found_and_expected();
            Err(source.error(Some(offset), Problem::Invalid { found, expected }))
        }
    }
}
