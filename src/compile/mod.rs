//! From the csp language's unrolled model to CNF: the SAT half of the
//! modeler.
//!
//! The whole pipeline: [`crate::lang::load_model`] reads a model (the
//! syntax, the checker, the unrolling into the `ir`), this module encodes
//! the [`crate::lang::Program`] as a [`crate::cnf::Cnf`] with one group per
//! constraint instance, [`crate::solver`] solves it, and the language's
//! independent evaluator judges every answer against the model's own
//! syntax trees. `puzzles::csp` joins the steps into a puzzle family. The
//! grid globals' connectivity is left to `repair`, the lazy repair step
//! that adds cuts between solves, unless the `eager` engine states it in
//! the formula.
//!
//! Each integer variable gets one of three encodings: direct (one literal
//! per value, exactly one true), order (one literal per "x ≥ v", a ladder)
//! or log (binary digits of x minus its least value). Every constraint is
//! written in terms of a few questions every encoding answers with
//! literals: "x = v" (`Encoder::eq`), "x ≥ v" (`Encoder::ge`), and the
//! literals whose conjunction says "x is v" (`Encoder::is`); an encoding
//! answers natively where it can and defines an auxiliary literal, once and
//! cached, where it cannot.
//!
//! Linear constraints over one variable become a literal; over two, one
//! clause per value of the smaller domain (the classic direct and order
//! encodings of binary constraints); over more, a pseudo-Boolean encoding
//! of the weighted literals that spell out each variable (`linear`).
//! Non-linear terms (products, division, `abs`, `min`/`max`, element,
//! if-then-else) become auxiliary integer variables tied to their
//! arguments. Booleans are Tseitin-encoded with polarity, so a constraint
//! that only has to hold gets only the clauses that make it hold.
//!
//! Clauses that define an auxiliary literal (satisfiable whatever its
//! inputs) go to the hard part of the formula; the clauses that assert a
//! constraint go to that constraint's group, so `explain` can drop a
//! constraint without dropping a definition another one shares.

mod adder;
mod bounds;
mod exprs;
mod graphs;
mod grids;
pub(crate) mod implied;
mod ints;
mod linear;
mod mdd;
mod memo;
mod objective;
pub(crate) mod presolve;
mod regions;
mod relax;
pub(crate) mod repair;

use std::collections::HashMap;

use rustc_hash::FxHashMap;

use crate::cnf::{Cnf, Lit, Var};
use crate::lang::ir::{BExpr, IExpr};
use crate::lang::model::{Base, IntSet, Model};
use crate::solver::Solve;

pub(crate) use grids::{Form, GridEncoding};
pub(crate) use ints::Repr;
pub(crate) use linear::Lin;

/// Why a program could not be compiled. Neither is a verdict about the
/// model.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CompileError {
    /// The formula would grow past a limit of the chosen encoding; the
    /// message says which.
    #[error("{0}")]
    TooLarge(String),
    /// The chosen engine cannot encode a constraint of the model; the
    /// message says which and what to choose instead.
    #[error("{0}")]
    Unsupported(String),
    /// A bug: the program breaks an invariant the compiler relies on.
    #[error("the compiler met {0}")]
    Internal(String),
}

/// How the integers and grid globals are encoded: the csp engines.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Encoding {
    /// Per variable: direct up to [`AUTO_DIRECT_LIMIT`] values, order up
    /// to [`MAX_UNARY_DOMAIN`], log above.
    Auto,
    /// One literal per value, exactly one true.
    Direct,
    /// One literal per "x ≥ v".
    Order,
    /// Binary digits.
    Log,
    /// As auto, with the grid globals encoded eagerly: one CNF, no cuts.
    Eager,
}

impl Encoding {
    /// The engine's name, which the size messages quote.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Auto => "auto",
            Encoding::Direct => "direct",
            Encoding::Order => "order",
            Encoding::Log => "log",
            Encoding::Eager => "eager",
        }
    }
}

impl std::fmt::Display for Encoding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The name of the group that says the objective is defined, in `explain`.
pub const OBJECTIVE_DEFINED: &str = "the objective is defined";

/// The objective, as a linear expression over integer variables.
#[derive(Clone, Debug)]
pub(crate) struct Objective(Lin);

/// The largest domain the direct and order encodings take for a decision
/// variable; larger ones need the log encoding. Auxiliary variables above
/// it switch to the log encoding by themselves.
pub const MAX_UNARY_DOMAIN: u64 = 1 << 16;

