//! The less common parts of the subset, each in a small model whose count
//! is known by hand or by a brute force written here, on every engine.

use somaria::model::Source;
use somaria::puzzles::{self, CountOptions, SolveOptions, Status};

use crate::common;

use common::models::load_text;

fn counts(text: &str) -> Vec<u64> {
    let puzzle = load_text(text);
    puzzle
        .engines()
        .iter()
        .map(|engine| {
            let options = CountOptions { engine: Some(engine.to_string()), ..Default::default() };
            puzzle.count(&options).unwrap_or_else(|e| panic!("{engine}: {e}\n{text}")).count
        })
        .collect()
}

fn assert_count(text: &str, expected: u64) {
    for (engine, n) in ["auto", "direct", "order", "log"].iter().zip(counts(text)) {
        assert_eq!(n, expected, "{engine}\n{text}");
    }
}

fn model(vars: &str, constraints: &[&str]) -> String {
    let mut s = format!("kind = \"csp\"\n[vars]\n{vars}\n");
    for c in constraints {
        s.push_str(&format!("[[constraint]]\nexpr = '''{c}'''\n"));
    }
    s
}

#[test]
fn generators_over_sets_enums_and_arrays() {
    // x[i] = i for i in {1, 3}: two of four elements fixed, the others free over 1..3.
    let vars = "x = { index = [\"1..4\"], domain = \"1..3\" }";
    assert_count(&model(vars, &["forall(i in {1, 3})(x[i] = i)"]), 9);
    // Iterating over an array's elements.
    assert_count(&model(vars, &["forall(v in x)(v != 2)"]), 16);
    assert_count(&model(vars, &["sum(v in x)(v) = 4"]), 1);
    // Two names in one generator, a `where` per generator.
    assert_count(&model(vars, &["forall(i in 1..4 where i > 1, j in 1..i - 1 where j != 2)(x[i] > x[j])"]), 2);
    // An enum as a generator source and as an index set.
    let text = "kind = \"csp\"\n[enums]\nDay = [\"mon\", \"tue\", \"wed\"]\n[vars]\nwork = { index = [\"Day\"], domain = \"0..2\" }\n[[constraint]]\nexpr = 'forall(d in Day where d != tue)(work[d] > 0) /\\ work[tue] = 0 /\\ work[mon] < work[wed]'\n";
    assert_count(text, 1);
}

#[test]
fn rows_columns_index_sets_length_and_product() {
    let vars = "m = { index = [\"1..2\", \"0..2\"], domain = \"0..1\" }";
    // Each row sums to 1 and each column to at most 1: 3 · 2 placements.
    assert_count(
        &model(
            vars,
            &[
                "forall(i in index_set_1of2(m))(sum(row(m, i)) = 1)",
                "forall(j in index_set_2of2(m))(sum(col(m, j)) <= 1)",
            ],
        ),
        6,
    );
    assert_count(
        &model(vars, &["length(row(m, 1)) = 3 /\\ length(m) = 6 /\\ forall(i in 1..2, j in 0..2)(m[i, j] = 1)"]),
        1,
    );
    let vars = "x = { index = [\"1..3\"], domain = \"1..3\" }";
    assert_count(&model(vars, &["product(x) = 6", "forall(i in index_set(x))(x[i] >= 1)"]), 6);
}

#[test]
fn element_constraints_with_variable_indices() {
    // 2-D element: m[i, j] = 5 with var i, j over a fixed table.
    let text = "kind = \"csp\"\n[params]\nt = [[1, 5, 2], [5, 3, 5]]\n[vars]\ni = \"1..2\"\nj = \"1..3\"\n[[constraint]]\nexpr = 't[i, j] = 5'\n";
    assert_count(text, 3);
    // A variable array at a variable index that may be out of range: undefined, so false.
    let vars = "a = { index = [\"1..3\"], domain = \"0..1\" }\nk = \"0..4\"";
    // k in 1..3 and a[k] = 1: 3 choices of k, a[k] fixed, the two others free.
    assert_count(&model(vars, &["a[k] = 1"]), 12);
    // not (a[k] = 1): true also where a[k] is undefined (k = 0 or 4).
    assert_count(&model(vars, &["not (a[k] = 1)"]), 5 * 8 - 12);
    // Boolean arrays at variable indices.
    let vars = "b = { index = [\"1..3\"], domain = \"bool\" }\nk = \"1..3\"";
    assert_count(&model(vars, &["b[k]", "b[k + 1] \\/ k = 3"]), 2 + 2 + 4);
}

