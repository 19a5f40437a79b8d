//! `somaria generate`: puzzles with exactly one solution, written once for
//! every kind a [`Designer`] describes (csp models with a design table, and
//! the built-in families).
//!
//! Each puzzle is made the same way: a random solution drawn by the
//! designer, every clue it gives, then the clues dropped in a random order
//! while a count up to 2 stays at 1 (with `minimal`, every clue is tried,
//! so that no single clue can be dropped): on the solver the draft keeps
//! for all its checks ([`Draft::clue_solver`]) when it has one, else on the
//! written text loaded afresh. The puzzle is the model's
//! text with the clues kept; before it is output it is loaded afresh,
//! counted once more and solved, and its one solution must be the one its
//! clues were read from ([`check::recount`]).
//!
//! Puzzle `k` of a run depends on the seed and `k` alone
//! ([`puzzle_seed`]), so `jobs` (rayon's threads) and `shard` (which of the
//! indices a machine makes) never change a puzzle; only a time budget,
//! which keeps a clue whose check runs out of time, depends on the machine.

pub mod check;

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::hints::{self, PlanRequest};
pub use crate::puzzles::design::{Designer, Draft, Drops, Measure, Slot, Symmetry};
use crate::puzzles::{Error, SolveOptions};
use crate::report::steps::{Difficulty, PlanStatus};
use crate::rng::SplitMix64;
use crate::solver::SolverConfig;
use check::{Recount, Verdict};

/// Which puzzles of a run this one makes: those whose index is `index`
/// modulo `of`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    /// From 0 to `of` - 1.
    pub index: u64,
    /// The number of shards, at least 1.
    pub of: u64,
}

impl Default for Shard {
    fn default() -> Shard {
        Shard { index: 0, of: 1 }
    }
}

/// What to generate.
#[derive(Clone, Debug)]
pub struct GenerateOptions {
    /// Puzzles in the whole run (all shards together).
    pub count: u64,
    /// The run's seed.
    pub seed: u64,
    /// Try every clue, so that no single clue can be dropped.
    pub minimal: bool,
    /// Keep only puzzles whose rating lies in this range: the designer's
    /// own measure where it has one (a vault's fewest steps), else the most
    /// constraints one deduction of `steps` needs.
    pub difficulty: Option<(usize, usize)>,
    /// Which clues are dropped together.
    pub symmetry: Symmetry,
    /// Which puzzles this run makes.
    pub shard: Shard,
    /// The longest one uniqueness check may take; a clue whose check takes
    /// longer is kept.
    pub budget: Option<Duration>,
    /// Check every drop by loading the written text afresh, even where the
    /// designer keeps one solver for all of a draft's checks (for
    /// cross-checking the two; a budget implies it).
    pub reload_each_check: bool,
    /// Threads (with the `parallel` feature; without it, one).
    pub jobs: usize,
    /// Random solutions drawn for one puzzle before it is given up: one is
    /// drawn again when its clues do not make it unique, or the rating
    /// falls outside `difficulty`.
    pub attempts: u32,
    /// The encoding or engine of every check.
    pub engine: Option<String>,
    /// The SAT backend and the run's stop token.
    pub solver: SolverConfig,
}

impl Default for GenerateOptions {
    fn default() -> GenerateOptions {
        GenerateOptions {
            count: 1,
            seed: 0,
            minimal: false,
            difficulty: None,
            symmetry: Symmetry::None,
            shard: Shard::default(),
            budget: None,
            reload_each_check: false,
            jobs: 1,
            attempts: 20,
            engine: None,
            solver: SolverConfig::default(),
        }
    }
}

/// One generated puzzle.
#[derive(Clone, Debug, Serialize)]
pub struct Generated {
    /// Its index in the run.
    pub index: u64,
    /// The seed its random solution was drawn from.
    pub seed: u64,
    /// The model file's text.
    pub model: String,
    /// Its one solution.
    pub solution: serde_json::Value,
    /// Clues kept.
    pub clues: usize,
    /// Clues the solution gave before any was dropped.
    pub clues_drawn: usize,
    /// The `steps` rating, when `difficulty` asked for it (and the kind
    /// has no measure of its own).
    pub rating: Option<Difficulty>,
    /// The kind's own measure of the puzzle (a vault's fewest steps), which
    /// `difficulty` compares in place of the `steps` rating.
    pub measure: Option<Measure>,
    /// The checks that made it and the final recount.
    pub uniqueness: Uniqueness,
}

