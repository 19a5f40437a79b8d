//! The ordering and tallying globals (`increasing`, `decreasing`,
//! `all_equal`, `lex_less`, `lex_lesseq`, `among`, `nvalue`,
//! `global_cardinality`, `inverse`, `value_precede`): random small models
//! that use them at the top, negated and counted, counted by somaria
//! (whose every answer its evaluator checks apart from the encoding) and
//! by brute force over MiniZinc's definitions written out in Rust; and
//! the located errors of misuse.

use proptest::prelude::*;

mod common;

use common::cli::{assert_mentions, refused};
use common::models::{count, load_text};

/// An array element: a variable `x[i]` or a constant.
#[derive(Clone, Debug)]
enum Arg {
    Var(usize),
    Const(i64),
}

impl Arg {
    fn text(&self) -> String {
        match self {
            Arg::Var(i) => format!("x[{}]", i + 1),
            Arg::Const(c) => c.to_string(),
        }
    }

    fn value(&self, x: &[i64]) -> i64 {
        match self {
            Arg::Var(i) => x[*i],
            Arg::Const(c) => *c,
        }
    }
}

fn list(args: &[Arg]) -> String {
    format!("[{}]", args.iter().map(Arg::text).collect::<Vec<_>>().join(", "))
}

fn values(args: &[Arg], x: &[i64]) -> Vec<i64> {
    args.iter().map(|a| a.value(x)).collect()
}

#[derive(Clone, Debug)]
enum Call {
    Increasing(Vec<Arg>),
    Decreasing(Vec<Arg>),
    AllEqual(Vec<Arg>),
    LexLess(Vec<Arg>, Vec<Arg>),
    LexLesseq(Vec<Arg>, Vec<Arg>),
    Among(Arg, Vec<Arg>, Vec<i64>),
    Nvalue(Arg, Vec<Arg>),
    NvalueAtLeast(Vec<Arg>, i64),
    Cardinality(Vec<Arg>, Vec<i64>, Vec<Arg>),
    Inverse(Vec<Arg>, Vec<Arg>),
    ValuePrecede(i64, i64, Vec<Arg>),
}

impl Call {
    fn text(&self) -> String {
        let set = |s: &[i64]| format!("{{{}}}", s.iter().map(i64::to_string).collect::<Vec<_>>().join(", "));
        let ints = |s: &[i64]| format!("[{}]", s.iter().map(i64::to_string).collect::<Vec<_>>().join(", "));
        match self {
            Call::Increasing(a) => format!("increasing({})", list(a)),
            Call::Decreasing(a) => format!("decreasing({})", list(a)),
            Call::AllEqual(a) => format!("all_equal({})", list(a)),
            Call::LexLess(a, b) => format!("lex_less({}, {})", list(a), list(b)),
            Call::LexLesseq(a, b) => format!("lex_lesseq({}, {})", list(a), list(b)),
            Call::Among(n, a, s) => format!("among({}, {}, {})", n.text(), list(a), set(s)),
            Call::Nvalue(n, a) => format!("nvalue({}, {})", n.text(), list(a)),
            Call::NvalueAtLeast(a, k) => format!("nvalue({}) >= {k}", list(a)),
            Call::Cardinality(a, cover, counts) => {
                format!("global_cardinality({}, {}, {})", list(a), ints(cover), list(counts))
            }
            Call::Inverse(f, g) => format!("inverse({}, {})", list(f), list(g)),
            Call::ValuePrecede(s, t, a) => format!("value_precede({s}, {t}, {})", list(a)),
        }
    }