#[test]
fn tables_written_as_2d_literals_and_params() {
    let vars = "x = \"0..3\"\ny = \"0..3\"";
    assert_count(&model(vars, &["table([x, y], [| 0, 1 | 1, 2 | 2, 3 | 3, 9 |])"]), 3);
    let text = "kind = \"csp\"\n[params]\nallowed = [[0, 0], [1, 1], [2, 0]]\n[vars]\nx = \"0..2\"\ny = \"0..2\"\n[[constraint]]\nexpr = 'table([x, y], allowed) \\/ x + y = 4'\n";
    assert_count(text, 4);
    // Reified: exactly one of two tables holds.
    assert_count(&model(vars, &["table([x, y], [| 0, 0 | 1, 1 |]) xor table([x, y], [| 1, 1 | 2, 2 |])"]), 2);
}

#[test]
fn conditional_expressions_and_implications() {
    let vars = "x = \"0..4\"\nb = \"bool\"";
    // x = (if b then 1 elseif x > 2 then 4 else 0 endif)
    assert_count(&model(vars, &["x = if b then 1 elseif x > 2 then 4 else 0 endif"]), 3);
    assert_count(&model(vars, &["b <- x > 2", "x > 2 <- b"]), 2 + 3);
    assert_count(&model(vars, &["(x mod 2 = 0) <-> b"]), 5);
    assert_count(&model(vars, &["bool2int(b) + bool2int(x > 0) = 1"]), 1 + 4);
    // Membership in a fixed set with gaps, and its negation.
    assert_count(&model(vars, &["x in {0, 2, 3}", "not (x in 1..2) \\/ b"]), 2 + 1 + 2);
}

#[test]
fn min_max_abs_div_mod_on_negative_numbers() {
    // Truncating division and the remainder's sign follow the dividend.
    let vars = "x = \"-7..7\"\ny = \"-3..3\"";
    let mut expected = 0;
    for x in -7i64..=7 {
        for y in -3i64..=3 {
            if y != 0 && x / y == -2 && x % y == -1 {
                expected += 1;
            }
        }
    }
    assert_count(&model(vars, &["x div y = -2 /\\ x mod y = -1"]), expected);
    let mut expected = 0;
    for x in -7i64..=7 {
        for y in -3i64..=3 {
            if x.min(y).abs() + x.max(y) == 3 {
                expected += 1;
            }
        }
    }
    assert_count(&model(vars, &["abs(min(x, y)) + max([x, y]) = 3"]), expected);
    // Multiplication of two variables, one of them wide.
    let vars = "x = \"-40..300\"\ny = \"-3..3\"";
    let expected = (-40i64..=300).flat_map(|x| (-3i64..=3).map(move |y| x * y)).filter(|&p| p == 120).count() as u64;
    assert_count(&model(vars, &["x * y = 120"]), expected);
}

#[test]
fn string_parameters_are_expressions_and_bool_arrays_are_params() {
    let text = "kind = \"csp\"\n[params]\nn = 4\nhalf = \"n div 2\"\nmask = [true, false, true, false]\n[vars]\nx = { index = [\"1..n\"], domain = \"0..half\" }\n[[constraint]]\nexpr = 'forall(i in 1..n where mask[i])(x[i] = half) /\\ forall(i in 1..n where not mask[i])(x[i] < half)'\n";
    assert_count(text, 4);
}

#[test]
fn a_parameter_may_use_one_declared_below_it() {
    // MiniZinc's declarations are unordered: `half` and `top` use `n`, and
    // `span` uses `top`, all declared after them; a loop variable that
    // shadows a parameter's name is no use of it.
    let text = "kind = \"csp\"\n[params]\nspan = \"top - half\"\nhalf = \"n div 2\"\ntop = \"sum([i | i in 1..n]) div n\"\ni = 7\nn = 4\n[vars]\nx = { index = [\"1..n\"], domain = \"0..span\" }\n[[constraint]]\nexpr = 'x[1] + x[2] = span + i - 7'\n";
    // span = 2 - 2 = 0: every x is 0, one solution.
    assert_count(text, 1);
    let text = text.replace("span = \"top - half\"", "span = \"top - half + 1\"");
    // span = 1: x[1] + x[2] = 1 over 0..1 (2 ways), x[3], x[4] free (4 ways).
    assert_count(&text, 8);
}

