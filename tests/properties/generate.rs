//! `somaria generate`: the same seed gives the same puzzles with one job or
//! two, the shards of a run make exactly its puzzles, every puzzle has one
//! solution by a brute force that shares nothing with the encoding (and with
//! `--minimal`, two or more once any one clue is dropped), `--difficulty`
//! keeps its range, and malformed design tables and options are refused
//! with exit 2 and their place.

use crate::common;

use std::collections::BTreeMap;
use std::sync::Arc;

use common::cli::{somaria, write_model};
use proptest::prelude::*;
use serde_json::Value;
use somaria::generate::{self, GenerateOptions, GenerateProgress, Generated, Shard, Symmetry};
use somaria::model::Source;
use somaria::puzzles::csp::designer::CspDesigner;
use somaria::puzzles::fans::designer::FansDesigner;
use somaria::puzzles::{self, CountOptions};

/// A 4 × 4 Sudoku (2 × 2 boxes) with no givens and a design table.
const SUDOKU4: &str = r#"kind = "csp"
title = "Sudoku 4 × 4"
show = ["cell"]

[params]
givens = [
  [0, 0, 0, 0],
  [0, 0, 0, 0],
  [0, 0, 0, 0],
  [0, 0, 0, 0],
]

[vars]
cell = { index = ["1..4", "1..4"], domain = "1..4" }

[[constraint]]
name = "the givens"
expr = 'forall(i, j in 1..4 where givens[i, j] > 0)(cell[i, j] = givens[i, j])'

[[constraint]]
expr = 'forall(i in 1..4)(alldifferent(row(cell, i)))'

[[constraint]]
expr = 'forall(j in 1..4)(alldifferent(col(cell, j)))'

[[constraint]]
expr = 'forall(r, c in 0..1)(alldifferent([cell[2 * r + i, 2 * c + j] | i, j in 1..2]))'

[[design.clue]]
param = "givens"
blank = 0
read = "cell"
"#;

/// A 4 × 4 slitherlink whose clues are a string holding `[| .. |]`.
fn slitherlink(n: usize) -> String {
    let row = vec!["-1"; n].join(", ");
    let rows = vec![row; n].join(" |\n  ");
    format!(
        r#"kind = "csp"
show = ["across", "down"]

[params]
clue = """[|
  {rows} |]"""

[vars]
on = {{ index = ["0..{n}", "0..{n}"], domain = "bool" }}
across = {{ index = ["0..{n}", "0..{m}"], domain = "bool" }}
down = {{ index = ["0..{m}", "0..{n}"], domain = "bool" }}

[[constraint]]
expr = 'grid_loop(on, across, down)'

[[constraint]]
expr = """forall(i in 1..{n}, j in 1..{n} where clue[i, j] >= 0)(
  bool2int(across[i-1, j-1]) + bool2int(across[i, j-1]) + bool2int(down[i-1, j-1]) + bool2int(down[i-1, j]) = clue[i, j])"""

[[design.clue]]
param = "clue"
blank = -1
read = "array2d(1..{n}, 1..{n}, [bool2int(across[i-1, j-1]) + bool2int(across[i, j-1]) + bool2int(down[i-1, j-1]) + bool2int(down[i-1, j]) | i, j in 1..{n}])"
"#,
        m = n - 1
    )
}

fn options(count: u64, seed: u64) -> GenerateOptions {
    GenerateOptions { count, seed, ..GenerateOptions::default() }
}

fn csp_run(text: &str, options: &GenerateOptions) -> Vec<Generated> {
    let designer = CspDesigner::new(&Source::from_text("m.toml", text)).unwrap();
    let results = generate::generate(&designer, options, &Arc::new(GenerateProgress::default())).unwrap();
    results.into_iter().map(|r| r.unwrap()).collect()
}

/// Every 4 × 4 Sudoku grid, by backtracking over the rules alone.
fn all_sudoku4() -> Vec<[u8; 16]> {
    fn fill(grid: &mut [u8; 16], at: usize, out: &mut Vec<[u8; 16]>) {
        if at == 16 {
            out.push(*grid);
            return;
        }
        let (r, c) = (at / 4, at % 4);
        for v in 1..=4 {
            let clash = (0..at).any(|k| {
                let (r2, c2) = (k / 4, k % 4);
                grid[k] == v && (r2 == r || c2 == c || (r2 / 2 == r / 2 && c2 / 2 == c / 2))
            });
            if !clash {
                grid[at] = v;
                fill(grid, at + 1, out);
            }
        }
        grid[at] = 0;
    }
    let mut out = Vec::new();
    fill(&mut [0; 16], 0, &mut out);
    out
}

/// The `givens` of a generated 4 × 4 Sudoku, read from its text by TOML.
fn givens_of(model: &str) -> Vec<u8> {
    let table: toml::Table = toml::from_str(model).unwrap();
    let rows = table["params"]["givens"].as_array().unwrap();
    rows.iter().flat_map(|r| r.as_array().unwrap().iter().map(|v| v.as_integer().unwrap() as u8)).collect()
}

fn grids_agreeing(all: &[[u8; 16]], givens: &[u8]) -> Vec<[u8; 16]> {
    all.iter().filter(|g| givens.iter().zip(g.iter()).all(|(&c, &v)| c == 0 || c == v)).copied().collect()
}

fn count_text(text: &str) -> u64 {
    let puzzle = puzzles::load(&Source::from_text("g.toml", text)).unwrap();
    puzzle.count(&CountOptions::default()).unwrap().count
}

