//! Connectivity: every cell of a class is reachable from a root through cells of the class
//! (4-neighbour) — sound and complete: a disconnected map is impossible, and every connected
//! map stays possible.
//!
//! # The eager encoding (what an exported CNF carries)
//! A *founded* reachability: every class cell `c` other than the root picks a parent
//! `par(c, d)` among its class neighbours, and parents must have a strictly smaller rank,
//! a binary number of `⌈log₂ cells⌉` bits per cell compared by a chain of `LT` literals
//! (`LT_i → ¬x_i ∨ y_i`, `LT_i → ¬x_i ∨ LT_{i−1}`, `LT_i → y_i ∨ LT_{i−1}`, `LT_{-1} = ⊥`; 3 clauses
//! and one variable per bit and directed edge, `LT_top = par`). Sound: following parents the
//! rank decreases, so the walk ends, and only at the root. Complete: a connected map has a BFS
//! tree; its depths are ranks. With `"root": "any"` the root is the first class cell in
//! row-major order (`r(c) ↔ class(c) ∧ ¬before(c)`, `before` a prefix-or chain), which also
//! breaks the symmetry between roots. Size at 32×32: 1,024 cells × 10 bits, 3,968 directed
//! edges → about 44,000 variables and 120,000 clauses.
//!
//! Layered reachability (`reach_t(c)` for t = 0..L) is complete only within `L` steps and
//! needs `L = cells` to be complete in general: 1,048,576 variables at 32×32 — rejected. The
//! issue measured a rank encoding at 304 s in CaDiCaL at 32×32; that is why [`super::solve`]
//! does not use this encoding (see below) — it is there for external solvers, for which
//! soundness and completeness matter more than speed.
//!
//! # The lazy cuts (what `solve` uses)
//! Solve with only the *small-fragment cuts* ([`small_component_cuts`]: no connected set of at
//! most 3 cells may be a component of its own while more class cells exist), flood-fill the
//! model, and for every component `C` that is not the root's (or, with root "any", not the
//! largest) add the separator clauses `¬f(u) ∨ ¬f(v) ∨ ⋁_{w ∈ R_r} f(w)` with `u ∈ C`, `R_r`
//! the ring of cells at grid distance exactly `r` from `C` (`r = 1` is the boundary `∂C`; up
//! to 3 rings) and `v` the main component's cell farthest from `C` (with a given root, `v` is
//! the root and `¬f(v)` is dropped: the root is pinned to the class). Every connected map
//! satisfies every such clause (a path from `u` to `v` crosses each ring), so no connected map
//! is lost; the loop ends when the model is connected, which a BFS checks, so no disconnected
//! map is returned. [`bridges`] picks, for the next round's phase hints, the cells of a shortest
//! way from each stray component to the main one. Measured numbers are in `FORMAT.md`.

use super::GridModel;
use super::model::{ConnMode, RuleTag};
use grim_solver::Lit;

/// Emits every connectivity rule: the root in any case, the founded encoding when eager.
pub(crate) fn encode(m: &mut GridModel, mode: ConnMode) {
    let rules = m.spec.connectivity.clone();
    for (i, rule) in rules.iter().enumerate() {
        m.tag(Some(RuleTag::Connectivity(i)));
        let class = m.class_lits(&rule.class);
        let cells = m.spec.cells();
        let (tt, ff) = (m.problem.always_true(), m.problem.always_false());
        let root_cell = rule.root.map(|(x, y)| m.spec.index(x, y));
        if let Some(r) = root_cell {
            m.problem.add_clause(&[class[r]], None);
        }
        match mode {
            ConnMode::Lazy => {
                small_component_cuts(m, &class, small_cut_size());
                continue;
            }
            ConnMode::Propagate => continue,
            ConnMode::Eager => {}
        }
        let root: Vec<Lit> = match root_cell {
            Some(r) => (0..cells).map(|c| if c == r { tt } else { ff }).collect(),
            None => {
                // r(c) ↔ class(c) ∧ ¬before(c); before(c+1) ↔ before(c) ∨ class(c).
                let mut before = ff;
                let mut roots = Vec::with_capacity(cells);
                for &f in class.iter() {
                    let r = m.problem.conj(&[f, !before]);
                    roots.push(r);
                    let next = m.problem.conj(&[!f, !before]);
                    before = !next;
                }
                roots
            }
        };
        if mode == ConnMode::Eager {
            founded(m, &class, &root, None);
        }
    }
    m.tag(None);
}

/// The cuts of every connected cell set `P` of at most `max_size` cells, added up front so
/// the lazy loop does not spend rounds on small fragments: `⋁_{u∈P} ¬f(u) ∨ ¬T_{|P|+1} ∨
/// ⋁_{w∈∂P} f(w)`, where `T_k` is implied by "at least `k` cells hold the class" (a
/// one-directional sequential counter). Sound: when `P` is all class, more class cells exist
/// and `∂P` holds none, `P` is a component that is not everything. Complete: in a connected
/// map, `T_k` may be false whenever fewer than `k` cells hold the class, and otherwise no `P`
/// is a component.
/// The largest fragment cut up front in lazy mode. Measured on the 32×32 dungeon (sorting-
/// network counts, seed 3, CPU s): 0 → 1.75, 1 → 6.4, 2 → 2.2, 3 → 3.9 with ∂C cuts only;
/// with rings and bridge hints 3 gave the fewest rounds (24 against 31 for 0). An
/// assumption that it generalises, not a measurement of other levels.
const SMALL_CUT_SIZE: usize = 3;

