//! External propagators: rules that reason *during* the search, next to the clauses.
//!
//! A propagator is user code connected to a [`Solver`] that watches a set of
//! variables and, whenever unit propagation over the clauses reaches a fixpoint, may propagate
//! literals, report a conflict, or add clauses; it checks every complete assignment before
//! `Sat` is answered and may suggest the next decision. This is the contract of IPASIR-UP
//! (Fazekas, Niemetz, Preiner, Kirchweger, Szeider & Biere, "IPASIR-UP: User Propagators for
//! CDCL", SAT 2023; CaDiCaL's `ExternalPropagator`), read to learn it and redrawn in Rust:
//!
//! | IPASIR-UP | here | why it differs |
//! |---|---|---|
//! | `add_observed_var` | [`Propagator::observed`] once at connection, [`Solver::observe`] later | the set is usually known up front |
//! | `notify_assignment` (per literal or batched), `notify_new_decision_level` | [`Propagator::notify_assignments`]`(lits, level)`: one batch per propagation round, in trail order, all at one level | the level travels with the batch, so no call per decision |
//! | `notify_backtrack` | [`Propagator::notify_backtrack`] | the same |
//! | `cb_propagate` + `cb_add_reason_clause_lit` (one literal per call) | [`Propagator::propagate`] pushes any number of literals through a [`Context`]; [`Propagator::explain`] fills a whole reason | one call per round, not per literal |
//! | `cb_has_external_clause` + `cb_add_external_clause_lit` | [`Context::add_clause`] with a [`ClauseKind`] | a slice, not a literal stream |
//! | `cb_check_found_model` (bool) | [`Propagator::check_model`]: add a clause the model falsifies to refute it | a refusal always comes with its clause, so the search cannot loop on it |
//! | `cb_decide` | [`Propagator::decide`] | the same |
//!
//! # The contract
//! - **Observed variables** are frozen: bounded variable elimination never removes them, so the
//!   propagator's view stays meaningful. Only observed variables are notified.
//! - **Notifications** come after the engine's own propagation reached a fixpoint, before
//!   [`Propagator::propagate`] is asked; [`Propagator::notify_backtrack`]`(level)` says that
//!   every assignment above `level` is undone. A propagator keeps its own trail of what it was
//!   told and pops it on backtrack.
//! - **Propagation with a lazy reason** ([`Context::propagate`]): the engine assigns the literal
//!   and asks [`Propagator::explain`] for its reason only if conflict analysis reaches it — which
//!   on most levels it never does. The reason clause must contain the literal and otherwise
//!   only literals that were false *before* the literal was propagated (the propagator answers
//!   from the state it had then, not from the current one). [`Context::propagate_because`]
//!   gives the reason at once instead.
//! - **Clauses** ([`Context::add_clause`]): `Irredundant` clauses become part of the problem
//!   (the model check checks them, the reducer keeps them); `Learned` ones must be implied by
//!   the problem and the propagator's rules, and the reducer may delete them. A falsified clause
//!   is a conflict; a unit one propagates.
//! - **Complete assignments**: before answering `Sat` the engine calls
//!   [`Propagator::check_model`]; adding a clause the assignment falsifies refutes the model
//!   and the search goes on; adding nothing (or only clauses it satisfies) accepts it.
//! - **Misbehaviour is typed**: a reason that does not contain its literal, or names a literal
//!   that is not false or was assigned after it, or a literal of an unknown variable, stops the
//!   solve with `Status::Unknown` and [`Solver::propagator_error`]
//!   says what was wrong ([`PropagatorError`]) — never silent corruption.
//! - **Everything else keeps working**: budgets and the `Terminator`, assumptions and the
//!   failed-assumption core, determinism (the engine calls the propagator at fixed points of
//!   its own deterministic search), incremental use (the propagator stays connected across
//!   `solve` calls; at the start of each the engine backtracks to level 0 and says so).
//!
//! # Proofs
//! With proof output on, every clause the propagator contributes — added clauses, conflict
//! clauses, and reasons, which are then asked for eagerly (a lazy reason that is never asked
//! for would leave a gap) — is written to the proof as an addition *and* to the external-clause
//! log ([`Solver::set_external_clause_log`], DIMACS
//! clauses). A proof that `rate` verifies against the input formula **plus the external-clause
//! log** certifies that the formula together with the clauses the propagator asserted is
//! unsatisfiable: the engine's reasoning is checked, the propagator's clauses are trusted. It
//! does not certify the propagator's clauses themselves (that its rule implies each). LRAT has
//! no step for a clause taken on trust, so an LRAT proof fails at the propagator's first clause
//! (`Solver::flush_proof` reports it; a propagator that only observes and decides is fine).

#![forbid(unsafe_code)]

use std::io::{self, Write};

use crate::clause::{CRef, LAZY_REASON, NO_REASON};
use crate::solver::Solver;
use crate::trail::Trail;
use crate::types::{L_FALSE, L_TRUE, L_UNDEF, LBool, Lit, Var};

