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
