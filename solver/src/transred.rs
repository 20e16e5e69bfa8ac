//! Transitive reduction of the binary implication graph: a binary clause `a ∨ b` whose
//! implication `¬a → b` also follows along a longer path of other binary clauses says nothing
//! those clauses do not, and is deleted. Fewer binary watches make propagation and every walk
//! over the graph (probing, substitution) cheaper; the literals' implications stay the same.
//!
//! For each binary clause (irredundant and learned, in list order from a cursor that carries
//! over between rounds), a breadth-first search from `¬a` over binary implications, skipping
//! the clause itself and assigned literals, looks for `b`. An irredundant clause may only be
//! explained by irredundant binaries: a learned clause that explained it could be reduced
//! away later, and the irredundant formula would then no longer imply the deleted clause. A
//! learned clause may be explained by any. The search meeting `a` on the way proves `¬a → a`:
//! `a` is fixed at level 0 as a failed literal, as probing would.
//!
//! Runs at level 0 in the search ladder every `transred_interval` conflicts (the interval grows
//! with √rounds, like the other graph techniques'), within `transred_effort` edge visits per
//! propagation of search since the previous round, so it stays a small share of the run
//! (CaDiCaL's `transred.cpp` budgets it as a share of search propagations for the same
//! reason: a search per clause over a dense graph is quadratic).
//!
//! Proofs: a deletion is always valid in DRAT and LRAT; the failed literal's unit is RUP
//! (propagating `¬a` along the path reaches `a`; the path's binary clauses are its LRAT hints,
//! read back from the search's parent links). Model reconstruction needs nothing: the irredundant
//! formula is equivalent before and after, and eliminated variables have no clauses here.
//!
//! Aho, Garey & Ullman, "The transitive reduction of a directed graph" (SIAM J. Comput.
//! 1972); as inprocessing: Heule, Järvisalo & Biere, "Efficient CNF simplification based on
//! binary implication graphs" (SAT 2011), CaDiCaL's `transred.cpp`. Ours differs in searching
//! breadth-first (the explaining path is found at its shortest, and the search of one clause
//! stops at the first level that holds the target), and in keeping its own schedule instead
//! of running inside probing.

#![forbid(unsafe_code)]

use crate::clause::CRef;
use crate::inprocess::Rounds;
use crate::solver::Solver;
use crate::types::{L_UNDEF, Lit};

/// The transitive-reduction schedule and its cursor: written only here.
#[derive(Default)]
pub(crate) struct TransRed {
    schedule: Rounds,
    /// Where the next round starts in the clause lists (originals, then learned), so that a
    /// round cut short by its budget does not leave the same clauses unvisited every time.
    cursor: usize,
    /// The search's visited stamp per literal code, and the current stamp.
    stamps: Vec<u32>,
    stamp: u32,
    /// The breadth-first queue, kept between clauses for its allocation.
    queue: Vec<Lit>,
    /// LRAT only: per literal code, the literal and binary clause the search reached it
    /// from, for the path behind a failed literal's unit.
    parent: Vec<(Lit, CRef)>,
}

/// What one clause's search found.
enum Found {
    /// No longer path reaches the target (or the budget ran out first).
    Nothing,
    /// The clause is implied by other binaries.
    Transitive,
    /// The search from `¬a` reached `a` (through this binary clause): `a` holds at level 0.
    Failed(CRef),
}

impl Solver {
    /// Whether a transitive-reduction round is due.
    pub(crate) fn reducing_transitively(&self) -> bool {
        self.round_due(self.opts.transred, &self.transred.schedule)
    }

    /// One round of transitive reduction (module doc). Leaves the solver at level 0 with the
    /// clauses propagated, or `ok == false`.
    pub(crate) fn transred_round(&mut self) {
        if !self.start_round(|s| &mut s.transred.schedule, self.opts.transred_interval) {
            return;
        }
        // Lingering watches of deleted clauses must not count as edges.
        self.collect_garbage();
        let candidates: Vec<CRef> = self
            .clauses
            .originals
            .iter()
            .chain(&self.clauses.learnts)
            .copied()
            .filter(|&c| self.arena.len(c) == 2)
            .collect();
        let budget = self
            .transred
            .schedule
            .budget(self.stats.propagations, self.opts.transred_effort)
            + candidates.len() as u64;
        self.transred.schedule.props_mark = self.stats.propagations;
        if candidates.is_empty() {
            return;
        }
        self.stats.transred_rounds += 1;
        let codes = 2 * self.trail.num_vars();
        if self.transred.stamps.len() < codes {
            self.transred.stamps.resize(codes, 0);
        }
        if self.proof.is_lrat() && self.transred.parent.len() < codes {
            self.transred.parent.resize(codes, (Lit::from_code(0), 0));
        }
        let start = self.transred.cursor % candidates.len();
        let mut ticks = 0u64;
        let mut units: Vec<(Lit, u64)> = Vec::new();
        let mut removed = 0u64;
        let mut visited = 0usize;
        while visited < candidates.len() && ticks < budget {
            let c = candidates[(start + visited) % candidates.len()];
            visited += 1;
            if self.arena.is_deleted(c) {
                continue;
            }
            let (a, b) = {
                let lits = self.arena.lits(c);
                (lits[0], lits[1])
            };
            if self.trail.value(a) != L_UNDEF || self.trail.value(b) != L_UNDEF {
                continue;
            }
            let learned = self.arena.is_learned(c);
            match self.implied_elsewhere(c, a, b, learned, &mut ticks) {
                Found::Nothing => {}
                Found::Transitive => {
                    self.proof.delete(&[a, b], self.arena.id(c), &self.trail);
                    self.arena.delete(c);
                    removed += 1;
                }
                Found::Failed(last) => {
                    if !units.iter().any(|&(u, _)| u == a) {
                        // RUP now: propagating ¬a along the path just found reaches a; the
                        // path's binary clauses are the LRAT hints.
                        let hints = self.failed_path(a, last);
                        let id = self.proof.add(&[a], &hints);
                        units.push((a, id));
                    }
                }
            }
        }
        self.transred.cursor = (start + visited) % candidates.len();
        self.stats.transred_removed += removed;
        self.stats.transred_failed += units.len() as u64;
        if removed > 0 {
            self.clauses.retain_live(&self.arena);
            // The deleted clauses' watches go before anything propagates (`watch.rs`
            // invariant 4).
            self.collect_garbage();
        }
        if !self.fix_units(&units) {
            return;
        }
        self.propagate_root();
    }

