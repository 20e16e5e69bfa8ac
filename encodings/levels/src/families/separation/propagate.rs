//! The separation family's part of the grid propagator: a hard rule's pairs as inferences
//! instead of clauses (`mod.rs` says why).
//!
//! State: the cells whose selection literal is true, in the order the engine told them, each
//! with the decision level at which its diamond was cleared (`done` of them are). Clearing a
//! cell `c` looks at every cell `e` closer than the distance: a true `e` is a conflict (the
//! clause `¬sel(c) ∨ ¬sel(e)`), an unassigned one is set false, lazily, with that clause as its reason
//! (`Reason::at[0]` is `c`). Lazily because an eager reason
//! (`Context::propagate_because`) becomes a learned clause in the engine, one per propagated
//! cell; measured on arena-spawns-64 with 8 spawns ≥ 12 apart under heavy load, the two did not
//! differ beyond the noise (eager 6.5–8.1 s, lazy 8.9–10.1 s, seeds 1–3,
//! `benches/results/issue42-vocab-2026-12-06.md`); lazy keeps the clause database small (an
//! assumption, not measured).
//!
//! Decisions: the part also decides (after connectivity's region is grown), putting the
//! selection on cell after cell — the wished cells first — so the count rules' caps, not
//! conflicts, end the placement (`Spread::decides` says why).
//!
//! Invariant: every cell of `true_cells[..done]` had its diamond cleared at a level its
//! assignment is still on, so after a backtrack `done` falls back to the first cell cleared
//! above the new level.

use crate::model::{GridModel, SearchPlan};
use crate::search::{Lazy, Reason, SearchPart};
use grim_solver::{ClauseKind, Context, Lit, Var};

/// Where separation runs among the search parts: with the counts, before paths (a diamond is a
/// few hundred value look-ups).
const RANK: u32 = 1;

/// The cells closer than `d` to `c` (Manhattan), `c` excluded, on a `width × height` grid.
pub(super) fn ball(width: usize, height: usize, c: usize, d: usize) -> impl Iterator<Item = usize> {
    let (x, y) = ((c % width) as i64, (c / width) as i64);
    let r = d as i64 - 1;
    let (w, h) = (width as i64, height as i64);
    (-r..=r).flat_map(move |dy| {
        let span = r - dy.abs();
        (-span..=span).filter_map(move |dx| {
            let (nx, ny) = (x + dx, y + dy);
            let inside = (dx, dy) != (0, 0) && nx >= 0 && ny >= 0 && nx < w && ny < h;
            inside.then(|| (ny * w + nx) as usize)
        })
    })
}

/// Where separation asks for its decisions: after connectivity's (3), which grows the region
/// the items stand on.
const DECIDE_RANK: u32 = 5;

/// A hard separation rule left to the search: the grid, the distance, and per cell that may
/// hold the selection its (non-constant) literal, in the order the part decides them.
#[derive(Debug)]
pub(super) struct Plan {
    pub(super) width: usize,
    pub(super) height: usize,
    pub(super) distance: usize,
    pub(super) cells: Vec<(usize, Lit)>,
}

impl SearchPlan for Plan {
    fn part(&self, _m: &GridModel) -> Box<dyn SearchPart> {
        let order = self.cells.iter().map(|&(_, l)| l).collect();
        let mut lit_of = vec![None; self.width * self.height];
        let mut cell_of = Vec::new();
        for &(c, l) in &self.cells {
            lit_of[c] = Some(l);
            let v = l.var().index();
            if cell_of.len() <= v {
                cell_of.resize(v + 1, None);
            }
            cell_of[v] = Some(c as u32);
        }
        Box::new(Spread {
            width: self.width,
            height: self.height,
            distance: self.distance,
            lit_of,
            cell_of,
            true_cells: Vec::new(),
            done: 0,
            order,
            next: 0,
        })
    }
}

