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
//! Gates: when `v` is defined by a gate — AND/OR (`v = a1 ∧ … ∧ ak`: the binaries `¬v ∨ ai`
//! and the clause `v ∨ ¬a1 ∨ … ∨ ¬ak`, either polarity; `k = 1` is an equivalence),
//! if-then-else (`v = c ? t : e`, four ternary clauses) or XOR (`v` the parity of 2 to
//! `XOR_ARITY` other variables, all `2^(k-1)` clauses present) — only gate clauses are
//! resolved against non-gate clauses: gate–gate resolvents are tautologies and
//! non-gate–non-gate ones are implied by the others (Eén & Biere 2005; ITE and XOR as in
//! Kissat's `gates` and CaDiCaL's `gates.cpp`), so the bound admits more variables. Ours looks
//! only at the clauses of `v` itself (no hashing of ternary clauses as Kissat does), which the
//! occurrence limit keeps short.
//! ITE and XOR detection is behind `eliminate_gates_ite_xor`, off by default: it fires widely
//! on circuit encodings (gus-md5-04: 8,709 XOR and 58 ITE gates) and its proofs check, but
//! it did not measure better on sat-industrial (see the option's doc).
//!
//! Incremental use: a later clause or assumption that mentions an eliminated variable makes the
//! engine re-add every eliminated clause (`restore_eliminated`) — always correct, and the
//! resolvents stay (they are implied). Proofs: resolvents are logged as additions (they are
//! RUP; their LRAT hints are the two clauses resolved, after the units of the literals the
//! resolvent lost on level 0); the deletions of eliminated clauses are *not* logged, so a
//! restoration re-adds clauses the proof still holds — with LRAT under their old identifiers,
//! which the reconstruction stack keeps.
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

/// XOR gates are looked for up to this many inputs (`2^(k-1)` clauses of `k + 1` literals):
/// Kissat's default `xorsize` is 5; four keeps the 8-clause patterns within the occurrence
/// limit's reach while covering the adders and parity chains of circuit encodings.
const XOR_ARITY: usize = 4;

