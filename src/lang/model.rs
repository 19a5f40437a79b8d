//! A loaded csp model: its declarations with their types, the values of its
//! parameters, the domains of its variables, and its constraints as syntax
//! trees. Everything here is validated; the unrolling (`lower`) turns it
//! into the IR.

use std::fmt;

use super::syntax::{Expr, Span};

/// The largest absolute value any integer in a model may take: parameters,
/// domain bounds and the bounds of every expression over the variables.
/// Keeping values this far inside `i64` lets the encodings add and scale
/// them without overflow.
pub const MAX_ABS: i64 = 1 << 40;

/// The scalar kinds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Base {
    /// An integer.
    Int,
    /// A Boolean.
    Bool,
    /// A value of the enum with this index in [`Model::enums`]; its values
    /// are the integers 1 to n, as in MiniZinc.
    Enum(usize),
    /// The element type of the empty array `[]`, which fits any context.
    Any,
}

impl Base {
    /// Whether a value of `self` can stand where `other` is expected.
    pub fn fits(self, other: Base) -> bool {
        self == other || self == Base::Any || other == Base::Any
    }

    /// Whether values are integers underneath (int and enums).
    pub fn is_intlike(self) -> bool {
        matches!(self, Base::Int | Base::Enum(_) | Base::Any)
    }
}

/// What an expression is: a scalar, a set or an array (with the type of
/// each dimension's index), of which base, and whether it depends on
/// decision variables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Type {
    /// The element kind.
    pub base: Base,
    /// Scalar, set or array.
    pub shape: Shape,
    /// True when the value depends on decision variables.
    pub var: bool,
}

/// The shapes of values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// One value.
    Scalar,
    /// A fixed set of integers or enum values (ranges, set literals, enum
    /// names).
    Set,
    /// An array; one entry per dimension, the kind of its index.
    Array(Vec<Base>),
}

impl Type {
    /// A scalar type.
    pub fn scalar(base: Base, var: bool) -> Type {
        Type { base, shape: Shape::Scalar, var }
    }

    /// The type as a message names it, such as `var int` or `array[int, int] of bool`.
    pub fn describe(&self, enums: &[EnumDecl]) -> String {
        let base = base_name(self.base, enums);
        let inst = if self.var { "var " } else { "" };
        match &self.shape {
            Shape::Scalar => format!("{inst}{base}"),
            Shape::Set => format!("set of {base}"),
            Shape::Array(index) => {
                let index: Vec<String> = index.iter().map(|b| base_name(*b, enums)).collect();
                format!("array[{}] of {inst}{base}", index.join(", "))
            }
        }
    }
}

/// The name of a base type in messages.
pub fn base_name(base: Base, enums: &[EnumDecl]) -> String {
    match base {
        Base::Int => "int".to_string(),
        Base::Bool => "bool".to_string(),
        Base::Enum(e) => enums.get(e).map_or("enum".to_string(), |d| d.name.clone()),
        Base::Any => "anything".to_string(),
    }
}

/// A set of integers as sorted, disjoint, non-adjacent closed intervals.
#[derive(Clone, Debug, PartialEq, Eq, Default, Hash)]
pub struct IntSet {
    intervals: Vec<(i64, i64)>,
}

impl IntSet {
    /// `lo..hi`, empty when `hi < lo`.
    pub fn range(lo: i64, hi: i64) -> IntSet {
        IntSet { intervals: if lo <= hi { vec![(lo, hi)] } else { Vec::new() } }
    }

    /// The set of the given values.
    ///
    /// ```
    /// use somaria::lang::model::IntSet;
    /// let set = IntSet::from_values([5, 1, 2, 3, 5]);
    /// assert_eq!(set.intervals(), &[(1, 3), (5, 5)]);
    /// assert_eq!(set.len(), 4);
    /// ```
    pub fn from_values(values: impl IntoIterator<Item = i64>) -> IntSet {
        let mut values: Vec<i64> = values.into_iter().collect();
        values.sort_unstable();
        values.dedup();
        let mut intervals: Vec<(i64, i64)> = Vec::new();
        for v in values {
            match intervals.last_mut() {
                Some(last) if last.1.checked_add(1) == Some(v) => last.1 = v,
                _ => intervals.push((v, v)),
            }
        }
        IntSet { intervals }
    }

