//! Bad csp models: each gets exit code 2 and one line naming the file, the
//! line and column inside the expression, what was found and what was
//! expected. Arbitrary and mutated expressions and models never panic the
//! loader.

use proptest::prelude::*;
use somaria::model::Source;
use somaria::puzzles::{self, CountOptions, SolveOptions};

use crate::common;

use common::cli::{assert_mentions, refused, refused_with, somaria, write_model};
use common::models::{fuzz_cases, mutate};

const HEADER: &str = "kind = \"csp\"\n[params]\nn = 8\n[enums]\nDir = [\"up\", \"down\"]\n[vars]\nq = { index = [\"1..n\"], domain = \"1..n\" }\nx = \"0..9\"\nb = \"bool\"\nd = \"Dir\"\n";

/// The model: HEADER (10 lines) and then `rest`.
fn model(rest: &str) -> String {
    format!("{HEADER}{rest}")
}

fn constraint(expr: &str) -> String {
    model(&format!("[[constraint]]\nexpr = '{expr}'\n"))
}

#[test]
fn an_unknown_name_points_inside_the_expression_and_suggests_the_nearest() {
    // Line 12 is the expr line; the expression starts at column 9.
    let e = refused(constraint("alldifferent(qq)"));
    assert_mentions(&e, &["bad.toml:12:22:", "unknown name `qq`", "did you mean `q`?"]);
    let e = refused(constraint("forall(i in 1..nn)(q[i] > 0)"));
    assert_mentions(&e, &["bad.toml:12:24:", "unknown name `nn`", "did you mean `n`?"]);
    let e = refused(constraint("forall(i in 1..n)(dd[i] > 0)"));
    assert_mentions(&e, &["bad.toml:12:27:", "unknown name `dd`", "did you mean `d`?"]);
    let e = refused(constraint("q[1] = zebra"));
    assert_mentions(&e, &["bad.toml:12:16:", "unknown name `zebra`"]);
    assert!(!e.contains("did you mean"), "no far-fetched suggestion: {e}");
}

#[test]
fn parse_errors_point_at_the_token_in_every_string_form() {
    let e = refused(constraint("q[1] + "));
    assert_mentions(&e, &["bad.toml:12:16:", "the end of the expression; expected an expression"]);
    // A multi-line literal string: the error is on its third line.
    let text = model("[[constraint]]\nexpr = '''\nforall(i in 1..n)(\n  q[i] > 0 /\\ )\n'''\n");
    let e = refused(&text);
    assert_mentions(&e, &["bad.toml:14:15:", "`)`; expected an expression"]);
    // A basic string with an escaped backslash keeps columns right.
    let text = model("[[constraint]]\nexpr = \"b /\\\\ x ==\"\n");
    let e = refused(&text);
    assert_mentions(&e, &["bad.toml:12:19:", "expected an expression"]);
    let e = refused(constraint("x < q[1] < 3"));
    assert_mentions(&e, &["bad.toml:12:18:", "do not chain"]);
    let e = refused(constraint("x / 2 = 1"));
    assert_mentions(&e, &["bad.toml:12:11:", "use `div`"]);
    let e = refused(constraint("x = 1.5"));
    assert_mentions(&e, &["bad.toml:12:13:", "floats are not part"]);
    let e = refused(constraint("if b then x = 1 endif"));
    assert_mentions(&e, &["every `if` needs an `else`"]);
}

#[test]
fn unknown_functions_and_wrong_arities() {
    let e = refused(constraint("alldiff(q)"));
    assert_mentions(&e, &["bad.toml:12:9:", "unknown function `alldiff`", "did you mean `alldifferent`?"]);
    let e = refused(constraint("abs(x, 1) = 2"));
    assert_mentions(&e, &["`abs` with 2 arguments", "abs(int)"]);
    let e = refused(constraint("table(q, [1, 2])"));
    assert_mentions(&e, &["2-D array of tuples"]);
}

/// A call with the wrong number of arguments names the forms it takes, also
/// when it is the whole constraint (where a wrong type asks for "a Boolean
/// constraint" instead).
#[test]
fn a_whole_constraint_with_the_wrong_arguments_names_the_forms() {
    let e = refused(constraint("alldifferent(q, q)"));
    assert_mentions(&e, &["bad.toml:12:9:", "`alldifferent` with 2 arguments", "alldifferent(array of int)"]);
    let grid = model(
        "g = { index = [\"1..2\", \"1..2\"], domain = \"bool\" }\n[[constraint]]\nexpr = 'grid_path(g, 1, 1, 2)'\n",
    );
    let e = refused(&grid);
    assert_mentions(
        &e,
        &["bad.toml:13:9:", "`grid_path` with 4 arguments", "grid_path(on, start_row, start_col, end_row"],
    );
    assert!(!e.contains("a Boolean constraint"), "{e}");
}

