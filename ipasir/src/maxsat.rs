//! IPAMIR, the incremental MaxSAT interface of the MaxSAT Evaluation's incremental track
//! (Niskanen, Berg & Järvisalo, "Incremental Maximum Satisfiability", SAT 2022,
//! doi:10.4230/LIPIcs.SAT.2022.14), over [`grim_maxsat::Oll`].
//!
//! The declarations are `include/ipamir.h`.
//!
//! # Semantics
//! Hard clauses (`ipamir_add_hard`, 0-terminated) and soft literals (`ipamir_add_soft_lit`:
//! setting `lit` true costs `weight`; declaring it again changes the weight, 0 makes it free)
//! accumulate; `ipamir_assume` holds for the next solve only. A solution satisfies the hard
//! clauses and the assumptions; an optimal one minimises the summed weight of the soft literals
//! it sets true.
//!
//! `ipamir_solve` answers, as the track's reference applications read them: **30** an optimal
//! solution (state OPTIMAL), **10** a solution whose optimality was not proven because the
//! search was interrupted (SAT), **20** no solution (UNSAT), **0** interrupted before any
//! solution (INPUT), **40** an instance the optimiser cannot take — the soft weights overflow
//! 64 bits, or more variables than the engine holds (ERROR, final; only release is then
//! accepted). (The header's prose swaps 10 and 20 in two sentences; the track's applications and
//! solvers use 20 for UNSAT, as IPASIR does, and so do we.)
//!
//! # How it runs on `Oll`
//! `Oll` optimises one whole instance, so every `ipamir_solve` builds the instance anew — the
//! hard clauses, each assumption as a hard unit, each soft literal `l` of weight `w > 0` as the
//! soft unit clause `¬l` of weight `w` — and optimises it to the end. Correct and
//! deterministic; it does not reuse the previous call's cores or learned clauses (see the crate
//! documentation). The model's cost is recomputed on that instance before it is reported.
//!
//! A terminate callback is polled between slices of [`SLICE`] conflicts (`Oll::solve` resumes
//! where a budget stopped it) and whenever the optimiser reports an event; `grim_terminate` stops
//! it at the engine's next check.

use std::collections::HashMap;
use std::ffi::{CString, c_char, c_int, c_void};

use grim_maxsat::Wcnf;
use grim_maxsat::{MaxSatStatus, Oll, OllOptions};
use grim_solver::{Budget, Lit, Terminator};

use crate::handle::{self, Kind, MAXSAT_MAGIC, impl_kind};
use crate::{Terminate, assume, lit_of};

/// Conflicts between two polls of the terminate callback.
pub const SLICE: u64 = 1000;

/// IPAMIR's states.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Input,
    Optimal,
    Sat,
    Unsat,
    Error,
}

/// The state behind an IPAMIR handle.
pub(crate) struct MaxSat {
    state: State,
    hard: Vec<Vec<Lit>>,
    clause: Vec<Lit>,
    clause_bad: bool,
    /// A hard clause was dropped (invalid literal): every later solve answers 0.
    lost: bool,
    /// Soft literals in declaration order, with their current weights.
    soft: Vec<(Lit, u64)>,
    soft_index: HashMap<Lit, usize>,
    assumptions: Vec<Lit>,
    assumptions_bad: bool,
    /// The largest variable (1-based) named by any call.
    num_vars: usize,
    /// The solution of the last answer 30 or 10, and its cost.
    model: Vec<bool>,
    cost: u64,
    terminate: Option<Terminate>,
    budget: Budget,
    error: Option<CString>,
}

impl_kind!(MaxSat, MAXSAT_MAGIC);

impl MaxSat {
    /// False (and the misuse recorded) in state ERROR, where only release is accepted.
    fn usable(&mut self, call: &str) -> bool {
        if self.state == State::Error {
            self.record(format!(
                "{call}: the solver is in state ERROR (an earlier ipamir_solve answered 40); only \
                 ipamir_release is accepted"
            ));
            return false;
        }
        true
    }

    fn touch(&mut self, lit: Lit) {
        self.num_vars = self.num_vars.max(lit.var().index() + 1);
    }

