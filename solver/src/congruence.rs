//! Congruence closure: gates with the same inputs have the same output. AND, XOR and
//! if-then-else gates are read off the irredundant clauses, hashed by their inputs, and two
//! gates of one kind over the same inputs make their outputs equivalent; replacing a variable
//! by its equivalent rewrites the inputs of the gates that use it, which can make further
//! gates congruent — the closure runs to a fixpoint. The equivalences found are added as
//! binary clauses, and substitution (`substitute.rs`, run right after) replaces the variables.
//!
//! Why: miters and other equivalence-checking formulas hold two copies of one circuit whose
//! outputs are compared. Substitution sees only cycles of binary clauses, and a gate's
//! definition is not one; CDCL finds the equivalence of two AND gates only by learning it
//! conflict by conflict, level by level. Congruence closure merges the two copies in a
//! linear pass (Kissat 4 runs it first thing in its preprocessing, and in each probing phase).
//!
//! Gates, with `lhs` the output literal:
//! - AND: `lhs = a1 ∧ … ∧ ak` from the binaries `¬lhs ∨ ai` and the clause
//!   `lhs ∨ ¬a1 ∨ … ∨ ¬ak` (both polarities of a variable are tried, so OR gates are ANDs of
//!   negated literals);
//! - XOR: the `2^(k-1)` clauses over `k + 1 ≤ congruence_xor_arity + 1` variables whose
//!   parities of negative literals agree (each of the variables is the XOR of the others);
//! - ITE: `lhs = c ? t : e` from the four ternary clauses `¬lhs ∨ ¬c ∨ t`, `¬lhs ∨ c ∨ e`,
//!   `lhs ∨ ¬c ∨ ¬t`, `lhs ∨ c ∨ ¬e`.
//!
//! Each gate is normalised under the current representatives (union–find over literals):
//! AND inputs sorted and merged; XOR inputs as variables, the signs folded into the output;
//! ITE with a positive condition and a positive then-branch (`ite(c, ¬t, ¬e) = ¬ite(c, t, e)`).
//! A gate that normalises to something other than a gate of its arity (complementary AND
//! inputs, cancelling XOR inputs, an ITE whose branches or condition coincide, an output
//! among its own inputs) is dropped rather than simplified: that would need more proof steps
//! for little gain (Kissat simplifies them; ours differs here).
//!
//! Proofs: each equivalence `A ≡ B` between two congruent outputs is logged as the binaries
//! `¬A ∨ B` and `A ∨ ¬B`. For AND gates both are RUP with respect to the two gates' clauses
//! and the binaries of the earlier equivalences that connect their inputs. XOR and ITE gates
//! need a case split: for ITE the clauses `¬A ∨ B ∨ c` and `¬A ∨ B ∨ ¬c` come first (RUP), then
//! `¬A ∨ B` resolves them; for XOR the clauses over `A`, `B` and every sign pattern of the `k`
//! inputs come first (RUP: one of the two gates is violated by the assignment they exclude),
//! then resolution on one input at a time down to the binary; the intermediate clauses are
//! deleted again. LRAT hints come from a small unit propagation over exactly those clauses
//! (the two gates' clauses and the binaries on the paths between their inputs and the inputs'
//! representative), which also checks every step before it is logged: a merge whose clauses
//! do not propagate to a conflict is not made (a debug assertion says it cannot happen).
//!
//! Scheduled in the ladder before elimination, so its first round runs before the first search
//! on the gates as the encoder wrote them, and again every `congruence_interval · √rounds`
//! conflicts; a round that merges nothing delays the next one more (Kissat's delay), and one
//! that finds no gate at all ends the schedule. The
//! effort is the whole formula in the first round and `congruence_effort` clause-literal
//! visits per search propagation since the previous round later.
//!
//! Measured (2026-12-06, 60 s, one loaded run; `benches/results/sat-dev-2026-12-06-baseline.md`):
//! on against off, sat-dev 0.98x on the confirmation half and 1.01x on the tuning half (the same
//! 32 of 37 solved), sat-industrial 1.14x (21/21 both; gus-md5-06 and a SAT vmpc instance
//! slower, the rest even). It merges on circuit encodings (gus-md5-05/06: 32 equivalences among
//! 110k gates, the round costs 0.2 s of 0.8) but the families where grim trails Kissat are not
//! miters it can close (eq.atree.braun.9, array against Braun multiplier: no merge; that needs
//! SAT sweeping). So it is off by default (`congruence`).
//!
//! Biere, Fleury, Froleyks & Heule, "Clausal Congruence Closure", FMCAD 2024 (DOI 10.34727/2024/isbn.978-3-85448-065-5_25); Kissat's `congruence.c` (read
//! for the schedule, not copied). Ours differs in the dropped degenerate gates, in the
//! clause-level proof steps for XOR and ITE matches (Kissat derives the same clauses by its
//! own chains), and in leaving the rewriting of the clauses to substitution.
#![forbid(unsafe_code)]

