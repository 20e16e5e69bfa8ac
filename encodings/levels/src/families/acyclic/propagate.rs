//! The acyclic family's part of the grid propagator: a hard rule's cycles found while the
//! cells are being decided (`mod.rs` says what the clauses leave to it).
//!
//! State: a union-find over the cells certainly in the class (their literal true, or the
//! constant true), union by size and no path compression, so that a union is undone by
//! popping it (`undo`). The true cells arrive in trail order (`entries`); the first `done` of
//! them are in the forest, each having recorded how long `undo` was before its unions.
//! Invariant: the cells in the forest have no cycle among them (a cell that would close one
//! raises the conflict instead of joining), and after a backtrack to level `l` exactly the
//! entries of levels ≤ `l` are left, their unions with them.
//!
//! Inferences, each explained by a walk between two cells of one tree of the forest (a
//! breadth-first search over the cells true at the inference, `walk`):
//! - a cell that becomes true with two neighbours in one tree closes a cycle: the clause "not
//!   all of the cycle's cells" is added as the conflict;
//! - an undecided cell with two neighbours in one tree would close one: it is set false,
//!   lazily; its reason is the walk between those neighbours (`Reason::at`: the cell and the
//!   two neighbours; the walk is looked for among the cells true before the inference, which
//!   are all still true when the engine asks, and hold no other walk between the two since
//!   they are a forest).
//!
//! The scan for such undecided cells runs after every callback that joined two trees, over the
//! cells of the region: 4 look-ups per cell, the same order of work as connectivity's pass.

use crate::model::{GridModel, SearchPlan};
use crate::search::{Lazy, Reason, SearchPart};
use grim_solver::{ClauseKind, Context, Lit, Var};
use std::collections::VecDeque;

/// Where the part runs among the search parts: after the counts and separation, with paths
/// (after them: the table's order), before connectivity (its conflicts are found in the
/// union-find's few look-ups per new cell; the scan runs only after trees were joined).
const RANK: u32 = 2;

/// A hard acyclic rule left to the search: the grid and, per cell, its literal (the constant
/// false outside the region or where the domains rule the class out).
#[derive(Debug)]
pub(super) struct Plan {
    pub(super) width: usize,
    pub(super) height: usize,
    pub(super) lits: Vec<Lit>,
    pub(super) tt: Lit,
    pub(super) ff: Lit,
}

impl SearchPlan for Plan {
    fn part(&self, _m: &GridModel) -> Box<dyn SearchPart> {
        let n = self.width * self.height;
        let mut lit_of = vec![None; n];
        let mut cell_of = Vec::new();
        let mut stamp = vec![NEVER; n];
        for (c, &l) in self.lits.iter().enumerate() {
            if l == self.tt {
                stamp[c] = 0;
            } else if l != self.ff {
                lit_of[c] = Some(l);
                let v = l.var().index();
                if cell_of.len() <= v {
                    cell_of.resize(v + 1, None);
                }
                cell_of[v] = Some(c as u32);
            }
        }
        let mut part = Forest {
            width: self.width,
            height: self.height,
            lit_of,
            cell_of,
            stamp,
            root: (0..n as u32).collect(),
            size: vec![1; n],
            in_forest: vec![false; n],
            undo: Vec::new(),
            entries: Vec::new(),
            done: 0,
            dirty: true,
            seen: vec![0; n],
            generation: 0,
        };
        // The constant cells join once and for all (a cycle among them is the empty clause
        // `mod.rs` adds; here it is skipped).
        for c in 0..n {
            if part.stamp[c] == 0 {
                part.join(c);
            }
        }
        part.undo.clear();
        Box::new(part)
    }
}

/// Not true (no notification).
const NEVER: u64 = u64::MAX;

/// A true cell in trail order: the cell, its level, and the length of `undo` before it joined
/// (meaningful for the first `done`).
#[derive(Clone, Copy)]
struct Entry {
    cell: u32,
    level: u32,
    undo: u32,
}

/// One hard acyclic rule in the search (see the module doc).
struct Forest {
    width: usize,
    height: usize,
    /// Per cell, its literal (`None`: a constant).
    lit_of: Vec<Option<Lit>>,
    /// Per variable index, the cell whose literal it is.
    cell_of: Vec<Option<u32>>,
    /// Per cell, the notification that made it true (0: the constant true; `NEVER`: not true).
    stamp: Vec<u64>,
    /// Union-find parent (a root is its own).
    root: Vec<u32>,
    /// Per root, its tree's cells.
    size: Vec<u32>,
    /// Whether the cell has joined the forest.
    in_forest: Vec<bool>,
    /// The unions made, as (the root that was attached, the root it was attached to).
    undo: Vec<(u32, u32)>,
    /// The true cells in trail order.
    entries: Vec<Entry>,
    /// How many of `entries` have joined.
    done: usize,
    /// Whether trees were joined since the last scan for cells that would close a cycle.
    dirty: bool,
    /// Breadth-first search marks (`generation` is the current search's).
    seen: Vec<u32>,
    generation: u32,
}

impl Forest {
    fn neighbours(&self, c: usize) -> impl Iterator<Item = usize> + use<> {
        crate::graph::around(self.width, self.height, c)
    }

    fn find(&self, mut c: usize) -> usize {
        while self.root[c] as usize != c {
            c = self.root[c] as usize;
        }
        c
    }