#[test]
fn integers_are_not_booleans_and_enums_are_not_integers() {
    // A Boolean where an integer belongs is 0 or 1 (tests/csp/csp_features.rs);
    // the other way round is refused.
    let e = refused(constraint("x /\\ b"));
    assert_mentions(&e, &["bad.toml:12:9:", "`x` of type var int", "a Boolean expression"]);
    let e = refused(constraint("x"));
    assert_mentions(&e, &["a Boolean constraint"]);
    let e = refused(constraint("d = 1"));
    assert_mentions(&e, &["bad.toml:12:13:", "a value of type Dir"]);
    let e = refused(constraint("d + b > 1"));
    assert_mentions(&e, &["bad.toml:12:9:", "`d` of type var Dir", "an integer expression"]);
    let e = refused(constraint("sum([d, d]) = 3"));
    assert_mentions(&e, &["bad.toml:12:13:", "an array of integers or Booleans"]);
}

#[test]
fn fixed_parts_must_be_fixed() {
    let e = refused(constraint("forall(i in 1..x)(q[i] > 0)"));
    assert_mentions(&e, &["bad.toml:12:24:", "depends on decision variables", "a fixed range bound"]);
    let e = refused(constraint("sum([q[i] | i in 1..n where q[i] > 2]) > 1"));
    assert_mentions(&e, &["fixed `where` condition"]);
}

#[test]
fn index_out_of_range_division_by_zero_and_overflow() {
    let e = refused(constraint("q[9] = 1"));
    assert_mentions(&e, &["bad.toml:12:11:", "index 9 out of range", "an index of `q` in 1..8"]);
    let e = refused(constraint("forall(i in 1..n)(q[i] < q[i + 1])"));
    assert_mentions(&e, &["bad.toml:12:36:", "index 9 out of range"]);
    let e = refused(constraint("x div 0 = 1"));
    assert_mentions(&e, &["bad.toml:12:15:", "`div` by 0"]);
    let big =
        "kind = \"csp\"\n[vars]\nx = \"0..1000000000\"\ny = \"0..1000000000\"\n[[constraint]]\nexpr = 'x * y > 5'\n";
    let e = refused(big);
    assert_mentions(&e, &["bad.toml:6:9:", "beyond ±1099511627776"]);
    let e = refused("kind = \"csp\"\n[params]\nn = 9999999999999\n");
    assert_mentions(&e, &["bad.toml:3:5:", "the integer 9999999999999"]);
    let e = refused(constraint("min([]) = 1"));
    assert_mentions(&e, &["`min` of an empty array"]);
    let e = refused(constraint("table([x, b2i], [| 1 |])"));
    assert_mentions(&e, &["unknown name `b2i`"]);
    let e = refused(constraint("table([x, x], [| 1, 2, 3 |])"));
    assert_mentions(&e, &["tuples of 3 values", "tuples of 2 values"]);
}

#[test]
fn declarations_are_validated() {
    let e = refused("kind = \"csp\"\n[vars]\nx = \"5..1\"\n");
    assert_mentions(&e, &["bad.toml:3:5:", "the empty domain \"5..1\""]);
    let e = refused("kind = \"csp\"\n[vars]\nx = \"int\"\n");
    assert_mentions(&e, &["unbounded domain `int`"]);
    let e = refused("kind = \"csp\"\n[vars]\nx = \"1..m\"\n");
    assert_mentions(&e, &["bad.toml:3:9:", "unknown name `m`"]);
    let e = refused("kind = \"csp\"\n[vars]\nx = \"0..9\"\nsum = \"bool\"\n");
    assert_mentions(&e, &["bad.toml:4:1:", "the reserved name `sum`"]);
    let e = refused("kind = \"csp\"\n[params]\nx = 1\n[vars]\nx = \"0..9\"\n");
    assert_mentions(&e, &["bad.toml:5:1:", "a second declaration of `x`"]);
    let e = refused("kind = \"csp\"\n[vars]\nq = { index = [\"1..3\"], domian = \"1..3\" }\n");
    assert_mentions(&e, &["bad.toml:3:5:", "unknown key `domian`"]);
    let e = refused("kind = \"csp\"\n[vars]\nq = { index = [\"{1, 3}\"], domain = \"1..3\" }\n");
    assert_mentions(&e, &["has gaps"]);
    let e = refused("kind = \"csp\"\n[params]\ng = [[1, 2], [3]]\n");
    assert_mentions(&e, &["bad.toml:3:14:", "a row of 1 elements", "rectangular"]);
    let e = refused("kind = \"csp\"\n[params]\nf = 2.5\n");
    assert_mentions(&e, &["bad.toml:3:5:", "the float 2.5"]);
    let e = refused("kind = \"csp\"\n[enums]\nE = []\n");
    assert_mentions(&e, &["an enum with no values"]);
    let e = refused("kind = \"csp\"\n[enums]\nE = [\"a\"]\nF = [\"a\"]\n");
    assert_mentions(&e, &["bad.toml:4:6:", "a second declaration of `a`"]);
}