#[test]
fn sudoku_puzzles_have_one_solution_by_brute_force_and_minimal_ones_lose_it_with_any_clue() {
    let all = all_sudoku4();
    assert_eq!(all.len(), 288);
    for minimal in [false, true] {
        let run = csp_run(SUDOKU4, &GenerateOptions { minimal, ..options(12, 3) });
        assert_eq!(run.len(), 12);
        for puzzle in &run {
            let givens = givens_of(&puzzle.model);
            assert_eq!(givens.iter().filter(|&&g| g > 0).count(), puzzle.clues);
            let agreeing = grids_agreeing(&all, &givens);
            assert_eq!(agreeing.len(), 1, "{}", puzzle.model);
            let wanted: Vec<u8> = puzzle.solution["cell"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|r| r.as_array().unwrap().iter().map(|v| v.as_u64().unwrap() as u8))
                .collect();
            assert_eq!(agreeing[0].to_vec(), wanted, "the solution the clues were read from");
            assert_eq!(puzzle.uniqueness.recount.count, 1);
            if minimal {
                for k in (0..16).filter(|&k| givens[k] > 0) {
                    let mut fewer = givens.clone();
                    fewer[k] = 0;
                    assert!(grids_agreeing(&all, &fewer).len() >= 2, "clue {k} could be dropped: {}", puzzle.model);
                }
            }
        }
    }
}

/// A list clue (`list = true`) is a whole row of its array: a Sudoku's
/// givens as four row clues are kept or dropped a row at a time, never a
/// digit alone; the puzzles are unique by the brute force, with
/// `--minimal` no row left can be dropped, and `rot180` keeps rows in
/// pairs (row r with row 5 - r).
#[test]
fn list_clues_are_kept_and_dropped_whole() {
    let all = all_sudoku4();
    let rows = SUDOKU4.replace("blank = 0\nread", "blank = 0\nlist = true\nread");
    for (minimal, symmetry) in [(false, Symmetry::None), (true, Symmetry::None), (false, Symmetry::Rot180)] {
        let run = csp_run(&rows, &GenerateOptions { minimal, symmetry, ..options(8, 7) });
        assert_eq!(run.len(), 8);
        for puzzle in &run {
            let givens = givens_of(&puzzle.model);
            let kept: Vec<bool> = givens.chunks(4).map(|row| row.iter().all(|&g| g > 0)).collect();
            for row in givens.chunks(4) {
                assert!(row.iter().all(|&g| g > 0) || row.iter().all(|&g| g == 0), "a row split: {}", puzzle.model);
            }
            assert_eq!(kept.iter().filter(|&&k| k).count(), puzzle.clues, "one clue a row");
            assert_eq!(grids_agreeing(&all, &givens).len(), 1, "{}", puzzle.model);
            if minimal {
                for r in (0..4).filter(|&r| kept[r]) {
                    let mut fewer = givens.clone();
                    fewer[4 * r..4 * r + 4].fill(0);
                    assert!(grids_agreeing(&all, &fewer).len() >= 2, "row {r} could be dropped: {}", puzzle.model);
                }
            }
            if symmetry == Symmetry::Rot180 {
                assert!((0..4).all(|r| kept[r] == kept[3 - r]), "rows kept in pairs: {kept:?}");
            }
        }
    }
}

/// A design may search its clues (`values` in place of `read`) rather
/// than read them off a drawn solution: the puzzles are still unique by the
/// brute force, their clues are values the design allows, and with
/// `--minimal` no clue left can be dropped.
#[test]
fn searched_sudoku_clues_give_puzzles_with_one_solution_by_brute_force() {
    let all = all_sudoku4();
    let template = SUDOKU4.replace("read = \"cell\"", "values = \"2..4\"");
    for minimal in [false, true] {
        let designer = puzzles::designer(&Source::from_text("m.toml", template.as_str())).unwrap();
        let options = GenerateOptions { minimal, ..options(6, 5) };
        let run = generate::generate(designer.as_ref(), &options, &Arc::new(GenerateProgress::default())).unwrap();
        for puzzle in run.into_iter().map(|r| r.unwrap()) {
            let givens = givens_of(&puzzle.model);
            assert!(givens.iter().all(|&g| g != 1), "a 1 is no value the design allows: {}", puzzle.model);
            assert_eq!(givens.iter().filter(|&&g| g > 0).count(), puzzle.clues);
            assert_eq!(grids_agreeing(&all, &givens).len(), 1, "{}", puzzle.model);
            if minimal {
                for k in (0..16).filter(|&k| givens[k] > 0) {
                    let mut fewer = givens.clone();
                    fewer[k] = 0;
                    assert!(grids_agreeing(&all, &fewer).len() >= 2, "clue {k} could be dropped: {}", puzzle.model);
                }
            }
        }
    }
    // The search starts from the template's clues, which must allow a solution.
    let stuck = template.replace("  [0, 0, 0, 0],\n]", "  [1, 1, 0, 0],\n]");
    let designer = puzzles::designer(&Source::from_text("m.toml", stuck.as_str())).unwrap();
    let made = generate::generate(designer.as_ref(), &options(1, 1), &Arc::new(GenerateProgress::default()));
    let why = match made {
        Ok(results) => results.into_iter().next().unwrap().err().unwrap().to_string(),
        Err(e) => e.to_string(),
    };
    assert!(why.contains("the template's clues give no solution"), "{why}");
}

#[test]
fn the_same_seed_gives_the_same_puzzles_with_one_job_or_two() {
    let one = csp_run(SUDOKU4, &GenerateOptions { jobs: 1, ..options(8, 11) });
    let two = csp_run(SUDOKU4, &GenerateOptions { jobs: 2, ..options(8, 11) });
    let again = csp_run(SUDOKU4, &GenerateOptions { jobs: 2, ..options(8, 11) });
    let texts = |run: &[Generated]| run.iter().map(|g| (g.index, g.model.clone())).collect::<Vec<_>>();
    assert_eq!(texts(&one), texts(&two));
    assert_eq!(texts(&two), texts(&again));
    let other = csp_run(SUDOKU4, &GenerateOptions { jobs: 1, ..options(8, 12) });
    assert_ne!(texts(&one), texts(&other), "another seed, other puzzles");
    let distinct: std::collections::BTreeSet<Vec<u8>> = one.iter().map(|g| givens_of(&g.model)).collect();
    assert!(distinct.len() >= 6, "puzzles of one run differ: {}", distinct.len());
}

