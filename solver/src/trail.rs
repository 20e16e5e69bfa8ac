//! The assignment and the trail: which literals are true, at which decision level, for which
//! reason, and in which order they were assigned.
//!
//! Invariants (written once here; `propagate.rs`, `analyze.rs`, `minimize.rs`, `probe.rs` and
//! `simplify.rs` rely on them):
//! 1. `vals[l] == -vals[!l]` for every literal: a variable is unassigned (both `L_UNDEF`) or
//!    exactly one of its literals is true.
//! 2. `lits` holds exactly the true literals, in assignment order, and `lim[d]` is the length
//!    of `lits` when decision level `d + 1` began; so `lim` is non-decreasing and `lim.len()`
//!    is the current decision level. The literal at `lim[d]`, if the level assigned one, is
//!    its decision (or assumption).
//! 3. For an assigned variable `v`, `level[v]` is the level it was assigned at and
//!    `reason[v]` the clause that implied it — `NO_REASON` for a decision, an assumption or a
//!    level-0 unit. For an unassigned variable both are stale and never read. An implied
//!    literal's level is at least that of every other literal of its reason, and each of those
//!    is earlier on the trail.
//! 7. A literal at `lits[i]` with `lim[d - 1] <= i < lim[d]` has a level of at most `d`; it is
//!    *out of order* when below `d`, which only chronological backtracking (`chrono.rs`) makes
//!    happen: the asserting literal of a learned clause assigned at its own level above the
//!    levels that were kept. `out_of_order` is at most the position of the first out-of-order
//!    literal (`usize::MAX` when there is none), so while it is `usize::MAX` every literal of a
//!    block is on the block's level, and propagation may take the current level as the level of
//!    what it implies. Level 0 never holds an out-of-order literal: a literal implied by level-0
//!    literals alone goes to level 0 by a full backtrack (`chrono.rs`).
//! 4. `qhead <= lits.len()`, and `lits[..qhead]` have been propagated (their watch lists
//!    visited, `watch.rs`).
//! 5. For a variable assigned above level 0, `pos[v]` is its index in `lits` (at level 0 it is
//!    stale: `forget_root` moves level-0 literals, and nothing reads their positions).
//! 6. Level 0 is never analysed: a level-0 literal's reason may be forgotten (`NO_REASON`)
//!    once `simplify.rs` deletes the clause, and the clause arena may drop it.
//!
//! Who writes: `assign`, `new_decision_level` and `undo_to` below, and propagation's
//! unchecked copy of `assign` (`propagate.rs`, for speed); `simplify.rs` clears level-0
//! reasons and `simplify.rs`'s collection relocates reasons. Everyone else reads.

#![forbid(unsafe_code)]

use crate::clause::{CRef, NO_REASON};
use crate::types::{L_FALSE, L_TRUE, L_UNDEF, LBool, Lit};

/// The assignment, per literal and per variable, and the trail of assigned literals.
pub(crate) struct Trail {
    /// Truth value of each literal, indexed by `Lit::code` (invariant 1).
    pub(crate) vals: Vec<LBool>,
    /// Decision level of each assigned variable (invariant 3).
    pub(crate) level: Vec<u32>,
    /// Reason clause of each assigned variable, or `NO_REASON` (invariant 3).
    pub(crate) reason: Vec<CRef>,
    /// The assigned literals in assignment order (invariant 2).
    pub(crate) lits: Vec<Lit>,
    /// `lim[d]` = length of `lits` when decision level `d + 1` began (invariant 2).
    pub(crate) lim: Vec<usize>,
    /// Index in `lits` of each variable assigned above level 0 (invariant 5): where
    /// learned-clause shrinking (`shrink.rs`) starts its walk down a level. Its store in every
    /// assignment costs 0.5% of the instructions on uuf250-01 with shrinking off and the search
    /// unchanged (callgrind: 7.702 G against 7.665 G before it).
    pub(crate) pos: Vec<u32>,
    /// Next position of `lits` to propagate (invariant 4).
    pub(crate) qhead: usize,
    /// At most the position of the first out-of-order literal, `usize::MAX` if none
    /// (invariant 7).
    pub(crate) out_of_order: usize,
    /// Scratch for `undo_to`: the out-of-order literals a backtrack keeps.
    kept: Vec<Lit>,
}