#[test]
fn a_parameter_defined_through_itself_is_refused_at_the_use_that_closes_the_cycle() {
    let text = "kind = \"csp\"\n[params]\na = \"b + 1\"\nb = \"c * 2\"\nc = \"a - 1\"\n[vars]\nx = \"0..9\"\n";
    let e = refused(text);
    // The walk starts at `a`, goes through `b` to `c`, whose `a` (line 5,
    // column 6) closes the cycle.
    assert_mentions(
        &e,
        &["bad.toml:5:6:", "the parameter `a` defined through itself (`a` uses `b` uses `c` uses `a`)"],
    );
    let e = refused("kind = \"csp\"\n[params]\nn = \"n + 1\"\n[vars]\nx = \"0..9\"\n");
    assert_mentions(&e, &["bad.toml:3:6:", "the parameter `n` defined through itself"]);
}

#[test]
fn show_and_objectives_are_validated() {
    let e = refused(format!("kind = \"csp\"\nshow = [\"qq\"]\n{}", &HEADER[13..]));
    assert_mentions(&e, &["bad.toml:2:9:", "`qq` in `show`", "did you mean `q`?"]);
    let e = refused(format!("kind = \"csp\"\nminimize = 'x'\nmaximize = 'x'\n{}", &HEADER[13..]));
    assert_mentions(&e, &["bad.toml:3:12:", "both `minimize` and `maximize`"]);
    let e = refused(format!("kind = \"csp\"\nminimize = 'd'\n{}", &HEADER[13..]));
    assert_mentions(&e, &["bad.toml:2:13:", "an integer expression to optimise"]);
    let e = refused(format!("kind = \"csp\"\n[constraint]\nexpr = 'x > 1'\n{}", &HEADER[13..]));
    assert_mentions(&e, &["bad.toml:2:"]);
    let e = refused(model("[[constraint]]\nname = \"no expression\"\n"));
    assert_mentions(&e, &["missing field `expr`"]);
}

#[test]
fn a_domain_too_large_for_an_engine_is_a_usage_error() {
    let text = "kind = \"csp\"\n[vars]\nx = \"0..100000000\"\n[[constraint]]\nexpr = 'x > 5'\n";
    let e = refused_with(text, &["--engine", "direct"]);
    assert_mentions(&e, &["x has 100000001 values", "--engine log"]);
    // The log encoding and auto take it.
    let dir = tempfile::tempdir().unwrap();
    let path = write_model(dir.path(), "big.toml", text);
    for engine in ["log", "auto"] {
        somaria().arg("solve").arg(&path).args(["--engine", engine]).assert().code(0);
    }
}

fn load_never_panics(text: &str) -> Result<(), String> {
    match puzzles::load(&Source::from_text("fuzz.toml", text.to_string())) {
        Ok(_) => Ok(()),
        Err(e) => {
            let message = e.to_string();
            if message.starts_with("fuzz.toml") && !message.contains("INTERNAL") { Ok(()) } else { Err(message) }
        }
    }
}

