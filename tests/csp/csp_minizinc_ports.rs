//! Public MiniZinc puzzle models translated into `kind = "csp"` models:
//! each gives its known answer, checked here against the puzzle's rules
//! written out in Rust, and its known count, on every engine.

use somaria::puzzles::compare::{CompareOptions, compare};
use somaria::puzzles::{Puzzle, SolveOptions, Status};

use crate::common;

use common::models::{count, load_file};
use common::reports::int_grid;

fn solution(puzzle: &dyn Puzzle) -> serde_json::Value {
    let report = puzzle.solve(&SolveOptions::default()).unwrap();
    assert_eq!(report.status, Status::Solved);
    report.solution.unwrap().json
}

/// The model's own table, read with the toml crate rather than somaria.
fn table(path: &str) -> toml::Table {
    std::fs::read_to_string(path).unwrap().parse().unwrap()
}

fn every_engine_agrees(path: &str) {
    let puzzle = load_file(path);
    let report = compare(puzzle.as_ref(), &CompareOptions { count: true, ..Default::default() }).unwrap();
    assert!(report.agree, "{path}: {report:?}");
}

#[test]
fn takuzu_from_partly_given_data() {
    let path = "models/csp/takuzu.toml";
    let puzzle = load_file(path);
    let x = int_grid(&solution(puzzle.as_ref())["x"]);
    let n = x.len();
    assert_eq!(n, 10);
    let column = |j: usize| -> Vec<i64> { x.iter().map(|row| row[j]).collect() };
    let lines: Vec<Vec<i64>> = x.iter().cloned().chain((0..n).map(column)).collect();
    for line in &lines {
        assert_eq!(line.iter().filter(|&&v| v == 0).count(), n / 2, "{line:?}");
        assert!(line.windows(3).all(|w| !(w[0] == w[1] && w[1] == w[2])), "{line:?}");
    }
    for (i, a) in lines[..n].iter().enumerate() {
        assert!(lines[..n].iter().skip(i + 1).all(|b| a != b), "rows differ");
    }
    for (i, a) in lines[n..].iter().enumerate() {
        assert!(lines[n..].iter().skip(i + 1).all(|b| a != b), "columns differ");
    }
    let model = table(path);
    let given = model["vars"]["problem"]["given"].as_array().unwrap();
    let mut clues = 0;
    for (i, row) in given.iter().enumerate() {
        for (j, entry) in row.as_array().unwrap().iter().enumerate() {
            if let Some(v) = entry.as_integer() {
                assert_eq!(x[i][j], v, "the clue at {i},{j}");
                clues += 1;
            }
        }
    }
    assert_eq!(clues, 22);
    assert_eq!(count(puzzle.as_ref(), None), 1);
    every_engine_agrees(path);
}

/// Whether `cells` (values of one cage) give `target` under +, -, x or /
/// (two cells for - and /), as the KenKen rules say.
fn cage_holds(cells: &[i64], target: i64) -> bool {
    let sum: i64 = cells.iter().sum();
    let product: i64 = cells.iter().product();
    let pair = |f: &dyn Fn(i64, i64) -> bool| cells.len() == 2 && (f(cells[0], cells[1]) || f(cells[1], cells[0]));
    sum == target || product == target || pair(&|a, b| a - b == target) || pair(&|a, b| a == b * target)
}

#[test]
fn kenken_with_local_variables_in_a_let() {
    let path = "models/csp/kenken.toml";
    let puzzle = load_file(path);
    let x = int_grid(&solution(puzzle.as_ref())["x"]);
    // The solution printed in the original's header.
    let known = [
        [5, 6, 3, 4, 1, 2],
        [6, 1, 4, 5, 2, 3],
        [4, 5, 2, 3, 6, 1],
        [3, 4, 1, 2, 5, 6],
        [2, 3, 6, 1, 4, 5],
        [1, 2, 5, 6, 3, 4],
    ];
    assert_eq!(x, known.iter().map(|r| r.to_vec()).collect::<Vec<_>>());
    // And the rules, cage by cage, from the model's own table of cages.
    let model = table(path);
    let text = model["params"]["P"].as_str().unwrap();
    let numbers: Vec<i64> = text
        .split(|c: char| !c.is_ascii_digit())
        .filter(|w| !w.is_empty())
        .map(|w| w.parse().unwrap())
        .skip(5) // array2d(1..num_p, 1..2*num_hints+1, — the 2 and the 1s
        .collect();
    assert_eq!(numbers.len(), 15 * 9, "{numbers:?}");
    for cage in numbers.chunks(9) {
        let cells: Vec<i64> =
            cage[..8].chunks(2).filter(|rc| rc[0] > 0).map(|rc| x[rc[0] as usize - 1][rc[1] as usize - 1]).collect();
        assert!(cage_holds(&cells, cage[8]), "cage {cage:?}: {cells:?}");
    }
    for i in 0..6 {
        let mut row = x[i].clone();
        let mut column: Vec<i64> = x.iter().map(|r| r[i]).collect();
        row.sort();
        column.sort();
        assert_eq!(row, (1..=6).collect::<Vec<_>>());
        assert_eq!(column, (1..=6).collect::<Vec<_>>());
    }
    assert_eq!(count(puzzle.as_ref(), None), 1);
    every_engine_agrees(path);
}

