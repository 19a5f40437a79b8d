//! Optimisation against answers computed here, independently of the
//! encoder: the knapsack models' optima by dynamic programming, Golomb
//! rulers by enumerating every ruler, and random models with difference
//! constraints (which narrow the encoder's auxiliary variables), an
//! `alldifferent` over differences (which picks the log encoding for wide
//! variables under `auto`) and weighted capacity constraints (whose
//! relaxations bound the objective) against brute force, on every engine:
//! the optimum `solve` proves and the number of optimal solutions `count`
//! finds, by the encodings chosen by default and through the wide-domain
//! path (adders, and the objective summed by rustsat's watchdog).
//!
//! `SOMARIA_OPTIMISE_MODELS=2000 cargo test --release --test csp
//! csp_optimise::` runs more random models; `cargo test --release --test csp
//! -- --ignored csp_optimise::` solves the 8-mark ruler.

use somaria::model::Source;
use somaria::puzzles::csp::{Linear, load_puzzle};
use somaria::puzzles::{self, CountOptions, Puzzle, SolveOptions};
use somaria::rng::SplitMix64;

fn load(name: &str, text: &str) -> Box<dyn Puzzle> {
    puzzles::load(&Source::from_text(name, text.to_string())).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn optimum(puzzle: &dyn Puzzle, engine: &str) -> Option<i64> {
    let options = SolveOptions { engine: Some(engine.to_string()), ..Default::default() };
    puzzle.solve(&options).unwrap_or_else(|e| panic!("solve on {engine}: {e}")).objective
}

fn optimal_count(puzzle: &dyn Puzzle, engine: &str) -> u64 {
    let options = CountOptions { engine: Some(engine.to_string()), ..Default::default() };
    let counted = puzzle.count(&options).unwrap_or_else(|e| panic!("count on {engine}: {e}"));
    assert!(counted.complete);
    counted.count
}

/// The 0/1 knapsack optimum by dynamic programming over the capacity.
fn knapsack_optimum(weight: &[i64], value: &[i64], capacity: i64) -> i64 {
    let mut best = vec![0i64; capacity as usize + 1];
    for (&w, &v) in weight.iter().zip(value) {
        for c in (w as usize..=capacity as usize).rev() {
            best[c] = best[c].max(best[c - w as usize] + v);
        }
    }
    best[capacity as usize]
}

#[test]
fn knapsack_models_reach_the_dynamic_programming_optimum() {
    for name in ["knapsack.toml", "knapsack-30.toml", "knapsack-50.toml"] {
        let dir = if name == "knapsack.toml" { "models/csp" } else { "benches/models" };
        let path = format!("{}/{dir}/{name}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).expect("the model");
        let table: toml::Table = text.parse().expect("TOML");
        let params = table["params"].as_table().expect("params");
        let ints = |key: &str| -> Vec<i64> {
            params[key].as_array().expect("an array").iter().map(|v| v.as_integer().expect("an int")).collect()
        };
        let capacity = params["capacity"].as_integer().expect("capacity");
        let expected = knapsack_optimum(&ints("weight"), &ints("value"), capacity);
        let puzzle = load(name, &text);
        assert_eq!(optimum(&*puzzle, "auto"), Some(expected), "{name}");
    }
}

/// The shortest Golomb rulers with n marks as the model states them (first
/// gap shorter than the last), and how many there are, by enumeration.
fn golomb_truth(n: usize) -> (i64, u64) {
    let len = (n * n) as i64;
    let mut best = (i64::MAX, 0);
    let mut marks = vec![0i64];
    fn extend(marks: &mut Vec<i64>, n: usize, len: i64, best: &mut (i64, u64)) {
        if marks.len() == n {
            let k = marks.len();
            if marks[1] - marks[0] < marks[k - 1] - marks[k - 2] {
                let end = marks[k - 1];
                if end < best.0 {
                    *best = (end, 1);
                } else if end == best.0 {
                    best.1 += 1;
                }
            }
            return;
        }
        let last = *marks.last().expect("a mark");
        let used: Vec<i64> =
            marks.iter().enumerate().flat_map(|(i, &a)| marks[i + 1..].iter().map(move |&b| b - a)).collect();
        for next in last + 1..=len.min(best.0) {
            // The new distances differ from each other (the marks do) and
            // must differ from the old ones.
            if marks.iter().all(|&m| !used.contains(&(next - m))) {
                marks.push(next);
                extend(marks, n, len, best);
                marks.pop();
            }
        }
    }
    extend(&mut marks, n, len, &mut best);
    best
}

fn golomb_text(n: usize) -> String {
    let path = format!("{}/benches/models/golomb-8.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).expect("the model");
    assert!(text.contains("\nn = 8\n"));
    text.replace("\nn = 8\n", &format!("\nn = {n}\n"))
}

#[test]
fn golomb_rulers_agree_with_enumeration_on_every_engine() {
    for n in [4, 5, 6] {
        let (shortest, rulers) = golomb_truth(n);
        let puzzle = load("golomb.toml", &golomb_text(n));
        for &engine in puzzle.engines() {
            assert_eq!(optimum(&*puzzle, engine), Some(shortest), "{n} marks on {engine}");
            assert_eq!(optimal_count(&*puzzle, engine), rulers, "{n} marks on {engine}");
        }
    }
}

#[test]
#[ignore = "about 10 s; the optimisation bench times it"]
fn golomb_ruler_of_8_marks() {
    let puzzle = load("golomb-8.toml", &golomb_text(8));
    assert_eq!(optimum(&*puzzle, "auto"), Some(34));
}

/// A random model over x[1..k]: constraints that hold in every solution,
/// written as text and as a test on an assignment.
struct Random {
    text: String,
    lo: i64,
    hi: i64,
    k: usize,
    rules: Vec<Rule>,
    objective: (bool, Vec<i64>, Option<(usize, usize)>),
}

enum Rule {
    /// x[i] + c < x[j]
    Before(usize, usize, i64),
    /// x[i] - x[j] <= c
    Within(usize, usize, i64),
    /// x[i] = v
    Fixed(usize, i64),
    /// alldifferent([x[j] - x[i] | (i, j)])
    Distances(Vec<(usize, usize)>),
    /// Σ w·x <= cap
    Capacity(Vec<i64>, i64),
}

impl Rule {
    fn holds(&self, x: &[i64]) -> bool {
        match self {
            Rule::Before(i, j, c) => x[*i] + c < x[*j],
            Rule::Within(i, j, c) => x[*i] - x[*j] <= *c,
            Rule::Fixed(i, v) => x[*i] == *v,
            Rule::Distances(pairs) => {
                let d: Vec<i64> = pairs.iter().map(|&(i, j)| x[j] - x[i]).collect();
                (0..d.len()).all(|a| d[a + 1..].iter().all(|&b| b != d[a]))
            }
            Rule::Capacity(w, cap) => w.iter().zip(x).map(|(w, x)| w * x).sum::<i64>() <= *cap,
        }
    }

    fn text(&self) -> String {
        let sum = |w: &[i64]| {
            w.iter().enumerate().map(|(i, c)| format!("({c}) * x[{}]", i + 1)).collect::<Vec<_>>().join(" + ")
        };
        match self {
            Rule::Before(i, j, c) => format!("x[{}] + ({c}) < x[{}]", i + 1, j + 1),
            Rule::Within(i, j, c) => format!("x[{}] - x[{}] <= {c}", i + 1, j + 1),
            Rule::Fixed(i, v) => format!("x[{}] = {v}", i + 1),
            Rule::Distances(pairs) => {
                let items: Vec<String> = pairs.iter().map(|&(i, j)| format!("x[{}] - x[{}]", j + 1, i + 1)).collect();
                format!("alldifferent([{}])", items.join(", "))
            }
            Rule::Capacity(w, cap) => format!("{} <= {cap}", sum(w)),
        }
    }
}

fn random_model(seed: u64) -> Random {
    let mut rng = SplitMix64::new(seed);
    let k = 2 + rng.below(4);
    let wide = rng.chance(0.2);
    let lo = rng.below(5) as i64 - 2;
    let hi = lo + if wide { 33 + rng.below(6) as i64 } else { 1 + rng.below(5) as i64 };
    let k = if wide { k.min(3) } else { k };
    let mut rules = Vec::new();
    let pick = |rng: &mut SplitMix64| rng.below(k);
    for _ in 0..1 + rng.below(4) {
        let (i, j) = (pick(&mut rng), pick(&mut rng));
        let c = rng.below(5) as i64 - 2;
        rules.push(match rng.below(5) {
            0 | 1 => Rule::Before(i, j, c),
            2 => Rule::Within(i, j, c),
            3 => Rule::Fixed(i, lo + rng.below((hi - lo + 1) as usize) as i64),
            _ => {
                let w: Vec<i64> = (0..k).map(|_| rng.below(9) as i64 - 2).collect();
                let cap = rng.below(4 * (hi - lo + 1) as usize) as i64 - 3;
                Rule::Capacity(w, cap)
            }
        });
    }
    if rng.chance(0.5) {
        let pairs: Vec<(usize, usize)> = (0..k).flat_map(|i| (i + 1..k).map(move |j| (i, j))).collect();
        rules.push(Rule::Distances(pairs));
    }
    let maximize = rng.chance(0.5);
    let coefs: Vec<i64> = (0..k).map(|_| rng.below(7) as i64 - 2).collect();
    let difference = rng.chance(0.3).then(|| (pick(&mut rng), pick(&mut rng)));
    let objective_text = match difference {
        Some((i, j)) => format!("x[{}] - x[{}]", i + 1, j + 1),
        None => coefs.iter().enumerate().map(|(i, c)| format!("({c}) * x[{}]", i + 1)).collect::<Vec<_>>().join(" + "),
    };
    let mut text = format!(
        "kind = \"csp\"\n{} = '{objective_text}'\n[vars]\nx = {{ index = [\"1..{k}\"], domain = \"{lo}..{hi}\" }}\n",
        if maximize { "maximize" } else { "minimize" }
    );
    for rule in &rules {
        text.push_str(&format!("[[constraint]]\nexpr = '{}'\n", rule.text()));
    }
    Random { text, lo, hi, k, rules, objective: (maximize, coefs, difference) }
}

impl Random {
    fn value(&self, x: &[i64]) -> i64 {
        match self.objective.2 {
            Some((i, j)) => x[i] - x[j],
            None => self.objective.1.iter().zip(x).map(|(c, x)| c * x).sum(),
        }
    }

    /// The optimum and the number of optimal assignments, by trying all.
    fn truth(&self) -> (Option<i64>, u64) {
        let mut x = vec![self.lo; self.k];
        let mut best: (Option<i64>, u64) = (None, 0);
        loop {
            if self.rules.iter().all(|r| r.holds(&x)) {
                let v = self.value(&x);
                let better = match best.0 {
                    None => true,
                    Some(b) => (self.objective.0 && v > b) || (!self.objective.0 && v < b),
                };
                if better {
                    best = (Some(v), 1);
                } else if best.0 == Some(v) {
                    best.1 += 1;
                }
            }
            let mut i = 0;
            loop {
                if i == self.k {
                    return best;
                }
                if x[i] < self.hi {
                    x[i] += 1;
                    break;
                }
                x[i] = self.lo;
                i += 1;
            }
        }
    }
}

#[test]
fn random_objectives_agree_with_brute_force_on_every_engine() {
    let models: u64 = std::env::var("SOMARIA_OPTIMISE_MODELS").ok().and_then(|v| v.parse().ok()).unwrap_or(60);
    for seed in 0..models {
        let model = random_model(seed);
        let (optimum_, optimal) = model.truth();
        let puzzle = load("random.toml", &model.text);
        // The wide-domain path sums the objective with rustsat's watchdog
        // rather than its totalizer.
        let source = Source::from_text("random.toml", model.text.clone());
        let watchdog: Box<dyn Puzzle> = Box::new(load_puzzle(&source).unwrap().with_linear(Linear::Binary));
        for (path, puzzle) in [("", &puzzle), (" through adders and the watchdog", &watchdog)] {
            for &engine in puzzle.engines() {
                let context = format!("seed {seed} on {engine}{path}\n{}", model.text);
                assert_eq!(optimum(&**puzzle, engine), optimum_, "{context}\noptimum");
                assert_eq!(optimal_count(&**puzzle, engine), optimal, "{context}\noptimal solutions");
            }
        }
    }
}
