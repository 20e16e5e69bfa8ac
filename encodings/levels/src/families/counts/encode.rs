//! Counts: absolute, as a ratio of a region, or as a ratio of another selection's count.
//!
//! Bounds are fixed once a ratio of a region is rounded (`min` up, `max` down, in exact integer
//! arithmetic on the 6-decimal fraction). Small ones — at most [`SMALL`] on either side, like
//! "exactly one key", or any count over at most [`SMALL_LIST`] cells — go to
//! [`Problem::count`](grim_maxsat::problem::Problem::count), whose front end picks pairwise,
//! counter, totalizer or network by measured size and propagates completely.
//!
//! Large counts and ratios between selections (`per`: enemies on 5–20% of the floor, i.e.
//! `20·|E| ≥ |F|` and `5·|E| ≤ |F|`) are **binary**: each side is summed by an adder tree
//! (under `n` full adders of 14 clauses), multiplied by its constant with shifted additions,
//! and compared by a chain of 3 clauses per bit. The alternatives measured on the 32×32 dungeon
//! (floor 30–60% of 1,024 cells, enemies 5–20% of the floor; `solve` with lazy connectivity,
//! seeds 1–6, CPU seconds, `tests/grid_perf.rs`):
//!
//! | encoding of the floor count and the ratio | vars | clauses | CPU s (6 seeds) |
//! |---|---|---|---|
//! | cardinality network (front end) + two odd–even sorting networks | 138,622 | 416,065 | 3.9–5.7 (1 seed) |
//! | one shared sorting network for the floor + one for the enemies | 102,270 | 316,497 | 2.2–3.7 |
//! | binary adders (this) | 27,659 | 118,919 | 0.45–1.9 |
//!
//! Sorting networks propagate better (unit propagation completes the bounds), but `solve`
//! re-propagates the whole model after every round of connectivity cuts, and the networks were
//! three quarters of it. Wished values of the adder outputs are hinted like the cells', which
//! keeps the weak propagation from costing conflicts (the sorter version went from 6,392 to 4
//! conflicts on one seed once its nodes were hinted).
//!
//! Soft counts: the clauses that assert the bound carry a relaxation literal `r` and the soft
//! unit `¬r` carries the weight; the counters themselves stay hard (they only define sums).
//!
//! **The export** (issue 40) no longer uses the adders: `unary.rs` encodes every count of
//! the exported CNF with the front end or shared sorting networks (CaDiCaL: 2.4 s → 0.16 s on
//! the 32×32 dungeon's counts alone). The adders stay the cut loop's encoding.
//!
//! **In the search.** The adders are the cut loop's encoding. The model
//! the propagated solve uses (`ConnMode::Propagate`, the default of `solve`) leaves the large
//! counts and every ratio to the grid propagator instead (`propagate.rs`: one counter per rule,
//! no auxiliary variable), a soft one with its relaxation literal as a term heavy enough to
//! satisfy it alone. Measured on 64×64 maps (CPU s, seed 1): the cave with only "open 35–65 %"
//! and "water ≤ 10 %" beside its tiles and adjacency went from no level in 20 s (32,298
//! conflicts) to 0.07 s (0 conflicts); dungeon-64 seeds 1–5 from 0.49–1.28 s to 0.18–0.24 s.
//!
//! **Confinement** (all modes but the lazy one): a selection whose hard maximum over a region
//! is used up by hard minimums over disjoint regions inside it is excluded from the rest of
//! that region by unit clauses (see `confine`).

use super::ints::Builder;
use super::propagate::{Counts, Linear, Plan};
use super::rule::NAME;
use super::rule::{CountRule, bounds};
use crate::adders::{binary_at_least, binary_const, binary_count, ratio};
use crate::model::{GridModel, Mode};
use crate::spec::RuleTag;
use crate::spec::{Bound, Region};
use grim_solver::Lit;
use std::sync::Arc;

/// Bounds within this distance of 0 or of `n` use the front end's unary encodings.
pub(super) const SMALL: usize = 8;
/// Counts over at most this many literals use the front end's unary encodings.
pub(super) const SMALL_LIST: usize = 64;

/// Emits every count rule; in a propagated model the large ones are left to the grid
/// propagator (`propagate.rs`) instead.
pub(super) fn encode(m: &mut GridModel) {
    let mode = m.mode;
    let rules = m.spec.counts.clone();
    let mut left = Vec::new();
    let mut ints = (mode == Mode::Propagate && m.options.count_ints())
        .then(|| Builder::new(m.options.count_block()));
    if mode == Mode::Eager {
        super::unary::encode_rules(m, &rules);
    } else {
        for (i, rule) in rules.iter().enumerate() {
            m.tag(Some(RuleTag::new(NAME, i)));
            m.part(format!("counts {i}"));
            let left_to_search = match (&mut ints, mode) {
                (Some(b), _) => integers(m, rule, b),
                (None, Mode::Propagate) => checked(m, rule, &mut left),
                _ => false,
            };
            if !left_to_search {
                encode_rule(m, rule);
            }
        }
        if let Some(b) = &mut ints {
            small_bounds(m, &rules, b);
        }
    }
    m.tag(None);
    // Not in the lazy mode: the rule diagnosis (`clash.rs`) builds its model in it and needs
    // every clause to come from one rule, and a confinement comes from several.
    if mode != Mode::Lazy {
        m.part("counts confinement");
        confine(m);
    }
    if !left.is_empty() {
        m.plans.push(Arc::new(Plan(left)));
    }
    if let Some(b) = ints {
        m.part("counts integers");
        b.finish(m);
    }
}

