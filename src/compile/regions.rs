//! `grid_regions` in CNF, and its repair step.
//!
//! The regions are the pieces that the joined steps make, so each is
//! connected by construction; what the formula cannot say cheaply is that
//! a cell's size is the number of cells of its piece. The formula holds
//! the local part: joined cells have equal sizes, a joined cell's size is
//! at least 2 and a cell of size at least 2 is joined to a neighbour, and
//! every size lies in 1..cells. The repair step reads each model's pieces
//! and cuts a piece whose size is wrong, with clauses valid for every
//! solution:
//! - a piece larger than its size `s`: `s + 1` of its cells joined by a
//!   tree of `s` joined steps give the root a size of at least `s + 1`
//!   (and the whole piece's tree, at least the piece's cell count);
//! - a piece smaller than its size: when none of the steps leaving it is
//!   joined, the root's region lies inside it, so its size is at most the
//!   piece's cell count.
//!
//! Both are what a propagator for the division would explain its
//! deductions with; here they come between solves, so the cost grows with
//! the pieces a model gets wrong, never with one connectivity global per
//! cell.

use std::collections::VecDeque;

use super::{CompileError, Encoder, Form, GridEncoding};
use crate::cnf::Lit;
use crate::graph::{GridGraph, Judgement};
use crate::lang::ir::{BExpr, Cmp, GridGlobal, IExpr};

/// The literals of one `grid_regions`.
#[derive(Clone, Debug)]
pub struct RegionsForm {
    /// Per pair of neighbouring cells that may be joined (row-major cell
    /// numbers, the lesser first), its "joined" literal.
    pub joins: Vec<(usize, usize, Lit)>,
    /// Per cell, the least size its domain allows and "size ≥ v" for each
    /// greater value v of its domain, ascending.
    pub sizes: Vec<(i64, Vec<(i64, Lit)>)>,
    /// The literal that is always true.
    pub truth: Lit,
}

impl RegionsForm {
    /// The size a model gives cell `k`.
    fn value(&self, k: usize, value: &dyn Fn(Lit) -> bool) -> i64 {
        let (least, ladder) = &self.sizes[k];
        ladder.iter().rev().find(|&&(_, l)| value(l)).map_or(*least, |&(v, _)| v)
    }

    /// "size of cell `k` ≥ v" (constant where the domain decides it).
    fn at_least(&self, k: usize, v: i64) -> Lit {
        let (least, ladder) = &self.sizes[k];
        if v <= *least {
            return self.truth;
        }
        ladder.iter().find(|&&(w, _)| w >= v).map_or(!self.truth, |&(_, l)| l)
    }

    /// `clause` without the literals that never hold.
    fn trimmed(&self, mut clause: Vec<Lit>) -> Vec<Lit> {
        clause.retain(|&l| l != !self.truth);
        clause
    }

    /// Each cell's joined neighbours, with the literal that joins them.
    fn neighbours(&self, cells: usize) -> Vec<Vec<(usize, Lit)>> {
        let mut next = vec![Vec::new(); cells];
        for &(a, b, l) in &self.joins {
            next[a].push((b, l));
            next[b].push((a, l));
        }
        next
    }
}

impl Encoder {
    /// Encodes `grid_regions` (grid global `id`, `spec`) into the current
    /// group: its joins and sizes, and the local clauses.
    pub(super) fn regions(&mut self, id: usize, spec: &GridGlobal) -> Result<(), CompileError> {
        if self.eager_grids {
            return Err(CompileError::Unsupported(
                "grid_regions is cut lazily between solves and has no eager form; expected another engine than \
                 eager (auto, direct, order or log)"
                    .into(),
            ));
        }
        let (rows, cols) = spec.shape();
        let cells = rows * cols;
        let steps = spec.steps.as_ref().ok_or_else(|| CompileError::Internal("grid_regions without steps".into()))?;
        let mut joins = Vec::new();
        let pairs = (0..rows).flat_map(|r| (0..cols.saturating_sub(1)).map(move |c| (r * cols + c, r * cols + c + 1)));
        let down = (0..rows.saturating_sub(1)).flat_map(|r| (0..cols).map(move |c| (r * cols + c, (r + 1) * cols + c)));
        // Steps whose join is "the two sizes are equal" (fillomino's) need
        // no clauses of their own for that.
        let mut equal_by_definition = Vec::new();
        for ((a, b), e) in pairs.chain(down).zip(steps.across.iter().chain(&steps.down)) {
            let l = self.reify(e, super::Pol::Both)?;
            if l != self.f() {
                let same = |x: &IExpr, y: &IExpr| (x, y) == (&spec.sizes[a], &spec.sizes[b]);
                equal_by_definition.push(matches!(e, BExpr::Cmp(Cmp::Eq, x, y) if same(x, y) || same(y, x)));
                joins.push((a, b, l));
            }
        }
        let mut sizes = Vec::with_capacity(cells);
        for e in &spec.sizes {
            let (x, defined) = self.int_var(e)?;
            for d in defined {
                self.clause(&[d]);
            }
            // Every region has from 1 to all the cells.
            let at_least_one = self.ge(x, 1)?;
            let too_many = self.ge(x, cells as i64 + 1)?;
            self.clause(&[at_least_one]);
            self.clause(&[!too_many]);
            let values: Vec<i64> = self.domain(x).values().filter(|&v| (1..=cells as i64).contains(&v)).collect();
            let least = values.first().copied().unwrap_or(1);
            let mut ladder = Vec::with_capacity(values.len());
            for &v in values.iter().skip(1) {
                ladder.push((v, self.ge(x, v)?));
            }
            sizes.push((least, ladder));
        }
        let form = RegionsForm { joins, sizes, truth: self.t() };
        self.local_clauses(&form, cells, &equal_by_definition);
        let graph = GridGraph::new(rows, cols, |_| true, None, None);
        let truth = self.t();
        let on = vec![truth; graph.num_nodes()];
        let always_on = vec![true; graph.num_nodes()];
        self.grids.push(GridEncoding {
            id,
            graph,
            on,
            always_on,
            form: Form::Regions(form),
            eager: false,
            guard: None,
        });
        self.check_size()
    }

