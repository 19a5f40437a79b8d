//! Refutation proofs read by checkers that share no code with the
//! solvers that wrote them: a naive forward checker of textual DRAT, and
//! varisat's own checker for its format.

use std::collections::HashSet;

/// A naive forward checker for textual DRAT proofs: every lemma must follow
/// by unit propagation (RUP) from the clauses so far, and the proof must
/// derive the empty clause. Slow, simple and independent of varisat.
pub fn drat_refutes(cnf: &str, proof: &str) -> Result<(), String> {
    let parse = |line: &str| -> Vec<i64> {
        line.split_whitespace().map(|n| n.parse::<i64>().unwrap()).take_while(|&n| n != 0).collect()
    };
    let mut clauses: Vec<Vec<i64>> =
        cnf.lines().filter(|l| !l.starts_with('c') && !l.starts_with('p') && !l.trim().is_empty()).map(parse).collect();
    if clauses.iter().any(|c| c.is_empty()) {
        // The formula states a contradiction outright; nothing to derive.
        return Ok(());
    }
    let propagates_to_conflict = |clauses: &[Vec<i64>], assumed: &[i64]| -> bool {
        let mut true_lits: HashSet<i64> = assumed.iter().copied().collect();
        loop {
            let mut changed = false;
            for clause in clauses {
                if clause.iter().any(|l| true_lits.contains(l)) {
                    continue;
                }
                let open: Vec<i64> = clause.iter().copied().filter(|l| !true_lits.contains(&-l)).collect();
                match open.len() {
                    0 => return true,
                    1 => {
                        true_lits.insert(open[0]);
                        changed = true;
                    }
                    _ => {}
                }
            }
            if !changed {
                return false;
            }
        }
    };
    for (step, line) in proof.lines().enumerate() {
        if let Some(deleted) = line.strip_prefix("d ") {
            let mut target = parse(deleted);
            target.sort();
            if let Some(i) = clauses.iter().position(|c| {
                let mut c = c.clone();
                c.sort();
                c == target
            }) {
                clauses.swap_remove(i);
            }
            continue;
        }
        let lemma = parse(line);
        let negated: Vec<i64> = lemma.iter().map(|l| -l).collect();
        if !propagates_to_conflict(&clauses, &negated) {
            return Err(format!("step {step}: lemma {lemma:?} is not RUP"));
        }
        if lemma.is_empty() {
            return Ok(());
        }
        clauses.push(lemma);
    }
    Err("the proof never derives the empty clause".to_string())
}

/// Checks a proof in varisat's format of `cnf` (DIMACS) with varisat-checker.
pub fn varisat_refutes(cnf: &str, proof: &[u8]) -> Result<(), String> {
    let mut checker = varisat_checker::Checker::new();
    checker.add_dimacs_cnf(cnf.as_bytes()).map_err(|e| e.to_string())?;
    checker.check_proof(proof).map_err(|e| e.to_string())
}
