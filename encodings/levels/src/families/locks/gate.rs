//! The gating of one colour under a partial assignment (`FORMAT.md`, `locks`, item 1), for
//! the search part (`propagate.rs`): the *pessimistic* gated walk — only cells certainly
//! enterable are entered, a colour is held only once a reached cell certainly holds one of its
//! keys — and the reason why a cell is in it.
//!
//! A cell is certainly enterable in colour `c`'s walk when it is certainly walkable (its
//! `through` literal or one of its door literals true), certainly no key and no door of `c`,
//! and for every other colour `d` certainly no door of `d` or `d` already held. The start is
//! occupied whatever it holds, but only when it certainly holds no key of `c` (else nothing
//! is certainly reached). Every completion's gated walk contains this one (more cells
//! enterable, more colours held), so a door of `c` on or beside it is a conflict, and a cell
//! on or beside it that may still be a door of `c` is certainly none; on a complete assignment
//! this walk *is* the gated walk, so the check is exact.
//!
//! The reason of a reached cell is its breadth-first path from the start (a shortest one, so
//! few literals): per cell, the true literal that makes it walkable, its key and door literals
//! of `c` (false), and per other colour whose door literal is not false, the reason of the cell
//! whose key opened that colour (recursively, each cell once).

use crate::graph::around;
use grim_solver::{Context, Lit};

/// One colour's pessimistic gated walk, recomputed by [`Walk::run`].
#[derive(Debug, Default)]
pub(super) struct Walk {
    /// The breadth-first parent of each reached cell (`u32::MAX`: the start; absent: not
    /// reached).
    pub(super) parent: Vec<Option<u32>>,
    /// Per colour, the reached cell whose key made it held.
    opener: Vec<Option<u32>>,
    /// The cells reached, in the order reached; those before `head` were expanded.
    queue: Vec<u32>,
    head: usize,
    /// A colour became held since the reached cells last looked at their neighbours.
    held_new: bool,
}

/// The literals the walk reads, per cell and colour.
pub(super) struct Lits<'a> {
    pub(super) width: usize,
    pub(super) height: usize,
    pub(super) start: usize,
    pub(super) through: &'a [Lit],
    pub(super) keys: &'a [Vec<Lit>],
    pub(super) doors: &'a [Vec<Lit>],
}

/// The start's marker in [`Walk::parent`].
const ROOT: u32 = u32::MAX;

impl Lits<'_> {
    /// The true literal that makes `v` walkable, if any.
    fn walkable(&self, ctx: &Context<'_>, v: usize) -> Option<Lit> {
        std::iter::once(self.through[v])
            .chain(self.doors.iter().map(|d| d[v]))
            .find(|&l| ctx.value(l) == Some(true))
    }

    /// Whether `v` is certainly enterable in colour `c`'s walk holding `opener`'s colours.
    fn enterable(&self, ctx: &Context<'_>, c: usize, opener: &[Option<u32>], v: usize) -> bool {
        self.walkable(ctx, v).is_some()
            && ctx.value(self.keys[c][v]) == Some(false)
            && (0..self.doors.len()).all(|d| {
                ctx.value(self.doors[d][v]) == Some(false) || (d != c && opener[d].is_some())
            })
    }
}

impl Walk {
    /// Starts colour `c`'s pessimistic walk afresh (the module doc) and grows it.
    pub(super) fn run(&mut self, ctx: &Context<'_>, l: &Lits<'_>, c: usize) {
        let cells = l.width * l.height;
        self.parent.clear();
        self.parent.resize(cells, None);
        self.opener.clear();
        self.opener.resize(l.doors.len(), None);
        self.queue.clear();
        self.head = 0;
        self.held_new = false;
        if ctx.value(l.keys[c][l.start]) == Some(false) {
            self.parent[l.start] = Some(ROOT);
            self.queue.push(l.start as u32);
        }
        self.grow(ctx, l, c);
    }

    /// Enters `n` from `v` if it is certainly enterable now.
    fn enter(&mut self, ctx: &Context<'_>, l: &Lits<'_>, c: usize, v: usize, n: usize) {
        if self.parent[n].is_none() && l.enterable(ctx, c, &self.opener, n) {
            self.parent[n] = Some(v as u32);
            self.queue.push(n as u32);
        }
    }

    /// Notes a colour whose key reached cell `v` now certainly holds.
    fn hold(&mut self, ctx: &Context<'_>, l: &Lits<'_>, c: usize, v: usize) {
        for d in (0..l.doors.len()).filter(|&d| d != c) {
            if self.opener[d].is_none() && ctx.value(l.keys[d][v]) == Some(true) {
                self.opener[d] = Some(v as u32);
                self.held_new = true;
            }
        }
    }

    /// A literal of cell `t` was assigned since the walk last grew (and nothing was undone):
    /// `t` may now be entered, or, reached, hold a key. [`Walk::grow`] follows.
    pub(super) fn touch(&mut self, ctx: &Context<'_>, l: &Lits<'_>, c: usize, t: usize) {
        if self.parent[t].is_some() {
            self.hold(ctx, l, c, t);
            return;
        }
        if let Some(v) = around(l.width, l.height, t).find(|&v| self.parent[v].is_some()) {
            self.enter(ctx, l, c, v, t);
        }
    }

    /// Grows the walk to its fixpoint: the breadth-first search from the cells not yet
    /// expanded, and when a colour becomes held, every reached cell looks again at its
    /// neighbours (a door of that colour may now be entered). The walk only grows while the
    /// assignment does, so between two backtracks it is kept and grown, not recomputed.
    pub(super) fn grow(&mut self, ctx: &Context<'_>, l: &Lits<'_>, c: usize) {
        loop {
            while let Some(&v) = self.queue.get(self.head) {
                self.head += 1;
                let v = v as usize;
                self.hold(ctx, l, c, v);
                for n in around(l.width, l.height, v) {
                    self.enter(ctx, l, c, v, n);
                }
            }
            if !self.held_new {
                return;
            }
            self.held_new = false;
            for i in 0..self.queue.len() {
                let v = self.queue[i] as usize;
                for n in around(l.width, l.height, v) {
                    self.enter(ctx, l, c, v, n);
                }
            }
        }
    }

    /// The cells reached, in the order reached.
    pub(super) fn reached(&self) -> &[u32] {
        &self.queue
    }

    /// Appends to `out` the literals, each false now, that put `v` in colour `c`'s walk (the
    /// module doc); a cell is explained once per `stamp` (`seen` holds each cell's last).
    pub(super) fn reason(
        &self,
        ctx: &Context<'_>,
        l: &Lits<'_>,
        c: usize,
        v: usize,
        (seen, stamp): (&mut [u32], u32),
        out: &mut Vec<Lit>,
    ) {
        let mut stack = vec![v];
        while let Some(v) = stack.pop() {
            if seen[v] == stamp {
                continue;
            }
            seen[v] = stamp;
            match self.parent[v] {
                Some(ROOT) => out.push(l.keys[c][l.start]),
                Some(p) => {
                    if let Some(w) = l.walkable(ctx, v) {
                        out.push(!w);
                    }
                    out.push(l.keys[c][v]);
                    for d in 0..l.doors.len() {
                        if ctx.value(l.doors[d][v]) == Some(false) {
                            out.push(l.doors[d][v]);
                        } else if let Some(Some(o)) = self.opener.get(d) {
                            out.push(!l.keys[d][*o as usize]);
                            stack.push(*o as usize);
                        }
                    }
                    stack.push(p as usize);
                }
                None => {}
            }
        }
    }
}
