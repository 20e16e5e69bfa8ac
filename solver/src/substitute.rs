//! Equivalent-literal substitution: literals on a cycle of binary implications are
//! equivalent; every variable of such a cycle but one is replaced by its representative,
//! which removes the variable from the search.
//!
//! The binary clauses (irredundant and learned) form the binary implication graph: `a ∨ b`
//! gives `¬a → b` and `¬b → a`. A strongly connected component of that graph is a set of
//! equivalent literals; one holding a literal and its negation refutes the clauses. Tarjan's
//! algorithm finds the components in one pass (iteratively here: a recursive one overflows
//! the stack on a chain of a million binaries). Each component gets a representative — the
//! literal of its smallest frozen variable when it has one (frozen, observed and assumed
//! variables must stay), else its literal of smallest code, a rule that gives the complementary
//! component the complementary representative — and every clause over a replaced variable is
//! rewritten: duplicates merged, tautologies (among them the cycle's own binaries) deleted.
//!
//! Runs at level 0 in the search ladder every `substitute_interval` conflicts (the interval
//! grows with √rounds, like reduction's), within `substitute_effort` graph edges per
//! propagation of search since the previous round, so it stays a small share of the run (the
//! graph is linear to scan; Kissat and CaDiCaL run it as part of probing for the same reason:
//! probing's hyper-binary resolvents close new cycles).
//!
//! Proofs: for each replaced `x ≡ r` the two binaries `¬x ∨ r`, `x ∨ ¬r` are added first (RUP:
//! unit propagation runs along the cycle; their LRAT hints are the binary clauses of a path
//! `x →* r`, resp. `r →* x`, read off breadth-first trees from the representative inside the
//! component), then each rewritten clause is added (RUP with them; LRAT hints: the level-0
//! units it lost, the binary of each replaced literal, the old clause) and the old one deleted.
//! The two binaries are never deleted from the proof: they go on elimination's stack with
//! their identifiers, and a restoration brings them back under those. Model reconstruction and incremental use: the two binaries go on
//! elimination's stack (`Elimination::substitute`), so a model gives `x` the value of `r`, and
//! a later clause or assumption over `x` restores them with the rest of the stack.
//!
//! Aspvall, Plass & Tarjan (IPL 1979) for 2-SAT by components; equivalent-literal
//! substitution as inprocessing: Van Gelder, "Toward leaner binary-clause reasoning in a
//! satisfiability solver" (AMAI 2005), Heule, Järvisalo & Biere, "Efficient CNF simplification
//! based on binary implication graphs" (SAT 2011), CaDiCaL's `decompose.cpp`, Kissat's
//! `substitute.c`. Ours differs in running on its own schedule (not only inside probing), and
//! in that a component of two frozen variables is left as it is (both stay, the binaries keep
//! the equivalence).

#![forbid(unsafe_code)]

use crate::clause::{CRef, NO_REASON};
use crate::inprocess::{Rounds, collect_root_clause};
use crate::solver::Solver;
use crate::types::{L_UNDEF, Lit, Var};

/// The substitution schedule: written only here.
#[derive(Default)]
pub(crate) struct Substitute {
    schedule: Rounds,
    /// Binary clauses seen by the previous round that found nothing, or `usize::MAX`: when the
    /// count is unchanged the graph is probably unchanged, and the round is skipped.
    quiet_binaries: usize,
}

const UNVISITED: u32 = u32::MAX;

/// The state of Tarjan's strongly-connected-components walk over literal codes, iterative (an
/// explicit call stack: a recursive walk would overflow on long implication chains).
struct Tarjan {
    /// Discovery number of each node, `UNVISITED` before.
    index: Vec<u32>,
    /// Lowest discovery number reachable from the node's subtree.
    low: Vec<u32>,
    /// Whether the node is on `stack` (its component is still open).
    on_stack: Vec<bool>,
    /// The nodes of the open components, in discovery order.
    stack: Vec<usize>,
    /// The walk's call stack: a node and the position reached in its watch list.
    calls: Vec<(usize, usize)>,
    /// The next discovery number.
    counter: u32,
}

