//! The export's counts (issue 40): every count unary, none binary, so that unit propagation
//! in any solver sees a bound as soon as it is reached.
//!
//! - Without `per`: the front end of `grim-encodings` (`Problem::count`), which picks
//!   pairwise, counter, totalizer or cardinality network (Asín et al., Constraints 2011) by
//!   measured size; for the large bounds of a level (floor 30–60 % of the grid) that is the
//!   cardinality network, `O(n log² k)`, arc-consistent.
//! - With `per` (`min·|B| ≤ |A| ≤ max·|B|`): both sides sorted by a network with both
//!   directions (`cardnet::sorted_outputs`: `A≥j` ⇔ at least `j` of `A`), then one clause per
//!   step of the bound: `B≥k → A≥⌈min·k⌉` for the floor and `A≥j → B≥⌈j/max⌉` for the ceiling,
//!   only at the `k` (`j`) where the needed count changes (the others are implied through the
//!   sorted outputs' order). Unit propagation then enforces the ratio on the sorted outputs.
//!
//! Why not the adder trees the in-process cut loop keeps (`encode.rs`): on the 32×32
//! dungeon with connectivity taken out, CaDiCaL 1.5.3 needed 2.4 CPU s on the adder export
//! (a sum in binary propagates nothing until every bit is known), and with the connectivity
//! rule in no solver finished in 20 s (`benches/results/issue40-export-2026-12-06.md`).
//!
//! A count of a tile set reads one class literal per cell (`y ↔ ⋁ tiles`, shared with the
//! other rules over the set), not every tile literal of the set: the same count with a third
//! of the inputs for a set of three tiles (the 64×64 cave's "open": 11,530 inputs → 3,843,
//! 144 MB → 88 MB for the whole export).
//!
//! Constants are folded before anything is built: a cell whose domain excludes the selection
//! is no input, one that must hold it shifts the bound.

use super::rule::{CountRule, NAME, bounds};
use crate::model::GridModel;
use crate::spec::{Bound, Region, RuleTag, Selection};
use grim_encodings::card::cardnet::sorted_outputs;
use grim_solver::Lit;
use std::collections::BTreeMap;

/// Sorted networks already built, by their non-constant inputs: a selection counted by
/// several rules (the floor's own bounds and the enemies' ratio to it) is sorted once.
type Cache = BTreeMap<Vec<Lit>, Vec<Lit>>;

/// Encodes every count rule (hard or soft) with unary structures only, each tagged by its
/// rule; see the module doc.
pub(super) fn encode_rules(m: &mut GridModel, rules: &[CountRule]) {
    let mut cache = Cache::new();
    // Selections that a ratio sorts in full: a plain count over the same cells asserts its
    // bounds on that network instead of building a cardinality network of its own.
    let mut shared: Vec<Vec<Lit>> = Vec::new();
    for rule in rules {
        if let Some(per) = &rule.per {
            let b = cell_lits(m, per, &rule.region);
            shared.push(free(m, &b));
        }
    }
    // The hard ceilings of plain counts, by their non-constant inputs, as a ceiling on how
    // many of those inputs may hold (the constants true taken off): a ratio over the same
    // cells never needs its sides past it.
    let mut caps: BTreeMap<Vec<Lit>, usize> = BTreeMap::new();
    for rule in rules {
        if rule.per.is_none() && rule.weight.is_none() {
            let a = cell_lits(m, &rule.of, &rule.region);
            let (_, hi) = bounds(rule, a.len());
            let free_a = free(m, &a);
            let cap = hi.saturating_sub(ones(m, &a));
            let e = caps.entry(free_a).or_insert(usize::MAX);
            *e = (*e).min(cap);
        }
    }
    for (i, rule) in rules.iter().enumerate() {
        m.tag(Some(RuleTag::new(NAME, i)));
        m.part(format!("counts {i}"));
        let a = cell_lits(m, &rule.of, &rule.region);
        let guard = rule.weight.map(|_| m.problem.new_var().pos());
        match &rule.per {
            None if shared.contains(&free(m, &a)) => {
                let (lo, hi) = bounds(rule, a.len());
                // Outputs past the bounds' are never read (a ratio over these cells reads only
                // up to the ceiling, see `ratio`).
                let s = Sorted::new(m, &mut cache, &a, lo.max(hi.saturating_add(1)));
                implies(m, Atom::True, s.at_least(lo), guard);
                implies(m, s.at_least(hi.saturating_add(1)), Atom::False, guard);
            }
            None => {
                let (lo, hi) = bounds(rule, a.len());
                m.problem.count(&a, lo, hi, rule.weight);
                continue; // the front end prices a soft bound itself
            }
            Some(per) => {
                let b = cell_lits(m, per, &rule.region);
                let cap = caps.get(&free(m, &b)).copied().unwrap_or(usize::MAX);
                let nb = ones(m, &b).saturating_add(cap).min(b.len());
                ratio(m, &mut cache, &a, (&b, nb), rule.min, rule.max, guard);
            }
        }
        if let (Some(g), Some(w)) = (guard, rule.weight) {
            m.problem.add_clause(&[!g], Some(w));
        }
    }
    m.tag(None);
}