/// A hard small count ("enemies ≤ 8") stays with the front end, but when a large count or a
/// ratio made an integer over the same cells its bounds go on that integer too (units on its
/// order literals, implied by the rule): "enemies ≥ ½ floor" with "floor ≥ 140" then meets
/// "enemies ≤ 8" at the root instead of after a search over every 8 enemies.
fn small_bounds(m: &mut GridModel, rules: &[CountRule], b: &mut Builder) {
    for (i, rule) in rules.iter().enumerate() {
        if rule.weight.is_some() || rule.per.is_some() {
            continue;
        }
        let a = m.count_lits(&rule.of, &rule.region);
        if large_bounds(rule, a.len()).is_some() || !b.has(&a) {
            continue;
        }
        let (lo, hi) = bounds(rule, a.len());
        m.tag(Some(RuleTag::new(NAME, i)));
        b.count(m, &a, lo, hi, None);
    }
}

/// [`checked`] with integers (`ints.rs`): leaves `rule` to the integer part when it is large
/// or a ratio, as [`checked`] leaves it to the counters; returns whether it did. Small counts
/// ("exactly one key") stay with the front end: as integers over a whole map they cost an
/// order literal per cell each (arena-mirrored-64: 1.1–3.2 s → 2.6–10.7 s, seeds 1–3).
fn integers(m: &mut GridModel, rule: &CountRule, b: &mut Builder) -> bool {
    let a = m.count_lits(&rule.of, &rule.region);
    if rule.per.is_none() && large_bounds(rule, a.len()).is_none() {
        return false;
    }
    let guard = rule.weight.map(|_| m.problem.new_var().pos());
    match &rule.per {
        None => {
            let (lo, hi) = bounds(rule, a.len());
            b.count(m, &a, lo, hi, guard);
        }
        Some(per) => {
            let pb = m.count_lits(per, &rule.region);
            if let Some(lo) = rule.min
                && !b.ratio(m, &a, &pb, lo.fraction(), guard)
            {
                return false;
            }
            if let Some(hi) = rule.max {
                let (num, den) = hi.fraction();
                // |A| ≤ (num/den)·|B|: num·|B| ≥ den·|A|, the same row with the roles swapped.
                if !b.ratio(m, &pb, &a, (den, num), guard) {
                    return false;
                }
            }
        }
    }
    if let (Some(g), Some(w)) = (guard, rule.weight) {
        m.problem.add_clause(&[!g], Some(w));
    }
    true
}

/// Cells a selection cannot hold because the hard counts confine it elsewhere: when a region
/// allows at most `M` cells of a selection and disjoint regions inside it each need some,
/// together at least `M`, the rest of the region holds none. "One exit, in the east quarter"
/// is the common case: the exit literal of every western cell becomes a unit.
///
/// The clauses are implied by the counts, so no level is lost; they are added because unit
/// propagation cannot derive them from the counts' encodings (an at-most-one and a clause over
/// the east quarter say nothing about a western cell until an exit is placed), and a search
/// that does not know them places the exit of a bounded path (`families/paths/`) at the
/// nearest cell first and learns its way east one cell per conflict. On the 64×64 cave
/// (`instances/grid/cave-64.json`) it is the difference between a level in a fraction of a
/// second and none in 60 s.
fn confine(m: &mut GridModel) {
    let rules = m.spec.counts.clone();
    let hard = |r: &CountRule| r.weight.is_none() && r.per.is_none();
    for (i, cap) in rules.iter().enumerate() {
        let Some(max) = cap.max.filter(|_| hard(cap)) else {
            continue;
        };
        let limit = max.upper(cap.region.cells() as u64);
        // Disjoint regions inside `cap`'s that need cells of the same selection, greedily by
        // need.
        let mut needs: Vec<(u64, &CountRule)> = rules
            .iter()
            .filter(|r| hard(r) && r.of == cap.of && inside(&r.region, &cap.region))
            .filter_map(|r| {
                let need = r.min?.lower(r.region.cells() as u64);
                (need > 0 && r.region != cap.region).then_some((need, r))
            })
            .collect();
        needs.sort_by_key(|&(n, r)| (std::cmp::Reverse(n), r.region.x, r.region.y));
        let mut chosen: Vec<&Region> = Vec::new();
        let mut total = 0u64;
        for (need, r) in needs {
            if chosen.iter().all(|c| disjoint(c, &r.region)) {
                chosen.push(&r.region);
                total += need;
            }
        }
        if chosen.is_empty() || total < limit {
            continue;
        }
        m.tag(Some(RuleTag::new(NAME, i)));
        let reg = &cap.region;
        for y in reg.y..reg.y + reg.h {
            for x in reg.x..reg.x + reg.w {
                if chosen.iter().any(|c| c.contains(x, y)) {
                    continue;
                }
                let one = Region { x, y, w: 1, h: 1 };
                for l in m.count_lits(&cap.of, &one) {
                    m.problem.add_clause(&[!l], None);
                }
            }
        }
        m.tag(None);
    }
}

