//! Paths: a 4-neighbour walk `c_0, …, c_k` with `c_0` a `from` cell, `c_k` a `to` cell, every
//! cell strictly between holding `through`, and `k ≤ max_length` when given.
//!
//! Only existence is required, so reachability is encoded in the justifying direction alone
//! (a reached literal needs a reason; nothing forces it true): any solution's reached cells
//! have a walk, and the true reachability of a level satisfies the clauses.
//! - **Bounded, in the export** (`max_length = L`, issue 40): `windowed` below — the walk's
//!   cells layered (`layered.rs`) only in the layers where a walk of at most `L` steps can
//!   pass them, one variable per cell and layer of the window.
//!   When a connectivity rule has the path's `from` cell as its root and its `through` as its
//!   class, the path reads that rule's layers instead (`on_shared`): the same walks, built once.
//! - **Bounded, in the cut loop's model**: layers `s_t(c)` = "a walk of at most `t` steps ends at
//!   `c`": `s_0(c) → from(c)`, `s_t(c) → s_{t−1}(c) ∨ ⋁_{d ~ c} q_{t−1}(d)` with
//!   `q_t(d) → s_t(d) ∧ (from(d) ∨ through(d))` (the walk may continue from `d`). Then
//!   `⋁_c g(c)`, `g(c) → to(c) ∧ s_L(c)`. `2·L·cells` variables: fine for the short paths a
//!   level asks for, and exact within `L` by construction.
//! - **Unbounded**: the founded encoding connectivity uses too (`founded.rs`: parent pointers with
//!   decreasing binary ranks), whose size does not grow with the length.
//!
//! Allowing a `from` cell in the middle of a walk changes nothing: the walk from that later
//! `from` cell is shorter and also valid.

use super::propagate::Plan;
use super::rule::NAME;
use super::rule::{Endpoint, PathRule};
use crate::founded::founded;
use crate::layered::{Layers, distances, layered};
use crate::model::{GridModel, Mode};
use crate::spec::RuleTag;
use grim_solver::Lit;
use std::sync::Arc;

/// Emits every path rule; in a propagated model only the end and `through` literals, left to
/// the grid propagator (`propagate.rs`), which checks them during the search.
pub(super) fn encode(m: &mut GridModel) {
    let rules = m.spec.paths.clone();
    let mut left = Vec::new();
    for (i, rule) in rules.iter().enumerate() {
        m.tag(Some(RuleTag::new(NAME, i)));
        if m.mode == Mode::Propagate {
            let from = endpoint_lits(m, &rule.from);
            let to = endpoint_lits(m, &rule.to);
            let through = m.class_lits(&rule.through);
            left.push((from, to, through, rule.max_length, rule.min_length));
        } else {
            m.part(format!("paths {i}"));
            encode_rule(m, rule);
        }
    }
    m.tag(None);
    if !left.is_empty() {
        m.plans.push(Arc::new(Plan(left)));
    }
}

/// One literal per cell for a path endpoint.
fn endpoint_lits(m: &mut GridModel, e: &Endpoint) -> Vec<Lit> {
    match e {
        Endpoint::Cell(x, y) => {
            let target = m.spec.index(*x, *y);
            let (tt, ff) = (m.problem.always_true(), m.problem.always_false());
            (0..m.spec.cells())
                .map(|c| if c == target { tt } else { ff })
                .collect()
        }
        Endpoint::Select(sel) => m.selection_lits(sel),
    }
}

