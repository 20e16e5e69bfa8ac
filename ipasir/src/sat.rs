//! IPASIR, the incremental SAT interface of the SAT Race 2015 (Balyo, Biere, Iser & Sinz,
//! "SAT Race 2015", Artificial Intelligence 241, 2016, doi:10.1016/j.artint.2016.08.007), over
//! [`grim_solver::Solver`], and the `grim_` extras where the engine offers more (phases,
//! limits, options, level-0 values, an asynchronous stop).
//!
//! The declarations are `include/ipasir.h` (the standard prototypes, with the defined
//! behaviour of every misuse) and `include/grim_ipasir.h` (the extras).
//!
//! # States (IPASIR's): INPUT → `ipasir_solve` → SAT (10) | UNSAT (20) | INPUT (0)
//! `ipasir_add` and `ipasir_assume` return to INPUT; `ipasir_val` needs SAT, `ipasir_failed`
//! UNSAT. Misuse is never undefined behaviour here (see each function and `handle.rs`): the
//! call does nothing or answers its neutral value (0), and `grim_last_error` says what was
//! wrong. One misuse is sticky: a clause containing a literal that is not one (`INT_MIN`) can
//! no longer be added as the caller meant, so the formula is lost and every later
//! `ipasir_solve` answers 0 (never an answer about a formula the caller did not write).

use std::ffi::{CString, c_char, c_int, c_void};

use grim_solver::{Budget, Lit, Solver, Status, Terminator};

use crate::handle::{self, Kind, SAT_MAGIC, impl_kind};
use crate::{Learn, Terminate, assume, lit_of, to_dimacs};

/// IPASIR's three states.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Input,
    Sat,
    Unsat,
}

/// The state behind an IPASIR handle.
pub(crate) struct Sat {
    solver: Solver,
    state: State,
    /// The clause being added (`ipasir_add` until its 0).
    clause: Vec<Lit>,
    /// An invalid literal was given for the clause being added.
    clause_bad: bool,
    /// A clause was dropped: the formula is no longer the caller's (sticky).
    lost: bool,
    assumptions: Vec<Lit>,
    /// An invalid assumption was given: the next solve answers 0 (then it is forgotten).
    assumptions_bad: bool,
    terminate: Option<Terminate>,
    learn: Option<Learn>,
    budget: Budget,
    /// Variables whose level-0 value was already reported to the learn callback or given by
    /// the caller as a unit clause.
    unit_known: Vec<bool>,
    /// The most recent misuse, for `grim_last_error` (NUL-free by construction).
    error: Option<CString>,
}

impl_kind!(Sat, SAT_MAGIC);

impl Sat {
    fn answer_read(&mut self, call: &str) -> bool {
        let needed = match call {
            "ipasir_val" => State::Sat,
            _ => State::Unsat,
        };
        if self.state == needed {
            return true;
        }
        let (now, why) = match self.state {
            State::Input => (
                "INPUT",
                "no solve yet, a clause or assumption added since, or the last solve was interrupted",
            ),
            State::Sat => ("SAT", "the last solve answered 10"),
            State::Unsat => ("UNSAT", "the last solve answered 20"),
        };
        self.record(format!(
            "{call} needs state {}, but the solver is in state {now} ({why}); answered 0",
            if needed == State::Sat { "SAT" } else { "UNSAT" },
        ));
        false
    }
}

/// The signature: name, version and engine, NUL-terminated, static.
#[unsafe(no_mangle)]
pub extern "C" fn ipasir_signature() -> *const c_char {
    crate::SIGNATURE.as_ptr()
}

/// A new solver in state INPUT. Never null (an allocation failure aborts, as Rust does).
#[unsafe(no_mangle)]
pub extern "C" fn ipasir_init() -> *mut c_void {
    let mut solver = Solver::new();
    let stop = Terminator::default();
    solver.set_terminator(&stop);
    handle::into_raw(
        Sat {
            solver,
            state: State::Input,
            clause: Vec::new(),
            clause_bad: false,
            lost: false,
            assumptions: Vec::new(),
            assumptions_bad: false,
            terminate: None,
            learn: None,
            unit_known: Vec::new(),
            budget: Budget::UNLIMITED,
            error: None,
        },
        stop,
    )
}

/// Frees the solver. Null, an IPAMIR handle, or a call from inside a callback of a running
/// solve: nothing happens.
///
/// # Safety
/// `solver` is null or a live handle from [`ipasir_init`]; it is dangling afterwards.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ipasir_release(solver: *mut c_void) {
    // SAFETY: the caller's contract (handle.rs).
    unsafe { handle::release::<Sat>(solver) }
}

