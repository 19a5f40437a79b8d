//! The deductions against brute force over every assignment of a few
//! variables, and a check that refuses models.

use super::*;
use crate::solver::new_solver;
use proptest::prelude::*;

/// Random groups of clauses over 4 variables; group 1 (the first opened)
/// is the fixed part, the others are rules.
fn formula(groups: &[Vec<Vec<(usize, bool)>>]) -> (Cnf, Vec<GroupId>) {
    let mut cnf = Cnf::new();
    let vars = cnf.new_vars(4);
    let mut ids = Vec::new();
    for (i, clauses) in groups.iter().enumerate() {
        ids.push(cnf.open_group(format!("g{i}"), None));
        for clause in clauses {
            let lits: Vec<Lit> = clause.iter().map(|&(v, p)| vars[v].lit(p)).collect();
            cnf.add_clause(&lits);
        }
    }
    (cnf, ids)
}

fn assignments() -> impl Iterator<Item = Vec<bool>> {
    (0u32..16).map(|bits| (0..4).map(|i| bits >> i & 1 == 1).collect())
}

/// Whether some assignment meets every clause of the groups `keep` admits.
fn satisfiable(cnf: &Cnf, keep: &dyn Fn(GroupId) -> bool) -> bool {
    assignments().any(|a| cnf.grouped_clauses().filter(|(g, _)| keep(*g)).all(|(_, c)| c.iter().any(|l| l.holds(&a))))
}

/// The switchable deductions of `cnf` with `soft` as rules, checked
/// against the clauses of the rules assumed.
fn deductions<'c>(cnf: &'c Cnf, soft: &'c [GroupId]) -> Deductions<'c> {
    let (guarded, selectors) = switchable(cnf, soft);
    let check = move |value: &dyn Fn(Lit) -> bool, on: Option<&[usize]>| {
        let holds = |g: GroupId| match soft.iter().position(|&s| s == g) {
            Some(rule) => on.is_none_or(|on| on.contains(&rule)),
            None => true,
        };
        let broken = cnf.grouped_clauses().any(|(g, c)| holds(g) && !c.iter().any(|&l| value(l)));
        if broken { Err("a clause is broken".to_string()) } else { Ok(()) }
    };
    let mut d = Deductions::new(new_solver(&guarded, None), check);
    d.rules = soft.iter().zip(&selectors).map(|(&g, &s)| rule_of_group(cnf, g, s)).collect();
    d
}

fn groups() -> impl Strategy<Value = Vec<Vec<Vec<(usize, bool)>>>> {
    prop::collection::vec(prop::collection::vec(prop::collection::vec((0usize..4, any::<bool>()), 1..3), 1..3), 2..9)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The conflict cannot hold, and without any one of its rules it can.
    #[test]
    fn a_minimal_conflict_is_unsatisfiable_and_minimal(groups in groups()) {
        let (cnf, ids) = formula(&groups);
        let soft = &ids[1..];
        let mut d = deductions(&cnf, soft);
        let all: Vec<usize> = (0..soft.len()).collect();
        let found = minimal_conflict(&mut d, &all).unwrap();
        prop_assert_eq!(found.is_none(), satisfiable(&cnf, &|_| true));
        if let Some(rules) = found {
            let in_set = |g: GroupId, without: Option<usize>| {
                soft.iter().position(|&s| s == g).is_none_or(|r| rules.contains(&r) && Some(r) != without)
            };
            prop_assert!(!satisfiable(&cnf, &|g| in_set(g, None)));
            for &dropped in &rules {
                prop_assert!(satisfiable(&cnf, &|g| in_set(g, Some(dropped))));
            }
            prop_assert!(rules.windows(2).all(|w| w[0] < w[1]), "in the order given: {:?}", rules);
        }
    }

    /// A fact is possible exactly when some solution of the whole makes it true.
    #[test]
    fn possible_facts_are_those_of_some_solution(groups in groups()) {
        let (cnf, ids) = formula(&groups);
        let mut d = deductions(&cnf, &[]);
        let _ = ids;
        d.facts = (0..4)
            .flat_map(|v| [true, false].map(|p| (v, p)))
            .map(|(v, p)| Fact {
                lit: crate::cnf::Var::from_index(v).lit(p),
                name: format!("x{v} = {p}"),
                place: None,
                subject: v,
                value: p as i64,
                about: format!("x{v}"),
                shown: p.into(),
            })
            .collect();
        let solutions: Vec<Vec<bool>> = assignments().filter(|a| cnf.is_satisfied_by(a)).collect();
        let expected = (!solutions.is_empty())
            .then(|| d.facts.iter().map(|f| solutions.iter().any(|a| f.lit.holds(a))).collect::<Vec<bool>>());
        prop_assert_eq!(possible_facts(&mut d).unwrap(), expected);
    }
}

