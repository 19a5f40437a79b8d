//! The grid globals against brute force: random grids up to 4 × 4 and
//! 3 × 5 whose cells are fixed on, fixed off or decision variables, written
//! four ways (a var array with the fixed cells as constraints, a param
//! array, a mix of both through `array2d`, and each cell's Boolean as a
//! comparison of an int variable), sometimes with a bound on the cells on.
//! A counter written here walks every assignment of the free cells and
//! counts, for each, the regions that are connected, the paths from the
//! start (to the end) over exactly the cells on, or the loops through them
//! (as sets of steps); nothing is shared with somaria's code. Loops with
//! their step arrays (`grid_loop(on, across, down)`) also get steps fixed
//! and slitherlink-like clues (the steps around a 2 × 2 block of cells),
//! counted against the brute force's loops as sets of steps, and each
//! solution's step arrays must be one of those loops. Every engine
//! must count the same, `solve` must agree on whether a solution exists,
//! `facts` must find the values each cell takes, and `explain` must agree
//! that there is no solution.

use std::collections::HashSet;

use somaria::puzzles::{CountOptions, Puzzle, SolveOptions, Status};
use somaria::rng::SplitMix64;

use crate::common;

use common::cli::refused;
use common::models::load_text;

#[derive(Copy, Clone, Debug, PartialEq)]
enum Global {
    Path {
        start: (usize, usize),
        end: Option<(usize, usize)>,
    },
    Loop,
    /// `grid_loop(on, across, down)`, with some steps fixed and clues.
    LoopSteps,
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
    /// Per step (across, then down, row by row), fixed taken or not.
    step_fix: Vec<Option<bool>>,
    /// `((i, j), n)`: the steps around the 2 × 2 block of cells with top
    /// left (i, j) number n.
    clues: Vec<((usize, usize), usize)>,
    /// Minimize (`false`) or maximize (`true`) the number of cells on.
    objective: Option<bool>,
}

impl Case {
    fn random(rng: &mut SplitMix64, global: u8) -> Case {
        let (rows, cols) = [(2, 2), (2, 3), (3, 3), (2, 4), (3, 4), (4, 4), (3, 5), (1, 4)][rng.below(8)];
        let form = [Form::VarArray, Form::Param, Form::Mixed, Form::Reified][rng.below(4)];
        // Fixed steps and clues on top of fixed cells leave few loops: mostly
        // free cells there, as in a slitherlink.
        let form = if global == 3 && form == Form::Param && rng.chance(0.7) { Form::VarArray } else { form };
        // Mostly free cells only on small grids, where every cut is tried
        // against many solutions but the counts stay small.
        let densities = if global == 3 {
            &[0.5, 0.7, 0.9][..]
        } else if rows * cols <= 12 {
            &[0.2, 0.35, 0.5, 0.9][..]
        } else {
            &[0.2, 0.35, 0.5][..]
        };
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
            3 => Global::LoopSteps,
            _ => Global::Connected,
        };
        let most_on = rng.chance(0.25).then(|| 1 + rng.below(rows * cols));
        let mut step_fix = Vec::new();
        let mut clues = Vec::new();
        if global == Global::LoopSteps {
            let fixed = [0.0, 0.1, 0.2][rng.below(3)];
            step_fix = (0..num_steps(rows, cols)).map(|_| rng.chance(fixed).then(|| rng.chance(0.5))).collect();
            if rows > 1 && cols > 1 {
                for _ in 0..rng.below(3) {
                    clues.push(((rng.below(rows - 1), rng.below(cols - 1)), rng.below(4)));
                }
            }
        }
        // An objective over a lazily cut global asks for literals after
        // the cuts made variables of their own.
        let objective = (global != Global::LoopSteps && rng.chance(0.3)).then(|| rng.chance(0.5));
        Case { rows, cols, cells, global, most_on, form, step_fix, clues, objective }
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
        let mut text = "kind = \"csp\"\n".to_string();
        if let Some(maximize) = self.objective {
            let sense = if maximize { "maximize" } else { "minimize" };
            text.push_str(&format!("{sense} = 'sum(b in ON)(bool2int(b))'\n"));
        }
        text.push_str(&format!("[params]\nfix = [{}]\n", grid.join(", ")));
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
        text = text.replacen("ON", &on, 1);
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
            Global::LoopSteps => format!("grid_loop({on}, across, down)"),
            Global::Connected => format!("grid_connected({on})"),
        };
        text.push_str(&format!("[[constraint]]\nname = \"the global\"\nexpr = '{call}'\n"));
        if self.global == Global::LoopSteps {
            self.step_constraints(&mut text);
        }
        text
    }

    /// The step arrays' declarations (appended as TOML: `[vars.across]`
    /// tables may follow the constraints), the fixed steps and the clues.
    fn step_constraints(&self, text: &mut String) {
        let (r, c) = (self.rows, self.cols);
        text.push_str(&format!("[vars.across]\nindex = [\"1..{r}\", \"1..{}\"]\ndomain = \"bool\"\n", c - 1));
        text.push_str(&format!("[vars.down]\nindex = [\"1..{}\", \"1..{c}\"]\ndomain = \"bool\"\n", r - 1));
        let fixed: Vec<String> = self
            .step_fix
            .iter()
            .enumerate()
            .filter_map(|(k, fix)| {
                let name = step_name(r, c, k);
                fix.map(|taken| if taken { name } else { format!("not {name}") })
            })
            .collect();
        if !fixed.is_empty() {
            text.push_str(&format!("[[constraint]]\nname = \"fixed steps\"\nexpr = '{}'\n", fixed.join(" /\\ ")));
        }
        for &((i, j), n) in &self.clues {
            let around: Vec<String> =
                block_steps(r, c, i, j).iter().map(|&k| format!("bool2int({})", step_name(r, c, k))).collect();
            text.push_str(&format!("[[constraint]]\nexpr = '{} = {n}'\n", around.join(" + ")));
        }
    }
}

