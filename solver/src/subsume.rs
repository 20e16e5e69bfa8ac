//! Forward subsumption and self-subsuming strengthening during search, over the irredundant
//! clauses and the learned clauses of tiers 1 and 2.
//!
//! A clause `d ⊆ c` makes `c` redundant (subsumption); a clause `d = (d' ∨ ¬k)` with
//! `d' ⊆ c \ {k}` and `k ∈ c` lets `c` lose `k` (self-subsuming resolution: the resolvent of
//! `c` and `d` on `k` is `c \ {k}`). Learned clauses duplicate and subsume each other and the
//! irredundant ones more often than one would guess, and every such clause costs watches.
//!
//! Forward, with one-watch occurrence lists (Bayardo & Panda, "Fast algorithms for finding
//! extremal sets", SDM 2011; Biere's CaDiCaL `subsume.cpp`): candidates are visited shortest
//! first; each is checked against the clauses already visited that share a literal with it
//! (found through the one literal each visited clause is listed under — the one with the
//! shortest list so far), then listed itself. A learned clause that subsumes an irredundant
//! one becomes irredundant. Eén & Biere (SAT 2005) for self-subsuming resolution.
//!
//! Runs at level 0 in the search ladder every `subsume_interval` · √rounds conflicts, within
//! `subsume_effort` literal visits per propagation of search since the previous round (plus
//! ten per candidate).
//! Deviations: clauses longer than `subsume_clause_length` are skipped, and clauses with a
//! level-0 literal are left to `simplify.rs`.
//!
//! Proofs: a strengthened clause is added (RUP: with `d`, its negation propagates `¬k`, and
//! then `c` is falsified — its LRAT hints are `d`, `c`) before the old one is deleted;
//! subsumed clauses are deleted.

#![forbid(unsafe_code)]

use crate::clause::{CRef, NO_REASON};
use crate::inprocess::Rounds;
use crate::solver::Solver;
use crate::types::{L_UNDEF, Lit};

/// The subsumption schedule: written only here.
#[derive(Default)]
pub(crate) struct Subsume {
    schedule: Rounds,
}

/// What a visited clause `d` does to the candidate.
enum Verdict {
    Nothing,
    Subsumes,
    /// `d` strengthens the candidate by removing this literal.
    Strengthens(Lit),
}

impl Solver {
    /// Whether a subsumption round is due.
    pub(crate) fn subsuming(&self) -> bool {
        self.round_due(self.opts.subsume, &self.subsume.schedule)
    }

