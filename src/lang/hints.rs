//! A model's hint table, `[hints]`: how hints name its houses and the
//! patterns of a step a player knows by name, with no Rust per puzzle.
//!
//! ```toml
//! [hints.houses]              # constraints whose instances are houses
//! "each row" = "row {i}"      # {i}: the instance's loop variable
//! "each box" = "box {n}"      # {n}: the instance's number, from 1
//!
//! [[hints.technique]]
//! shape = "single place"      # what the step must look like
//! name = "hidden single"
//! text = "{value} goes in {at}: it is the only place for {value} in {house}"
//! ```
//!
//! A house is an instance of a constraint that is one `alldifferent` over
//! variables: each value at most once among its cells. The shapes are the
//! family's own, checked on the step's facts and rules, whatever the model
//! ([`Shape`]); the table only names them and says them as sentences.
//! Every fault (a house that is no constraint or no `alldifferent`, an
//! unknown shape or placeholder) is reported at its place in the file.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::load::{Loader, invalid};
use super::model::Constraint;
use super::{Group, ir::BExpr, ir::IKind};
use crate::model::{LoadError, Spanned};

/// The `[hints]` table as TOML gives it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct HintsEntry {
    houses: Option<BTreeMap<Spanned<String>, Spanned<String>>>,
    technique: Option<Vec<TechniqueEntry>>,
}

/// One `[[hints.technique]]` as TOML gives it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TechniqueEntry {
    shape: Spanned<String>,
    name: Spanned<String>,
    text: Spanned<String>,
    size: Option<Spanned<i64>>,
    houses: Option<Spanned<Vec<Spanned<String>>>>,
}

/// The pattern of a step that a technique names. Each is checked on the
/// facts the step uses (and, for the house, on its rules), so a name is
/// only given where it is true.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// One value placed in one cell, because every other cell of one of the
    /// step's houses is known not to take it ("hidden single").
    SinglePlace,
    /// One value placed in one cell, because every other value of the cell
    /// is known not to be its own, or is taken in a house of the step that
    /// holds the cell ("naked single").
    SingleValue,
    /// Values ruled out in one house, because `size` of its cells have only
    /// `size` values left between them, which the others cannot take
    /// ("naked pair", "naked triple").
    Subset,
    /// One value ruled out in one house, because in another house every
    /// cell that may still take it lies in the first ("pointing",
    /// "claiming").
    Intersection,
    /// Values ruled out in cells because another cell of a house of the
    /// step holds them already ("3 is already in row 1"), said once per
    /// house and value.
    Taken,
    /// Values ruled out in `size` cells of one house, because `size`
    /// values the house must hold can go in no other cell of it, so those
    /// cells take them and nothing else ("hidden pair", "hidden triple").
    HiddenSubset,
    /// One value ruled out in cells of `size` cross houses, because in
    /// `size` disjoint houses that must each hold it, every cell that may
    /// take it lies in those cross houses, which hold it at most once
    /// each ("X-wing", "swordfish").
    Fish,
}

impl Shape {
    const NAMES: [(&'static str, Shape); 7] = [
        ("single place", Shape::SinglePlace),
        ("single value", Shape::SingleValue),
        ("subset", Shape::Subset),
        ("hidden subset", Shape::HiddenSubset),
        ("intersection", Shape::Intersection),
        ("fish", Shape::Fish),
        ("taken", Shape::Taken),
    ];

    /// The placeholders a sentence of this shape may use.
    pub fn slots(self) -> &'static [&'static str] {
        match self {
            Shape::SinglePlace => &["value", "cell", "at", "house"],
            Shape::SingleValue => &["value", "cell", "at"],
            Shape::Subset => &["values", "cells", "house", "size"],
            Shape::Intersection => &["value", "house", "other"],
            Shape::Taken => &["value", "house", "cells"],
            Shape::HiddenSubset => &["values", "cells", "house", "size"],
            Shape::Fish => &["value", "houses", "other", "cells", "size"],
        }
    }

    /// The sizes a technique of this shape may ask for; `None`: it has no
    /// size. A fish or hidden subset is sought among every choice of that
    /// many houses or values, so its size is kept small.
    fn sizes(self) -> Option<std::ops::RangeInclusive<i64>> {
        match self {
            Shape::Subset => Some(2..=64),
            Shape::HiddenSubset | Shape::Fish => Some(2..=8),
            _ => None,
        }
    }
}

/// A text with `{name}` placeholders.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template {
    pieces: Vec<Piece>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Piece {
    Text(String),
    Slot(String),
}

impl Template {
    /// The text with each placeholder replaced by `value(name)`.
    pub fn fill(&self, value: impl Fn(&str) -> String) -> String {
        self.pieces
            .iter()
            .map(|p| match p {
                Piece::Text(t) => t.clone(),
                Piece::Slot(s) => value(s),
            })
            .collect()
    }

