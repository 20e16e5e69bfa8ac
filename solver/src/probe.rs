//! Unit-propagation probes under assumptions: which single literals, propagated after the
//! assumptions, reach a conflict, and which assumptions does each conflict rest on?
//!
//! Why: a core-guided optimiser relaxes whatever core the search hands it, and on random
//! Max-2-SAT, max-cut and the like the search hands over cores two to three times larger than
//! the smallest ones. A literal `x` whose propagation after the assumptions conflicts, and
//! whose negation does too, yields a core without any search: the union of the two
//! assumption sets (resolution on `x`). Branch-and-bound MaxSAT solvers find their lower
//! bounds this way (failed literals; Li, Manyà & Planes, "New inference rules for Max-SAT",
//! JAIR 30, 2007); OLL uses it to pick small cores first (`grim-maxsat`,
//! `upcore.rs`).

#![forbid(unsafe_code)]

use crate::analyze::SEEN_IN_CLAUSE;
use crate::clause::{CRef, NO_REASON, USED_MAX};
use crate::inprocess::Rounds;
use crate::solver::Solver;
use crate::types::{L_FALSE, L_TRUE, L_UNDEF, Lit};

/// What [`Solver::probe`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Probes {
    /// The assumptions alone propagate to a conflict: the clauses imply that not all of these
    /// (a subset of the assumptions, sorted) hold. Empty: the clauses alone are unsatisfiable.
    AssumptionsFail(Vec<Lit>),
    /// One entry per probe literal, in order: `Some(set)` when propagating it after the
    /// assumptions conflicts, with `set` ⊆ assumptions ∪ {probe} (sorted) such that the clauses
    /// imply that not all of `set` holds; `None` when propagation reaches no conflict.
    Each(Vec<Option<Vec<Lit>>>),
}

impl Solver {
    /// Propagates `assumptions` (one decision level each, as `solve` does), then each literal
    /// of `probes` in turn on one more level, by unit propagation only: no search, nothing
    /// learned, and every assignment undone before returning, saved phases untouched (the
    /// probes' assignments are not the search's). Level-0 consequences found on the way stay
    /// (they are implied by the clauses).
    ///
    /// The cost is one propagation of the assumptions plus one per probe, so probing every
    /// variable of an instance costs about as much as a few hundred conflicts. Assumptions and
    /// probes on eliminated variables are skipped (propagation cannot see them). The answer
    /// state of the last `solve` (model, failed assumptions) is discarded.
    pub fn probe(&mut self, assumptions: &[Lit], probes: &[Lit]) -> Probes {
        self.reset_answer();
        if let Some(max) = assumptions
            .iter()
            .chain(probes)
            .map(|l| l.var().index())
            .max()
        {
            self.reserve_vars(max + 1);
        }
        if !self.ok {
            return Probes::AssumptionsFail(Vec::new());
        }
        self.undo_to(0, false);
        let conflict = self.propagate();
        if conflict != NO_REASON {
            self.refute_with(conflict);
            return Probes::AssumptionsFail(Vec::new());
        }
        for &a in assumptions {
            if let Some(failed) = self.probe_one(a) {
                self.undo_to(0, false);
                return Probes::AssumptionsFail(failed);
            }
        }
        let base = self.trail.decision_level();
        let mut each = Vec::with_capacity(probes.len());
        for &p in probes {
            each.push(self.probe_one(p));
            self.undo_to(base, false);
        }
        self.undo_to(0, false);
        Probes::Each(each)
    }

    /// Assigns `a` on a new level and propagates; the assumptions behind a conflict, if any.
    fn probe_one(&mut self, a: Lit) -> Option<Vec<Lit>> {
        if self.elim.is_eliminated(a.var().index()) {
            return None;
        }
        match self.trail.value(a) {
            L_TRUE => None,
            L_FALSE => {
                self.analyze_final(a);
                Some(std::mem::take(&mut self.failed))
            }
            _ => {
                self.trail.new_decision_level();
                self.trail.assign(a, NO_REASON);
                match self.propagate() {
                    NO_REASON => None,
                    conflict => Some(self.conflict_assumptions(conflict)),
                }
            }
        }
    }

    /// The decisions (here: assumptions and the probe) in the implication cone of `conflict`.
    fn conflict_assumptions(&mut self, conflict: CRef) -> Vec<Lit> {
        let mut failed = Vec::new();
        for &l in self.arena.lits(conflict) {
            let v = l.var().index();
            if self.trail.level[v] > 0 {
                self.analysis.seen[v] = SEEN_IN_CLAUSE;
            }
        }
        self.analysis
            .collect_marked_decisions(&self.arena, &self.trail, &mut failed);
        failed
    }
}

/// A hyper-binary resolvent `¬d ∨ u` found by a probe: `u`'s reason, and the range of its
/// LRAT hints in the round's hint buffer.
struct Hyper {
    d: Lit,
    u: Lit,
    reason: CRef,
    hints: (usize, usize),
}