    /// One round of forward subsumption and strengthening (module doc). Leaves the solver at
    /// level 0, propagated, or `ok == false`.
    pub(crate) fn subsume_round(&mut self) {
        if !self.start_round(|s| &mut s.subsume.schedule, self.opts.subsume_interval) {
            return;
        }
        self.stats.subsume_rounds += 1;
        let budget = self
            .subsume
            .schedule
            .budget(self.stats.propagations, self.opts.subsume_effort);
        let max_len = self.opts.subsume_clause_length as usize;
        let tier2 = self.reduce.tier2();
        let trail = &self.trail;
        let arena = &self.arena;
        let mut candidates: Vec<CRef> = self
            .clauses
            .originals
            .iter()
            .chain(self.clauses.learnts.iter())
            .copied()
            .filter(|&c| {
                !arena.is_deleted(c)
                    && arena.len(c) <= max_len
                    && (!arena.is_learned(c) || arena.lbd(c) <= tier2)
                    && arena.lits(c).iter().all(|&l| trail.value(l) == L_UNDEF)
            })
            .collect();
        candidates.sort_by_key(|&c| (arena.len(c), c));
        // Plus a base of ten visits per candidate, so the first round (few propagations yet)
        // still gets somewhere.
        let budget = budget + 10 * candidates.len() as u64;
        let n = self.trail.num_vars();
        let mut occs: Vec<Vec<CRef>> = vec![Vec::new(); 2 * n];
        let mut marks = vec![false; 2 * n];
        let mut ticks = 0u64;
        let mut units: Vec<(Lit, u64)> = Vec::new();
        let mut buf: Vec<Lit> = Vec::new();
        for c in candidates {
            if ticks > budget {
                break;
            }
            if self.arena.is_deleted(c) {
                continue;
            }
            let mut c = c;
            // Strengthening may repeat: the shortened clause is checked again.
            'again: loop {
                for &l in self.arena.lits(c) {
                    marks[l.code()] = true;
                }
                let mut verdict = (Verdict::Nothing, NO_REASON);
                'search: for &l in self.arena.lits(c) {
                    for side in [l, !l] {
                        for &d in &occs[side.code()] {
                            if self.arena.is_deleted(d) {
                                continue;
                            }
                            ticks += self.arena.len(d) as u64;
                            let v = self.verdict(d, &marks);
                            if !matches!(v, Verdict::Nothing) {
                                verdict = (v, d);
                                break 'search;
                            }
                        }
                    }
                }
                for &l in self.arena.lits(c) {
                    marks[l.code()] = false;
                }
                match verdict {
                    (Verdict::Nothing, _) => break 'again,
                    (Verdict::Subsumes, d) => {
                        self.stats.subsumed_in_search += 1;
                        if self.arena.is_learned(d) && !self.arena.is_learned(c) {
                            // Leaves `learnts` below, with the deleted ones.
                            self.arena.set_irredundant(d);
                            self.clauses.originals.push(d);
                            self.stats.promoted += 1;
                        }
                        self.proof
                            .delete(self.arena.lits(c), self.arena.id(c), &self.trail);
                        self.arena.delete(c);
                        break 'again;
                    }
                    (Verdict::Strengthens(k), d) => {
                        self.stats.strengthened += 1;
                        buf.clear();
                        buf.extend(self.arena.lits(c).iter().copied().filter(|&l| l != k));
                        // LRAT: `d` is unit on ¬k under the negation of `buf`, then `c` is
                        // falsified.
                        let hints = [self.arena.id(d) as i64, self.arena.id(c) as i64];
                        let id = self.proof.add(&buf, &hints);
                        self.proof
                            .delete(self.arena.lits(c), self.arena.id(c), &self.trail);
                        let learned = self.arena.is_learned(c);
                        let lbd = self.arena.lbd(c).min(buf.len() as u32);
                        self.arena.delete(c);
                        if buf.len() == 1 {
                            units.push((buf[0], id));
                            break 'again;
                        }
                        let Some(new) = self.arena.alloc(&buf, learned, lbd, id) else {
                            self.out_of_memory = true;
                            return;
                        };
                        if learned {
                            self.arena.set_used(new, self.reduce.fresh_used(lbd));
                        }
                        self.clauses.push(new, learned);
                        self.watches.attach(&self.arena, new);
                        c = new;
                    }
                }
            }
            if self.arena.is_deleted(c) {
                continue;
            }
            // List c under its literal with the shortest list.
            let lits = self.arena.lits(c);
            let mut best = lits[0];
            for &l in lits {
                if occs[l.code()].len() < occs[best.code()].len() {
                    best = l;
                }
            }
            occs[best.code()].push(c);
        }
        self.clauses.retain_live(&self.arena);
        let arena = &self.arena;
        self.clauses.learnts.retain(|&c| arena.is_learned(c));
        // Deleted clauses' watches go before anything propagates (`watch.rs` invariant 4).
        self.collect_garbage();
        if !self.fix_units(&units) {
            return;
        }
        self.propagate_root();
        self.subsume.schedule.props_mark = self.stats.propagations;
    }

    /// Whether visited clause `d` subsumes or strengthens the marked candidate.
    fn verdict(&self, d: CRef, marks: &[bool]) -> Verdict {
        let mut flipped = None;
        for &l in self.arena.lits(d) {
            if marks[l.code()] {
                continue;
            }
            if marks[(!l).code()] && flipped.is_none() {
                flipped = Some(!l);
                continue;
            }
            return Verdict::Nothing;
        }
        match flipped {
            None => Verdict::Subsumes,
            Some(k) => Verdict::Strengthens(k),
        }
    }
}