/// Adds `lit` to the clause being built, or ends it with 0 (IPASIR). `INT_MIN` is not a
/// literal: the clause is dropped when its 0 comes, and the formula is lost (every later solve
/// answers 0; see the module documentation).
///
/// # Safety
/// `solver` is null or a live handle from [`ipasir_init`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ipasir_add(solver: *mut c_void, lit_or_zero: c_int) {
    // SAFETY: the caller's contract (handle.rs).
    unsafe {
        handle::with::<Sat, _>(solver, (), |s, _| {
            s.state = State::Input;
            if lit_or_zero == 0 {
                if s.clause_bad {
                    s.clause_bad = false;
                    s.lost = true;
                    s.clause.clear();
                    s.record(
                        "ipasir_add: a clause with an invalid literal (INT_MIN) was dropped; \
                         the formula is no longer the one you added, so every later \
                         ipasir_solve answers 0"
                            .to_string(),
                    );
                    return;
                }
                if let [unit] = s.clause[..] {
                    mark(&mut s.unit_known, unit);
                }
                s.solver.add_clause(&s.clause);
                s.clause.clear();
                return;
            }
            match lit_of(lit_or_zero) {
                Some(lit) => s.clause.push(lit),
                None => s.clause_bad = true,
            }
        })
    }
}

fn mark(known: &mut Vec<bool>, lit: Lit) {
    let v = lit.var().index();
    if known.len() <= v {
        known.resize(v + 1, false);
    }
    if let Some(slot) = known.get_mut(v) {
        *slot = true;
    }
}

/// Assumes `lit` for the next solve only (IPASIR). 0 or `INT_MIN` is not a literal: the next
/// solve answers 0 without searching, and then forgets it.
///
/// # Safety
/// `solver` is null or a live handle from [`ipasir_init`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ipasir_assume(solver: *mut c_void, lit: c_int) {
    // SAFETY: the caller's contract (handle.rs).
    unsafe {
        handle::with::<Sat, _>(solver, (), |s, _| {
            s.state = State::Input;
            if let Err(message) = assume(lit, "ipasir", &mut s.assumptions, &mut s.assumptions_bad)
            {
                s.record(message);
            }
        })
    }
}

/// Solves under the assumptions (which are then cleared): 10 SAT, 20 UNSAT, 0 interrupted —
/// by the terminate callback, `grim_terminate`, a `grim_set_*_limit`, or because the question
/// was malformed (an invalid assumption, an unterminated clause, a lost formula; see
/// `grim_last_error`). Null or an IPAMIR handle: 0.
///
/// # Safety
/// `solver` is null or a live handle from [`ipasir_init`]; the terminate and learn callbacks,
/// if set, are callable with their data pointers.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ipasir_solve(solver: *mut c_void) -> c_int {
    // SAFETY: the caller's contract (handle.rs); the callbacks' contract is forwarded.
    unsafe { handle::with::<Sat, _>(solver, 0, solve) }
}

fn solve(s: &mut Sat, stop: &Terminator) -> c_int {
    s.state = State::Input;
    let refuse = |s: &mut Sat, message: &str| {
        s.assumptions.clear();
        s.assumptions_bad = false;
        s.record(format!("ipasir_solve: {message}; answered 0"));
        0
    };
    if s.lost {
        return refuse(
            s,
            "a clause with an invalid literal was dropped earlier, so the formula is not the one you added",
        );
    }
    if s.assumptions_bad {
        return refuse(s, "an invalid assumption (0 or INT_MIN) was given");
    }
    if !s.clause.is_empty() || s.clause_bad {
        // Kept: the caller may still end the clause with ipasir_add(0).
        s.assumptions.clear();
        s.record(
            "ipasir_solve: a clause is still open (its terminating ipasir_add(s, 0) is \
             missing); answered 0 and kept the clause"
                .to_string(),
        );
        return 0;
    }
    if let Some(t) = s.terminate.clone() {
        // SAFETY: the caller's contract for the callback (set_terminate).
        if unsafe { t.call() } {
            s.assumptions.clear();
            return 0;
        }
        s.solver.set_progress(
            1,
            Some(Box::new(move |_stats: &grim_solver::Stats| {
                // SAFETY: as above; the engine calls this on the thread running
                // ipasir_solve, during that call only.
                if unsafe { t.call() } {
                    t.stop.terminate();
                }
            })),
        );
    }
    let status = s.solver.solve(&s.assumptions, s.budget);
    s.solver.set_progress(0, None);
    // A stop asked for this call must not stop the next one.
    stop.reset();
    s.assumptions.clear();
    report_units(s);
    match status {
        Status::Sat => {
            s.state = State::Sat;
            10
        }
        Status::Unsat => {
            s.state = State::Unsat;
            20
        }
        Status::Unknown => 0,
    }
}

