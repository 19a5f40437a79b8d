//! The planner behind `hint` and `steps`: from what a player knows, the
//! easiest next deductions. A deduction is a set of the puzzle's rules that,
//! with facts already known, forces facts not yet known; the easiest has
//! the fewest rules, then the fewest known facts used.
//!
//! Sets are searched by increasing size up to [`Limits::exact_size`] (every
//! set of a size tried before the next, so what is found there is a
//! smallest set), restricted to rules that share an open subject; past that
//! size, or when the budget of sets is spent, a fact the whole puzzle forces
//! is explained by a deletion-minimal set instead ([`shrink_by_deletion`]),
//! marked as not known to be smallest.
//!
//! A set that joins a wide rule (a grid global) to narrow ones is asked
//! first about the facts near the narrow rules' cells, and about the rest
//! only when no set of its size forces anything near: the first answer is
//! cheap and still a smallest set (see `exhaustive`). The facts of the
//! rules that fix values outright ([`Deductions::stated`], such as a
//! Sudoku's givens) are known from the start, as the player's entries
//! are, and are never a step; every other fact is.
//!
//! Only facts that hold in every solution (the target, computed once with
//! every rule on) can ever be forced, so only those are candidates. Nothing
//! here is trusted by itself: [`super::verify`] re-checks every step.

use std::cell::Cell;
use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use super::Deductions;
use super::colours::Colours;
use super::witness::Witnesses;
use crate::cnf::Lit;
use crate::solver::{Answer, Checked, SolverError, StopCause, possible_literals, shrink_by_deletion, smallest_sets};

/// A fact settled one way: its statement holds (`holds`), or its negation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Settled {
    /// The fact, an index into [`Deductions::facts`].
    pub fact: usize,
    /// Whether the statement holds; false when it is ruled out.
    pub holds: bool,
}

/// One deduction: `because` (rule indices) with the known facts `using`
/// forces every one of `facts`, and dropping any rule of `because` leaves
/// each of them unforced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The new facts.
    pub facts: Vec<Settled>,
    /// The rules, indices into [`Deductions::rules`], in increasing order.
    pub because: Vec<usize>,
    /// The known facts the deduction uses: dropping any one of them leaves
    /// some new fact unforced.
    pub using: Vec<Settled>,
    /// Whether every smaller set of rules was ruled out; otherwise the set
    /// is only minimal.
    pub smallest: bool,
    /// Whether `using` is shown minimal: dropping any one of its facts was
    /// tested and leaves some new fact unforced. Otherwise some test gave
    /// up ([`USED_ROUNDS`]) and its fact was kept: the facts suffice, but
    /// some may be spare.
    pub using_minimal: bool,
}

impl Step {
    /// The number of rules the step needs.
    pub fn size(&self) -> usize {
        self.because.len()
    }
}

/// How hard the planner searches.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The largest size of set searched exhaustively.
    pub exact_size: usize,
    /// The most sets tested in one exhaustive search.
    pub sets_per_search: usize,
    /// The most target facts explained by a deletion-minimal set when the
    /// exhaustive search finds nothing; the smallest of their sets is kept.
    pub fallback_facts: usize,
    /// Only the easiest step is wanted (a hint): the exhaustive search
    /// stops at the first set that forces something with no known fact,
    /// as no later set of its size is easier, so the first step is the
    /// one the whole search would put first.
    pub first_only: bool,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { exact_size: 2, sets_per_search: 2000, fallback_facts: 8, first_only: false }
    }
}

/// Per fact, whether it holds in some solution and whether it fails in
/// some (indexed by [`Settled::holds`]: `[fails, holds]`); `None` when the
/// puzzle has no solution. Every rule is on; every model behind a
/// "possible" passes the family's check.
pub fn possible_settled(d: &mut Deductions<'_>) -> Result<Option<Vec<[bool; 2]>>, SolverError> {
    if d.refuted {
        return Ok(None);
    }
    let assumptions = all_rules_with(d, &[]);
    let candidates: Vec<Lit> = d.facts.iter().flat_map(|f| [!f.lit, f.lit]).collect();
    let Deductions { solver, check, .. } = d;
    let mut checked = Checked::new(&mut **solver, |value: &dyn Fn(Lit) -> bool| check(value, None));
    let found = possible_literals(&mut checked, &candidates, &assumptions)?;
    Ok(found.map(|found| found.possible.chunks(2).map(|p| [p[0], p[1]]).collect()))
}

/// Per fact, whether it holds in some solution that agrees with `givens`;
/// `None` when none does. Every rule is on; every model behind a
/// "possible" passes the family's check.
pub fn possible_with(d: &mut Deductions<'_>, givens: &[Settled]) -> Result<Option<Vec<bool>>, SolverError> {
    if d.refuted {
        return Ok(None);
    }
    let given: Vec<Lit> = givens.iter().map(|&g| lit(d, g)).collect();
    let assumptions = all_rules_with(d, &given);
    let candidates: Vec<Lit> = d.facts.iter().map(|f| f.lit).collect();
    let Deductions { solver, check, .. } = d;
    let mut checked = Checked::new(&mut **solver, |value: &dyn Fn(Lit) -> bool| check(value, None));
    Ok(possible_literals(&mut checked, &candidates, &assumptions)?.map(|found| found.possible))
}

/// The sets of rules found to force nothing, each with a digest of the
/// known facts it was tested with: a set tested again with the same facts
/// would force nothing again, so it is skipped.
/// It also keeps the models met so far ([`Witnesses`]), and which rules
/// the known facts entail ([`taken`]).
#[derive(Clone, Debug, Default)]
pub struct Memo {
    forced_nothing: HashMap<Vec<usize>, u64>,
    pool: Option<Witnesses>,
    /// Per set of rules tested in an exhaustive search, the last models
    /// met while testing it ([`SET_WITNESSES`]): the next search, with more
    /// facts known, asks them first, as most still agree with the facts
    /// and refute what they refuted, which spares the SAT calls that found
    /// them. (The shared pool is a ring that one search fills.)
    witnessed: HashMap<Vec<usize>, Witnesses>,
    /// The words the models of `witnessed` take, kept below
    /// [`WITNESSED_WORDS`].
    witnessed_words: usize,
    /// Per subject asked about, whether its facts cover every value it
    /// can take: with no rule, some one of them holds.
    covers: HashMap<usize, bool>,
    /// Per rule, whether the known facts entail it (empty: none does).
    spent: Vec<bool>,
}

/// Past this many relevant known facts, the facts used are shrunk from the
/// solver's core first.
const SEED_FROM: usize = 64;

/// The most models a lazy rule (a grid global) may refuse in one test of
/// the facts used before the test gives up and keeps its fact. With a loop
/// and few facts, showing that a fact is not needed can take thousands of
/// repair rounds (measured on the 10×10 slitherlink: 3,000–12,000 SAT calls
/// a test); the facts kept still suffice, and the step says they may not
/// be minimal.
pub const USED_ROUNDS: u64 = 100;

/// The most models a lazy rule may refuse in one SAT call of an
/// exhaustive search's test before the test gives up on its set, which
/// then counts as untested (as past the budget of sets). A grid global by
/// itself, with few facts known, can take thousands of repair rounds a
/// call (the 20×20 slitherlink's loop: 2-23 s a call).
pub const SET_ROUNDS: u64 = USED_ROUNDS;

/// A subject with more open values than this among a test's candidates is
/// wide: showing each value possible takes a model of its own (the legs of
/// a 14-city tour under "the tour is shortest" alone: 2,730 models), so a
/// test of a set over it gives up after [`WIDE_CALLS`] SAT calls, leaving
/// the search incomplete rather than spending minutes on a set that likely
/// forces nothing.
const WIDE_VALUES: usize = 256;

/// The SAT calls a test over a wide subject may make before it gives up.
const WIDE_CALLS: usize = 64;

/// The subjects with more than [`WIDE_VALUES`] of the candidates.
fn wide_subjects(d: &Deductions<'_>, candidates: &[Settled]) -> HashSet<usize> {
    let mut per_subject: HashMap<usize, usize> = HashMap::new();
    for c in candidates {
        *per_subject.entry(d.facts[c.fact].subject).or_default() += 1;
    }
    per_subject.into_iter().filter(|&(_, n)| n > WIDE_VALUES).map(|(s, _)| s).collect()
}

