//! Bounded variable elimination (BVE): remove a variable by replacing the clauses that
//! contain it with all their non-tautological resolvents on it, when that does not increase
//! the number of clauses.
//!
//! Davis & Putnam (JACM 1960) for the resolution rule; Eén & Biere, "Effective preprocessing in
//! SAT through variable and clause elimination" (SAT 2005, SatELite) for the bound, the model
//! reconstruction and gate-restricted resolution. Ours runs on the irredundant clauses (after
//! backward subsumption, which removes duplicates and subsumed clauses), cheapest variables
//! first (fewest `|pos|·|neg|`), skipping variables with more than `eliminate_occurrences`
//! occurrences of either sign or resolvents longer than `eliminate_clause_length`.
//!
//! When: once before the first search, within `eliminate_effort` literal visits per literal of
//! the formula, with `eliminate_bound` extra clauses allowed per variable; then as a rung of
//! the search ladder every `eliminate_interval` · rounds conflicts (Kissat's and CaDiCaL's
//! elimination rounds), each within `eliminate_search_effort` literal visits per search
//! propagation since the previous round, and with a bound that doubles per round from 1 up to
//! `eliminate_bound_max` (Kissat's `eliminatebound` schedule): the search's units, learned
//! subsumers and strengthened clauses make new variables cheap to remove.
//!
//! Gates: when `v` is defined by an AND/OR gate (`v = a1 ∧ … ∧ ak`: the binaries `¬v ∨ ai`
//! and the clause `v ∨ ¬a1 ∨ … ∨ ¬ak`, either polarity; `k = 1` is an equivalence), only gate
//! clauses are resolved against non-gate clauses: gate–gate resolvents are tautologies and
//! non-gate–non-gate ones are implied by the others (Eén & Biere 2005), so the bound admits
//! more variables. XOR and ITE gates are not detected (yet).
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

#![forbid(unsafe_code)]

use crate::clause::CRef;
use crate::decide::Phases;
use crate::inprocess::{collect_root_clause, effort_since};
use crate::solver::Solver;
use crate::types::{L_FALSE, L_TRUE, L_UNDEF, LBool, Lit, Var};

/// The state of elimination: which variables are gone, which may never go, and the clauses
/// kept for model reconstruction. Written only here (`Solver::freeze` calls `freeze`).
///
/// Invariant (owned here; `decide.rs`, `probe.rs` and `Solver::add_clause` rely on it): an
/// eliminated variable occurs in no live clause and is never assigned by the search; a clause
/// or assumption that mentions one first restores every eliminated clause.
#[derive(Default)]
pub(crate) struct Elimination {
    /// Variables removed by elimination.
    eliminated: Vec<bool>,
    /// Frozen variables are never eliminated (`Solver::freeze`).
    frozen: Vec<bool>,
    /// Clauses removed by elimination, for model reconstruction: flattened, each with its
    /// witness literal first; `ends[i]` is the end of clause `i`.
    stack: Vec<Lit>,
    ends: Vec<u32>,
    /// The first round (before the first search) ran.
    done: bool,
    /// Rounds during search so far (the interval grows with them, the bound doubles).
    rounds: u64,
    /// The next round during search happens at this conflict count.
    next: u64,
    /// Propagation count at the end of the previous round (the effort is relative to it).
    props_mark: u64,
}

impl Elimination {
    /// Makes room for variables `0..n` (neither eliminated nor frozen).
    pub(crate) fn grow(&mut self, n: usize) {
        self.eliminated.resize(n, false);
        self.frozen.resize(n, false);
    }

    /// Whether variable `v` is eliminated.
    #[inline(always)]
    pub(crate) fn is_eliminated(&self, v: usize) -> bool {
        self.eliminated[v]
    }

    /// Keeps variable `v` from being eliminated.
    pub(crate) fn freeze(&mut self, v: usize) {
        self.frozen[v] = true;
    }

    /// Whether variable `v` was frozen by the API (`Solver::freeze`, observed variables).
    #[inline]
    pub(crate) fn is_frozen(&self, v: usize) -> bool {
        self.frozen[v]
    }

    /// Records that `substitute.rs` replaced variable `x.var()` by the equivalent literal
    /// `r` (`x ≡ r`): the two binary clauses of the equivalence go on the reconstruction stack
    /// (witness `x`, then `¬x`), so `extend_model` gives `x` the value of `r`, and a
    /// restoration re-adds them, which brings `x` back with its meaning.
    pub(crate) fn substitute(&mut self, x: Lit, r: Lit) {
        self.push_clause(x, &[x, !r]);
        self.push_clause(!x, &[!x, r]);
        self.eliminated[x.var().index()] = true;
    }

    /// Whether some literal of `lits` is on an eliminated variable.
    pub(crate) fn touches(&self, lits: &[Lit]) -> bool {
        lits.iter().any(|l| self.eliminated[l.var().index()])
    }

    /// Saves clause `lits` with its `witness` first, for reconstruction.
    fn push_clause(&mut self, witness: Lit, lits: &[Lit]) {
        self.stack.push(witness);
        self.stack
            .extend(lits.iter().copied().filter(|&l| l != witness));
        self.ends.push(self.stack.len() as u32);
    }

