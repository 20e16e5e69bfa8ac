//! Reachability on the cell graph under a partial assignment: what a connectivity rule forces
//! while the search is still running, and the small cuts that explain it.
//!
//! Each cell's class literal is `In` (true), `Out` (false) or `Free`. The rule: every `In`
//! cell is reachable from the *anchor* — the root, or with `"root": "any"` an `In` cell —
//! through cells that are not `Out`. On a partial assignment that gives (MonoSAT's approach to
//! reachability in CDCL, Bayless, Bayless, Hoos & Hu, AAAI 2015, restricted to the one monotone
//! predicate a level needs):
//!
//! - `R`, the cells reachable from the anchor through non-`Out` cells. Every cell outside `R`
//!   must be `Out`: a `Free` one is forced out, an `In` one is a conflict. The explanation is
//!   a separator: the `Out` cells on the border of `R` (or, if smaller, on the border of the
//!   other cell's own non-`Out` component) — every walk from the anchor to the cell crosses
//!   one of them, so `¬x ∨ ⋁ border` holds in every connected level.
//! - The *articulation points* of `R` (Tarjan's lowlink DFS, iterative): a cell `d` whose
//!   removal cuts a DFS subtree holding an `In` cell `c` off from the anchor must be `In`
//!   itself — every way from the anchor to `c` runs through `d`. The explanation is
//!   `d ∨ ¬c ∨ ⋁ border`, the border of the region reachable from the anchor avoiding `d`.
//!
//! Both passes are linear in the cells (one BFS, one DFS). With `"any"`, every clause also
//! carries `¬anchor` (the anchor is only an anchor while it is `In`).
//!
//! Explanations are computed from a predicate "was `Out` at the time of the inference", so the
//! caller can compute them lazily — when conflict analysis asks — from timestamps, and the
//! clause only names cells assigned before the inferred one.

use crate::graph::{Graph, NONE};
use std::collections::VecDeque;

/// A cell's class literal under the current partial assignment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum State {
    /// True: the cell holds the class.
    In,
    /// False.
    Out,
    /// Unassigned.
    Free,
}

/// What the rule infers on a partial assignment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Inference {
    /// `cell` is `In` but cannot reach the anchor: no completion is connected.
    Conflict {
        /// The stranded cell.
        cell: usize,
    },
    /// `cell` (free) cannot reach the anchor: it must be `Out`.
    Out {
        /// The cell forced out.
        cell: usize,
    },
    /// `cell` (free) separates the `In` cell `witness` from the anchor: it must be `In`.
    In {
        /// The cell forced in.
        cell: usize,
        /// An `In` cell that reaches the anchor only through `cell`.
        witness: usize,
    },
}

/// Scratch space reused across calls (no allocation per propagation round).
#[derive(Clone, Debug, Default)]
pub(crate) struct Scratch {
    seen: Vec<u32>,
    /// The second search's marks in [`separator`] (same stamp as `seen`).
    seen_b: Vec<u32>,
    stamp: u32,
    queue: VecDeque<usize>,
    /// The second search's queue in [`separator`].
    queue_b: VecDeque<usize>,
    disc: Vec<u32>,
    low: Vec<u32>,
    witness: Vec<u32>,
    parent: Vec<u32>,
    forced: Vec<(usize, usize)>,
    stack: Vec<(usize, u8)>,
}

impl Scratch {
    fn start(&mut self, n: usize) {
        if self.seen.len() != n {
            self.seen = vec![0; n];
            self.seen_b = vec![0; n];
            self.stamp = 0;
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.fill(0);
            self.seen_b.fill(0);
            self.stamp = 1;
        }
    }
    #[inline]
    fn mark(&mut self, c: usize) -> bool {
        if self.seen[c] == self.stamp {
            false
        } else {
            self.seen[c] = self.stamp;
            true
        }
    }
    #[inline]
    fn marked(&self, c: usize) -> bool {
        self.seen[c] == self.stamp
    }
}

