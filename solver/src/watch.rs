//! Watch lists: two watched literals with blocking literals, binary clauses watched specially.
//!
//! Invariants (written once here; `propagate.rs`, `reduce.rs`, `vivify.rs`, `eliminate.rs`
//! and `simplify.rs` rely on them):
//! 1. A clause `c` of length ≥ 2 that is not deleted and not detached for the moment (by
//!    vivification or elimination, which re-attach or delete it before propagating anything
//!    else) has exactly one watch in the list of `¬c[0]` and one in the list of `¬c[1]` —
//!    the list of a literal `l` holds the clauses to visit when `l` becomes true.
//! 2. A watch's `blocker` is a literal of its clause other than the watched one — or one that
//!    level-0 simplification has since removed from the clause as false (`simplify.rs` does
//!    not revisit blockers), which is never true again. So a true blocker means a satisfied
//!    clause, which propagation skips without touching the arena.
//! 3. A watch with `binary` set belongs to a clause of exactly two literals, and its blocker
//!    is the other literal: propagation never reads the arena for it (only analysis does,
//!    through the reason). `attach` sets it for every two-literal clause; a longer clause that
//!    level-0 simplification shortens to two keeps its ordinary watches (correct, only not the
//!    fast path).
//! 4. Watches of deleted clauses may linger until the next `Watches::sweep` or collection
//!    (`simplify.rs`), which removes them all; propagation never runs between a deletion and
//!    that sweep.
//!
//! Ideas from Chaff (Moskewicz et al., DAC 2001) and MiniSat 2.2's blockers (Sörensson & Eén,
//! SAT 2005 / "MiniSat v1.13", 2005).

#![forbid(unsafe_code)]

use crate::clause::{Arena, CRef, Clauses};
use crate::trail::Trail;
use crate::types::{L_FALSE, Lit};

/// One entry of a watch list.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Watch {
    pub(crate) blocker: Lit,
    /// Clause offset with the top bit set for a binary clause.
    tagged: u32,
}

const BINARY: u32 = 1 << 31;

impl Watch {
    #[inline(always)]
    pub(crate) fn new(blocker: Lit, c: CRef, binary: bool) -> Watch {
        debug_assert!(c & BINARY == 0);
        Watch {
            blocker,
            tagged: c | if binary { BINARY } else { 0 },
        }
    }

    #[inline(always)]
    pub(crate) fn cref(self) -> CRef {
        self.tagged & !BINARY
    }

    #[inline(always)]
    pub(crate) fn is_binary(self) -> bool {
        self.tagged & BINARY != 0
    }
}

/// The watch lists, one per literal (indexed by `Lit::code`). See the module doc for the
/// invariants every method keeps.
#[derive(Default)]
pub(crate) struct Watches {
    lists: Vec<Vec<Watch>>,
}

impl Watches {
    /// Makes room for variables `0..n` (empty lists).
    pub(crate) fn grow(&mut self, n: usize) {
        self.lists.resize_with(2 * n, Vec::new);
    }

    /// Every list, for propagation, which takes one list out while it pushes to others
    /// (`propagate.rs`).
    #[inline(always)]
    pub(crate) fn lists_mut(&mut self) -> &mut [Vec<Watch>] {
        &mut self.lists
    }

    /// The watches of literal `l` (the clauses to visit when `l` becomes true), for the
    /// inprocessing passes that read the binary implication graph (`substitute.rs`,
    /// `probe.rs`): a binary watch with blocker `b` in this list is the implication `l → b`.
    #[inline]
    pub(crate) fn list(&self, l: Lit) -> &[Watch] {
        &self.lists[l.code()]
    }

    /// Watches the first two literals of clause `c` (invariant 1).
    pub(crate) fn attach(&mut self, arena: &Arena, c: CRef) {
        let lits = arena.lits(c);
        let (a, b) = (lits[0], lits[1]);
        let binary = lits.len() == 2;
        self.lists[(!a).code()].push(Watch::new(b, c, binary));
        self.lists[(!b).code()].push(Watch::new(a, c, binary));
    }