/// What `rules` force of `candidates`; a test over a wide subject gives up
/// after [`WIDE_CALLS`] and then reads it from its bounds
/// ([`forced_wide`]). `None` when the test is left incomplete: it gave up
/// and its bounds force nothing.
fn forced_or_by_bounds(
    d: &mut Deductions<'_>,
    pool: &mut Witnesses,
    rules: &[usize],
    known: &[Settled],
    candidates: &[Settled],
) -> Result<Option<Forced>, SolverError> {
    let wide = wide_subjects(d, candidates);
    if wide.is_empty() {
        return forced_within(d, pool, rules, known, candidates, None);
    }
    let (found, tested) = match forced_within(d, pool, rules, known, candidates, Some(WIDE_CALLS))? {
        Some(found) => (found, true),
        None => (forced_wide(d, pool, rules, known, candidates, &wide)?, false),
    };
    if found.facts.is_empty() {
        return Ok(tested.then_some(found));
    }
    let found = if rules.len() > 1 { needing_every_rule(d, pool, rules, known, found, &wide)? } else { found };
    // Left empty, what it forces a smaller set forces: one whose test gave
    // up, so this set counts as untested.
    Ok((!found.facts.is_empty()).then_some(found))
}

/// What `rules` force of `candidates` when a test gave up on their `wide`
/// subjects: the narrow ones in full, the wide ones by their bounds
/// ([`super::bounds`]).
fn forced_wide(
    d: &mut Deductions<'_>,
    pool: &mut Witnesses,
    rules: &[usize],
    known: &[Settled],
    candidates: &[Settled],
    wide: &HashSet<usize>,
) -> Result<Forced, SolverError> {
    let narrow: Vec<Settled> =
        candidates.iter().filter(|c| !wide.contains(&d.facts[c.fact].subject)).copied().collect();
    let mut found = forced(d, pool, rules, known, &narrow)?;
    let by_bounds = super::bounds::forced_by_bounds(d, pool, rules, known, candidates, wide)?;
    found.facts.extend(by_bounds.facts);
    found.core.extend(by_bounds.core);
    found.core.sort();
    found.core.dedup();
    Ok(found)
}

/// `found` less what a set without one of `rules` still forces, so that
/// the set is minimal for every fact shown, as the re-check asks. A
/// smaller set's test may have given up on a wide subject, so this is not
/// known from the search. Where showing each wide value free without a
/// rule would take a model apiece, only the placements and the narrow
/// facts are kept: a wide subject's other values follow from its
/// placement (each takes one value), as a step of no rule.
fn needing_every_rule(
    d: &mut Deductions<'_>,
    pool: &mut Witnesses,
    rules: &[usize],
    known: &[Settled],
    mut found: Forced,
    wide: &HashSet<usize>,
) -> Result<Forced, SolverError> {
    let is_wide = |d: &Deductions<'_>, f: &Settled| wide.contains(&d.facts[f.fact].subject);
    for r in 0..rules.len() {
        if found.facts.is_empty() {
            break;
        }
        let rest: Vec<usize> = rules.iter().enumerate().filter(|&(i, _)| i != r).map(|(_, &x)| x).collect();
        let most = found.facts.iter().any(|f| !f.holds && is_wide(d, f)).then_some(WIDE_CALLS);
        let still = match forced_within(d, pool, &rest, known, &found.facts, most)? {
            Some(still) => still.facts,
            None => {
                found.facts.retain(|f| f.holds || !is_wide(d, f));
                forced(d, pool, &rest, known, &found.facts)?.facts
            }
        };
        found.facts.retain(|f| !still.contains(f));
    }
    Ok(found)
}

/// The most models a [`Memo`] keeps.
const POOL_CAPACITY: usize = 4096;

/// The most models a [`Memo`] keeps for one set of rules (a Killer
/// Sudoku's set tests take about 3 SAT calls each).
const SET_WITNESSES: usize = 16;

/// The most 64-bit words the models kept per set may take (32 MB): past
/// it they are all dropped, and the searches find them again. A 10×10
/// nurikabe tests thousands of sets, each model some 180 words.
const WITNESSED_WORDS: usize = 1 << 22;

impl Memo {
    fn pool(&mut self, d: &Deductions<'_>) -> &mut Witnesses {
        self.pool.get_or_insert_with(|| Witnesses::new(d, POOL_CAPACITY))
    }
}

fn digest(facts: &[Settled]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    facts.hash(&mut hasher);
    hasher.finish()
}

/// Where the planner's time went.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlanStats {
    /// Searches for a next deduction.
    pub searches: u64,
    /// Sets of rules tested in exhaustive searches.
    pub sets_tested: u64,
    /// Searches that fell back to a deletion-minimal set.
    pub fallbacks: u64,
    /// Open target facts, summed over the searches.
    pub candidates: u64,
    /// The most open target facts in one search.
    pub max_candidates: u64,
    /// Time in exhaustive set searches.
    pub set_search: Duration,
    /// Time finding deletion-minimal sets.
    pub fallback: Duration,
    /// Time finding the facts used.
    pub used: Duration,
    /// SAT calls in the checks with no rule, in exhaustive set searches
    /// and in fallbacks, in that order.
    pub calls: [u64; 3],
    /// Searches that ended with no step within `--upto` though some sets
    /// of that size went untested (a test gave up on a wide subject or a
    /// grid global's repair rounds, or the budget of sets ran out): a step
    /// within the limit may remain.
    pub untested_within_upto: u64,
}

/// What the player knows: per fact, whether it is settled and which way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    /// Entry `i` is `Some(holds)` when fact `i` is settled.
    pub known: Vec<Option<bool>>,
}

impl State {
    /// Nothing known about `facts` facts.
    pub fn new(facts: usize) -> State {
        State { known: vec![None; facts] }
    }

    /// The settled facts, in fact order.
    pub fn settled(&self) -> Vec<Settled> {
        self.known.iter().enumerate().filter_map(|(fact, k)| k.map(|holds| Settled { fact, holds })).collect()
    }

    /// Records `facts` as known.
    pub fn apply(&mut self, facts: &[Settled]) {
        for f in facts {
            self.known[f.fact] = Some(f.holds);
        }
    }

    /// Whether `fact` is known (either way).
    pub fn knows(&self, fact: usize) -> bool {
        self.known[fact].is_some()
    }
}

/// The literal that is true when `settled` holds.
pub fn lit(deductions: &Deductions<'_>, settled: Settled) -> Lit {
    let l = deductions.facts[settled.fact].lit;
    if settled.holds { l } else { !l }
}

/// How a planner starts on a player's state.
pub enum Start {
    /// The state agrees with some solution. It holds what the model fixes
    /// (the facts its mechanics force before anything is known, and those
    /// of the rules that fix values outright, [`Deductions::stated`]), the
    /// player's entries, and, of each thing whose value these fix, that it
    /// takes no other value. The last member is what the model fixes
    /// alone, before the entries.
    Ready(Target, State, Vec<Settled>),
    /// No solution agrees with the state: a minimal set of the given facts
    /// (indices into the givens) and rules (indices into the rules) that
    /// cannot all hold.
    Clash(Vec<usize>, Vec<usize>),
}

/// The facts that hold in every solution that agrees with the givens:
/// entry `i` is `Some(holds)` when fact `i` is settled so in every one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target(pub Vec<Option<bool>>);

/// Every rule's selector and the fixed assumptions, with `extra`.
fn all_rules_with(d: &Deductions<'_>, extra: &[Lit]) -> Vec<Lit> {
    d.assumptions.iter().chain(d.rules.iter().map(|r| &r.selector)).chain(extra).copied().collect()
}

/// The target from the givens, or the clash that rules them out. Every
/// model behind the target passes the family's check of the whole puzzle.
/// The models met are kept in `memo`, for the steps that follow: the
/// first search starts with the same test with no rule, which they answer.
pub fn start(d: &mut Deductions<'_>, givens: &[Settled], memo: &mut Memo) -> Result<Start, SolverError> {
    let given: Vec<Lit> = givens.iter().map(|&g| lit(d, g)).collect();
    let assumptions = all_rules_with(d, &given);
    let candidates: Vec<Lit> = d.facts.iter().flat_map(|f| [f.lit, !f.lit]).collect();
    let found = {
        let Deductions { solver, check, .. } = d;
        let mut checked = Checked::new(&mut **solver, |value: &dyn Fn(Lit) -> bool| check(value, None));
        possible_literals(&mut checked, &candidates, &assumptions)?
    };
    let Some(found) = found else { return clash(d, givens).map(|(g, r)| Start::Clash(g, r)) };
    let target = found
        .possible
        .chunks(2)
        .map(|p| match (p[0], p[1]) {
            (true, false) => Some(true),
            (false, true) => Some(false),
            _ => None,
        })
        .collect();
    let target = Target(target);
    let mut state = State::new(d.facts.len());
    // What the model fixes is known from the start, as the player's entries
    // are: what its mechanics force before anything is known (a value its
    // declaration fixes), and its givens. Nothing else is, however simple:
    // every other fact is a step that names its rules, or none when it
    // follows from the known facts alone.
    let open = open_facts(&target, &state);
    let board = forced(d, memo.pool(d), &[], &[], &open)?.facts;
    state.apply(&board);
    if !d.stated.is_empty() {
        let stated = d.stated.clone();
        let fixed: HashSet<usize> = stated.iter().flat_map(|&r| d.rules[r].subjects.iter().copied()).collect();
        let open = open_about(d, &target, &state, &fixed);
        let given = forced(d, memo.pool(d), &stated, &state.settled(), &open)?.facts;
        state.apply(&given);
    }
    let model = state.settled();
    state.apply(givens);
    // A thing's value known, so is that it takes no other.
    let valued: HashSet<usize> = state.settled().iter().filter(|s| s.holds).map(|s| d.facts[s.fact].subject).collect();
    let open = open_about(d, &target, &state, &valued);
    let others = forced(d, memo.pool(d), &[], &state.settled(), &open)?.facts;
    state.apply(&others);
    Ok(Start::Ready(target, state, model))
}

