//! `somaria generate` on keys-and-doors templates: every vault keeps the
//! template's size and number of keys, has exactly one fewest-steps route by
//! a breadth-first count written here (sharing nothing with the engines), and
//! its reported fewest steps and route are that search's; with `--minimal`,
//! knocking out any drawn wall left standing gives a second route. The same
//! seed gives the same vaults with one job or two and across shards;
//! `--difficulty` keeps its range of fewest steps; the families' `[design]`
//! title; refusals with exit 2 and a place.

use crate::common;

use std::sync::Arc;

use common::cli::{somaria, write_model};
use common::keys_doors::{moves_of, replay, shortest_routes};
use serde_json::Value;
use somaria::generate::{self, GenerateOptions, GenerateProgress, Generated, Shard};
use somaria::model::Source;
use somaria::puzzles::keys_doors::designer::{KeysDoorsDesigner, LOOPS_PERCENT};
use somaria::puzzles::keys_doors::maze;
use somaria::rng::SplitMix64;

/// A template of `rows` × `cols` with `keys` keys in its last row.
fn template(rows: usize, cols: usize, keys: usize) -> String {
    let mut cells = vec![vec!['.'; cols]; rows];
    cells[0][0] = '@';
    for (k, cell) in cells[rows - 1].iter_mut().take(keys).enumerate() {
        *cell = (b'a' + k as u8) as char;
    }
    let grid: Vec<String> = cells.iter().map(|r| r.iter().collect()).collect();
    format!("kind = \"keys-doors\"\ntitle = \"Vault\"\ngrid = \"\"\"\n{}\n\"\"\"\n", grid.join("\n"))
}

fn run(text: &str, options: &GenerateOptions) -> Vec<Generated> {
    let designer = KeysDoorsDesigner::new(&Source::from_text("vault.toml", text)).unwrap();
    let results = generate::generate(&designer, options, &Arc::new(GenerateProgress::default())).unwrap();
    results.into_iter().map(|r| r.unwrap()).collect()
}

fn grid_of(model: &str) -> Vec<Vec<char>> {
    let table: toml::Table = toml::from_str(model).unwrap();
    table["grid"].as_str().unwrap().lines().filter(|l| !l.is_empty()).map(|l| l.chars().collect()).collect()
}

/// The perfect maze a vault was drawn as, and the walls its loops would
/// knock out, from the seed `generate` reports (the designer draws the
/// maze's seed first from it).
fn drawn(rows: usize, cols: usize, keys: usize, seed: u64) -> (Vec<Vec<char>>, Vec<(usize, usize)>) {
    let maze_seed = SplitMix64::new(seed).next_u64();
    let cells = |loops| -> Vec<Vec<char>> {
        maze::generate(rows, cols, keys, loops, maze_seed).unwrap().lines().map(|l| l.chars().collect()).collect()
    };
    let (tree, loopy) = (cells(0), cells(LOOPS_PERCENT));
    let walls = (0..rows).flat_map(|r| (0..cols).map(move |c| (r, c))).filter(|&(r, c)| tree[r][c] != loopy[r][c]);
    let walls = walls.collect();
    (tree, walls)
}

/// Checks one vault against the breadth-first count: one route, the
/// reported steps and route, the template's size and keys, drawn from its
/// maze; with `minimal`, no drawn wall left can be knocked out.
fn check_vault(puzzle: &Generated, (rows, cols, keys): (usize, usize, usize), minimal: bool) {
    let grid = grid_of(&puzzle.model);
    assert_eq!((grid.len(), grid[0].len()), (rows, cols));
    assert_eq!(grid.iter().flatten().filter(|c| c.is_ascii_lowercase()).count(), keys);
    let (steps, routes) = shortest_routes(&grid).expect("a vault has a route");
    assert_eq!(routes, 1, "{}", puzzle.model);
    assert_eq!(puzzle.solution["steps"].as_u64(), Some(steps as u64));
    let measure = puzzle.measure.as_ref().unwrap();
    assert_eq!((measure.name, measure.value), ("fewest steps", steps));
    assert!(puzzle.model.lines().next().unwrap().ends_with(&format!("fewest steps {steps}")));
    let moves = moves_of(&puzzle.solution);
    assert_eq!(moves.len(), steps);
    replay(&grid, &moves).unwrap();
    let (tree, walls) = drawn(rows, cols, keys, puzzle.seed);
    for r in 0..rows {
        for c in 0..cols {
            if grid[r][c] != tree[r][c] {
                assert!(walls.contains(&(r, c)) && grid[r][c] == '.', "({r}, {c}) is not a drawn wall");
            }
        }
    }
    let standing: Vec<(usize, usize)> = walls.iter().copied().filter(|&(r, c)| grid[r][c] == '#').collect();
    assert_eq!((puzzle.clues, puzzle.clues_drawn), (standing.len(), walls.len()));
    if minimal {
        for (r, c) in standing {
            let mut opened = grid.clone();
            opened[r][c] = '.';
            let (_, routes) = shortest_routes(&opened).unwrap();
            assert!(routes >= 2, "the wall at ({r}, {c}) could go: {}", puzzle.model);
        }
    }
    assert_eq!(puzzle.uniqueness.recount.count, 1);
}

