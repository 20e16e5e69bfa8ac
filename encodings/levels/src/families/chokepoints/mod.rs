//! Loops and chokepoints: the number of articulation cells of a class (`FORMAT.md`,
//! `chokepoints`) lies between `min` and `max`; `max: 0` is a class without chokepoints,
//! `loop: true` adds that every class cell lies on a cycle (DeBroglie's Loop).
//!
//! **Local clauses, in every model** (with `loop`): a class cell has a class neighbour, and two
//! neighbouring class cells have a third class cell beside one of them — no piece of one or
//! two cells. Without articulation cells, a piece of three or more cells is 2-connected, so
//! every cell of it lies on a cycle: with `max` 0 these clauses are exactly the rest of `loop`.
//!
//! **Export** (`Mode::Eager`): exact, and large. Per cell `v` that may hold the class with
//! two or more neighbours that may: a set `R_v` of cells, closed (a class neighbour of a cell
//! of `R_v`, other than `v`, is in `R_v`) and founded (every cell of `R_v` but the first class
//! neighbour of `v` has a parent in `R_v` of smaller rank, the ranks of `founded.rs`), so
//! `R_v` is exactly the piece of `v`'s first class neighbour once `v` is removed; `v` is an
//! articulation cell ⇔ it is in the class and some class neighbour is outside `R_v`, an
//! indicator defined both ways, counted by grim-encodings' cardinality. Sound and complete;
//! about `cells · (2 + bits + directed edges · (3 · bits + 3) / cells)` clauses per cell, so
//! quadratic in the cells: the build refuses it above `MAX_CHOKEPOINT_EXPORT_CLAUSES` (`spec/vocab.rs`) (16×16 fits,
//! 24×24 does not) and says so (`FieldProblem::ChokepointsExportTooLarge`); the in-process
//! solve does not need it. No chokepoint at all on a class a connectivity rule keeps in one
//! piece (the usual cave) exports in linear size instead: `st_numbering`.
//!
//! **Search** (`Mode::Propagate`): the part in `propagate.rs` (sides of the possible cells;
//! conflicts past `max`, and with `max` 0 the cells that would be chokepoints set false; the
//! exact count checked against `min` once the region is decided). **Cut loop** (`Mode::Lazy`,
//! the clash diagnosis): the same witness clauses for a level over `max`, and for a level
//! under `min` the clause that the region's class cells change.
//!
//! **Soft** (`weight`): one relaxation literal `g` (true: the level pays the weight) joins every
//! clause that constrains the class — `loop`'s local clauses, the export's bound on the
//! indicators or its st-numbering's two clauses per cell — and the part of the grid propagator
//! takes it as its guard (`propagate.rs`); `¬g` is a soft unit of the weight. The lazy model
//! has no cuts for a soft rule (a cut cannot be told whether the level already pays): it
//! encodes a soft rule as the export does, and refuses it where the export would. The clash
//! diagnosis drops soft rules (`open`): a price cannot clash.

pub(crate) mod rule;

mod cut;
mod fences;
mod propagate;

use crate::error::GridError;
use crate::family::{Family, Reading, Switch, tagged};
use crate::level::Level;
use crate::model::{GridModel, Mode};
use crate::spec::vocab::MAX_CHOKEPOINT_EXPORT_CLAUSES;
use crate::spec::{FieldProblem, GridSpec, RuleRef, RuleTag};
use cut::{IN, OPEN, OUT};
use grim_solver::Lit;
use rule::{ChokepointRule, NAME};
use std::sync::Arc;

/// The family in the table (`families/mod.rs`).
pub(crate) struct Chokepoints;

/// Per cell, its literal for `rule` (the constant false outside the region).
fn lits_of(m: &mut GridModel, rule: &ChokepointRule) -> Vec<Lit> {
    let class = m.class_lits(&rule.class);
    let ff = m.problem.always_false();
    (0..m.spec.cells())
        .map(|c| {
            let (x, y) = (c % m.spec.width, c / m.spec.width);
            if rule.region.contains(x, y) {
                class[c]
            } else {
                ff
            }
        })
        .collect()
}

