//! User-defined predicates and functions (`[[predicate]]`): random small
//! models that call them, in positive, negative and counted places,
//! counted by somaria (whose every answer its own evaluator checks) and
//! by brute force over the same rules written out in Rust; the explain
//! names of calls; and the located errors of misuse.

use proptest::prelude::*;
use somaria::lang::load_model;
use somaria::model::Source;

use crate::common;

use common::cli::{assert_mentions, refused};
use common::models::{count, load_text};
use common::random_csp;

/// The definitions every random model carries, the last calling others.
const DEFINITIONS: &[&str] = &[
    "predicate visible(array[int] of var int: row, int: k) = \
     sum(i in index_set(row))(bool2int(forall(j in 1..i-1)(row[j] < row[i]))) = k",
    "function var int: weight(var int: a, var int: b) = 2 * a - b",
    "predicate between(var int: v, int: lo, int: hi) = lo <= v /\\ v <= hi",
    "predicate ordered(array[int] of var int: xs) = forall(i, j in index_set(xs) where i < j)(xs[i] <= xs[j])",
    "predicate near(var int: a, var int: b, int: k) = between(weight(a, b), k - 1, k + 1)",
    "predicate either(var bool: p, var bool: q) = p \\/ q",
    "predicate has_pred(var int: v) = let { var 0..2: t; constraint t + 1 = v } in true",
];

/// One call of a definition, with its arguments: indices into `x` and
/// constants.
#[derive(Clone, Debug)]
enum Call {
    Visible(Vec<usize>, i64),
    Weight(usize, usize, i64),
    Between(usize, i64, i64),
    Ordered(Vec<usize>),
    Near(usize, usize, i64),
    Either(usize, usize, usize, i64),
    HasPred(usize),
}

impl random_csp::Call for Call {
    fn text(&self) -> String {
        let list = |ix: &[usize]| ix.iter().map(|i| format!("x[{}]", i + 1)).collect::<Vec<_>>().join(", ");
        match self {
            Call::Visible(ix, k) => format!("visible([{}], {k})", list(ix)),
            Call::Weight(a, b, c) => format!("weight(x[{}], x[{}]) != {c}", a + 1, b + 1),
            Call::Between(a, lo, hi) => format!("between(x[{}], {lo}, {hi})", a + 1),
            Call::Ordered(ix) => format!("ordered([{}])", list(ix)),
            Call::Near(a, b, k) => format!("near(x[{}], x[{}], {k})", a + 1, b + 1),
            Call::Either(a, b, c, v) => format!("either(x[{}] < x[{}], x[{}] = {v})", a + 1, b + 1, c + 1),
            Call::HasPred(a) => format!("has_pred(x[{}])", a + 1),
        }
    }

    /// The rule, on the values of `x`.
    fn holds(&self, x: &[i64]) -> bool {
        match self {
            Call::Visible(ix, k) => {
                let row: Vec<i64> = ix.iter().map(|&i| x[i]).collect();
                let seen = (0..row.len()).filter(|&i| row[..i].iter().all(|&r| r < row[i])).count();
                seen as i64 == *k
            }
            Call::Weight(a, b, c) => 2 * x[*a] - x[*b] != *c,
            Call::Between(a, lo, hi) => *lo <= x[*a] && x[*a] <= *hi,
            Call::Ordered(ix) => ix.windows(2).all(|w| x[w[0]] <= x[w[1]]),
            Call::Near(a, b, k) => (2 * x[*a] - x[*b] - k).abs() <= 1,
            Call::Either(a, b, c, v) => x[*a] < x[*b] || x[*c] == *v,
            Call::HasPred(a) => (1..=3).contains(&x[*a]),
        }
    }
}

impl Call {
    /// Whether the call may stand in a negative or counted place: a call
    /// whose body has a local without a definition may not.
    fn anywhere(&self) -> bool {
        !matches!(self, Call::HasPred(_))
    }
}

