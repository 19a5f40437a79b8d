//! The grid globals in CNF, through the shared encodings of
//! [`crate::graph`]: each cell's Boolean becomes a literal (constant for a
//! fixed cell), the cells that can be on become a [`GridGraph`], and the
//! global's clauses go to its constraint's group.
//!
//! The lazy forms (every engine but `eager`) leave out that the arcs or
//! the region are one piece; the solver's repair step adds cuts between
//! solves (see `super::repair`). The eager forms state it with binary
//! positions along the path or loop, and a ranked tree of parents for a
//! region, so the formula alone decides.

use std::collections::HashMap;

use super::CompileError;
use super::{Encoder, Pol};
use crate::cnf::{ClauseSink, Lit, Var};
use crate::graph::{self, GridGraph, Named, START, Sink, Walk};
use crate::lang::ir::{GridGlobal, GridKind, StepArrays};

/// The clauses of one grid global, and what reading its models needs.
#[derive(Clone, Debug)]
pub struct GridEncoding {
    /// The global's number in the program.
    pub id: usize,
    /// The cells that can be on; a path's start is node [`START`].
    pub graph: GridGraph,
    /// Each node's "on" literal.
    pub on: Vec<Lit>,
    /// The nodes that are on whatever the model.
    pub always_on: Vec<bool>,
    /// The arcs, per kind.
    pub form: Form,
    /// Whether the encoding states that it is one piece (ranks), so that no
    /// cut is ever needed.
    pub eager: bool,
    /// For a global under a Boolean guard (`b -> grid_connected(on)`), the
    /// literal that holds exactly when the guard does: its clauses and cuts
    /// hold only under it, and a model where it is off is not judged.
    pub guard: Option<Lit>,
}

/// The variables of each kind of global.
#[derive(Clone, Debug)]
pub enum Form {
    /// A path: an arc variable per arc of the graph, "ends here" per node.
    Path {
        /// By arc number.
        arcs: Vec<Var>,
        /// By node.
        lasts: Vec<Option<Lit>>,
        /// Whether the model's step arrays are bound to the arcs: then a
        /// route must keep the model's steps, and cycles cannot be spliced.
        bound: bool,
    },
    /// A loop: an arc variable per arc, and a literal per undirected step.
    Loop {
        /// By arc number.
        arcs: Vec<Var>,
        /// `(arc, literal)` per pair of opposite arcs.
        steps: Vec<(usize, Lit)>,
        /// Whether the model's step arrays are bound to `steps`: then a
        /// route must keep the model's steps, and cycles cannot be spliced.
        bound: bool,
    },
    /// A connected region: the "on" literals say it all.
    Region,
    /// A division into regions with their sizes.
    Regions(super::regions::RegionsForm),
    /// A forest: the "on" literals are the edges' "used" literals, and
    /// these the edges, over nodes `0..nodes` (self-loops and parallel
    /// edges kept).
    Forest {
        /// How many nodes.
        nodes: usize,
        /// Each edge's two nodes.
        edges: Vec<(usize, usize)>,
    },
}

impl GridEncoding {
    /// The literals that tell two solutions apart when blocked on the ones
    /// a solution makes true: the arcs of a path (or the steps of a loop),
    /// and "off" for each node. Two solutions with the same nodes off take
    /// as many arcs, so neither's arcs are a part of the other's.
    pub fn distinguishing_literals(&self) -> Vec<Lit> {
        let choices: Vec<Lit> = match &self.form {
            Form::Path { arcs, .. } => arcs.iter().map(|v| v.pos()).collect(),
            Form::Loop { steps, .. } => steps.iter().map(|&(_, l)| l).collect(),
            Form::Region | Form::Regions(_) | Form::Forest { .. } => Vec::new(),
        };
        match self.form {
            Form::Region | Form::Regions(_) | Form::Forest { .. } => choices,
            _ => choices.into_iter().chain(self.on.iter().map(|&l| !l)).collect(),
        }
    }
}

/// The encoder as a [`graph::Sink`], naming arcs by the array's cells.
pub(super) struct Words<'a> {
    pub(super) enc: &'a mut Encoder,
    pub(super) graph: &'a GridGraph,
    pub(super) spec: &'a GridGlobal,
    /// The global's guard: every clause holds only under it.
    pub(super) guard: Option<Lit>,
}

