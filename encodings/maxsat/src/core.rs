//! Making cores smaller and bounds tighter before they are relaxed: trimming, deletion-based
//! minimisation and exhaustion.
//!
//! **Trimming** re-solves under the core's own literals; the engine's final conflict analysis
//! often names fewer of them the second time. Repeated while the core shrinks, up to
//! `trim` times (RC2's `trim`, from MSCG: Morgado, Ignatiev & Marques-Silva, "MSCG: robust
//! core-guided MaxSAT solving", JSAT 9, 2015).
//!
//! **Minimisation** is deletion-based MUS extraction under a conflict budget: drop one literal
//! (lightest first, so that the heavy ones are the ones kept and the core's minimum weight
//! grows), and if the rest is still UNSAT keep the engine's failed subset of the rest, which
//! may drop several at once; a SAT answer keeps the literal; the first probe that runs out of
//! budget ends the minimisation (RC2's `minz`, 1000 conflicts per probe). Smaller cores mean
//! smaller totalizers and tighter relaxations. **Where ours differs from RC2:** RC2 keeps the
//! whole tested set on UNSAT; we keep the failed subset of it.
//!
//! **Exhaustion** ("cover optimisation", Ansótegui, Bonet, Gabàs & Levy, CP 2012; RC2's
//! `exhaust`): a fresh totalizer's bound starts at 1; while the engine proves "at most b
//! violated" impossible under the hard clauses alone, every model violates b + 1 of the core,
//! so the lower bound rises by the core's weight and b grows. It replaces a chain of cores that
//! would each rediscover the same totalizer. Ours stops as soon as a raise could only prove
//! the best model optimal (see `exhaust`). Each call starts from the best model's phases
//! (`exhaust_phases`): the answer "at most b is possible" is usually found near it. Tried and
//! dropped: exhausting under every live term of the stratum as well as the bound (a raise only
//! when the core is the bound alone) — 14% faster on four rmax instances, 43% slower over all
//! of `maxsat-main` (151 → 216 s CPU); capping each call at 1× or 3× the conflicts of the main
//! call that found the core (76.5 → 96.6 and 80.6 s on eight heavy instances); exhausting only
//! cores without totalizer outputs (weighted set cover and min-ones 2–4× slower).

use grim_solver::{Lit, Status};

use grim_encodings::card::totalizer::Totalizer;

use super::Event;
use super::oll::Oll;

impl Oll {
    /// Trims and minimises `core` (the failed assumptions of an UNSAT answer) as the options
    /// ask; returns a core again (a subset that is still UNSAT with the clauses), sorted by
    /// term index so that processing is deterministic.
    pub(super) fn shrink(&mut self, mut core: Vec<Lit>) -> Vec<Lit> {
        let start = self.solver.stats().conflicts;
        core.sort_unstable_by_key(|&l| self.term_index(l));
        core.dedup();
        for round in 0..self.opts.trim {
            if core.len() <= 1 {
                break;
            }
            self.stats.probe_calls += 1;
            // In the order of the call that found the core, the engine would walk the same
            // implications and name the same core (measured: never smaller); reversed, the
            // last assumptions are propagated first and the analysis often stops earlier.
            let order: Vec<Lit> = if round % 2 == 0 {
                core.iter().rev().copied().collect()
            } else {
                core.clone()
            };
            if self.call(&order, None) != Status::Unsat {
                break;
            }
            let failed = self.solver.failed_assumptions();
            if failed.is_empty() || failed.len() >= core.len() {
                break;
            }
            self.stats.trimmed += (core.len() - failed.len()) as u64;
            let failed = sorted(failed);
            core.retain(|l| failed.binary_search(l).is_ok());
        }
        if self.opts.minimize_conflicts > 0 && core.len() > 1 {
            // Lightest first (ties by term order).
            core.sort_by_key(|&l| {
                let t = self.term_index(l);
                (t.map_or(0, |t| self.terms[t].weight), t)
            });
            let mut i = 0;
            while i < core.len() && core.len() > 1 {
                let test = [&core[..i], &core[i + 1..]].concat();
                self.stats.probe_calls += 1;
                let status = self.call(&test, Some(self.opts.minimize_conflicts));
                match status {
                    Status::Unsat => {
                        let failed = self.solver.failed_assumptions();
                        if failed.is_empty() {
                            break;
                        }
                        let failed = sorted(failed);
                        let before = core.len();
                        core = test;
                        core.retain(|l| failed.binary_search(l).is_ok());
                        self.stats.minimized += (before - core.len()) as u64;
                    }
                    Status::Sat => i += 1,
                    Status::Unknown => {
                        self.stats.probe_unknown += 1;
                        break;
                    }
                }
            }
            core.sort_unstable_by_key(|&l| self.term_index(l));
        }
        self.stats.probe_conflicts += self.solver.stats().conflicts - start;
        core
    }

    /// Raises the bound of a fresh totalizer (over `k` violation literals of a core of weight
    /// `w`, currently "at most 1" via `lit`) while the engine proves the bound impossible.
    /// Returns the final bound and its literal, or `None` when every input must be violated
    /// (the caller then adds each as a fact; the totalizer needs no term).
    pub(super) fn exhaust(
        &mut self,
        tot: &mut Totalizer,
        mut lit: Lit,
        w: u64,
        on_event: &mut dyn FnMut(Event<'_>),
    ) -> Option<(usize, Lit)> {
        let mut bound = 1;
        loop {
            // Stop when one more raise could only close the gap: lb + w ≥ best cost means a
            // successful raise proves the best model optimal, and the main loop's next call asks
            // the same question under every live term, a stronger query than this one under a
            // single literal. On rmax2_42_420_1 the last exhaustion call before the proof was a
            // SAT answer worth 211k of its 791k conflicts; with the rule, 782k in all (the main
            // call does the proof), wsc_250_150_4_50_3 180k → 163k.
            if self
                .best_cost()
                .is_some_and(|ub| self.lb.saturating_add(w) >= ub)
            {
                return Some((bound, lit));
            }
            if self.opts.exhaust_phases
                && let Some((_, model)) = &self.best
            {
                self.solver.seed_phases(model);
            }
            let start = self.solver.stats().conflicts;
            let cap = Some(self.opts.exhaust_conflicts).filter(|&c| c > 0);
            let status = self.call(&[lit], cap);
            self.stats.exhaust_conflicts += self.solver.stats().conflicts - start;
            match status {
                Status::Unsat if !self.solver.failed_assumptions().is_empty() => {
                    self.raise_lb(w);
                    if let Some(proof) = &mut self.proof {
                        // "At least bound + 1 violated": the unit pays w (`veripb.rs`).
                        let id = proof.core_clause(&mut self.solver, &[!lit]);
                        proof.ledger_add(id, w);
                    }
                    self.stats.exhausted += 1;
                    bound += 1;
                    match self.at_most(tot, bound) {
                        Some(l) => lit = l,
                        None => return None,
                    }
                }
                Status::Sat => {
                    self.record_model(on_event);
                    return Some((bound, lit));
                }
                _ => return Some((bound, lit)),
            }
        }
    }
}

fn sorted(lits: &[Lit]) -> Vec<Lit> {
    let mut v = lits.to_vec();
    v.sort_unstable();
    v
}
