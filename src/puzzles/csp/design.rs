//! What `generate` needs of a csp model with a design table: a random
//! solution drawn by a seeded generator, the clues it gives, and the
//! model's text with new clue values.

use super::instance::Setup;
use super::{CspPuzzle, Engine, render};
use crate::lang::design::Design;
use crate::puzzles::design::{Slot, rewrite};
use crate::puzzles::{Error, SolveOptions};
use crate::rng::SplitMix64;
use crate::solver::Answer;

impl CspPuzzle {
    /// The model's design table, if it has one.
    pub fn design(&self) -> Option<&Design> {
        self.model.design.as_ref()
    }

    /// A random solution, the same for the same generator state on every
    /// machine: the scalars the design reads are taken in a random order,
    /// and each is asked in turn to take a random value of its domain (a
    /// Boolean a random side), kept when some solution agrees with every
    /// value kept so far. Returns the value of every scalar, checked by the
    /// independent verifier, and the route of each grid global; `None` when
    /// the model has no solution.
    pub fn random_solution(
        &self,
        rng: &mut SplitMix64,
        options: &SolveOptions,
    ) -> Result<Option<super::clue_solver::Anchor>, Error> {
        let mut instance = self.prepare(Setup::solving(Engine::Auto), |cnf| options.new_solver(cnf))?;
        if instance.solver.solve()? == Answer::Unsat {
            return Ok(None);
        }
        let mut values = instance.solution()?;
        let mut order = self.design_reads();
        rng.shuffle(&mut order);
        let mut assumptions = Vec::new();
        for s in order {
            let (lit, value) = if let Some(l) = instance.encoder().scalar_lit(s) {
                if rng.below(2) == 1 { (l, 1) } else { (!l, 0) }
            } else if let Some(x) = instance.encoder().scalar_int(s) {
                let domain: Vec<i64> = instance.encoder().domain(x).values().collect();
                let v = domain[rng.below(domain.len())];
                (instance.extend(|enc| enc.eq_lit(x, v))?, v)
            } else {
                continue;
            };
            assumptions.push(lit);
            // The last solution already agrees: no call needed.
            if values.0[s] == value {
                continue;
            }
            match instance.solver.solve_under(&assumptions)? {
                Answer::Sat => values = instance.solution()?,
                Answer::Unsat => {
                    assumptions.pop();
                }
            }
        }
        Ok(Some(values))
    }

    /// A solution of this puzzle that agrees with `values` on the scalars
    /// the design reads, checked by the verifier; `None` when there is
    /// none. A solution drawn without the constraints that read the clues
    /// leaves the variables the design does not read (a nonogram's run
    /// starts) as they fell; a puzzle with clues read off it solves for
    /// them, so that the verifier can check that solution against the
    /// puzzle with fewer clues.
    pub fn completed(
        &self,
        values: &[i64],
        options: &SolveOptions,
    ) -> Result<Option<super::clue_solver::Anchor>, Error> {
        let mut instance = self.prepare(Setup::solving(Engine::Auto), |cnf| options.new_solver(cnf))?;
        let reads = self.design_reads();
        let mut assumptions = Vec::new();
        for &s in &reads {
            let Some(&value) = values.get(s) else { continue };
            if let Some(l) = instance.encoder().scalar_lit(s) {
                assumptions.push(if value == 1 { l } else { !l });
            } else if let Some(x) = instance.encoder().scalar_int(s) {
                assumptions.push(instance.extend(|enc| enc.eq_lit(x, value))?);
            }
        }
        if instance.solver.solve_under(&assumptions)? == Answer::Unsat {
            return Ok(None);
        }
        // A scalar the puzzle fixes before encoding has no literal to
        // assume: the solution must still agree with it, or the clues read
        // off `values` would stand beside another solution's values.
        let found = instance.solution()?;
        Ok(reads.iter().all(|&s| values.get(s).is_none_or(|v| found.0.get(s) == Some(v))).then_some(found))
    }

    /// This model without the constraints `which` (indices into its
    /// constraints, none of which holds a grid global): a template's
    /// constraints that do not read its clue arrays, on which `generate`
    /// draws solutions and encodes its checks once.
    pub fn without_constraints(&self, which: &[usize]) -> CspPuzzle {
        let mut puzzle = self.clone();
        let mut next = 0;
        let renumbered: Vec<Option<usize>> = (0..self.model.constraints.len())
            .map(|k| {
                (!which.contains(&k)).then(|| {
                    next += 1;
                    next - 1
                })
            })
            .collect();
        let mut k = 0;
        puzzle.model.constraints.retain(|_| {
            k += 1;
            renumbered[k - 1].is_some()
        });
        let mut groups = Vec::new();
        let mut moved = vec![None; self.program.groups.len()];
        for (g, group) in self.program.groups.iter().enumerate() {
            if let Some(constraint) = renumbered[group.constraint] {
                moved[g] = Some(groups.len());
                groups.push(crate::lang::Group { constraint, ..group.clone() });
            }
        }
        puzzle.program.groups = groups;
        puzzle.fd_fits = std::sync::OnceLock::new();
        for grid in &mut puzzle.program.grids {
            grid.group = moved[grid.group].unwrap_or(grid.group);
        }
        puzzle
    }