/// Words and symbols of the expression language, to assemble at random.
const PIECES: &[&str] = &[
    "q",
    "x",
    "b",
    "d",
    "n",
    "up",
    "i",
    "j",
    "1",
    "0",
    "8",
    "-",
    "+",
    "*",
    " div ",
    " mod ",
    "=",
    "!=",
    "<",
    "<=",
    ">",
    "/\\",
    "\\/",
    "->",
    "<->",
    " xor ",
    "not ",
    "(",
    ")",
    "[",
    "]",
    "[|",
    "|]",
    "|",
    ",",
    "..",
    " in ",
    " where ",
    "{",
    "}",
    "if ",
    " then ",
    " elseif ",
    " else ",
    " endif",
    "forall",
    "exists",
    "sum",
    "reverse(",
    "q[2..3]",
    "array1d(0..1, ",
    "abs",
    "min",
    "max",
    "bool2int",
    "alldifferent",
    "count",
    "exactly",
    "table",
    "row",
    "index_set",
    "length",
    "true",
    "false",
    "let {",
    "var 1..3: t",
    "int: k = 2",
    "constraint ",
    ";",
    "} in ",
    " ",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(fuzz_cases()))]

    #[test]
    fn arbitrary_expressions_never_panic_the_loader(expr in "[a-z0-9 ()\\[\\]{}|,.+*=<>!/\\\\-]{0,60}") {
        let text = format!("{}[[constraint]]\nexpr = '''{}'''\n", HEADER, expr.replace('\'', ""));
        prop_assert!(load_never_panics(&text).is_ok(), "{}", text);
    }

    #[test]
    fn assembled_expressions_never_panic_the_loader(picks in prop::collection::vec(0..PIECES.len(), 1..25)) {
        let expr: String = picks.iter().map(|&i| PIECES[i]).collect();
        let text = format!("{}[[constraint]]\nexpr = '''{}'''\n", HEADER, expr);
        prop_assert!(load_never_panics(&text).is_ok(), "{}", text);
    }

    #[test]
    fn arbitrary_domains_indices_and_params_never_panic_the_loader(
        domain in "[a-z0-9 .{},-]{0,20}",
        index in "[a-z0-9 .{},-]{0,12}",
        param in "[a-z0-9 .+*-]{0,16}",
    ) {
        let text = format!("kind = \"csp\"\n[params]\nk = \"{param}\"\n[vars]\ny = {{ index = [\"{index}\"], domain = \"{domain}\" }}\n");
        prop_assert!(load_never_panics(&text).is_ok(), "{}", text);
    }

    #[test]
    fn mutated_models_never_panic_the_loader(
        which in 0usize..SEEDS.len() + 2,
        edits in prop::collection::vec((any::<usize>(), 0u8..3, prop::sample::select(b"qxn19[](){}=<>/\\-+,.'\"|\n abcdefgh".to_vec())), 1..6),
    ) {
        let seeds: Vec<&str> = SEEDS.iter().copied().chain([SMALL_GRIDS, SMALL_GRAPHS]).collect();
        let text = String::from_utf8_lossy(&mutate(seeds[which], &edits)).into_owned();
        prop_assert!(load_never_panics(&text).is_ok(), "{}", text);
    }
}

/// Shipped models to mutate.
const SEEDS: [&str; 12] = [
    include_str!("../../models/csp/kenken.toml"),
    include_str!("../../models/csp/takuzu.toml"),
    include_str!("../../models/csp/queens.toml"),
    include_str!("../../models/csp/zebra.toml"),
    include_str!("../../models/csp/sudoku-17.toml"),
    include_str!("../../models/csp/knapsack.toml"),
    include_str!("../../models/csp/magic-square.toml"),
    include_str!("../../models/csp/exam-timetable.toml"),
    include_str!("../../models/csp/slitherlink.toml"),
    include_str!("../../models/csp/nurikabe.toml"),
    include_str!("../../models/csp/numberlink.toml"),
    include_str!("../../models/csp/heros-cave-somaria.toml"),
];

/// A small model with every grid global, to mutate and solve.
const SMALL_GRIDS: &str = r#"kind = "csp"
[vars]
on = { index = ["1..3", "1..4"], domain = "bool" }
across = { index = ["1..3", "1..3"], domain = "bool" }
down = { index = ["1..2", "1..4"], domain = "bool" }
walk = { index = ["1..3", "1..3"], domain = "bool" }
[[constraint]]
expr = 'grid_loop(on, across, down) /\ on[2, 2]'
[[constraint]]
expr = 'grid_connected(array2d(1..3, 1..4, [not on[i, j] | i in 1..3, j in 1..4]))'
[[constraint]]
expr = 'grid_path(walk, 1, 1, 3, 3) /\ sum(i, j in 1..3)(bool2int(walk[i, j])) >= 5'
"#;

