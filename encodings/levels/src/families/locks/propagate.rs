//! The locks family's part of the grid propagator (`mod.rs` says what the clauses leave to it):
//! the gating of every colour (`gate.rs`: a pessimistic gated walk, grown between backtracks,
//! in place of the Horn clauses), a steer that proposes a *closet* for each colour's door
//! before the map is grown, and, when no connectivity rule implies it, the "every door opens"
//! check in place of the staged clauses.
//!
//! **Gating (checks).** Per colour, the walk of `gate.rs`; a door of the colour on or beside
//! it is a conflict, the walk's breadth-first path its clause (setting the cells there that
//! may be doors to none is bounded by [`MAX_PROPAGATIONS`], measured best at none). The walk
//! only grows while the assignment does, so between backtracks it is grown from the cells whose
//! literals were assigned and only the cells it newly reached are checked; a backtrack recomputes it at the next pass. Measured
//! on dungeon-locks-64 (seeds 1–5, CPU s, a loaded machine): the walk recomputed at every
//! fixpoint 4.0–6.3; grown 0.7–1.9 with door cells set false by path reasons, 0.5–0.6 without
//! ([`MAX_PROPAGATIONS`]). Leaving the clauses out shrinks dungeon-locks-64's model from
//! 163,795 variables / 704,666 clauses to 114,640 / 485,048.
//!
//! **Closets (decisions).** Profiling the 64×64 lock dungeons (`benches/results/
//! issue42-locks-2026-12-07.md`) showed the time in the engine's unit propagation over a long
//! trail, repeated for 10,000–27,000 conflicts, and no conflict of any propagator: the gating
//! clauses were doing their work, the search was the cost. Connectivity grows the walkable
//! region outward from the start (its decisions, `families/connectivity/propagate.rs`), the
//! wishes never put a door anywhere (doors weigh 0), so a colour's door is forced in last, by
//! its count, at whatever cell is left; a door there has to be walled off from the start with
//! its key as the only way in, and the engine learns that wall one path-blocking clause at a
//! time. Pinning the three doors in the open early made it worse (dungeon-locks-64, seeds 2,
//! 4, 5: 14,458–27,331 conflicts), because the key, wished far away, must then sit in a sealed
//! corridor to the door. Every level the search found had the same shape: the door in a
//! closet — its only walkable neighbour a cell holding its key.
//!
//! So this part decides first (it ranks before connectivity, and the composite asks deciders
//! in rank order): for each colour with no certain door, a *site* — a cell `v` for the door
//! and a neighbour `u` of it for a key — and, one decision at a time, the door on `v`, the key
//! on `u`, and every other neighbour of `v` not walkable. A closet keeps the gating by itself:
//! only `u` touches the door, and `u` holds a key of its colour, which the gated walk never
//! steps on. The sites are ranked once, by how many of their decisions the wishes disagree with
//! (corners and border cells first: fewer walls to decide), then by the distance to the start.
//! A site one of whose literals is false is dropped and the next feasible one taken (a scan of
//! the ranked list, only then); a colour with no feasible site, or with a door already certain
//! elsewhere, is left to the search. These are decisions, not rules: the engine undoes them
//! like any other, and every level the rules admit stays admissible.
//!
//! **Gates (decisions, before the closets).** A designer may leave cells only for doors: gaps
//! in walls between zones (`dungeon-locks-zoned-64`: four zones, five three-cell gaps). A
//! colour with such cells gets no closet (closets spent the keys the gaps' doors needed), so
//! there no colour was steered: every door was forced in last by its count at whatever cell
//! was left, and seeds 2 and 4 took 1,053 and more than 4,400 conflicts, each explained
//! through the floor count's whole-grid reasons (`benches/results/
//! issue42-zoned-2026-12-07d.md`). Now the part gates the zones itself: zones are the pieces
//! of cells that may be walkable outside the gaps, gaps the pieces of gap cells; breadth first
//! from the start's zone, the first gap into each zone is its gate — colour `i` for the
//! `i`-th (none past the colours), the door on the gap cell with one neighbour in each zone
//! (the gap's middle first), the key on its one neighbour on the near side, the gap's other
//! cells no door — and every other gap between two zones is walled. Each zone then has one
//! way in, behind its gate's door, with the key in front: the gating holds by construction
//! (a gate deeper in the tree is reached only through the earlier ones, whose keys are picked
//! up on the way). Two gates into one zone would break each other's gating (a walk through
//! one reaches the other's door from inside): the reason a first steer of door-in-the-gap
//! without walls made seeds 2–4 worse (`issue42-locks-2026-12-07.md`). A gate a literal of
//! which is false is passed over; like the closets these are decisions, undone like any other.
//!
//! **Opens (checks).** When `mod.rs` cannot leave the opens stages out (no connectivity rule
//! over exactly the walkable tiles from the start), the propagated model does without their
//! clauses (one founded reachability per colour plus one: 620,400 variables against 122,833
//! on a 64×64 dungeon) and this part checks them instead: at each propagation fixpoint after a
//! change, the progression of `FORMAT.md` run *optimistically* — a cell is passable unless it
//! is certainly not walkable or certainly a door of a colour not yet held, and a colour is held
//! once a cell that may hold one of its keys is reached. That reach contains the true
//! progression's in every completion, so a cell certainly a door outside it is a conflict,
//! explained by the cut that stopped the walk: the cells beside the reach that are certainly
//! not walkable, the doors beside it of colours not held, and, for each such colour, its key
//! literals over the reach (all false: no key of it there). On a complete assignment the
//! optimistic progression is the progression, so the check is exact (`check_model`).