    /// The scalars the design's `read` expressions read, in scalar order.
    fn design_reads(&self) -> Vec<usize> {
        let mut found = std::collections::BTreeSet::new();
        for clue in self.design().map_or(&[][..], |d| &d.clues) {
            for e in &clue.read {
                e.read(&self.program.grids, &mut found);
            }
        }
        found.into_iter().collect()
    }

    /// The clues a solution gives, per clue array, row-major; a cell whose
    /// `read` is undefined in the solution gets the blank.
    pub fn clues_of(&self, values: &[i64]) -> Vec<Vec<i64>> {
        let known = |s: usize| values.get(s).copied();
        let clues = self.design().map_or(&[][..], |d| &d.clues);
        clues.iter().map(|c| c.read_off(&known).into_iter().map(|v| v.unwrap_or(c.blank)).collect()).collect()
    }

    /// How many of the scalars `facts` reports on have more than one value
    /// across the solutions; `None` when there is none. A searched design
    /// scores a set of clues by it.
    pub fn undecided(&self, options: &SolveOptions) -> Result<Option<usize>, Error> {
        let (mut deductions, _) = self.deduce(options, crate::deduce::Wanted::FACTS)?;
        let possible = crate::deduce::possible_facts(&mut deductions)?;
        if deductions.refuted {
            return Ok(None);
        }
        let possible = possible.ok_or_else(|| Error::Internal("a model with a solution has no facts".into()))?;
        let mut values: std::collections::HashMap<usize, usize> = std::collections::HashMap::new();
        for (fact, _) in deductions.facts.iter().zip(&possible).filter(|(_, p)| **p) {
            *values.entry(fact.subject).or_default() += 1;
        }
        Ok(Some(values.values().filter(|&&n| n > 1).count()))
    }

    /// The shown variables of a solution as `solve --format json` writes
    /// them under `"solution"` (without the routes).
    pub fn shown_json(&self, values: &[i64]) -> serde_json::Value {
        let typed = render::solution(&self.model, values, None, &[]);
        let map: serde_json::Map<String, serde_json::Value> = typed
            .values
            .iter()
            .map(|(name, shown)| (name.clone(), serde_json::to_value(shown).unwrap_or(serde_json::Value::Null)))
            .collect();
        serde_json::Value::Object(map)
    }
}

/// The model's text with each clue array's value replaced by `values`
/// (row-major, one list per clue array of `design`); the rest of the text
/// is kept byte for byte.
///
/// ```
/// use somaria::model::Source;
/// use somaria::puzzles::csp::{load_puzzle, design::with_clues};
/// let text = "kind = \"csp\"\n[params]\ng = [0, 2]\n[vars]\nx = { index = [\"1..2\"], domain = \"1..2\" }\n\
///             [[constraint]]\nexpr = 'forall(i in 1..2 where g[i] > 0)(x[i] = g[i])'\n\
///             [[design.clue]]\nparam = \"g\"\nblank = 0\nread = \"x\"\n";
/// let puzzle = load_puzzle(&Source::from_text("m.toml", text)).unwrap();
/// let written = with_clues(text, puzzle.design().unwrap(), &[vec![1, 0]]);
/// assert!(written.contains("g = [1, 0]\n"));
/// ```
pub fn with_clues(text: &str, design: &Design, values: &[Vec<i64>]) -> String {
    let mut pieces: Vec<(std::ops::Range<usize>, String)> =
        design.clues.iter().zip(values).map(|(c, v)| (c.value_span.clone(), c.written(v))).collect();
    pieces.sort_by_key(|(span, _)| std::cmp::Reverse(span.start));
    let mut out = text.to_string();
    for (span, written) in pieces {
        out.replace_range(span, &written);
    }
    out
}

/// The clues found for one puzzle, per clue array row-major, and the clues
/// that are not blank: a draft's slots, in order.
pub struct FoundClues {
    /// Per clue array, row-major.
    pub clues: Vec<Vec<i64>>,
    /// Per slot: its array and the number of its clue there, whose cells
    /// are the clue's entries ([`crate::lang::design::ClueArray::entries`]) from
    /// `number * entries` on.
    pub at: Vec<(usize, usize)>,
}

impl FoundClues {
    /// `clues` with every clue that is not blank a slot: a cell, or for a
    /// list a row with any entry not blank; a region array has none (its
    /// regions are all kept).
    pub fn new(design: &Design, clues: Vec<Vec<i64>>) -> FoundClues {
        let at = clues
            .iter()
            .enumerate()
            .filter(|(a, _)| design.clues[*a].regions.is_none())
            .flat_map(|(a, cells)| {
                let (blank, entries) = (design.clues[a].blank, design.clues[a].entries());
                cells
                    .chunks(entries)
                    .enumerate()
                    .filter(move |(_, clue)| clue.iter().any(|&v| v != blank))
                    .map(move |(k, _)| (a, k))
            })
            .collect();
        FoundClues { clues, at }
    }

