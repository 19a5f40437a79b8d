//! Constraints over grid graphs: one path from a start through chosen
//! cells, one loop through chosen cells, and one 4-connected region, each
//! over "on" literals that the caller supplies, so the cells may be fixed
//! (a room to cover) or part of the puzzle (the cells a line runs through,
//! the sea of a nurikabe).
//!
//! - [`GridGraph`]: the cells that can be on, as nodes with arcs between
//!   neighbours, an optional start (never entered) and end;
//! - [`encode`](path_arcs): successor arcs for paths and loops, the eager
//!   alternative of binary positions ([`binary_rank`]), and a tree of
//!   parents for regions ([`rank_tree`]);
//! - [`read_path`], [`read_loops`], [`components`]: a model back to walks,
//!   cycles and pieces;
//! - [`path_cuts`], [`loop_cuts`], [`region_cuts`]: the clauses the lazy
//!   forms add between solves, valid for every solution;
//! - [`splice_into_path`], [`splice_into_loop`]: detached cycles merged into
//!   one piece without another solve;
//! - [`judge_path`], [`judge_loop`], [`judge_region`]: the repair step of a
//!   lazy solver for each constraint, from reading a model to accepting it
//!   or cutting it off;
//! - [`GridGraph::from_edges`]: a graph given as data, for connectivity
//!   over it, and [`judge_forest`]: the repair step of acyclicity over
//!   one.
//!
//! The tile-cover family is a path over a fixed room; `kind = "csp"` models
//! use all three as the globals `grid_path`, `grid_loop` and
//! `grid_connected`, and `graph_connected` and `graph_acyclic` over graphs
//! given as data.

mod cells;
mod cuts;
mod encode;
mod forest;
mod read;
mod splice;

pub use cells::{GridGraph, START};
pub use cuts::{Cover, CutStyle, loop_cuts, loop_separator_cuts, path_cuts, region_cuts, region_separator_cuts};
pub use encode::{
    Named, Part, Sink, Walk, binary_rank, colour_count, end_colour_link, first_on, guarded_colour_count,
    guarded_end_colour_link, loop_arcs, path_arcs, rank_tree, step_degrees, undirected_steps,
};
pub use forest::{forest_cycles, judge_forest};
pub use read::{PathReading, components, read_loops, read_path};
pub use splice::{splice_into_loop, splice_into_path};

use crate::cnf::{Lit, Var};

/// What the repair step makes of a model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Judgement {
    /// The model stands, with the nodes in order: a path's nodes after the
    /// start, or a loop's nodes; nothing for a region.
    Accept(Vec<usize>),
    /// The model breaks the constraint; these clauses, valid for every
    /// solution, rule it out.
    Cut(Vec<Vec<Lit>>),
}

/// Judges a model of [`path_arcs`]: a single path is accepted; detached
/// cycles are spliced into it when `splice` allows and they fit, and
/// otherwise cut with `style`. With no style (an eager encoding) a
/// detached cycle is a bug, and so is a model that is not a path at all.
pub fn judge_path(
    graph: &GridGraph,
    arcs: &[Var],
    lasts: &[Option<Lit>],
    cover: &Cover<'_>,
    style: Option<CutStyle>,
    splice: bool,
    value: &dyn Fn(Lit) -> bool,
) -> Result<Judgement, String> {
    match read_path(graph, arcs, value) {
        PathReading::Walk(walk) => Ok(Judgement::Accept(walk)),
        PathReading::Broken(why) => Err(format!("the model is not a walk: {why}")),
        PathReading::Cycles(walk, cycles) => {
            let Some(style) = style else {
                return Err("the encoding let a detached cycle through".to_string());
            };
            if splice {
                let loops: Vec<Vec<usize>> =
                    cycles.iter().map(|c| c.iter().map(|&a| graph.arcs()[a].0).collect()).collect();
                if let Some(whole) = splice_into_path(graph, &walk, loops) {
                    return Ok(Judgement::Accept(whole));
                }
            }
            Ok(Judgement::Cut(path_cuts(graph, arcs, lasts, cover, style, &cycles, value)))
        }
    }
}

/// Judges a model of [`loop_arcs`]: one cycle is accepted, as its nodes in
/// order; several are spliced into one when `splice` allows and they fit,
/// and otherwise cut with `style` (with no style, an eager encoding, they
/// are a bug), separator cuts taking their fresh variables from `fresh`.
#[allow(clippy::too_many_arguments)]
pub fn judge_loop(
    graph: &GridGraph,
    arcs: &[Var],
    steps: &[(usize, Lit)],
    cover: &Cover<'_>,
    style: Option<CutStyle>,
    splice: bool,
    value: &dyn Fn(Lit) -> bool,
    fresh: &mut dyn FnMut() -> Var,
) -> Result<Judgement, String> {
    let cycles = read_loops(graph, arcs, value).map_err(|why| format!("the model is not a loop: {why}"))?;
    let nodes = |cycle: &[usize]| -> Vec<usize> { cycle.iter().map(|&a| graph.arcs()[a].0).collect() };
    match cycles.len() {
        0 => Err("the model has no loop".to_string()),
        1 => Ok(Judgement::Accept(nodes(&cycles[0]))),
        _ => {
            let Some(style) = style else {
                return Err("the encoding let a second cycle through".to_string());
            };
            if splice && let Some(whole) = splice_into_loop(graph, cycles.iter().map(|c| nodes(c)).collect()) {
                return Ok(Judgement::Accept(whole));
            }
            if style == CutStyle::Separator {
                let on: Vec<bool> = cover.on.iter().map(|&l| value(l)).collect();
                return Ok(Judgement::Cut(loop_separator_cuts(graph, arcs, steps, cover, &cycles, &on, fresh)));
            }
            Ok(Judgement::Cut(loop_cuts(graph, arcs, steps, cover, style, &cycles)))
        }
    }
}

/// Judges a model of a region that must be 4-connected: one piece (or
/// none) is accepted, several are cut apart, with [`region_separator_cuts`]
/// (over variables from `fresh`) in the `Separator` style and with
/// [`region_cuts`] in any other.
pub fn judge_region(
    graph: &GridGraph,
    cover: &Cover<'_>,
    style: CutStyle,
    value: &dyn Fn(Lit) -> bool,
    fresh: &mut dyn FnMut() -> Var,
) -> Judgement {
    let on: Vec<bool> = cover.on.iter().map(|&l| value(l)).collect();
    let pieces = components(graph, &on);
    match (pieces.len(), style) {
        (0 | 1, _) => Judgement::Accept(Vec::new()),
        (_, CutStyle::Separator) => Judgement::Cut(region_separator_cuts(graph, cover, &pieces, &on, fresh)),
        _ => Judgement::Cut(region_cuts(graph, cover, &pieces)),
    }
}
