//! The chokepoints family's part of the grid propagator (`mod.rs` says what the clauses leave
//! to it).
//!
//! At each propagation fixpoint after a change, one depth-first search over the region's cells
//! not ruled out (`cut.rs`) gives every cell's sides; then
//! - the certain articulation cells (in the class, with class neighbours on two sides) are
//!   counted: more than `max` is a conflict, the clause of `max + 1` of them
//!   ([`cut::witness`]: each cell, its two neighbours, and the ruled-out cells around the
//!   smaller piece);
//! - with `max` 0, an undecided cell with class neighbours on two sides is set false, and so
//!   is an undecided neighbour of a class cell on another side than a class neighbour of it
//!   (either would make an articulation cell), each with its witness clause as the reason
//!   (eager: the witness is computed at once, and at most [`MAX_PROPAGATIONS`] per pass);
//! - when every cell of the region is decided and the count is below `min`, the conflict is
//!   the clause that some cell of the region changes (the count depends on nothing else).

use super::cut::{self, IN, OPEN, OUT, Sides};
use crate::model::{GridModel, SearchPlan};
use crate::search::{Lazy, Reason, SearchPart};
use grim_solver::{ClauseKind, Context, Lit, Var};

/// Where the part runs among the search parts: last (a search over the region per pass).
const RANK: u32 = 4;

/// Propagations per pass, each a search of its own for the witness: a bound on the pass's
/// cost (an assumption, not measured; the conflict check is never cut short).
const MAX_PROPAGATIONS: usize = 64;

/// A hard chokepoint rule left to the search: the grid, the bounds, per cell its literal
/// (`None`: a constant) and whether it may hold the class at all.
#[derive(Debug)]
pub(super) struct Plan {
    pub(super) width: usize,
    pub(super) height: usize,
    pub(super) min: u64,
    pub(super) max: Option<u64>,
    pub(super) lit_of: Vec<Option<Lit>>,
    /// The status of the cells without a literal (`OUT` or `IN`), `OPEN` for the others.
    pub(super) fixed: Vec<u8>,
}

impl SearchPlan for Plan {
    fn part(&self, _m: &GridModel) -> Box<dyn SearchPart> {
        let mut cell_of = Vec::new();
        for (c, l) in self.lit_of.iter().enumerate() {
            if let Some(l) = l {
                let v = l.var().index();
                if cell_of.len() <= v {
                    cell_of.resize(v + 1, None);
                }
                cell_of[v] = Some(c as u32);
            }
        }
        Box::new(Chokepoints {
            width: self.width,
            height: self.height,
            min: self.min,
            max: self.max,
            lit_of: self.lit_of.clone(),
            cell_of,
            fixed: self.fixed.clone(),
            dirty: true,
        })
    }
}

/// One hard chokepoint rule in the search (see the module doc).
struct Chokepoints {
    width: usize,
    height: usize,
    min: u64,
    max: Option<u64>,
    lit_of: Vec<Option<Lit>>,
    cell_of: Vec<Option<u32>>,
    fixed: Vec<u8>,
    /// Whether an observed literal changed since the last pass.
    dirty: bool,
}

impl SearchPart for Chokepoints {
    fn rank(&self) -> u32 {
        RANK
    }

    fn observed(&self, out: &mut Vec<Var>) {
        out.extend(self.lit_of.iter().flatten().map(|l| l.var()));
    }

    fn notify(&mut self, lits: &[Lit], _level: u32, _first: u64) {
        if !self.dirty {
            self.dirty = lits
                .iter()
                .any(|l| matches!(self.cell_of.get(l.var().index()), Some(Some(_))));
        }
    }

    fn backtrack(&mut self, _level: u32) {
        self.dirty = true;
    }

    fn propagate(&mut self, ctx: &mut Context<'_>, _now: u64, _lazy: &mut Lazy<'_>) -> bool {
        if !self.dirty {
            return false;
        }
        self.dirty = false;
        let (w, h) = (self.width, self.height);
        let status: Vec<u8> = (0..self.lit_of.len())
            .map(|c| match self.lit_of[c].map(|l| ctx.value(l)) {
                None => self.fixed[c],
                Some(None) => OPEN,
                Some(Some(true)) => IN,
                Some(Some(false)) => OUT,
            })
            .collect();
        let sides = Sides::new(w, h, &status);
        let found = cut::certain(w, h, &status, &sides);
        if let Some(max) = self.max
            && found.len() as u64 > max
        {
            let mut clause = Vec::new();
            for &x in found.iter().take(max as usize + 1) {
                clause.extend(cut::witness(w, h, &status, &self.lit_of, x));
            }
            clause.sort_unstable_by_key(|l| l.code());
            clause.dedup();
            ctx.add_clause(&clause, ClauseKind::Learned);
            return true;
        }
        let open = status.iter().any(|&s| s == OPEN);
        if !open {
            if (found.len() as u64) < self.min {
                let clause: Vec<Lit> = self
                    .lit_of
                    .iter()
                    .flatten()
                    .map(|&l| if ctx.value(l) == Some(true) { !l } else { l })
                    .collect();
                ctx.add_clause(&clause, ClauseKind::Learned);
                return true;
            }
            return false;
        }
        if self.max != Some(0) {
            return false;
        }
        let mut made = 0;
        let mut reason = Vec::new();
        for v in 0..status.len() {
            if made == MAX_PROPAGATIONS {
                break;
            }
            let (target, triple) = match status[v] {
                OPEN => match cut::split(w, h, &status, &sides, v, IN) {
                    Some((a, b)) => (v, (v, a, b)),
                    None => continue,
                },
                IN => {
                    let Some(a) = cut::around(w, h, v)
                        .into_iter()
                        .flatten()
                        .find(|&u| status[u] == IN)
                    else {
                        continue;
                    };
                    let sa = sides.side(w, h, v, a);
                    let Some(b) = cut::around(w, h, v).into_iter().flatten().find(|&u| {
                        status[u] == OPEN && sides.side(w, h, v, u) != sa
                    }) else {
                        continue;
                    };
                    (b, (v, a, b))
                }
                _ => continue,
            };
            let Some(l) = self.lit_of[target] else {
                continue;
            };
            if ctx.value(l).is_some() {
                continue;
            }
            // The witness with `target` open: its clause has `¬target` and every other
            // literal false now.
            reason.clear();
            reason.push(!l);
            reason.extend(
                cut::witness(w, h, &status, &self.lit_of, triple)
                    .into_iter()
                    .filter(|&x| x != !l),
            );
            ctx.propagate_because(!l, &reason);
            made += 1;
        }
        false
    }

    fn explain(&mut self, _lit: Lit, _why: Reason, _reason: &mut Vec<Lit>) {
        // Every propagation of this part carries its reason (`propagate_because`).
    }

    fn recheck(&mut self) {
        self.dirty = true;
    }
}
