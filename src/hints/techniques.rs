//! Steps named as a player names them ("hidden single", "naked pair"),
//! where the model's hint table names the shape ([`Shape`]) and the step
//! has it. The shape is checked here on the facts the step uses and the
//! houses of its rules, never taken on trust: a step is named only when
//! the named claim ("it is the only place for 7 in box 2") follows from
//! the facts it shows as used.

use std::collections::{HashMap, HashSet};

use super::session::shown_fact;
use crate::deduce::plan::{Settled, Step};
use crate::deduce::{Deductions, House};
use crate::lang::hints::{Shape, Technique};
use crate::report::steps::ShownTechnique;

/// What the facts a step uses say of each subject's values.
struct Known<'d> {
    /// Per subject, its values (those it has facts for).
    values: &'d HashMap<usize, Vec<i64>>,
    /// The (subject, value) pairs ruled out.
    out: HashSet<(usize, i64)>,
    /// The subjects given a value, with it.
    placed: HashMap<usize, i64>,
}

impl Known<'_> {
    /// Whether `subject` is known not to take `value`: ruled out, given
    /// another value, or outside its values.
    fn excluded(&self, subject: usize, value: i64) -> bool {
        self.out.contains(&(subject, value))
            || self.placed.get(&subject).is_some_and(|&w| w != value)
            || self.values.get(&subject).is_some_and(|vs| !vs.contains(&value))
    }

    /// The values `subject` may still take; empty for a subject with no
    /// facts.
    fn candidates(&self, subject: usize) -> Vec<i64> {
        let all = self.values.get(&subject).map(Vec::as_slice).unwrap_or_default();
        all.iter().copied().filter(|&v| !self.excluded(subject, v)).collect()
    }
}

/// Per subject, the values it has facts for, in fact order.
pub(super) fn values_of(d: &Deductions<'_>) -> HashMap<usize, Vec<i64>> {
    let mut values: HashMap<usize, Vec<i64>> = HashMap::new();
    for fact in &d.facts {
        values.entry(fact.subject).or_default().push(fact.value);
    }
    values
}

/// The first of `techniques` whose shape `step` has, in words; a step that
/// places values is named by its placements.
pub(super) fn name(
    d: &Deductions<'_>,
    values: &HashMap<usize, Vec<i64>>,
    techniques: &[Technique],
    step: &Step,
) -> Option<ShownTechnique> {
    if techniques.is_empty() || step.facts.is_empty() {
        return None;
    }
    // A cell's other values ruled out with its placement follow from it
    // (each cell takes one value): the step is named by its placements.
    let placed: Vec<Settled> = step.facts.iter().copied().filter(|f| f.holds).collect();
    let subject = |f: &Settled| d.facts[f.fact].subject;
    let follows = |f: &Settled| f.holds || placed.iter().any(|p| subject(p) == subject(f));
    if !placed.is_empty() && placed.len() < step.facts.len() && step.facts.iter().all(follows) {
        return name(d, values, techniques, &Step { facts: placed, ..step.clone() });
    }
    let mut known = Known { values, out: HashSet::new(), placed: HashMap::new() };
    for u in &step.using {
        let fact = &d.facts[u.fact];
        if u.holds {
            known.placed.insert(fact.subject, fact.value);
        } else {
            known.out.insert((fact.subject, fact.value));
        }
    }
    let mut houses: Vec<&House> = Vec::new();
    for house in step.because.iter().filter_map(|&r| d.rules[r].house.as_ref()) {
        if !houses.iter().any(|h| (h.kind, h.number) == (house.kind, house.number)) {
            houses.push(house);
        }
    }
    if step.facts.len() > 1 && step.facts.iter().all(|f| f.holds) {
        // Several placements at once, as in a house whose last cells fill
        // one after another: named when each one is, in some order, with
        // the facts the step uses and the placements named before it.
        let mut left = step.facts.clone();
        let mut each = Vec::new();
        while !left.is_empty() {
            let (i, named) = left.iter().enumerate().find_map(|(i, &f)| {
                let one = Step { facts: vec![f], ..step.clone() };
                let ask = Asked { d, known: &known, houses: &houses, step: &one };
                techniques.iter().find_map(|t| ask.fits(t)).map(|t| (i, t))
            })?;
            let fact = &d.facts[left.remove(i).fact];
            known.placed.insert(fact.subject, fact.value);
            each.push(named);
        }
        return Some(joined(each));
    }
    let ask = Asked { d, known: &known, houses: &houses, step };
    techniques.iter().find_map(|t| ask.fits(t)).or_else(|| chained(d, techniques, step, &mut known, &houses))
}