    fn has_solution(&mut self, call: &str) -> bool {
        if matches!(self.state, State::Optimal | State::Sat) {
            return true;
        }
        let now = match self.state {
            State::Input => "INPUT",
            State::Unsat => "UNSAT",
            State::Error => "ERROR",
            State::Optimal | State::Sat => "",
        };
        self.record(format!(
            "{call} needs state OPTIMAL or SAT (ipamir_solve answered 30 or 10, nothing added \
             since), but the solver is in state {now}"
        ));
        false
    }
}

/// The signature: name and version, NUL-terminated, static.
#[unsafe(no_mangle)]
pub extern "C" fn ipamir_signature() -> *const c_char {
    crate::SIGNATURE.as_ptr()
}

/// A new MaxSAT solver in state INPUT. Never null.
#[unsafe(no_mangle)]
pub extern "C" fn ipamir_init() -> *mut c_void {
    handle::into_raw(
        MaxSat {
            state: State::Input,
            hard: Vec::new(),
            clause: Vec::new(),
            clause_bad: false,
            lost: false,
            soft: Vec::new(),
            soft_index: HashMap::new(),
            assumptions: Vec::new(),
            assumptions_bad: false,
            num_vars: 0,
            model: Vec::new(),
            cost: 0,
            terminate: None,
            budget: Budget::UNLIMITED,
            error: None,
        },
        Terminator::default(),
    )
}

/// Frees the solver (null, an IPASIR handle, or from inside a callback: nothing happens).
///
/// # Safety
/// `solver` is null or a live handle from [`ipamir_init`]; it is dangling afterwards.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ipamir_release(solver: *mut c_void) {
    // SAFETY: the caller's contract (handle.rs).
    unsafe { handle::release::<MaxSat>(solver) }
}

/// Runs `f`, an input call named `call`, on the state of `solver`: refused in state ERROR,
/// otherwise the state returns to INPUT first (what every adding call shares).
///
/// # Safety
/// `solver` is null or a live handle from [`ipamir_init`].
unsafe fn input(solver: *mut c_void, call: &str, f: impl FnOnce(&mut MaxSat)) {
    // SAFETY: the caller's contract (handle.rs).
    unsafe {
        handle::with::<MaxSat, _>(solver, (), |s, _| {
            if s.usable(call) {
                s.state = State::Input;
                f(s);
            }
        })
    }
}

/// Adds `lit` to the hard clause being built, or ends it with 0. `INT_MIN`: the clause is
/// dropped at its 0 and every later solve answers 0 (the instance is no longer the caller's).
///
/// # Safety
/// `solver` is null or a live handle from [`ipamir_init`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ipamir_add_hard(solver: *mut c_void, lit_or_zero: i32) {
    // SAFETY: the caller's contract (handle.rs).
    unsafe {
        input(solver, "ipamir_add_hard", |s| {
            if lit_or_zero == 0 {
                let clause = std::mem::take(&mut s.clause);
                if std::mem::take(&mut s.clause_bad) {
                    s.lost = true;
                    s.record(
                        "ipamir_add_hard: a clause with an invalid literal (INT_MIN) was \
                         dropped; every later ipamir_solve answers 0"
                            .to_string(),
                    );
                } else {
                    s.hard.push(clause);
                }
                return;
            }
            match lit_of(lit_or_zero) {
                Some(lit) => {
                    s.touch(lit);
                    s.clause.push(lit);
                }
                None => s.clause_bad = true,
            }
        })
    }
}

/// Declares `lit` soft: setting it true costs `weight` (declaring it again sets the new
/// weight; 0 makes it free). 0 / `INT_MIN`: ignored, recorded.
///
/// # Safety
/// `solver` is null or a live handle from [`ipamir_init`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ipamir_add_soft_lit(solver: *mut c_void, lit: i32, weight: u64) {
    // SAFETY: the caller's contract (handle.rs).
    unsafe {
        input(solver, "ipamir_add_soft_lit", |s| {
            let Some(l) = lit_of(lit) else {
                s.record(format!(
                    "ipamir_add_soft_lit({lit}): not a literal; ignored"
                ));
                return;
            };
            s.touch(l);
            match s.soft_index.get(&l) {
                Some(&i) => {
                    if let Some(entry) = s.soft.get_mut(i) {
                        entry.1 = weight;
                    }
                }
                None => {
                    s.soft_index.insert(l, s.soft.len());
                    s.soft.push((l, weight));
                }
            }
        })
    }
}

