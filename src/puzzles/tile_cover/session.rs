//! One incremental solver over an [`Encoding`], which turns every model into
//! a single walk before anyone reads it: with the lazy encoding, a model
//! with detached cycles gets one cut per cycle and is solved again.
//!
//! Cuts hold for every solution, so they stay for the life of the solver,
//! through counting and facts alike.

use super::encode::{CutStyle, Encoding, Reading, Scheme};
use super::graph::Room;
use crate::cnf::{Cnf, Lit};
use crate::puzzles::Error;
use crate::solver::{Answer, Solve, SolveStats, VarisatSolver};

/// A solver over an encoding, with the cuts it has added.
pub struct Session<'a> {
    room: &'a Room,
    encoding: &'a Encoding,
    solver: VarisatSolver,
    cuts: Vec<Vec<Lit>>,
}

impl<'a> Session<'a> {
    /// A fresh solver holding the encoding's clauses.
    pub fn new(room: &'a Room, encoding: &'a Encoding) -> Session<'a> {
        Session { room, encoding, solver: VarisatSolver::from_cnf(encoding.cnf()), cuts: Vec::new() }
    }

    /// The solver's counters.
    pub fn stats(&self) -> SolveStats {
        self.solver.stats()
    }

    /// The encoding's CNF with every cut added so far: the formula solved.
    pub fn solved_cnf(&self) -> Cnf {
        let mut cnf = self.encoding.cnf().clone();
        if !self.cuts.is_empty() {
            cnf.open_group("cuts against detached cycles, added between solves", None);
            for cut in &self.cuts {
                cnf.add_clause(cut);
            }
        }
        cnf
    }

    /// The value of a literal in the last model.
    pub fn value(&self, lit: Lit) -> bool {
        self.solver.value(lit)
    }

    /// A fresh selector literal for guarded clauses.
    pub fn new_selector(&mut self) -> Lit {
        self.solver.new_var().pos()
    }

    /// Adds a clause that holds from now on.
    pub fn add_clause(&mut self, clause: &[Lit]) {
        self.solver.add_clause(clause);
    }

    /// A walk under the assumptions, as its tiles in order, or `None` when
    /// there is none.
    pub fn walk(&mut self, assumptions: &[Lit]) -> Result<Option<Vec<usize>>, Error> {
        loop {
            if self.solver.solve_under(assumptions)? == Answer::Unsat {
                return Ok(None);
            }
            match self.encoding.read(self.room, |lit| self.solver.value(lit)) {
                Reading::Walk(walk) => return Ok(Some(walk)),
                Reading::Broken(why) => return Err(Error::CheckFailed(format!("the model is not a walk: {why}"))),
                Reading::Cycles(cycles) => {
                    let Scheme::Lazy(style) = self.encoding.scheme() else {
                        return Err(Error::CheckFailed("the encoding let a detached cycle through".to_string()));
                    };
                    for cycle in &cycles {
                        for cut in self.cuts_for(cycle, style) {
                            self.solver.add_clause(&cut);
                            self.cuts.push(cut);
                        }
                    }
                }
            }
        }
    }

    /// The clauses that forbid a detached cycle, given as its arcs.
    ///
    /// A cut-set says the walk enters the cycle's cells. It holds in every
    /// solution that covers one of them, so it is guarded, cell by cell, by
    /// that cell being covered; a solution may cover part of the set, and
    /// then it still enters it. The start is never inside, so a walk that
    /// covers a cell of the set must come in from outside.
    fn cuts_for(&self, cycle: &[usize], style: CutStyle) -> Vec<Vec<Lit>> {
        let arc_vars = self.encoding.arc_vars().expect("lazy encodings have arcs");
        match style {
            CutStyle::Nogood => vec![cycle.iter().map(|&a| arc_vars[a].neg()).collect()],
            CutStyle::CutSet => {
                let mut inside = vec![false; self.room.num_nodes()];
                let cells: Vec<usize> = cycle.iter().map(|&a| self.room.arcs()[a].0).collect();
                for &cell in &cells {
                    inside[cell] = true;
                }
                let entering: Vec<Lit> = cells
                    .iter()
                    .flat_map(|&cell| self.room.in_arcs(cell))
                    .filter(|&&a| !inside[self.room.arcs()[a].0])
                    .map(|&a| arc_vars[a].pos())
                    .collect();
                let always_covered = self.room.leave_uncovered() == 0;
                let guards: Vec<Option<Lit>> = if always_covered {
                    vec![None]
                } else {
                    cells.iter().map(|&cell| Some(!self.encoding.covered(cell))).collect()
                };
                guards.into_iter().map(|guard| guard.into_iter().chain(entering.iter().copied()).collect()).collect()
            }
        }
    }
}
