//! The pencil-puzzle world in and out: puzz.link URLs of grid genres read
//! into somaria's models, and answers written back as pzprjs files.
//!
//! A genre is one file here and one parametric model,
//! `models/genres/<genre>.toml`. The file holds the genre's registry row
//! ([`Genre`]: its pzprjs id and aliases, its variant flags, its model and
//! a sample URL), a two-way description of its URL body ([`codec`]: one
//! description gives both decoder and encoder), the puzzle it decodes to
//! (an [`Instance`]), how that puzzle becomes the model's `[params]` and is
//! read back from them, and how an answer is written as a pzprv3 file.
//!
//! A decoded URL never becomes model text written here: the genre's model
//! is loaded with its parameters replaced ([`crate::model::Source::with_params`]),
//! so the rules exist once, in the model.
//!
//! ```
//! let opened = somaria::genres::open_url("https://puzz.link/p?slither/5/5/cbcbcddad").unwrap();
//! let count = opened.puzzle.count(&somaria::CountOptions { limit: Some(2), ..Default::default() }).unwrap();
//! assert_eq!(count.count, 1);
//! assert_eq!(somaria::genres::url_of(opened.instance.as_deref().unwrap()).unwrap(),
//!            "https://puzz.link/p?slither/5/5/cbcbcddad");
//! ```

pub mod board;
pub mod codec;
pub mod pzprv3;
pub mod url;

mod aquarium;
mod araf;
mod cave;
mod country;
mod creek;
mod doppelblock;
mod fillomino;
mod gokigen;
mod hashikake;
mod hebi;
mod heyawake;
mod hitori;
mod kakuro;
mod kurodoko;
mod kurotto;
mod lightup;
mod lits;
mod lohkous;
mod mashu;
mod mochikoro;
mod moonsun;
mod nanro;
mod nonogram;
mod norinori;
mod numlin;
mod nurikabe;
mod nurimisaki;
mod pencils;
mod ripple;
mod shikaku;
mod skyscrapers;
mod slalom;
mod slither;
mod starbattle;
mod statuepark;
mod sudoku;
mod tapa;
mod tentaisho;
mod tents;
mod yajilin;
mod yinyang;

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use serde::Deserialize;

use crate::model::{LoadError, Problem, Source, Spanned};
use crate::puzzles::{self, Puzzle};
use crate::rng::SplitMix64;
pub use board::Answer;
use board::{ParamError, ParamsIn};
use codec::Unwritable;
use url::{Envelope, UrlError};

/// One genre's registry row.
pub struct Genre {
    /// pzprjs's id (`slither`).
    pub id: &'static str,
    /// The other names pzprjs reads (`slitherlink`).
    pub aliases: &'static [&'static str],
    /// The name written in URLs (pzprjs's `pzprurl`: `akari` for lightup).
    pub url_id: &'static str,
    /// Its name for people.
    pub title: &'static str,
    /// The variant flags it reads, with what each means.
    pub flags: &'static [(char, &'static str)],
    /// Its parametric model.
    pub template: &'static str,
    /// A puzzle of the genre.
    pub sample: &'static str,
    /// Reads a URL's body.
    pub decode: fn(&Envelope<'_>) -> Result<Box<dyn Instance>, UrlError>,
    /// Reads the puzzle back from its model's parameters.
    pub read: fn(&ParamsIn) -> Result<Box<dyn Instance>, ParamError>,
    /// A random puzzle of `rows` × `cols` (random clues, solvable or not),
    /// for property tests of the codec and the model.
    pub random: fn(&mut SplitMix64, usize, usize) -> Box<dyn Instance>,
}

impl fmt::Debug for Genre {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Genre({})", self.id)
    }
}

impl Genre {
    /// The file name of its model.
    pub fn template_name(&self) -> String {
        format!("models/genres/{}.toml", self.id)
    }
}