/// Above this size, `auto` gives a variable the order encoding rather than
/// the direct one.
pub const AUTO_DIRECT_LIMIT: u64 = 64;

/// The most variables or clauses an encoding may grow to.
pub const MAX_FORMULA: usize = 10_000_000;

/// The most literals, over all clauses, an encoding may hold (120 MB).
pub const MAX_LITERALS: usize = 30_000_000;

/// How a constraint must hold, for Tseitin encoding with polarity.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Pol {
    /// The literal implies the expression.
    Pos,
    /// The expression implies the literal.
    Neg,
    /// Both.
    Both,
}

impl Pol {
    fn flip(self) -> Pol {
        match self {
            Pol::Pos => Pol::Neg,
            Pol::Neg => Pol::Pos,
            Pol::Both => Pol::Both,
        }
    }

    fn pos(self) -> bool {
        self != Pol::Neg
    }

    fn neg(self) -> bool {
        self != Pol::Pos
    }
}

#[derive(Default)]
struct ClauseList {
    lits: Vec<Lit>,
    ends: Vec<usize>,
}

impl ClauseList {
    fn push(&mut self, clause: &[Lit]) {
        self.lits.extend_from_slice(clause);
        self.ends.push(self.lits.len());
    }

    fn iter(&self) -> impl Iterator<Item = &[Lit]> + '_ {
        let mut start = 0;
        self.ends.iter().map(move |&end| {
            let clause = &self.lits[start..end];
            start = end;
            clause
        })
    }
}

/// An encoder: the literals of every integer variable so far, the clauses,
/// and the caches of auxiliary literals.
pub(crate) struct Encoder {
    engine: Encoding,
    diagrams: bool,
    /// Whether to take the wide-domain encodings on every domain
    /// ([`Linear::Binary`]).
    binary: bool,
    num_vars: usize,
    truth: Lit,
    /// Index 0 holds the hard clauses, index g + 1 those of group g.
    clauses: Vec<ClauseList>,
    sink: usize,
    total_clauses: usize,
    total_lits: usize,
    ints: Vec<ints::IntVar>,
    scalar_ints: Vec<Option<usize>>,
    scalar_lits: Vec<Option<Lit>>,
    eq_cache: FxHashMap<(usize, i64), Lit>,
    ge_cache: FxHashMap<(usize, i64), Lit>,
    lit_ints: FxHashMap<Lit, usize>,
    term_cache: memo::Memo<IExpr, (usize, Vec<Lit>)>,
    reify_cache: memo::Memo<(BExpr, Pol), Lit>,
    pair_cache: FxHashMap<(u8, usize, usize), usize>,
    /// Log-encoded twins of unary variables, by the variable ([`Encoder::log_view`]).
    log_views: HashMap<usize, usize>,
    names: Vec<(Var, String)>,
    scratch: Vec<Lit>,
    grid_specs: Vec<crate::lang::ir::GridGlobal>,
    eager_grids: bool,
    grids: Vec<GridEncoding>,
    /// Difference bounds that hold in every solution, to narrow the
    /// auxiliary variables of differences; empty unless every constraint
    /// is hard ([`ObjectiveUse::Optimize`]).
    diffs: bounds::DiffBounds,
    /// The scalar each decision integer variable stands for.
    int_scalars: HashMap<usize, usize>,
    /// Whether to keep `linear_facts` (an objective is optimised).
    keep_linear: bool,
    /// The unconditional linear constraints `Σ c·x + k ≤ 0` posted so far,
    /// for the objective's relaxation bound ([`Encoder::objective_lp_bound`]).
    linear_facts: Vec<(Vec<(i128, usize)>, i128)>,
    /// The objective's counter for bounds from above and from below, built
    /// at the first bound asked for on that side ([`objective`]).
    tightenings: [Option<objective::Tightening>; 2],
}

/// What the solver needs to read answers back: each decision scalar's
/// integer variable or literal.
pub(crate) struct Compiled {
    /// The formula, with one group per constraint instance after the hard
    /// group 0.
    pub cnf: Cnf,
    /// The encoder, kept to add literals later (objective bounds, facts).
    pub encoder: Encoder,
    /// The objective as a linear expression, when there is one.
    pub objective: Option<Objective>,
    /// The grid globals' encodings, in the program's order.
    pub grids: Vec<GridEncoding>,
}

