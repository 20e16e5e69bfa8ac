//! The sides of a cell's neighbours from the ruled-out cells around it, kept up to date as
//! cells are ruled out and given back — instead of a depth-first search over the whole grid
//! at every full pass (`cut.rs`'s [`Sides`](super::cut::Sides), 49% of cave-loops-128 seed 4's
//! first 150 conflicts).
//!
//! Why it is exact (planar duality of 4- and 8-connectivity): take a possible cell `v` and
//! the ring of its 8 surrounding cells (cells beyond the grid count as ruled out, and as one
//! piece, the *outside*). The possible cells of the ring form *runs* (cyclically consecutive,
//! so 4-connected without `v`); the ruled-out cells between two runs form a *stretch*, all of
//! it in one 8-connected piece of the ruled-out cells. Two of `v`'s possible neighbours lie on
//! different sides of `v` (in different pieces of the possible cells once `v` is removed)
//! exactly when two stretches in the same 8-connected piece separate their runs around `v`:
//! that piece and `v` close a curve with one run inside and the other outside (a 4-path
//! between them would have to cross it once), and conversely the ruled-out cells along the
//! border of a side, facing the other, form such a curve. `tests` checks the claim against
//! the depth-first search on random states.
//!
//! So the structure is the 8-connected pieces of the ruled-out cells: a union–find that only
//! grows while cells are ruled out, and is rolled back (union by rank, no path compression) as
//! the search gives them back in the reverse order. Every link records *when* it was made
//! (the number of cells ruled out then), so the pieces as they were at an earlier time — the
//! propagator's last full pass, whose sides it keeps between full passes — are read by
//! following only the links made by then.

use crate::graph::RING;

/// A cell not ruled out (its time).
const NEVER: u32 = u32::MAX;

/// No run (a 4-neighbour ruled out).
pub(super) const NO_SIDE: u8 = u8::MAX;

/// How the runs of a ring lie, for one pattern of ruled-out ring cells (bit `k`: position `k`
/// ruled out): the runs that hold a 4-neighbour, per 4-neighbour its run, and per run a ring
/// position of the stretch after it. A run of a lone diagonal is no run here: its two
/// 4-neighbours are ruled out and touch diagonally, so the stretch goes on past it.
#[derive(Clone, Copy)]
struct Shape {
    runs: u8,
    run_of: [u8; 4],
    after: [u8; 4],
}

/// [`Shape`] per pattern.
fn shapes() -> [Shape; 256] {
    let mut table = [Shape {
        runs: 0,
        run_of: [NO_SIDE; 4],
        after: [0; 4],
    }; 256];
    for (m, shape) in table.iter_mut().enumerate() {
        let out = |k: usize| m >> (k % 8) & 1 == 1;
        let Some(start) = (0..8).find(|&k| out(k)) else {
            shape.runs = 1;
            shape.run_of = [0; 4];
            continue;
        };
        let mut pending: Vec<usize> = Vec::new();
        for step in 1..=8 {
            let k = (start + step) % 8;
            if !out(k) {
                if k % 2 == 0 {
                    pending.push(k / 2);
                }
            } else if !pending.is_empty() {
                for side in pending.drain(..) {
                    shape.run_of[side] = shape.runs;
                }
                shape.after[shape.runs as usize] = k as u8;
                shape.runs += 1;
            }
        }
    }
    table
}

/// The 8-connected pieces of the ruled-out cells of a `width × height` grid, over time (see
/// the module doc).
pub(super) struct Fences {
    width: usize,
    height: usize,
    /// Per node (the cells, then the outside), its parent in the union–find (itself: a root)
    /// and when it was linked to it, side by side (a find reads both at each step).
    up: Vec<(u32, u32)>,
    /// Per root, its rank (union by rank keeps the finds short without path compression,
    /// which rollback cannot undo).
    rank: Vec<u8>,
    /// Per cell, when it was ruled out ([`NEVER`]: it is not).
    out_at: Vec<u32>,
    /// Per cell, its ruled-out ring cells now (bit `k`: position `k`; beyond the grid set).
    ring: Vec<u8>,
    /// Per cell, its ring positions beyond the grid.
    beyond: Vec<u8>,
    /// Per ring position, the step to its cell (`dy · width + dx`).
    step: [isize; 8],
    /// The links made, in order: the child, and whether its new parent's rank went up.
    links: Vec<(u32, bool)>,
    /// The cells ruled out, in order, each with the number of links before it.
    outs: Vec<(u32, u32)>,
    shapes: Box<[Shape; 256]>,
}