impl Tarjan {
    fn new(nodes: usize) -> Tarjan {
        Tarjan {
            index: vec![UNVISITED; nodes],
            low: vec![0; nodes],
            on_stack: vec![false; nodes],
            stack: Vec::new(),
            calls: Vec::new(),
            counter: 0,
        }
    }

    /// Discovers `node`: numbered, on the stack, and its edge walk begun. The roots and the
    /// children the walk descends into both start here.
    fn open(&mut self, node: usize) {
        self.index[node] = self.counter;
        self.low[node] = self.counter;
        self.counter += 1;
        self.stack.push(node);
        self.on_stack[node] = true;
        self.calls.push((node, 0));
    }
}

impl Substitute {
    /// New binary clauses were found (probing's hyper-binary resolvents): the next round is
    /// due at the next chance.
    pub(crate) fn request(&mut self) {
        self.schedule.next = 0;
    }
}

impl Solver {
    /// One round of equivalent-literal substitution (module doc). Leaves the solver at level 0
    /// with the clauses propagated, or `ok == false`.
    pub(crate) fn substitute(&mut self) {
        if !self.start_round(
            |s| &mut s.substitute.schedule,
            self.opts.substitute_interval,
        ) {
            return;
        }
        // Lingering watches of deleted clauses must not count as edges.
        self.collect_garbage();
        let binaries = self
            .clauses
            .originals
            .iter()
            .chain(&self.clauses.learnts)
            .filter(|&&c| self.arena.len(c) == 2)
            .count();
        if binaries == self.substitute.quiet_binaries {
            self.substitute.schedule.props_mark = self.stats.propagations;
            return;
        }
        self.stats.substitute_rounds += 1;
        let effort = self.opts.substitute_effort;
        let budget = self
            .substitute
            .schedule
            .budget(self.stats.propagations, effort)
            + 2 * binaries as u64;
        let (subst, paths, contradiction) = self.equivalences(budget);
        if let Some((x, path)) = contradiction {
            // x →* ¬x and ¬x →* x: ¬x is RUP (the path from x is its hints, cut at its
            // first conflict), and propagating it reaches x.
            let hints = self.binary_path_hints(x, &path);
            let id = self.proof.add(&[!x], &hints);
            self.trail.assign(!x, NO_REASON);
            self.proof.set_unit(x.var().index(), id);
            if !self.propagate_root() {
                return;
            }
        }
        let replaced = subst.iter().filter(|s| s.is_some()).count();
        if replaced == 0 {
            self.substitute.quiet_binaries = binaries;
            self.substitute.schedule.props_mark = self.stats.propagations;
            return;
        }
        self.substitute.quiet_binaries = usize::MAX;
        self.rewrite(&subst, &paths);
        self.substitute.schedule.props_mark = self.stats.propagations;
    }

    /// Whether a substitution round is due.
    pub(crate) fn substituting(&self) -> bool {
        self.round_due(self.opts.substitute, &self.substitute.schedule)
    }