/// One literal per cell of `region` for "the cell holds `sel`": a class literal (one per
/// cell, `y ↔ ⋁ tiles`, shared with connectivity and the other rules over the set) rather
/// than every tile literal of the set, which counts the same (a cell holds one tile) but
/// would feed a network `|set|` times as many inputs — on the 64×64 cave, "open" (three
/// tiles) went from 11,530 inputs to 3,843.
fn cell_lits(m: &mut GridModel, sel: &Selection, region: &Region) -> Vec<Lit> {
    match sel {
        Selection::Tiles(set) => {
            let lits = m.class_lits(set);
            let mut out = Vec::with_capacity(region.cells());
            for y in region.y..region.y + region.h {
                for x in region.x..region.x + region.w {
                    out.push(lits[m.spec.index(x, y)]);
                }
            }
            out
        }
        Selection::LayerValue { .. } => m.count_lits(sel, region),
    }
}

/// How many of `lits` are the constant true.
fn ones(m: &GridModel, lits: &[Lit]) -> usize {
    let tt = m.problem.always_true();
    lits.iter().filter(|&&l| l == tt).count()
}

/// The literals of `lits` that are not constants.
fn free(m: &GridModel, lits: &[Lit]) -> Vec<Lit> {
    let (tt, ff) = (m.problem.always_true(), m.problem.always_false());
    lits.iter()
        .copied()
        .filter(|&l| l != tt && l != ff)
        .collect()
}

/// A count in unary: `at_least(j)` is a literal (or a constant) for "at least `j` of the
/// literals are true".
struct Sorted {
    /// Literals fixed true among the inputs.
    ones: usize,
    /// Every input, the constants true included.
    total: usize,
    /// The sorted outputs of the rest, as far as built: `outs[i]` ⇔ at least `i + 1` of them.
    outs: Vec<Lit>,
}

/// What `at_least` answers: a literal, or a constant.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Atom {
    True,
    False,
    Lit(Lit),
}

impl Sorted {
    /// The sorted outputs of `lits` up to "at least `count`" (all of them for `usize::MAX`),
    /// from `cache` when a large enough network over the same inputs exists.
    fn new(m: &mut GridModel, cache: &mut Cache, lits: &[Lit], count: usize) -> Sorted {
        let tt = m.problem.always_true();
        let ones = lits.iter().filter(|&&l| l == tt).count();
        let free = free(m, lits);
        let total = ones + free.len();
        let want = count.saturating_sub(ones).min(free.len());
        let outs = match cache.get(&free) {
            Some(outs) if outs.len() >= want => outs.clone(),
            _ => {
                let outs = sorted_outputs(&mut m.problem, &free, want);
                cache.insert(free, outs.clone());
                outs
            }
        };
        Sorted { ones, total, outs }
    }

    fn len(&self) -> usize {
        self.total
    }