    /// The set of the values in the given intervals, in increasing order
    /// and apart; adjacent ones are joined.
    pub fn from_intervals(intervals: impl IntoIterator<Item = (i64, i64)>) -> IntSet {
        let mut joined: Vec<(i64, i64)> = Vec::new();
        for (lo, hi) in intervals {
            match joined.last_mut() {
                Some(last) if last.1.checked_add(1) == Some(lo) => last.1 = hi,
                _ => joined.push((lo, hi)),
            }
        }
        IntSet { intervals: joined }
    }

    /// The intervals, sorted.
    pub fn intervals(&self) -> &[(i64, i64)] {
        &self.intervals
    }

    /// Number of values.
    pub fn len(&self) -> u64 {
        self.intervals.iter().map(|&(a, b)| (b as i128 - a as i128 + 1) as u64).sum()
    }

    /// True when there is no value.
    pub fn is_empty(&self) -> bool {
        self.intervals.is_empty()
    }

    /// The least value.
    pub fn min(&self) -> Option<i64> {
        self.intervals.first().map(|i| i.0)
    }

    /// The greatest value.
    pub fn max(&self) -> Option<i64> {
        self.intervals.last().map(|i| i.1)
    }

    /// Whether `v` is in the set.
    pub fn contains(&self, v: i64) -> bool {
        let at = self.intervals.partition_point(|&(_, hi)| hi < v);
        self.intervals.get(at).is_some_and(|&(lo, _)| lo <= v)
    }

    /// The least value at least `v`.
    pub fn ceil(&self, v: i64) -> Option<i64> {
        let at = self.intervals.partition_point(|&(_, hi)| hi < v);
        self.intervals.get(at).map(|&(lo, _)| lo.max(v))
    }

    /// The greatest value at most `v`.
    pub fn floor(&self, v: i64) -> Option<i64> {
        let at = self.intervals.partition_point(|&(lo, _)| lo <= v);
        at.checked_sub(1).map(|i| self.intervals[i].1.min(v))
    }

    /// The values in increasing order.
    pub fn values(&self) -> impl Iterator<Item = i64> + '_ {
        self.intervals.iter().flat_map(|&(a, b)| a..=b)
    }

    /// The union with `other`.
    pub fn union(&self, other: &IntSet) -> IntSet {
        let mut all: Vec<(i64, i64)> = self.intervals.iter().chain(&other.intervals).copied().collect();
        all.sort_unstable();
        let mut intervals: Vec<(i64, i64)> = Vec::new();
        for (lo, hi) in all {
            match intervals.last_mut() {
                Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
                _ => intervals.push((lo, hi)),
            }
        }
        IntSet { intervals }
    }

    /// The intersection with `other`.
    pub fn intersect(&self, other: &IntSet) -> IntSet {
        let mut intervals = Vec::new();
        let (mut i, mut j) = (0, 0);
        while i < self.intervals.len() && j < other.intervals.len() {
            let (a, b) = self.intervals[i];
            let (c, d) = other.intervals[j];
            let (lo, hi) = (a.max(c), b.min(d));
            if lo <= hi {
                intervals.push((lo, hi));
            }
            if b < d { i += 1 } else { j += 1 }
        }
        IntSet { intervals }
    }

    /// The values of this set that are not in `other`.
    ///
    /// ```
    /// use somaria::lang::model::IntSet;
    /// let set = IntSet::range(1, 9).difference(&IntSet::from_values([3, 4, 9]));
    /// assert_eq!(set.intervals(), &[(1, 2), (5, 8)]);
    /// ```
    pub fn difference(&self, other: &IntSet) -> IntSet {
        let mut intervals = Vec::new();
        for &(lo, hi) in &self.intervals {
            let mut from = lo;
            for &(a, b) in &other.intervals {
                if b < from || a > hi {
                    continue;
                }
                if a > from {
                    intervals.push((from, a - 1));
                }
                from = b.saturating_add(1);
                if b >= hi {
                    break;
                }
            }
            if from <= hi {
                intervals.push((from, hi));
            }
        }
        IntSet { intervals }
    }
}