/// The steps of a grid: across (between (i, j) and (i, j + 1)) row by row,
/// then down (between (i, j) and (i + 1, j)).
fn num_steps(rows: usize, cols: usize) -> usize {
    rows * (cols - 1) + (rows - 1) * cols
}

/// The step's name in a model, 1-based.
fn step_name(rows: usize, cols: usize, k: usize) -> String {
    let across = rows * (cols - 1);
    if k < across {
        format!("across[{}, {}]", k / (cols - 1) + 1, k % (cols - 1) + 1)
    } else {
        format!("down[{}, {}]", (k - across) / cols + 1, (k - across) % cols + 1)
    }
}

/// The step between two neighbouring cells.
fn step_between(rows: usize, cols: usize, a: usize, b: usize) -> usize {
    let (a, b) = (a.min(b), a.max(b));
    if b == a + 1 { (a / cols) * (cols - 1) + a % cols } else { rows * (cols - 1) + a }
}

/// The four steps around the 2 × 2 block of cells with top left (i, j).
fn block_steps(rows: usize, cols: usize, i: usize, j: usize) -> [usize; 4] {
    let k = i * cols + j;
    [
        step_between(rows, cols, k, k + 1),
        step_between(rows, cols, k + cols, k + cols + 1),
        step_between(rows, cols, k, k + cols),
        step_between(rows, cols, k + 1, k + cols + 1),
    ]
}

/// What the brute force finds: the number of solutions, per cell whether
/// it is off or on in some, and for loops with step arrays every solution's
/// steps (as a bit set).
struct Found {
    total: u64,
    seen: Vec<[bool; 2]>,
    step_sets: HashSet<u64>,
}

/// Solutions of the case.
fn brute_force(case: &Case) -> Found {
    let (rows, cols) = (case.rows, case.cols);
    let mut step_sets = HashSet::new();
    let free: Vec<usize> = (0..rows * cols).filter(|&k| case.cells[k] == Cell::Free).collect();
    let mut total = 0;
    let mut seen = vec![[false; 2]; rows * cols];
    // With an objective, only the solutions of the best number of cells on.
    let mut best: Option<usize> = None;
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
            Global::LoopSteps => {
                let fits = |set: u64| {
                    let taken = |k: usize| set >> k & 1 == 1;
                    case.step_fix.iter().enumerate().all(|(k, fix)| fix.is_none_or(|f| f == taken(k)))
                        && case.clues.iter().all(|&((i, j), n)| {
                            block_steps(rows, cols, i, j).iter().filter(|&&k| taken(k)).count() == n
                        })
                };
                let sets: Vec<u64> = loop_steps(rows, cols, &on).into_iter().filter(|&set| fits(set)).collect();
                step_sets.extend(&sets);
                sets.len() as u64
            }
        };
        if found == 0 {
            continue;
        }
        let lit = on.iter().filter(|&&b| b).count();
        if let Some(maximize) = case.objective {
            let better = best.is_none_or(|b| if maximize { lit > b } else { lit < b });
            if better {
                (best, total, seen) = (Some(lit), 0, vec![[false; 2]; rows * cols]);
            } else if best != Some(lit) {
                continue;
            }
        }
        total += found;
        for (k, &b) in on.iter().enumerate() {
            seen[k][usize::from(b)] = true;
        }
    }
    Found { total, seen, step_sets }
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

