//! The branch and bound's clause store and search assignment.
//!
//! The clauses are the run's flat formula (`flat.rs`: normalised once for every technique),
//! copied once into arrays of this file's own (`Db::new`): the transformations of
//! `transform.rs` append compensation clauses and lower weights for a subtree, which the shared
//! formula must not see. Facts (the complement symmetry's unit) sit between the hard and the
//! soft clauses, as hard units.
//!
//! The search assignment (`BranchAndBound::assign`, `unassign`) keeps per clause whether it is
//! satisfied and how many literals are open, the falsified soft weight (`cost`) and the
//! falsified hard clauses (`conflicts`), and queues the clauses it leaves unit: soft ones for the
//! bound (`units`, most recent last), hard ones for propagation (`hard_units`). Every
//! transformation is logged (`changes`) with the trail length at which it was made, and
//! `backtrack` undoes assignments and transformations together, latest first.

use grim_solver::{Lit, normalise_clause};

use super::super::flat::Flat;
use super::{BranchAndBound, Db, HARD};

/// A change of the clause database by a transformation, undone when the search backtracks
/// above the node that made it.
#[derive(Clone, Copy, Debug)]
pub(super) enum Change {
    /// Clause `0`'s weight was lowered from `1`.
    Weight(u32, u64),
    /// The last clause was added.
    Clause,
    /// `empty` was raised from this value.
    Empty(u64),
}

impl Db {
    /// The store of `flat`'s clauses with the hard units `facts` between the hard and the soft
    /// clauses, nothing assigned.
    pub(super) fn new(flat: &Flat, facts: &[Lit]) -> Db {
        let num_vars = flat.num_vars;
        let mut lits = Vec::new();
        let mut start = vec![0u32];
        let mut weight = Vec::new();
        let hard = flat.hard().map(|c| (HARD, c));
        let facts = facts.iter().map(|l| (HARD, std::slice::from_ref(l)));
        for (w, c) in hard.chain(facts).chain(flat.soft()) {
            lits.extend_from_slice(c);
            start.push(lits.len() as u32);
            weight.push(w);
        }
        let m = weight.len();
        let mut count = vec![0u32; 2 * num_vars + 1];
        for l in &lits {
            count[l.code() + 1] += 1;
        }
        for i in 1..count.len() {
            count[i] += count[i - 1];
        }
        let occ_start = count.clone();
        let mut occurs = vec![0u32; lits.len()];
        let mut place = vec![0u32; lits.len()];
        let mut clause_of = vec![0u32; lits.len()];
        for c in 0..m {
            for k in start[c] as usize..start[c + 1] as usize {
                let l = lits[k].code();
                occurs[count[l] as usize] = k as u32;
                place[k] = count[l];
                count[l] += 1;
                clause_of[k] = c as u32;
            }
        }
        let occ_len = (0..2 * num_vars)
            .map(|l| occ_start[l + 1] - occ_start[l])
            .collect();
        let open = (0..m).map(|c| start[c + 1] - start[c]).collect();
        Db {
            num_vars,
            lits,
            start,
            weight,
            clause_of,
            occ_start,
            occurs,
            occ_len,
            place,
            added_occ: vec![Vec::new(); 2 * num_vars],
            value: vec![0; 2 * num_vars],
            sat: vec![0; m],
            open,
        }
    }

    pub(super) fn clause(&self, c: usize) -> &[Lit] {
        &self.lits[self.start[c] as usize..self.start[c + 1] as usize]
    }

    pub(super) fn num_clauses(&self) -> usize {
        self.weight.len()
    }

    /// The positions in `lits` of `l` in the unsatisfied original clauses (see the invariant).
    pub(super) fn active(&self, l: Lit) -> &[u32] {
        let s = self.occ_start[l.code()] as usize;
        &self.occurs[s..s + self.occ_len[l.code()] as usize]
    }

    /// Swaps position `k` of `lits` (a literal `l`) out of `l`'s active segment.
    pub(super) fn deactivate(&mut self, l: Lit, k: usize) {
        let last = self.occ_start[l.code()] as usize + self.occ_len[l.code()] as usize - 1;
        let at = self.place[k] as usize;
        let other = self.occurs[last];
        self.occurs[at] = other;
        self.place[other as usize] = at as u32;
        self.occurs[last] = k as u32;
        self.place[k] = last as u32;
        self.occ_len[l.code()] -= 1;
    }

    /// The first unassigned literal of clause `c`.
    pub(super) fn first_open(&self, c: usize) -> Option<Lit> {
        self.clause(c)
            .iter()
            .copied()
            .find(|l| self.value[l.code()] == 0)
    }
}