use super::gate::{self, Walk};
use crate::graph::around;
use crate::model::{GridModel, SearchPlan};
use crate::search::{Lazy, Reason, SearchPart};
use grim_solver::{ClauseKind, Context, Lit, Var};
use std::collections::VecDeque;

/// Where the part runs: before connectivity (3), so that its closets are decided before the
/// region grows (the composite asks deciders in rank order); its gating grows a walk per colour,
/// cheaper than connectivity's pass between backtracks.
const RANK: u32 = 2;

/// Door cells set to none per colour and pass, each with a path as its reason (which the
/// engine copies and sorts): past it the others are left to the conflict check, which sees a
/// door set beside the walk (its cell is touched then). Measured on dungeon-locks-64 (seeds
/// 1–5, CPU s, a loaded machine): unbounded 0.96–2.17 (20% of seed 2 copying and sorting these
/// reasons after every backtrack), 64 per pass 0.59–2.17, none 0.52–0.56 — the conflicts'
/// clauses, learned once, do the pruning better than thousands of path reasons redone after
/// each backtrack. So none: the part checks and explains, the engine propagates what it learned.
const MAX_PROPAGATIONS: usize = 0;

/// Backtracks after which the closets are no longer proposed (the module doc).
const STEER_BUDGET: u64 = 400;

/// One lock rule left (in part) to the search.
#[derive(Debug)]
pub(super) struct Plan {
    pub(super) width: usize,
    pub(super) height: usize,
    pub(super) start: usize,
    pub(super) through: Vec<Lit>,
    pub(super) keys: Vec<Vec<Lit>>,
    pub(super) doors: Vec<Vec<Lit>>,
    /// Whether the part checks "every door opens" (its clauses were left out).
    pub(super) opens: bool,
    /// Whether the part checks the gating (its clauses were left out: the propagated model).
    pub(super) gate: bool,
    /// The constant false literal (what a cell's literal is when its domain rules it out).
    pub(super) ff: Lit,
}

/// A closet: the door cell and the key cell beside it.
#[derive(Clone, Copy, Debug)]
struct Site {
    door: u32,
    key: u32,
}

impl Plan {
    /// The 4-neighbours of `c`.
    fn around(&self, c: usize) -> impl Iterator<Item = usize> + use<> {
        around(self.width, self.height, c)
    }

    /// Whether `v` is a cell the designer left for doors: no `through` tile allowed, a door
    /// of colour `c` allowed (a gap in a wall, in `dungeon-locks-zoned-64`).
    fn designated(&self, c: usize, v: usize) -> bool {
        self.through[v] == self.ff && self.doors[c][v] != self.ff
    }