/// Loops through exactly the cells on, as their sets of steps.
fn loop_steps(rows: usize, cols: usize, on: &[bool]) -> HashSet<u64> {
    let mut sets = HashSet::new();
    let count = on.iter().filter(|&&b| b).count();
    let Some(s) = on.iter().position(|&b| b) else { return sets };
    if count < 3 {
        return sets;
    }
    // Closed walks from s, each loop once per direction; a set holds it once.
    #[allow(clippy::too_many_arguments)]
    fn closing(
        rows: usize,
        cols: usize,
        on: &[bool],
        seen: &mut [bool],
        here: usize,
        left: usize,
        steps: u64,
        sets: &mut HashSet<u64>,
        s: usize,
    ) {
        if left == 0 {
            if neighbours(rows, cols, here).contains(&s) {
                sets.insert(steps | 1 << step_between(rows, cols, here, s));
            }
            return;
        }
        for n in neighbours(rows, cols, here) {
            if on[n] && !seen[n] {
                seen[n] = true;
                let steps = steps | 1 << step_between(rows, cols, here, n);
                closing(rows, cols, on, seen, n, left - 1, steps, sets, s);
                seen[n] = false;
            }
        }
    }
    let mut seen = vec![false; on.len()];
    seen[s] = true;
    closing(rows, cols, on, &mut seen, s, count - 1, 0, &mut sets, s);
    sets
}

/// A solution's steps as a bit set, from its `across` and `down` arrays.
fn solution_steps(case: &Case, values: &serde_json::Value) -> u64 {
    let mut set = 0;
    let mut k = 0;
    for name in ["across", "down"] {
        for row in values[name].as_array().unwrap_or_else(|| panic!("no {name} in {values}")) {
            for taken in row.as_array().unwrap() {
                set |= u64::from(taken.as_bool().unwrap()) << k;
                k += 1;
            }
        }
    }
    assert_eq!(k, num_steps(case.rows, case.cols), "{values}");
    set
}

/// Checks one case; whether it has a solution.
fn check_case(case: &Case, with_facts: bool) -> bool {
    let text = case.model();
    let puzzle = load_text(&text);
    let found = brute_force(case);
    let expected = found.total;
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
        if case.global == Global::LoopSteps && expected > 0 {
            let steps = solution_steps(case, &solved.solution.as_ref().unwrap().json);
            assert!(found.step_sets.contains(&steps), "solve with {engine}: steps {steps:b} not a loop\n{text}");
        }
    }
    if expected == 0 {
        let explained = puzzle.explain(&SolveOptions::default()).unwrap();
        assert_eq!(explained.status, Status::NoSolution, "{text}");
        assert!(!explained.constraints.is_empty(), "{text}");
        return false;
    }
    if !with_facts {
        return true;
    }
    for engine in ["auto", "eager"] {
        check_facts(case, &*puzzle, &found, engine);
    }
    true
}

/// `facts` with `engine` against brute force. Eager, with no cut between
/// calls, it is the backbone loop alone: the search, then one call per
/// solution that shows a new value and one to prove the rest impossible,
/// so at most two calls more than there are solutions (with an objective,
/// the calls that find the optimum come first).
fn check_facts(case: &Case, puzzle: &dyn Puzzle, found: &Found, engine: &str) {
    let (text, seen) = (case.model(), &found.seen);
    let facts = puzzle.facts(&SolveOptions { engine: Some(engine.to_string()), ..Default::default() }).unwrap();
    if engine == "eager" && case.objective.is_none() {
        let calls = facts.stats.sat_calls;
        assert!(
            calls <= found.total + 2,
            "facts with {engine}: {calls} SAT calls for {} solutions\n{text}",
            found.total
        );
    }
    if case.form == Form::VarArray {
        let rows = facts.json["values"]["on"].as_array().unwrap();
        for (i, row) in rows.iter().enumerate() {
            for (j, values) in row.as_array().unwrap().iter().enumerate() {
                let took: Vec<bool> = values.as_array().unwrap().iter().map(|v| v.as_bool().unwrap()).collect();
                let k = i * case.cols + j;
                let wanted: Vec<bool> = [false, true].into_iter().filter(|&b| seen[k][usize::from(b)]).collect();
                assert_eq!(took, wanted, "facts with {engine} at ({i}, {j})\n{text}");
            }
        }
    }
    if case.global == Global::LoopSteps {
        // Per step, the values it takes in some solution.
        let mut k = 0;
        for name in ["across", "down"] {
            for row in facts.json["values"][name].as_array().unwrap() {
                for values in row.as_array().unwrap() {
                    let took: Vec<bool> = values.as_array().unwrap().iter().map(|v| v.as_bool().unwrap()).collect();
                    let wanted: Vec<bool> = [false, true]
                        .into_iter()
                        .filter(|&b| found.step_sets.iter().any(|set| (set >> k & 1 == 1) == b))
                        .collect();
                    assert_eq!(took, wanted, "facts with {engine} of {}\n{text}", step_name(case.rows, case.cols, k));
                    k += 1;
                }
            }
        }
    }
}