/// A small model with the globals and Booleans of the genres: a graph
/// given as data, connected and acyclic, regions sized by their numbers, a
/// sight line and a placed piece; to mutate and solve.
const SMALL_GRAPHS: &str = r#"kind = "csp"
[params]
from = "[1, 2, 3, 4, 1]"
to = "[2, 3, 4, 5, 5]"
[vars]
on = { index = ["1..6"], domain = "bool" }
used = { index = ["1..5"], domain = "bool" }
size = { index = ["1..2", "1..3"], domain = "1..3" }
lit = { index = ["1..2", "1..3"], domain = "bool" }
[[constraint]]
expr = 'graph_connected(on, from, to) /\ on[1]'
[[constraint]]
expr = 'graph_acyclic(used, from, to) /\ sum(e in 1..5)(bool2int(used[e])) >= 3'
[[constraint]]
expr = 'grid_regions(size, array2d(1..2, 1..2, [size[i, j] = size[i, j + 1] | i in 1..2, j in 1..2]), array2d(1..1, 1..3, [size[1, j] = size[2, j] | j in 1..3]))'
[[constraint]]
expr = 'grid_sight(array2d(1..2, 1..3, [true | i in 1..2, j in 1..3]), 1, 1, lit) = 2 /\ grid_place(lit, [| 1, 1 |])'
"#;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Whatever a mutated small model loads as, solving, counting and
    /// explaining it gives a verdict or a clean error, never a panic or a
    /// failed check.
    #[test]
    fn mutated_small_models_solve_cleanly(
        which in 0usize..5,
        edits in prop::collection::vec((any::<usize>(), 0u8..3, prop::sample::select(b"qxn1238[](){}=<>-+,|\\/ ".to_vec())), 1..4),
    ) {
        let seeds = [SEEDS[0], SEEDS[5], SEEDS[4], SMALL_GRIDS, SMALL_GRAPHS];
        let mut bytes = seeds[which].replace("n = 8", "n = 5").into_bytes();
        for (at, kind, byte) in edits {
            let at = at % bytes.len();
            match kind {
                0 => bytes[at] = byte,
                1 => bytes.insert(at, byte),
                _ => { bytes.remove(at); }
            }
        }
        let text = String::from_utf8_lossy(&bytes).into_owned();
        // Mutations can make the model huge (n = 5838 queens); the limits
        // that refuse those are tested elsewhere, and solving them here
        // would take long.
        let small = somaria::puzzles::csp::load_puzzle(&Source::from_text("fuzz.toml", text.clone())).is_ok_and(|p| {
            p.model().num_scalars() <= 64
                && p.model().vars.iter().all(|v| v.domain.len() <= 64)
                && p.program().groups.len() <= 2000
        });
        if !small {
            return Ok(());
        }
        if let Ok(puzzle) = puzzles::load(&Source::from_text("fuzz.toml", text.clone())) {
            for engine in ["auto", "log", "eager"] {
                let options = SolveOptions { engine: Some(engine.into()), ..Default::default() };
                // A refusal (too large, or a global with no eager form) is
                // clean; a failed check or a bug is not.
                let clean = |e: &puzzles::Error| matches!(e, puzzles::Error::TooLarge(_) | puzzles::Error::BadRequest(_));
                let solved = puzzle.solve(&options);
                prop_assert!(solved.as_ref().err().is_none_or(clean), "{} {:?}", text, solved.err());
                let counted = puzzle.count(&CountOptions { engine: Some(engine.into()), limit: Some(20), ..Default::default() });
                prop_assert!(counted.as_ref().err().is_none_or(clean), "{} {:?}", text, counted.err());
                let explained = puzzle.explain(&options);
                prop_assert!(explained.as_ref().err().is_none_or(clean), "{} {:?}", text, explained.err());
            }
        }
    }
}

#[test]
fn the_solving_seeds_count_right_before_they_are_mutated() {
    // Otherwise the fuzzing above would only ever see refused models. The
    // graph seed: 11 connected arcs of the 5-cycle through node 1 (node 6
    // has no edge), 15 forests of 3 or 4 of its 5 edges, 16 ways to fill a
    // 2 x 3 grid with regions of sizes 1 to 3 (by enumeration of the 3^6
    // fillings), and 3 dominoes seen from the corner: 11 * 15 * 16 * 3.
    let seeds = [(SMALL_GRIDS, 252, ["auto", "eager"]), (SMALL_GRAPHS, 11 * 15 * 16 * 3, ["auto", "log"])];
    for (text, count, engines) in seeds {
        let puzzle = puzzles::load(&Source::from_text("seed.toml", text.to_string())).unwrap();
        for engine in engines {
            let counted = puzzle.count(&CountOptions { engine: Some(engine.into()), ..Default::default() }).unwrap();
            assert_eq!(counted.count, count, "{engine}\n{text}");
        }
    }
}