    /// Gives the eliminated variables of `model` the values that satisfy the eliminated
    /// clauses (module doc), starting from the value a decision would have chosen (user phase,
    /// else saved phase), so reconstruction overrides preferences only where an eliminated
    /// clause demands it.
    pub(crate) fn extend_model(&self, model: &mut [LBool], phases: &Phases) {
        for (v, m) in model.iter_mut().enumerate() {
            if self.eliminated[v] && *m == L_UNDEF {
                *m = match phases.user[v] {
                    L_UNDEF => {
                        if phases.saved[v] {
                            L_TRUE
                        } else {
                            L_FALSE
                        }
                    }
                    p => p,
                };
            }
        }
        let mut end = self.stack.len();
        for i in (0..self.ends.len()).rev() {
            let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
            debug_assert_eq!(end, self.ends[i] as usize);
            let clause = &self.stack[start..end];
            end = start;
            let satisfied = clause.iter().any(|&l| {
                let x = model[l.var().index()];
                (if l.is_negative() { -x } else { x }) == L_TRUE
            });
            if !satisfied {
                let w = clause[0];
                model[w.var().index()] = if w.is_positive() { L_TRUE } else { L_FALSE };
            }
        }
    }
}

impl Solver {
    /// Whether an elimination round should run now: at the first solve (before the search,
    /// `solver.rs`), then every `eliminate_interval` · rounds conflicts (in the ladder).
    pub(crate) fn eliminating(&self) -> bool {
        self.opts.eliminate
            && self.ok
            && (!self.elim.done
                || (self.opts.eliminate_interval > 0 && self.stats.conflicts >= self.elim.next))
    }

    /// Runs a round of bounded variable elimination (see the module doc). Leaves the solver at
    /// level 0, propagated, or `ok == false`.
    pub(crate) fn eliminate(&mut self) {
        let first = !self.elim.done;
        self.elim.done = true;
        if !first {
            self.elim.rounds += 1;
            self.stats.eliminate_rounds += 1;
        }
        self.elim.next =
            self.stats.conflicts + self.opts.eliminate_interval * (self.elim.rounds + 1);
        if self.trail.decision_level() > 0 {
            self.backtrack(0);
        }
        if !self.propagate_root() {
            return;
        }
        if self.simplifying() {
            self.simplify();
        }
        let n = self.num_vars();
        let mut frozen = self.elim.frozen.clone();
        for a in &self.assumptions {
            frozen[a.var().index()] = true;
        }
        let mut occ: Vec<Vec<CRef>> = vec![Vec::new(); 2 * n];
        let mut literals = 0usize;
        for &c in &self.clauses.originals {
            for &l in self.arena.lits(c) {
                occ[l.code()].push(c);
                literals += 1;
            }
        }
        let full = (literals as f64 * self.opts.eliminate_effort) as u64;
        let budget = if first {
            full
        } else {
            effort_since(
                self.elim.props_mark,
                self.stats.propagations,
                self.opts.eliminate_search_effort,
            )
            .min(full)
        };
        let mut marks = vec![0u8; 2 * n];
        let subsume_budget = (budget as f64 * self.opts.eliminate_subsume_fraction) as u64;
        let mut ticks = self.subsume(&mut occ, &mut marks, subsume_budget);
        let max_occ = self.opts.eliminate_occurrences as usize;
        let max_len = self.opts.eliminate_clause_length as usize;
        let extra = if first {
            self.opts.eliminate_bound
        } else {
            (1u64 << (self.elim.rounds - 1).min(32))
                .min(self.opts.eliminate_bound_max)
                .max(self.opts.eliminate_bound)
        } as usize;
        let mut candidates: Vec<usize> = (0..n)
            .filter(|&v| !frozen[v] && self.trail.var_value(v) == L_UNDEF)
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
            if self.trail.var_value(v) != L_UNDEF {
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
            // Gate clauses on either side (empty: no gate found, resolve everything).
            let gate = self.find_gate(v, &ps, &ns, &mut marks, &mut ticks);
            'pairs: for &a in &ps {
                for &b in &ns {
                    if !gate.is_empty() && gate.contains(&a) == gate.contains(&b) {
                        continue;
                    }
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
                let lits = self.arena.lits(c);
                let witness = if lits.contains(&pos) { pos } else { neg };
                self.elim.push_clause(witness, lits);
                self.watches.detach(&self.arena, c);
                self.arena.delete(c);
            }
            self.elim.eliminated[v] = true;
            self.stats.eliminated += 1;
            if !gate.is_empty() {
                self.stats.gates += 1;
            }
            for r in std::mem::take(&mut resolvents) {
                self.proof.add(&r);
                let before = self.clauses.originals.len();
                self.add_irredundant(&r);
                if !self.ok {
                    break;
                }
                if self.clauses.originals.len() > before
                    && let Some(&c) = self.clauses.originals.last()
                {
                    for &l in self.arena.lits(c) {
                        occ[l.code()].push(c);
                    }
                }
                self.stats.resolvents += 1;
            }
        }
        // Learned clauses over eliminated variables would resurrect them: drop them (they are
        // implied, so nothing is lost but speed). Only present when elimination follows
        // earlier solves.
        for &c in &self.clauses.learnts {
            if !self.arena.is_deleted(c) && self.elim.touches(self.arena.lits(c)) {
                self.watches.detach(&self.arena, c);
                self.arena.delete(c);
            }
        }
        self.clauses.retain_live(&self.arena);
        self.collect_garbage();
        // Resolvents may be units: `add_irredundant` propagated them already.
        self.elim.props_mark = self.stats.propagations;
    }

