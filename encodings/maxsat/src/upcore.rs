//! Cores from unit propagation: before the search is asked for a core, look for the small ones
//! that propagation alone exposes, and relax the smallest first.
//!
//! **Technique.** Under the assumptions of the stratum, probe both literals of every variable
//! of the instance ([`Solver::probe`](grim_solver::Solver::probe)). When `x` and `¬x` each
//! propagate to a conflict, the union of the two sets of assumptions behind the conflicts
//! (without `x`) is a core: resolution on `x`. These are the inconsistent subsets that
//! branch-and-bound MaxSAT solvers detect for their lower bounds (failed literals; Li, Manyà &
//! Planes, JAIR 30, 2007). They cost one propagation each and no conflict.
//!
//! **Why it matters.** OLL's later queries are as hard as its reformulation, and the
//! reformulation is as large as its cores. The cores the search finds are whatever its first
//! conflicts touch: on rmax2_42_420_1 (random Max-2-SAT, 42 variables, 420 soft clauses) the
//! first 28 cores the search found had 6–16 soft clauses (RC2's had the same sizes), while the
//! failed-literal cores, smallest first, have 4–7; the optimum 55 is then proved in 6.5k
//! conflicts instead of 770k (21 s → 0.13 s), and max-cut gains as much. UWrMaxSat's cores on
//! that instance have the same small sizes, which is what led here.
//!
//! **Measured** (`benches/oll-seeds.sh -s "0 1 2" -j 2 -t 60`, all 52 instances of
//! `maxsat-main` under engine seeds 0, 1 and 2, CPU seconds, means over the seeds): 163.2 →
//! 124.9 s and 6.35M → 4.46M conflicts. Random Max-2-SAT 46.2 → 3.6 s, max-cut 10.6 → 0.3 s;
//! the families whose cores come from long clauses or from hard clauses, where propagation
//! finds few cores, moved within noise or lost a little: weighted Max-3-SAT 42.7 → 47.9 s,
//! weighted set cover 30.4 → 36.6 s, min-ones 14.5 → 16.7 s.
//!
//! **How.** One probing pass yields a candidate core per variable. Candidates are taken
//! smallest first (ties: heavier minimum weight first, then term order); each is minimised and
//! processed like any core (with weight-aware core extraction, its terms leave the stratum at
//! weight 0). A candidate that lost a term to an earlier one is skipped; when none is left, the
//! next pass probes again under the reduced stratum, until a pass finds no core. The phase runs
//! before the first main call and after every SAT answer (a new stratum or new totalizer
//! outputs can expose new propagation cores); between SAT answers the stratum only shrinks, and
//! a smaller set of assumptions propagates no new conflicts.

use grim_solver::{Lit, Probes, Var};

use super::Event;
use super::oll::Oll;

/// Propagations probing may spend beyond those of the rest of the run.
const UP_ALLOWANCE: u64 = 2_000_000;

/// The phase's schedule (`Oll::up`), written only here.
#[derive(Debug)]
pub(super) struct UpCores {
    /// A pass is due: none ran since the last SAT answer (or the start).
    due: bool,
}

impl UpCores {
    pub(super) fn new() -> UpCores {
        UpCores { due: true }
    }

    /// A SAT answer: a new stratum or new totalizer outputs may expose new propagation cores.
    pub(super) fn after_model(&mut self) {
        self.due = true;
    }
}

impl Oll {
    /// Whether the phase is due: on (`up_cores`), and no pass since the last SAT answer.
    pub(super) fn up_cores_due(&self) -> bool {
        self.up.due && self.opts.up_cores
    }

    /// Runs the phase described above. Stops early when the lower bound meets the best cost.
    pub(super) fn up_cores(&mut self, on_event: &mut dyn FnMut(Event<'_>)) {
        self.up.due = false;
        loop {
            // Effort: probing may use as many propagations as the rest of the run, plus a
            // fixed allowance; a stop request ends it too (probing does not look at it).
            let spent = self.stats.up_propagations;
            let rest = self.solver.stats().propagations.saturating_sub(spent);
            if spent > UP_ALLOWANCE.saturating_add(rest) || self.solver.terminator().is_set() {
                return;
            }
            let candidates = self.up_candidates();
            if candidates.is_empty() {
                return;
            }
            let mut progress = false;
            for core in candidates {
                if !core.iter().all(|&l| self.is_assumed(l)) {
                    continue;
                }
                progress = true;
                self.stats.up_cores += 1;
                let core = self.shrink(core);
                self.process_core(&core, on_event);
                self.harden();
                self.report_lb(on_event);
                if self.best_cost().is_some_and(|ub| ub <= self.lb) {
                    return;
                }
            }
            if !progress {
                return;
            }
        }
    }

    /// One probing pass: the candidate cores, smallest first (see the file comment).
    fn up_candidates(&mut self) -> Vec<Vec<Lit>> {
        let assumptions = self.stratum();
        if assumptions.is_empty() {
            return Vec::new();
        }
        let vars: Vec<Var> = (0..self.num_vars)
            .filter_map(|v| Var::new(v as u32))
            .filter(|x| self.solver.fixed(x.pos()).is_none())
            .collect();
        let probes: Vec<Lit> = vars.iter().flat_map(|x| [x.pos(), x.neg()]).collect();
        self.stats.up_probes += probes.len() as u64;
        let before = self.solver.stats().propagations;
        let probed = self.solver.probe(&assumptions, &probes);
        self.stats.up_propagations += self.solver.stats().propagations - before;
        let mut candidates = match probed {
            // A core already (clauses learned by earlier searches propagate it). Empty: the
            // hard clauses are unsatisfiable, which the main call reports.
            Probes::AssumptionsFail(f) if f.is_empty() => return Vec::new(),
            Probes::AssumptionsFail(f) => {
                if let Some(proof) = &mut self.proof {
                    proof.core(&mut self.solver, &f);
                }
                return vec![f];
            }
            Probes::Each(each) => {
                let mut out = Vec::new();
                for (x, pair) in vars.iter().zip(each.chunks(2)) {
                    // Each set contains its probe: the assumptions alone propagated without
                    // conflict, so every conflict's cone reaches the probe's level.
                    let (Some(a), Some(b)) = (&pair[0], &pair[1]) else {
                        continue;
                    };
                    let mut core: Vec<Lit> = a
                        .iter()
                        .chain(b)
                        .copied()
                        .filter(|l| l.var() != *x)
                        .collect();
                    core.sort_unstable();
                    core.dedup();
                    if !core.is_empty() {
                        if let Some(proof) = &mut self.proof {
                            // Each probe's failed set is RUP now; the core is their resolvent
                            // on the probe, RUP once both are in (`veripb.rs`).
                            proof.core(&mut self.solver, a);
                            proof.core(&mut self.solver, b);
                            proof.core(&mut self.solver, &core);
                        }
                        out.push(core);
                    }
                }
                out
            }
        };
        let key = |oll: &Oll, core: &[Lit]| {
            let min_w = core
                .iter()
                .filter_map(|&l| oll.term_index(l))
                .map(|t| oll.terms[t].weight)
                .min()
                .unwrap_or(0);
            (core.len(), std::cmp::Reverse(min_w))
        };
        candidates.sort_by_cached_key(|c| (key(self, c), c.clone()));
        candidates.dedup();
        candidates
    }

    /// Whether `lit` is the literal of a term the current stratum assumes.
    fn is_assumed(&self, lit: Lit) -> bool {
        self.term_index(lit)
            .is_some_and(|t| self.in_stratum(&self.terms[t]))
    }
}
