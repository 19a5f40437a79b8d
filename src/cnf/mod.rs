//! A CNF formula under construction: typed variables and literals, clauses
//! grouped under names, and the cardinality encodings in [`card`].
//!
//! The formula is independent of any solver. [`crate::solver`] loads it, and
//! [`Cnf::write_dimacs`] writes it, so the file a user inspects is the formula
//! that was solved.

pub mod card;
mod dimacs;

use std::fmt;
use std::ops::Not;

/// A propositional variable, numbered from 0.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Var(u32);

impl Var {
    /// The variable with the given 0-based index.
    ///
    /// ```
    /// use somaria::cnf::Var;
    /// assert_eq!(Var::from_index(0).dimacs(), 1);
    /// ```
    pub fn from_index(index: usize) -> Var {
        Var(u32::try_from(index).expect("variable index fits in u32"))
    }

    /// The 0-based index.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The 1-based DIMACS number.
    pub fn dimacs(self) -> i64 {
        i64::from(self.0) + 1
    }

    /// The literal that is true when this variable is true.
    pub fn pos(self) -> Lit {
        Lit(self.0 << 1)
    }

    /// The literal that is true when this variable is false.
    // Named as the pair of `pos`; a `std::ops::Neg` from a variable to a
    // literal would read as arithmetic.
    #[allow(clippy::should_implement_trait)]
    pub fn neg(self) -> Lit {
        Lit(self.0 << 1 | 1)
    }

    /// [`Var::pos`] when `polarity` is true, [`Var::neg`] otherwise.
    ///
    /// ```
    /// use somaria::cnf::Var;
    /// let v = Var::from_index(3);
    /// assert_eq!(v.lit(false), !v.pos());
    /// ```
    pub fn lit(self, polarity: bool) -> Lit {
        if polarity { self.pos() } else { self.neg() }
    }
}

/// A variable or its negation. Encoded as `index * 2 + negated`, the same
/// code varisat uses, so conversion is free.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Lit(u32);

impl Lit {
    /// The literal's variable.
    pub fn var(self) -> Var {
        Var(self.0 >> 1)
    }

    /// Whether this literal is the variable itself rather than its negation.
    pub fn is_positive(self) -> bool {
        self.0 & 1 == 0
    }

    /// The signed DIMACS number, e.g. `-3` for the negation of variable 3.
    ///
    /// ```
    /// use somaria::cnf::Var;
    /// assert_eq!(Var::from_index(2).neg().dimacs(), -3);
    /// ```
    pub fn dimacs(self) -> i64 {
        if self.is_positive() { self.var().dimacs() } else { -self.var().dimacs() }
    }

    /// The `index * 2 + negated` code.
    pub fn code(self) -> usize {
        self.0 as usize
    }

    /// The literal with the given `index * 2 + negated` code.
    pub fn from_code(code: usize) -> Lit {
        Lit(u32::try_from(code).expect("literal code fits in u32"))
    }

    /// Whether the literal holds under an assignment indexed by variable.
    ///
    /// ```
    /// use somaria::cnf::Var;
    /// let v = Var::from_index(1);
    /// assert!(v.neg().holds(&[true, false]));
    /// ```
    pub fn holds(self, assignment: &[bool]) -> bool {
        assignment[self.var().index()] == self.is_positive()
    }
}

impl From<Var> for Lit {
    /// The positive literal, so that a list of variables can stand where
    /// literals are asked for.
    fn from(var: Var) -> Lit {
        var.pos()
    }
}

impl Not for Lit {
    type Output = Lit;
    fn not(self) -> Lit {
        Lit(self.0 ^ 1)
    }
}

impl fmt::Display for Lit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.dimacs())
    }
}