/// One puzzle of a genre.
pub trait Instance: fmt::Debug + Send + Sync {
    /// Its genre.
    fn genre(&self) -> &'static Genre;
    /// Rows and columns (of the grid the URL gives).
    fn size(&self) -> (usize, usize);
    /// The variant flags set.
    fn flags(&self) -> String {
        String::new()
    }
    /// The URL's body, canonical as pzprjs writes it.
    fn body(&self) -> Result<String, Unwritable>;
    /// The values of its model's parameters.
    fn params(&self) -> toml::Table;
    /// The pzprjs file of the puzzle, with `answer` (a solution of its
    /// model, or a state `steps` reached) filled in.
    fn file(&self, answer: &Answer<'_>) -> Result<String, String>;
}

/// Every genre, one row each.
pub static GENRES: &[&Genre] = &[
    &slither::GENRE,
    &nurikabe::GENRE,
    &heyawake::GENRE,
    &starbattle::GENRE,
    &lightup::GENRE,
    &shikaku::GENRE,
    &hitori::GENRE,
    &sudoku::GENRE,
    &numlin::GENRE,
    &kurodoko::GENRE,
    &norinori::GENRE,
    &yinyang::GENRE,
    &mashu::GENRE,
    &yajilin::GENRE,
    &ripple::GENRE,
    &creek::GENRE,
    &skyscrapers::GENRE,
    &cave::GENRE,
    &nurimisaki::GENRE,
    &tents::GENRE,
    &aquarium::GENRE,
    &doppelblock::GENRE,
    &kakuro::GENRE,
    &country::GENRE,
    &moonsun::GENRE,
    &nanro::GENRE,
    &tentaisho::GENRE,
    &hashikake::GENRE,
    &gokigen::GENRE,
    &nonogram::GENRE,
    &lits::GENRE,
    &mochikoro::GENRE,
    &tapa::GENRE,
    &kurotto::GENRE,
    &fillomino::GENRE,
    &araf::GENRE,
    &hebi::GENRE,
    &lohkous::GENRE,
    &statuepark::GENRE,
    &slalom::GENRE,
    &pencils::GENRE,
];

/// The genre that `name` (an id or an alias) names.
///
/// ```
/// assert_eq!(somaria::genres::lookup("slitherlink").unwrap().id, "slither");
/// assert!(somaria::genres::lookup("sudoku-x").is_none());
/// ```
pub fn lookup(name: &str) -> Option<&'static Genre> {
    GENRES.iter().copied().find(|g| g.id == name || g.url_id == name || g.aliases.contains(&name))
}

/// Whether a MODEL argument is a URL rather than a file.
pub fn is_url(arg: &str) -> bool {
    arg.contains("://")
}

/// The puzzle of a URL.
pub fn decode(url: &str) -> Result<Box<dyn Instance>, UrlError> {
    let envelope = Envelope::parse(url)?;
    (envelope.genre.decode)(&envelope)
}

/// The URL of a puzzle, on puzz.link.
pub fn url_of(instance: &dyn Instance) -> Result<String, Unwritable> {
    let (rows, cols) = instance.size();
    Ok(url::write(instance.genre(), &instance.flags(), cols, rows, &instance.body()?))
}

/// The puzzle of genre `name` (an id or an alias) whose model parameters
/// are `params`, as a program makes one (a generator's clue grid); the
/// error says which parameter is wrong.
///
/// ```
/// let mut params = toml::Table::new();
/// params.insert("rows".into(), 1.into());
/// params.insert("cols".into(), 2.into());
/// params.insert("clue".into(), toml::Value::Array(vec![toml::Value::Array(vec![3.into(), (-1).into()])]));
/// params.insert("full".into(), false.into());
/// let puzzle = somaria::genres::instance_of("slitherlink", &params).unwrap();
/// assert_eq!(somaria::genres::url_of(puzzle.as_ref()).unwrap(), "https://puzz.link/p?slither/2/1/d");
/// ```
pub fn instance_of(name: &str, params: &toml::Table) -> Result<Box<dyn Instance>, String> {
    let genre = lookup(name).ok_or_else(|| format!("no genre {name:?}; `somaria genres` lists them"))?;
    let values = ParamsIn::new(params.iter().map(|(k, v)| (k.clone(), v.clone(), None)));
    (genre.read)(&values).map_err(|e| format!("`{}` = {}; expected {}", e.param, e.found, e.expected))
}

/// The model of a puzzle: its genre's model with its parameters.
pub fn model_of(instance: &dyn Instance) -> Result<Source, LoadError> {
    let genre = instance.genre();
    Source::from_text(genre.template_name(), genre.template).with_params(&instance.params())
}

/// A model opened from a URL or a file: the puzzle, and the genre's
/// instance when it is a genre's puzzle.
pub struct Opened {
    /// The loaded puzzle.
    pub puzzle: Box<dyn Puzzle>,
    /// The model's text.
    pub source: Source,
    /// The genre's puzzle, or why there is none (a model of no genre).
    pub instance: Result<Box<dyn Instance>, String>,
}