    /// MiniZinc's definition, on the values of `x`.
    fn holds(&self, x: &[i64]) -> bool {
        let distinct = |v: &[i64]| v.iter().collect::<std::collections::BTreeSet<_>>().len() as i64;
        match self {
            Call::Increasing(a) => values(a, x).windows(2).all(|w| w[0] <= w[1]),
            Call::Decreasing(a) => values(a, x).windows(2).all(|w| w[0] >= w[1]),
            Call::AllEqual(a) => values(a, x).windows(2).all(|w| w[0] == w[1]),
            Call::LexLess(a, b) => values(a, x) < values(b, x),
            Call::LexLesseq(a, b) => values(a, x) <= values(b, x),
            Call::Among(n, a, s) => values(a, x).iter().filter(|v| s.contains(v)).count() as i64 == n.value(x),
            Call::Nvalue(n, a) => distinct(&values(a, x)) == n.value(x),
            Call::NvalueAtLeast(a, k) => distinct(&values(a, x)) >= *k,
            Call::Cardinality(a, cover, counts) => {
                let v = values(a, x);
                cover.iter().zip(counts).all(|(c, n)| v.iter().filter(|&e| e == c).count() as i64 == n.value(x))
            }
            Call::Inverse(f, g) => {
                let (f, g) = (values(f, x), values(g, x));
                // Both 1-based: f[i] = j if and only if g[j] = i, each in range.
                let back = |a: &[i64], b: &[i64]| {
                    a.iter()
                        .enumerate()
                        .all(|(i, &j)| j >= 1 && (j as usize) <= b.len() && b[j as usize - 1] == i as i64 + 1)
                };
                back(&f, &g) && back(&g, &f)
            }
            Call::ValuePrecede(s, t, a) => {
                let v = values(a, x);
                match v.iter().position(|e| e == t) {
                    None => true,
                    Some(j) => v[..j].contains(s),
                }
            }
        }
    }
}

#[derive(Clone, Debug)]
enum Place {
    Top(Call),
    Not(Call),
    Counted(Call, Call, i64),
}

impl Place {
    fn text(&self) -> String {
        match self {
            Place::Top(c) => c.text(),
            Place::Not(c) => format!("not ({})", c.text()),
            Place::Counted(a, b, k) => format!("({}) + ({}) = {k}", a.text(), b.text()),
        }
    }

    fn holds(&self, x: &[i64]) -> bool {
        match self {
            Place::Top(c) => c.holds(x),
            Place::Not(c) => !c.holds(x),
            Place::Counted(a, b, k) => i64::from(a.holds(x)) + i64::from(b.holds(x)) == *k,
        }
    }
}

fn arg(n: usize) -> impl Strategy<Value = Arg> {
    prop_oneof![4 => (0..n).prop_map(Arg::Var), 1 => (0..4i64).prop_map(Arg::Const)]
}

fn call(n: usize) -> impl Strategy<Value = Call> {
    let array = move || proptest::collection::vec(arg(n), 0..=3);
    let values = || proptest::collection::vec(0..4i64, 0..=2);
    prop_oneof![
        array().prop_map(Call::Increasing),
        array().prop_map(Call::Decreasing),
        array().prop_map(Call::AllEqual),
        (array(), array()).prop_map(|(a, b)| Call::LexLess(a, b)),
        (array(), array()).prop_map(|(a, b)| Call::LexLesseq(a, b)),
        (arg(n), array(), values()).prop_map(|(k, a, s)| Call::Among(k, a, s)),
        (arg(n), array()).prop_map(|(k, a)| Call::Nvalue(k, a)),
        (array(), 0..4i64).prop_map(|(a, k)| Call::NvalueAtLeast(a, k)),
        (array(), proptest::collection::vec((0..4i64, arg(n)), 0..=2)).prop_map(|(a, pairs)| {
            let (cover, counts) = pairs.into_iter().unzip();
            Call::Cardinality(a, cover, counts)
        }),
        (1usize..=3).prop_flat_map(move |len| {
            let f = proptest::collection::vec(arg(n), len);
            let g = proptest::collection::vec(arg(n), len);
            (f, g).prop_map(|(f, g)| Call::Inverse(f, g))
        }),
        (0..4i64, 0..4i64, array()).prop_map(|(s, t, a)| Call::ValuePrecede(s, t, a)),
    ]
}

