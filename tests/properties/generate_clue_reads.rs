//! `somaria generate` on csp templates whose constraints read the clue
//! arrays beyond "this cell shows that value": how many clues there are,
//! a parameter computed from them, a rule that holds only where a cell is
//! blank. Every puzzle made is recounted here by brute force over the
//! domains, with the rules written out in Rust (nothing shared with
//! somaria): exactly one solution, the one reported, whose values every
//! clue kept agrees with; with `--minimal`, no clue (or symmetric pair)
//! can be dropped keeping that solution the only one. Templates generate
//! cannot check exactly are refused with exit 2 at their place.

use crate::common;

use common::cli::{somaria, write_model};
use proptest::prelude::*;
use somaria::generate::{self, Drops, GenerateOptions, GenerateProgress, Generated, Symmetry};
use somaria::model::Source;
use somaria::puzzles::Error;
use somaria::puzzles::csp::designer::CspDesigner;

/// One constraint of a random template over `x[1..n]` and the clue array
/// `c[1..n]` (0 for no clue, `read = "x"`): its text, and its rule.
#[derive(Clone, Debug)]
enum Rule {
    /// `forall(i in 1..n where c[i] > 0)(x[i] OP c[i])`: the clues cell by
    /// cell, with `=`, `>=` or `<=`.
    Givens(&'static str),
    /// `alldifferent(x)`.
    AllDifferent,
    /// `x[a] < x[b]`.
    Less(usize, usize),
    /// With at least (`true`) or at most `k` clues, `x[a] < x[b]`.
    Counted(bool, i64, usize, usize),
    /// `c[a] = 0 -> x[a] != v`: a rule of a blank cell.
    WhereBlank(usize, i64),
    /// `c[a] > 0 /\ c[b] > 0 -> x[a] != x[b]`: a rule of two clues together.
    Both(usize, usize),
    /// `x[a] + k >= t`, with the parameter `k`, the number of clues.
    Derived(usize, i64),
}

impl Rule {
    fn text(&self) -> String {
        let count = "sum(i in 1..n)(bool2int(c[i] > 0))";
        match self {
            Rule::Givens(op) => format!("forall(i in 1..n where c[i] > 0)(x[i] {op} c[i])"),
            Rule::AllDifferent => "alldifferent(x)".to_string(),
            Rule::Less(a, b) => format!("x[{}] < x[{}]", a + 1, b + 1),
            Rule::Counted(true, k, a, b) => format!("{count} >= {k} -> x[{}] < x[{}]", a + 1, b + 1),
            Rule::Counted(false, k, a, b) => format!("{count} <= {k} -> x[{}] < x[{}]", a + 1, b + 1),
            Rule::WhereBlank(a, v) => format!("c[{}] = 0 -> x[{}] != {v}", a + 1, a + 1),
            Rule::Both(a, b) => format!("c[{}] > 0 /\\ c[{}] > 0 -> x[{}] != x[{}]", a + 1, b + 1, a + 1, b + 1),
            Rule::Derived(a, t) => format!("x[{}] + k >= {t}", a + 1),
        }
    }

    fn holds(&self, x: &[i64], c: &[i64]) -> bool {
        let clues = c.iter().filter(|&&v| v > 0).count() as i64;
        match *self {
            Rule::Givens(op) => x.iter().zip(c).filter(|(_, c)| **c > 0).all(|(&x, &c)| match op {
                "=" => x == c,
                ">=" => x >= c,
                _ => x <= c,
            }),
            Rule::AllDifferent => (0..x.len()).all(|i| (0..i).all(|j| x[i] != x[j])),
            Rule::Less(a, b) => x[a] < x[b],
            Rule::Counted(at_least, k, a, b) => {
                let active = if at_least { clues >= k } else { clues <= k };
                !active || x[a] < x[b]
            }
            Rule::WhereBlank(a, v) => c[a] != 0 || x[a] != v,
            Rule::Both(a, b) => !(c[a] > 0 && c[b] > 0) || x[a] != x[b],
            Rule::Derived(a, t) => x[a] + clues >= t,
        }
    }
}

/// A template: `n` variables over `1..m` and its rules.
#[derive(Clone, Debug)]
struct Template {
    n: usize,
    m: i64,
    rules: Vec<Rule>,
}

impl Template {
    fn text(&self) -> String {
        let n = self.n;
        let blanks = vec!["0"; n].join(", ");
        let mut text = format!("kind = \"csp\"\n[params]\nn = {n}\nc = [{blanks}]\n");
        if self.rules.iter().any(|r| matches!(r, Rule::Derived(..))) {
            text.push_str("k = \"sum(i in 1..n)(bool2int(c[i] > 0))\"\n");
        }
        text.push_str(&format!("[vars]\nx = {{ index = [\"1..n\"], domain = \"1..{}\" }}\n", self.m));
        for rule in &self.rules {
            text.push_str(&format!("[[constraint]]\nexpr = '{}'\n", rule.text()));
        }
        text.push_str("[[design.clue]]\nparam = \"c\"\nblank = 0\nread = \"x\"\n");
        text
    }

