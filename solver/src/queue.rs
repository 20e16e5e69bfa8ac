//! The variable-move-to-front queue (VMTF): focused mode's decision order.
//!
//! Every variable sits in one doubly linked list ordered by a bump stamp; bumping a variable
//! moves it to the end with a fresh stamp, and a decision takes the unassigned variable nearest
//! the end. From Ryan's thesis ("Efficient algorithms for clause-learning SAT solvers", Simon
//! Fraser University, 2004) and Biere & Fröhlich, "Evaluating CDCL variable scoring schemes"
//! (SAT 2015), which found it as good as EVSIDS and cheaper; Kissat and CaDiCaL decide by it in
//! focused mode and by scores in stable mode, which is what we do (`decide.rs`).
//!
//! Why: the Kissat statistics of the last stop (clique colouring, Urquhart) showed grim making
//! 1.5–4× Kissat's conflicts for the same refutation, with Kissat in focused mode most of the
//! time. VMTF reacts to the last conflicts only (a bump is a move to the very front), where
//! EVSIDS with decay 0.95 still weighs the last ~20 conflicts; that recency is what frequent
//! focused-mode restarts want.
//!
//! Two cheap tricks from the paper, both ours to keep in this file:
//! - the variables bumped by one conflict are moved in the order of their old stamps, so their
//!   relative order survives (`bump`);
//! - a `search` cursor caches where the last decision was found. Invariant (owned here; the
//!   backtracking in `Solver::undo_to` and every site that frees a variable keep it through
//!   `unassigned`): every variable whose stamp is above `stamp[search]` is assigned or
//!   eliminated. So a decision walks from `search` towards the front, and the walk's cost is
//!   paid back by the assignments it skips.
//!
//! Deviations: eliminated variables stay in the queue and are skipped (Kissat unlinks them);
//! they are never bumped, so they drift to the front and cost one skip per pass at most.
//! Variables fixed at level 0 are unlinked (`retire`) at each level-0 simplification: they
//! keep the stamp they had when they were fixed, near the end when they are new, and a
//! decision walk would otherwise pass them at every restart. Why: an optimiser that switches
//! each probe on by a fresh variable and retires it with a unit clause (`Oll::probe`) leaves
//! thousands of them among the newest: on dungeon-12 `--preferences soft -v` seed 16, the
//! walks over them were most of 30 CPU s spent on 1,400 conflicts. A retired variable that is
//! freed again (factoring forgets its extension variables' units) is linked back at the end.
//! Stamps are 64-bit and never renumbered. With a `seed` ≠ 0 new variables enter in a seeded
//! order instead of index order, as the EVSIDS activities get a seeded tie-break.

#![forbid(unsafe_code)]

use crate::rng;
use crate::trail::Trail;
use crate::types::L_UNDEF;

/// End of the list (no variable).
const NONE: u32 = u32::MAX;

/// The VMTF queue (module doc).
pub(crate) struct Queue {
    /// The variable before each one (towards the front, older stamps), or `NONE`.
    prev: Vec<u32>,
    /// The variable after each one (towards the end, newer stamps), or `NONE`.
    next: Vec<u32>,
    /// Each variable's bump stamp: strictly increasing from the front to the end.
    stamp: Vec<u64>,
    /// The oldest variable, or `NONE` when there are none.
    first: u32,
    /// The most recently bumped (or added) variable, or `NONE`.
    last: u32,
    /// The search cursor (module doc for its invariant), or `NONE` when there are no variables.
    search: u32,
    /// The last stamp handed out.
    counter: u64,
    /// Whether each variable is unlinked because it is fixed at level 0 (`retire`).
    retired: Vec<bool>,
}

impl Default for Queue {
    fn default() -> Queue {
        Queue {
            prev: Vec::new(),
            next: Vec::new(),
            stamp: Vec::new(),
            first: NONE,
            last: NONE,
            search: NONE,
            counter: 0,
            retired: Vec::new(),
        }
    }
}

impl Queue {
    /// Adds variables `old..n` at the end (they are unassigned, so the cursor moves to the
    /// end): in index order, or in a seeded order when `seed` ≠ 0.
    pub(crate) fn grow(&mut self, old: usize, n: usize, seed: u64) {
        self.prev.resize(n, NONE);
        self.next.resize(n, NONE);
        self.stamp.resize(n, 0);
        self.retired.resize(n, false);
        if seed == 0 {
            for v in old..n {
                self.push_last(v);
            }
        } else {
            let mut order: Vec<usize> = (old..n).collect();
            order.sort_by_key(|&v| {
                rng::mix(seed.wrapping_add((v as u64).wrapping_mul(rng::GOLDEN)))
            });
            for v in order {
                self.push_last(v);
            }
        }
        self.search = self.last;
    }