#[test]
fn a_generator_name_bound_twice_in_one_comprehension_is_refused_at_the_second() {
    let e = refused(constraint("forall(i in 1..2, i in 2..3)(x != i)"));
    assert_mentions(&e, &["bad.toml:12:27:", "the generator name `i` bound twice", "a different name for each"]);
    let e = refused(constraint("sum(i, i in 1..3)(i) = x"));
    assert_mentions(&e, &["bad.toml:12:16:", "`i` bound twice"]);
    // Nested comprehensions may reuse a name, as in MiniZinc.
    let dir = tempfile::tempdir().unwrap();
    let path = write_model(dir.path(), "ok.toml", constraint("forall(i in 1..2)(forall(i in 2..3)(x != i))"));
    somaria().arg("solve").arg(&path).assert().success();
}

#[test]
fn an_integer_beyond_64_bits_in_a_param_is_named_in_the_models_terms() {
    let text =
        "kind = \"csp\"\n[params]\nn = 99999999999999999999\n[vars]\nx = \"1..3\"\n[[constraint]]\nexpr = 'x = 1'\n";
    let e = refused(text);
    assert_mentions(&e, &["bad.toml:3:5:", "the integer 99999999999999999999"]);
    assert!(!e.contains("i128") && !e.contains("invalid type"), "serde's words: {e}");
}

#[test]
fn a_false_assertion_is_a_load_error_with_its_message_and_place() {
    let e = refused(constraint("assert(n mod 2 = 1, \"n must be odd\")"));
    assert_mentions(&e, &["bad.toml:12:9:", "the assertion \"n must be odd\", which does not hold"]);
    // Inside a forall, at the instance that fails; in a parameter's string.
    let e = refused(constraint("forall(i in 1..n)(assert(i < 8, \"i below 8\") /\\ q[i] > 0)"));
    assert_mentions(&e, &["bad.toml:12:27:", "\"i below 8\""]);
    let text = "kind = \"csp\"\n[params]\nn = 3\nm = 'assert(n > 5, \"n above five\", n div 2)'\n";
    assert_mentions(&refused(text), &["bad.toml:4:6:", "\"n above five\""]);
    // Over decision variables, or without a message in double quotes.
    let e = refused(constraint("assert(x > 1, \"x big\")"));
    assert_mentions(&e, &["bad.toml:12:16:", "a fixed condition: an assert checks parameters"]);
    let e = refused(constraint("assert(n > 1)"));
    assert_mentions(&e, &["bad.toml:12:21:", "the message of the assertion"]);
    let e = refused(constraint("assert(n > 1, \"open)"));
    assert_mentions(&e, &["bad.toml:12:23:", "an unclosed string"]);
    let e = refused(constraint("x = \"five\""));
    assert_mentions(&e, &["bad.toml:12:13:", "the string \"five\"", "the message of an assert"]);
}

#[test]
fn defined_variables_are_checked_where_they_are_declared() {
    let e = refused(model("z = { define = 'zz + 1' }\n"));
    assert_mentions(&e, &["bad.toml:11:17:", "unknown name `zz`"]);
    let e = refused(model("z = { define = 'q' }\n"));
    assert_mentions(&e, &["bad.toml:11:17:", "`q` of type array[int] of var int", "a single integer, enum or Boolean"]);
    let e = refused(model("z = { domain = \"bool\", define = 'x + 1' }\n"));
    assert_mentions(&e, &["bad.toml:11:16:", "a domain of bool", "a domain of int"]);
    let e = refused(model("z = { index = [\"1..2\"], define = 'x' }\n"));
    assert_mentions(&e, &["bad.toml:11:16:", "`index` beside `define`"]);
    let e = refused(model("z = { domain = \"1..2\", sum = 'x' }\n"));
    assert_mentions(&e, &["the unknown key `sum`", "`define`"]);
}

