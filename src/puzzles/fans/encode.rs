//! The CNF of a fan puzzle and the way back from a model to directions.

use super::FanPuzzle;
use crate::cnf::{Cnf, GroupId, Lit, Var, card};
use crate::grid::Dir;

/// The CNF of a [`FanPuzzle`]: variable `4 * fan + dir` says that fan blows
/// that way.
#[derive(Clone, Debug)]
pub struct Encoding {
    cnf: Cnf,
    num_fans: usize,
    weathercock_groups: Vec<GroupId>,
}

impl Encoding {
    /// Encodes the puzzle.
    pub fn new(puzzle: &FanPuzzle) -> Encoding {
        let mut cnf = Cnf::new();
        let num_fans = puzzle.num_fans();
        let vars = cnf.new_vars(4 * num_fans);
        let blows = |fan: usize, dir: Dir| vars[4 * fan + dir.index()];
        for fan in 0..num_fans {
            let label = fan_label(puzzle, fan);
            for dir in Dir::ALL {
                cnf.name_var(blows(fan, dir), format!("{label} blows {dir}"));
            }
            cnf.open_group(format!("{label} blows exactly one way"), puzzle.fan_place(fan));
            let options: Vec<Lit> = Dir::ALL.iter().map(|&d| blows(fan, d).pos()).collect();
            card::exactly_one(&mut cnf, &options);
        }
        let mut weathercock_groups = Vec::with_capacity(puzzle.weathercocks().len());
        for (index, weathercock) in puzzle.weathercocks().iter().enumerate() {
            let name = match weathercock.place {
                Some((row, col)) => format!("weathercock at ({row}, {col}) spins"),
                None => format!("weathercock {index} spins"),
            };
            weathercock_groups.push(cnf.open_group(name, weathercock.place));
            let clause: Vec<Lit> = weathercock.hit_by.iter().map(|h| blows(h.fan, h.dir).pos()).collect();
            cnf.add_clause(&clause);
        }
        Encoding { cnf, num_fans, weathercock_groups }
    }

    /// The clause group of each weathercock, in the puzzle's order.
    pub fn weathercock_groups(&self) -> &[GroupId] {
        &self.weathercock_groups
    }

    /// The formula.
    pub fn cnf(&self) -> &Cnf {
        &self.cnf
    }

    /// The formula, by value.
    pub fn into_cnf(self) -> Cnf {
        self.cnf
    }

    /// The variables that decide a solution: all fan directions, fan by fan.
    pub fn decision_vars(&self) -> Vec<Var> {
        (0..4 * self.num_fans).map(Var::from_index).collect()
    }

    /// Each fan's direction in a model, read through `value`. A model that
    /// does not give each fan exactly one direction is refused, naming the fan.
    pub fn decode(&self, value: impl Fn(Lit) -> bool) -> Result<Vec<Dir>, String> {
        let projection: Vec<bool> = self.decision_vars().into_iter().map(|v| value(v.pos())).collect();
        self.decode_projection(&projection)
    }

    /// Each fan's direction from the values of [`Encoding::decision_vars`].
    pub fn decode_projection(&self, values: &[bool]) -> Result<Vec<Dir>, String> {
        values
            .chunks(4)
            .enumerate()
            .map(|(fan, chunk)| {
                let set: Vec<Dir> = Dir::ALL.into_iter().filter(|d| chunk[d.index()]).collect();
                match set[..] {
                    [dir] => Ok(dir),
                    _ => Err(format!("the model gives fan {fan} {} directions", set.len())),
                }
            })
            .collect()
    }
}

pub(super) fn fan_label(puzzle: &FanPuzzle, fan: usize) -> String {
    match puzzle.fan_place(fan) {
        Some((row, col)) => format!("fan {fan} at ({row}, {col})"),
        None => format!("fan {fan}"),
    }
}

#[cfg(test)]
mod examples {
    #[test]
    fn encoding() {
        use crate::grid::Grid;
        use crate::puzzles::fans::{Cell, Encoding, FanPuzzle};
        let grid = Grid::from_rows(vec![vec![Cell::Weathercock, Cell::Fan]]).unwrap();
        let encoding = Encoding::new(&FanPuzzle::from_grid(grid));
        // 4 direction variables; 1 at-least-one + 6 pairwise + 1 weathercock clause.
        assert_eq!(encoding.cnf().num_vars(), 4);
        assert_eq!(encoding.cnf().num_clauses(), 8);
    }
}
