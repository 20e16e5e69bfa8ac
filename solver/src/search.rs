//! The CDCL search loop. It reads like a table of contents on purpose: each scheduled
//! technique is a predicate and an action in its own file.
//!
//! propagate → conflict? out of order? analyze, backtrack (chronologically?), learn
//!           → otherwise: budget? restart? simplify? reduce? eliminate? subsume? probe?
//!             substitute? reduce transitively?
//!             vivify?
//!             rephase? switch mode? random decisions?
//!             then the next assumption, else a decision (random during a random
//!             sequence), else SAT.

#![forbid(unsafe_code)]

use crate::chrono::OutOfOrder;
use crate::clause::NO_REASON;
use crate::external::Round;
use crate::solver::Solver;
use crate::stats::Stats;
use crate::types::{L_FALSE, L_TRUE, Status};

/// One rung of the ladder in [`Solver::search`]: when the technique's predicate `$due` holds,
/// its action `$act` runs; `or unsat` after an inprocessing action, which may refute the
/// formula (`ok == false`), makes the search answer UNSAT at once. A macro rather than a table
/// of function pointers or a helper taking closures so that the ladder compiles to exactly the
/// branches it replaced, written out once each (the loop runs at every conflict-free
/// propagation), while reading as the table of contents the module doc promises.
macro_rules! rung {
    ($solver:ident, $due:ident => $act:ident) => {
        if $solver.$due() {
            $solver.$act();
        }
    };
    ($solver:ident, $due:ident => $act:ident, or unsat) => {
        if $solver.$due() {
            $solver.$act();
            if !$solver.ok {
                return Status::Unsat;
            }
        }
    };
}

/// A progress callback: receives the cumulative statistics (see
/// [`crate::Solver::set_progress`]).
pub type ProgressFn = Box<dyn FnMut(&Stats) + Send>;

/// The progress report: set by `Solver::set_progress`, called here.
#[derive(Default)]
pub(crate) struct Progress {
    /// Conflicts between two reports; 0 = off.
    every: u64,
    report: Option<ProgressFn>,
}

impl Progress {
    /// A report every `every` conflicts (0 or `None` = off).
    pub(crate) fn new(every: u64, report: Option<ProgressFn>) -> Progress {
        Progress { every, report }
    }

    /// Reports `stats` when the conflict count is a multiple of `every`.
    #[inline]
    fn tick(&mut self, stats: &Stats) {
        if self.every > 0
            && stats.conflicts.is_multiple_of(self.every)
            && let Some(report) = &mut self.report
        {
            report(stats);
        }
    }
}

impl Solver {
    /// Prepares a call of `search`: scratch space, and the schedules on the first call.
    pub(crate) fn init_search(&mut self) {
        // Decision levels reach num_vars + one per assumption (a repeated or already-true
        // assumption opens an empty level), plus level 0.
        let levels = self.trail.num_vars() + self.assumptions.len() + 2;
        self.analysis.levels.reserve(levels);
        // Schedules carry over between calls: an incremental user (OLL, a sliced run) gets the
        // same long stable phases and reductions as one long call. Only the first call starts
        // them.
        if self.start_modes() {
            self.start_restarts();
            self.start_reductions();
            self.start_rephasing();
        }
        self.start_random_decisions();
        self.choose_decision_order();
        self.rephase.forget_target();
    }