impl Encoder {
    /// A fresh encoder for the model's decision variables; `groups` is the
    /// number of constraint groups.
    /// `in_bits` lists the scalars `auto` gives the log encoding whatever
    /// their size ([`bounds::distance_scalars`]); `narrowed`, when given,
    /// the domains each scalar is encoded over ([`presolve`]).
    pub fn new(
        model: &Model,
        engine: Encoding,
        groups: usize,
        in_bits: &std::collections::HashSet<usize>,
        narrowed: Option<&presolve::Domains>,
    ) -> Result<Encoder, CompileError> {
        let mut enc = Encoder {
            engine,
            diagrams: true,
            binary: false,
            num_vars: 1,
            truth: Var::from_index(0).pos(),
            clauses: (0..=groups).map(|_| ClauseList::default()).collect(),
            sink: 0,
            total_clauses: 0,
            total_lits: 0,
            ints: Vec::new(),
            scalar_ints: vec![None; model.num_scalars()],
            scalar_lits: vec![None; model.num_scalars()],
            eq_cache: FxHashMap::default(),
            ge_cache: FxHashMap::default(),
            lit_ints: FxHashMap::default(),
            term_cache: memo::Memo::default(),
            reify_cache: memo::Memo::default(),
            pair_cache: FxHashMap::default(),
            log_views: HashMap::new(),
            names: vec![(Var::from_index(0), "true".to_string())],
            scratch: Vec::new(),
            grid_specs: Vec::new(),
            eager_grids: engine == Encoding::Eager,
            grids: Vec::new(),
            diffs: bounds::DiffBounds::default(),
            int_scalars: HashMap::new(),
            keep_linear: false,
            linear_facts: Vec::new(),
            tightenings: [None, None],
        };
        let truth = enc.truth;
        enc.clause(&[truth]);
        for decl in &model.vars {
            for k in 0..decl.len {
                let scalar = decl.first + k;
                let name = model.scalar_name(scalar);
                let domain = narrowed.map_or(&decl.domain, |d| d.of(scalar));
                let fixed = match (decl.given_at(k), domain.min(), domain.max()) {
                    (Some(v), _, _) => Some(v),
                    (None, Some(lo), Some(hi)) if lo == hi => Some(lo),
                    _ => None,
                };
                if decl.base == Base::Bool {
                    let var = enc.new_var()?;
                    enc.names.push((var, name));
                    enc.scalar_lits[scalar] = Some(var.pos());
                    if let Some(v) = fixed {
                        let lit = if v != 0 { var.pos() } else { !var.pos() };
                        enc.hard(|enc| enc.clause(&[lit]));
                    }
                } else if let Some(v) = fixed {
                    let x = enc.new_int(IntSet::range(v, v), Repr::Const)?;
                    enc.name_int(x, &name);
                    enc.scalar_ints[scalar] = Some(x);
                } else {
                    let size = domain.len();
                    let repr = match engine {
                        Encoding::Direct | Encoding::Order if size > MAX_UNARY_DOMAIN => {
                            return Err(CompileError::TooLarge(format!(
                                "{name} has {size} values, more than the {MAX_UNARY_DOMAIN} the {engine} encoding takes; use --engine log or auto"
                            )));
                        }
                        Encoding::Auto | Encoding::Eager if size > 2 && in_bits.contains(&scalar) => Repr::Log,
                        _ => enc.repr_for(size),
                    };
                    let x = enc.new_int(domain.clone(), repr)?;
                    enc.name_int(x, &name);
                    enc.scalar_ints[scalar] = Some(x);
                }
            }
        }
        Ok(enc)
    }

    /// The representation a new integer variable of `size` values gets.
    fn repr_for(&self, size: u64) -> Repr {
        match self.engine {
            _ if size <= 1 => Repr::Const,
            // Two values need one literal, which is the order encoding.
            Encoding::Auto | Encoding::Eager if size == 2 => Repr::Order,
            Encoding::Direct if size <= MAX_UNARY_DOMAIN => Repr::Direct,
            Encoding::Order if size <= MAX_UNARY_DOMAIN => Repr::Order,
            Encoding::Auto | Encoding::Eager if size <= AUTO_DIRECT_LIMIT => Repr::Direct,
            Encoding::Auto | Encoding::Eager if size <= MAX_UNARY_DOMAIN => Repr::Order,
            _ => Repr::Log,
        }
    }

