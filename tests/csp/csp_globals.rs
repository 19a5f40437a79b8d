//! The ordering and tallying globals (`increasing`, `decreasing`,
//! `all_equal`, `lex_less`, `lex_lesseq`, `among`, `nvalue`,
//! `global_cardinality`, `inverse`, `value_precede`, `circuit`,
//! `subcircuit`, `regular`): random small models
//! that use them at the top, negated and counted, counted by somaria
//! (whose every answer its evaluator checks apart from the encoding) and
//! by brute force over MiniZinc's definitions written out in Rust; and
//! the located errors of misuse.

use std::collections::BTreeSet;

use proptest::prelude::*;
use somaria::puzzles::{CountOptions, SolveOptions, Status};
use somaria::solver::SolverConfig;

use crate::common;

use common::cli::{assert_mentions, refused};
use common::models::{count, load_text};
use common::random_csp;

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
    Circuit(Vec<Arg>),
    Subcircuit(Vec<Arg>),
    Regular(Vec<Arg>, Automaton),
}

/// A transition table in MiniZinc's form: `next[q - 1][s - 1]` is the
/// state after `q` on symbol `s`, 0 for failure.
#[derive(Clone, Debug)]
struct Automaton {
    next: Vec<Vec<i64>>,
    start: i64,
    accepting: Vec<i64>,
}

impl Automaton {
    fn text(&self) -> String {
        let rows: Vec<String> =
            self.next.iter().map(|r| r.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")).collect();
        let accepting: Vec<String> = self.accepting.iter().map(i64::to_string).collect();
        format!(
            "{}, {}, [| {} |], {}, {{{}}}",
            self.next.len(),
            self.next[0].len(),
            rows.join(" | "),
            self.start,
            accepting.join(", ")
        )
    }

    /// Runs the automaton: false on a symbol outside `1..S` or a failure.
    fn accepts(&self, symbols: &[i64]) -> bool {
        let mut q = self.start;
        for &v in symbols {
            let Some(&next) = usize::try_from(v - 1).ok().and_then(|s| self.next[q as usize - 1].get(s)) else {
                return false;
            };
            if next == 0 {
                return false;
            }
            q = next;
        }
        self.accepting.contains(&q)
    }
}

/// Whether `succ` (1-based successors) has its nodes that are not fixed to
/// themselves on one cycle (`circuit`: all nodes, when `every`, none fixed
/// to itself even alone, as MiniZinc's library says), found by
/// trying every start and walk rather than the somaria verifier's way.
fn one_cycle(succ: &[i64], every: bool) -> bool {
    let n = succ.len() as i64;
    if succ.iter().any(|&v| v < 1 || v > n) {
        return false;
    }
    let moving: Vec<i64> = (1..=n).filter(|&i| succ[i as usize - 1] != i).collect();
    if every && moving.len() as i64 != n {
        return false;
    }
    // Every moving node reaches every other moving node, and the
    // successors are a permutation.
    let mut sorted = succ.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    sorted.len() as i64 == n
        && moving.iter().all(|&a| {
            let mut reached = std::collections::BTreeSet::new();
            let mut node = a;
            for _ in 0..n {
                node = succ[node as usize - 1];
                reached.insert(node);
            }
            moving.iter().all(|b| reached.contains(b))
        })
}

impl random_csp::Call for Call {
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
            Call::Circuit(a) => format!("circuit({})", list(a)),
            Call::Subcircuit(a) => format!("subcircuit({})", list(a)),
            Call::Regular(a, dfa) => format!("regular({}, {})", list(a), dfa.text()),
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
            Call::Circuit(a) => one_cycle(&values(a, x), true),
            Call::Subcircuit(a) => one_cycle(&values(a, x), false),
            Call::Regular(a, dfa) => dfa.accepts(&values(a, x)),
        }
    }
}

type Place = random_csp::Place<Call>;

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
        route(n),
    ]
}