/// The open target facts about the `subjects`.
fn open_about(d: &Deductions<'_>, target: &Target, state: &State, subjects: &HashSet<usize>) -> Vec<Settled> {
    let open = open_facts(target, state).into_iter();
    open.filter(|o| subjects.contains(&d.facts[o.fact].subject)).collect()
}

/// A minimal set of givens and rules that cannot all hold, the givens
/// shrunk first: with every rule on, a minimal set of the player's own
/// givens that no solution agrees with (a wrong entry among many is named
/// alone), then a minimal set of rules that clash with those. A given that
/// the model's own givens ([`Deductions::stated`]) fix, such as a printed
/// clue copied into a state file, is never blamed: it is assumed
/// throughout. No given at all when the rules clash by themselves.
fn clash(d: &mut Deductions<'_>, givens: &[Settled]) -> Result<(Vec<usize>, Vec<usize>), SolverError> {
    let lits: Vec<Lit> = givens.iter().map(|&g| lit(d, g)).collect();
    let mut fixed = d.assumptions.clone();
    let stated: Vec<Lit> = d.stated.iter().map(|&r| d.rules[r].selector).collect();
    let mut own: Vec<usize> = Vec::new();
    for (i, &l) in lits.iter().enumerate() {
        let with_stated: Vec<Lit> = d.assumptions.iter().chain(&stated).copied().chain([!l]).collect();
        match d.solver.solve_under(&with_stated)? {
            Answer::Unsat => fixed.push(l),
            Answer::Sat => own.push(i),
        }
    }
    let own_lits: Vec<Lit> = own.iter().map(|&i| lits[i]).collect();
    let every_rule: Vec<Lit> = d.rules.iter().map(|r| r.selector).collect();
    let blamed = {
        let base: Vec<Lit> = fixed.iter().chain(&every_rule).copied().collect();
        shrink(d, &base, &own_lits)?.unwrap_or_default()
    };
    let base: Vec<Lit> = fixed.iter().chain(&blamed).copied().collect();
    let rules = shrink(d, &base, &every_rule)?.unwrap_or_default();
    let index: HashMap<Lit, usize> = own.iter().map(|&i| (lits[i], i)).collect();
    let given = blamed.iter().map(|l| index[l]).collect();
    let rule_of: HashMap<Lit, usize> = every_rule.iter().enumerate().map(|(r, &l)| (l, r)).collect();
    Ok((given, rules.iter().map(|l| rule_of[l]).collect()))
}

/// A deletion-minimal subset of `items` that cannot hold with `base`;
/// `None` when all of them can.
fn shrink(d: &mut Deductions<'_>, base: &[Lit], items: &[Lit]) -> Result<Option<Vec<Lit>>, SolverError> {
    shrink_by_deletion(items, |set| {
        let all: Vec<Lit> = base.iter().chain(set).copied().collect();
        Ok(match d.solver.solve_under(&all)? {
            Answer::Unsat => Some(d.solver.failed_core()),
            Answer::Sat => None,
        })
    })
}

/// The target facts not yet known, each settled the target's way.
pub fn open_facts(target: &Target, state: &State) -> Vec<Settled> {
    let open = target.0.iter().enumerate().filter(|(f, _)| !state.knows(*f));
    open.filter_map(|(fact, t)| t.map(|holds| Settled { fact, holds })).collect()
}

/// What `forced` found: the facts forced, and the known facts in the
/// solver's last core (empty when nothing is forced): a good place to
/// start looking for the facts used, not a proof. The solver's core can
/// leave out a known fact that clashes with an assumption outright, so
/// `used_facts` tests it before it shrinks it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Forced {
    /// The candidates forced.
    pub facts: Vec<Settled>,
    /// Known facts the solver's core names.
    pub core: Vec<Settled>,
}

/// Which of `candidates` the rules `rules` force with the `known` facts.
/// A candidate whose negation some kept model shows (one that satisfies
/// `rules` and agrees with `known`) is not forced, with no SAT call; the
/// rest are settled by the solver, each model found kept in `pool`.
///
/// Each round asks for a model refuting one of the candidates left, while
/// preferring more ([`Preferences`]), as assumptions that may be given up:
/// a core that meets the preferred literals drops them and the round is
/// solved again, and a core that meets none proves every candidate left
/// forced.
pub(super) fn forced(
    d: &mut Deductions<'_>,
    pool: &mut Witnesses,
    rules: &[usize],
    known: &[Settled],
    candidates: &[Settled],
) -> Result<Forced, SolverError> {
    let found = forced_within(d, pool, rules, known, candidates, None)?;
    found.ok_or_else(|| SolverError::ModelRejected("a test with no limit gave up".into()))
}

/// [`forced`], giving up (`None`) after `max_calls` SAT calls when given.
fn forced_within(
    d: &mut Deductions<'_>,
    pool: &mut Witnesses,
    rules: &[usize],
    known: &[Settled],
    candidates: &[Settled],
    max_calls: Option<usize>,
) -> Result<Option<Forced>, SolverError> {
    if let (true, Some(truth)) = (rules.is_empty(), d.domains_only) {
        return Ok(Some(forced_by_domains(d, truth, known, candidates)));
    }
    let mut refuted: Vec<Settled> = candidates.iter().map(|c| Settled { fact: c.fact, holds: !c.holds }).collect();
    pool.drop_shown(rules, known, &mut refuted);
    if refuted.is_empty() {
        return Ok(Some(Forced::default()));
    }
    let mut assumptions = under(d, rules, known);
    // One clause per round, "one of the negations not yet shown", behind a
    // selector retired at the end, so the solver is unchanged for later calls.
    let selector = d.solver.new_var().pos();
    assumptions.push(selector);
    // (Preferring the other rules' selectors as well cut sudoku's SAT calls
    // further, but broke a tile-cover step with tiles that may be left;
    // until that is understood, it stays out.)
    let mut preferences = Preferences::default();
    let mut core_known: Vec<Settled> = Vec::new();
    let fixed = assumptions.len();
    let mut fresh = true;
    let mut calls = 0;
    let outcome = loop {
        if fresh {
            let mut clause: Vec<Lit> = refuted.iter().map(|&r| lit(d, r)).collect();
            clause.push(!selector);
            d.solver.add_clause(&clause);
        }
        assumptions.truncate(fixed);
        assumptions.extend(preferences.pick(d, &refuted));
        fresh = true;
        if max_calls.is_some_and(|most| calls >= most) {
            break Ok(());
        }
        calls += 1;
        match d.solver.solve_under(&assumptions) {
            Err(e) => break Err(e),
            Ok(Answer::Unsat) => {
                let core: std::collections::HashSet<Lit> = d.solver.failed_core().into_iter().collect();
                if !preferences.give_up(&core) {
                    core_known = known.iter().filter(|&&k| core.contains(&lit(d, k))).copied().collect();
                    break Ok(());
                }
                fresh = false;
            }
            Ok(Answer::Sat) => {
                pool.record(d);
                let solver = &d.solver;
                let facts = &d.facts;
                refuted.retain(|r| solver.value(facts[r.fact].lit) != r.holds);
                if refuted.is_empty() {
                    break Ok(());
                }
                preferences.next_round();
            }
        }
    };
    d.retire(selector);
    outcome?;
    if max_calls.is_some_and(|most| calls >= most) && !refuted.is_empty() {
        return Ok(None);
    }
    let left: std::collections::HashSet<Settled> = refuted.into_iter().collect();
    let facts: Vec<Settled> =
        candidates.iter().filter(|c| left.contains(&Settled { fact: c.fact, holds: !c.holds })).copied().collect();
    let core = if facts.is_empty() { Vec::new() } else { core_known };
    Ok(Some(Forced { facts, core }))
}