    fn new_var(&mut self) -> Result<Var, CompileError> {
        if self.num_vars >= MAX_FORMULA {
            return Err(CompileError::TooLarge(format!(
                "the {} encoding of this model needs more than {MAX_FORMULA} variables",
                self.engine
            )));
        }
        let var = Var::from_index(self.num_vars);
        self.num_vars += 1;
        Ok(var)
    }

    /// A fresh variable for encodings written against a
    /// [`crate::cnf::ClauseSink`]; past the limit the next size check fails.
    fn fresh_var(&mut self) -> Var {
        let var = Var::from_index(self.num_vars.min(u32::MAX as usize >> 1));
        self.num_vars += 1;
        var
    }

    fn new_lit(&mut self) -> Result<Lit, CompileError> {
        Ok(self.new_var()?.pos())
    }

    fn t(&self) -> Lit {
        self.truth
    }

    /// The literal the encoding takes as true. The formula's clauses fold
    /// it away, so unless a grid global needs it no clause forces it: a
    /// solver whose models are read through literals made later (a fixed
    /// scalar's "x = v" is this literal) must be given it as a unit.
    pub fn truth(&self) -> Lit {
        self.truth
    }

    fn f(&self) -> Lit {
        !self.truth
    }

    fn constant(&self, value: bool) -> Lit {
        if value { self.truth } else { !self.truth }
    }

    /// Adds a clause to the current sink, dropping false literals and
    /// skipping clauses that are already true.
    fn clause(&mut self, lits: &[Lit]) {
        // Past the limits, clauses are dropped and the encoding fails at the
        // next size check, before memory runs out.
        if self.total_clauses >= MAX_FORMULA || self.total_lits >= MAX_LITERALS {
            self.total_clauses = self.total_clauses.max(MAX_FORMULA);
            return;
        }
        // Most clauses are binary: no sorting needed.
        if let [a, b] = *lits {
            let constant = |l: Lit| l.var() == self.truth.var();
            if !constant(a) && !constant(b) {
                if a.var() != b.var() {
                    self.clauses[self.sink].push(&[a, b]);
                    self.total_clauses += 1;
                    self.total_lits += 2;
                } else if a == b {
                    self.clauses[self.sink].push(&[a]);
                    self.total_clauses += 1;
                    self.total_lits += 1;
                }
                return;
            }
        }
        let mut out = std::mem::take(&mut self.scratch);
        out.clear();
        for &l in lits {
            if l == self.truth {
                self.scratch = out;
                return;
            }
            if l != !self.truth {
                out.push(l);
            }
        }
        out.sort_unstable();
        out.dedup();
        if !out.windows(2).any(|w| w[0].var() == w[1].var()) {
            self.clauses[self.sink].push(&out);
            self.total_clauses += 1;
            self.total_lits += out.len();
        }
        self.scratch = out;
    }

    fn check_size(&self) -> Result<(), CompileError> {
        if self.num_vars >= MAX_FORMULA {
            return Err(CompileError::TooLarge(format!(
                "the {} encoding of this model needs more than {MAX_FORMULA} variables",
                self.engine
            )));
        }
        if self.total_clauses >= MAX_FORMULA || self.total_lits >= MAX_LITERALS {
            return Err(CompileError::TooLarge(format!(
                "the {} encoding of this model needs more than {MAX_FORMULA} clauses or {MAX_LITERALS} literals",
                self.engine
            )));
        }
        Ok(())
    }

    /// Runs `f` with clauses going to the hard part: definitions of
    /// auxiliary literals that other constraints may share.
    fn hard<T>(&mut self, f: impl FnOnce(&mut Encoder) -> T) -> T {
        let saved = self.sink;
        self.sink = 0;
        let result = f(self);
        self.sink = saved;
        result
    }

    /// A literal equal to the conjunction of `lits`.
    fn and_lit(&mut self, lits: &[Lit]) -> Result<Lit, CompileError> {
        let mut kept: Vec<Lit> = Vec::new();
        for &l in lits {
            if l == self.f() {
                return Ok(self.f());
            }
            if l != self.t() && !kept.contains(&l) {
                kept.push(l);
            }
        }
        match kept[..] {
            [] => Ok(self.t()),
            [one] => Ok(one),
            _ => {
                let a = self.new_lit()?;
                self.hard(|enc| {
                    for &l in &kept {
                        enc.clause(&[!a, l]);
                    }
                    let mut back: Vec<Lit> = kept.iter().map(|&l| !l).collect();
                    back.push(a);
                    enc.clause(&back);
                });
                Ok(a)
            }
        }
    }

