//! Stopping a search: the per-call budget (conflicts, propagations; `Budget` in `types.rs`)
//! and the terminate flag another thread or a signal handler sets.
//!
//! Both are checked at every conflict and before every decision (`search.rs`), so a conflict
//! budget of n stops after exactly n conflicts, and a terminate request is seen within one
//! propagation. Running out answers `Unknown`, never a guess.

#![forbid(unsafe_code)]

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::stats::Stats;
use crate::types::Budget;

/// A handle that stops a running [`crate::Solver::solve`] from another thread or a signal
/// handler.
///
/// Setting it is one atomic store, which is async-signal-safe. The flag stays set until
/// [`Terminator::reset`]: a signal that lands between two `solve` calls is not lost, and every
/// later `solve` answers `Unknown` at its first check until someone resets it.
#[derive(Clone, Debug, Default)]
pub struct Terminator(Arc<AtomicBool>);

impl Terminator {
    /// Asks the solver to stop; `solve` returns `Status::Unknown` at its next check (every
    /// conflict and every decision).
    pub fn terminate(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Clears the flag so the next `solve` runs normally.
    pub fn reset(&self) {
        self.0.store(false, Ordering::Relaxed);
    }

    /// Whether termination was requested.
    pub fn is_set(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// The underlying flag, for APIs such as `signal_hook::flag::register` that want an
    /// `Arc<AtomicBool>`.
    pub fn flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.0)
    }
}

/// The limits of the current `solve` call and the terminate handle: written by `start` (at
/// the start of every call) and `set_terminator`, read by `exhausted`.
#[derive(Default)]
pub(crate) struct Limits {
    budget: Budget,
    /// The counters when the call started (budgets count from there).
    conflicts_start: u64,
    props_start: u64,
    terminator: Terminator,
}

impl Limits {
    /// A `solve` call starts with `budget`, the counters at `stats`.
    pub(crate) fn start(&mut self, budget: Budget, stats: &Stats) {
        self.budget = budget;
        self.conflicts_start = stats.conflicts;
        self.props_start = stats.propagations;
    }

    /// The terminate handle in force.
    pub(crate) fn terminator(&self) -> &Terminator {
        &self.terminator
    }

    /// Makes `stop` the terminate handle (shared: it is an `Arc`).
    pub(crate) fn set_terminator(&mut self, stop: &Terminator) {
        self.terminator = stop.clone();
    }

    /// Whether the budget or the terminate flag says stop.
    #[inline]
    pub(crate) fn exhausted(&self, stats: &Stats) -> bool {
        if self.terminator.is_set() {
            return true;
        }
        if let Some(c) = self.budget.conflicts
            && stats.conflicts - self.conflicts_start >= c
        {
            return true;
        }
        if let Some(p) = self.budget.propagations
            && stats.propagations - self.props_start >= p
        {
            return true;
        }
        false
    }
}