/// What kind of clause a propagator adds ([`Context::add_clause`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClauseKind {
    /// Part of the problem from now on: checked by the model check, never deleted.
    Irredundant,
    /// Implied by the problem and the propagator's rules: the reducer may delete it.
    Learned,
}

/// A propagator's misbehaviour, found by the engine's checks of what it was handed. The
/// solve that found it answers `Status::Unknown`; [`Solver::propagator_error`] returns it
/// until the next `solve`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PropagatorError {
    /// A literal of a variable the solver does not have (propagated, decided, or in a clause
    /// or reason).
    UnknownVariable {
        /// The literal.
        lit: Lit,
    },
    /// A propagated or decided literal of a variable that bounded variable elimination
    /// removed (only observed variables are guaranteed to stay).
    EliminatedVariable {
        /// The literal.
        lit: Lit,
    },
    /// The reason given for `lit` does not contain `lit`.
    ReasonWithoutLiteral {
        /// The propagated literal.
        lit: Lit,
    },
    /// The reason for `lit` has a literal `other` that is not false, or that became false only
    /// after `lit` was propagated.
    ReasonNotFalseBefore {
        /// The propagated literal.
        lit: Lit,
        /// The offending literal of its reason.
        other: Lit,
    },
    /// [`Propagator::decide`] suggested a literal that is already assigned.
    DecisionAssigned {
        /// The literal.
        lit: Lit,
    },
}

impl std::fmt::Display for PropagatorError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let d = |l: &Lit| l.to_dimacs();
        match self {
            PropagatorError::UnknownVariable { lit } => {
                write!(
                    f,
                    "literal {} names a variable the solver does not have",
                    d(lit)
                )
            }
            PropagatorError::EliminatedVariable { lit } => write!(
                f,
                "literal {} was propagated or decided, but its variable was eliminated \
                 (observe it to keep it)",
                d(lit)
            ),
            PropagatorError::ReasonWithoutLiteral { lit } => {
                write!(f, "the reason given for {} does not contain it", d(lit))
            }
            PropagatorError::ReasonNotFalseBefore { lit, other } => write!(
                f,
                "the reason given for {} has {}, which was not false before it",
                d(lit),
                d(other)
            ),
            PropagatorError::DecisionAssigned { lit } => {
                write!(f, "the suggested decision {} is already assigned", d(lit))
            }
        }
    }
}

impl std::error::Error for PropagatorError {}

/// User code that reasons during the search; see the module documentation for the contract.
/// Every method but [`Propagator::explain`] has a default that does nothing, so a propagator
/// implements only what it uses. `Send`, so that a solver with a propagator can still move to
/// another thread.
pub trait Propagator: Send {
    /// The variables to observe, asked once when the propagator is connected. They are frozen.
    fn observed(&self) -> Vec<Var> {
        Vec::new()
    }

    /// Observed variables the engine assigned since the last notification, in trail order, all
    /// at decision level `level`.
    fn notify_assignments(&mut self, lits: &[Lit], level: u32) {
        let _ = (lits, level);
    }

    /// Every assignment above decision level `level` was undone.
    fn notify_backtrack(&mut self, level: u32) {
        let _ = level;
    }

    /// Unit propagation reached a fixpoint without conflict: propagate literals, add clauses
    /// (a falsified one is a conflict) through `ctx`, or nothing.
    fn propagate(&mut self, ctx: &mut Context<'_>) {
        let _ = ctx;
    }

    /// The reason of `lit`, propagated earlier with [`Context::propagate`]: its literals go
    /// into `reason` (empty on entry): `lit` itself, and literals that were false before `lit`
    /// was propagated.
    fn explain(&mut self, lit: Lit, reason: &mut Vec<Lit>);

    /// Every variable is assigned and every clause satisfied: accept (add nothing) or refute
    /// the assignment by adding, through `ctx`, a clause it falsifies.
    fn check_model(&mut self, ctx: &mut Context<'_>) {
        let _ = ctx;
    }

    /// The next decision, if the propagator wants to choose it: an unassigned literal, or
    /// `None` to leave it to the engine.
    fn decide(&mut self, ctx: &Context<'_>) -> Option<Lit> {
        let _ = ctx;
        None
    }
}

/// A propagator's view of the engine during a callback: the current values, and the place to
/// put what it derives (processed by the engine when the callback returns, in this order:
/// clauses, then propagations).
pub struct Context<'a> {
    vals: &'a [LBool],
    level: u32,
    actions: &'a mut Actions,
}