impl BranchAndBound {
    /// Makes `l` true and updates the clause counts; a hard clause left unit is queued, one
    /// left empty is a conflict. Original clauses it satisfies leave the active occurrences of
    /// their other unassigned literals.
    pub(super) fn assign(&mut self, l: Lit) {
        debug_assert_eq!(self.db.value[l.code()], 0, "assigning an assigned literal");
        let db = &mut self.db;
        db.value[l.code()] = 1;
        db.value[(!l).code()] = -1;
        self.trail.push(l);
        let (s, n) = (
            db.occ_start[l.code()] as usize,
            db.occ_len[l.code()] as usize,
        );
        for i in s..s + n {
            let c = db.clause_of[db.occurs[i] as usize] as usize;
            db.sat[c] = 1;
            for k in db.start[c] as usize..db.start[c + 1] as usize {
                let x = db.lits[k];
                if db.value[x.code()] == 0 {
                    db.deactivate(x, k);
                }
            }
            self.sim.ticks += (db.start[c + 1] - db.start[c]) as u64;
        }
        for &c in &db.added_occ[l.code()] {
            db.sat[c as usize] += 1;
        }
        let (s, n) = (
            db.occ_start[(!l).code()] as usize,
            db.occ_len[(!l).code()] as usize,
        );
        self.sim.ticks += (n + db.added_occ[(!l).code()].len()) as u64;
        let added = db.added_occ[(!l).code()].iter().copied();
        for c in (s..s + n)
            .map(|i| db.clause_of[db.occurs[i] as usize])
            .chain(added)
        {
            let c = c as usize;
            db.open[c] -= 1;
            if db.sat[c] > 0 || db.weight[c] == 0 {
                continue;
            }
            match (db.open[c], db.weight[c] == HARD) {
                (0, true) => self.conflicts += 1,
                (0, false) => self.cost += db.weight[c],
                (1, true) => self.hard_units.push(c as u32),
                (1, false) => self.units.push(c as u32),
                _ => {}
            }
        }
    }

    /// Undoes the last assignment.
    fn unassign(&mut self) {
        let Some(l) = self.trail.pop() else {
            return;
        };
        let db = &mut self.db;
        let (s, n) = (
            db.occ_start[(!l).code()] as usize,
            db.occ_len[(!l).code()] as usize,
        );
        let added = db.added_occ[(!l).code()].iter().copied();
        for c in (s..s + n)
            .map(|i| db.clause_of[db.occurs[i] as usize])
            .chain(added)
        {
            let c = c as usize;
            if db.sat[c] == 0 && db.open[c] == 0 {
                match db.weight[c] {
                    HARD => self.conflicts -= 1,
                    w => self.cost -= w,
                }
            }
            db.open[c] += 1;
        }
        for &c in &db.added_occ[l.code()] {
            db.sat[c as usize] -= 1;
        }
        db.value[l.code()] = 0;
        db.value[(!l).code()] = 0;
        let (s, n) = (
            db.occ_start[l.code()] as usize,
            db.occ_len[l.code()] as usize,
        );
        for i in (s..s + n).rev() {
            let c = db.clause_of[db.occurs[i] as usize] as usize;
            db.sat[c] = 0;
            for k in (db.start[c] as usize..db.start[c + 1] as usize).rev() {
                let x = db.lits[k];
                if x != l && db.value[x.code()] == 0 {
                    db.occ_len[x.code()] += 1;
                }
            }
        }
    }

    /// Undoes assignments and transformations, latest first, until the trail has `len`
    /// entries and no transformation made after that is left.
    pub(super) fn backtrack(&mut self, len: usize) {
        loop {
            match self.changes.last() {
                Some(&(at, change)) if at as usize > len && at as usize >= self.trail.len() => {
                    self.changes.pop();
                    self.undo_change(change);
                }
                _ if self.trail.len() > len => self.unassign(),
                _ => return,
            }
        }
    }

    fn undo_change(&mut self, change: Change) {
        let db = &mut self.db;
        match change {
            Change::Weight(c, old) => db.weight[c as usize] = old,
            Change::Empty(old) => self.empty = old,
            Change::Clause => {
                let c = db.weight.len() - 1;
                let (s, e) = (db.start[c] as usize, db.start[c + 1] as usize);
                for k in s..e {
                    let popped = db.added_occ[db.lits[k].code()].pop();
                    debug_assert_eq!(popped, Some(c as u32), "added clauses out of order");
                }
                db.lits.truncate(s);
                db.start.pop();
                db.weight.pop();
                db.sat.pop();
                db.open.pop();
            }
        }
    }

    /// Propagates the queued hard units; false on a conflict.
    pub(super) fn propagate_hard(&mut self) -> bool {
        while self.conflicts == 0 {
            let Some(c) = self.hard_units.pop() else {
                return true;
            };
            let c = c as usize;
            if self.db.sat[c] > 0 || self.db.open[c] != 1 {
                continue;
            }
            if let Some(l) = self.db.first_open(c) {
                self.assign(l);
            }
        }
        false
    }

    /// Records and applies a weight change.
    pub(super) fn set_weight(&mut self, c: usize, w: u64) {
        let at = self.trail.len() as u32;
        self.changes
            .push((at, Change::Weight(c as u32, self.db.weight[c])));
        self.db.weight[c] = w;
    }

    /// Adds a compensation clause of weight `w` (its literals all unassigned; normalised here:
    /// duplicates dropped, a tautology not added).
    pub(super) fn add_clause(&mut self, lits: &mut Vec<Lit>, w: u64) {
        if !normalise_clause(lits) {
            return;
        }
        debug_assert!(lits.iter().all(|l| self.db.value[l.code()] == 0));
        let db = &mut self.db;
        let c = db.weight.len() as u32;
        for &l in lits.iter() {
            db.added_occ[l.code()].push(c);
        }
        db.lits.extend_from_slice(lits);
        db.start.push(db.lits.len() as u32);
        db.weight.push(w);
        db.sat.push(0);
        db.open.push(lits.len() as u32);
        self.sim.grow(db.weight.len());
        let at = self.trail.len() as u32;
        self.changes.push((at, Change::Clause));
    }
}