/// Passes level-0 units found by the last solve to the learn callback, each once (the
/// caller's own unit clauses excluded). The engine offers no hook for longer learned clauses
/// to its public API yet, so only units are exported; see the crate documentation.
fn report_units(s: &mut Sat) {
    let Some(learn) = s.learn else {
        return;
    };
    if learn.max_length < 1 {
        return;
    }
    for index in 0..s.solver.num_vars() {
        if s.unit_known.get(index).copied().unwrap_or(false) {
            continue;
        }
        let Some(var) = u32::try_from(index).ok().and_then(grim_solver::Var::new) else {
            continue;
        };
        if let Some(value) = s.solver.fixed(var.pos()) {
            mark(&mut s.unit_known, var.pos());
            let mut clause = [to_dimacs(var.lit(value)), 0];
            // SAFETY: the caller's contract for the callback (set_learn); `clause` is a
            // zero-terminated array valid for the call.
            unsafe { learn.call(clause.as_mut_ptr()) };
        }
    }
}

/// Runs `f`, the answer-reading call named `call`, with literal `lit` on the state of `solver`;
/// 0 (and the reason recorded) in the wrong state or when `lit` is not a literal.
///
/// # Safety
/// `solver` is null or a live handle from [`ipasir_init`].
unsafe fn read_answer(
    solver: *mut c_void,
    call: &str,
    lit: c_int,
    f: impl FnOnce(&mut Sat, Lit) -> c_int,
) -> c_int {
    // SAFETY: the caller's contract (handle.rs).
    unsafe {
        handle::with::<Sat, _>(solver, 0, |s, _| {
            if !s.answer_read(call) {
                return 0;
            }
            match lit_of(lit) {
                Some(l) => f(s, l),
                None => {
                    s.record(format!("{call}({lit}): not a literal; answered 0"));
                    0
                }
            }
        })
    }
}

/// The value of `lit` in the model: `lit` (true), `-lit` (false) or 0 (the variable occurs in
/// no clause, so either value satisfies). Outside state SAT, or for 0 / `INT_MIN`: 0, with the
/// reason in `grim_last_error`.
///
/// # Safety
/// `solver` is null or a live handle from [`ipasir_init`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ipasir_val(solver: *mut c_void, lit: c_int) -> c_int {
    // SAFETY: the caller's contract (handle.rs).
    unsafe {
        read_answer(solver, "ipasir_val", lit, |s, l| match s.solver.value(l) {
            Some(true) => lit,
            Some(false) => -lit,
            None => 0,
        })
    }
}

/// 1 when assumption `lit` is in the failed set (the core) of the last UNSAT answer, else 0.
/// Outside state UNSAT: 0, with the reason in `grim_last_error`.
///
/// # Safety
/// `solver` is null or a live handle from [`ipasir_init`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ipasir_failed(solver: *mut c_void, lit: c_int) -> c_int {
    // SAFETY: the caller's contract (handle.rs).
    unsafe {
        read_answer(solver, "ipasir_failed", lit, |s, l| {
            c_int::from(s.solver.failed(l))
        })
    }
}

/// Sets (or, with a null function, removes) the terminate callback: called once before each
/// search and then at every conflict; a non-zero return stops the solve, which answers 0.
///
/// # Safety
/// `solver` is null or a live handle from [`ipasir_init`]; `terminate`, if not null, may be
/// called with `data` during every later `ipasir_solve`, on the thread running it.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ipasir_set_terminate(
    solver: *mut c_void,
    data: *mut c_void,
    terminate: Option<unsafe extern "C" fn(*mut c_void) -> c_int>,
) {
    // SAFETY: the caller's contract (handle.rs).
    unsafe {
        handle::with::<Sat, _>(solver, (), |s, stop| {
            s.terminate = Terminate::new(terminate, data, stop);
        })
    }
}

