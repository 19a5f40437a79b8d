//! Random small csp models against an evaluator written here, which tries
//! every assignment. Each model has 2 to 6 scalar variables (ints, Booleans,
//! an enum, a small array) with at most 5 values each, and a few constraints
//! drawn from the whole supported subset, including undefined expressions
//! (division by a variable that may be 0, indices that may be out of range)
//! and, for some models, an objective and a `show` list. For every engine the
//! test checks `count` (enumerated and exact), the `solve` solution, the `facts` value sets and the
//! minimality of `explain` against the enumeration.
//!
//! `SOMARIA_CSP_MODELS=5000 cargo test --release --test csp csp_random::` runs more.

use std::collections::{BTreeMap, BTreeSet};

use somaria::model::Source;
use somaria::puzzles::csp::{Linear, load_puzzle};
use somaria::puzzles::{self, CountMethod, CountOptions, Puzzle, SolveOptions, Status};
use somaria::rng::SplitMix64;
use somaria::solver::SolverConfig;

use crate::common;

use common::models::relation_holds;

const COLOURS: [&str; 3] = ["red", "green", "blue"];

/// A scalar decision variable of the generated model.
#[derive(Clone, Debug)]
struct Scalar {
    /// How it is written in expressions: `x1`, `a[2]`, `c`.
    text: String,
    /// Its declaration.
    decl: usize,
    values: Vec<i64>,
    kind: Kind,
}

#[derive(Copy, Clone, Debug, PartialEq)]
enum Kind {
    Int,
    Bool,
    Colour,
}

/// A declaration: a scalar, or an array `a` of ints indexed 1..len.
#[derive(Clone, Debug)]
struct Decl {
    name: String,
    toml: String,
    scalars: Vec<usize>,
}