    /// The clauses of an AND/OR gate defining `v` among `ps` (clauses with `v`) and `ns` (with
    /// `¬v`), or an empty list. For each polarity `l` of `v`: the binaries `¬l ∨ a` give the
    /// inputs `a`; a clause `l ∨ ¬a1 ∨ … ∨ ¬ak` over inputs only closes the gate, whose clauses
    /// are that clause and the `k` binaries it uses.
    fn find_gate(
        &self,
        v: usize,
        ps: &[CRef],
        ns: &[CRef],
        marks: &mut [u8],
        ticks: &mut u64,
    ) -> Vec<CRef> {
        let pos = Var::from_index(v).pos();
        for (l, long_side, bin_side) in [(pos, ps, ns), (!pos, ns, ps)] {
            // Inputs: binaries ¬l ∨ a (in bin_side, which holds the clauses with ¬l).
            let mut inputs: Vec<(Lit, CRef)> = Vec::new();
            for &c in bin_side {
                let lits = self.arena.lits(c);
                if lits.len() == 2 {
                    let a = if lits[0] == !l { lits[1] } else { lits[0] };
                    if marks[a.code()] == 0 {
                        marks[a.code()] = 1;
                        inputs.push((a, c));
                    }
                }
            }
            let mut found = None;
            if !inputs.is_empty() {
                for &c in long_side {
                    let lits = self.arena.lits(c);
                    *ticks += lits.len() as u64;
                    if lits.len() >= 2 && lits.iter().all(|&m| m == l || marks[(!m).code()] != 0) {
                        found = Some(c);
                        break;
                    }
                }
            }
            let mut gate = Vec::new();
            if let Some(c) = found {
                gate.push(c);
                for &m in self.arena.lits(c) {
                    if m != l
                        && let Some(&(_, b)) = inputs.iter().find(|(a, _)| *a == !m)
                    {
                        gate.push(b);
                    }
                }
            }
            for (a, _) in inputs {
                marks[a.code()] = 0;
            }
            if !gate.is_empty() {
                return gate;
            }
        }
        Vec::new()
    }

    /// Backward subsumption over the irredundant clauses: a clause contained in another
    /// (duplicates included) deletes the larger one. Duplicates and subsumed clauses block
    /// elimination otherwise: on cmu-bmc-longmult15, 576 of 586 candidates failed the bound,
    /// many of them with the same clause three times. Returns the literal visits spent.
    fn subsume(&mut self, occ: &mut [Vec<CRef>], marks: &mut [u8], budget: u64) -> u64 {
        let mut order: Vec<CRef> = self.clauses.originals.clone();
        order.sort_by_key(|&c| (self.arena.len(c), c));
        let mut ticks = 0u64;
        for c in order {
            if ticks > budget {
                break;
            }
            if self.arena.is_deleted(c) {
                continue;
            }
            let lits = self.arena.lits(c);
            let len = lits.len();
            // The literal of `c` with the shortest occurrence list.
            let mut best = lits[0];
            for &l in lits {
                if occ[l.code()].len() < occ[best.code()].len() {
                    best = l;
                }
            }
            for &l in lits {
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
                    self.proof.delete(self.arena.lits(d), &self.trail);
                    self.watches.detach(&self.arena, d);
                    self.arena.delete(d);
                    self.stats.subsumed += 1;
                }
            }
            occ[best.code()] = candidates;
            for &l in self.arena.lits(c) {
                marks[l.code()] = 0;
            }
        }
        ticks
    }

    /// The resolvent of `a` (containing v) and `b` (containing ¬v) on `v`, without level-0
    /// false literals; `None` when tautological or satisfied at level 0.
    fn resolve(&self, a: CRef, b: CRef, v: usize, marks: &mut [u8]) -> Option<Vec<Lit>> {
        let mut out = Vec::with_capacity(self.arena.len(a) + self.arena.len(b));
        let lits = self.arena.lits(a).iter().chain(self.arena.lits(b));
        let lits = lits.copied().filter(|l| l.var().index() != v);
        collect_root_clause(&self.trail, lits, marks, &mut out).then_some(out)
    }

    /// Re-adds every eliminated clause and makes the variables ordinary again.
    pub(crate) fn restore_eliminated(&mut self) {
        let stack = std::mem::take(&mut self.elim.stack);
        let ends = std::mem::take(&mut self.elim.ends);
        for v in 0..self.num_vars() {
            if self.elim.eliminated[v] {
                self.elim.eliminated[v] = false;
                self.vsids.insert(v);
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