#[test]
fn every_vault_has_one_fewest_steps_route_by_breadth_first_search() {
    for (rows, cols, keys) in [(5, 5, 1), (9, 9, 3), (11, 15, 5), (21, 21, 6), (10, 12, 4)] {
        let text = template(rows, cols, keys.max(1).min(cols));
        for minimal in [false, true] {
            let options = GenerateOptions { count: 6, seed: 11, minimal, ..GenerateOptions::default() };
            for puzzle in run(&text, &options) {
                check_vault(&puzzle, (rows, cols, keys), minimal);
            }
        }
    }
}

#[test]
fn vaults_are_the_same_with_one_job_or_two_and_across_three_shards() {
    let text = template(15, 15, 5);
    let options = |jobs, shard| GenerateOptions { count: 9, seed: 3, jobs, shard, ..GenerateOptions::default() };
    let models = |all: Vec<Generated>| all.into_iter().map(|p| (p.index, p.model)).collect::<Vec<_>>();
    let one = models(run(&text, &options(1, Shard::default())));
    assert_eq!(one.len(), 9);
    assert_eq!(models(run(&text, &options(2, Shard::default()))), one);
    let mut shards: Vec<(u64, String)> =
        (0..3).flat_map(|index| models(run(&text, &options(1, Shard { index, of: 3 })))).collect();
    shards.sort();
    assert_eq!(shards, one);
    assert!(one.windows(2).all(|w| w[0].1 != w[1].1), "different vaults");
}

#[test]
fn the_cli_makes_vaults_as_json_lines_and_files_within_the_difficulty() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_model(dir.path(), "vault.toml", template(13, 13, 4));
    let json = |args: &[&str]| -> Vec<Value> {
        let out = somaria().arg("generate").arg(&path).args(args).args(["--format", "json"]).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
    };
    let lines = json(&["--count", "6", "--seed", "5", "--difficulty", "30..50"]);
    assert_eq!(lines.len(), 6);
    for line in &lines {
        let steps = line["measure"]["value"].as_u64().unwrap();
        assert!((30..=50).contains(&steps), "{steps}");
        assert_eq!(line["solution"]["steps"].as_u64(), Some(steps));
        let (fewest, routes) = shortest_routes(&grid_of(line["model"].as_str().unwrap())).unwrap();
        assert_eq!((fewest as u64, routes), (steps, 1));
    }
    let sharded: Vec<Value> = (0..2)
        .flat_map(|i| json(&["--count", "6", "--seed", "5", "--difficulty", "30..50", "--shard", &format!("{i}/2")]))
        .collect();
    assert_eq!(sharded.len(), 6);
    for line in &lines {
        assert!(sharded.iter().any(|s| s["model"] == line["model"]));
    }
    let out_dir = dir.path().join("out");
    let out = somaria().arg("generate").arg(&path).args(["--count", "2", "--jobs", "2", "-o"]).arg(&out_dir).output();
    let out = out.unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout.lines().count(), 2, "{stdout}");
    assert!(stdout.lines().all(|l| l.contains("; fewest steps ")), "{stdout}");
    for k in 0..2 {
        let written = std::fs::read_to_string(out_dir.join(format!("vault-{k:04}.toml"))).unwrap();
        let file = out_dir.join(format!("vault-{k:04}.toml"));
        let count = somaria().args(["count", "--limit", "2", "--engine", "bfs"]).arg(&file).output().unwrap();
        let counted = String::from_utf8(count.stdout).unwrap();
        assert!(counted.contains("1 solution"), "{counted}");
        assert_eq!(shortest_routes(&grid_of(&written)).unwrap().1, 1);
    }
}