/// Which kind of gate `find_gate` found (for the statistics).
#[derive(Clone, Copy)]
enum GateKind {
    /// AND/OR, or an equivalence.
    And,
    /// If-then-else.
    Ite,
    /// XOR/XNOR.
    Xor,
}

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
    /// witness literal first; `ends[i]` is the end of clause `i`, `ids[i]` its LRAT identifier
    /// (0 without an LRAT proof): the proof never deletes these clauses, so a restoration
    /// brings each back under its old identifier.
    stack: Vec<Lit>,
    ends: Vec<u32>,
    ids: Vec<u64>,
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
    /// `x_or_neg_r` and `neg_x_or_r` are the two binaries' identifiers in an LRAT proof.
    pub(crate) fn substitute(&mut self, x: Lit, r: Lit, x_or_neg_r: u64, neg_x_or_r: u64) {
        self.push_clause(x, &[x, !r], x_or_neg_r);
        self.push_clause(!x, &[!x, r], neg_x_or_r);
        self.eliminated[x.var().index()] = true;
    }

    /// Whether some variable from `first` up is eliminated or occurs in an eliminated clause
    /// (`factor.rs`: extension variables start at `first`).
    pub(crate) fn mentions_from(&self, first: usize) -> bool {
        self.eliminated.iter().skip(first).any(|&e| e)
            || self.stack.iter().any(|l| l.var().index() >= first)
    }

    /// Whether some literal of `lits` is on an eliminated variable.
    pub(crate) fn touches(&self, lits: &[Lit]) -> bool {
        lits.iter().any(|l| self.eliminated[l.var().index()])
    }

    /// Saves clause `lits` (LRAT identifier `id`) with its `witness` first, for
    /// reconstruction.
    fn push_clause(&mut self, witness: Lit, lits: &[Lit], id: u64) {
        self.stack.push(witness);
        self.stack
            .extend(lits.iter().copied().filter(|&l| l != witness));
        self.ends.push(self.stack.len() as u32);
        self.ids.push(id);
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
    /// `solver.rs`) — or, with `eliminate_delay`, once that many conflicts were counted (in the
    /// ladder) — then every `eliminate_interval` · rounds conflicts (in the ladder).
    pub(crate) fn eliminating(&self) -> bool {
        self.opts.eliminate
            && self.ok
            && match self.elim.done {
                false => self.stats.conflicts >= self.opts.eliminate_delay,
                true => self.opts.eliminate_interval > 0 && self.stats.conflicts >= self.elim.next,
            }
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
        let n = self.trail.num_vars();
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
        // Each resolvent with the identifiers of the two clauses it resolves (LRAT).
        let mut resolvents: Vec<(Vec<Lit>, [u64; 2])> = Vec::new();
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
            let (gate, kind) = self.find_gate(v, &ps, &ns, &mut marks, &mut ticks);
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
                        resolvents.push((r, [self.arena.id(a), self.arena.id(b)]));
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
                self.elim.push_clause(witness, lits, self.arena.id(c));
                self.watches.detach(&self.arena, c);
                self.arena.delete(c);
            }
            self.elim.eliminated[v] = true;
            self.stats.eliminated += 1;
            if !gate.is_empty() {
                self.stats.gates += 1;
                match kind {
                    GateKind::And => {}
                    GateKind::Ite => self.stats.gates_ite += 1,
                    GateKind::Xor => self.stats.gates_xor += 1,
                }
            }
            let mut hints = Vec::new();
            for (r, [a, b]) in std::mem::take(&mut resolvents) {
                if self.proof.is_lrat() {
                    // The units of the literals the resolvent lost on level 0, then the clause
                    // with `v` (unit on it) and the clause with `¬v` (falsified). Both stay in
                    // the proof: eliminated clauses are never deleted there.
                    self.resolvent_hints(&r, a, b, v);
                    hints.clear();
                    hints.extend_from_slice(&self.lrat.hints);
                }
                self.add_derived_indexed(&r, &hints, &mut occ);
                if !self.ok {
                    break;
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

    /// The clauses of a gate defining `v` among `ps` (clauses with `v`) and `ns` (with `¬v`),
    /// and its kind; an empty list when none is found. Tried in order: AND/OR (and
    /// equivalences), if-then-else, XOR. Each is a definition — its clauses with `v` and with
    /// `¬v` resolve only to tautologies — which is what gate-restricted resolution needs.
    fn find_gate(
        &self,
        v: usize,
        ps: &[CRef],
        ns: &[CRef],
        marks: &mut [u8],
        ticks: &mut u64,
    ) -> (Vec<CRef>, GateKind) {
        let gate = self.find_and_gate(v, ps, ns, marks, ticks);
        if !gate.is_empty() {
            return (gate, GateKind::And);
        }
        if !self.opts.eliminate_gates_ite_xor {
            return (Vec::new(), GateKind::And);
        }
        let gate = self.find_ite_gate(v, ps, ns, ticks);
        if !gate.is_empty() {
            return (gate, GateKind::Ite);
        }
        let gate = self.find_xor_gate(ps, ns, marks, ticks);
        if !gate.is_empty() {
            return (gate, GateKind::Xor);
        }
        (Vec::new(), GateKind::And)
    }

    /// An AND/OR gate (or equivalence) defining `v`. For each polarity `l` of `v`: the
    /// binaries `¬l ∨ a` give the inputs `a`; a clause `l ∨ ¬a1 ∨ … ∨ ¬ak` over inputs only
    /// closes the gate, whose clauses are that clause and the `k` binaries it uses.
    fn find_and_gate(
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

    /// An if-then-else gate `v = c ? t : e`: the four ternary clauses `¬v ∨ ¬c ∨ t`,
    /// `¬v ∨ c ∨ e`, `v ∨ ¬c ∨ ¬t`, `v ∨ c ∨ ¬e` (any signs of `c`, `t`, `e`; `t` and `e` on
    /// different variables, else it is an AND or XOR). Found from two ternary clauses of one
    /// side that clash on their condition `c`, then the two partners on the other side.
    fn find_ite_gate(&self, v: usize, ps: &[CRef], ns: &[CRef], ticks: &mut u64) -> Vec<CRef> {
        let pos = Var::from_index(v).pos();
        // The two literals of a ternary clause of `side` besides `v`'s, or None.
        let rest = |c: CRef| -> Option<[Lit; 2]> {
            let lits = self.arena.lits(c);
            if lits.len() != 3 {
                return None;
            }
            let mut out = lits.iter().copied().filter(|l| l.var().index() != v);
            Some([out.next()?, out.next()?])
        };
        let ternaries: Vec<(CRef, [Lit; 2])> =
            ns.iter().filter_map(|&c| Some((c, rest(c)?))).collect();
        *ticks += 3 * ns.len() as u64;
        for (i, &(a, ra)) in ternaries.iter().enumerate() {
            for &(b, rb) in &ternaries[i + 1..] {
                *ticks += 1;
                // a = ¬v ∨ ¬c ∨ t, b = ¬v ∨ c ∨ e: find the clashing pair.
                for (x, y) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
                    if ra[x] != !rb[y] {
                        continue;
                    }
                    let (t, e) = (ra[1 - x], rb[1 - y]);
                    if t.var() == e.var() || t.var() == ra[x].var() || e.var() == ra[x].var() {
                        continue;
                    }
                    // Partners with v: v ∨ ra[x] ∨ ¬t and v ∨ rb[y] ∨ ¬e.
                    let p1 = self.find_clause(ps, &[pos, ra[x], !t], ticks);
                    let p2 = self.find_clause(ps, &[pos, rb[y], !e], ticks);
                    if let (Some(p1), Some(p2)) = (p1, p2) {
                        return vec![a, b, p1, p2];
                    }
                }
            }
        }
        Vec::new()
    }

    /// An XOR gate: the `2^(k-1)` clauses over `v` and `k` other variables (2 ≤ k ≤
    /// `XOR_ARITY`) whose numbers of negative literals have one parity — together they say
    /// that the parity of those variables is fixed, so `v` is the XOR (or XNOR) of the rest.
    /// Found from each short clause with `v`: the clauses on `v`'s lists over the same
    /// variables with the same parity must cover every sign pattern.
    fn find_xor_gate(
        &self,
        ps: &[CRef],
        ns: &[CRef],
        marks: &mut [u8],
        ticks: &mut u64,
    ) -> Vec<CRef> {
        let negatives = |lits: &[Lit]| lits.iter().filter(|l| l.is_negative()).count();
        for &c in ps {
            let base = self.arena.lits(c);
            let size = base.len();
            if !(3..=XOR_ARITY + 1).contains(&size) {
                continue;
            }
            let parity = negatives(base) % 2;
            // Marks: variable of base's literal i ↦ i + 1, on both of its literal codes.
            for (i, &l) in base.iter().enumerate() {
                marks[l.code()] = (i + 1) as u8;
                marks[(!l).code()] = (i + 1) as u8;
            }
            let needed = 1usize << (size - 1);
            let mut seen = vec![false; 1 << size];
            let mut gate = Vec::with_capacity(needed);
            for &d in ps.iter().chain(ns) {
                let lits = self.arena.lits(d);
                *ticks += lits.len() as u64;
                if lits.len() != size || negatives(lits) % 2 != parity {
                    continue;
                }
                // The sign pattern over base's variable order; every variable must be one of
                // base's (the clauses are duplicate-free, so `size` of them cover all).
                let mut pattern = 0usize;
                let mut covered = 0usize;
                for &l in lits {
                    let m = marks[l.code()] as usize;
                    if m == 0 {
                        covered = usize::MAX;
                        break;
                    }
                    covered |= 1 << (m - 1);
                    if l.is_negative() {
                        pattern |= 1 << (m - 1);
                    }
                }
                if covered != (1 << size) - 1 || seen[pattern] {
                    continue;
                }
                seen[pattern] = true;
                gate.push(d);
            }
            for &l in base {
                marks[l.code()] = 0;
                marks[(!l).code()] = 0;
            }
            if gate.len() == needed {
                return gate;
            }
        }
        Vec::new()
    }

    /// The clause of `side` with exactly the literals `lits` (a set without duplicates).
    fn find_clause(&self, side: &[CRef], lits: &[Lit], ticks: &mut u64) -> Option<CRef> {
        side.iter().copied().find(|&c| {
            let have = self.arena.lits(c);
            *ticks += have.len() as u64;
            have.len() == lits.len() && lits.iter().all(|l| have.contains(l))
        })
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
                    self.proof
                        .delete(self.arena.lits(d), self.arena.id(d), &self.trail);
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

    /// The LRAT hints of the resolvent `r` on `v` of the clauses with identifiers `a`
    /// (holding `v`) and `b` (holding `¬v`) into `self.lrat.hints`: the units of the literals
    /// of the two that `r` lost for being false on level 0, `a`, `b`. The two clauses are read
    /// from the reconstruction stack's copy, since the arena's are deleted by now.
    fn resolvent_hints(&mut self, r: &[Lit], a: u64, b: u64, v: usize) {
        let mut lits: Vec<Lit> = Vec::new();
        let mut start = 0usize;
        for (i, &end) in self.elim.ends.iter().enumerate().rev() {
            let id = self.elim.ids[i];
            let begin = if i == 0 {
                0
            } else {
                self.elim.ends[i - 1] as usize
            };
            if id == a || id == b {
                lits.extend_from_slice(&self.elim.stack[begin..end as usize]);
                start += 1;
                if start == 2 {
                    break;
                }
            }
        }
        self.lrat.hints.clear();
        self.root_hints(
            lits.into_iter()
                .filter(|l| l.var().index() != v && !r.contains(l)),
        );
        self.lrat.hints.push(a as i64);
        self.lrat.hints.push(b as i64);
    }

    /// Re-adds every eliminated clause and makes the variables ordinary again.
    pub(crate) fn restore_eliminated(&mut self) {
        let stack = std::mem::take(&mut self.elim.stack);
        let ends = std::mem::take(&mut self.elim.ends);
        let ids = std::mem::take(&mut self.elim.ids);
        for v in 0..self.trail.num_vars() {
            if self.elim.eliminated[v] {
                self.elim.eliminated[v] = false;
                self.scores.insert(v);
            }
        }
        self.stats.restored += 1;
        let mut start = 0usize;
        for (&end, &id) in ends.iter().zip(&ids) {
            // Under its old identifier: the proof never deleted it (`Elimination::ids`).
            self.add_irredundant(&stack[start..end as usize], id);
            start = end as usize;
        }
    }
}
