//! The grid globals against brute force: random grids up to 4 × 4 and
//! 3 × 5 whose cells are fixed on, fixed off or decision variables, written
//! four ways (a var array with the fixed cells as constraints, a param
//! array, a mix of both through `array2d`, and each cell's Boolean as a
//! comparison of an int variable), sometimes with a bound on the cells on.
//! A counter written here walks every assignment of the free cells and
//! counts, for each, the regions that are connected, the paths from the
//! start (to the end) over exactly the cells on, or the loops through them
//! (as sets of steps); nothing is shared with somaria's code. Every engine
//! must count the same, `solve` must agree on whether a solution exists,
//! `facts` must find the values each cell takes, and `explain` must agree
//! that there is no solution.

use somaria::model::Source;
use somaria::puzzles::{self, CountOptions, Puzzle, SolveOptions, Status};
use somaria::rng::SplitMix64;

#[derive(Copy, Clone, Debug, PartialEq)]
enum Global {
    Path { start: (usize, usize), end: Option<(usize, usize)> },
    Loop,
    Connected,
}

#[derive(Copy, Clone, Debug, PartialEq)]
enum Cell {
    On,
    Off,
    Free,
}

#[derive(Copy, Clone, Debug, PartialEq)]
enum Form {
    /// `on` a var array; fixed cells as constraints.
    VarArray,
    /// A param array: every cell fixed.
    Param,
    /// `array2d` of fixed cells and free variables.
    Mixed,
    /// Each cell's Boolean is `x[i, j] = 2` for an int variable over 1..2.
    Reified,
}

#[derive(Clone, Debug)]
struct Case {
    rows: usize,
    cols: usize,
    cells: Vec<Cell>,
    global: Global,
    most_on: Option<usize>,
    form: Form,
}

impl Case {
    fn random(rng: &mut SplitMix64, global: u8) -> Case {
        let (rows, cols) = [(2, 2), (2, 3), (3, 3), (2, 4), (3, 4), (4, 4), (3, 5), (1, 4)][rng.below(8)];
        let form = [Form::VarArray, Form::Param, Form::Mixed, Form::Reified][rng.below(4)];
        // Mostly free cells only on small grids, where every cut is tried
        // against many solutions but the counts stay small.
        let densities = if rows * cols <= 12 { &[0.2, 0.35, 0.5, 0.9][..] } else { &[0.2, 0.35, 0.5][..] };
        let free = if form == Form::Param { 0.0 } else { densities[rng.below(densities.len())] };
        let off = [0.0, 0.1, 0.25][rng.below(3)];
        let cells: Vec<Cell> = (0..rows * cols)
            .map(|_| {
                if rng.chance(free) {
                    Cell::Free
                } else if rng.chance(off) {
                    Cell::Off
                } else {
                    Cell::On
                }
            })
            .collect();
        let cell = |rng: &mut SplitMix64| (rng.below(rows), rng.below(cols));
        let global = match global {
            0 => {
                let start = cell(rng);
                let end = if rng.chance(0.4) { Some(cell(rng)) } else { None };
                Global::Path { start, end }
            }
            1 => Global::Loop,
            _ => Global::Connected,
        };
        let most_on = rng.chance(0.25).then(|| 1 + rng.below(rows * cols));
        Case { rows, cols, cells, global, most_on, form }
    }

