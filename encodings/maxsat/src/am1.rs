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
//! **When.** As in RC2, at the start of every stratum, among the soft terms it assumes. Running
//! it once over all terms before the search was measured worse: groups mixing heavy and light
//! terms split the weights into many small ones, and stratification then put everything in one
//! stratum (wmis_100_10_100_1: 28.8 s with one stratum against 9.8 s without at-most-one
//! detection; RC2 finds its groups at each of its five levels).
//!
//! **Where ours differs.** RC2 asks its SAT oracle to propagate over the oracle's current
//! clauses. The engine's propagate-only call, [`grim_solver::Solver::probe`] (what `upcore.rs`
//! uses), answers only whether a probe conflicts and with which assumptions, not what it
//! implies, and the exclusions here are exactly the implied literals; so this file carries a
//! small two-watched-literal propagator over the hard clauses, the selector definitions, the group
//! clauses and the facts found since (not the totalizers, not learned clauses), with a work
//! limit (`am1_effort`) over the whole run. Each term is probed once; its exclusions stay valid
//! (clauses are only ever added).

use grim_solver::{Lit, normalise_clause};

use super::flat::Flat;
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
    /// The level-0 assignments (probes push above them and undo).
    trail: Vec<Lit>,
    /// False once the clauses are unsatisfiable by unit propagation alone.
    ok: bool,
    /// Watch-list visits so far (the work measure of `am1_effort`).
    work: u64,
}

impl Propagator {
    fn new() -> Propagator {
        Propagator {
            lits: Vec::new(),
            start: vec![0],
            watches: Vec::new(),
            value: Vec::new(),
            trail: Vec::new(),
            ok: true,
            work: 0,
        }
    }

    fn grow(&mut self, var: usize) {
        if var >= self.value.len() {
            self.value.resize(var + 1, 0);
            self.watches.resize_with(2 * (var + 1), Vec::new);
        }
    }

    /// Adds a clause at level 0 (between probes), propagating it if it is unit.
    fn add_clause(&mut self, clause: &[Lit]) {
        if !self.ok {
            return;
        }
        let mut c = clause.to_vec();
        if normalise_clause(&mut c) {
            self.add_normalised(c);
        }
    }

