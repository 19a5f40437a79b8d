//! Named techniques against code of their own: on random 4×4 Sudokus
//! (random givens, random player entries, whole constraints and parts,
//! `--next any` and `--next placement`), every step named "hidden single",
//! "naked single", "naked subset", "pointing", "claiming" or "already
//! placed" has that shape
//! in the facts it shows as used. The houses are read from the step's
//! constraint names and from the named house, and the candidates from the
//! facts used, all here: nothing of somaria's naming code is shared.

use std::collections::{BTreeMap, BTreeSet};

use somaria::hints::{self, Next, PlanRequest};
use somaria::puzzles::SolveOptions;
use somaria::report::steps::{ShownFact, ShownStep, ShownTechnique};
use somaria::rng::SplitMix64;

use crate::common::models::load_text;

type Cell = (i64, i64);

/// The 4×4 Sudoku model with the hint table under test.
fn model(givens: &[[i64; 4]; 4]) -> String {
    let rows: Vec<String> = givens.iter().map(|r| format!("{r:?}")).collect();
    format!(
        r#"kind = "csp"
show = ["cell"]
[params]
givens = [{}]
[vars]
cell = {{ index = ["1..4", "1..4"], domain = "1..4" }}
[[constraint]]
name = "the givens"
expr = 'forall(i, j in 1..4 where givens[i, j] > 0)(cell[i, j] = givens[i, j])'
[[constraint]]
name = "each row"
expr = 'forall(i in 1..4)(alldifferent(row(cell, i)))'
[[constraint]]
name = "each column"
expr = 'forall(j in 1..4)(alldifferent(col(cell, j)))'
[[constraint]]
name = "each box"
expr = 'forall(r, c in 0..1)(alldifferent([cell[2 * r + i, 2 * c + j] | i, j in 1..2]))'
[hints.houses]
"each row" = "row {{i}}"
"each column" = "column {{j}}"
"each box" = "box {{n}}"
[[hints.technique]]
shape = "single place"
name = "hidden single"
text = "{{value}} goes in {{at}}: it is the only place for {{value}} in {{house}}"
[[hints.technique]]
shape = "single value"
name = "naked single"
text = "{{value}} goes in {{at}}: it is the only digit left for {{cell}}"
[[hints.technique]]
shape = "taken"
name = "already placed"
text = "{{value}} is already in {{house}}, so not in {{cells}}"
[[hints.technique]]
shape = "intersection"
name = "pointing"
houses = ["each box"]
text = "the {{value}}s of {{house}} are all in {{other}}"
[[hints.technique]]
shape = "intersection"
name = "claiming"
houses = ["each row", "each column"]
text = "the {{value}}s of {{house}} are all in {{other}}"
[[hints.technique]]
shape = "subset"
name = "naked subset"
text = "{{cells}} hold {{values}} between them, so no other cell of {{house}} does"
"#,
        rows.join(", ")
    )
}

/// The cells of a house, from its name here: "row 2", "column 3", "box 4"
/// (boxes numbered row by row from 1).
fn house_cells(label: &str) -> Vec<Cell> {
    let (kind, n) = label.rsplit_once(' ').unwrap();
    let n: i64 = n.parse().unwrap();
    match kind {
        "row" => (1..=4).map(|j| (n, j)).collect(),
        "column" => (1..=4).map(|i| (i, n)).collect(),
        "box" => {
            let (r, c) = ((n - 1) / 2, (n - 1) % 2);
            (1..=2).flat_map(|i| (1..=2).map(move |j| (2 * r + i, 2 * c + j))).collect()
        }
        other => panic!("no house kind {other}"),
    }
}

/// The cells of a constraint the step names, such as "each box (r = 1,
/// c = 0)" or, in parts, "each row (i = 2): 3 exactly once".
fn rule_cells(name: &str) -> Option<Vec<Cell>> {
    let number = |key: &str| -> i64 {
        let at = name.find(&format!("{key} = ")).unwrap() + key.len() + 3;
        name[at..].chars().take_while(char::is_ascii_digit).collect::<String>().parse().unwrap()
    };
    if name.starts_with("each row") {
        Some(house_cells(&format!("row {}", number("i"))))
    } else if name.starts_with("each column") {
        Some(house_cells(&format!("column {}", number("j"))))
    } else if name.starts_with("each box") {
        Some(house_cells(&format!("box {}", 2 * number("r") + number("c") + 1)))
    } else {
        None
    }
}

fn cell_of(f: &ShownFact) -> Cell {
    let inner = f.var.trim_start_matches("cell[").trim_end_matches(']');
    let (r, c) = inner.split_once(',').unwrap();
    (r.trim().parse().unwrap(), c.trim().parse().unwrap())
}