    /// The decisions of `site` for colour `c`, in the order they are made: the door, the key,
    /// and the door's other neighbours not walkable.
    fn closet(&self, c: usize, site: Site, out: &mut Vec<Lit>) {
        out.clear();
        let (v, u) = (site.door as usize, site.key as usize);
        out.push(self.doors[c][v]);
        out.push(self.keys[c][u]);
        for n in self.around(v).filter(|&n| n != u) {
            out.push(!self.through[n]);
            out.extend(self.doors.iter().map(|d| !d[n]));
        }
    }

    /// Every site of colour `c`, best first (the module doc): how many of its decisions the
    /// wishes disagree with, then the key's distance to the start.
    fn sites(&self, m: &GridModel, c: usize) -> Vec<Site> {
        let (sx, sy) = (self.start % self.width, self.start / self.width);
        let cells = self.width * self.height;
        if (0..cells).any(|v| self.designated(c, v)) {
            return Vec::new();
        }
        let mut ranked: Vec<(usize, usize, Site)> = Vec::new();
        let mut lits = Vec::new();
        for v in 0..cells {
            if v == self.start {
                continue;
            }
            for u in self.around(v) {
                let site = Site {
                    door: v as u32,
                    key: u as u32,
                };
                self.closet(c, site, &mut lits);
                // The door itself is never wished (that is the point); the rest may be.
                let against = lits[1..]
                    .iter()
                    .filter(|&&l| m.wished(l) == Some(false))
                    .count();
                let (x, y) = (u % self.width, u / self.width);
                let far = x.abs_diff(sx) + y.abs_diff(sy);
                ranked.push((against, far, site));
            }
        }
        ranked.sort_by_key(|&(a, f, s)| (a, f, s.door, s.key));
        ranked.into_iter().map(|(_, _, s)| s).collect()
    }
}

impl Plan {
    /// Whether cell `v` can hold anything walkable (a `through` tile or a door).
    fn passable(&self, v: usize) -> bool {
        self.through[v] != self.ff || self.doors.iter().any(|d| d[v] != self.ff)
    }

    /// Whether `v` is left only for doors (of some colour): a cell of a designer's gap.
    fn gap_cell(&self, v: usize) -> bool {
        (0..self.doors.len()).any(|c| self.designated(c, v))
    }

