//! `min_length` inside the search: no walk from a `from` cell to a `to` cell (its inner cells
//! holding `through`) is shorter than `min_length` steps.
//!
//! The walks over the cells **certainly** in — `from`, `through` and `to` literals already
//! true — are walks of every level that extends the assignment, so the shortest of them bounds
//! the level's true distance from above. Two breadth-first searches over them, bounded by
//! `min_length`, after each batch of assignments that made one of the rule's literals true
//! (false literals only lengthen walks, so they need no look):
//!
//! - `df(v)`: the fewest steps from a certain `from` cell to `v` whose inner cells are certainly
//!   `through` (`v` itself unconstrained); `dt(v)` the same towards a certain `to` cell.
//! - **Conflict**: a certain `to` cell with `df < min_length`; the clause is the negation of
//!   that walk's literals (its `from`, its inner `through`s, its `to`).
//! - **Propagation**, each with the walks' literals as its reason: `¬to(v)` when
//!   `df(v) < min_length`; `¬from(v)` when `dt(v) < min_length`; `¬through(v)` when
//!   `df(v) + dt(v) < min_length` (through `v` the two walks join into a walk too short).
//!
//! These are all the consequences of the floor for a cell decided alone, given the certain
//! cells; a complete assignment is therefore judged exactly (every walk of a complete level
//! uses certain literals only), which is what makes the propagated model sound.

use crate::graph::Graph;
use grim_solver::{ClauseKind, Context, Lit};

/// The floor of one path rule, and its search buffers.
pub(super) struct Floor {
    /// `min_length` (≥ 1).
    min: u32,
    /// Positive literals of the rule, by code: an assignment of one can shorten a walk.
    mine: Vec<bool>,
    /// A rule literal became true since the last complete pass.
    grown: bool,
    /// Literals true at level 0, by code: left out of clauses and reasons (see `rooted`).
    root: Vec<bool>,
    df: Vec<u32>,
    pf: Vec<u32>,
    dt: Vec<u32>,
    pt: Vec<u32>,
    queue: Vec<u32>,
    seen: Vec<u32>,
    epoch: u32,
}

const NONE: u32 = u32::MAX;

impl Floor {
    /// The floor `min` of the rule over per-cell `from`, `to` and `through` literals.
    pub(super) fn new(min: usize, from: &[Lit], to: &[Lit], through: &[Lit]) -> Floor {
        let codes = from
            .iter()
            .chain(to)
            .chain(through)
            .map(|l| l.code() | 1)
            .max()
            .map_or(0, |c| c + 1);
        let mut mine = vec![false; codes];
        for l in from.iter().chain(to).chain(through) {
            mine[l.code()] = true;
        }
        let cells = from.len();
        Floor {
            min: min.min(u32::MAX as usize - 1) as u32,
            mine,
            grown: true,
            root: vec![false; codes],
            df: vec![NONE; cells],
            pf: vec![NONE; cells],
            dt: vec![NONE; cells],
            pt: vec![NONE; cells],
            queue: Vec::with_capacity(cells),
            seen: vec![0; codes],
            epoch: 0,
        }
    }

    /// `lits` became true.
    pub(super) fn assigned(&mut self, lits: &[Lit]) {
        if !self.grown {
            self.grown = lits
                .iter()
                .any(|l| self.mine.get(l.code()).copied().unwrap_or(false));
        }
    }

    /// `lits` became true at level 0 (the constant true literal among them): facts, left out
    /// of every clause and reason from now on. Why: a reason whose other literals are all
    /// level-0 facts is a unit at level 0, but the engine assigns a propagation at the current
    /// level; after backtracking it would sit unwatched as a unit. Without the facts it is the
    /// unit clause itself, which the engine puts at level 0.
    pub(super) fn rooted(&mut self, lits: &[Lit]) {
        for l in lits {
            if let Some(r) = self.root.get_mut(l.code()) {
                *r = true;
            }
        }
    }

    /// Whether the false literal `l` is false at level 0.
    fn fact(&self, l: Lit) -> bool {
        self.root.get((!l).code()).copied().unwrap_or(false)
    }

    /// Look at everything on the next pass.
    pub(super) fn invalidate(&mut self) {
        self.grown = true;
    }