/// The assumptions of a test of `rules` with the `known` facts: the
/// puzzle's own, the rules' selectors on, the judged rules left off, and
/// the known facts.
pub(super) fn under(d: &Deductions<'_>, rules: &[usize], known: &[Settled]) -> Vec<Lit> {
    let mut assumptions = d.assumptions.clone();
    assumptions.extend(rules.iter().map(|&r| d.rules[r].selector));
    assumptions.extend(d.off_judged(rules));
    assumptions.extend(known.iter().map(|&k| lit(d, k)));
    assumptions
}

/// [`forced`] with no rule on, over a fixed part that holds only the
/// subjects' domains ([`Deductions::domains_only`]): a subject may take
/// the values of its facts that the known facts and the constant leave
/// it. A candidate is forced when it names the one value left, or a value
/// not left. When no value is left the known facts cannot all hold, and
/// every candidate is forced, as no model refutes any. The core is the
/// known facts that leave the subjects of the forced candidates their
/// values.
fn forced_by_domains(d: &Deductions<'_>, truth: Lit, known: &[Settled], candidates: &[Settled]) -> Forced {
    let known_holds: HashMap<usize, bool> = known.iter().map(|k| (k.fact, k.holds)).collect();
    let subject = |s: &Settled| d.facts[s.fact].subject;
    let wanted: HashSet<usize> = candidates.iter().chain(known).map(subject).collect();
    // Of each wanted subject: the facts neither known false nor the
    // constant's negation, and those known true or the constant itself.
    let mut open: HashMap<usize, Vec<usize>> = HashMap::new();
    let mut pinned: HashMap<usize, Vec<usize>> = HashMap::new();
    for (f, fact) in d.facts.iter().enumerate().filter(|(_, fact)| wanted.contains(&fact.subject)) {
        let holds = known_holds.get(&f).copied();
        if holds != Some(false) && fact.lit != !truth {
            open.entry(fact.subject).or_default().push(f);
        }
        if holds == Some(true) || fact.lit == truth {
            pinned.entry(fact.subject).or_default().push(f);
        }
    }
    // The values each subject may take: exactly one holds, so a pinned
    // value is the only one, and two pinned values leave none.
    let values_left = |subject: usize| -> Vec<usize> {
        let open = open.get(&subject).map_or(&[][..], |v| &v[..]);
        match pinned.get(&subject).map(|p| &p[..]) {
            None | Some([]) => open.to_vec(),
            Some([only]) => open.iter().copied().filter(|f| f == only).collect(),
            Some(_) => Vec::new(),
        }
    };
    let left: HashMap<usize, Vec<usize>> = wanted.iter().map(|&s| (s, values_left(s))).collect();
    // A subject left no value: the known facts cannot all hold.
    let mut clash: Vec<usize> = left.iter().filter(|(_, v)| v.is_empty()).map(|(&s, _)| s).collect();
    clash.sort_unstable();
    let mut facts = Vec::new();
    let mut explained = HashSet::new();
    for &c in candidates {
        let values = &left[&subject(&c)];
        let is_forced = if c.holds { values == &[c.fact] } else { !values.contains(&c.fact) };
        if let Some(&first) = clash.first() {
            facts.push(c);
            explained.insert(first);
        } else if is_forced {
            facts.push(c);
            explained.insert(subject(&c));
        }
    }
    // The known facts behind them: a subject's known value, or else the
    // values known to be excluded.
    let mut core: Vec<Settled> = Vec::new();
    for &s in &explained {
        let about: Vec<Settled> = known.iter().filter(|k| subject(k) == s).copied().collect();
        match about.iter().find(|k| k.holds) {
            Some(&value) if !left[&s].is_empty() => core.push(value),
            _ => core.extend(about),
        }
    }
    core.sort();
    core.dedup();
    Forced { facts, core }
}

/// The negations [`forced`] prefers in a round, so that one model refutes
/// many candidates at once: one per subject (the values of one variable
/// exclude each other), the one given up least often so far, so that the
/// rounds try new combinations.
///
/// A core that meets several preferred negations shows only that they
/// cannot all hold together (with the rules and known facts): they are
/// given up until the next model. A core that meets one shows that
/// negation impossible by itself: it is given up for good, and its subject
/// is preferred no more until the next model, as its other values are
/// likely impossible too. (Giving every negation up for good once a core
/// met it left a rule of the magic sequence, whose negations clash in
/// large groups, with one candidate refuted per model: 4,000 SAT calls
/// for n = 20.)
#[derive(Default)]
struct Preferences {
    /// The negations preferred in the last round, with their subjects.
    picked: Vec<(Lit, usize)>,
    /// Given up until the next model.
    dropped: std::collections::HashSet<Lit>,
    /// Subjects preferred no more until the next model.
    resting: std::collections::HashSet<usize>,
    /// Given up for good.
    impossible: std::collections::HashSet<Lit>,
    /// How often each negation was given up.
    strikes: HashMap<Lit, u32>,
}

impl Preferences {
    /// The negations of `refuted` to prefer in the next round.
    fn pick(&mut self, d: &Deductions<'_>, refuted: &[Settled]) -> Vec<Lit> {
        self.picked.clear();
        // A wide subject's values are left to the round's clause: most are
        // impossible, and preferring them one at a time would spend a SAT
        // call on each (a tour's legs: 2,700 values, 13 of them possible).
        let wide = wide_subjects(d, refuted);
        let mut best: HashMap<usize, (u32, usize)> = HashMap::new();
        let mut subjects = Vec::new();
        for (i, &r) in refuted.iter().enumerate() {
            let subject = d.facts[r.fact].subject;
            let l = lit(d, r);
            if wide.contains(&subject)
                || self.resting.contains(&subject)
                || self.dropped.contains(&l)
                || self.impossible.contains(&l)
            {
                continue;
            }
            let strikes = self.strikes.get(&l).copied().unwrap_or(0);
            match best.get(&subject) {
                None => {
                    subjects.push(subject);
                    best.insert(subject, (strikes, i));
                }
                Some(&(least, _)) if strikes < least => {
                    best.insert(subject, (strikes, i));
                }
                Some(_) => {}
            }
        }
        self.picked = subjects.iter().map(|&s| (lit(d, refuted[best[&s].1]), s)).collect();
        self.picked.iter().map(|&(l, _)| l).collect()
    }

    /// Gives up the negations preferred in the last round that `core`
    /// meets; false when it meets none (the core proves every candidate
    /// left forced).
    fn give_up(&mut self, core: &std::collections::HashSet<Lit>) -> bool {
        let met: Vec<(Lit, usize)> = self.picked.iter().copied().filter(|(l, _)| core.contains(l)).collect();
        if let [(alone, subject)] = met[..] {
            self.impossible.insert(alone);
            self.resting.insert(subject);
        }
        for &(l, _) in &met {
            self.dropped.insert(l);
            *self.strikes.entry(l).or_default() += 1;
        }
        !met.is_empty()
    }

    /// A model was found: what was given up for one round is tried again.
    fn next_round(&mut self) {
        self.dropped.clear();
        self.resting.clear();
    }
}

/// `step`, found with others in an earlier state, derived again in
/// `state`, where it is shown: its facts are every open fact its rules
/// force there (empty when they force nothing new), and the facts it uses
/// are shrunk again from those known there, so that it is the step a
/// search in `state` would make of its rules. `None` when it may no longer
/// be an easiest step: some fact now follows from the known facts alone
/// (that step of no constraint comes first), or it needs more than one
/// rule, whose smaller sets may now force something (a new search decides).
pub fn shown_in(
    d: &mut Deductions<'_>,
    target: &Target,
    state: &State,
    step: &Step,
    memo: &mut Memo,
    stats: &mut PlanStats,
) -> Result<Option<Step>, SolverError> {
    if step.size() > 1 {
        return Ok(None);
    }
    let open = open_facts(target, state);
    let known = state.settled();
    let pool = memo.pool(d);
    if !forced(d, pool, &[], &known, &open)?.facts.is_empty() {
        return Ok(None);
    }
    if step.size() == 0 {
        // Nothing follows from the known facts alone any more.
        return Ok(Some(Step { facts: Vec::new(), ..step.clone() }));
    }
    let subjects = &d.rules[step.because[0]].subjects;
    let about = |o: &&Settled| subjects.is_empty() || subjects.binary_search(&d.facts[o.fact].subject).is_ok();
    let candidates: Vec<Settled> = open.iter().filter(about).copied().collect();
    let relevant = relevant_known(d, &step.because, &known);
    let found = forced_or_by_bounds(d, memo.pool(d), &step.because, &relevant, &candidates)?.unwrap_or_default();
    if found.facts.is_empty() {
        return Ok(Some(Step { facts: Vec::new(), ..step.clone() }));
    }
    let shown = finish_step(d, step.because.clone(), found, step.smallest, &known, memo, stats)?;
    Ok(shown.into_iter().next())
}