/// A step no one shape explains, named as a chain of parts, each named
/// with the facts the step uses and the parts named before it: a fish
/// whose eliminations leave a cell one value, say, then that placement,
/// then the value ruled out where it is now taken. A part is one
/// placement, the facts left that rule out one value, or every fact left
/// that rules a value out; a subject's
/// other values follow from its placement (each subject takes one value).
fn chained(
    d: &Deductions<'_>,
    techniques: &[Technique],
    step: &Step,
    known: &mut Known<'_>,
    houses: &[&House],
) -> Option<ShownTechnique> {
    let mut left = step.facts.clone();
    let mut each = Vec::new();
    while !left.is_empty() {
        let mut parts: Vec<Vec<Settled>> = left.iter().filter(|f| f.holds).map(|&f| vec![f]).collect();
        let mut values: Vec<i64> = Vec::new();
        for f in left.iter().filter(|f| !f.holds) {
            let v = d.facts[f.fact].value;
            if !values.contains(&v) {
                values.push(v);
            }
        }
        let ruling_out = |v: i64| left.iter().copied().filter(|f| !f.holds && d.facts[f.fact].value == v).collect();
        // Then every elimination left at once, as a subset's may be.
        let several = values.len() > 1;
        parts.extend(values.into_iter().map(ruling_out));
        if several {
            parts.push(left.iter().copied().filter(|f| !f.holds).collect());
        }
        let (part, named) = parts.into_iter().find_map(|facts| {
            let one = Step { facts, ..step.clone() };
            let ask = Asked { d, known: &*known, houses, step: &one };
            techniques.iter().find_map(|t| ask.fits(t)).map(|t| (one.facts, t))
        })?;
        for f in &part {
            let fact = &d.facts[f.fact];
            if f.holds {
                known.placed.insert(fact.subject, fact.value);
            } else {
                known.out.insert((fact.subject, fact.value));
            }
        }
        let follows = |f: &Settled| {
            let fact = &d.facts[f.fact];
            !f.holds && known.placed.get(&fact.subject).is_some_and(|&w| w != fact.value)
        };
        left.retain(|f| !part.contains(f) && !follows(f));
        each.push(named);
    }
    (each.len() > 1).then(|| joined(each))
}

/// Several named placements as one: their names, each once, their
/// sentences and their houses, in order.
fn joined(each: Vec<ShownTechnique>) -> ShownTechnique {
    let mut names: Vec<String> = Vec::new();
    let mut houses: Vec<String> = Vec::new();
    for t in &each {
        if !names.contains(&t.name) {
            names.push(t.name.clone());
        }
        for h in &t.houses {
            if !houses.contains(h) {
                houses.push(h.clone());
            }
        }
    }
    let text = each.iter().map(|t| t.text.as_str()).collect::<Vec<_>>().join("; ");
    let facts = each.iter().flat_map(|t| t.facts.iter().cloned()).collect();
    ShownTechnique { name: and_list(&names), text, houses, facts, each }
}

/// One step asked whether it has a shape.
#[derive(Clone, Copy)]
struct Asked<'a, 'p> {
    d: &'a Deductions<'p>,
    known: &'a Known<'a>,
    /// The houses of the step's rules, each once, in the rules' order.
    houses: &'a [&'a House],
    step: &'a Step,
}

