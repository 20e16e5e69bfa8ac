//! Unit propagation over two watched literals (see `watch.rs` for the invariants).
//!
//! Runs after every decision and every learned clause; it is where a CDCL solver spends most of
//! its time (85–93% of the profile on `uuf250` and pigeonhole instances). The loop follows
//! MiniSat 2.2's `propagate` (Eén & Sörensson, SAT 2003) with blocking literals and a separate
//! fast path for binary clauses, which never touch the arena. Differences: the watch list being
//! visited is taken out of its slot for the duration (Rust's borrow rules), and the loop reads
//! values, watches and clause literals without bounds checks — the one place in the engine
//! where `unsafe` is used, justified by the profile above.

use crate::clause::{CRef, NO_REASON};
use crate::solver::Solver;
use crate::types::{L_FALSE, L_TRUE, Lit};
use crate::watch::Watch;

impl Solver {
    /// Propagates every trail literal from `qhead` on. Returns the conflicting clause, or
    /// `NO_REASON` when the trail is closed under unit propagation.
    ///
    /// Post-condition on conflict: every literal of the returned clause is false, and `qhead`
    /// is at the end of the trail (the caller analyses and backtracks).
    #[allow(unsafe_code)]
    pub(crate) fn propagate(&mut self) -> CRef {
        let mut conflict = NO_REASON;
        while self.qhead < self.trail.len() {
            let p = self.trail[self.qhead];
            self.qhead += 1;
            self.stats.propagations += 1;
            let false_lit = !p;
            let mut ws = std::mem::take(&mut self.watches[p.code()]);
            let n = ws.len();
            let mut i = 0;
            let mut j = 0;
            // SAFETY (for every unchecked access below):
            // - `i < n` and `j <= i` index `ws` (length n);
            // - every literal in a watch or a clause has a variable below `num_vars`
            //   (`add_clause` reserves variables first), so its code indexes `vals` (2·num_vars)
            //   and `watches`;
            // - every watch refers to a live clause of the current arena (watch.rs invariant 4:
            //   deleted clauses lose their watches in `collect_garbage` before propagation).
            unsafe {
                'watches: while i < n {
                    let w = *ws.get_unchecked(i);
                    i += 1;
                    let bv = *self.vals.get_unchecked(w.blocker.code());
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
                        self.assign_unchecked(w.blocker, w.cref());
                        continue;
                    }
                    let c = w.cref();
                    let lits = self.arena.lits_mut_unchecked(c);
                    if *lits.get_unchecked(0) == false_lit {
                        lits.swap(0, 1);
                    }
                    debug_assert_eq!(lits[1], false_lit);
                    let first = *lits.get_unchecked(0);
                    let fv = *self.vals.get_unchecked(first.code());
                    if first != w.blocker && fv == L_TRUE {
                        *ws.get_unchecked_mut(j) = Watch::new(first, c, false);
                        j += 1;
                        continue;
                    }
                    for k in 2..lits.len() {
                        let lk = *lits.get_unchecked(k);
                        if *self.vals.get_unchecked(lk.code()) != L_FALSE {
                            *lits.get_unchecked_mut(1) = lk;
                            *lits.get_unchecked_mut(k) = false_lit;
                            self.watches
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
                    self.assign_unchecked(first, c);
                }
            }
            // Keep the watches not yet visited when a conflict cut the loop short.
            if i < n {
                ws.copy_within(i..n, j);
                j += n - i;
            }
            ws.truncate(j);
            self.watches[p.code()] = ws;
            if conflict != NO_REASON {
                self.qhead = self.trail.len();
                break;
            }
        }
        conflict
    }

    /// `assign` without bounds checks, for propagation.
    ///
    /// # Safety
    /// `l`'s variable must be below `num_vars`.
    #[allow(unsafe_code)]
    #[inline(always)]
    unsafe fn assign_unchecked(&mut self, l: Lit, reason: CRef) {
        let v = l.var().index();
        let level = self.trail_lim.len() as u32;
        // SAFETY: guaranteed by the caller; `vals` has 2·num_vars entries, the rest num_vars.
        unsafe {
            *self.vals.get_unchecked_mut(l.code()) = L_TRUE;
            *self.vals.get_unchecked_mut((!l).code()) = L_FALSE;
            *self.level.get_unchecked_mut(v) = level;
            *self.reason.get_unchecked_mut(v) = reason;
        }
        self.trail.push(l);
    }
}