use std::collections::HashMap;

use crate::clause::CRef;
use crate::inprocess::effort_since;
use crate::solver::Solver;
use crate::types::{L_UNDEF, Lit, Var};

/// The congruence schedule: written only here.
#[derive(Default)]
pub(crate) struct Congruence {
    /// The next round is due at this conflict count (0: at the first chance).
    next: u64,
    /// Rounds run so far.
    rounds: u64,
    /// Due rounds still to skip, and the skips the next empty round will impose.
    skip: u64,
    delay: u64,
    /// Propagation count at the end of the previous round.
    props_mark: u64,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    And,
    Xor,
    Ite,
}

/// A gate as extracted: `lhs` is defined over `inputs` by `clauses`. For XOR the inputs are
/// positive literals and `lhs` carries the parity (`lhs = XOR(inputs)`); for ITE the inputs
/// are `[c, t, e]`.
struct Gate {
    kind: Kind,
    lhs: Lit,
    inputs: Vec<Lit>,
    clauses: Vec<CRef>,
    /// The normalised output is `lhs` negated when set (XOR signs, ITE's negated branch).
    flip: bool,
    /// The key it is hashed under, empty while it is not in the table.
    key: Vec<u32>,
    alive: bool,
}

impl Gate {
    fn out(&self) -> Lit {
        if self.flip { !self.lhs } else { self.lhs }
    }
}

/// An equivalence found: the two literals and the identifiers of `¬a ∨ b` and `a ∨ ¬b`.
struct Merge {
    a: Lit,
    b: Lit,
    ids: (u64, u64),
}

/// One round's closure: the gates, the hash table, the union–find over variables and the
/// graph of the equivalences derived (for the proof paths).
struct Closure {
    gates: Vec<Gate>,
    table: HashMap<Vec<u32>, usize>,
    /// `repr[v]`: the literal `v`'s positive literal equals (itself at a root).
    repr: Vec<Lit>,
    /// The gates whose inputs mention each variable (grows as variables merge into it).
    uses: Vec<Vec<usize>>,
    /// Per literal code: `(other, id of ¬this ∨ other, id of this ∨ ¬other)` for each derived
    /// equivalence `this ≡ other`.
    edges: Vec<Vec<(Lit, u64, u64)>>,
    /// Variables whose representative changed and whose gates are to be normalised again.
    queue: Vec<usize>,
    merges: Vec<Merge>,
    /// A literal was found equivalent to its negation (substitution refutes the formula).
    contradiction: bool,
    /// Work done (literal and edge visits), against the round's budget.
    ticks: u64,
}

const NO_GATE: usize = usize::MAX;

impl Closure {
    fn find(&mut self, l: Lit) -> Lit {
        let v = l.var().index();
        let r = self.repr[v];
        if r.var().index() == v {
            return l;
        }
        let root = self.find(r);
        self.repr[v] = root;
        if l.is_positive() { root } else { !root }
    }