/// How the uniqueness of a puzzle was established.
#[derive(Clone, Debug, Serialize)]
pub struct Uniqueness {
    /// Whether the checks ran on one solver kept for the draft (clues
    /// given by assumptions), rather than on the text loaded afresh.
    pub incremental: bool,
    /// Counts up to 2 while clues were dropped.
    pub checks: u64,
    /// Checks that ran out of the budget (their clues were kept).
    pub over_budget: u64,
    /// Random solutions drawn before this one was kept.
    pub attempts: u32,
    /// The slowest check, in milliseconds.
    pub slowest_check_ms: f64,
    /// Making the puzzle, recount included, in milliseconds.
    pub ms: f64,
    /// The final recount on the written text.
    pub recount: Recount,
}

/// Live counters of a run, for a progress display.
#[derive(Debug, Default)]
pub struct GenerateProgress {
    made: AtomicU64,
    checks: AtomicU64,
    clues_left: AtomicU64,
}

impl GenerateProgress {
    /// Puzzles made so far.
    pub fn made(&self) -> u64 {
        self.made.load(Ordering::Relaxed)
    }

    /// Uniqueness checks so far.
    pub fn checks(&self) -> u64 {
        self.checks.load(Ordering::Relaxed)
    }

    /// The clues left in the puzzle last checked.
    pub fn clues_left(&self) -> u64 {
        self.clues_left.load(Ordering::Relaxed)
    }
}

/// The seed of attempt `attempt` at puzzle `index` of a run: a hash of the
/// three, so that puzzles are independent of each other and of the order
/// they are made in.
///
/// ```
/// use somaria::generate::puzzle_seed;
/// assert_eq!(puzzle_seed(7, 3, 0), puzzle_seed(7, 3, 0));
/// assert_ne!(puzzle_seed(7, 3, 0), puzzle_seed(7, 4, 0));
/// assert_ne!(puzzle_seed(7, 3, 0), puzzle_seed(8, 3, 0));
/// ```
pub fn puzzle_seed(seed: u64, index: u64, attempt: u32) -> u64 {
    let mut rng = SplitMix64::new(seed);
    let a = rng.next_u64();
    let b = SplitMix64::new(a ^ index).next_u64();
    SplitMix64::new(b ^ u64::from(attempt)).next_u64()
}

/// The indices of a run that a shard makes.
pub fn shard_indices(count: u64, shard: Shard) -> Vec<u64> {
    (0..count).filter(|k| k % shard.of.max(1) == shard.index).collect()
}

/// Makes this shard's puzzles and hands each to `each` as soon as it and
/// every puzzle before it are done, in index order (so the output is the
/// same with any number of threads). Each puzzle's result comes on its own:
/// one that fails does not stop the others; `each` returning false stops
/// the run (no new puzzle is started). A symmetry the designer cannot keep
/// is refused before any puzzle is made.
pub fn generate_each(
    designer: &dyn Designer,
    options: &GenerateOptions,
    progress: &GenerateProgress,
    each: &mut dyn FnMut(Result<Generated, Error>) -> bool,
) -> Result<(), Error> {
    designer
        .allows(options.symmetry)
        .map_err(|why| Error::BadRequest(format!("--symmetry {}: {why}", options.symmetry.name())))?;
    make_each(designer, options, progress, each)
}

/// [`generate_each`]'s puzzles on `options.jobs` threads of a rayon pool.
#[cfg(feature = "parallel")]
fn make_each(
    designer: &dyn Designer,
    options: &GenerateOptions,
    progress: &GenerateProgress,
    each: &mut dyn FnMut(Result<Generated, Error>) -> bool,
) -> Result<(), Error> {
    use std::collections::BTreeMap;
    use std::sync::atomic::{AtomicBool, AtomicUsize};
    use std::sync::mpsc;

    let indices = shard_indices(options.count, options.shard);
    let jobs = options.jobs.max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| Error::Internal(format!("cannot start the threads: {e}")))?;
    // The workers take the indices in order, so results come nearly in
    // order and few wait in `pending`.
    let next = AtomicUsize::new(0);
    let halt = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel();
    std::thread::scope(|scope| {
        scope.spawn(|| {
            pool.scope(|workers| {
                for _ in 0..jobs {
                    let sender = sender.clone();
                    let (next, halt, indices) = (&next, &halt, &indices);
                    workers.spawn(move |_| {
                        while !halt.load(Ordering::Relaxed) {
                            let at = next.fetch_add(1, Ordering::Relaxed);
                            let Some(&k) = indices.get(at) else { break };
                            if sender.send((at, make(designer, options, k, progress))).is_err() {
                                break;
                            }
                        }
                    });
                }
            });
            drop(sender);
        });
        let mut pending = BTreeMap::new();
        let mut due = 0;
        for (at, result) in receiver.iter() {
            pending.insert(at, result);
            while let Some(result) = pending.remove(&due) {
                due += 1;
                if !each(result) {
                    halt.store(true, Ordering::Relaxed);
                }
            }
            if halt.load(Ordering::Relaxed) {
                break;
            }
        }
    });
    Ok(())
}

