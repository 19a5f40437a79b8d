//! Binary arithmetic over literals, for linear constraints whose weights
//! or bounds are too wide for a unary count: the weighted literals are
//! summed column by column with full and half adders into the binary
//! digits of the sum, and the digits are compared with the bound.
//!
//! Each input literal lands in one column per set bit of its weight, and
//! each full adder takes three literals out of a column and puts one back
//! (and one into the next column), so the circuit has at most as many full
//! adders as there are weight bits: linear in the input, whatever the
//! bound. (rustsat's binary adder allocates in proportion to the bound,
//! which over a domain of 10^9 values is gigabytes.)

use std::collections::VecDeque;

use super::{CompileError, Encoder, MAX_FORMULA};
use crate::cnf::Lit;

/// Clauses per full adder (8 for the sum digit, 6 for the carry).
const FULL_ADDER_CLAUSES: usize = 14;

/// The number of full adders at most that summing `weighted` takes.
pub(super) fn adder_cost(weighted: &[(u64, Lit)]) -> usize {
    weighted.iter().map(|&(w, _)| w.count_ones() as usize).sum()
}

impl Encoder {
    /// The binary digits, lowest first, of Σ w·l, each defined (both ways)
    /// in the hard part. Refused before anything is built when the circuit
    /// would pass the formula's limits.
    pub(super) fn binary_sum(&mut self, weighted: &[(u64, Lit)]) -> Result<Vec<Lit>, CompileError> {
        let cost = adder_cost(weighted);
        if cost.saturating_mul(FULL_ADDER_CLAUSES).saturating_add(self.total_clauses) > MAX_FORMULA
            || cost.saturating_mul(2).saturating_add(self.num_vars) > MAX_FORMULA
        {
            return Err(CompileError::TooLarge(format!(
                "a linear constraint over {} weighted literals needs about {} clauses for its binary adder, past the {MAX_FORMULA} limit",
                weighted.len(),
                cost.saturating_mul(FULL_ADDER_CLAUSES)
            )));
        }
        let mut columns: Vec<VecDeque<Lit>> = vec![VecDeque::new(); 66];
        for &(w, l) in weighted {
            for (i, column) in columns.iter_mut().enumerate().take(64) {
                if w >> i & 1 == 1 {
                    column.push_back(l);
                }
            }
        }
        let mut digits = Vec::new();
        for i in 0..columns.len() {
            let mut column = std::mem::take(&mut columns[i]);
            if i + 1 == columns.len() && column.len() > 1 {
                return Err(CompileError::Internal("a binary sum past 2^65".into()));
            }
            while column.len() >= 3 {
                let (a, b, c) = (column.pop_front(), column.pop_front(), column.pop_front());
                let (a, b, c) = (a.expect("three"), b.expect("three"), c.expect("three"));
                let (sum, carry) = self.full_adder(a, b, c)?;
                column.push_back(sum);
                columns[i + 1].push_back(carry);
            }
            if column.len() == 2 {
                let (sum, carry) = self.half_adder(column[0], column[1])?;
                column.clear();
                column.push_back(sum);
                columns[i + 1].push_back(carry);
            }
            digits.push(column.pop_front().unwrap_or(self.f()));
        }
        while digits.len() > 1 && digits.last() == Some(&self.f()) {
            digits.pop();
        }
        Ok(digits)
    }

    fn full_adder(&mut self, a: Lit, b: Lit, c: Lit) -> Result<(Lit, Lit), CompileError> {
        let sum = self.new_lit()?;
        let carry = self.new_lit()?;
        self.hard(|enc| {
            for mask in 0..8u8 {
                let pick = |l: Lit, bit: u8| if mask >> bit & 1 == 1 { !l } else { l };
                let odd = mask.count_ones() % 2 == 1;
                enc.clause(&[pick(a, 0), pick(b, 1), pick(c, 2), if odd { sum } else { !sum }]);
            }
            for (x, y) in [(a, b), (a, c), (b, c)] {
                enc.clause(&[!x, !y, carry]);
                enc.clause(&[x, y, !carry]);
            }
        });
        Ok((sum, carry))
    }

    fn half_adder(&mut self, a: Lit, b: Lit) -> Result<(Lit, Lit), CompileError> {
        let sum = self.new_lit()?;
        let carry = self.and_lit(&[a, b])?;
        self.hard(|enc| {
            enc.clause(&[!a, !b, !sum]);
            enc.clause(&[a, b, !sum]);
            enc.clause(&[!a, b, sum]);
            enc.clause(&[a, !b, sum]);
        });
        Ok((sum, carry))
    }

    /// `guard → digits ≤ bound`: for each 0 digit of the bound, that digit
    /// set needs some higher 1 digit of the bound clear. No new variables.
    pub(super) fn digits_at_most(&mut self, guard: &[Lit], digits: &[Lit], bound: u64) {
        if digits.len() < 64 && bound >> digits.len() != 0 {
            return;
        }
        for i in 0..digits.len() {
            if bound >> i & 1 == 0 {
                let mut clause: Vec<Lit> = guard.iter().map(|&g| !g).collect();
                clause.push(!digits[i]);
                clause.extend((i + 1..digits.len()).filter(|&j| bound >> j & 1 == 1).map(|j| !digits[j]));
                self.clause(&clause);
            }
        }
    }

    /// `guard → digits = bound`, digit by digit.
    pub(super) fn digits_equal(&mut self, guard: &[Lit], digits: &[Lit], bound: u64) {
        let negated_guard: Vec<Lit> = guard.iter().map(|&g| !g).collect();
        if digits.len() < 64 && bound >> digits.len() != 0 {
            self.clause(&negated_guard);
            return;
        }
        for (i, &d) in digits.iter().enumerate() {
            let mut clause = negated_guard.clone();
            clause.push(if bound >> i & 1 == 1 { d } else { !d });
            self.clause(&clause);
        }
    }
}
