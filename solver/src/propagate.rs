//! Unit propagation over two watched literals (see `watch.rs` for the invariants).
//!
//! Runs after every decision and every learned clause; it is where a CDCL solver spends most of
//! its time (85–93% of the profile on `uuf250` and pigeonhole instances). The loop follows
//! MiniSat 2.2's `propagate` (Eén & Sörensson, SAT 2003) with blocking literals and a separate
//! fast path for binary clauses, which never touch the arena. Differences: the watch list being
//! visited is taken out of its slot for the duration (Rust's borrow rules), and the loop reads
//! values, watches and clause literals without bounds checks. With `clause.rs`'s literal views
//! and `Arena::lits_mut_unchecked`, this loop is one of the engine's two places with `unsafe`
//! (the profile above is the justification; every other module forbids it).
//!
//! The loop takes the four pieces it touches — the trail, the watch lists, the arena and the
//! statistics — as separate borrows, not the whole `Solver`, so that the compiler knows they do
//! not alias. Measured with callgrind on uuf250-01 against the version that borrowed the whole
//! solver: 5.83 → 5.78 G instructions in propagation, the same search.

use crate::clause::{Arena, CRef, NO_REASON};
use crate::solver::Solver;
use crate::stats::Stats;
use crate::trail::Trail;
use crate::types::{L_FALSE, L_TRUE, Lit};
use crate::watch::{Watch, Watches};

impl Solver {
    /// Propagates every trail literal from `qhead` on (the free function `propagate` below).
    /// With an LRAT proof, what it fixed on level 0 gets its unit clauses (`lrat.rs`).
    #[inline]
    pub(crate) fn propagate(&mut self) -> CRef {
        let conflict = propagate(
            &mut self.trail,
            &mut self.watches,
            &mut self.arena,
            &mut self.stats,
        );
        if self.proof.is_lrat() {
            self.root_units_after_propagation();
        }
        conflict
    }
}

/// Propagates every trail literal from `trail.qhead` on. Returns the conflicting clause, or
/// `NO_REASON` when the trail is closed under unit propagation.
///
/// Pre: the invariants of `trail.rs`, `watch.rs` and `clause.rs` hold.
/// Post on conflict: every literal of the returned clause is false, and `qhead` is at the end
/// of the trail (the caller analyses and backtracks). Post otherwise: `qhead == trail.len()`.
///
/// Never inlined: the loop compiles best as a function of its own (inlined into the method
/// above, it took 2% more instructions on php-10p-9h, callgrind, the search unchanged).
#[allow(unsafe_code)]
#[inline(never)]
pub(crate) fn propagate(
    trail: &mut Trail,
    watches: &mut Watches,
    arena: &mut Arena,
    stats: &mut Stats,
) -> CRef {
    let lists = watches.lists_mut();
    let mut conflict = NO_REASON;
    while trail.qhead < trail.lits.len() {
        let p = trail.lits[trail.qhead];
        trail.qhead += 1;
        stats.propagations += 1;
        let false_lit = !p;
        let mut ws = std::mem::take(&mut lists[p.code()]);
        let n = ws.len();
        let mut i = 0;
        let mut j = 0;
        // SAFETY (for every unchecked access below):
        // - `i < n` and `j <= i` index `ws` (length n);
        // - every literal in a watch or a clause has a variable below `num_vars`
        //   (`add_clause` reserves variables first), so its code indexes `trail.vals`
        //   (2·num_vars) and `lists` (2·num_vars, `Watches::grow`);
        // - every watch refers to a live clause of the current arena (`watch.rs` invariant 4:
        //   deleted clauses lose their watches before propagation; `clause.rs` invariant 1).
        unsafe {
            'watches: while i < n {
                let w = *ws.get_unchecked(i);
                i += 1;
                let bv = *trail.vals.get_unchecked(w.blocker.code());
                if bv == L_TRUE {
                    *ws.get_unchecked_mut(j) = w;
                    j += 1;
                    continue;
                }
                if w.is_binary() {
                    *ws.get_unchecked_mut(j) = w;
                    j += 1;
                    if bv == L_FALSE {
                        conflict = w.cref();
                        break 'watches;
                    }
                    // Out of order (`trail.rs` invariant 7), the level is the other literal's.
                    let level = if trail.out_of_order == usize::MAX {
                        trail.lim.len() as u32
                    } else {
                        *trail.level.get_unchecked(p.var().index())
                    };
                    assign_unchecked(trail, w.blocker, w.cref(), level);
                    continue;
                }
                let c = w.cref();
                debug_assert!(!arena.is_deleted(c), "clause.rs invariant 2");
                let lits = arena.lits_mut_unchecked(c);
                if *lits.get_unchecked(0) == false_lit {
                    lits.swap(0, 1);
                }
                debug_assert_eq!(lits[1], false_lit, "watch.rs invariant 1");
                let first = *lits.get_unchecked(0);
                let fv = *trail.vals.get_unchecked(first.code());
                if first != w.blocker && fv == L_TRUE {
                    *ws.get_unchecked_mut(j) = Watch::new(first, c, false);
                    j += 1;
                    continue;
                }
                for k in 2..lits.len() {
                    let lk = *lits.get_unchecked(k);
                    if *trail.vals.get_unchecked(lk.code()) != L_FALSE {
                        *lits.get_unchecked_mut(1) = lk;
                        *lits.get_unchecked_mut(k) = false_lit;
                        lists
                            .get_unchecked_mut((!lk).code())
                            .push(Watch::new(first, c, false));
                        continue 'watches;
                    }
                }
                *ws.get_unchecked_mut(j) = Watch::new(first, c, false);
                j += 1;
                if fv == L_FALSE {
                    conflict = c;
                    break 'watches;
                }
                let level = if trail.out_of_order == usize::MAX {
                    trail.lim.len() as u32
                } else {
                    // Out of order: the highest level of the other (false) literals.
                    let mut level = 0;
                    for k in 1..lits.len() {
                        let lk = *lits.get_unchecked(k);
                        level = level.max(*trail.level.get_unchecked(lk.var().index()));
                    }
                    level
                };
                assign_unchecked(trail, first, c, level);
            }
        }
        // Keep the watches not yet visited when a conflict cut the loop short.
        if i < n {
            ws.copy_within(i..n, j);
            j += n - i;
        }
        ws.truncate(j);
        lists[p.code()] = ws;
        if conflict != NO_REASON {
            trail.qhead = trail.lits.len();
            break;
        }
    }
    conflict
}

/// `Trail::assign_at` without bounds checks, for propagation: `level` is the current level,
/// or on an out-of-order trail the highest level of the reason's other literals.
///
/// # Safety
/// `l`'s variable must be below `trail.num_vars()`.
#[allow(unsafe_code)]
#[inline(always)]
unsafe fn assign_unchecked(trail: &mut Trail, l: Lit, reason: CRef, level: u32) {
    let v = l.var().index();
    // `trail.out_of_order` needs no update: a level below the current one is only computed
    // when it already points at an earlier position (`trail.rs` invariant 7).
    // SAFETY: guaranteed by the caller; `vals` has 2·num_vars entries, the rest num_vars.
    unsafe {
        *trail.vals.get_unchecked_mut(l.code()) = L_TRUE;
        *trail.vals.get_unchecked_mut((!l).code()) = L_FALSE;
        *trail.level.get_unchecked_mut(v) = level;
        *trail.reason.get_unchecked_mut(v) = reason;
        *trail.pos.get_unchecked_mut(v) = trail.lits.len() as u32;
    }
    trail.lits.push(l);
}