    /// The cells of slot `j` (row-major in its array), and its array.
    pub fn cells(&self, design: &Design, j: usize) -> (usize, std::ops::Range<usize>) {
        let (a, k) = self.at[j];
        let entries = design.clues[a].entries();
        (a, k * entries..(k + 1) * entries)
    }

    /// Each slot's clue, in a grid of its clue index's last index across
    /// and the others down (a list's own entries apart).
    pub fn slots(&self, design: &Design) -> Vec<Slot> {
        let slot = |&(a, k): &(usize, usize)| {
            let extent = grid_extent(design.clues[a].clue_index());
            Slot { array: a, place: Some((k / extent.1, k % extent.1)), extent }
        };
        self.at.iter().map(slot).collect()
    }

    /// The clue arrays with the slots in `kept` (one flag each), every
    /// other cell blank; a region array whole.
    pub fn kept(&self, design: &Design, kept: &[bool]) -> Vec<Vec<i64>> {
        let mut values: Vec<Vec<i64>> = (design.clues.iter().zip(&self.clues))
            .map(|(c, found)| if c.regions.is_some() { found.clone() } else { vec![c.blank; c.len()] })
            .collect();
        for (j, _) in kept.iter().enumerate().filter(|(_, keep)| **keep) {
            let (a, cells) = self.cells(design, j);
            values[a][cells.clone()].copy_from_slice(&self.clues[a][cells]);
        }
        values
    }

    /// `text` with the clue arrays written with the slots in `kept`, and
    /// the design's title edit, if any.
    pub fn write(&self, design: &Design, text: &str, title: Option<Edit>, kept: &[bool]) -> String {
        let values = self.kept(design, kept);
        let mut edits: Vec<Edit> =
            design.clues.iter().zip(&values).map(|(c, v)| (c.value_span.clone(), c.written(v))).collect();
        edits.extend(title);
        rewrite(text, edits)
    }
}

/// An edit of a template's text: the bytes replaced, and what goes there.
pub type Edit = (std::ops::Range<usize>, String);

/// A clue array's grid: its last index across, the others down.
pub fn grid_extent(index: &[(i64, i64)]) -> (usize, usize) {
    let sizes: Vec<usize> = index.iter().map(|&(lo, hi)| (hi - lo + 1).max(0) as usize).collect();
    let cols = sizes.last().copied().unwrap_or(1).max(1);
    (sizes.iter().rev().skip(1).product::<usize>(), cols)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Source;
    use crate::puzzles::csp::load_puzzle;

    /// A model whose clue `c[cell, 1..3]` is a list of three entries.
    const LISTS: &str = "kind = \"csp\"\n[params]\nc = [[-1, -1, -1], [-1, -1, -1], [-1, -1, -1], [-1, -1, -1]]\n\
        [vars]\nx = { index = [\"1..4\"], domain = \"0..3\" }\n\
        [[constraint]]\nexpr = 'forall(i in 1..4 where c[i, 1] != -1)(x[i] = c[i, 1])'\n\
        [[design.clue]]\nparam = \"c\"\nblank = -1\nlist = true\n\
        read = 'array2d(1..4, 1..3, [if k <= x[i] then k else -1 endif | i in 1..4, k in 1..3])'\n";

    #[test]
    fn a_list_clue_is_one_slot_kept_or_dropped_whole() {
        let puzzle = load_puzzle(&Source::from_text("m.toml", LISTS)).unwrap();
        let design = puzzle.design().unwrap();
        assert_eq!((design.clues[0].entries(), design.clues[0].clue_index()), (3, &[(1, 4)][..]));
        // x = [2, 0, 3, 1]: cell 2's list is all blank, so not a slot.
        let clues = puzzle.clues_of(&[2, 0, 3, 1]);
        assert_eq!(clues[0], [1, 2, -1, -1, -1, -1, 1, 2, 3, 1, -1, -1]);
        let found = FoundClues::new(design, clues);
        assert_eq!(found.at, [(0, 0), (0, 2), (0, 3)]);
        assert_eq!(found.cells(design, 1), (0, 6..9));
        let places: Vec<_> = found.slots(design).iter().map(|s| (s.place, s.extent)).collect();
        assert_eq!(places, [(Some((0, 0)), (1, 4)), (Some((0, 2)), (1, 4)), (Some((0, 3)), (1, 4))]);
        // Dropped, a list is blank in every entry; kept, it is whole.
        assert_eq!(found.kept(design, &[false, true, false])[0], [-1, -1, -1, -1, -1, -1, 1, 2, 3, -1, -1, -1]);
        let written = found.write(design, LISTS, None, &[true, false, true]);
        assert!(written.contains("[ 1,  2, -1],\n  [-1, -1, -1],\n  [-1, -1, -1],\n  [ 1, -1, -1],"), "{written}");
    }
}