impl Asked<'_, '_> {
    fn fits(&self, t: &Technique) -> Option<ShownTechnique> {
        let within = |h: &&&House| t.within.is_empty() || t.within.contains(&h.kind);
        match t.shape {
            Shape::SinglePlace => {
                let (x, v) = self.one_placement()?;
                let house = self.houses.iter().filter(within).find(|h| {
                    self.holds_every_value(h, v)
                        && h.subjects.contains(&x)
                        && h.subjects.iter().all(|&s| s == x || self.known.excluded(s, v))
                })?;
                Some(self.shown(t, vec![house.label.clone()], |slot| self.placement_slot(slot, Some(house))))
            }
            Shape::SingleValue => {
                let (x, v) = self.one_placement()?;
                let values = self.known.values.get(&x)?;
                let seen = |w: i64| {
                    self.houses.iter().any(|h| {
                        h.subjects.contains(&x)
                            && h.subjects.iter().any(|&s| s != x && self.known.placed.get(&s) == Some(&w))
                    })
                };
                values.iter().all(|&w| w == v || self.known.excluded(x, w) || seen(w)).then_some(())?;
                Some(self.shown(t, Vec::new(), |slot| self.placement_slot(slot, None)))
            }
            Shape::Subset => self.houses.iter().filter(within).find_map(|h| self.subset(t, h)),
            Shape::HiddenSubset => self.houses.iter().filter(within).find_map(|h| self.hidden_subset(t, h)),
            Shape::Fish => self.fish(t),
            Shape::Taken => self.taken(t, &within),
            Shape::Intersection => {
                let v = self.one_value_ruled_out()?;
                let pairs = self.houses.iter().filter(within).flat_map(|a| self.houses.iter().map(move |b| (a, b)));
                pairs.filter(|(a, b)| a.kind != b.kind || a.number != b.number).find_map(|(a, b)| {
                    self.confined(a, b, v).then(|| {
                        let labels = vec![a.label.clone(), b.label.clone()];
                        self.shown(t, labels, |slot| match slot {
                            "value" => self.value_text(self.step.facts[0].fact),
                            "house" => a.label.clone(),
                            _ => b.label.clone(),
                        })
                    })
                })
            }
        }
    }

    /// The step's one new fact when it gives a subject a value: the
    /// subject and value.
    fn one_placement(&self) -> Option<(usize, i64)> {
        match self.step.facts[..] {
            [f] if f.holds => Some((self.d.facts[f.fact].subject, self.d.facts[f.fact].value)),
            _ => None,
        }
    }

    /// The one value every new fact rules out, when they all rule out one.
    fn one_value_ruled_out(&self) -> Option<i64> {
        let v = self.d.facts[self.step.facts[0].fact].value;
        self.step.facts.iter().all(|f| !f.holds && self.d.facts[f.fact].value == v).then_some(v)
    }

    /// Whether every cell of `a` that may take `v` is in `b`, some is, and
    /// every new fact is about a cell of `b` outside `a`.
    fn confined(&self, a: &House, b: &House, v: i64) -> bool {
        if !self.holds_every_value(a, v) {
            return false;
        }
        let outside = self.step.facts.iter().all(|f| {
            let s = self.d.facts[f.fact].subject;
            b.subjects.contains(&s) && !a.subjects.contains(&s)
        });
        let open: Vec<usize> = a.subjects.iter().copied().filter(|&s| !self.known.excluded(s, v)).collect();
        outside && !open.is_empty() && open.iter().all(|s| b.subjects.contains(s))
    }

    /// Whether `v` must appear in `house`: its cells share one set of
    /// values, `v` among them, as many as the cells, so that each value
    /// appears once. (A Killer Sudoku's cage takes each value at most once
    /// but need not hold every one: "the only place for 7 in the cage" would
    /// not follow.)
    fn holds_every_value(&self, house: &House, v: i64) -> bool {
        let Some(first) = house.subjects.first().and_then(|s| self.known.values.get(s)) else { return false };
        first.len() == house.subjects.len()
            && first.contains(&v)
            && house.subjects.iter().all(|s| self.known.values.get(s).is_some_and(|vs| vs == first))
    }

    /// Each new fact a value ruled out because another cell of one of the
    /// step's houses holds it: one sentence per house and value.
    fn taken(&self, t: &Technique, within: &dyn Fn(&&&House) -> bool) -> Option<ShownTechnique> {
        let mut groups: Vec<(&House, i64, Vec<Settled>)> = Vec::new();
        for &f in &self.step.facts {
            let (x, v) = (self.d.facts[f.fact].subject, self.d.facts[f.fact].value);
            let holder = |h: &&&House| {
                h.subjects.contains(&x) && h.subjects.iter().any(|&s| s != x && self.known.placed.get(&s) == Some(&v))
            };
            let house = self.houses.iter().filter(within).find(holder).filter(|_| !f.holds)?;
            match groups.iter_mut().find(|(h, w, _)| std::ptr::eq(*h, *house) && *w == v) {
                Some((_, _, facts)) => facts.push(f),
                None => groups.push((house, v, vec![f])),
            }
        }
        let each: Vec<ShownTechnique> = groups
            .into_iter()
            .map(|(house, _, facts)| {
                let one = Step { facts, ..self.step.clone() };
                let ask = Asked { step: &one, ..*self };
                let cells: Vec<String> =
                    one.facts.iter().map(|f| ask.subject_at(self.d.facts[f.fact].subject)).collect();
                ask.shown(t, vec![house.label.clone()], |slot| match slot {
                    "value" => ask.value_text(one.facts[0].fact),
                    "cells" => and_list(&cells),
                    _ => house.label.clone(),
                })
            })
            .collect();
        Some(if each.len() == 1 { each.into_iter().next()? } else { joined(each) })
    }

