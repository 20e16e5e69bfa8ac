//! Branch and bound with lower bounds from unit propagation: the proof engine for small
//! instances whose cores are many and hard to find (random Max-2/3-SAT, max-cut, spin glasses).
//!
//! **Technique.** A depth-first search over the instance's variables that keeps the cost of the
//! soft clauses the partial assignment falsifies, and at every node a lower bound on what any
//! extension must still pay: *disjoint inconsistent subsets* found by simulated unit
//! propagation (Li, Manyà & Planes, "Exploiting unit propagation to compute lower bounds in
//! branch and bound Max-SAT solvers", CP 2005, doi:10.1007/11564751_31; MaxSatz, Li, Manyà &
//! Planes, JAIR 30, 2007, doi:10.1613/jair.2215, read to learn). The unit soft clauses of the
//! node are propagated, most recent first, hard and soft clauses alike serving as reasons; a
//! clause that loses every literal closes an implication graph whose clauses no assignment
//! satisfies together, so every extension violates one of its soft clauses.
//! - A subset of clauses with at most two open literals is *transformed* by max-resolution
//!   (Bonet, Levy & Manyà, AIJ 171, 2007, doi:10.1016/j.artint.2007.05.001; applied to the
//!   subsets found by propagation as in ahmaxsat, Abramé & Habet, JSAT 9, 2014, read to learn):
//!   an empty clause of the subset's smallest weight joins the node's cost and compensation
//!   clauses keep the formula equivalent, for the whole subtree — so the children start from
//!   it instead of finding it again, and the compensation clauses give further subsets.
//! - Any other subset is set aside for the node (weighted: its smallest remaining weight is
//!   taken off each clause, the clause splitting of weighted branch and bound).
//! - When propagation finds nothing more, *failed literals* are probed on top of the units'
//!   consequences: a variable both of whose values end in a conflict gives the union of the two
//!   derivations.
//!
//! A node whose cost plus bound reaches the best cost known is pruned.
//!
//! **When.** `oll.rs` builds it for instances small enough (`OllOptions::bnb_max_literals`) and
//! runs it in bursts that share the time with the core-guided search (`OllOptions::bnb_ticks`;
//! `bnb_burst` below): the search state is kept between bursts, so the tree is explored once
//! over the whole run. It prunes against the best cost found by anyone — the core-guided search,
//! the local search of the anytime phase, or itself — which stays sound as that cost falls: a
//! subtree pruned against an earlier, larger bound holds nothing cheaper than the final one
//! either. When the tree is exhausted nothing cheaper than the best model exists, and the best
//! model is optimal. Models are priced by the referee like every other.
//!
//! **Measured** (CPU seconds, 60 s limit, `compare.py`, `benches/results/maxsat-*-2026-12-02*`):
//! on the real set grim proves 40 of 42 (36 before), among them s2v120c1200-1, s3v70c700-1,
//! t5pm3-7777 and maxcut-140-630-0.7-1 (51.6, 5.6, 7.5 and 13.2 s; no solver here proved them
//! before: the core-guided lower bounds stop at 10/21, 76/78 and 143/160 on the last three) and
//! johnson8-2-4 in 0.09 s instead of 2.8 s (PAR-2 753.9 → 366.5 s, RC2 1109.4 s in the same
//! run); on `maxsat-main` every weighted Max-3-SAT, minimum-ones and weighted independent set
//! instance falls under a second (52/52 both; PAR-2 122.4 → 63.7 s, RC2 318.6 s in the same
//! run). Alone on the three real instances it needs 0.28G, 0.65G and 0.99G
//! clause visits (2.0, 4.5 and 7.6 s). What each part bought, in clause visits to the end
//! (alone): the transformations 0.26G → 0.15G on s3v70c700 (82k → 48k nodes); probing failed
//! literals in move-to-front order of their recent successes 1.52G → 0.65G on t5pm3 (50k → 22k
//! nodes); skipping the probes where they cannot close the gap (past twice their average
//! yield) 0.36G → 0.28G on s3v70c700. Transforming subsets of three open literals too cost
//! more than it saved (s3v70c700: 49k → 84k nodes); so did propagating all units at once before
//! their consequences (breadth first: 7× the nodes).
//!
//! **Where ours differs.** MaxSatz applies a fixed set of resolution patterns and ahmaxsat
//! every subset; we transform exactly the subsets whose compensation clauses stay within three
//! literals. Branching: the variable of the largest product of the occurrence scores of its two
//! literals in undecided clauses (binary clauses weigh twice ternary ones and units, measured on
//! s3v70c700: 84k nodes against 157k with MaxSatz-like weights 16/4/1), the literal of the larger
//! score first. Hard clauses propagate for real. The complement symmetry's unit (`symmetry.rs`)
//! is added, halving max-cut trees. Determinism: no randomness at all; the tree depends only on
//! the instance and the bounds handed in.
//!
//! **Files**, one a technique, in the order a node meets them:
//! - `mod.rs` (this file): the `BranchAndBound` state, what each part holds, and the side
//!   facing OLL — when a burst is due and what its answer proves;
//! - `store.rs`: the clause store and the search assignment (`Db`: clause arrays copied from
//!   the run's flat formula, active occurrences, clause counts; assigning, undoing, the log of
//!   transformations);
//! - `search.rs`: the depth-first search over bursts (nodes, pruning, branching);
//! - `bound.rs`: the lower bound by simulated unit propagation (`Sim`), inconsistent subsets;
//! - `transform.rs`: max-resolution of the small subsets into an empty clause and compensation
//!   clauses;
//! - `probe.rs`: failed literals, probed in move-to-front order;
//! - `tests.rs`: the exhaustive checks of the bound and of the transformations, and the search
//!   against brute force.