#[test]
fn the_union_of_three_shards_is_the_unsharded_run() {
    let whole = csp_run(SUDOKU4, &options(7, 5));
    let mut union: BTreeMap<u64, String> = BTreeMap::new();
    for index in 0..3 {
        let shard = csp_run(SUDOKU4, &GenerateOptions { shard: Shard { index, of: 3 }, ..options(7, 5) });
        assert!(shard.iter().all(|g| g.index % 3 == index));
        for g in shard {
            assert!(union.insert(g.index, g.model).is_none(), "each index in one shard");
        }
    }
    let whole: BTreeMap<u64, String> = whole.into_iter().map(|g| (g.index, g.model)).collect();
    assert_eq!(union, whole);
}

#[test]
fn the_cli_makes_the_same_json_lines_with_jobs_and_shards() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_model(dir.path(), "sudoku4.toml", SUDOKU4);
    let lines = |extra: &[&str]| -> Vec<Value> {
        let out = somaria()
            .arg("generate")
            .arg(&path)
            .args(["--count", "6", "--seed", "9", "--minimal", "--format", "json"])
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
    };
    let models = |v: &[Value]| v.iter().map(|p| (p["index"].as_u64().unwrap(), p["model"].clone())).collect::<Vec<_>>();
    let one = lines(&["--jobs", "1"]);
    assert_eq!(one.len(), 6);
    assert_eq!(models(&one), models(&lines(&["--jobs", "2"])));
    let mut sharded: Vec<(u64, Value)> = (0..3).flat_map(|i| models(&lines(&["--shard", &format!("{i}/3")]))).collect();
    sharded.sort_by_key(|(k, _)| *k);
    assert_eq!(models(&one), sharded);
    for p in &one {
        assert_eq!(count_text(p["model"].as_str().unwrap()), 1, "a fresh count of the written text");
        assert_eq!(p["uniqueness"]["recount"]["count"], 1);
        assert!(p["clues"].as_u64().unwrap() <= p["clues_drawn"].as_u64().unwrap());
    }
    // -o DIR writes one model per puzzle, each of which loads and counts 1.
    let out_dir = dir.path().join("out");
    let out = somaria().arg("generate").arg(&path).args(["--count", "2", "-o"]).arg(&out_dir).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    for k in 0..2 {
        let text = std::fs::read_to_string(out_dir.join(format!("sudoku4-{k:04}.toml"))).unwrap();
        assert_eq!(count_text(&text), 1);
    }
    assert_eq!(std::fs::read_to_string(&path).unwrap(), SUDOKU4, "the template is untouched");
}

#[test]
fn slitherlinks_keep_their_string_clues_and_have_one_loop() {
    let template = slitherlink(4);
    for symmetry in [Symmetry::None, Symmetry::Rot180] {
        let run = csp_run(&template, &GenerateOptions { minimal: true, symmetry, ..options(3, 2) });
        for puzzle in &run {
            assert!(puzzle.model.contains("clue = \"\"\"[|\n"), "{}", puzzle.model);
            assert_eq!(count_text(&puzzle.model), 1);
            let source = Source::from_text("g.toml", puzzle.model.clone());
            let loaded = puzzles::csp::load_puzzle(&source).unwrap();
            let param = &loaded.model().params[loaded.design().unwrap().clues[0].param];
            let somaria::lang::model::Value::Array(array) = &param.value else { panic!("an array") };
            let clues: Vec<bool> = array.elems.iter().map(|v| *v != somaria::lang::model::Value::Int(-1)).collect();
            assert_eq!(clues.iter().filter(|&&c| c).count(), puzzle.clues);
            if symmetry == Symmetry::Rot180 {
                assert!((0..16).all(|k| clues[k] == clues[15 - k]), "symmetric: {}", puzzle.model);
            }
        }
    }
}

#[test]
fn fans_grids_have_one_orientation_and_minimal_ones_lose_it_with_any_weathercock() {
    let template = "kind = \"fans\"\ngrid = \"\"\"\nF....\n.....\n..F..\n.#...\nF...F\n\"\"\"\n";
    let designer = FansDesigner::new(&Source::from_text("f.toml", template)).unwrap();
    let run = generate::generate(
        &designer,
        &GenerateOptions { minimal: true, ..options(6, 4) },
        &Arc::new(GenerateProgress::default()),
    )
    .unwrap();
    let mut made = 0;
    for puzzle in run.into_iter().flatten() {
        made += 1;
        assert_eq!(count_text(&puzzle.model), 1, "{}", puzzle.model);
        let table: toml::Table = toml::from_str(&puzzle.model).unwrap();
        let grid = table["grid"].as_str().unwrap().to_string();
        assert_eq!(grid.trim().lines().count(), 5);
        for (k, _) in grid.char_indices().filter(|(_, c)| *c == 'W') {
            let mut fewer = grid.clone();
            fewer.replace_range(k..k + 1, ".");
            let text = format!("kind = \"fans\"\ngrid = \"\"\"{fewer}\"\"\"\n");
            assert!(count_text(&text) >= 2, "weathercock at {k} could be dropped:\n{grid}");
        }
    }
    assert!(made >= 3, "most fans puzzles are made: {made}");
}