/// The clauses of the exact encoding for `n` cells that may hold the class with `e` directed
/// edges between them: per such cell, `n` closure-and-support clauses, `e · (3 · bits + 3)`
/// for the parents, a few for the indicator.
fn estimate(n: u64, e: u64) -> u64 {
    let bits = u64::from(u64::BITS - n.max(2).saturating_sub(1).leading_zeros());
    n.saturating_mul(
        n.saturating_mul(2)
            .saturating_add(e.saturating_mul(3 * bits + 3))
            .saturating_add(8),
    )
}

impl Family for Chokepoints {
    fn fields(&self) -> &'static [&'static str] {
        &[NAME]
    }

    fn read(&self, at: &mut Reading<'_>) -> Result<(), GridError> {
        at.rules(NAME, rule::read_rule, |spec, rules| {
            spec.chokepoints = rules
        })
    }

    fn encode(&self, m: &mut GridModel) {
        let rules = m.spec.chokepoints.clone();
        let (tt, ff) = (m.problem.always_true(), m.problem.always_false());
        for (i, rule) in rules.iter().enumerate() {
            if rule.min == 0 && rule.max.is_none() {
                continue; // nothing to keep (a soft rule the diagnosis opened)
            }
            m.tag(Some(RuleTag::new(NAME, i)));
            let lits = lits_of(m, rule);
            let guard = rule.weight.map(|_| m.problem.new_var().pos());
            if rule.on_loop {
                local(m, &lits, guard);
            }
            // The lazy model has no cuts for a soft rule: it takes the export's encoding.
            let export = m.mode == Mode::Eager || (m.mode == Mode::Lazy && guard.is_some());
            // Whether the guard is what the rule pays by (not so for a soft exact count).
            let mut priced = true;
            match m.mode {
                _ if export && st_numbering_applies(&m.spec, rule) => {
                    st_numbering(m, &lits, guard);
                }
                _ if export => {
                    let n = lits.iter().filter(|&&l| l != ff).count() as u64;
                    let e = (0..m.spec.cells())
                        .filter(|&c| lits[c] != ff)
                        .map(|c| m.spec.neighbours(c).filter(|&d| lits[d] != ff).count() as u64)
                        .sum();
                    let clauses = estimate(n, e);
                    if clauses > MAX_CHOKEPOINT_EXPORT_CLAUSES {
                        m.refuse(GridError::Invalid {
                            field: format!("{NAME}[{i}]"),
                            problem: FieldProblem::ChokepointsExportTooLarge { clauses },
                        });
                        continue;
                    }
                    priced = exact(m, &lits, rule, guard);
                }
                Mode::Lazy | Mode::Eager => {}
                Mode::Propagate => {
                    let lit_of = lits.iter().map(|&l| (l != tt && l != ff).then_some(l));
                    let fixed = lits
                        .iter()
                        .map(|&l| match l {
                            l if l == tt => IN,
                            l if l == ff => OUT,
                            _ => OPEN,
                        })
                        .collect();
                    m.plans.push(Arc::new(propagate::Plan {
                        width: m.spec.width,
                        height: m.spec.height,
                        min: rule.min,
                        max: rule.max,
                        lit_of: lit_of.collect(),
                        fixed,
                        guard,
                    }));
                }
            }
            if let (Some(g), Some(w), true) = (guard, rule.weight, priced) {
                m.problem.add_clause(&[!g], Some(w));
            }
        }
        m.tag(None);
    }

    /// The hard chokepoint rules (a soft one is a price, not a rule that can clash).
    fn clash_rules(&self, spec: &GridSpec) -> Vec<(RuleRef, Switch)> {
        let hard = (0..spec.chokepoints.len()).filter(|&i| spec.chokepoints[i].weight.is_none());
        tagged(spec, NAME, &["class", "min", "max", "loop"], hard)
    }

    /// Soft rules leave the diagnosis: their clauses only cost, and the lazy model would
    /// otherwise give them the export's (perhaps refused) encoding.
    fn open(&self, spec: &mut GridSpec) {
        for rule in spec.chokepoints.iter_mut().filter(|r| r.weight.is_some()) {
            rule.min = 0;
            rule.max = None;
            rule.on_loop = false;
        }
    }

    fn cut_lits(&self, m: &GridModel) -> Vec<Lit> {
        let mut out = Vec::new();
        for rule in m.spec.chokepoints.iter().filter(|r| r.weight.is_none()) {
            if let Some(class) = m.class_lits.get(&rule.class) {
                out.extend(class.iter().copied());
            }
        }
        out
    }

    /// For a level over `max`: the witness clauses of `max + 1` of its articulation cells; under
    /// `min`: the clause that the region's class cells change.
    fn cuts(&self, m: &GridModel, level: &Level) -> Vec<(RuleTag, Vec<Lit>)> {
        let mut out = Vec::new();
        let (w, h) = (m.spec.width, m.spec.height);
        let (tt, ff) = (m.problem.always_true(), m.problem.always_false());
        for (i, rule) in m.spec.chokepoints.iter().enumerate() {
            if rule.weight.is_some() {
                continue;
            }
            let Some(class) = m.class_lits.get(&rule.class) else {
                continue;
            };
            let inside = |c: usize| rule.region.contains(c % w, c / w);
            let status: Vec<u8> = (0..m.spec.cells())
                .map(|c| {
                    if inside(c) && rule.class[level.tiles[c]] {
                        IN
                    } else {
                        OUT
                    }
                })
                .collect();
            let lit_of: Vec<Option<Lit>> = (0..m.spec.cells())
                .map(|c| (inside(c) && class[c] != tt && class[c] != ff).then_some(class[c]))
                .collect();
            let sides = cut::Sides::new(w, h, &status);
            let found = cut::certain(w, h, &status, &sides);
            let tag = RuleTag::new(NAME, i);
            if rule.max.is_some_and(|max| found.len() as u64 > max) {
                let take = rule.max.unwrap_or(0) as usize + 1;
                let mut clause = Vec::new();
                for &x in found.iter().take(take) {
                    clause.extend(cut::witness(w, h, &status, &lit_of, x));
                }
                clause.sort_unstable_by_key(|l| l.code());
                clause.dedup();
                out.push((tag, clause));
            } else if (found.len() as u64) < rule.min {
                let clause = lit_of
                    .iter()
                    .zip(&status)
                    .filter_map(|(l, &s)| l.map(|l| if s == IN { !l } else { l }))
                    .collect();
                out.push((tag, clause));
            }
        }
        out
    }
}