impl Default for Trail {
    fn default() -> Trail {
        Trail {
            vals: Vec::new(),
            level: Vec::new(),
            reason: Vec::new(),
            lits: Vec::new(),
            lim: Vec::new(),
            pos: Vec::new(),
            qhead: 0,
            out_of_order: usize::MAX,
            kept: Vec::new(),
        }
    }
}

impl Trail {
    /// Makes room for variables `0..n` (unassigned). Pre: `n` ≥ the current number.
    pub(crate) fn grow(&mut self, n: usize) {
        self.vals.resize(2 * n, L_UNDEF);
        self.level.resize(n, 0);
        self.reason.resize(n, NO_REASON);
        self.pos.resize(n, 0);
    }

    /// Number of variables.
    #[inline(always)]
    pub(crate) fn num_vars(&self) -> usize {
        self.level.len()
    }

    /// Number of assigned literals.
    #[inline(always)]
    pub(crate) fn len(&self) -> usize {
        self.lits.len()
    }

    /// The value of `l`.
    #[inline(always)]
    pub(crate) fn value(&self, l: Lit) -> LBool {
        self.vals[l.code()]
    }

    /// The value of variable `v` (of its positive literal).
    #[inline(always)]
    pub(crate) fn var_value(&self, v: usize) -> LBool {
        self.vals[2 * v]
    }

    /// Whether `l` is assigned at level 0 (true or false): a fact of the clauses.
    #[inline]
    pub(crate) fn is_fixed(&self, l: Lit) -> bool {
        self.level[l.var().index()] == 0 && self.value(l) != L_UNDEF
    }

    /// The current decision level.
    #[inline(always)]
    pub(crate) fn decision_level(&self) -> u32 {
        self.lim.len() as u32
    }

    /// Assigns `l` true at the current level with reason `reason`. Pre: `l` unassigned.
    #[inline(always)]
    pub(crate) fn assign(&mut self, l: Lit, reason: CRef) {
        self.assign_at(l, reason, self.decision_level());
    }

    /// Assigns `l` true at `level` with reason `reason`: below the current level, `l` is out
    /// of order (invariant 7). Pre: `l` unassigned; `level` is at most the current level, at
    /// least that of every other literal of `reason`, and above 0 unless the current level is 0.
    #[inline(always)]
    pub(crate) fn assign_at(&mut self, l: Lit, reason: CRef, level: u32) {
        debug_assert_eq!(self.value(l), L_UNDEF);
        debug_assert!(level <= self.decision_level());
        debug_assert!(level > 0 || self.decision_level() == 0, "trail invariant 7");
        let v = l.var().index();
        if level < self.decision_level() {
            self.out_of_order = self.out_of_order.min(self.lits.len());
        }
        self.vals[l.code()] = L_TRUE;
        self.vals[(!l).code()] = L_FALSE;
        self.level[v] = level;
        self.reason[v] = reason;
        self.pos[v] = self.lits.len() as u32;
        self.lits.push(l);
    }

    /// Whether the trail may hold out-of-order literals (invariant 7).
    #[inline(always)]
    pub(crate) fn is_out_of_order(&self) -> bool {
        self.out_of_order != usize::MAX
    }

    /// Opens a new decision level.
    #[inline]
    pub(crate) fn new_decision_level(&mut self) {
        self.lim.push(self.lits.len());
    }

    /// Unassigns every literal assigned above decision level `level`, last assigned first,
    /// calling `undone` with each after its value is cleared (phase saving and the decision
    /// heap live elsewhere). Does nothing at or below `level`. Inlined so that each caller's
    /// closure compiles into the loop.
    ///
    /// Out-of-order literals (invariant 7) on `level` or below stay assigned: they move down to
    /// the end of the kept trail, in their order, and are propagated again (`qhead` goes back to
    /// the first of them), since what they implied above `level` is gone and the clauses they
    /// watch false may need a new watch or imply something now.
    #[inline(always)]
    pub(crate) fn undo_to(&mut self, level: u32, mut undone: impl FnMut(Lit)) {
        if self.decision_level() <= level {
            return;
        }
        let start = self.lim[level as usize];
        if self.out_of_order < self.lits.len() {
            self.undo_keeping(level, start, undone);
            return;
        }
        let Trail { vals, lits, .. } = self;
        for &l in lits[start..].iter().rev() {
            vals[l.code()] = L_UNDEF;
            vals[(!l).code()] = L_UNDEF;
            undone(l);
        }
        self.lits.truncate(start);
        self.lim.truncate(level as usize);
        self.qhead = self.qhead.min(start);
        if self.out_of_order >= start {
            self.out_of_order = usize::MAX;
        }
    }

