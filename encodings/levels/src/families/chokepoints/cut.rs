//! Articulation cells under a partial assignment, shared by the propagator part and the cut
//! loop: one iterative depth-first search (Hopcroft & Tarjan, CACM 1973) over the cells that
//! may still hold the class, and per cell the *side* of each neighbour — which piece of the
//! possible cells it lies in once the cell is removed.
//!
//! Why sides of the possible cells: the class cells of any completion are a subset of them,
//! so two class neighbours of `v` on different sides of `v` in the possible graph are
//! disconnected without `v` in every completion — `v`, once in the class, is an articulation
//! cell for certain. The certificate is the piece of one side: its cells' neighbours outside
//! it (other than `v`) are all ruled out ([`witness`]).

use grim_solver::Lit;
use std::collections::VecDeque;

/// A cell ruled out (or outside the region).
pub(super) const OUT: u8 = 0;
/// A cell not decided yet.
pub(super) const OPEN: u8 = 1;
/// A cell certainly in the class.
pub(super) const IN: u8 = 2;

/// The neighbours of `c` on a `w × h` grid (N, E, S, W order; `None` off the grid).
pub(super) fn around(w: usize, h: usize, c: usize) -> [Option<usize>; 4] {
    let (x, y) = (c % w, c / w);
    [
        (y > 0).then(|| c - w),
        (x + 1 < w).then(|| c + 1),
        (y + 1 < h).then(|| c + w),
        (x > 0).then(|| c - 1),
    ]
}

/// The depth-first search over the cells not `OUT`.
pub(super) struct Sides {
    disc: Vec<u32>,
    low: Vec<u32>,
    /// The largest discovery time in the cell's subtree.
    last: Vec<u32>,
    parent: Vec<u32>,
}

/// No cell (a root's parent; not visited).
const NONE: u32 = u32::MAX;

/// The side of a neighbour that is not in a piece cut off below the cell.
pub(super) const REST: usize = usize::MAX;

impl Sides {
    /// The search over `status` on a `w × h` grid.
    pub(super) fn new(w: usize, h: usize, status: &[u8]) -> Sides {
        let n = status.len();
        let mut s = Sides {
            disc: vec![NONE; n],
            low: vec![NONE; n],
            last: vec![NONE; n],
            parent: vec![NONE; n],
        };
        let mut time = 0u32;
        let mut stack: Vec<(usize, usize)> = Vec::new();
        for start in 0..n {
            if status[start] == OUT || s.disc[start] != NONE {
                continue;
            }
            s.disc[start] = time;
            s.low[start] = time;
            time += 1;
            stack.push((start, 0));
            while let Some(&mut (v, ref mut next)) = stack.last_mut() {
                if *next < 4 {
                    let i = *next;
                    *next += 1;
                    let Some(u) = around(w, h, v)[i] else {
                        continue;
                    };
                    if status[u] == OUT {
                        continue;
                    }
                    if s.disc[u] == NONE {
                        s.parent[u] = v as u32;
                        s.disc[u] = time;
                        s.low[u] = time;
                        time += 1;
                        stack.push((u, 0));
                    } else if s.parent[v] != u as u32 {
                        s.low[v] = s.low[v].min(s.disc[u]);
                    }
                } else {
                    stack.pop();
                    s.last[v] = time - 1;
                    let p = s.parent[v];
                    if p != NONE {
                        let p = p as usize;
                        s.low[p] = s.low[p].min(s.low[v]);
                    }
                }
            }
        }
        s
    }

    /// The side of `v`'s neighbour `u` (both possible): the child of `v` whose subtree holds
    /// `u` when that subtree is cut off from the rest by removing `v`, else [`REST`].
    pub(super) fn side(&self, w: usize, h: usize, v: usize, u: usize) -> usize {
        let du = self.disc[u];
        if du <= self.disc[v] || du > self.last[v] {
            return REST; // an ancestor, or the parent
        }
        for c in around(w, h, v).into_iter().flatten() {
            if self.parent[c] == v as u32
                && self.disc[c] <= du
                && du <= self.last[c]
                && self.low[c] >= self.disc[v]
            {
                return c;
            }
        }
        REST
    }
}

/// The clause that rules out the articulation cell `v` found with its neighbours `a` and `b`
/// on different sides: `¬v ∨ ¬a ∨ ¬b ∨` the ruled-out cells around the smaller of the two
/// pieces (other than `v`). Cells without a literal (`lit_of` `None`: a constant, or outside
/// the region) are left out: they are ruled out in every level.
pub(super) fn witness(
    w: usize,
    h: usize,
    status: &[u8],
    lit_of: &[Option<Lit>],
    (v, a, b): (usize, usize, usize),
) -> Vec<Lit> {
    let n = status.len();
    // Two searches in step; the first to finish is the smaller piece.
    let mut mark = vec![0u8; n];
    mark[v] = 3;
    let mut queues = [VecDeque::from([a]), VecDeque::from([b])];
    mark[a] = 1;
    mark[b] = 2;
    let mut pieces: [Vec<usize>; 2] = [vec![a], vec![b]];
    let done = loop {
        let mut finished = None;
        for k in 0..2 {
            match queues[k].pop_front() {
                None => {
                    finished = Some(k);
                    break;
                }
                Some(c) => {
                    for d in around(w, h, c).into_iter().flatten() {
                        if status[d] != OUT && mark[d] == 0 {
                            mark[d] = k as u8 + 1;
                            pieces[k].push(d);
                            queues[k].push_back(d);
                        }
                    }
                }
            }
        }
        if let Some(k) = finished {
            break k;
        }
    };
    let mut clause = Vec::new();
    clause.extend([v, a, b].iter().filter_map(|&c| lit_of[c]).map(|l| !l));
    let mut fence = vec![false; n];
    for &c in &pieces[done] {
        for d in around(w, h, c).into_iter().flatten() {
            if status[d] == OUT && !fence[d] {
                fence[d] = true;
                clause.extend(lit_of[d]);
            }
        }
    }
    clause
}

/// Every cell certainly in the class with certain neighbours on two sides, with two such
/// neighbours: the articulation cells every completion has.
pub(super) fn certain(
    w: usize,
    h: usize,
    status: &[u8],
    sides: &Sides,
) -> Vec<(usize, usize, usize)> {
    let mut out = Vec::new();
    for v in 0..status.len() {
        if status[v] != IN {
            continue;
        }
        if let Some((a, b)) = split(w, h, status, sides, v, IN) {
            out.push((v, a, b));
        }
    }
    out
}

/// Two neighbours of `v` with status `want`, on different sides, if there are such.
pub(super) fn split(
    w: usize,
    h: usize,
    status: &[u8],
    sides: &Sides,
    v: usize,
    want: u8,
) -> Option<(usize, usize)> {
    let mut first: Option<(usize, usize)> = None;
    for u in around(w, h, v).into_iter().flatten() {
        if status[u] != want {
            continue;
        }
        let s = sides.side(w, h, v, u);
        match first {
            None => first = Some((u, s)),
            Some((a, sa)) if sa != s => return Some((a, u)),
            Some(_) => {}
        }
    }
    None
}