    /// The gate's key under the current representatives (and its output flip), or None when
    /// it normalises to something that is not a gate of its arity.
    fn normalize(&mut self, g: usize) -> Option<(Vec<u32>, bool)> {
        let kind = self.gates[g].kind;
        let inputs = self.gates[g].inputs.clone();
        let lhs_var = self.find(self.gates[g].lhs).var();
        let mut reps: Vec<Lit> = inputs.iter().map(|&l| self.find(l)).collect();
        if reps.iter().any(|r| r.var() == lhs_var) {
            return None;
        }
        match kind {
            Kind::And => {
                reps.sort_unstable();
                reps.dedup();
                if reps.windows(2).any(|w| w[0] == !w[1]) || reps.len() < 2 {
                    return None;
                }
                let mut key = vec![0u32];
                key.extend(reps.iter().map(|l| l.code() as u32));
                Some((key, false))
            }
            Kind::Xor => {
                let flip = reps.iter().filter(|l| l.is_negative()).count() % 2 == 1;
                let mut vars: Vec<u32> = reps.iter().map(|l| l.var().index() as u32).collect();
                vars.sort_unstable();
                let n = vars.len();
                vars.dedup();
                if vars.len() != n {
                    return None;
                }
                let mut key = vec![1u32];
                key.extend(vars);
                Some((key, flip))
            }
            Kind::Ite => {
                let (mut c, mut t, mut e) = (reps[0], reps[1], reps[2]);
                if c.is_negative() {
                    c = !c;
                    std::mem::swap(&mut t, &mut e);
                }
                let mut flip = false;
                if t.is_negative() {
                    t = !t;
                    e = !e;
                    flip = true;
                }
                if c.var() == t.var() || c.var() == e.var() || t.var() == e.var() {
                    return None;
                }
                Some((
                    vec![2, c.code() as u32, t.code() as u32, e.code() as u32],
                    flip,
                ))
            }
        }
    }

    /// The binaries of the derived equivalences on a path from `from` to `to` (the same class),
    /// both directions of each edge, appended to `out` as candidate clauses.
    fn path(&mut self, from: Lit, to: Lit, out: &mut Vec<(Vec<Lit>, u64)>) {
        if from == to {
            return;
        }
        // Breadth-first over the edges; parent links by literal code, only for this search.
        let mut parent: HashMap<usize, (Lit, u64, u64)> = HashMap::new();
        let mut queue = vec![from];
        let mut head = 0;
        parent.insert(from.code(), (from, 0, 0));
        while head < queue.len() {
            let u = queue[head];
            head += 1;
            if u == to {
                break;
            }
            for &(w, fwd, bwd) in &self.edges[u.code()] {
                self.ticks += 1;
                if let std::collections::hash_map::Entry::Vacant(e) = parent.entry(w.code()) {
                    e.insert((u, fwd, bwd));
                    queue.push(w);
                }
            }
        }
        let mut node = to;
        while node != from {
            let Some(&(p, fwd, bwd)) = parent.get(&node.code()) else {
                return; // not connected: the propagation below fails and the merge is skipped
            };
            out.push((vec![!p, node], fwd));
            out.push((vec![p, !node], bwd));
            node = p;
        }
    }
}

/// Unit propagation over `cands` starting from the negation of `target`: the identifiers of
/// the clauses that became unit, in order, then the one that became false; None when no
/// conflict is reached. Both the LRAT hints of `target` and the check that it is RUP.
fn rup_hints(target: &[Lit], cands: &[(Vec<Lit>, u64)], ticks: &mut u64) -> Option<Vec<i64>> {
    let mut value: HashMap<usize, bool> = HashMap::new();
    for &l in target {
        value.insert(l.var().index(), l.is_negative());
    }
    let lit_value = |value: &HashMap<usize, bool>, l: Lit| -> Option<bool> {
        value.get(&l.var().index()).map(|&v| v == l.is_positive())
    };
    let mut used = vec![false; cands.len()];
    let mut hints = Vec::new();
    loop {
        let mut progress = false;
        for (i, (lits, id)) in cands.iter().enumerate() {
            if used[i] {
                continue;
            }
            *ticks += lits.len() as u64;
            let mut open = None;
            let mut opens = 0;
            let mut satisfied = false;
            for &l in lits {
                match lit_value(&value, l) {
                    Some(true) => {
                        satisfied = true;
                        break;
                    }
                    Some(false) => {}
                    None => {
                        opens += 1;
                        open = Some(l);
                    }
                }
            }
            if satisfied {
                continue;
            }
            match (opens, open) {
                (0, _) => {
                    hints.push(*id as i64);
                    return Some(hints);
                }
                (1, Some(l)) => {
                    value.insert(l.var().index(), l.is_positive());
                    hints.push(*id as i64);
                    used[i] = true;
                    progress = true;
                }
                _ => {}
            }
        }
        if !progress {
            return None;
        }
    }
}