/// Integer expressions. `None` is an undefined value.
#[derive(Clone, Debug)]
enum I {
    Const(i64),
    Var(usize),
    /// The loop variable of the enclosing generator.
    Loop,
    /// The parameter array `p` (index 1..4) at an integer index.
    Param(Box<I>),
    /// The variable array at an integer index.
    Elem(Box<I>),
    Neg(Box<I>),
    Bin(&'static str, Box<I>, Box<I>),
    Abs(Box<I>),
    MinMax(bool, Vec<I>),
    Ite(Vec<(B, I)>, Box<I>),
    BoolToInt(Box<B>),
    /// `sum(k in lo..hi where filter)(body)`.
    Sum(i64, i64, Option<Box<B>>, Box<I>),
    /// `sum(k in lo..hi where filter)(body)` over a Boolean body, which
    /// counts the instances that hold (MiniZinc's automatic `bool2int`).
    BoolSum(i64, i64, Option<Box<B>>, Box<B>),
    Count(Vec<I>, Box<I>),
    /// The local `t` of the enclosing `let`.
    Local,
    /// A slice or rearrangement of `a` or `q` at an integer index.
    ViewElem(View, Box<I>),
    /// The sum of a slice or rearrangement.
    ViewSum(View),
    /// `card` of a fixed set.
    Card(SetE),
    /// `sum(q[r0..r1, c0..c1])`, a 2-D slice of the parameter `q`.
    Block(i64, i64, i64, i64),
    /// `let { var int: t = def; constraint c } in body`.
    Let(Box<Let<I>>),
}

/// `let { var lo..hi: t = def; constraint c } in body`: without `def`, a
/// local variable without a definition, which only a positive place takes.
#[derive(Clone, Debug)]
struct Let<T> {
    def: Option<I>,
    domain: Option<(i64, i64)>,
    constraint: Option<B>,
    body: T,
}

/// A fixed set: a literal, a range, the parameter `S`, or `union`,
/// `intersect`, `diff`, `symdiff` of two.
#[derive(Clone, Debug)]
enum SetE {
    Lit(Vec<i64>),
    Range(i64, i64),
    Param,
    Op(&'static str, Box<SetE>, Box<SetE>),
}

/// A 1-D array made from the variable array `a` (index 1..len) or the
/// parameter `q` (index 1..2, 0..2).
#[derive(Clone, Debug)]
enum View {
    /// `reverse(a)`, over 1..len.
    Reverse,
    /// `a[lo..hi]`, over lo..hi.
    Range(i64, i64),
    /// `a[..]`.
    All,
    /// `array1d(off..off+len-1, a)`.
    Shifted(i64),
    /// `q[r, ..]` or `row(q, r)`, over 0..2.
    QRow(i64, bool),
    /// `q[.., c]` or `col(q, c)`, over 1..2.
    QCol(i64, bool),
    /// `array2d(1..1, 1..len, a)[1, ..]`.
    ARow,
}

/// The parameter `q`, row by row over 1..2 x 0..2.
const Q: [[i64; 3]; 2] = [[1, -2, 0], [3, 1, -1]];
/// The parameter `S`: `{-2, 3} union 0..1 diff {1}`.
const S_PARAM: [i64; 3] = [-2, 0, 3];

/// Boolean expressions.
#[derive(Clone, Debug)]
enum B {
    Const(bool),
    Var(usize),
    Not(Box<B>),
    Bin(&'static str, Box<B>, Box<B>),
    Cmp(&'static str, I, I),
    /// The enum variable compared with a colour.
    Colour(&'static str, usize, usize),
    In(I, Vec<i64>),
    /// `x in` a fixed set expression.
    InSet(I, SetE),
    AllDiff(Vec<I>),
    Table(Vec<I>, Vec<Vec<i64>>),
    Card(&'static str, I, Vec<I>, I),
    /// `forall` or `exists` over `k in lo..hi where filter`.
    Quant(bool, i64, i64, Option<Box<B>>, Box<B>),
    Ite(Vec<(B, B)>, Box<B>),
    Let(Box<Let<B>>),
    /// `first = second` (or `!=` when true) over two views of one length,
    /// the second moved onto the first's index set when they differ.
    ViewEq(bool, View, View),
}

struct Gen {
    rng: SplitMix64,
    scalars: Vec<Scalar>,
    ints: Vec<usize>,
    bools: Vec<usize>,
    colour: Option<usize>,
    array: Option<(usize, Vec<usize>)>,
    in_loop: bool,
    in_let: bool,
}

impl Gen {
    fn pick<T: Clone>(&mut self, items: &[T]) -> T {
        items[self.rng.below(items.len())].clone()
    }

    fn chance(&mut self, p: f64) -> bool {
        self.rng.chance(p)
    }

    fn int(&mut self, depth: usize) -> I {
        let leaf = depth == 0 || self.chance(0.3);
        if leaf {
            return match self.rng.below(6) {
                0 | 1 if !self.ints.is_empty() => I::Var(self.pick(&self.ints.clone())),
                2 if self.in_loop => I::Loop,
                4 if self.in_let => I::Local,
                3 => I::Const(self.rng.below(7) as i64 - 3),
                _ if !self.ints.is_empty() => I::Var(self.pick(&self.ints.clone())),
                _ => I::Const(self.rng.below(5) as i64),
            };
        }
        let d = depth - 1;
        match self.rng.below(18) {
            15 => {
                let view = self.view();
                let (lo, n) = view_range(&view, self.array_len());
                let i = self.int(d);
                let i = if fixed_int(&i) { I::Const(lo + self.rng.below(n.max(1)) as i64) } else { i };
                I::ViewElem(view, Box::new(i))
            }
            16 => {
                if self.chance(0.3) {
                    let r0 = 1 + self.rng.below(2) as i64;
                    let c0 = self.rng.below(3) as i64;
                    I::Block(
                        r0,
                        r0 + self.rng.below((3 - r0) as usize) as i64,
                        c0,
                        c0 + self.rng.below((3 - c0) as usize) as i64,
                    )
                } else {
                    I::ViewSum(self.view())
                }
            }
            17 => I::Card(self.set(1)),
            0 => I::Neg(Box::new(self.int(d))),
            1 | 2 => {
                let op = self.pick(&["+", "-", "*"]);
                I::Bin(op, Box::new(self.int(d)), Box::new(self.int(d)))
            }
            3 => {
                let op = self.pick(&["div", "mod"]);
                // A constant divisor is never 0 (that is a load error, tested elsewhere).
                let divisor = if self.chance(0.5) { I::Const(self.pick(&[-3, -2, 2, 3])) } else { self.int(d) };
                // A divisor without variables that is 0 is a load error too.
                let divisor = if fixed_int(&divisor) { I::Const(self.pick(&[-2, 3])) } else { divisor };
                I::Bin(op, Box::new(self.int(d)), Box::new(divisor))
            }
            4 => I::Abs(Box::new(self.int(d))),
            5 => {
                let n = 1 + self.rng.below(3);
                let max = self.chance(0.5);
                I::MinMax(max, (0..n.max(2)).map(|_| self.int(d)).collect())
            }
            6 => {
                let n = 1 + self.rng.below(2);
                let branches = (0..n).map(|_| (self.boolean(d), self.int(d))).collect();
                I::Ite(branches, Box::new(self.int(d)))
            }
            7 | 14 => I::BoolToInt(Box::new(self.boolean(d))),
            8 if !self.in_loop => {
                let lo = self.rng.below(3) as i64;
                let hi = lo + self.rng.below(3) as i64;
                let filter = if self.chance(0.4) { Some(Box::new(self.loop_filter(d))) } else { None };
                self.in_loop = true;
                let body = self.int(d);
                self.in_loop = false;
                I::Sum(lo, hi, filter, Box::new(body))
            }
            9 => I::Param(Box::new(self.index(d, 4))),
            10 if self.array.is_some() => {
                let len = self.array.as_ref().map_or(1, |(_, e)| e.len());
                I::Elem(Box::new(self.index(d, len)))
            }
            11 => {
                let n = 2 + self.rng.below(2);
                I::Count((0..n).map(|_| self.int(d)).collect(), Box::new(self.int(d)))
            }
            12 if !self.in_loop => {
                let lo = self.rng.below(3) as i64;
                let hi = lo + self.rng.below(3) as i64;
                let filter = if self.chance(0.4) { Some(Box::new(self.loop_filter(d))) } else { None };
                self.in_loop = true;
                let body = self.boolean(d);
                self.in_loop = false;
                I::BoolSum(lo, hi, filter, Box::new(body))
            }
            13 if !self.in_let => {
                let def = self.int(d);
                I::Let(Box::new(self.let_parts(Some(def), d, |g, d| g.int(d))))
            }
            _ => self.int(0),
        }
    }

    fn array_len(&self) -> usize {
        self.array.as_ref().map_or(0, |(_, e)| e.len())
    }

    /// A view of `a` when the model has it, else of `q`.
    fn view(&mut self) -> View {
        let len = self.array_len() as i64;
        let of_q = len == 0 || self.chance(0.35);
        if of_q {
            return match self.rng.below(2) {
                0 => View::QRow(1 + self.rng.below(2) as i64, self.chance(0.5)),
                _ => View::QCol(self.rng.below(3) as i64, self.chance(0.5)),
            };
        }
        match self.rng.below(6) {
            0 => View::Reverse,
            1 => {
                let lo = 1 + self.rng.below(len as usize) as i64;
                View::Range(lo, lo + self.rng.below((len - lo + 1) as usize) as i64)
            }
            2 => View::All,
            3 => View::Shifted(self.rng.below(4) as i64 - 2),
            _ => View::ARow,
        }
    }

    /// A fixed set expression.
    fn set(&mut self, depth: usize) -> SetE {
        if depth == 0 || self.chance(0.4) {
            return match self.rng.below(3) {
                0 => SetE::Param,
                1 => {
                    let lo = self.rng.below(5) as i64 - 3;
                    SetE::Range(lo, lo + self.rng.below(4) as i64 - 1)
                }
                _ => {
                    let values: BTreeSet<i64> =
                        (0..1 + self.rng.below(3)).map(|_| self.rng.below(6) as i64 - 2).collect();
                    SetE::Lit(values.into_iter().collect())
                }
            };
        }
        let op = self.pick(&["union", "intersect", "diff", "symdiff"]);
        SetE::Op(op, Box::new(self.set(depth - 1)), Box::new(self.set(depth - 1)))
    }

    /// A `let` around `body`, with a domain and a local constraint by chance.
    fn let_parts<T>(&mut self, def: Option<I>, depth: usize, body: impl Fn(&mut Gen, usize) -> T) -> Let<T> {
        let domain = if def.is_none() || self.chance(0.4) {
            let lo = self.rng.below(4) as i64 - 2;
            Some((lo, lo + self.rng.below(4) as i64))
        } else {
            None
        };
        self.in_let = true;
        let constraint = if self.chance(0.6) { Some(self.boolean(depth.min(1))) } else { None };
        let body = body(self, depth);
        self.in_let = false;
        Let { def, domain, constraint, body }
    }

    /// An index: over the variables (possibly out of range, which is
    /// undefined), or a constant in range (a fixed index out of range is a
    /// load error).
    fn index(&mut self, depth: usize, len: usize) -> I {
        let i = self.int(depth);
        if fixed_int(&i) { I::Const(1 + self.rng.below(len) as i64) } else { i }
    }

    /// A `where` condition: on the loop variable, or on the variables.
    fn loop_filter(&mut self, depth: usize) -> B {
        if self.chance(0.5) {
            let op = self.pick(&["!=", "<=", ">"]);
            B::Cmp(op, I::Loop, I::Const(self.rng.below(4) as i64))
        } else {
            let was = self.in_loop;
            self.in_loop = true;
            let b = self.boolean(depth.min(1));
            self.in_loop = was;
            b
        }
    }

    fn boolean(&mut self, depth: usize) -> B {
        let leaf = depth == 0 || self.chance(0.25);
        if leaf {
            return match self.rng.below(5) {
                0 if !self.bools.is_empty() => B::Var(self.pick(&self.bools.clone())),
                1 if self.colour.is_some() => {
                    let c = self.colour.expect("checked");
                    let op = self.pick(&["=", "!=", "<"]);
                    B::Colour(op, c, self.rng.below(3))
                }
                2 => B::Const(self.chance(0.7)),
                _ => {
                    let op = self.pick(&["=", "!=", "<", "<=", ">", ">="]);
                    B::Cmp(op, self.int(0), self.int(0))
                }
            };
        }
        let d = depth - 1;
        match self.rng.below(14) {
            0 => B::Not(Box::new(self.boolean(d))),
            1 | 2 => {
                let op = self.pick(&["/\\", "\\/", "->", "<-", "<->", "xor"]);
                B::Bin(op, Box::new(self.boolean(d)), Box::new(self.boolean(d)))
            }
            3..=5 => {
                let op = self.pick(&["=", "!=", "<", "<=", ">", ">="]);
                B::Cmp(op, self.int(d), self.int(d))
            }
            6 if self.chance(0.5) => B::InSet(self.int(d), self.set(2)),
            6 => {
                let values: Vec<i64> = (0..1 + self.rng.below(3)).map(|_| self.rng.below(6) as i64 - 2).collect();
                B::In(self.int(d), values)
            }
            7 => {
                let n = 2 + self.rng.below(2);
                B::AllDiff((0..n).map(|_| self.int(d.min(1))).collect())
            }
            8 => {
                let n = 2 + self.rng.below(2);
                let items: Vec<I> = (0..n).map(|_| self.int(d.min(1))).collect();
                let rows = (0..1 + self.rng.below(4))
                    .map(|_| (0..n).map(|_| self.rng.below(5) as i64 - 1).collect())
                    .collect();
                B::Table(items, rows)
            }
            9 => {
                let which = self.pick(&["exactly", "at_most", "at_least"]);
                let n = 2 + self.rng.below(2);
                let items = (0..n).map(|_| self.int(d.min(1))).collect();
                B::Card(which, I::Const(self.rng.below(3) as i64), items, self.int(0))
            }
            10 if !self.in_loop => {
                let lo = self.rng.below(3) as i64;
                let hi = lo + self.rng.below(3) as i64;
                let filter = if self.chance(0.4) { Some(Box::new(self.loop_filter(d))) } else { None };
                self.in_loop = true;
                let body = self.boolean(d);
                self.in_loop = false;
                B::Quant(self.chance(0.5), lo, hi, filter, Box::new(body))
            }
            11 => {
                let branches = (0..1 + self.rng.below(2)).map(|_| (self.boolean(d), self.boolean(d))).collect();
                B::Ite(branches, Box::new(self.boolean(d)))
            }
            12 if !self.in_let => {
                let def = self.int(d);
                B::Let(Box::new(self.let_parts(Some(def), d, |g, d| g.boolean(d))))
            }
            13 => {
                let len = self.array_len();
                let first = self.view();
                let size = view_range(&first, len).1;
                let mut second = self.view();
                for _ in 0..4 {
                    if view_range(&second, len).1 == size {
                        break;
                    }
                    second = self.view();
                }
                if view_range(&second, len).1 != size {
                    second = first.clone();
                }
                B::ViewEq(self.chance(0.3), first, second)
            }
            _ => self.boolean(0),
        }
    }
}

/// The parameter array `p`, indexed 1..4.
const PARAM: [i64; 4] = [2, -1, 0, 3];

fn print_i(model: &Model, e: &I) -> String {
    match e {
        I::Const(v) => {
            if *v < 0 {
                format!("({v})")
            } else {
                v.to_string()
            }
        }
        I::Var(s) => model.scalars[*s].text.clone(),
        I::Loop => "k".to_string(),
        I::Param(i) => format!("p[{}]", print_index(model, i)),
        I::Elem(i) => format!("a[{}]", print_index(model, i)),
        I::Neg(a) => format!("(-{})", print_i(model, a)),
        I::Bin(op, a, b) => format!("({} {op} {})", print_i(model, a), print_i(model, b)),
        I::Abs(a) => format!("abs({})", print_i(model, a)),
        I::MinMax(max, items) => {
            let f = if *max { "max" } else { "min" };
            let parts = int_items(model, items);
            if parts.len() == 2 && model.two_arg_minmax {
                format!("{f}({})", parts.join(", "))
            } else {
                format!("{f}([{}])", parts.join(", "))
            }
        }
        I::Ite(branches, otherwise) => {
            let mut s = String::new();
            for (k, (c, v)) in branches.iter().enumerate() {
                s.push_str(if k == 0 { "if " } else { " elseif " });
                s.push_str(&format!("{} then {}", print_b(model, c), print_i(model, v)));
            }
            format!("({s} else {} endif)", print_i(model, otherwise))
        }
        // MiniZinc coerces a Boolean where an integer belongs.
        I::BoolToInt(b) if model.implicit_bool2int => format!("({})", print_b(model, b)),
        I::BoolToInt(b) => format!("bool2int({})", print_b(model, b)),
        I::BoolSum(lo, hi, filter, body) => {
            let filter = filter.as_ref().map(|f| format!(" where {}", print_b(model, f))).unwrap_or_default();
            format!("sum(k in {lo}..{hi}{filter})({})", print_b(model, body))
        }
        I::Sum(lo, hi, filter, body) => {
            let filter = filter.as_ref().map(|f| format!(" where {}", print_b(model, f))).unwrap_or_default();
            format!("sum(k in {lo}..{hi}{filter})({})", print_i(model, body))
        }
        I::Count(items, v) => {
            let parts = int_items(model, items);
            format!("count([{}], {})", parts.join(", "), print_i(model, v))
        }
        I::Local => "t".to_string(),
        I::Let(l) => print_let(model, l, &print_i(model, &l.body)),
        I::ViewElem(view, i) => format!("{}[{}]", print_view(model, view), print_index(model, i)),
        I::ViewSum(view) => format!("sum({})", print_view(model, view)),
        I::Card(set) => format!("card({})", print_set(set)),
        I::Block(r0, r1, c0, c1) => format!("sum(q[{r0}..{r1}, {c0}..{c1}])"),
    }
}

fn print_view(model: &Model, view: &View) -> String {
    let len = model.array.as_ref().map_or(0, |(_, e)| e.len());
    match view {
        View::Reverse => "reverse(a)".to_string(),
        View::Range(lo, hi) => format!("a[{lo}..{hi}]"),
        View::All => "a[..]".to_string(),
        View::Shifted(off) => format!("array1d(({off})..({}), a)", off + len as i64 - 1),
        View::QRow(r, true) => format!("row(q, {r})"),
        View::QRow(r, false) => format!("q[{r}, ..]"),
        View::QCol(c, true) => format!("col(q, {c})"),
        View::QCol(c, false) => format!("q[.., {c}]"),
        View::ARow => format!("array2d(1..1, 1..{len}, a)[1, ..]"),
    }
}

fn print_set(set: &SetE) -> String {
    match set {
        SetE::Lit(values) => format!("{{{}}}", values.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(", ")),
        SetE::Range(lo, hi) => format!("(({lo})..({hi}))"),
        SetE::Param => "S".to_string(),
        SetE::Op(op, a, b) => format!("({} {op} {})", print_set(a), print_set(b)),
    }
}

/// The index set (its least value and size) of a view.
fn view_range(view: &View, len: usize) -> (i64, usize) {
    match view {
        View::Reverse | View::All | View::ARow => (1, len),
        View::Range(lo, hi) => (*lo, (hi - lo + 1) as usize),
        View::Shifted(off) => (*off, len),
        View::QRow(..) => (0, 3),
        View::QCol(..) => (1, 2),
    }
}

/// The values of a fixed set, by brute force over its parts.
fn set_values(set: &SetE) -> BTreeSet<i64> {
    match set {
        SetE::Lit(values) => values.iter().copied().collect(),
        SetE::Range(lo, hi) => (*lo..=*hi).collect(),
        SetE::Param => S_PARAM.into_iter().collect(),
        SetE::Op(op, a, b) => {
            let (a, b) = (set_values(a), set_values(b));
            match *op {
                "union" => a.union(&b).copied().collect(),
                "intersect" => a.intersection(&b).copied().collect(),
                "diff" => a.difference(&b).copied().collect(),
                _ => a.symmetric_difference(&b).copied().collect(),
            }
        }
    }
}

fn print_let<T>(model: &Model, l: &Let<T>, body: &str) -> String {
    let ty = l.domain.map_or("int".to_string(), |(lo, hi)| {
        format!("{}..{hi}", if lo < 0 { format!("({lo})") } else { lo.to_string() })
    });
    let mut items = vec![match &l.def {
        Some(def) => format!("var {ty}: t = {}", print_i(model, def)),
        None => format!("var {ty}: t"),
    }];
    if let Some(c) = &l.constraint {
        items.push(format!("constraint {}", print_b(model, c)));
    }
    format!("(let {{ {} }} in {body})", items.join("; "))
}

/// The elements of an integer array literal: all bare Booleans would make it
/// an array of Booleans, so then the coercion is written out.
fn int_items(model: &Model, items: &[I]) -> Vec<String> {
    let all_booleans = items.iter().all(|i| matches!(i, I::BoolToInt(_)));
    items.iter().map(|i| if all_booleans { print_index(model, i) } else { print_i(model, i) }).collect()
}

/// An index, with a Boolean index turned into an integer explicitly (the
/// coercion is written out where MiniZinc reads an index).
fn print_index(model: &Model, e: &I) -> String {
    match e {
        I::BoolToInt(b) => format!("bool2int({})", print_b(model, b)),
        _ => print_i(model, e),
    }
}

fn print_b(model: &Model, e: &B) -> String {
    match e {
        B::Const(b) => b.to_string(),
        B::Var(s) => model.scalars[*s].text.clone(),
        B::Not(a) => format!("(not {})", print_b(model, a)),
        B::Bin(op, a, b) => format!("({} {op} {})", print_b(model, a), print_b(model, b)),
        B::Cmp(op, a, b) => format!("({} {op} {})", print_i(model, a), print_i(model, b)),
        B::Colour(op, s, c) => format!("({} {op} {})", model.scalars[*s].text, COLOURS[*c]),
        B::In(a, values) => {
            let parts: Vec<String> = values.iter().map(|v| v.to_string()).collect();
            format!("({} in {{{}}})", print_i(model, a), parts.join(", "))
        }
        B::InSet(a, set) => format!("({} in {})", print_i(model, a), print_set(set)),
        B::AllDiff(items) => {
            let parts = int_items(model, items);
            format!("alldifferent([{}])", parts.join(", "))
        }
        B::Table(items, rows) => {
            let parts = int_items(model, items);
            let rows: Vec<String> =
                rows.iter().map(|r| r.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(", ")).collect();
            format!("table([{}], [| {} |])", parts.join(", "), rows.join(" | "))
        }
        B::Card(which, n, items, v) if model.for_minizinc => {
            // MiniZinc's exactly, at_most and at_least take a fixed value.
            let parts = int_items(model, items);
            let op = match *which {
                "exactly" => "=",
                "at_most" => "<=",
                _ => ">=",
            };
            format!("(count([{}], {}) {op} {})", parts.join(", "), print_i(model, v), print_i(model, n))
        }
        B::Card(which, n, items, v) => {
            let parts = int_items(model, items);
            format!("{which}({}, [{}], {})", print_i(model, n), parts.join(", "), print_i(model, v))
        }
        B::Quant(all, lo, hi, filter, body) => {
            let f = if *all { "forall" } else { "exists" };
            let filter = filter.as_ref().map(|f| format!(" where {}", print_b(model, f))).unwrap_or_default();
            if model.comprehension_quant && filter.is_empty() {
                format!("{f}([{} | k in {lo}..{hi}])", print_b(model, body))
            } else {
                format!("{f}(k in {lo}..{hi}{filter})({})", print_b(model, body))
            }
        }
        B::Ite(branches, otherwise) => {
            let mut s = String::new();
            for (k, (c, v)) in branches.iter().enumerate() {
                s.push_str(if k == 0 { "if " } else { " elseif " });
                s.push_str(&format!("{} then {}", print_b(model, c), print_b(model, v)));
            }
            format!("({s} else {} endif)", print_b(model, otherwise))
        }
        B::Let(l) => print_let(model, l, &print_b(model, &l.body)),
        B::ViewEq(ne, first, second) => {
            let len = model.array.as_ref().map_or(0, |(_, e)| e.len());
            let (lo, size) = view_range(first, len);
            let second = if view_range(second, len).0 == lo {
                print_view(model, second)
            } else {
                format!("array1d(({lo})..({}), {})", lo + size as i64 - 1, print_view(model, second))
            };
            format!("({} {} {second})", print_view(model, first), if *ne { "!=" } else { "=" })
        }
    }
}

/// The evaluator: integers as `Option` (None undefined), Booleans total,
/// an undefined integer making its comparison, membership or global false.
struct Eval<'a> {
    model: &'a Model,
    values: &'a [i64],
    k: Option<i64>,
    /// The local of the enclosing `let`.
    t: Option<i64>,
}

impl Eval<'_> {
    /// The `let`'s value for each value its local may take (one for a
    /// definition; none when the definition is undefined or outside the
    /// domain), `None` for a value whose local constraint fails.
    fn let_values<T, R>(&self, l: &Let<T>, value: impl Fn(&Eval) -> R) -> Vec<Option<R>> {
        let choices: Vec<i64> = match &l.def {
            Some(def) => match self.i(def) {
                Some(v) if l.domain.is_none_or(|(lo, hi)| (lo..=hi).contains(&v)) => vec![v],
                _ => return vec![None],
            },
            None => l.domain.map_or(Vec::new(), |(lo, hi)| (lo..=hi).collect()),
        };
        choices
            .into_iter()
            .map(|t| {
                let inner = Eval { t: Some(t), ..*self };
                l.constraint.as_ref().is_none_or(|c| inner.b(c)).then(|| value(&inner))
            })
            .collect()
    }

    /// A view's least index and values.
    fn view(&self, view: &View) -> (i64, Vec<i64>) {
        let a: Vec<i64> =
            self.model.array.as_ref().map_or(Vec::new(), |(_, e)| e.iter().map(|&s| self.values[s]).collect());
        let (lo, _) = view_range(view, a.len());
        let values = match view {
            View::Reverse => a.iter().rev().copied().collect(),
            View::Range(from, to) => a[(*from - 1) as usize..*to as usize].to_vec(),
            View::All | View::Shifted(_) | View::ARow => a,
            View::QRow(r, _) => Q[(*r - 1) as usize].to_vec(),
            View::QCol(c, _) => Q.iter().map(|row| row[*c as usize]).collect(),
        };
        (lo, values)
    }

    fn i(&self, e: &I) -> Option<i64> {
        match e {
            I::Const(v) => Some(*v),
            I::Var(s) => Some(self.values[*s]),
            I::Loop => self.k,
            I::Param(i) => {
                let i = self.i(i)?;
                (1..=4).contains(&i).then(|| PARAM[(i - 1) as usize])
            }
            I::Elem(i) => {
                let i = self.i(i)?;
                let (_, elems) = self.model.array.as_ref()?;
                elems.get(usize::try_from(i - 1).ok()?).map(|&s| self.values[s])
            }
            I::Neg(a) => Some(-self.i(a)?),
            I::Bin(op, a, b) => {
                let (a, b) = (self.i(a)?, self.i(b)?);
                match *op {
                    "+" => Some(a + b),
                    "-" => Some(a - b),
                    "*" => Some(a * b),
                    "div" => (b != 0).then(|| a / b),
                    _ => (b != 0).then(|| a % b),
                }
            }
            I::Abs(a) => Some(self.i(a)?.abs()),
            I::MinMax(max, items) => {
                let values: Option<Vec<i64>> = items.iter().map(|i| self.i(i)).collect();
                let values = values?;
                if *max { values.into_iter().max() } else { values.into_iter().min() }
            }
            I::Ite(branches, otherwise) => {
                for (c, v) in branches {
                    if self.b(c) {
                        return self.i(v);
                    }
                }
                self.i(otherwise)
            }
            I::BoolToInt(b) => Some(i64::from(self.b(b))),
            I::Sum(lo, hi, filter, body) => {
                let mut total = 0;
                for k in *lo..=*hi {
                    let inner = Eval { k: Some(k), ..*self };
                    if filter.as_ref().is_none_or(|f| inner.b(f)) {
                        total += inner.i(body)?;
                    }
                }
                Some(total)
            }
            I::BoolSum(lo, hi, filter, body) => {
                let holds = (*lo..=*hi).filter(|&k| {
                    let inner = Eval { k: Some(k), ..*self };
                    filter.as_ref().is_none_or(|f| inner.b(f)) && inner.b(body)
                });
                Some(holds.count() as i64)
            }
            I::ViewElem(view, i) => {
                let i = self.i(i)?;
                let (lo, values) = self.view(view);
                usize::try_from(i - lo).ok().and_then(|p| values.get(p).copied())
            }
            I::ViewSum(view) => Some(self.view(view).1.iter().sum()),
            I::Card(set) => Some(set_values(set).len() as i64),
            I::Block(r0, r1, c0, c1) => {
                Some((*r0..=*r1).flat_map(|r| (*c0..=*c1).map(move |c| Q[(r - 1) as usize][c as usize])).sum())
            }
            I::Local => self.t,
            I::Let(l) => self.let_values(l, |e| e.i(&l.body)).into_iter().next().flatten().flatten(),
            I::Count(items, v) => {
                // Undefined if any element or the value is.
                let v = self.i(v)?;
                let values: Vec<i64> = items.iter().map(|i| self.i(i)).collect::<Option<_>>()?;
                Some(values.iter().filter(|&&x| x == v).count() as i64)
            }
        }
    }

    fn b(&self, e: &B) -> bool {
        match e {
            B::Const(b) => *b,
            B::Var(s) => self.values[*s] != 0,
            B::Not(a) => !self.b(a),
            B::Bin(op, a, b) => {
                let (a, b) = (self.b(a), self.b(b));
                match *op {
                    "/\\" => a && b,
                    "\\/" => a || b,
                    "->" => !a || b,
                    "<-" => a || !b,
                    "<->" => a == b,
                    _ => a != b,
                }
            }
            B::Cmp(op, a, b) => match (self.i(a), self.i(b)) {
                (Some(a), Some(b)) => relation_holds(op, a, b),
                _ => false,
            },
            B::Colour(op, s, c) => relation_holds(op, self.values[*s], *c as i64 + 1),
            B::In(a, values) => self.i(a).is_some_and(|v| values.contains(&v)),
            B::InSet(a, set) => self.i(a).is_some_and(|v| set_values(set).contains(&v)),
            B::AllDiff(items) => {
                let values: Option<Vec<i64>> = items.iter().map(|i| self.i(i)).collect();
                values.is_some_and(|v| v.iter().collect::<BTreeSet<_>>().len() == v.len())
            }
            B::Table(items, rows) => {
                let values: Option<Vec<i64>> = items.iter().map(|i| self.i(i)).collect();
                values.is_some_and(|v| rows.contains(&v))
            }
            B::Card(which, n, items, v) => {
                let Some(n) = self.i(n) else { return false };
                let Some(v) = self.i(v) else { return false };
                let Some(values) = items.iter().map(|i| self.i(i)).collect::<Option<Vec<i64>>>() else { return false };
                let c = values.iter().filter(|&&x| x == v).count() as i64;
                match *which {
                    "exactly" => c == n,
                    "at_most" => c <= n,
                    _ => c >= n,
                }
            }
            B::Quant(all, lo, hi, filter, body) => {
                let mut results = (*lo..=*hi).filter_map(|k| {
                    let inner = Eval { k: Some(k), ..*self };
                    filter.as_ref().is_none_or(|f| inner.b(f)).then(|| inner.b(body))
                });
                if *all { results.all(|r| r) } else { results.any(|r| r) }
            }
            B::Ite(branches, otherwise) => {
                for (c, v) in branches {
                    if self.b(c) {
                        return self.b(v);
                    }
                }
                self.b(otherwise)
            }
            // Some value of the local makes it hold.
            B::Let(l) => self.let_values(l, |e| e.b(&l.body)).into_iter().any(|v| v == Some(true)),
            B::ViewEq(ne, first, second) => (self.view(first).1 == self.view(second).1) != *ne,
        }
    }
}

/// Whether an integer mentions no variable (only k and constants).
fn fixed_int(e: &I) -> bool {
    fixed_i(e)
}

fn fixed_i(e: &I) -> bool {
    {
        match e {
            I::Const(_) | I::Loop => true,
            I::Var(_) | I::Elem(_) | I::Local | I::Let(_) => false,
            I::Card(_) | I::Block(..) => true,
            I::ViewSum(view) => matches!(view, View::QRow(..) | View::QCol(..)),
            I::ViewElem(view, i) => matches!(view, View::QRow(..) | View::QCol(..)) && fixed_i(i),
            I::Param(i) | I::Neg(i) | I::Abs(i) => fixed_i(i),
            I::Bin(_, a, b) => fixed_i(a) && fixed_i(b),
            I::MinMax(_, items) => items.iter().all(fixed_i),
            I::Ite(branches, otherwise) => branches.iter().all(|(c, v)| fixed(c) && fixed_i(v)) && fixed_i(otherwise),
            I::BoolToInt(b) => fixed(b),
            I::Sum(_, _, f, body) => f.as_deref().is_none_or(fixed) && fixed_i(body),
            I::BoolSum(_, _, f, body) => f.as_deref().is_none_or(fixed) && fixed(body),
            I::Count(items, v) => items.iter().all(fixed_i) && fixed_i(v),
        }
    }
}

/// Whether a Boolean mentions no variable (only k and constants).
fn fixed(e: &B) -> bool {
    match e {
        B::Const(_) => true,
        B::Var(_) | B::Colour(..) | B::Let(_) => false,
        B::Not(a) => fixed(a),
        B::Bin(_, a, b) => fixed(a) && fixed(b),
        B::Cmp(_, a, b) => fixed_i(a) && fixed_i(b),
        B::In(a, _) | B::InSet(a, _) => fixed_i(a),
        B::AllDiff(items) | B::Table(items, _) => items.iter().all(fixed_i),
        B::Card(_, n, items, v) => fixed_i(n) && items.iter().all(fixed_i) && fixed_i(v),
        B::Quant(_, _, _, f, body) => f.as_deref().is_none_or(fixed) && fixed(body),
        B::Ite(branches, otherwise) => branches.iter().all(|(c, v)| fixed(c) && fixed(v)) && fixed(otherwise),
        B::ViewEq(_, first, second) => [first, second].iter().all(|v| matches!(v, View::QRow(..) | View::QCol(..))),
    }
}

/// A top-level constraint: a Boolean, or a `forall(k in lo..hi)(body)` that
/// somaria splits into one group per value of k.
#[derive(Clone, Debug)]
enum Top {
    Plain(B),
    Forall(i64, i64, B),
}

#[derive(Clone)]
struct Model {
    decls: Vec<Decl>,
    scalars: Vec<Scalar>,
    array: Option<(usize, Vec<usize>)>,
    constraints: Vec<Top>,
    objective: Option<(bool, I)>,
    show: Vec<usize>,
    two_arg_minmax: bool,
    comprehension_quant: bool,
    /// Booleans in integer positions written bare, without `bool2int`.
    implicit_bool2int: bool,
    for_minizinc: bool,
}

impl Model {
    fn text(&self) -> String {
        let mut s = String::from("kind = \"csp\"\n");
        if self.show.len() != self.decls.len() {
            let names: Vec<String> = self.show.iter().map(|&d| format!("\"{}\"", self.decls[d].name)).collect();
            s.push_str(&format!("show = [{}]\n", names.join(", ")));
        }
        if let Some((max, e)) = &self.objective {
            s.push_str(&format!("{} = '{}'\n", if *max { "maximize" } else { "minimize" }, print_i(self, e)));
        }
        s.push_str("\n[params]\np = [2, -1, 0, 3]\nq = \"array2d(1..2, 0..2, [1, -2, 0, 3, 1, -1])\"\nS = \"{-2, 3} union 0..1 diff {1}\"\n\n[enums]\nColour = [\"red\", \"green\", \"blue\"]\n\n[vars]\n");
        for decl in &self.decls {
            s.push_str(&format!("{} = {}\n", decl.name, decl.toml));
        }
        for (c, top) in self.constraints.iter().enumerate() {
            let expr = match top {
                Top::Plain(b) => print_b(self, b),
                Top::Forall(lo, hi, b) => format!("forall(k in {lo}..{hi})({})", print_b(self, b)),
            };
            s.push_str(&format!("\n[[constraint]]\nname = \"c{c}\"\nexpr = '{expr}'\n"));
        }
        s
    }

    /// Whether a top-level constraint is a `forall(k in ..)(..)` written
    /// with a generator, which somaria splits into one group per k.
    fn split<'a>(&self, top: &'a Top) -> Option<(i64, i64, Option<&'a B>, &'a B)> {
        match top {
            Top::Forall(lo, hi, body) => Some((*lo, *hi, None, body)),
            Top::Plain(B::Quant(true, lo, hi, filter, body)) if !(self.comprehension_quant && filter.is_none()) => {
                Some((*lo, *hi, filter.as_deref(), body))
            }
            Top::Plain(_) => None,
        }
    }

    /// The groups somaria explains over: (name, constraint, k).
    fn groups(&self) -> Vec<(String, usize, Option<i64>)> {
        let mut groups = Vec::new();
        for (c, top) in self.constraints.iter().enumerate() {
            if let Some((lo, hi, filter, _)) = self.split(top) {
                for k in lo..=hi {
                    // A filter on k alone drops the instance; one on the variables guards it.
                    if let Some(f) = filter
                        && fixed(f)
                        && !(Eval { model: self, values: &[], k: Some(k), t: None }).b(f)
                    {
                        continue;
                    }
                    groups.push((format!("c{c} (k = {k})"), c, Some(k)));
                }
                continue;
            }
            match top {
                Top::Plain(_) => groups.push((format!("c{c}"), c, None)),
                Top::Forall(lo, hi, _) => {
                    for k in *lo..=*hi {
                        groups.push((format!("c{c} (k = {k})"), c, Some(k)));
                    }
                }
            }
        }
        groups
    }

    fn group_holds(&self, values: &[i64], c: usize, k: Option<i64>) -> bool {
        let eval = Eval { model: self, values, k, t: None };
        if let (Some(k), Some((_, _, filter, body))) = (k, self.split(&self.constraints[c])) {
            let inner = Eval { k: Some(k), ..eval };
            return match filter {
                Some(f) => !inner.b(f) || inner.b(body),
                None => inner.b(body),
            };
        }
        match &self.constraints[c] {
            Top::Plain(b) => eval.b(b),
            Top::Forall(lo, hi, b) => match k {
                Some(k) => Eval { k: Some(k), ..eval }.b(b),
                None => (*lo..=*hi).all(|k| Eval { k: Some(k), ..eval }.b(b)),
            },
        }
    }

    fn objective_value(&self, values: &[i64]) -> Option<i64> {
        self.objective.as_ref().and_then(|(_, e)| Eval { model: self, values, k: None, t: None }.i(e))
    }

    /// Every assignment, in a fixed order.
    fn assignments(&self) -> Vec<Vec<i64>> {
        let mut all = vec![Vec::new()];
        for scalar in &self.scalars {
            all = all
                .into_iter()
                .flat_map(|prefix| {
                    scalar.values.iter().map(move |&v| {
                        let mut next = prefix.clone();
                        next.push(v);
                        next
                    })
                })
                .collect();
        }
        all
    }

    fn shown_scalars(&self) -> Vec<usize> {
        self.show.iter().flat_map(|&d| self.decls[d].scalars.clone()).collect()
    }
}

/// A random array `a` of 2 or 3 integers, partly given at times; its
/// length.
fn array_decl(g: &mut Gen, decls: &mut Vec<Decl>) -> usize {
    let len = 2 + g.rng.below(2);
    let lo = g.rng.below(4) as i64 - 2;
    let hi = lo + 1 + g.rng.below(2) as i64;
    let mut elems = Vec::new();
    // A partly given array fixes some entries, `_` for the others.
    let partly_given = g.chance(0.4);
    let mut given = Vec::new();
    for i in 0..len {
        let s = g.scalars.len();
        let fixed = partly_given && g.chance(0.5);
        let values: Vec<i64> =
            if fixed { vec![lo + g.rng.below((hi - lo + 1) as usize) as i64] } else { (lo..=hi).collect() };
        given.push(if fixed { values[0].to_string() } else { "\"_\"".to_string() });
        g.scalars.push(Scalar { text: format!("a[{}]", i + 1), decl: decls.len(), values, kind: Kind::Int });
        g.ints.push(s);
        elems.push(s);
    }
    let given = if partly_given { format!(", given = [{}]", given.join(", ")) } else { String::new() };
    decls.push(Decl {
        name: "a".into(),
        toml: format!("{{ index = [\"1..{len}\"], domain = \"{lo}..{hi}\"{given} }}"),
        scalars: elems.clone(),
    });
    g.array = Some((decls.len() - 1, elems));
    len
}

fn generate(seed: u64) -> Model {
    let mut g = Gen {
        rng: SplitMix64::new(seed),
        scalars: Vec::new(),
        ints: Vec::new(),
        bools: Vec::new(),
        colour: None,
        array: None,
        in_loop: false,
        in_let: false,
    };
    let mut decls: Vec<Decl> = Vec::new();
    let target = 2 + g.rng.below(5);
    let with_array = g.chance(0.35);
    let with_colour = g.chance(0.3);
    let mut count = 0;
    if with_array {
        count += array_decl(&mut g, &mut decls);
    }
    if with_colour && count < target {
        let s = g.scalars.len();
        g.scalars.push(Scalar { text: "c".into(), decl: decls.len(), values: vec![1, 2, 3], kind: Kind::Colour });
        decls.push(Decl { name: "c".into(), toml: "\"Colour\"".into(), scalars: vec![s] });
        g.colour = Some(s);
        count += 1;
    }
    let mut k = 0;
    while count < target {
        let s = g.scalars.len();
        let name = format!("x{k}");
        k += 1;
        if g.chance(0.25) {
            g.scalars.push(Scalar { text: name.clone(), decl: decls.len(), values: vec![0, 1], kind: Kind::Bool });
            g.bools.push(s);
            decls.push(Decl { name, toml: "\"bool\"".into(), scalars: vec![s] });
        } else {
            let toml;
            let values: Vec<i64> = if g.chance(0.2) {
                let set: BTreeSet<i64> = (0..1 + g.rng.below(4)).map(|_| g.rng.below(7) as i64 - 3).collect();
                let parts: Vec<String> = set.iter().map(|v| v.to_string()).collect();
                toml = format!("\"{{{}}}\"", parts.join(", "));
                set.into_iter().collect()
            } else {
                let lo = g.rng.below(6) as i64 - 3;
                let hi = lo + g.rng.below(5) as i64;
                toml = format!("\"{lo}..{hi}\"");
                (lo..=hi).collect()
            };
            g.scalars.push(Scalar { text: name.clone(), decl: decls.len(), values, kind: Kind::Int });
            g.ints.push(s);
            decls.push(Decl { name, toml, scalars: vec![s] });
        }
        count += 1;
    }
    let depth = 1 + g.rng.below(3);
    let mut constraints = Vec::new();
    for _ in 0..1 + g.rng.below(4) {
        if g.chance(0.2) {
            let lo = g.rng.below(3) as i64;
            let hi = lo + g.rng.below(3) as i64;
            g.in_loop = true;
            let body = g.boolean(depth);
            g.in_loop = false;
            constraints.push(Top::Forall(lo, hi, body));
        } else if g.chance(0.2) {
            // A local variable without a definition, where the constraint holds.
            let l = g.let_parts(None, depth, |g, d| g.boolean(d));
            constraints.push(Top::Plain(B::Let(Box::new(l))));
        } else {
            constraints.push(Top::Plain(g.boolean(depth)));
        }
    }
    let objective = if g.chance(0.2) { Some((g.chance(0.5), g.int(2))) } else { None };
    let show: Vec<usize> = if g.chance(0.3) {
        let picked: Vec<usize> = (0..decls.len()).filter(|_| g.chance(0.6)).collect();
        if picked.is_empty() { vec![0] } else { picked }
    } else {
        (0..decls.len()).collect()
    };
    let two_arg_minmax = g.chance(0.5);
    let comprehension_quant = g.chance(0.5);
    let implicit_bool2int = g.chance(0.5);
    let array = g.array.clone();
    Model {
        decls,
        scalars: g.scalars,
        array,
        constraints,
        objective,
        show,
        two_arg_minmax,
        comprehension_quant,
        implicit_bool2int,
        for_minizinc: false,
    }
}

/// What the enumeration says.
struct Truth {
    /// The assignments that are solutions (optimal ones under an objective).
    solutions: Vec<Vec<i64>>,
    optimum: Option<i64>,
}

fn truth(model: &Model) -> Truth {
    let mut feasible: Vec<(Vec<i64>, Option<i64>)> = Vec::new();
    for values in model.assignments() {
        if (0..model.constraints.len()).all(|c| model.group_holds(&values, c, None)) {
            let objective = model.objective_value(&values);
            if model.objective.is_some() && objective.is_none() {
                continue;
            }
            feasible.push((values, objective));
        }
    }
    let optimum = match &model.objective {
        Some((max, _)) => {
            let values = feasible.iter().filter_map(|(_, o)| *o);
            if *max { values.max() } else { values.min() }
        }
        None => None,
    };
    let solutions = feasible.into_iter().filter(|(_, o)| optimum.is_none() || *o == optimum).map(|(v, _)| v).collect();
    Truth { solutions, optimum }
}

/// Reads a shown value of a JSON solution or facts entry back as a number.
fn number(model: &Model, scalar: usize, v: &serde_json::Value) -> i64 {
    match model.scalars[scalar].kind {
        Kind::Bool => i64::from(v.as_bool().expect("a Boolean")),
        Kind::Colour => COLOURS.iter().position(|c| Some(*c) == v.as_str()).expect("a colour") as i64 + 1,
        Kind::Int => v.as_i64().expect("an integer"),
    }
}

/// The JSON leaf of a scalar in a solution or facts object.
fn leaf<'a>(model: &Model, root: &'a serde_json::Value, scalar: usize) -> &'a serde_json::Value {
    let s = &model.scalars[scalar];
    let decl = &model.decls[s.decl];
    let value = &root[decl.name.as_str()];
    if decl.scalars.len() == 1 && decl.name == s.text {
        value
    } else {
        let position = decl.scalars.iter().position(|&x| x == scalar).expect("in its declaration");
        &value[position]
    }
}

fn check_model(seed: u64, fd_models: &mut usize) {
    let model = generate(seed);
    let text = model.text();
    let context = format!("seed {seed}\n{text}");
    let puzzle = puzzles::load(&Source::from_text("random.toml", text.clone()))
        .unwrap_or_else(|e| panic!("{context}\nload: {e}"));
    let truth = truth(&model);
    let shown = model.shown_scalars();
    let projections: BTreeSet<Vec<i64>> =
        truth.solutions.iter().map(|v| shown.iter().map(|&s| v[s]).collect()).collect();
    let solvable = !truth.solutions.is_empty();
    let runs = puzzle
        .compared_engines()
        .iter()
        .flat_map(|&e| common::backends::backends_for(seed).into_iter().map(move |b| (e, b)));
    for (engine, backend) in runs {
        let context = format!("{context}engine {engine} on {backend}");
        let solver = SolverConfig { backend, ..Default::default() };
        let options = SolveOptions { engine: Some(engine.to_string()), solver: solver.clone(), ..Default::default() };
        let count_options = CountOptions { engine: Some(engine.to_string()), solver, ..Default::default() };

        let counted = puzzle.count(&count_options).unwrap_or_else(|e| panic!("{context}\ncount: {e}"));
        assert!(counted.complete, "{context}");
        assert_eq!(counted.count, projections.len() as u64, "{context}\ncount");
        if engine == "fd" {
            // The finite-domain engine answers count and solve only.
            let solved = puzzle.solve(&options).unwrap_or_else(|e| panic!("{context}\nsolve: {e}"));
            assert_eq!(solved.status == Status::Solved, solvable, "{context}\nsolve status");
            assert_eq!(solved.objective, truth.optimum, "{context}\nobjective");
            let limited = CountOptions { limit: Some(1), ..count_options.clone() };
            let first = puzzle.count(&limited).unwrap_or_else(|e| panic!("{context}\ncount to 1: {e}"));
            assert_eq!(first.count, projections.len().min(1) as u64, "{context}\ncount to 1");
            *fd_models += 1;
            continue;
        }
        let exact_options = CountOptions { method: CountMethod::Exact, ..count_options.clone() };
        let exact = puzzle.count(&exact_options).unwrap_or_else(|e| panic!("{context}\nexact count: {e}"));
        assert_eq!((exact.count, exact.complete), (counted.count, true), "{context}\nexact count");

        let solved = puzzle.solve(&options).unwrap_or_else(|e| panic!("{context}\nsolve: {e}"));
        assert_eq!(solved.status == Status::Solved, solvable, "{context}\nsolve status");
        assert_eq!(solved.objective, truth.optimum, "{context}\nobjective");
        if let Some(solution) = &solved.solution {
            let found: Vec<i64> = shown.iter().map(|&s| number(&model, s, leaf(&model, &solution.json, s))).collect();
            assert!(projections.contains(&found), "{context}\nsolve gave {found:?}, not a solution");
        }

        let facts = puzzle.facts(&options).unwrap_or_else(|e| panic!("{context}\nfacts: {e}"));
        assert_eq!(facts.status == Status::Solved, solvable, "{context}\nfacts status");
        // The backbone loop: one search, then one call per shown solution
        // that shows a new value and one to prove the rest impossible, not
        // a call per value. An objective adds the search's bisection.
        if model.objective.is_none() {
            let bound = projections.len() as u64 + 2;
            assert!(
                facts.stats.sat_calls <= bound,
                "{context}\nfacts made {} SAT calls, over {bound}",
                facts.stats.sat_calls
            );
        }
        if solvable {
            for (i, &s) in shown.iter().enumerate() {
                let expected: BTreeSet<i64> = projections.iter().map(|p| p[i]).collect();
                let listed = leaf(&model, &facts.json["values"], s);
                let got: BTreeSet<i64> =
                    listed.as_array().expect("a list").iter().map(|v| number(&model, s, v)).collect();
                assert_eq!(got, expected, "{context}\nfacts of {}", model.scalars[s].text);
            }
        }

        // The wide-domain path (binary adders, products over bits, `abs`
        // and division by linear constraints), forced onto these small
        // domains so that brute force can check it.
        let binary = load_puzzle(&Source::from_text("random.toml", text.clone())).unwrap().with_linear(Linear::Binary);
        let counted = binary.count(&count_options).unwrap_or_else(|e| panic!("{context}\nbinary count: {e}"));
        assert_eq!(counted.count, projections.len() as u64, "{context}\nbinary count");
        let exact = binary.count(&exact_options).unwrap_or_else(|e| panic!("{context}\nbinary exact count: {e}"));
        assert_eq!(exact.count, counted.count, "{context}\nbinary exact count");
        let solved = binary.solve(&options).unwrap_or_else(|e| panic!("{context}\nbinary solve: {e}"));
        assert_eq!(solved.status == Status::Solved, solvable, "{context}\nbinary solve status");
        assert_eq!(solved.objective, truth.optimum, "{context}\nbinary objective");

        // Every variable over its declared domain: the presolve must change
        // no count (and `explain` below never presolves).
        let unpresolved = load_puzzle(&Source::from_text("random.toml", text.clone())).unwrap().without_presolve();
        let counted = unpresolved.count(&count_options).unwrap_or_else(|e| panic!("{context}\nunpresolved count: {e}"));
        assert_eq!(counted.count, projections.len() as u64, "{context}\nunpresolved count");
        let solved = unpresolved.solve(&options).unwrap_or_else(|e| panic!("{context}\nunpresolved solve: {e}"));
        assert_eq!(solved.objective, truth.optimum, "{context}\nunpresolved objective");

        let explained = puzzle.explain(&options).unwrap_or_else(|e| panic!("{context}\nexplain: {e}"));
        // Explain ignores optimality but not the objective's definedness.
        let feasible = model.assignments().into_iter().any(|v| {
            (0..model.constraints.len()).all(|c| model.group_holds(&v, c, None))
                && (model.objective.is_none() || model.objective_value(&v).is_some())
        });
        assert_eq!(explained.status == Status::Solved, feasible, "{context}\nexplain status");
        assert_eq!(feasible, solvable, "{context}\nan objective that is defined somewhere has an optimum");
        if !feasible {
            check_minimal(&model, &explained.constraints.iter().map(|c| c.name.clone()).collect::<Vec<_>>(), &context);
        }
    }
}

/// The named groups have no common solution, and each proper subset has one.
fn check_minimal(model: &Model, names: &[String], context: &str) {
    let groups = model.groups();
    let objective_group = names.iter().any(|n| n == "the objective is defined");
    let chosen: Vec<(usize, Option<i64>)> = names
        .iter()
        .filter(|n| *n != "the objective is defined")
        .map(|n| {
            let (_, c, k) =
                groups.iter().find(|(name, _, _)| name == n).unwrap_or_else(|| panic!("{context}\nunknown group {n}"));
            (*c, *k)
        })
        .collect();
    let satisfiable = |skip: Option<usize>, objective: bool| {
        model.assignments().into_iter().any(|v| {
            chosen.iter().enumerate().all(|(i, &(c, k))| Some(i) == skip || model.group_holds(&v, c, k))
                && (!objective || model.objective_value(&v).is_some())
        })
    };
    assert!(!satisfiable(None, objective_group), "{context}\nexplained set {names:?} has a solution");
    for i in 0..chosen.len() {
        assert!(satisfiable(Some(i), objective_group), "{context}\nexplained set {names:?} is not minimal: drop {i}");
    }
    if objective_group {
        assert!(satisfiable(None, false), "{context}\nexplained set {names:?} is not minimal: drop the objective");
    }
}

/// Whether the presolve encodes the model over fewer variables.
fn narrows(text: &str) -> bool {
    let puzzle = load_puzzle(&Source::from_text("random.toml", text.to_string())).unwrap();
    let narrowed = puzzle.cnf(None).unwrap().num_vars();
    narrowed < puzzle.without_presolve().cnf(None).unwrap().num_vars()
}

fn models() -> u64 {
    std::env::var("SOMARIA_CSP_MODELS").ok().and_then(|n| n.parse().ok()).unwrap_or(600)
}

#[test]
fn random_models_agree_with_enumeration_on_every_engine() {
    // The fd engine runs on every model in its fragment; a generator that
    // drifted out of it would leave the engine untested.
    let mut fd_models = 0;
    for seed in 0..models() {
        check_model(seed, &mut fd_models);
    }
    assert!(fd_models * 10 >= models() as usize, "only {fd_models} models in the fd engine's fragment");
}

#[test]
fn the_generator_covers_the_subset_and_both_verdicts() {
    // Guards the test against a generator that drifted into easy cases.
    let mut texts = String::new();
    let (mut solvable, mut unsolvable, mut objectives) = (0, 0, 0);
    let (mut bool_sums, mut bare_booleans) = (0, 0);
    let (mut presolved, mut view_equalities) = (0, 0);
    for seed in 0..models() {
        let model = generate(seed);
        texts.push_str(&model.text());
        let truth = truth(&model);
        if truth.solutions.is_empty() {
            unsolvable += 1
        } else {
            solvable += 1
        }
        objectives += usize::from(model.objective.is_some());
        presolved += usize::from(narrows(&model.text()));
        let tree = format!("{:?} {:?}", model.constraints, model.objective);
        bool_sums += usize::from(tree.contains("BoolSum"));
        view_equalities += usize::from(tree.contains("ViewEq"));
        bare_booleans += usize::from(model.implicit_bool2int && tree.contains("BoolToInt"));
    }
    assert!(bool_sums > 20 && bare_booleans > 20, "{bool_sums} sums of Booleans, {bare_booleans} bare Booleans");
    let (lets, free_lets) = (texts.matches("(let {").count(), texts.matches("var int: t;").count());
    let free_lets = texts.matches(": t;").count() + texts.matches(": t }").count() - free_lets;
    assert!(lets > 100 && free_lets > 40, "{lets} lets, {free_lets} locals without definitions");
    let partly_given = texts.matches("given = [").count();
    assert!(partly_given > 40, "{partly_given} partly given arrays");
    assert!(solvable > 100 && unsolvable > 50, "{solvable} solvable, {unsolvable} unsolvable");
    assert!(objectives > 50, "{objectives} objectives");
    // The presolve's comparison above means something only where it narrows.
    assert!(presolved > 50, "the presolve narrowed {presolved} models");
    assert!(view_equalities > 20, "{view_equalities} models with arrays compared by `=` or `!=`");
    for construct in [
        " div ",
        " mod ",
        " * ",
        "abs(",
        "min(",
        "max(",
        "if ",
        "elseif",
        "bool2int(",
        "sum(k in",
        "forall(k in",
        "exists(k in",
        "forall([",
        "where",
        "alldifferent(",
        "count(",
        "exactly(",
        "at_most(",
        "at_least(",
        "table(",
        "[|",
        " in {",
        "p[",
        "a[",
        "xor",
        "<->",
        "<-",
        "->",
        "not ",
        "red",
        "show =",
        "minimize",
        "maximize",
        "reverse(a)",
        "a[..]",
        "array1d(",
        "array2d(1..1",
        "row(q",
        "col(q",
        "q[.., ",
        ", ..]",
        "sum(q[",
        "card(",
        " union ",
        " intersect ",
        " diff ",
        " symdiff ",
        " in S",
    ] {
        assert!(texts.contains(construct), "no generated model uses {construct:?}");
    }
    let mut by_name: BTreeMap<&str, usize> = BTreeMap::new();
    for construct in ["a[", "p["] {
        *by_name.entry(construct).or_default() += texts.matches(construct).count();
    }
    assert!(by_name.values().all(|&n| n > 20));
}

/// The model in MiniZinc's own language, printing every scalar per solution.
fn minizinc_text(model: &Model) -> String {
    let model = &Model { for_minizinc: true, ..model.clone() };
    let mut s = String::new();
    for global in ["alldifferent", "table", "exactly", "at_most", "at_least"] {
        s.push_str(&format!("include \"{global}.mzn\";\n"));
    }
    s.push_str("enum Colour = {red, green, blue};\narray[1..4] of int: p = [2, -1, 0, 3];\n");
    s.push_str("array[1..2, 0..2] of int: q = array2d(1..2, 0..2, [1, -2, 0, 3, 1, -1]);\n");
    s.push_str("set of int: S = {-2, 3} union 0..1 diff {1};\n");
    for decl in &model.decls {
        let first = &model.scalars[decl.scalars[0]];
        let domain = match first.kind {
            Kind::Bool => "bool".to_string(),
            Kind::Colour => "Colour".to_string(),
            Kind::Int => {
                let all: BTreeSet<i64> = decl.scalars.iter().flat_map(|&x| model.scalars[x].values.clone()).collect();
                let parts: Vec<String> = all.iter().map(|v| v.to_string()).collect();
                format!("{{{}}}", parts.join(", "))
            }
        };
        if decl.scalars.len() == 1 && first.text == decl.name {
            s.push_str(&format!("var {domain}: {};\n", decl.name));
        } else if decl.toml.contains("given") && decl.scalars.iter().any(|&x| model.scalars[x].values.len() == 1) {
            // (MiniZinc 2.6 refuses a literal of `_` alone, so one without a given entry is declared plainly.)
            let entries: Vec<String> = decl
                .scalars
                .iter()
                .map(|&x| match &model.scalars[x].values[..] {
                    // The array's domain has two values or more: one value is a given entry.
                    [v] => v.to_string(),
                    _ => "_".to_string(),
                })
                .collect();
            let n = decl.scalars.len();
            s.push_str(&format!("array[1..{n}] of var {domain}: {} = [{}];\n", decl.name, entries.join(", ")));
        } else {
            s.push_str(&format!("array[1..{}] of var {domain}: {};\n", decl.scalars.len(), decl.name));
        }
    }
    for top in &model.constraints {
        let expr = match top {
            Top::Plain(b) => print_b(model, b),
            Top::Forall(lo, hi, b) => format!("forall(k in {lo}..{hi})({})", print_b(model, b)),
        };
        s.push_str(&format!("constraint {expr};\n"));
    }
    match &model.objective {
        Some((max, e)) => {
            s.push_str(&format!("solve {} {};\n", if *max { "maximize" } else { "minimize" }, print_i(model, e)))
        }
        None => s.push_str("solve satisfy;\n"),
    }
    let parts: Vec<String> = model.scalars.iter().map(|sc| format!("\\({})", sc.text)).collect();
    s.push_str(&format!("output [\"{}\\n\"];\n", parts.join(" ")));
    s
}

/// The solutions MiniZinc with Gecode prints: every one for a satisfaction
/// model, the improving sequence for an optimisation model.
fn minizinc_solutions(model: &Model, dir: &std::path::Path) -> Vec<Vec<i64>> {
    let path = dir.join("model.mzn");
    std::fs::write(&path, minizinc_text(model)).unwrap();
    let out = std::process::Command::new("minizinc")
        .args(["-G", "std", "--solver", "gecode", "--all-solutions"])
        .arg(&path)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "minizinc failed: {}\n{}",
        String::from_utf8_lossy(&out.stderr),
        minizinc_text(model)
    );
    stdout
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with("----------") && !l.starts_with("====="))
        .map(|l| {
            l.split_whitespace()
                .zip(&model.scalars)
                .map(|(word, scalar)| match scalar.kind {
                    Kind::Bool => i64::from(word == "true"),
                    Kind::Colour => COLOURS.iter().position(|c| *c == word).expect("a colour") as i64 + 1,
                    Kind::Int => word.parse().expect("an integer"),
                })
                .collect()
        })
        .collect()
}