/// The schedule of failed-literal probing during search (`probing`/`probe_round`): written
/// only here.
#[derive(Default)]
pub(crate) struct Probing {
    schedule: Rounds,
    /// The literal code the previous round stopped at: rounds go round-robin over the
    /// variables, so a small budget still reaches all of them in turn.
    cursor: usize,
    /// Per literal: the level-0 trail length when it was last probed. Probing it again finds
    /// nothing new until a new unit is fixed (CaDiCaL's `propfixed`).
    probed: Vec<usize>,
    /// The binary implication tree of the current probe, per variable: the dominating parent
    /// and the depth below the probe.
    parent: Vec<Lit>,
    depth: Vec<u32>,
}

impl Probing {
    /// The closest common dominator of level-1 literals `a` and `b` in the probe's tree;
    /// `steps` counts the walk.
    fn meet(&self, mut a: Lit, mut b: Lit, steps: &mut u64) -> Lit {
        while a != b {
            *steps += 1;
            let (da, db) = (self.depth[a.var().index()], self.depth[b.var().index()]);
            if da >= db {
                a = self.parent[a.var().index()];
            }
            if db >= da {
                b = self.parent[b.var().index()];
            }
        }
        a
    }
}

impl Solver {
    /// One round of failed-literal probing with hyper-binary resolution (see the section
    /// below). Leaves the solver at level 0, propagated, or `ok == false`.
    ///
    /// Each probe is a root of the binary implication graph (a literal with binary
    /// implications out and none in: probing its descendants finds nothing the root does not).
    /// It is assigned on level 1 and propagated, and the level-1 trail read as a tree: a
    /// literal implied by a binary clause hangs below the other literal; one implied by a
    /// longer clause hangs below the closest common dominator `d` of its clause's false
    /// literals, and `¬d ∨ u` is a hyper-binary resolvent (RUP: propagating `d` reaches `u`).
    /// When `¬d` is in the clause, the resolvent subsumes it and replaces it; otherwise it is
    /// added as a learned binary that reduction may delete once unused (`reduce.rs`). A probe
    /// that conflicts makes the conflict's dominator a failed literal: its negation is a unit
    /// (RUP for the same reason).
    ///
    /// Freeman, "Improvements to propositional satisfiability search algorithms" (PhD, 1995)
    /// for failed literals; Bacchus, "Enhancing Davis Putnam with extended binary clause
    /// reasoning" (AAAI 2002) for hyper-binary resolution; Heule, Järvisalo & Biere, "Revisiting
    /// hyper binary resolution" (CPAIOR 2013) for the dominator form; CaDiCaL's `probe.cpp` and
    /// Kissat's `probe.c` for probing roots only and its effort share. Ours differs: the probe
    /// propagates with the search's propagation (long clauses are not deferred behind binary
    /// ones), so a tree edge may come from a long clause where a binary path exists too — the
    /// resolvents are then redundant, never wrong; and rounds come every `probe_interval` ·
    /// √rounds conflicts, each within `probe_effort` propagations per search propagation since
    /// the previous round.
    pub(crate) fn probe_round(&mut self) {
        if !self.start_round(|s| &mut s.probing.schedule, self.opts.probe_interval) {
            return;
        }
        self.collect_garbage();
        self.stats.probe_rounds += 1;
        let n = self.trail.num_vars();
        let budget = self
            .probing
            .schedule
            .budget(self.stats.propagations, self.opts.probe_effort)
            + n as u64;
        let start_props = self.stats.propagations;
        let mut steps = 0u64;
        self.probing.probed.resize(2 * n, usize::MAX);
        self.probing.parent.resize(n, Lit::from_code(0));
        self.probing.depth.resize(n, 0);
        let mut hbr: Vec<Hyper> = Vec::new();
        // LRAT: the hints of the failed literal and of each resolvent, taken on the probe's
        // trail (`lrat.rs`), and the reasons the resolvents replaced, whose deletions wait
        // until every resolvent of the probe is added (a later one's hints may name them).
        let mut hints: Vec<i64> = Vec::new();
        let mut replaced: Vec<CRef> = Vec::new();
        let mut found_binaries = false;
        let mut visited = 0usize;
        let mut code = self.probing.cursor % (2 * n).max(1);
        while visited < 2 * n && self.ok {
            if self.stats.propagations - start_props + steps / 4 > budget {
                break;
            }
            let p = Lit::from_code(code);
            visited += 1;
            code = (code + 1) % (2 * n);
            let v = p.var().index();
            if self.trail.var_value(v) != L_UNDEF
                || self.elim.is_eliminated(v)
                || self.probing.probed[p.code()] == self.trail.len()
            {
                continue;
            }
            let out = self.watches.list(p).iter().any(|w| w.is_binary());
            let into = self.watches.list(!p).iter().any(|w| w.is_binary());
            if !out || into {
                continue;
            }
            self.probing.probed[p.code()] = self.trail.len();
            self.stats.probed += 1;
            hints.clear();
            let failed = self.probe_tree(p, &mut hbr, &mut hints, &mut steps);
            self.undo_to(0, false);
            if let Some(f) = failed {
                self.stats.failed_literals += 1;
                let id = self.proof.add(&[f], &hints);
                self.trail.assign(f, NO_REASON);
                self.proof.set_unit(f.var().index(), id);
                self.propagate_root();
                continue;
            }
            for h in hbr.drain(..) {
                let chain = &hints[h.hints.0..h.hints.1];
                found_binaries |= self.add_hyper_binary(h.d, h.u, h.reason, chain, &mut replaced);
            }
            for r in replaced.drain(..) {
                self.proof
                    .delete(self.arena.lits(r), self.arena.id(r), &self.trail);
            }
        }
        self.probing.cursor = code;
        self.clauses.retain_live(&self.arena);
        if found_binaries {
            self.substitute.request();
        }
        self.probing.schedule.props_mark = self.stats.propagations;
    }

