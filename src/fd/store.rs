//! The domains of a finite-domain search: one bitset per variable with
//! its bounds and size kept beside it, and a trail that restores them.
//!
//! A variable is saved whole (bounds, size and words) the first time it
//! changes at a level, so undoing a level is copying back what was saved
//! there; most domains here are one or two words.

use crate::lang::model::IntSet;

/// A variable of the search: an index into the store.
pub(crate) type Var = usize;

/// A domain became empty: the node fails.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Fail;

/// How much a change did to a domain, weakest first: a propagator that
/// watches for `Bounds` wakes on `Bounds` and `Fixed`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Event {
    /// A value inside the bounds went.
    Domain,
    /// A bound moved.
    Bounds,
    /// One value is left.
    Fixed,
}

/// What a variable was before its first change at a level.
struct Saved {
    var: Var,
    lo: i64,
    hi: i64,
    size: u32,
    stamp: u32,
}

/// The largest domain span a variable may have (as the SAT encodings'
/// unary limit).
pub(crate) const MAX_SPAN: u64 = 1 << 16;

/// Every variable's domain, and the trail.
#[derive(Default)]
pub(crate) struct Store {
    base: Vec<i64>,
    first: Vec<usize>,
    nwords: Vec<usize>,
    words: Vec<u64>,
    lo: Vec<i64>,
    hi: Vec<i64>,
    size: Vec<u32>,
    /// The level at which each variable was last saved.
    stamp: Vec<u32>,
    level: u32,
    trail: Vec<Saved>,
    saved_words: Vec<u64>,
    marks: Vec<(usize, usize)>,
    /// The changes since the propagation queue last read them.
    pub changes: Vec<(Var, Event)>,
}

impl Store {
    /// A new variable over `set`, which is not empty and spans at most
    /// [`MAX_SPAN`] values.
    pub fn add(&mut self, set: &IntSet) -> Var {
        let (lo, hi) = (set.min().unwrap_or(0), set.max().unwrap_or(0));
        let span = (hi - lo + 1) as usize;
        let n = span.div_ceil(64);
        let var = self.base.len();
        let first = self.words.len();
        self.words.resize(first + n, 0);
        for &(a, b) in set.intervals() {
            for v in a..=b {
                let bit = (v - lo) as usize;
                self.words[first + bit / 64] |= 1 << (bit % 64);
            }
        }
        self.base.push(lo);
        self.first.push(first);
        self.nwords.push(n);
        self.lo.push(lo);
        self.hi.push(hi);
        self.size.push(set.len() as u32);
        self.stamp.push(0);
        var
    }

    /// How many variables there are.
    pub fn len(&self) -> usize {
        self.base.len()
    }

    pub fn min(&self, x: Var) -> i64 {
        self.lo[x]
    }

    pub fn max(&self, x: Var) -> i64 {
        self.hi[x]
    }

    pub fn size(&self, x: Var) -> u32 {
        self.size[x]
    }

    pub fn is_fixed(&self, x: Var) -> bool {
        self.size[x] == 1
    }

    pub fn contains(&self, x: Var, v: i64) -> bool {
        if v < self.lo[x] || v > self.hi[x] {
            return false;
        }
        let bit = (v - self.base[x]) as usize;
        self.words[self.first[x] + bit / 64] >> (bit % 64) & 1 == 1
    }