use grim_solver::Lit;

use super::Event;
use super::flat::Flat;
use super::oll::Oll;

mod bound;
mod probe;
mod search;
mod store;
#[cfg(test)]
mod tests;
mod transform;

use search::{Level, Outcome};
use store::Change;

/// The weight of a hard clause (never consumed by an inconsistent subset).
const HARD: u64 = u64::MAX;
/// No clause (the reason of a failed-literal probe's own literal).
const NONE: u32 = u32::MAX;

/// The search state over one instance; bursts resume it.
///
/// Every field is written by the file its doc names (all are private to `bnb/`).
pub(super) struct BranchAndBound {
    /// The clause store and the search assignment (`store.rs`).
    db: Db,
    /// The simulated propagation of the lower bound and the work count (`bound.rs`).
    sim: Sim,
    /// What the empty soft clauses of the instance cost every model (the referee counts them).
    offset: u64,
    /// The weight of the soft clauses the assignment falsifies (`store.rs`), and the weight of
    /// the empty clauses the transformations derived (`transform.rs`; both without `offset`).
    cost: u64,
    empty: u64,
    /// Falsified hard clauses (a conflict: the node is pruned), and the assignment in order
    /// (`store.rs`).
    conflicts: u32,
    trail: Vec<Lit>,
    /// The decisions (`search.rs`).
    levels: Vec<Level>,
    /// Transformations, each with the trail length when it was made (`store.rs`, undone
    /// there).
    changes: Vec<(u32, Change)>,
    /// Soft clauses in the order they became unit; an entry stays while the assignment that
    /// made it unit is on the trail (it may have become satisfied or empty since: checked at
    /// use).
    units: Vec<u32>,
    /// Hard clauses that became unit and wait to be propagated (both queues: `store.rs`).
    hard_units: Vec<u32>,
    /// The search is between a decision and its node's processing (true), or must backtrack;
    /// the tree is exhausted; the search's own best model; its bound (all `search.rs`).
    descend: bool,
    exhausted: bool,
    /// The best model the search found itself and its cost (with `offset`), until taken.
    found: Option<(u64, Vec<bool>)>,
    /// The smallest upper bound seen (given, or found), without `offset`.
    ub: u64,
    /// Branching scores per literal (scratch of `branch`).
    score: Vec<f64>,
    /// Scratch of `transform` (`transform.rs`).
    resolvent: Vec<Lit>,
    /// Transform small inconsistent subsets by max-resolution (`transform`); probe failed
    /// literals. Both on; the tests switch them.
    transform: bool,
    probe: bool,
    /// The order in which failed literals are probed, and the ones found at this node
    /// (`probe.rs`).
    probe_order: Vec<u32>,
    hits: Vec<u32>,
    /// Subsets found by probing at a node, a moving average.
    probe_yield: f64,
    hit_mark: Vec<u64>,
    /// Test builds: the instance, to check every transformation against (see `check_exact`).
    #[cfg(test)]
    referee: Option<grim_formula::Wcnf>,
    /// Nodes visited, and nodes pruned by the bound (statistics).
    pub(super) nodes: u64,
    pub(super) pruned: u64,
    /// Inconsistent subsets transformed (statistics).
    pub(super) transformed: u64,
}

