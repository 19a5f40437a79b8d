//! Named techniques against code of their own: on random 4×4 Sudokus
//! (random givens, random player entries, whole constraints and parts,
//! `--next any` and `--next placement`), every step named "hidden single",
//! "naked single", "naked subset", "hidden subset", "pointing",
//! "claiming", "fish" or "already placed" has that shape in the facts it
//! shows as used, and each fact a subset or fish rules out follows, by
//! brute force over where its values can go, from the houses it names. On
//! random 4×4 Killer Sudokus the cages are houses too, of which only those
//! of four cells hold every value. The houses are read from the step's
//! constraint names and from the named houses, and the candidates from the
//! facts used, all here: nothing of somaria's naming code is shared.

use std::collections::{BTreeMap, BTreeSet};

use somaria::hints::{self, Next, PlanRequest};
use somaria::puzzles::SolveOptions;
use somaria::report::steps::{ShownFact, ShownStep, ShownTechnique};
use somaria::rng::SplitMix64;

use crate::common::models::load_text;

type Cell = (i64, i64);
type Grid = [[i64; 4]; 4];

/// The techniques of a 4×4 Sudoku, with the naked and hidden subsets in
/// either order (in a 4-cell house a naked pair is a hidden pair too, so
/// each order names both shapes), and the fish first or last of the
/// eliminations (a fish, rare on a 4×4, is often an intersection too).
fn sudoku_techniques(hidden_first: bool, fish_first: bool) -> String {
    let fish = r#"[[hints.technique]]
shape = "fish"
name = "fish"
text = "in {houses}, {value} can only go in {other}, so not in {cells} ({size})"
"#;
    let (early, late) = if fish_first { (fish, "") } else { ("", fish) };
    let naked = r#"[[hints.technique]]
shape = "subset"
name = "naked subset"
text = "{cells} hold {values} between them, so no other cell of {house} does"
"#;
    let hidden = r#"[[hints.technique]]
shape = "hidden subset"
name = "hidden subset"
text = "{values} can only go in {cells} in {house}, so those cells hold no other value"
"#;
    let subsets = if hidden_first { [hidden, naked] } else { [naked, hidden] };
    format!(
        r#"[[hints.technique]]
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
{early}[[hints.technique]]
shape = "intersection"
name = "pointing"
houses = ["each box"]
text = "the {{value}}s of {{house}} are all in {{other}}"
[[hints.technique]]
shape = "intersection"
name = "claiming"
houses = ["each row", "each column"]
text = "the {{value}}s of {{house}} are all in {{other}}"
{}{}{late}"#,
        subsets[0], subsets[1]
    )
}

/// The techniques of a 4×4 Killer Sudoku: any house may be an
/// intersection's, a subset's or a fish's.
const KILLER_TECHNIQUES: &str = r#"[[hints.technique]]
shape = "single place"
name = "hidden single"
text = "{value} goes in {at}: it is the only place for {value} in {house}"
[[hints.technique]]
shape = "single value"
name = "naked single"
text = "{value} goes in {at}: it is the only digit left for {cell}"
[[hints.technique]]
shape = "taken"
name = "already placed"
text = "{value} is already in {house}, so not in {cells}"
[[hints.technique]]
shape = "intersection"
name = "intersection"
text = "the {value}s of {house} are all in {other}"
[[hints.technique]]
shape = "subset"
name = "naked subset"
text = "{cells} hold {values} between them, so no other cell of {house} does"
[[hints.technique]]
shape = "hidden subset"
name = "hidden subset"
text = "{values} can only go in {cells} in {house}, so those cells hold no other value"
[[hints.technique]]
shape = "fish"
name = "fish"
text = "in {houses}, {value} can only go in {other}, so not in {cells}"
"#;

