//! The two model forms of a fan puzzle, read and validated.

use serde::Deserialize;

use super::{Cell, FanPuzzle, Hit, SYMBOLS};
use crate::grid::Dir;
use crate::model::{LoadError, Problem, Source, Spanned};
use crate::puzzles::Puzzle;

/// The most fans the listed form accepts.
pub const MAX_FANS: i64 = 100_000;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FansFile {
    #[allow(dead_code)]
    kind: String,
    title: Option<String>,
    #[allow(dead_code)]
    description: Option<String>,
    grid: Option<Spanned<String>>,
    fans: Option<Spanned<i64>>,
    weathercocks: Option<Spanned<Vec<WeathercockEntry>>>,
    /// Read here so that a malformed table is refused by every command;
    /// `generate` uses its title.
    #[allow(dead_code)]
    design: Option<crate::puzzles::design::FamilyDesign>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WeathercockEntry {
    hit_by: Vec<HitEntry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HitEntry {
    fan: Spanned<i64>,
    dir: Spanned<String>,
}

const FORMS: &str =
    "either `grid = \"\"\"...\"\"\"` (grid form) or `fans = N` with `[[weathercocks]]` tables (listed form)";

/// Loads a `kind = "fans"` model in either form.
pub fn load(source: &Source) -> Result<Box<dyn Puzzle>, LoadError> {
    Ok(Box::new(load_puzzle(source)?))
}

/// Loads a `kind = "fans"` model as a [`FanPuzzle`].
///
/// ```
/// use somaria::model::Source;
/// use somaria::puzzles::fans::load_puzzle;
/// let source = Source::from_text("m.toml", "kind = \"fans\"\ngrid = \"FW\"\n");
/// assert_eq!(load_puzzle(&source).unwrap().num_fans(), 1);
/// let bad = Source::from_text("m.toml", "kind = \"fans\"\nfans = -1\n");
/// assert!(load_puzzle(&bad).unwrap_err().to_string().starts_with("m.toml:2:8: "));
/// ```
pub fn load_puzzle(source: &Source) -> Result<FanPuzzle, LoadError> {
    let file: FansFile = source.parse()?;
    let puzzle = match (file.grid, file.fans) {
        (Some(grid), None) => {
            if let Some(listed) = &file.weathercocks {
                let found = "`[[weathercocks]]` tables beside `grid`".to_string();
                return Err(source.error_at(listed, Problem::Invalid { found, expected: FORMS.to_string() }));
            }
            let parsed = source.parse_grid(&grid, SYMBOLS, Cell::from_symbol)?;
            FanPuzzle::from_grid(parsed.grid)
        }
        (None, Some(fans)) => {
            let count = *fans.get_ref();
            if !(0..=MAX_FANS).contains(&count) {
                let problem = Problem::Invalid {
                    found: format!("`fans = {count}`"),
                    expected: format!("a number of fans from 0 to {MAX_FANS}"),
                };
                return Err(source.error_at(&fans, problem));
            }
            let count = count as usize;
            let entries = file.weathercocks.map(Spanned::into_inner).unwrap_or_default();
            let mut hit_lists = Vec::with_capacity(entries.len());
            for entry in entries {
                let mut hits = Vec::with_capacity(entry.hit_by.len());
                for hit in entry.hit_by {
                    let index = *hit.fan.get_ref();
                    if !(0..count as i64).contains(&index) {
                        let expected = match count {
                            0 => "no fan index at all, since `fans = 0`".to_string(),
                            n => format!("a fan index from 0 to {}", n - 1),
                        };
                        let found = format!("fan index {index}");
                        return Err(source.error_at(&hit.fan, Problem::Invalid { found, expected }));
                    }
                    let Some(dir) = Dir::from_name(hit.dir.get_ref()) else {
                        let problem = Problem::Invalid {
                            found: format!("unknown direction {:?}", hit.dir.get_ref()),
                            expected: "\"up\", \"down\", \"left\" or \"right\"".to_string(),
                        };
                        return Err(source.error_at(&hit.dir, problem));
                    };
                    hits.push(Hit { fan: index as usize, dir });
                }
                hit_lists.push(hits);
            }
            // The loop above checked every fan index against `count`.
            FanPuzzle::from_list(count, hit_lists)
                .map_err(|e| source.error(None, Problem::Invalid { found: e.to_string(), expected: FORMS.into() }))?
        }
        (Some(_), Some(fans)) => {
            let found = "both `grid` and `fans`".to_string();
            return Err(source.error_at(&fans, Problem::Invalid { found, expected: FORMS.to_string() }));
        }
        (None, None) => {
            let found = "neither `grid` nor `fans`".to_string();
            return Err(source.error(None, Problem::Invalid { found, expected: FORMS.to_string() }));
        }
    };
    Ok(puzzle.with_title(file.title))
}