/// The scratch of the lower bound (`bound.rs`, which implements it; `probe.rs` and
/// `transform.rs` read and extend its simulation): a simulated assignment on top of the real one, undone
/// explicitly. Entries of `open`, `residual` and `dead` are valid where their stamp equals
/// `node` (the node whose bound is being computed), so that nothing is reset per node.
struct Sim {
    /// Per literal: its value in the simulation (1, -1, 0); per variable, the clause that
    /// implied it ([`NONE`] for a probe).
    val: Vec<i8>,
    reason: Vec<u32>,
    trail: Vec<Lit>,
    /// `decs.len()` when each trail entry was assigned.
    trail_decs: Vec<u32>,
    /// Per clause: unassigned literals not false in the simulation; `decs` lists the
    /// decrements, for undoing them.
    open_stamp: Vec<u64>,
    open: Vec<u32>,
    decs: Vec<u32>,
    /// Per clause: the weight not yet used by an inconsistent subset of this node (one that
    /// was not transformed); a clause whose weight is used up is dead (left out).
    resid_stamp: Vec<u64>,
    residual: Vec<u64>,
    dead: Vec<u64>,
    node: u64,
    /// Per literal: the node at which a probe showed it does not fail.
    no_fail: Vec<u64>,
    /// Per clause: the collection that put it in `subset`.
    mark: Vec<u64>,
    mark_stamp: u64,
    subset: Vec<u32>,
    ticks: u64,
}

/// The clause database and the search assignment (implemented in `store.rs`).
///
/// Clauses `0..originals` are the instance's; the ones after are the compensation clauses of
/// transformations (`transform`), every one added at a node with all its literals unassigned
/// and removed when the search backtracks above that node (last in, first out).
///
/// **Invariant (active occurrences).** For an unassigned literal `l`, the first `occ_len[l]`
/// entries of its segment of `occurs` (from `occ_start[l]`) are the positions in `lits` of `l`
/// in the *original* clauses not satisfied by the assignment; a clause that becomes satisfied is
/// swapped out of the segments of its unassigned literals, and swapped back in, by lengthening
/// them, when that assignment is undone (assignments are undone last-in first-out, so every
/// segment is restored exactly as a set). Propagation therefore never visits a satisfied
/// original clause. The segments of assigned literals are not maintained. Added clauses are
/// listed in `added_occ` whether satisfied or not (they are few).
struct Db {
    num_vars: usize,
    /// Clause `c` is `lits[start[c]..start[c + 1]]`, literals sorted and distinct.
    lits: Vec<Lit>,
    start: Vec<u32>,
    /// The current weight of each clause ([`HARD`] for hard ones, 0 once a transformation
    /// used it up: such a clause is ignored).
    weight: Vec<u64>,
    /// The clause of each position of `lits` of an original clause.
    clause_of: Vec<u32>,
    occ_start: Vec<u32>,
    occurs: Vec<u32>,
    occ_len: Vec<u32>,
    /// Per position of `lits` of an original clause: where it sits in `occurs`.
    place: Vec<u32>,
    /// Per literal: the added clauses containing it, oldest first.
    added_occ: Vec<Vec<u32>>,
    /// `value[lit.code()]`: 1 true, -1 false, 0 unassigned.
    value: Vec<i8>,
    /// Per clause: whether a true literal satisfies it (0 or 1), and its unassigned literals.
    sat: Vec<u32>,
    open: Vec<u32>,
}