    /// Every solution of the puzzle with clues `c`, by trying every value
    /// of every variable.
    fn solutions(&self, c: &[i64]) -> Vec<Vec<i64>> {
        let (n, m) = (self.n as u32, self.m);
        (0..m.pow(n))
            .map(|code| (0..n).map(|i| code / m.pow(i) % m + 1).collect::<Vec<i64>>())
            .filter(|x| self.rules.iter().all(|r| r.holds(x, c)))
            .collect()
    }
}

/// The clue array of a generated model, read with the toml crate.
fn clues_of(model: &str) -> Vec<i64> {
    let table: toml::Table = toml::from_str(model).unwrap();
    table["params"]["c"].as_array().unwrap().iter().map(|v| v.as_integer().unwrap()).collect()
}

fn solution_of(puzzle: &Generated) -> Vec<i64> {
    puzzle.solution["x"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect()
}

/// The clue cells dropped together under `symmetry` in a row of `n`.
fn orbit(i: usize, n: usize, symmetry: Symmetry) -> Vec<usize> {
    match symmetry {
        Symmetry::None => vec![i],
        _ if n - 1 - i == i => vec![i],
        _ => vec![i, n - 1 - i],
    }
}

/// Recounts a generated puzzle by brute force: one solution, the one
/// reported, which every clue kept agrees with; with `minimal`, dropping
/// any clue (or symmetric pair) leaves another solution or none that is
/// the drawn one.
fn recount(template: &Template, puzzle: &Generated, minimal: bool, symmetry: Symmetry) -> Result<(), String> {
    let c = clues_of(&puzzle.model);
    let found = template.solutions(&c);
    let solution = solution_of(puzzle);
    if found != vec![solution.clone()] {
        return Err(format!("clues {c:?}: brute force finds {found:?}, generate says {solution:?}"));
    }
    if let Some(i) = (0..template.n).find(|&i| c[i] > 0 && c[i] != solution[i]) {
        return Err(format!("clues {c:?}: the clue at {} disagrees with the solution {solution:?}", i + 1));
    }
    if c.iter().filter(|&&v| v > 0).count() != puzzle.clues {
        return Err(format!("clues {c:?}: the report says {} clues", puzzle.clues));
    }
    if minimal {
        for i in (0..template.n).filter(|&i| c[i] > 0) {
            let mut fewer = c.clone();
            orbit(i, template.n, symmetry).into_iter().for_each(|j| fewer[j] = 0);
            if template.solutions(&fewer) == vec![solution.clone()] {
                return Err(format!("clues {c:?}: the clue at {} could be dropped", i + 1));
            }
        }
    }
    Ok(())
}

fn run(text: &str, options: &GenerateOptions) -> Vec<Result<Generated, Error>> {
    let designer = CspDesigner::new(&Source::from_text("t.toml", text)).unwrap_or_else(|e| panic!("{e}\n{text}"));
    generate::generate(&designer, options, &GenerateProgress::default()).unwrap()
}

/// The issue's first template: the clues cell by cell, and a rule that
/// holds once two clues are given.
fn two_clues_order() -> Template {
    Template { n: 3, m: 3, rules: vec![Rule::Givens("="), Rule::AllDifferent, Rule::Counted(true, 2, 0, 1)] }
}

/// The issue's second: a parameter computed from the clues.
fn derived_count() -> Template {
    Template { n: 4, m: 4, rules: vec![Rule::Givens("="), Rule::AllDifferent, Rule::Derived(0, 4)] }
}

#[test]
fn templates_that_count_their_clues_make_puzzles_the_brute_force_agrees_with() {
    for template in [two_clues_order(), derived_count()] {
        for minimal in [false, true] {
            let options = GenerateOptions { count: 24, seed: 2, minimal, ..GenerateOptions::default() };
            for result in run(&template.text(), &options) {
                let puzzle = result.unwrap_or_else(|e| panic!("{e}\n{}", template.text()));
                recount(&template, &puzzle, minimal, Symmetry::None)
                    .unwrap_or_else(|e| panic!("{e}\n{}", puzzle.model));
            }
        }
    }
}

/// The issue's command, `generate --seed 2`, was exit 4.
#[test]
fn the_issues_templates_are_exit_0_from_the_cli() {
    for template in [two_clues_order(), derived_count()] {
        let dir = tempfile::tempdir().unwrap();
        let path = write_model(dir.path(), "t.toml", template.text());
        for seed in ["0", "1", "2", "3"] {
            let out = somaria().args(["generate", path.to_str().unwrap(), "--seed", seed]).output().unwrap();
            assert_eq!(out.status.code(), Some(0), "seed {seed}: {}", String::from_utf8_lossy(&out.stderr));
        }
    }
}

/// A clue that bounds its cell (`x[i] >= c[i]`) rather than fixes it: the
/// checks state the bound, not "read = clue", so the puzzles are unique by
/// brute force (the checks once claimed a uniqueness the recount denied).
#[test]
fn a_clue_that_bounds_its_cell_is_checked_as_the_bound() {
    for op in [">=", "<="] {
        let template = Template { n: 4, m: 4, rules: vec![Rule::Givens(op), Rule::AllDifferent] };
        let options = GenerateOptions { count: 12, seed: 5, minimal: true, ..GenerateOptions::default() };
        for result in run(&template.text(), &options) {
            let puzzle = result.unwrap_or_else(|e| panic!("{e}\n{}", template.text()));
            assert!(puzzle.uniqueness.incremental);
            recount(&template, &puzzle, true, Symmetry::None).unwrap_or_else(|e| panic!("{e}\n{}", puzzle.model));
        }
    }
}

/// Clues read cell by cell narrow (the Sudoku's way); any other reading
/// anchors each check on the drawn solution.
#[test]
fn the_way_clues_are_read_decides_how_drops_act() {
    let drops = |template: &Template| {
        let designer = CspDesigner::new(&Source::from_text("t.toml", template.text())).unwrap();
        designer.reads().1
    };
    let cellwise = Template { n: 3, m: 3, rules: vec![Rule::Givens("="), Rule::AllDifferent, Rule::Less(0, 1)] };
    assert_eq!(drops(&cellwise), Drops::Narrow);
    assert_eq!(drops(&two_clues_order()), Drops::Anchored);
    assert_eq!(drops(&derived_count()), Drops::Anchored);
    let blank_rule = Template { n: 3, m: 3, rules: vec![Rule::Givens("="), Rule::WhereBlank(0, 1)] };
    assert_eq!(drops(&blank_rule), Drops::Anchored);
    // A parameter computed from the clues that no constraint reads, beside
    // an objective: nothing to anchor, so neither refused nor anchored.
    let unread = cellwise
        .text()
        .replace("[vars]", "unread = \"sum(c)\"\n[vars]")
        .replace("[params]", "minimize = 'x[1]'\n[params]");
    let designer = CspDesigner::new(&Source::from_text("t.toml", unread.as_str())).unwrap();
    assert_eq!(designer.reads().1, Drops::Narrow);
    assert!(designer.reads().0.derived.is_empty());
}

/// The kept solver and a fresh load of each check's text make the same
/// puzzles from a template that counts its clues, and a budget (which
/// checks on the text) makes unique ones.
#[test]
fn the_kept_solver_and_reloading_agree_on_templates_that_count_their_clues() {
    let template = Template {
        n: 4,
        m: 4,
        rules: vec![Rule::Givens("="), Rule::AllDifferent, Rule::Counted(false, 2, 1, 2), Rule::Both(0, 3)],
    };
    for minimal in [false, true] {
        let base = GenerateOptions { count: 10, seed: 7, minimal, ..GenerateOptions::default() };
        let kept: Vec<Generated> = run(&template.text(), &base).into_iter().map(Result::unwrap).collect();
        let reloaded: Vec<Generated> =
            run(&template.text(), &GenerateOptions { reload_each_check: true, ..base.clone() })
                .into_iter()
                .map(Result::unwrap)
                .collect();
        assert!(kept.iter().all(|g| g.uniqueness.incremental) && reloaded.iter().all(|g| !g.uniqueness.incremental));
        let texts = |run: &[Generated]| run.iter().map(|g| g.model.clone()).collect::<Vec<_>>();
        assert_eq!(texts(&kept), texts(&reloaded));
        let budget = GenerateOptions { budget: Some(std::time::Duration::from_secs(60)), ..base.clone() };
        for puzzle in
            kept.iter().chain(&run(&template.text(), &budget).into_iter().map(Result::unwrap).collect::<Vec<_>>())
        {
            recount(&template, puzzle, minimal, Symmetry::None).unwrap_or_else(|e| panic!("{e}\n{}", puzzle.model));
        }
    }
}

/// A template whose blank puzzle has no solution (it asks for two clues)
/// still makes puzzles: solutions are drawn without the rules that read
/// the clues.
#[test]
fn a_template_that_needs_clues_to_have_a_solution_makes_puzzles() {
    let text = "kind = \"csp\"\n[params]\nc = [0, 0, 0]\n[vars]\nx = { index = [\"1..3\"], domain = \"1..3\" }\n\
                [[constraint]]\nexpr = 'forall(i in 1..3 where c[i] > 0)(x[i] = c[i])'\n\
                [[constraint]]\nexpr = 'alldifferent(x)'\n\
                [[constraint]]\nexpr = 'sum(i in 1..3)(bool2int(c[i] > 0)) >= 2'\n\
                [[design.clue]]\nparam = \"c\"\nblank = 0\nread = \"x\"\n";
    let options = GenerateOptions { count: 6, seed: 1, minimal: true, ..GenerateOptions::default() };
    for result in run(text, &options) {
        let puzzle = result.unwrap();
        assert_eq!(puzzle.clues, 2, "{}", puzzle.model);
    }
}

fn refused(text: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = write_model(dir.path(), "t.toml", text);
    let out = somaria().args(["generate", path.to_str().unwrap()]).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(out.stdout.is_empty());
    stderr
}

/// What generate cannot check exactly is refused at its place: variables
/// declared by the clues, an objective or a `read` that reads them, and,
/// beside constraints that read which clues are present, a grid global
/// among them or an objective.
#[test]
fn templates_generate_cannot_check_exactly_are_refused_at_their_place() {
    let head = "kind = \"csp\"\n[params]\nc = [0, 0, 0]\n";
    let tail = "[[design.clue]]\nparam = \"c\"\nblank = 0\nread = \"x\"\n";
    let givens = "[[constraint]]\nexpr = 'forall(i in 1..3 where c[i] > 0)(x[i] = c[i])'\n";
    let x = "[vars]\nx = { index = [\"1..3\"], domain = \"1..3\" }\n";
    let cases = [
        (
            format!(
                "{head}m = \"max(c)\"\n[vars]\nx = {{ index = [\"1..3\"], domain = \"0..m + 3\" }}\n{givens}{tail}"
            ),
            "t.toml:6:1: the variable `x`, whose declaration reads the parameter `m`, computed from the clues",
        ),
        (
            format!("maximize = 'sum(i in 1..3)(c[i] * x[i])'\n{head}{x}{givens}{tail}"),
            "t.toml:1:12: an objective that reads the clue array `c`",
        ),
        (
            format!(
                "{head}{x}{givens}[[design.clue]]\nparam = \"c\"\nblank = 0\nread = \"[x[i] + c[i] | i in 1..3]\"\n"
            ),
            "t.toml:11:8: a `read` that reads the clue array `c`",
        ),
        (
            format!(
                "minimize = 'x[1]'\n{head}{x}{givens}[[constraint]]\n\
                 expr = 'sum(i in 1..3)(bool2int(c[i] > 0)) >= 2 -> x[1] < x[2]'\n{tail}"
            ),
            "t.toml:1:13: an objective beside \"constraint 1 (line 8)\", which reads the clue arrays",
        ),
    ];
    for (text, says) in cases {
        let stderr = refused(&text);
        assert!(stderr.contains(says), "{says}\n{stderr}\n{text}");
    }
    let grid = "kind = \"csp\"\n[params]\nc = \"[|0, 0 | 0, 0|]\"\n\
                [vars]\non = { index = [\"1..2\", \"1..2\"], domain = \"bool\" }\n\
                [[constraint]]\nexpr = 'forall(k in 1..1 where sum(i, j in 1..2)(bool2int(c[i, j] > 0)) >= 1)(grid_connected(on))'\n\
                [[design.clue]]\nparam = \"c\"\nblank = 0\nread = \"array2d(1..2, 1..2, [bool2int(on[i, j]) + 1 | i, j in 1..2])\"\n";
    let stderr = refused(grid);
    assert!(stderr.contains("t.toml:7:9: the grid global in \"constraint 1 (line 7)\""), "{stderr}");
}

fn rule(n: usize, m: i64) -> impl Strategy<Value = Rule> {
    let cell = 0..n;
    let pair = (0..n, 0..n).prop_filter("two cells", |(a, b)| a != b);
    prop_oneof![
        Just(Rule::AllDifferent),
        pair.clone().prop_map(|(a, b)| Rule::Less(a, b)),
        (any::<bool>(), 0..=n as i64, pair.clone()).prop_map(|(at_least, k, (a, b))| Rule::Counted(at_least, k, a, b)),
        (cell.clone(), 1..=m).prop_map(|(a, v)| Rule::WhereBlank(a, v)),
        pair.prop_map(|(a, b)| Rule::Both(a, b)),
        (cell, 2..=m + n as i64).prop_map(|(a, t)| Rule::Derived(a, t)),
    ]
}

fn template() -> impl Strategy<Value = Template> {
    (2usize..=4, 2i64..=4).prop_flat_map(|(n, m)| {
        let givens = prop::sample::select(vec!["=", "=", ">=", "<="]).prop_map(Rule::Givens);
        (givens, prop::collection::vec(rule(n, m), 0..=3)).prop_map(move |(givens, more)| Template {
            n,
            m,
            rules: std::iter::once(givens).chain(more).collect(),
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Random small templates, some of whose rules read the clue array
    /// (how many clues, two clues together, a blank cell, a parameter
    /// computed from them): every puzzle generate makes, on the kept
    /// solver or reloading each check, minimal or not, symmetric or not,
    /// has one solution by brute force, the one reported, which its clues
    /// agree with; a puzzle not made is a refusal of the template's own
    /// (no solution to draw, never unique), not an error of the checks; a
    /// template refused as needing no clue has one solution without them.
    #[test]
    fn generated_puzzles_of_random_templates_are_unique_by_brute_force(
        template in template(),
        seed in any::<u64>(),
        minimal in any::<bool>(),
        reload in any::<bool>(),
        symmetry in prop::sample::select(vec![Symmetry::None, Symmetry::Rot180, Symmetry::Mirror]),
    ) {
        let text = template.text();
        let options =
            GenerateOptions { count: 3, seed, minimal, symmetry, reload_each_check: reload, ..GenerateOptions::default() };
        for result in run(&text, &options) {
            match result {
                Ok(puzzle) => {
                    let checked = recount(&template, &puzzle, minimal, symmetry);
                    prop_assert!(checked.is_ok(), "{}\n{}", checked.unwrap_err(), puzzle.model);
                }
                Err(Error::NotMade(_)) => {}
                // Only a template with one solution before any clue.
                Err(Error::BadRequest(why)) if why.contains("one solution with no clue at all") => {
                    prop_assert_eq!(template.solutions(&vec![0; template.n]).len(), 1, "{}\n{}", why, text);
                }
                Err(e) => prop_assert!(false, "{e}\n{text}"),
            }
        }
    }
}