fn small_cut_size() -> usize {
    SMALL_CUT_SIZE
}

pub(crate) fn small_component_cuts(m: &mut GridModel, class: &[Lit], max_size: usize) {
    let cells = m.spec.cells();
    if max_size == 0 || cells <= 1 {
        return;
    }
    let (tt, ff) = (m.problem.always_true(), m.problem.always_false());
    // at_least[j] after the loop: "at least j+1 class cells" is implied.
    let k = max_size + 1;
    let mut at_least: Vec<Lit> = vec![ff; k];
    for &x in class {
        if x == ff {
            continue;
        }
        let mut next = at_least.clone();
        for j in 0..k {
            let below = if j == 0 { tt } else { at_least[j - 1] };
            if below == ff {
                break;
            }
            let o = m.problem.new_var().pos();
            m.problem.add_clause(&[!at_least[j], o], None);
            m.problem.add_clause(&[!below, !x, o], None);
            next[j] = o;
        }
        at_least = next;
    }
    for set in connected_sets(&m.spec, max_size) {
        if set.iter().any(|&u| class[u] == ff) {
            continue;
        }
        let mut clause: Vec<Lit> = set.iter().map(|&u| !class[u]).collect();
        clause.push(!at_least[set.len()]);
        let mut seen: Vec<usize> = Vec::new();
        for &u in &set {
            for w in m.spec.neighbours(u) {
                if !set.contains(&w) && !seen.contains(&w) {
                    seen.push(w);
                    clause.push(class[w]);
                }
            }
        }
        m.problem.add_clause(&clause, None);
    }
}

/// Every 4-connected set of at most `max_size` cells, each once (sorted cell lists), in a
/// deterministic order.
fn connected_sets(spec: &super::GridSpec, max_size: usize) -> Vec<Vec<usize>> {
    let mut all: std::collections::BTreeSet<Vec<usize>> = std::collections::BTreeSet::new();
    let mut frontier: Vec<Vec<usize>> = (0..spec.cells()).map(|c| vec![c]).collect();
    while let Some(set) = frontier.pop() {
        if !all.insert(set.clone()) || set.len() == max_size {
            continue;
        }
        for &u in &set {
            for w in spec.neighbours(u) {
                if !set.contains(&w) {
                    let mut bigger = set.clone();
                    bigger.push(w);
                    bigger.sort_unstable();
                    if !all.contains(&bigger) {
                        frontier.push(bigger);
                    }
                }
            }
        }
    }
    all.into_iter().collect()
}

/// The founded-reachability core shared with `paths`: every `reach[c]` that is not `base[c]`
/// has a parent neighbour `d` with `reach[d]`, `pass[d]` (when given) and a smaller rank.
pub(crate) fn founded(m: &mut GridModel, reach: &[Lit], base: &[Lit], pass: Option<&[Lit]>) {
    let cells = m.spec.cells();
    let bits = (usize::BITS - (cells.max(2) - 1).leading_zeros()) as usize;
    let rank: Vec<Vec<Lit>> = (0..cells)
        .map(|_| (0..bits).map(|_| m.problem.new_var().pos()).collect())
        .collect();
    let ff = m.problem.always_false();
    for c in 0..cells {
        if reach[c] == ff || base[c] == m.problem.always_true() {
            continue;
        }
        let mut support = vec![!reach[c], base[c]];
        let nbrs: Vec<usize> = m.spec.neighbours(c).collect();
        for d in nbrs {
            if reach[d] == ff {
                continue;
            }
            let par = m.problem.new_var().pos();
            support.push(par);
            m.problem.add_clause(&[!par, reach[d]], None);
            if let Some(pass) = pass {
                m.problem.add_clause(&[!par, pass[d]], None);
            }
            // par → rank(d) < rank(c), most significant bit first.
            let mut lt = par;
            for i in (0..bits).rev() {
                let (x, y) = (rank[d][i], rank[c][i]);
                let next = if i == 0 {
                    ff
                } else {
                    m.problem.new_var().pos()
                };
                m.problem.add_clause(&[!lt, !x, y], None);
                m.problem.add_clause(&[!lt, !x, next], None);
                m.problem.add_clause(&[!lt, y, next], None);
                lt = next;
            }
        }
        m.problem.add_clause(&support, None);
    }
}

/// The separator cuts for one rule on a level: `class[c]` is the class literal of cell `c`,
/// `holds[c]` whether the level has the class there, `root` the given root. Empty when the
/// class cells are connected (and, with a root, contain it).
pub(crate) fn cuts(
    spec: &super::GridSpec,
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
pub(crate) fn bridges(spec: &super::GridSpec, holds: &[bool], root: Option<usize>) -> Vec<usize> {
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
pub(crate) fn components(spec: &super::GridSpec, holds: &[bool]) -> Vec<Vec<usize>> {
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