    /// The gates over the designer's gaps (the module doc, "Gates"), each the decisions it
    /// makes in order: per tree gap the door of its colour, the key in front of it and the
    /// gap's other cells no door; per other gap its cells no door. Empty without gaps.
    fn gates(&self) -> Vec<Vec<Lit>> {
        let cells = self.width * self.height;
        let k = self.doors.len();
        const NONE: u32 = u32::MAX;
        // Zones: the 4-connected pieces of passable cells outside the gaps; gaps: the
        // 4-connected pieces of gap cells.
        let piece = |inside: &dyn Fn(usize) -> bool| -> (Vec<u32>, u32) {
            let mut of = vec![NONE; cells];
            let mut n = 0;
            let mut stack = Vec::new();
            for s in 0..cells {
                if of[s] != NONE || !inside(s) {
                    continue;
                }
                of[s] = n;
                stack.push(s);
                while let Some(v) = stack.pop() {
                    for u in self.around(v) {
                        if of[u] == NONE && inside(u) {
                            of[u] = n;
                            stack.push(u);
                        }
                    }
                }
                n += 1;
            }
            (of, n)
        };
        let (gap_of, gaps) = piece(&|v| self.gap_cell(v));
        if gaps == 0 {
            return Vec::new();
        }
        let (zone_of, zones) = piece(&|v| self.passable(v) && !self.gap_cell(v));
        if zone_of[self.start] == NONE {
            return Vec::new();
        }
        // Each gap joining exactly two zones is an edge between them.
        let mut members: Vec<Vec<usize>> = vec![Vec::new(); gaps as usize];
        for v in 0..cells {
            if gap_of[v] != NONE {
                members[gap_of[v] as usize].push(v);
            }
        }
        let sides = |g: usize| -> Vec<u32> {
            let mut z: Vec<u32> = (members[g].iter())
                .flat_map(|&v| self.around(v))
                .map(|u| zone_of[u])
                .filter(|&z| z != NONE)
                .collect();
            z.sort_unstable();
            z.dedup();
            z
        };
        let edges: Vec<Vec<u32>> = (0..gaps as usize).map(sides).collect();
        // Breadth first over the zones from the start's: the first gap into a zone is its
        // gate, every other gap between two zones is walled.
        let mut seen = vec![false; zones as usize];
        let mut used = vec![false; gaps as usize];
        let mut tree: Vec<(usize, u32, u32)> = Vec::new(); // (gap, from, to)
        let mut queue = VecDeque::from([zone_of[self.start]]);
        seen[zone_of[self.start] as usize] = true;
        while let Some(z) = queue.pop_front() {
            for (g, e) in edges.iter().enumerate() {
                if used[g] || e.len() != 2 || !e.contains(&z) {
                    continue;
                }
                let to = if e[0] == z { e[1] } else { e[0] };
                if seen[to as usize] {
                    continue;
                }
                seen[to as usize] = true;
                used[g] = true;
                tree.push((g, z, to));
                queue.push_back(to);
            }
        }
        let mut out = Vec::new();
        for (i, &(g, from, to)) in tree.iter().enumerate() {
            if i >= k {
                break; // no colour left: the search places the rest
            }
            // The door: a gap cell with one neighbour in each zone, the one in `from` free
            // to hold the key; the one with most gap neighbours (a gap's middle) first.
            let site = (members[g].iter().copied())
                .filter(|&v| self.doors[i][v] != self.ff)
                .filter_map(|v| {
                    let near: Vec<usize> = self.around(v).collect();
                    let back: Vec<usize> = (near.iter().copied())
                        .filter(|&u| zone_of[u] == from)
                        .collect();
                    let ahead = near.iter().any(|&u| zone_of[u] == to);
                    let inner = near.iter().filter(|&&u| gap_of[u] == g as u32).count();
                    (ahead && back.len() == 1 && back[0] != self.start).then_some((
                        usize::MAX - inner,
                        v,
                        back[0],
                    ))
                })
                .filter(|&(_, _, u)| self.keys[i][u] != self.ff)
                .min();
            let Some((_, door, key)) = site else {
                continue;
            };
            let mut lits = vec![self.doors[i][door], self.keys[i][key]];
            for &w in members[g].iter().filter(|&&w| w != door) {
                lits.extend(self.doors.iter().map(|d| !d[w]));
            }
            out.push(lits);
        }
        for g in (0..gaps as usize).filter(|&g| !used[g] && edges[g].len() == 2) {
            let lits = (members[g].iter())
                .flat_map(|&w| self.doors.iter().map(move |d| !d[w]))
                .collect();
            out.push(lits);
        }
        out
    }

    /// The cell of each variable of the rule's literals (`u32::MAX`: none).
    fn cell_of(&self) -> Vec<u32> {
        let mut out = Vec::new();
        for v in 0..self.width * self.height {
            let lits = std::iter::once(self.through[v])
                .chain(self.keys.iter().map(|k| k[v]))
                .chain(self.doors.iter().map(|d| d[v]));
            for l in lits.filter(|l| l.var().index() != 0) {
                let i = l.var().index();
                if out.len() <= i {
                    out.resize(i + 1, u32::MAX);
                }
                out[i] = v as u32;
            }
        }
        out
    }
}

impl SearchPlan for Plan {
    fn part(&self, m: &GridModel) -> Box<dyn SearchPart> {
        let sites = (0..self.doors.len()).map(|c| self.sites(m, c)).collect();
        Box::new(Progress {
            plan: Plan {
                width: self.width,
                height: self.height,
                start: self.start,
                through: self.through.clone(),
                keys: self.keys.clone(),
                doors: self.doors.clone(),
                opens: self.opens,
                gate: self.gate,
                ff: self.ff,
            },
            walks: (0..self.doors.len()).map(|_| Walk::default()).collect(),
            standing: vec![false; self.doors.len()],
            cell_of: self.cell_of(),
            touched: Vec::new(),
            seen: vec![0; self.width * self.height],
            stamp: 0,
            told: vec![false; self.width * self.height],
            told_cells: Vec::new(),
            gates: self.gates(),
            sites,
            chosen: vec![None; self.doors.len()],
            idle: vec![None; self.doors.len()],
            backtracks: 0,
            lits: Vec::new(),
            dirty: true,
            reach: Vec::new(),
            queue: VecDeque::new(),
        })
    }
}

