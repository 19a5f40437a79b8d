//! The registry of families: one row per `kind`, with its loader and its
//! designer, and the loaders that dispatch on a model's `kind`.

use std::path::Path;

use super::{Puzzle, csp, design, fans, keys_doors, tile_cover};
use crate::model::{LoadError, Problem, Source};

/// A puzzle family: the `kind` name and its loader.
pub struct Family {
    /// The `kind` value that selects this family.
    pub kind: &'static str,
    /// Builds a validated puzzle from a model file of this kind.
    pub load: fn(&Source) -> Result<Box<dyn Puzzle>, LoadError>,
    /// Builds the designer `generate` makes puzzles with from a template
    /// of this kind, for the families that have one.
    pub design: Option<design::DesignerOf>,
}

/// Every family somaria knows.
pub const FAMILIES: &[Family] = &[
    Family { kind: fans::KIND, load: fans::load, design: Some(fans::designer::FansDesigner::boxed) },
    Family {
        kind: keys_doors::KIND,
        load: keys_doors::load,
        design: Some(keys_doors::designer::KeysDoorsDesigner::boxed),
    },
    Family {
        kind: tile_cover::KIND,
        load: tile_cover::load,
        design: Some(tile_cover::designer::TileCoverDesigner::boxed),
    },
    Family { kind: csp::KIND, load: csp::load, design: Some(csp::designer::CspDesigner::boxed) },
];

/// The known kinds, quoted and joined for messages.
pub fn known_kinds() -> String {
    FAMILIES.iter().map(|f| format!("{:?}", f.kind)).collect::<Vec<_>>().join(", ")
}

/// Loads a model file of any kind.
///
/// ```
/// let puzzle = somaria::puzzles::load_file("models/akh-vaquot.toml".as_ref()).unwrap();
/// assert_eq!(puzzle.kind(), "fans");
/// ```
pub fn load_file(path: &Path) -> Result<Box<dyn Puzzle>, LoadError> {
    load(&Source::read(path)?)
}

/// Loads a model of any kind from its text; `name` is the file name its
/// errors give.
///
/// ```
/// let text = "kind = \"fans\"\ngrid = \"FW\"\n";
/// let puzzle = somaria::puzzles::load_str("mine.toml", text).unwrap();
/// assert_eq!(puzzle.kind(), "fans");
/// let error = somaria::puzzles::load_str("mine.toml", "kind = 3").err().unwrap();
/// assert!(error.to_string().starts_with("mine.toml:1:8: "), "{error}");
/// ```
pub fn load_str(name: &str, text: &str) -> Result<Box<dyn Puzzle>, LoadError> {
    load(&Source::from_text(name, text))
}

/// The designer of a template of any kind, dispatching on `kind`; a kind
/// with no designer is refused, after the template is loaded (so a broken
/// model is reported as such).
pub fn designer(source: &Source) -> Result<Box<dyn design::Designer>, LoadError> {
    let puzzle = load(source)?;
    let family = FAMILIES.iter().find(|f| f.kind == puzzle.kind());
    if let Some(design) = family.and_then(|f| f.design) {
        return design(source);
    }
    let kinds: Vec<String> = FAMILIES.iter().filter(|f| f.design.is_some()).map(|f| format!("{:?}", f.kind)).collect();
    let problem = Problem::Invalid {
        found: format!("a model of kind {:?}, which generate has no designer for", puzzle.kind()),
        expected: format!("a template generate makes puzzles from: kind = {}", kinds.join(", ")),
    };
    match source.kind()? {
        Some(kind) => Err(source.error_at(&kind, problem)),
        None => Err(source.error(None, problem)),
    }
}

/// Loads a model of any kind from its source, dispatching on `kind`.
pub fn load(source: &Source) -> Result<Box<dyn Puzzle>, LoadError> {
    let Some(kind) = source.kind()? else {
        return Err(source.error(None, Problem::MissingKind { expected: known_kinds() }));
    };
    match FAMILIES.iter().find(|f| f.kind == kind.get_ref()) {
        Some(family) => (family.load)(source),
        None => {
            let problem = Problem::UnknownKind { found: kind.get_ref().clone(), expected: known_kinds() };
            Err(source.error_at(&kind, problem))
        }
    }
}