    /// Searches breadth-first from `¬a` for `b` over the binary implications other than clause
    /// `c = a ∨ b` itself (only irredundant ones unless `any_edge`), counting edge visits in
    /// `ticks`.
    fn implied_elsewhere(
        &mut self,
        c: CRef,
        a: Lit,
        b: Lit,
        any_edge: bool,
        ticks: &mut u64,
    ) -> Found {
        let tr = &mut self.transred;
        tr.stamp = tr.stamp.wrapping_add(1);
        if tr.stamp == 0 {
            tr.stamps.iter_mut().for_each(|s| *s = 0);
            tr.stamp = 1;
        }
        let stamp = tr.stamp;
        let lrat = self.proof.is_lrat();
        tr.queue.clear();
        tr.queue.push(!a);
        tr.stamps[(!a).code()] = stamp;
        let mut head = 0;
        while head < tr.queue.len() {
            let x = tr.queue[head];
            head += 1;
            for w in self.watches.list(x) {
                if !w.is_binary() {
                    continue;
                }
                *ticks += 1;
                let d = w.cref();
                if d == c || self.arena.is_deleted(d) || (!any_edge && self.arena.is_learned(d)) {
                    continue;
                }
                let y = w.blocker;
                if tr.stamps[y.code()] == stamp || self.trail.value(y) != L_UNDEF {
                    continue;
                }
                if y == b {
                    return Found::Transitive;
                }
                if y == a {
                    return Found::Failed(d);
                }
                tr.stamps[y.code()] = stamp;
                if lrat {
                    tr.parent[y.code()] = (x, d);
                }
                tr.queue.push(y);
            }
        }
        Found::Nothing
    }

    /// The hints of the failed literal `a` (LRAT; empty otherwise): the binary clauses of the
    /// path `¬a →* a` the last search found, which reached `a` through `last`.
    fn failed_path(&self, a: Lit, last: CRef) -> Vec<i64> {
        if !self.proof.is_lrat() {
            return Vec::new();
        }
        let tr = &self.transred;
        let mut path = vec![last];
        // The literal `last` left from: the one whose watch list held it.
        let lits = self.arena.lits(last);
        let mut x = if lits[0] == a { !lits[1] } else { !lits[0] };
        while x != !a {
            let (from, clause) = tr.parent[x.code()];
            path.push(clause);
            x = from;
        }
        path.reverse();
        self.binary_path_hints(!a, &path)
    }
}

#[cfg(test)]
mod tests {
    use crate::{Budget, Lit, Options, ProofFormat, Solver, Status};
    use grim_testkit::SharedSink;
    use grim_testkit::lrat::check_lrat;

    /// Variables: a = 1, b = 2, y = 3, z = 4, p = 5, q = 6. The candidate `a ∨ b` comes first;
    /// skipping it, the search from `¬a` reaches `y`, then `z` and `¬z`, then `¬y` (through
    /// either of `y`'s two clauses), and `a` from `¬y` through `a ∨ y`: the path found is
    /// `¬a → y → z → ¬y → a`, which passes `y` and later `¬y`. Unit propagation of `¬a` along
    /// it conflicts at its third clause. Once `a` holds, the four ternary clauses over `p`, `q`
    /// refute the formula by search, so the proof ends in the empty clause.
    const FORMULA: [&[i64]; 8] = [
        &[1, 2],
        &[1, 3],
        &[-3, 4],
        &[-3, -4],
        &[-1, 5, 6],
        &[-1, 5, -6],
        &[-1, -5, 6],
        &[-1, -5, -6],
    ];

    /// The failed literal's LRAT hints stop at the first conflict of the path, as the format
    /// requires (a checker rejects hints after it); the defect they guard against was met on
    /// a real instance (prime65537 under the forced schedule) before this test existed.
    #[test]
    fn a_failed_literal_path_through_a_literal_and_its_negation_gives_hints_that_stop_at_the_conflict()
     {
        for format in [ProofFormat::LratText, ProofFormat::LratBinary] {
            let mut s = Solver::with_options(Options::default());
            let sink = SharedSink::default();
            s.set_proof(Box::new(sink.clone()), format);
            s.reserve_clause_ids(FORMULA.len() as u64);
            for c in FORMULA {
                let lits: Vec<Lit> = c
                    .iter()
                    .map(|&d| Lit::from_dimacs(d).expect("a literal"))
                    .collect();
                s.add_clause(&lits);
            }
            s.transred_round();
            assert_eq!(
                s.stats.transred_failed, 1,
                "the round fixes `a` as a failed literal"
            );
            assert_eq!(s.solve(&[], Budget::UNLIMITED), Status::Unsat);
            s.flush_proof().expect("the proof is complete");
            let formula: Vec<Vec<i64>> = FORMULA.iter().map(|c| c.to_vec()).collect();
            if let Err(e) = check_lrat(&formula, &sink.bytes()) {
                panic!("{format:?}: the LRAT proof is rejected: {e}");
            }
        }
    }
}
