//! The chokepoints family's part of the grid propagator (`mod.rs` says what the clauses leave
//! to it).
//!
//! A full pass reads every cell's sides (which piece of the cells not ruled out each neighbour
//! lies in once the cell is removed) from the 8-connected pieces of the ruled-out cells around
//! it (`fences.rs`, kept up to date as cells are ruled out and given back); then
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
//! When a pass runs: sides over a set of possible cells stay *sound* while that set only
//! shrinks (two cells apart without `v` stay apart when cells are ruled out), so the sides as
//! they were at the last full pass are kept until a backtrack gives a ruled-out cell back
//! ([`Chokepoints::full_at`] is dropped), and taken afresh when [`FULL_AFTER`] cells were ruled
//! out since, or at the model check. Between full passes, a local pass looks only at the cells
//! that entered the class and their neighbours, with the kept sides (`Fences::sides_at` the
//! last full pass's time); each witness is searched for on the current statuses. Measured on
//! cave-loops-64 (seed 1), when each full pass was a depth-first search over the grid: a full
//! pass at every fixpoint took 7.6 CPU s for 33 conflicts, 80% of it in the search and the
//! sides. That search (`cut::Sides`, now only the cut loop's) was still 49% of
//! cave-loops-128 seed 4's first 150 conflicts before `fences.rs` replaced it; the kept
//! schedule of full passes makes the same search as it did.

use super::cut::{self, IN, OPEN, OUT};
use super::fences::{Fences, NO_SIDE};
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
/// (`Sides::compute`, then `fences.rs`).
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
        let mut fences = Fences::new(self.width, self.height);
        for (c, &s) in self.fixed.iter().enumerate() {
            if s == OUT {
                fences.rule_out(c);
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
            fences,
            full_at: None,
            fresh: Vec::new(),
            outs: 0,
            open: self.fixed.iter().filter(|&&s| s == OPEN).count(),
            class_sides: (0..self.fixed.len())
                .map(|c| {
                    let around = cut::around(self.width, self.height, c);
                    around
                        .iter()
                        .flatten()
                        .filter(|&&d| self.fixed[d] == IN)
                        .count() as u8
                })
                .collect(),
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
    /// The pieces of the ruled-out cells, which give every cell's sides now and as they were
    /// at the last full pass (`fences.rs`).
    fences: Fences,
    /// The time ([`Fences::now`]) of the last full pass, while its sides are sound (see the
    /// module doc); the local passes use the sides as they were then.
    full_at: Option<u32>,
    /// Cells that entered the class since the last pass.
    fresh: Vec<u32>,
    /// Cells ruled out since the last full pass.
    outs: usize,
    /// Cells still `OPEN`.
    open: usize,
    /// Per cell, how many of its neighbours are `IN` (the full pass's cheap test).
    class_sides: Vec<u8>,
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

    /// What cell `v`, with `sides` (its neighbours' sides), implies with `max` 0 (the module
    /// doc's second item): the literal to set false and the witness, if any.
    fn implied(&self, v: usize, sides: &[u8; 4]) -> Option<(Lit, (usize, usize, usize))> {
        let status = &self.status;
        match status[v] {
            OPEN => {
                let (a, b) = self.split(v, sides, IN)?;
                Some((!self.lit_of[v]?, (v, a, b)))
            }
            IN => {
                let around = cut::around(self.width, self.height, v);
                let (ia, a) =
                    (0..4).find_map(|i| around[i].filter(|&u| status[u] == IN).map(|u| (i, u)))?;
                let b = (0..4).find_map(|i| {
                    around[i].filter(|&u| status[u] == OPEN && sides[i] != sides[ia])
                })?;
                Some((!self.lit_of[b]?, (v, a, b)))
            }
            _ => None,
        }
    }

    /// Two neighbours of `v` with status `want` (now) on different `sides`, if there are
    /// such: the first with that status and the first after it on another side (the order of
    /// `cut::split`).
    fn split(&self, v: usize, sides: &[u8; 4], want: u8) -> Option<(usize, usize)> {
        let mut first: Option<(usize, u8)> = None;
        for (i, u) in cut::around(self.width, self.height, v)
            .into_iter()
            .enumerate()
        {
            let Some(u) = u else { continue };
            if self.status[u] != want {
                continue;
            }
            debug_assert_ne!(sides[i], NO_SIDE);
            match first {
                None => first = Some((u, sides[i])),
                Some((a, sa)) if sa != sides[i] => return Some((a, u)),
                Some(_) => {}
            }
        }
        None
    }

    /// The sides of `v`'s neighbours as they were at time `t`, when they may matter: `v` in
    /// the class with two class neighbours (a certain articulation cell) or with a class and
    /// an open one, or open with two class neighbours (else neither [`Chokepoints::split`]
    /// nor [`Chokepoints::implied`] finds anything; this cheap test comes first).
    fn sides(&self, t: u32, v: usize) -> Option<[u8; 4]> {
        let class = u32::from(self.class_sides[v]);
        let matter = match self.status[v] {
            IN => class >= 2 || (class >= 1 && self.fences.possible_sides(v) > class),
            OPEN => class >= 2,
            _ => false,
        };
        if !matter {
            return None;
        }
        self.fences.sides_at(v, t)
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
                for d in cut::around(self.width, self.height, c)
                    .into_iter()
                    .flatten()
                {
                    self.class_sides[d] += 1;
                }
            } else {
                self.status[c] = OUT;
                self.fences.rule_out(c);
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
            match self.status[c as usize] {
                OUT => {
                    regained = true;
                    self.fences.give_back(c as usize);
                }
                IN => {
                    for d in cut::around(self.width, self.height, c as usize)
                        .into_iter()
                        .flatten()
                    {
                        self.class_sides[d] -= 1;
                    }
                }
                _ => {}
            }
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
        let full = self.full_at.is_none() || self.outs >= FULL_AFTER || (self.open == 0 && changed);
        if !full && self.fresh.is_empty() {
            return false;
        }
        if full {
            self.full_at = Some(self.fences.now());
            self.outs = 0;
        }
        let Some(t) = self.full_at else {
            return false;
        };
        let conflict = self.pass(ctx, t, full);
        self.fresh.clear();
        conflict
    }

    fn explain(&mut self, _lit: Lit, _why: Reason, _reason: &mut Vec<Lit>) {
        // Every propagation of this part carries its reason (`propagate_because`).
    }

    fn recheck(&mut self) {
        self.full_at = None;
    }
}

impl Chokepoints {
    /// One pass with the sides as they were at time `t`: over every cell when `full` (then
    /// `t` is now, and only the cells whose ring has two runs can split), else over the fresh
    /// cells and their neighbours. Returns true on a conflict.
    fn pass(&mut self, ctx: &mut Context<'_>, t: u32, full: bool) -> bool {
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
        // The cells whose neighbours may lie on two sides, with their sides: one lookup each.
        let split: Vec<(usize, [u8; 4])> = cells
            .into_iter()
            .filter_map(|v| self.sides(t, v).map(|s| (v, s)))
            .collect();
        let found: Vec<(usize, usize, usize)> = split
            .iter()
            .filter(|&&(v, _)| self.status[v] == IN)
            .filter_map(|(v, s)| self.split(*v, s, IN).map(|(a, b)| (*v, a, b)))
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
        for (v, s) in &split {
            if made == MAX_PROPAGATIONS {
                break;
            }
            let Some((lit, triple)) = self.implied(*v, s) else {
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
