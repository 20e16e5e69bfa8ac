//! The cut loop's side of connectivity (`ConnectivityStrategy::Lazy`, and the clash
//! diagnosis): the separator cuts a disconnected level breaks, and the bridges that steer
//! the next round.
//!
//! Solve with only the *small-fragment cuts* (`small_component_cuts` in `encode.rs`: no connected
//! set of at most 3 cells may be a component of its own while more class cells exist), flood-fill
//! the model, and for every component `C` that is not the root's (or, with root "any", not the
//! largest) add the separator clauses `¬f(u) ∨ ¬f(v) ∨ ⋁_{w ∈ R_r} f(w)` with `u ∈ C`, `R_r` the
//! ring of cells at grid distance exactly `r` from `C` (`r = 1` is the boundary `∂C`; up to 3
//! rings) and `v` the main component's cell farthest from `C` (with a given root, `v` is the root
//! and `¬f(v)` is dropped: the root is pinned to the class). Every connected map satisfies every
//! such clause (a path from `u` to `v` crosses each ring), so no connected map is lost; the loop
//! ends when the model is connected, which a BFS checks, so no disconnected map is returned.
//! [`bridges`] picks, for the next round's phase hints, the cells of a shortest way from each stray
//! component to the main one. Measured numbers are in `FORMAT.md`.

use crate::spec::GridSpec;
use grim_solver::Lit;

/// The separator cuts for one rule on a level: `class[c]` is the class literal of cell `c`,
/// `holds[c]` whether the level has the class there, `root` the given root. Empty when the
/// class cells are connected (and, with a root, contain it).
pub(super) fn cuts(
    spec: &GridSpec,
    class: &[Lit],
    holds: &[bool],
    root: Option<usize>,
) -> Vec<Vec<Lit>> {
    let comps = components(spec, holds);
    if comps.len() <= 1 && root.is_none_or(|r| holds[r]) {
        return Vec::new();
    }
    let main = match root {
        Some(r) => comps.iter().position(|c| c.contains(&r)),
        None => {
            // The largest component (the first among equals).
            let mut best = 0;
            for (i, c) in comps.iter().enumerate() {
                if c.len() > comps[best].len() {
                    best = i;
                }
            }
            Some(best)
        }
    };
    let mut out = Vec::new();
    let cells = spec.cells();
    for (i, comp) in comps.iter().enumerate() {
        if Some(i) == main {
            continue;
        }
        // Rings around C: cells at grid distance exactly r (r = 1 is ∂C). Each ring separates
        // C from every cell farther away, so with v beyond the ring the cut is valid.
        let mut dist = vec![usize::MAX; cells];
        let mut queue: Vec<usize> = comp.clone();
        for &c in comp {
            dist[c] = 0;
        }
        let mut k = 0;
        while k < queue.len() {
            let c = queue[k];
            k += 1;
            for d in spec.neighbours(c) {
                if dist[d] == usize::MAX {
                    dist[d] = dist[c] + 1;
                    queue.push(d);
                }
            }
        }
        // v: the root, or the main component's cell farthest from C (first among equals).
        let v = match (root, main) {
            (Some(r), _) => Some(r),
            (None, Some(mi)) => comps[mi]
                .iter()
                .copied()
                .reduce(|a, b| if dist[b] > dist[a] { b } else { a }),
            (None, None) => None,
        };
        let Some(v) = v else { continue };
        let rings = ring_limit().min(dist[v].saturating_sub(1)).max(1);
        for r in 1..=rings {
            let mut clause = vec![!class[comp[0]]];
            if root.is_none() {
                clause.push(!class[v]);
            }
            clause.extend(queue.iter().filter(|&&w| dist[w] == r).map(|&w| class[w]));
            out.push(clause);
        }
    }
    out
}

/// How many rings around a stray component each round cuts: with 1 (∂C only) a round grows
/// each stray component by one cell; every ring up to the main component made 10–60 thousand
/// long cut clauses at 32×32; 3 measured as fast as all of them (binary counts, seeds 1–6:
/// 0.47–2.24 s against 0.54–2.24 s CPU) with a tenth of the clauses.
const RINGS: usize = 3;

fn ring_limit() -> usize {
    RINGS
}

/// Cells that would join every stray component to the main one: for each component other
/// than the root's (or the largest), a shortest path to the main component counting only the
/// cells that do not hold the class (0–1 BFS), and the non-class cells on it. `solve` hints
/// these cells to the class for the next round — a steer, not a rule: the cuts alone make the
/// loop correct; the hints make it converge in few rounds.
pub(super) fn bridges(spec: &GridSpec, holds: &[bool], root: Option<usize>) -> Vec<usize> {
    let comps = components(spec, holds);
    if comps.len() <= 1 {
        return Vec::new();
    }
    let cells = spec.cells();
    let mut id = vec![usize::MAX; cells];
    for (i, comp) in comps.iter().enumerate() {
        for &c in comp {
            id[c] = i;
        }
    }
    let main = match root {
        Some(r) if holds[r] => id[r],
        _ => {
            let mut best = 0;
            for (i, c) in comps.iter().enumerate() {
                if c.len() > comps[best].len() {
                    best = i;
                }
            }
            best
        }
    };
    // 0–1 BFS from the main component outwards; then walk back from each stray component.
    let mut dist = vec![usize::MAX; cells];
    let mut prev = vec![usize::MAX; cells];
    let mut deque = std::collections::VecDeque::new();
    for &c in &comps[main] {
        dist[c] = 0;
        deque.push_back(c);
    }
    while let Some(c) = deque.pop_front() {
        for d in spec.neighbours(c) {
            let w = usize::from(!holds[d]);
            if dist[c] + w < dist[d] {
                dist[d] = dist[c] + w;
                prev[d] = c;
                if w == 0 {
                    deque.push_front(d);
                } else {
                    deque.push_back(d);
                }
            }
        }
    }
    let mut out = Vec::new();
    let mut marked = vec![false; cells];
    for (i, comp) in comps.iter().enumerate() {
        if i == main {
            continue;
        }
        let mut c = comp[0];
        while prev[c] != usize::MAX && id[c] != main {
            if !holds[c] && !marked[c] {
                marked[c] = true;
                out.push(c);
            }
            c = prev[c];
        }
    }
    out
}

/// The 4-connected components of the cells where `holds`, each in BFS order from its first
/// cell (row-major), listed by first cell.
pub(super) fn components(spec: &GridSpec, holds: &[bool]) -> Vec<Vec<usize>> {
    let mut comp = vec![usize::MAX; spec.cells()];
    let mut out: Vec<Vec<usize>> = Vec::new();
    for s in 0..spec.cells() {
        if !holds[s] || comp[s] != usize::MAX {
            continue;
        }
        let id = out.len();
        comp[s] = id;
        let mut list = vec![s];
        let mut i = 0;
        while i < list.len() {
            let c = list[i];
            i += 1;
            for d in spec.neighbours(c) {
                if holds[d] && comp[d] == usize::MAX {
                    comp[d] = id;
                    list.push(d);
                }
            }
        }
        out.push(list);
    }
    out
}