impl Solver {
    /// Whether a congruence round is due.
    pub(crate) fn congruencing(&self) -> bool {
        self.opts.congruence && self.ok && self.stats.conflicts >= self.congruence.next
    }

    /// One round of congruence closure (module doc). Leaves the solver at level 0, propagated,
    /// or `ok == false`.
    pub(crate) fn congruence(&mut self) {
        let first = self.congruence.rounds == 0;
        self.congruence.rounds += 1;
        let k = self.congruence.rounds as f64;
        self.congruence.next =
            self.stats.conflicts + (self.opts.congruence_interval as f64 * k.sqrt()) as u64;
        if self.congruence.skip > 0 {
            self.congruence.skip -= 1;
            return;
        }
        if !self.start_at_root() {
            return;
        }
        self.stats.congruence_rounds += 1;
        // Lingering watches and clauses of deleted ones must not be read as gate clauses.
        self.collect_garbage();
        let literals: usize = self
            .clauses
            .originals
            .iter()
            .map(|&c| self.arena.len(c))
            .sum();
        let budget = if first {
            literals as u64 * 20
        } else {
            effort_since(
                self.congruence.props_mark,
                self.stats.propagations,
                self.opts.congruence_effort,
            ) + literals as u64
        };
        let mut closure = self.extract_gates(budget);
        self.stats.congruence_gates += closure.gates.len() as u64;
        self.close(&mut closure, budget.saturating_mul(2));
        let merged = closure.merges.len();
        for m in &closure.merges {
            self.add_irredundant(&[!m.a, m.b], m.ids.0);
            self.add_irredundant(&[m.a, !m.b], m.ids.1);
        }
        self.stats.congruence_merged += merged as u64;
        self.congruence.props_mark = self.stats.propagations;
        if closure.gates.is_empty() {
            // No gate at all (uniform random formulas): inprocessing rarely makes one, and
            // each round would cost a restart. No more rounds.
            self.congruence.next = u64::MAX;
            return;
        }
        if merged == 0 {
            self.congruence.delay = (self.congruence.delay + 1).min(16);
            self.congruence.skip = self.congruence.delay;
        } else {
            self.congruence.delay = 0;
        }
        if !self.ok || merged == 0 {
            return;
        }
        if self.opts.substitute {
            self.substitute.request();
            self.substitute();
        } else {
            self.propagate_root();
        }
    }

