//! Models whose counts the presolve completes with two implied sums
//! (`sum(v)(c_v) = length(x)`, `sum(v)(v * c_v) = sum(x)`): magic
//! sequences and random "distribute" models, counted with and without the
//! presolve, against brute force over the counted array (the counts
//! follow from it).

use somaria::model::Source;
use somaria::puzzles::csp::load_puzzle;
use somaria::puzzles::{CountOptions, Puzzle};
use somaria::rng::SplitMix64;

/// Every assignment of `len` variables over `0..values`, as a list.
fn assignments(len: usize, values: i64) -> Vec<Vec<i64>> {
    let mut all = vec![Vec::new()];
    for _ in 0..len {
        all = all.into_iter().flat_map(|a: Vec<i64>| (0..values).map(move |v| [a.clone(), vec![v]].concat())).collect();
    }
    all
}

fn counted(text: &str) -> (u64, u64) {
    let puzzle = load_puzzle(&Source::from_text("m.toml", text.to_string())).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let on = puzzle.count(&CountOptions::default()).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let off = puzzle.without_presolve().count(&CountOptions::default()).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert!(on.complete && off.complete);
    (on.count, off.count)
}

fn magic_sequence(n: usize) -> String {
    format!(
        "kind = \"csp\"\n[params]\nn = {n}\n[vars]\ns = {{ index = [\"0..n-1\"], domain = \"0..n-1\" }}\n\
         [[constraint]]\nexpr = 'forall(i in 0..n-1)(s[i] = sum(j in 0..n-1)(bool2int(s[j] = i)))'\n"
    )
}

#[test]
fn magic_sequences_count_as_brute_force_does_with_and_without_the_presolve() {
    for n in 1..=6 {
        let truth = assignments(n, n as i64)
            .into_iter()
            .filter(|s| (0..n).all(|i| s[i] == s.iter().filter(|&&v| v == i as i64).count() as i64))
            .count() as u64;
        assert_eq!(counted(&magic_sequence(n)), (truth, truth), "n = {n}");
    }
}

/// A side constraint `x[j] + c[v] <= k`, as `(j, v, k)` (0-based `j`).
type Side = (usize, usize, i64);

/// `x` over `0..m`, `c[v]` its number of `v`s (for every `v`, or all but
/// one), and a random side constraint on each.
fn distribute(rng: &mut SplitMix64) -> (String, usize, i64, bool, Vec<Side>) {
    let len = 2 + rng.below(3);
    let m = 2 + rng.below(2) as i64;
    let complete = rng.below(4) != 0;
    let sides: Vec<(usize, usize, i64)> =
        (0..2).map(|_| (rng.below(len), rng.below(m as usize), rng.below(len + 2) as i64)).collect();
    let counted_values = if complete { m } else { m - 1 };
    let mut text = format!(
        "kind = \"csp\"\n[vars]\nx = {{ index = [\"1..{len}\"], domain = \"0..{}\" }}\n\
         c = {{ index = [\"0..{}\"], domain = \"0..{len}\" }}\n[[constraint]]\n\
         expr = 'forall(v in 0..{}) (c[v] = sum(j in 1..{len}) (bool2int(x[j] = v)))'\n",
        m - 1,
        m - 1,
        counted_values - 1
    );
    for (j, v, k) in &sides {
        text += &format!("[[constraint]]\nexpr = 'x[{}] + c[{v}] <= {k}'\n", j + 1);
    }
    (text, len, m, complete, sides)
}

#[test]
fn random_distributions_count_as_brute_force_does_with_and_without_the_presolve() {
    let mut rng = SplitMix64::new(42);
    for case in 0..60 {
        let (text, len, m, complete, sides) = distribute(&mut rng);
        let counted_values = if complete { m } else { m - 1 };
        let mut truth = 0u64;
        for x in assignments(len, m) {
            let count = |v: i64| x.iter().filter(|&&w| w == v).count() as i64;
            // c[v] for the value left uncounted is free over 0..len.
            let free = if complete { 1 } else { len as u64 + 1 };
            let c_of = |v: usize| (v as i64) < counted_values;
            let holds = |c_v: i64, j: usize, k: i64| x[j] + c_v <= k;
            let fixed_ok = sides.iter().filter(|(_, v, _)| c_of(*v)).all(|&(j, v, k)| holds(count(v as i64), j, k));
            if !fixed_ok {
                continue;
            }
            let free_sides: Vec<_> = sides.iter().filter(|(_, v, _)| !c_of(*v)).collect();
            truth += if free_sides.is_empty() {
                free
            } else {
                (0..=len as i64).filter(|&c| free_sides.iter().all(|&&(j, _, k)| holds(c, j, k))).count() as u64
            };
        }
        assert_eq!(counted(&text), (truth, truth), "case {case}\n{text}");
    }
}
