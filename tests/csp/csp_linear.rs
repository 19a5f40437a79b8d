//! Linear constraints over three to five variables, with small and large
//! coefficients, under every engine and both encodings of linear sums
//! (decision diagrams; the pseudo-Boolean totalizer, generalized totalizer
//! and binary adder), against counting by brute force. Constraints appear
//! asserted, under a guard, negated and counted inside a sum, so both
//! directions of every reification are exercised.

use proptest::prelude::*;
use somaria::model::Source;
use somaria::puzzles::csp::{Linear, load_puzzle};
use somaria::puzzles::{CountOptions, Puzzle};

use crate::common;

use common::models::relation_holds;

#[derive(Clone, Debug)]
struct Case {
    domains: Vec<Vec<i64>>,
    /// (coefficients, relation, right-hand side) per constraint.
    constraints: Vec<(Vec<i64>, &'static str, i64)>,
    /// How the constraints are combined: 0 all asserted, 1 the first under a
    /// Boolean guard, 2 the first negated, 3 exactly one of them holds.
    form: u8,
}

impl Case {
    fn text(&self) -> String {
        let mut s = String::from("kind = \"csp\"\n[vars]\nb = \"bool\"\n");
        for (i, d) in self.domains.iter().enumerate() {
            let parts: Vec<String> = d.iter().map(|v| v.to_string()).collect();
            s.push_str(&format!("x{i} = \"{{{}}}\"\n", parts.join(", ")));
        }
        let exprs: Vec<String> = self
            .constraints
            .iter()
            .map(|(coefs, rel, rhs)| {
                let terms: Vec<String> = coefs.iter().enumerate().map(|(i, c)| format!("{c} * x{i}")).collect();
                format!("({} {rel} {rhs})", terms.join(" + "))
            })
            .collect();
        let combined = match self.form {
            0 => exprs.join(" /\\ "),
            1 => format!("(b -> {}) /\\ {}", exprs[0], exprs[1..].join(" /\\ ")),
            2 => format!("not {} /\\ {}", exprs[0], exprs[1..].join(" /\\ ")),
            _ => {
                format!("sum([{}]) = 1", exprs.iter().map(|e| format!("bool2int({e})")).collect::<Vec<_>>().join(", "))
            }
        };
        let combined = combined.trim_end_matches(" /\\ ").to_string();
        s.push_str(&format!("[[constraint]]\nexpr = '{combined}'\n"));
        s
    }

    fn count(&self) -> u64 {
        let mut total = 0;
        let mut assignment = vec![0i64; self.domains.len()];
        let size: usize = self.domains.iter().map(Vec::len).product();
        for b in [false, true] {
            for mut code in 0..size {
                for (slot, d) in assignment.iter_mut().zip(&self.domains) {
                    *slot = d[code % d.len()];
                    code /= d.len();
                }
                let each: Vec<bool> = self
                    .constraints
                    .iter()
                    .map(|(coefs, rel, rhs)| {
                        relation_holds(rel, coefs.iter().zip(&assignment).map(|(c, v)| c * v).sum(), *rhs)
                    })
                    .collect();
                let ok = match self.form {
                    0 => each.iter().all(|&x| x),
                    1 => (!b || each[0]) && each[1..].iter().all(|&x| x),
                    2 => !each[0] && each[1..].iter().all(|&x| x),
                    _ => each.iter().filter(|&&x| x).count() == 1,
                };
                total += u64::from(ok);
            }
        }
        total
    }
}

fn case() -> impl Strategy<Value = Case> {
    let domain = prop::collection::btree_set(-4i64..=4, 1..=4).prop_map(|s| s.into_iter().collect::<Vec<_>>());
    (prop::collection::vec(domain, 3..=5), 1usize..=2, 0u8..4).prop_flat_map(|(domains, n, form)| {
        let width = domains.len();
        let coefficient = prop::sample::select(vec![-100i64, -9, -3, -2, -1, 1, 2, 3, 7, 10, 100]);
        let constraint = (
            prop::collection::vec(coefficient, width),
            prop::sample::select(vec!["=", "!=", "<", "<=", ">", ">="]),
            -20i64..=20,
        );
        (Just(domains), prop::collection::vec(constraint, n), Just(form))
            .prop_map(|(domains, constraints, form)| Case { domains, constraints, form })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(250))]

    #[test]
    fn linear_constraints_count_like_brute_force(case in case()) {
        let expected = case.count();
        let text = case.text();
        for linear in [Linear::PseudoBoolean, Linear::Diagrams, Linear::Binary] {
            let puzzle = load_puzzle(&Source::from_text("linear.toml", text.clone())).unwrap().with_linear(linear);
            for engine in puzzle.engines() {
                let options = CountOptions { engine: Some(engine.to_string()), ..Default::default() };
                let report = puzzle.count(&options).unwrap_or_else(|e| panic!("{e}\n{text}"));
                prop_assert_eq!(report.count, expected, "{:?} {}\n{}", linear, engine, text);
            }
        }
    }
}

#[test]
fn the_pseudo_boolean_encodings_solve_the_shipped_sums() {
    for (model, count) in [("send-more-money", 1), ("magic-square", 8), ("knapsack", 1)] {
        let source = Source::read(format!("models/csp/{model}.toml").as_ref()).unwrap();
        let puzzle = load_puzzle(&source).unwrap().with_linear(Linear::PseudoBoolean);
        for engine in puzzle.engines() {
            let options = CountOptions { engine: Some(engine.to_string()), ..Default::default() };
            assert_eq!(puzzle.count(&options).unwrap().count, count, "{model} {engine}");
        }
    }
}

/// A count of Booleans against a bound: `Σ c·[lit] rel rhs` where each
/// literal is `b[i]` or `not b[i]` (the same Boolean may come twice), the
/// whole asserted, under a guard (another Boolean, or one of the counted
/// ones), negated, or reified twice into a sum.
#[derive(Clone, Debug)]
struct CountCase {
    booleans: usize,
    /// (Boolean, negated) per term.
    terms: Vec<(usize, bool)>,
    weight: i64,
    rel: &'static str,
    rhs: i64,
    /// 0 asserted, 1 under `g`, 2 under the first term's literal, 3
    /// negated, 4 `bool2int(count) + bool2int(g) = 1`.
    form: u8,
}

impl CountCase {
    fn literal(&self, (i, negated): (usize, bool)) -> String {
        if negated { format!("not b[{i}]") } else { format!("b[{i}]") }
    }