/// The 4×4 Sudoku model; with `killer`, its cages (cage numbers from 1,
/// with their sums) as constraints and houses.
fn model(givens: &Grid, killer: Option<(&Grid, &[i64])>, techniques: &str) -> String {
    let rows = |g: &Grid| g.iter().map(|r| format!("{r:?}")).collect::<Vec<_>>().join(", ");
    let (mut params, mut constraints, mut houses) = (String::new(), String::new(), String::new());
    if let Some((cage, sums)) = killer {
        params = format!("cages = {}\ncage = [{}]\nsums = {sums:?}\n", sums.len(), rows(cage));
        constraints = r#"[[constraint]]
name = "no digit twice in a cage"
expr = 'forall(k in 1..cages)(alldifferent([cell[i, j] | i, j in 1..4 where cage[i, j] = k]))'
[[constraint]]
name = "each cage adds up"
expr = 'forall(k in 1..cages)(sum(i, j in 1..4 where cage[i, j] = k)(cell[i, j]) = sums[k])'
"#
        .to_string();
        houses = "\"no digit twice in a cage\" = \"cage {k}\"\n".to_string();
    }
    format!(
        r#"kind = "csp"
show = ["cell"]
[params]
givens = [{}]
{params}{rules}{constraints}[hints.houses]
"each row" = "row {{i}}"
"each column" = "column {{j}}"
"each box" = "box {{n}}"
{houses}{techniques}"#,
        rows(givens),
        rules = crate::common::models::SUDOKU_4X4_RULES,
    )
}

/// Where the houses are: the cage of each cell, for a Killer Sudoku.
struct Board {
    cage: Option<Grid>,
}

impl Board {
    /// The cells of a house, from its name here: "row 2", "column 3",
    /// "box 4" (boxes numbered row by row from 1), "cage 5".
    fn house_cells(&self, label: &str) -> Vec<Cell> {
        let (kind, n) = label.rsplit_once(' ').unwrap();
        let n: i64 = n.parse().unwrap();
        let all = (1..=4).flat_map(|i| (1..=4).map(move |j| (i, j)));
        match kind {
            "row" => (1..=4).map(|j| (n, j)).collect(),
            "column" => (1..=4).map(|i| (i, n)).collect(),
            "box" => {
                let (r, c) = ((n - 1) / 2, (n - 1) % 2);
                (1..=2).flat_map(|i| (1..=2).map(move |j| (2 * r + i, 2 * c + j))).collect()
            }
            "cage" => {
                let cage = self.cage.expect("a cage in a Sudoku without cages");
                all.filter(|&(i, j)| cage[i as usize - 1][j as usize - 1] == n).collect()
            }
            other => panic!("no house kind {other}"),
        }
    }

    /// The cells of a constraint the step names, such as "each box (r = 1,
    /// c = 0)" or, in parts, "each row (i = 2): 3 exactly once".
    fn rule_cells(&self, name: &str) -> Option<Vec<Cell>> {
        let number = |key: &str| -> i64 {
            let at = name.find(&format!("{key} = ")).unwrap() + key.len() + 3;
            name[at..].chars().take_while(char::is_ascii_digit).collect::<String>().parse().unwrap()
        };
        if name.starts_with("each row") {
            Some(self.house_cells(&format!("row {}", number("i"))))
        } else if name.starts_with("each column") {
            Some(self.house_cells(&format!("column {}", number("j"))))
        } else if name.starts_with("each box") {
            Some(self.house_cells(&format!("box {}", 2 * number("r") + number("c") + 1)))
        } else if name.starts_with("no digit twice in a cage") {
            Some(self.house_cells(&format!("cage {}", number("k"))))
        } else {
            None
        }
    }
}

/// Whether a house must hold every value: as many cells as values, each
/// value at most once. (A cage of fewer cells need not hold a given one.)
fn holds_every_value(house: &[Cell]) -> bool {
    house.len() == 4
}

fn cell_of(f: &ShownFact) -> Cell {
    let inner = f.var.trim_start_matches("cell[").trim_end_matches(']');
    let (r, c) = inner.split_once(',').unwrap();
    (r.trim().parse().unwrap(), c.trim().parse().unwrap())
}

fn value_of(f: &ShownFact) -> i64 {
    f.value.as_i64().unwrap()
}

type Candidates = BTreeMap<Cell, BTreeSet<i64>>;

