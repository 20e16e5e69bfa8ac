//! Relaxing a core: weight reduction, totalizers over cores, the lazily activated bounds, and
//! weight-aware core extraction (delayed relaxation).
//!
//! **Technique (OLL).** A core `K` of terms with minimum weight `w` proves that every solution
//! violates at least one of them: the lower bound rises by `w` and each term loses `w` (those
//! at 0 leave the objective). What is left of the cost of the core is `w·max(0, v − 1)` for `v`
//! violated terms of `K`; a totalizer over the violation literals `¬t` counts `v`, and its
//! outputs `o_k` ("at least k + 1 violated") carry that cost: `¬o_1`, "at most one", becomes a
//! term of weight `w`. Only `¬o_1` is assumed at first; when `¬o_k` turns up in a core, `¬o_{k+1}`
//! is activated with the totalizer's weight `w` (its full weight: nothing of it was paid yet).
//! A core of one term is a fact: its negation becomes a hard unit clause.
//!
//! **Papers.** Andres, Kaufmann, Matheis & Schaub, "Unsatisfiability-based optimization in
//! clasp", ICLP 2012 (OLL); Morgado, Dodaro & Marques-Silva, "Core-guided MaxSAT with soft
//! cardinality constraints", CP 2014 (the totalizer form, ¬o_{k+1} on demand); RC2 (JSAT 2019).
//! Weight-aware core extraction: Berg & Järvisalo, CP 2017, doi:10.1007/978-3-319-66158-2_42.
//!
//! **WCE.** With `wce`, the totalizer of a core is not built at once: the core's terms are
//! reduced (the ones at weight 0 stop being assumed, so the same core cannot recur), and the
//! search goes on for further cores among the remaining terms; the totalizers are built at the
//! next SAT answer, which is then not a stratum's end. The lower bound stays valid (each core is
//! a core of the fully relaxed instance too) and the final reformulation is the same as without
//! delay, only the cores found are more often disjoint and cheaper to relax. On an instance
//! with hard clauses a main call that spends `wce_conflicts` while cores wait ends the delay:
//! their totalizers are built then and the search goes on with them (`Oll::wce_cap` says why
//! not on instances without hard clauses). The state after it is the one the same cores would
//! have left without `wce`, so the lower bound and the proof steps are those of that case.

use grim_solver::Lit;

use grim_encodings::card::totalizer::Totalizer;

use super::Event;
use super::oll::{Kind, Oll};
use super::veripb::Holding;

/// A totalizer over the violation literals of a core.
#[derive(Debug)]
struct Sum {
    tot: Totalizer,
    /// The weight of the core that created it: every "at most k" output it activates gets it.
    weight: u64,
    /// The largest bound whose output has been made a term (bounds only grow, one at a time).
    activated: usize,
}

/// The relaxation's state (`Oll::relax`), written only here: the totalizers built so far
/// (`Kind::Output { sum, .. }` indexes them) and the cores whose totalizers weight-aware core
/// extraction delayed.
#[derive(Debug, Default)]
pub(super) struct Relax {
    sums: Vec<Sum>,
    /// Violation literals and weight of each delayed core.
    pending: Vec<(Vec<Lit>, u64)>,
}

impl Oll {
    /// Whether delayed cores wait for their totalizers (`wce`): a SAT answer builds them
    /// instead of moving to the next stratum.
    pub(super) fn relaxing(&self) -> bool {
        !self.relax.pending.is_empty()
    }