    /// [`Propagator::add_clause`] for a clause already normalised
    /// ([`grim_solver::normalise_clause`]: sorted, each literal once, no tautology).
    fn add_normalised(&mut self, mut c: Vec<Lit>) {
        debug_assert!(
            c.windows(2).all(|w| w[0] < w[1] && w[0] != !w[1]),
            "not normalised: {c:?}"
        );
        if !self.ok || c.iter().any(|&l| self.lit_value(l) == 1) {
            return;
        }
        if let Some(max) = c.iter().map(|l| l.var().index()).max() {
            self.grow(max);
        }
        // Unassigned literals first: they are the ones to watch.
        c.sort_by_key(|&l| self.lit_value(l) != 0);
        let open = c.iter().filter(|&&l| self.lit_value(l) == 0).count();
        match open {
            0 => self.ok = false,
            1 => {
                let base = self.trail.len();
                self.assign(c[0]);
                self.ok = self.propagate(base);
            }
            _ => {
                let id = self.start.len() as u32 - 1;
                self.watches[c[0].code()].push(id);
                self.watches[c[1].code()].push(id);
                self.lits.extend_from_slice(&c);
                self.start.push(self.lits.len());
            }
        }
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
        self.grow(l.var().index());
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

/// What an [`Am1`] waits to load: the selector definitions and the clauses recorded since.
type Pending = (Vec<Vec<Lit>>, Vec<Vec<Lit>>);

/// The at-most-one detector's state, kept for the whole run.
pub(super) struct Am1 {
    prop: Propagator,
    /// Per term: the terms its probe found exclusive with it (`None`: not probed yet).
    exclusive: Vec<Option<Vec<usize>>>,
    /// What the propagator is loaded with once the first [`Oll::adapt`] needs it: the
    /// selector definitions, then the clauses recorded since (in order); `None` once loaded.
    /// Why deferred: loading copies every hard clause, and a caller that wants a first model
    /// before any core ([`Oll::probe`], a frame budget) should not wait for it — on the 64×64
    /// soft cave (134k hard clauses) the load was 95M of the 1.7G instructions before the
    /// first level (callgrind, `benches/results/issue41-anytime-2026-12-07c.md`). The loaded
    /// propagator is the same as an eager load's, so the groups found are too.
    pending: Option<Pending>,
}

impl Am1 {
    /// A detector over the hard clauses of the instance's flat copy and the selector
    /// definitions (`C ∨ ¬s` for a normalised soft clause `C` and a selector `s` newer than
    /// every variable of `C`: both are normalised already), loaded at its first use
    /// ([`Am1::load`]).
    pub(super) fn new(definitions: Vec<Vec<Lit>>) -> Am1 {
        Am1 {
            prop: Propagator::new(),
            exclusive: Vec::new(),
            pending: Some((definitions, Vec::new())),
        }
    }

    /// Loads the propagator, if not done yet, with the hard clauses of `flat` (the flat copy
    /// the detector was made for), the definitions, and the clauses recorded since.
    fn load(&mut self, flat: &Flat) {
        let Some((definitions, added)) = self.pending.take() else {
            return;
        };
        for c in flat.hard().chain(definitions.iter().map(Vec::as_slice)) {
            self.prop.add_normalised(c.to_vec());
        }
        for c in &added {
            self.prop.add_clause(c);
        }
    }

    /// Records a clause added to the engine since (a group clause or a fact).
    pub(super) fn add_clause(&mut self, clause: &[Lit]) {
        match &mut self.pending {
            Some((_, added)) => added.push(clause.to_vec()),
            None => self.prop.add_clause(clause),
        }
    }
}

impl Oll {
    /// Finds the at-most-one groups among the live soft terms of the current stratum and
    /// replaces them (see the file's doc). Called at the start of every stratum.
    pub(super) fn adapt(&mut self) {
        let Some(mut am1) = self.am1.take() else {
            return;
        };
        am1.load(&self.flat);
        let n = self.terms.len();
        let candidates: Vec<usize> = (0..n)
            .filter(|&t| {
                let term = &self.terms[t];
                term.kind == Kind::Soft && self.in_stratum(term)
            })
            .collect();
        am1.exclusive.resize(n, None);
        let mut conflicting = Vec::new();
        for &t in &candidates {
            if !am1.prop.ok || am1.prop.work > self.opts.am1_effort {
                break;
            }
            if am1.exclusive[t].is_some() {
                continue;
            }
            match am1.prop.probe(self.terms[t].lit) {
                Ok(implied) => {
                    let mut ex: Vec<usize> = implied
                        .into_iter()
                        .filter_map(|x| self.term_index(!x))
                        .filter(|&u| u != t)
                        .collect();
                    ex.sort_unstable();
                    ex.dedup();
                    am1.exclusive[t] = Some(ex);
                }
                Err(()) => {
                    am1.exclusive[t] = Some(Vec::new());
                    conflicting.push(t);
                }
            }
        }
        // Terms that cannot be true are unit cores.
        for &t in &conflicting {
            let (lit, w) = (self.terms[t].lit, self.terms[t].weight);
            self.raise_lb(w);
            self.reduce(t, w);
            self.solver.add_clause(&[!lit]);
            am1.add_clause(&[!lit]);
            self.stats.cores += 1;
            self.stats.unit_cores += 1;
            self.stats.core_literals += 1;
            self.stats.max_core = self.stats.max_core.max(1);
        }
        // The exclusion graph among the remaining candidates, both directions (propagation
        // may find only one).
        let mut is_candidate = vec![false; n];
        for &t in &candidates {
            is_candidate[t] = self.terms[t].live;
        }
        let mut adjacent: Vec<Vec<usize>> = vec![Vec::new(); n];
        for &t in &candidates {
            if !is_candidate[t] {
                continue;
            }
            if let Some(ex) = &am1.exclusive[t] {
                for &u in ex {
                    if is_candidate[u] {
                        adjacent[t].push(u);
                        adjacent[u].push(t);
                    }
                }
            }
        }
        for adj in &mut adjacent {
            adj.sort_unstable();
            adj.dedup();
        }
        let mut degree: Vec<usize> = adjacent.iter().map(Vec::len).collect();
        let mut remaining: Vec<bool> = (0..n).map(|t| is_candidate[t] && degree[t] > 0).collect();
        // The remaining term of least degree (ties: lowest index) seeds each clique; neighbours
        // join in increasing degree when adjacent to every member (RC2's greedy rule).
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
                replace_group(self, &mut am1, group);
            }
        }
        self.am1 = Some(am1);
    }
}

/// Replaces a group of pairwise exclusive terms (see the file's doc): while two or more have
/// weight left, pay `m·(|G| − 1)`, take `m` off each, add the term "one of them is true".
fn replace_group(oll: &mut Oll, am1: &mut Am1, mut group: Vec<usize>) {
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
        am1.add_clause(&clause);
        for &t in &group {
            oll.reduce(t, m);
        }
        oll.add_term(s, m, Kind::Soft);
        group.retain(|&t| oll.terms[t].live);
    }
}
