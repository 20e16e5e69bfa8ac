//! The search: depth first over the instance's variables, in bursts that resume where the
//! last one stopped.
//!
//! **A node** (`node`): the hard units propagate for real (`store.rs`); a hard conflict, or the
//! falsified cost reaching the upper bound, prunes it; otherwise the lower bound (`bound.rs`)
//! is computed and prunes it when cost plus bound reach the upper bound; a node with every
//! clause decided is a leaf, a model cheaper than every earlier one; otherwise it branches.
//!
//! **Branching** (`branch`): the variable of the largest product of the occurrence scores of
//! its two literals in undecided clauses, the literal of the larger score first. Binary clauses
//! weigh twice ternary ones and units (measured on s3v70c700: 84k nodes against 157k with
//! MaxSatz-like weights 16/4/1); hard clauses weigh four times the mean soft weight, so that
//! they are branched on even when every soft clause gave its weight away.
//!
//! **Bursts** (`search`): the decisions (`levels`) and the assignment stay between bursts, so
//! the tree is explored once over the whole run; a burst ends when its work (clause visits,
//! counted by every part in `Sim::ticks`) is spent or the terminate flag is set. The bound given
//! to a burst only ever falls, which keeps every earlier prune sound.

use grim_solver::{Lit, Terminator, Var};

use super::{BranchAndBound, HARD};

/// What a burst of the search ended with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Outcome {
    /// The whole tree was explored: no model cheaper than the bound given (or than a model the
    /// search found itself, see [`BranchAndBound::take_model`]) exists.
    Exhausted,
    /// The burst's work ran out or the terminate flag was set; the next burst resumes.
    Paused,
}

/// What processing a node decided.
enum Step {
    Prune,
    Leaf,
    Branch(Lit),
}

/// One decision of the search.
#[derive(Clone, Copy, Debug)]
pub(super) struct Level {
    /// The trail length before the decision.
    pub(super) trail: usize,
    /// The length of `units` before the decision.
    pub(super) units: usize,
    /// The literal decided (after the flip, its complement).
    pub(super) lit: Lit,
    /// The second value is being explored: backtracking past it goes up a level.
    pub(super) flipped: bool,
}

impl BranchAndBound {
    /// Runs the search for about `ticks` more clause visits against `ub` (with `offset`: the
    /// cost of the best model known); stops early when `stop` is set.
    pub(super) fn search(&mut self, ub: u64, ticks: u64, stop: &Terminator) -> Outcome {
        if self.exhausted {
            return Outcome::Exhausted;
        }
        self.ub = self.ub.min(ub.saturating_sub(self.offset));
        let mut ub = self.ub;
        let end = self.sim.ticks.saturating_add(ticks);
        loop {
            if self.descend {
                if self.sim.ticks >= end || stop.is_set() {
                    return Outcome::Paused;
                }
                self.nodes += 1;
                match self.node(ub) {
                    Step::Branch(lit) => {
                        self.levels.push(Level {
                            trail: self.trail.len(),
                            units: self.units.len(),
                            lit,
                            flipped: false,
                        });
                        self.assign(lit);
                        continue;
                    }
                    Step::Leaf => {
                        // Every clause is decided and the cost is below `ub` (`node` checked).
                        ub = self.cost + self.empty;
                        self.ub = ub;
                        let model = (0..self.db.num_vars)
                            .map(|v| self.db.value[2 * v] == 1)
                            .collect();
                        self.found = Some((ub.saturating_add(self.offset), model));
                    }
                    Step::Prune => {}
                }
                self.descend = false;
            }
            // Backtrack: the deepest level not yet flipped takes its second value.
            while self.levels.last().is_some_and(|lv| lv.flipped) {
                self.levels.pop();
            }
            let Some(level) = self.levels.last_mut() else {
                self.exhausted = true;
                return Outcome::Exhausted;
            };
            level.flipped = true;
            level.lit = !level.lit;
            let Level {
                trail, units, lit, ..
            } = *level;
            self.backtrack(trail);
            self.units.truncate(units);
            self.hard_units.clear();
            self.assign(lit);
            self.descend = true;
        }
    }

    /// Processes the node of the current assignment: pruned (a hard conflict, or cost plus
    /// bound reaching `ub`), a leaf cheaper than `ub`, or the literal to branch on.
    fn node(&mut self, ub: u64) -> Step {
        if !self.propagate_hard() || self.cost + self.empty >= ub {
            self.hard_units.clear();
            self.pruned += 1;
            return Step::Prune;
        }
        self.sim.node += 1;
        let lb = self.bound(ub);
        self.sim.undo(0);
        #[cfg(test)]
        self.check_bound(lb);
        if (self.cost + self.empty).saturating_add(lb) >= ub {
            self.pruned += 1;
            return Step::Prune;
        }
        match self.branch() {
            Some(lit) => Step::Branch(lit),
            None => Step::Leaf,
        }
    }

    /// The branching literal: the variable of the largest product of the scores of its two
    /// literals (weighted occurrences in undecided clauses, shorter clauses weighing more), the
    /// literal of the larger score first. `None` at a leaf.
    fn branch(&mut self) -> Option<Lit> {
        let db = &self.db;
        let score = &mut self.score;
        score.clear();
        score.resize(2 * db.num_vars, 0.0);
        let mut mean = 0f64;
        let mut soft = 0usize;
        // The mean over the undecided soft clauses of positive weight: a hard clause must score
        // above 0 even when every soft clause left has given its weight away (to a
        // transformation or a split), or its variables would not be branched on and a leaf
        // could leave it open (a fuzz find: a model that broke a hard clause, and a wrong
        // proof of optimality from the tree it pruned).
        for c in 0..db.num_clauses() {
            if db.weight[c] != HARD && db.weight[c] > 0 && db.sat[c] == 0 && db.open[c] > 0 {
                mean += db.weight[c] as f64;
                soft += 1;
            }
        }
        let mean = if soft > 0 { mean / soft as f64 } else { 1.0 };
        for c in 0..db.num_clauses() {
            if db.sat[c] > 0 || db.open[c] == 0 || db.weight[c] == 0 {
                continue;
            }
            let w = if db.weight[c] == HARD {
                4.0 * mean
            } else {
                db.weight[c] as f64
            };
            let s = w * match db.open[c] {
                1 => 1.0,
                2 => 2.0,
                3 => 1.0,
                k => 0.5f64.powi(k as i32 - 3),
            };
            for &l in db.clause(c) {
                if db.value[l.code()] == 0 {
                    score[l.code()] += s;
                }
            }
        }
        self.sim.ticks += (db.lits.len() + 2 * db.num_clauses() + db.num_vars) as u64;
        let mut best: Option<(f64, Lit)> = None;
        for v in 0..db.num_vars {
            let (p, n) = (score[2 * v], score[2 * v + 1]);
            if p == 0.0 && n == 0.0 {
                continue;
            }
            let s = p * n * 1024.0 + p + n;
            if best.is_none_or(|(b, _)| s > b)
                && let Some(var) = Var::new(v as u32)
            {
                best = Some((s, if p >= n { var.pos() } else { var.neg() }));
            }
        }
        best.map(|(_, l)| l)
    }
}