impl BranchAndBound {
    /// The search over the flat formula `flat` with the hard units `facts` added (literals that
    /// keep the optimum, such as the complement symmetry's), at its root.
    pub(super) fn new(flat: &Flat, facts: &[Lit]) -> BranchAndBound {
        let num_vars = flat.num_vars;
        let db = Db::new(flat, facts);
        let m = db.num_clauses();
        let mut bnb = BranchAndBound {
            sim: Sim::new(num_vars),
            db,
            offset: flat.offset,
            cost: 0,
            empty: 0,
            conflicts: 0,
            trail: Vec::new(),
            levels: Vec::new(),
            changes: Vec::new(),
            units: Vec::new(),
            hard_units: Vec::new(),
            descend: true,
            exhausted: false,
            found: None,
            ub: u64::MAX,
            score: Vec::new(),
            resolvent: Vec::new(),
            transform: true,
            probe: true,
            probe_order: (0..num_vars as u32).collect(),
            hits: Vec::new(),
            probe_yield: 0.0,
            hit_mark: vec![0; num_vars],
            nodes: 0,
            pruned: 0,
            transformed: 0,
            #[cfg(test)]
            referee: None,
        };
        bnb.sim.grow(m);
        for c in 0..m {
            match (bnb.db.open[c], bnb.db.weight[c] == HARD) {
                (0, _) => bnb.conflicts += 1,
                (1, true) => bnb.hard_units.push(c as u32),
                (1, false) => bnb.units.push(c as u32),
                _ => {}
            }
        }
        bnb
    }

    /// The share of the tree explored so far (each finished first branch at depth `d` counts
    /// `2^-d`); a crude estimate, the subtrees differ in size.
    pub(super) fn progress(&self) -> f64 {
        if self.exhausted {
            return 1.0;
        }
        let mut p = 0.0;
        let mut scale = 0.5;
        for lv in &self.levels {
            if lv.flipped {
                p += scale;
            }
            scale /= 2.0;
        }
        p
    }

    /// Work done so far, in clause visits (the bursts' budget unit).
    pub(super) fn ticks(&self) -> u64 {
        self.sim.ticks
    }

    /// The best model the search found itself, with its cost, once (the caller offers it).
    pub(super) fn take_model(&mut self) -> Option<(u64, Vec<bool>)> {
        self.found.take()
    }
}

/// Branch-and-bound work (clause visits) matched to one engine conflict of the core-guided
/// search when the two share the time equally: about 150M clause visits and 44k conflicts a
/// second on random Max-3-SAT (s3v90c800-1) on this machine. Once the core-guided search has
/// stalled (a main call spent its conflict slice, `anytime.rs`) the branch and bound gets twice
/// the share, after two stalls four times: a stalled lower bound is the sign of the instances
/// where the branch and bound wins (s3v90c800-1 and s2v120c1200-1 stall 4-5 times in 60 s; the
/// weighted set covers of `maxsat-main`, which it does not solve faster, 0-1 times). Measured,
/// fixed ratios: 2000 left both of those unproved at 60 s; 8000 proved s2v120c1200-1 in 46 s,
/// s3v90c800-1 in 61 s, and `maxsat-main` in 44.1 s (PAR-2); 16000: 37 s, 49 s and 50.4 s.
const TICKS_PER_CONFLICT: u64 = 4000;

/// The bursts' schedule and the search they share (`Oll::bnb`), written only here.
pub(super) struct Bursts {
    /// The search, built on the first burst; kept between bursts.
    search: Option<BranchAndBound>,
    /// Set once the instance was found too large (or the search was dropped): no more bursts.
    off: bool,
    /// The work of the next burst (clause visits; `bnb_ticks`, doubled after every burst).
    next: u64,
    /// The engine's conflict count after the last burst.
    mark: u64,
}

impl Bursts {
    /// No search yet; the first burst worth `ticks` clause visits.
    pub(super) fn new(ticks: u64) -> Bursts {
        Bursts {
            search: None,
            off: false,
            next: ticks,
            mark: 0,
        }
    }
}