fn encode_rule(m: &mut GridModel, rule: &PathRule) {
    let from = endpoint_lits(m, &rule.from);
    let to = endpoint_lits(m, &rule.to);
    let through = m.class_lits(&rule.through);
    if let Some(min) = rule.min_length {
        forbid_short(m, &from, &to, &through, min);
    }
    let cells = m.spec.cells();
    if let Some(reach) = on_shared(m, rule, &from, &to) {
        goal(m, &to, &reach);
        return;
    }
    // pass(d) → from(d) ∨ through(d).
    let pass: Vec<Lit> = (0..cells)
        .map(|d| {
            let p = m.problem.new_var().pos();
            m.problem.add_clause(&[!p, from[d], through[d]], None);
            p
        })
        .collect();
    let reach: Vec<Lit> = match rule.max_length {
        Some(len) if m.mode == Mode::Eager => windowed(m, &from, &to, &pass, len),
        Some(len) => {
            let mut s: Vec<Lit> = (0..cells).map(|_| m.problem.new_var().pos()).collect();
            for c in 0..cells {
                m.problem.add_clause(&[!s[c], from[c]], None);
            }
            for _ in 0..len {
                let q: Vec<Lit> = (0..cells)
                    .map(|d| {
                        let q = m.problem.new_var().pos();
                        m.problem.add_clause(&[!q, s[d]], None);
                        m.problem.add_clause(&[!q, pass[d]], None);
                        q
                    })
                    .collect();
                let next: Vec<Lit> = (0..cells)
                    .map(|c| {
                        let n = m.problem.new_var().pos();
                        let mut clause = vec![!n, s[c]];
                        clause.extend(m.spec.neighbours(c).map(|d| q[d]));
                        m.problem.add_clause(&clause, None);
                        n
                    })
                    .collect();
                s = next;
            }
            s
        }
        None => {
            let r: Vec<Lit> = (0..cells).map(|_| m.problem.new_var().pos()).collect();
            founded(m, &r, &from, Some(&pass));
            r
        }
    };
    goal(m, &to, &reach);
}

/// Some `to` cell is reached: `⋁_c g(c)`, `g(c) → to(c) ∧ reach(c)`.
fn goal(m: &mut GridModel, to: &[Lit], reach: &[Lit]) {
    let cells = m.spec.cells();
    let mut goal = Vec::with_capacity(cells);
    for c in 0..cells {
        let g = m.problem.new_var().pos();
        m.problem.add_clause(&[!g, to[c]], None);
        m.problem.add_clause(&[!g, reach[c]], None);
        goal.push(g);
    }
    m.problem.add_clause(&goal, None);
}

/// A bounded path from a connectivity rule's fixed root through its class, on that rule's
/// layers (`model::SharedLayers`, widened to this path's windows): `reach[c]` = "`c` is the root, or
/// a neighbour is reached within `max_length − 1` steps". `None` when no connectivity rule
/// built layers for this path. Why: on the 64×64 cave the path's own layers were a second
/// copy of the connectivity rule's over the same cells (864,000 clauses), and CaDiCaL found
/// no level in 40 s with both (`benches/results/issue40-export-2026-12-06.md`).
fn on_shared(m: &mut GridModel, rule: &PathRule, from: &[Lit], to: &[Lit]) -> Option<Vec<Lit>> {
    let Endpoint::Cell(x, y) = rule.from else {
        return None;
    };
    let len = rule.max_length?;
    let root = m.spec.index(x, y);
    let windows = m
        .shared_layers
        .iter()
        .find(|s| s.root == root && s.class == rule.through && s.len == len)?
        .windows
        .clone();
    let cells = m.spec.cells();
    let ff = m.problem.always_false();
    let shared = Layers::from_windows(windows, ff);
    let reach = (0..cells)
        .map(|c| {
            if to[c] == ff {
                return ff;
            }
            let r = m.problem.new_var().pos();
            let mut support = vec![!r, from[c]];
            if let Some(t) = len.checked_sub(1) {
                let nbrs: Vec<usize> = m.spec.neighbours(c).collect();
                support.extend(nbrs.iter().map(|&d| shared.at(d, t)));
            }
            m.problem.add_clause(&support, None);
            r
        })
        .collect();
    Some(reach)
}

/// The export's bounded path (issue 40): `reach[c]` = "a walk of at most `len` steps from a
/// `from` cell ends at `c`, its cells before `c` passable". The walk's cells before the end
/// are layered (`layered.rs`), each only in the layers where it can lie on a walk of at most
/// `len` steps from a `from` cell to a `to` cell — from its BFS distance to the `from` cells
/// to `len` minus its distance to the `to` cells (both over the cells not excluded outright),
/// so a 150-step path on the 64×64 cave builds a window per cell instead of 150 layers of
/// every cell; the end needs a `from` cell or a passable neighbour one layer lower.
/// Complete: on a shortest walk, every cell's distance lies in its window (module doc of
/// `layered.rs`).
fn windowed(m: &mut GridModel, from: &[Lit], to: &[Lit], pass: &[Lit], len: usize) -> Vec<Lit> {
    let cells = m.spec.cells();
    let ff = m.problem.always_false();
    let lo = distances(m, from, pass);
    let back = distances(m, to, pass);
    // A cell at layer t continues to a `to` cell at least back[c] steps away: t ≤ len − back.
    // The end itself is read one layer lower, so layers stop at len − 1.
    let hi: Vec<usize> = (0..cells)
        .map(|c| {
            let b = back[c].max(1);
            match len.checked_sub(b) {
                Some(h) if lo[c] != usize::MAX => h,
                _ => 0,
            }
        })
        .collect();
    let layers = if len == 0 {
        None
    } else {
        Some(layered(m, pass, from, &lo, &hi))
    };
    (0..cells)
        .map(|c| {
            if to[c] == ff {
                return ff;
            }
            let r = m.problem.new_var().pos();
            let mut support = vec![!r, from[c]];
            if let (Some(layers), Some(t)) = (&layers, len.checked_sub(1)) {
                let nbrs: Vec<usize> = m.spec.neighbours(c).collect();
                support.extend(nbrs.iter().map(|&d| layers.at(d, t.min(hi[d]))));
            }
            support.retain(|&l| l != ff);
            m.problem.add_clause(&support, None);
            r
        })
        .collect()
}

