//! Decisions: in stable mode the unassigned variable of highest EVSIDS activity, in focused
//! mode the most recently bumped unassigned variable of the VMTF queue (`queue.rs`; option
//! `vmtf`, as Kissat and CaDiCaL split them; EVSIDS in both modes with `vmtf` off or on a
//! uniform formula, `Shape`), with its phase chosen
//! by, in order, the user's preference (`set_phase`), the target phase (stable mode), and the
//! saved phase (phase saving: Pipatsrisawat & Darwiche, SAT 2007).
//!
//! Why the user phase wins over everything: level generation draws seeded per-cell wishes and
//! expects the solver to honour them wherever the rules allow, on every decision, not only the
//! first; target and saved phases only break the ties the user left open.
//!
//! State owned here: the scores (`Scores`: the EVSIDS activities, increment and heap, and the
//! VMTF queue, with which of them the current mode bumps and decides by) and the phases
//! (`Phases`). Who writes them: `bump.rs` bumps scores (the variables `analyze.rs` and
//! `shrink.rs` met); `mode.rs` says which order is in use; backtracking (`Solver::undo_to`,
//! `solver.rs`) saves phases and returns variables to the heap and the queue's cursor;
//! `rephase.rs` and `walk.rs` overwrite saved, target and best phases; the API (`set_phase`,
//! `seed_phases`) sets user and saved phases.
//!
//! Invariant (owned here; `search.rs` relies on it to answer Sat when no decision is left):
//! every unassigned, non-eliminated variable is in the heap, in both modes, and is reachable
//! from the queue's cursor (`queue.rs`), in both modes, so that a mode switch needs no rebuild.
//! Assigned ones may linger in the heap and are skipped when popped. Only the order in use is
//! bumped: the other keeps its order from when its mode last ran, as in Kissat.

#![forbid(unsafe_code)]

use crate::heap::VarHeap;
use crate::queue::Queue;
use crate::rng;
use crate::solver::Solver;
use crate::trail::Trail;
use crate::types::{L_FALSE, L_TRUE, L_UNDEF, LBool, Lit, Var};

/// Activities above this are rescaled (with the increment) before they overflow an `f64`.
const RESCALE_LIMIT: f64 = 1e100;
/// The rescaling factor: keeps the order of activities, which is all that matters.
const RESCALE: f64 = 1e-100;
/// The largest seeded initial activity (`seed` ≠ 0): far below one bump (the increment starts
/// at 1), so the seed only orders variables the search has not touched yet.
const SEED_SCALE: f64 = 1e-3;

/// EVSIDS scores: activities bumped by a growing increment (Moskewicz et al., DAC 2001;
/// MiniSat's exponential form), in a heap that yields the most active variable.
pub(crate) struct Vsids {
    /// Activity of each variable.
    activity: Vec<f64>,
    /// The current bump; grows by `1 / vsids_decay` per conflict, which decays every score.
    inc: f64,
    /// The variables by activity (module doc for the invariant).
    heap: VarHeap,
}

impl Default for Vsids {
    fn default() -> Vsids {
        Vsids {
            activity: Vec::new(),
            inc: 1.0,
            heap: VarHeap::default(),
        }
    }
}

impl Vsids {
    /// Makes room for variables `old..n` and puts them in the heap. With a `seed` ≠ 0 their
    /// activities get a deterministic, seeded tie-break: tiny values from a splitmix64 stream
    /// (`rng.rs`), far below one bump.
    pub(crate) fn grow(&mut self, old: usize, n: usize, seed: u64) {
        self.activity.resize(n, 0.0);
        self.heap.grow(n);
        if seed != 0 {
            for v in old..n {
                let z = rng::mix(seed.wrapping_add((v as u64).wrapping_mul(rng::GOLDEN)));
                self.activity[v] = rng::unit(z) * SEED_SCALE;
            }
        }
        for v in old..n {
            self.heap.insert(v, &self.activity);
        }
    }