    /// Joined cells have equal sizes; a joined cell's size is at least 2,
    /// and a cell of size at least 2 is joined to a neighbour.
    fn local_clauses(&mut self, form: &RegionsForm, cells: usize, equal_by_definition: &[bool]) {
        let two = |k: usize| form.at_least(k, 2);
        for (&(a, b, join), &defined) in form.joins.iter().zip(equal_by_definition) {
            for (x, y) in [(a, b), (b, a)].into_iter().filter(|_| !defined) {
                for &(v, l) in &form.sizes[x].1 {
                    self.clause(&[!join, !l, form.at_least(y, v)]);
                }
                // x's least size, which its ladder leaves out (all of it
                // for a fixed size), bounds y too.
                self.clause(&[!join, form.at_least(y, form.sizes[x].0)]);
            }
            self.clause(&[!join, two(a)]);
            self.clause(&[!join, two(b)]);
        }
        let next = form.neighbours(cells);
        for (k, around) in next.iter().enumerate() {
            let mut clause: Vec<Lit> = around.iter().map(|&(_, l)| l).collect();
            clause.push(!two(k));
            self.clause(&clause);
        }
    }
}

/// Judges a model of `grid_regions`: every
/// piece of the right size is accepted, every other one cut.
pub fn judge_regions(form: &RegionsForm, value: &dyn Fn(Lit) -> bool) -> Judgement {
    let cells = form.sizes.len();
    let next = form.neighbours(cells);
    let joined: Vec<Vec<(usize, Lit)>> =
        next.iter().map(|around| around.iter().copied().filter(|&(_, l)| value(l)).collect()).collect();
    let mut seen = vec![false; cells];
    let mut cuts = Vec::new();
    for first in 0..cells {
        if seen[first] {
            continue;
        }
        let piece = tree(&joined, first);
        piece.iter().for_each(|&(k, _)| seen[k] = true);
        let n = piece.len() as i64;
        // Joined cells have equal sizes in every model, but the cuts do not
        // rely on it: each cell is judged on its own size.
        let sized = |k: usize| form.value(k, value);
        for &(root, _) in piece.iter().filter(|&&(k, _)| sized(k) < n) {
            // From every cell: its own tree of s + 1 cells.
            too_big(form, &joined, root, sized(root), &mut cuts);
        }
        if let Some(&(root, _)) = piece.iter().find(|&&(k, _)| sized(k) > n) {
            let mut inside = vec![false; cells];
            piece.iter().for_each(|&(k, _)| inside[k] = true);
            let mut clause: Vec<Lit> = piece
                .iter()
                .flat_map(|&(k, _)| next[k].iter().filter(|&&(m, _)| !inside[m]).map(|&(_, l)| l))
                .collect();
            clause.push(!form.at_least(root, n + 1));
            cuts.push(form.trimmed(clause));
        }
    }
    if cuts.is_empty() { Judgement::Accept(Vec::new()) } else { Judgement::Cut(cuts) }
}

/// The cuts of a piece larger than `root`'s size `s`: its first `s + 1`
/// cells from `root` give `root` a size of at least `s + 1`, the whole
/// piece one of at least its cell count.
fn too_big(form: &RegionsForm, joined: &[Vec<(usize, Lit)>], root: usize, s: i64, cuts: &mut Vec<Vec<Lit>>) {
    let piece = tree(joined, root);
    let mut counts = vec![s as usize + 1];
    if piece.len() > s as usize + 1 {
        counts.push(piece.len());
    }
    for count in counts {
        let mut clause: Vec<Lit> = piece[1..count].iter().filter_map(|&(_, l)| l).map(|l| !l).collect();
        clause.push(form.at_least(root, count as i64));
        cuts.push(form.trimmed(clause));
    }
}

/// The piece of `root` over the joined steps, in breadth-first order, each
/// cell with the step it was reached by (none for the root).
fn tree(joined: &[Vec<(usize, Lit)>], root: usize) -> Vec<(usize, Option<Lit>)> {
    let mut reached = vec![false; joined.len()];
    reached[root] = true;
    let mut order = vec![(root, None)];
    let mut queue = VecDeque::from([root]);
    while let Some(k) = queue.pop_front() {
        for &(m, l) in &joined[k] {
            if !reached[m] {
                reached[m] = true;
                order.push((m, Some(l)));
                queue.push_back(m);
            }
        }
    }
    order
}