#[test]
fn show_projects_the_count_and_the_solution() {
    // y is free, but only x is shown: three solutions, not nine.
    let text = "kind = \"csp\"\nshow = [\"x\"]\n[vars]\nx = \"1..3\"\ny = \"1..3\"\n";
    assert_count(text, 3);
    let puzzle = puzzles::load(&Source::from_text("show.toml", text.to_string())).unwrap();
    let report = puzzle.solve(&SolveOptions::default()).unwrap();
    let json = report.solution.unwrap().json;
    assert!(json.get("x").is_some() && json.get("y").is_none(), "{json}");
}

#[test]
fn minimising_over_integers_and_maximising_enums_of_a_schedule() {
    // Three tasks of lengths 2, 3, 1 on one machine: the makespan is 6;
    // the 3! orders give 6 optimal schedules.
    let text = r#"kind = "csp"
minimize = 'max([start[i] + len[i] | i in 1..3])'
show = ["start"]

[params]
len = [2, 3, 1]

[vars]
start = { index = ["1..3"], domain = "0..6" }

[[constraint]]
name = "no overlap"
expr = 'forall(i, j in 1..3 where i < j)(start[i] + len[i] <= start[j] \/ start[j] + len[j] <= start[i])'
"#;
    assert_count(text, 6);
    let puzzle = puzzles::load(&Source::from_text("schedule.toml", text.to_string())).unwrap();
    assert_eq!(puzzle.solve(&SolveOptions::default()).unwrap().objective, Some(6));
    // Maximising with no solution at all.
    let none = text.replace("0..6", "0..1");
    let puzzle = puzzles::load(&Source::from_text("schedule.toml", none)).unwrap();
    let report = puzzle.solve(&SolveOptions::default()).unwrap();
    assert_eq!((report.status, report.objective), (Status::NoSolution, None));
    assert_eq!(puzzle.count(&CountOptions::default()).unwrap().count, 0);
}

#[test]
fn an_objective_undefined_in_some_solutions_only_counts_defined_ones() {
    // minimize 12 div x over x in -2..2: x = 0 is no solution; the minimum
    // is 12 div -1 = -12.
    let text = "kind = \"csp\"\nminimize = '12 div x'\n[vars]\nx = \"-2..2\"\n";
    let puzzle = puzzles::load(&Source::from_text("partial.toml", text.to_string())).unwrap();
    assert_eq!(puzzle.solve(&SolveOptions::default()).unwrap().objective, Some(-12));
    assert_count(text, 1);
    // Undefined everywhere: no solution, and explain names the objective.
    let text = "kind = \"csp\"\nminimize = '12 div (x - x)'\n[vars]\nx = \"-2..2\"\n";
    let puzzle = puzzles::load(&Source::from_text("partial.toml", text.to_string())).unwrap();
    assert_eq!(puzzle.solve(&SolveOptions::default()).unwrap().status, Status::NoSolution);
    let explained = puzzle.explain(&SolveOptions::default()).unwrap();
    assert_eq!(explained.constraints.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), ["the objective is defined"]);
}

#[test]
fn large_domains_go_to_the_log_encoding() {
    // Wide domains: auto and log handle them; direct and order refuse a
    // decision variable over more than 65,536 values.
    let text = "kind = \"csp\"\n[vars]\nx = \"0..1000000\"\ny = \"0..1000000\"\n[[constraint]]\nexpr = 'x + 3 * y = 1000000 /\\ x - y = 200000'\n";
    let puzzle = puzzles::load(&Source::from_text("wide.toml", text.to_string())).unwrap();
    for engine in ["auto", "log"] {
        let options = CountOptions { engine: Some(engine.to_string()), ..Default::default() };
        assert_eq!(puzzle.count(&options).unwrap().count, 1, "{engine}");
    }
    let options = CountOptions { engine: Some("order".to_string()), ..Default::default() };
    assert!(matches!(puzzle.count(&options), Err(puzzles::Error::TooLarge(_))));
}