/// One lock rule in the search (see the module doc).
struct Progress {
    plan: Plan,
    /// The gates over the designer's gaps and the gaps walled (`Plan::gates`): each the
    /// decisions it makes, in order; one a literal of which is false is passed over.
    gates: Vec<Vec<Lit>>,
    /// Per colour, its closet sites, best first.
    sites: Vec<Vec<Site>>,
    /// Per colour, the index of its site now being decided.
    chosen: Vec<Option<usize>>,
    /// Per colour, the decision level at which it was found to need no closet (a door already
    /// certain) or to have no feasible site: it is left alone until a backtrack below that
    /// level (which may undo the door or free a site).
    idle: Vec<Option<u32>>,
    /// Backtracks so far (conflicts and restarts): the steer stops past [`STEER_BUDGET`].
    backtracks: u64,
    /// Scratch: a closet's literals.
    lits: Vec<Lit>,
    /// Something observed was assigned or undone since the last check.
    dirty: bool,
    /// Scratch: the optimistic reach.
    reach: Vec<bool>,
    queue: VecDeque<usize>,
    /// Per colour, its gated walk, kept and grown between backtracks (`gate.rs`).
    walks: Vec<Walk>,
    /// Per colour, whether its walk stands (no backtrack since it was computed).
    standing: Vec<bool>,
    /// The cell of each observed variable (`u32::MAX`: none).
    cell_of: Vec<u32>,
    /// The cells whose literals were assigned since the last pass.
    touched: Vec<u32>,
    /// Scratch: the cells its reasons explained (by stamp).
    seen: Vec<u32>,
    stamp: u32,
    /// Scratch: the cells whose door literal this pass set already.
    told: Vec<bool>,
    /// The cells `told` marks, unmarked at the next pass: clearing the whole grid for every
    /// colour of every pass was a fifth of dungeon-locks-zoned-64 seed 2 (issue 42).
    told_cells: Vec<u32>,
}

/// What `ctx` says a literal is, `None` unassigned.
fn value(ctx: &Context<'_>, l: Lit) -> Option<bool> {
    ctx.value(l)
}

impl Progress {
    /// Whether some cell is certainly a door of colour `c`.
    fn has_door(&self, ctx: &Context<'_>, c: usize) -> bool {
        self.plan.doors[c]
            .iter()
            .any(|&l| value(ctx, l) == Some(true))
    }

    /// The next undecided literal of colour `c`'s closet, choosing a site when needed; `None`
    /// when the closet stands or no site is feasible.
    fn next_of(&mut self, ctx: &Context<'_>, c: usize) -> Option<Lit> {
        if let Some(i) = self.chosen[c] {
            self.plan.closet(c, self.sites[c][i], &mut self.lits);
            if self.lits.iter().all(|&l| value(ctx, l) != Some(false)) {
                return self.lits.iter().copied().find(|&l| value(ctx, l).is_none());
            }
            self.chosen[c] = None;
        }
        if self.idle[c].is_some() {
            return None;
        }
        if self.has_door(ctx, c) {
            self.idle[c] = Some(ctx.decision_level());
            return None;
        }
        for i in 0..self.sites[c].len() {
            self.plan.closet(c, self.sites[c][i], &mut self.lits);
            if self.lits.iter().all(|&l| value(ctx, l) != Some(false)) {
                self.chosen[c] = Some(i);
                return self.lits.iter().copied().find(|&l| value(ctx, l).is_none());
            }
        }
        self.idle[c] = Some(ctx.decision_level());
        None
    }

    /// Whether cell `v` may be walked on.
    fn walkable(&self, ctx: &Context<'_>, v: usize) -> bool {
        value(ctx, self.plan.through[v]) != Some(false)
            || self
                .plan
                .doors
                .iter()
                .any(|d| value(ctx, d[v]) != Some(false))
    }