    /// A literal equal to the disjunction of `lits`.
    fn or_lit(&mut self, lits: &[Lit]) -> Result<Lit, CompileError> {
        let negated: Vec<Lit> = lits.iter().map(|&l| !l).collect();
        Ok(!self.and_lit(&negated)?)
    }

    /// Opens group `g` (0-based): the clauses that follow assert its
    /// constraint.
    pub fn open_group(&mut self, g: usize) {
        self.sink = g + 1;
    }

    /// Encodes one group's constraint.
    pub fn assert_group(&mut self, g: usize, expr: &BExpr) -> Result<(), CompileError> {
        self.open_group(g);
        let result = self.assert(&[], expr);
        self.sink = 0;
        result?;
        self.check_size()
    }

    /// The objective as a linear expression, with its definedness made
    /// hard. Bounds on it are posted later, one linear constraint each,
    /// under a selector ([`Encoder::objective_bound`]).
    pub fn objective(&mut self, expr: &IExpr) -> Result<Objective, CompileError> {
        self.sink = 0;
        let (lin, defs) = self.int_term(expr)?;
        for d in defs {
            self.clause(&[d]);
        }
        Ok(Objective(lin))
    }

    /// A literal that, when assumed, bounds the objective: at most `v`
    /// (`Ordering::Less`), exactly `v` (`Equal`) or at least `v` (`Greater`).
    /// On an objective over three or more variables, a bound is read off
    /// the objective's counters ([`objective`]), one per side, built at the
    /// first bound on that side and extended by later ones (exactly `v` is
    /// both sides); on fewer, each bound is a linear constraint of its own.
    pub fn objective_bound(
        &mut self,
        objective: &Objective,
        bound: std::cmp::Ordering,
        v: i64,
    ) -> Result<Lit, CompileError> {
        let signs: &[i128] = match bound {
            std::cmp::Ordering::Less => &[1],
            std::cmp::Ordering::Greater => &[-1],
            std::cmp::Ordering::Equal => &[1, -1],
        };
        let mut sides = Vec::new();
        for &sign in signs {
            match self.tightened(&objective.0, sign, v)? {
                Some(side) => sides.push(side),
                None => break,
            }
        }
        match sides[..] {
            [one] if signs.len() == 1 => return Ok(one),
            [below, above] => return self.and_lit(&[below, above]),
            _ => {}
        }
        let selector = self.new_lit()?;
        let mut lin = objective.0.clone();
        lin.k -= v;
        match bound {
            std::cmp::Ordering::Less => self.post_lin(&[selector], &lin, linear::Rel::Le)?,
            std::cmp::Ordering::Equal => self.post_lin(&[selector], &lin, linear::Rel::Eq)?,
            std::cmp::Ordering::Greater => self.post_lin(&[selector], &lin.negated(), linear::Rel::Le)?,
        }
        Ok(selector)
    }

    /// A bound on the objective's best value from each unconditional
    /// linear constraint alone ([`relax`]), the tightest of them: an upper
    /// bound when maximising, a lower one when minimising; with, when the
    /// integer relaxation could be tabulated, values of its variables that
    /// reach it (which may break other constraints). `None` when no
    /// constraint gives a bound.
    pub fn objective_relaxation(&self, objective: &Objective, maximize: bool) -> Option<(i64, Vec<(usize, i64)>)> {
        let sign: i128 = if maximize { 1 } else { -1 };
        let mut coef: HashMap<usize, i128> = HashMap::new();
        for &(c, x) in &objective.0.terms {
            *coef.entry(x).or_default() += sign * c as i128;
        }
        let k = sign * objective.0.k as i128;
        let (best, witness) = self
            .linear_facts
            .iter()
            .filter_map(|(terms, cap_k)| {
                let mut vars: Vec<usize> = coef.keys().copied().chain(terms.iter().map(|&(_, x)| x)).collect();
                vars.sort_unstable();
                vars.dedup();
                let columns: Vec<relax::Column> = vars
                    .iter()
                    .map(|&x| {
                        let dom = &self.ints[x].dom;
                        let w = terms.iter().filter(|&&(_, y)| y == x).map(|&(c, _)| c).sum();
                        let (lo, hi) = (dom.min().unwrap_or(0) as i128, dom.max().unwrap_or(0) as i128);
                        relax::Column { c: coef.get(&x).copied().unwrap_or(0), w, lo, hi }
                    })
                    .collect();
                match relax::integer_optimum(k, &columns, -cap_k) {
                    Some((bound, values)) => {
                        let witness = vars.iter().zip(values).map(|(&x, v)| (x, v as i64)).collect();
                        Some((bound, witness))
                    }
                    None => relax::upper_bound(k, &columns, -cap_k).map(|bound| (bound, Vec::new())),
                }
            })
            .min_by_key(|(bound, _)| *bound)?;
        let best = best.clamp(i64::MIN as i128 + 1, i64::MAX as i128) as i64;
        Some((if maximize { best } else { -best }, witness))
    }