/// `loop`'s local clauses (see the module doc), each with a soft rule's `guard`.
fn local(m: &mut GridModel, lits: &[Lit], guard: Option<Lit>) {
    let ff = m.problem.always_false();
    for c in 0..m.spec.cells() {
        if lits[c] == ff {
            continue;
        }
        let nc: Vec<usize> = m.spec.neighbours(c).filter(|&d| lits[d] != ff).collect();
        let mut alone = vec![!lits[c]];
        alone.extend(nc.iter().map(|&d| lits[d]));
        alone.extend(guard);
        m.problem.add_clause(&alone, None);
        for &d in nc.iter().filter(|&&d| d > c) {
            let mut pair = vec![!lits[c], !lits[d]];
            let others = m
                .spec
                .neighbours(c)
                .chain(m.spec.neighbours(d))
                .filter(|&e| e != c && e != d && lits[e] != ff);
            pair.extend(others.map(|e| lits[e]));
            pair.extend(guard);
            m.problem.add_clause(&pair, None);
        }
    }
}

/// Whether the export may use [`st_numbering`]: no chokepoint at all (`max` 0 or `loop`) over
/// the whole grid, on a class a connectivity rule keeps in one piece — the case where "no
/// articulation cell" is "2-connected" (or at most two cells), which an st-numbering
/// characterises in linear size.
fn st_numbering_applies(spec: &GridSpec, rule: &ChokepointRule) -> bool {
    let whole = rule.region.x == 0
        && rule.region.y == 0
        && rule.region.w == spec.width
        && rule.region.h == spec.height;
    rule.max == Some(0) && whole && spec.connectivity.iter().any(|c| c.class == rule.class)
}