    /// A naked subset in `house` that explains every new fact: cells with
    /// only as many values between them as there are cells, each of the
    /// step's facts one of those values ruled out in another cell.
    fn subset(&self, t: &Technique, house: &House) -> Option<ShownTechnique> {
        if self.step.facts.iter().any(|f| f.holds) {
            return None;
        }
        let ruled: Vec<(usize, i64)> =
            self.step.facts.iter().map(|f| (self.d.facts[f.fact].subject, self.d.facts[f.fact].value)).collect();
        if ruled.iter().any(|(s, _)| !house.subjects.contains(s)) {
            return None;
        }
        let most = t.size.unwrap_or(4);
        let open: Vec<(usize, Vec<i64>)> = house
            .subjects
            .iter()
            .filter(|s| !ruled.iter().any(|(r, _)| r == *s) && !self.known.placed.contains_key(s))
            .map(|&s| (s, self.known.candidates(s)))
            .filter(|(_, c)| (2..=most).contains(&c.len()))
            .collect();
        let sizes = match t.size {
            Some(k) => k..=k,
            None => 2..=most,
        };
        for k in sizes {
            let found = choose(open.len(), k).into_iter().find_map(|pick| {
                let mut union: Vec<i64> = pick.iter().flat_map(|&i| open[i].1.iter().copied()).collect();
                union.sort_unstable();
                union.dedup();
                (union.len() == k && ruled.iter().all(|(_, w)| union.contains(w))).then_some((pick, union))
            });
            if let Some((pick, union)) = found {
                let cells: Vec<String> = pick.iter().map(|&i| self.subject_at(open[i].0)).collect();
                let values: Vec<String> = union.iter().map(|&w| self.value_of(open[pick[0]].0, w)).collect();
                return Some(self.shown(t, vec![house.label.clone()], |slot| match slot {
                    "values" => and_list(&values),
                    "cells" => and_list(&cells),
                    "size" => k.to_string(),
                    _ => house.label.clone(),
                }));
            }
        }
        None
    }

    /// The (subject, value) of each new fact, when every one rules a value
    /// out.
    fn ruled_out(&self) -> Option<Vec<(usize, i64)>> {
        let fact = |f: &Settled| (!f.holds).then(|| (self.d.facts[f.fact].subject, self.d.facts[f.fact].value));
        self.step.facts.iter().map(fact).collect()
    }

    /// A hidden subset in `house` that explains every new fact: values the
    /// house must hold, not yet placed in it, whose every place in it lies
    /// in as many cells as there are values; each of the step's facts
    /// another value ruled out in one of those cells. (The values fill
    /// those cells, one each, so nothing else can.)
    fn hidden_subset(&self, t: &Technique, house: &House) -> Option<ShownTechnique> {
        let ruled = self.ruled_out()?;
        if ruled.iter().any(|(s, _)| !house.subjects.contains(s)) {
            return None;
        }
        let first = house.subjects.first().and_then(|s| self.known.values.get(s))?;
        let places =
            |v: i64| -> Vec<usize> { house.subjects.iter().copied().filter(|&s| !self.known.excluded(s, v)).collect() };
        let open: Vec<(i64, Vec<usize>)> = first
            .iter()
            .copied()
            .filter(|&v| {
                self.holds_every_value(house, v) && !house.subjects.iter().any(|s| self.known.placed.get(s) == Some(&v))
            })
            .map(|v| (v, places(v)))
            .filter(|(_, at)| !at.is_empty())
            .collect();
        // With no cell left over, the values fill the house: nothing hidden.
        let unplaced = house.subjects.iter().filter(|s| !self.known.placed.contains_key(s)).count();
        let (fewest, most) = t.size.map_or((2, 4), |k| (k, k));
        for k in (fewest..=most).filter(|&k| k < unplaced) {
            let found = first_choice(open.len(), k, &mut |pick| {
                let mut cells: Vec<usize> = pick.iter().flat_map(|&i| open[i].1.iter().copied()).collect();
                cells.sort_unstable();
                cells.dedup();
                let values: Vec<i64> = pick.iter().map(|&i| open[i].0).collect();
                let explained = ruled.iter().all(|(s, w)| cells.contains(s) && !values.contains(w));
                (cells.len() == k && explained).then_some((values, cells))
            });
            if let Some((values, cells)) = found {
                let shown: Vec<String> = values.iter().map(|&w| self.value_of(cells[0], w)).collect();
                let at: Vec<String> = cells.iter().map(|&s| self.subject_at(s)).collect();
                return Some(self.shown(t, vec![house.label.clone()], |slot| match slot {
                    "values" => and_list(&shown),
                    "cells" => and_list(&at),
                    "size" => k.to_string(),
                    _ => house.label.clone(),
                }));
            }
        }
        None
    }