    /// The least and greatest values the objective may take.
    pub fn objective_range(&self, objective: &Objective) -> (i64, i64) {
        self.lin_bounds(&objective.0)
    }

    /// The objective's value in a model.
    pub fn objective_value(&self, objective: &Objective, value: &dyn Fn(Lit) -> bool) -> Result<i64, String> {
        let mut total = objective.0.k as i128;
        for &(c, x) in &objective.0.terms {
            total += c as i128 * self.ints[x].decode(value)? as i128;
        }
        i64::try_from(total).map_err(|_| "the objective's value overflows".to_string())
    }

    /// Builds the formula: the hard clauses in group "base", then one named
    /// group per constraint instance.
    pub fn finish(&mut self, group_names: &[String]) -> Cnf {
        let mut cnf = Cnf::new();
        for _ in 0..self.num_vars {
            cnf.new_var();
        }
        for (var, name) in self.names.drain(..) {
            cnf.name_var(var, name);
        }
        for clause in self.clauses[0].iter() {
            cnf.add_clause(clause);
        }
        for (g, name) in group_names.iter().enumerate() {
            cnf.open_group(name.clone(), None);
            if let Some(list) = self.clauses.get(g + 1) {
                for clause in list.iter() {
                    cnf.add_clause(clause);
                }
            }
        }
        for list in &mut self.clauses {
            *list = ClauseList::default();
        }
        self.sink = 0;
        cnf
    }

    /// Runs `f` to define more literals after the formula went to a solver:
    /// the new variables are created in the solver in the same order, and
    /// the new clauses are added to it.
    pub fn extend<T>(
        &mut self,
        solver: &mut dyn Solve,
        f: impl FnOnce(&mut Encoder) -> Result<T, CompileError>,
    ) -> Result<T, CompileError> {
        // The solver may have numbered variables of its own since the last
        // call (a lazy driver's side variables for its cuts); the new ones
        // come after those.
        let numbered = solver.num_vars();
        if numbered < self.num_vars {
            return Err(CompileError::Internal(format!(
                "the solver has {numbered} variables where the encoder has numbered {}",
                self.num_vars
            )));
        }
        self.num_vars = numbered;
        let first = self.num_vars;
        let saved = self.sink;
        self.sink = 0;
        let result = f(self);
        self.sink = saved;
        let result = result?;
        self.check_size()?;
        for expected in first..self.num_vars {
            let var = solver.new_var();
            if var.index() != expected {
                return Err(CompileError::Internal(format!(
                    "the solver numbered a new variable {} where the encoder expected {expected}",
                    var.index()
                )));
            }
        }
        let list = std::mem::take(&mut self.clauses[0]);
        for clause in list.iter() {
            solver.add_clause(clause);
        }
        Ok(result)
    }

    /// A literal that, when assumed, makes `expr` hold: a constraint that a
    /// solver can be asked to keep or not, call by call.
    pub fn selector(&mut self, expr: &BExpr) -> Result<Lit, CompileError> {
        let selector = self.new_lit()?;
        self.assert(&[selector], expr)?;
        Ok(selector)
    }

    /// The literal for "x = v", for callers outside the encoder.
    pub fn eq_lit(&mut self, x: usize, v: i64) -> Result<Lit, CompileError> {
        self.eq(x, v)
    }