    /// The values of `x`, smallest first.
    pub fn values(&self, x: Var) -> impl Iterator<Item = i64> + '_ {
        let (first, base) = (self.first[x], self.base[x]);
        (0..self.nwords[x]).flat_map(move |w| {
            let mut word = self.words[first + w];
            std::iter::from_fn(move || {
                (word != 0).then(|| {
                    let bit = word.trailing_zeros() as i64;
                    word &= word - 1;
                    base + 64 * w as i64 + bit
                })
            })
        })
    }

    /// The least value of `x` at or above `v`, if any (within its bounds).
    fn next_from(&self, x: Var, v: i64) -> Option<i64> {
        if v > self.hi[x] {
            return None;
        }
        let bit = (v.max(self.lo[x]) - self.base[x]) as usize;
        let (first, n) = (self.first[x], self.nwords[x]);
        let mut w = bit / 64;
        let mut word = self.words[first + w] & (!0u64 << (bit % 64));
        loop {
            if word != 0 {
                return Some(self.base[x] + 64 * w as i64 + word.trailing_zeros() as i64);
            }
            w += 1;
            if w == n {
                return None;
            }
            word = self.words[first + w];
        }
    }

    /// The greatest value of `x` at or below `v`, if any.
    fn prev_from(&self, x: Var, v: i64) -> Option<i64> {
        if v < self.lo[x] {
            return None;
        }
        let bit = (v.min(self.hi[x]) - self.base[x]) as usize;
        let first = self.first[x];
        let mut w = bit / 64;
        let mut word = self.words[first + w] & (!0u64 >> (63 - bit % 64));
        loop {
            if word != 0 {
                return Some(self.base[x] + 64 * w as i64 + 63 - word.leading_zeros() as i64);
            }
            if w == 0 {
                return None;
            }
            w -= 1;
            word = self.words[first + w];
        }
    }

    fn save(&mut self, x: Var) {
        if self.stamp[x] == self.level {
            return;
        }
        self.trail.push(Saved { var: x, lo: self.lo[x], hi: self.hi[x], size: self.size[x], stamp: self.stamp[x] });
        let (first, n) = (self.first[x], self.nwords[x]);
        self.saved_words.extend_from_slice(&self.words[first..first + n]);
        self.stamp[x] = self.level;
    }

    /// Clears the bit of `v`, which is in the domain.
    fn clear(&mut self, x: Var, v: i64) {
        let bit = (v - self.base[x]) as usize;
        self.words[self.first[x] + bit / 64] &= !(1 << (bit % 64));
        self.size[x] -= 1;
    }

    /// Takes `v` out of the domain of `x`.
    pub fn remove(&mut self, x: Var, v: i64) -> Result<(), Fail> {
        if !self.contains(x, v) {
            return Ok(());
        }
        if self.size[x] == 1 {
            return Err(Fail);
        }
        self.save(x);
        self.clear(x, v);
        let event = if v == self.lo[x] {
            self.lo[x] = self.next_from(x, v).ok_or(Fail)?;
            Event::Bounds
        } else if v == self.hi[x] {
            self.hi[x] = self.prev_from(x, v).ok_or(Fail)?;
            Event::Bounds
        } else {
            Event::Domain
        };
        self.note(x, event);
        Ok(())
    }

    fn note(&mut self, x: Var, event: Event) {
        let event = if self.size[x] == 1 { Event::Fixed } else { event };
        self.changes.push((x, event));
    }

    /// Raises the least value of `x` to at least `m`.
    pub fn set_min(&mut self, x: Var, m: i64) -> Result<(), Fail> {
        if m <= self.lo[x] {
            return Ok(());
        }
        let lo = self.next_from(x, m).ok_or(Fail)?;
        self.save(x);
        self.clear_range(x, self.lo[x], lo - 1);
        self.lo[x] = lo;
        self.note(x, Event::Bounds);
        Ok(())
    }

    /// Lowers the greatest value of `x` to at most `m`.
    pub fn set_max(&mut self, x: Var, m: i64) -> Result<(), Fail> {
        if m >= self.hi[x] {
            return Ok(());
        }
        let hi = self.prev_from(x, m).ok_or(Fail)?;
        self.save(x);
        self.clear_range(x, hi + 1, self.hi[x]);
        self.hi[x] = hi;
        self.note(x, Event::Bounds);
        Ok(())
    }

    /// Clears the bits of `a..=b`, counting the values that go.
    fn clear_range(&mut self, x: Var, a: i64, b: i64) {
        let (first, base) = (self.first[x], self.base[x]);
        let (from, to) = ((a - base) as usize, (b - base) as usize);
        for w in from / 64..=to / 64 {
            let low = if w == from / 64 { !0u64 << (from % 64) } else { !0 };
            let high = if w == to / 64 { !0u64 >> (63 - to % 64) } else { !0 };
            let word = &mut self.words[first + w];
            self.size[x] -= (*word & low & high).count_ones();
            *word &= !(low & high);
        }
    }

    /// Fixes `x` to `v`.
    pub fn fix(&mut self, x: Var, v: i64) -> Result<(), Fail> {
        if !self.contains(x, v) {
            return Err(Fail);
        }
        if self.size[x] == 1 {
            return Ok(());
        }
        self.save(x);
        let (first, n) = (self.first[x], self.nwords[x]);
        self.words[first..first + n].fill(0);
        let bit = (v - self.base[x]) as usize;
        self.words[first + bit / 64] = 1 << (bit % 64);
        (self.lo[x], self.hi[x], self.size[x]) = (v, v, 1);
        self.changes.push((x, Event::Fixed));
        Ok(())
    }

    /// Opens a level that [`Store::pop`] undoes.
    pub fn push(&mut self) {
        self.marks.push((self.trail.len(), self.saved_words.len()));
        self.level += 1;
    }

    /// Restores every domain as it was at the last [`Store::push`].
    pub fn pop(&mut self) {
        let Some((trail, words)) = self.marks.pop() else { return };
        let mut end = self.saved_words.len();
        while self.trail.len() > trail {
            let saved = self.trail.pop().expect("above the mark");
            let x = saved.var;
            let (first, n) = (self.first[x], self.nwords[x]);
            self.words[first..first + n].copy_from_slice(&self.saved_words[end - n..end]);
            end -= n;
            (self.lo[x], self.hi[x], self.size[x], self.stamp[x]) = (saved.lo, saved.hi, saved.size, saved.stamp);
        }
        debug_assert_eq!(end, words);
        self.saved_words.truncate(words);
        self.level -= 1;
        self.changes.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_are_undone_level_by_level() {
        let mut store = Store::default();
        let x = store.add(&IntSet::from_values([1, 3, 4, 70, 90, 130]));
        store.push();
        store.remove(x, 1).unwrap();
        assert_eq!((store.min(x), store.size(x)), (3, 5));
        store.set_max(x, 100).unwrap();
        assert_eq!((store.max(x), store.size(x)), (90, 4));
        store.push();
        store.set_min(x, 5).unwrap();
        assert_eq!(store.values(x).collect::<Vec<_>>(), [70, 90]);
        assert_eq!(store.fix(x, 4), Err(Fail));
        store.fix(x, 90).unwrap();
        assert!(store.is_fixed(x));
        store.pop();
        assert_eq!(store.values(x).collect::<Vec<_>>(), [3, 4, 70, 90]);
        store.pop();
        assert_eq!(store.values(x).collect::<Vec<_>>(), [1, 3, 4, 70, 90, 130]);
        assert_eq!(store.set_min(x, 131), Err(Fail));
    }
}