#[test]
fn difficulty_keeps_puzzles_in_its_range() {
    let run = csp_run(SUDOKU4, &GenerateOptions { minimal: true, difficulty: Some((1, 1)), ..options(3, 8) });
    for puzzle in &run {
        let rating = puzzle.rating.as_ref().unwrap();
        assert_eq!(rating.largest, 1);
        // Rated again from the text alone.
        let again = generate::rate("g.toml", &puzzle.model, &GenerateOptions::default()).unwrap();
        assert_eq!(again.largest, rating.largest);
    }
    let dir = tempfile::tempdir().unwrap();
    let path = write_model(dir.path(), "s.toml", SUDOKU4);
    let out = somaria()
        .arg("generate")
        .arg(&path)
        .args(["--count", "2", "--difficulty", "0..1", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let p: Value = serde_json::from_str(line).unwrap();
        assert!(p["rating"]["largest"].as_u64().unwrap() <= 1);
    }
}

#[test]
fn a_tiny_budget_keeps_clues_and_still_makes_unique_puzzles() {
    let template = slitherlink(4);
    let budget = Some(std::time::Duration::from_micros(1000));
    let run = csp_run(&template, &GenerateOptions { minimal: true, budget, ..options(2, 1) });
    for puzzle in &run {
        assert_eq!(count_text(&puzzle.model), 1);
        assert!(puzzle.uniqueness.checks >= 1);
    }
}

/// Runs `generate` on a file `bad.toml` holding `text`; exit 2, nothing on
/// stdout, and stderr, which is returned.
fn refused(text: &str, args: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = write_model(dir.path(), "bad.toml", text);
    let out = somaria().arg("generate").arg(&path).args(args).output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(out.stdout.is_empty());
    stderr
}

/// Design tables refused at load, each in place of the 4 x 4 Sudoku's:
/// the table, the place (`:line:column:`) and words of the message.
const MALFORMED_TABLES: &[(&str, &str, &str)] = &[
    ("[[design.clue]]\nparam = \"given\"\nblank = 0\nread = \"cell\"\n", ":30:9:", "did you mean `givens`?"),
    ("[[design.clue]]\nparam = \"cell\"\nblank = 0\nread = \"cell\"\n", ":30:9:", "a decision variable"),
    ("[[design.clue]]\nparam = \"givens\"\nblank = true\nread = \"cell\"\n", ":31:9:", "blank as bool"),
    ("[[design.clue]]\nparam = \"givens\"\nblank = 0\nread = \"row(cell, 1)\"\n", ":32:9:", "index of `givens`"),
    (
        "[[design.clue]]\nparam = \"givens\"\nblank = 0\nread = \"array2d(1..4, 1..4, [cell[i, j] > 1 | i, j in 1..4])\"\n",
        ":32:9:",
        "bool2int",
    ),
    (
        "[[design.clue]]\nparam = \"givens\"\nblank = 0\nread = \"array2d(0..3, 1..4, [cell[i+1, j] | i in 0..3, j in 1..4])\"\n",
        ":32:9:",
        "read over [0..3, 1..4]",
    ),
    ("[[design.clue]]\nparam = \"givens\"\nblank = 0\nread = \"cel\"\n", ":32:9:", "unknown name `cel`"),
    ("[[design.clue]]\nparam = \"givens\"\nblank = 0\nread = \"cell\"\nfill = 1\n", ":33:1:", "unknown field `fill`"),
    (
        "[[design.clue]]\nparam = \"givens\"\nblank = 0\nread = \"cell\"\n[[design.clue]]\nparam = \"givens\"\nblank = 0\nread = \"cell\"\n",
        ":34:9:",
        "a second clue array",
    ),
    ("[design]\n", "bad.toml:29:1:", "no clue array"),
    ("[[design.clue]]\nparam = \"givens\"\nblank = 0\n", ":30:9:", "neither `read` nor `values`"),
    (
        "[[design.clue]]\nparam = \"givens\"\nblank = 0\nread = \"cell\"\nvalues = \"1..4\"\n",
        ":33:10:",
        "both `read` and `values`",
    ),
    ("[[design.clue]]\nparam = \"givens\"\nblank = 0\nvalues = \"0..0\"\n", ":32:11:", "no value but the blank"),
    ("[[design.clue]]\nparam = \"givens\"\nblank = 0\nvalues = \"true\"\n", ":32:11:", "values as"),
    ("[[design.clue]]\nparam = \"givens\"\nblank = 0\nvalues = \"cell[1, 1]\"\n", ":32:", "values"),
    (
        "[[design.clue]]\nparam = \"givens\"\nblank = 0\nvalues = \"1..4\"\n[[design.clue]]\nparam = \"givens\"\nblank = 0\nread = \"cell\"\n",
        ":34:9:",
        "`values` as the first clue array has",
    ),
    ("[[design.clue]]\nparam = \"givens\"\nread = \"cell\"\n", ":30:9:", "with no `blank`"),
    ("[[design.clue]]\nparam = \"givens\"\nblank = 0\nregions = true\n", ":31:9:", "`blank` with `regions = true`"),
    (
        "[[design.clue]]\nparam = \"givens\"\nregions = true\nread = \"cell\"\n",
        ":32:8:",
        "`read` with `regions = true`",
    ),
    (
        "[[design.clue]]\nparam = \"givens\"\nblank = 0\nread = \"cell\"\ncount = \"givens\"\n",
        ":33:9:",
        "`count` without `regions = true`",
    ),
    (
        "[[design.clue]]\nparam = \"givens\"\nregions = true\ncount = \"givens\"\n",
        ":32:9:",
        "count = \"givens\"; expected the name of an integer param",
    ),
    ("[[design.clue]]\nparam = \"line\"\nregions = true\n", ":31:9:", "param = \"line\", an array of 1 dimension"),
    (
        "[[design.clue]]\nparam = \"givens\"\nregions = true\n[[design.clue]]\nparam = \"line\"\nblank = 0\nread = \"[cell[1, 1], cell[1, 2]]\"\n",
        ":34:9:",
        "`regions` as the first clue array has",
    ),
    (
        "[[design.clue]]\nparam = \"givens\"\nregions = true\nlist = true\n",
        ":32:8:",
        "`list = true` with `regions = true`",
    ),
    // A list clue is read off a solution: a search would change an
    // entry alone.
    (
        "[[design.clue]]\nparam = \"givens\"\nblank = 0\nlist = true\nvalues = \"1..4\"\n",
        ":32:8:",
        "list = true on `givens`, whose clues are searched",
    ),
    ("[[design.clue]]\nparam = \"givens\"\nblank = 0\nlist = 1\nread = \"cell\"\n", ":32:8:", "expected true or false"),
];

#[test]
fn malformed_design_tables_are_refused_at_their_place() {
    let with =
        |table: &str| SUDOKU4.replace("[[design.clue]]\nparam = \"givens\"\nblank = 0\nread = \"cell\"\n", table);
    let cases = MALFORMED_TABLES;
    // A 1-D param beside the givens, for the cases that name one (a line
    // above the table, which moves its places one line down).
    let with = |table: &str| match table.contains("\"line\"") {
        true => with(table).replace("[params]\n", "[params]\nline = [0, 0]\n"),
        false => with(table),
    };
    for (table, place, words) in cases {
        let stderr = refused(&with(table), &[]);
        assert!(stderr.starts_with("error: ") && stderr.lines().count() == 1, "{stderr}");
        assert!(stderr.contains(place) && stderr.contains(words), "{table}: {stderr}");
        // Every command refuses it alike.
        let dir = tempfile::tempdir().unwrap();
        let path = write_model(dir.path(), "bad.toml", with(table));
        let solve = somaria().arg("solve").arg(&path).output().unwrap();
        assert_eq!(solve.status.code(), Some(2));
    }
    // A list runs along the last index of an array of two dimensions or more.
    let one_dimension =
        with("[[design.clue]]\nparam = \"corner\"\nblank = 0\nlist = true\nread = \"[cell[1, j] | j in 1..4]\"\n")
            .replace("[vars]", "corner = [0, 0, 0, 0]\n\n[vars]");
    let stderr = refused(&one_dimension, &[]);
    assert!(stderr.contains(":34:8:") && stderr.contains("an array of one dimension"), "{stderr}");
    let no_design = SUDOKU4.split("[[design.clue]]").next().unwrap();
    assert!(refused(no_design, &[]).contains("without a [design] table"));
    // Every kind has a designer; a template one cannot keep is refused.
    let keys = std::fs::read_to_string("models/keys-doors/two-walkers.toml").unwrap();
    assert!(refused(&keys, &[]).contains("a second walker"));
}

#[test]
fn malformed_options_are_refused() {
    for (args, words) in [
        (&["--shard", "3/3"][..], "0 <= I < N"),
        (&["--shard", "1"][..], "I/N"),
        (&["--difficulty", "3..1"][..], "LO <= HI"),
        (&["--difficulty", "x"][..], "LO..HI"),
        (&["--symmetry", "diagonal"][..], "rot180"),
        (&["--budget", "0"][..], "seconds"),
        (&["--count", "0"][..], "count"),
        (&["--jobs", "0"][..], "jobs"),
    ] {
        let stderr = refused(SUDOKU4, args);
        assert!(stderr.contains(words), "{args:?}: {stderr}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A design table of any of these pieces loads or is refused with a
    /// place in the file; it never panics.
    #[test]
    fn design_tables_load_or_are_refused_with_a_place(
        param in prop::sample::select(vec!["givens", "cell", "nothing", "", "1"]),
        blank in prop::sample::select(vec!["0", "-1", "true", "\"x\"", "[1]", "\"1 +\""]),
        read in prop::sample::select(vec!["cell", "givens", "row(cell, 1)", "cell[1, 1]", "[|1|]", "cell +", ""]),
    ) {
        let table = format!("[[design.clue]]\nparam = \"{param}\"\nblank = {blank}\nread = \"{read}\"\n");
        let text = SUDOKU4.replace("[[design.clue]]\nparam = \"givens\"\nblank = 0\nread = \"cell\"\n", &table);
        match somaria::lang::load_model(&Source::from_text("m.toml", text)) {
            Ok((model, _)) => prop_assert!(model.design.is_some()),
            Err(e) => prop_assert!(e.to_string().starts_with("m.toml:"), "{}", e),
        }
    }
}

/// The routes of a tile-cover grid (rows of `S`, `.`, `#`) that leave at
/// most `leave` tiles, up to `limit`, by a depth-first walk that shares
/// nothing with the encodings; with the first route's tiles.
fn routes(grid: &[Vec<char>], leave: usize, limit: usize) -> (usize, Option<Vec<(usize, usize)>>) {
    fn walk(
        grid: &[Vec<char>],
        at: (usize, usize),
        seen: &mut Vec<Vec<bool>>,
        path: &mut Vec<(usize, usize)>,
        need: usize,
        found: &mut (usize, Option<Vec<(usize, usize)>>),
        limit: usize,
    ) {
        if found.0 >= limit {
            return;
        }
        if path.len() >= need {
            found.0 += 1;
            found.1.get_or_insert_with(|| path.clone());
        }
        let (r, c) = at;
        for (dr, dc) in [(-1i64, 0i64), (1, 0), (0, -1), (0, 1)] {
            let (nr, nc) = (r as i64 + dr, c as i64 + dc);
            if nr < 0 || nc < 0 || nr as usize >= grid.len() || nc as usize >= grid[0].len() {
                continue;
            }
            let next = (nr as usize, nc as usize);
            if grid[next.0][next.1] != '.' || seen[next.0][next.1] {
                continue;
            }
            seen[next.0][next.1] = true;
            path.push(next);
            walk(grid, next, seen, path, need, found, limit);
            path.pop();
            seen[next.0][next.1] = false;
        }
    }
    let tiles = grid.iter().flatten().filter(|&&c| c == '.').count();
    let start = (0..grid.len()).flat_map(|r| (0..grid[0].len()).map(move |c| (r, c))).find(|&(r, c)| grid[r][c] == 'S');
    let mut seen = vec![vec![false; grid[0].len()]; grid.len()];
    let mut found = (0, None);
    // A route stops anywhere once it covers enough; each stop is a route.
    walk(grid, start.unwrap(), &mut seen, &mut Vec::new(), tiles.saturating_sub(leave), &mut found, limit);
    found
}

fn grid_of(model: &str) -> Vec<Vec<char>> {
    let table: toml::Table = toml::from_str(model).unwrap();
    table["grid"].as_str().unwrap().trim().lines().map(|l| l.chars().collect()).collect()
}

fn tile_template(rows: usize, cols: usize, start: (usize, usize), leave: usize) -> String {
    let mut grid = vec![vec!['.'; cols]; rows];
    grid[start.0][start.1] = 'S';
    grid[rows - 1][cols - 1] = '#';
    let lines: Vec<String> = grid.iter().map(|r| r.iter().collect()).collect();
    format!(
        "kind = \"tile-cover\"\ntitle = \"template\"\nleave_uncovered = {leave}\ngrid = \"\"\"\n{}\n\"\"\"\n",
        lines.join("\n")
    )
}

fn tile_run(text: &str, options: &GenerateOptions) -> Vec<Generated> {
    let designer = somaria::puzzles::designer(&Source::from_text("room.toml", text)).unwrap();
    let results = generate::generate(designer.as_ref(), options, &GenerateProgress::default()).unwrap();
    results.into_iter().map(|r| r.unwrap()).collect()
}

#[test]
fn tile_cover_rooms_have_one_route_by_brute_force_and_minimal_ones_keep_no_wall_they_could_lose() {
    for (rows, cols, start, leave) in [(5, 5, (0, 0), 0), (6, 5, (2, 3), 0), (5, 6, (1, 1), 1), (6, 6, (3, 0), 1)] {
        let template = tile_template(rows, cols, start, leave);
        for minimal in [false, true] {
            let run = tile_run(&template, &GenerateOptions { minimal, ..options(6, 21) });
            assert_eq!(run.len(), 6);
            let mut grown = 0;
            for puzzle in &run {
                let grid = grid_of(&puzzle.model);
                assert_eq!((grid.len(), grid[0].len()), (rows, cols), "the template's size");
                assert_eq!(grid[start.0][start.1], 'S', "the template's start");
                assert!(puzzle.model.contains(&format!("leave_uncovered = {leave}\n")));
                let walls = grid.iter().flatten().filter(|&&c| c == '#').count();
                assert_eq!(walls, puzzle.clues);
                grown += usize::from(puzzle.clues < puzzle.clues_drawn);
                let (count, route) = routes(&grid, leave, 2);
                assert_eq!(count, 1, "{}", puzzle.model);
                let path: Vec<(usize, usize)> = puzzle.solution["path"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|p| (p[0].as_u64().unwrap() as usize, p[1].as_u64().unwrap() as usize))
                    .collect();
                assert_eq!(Some(path), route, "the solution given is the one route");
                assert_eq!(count_text(&puzzle.model), 1);
                if minimal {
                    for (r, c) in (0..rows).flat_map(|r| (0..cols).map(move |c| (r, c))) {
                        if grid[r][c] == '#' {
                            let mut opened = grid.clone();
                            opened[r][c] = '.';
                            assert_ne!(routes(&opened, leave, 2).0, 1, "wall {r},{c} could go: {}", puzzle.model);
                        }
                    }
                }
            }
            assert!(grown >= 3, "walls are dropped: {grown} of 6 rooms grew");
        }
    }
}

#[test]
fn tile_cover_rooms_are_the_same_with_one_job_or_two_and_across_three_shards() {
    let template = tile_template(6, 6, (0, 2), 0);
    let texts = |run: Vec<Generated>| run.into_iter().map(|g| (g.index, g.model)).collect::<BTreeMap<_, _>>();
    let one = texts(tile_run(&template, &GenerateOptions { jobs: 1, minimal: true, ..options(9, 4) }));
    let two = texts(tile_run(&template, &GenerateOptions { jobs: 2, minimal: true, ..options(9, 4) }));
    assert_eq!(one, two);
    let mut union = BTreeMap::new();
    for index in 0..3 {
        let shard = GenerateOptions { shard: Shard { index, of: 3 }, minimal: true, ..options(9, 4) };
        for (k, model) in texts(tile_run(&template, &shard)) {
            assert_eq!(k % 3, index);
            assert!(union.insert(k, model).is_none());
        }
    }
    assert_eq!(union, one);
    let distinct: std::collections::BTreeSet<&String> = one.values().collect();
    assert!(distinct.len() >= 7, "rooms of one run differ: {}", distinct.len());
}

#[test]
fn the_cli_makes_tile_cover_rooms_as_json_lines() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_model(dir.path(), "room.toml", tile_template(6, 6, (5, 0), 0));
    let out = somaria()
        .arg("generate")
        .arg(&path)
        .args(["--count", "3", "--seed", "2", "--minimal", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let lines: Vec<Value> =
        String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.iter().map(|p| p["index"].as_u64().unwrap()).collect::<Vec<_>>(), vec![0, 1, 2]);
    for p in &lines {
        let model = p["model"].as_str().unwrap();
        assert_eq!(routes(&grid_of(model), 0, 2).0, 1, "{model}");
        assert_eq!(p["uniqueness"]["recount"]["count"], 1);
    }
}

#[test]
fn a_design_title_replaces_the_templates_or_is_added() {
    let titled = SUDOKU4.replace("[[design.clue]]", "[design]\ntitle = \"A new \\\"4 × 4\\\"\"\n\n[[design.clue]]");
    let untitled = titled.replace("title = \"Sudoku 4 × 4\"\n", "");
    for template in [&titled, &untitled] {
        for puzzle in csp_run(template, &options(2, 6)) {
            let table: toml::Table = toml::from_str(&puzzle.model).unwrap();
            assert_eq!(table["title"].as_str(), Some("A new \"4 × 4\""), "{}", puzzle.model);
            assert_eq!(count_text(&puzzle.model), 1);
            assert_eq!(puzzle.model.matches("title = ").count(), 2, "one title, and the design's own");
        }
    }
    // Without one, the template's title stays.
    let puzzle = &csp_run(SUDOKU4, &options(1, 6))[0];
    assert!(puzzle.model.contains("title = \"Sudoku 4 × 4\"\n"));
}

/// The checks on one solver kept for each draft (clues given by selector
/// literals) and the checks that load each written text afresh are both
/// exact counts up to 2, so they make the same puzzles from the same seeds:
/// Sudokus, minimal or not, and slitherlinks, whose loops are cut lazily.
#[test]
fn one_kept_solver_makes_the_puzzles_that_reloading_each_check_makes() {
    let runs = [
        (SUDOKU4.to_string(), false, Symmetry::None, 6),
        (SUDOKU4.to_string(), true, Symmetry::Mirror, 6),
        (slitherlink(4), true, Symmetry::None, 3),
        (slitherlink(5), false, Symmetry::Rot180, 2),
    ];
    for (template, minimal, symmetry, count) in runs {
        let base = GenerateOptions { minimal, symmetry, ..options(count, 21) };
        let kept = csp_run(&template, &base);
        let reloaded = csp_run(&template, &GenerateOptions { reload_each_check: true, ..base.clone() });
        assert!(kept.iter().all(|g| g.uniqueness.incremental));
        assert!(reloaded.iter().all(|g| !g.uniqueness.incremental));
        let texts = |run: &[Generated]| run.iter().map(|g| g.model.clone()).collect::<Vec<_>>();
        assert_eq!(texts(&kept), texts(&reloaded));
        for g in &kept {
            assert_eq!(count_text(&g.model), 1);
            assert_eq!(g.uniqueness.checks, reloaded[g.index as usize].uniqueness.checks);
        }
    }
}

/// The header names the clues kept (one clue is not "1 clues") and warns
/// that the template's comments, kept in the body, describe the template.
#[test]
fn the_header_counts_the_clues_and_disowns_the_templates_comments() {
    let template = format!("# A template comment: 17 givens.\n{SUDOKU4}");
    for puzzle in csp_run(&template, &options(3, 4)) {
        let mut lines = puzzle.model.lines();
        let first = lines.next().unwrap();
        let noun = if puzzle.clues == 1 { "clue" } else { "clues" };
        assert!(
            first.ends_with(&format!("(puzzle {}): {} {noun}, one solution", puzzle.index, puzzle.clues)),
            "{first}"
        );
        assert_eq!(lines.next(), Some("# Any comment below is the template's, not this puzzle's."));
        assert_eq!(lines.next(), Some("# A template comment: 17 givens."));
    }
}

/// A genre model (`models/genres/GENRE.toml`) with its example's size and
/// rooms replaced by `room` (each cell's room, from 1), and the `extra`
/// params (`stars = 1`) in place of the example's own values.
fn with_rooms(genre: &str, room: &[Vec<usize>], extra: &[(&str, &str)]) -> String {
    let text = std::fs::read_to_string(format!("models/genres/{genre}.toml")).unwrap();
    let count = room.iter().flatten().max().copied().unwrap_or(0).to_string();
    let (rows, cols) = (room.len().to_string(), room[0].len().to_string());
    let rows_written: Vec<String> =
        room.iter().map(|r| format!("[{}]", r.iter().map(usize::to_string).collect::<Vec<_>>().join(", "))).collect();
    let room = format!("[{}]", rows_written.join(", "));
    let mut values = vec![("rows", rows.as_str()), ("cols", cols.as_str()), ("rooms", count.as_str()), ("room", &room)];
    values.extend_from_slice(extra);
    let mut in_params = false;
    let mut out = String::new();
    for line in text.lines() {
        if line.starts_with('[') {
            in_params = line == "[params]";
        }
        let key = line.split(" = ").next().unwrap_or("");
        match values.iter().find(|(k, _)| in_params && *k == key) {
            Some((key, value)) => out.push_str(&format!("{key} = {value}\n")),
            None => out.push_str(&format!("{line}\n")),
        }
    }
    out
}

/// [`with_rooms`] with each of `rows` rows of `cols` cells a room.
fn rows_as_rooms(genre: &str, rows: usize, cols: usize, extra: &[(&str, &str)]) -> String {
    let room: Vec<Vec<usize>> = (1..=rows).map(|r| vec![r; cols]).collect();
    with_rooms(genre, &room, extra)
}

/// A generated model's rooms (row-major), its `rooms`, and its rows and
/// columns, read by TOML.
fn rooms_of(model: &str) -> (Vec<i64>, i64, (usize, usize)) {
    let table: toml::Table = toml::from_str(model).unwrap();
    let params = &table["params"];
    let rows = params["room"].as_array().unwrap();
    let room: Vec<i64> =
        rows.iter().flat_map(|r| r.as_array().unwrap().iter().map(|v| v.as_integer().unwrap())).collect();
    (room.clone(), params["rooms"].as_integer().unwrap(), (rows.len(), room.len() / rows.len().max(1)))
}

/// Whether `room` (row-major, `cols` across) numbers `count` rooms from 1,
/// none empty, each one piece of cells next to each other: a search of its
/// own, sharing nothing with the designer's.
fn rooms_are_pieces(room: &[i64], count: i64, cols: usize) -> bool {
    (1..=count).all(|k| {
        let cells: Vec<usize> = (0..room.len()).filter(|&c| room[c] == k).collect();
        let Some(&first) = cells.first() else { return false };
        let mut seen = vec![first];
        let mut at = 0;
        while at < seen.len() {
            let c = seen[at];
            at += 1;
            for d in cells.iter().copied() {
                let beside = (c / cols == d / cols && c.abs_diff(d) == 1) || c.abs_diff(d) == cols;
                if beside && !seen.contains(&d) {
                    seen.push(d);
                }
            }
        }
        seen.len() == cells.len()
    }) && room.iter().all(|&k| (1..=count).contains(&k))
}

/// The norinori fillings of `room` (every shading of the grid tried): two
/// shaded cells in each room, each shaded cell beside exactly one other.
fn norinori_answers(room: &[i64], count: i64, cols: usize) -> usize {
    let n = room.len();
    let beside = |a: usize, b: usize| (a / cols == b / cols && a.abs_diff(b) == 1) || a.abs_diff(b) == cols;
    (0u32..1 << n)
        .filter(|mask| {
            let shaded = |c: usize| mask >> c & 1 == 1;
            let pairs =
                (0..n).filter(|&c| shaded(c)).all(|c| (0..n).filter(|&d| shaded(d) && beside(c, d)).count() == 1);
            pairs && (1..=count).all(|k| (0..n).filter(|&c| shaded(c) && room[c] == k).count() == 2)
        })
        .count()
}

/// The one-star star battle fillings of `room` (every placement of one
/// star a row in distinct columns tried): one star in each room, and no two
/// touching, corners included.
fn star_battle_answers(room: &[i64], count: i64, cols: usize) -> usize {
    fn place(row: usize, cols: usize, used: &mut Vec<usize>, each: &mut dyn FnMut(&[usize])) {
        if row == cols {
            each(used);
            return;
        }
        for c in 0..cols {
            if !used.contains(&c) && used.last().is_none_or(|&p| p.abs_diff(c) > 1) {
                used.push(c);
                place(row + 1, cols, used, each);
                used.pop();
            }
        }
    }
    let mut answers = 0;
    place(0, cols, &mut Vec::new(), &mut |stars| {
        let rooms: Vec<i64> = stars.iter().enumerate().map(|(r, &c)| room[r * cols + c]).collect();
        answers += usize::from((1..=count).all(|k| rooms.iter().filter(|&&x| x == k).count() == 1));
    });
    answers
}

/// The LITS fillings of `room` (every shading of the grid tried): four
/// shaded cells in each room, one piece of a shape other than the square,
/// every shaded cell one piece, no 2 x 2 block shaded, and the pieces of
/// two rooms that touch of different shapes (turned or mirrored alike).
fn lits_answers(room: &[i64], count: i64, cols: usize) -> usize {
    let n = room.len();
    let beside = |a: usize, b: usize| (a / cols == b / cols && a.abs_diff(b) == 1) || a.abs_diff(b) == cols;
    // A piece's shape: the least of its eight turns and mirror images, each
    // moved to the corner and sorted.
    let shape = |cells: &[usize]| -> Vec<(i64, i64)> {
        let points: Vec<(i64, i64)> = cells.iter().map(|&c| ((c / cols) as i64, (c % cols) as i64)).collect();
        (0..8)
            .map(|t| {
                let mut image: Vec<(i64, i64)> = points
                    .iter()
                    .map(|&(r, c)| {
                        let (r, c) = if t & 4 != 0 { (c, r) } else { (r, c) };
                        (if t & 1 != 0 { -r } else { r }, if t & 2 != 0 { -c } else { c })
                    })
                    .collect();
                let (r0, c0) = (image.iter().map(|p| p.0).min().unwrap(), image.iter().map(|p| p.1).min().unwrap());
                image.iter_mut().for_each(|p| *p = (p.0 - r0, p.1 - c0));
                image.sort_unstable();
                image
            })
            .min()
            .unwrap()
    };
    let one_piece = |cells: &[usize]| {
        let mut seen = vec![cells[0]];
        let mut at = 0;
        while at < seen.len() {
            let c = seen[at];
            at += 1;
            for &d in cells {
                if beside(c, d) && !seen.contains(&d) {
                    seen.push(d);
                }
            }
        }
        seen.len() == cells.len()
    };
    let square = shape(&[0, 1, cols, cols + 1]);
    (0u32..1 << n)
        .filter(|mask| {
            let shaded = |c: usize| mask >> c & 1 == 1;
            let all: Vec<usize> = (0..n).filter(|&c| shaded(c)).collect();
            let no_block = (0..n)
                .filter(|&c| c % cols + 1 < cols && c + cols + 1 < n)
                .all(|c| !(shaded(c) && shaded(c + 1) && shaded(c + cols) && shaded(c + cols + 1)));
            let mut shapes = Vec::new();
            for k in 1..=count {
                let cells: Vec<usize> = all.iter().copied().filter(|&c| room[c] == k).collect();
                if cells.len() != 4 || !one_piece(&cells) || shape(&cells) == square {
                    return false;
                }
                shapes.push(shape(&cells));
            }
            let shape_of = |c: usize| &shapes[room[c] as usize - 1];
            let apart = all
                .iter()
                .all(|&c| all.iter().all(|&d| !beside(c, d) || room[c] == room[d] || shape_of(c) != shape_of(d)));
            no_block && apart && !all.is_empty() && one_piece(&all)
        })
        .count()
}

/// A design may search the rooms themselves (a region array): every
/// puzzle's rooms are numbered from 1 to its `rooms`, none empty, each one
/// piece, and it has one answer by a brute force that shares nothing with
/// the encoding (tiny norinoris, star battles and LITS).
#[test]
fn searched_rooms_are_pieces_and_give_one_answer_by_brute_force() {
    type Answers = fn(&[i64], i64, usize) -> usize;
    // pzprjs's LITS sample, whose rooms are already unique: the search
    // moves them all the same.
    let lits = [[1, 1, 2, 2], [1, 1, 2, 3], [1, 2, 2, 3], [3, 3, 3, 3]].map(|r| r.to_vec());
    let cases: [(&str, String, Answers); 3] = [
        ("norinori", rows_as_rooms("norinori", 4, 4, &[]), norinori_answers),
        ("starbattle", rows_as_rooms("starbattle", 5, 5, &[("stars", "1")]), star_battle_answers),
        ("lits", with_rooms("lits", &lits, &[]), lits_answers),
    ];
    for (genre, template, answers) in cases {
        let (start, count, size) = rooms_of(&template);
        // The brute force agrees with the template: two answers or more,
        // but for the LITS sample's one.
        let expected = if genre == "lits" { 1 } else { 2 };
        assert_eq!(answers(&start, count, size.1).min(2), expected, "{genre}: the template's answers");
        let designer = puzzles::designer(&Source::from_text("t.toml", template.as_str())).unwrap();
        let run = generate::generate(designer.as_ref(), &options(6, 9), &Arc::new(GenerateProgress::default()));
        let mut differ = 0;
        for puzzle in run.unwrap().into_iter().map(|r| r.unwrap()) {
            let (room, rooms, (rows, cols)) = rooms_of(&puzzle.model);
            assert_eq!((rooms, (rows, cols)), (count, size), "{genre}: the count and the grid are kept");
            assert!(rooms_are_pieces(&room, rooms, cols), "{genre}: {room:?}");
            assert_eq!(answers(&room, rooms, cols), 1, "{genre}: {}", puzzle.model);
            assert_eq!(puzzle.clues, 0, "a region array has no clue to drop");
            differ += usize::from(room != start);
        }
        assert!(differ > 0, "{genre}: the rooms are searched");
    }
    // The rooms keep no symmetry, and a template's rooms must be pieces.
    let template = rows_as_rooms("norinori", 4, 4, &[]);
    assert!(refused(&template, &["--symmetry", "rot180"]).contains("keeps no symmetry"));
    let split = template.replace("[1, 1, 1, 1], [2, 2, 2, 2]", "[1, 2, 1, 1], [2, 1, 2, 2]");
    assert!(refused(&split, &[]).contains("region 1 in 3 pieces"), "{}", refused(&split, &[]));
    let miscounted = template.replace("rooms = 4", "rooms = 5");
    assert!(refused(&miscounted, &[]).contains("rooms = 4, the count"), "{}", refused(&miscounted, &[]));
}