impl fmt::Display for IntSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.intervals[..] {
            [] => write!(f, "{{}}"),
            [(a, b)] => write!(f, "{a}..{b}"),
            _ => {
                let parts: Vec<String> = self
                    .intervals
                    .iter()
                    .map(|&(a, b)| if a == b { a.to_string() } else { format!("{a}..{b}") })
                    .collect();
                write!(f, "{{{}}}", parts.join(", "))
            }
        }
    }
}

/// A fixed value: a parameter's, or one computed from parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// An integer or enum value.
    Int(i64),
    /// A Boolean.
    Bool(bool),
    /// A set.
    Set(IntSet),
    /// An array.
    Array(ArrayValue),
}

/// A fixed array: its index range per dimension and its elements in
/// row-major order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArrayValue {
    /// `(lo, hi)` per dimension.
    pub index: Vec<(i64, i64)>,
    /// The elements, row-major.
    pub elems: Vec<Value>,
}

/// Position of an index tuple in a row-major array with the given index
/// ranges; `None` when some index is outside its range.
pub fn flat_position(index: &[(i64, i64)], at: &[i64]) -> Option<usize> {
    if index.len() != at.len() {
        return None;
    }
    let mut position = 0usize;
    for (&(lo, hi), &i) in index.iter().zip(at) {
        if i < lo || i > hi {
            return None;
        }
        let width = (hi - lo + 1) as usize;
        position = position * width + (i - lo) as usize;
    }
    Some(position)
}

/// The index tuple at a row-major position.
pub fn index_tuple(index: &[(i64, i64)], mut position: usize) -> Vec<i64> {
    let mut tuple = vec![0; index.len()];
    for (slot, &(lo, hi)) in tuple.iter_mut().zip(index).rev() {
        let width = (hi - lo + 1) as usize;
        *slot = lo + (position % width) as i64;
        position /= width;
    }
    tuple
}

/// An enum: its name and value names, which stand for 1, 2, ...
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnumDecl {
    /// The type's name.
    pub name: String,
    /// The values' names in order.
    pub values: Vec<String>,
}

/// A parameter and its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    /// Its name.
    pub name: String,
    /// Its type (never `var`).
    pub ty: Type,
    /// Its value.
    pub value: Value,
}

/// A decision variable or array of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarDecl {
    /// Its name.
    pub name: String,
    /// The element kind.
    pub base: Base,
    /// `(lo, hi)` per dimension, empty for a scalar.
    pub index: Vec<(i64, i64)>,
    /// The kind of each dimension's index.
    pub index_bases: Vec<Base>,
    /// The values each element may take (`0..1` for bool).
    pub domain: IntSet,
    /// The id of its first scalar; the elements follow in row-major order.
    pub first: usize,
    /// Number of scalars.
    pub len: usize,
    /// The fixed values of a partly given array, one per scalar (`None`
    /// where unknown); empty when nothing is given.
    pub given: Vec<Option<i64>>,
}

impl VarDecl {
    /// The given value of element `k`, if any.
    pub fn given_at(&self, k: usize) -> Option<i64> {
        self.given.get(k).copied().flatten()
    }

    /// The declared type.
    pub fn ty(&self) -> Type {
        if self.index.is_empty() {
            Type::scalar(self.base, true)
        } else {
            Type { base: self.base, shape: Shape::Array(self.index_bases.clone()), var: true }
        }
    }
}

/// A `[[constraint]]` entry.
#[derive(Clone, Debug, PartialEq)]
pub struct Constraint {
    /// Its name, given or made up as "constraint K (line L)".
    pub name: String,
    /// The line of its expression.
    pub line: usize,
    /// The expression.
    pub expr: Expr,
}

/// A `[[predicate]]` entry: a user-defined predicate or function, checked,
/// which every call unrolls afresh with its arguments bound to the
/// parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    /// Its name.
    pub name: String,
    /// The parameters' names and types, in order.
    pub params: Vec<(String, Type)>,
    /// The declared result; `var bool` for a predicate.
    pub result: Type,
    /// Whether the body depends on decision variables when every argument
    /// is fixed: it names a model variable or a local one.
    pub reads_vars: bool,
    /// Whether the body, or a function it calls, has a local variable
    /// without a definition: a call may then stand only where its
    /// constraint must hold, as such a local may.
    pub free_locals: bool,
    /// The body.
    pub body: Expr,
}