/// Anything that takes fresh variables and clauses: a [`Cnf`] being built,
/// or a solver being fed directly (every [`crate::solver::Solve`] is one).
///
/// Encodings such as those in [`card`] are written against this trait, so
/// the same code builds a formula for DIMACS output or extends a running
/// solver between calls, and the caller never keeps two numberings in step.
///
/// ```
/// use somaria::cnf::{ClauseSink, Cnf, card};
/// fn one_of_three(sink: &mut impl ClauseSink) {
///     let xs: Vec<_> = sink.new_vars(3).into_iter().map(|v| v.pos()).collect();
///     card::exactly_one(sink, &xs);
/// }
/// let mut cnf = Cnf::new();
/// one_of_three(&mut cnf);
/// assert_eq!(cnf.num_vars(), 3);
/// ```
pub trait ClauseSink {
    /// A fresh variable.
    fn new_var(&mut self) -> Var;

    /// Adds a clause; an empty clause makes the formula unsatisfiable.
    fn add_clause(&mut self, clause: &[Lit]);

    /// `count` fresh variables with consecutive indices.
    fn new_vars(&mut self, count: usize) -> Vec<Var> {
        (0..count).map(|_| self.new_var()).collect()
    }
}

impl<S: ClauseSink + ?Sized> ClauseSink for &mut S {
    fn new_var(&mut self) -> Var {
        (**self).new_var()
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        (**self).add_clause(clause)
    }
}

impl<S: ClauseSink + ?Sized> ClauseSink for Box<S> {
    fn new_var(&mut self) -> Var {
        (**self).new_var()
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        (**self).add_clause(clause)
    }
}

impl ClauseSink for Cnf {
    fn new_var(&mut self) -> Var {
        Cnf::new_var(self)
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        Cnf::add_clause(self, clause)
    }

    fn new_vars(&mut self, count: usize) -> Vec<Var> {
        Cnf::new_vars(self, count)
    }
}

/// The handle of a named group of clauses.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct GroupId(u32);

impl GroupId {
    /// The position of the group in [`Cnf::groups`].
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A named group of clauses: one rule of the puzzle, such as "fan 3 points
/// one way". Explanations and DIMACS comments speak in these names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// What the rule says, in the puzzle's own words.
    pub name: String,
    /// The grid cell `(row, col)` the rule is about, when it has one.
    pub place: Option<(usize, usize)>,
}

/// A CNF formula being built.
///
/// Clauses go into the group most recently opened with [`Cnf::open_group`];
/// before any group is opened they go into group 0, named "base".
///
/// ```
/// use somaria::cnf::Cnf;
/// let mut cnf = Cnf::new();
/// let a = cnf.new_var();
/// let b = cnf.new_var();
/// cnf.open_group("a or b", None);
/// cnf.add_clause(&[a.pos(), b.pos()]);
/// assert_eq!(cnf.num_vars(), 2);
/// assert_eq!(cnf.num_clauses(), 1);
/// assert_eq!(cnf.groups()[1].name, "a or b");
/// ```
#[derive(Clone, Debug)]
pub struct Cnf {
    num_vars: usize,
    lits: Vec<Lit>,
    clause_ends: Vec<usize>,
    clause_groups: Vec<GroupId>,
    groups: Vec<Group>,
    current_group: GroupId,
    var_names: Vec<(Var, String)>,
}

impl Default for Cnf {
    fn default() -> Self {
        Cnf::new()
    }
}

impl Cnf {
    /// An empty formula with the "base" group open.
    pub fn new() -> Cnf {
        Cnf {
            num_vars: 0,
            lits: Vec::new(),
            clause_ends: Vec::new(),
            clause_groups: Vec::new(),
            groups: vec![Group { name: "base".to_string(), place: None }],
            current_group: GroupId(0),
            var_names: Vec::new(),
        }
    }

    /// A fresh variable.
    pub fn new_var(&mut self) -> Var {
        let var = Var::from_index(self.num_vars);
        self.num_vars += 1;
        var
    }

    /// `count` fresh variables with consecutive indices.
    ///
    /// ```
    /// use somaria::cnf::Cnf;
    /// let mut cnf = Cnf::new();
    /// let vars = cnf.new_vars(3);
    /// assert_eq!(vars[2].index(), 2);
    /// ```
    pub fn new_vars(&mut self, count: usize) -> Vec<Var> {
        (0..count).map(|_| self.new_var()).collect()
    }

