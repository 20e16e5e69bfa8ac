//! Mazes: the `class` cells of a region form a forest — no cycle in the graph of their
//! 4-neighbour edges (`FORMAT.md`, `acyclic`). With connectivity on the same class, a tree:
//! a perfect maze, one walk between any two cells.
//!
//! **Export** (`Mode::Eager`, and soft rules in every model): a parent pointer per class cell
//! with ranks. Each class cell `c` may point at one class neighbour `d` (`p(c,d)`, at most
//! one per cell, pairwise), every edge between two class cells is a pointer one way or the
//! other (`class(c) ∧ class(d) → p(c,d) ∨ p(d,c)`), and a pointer goes to a strictly smaller
//! rank (`p(c,d) → rank(d) < rank(c)`, binary ranks of `⌈log₂ cells⌉` bits compared by a
//! chain of `LT` literals, the comparator of `founded.rs`). Sound: a cycle of `k` class cells
//! has `k` edges, each a pointer of one of its ends, and each cell points once, so the
//! pointers run round the cycle and the ranks would decrease forever. Complete: root every
//! tree of a forest, point each cell at its parent, rank it by its depth. The 2×2 blocks
//! (`¬a ∨ ¬b ∨ ¬c ∨ ¬d`) are added too: implied, and what unit propagation needs to see the
//! smallest cycles at once.
//!
//! Why ranks and not vertex elimination (Rankooh & Rintanen, AAAI 2022) for the order:
//! eliminating a cell adds a clause per ordered pair of its neighbours in the filled graph,
//! and a grid's fill grows with its side. Counted by `benches/grid/acyclic-elimination.py`:
//! at 16×16 greedy minimum degree takes 21,193 clauses against the ranks' 27,201, at 32×32
//! 235,950 against 136,065, and row-major order 15.4 million at 63×63 against 629,182 —
//! the ranks win from 32×32 on, where the benchmark specs are.
//!
//! **Search** (`Mode::Propagate`, hard rules): the 2×2 blocks, and a part of the grid
//! propagator (`propagate.rs`): a union-find over the cells certainly in the class; a conflict
//! when one closes a cycle (the cycle's cells are the reason), "not in the class" for an
//! undecided cell two of whose certain neighbours are already joined (the walk joining them is
//! the reason). **Cut loop** (`Mode::Lazy`, hard rules: the clash diagnosis): the 2×2 blocks,
//! and a cycle clause for each cycle of a level ([`Family::cuts`]).

pub(crate) mod rule;

mod propagate;

use crate::error::GridError;
use crate::family::{Family, Reading, Switch, tagged};
use crate::level::Level;
use crate::model::{GridModel, Mode};
use crate::spec::{GridSpec, Region, RuleRef, RuleTag};
use grim_solver::Lit;
use rule::NAME;
use std::collections::VecDeque;
use std::sync::Arc;

/// The family in the table (`families/mod.rs`).
pub(crate) struct Acyclic;

/// Cycles the cut loop adds per rule and round: enough to remove the small loops a relaxed
/// level has in one round, few enough that one round stays cheap (an assumption, not measured).
const CUTS_PER_ROUND: usize = 64;

/// Per cell of the grid, whether it lies in `r`.
pub(crate) fn inside(spec: &GridSpec, r: &Region) -> Vec<bool> {
    (0..spec.cells())
        .map(|c| r.contains(c % spec.width, c / spec.width))
        .collect()
}

/// The 2×2 blocks of `r`, each as its four cells.
fn blocks(spec: &GridSpec, r: &Region) -> Vec<[usize; 4]> {
    let mut out = Vec::new();
    for y in r.y..(r.y + r.h).saturating_sub(1) {
        for x in r.x..(r.x + r.w).saturating_sub(1) {
            let c = spec.index(x, y);
            out.push([c, c + 1, c + spec.width, c + spec.width + 1]);
        }
    }
    out
}

/// The cycles of the graph whose cells are `member` (4-neighbour edges): one simple cycle per
/// edge outside a spanning forest, at most `limit` of them, each as its cells.
pub(crate) fn cycles(spec: &GridSpec, member: &[bool], limit: usize) -> Vec<Vec<usize>> {
    let n = spec.cells();
    let mut root: Vec<usize> = (0..n).collect();
    let find = |root: &mut Vec<usize>, mut c: usize| {
        while root[c] != c {
            root[c] = root[root[c]];
            c = root[c];
        }
        c
    };
    let mut tree: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut out = Vec::new();
    for c in (0..n).filter(|&c| member[c]) {
        // Each edge once, from its west or north cell.
        let x = c % spec.width;
        let east = (x + 1 < spec.width).then_some(c + 1);
        let south = (c + spec.width < n).then_some(c + spec.width);
        for d in [east, south].into_iter().flatten().filter(|&d| member[d]) {
            let (a, b) = (find(&mut root, c), find(&mut root, d));
            if a != b {
                root[a] = b;
                tree[c].push(d);
                tree[d].push(c);
            } else if out.len() < limit {
                out.push(walk(&tree, c, d));
            }
        }
    }
    out
}

/// The walk from `a` to `b` in the forest `tree` (they are joined), both ends included.
fn walk(tree: &[Vec<usize>], a: usize, b: usize) -> Vec<usize> {
    let mut from = vec![usize::MAX; tree.len()];
    from[a] = a;
    let mut queue = VecDeque::from([a]);
    while let Some(c) = queue.pop_front() {
        if c == b {
            break;
        }
        for &d in &tree[c] {
            if from[d] == usize::MAX {
                from[d] = c;
                queue.push_back(d);
            }
        }
    }
    let mut path = vec![b];
    let mut c = b;
    while c != a && from[c] != usize::MAX {
        c = from[c];
        path.push(c);
    }
    path
}