impl Context<'_> {
    /// The current value of `lit` (`None`: unassigned, or a variable the solver lacks).
    pub fn value(&self, lit: Lit) -> Option<bool> {
        match self.vals.get(lit.code()).copied().unwrap_or(L_UNDEF) {
            L_TRUE => Some(true),
            L_FALSE => Some(false),
            _ => None,
        }
    }

    /// The current decision level.
    pub fn decision_level(&self) -> u32 {
        self.level
    }

    /// Propagates `lit`, with its reason asked for later ([`Propagator::explain`]) and only if
    /// conflict analysis needs it. Ignored when `lit` is already true; a conflict when it is
    /// false (its reason is asked for at once).
    pub fn propagate(&mut self, lit: Lit) {
        self.actions.props.push((lit, LAZY, 0));
    }

    /// Propagates `lit` with the reason `reason` (which must contain `lit`; every other literal
    /// false).
    pub fn propagate_because(&mut self, lit: Lit, reason: &[Lit]) {
        let start = self.actions.lits.len() as u32;
        self.actions.lits.extend_from_slice(reason);
        self.actions.props.push((lit, start, reason.len() as u32));
    }

    /// Adds a clause. Falsified by the current assignment, it is a conflict; unit, it
    /// propagates.
    pub fn add_clause(&mut self, lits: &[Lit], kind: ClauseKind) {
        let start = self.actions.lits.len() as u32;
        self.actions.lits.extend_from_slice(lits);
        self.actions.clauses.push((kind, start, lits.len() as u32));
    }
}

/// Marks a propagation whose reason is lazy.
const LAZY: u32 = u32::MAX;

/// What a callback pushed: clauses and propagations, their literals in one buffer.
#[derive(Default)]
pub(crate) struct Actions {
    clauses: Vec<(ClauseKind, u32, u32)>,
    props: Vec<(Lit, u32, u32)>,
    lits: Vec<Lit>,
}

impl Actions {
    fn clear(&mut self) {
        self.clauses.clear();
        self.props.clear();
        self.lits.clear();
    }
    fn is_empty(&self) -> bool {
        self.clauses.is_empty() && self.props.is_empty()
    }
}

/// A connected propagator and the engine's bookkeeping around it. Owned by `Solver`
/// (`external`); written only here.
///
/// Invariants (owned here): `notified <= trail.len()`; every observed literal of
/// `trail.lits[..notified]` was passed to `notify_assignments`, and `level` is the highest
/// decision level of a batch not yet undone (so `notify_backtrack(b)` is due when the engine
/// backtracks below it).
pub(crate) struct External {
    prop: Box<dyn Propagator>,
    observed: Vec<bool>,
    notified: usize,
    level: u32,
    actions: Actions,
    batch: Vec<Lit>,
    reason: Vec<Lit>,
    /// Per variable, a stamp: the reason check marks the literals assigned before the one
    /// explained.
    stamps: Vec<u32>,
    stamp: u32,
    /// The last lazy reason put in clause order (`materialize_reason`): its literals but the
    /// explained one as sort keys, in the propagator's order, and them sorted. The cells a
    /// count fixes at once share one reason of up to thousands of literals, and the analysis
    /// materialises them one after another: comparing keys is linear, sorting is not (issue 42).
    last_keys: Vec<u64>,
    last_sorted: Vec<Lit>,
    /// Scratch for the keys of the reason being materialised.
    keys: Vec<u64>,
    error: Option<PropagatorError>,
    log: Option<Box<dyn Write + Send>>,
    /// Literals propagated above level 0 whose reason (a lazy one once asked for, or a
    /// propagator's clause) had every other literal false at level 0: they hold at level 0, and are assigned there at the next
    /// backtrack to it (their reason clause, watched on the literal and a level-0 false one,
    /// would otherwise stay unit and unpropagated there).
    late_units: Vec<Lit>,
}

impl External {
    /// Asks the propagator (`call` is `propagate` or `check_model`) with a fresh action list,
    /// the current values and level; true when it asked for something.
    fn ask(&mut self, trail: &Trail, call: impl FnOnce(&mut dyn Propagator, &mut Context)) -> bool {
        self.actions.clear();
        let mut ctx = Context {
            vals: &trail.vals,
            level: trail.decision_level(),
            actions: &mut self.actions,
        };
        call(self.prop.as_mut(), &mut ctx);
        !self.actions.is_empty()
    }
}

/// A lazy reason for the conflict analysis (`Solver::reason_for_analysis`).
pub(crate) enum LazyReason {
    /// Materialised: a clause of the arena, now the variable's reason.
    Clause(CRef),
    /// Too long to keep: its literals in clause order, resolved on and handed back.
    Scratch(Vec<Lit>),
}

/// What one external round came to.
pub(crate) enum Round {
    /// Nothing new: decide.
    Quiet,
    /// Something was assigned or the engine backtracked: propagate again.
    Again,
    /// This clause is falsified, with at least two literals at the current level: analyse it.
    Conflict(CRef),
    /// A clause is falsified at level 0: no model exists.
    Unsat,
    /// The propagator misbehaved (`External::error`) or memory ran out: answer `Unknown`.
    Stop,
}