fn minizinc_installed() -> bool {
    std::process::Command::new("minizinc").arg("--version").output().is_ok_and(|o| o.status.success())
}

/// The evaluator here, and so the semantics somaria follows (relational
/// undefinedness included), against MiniZinc itself: the same solutions,
/// or the same optimum. Skipped when MiniZinc is not installed; set
/// `SOMARIA_MINIZINC_MODELS` for more models than the default 120.
#[test]
fn random_models_agree_with_minizinc_where_installed() {
    if !minizinc_installed() {
        eprintln!("minizinc is not installed; skipping the comparison with MiniZinc");
        return;
    }
    let models: u64 = std::env::var("SOMARIA_MINIZINC_MODELS").ok().and_then(|n| n.parse().ok()).unwrap_or(120);
    let dir = tempfile::tempdir().unwrap();
    for seed in 0..models {
        let model = generate(seed);
        let truth = truth(&model);
        let found = minizinc_solutions(&model, dir.path());
        let context = format!("seed {seed}\n{}", minizinc_text(&model));
        match &model.objective {
            None => {
                let ours: BTreeSet<Vec<i64>> = truth.solutions.iter().cloned().collect();
                let theirs: BTreeSet<Vec<i64>> = found.into_iter().collect();
                assert_eq!(ours, theirs, "{context}");
            }
            Some(_) => {
                let optimum = found.last().and_then(|v| model.objective_value(v));
                assert_eq!(optimum, truth.optimum, "{context}");
                // And somaria gives the same optimum.
                let puzzle = puzzles::load(&Source::from_text("random.toml", model.text())).unwrap();
                let solved = puzzle.solve(&SolveOptions::default()).unwrap();
                assert_eq!(solved.objective, optimum, "{context}");
            }
        }
    }
}