impl Fences {
    /// No cell ruled out on a `width × height` grid.
    pub(super) fn new(width: usize, height: usize) -> Fences {
        let n = width * height;
        let mut ring = vec![0u8; n];
        for (c, r) in ring.iter_mut().enumerate() {
            let (x, y) = ((c % width) as isize, (c / width) as isize);
            for (k, (dx, dy)) in RING.iter().enumerate() {
                let (nx, ny) = (x + dx, y + dy);
                if nx < 0 || ny < 0 || nx >= width as isize || ny >= height as isize {
                    *r |= 1 << k;
                }
            }
        }
        Fences {
            width,
            height,
            up: (0..=n as u32).map(|x| (x, 0)).collect(),
            rank: vec![0; n + 1],
            out_at: vec![NEVER; n],
            beyond: ring.clone(),
            ring,
            step: RING.map(|(dx, dy)| dy * width as isize + dx),
            links: Vec::new(),
            outs: Vec::new(),
            shapes: Box::new(shapes()),
        }
    }

    /// The time now: the number of cells ruled out.
    pub(super) fn now(&self) -> u32 {
        self.outs.len() as u32
    }

    /// The node of the outside.
    fn outside(&self) -> usize {
        self.width * self.height
    }

    /// The ring cell of `c` at position `k`, if on the grid.
    #[inline]
    fn ring_cell(&self, c: usize, k: usize) -> Option<usize> {
        (self.beyond[c] >> k & 1 == 0).then(|| c.wrapping_add_signed(self.step[k]))
    }

    /// The root of `x` among the links made by time `t`.
    #[inline]
    fn find_at(&self, mut x: usize, t: u32) -> usize {
        // Links higher up were made later (a node is linked only while a root).
        loop {
            let (p, at) = self.up[x];
            if p as usize == x || at > t {
                return x;
            }
            x = p as usize;
        }
    }

    /// Joins the pieces of `a` and `b` (now).
    fn union(&mut self, a: usize, b: usize) {
        let (t, ra, rb) = (self.now(), self.find_at(a, NEVER), self.find_at(b, NEVER));
        if ra == rb {
            return;
        }
        let (child, root) = if self.rank[ra] < self.rank[rb] {
            (ra, rb)
        } else {
            (rb, ra)
        };
        self.up[child] = (root as u32, t);
        let up = self.rank[child] == self.rank[root];
        if up {
            self.rank[root] += 1;
        }
        self.links.push((child as u32, up));
    }

    /// Rules `c` out (it was not).
    pub(super) fn rule_out(&mut self, c: usize) {
        debug_assert_eq!(self.out_at[c], NEVER);
        self.outs.push((c as u32, self.links.len() as u32));
        self.out_at[c] = self.now();
        let (x, y) = (c % self.width, c / self.width);
        if x == 0 || y == 0 || x + 1 == self.width || y + 1 == self.height {
            self.union(c, self.outside());
        }
        for k in 0..8 {
            if let Some(d) = self.ring_cell(c, k) {
                // `c` is at position k + 4 of `d`'s ring.
                self.ring[d] |= 1 << ((k + 4) % 8);
                if self.out_at[d] != NEVER {
                    self.union(c, d);
                }
            }
        }
    }

    /// Gives back `c`, the cell ruled out last.
    pub(super) fn give_back(&mut self, c: usize) {
        let Some((last, links)) = self.outs.pop() else {
            debug_assert!(false, "no cell ruled out");
            return;
        };
        debug_assert_eq!(last as usize, c);
        while self.links.len() > links as usize {
            let Some((child, up)) = self.links.pop() else {
                break;
            };
            let child = child as usize;
            let root = self.up[child].0 as usize;
            if up {
                self.rank[root] -= 1;
            }
            self.up[child] = (child as u32, 0);
        }
        self.out_at[c] = NEVER;
        for k in 0..8 {
            if let Some(d) = self.ring_cell(c, k) {
                self.ring[d] &= !(1 << ((k + 4) % 8));
            }
        }
    }

    /// How many of `v`'s 4-neighbours are not ruled out now.
    #[inline]
    pub(super) fn possible_sides(&self, v: usize) -> u32 {
        (!self.ring[v] & 0b0101_0101).count_ones()
    }

