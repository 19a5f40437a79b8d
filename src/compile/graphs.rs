//! The graph globals in CNF: `graph_connected` as a region over a
//! [`GridGraph`] built from the model's edges, so that the grid region's
//! cuts (and, for the eager engine, its ranked tree of parents) serve it
//! unchanged; and `graph_acyclic` as the edges' literals alone, whose
//! cycles the repair step cuts ([`crate::graph::judge_forest`]).

use std::collections::HashMap;

use super::grids::Words;
use super::{CompileError, Encoder, Form, GridEncoding, Pol};
use crate::cnf::Lit;
use crate::graph::{self, GridGraph};
use crate::lang::ir::GridGlobal;

impl Encoder {
    /// The literals of a graph global's array, one per node or edge.
    fn graph_literals(&mut self, spec: &GridGlobal) -> Result<Vec<Lit>, CompileError> {
        spec.on.iter().map(|b| self.reify(b, Pol::Both)).collect()
    }

    /// Encodes `graph_connected` (grid global `id`, `spec`, over `edges`)
    /// into the current group: the nodes that can be on as a graph, and for
    /// the eager engine a ranked tree of parents over it; under `guard`,
    /// when given, as `grid_connected`'s region is (its clauses and cuts
    /// hold only where the guard does).
    pub(super) fn graph_connected(
        &mut self,
        id: usize,
        spec: &GridGlobal,
        edges: &[(usize, usize)],
        guard: Option<Lit>,
    ) -> Result<(), CompileError> {
        let lits = self.graph_literals(spec)?;
        let (truth, never) = (self.t(), self.f());
        let graph = GridGraph::from_edges(lits.len(), edges, |k| lits[k] != never);
        let on: Vec<Lit> = (0..graph.num_nodes()).map(|n| lits[graph.position(n).0]).collect();
        let always_on: Vec<bool> = on.iter().map(|&l| l == truth).collect();
        let eager = self.eager_grids;
        if eager {
            graph::rank_tree(&mut Words { enc: self, graph: &graph, spec, guard }, &graph, &on, truth);
        }
        self.grids.push(GridEncoding { id, graph, on, always_on, form: Form::Region, eager, guard });
        self.check_size()
    }

    /// Encodes `graph_acyclic` (grid global `id`, `spec`, over `nodes` and
    /// `edges`) into the current group: its shortest cycles at once (a
    /// self-loop is never used, two parallel edges are not both used), the
    /// rest left to the repair step.
    pub(super) fn graph_acyclic(
        &mut self,
        id: usize,
        spec: &GridGlobal,
        nodes: usize,
        edges: &[(usize, usize)],
    ) -> Result<(), CompileError> {
        if self.eager_grids {
            return Err(CompileError::Unsupported(
                "graph_acyclic is cut lazily between solves and has no eager form; expected another engine than \
                 eager (auto, direct, order or log)"
                    .into(),
            ));
        }
        let used = self.graph_literals(spec)?;
        let mut between: HashMap<(usize, usize), Vec<Lit>> = HashMap::new();
        for (&(u, v), &l) in edges.iter().zip(&used) {
            if u == v {
                self.clause(&[!l]);
            } else {
                between.entry((u.min(v), u.max(v))).or_default().push(l);
            }
        }
        for parallel in between.values() {
            for (k, &a) in parallel.iter().enumerate() {
                for &b in &parallel[k + 1..] {
                    self.clause(&[!a, !b]);
                }
            }
        }
        let graph = GridGraph::from_edges(nodes, edges, |_| true);
        let always_on = used.iter().map(|&l| l == self.t()).collect();
        let form = Form::Forest { nodes, edges: edges.to_vec() };
        self.grids.push(GridEncoding { id, graph, on: used, always_on, form, eager: false, guard: None });
        self.check_size()
    }
}