    /// Processes a core (term literals, as returned by `shrink`).
    pub(super) fn process_core(&mut self, core: &[Lit], on_event: &mut dyn FnMut(Event<'_>)) {
        let terms: Vec<usize> = core.iter().filter_map(|&l| self.term_index(l)).collect();
        let Some(w) = terms.iter().map(|&t| self.terms[t].weight).min() else {
            return;
        };
        self.raise_lb(w);
        self.stats.cores += 1;
        self.stats.core_literals += terms.len() as u64;
        self.stats.max_core = self.stats.max_core.max(terms.len() as u64);
        let mut violations = Vec::with_capacity(terms.len());
        for &t in &terms {
            self.reduce(t, w);
            let term = &self.terms[t];
            violations.push(!term.lit);
            if let Kind::Output { sum, bound } = term.kind {
                self.activate(sum, bound + 1);
            }
        }
        let entry = match &mut self.proof {
            Some(proof) => {
                let id = proof.core_clause(&mut self.solver, &violations);
                proof.ledger_add(id, w)
            }
            None => 0,
        };
        if let [v] = violations.as_slice() {
            self.stats.unit_cores += 1;
            self.add_fact(*v);
        } else if self.opts.wce {
            self.stats.delayed += 1;
            self.relax.pending.push((violations, w));
            if let Some(proof) = &mut self.proof {
                proof.pending.push(entry);
            }
        } else {
            self.relax(violations, w, entry, on_event);
        }
    }

    /// Builds the totalizers of the cores delayed by weight-aware core extraction.
    pub(super) fn relax_pending(&mut self, on_event: &mut dyn FnMut(Event<'_>)) {
        let entries = match &mut self.proof {
            Some(proof) => std::mem::take(&mut proof.pending),
            None => Vec::new(),
        };
        for (i, (violations, w)) in std::mem::take(&mut self.relax.pending)
            .into_iter()
            .enumerate()
        {
            let entry = entries.get(i).copied().unwrap_or(0);
            self.relax(violations, w, entry, on_event);
        }
    }

    /// Builds a totalizer over `violations` (at least two) with the term "at most one" of
    /// weight `w` (or higher bounds, after exhaustion).
    /// `entry` is the core's ledger entry in the proof, if one is written.
    fn relax(
        &mut self,
        violations: Vec<Lit>,
        w: u64,
        entry: usize,
        on_event: &mut dyn FnMut(Event<'_>),
    ) {
        let mut tot = self.new_totalizer(&violations, 2);
        let Some(lit) = self.at_most(&mut tot, 1) else {
            return; // fewer than two inputs: nothing to count
        };
        if let Some(proof) = &mut self.proof {
            proof.new_sum(entry);
        }
        self.stats.totalizers += 1;
        let exhausted = if self.opts.exhaust {
            self.exhaust(&mut tot, lit, w, on_event)
        } else {
            Some((1, lit))
        };
        let sum = self.relax.sums.len();
        if let Some(proof) = &mut self.proof {
            // E_K counts every output the exhaustion proved and the one made a term.
            let j = exhausted.map_or(violations.len(), |(bound, _)| bound + 1);
            proof.extend_sum(sum, tot.outputs(), j);
        }
        match exhausted {
            Some((bound, lit)) => {
                self.relax.sums.push(Sum {
                    tot,
                    weight: w,
                    activated: bound,
                });
                self.add_term(lit, w, Kind::Output { sum, bound });
            }
            None => {
                // Every input is violated in every solution: they are facts.
                for v in violations {
                    self.add_fact(v);
                }
                self.relax.sums.push(Sum {
                    tot,
                    weight: w,
                    activated: usize::MAX,
                });
            }
        }
    }

    /// Makes "at most `bound`" of totalizer `sum` a term, once (bounds are activated in
    /// increasing order, each when the previous one was in a core).
    pub(super) fn activate(&mut self, sum: usize, bound: usize) {
        let Some(s) = self.relax.sums.get_mut(sum) else {
            return;
        };
        if bound <= s.activated {
            return;
        }
        s.activated = bound;
        let w = s.weight;
        let mut tot = std::mem::take(&mut s.tot);
        let lit = self.at_most(&mut tot, bound);
        if let Some(proof) = &mut self.proof {
            proof.extend_sum(sum, tot.outputs(), bound + 1);
        }
        if let Some(s) = self.relax.sums.get_mut(sum) {
            s.tot = tot;
        }
        if let Some(lit) = lit {
            self.stats.outputs_activated += 1;
            self.add_term(lit, w, Kind::Output { sum, bound });
        }
    }

    /// A totalizer over `inputs` to `bound`; with a proof, its outputs are defined and its
    /// clauses derived before the engine gets them (`veripb.rs`).
    fn new_totalizer(&mut self, inputs: &[Lit], bound: usize) -> Totalizer {
        if self.proof.is_none() {
            return Totalizer::new(&mut self.solver, inputs, bound);
        }
        let mut hold = Holding {
            solver: &mut self.solver,
            clauses: Vec::new(),
        };
        let tot = Totalizer::new(&mut hold, inputs, bound);
        let clauses = hold.clauses;
        self.give_clauses(&tot, clauses);
        tot
    }

    /// [`Totalizer::at_most`], with the proof's definitions and derivations when one is
    /// written.
    pub(super) fn at_most(&mut self, tot: &mut Totalizer, k: usize) -> Option<Lit> {
        if self.proof.is_none() {
            return tot.at_most(&mut self.solver, k);
        }
        let mut hold = Holding {
            solver: &mut self.solver,
            clauses: Vec::new(),
        };
        let lit = tot.at_most(&mut hold, k);
        let clauses = hold.clauses;
        self.give_clauses(tot, clauses);
        lit
    }

    fn give_clauses(&mut self, tot: &Totalizer, clauses: Vec<Vec<Lit>>) {
        if let Some(proof) = &mut self.proof {
            proof.totalizer(&mut self.solver, &tot.inner_nodes(), &clauses);
        }
        for c in &clauses {
            self.solver.add_clause(c);
        }
    }
}
