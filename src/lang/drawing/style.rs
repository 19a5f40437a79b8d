//! The options of a drawing layer that say how, not what: colours, sizes,
//! how values are written (`names`), which mark a value gets (`fill`),
//! where a label or a triangle stands (`at`), the side of outside clues
//! and the style of region borders. Each is read from its TOML value and
//! refused at it when it is not one.

use std::collections::BTreeMap;

use super::super::load::{Loader, invalid};
use super::super::model::Base;
use crate::model::{LoadError, Spanned};

/// A colour a drawing table names: the ink, the paper, or red, green and
/// blue.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Colour {
    /// The picture's ink (`"black"`, `"ink"`).
    Ink,
    /// The paper (`"white"`, `"paper"`).
    Paper,
    /// `"#rrggbb"`, `"#rgb"` or a named colour.
    Rgb([u8; 3]),
}

/// The colours a table may name, besides `#rrggbb`.
const NAMED: [(&str, Colour); 13] = [
    ("black", Colour::Ink),
    ("ink", Colour::Ink),
    ("white", Colour::Paper),
    ("paper", Colour::Paper),
    ("grey", Colour::Rgb([0x80, 0x80, 0x80])),
    ("gray", Colour::Rgb([0x80, 0x80, 0x80])),
    ("red", Colour::Rgb([0xc4, 0x30, 0x2b])),
    ("green", Colour::Rgb([0x2a, 0x9d, 0x3f])),
    ("blue", Colour::Rgb([0x1f, 0x6f, 0xb4])),
    ("orange", Colour::Rgb([0xe0, 0x7b, 0x00])),
    ("yellow", Colour::Rgb([0xf4, 0xd3, 0x5e])),
    ("purple", Colour::Rgb([0x8a, 0x4f, 0xbf])),
    ("brown", Colour::Rgb([0x7a, 0x3e, 0x00])),
];

/// A colour's text, `None` when it is none.
pub fn parse_colour(text: &str) -> Option<Colour> {
    if let Some((_, colour)) = NAMED.iter().find(|(name, _)| *name == text) {
        return Some(*colour);
    }
    let hex = text.strip_prefix('#')?;
    if !hex.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let digit = |i: usize| u8::from_str_radix(&hex[i..i + 1], 16).ok();
    match hex.len() {
        3 => Some(Colour::Rgb([digit(0)? * 17, digit(1)? * 17, digit(2)? * 17])),
        6 => Some(Colour::Rgb([0, 2, 4].map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap_or(0)))),
        _ => None,
    }
}

/// A corner of a cell, where a triangle's right angle stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CellCorner {
    /// `"top_left"`.
    TopLeft,
    /// `"top_right"`.
    TopRight,
    /// `"bottom_left"`.
    BottomLeft,
    /// `"bottom_right"`.
    BottomRight,
}

/// A mark layer's symbol.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Symbol {
    /// A filled disc (`symbol = "disc"`, the default): a queen, a light.
    Disc,
    /// A small filled disc (`"dot"`).
    Dot,
    /// A ring (`"ring"`).
    Ring,
    /// A filled square (`"square"`).
    Square,
    /// A circle with an ink rim, filled with the layer's colour or its
    /// `fill` (`"circle"`): a Masyu pearl.
    Circle,
    /// A five-pointed star (`"star"`).
    Star,
    /// A cross (`"cross"`).
    Cross,
    /// A right triangle, its right angle in a corner (`"triangle"`, with
    /// `at` the corner; bottom left unless given).
    Triangle(CellCorner),
    /// A sun (`"sun"`).
    Sun,
    /// A moon (`"moon"`).
    Moon,
}

/// A side of the grid, where an `outside` layer writes its clues.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GridSide {
    /// `"top"`: one clue list per column, above it.
    Top,
    /// `"bottom"`.
    Bottom,
    /// `"left"`: one clue list per row, left of it.
    Left,
    /// `"right"`.
    Right,
}

/// How a regions layer draws its borders.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BorderStyle {
    /// `border = "heavy"` (the default).
    Heavy,
    /// `"thin"`.
    Thin,
    /// `"dashed"`: just inside each region, as Killer cages.
    Dashed,
}

/// Where a text layer writes its labels.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TextAt {
    /// In the cell's middle (`at = "middle"`, the default).
    Middle,
    /// Small, in the cell's top-left corner (`at = "corner"`), so that a
    /// value can stand in the middle: a cage's sum. Corner labels of
    /// several layers in one cell are written one after another, as a
    /// KenKen cage's `12` and `+`.
    Corner,
}

/// How a `[[draw.layer]]` option is spelt, for messages.
fn one_of(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("\"{n}\"")).collect();
    match quoted.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