/// Each cell's candidates from facts alone: a value given leaves it,
/// a value ruled out is gone.
fn candidates(known: &[ShownFact]) -> Candidates {
    let mut cands: Candidates = BTreeMap::new();
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

/// The (cell, value) of each fact, when each rules a value out.
fn ruled_out(facts: &[ShownFact]) -> Result<Vec<(Cell, i64)>, String> {
    match facts.iter().all(|f| f.op == "!=") {
        true => Ok(facts.iter().map(|f| (cell_of(f), value_of(f))).collect()),
        false => Err("a placement".into()),
    }
}

/// Whether `t`, one technique, holds of `facts` with `known`: checked
/// here by the shape its name promises. `rules` are the step's houses.
fn holds(t: &ShownTechnique, known: &[ShownFact], rules: &[Vec<Cell>], board: &Board) -> Result<(), String> {
    let cands = candidates(known);
    let facts = &t.facts;
    let house = |k: usize| board.house_cells(&t.houses[k]);
    match t.name.as_str() {
        "hidden single" => {
            let [f] = &facts[..] else { return Err("not one fact".into()) };
            let (x, v) = (cell_of(f), value_of(f));
            let h = house(0);
            let alone = f.op == "=" && h.contains(&x) && h.iter().all(|&c| c == x || !cands[&c].contains(&v));
            let ok = alone && holds_every_value(&h);
            ok.then_some(()).ok_or(format!("{v} has another place in {}, or need not be there", t.houses[0]))
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
        "naked subset" => naked_subset(&ruled_out(facts)?, &house(0), known, &cands),
        "hidden subset" => hidden_subset(&ruled_out(facts)?, &house(0), &cands),
        "fish" => {
            let houses: Vec<Vec<Cell>> = (0..t.houses.len()).map(house).collect();
            fish(&ruled_out(facts)?, &houses, &cands)
        }
        "pointing" | "claiming" | "intersection" => {
            let kinds = (t.houses[0].starts_with("box"), t.houses[1].starts_with("box"));
            let right_kinds = match t.name.as_str() {
                "pointing" => kinds == (true, false),
                "claiming" => kinds == (false, true),
                _ => true,
            };
            let confined = intersection(&ruled_out(facts)?, &house(0), &house(1), &cands);
            confined.and_then(|()| right_kinds.then_some(()).ok_or("the houses are of the wrong kinds".into()))
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

/// One value ruled out in `b` outside `a`, where `a` must hold it and
/// every cell of `a` that may is in `b`.
fn intersection(ruled: &[(Cell, i64)], a: &[Cell], b: &[Cell], cands: &Candidates) -> Result<(), String> {
    let v = ruled[0].1;
    let outside = ruled.iter().all(|&(c, w)| w == v && b.contains(&c) && !a.contains(&c));
    let open: Vec<Cell> = a.iter().copied().filter(|c| cands[c].contains(&v)).collect();
    let ok = outside && holds_every_value(a) && !open.is_empty() && open.iter().all(|c| b.contains(c));
    ok.then_some(()).ok_or(format!("{v} is not confined to {b:?} within {a:?}, or need not be in it"))
}

fn naked_subset(ruled: &[(Cell, i64)], h: &[Cell], known: &[ShownFact], cands: &Candidates) -> Result<(), String> {
    if ruled.iter().any(|(c, _)| !h.contains(c)) {
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

/// Values whose every place in `h` lies in as many cells, each fact
/// another value ruled out in one of them; and each fact follows: with it
/// false, the values cannot each take a cell of `h` of their own.
fn hidden_subset(ruled: &[(Cell, i64)], h: &[Cell], cands: &Candidates) -> Result<(), String> {
    if !holds_every_value(h) {
        return Err("a house that need not hold every value".into());
    }
    let found = (1u32..1 << 4).any(|mask| {
        let values: Vec<i64> = (1..=4).filter(|v| mask & (1 << (v - 1)) != 0).collect();
        let cells: BTreeSet<Cell> = h.iter().copied().filter(|c| values.iter().any(|v| cands[c].contains(v))).collect();
        values.len() >= 2
            && cells.len() == values.len()
            && ruled.iter().all(|(c, w)| cells.contains(c) && !values.contains(w))
            && ruled.iter().all(|&(x, w)| !values_fit(&values, h, cands, &mut vec![(x, w)]))
    });
    found.then_some(()).ok_or("no hidden subset explains it".into())
}

/// Whether `values` can each take a cell of `h` where it is a candidate,
/// beside the cells already `taken` (cell and value), no cell twice and no
/// value twice.
fn values_fit(values: &[i64], h: &[Cell], cands: &Candidates, taken: &mut Vec<(Cell, i64)>) -> bool {
    let Some((&v, rest)) = values.split_first() else { return true };
    if taken.iter().any(|&(c, w)| w == v && h.contains(&c)) {
        return values_fit(rest, h, cands, taken);
    }
    h.iter().any(|&c| {
        if !cands[&c].contains(&v) || taken.iter().any(|&(t, _)| t == c) {
            return false;
        }
        taken.push((c, v));
        let fits = values_fit(rest, h, cands, taken);
        taken.pop();
        fits
    })
}

/// A fish: the first half of `houses` (the base) disjoint, each holding
/// every value, with every place of the value in the second half (the
/// cover); each fact the value ruled out in a cover cell outside the base;
/// and each fact follows: with it false, the base cannot each take the
/// value in a cell of its own, no named house holding it twice.
fn fish(ruled: &[(Cell, i64)], houses: &[Vec<Cell>], cands: &Candidates) -> Result<(), String> {
    let n = houses.len() / 2;
    let (base, cover) = houses.split_at(n);
    let v = ruled[0].1;
    let in_any = |hs: &[Vec<Cell>], c: &Cell| hs.iter().any(|h| h.contains(c));
    let places: Vec<Cell> = base.iter().flatten().copied().filter(|c| cands[c].contains(&v)).collect();
    let disjoint = base.iter().enumerate().all(|(i, a)| base[i + 1..].iter().all(|b| !b.iter().any(|c| a.contains(c))));
    let shape = n >= 2
        && houses.len() == 2 * n
        && disjoint
        && base.iter().all(|h| holds_every_value(h))
        && places.iter().all(|c| in_any(cover, c))
        && ruled.iter().all(|(c, w)| *w == v && in_any(cover, c) && !in_any(base, c));
    if !shape {
        return Err(format!("{v} is not a fish in {houses:?}"));
    }
    for &(x, _) in ruled {
        if base_fits(base, houses, cands, v, &mut vec![x]) {
            return Err(format!("{v} may be in {x:?}"));
        }
    }
    Ok(())
}

/// Whether each house of `base` can take `v` in a cell where it is a
/// candidate, beside the cells `taken`, with no two of them in one of
/// `houses`.
fn base_fits(base: &[Vec<Cell>], houses: &[Vec<Cell>], cands: &Candidates, v: i64, taken: &mut Vec<Cell>) -> bool {
    let Some((first, rest)) = base.split_first() else { return true };
    let clash =
        |c: Cell, taken: &[Cell]| taken.iter().any(|&t| houses.iter().any(|h| h.contains(&c) && h.contains(&t)));
    first.iter().any(|&c| {
        if !cands[&c].contains(&v) || clash(c, taken) {
            return false;
        }
        taken.push(c);
        let fits = base_fits(rest, houses, cands, v, taken);
        taken.pop();
        fits
    })
}

/// Checks the technique of `step`, if any; counts it by name.
fn check_step(step: &ShownStep, board: &Board, counted: &mut BTreeMap<String, usize>, text: &str) {
    let Some(t) = &step.technique else { return };
    // A placement with the steps it needs folded in is named as its last
    // step found it, with the facts that one uses.
    let last = step.via.last().unwrap_or(step);
    let rules: Vec<Vec<Cell>> = last.because.iter().filter_map(|r| board.rule_cells(&r.name)).collect();
    let mut known = last.using.clone();
    let each = if t.each.is_empty() { std::slice::from_ref(t) } else { &t.each[..] };
    let mut facts = Vec::new();
    for one in each {
        holds(one, &known, &rules, board).unwrap_or_else(|e| panic!("{}: {e}\n{step:#?}\n{text}", one.text));
        known.extend(one.facts.iter().cloned());
        facts.extend(one.facts.iter().cloned());
        *counted.entry(one.name.clone()).or_default() += 1;
        let partial = one.houses.iter().any(|h| !holds_every_value(&board.house_cells(h)));
        if partial {
            *counted.entry(format!("{} in a cage of fewer cells", one.name)).or_default() += 1;
        }
    }
    let key = |f: &ShownFact| (f.var.clone(), f.op, f.value.to_string());
    // A cell's other values, ruled out with its placement, follow from it
    // (or, named before it, leave it its value).
    let placed: Vec<Cell> = step.facts.iter().filter(|f| f.op == "=").map(cell_of).collect();
    let follows = |f: &&ShownFact| f.op == "!=" && placed.contains(&cell_of(f));
    let mut named: Vec<_> = facts.iter().filter(|f| !follows(f)).map(key).collect();
    let mut new: Vec<_> = step.facts.iter().filter(|f| !follows(f)).map(key).collect();
    named.sort();
    new.sort();
    assert_eq!(named, new, "the technique speaks of the step's new facts\n{text}");
}

/// A random 4×4 Sudoku solution: a fixed one with its digits relabelled,
/// its bands, stacks, rows in a band and columns in a stack shuffled.
fn solution(rng: &mut SplitMix64) -> Grid {
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

/// Random givens (each cell kept with chance `keep`) and player entries
/// (right placements, and wrong values ruled out) for `sol`.
fn givens_and_entries(rng: &mut SplitMix64, sol: &Grid, keep: f64) -> (Grid, Vec<String>) {
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
    (givens, entries)
}

/// Entries that leave a value in two rows (or columns) of different bands
/// only in the two columns (rows) where `sol` has it in them, as an X-wing
/// needs: true, and often the next step's reason (a fish is rare on a 4×4
/// otherwise).
fn x_wing_entries(rng: &mut SplitMix64, sol: &Grid) -> Vec<String> {
    let v = 1 + rng.below(4) as i64;
    let (a, b) = (rng.below(2), 2 + rng.below(2));
    let by_rows = rng.chance(0.5);
    let at = |line: usize, k: usize| if by_rows { (line, k) } else { (k, line) };
    let cross: Vec<usize> =
        [a, b].iter().map(|&line| (0..4).find(|&k| sol[at(line, k).0][at(line, k).1] == v).unwrap()).collect();
    let mut entries = Vec::new();
    for line in [a, b] {
        for k in (0..4).filter(|k| !cross.contains(k)) {
            let (i, j) = at(line, k);
            entries.push(format!("cell[{},{}]!={v}", i + 1, j + 1));
        }
    }
    entries
}

/// Random cages over `sol`, numbered from 1 in reading order of their
/// first cells: each grown from its first cell to a random size of one to
/// four, through neighbours not yet caged whose digit is not in it yet;
/// with each cage's sum.
fn cages(rng: &mut SplitMix64, sol: &Grid) -> (Grid, Vec<i64>) {
    let mut cage = [[0i64; 4]; 4];
    let mut sums = Vec::new();
    for start in 0..16 {
        let (i, j) = (start / 4, start % 4);
        if cage[i][j] != 0 {
            continue;
        }
        let k = sums.len() as i64 + 1;
        let size = 1 + rng.below(4);
        let mut cells = vec![(i, j)];
        cage[i][j] = k;
        while cells.len() < size {
            let digits: Vec<i64> = cells.iter().map(|&(a, b)| sol[a][b]).collect();
            let mut next: Vec<(usize, usize)> = Vec::new();
            for &(a, b) in &cells {
                let near = [(a.wrapping_sub(1), b), (a + 1, b), (a, b.wrapping_sub(1)), (a, b + 1)];
                next.extend(near.into_iter().filter(|&(x, y)| x < 4 && y < 4 && cage[x][y] == 0));
            }
            next.retain(|&(x, y)| !digits.contains(&sol[x][y]));
            if next.is_empty() {
                break;
            }
            let (x, y) = next[rng.below(next.len())];
            cage[x][y] = k;
            cells.push((x, y));
        }
        sums.push(cells.iter().map(|&(a, b)| sol[a][b]).sum());
    }
    (cage, sums)
}

/// The steps of `text` from `entries`, each named one checked; `case`
/// picks the parts and the `--next` mode.
fn check_steps(text: &str, entries: &[String], case: usize, board: &Board, counted: &mut BTreeMap<String, usize>) {
    let puzzle = load_text(text);
    let options = SolveOptions { parts: case % 4 == 1, ..SolveOptions::default() };
    let next = if case.is_multiple_of(2) { Next::Placement } else { Next::Any };
    let request = PlanRequest { given: entries.to_vec(), next, count_limit: 100, ..PlanRequest::default() };
    let report = hints::steps(puzzle.as_ref(), &options, &request).unwrap();
    let shown = format!("{text}\nentries {entries:?}, parts {}, next {next:?}", options.parts);
    for step in &report.steps {
        check_step(step, board, counted, &shown);
        step.via.iter().for_each(|v| check_step(v, board, counted, &shown));
    }
}

fn count(counted: &BTreeMap<String, usize>, names: &[&str]) -> usize {
    names.iter().map(|n| counted.get(*n).copied().unwrap_or(0)).sum()
}

#[test]
fn every_named_step_has_its_shape() {
    let mut rng = SplitMix64::new(41);
    let mut counted: BTreeMap<String, usize> = BTreeMap::new();
    let board = Board { cage: None };
    for case in 0..400usize {
        let sol = solution(&mut rng);
        // One case in five starts from no givens, with an X-wing planted.
        let keep = if case.is_multiple_of(5) { 0.0 } else { [0.15, 0.3, 0.45][case % 3] };
        let (givens, mut entries) = givens_and_entries(&mut rng, &sol, keep);
        if case.is_multiple_of(5) {
            entries.extend(x_wing_entries(&mut rng, &sol));
        }
        let text = model(&givens, None, &sudoku_techniques(case % 8 >= 4, case % 16 >= 8));
        check_steps(&text, &entries, case, &board, &mut counted);
    }
    // The check would pass with nothing named: each kind must be met.
    for name in ["hidden single", "naked single", "already placed"] {
        assert!(count(&counted, &[name]) >= 20, "few steps named {name}: {counted:?}");
    }
    assert!(count(&counted, &["pointing", "claiming", "naked subset"]) >= 3, "few named: {counted:?}");
    for name in ["hidden subset", "fish"] {
        assert!(count(&counted, &[name]) >= 3, "few steps named {name}: {counted:?}");
    }
    eprintln!("named: {counted:?}");
}

#[test]
fn killer_cages_are_houses_that_need_not_hold_every_value() {
    let mut rng = SplitMix64::new(4141);
    let mut counted: BTreeMap<String, usize> = BTreeMap::new();
    for case in 0..300 {
        let sol = solution(&mut rng);
        let (cage, sums) = cages(&mut rng, &sol);
        let (givens, entries) = givens_and_entries(&mut rng, &sol, [0.0, 0.1, 0.2][case % 3]);
        let text = model(&givens, Some((&cage, &sums)), KILLER_TECHNIQUES);
        check_steps(&text, &entries, case, &Board { cage: Some(cage) }, &mut counted);
    }
    for name in ["hidden single", "naked single", "already placed"] {
        assert!(count(&counted, &[name]) >= 20, "few steps named {name}: {counted:?}");
    }
    // Cages of fewer cells than values are met, where they may be.
    let partial = ["already placed in a cage of fewer cells", "naked subset in a cage of fewer cells"];
    assert!(count(&counted, &partial) >= 3, "few steps in small cages: {counted:?}");
    eprintln!("named: {counted:?}");
}

/// The steps of the model `text` from `entries`, every one shown.
fn every_step(text: &str, entries: &[&str]) -> Vec<ShownStep> {
    let puzzle = load_text(text);
    let given = entries.iter().map(|e| e.to_string()).collect();
    let request = PlanRequest { given, next: Next::Any, count_limit: 1000, ..PlanRequest::default() };
    hints::steps(puzzle.as_ref(), &SolveOptions::default(), &request).unwrap().steps
}

/// The step of `steps` whose new facts are `facts` ("x[1]!=3"), on the
/// constraints named `because`; panics when there is none.
fn the_step<'s>(steps: &'s [ShownStep], facts: &[&str], because: &[&str]) -> &'s ShownStep {
    let said = |f: &ShownFact| format!("{}{}{}", f.var, f.op, f.value);
    let found = steps.iter().find(|s| {
        s.facts.iter().map(said).collect::<Vec<_>>() == facts
            && s.because.iter().map(|r| r.name.as_str()).collect::<Vec<_>>() == because
    });
    found.unwrap_or_else(|| panic!("no step {facts:?} because {because:?}: {steps:#?}"))
}

/// The name of `step`'s technique, if it has one.
fn technique_of(step: &ShownStep) -> Option<&str> {
    step.technique.as_ref().map(|t| t.name.as_str())
}

/// A model of `vars` and `rules` (TOML) whose hint table has one
/// technique, `shape`, named after it, and the houses `houses`.
fn one_technique(vars: &str, rules: &str, houses: &str, shape: &str, text: &str) -> String {
    format!(
        "kind = \"csp\"\n[vars]\n{vars}{rules}[hints.houses]\n{houses}[[hints.technique]]\n\
         shape = \"{shape}\"\nname = \"{shape}\"\ntext = \"{text}\"\n"
    )
}

/// "The 1s of the cage are all in the row": so the row's other cells hold
/// no 1, when the cage must hold a 1. A cage of four cells of 1 to 4 must,
/// and the step is named; a cage of three need not, and the step, found
/// there because the cage's cells can take only three digits between them,
/// is not named an intersection: the cage holding 1 is no fact of its house.
#[test]
fn an_intersection_needs_a_house_that_holds_every_value() {
    let rules = |cage: &str| {
        format!(
            "[[constraint]]\nname = \"the row\"\nexpr = 'alldifferent([r[i] | i in 1..4])'\n\
             [[constraint]]\nname = \"the cage\"\nexpr = 'alldifferent([r[1], r[2], {cage}])'\n"
        )
    };
    let houses = "\"the row\" = \"the row\"\n\"the cage\" = \"the cage\"\n";
    let sentence = "the {value}s of {house} are all in {other}";
    let model = |q: &str, cage: &str| {
        let vars = format!("r = {{ index = [\"1..4\"], domain = \"1..4\" }}\nq = {{ {q}domain = \"1..4\" }}\n");
        one_technique(&vars, &rules(cage), houses, "intersection", sentence)
    };
    let facts = ["r[3]!=1", "r[4]!=1"];
    let because = ["the row", "the cage"];

    let four = model("index = [\"1..2\"], ", "q[1], q[2]");
    let steps = every_step(&four, &["q[1]!=1", "q[2]!=1"]);
    let step = the_step(&steps, &facts, &because);
    let named = step.technique.as_ref().expect("named in a cage of four cells");
    assert_eq!(
        (named.name.as_str(), &named.houses[..]),
        ("intersection", &["the cage".to_string(), "the row".to_string()][..])
    );

    // Three cells of which r[1] and r[2] can take 1, 2 and 3 and q only 2
    // and 3: the cage holds 1, in the row, but only as a naked triple does.
    let three = model("", "q");
    let steps = every_step(&three, &["r[1]!=4", "r[2]!=4", "q!=4", "q!=1"]);
    let step = the_step(&steps, &facts, &because);
    assert_eq!(technique_of(step), None, "{step:#?}");
}

/// An X-wing whose base houses are cages: in cage 1 and cage 2, 1 can only
/// go in row 1 and row 2, so nowhere else in those rows, when each cage
/// must hold a 1. Cages of four cells of 1 to 4 must, and the step is
/// named; cages of two need not, and the step, found there because each
/// cage's cells hold one pair of digits between them, is not named a fish.
#[test]
fn a_fish_needs_base_houses_that_hold_every_value() {
    let houses = "\"each row\" = \"row {i}\"\n\"each cage\" = \"cage {j}\"\n";
    let sentence = "in {houses}, {value} can only go in {other}, so not in {cells}";
    let model = |cage: &str| {
        let vars = "x = { index = [\"1..2\", \"1..4\"], domain = \"1..4\" }\n\
                    y = { index = [\"1..2\", \"1..2\"], domain = \"1..4\" }\n";
        let rules = format!(
            "[[constraint]]\nname = \"each row\"\nexpr = 'forall(i in 1..2)(alldifferent([x[i, j] | j in 1..4]))'\n\
             [[constraint]]\nname = \"each cage\"\nexpr = 'forall(j in 1..2)(alldifferent([{cage}]))'\n"
        );
        one_technique(vars, &rules, houses, "fish", sentence)
    };
    let facts = ["x[1,3]!=1", "x[1,4]!=1", "x[2,3]!=1", "x[2,4]!=1"];
    let because = ["each row (i = 1)", "each row (i = 2)", "each cage (j = 1)", "each cage (j = 2)"];

    let four = model("x[1, j], x[2, j], y[1, j], y[2, j]");
    let steps = every_step(&four, &["y[1,1]!=1", "y[1,2]!=1", "y[2,1]!=1", "y[2,2]!=1"]);
    let named = the_step(&steps, &facts, &because).technique.as_ref().expect("named with cages of four cells");
    assert_eq!(named.houses, ["cage 1", "cage 2", "row 1", "row 2"]);

    // Cage 1 takes 1 and 2, cage 2 takes 1 and 3: each holds a 1, but only
    // as a naked pair does.
    let two = model("x[1, j], x[2, j]");
    let entries =
        ["x[1,1]!=3", "x[1,1]!=4", "x[2,1]!=3", "x[2,1]!=4", "x[1,2]!=2", "x[1,2]!=4", "x[2,2]!=2", "x[2,2]!=4"];
    let steps = every_step(&two, &entries);
    let step = the_step(&steps, &facts, &because);
    assert_eq!(technique_of(step), None, "{step:#?}");
}

/// "1 and 2 can only go in x[1] and x[2] in the cage, so those cells hold
/// no other value", when the cage must hold 1 and 2. A cage of four cells
/// of 1 to 4 must, and the step is named; a cage of three need not, and the
/// step, found there with the cage's sum (6 or 7: 1 and 2 with a 3 or a 4),
/// is not named a hidden subset: the digits the sum asks for are no fact of
/// the cage's house.
#[test]
fn a_hidden_subset_needs_a_house_that_holds_every_value() {
    let model = |n: usize| {
        let vars = format!("x = {{ index = [\"1..{n}\"], domain = \"1..4\" }}\n");
        let rules = format!(
            "[[constraint]]\nname = \"the cage\"\nexpr = 'alldifferent([x[i] | i in 1..{n}])'\n\
             [[constraint]]\nname = \"the sum\"\nexpr = 'x[1] + x[2] + x[3] >= 6 /\\ x[1] + x[2] + x[3] <= 7'\n"
        );
        let sentence = "{values} can only go in {cells} in {house}, so those cells hold no other value";
        one_technique(&vars, &rules, "\"the cage\" = \"the cage\"\n", "hidden subset", sentence)
    };
    let facts = ["x[1]!=3", "x[2]!=3"];

    let steps = every_step(&model(4), &["x[3]!=1", "x[3]!=2", "x[4]!=1", "x[4]!=2"]);
    let named = the_step(&steps, &facts, &["the cage"]).technique.as_ref().expect("named in a cage of four cells");
    assert_eq!(named.text, "1 and 2 can only go in x[1] and x[2] in the cage, so those cells hold no other value");

    let steps = every_step(&model(3), &["x[3]!=1", "x[3]!=2"]);
    let step = the_step(&steps, &facts, &["the cage", "the sum"]);
    assert_eq!(technique_of(step), None, "{step:#?}");
}

/// A step no one shape explains is named as a chain of parts, each
/// checked with the facts named before it: an X-wing (its base cages of
/// four cells, each holding a 1 only in rows 1 and 2) rules 1 out of
/// (1, 3), which leaves it 4, which row 1 then holds nowhere else.
#[test]
fn a_step_is_named_as_a_fish_then_the_placement_it_leaves() {
    let houses = "\"each row\" = \"row {i}\"\n\"each cage\" = \"cage {j}\"\n";
    let vars = "x = { index = [\"1..2\", \"1..4\"], domain = \"1..4\" }\n\
                y = { index = [\"1..2\", \"1..2\"], domain = \"1..4\" }\n";
    let rules = "[[constraint]]\nname = \"each row\"\nexpr = 'forall(i in 1..2)(alldifferent([x[i, j] | j in 1..4]))'\n\
                 [[constraint]]\nname = \"each cage\"\n\
                 expr = 'forall(j in 1..2)(alldifferent([x[1, j], x[2, j], y[1, j], y[2, j]]))'\n";
    let mut text = one_technique(vars, rules, houses, "fish", "in {houses}, {value} can only go in {other}");
    for (shape, sentence) in [("single value", "{value} goes in {at}"), ("taken", "{value} is already in {house}")] {
        text += &format!("[[hints.technique]]\nshape = \"{shape}\"\nname = \"{shape}\"\ntext = \"{sentence}\"\n");
    }
    let entries = ["y[1,1]!=1", "y[1,2]!=1", "y[2,1]!=1", "y[2,2]!=1", "x[1,3]!=2", "x[1,3]!=3"];
    let steps = every_step(&text, &entries);
    let facts = ["x[1,1]!=4", "x[1,2]!=4", "x[1,3]!=1", "x[1,3]=4", "x[1,4]!=1", "x[1,4]!=4", "x[2,3]!=1", "x[2,4]!=1"];
    let because = ["each row (i = 1)", "each row (i = 2)", "each cage (j = 1)", "each cage (j = 2)"];
    let named = the_step(&steps, &facts, &because).technique.as_ref().expect("named as a chain");
    assert_eq!(named.name, "fish, single value and taken");
    assert_eq!(
        named.text,
        "in cage 1 and cage 2, 1 can only go in row 1 and row 2; 4 goes in (1, 3); 4 is already in row 1"
    );
    let said = |t: &ShownTechnique| t.facts.iter().map(|f| format!("{}{}{}", f.var, f.op, f.value)).collect::<Vec<_>>();
    let parts: Vec<Vec<String>> = named.each.iter().map(said).collect();
    assert_eq!(
        parts,
        [
            vec!["x[1,3]!=1", "x[1,4]!=1", "x[2,3]!=1", "x[2,4]!=1"],
            vec!["x[1,3]=4"],
            vec!["x[1,1]!=4", "x[1,2]!=4", "x[1,4]!=4"]
        ]
    );
}
