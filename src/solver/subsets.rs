//! The smallest sets that pass a test, by increasing size: the exact search
//! beside [`super::shrink_by_deletion`], which finds a set that is only
//! minimal. A budget bounds the tests made, and the answer says whether
//! every smaller set was tried.

/// What [`smallest_sets`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SmallestSets<T> {
    /// The sets of the first size at which any set passed, each with what
    /// its test returned, in the order tried; empty when none passed.
    pub found: Vec<(Vec<usize>, T)>,
    /// The size of the sets found, or the largest size searched.
    pub size: usize,
    /// Whether every admitted set smaller than `size` was tested (and, when
    /// nothing was found, every admitted set up to `size`): then no smaller
    /// set passes.
    pub complete: bool,
    /// Tests made.
    pub tested: usize,
}

/// Tests the sets of `0..items` of sizes `1..=max_size` in increasing size,
/// each size in lexicographic order, and returns every passing set of the
/// first size at which one passes. `admits` says whether a set is worth a
/// test (such as "its members are connected"); sets it refuses are skipped
/// without a test, and are taken to fail. After `budget` tests in all the
/// search stops, and the answer is marked incomplete.
///
/// ```
/// use somaria::solver::smallest_sets;
/// // Sets of 0..5 "pass" when they hold both 1 and 3.
/// let found = smallest_sets(5, 3, 100, |_| true, |set| -> Result<Option<()>, ()> {
///     Ok((set.contains(&1) && set.contains(&3)).then_some(()))
/// }).unwrap();
/// assert_eq!(found.found, vec![(vec![1, 3], ())]);
/// assert_eq!((found.size, found.complete), (2, true));
/// ```
pub fn smallest_sets<T, E>(
    items: usize,
    max_size: usize,
    budget: usize,
    admits: impl Fn(&[usize]) -> bool,
    mut test: impl FnMut(&[usize]) -> Result<Option<T>, E>,
) -> Result<SmallestSets<T>, E> {
    let mut tested = 0;
    for size in 1..=max_size.min(items) {
        let mut found = Vec::new();
        let mut set: Vec<usize> = (0..size).collect();
        loop {
            if admits(&set) {
                if tested == budget {
                    return Ok(SmallestSets { found, size, complete: false, tested });
                }
                tested += 1;
                if let Some(result) = test(&set)? {
                    found.push((set.clone(), result));
                }
            }
            if !next_combination(&mut set, items) {
                break;
            }
        }
        if !found.is_empty() {
            return Ok(SmallestSets { found, size, complete: true, tested });
        }
    }
    Ok(SmallestSets { found: Vec::new(), size: max_size.min(items), complete: true, tested })
}

/// Steps `set` (increasing indices below `items`) to the next set of its
/// size in lexicographic order; false after the last.
fn next_combination(set: &mut [usize], items: usize) -> bool {
    let size = set.len();
    for i in (0..size).rev() {
        if set[i] < items - size + i {
            set[i] += 1;
            for j in i + 1..size {
                set[j] = set[j - 1] + 1;
            }
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Against every subset: the sets found are exactly the passing
        /// sets of the smallest passing size.
        #[test]
        fn the_sets_found_are_the_smallest_passing_ones(
            passing in prop::collection::vec(prop::collection::btree_set(0usize..6, 1..4), 0..4),
        ) {
            let passes = |set: &[usize]| passing.iter().any(|p| p.iter().all(|i| set.contains(i)));
            let found = smallest_sets(6, 6, usize::MAX, |_| true, |set| -> Result<Option<()>, ()> {
                Ok(passes(set).then_some(()))
            }).unwrap();
            let all: Vec<Vec<usize>> = (1u32..64)
                .map(|bits| (0..6).filter(|i| bits >> i & 1 == 1).collect())
                .collect();
            let smallest = all.iter().filter(|s| passes(s)).map(|s| s.len()).min();
            prop_assert!(found.complete);
            match smallest {
                None => prop_assert!(found.found.is_empty()),
                Some(size) => {
                    prop_assert_eq!(found.size, size);
                    let mut expected: Vec<Vec<usize>> =
                        all.iter().filter(|s| s.len() == size && passes(s)).cloned().collect();
                    expected.sort();
                    let got: Vec<Vec<usize>> = found.found.iter().map(|(s, _)| s.clone()).collect();
                    prop_assert_eq!(got, expected);
                }
            }
        }
    }

    #[test]
    fn a_spent_budget_makes_the_answer_incomplete() {
        let found = smallest_sets(4, 4, 3, |_| true, |_| -> Result<Option<()>, ()> { Ok(None) }).unwrap();
        assert_eq!((found.tested, found.complete), (3, false));
        let skipped = smallest_sets(4, 2, 100, |s| s.len() == 2, |_| -> Result<Option<()>, ()> { Ok(None) }).unwrap();
        assert_eq!(skipped.tested, 6);
    }
}
