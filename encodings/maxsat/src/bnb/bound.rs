//! The lower bound of a node: disjoint inconsistent subsets found by simulated unit
//! propagation (Li, Manyà & Planes, CP 2005, doi:10.1007/11564751_31; MaxSatz, JAIR 30,
//! 2007, doi:10.1613/jair.2215).
//!
//! The unit soft clauses of the node (`units`, kept by `store.rs`) are propagated in a
//! simulation on top of the search assignment (`Sim`), most recent first, hard and soft clauses
//! alike serving as reasons. A clause left without a literal closes an implication graph whose
//! clauses no assignment satisfies together (`Sim::collect`): every extension violates one of
//! its soft clauses. A small subset is transformed for the whole subtree (`transform.rs`); any
//! other is set aside for this node only, its smallest remaining weight taken off each of its
//! clauses (`Sim::consume`: the clause splitting of weighted branch and bound). When the units
//! find nothing more, failed literals are probed (`probe.rs`). Propagating all units at once
//! before their consequences (breadth first) cost 7× the nodes.

use grim_solver::Lit;

use super::{BranchAndBound, Db, HARD, NONE, Sim};

impl Sim {
    /// The scratch over `num_vars` variables (the per-clause arrays grow with the store).
    pub(super) fn new(num_vars: usize) -> Sim {
        Sim {
            val: vec![0; 2 * num_vars],
            reason: vec![NONE; num_vars],
            trail: Vec::new(),
            trail_decs: Vec::new(),
            open_stamp: Vec::new(),
            open: Vec::new(),
            decs: Vec::new(),
            resid_stamp: Vec::new(),
            residual: Vec::new(),
            dead: Vec::new(),
            node: 0,
            mark: Vec::new(),
            no_fail: vec![0; 2 * num_vars],
            mark_stamp: 0,
            subset: Vec::new(),
            ticks: 0,
        }
    }

    pub(super) fn grow(&mut self, clauses: usize) {
        if self.open.len() < clauses {
            self.open_stamp.resize(clauses, 0);
            self.open.resize(clauses, 0);
            self.resid_stamp.resize(clauses, 0);
            self.residual.resize(clauses, 0);
            self.dead.resize(clauses, 0);
            self.mark.resize(clauses, 0);
        }
    }

    #[inline(always)]
    pub(super) fn is_dead(&self, db: &Db, c: usize) -> bool {
        self.dead[c] == self.node || db.weight[c] == 0
    }

    #[inline(always)]
    pub(super) fn open_of(&self, db: &Db, c: usize) -> u32 {
        if self.open_stamp[c] == self.node {
            self.open[c]
        } else {
            db.open[c]
        }
    }

    pub(super) fn remaining(&self, db: &Db, c: usize) -> u64 {
        if self.resid_stamp[c] == self.node {
            self.residual[c]
        } else {
            db.weight[c]
        }
    }

    #[inline(always)]
    pub(super) fn assign(&mut self, l: Lit, why: u32) {
        self.val[l.code()] = 1;
        self.val[(!l).code()] = -1;
        self.reason[l.var().index()] = why;
        self.trail.push(l);
        self.trail_decs.push(self.decs.len() as u32);
    }

    /// Undoes the simulation back to `trail` assignments.
    pub(super) fn undo(&mut self, trail: usize) {
        if trail >= self.trail.len() {
            return;
        }
        let decs = self.trail_decs[trail] as usize;
        for &l in &self.trail[trail..] {
            self.val[l.code()] = 0;
            self.val[(!l).code()] = 0;
        }
        self.trail.truncate(trail);
        self.trail_decs.truncate(trail);
        for &c in &self.decs[decs..] {
            self.open[c as usize] += 1;
        }
        self.decs.truncate(decs);
    }

    /// One clause `c` lost a literal to the simulation: its conflict, or its implied literal.
    #[inline(always)]
    pub(super) fn visit(&mut self, db: &Db, c: usize) -> Option<u32> {
        let open = self.open_of(db, c) - 1;
        self.open_stamp[c] = self.node;
        self.open[c] = open;
        self.decs.push(c as u32);
        match open {
            0 => return Some(c as u32),
            1 => {
                self.ticks += (db.start[c + 1] - db.start[c]) as u64;
                let unit = db
                    .clause(c)
                    .iter()
                    .copied()
                    .find(|l| db.value[l.code()] == 0 && self.val[l.code()] >= 0);
                if let Some(l) = unit
                    && self.val[l.code()] == 0
                {
                    self.assign(l, c as u32);
                }
            }
            _ => {}
        }
        None
    }

