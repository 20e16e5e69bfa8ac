//! Paths inside the search: the `paths` rules checked by a part of the grid propagator
//! (`search.rs`) instead of the reachability layers of `encode.rs`, whose `2·L·cells`
//! variables grow with the bound (800,000 for a 100-step path on a 64×64 grid).
//!
//! A rule holds while some walk `c_0 … c_k` (`k ≤ max_length`) runs from a `from` cell through
//! `through` cells to a `to` cell. The check keeps one such walk of the current partial
//! assignment as a **witness**: the walk's literals (`from(c_0)`, `through(c_i)` between,
//! `to(c_k)`) are watched, and nothing is computed while none of them is false, however many
//! other cells are decided. When one goes false, a breadth-first search over the cells whose
//! literals are not false (the optimistic map) looks for a new witness; when there is none,
//! the rule is refuted by a clause of the literals that blocked the search:
//!
//! - **forward** (from the `from` side): every `from(c)` that is false, `to(c)` of every cell
//!   the search reached within the bound, and `through(c)` of every reached cell strictly
//!   inside the bound that it could not leave. Any walk of the bound in a level where all of
//!   these stay false would stay inside the searched ball and end on a reached cell whose
//!   `to` is false: so the clause is implied by the rule (this is the cut of the frontier the
//!   issue asked for, the excluded cells around the search);
//! - **backward** (from the `to` side): the same with the two ends exchanged.
//!
//! The smaller of the two is reported (a fixed `from` cell makes the forward clause short: its
//! `from` literals are the one constant false literal; a fixed `to` cell the backward one).
//!
//! Propagation: each time a new witness is searched for and found, the literals every walk
//! needs are forced — a cell that is the only candidate of some distance layer below the
//! shortest walk (see `force`), or the only cell that can end (or start) a walk within the
//! bound — each with the refutation of the search that blocks it as its reason. This is done
//! only when the witness breaks, not at every assignment (three searches each time): forced
//! literals found later wait for the next break, which is sound and cheap. Conflicts come as
//! soon as the optimistic map has no walk, which is what lets the search turn back early.
//! `check_model` repeats the search on the complete assignment as the safety net. On the
//! 64×64 cave, seeds 1–5: 23, 58, 26, 56, 69 conflicts without the forcing, 9, 58, 12, 56, 68
//! with it.

use super::floor::Floor;
use super::route::Route;
use crate::graph::Graph;
use crate::model::{GridModel, SearchPlan};
use crate::search::{Lazy, Reason, SearchPart};
use grim_solver::{ClauseKind, Context, Lit, Var};

/// Where the paths run among the search parts: after the counts (a comparison per rule) and
/// before connectivity (a pass over the region); a path costs nothing while its witness stands.
const RANK: u32 = 2;

/// One path rule's literals for the propagator: `from`, `to`, `through` per cell, then
/// `max_length` and `min_length`.
pub(super) type PathLits = (Vec<Lit>, Vec<Lit>, Vec<Lit>, Option<usize>, Option<usize>);

/// The path rules a propagated model leaves to the search, by their literals (`encode.rs`
/// records it).
#[derive(Debug)]
pub(super) struct Plan(pub(super) Vec<PathLits>);

impl SearchPlan for Plan {
    fn part(&self, m: &GridModel) -> Box<dyn SearchPart> {
        let mut part = Witnesses::new(m.spec.width, m.spec.height, &self.0);
        let tt = m.problem.always_true();
        for (w, (from, to, through, max, min)) in part.watches.iter_mut().zip(&self.0) {
            if let Some(floor) = &mut w.floor {
                floor.rooted(&[tt]);
            }
            // The route wants one fixed end each: the only true constant among the end
            // literals, all the others the constant false literal.
            let fixed = |ends: &[Lit]| {
                let mut at = ends.iter().enumerate().filter(|&(_, &l)| l != !tt);
                match (at.next(), at.next()) {
                    (Some((c, &l)), None) if l == tt => Some(c),
                    _ => None,
                }
            };
            if let (None, Some(min), Some(s), Some(t)) = (max, min, fixed(from), fixed(to)) {
                let wished = through.iter().map(|&l| m.wished(l) == Some(true)).collect();
                w.route = Route::new(*min, s, t, wished);
            }
        }
        Box::new(part)
    }
}

/// Every path rule of a grid, as one part of the grid propagator.
struct Witnesses {
    graph: Graph,
    watches: Vec<PathWatch>,
}