    /// Gives a variable a name that DIMACS output shows as a comment.
    pub fn name_var(&mut self, var: Var, name: impl Into<String>) {
        self.var_names.push((var, name.into()));
    }

    /// The names given with [`Cnf::name_var`], in the order given.
    pub fn var_names(&self) -> &[(Var, String)] {
        &self.var_names
    }

    /// Opens a new group; the clauses added after this belong to it.
    pub fn open_group(&mut self, name: impl Into<String>, place: Option<(usize, usize)>) -> GroupId {
        let id = GroupId(u32::try_from(self.groups.len()).expect("group count fits in u32"));
        self.groups.push(Group { name: name.into(), place });
        self.current_group = id;
        id
    }

    /// A copy with `clauses` added in a group of their own named `group`
    /// (none when there are no clauses): the formula a lazy solver ended up
    /// solving, its encoding and the cuts added between solves.
    ///
    /// ```
    /// use somaria::cnf::{ClauseSink, Cnf};
    /// let mut cnf = Cnf::new();
    /// let x = cnf.new_var();
    /// let more = cnf.extended("cuts", &[vec![x.pos()], vec![!x.pos()]]);
    /// assert_eq!((cnf.num_clauses(), more.num_clauses()), (0, 2));
    /// ```
    pub fn extended(&self, group: &str, clauses: &[Vec<Lit>]) -> Cnf {
        let mut cnf = self.clone();
        if !clauses.is_empty() {
            cnf.open_group(group, None);
            for clause in clauses {
                cnf.add_clause(clause);
            }
        }
        cnf
    }

    /// Adds a clause to the open group. An empty clause makes the formula
    /// unsatisfiable.
    pub fn add_clause(&mut self, clause: &[Lit]) {
        debug_assert!(clause.iter().all(|l| l.var().index() < self.num_vars), "literal of an unknown variable");
        self.lits.extend_from_slice(clause);
        self.clause_ends.push(self.lits.len());
        self.clause_groups.push(self.current_group);
    }

    /// Number of variables.
    pub fn num_vars(&self) -> usize {
        self.num_vars
    }

    /// Number of clauses.
    pub fn num_clauses(&self) -> usize {
        self.clause_ends.len()
    }

    /// The groups, indexed by [`GroupId::index`]; group 0 is "base".
    pub fn groups(&self) -> &[Group] {
        &self.groups
    }

    /// The handles of the groups opened after "base", in order: a formula's
    /// own rules, when "base" only defines literals.
    pub fn opened_groups(&self) -> impl Iterator<Item = GroupId> + use<> {
        (1..self.groups.len() as u32).map(GroupId)
    }

    /// The clauses in the order added.
    ///
    /// ```
    /// use somaria::cnf::Cnf;
    /// let mut cnf = Cnf::new();
    /// let a = cnf.new_var();
    /// cnf.add_clause(&[a.neg()]);
    /// assert_eq!(cnf.clauses().next().unwrap(), &[a.neg()]);
    /// ```
    pub fn clauses(&self) -> impl Iterator<Item = &[Lit]> + '_ {
        let mut start = 0;
        self.clause_ends.iter().map(move |&end| {
            let clause = &self.lits[start..end];
            start = end;
            clause
        })
    }

    /// The clauses with the group each belongs to.
    pub fn grouped_clauses(&self) -> impl Iterator<Item = (GroupId, &[Lit])> + '_ {
        self.clause_groups.iter().copied().zip(self.clauses())
    }

    /// Whether every clause holds under a full assignment indexed by variable.
    ///
    /// ```
    /// use somaria::cnf::Cnf;
    /// let mut cnf = Cnf::new();
    /// let a = cnf.new_var();
    /// cnf.add_clause(&[a.pos()]);
    /// assert!(cnf.is_satisfied_by(&[true]));
    /// assert!(!cnf.is_satisfied_by(&[false]));
    /// ```
    pub fn is_satisfied_by(&self, assignment: &[bool]) -> bool {
        self.clauses().all(|clause| clause.iter().any(|lit| lit.holds(assignment)))
    }
}
