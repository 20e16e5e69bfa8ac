//! LRAT hints: for each clause the engine derives, the identifiers of the clauses that unit
//! propagation uses to refute the clause's negation, in an order in which each of them is unit
//! and the last one falsified (`proof.rs` has the format).
//!
//! One walk serves almost every technique. A derived clause `C` is justified by the trail as it
//! stands when `C` is found: the literals of `C` are false (decisions, or for a learned clause
//! the literals analysis kept), and some clause — the conflict, or the reason of a literal that
//! `C` contains true — is falsified by the assignment their negation implies. Walking back
//! from that clause over the reasons of its false literals, stopping at the literals of `C`
//! and at level 0, gives the clauses that matter; emitting each reason after the reasons of
//! its own false literals (a depth-first post-order, which is a topological order of the
//! implication graph) gives them in an order in which each is unit when reached; the clause
//! the walk started from comes last and is falsified. Level-0 literals enter through their
//! unit clauses, emitted before the first clause that needs them. So the learned clause's
//! hints do not depend on how analysis found it: recursive minimisation and shrinking remove
//! literals whose reasons the walk then simply crosses (CaDiCaL builds its chains in
//! `analyze.cpp`/`minimize.cpp` during the analysis instead; ours walks again afterwards, at the
//! price of a second pass over the clause's implication cone, which costs nothing when no LRAT
//! proof is written). Vivification (the clause's decisions), failed literals and hyper-binary
//! resolvents of probing (stopping at the dominator), conflicts on level 0 (the empty clause)
//! use the same walk; the techniques whose clauses come from the clauses themselves rather than
//! from the trail (subsumption, substitution, elimination, transitive reduction, factoring)
//! build their hints in their own files.
//!
//! Level-0 literals: every one gets a unit clause in the proof, derived from its reason right
//! after the propagation that assigned it (`root_units`), because simplification forgets
//! level-0 reasons and deletes the clauses behind them (`trail.rs` invariant 6). Literals fixed
//! without a reason (learned units, failed literals, units found by inprocessing) are fixed
//! together with the identifier of the clause that justifies them (`Proof::set_unit`).
//!
//! A walk that meets something it cannot justify (a decision that is not in the clause, an
//! unassigned literal, a level-0 literal without a unit) is an engine bug: it fails the proof
//! (`Proof::fail`) rather than writing a hint list a checker would reject, and trips a
//! `debug_assert!`.

#![forbid(unsafe_code)]

use crate::clause::{CRef, is_clause};
use crate::solver::Solver;
use crate::types::{L_UNDEF, Lit};

/// A variable of the derived clause: the walk stops there.
const STOP: u8 = 1;
/// A variable the walk has expanded (or, on level 0, given its unit hint).
const SEEN: u8 = 2;
/// On the walk's stack: emit the reason of the variable in the low bits (variables are below
/// 2^31, `Var::MAX_INDEX`).
const EMIT: u32 = 1 << 31;

/// The walk's scratch and the level-0 cursor. Written only here.
#[derive(Default)]
pub(crate) struct Lrat {
    /// Per variable: `STOP`, `SEEN` or 0; all 0 between walks.
    marks: Vec<u8>,
    /// The variables marked by the current walk.
    touched: Vec<usize>,
    /// The walk's stack: variables to expand, and `EMIT`-tagged ones whose reason is due.
    stack: Vec<u32>,
    /// The hints of the last walk (`chain`), for the caller to hand to `Proof::add`.
    pub(crate) hints: Vec<i64>,
    /// Level-0 trail literals before this position have their unit clause.
    root_done: usize,
}

impl Lrat {
    /// Level-0 literals were unassigned (`factor.rs`'s undo): look at the whole level 0 again.
    pub(crate) fn forget_root(&mut self) {
        self.root_done = 0;
    }
}

impl Solver {
    /// The LRAT hints of a walk of binary clauses from `start`: `path[i]` is `¬u ∨ v` for the
    /// walk's `i`-th literal `u`, which it implies `v`. Unit propagation from `start` along the
    /// walk conflicts at the first clause whose `v` was already refuted (a walk through some
    /// literal and later its negation), and an LRAT checker rejects hints after a conflict, so
    /// the hints stop at that clause. Used for the units of failed literals found on binary
    /// implication paths (`substitute.rs`' contradiction, `transred.rs`).
    pub(crate) fn binary_path_hints(&self, start: Lit, path: &[CRef]) -> Vec<i64> {
        let mut hints = Vec::with_capacity(path.len());
        let mut truths = vec![start];
        let mut u = start;
        for &c in path {
            hints.push(self.arena.id(c) as i64);
            let lits = self.arena.lits(c);
            let v = if lits[0] == !u { lits[1] } else { lits[0] };
            if truths.contains(&!v) {
                break;
            }
            truths.push(v);
            u = v;
        }
        hints
    }