    /// Literals that, when assumed, keep every decision variable with more
    /// than 2^(bits+1) values within 2^bits of the value of its domain
    /// nearest zero: a search for small values first. Empty when no
    /// variable is that wide, or when no arithmetic is spelt in bits.
    pub fn small_values(&mut self, bits: u32) -> Result<Vec<Lit>, CompileError> {
        // Order and direct literals propagate arithmetic well enough: a
        // probe there costs a call and spares nothing.
        if !self.ints.iter().any(|v| matches!(v.kind, ints::Kind::Log { .. })) {
            return Ok(Vec::new());
        }
        let reach = 1i64 << bits;
        let wide: Vec<usize> =
            self.scalar_ints.iter().flatten().copied().filter(|&x| self.size(x) > 2 * reach as u64).collect();
        let mut lits = Vec::new();
        for x in wide {
            let (min, max) = (self.ints[x].dom.min().unwrap_or(0), self.ints[x].dom.max().unwrap_or(0));
            let centre = 0i64.clamp(min, max);
            let (lo, hi) = (centre.saturating_sub(reach - 1), centre.saturating_add(reach - 1));
            if lo > min {
                lits.push(self.ge(x, lo)?);
            }
            if hi < max {
                lits.push(!self.ge(x, hi + 1)?);
            }
        }
        Ok(lits)
    }

    /// A decision scalar's integer variable (int and enum scalars).
    pub fn scalar_int(&self, scalar: usize) -> Option<usize> {
        self.scalar_ints[scalar]
    }

    /// A decision scalar's literal (Boolean scalars).
    pub fn scalar_lit(&self, scalar: usize) -> Option<Lit> {
        self.scalar_lits[scalar]
    }

    /// The domain of an integer variable.
    pub fn domain(&self, x: usize) -> &IntSet {
        &self.ints[x].dom
    }

    /// The variables whose values decide those of the given decision
    /// scalars, and whether each scalar's variables form an exactly-one
    /// group (so that blocking a model on its true literals is enough).
    pub fn projection(&self, scalars: &[usize]) -> (Vec<Var>, bool) {
        let mut vars = Vec::new();
        let mut one_hot = true;
        for &s in scalars {
            if let Some(l) = self.scalar_lits[s] {
                vars.push(l.var());
                one_hot = false;
            } else if let Some(x) = self.scalar_ints[s] {
                let (lits, hot) = self.ints[x].defining_lits();
                one_hot &= hot;
                vars.extend(lits.iter().map(|l| l.var()));
            }
        }
        (vars, one_hot)
    }

    /// Each decision scalar's value in a model read through `value`
    /// (Booleans as 0 and 1); an error names a scalar whose literals do not
    /// spell out one value of its domain.
    pub fn decode(&self, model: &Model, value: &dyn Fn(Lit) -> bool) -> Result<Vec<i64>, String> {
        (0..model.num_scalars()).map(|s| self.decode_scalar(model, s, value)).collect()
    }

    /// Scalar `s`'s value in a model, as [`Encoder::decode`] gives it.
    pub fn decode_scalar(&self, model: &Model, s: usize, value: &dyn Fn(Lit) -> bool) -> Result<i64, String> {
        if let Some(l) = self.scalar_lits[s] {
            Ok(i64::from(value(l)))
        } else if let Some(x) = self.scalar_ints[s] {
            self.ints[x].decode(value).map_err(|e| format!("{}: {e}", model.scalar_name(s)))
        } else {
            Err(format!("{} has no encoding", model.scalar_name(s)))
        }
    }

    /// For each scalar of `model`, the variables whose literals
    /// [`Encoder::decode_scalar`] reads: (variable, scalar) pairs.
    pub fn decoding_vars(&self, model: &Model) -> Vec<(Var, usize)> {
        let mut pairs = Vec::new();
        for s in 0..model.num_scalars() {
            if let Some(l) = self.scalar_lits[s] {
                pairs.push((l.var(), s));
            } else if let Some(x) = self.scalar_ints[s] {
                pairs.extend(self.ints[x].defining_lits().0.iter().map(|l| (l.var(), s)));
            }
        }
        pairs
    }
}

/// What to do with the objective.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum ObjectiveUse {
    /// Optimise: the objective must be defined (a hard constraint), and
    /// bounds on it come later.
    Optimize,
    /// Only feasibility: the objective's definedness becomes one more
    /// group after the constraints', so `explain` can name it; bounds on
    /// the objective mean something only while that group is on.
    Group,
}

/// How linear constraints over three or more variables are encoded.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Linear {
    /// A decision diagram while it stays small, else pseudo-Boolean.
    #[default]
    Diagrams,
    /// Always a pseudo-Boolean encoding (totalizer, generalized totalizer
    /// or binary adder).
    PseudoBoolean,
    /// The wide-domain path on every domain: each weighted sum through a
    /// binary adder, and products, division, remainders and `abs` tied to
    /// their arguments by linear constraints rather than tables. For
    /// cross-checking that path on instances small enough to enumerate.
    Binary,
}