/// A minimal set of the `known` facts that, with `rules`, forces all of
/// `new`: shrunk from `seed` (a set found to suffice, such as the solver's
/// core) when it does, else from the facts about the rules' subjects when
/// those force it, otherwise from all of them.
fn used_facts(
    d: &mut Deductions<'_>,
    pool: &mut Witnesses,
    rules: &[usize],
    known: &[Settled],
    new: &[Settled],
    seed: &[Settled],
) -> Result<(Vec<Settled>, bool), SolverError> {
    // Deletion drops from the last: in the order of the facts' colours, not
    // of their numbers, so that a puzzle and its transposed or relabelled
    // copy keep the same facts where more than one set would do.
    let colours = super::colours::colours(d, known, &[]);
    let mut relevant = relevant_known(d, rules, known);
    relevant.sort_by_key(|k| colours.facts[k.fact]);
    let mut known = known.to_vec();
    known.sort_by_key(|k| colours.facts[k.fact]);
    // With a grid global every known fact is relevant, and shrinking them
    // all costs a call with lazy cuts per fact: start from the core there
    // (and for a step of no rule, which may use any known fact). Elsewhere
    // the relevant facts are few, and shrinking the core gave larger sets
    // (Sudoku: more time in the facts used and the re-checks) and sets
    // that depend on the solver's history, not on the puzzle alone.
    let bound = wide_bound(d);
    if relevant.len() > SEED_FROM
        && (rules.is_empty() || rules.iter().any(|&r| is_wide(&d.rules[r], bound)))
        && !seed.is_empty()
        && let Some(used) = shrink_used(d, pool, rules, seed, new)?
    {
        return Ok(used);
    }
    if let Some(used) = shrink_used(d, pool, rules, &relevant, new)? {
        return Ok(used);
    }
    match shrink_used(d, pool, rules, &known, new)? {
        Some(used) => Ok(used),
        None => {
            Err(SolverError::ModelRejected("a step's facts are not forced by its rules and the known facts".into()))
        }
    }
}

/// A subset of `known` that, with `rules`, forces all of `new`, shrunk by
/// deletion from `known` one fact at a time, from the last (so the same for
/// the same `known`, whatever the solver did before), and whether every
/// deletion test reached a verdict (then the subset is minimal); `None`
/// when `known` does not force `new`.
fn shrink_used(
    d: &mut Deductions<'_>,
    pool: &mut Witnesses,
    rules: &[usize],
    known: &[Settled],
    new: &[Settled],
) -> Result<Option<(Vec<Settled>, bool)>, SolverError> {
    let active = d.solver.new_var().pos();
    let mut some_fails: Vec<Lit> = new.iter().map(|&n| !lit(d, n)).collect();
    some_fails.push(!active);
    d.solver.add_clause(&some_fails);
    let mut base = d.assumptions.clone();
    base.extend(rules.iter().map(|&r| d.rules[r].selector));
    base.extend(d.off_judged(rules));
    base.push(active);
    let known_lits: Vec<Lit> = known.iter().map(|&k| lit(d, k)).collect();
    let of_lit: HashMap<Lit, Settled> = known_lits.iter().copied().zip(known.iter().copied()).collect();
    let refuted: Vec<Settled> = new.iter().map(|n| Settled { fact: n.fact, holds: !n.holds }).collect();
    let minimal = std::cell::Cell::new(true);
    // A test that gives up counts against `minimal` only when `keeps` says
    // its fact is then kept.
    let mut test = |set: &[Lit], keeps: bool| {
        let assumed: Vec<Settled> = set.iter().map(|l| of_lit[l]).collect();
        let mut shown = refuted.clone();
        pool.drop_shown(rules, &assumed, &mut shown);
        if shown.len() < refuted.len() {
            return Ok(None);
        }
        let all: Vec<Lit> = base.iter().chain(set).copied().collect();
        // The first test, of every known fact, must reach a verdict; a
        // later one that gives up keeps its fact, as if it were needed.
        let limited = set.len() < known_lits.len();
        d.solver.limit_repair_rounds(limited.then_some(USED_ROUNDS));
        let verdict = pool.core_or_keep(d, &all);
        d.solver.limit_repair_rounds(None);
        match verdict {
            Err(SolverError::Stopped(StopCause::Rounds(_))) if limited => {
                minimal.set(minimal.get() && !keeps);
                Ok(None)
            }
            // Not the solver's core, which depends on its history: each fact
            // is dropped in turn, from the last, while the rest still force
            // the new facts, so the same state gives the same facts used
            // whichever command asks (hint and steps agree).
            Ok(Some(_)) => Ok(Some(set.to_vec())),
            other => other,
        }
    };
    // When the rules force the new facts by themselves, deletion would drop
    // every fact in turn; one test shows it at once (a rule's own step,
    // such as a nurikabe's `island[i,j] != k`, uses nothing).
    let kept = match known_lits.is_empty() {
        true => shrink_by_deletion(&known_lits, |set| test(set, true)),
        false => match test(&[], false) {
            Ok(Some(_)) => Ok(Some(Vec::new())),
            Ok(None) => shrink_by_deletion(&known_lits, |set| test(set, true)),
            Err(e) => Err(e),
        },
    };
    d.retire(active);
    Ok(kept?.map(|kept| (kept.iter().map(|l| of_lit[l]).collect(), minimal.get())))
}

/// The known facts worth assuming for a deduction by `rules`: those about
/// the rules' subjects (all of them when some rule speaks of any subject),
/// and of a subject whose value is known, only that value, from which the
/// rest follows.
fn relevant_known(d: &Deductions<'_>, rules: &[usize], known: &[Settled]) -> Vec<Settled> {
    let anything = rules.iter().any(|&r| d.rules[r].subjects.is_empty()) || rules.is_empty();
    let about = |s: usize| anything || rules.iter().any(|&r| d.rules[r].subjects.binary_search(&s).is_ok());
    let fixed: std::collections::HashSet<usize> =
        known.iter().filter(|k| k.holds).map(|k| d.facts[k.fact].subject).collect();
    let kept = known.iter().filter(|k| {
        let s = d.facts[k.fact].subject;
        about(s) && (k.holds || !fixed.contains(&s))
    });
    kept.copied().collect()
}

/// A rule a set worth testing may hold: it speaks of some subject whose
/// value is not known, or of nothing in particular.
struct Live {
    /// The rule, an index into [`Deductions::rules`].
    rule: usize,
    /// The subjects it speaks of whose value is not known (`None`: it may
    /// speak of any). Rules of a smallest set are linked by these: a rule
    /// that meets the others only on known values adds nothing to them.
    unknown: Option<Vec<usize>>,
    /// Whether it speaks of a subject that an open fact is about.
    open: bool,
}

/// Notes that `step` was taken. A rule about one subject (a scalar, a fan)
/// whose facts cover every value it can take says only "it takes one of
/// the values I leave", and a step of that rule alone leaves every value it
/// rules out known: from then on the known facts entail it, so it adds
/// nothing to any set and no smallest set holds it, and the searches leave
/// it out. (A nurikabe's 958 rules `island[i,j] != k` are such steps.)
pub fn taken(d: &mut Deductions<'_>, step: &Step, memo: &mut Memo) -> Result<(), SolverError> {
    let &[r] = &step.because[..] else { return Ok(()) };
    let &[s] = &d.rules[r].subjects[..] else { return Ok(()) };
    let covers = match memo.covers.get(&s) {
        Some(&covers) => covers,
        None => {
            let facts: Vec<Lit> = d.facts.iter().filter(|f| f.subject == s).map(|f| !f.lit).collect();
            let none_holds: Vec<Lit> =
                d.assumptions.iter().copied().chain(d.off_judged(&[])).chain(facts.iter().copied()).collect();
            let covers = !facts.is_empty() && d.solver.solve_under(&none_holds)? == Answer::Unsat;
            memo.covers.insert(s, covers);
            covers
        }
    };
    if covers {
        memo.spent.resize(d.rules.len(), false);
        memo.spent[r] = true;
    }
    Ok(())
}