/// Assumes `lit` for the next solve only. 0 / `INT_MIN`: the next solve answers 0.
///
/// # Safety
/// `solver` is null or a live handle from [`ipamir_init`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ipamir_assume(solver: *mut c_void, lit: i32) {
    // SAFETY: the caller's contract (handle.rs).
    unsafe {
        input(solver, "ipamir_assume", |s| {
            match assume(lit, "ipamir", &mut s.assumptions, &mut s.assumptions_bad) {
                Ok(l) => s.touch(l),
                Err(message) => s.record(message),
            }
        })
    }
}

/// Optimises (see the module documentation for the answers 30, 10, 20, 0 and 40).
///
/// # Safety
/// `solver` is null or a live handle from [`ipamir_init`]; the terminate callback, if set, is
/// callable with its data.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ipamir_solve(solver: *mut c_void) -> c_int {
    // SAFETY: the caller's contract (handle.rs).
    unsafe { handle::with::<MaxSat, _>(solver, 40, solve) }
}

fn solve(s: &mut MaxSat, stop: &Terminator) -> c_int {
    if !s.usable("ipamir_solve") {
        return 40;
    }
    s.state = State::Input;
    let assumptions = std::mem::take(&mut s.assumptions);
    if s.lost {
        s.record(
            "ipamir_solve: a hard clause with an invalid literal was dropped earlier; answered 0"
                .to_string(),
        );
        return 0;
    }
    if std::mem::take(&mut s.assumptions_bad) {
        s.record(
            "ipamir_solve: an invalid assumption (0 or INT_MIN) was given; answered 0".to_string(),
        );
        return 0;
    }
    if !s.clause.is_empty() || s.clause_bad {
        s.record(
            "ipamir_solve: a hard clause is still open (its terminating ipamir_add_hard(s, 0) \
             is missing); answered 0 and kept the clause"
                .to_string(),
        );
        return 0;
    }
    let mut wcnf = Wcnf::new(s.num_vars);
    wcnf.hard.clone_from(&s.hard);
    wcnf.hard.extend(assumptions.iter().map(|&l| vec![l]));
    wcnf.soft.extend(
        s.soft
            .iter()
            .filter(|(_, w)| *w > 0)
            .map(|&(l, w)| (w, vec![!l])),
    );
    let mut oll = match Oll::new(&wcnf, OllOptions::default()) {
        Ok(oll) => oll,
        Err(e) => {
            s.state = State::Error;
            s.record(format!("ipamir_solve: {e}; answered 40 (state ERROR)"));
            return 40;
        }
    };
    oll.set_terminator(stop);
    let status = run(&mut oll, s.terminate.as_ref(), s.budget, stop);
    stop.reset();
    let answer = match status {
        MaxSatStatus::Optimum => State::Optimal,
        MaxSatStatus::Satisfiable => State::Sat,
        MaxSatStatus::Unsatisfiable => {
            s.state = State::Unsat;
            return 20;
        }
        MaxSatStatus::Unknown => return 0,
    };
    let (Some(model), Some(claimed)) = (oll.best_model(), oll.best_cost()) else {
        s.state = State::Error;
        s.record("internal error: the optimiser answered without a model; answered 40".to_string());
        return 40;
    };
    // Never trust the optimiser's word: the model satisfies every hard clause and assumption,
    // and costs what it claims.
    if wcnf.cost(model) != Some(claimed) {
        s.state = State::Error;
        s.record(format!(
            "internal error: the optimiser's model does not cost the {claimed} it claims; \
             answered 40. Please report it with the calls that led there."
        ));
        return 40;
    }
    s.model = model.to_vec();
    s.cost = claimed;
    s.state = answer;
    if answer == State::Optimal { 30 } else { 10 }
}