    /// Tarjan's components of the binary implication graph over unassigned literals, within
    /// `budget` edge visits: for each variable to replace, the literal its positive literal
    /// becomes; with an LRAT proof, for each the paths of binary clauses `x →* r` and
    /// `r →* x` (from its positive literal `x` to its representative `r` and back: the
    /// hints of the two binaries of the equivalence); and a literal `x` equivalent to its
    /// own negation, if one was found, with a path `x →* ¬x`.
    #[allow(clippy::type_complexity)]
    fn equivalences(
        &self,
        budget: u64,
    ) -> (Vec<Option<Lit>>, Vec<EqPaths>, Option<(Lit, Vec<CRef>)>) {
        let n = self.trail.num_vars();
        let lrat = self.proof.is_lrat();
        let mut paths: Vec<EqPaths> = Vec::new();
        let mut trees = if lrat {
            Trees::new(2 * n)
        } else {
            Trees::new(0)
        };
        let mut subst: Vec<Option<Lit>> = vec![None; n];
        let mut tarjan = Tarjan::new(2 * n);
        let mut component: Vec<usize> = Vec::new();
        let mut ticks = 0u64;
        let mut frozen: Vec<bool> = (0..n).map(|v| self.elim.is_frozen(v)).collect();
        for a in &self.assumptions {
            frozen[a.var().index()] = true;
        }
        for root in 0..2 * n {
            if ticks > budget {
                break;
            }
            let v = root / 2;
            if tarjan.index[root] != UNVISITED
                || self.trail.var_value(v) != L_UNDEF
                || self.elim.is_eliminated(v)
            {
                continue;
            }
            tarjan.open(root);
            while let Some(&(node, pos)) = tarjan.calls.last() {
                let ws = self.watches.list(Lit::from_code(node));
                let mut next = pos;
                let mut child = None;
                while next < ws.len() {
                    let w = ws[next];
                    next += 1;
                    if !w.is_binary() {
                        continue;
                    }
                    ticks += 1;
                    let t = w.blocker;
                    if self.trail.value(t) != L_UNDEF {
                        continue;
                    }
                    let u = t.code();
                    if tarjan.index[u] == UNVISITED {
                        child = Some(u);
                        break;
                    } else if tarjan.on_stack[u] {
                        tarjan.low[node] = tarjan.low[node].min(tarjan.index[u]);
                    }
                }
                let top = tarjan.calls.len() - 1;
                tarjan.calls[top].1 = next;
                if let Some(u) = child {
                    tarjan.open(u);
                    continue;
                }
                tarjan.calls.pop();
                if let Some(&(parent, _)) = tarjan.calls.last() {
                    tarjan.low[parent] = tarjan.low[parent].min(tarjan.low[node]);
                }
                if tarjan.low[node] != tarjan.index[node] {
                    continue;
                }
                component.clear();
                loop {
                    let m = tarjan
                        .stack
                        .pop()
                        .expect("Tarjan's stack holds the component");
                    tarjan.on_stack[m] = false;
                    component.push(m);
                    if m == node {
                        break;
                    }
                }
                if component.len() < 2 {
                    continue;
                }
                // A literal and its negation in one component (adjacent codes once sorted):
                // the clauses are refuted.
                component.sort_unstable();
                if let Some(w) = component.windows(2).find(|w| w[0] ^ 1 == w[1]) {
                    let x = Lit::from_code(w[0]);
                    let mut path = Vec::new();
                    if lrat {
                        self.bfs(&mut trees, w[0], &component, false);
                        trees.path(w[0], w[1], &mut path);
                    }
                    return (subst, paths, Some((x, path)));
                }
                let rep = component
                    .iter()
                    .copied()
                    .filter(|&m| frozen[m / 2])
                    .min()
                    .unwrap_or(component[0]);
                let rep_code = rep;
                let rep = Lit::from_code(rep);
                let first_new = paths.len();
                for &m in &component {
                    let var = m / 2;
                    if var == rep.var().index() || frozen[var] || subst[var].is_some() {
                        continue;
                    }
                    let lit = Lit::from_code(m);
                    // lit ≡ rep, so the positive literal of var is rep or ¬rep.
                    subst[var] = Some(if lit.is_positive() { rep } else { !rep });
                    if lrat {
                        paths.push(EqPaths {
                            var,
                            x_to_r: Vec::new(),
                            r_to_x: Vec::new(),
                        });
                    }
                }
                if lrat {
                    // rep →* m for every member m, then ¬rep →* ¬m (that is, m →* rep). For
                    // the positive literal x of m's variable and its image r: when m = x,
                    // x →* r is the second and r →* x the first; when m = ¬x (r = ¬rep),
                    // x →* r is the first read backwards and r →* x the second.
                    for negated in [false, true] {
                        self.bfs(
                            &mut trees,
                            rep_code ^ usize::from(negated),
                            &component,
                            negated,
                        );
                        for p in &mut paths[first_new..] {
                            let m = if component.binary_search(&(2 * p.var)).is_ok() {
                                2 * p.var
                            } else {
                                2 * p.var + 1
                            };
                            let positive = m & 1 == 0;
                            let out = if positive == negated {
                                &mut p.x_to_r
                            } else {
                                &mut p.r_to_x
                            };
                            let flip = usize::from(negated);
                            trees.path(rep_code ^ flip, m ^ flip, out);
                        }
                    }
                }
            }
        }
        paths.sort_by_key(|p| p.var);
        (subst, paths, None)
    }