    /// The hints of a clause whose literals' variables are `stops`, refuted by `root`: fills
    /// `self.lrat.hints` (module doc). `root`'s literals are false, or on a stop.
    ///
    /// The walk: a variable is expanded when popped (marked, its reason's unexpanded
    /// variables pushed above an `EMIT` entry of its own), and its reason is emitted when the
    /// `EMIT` entry comes back, after everything pushed above it — a post-order. A variable
    /// may sit on the stack twice; the second pop finds it marked and skips it. (Marking when
    /// pushed instead would let a reason be emitted before a reason below it in the graph that
    /// another branch pushed first.) Each reason is read once, in one slice.
    pub(crate) fn chain(&mut self, stops: &[Lit], root: CRef) {
        let Solver {
            lrat,
            trail,
            arena,
            proof,
            ..
        } = self;
        let n = trail.num_vars();
        if lrat.marks.len() < n {
            lrat.marks.resize(n, 0);
        }
        lrat.hints.clear();
        for &l in stops {
            let v = l.var().index();
            if lrat.marks[v] == 0 {
                lrat.marks[v] = STOP;
                lrat.touched.push(v);
            }
        }
        let mut broken = false;
        let Lrat {
            marks,
            touched,
            stack,
            hints,
            ..
        } = lrat;
        // Reaches `w` from a clause: a unit hint on level 0, a variable to expand above it.
        // (A macro, not a closure: the closure would hold the borrows the loop needs.)
        macro_rules! reach {
            ($w:expr) => {{
                let w = $w;
                if marks[w] == 0 {
                    if trail.level[w] == 0 && trail.var_value(w) != L_UNDEF {
                        marks[w] = SEEN;
                        touched.push(w);
                        let unit = proof.unit(w);
                        broken |= unit == 0;
                        hints.push(unit as i64);
                    } else {
                        stack.push(w as u32);
                    }
                }
            }};
        }
        for &q in arena.lits(root) {
            reach!(q.var().index());
        }
        while let Some(e) = stack.pop() {
            if e & EMIT != 0 {
                let v = (e & !EMIT) as usize;
                hints.push(arena.id(trail.reason[v]) as i64);
                continue;
            }
            let v = e as usize;
            if marks[v] != 0 {
                continue;
            }
            marks[v] = SEEN;
            touched.push(v);
            let r = trail.reason[v];
            if trail.var_value(v) == L_UNDEF || !is_clause(r) {
                // Unassigned, or a decision outside the clause: not implied this way.
                broken = true;
                continue;
            }
            stack.push(e | EMIT);
            for &q in arena.lits(r) {
                let w = q.var().index();
                if w != v {
                    reach!(w);
                }
            }
        }
        hints.push(arena.id(root) as i64);
        for &v in touched.iter() {
            marks[v] = 0;
        }
        touched.clear();
        if broken {
            debug_assert!(false, "lrat.rs: a clause the trail does not justify");
            proof.fail("internal error: a derived clause without a justification on the trail");
        }
    }

    /// Appends to `self.lrat.hints` the unit clauses of the level-0 false literals of `lits`
    /// (each variable once), for a clause derived from clauses that held them.
    pub(crate) fn root_hints(&mut self, lits: impl IntoIterator<Item = Lit>) {
        let n = self.trail.num_vars();
        if self.lrat.marks.len() < n {
            self.lrat.marks.resize(n, 0);
        }
        for l in lits {
            let v = l.var().index();
            if self.trail.is_fixed(l) && self.lrat.marks[v] == 0 {
                self.lrat.marks[v] = SEEN;
                self.lrat.touched.push(v);
                let unit = self.proof.unit(v);
                if unit == 0 {
                    debug_assert!(false, "lrat.rs: a level-0 literal without its unit");
                    self.proof
                        .fail("internal error: a level-0 literal without its unit clause");
                }
                self.lrat.hints.push(unit as i64);
            }
        }
        for &v in &self.lrat.touched {
            self.lrat.marks[v] = 0;
        }
        self.lrat.touched.clear();
    }

    /// `root_units` when the propagation that just ended was on level 0: called after every
    /// propagation with an LRAT proof (`Solver::propagate`), out of line so that the check
    /// costs the search nothing without one.
    #[cold]
    #[inline(never)]
    pub(crate) fn root_units_after_propagation(&mut self) {
        if self.trail.decision_level() == 0 {
            self.root_units();
        }
    }

    /// Derives the unit clause of every level-0 literal that has none yet, from its reason
    /// and the units of the reason's other literals (module doc).
    pub(crate) fn root_units(&mut self) {
        let end = self.trail.lim.first().copied().unwrap_or(self.trail.len());
        let mut i = self.lrat.root_done.min(end);
        while i < end {
            let l = self.trail.lits[i];
            i += 1;
            let v = l.var().index();
            if self.proof.unit(v) != 0 {
                continue;
            }
            let r = self.trail.reason[v];
            if !is_clause(r) {
                debug_assert!(
                    false,
                    "lrat.rs: a level-0 literal with neither unit nor reason"
                );
                self.proof
                    .fail("internal error: a level-0 literal with neither unit clause nor reason");
                continue;
            }
            self.lrat.hints.clear();
            for k in 0..self.arena.len(r) {
                let q = self.arena.lits(r)[k];
                if q != l {
                    let unit = self.proof.unit(q.var().index());
                    if unit == 0 {
                        self.proof
                            .fail("internal error: a reason without its units");
                    }
                    self.lrat.hints.push(unit as i64);
                }
            }
            self.lrat.hints.push(self.arena.id(r) as i64);
            let id = self.proof.add(&[l], &self.lrat.hints);
            self.proof.set_unit(v, id);
        }
        self.lrat.root_done = end;
    }

    /// The clauses are refuted by `conflict`, every literal of which is false on level 0: `ok`
    /// off and the empty clause, with the units of `conflict`'s literals and `conflict` as its
    /// hints.
    pub(crate) fn refute_with(&mut self, conflict: CRef) {
        self.ok = false;
        if self.proof.is_lrat() {
            self.chain(&[], conflict);
        } else {
            self.lrat.hints.clear();
        }
        self.proof.add(&[], &self.lrat.hints);
    }

    /// The level-0 units `u` (clause `id`) and `¬u` refute the clauses: `ok` off and the
    /// empty clause from the two.
    pub(crate) fn refute_units(&mut self, u: Lit, id: u64) {
        self.ok = false;
        let other = self.proof.unit(u.var().index());
        self.proof.add(&[], &[other as i64, id as i64]);
    }
}