/// Writes the first 200 random models as files into `SOMARIA_DUMP_DIR`, so
/// that two builds' reports on them can be compared byte for byte
/// (`tests/same_reports.sh`). Ignored: it is a tool, not a check.
#[test]
#[ignore]
fn dump_random_models() {
    let dir = std::path::PathBuf::from(std::env::var("SOMARIA_DUMP_DIR").expect("SOMARIA_DUMP_DIR names a folder"));
    std::fs::create_dir_all(&dir).unwrap();
    for seed in 0..200 {
        std::fs::write(dir.join(format!("csp-{seed:03}.toml")), generate(seed).text()).unwrap();
    }
}

/// What the planner takes as known from the start, on a random model with
/// a few random entries: the same whether the facts that follow with no
/// rule on are read from the subjects' domains (the csp family's
/// shortcut) or found by the solver, on every engine.
#[test]
fn the_start_read_from_domains_agrees_with_the_solver() {
    use somaria::deduce::Wanted;
    use somaria::deduce::plan::{Memo, Settled, Start, start};
    for seed in 0..models() / 4 {
        let model = generate(seed);
        let text = model.text();
        let puzzle = puzzles::load(&Source::from_text("random.toml", text.clone())).unwrap();
        let deducible = puzzle.deducible().expect("csp deduces");
        for engine in puzzle.engines() {
            let context = format!("seed {seed}, engine {engine}\n{text}");
            let options = SolveOptions { engine: Some(engine.to_string()), ..Default::default() };
            let mut read = deducible.deductions(&options, Wanted::STEPS).unwrap();
            let mut solved = deducible.deductions(&options, Wanted::STEPS).unwrap();
            assert!(read.domains_only.is_some(), "{context}");
            solved.domains_only = None;
            let mut rng = SplitMix64::new(seed);
            let givens: Vec<Settled> = match read.facts.len() {
                0 => Vec::new(),
                n => (0..rng.below(4)).map(|_| Settled { fact: rng.below(n), holds: rng.chance(0.5) }).collect(),
            };
            let mut givens = givens;
            givens.sort();
            givens.dedup_by_key(|g| g.fact);
            let shown = |start: Start| match start {
                Start::Ready(target, state, model) => format!("{target:?}\n{state:?}\n{model:?}"),
                Start::Clash(given, rules) => format!("clash {given:?} {rules:?}"),
            };
            let by_domains = shown(start(&mut read, &givens, &mut Memo::default()).unwrap());
            let by_solver = shown(start(&mut solved, &givens, &mut Memo::default()).unwrap());
            assert_eq!(by_domains, by_solver, "{context}\ngivens {givens:?}");
        }
    }
}

