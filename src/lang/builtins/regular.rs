//! `regular(x, Q, S, d, q0, F)` in MiniZinc's transition-table form: the
//! automaton with states `1..Q` and symbols `1..S` that starts in `q0`,
//! moves from state `q` on symbol `s` to `d[q, s]` (0 being the failure
//! state) and accepts in the states of `F`, accepts the values of `x`.
//!
//! The lowering unrolls the automaton over the positions with no variable
//! of its own: the state after position `t` is the element expression
//! `table[q * S + x[t]]` of the state before it, over the table with a row
//! of failures for state 0, so that the compile layer gives each position's
//! state an auxiliary integer, which `x` determines (counts stay exact),
//! whose domain is the states reachable there. The verify hook runs the
//! automaton on the values.

use super::Builtin;
use crate::lang::check::{Fault, TypedCall};
use crate::lang::ir::{BExpr, IExpr};
use crate::lang::lower::{LVal, LoweredCall, internal};
use crate::lang::model::{Base, IntSet, Type};
use crate::lang::verify::{Ev, Eval, EvaluatedCall, bug};

/// The most entries of a transition table.
const MAX_TABLE: i64 = 1_000_000;

pub(super) const REGULAR: Builtin = Builtin {
    arities: &[6],
    ..Builtin::plain(
        "regular",
        "regular(array of int, Q, S, array[1..Q, 1..S] of int, q0, set of int)",
        check,
        lower,
        verify,
    )
};

fn check(call: &TypedCall<'_>) -> Result<Type, Fault> {
    let (_, var, _) = call.array(0, Some(Base::Int), Some(1), "a one-dimensional array of integers, the symbols")?;
    call.scalar(1, Base::Int, false, "the number of states Q")?;
    call.scalar(2, Base::Int, false, "the number of symbols S")?;
    let (_, table_var, _) =
        call.array(3, Some(Base::Int), Some(2), "a transition table, a 2-D array of integers indexed 1..Q, 1..S")?;
    if table_var {
        return Err(call.wrong(3, "a fixed transition table"));
    }
    call.scalar(4, Base::Int, false, "the start state q0")?;
    super::fixed_set(call, 5, Base::Int, "a fixed set of accepting states, such as `{3}` or `1..Q`")?;
    Ok(Type::scalar(Base::Bool, var))
}

/// The automaton of a call, its arguments checked against one another.
struct Automaton {
    states: i64,
    symbols: i64,
    /// `next[(q - 1) * S + s - 1]`, 0 for failure.
    next: Vec<i64>,
    start: i64,
    accepting: IntSet,
}

fn automaton(call: &LoweredCall) -> Result<Automaton, Fault> {
    let at = |i: usize| call.args[i].1;
    let states = call.fixed(1, "a fixed number of states")?;
    let symbols = call.fixed(2, "a fixed number of symbols")?;
    if states < 1 || symbols < 1 || states.saturating_mul(symbols) > MAX_TABLE {
        let (i, n) = if states < 1 || states.saturating_mul(symbols) > MAX_TABLE { (1, states) } else { (2, symbols) };
        return Err(Fault::new(
            at(i),
            format!("{n} {}", if i == 1 { "states" } else { "symbols" }),
            format!("at least 1 state and 1 symbol, and at most {MAX_TABLE} table entries"),
        ));
    }
    let table = call.array(3, "a transition table")?;
    if table.index != [(1, states), (1, symbols)] {
        let shown: Vec<String> = table.index.iter().map(|(a, b)| format!("{a}..{b}")).collect();
        return Err(Fault::new(
            at(3),
            format!("a transition table indexed [{}]", shown.join(", ")),
            format!("a table indexed [1..{states}, 1..{symbols}]: a row per state, a column per symbol"),
        ));
    }
    let mut next = Vec::with_capacity(table.elems.len());
    for (k, entry) in table.elems.iter().enumerate() {
        let v = entry.as_int().and_then(|e| e.as_const()).ok_or_else(|| internal(at(3), "a fixed table"))?;
        if !(0..=states).contains(&v) {
            let (q, s) = (k as i64 / symbols + 1, k as i64 % symbols + 1);
            return Err(Fault::new(
                at(3),
                format!("the transition from state {q} on symbol {s} to {v}"),
                format!("a state in 1..{states}, or 0 for failure"),
            ));
        }
        next.push(v);
    }
    let start = call.fixed(4, "a fixed start state")?;
    if !(1..=states).contains(&start) {
        return Err(Fault::new(at(4), format!("the start state {start}"), format!("a state in 1..{states}")));
    }
    let LVal::Set(accepting, _) = &call.args[5].0 else { return Err(internal(at(5), "a set")) };
    if let Some(q) = accepting.values().find(|q| !(1..=states).contains(q)) {
        return Err(Fault::new(at(5), format!("the accepting state {q}"), format!("states in 1..{states}")));
    }
    Ok(Automaton { states, symbols, next, start, accepting: accepting.clone() })
}

fn lower(_: &mut crate::lang::lower::Lowerer<'_, '_>, call: &LoweredCall) -> Result<LVal, Fault> {
    let dfa = automaton(call)?;
    let x = call.ints(0)?;
    let symbols = IntSet::range(1, dfa.symbols);
    if let Some(v) = x.iter().filter_map(IExpr::as_const).find(|v| !symbols.contains(*v)) {
        return Err(Fault::new(
            call.args[0].1,
            format!("the fixed symbol {v}"),
            format!("symbols in 1..{}, as the transition table has columns", dfa.symbols),
        ));
    }
    // Row 0 of `table` is the failure state, which stays.
    let s = dfa.symbols;
    let mut table: Vec<IExpr> = vec![IExpr::constant(0); s as usize];
    table.extend(dfa.next.iter().map(|&q| IExpr::constant(q)));
    let width = (dfa.states + 1) * s;
    let mut parts = Vec::with_capacity(x.len() + 1);
    let mut state = IExpr::constant(dfa.start);
    for symbol in &x {
        parts.push(BExpr::member(symbol.clone(), symbols.clone()));
        let index = IExpr::sum(vec![(s, state), (1, symbol.clone())], 0).map_err(|_| call.overflow())?;
        state = match index.as_const() {
            Some(i) if (1..=width).contains(&i) => table[(i - 1) as usize].clone(),
            _ => IExpr::element(vec![index], vec![(1, width)], table.clone()),
        };
    }
    parts.push(BExpr::member(state, dfa.accepting));
    Ok(LVal::Bool(BExpr::and(parts)))
}

/// False when a symbol is undefined or outside `1..S`.
fn verify(call: &EvaluatedCall<'_>) -> Eval<Ev> {
    let (Some(states), Some(symbols), Some(start)) = (call.int(1)?, call.int(2)?, call.int(4)?) else {
        return Err(bug("`regular` without fixed sizes"));
    };
    let (Ev::Array(_, table), Ev::Set(accepting)) = (&call.args[3], &call.args[5]) else {
        return Err(bug("`regular` without a table and a set"));
    };
    let Some(x) = call.ints(0)?.into_iter().collect::<Option<Vec<i64>>>() else { return Ok(Ev::Bool(false)) };
    let mut q = start;
    for v in x {
        if !(1..=symbols).contains(&v) || !(1..=states).contains(&q) {
            return Ok(Ev::Bool(false));
        }
        q = match table.get(((q - 1) * symbols + v - 1) as usize) {
            Some(Ev::Int(next)) => *next,
            _ => return Err(bug("a transition table of Q × S integers")),
        };
    }
    Ok(Ev::Bool(q != 0 && accepting.contains(q)))
}