/// The export's linear encoding of "no articulation cell" for a connected class: an
/// **st-numbering** (Lempel, Even & Cederbaum 1967) of the class cells. `s` is the first class
/// cell in row-major order and `t` its east class neighbour, else its south one (`s` has no
/// class neighbour to the west or north); every class cell but `s` has a class neighbour of
/// smaller rank, every one but `t` a class neighbour of larger rank (binary ranks compared by
/// [`crate::founded::rank_below`], one literal per directed edge).
///
/// **Sound**: the least rank is `s`'s and the greatest `t`'s (every other cell has a smaller
/// and a larger neighbour). Remove any cell `v`: from a cell `u` of smaller rank than `v` the
/// ranks fall, without meeting `v`, to `s`; from one of larger rank they rise to `t`; removing
/// `s` (or `t`) every other cell still rises to `t` (falls to `s`); and `s`, `t` are
/// neighbours — so no cell cuts the class. With one cell (`t` absent) nothing is asked.
/// A soft rule's `guard` joins the two clauses per cell that ask for the neighbours (the
/// rest only defines literals).
/// **Complete**: a 2-connected graph has an st-numbering for each of its edges, and a class of
/// one or two connected cells satisfies the clauses with ranks 0 and 1. About
/// `directed edges · (3 · bits + 2)` clauses, against the quadratic [`exact`], so the
/// cave-sized grids that it refuses export.
fn st_numbering(m: &mut GridModel, lits: &[Lit], guard: Option<Lit>) {
    let ff = m.problem.always_false();
    let (w, cells) = (m.spec.width, m.spec.cells());
    // is_s[c] ↔ class(c) ∧ no class cell before c.
    let mut before = ff;
    let mut is_s = Vec::with_capacity(cells);
    for &f in lits {
        is_s.push(m.problem.conj(&[f, !before]));
        let none = m.problem.conj(&[!f, !before]);
        before = !none;
    }
    // is_t[c] ↔ (s west of c ∧ class(c)) ∨ (s north of c ∧ class(c) ∧ ¬class(east of s)).
    let is_t: Vec<Lit> = (0..cells)
        .map(|c| {
            let (x, y) = (c % w, c / w);
            let west = if x > 0 {
                m.problem.conj(&[is_s[c - 1], lits[c]])
            } else {
                ff
            };
            let north = match (y > 0, x + 1 < w) {
                (false, _) => ff,
                (true, true) => m.problem.conj(&[is_s[c - w], lits[c], !lits[c - w + 1]]),
                (true, false) => m.problem.conj(&[is_s[c - w], lits[c]]),
            };
            let neither = m.problem.conj(&[!west, !north]);
            !neither
        })
        .collect();
    // alone → no t (so s has no class neighbour: with connectivity, the class is {s}).
    let alone = m.problem.new_var().pos();
    for &t in &is_t {
        if t != ff {
            m.problem.add_clause(&[!alone, !t], None);
        }
    }
    let rank = crate::founded::class_ranks(m, lits);
    // below[a]: (b, lit) per class-possible neighbour b, lit → a and b hold the class and
    // rank(a) < rank(b).
    let mut below: Vec<Vec<(usize, Lit)>> = vec![Vec::new(); cells];
    for a in 0..cells {
        if lits[a] == ff {
            continue;
        }
        for b in m.spec.neighbours(a).collect::<Vec<_>>() {
            if lits[b] == ff {
                continue;
            }
            let lt = m.problem.new_var().pos();
            m.problem.add_clause(&[!lt, lits[a]], None);
            m.problem.add_clause(&[!lt, lits[b]], None);
            crate::founded::rank_below(m, lt, &rank[a], &rank[b]);
            below[a].push((b, lt));
        }
    }
    let lt = |a: usize, b: usize| below[a].iter().find(|&&(d, _)| d == b).map(|&(_, l)| l);
    for v in 0..cells {
        if lits[v] == ff {
            continue;
        }
        let mut down = vec![!lits[v], is_s[v]];
        down.extend(below[v].iter().filter_map(|&(u, _)| lt(u, v)));
        down.extend(guard);
        m.problem.add_clause(&down, None);
        let mut up = vec![!lits[v], is_t[v], alone];
        up.extend(below[v].iter().map(|&(_, l)| l));
        up.extend(guard);
        m.problem.add_clause(&up, None);
    }
}

