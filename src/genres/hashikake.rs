//! Hashiwokakero, or Bridges (pzprjs `hashikake`, `hashi` in URLs): join
//! the islands by straight bridges, one or two between two islands, that
//! never cross; each island's number counts its bridges, and the bridges
//! join every island into one group.
//!
//! URL: `COLS/ROWS/` and the islands in pzprjs's number16 (`.` an island
//! without a number). File (`pzprv3`): the islands, then the bridges as
//! BorderLine (1 or 2 across each border they pass).

use super::board::{Answer, ClueGrid, ParamError, ParamsIn};
use super::codec::{NUMBER16, Unwritable};
use super::pzprv3::FileText;
use super::url::Envelope;
use super::{Genre, Instance};

pub static GENRE: Genre = Genre {
    id: "hashikake",
    aliases: &["hashi", "bridges"],
    url_id: "hashi",
    title: "Hashiwokakero",
    flags: &[],
    template: include_str!("../../models/genres/hashikake.toml"),
    sample: "https://puzz.link/p?hashi/5/5/4g2i3h23k3g1g3g4g3",
    decode: |env: &Envelope<'_>| Ok(Box::new(Hashikake(ClueGrid::decode(env, NUMBER16)?))),
    read: |p: &ParamsIn| -> Result<Box<dyn Instance>, ParamError> {
        let what = "0 to 8 (an island), -2 (an island without a number) or -1 (water)";
        Ok(Box::new(Hashikake(ClueGrid::read(p, |v| (-2..=8).contains(&v), what)?)))
    },
    random: |rng, rows, cols| {
        Box::new(Hashikake(ClueGrid::random(rng, (rows, cols), 0.3, |rng| {
            if rng.chance(0.05) { -2 } else { 1 + rng.below(4) as i32 }
        })))
    },
};

/// A hashiwokakero: its islands (the number of bridges, -2 not shown; -1
/// water).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hashikake(pub ClueGrid);

impl Instance for Hashikake {
    fn genre(&self) -> &'static Genre {
        &GENRE
    }

    fn size(&self) -> (usize, usize) {
        (self.0.rows, self.0.cols)
    }

    fn body(&self) -> Result<String, Unwritable> {
        self.0.body(NUMBER16)
    }

    fn params(&self) -> toml::Table {
        self.0.params().0
    }

    fn file(&self, answer: &Answer<'_>) -> Result<String, String> {
        let (rows, cols) = self.size();
        let across = answer.ints("across", (1, 1), rows, cols - 1)?;
        let down = answer.ints("down", (1, 1), rows - 1, cols)?;
        let file = FileText::new("pzprv3", "hashikake", &[rows, cols]).qnums(rows, cols, &self.0.clues).borders(
            rows,
            cols,
            |vertical, r, c| {
                let bridges = if vertical { across[r * (cols - 1) + c] } else { down[r * cols + c] };
                match bridges {
                    Some(0) if answer.is_state() => "-1".into(),
                    Some(n) => n.to_string(),
                    None => "0".into(),
                }
            },
        );
        Ok(file.finish())
    }
}