impl Solver {
    /// Connects `propagator`, replacing any connected one (which is returned). Its observed
    /// variables ([`Propagator::observed`]) are created if needed and frozen.
    pub fn connect_propagator(
        &mut self,
        propagator: Box<dyn Propagator>,
    ) -> Option<Box<dyn Propagator>> {
        let old = self.disconnect_propagator();
        self.backtrack(0);
        // The propagator sees the user's variables only: undo any factoring (`factor.rs`).
        self.unfactor();
        let vars = propagator.observed();
        let ext = External {
            prop: propagator,
            observed: vec![false; self.trail.num_vars()],
            notified: 0,
            level: 0,
            actions: Actions::default(),
            batch: Vec::new(),
            reason: Vec::new(),
            stamps: Vec::new(),
            stamp: 0,
            last_keys: Vec::new(),
            last_sorted: Vec::new(),
            keys: Vec::new(),
            error: None,
            log: None,
            late_units: Vec::new(),
        };
        self.external = Some(ext);
        for v in vars {
            self.observe(v);
        }
        old
    }

    /// Disconnects the propagator and returns it. Its irredundant clauses stay; so do the
    /// literals it propagated at level 0.
    pub fn disconnect_propagator(&mut self) -> Option<Box<dyn Propagator>> {
        self.backtrack(0);
        self.external.take().map(|e| e.prop)
    }

    /// Observes `var` too (creating and freezing it); a no-op without a propagator.
    pub fn observe(&mut self, var: Var) {
        self.reserve_vars(var.index() + 1);
        self.freeze(var);
        let n = self.trail.num_vars();
        if let Some(ext) = &mut self.external {
            ext.observed.resize(n, false);
            ext.observed[var.index()] = true;
            // Observed assignments at level 0 that were already notified past are told again
            // from the start: cheapest is to notify the whole level-0 trail anew.
            if ext.notified > 0 && self.trail.value(var.pos()) != L_UNDEF {
                ext.notified = 0;
            }
        }
    }

    /// The misbehaviour that stopped the last `solve`, if any.
    pub fn propagator_error(&self) -> Option<&PropagatorError> {
        self.external.as_ref().and_then(|e| e.error.as_ref())
    }

    /// Writes every clause the propagator contributes (added, conflict and reason clauses) to
    /// `log` as DIMACS lines, so that a DRAT proof of this run can be checked against the input
    /// plus these clauses (module doc). Call after connecting; the log ends when the propagator
    /// is disconnected.
    pub fn set_external_clause_log(&mut self, log: Box<dyn Write + Send>) {
        if let Some(ext) = &mut self.external {
            ext.log = Some(log);
        }
    }

    /// The solve is starting: forget the previous error.
    pub(crate) fn external_start(&mut self) {
        if let Some(ext) = &mut self.external {
            ext.error = None;
        }
    }

    /// After a backtrack to `level`: tells the propagator if it saw assignments above it.
    pub(crate) fn external_backtracked(&mut self, level: u32) {
        let len = self.trail.len();
        if let Some(ext) = &mut self.external {
            ext.notified = ext.notified.min(len);
            if ext.level > level {
                ext.level = level;
                ext.prop.notify_backtrack(level);
            }
        }
    }

    /// At level 0, assigns the late units (`External::late_units`) still unassigned; true when
    /// it assigned any (the search propagates them before its level-0 passes, which expect a
    /// fixpoint), or refuted the formula: one false at level 0 sets `ok` false.
    pub(crate) fn assign_late_units(&mut self) -> bool {
        if self.trail.decision_level() != 0 {
            return false;
        }
        let units = match &mut self.external {
            Some(ext) if !ext.late_units.is_empty() => std::mem::take(&mut ext.late_units),
            _ => return false,
        };
        let mut assigned = false;
        for l in units {
            match self.trail.value(l) {
                L_UNDEF => {
                    self.trail.assign(l, NO_REASON);
                    assigned = true;
                }
                L_FALSE => {
                    self.ok = false;
                    self.proof.add(&[], &[]);
                }
                _ => {}
            }
        }
        assigned || !self.ok
    }

    /// Tells the propagator the observed assignments since the last notification, one batch
    /// per level.
    fn external_notify(&mut self) {
        let Some(ext) = &mut self.external else {
            return;
        };
        let trail = &self.trail;
        while ext.notified < trail.len() {
            let level = trail.level[trail.lits[ext.notified].var().index()];
            ext.batch.clear();
            while ext.notified < trail.len() {
                let l = trail.lits[ext.notified];
                let v = l.var().index();
                if trail.level[v] != level {
                    break;
                }
                if ext.observed.get(v).copied().unwrap_or(false) {
                    ext.batch.push(l);
                }
                ext.notified += 1;
            }
            if !ext.batch.is_empty() {
                ext.level = ext.level.max(level);
                ext.prop.notify_assignments(&ext.batch, level);
            }
        }
    }