#[test]
fn partly_given_arrays_are_checked_entry_by_entry() {
    // Line 11 is the new declaration; its `given` array opens at column 50.
    let decl = |given: &str| model(&format!("g = {{ index = [\"1..3\"], domain = \"0..2\", given = {given} }}\n"));
    let e = refused(decl("[1, \"_\"]"));
    assert_mentions(&e, &["bad.toml:11:50:", "2 entries", "3 entries, one per index in 1..3"]);
    let e = refused(decl("[1, \"_\", 5]"));
    assert_mentions(&e, &["bad.toml:11:59:", "the given value 5", "a value of the domain 0..2"]);
    let e = refused(decl("[1, \"?\", 0]"));
    assert_mentions(&e, &["bad.toml:11:54:", "\"?\"", "an integer, or \"_\" for an unknown entry"]);
    let e = refused(decl("[1, true, 0]"));
    assert_mentions(&e, &["bad.toml:11:54:", "`true`", "an integer"]);
    let e = refused(decl("[[1], 2, 0]"));
    assert_mentions(&e, &["bad.toml:11:51:", "an array where the index calls for a value"]);
    let e = refused(decl("1"));
    assert_mentions(&e, &["bad.toml:11:50:", "a single value where the index calls for an array"]);
    // 2-D: one nested array per row, each as wide as the second index.
    let grid =
        |given: &str| model(&format!("g = {{ index = [\"1..2\", \"0..1\"], domain = \"bool\", given = {given} }}\n"));
    let e = refused(grid("[[true, \"_\"], [false]]"));
    assert_mentions(&e, &["bad.toml:11:72:", "1 entries", "2 entries, one per index in 0..1"]);
    let e = refused(grid("[true, false]"));
    assert_mentions(&e, &["bad.toml:11:59:", "a single value where the index calls for an array"]);
    let e = refused(grid("[[1, \"_\"], [\"_\", \"_\"]]"));
    assert_mentions(&e, &["bad.toml:11:60:", "the integer 1", "`true` or `false`"]);
    // Enum values by name; a single variable or a defined one takes no `given`.
    let e = refused(model("g = { index = [\"1..2\"], domain = \"Dir\", given = [\"up\", \"left\"] }\n"));
    assert_mentions(&e, &["bad.toml:11:56:", "\"left\"", "a value of Dir"]);
    let e = refused(model("g = { domain = \"1..3\", given = 2 }\n"));
    assert_mentions(&e, &["bad.toml:11:32:", "`given` on a single variable"]);
    let e = refused(model("g = { define = 'x + 1', given = [1] }\n"));
    assert_mentions(&e, &["bad.toml:11:33:", "`given` beside `define`"]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(fuzz_cases()))]

    /// Any nesting of integers, Booleans, strings and arrays as `given`
    /// loads or is refused with a place, for 1-D and 2-D arrays.
    #[test]
    fn arbitrary_given_entries_never_panic_the_loader(
        given in "[\\[\\]0-3_\",truefalsDiup ]{0,30}",
        two_d in any::<bool>(),
    ) {
        let index = if two_d { "\"1..2\", \"1..2\"" } else { "\"1..3\"" };
        let text = format!("{HEADER}g = {{ index = [{index}], domain = \"0..2\", given = {given} }}\n");
        prop_assert!(load_never_panics(&text).is_ok(), "{}", text);
    }
}