    /// Reads `text`: `{name}` a placeholder, `{{` and `}}` a brace. The
    /// error says what was found.
    fn parse(text: &str) -> Result<Template, String> {
        let mut pieces = Vec::new();
        let mut plain = String::new();
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '{' if chars.peek() == Some(&'{') => plain.push(chars.next().unwrap_or('{')),
                '}' if chars.peek() == Some(&'}') => plain.push(chars.next().unwrap_or('}')),
                '{' => {
                    let mut name = String::new();
                    loop {
                        match chars.next() {
                            Some('}') => break,
                            Some('{') | None => return Err(format!("an unclosed `{{` in {text:?}")),
                            Some(c) => name.push(c),
                        }
                    }
                    pieces.push(Piece::Text(std::mem::take(&mut plain)));
                    pieces.push(Piece::Slot(name.trim().to_string()));
                }
                '}' => return Err(format!("a `}}` with no `{{` in {text:?}")),
                c => plain.push(c),
            }
        }
        pieces.push(Piece::Text(plain));
        pieces.retain(|p| *p != Piece::Text(String::new()));
        Ok(Template { pieces })
    }

    fn slots(&self) -> impl Iterator<Item = &str> {
        self.pieces.iter().filter_map(|p| match p {
            Piece::Slot(s) => Some(s.as_str()),
            Piece::Text(_) => None,
        })
    }
}

/// The houses of one constraint: how one instance is named.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HouseKind {
    /// The constraint, an index into the model's constraints.
    pub constraint: usize,
    /// The constraint's name, as the table keys it.
    pub name: String,
    /// The name of one instance, such as "row {i}".
    pub label: Template,
}

/// One named technique.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Technique {
    /// The pattern it names.
    pub shape: Shape,
    /// Its name, such as "hidden single".
    pub name: String,
    /// The step as a sentence.
    pub text: Template,
    /// For a subset or hidden subset, how many cells; for a fish, how many
    /// houses of each side; `None`: any number from 2 to 4.
    pub size: Option<usize>,
    /// The house kinds (indices into [`HintTable::houses`]) the step's
    /// first house must be of (the one with the single place, the subset,
    /// or the value's every cell; for a fish, every house of it); empty:
    /// any.
    pub within: Vec<usize>,
}

/// The `[hints]` table, checked against the model.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HintTable {
    /// The constraints whose instances are houses.
    pub houses: Vec<HouseKind>,
    /// The techniques, in the order they are tried: the first that fits a
    /// step names it.
    pub techniques: Vec<Technique>,
}

/// One house: an instance of a house constraint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HouseOf {
    /// Its kind, an index into [`HintTable::houses`].
    pub kind: usize,
    /// Its number among its constraint's instances, from 1.
    pub number: usize,
    /// Its name, such as "box 2".
    pub label: String,
    /// Its variables (scalars), each of which takes a value at most once
    /// among them.
    pub scalars: Vec<usize>,
}

impl HintTable {
    /// The house of each group (by index), for the groups of a house
    /// constraint (whole, or split into parts).
    pub fn houses_of(&self, groups: &[Group]) -> Vec<Option<HouseOf>> {
        let mut numbers: BTreeMap<(usize, Vec<usize>), usize> = BTreeMap::new();
        let mut count: BTreeMap<usize, usize> = BTreeMap::new();
        groups
            .iter()
            .map(|g| {
                let kind = self.houses.iter().position(|h| h.constraint == g.constraint)?;
                let next = count.entry(g.constraint).or_insert(0);
                let number = *numbers.entry((g.constraint, g.positions.clone())).or_insert_with(|| {
                    *next += 1;
                    *next
                });
                let scalars = match &g.part {
                    Some(part) => part.scalars.clone(),
                    None => alldifferent_scalars(&g.expr)?,
                };
                let label = self.houses[kind].label.fill(|slot| match slot {
                    "n" => number.to_string(),
                    var => g.bindings.iter().find(|(n, _)| n == var).map(|(_, v)| v.clone()).unwrap_or_default(),
                });
                Some(HouseOf { kind, number, label, scalars })
            })
            .collect()
    }
}

/// The variables of an `alldifferent` over variables only.
fn alldifferent_scalars(expr: &BExpr) -> Option<Vec<usize>> {
    let BExpr::AllDifferent(items) = expr else { return None };
    items.iter().map(|x| if let IKind::Var(s) = x.kind { Some(s) } else { None }).collect()
}