fn run(global: u8, cases: usize, seed: u64) -> u64 {
    let cases = std::env::var("SOMARIA_GRID_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(cases);
    let mut rng = SplitMix64::new(seed);
    let mut solvable = 0;
    for k in 0..cases {
        let case = Case::random(&mut rng, global);
        solvable += u64::from(check_case(&case, k % 3 == 0));
    }
    solvable
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
fn loops_with_step_arrays_count_as_brute_force() {
    let solvable = run(3, 250, 4);
    // Fixed steps and clues must leave enough cases with loops to check
    // the solutions' steps against.
    let cases = std::env::var("SOMARIA_GRID_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(250);
    assert!(solvable * 3 >= cases, "only {solvable} of {cases} cases had a solution");
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

/// A 3 x 4 loop with step arrays declared over `across` and `down`, with
/// the call `call` on line 7.
fn steps_model(across: &str, down: &str, call: &str) -> String {
    format!(
        "kind = \"csp\"\n[vars]\non = {{ index = [\"1..3\", \"1..4\"], domain = \"bool\" }}\n\
         across = {{ index = [{across}], domain = \"bool\" }}\ndown = {{ index = [{down}], domain = \"bool\" }}\n\
         [[constraint]]\nexpr = '{call}'\n"
    )
}

#[test]
fn step_arrays_of_the_wrong_shape_are_refused_with_their_place() {
    let good = steps_model("\"1..3\", \"1..3\"", "\"1..2\", \"1..4\"", "grid_loop(on, across, down)");
    // Every loop of a 3 x 4 grid, each once.
    let loops: usize = (0u32..1 << 12)
        .map(|mask| loop_steps(3, 4, &(0..12).map(|k| mask >> k & 1 == 1).collect::<Vec<_>>()).len())
        .sum();
    assert_eq!(load_text(&good).count(&CountOptions::default()).unwrap().count, loops as u64);
    let cases = [
        // `across` as big as `on`.
        (
            "\"1..3\", \"1..4\"",
            "\"1..2\", \"1..4\"",
            "grid_loop(on, across, down)",
            &[
                "bad.toml:7:23:",
                "rows 1..3 and columns 1..4",
                "expected rows 1..3 and columns 1..3",
                "one fewer column",
            ][..],
        ),
        // `down` indexed from 0.
        (
            "\"1..3\", \"1..3\"",
            "\"0..1\", \"1..4\"",
            "grid_loop(on, across, down)",
            &[
                "bad.toml:7:31:",
                "`down`",
                "rows 0..1 and columns 1..4",
                "expected rows 1..2 and columns 1..4",
                "one fewer row",
            ],
        ),
        // The two swapped.
        (
            "\"1..3\", \"1..3\"",
            "\"1..2\", \"1..4\"",
            "grid_loop(on, down, across)",
            &["bad.toml:7:23:", "rows 1..2 and columns 1..4"],
        ),
        // One step array alone.
        (
            "\"1..3\", \"1..3\"",
            "\"1..2\", \"1..4\"",
            "grid_loop(on, across)",
            &["bad.toml:7:9:", "`grid_loop` with 2 arguments", "grid_loop(on, across, down)"],
        ),
        // A step array that is not 2-D Booleans.
        (
            "\"1..3\", \"1..3\"",
            "\"1..2\", \"1..4\"",
            "grid_loop(on, across, [true, false])",
            &["bad.toml:7:31:", "a 2-D array of Booleans `down`"],
        ),
    ];
    for (across, down, call, parts) in cases {
        let text = steps_model(across, down, call);
        let stderr = refused(&text);
        for part in parts {
            assert!(stderr.contains(part), "expected {part:?} in {stderr:?}\n{text}");
        }
    }
}
