//! The chokepoints family's part of the grid propagator (`mod.rs` says what the clauses leave
//! to it).
//!
//! A full pass runs one depth-first search over the region's cells not ruled out (`cut.rs`),
//! which gives every cell's sides; then
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
//!
//! A **soft** rule has a guard literal `g` (true: the level breaks the rule and pays its
//! weight), added to every clause above. While `g` is free, a clause whose other literals are
//! all false sets `g` true (a conflict of the hard rule becomes the price); the cells
//! themselves are only set once `g` is false; while `g` is true the part does nothing.
//!
//! When a pass runs: sides computed over a set of possible cells stay *sound* while that set
//! only shrinks (two cells apart without `v` stay apart when cells are ruled out), so they are
//! kept until a backtrack gives a ruled-out cell back ([`Chokepoints::sides`] is dropped), and
//! recomputed when [`FULL_AFTER`] cells were ruled out since, or at the model check. Between
//! full passes, a local pass looks only at the cells that entered the class and their
//! neighbours, with the kept sides; each witness is searched for on the current statuses.
//! Measured on cave-loops-64 (seed 1): a full pass at every fixpoint took 7.6 CPU s for 33
//! conflicts, 80% of it in the search and the sides.

use super::cut::{self, IN, OPEN, OUT, Sides};
use crate::graph::Graph;
use crate::model::{GridModel, SearchPlan};
use crate::search::{Lazy, Reason, SearchPart};
use grim_solver::{ClauseKind, Context, Lit, Var};

/// Where the part runs among the search parts: last (a search over the region per pass).
const RANK: u32 = 4;

/// Propagations per pass, each a search of its own for the witness: a bound on the pass's
/// cost (an assumption, not measured; the conflict check is never cut short).
const MAX_PROPAGATIONS: usize = 64;

/// Cells ruled out since the last full pass that make the next pass full. Scaling it with the
/// grid (256 on a 128×128 grid) was tried: cave-loops-128 seed 1 went from 427 conflicts to
/// 875 and no faster (the kept sides are sound but weaker); the pass was made cheaper instead
/// (`Sides::compute`).
const FULL_AFTER: usize = 64;

/// A chokepoint rule left to the search: the grid, the bounds, per cell its literal
/// (`None`: a constant) and whether it may hold the class at all, and a soft rule's guard.
#[derive(Debug)]
pub(super) struct Plan {
    pub(super) width: usize,
    pub(super) height: usize,
    pub(super) min: u64,
    pub(super) max: Option<u64>,
    pub(super) lit_of: Vec<Option<Lit>>,
    /// The status of the cells without a literal (`OUT` or `IN`), `OPEN` for the others.
    pub(super) fixed: Vec<u8>,
    /// A soft rule's relaxation literal (true: the rule may be broken).
    pub(super) guard: Option<Lit>,
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
            status: self.fixed.clone(),
            trail: Vec::new(),
            sides: None,
            spare: None,
            graph: Graph::grid(self.width, self.height),
            fresh: Vec::new(),
            outs: 0,
            open: self.fixed.iter().filter(|&&s| s == OPEN).count(),
            guard: self.guard,
            guard_at: None,
        })
    }
}

/// One chokepoint rule in the search (see the module doc).
struct Chokepoints {
    width: usize,
    height: usize,
    min: u64,
    max: Option<u64>,
    lit_of: Vec<Option<Lit>>,
    cell_of: Vec<Option<u32>>,
    /// Per cell, `OUT`, `OPEN` or `IN`, kept up to date by `notify` and `backtrack`.
    status: Vec<u8>,
    /// The cells decided, with their level, in the order told.
    trail: Vec<(u32, u32)>,
    /// The sides of the last full pass, while sound (see the module doc).
    sides: Option<Sides>,
    /// Sides no longer sound, kept for their buffers.
    spare: Option<Sides>,
    /// The grid's neighbours, for the full pass's search.
    graph: Graph,
    /// Cells that entered the class since the last pass.
    fresh: Vec<u32>,
    /// Cells ruled out since the last full pass.
    outs: usize,
    /// Cells still `OPEN`.
    open: usize,
    /// A soft rule's guard, and its value and level once assigned.
    guard: Option<Lit>,
    guard_at: Option<(bool, u32)>,
}