#[test]
fn a_model_the_check_refuses_is_an_error_not_a_verdict() {
    let mut cnf = Cnf::new();
    let a = cnf.new_var();
    let rule = cnf.open_group("a", None);
    cnf.add_clause(&[a.pos()]);
    let (guarded, selectors) = switchable(&cnf, &[rule]);
    let refuse = |_: &dyn Fn(Lit) -> bool, _: Option<&[usize]>| Err("refused".to_string());
    let mut d = Deductions::new(new_solver(&guarded, None), refuse);
    d.rules = vec![rule_of_group(&cnf, rule, selectors[0])];
    assert!(matches!(minimal_conflict(&mut d, &[0]), Err(SolverError::ModelRejected(_))));
    d.facts = vec![Fact {
        lit: a.pos(),
        name: "a".into(),
        place: None,
        subject: 0,
        value: 1,
        about: "a".into(),
        shown: true.into(),
    }];
    assert!(matches!(possible_facts(&mut d), Err(SolverError::ModelRejected(_))));
}

#[test]
fn a_refuted_puzzle_has_no_facts_without_a_call() {
    let mut d = Deductions::new(new_solver(&Cnf::new(), None), |_: &dyn Fn(Lit) -> bool, _: Option<&[usize]>| Ok(()));
    d.refuted = true;
    assert_eq!(possible_facts(&mut d).unwrap(), None);
    assert_eq!(d.solver.stats().sat_calls, 0);
}

/// The re-check of a step accepts a step whose rules force its fact and
/// each is needed, and refuses one that forces nothing and one whose set
/// is not minimal: the check can fail.
#[test]
fn a_step_that_does_not_force_its_fact_or_is_not_minimal_fails_its_re_check() {
    use super::plan::{Settled, Step};
    use super::verify::check_step;
    // x0 (rule 0), x0 -> x1 (rule 1), x1 (rule 2).
    let (cnf, ids) =
        formula(&[vec![], vec![vec![(0, true)]], vec![vec![(0, false), (1, true)]], vec![vec![(1, true)]]]);
    let mut d = deductions(&cnf, &ids[1..]);
    d.facts = vec![Fact {
        lit: crate::cnf::Var::from_index(1).lit(true),
        name: "x1".into(),
        place: None,
        subject: 1,
        value: 1,
        about: "x1".into(),
        shown: true.into(),
    }];
    let step = |because: Vec<usize>| Step {
        facts: vec![Settled { fact: 0, holds: true }],
        because,
        using: Vec::new(),
        smallest: false,
        using_minimal: true,
    };
    assert!(check_step(&mut d, &step(vec![0, 1])).is_ok());
    assert!(check_step(&mut d, &step(vec![2])).is_ok());
    for wrong in [vec![0], vec![1], vec![0, 1, 2]] {
        let result = check_step(&mut d, &step(wrong.clone()));
        assert!(matches!(result, Err(SolverError::ModelRejected(_))), "{wrong:?}: {result:?}");
    }
}