    /// Joins `c` to the trees of its neighbours in the forest. Returns the two neighbours
    /// already in one tree when there are such (then `c` does not join).
    fn join(&mut self, c: usize) -> Option<(usize, usize)> {
        let mut trees: [(usize, usize); 4] = [(usize::MAX, 0); 4];
        let mut k = 0;
        for d in self.neighbours(c) {
            if !self.in_forest[d] {
                continue;
            }
            let r = self.find(d);
            if let Some(&(_, e)) = trees[..k].iter().find(|t| t.0 == r) {
                return Some((e, d));
            }
            trees[k] = (r, d);
            k += 1;
        }
        self.in_forest[c] = true;
        for &(r, _) in &trees[..k] {
            let a = self.find(c);
            let (small, big) = if self.size[a] < self.size[r] {
                (a, r)
            } else {
                (r, a)
            };
            self.root[small] = big as u32;
            self.size[big] += self.size[small];
            self.undo.push((small as u32, big as u32));
        }
        None
    }

    /// Undoes the unions past `len`.
    fn unjoin(&mut self, len: usize) {
        while self.undo.len() > len {
            let Some((small, big)) = self.undo.pop() else {
                break;
            };
            self.root[small as usize] = small;
            self.size[big as usize] -= self.size[small as usize];
        }
    }

    /// A walk from `a` to `b` through cells true at notification `limit` or before, other than
    /// `avoid`; both ends included. Empty when there is none (which the invariant rules out).
    fn walk(&mut self, a: usize, b: usize, avoid: usize, limit: u64) -> Vec<usize> {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.seen.fill(0);
            self.generation = 1;
        }
        let g = self.generation;
        let mut from = vec![];
        let mut queue = VecDeque::from([(a, usize::MAX)]);
        self.seen[a] = g;
        self.seen[avoid] = g;
        // `from` holds (cell, index of the cell it came from) in visiting order.
        while let Some((c, prev)) = queue.pop_front() {
            from.push((c, prev));
            let here = from.len() - 1;
            if c == b {
                let mut path = Vec::new();
                let mut i = here;
                while i != usize::MAX {
                    path.push(from[i].0);
                    i = from[i].1;
                }
                return path;
            }
            for d in self.neighbours(c) {
                if self.seen[d] != g && self.stamp[d] <= limit {
                    self.seen[d] = g;
                    queue.push_back((d, here));
                }
            }
        }
        Vec::new()
    }

    /// `¬lit` of each cell of `cells` that has a literal, appended to `out`.
    fn negated(&self, cells: &[usize], out: &mut Vec<Lit>) {
        out.extend(cells.iter().filter_map(|&c| self.lit_of[c]).map(|l| !l));
    }
}

impl SearchPart for Forest {
    fn rank(&self) -> u32 {
        RANK
    }

    fn observed(&self, out: &mut Vec<Var>) {
        out.extend(self.lit_of.iter().flatten().map(|l| l.var()));
    }

    fn notify(&mut self, lits: &[Lit], level: u32, first: u64) {
        for (i, &l) in lits.iter().enumerate() {
            let Some(Some(c)) = self.cell_of.get(l.var().index()) else {
                continue;
            };
            let c = *c as usize;
            if self.lit_of[c] == Some(l) {
                self.stamp[c] = first + i as u64;
                self.entries.push(Entry {
                    cell: c as u32,
                    level,
                    undo: u32::MAX,
                });
            }
        }
    }

    fn backtrack(&mut self, level: u32) {
        while let Some(&e) = self.entries.last() {
            if e.level <= level {
                break;
            }
            let c = e.cell as usize;
            if self.entries.len() <= self.done {
                self.unjoin(e.undo as usize);
                self.in_forest[c] = false;
                self.done = self.entries.len() - 1;
            }
            self.stamp[c] = NEVER;
            self.entries.pop();
        }
        self.dirty = true;
    }

    fn propagate(&mut self, ctx: &mut Context<'_>, now: u64, lazy: &mut Lazy<'_>) -> bool {
        while self.done < self.entries.len() {
            let c = self.entries[self.done].cell as usize;
            self.entries[self.done].undo = self.undo.len() as u32;
            if let Some((a, b)) = self.join(c) {
                let path = self.walk(a, b, c, now);
                let mut clause = Vec::with_capacity(path.len() + 1);
                self.negated(&[c], &mut clause);
                self.negated(&path, &mut clause);
                ctx.add_clause(&clause, ClauseKind::Learned);
                return true;
            }
            self.done += 1;
            self.dirty = true;
        }
        if !self.dirty {
            return false;
        }
        self.dirty = false;
        for u in 0..self.lit_of.len() {
            let Some(l) = self.lit_of[u] else { continue };
            if ctx.value(l).is_some() {
                continue;
            }
            let mut trees: [(usize, usize); 4] = [(usize::MAX, 0); 4];
            let mut k = 0;
            for d in self.neighbours(u) {
                if !self.in_forest[d] {
                    continue;
                }
                let r = self.find(d);
                if let Some(&(_, e)) = trees[..k].iter().find(|t| t.0 == r) {
                    let at = [u as u32, e as u32, d as u32, 0];
                    lazy.propagate(ctx, !l, Reason::new(0, at, now));
                    break;
                }
                trees[k] = (r, d);
                k += 1;
            }
        }
        false
    }

    /// `lit` is `¬class(u)`: its neighbours `a` and `b` were joined by a walk of true cells
    /// (`why.at` is `[u, a, b, _]`).
    fn explain(&mut self, _lit: Lit, why: Reason, reason: &mut Vec<Lit>) {
        let [u, a, b, _] = why.at.map(|x| x as usize);
        if u >= self.lit_of.len() || a >= self.lit_of.len() || b >= self.lit_of.len() {
            return;
        }
        let path = self.walk(a, b, u, why.stamp);
        self.negated(&path, reason);
    }

    fn recheck(&mut self) {
        while self.done > 0 {
            self.done -= 1;
            let e = self.entries[self.done];
            self.unjoin(e.undo as usize);
            self.in_forest[e.cell as usize] = false;
        }
        self.dirty = true;
    }
}