    /// Runs CDCL until an answer or the budget. Pre: level 0, `ok`.
    pub(crate) fn search(&mut self) -> Status {
        // A conflict handed over by the external propagator's model check.
        let mut pending = NO_REASON;
        loop {
            let mut conflict = if pending != NO_REASON {
                std::mem::replace(&mut pending, NO_REASON)
            } else {
                self.propagate()
            };
            // The external propagator's turn once the clauses are at a fixpoint.
            if conflict == NO_REASON && self.external.is_some() {
                match self.external_round() {
                    Round::Quiet => {}
                    Round::Again => continue,
                    Round::Conflict(c) => conflict = c,
                    Round::Unsat => return Status::Unsat,
                    Round::Stop => return Status::Unknown,
                }
            }
            if conflict != NO_REASON {
                self.stats.conflicts += 1;
                if self.trail.decision_level() == 0 {
                    self.refute_with(conflict);
                    return Status::Unsat;
                }
                // Chronological backtracking's conflicts below the current level (`chrono.rs`).
                if self.trail.is_out_of_order() {
                    let outcome = self.out_of_order_conflict(conflict);
                    self.debug_check_chrono();
                    match outcome {
                        OutOfOrder::Analyze => {}
                        OutOfOrder::Implied => {
                            if self.limits.exhausted(&self.stats) {
                                return Status::Unknown;
                            }
                            continue;
                        }
                        OutOfOrder::Refuted => {
                            self.refute_with(conflict);
                            return Status::Unsat;
                        }
                    }
                }
                self.update_target_and_best();
                let Some((jump, lbd)) = self.analyze(conflict) else {
                    return Status::Unknown; // a propagator's malformed reason
                };
                let target = self.backtrack_level(jump);
                self.backtrack(target);
                self.learn(lbd, jump);
                if target != jump {
                    self.debug_check_chrono();
                }
                self.update_restart_averages(lbd);
                self.random_sequence_conflict();
                self.decay_activities();
                self.progress.tick(&self.stats);
                // Budgets are checked at every conflict so that `Budget::conflicts(n)` stops
                // after exactly n conflicts, not at the next conflict-free propagation.
                if self.out_of_memory || self.limits.exhausted(&self.stats) {
                    return Status::Unknown;
                }
                continue;
            }
            if self.limits.exhausted(&self.stats) {
                return Status::Unknown;
            }
            rung!(self, restarting => restart);
            // Lazy reasons found to hold at level 0 (`external.rs`): assigned and propagated
            // before the level-0 passes, which expect a fixpoint.
            if self.assign_late_units() {
                if !self.ok {
                    return Status::Unsat;
                }
                continue;
            }
            rung!(self, simplifying => simplify);
            rung!(self, reducing => reduce);
            rung!(self, congruencing => congruence, or unsat);
            rung!(self, eliminating => eliminate, or unsat);
            rung!(self, subsuming => subsume_round, or unsat);
            rung!(self, probing => probe_round, or unsat);
            rung!(self, substituting => substitute, or unsat);
            rung!(self, reducing_transitively => transred_round, or unsat);
            rung!(self, vivifying => vivify, or unsat);
            rung!(self, rephasing => rephase);
            rung!(self, switching_mode => switch_mode);
            rung!(self, randomizing => start_random_sequence);
            // A backtrack that kept out-of-order literals propagates them again first.
            if self.trail.qhead < self.trail.len() {
                continue;
            }
            // Assumptions first, one decision level each (MiniSat's scheme), so that
            // `analyze_final` can tell them apart from decisions.
            let mut next = None;
            while (self.trail.decision_level() as usize) < self.assumptions.len() {
                let a = self.assumptions[self.trail.decision_level() as usize];
                match self.trail.value(a) {
                    L_TRUE => self.trail.new_decision_level(),
                    L_FALSE => {
                        self.analyze_final(a);
                        if self.propagator_failed() {
                            return Status::Unknown;
                        }
                        return Status::Unsat;
                    }
                    _ => {
                        next = Some(a);
                        break;
                    }
                }
            }
            let lit = match next {
                Some(a) => a,
                None => {
                    let suggested = match self.external_decide() {
                        Ok(s) => s,
                        Err(()) => return Status::Unknown,
                    };
                    match suggested.or_else(|| self.pick_branch_lit()) {
                        Some(l) => {
                            self.stats.decisions += 1;
                            l
                        }
                        // Every variable assigned: the propagator checks the model first.
                        None => match self.external_check_model() {
                            Round::Quiet => return Status::Sat,
                            Round::Again => continue,
                            Round::Conflict(c) => {
                                pending = c;
                                continue;
                            }
                            Round::Unsat => return Status::Unsat,
                            Round::Stop => return Status::Unknown,
                        },
                    }
                }
            };
            self.trail.new_decision_level();
            self.trail.assign(lit, NO_REASON);
        }
    }

    /// Adds the learned clause `self.analysis.learnt` and assigns its first literal on `jump`,
    /// the level of the others: the current level after a backjump, below it after a
    /// chronological backtrack (`chrono.rs`).
    fn learn(&mut self, lbd: u32, jump: u32) {
        self.stats.learned += 1;
        let learnt = &self.analysis.learnt;
        let id = self.proof.add(learnt, &self.lrat.hints);
        let first = learnt[0];
        if learnt.len() == 1 {
            self.stats.learned_units += 1;
            // A unit holds at level 0: propagate it there (above the assumptions too).
            debug_assert_eq!(self.trail.decision_level(), 0);
            self.trail.assign(first, NO_REASON);
            self.proof.set_unit(first.var().index(), id);
            return;
        }
        match self.arena.alloc(learnt, true, lbd, id) {
            Some(c) => {
                self.arena.set_used(c, self.reduce.fresh_used(lbd));
                self.arena.set_activity(c, self.reduce.activity_inc());
                self.watches.attach(&self.arena, c);
                self.clauses.learnts.push(c);
                self.trail.assign_at(first, c, jump);
            }
            None => self.out_of_memory = true,
        }
    }
}