    /// The optimistic progression (module doc) into `self.reach`; returns the colours held.
    fn progress(&mut self, ctx: &Context<'_>) -> Vec<bool> {
        let p = &self.plan;
        let cells = p.width * p.height;
        let k = p.doors.len();
        let mut held = vec![false; k];
        loop {
            self.reach.clear();
            self.reach.resize(cells, false);
            self.queue.clear();
            self.reach[p.start] = true;
            self.queue.push_back(p.start);
            while let Some(v) = self.queue.pop_front() {
                for n in around(p.width, p.height, v) {
                    if self.reach[n] || !self.walkable(ctx, n) {
                        continue;
                    }
                    let shut = (0..k).any(|d| !held[d] && value(ctx, p.doors[d][n]) == Some(true));
                    if !shut {
                        self.reach[n] = true;
                        self.queue.push_back(n);
                    }
                }
            }
            let mut grew = false;
            for d in 0..k {
                let reach = &self.reach;
                if !held[d]
                    && (0..cells).any(|v| reach[v] && value(ctx, p.keys[d][v]) != Some(false))
                {
                    held[d] = true;
                    grew = true;
                }
            }
            if !grew {
                return held;
            }
        }
    }

    /// The conflict clause for door cell `t` of colour `x` outside the reach (module doc).
    fn cut(&self, ctx: &Context<'_>, held: &[bool], t: usize, x: usize) -> Vec<Lit> {
        let p = &self.plan;
        let cells = p.width * p.height;
        let k = p.doors.len();
        let mut clause = vec![!p.doors[x][t]];
        let mut closed = vec![false; k];
        let mut seen = vec![false; cells];
        for v in (0..cells).filter(|&v| self.reach[v]) {
            for b in around(p.width, p.height, v) {
                if self.reach[b] || seen[b] {
                    continue;
                }
                seen[b] = true;
                if !self.walkable(ctx, b) {
                    clause.push(p.through[b]);
                    clause.extend(p.doors.iter().map(|d| d[b]));
                } else if let Some(d) =
                    (0..k).find(|&d| !held[d] && value(ctx, p.doors[d][b]) == Some(true))
                {
                    clause.push(!p.doors[d][b]);
                    closed[d] = true;
                }
            }
        }
        for d in (0..k).filter(|&d| closed[d]) {
            clause.extend((0..cells).filter(|&v| self.reach[v]).map(|v| p.keys[d][v]));
        }
        // The constant false literal adds nothing; every other literal is false by construction.
        clause.retain(|&l| l.var().index() != 0);
        debug_assert!(clause.iter().all(|&l| value(ctx, l) == Some(false)));
        clause.sort_unstable_by_key(|l| l.code());
        clause.dedup();
        clause
    }
}

impl Progress {
    /// Colour `c`'s gating (`gate.rs`): a door of `c` on or beside the walk is a conflict, a
    /// cell there that may be one is set to none (at most [`MAX_PROPAGATIONS`]). The walk is
    /// grown from the `touched` cells when it stands, recomputed otherwise; only the cells it
    /// reached now and the touched ones are checked: beside an older reached cell, a door
    /// literal true was a conflict then, and one set true since is touched. Returns true on a
    /// conflict.
    fn gated(&mut self, ctx: &mut Context<'_>, c: usize, touched: &[u32]) -> bool {
        let p = &self.plan;
        let lits = gate::Lits {
            width: p.width,
            height: p.height,
            start: p.start,
            through: &p.through,
            keys: &p.keys,
            doors: &p.doors,
        };
        let walk = &mut self.walks[c];
        let from = if self.standing[c] {
            let from = walk.reached().len();
            for &t in touched {
                walk.touch(ctx, &lits, c, t as usize);
            }
            walk.grow(ctx, &lits, c);
            from
        } else {
            walk.run(ctx, &lits, c);
            self.standing[c] = true;
            0
        };
        let walk = &self.walks[c];
        let mut check: Vec<usize> = walk.reached()[from..].iter().map(|&v| v as usize).collect();
        if from > 0 {
            check.extend(touched.iter().map(|&t| t as usize));
        }
        let mut reason = Vec::new();
        for &t in &self.told_cells {
            self.told[t as usize] = false;
        }
        self.told_cells.clear();
        let walk = &self.walks[c];
        let mut made = 0;
        for &x in &check {
            // A reached cell answers for itself and its neighbours; a touched cell not
            // reached, for itself beside a reached neighbour.
            let (r, near): (usize, Vec<usize>) = if walk.parent[x].is_some() {
                (
                    x,
                    std::iter::once(x)
                        .chain(around(p.width, p.height, x))
                        .collect(),
                )
            } else if let Some(r) = around(p.width, p.height, x).find(|&r| walk.parent[r].is_some())
            {
                (r, vec![x])
            } else {
                continue;
            };
            for t in near {
                let door = p.doors[c][t];
                let now = value(ctx, door);
                if now == Some(false) || self.told[t] || (now.is_none() && made == MAX_PROPAGATIONS)
                {
                    continue;
                }
                self.told[t] = true;
                self.told_cells.push(t as u32);
                self.stamp = self.stamp.wrapping_add(1);
                if self.stamp == 0 {
                    self.seen.fill(0);
                    self.stamp = 1;
                }
                reason.clear();
                reason.push(!door);
                let seen = (&mut self.seen[..], self.stamp);
                walk.reason(ctx, &lits, c, r, seen, &mut reason);
                reason.retain(|l| l.var().index() != 0);
                if now == Some(true) {
                    reason.sort_unstable_by_key(|l| l.code());
                    reason.dedup();
                    ctx.add_clause(&reason, ClauseKind::Learned);
                    return true;
                }
                ctx.propagate_because(!door, &reason);
                made += 1;
            }
        }
        false
    }
}