/// MiniZinc's automatic `bool2int`: a Boolean where an integer belongs is
/// 0 or 1 (a sum of Booleans counts those that hold), each count by brute
/// force over the assignments.
#[test]
fn booleans_count_as_zero_or_one_where_integers_belong() {
    let vars = "b = { index = [\"1..4\"], domain = \"bool\" }\nx = \"0..3\"";
    let all =
        || (0..16u32).flat_map(|m| (0..4i64).map(move |x| ((0..4).map(|i| (m >> i) & 1 == 1).collect::<Vec<_>>(), x)));
    let brute = |f: &dyn Fn(&[bool], i64) -> bool| all().filter(|(b, x)| f(b, *x)).count() as u64;
    let ones = |b: &[bool]| b.iter().filter(|&&v| v).count() as i64;
    assert_count(&model(vars, &["sum(b) = x"]), brute(&|b, x| ones(b) == x));
    assert_count(
        &model(vars, &["sum(i in 1..4)(b[i] /\\ i > x) >= 2"]),
        brute(&|b, x| (1..=4).filter(|&i| b[i as usize - 1] && i > x).count() >= 2),
    );
    // A Boolean sum under a `where` on the variables, compared with another.
    assert_count(
        &model(vars, &["sum(i in 1..4 where b[i])(i > x) < sum(i in 1..2)(b[i])"]),
        brute(&|b, x| {
            let left = (1..=4).filter(|&i| b[i as usize - 1] && i > x).count();
            let right = (1..=2).filter(|&i| b[i as usize - 1]).count();
            left < right
        }),
    );
    // In arithmetic, compared with an integer, beside integers in an array
    // and in an if-then-else.
    assert_count(
        &model(vars, &["x + b[1] = 2 * b[2] + 1"]),
        brute(&|b, x| x + i64::from(b[0]) == 2 * i64::from(b[1]) + 1),
    );
    assert_count(&model(vars, &["b[1] = x"]), brute(&|b, x| i64::from(b[0]) == x));
    assert_count(
        &model(vars, &["max([b[1], x, b[2] + 1]) = 2"]),
        brute(&|b, x| [i64::from(b[0]), x, i64::from(b[1]) + 1].into_iter().max() == Some(2)),
    );
    assert_count(
        &model(vars, &["(if x > 1 then b[1] else 2 endif) = x - 1"]),
        brute(&|b, x| (if x > 1 { i64::from(b[0]) } else { 2 }) == x - 1),
    );
    assert_count(
        &model(vars, &["abs(b[3] - b[4]) + product([b[1], 3]) = x"]),
        brute(&|b, x| (i64::from(b[2]) - i64::from(b[3])).abs() + 3 * i64::from(b[0]) == x),
    );
}

#[test]
fn a_boolean_objective_counts_as_zero_or_one() {
    let text = "kind = \"csp\"\nmaximize = 'b /\\ x > 2'\n[vars]\nb = \"bool\"\nx = \"0..3\"\n";
    let solved = load_text(text).solve(&SolveOptions::default()).unwrap();
    assert_eq!(solved.objective, Some(1));
    assert_count(text, 1);
}

#[test]
fn assertions_that_hold_change_nothing_and_guard_a_value() {
    let text = "kind = \"csp\"\n[params]\nn = 4\nhalf = 'assert(n mod 2 = 0, \"n is even\", n div 2)'\n[vars]\nx = { index = [\"1..half\"], domain = \"1..n\" }\n[[constraint]]\nexpr = 'assert(n > 1, \"n above one\")'\n[[constraint]]\nexpr = 'forall(i in 1..half)(assert(i <= half, \"in range\") /\\ x[i] > i + assert(true, \"\", 1))'\n";
    // x[1] in 3..4, x[2] in 4..4.
    assert_count(text, 2);
}

/// A defined variable is its expression's value: in constraints, in `show`
/// and in an objective, with its domain declared or taken from the
/// expression's bounds; counts by brute force.
#[test]
fn defined_variables_stand_for_their_expressions() {
    let head = "kind = \"csp\"\n[params]\nn = 3\n[vars]\nx = { index = [\"1..n\"], domain = \"0..3\" }\n";
    let all = || (0..64u32).map(|m| (0..3).map(|i| ((m >> (2 * i)) & 3) as i64).collect::<Vec<i64>>());
    // Shown alone, z takes every total once: 0..9.
    let shown = head.replacen("kind = \"csp\"\n", "kind = \"csp\"\nshow = [\"total\"]\n", 1);
    let shown = format!("{shown}total = {{ define = 'sum(i in 1..n)(x[i])' }}\n");
    assert_count(&shown, 10);
    // A declared domain restricts it; with a constraint on it, x follows.
    let text = format!(
        "{head}total = {{ domain = \"0..4\", define = 'sum(i in 1..n)(x[i])' }}\nbig = {{ define = 'total >= 3' }}\n[[constraint]]\nexpr = 'big -> x[1] = 0'\n"
    );
    let expected = all()
        .filter(|x| {
            let t: i64 = x.iter().sum();
            t <= 4 && (t < 3 || x[0] == 0)
        })
        .count() as u64;
    assert_count(&text, expected);
    // In an objective: the largest total with all values different.
    let text = format!(
        "kind = \"csp\"\nmaximize = 'total'\n{}total = {{ define = 'sum(x)' }}\n[[constraint]]\nexpr = 'alldifferent(x)'\n",
        &head[13..]
    );
    let solved = load_text(&text).solve(&SolveOptions::default()).unwrap();
    assert_eq!(solved.objective, Some(3 + 2 + 1));
    assert_eq!(solved.solution.unwrap().json["total"], 6);
}