    /// EVSIDS: raises `v`'s activity by the current increment (rescaling near overflow).
    #[inline]
    pub(crate) fn bump(&mut self, v: usize) {
        self.activity[v] += self.inc;
        if self.activity[v] > RESCALE_LIMIT {
            for a in self.activity.iter_mut() {
                *a *= RESCALE;
            }
            self.inc *= RESCALE;
        }
        self.heap.increased(v, &self.activity);
    }

    /// Decays every activity by growing the increment by `1 / decay`.
    #[inline]
    pub(crate) fn decay(&mut self, decay: f64) {
        self.inc /= decay;
    }

    /// Puts `v` back in the heap (no-op when it is there).
    #[inline(always)]
    pub(crate) fn insert(&mut self, v: usize) {
        self.heap.insert(v, &self.activity);
    }

    /// The activity of `v`.
    #[inline]
    pub(crate) fn activity(&self, v: usize) -> f64 {
        self.activity[v]
    }

    /// The most active variable in the heap, without removing it.
    #[inline]
    pub(crate) fn top(&self) -> Option<usize> {
        self.heap.top()
    }

    /// Removes and returns the most active variable.
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<usize> {
        self.heap.pop(&self.activity)
    }
}

/// The two decision orders and which one is in use (module doc).
#[derive(Default)]
pub(crate) struct Scores {
    /// EVSIDS: stable mode's order (and focused mode's with `vmtf` off).
    pub(crate) evsids: Vsids,
    /// VMTF: focused mode's order with `vmtf` on; built the first time it is used, so that a
    /// solver that never uses it pays none of its 16 bytes per variable (the hostile-input
    /// test's memory bound has no room for them on two million variables).
    pub(crate) queue: Queue,
    /// Whether `queue` holds every variable (from its first use on).
    queue_built: bool,
    /// The variable count and seed the queue is built with.
    vars: usize,
    seed: u64,
    /// Decide and bump by the queue (focused mode with `vmtf`), else by EVSIDS.
    use_queue: bool,
    /// The lengths of the clauses the user added (`Shape`).
    pub(crate) shape: Shape,
}

/// The shortest and longest clause the user added (`add_clause`, before simplification).
///
/// Why: a formula whose clauses all have one length k ≥ 3 is, in practice, uniform random
/// k-SAT, the one family where focused mode's VMTF and reason-side bumping measured worse
/// than plain EVSIDS (option `uniform_evsids` has the figures). Structured encodings mix
/// binary clauses with longer ones, so they never look uniform; nor do the formulas OLL and
/// the grid encodings build. Cheap to keep: two comparisons per added clause.
#[derive(Default)]
pub(crate) struct Shape {
    /// Shortest and longest length seen (meaningful once `any`).
    min: usize,
    max: usize,
    /// Whether any clause was added.
    any: bool,
}

impl Shape {
    /// Records one added clause of `len` literals.
    #[inline]
    pub(crate) fn note(&mut self, len: usize) {
        if self.any {
            self.min = self.min.min(len);
            self.max = self.max.max(len);
        } else {
            (self.min, self.max, self.any) = (len, len, true);
        }
    }

    /// Every clause added so far has one length, at least 3.
    pub(crate) fn uniform(&self) -> bool {
        self.any && self.min == self.max && self.min >= 3
    }
}

impl Scores {
    /// Makes room for variables `old..n` in both orders (with `seed`'s tie-break; the queue
    /// only once built).
    pub(crate) fn grow(&mut self, old: usize, n: usize, seed: u64) {
        self.evsids.grow(old, n, seed);
        if self.queue_built {
            self.queue.grow(old, n, seed);
        }
        self.vars = n;
        self.seed = seed;
    }

    /// Chooses the order in use: the queue when `queue` (set at every mode switch), building
    /// it at its first use with every variable, the cursor at the end.
    pub(crate) fn use_queue(&mut self, queue: bool) {
        if queue && !self.queue_built {
            self.queue.grow(0, self.vars, self.seed);
            self.queue_built = true;
        }
        self.use_queue = queue;
    }