impl Loader<'_> {
    /// `colour = "..."`.
    pub(super) fn colour(&self, text: &Spanned<String>) -> Result<Colour, LoadError> {
        parse_colour(text.get_ref()).ok_or_else(|| {
            let names: Vec<&str> = NAMED.iter().map(|(n, _)| *n).collect();
            self.source.error_at(
                text,
                invalid(
                    format!("colour = {:?}, which is not a colour", text.get_ref()),
                    format!("\"#rrggbb\", \"#rgb\" or one of {}", one_of(&names)),
                ),
            )
        })
    }

    /// `size = 0.7`: a fraction of a cell, as hundredths.
    pub(super) fn size(&self, size: &Spanned<f64>) -> Result<u8, LoadError> {
        let v = *size.get_ref();
        if v > 0.0 && v <= 1.0 {
            Ok(((v * 100.0).round() as u8).max(1))
        } else {
            Err(self
                .source
                .error_at(size, invalid(format!("size = {v}"), "a fraction of a cell, above 0 and at most 1")))
        }
    }

    /// A choice among fixed words, refused at its value.
    pub(super) fn choice<T: Copy>(
        &self,
        option: &str,
        text: &Spanned<String>,
        choices: &[(&str, T)],
    ) -> Result<T, LoadError> {
        let found = choices.iter().find(|(name, _)| *name == text.get_ref()).map(|(_, v)| *v);
        found.ok_or_else(|| {
            let names: Vec<&str> = choices.iter().map(|(n, _)| *n).collect();
            self.source.error_at(
                text,
                invalid(format!("{option} = {:?}", text.get_ref()), format!("{option} = {}", one_of(&names))),
            )
        })
    }

    /// `side = "top"`.
    pub(super) fn side(&self, text: &Spanned<String>) -> Result<GridSide, LoadError> {
        let sides = [
            ("top", GridSide::Top),
            ("bottom", GridSide::Bottom),
            ("left", GridSide::Left),
            ("right", GridSide::Right),
        ];
        self.choice("side", text, &sides)
    }

    /// `symbol = "..."`, with `at` the corner of a triangle.
    pub(super) fn symbol(
        &self,
        symbol: Option<&Spanned<String>>,
        at: Option<&Spanned<String>>,
    ) -> Result<Symbol, LoadError> {
        let corner = match at {
            Some(at) => self.choice("at", at, &CORNERS)?,
            None => CellCorner::BottomLeft,
        };
        let symbols = [
            ("disc", Symbol::Disc),
            ("dot", Symbol::Dot),
            ("ring", Symbol::Ring),
            ("square", Symbol::Square),
            ("circle", Symbol::Circle),
            ("star", Symbol::Star),
            ("cross", Symbol::Cross),
            ("triangle", Symbol::Triangle(corner)),
            ("sun", Symbol::Sun),
            ("moon", Symbol::Moon),
        ];
        let symbol = match symbol {
            Some(s) => self.choice("symbol", s, &symbols)?,
            None => Symbol::Disc,
        };
        if let (Some(at), false) = (at, matches!(symbol, Symbol::Triangle(_))) {
            return Err(self.source.error_at(
                at,
                invalid("`at` on a mark that is not a triangle", "`at` only with symbol = \"triangle\""),
            ));
        }
        Ok(symbol)
    }

    /// A value as a key of `names` or `fill`: an integer, `true` or
    /// `false`, or a name of the array's enum.
    fn value_key(&self, base: Base, key: &str) -> Option<i64> {
        match base {
            Base::Bool => match key {
                "true" => Some(1),
                "false" => Some(0),
                _ => None,
            },
            Base::Enum(e) => self.enums[e].values.iter().position(|v| v == key).map(|i| i as i64 + 1),
            Base::Int | Base::Any => key.parse().ok(),
        }
    }

    /// The keys of a `names` or `fill` table as values of an array of
    /// `base`, refused at the table when one is not.
    pub(super) fn keyed<T>(
        &self,
        option: &str,
        table: &Spanned<BTreeMap<String, String>>,
        base: Base,
        read: impl Fn(&str) -> Option<T>,
        expected: &str,
    ) -> Result<Vec<(i64, T)>, LoadError> {
        let mut found = Vec::new();
        for (key, text) in table.get_ref() {
            let Some(value) = self.value_key(base, key) else {
                let values = match base {
                    Base::Enum(e) => format!("a value of {}", self.enums[e].name),
                    Base::Bool => "true or false".to_string(),
                    _ => "an integer".to_string(),
                };
                return Err(self.source.error_at(
                    table,
                    invalid(format!("{option} with the key {key:?}"), format!("keys that are values: {values}")),
                ));
            };
            let Some(read) = read(text) else {
                return Err(self
                    .source
                    .error_at(table, invalid(format!("{option} with {key} = {text:?}"), expected.to_string())));
            };
            found.push((value, read));
        }
        Ok(found)
    }
}

/// The corners a triangle's right angle may stand in.
const CORNERS: [(&str, CellCorner); 4] = [
    ("top_left", CellCorner::TopLeft),
    ("top_right", CellCorner::TopRight),
    ("bottom_left", CellCorner::BottomLeft),
    ("bottom_right", CellCorner::BottomRight),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_are_hex_or_named() {
        assert_eq!(parse_colour("#c4302b"), Some(Colour::Rgb([0xc4, 0x30, 0x2b])));
        assert_eq!(parse_colour("#fff"), Some(Colour::Rgb([255, 255, 255])));
        assert_eq!(parse_colour("black"), Some(Colour::Ink));
        assert_eq!(parse_colour("white"), Some(Colour::Paper));
        for bad in ["#12345", "#ggg", "blak", "", "#", "rgb(1,2,3)"] {
            assert_eq!(parse_colour(bad), None, "{bad}");
        }
    }
}
