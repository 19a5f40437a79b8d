//! Colours that tell a state's rules and facts apart by how they stand, not
//! by how they are numbered: a fact starts as known to hold, known to fail,
//! open or neither; a thing ([`super::Fact::subject`]), a value (every fact
//! giving some thing that value) and a rule are coloured by the colours
//! around them, and each round a member takes in its neighbours' colours
//! (Weisfeiler and Leman's refinement). A puzzle and its transposed or
//! relabelled copy give each rule and fact the colour of its image, so an
//! order by colour is the same order in both; only members no round tells
//! apart still go by number.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

use super::Deductions;
use super::plan::Settled;

/// Rounds of refinement: a fact hears of its thing's rules at the second,
/// of the facts they share at the fourth.
const ROUNDS: usize = 4;

/// Per rule and per fact (indices as in [`Deductions`]), its colour.
pub struct Colours {
    pub rules: Vec<u64>,
    pub facts: Vec<u64>,
}

fn hashed(own: u64, mut heard: Vec<u64>) -> u64 {
    heard.sort_unstable();
    let mut h = DefaultHasher::new();
    own.hash(&mut h);
    heard.hash(&mut h);
    h.finish()
}

/// The colours of `d`'s rules and facts with `known` settled and `open`
/// (the target facts not yet known) still to find.
pub fn colours(d: &Deductions<'_>, known: &[Settled], open: &[Settled]) -> Colours {
    let mut facts: Vec<u64> = vec![0; d.facts.len()];
    for k in known {
        facts[k.fact] = 1 + u64::from(k.holds);
    }
    for o in open {
        facts[o.fact] = 3 + u64::from(o.holds);
    }
    // Things and values by first appearance: only which facts share one
    // counts, never its number.
    let mut things: HashMap<usize, usize> = HashMap::new();
    let mut values: HashMap<i64, usize> = HashMap::new();
    let thing_of: Vec<usize> = d
        .facts
        .iter()
        .map(|f| {
            let n = things.len();
            *things.entry(f.subject).or_insert(n)
        })
        .collect();
    let value_of: Vec<usize> = d
        .facts
        .iter()
        .map(|f| {
            let n = values.len();
            *values.entry(f.value).or_insert(n)
        })
        .collect();
    let rule_things: Vec<Vec<usize>> =
        d.rules.iter().map(|r| r.subjects.iter().filter_map(|s| things.get(s).copied()).collect()).collect();
    let mut rules: Vec<u64> =
        d.rules.iter().map(|r| hashed(r.subjects.is_empty().into(), vec![r.subjects.len() as u64])).collect();
    let mut thing_colour: Vec<u64> = vec![0; things.len()];
    let mut value_colour: Vec<u64> = vec![0; values.len()];
    for _ in 0..ROUNDS {
        let mut heard_thing: Vec<Vec<u64>> = vec![Vec::new(); things.len()];
        let mut heard_value: Vec<Vec<u64>> = vec![Vec::new(); values.len()];
        for (f, &c) in facts.iter().enumerate() {
            heard_thing[thing_of[f]].push(c);
            heard_value[value_of[f]].push(c);
        }
        for (r, ts) in rule_things.iter().enumerate() {
            for &t in ts {
                heard_thing[t].push(rules[r].rotate_left(1));
            }
        }
        let new_things: Vec<u64> =
            heard_thing.into_iter().enumerate().map(|(t, heard)| hashed(thing_colour[t], heard)).collect();
        let new_values: Vec<u64> =
            heard_value.into_iter().enumerate().map(|(v, heard)| hashed(value_colour[v], heard)).collect();
        rules = rule_things
            .iter()
            .enumerate()
            .map(|(r, ts)| hashed(rules[r], ts.iter().map(|&t| thing_colour[t]).collect()))
            .collect();
        facts = (0..facts.len())
            .map(|f| hashed(facts[f], vec![thing_colour[thing_of[f]], value_colour[value_of[f]].rotate_left(2)]))
            .collect();
        thing_colour = new_things;
        value_colour = new_values;
    }
    Colours { rules, facts }
}
