//! At-most-one groups among the soft literals (RC2's `adapt`), found by unit propagation and
//! replaced by one term each before the search.
//!
//! **Technique.** If making term `a` true propagates term `b` false, `a` and `b` are mutually
//! exclusive. A clique of such terms `G` (pairwise exclusive: at most one true) violates at
//! least `|G| − 1` of its terms in every solution. With `m` the smallest weight in `G`:
//! `Σ w_i·[¬g_i] = m·(|G| − 1) + m·[no g_i true] + Σ (w_i − m)·[¬g_i]`, so the lower bound rises
//! by `m·(|G| − 1)`, each term loses `m`, and a new term `s` (with `s → ∨ g_i`, a hard clause)
//! of weight `m` stands for "one of the group is true"; the members left with weight form a
//! smaller group and the step repeats. A term whose own propagation fails is a unit core. The
//! cliques are grown greedily, as RC2 does: start at the term of least degree, add neighbours
//! in increasing degree when adjacent to every member.
//!
//! **Papers.** Ignatiev, Morgado & Marques-Silva, "Cardinality encodings for graph
//! optimization problems" (IJCAI 2017) and RC2 (JSAT 2019, "intrinsic AtMost1 constraints").
//!
//! **Where ours differs.** RC2 asks its SAT oracle to propagate, once per stratum, over the
//! oracle's current clauses. Our engine has no propagate-only call, so this file carries a small
//! two-watched-literal propagator over the hard clauses and the selector definitions, run once
//! before the search on every soft term at once, with a work limit (`am1_effort`). Unit
//! propagation is the same either way; what we miss are RC2's learned clauses from earlier
//! strata.

use grim_solver::Lit;

use super::oll::{Kind, Oll};

/// Unit propagation over a fixed clause set, with probing (assign, propagate, undo).
struct Propagator {
    /// Clause literals, clause `c` at `lits[start[c]..start[c + 1]]`; the first two are watched.
    lits: Vec<Lit>,
    start: Vec<usize>,
    /// `watches[l.code()]`: the clauses watching `l`, visited when `l` becomes false.
    watches: Vec<Vec<u32>>,
    /// Per variable: 0 unassigned, 1 true, −1 false (the positive literal's value).
    value: Vec<i8>,
    trail: Vec<Lit>,
    /// Watch-list visits so far (the work measure of `am1_effort`).
    work: u64,
}

impl Propagator {
    /// Builds the watch lists and propagates the unit clauses; `None` when the clauses are
    /// unsatisfiable by unit propagation alone.
    fn new(num_vars: usize, clauses: &[&[Lit]]) -> Option<Propagator> {
        let mut p = Propagator {
            lits: Vec::new(),
            start: vec![0],
            watches: vec![Vec::new(); 2 * num_vars],
            value: vec![0; num_vars],
            trail: Vec::new(),
            work: 0,
        };
        let mut units = Vec::new();
        for clause in clauses {
            let mut c = clause.to_vec();
            c.sort_unstable();
            c.dedup();
            if c.windows(2).any(|w| w[0] == !w[1]) {
                continue;
            }
            if c.iter().any(|l| l.var().index() >= num_vars) {
                continue; // cannot happen (the caller sized num_vars); skip rather than index out
            }
            match c.len() {
                0 => return None,
                1 => units.push(c[0]),
                _ => {
                    let id = p.start.len() as u32 - 1;
                    p.watches[c[0].code()].push(id);
                    p.watches[c[1].code()].push(id);
                    p.lits.extend_from_slice(&c);
                    p.start.push(p.lits.len());
                }
            }
        }
        for u in units {
            match p.lit_value(u) {
                1 => {}
                -1 => return None,
                _ => {
                    p.assign(u);
                    if !p.propagate(0) {
                        return None;
                    }
                }
            }
        }
        // Level-0 assignments stay: probes start after them.
        Some(p)
    }

    fn lit_value(&self, l: Lit) -> i8 {
        let v = self.value.get(l.var().index()).copied().unwrap_or(0);
        if l.is_negative() { -v } else { v }
    }

    fn assign(&mut self, l: Lit) {
        if let Some(v) = self.value.get_mut(l.var().index()) {
            *v = if l.is_negative() { -1 } else { 1 };
        }
        self.trail.push(l);
    }

    /// Propagates the trail from position `from`; false on a conflict.
    fn propagate(&mut self, mut from: usize) -> bool {
        while from < self.trail.len() {
            let false_lit = !self.trail[from];
            from += 1;
            let mut ws = std::mem::take(&mut self.watches[false_lit.code()]);
            let mut i = 0;
            let mut ok = true;
            while i < ws.len() {
                self.work += 1;
                let c = ws[i] as usize;
                let (b, e) = (self.start[c], self.start[c + 1]);
                if self.lits[b] == false_lit {
                    self.lits.swap(b, b + 1);
                }
                let other = self.lits[b];
                if self.lit_value(other) == 1 {
                    i += 1;
                    continue;
                }
                let mut moved = false;
                for k in b + 2..e {
                    if self.lit_value(self.lits[k]) != -1 {
                        self.lits.swap(b + 1, k);
                        let nl = self.lits[b + 1];
                        self.watches[nl.code()].push(c as u32);
                        ws.swap_remove(i);
                        moved = true;
                        break;
                    }
                }
                if moved {
                    continue;
                }
                i += 1;
                match self.lit_value(other) {
                    -1 => {
                        ok = false;
                        break;
                    }
                    0 => self.assign(other),
                    _ => {}
                }
            }
            self.watches[false_lit.code()] = ws;
            if !ok {
                return false;
            }
        }
        true
    }

