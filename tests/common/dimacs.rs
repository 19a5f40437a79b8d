//! A DIMACS formula somaria wrote, read back by varisat's own parser and
//! solver: a second reader that shares no code with somaria's writer.

/// The variable and clause counts the `p cnf` header states.
pub fn header(text: &str) -> (u64, u64) {
    let line = text.lines().find(|l| l.starts_with("p cnf ")).expect("a p line");
    let numbers: Vec<u64> = line[6..].split_whitespace().map(|n| n.parse().unwrap()).collect();
    (numbers[0], numbers[1])
}

/// The formula as varisat's parser reads it; panics when it does not parse.
pub fn formula(text: &str) -> varisat::CnfFormula {
    varisat::dimacs::DimacsParser::parse(text.as_bytes()).unwrap()
}

/// A model varisat finds for the formula, or `None` when it has none.
pub fn model(text: &str) -> Option<Vec<varisat::Lit>> {
    let mut solver = varisat::Solver::new();
    solver.add_formula(&formula(text));
    if solver.solve().unwrap() { solver.model() } else { None }
}

/// Whether varisat finds the formula satisfiable.
pub fn is_satisfiable(text: &str) -> bool {
    model(text).is_some()
}