impl Chokepoints {
    /// The witness clause of `triple` with `lit` (the literal it propagates) first.
    fn reason(&self, lit: Lit, triple: (usize, usize, usize)) -> Vec<Lit> {
        let mut reason = vec![lit];
        let (w, h) = (self.width, self.height);
        reason.extend(
            cut::witness(w, h, &self.status, &self.lit_of, triple)
                .into_iter()
                .filter(|&x| x != lit),
        );
        reason.extend(self.guard);
        reason
    }

    /// Raises `clause` (every literal false but a soft rule's guard): a conflict when the
    /// rule is hard or its guard false, else the guard set true with the clause as reason.
    /// Returns true on a conflict.
    fn violated(&self, ctx: &mut Context<'_>, mut clause: Vec<Lit>) -> bool {
        match (self.guard, self.guard_at) {
            (Some(g), None) => {
                clause.retain(|&l| l != g);
                clause.insert(0, g);
                ctx.propagate_because(g, &clause);
                false
            }
            (g, _) => {
                clause.extend(g);
                ctx.add_clause(&clause, ClauseKind::Learned);
                true
            }
        }
    }

    /// What cell `v` implies with `max` 0 (the module doc's second item): the literal to set
    /// false and the witness, if any.
    fn implied(&self, sides: &Sides, v: usize) -> Option<(Lit, (usize, usize, usize))> {
        let (w, h) = (self.width, self.height);
        let status = &self.status;
        match status[v] {
            OPEN => {
                let (a, b) = cut::split(w, h, status, sides, v, IN)?;
                Some((!self.lit_of[v]?, (v, a, b)))
            }
            IN if sides.splits(v) => {
                let a = cut::around(w, h, v)
                    .into_iter()
                    .flatten()
                    .find(|&u| status[u] == IN)?;
                let sa = sides.side(w, h, v, a);
                let b = cut::around(w, h, v)
                    .into_iter()
                    .flatten()
                    .find(|&u| status[u] == OPEN && sides.side(w, h, v, u) != sa)?;
                Some((!self.lit_of[b]?, (v, a, b)))
            }
            _ => None,
        }
    }

    /// The conflict clause of the first `max + 1` certain articulation cells of `found`.
    fn conflict(&self, found: &[(usize, usize, usize)], max: u64) -> Vec<Lit> {
        let (w, h) = (self.width, self.height);
        let mut clause = Vec::new();
        for &x in found.iter().take(max as usize + 1) {
            clause.extend(cut::witness(w, h, &self.status, &self.lit_of, x));
        }
        clause.sort_unstable_by_key(|l| l.code());
        clause.dedup();
        clause
    }
}

impl SearchPart for Chokepoints {
    fn rank(&self) -> u32 {
        RANK
    }

    fn observed(&self, out: &mut Vec<Var>) {
        out.extend(self.lit_of.iter().flatten().map(|l| l.var()));
        out.extend(self.guard.map(|g| g.var()));
    }

    fn notify(&mut self, lits: &[Lit], level: u32, _first: u64) {
        for &l in lits {
            if let Some(g) = self.guard
                && g.var() == l.var()
            {
                self.guard_at.get_or_insert((l == g, level));
                continue;
            }
            let Some(Some(c)) = self.cell_of.get(l.var().index()) else {
                continue;
            };
            let c = *c as usize;
            if self.status[c] != OPEN {
                continue;
            }
            self.trail.push((c as u32, level));
            self.open -= 1;
            if self.lit_of[c] == Some(l) {
                self.status[c] = IN;
                self.fresh.push(c as u32);
            } else {
                self.status[c] = OUT;
                self.outs += 1;
            }
        }
    }