    /// Breadth-first search from literal code `root` over the binary implications between the
    /// literals of `component` (their negations when `negated`), recording in `trees` the
    /// clause that first reached each (LRAT's paths of `equivalences`).
    fn bfs(&self, trees: &mut Trees, root: usize, component: &[usize], negated: bool) {
        trees.stamp += 1;
        let stamp = trees.stamp;
        let flip = usize::from(negated);
        for &m in component {
            trees.member[m ^ flip] = stamp;
        }
        trees.queue.clear();
        trees.queue.push(root);
        trees.reached[root] = stamp;
        let mut head = 0;
        while head < trees.queue.len() {
            let node = trees.queue[head];
            head += 1;
            for w in self.watches.list(Lit::from_code(node)) {
                if !w.is_binary() {
                    continue;
                }
                let t = w.blocker.code();
                if trees.member[t] == stamp && trees.reached[t] != stamp {
                    trees.reached[t] = stamp;
                    trees.parent[t] = (node, w.cref());
                    trees.queue.push(t);
                }
            }
        }
    }

    /// Replaces every variable `v` with `subst[v] = Some(r)` by `r` in every clause (module
    /// doc). Pre: level 0, propagated, no watch of a deleted clause.
    fn rewrite(&mut self, subst: &[Option<Lit>], paths: &[EqPaths]) {
        let map = |l: Lit| match subst[l.var().index()] {
            Some(r) => {
                if l.is_positive() {
                    r
                } else {
                    !r
                }
            }
            None => l,
        };
        // LRAT: per replaced variable, the identifiers of `¬x ∨ r` and `x ∨ ¬r`.
        let mut binary_ids: Vec<(u64, u64)> = Vec::new();
        if self.proof.is_lrat() {
            binary_ids.resize(subst.len(), (0, 0));
        }
        let mut path_of = paths.iter().peekable();
        for (v, s) in subst.iter().enumerate() {
            if let Some(r) = *s {
                let x = Var::from_index(v).pos();
                let ids = |path: &[CRef]| -> Vec<i64> {
                    path.iter().map(|&c| self.arena.id(c) as i64).collect()
                };
                let (x_to_r, r_to_x) = match path_of.next_if(|p| p.var == v) {
                    Some(p) => (ids(&p.x_to_r), ids(&p.r_to_x)),
                    None => (Vec::new(), Vec::new()),
                };
                let neg_x_or_r = self.proof.add(&[!x, r], &x_to_r);
                let x_or_neg_r = self.proof.add(&[x, !r], &r_to_x);
                if let Some(slot) = binary_ids.get_mut(v) {
                    *slot = (neg_x_or_r, x_or_neg_r);
                }
                self.elim.substitute(x, r, x_or_neg_r, neg_x_or_r);
                self.stats.substituted += 1;
            }
        }
        let mut marks = vec![0u8; 2 * self.trail.num_vars()];
        let mut buf: Vec<Lit> = Vec::new();
        let mut units: Vec<(Lit, u64)> = Vec::new();
        let mut added: Vec<(CRef, bool)> = Vec::new();
        let all: Vec<CRef> = self
            .clauses
            .originals
            .iter()
            .chain(&self.clauses.learnts)
            .copied()
            .collect();
        for c in all {
            if self.arena.is_deleted(c)
                || !self
                    .arena
                    .lits(c)
                    .iter()
                    .any(|&l| subst[l.var().index()].is_some())
            {
                continue;
            }
            buf.clear();
            let mapped = self.arena.lits(c).iter().map(|&l| map(l));
            let drop = !collect_root_clause(&self.trail, mapped, &mut marks, &mut buf);
            let learned = self.arena.is_learned(c);
            let mut id = 0;
            if !drop {
                if self.proof.is_lrat() {
                    self.rewrite_hints(c, &map, &binary_ids);
                }
                id = self.proof.add(&buf, &self.lrat.hints);
            }
            self.proof
                .delete(self.arena.lits(c), self.arena.id(c), &self.trail);
            self.arena.delete(c);
            if drop {
                continue;
            }
            match buf.len() {
                0 => {
                    // The empty clause, just logged.
                    self.ok = false;
                    return;
                }
                1 => units.push((buf[0], id)),
                _ => {
                    let lbd = self.arena.lbd(c).min(buf.len() as u32 - 1);
                    match self.arena.alloc(&buf, learned, lbd, id) {
                        Some(d) => {
                            if learned {
                                self.arena.set_used(d, self.arena.used(c));
                                self.arena.set_activity(d, self.arena.activity(c));
                            }
                            added.push((d, learned));
                        }
                        None => {
                            self.out_of_memory = true;
                            return;
                        }
                    }
                }
            }
        }
        self.clauses.retain_live(&self.arena);
        for (d, learned) in added {
            self.watches.attach(&self.arena, d);
            self.clauses.push(d, learned);
        }
        // Old clauses' watches go before anything propagates (`watch.rs` invariant 4).
        self.collect_garbage();
        if !self.fix_units(&units) {
            return;
        }
        self.propagate_root();
    }

