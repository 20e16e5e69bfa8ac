//! Bytes into a small CNF (≤ 12 variables, ≤ 80 clauses of ≤ 5 literals), assumptions, an
//! option set (default, aggressive, aggressive with a seed, aggressive without minimisation,
//! stable mode, walks or elimination) and sometimes a conflict budget; the answer is checked against brute
//! force: the status, the model (every clause and assumption), the failed core (a subset of
//! the assumptions, itself unsatisfiable with the clauses). Then the same solver answers once
//! more without assumptions, as incremental use would ask it.
#![no_main]

use arbitrary::Arbitrary;
use grim_fuzz::{MAX_CLAUSE_LEN, MAX_CLAUSES, MAX_VARS, check_answer, lit_of, options_of};
use grim_solver::{Budget, Lit, Solver};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Case {
    vars: u8,
    options: u8,
    seed: u64,
    conflict_budget: Option<u8>,
    clauses: Vec<Vec<u8>>,
    assumptions: Vec<u8>,
}

fuzz_target!(|case: Case| {
    let vars = u32::from(case.vars) % MAX_VARS + 1;
    let clauses: Vec<Vec<Lit>> = case
        .clauses
        .iter()
        .take(MAX_CLAUSES)
        .map(|c| {
            c.iter()
                .take(MAX_CLAUSE_LEN)
                .map(|&b| lit_of(b, vars))
                .collect()
        })
        .collect();
    let assumptions: Vec<Lit> = case
        .assumptions
        .iter()
        .take(8)
        .map(|&b| lit_of(b, vars))
        .collect();
    let mut s = Solver::with_options(options_of(case.options, case.seed));
    for c in &clauses {
        s.add_clause(c);
    }
    let budget = case
        .conflict_budget
        .map_or(Budget::UNLIMITED, |n| Budget::conflicts(u64::from(n)));
    let status = s.solve(&assumptions, budget);
    check_answer(
        &s,
        status,
        &clauses,
        &assumptions,
        case.conflict_budget.is_some(),
    );
    let status = s.solve(&[], Budget::UNLIMITED);
    check_answer(&s, status, &clauses, &[], false);
});