    /// One round after unit propagation reached a fixpoint: notify, ask, and apply.
    pub(crate) fn external_round(&mut self) -> Round {
        self.external_notify();
        let Some(ext) = &mut self.external else {
            return Round::Quiet;
        };
        if ext.error.is_some() {
            return Round::Stop;
        }
        if !ext.ask(&self.trail, |p, ctx| p.propagate(ctx)) {
            return Round::Quiet;
        }
        self.stats.external_rounds += 1;
        self.apply_actions()
    }

    /// A complete assignment satisfies the clauses: asks the propagator to accept or refute it.
    /// `Quiet` accepts.
    pub(crate) fn external_check_model(&mut self) -> Round {
        self.external_notify();
        let Some(ext) = &mut self.external else {
            return Round::Quiet;
        };
        if !ext.ask(&self.trail, |p, ctx| p.check_model(ctx)) {
            return Round::Quiet;
        }
        self.stats.external_models_refuted += 1;
        match self.apply_actions() {
            // Clauses the model satisfies refute nothing: the model stands.
            Round::Quiet => Round::Quiet,
            other => other,
        }
    }

    /// The propagator's decision, if it makes one; `Err` on a bad suggestion.
    pub(crate) fn external_decide(&mut self) -> Result<Option<Lit>, ()> {
        let Some(ext) = &mut self.external else {
            return Ok(None);
        };
        ext.actions.clear();
        let ctx = Context {
            vals: &self.trail.vals,
            level: self.trail.decision_level(),
            actions: &mut ext.actions,
        };
        let Some(lit) = ext.prop.decide(&ctx) else {
            return Ok(None);
        };
        let error = if lit.var().index() >= self.trail.num_vars() {
            Some(PropagatorError::UnknownVariable { lit })
        } else if self.elim.is_eliminated(lit.var().index()) {
            Some(PropagatorError::EliminatedVariable { lit })
        } else if self.trail.value(lit) != L_UNDEF {
            Some(PropagatorError::DecisionAssigned { lit })
        } else {
            None
        };
        match error {
            Some(e) => {
                ext.error = Some(e);
                Err(())
            }
            None => {
                self.stats.external_decisions += 1;
                Ok(Some(lit))
            }
        }
    }

    fn external_fail(&mut self, e: PropagatorError) -> Round {
        if let Some(ext) = &mut self.external {
            ext.error = Some(e);
        }
        Round::Stop
    }