    /// "At least `j` inputs": a constant outside `1 ..= total`. A `j` beyond the outputs built
    /// is a caller's error (it sized the network too small); it answers `True` in release
    /// builds, which drops the clause — weaker, never wrong about a level.
    fn at_least(&self, j: usize) -> Atom {
        if j <= self.ones {
            Atom::True
        } else if j > self.total {
            Atom::False
        } else {
            match self.outs.get(j - self.ones - 1) {
                Some(&l) => Atom::Lit(l),
                None => {
                    debug_assert!(
                        false,
                        "at_least({j}) beyond the {} outputs built",
                        self.outs.len()
                    );
                    Atom::True
                }
            }
        }
    }
}

/// The clause `if → then` (or-ed with `guard`), with constants folded: nothing when it holds
/// anyway, the (guarded) empty clause when it cannot.
fn implies(m: &mut GridModel, cond: Atom, then: Atom, guard: Option<Lit>) {
    let mut clause: Vec<Lit> = guard.into_iter().collect();
    match cond {
        Atom::False => return,
        Atom::Lit(l) => clause.push(!l),
        Atom::True => {}
    }
    match then {
        Atom::True => return,
        Atom::Lit(l) => clause.push(l),
        Atom::False => {}
    }
    m.problem.add_clause(&clause, None);
}

/// `⌈x·num / den⌉` without overflow (`den > 0`).
fn ceil_mul(x: usize, num: u64, den: u64) -> usize {
    let p = x as u128 * num as u128;
    usize::try_from(p.div_ceil(den as u128)).unwrap_or(usize::MAX)
}

/// `min·|B| ≤ |A| ≤ max·|B|` on sorted outputs (see the module doc), every clause guarded.
/// `nb` is the most of `B` any level holds: `|B|`, or less when a hard plain count over the
/// same cells caps it (issue 40: dungeon-64's floor ≤ 60 % of 4,096 cells leaves the enemies'
/// ceiling at 491, not 819). `B` is sorted up to `nb + 1` (every `B≥k` with `k ≤ nb` is
/// read); `A` only as far as a clause reads it: `⌈min·nb⌉` for the floor, the first `j` whose
/// need exceeds `nb` for the ceiling, where `A≥j` is simply forbidden. Sound because the cap
/// is a hard rule (`B≥nb+1` is false in every level), complete because no level reads past it.
fn ratio(
    m: &mut GridModel,
    cache: &mut Cache,
    a: &[Lit],
    (b, nb): (&[Lit], usize),
    min: Option<Bound>,
    max: Option<Bound>,
    guard: Option<Lit>,
) {
    let mut reach_a = 0;
    if let Some((num, den)) = min.map(|x| x.fraction()) {
        reach_a = reach_a.max(ceil_mul(nb, num, den));
    }
    if let Some((num, den)) = max.map(|x| x.fraction()) {
        // The ceiling's loop stops at the first j with ⌈den·j/num⌉ > |B|: ⌊num·|B|/den⌋ + 1.
        let j = usize::try_from(nb as u128 * num as u128 / den as u128).unwrap_or(usize::MAX);
        reach_a = reach_a.max(j.saturating_add(1));
    }
    let sa = Sorted::new(m, cache, a, reach_a.min(a.len()));
    let sb = Sorted::new(m, cache, b, nb.saturating_add(1));
    if let Some((num, den)) = min.map(|x| x.fraction()) {
        // B≥k → A≥⌈num·k/den⌉, at each k where the need grows.
        let mut last = 0;
        for k in 1..=nb {
            let need = ceil_mul(k, num, den);
            if need > last {
                implies(m, sb.at_least(k), sa.at_least(need), guard);
                last = need;
            }
        }
    }
    if let Some((num, den)) = max.map(|x| x.fraction()) {
        // A≥j → B≥⌈den·j/num⌉ (no A at all when num = 0), at each j where the need grows,
        // up to the first j that no |B| allows.
        let mut last = 0;
        for j in 1..=sa.len() {
            let need = if num == 0 {
                usize::MAX
            } else {
                ceil_mul(j, den, num)
            };
            if need > nb {
                // No level has `need` of B (`nb` is B's hard ceiling): `j` of A is too many.
                implies(m, sa.at_least(j), Atom::False, guard);
                break;
            }
            if need > last {
                implies(m, sa.at_least(j), sb.at_least(need), guard);
                last = need;
            }
        }
    }
}