    /// The pass of the module doc; returns true on a conflict (its clause added).
    pub(super) fn propagate(
        &mut self,
        (from, to, through): (&[Lit], &[Lit], &[Lit]),
        graph: &Graph,
        ctx: &mut Context<'_>,
    ) -> bool {
        if !self.grown {
            return false;
        }
        let cells = from.len();
        let truth = |l: Lit| ctx.value(l) == Some(true);
        let (mut df, mut pf) = (std::mem::take(&mut self.df), std::mem::take(&mut self.pf));
        let (mut dt, mut pt) = (std::mem::take(&mut self.dt), std::mem::take(&mut self.pt));
        self.walks(graph, from, through, &truth, &mut df, &mut pf);
        self.walks(graph, to, through, &truth, &mut dt, &mut pt);
        let mut conflict = None;
        for v in 0..cells {
            if df[v] < self.min && truth(to[v]) {
                let mut clause = Vec::new();
                self.begin();
                if self.mark(!to[v]) && !self.fact(!to[v]) {
                    clause.push(!to[v]);
                }
                self.push_walk(&mut clause, v, &pf, from, through);
                conflict = Some(clause);
                break;
            }
        }
        if let Some(clause) = conflict {
            debug_assert!(clause.iter().all(|&l| ctx.value(l) == Some(false)));
            ctx.add_clause(&clause, ClauseKind::Learned);
            (self.df, self.pf, self.dt, self.pt) = (df, pf, dt, pt);
            return true;
        }
        for v in 0..cells {
            let (f, t) = (df[v], dt[v]);
            let mut infer = |lit: Lit, fwd: bool, back: bool, this: &mut Floor| {
                if ctx.value(lit).is_some() {
                    return;
                }
                let mut clause = vec![lit];
                this.begin();
                this.mark(lit);
                if fwd {
                    this.push_walk(&mut clause, v, &pf, from, through);
                }
                if back {
                    this.push_walk(&mut clause, v, &pt, to, through);
                }
                debug_assert!(
                    clause[1..].iter().all(|&l| ctx.value(l) == Some(false)),
                    "a floor reason with a literal not false: {clause:?} {:?}",
                    clause.iter().map(|&l| ctx.value(l)).collect::<Vec<_>>()
                );
                ctx.propagate_because(lit, &clause);
            };
            if f < self.min {
                infer(!to[v], true, false, self);
            }
            if t < self.min {
                infer(!from[v], false, true, self);
            }
            if f < self.min && t < self.min && f + t < self.min {
                infer(!through[v], true, true, self);
            }
        }
        (self.df, self.pf, self.dt, self.pt) = (df, pf, dt, pt);
        self.grown = false;
        false
    }

    /// Breadth-first from the cells whose `start` literal is true, leaving a cell only when it
    /// is a start or certainly `through`, up to `min − 1` steps.
    fn walks(
        &mut self,
        graph: &Graph,
        start: &[Lit],
        through: &[Lit],
        truth: &dyn Fn(Lit) -> bool,
        dist: &mut [u32],
        parent: &mut [u32],
    ) {
        dist.fill(NONE);
        self.queue.clear();
        for (c, &l) in start.iter().enumerate() {
            if truth(l) {
                dist[c] = 0;
                parent[c] = NONE;
                self.queue.push(c as u32);
            }
        }
        let mut head = 0;
        while head < self.queue.len() {
            let x = self.queue[head] as usize;
            head += 1;
            let d = dist[x];
            if d + 1 >= self.min || (d > 0 && !truth(through[x])) {
                continue;
            }
            for y in graph.around(x) {
                if dist[y] == NONE {
                    dist[y] = d + 1;
                    parent[y] = x as u32;
                    self.queue.push(y as u32);
                }
            }
        }
    }

    /// A fresh set of literals already in the clause being built.
    fn begin(&mut self) {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.seen.fill(0);
            self.epoch = 1;
        }
    }

    /// Marks `l` as in the clause; false when it already was.
    fn mark(&mut self, l: Lit) -> bool {
        match self.seen.get_mut(l.code()) {
            Some(s) if *s == self.epoch => false,
            Some(s) => {
                *s = self.epoch;
                true
            }
            None => true,
        }
    }

    /// Appends the negated literals of the certain walk ending at `v` (by `parent`), those not
    /// in the clause yet: its first cell's `start` literal and its inner cells' `through`.
    fn push_walk(
        &mut self,
        clause: &mut Vec<Lit>,
        v: usize,
        parent: &[u32],
        start: &[Lit],
        through: &[Lit],
    ) {
        let mut x = v;
        loop {
            let p = parent[x];
            if p == NONE {
                if self.mark(!start[x]) && !self.fact(!start[x]) {
                    clause.push(!start[x]);
                }
                return;
            }
            x = p as usize;
            if parent[x] != NONE && self.mark(!through[x]) && !self.fact(!through[x]) {
                clause.push(!through[x]);
            }
        }
    }
}