/// Parameters over parameters, a named 0-based range as index set and
/// domain, `array2d` in a parameter's string, `all_different` with a
/// generator and `where`, and `product` over variables, against brute force.
#[test]
fn named_ranges_param_arrays_and_generator_all_different() {
    let text = "kind = \"csp\"\n[params]\nn = 3\ncells = \"0..n-1\"\nclues = \"array2d(0..1, 0..n-1, [1, 0, 2, 0, 0, 1])\"\ntarget = \"n * 2\"\n[vars]\nx = { index = [\"cells\"], domain = \"cells\" }\n[[constraint]]\nexpr = 'all_different(i in cells where clues[0, i] != 1)(x[i])'\n[[constraint]]\nexpr = 'product(i in cells)(x[i] + 1) = target /\\ x[0] = clues[0, 2]'\n";
    let clues = [1, 0, 2];
    let mut expected = 0;
    for code in 0..27 {
        let x = [code % 3, code / 3 % 3, code / 9];
        let kept: Vec<i64> = (0..3).filter(|&i| clues[i] != 1).map(|i| x[i]).collect();
        let distinct = kept.iter().collect::<std::collections::BTreeSet<_>>().len() == kept.len();
        if distinct && x.iter().map(|v| v + 1).product::<i64>() == 6 && x[0] == clues[2] {
            expected += 1;
        }
    }
    assert_count(text, expected);
}

#[test]
fn arrays_compare_element_by_element_over_the_same_index_sets() {
    // A 2×3 grid whose first row is b reversed: b is free (3^3), the first
    // row follows, the second row is free (3^3).
    let vars = "a = { index = [\"1..2\", \"1..3\"], domain = \"0..2\" }\nb = { index = [\"1..3\"], domain = \"0..2\" }";
    assert_count(&model(vars, &["a[1, ..] = reverse(b)"]), 27 * 27);
    // Both rows equal b: 27; the rows as equal arrays and unequal to b.
    assert_count(&model(vars, &["a[1, ..] = b", "a[2, ..] = a[1, ..]"]), 27);
    assert_count(&model(vars, &["a[1, ..] = a[2, ..]", "a[1, ..] != b"]), 27 * 26);
    // Whole arrays, a shifted view, a fixed side and Booleans.
    let pair = "x = { index = [\"1..3\"], domain = \"0..3\" }\ny = { index = [\"0..2\"], domain = \"0..3\" }";
    assert_count(&model(pair, &["x = array1d(1..3, y)"]), 64);
    assert_count(&model(pair, &["x = [1, 2, 3]", "x != array1d(1..3, y)"]), 63);
    let bools = "p = { index = [\"1..2\"], domain = \"bool\" }\nq = { index = [\"1..2\"], domain = \"bool\" }";
    assert_count(&model(bools, &["p = q", "p != [true, true]"]), 3);
    // Equal arrays in a negative context: not (a = b) has 16 - 4 solutions.
    let small = "u = { index = [\"1..2\"], domain = \"0..1\" }\nv = { index = [\"1..2\"], domain = \"0..1\" }";
    assert_count(&model(small, &["not (u = v)"]), 12);
    assert_count(&model(small, &["(u = v) -> u[1] = 1"]), 14);
    // An undefined element (10 div 0) makes the comparison false, `!=`
    // included, as a scalar `!=` is; its negation true. The counts are
    // MiniZinc 2.6's with Gecode.
    let xy = "x = \"0..2\"\ny = \"0..2\"";
    assert_count(&model(xy, &["[10 div x] != [5]"]), 3);
    assert_count(&model(xy, &["[10 div x, y] != [5, 0]"]), 5);
    assert_count(&model(xy, &["[10 div x, y] = [5, 0]"]), 1);
    assert_count(&model(xy, &["not ([10 div x] = [5])"]), 6);
}