    /// Bumps one conflict's variables `vars` (distinct; reordered in place) in the order in
    /// use (`bump.rs` collects them).
    #[inline]
    pub(crate) fn bump_all(&mut self, vars: &mut [u32], trail: &Trail) {
        if self.use_queue {
            self.queue.bump(vars, trail);
        } else {
            for &v in vars.iter() {
                self.evsids.bump(v as usize);
            }
        }
    }

    /// The per-conflict decay of EVSIDS, only while it is bumped: its increment must not grow
    /// without the bumps that rescale it.
    #[inline]
    pub(crate) fn decay(&mut self, decay: f64) {
        if !self.use_queue {
            self.evsids.decay(decay);
        }
    }

    /// Takes the variables fixed at level 0 out of the queue (`queue.rs`, `retire`): at a
    /// level-0 simplification, where every literal on `trail` is fixed.
    pub(crate) fn retire_fixed(&mut self, trail: &Trail) {
        if self.queue_built {
            for &l in &trail.lits {
                self.queue.retire(l.var().index());
            }
        }
    }

    /// `v`, fixed at level 0, is free again (factoring): back in the queue (`queue.rs`,
    /// `unretire`), then as `insert`.
    pub(crate) fn unfix(&mut self, v: usize) {
        self.queue.unretire(v);
        self.insert(v);
    }

    /// `v` is unassigned or usable again: back in the heap, and reachable from the cursor.
    #[inline(always)]
    pub(crate) fn insert(&mut self, v: usize) {
        self.evsids.insert(v);
        self.queue.unassigned(v);
    }

    /// The variable the order in use would decide next, without deciding it (trail reuse):
    /// stale heap tops are dropped on the way.
    pub(crate) fn peek(&mut self, trail: &Trail, usable: impl Fn(usize) -> bool) -> Option<usize> {
        if self.use_queue {
            return self.queue.next_decision(trail, usable);
        }
        loop {
            let v = self.evsids.top()?;
            if trail.var_value(v) == L_UNDEF && usable(v) {
                return Some(v);
            }
            self.evsids.pop();
        }
    }

    /// The variable to decide next (`peek`), taken out of the heap when EVSIDS is in use.
    fn next_decision(&mut self, trail: &Trail, usable: impl Fn(usize) -> bool) -> Option<usize> {
        let v = self.peek(trail, usable)?;
        if !self.use_queue {
            self.evsids.pop();
        }
        Some(v)
    }

    /// Whether the order in use ranks `a` above `b`.
    #[inline]
    pub(crate) fn prefers(&self, a: usize, b: usize) -> bool {
        if self.use_queue {
            self.queue.newer(a, b)
        } else {
            self.evsids.activity(a) > self.evsids.activity(b)
        }
    }
}

/// The variables decided only once every other variable is assigned
/// ([`Solver::defer_decision`]).
///
/// Why: a propagator's auxiliary literals that are functions of other variables (a count's
/// order literals `[N ≥ k]`, `grim-levels`' `families/counts/ints.rs`) are fixed by
/// propagation once the variables they describe are, so deciding them is never needed; when
/// the search decides one anyway (it appears in reasons, so conflicts bump it), it guesses a
/// bound, and the propagator then fixes hundreds of cells at once, each with a reason naming
/// hundreds of cells. On the 64×64 caves of `grim-levels` that turned 0.2–0.8 s into 19 s and
/// more. Kept out of both decision orders and of random decisions; a deferred variable still
/// unassigned when everything else is gets decided then, so no model is left incomplete.
#[derive(Default)]
pub(crate) struct Deferred {
    /// Per variable: whether it is deferred (empty until the first deferral).
    flag: Vec<bool>,
    /// The deferred variables, in the order they were deferred.
    list: Vec<u32>,
}

impl Deferred {
    /// Whether `v` is deferred.
    #[inline(always)]
    pub(crate) fn has(&self, v: usize) -> bool {
        self.flag.get(v).copied().unwrap_or(false)
    }

    /// Defers `v` (once).
    pub(crate) fn add(&mut self, v: usize) {
        if self.flag.len() <= v {
            self.flag.resize(v + 1, false);
        }
        if !self.flag[v] {
            self.flag[v] = true;
            self.list.push(v as u32);
        }
    }