/// Runs `generate` on `bad.toml` holding `text`: exit 2, nothing on
/// stdout, one line on stderr, which is returned.
fn refused(text: &str, args: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = write_model(dir.path(), "bad.toml", text);
    let out = somaria().arg("generate").arg(&path).args(args).output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(out.stdout.is_empty());
    assert!(stderr.starts_with("error: ") && stderr.contains("bad.toml:") && stderr.lines().count() == 1, "{stderr}");
    stderr
}

#[test]
fn templates_generate_cannot_keep_are_refused_at_their_place() {
    let two = "kind = \"keys-doors\"\ngrid = \"\"\"\n@..a\n...@\n\"\"\"\n";
    let stderr = refused(two, &[]);
    assert!(stderr.contains("bad.toml:4:4:") && stderr.contains("a second walker"), "{stderr}");
    let crowded = template(5, 5, 4);
    let stderr = refused(&crowded, &[]);
    assert!(stderr.contains("bad.toml:3:8:") && stderr.contains("4 keys in a 5 x 5 grid"), "{stderr}");
    let tiny = "kind = \"keys-doors\"\ngrid = \"@a\"\n";
    assert!(refused(tiny, &[]).contains("at least 3 x 3"));
    for bad in ["--difficulty", "--shard"] {
        let dir = tempfile::tempdir().unwrap();
        let path = write_model(dir.path(), "v.toml", template(9, 9, 2));
        let out = somaria().arg("generate").arg(&path).args([bad, "x"]).output().unwrap();
        assert_eq!(out.status.code(), Some(2));
    }
}

#[test]
fn a_family_design_title_names_the_generated_puzzles() {
    let tables = [
        template(9, 9, 2),
        "kind = \"fans\"\ntitle = \"Shrine\"\ngrid = \"\"\"\nF...\n....\n..F.\n....\n\"\"\"\n".to_string(),
        "kind = \"tile-cover\"\ntitle = \"Room\"\ngrid = \"\"\"\nS...\n....\n....\n\"\"\"\n".to_string(),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (k, text) in tables.iter().enumerate() {
        for template in [text.clone(), text.lines().filter(|l| !l.starts_with("title")).collect::<Vec<_>>().join("\n")]
        {
            let titled = format!("{template}\n[design]\ntitle = \"A \\\"new\\\" one\"\n");
            let path = write_model(dir.path(), &format!("t{k}.toml"), &titled);
            let out = somaria().arg("generate").arg(&path).args(["--count", "2", "--seed", "4"]).output().unwrap();
            assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
            let stdout = String::from_utf8(out.stdout).unwrap();
            for model in stdout.split("\n# Made by").map(|m| format!("# Made by{}", m.trim_start_matches("# Made by")))
            {
                let table: toml::Table = toml::from_str(&model).unwrap();
                assert_eq!(table["title"].as_str(), Some("A \"new\" one"), "{model}");
                let written = write_model(dir.path(), "again.toml", &model);
                let counted = somaria().args(["count", "--limit", "2"]).arg(&written).output().unwrap();
                assert!(String::from_utf8(counted.stdout).unwrap().contains("1 solution"), "{model}");
            }
        }
        // A family's design table holds a title alone, refused at its place
        // by every command.
        for (table, place, words) in [
            ("[design]\ntitle = 3\n", ":2:9:", "text in quotes"),
            ("[design]\nclue = 1\n", ":2:1:", "unknown field `clue`"),
        ] {
            let bad = format!("{text}{table}");
            let lines = bad.lines().count();
            let place = format!("bad.toml:{}{}", lines, place.trim_start_matches(":2"));
            let stderr = refused(&bad, &[]);
            assert!(stderr.contains(&place) && stderr.contains(words), "{place}: {stderr}");
            let solved = somaria().arg("solve").arg(write_model(dir.path(), "bad.toml", &bad)).output().unwrap();
            assert_eq!(solved.status.code(), Some(2));
        }
    }
}
