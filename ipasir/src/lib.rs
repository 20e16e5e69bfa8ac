//! grim-ipasir: grimoire behind the two standard C interfaces of incremental solving, so that
//! C, C++, Python (`ctypes`, `cffi`) and every IPASIR or IPAMIR host can link it.
//!
//! - **IPASIR** ([`sat`]), the SAT Race 2015 interface, over [`grim_solver::Solver`]:
//!   `ipasir_signature`, `ipasir_init`, `ipasir_release`, `ipasir_add`, `ipasir_assume`,
//!   `ipasir_solve` (10 / 20 / 0), `ipasir_val`, `ipasir_failed`, `ipasir_set_terminate`,
//!   `ipasir_set_learn`; declared in `include/ipasir.h` with the 2015 prototypes.
//! - **IPAMIR** ([`maxsat`]), the MaxSAT Evaluation's incremental interface, over
//!   [`grim_maxsat::Oll`]: `ipamir_add_hard`, `ipamir_add_soft_lit`,
//!   `ipamir_assume`, `ipamir_solve` (30 / 10 / 20 / 0 / 40), `ipamir_val_obj`,
//!   `ipamir_val_lit`, `ipamir_set_terminate`; `include/ipamir.h`.
//! - **Extras** under the `grim_` prefix (`include/grim_ipasir.h`): phases, conflict and
//!   propagation limits, engine options by name, level-0 values, an asynchronous
//!   `grim_terminate`, and `grim_last_error`, which says what the last misuse was.
//!
//! The build gives `libgrim_ipasir.so` (`cdylib`) and `libgrim_ipasir.a` (`staticlib`); the
//! README shows how to link each from C and how to load the shared one from Python.
//!
//! ```
//! use grim_ipasir::sat::*;
//! // The C calls, from Rust: (x1 ∨ x2) ∧ ¬x1, then x2 assumed false.
//! unsafe {
//!     let s = ipasir_init();
//!     for lit in [1, 2, 0, -1, 0] {
//!         ipasir_add(s, lit);
//!     }
//!     assert_eq!(ipasir_solve(s), 10);
//!     assert_eq!(ipasir_val(s, 2), 2);
//!     ipasir_assume(s, -2);
//!     assert_eq!(ipasir_solve(s), 20);
//!     assert_eq!(ipasir_failed(s, -2), 1);
//!     ipasir_release(s);
//! }
//! ```
//!
//! # Misuse is defined behaviour
//! Every function accepts a null handle (it does nothing and returns 0), refuses a handle of
//! the other interface, refuses a call made while another call on the same handle runs (from a
//! callback or a second thread), and answers a call in the wrong state (`ipasir_val` before a
//! SAT answer, `ipasir_failed` after SAT) with 0 and a message for `grim_last_error`. A literal
//! that is not one (0 where a literal is required, `INT_MIN`) is refused with what that means
//! stated on each function. The one thing that cannot be checked is a pointer that never came
//! from `*_init` or was already released (see `handle.rs`). A panic inside the engine — a bug,
//! never the input's fault — is caught at the boundary and poisons the handle instead of
//! unwinding into C.
//!
//! # Known limits
//! - `ipasir_set_learn` exports learned **units** only: the engine's public API has no hook
//!   that sees each learned clause as it is learned (adding one is an engine change).
//! - IPAMIR re-optimises from the hard clauses at every `ipamir_solve`: `Oll` takes a whole
//!   instance, so the learned clauses and cores of one call do not carry over to the next.
//! - Variables are created densely up to the largest index used, as in every IPASIR solver; an
//!   index beyond what memory can hold aborts the process (Rust's allocation failure).
//!
//! # Modules
//! - `handle`: the opaque pointer, its header, and the checks every entry point makes.
//! - [`sat`] — IPASIR and its `grim_` extras.
//! - [`maxsat`] — IPAMIR.
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

use std::ffi::{CStr, c_char, c_int, c_void};

use grim_solver::{Lit, Terminator};

mod handle;
pub mod maxsat;
pub mod sat;

/// What `ipasir_signature` and `ipamir_signature` return.
const SIGNATURE: &CStr = {
    const TEXT: &str = concat!("grimoire ", env!("CARGO_PKG_VERSION"), "\0");
    match CStr::from_bytes_with_nul(TEXT.as_bytes()) {
        Ok(text) => text,
        Err(_) => panic!("the signature is NUL-terminated and has no inner NUL"),
    }
};

/// A DIMACS literal as an engine literal: `None` for 0 and `INT_MIN` (whose negation
/// overflows, which IPASIR excludes).
fn lit_of(lit: c_int) -> Option<Lit> {
    if lit == c_int::MIN {
        return None;
    }
    Lit::from_dimacs(i64::from(lit))
}

/// An engine literal as a DIMACS literal. Every variable the engine holds is at most
/// `Var::MAX_INDEX` = 2^31 - 2, so its DIMACS number fits an `int`.
fn to_dimacs(lit: Lit) -> c_int {
    c_int::try_from(lit.to_dimacs()).unwrap_or(0)
}

/// A C string as UTF-8 text.
///
/// # Safety
/// `text` is null or a NUL-terminated string.
unsafe fn text(text: *const c_char) -> Option<String> {
    if text.is_null() {
        return None;
    }
    // SAFETY: non-null and NUL-terminated (the caller's contract).
    unsafe { CStr::from_ptr(text) }
        .to_str()
        .ok()
        .map(str::to_string)
}

