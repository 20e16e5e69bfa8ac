//! Layered reachability as clauses (issue 40): `g_t(c)` = "a walk of at most `t` steps from a
//! base cell, through `pass` cells, ends at `c`", the walk's length order-encoded per cell
//! (`g_{t−1}(c) → g_t(c)`), so a distance label is a ladder of literals that propagates in
//! both directions. Shared by the connectivity family (every class cell within `K` layers of
//! the root, the rest founded, `families/connectivity/encode.rs`) and the paths family (an end
//! within `max_length` steps, `families/paths/encode.rs`).
//!
//! Clauses, for each cell `c` and layer `t` in its window `[lo(c), hi(c)]` (outside it `g_t(c)`
//! is the constant false):
//! - `g_0(c) → base(c)` (`g_0` *is* `base` when the window starts at 0);
//! - support: `g_t(c) → g_{t−1}(c) ∨ ⋁_{d ~ c} g_{t−1}(d)`, without `g_{t−1}(c)` when `c`
//!   cannot be a base cell (`base(c)` the constant false): such a cell is reached after a
//!   neighbour at every layer, not only at its first;
//! - order: `g_{t−1}(c) → g_t(c)` inside the window;
//! - `g_{hi(c)}(c) → pass(c)` (with the order, every layer of `c` implies it).
//!
//! Only the justifying direction is encoded (a true `g` needs a walk; nothing forces `g` true),
//! which is all a rule of the form "every class cell is reached" or "some end is reached" needs.
//! **Sound**: a true `g_t(c)` has a chain of supports down to a base cell, each step to a
//! neighbour through `pass` cells. **Complete** within the windows: on the cells of a walk
//! chosen by the caller, `g_t(c) = [dist(c) ≤ t]` satisfies every clause as long as each
//! walk cell's window holds the layers from its distance up to where the caller reads it;
//! `lo(c)` must therefore be a lower bound on the distance (a BFS over the cells whose `pass`
//! is not constant false), and `hi(c)` at least the layer at which the caller needs `c`.
//! The support of a cell that is no base cell names its neighbours only: at any layer
//! `t > dist(c)` its predecessor `d` on the walk (`dist(d) = dist(c) − 1`) has `g_{t−1}(d)`
//! true, provided `t − 1 ≤ hi(d)`; every caller's `hi` changes by at most one between
//! neighbours that may pass (`lo + K`, `len − dist(·, to)`, and their maximum are BFS
//! distances shifted), so `hi(d) ≥ hi(c) − 1 ≥ t − 1`. Measured on the 64×64 cave (a fixed
//! root: every other cell loses a literal from each of its supports): 81.0 → 78.2 MB, the
//! solvers unchanged within the noise (`benches/results/issue40-export-2026-12-07b.md`); a
//! `"root": "any"` rule (the dungeons) is unchanged, every cell there may be the root.
//!
//! Why this and not binary ranks alone (`founded.rs`): a rank comparison is a chain of three
//! clauses per bit that propagates only once every higher bit is known, and CaDiCaL, Kissat
//! and grim-sat found no 32×32 dungeon in 20 s with it (`benches/results/issue40-export-
//! 2026-12-06.md`); the layers' support clauses fail as soon as a cell's neighbourhood is cut.

use crate::model::GridModel;
use grim_solver::Lit;
use std::collections::VecDeque;

/// The layer literals of every cell: `at(c, t)` reads one.
#[derive(Clone, Debug)]
pub(crate) struct Layers {
    /// Per cell, its window's first layer and the literals of the window.
    cells: Vec<(usize, Vec<Lit>)>,
    ff: Lit,
}

impl Layers {
    /// `g_t(c)` (the constant false outside `c`'s window).
    pub(crate) fn at(&self, c: usize, t: usize) -> Lit {
        let (lo, ref lits) = self.cells[c];
        if t < lo {
            return self.ff;
        }
        lits.get(t - lo).copied().unwrap_or(self.ff)
    }

    /// Per cell, its window's first layer and literals: what the model keeps of layers shared
    /// between rules (`GridModel::shared_layers`, which cannot name this module).
    pub(crate) fn windows(&self) -> Vec<(usize, Vec<Lit>)> {
        self.cells.clone()
    }