/// `min_length = L` in the clause models (export and cut loop): no walk of fewer than `L` steps
/// from a `from` cell to a `to` cell. Reachability is encoded in the **forcing** direction here
/// (the opposite of the path's own existence, which only needs reasons): `r_k(v)` = "some walk
/// of at most `k` steps from a `from` cell ends at `v`" is implied by
/// `from(v) → r_0(v)`, `r_k(v) → r_{k+1}(v)`, `r_0(u) → r_1(v)` and
/// `r_k(u) ∧ through(u) → r_{k+1}(v)` for each neighbour `u` of `v`; then
/// `¬(r_{L−1}(v) ∧ to(v))`. Sound: along a walk `c_0 … c_j` (`j < L`) the clauses force
/// `r_i(c_i)` one step at a time, so its end is forbidden. Complete: the true distances
/// (`r_k(v)` iff the level's shortest such walk to `v` has at most `k` steps) satisfy every
/// clause of a level that keeps the rule.
///
/// Windowed like the bounded path: `v` has layers only from `lo(v)` (its BFS distance from the
/// cells that may be `from`, over the cells that may be `through`) up to `L − 1 − back(v)`
/// (`back`: the same towards the cells that may be `to`) — on a too-short walk, `c_i` lies at
/// `lo(c_i) ≤ i ≤ L − 1 − back(c_i)`, so the walk's layers all exist; the others never take part
/// in forbidding anything, and a clause naming a missing layer is left out (a missing layer
/// below the window is false in every level; above it, unused).
fn forbid_short(m: &mut GridModel, from: &[Lit], to: &[Lit], through: &[Lit], min: usize) {
    let cells = m.spec.cells();
    let ff = m.problem.always_false();
    let lo = distances(m, from, through);
    let back = distances(m, to, through);
    let top = min - 1;
    // window[v] = (first layer, its literals); empty when v lies on no walk shorter than `min`.
    let mut window: Vec<(usize, Vec<Lit>)> = Vec::with_capacity(cells);
    for v in 0..cells {
        let (l, b) = (lo[v], back[v]);
        if l == usize::MAX || b == usize::MAX || l.saturating_add(b) > top {
            window.push((0, Vec::new()));
            continue;
        }
        let lits: Vec<Lit> = (l..=top - b).map(|_| m.problem.new_var().pos()).collect();
        for pair in lits.windows(2) {
            m.problem.add_clause(&[!pair[0], pair[1]], None);
        }
        window.push((l, lits));
    }
    let at = |window: &[(usize, Vec<Lit>)], v: usize, k: usize| -> Option<Lit> {
        let (first, lits) = &window[v];
        k.checked_sub(*first).and_then(|i| lits.get(i)).copied()
    };
    for v in 0..cells {
        if from[v] != ff
            && let Some(r0) = at(&window, v, 0)
        {
            m.problem.add_clause(&[!from[v], r0], None);
        }
        let (first, len) = (window[v].0, window[v].1.len());
        for k in first..first + len {
            let Some(r) = at(&window, v, k) else { continue };
            let nbrs: Vec<usize> = m.spec.neighbours(v).collect();
            for w in nbrs {
                let Some(next) = at(&window, w, k + 1) else {
                    continue;
                };
                if k == 0 {
                    m.problem.add_clause(&[!r, next], None);
                } else if through[v] != ff {
                    m.problem.add_clause(&[!r, !through[v], next], None);
                }
            }
        }
        if to[v] != ff
            && let Some(last) = at(&window, v, top)
        {
            m.problem.add_clause(&[!last, !to[v]], None);
        }
    }
}