    fn model(&self) -> String {
        let (r, c) = (self.rows, self.cols);
        let code = |k: usize| match self.cells[k] {
            Cell::On => 1,
            Cell::Off => 0,
            Cell::Free => 2,
        };
        let grid: Vec<String> = (0..r)
            .map(|i| format!("[{}]", (0..c).map(|j| code(i * c + j).to_string()).collect::<Vec<_>>().join(", ")))
            .collect();
        let mut text = format!("kind = \"csp\"\n[params]\nfix = [{}]\n", grid.join(", "));
        let on = match self.form {
            Form::VarArray => {
                text.push_str(&format!("[vars]\non = {{ index = [\"1..{r}\", \"1..{c}\"], domain = \"bool\" }}\n"));
                text.push_str(
                    "[[constraint]]\nexpr = 'forall(i in index_set_1of2(fix), j in index_set_2of2(fix) where fix[i, j] != 2)(on[i, j] <-> fix[i, j] = 1)'\n",
                );
                "on".to_string()
            }
            Form::Param => format!("array2d(1..{r}, 1..{c}, [fix[i, j] = 1 | i in 1..{r}, j in 1..{c}])"),
            Form::Mixed => {
                text.push_str(&format!("[vars]\nv = {{ index = [\"1..{r}\", \"1..{c}\"], domain = \"bool\" }}\n"));
                text.push_str(&format!(
                    "[[constraint]]\nexpr = 'forall(i in 1..{r}, j in 1..{c} where fix[i, j] != 2)(not v[i, j])'\n"
                ));
                format!(
                    "array2d(1..{r}, 1..{c}, [fix[i, j] = 1 \\/ (fix[i, j] = 2 /\\ v[i, j]) | i in 1..{r}, j in 1..{c}])"
                )
            }
            Form::Reified => {
                text.push_str(&format!("[vars]\nx = {{ index = [\"1..{r}\", \"1..{c}\"], domain = \"1..2\" }}\n"));
                text.push_str(&format!(
                    "[[constraint]]\nexpr = 'forall(i in 1..{r}, j in 1..{c} where fix[i, j] != 2)(x[i, j] = 1 + fix[i, j])'\n"
                ));
                format!("array2d(1..{r}, 1..{c}, [x[i, j] = 2 | i in 1..{r}, j in 1..{c}])")
            }
        };
        if let Some(most) = self.most_on {
            text.push_str(&format!(
                "[[constraint]]\nname = \"at most {most} on\"\nexpr = 'sum(b in {on})(bool2int(b)) <= {most}'\n"
            ));
        }
        let call = match self.global {
            Global::Path { start, end } => {
                let end = end.map(|(a, b)| format!(", {}, {}", a + 1, b + 1)).unwrap_or_default();
                format!("grid_path({on}, {}, {}{end})", start.0 + 1, start.1 + 1)
            }
            Global::Loop => format!("grid_loop({on})"),
            Global::Connected => format!("grid_connected({on})"),
        };
        text.push_str(&format!("[[constraint]]\nname = \"the global\"\nexpr = '{call}'\n"));
        text
    }
}

/// Solutions of the case and, per cell, whether it is off or on in some.
fn brute_force(case: &Case) -> (u64, Vec<[bool; 2]>) {
    let (rows, cols) = (case.rows, case.cols);
    let free: Vec<usize> = (0..rows * cols).filter(|&k| case.cells[k] == Cell::Free).collect();
    let mut total = 0;
    let mut seen = vec![[false; 2]; rows * cols];
    for mask in 0u32..1 << free.len() {
        let mut on: Vec<bool> = case.cells.iter().map(|&c| c == Cell::On).collect();
        for (bit, &k) in free.iter().enumerate() {
            on[k] = mask >> bit & 1 == 1;
        }
        if case.most_on.is_some_and(|m| on.iter().filter(|&&b| b).count() > m) {
            continue;
        }
        let found = match case.global {
            Global::Connected => u64::from(connected(rows, cols, &on)),
            Global::Path { start, end } => paths(rows, cols, &on, start, end),
            Global::Loop => loops(rows, cols, &on),
        };
        total += found;
        if found > 0 {
            for (k, &b) in on.iter().enumerate() {
                seen[k][usize::from(b)] = true;
            }
        }
    }
    (total, seen)
}

fn neighbours(rows: usize, cols: usize, k: usize) -> Vec<usize> {
    let (r, c) = (k / cols, k % cols);
    let mut out = Vec::new();
    if r > 0 {
        out.push(k - cols);
    }
    if r + 1 < rows {
        out.push(k + cols);
    }
    if c > 0 {
        out.push(k - 1);
    }
    if c + 1 < cols {
        out.push(k + 1);
    }
    out
}

fn connected(rows: usize, cols: usize, on: &[bool]) -> bool {
    let Some(first) = on.iter().position(|&b| b) else { return true };
    let mut reached = vec![false; on.len()];
    reached[first] = true;
    let mut stack = vec![first];
    while let Some(k) = stack.pop() {
        for n in neighbours(rows, cols, k) {
            if on[n] && !reached[n] {
                reached[n] = true;
                stack.push(n);
            }
        }
    }
    on.iter().zip(&reached).all(|(&o, &r)| !o || r)
}

/// Simple paths from `here` over the unvisited cells that are on, counted
/// when they have taken all `left` cells and stand on `end` (if any); a path
/// never passes through `end`.
fn walk(rows: usize, cols: usize, on: &[bool], seen: &mut [bool], here: usize, left: usize, end: Option<usize>) -> u64 {
    if left == 0 {
        return u64::from(end.is_none_or(|e| e == here));
    }
    if end == Some(here) {
        return 0;
    }
    let mut total = 0;
    for n in neighbours(rows, cols, here) {
        if on[n] && !seen[n] {
            seen[n] = true;
            total += walk(rows, cols, on, seen, n, left - 1, end);
            seen[n] = false;
        }
    }
    total
}