/// The rules that speak of some subject whose value is not known, or of
/// nothing in particular, and that the known facts do not entail (`spent`,
/// see [`taken`]). A rule about no open subject can still be needed:
/// on `x[2] = x[1]` and `x[4] != x[2]` with the objective `-2*x[2] + x[3] -
/// 2*x[4]` at its least, the second rule and the objective force `x[3]` once
/// `x[2]` and `x[4]` are known to be 2 or 3, with neither value fixed. So
/// such rules are kept, and a set needs one rule about an open subject.
fn live_rules(d: &Deductions<'_>, open: &[Settled], known: &[Settled], spent: &[bool]) -> Vec<Live> {
    let mut subjects: Vec<usize> = open.iter().map(|o| d.facts[o.fact].subject).collect();
    subjects.sort_unstable();
    subjects.dedup();
    let fixed: std::collections::HashSet<usize> =
        known.iter().filter(|k| k.holds).map(|k| d.facts[k.fact].subject).collect();
    let known_facts: HashSet<usize> = known.iter().map(|k| k.fact).collect();
    let live = d.rules.iter().enumerate().filter_map(|(rule, r)| {
        if d.stated.binary_search(&rule).is_ok() || spent.get(rule) == Some(&true) || entailed(r, &known_facts) {
            return None;
        }
        if r.subjects.is_empty() {
            return Some(Live { rule, unknown: None, open: true });
        }
        let unknown: Vec<usize> = r.subjects.iter().copied().filter(|s| !fixed.contains(s)).collect();
        let open = unknown.iter().any(|s| subjects.binary_search(s).is_ok());
        (!unknown.is_empty()).then_some(Live { rule, unknown: Some(unknown), open })
    });
    live.collect()
}

/// Whether the known facts entail `rule`: it reads only facts
/// ([`super::Rule::reads`]), and every one of them is known.
fn entailed(rule: &super::Rule, known: &HashSet<usize>) -> bool {
    rule.reads.as_ref().is_some_and(|reads| reads.facts.iter().all(|f| known.contains(f)))
}

/// Whether two live rules share a subject whose value is not known.
fn shares(a: &Live, b: &Live) -> bool {
    match (&a.unknown, &b.unknown) {
        (Some(a), Some(b)) => meet(a, b),
        _ => true,
    }
}

/// Whether two sorted lists share an entry.
fn meet(a: &[usize], b: &[usize]) -> bool {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Equal => return true,
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
        }
    }
    false
}

/// Whether the members of `set` (indices into `touches`) are connected by
/// shared open subjects.
fn connected(set: &[usize], touches: &[Vec<bool>]) -> bool {
    let mut reached = vec![false; set.len()];
    let mut stack = vec![0];
    reached[0] = true;
    while let Some(i) = stack.pop() {
        for j in 0..set.len() {
            if !reached[j] && touches[set[i]][set[j]] {
                reached[j] = true;
                stack.push(j);
            }
        }
    }
    reached.iter().all(|&r| r)
}

/// The easiest next deductions from `state`: every deduction of the
/// smallest size found, easiest first (fewest facts used), each found in
/// `state`. Empty when no target fact is open, or when every deduction left
/// needs more than `upto` rules. `limits` bounds the search; `stats`
/// counts it.
pub fn next_steps(
    d: &mut Deductions<'_>,
    target: &Target,
    state: &State,
    upto: Option<usize>,
    limits: &Limits,
    memo: &mut Memo,
    stats: &mut PlanStats,
) -> Result<Vec<Step>, SolverError> {
    let open = open_facts(target, state);
    if open.is_empty() {
        return Ok(Vec::new());
    }
    stats.searches += 1;
    stats.candidates += open.len() as u64;
    stats.max_candidates = stats.max_candidates.max(open.len() as u64);
    let known_settled = state.settled();
    let c0 = d.solver.stats().sat_calls;
    let follows = forced(d, memo.pool(d), &[], &known_settled, &open)?;
    stats.calls[0] += d.solver.stats().sat_calls - c0;
    if !follows.facts.is_empty() {
        let Forced { facts, core } = follows;
        let (using, using_minimal) =
            timed(&mut stats.used, || used_facts(d, memo.pool(d), &[], &known_settled, &facts, &core))?;
        return Ok(vec![Step { facts, because: Vec::new(), using, smallest: true, using_minimal }]);
    }
    let exact = limits.exact_size.min(upto.unwrap_or(usize::MAX));
    let mut search = timed_search(d, &open, &known_settled, 1..=exact.min(1), limits, memo, stats)?;
    let mut probe = None;
    let budget = limits.sets_per_search;
    let searched = search.complete || search.wide_only;
    let pairs = if search.found.is_empty() && searched && exact >= 2 {
        pairs_sharing_a_subject(d, &open, &known_settled, memo, budget + 1)
    } else {
        0
    };
    if pairs > budget / 2 {
        // No one rule forces anything, so a deletion-minimal set of two
        // rules is a smallest one: one such probe can spare the search over
        // every pair, when there are many (the nurikabe: 90 s for 2,000
        // pairs, against 0.5 s for the probe). Where pairs are few the
        // probe costs more than the pairs (the slitherlink's loop makes a
        // deletion over every rule slow), so it is not made there.
        let found = timed_fallback(d, &open, &known_settled, limits, memo, stats)?;
        if let Some((because, forced)) = found {
            if because.len() == 2 {
                return finish_step(d, because, forced, true, &known_settled, memo, stats);
            }
            probe = Some((because, forced));
        }
    }
    // A search over more pairs than its budget could not finish, so it
    // could prove no step smallest, and it cost the 10×10 nurikabe 2,000
    // sets of 6 SAT calls at each of its 31 steps past one rule (more than
    // 400 s in all): the probe's set, or the fallback's, stands instead.
    // `--upto` asks for the sets of its size alone, so those are searched.
    if search.found.is_empty() && searched && exact >= 2 && (pairs <= budget || upto.is_some()) {
        let (wide_only, below) = (search.wide_only, search.complete_below);
        search = timed_search(d, &open, &known_settled, 2..=exact, limits, memo, stats)?;
        if wide_only {
            (search.complete, search.complete_below) = (false, below);
        }
    }
    if !search.found.is_empty() {
        let mut steps = Vec::new();
        for (because, forced) in search.found {
            steps.extend(finish_step(d, because, forced, search.complete, &known_settled, memo, stats)?);
        }
        let colours = super::colours::colours(d, &known_settled, &open);
        steps.sort_by_cached_key(|s| taking_order(d, &open, &colours, s));
        return Ok(steps);
    }
    if upto.is_some_and(|k| k <= exact) {
        stats.untested_within_upto += u64::from(!search.complete);
        return Ok(Vec::new());
    }
    let step = match probe {
        Some(step) => Some(step),
        None => timed_fallback(d, &open, &known_settled, limits, memo, stats)?,
    };
    let Some((because, forced)) = step else { return Ok(Vec::new()) };
    if let Some(k) = upto.filter(|&k| because.len() > k) {
        // A deletion-minimal set is not a smallest one: past the sizes
        // searched in full, a smaller set may force something.
        stats.untested_within_upto += u64::from(search.complete_below < k);
        return Ok(Vec::new());
    }
    let smallest = because.len() == search.complete_below + 1;
    finish_step(d, because, forced, smallest, &known_settled, memo, stats)
}

/// The order of steps found together, easiest first: the fewest facts
/// used, then placements (what a player looks for), the most facts
/// found, and what is open around the step (per fact found, used and per
/// subject of its rules, whether it holds and how many values its thing has
/// open), then the colours of its rules and facts ([`Colours`]). No key is
/// a fact's, value's or rule's number, so a puzzle and its transposed or
/// relabelled copy take their steps in the same order, and fold the same
/// eliminations into each placement: only steps no key tells apart still
/// go by number, and steps that use no known fact, which keep the
/// search's order.
fn taking_order(d: &Deductions<'_>, open: &[Settled], colours: &Colours, step: &Step) -> impl Ord + use<> {
    let open_of = |s: usize| open.iter().filter(|o| d.facts[o.fact].subject == s).count();
    let places = |f: &Settled| f.holds || d.facts.iter().filter(|g| g.subject == d.facts[f.fact].subject).count() == 1;
    let shape = |facts: &[Settled]| {
        let mut shape: Vec<(bool, usize)> = facts.iter().map(|f| (f.holds, open_of(d.facts[f.fact].subject))).collect();
        shape.sort_unstable();
        shape
    };
    let mut around: Vec<usize> =
        step.because.iter().flat_map(|&r| d.rules[r].subjects.iter().map(|&s| open_of(s))).collect();
    around.sort_unstable();
    let placed = step.facts.iter().filter(|f| places(f)).count();
    let mut coloured: Vec<u64> = step.because.iter().map(|&r| colours.rules[r]).collect();
    coloured.extend(step.facts.iter().chain(&step.using).map(|f| colours.facts[f.fact]));
    let shapes = (shape(&step.facts), shape(&step.using), around, coloured);
    // A step that uses no known fact keeps the search's order: a hint stops
    // the search at the first such step, which must be the one `steps`
    // takes first.
    let ties =
        (!step.using.is_empty()).then_some((std::cmp::Reverse(placed), std::cmp::Reverse(step.facts.len()), shapes));
    (step.using.len(), ties)
}