    /// Applies the actions of the last callback: clauses first, then propagations; stops at
    /// the first conflict.
    fn apply_actions(&mut self) -> Round {
        let Some(ext) = &mut self.external else {
            return Round::Quiet;
        };
        let actions = std::mem::take(&mut ext.actions);
        let mut result = Round::Quiet;
        let n = self.trail.num_vars();
        // Once a clause or a propagation made the engine backtrack, the remaining actions were
        // derived from an assignment that is gone: they are dropped (the propagator is asked
        // again after the next propagation).
        let level = self.trail.decision_level();
        'clauses: for &(kind, start, len) in &actions.clauses {
            let lits = &actions.lits[start as usize..(start + len) as usize];
            if let Some(&lit) = lits.iter().find(|l| l.var().index() >= n) {
                result = self.external_fail(PropagatorError::UnknownVariable { lit });
                break 'clauses;
            }
            self.stats.external_clauses += 1;
            match self.add_external_clause(lits, kind) {
                Round::Quiet => {}
                Round::Again => result = Round::Again,
                other => {
                    result = other;
                    break 'clauses;
                }
            }
            if self.trail.decision_level() < level {
                break 'clauses;
            }
        }
        if matches!(result, Round::Quiet | Round::Again) && self.trail.decision_level() == level {
            for &(lit, start, len) in &actions.props {
                if lit.var().index() >= n {
                    result = self.external_fail(PropagatorError::UnknownVariable { lit });
                    break;
                }
                if self.elim.is_eliminated(lit.var().index()) {
                    result = self.external_fail(PropagatorError::EliminatedVariable { lit });
                    break;
                }
                if self.trail.value(lit) == L_TRUE {
                    continue;
                }
                let step =
                    if start == LAZY && self.trail.value(lit) == L_UNDEF && !self.proof.is_on() {
                        self.stats.external_propagations += 1;
                        self.trail.assign(lit, LAZY_REASON);
                        Round::Again
                    } else {
                        let reason = if start == LAZY {
                            match self.ask_reason(lit) {
                                Ok(r) => r,
                                Err(e) => {
                                    result = self.external_fail(e);
                                    break;
                                }
                            }
                        } else {
                            actions.lits[start as usize..(start + len) as usize].to_vec()
                        };
                        self.stats.external_propagations += 1;
                        self.propagate_with_reason(lit, reason)
                    };
                match step {
                    Round::Quiet | Round::Again => result = Round::Again,
                    other => {
                        result = other;
                        break;
                    }
                }
                if self.trail.decision_level() < level {
                    break;
                }
            }
        }
        if let Some(ext) = &mut self.external {
            let mut actions = actions;
            actions.clear();
            ext.actions = actions;
        }
        if matches!(result, Round::Conflict(_) | Round::Unsat) {
            self.stats.external_conflicts += 1;
        }
        result
    }

    /// Asks the propagator for the reason of `lit` and checks its shape: it contains `lit`,
    /// and only variables the solver has. (Whether the other literals are false early enough
    /// is checked where the reason is used.)
    fn ask_reason(&mut self, lit: Lit) -> Result<Vec<Lit>, PropagatorError> {
        let n = self.trail.num_vars();
        let Some(ext) = &mut self.external else {
            return Err(PropagatorError::ReasonWithoutLiteral { lit });
        };
        ext.reason.clear();
        ext.prop.explain(lit, &mut ext.reason);
        self.stats.external_reasons += 1;
        let mut reason = std::mem::take(&mut ext.reason);
        reason.sort_unstable();
        reason.dedup();
        if let Some(&bad) = reason.iter().find(|l| l.var().index() >= n) {
            return Err(PropagatorError::UnknownVariable { lit: bad });
        }
        if !reason.contains(&lit) {
            return Err(PropagatorError::ReasonWithoutLiteral { lit });
        }
        Ok(reason)
    }

    /// Propagates `lit` (unassigned, or false: then a conflict) with the eager reason
    /// `reason`, checked to hold only false literals besides `lit`.
    fn propagate_with_reason(&mut self, lit: Lit, mut reason: Vec<Lit>) -> Round {
        reason.sort_unstable();
        reason.dedup();
        if !reason.contains(&lit) {
            return self.external_fail(PropagatorError::ReasonWithoutLiteral { lit });
        }
        if let Some(&other) = reason
            .iter()
            .find(|&&o| o != lit && self.trail.value(o) != L_FALSE)
        {
            return self.external_fail(PropagatorError::ReasonNotFalseBefore { lit, other });
        }
        self.add_external_clause(&reason, ClauseKind::Learned)
    }

    /// Adds a clause from the propagator mid-search and brings the assignment in line with it:
    /// satisfied or with two free literals, it is only watched; unit, it propagates its free
    /// literal; falsified, it is a conflict — analysed at its highest level, or, when one
    /// literal alone has that level, turned into a propagation after backtracking.
    pub(crate) fn add_external_clause(&mut self, lits: &[Lit], kind: ClauseKind) -> Round {
        let mut buf: Vec<Lit> = lits.to_vec();
        if !crate::normalise_clause(&mut buf) {
            return Round::Quiet; // a tautology holds anyway
        }
        if kind == ClauseKind::Irredundant {
            if self.opts.check_model {
                self.check.record(&buf);
            } else {
                self.check.skip();
            }
        }
        self.log_external(&buf);
        let id = self.proof_external(&buf);
        if self.elim.touches(&buf) {
            // Restoring eliminated clauses mid-search would leave them unwatched under the
            // current assignment: go to level 0 first.
            self.backtrack(0);
            self.restore_eliminated();
            if !self.ok {
                return Round::Unsat;
            }
        }
        // Order: true literals, then free ones, then false ones by decreasing level.
        let trail = &self.trail;
        let rank = |l: Lit| -> (u8, u32) {
            match trail.value(l) {
                L_TRUE => (0, 0),
                L_UNDEF => (1, 0),
                _ => (2, u32::MAX - trail.level[l.var().index()]),
            }
        };
        buf.sort_by_key(|&l| rank(l));
        let state = |l: Lit| self.trail.value(l);
        match buf.len() {
            0 => {
                self.ok = false;
                self.proof.add(&[], &[]);
                return Round::Unsat;
            }
            1 => {
                let l = buf[0];
                return match state(l) {
                    L_TRUE if self.trail.level[l.var().index()] == 0 => Round::Quiet,
                    _ => {
                        // A unit holds at level 0.
                        self.backtrack(0);
                        if self.trail.value(l) == L_FALSE {
                            self.ok = false;
                            self.proof.add(&[], &[]);
                            return Round::Unsat;
                        }
                        if self.trail.value(l) == L_UNDEF {
                            self.trail.assign(l, NO_REASON);
                            self.proof.set_unit(l.var().index(), id);
                        }
                        Round::Again
                    }
                };
            }
            _ => {}
        }
        let learned = kind == ClauseKind::Learned;
        let lbd = buf.len().min(u32::MAX as usize) as u32;
        let Some(c) = self.arena.alloc(&buf, learned, lbd, id) else {
            self.out_of_memory = true;
            return Round::Stop;
        };
        self.watches.attach(&self.arena, c);
        self.clauses.push(c, learned);
        let (a, b) = (buf[0], buf[1]);
        match (state(a), state(b)) {
            (L_TRUE, _) | (L_UNDEF, L_UNDEF) => Round::Quiet,
            (L_UNDEF, _) => {
                // Unit: its free literal is implied (at the current level: the engine does not
                // backtrack for a late implication). When every other literal is false at
                // level 0 it holds there: a late unit (`External::late_units`).
                self.trail.assign(a, c);
                if self.trail.decision_level() > 0
                    && self.trail.level[b.var().index()] == 0
                    && let Some(ext) = &mut self.external
                {
                    ext.late_units.push(a);
                }
                Round::Again
            }
            _ => {
                // Falsified.
                let top = self.trail.level[a.var().index()];
                let second = self.trail.level[b.var().index()];
                if top == 0 {
                    self.ok = false;
                    self.proof.add(&[], &[]);
                    return Round::Unsat;
                }
                if second < top {
                    self.backtrack(second);
                    self.trail.assign(a, c);
                    Round::Again
                } else {
                    if self.trail.decision_level() > top {
                        self.backtrack(top);
                    }
                    Round::Conflict(c)
                }
            }
        }
    }

    /// The lazy reason of `v` for the conflict analysis: a clause of the arena
    /// (`materialize_reason`), or, when it is longer than the option `scratch_reason_min`
    /// (see there for why) and not a late
    /// unit's, the literals alone in clause order, which the analysis resolves on and hands
    /// back (`give_back_reason`); `v` then keeps its lazy reason. `None` after recording a
    /// malformed reason's error.
    pub(crate) fn reason_for_analysis(&mut self, v: usize) -> Option<LazyReason> {
        let buf = self.lazy_reason(v)?;
        let level = self.trail.level[v];
        let late = buf
            .get(1)
            .is_none_or(|&o| self.trail.level[o.var().index()] == 0);
        if buf.len() as u64 <= self.opts.scratch_reason_min || level == 0 || late {
            return self.store_reason(v, buf).map(LazyReason::Clause);
        }
        // In the clause log and the proof as every reason is (a DRAT checker needs it before
        // the learned clause); never deleted there, as nothing refers to it in the arena.
        self.log_external(&buf);
        self.proof_external(&buf);
        Some(LazyReason::Scratch(buf))
    }

    /// Returns a scratch reason's buffer (`reason_for_analysis`) for the next one.
    pub(crate) fn give_back_reason(&mut self, buf: Vec<Lit>) {
        if let Some(ext) = &mut self.external {
            ext.reason = buf;
        }
    }

    /// Turns the lazy reason of `v` into a clause of the arena (asking the propagator), checked:
    /// it holds the true literal of `v` and otherwise only literals false before it on the
    /// trail. Returns the clause, or `None` after recording the error.
    pub(crate) fn materialize_reason(&mut self, v: usize) -> Option<CRef> {
        let buf = self.lazy_reason(v)?;
        self.store_reason(v, buf)
    }

    /// The lazy reason of `v` (asking the propagator), checked (`materialize_reason`), in
    /// clause order: the true literal of `v` first, the others by decreasing level.
    fn lazy_reason(&mut self, v: usize) -> Option<Vec<Lit>> {
        debug_assert_eq!(self.trail.reason[v], LAZY_REASON);
        let lit = Var::from_index(v).lit(self.trail.var_value(v) == L_TRUE);
        let n = self.trail.num_vars();
        let ext = self.external.as_mut()?;
        ext.reason.clear();
        ext.prop.explain(lit, &mut ext.reason);
        self.stats.external_reasons += 1;
        let reason = std::mem::take(&mut ext.reason);
        // The checks of `ask_reason` without its sort: the error names the least offending
        // literal, as it did when the reason was sorted first.
        if let Some(&bad) = reason.iter().filter(|l| l.var().index() >= n).min() {
            self.external_fail(PropagatorError::UnknownVariable { lit: bad });
            return None;
        }
        if !reason.contains(&lit) {
            self.external_fail(PropagatorError::ReasonWithoutLiteral { lit });
            return None;
        }
        // Every other literal must be false and on the trail before `lit`: at a lower level,
        // or at its level earlier on the trail (`pos`; stale at level 0, so there the trail
        // is walked).
        let level = self.trail.level[v];
        let trail = &self.trail;
        let late = if level > 0 {
            let at = trail.pos[v];
            reason
                .iter()
                .filter(|&&o| {
                    let ov = o.var().index();
                    o != lit
                        && !(trail.value(o) == L_FALSE
                            && (trail.level[ov] < level
                                || (trail.level[ov] == level && trail.pos[ov] < at)))
                })
                .min()
                .copied()
        } else {
            let ext = self.external.as_mut()?;
            ext.stamp = ext.stamp.wrapping_add(1);
            if ext.stamp == 0 {
                ext.stamps.fill(0);
                ext.stamp = 1;
            }
            ext.stamps.resize(n, 0);
            for &q in &trail.lits {
                if q == lit {
                    break;
                }
                ext.stamps[q.var().index()] = ext.stamp;
            }
            let (stamps, stamp) = (&ext.stamps, ext.stamp);
            reason
                .iter()
                .filter(|&&o| {
                    o != lit && !(trail.value(o) == L_FALSE && stamps[o.var().index()] == stamp)
                })
                .min()
                .copied()
        };
        if let Some(other) = late {
            self.external_fail(PropagatorError::ReasonNotFalseBefore { lit, other });
            return None;
        }
        // `lit` first, then the others by decreasing level, ties by literal, without
        // duplicates (watch invariant: a true watch and a false one). One key per literal,
        // the level above its code; the same keys as the last reason's give its order again.
        let ext = self.external.as_mut()?;
        let mut keys = std::mem::take(&mut ext.keys);
        keys.clear();
        keys.extend(reason.iter().filter(|&&o| o != lit).map(|&o| {
            let lv = trail.level[o.var().index()];
            (u64::from(u32::MAX - lv) << 32) | o.code() as u64
        }));
        if keys != ext.last_keys {
            std::mem::swap(&mut ext.last_keys, &mut keys);
            keys.clear();
            keys.extend_from_slice(&ext.last_keys);
            keys.sort_unstable();
            keys.dedup();
            ext.last_sorted.clear();
            ext.last_sorted.extend(
                keys.iter()
                    .map(|&k| Lit::from_code((k & u64::from(u32::MAX)) as usize)),
            );
        }
        ext.keys = keys;
        let mut buf = reason;
        buf.clear();
        buf.push(lit);
        buf.extend_from_slice(&ext.last_sorted);
        Some(buf)
    }

    /// Stores the checked reason `buf` of `v` (`lazy_reason`) as a clause of the arena, the
    /// reason of `v` from now on.
    fn store_reason(&mut self, v: usize, buf: Vec<Lit>) -> Option<CRef> {
        let lit = buf[0];
        let level = self.trail.level[v];
        self.log_external(&buf);
        let id = self.proof_external(&buf);
        let lbd = self.analysis.levels.lbd(&buf, &self.trail, 0);
        let c = match self.arena.alloc(&buf, true, lbd, id) {
            Some(c) => c,
            None => {
                self.out_of_memory = true;
                return None;
            }
        };
        if buf.len() >= 2 {
            self.watches.attach(&self.arena, c);
        }
        if level > 0
            && buf
                .get(1)
                .is_none_or(|&o| self.trail.level[o.var().index()] == 0)
            && let Some(ext) = &mut self.external
        {
            ext.late_units.push(lit);
        }
        self.clauses.learnts.push(c);
        self.trail.reason[v] = c;
        if let Some(ext) = &mut self.external {
            ext.reason = buf; // its capacity serves the next reason
        }
        Some(c)
    }

    /// Materialises every lazy reason above level 0 on the trail (for the failed-assumption
    /// analysis, which walks reasons with the arena borrowed). False after a malformed reason.
    pub(crate) fn materialize_all_lazy(&mut self) -> bool {
        let start = self.trail.lim.first().copied().unwrap_or(self.trail.len());
        for i in start..self.trail.len() {
            let v = self.trail.lits[i].var().index();
            if self.trail.reason[v] == LAZY_REASON && self.materialize_reason(v).is_none() {
                return false;
            }
        }
        true
    }

    /// Whether the connected propagator misbehaved during this solve.
    pub(crate) fn propagator_failed(&self) -> bool {
        self.external.as_ref().is_some_and(|e| e.error.is_some())
    }

    /// Writes a clause of the propagator to the proof: with DRAT as an addition (checked
    /// against the formula plus the external-clause log, module doc); with LRAT it cannot be
    /// written — a clause taken on trust is not a step LRAT has — so the proof fails, saying
    /// so (`proof.rs`). Returns the clause's identifier.
    fn proof_external(&mut self, lits: &[Lit]) -> u64 {
        if self.proof.is_lrat() {
            self.proof.fail(
                "an external propagator added a clause, and LRAT has no step for a clause \
                 taken on trust (use a DRAT proof with the external-clause log)",
            );
        }
        self.proof.add(lits, &[])
    }

    fn log_external(&mut self, lits: &[Lit]) {
        let Some(ext) = &mut self.external else {
            return;
        };
        if let Some(log) = &mut ext.log {
            let mut line = String::with_capacity(lits.len() * 6 + 2);
            for l in lits {
                line.push_str(&l.to_dimacs().to_string());
                line.push(' ');
            }
            line.push_str("0\n");
            if log.write_all(line.as_bytes()).is_err() {
                ext.log = None;
            }
        }
    }

    /// Flushes the external-clause log, if any.
    pub(crate) fn flush_external_log(&mut self) -> io::Result<()> {
        match self.external.as_mut().and_then(|e| e.log.as_mut()) {
            Some(log) => log.flush(),
            None => Ok(()),
        }
    }
}