    /// Propagates the simulated assignments from trail position `from`; returns the clause left
    /// without a literal, if any.
    pub(super) fn propagate(&mut self, db: &Db, mut from: usize) -> Option<u32> {
        while from < self.trail.len() {
            let p = self.trail[from];
            from += 1;
            let occ = db.active(!p);
            self.ticks += occ.len() as u64;
            for &k in occ {
                let c = db.clause_of[k as usize] as usize;
                if !self.is_dead(db, c)
                    && let Some(conflict) = self.visit(db, c)
                {
                    return Some(conflict);
                }
            }
            let added = &db.added_occ[(!p).code()];
            self.ticks += added.len() as u64;
            for &c in added {
                let c = c as usize;
                if db.sat[c] == 0
                    && !self.is_dead(db, c)
                    && let Some(conflict) = self.visit(db, c)
                {
                    return Some(conflict);
                }
            }
        }
        None
    }

    /// Adds to `subset` the clauses of the implication graph behind clause `c` (the conflict),
    /// marking them with the current `mark_stamp`.
    pub(super) fn collect(&mut self, db: &Db, c: u32) {
        let first = self.subset.len();
        if self.mark[c as usize] != self.mark_stamp {
            self.mark[c as usize] = self.mark_stamp;
            self.subset.push(c);
        }
        let mut i = first;
        while i < self.subset.len() {
            let d = self.subset[i] as usize;
            i += 1;
            self.ticks += (db.start[d + 1] - db.start[d]) as u64;
            for &l in db.clause(d) {
                if db.value[l.code()] != 0 || self.val[l.code()] != -1 {
                    continue;
                }
                let r = self.reason[l.var().index()];
                if r != NONE && self.mark[r as usize] != self.mark_stamp {
                    self.mark[r as usize] = self.mark_stamp;
                    self.subset.push(r);
                }
            }
        }
    }

    /// Takes the smallest remaining weight of the soft clauses of `subset` off each of them
    /// and returns it; `None` when the subset holds no soft clause (the hard clauses alone
    /// then have no model extending the assignment). Clears `subset`.
    pub(super) fn consume(&mut self, db: &Db) -> Option<u64> {
        let w = self
            .subset
            .iter()
            .filter(|&&c| db.weight[c as usize] != HARD)
            .map(|&c| self.remaining(db, c as usize))
            .min()
            .filter(|&w| w > 0);
        if let Some(w) = w {
            for i in 0..self.subset.len() {
                let c = self.subset[i] as usize;
                if db.weight[c] != HARD {
                    self.residual[c] = self.remaining(db, c) - w;
                    self.resid_stamp[c] = self.node;
                    if self.residual[c] == 0 {
                        self.dead[c] = self.node;
                    }
                }
            }
        }
        self.subset.clear();
        w
    }
}

impl BranchAndBound {
    /// Propagates every available unit soft clause not yet true in the simulation, most recent
    /// first. Returns a conflict clause, or `None` with the units' consequences assigned.
    pub(super) fn propagate_units(&mut self) -> Option<u32> {
        let (db, sim) = (&self.db, &mut self.sim);
        for &u in self.units.iter().rev() {
            let u = u as usize;
            if db.sat[u] > 0 || db.open[u] != 1 || sim.is_dead(db, u) {
                continue;
            }
            let Some(l) = db.first_open(u) else {
                continue;
            };
            match sim.val[l.code()] {
                1 => {}
                -1 => return Some(u as u32),
                _ => {
                    let from = sim.trail.len();
                    sim.assign(l, u as u32);
                    if let Some(c) = sim.propagate(db, from) {
                        return Some(c);
                    }
                }
            }
        }
        None
    }

    /// A lower bound on what every extension of the assignment adds to `cost + empty`, which
    /// transformations may raise meanwhile: disjoint inconsistent subsets by simulated unit
    /// propagation (small ones transformed by max-resolution, the others set aside for this
    /// node), then failed literals probed on top of the units' consequences. Stops once the
    /// total reaches `ub`; `u64::MAX` when the hard clauses alone are refuted. Leaves the
    /// simulation to the caller to undo.
    pub(super) fn bound(&mut self, ub: u64) -> u64 {
        let mut lb = 0u64;
        let reached = |s: &Self, lb: u64| (s.cost + s.empty).saturating_add(lb) >= ub;
        while let Some(c) = self.propagate_units() {
            self.sim.mark_stamp += 1;
            self.sim.collect(&self.db, c);
            if self.transform && self.transformable(c) {
                let soft = self.transform(c);
                #[cfg(test)]
                self.check_exact();
                self.sim.subset.clear();
                if !soft {
                    return u64::MAX;
                }
                self.sim.undo(0);
                if reached(self, lb) {
                    return lb;
                }
                continue;
            }
            let Some(w) = self.sim.consume(&self.db) else {
                return u64::MAX;
            };
            lb = lb.saturating_add(w);
            if reached(self, lb) {
                return lb;
            }
            self.sim.undo(0);
        }
        if !self.probe {
            return lb;
        }
        self.probe_failed_literals(lb, ub)
    }
}
