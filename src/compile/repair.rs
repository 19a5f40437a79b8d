//! Solving with grid globals: the repair step that judges each model of
//! the formula against every grid global (through [`crate::graph`]'s
//! judges), and the routes it accepted, as the array's own cells, for the
//! independent check and the output.
//!
//! A model whose path, loop or region breaks into pieces (or whose forest
//! holds a cycle) gets cut clauses
//! that hold for every solution of the global, and so of the whole model;
//! in `explain`, where a constraint's clauses hold only under its selector,
//! a global's cuts are guarded by the same selector, and a model in which
//! the selector is off leaves the global unjudged.

use std::cell::RefCell;
use std::rc::Rc;

use super::{Form, GridEncoding};
use crate::cnf::{Lit, Var};
use crate::graph::{Cover, CutStyle, Judgement, START, judge_forest, judge_loop, judge_path, judge_region};
use crate::lang::ir::{GridGlobal, GridKind};
use crate::solver::{Repair, Repairer};

/// How loops and regions are cut. Separator cuts bind wherever the next
/// model's pieces lie, where a nogood over a cycle's steps (or a cut-set
/// guarded by one node of another piece) binds only against that cycle
/// (or while that node is on); see the book's benchmarks page for the figures.
const CUT_STYLE: CutStyle = CutStyle::Separator;

/// A route: the array's cells `(row, col)` in order, by its own indices.
pub type Route = Vec<(i64, i64)>;

/// What the repair step found: per grid global (by number) the route of the
/// last accepted model (a path from its start, a loop from its first cell
/// in reading order towards the nearer of its two neighbours in reading
/// order; `None` for a region, or a global left unjudged), and every cut.
#[derive(Clone, Debug, Default)]
pub struct RepairLog {
    /// Per global.
    pub routes: Vec<Option<Route>>,
    /// Every cut added, for the formula that was solved.
    pub cuts: Vec<Vec<Lit>>,
}

/// The repair step for every grid global of a model.
///
/// It shares the encoded grids and its log with its builder (`Rc`), so a
/// solver built on it may outlive the function that built it.
pub struct GridRepair<'a> {
    specs: &'a [GridGlobal],
    grids: Rc<[GridEncoding]>,
    guards: Vec<Option<Lit>>,
    splice: bool,
    found: Rc<RefCell<RepairLog>>,
}

impl<'a> GridRepair<'a> {
    /// A repair step for the encoded `grids` of the globals `specs`, each
    /// judged only when its guard (if any) holds. With `splice`, detached
    /// cycles are merged where they fit rather than cut, which changes the
    /// arcs but not which cells are on: right for solve, facts and explain,
    /// wrong for counting.
    pub fn new(
        specs: &'a [GridGlobal],
        grids: Rc<[GridEncoding]>,
        guards: Vec<Option<Lit>>,
        splice: bool,
        found: Rc<RefCell<RepairLog>>,
    ) -> GridRepair<'a> {
        GridRepair { specs, grids, guards, splice, found }
    }

    /// The route of an accepted path or loop, as cells.
    fn route(&self, grid: &GridEncoding, nodes: Vec<usize>) -> Route {
        let spec = &self.specs[grid.id];
        let nodes = match (&grid.form, nodes.len()) {
            (Form::Path { .. }, _) => std::iter::once(START).chain(nodes).collect(),
            (_, 0) => nodes,
            _ => {
                // Nodes are numbered in reading order: start at the least,
                // towards its lesser neighbour on the loop.
                let first = (0..nodes.len()).min_by_key(|&i| nodes[i]).unwrap_or(0);
                let mut turned: Vec<usize> = nodes[first..].iter().chain(&nodes[..first]).copied().collect();
                if turned.len() > 2 && turned[1] > turned[turned.len() - 1] {
                    turned[1..].reverse();
                }
                turned
            }
        };
        nodes.into_iter().map(|n| spec.cell(grid.graph.position(n))).collect()
    }
}

impl Repairer for GridRepair<'_> {
    fn repair(&mut self, value: &dyn Fn(Lit) -> bool, fresh: &mut dyn FnMut() -> Var) -> Result<Repair, String> {
        let mut cuts = Vec::new();
        let mut routes = vec![None; self.specs.len()];
        for grid in self.grids.iter() {
            // The selector of its constraint, and its own guard.
            let guards: Vec<Lit> = self.guards[grid.id].iter().chain(&grid.guard).copied().collect();
            if guards.iter().any(|&g| !value(g)) {
                continue;
            }
            let cover = Cover { on: &grid.on, always_on: &grid.always_on, most_off: None };
            let style = (!grid.eager).then_some(CUT_STYLE);
            let judged = match &grid.form {
                Form::Path { arcs, lasts, bound } => {
                    judge_path(&grid.graph, arcs, lasts, &cover, style, self.splice && !bound, value)?
                }
                // Splicing takes other steps than the model's, which a
                // model's own step arrays would then contradict.
                Form::Loop { arcs, steps, bound } => {
                    judge_loop(&grid.graph, arcs, steps, &cover, style, self.splice && !bound, value, fresh)?
                }
                Form::Region => judge_region(&grid.graph, &cover, CUT_STYLE, value, fresh),
                Form::Regions(form) => super::regions::judge_regions(form, value),
                Form::Forest { nodes, edges } => judge_forest(*nodes, edges, &grid.on, value),
            };
            let spec = &self.specs[grid.id];
            match judged {
                Judgement::Accept(nodes) => {
                    if matches!(spec.kind, GridKind::Path { .. } | GridKind::Loop) {
                        routes[grid.id] = Some(self.route(grid, nodes));
                    }
                }
                Judgement::Cut(_) if grid.eager => {
                    return Err(format!("the eager encoding of {} let a model in pieces through", spec.name()));
                }
                Judgement::Cut(more) => {
                    cuts.extend(more.into_iter().map(|mut clause| {
                        clause.extend(guards.iter().map(|&g| !g));
                        clause
                    }));
                }
            }
        }
        let mut found = self.found.borrow_mut();
        if cuts.is_empty() {
            found.routes = routes;
            return Ok(Repair::Accept);
        }
        found.cuts.extend(cuts.iter().cloned());
        Ok(Repair::Cut(cuts))
    }
}