/// Whether region `a` lies inside region `b`.
fn inside(a: &Region, b: &Region) -> bool {
    a.x >= b.x && a.y >= b.y && a.x + a.w <= b.x + b.w && a.y + a.h <= b.y + b.h
}

/// Whether regions `a` and `b` share no cell.
fn disjoint(a: &Region, b: &Region) -> bool {
    a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y
}

/// Leaves `rule` to the propagator when it is large (as [`encode_rule`] would use adders) and
/// some assignment satisfies it; returns whether it did. A soft rule's terms get its guard,
/// heavy enough to satisfy the bound alone.
fn checked(m: &mut GridModel, rule: &CountRule, left: &mut Vec<Linear>) -> bool {
    let a = m.count_lits(&rule.of, &rule.region);
    let mut rows: Vec<Linear> = Vec::new();
    match &rule.per {
        None => {
            let Some((lo, hi)) = large_bounds(rule, a.len()) else {
                return false;
            };
            if lo > 0 {
                rows.push((a.iter().map(|&l| (1, l)).collect(), lo as u64));
            }
            if hi < a.len() {
                rows.push((a.iter().map(|&l| (1, !l)).collect(), (a.len() - hi) as u64));
            }
        }
        Some(per) => {
            let b = m.count_lits(per, &rule.region);
            // min·|B| ≤ |A|: den·Σa + num·Σ¬b ≥ num·|B|; |A| ≤ max·|B|: the same with the
            // roles exchanged.
            let mut side = |bound: Option<Bound>, x: &[Lit], y: &[Lit], flip| {
                if let Some(bound) = bound {
                    let (num, den) = bound.fraction();
                    let (kx, ky) = if flip { (num, den) } else { (den, num) };
                    let terms: Vec<(u64, Lit)> = x
                        .iter()
                        .map(|&l| (kx, l))
                        .chain(y.iter().map(|&l| (ky, !l)))
                        .collect();
                    let total = ky.checked_mul(y.len() as u64);
                    rows.push((terms, total.unwrap_or(u64::MAX)));
                }
            };
            side(rule.min, &a, &b, false);
            side(rule.max, &b, &a, true);
        }
    }
    let guard = rule.weight.map(|_| m.problem.new_var().pos());
    if let Some(g) = guard {
        for (terms, bound) in &mut rows {
            terms.push((*bound, g));
        }
    }
    let mut probe = Counts::default();
    if rows
        .iter()
        .any(|(t, b)| *b == u64::MAX || !probe.add(t, *b))
    {
        return false; // the encoding states the contradiction (an unused guard is harmless)
    }
    left.extend(rows);
    if let (Some(g), Some(w)) = (guard, rule.weight) {
        m.problem.add_clause(&[!g], Some(w));
    }
    true
}

/// [`bounds`] when the count is large (neither bound within [`SMALL`] of its end, over more
/// than [`SMALL_LIST`] literals) and not contradictory; `None` sends it to the front end.
pub(super) fn large_bounds(rule: &CountRule, n: usize) -> Option<(usize, usize)> {
    let (lo, hi) = bounds(rule, n);
    let small = n <= SMALL_LIST || hi <= SMALL || n.saturating_sub(lo) <= SMALL;
    (!small && lo <= hi && lo <= n).then_some((lo, hi))
}

fn encode_rule(m: &mut GridModel, rule: &CountRule) {
    let a = m.count_lits(&rule.of, &rule.region);
    let guard;
    match &rule.per {
        None => {
            let Some((lo, hi)) = large_bounds(rule, a.len()) else {
                let (lo, hi) = bounds(rule, a.len());
                m.problem.count(&a, lo, hi, rule.weight);
                return;
            };
            guard = rule.weight.map(|_| m.problem.new_var().pos());
            let sa = binary_count(&mut m.problem, &mut m.wished, &a);
            if lo > 0 {
                let k = binary_const(&m.problem, lo as u64);
                binary_at_least(&mut m.problem, &sa, &k, guard);
            }
            if hi < a.len() {
                let k = binary_const(&m.problem, hi as u64);
                binary_at_least(&mut m.problem, &k, &sa, guard);
            }
        }
        Some(per) => {
            let b = m.count_lits(per, &rule.region);
            guard = rule.weight.map(|_| m.problem.new_var().pos());
            ratio(
                &mut m.problem,
                &mut m.wished,
                &a,
                &b,
                rule.min,
                rule.max,
                guard,
            );
        }
    }
    if let (Some(g), Some(w)) = (guard, rule.weight) {
        m.problem.add_clause(&[!g], Some(w));
    }
}