impl Witnesses {
    /// The rules' `(from, to, through, max_length, min_length)` on a `width × height` grid.
    fn new(width: usize, height: usize, rules: &[PathLits]) -> Self {
        Witnesses {
            graph: Graph::grid(width, height),
            watches: rules
                .iter()
                .map(|(from, to, through, max_length, min_length)| {
                    let mut w =
                        PathWatch::new(from.clone(), to.clone(), through.clone(), *max_length);
                    w.floor = min_length.map(|m| Floor::new(m, from, to, through));
                    w
                })
                .collect(),
        }
    }
}

impl SearchPart for Witnesses {
    fn rank(&self) -> u32 {
        RANK
    }

    fn observed(&self, out: &mut Vec<Var>) {
        out.extend(self.watches.iter().flat_map(|p| p.lits().map(|l| l.var())));
    }

    fn notify(&mut self, lits: &[Lit], level: u32, _first: u64) {
        for p in &mut self.watches {
            p.assigned(lits);
            if level == 0
                && let Some(floor) = &mut p.floor
            {
                floor.rooted(lits);
            }
        }
    }

    /// Nothing to undo: a witness stays valid when assignments are undone (none of its
    /// literals becomes false).
    fn backtrack(&mut self, _level: u32) {}

    fn propagate(&mut self, ctx: &mut Context<'_>, _now: u64, _lazy: &mut Lazy<'_>) -> bool {
        for p in &mut self.watches {
            if p.propagate(&self.graph, ctx) {
                return true; // a conflict
            }
            if let Some(mut floor) = p.floor.take() {
                let conflict = floor.propagate(p.ends(), &self.graph, ctx);
                p.floor = Some(floor);
                if conflict {
                    return true;
                }
            }
        }
        false
    }

    fn decides(&self) -> bool {
        self.watches.iter().any(|p| p.route.is_some())
    }

    /// A cell of a long walk laid first (`route.rs`).
    fn decide(&mut self, ctx: &Context<'_>) -> Option<Lit> {
        let graph = &self.graph;
        self.watches.iter_mut().find_map(|p| {
            let route = p.route.as_mut()?;
            route.decide(&p.through, graph, ctx)
        })
    }

    /// Never asked: every path propagation carries its reason (`propagate_because`).
    fn explain(&mut self, _lit: Lit, _why: Reason, _reason: &mut Vec<Lit>) {}

    fn recheck(&mut self) {
        for p in &mut self.watches {
            p.invalidate();
        }
    }
}

/// One path rule as the propagator sees it.
pub(super) struct PathWatch {
    from: Vec<Lit>,
    to: Vec<Lit>,
    through: Vec<Lit>,
    /// `max_length`, or `u32::MAX` when unbounded.
    bound: u32,
    /// The witness walk's literals, by literal code: `mark[code] == walk` while on it.
    mark: Vec<u32>,
    walk: u32,
    /// No valid witness: the next `propagate` searches.
    dirty: bool,
    dist: Vec<u32>,
    parent: Vec<u32>,
    queue: Vec<u32>,
    seen: Vec<u32>,
    seen_epoch: u32,
    /// `force`'s distance maps from each side, kept between calls (no allocation per break).
    df: Vec<u32>,
    dt: Vec<u32>,
    /// `min_length`'s part, when the rule has one (`floor.rs`).
    pub(super) floor: Option<Floor>,
    /// `min_length`'s decisions, when the rule has one, fixed ends and no `max_length`
    /// (`route.rs`).
    route: Option<Route>,
}

/// The result of one search over the optimistic map.
enum Search {
    /// A walk: its cells from the first end to the last.
    Walk(Vec<usize>),
    /// No walk: the refuting clause.
    Refuted(Vec<Lit>),
}

impl PathWatch {
    /// A rule over per-cell `from`, `to` and `through` literals, `max_length` steps at most.
    pub(super) fn new(
        from: Vec<Lit>,
        to: Vec<Lit>,
        through: Vec<Lit>,
        max_length: Option<usize>,
    ) -> PathWatch {
        let cells = from.len();
        let codes = from
            .iter()
            .chain(&to)
            .chain(&through)
            .map(|l| l.code() | 1)
            .max()
            .map_or(0, |c| c + 1);
        PathWatch {
            from,
            to,
            through,
            bound: max_length.map_or(u32::MAX, |l| l.min(u32::MAX as usize - 1) as u32),
            mark: vec![0; codes],
            walk: 1,
            dirty: true,
            dist: vec![u32::MAX; cells],
            parent: vec![u32::MAX; cells],
            queue: Vec::with_capacity(cells),
            seen: vec![0; codes],
            seen_epoch: 0,
            df: Vec::new(),
            dt: Vec::new(),
            floor: None,
            route: None,
        }
    }