impl ClauseSink for Words<'_> {
    fn new_var(&mut self) -> Var {
        self.enc.fresh_var()
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        match self.guard {
            Some(g) => self.enc.clause(&clause.iter().copied().chain([!g]).collect::<Vec<_>>()),
            None => self.enc.clause(clause),
        }
    }
}

impl Sink for Words<'_> {
    fn name(&mut self, var: Var, what: Named) {
        let cell = |node: usize| {
            let (r, c) = self.spec.cell(self.graph.position(node));
            format!("[{r},{c}]")
        };
        let name = match what {
            Named::Arc(arc) => {
                let (from, to) = self.graph.arcs()[arc];
                format!("{} step {} -> {}", self.spec.name(), cell(from), cell(to))
            }
            Named::Last(node) => format!("{} ends at {}", self.spec.name(), cell(node)),
            Named::EndColour => format!("{} ends on its start's colour", self.spec.name()),
        };
        self.enc.names.push((var, name));
    }
}

/// One literal per undirected step a path can take, "the path takes this
/// step one way or the other": the arc itself where only one way exists
/// (out of the start, into the end), else a fresh literal defined both
/// ways from the two arcs (a simple path never takes both). `(arc,
/// literal)`, one per step, as [`graph::undirected_steps`] gives a loop's.
fn path_steps(words: &mut Words<'_>, graph: &GridGraph, arcs: &[Var]) -> Vec<(usize, Lit)> {
    let mut steps = Vec::new();
    for index in 0..graph.arcs().len() {
        match graph.reverse(index) {
            Some(back) if index < back => {
                let step = words.new_var().pos();
                let (a, b) = (arcs[index].pos(), arcs[back].pos());
                // Definitions, true whatever the arcs: hard clauses.
                let saved = words.enc.sink;
                words.enc.sink = 0;
                words.add_clause(&[!step, a, b]);
                words.add_clause(&[step, !a]);
                words.add_clause(&[step, !b]);
                words.enc.sink = saved;
                steps.push((index, step));
            }
            Some(_) => {}
            None => steps.push((index, arcs[index].pos())),
        }
    }
    steps
}

impl Encoder {
    /// Encodes grid global `id` into the current group, to hold when every
    /// literal of `guard` does (always, for an empty guard).
    pub(super) fn grid(&mut self, id: usize, guard: &[Lit]) -> Result<(), CompileError> {
        let spec = self
            .grid_specs
            .get(id)
            .cloned()
            .ok_or_else(|| CompileError::Internal(format!("grid global {id} was not unrolled")))?;
        let guard = self.guard_literal(guard)?;
        if guard.is_some() && !matches!(spec.kind, GridKind::Connected | GridKind::GraphConnected { .. }) {
            return Err(CompileError::Internal(format!("{} under a guard", spec.name())));
        }
        match &spec.kind {
            GridKind::Regions => return self.regions(id, &spec),
            GridKind::GraphConnected { edges } => return self.graph_connected(id, &spec, edges, guard),
            GridKind::GraphAcyclic { nodes, edges } => return self.graph_acyclic(id, &spec, *nodes, edges),
            _ => {}
        }
        let (rows, cols) = spec.shape();
        let mut cell_lits = Vec::with_capacity(spec.on.len());
        for b in &spec.on {
            cell_lits.push(self.reify(b, Pol::Both)?);
        }
        let (truth, never) = (self.t(), self.f());
        let lit_at = |(r, c): (usize, usize)| cell_lits[r * cols + c];
        let (start, end) = match spec.kind {
            GridKind::Path { start, end } => (Some(spec.position(start)), end.map(|e| spec.position(e))),
            _ => (None, None),
        };
        let graph = GridGraph::new(rows, cols, |p| lit_at(p) != never, start, end);
        let on: Vec<Lit> = (0..graph.num_nodes()).map(|n| lit_at(graph.position(n))).collect();
        let always_on: Vec<bool> = on.iter().map(|&l| l == truth).collect();
        let eager = self.eager_grids;
        // The colour count only over a fixed set of cells, where it is a
        // constant (and refutes a room with a colour too many before any
        // search). Over free cells its counters cost more than they save:
        // measured, count --limit 2 of the 10 x 10 slitherlink 19 -> 35 ms
        // and of the 9 x 9 numberlink 21 -> 36 ms.
        let fixed_cover = (0..graph.num_nodes()).all(|n| always_on[n] || n == START || Some(n) == graph.end());
        let mut words = Words { enc: self, graph: &graph, spec: &spec, guard };
        let form = match spec.kind {
            GridKind::Path { .. } => {
                let (arcs, lasts) = graph::path_arcs(&mut words, &graph, &on, true);
                words.add_clause(&[on[START]]);
                if let Some(end) = graph.end() {
                    words.add_clause(&[on[end]]);
                }
                if fixed_cover {
                    graph::colour_count(&mut words, &graph, &on, truth, Walk::Path, None);
                }
                if eager {
                    graph::binary_rank(&mut words, &graph, &arcs, truth, None);
                } else if fixed_cover {
                    // It fixes the colour of the last cell. Measured on the
                    // tile-cover family: it helps the lazy form and slows
                    // the ranks.
                    graph::end_colour_link(&mut words, &graph, &on, truth, None, &lasts);
                }
                if let Some(arrays) = &spec.steps {
                    let steps = path_steps(&mut words, &graph, &arcs);
                    words.enc.bind_steps(&graph, &steps, arrays, cols)?;
                }
                Form::Path { arcs, lasts, bound: spec.steps.is_some() }
            }
            GridKind::Loop => {
                let arcs = graph::loop_arcs(&mut words, &graph, &on);
                if fixed_cover {
                    graph::colour_count(&mut words, &graph, &on, truth, Walk::Loop, None);
                }
                if eager {
                    let roots = graph::first_on(&mut words, &on, truth);
                    graph::binary_rank(&mut words, &graph, &arcs, truth, Some(&roots));
                }
                // Definitions, true whatever the arcs: hard clauses.
                let saved = words.enc.sink;
                words.enc.sink = 0;
                let steps = graph::undirected_steps(&mut words, &graph, &arcs);
                words.enc.sink = saved;
                Form::Loop { arcs, steps, bound: spec.steps.is_some() }
            }
            _ => {
                if eager {
                    graph::rank_tree(&mut words, &graph, &on, truth);
                }
                Form::Region
            }
        };
        if let Form::Loop { steps, .. } = &form {
            graph::step_degrees(&mut Words { enc: self, graph: &graph, spec: &spec, guard }, &graph, &on, steps);
            if let Some(arrays) = &spec.steps {
                self.bind_steps(&graph, steps, arrays, cols)?;
            }
        }
        self.grids.push(GridEncoding { id, graph, on, always_on, form, eager, guard });
        self.check_size()
    }