#[test]
fn let_misuse_is_refused_at_the_local() {
    // Line 12 is the expr line; the expression starts at column 9.
    let e = refused(constraint("not let { var 1..9: t } in t = x"));
    assert_mentions(
        &e,
        &["bad.toml:12:19:", "the local variable `t` without a definition, under `not`", "a definition"],
    );
    let e = refused(constraint("x + (let { var 1..9: t } in t) = 3"));
    assert_mentions(&e, &["bad.toml:12:20:", "`t` without a definition, under `+`"]);
    let e = refused(constraint("(let { var bool: t } in t) -> x = 1"));
    assert_mentions(&e, &["bad.toml:12:16:", "in the condition of `->`"]);
    let e = refused(constraint("sum(i in 1..2)(let { var 0..1: t } in t = 1) = x"));
    assert_mentions(&e, &["bad.toml:12:30:", "inside `sum`"]);
    let e = refused(constraint("let { var int: t } in t = x"));
    assert_mentions(&e, &["bad.toml:12:15:", "the unbounded local variable `var int: t`", "`var 1..9: t`"]);
    let e = refused(constraint("let { int: k } in x = k"));
    assert_mentions(&e, &["bad.toml:12:15:", "the local parameter `k` without a value"]);
    let e = refused(constraint("let { int: k = x } in x = k"));
    assert_mentions(&e, &["bad.toml:12:24:", "`x` that depends on decision variables", "or `var` before its type"]);
    let e = refused(constraint("let { bool: k = 3 } in k"));
    assert_mentions(&e, &["bad.toml:12:25:", "`3` of type int", "a value of type bool"]);
    let e = refused(constraint("let { var 1..9: t constraint t = 3 } in t = x"));
    assert_mentions(&e, &["bad.toml:12:27:", "`constraint`", "`;` before the next declaration"]);
    let e = refused(constraint("let { var 1..9: t } t = x"));
    assert_mentions(&e, &["bad.toml:12:29:", "`in` and the value of the `let`"]);
    let e = refused(constraint("let { array[1..2] of var 1..9: t } in true"));
    assert_mentions(&e, &["bad.toml:12:15:", "local arrays are not supported"]);
    let e = refused(constraint("let { var 1..9: t; var 1..9: u; var 1..9: v; var 1..9: w } in t + u + v + w = x"));
    assert_mentions(&e, &["bad.toml:12:54:", "more than 4096 ways"]);
    let e = refused(constraint("let { var 1..9: t } in t = zz"));
    assert_mentions(&e, &["bad.toml:12:36:", "unknown name `zz`"]);
    let text = "kind = \"csp\"\nminimize = 'let { var 1..3: t } in t + x'\n[vars]\nx = \"0..9\"\n";
    let e = refused(text);
    assert_mentions(&e, &["the local variable `t` without a definition, in the objective"]);
    let e = refused("kind = \"csp\"\n[params]\nlet = 3\n");
    assert_mentions(&e, &["the reserved name `let`"]);
}

#[test]
fn slices_and_set_operations_refuse_wrong_types_at_their_place() {
    // `q` is 1-D over 1..8; `x` a variable, `b` a Boolean, `d` a Dir.
    let e = refused(constraint("sum(q[x..3]) > 0"));
    assert_mentions(&e, &["bad.toml:12:15:", "depends on decision variables", "a fixed range bound"]);
    let e = refused(constraint("sum(q[{1, 3}]) > 0"));
    assert_mentions(&e, &["bad.toml:12:15:", "has gaps", "a contiguous range"]);
    let e = refused(constraint("sum(q[7..9]) > 0"));
    assert_mentions(&e, &["bad.toml:12:15:", "index 9 out of range", "1..8"]);
    let e = refused(constraint("sum(q[b]) > 0"));
    assert_mentions(&e, &["bad.toml:12:15:", "expected an index of type int, or a set of int to slice with"]);
    let e = refused(constraint("x in (q[1] union {2})"));
    assert_mentions(&e, &["bad.toml:12:15:", "a set such as `1..n`"]);
    let e = refused(constraint("card(x) = 1"));
    assert_mentions(&e, &["bad.toml:12:14:", "expected a fixed set"]);
    let e = refused(constraint("x = .."));
    assert_mentions(&e, &["bad.toml:12:"]);
    let e = refused(constraint("reverse(x) = 1"));
    assert_mentions(&e, &["bad.toml:12:17:", "expected a 1-D array"]);
    let e = refused(constraint("array1d(1..3, q)[1] = 1"));
    assert_mentions(&e, &["bad.toml:12:17:", "of 3 values", "8 values, one per element"]);
    let e = refused(constraint("d in ({up} union 1..2)"));
    assert_mentions(&e, &["bad.toml:12:"]);
}

#[test]
fn arrays_compared_need_the_same_index_sets_and_shape() {
    let e = refused(constraint("q = [1, 2, 3]"));
    assert_mentions(
        &e,
        &["bad.toml:12:9:", "arrays over the index sets [1..8] and [1..3]", "expected arrays over the same index sets"],
    );
    let e = refused(constraint("q[2..4] = array1d(1..3, [1, 2, 3])"));
    assert_mentions(&e, &["bad.toml:12:9:", "[2..4] and [1..3]"]);
    let e = refused(constraint("q = x"));
    assert_mentions(&e, &["bad.toml:12:13:", "an array of int with 1 dimension to compare with `=`"]);
    let e = refused(constraint("q != array2d(1..2, 1..4, q)"));
    assert_mentions(&e, &["bad.toml:12:14:", "with 1 dimension to compare with `!=`"]);
    let e = refused(constraint("q < reverse(q)"));
    assert_mentions(&e, &["bad.toml:12:9:", "a single value to compare with `<`"]);
}