/// One query of the planner's `forced`: the rules on (bits), the known
/// facts and the candidates, each as (variable, value).
type Query = (u8, Vec<(usize, bool)>, Vec<(usize, bool)>);

fn queries() -> impl Strategy<Value = Vec<Query>> {
    let settled = || prop::collection::vec((0usize..4, any::<bool>()), 0..4);
    prop::collection::vec((any::<u8>(), settled(), settled()), 1..12)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The planner's `forced`, with its kept models shared by every query
    /// of a formula and its preferred assumptions, names exactly the
    /// candidates that hold in every assignment meeting the fixed part, the
    /// rules on and the known facts (brute force), and agrees with the
    /// plain loop of `possible_literals` on the negations.
    #[test]
    fn forced_facts_from_kept_models_agree_with_brute_force(groups in groups(), queries in queries()) {
        use super::plan::{Settled, forced};
        use super::witness::Witnesses;
        let (cnf, ids) = formula(&groups);
        let soft = &ids[1..];
        let mut d = deductions(&cnf, soft);
        d.facts = (0..4)
            .map(|v| Fact {
                lit: crate::cnf::Var::from_index(v).pos(),
                name: format!("x{v}"),
                place: None,
                subject: v,
                value: 1,
                about: format!("x{v}"),
                shown: true.into(),
            })
            .collect();
        let mut pool = Witnesses::new(&d, 64);
        for (bits, known, candidates) in queries {
            let rules: Vec<usize> = (0..soft.len()).filter(|r| bits >> (r % 8) & 1 == 1).collect();
            let settle = |s: &[(usize, bool)]| -> Vec<Settled> {
                let mut s: Vec<Settled> = s.iter().map(|&(fact, holds)| Settled { fact, holds }).collect();
                s.sort();
                s.dedup_by_key(|x| x.fact);
                s
            };
            let (known, candidates) = (settle(&known), settle(&candidates));
            let on = |g: GroupId| soft.iter().position(|&s| s == g).is_none_or(|r| rules.contains(&r));
            let meets = |a: &[bool], known: &[Settled]| {
                cnf.grouped_clauses().filter(|(g, _)| on(*g)).all(|(_, c)| c.iter().any(|l| l.holds(a)))
                    && known.iter().all(|k| a[k.fact] == k.holds)
            };
            let models: Vec<Vec<bool>> = assignments().filter(|a| meets(a, &known)).collect();
            let expected: Vec<Settled> =
                candidates.iter().filter(|c| models.iter().all(|a| a[c.fact] == c.holds)).copied().collect();
            let found = forced(&mut d, &mut pool, &rules, &known, &candidates).unwrap();
            // The core is made of known facts (a seed, which `used_facts` tests).
            prop_assert!(found.core.iter().all(|k| known.contains(k)), "core {:?} known {:?}", found.core, known);
            let found = found.facts;
            prop_assert_eq!(&found, &expected, "rules {:?} known {:?}", rules, known);
            let mut assumptions: Vec<Lit> = rules.iter().map(|&r| d.rules[r].selector).collect();
            assumptions.extend(known.iter().map(|k| d.facts[k.fact].lit.var().lit(k.holds)));
            let negations: Vec<Lit> = candidates.iter().map(|c| d.facts[c.fact].lit.var().lit(!c.holds)).collect();
            if let Some(plain) = crate::solver::possible_literals(&mut *d.solver, &negations, &assumptions).unwrap() {
                let slow: Vec<Settled> =
                    candidates.iter().zip(&plain.possible).filter(|(_, p)| !**p).map(|(&c, _)| c).collect();
                prop_assert_eq!(found, slow);
            }
        }
    }
}