impl Family for Acyclic {
    fn fields(&self) -> &'static [&'static str] {
        &[NAME]
    }

    fn read(&self, at: &mut Reading<'_>) -> Result<(), GridError> {
        at.rules(NAME, rule::read_rule, |spec, rules| spec.acyclic = rules)
    }

    fn encode(&self, m: &mut GridModel) {
        let rules = m.spec.acyclic.clone();
        let ff = m.problem.always_false();
        for (i, rule) in rules.iter().enumerate() {
            m.tag(Some(RuleTag::new(NAME, i)));
            let class = m.class_lits(&rule.class);
            let inside = inside(&m.spec, &rule.region);
            let lits: Vec<Lit> = (0..m.spec.cells())
                .map(|c| if inside[c] { class[c] } else { ff })
                .collect();
            let guard = rule.weight.map(|_| m.problem.new_var().pos());
            for b in blocks(&m.spec, &rule.region) {
                if b.iter().any(|&c| lits[c] == ff) {
                    continue;
                }
                let mut clause: Vec<Lit> = b.iter().map(|&c| !lits[c]).collect();
                clause.extend(guard);
                m.problem.add_clause(&clause, None);
            }
            // Cells the domains put in the class for certain: a cycle among them is no level.
            let tt = m.problem.always_true();
            let certain: Vec<bool> = lits.iter().map(|&l| l == tt).collect();
            if !cycles(&m.spec, &certain, 1).is_empty() {
                let clause: Vec<Lit> = guard.into_iter().collect();
                m.problem.add_clause(&clause, None);
            }
            let searched = guard.is_none() && m.mode != Mode::Eager;
            if !searched {
                ranked(m, &lits, guard);
            } else if m.mode == Mode::Propagate {
                m.plans.push(Arc::new(propagate::Plan {
                    width: m.spec.width,
                    height: m.spec.height,
                    lits: lits.clone(),
                    tt,
                    ff,
                }));
            }
            if let (Some(g), Some(w)) = (guard, rule.weight) {
                m.problem.add_clause(&[!g], Some(w));
            }
        }
        m.tag(None);
    }

    /// The hard acyclic rules (a soft one is a price, not a rule that can clash).
    fn clash_rules(&self, spec: &GridSpec) -> Vec<(RuleRef, Switch)> {
        let hard = (0..spec.acyclic.len()).filter(|&i| spec.acyclic[i].weight.is_none());
        tagged(spec, NAME, &["class", "region"], hard)
    }

    fn cut_lits(&self, m: &GridModel) -> Vec<Lit> {
        let mut out = Vec::new();
        for rule in m.spec.acyclic.iter().filter(|r| r.weight.is_none()) {
            if let Some(class) = m.class_lits.get(&rule.class) {
                out.extend(class.iter().copied());
            }
        }
        out
    }

    /// A clause per cycle of the level (at most [`CUTS_PER_ROUND`] per rule): not every cell
    /// of the cycle in the class.
    fn cuts(&self, m: &GridModel, level: &Level) -> Vec<(RuleTag, Vec<Lit>)> {
        let mut out = Vec::new();
        for (i, rule) in m.spec.acyclic.iter().enumerate() {
            if rule.weight.is_some() {
                continue;
            }
            let Some(class) = m.class_lits.get(&rule.class) else {
                continue;
            };
            let inside = inside(&m.spec, &rule.region);
            let member: Vec<bool> = (0..m.spec.cells())
                .map(|c| inside[c] && rule.class[level.tiles[c]])
                .collect();
            for cycle in cycles(&m.spec, &member, CUTS_PER_ROUND) {
                let clause = cycle.iter().map(|&c| !class[c]).collect();
                out.push((RuleTag::new(NAME, i), clause));
            }
        }
        out
    }
}

/// The export's encoding (see the module doc): parent pointers and ranks over the cells whose
/// literal is not constant false; every clause that constrains the class carries `guard` (a
/// soft rule's relaxation literal) when there is one.
fn ranked(m: &mut GridModel, lits: &[Lit], guard: Option<Lit>) {
    let ff = m.problem.always_false();
    let cells = m.spec.cells();
    let rank = crate::founded::class_ranks(m, lits);
    // p[c]: (d, p(c,d)) for each neighbour d that may hold the class.
    let mut pointer: Vec<Vec<(usize, Lit)>> = vec![Vec::new(); cells];
    for c in 0..cells {
        if lits[c] == ff {
            continue;
        }
        let nbrs: Vec<usize> = m.spec.neighbours(c).filter(|&d| lits[d] != ff).collect();
        for d in nbrs {
            let p = m.problem.new_var().pos();
            m.problem.add_clause(&[!p, lits[c]], None);
            m.problem.add_clause(&[!p, lits[d]], None);
            // p → rank(d) < rank(c).
            crate::founded::rank_below(m, p, &rank[d], &rank[c]);
            pointer[c].push((d, p));
        }
        let ps: Vec<Lit> = pointer[c].iter().map(|&(_, p)| p).collect();
        for (j, &a) in ps.iter().enumerate() {
            for &b in &ps[j + 1..] {
                m.problem.add_clause(&[!a, !b], None);
            }
        }
    }
    for c in 0..cells {
        for &(d, p) in &pointer[c] {
            if d < c {
                continue;
            }
            let Some(&(_, q)) = pointer[d].iter().find(|&&(e, _)| e == c) else {
                continue;
            };
            let mut clause = vec![!lits[c], !lits[d], p, q];
            clause.extend(guard);
            m.problem.add_clause(&clause, None);
        }
    }
}