/// Every inference of the rule on `state` with the given anchor (an `In` cell), into `out`
/// in a deterministic order: conflicts and forced-out cells by cell index, then forced-in cells
/// in DFS order. A conflict ends the pass early (the caller backtracks anyway).
pub(crate) fn infer(
    graph: &Graph,
    state: &[State],
    anchor: usize,
    cut_vertices: bool,
    scratch: &mut Scratch,
    out: &mut Vec<Inference>,
) {
    debug_assert_eq!(state[anchor], State::In);
    let n = graph.len();
    // R: non-Out cells reachable from the anchor.
    scratch.start(n);
    scratch.queue.clear();
    scratch.mark(anchor);
    scratch.queue.push_back(anchor);
    while let Some(c) = scratch.queue.pop_front() {
        for d in graph.around(c) {
            if state[d] != State::Out && scratch.mark(d) {
                scratch.queue.push_back(d);
            }
        }
    }
    for c in 0..n {
        if scratch.marked(c) {
            continue;
        }
        match state[c] {
            State::In => {
                out.push(Inference::Conflict { cell: c });
                return;
            }
            State::Free => out.push(Inference::Out { cell: c }),
            State::Out => {}
        }
    }
    if cut_vertices {
        articulation(graph, state, anchor, scratch, out);
    }
}

/// Tarjan's lowlink DFS from the anchor over non-`Out` cells (iterative: a 256×256 grid is
/// 65,536 deep in the worst case). Every free articulation point whose cut-off subtree holds an
/// `In` cell is forced in.
fn articulation(
    graph: &Graph,
    state: &[State],
    anchor: usize,
    scratch: &mut Scratch,
    out: &mut Vec<Inference>,
) {
    const UNSEEN: u32 = 0;
    const NO_WITNESS: u32 = u32::MAX;
    let n = graph.len();
    scratch.disc.clear();
    scratch.disc.resize(n, UNSEEN);
    scratch.low.clear();
    scratch.low.resize(n, 0);
    scratch.witness.clear();
    scratch.witness.resize(n, NO_WITNESS);
    let mut time = 1u32;
    scratch.disc[anchor] = time;
    scratch.low[anchor] = time;
    scratch.stack.clear();
    scratch.stack.push((anchor, 0));
    // Parents, to skip the tree edge back (the grid has no parallel edges).
    let mut parent = std::mem::take(&mut scratch.parent);
    parent.clear();
    parent.resize(n, u32::MAX);
    let mut forced = std::mem::take(&mut scratch.forced);
    forced.clear();
    while let Some(&mut (c, ref mut next)) = scratch.stack.last_mut() {
        let nb = graph.sides(c);
        if (*next as usize) < 4 {
            let d = nb[*next as usize];
            *next += 1;
            if d == NONE || state[d as usize] == State::Out {
                continue;
            }
            let d = d as usize;
            if scratch.disc[d] == UNSEEN {
                time += 1;
                scratch.disc[d] = time;
                scratch.low[d] = time;
                parent[d] = c as u32;
                scratch.stack.push((d, 0));
            } else if parent[c] != d as u32 {
                scratch.low[c] = scratch.low[c].min(scratch.disc[d]);
            }
            continue;
        }
        // `c` is finished: its witness is itself when In, else one of its subtrees'.
        scratch.stack.pop();
        if state[c] == State::In && scratch.witness[c] == NO_WITNESS {
            scratch.witness[c] = c as u32;
        }
        let p = parent[c];
        if p == u32::MAX {
            continue;
        }
        let p = p as usize;
        scratch.low[p] = scratch.low[p].min(scratch.low[c]);
        if scratch.witness[p] == NO_WITNESS {
            scratch.witness[p] = scratch.witness[c];
        }
        // `p` cuts `c`'s subtree off from the anchor.
        if p != anchor
            && scratch.low[c] >= scratch.disc[p]
            && state[p] == State::Free
            && scratch.witness[c] != NO_WITNESS
        {
            forced.push((p, scratch.witness[c] as usize));
        }
    }
    // One inference per forced cell (a cell may cut off several subtrees).
    forced.sort_unstable_by_key(|&(p, _)| p);
    forced.dedup_by_key(|&mut (p, _)| p);
    out.extend(
        forced
            .iter()
            .map(|&(cell, witness)| Inference::In { cell, witness }),
    );
    scratch.parent = parent;
    scratch.forced = forced;
}