    /// The first unassigned deferred variable for which `usable` holds: a linear pass, taken
    /// only when the decision orders have nothing else left.
    fn first_free(&self, trail: &Trail, usable: impl Fn(usize) -> bool) -> Option<usize> {
        (self.list.iter())
            .map(|&v| v as usize)
            .find(|&v| trail.var_value(v) == L_UNDEF && usable(v))
    }
}

/// The phases of every variable: what a decision tries first.
#[derive(Default)]
pub(crate) struct Phases {
    /// Phase saving: the last value each variable had (`Solver::undo_to`), or what rephasing
    /// and walking installed.
    pub(crate) saved: Vec<bool>,
    /// Target phase (stable mode): the value in the longest conflict-free trail since the last
    /// rephase (`rephase.rs`); `L_UNDEF` when unknown.
    pub(crate) target: Vec<LBool>,
    /// Best phase: the value in the longest conflict-free trail seen overall (`rephase.rs`).
    pub(crate) best: Vec<LBool>,
    /// User phase preference (`Solver::set_phase`): `L_UNDEF` when none.
    pub(crate) user: Vec<LBool>,
}

impl Phases {
    /// Makes room for variables `0..n`, with saved phase `initial` and no other phase.
    pub(crate) fn grow(&mut self, n: usize, initial: bool) {
        self.saved.resize(n, initial);
        self.target.resize(n, L_UNDEF);
        self.best.resize(n, L_UNDEF);
        self.user.resize(n, L_UNDEF);
    }

    /// The polarity tried first for `v` (true = positive); target phases only when
    /// `use_target` (stable mode with `target_phases`).
    #[inline]
    fn decision(&self, v: usize, use_target: bool) -> bool {
        match self.user[v] {
            L_TRUE => return true,
            L_FALSE => return false,
            _ => {}
        }
        if use_target {
            match self.target[v] {
                L_TRUE => return true,
                L_FALSE => return false,
                _ => {}
            }
        }
        self.saved[v]
    }
}

impl Solver {
    /// The next decision literal, or `None` when every variable is assigned or eliminated.
    pub(crate) fn pick_branch_lit(&mut self) -> Option<Lit> {
        let use_target = self.mode.is_stable() && self.opts.target_phases;
        if let Some(v) = self.random_decision() {
            return Some(Var::from_index(v).lit(self.phases.decision(v, use_target)));
        }
        let Solver {
            scores,
            trail,
            elim,
            phases,
            deferred,
            ..
        } = self;
        let next = scores.next_decision(trail, |v| !elim.is_eliminated(v) && !deferred.has(v));
        let Some(v) = next.or_else(|| deferred.first_free(trail, |v| !elim.is_eliminated(v)))
        else {
            debug_assert!(
                (0..trail.num_vars())
                    .all(|v| trail.var_value(v) != L_UNDEF || elim.is_eliminated(v)),
                "decide.rs invariant: an unassigned variable was missing from the decision order"
            );
            return None;
        };
        Some(Var::from_index(v).lit(phases.decision(v, use_target)))
    }
}

#[cfg(test)]
mod tests {
    use super::Shape;

    #[test]
    fn only_clauses_of_one_length_of_at_least_three_make_a_formula_uniform() {
        let shape = |lens: &[usize]| {
            let mut s = Shape::default();
            for &n in lens {
                s.note(n);
            }
            s.uniform()
        };
        assert!(!shape(&[]), "no clause is not a uniform formula");
        assert!(shape(&[3]));
        assert!(shape(&[3, 3, 3]));
        assert!(shape(&[5, 5]));
        assert!(!shape(&[3, 3, 2]), "a binary clause breaks uniformity");
        assert!(!shape(&[3, 4, 3]), "mixed lengths");
        assert!(!shape(&[2, 2]), "binary formulas are not random k-SAT");
        assert!(!shape(&[4, 1]), "a unit breaks it too");
    }
}