impl fmt::Debug for Opened {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Opened({}, {:?})", self.source.name(), self.instance)
    }
}

/// A URL or model that could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The URL.
    #[error("{0}")]
    Url(#[from] UrlError),
    /// The model.
    #[error("{0}")]
    Load(#[from] LoadError),
}

/// Opens the puzzle of a URL.
pub fn open_url(url: &str) -> Result<Opened, OpenError> {
    let instance = decode(url)?;
    let source = model_of(instance.as_ref())?;
    let puzzle = puzzles::load(&source)?;
    Ok(Opened { puzzle, source, instance: Ok(instance) })
}

/// Opens a URL or a model file.
pub fn open(arg: &str) -> Result<Opened, OpenError> {
    if is_url(arg) { open_url(arg) } else { Ok(open_file(Path::new(arg))?) }
}

/// Loads a model file of any kind, a genre's puzzle file (`genre = "..."`
/// and its `[params]`) included.
pub fn load_file(path: &Path) -> Result<Box<dyn Puzzle>, LoadError> {
    Ok(open_file(path)?.puzzle)
}

#[derive(Deserialize)]
struct Probe {
    kind: Option<Spanned<String>>,
    genre: Option<Spanned<String>>,
}

/// A genre's puzzle file: the genre, a title, and the primary parameters.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PuzzleFile {
    /// Read by [`Probe`]; here so that the table's keys are all known.
    #[allow(dead_code)]
    genre: Spanned<String>,
    title: Option<String>,
    params: BTreeMap<Spanned<String>, Spanned<toml::Value>>,
}

/// Opens a model file: a model of any kind, or a genre's puzzle file.
pub fn open_file(path: &Path) -> Result<Opened, LoadError> {
    open_source(Source::read(path)?)
}

/// Opens a model from its text: a model of any kind, or a genre's puzzle
/// file.
pub fn open_source(source: Source) -> Result<Opened, LoadError> {
    let probe: Probe = source.parse()?;
    let Some(genre_name) = probe.genre else {
        let puzzle = puzzles::load(&source)?;
        let instance = Err(format!("{} is not a puzz.link genre's model (it has no `genre` key)", source.name()));
        return Ok(Opened { puzzle, source, instance });
    };
    let genre = lookup(genre_name.get_ref()).ok_or_else(|| {
        let ids: Vec<&str> = GENRES.iter().map(|g| g.id).collect();
        source.error_at(
            &genre_name,
            Problem::Invalid {
                found: format!("the genre {:?}", genre_name.get_ref()),
                expected: format!("one of {}", ids.join(", ")),
            },
        )
    })?;
    if probe.kind.is_some() {
        // A whole model that says its genre: its own parameters are the puzzle.
        let puzzle = puzzles::load(&source)?;
        let instance = read_own_params(&source, genre).map_err(|e| e.to_string());
        return Ok(Opened { puzzle, source, instance });
    }
    let file: PuzzleFile = source.parse()?;
    let instance = read_params(&source, genre, file.params)?;
    let mut model = model_of(instance.as_ref())?;
    if let Some(title) = &file.title {
        model = model.with_title(title)?;
    }
    let puzzle = puzzles::load(&model)?;
    Ok(Opened { puzzle, source: model, instance: Ok(instance) })
}

#[derive(Deserialize)]
struct ParamsOnly {
    params: Option<BTreeMap<Spanned<String>, Spanned<toml::Value>>>,
}

fn read_own_params(source: &Source, genre: &'static Genre) -> Result<Box<dyn Instance>, LoadError> {
    let file: ParamsOnly = source.parse()?;
    read_params(source, genre, file.params.unwrap_or_default())
}

fn read_params(
    source: &Source,
    genre: &'static Genre,
    params: BTreeMap<Spanned<String>, Spanned<toml::Value>>,
) -> Result<Box<dyn Instance>, LoadError> {
    let values = params.into_iter().map(|(k, v)| {
        let span = v.span();
        (k.into_inner(), v.into_inner(), Some(span))
    });
    let params = ParamsIn::new(values);
    (genre.read)(&params).map_err(|e| {
        let found = format!("`{}` = {}", e.param, e.found);
        let problem = Problem::Invalid { found, expected: format!("{} for a {}", e.expected, genre.title) };
        source.error(params.span(&e.param).map(|s| s.start), problem)
    })
}