/// `circuit`, `subcircuit` and `regular` calls; a regular's constants are
/// symbols (a fixed symbol outside `1..S` is refused when loading).
fn route(n: usize) -> impl Strategy<Value = Call> {
    let successors = move || proptest::collection::vec(arg(n), 1..=4);
    let dfa = (1i64..=3, 1i64..=3).prop_flat_map(|(q, s)| {
        let rows = proptest::collection::vec(proptest::collection::vec(0..=q, s as usize), q as usize);
        let accepting = proptest::collection::btree_set(1..=q, 0..=q as usize);
        (rows, 1..=q, accepting, Just(s)).prop_map(|(next, start, accepting, s)| {
            (Automaton { next, start, accepting: accepting.into_iter().collect() }, s)
        })
    });
    let symbols = move |s: i64| {
        proptest::collection::vec(prop_oneof![4 => (0..n).prop_map(Arg::Var), 1 => (1..=s).prop_map(Arg::Const)], 0..=4)
    };
    prop_oneof![
        successors().prop_map(Call::Circuit),
        successors().prop_map(Call::Subcircuit),
        dfa.prop_flat_map(move |(dfa, s)| symbols(s).prop_map(move |a| Call::Regular(a, dfa.clone()))),
    ]
}

fn place(n: usize) -> impl Strategy<Value = Place> {
    prop_oneof![
        call(n).prop_map(Place::Top),
        call(n).prop_map(Place::Not),
        (call(n), call(n), 0..3i64).prop_map(|(a, b, k)| Place::Counted(a, b, k)),
    ]
}

/// The model of `places`, each `x[i]` in 0..3.
fn model(n: usize, places: &[Place]) -> String {
    random_csp::model(n, 4, "", places)
}

fn route_place(n: usize) -> impl Strategy<Value = Place> {
    prop_oneof![
        2 => route(n).prop_map(Place::Top),
        1 => route(n).prop_map(Place::Not),
        1 => (route(n), call(n), 0..3i64).prop_map(|(a, b, k)| Place::Counted(a, b, k)),
    ]
}