/// Sets (or, with a null function, removes) the learn callback for learned clauses of at most
/// `max_length` literals. grimoire exports learned **units** (after each solve, each once);
/// longer learned clauses are not exported (see the crate documentation).
///
/// # Safety
/// `solver` is null or a live handle from [`ipasir_init`]; `learn`, if not null, may be called
/// with `data` and a zero-terminated clause during every later `ipasir_solve`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ipasir_set_learn(
    solver: *mut c_void,
    data: *mut c_void,
    max_length: c_int,
    learn: Option<unsafe extern "C" fn(*mut c_void, *mut c_int)>,
) {
    // SAFETY: the caller's contract (handle.rs).
    unsafe {
        handle::with::<Sat, _>(solver, (), |s, _| {
            s.learn = learn.map(|f| Learn {
                f,
                data,
                max_length,
            });
        })
    }
}

// ---------------------------------------------------------------- grim_ extras (IPASIR)

/// Prefers `lit` true on every decision of its variable (`Solver::set_phase`). 0 / `INT_MIN`:
/// ignored, recorded.
///
/// # Safety
/// `solver` is null or a live handle from [`ipasir_init`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn grim_set_phase(solver: *mut c_void, lit: c_int) {
    // SAFETY: the caller's contract (handle.rs).
    unsafe {
        handle::with::<Sat, _>(solver, (), |s, _| match lit_of(lit) {
            Some(l) => s.solver.set_phase(l),
            None => s.record(format!("grim_set_phase({lit}): not a literal; ignored")),
        })
    }
}

/// Removes the phase preference of the variable of `lit` (its sign is ignored).
///
/// # Safety
/// `solver` is null or a live handle from [`ipasir_init`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn grim_clear_phase(solver: *mut c_void, lit: c_int) {
    // SAFETY: the caller's contract (handle.rs).
    unsafe {
        handle::with::<Sat, _>(solver, (), |s, _| match lit_of(lit) {
            Some(l) => s.solver.clear_phase(l.var()),
            None => s.record(format!("grim_clear_phase({lit}): not a literal; ignored")),
        })
    }
}

/// The level-0 value of `lit` (a fact the clauses alone imply, found so far): `lit`, `-lit`,
/// or 0 when not fixed. Valid in every state.
///
/// # Safety
/// `solver` is null or a live handle from [`ipasir_init`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn grim_fixed(solver: *mut c_void, lit: c_int) -> c_int {
    // SAFETY: the caller's contract (handle.rs).
    unsafe {
        handle::with::<Sat, _>(solver, 0, |s, _| match lit_of(lit) {
            Some(l) => match s.solver.fixed(l) {
                Some(true) => lit,
                Some(false) => -lit,
                None => 0,
            },
            None => {
                s.record(format!("grim_fixed({lit}): not a literal; answered 0"));
                0
            }
        })
    }
}

/// Sets an engine option by name (`grim-sat --help-options` lists them). Returns 1 when set,
/// 0 when the name or value is refused (the reason in `grim_last_error`) or a string is null
/// or not UTF-8.
///
/// # Safety
/// `solver` is null or a live handle from [`ipasir_init`]; `name` and `value` are null or
/// NUL-terminated strings.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn grim_set_option(
    solver: *mut c_void,
    name: *const c_char,
    value: *const c_char,
) -> c_int {
    // SAFETY: the caller's contract for the strings.
    let (name, value) = match unsafe { (crate::text(name), crate::text(value)) } {
        (Some(n), Some(v)) => (n, v),
        _ => {
            // SAFETY: the caller's contract (handle.rs).
            unsafe {
                handle::with::<Sat, _>(solver, (), |s, _| {
                    s.record("grim_set_option: a null or non-UTF-8 string".to_string())
                })
            };
            return 0;
        }
    };
    // SAFETY: the caller's contract (handle.rs).
    unsafe {
        handle::with::<Sat, _>(solver, 0, |s, _| {
            match s.solver.options_mut().set(&name, &value) {
                Ok(()) => 1,
                Err(e) => {
                    s.record(format!("grim_set_option({name}, {value}): {e}"));
                    0
                }
            }
        })
    }
}

/// Applies a limit to the given state (shared by both interfaces' `grim_set_*_limit`).
pub(crate) fn limit(budget: &mut Budget, conflicts: bool, n: i64) {
    let value = u64::try_from(n).ok();
    if conflicts {
        budget.conflicts = value;
    } else {
        budget.propagations = value;
    }
}

pub(crate) fn set_budget(solver: *mut c_void, conflicts: bool, n: i64) {
    // SAFETY (of the calls below): `solver` is null or a live handle, the contract of the
    // public functions that call this.
    unsafe {
        if handle::is::<Sat>(solver) {
            handle::with::<Sat, _>(solver, (), |s, _| limit(&mut s.budget, conflicts, n));
        } else {
            crate::maxsat::set_budget(solver, conflicts, n);
        }
    }
}
