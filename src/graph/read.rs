//! From a model back to the grid: the path from the start and any detached
//! cycles of a successor encoding, the cycles of a loop encoding, and the
//! 4-connected pieces of a set of nodes.

use super::cells::{GridGraph, START};
use crate::cnf::{Lit, Var};

/// What a model of [`super::path_arcs`] says about the path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathReading {
    /// A path from the start: the nodes after the start, in order.
    Walk(Vec<usize>),
    /// The path from the start (its nodes after the start, in order), and
    /// detached cycles, each as its arcs in order.
    Cycles(Vec<usize>, Vec<Vec<usize>>),
    /// The model is not a path at all: a bug in the encoding.
    Broken(String),
}

/// Reads the arcs a model takes (`arcs` by the graph's arc numbers) as a
/// path from the start and detached cycles.
pub fn read_path(graph: &GridGraph, arcs: &[Var], value: impl Fn(Lit) -> bool) -> PathReading {
    let next_arc = match successors(graph, arcs, value) {
        Ok(next) => next,
        Err(why) => return PathReading::Broken(why),
    };
    let mut on_walk = vec![false; graph.num_nodes()];
    on_walk[START] = true;
    let mut walk = Vec::new();
    let mut node = START;
    while let Some(arc) = next_arc[node] {
        node = graph.arcs()[arc].1;
        if on_walk[node] {
            return PathReading::Broken(format!("the path returns to {}", graph.label(node)));
        }
        on_walk[node] = true;
        walk.push(node);
    }
    match cycles_among(graph, &next_arc, &mut on_walk) {
        Ok(cycles) if cycles.is_empty() => PathReading::Walk(walk),
        Ok(cycles) => PathReading::Cycles(walk, cycles),
        Err(why) => PathReading::Broken(why),
    }
}

/// Reads the arcs a model of [`super::loop_arcs`] takes as cycles, each as
/// its arcs in order; an error when they are not cycles (a bug in the
/// encoding).
pub fn read_loops(graph: &GridGraph, arcs: &[Var], value: impl Fn(Lit) -> bool) -> Result<Vec<Vec<usize>>, String> {
    let next_arc = successors(graph, arcs, value)?;
    cycles_among(graph, &next_arc, &mut vec![false; graph.num_nodes()])
}

/// The arc each node leaves by, if any; an error when a node leaves twice.
fn successors(graph: &GridGraph, arcs: &[Var], value: impl Fn(Lit) -> bool) -> Result<Vec<Option<usize>>, String> {
    let mut next_arc = vec![None; graph.num_nodes()];
    for (index, var) in arcs.iter().enumerate() {
        if value(var.pos()) {
            let (from, _) = graph.arcs()[index];
            if next_arc[from].replace(index).is_some() {
                return Err(format!("two arcs leave {}", graph.label(from)));
            }
        }
    }
    Ok(next_arc)
}

/// The cycles through the nodes not yet `seen` that have a successor.
fn cycles_among(graph: &GridGraph, next_arc: &[Option<usize>], seen: &mut [bool]) -> Result<Vec<Vec<usize>>, String> {
    let mut cycles = Vec::new();
    for first in graph.others() {
        if seen[first] || next_arc[first].is_none() {
            continue;
        }
        let mut cycle = Vec::new();
        let mut node = first;
        while !seen[node] {
            seen[node] = true;
            let Some(arc) = next_arc[node] else {
                return Err(format!("a second path ends at {}", graph.label(node)));
            };
            cycle.push(arc);
            node = graph.arcs()[arc].1;
        }
        if node != first {
            return Err(format!("a chain runs into {} from outside its cycle", graph.label(node)));
        }
        cycles.push(cycle);
    }
    Ok(cycles)
}

/// The 4-connected pieces of the nodes `on` marks, each in the order a
/// breadth-first search from its first node reaches them; pieces in the
/// order of their first nodes.
pub fn components(graph: &GridGraph, on: &[bool]) -> Vec<Vec<usize>> {
    let mut seen = vec![false; graph.num_nodes()];
    let mut pieces = Vec::new();
    for first in 0..graph.num_nodes() {
        if !on[first] || seen[first] {
            continue;
        }
        seen[first] = true;
        let mut piece = vec![first];
        let mut next = 0;
        while next < piece.len() {
            for &n in graph.neighbours(piece[next]) {
                if on[n] && !seen[n] {
                    seen[n] = true;
                    piece.push(n);
                }
            }
            next += 1;
        }
        pieces.push(piece);
    }
    pieces
}