/// Whether cell `c` was reached by the last search on `scratch` ([`border`], [`infer`]).
pub(crate) fn marked(scratch: &Scratch, c: usize) -> bool {
    scratch.marked(c)
}

/// What [`split_after`] found.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Split {
    /// The open neighbours of the cell still reach each other: nothing is cut off.
    Joined,
    /// These cells (none of them the anchor) are cut off from the rest.
    Off(Vec<usize>),
    /// The side that stopped growing holds the anchor: the rest (perhaps most of the grid) is
    /// cut off; the caller runs a full pass instead.
    AnchorSide,
}

/// After cell `x` went out: do its open neighbours still reach each other through open cells?
/// One breadth-first search from each, interleaved a cell at a time; searches that meet merge.
/// The first group to run out of cells while another still grows is a component the removal
/// of `x` cut off — found at the cost of its own size, not the grid's (the usual case on a map
/// is a small pocket, or no split at all).
pub(crate) fn split_after(
    graph: &Graph,
    state: &[State],
    x: usize,
    anchor: usize,
    scratch: &mut Scratch,
) -> Split {
    let starts: Vec<usize> = graph
        .around(x)
        .filter(|&d| state[d] != State::Out)
        .collect();
    if starts.len() <= 1 {
        return Split::Joined;
    }
    let n = graph.len();
    let k = starts.len();
    scratch.start(n);
    // Owner of each cell visited (search index), valid where `marked`.
    if scratch.witness.len() != n {
        scratch.witness.resize(n, 0);
    }
    let mut group: [usize; 4] = [0, 1, 2, 3];
    fn find(group: &mut [usize; 4], mut i: usize) -> usize {
        while group[i] != i {
            group[i] = group[group[i]];
            i = group[i];
        }
        i
    }
    let mut queues: [VecDeque<usize>; 4] = Default::default();
    let mut visited: [Vec<usize>; 4] = Default::default();
    scratch.mark(x); // `x` is out: no search passes it
    for (i, &s) in starts.iter().enumerate() {
        if scratch.mark(s) {
            scratch.witness[s] = i as u32;
            queues[i].push_back(s);
            visited[i].push(s);
        } else {
            // Two neighbours cannot be the same cell; defensive.
            let j = scratch.witness[s] as usize;
            let (a, b) = (find(&mut group, i), find(&mut group, j));
            group[a] = b;
        }
    }
    loop {
        // The groups (their roots, ascending), in arrays: this runs once per step of the
        // searches, and a Vec per step (and one per group) was most of the cost of a split
        // on the 64×64 cave (callgrind, `benches/results/issue41-anytime-2026-12-07c.md`).
        let mut roots = [usize::MAX; 4];
        let mut groups = 0;
        for i in 0..k {
            let r = find(&mut group, i);
            if !roots[..groups].contains(&r) {
                roots[groups] = r;
                groups += 1;
            }
        }
        if groups <= 1 {
            return Split::Joined;
        }
        roots[..groups].sort_unstable();
        // A group with nothing left to expand is cut off.
        for &r in &roots[..groups] {
            let mut members = [false; 4];
            for (i, member) in members.iter_mut().enumerate().take(k) {
                *member = find(&mut group, i) == r;
            }
            if (0..k).all(|i| !members[i] || queues[i].is_empty()) {
                let cells: Vec<usize> = (0..k)
                    .filter(|&i| members[i])
                    .flat_map(|i| visited[i].iter().copied())
                    .collect();
                if cells.contains(&anchor) {
                    return Split::AnchorSide;
                }
                let mut cells = cells;
                cells.sort_unstable();
                return Split::Off(cells);
            }
        }
        // One step of every search.
        for i in 0..k {
            let Some(c) = queues[i].pop_front() else {
                continue;
            };
            for d in graph.around(c) {
                if state[d] == State::Out {
                    continue;
                }
                if scratch.mark(d) {
                    scratch.witness[d] = i as u32;
                    queues[i].push_back(d);
                    visited[i].push(d);
                } else if d != x {
                    let j = scratch.witness[d] as usize;
                    let (a, b) = (find(&mut group, i), find(&mut group, j));
                    if a != b {
                        group[a] = b;
                    }
                }
            }
        }
    }
}