/// How many towers are seen along `line`, from its start.
fn seen(line: &[i64]) -> i64 {
    (0..line.len()).filter(|&i| line[..i].iter().all(|&t| t < line[i])).count() as i64
}

#[test]
fn skyscrapers_with_a_user_predicate() {
    let path = "models/csp/skyscraper.toml";
    let puzzle = load_file(path);
    let x = int_grid(&solution(puzzle.as_ref())["x"]);
    let n = x.len();
    assert_eq!(n, 7);
    let model = table(path);
    let vars = &model["vars"];
    // Each clue from the model's own table: `_` is no clue.
    let clues = |name: &str| -> Vec<Option<i64>> {
        vars[name]["given"].as_array().unwrap().iter().map(toml::Value::as_integer).collect()
    };
    let column = |j: usize| -> Vec<i64> { x.iter().map(|row| row[j]).collect() };
    let reversed = |mut line: Vec<i64>| -> Vec<i64> {
        line.reverse();
        line
    };
    let mut checked = 0;
    for (i, row) in x.iter().enumerate() {
        let views =
            [("rl", row.clone()), ("rr", reversed(row.clone())), ("cu", column(i)), ("cl", reversed(column(i)))];
        for (name, line) in views {
            let mut sorted = line.clone();
            sorted.sort();
            assert_eq!(sorted, (1..=n as i64).collect::<Vec<_>>(), "{name} {i}: a permutation");
            if let Some(clue) = clues(name)[i] {
                assert_eq!(seen(&line), clue, "{name} {i}: {line:?}");
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 14, "every clue checked");
    let given = vars["x"]["given"].as_array().unwrap();
    for (i, row) in given.iter().enumerate() {
        for (j, entry) in row.as_array().unwrap().iter().enumerate() {
            if let Some(v) = entry.as_integer() {
                assert_eq!(x[i][j], v, "the given height at {i},{j}");
            }
        }
    }
    assert_eq!(count(puzzle.as_ref(), None), 1);
    every_engine_agrees(path);
}

/// The Langford sequences of two copies of 1..k with `first < last`, by
/// backtracking over positions: each number placed at p and p + i + 1.
fn langford_count(k: usize) -> u64 {
    fn place(row: &mut Vec<usize>, i: usize, k: usize) -> u64 {
        if i == 0 {
            return u64::from(row[0] < row[2 * k - 1]);
        }
        let mut total = 0;
        for p in 0..2 * k - i - 1 {
            if row[p] == 0 && row[p + i + 1] == 0 {
                row[p] = i;
                row[p + i + 1] = i;
                total += place(row, i - 1, k);
                row[p] = 0;
                row[p + i + 1] = 0;
            }
        }
        total
    }
    place(&mut vec![0; 2 * k], k, k)
}

#[test]
fn langford_with_a_named_range_and_an_assert() {
    let path = "models/csp/langford.toml";
    let puzzle = load_file(path);
    let row: Vec<i64> =
        solution(puzzle.as_ref())["solution"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect();
    assert_eq!(row, [2, 3, 4, 2, 1, 3, 1, 4], "hakank's answer for k = 4");
    for i in 1..=4 {
        let at: Vec<usize> = (0..8).filter(|&p| row[p] == i).collect();
        assert_eq!(at.len(), 2);
        assert_eq!(at[1] - at[0], i as usize + 1, "{row:?}");
    }
    assert_eq!(count(puzzle.as_ref(), None), langford_count(4));
    every_engine_agrees(path);
    // The same model at k = 7: 26 sequences up to reversal (CSPLib 24).
    let text = std::fs::read_to_string(path).unwrap().replace("k = 4\n", "k = 7\n");
    let seven = somaria::puzzles::load(&somaria::model::Source::from_text("langford7.toml", text)).unwrap();
    assert_eq!((langford_count(7), count(seven.as_ref(), None)), (26, 26));
    // And k = 5 fails the model's assertion, a load error.
    let text = std::fs::read_to_string(path).unwrap().replace("k = 4\n", "k = 5\n");
    let err = somaria::puzzles::load(&somaria::model::Source::from_text("langford5.toml", text)).err().unwrap();
    assert!(err.to_string().contains("k mod 4 = 0 or k mod 4 = 3"), "{err}");
}

/// The magic sequences of length n, by trying every sequence.
fn magic_sequences(n: usize) -> u64 {
    let mut s = vec![0usize; n];
    let mut found = 0;
    loop {
        found += u64::from((0..n).all(|i| s.iter().filter(|&&v| v == i).count() == s[i]));
        let Some(k) = (0..n).find(|&k| s[k] + 1 < n) else { return found };
        s[k] += 1;
        s[..k].iter_mut().for_each(|v| *v = 0);
    }
}

#[test]
fn magic_sequence_over_a_zero_based_index_set() {
    let path = "models/csp/magic-sequence.toml";
    let puzzle = load_file(path);
    let s: Vec<usize> =
        solution(puzzle.as_ref())["s"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap() as usize).collect();
    assert_eq!(s.len(), 40);
    for (i, &v) in s.iter().enumerate() {
        assert_eq!(s.iter().filter(|&&x| x == i).count(), v, "{i} occurs s[{i}] times");
    }
    assert_eq!((s[0], s[1], s[2], s[36]), (36, 2, 1, 1), "the known answer n-4, 2, 1, .., 1 at n-4");
    // Counts at small n against trying every sequence (n = 40 counts in
    // about 12 s, too slow for the suite: `somaria count` it by hand).
    let text = std::fs::read_to_string(path).unwrap();
    for n in 4..=7 {
        let small = text.replace("n = 40\n", &format!("n = {n}\n"));
        let small = somaria::puzzles::load(&somaria::model::Source::from_text("magic.toml", small)).unwrap();
        assert_eq!(count(small.as_ref(), None), magic_sequences(n), "n = {n}");
    }
}

/// Whether a permutation is a Costas array: no two pairs of its points
/// share a displacement vector.
fn is_costas(p: &[i64]) -> bool {
    let mut seen = std::collections::BTreeSet::new();
    (0..p.len()).all(|i| (i + 1..p.len()).all(|j| seen.insert((j - i, p[j] - p[i]))))
}

fn costas_count(n: usize) -> u64 {
    fn extend(p: &mut Vec<i64>, n: usize) -> u64 {
        if p.len() == n {
            return u64::from(is_costas(p));
        }
        let mut total = 0;
        for v in 1..=n as i64 {
            if !p.contains(&v) {
                p.push(v);
                total += extend(p, n);
                p.pop();
            }
        }
        total
    }
    extend(&mut Vec::new(), n)
}

#[test]
fn costas_arrays_with_all_different_over_a_generator() {
    let path = "models/csp/costas-array.toml";
    let puzzle = load_file(path);
    let p: Vec<i64> =
        solution(puzzle.as_ref())["costas"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect();
    let mut sorted = p.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, [1, 2, 3, 4, 5, 6]);
    assert!(is_costas(&p), "{p:?}");
    assert_eq!((costas_count(6), count(puzzle.as_ref(), None)), (116, 116), "OEIS A008404 gives 116");
}

/// hakank's 16×16 distance matrix, read from the model's `distances16`.
fn tsp_distances(path: &str) -> Vec<Vec<i64>> {
    let model = table(path);
    let text = model["params"]["distances16"].as_str().unwrap();
    let list = &text[text.find('[').unwrap() + 1..text.rfind(']').unwrap()];
    let numbers: Vec<i64> = list.split(',').map(|v| v.trim().parse().unwrap()).collect();
    assert_eq!(numbers.len(), 256);
    numbers.chunks(16).map(|row| row.to_vec()).collect()
}

/// The shortest closed tour through the first n cities and how many
/// successor arrays reach it (each tour once per direction), by Held and
/// Karp's dynamic programming over the subsets of cities, from city 0.
fn held_karp(d: &[Vec<i64>], n: usize) -> (i64, u64) {
    let full = 1usize << n;
    // best[set][last]: the shortest path from 0 through `set` ending at `last`, and how many.
    let mut best = vec![vec![(i64::MAX, 0u64); n]; full];
    best[1][0] = (0, 1);
    for set in 1..full {
        for last in 0..n {
            let (cost, ways) = best[set][last];
            if ways == 0 {
                continue;
            }
            for next in 1..n {
                if set & (1 << next) != 0 {
                    continue;
                }
                let slot = &mut best[set | (1 << next)][next];
                let c = cost + d[last][next];
                if c < slot.0 {
                    *slot = (c, ways);
                } else if c == slot.0 {
                    slot.1 += ways;
                }
            }
        }
    }
    let mut answer = (i64::MAX, 0);
    for (last, &(cost, ways)) in best[full - 1].iter().enumerate().skip(1) {
        let c = cost + d[last][0];
        if c < answer.0 {
            answer = (c, ways);
        } else if c == answer.0 && ways > 0 {
            answer.1 += ways;
        }
    }
    answer
}

/// The same by trying every successor array that is a permutation.
fn tsp_brute_force(d: &[Vec<i64>], n: usize) -> (i64, u64) {
    fn extend(x: &mut Vec<usize>, d: &[Vec<i64>], n: usize, best: &mut (i64, u64)) {
        if x.len() == n {
            let (mut at, mut seen) = (0, 0);
            while seen < n && (seen == 0 || at != 0) {
                at = x[at];
                seen += 1;
            }
            if at == 0 && seen == n {
                let length: i64 = (0..n).map(|i| d[i][x[i]]).sum();
                if length < best.0 {
                    *best = (length, 1);
                } else if length == best.0 {
                    best.1 += 1;
                }
            }
            return;
        }
        for v in 0..n {
            if v != x.len() && !x.contains(&v) {
                x.push(v);
                extend(x, d, n, best);
                x.pop();
            }
        }
    }
    let mut best = (i64::MAX, 0);
    extend(&mut Vec::new(), d, n, &mut best);
    best
}

#[test]
fn tsp_with_circuit_proves_its_optimal_tour() {
    let path = "models/csp/tsp-circuit.toml";
    let d = tsp_distances(path);
    let puzzle = load_file(path);
    let report = puzzle.solve(&SolveOptions::default()).unwrap();
    let json = report.solution.unwrap().json;
    let read =
        |name: &str| -> Vec<i64> { json[name].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect() };
    let (x, legs) = (read("x"), read("d"));
    let n = x.len();
    assert_eq!(n, 14);
    let (mut at, mut visited) = (0usize, 0);
    loop {
        assert_eq!(legs[at], d[at][x[at] as usize - 1], "the leg from city {}", at + 1);
        at = x[at] as usize - 1;
        visited += 1;
        if at == 0 {
            break;
        }
        assert!(visited < n, "{x:?} is not one cycle");
    }
    assert_eq!(visited, n, "{x:?} misses cities");
    let (optimum, tours) = held_karp(&d, n);
    assert_eq!((report.objective, legs.iter().sum::<i64>()), (Some(optimum), optimum));
    assert_eq!((optimum, tours), (6564, 2));
    assert_eq!(count(puzzle.as_ref(), None), tours, "the optimal tours, each in both directions");
    // hakank's own figure for all 16 cities, by the same dynamic program.
    assert_eq!(held_karp(&d, 16), (6859, 2));
    // A small instance against every tour, on every engine.
    let text = std::fs::read_to_string(path).unwrap().replace("n = 14\n", "n = 7\n");
    let small = somaria::puzzles::load(&somaria::model::Source::from_text("tsp7.toml", text)).unwrap();
    let truth = tsp_brute_force(&d, 7);
    assert_eq!(truth, held_karp(&d, 7));
    for &engine in small.engines() {
        let options = SolveOptions { engine: Some(engine.to_string()), ..Default::default() };
        assert_eq!(small.solve(&options).unwrap().objective, Some(truth.0), "{engine}");
        assert_eq!(count(small.as_ref(), Some(engine)), truth.1, "{engine}");
    }
}