    fn backtrack(&mut self, level: u32) {
        if self.guard_at.is_some_and(|(_, l)| l > level) {
            // The passes skipped while the guard was true are owed: the next one is full.
            self.guard_at = None;
            self.recheck();
        }
        let mut regained = false;
        while let Some(&(c, l)) = self.trail.last() {
            if l <= level {
                break;
            }
            regained |= self.status[c as usize] == OUT;
            self.status[c as usize] = OPEN;
            self.open += 1;
            self.trail.pop();
        }
        if regained {
            self.recheck();
        }
        // Cells that entered the class at a kept level still want their local pass.
        let status = &self.status;
        self.fresh.retain(|&c| status[c as usize] == IN);
    }

    fn propagate(&mut self, ctx: &mut Context<'_>, _now: u64, _lazy: &mut Lazy<'_>) -> bool {
        if self.guard_at.is_some_and(|(value, _)| value) {
            // The rule is paid for: nothing to check until a backtrack frees the guard
            // (`backtrack` then asks for a full pass).
            self.fresh.clear();
            return false;
        }
        // Once every cell is decided, the next pass is the exact check: full.
        let changed = self.outs > 0 || !self.fresh.is_empty();
        let full = self.sides.is_none() || self.outs >= FULL_AFTER || (self.open == 0 && changed);
        if !full && self.fresh.is_empty() {
            return false;
        }
        if full {
            let mut sides = self.spare.take().unwrap_or_default();
            sides.compute(&self.graph, &self.status);
            self.sides = Some(sides);
            self.outs = 0;
        }
        let Some(sides) = self.sides.take() else {
            return false;
        };
        let conflict = self.pass(ctx, &sides, full);
        self.sides = Some(sides);
        self.fresh.clear();
        conflict
    }

    fn explain(&mut self, _lit: Lit, _why: Reason, _reason: &mut Vec<Lit>) {
        // Every propagation of this part carries its reason (`propagate_because`).
    }

    fn recheck(&mut self) {
        if let Some(sides) = self.sides.take() {
            self.spare = Some(sides);
        }
    }
}

impl Chokepoints {
    /// One pass with `sides`: over every cell when `full`, else over the fresh cells and their
    /// neighbours. Returns true on a conflict.
    fn pass(&mut self, ctx: &mut Context<'_>, sides: &Sides, full: bool) -> bool {
        let (w, h) = (self.width, self.height);
        let cells: Vec<usize> = if full {
            (0..self.status.len()).collect()
        } else {
            let mut v: Vec<usize> = Vec::new();
            for &c in &self.fresh {
                let c = c as usize;
                v.push(c);
                v.extend(cut::around(w, h, c).into_iter().flatten());
            }
            v.sort_unstable();
            v.dedup();
            v
        };
        let found: Vec<(usize, usize, usize)> = cells
            .iter()
            .filter(|&&v| self.status[v] == IN)
            .filter_map(|&v| cut::split(w, h, &self.status, sides, v, IN).map(|(a, b)| (v, a, b)))
            .collect();
        if let Some(max) = self.max {
            // A local pass sees only some of the certain cells: enough for a ceiling of 0.
            if (full || max == 0) && found.len() as u64 > max {
                let clause = self.conflict(&found, max);
                return self.violated(ctx, clause);
            }
        }
        if self.open == 0 && full {
            if (found.len() as u64) < self.min {
                let clause: Vec<Lit> = self
                    .lit_of
                    .iter()
                    .zip(&self.status)
                    .filter_map(|(l, &s)| l.map(|l| if s == IN { !l } else { l }))
                    .collect();
                return self.violated(ctx, clause);
            }
            return false;
        }
        // A soft rule's cells are set only once it is certainly kept (its guard false).
        if self.max != Some(0) || (self.guard.is_some() && self.guard_at.is_none()) {
            return false;
        }
        let mut made = 0;
        for &v in &cells {
            if made == MAX_PROPAGATIONS {
                break;
            }
            let Some((lit, triple)) = self.implied(sides, v) else {
                continue;
            };
            if ctx.value(lit).is_some() {
                continue;
            }
            let reason = self.reason(lit, triple);
            ctx.propagate_because(lit, &reason);
            made += 1;
        }
        false
    }
}
