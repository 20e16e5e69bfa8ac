//! Learned-clause shrinking: replace all the literals a learned clause has on one decision
//! level by a single literal of that level that implies them, the level's own unique
//! implication point for that set ("block UIP").
//!
//! Why: the 1UIP clause keeps every literal below the conflict level that the conflict
//! touched, and minimisation (`minimize.rs`) drops only those the others imply. Where the
//! literals of one level all follow from one earlier literal of that level, the clause can
//! name that literal instead: the LBD stays the same (one literal per level is left where there
//! were several), the clause gets shorter, so it propagates sooner and costs less to watch and
//! to keep. Measured: it removes few literals where grim's clauses are longest against
//! Kissat's (4% of those left after minimisation on clique colouring 10-07-09, 0.03% on
//! Urquhart-s4-b1), and its effect on the own structured set comes mostly from the different
//! search path (PAR-2 1083.7 s against 1153.4 s off, option `shrink`).
//!
//! The technique: Fleury & Biere, "Efficient all-UIP learned clause minimization" (SAT 2021),
//! as in Kissat's and CaDiCaL's `shrink`. The clause's literals below the conflict level are
//! sorted by level and taken one level (block) at a time, lowest first. For a block of at least
//! two literals, the walk starts at the block's latest trail position and goes down the trail
//! over the level's literals, resolving each marked one with its reason until a single marked
//! literal is left: the block UIP. Each reason's other literals must be on the same level (then
//! they join the walk), at level 0, in the clause, or implied by the clause — checked with
//! minimisation's `redundant`, so this is the paper's variant with minimisation of the lower
//! levels, Kissat's `shrink=3`. Any other literal ends the block's walk and leaves the block as
//! it was. Once a block is shrunken, the literals its walk went over are implied by the new
//! literal, so a higher block may resolve through them (`SEEN_SHRUNK`). The block UIP is bumped,
//! as every literal the analysis put in the clause was.
//!
//! Deviation: the paper and Kissat minimise the literals of a block whose walk failed
//! afterwards; ours has minimised the whole clause first (`minimize.rs`), so that would find
//! nothing new.
//!
//! Proofs: the shrunken clause is RUP. Its negation makes each block UIP true, propagation then
//! falsifies every literal of the old clause the walk replaced (by the very reasons the walk
//! resolved), and the old 1UIP clause, itself RUP, conflicts. No proof step beyond the usual
//! addition of the learned clause is needed.
//!
//! Marks in `Analysis::seen` beyond `minimize.rs`'s: 4 (`SEEN_SHRINKABLE`) on the variables of
//! the block being walked, 5 (`SEEN_SHRUNK`) on those of a shrunken block. Both are listed in
//! `to_clear` (or reset when a walk fails) and cleared by `Analysis::clear_minimize_marks`.

#![forbid(unsafe_code)]

use crate::analyze::{Analysis, SEEN_IN_CLAUSE};
use crate::bump::Bump;
use crate::clause::{Arena, is_clause};
use crate::minimize::{SEEN_FAILED, SEEN_REDUNDANT, abstract_level};
use crate::stats::Stats;
use crate::trail::Trail;
use crate::types::Lit;

/// Mark of a variable of the level being shrunken, in the walk (module doc).
const SEEN_SHRINKABLE: u8 = 4;
/// Mark of a variable a shrunken block's new literal implies (module doc).
pub(crate) const SEEN_SHRUNK: u8 = 5;

impl Analysis {
    /// Shrinks `learnt[1..]` level by level (module doc). `abstract_levels` is the clause's,
    /// as `minimize` returned it.
    ///
    /// Pre: `minimize`'s post-condition (marks 1 on the clause's variables, the walks' marks
    /// listed in `to_clear`), and no literal of `learnt[1..]` on the current level.
    /// Post: the same, for the shrunken clause, whose literals are all false and on the same
    /// levels as before, one or more per level as before; `learnt[0]` is untouched.
    pub(crate) fn shrink(
        &mut self,
        arena: &Arena,
        trail: &Trail,
        bump: &mut Bump,
        stats: &mut Stats,
        abstract_levels: u32,
    ) {
        let n = self.learnt.len();
        if n <= 2 {
            return;
        }
        let level = |l: &Lit| trail.level[l.var().index()];
        // Lowest level first, so that a shrunken block's implied literals are known when a
        // higher block's walk meets them in a reason.
        self.learnt[1..].sort_unstable_by_key(|l| (level(l), trail.pos[l.var().index()]));
        let mut write = 1;
        let mut start = 1;
        while start < n {
            let block_level = level(&self.learnt[start]);
            let mut end = start + 1;
            while end < n && level(&self.learnt[end]) == block_level {
                end += 1;
            }
            // The sort put the block's latest literal last.
            let latest = trail.pos[self.learnt[end - 1].var().index()] as usize;
            let uip = if end - start >= 2 {
                self.block_uip(
                    start,
                    end,
                    latest,
                    block_level,
                    arena,
                    trail,
                    abstract_levels,
                )
            } else {
                None
            };
            match uip {
                Some(u) => {
                    // A UIP outside the block is new to the clause: bumped like the rest.
                    bump.note(u.var().index());
                    stats.shrunken_literals += (end - start - 1) as u64;
                    self.learnt[write] = !u;
                    write += 1;
                }
                None => {
                    self.learnt.copy_within(start..end, write);
                    write += end - start;
                }
            }
            start = end;
        }
        self.learnt.truncate(write);
        // The new literals are in the clause: their marks go back to 1 at the final clearing,
        // which sets every clause literal to 1 after clearing `to_clear`.
    }