    /// Whether a failed-literal probing round is due.
    pub(crate) fn probing(&self) -> bool {
        self.round_due(self.opts.probe, &self.probing.schedule)
    }

    /// Propagates probe `p` on level 1 and builds its tree (`probe_round`); the failed
    /// literal's negation when it conflicts, else `None` with the hyper-binary resolvents in
    /// `hbr`. With an LRAT proof, `hints` gets the failed literal's hints, or each resolvent's
    /// (at the range its entry names). Leaves the level-1 assignment in place.
    fn probe_tree(
        &mut self,
        p: Lit,
        hbr: &mut Vec<Hyper>,
        hints: &mut Vec<i64>,
        steps: &mut u64,
    ) -> Option<Lit> {
        self.trail.new_decision_level();
        self.trail.assign(p, NO_REASON);
        let conflict = self.propagate();
        let start = self.trail.lim[0];
        let pv = p.var().index();
        self.probing.parent[pv] = p;
        self.probing.depth[pv] = 0;
        for i in start + 1..self.trail.len() {
            let u = self.trail.lits[i];
            let r = self.trail.reason[u.var().index()];
            debug_assert!(
                crate::clause::is_clause(r),
                "probing runs no external propagator"
            );
            let lits = self.arena.lits(r);
            let mut dom: Option<Lit> = None;
            for &l in lits {
                if l == u || self.trail.level[l.var().index()] == 0 {
                    continue;
                }
                *steps += 1;
                dom = Some(match dom {
                    None => !l,
                    Some(d) => self.probing.meet(d, !l, steps),
                });
            }
            let d = dom.unwrap_or(p);
            self.probing.parent[u.var().index()] = d;
            self.probing.depth[u.var().index()] = self.probing.depth[d.var().index()] + 1;
            if lits.len() > 2 && conflict == NO_REASON {
                let start = hints.len();
                if self.proof.is_lrat() {
                    // ¬d ∨ u: from d, the probe's propagation reaches r's other literals.
                    self.chain(&[d, u], r);
                    hints.extend_from_slice(&self.lrat.hints);
                }
                hbr.push(Hyper {
                    d,
                    u,
                    reason: r,
                    hints: (start, hints.len()),
                });
            }
        }
        if conflict == NO_REASON {
            return None;
        }
        hbr.clear();
        hints.clear();
        let mut dom: Option<Lit> = None;
        for &l in self.arena.lits(conflict) {
            if self.trail.level[l.var().index()] == 0 {
                continue;
            }
            dom = Some(match dom {
                None => !l,
                Some(d) => self.probing.meet(d, !l, steps),
            });
        }
        let dom = dom.unwrap_or(p);
        if self.proof.is_lrat() {
            // Every literal of the conflict's cone lies below `dom` in the tree, so the walk
            // from the conflict stops at `dom` without reaching the probe.
            self.chain(&[dom], conflict);
            hints.extend_from_slice(&self.lrat.hints);
        }
        Some(!dom)
    }

    /// Adds the hyper-binary resolvent `¬d ∨ u` of reason `r` (at level 0, after the probe),
    /// with its LRAT `hints`. It replaces `r` when it subsumes it; `r` then joins `replaced`,
    /// whose deletions the caller logs. Returns whether a clause was added.
    fn add_hyper_binary(
        &mut self,
        d: Lit,
        u: Lit,
        r: CRef,
        hints: &[i64],
        replaced: &mut Vec<CRef>,
    ) -> bool {
        if self.arena.is_deleted(r)
            || self.trail.value(u) != L_UNDEF
            || self.trail.value(d) != L_UNDEF
        {
            return false;
        }
        let bin = [u, !d];
        let subsumes = self.arena.lits(r).contains(&!d);
        let learned = !subsumes || self.arena.is_learned(r);
        let id = self.proof.add(&bin, hints);
        let Some(c) = self.arena.alloc(&bin, learned, 1, id) else {
            self.out_of_memory = true;
            return false;
        };
        if subsumes {
            self.stats.hbr_subsuming += 1;
            replaced.push(r);
            self.watches.detach(&self.arena, r);
            self.arena.delete(r);
        } else {
            self.stats.hbr += 1;
            self.arena.set_hyper(c);
        }
        if learned {
            self.arena.set_used(c, USED_MAX);
        }
        self.clauses.push(c, learned);
        self.watches.attach(&self.arena, c);
        true
    }
}