    /// Removes clause `c`'s two watches (invariant 1). Linear in the two lists: for the few
    /// clauses vivification and elimination touch, cheaper than a sweep of every list.
    pub(crate) fn detach(&mut self, arena: &Arena, c: CRef) {
        let lits = arena.lits(c);
        for w in [lits[0], lits[1]] {
            let ws = &mut self.lists[(!w).code()];
            if let Some(pos) = ws.iter().position(|x| x.cref() == c) {
                ws.remove(pos);
            }
        }
    }

    /// Replaces every blocker that `stale` selects by the clause's other watched literal
    /// (invariant 2). A blocker may be a level-0 false literal simplification removed from its
    /// clause; when such a literal becomes unassigned again (`factor.rs` forgets extension
    /// variables' values), it must go.
    pub(crate) fn reset_blockers(&mut self, arena: &Arena, stale: impl Fn(Lit) -> bool) {
        for (code, ws) in self.lists.iter_mut().enumerate() {
            let own = !Lit::from_code(code);
            for w in ws.iter_mut() {
                if stale(w.blocker) && !arena.is_deleted(w.cref()) {
                    let lits = arena.lits(w.cref());
                    let other = if lits[0] == own { lits[1] } else { lits[0] };
                    *w = Watch::new(other, w.cref(), w.is_binary());
                }
            }
        }
    }

    /// Removes every watch of a deleted clause (invariant 4), keeping the arena as it is.
    pub(crate) fn sweep(&mut self, arena: &Arena) {
        for ws in self.lists.iter_mut() {
            ws.retain(|w| !arena.is_deleted(w.cref()));
        }
    }

    /// Removes every watch of a deleted clause and moves the clauses of the others from `from`
    /// to `to`, list by list — the order that gives the new arena its locality (`clause.rs`).
    pub(crate) fn relocate(&mut self, from: &mut Arena, to: &mut Arena) {
        for ws in self.lists.iter_mut() {
            ws.retain(|w| !from.is_deleted(w.cref()));
            for w in ws.iter_mut() {
                let new = from.relocate(w.cref(), to);
                *w = Watch::new(w.blocker, new, w.is_binary());
            }
        }
    }

    /// Checks invariants 1–3 for every live clause of `clauses` in debug builds: one pass over
    /// the watches and one over the clauses, so called at coarse points only (after a
    /// collection or sweep, after a simplification round).
    pub(crate) fn debug_check(&self, arena: &Arena, clauses: &Clauses, trail: &Trail) {
        if !cfg!(debug_assertions) {
            return;
        }
        // Per arena offset: bit 0 set by a watch of the clause's first literal, bit 1 by one of
        // its second, bit 2 by any further watch (one too many).
        let mut seen = vec![0u8; arena.end()];
        for (code, ws) in self.lists.iter().enumerate() {
            let own = !Lit::from_code(code); // the literal the clauses of this list watch
            for w in ws.iter().filter(|w| !arena.is_deleted(w.cref())) {
                let c = w.cref();
                let lits = arena.lits(c);
                let bit = if own == lits[0] {
                    1
                } else if own == lits[1] {
                    2
                } else {
                    debug_assert!(false, "watch invariant 1: {lits:?} watched by {own:?}");
                    continue;
                };
                let slot = &mut seen[c as usize];
                *slot |= if *slot & bit != 0 { 4 } else { bit };
                debug_assert!(w.blocker != own, "watch invariant 2: blocker is the watch");
                debug_assert!(
                    lits.contains(&w.blocker)
                        || (trail.is_fixed(w.blocker) && trail.value(w.blocker) == L_FALSE),
                    "watch invariant 2: blocker {:?} of clause {lits:?}",
                    w.blocker
                );
                if w.is_binary() {
                    debug_assert_eq!(lits.len(), 2, "watch invariant 3");
                    debug_assert!(w.blocker == lits[0] || w.blocker == lits[1]);
                }
            }
        }
        for &c in clauses.originals.iter().chain(&clauses.learnts) {
            if !arena.is_deleted(c) {
                debug_assert_eq!(seen[c as usize], 3, "watch invariant 1 for clause {c}");
                seen[c as usize] = 0;
            }
        }
        debug_assert!(
            seen.iter().all(|&x| x == 0),
            "watch invariant 1: a watch of a clause in neither list"
        );
    }
}
