//! Articulation cells under a partial assignment, for the cut loop (the propagator part reads
//! the same sides from `fences.rs`, which its tests check against this search): one iterative
//! depth-first search (Hopcroft & Tarjan, CACM 1973) over the cells that
//! may still hold the class, and per cell the *side* of each neighbour — which piece of the
//! possible cells it lies in once the cell is removed.
//!
//! Why sides of the possible cells: the class cells of any completion are a subset of them,
//! so two class neighbours of `v` on different sides of `v` in the possible graph are
//! disconnected without `v` in every completion — `v`, once in the class, is an articulation
//! cell for certain. The certificate is the piece of one side: its cells' neighbours outside
//! it (other than `v`) are all ruled out ([`witness`]).

use crate::graph::{Graph, NONE as GRAPH_NONE};
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
#[derive(Default)]
pub(super) struct Sides {
    /// Per cell, its numbers in the search, side by side (one cache line read per cell).
    node: Vec<Node>,
    /// Whether some child's subtree is cut off from the rest by removing the cell: the cells
    /// whose neighbours may lie on different sides (every other cell's are all [`REST`]).
    cuts: Vec<bool>,
    /// The search's stack (kept to reuse its allocation).
    stack: Vec<(u32, u8)>,
}

/// A cell's numbers in the depth-first search.
#[derive(Clone, Copy)]
struct Node {
    disc: u32,
    low: u32,
    /// The largest discovery time in the cell's subtree.
    last: u32,
    parent: u32,
}

/// No cell (a root's parent; not visited).
const NONE: u32 = u32::MAX;

/// A cell not visited.
const UNSEEN: Node = Node {
    disc: NONE,
    low: NONE,
    last: NONE,
    parent: NONE,
};

/// The side of a neighbour that is not in a piece cut off below the cell.
pub(super) const REST: usize = usize::MAX;

impl Sides {
    /// The search over `status` on a `w × h` grid.
    pub(super) fn new(w: usize, h: usize, status: &[u8]) -> Sides {
        let mut s = Sides::default();
        s.compute(&Graph::grid(w, h), status);
        s
    }

    /// The search over `status` on `graph`, into `self` (its buffers reused: the search part
    /// ran it at every full pass until `fences.rs` replaced it). Measured on cave-loops-128 (seed 1): the search, with the
    /// neighbours recomputed from coordinates and four fresh buffers per pass, was 29% of the
    /// solve, and the sides looked up for every cell of the class another 20% — which
    /// [`Sides::splits`] now skips for the cells no piece hangs from (most of them).
    pub(super) fn compute(&mut self, graph: &Graph, status: &[u8]) {
        let n = status.len();
        let s = self;
        s.node.clear();
        s.node.resize(n, UNSEEN);
        s.cuts.clear();
        s.cuts.resize(n, false);
        let mut time = 0u32;
        let mut stack = std::mem::take(&mut s.stack);
        stack.clear();
        for start in 0..n {
            if status[start] == OUT || s.node[start].disc != NONE {
                continue;
            }
            s.node[start].disc = time;
            s.node[start].low = time;
            time += 1;
            stack.push((start as u32, 0));
            while let Some(&mut (v, ref mut next)) = stack.last_mut() {
                let v = v as usize;
                if *next < 4 {
                    let u = graph.sides(v)[*next as usize];
                    *next += 1;
                    if u == GRAPH_NONE || status[u as usize] == OUT {
                        continue;
                    }
                    let u = u as usize;
                    let du = s.node[u].disc;
                    if du == NONE {
                        s.node[u] = Node {
                            disc: time,
                            low: time,
                            last: NONE,
                            parent: v as u32,
                        };
                        time += 1;
                        stack.push((u as u32, 0));
                    } else if s.node[v].parent != u as u32 {
                        s.node[v].low = s.node[v].low.min(du);
                    }
                } else {
                    stack.pop();
                    s.node[v].last = time - 1;
                    let Node { low, parent: p, .. } = s.node[v];
                    if p != NONE {
                        let p = p as usize;
                        s.node[p].low = s.node[p].low.min(low);
                        if low >= s.node[p].disc {
                            s.cuts[p] = true;
                        }
                    }
                }
            }
        }
        s.stack = stack;
    }

    /// Whether some neighbour of `v` may have a side other than [`REST`]: else no two of them
    /// are on different sides, and [`split`] has nothing to find.
    #[inline]
    pub(super) fn splits(&self, v: usize) -> bool {
        self.cuts[v]
    }

    /// The side of `v`'s neighbour `u` (both possible): the child of `v` whose subtree holds
    /// `u` when that subtree is cut off from the rest by removing `v`, else [`REST`].
    pub(super) fn side(&self, w: usize, h: usize, v: usize, u: usize) -> usize {
        let (du, nv) = (self.node[u].disc, self.node[v]);
        if du <= nv.disc || du > nv.last {
            return REST; // an ancestor, or the parent
        }
        for c in around(w, h, v).into_iter().flatten() {
            let nc = self.node[c];
            if nc.parent == v as u32 && nc.disc <= du && du <= nc.last && nc.low >= nv.disc {
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
    if !sides.splits(v) {
        return None;
    }
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