    /// The sides of `v`'s neighbours (N, E, S, W) as they were at time `t` (every cell ruled
    /// out by then must still be: a snapshot is dropped when one is given back): equal
    /// numbers for neighbours in the same piece of the cells not ruled out once `v` is
    /// removed, [`NO_SIDE`] for a neighbour ruled out or beyond the grid. `None` when they all
    /// lie on one side.
    pub(super) fn sides_at(&self, v: usize, t: u32) -> Option<[u8; 4]> {
        let mask = if t >= self.now() {
            self.ring[v]
        } else {
            let mut m = 0u8;
            for k in 0..8 {
                if self.ring_cell(v, k).is_none_or(|d| self.out_at[d] <= t) {
                    m |= 1 << k;
                }
            }
            m
        };
        let shape = &self.shapes[mask as usize];
        let k = shape.runs as usize;
        if k < 2 {
            return None;
        }
        // The piece of each stretch (stretch i lies between runs i and i + 1).
        let mut piece = [0usize; 4];
        for (i, p) in piece.iter_mut().enumerate().take(k) {
            let d = self.ring_cell(v, shape.after[i] as usize);
            *p = self.find_at(d.unwrap_or(self.outside()), t);
        }
        // Runs i and j are apart when two stretches p < q of one piece hold runs p + 1..=q
        // on one side and the others on the other.
        let apart = |i: usize, j: usize| {
            (0..k).any(|p| {
                (p + 1..k).any(|q| piece[p] == piece[q] && ((p < i && i <= q) != (p < j && j <= q)))
            })
        };
        // Per run, the first run on its side (never apart is an equivalence: the curves of
        // two pieces cannot cross).
        let mut side_of_run = [0u8; 4];
        for (i, s) in side_of_run.iter_mut().enumerate().take(k) {
            *s = (0..i).find(|&j| !apart(i, j)).unwrap_or(i) as u8;
        }
        if side_of_run[..k].iter().all(|&s| s == 0) {
            return None;
        }
        Some(shape.run_of.map(|r| {
            if r == NO_SIDE {
                NO_SIDE
            } else {
                side_of_run[r as usize]
            }
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::super::cut::{OPEN, OUT, REST, Sides, around};
    use super::*;
    use grim_formula::SplitMix64;

    /// Whether the depth-first search puts `v`'s neighbours `a` and `b` on the same side.
    fn same_by_search(w: usize, h: usize, sides: &Sides, v: usize, a: usize, b: usize) -> bool {
        let (sa, sb) = (sides.side(w, h, v, a), sides.side(w, h, v, b));
        sa == sb || (sa == REST && sb == REST)
    }

    /// Checks every possible cell of `status` (as it was at time `t`, `status_t`) against the
    /// search over `status_t`.
    fn agree(w: usize, h: usize, f: &Fences, status_t: &[u8], t: u32) -> Result<(), String> {
        let sides = Sides::new(w, h, status_t);
        for v in 0..w * h {
            if status_t[v] == OUT {
                continue;
            }
            let got = f.sides_at(v, t);
            let nb = around(w, h, v);
            for (i, a) in nb.iter().enumerate() {
                for (j, b) in nb.iter().enumerate() {
                    let (Some(a), Some(b)) = (*a, *b) else {
                        continue;
                    };
                    if status_t[a] == OUT || status_t[b] == OUT {
                        continue;
                    }
                    let want = same_by_search(w, h, &sides, v, a, b);
                    let have = got.is_none_or(|s| s[i] == s[j]);
                    if want != have {
                        return Err(format!(
                            "{w}×{h} at t={t}: cell {v}, neighbours {a} and {b}: search says \
                             same side {want}, fences {have}"
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    /// On random walks of ruling cells out and giving them back (last out, first back), on
    /// grids from 1×1 to 9×7: the sides agree with a fresh depth-first search now, and as
    /// they were at an earlier time (the snapshot a full pass keeps) while only more cells
    /// were ruled out since. Fails if the union–find's rollback or its link times are wrong.
    #[test]
    fn sides_agree_with_a_fresh_search_now_and_at_an_earlier_time() {
        let mut rng = SplitMix64::new(7);
        for round in 0..400 {
            let w = 1 + (rng.next_u64() % 9) as usize;
            let h = 1 + (rng.next_u64() % 7) as usize;
            let n = w * h;
            let mut f = Fences::new(w, h);
            let mut status = vec![OPEN; n];
            let mut order: Vec<usize> = Vec::new();
            // A snapshot: its time and the statuses then.
            let mut snap: Option<(u32, Vec<u8>)> = None;
            for _ in 0..(3 * n) {
                let r = rng.next_u64() % 10;
                if r < 6 {
                    let c = (rng.next_u64() % n as u64) as usize;
                    if status[c] != OUT {
                        status[c] = OUT;
                        order.push(c);
                        f.rule_out(c);
                    }
                } else if r < 8 {
                    let Some(c) = order.pop() else { continue };
                    status[c] = OPEN;
                    f.give_back(c);
                    if snap.as_ref().is_some_and(|(t, _)| *t > f.now()) {
                        snap = None;
                    }
                } else {
                    snap = Some((f.now(), status.clone()));
                }
                if let Err(e) = agree(w, h, &f, &status, f.now()) {
                    panic!("round {round}, now: {e}");
                }
                if let Some((t, ref s)) = snap
                    && let Err(e) = agree(w, h, &f, s, t)
                {
                    panic!("round {round}, snapshot: {e}");
                }
            }
        }
    }

    /// Every pattern of ruled-out cells on a 4×4 grid, every cell: the sides agree with the
    /// depth-first search (the duality the module doc relies on, exhaustively where it is
    /// cheap).
    #[test]
    fn sides_agree_with_the_search_on_every_4x4_pattern() {
        let (w, h) = (4, 4);
        for m in 0u32..1 << 16 {
            let mut f = Fences::new(w, h);
            let mut status = vec![OPEN; 16];
            for (c, s) in status.iter_mut().enumerate() {
                if m >> c & 1 == 1 {
                    *s = OUT;
                    f.rule_out(c);
                }
            }
            if let Err(e) = agree(w, h, &f, &status, f.now()) {
                panic!("pattern {m:#06x}: {e}");
            }
        }
    }
}
