//! Unit propagation over two watched literals (see `watch.rs` for the invariants).
//!
//! Runs after every decision and every learned clause; it is where a CDCL solver spends most of
//! its time. The loop follows MiniSat 2.2's `propagate` (Eén & Sörensson, SAT 2003) with
//! blocking literals and a separate fast path for binary clauses, which never touch the arena.
//! Differences: the watch list being visited is taken out of its slot for the duration (Rust's
//! borrow rules), which is also what lets the compiler keep it in registers.

use crate::clause::{CRef, NO_REASON};
use crate::solver::Solver;
use crate::types::{L_FALSE, L_TRUE};
use crate::watch::Watch;

impl Solver {
    /// Propagates every trail literal from `qhead` on. Returns the conflicting clause, or
    /// `NO_REASON` when the trail is closed under unit propagation.
    ///
    /// Post-condition on conflict: every literal of the returned clause is false, and `qhead`
    /// is at the end of the trail (the caller analyses and backtracks).
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
            'watches: while i < n {
                let w = ws[i];
                i += 1;
                let bv = self.vals[w.blocker.code()];
                if bv == L_TRUE {
                    ws[j] = w;
                    j += 1;
                    continue;
                }
                if w.is_binary() {
                    ws[j] = w;
                    j += 1;
                    if bv == L_FALSE {
                        conflict = w.cref();
                        break 'watches;
                    }
                    self.assign(w.blocker, w.cref());
                    continue;
                }
                let c = w.cref();
                let lits = self.arena.lits_mut(c);
                if lits[0] == false_lit {
                    lits.swap(0, 1);
                }
                debug_assert_eq!(lits[1], false_lit);
                let first = lits[0];
                let fv = self.vals[first.code()];
                if first != w.blocker && fv == L_TRUE {
                    ws[j] = Watch::new(first, c, false);
                    j += 1;
                    continue;
                }
                for k in 2..lits.len() {
                    let lk = lits[k];
                    if self.vals[lk.code()] != L_FALSE {
                        lits[1] = lk;
                        lits[k] = false_lit;
                        self.watches[(!lk).code()].push(Watch::new(first, c, false));
                        continue 'watches;
                    }
                }
                ws[j] = Watch::new(first, c, false);
                j += 1;
                if fv == L_FALSE {
                    conflict = c;
                    break 'watches;
                }
                self.assign(first, c);
            }
            // Keep the watches not yet visited when a conflict cut the loop short.
            while i < n {
                ws[j] = ws[i];
                i += 1;
                j += 1;
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
}