/// The export's exact encoding (see the module doc); only the bound on the indicators carries
/// a soft rule's `guard` (the rest defines them). Whether `guard` is what the rule pays by
/// (see [`guarded_count`]).
fn exact(m: &mut GridModel, lits: &[Lit], rule: &ChokepointRule, guard: Option<Lit>) -> bool {
    let ff = m.problem.always_false();
    let cells = m.spec.cells();
    let n = lits.iter().filter(|&&l| l != ff).count();
    let bits = (usize::BITS - (n.max(2) - 1).leading_zeros()) as usize;
    let mut indicators = Vec::new();
    for v in 0..cells {
        if lits[v] == ff {
            continue;
        }
        let nv: Vec<usize> = m.spec.neighbours(v).filter(|&d| lits[d] != ff).collect();
        if nv.len() < 2 {
            continue; // removing v leaves its one neighbour's piece whole
        }
        // first[k]: nv[k] is the first class neighbour of v.
        let mut first = Vec::new();
        for k in 0..nv.len() {
            let f = m.problem.new_var().pos();
            m.problem.add_clause(&[!f, lits[nv[k]]], None);
            for &j in &nv[..k] {
                m.problem.add_clause(&[!f, !lits[j]], None);
            }
            let mut def = vec![f, !lits[nv[k]]];
            def.extend(nv[..k].iter().map(|&j| lits[j]));
            m.problem.add_clause(&def, None);
            first.push(f);
        }
        let reach: Vec<Lit> = (0..cells)
            .map(|c| {
                if c == v || lits[c] == ff {
                    ff
                } else {
                    m.problem.new_var().pos()
                }
            })
            .collect();
        let rank: Vec<Vec<Lit>> = (0..cells)
            .map(|c| {
                if reach[c] == ff {
                    Vec::new()
                } else {
                    (0..bits).map(|_| m.problem.new_var().pos()).collect()
                }
            })
            .collect();
        for (k, &f) in first.iter().enumerate() {
            m.problem.add_clause(&[!f, reach[nv[k]]], None);
        }
        for c in 0..cells {
            if reach[c] == ff {
                continue;
            }
            m.problem.add_clause(&[!reach[c], lits[c]], None);
            let mut support = vec![!reach[c]];
            if let Some(k) = nv.iter().position(|&x| x == c) {
                support.push(first[k]);
            }
            let nbrs: Vec<usize> = m.spec.neighbours(c).filter(|&d| reach[d] != ff).collect();
            for d in nbrs {
                // Closed: a class neighbour of a reached cell is reached.
                m.problem.add_clause(&[!reach[c], !lits[d], reach[d]], None);
                // Founded: a parent of smaller rank.
                let par = m.problem.new_var().pos();
                support.push(par);
                m.problem.add_clause(&[!par, reach[d]], None);
                crate::founded::rank_below(m, par, &rank[d], &rank[c]);
            }
            m.problem.add_clause(&support, None);
        }
        // out[k] ↔ class(nv[k]) ∧ ¬reach(nv[k]); a ↔ class(v) ∧ ⋁ out[k].
        let a = m.problem.new_var().pos();
        m.problem.add_clause(&[!a, lits[v]], None);
        let mut some = vec![!a];
        for &u in &nv {
            let o = m.problem.new_var().pos();
            m.problem.add_clause(&[!o, lits[u]], None);
            m.problem.add_clause(&[!o, !reach[u]], None);
            m.problem.add_clause(&[o, !lits[u], reach[u]], None);
            m.problem.add_clause(&[a, !lits[v], !o], None);
            some.push(o);
        }
        m.problem.add_clause(&some, None);
        indicators.push(a);
    }
    let hi = rule.max.map_or(indicators.len(), |x| {
        x.min(indicators.len() as u64) as usize
    });
    let lo = usize::try_from(rule.min).unwrap_or(usize::MAX);
    match (guard, rule.weight) {
        (Some(g), Some(w)) => guarded_count(m, &indicators, (lo, hi), g, w),
        _ => {
            m.problem.count(&indicators, lo, hi, None);
            true
        }
    }
}

/// `lo ≤ Σ indicators ≤ hi` of a soft rule of weight `w`: with `hi` 0 (no chokepoint, the
/// only bound `loop` allows) one clause `¬a ∨ g` per indicator, `g` the rule's guard, which
/// its `loop` clauses share; any other bound is a soft count of its own (`Problem::count`),
/// and `g` is then not used (returns false).
fn guarded_count(
    m: &mut GridModel,
    indicators: &[Lit],
    (lo, hi): (usize, usize),
    g: Lit,
    w: u64,
) -> bool {
    if lo == 0 && hi == 0 {
        for &a in indicators {
            m.problem.add_clause(&[!a, g], None);
        }
        return true;
    }
    m.problem.count(indicators, lo, hi, Some(w));
    false
}