fn place(n: usize) -> impl Strategy<Value = Place> {
    prop_oneof![
        call(n).prop_map(Place::Top),
        call(n).prop_map(Place::Not),
        (call(n), call(n), 0..3i64).prop_map(|(a, b, k)| Place::Counted(a, b, k)),
    ]
}

fn model(n: usize, places: &[Place]) -> String {
    let mut text = format!("kind = \"csp\"\n[vars]\nx = {{ index = [\"1..{n}\"], domain = \"0..3\" }}\n");
    for p in places {
        text.push_str(&format!("[[constraint]]\nexpr = '{}'\n", p.text()));
    }
    text
}

fn brute_force(n: usize, places: &[Place]) -> u64 {
    let mut found = 0;
    for code in 0..4u32.pow(n as u32) {
        let x: Vec<i64> = (0..n).map(|i| i64::from(code / 4u32.pow(i as u32) % 4)).collect();
        if places.iter().all(|p| p.holds(&x)) {
            found += 1;
        }
    }
    found
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, ..ProptestConfig::default() })]

    #[test]
    fn random_globals_count_as_brute_force_does(
        (n, places) in (2usize..=4).prop_flat_map(|n| (Just(n), proptest::collection::vec(place(n), 1..=3)))
    ) {
        let text = model(n, &places);
        let puzzle = load_text(&text);
        prop_assert_eq!(count(puzzle.as_ref(), None), brute_force(n, &places), "{}", text);
    }
}

#[test]
fn undefined_elements_make_the_global_false_and_its_negation_true() {
    // `[1, 2][x]` is undefined at x = 0 and 3: increasing is false there,
    // so its negation holds, as in MiniZinc's relational semantics.
    let text = "kind = \"csp\"\n[vars]\nx = \"0..3\"\n[[constraint]]\nexpr = 'not increasing([[1, 2][x], 5])'\n";
    assert_eq!(count(load_text(text).as_ref(), None), 2);
    let text = "kind = \"csp\"\n[vars]\nx = \"0..3\"\n[[constraint]]\nexpr = 'increasing([[1, 2][x], 5])'\n";
    assert_eq!(count(load_text(text).as_ref(), None), 2);
}

fn constraint(expr: &str) -> String {
    format!(
        "kind = \"csp\"\n[vars]\nx = {{ index = [\"1..3\"], domain = \"0..3\" }}\nb = \"bool\"\n[[constraint]]\nexpr = '{expr}'\n"
    )
}

#[test]
fn misuse_is_refused_at_its_place() {
    // Line 6 holds the constraint, starting at column 9.
    let e = refused(constraint("increasing(x, x)"));
    assert_mentions(&e, &["bad.toml:6:9:", "`increasing` with 2 arguments", "increasing(array of int)"]);
    let e = refused(constraint("among(1, x, 2)"));
    assert_mentions(&e, &["bad.toml:6:21:", "a fixed set"]);
    let e = refused(constraint("global_cardinality(x, [x[1]], [1])"));
    assert_mentions(&e, &["bad.toml:6:31:", "a fixed array of the values counted"]);
    let e = refused(constraint("global_cardinality(x, [1, 2], [1])"));
    assert_mentions(&e, &["bad.toml:6:9:", "2 values to count and 1 counts"]);
    let e = refused(constraint("value_precede(x[1], 2, x)"));
    assert_mentions(&e, &["bad.toml:6:23:", "depends on decision variables"]);
    let e = refused(constraint("lex_less(x, [b])"));
    assert_mentions(&e, &["bad.toml:6:21:", "the first's element type"]);
    let e = refused(constraint("inversee(x, x)"));
    assert_mentions(&e, &["bad.toml:6:9:", "unknown function `inversee`", "did you mean `inverse`?"]);
}