    /// Links `v` (unlinked) at the end with a fresh stamp.
    #[inline]
    fn push_last(&mut self, v: usize) {
        self.counter += 1;
        self.stamp[v] = self.counter;
        self.prev[v] = self.last;
        self.next[v] = NONE;
        if self.last == NONE {
            self.first = v as u32;
        } else {
            self.next[self.last as usize] = v as u32;
        }
        self.last = v as u32;
    }

    /// Moves the cursor off `v`, about to be unlinked, when it is on it: to the variable
    /// before it (or after it, at the front), so it stays on a variable whose newer neighbours
    /// are assigned.
    #[inline]
    fn cursor_off(&mut self, v: usize) {
        if self.search as usize == v {
            self.search = if self.prev[v] != NONE {
                self.prev[v]
            } else {
                self.next[v]
            };
        }
    }

    /// Unlinks `v`.
    #[inline]
    fn unlink(&mut self, v: usize) {
        let (p, n) = (self.prev[v], self.next[v]);
        if p == NONE {
            self.first = n;
        } else {
            self.next[p as usize] = n;
        }
        if n == NONE {
            self.last = p;
        } else {
            self.prev[n as usize] = p;
        }
    }

    /// Moves one conflict's variables `vars` (distinct) to the end, in the order of their old
    /// stamps (so the ones bumped together keep their relative order; `vars` is sorted in
    /// place), and moves the cursor to any of them that is unassigned.
    pub(crate) fn bump(&mut self, vars: &mut [u32], trail: &Trail) {
        vars.sort_unstable_by_key(|&v| self.stamp[v as usize]);
        for &v in vars.iter() {
            let v = v as usize;
            // Fixed at level 0: analysis never reaches such a variable.
            debug_assert!(!self.retired[v], "queue.rs: a retired variable bumped");
            if self.last as usize != v {
                self.cursor_off(v);
                self.unlink(v);
                self.push_last(v);
            } else {
                self.counter += 1;
                self.stamp[v] = self.counter;
            }
            if trail.var_value(v) == L_UNDEF {
                self.search = v as u32;
            }
        }
    }

    /// `v` became unassigned (backtracking) or usable again (restored from elimination, freed
    /// by factoring): the cursor moves to it if it is newer (module invariant).
    /// Before the queue is built (`decide.rs`) there are no stamps and the cursor just follows.
    #[inline(always)]
    pub(crate) fn unassigned(&mut self, v: usize) {
        // Only factoring frees a fixed variable, through `unretire` first.
        debug_assert!(
            self.retired.get(v) != Some(&true),
            "queue.rs: a retired variable freed"
        );
        let s = self.search as usize;
        if s >= self.stamp.len() || self.stamp[v] > self.stamp[s] {
            self.search = v as u32;
        }
    }

    /// Unlinks `v`, fixed at level 0 for good (module doc), unless it already is.
    pub(crate) fn retire(&mut self, v: usize) {
        if v >= self.retired.len() || self.retired[v] {
            return;
        }
        self.cursor_off(v);
        self.unlink(v);
        self.prev[v] = NONE;
        self.next[v] = NONE;
        self.retired[v] = true;
    }

    /// Links a retired `v` back at the end: it is no longer fixed (factoring forgets its
    /// extension variables' units). `unassigned` then puts the cursor on it.
    pub(crate) fn unretire(&mut self, v: usize) {
        if self.retired.get(v) == Some(&true) {
            self.retired[v] = false;
            self.push_last(v);
        }
    }

    /// The newest unassigned variable for which `usable` holds (not eliminated), moving the
    /// cursor to it; `None` when every variable is assigned or unusable (the cursor then rests
    /// on the first variable, which keeps the invariant).
    #[inline]
    pub(crate) fn next_decision(
        &mut self,
        trail: &Trail,
        usable: impl Fn(usize) -> bool,
    ) -> Option<usize> {
        let mut v = self.search;
        while v != NONE {
            let i = v as usize;
            if trail.var_value(i) == L_UNDEF && usable(i) {
                self.search = v;
                return Some(i);
            }
            if self.prev[i] == NONE {
                self.search = v;
                return None;
            }
            v = self.prev[i];
        }
        None
    }

    /// Whether `a` was bumped more recently than `b` (trail reuse compares decisions by it).
    #[inline]
    pub(crate) fn newer(&self, a: usize, b: usize) -> bool {
        self.stamp[a] > self.stamp[b]
    }

