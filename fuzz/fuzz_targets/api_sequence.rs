//! Random legal sequences of incremental API calls (`new_var`, `add_clause`, `set_phase`,
//! `clear_phase`, `solve` with assumptions and an optional conflict budget, `value`, `failed`,
//! `terminate`, `reset`) checked call by call against a reference model: the accumulated
//! clauses with brute force as the oracle, the last answer (discarded by `add_clause` and
//! `solve`), the terminate flag and the variable count. The same machine as the proptest in
//! `solver/tests/incremental.rs`, driven by coverage instead of random choice.
#![no_main]

use arbitrary::Arbitrary;
use grim_fuzz::{
    Answer, MAX_VARS, Stop, check_answer, lit_of, lits_of, options_of, solve_bytes, vars_of,
};
use grim_solver::{Lit, Solver};
use libfuzzer_sys::fuzz_target;

/// One call; literals are bytes decoded by `lit_of` over `MAX_VARS` variables.
#[derive(Arbitrary, Debug)]
enum Op {
    NewVar,
    AddClause(Vec<u8>),
    /// Four `add_clause` calls: the parity constraint x ⊕ y ⊕ z = parity (conflict-rich).
    AddXor(u8, u8, u8, bool),
    SetPhase(u8),
    ClearPhase(u8),
    Solve {
        assumptions: Vec<u8>,
        conflict_budget: Option<u8>,
    },
    Value(u8),
    Failed(u8),
    Terminate,
    Reset,
}

#[derive(Arbitrary, Debug)]
struct Case {
    options: u8,
    seed: u64,
    ops: Vec<Op>,
}

fuzz_target!(|case: Case| {
    let mut s = Solver::with_options(options_of(case.options, case.seed));
    let mut stop = Stop::new(s.terminator());
    let mut clauses: Vec<Vec<Lit>> = Vec::new();
    let mut num_vars = 0usize;
    let mut last: Option<Answer> = None;
    for (step, op) in case.ops.iter().take(200).enumerate() {
        match op {
            Op::NewVar => {
                if num_vars < MAX_VARS as usize {
                    assert_eq!(
                        s.new_var().index(),
                        num_vars,
                        "step {step}: new_var numbering"
                    );
                    num_vars += 1;
                }
            }
            Op::AddClause(bytes) => {
                let c: Vec<Lit> = lits_of(bytes, 6);
                s.add_clause(&c);
                num_vars = num_vars.max(vars_of(&[], &c) as usize);
                clauses.push(c);
                last = None;
            }
            Op::AddXor(a, b, c, parity) => {
                let vs = [
                    lit_of(*a, MAX_VARS).var(),
                    lit_of(*b, MAX_VARS).var(),
                    lit_of(*c, MAX_VARS).var(),
                ];
                for signs in (0..8u32).filter(|s| (s.count_ones() % 2 == 1) == *parity) {
                    let clause: Vec<Lit> = vs
                        .iter()
                        .enumerate()
                        .map(|(i, v)| Lit::new(*v, signs >> i & 1 == 1))
                        .collect();
                    s.add_clause(&clause);
                    num_vars = num_vars.max(vars_of(&[], &clause) as usize);
                    clauses.push(clause);
                }
                last = None;
            }
            Op::SetPhase(b) => {
                let l = lit_of(*b, MAX_VARS);
                s.set_phase(l);
                num_vars = num_vars.max(l.var().index() + 1);
            }
            Op::ClearPhase(b) => s.clear_phase(lit_of(*b, MAX_VARS).var()),
            Op::Solve {
                assumptions,
                conflict_budget,
            } => {
                let (a, status) = solve_bytes(&mut s, assumptions, 8, *conflict_budget);
                num_vars = num_vars.max(vars_of(&[], &a) as usize);
                let may_be_unknown = conflict_budget.is_some() || stop.raised();
                last = Some(check_answer(&s, status, &clauses, &a, may_be_unknown));
            }
            Op::Value(b) => {
                let l = lit_of(*b, MAX_VARS);
                let expected = match &last {
                    Some(Answer::Sat(model)) => {
                        model.get(l.var().index()).map(|&v| v != l.is_negative())
                    }
                    _ => None,
                };
                assert_eq!(
                    s.value(l),
                    expected,
                    "step {step}: value({l:?}) after {last:?}"
                );
            }
            Op::Failed(b) => {
                let l = lit_of(*b, MAX_VARS);
                let expected = matches!(&last, Some(Answer::Unsat(core)) if core.contains(&l));
                assert_eq!(
                    s.failed(l),
                    expected,
                    "step {step}: failed({l:?}) after {last:?}"
                );
            }
            Op::Terminate => stop.terminate(),
            Op::Reset => stop.reset(),
        }
        assert_eq!(s.num_vars(), num_vars, "step {step}: num_vars after {op:?}");
        let expected_model = match &last {
            Some(Answer::Sat(model)) if model.len() == num_vars => Some(model.clone()),
            _ => None,
        };
        assert_eq!(
            s.model(),
            expected_model,
            "step {step}: model() after {op:?}"
        );
    }
});