    /// Assigns `l`, propagates, and undoes it. `Ok(implied)` lists the literals it forced
    /// (itself excluded); `Err(())` is a conflict: `l` is false in every model.
    fn probe(&mut self, l: Lit) -> Result<Vec<Lit>, ()> {
        match self.lit_value(l) {
            1 => return Ok(Vec::new()),
            -1 => return Err(()),
            _ => {}
        }
        let base = self.trail.len();
        self.assign(l);
        let ok = self.propagate(base);
        let implied = self.trail[base + 1..].to_vec();
        for &x in &self.trail[base..] {
            if let Some(v) = self.value.get_mut(x.var().index()) {
                *v = 0;
            }
        }
        self.trail.truncate(base);
        if ok { Ok(implied) } else { Err(()) }
    }
}

/// Finds the at-most-one groups among the live soft terms of `oll` and replaces them.
/// `definitions` are the selector clauses `C ∨ ¬s` (the hard clauses come from `oll.wcnf`).
pub(super) fn detect(oll: &mut Oll, definitions: &[Vec<Lit>]) {
    let clauses: Vec<&[Lit]> = oll
        .wcnf
        .hard
        .iter()
        .chain(definitions.iter())
        .map(Vec::as_slice)
        .collect();
    let Some(mut prop) = Propagator::new(oll.solver.num_vars(), &clauses) else {
        return; // the hard clauses are unsatisfiable; the main loop will say so
    };
    let n = oll.terms.len();
    let candidates: Vec<usize> = (0..n)
        .filter(|&t| oll.terms[t].live && oll.terms[t].kind == Kind::Soft)
        .collect();
    let mut adjacent: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut conflicting = Vec::new();
    for &t in &candidates {
        if prop.work > oll.opts.am1_effort {
            break;
        }
        match prop.probe(oll.terms[t].lit) {
            Ok(implied) => {
                for x in implied {
                    if let Some(u) = oll.term_index(!x)
                        && u != t
                        && oll.terms[u].live
                        && oll.terms[u].kind == Kind::Soft
                    {
                        adjacent[t].push(u);
                        adjacent[u].push(t);
                    }
                }
            }
            Err(()) => conflicting.push(t),
        }
    }
    // Terms that cannot be true are unit cores.
    for &t in &conflicting {
        let (lit, w) = (oll.terms[t].lit, oll.terms[t].weight);
        oll.raise_lb(w);
        oll.reduce(t, w);
        oll.solver.add_clause(&[!lit]);
        oll.stats.cores += 1;
        oll.stats.unit_cores += 1;
        oll.stats.core_literals += 1;
        oll.stats.max_core = oll.stats.max_core.max(1);
    }
    for adj in &mut adjacent {
        adj.retain(|&u| oll.terms[u].live);
        adj.sort_unstable();
        adj.dedup();
    }
    let mut degree: Vec<usize> = adjacent.iter().map(Vec::len).collect();
    let mut remaining: Vec<bool> = (0..n).map(|t| oll.terms[t].live && degree[t] > 0).collect();
    // The remaining term of least degree (ties: lowest index) seeds each clique.
    while let Some(seed) = (0..n)
        .filter(|&t| remaining[t])
        .min_by_key(|&t| (degree[t], t))
    {
        let mut group = vec![seed];
        let mut neighbours: Vec<usize> = adjacent[seed]
            .iter()
            .copied()
            .filter(|&u| remaining[u])
            .collect();
        neighbours.sort_by_key(|&u| (degree[u], u));
        for u in neighbours {
            if group[1..]
                .iter()
                .all(|g| adjacent[u].binary_search(g).is_ok())
            {
                group.push(u);
            }
        }
        for &g in &group {
            remaining[g] = false;
        }
        for &g in &group {
            for &u in &adjacent[g] {
                if remaining[u] {
                    degree[u] = degree[u].saturating_sub(1);
                }
            }
        }
        if group.len() > 1 {
            group.sort_unstable();
            replace_group(oll, group);
        }
    }
}

/// Replaces a group of pairwise exclusive terms (see the file's doc): while two or more have
/// weight left, pay `m·(|G| − 1)`, take `m` off each, add the term "one of them is true".
fn replace_group(oll: &mut Oll, mut group: Vec<usize>) {
    oll.stats.am1_groups += 1;
    oll.stats.am1_terms += group.len() as u64;
    while group.len() > 1 {
        let Some(m) = group.iter().map(|&t| oll.terms[t].weight).min() else {
            return;
        };
        let pay = m.saturating_mul(group.len() as u64 - 1);
        oll.raise_lb(pay);
        let s = oll.solver.new_var().pos();
        let mut clause: Vec<Lit> = group.iter().map(|&t| oll.terms[t].lit).collect();
        clause.push(!s);
        oll.solver.add_clause(&clause);
        for &t in &group {
            oll.reduce(t, m);
        }
        oll.add_term(s, m, Kind::Soft);
        group.retain(|&t| oll.terms[t].live);
    }
}