/// A terminate callback with its data, and the handle's stop flag it sets.
#[derive(Clone)]
struct Terminate {
    f: unsafe extern "C" fn(*mut c_void) -> c_int,
    data: *mut c_void,
    stop: Terminator,
}

// SAFETY: the engine requires its progress callback to be `Send`; this one is only ever called
// on the thread that runs `ipasir_solve`, during that call (the engine calls its progress
// callback from `solve` itself, never from another thread), so the raw `data` pointer never
// actually crosses a thread.
unsafe impl Send for Terminate {}

impl Terminate {
    /// The callback `f` (none: no callback) with `data`, stopping `stop`: what both
    /// `*_set_terminate` store.
    fn new(
        f: Option<unsafe extern "C" fn(*mut c_void) -> c_int>,
        data: *mut c_void,
        stop: &Terminator,
    ) -> Option<Terminate> {
        f.map(|f| Terminate {
            f,
            data,
            stop: stop.clone(),
        })
    }

    /// Asks the callback whether to stop.
    ///
    /// # Safety
    /// `f` is callable with `data` (the contract of `*_set_terminate`).
    unsafe fn call(&self) -> bool {
        // SAFETY: forwarded contract.
        unsafe { (self.f)(self.data) != 0 }
    }
}

/// `lit` as an assumption for the next solve of the `api` (`ipasir` or `ipamir`), pushed onto
/// `assumptions`. Not a literal (0, `INT_MIN`): `bad` is set, so that the next solve answers 0,
/// and the message for `grim_last_error` is returned.
fn assume(
    lit: c_int,
    api: &str,
    assumptions: &mut Vec<Lit>,
    bad: &mut bool,
) -> Result<Lit, String> {
    match lit_of(lit) {
        Some(l) => {
            assumptions.push(l);
            Ok(l)
        }
        None => {
            *bad = true;
            Err(format!(
                "{api}_assume({lit}): not a literal; the next {api}_solve answers 0"
            ))
        }
    }
}

/// A learn callback with its data and its length limit.
#[derive(Clone, Copy)]
struct Learn {
    f: unsafe extern "C" fn(*mut c_void, *mut c_int),
    data: *mut c_void,
    max_length: c_int,
}

impl Learn {
    /// Passes a zero-terminated clause to the callback.
    ///
    /// # Safety
    /// `f` is callable with `data` (the contract of `ipasir_set_learn`); `clause` is a
    /// zero-terminated array valid for the call.
    unsafe fn call(&self, clause: *mut c_int) {
        // SAFETY: forwarded contract.
        unsafe { (self.f)(self.data, clause) }
    }
}

// ---------------------------------------------------------------- extras for both handles

/// Stops the running `ipasir_solve` / `ipamir_solve` of `solver`, or the next one if none is
/// running. Safe to call from another thread or a signal handler (one atomic store); the stopped
/// solve answers 0 (IPAMIR: 10 with the best solution so far, or 0).
///
/// # Safety
/// `solver` is null or a live handle from `ipasir_init` or `ipamir_init`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn grim_terminate(solver: *mut c_void) {
    // SAFETY: the caller's contract (handle.rs).
    unsafe {
        if let Some(stop) = handle::stop::<sat::Sat>(solver) {
            stop.terminate();
        } else if let Some(stop) = handle::stop::<maxsat::MaxSat>(solver) {
            stop.terminate();
        }
    }
}

/// Limits every later solve of `solver` to `limit` conflicts (IPAMIR: over all engine calls of
/// one `ipamir_solve`); a negative `limit` removes the limit. A solve that reaches it answers 0
/// (IPAMIR: 10 with the best solution so far, or 0).
///
/// # Safety
/// `solver` is null or a live handle from `ipasir_init` or `ipamir_init`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn grim_set_conflict_limit(solver: *mut c_void, limit: i64) {
    sat::set_budget(solver, true, limit);
}

/// As [`grim_set_conflict_limit`], in propagated literals.
///
/// # Safety
/// `solver` is null or a live handle from `ipasir_init` or `ipamir_init`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn grim_set_propagation_limit(solver: *mut c_void, limit: i64) {
    sat::set_budget(solver, false, limit);
}

/// What the most recent misuse of `solver` was (a call refused or answered 0 because of its
/// arguments or the solver's state), as a NUL-terminated message, or null when there was none
/// since the last [`grim_clear_error`]. The text stays valid until the next call on `solver`.
/// Null handle: null.
///
/// # Safety
/// `solver` is null or a live handle from `ipasir_init` or `ipamir_init`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn grim_last_error(solver: *mut c_void) -> *const c_char {
    // SAFETY: the caller's contract (handle.rs).
    unsafe {
        if handle::is::<sat::Sat>(solver) {
            handle::last_error::<sat::Sat>(solver)
        } else {
            handle::last_error::<maxsat::MaxSat>(solver)
        }
    }
}

/// Forgets the recorded misuse, so that [`grim_last_error`] answers null until the next one.
///
/// # Safety
/// `solver` is null or a live handle from `ipasir_init` or `ipamir_init`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn grim_clear_error(solver: *mut c_void) {
    // SAFETY: the caller's contract (handle.rs).
    unsafe {
        handle::clear_error::<sat::Sat>(solver);
        handle::clear_error::<maxsat::MaxSat>(solver);
    }
}