impl Loader<'_> {
    /// The `[hints]` table, checked against the constraints and their
    /// instances (`groups`, whole).
    pub(super) fn hints(
        &self,
        entry: &HintsEntry,
        constraints: &[Constraint],
        groups: &[Group],
    ) -> Result<HintTable, LoadError> {
        let mut table = HintTable::default();
        for (key, label) in entry.houses.iter().flatten() {
            table.houses.push(self.house_kind(key, label, constraints, groups)?);
        }
        for technique in entry.technique.iter().flatten() {
            table.techniques.push(self.technique(technique, &table.houses)?);
        }
        Ok(table)
    }

    fn house_kind(
        &self,
        key: &Spanned<String>,
        label: &Spanned<String>,
        constraints: &[Constraint],
        groups: &[Group],
    ) -> Result<HouseKind, LoadError> {
        let name = key.get_ref();
        let Some(constraint) = constraints.iter().position(|c| &c.name == name) else {
            let names: Vec<String> = constraints.iter().map(|c| format!("{:?}", c.name)).collect();
            return Err(self.source.error_at(
                key,
                invalid(
                    format!("a house {name:?}, which is no constraint's name"),
                    format!("the name of a [[constraint]]: {}", names.join(", ")),
                ),
            ));
        };
        // An instance over fewer than two cells (a Killer Sudoku's cage of
        // one cell) lowers to `true`: it is no house, and no fault.
        let instances: Vec<&Group> =
            groups.iter().filter(|g| g.constraint == constraint && g.expr != BExpr::Const(true)).collect();
        if instances.is_empty() || instances.iter().any(|g| alldifferent_scalars(&g.expr).is_none()) {
            return Err(self.source.error_at(
                key,
                invalid(
                    format!("a house {name:?}, whose instances are not each one `alldifferent` of variables"),
                    "a constraint such as `forall(i in 1..9)(alldifferent(row(cell, i)))`: each instance a house, \
                     where a value is taken at most once",
                ),
            ));
        }
        let loops: Vec<&str> = instances[0].bindings.iter().map(|(n, _)| n.as_str()).collect();
        let template =
            Template::parse(label.get_ref()).map_err(|found| self.source.error_at(label, invalid(found, BRACES)))?;
        if let Some(slot) = template.slots().find(|s| *s != "n" && !loops.contains(s)) {
            let mut allowed = vec!["{n} (the instance's number, from 1)".to_string()];
            allowed.extend(loops.iter().map(|l| format!("{{{l}}}")));
            return Err(self.source.error_at(
                label,
                invalid(
                    format!("the placeholder {{{slot}}} in the name of a house of {name:?}"),
                    format!("one of {}", allowed.join(", ")),
                ),
            ));
        }
        Ok(HouseKind { constraint, name: name.clone(), label: template })
    }

    fn technique(&self, entry: &TechniqueEntry, houses: &[HouseKind]) -> Result<Technique, LoadError> {
        let shape_name = entry.shape.get_ref().trim();
        let Some(&(_, shape)) = Shape::NAMES.iter().find(|(n, _)| *n == shape_name) else {
            let names: Vec<String> = Shape::NAMES.iter().map(|(n, _)| format!("{n:?}")).collect();
            return Err(self.source.error_at(
                &entry.shape,
                invalid(format!("shape = {shape_name:?}"), format!("one of {}", names.join(", "))),
            ));
        };
        let name = entry.name.get_ref().trim().to_string();
        if name.is_empty() {
            return Err(self.source.error_at(&entry.name, invalid("an empty name", "the technique's name")));
        }
        let text = Template::parse(entry.text.get_ref())
            .map_err(|found| self.source.error_at(&entry.text, invalid(found, BRACES)))?;
        if let Some(slot) = text.slots().find(|s| !shape.slots().contains(s)) {
            let allowed: Vec<String> = shape.slots().iter().map(|s| format!("{{{s}}}")).collect();
            return Err(self.source.error_at(
                &entry.text,
                invalid(
                    format!("the placeholder {{{slot}}} in a {shape_name:?} sentence"),
                    format!("one of {}", allowed.join(", ")),
                ),
            ));
        }
        let size = match &entry.size {
            None => None,
            Some(size) if shape.sizes().is_some_and(|r| r.contains(size.get_ref())) => Some(*size.get_ref() as usize),
            Some(size) => {
                let expected = match shape.sizes() {
                    Some(range) => format!("a size from {} to {}", range.start(), range.end()),
                    None => "no size: only a \"subset\", \"hidden subset\" or \"fish\" has one".to_string(),
                };
                let found = format!("size = {}", size.get_ref());
                return Err(self.source.error_at(size, invalid(found, expected)));
            }
        };
        if shape != Shape::SingleValue && houses.is_empty() {
            return Err(self.source.error_at(
                &entry.shape,
                invalid(
                    format!("a {shape_name:?} technique with no houses"),
                    "[hints.houses] naming the constraints whose instances are houses",
                ),
            ));
        }
        let mut within = Vec::new();
        for house in entry.houses.iter().flat_map(|h| h.get_ref()) {
            let Some(kind) = houses.iter().position(|h| &h.name == house.get_ref()) else {
                let names: Vec<String> = houses.iter().map(|h| format!("{:?}", h.name)).collect();
                return Err(self.source.error_at(
                    house,
                    invalid(
                        format!("a house {:?}, which [hints.houses] does not name", house.get_ref()),
                        format!("one of {}", names.join(", ")),
                    ),
                ));
            };
            within.push(kind);
        }
        Ok(Technique { shape, name, text, size, within })
    }
}

const BRACES: &str = "a text whose placeholders are `{name}`, with `{{` and `}}` for braces";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_fill_their_placeholders_and_keep_doubled_braces() {
        let t = Template::parse("{value} in {{box}} {n}").unwrap();
        assert_eq!(t.fill(|s| s.to_uppercase()), "VALUE in {box} N");
        assert!(Template::parse("{value").is_err());
        assert!(Template::parse("value}").is_err());
    }
}