    /// One literal that holds exactly when every literal of `guard` does;
    /// none when the guard always holds.
    fn guard_literal(&mut self, guard: &[Lit]) -> Result<Option<Lit>, CompileError> {
        let truth = self.t();
        let lits: Vec<Lit> = guard.iter().copied().filter(|&l| l != truth).collect();
        Ok(match lits[..] {
            [] => None,
            [one] => Some(one),
            _ => {
                let g = self.new_lit()?;
                for &l in &lits {
                    self.clause(&[!g, l]);
                }
                let mut all: Vec<Lit> = lits.iter().map(|&l| !l).collect();
                all.push(g);
                self.clause(&all);
                Some(g)
            }
        })
    }

    /// States that each element of the model's step arrays is the loop's
    /// step between its two cells; a step the graph lacks (a cell that is
    /// never on) is never taken. These clauses belong to the constraint, so
    /// that `explain` can drop them with it.
    fn bind_steps(
        &mut self,
        graph: &GridGraph,
        steps: &[(usize, Lit)],
        arrays: &StepArrays,
        cols: usize,
    ) -> Result<(), CompileError> {
        let mut by_pair = HashMap::with_capacity(steps.len());
        for &(arc, lit) in steps {
            let (from, to) = graph.arcs()[arc];
            let (a, b) = (graph.position(from), graph.position(to));
            by_pair.insert((a.min(b), a.max(b)), lit);
        }
        let across = arrays.across.iter().enumerate().map(|(k, b)| {
            let (r, c) = (k / (cols - 1), k % (cols - 1));
            (b, ((r, c), (r, c + 1)))
        });
        let down = arrays.down.iter().enumerate().map(|(k, b)| {
            let (r, c) = (k / cols, k % cols);
            (b, ((r, c), (r + 1, c)))
        });
        for (b, pair) in across.chain(down).collect::<Vec<_>>() {
            let given = self.reify(b, Pol::Both)?;
            match by_pair.get(&pair) {
                Some(&step) => {
                    self.clause(&[!given, step]);
                    self.clause(&[given, !step]);
                }
                None => self.clause(&[!given]),
            }
        }
        Ok(())
    }
}