type Place = random_csp::Place<Call>;

fn call(n: usize) -> impl Strategy<Value = Call> {
    let index = 0..n;
    let indices = proptest::collection::vec(0..n, 1..=3);
    prop_oneof![
        (indices.clone(), 0..4i64).prop_map(|(ix, k)| Call::Visible(ix, k)),
        (index.clone(), index.clone(), -2..5i64).prop_map(|(a, b, c)| Call::Weight(a, b, c)),
        (index.clone(), 0..3i64, 0..3i64).prop_map(|(a, lo, hi)| Call::Between(a, lo, hi)),
        indices.prop_map(Call::Ordered),
        (index.clone(), index.clone(), -1..5i64).prop_map(|(a, b, k)| Call::Near(a, b, k)),
        (index.clone(), index.clone(), index.clone(), 0..3i64).prop_map(|(a, b, c, v)| Call::Either(a, b, c, v)),
        index.prop_map(Call::HasPred),
    ]
}

fn place(n: usize) -> impl Strategy<Value = Place> {
    let anywhere = move || call(n).prop_filter("a call that may be negated", Call::anywhere);
    prop_oneof![
        call(n).prop_map(Place::Top),
        anywhere().prop_map(Place::Not),
        (anywhere(), 0..n, 0..3i64).prop_map(|(c, i, v)| Place::Implies(c, i, v)),
        (anywhere(), anywhere(), 0..3i64).prop_map(|(a, b, k)| Place::Counted(a, b, k)),
    ]
}

/// The `[[predicate]]` tables of every random model.
fn definitions() -> String {
    DEFINITIONS.iter().map(|def| format!("[[predicate]]\ndef = '{def}'\n")).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn random_calls_count_as_brute_force_does(
        (n, places) in (2usize..=4).prop_flat_map(|n| (Just(n), proptest::collection::vec(place(n), 1..=3)))
    ) {
        random_csp::counts_as_brute_force(n, 3, &definitions(), &places)?;
    }
}

#[test]
fn a_call_at_the_top_names_its_constraint_and_each_forall_instance() {
    let text = format!(
        "kind = \"csp\"\n[vars]\nx = {{ index = [\"1..3\"], domain = \"0..2\" }}\n[[predicate]]\ndef = '{}'\n\
         [[constraint]]\nexpr = 'forall(i in 1..2)(between(x[i], 1, 2))'\n[[constraint]]\nexpr = 'x[3] = 0'\n",
        DEFINITIONS[2]
    );
    let (_, program) = load_model(&Source::from_text("m.toml", &text)).unwrap();
    let names: Vec<&str> = program.groups.iter().map(|g| g.name.as_str()).collect();
    assert_eq!(names, ["between (line 7) (i = 1)", "between (line 7) (i = 2)", "constraint 2 (line 9)"]);
}

/// A model whose one predicate is `def`, then the constraint `expr`.
fn with_definition(def: &str, expr: &str) -> String {
    format!(
        "kind = \"csp\"\n[params]\nn = 3\n[vars]\nx = {{ index = [\"1..n\"], domain = \"0..2\" }}\n\
         [[predicate]]\ndef = '{def}'\n[[constraint]]\nexpr = '{expr}'\n"
    )
}