fn value_of(f: &ShownFact) -> i64 {
    f.value.as_i64().unwrap()
}

/// Each cell's candidates from facts alone: a value given leaves it,
/// a value ruled out is gone.
fn candidates(known: &[ShownFact]) -> BTreeMap<Cell, BTreeSet<i64>> {
    let mut cands: BTreeMap<Cell, BTreeSet<i64>> = BTreeMap::new();
    for i in 1..=4 {
        for j in 1..=4 {
            cands.insert((i, j), (1..=4).collect());
        }
    }
    for f in known {
        let set = cands.get_mut(&cell_of(f)).unwrap();
        match f.op {
            "=" => set.retain(|&v| v == value_of(f)),
            _ => {
                set.remove(&value_of(f));
            }
        }
    }
    cands
}

fn placed(known: &[ShownFact], cell: Cell) -> Option<i64> {
    known.iter().find(|f| f.op == "=" && cell_of(f) == cell).map(value_of)
}

/// Whether `t`, one technique, holds of `facts` with `known`: checked
/// here by the shape its name promises. `rules` are the step's houses.
fn holds(t: &ShownTechnique, known: &[ShownFact], rules: &[Vec<Cell>]) -> Result<(), String> {
    let cands = candidates(known);
    let facts = &t.facts;
    let house = |k: usize| house_cells(&t.houses[k]);
    match t.name.as_str() {
        "hidden single" => {
            let [f] = &facts[..] else { return Err("not one fact".into()) };
            let (x, v) = (cell_of(f), value_of(f));
            let h = house(0);
            let alone = f.op == "=" && h.contains(&x) && h.iter().all(|&c| c == x || !cands[&c].contains(&v));
            alone.then_some(()).ok_or(format!("{v} has another place in {}", t.houses[0]))
        }
        "naked single" => {
            let [f] = &facts[..] else { return Err("not one fact".into()) };
            let (x, v) = (cell_of(f), value_of(f));
            let seen = |w: i64| {
                rules.iter().any(|h| h.contains(&x) && h.iter().any(|&c| c != x && placed(known, c) == Some(w)))
            };
            let only = f.op == "=" && (1..=4).all(|w| w == v || !cands[&x].contains(&w) || seen(w));
            only.then_some(()).ok_or(format!("{x:?} has another value than {v}"))
        }
        "naked subset" => {
            let h = house(0);
            let ruled: Vec<(Cell, i64)> = facts.iter().map(|f| (cell_of(f), value_of(f))).collect();
            if facts.iter().any(|f| f.op != "!=") || ruled.iter().any(|(c, _)| !h.contains(c)) {
                return Err("a fact outside the house".into());
            }
            let open: Vec<Cell> = h.iter().copied().filter(|c| !ruled.iter().any(|(r, _)| r == c)).collect();
            let found = (1u32..1 << open.len()).any(|mask| {
                let pick: Vec<Cell> = (0..open.len()).filter(|i| mask & (1 << i) != 0).map(|i| open[i]).collect();
                let union: BTreeSet<i64> = pick.iter().flat_map(|c| cands[c].iter().copied()).collect();
                pick.len() >= 2
                    && pick.iter().all(|c| placed(known, *c).is_none())
                    && union.len() == pick.len()
                    && ruled.iter().all(|(_, w)| union.contains(w))
            });
            found.then_some(()).ok_or("no subset explains it".into())
        }
        "pointing" | "claiming" => {
            let (a, b) = (house(0), house(1));
            let v = value_of(&facts[0]);
            let outside = facts
                .iter()
                .all(|f| f.op == "!=" && value_of(f) == v && b.contains(&cell_of(f)) && !a.contains(&cell_of(f)));
            let open: Vec<Cell> = a.iter().copied().filter(|c| cands[c].contains(&v)).collect();
            let kinds = (t.houses[0].starts_with("box"), t.houses[1].starts_with("box"));
            let right_kinds = if t.name == "pointing" { kinds == (true, false) } else { kinds == (false, true) };
            let ok = outside && right_kinds && !open.is_empty() && open.iter().all(|c| b.contains(c));
            ok.then_some(()).ok_or(format!("{v} is not confined to {} within {}", t.houses[1], t.houses[0]))
        }
        "already placed" => {
            let h = house(0);
            let v = value_of(&facts[0]);
            let holder = h.iter().copied().find(|&c| placed(known, c) == Some(v));
            let ok = holder.is_some_and(|y| {
                facts.iter().all(|f| f.op == "!=" && value_of(f) == v && h.contains(&cell_of(f)) && cell_of(f) != y)
            });
            ok.then_some(()).ok_or(format!("{v} is not placed in {}", t.houses[0]))
        }
        other => Err(format!("an unknown technique {other}")),
    }
}