/// How many pairs of live rules share an open subject, counted up to
/// `cap`.
fn pairs_sharing_a_subject(d: &Deductions<'_>, open: &[Settled], known: &[Settled], memo: &Memo, cap: usize) -> usize {
    let live = live_rules(d, open, known, &memo.spent);
    let mut pairs = 0;
    for (i, a) in live.iter().enumerate() {
        pairs += live[i + 1..].iter().filter(|b| (a.open || b.open) && shares(a, b)).count();
        if pairs >= cap {
            return cap;
        }
    }
    pairs
}

/// [`exhaustive`], counted in `stats`.
fn timed_search(
    d: &mut Deductions<'_>,
    open: &[Settled],
    known: &[Settled],
    sizes: std::ops::RangeInclusive<usize>,
    limits: &Limits,
    memo: &mut Memo,
    stats: &mut PlanStats,
) -> Result<Exhaustive, SolverError> {
    let started = Instant::now();
    let c0 = d.solver.stats().sat_calls;
    let search = exhaustive(d, open, known, sizes, limits, memo)?;
    stats.sets_tested += search.tested as u64;
    stats.set_search += started.elapsed();
    stats.calls[1] += d.solver.stats().sat_calls - c0;
    Ok(search)
}

/// [`fallback`], counted in `stats`.
fn timed_fallback(
    d: &mut Deductions<'_>,
    open: &[Settled],
    known: &[Settled],
    limits: &Limits,
    memo: &mut Memo,
    stats: &mut PlanStats,
) -> Result<Option<Deduction>, SolverError> {
    stats.fallbacks += 1;
    let started = Instant::now();
    let c0 = d.solver.stats().sat_calls;
    let spent = memo.spent.clone();
    let step = fallback(d, memo.pool(d), &spent, open, known, limits)?;
    stats.calls[2] += d.solver.stats().sat_calls - c0;
    stats.fallback += started.elapsed();
    Ok(step)
}

/// The step of `because` forcing `forced`, with the known facts it uses.
fn finish_step(
    d: &mut Deductions<'_>,
    because: Vec<usize>,
    forced: Forced,
    smallest: bool,
    known: &[Settled],
    memo: &mut Memo,
    stats: &mut PlanStats,
) -> Result<Vec<Step>, SolverError> {
    let Forced { facts, core } = forced;
    let (using, using_minimal) =
        timed(&mut stats.used, || used_facts(d, memo.pool(d), &because, known, &facts, &core))?;
    Ok(vec![Step { facts, because, using, smallest, using_minimal }])
}

/// What [`exhaustive`] found: the sets of the smallest size that force
/// something, with what they force; whether every smaller set was tested
/// (within the budget); the sets tested; the largest size tested in full.
struct Exhaustive {
    found: Vec<Deduction>,
    complete: bool,
    tested: usize,
    /// Every admitted set of at most this many rules was tested.
    complete_below: usize,
    /// Incomplete only because tests left a wide subject's inner values
    /// untested ([`forced_wide`]): larger sets are worth searching.
    wide_only: bool,
}

/// Every set of the live rules of the sizes in `sizes`, by increasing
/// size, tested for what it forces (the caller has tested every smaller
/// set). A set that joins a wide rule (a grid global, say)
/// to narrow ones is first asked only about the facts near the narrow
/// rules' cells, where such a deduction nearly always lands, and only when
/// no set of its size forces a fact there about the rest: a set found is
/// still a smallest one, as every smaller set was asked about everything.
fn exhaustive(
    d: &mut Deductions<'_>,
    open: &[Settled],
    known: &[Settled],
    sizes: std::ops::RangeInclusive<usize>,
    limits: &Limits,
    memo: &mut Memo,
) -> Result<Exhaustive, SolverError> {
    let live = live_rules(d, open, known, &memo.spent);
    let touches: Vec<Vec<bool>> = live.iter().map(|a| live.iter().map(|b| shares(a, b)).collect()).collect();
    let wide = wide_rules(d, &live);
    let near: Vec<std::collections::HashSet<crate::grid::Pos>> =
        live.iter().map(|l| around(&d.rules[l.rule].cells)).collect();
    let restricted = |set: &[usize]| set.iter().any(|&i| wide[i]) && set.iter().any(|&i| !wide[i]);
    let (mut budget, mut tested) = (limits.sets_per_search, 0);
    let largest = (*sizes.end()).min(live.len());
    // Set once a set forces something with no known fact, for a search
    // that wants only the first step; once a test gives up on its set; and
    // once one leaves a wide subject's inner values untested.
    let (enough, gave_up, wide_untested) = (Cell::new(false), Cell::new(false), Cell::new(false));
    // The first size at which a wide test left values untested: larger
    // sets are still searched, but none found is known to be smallest.
    let mut first_untested: Option<usize> = None;
    for size in *sizes.start()..=largest {
        for local in [true, false] {
            let admits = |set: &[usize]| {
                set.len() == size
                    && !enough.get()
                    && set.iter().any(|&i| live[i].open)
                    && connected(set, &touches)
                    && (local || restricted(set))
            };
            let search = smallest_sets(live.len(), size, budget, admits, |set| {
                let rules: Vec<usize> = set.iter().map(|&i| live[i].rule).collect();
                let speaks_of_all = set.iter().any(|&i| live[i].unknown.is_none());
                let about = |o: &&Settled| {
                    let s = d.facts[o.fact].subject;
                    speaks_of_all
                        || set.iter().any(|&i| live[i].unknown.as_ref().is_some_and(|ss| ss.binary_search(&s).is_ok()))
                };
                let is_near = |o: &&Settled| {
                    d.facts[o.fact].place.is_none_or(|p| set.iter().any(|&i| !wide[i] && near[i].contains(&p)))
                };
                let split = restricted(set);
                let candidates: Vec<Settled> =
                    open.iter().filter(about).filter(|o| !split || is_near(o) == local).copied().collect();
                if candidates.is_empty() {
                    return Ok(None);
                }
                let relevant = relevant_known(d, &rules, known);
                let seen = digest(&relevant);
                let mut key = rules.clone();
                if !local {
                    key.push(usize::MAX);
                }
                if memo.forced_nothing.get(&key) == Some(&seen) {
                    return Ok(None);
                }
                let candidates = unwitnessed(memo, &rules, &relevant, candidates);
                if candidates.is_empty() {
                    memo.forced_nothing.insert(key, seen);
                    return Ok(None);
                }
                d.solver.limit_repair_rounds(Some(SET_ROUNDS));
                let mark = memo.pool(d).kept();
                let found = forced_or_by_bounds(d, memo.pool(d), &rules, &relevant, &candidates);
                d.solver.limit_repair_rounds(None);
                keep_witnesses(d, memo, &rules, mark);
                let found = match found {
                    Err(SolverError::Stopped(StopCause::Rounds(_))) => {
                        gave_up.set(true);
                        return Ok(None);
                    }
                    Ok(None) => {
                        wide_untested.set(true);
                        return Ok(None);
                    }
                    found => found?.unwrap_or_default(),
                };
                if found.facts.is_empty() {
                    memo.forced_nothing.insert(key, seen);
                    return Ok(None);
                }
                enough.set(limits.first_only && found.core.is_empty());
                Ok::<_, SolverError>(Some((rules, found)))
            })?;
            tested += search.tested;
            budget -= search.tested;
            // A set given up on is untested: with nothing found, no larger
            // set found later is known to be smallest.
            let complete = search.complete && (!search.found.is_empty() || !gave_up.get());
            if search.found.is_empty() && wide_untested.get() {
                first_untested.get_or_insert(size);
            }
            if !search.found.is_empty() || !complete {
                let found = search.found.into_iter().map(|(_, found)| found).collect();
                let below = if complete { size } else { size - 1 };
                let complete_below = first_untested.map_or(below, |s| below.min(s - 1));
                let complete = complete && first_untested.is_none();
                return Ok(Exhaustive { found, complete, tested, complete_below, wide_only: false });
            }
        }
    }
    let complete_below = first_untested.map_or(largest, |s| s - 1);
    let wide_only = first_untested.is_some();
    Ok(Exhaustive { found: Vec::new(), complete: !wide_only, tested, complete_below, wide_only })
}