#[test]
fn misuse_is_refused_at_its_place_with_what_was_expected() {
    // Line 7 holds the definition, starting at column 8; line 9 the constraint, at column 9.
    let ok = "predicate big(var int: v, int: k) = v > k";
    let e = refused(with_definition(ok, "bigg(x[1], 1)"));
    assert_mentions(&e, &["bad.toml:9:9:", "unknown function `bigg`", "did you mean `big`?"]);
    let e = refused(with_definition(ok, "big(x[1])"));
    assert_mentions(&e, &["bad.toml:9:9:", "`big` with 1 argument", "big(var int: v, int: k)"]);
    let e = refused(with_definition(ok, "big(x[1], x[2])"));
    assert_mentions(&e, &["bad.toml:9:19:", "of type var int", "type int for the parameter `k` of `big`"]);
    let e = refused(with_definition(ok, "big(x, 1)"));
    assert_mentions(&e, &["bad.toml:9:13:", "array[int] of var int", "parameter `v`"]);
    // Errors inside a body point into the body.
    let e = refused(with_definition("predicate p(var int: v) = v > w", "p(x[1])"));
    assert_mentions(&e, &["bad.toml:7:38:", "unknown name `w`"]);
    let e = refused(with_definition("predicate p(var int: v) = v + 1", "p(x[1])"));
    assert_mentions(&e, &["bad.toml:7:34:", "of type var int", "a body of type var bool"]);
    let e = refused(with_definition("function int: f(var int: v) = v + 1", "f(x[1]) > 0"));
    assert_mentions(&e, &["bad.toml:7:38:", "depends on decision variables", "`var` in the declared result"]);
    let e = refused(with_definition("predicate p(var 1..3: v) = v > 0", "p(x[1])"));
    assert_mentions(&e, &["bad.toml:7:24:", "a type without a domain"]);
    let e = refused(with_definition("predicate p(var float: v) = v > 0", "p(x[1])"));
    assert_mentions(&e, &["bad.toml:7:20:", "the unknown type `float`"]);
    let e = refused(with_definition("predicate p(var int v) = v > 0", "p(x[1])"));
    assert_mentions(&e, &["bad.toml:7:28:", "`:` and the parameter's name"]);
    let e = refused(with_definition("predicate sum(var int: v) = v > 0", "sum(x) > 0"));
    assert_mentions(&e, &["bad.toml:7:18:", "the name `sum` taken already"]);
    let e = refused(with_definition("predicate x(var int: v) = v > 0", "x[1] > 0"));
    assert_mentions(&e, &["bad.toml:7:18:", "the name `x` taken already"]);
    // Recursion, directly or through another definition.
    let e = refused(with_definition("predicate p(var int: v) = v > 0 /\\ p(v - 1)", "p(x[1])"));
    assert_mentions(&e, &["bad.toml:7:43:", "a recursive call of `p` (`p` calls `p`)", "recursion is not supported"]);
    let text = with_definition("predicate p(var int: v) = q(v)", "p(x[1])")
        + "[[predicate]]\ndef = 'predicate q(var int: v) = not p(v)'\n";
    let e = refused(text);
    assert_mentions(&e, &["a recursive call of `p` (`p` calls `q` calls `p`)"]);
    // A local without a definition stands only where its constraint holds.
    let free = "predicate p(var int: v) = let { var 0..2: t; constraint t = v } in true";
    let e = refused(with_definition(free, "not p(x[1])"));
    assert_mentions(
        &e,
        &["bad.toml:9:13:", "a call of `p`, whose body has a local variable without a definition, under `not`"],
    );
    let e = refused(with_definition("predicate p(var int: v) = grid_path(x, 1, 1)", "p(x[1])"));
    assert_mentions(&e, &["bad.toml:7:34:", "`grid_path` in the body of `p`"]);
}

#[test]
fn bodies_see_the_models_names_and_not_the_callers_loop_variables() {
    // `i` inside the body is the model's parameter `i`, never the caller's
    // loop variable of the same name.
    let text = "kind = \"csp\"\n[params]\ni = 2\n[vars]\nx = { index = [\"1..3\"], domain = \"0..3\" }\n\
                [[predicate]]\ndef = 'predicate at_i(array[int] of var int: xs) = xs[i] = 3'\n\
                [[constraint]]\nexpr = 'forall(i in 1..1)(at_i(x))'\n";
    let puzzle = load_text(text);
    // x[2] = 3, the other two free: 16 answers.
    assert_eq!(count(puzzle.as_ref(), None), 16);
}