/// Subjects with 1 to 3 values each, one-hot in the fixed part, the first
/// value of a one-value subject the constant truth and, with `impossible`,
/// a subject's last value its negation; the rules are random clauses over
/// the value literals. Returns the formula, the rules' groups, the facts
/// and the truth literal.
fn domains(sizes: &[usize], impossible: &[bool], rules: &[Vec<(usize, bool)>]) -> (Cnf, Vec<GroupId>, Vec<Fact>, Lit) {
    let mut cnf = Cnf::new();
    let truth = cnf.new_var().pos();
    cnf.add_clause(&[truth]);
    let mut facts = Vec::new();
    for (subject, (&size, &gone)) in sizes.iter().zip(impossible).enumerate() {
        let lits: Vec<Lit> = match size {
            1 => vec![truth],
            _ if gone => cnf.new_vars(size - 1).iter().map(|v| v.pos()).chain([!truth]).collect(),
            _ => cnf.new_vars(size).iter().map(|v| v.pos()).collect(),
        };
        cnf.add_clause(&lits);
        for (i, &a) in lits.iter().enumerate() {
            for &b in &lits[i + 1..] {
                cnf.add_clause(&[!a, !b]);
            }
        }
        for (value, &lit) in lits.iter().enumerate() {
            facts.push(Fact {
                lit,
                name: format!("s{subject} = {value}"),
                place: None,
                subject,
                value: value as i64,
                about: format!("s{subject}"),
                shown: value.into(),
            });
        }
    }
    let ids = rules
        .iter()
        .enumerate()
        .map(|(i, clause)| {
            let id = cnf.open_group(format!("r{i}"), None);
            let lits: Vec<Lit> = clause
                .iter()
                .map(|&(f, p)| if p { facts[f % facts.len()].lit } else { !facts[f % facts.len()].lit })
                .collect();
            cnf.add_clause(&lits);
            id
        })
        .collect();
    (cnf, ids, facts, truth)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// With no rule on, the facts read from the subjects' domains
    /// ([`Deductions::domains_only`]) are those the solver finds, and the
    /// core is made of known facts that force them.
    #[test]
    fn facts_read_from_domains_agree_with_the_solver(
        sizes in prop::collection::vec(1usize..4, 1..5),
        impossible in prop::collection::vec(any::<bool>(), 5),
        rules in prop::collection::vec(prop::collection::vec((0usize..20, any::<bool>()), 1..3), 0..3),
        known in prop::collection::vec((0usize..20, any::<bool>()), 0..4),
        candidates in prop::collection::vec((0usize..20, any::<bool>()), 1..8),
    ) {
        use super::plan::{Settled, forced};
        use super::witness::Witnesses;
        let (cnf, ids, facts, truth) = domains(&sizes, &impossible, &rules);
        let settle = |s: &[(usize, bool)]| -> Vec<Settled> {
            let mut s: Vec<Settled> = s.iter().map(|&(f, holds)| Settled { fact: f % facts.len(), holds }).collect();
            s.sort();
            s.dedup_by_key(|x| x.fact);
            s
        };
        let (known, candidates) = (settle(&known), settle(&candidates));
        let run = |read: bool| {
            let mut d = deductions(&cnf, &ids);
            d.facts = facts.clone();
            d.domains_only = read.then_some(truth);
            let mut pool = Witnesses::new(&d, 16);
            let found = forced(&mut d, &mut pool, &[], &known, &candidates).unwrap();
            let held = (!found.facts.is_empty()).then(|| forced(&mut d, &mut pool, &[], &found.core, &found.facts).unwrap().facts);
            (found.facts.clone(), found.core, held)
        };
        let (by_domains, core, held) = run(true);
        let (by_solver, _, _) = run(false);
        prop_assert_eq!(&by_domains, &by_solver, "known {:?}", known);
        prop_assert!(core.iter().all(|k| known.contains(k)));
        if let Some(held) = held {
            prop_assert_eq!(held, by_domains, "the core {:?} alone forces them", core);
        }
    }
}