/// One hard separation rule in the search (see the module doc).
struct Spread {
    width: usize,
    height: usize,
    distance: usize,
    /// Per cell, its selection literal (`None`: it cannot hold the selection, or a constant).
    lit_of: Vec<Option<Lit>>,
    /// Per variable index, the cell whose literal it is.
    cell_of: Vec<Option<u32>>,
    /// The cells whose literal is true, each with the level its diamond was cleared at
    /// (`u32::MAX`: not yet).
    true_cells: Vec<(u32, u32, u32)>,
    /// How many of `true_cells` have had their diamond cleared.
    done: usize,
    /// The selection literals in decision order (wished cells first).
    order: Vec<Lit>,
    /// Every literal of `order` before `next` was assigned when last looked at (assignments
    /// only grow until a backtrack, which resets it).
    next: usize,
}

impl SearchPart for Spread {
    fn rank(&self) -> u32 {
        RANK
    }

    fn observed(&self, out: &mut Vec<Var>) {
        out.extend(self.lit_of.iter().flatten().map(|l| l.var()));
    }

    fn notify(&mut self, lits: &[Lit], level: u32, _first: u64) {
        for &l in lits {
            let Some(Some(c)) = self.cell_of.get(l.var().index()) else {
                continue;
            };
            if self.lit_of[*c as usize] == Some(l) {
                self.true_cells.push((*c, level, u32::MAX));
            }
        }
    }

    /// The part decides: the selection on, cell after cell in `order`, each decision clearing
    /// its diamond (propagation) until the count rules cap the number (their propagators set
    /// the rest off). Why: left to the engine, the hints set the selection off cell by cell
    /// wherever no wish is, and when a wished cell ends up under another tile the count's
    /// lower bound is met only at the last few cells, close together: a conflict per try —
    /// thousands on the 64×64 arena with four spawns ≥ 24 apart. Placing greedily, each
    /// placement excludes only what the rule excludes, so a packing of the needed size is
    /// found without conflicts whenever the greedy one is large enough.
    fn decides(&self) -> bool {
        true
    }

    fn decide_rank(&self) -> u32 {
        DECIDE_RANK
    }

    fn decide(&mut self, ctx: &Context<'_>) -> Option<Lit> {
        while let Some(&l) = self.order.get(self.next) {
            if ctx.value(l).is_none() {
                return Some(l);
            }
            self.next += 1;
        }
        None
    }

    fn backtrack(&mut self, level: u32) {
        self.next = 0;
        while self.true_cells.last().is_some_and(|t| t.1 > level) {
            self.true_cells.pop();
        }
        let cut = self.true_cells[..self.done.min(self.true_cells.len())]
            .iter()
            .position(|t| t.2 > level)
            .unwrap_or(self.done.min(self.true_cells.len()));
        self.done = cut;
        for t in &mut self.true_cells[cut..] {
            t.2 = u32::MAX;
        }
    }

    fn propagate(&mut self, ctx: &mut Context<'_>, now: u64, lazy: &mut Lazy<'_>) -> bool {
        while self.done < self.true_cells.len() {
            let c = self.true_cells[self.done].0 as usize;
            let Some(lc) = self.lit_of[c] else {
                self.done += 1;
                continue;
            };
            for e in ball(self.width, self.height, c, self.distance) {
                let Some(le) = self.lit_of[e] else { continue };
                match ctx.value(le) {
                    Some(true) => {
                        ctx.add_clause(&[!lc, !le], ClauseKind::Learned);
                        return true;
                    }
                    Some(false) => {}
                    None => lazy.propagate(ctx, !le, Reason::new(0, [c as u32, 0, 0, 0], now)),
                }
            }
            self.true_cells[self.done].2 = ctx.decision_level();
            self.done += 1;
        }
        false
    }

    /// `lit` is `¬sel(e)`, set because `sel(c)` is true (`why.at[0]` is `c`).
    fn explain(&mut self, _lit: Lit, why: Reason, reason: &mut Vec<Lit>) {
        if let Some(Some(lc)) = self.lit_of.get(why.at[0] as usize) {
            reason.push(!*lc);
        }
    }

    fn recheck(&mut self) {
        self.done = 0;
        for t in &mut self.true_cells {
            t.2 = u32::MAX;
        }
    }
}
