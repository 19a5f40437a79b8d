//! A constraint instance split into the parts a person reasons with, for
//! steps and hints: an `alldifferent` over n scalars becomes, per value,
//! "this value at most once among them" (or "exactly once", when the
//! scalars can take only n values between them, so that each of those is
//! taken). "Each scalar takes one value" is already every scalar's domain.
//! The parts together say what the whole did, so the solutions are the
//! same; a step then names the values it reasons about, and a step's size
//! in parts tells a hidden single (one part) from a pair (two) or an
//! X-wing (four), with no knowledge of any puzzle.
//!
//! Each part carries its own statement ([`Part`]), which the family checks
//! against a witness by counting decoded values: nothing of the encoding.

use super::ir::{BExpr, Cmp, IExpr, IKind};
use super::{Group, Program};

/// The most values an `alldifferent` is split over; past it (a wide
/// domain) the constraint stays whole.
pub const MOST_VALUES: i64 = 64;

/// One part of a split constraint: `value` is taken by at most one of
/// `scalars` (by exactly one, when `exactly`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// The scalars (decision variables) the part speaks of.
    pub scalars: Vec<usize>,
    /// The value.
    pub value: i64,
    /// Whether the value is taken exactly once, not at most once.
    pub exactly: bool,
}

impl Part {
    /// Whether `values` (one per scalar of the model) satisfy the part.
    pub fn holds(&self, values: &[i64]) -> Option<bool> {
        let mut taken = 0;
        for &s in &self.scalars {
            taken += usize::from(*values.get(s)? == self.value);
        }
        Some(if self.exactly { taken == 1 } else { taken <= 1 })
    }

    /// The part in words, after its constraint's name.
    pub fn describe(&self) -> String {
        let how = if self.exactly { "exactly once" } else { "at most once" };
        format!("{} {how}", self.value)
    }
}

impl Program {
    /// The program with every constraint instance that is one
    /// `alldifferent` over scalars split into its parts ([`Part`]), each
    /// a group of its own named after its instance, in the instance's
    /// place; `None` when no instance splits.
    pub fn in_parts(&self) -> Option<Program> {
        let mut out = self.clone();
        out.groups.clear();
        let mut first_of = Vec::with_capacity(self.groups.len());
        for group in &self.groups {
            first_of.push(out.groups.len());
            match split(group) {
                Some(parts) => out.groups.extend(parts),
                None => out.groups.push(group.clone()),
            }
        }
        if out.groups.len() == self.groups.len() {
            return None;
        }
        for grid in &mut out.grids {
            grid.group = first_of[grid.group];
        }
        Some(out)
    }
}

/// The parts of `group`, when it is one `alldifferent` over two or more
/// scalars whose values span at most [`MOST_VALUES`].
fn split(group: &Group) -> Option<Vec<Group>> {
    let BExpr::AllDifferent(items) = &group.expr else { return None };
    let scalars: Vec<usize> =
        items.iter().map(|x| if let IKind::Var(s) = x.kind { Some(s) } else { None }).collect::<Option<_>>()?;
    if items.len() < 2 || items.iter().any(|x| x.partial) {
        return None;
    }
    let lo = items.iter().map(|x| x.lo).min()?;
    let hi = items.iter().map(|x| x.hi).max()?;
    if hi - lo + 1 > MOST_VALUES {
        return None;
    }
    // n scalars taking n values between them, all different: each is taken.
    let exactly = hi - lo + 1 == items.len() as i64;
    let mut parts = Vec::new();
    for value in lo..=hi {
        let can: Vec<usize> = (0..items.len()).filter(|&i| items[i].lo <= value && value <= items[i].hi).collect();
        if !exactly && can.len() < 2 {
            continue;
        }
        let part = Part { scalars: can.iter().map(|&i| scalars[i]).collect(), value, exactly };
        let terms: Vec<(i64, IExpr)> = can.iter().map(|&i| (1, is_value(&items[i], value))).collect();
        let count = IExpr { kind: IKind::Sum(terms, 0), lo: 0, hi: can.len() as i64, partial: false };
        let expr = BExpr::Cmp(if exactly { Cmp::Eq } else { Cmp::Le }, count, constant(1));
        let name = format!("{}: {}", group.name, part.describe());
        parts.push(Group { name, expr, part: Some(part), ..group.clone() });
    }
    Some(parts)
}

/// 1 when `x` takes `value`, else 0.
fn is_value(x: &IExpr, value: i64) -> IExpr {
    let holds = BExpr::Cmp(Cmp::Eq, x.clone(), constant(value));
    IExpr { kind: IKind::BoolToInt(Box::new(holds)), lo: 0, hi: 1, partial: false }
}

fn constant(value: i64) -> IExpr {
    IExpr { kind: IKind::Const(value), lo: value, hi: value, partial: false }
}