/// [`generate_each`]'s puzzles one after another on the calling thread:
/// the library built without the `parallel` feature (no thread pool), where
/// `options.jobs` is not used. The puzzles are those that any number of
/// threads makes.
#[cfg(not(feature = "parallel"))]
fn make_each(
    designer: &dyn Designer,
    options: &GenerateOptions,
    progress: &GenerateProgress,
    each: &mut dyn FnMut(Result<Generated, Error>) -> bool,
) -> Result<(), Error> {
    for k in shard_indices(options.count, options.shard) {
        if !each(make(designer, options, k, progress)) {
            break;
        }
    }
    Ok(())
}

/// [`generate_each`] with every result collected, in index order.
pub fn generate(
    designer: &dyn Designer,
    options: &GenerateOptions,
    progress: &GenerateProgress,
) -> Result<Vec<Result<Generated, Error>>, Error> {
    let mut all = Vec::new();
    generate_each(designer, options, progress, &mut |result| {
        all.push(result);
        true
    })?;
    Ok(all)
}

/// Puzzle `index` of a run.
pub fn make(
    designer: &dyn Designer,
    options: &GenerateOptions,
    index: u64,
    progress: &GenerateProgress,
) -> Result<Generated, Error> {
    designer
        .allows(options.symmetry)
        .map_err(|why| Error::BadRequest(format!("--symmetry {}: {why}", options.symmetry.name())))?;
    let started = Instant::now();
    let mut why = "its clues never made a unique puzzle".to_string();
    for attempt in 0..options.attempts.max(1) {
        let seed = puzzle_seed(options.seed, index, attempt);
        let Some(draft) = designer.draw(&mut SplitMix64::new(seed), &options.solver, options.symmetry)? else {
            return Err(Error::NotMade(format!("{}: the model has no solution to draw clues from", designer.name())));
        };
        let mut tally = Tally::default();
        let Some(kept) =
            drop_clues(designer, draft.as_ref(), options, &mut SplitMix64::new(seed ^ 1), &mut tally, progress)?
        else {
            if tally.ruled_out {
                why = "every solution drawn was ruled out by its own clues (the template's constraints read which \
                       clues are present)"
                    .to_string();
            }
            continue;
        };
        let clues = kept.iter().filter(|&&k| k).count();
        // Clues drawn and every one dropped: the template alone has one
        // solution, so every puzzle it made would be that same one.
        if clues == 0 && !kept.is_empty() && designer.needs_clues() {
            return Err(Error::BadRequest(format!(
                "{}: the template has one solution with no clue at all, so each puzzle made from it would be the \
                 same; expected a template with room for clues (a larger grid, or a tents grid with trees)",
                designer.name()
            )));
        }
        let body = draft.write(&kept);
        let solution = draft.solution(&kept, &options.solver)?;
        let measure = designer.measure(&solution);
        let measured = measure.as_ref().map_or(String::new(), |m| format!("; {} {}", m.name, m.value));
        // A kind with no clues to drop (a vault) has no count of them to give.
        let kept_clues = match (kept.is_empty(), clues) {
            (true, _) => String::new(),
            (false, 1) => "1 clue, ".to_string(),
            (false, _) => format!("{clues} clues, "),
        };
        // The body keeps the template's comments, whose figures (givens,
        // routes, steps) describe the template; the second line says so.
        let header = format!(
            "# Made by `somaria generate --seed {}` from {} (puzzle {index}): {kept_clues}one solution{measured}\n\
             # Any comment below is the template's, not this puzzle's.\n",
            options.seed,
            designer.name()
        );
        let text = crate::puzzles::design::above(&header, &body);
        let rating = match options.difficulty {
            Some((lo, hi)) => {
                // The kind's own measure, where it has one; else steps'.
                let (rating, value, by) = match &measure {
                    Some(m) => (None, m.value, m.name),
                    None => {
                        let rating = rate(designer.name(), &text, options)?;
                        let largest = rating.largest;
                        (Some(rating), largest, "the largest step")
                    }
                };
                if !(lo..=hi).contains(&value) {
                    why = format!("its ratings by {by} fell outside {lo}..{hi} (the last: {value})");
                    continue;
                }
                rating
            }
            None => None,
        };
        let recount = check::recount(designer.name(), &text, &solution, options.engine.as_deref(), &options.solver)?;
        progress.made.fetch_add(1, Ordering::Relaxed);
        return Ok(Generated {
            index,
            seed,
            model: text,
            solution,
            clues,
            clues_drawn: kept.len(),
            rating,
            measure,
            uniqueness: Uniqueness {
                incremental: tally.incremental,
                checks: tally.checks,
                over_budget: tally.over_budget,
                attempts: attempt + 1,
                slowest_check_ms: tally.slowest_ms,
                ms: crate::puzzles::Stats::ms(started.elapsed()),
                recount,
            },
        });
    }
    Err(Error::NotMade(format!(
        "{}: puzzle {index} not made in {} attempts: {why}",
        designer.name(),
        options.attempts.max(1)
    )))
}