impl Oll {
    /// Whether the branch and bound may still run: on, a model to prune against, the instance
    /// not found too large, the tree not exhausted.
    fn bnb_active(&self) -> bool {
        self.opts.bnb_ticks > 0
            && !self.bnb.off
            && self.best.is_some()
            && !self
                .bnb
                .search
                .as_ref()
                .is_some_and(|b| b.progress() >= 1.0)
    }

    /// Engine conflicts the core-guided search may still spend before the next burst is due;
    /// `None` without a branch and bound.
    pub(super) fn bnb_cap(&self) -> Option<u64> {
        if !self.bnb_active() {
            return None;
        }
        let used = self.solver.stats().conflicts - self.bnb.mark;
        let per_conflict = TICKS_PER_CONFLICT << self.stats.stalls.min(2);
        Some((self.bnb.next / per_conflict).saturating_sub(used))
    }

    /// Whether a burst is due: the core-guided search has spent as many conflicts as the next
    /// burst is worth (the two share the time equally, each doubling its share).
    pub(super) fn bnb_due(&self) -> bool {
        self.bnb_cap() == Some(0)
    }

    /// One burst of the branch and bound (built on first use, for instances within
    /// `bnb_max_literals`), against the best cost known. A model it finds is offered as an
    /// improvement; an exhausted tree proves the best model optimal, and the lower bound is
    /// raised to its cost.
    pub(super) fn bnb_burst(&mut self, on_event: &mut dyn FnMut(Event<'_>)) {
        let Some(ub) = self.best_cost() else {
            return;
        };
        if self.bnb.search.is_none() {
            let size: usize = self.wcnf.hard.iter().map(Vec::len).sum::<usize>()
                + self.wcnf.soft.iter().map(|(_, c)| c.len()).sum::<usize>();
            let size = u64::try_from(size).unwrap_or(u64::MAX);
            // A soft weight of 2^64 - 1 would read as the hard marker; the sum fitting in 64
            // bits, it is then the only weight, and the core-guided search settles it alone.
            let max_weight = self.wcnf.soft.iter().any(|(w, _)| *w == HARD);
            if size > self.opts.bnb_max_literals || max_weight {
                self.bnb.off = true;
                return;
            }
            let facts: Vec<Lit> = self.symmetry_fact.into_iter().collect();
            self.bnb.search = Some(BranchAndBound::new(&self.flat, &facts));
        }
        let stop = self.solver.terminator();
        let Some(bnb) = self.bnb.search.as_mut() else {
            return;
        };
        let (ticks, nodes) = (bnb.ticks(), bnb.nodes);
        let outcome = bnb.search(ub, self.bnb.next, &stop);
        self.stats.bnb_runs += 1;
        self.stats.bnb_ticks += bnb.ticks() - ticks;
        self.stats.bnb_nodes += bnb.nodes - nodes;
        let found = bnb.take_model();
        self.bnb.mark = self.solver.stats().conflicts;
        self.bnb.next = self.bnb.next.saturating_mul(2);
        if let Some((_, model)) = &found {
            let mut whole = model.clone();
            whole.resize(self.num_vars, false);
            if self.wcnf.cost(&whole).is_none() {
                // The tree's own bound came from a model the referee refuses: nothing it
                // pruned or exhausted can be trusted. Never expected (debug builds stop here);
                // in release the branch and bound is dropped and the core-guided search goes on.
                if cfg!(debug_assertions) {
                    panic!("the branch and bound found a model that breaks a hard clause");
                }
                self.bnb.search = None;
                self.bnb.off = true;
                return;
            }
        }
        if let Some((_, model)) = found
            && self.offer_model(model, on_event)
        {
            self.stats.bnb_improvements += 1;
            if let Some((_, best)) = &self.best {
                self.solver.seed_phases(best);
            }
        }
        if outcome == Outcome::Exhausted
            && let Some(ub) = self.best_cost()
            && ub > self.lb
        {
            self.stats.bnb_proofs += 1;
            self.raise_lb(ub - self.lb);
        }
    }
}