impl SearchPart for Progress {
    fn rank(&self) -> u32 {
        RANK
    }

    fn observed(&self, out: &mut Vec<Var>) {
        // Also what the closets decide: a decided variable must not be eliminated, and only
        // observed ones are kept (frozen).
        if !self.plan.opens
            && !self.plan.gate
            && self.sites.iter().all(Vec::is_empty)
            && self.gates.is_empty()
        {
            return;
        }
        let p = &self.plan;
        let all = p.through.iter().chain(p.keys.iter().flatten());
        out.extend(
            all.chain(p.doors.iter().flatten())
                .map(|l| l.var())
                .filter(|v| v.index() != 0),
        );
    }

    fn notify(&mut self, lits: &[Lit], _level: u32, _first: u64) {
        self.dirty = true;
        if self.plan.gate {
            for l in lits {
                if let Some(&c) = self.cell_of.get(l.var().index())
                    && c != u32::MAX
                {
                    self.touched.push(c);
                }
            }
        }
    }

    fn backtrack(&mut self, level: u32) {
        self.backtracks += 1;
        self.standing.fill(false);
        self.touched.clear();
        // The optimistic reach only grows back when values are undone: no conflict appears.
        // A site may be feasible again below the level its colour ran out at.
        for e in &mut self.idle {
            if e.is_some_and(|at| at > level) {
                *e = None;
            }
        }
    }

    fn propagate(&mut self, ctx: &mut Context<'_>, _now: u64, _lazy: &mut Lazy<'_>) -> bool {
        if !self.dirty {
            return false;
        }
        self.dirty = false;
        if self.plan.gate {
            let touched = std::mem::take(&mut self.touched);
            for c in 0..self.plan.doors.len() {
                if self.gated(ctx, c, &touched) {
                    return true;
                }
            }
            self.touched = touched;
            self.touched.clear();
        }
        if !self.plan.opens {
            return false;
        }
        let held = self.progress(ctx);
        let p = &self.plan;
        for t in (0..p.width * p.height).filter(|&t| !self.reach[t]) {
            if let Some(x) = (0..p.doors.len()).find(|&x| value(ctx, p.doors[x][t]) == Some(true)) {
                let clause = self.cut(ctx, &held, t, x);
                ctx.add_clause(&clause, ClauseKind::Learned);
                return true;
            }
        }
        false
    }

    fn explain(&mut self, _lit: Lit, _why: Reason, _reason: &mut Vec<Lit>) {
        // The part propagates nothing: its conflicts are clauses.
    }

    fn decides(&self) -> bool {
        true
    }

    fn decide(&mut self, ctx: &Context<'_>) -> Option<Lit> {
        if self.backtracks > STEER_BUDGET {
            return None;
        }
        for gate in &self.gates {
            if gate.iter().all(|&l| value(ctx, l) != Some(false))
                && let Some(&l) = gate.iter().find(|&&l| value(ctx, l).is_none())
            {
                return Some(l);
            }
        }
        (0..self.plan.doors.len()).find_map(|c| self.next_of(ctx, c))
    }

    fn recheck(&mut self) {
        self.dirty = true;
        self.standing.fill(false);
    }
}