/// The checks of one attempt.
#[derive(Default)]
struct Tally {
    incremental: bool,
    checks: u64,
    over_budget: u64,
    slowest_ms: f64,
    /// The clues of the drawn solution all together rule it out.
    ruled_out: bool,
}

/// Drops the clues of `draft` in a random order while the puzzle stays
/// unique; `None` when every clue together does not make it unique.
///
/// Clues that narrow are tried once each (with `minimal`; else up to the
/// first that cannot go): one that cannot be dropped never can once others
/// are. Clues that reshape the puzzle, or that it reads as present, are
/// tried in passes, each over those left in the same order, until a pass
/// drops none (with `minimal`; else one pass), and a drop that leaves no
/// solution (or rules the drawn one out) keeps its clue.
fn drop_clues(
    designer: &dyn Designer,
    draft: &dyn Draft,
    options: &GenerateOptions,
    rng: &mut SplitMix64,
    tally: &mut Tally,
    progress: &GenerateProgress,
) -> Result<Option<Vec<bool>>, Error> {
    let slots = draft.slots();
    let mut kept = vec![true; slots.len()];
    // A solver the draft keeps between checks, unless a budget needs each
    // check on a worker thread of its own, or the caller asked for reloads.
    let mut kept_solver = match options.budget.is_none() && !options.reload_each_check {
        true => draft.clue_solver(options.engine.as_deref(), &options.solver)?,
        false => None,
    };
    tally.incremental = kept_solver.is_some();
    let anchored = designer.drops() == Drops::Anchored;
    let mut verdict = |kept: &[bool], tally: &mut Tally, budget: Option<Duration>| {
        let started = Instant::now();
        let verdict = match kept_solver.as_mut() {
            Some(solver) => solver.verdict(kept)?,
            None if anchored && !draft.holds(kept)? => Verdict::None,
            None => {
                let text = draft.write(kept);
                check::budgeted(designer.name(), &text, options.engine.as_deref(), &options.solver, budget)?
            }
        };
        tally.checks += 1;
        tally.over_budget += u64::from(verdict == Verdict::OverBudget);
        tally.slowest_ms = tally.slowest_ms.max(crate::puzzles::Stats::ms(started.elapsed()));
        progress.checks.fetch_add(1, Ordering::Relaxed);
        progress.clues_left.store(kept.iter().filter(|&&k| k).count() as u64, Ordering::Relaxed);
        Ok::<_, Error>(verdict)
    };
    // Clues that only narrow hold of the solution they were read off; when
    // they do not, the design's `read` is at fault, not the checks (a
    // kept solver would go on to find the one solution they do allow).
    if designer.drops() == Drops::Narrow && !draft.holds(&kept)? {
        return Err(read_disagrees(designer));
    }
    // Every clue: checked to the end, as no clue is at stake.
    match verdict(&kept, tally, None)? {
        Verdict::Unique => {}
        Verdict::Several | Verdict::OverBudget => return Ok(None),
        Verdict::None if anchored => {
            tally.ruled_out = true;
            return Ok(None);
        }
        // A solution its own clues rule out: the template's fault when a
        // check apart from the encodings agrees, else the encoding's.
        Verdict::None if !draft.holds(&kept)? => return Err(read_disagrees(designer)),
        Verdict::None => {
            return Err(Error::CheckFailed(format!(
                "{}: the puzzle with every clue drawn counted no solution, though the clues were read off one",
                designer.name()
            )));
        }
    }
    let reshape = designer.drops() != Drops::Narrow;
    let mut orbits = orbits(&slots, options.symmetry);
    rng.shuffle(&mut orbits);
    loop {
        let mut dropped = false;
        for orbit in &orbits {
            if !orbit.iter().all(|&k| kept[k]) {
                continue;
            }
            orbit.iter().for_each(|&k| kept[k] = false);
            match verdict(&kept, tally, options.budget)? {
                Verdict::Unique => dropped = true,
                Verdict::None if !reshape => {
                    return Err(Error::CheckFailed(format!(
                        "{}: dropping a clue left no solution, which fewer clues cannot do",
                        designer.name()
                    )));
                }
                Verdict::Several if !reshape && !options.minimal => {
                    orbit.iter().for_each(|&k| kept[k] = true);
                    return Ok(Some(kept));
                }
                Verdict::None | Verdict::Several | Verdict::OverBudget => orbit.iter().for_each(|&k| kept[k] = true),
            }
        }
        if !(reshape && options.minimal && dropped) {
            return Ok(Some(kept));
        }
    }
}