/// Checks the technique of `step`, if any; counts it by name.
fn check_step(step: &ShownStep, counted: &mut BTreeMap<String, usize>, text: &str) {
    let Some(t) = &step.technique else { return };
    // A placement with the steps it needs folded in is named as its last
    // step found it, with the facts that one uses.
    let last = step.via.last().unwrap_or(step);
    let rules: Vec<Vec<Cell>> = last.because.iter().filter_map(|r| rule_cells(&r.name)).collect();
    let mut known = last.using.clone();
    let each = if t.each.is_empty() { std::slice::from_ref(t) } else { &t.each[..] };
    let mut facts = Vec::new();
    for one in each {
        holds(one, &known, &rules).unwrap_or_else(|e| panic!("{}: {e}\n{step:#?}\n{text}", one.text));
        known.extend(one.facts.iter().cloned());
        facts.extend(one.facts.iter().cloned());
        *counted.entry(one.name.clone()).or_default() += 1;
    }
    let key = |f: &ShownFact| (f.var.clone(), f.op, f.value.to_string());
    let mut named: Vec<_> = facts.iter().map(key).collect();
    // A cell's other values, ruled out with its placement, follow from it.
    let placed: Vec<Cell> = step.facts.iter().filter(|f| f.op == "=").map(cell_of).collect();
    let follows = |f: &&ShownFact| f.op == "!=" && placed.contains(&cell_of(f));
    let mut new: Vec<_> = step.facts.iter().filter(|f| !follows(f)).map(key).collect();
    named.sort();
    new.sort();
    assert_eq!(named, new, "the technique speaks of the step's new facts\n{text}");
}

/// A random 4×4 Sudoku solution: a fixed one with its digits relabelled,
/// its bands, stacks, rows in a band and columns in a stack shuffled.
fn solution(rng: &mut SplitMix64) -> [[i64; 4]; 4] {
    let base = [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]];
    let mut digits = [1, 2, 3, 4];
    rng.shuffle(&mut digits);
    let order = |rng: &mut SplitMix64| {
        let mut bands = [0, 1];
        rng.shuffle(&mut bands);
        let mut out = Vec::new();
        for b in bands {
            let mut inner = [0, 1];
            rng.shuffle(&mut inner);
            out.extend(inner.iter().map(|i| 2 * b + i));
        }
        out
    };
    let (rows, cols) = (order(rng), order(rng));
    let mut grid = [[0; 4]; 4];
    for i in 0..4 {
        for j in 0..4 {
            grid[i][j] = digits[base[rows[i]][cols[j]] as usize - 1];
        }
    }
    grid
}

#[test]
fn every_named_step_has_its_shape() {
    let mut rng = SplitMix64::new(41);
    let mut counted: BTreeMap<String, usize> = BTreeMap::new();
    for case in 0..400 {
        let sol = solution(&mut rng);
        let keep = [0.15, 0.3, 0.45][case % 3];
        let mut givens = [[0; 4]; 4];
        let mut entries = Vec::new();
        for i in 0..4 {
            for j in 0..4 {
                if rng.chance(keep) {
                    givens[i][j] = sol[i][j];
                } else if rng.chance(0.1) {
                    entries.push(format!("cell[{},{}]={}", i + 1, j + 1, sol[i][j]));
                } else if rng.chance(0.2) {
                    let wrong = (sol[i][j] + 1 + rng.below(3) as i64 - 1) % 4 + 1;
                    entries.push(format!("cell[{},{}]!={wrong}", i + 1, j + 1));
                }
            }
        }
        let text = model(&givens);
        let puzzle = load_text(&text);
        let options = SolveOptions { parts: case % 4 == 1, ..SolveOptions::default() };
        let next = if case % 2 == 0 { Next::Placement } else { Next::Any };
        let request = PlanRequest { given: entries.clone(), next, count_limit: 100, ..PlanRequest::default() };
        let report = hints::steps(puzzle.as_ref(), &options, &request).unwrap();
        let shown = format!("{text}\nentries {entries:?}, parts {}, next {next:?}", options.parts);
        for step in &report.steps {
            check_step(step, &mut counted, &shown);
            step.via.iter().for_each(|v| check_step(v, &mut counted, &shown));
        }
    }
    // The check would pass with nothing named: each kind must be met.
    for name in ["hidden single", "naked single", "already placed"] {
        assert!(counted.get(name).copied().unwrap_or(0) >= 20, "few steps named {name}: {counted:?}");
    }
    let rarer: usize =
        ["pointing", "claiming", "naked subset"].iter().map(|n| counted.get(*n).copied().unwrap_or(0)).sum();
    assert!(rarer >= 3, "few subsets and intersections named: {counted:?}");
    eprintln!("named: {counted:?}");
}