/// Whether cell `c` was in the anchor's region at the last [`infer`] on `scratch` (stale after
/// later changes; callers use it only to skip notifications that cannot matter).
pub(crate) fn was_reached(scratch: &Scratch, c: usize) -> bool {
    scratch.seen.get(c).is_some_and(|&s| s == scratch.stamp)
}

/// The cells of the border of the region reachable from `from` through cells that are not
/// `out` (and not `avoid`): the `out` cells adjacent to it (and `avoid`, when adjacent), sorted.
/// Every walk from `from` to a cell outside the region crosses one of them.
pub(crate) fn border(
    graph: &Graph,
    from: usize,
    out: &dyn Fn(usize) -> bool,
    avoid: Option<usize>,
    scratch: &mut Scratch,
) -> (Vec<usize>, usize) {
    let n = graph.len();
    scratch.start(n);
    scratch.queue.clear();
    scratch.mark(from);
    scratch.queue.push_back(from);
    let mut cut = Vec::new();
    let mut region = 1;
    while let Some(c) = scratch.queue.pop_front() {
        for d in graph.around(c) {
            if !scratch.mark(d) {
                continue;
            }
            if out(d) || Some(d) == avoid {
                cut.push(d);
            } else {
                region += 1;
                scratch.queue.push_back(d);
            }
        }
    }
    cut.sort_unstable();
    (cut, region)
}