    /// The gates of the irredundant clauses whose literals are all unassigned, within
    /// `budget` literal visits.
    fn extract_gates(&mut self, budget: u64) -> Closure {
        let n = self.trail.num_vars();
        let mut occ: Vec<Vec<CRef>> = vec![Vec::new(); 2 * n];
        let mut ticks = 0u64;
        for &c in &self.clauses.originals {
            if self.arena.is_deleted(c) {
                continue;
            }
            let lits = self.arena.lits(c);
            ticks += lits.len() as u64;
            if lits.iter().any(|&l| self.trail.value(l) != L_UNDEF) {
                continue;
            }
            for &l in lits {
                occ[l.code()].push(c);
            }
        }
        let mut gates: Vec<Gate> = Vec::new();
        let mut marks = vec![0u32; 2 * n];
        let mut stamp = 0u32;
        // AND gates, one per output literal at most.
        for code in 0..2 * n {
            if ticks > budget {
                break;
            }
            let lhs = Lit::from_code(code);
            if self.elim.is_eliminated(lhs.var().index()) {
                continue;
            }
            stamp += 1;
            let mut inputs: Vec<(Lit, CRef)> = Vec::new();
            for &c in &occ[(!lhs).code()] {
                let lits = self.arena.lits(c);
                if lits.len() == 2 {
                    let a = if lits[0] == !lhs { lits[1] } else { lits[0] };
                    if marks[a.code()] != stamp {
                        marks[a.code()] = stamp;
                        inputs.push((a, c));
                    }
                }
            }
            ticks += occ[(!lhs).code()].len() as u64;
            if inputs.len() < 2 {
                continue;
            }
            for &c in &occ[code] {
                let lits = self.arena.lits(c);
                ticks += lits.len() as u64;
                if lits.len() < 3
                    || !lits
                        .iter()
                        .all(|&m| m == lhs || marks[(!m).code()] == stamp)
                {
                    continue;
                }
                let mut clauses = vec![c];
                let mut ins = Vec::new();
                for &m in lits {
                    if m != lhs {
                        ins.push(!m);
                        if let Some(&(_, b)) = inputs.iter().find(|(a, _)| *a == !m) {
                            clauses.push(b);
                        }
                    }
                }
                gates.push(Gate {
                    kind: Kind::And,
                    lhs,
                    inputs: ins,
                    clauses,
                    flip: false,
                    key: Vec::new(),
                    alive: true,
                });
                break;
            }
        }
        // XOR gates: from each constraint's canonical clause (no negative literal, or only
        // the one of the smallest variable), one gate per variable of the constraint.
        let max_size = self.opts.congruence_xor_arity as usize + 1;
        for &c in &self.clauses.originals {
            if ticks > budget {
                break;
            }
            let lits = self.arena.lits(c);
            let size = lits.len();
            if !(3..=max_size).contains(&size) || self.arena.is_deleted(c) {
                continue;
            }
            if lits.iter().any(|&l| self.trail.value(l) != L_UNDEF) {
                continue;
            }
            let mut sorted: Vec<Lit> = lits.to_vec();
            sorted.sort_unstable_by_key(|l| l.var().index());
            let negatives = sorted.iter().filter(|l| l.is_negative()).count();
            if negatives > 1 || (negatives == 1 && !sorted[0].is_negative()) {
                continue;
            }
            let parity = negatives % 2;
            stamp += 1;
            for &l in &sorted {
                marks[l.code()] = stamp;
                marks[(!l).code()] = stamp;
            }
            let pivot = sorted
                .iter()
                .copied()
                .min_by_key(|l| occ[l.code()].len() + occ[(!*l).code()].len())
                .expect("a clause of three or more literals");
            let needed = 1usize << (size - 1);
            let mut seen: Vec<u64> = Vec::with_capacity(needed);
            let mut clauses = Vec::with_capacity(needed);
            for &d in occ[pivot.code()].iter().chain(&occ[(!pivot).code()]) {
                let dl = self.arena.lits(d);
                ticks += dl.len() as u64;
                if dl.len() != size
                    || dl.iter().filter(|l| l.is_negative()).count() % 2 != parity
                    || !dl.iter().all(|&m| marks[m.code()] == stamp)
                {
                    continue;
                }
                let mut pattern = 0u64;
                for &m in dl {
                    if m.is_negative()
                        && let Some(i) = sorted.iter().position(|x| x.var() == m.var())
                    {
                        pattern |= 1 << i;
                    }
                }
                if seen.contains(&pattern) {
                    continue;
                }
                seen.push(pattern);
                clauses.push(d);
            }
            if clauses.len() != needed {
                continue;
            }
            // The constraint: XOR of the variables is 1 ⊕ parity (module doc of `eliminate.rs`:
            // each clause excludes the one assignment that falsifies it).
            let p = 1 - parity;
            for (i, &l) in sorted.iter().enumerate() {
                let v = l.var();
                let lhs = if p == 1 { v.neg() } else { v.pos() };
                let inputs: Vec<Lit> = sorted
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != i)
                    .map(|(_, m)| m.var().pos())
                    .collect();
                gates.push(Gate {
                    kind: Kind::Xor,
                    lhs,
                    inputs,
                    clauses: clauses.clone(),
                    flip: false,
                    key: Vec::new(),
                    alive: true,
                });
            }
        }
        // ITE gates: two ternary clauses with ¬lhs clashing on the condition, then their two
        // partners with lhs.
        for code in 0..2 * n {
            if ticks > budget {
                break;
            }
            let lhs = Lit::from_code(code);
            let neg: Vec<(CRef, [Lit; 2])> = occ[(!lhs).code()]
                .iter()
                .filter_map(|&c| {
                    let lits = self.arena.lits(c);
                    if lits.len() != 3 {
                        return None;
                    }
                    let mut rest = lits.iter().copied().filter(|&m| m != !lhs);
                    Some((c, [rest.next()?, rest.next()?]))
                })
                .collect();
            if neg.len() < 2 || neg.len() > 64 {
                continue;
            }
            let mut found = false;
            for (i, &(a, ra)) in neg.iter().enumerate() {
                for &(b, rb) in &neg[i + 1..] {
                    ticks += 1;
                    // a = ¬lhs ∨ ¬c ∨ t, b = ¬lhs ∨ c ∨ e.
                    for (x, y) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
                        if ra[x] != !rb[y] {
                            continue;
                        }
                        let c = rb[y];
                        let (t, e) = (ra[1 - x], rb[1 - y]);
                        if t.var() == e.var() || t.var() == c.var() || e.var() == c.var() {
                            continue;
                        }
                        let p1 = self.find_ternary(&occ[code], [lhs, !c, !t], &mut ticks);
                        let p2 = self.find_ternary(&occ[code], [lhs, c, !e], &mut ticks);
                        if let (Some(p1), Some(p2)) = (p1, p2) {
                            gates.push(Gate {
                                kind: Kind::Ite,
                                lhs,
                                inputs: vec![c, t, e],
                                clauses: vec![a, b, p1, p2],
                                flip: false,
                                key: Vec::new(),
                                alive: true,
                            });
                            found = true;
                            break;
                        }
                    }
                    if found {
                        break;
                    }
                }
                if found {
                    break;
                }
            }
        }
        let mut uses: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (i, g) in gates.iter().enumerate() {
            for &l in &g.inputs {
                uses[l.var().index()].push(i);
            }
        }
        Closure {
            gates,
            table: HashMap::new(),
            repr: (0..n).map(|v| Var::from_index(v).pos()).collect(),
            uses,
            edges: vec![Vec::new(); 2 * n],
            queue: Vec::new(),
            merges: Vec::new(),
            contradiction: false,
            ticks,
        }
    }

    /// The ternary clause of `side` with exactly the literals `lits`.
    fn find_ternary(&self, side: &[CRef], lits: [Lit; 3], ticks: &mut u64) -> Option<CRef> {
        side.iter().copied().find(|&c| {
            let have = self.arena.lits(c);
            *ticks += 1;
            have.len() == 3 && lits.iter().all(|l| have.contains(l))
        })
    }

    /// Hashes every gate, merging the outputs of congruent ones, and normalises again the
    /// gates over merged variables until nothing changes (or `budget` ticks are spent).
    fn close(&mut self, cl: &mut Closure, budget: u64) {
        for g in 0..cl.gates.len() {
            if cl.ticks > budget || cl.contradiction || !self.ok {
                return;
            }
            self.hash_gate(cl, g);
            while let Some(v) = cl.queue.pop() {
                if cl.ticks > budget || cl.contradiction || !self.ok {
                    return;
                }
                let users = std::mem::take(&mut cl.uses[v]);
                let root = cl.find(Var::from_index(v).pos()).var().index();
                for &h in &users {
                    if cl.gates[h].alive && !cl.gates[h].key.is_empty() {
                        let key = std::mem::take(&mut cl.gates[h].key);
                        if cl.table.get(&key) == Some(&h) {
                            cl.table.remove(&key);
                        }
                        self.hash_gate(cl, h);
                    }
                }
                cl.uses[root].extend(users);
            }
        }
    }

    /// Normalises gate `g` and looks its key up: a congruent gate merges the outputs (and `g`
    /// is retired), otherwise `g` goes into the table.
    fn hash_gate(&mut self, cl: &mut Closure, g: usize) {
        cl.ticks += cl.gates[g].inputs.len() as u64;
        let Some((key, flip)) = cl.normalize(g) else {
            cl.gates[g].alive = false;
            return;
        };
        cl.gates[g].flip = flip;
        match cl.table.get(&key).copied().unwrap_or(NO_GATE) {
            NO_GATE => {
                cl.table.insert(key.clone(), g);
                cl.gates[g].key = key;
            }
            h => {
                cl.gates[g].alive = false;
                let (a, b) = (cl.gates[h].out(), cl.gates[g].out());
                self.merge(cl, h, g, a, b);
            }
        }
    }

    /// Derives `a ≡ b` for the outputs of the congruent gates `g` and `h` (module doc: the
    /// proof steps), records it and unites the classes.
    fn merge(&mut self, cl: &mut Closure, g: usize, h: usize, a: Lit, b: Lit) {
        let (ra, rb) = (cl.find(a), cl.find(b));
        if ra == rb || a.var() == b.var() {
            return;
        }
        // An output that has become one of the inputs (a merge since the gate was hashed):
        // the gate is degenerate, and the split below would repeat a variable.
        for x in [g, h] {
            let inputs = cl.gates[x].inputs.clone();
            for l in inputs {
                let r = cl.find(l).var();
                if r == ra.var() || r == rb.var() {
                    return;
                }
            }
        }
        // The candidate clauses: both gates' clauses and the paths from each input to its
        // representative.
        let mut cands: Vec<(Vec<Lit>, u64)> = Vec::new();
        for &x in [g, h].iter() {
            for &c in &cl.gates[x].clauses {
                cands.push((self.arena.lits(c).to_vec(), self.arena.id(c)));
            }
            let inputs = cl.gates[x].inputs.clone();
            for l in inputs {
                let r = cl.find(l);
                cl.path(l, r, &mut cands);
            }
        }
        let Some(ids) = self.derive_equivalence(cl, g, a, b, &cands) else {
            debug_assert!(
                false,
                "congruence.rs: a congruent pair that does not propagate"
            );
            return;
        };
        cl.merges.push(Merge { a, b, ids });
        for (from, to, fwd, bwd) in [(a, b, ids.0, ids.1), (!a, !b, ids.1, ids.0)] {
            cl.edges[from.code()].push((to, fwd, bwd));
            cl.edges[to.code()].push((from, bwd, fwd));
        }
        if ra == !rb {
            cl.contradiction = true;
            return;
        }
        // The larger variable points to the smaller root.
        let (keep, go) = if ra.var().index() < rb.var().index() {
            (ra, rb)
        } else {
            (rb, ra)
        };
        let gv = go.var().index();
        cl.repr[gv] = if go.is_positive() { keep } else { !keep };
        cl.queue.push(gv);
    }

    /// Logs `¬a ∨ b` and `a ∨ ¬b` (with the case-split clauses XOR and ITE need first) and
    /// returns their identifiers; None when the candidates do not propagate to a conflict.
    fn derive_equivalence(
        &mut self,
        cl: &mut Closure,
        g: usize,
        a: Lit,
        b: Lit,
        cands: &[(Vec<Lit>, u64)],
    ) -> Option<(u64, u64)> {
        // The split literals: none for AND, the condition's representative for ITE, the
        // inputs' representatives for XOR.
        let split: Vec<Lit> = match cl.gates[g].kind {
            Kind::And => Vec::new(),
            Kind::Ite => {
                let c = cl.gates[g].inputs[0];
                vec![cl.find(c).var().pos()]
            }
            Kind::Xor => {
                let inputs = cl.gates[g].inputs.clone();
                inputs.iter().map(|&l| cl.find(l).var().pos()).collect()
            }
        };
        let mut ids = [0u64; 2];
        for (side, target) in [[!a, b], [a, !b]].iter().enumerate() {
            // Clauses target ∨ (every sign pattern over `split`), then resolved down.
            let mut level: Vec<(Vec<Lit>, u64)> = Vec::new();
            let k = split.len();
            for pattern in 0..(1u64 << k) {
                let mut lits = target.to_vec();
                for (i, &s) in split.iter().enumerate() {
                    lits.push(if pattern >> i & 1 == 1 { !s } else { s });
                }
                let hints = rup_hints(&lits, cands, &mut cl.ticks)?;
                let id = if k == 0 {
                    0
                } else {
                    self.proof.add(&lits, &hints)
                };
                level.push((lits, id));
                if k == 0 {
                    ids[side] = self.proof.add(target, &hints);
                }
            }
            let mut all: Vec<(Vec<Lit>, u64)> = Vec::new();
            for j in (0..k).rev() {
                // Patterns p and p | 1<<j differ in split[j] only: resolve them.
                let mut next = Vec::new();
                for p in 0..(1usize << j) {
                    let (x, y) = (&level[p], &level[p | 1 << j]);
                    let lits = x.0[..x.0.len() - 1].to_vec();
                    let hints = [x.1 as i64, y.1 as i64];
                    let id = if j == 0 {
                        let id = self.proof.add(&lits, &hints);
                        ids[side] = id;
                        id
                    } else {
                        self.proof.add(&lits, &hints)
                    };
                    next.push((lits, id));
                }
                all.append(&mut level);
                level = next;
            }
            for (lits, id) in all {
                self.proof.delete(&lits, id, &self.trail);
            }
        }
        Some((ids[0], ids[1]))
    }
}