    /// `undo_to` on a trail with out-of-order literals above `start` = `lim[level]`.
    #[inline(never)]
    fn undo_keeping(&mut self, level: u32, start: usize, mut undone: impl FnMut(Lit)) {
        let mut kept = std::mem::take(&mut self.kept);
        kept.clear();
        {
            let Trail {
                vals,
                lits,
                level: levels,
                ..
            } = self;
            for &l in lits[start..].iter().rev() {
                if levels[l.var().index()] <= level {
                    kept.push(l);
                } else {
                    vals[l.code()] = L_UNDEF;
                    vals[(!l).code()] = L_UNDEF;
                    undone(l);
                }
            }
        }
        debug_assert!(level > 0 || kept.is_empty(), "trail invariant 7: level 0");
        self.lits.truncate(start);
        self.lim.truncate(level as usize);
        self.qhead = self.qhead.min(start);
        if self.out_of_order >= start {
            self.out_of_order = usize::MAX;
        }
        for &l in kept.iter().rev() {
            let v = l.var().index();
            if self.level[v] < level {
                self.out_of_order = self.out_of_order.min(self.lits.len());
            }
            self.pos[v] = self.lits.len() as u32;
            self.lits.push(l);
        }
        self.kept = kept;
    }

    /// At level 0: unassigns every literal of the trail whose variable `drop` selects and
    /// returns them, and forgets the reasons of the rest (invariant 6 allows it: the clauses
    /// behind them may be about to go). `qhead` keeps the propagated prefix of what remains: a
    /// solve stopped by its budget right after learning a unit leaves that unit unpropagated
    /// (invariant 4). `factor.rs` drops its extension variables with it.
    pub(crate) fn forget_root(&mut self, drop: impl Fn(Lit) -> bool) -> Vec<Lit> {
        debug_assert_eq!(self.decision_level(), 0);
        let mut freed = Vec::new();
        let (mut at, mut qhead) = (0usize, 0usize);
        let old_qhead = self.qhead;
        self.lits.retain(|&l| {
            let gone = drop(l);
            if gone {
                freed.push(l);
            } else if at < old_qhead {
                qhead += 1;
            }
            at += 1;
            !gone
        });
        for &l in &freed {
            self.vals[l.code()] = L_UNDEF;
            self.vals[(!l).code()] = L_UNDEF;
        }
        for &l in &self.lits {
            self.reason[l.var().index()] = NO_REASON;
        }
        self.qhead = qhead;
        freed
    }

    /// Checks invariants 1–4 in debug builds; linear, so called at coarse points only.
    pub(crate) fn debug_check(&self) {
        if !cfg!(debug_assertions) {
            return;
        }
        for code in (0..self.vals.len()).step_by(2) {
            debug_assert_eq!(self.vals[code], -self.vals[code + 1], "trail invariant 1");
        }
        let assigned = self.vals.iter().filter(|&&x| x == L_TRUE).count();
        debug_assert_eq!(
            assigned,
            self.lits.len(),
            "trail invariant 2: every true literal"
        );
        debug_assert!(self.lits.iter().all(|&l| self.value(l) == L_TRUE));
        debug_assert!(
            self.lim.windows(2).all(|w| w[0] <= w[1]),
            "trail invariant 2"
        );
        debug_assert!(self.lim.last().is_none_or(|&s| s <= self.lits.len()));
        debug_assert!(self.qhead <= self.lits.len(), "trail invariant 4");
        let mut block = 0u32;
        for (i, &l) in self.lits.iter().enumerate() {
            while (block as usize) < self.lim.len() && self.lim[block as usize] <= i {
                block += 1;
            }
            let lv = self.level[l.var().index()];
            debug_assert!(lv <= block, "trail invariant 7: a literal above its block");
            debug_assert!(
                lv == block || (lv > 0 && i >= self.out_of_order),
                "trail invariant 7: an out-of-order literal before `out_of_order`"
            );
        }
    }
}