    /// A fish that explains every new fact: one value, `size` disjoint
    /// houses of one kind (the base) that must each hold it and have not
    /// yet, whose every place for it lies in `size` disjoint houses of one
    /// kind (the cover); each fact the value ruled out in a cover cell
    /// outside the base. (The base holds the value `size` times, each in a
    /// cover, which holds it at most once: so each cover holds it in the
    /// base.)
    fn fish(&self, t: &Technique) -> Option<ShownTechnique> {
        let v = self.one_value_ruled_out()?;
        let struck: Vec<usize> = self.ruled_out()?.into_iter().map(|(s, _)| s).collect();
        let houses: Vec<&House> =
            self.houses.iter().copied().filter(|h| t.within.is_empty() || t.within.contains(&h.kind)).collect();
        let places =
            |h: &House| -> Vec<usize> { h.subjects.iter().copied().filter(|&s| !self.known.excluded(s, v)).collect() };
        let mut kinds: Vec<usize> = houses.iter().map(|h| h.kind).collect();
        kinds.sort_unstable();
        kinds.dedup();
        let (fewest, most) = t.size.map_or((2, 4), |k| (k, k));
        for k in fewest..=most {
            for &base_kind in &kinds {
                let bases: Vec<&House> = houses
                    .iter()
                    .copied()
                    .filter(|h| h.kind == base_kind && self.holds_every_value(h, v))
                    .filter(|h| {
                        !places(h).is_empty() && !h.subjects.iter().any(|s| self.known.placed.get(s) == Some(&v))
                    })
                    .collect();
                for &cover_kind in &kinds {
                    let covers: Vec<&House> = houses.iter().copied().filter(|h| h.kind == cover_kind).collect();
                    let found = first_choice(bases.len(), k, &mut |b| {
                        let base: Vec<&House> = b.iter().map(|&i| bases[i]).collect();
                        let cells: Vec<usize> = base.iter().flat_map(|h| places(h)).collect();
                        let in_base = |s: &usize| base.iter().any(|h| h.subjects.contains(s));
                        if !disjoint(&base) || struck.iter().any(in_base) {
                            return None;
                        }
                        first_choice(covers.len(), k, &mut |c| {
                            let cover: Vec<&House> = c.iter().map(|&i| covers[i]).collect();
                            let in_cover = |s: &usize| cover.iter().any(|h| h.subjects.contains(s));
                            let apart = disjoint(&cover) && !cover.iter().any(|h| base.iter().any(|b| same(h, b)));
                            (apart && cells.iter().all(in_cover) && struck.iter().all(in_cover))
                                .then(|| (base.clone(), cover))
                        })
                    });
                    if let Some((base, cover)) = found {
                        return Some(self.fish_shown(t, k, &base, &cover));
                    }
                }
            }
        }
        None
    }

    fn fish_shown(&self, t: &Technique, k: usize, base: &[&House], cover: &[&House]) -> ShownTechnique {
        let labels = |hs: &[&House]| hs.iter().map(|h| h.label.clone()).collect::<Vec<_>>();
        let cells: Vec<String> =
            self.step.facts.iter().map(|f| self.subject_at(self.d.facts[f.fact].subject)).collect();
        let houses = [labels(base), labels(cover)].concat();
        self.shown(t, houses, |slot| match slot {
            "value" => self.value_text(self.step.facts[0].fact),
            "houses" => and_list(&labels(base)),
            "other" => and_list(&labels(cover)),
            "cells" => and_list(&cells),
            _ => k.to_string(),
        })
    }

