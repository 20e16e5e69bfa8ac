//! Bounded variable elimination (BVE): remove a variable by replacing the clauses that
//! contain it with all their non-tautological resolvents on it, when that does not increase
//! the number of clauses.
//!
//! Davis & Putnam (JACM 1960) for the resolution rule; Eén & Biere, "Effective preprocessing in
//! SAT through variable and clause elimination" (SAT 2005, SatELite) for the bound and the
//! model reconstruction. Ours runs once, before the first search, on the irredundant clauses
//! (after backward subsumption, which removes duplicates and subsumed clauses),
//! cheapest variables first (fewest `|pos|·|neg|`), skipping variables with more than
//! `eliminate_occurrences` occurrences of either sign or resolvents longer than
//! `eliminate_clause_length`, within `eliminate_effort` literal visits per literal of the
//! formula. Variables of the first call's assumptions and `freeze`d variables are kept.
//!
//! Incremental use: a later clause or assumption that mentions an eliminated variable makes the
//! engine re-add every eliminated clause (`restore_eliminated`) — always correct, and the
//! resolvents stay (they are implied). Proofs: resolvents are logged as additions (they are
//! RUP); the deletions of eliminated clauses are *not* logged, so a restoration re-adds clauses
//! the proof still holds.
//!
//! Model reconstruction: eliminated clauses are kept on a stack with their witness literal
//! (the eliminated variable's literal) first. Going through the stack backwards, a clause the
//! model falsifies gets its witness made true (`extend_model`).

use crate::clause::{CRef, NO_REASON};
use crate::solver::Solver;
use crate::types::{L_FALSE, L_TRUE, L_UNDEF, Lit, Var};

impl Solver {
    /// Whether elimination should run now: once, at the first solve, when enabled.
    pub(crate) fn eliminating(&self) -> bool {
        self.opts.eliminate && !self.elim_done && self.decision_level() == 0 && self.ok
    }