/// The smaller of the two separators between `anchor` and `cell`: the border of the anchor's
/// region and the border of the cell's (both avoiding `avoid`; the anchor's on a tie). Either
/// holds in every level in which the two are connected through cells not `out` at that time.
///
/// The two breadth-first searches run in step, a cell at a time, and stop as soon as the
/// choice is known: once one border is complete, the other search runs only until its border
/// is complete or already too long to be chosen. The result is the same as computing both
/// borders whole ([`border`] twice), but the anchor's region is usually most of the grid and
/// the cell's a small pocket: on cave-runs-128 the two whole searches per explanation took
/// 35% of the solve (`benches/results/issue42-tails-2026-12-07c.md`).
pub(crate) fn separator(
    graph: &Graph,
    anchor: usize,
    cell: usize,
    out: &dyn Fn(usize) -> bool,
    avoid: Option<usize>,
    scratch: &mut Scratch,
) -> Vec<usize> {
    scratch.start(graph.len());
    let stamp = scratch.stamp;
    scratch.queue.clear();
    scratch.queue_b.clear();
    scratch.seen[anchor] = stamp;
    scratch.queue.push_back(anchor);
    scratch.seen_b[cell] = stamp;
    scratch.queue_b.push_back(cell);
    let (mut cut_a, mut cut_b) = (Vec::new(), Vec::new());
    let (mut done_a, mut done_b) = (false, false);
    // One step of a search: expand its next cell; returns whether its queue ran out.
    let step = |seen: &mut [u32], queue: &mut VecDeque<usize>, cut: &mut Vec<usize>| -> bool {
        if let Some(c) = queue.pop_front() {
            for d in graph.around(c) {
                if seen[d] == stamp {
                    continue;
                }
                seen[d] = stamp;
                if out(d) || Some(d) == avoid {
                    cut.push(d);
                } else {
                    queue.push_back(d);
                }
            }
        }
        queue.is_empty()
    };
    let mut chosen = loop {
        if !done_a {
            done_a = step(&mut scratch.seen, &mut scratch.queue, &mut cut_a);
        }
        if !done_b {
            done_b = step(&mut scratch.seen_b, &mut scratch.queue_b, &mut cut_b);
        }
        match (done_a, done_b) {
            (true, true) => {
                break if cut_b.len() < cut_a.len() {
                    cut_b
                } else {
                    cut_a
                };
            }
            // The cell's border, however it ends, is no shorter than the anchor's.
            (true, false) if cut_b.len() >= cut_a.len() => break cut_a,
            // The anchor's border, however it ends, is longer than the cell's.
            (false, true) if cut_a.len() > cut_b.len() => break cut_b,
            _ => {}
        }
    };
    chosen.sort_unstable();
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;
    use grim_formula::SplitMix64;

    /// Whether the `In` cells of a full assignment are connected and contain `root`.
    fn connected(graph: &Graph, full: &[bool], root: Option<usize>) -> bool {
        let members: Vec<usize> = (0..full.len()).filter(|&c| full[c]).collect();
        let start = match root {
            Some(r) if !full[r] => return false,
            Some(r) => r,
            None => match members.first() {
                Some(&c) => c,
                None => return true,
            },
        };
        let mut seen = vec![false; full.len()];
        seen[start] = true;
        let mut todo = vec![start];
        while let Some(c) = todo.pop() {
            for d in graph.around(c) {
                if full[d] && !seen[d] {
                    seen[d] = true;
                    todo.push(d);
                }
            }
        }
        members.iter().all(|&c| seen[c])
    }

    /// The connected completions of a partial state.
    fn completions(graph: &Graph, state: &[State], root: Option<usize>) -> Vec<Vec<bool>> {
        let free: Vec<usize> = (0..state.len())
            .filter(|&c| state[c] == State::Free)
            .collect();
        let mut out = Vec::new();
        for mask in 0u32..(1 << free.len()) {
            let mut full: Vec<bool> = state.iter().map(|&s| s == State::In).collect();
            for (i, &c) in free.iter().enumerate() {
                full[c] = mask >> i & 1 == 1;
            }
            if connected(graph, &full, root) {
                out.push(full);
            }
        }
        out
    }

    /// On random partial states of small grids: every inference holds in every connected
    /// completion, a conflict means there is none, every explanation is falsified by the state
    /// and holds in every connected *level* (not only the completions), and on full
    /// assignments a conflict is found exactly when the level is disconnected.
    #[test]
    fn inferences_and_explanations_are_sound_and_full_assignments_are_judged_exactly() {
        let mut rng = SplitMix64::new(15);
        let mut scratch = Scratch::default();
        let (mut conflicts, mut outs, mut ins) = (0, 0, 0);
        for (w, h) in [(3, 3), (4, 3), (4, 4)] {
            let graph = Graph::grid(w, h);
            let n = w * h;
            // Every connected level (any root), as a bit mask of its In cells.
            let connected_levels: Vec<u32> = (0u32..(1 << n))
                .filter(|&m| {
                    let full: Vec<bool> = (0..n).map(|c| m >> c & 1 == 1).collect();
                    connected(&graph, &full, None)
                })
                .collect();
            for _ in 0..400 {
                let free_share = rng.next_u64() % 4;
                let state: Vec<State> = (0..n)
                    .map(|_| match rng.next_u64() % 4 {
                        x if x < free_share => State::Free,
                        x if x % 2 == 0 => State::In,
                        _ => State::Out,
                    })
                    .collect();
                let rooted = rng.next_u64().is_multiple_of(2);
                let Some(anchor) = (0..n).find(|&c| state[c] == State::In) else {
                    continue;
                };
                let root = rooted.then_some(anchor);
                let mut found = Vec::new();
                infer(&graph, &state, anchor, true, &mut scratch, &mut found);
                let comps = completions(&graph, &state, root);
                let is_out = |c: usize| state[c] == State::Out;
                let levels_ok = |clause: &[(usize, bool)]| {
                    connected_levels
                        .iter()
                        .filter(|&&m| root.is_none_or(|r| m >> r & 1 == 1))
                        .all(|&m| clause.iter().any(|&(c, pos)| (m >> c & 1 == 1) == pos))
                };
                let anchor_lit = if rooted { None } else { Some((anchor, false)) };
                for inf in &found {
                    let mut clause: Vec<(usize, bool)> = anchor_lit.into_iter().collect();
                    match *inf {
                        Inference::Conflict { cell } => {
                            conflicts += 1;
                            assert!(comps.is_empty(), "{state:?}: conflict at {cell}");
                            clause.push((cell, false));
                            let sep = separator(&graph, anchor, cell, &is_out, None, &mut scratch);
                            clause.extend(sep.iter().map(|&c| (c, true)));
                        }
                        Inference::Out { cell } => {
                            outs += 1;
                            assert!(comps.iter().all(|f| !f[cell]), "{state:?}: out {cell}");
                            clause.push((cell, false));
                            let sep = separator(&graph, anchor, cell, &is_out, None, &mut scratch);
                            clause.extend(sep.iter().map(|&c| (c, true)));
                        }
                        Inference::In { cell, witness } => {
                            ins += 1;
                            assert!(comps.iter().all(|f| f[cell]), "{state:?}: in {cell}");
                            assert_eq!(state[witness], State::In);
                            clause.push((cell, true));
                            clause.push((witness, false));
                            let sep = separator(
                                &graph,
                                anchor,
                                witness,
                                &is_out,
                                Some(cell),
                                &mut scratch,
                            );
                            clause.extend(sep.iter().filter(|&&c| c != cell).map(|&c| (c, true)));
                        }
                    }
                    // Falsified by the state, apart from the inferred literal.
                    for &(c, pos) in &clause {
                        let inferred = matches!(*inf, Inference::Out { cell } | Inference::In { cell, .. } if cell == c);
                        if !inferred {
                            assert_eq!(
                                state[c],
                                if pos { State::Out } else { State::In },
                                "{state:?}: {inf:?} explained by {clause:?}"
                            );
                        }
                    }
                    assert!(
                        levels_ok(&clause),
                        "{state:?}: {inf:?}: {clause:?} cuts a level"
                    );
                }
                if state.iter().all(|&s| s != State::Free) {
                    let full: Vec<bool> = state.iter().map(|&s| s == State::In).collect();
                    let conflict = found
                        .iter()
                        .any(|i| matches!(i, Inference::Conflict { .. }));
                    assert_eq!(conflict, !connected(&graph, &full, root), "{state:?}");
                }
            }
        }
        assert!(
            conflicts > 100 && outs > 100 && ins > 50,
            "{conflicts} {outs} {ins}"
        );
    }

    /// The interleaved [`separator`] picks exactly what the two whole borders would: the
    /// cell's when strictly shorter, else the anchor's (random states of small and long grids,
    /// with and without a cell to avoid).
    #[test]
    fn separator_is_the_shorter_of_the_two_whole_borders() {
        let mut rng = SplitMix64::new(42);
        let mut scratch = Scratch::default();
        let mut picked_cell_side = 0;
        for (w, h) in [(4, 4), (9, 5), (16, 3)] {
            let graph = Graph::grid(w, h);
            let n = w * h;
            for _ in 0..2000 {
                let out: Vec<bool> = (0..n).map(|_| rng.next_u64().is_multiple_of(3)).collect();
                let anchor = (rng.next_u64() % n as u64) as usize;
                let cell = (rng.next_u64() % n as u64) as usize;
                let avoid = rng
                    .next_u64()
                    .is_multiple_of(2)
                    .then(|| (rng.next_u64() % n as u64) as usize);
                let is_out = |c: usize| out[c];
                let (a, _) = border(&graph, anchor, &is_out, avoid, &mut scratch);
                let (b, _) = border(&graph, cell, &is_out, avoid, &mut scratch);
                let whole = if b.len() < a.len() { b } else { a.clone() };
                picked_cell_side += usize::from(whole != a);
                let got = separator(&graph, anchor, cell, &is_out, avoid, &mut scratch);
                assert_eq!(got, whole, "{w}x{h} {out:?} {anchor} {cell} {avoid:?}");
            }
        }
        assert!(picked_cell_side > 500, "{picked_cell_side}");
    }
}