    /// The block UIP of `learnt[start..end]`, all on `block_level` (module doc), or `None`
    /// when a reason reaches a literal that is neither on that level nor implied by the clause.
    /// On success the walk's variables are marked `SEEN_SHRUNK` and listed in `to_clear`; on
    /// failure every mark it set is undone.
    #[allow(clippy::too_many_arguments)]
    fn block_uip(
        &mut self,
        start: usize,
        end: usize,
        latest: usize,
        block_level: u32,
        arena: &Arena,
        trail: &Trail,
        abstract_levels: u32,
    ) -> Option<Lit> {
        // The walk's variables go on a list of their own (`shrinking`), so that a failure can
        // put the block's literals back to 1 and the others to 0.
        self.shrinking.clear();
        for k in start..end {
            let v = self.learnt[k].var().index();
            self.seen[v] = SEEN_SHRINKABLE;
            self.shrinking.push(v);
        }
        let mut open = end - start;
        let mut t = latest;
        let uip = loop {
            let u = loop {
                let u = trail.lits[t];
                if self.seen[u.var().index()] == SEEN_SHRINKABLE {
                    break u;
                }
                t -= 1;
            };
            if open == 1 {
                break Some(u);
            }
            let uv = u.var().index();
            let r = trail.reason[uv];
            if !is_clause(r) {
                // An external propagation not yet explained (a decision cannot be reached with
                // more than one literal open: it is the level's first).
                break None;
            }
            let mut failed = false;
            for &q in arena.lits(r) {
                let qv = q.var().index();
                if qv == uv {
                    continue;
                }
                let lv = trail.level[qv];
                if lv == 0 || self.seen[qv] == SEEN_SHRINKABLE {
                    continue;
                }
                if lv == block_level {
                    self.seen[qv] = SEEN_SHRINKABLE;
                    self.shrinking.push(qv);
                    open += 1;
                    continue;
                }
                if !self.implied_below(q, arena, trail, abstract_levels) {
                    failed = true;
                    break;
                }
            }
            if failed {
                break None;
            }
            open -= 1;
            t -= 1;
        };
        if uip.is_some() {
            for &v in &self.shrinking {
                self.seen[v] = SEEN_SHRUNK;
                self.to_clear.push(Lit::from_code(2 * v));
            }
        } else {
            for &v in &self.shrinking {
                self.seen[v] = 0;
            }
            for k in start..end {
                self.seen[self.learnt[k].var().index()] = SEEN_IN_CLAUSE;
            }
        }
        uip
    }

    /// Whether the false literal `q`, on a level below the block's, is implied by the clause:
    /// in it, known implied (by minimisation or a shrunken block), or shown so now by
    /// minimisation's walk (its answer is cached on `q` either way).
    fn implied_below(
        &mut self,
        q: Lit,
        arena: &Arena,
        trail: &Trail,
        abstract_levels: u32,
    ) -> bool {
        let qv = q.var().index();
        match self.seen[qv] {
            SEEN_IN_CLAUSE | SEEN_REDUNDANT | SEEN_SHRUNK => return true,
            SEEN_FAILED => return false,
            _ => {}
        }
        let implied = is_clause(trail.reason[qv])
            && abstract_level(trail, qv) & abstract_levels != 0
            && self.redundant(q, abstract_levels, arena, trail);
        self.seen[qv] = if implied { SEEN_REDUNDANT } else { SEEN_FAILED };
        self.to_clear.push(q);
        implied
    }
}