/// The verifier's ground form against its tree walk and against this
/// file's evaluator, on every assignment of each random model: the same
/// verdict, and the same message naming the first constraint that fails.
/// Each solution is then corrupted in one scalar, to another value of its
/// domain and to one outside it, and both verifiers must judge the
/// corrupted assignment as this file's evaluator does.
#[test]
fn the_ground_verifier_judges_as_the_tree_walk() {
    let (mut constraints, mut grounded, mut rejected) = (0, 0, 0);
    for seed in 0..models() {
        let model = generate(seed);
        let text = model.text();
        let (loaded, _) = somaria::lang::load_model(&Source::from_text("random.toml", text.clone()))
            .unwrap_or_else(|e| panic!("seed {seed}\n{text}\nload: {e}"));
        let verifier = somaria::lang::verify::Verifier::new(&loaded);
        constraints += loaded.constraints.len();
        grounded += verifier.grounded();
        let holds = |values: &[i64]| (0..model.constraints.len()).all(|c| model.group_holds(values, c, None));
        let judge = |values: &[i64], expected: Option<bool>| {
            let walked = verifier.check_by_walk(values, &[]);
            assert_eq!(verifier.check(values, &[]), walked, "seed {seed}\n{text}\nvalues {values:?}");
            if let Some(expected) = expected {
                assert_eq!(walked.is_ok(), expected, "seed {seed}\n{text}\nvalues {values:?}: {walked:?}");
            }
            walked.is_ok()
        };
        for values in model.assignments() {
            if !judge(&values, Some(holds(&values))) {
                continue;
            }
            for (s, scalar) in model.scalars.iter().enumerate() {
                let mut corrupted = values.clone();
                for &other in scalar.values.iter().filter(|&&v| v != values[s]) {
                    corrupted[s] = other;
                    rejected += usize::from(!judge(&corrupted, Some(holds(&corrupted))));
                }
                corrupted[s] = scalar.values.iter().max().unwrap_or(&0) + 1;
                assert!(!judge(&corrupted, None), "seed {seed}\n{text}\noutside its domain: {corrupted:?}");
            }
        }
    }
    // Guards against a ground form that gave up on most models, which
    // would leave the tree walk judging against itself.
    assert!(grounded * 3 >= constraints * 2, "only {grounded} of {constraints} constraints grounded");
    assert!(rejected > 0, "no corrupted solution was rejected");
}
