//! Random sequences of incremental API calls with an external propagator connected
//! (`grim_solver::Propagator`): some clauses go to the engine, others to the propagator, which
//! reveals them lazily (lazy propagations, eager ones with reasons, conflict clauses, or only
//! at the model check, chosen per case and per clause). Every answer is checked against brute
//! force over all the clauses, engine and hidden alike (status, model, core), and the
//! propagator checks on every callback that what it was told is the engine's assignment.
//! Interleaved: new clauses of either kind, phases, budgets, terminate/reset, and reconnecting
//! the propagator.
#![no_main]

use arbitrary::Arbitrary;
use grim_fuzz::{MAX_VARS, Stop, check_answer, lit_of, lits_of, options_of, solve_bytes};
use grim_solver::{Lit, Solver};
use grim_testkit::propagator::{HiddenClauses, Reveal, Tally};
use libfuzzer_sys::fuzz_target;
use std::sync::{Arc, Mutex};

#[derive(Arbitrary, Debug)]
enum Op {
    AddClause(Vec<u8>),
    HideClause(Vec<u8>),
    SetPhase(u8),
    Solve {
        assumptions: Vec<u8>,
        conflict_budget: Option<u8>,
    },
    Terminate,
    Reset,
    Reconnect,
}

#[derive(Arbitrary, Debug)]
struct Case {
    options: u8,
    seed: u64,
    /// How hidden clauses are revealed: 0 lazy, 1 eager, 2 model check only, 3 per clause.
    style: u8,
    ops: Vec<Op>,
}

/// How hidden clauses are revealed, by the case's byte.
fn reveal_of(style: u8) -> Reveal {
    [
        Reveal::Lazy,
        Reveal::Eager,
        Reveal::ModelCheckOnly,
        Reveal::Mixed,
    ][usize::from(style % 4)]
}

fuzz_target!(|case: Case| {
    let mut s = Solver::with_options(options_of(case.options, case.seed));
    let mut stop = Stop::new(s.terminator());
    let hidden: Arc<Mutex<Vec<Vec<Lit>>>> = Arc::default();
    let tally: Arc<Mutex<Tally>> = Arc::default();
    let fresh = |clauses: &Arc<Mutex<Vec<Vec<Lit>>>>| {
        Box::new(HiddenClauses::new(
            MAX_VARS,
            Arc::clone(clauses),
            reveal_of(case.style),
            Arc::clone(&tally),
        ))
    };
    s.connect_propagator(fresh(&hidden));
    assert_eq!(
        s.num_vars(),
        MAX_VARS as usize,
        "the observed variables are created"
    );
    let mut clauses: Vec<Vec<Lit>> = Vec::new();
    for (step, op) in case.ops.iter().take(120).enumerate() {
        match op {
            Op::AddClause(bytes) => {
                let c: Vec<Lit> = lits_of(bytes, 5);
                s.add_clause(&c);
                clauses.push(c);
            }
            Op::HideClause(bytes) => {
                let c: Vec<Lit> = lits_of(bytes, 5);
                hidden.lock().unwrap().push(c);
            }
            Op::SetPhase(b) => s.set_phase(lit_of(*b, MAX_VARS)),
            Op::Solve {
                assumptions,
                conflict_budget,
            } => {
                let (a, status) = solve_bytes(&mut s, assumptions, 6, *conflict_budget);
                assert_eq!(s.propagator_error(), None, "step {step}");
                let mut all = clauses.clone();
                all.extend(hidden.lock().unwrap().iter().cloned());
                let may_be_unknown = conflict_budget.is_some() || stop.raised();
                check_answer(&s, status, &all, &a, may_be_unknown);
            }
            Op::Terminate => stop.terminate(),
            Op::Reset => stop.reset(),
            Op::Reconnect => {
                // The irredundant clauses the old one added stay: they are hidden clauses.
                assert!(s.disconnect_propagator().is_some(), "step {step}");
                s.connect_propagator(fresh(&hidden));
            }
        }
    }
});