/// `count`, `solve` and `facts` on every engine and backend agree with the
/// assignments brute force finds.
fn check_every_engine(n: usize, places: &[Place], case: u64) -> Result<(), TestCaseError> {
    let text = model(n, places);
    let puzzle = load_text(&text);
    let truth = random_csp::solutions(n, 4, places);
    let runs =
        puzzle.engines().iter().flat_map(|&e| common::backends::backends_for(case).into_iter().map(move |b| (e, b)));
    for (engine, backend) in runs {
        let solver = SolverConfig { backend, ..Default::default() };
        let options = SolveOptions { engine: Some(engine.to_string()), solver: solver.clone(), ..Default::default() };
        let counting = CountOptions { engine: Some(engine.to_string()), solver, ..Default::default() };
        let counted = puzzle.count(&counting).unwrap();
        prop_assert!(counted.complete);
        prop_assert_eq!(counted.count, truth.len() as u64, "{} count\n{}", engine, text);
        let solved = puzzle.solve(&options).unwrap();
        prop_assert_eq!(solved.status == Status::Solved, !truth.is_empty(), "{} solve\n{}", engine, text);
        if let Some(solution) = &solved.solution {
            let x: Vec<i64> = solution.json["x"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect();
            prop_assert!(truth.contains(&x), "{} solved with {:?}\n{}", engine, x, text);
        }
        let facts = puzzle.facts(&options).unwrap();
        prop_assert_eq!(facts.status == Status::Solved, !truth.is_empty(), "{} facts\n{}", engine, text);
        if !truth.is_empty() {
            for i in 0..n {
                let expected: BTreeSet<i64> = truth.iter().map(|x| x[i]).collect();
                let got: BTreeSet<i64> =
                    facts.json["values"]["x"][i].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect();
                prop_assert_eq!(&got, &expected, "{} facts of x[{}]\n{}", engine, i + 1, text);
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, ..ProptestConfig::default() })]

    #[test]
    fn random_globals_count_as_brute_force_does(
        (n, places) in (2usize..=4).prop_flat_map(|n| (Just(n), proptest::collection::vec(place(n), 1..=3)))
    ) {
        random_csp::counts_as_brute_force(n, 4, "", &places)?;
    }

    #[test]
    fn circuits_and_automata_agree_with_brute_force_on_every_engine(
        (n, places, case) in (2usize..=4).prop_flat_map(|n| {
            (Just(n), proptest::collection::vec(route_place(n), 1..=2), any::<u64>())
        })
    ) {
        check_every_engine(n, &places, case)?;
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

#[test]
fn circuit_and_regular_misuse_is_refused_at_its_place() {
    let e = refused(constraint("circuit(b)"));
    assert_mentions(&e, &["bad.toml:6:17:", "`b` of type var bool", "each node's successor"]);
    let e = refused(constraint("subcircuit(x, x)"));
    assert_mentions(&e, &["bad.toml:6:9:", "`subcircuit` with 2 arguments", "subcircuit(array of int)"]);
    let table = "[| 1, 2 | 2, 1 |]";
    let e = refused(constraint("regular(x, 2, 2, [| 1, 2 | 2, 1 | 1, 1 |], 1, {2})"));
    assert_mentions(&e, &["bad.toml:6:26:", "a transition table indexed [1..3, 1..2]", "indexed [1..2, 1..2]"]);
    let e = refused(constraint("regular(x, 2, 2, [| 1, 3 | 2, 1 |], 1, {2})"));
    assert_mentions(&e, &["bad.toml:6:26:", "from state 1 on symbol 2 to 3", "a state in 1..2, or 0 for failure"]);
    let e = refused(constraint(&format!("regular(x, 2, 2, {table}, 3, {{2}})")));
    assert_mentions(&e, &["bad.toml:6:45:", "the start state 3", "a state in 1..2"]);
    let e = refused(constraint(&format!("regular(x, 2, 2, {table}, 1, {{0}})")));
    assert_mentions(&e, &["bad.toml:6:48:", "the accepting state 0", "states in 1..2"]);
    let e = refused(constraint(&format!("regular([x[1], 3], 2, 2, {table}, 1, {{2}})")));
    assert_mentions(&e, &["bad.toml:6:17:", "the fixed symbol 3", "symbols in 1..2"]);
    let e = refused(constraint(&format!("regular(x, x[1], 2, {table}, 1, {{2}})")));
    assert_mentions(&e, &["bad.toml:6:20:", "depends on decision variables", "the number of states Q"]);
    let e = refused(constraint("regular(x, 2, 2, [1, 2], 1, {2})"));
    assert_mentions(&e, &["bad.toml:6:26:", "a transition table, a 2-D array of integers"]);
    let e = refused(constraint(&format!("regular(x, 2, 2, {table}, 1, 2)")));
    assert_mentions(&e, &["bad.toml:6:48:", "a fixed set of accepting states"]);
    let e = refused(constraint(&format!("regular(x, 0, 2, {table}, 1, {{2}})")));
    assert_mentions(&e, &["bad.toml:6:20:", "0 states", "at least 1 state and 1 symbol"]);
}

fn minizinc_installed() -> bool {
    std::process::Command::new("minizinc").arg("--version").output().is_ok_and(|o| o.status.success())
}

/// The count MiniZinc with Gecode finds for the same model, from MiniZinc's
/// own library (`-G std`: Debian's Gecode library clashes with
/// `globals.mzn`).
fn minizinc_count(n: usize, places: &[Place]) -> u64 {
    let dir = std::env::temp_dir().join(format!("somaria-globals-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("model.mzn");
    let mut text = format!("include \"globals.mzn\";\narray[1..{n}] of var 0..3: x;\n");
    for p in places {
        text.push_str(&format!("constraint {};\n", p.text()));
    }
    // Every element shown: MiniZinc enumerates the distinct outputs.
    text.push_str("solve satisfy;\noutput [\"x = \\(x)\\n\"];\n");
    std::fs::write(&path, &text).unwrap();
    let out = std::process::Command::new("minizinc")
        .args(["-G", "std", "--solver", "gecode", "--all-solutions"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success(), "minizinc failed: {}\n{text}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).lines().filter(|l| l.starts_with("x = ")).count() as u64
}

#[test]
fn circuits_and_automata_count_as_minizinc_does_where_installed() {
    if !minizinc_installed() {
        eprintln!("minizinc is not installed; skipping the comparison with MiniZinc");
        return;
    }
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig { cases: 16, ..ProptestConfig::default() });
    // At the top only: MiniZinc refuses these globals reified or negated
    // ("free variable in non-positive context", "Reified circuit/1 is not
    // supported"), and its `regular` stops on an empty array.
    let top = |n| route(n).prop_filter("no empty regular", |c| !matches!(c, Call::Regular(a, _) if a.is_empty()));
    let strategy =
        (2usize..=4).prop_flat_map(move |n| (Just(n), proptest::collection::vec(top(n).prop_map(Place::Top), 1..=2)));
    runner
        .run(&strategy, |(n, places)| {
            let text = model(n, &places);
            let ours = count(load_text(&text).as_ref(), None);
            prop_assert_eq!(ours, minizinc_count(n, &places), "{}", text);
            prop_assert_eq!(ours, random_csp::solutions(n, 4, &places).len() as u64, "{}", text);
            Ok(())
        })
        .unwrap();
}