/// `[params] S = set`, `x` over 0..9, `x in S`.
fn member_of(set: &str) -> String {
    format!("kind = \"csp\"\n[params]\nS = \"{set}\"\n[vars]\nx = \"0..9\"\n[[constraint]]\nexpr = 'x in S'\n")
}

/// `intersect` right after `union`, `diff` or `symdiff`: MiniZinc 2.9 and
/// later bind `intersect` tighter, 2.8 and earlier (Debian 12's 2.6.4)
/// group the four left to right, so the text names two sets: it is refused
/// at the `intersect`, and each parenthesised reading counts as the
/// version that takes it does.
const SET_MIXES: [(&str, &str, u64, &str, u64); 4] = [
    // (the text, MiniZinc 2.9's reading and its count, 2.8's and its count)
    ("{1, 2} union {3} intersect {0}", "{1, 2} union ({3} intersect {0})", 2, "({1, 2} union {3}) intersect {0}", 0),
    ("{1,2,3} diff {1} intersect {1}", "{1,2,3} diff ({1} intersect {1})", 2, "({1,2,3} diff {1}) intersect {1}", 0),
    ("{9} union 1..3 intersect 2..4", "{9} union (1..3 intersect 2..4)", 3, "({9} union 1..3) intersect 2..4", 2),
    (
        "{1, 2} symdiff {2, 3} intersect {3}",
        "{1, 2} symdiff ({2, 3} intersect {3})",
        3,
        "({1, 2} symdiff {2, 3}) intersect {3}",
        1,
    ),
];

#[test]
fn intersect_after_union_needs_parentheses_and_each_reading_counts_as_minizinc() {
    for (text, new, new_count, old, old_count) in SET_MIXES {
        let error = puzzles::load(&Source::from_text("m.toml", member_of(text))).err().expect(text).to_string();
        // Line 3 is `S = "..."`; the set starts at column 6.
        let at = format!("m.toml:3:{}:", 6 + text.find("intersect").unwrap());
        for part in [at.as_str(), "without parentheses", "MiniZinc 2.9 and later", "MiniZinc 2.8 and earlier"] {
            assert!(error.contains(part), "{text}: expected {part:?} in {error}");
        }
        assert_count(&member_of(new), new_count);
        assert_count(&member_of(old), old_count);
    }
}

/// The count MiniZinc with Gecode gives for `x in S`, `x` over 0..9, and
/// its version's (major, minor); `None` where minizinc is not installed.
fn minizinc_member_count(set: &str) -> Option<((u32, u32), u64)> {
    let version = std::process::Command::new("minizinc").arg("--version").output().ok()?;
    let version = String::from_utf8_lossy(&version.stdout).to_string();
    let number = version.split("version ").nth(1)?.split_whitespace().next()?.to_string();
    let mut parts = number.split('.').map(|p| p.parse::<u32>().unwrap_or(0));
    let (major, minor) = (parts.next()?, parts.next()?);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.mzn");
    std::fs::write(&path, format!("set of int: S = {set};\nvar 0..9: x;\nconstraint x in S;\n")).unwrap();
    let out = std::process::Command::new("minizinc")
        .args(["-G", "std", "--solver", "gecode", "--all-solutions"])
        .arg(&path)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "minizinc failed on {set}: {}", String::from_utf8_lossy(&out.stderr));
    Some(((major, minor), stdout.lines().filter(|l| *l == "----------").count() as u64))
}

#[test]
fn set_mixes_read_as_the_installed_minizinc_reads_them_where_installed() {
    for (text, new, new_count, old, old_count) in SET_MIXES {
        let Some((version, count)) = minizinc_member_count(text) else {
            eprintln!("minizinc is not installed; skipping the comparison with MiniZinc");
            return;
        };
        let expected = if version >= (2, 9) { new_count } else { old_count };
        assert_eq!(count, expected, "MiniZinc {version:?} on `{text}`");
        assert_eq!(minizinc_member_count(new).map(|(_, n)| n), Some(new_count), "{new}");
        assert_eq!(minizinc_member_count(old).map(|(_, n)| n), Some(old_count), "{old}");
    }
}