    /// Checks the list and the cursor invariant (debug builds; linear).
    pub(crate) fn debug_check(&self, trail: &Trail, usable: impl Fn(usize) -> bool) {
        if !cfg!(debug_assertions) {
            return;
        }
        let n = self.stamp.len();
        let mut count = 0;
        let mut v = self.first;
        let mut prev = NONE;
        let mut after_search = false;
        while v != NONE {
            let i = v as usize;
            assert_eq!(self.prev[i], prev, "queue.rs: broken back link");
            if prev != NONE {
                assert!(
                    self.stamp[prev as usize] < self.stamp[i],
                    "queue.rs: stamps not increasing"
                );
            }
            if after_search {
                assert!(
                    trail.var_value(i) != L_UNDEF || !usable(i),
                    "queue.rs invariant: an unassigned variable after the cursor"
                );
            }
            if v == self.search {
                after_search = true;
            }
            count += 1;
            prev = v;
            v = self.next[i];
        }
        assert_eq!(prev, self.last);
        let mut retired = 0;
        for (v, &r) in self.retired.iter().enumerate() {
            if r {
                assert!(
                    trail.var_value(v) != L_UNDEF,
                    "queue.rs: a retired variable is unassigned"
                );
                retired += 1;
            }
        }
        assert_eq!(
            count + retired,
            n,
            "queue.rs: a variable is missing from the list"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn order(q: &Queue) -> Vec<usize> {
        let mut out = vec![];
        let mut v = q.first;
        while v != NONE {
            out.push(v as usize);
            v = q.next[v as usize];
        }
        out
    }

    #[test]
    fn bumps_move_to_the_end_keeping_their_relative_order() {
        let mut trail = Trail::default();
        trail.grow(6);
        let mut q = Queue::default();
        q.grow(0, 6, 0);
        assert_eq!(order(&q), vec![0, 1, 2, 3, 4, 5]);
        // Bumped out of stamp order: they must land in stamp order.
        q.bump(&mut [4, 1, 3], &trail);
        assert_eq!(order(&q), vec![0, 2, 5, 1, 3, 4]);
        assert_eq!(q.next_decision(&trail, |_| true), Some(4));
        q.debug_check(&trail, |_| true);
        // Bumping the last variable again keeps it last.
        q.bump(&mut [4], &trail);
        assert_eq!(order(&q), vec![0, 2, 5, 1, 3, 4]);
        // Unusable variables are skipped.
        assert_eq!(q.next_decision(&trail, |v| v != 4 && v != 3), Some(1));
        assert_eq!(q.next_decision(&trail, |_| false), None);
        q.unassigned(4);
        assert_eq!(q.next_decision(&trail, |_| true), Some(4));
        q.debug_check(&trail, |_| true);
    }

    /// A retired variable (fixed at level 0) leaves the list, the cursor steps off it, and
    /// freeing it again links it back at the end as the next decision.
    #[test]
    fn retired_variables_leave_the_list_and_come_back_at_the_end() {
        use crate::clause::NO_REASON;
        use crate::types::Var;
        let mut trail = Trail::default();
        trail.grow(6);
        let mut q = Queue::default();
        q.grow(0, 6, 0);
        // The cursor is on 5 (the newest); fix 5 and 2 at level 0 and retire them.
        for v in [5u32, 2] {
            trail.assign(Var::new(v).unwrap().pos(), NO_REASON);
        }
        q.retire(5);
        q.retire(2);
        q.retire(2);
        assert_eq!(order(&q), vec![0, 1, 3, 4]);
        q.debug_check(&trail, |_| true);
        assert_eq!(q.next_decision(&trail, |_| true), Some(4));
        q.bump(&mut [1], &trail);
        assert_eq!(order(&q), vec![0, 3, 4, 1]);
        q.debug_check(&trail, |_| true);
        // Freed (factoring forgets a unit): back at the end, where the next walk starts.
        let freed = trail.forget_root(|l| l.var().index() == 2);
        assert_eq!(freed.len(), 1);
        q.unretire(2);
        q.unassigned(2);
        assert_eq!(order(&q), vec![0, 3, 4, 1, 2]);
        assert_eq!(q.next_decision(&trail, |_| true), Some(2));
        q.debug_check(&trail, |_| true);
    }

    #[test]
    fn a_seed_gives_a_different_but_reproducible_initial_order() {
        let mut a = Queue::default();
        a.grow(0, 50, 7);
        let mut b = Queue::default();
        b.grow(0, 50, 7);
        assert_eq!(order(&a), order(&b));
        assert_ne!(order(&a), (0..50).collect::<Vec<_>>());
        let mut sorted = order(&a);
        sorted.sort_unstable();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
    }
}