    fn placement_slot(&self, slot: &str, house: Option<&House>) -> String {
        let fact = self.step.facts[0].fact;
        match slot {
            "value" => self.value_text(fact),
            "cell" => self.d.facts[fact].about.clone(),
            "at" => self.subject_at(self.d.facts[fact].subject),
            _ => house.map(|h| h.label.clone()).unwrap_or_default(),
        }
    }

    fn shown(&self, t: &Technique, houses: Vec<String>, slot: impl Fn(&str) -> String) -> ShownTechnique {
        let facts = self.step.facts.iter().map(|&f| shown_fact(self.d, f)).collect();
        ShownTechnique { name: t.name.clone(), text: t.text.fill(slot), houses, facts, each: Vec::new() }
    }

    fn value_text(&self, fact: usize) -> String {
        match &self.d.facts[fact].shown {
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        }
    }

    /// `value` of `subject` in the puzzle's words.
    fn value_of(&self, subject: usize, value: i64) -> String {
        let fact = self.d.facts.iter().position(|f| f.subject == subject && f.value == value);
        fact.map_or_else(|| value.to_string(), |f| self.value_text(f))
    }

    /// Where a subject is: "(row, column)" from 1 when it has a cell, else
    /// its name.
    fn subject_at(&self, subject: usize) -> String {
        let fact = self.d.facts.iter().find(|f| f.subject == subject);
        match fact {
            Some(f) => match f.place {
                Some((r, c)) => format!("({}, {})", r + 1, c + 1),
                None => f.about.clone(),
            },
            None => String::new(),
        }
    }
}

/// "a", "a and b", "a, b and c".
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The first choice of `k` of `0..n` (each increasing, in order) that
/// `found` takes, with what it gives: the choices are tried one by one, and
/// the search stops at the first.
fn first_choice<T>(n: usize, k: usize, found: &mut dyn FnMut(&[usize]) -> Option<T>) -> Option<T> {
    fn extend<T>(
        from: usize,
        n: usize,
        k: usize,
        pick: &mut Vec<usize>,
        found: &mut dyn FnMut(&[usize]) -> Option<T>,
    ) -> Option<T> {
        if pick.len() == k {
            return found(pick);
        }
        for i in from..n {
            pick.push(i);
            let got = extend(i + 1, n, k, pick, found);
            pick.pop();
            if got.is_some() {
                return got;
            }
        }
        None
    }
    extend(0, n, k, &mut Vec::new(), found)
}

/// Whether no two of `houses` share a subject.
fn disjoint(houses: &[&House]) -> bool {
    houses
        .iter()
        .enumerate()
        .all(|(i, a)| houses[i + 1..].iter().all(|b| !b.subjects.iter().any(|s| a.subjects.contains(s))))
}

/// Whether `a` and `b` are one house.
fn same(a: &House, b: &House) -> bool {
    (a.kind, a.number) == (b.kind, b.number)
}

/// Every choice of `k` of `0..n`, each increasing.
fn choose(n: usize, k: usize) -> Vec<Vec<usize>> {
    fn extend(from: usize, n: usize, k: usize, pick: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if pick.len() == k {
            out.push(pick.clone());
            return;
        }
        for i in from..n {
            pick.push(i);
            extend(i + 1, n, k, pick, out);
            pick.pop();
        }
    }
    let mut out = Vec::new();
    extend(0, n, k, &mut Vec::new(), &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_read_as_sentences() {
        let items: Vec<String> = ["3", "5", "7"].iter().map(|s| s.to_string()).collect();
        assert_eq!(and_list(&items[..1]), "3");
        assert_eq!(and_list(&items[..2]), "3 and 5");
        assert_eq!(and_list(&items), "3, 5 and 7");
    }

    #[test]
    fn choices_are_every_subset_of_the_size() {
        assert_eq!(choose(4, 2).len(), 6);
        assert_eq!(choose(3, 3), vec![vec![0, 1, 2]]);
        assert!(choose(2, 3).is_empty());
    }
}