/// Refuses, at its declaration, a variable too wide for the direct or
/// order encoding, before anything is allocated.
fn refuse_wide_domains(model: &Model, program: &crate::lang::Program, engine: Encoding) -> Result<(), CompileError> {
    if !matches!(engine, Encoding::Direct | Encoding::Order) {
        return Ok(());
    }
    for (d, decl) in model.vars.iter().enumerate() {
        let size = decl.domain.len();
        if decl.base != Base::Bool && decl.len > 0 && size > MAX_UNARY_DOMAIN {
            let (line, col) = program.var_places.get(d).copied().unwrap_or((0, 0));
            return Err(CompileError::TooLarge(format!(
                "{}:{line}:{col}: {} has {size} values, more than the {MAX_UNARY_DOMAIN} the {engine} encoding takes; expected --engine log or auto for it",
                program.file, decl.name
            )));
        }
    }
    Ok(())
}

/// Encodes a whole program with `engine`. With `presolve`, and only while
/// every constraint is hard ([`ObjectiveUse::Optimize`]), each variable is
/// encoded over the values the constraints' top-level facts leave it
/// ([`presolve`]); a refusal for a domain's size still reads the declared
/// domain.
pub(crate) fn compile(
    model: &Model,
    program: &crate::lang::Program,
    engine: Encoding,
    use_: ObjectiveUse,
    (linear, presolve): (Linear, bool),
) -> Result<Compiled, CompileError> {
    let extra = usize::from(use_ == ObjectiveUse::Group && program.objective.is_some());
    refuse_wide_domains(model, program, engine)?;
    let narrowed = (presolve && use_ == ObjectiveUse::Optimize).then(|| presolve::Domains::narrowed(model, program));
    let mut encoder = Encoder::new(
        model,
        engine,
        program.groups.len() + extra,
        &bounds::distance_scalars(model, program),
        narrowed.as_ref(),
    )?;
    encoder.diagrams = linear == Linear::Diagrams;
    encoder.binary = linear == Linear::Binary;
    encoder.grid_specs = program.grids.clone();
    if use_ == ObjectiveUse::Optimize {
        // Every constraint holds here, so what they imply may narrow the
        // auxiliary variables.
        encoder.diffs = bounds::DiffBounds::of(model, program);
        encoder.int_scalars = encoder.scalar_ints.iter().enumerate().filter_map(|(s, x)| x.map(|x| (x, s))).collect();
        encoder.keep_linear = program.objective.is_some();
    }
    if !program.grids.is_empty() {
        // The clauses never mention the constant, which `clause` folds away,
        // but the grid globals' cuts and their reading of a model do.
        let truth = encoder.truth;
        encoder.clauses[0].push(&[truth]);
        encoder.total_clauses += 1;
        encoder.total_lits += 1;
    }
    for (g, group) in program.groups.iter().enumerate() {
        encoder.assert_group(g, &group.expr).map_err(|e| match e {
            CompileError::TooLarge(why) => CompileError::TooLarge(format!(
                "{}:{}:{}: {why} (in {})",
                program.file, group.line, group.column, group.name
            )),
            internal => internal,
        })?;
    }
    if let Some(domains) = &narrowed {
        // Every constraint holds, so what they imply together is hard.
        for sum in implied::count_sums(program, domains) {
            encoder.sink = 0;
            encoder.assert(&[], &sum)?;
        }
        encoder.check_size()?;
    }
    let mut names: Vec<String> = program.groups.iter().map(|g| g.name.clone()).collect();
    let objective = match (&program.objective, use_) {
        (Some((_, expr)), ObjectiveUse::Optimize) => Some(encoder.objective(expr)?),
        (Some((_, expr)), ObjectiveUse::Group) => {
            encoder.open_group(program.groups.len());
            let (lin, defs) = encoder.int_term(expr)?;
            for d in defs {
                encoder.clause(&[d]);
            }
            encoder.sink = 0;
            names.push(OBJECTIVE_DEFINED.to_string());
            // Bounds on it come later, meaningful while its group is on.
            Some(Objective(lin))
        }
        (None, _) => None,
    };
    encoder.check_size()?;
    let cnf = encoder.finish(&names);
    let grids = std::mem::take(&mut encoder.grids);
    Ok(Compiled { cnf, encoder, objective, grids })
}