    /// The rule's `from`, `to` and `through` literals per cell.
    pub(super) fn ends(&self) -> (&[Lit], &[Lit], &[Lit]) {
        (&self.from, &self.to, &self.through)
    }

    /// Every literal the rule reads.
    pub(super) fn lits(&self) -> impl Iterator<Item = Lit> + '_ {
        self.from
            .iter()
            .chain(&self.to)
            .chain(&self.through)
            .copied()
    }

    /// `lits` became true: the witness is gone when the negation of one was on it (once gone,
    /// the rest need not be looked at).
    fn assigned(&mut self, lits: &[Lit]) {
        if let Some(floor) = &mut self.floor {
            floor.assigned(lits);
        }
        if self.dirty {
            return;
        }
        let walk = self.walk;
        self.dirty = lits
            .iter()
            .any(|&l| self.mark.get((!l).code()) == Some(&walk));
    }

    /// Forget the witness (the safety net of `check_model`).
    pub(super) fn invalidate(&mut self) {
        self.dirty = true;
        if let Some(floor) = &mut self.floor {
            floor.invalidate();
        }
    }

    /// Looks for a witness if the last one is gone; on none, adds the refuting clause and
    /// returns true.
    pub(super) fn propagate(&mut self, graph: &Graph, ctx: &mut Context<'_>) -> bool {
        if !self.dirty {
            return false;
        }
        let value = |l: Lit| ctx.value(l);
        match self.search(graph, &value, true) {
            Search::Walk(cells) => {
                self.set_witness(&cells);
                self.dirty = false;
                self.force(graph, ctx);
                false
            }
            Search::Refuted(forward) => {
                let clause = match self.search(graph, &value, false) {
                    Search::Refuted(backward) if backward.len() < forward.len() => backward,
                    _ => forward,
                };
                ctx.add_clause(&clause, ClauseKind::Learned);
                true
            }
        }
    }

    /// The literals every walk needs, propagated with their reasons (the optimistic map has a
    /// walk, just found). With `df` the walk distance from the `from` side and `dt` to the `to`
    /// side, a walk of length `k ≤ max_length` visits, for every `d` below the shortest
    /// distance `D`, an interior cell with `df = d` (the distance grows by at most one a step),
    /// and each of its cells has `df + dt ≤ k`. So when one cell alone is such a candidate at
    /// some layer `d < D`, its `through` literal is forced; when one cell alone can end a walk
    /// within the bound, its `to` literal is forced (and likewise `from`). The reason of each is
    /// the refutation of the search with that literal taken as false (all its other literals
    /// are false), computed at once.
    fn force(&mut self, graph: &Graph, ctx: &mut Context<'_>) {
        let value = |l: Lit| ctx.value(l);
        let (mut df, mut dt) = (std::mem::take(&mut self.df), std::mem::take(&mut self.dt));
        self.distances(graph, &value, true, &mut df);
        self.distances(graph, &value, false, &mut dt);
        let cells = df.len();
        let within = |x: usize| {
            df[x] != u32::MAX && dt[x] != u32::MAX && df[x].saturating_add(dt[x]) <= self.bound
        };
        let shortest = (0..cells)
            .filter(|&x| within(x) && value(self.to[x]) != Some(false))
            .map(|x| df[x])
            .min()
            .unwrap_or(u32::MAX);
        let mut forced: Vec<Lit> = Vec::new();
        // Per layer below the shortest distance: its one candidate, or none when several.
        let layers = shortest.min(cells as u32) as usize;
        let mut only: Vec<Option<usize>> = vec![None; layers];
        let mut count = vec![0u32; layers];
        for x in (0..cells).filter(|&x| within(x)) {
            let d = df[x] as usize;
            if d >= 1 && d < layers && value(self.through[x]) != Some(false) {
                count[d] += 1;
                only[d] = Some(x);
            }
        }
        for d in 1..layers {
            if count[d] == 1
                && let Some(x) = only[d]
            {
                forced.push(self.through[x]);
            }
        }
        // The ends: one cell alone that can end (start) a walk within the bound.
        for (lits, dist) in [(&self.to, &df), (&self.from, &dt)] {
            let mut ends =
                (0..cells).filter(|&x| dist[x] <= self.bound && value(lits[x]) != Some(false));
            if let (Some(x), None) = (ends.next(), ends.next()) {
                forced.push(lits[x]);
            }
        }
        for lit in forced {
            if ctx.value(lit).is_some() {
                continue;
            }
            let blocked = |l: Lit| if l == lit { Some(false) } else { ctx.value(l) };
            if let Search::Refuted(mut clause) = self.search(graph, &blocked, true) {
                debug_assert!(clause.contains(&lit), "the reason of a forced path literal");
                if let Some(i) = clause.iter().position(|&l| l == lit) {
                    clause.swap(0, i);
                    ctx.propagate_because(lit, &clause);
                }
            }
        }
        (self.df, self.dt) = (df, dt);
    }

    /// Walk distances over the optimistic map: from the `from` cells (`forward`) or to the
    /// `to` cells, through cells whose `through` literal is not false, up to the bound
    /// (`u32::MAX`: not reached).
    fn distances(
        &mut self,
        graph: &Graph,
        value: &dyn Fn(Lit) -> Option<bool>,
        forward: bool,
        dist: &mut Vec<u32>,
    ) {
        let start = if forward { &self.from } else { &self.to };
        let open = |l: Lit| value(l) != Some(false);
        dist.clear();
        dist.resize(start.len(), u32::MAX);
        self.queue.clear();
        for c in 0..start.len() {
            if open(start[c]) {
                dist[c] = 0;
                self.queue.push(c as u32);
            }
        }
        let mut head = 0;
        while head < self.queue.len() {
            let x = self.queue[head] as usize;
            head += 1;
            let d = dist[x];
            if d >= self.bound || (d > 0 && !open(self.through[x])) {
                continue;
            }
            for y in graph.around(x) {
                if dist[y] == u32::MAX {
                    dist[y] = d + 1;
                    self.queue.push(y as u32);
                }
            }
        }
    }

    fn set_witness(&mut self, cells: &[usize]) {
        self.walk = self.walk.wrapping_add(1);
        if self.walk == 0 {
            self.mark.iter_mut().for_each(|m| *m = 0);
            self.walk = 1;
        }
        let last = cells.len() - 1;
        for (i, &c) in cells.iter().enumerate() {
            if i == 0 {
                self.mark[self.from[c].code()] = self.walk;
            }
            if i == last {
                self.mark[self.to[c].code()] = self.walk;
            }
            if i != 0 && i != last {
                self.mark[self.through[c].code()] = self.walk;
            }
        }
    }

    /// A breadth-first search from the `from` cells (`forward`) or the `to` cells over the
    /// cells whose literals are not false.
    fn search(
        &mut self,
        graph: &Graph,
        value: &dyn Fn(Lit) -> Option<bool>,
        forward: bool,
    ) -> Search {
        let (start, goal) = if forward {
            (&self.from, &self.to)
        } else {
            (&self.to, &self.from)
        };
        let open = |l: Lit| value(l) != Some(false);
        self.dist.iter_mut().for_each(|d| *d = u32::MAX);
        self.queue.clear();
        for c in 0..start.len() {
            if open(start[c]) {
                self.dist[c] = 0;
                self.parent[c] = u32::MAX;
                self.queue.push(c as u32);
            }
        }
        let mut head = 0;
        while head < self.queue.len() {
            let x = self.queue[head] as usize;
            head += 1;
            if open(goal[x]) {
                let mut cells = vec![x];
                let mut y = x;
                while self.parent[y] != u32::MAX {
                    y = self.parent[y] as usize;
                    cells.push(y);
                }
                if forward {
                    cells.reverse();
                }
                return Search::Walk(cells);
            }
            let d = self.dist[x];
            if d >= self.bound || (d > 0 && !open(self.through[x])) {
                continue;
            }
            for y in graph.around(x) {
                if self.dist[y] == u32::MAX {
                    self.dist[y] = d + 1;
                    self.parent[y] = x as u32;
                    self.queue.push(y as u32);
                }
            }
        }
        // Refuted: the clause of the module doc, without repeats.
        self.seen_epoch = self.seen_epoch.wrapping_add(1);
        if self.seen_epoch == 0 {
            self.seen.iter_mut().for_each(|s| *s = 0);
            self.seen_epoch = 1;
        }
        let mut clause = Vec::new();
        let (seen, epoch) = (&mut self.seen, self.seen_epoch);
        let mut push = |l: Lit| {
            if seen[l.code()] != epoch {
                seen[l.code()] = epoch;
                clause.push(l);
            }
        };
        for &l in start {
            if !open(l) {
                push(l);
            }
        }
        for &x in &self.queue {
            let x = x as usize;
            push(goal[x]);
            let d = self.dist[x];
            if d > 0 && d < self.bound && !open(self.through[x]) {
                push(self.through[x]);
            }
        }
        Search::Refuted(clause)
    }
}
