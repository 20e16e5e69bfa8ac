//! The CDCL search loop. It reads like a table of contents on purpose: each scheduled
//! technique is a predicate and an action in its own file.
//!
//! propagate → conflict? analyze, learn, backtrack
//!           → otherwise: budget? restart? simplify? reduce? rephase? switch mode?
//!             then the next assumption, else a decision, else SAT.

use crate::clause::NO_REASON;
use crate::solver::Solver;
use crate::types::{L_FALSE, L_TRUE, Status};

impl Solver {
    /// Prepares a call of `search`: scratch space, and the schedules on the first call.
    pub(crate) fn init_search(&mut self) {
        // Decision levels reach num_vars + one per assumption (a repeated or already-true
        // assumption opens an empty level), plus level 0.
        let levels = self.num_vars() + self.assumptions.len() + 2;
        if self.level_stamp.len() < levels {
            self.level_stamp.resize(levels, 0);
        }
        // Schedules carry over between calls: an incremental user (OLL, a sliced run) gets the
        // same long stable phases and reductions as one long call. Only the first call starts
        // them.
        if self.mode_length == 0.0 {
            let conflicts = self.stats.conflicts;
            self.stable = false;
            self.mode_length = self.opts.mode_initial as f64;
            self.mode_limit = conflicts + self.opts.mode_initial;
            self.luby_index = 0;
            self.schedule_restart();
            self.reduce_limit = conflicts + self.opts.reduce_interval;
            self.rephase_limit = conflicts + self.opts.rephase_interval;
        }
        self.target_assigned = 0;
    }

    /// Runs CDCL until an answer or the budget. Pre: level 0, `ok`.
    pub(crate) fn search(&mut self) -> Status {
        loop {
            let conflict = self.propagate();
            if conflict != NO_REASON {
                self.stats.conflicts += 1;
                if self.decision_level() == 0 {
                    self.ok = false;
                    self.proof_empty();
                    return Status::Unsat;
                }
                self.update_target_and_best();
                let (bt, lbd) = self.analyze(conflict);
                self.backtrack(bt);
                self.learn(lbd);
                self.update_restart_averages(lbd);
                self.decay_activities();
                if self.progress_every > 0
                    && self.stats.conflicts.is_multiple_of(self.progress_every)
                    && let Some(mut report) = self.progress.take()
                {
                    report(&self.stats);
                    self.progress = Some(report);
                }
                // Budgets are checked at every conflict so that `Budget::conflicts(n)` stops
                // after exactly n conflicts, not at the next conflict-free propagation.
                if self.out_of_memory || self.out_of_budget() {
                    return Status::Unknown;
                }
                continue;
            }
            if self.out_of_budget() {
                return Status::Unknown;
            }
            if self.restarting() {
                self.restart();
            }
            if self.simplifying() {
                self.simplify();
            }
            if self.reducing() {
                self.reduce();
            }
            if self.vivifying() {
                self.vivify();
                if !self.ok {
                    return Status::Unsat;
                }
            }
            if self.rephasing() {
                self.rephase();
            }
            if self.switching_mode() {
                self.switch_mode();
            }
            // Assumptions first, one decision level each (MiniSat's scheme), so that
            // `analyze_final` can tell them apart from decisions.
            let mut next = None;
            while (self.decision_level() as usize) < self.assumptions.len() {
                let a = self.assumptions[self.decision_level() as usize];
                match self.lit_value(a) {
                    L_TRUE => self.new_decision_level(),
                    L_FALSE => {
                        self.analyze_final(a);
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
                None => match self.pick_branch_lit() {
                    Some(l) => {
                        self.stats.decisions += 1;
                        l
                    }
                    None => return Status::Sat,
                },
            };
            self.new_decision_level();
            self.assign(lit, NO_REASON);
        }
    }

    /// Adds `self.learnt` (asserting at the current level after backtracking) and assigns its
    /// first literal.
    fn learn(&mut self, lbd: u32) {
        self.stats.learned += 1;
        if self.proof.is_some() {
            let learnt = std::mem::take(&mut self.learnt);
            self.proof_add(&learnt);
            self.learnt = learnt;
        }
        let first = self.learnt[0];
        if self.learnt.len() == 1 {
            self.stats.learned_units += 1;
            // A unit holds at level 0: propagate it there (above the assumptions too).
            debug_assert_eq!(self.decision_level(), 0);
            self.assign(first, NO_REASON);
            return;
        }
        let learnt = std::mem::take(&mut self.learnt);
        match self.arena.alloc(&learnt, true, lbd) {
            Some(c) => {
                self.arena.set_used(c, 1);
                self.arena.set_activity(c, self.cla_inc);
                self.attach(c);
                self.learnts.push(c);
                self.assign(first, c);
            }
            None => self.out_of_memory = true,
        }
        self.learnt = learnt;
    }
}
