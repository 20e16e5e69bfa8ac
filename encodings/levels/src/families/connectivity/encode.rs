//! Connectivity: every cell of a class is reachable from a root through cells of the class
//! (4-neighbour) — sound and complete: a disconnected map is impossible, and every connected
//! map stays possible.
//!
//! # The eager encoding (what an exported CNF carries, issue 40)
//! Two parts, together sound and complete:
//! - **Layers** (`layered.rs`): `g_t(c)` = "a walk of at most `t` class cells leads from the
//!   root to `c`", order-encoded per cell, in the window `lo(c) ≤ t ≤ lo(c) + K`, `lo(c)` the
//!   BFS distance from the root over the cells the class may hold (0 everywhere for `"any"`)
//!   and `K = max(W, H)`. A class cell at most `K` steps farther than that bound is reached by
//!   a support clause per layer, which fails as soon as its neighbourhood is cut.
//! - **The founded fallback** (`founded.rs`): every class cell is either on its last layer
//!   (`g_{lo+K}(c)`) or has a parent class neighbour of strictly smaller binary rank. So a
//!   class cell farther than that (a long snake) stays possible — the layers alone would lose
//!   it, and complete layers need `K` = the number of cells (1,048,576 variables at 32×32).
//! - **A bounded path from the root through the class** (`paths` with `from` the root,
//!   `through` the class, `max_length = L`) widens the windows to its own, `hi(c) ≥ L −
//!   dist(c, to)`, and reads these layers (`GridModel::shared_layers`) instead of building a
//!   second copy over the same cells.
//!
//! Sound: following parents the rank decreases to a last-layer cell, whose supports lead to
//! the root. Complete: in a connected map, BFS depths give the layers (`g_t(c)` = depth ≤ t)
//! and the ranks (depth) of the cells beyond `K`. With `"root": "any"` the root is the first
//! class cell in row-major order (`r(c) ↔ class(c) ∧ ¬before(c)`, `before` a prefix-or
//! chain), which also breaks the symmetry between roots.
//!
//! Why: with the founded ranks alone (the export before issue 40) CaDiCaL 1.5.3, Kissat 4.0.4
//! and grim-sat found no 32×32 dungeon in 20 s; with layers up to `K = 32` and the fallback,
//! 0.24–0.35 s in CaDiCaL. `K` measured on dungeon-32 (CaDiCaL, CPU s, unary counts): 16 → over
//! 30 (the solver falls back on the ranks), 32 → 0.24, 64 → 0.33, 128 → 0.42, so the cap is
//! the grid's longer side (dungeon-64: 2.3 s at `K = 64`). Size at 64×64: 262,144 layer
//! variables, two clauses each, beside the fallback's ~600,000 clauses
//! (`benches/results/issue40-export-2026-12-06.md`). The window starts at `lo(c)` rather than
//! 0 since a fixed root far from the grid's far side (the 64×64 cave's, on its west edge:
//! 92 steps to the far corner) otherwise left the east to the ranks, the same failure as a
//! small `K`: that cave without its path went from no level in 40 s (CaDiCaL) to 9.7 s.

use super::rule::NAME;
use crate::families::paths::rule::Endpoint;
use crate::founded::founded;
use crate::layered::{distances, layered};
use crate::model::{GridModel, Mode, SharedLayers};
use crate::spec::RuleTag;
use crate::spec::{GridSpec, TileSet};
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
        m.part(format!("connectivity {i} root"));
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
            m.part(format!("connectivity {i} layers"));
            let k = layer_cap(&m.spec);
            let lo = distances(m, &root, &class);
            let mut hi: Vec<usize> = lo.iter().map(|&d| d.saturating_add(k)).collect();
            let path = root_cell.and_then(|r| shared_path(m, r, &rule.class));
            if let Some((len, to)) = &path {
                // The path's windows (see `families/paths/encode.rs`, `windowed`).
                let back = distances(m, to, &class);
                for c in 0..cells {
                    if let Some(h) = len.checked_sub(back[c].max(1))
                        && lo[c] != usize::MAX
                    {
                        hi[c] = hi[c].max(h);
                    }
                }
            }
            let layers = layered(m, &class, &root, &lo, &hi);
            if let (Some((len, _)), Some(r)) = (path, root_cell) {
                m.shared_layers.push(SharedLayers {
                    root: r,
                    class: rule.class.clone(),
                    len,
                    windows: layers.windows(),
                });
            }
            let near: Vec<Lit> = (0..cells).map(|c| layers.top(c)).collect();
            m.part(format!("connectivity {i} founded"));
            founded(m, &class, &near, None);
        }
    }
    m.tag(None);
}

/// The first bounded path from cell `root` through `class` whose layers this rule's can be
/// (the paths family reads them back from `GridModel::shared_layers`): its `max_length` and
/// its `to` literals.
fn shared_path(m: &mut GridModel, root: usize, class: &TileSet) -> Option<(usize, Vec<Lit>)> {
    let rule = m.spec.paths.iter().find(|p| {
        matches!(p.from, Endpoint::Cell(x, y) if m.spec.index(x, y) == root)
            && p.through == *class
            && p.max_length.is_some()
    })?;
    let (len, to) = (rule.max_length?, rule.to.clone());
    // The path's `to` literals, as `families/paths/encode.rs` makes them.
    let to = match to {
        Endpoint::Cell(x, y) => {
            let target = m.spec.index(x, y);
            let (tt, ff) = (m.problem.always_true(), m.problem.always_false());
            (0..m.spec.cells())
                .map(|c| if c == target { tt } else { ff })
                .collect()
        }
        Endpoint::Select(sel) => m.selection_lits(&sel),
    };
    Some((len, to))
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