    fn text(&self) -> String {
        let terms: Vec<String> =
            self.terms.iter().map(|&t| format!("{} * bool2int({})", self.weight, self.literal(t))).collect();
        let count = format!("({} {} {})", terms.join(" + "), self.rel, self.rhs);
        let expr = match self.form {
            0 => count,
            1 => format!("g -> {count}"),
            2 => format!("{} -> {count}", self.literal(self.terms[0])),
            3 => format!("not {count}"),
            _ => format!("bool2int({count}) + bool2int(g) = 1"),
        };
        format!(
            "kind = \"csp\"\n[vars]\ng = \"bool\"\nb = {{ index = [\"0..{}\"], domain = \"bool\" }}\n\
             [[constraint]]\nexpr = '{expr}'\n",
            self.booleans - 1
        )
    }

    fn count(&self) -> u64 {
        let mut total = 0;
        for code in 0u32..1 << (self.booleans + 1) {
            let g = code & 1 == 1;
            let b = |i: usize| code >> (i + 1) & 1 == 1;
            let holds = |(i, negated): (usize, bool)| b(i) != negated;
            let sum: i64 = self.terms.iter().map(|&t| self.weight * i64::from(holds(t))).sum();
            let count = relation_holds(self.rel, sum, self.rhs);
            let ok = match self.form {
                0 => count,
                1 => !g || count,
                2 => !holds(self.terms[0]) || count,
                3 => !count,
                _ => count != g,
            };
            total += u64::from(ok);
        }
        total
    }
}

fn count_case() -> impl Strategy<Value = CountCase> {
    (1usize..=10).prop_flat_map(|booleans| {
        let counted = prop::sample::subsequence((0..booleans).collect::<Vec<_>>(), 1..=booleans);
        (counted, prop::collection::vec(any::<bool>(), booleans), prop::option::weighted(0.2, 0..booleans))
            .prop_flat_map(move |(counted, negated, again)| {
                let mut terms: Vec<(usize, bool)> = counted.iter().map(|&i| (i, negated[i])).collect();
                terms.extend(again.map(|i| (i, !negated[i])));
                let n = terms.len() as i64;
                (
                    Just(terms),
                    prop::sample::select(vec![1i64, 1, 1, 2, -1]),
                    prop::sample::select(vec![">=", "<=", "=", ">", "<", "!="]),
                    prop::sample::select(vec![-1i64, 0, 1, 2, n - 1, n, n + 1]),
                    0u8..5,
                )
            })
            .prop_map(move |(terms, weight, rel, rhs, form)| CountCase {
                booleans,
                terms,
                weight,
                rel,
                rhs: rhs * weight,
                form,
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(250))]

    /// Counts of Booleans against 0, 1, n − 1 and n are clauses and
    /// at-most-ones rather than decision diagrams (pairwise, or a ladder
    /// past six literals; under a guard that is one of the literals, that
    /// literal is folded in): each against brute force, every encoding and
    /// engine.
    #[test]
    fn boolean_counts_count_like_brute_force(case in count_case()) {
        let expected = case.count();
        let text = case.text();
        for linear in [Linear::PseudoBoolean, Linear::Diagrams, Linear::Binary] {
            let puzzle = load_puzzle(&Source::from_text("count.toml", text.clone())).unwrap().with_linear(linear);
            for engine in puzzle.engines() {
                let options = CountOptions { engine: Some(engine.to_string()), ..Default::default() };
                let report = puzzle.count(&options).unwrap_or_else(|e| panic!("{e}\n{text}"));
                prop_assert_eq!(report.count, expected, "{:?} {}\n{}", linear, engine, text);
            }
        }
    }
}