    /// Runs bounded variable elimination (see the module doc). Pre: level 0.
    pub(crate) fn eliminate(&mut self) {
        self.elim_done = true;
        if self.propagate() != NO_REASON {
            self.ok = false;
            self.proof_empty();
            return;
        }
        if self.simplifying() {
            self.simplify();
        }
        let n = self.num_vars();
        let mut frozen = self.frozen.clone();
        for a in &self.assumptions {
            frozen[a.var().index()] = true;
        }
        let mut occ: Vec<Vec<CRef>> = vec![Vec::new(); 2 * n];
        let mut literals = 0usize;
        for &c in &self.originals {
            for &l in self.arena.lits(c) {
                occ[l.code()].push(c);
                literals += 1;
            }
        }
        let budget = (literals as f64 * self.opts.eliminate_effort) as u64;
        let mut marks = vec![0u8; 2 * n];
        let mut ticks = self.subsume(&mut occ, &mut marks, budget / 2);
        let max_occ = self.opts.eliminate_occurrences as usize;
        let max_len = self.opts.eliminate_clause_length as usize;
        let extra = self.opts.eliminate_bound as usize;
        let mut candidates: Vec<usize> = (0..n)
            .filter(|&v| !frozen[v] && self.vals[2 * v] == L_UNDEF)
            .filter(|&v| {
                let (p, q) = (occ[2 * v].len(), occ[2 * v + 1].len());
                p + q > 0 && p <= max_occ && q <= max_occ
            })
            .collect();
        candidates.sort_by_key(|&v| (occ[2 * v].len() * occ[2 * v + 1].len(), v));
        let mut resolvents: Vec<Vec<Lit>> = Vec::new();
        for v in candidates {
            if ticks > budget || !self.ok {
                break;
            }
            if self.vals[2 * v] != L_UNDEF {
                continue;
            }
            let pos = Var::from_index(v).pos();
            let neg = Var::from_index(v).neg();
            for l in [pos, neg] {
                let arena = &self.arena;
                occ[l.code()].retain(|&c| !arena.is_deleted(c));
            }
            let (ps, ns) = (occ[pos.code()].clone(), occ[neg.code()].clone());
            // No clause left (subsumption removed them): nothing to eliminate, and a decision
            // gives the variable its value.
            if ps.is_empty() && ns.is_empty() {
                continue;
            }
            if ps.len() > max_occ || ns.len() > max_occ {
                continue;
            }
            resolvents.clear();
            let mut feasible = true;
            'pairs: for &a in &ps {
                for &b in &ns {
                    ticks += (self.arena.len(a) + self.arena.len(b)) as u64;
                    if let Some(r) = self.resolve(a, b, v, &mut marks) {
                        if r.len() > max_len || resolvents.len() >= ps.len() + ns.len() + extra {
                            feasible = false;
                            break 'pairs;
                        }
                        resolvents.push(r);
                    }
                }
            }
            if !feasible {
                continue;
            }
            // Eliminate: save the clauses for reconstruction, remove them, add resolvents.
            for &c in ps.iter().chain(ns.iter()) {
                let witness = if self.arena.lits(c).contains(&pos) {
                    pos
                } else {
                    neg
                };
                self.elim_stack.push(witness);
                for k in 0..self.arena.len(c) {
                    let l = self.arena.lits(c)[k];
                    if l != witness {
                        self.elim_stack.push(l);
                    }
                }
                self.elim_ends.push(self.elim_stack.len() as u32);
                self.detach(c);
                self.arena.delete(c);
            }
            self.eliminated[v] = true;
            self.stats.eliminated += 1;
            for r in std::mem::take(&mut resolvents) {
                self.proof_add(&r);
                let before = self.originals.len();
                self.add_irredundant(&r);
                if !self.ok {
                    break;
                }
                if self.originals.len() > before
                    && let Some(&c) = self.originals.last()
                {
                    for k in 0..self.arena.len(c) {
                        let l = self.arena.lits(c)[k];
                        occ[l.code()].push(c);
                    }
                }
                self.stats.resolvents += 1;
            }
        }
        // Learned clauses over eliminated variables would resurrect them: drop them (they are
        // implied, so nothing is lost but speed). Only present when elimination follows
        // earlier solves.
        let learnts = std::mem::take(&mut self.learnts);
        for &c in &learnts {
            if !self.arena.is_deleted(c)
                && self
                    .arena
                    .lits(c)
                    .iter()
                    .any(|l| self.eliminated[l.var().index()])
            {
                self.detach(c);
                self.arena.delete(c);
            }
        }
        self.learnts = learnts;
        let arena = &self.arena;
        self.learnts.retain(|&c| !arena.is_deleted(c));
        self.originals.retain(|&c| !arena.is_deleted(c));
        self.collect_garbage();
    }

    /// Backward subsumption over the irredundant clauses: a clause contained in another
    /// (duplicates included) deletes the larger one. Duplicates and subsumed clauses block
    /// elimination otherwise: on cmu-bmc-longmult15, 576 of 586 candidates failed the bound,
    /// many of them with the same clause three times. Returns the literal visits spent.
    fn subsume(&mut self, occ: &mut [Vec<CRef>], marks: &mut [u8], budget: u64) -> u64 {
        let mut order: Vec<CRef> = self.originals.clone();
        order.sort_by_key(|&c| (self.arena.len(c), c));
        let mut ticks = 0u64;
        for c in order {
            if ticks > budget {
                break;
            }
            if self.arena.is_deleted(c) {
                continue;
            }
            let len = self.arena.len(c);
            // The literal of `c` with the shortest occurrence list.
            let mut best = self.arena.lits(c)[0];
            for &l in self.arena.lits(c) {
                if occ[l.code()].len() < occ[best.code()].len() {
                    best = l;
                }
            }
            for k in 0..len {
                let l = self.arena.lits(c)[k];
                marks[l.code()] = 1;
            }
            let candidates = std::mem::take(&mut occ[best.code()]);
            for &d in &candidates {
                if d == c || self.arena.is_deleted(d) || self.arena.len(d) < len {
                    continue;
                }
                ticks += self.arena.len(d) as u64;
                let inside = self
                    .arena
                    .lits(d)
                    .iter()
                    .filter(|l| marks[l.code()] != 0)
                    .count();
                if inside == len {
                    self.proof_delete_clause(d);
                    self.detach(d);
                    self.arena.delete(d);
                    self.stats.subsumed += 1;
                }
            }
            occ[best.code()] = candidates;
            for k in 0..len {
                let l = self.arena.lits(c)[k];
                marks[l.code()] = 0;
            }
        }
        ticks
    }

    /// The resolvent of `a` (containing v) and `b` (containing ¬v) on `v`, without level-0
    /// false literals; `None` when tautological or satisfied at level 0.
    fn resolve(&self, a: CRef, b: CRef, v: usize, marks: &mut [u8]) -> Option<Vec<Lit>> {
        let mut out = Vec::with_capacity(self.arena.len(a) + self.arena.len(b));
        let mut result = Some(());
        for &l in self.arena.lits(a).iter().chain(self.arena.lits(b).iter()) {
            if l.var().index() == v {
                continue;
            }
            match self.lit_value(l) {
                L_TRUE => {
                    result = None;
                    break;
                }
                L_FALSE => continue,
                _ => {}
            }
            if marks[(!l).code()] != 0 {
                result = None;
                break;
            }
            if marks[l.code()] == 0 {
                marks[l.code()] = 1;
                out.push(l);
            }
        }
        for &l in &out {
            marks[l.code()] = 0;
        }
        result.map(|()| out)
    }

    /// Gives eliminated variables the values that satisfy the eliminated clauses (module doc).
    pub(crate) fn extend_model(&mut self) {
        // Start from the value a decision would have chosen (user phase, else saved phase),
        // so reconstruction overrides preferences only where an eliminated clause demands it.
        for v in 0..self.model.len() {
            if self.eliminated[v] && self.model[v] == L_UNDEF {
                self.model[v] = match self.user_phase[v] {
                    L_UNDEF => {
                        if self.saved[v] {
                            L_TRUE
                        } else {
                            L_FALSE
                        }
                    }
                    p => p,
                };
            }
        }
        let mut end = self.elim_stack.len();
        for i in (0..self.elim_ends.len()).rev() {
            let start = if i == 0 {
                0
            } else {
                self.elim_ends[i - 1] as usize
            };
            debug_assert_eq!(end, self.elim_ends[i] as usize);
            let clause = &self.elim_stack[start..end];
            end = start;
            let satisfied = clause.iter().any(|&l| {
                let x = self.model[l.var().index()];
                (if l.is_negative() { -x } else { x }) == L_TRUE
            });
            if !satisfied {
                let w = clause[0];
                self.model[w.var().index()] = if w.is_positive() { L_TRUE } else { L_FALSE };
            }
        }
    }

    /// Re-adds every eliminated clause and makes the variables ordinary again.
    pub(crate) fn restore_eliminated(&mut self) {
        let stack = std::mem::take(&mut self.elim_stack);
        let ends = std::mem::take(&mut self.elim_ends);
        for v in 0..self.num_vars() {
            if self.eliminated[v] {
                self.eliminated[v] = false;
                self.heap.insert(v, &self.activity);
            }
        }
        self.stats.restored += 1;
        let mut start = 0usize;
        for &end in &ends {
            self.add_irredundant(&stack[start..end as usize]);
            start = end as usize;
        }
    }
}