/// Runs `oll` to an answer within `budget`, polling `terminate` between slices.
fn run(
    oll: &mut Oll,
    terminate: Option<&Terminate>,
    budget: Budget,
    stop: &Terminator,
) -> MaxSatStatus {
    let Some(t) = terminate else {
        return oll.solve(budget, &mut |_| {});
    };
    // SAFETY (of every `t.call()` below): the caller's contract for the callback
    // (ipamir_set_terminate); called on this thread, during this call.
    if unsafe { t.call() } {
        return MaxSatStatus::Unknown;
    }
    let start_conflicts = oll.stats().conflicts;
    let start_propagations = oll.stats().propagations;
    loop {
        let spent_conflicts = oll.stats().conflicts - start_conflicts;
        let spent_propagations = oll.stats().propagations - start_propagations;
        let left = budget.left_after(spent_conflicts, spent_propagations);
        if left.conflicts == Some(0) || left.propagations == Some(0) {
            return oll.solve(Budget::conflicts(0), &mut |_| {});
        }
        let slice = Budget {
            conflicts: Some(left.conflicts.map_or(SLICE, |c| c.min(SLICE))),
            propagations: left.propagations,
        };
        let mut stopped = false;
        let status = oll.solve(slice, &mut |_| {
            if !stopped && unsafe { t.call() } {
                stopped = true;
                stop.terminate();
            }
        });
        if matches!(status, MaxSatStatus::Optimum | MaxSatStatus::Unsatisfiable)
            || stopped
            || stop.is_set()
            || unsafe { t.call() }
        {
            return status;
        }
    }
}

/// The objective value of the solution: the summed weight of the soft literals it sets true.
/// Outside states OPTIMAL and SAT: `UINT64_MAX` (no solution has that cost's meaning), with the
/// reason in `grim_last_error`.
///
/// # Safety
/// `solver` is null or a live handle from [`ipamir_init`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ipamir_val_obj(solver: *mut c_void) -> u64 {
    // SAFETY: the caller's contract (handle.rs).
    unsafe {
        handle::with::<MaxSat, _>(solver, u64::MAX, |s, _| {
            if s.has_solution("ipamir_val_obj") {
                s.cost
            } else {
                u64::MAX
            }
        })
    }
}

/// The value of `lit` in the solution: `lit` (true), `-lit` (false), or 0 when its variable was
/// never named (either value is a solution). Outside OPTIMAL and SAT, or for 0 / `INT_MIN`: 0.
///
/// # Safety
/// `solver` is null or a live handle from [`ipamir_init`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ipamir_val_lit(solver: *mut c_void, lit: i32) -> i32 {
    // SAFETY: the caller's contract (handle.rs).
    unsafe {
        handle::with::<MaxSat, _>(solver, 0, |s, _| {
            if !s.has_solution("ipamir_val_lit") {
                return 0;
            }
            let Some(l) = lit_of(lit) else {
                s.record(format!("ipamir_val_lit({lit}): not a literal; answered 0"));
                return 0;
            };
            match s.model.get(l.var().index()) {
                Some(&value) if value == l.is_positive() => lit,
                Some(_) => -lit,
                None => 0,
            }
        })
    }
}

/// Sets (or, with a null function, removes) the terminate callback, polled before the search,
/// every [`SLICE`] conflicts and at every improvement; non-zero stops the solve (10 with the best
/// solution so far, or 0).
///
/// # Safety
/// `solver` is null or a live handle from [`ipamir_init`]; `terminate`, if not null, may be
/// called with `state` during every later `ipamir_solve`, on the thread running it.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ipamir_set_terminate(
    solver: *mut c_void,
    state: *mut c_void,
    terminate: Option<unsafe extern "C" fn(*mut c_void) -> c_int>,
) {
    // SAFETY: the caller's contract (handle.rs).
    unsafe {
        handle::with::<MaxSat, _>(solver, (), |s, stop| {
            s.terminate = Terminate::new(terminate, state, stop);
        })
    }
}

pub(crate) fn set_budget(solver: *mut c_void, conflicts: bool, n: i64) {
    // SAFETY: `solver` is null or a live handle (the public caller's contract).
    unsafe {
        handle::with::<MaxSat, _>(solver, (), |s, _| {
            crate::sat::limit(&mut s.budget, conflicts, n)
        });
    }
}