    /// The LRAT hints of clause `c` rewritten through `map` (level-0 false literals dropped)
    /// into `self.lrat.hints`: the units of the rewritten literals that are false on level 0,
    /// then for each replaced literal `l` its binary `¬l ∨ map(l)` (unit on `¬l` once
    /// `map(l)` is false), then `c`, which is then falsified. `binary_ids[v]` are the
    /// identifiers of `¬x ∨ r` and `x ∨ ¬r` for the positive literal `x` of `v`.
    fn rewrite_hints(&mut self, c: CRef, map: &impl Fn(Lit) -> Lit, binary_ids: &[(u64, u64)]) {
        let lits: Vec<Lit> = self.arena.lits(c).to_vec();
        self.lrat.hints.clear();
        self.root_hints(lits.iter().map(|&l| map(l)));
        for &l in &lits {
            if map(l) != l {
                let (neg_x_or_r, x_or_neg_r) = binary_ids[l.var().index()];
                let id = if l.is_positive() {
                    neg_x_or_r
                } else {
                    x_or_neg_r
                };
                self.lrat.hints.push(id as i64);
            }
        }
        self.lrat.hints.push(self.arena.id(c) as i64);
    }
}

/// The paths of binary clauses that justify one replaced variable's two binaries (LRAT):
/// `x →* r` for `¬x ∨ r`, `r →* x` for `x ∨ ¬r`, `x` its positive literal.
struct EqPaths {
    var: usize,
    x_to_r: Vec<CRef>,
    r_to_x: Vec<CRef>,
}

/// The breadth-first trees `equivalences` reads its paths from (LRAT only): per literal code,
/// the stamps of membership and of being reached, and the literal and clause it was reached
/// from.
struct Trees {
    member: Vec<u32>,
    reached: Vec<u32>,
    parent: Vec<(usize, CRef)>,
    queue: Vec<usize>,
    stamp: u32,
}

impl Trees {
    fn new(codes: usize) -> Trees {
        Trees {
            member: vec![0; codes],
            reached: vec![0; codes],
            parent: vec![(0, 0); codes],
            queue: Vec::new(),
            stamp: 0,
        }
    }

    /// The clauses of the tree path from `root` to `target` (in the last search), in order.
    fn path(&self, root: usize, target: usize, out: &mut Vec<CRef>) {
        out.clear();
        let stamp = self.stamp;
        let mut node = target;
        while node != root {
            if self.reached[node] != stamp {
                // Not reached: no path (cannot happen inside a component); the hints stay
                // short and the checker, not a panic, reports it.
                debug_assert!(false, "substitute.rs: a component member the search missed");
                out.clear();
                return;
            }
            let (from, clause) = self.parent[node];
            out.push(clause);
            node = from;
        }
        out.reverse();
    }
}