fn paths(rows: usize, cols: usize, on: &[bool], start: (usize, usize), end: Option<(usize, usize)>) -> u64 {
    let s = start.0 * cols + start.1;
    if !on[s] || end.is_some_and(|(a, b)| !on[a * cols + b]) {
        return 0;
    }
    let mut seen = vec![false; on.len()];
    seen[s] = true;
    let left = on.iter().filter(|&&b| b).count() - 1;
    walk(rows, cols, on, &mut seen, s, left, end.map(|(a, b)| a * cols + b))
}

/// Loops through exactly the cells on, each counted once (not per
/// direction).
fn loops(rows: usize, cols: usize, on: &[bool]) -> u64 {
    let count = on.iter().filter(|&&b| b).count();
    if count < 3 {
        return 0;
    }
    let s = on.iter().position(|&b| b).expect("a cell on");
    // Closed walks from s back next to s: each loop twice, once per direction.
    fn closing(rows: usize, cols: usize, on: &[bool], seen: &mut [bool], here: usize, left: usize, s: usize) -> u64 {
        if left == 0 {
            return u64::from(neighbours(rows, cols, here).contains(&s));
        }
        let mut total = 0;
        for n in neighbours(rows, cols, here) {
            if on[n] && !seen[n] {
                seen[n] = true;
                total += closing(rows, cols, on, seen, n, left - 1, s);
                seen[n] = false;
            }
        }
        total
    }
    let mut seen = vec![false; on.len()];
    seen[s] = true;
    closing(rows, cols, on, &mut seen, s, count - 1, s) / 2
}

fn load(text: &str) -> Box<dyn Puzzle> {
    puzzles::load(&Source::from_text("grid.toml", text)).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn check_case(case: &Case, with_facts: bool) {
    let text = case.model();
    let puzzle = load(&text);
    let (expected, seen) = brute_force(case);
    let engines: &[&str] = match case.form {
        Form::Reified => &["auto", "direct", "order", "log", "eager"],
        _ => &["auto", "eager"],
    };
    for &engine in engines {
        let options = CountOptions { engine: Some(engine.to_string()), ..Default::default() };
        let counted = puzzle.count(&options).unwrap_or_else(|e| panic!("{engine}: {e}\n{text}"));
        assert_eq!(counted.count, expected, "count with {engine}\n{text}");
        assert!(counted.complete);
        let solved = puzzle.solve(&SolveOptions { engine: Some(engine.to_string()), ..Default::default() }).unwrap();
        let status = if expected > 0 { Status::Solved } else { Status::NoSolution };
        assert_eq!(solved.status, status, "solve with {engine}\n{text}");
    }
    if expected == 0 {
        let explained = puzzle.explain(&SolveOptions::default()).unwrap();
        assert_eq!(explained.status, Status::NoSolution, "{text}");
        assert!(!explained.constraints.is_empty(), "{text}");
        return;
    }
    if with_facts && case.form == Form::VarArray {
        let facts = puzzle.facts(&SolveOptions::default()).unwrap();
        let rows = facts.json["values"]["on"].as_array().unwrap();
        for (i, row) in rows.iter().enumerate() {
            for (j, values) in row.as_array().unwrap().iter().enumerate() {
                let took: Vec<bool> = values.as_array().unwrap().iter().map(|v| v.as_bool().unwrap()).collect();
                let k = i * case.cols + j;
                let wanted: Vec<bool> = [false, true].into_iter().filter(|&b| seen[k][usize::from(b)]).collect();
                assert_eq!(took, wanted, "facts at ({i}, {j})\n{text}");
            }
        }
    }
}

fn run(global: u8, cases: usize, seed: u64) {
    let cases = std::env::var("SOMARIA_GRID_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(cases);
    let mut rng = SplitMix64::new(seed);
    for k in 0..cases {
        let case = Case::random(&mut rng, global);
        check_case(&case, k % 3 == 0);
    }
}

#[test]
fn paths_count_as_brute_force() {
    run(0, 250, 1);
}

#[test]
fn loops_count_as_brute_force() {
    run(1, 250, 2);
}

#[test]
fn regions_count_as_brute_force() {
    run(2, 250, 3);
}

#[test]
fn the_brute_force_counts_known_grids() {
    let all = |rows: usize, cols: usize| vec![true; rows * cols];
    // Hamiltonian paths of a 3 x 3 grid from a corner, and to the far corner.
    assert_eq!(paths(3, 3, &all(3, 3), (0, 0), None), 8);
    assert_eq!(paths(3, 3, &all(3, 3), (0, 0), Some((2, 2))), 2);
    // Hamiltonian cycles of a 4 x 4 grid, and of a 2 x n strip (one).
    assert_eq!(loops(4, 4, &all(4, 4)), 6);
    assert_eq!(loops(2, 5, &all(2, 5)), 1);
    assert_eq!(loops(3, 3, &all(3, 3)), 0);
    assert!(!connected(2, 2, &[true, false, false, true]));
    assert!(connected(2, 2, &[false; 4]));
}
