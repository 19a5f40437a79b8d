//! Minimal unsatisfiable subsets of assumptions, by deletion: the engine
//! behind the smallest story of why a puzzle has no solution.

use crate::cnf::Lit;

/// Shrinks a set of assumption literals that cannot all hold to a minimal
/// such set, by deletion. `solve` answers for a set of assumptions: `None`
/// when they can all hold, or a subset of them that cannot (a failed core).
/// Returns `None` when the whole set can hold; otherwise a minimal subset,
/// in the order of `assumptions`.
///
/// Each core is used to drop, at once, every literal outside it, so the
/// number of calls is usually far below one per literal.
///
/// ```
/// use somaria::cnf::Lit;
/// use somaria::solver::shrink_by_deletion;
/// // Literals 0..6; any set containing both 2 and 5 "cannot hold".
/// let lits: Vec<Lit> = (0..6).map(|i| Lit::from_code(2 * i)).collect();
/// let conflict = |set: &[Lit]| -> Result<Option<Vec<Lit>>, ()> {
///     let both = set.contains(&lits[2]) && set.contains(&lits[5]);
///     Ok(both.then(|| set.to_vec()))
/// };
/// assert_eq!(shrink_by_deletion(&lits, conflict).unwrap(), Some(vec![lits[2], lits[5]]));
/// ```
pub fn shrink_by_deletion<E>(
    assumptions: &[Lit],
    mut solve: impl FnMut(&[Lit]) -> Result<Option<Vec<Lit>>, E>,
) -> Result<Option<Vec<Lit>>, E> {
    let Some(core) = solve(assumptions)? else { return Ok(None) };
    let in_order = |set: &[Lit]| -> Vec<Lit> { assumptions.iter().copied().filter(|l| set.contains(l)).collect() };
    let mut unknown = in_order(&core);
    let mut necessary: Vec<Lit> = Vec::new();
    while let Some(candidate) = unknown.pop() {
        let trial: Vec<Lit> = necessary.iter().chain(&unknown).copied().collect();
        match solve(&trial)? {
            None => necessary.push(candidate),
            // The new core shows which of the rest are not needed either.
            Some(core) => unknown.retain(|l| core.contains(l)),
        }
    }
    Ok(Some(in_order(&necessary)))
}