/// Keeps for the set `rules` the models the shared pool met since `mark`,
/// within [`WITNESSED_WORDS`].
fn keep_witnesses(d: &Deductions<'_>, memo: &mut Memo, rules: &[usize], mark: usize) {
    let Some(pool) = &memo.pool else { return };
    let own = memo.witnessed.entry(rules.to_vec()).or_insert_with(|| Witnesses::new(d, SET_WITNESSES));
    let before = own.len();
    pool.copy_since(mark, own);
    memo.witnessed_words += (own.len() - before) * own.model_words();
    if memo.witnessed_words > WITNESSED_WORDS {
        memo.witnessed.clear();
        memo.witnessed_words = 0;
    }
}

/// The `candidates` that no model kept for the set `rules` refutes while
/// agreeing with the `known` facts; those it refutes are not forced.
fn unwitnessed(memo: &Memo, rules: &[usize], known: &[Settled], mut candidates: Vec<Settled>) -> Vec<Settled> {
    let Some(own) = memo.witnessed.get(rules) else { return candidates };
    let mut left: Vec<Settled> = candidates.iter().map(|c| Settled { fact: c.fact, holds: !c.holds }).collect();
    own.drop_shown(rules, known, &mut left);
    let left: HashSet<usize> = left.iter().map(|l| l.fact).collect();
    candidates.retain(|c| left.contains(&c.fact));
    candidates
}

/// Per live rule, whether it is wide: it speaks of anything, or of more
/// than a quarter of the subjects (and more than 16), as a grid global does.
fn wide_rules(d: &Deductions<'_>, live: &[Live]) -> Vec<bool> {
    let bound = wide_bound(d);
    live.iter().map(|l| is_wide(&d.rules[l.rule], bound)).collect()
}

/// The most subjects a narrow rule speaks of: a quarter of them, or 16.
fn wide_bound(d: &Deductions<'_>) -> usize {
    let subjects: std::collections::HashSet<usize> = d.facts.iter().map(|f| f.subject).collect();
    (subjects.len() / 4).max(16)
}

/// Whether `rule` is wide: it speaks of anything, or of more than `bound`
/// subjects ([`wide_bound`]).
fn is_wide(rule: &super::Rule, bound: usize) -> bool {
    rule.subjects.is_empty() || rule.subjects.len() > bound
}

/// `cells` and their eight neighbours.
fn around(cells: &[crate::grid::Pos]) -> std::collections::HashSet<crate::grid::Pos> {
    let mut near = std::collections::HashSet::new();
    for &(r, c) in cells {
        for nr in r.saturating_sub(1)..=r + 1 {
            for nc in c.saturating_sub(1)..=c + 1 {
                near.insert((nr, nc));
            }
        }
    }
    near
}

fn timed<T>(total: &mut Duration, f: impl FnOnce() -> T) -> T {
    let started = Instant::now();
    let result = f();
    *total += started.elapsed();
    result
}

/// Up to this many rules, a deletion-minimal set drops one rule a test
/// (a Sudoku has 27, a Killer Sudoku about 60); past it, the solver's core
/// drops many at once (a 10×10 nurikabe has about 1,000).
const IN_TURN: usize = 128;

/// A set of rules (indices, in increasing order) and the facts it forces.
type Deduction = (Vec<usize>, Forced);

/// A deletion-minimal set of rules for each of a few open facts, the
/// smallest of them, and every open fact it forces for which each of its
/// rules is needed.
fn fallback(
    d: &mut Deductions<'_>,
    pool: &mut Witnesses,
    spent: &[bool],
    open: &[Settled],
    known: &[Settled],
    limits: &Limits,
) -> Result<Option<Deduction>, SolverError> {
    // Ruling a value out is usually easier than placing one: try those first.
    // The orders below go by what is open, not by how the facts and rules
    // are numbered, so that a puzzle and its transposed or relabelled copy
    // meet the same sets (ties still go by number).
    let mut open_values: HashMap<usize, usize> = HashMap::new();
    for o in open {
        *open_values.entry(d.facts[o.fact].subject).or_default() += 1;
    }
    let open_of = |s: usize| open_values.get(&s).copied().unwrap_or(0);
    let mut tried: Vec<Settled> = open.to_vec();
    let colours = super::colours::colours(d, known, open);
    tried.sort_by_key(|s| (s.holds, open_of(d.facts[s.fact].subject), colours.facts[s.fact]));
    tried.truncate(limits.fallback_facts.max(1));
    let mut best: Option<(Vec<usize>, Settled)> = None;
    for t in tried {
        let subject = d.facts[t.fact].subject;
        // Deletion drops from the back first, so the rules about the fact's
        // own subject, in front, are the likeliest to stay.
        let known_facts: HashSet<usize> = known.iter().map(|k| k.fact).collect();
        let mut order: Vec<usize> = (0..d.rules.len())
            .filter(|&r| {
                d.stated.binary_search(&r).is_err()
                    && spent.get(r) != Some(&true)
                    && !entailed(&d.rules[r], &known_facts)
            })
            .collect();
        // Then the rules with the fewest open values, the likeliest to be
        // needed, in front.
        order.sort_by_key(|&r| {
            let subjects = &d.rules[r].subjects;
            let open: usize = subjects.iter().map(|&s| open_of(s)).sum();
            (!subjects.contains(&subject), subjects.is_empty(), open, colours.rules[r])
        });
        let few = order.len() <= IN_TURN;
        let selectors: Vec<Lit> = order.iter().map(|&r| d.rules[r].selector).collect();
        let rule_of: HashMap<Lit, usize> = order.iter().map(|&r| (d.rules[r].selector, r)).collect();
        let mut base = d.assumptions.clone();
        base.extend(known.iter().map(|&k| lit(d, k)));
        base.push(!lit(d, t));
        let negation = Settled { fact: t.fact, holds: !t.holds };
        let kept = shrink_by_deletion(&selectors, |set| {
            let on: Vec<usize> = set.iter().map(|s| rule_of[s]).collect();
            let mut shown = vec![negation];
            pool.drop_shown(&on, known, &mut shown);
            if shown.is_empty() {
                return Ok(None);
            }
            let off = d.off_judged(&on);
            let all: Vec<Lit> = base.iter().chain(set).chain(&off).copied().collect();
            // The solver's core drops many rules at once, but which depends
            // on its history, not on the puzzle alone: where the rules are
            // few, each is dropped in turn instead, so that a puzzle and its
            // transposed or relabelled copy keep the same rules.
            let core = pool.core_or_keep(d, &all)?;
            Ok(core.map(|core| if few { set.to_vec() } else { core }))
        })?;
        let Some(kept) = kept else {
            return Err(SolverError::ModelRejected(
                "a fact of every solution is not forced by the whole puzzle".into(),
            ));
        };
        let mut rules: Vec<usize> = kept.iter().map(|s| rule_of[s]).collect();
        rules.sort_unstable();
        if best.as_ref().is_none_or(|(b, _)| rules.len() < b.len()) {
            best = Some((rules, t));
        }
        // No fact is forced by no rule (the test with none came first), so
        // one rule is the least: the facts left to try cannot do better.
        if best.as_ref().is_some_and(|(b, _)| b.len() <= 1) {
            break;
        }
    }
    let Some((because, t)) = best else { return Ok(None) };
    // What else the set forces is asked of the narrow subjects only: a wide
    // one takes a model per value ([`WIDE_VALUES`]).
    let wide = wide_subjects(d, open);
    let candidates: Vec<Settled> =
        open.iter().filter(|o| o.fact == t.fact || !wide.contains(&d.facts[o.fact].subject)).copied().collect();
    let mut found = forced(d, pool, &because, known, &candidates)?;
    for r in 0..because.len() {
        let rest: Vec<usize> = because.iter().enumerate().filter(|&(i, _)| i != r).map(|(_, &x)| x).collect();
        let still = forced(d, pool, &rest, known, &found.facts)?.facts;
        found.facts.retain(|f| !still.contains(f));
    }
    Ok((!found.facts.is_empty()).then_some((because, found)))
}

/// The solutions that agree with `state`, counted up to `limit` over the
/// facts' literals, each passing the family's check: the count and whether
/// it is complete.
pub fn remaining(d: &mut Deductions<'_>, state: &State, limit: u64) -> Result<(u64, bool), SolverError> {
    let known: Vec<Lit> = state.settled().iter().map(|&s| lit(d, s)).collect();
    let assumptions = all_rules_with(d, &known);
    let projection: Vec<Lit> = d.facts.iter().map(|f| f.lit).collect();
    let Deductions { solver, check, .. } = d;
    let mut checked = Checked::new(&mut **solver, |value: &dyn Fn(Lit) -> bool| check(value, None));
    let mut count = 0;
    for model in crate::solver::ProjectedModels::new(&mut checked, projection, &assumptions) {
        model?;
        count += 1;
        if count >= limit {
            return Ok((count, false));
        }
    }
    Ok((count, true))
}