/// The re-check of a one-rule step, whose "without its rule" test reads
/// the subjects' domains ([`Deductions::domains_only`]), or asks the
/// solver: each verdict, accepted or the reason refused.
fn one_rule_verdicts(
    cnf: &Cnf,
    ids: &[GroupId],
    facts: &[Fact],
    truth: Lit,
    step: &plan::Step,
) -> [Result<(), String>; 2] {
    [true, false].map(|read| {
        let mut d = deductions(cnf, ids);
        d.facts = facts.to_vec();
        d.domains_only = read.then_some(truth);
        verify::check_step(&mut d, step).map_err(|e| format!("{e:?}"))
    })
}

/// A step whose fact follows from the facts it uses with no rule at all
/// fails its re-check as not minimal, found from the domains alone; one
/// whose fact does not passes. With s0 one of 0, 1 and 2 and the rule
/// "s0 is 1 or 2": s0 ≠ 0 from the rule passes, s0 ≠ 0 from the rule and
/// "s0 = 1" does not; and with s1's second value impossible (the constant
/// truth's negation), s1 = 0 from any rule does not.
#[test]
fn a_step_whose_fact_follows_without_its_one_rule_fails_the_re_check_by_domains() {
    use super::plan::{Settled, Step};
    let (cnf, ids, facts, truth) = domains(&[3, 2], &[false, true], &[vec![(1, true), (2, true)]]);
    let step = |fact: Settled, using: Vec<Settled>| Step {
        facts: vec![fact],
        because: vec![0],
        using,
        smallest: true,
        using_minimal: true,
    };
    let s0_is = |value: usize, holds: bool| Settled { fact: value, holds };
    let passes = one_rule_verdicts(&cnf, &ids, &facts, truth, &step(s0_is(0, false), Vec::new()));
    assert_eq!(passes, [Ok(()), Ok(())]);
    let passes = one_rule_verdicts(&cnf, &ids, &facts, truth, &step(s0_is(2, true), vec![s0_is(1, false)]));
    assert_eq!(passes, [Ok(()), Ok(())]);
    let s1_is_0 = Settled { fact: 3, holds: true };
    for wrong in [step(s0_is(0, false), vec![s0_is(1, true)]), step(s1_is_0, Vec::new())] {
        let [by_domains, by_solver] = one_rule_verdicts(&cnf, &ids, &facts, truth, &wrong);
        let refused = by_domains.unwrap_err();
        assert!(refused.contains("its set is not minimal"), "{refused}");
        assert_eq!(Err(refused), by_solver);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// On random one-rule steps over random domains, the re-check that
    /// reads the domains gives the verdict of the one that asks the solver.
    #[test]
    fn the_re_check_by_domains_agrees_with_the_solver(
        sizes in prop::collection::vec(1usize..4, 1..4),
        impossible in prop::collection::vec(any::<bool>(), 4),
        rule in prop::collection::vec((0usize..12, any::<bool>()), 1..3),
        using in prop::collection::vec((0usize..12, any::<bool>()), 0..3),
        new in prop::collection::vec((0usize..12, any::<bool>()), 1..3),
    ) {
        use super::plan::{Settled, Step};
        let (cnf, ids, facts, truth) = domains(&sizes, &impossible, &[rule]);
        let settle = |s: &[(usize, bool)]| -> Vec<Settled> {
            let mut s: Vec<Settled> = s.iter().map(|&(f, holds)| Settled { fact: f % facts.len(), holds }).collect();
            s.sort();
            s.dedup_by_key(|x| x.fact);
            s
        };
        let using = settle(&using);
        let new: Vec<Settled> = settle(&new).into_iter().filter(|f| !using.iter().any(|u| u.fact == f.fact)).collect();
        prop_assume!(!new.is_empty());
        let step = Step { facts: new, because: vec![0], using, smallest: true, using_minimal: true };
        let [by_domains, by_solver] = one_rule_verdicts(&cnf, &ids, &facts, truth, &step);
        prop_assert_eq!(by_domains, by_solver, "{:?}", step);
    }
}
