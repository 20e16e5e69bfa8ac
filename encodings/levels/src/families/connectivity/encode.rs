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
//! issue measured a rank encoding at 304 s in CaDiCaL at 32×32; that is why [`solve`](fn@crate::solve) does not
//! use this encoding by default (`cuts.rs`, `propagate.rs`) — it is there for external solvers, for
//! which soundness and completeness matter more than speed.

use super::rule::NAME;
use crate::founded::founded;
use crate::layered::{distances, layered};
use crate::model::{GridModel, Mode};
use crate::spec::GridSpec;
use crate::spec::RuleTag;
use grim_solver::Lit;

/// Per rule, the class literal of every cell (as the model encoded it) and the root cell.
pub(super) fn class_rules(m: &GridModel) -> Vec<(Vec<Lit>, Option<usize>)> {
    let spec = &m.spec;
    spec.connectivity
        .iter()
        .map(|r| {
            let lits = m.class_lits.get(&r.class).cloned().unwrap_or_default();
            (lits, r.root.map(|(x, y)| spec.index(x, y)))
        })
        .collect()
}

/// Emits every connectivity rule: the root in any case, the founded encoding when eager.
pub(super) fn encode(m: &mut GridModel) {
    let mode = m.mode;
    let rules = m.spec.connectivity.clone();
    for (i, rule) in rules.iter().enumerate() {
        m.tag(Some(RuleTag::new(NAME, i)));
        let class = m.class_lits(&rule.class);
        let cells = m.spec.cells();
        let (tt, ff) = (m.problem.always_true(), m.problem.always_false());
        let root_cell = rule.root.map(|(x, y)| m.spec.index(x, y));
        if let Some(r) = root_cell {
            m.problem.add_clause(&[class[r]], None);
        }
        match mode {
            Mode::Lazy => {
                small_component_cuts(m, &class, small_cut_size());
                continue;
            }
            Mode::Propagate => continue,
            Mode::Eager => {}
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
        if mode == Mode::Eager {
            let k = layer_cap(&m.spec);
            let lo = distances(m, &root, &class);
            let hi = vec![k; cells];
            let layers = layered(m, &class, &root, &lo, &hi);
            let near: Vec<Lit> = (0..cells).map(|c| layers.top(c)).collect();
            founded(m, &class, &near, None);
        }
    }
    m.tag(None);
}

/// The export's layer cap `K`: class cells within `K` steps of the root are reached by the
/// layers, the rest by the founded ranks from the layers' last one.
fn layer_cap(spec: &GridSpec) -> usize {
    spec.width.max(spec.height)
}

/// The largest fragment cut up front in lazy mode. Measured on the 32×32 dungeon (sorting-
/// network counts, seed 3, CPU s): 0 → 1.75, 1 → 6.4, 2 → 2.2, 3 → 3.9 with ∂C cuts only;
/// with rings and bridge hints 3 gave the fewest rounds (24 against 31 for 0). An
/// assumption that it generalises, not a measurement of other levels.
const SMALL_CUT_SIZE: usize = 3;

fn small_cut_size() -> usize {
    SMALL_CUT_SIZE
}

/// The cuts of every connected cell set `P` of at most `max_size` cells, added up front so
/// the lazy loop does not spend rounds on small fragments: `⋁_{u∈P} ¬f(u) ∨ ¬T_{|P|+1} ∨
/// ⋁_{w∈∂P} f(w)`, where `T_k` is implied by "at least `k` cells hold the class" (a
/// one-directional sequential counter). Sound: when `P` is all class, more class cells exist
/// and `∂P` holds none, `P` is a component that is not everything. Complete: in a connected
/// map, `T_k` may be false whenever fewer than `k` cells hold the class, and otherwise no `P`
/// is a component.
pub(super) fn small_component_cuts(m: &mut GridModel, class: &[Lit], max_size: usize) {
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
fn connected_sets(spec: &GridSpec, max_size: usize) -> Vec<Vec<usize>> {
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