/// The template's fault of a drawn solution that its own clues rule out.
fn read_disagrees(designer: &dyn Designer) -> Error {
    Error::BadRequest(format!(
        "{}: the clues read off a solution rule that solution out; the design's `read` does not agree with the \
         constraints",
        designer.name()
    ))
}

/// The slots grouped as `symmetry` pairs them: each slot with its image,
/// when the image is a slot too; in slot order.
pub fn orbits(slots: &[Slot], symmetry: Symmetry) -> Vec<Vec<usize>> {
    let image = |s: &Slot| -> Option<Slot> {
        let place = symmetry.image(s.place?, s.extent)?;
        Some(Slot { place: Some(place), ..*s })
    };
    let mut taken = vec![false; slots.len()];
    let mut orbits = Vec::new();
    for k in 0..slots.len() {
        if taken[k] {
            continue;
        }
        taken[k] = true;
        let mut orbit = vec![k];
        if let Some(other) = image(&slots[k])
            && let Some(j) = (0..slots.len()).find(|&j| !taken[j] && slots[j] == other)
        {
            taken[j] = true;
            orbit.push(j);
        }
        orbits.push(orbit);
    }
    orbits
}

/// The rating of a puzzle's text: `steps`' difficulty on a fresh load.
pub fn rate(name: &str, text: &str, options: &GenerateOptions) -> Result<Difficulty, Error> {
    let puzzle = check::load(name, text)?;
    let solve =
        SolveOptions { engine: options.engine.clone(), solver: options.solver.clone(), ..SolveOptions::default() };
    let request = PlanRequest { count_limit: 2, ..PlanRequest::default() };
    let report = hints::steps(puzzle.as_ref(), &solve, &request)?;
    if report.status != PlanStatus::Solved {
        return Err(Error::CheckFailed(format!("{name}: the steps of a unique puzzle ended {:?}", report.status)));
    }
    Ok(report.difficulty)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orbits_pair_images_once() {
        let slots: Vec<Slot> =
            (0..2).flat_map(|r| (0..3).map(move |c| Slot { array: 0, place: Some((r, c)), extent: (2, 3) })).collect();
        assert_eq!(orbits(&slots, Symmetry::None).len(), 6);
        assert_eq!(orbits(&slots, Symmetry::Rot180), vec![vec![0, 5], vec![1, 4], vec![2, 3]]);
        assert_eq!(orbits(&slots, Symmetry::Mirror), vec![vec![0, 2], vec![1], vec![3, 5], vec![4]]);
    }

    #[test]
    fn shards_split_the_indices() {
        let all: Vec<u64> = (0..3).flat_map(|i| shard_indices(10, Shard { index: i, of: 3 })).collect();
        let mut sorted = all.clone();
        sorted.sort();
        assert_eq!(sorted, (0..10).collect::<Vec<_>>());
        assert_eq!(shard_indices(10, Shard { index: 1, of: 3 }), vec![1, 4, 7]);
    }
}