/// Minimise or maximise.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Sense {
    /// Find the least value.
    Minimize,
    /// Find the greatest value.
    Maximize,
}

/// What to optimise.
#[derive(Clone, Debug, PartialEq)]
pub struct Objective {
    /// Which way.
    pub sense: Sense,
    /// The integer expression.
    pub expr: Expr,
}

/// A validated model.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// The title, if any.
    pub title: Option<String>,
    /// The enums in file order.
    pub enums: Vec<EnumDecl>,
    /// The parameters in file order.
    pub params: Vec<Param>,
    /// The variables in file order.
    pub vars: Vec<VarDecl>,
    /// The constraints in file order.
    pub constraints: Vec<Constraint>,
    /// The user-defined predicates and functions in file order.
    pub functions: Vec<Function>,
    /// The objective, if any.
    pub objective: Option<Objective>,
    /// The variables printed and counted, as indices into `vars`.
    pub show: Vec<usize>,
    /// Where `show` is, for messages.
    pub show_span: Option<Span>,
    /// How to draw the model as a grid, when its `[draw]` table says.
    pub drawing: Option<super::drawing::Table>,
    /// How `generate` makes puzzles of the model, when its `[design]` table says.
    pub design: Option<super::design::Design>,
    /// How hints name the model's houses and techniques, when its `[hints]` table says.
    pub hints: Option<super::hints::HintTable>,
}

impl Model {
    /// Number of scalar decision variables.
    pub fn num_scalars(&self) -> usize {
        self.vars.last().map_or(0, |v| v.first + v.len)
    }

    /// The declaration a scalar belongs to and its index tuple.
    pub fn scalar_owner(&self, scalar: usize) -> (&VarDecl, Vec<i64>) {
        let at = self.vars.partition_point(|v| v.first + v.len <= scalar);
        let decl = &self.vars[at.min(self.vars.len() - 1)];
        (decl, index_tuple(&decl.index, scalar - decl.first))
    }

    /// A scalar's name as a person reads it, such as `q[3]` or `cell[2,5]`.
    pub fn scalar_name(&self, scalar: usize) -> String {
        let (decl, tuple) = self.scalar_owner(scalar);
        if tuple.is_empty() {
            return decl.name.clone();
        }
        let parts: Vec<String> = tuple.iter().zip(&decl.index_bases).map(|(&v, &b)| self.value_name(b, v)).collect();
        format!("{}[{}]", decl.name, parts.join(","))
    }

    /// A value as a person reads it: a number, `true`/`false` or an enum name.
    pub fn value_name(&self, base: Base, value: i64) -> String {
        match base {
            Base::Bool => (value != 0).to_string(),
            Base::Enum(e) => self.enums[e]
                .values
                .get((value - 1) as usize)
                .cloned()
                .unwrap_or_else(|| format!("{}({value})", self.enums[e].name)),
            Base::Int | Base::Any => value.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intsets_merge_and_intersect() {
        let a = IntSet::range(1, 5).union(&IntSet::range(7, 9)).union(&IntSet::range(6, 6));
        assert_eq!(a.intervals(), &[(1, 9)]);
        let b = IntSet::from_values([0, 2, 4, 9, 10]);
        assert_eq!(a.intersect(&b), IntSet::from_values([2, 4, 9]));
        assert!(b.contains(9) && !b.contains(3) && !b.contains(11));
        assert_eq!(b.to_string(), "{0, 2, 4, 9..10}");
        assert!(IntSet::range(3, 2).is_empty());
        assert_eq!((b.ceil(5), b.ceil(10), b.ceil(11), b.ceil(-3)), (Some(9), Some(10), None, Some(0)));
        assert_eq!((b.floor(5), b.floor(-1), b.floor(100)), (Some(4), None, Some(10)));
    }

    #[test]
    fn positions_and_tuples_round_trip() {
        let index = [(1, 3), (0, 4)];
        for p in 0..15 {
            assert_eq!(flat_position(&index, &index_tuple(&index, p)), Some(p));
        }
        assert_eq!(flat_position(&index, &[4, 0]), None);
    }
}
