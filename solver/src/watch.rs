//! Watch lists: two watched literals with blocking literals, binary clauses watched specially.
//!
//! Invariants (written once here; `propagate.rs`, `reduce.rs` and `simplify.rs` rely on them):
//! 1. A clause `c` of length ≥ 2 that is not deleted has exactly one watch in
//!    `watches[¬c[0]]` and one in `watches[¬c[1]]` — the list of a literal `l` holds the
//!    clauses to visit when `l` becomes true.
//! 2. A watch's `blocker` is some literal of its clause other than the watched one; when the
//!    blocker is true the clause is satisfied and is skipped without touching the arena.
//! 3. For a binary clause the blocker is the *other* literal, and `binary` is set: propagation
//!    never reads the arena for it (only analysis does, through the reason).
//! 4. Watches of deleted clauses may linger until the next `collect_garbage`, which removes them
//!    all; propagation never runs between a deletion and that collection.
//!
//! Ideas from Chaff (Moskewicz et al., DAC 2001) and MiniSat 2.2's blockers (Sörensson & Eén,
//! SAT 2005 / "MiniSat v1.13", 2005).

use crate::clause::CRef;
use crate::solver::Solver;
use crate::types::Lit;

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

impl Solver {
    /// Watches the first two literals of clause `c` (invariant 1).
    pub(crate) fn attach(&mut self, c: CRef) {
        let lits = self.arena.lits(c);
        let (a, b) = (lits[0], lits[1]);
        let binary = lits.len() == 2;
        self.watches[(!a).code()].push(Watch::new(b, c, binary));
        self.watches[(!b).code()].push(Watch::new(a, c, binary));
    }

    /// Removes clause `c`'s two watches (invariant 1). Linear in the two lists: for the few
    /// clauses vivification and elimination touch, cheaper than a sweep of every list.
    pub(crate) fn detach(&mut self, c: CRef) {
        let (a, b) = {
            let l = self.arena.lits(c);
            (l[0], l[1])
        };
        for w in [a, b] {
            let ws = &mut self.watches[(!w).code()];
            if let Some(pos) = ws.iter().position(|x| x.cref() == c) {
                ws.remove(pos);
            }
        }
    }
}