    /// Layers from [`Layers::windows`] again (`ff`: the constant false).
    pub(crate) fn from_windows(cells: Vec<(usize, Vec<Lit>)>, ff: Lit) -> Layers {
        Layers { cells, ff }
    }

    /// The literal of `c`'s last layer, or the constant false when `c` has no window.
    pub(crate) fn top(&self, c: usize) -> Lit {
        self.cells[c].1.last().copied().unwrap_or(self.ff)
    }
}

/// BFS distances (in steps) from the cells where `source` is not the constant false, walking
/// on from cells where `pass` is not (a cell is reached even when it cannot pass, but not left):
/// `usize::MAX` where nothing reaches. A lower bound on every level's walk distances: the
/// sources are the cells that may start (or end) a walk, whatever their own `pass`.
pub(crate) fn distances(m: &GridModel, source: &[Lit], pass: &[Lit]) -> Vec<usize> {
    let ff = m.problem.always_false();
    let cells = m.spec.cells();
    let mut dist = vec![usize::MAX; cells];
    let mut queue = VecDeque::new();
    for c in 0..cells {
        if source[c] != ff {
            dist[c] = 0;
            queue.push_back(c);
        }
    }
    while let Some(c) = queue.pop_front() {
        if pass[c] == ff && dist[c] > 0 {
            continue; // a walk may end here but not continue (a source may start one)
        }
        for d in m.spec.neighbours(c) {
            if dist[d] == usize::MAX {
                dist[d] = dist[c] + 1;
                queue.push_back(d);
            }
        }
    }
    dist
}

/// Builds the layers of the module doc: cell `c` gets layers `lo[c] ..= hi[c]` (none when
/// `lo[c] > hi[c]`, and none when `lo[c]` is `usize::MAX`, the mark [`distances`] leaves on a
/// cell no walk reaches: its window would otherwise end at a saturated `hi` and the layers
/// would never stop).
pub(crate) fn layered(
    m: &mut GridModel,
    pass: &[Lit],
    base: &[Lit],
    lo: &[usize],
    hi: &[usize],
) -> Layers {
    let cells = m.spec.cells();
    let ff = m.problem.always_false();
    let mut layers = Layers {
        cells: vec![(0, Vec::new()); cells],
        ff,
    };
    let open = |c: usize| lo[c] != usize::MAX && lo[c] <= hi[c] && pass[c] != ff;
    let top = (0..cells).filter(|&c| open(c)).map(|c| hi[c]).max();
    let Some(top) = top else { return layers };
    let first_var = m.problem.num_vars();
    // Layer by layer, so that layer t − 1 of every cell exists when t's supports are written.
    for t in 0..=top {
        for c in 0..cells {
            if t < lo[c] || t > hi[c] || !open(c) {
                continue;
            }
            let g = if t == 0 {
                base[c]
            } else {
                m.problem.new_var().pos()
            };
            if t > 0 {
                let mut support = vec![!g];
                if base[c] != ff {
                    // Only a base cell may be reached without a neighbour (module doc).
                    support.push(layers.at(c, t - 1));
                }
                let nbrs: Vec<usize> = m.spec.neighbours(c).collect();
                support.extend(nbrs.iter().map(|&d| layers.at(d, t - 1)));
                support.retain(|&l| l != ff);
                m.problem.add_clause(&support, None);
                let below = layers.at(c, t - 1);
                if below != ff {
                    m.problem.add_clause(&[!below, g], None);
                }
            }
            if layers.cells[c].1.is_empty() {
                layers.cells[c].0 = t;
            }
            layers.cells[c].1.push(g);
        }
    }
    // With fixed bases (a given root or path start: no base literal is a variable) the lower
    // half of these layers' variables (the early layers: they are made layer by layer) is
    // written as it is by the CNF export, the rest negated (`GridModel::export_negated`);
    // with a chosen base (`"root": "any"`) every layer is negated. Measured, not derived:
    // `benches/results/issue40-solvers-2026-12-07.md`.
    let tt = m.problem.always_true();
    if base.iter().all(|&b| b == tt || b == ff) {
        let end_var = m.problem.num_vars();
        m.export_plain
            .push(first_var..first_var + (end_var - first_var) / 2);
    }
    for c in 0..cells {
        let g = layers.top(c);
        if g != ff {
            m.problem.add_clause(&[!g, pass[c]], None);
        }
    }
    layers
}
