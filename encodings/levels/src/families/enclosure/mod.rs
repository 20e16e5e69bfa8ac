//! Enclosure: at least a given number (or fraction of the class) of `class` cells are sealed
//! off from the border.
//!
//! A cell is *exposed* when it lies on the border or touches an `open` cell that is reachable
//! from the border through `open` cells; a class cell that is not exposed is *sealed*. Encoded
//! with Horn clauses over `o(c)` = "c is open and reachable from the border":
//! `open(c) → o(c)` on the border and `open(c) ∧ o(d) → o(c)` for neighbours. Every solution's
//! `o` contains the true reachable set (the least model of the Horn clauses) and may claim more.
//! A sealed literal `s(c)` implies `class(c)`, `c` not on the border, and `¬o(d)` for every
//! neighbour `d`: so `s(c)` true means truly sealed (sound), and setting `o` to the least model
//! and `s` to the truth satisfies everything (complete). The count asks for *at least* `min`
//! sealed cells, the direction in which over-claiming `o` can only hurt the solver.
//!
//! A ceiling ("at most this much sealed") would be unsound with these clauses — the solver
//! could claim a sealed cell reachable — which is why the spec rejects `max` with an
//! explanation. Encoding a ceiling would need reachability defined both ways (a founded
//! encoding like `connectivity`'s), a different rule.
//!
//! The family is this file and `rule.rs` ([`rule::EnclosureRule`] and its reading); it has no
//! part in the search-time propagator (its Horn clauses propagate completely).

pub(crate) mod bound;
pub(crate) mod rule;

use crate::adders::ratio;
use crate::error::GridError;
use crate::family::{Family, Reading, SoftBound, Switch, tagged};
use crate::model::{GridModel, Mode};
use crate::spec::{Bound, GridSpec, RuleRef, RuleTag};
use rule::EnclosureRule;
use rule::NAME;

/// The family in the table (`families/mod.rs`).
pub(crate) struct Enclosure;

impl Family for Enclosure {
    fn fields(&self) -> &'static [&'static str] {
        &[NAME]
    }

    fn read(&self, at: &mut Reading<'_>) -> Result<(), GridError> {
        at.rules(NAME, rule::read_rule, |spec, rules| spec.enclosure = rules)
    }

    /// Emits every enclosure rule (and, but in the cut loop's model, the implied no-exposure
    /// clauses, see [`sealed_whole`]).
    fn encode(&self, m: &mut GridModel) {
        let mode = m.mode;
        let rules = m.spec.enclosure.clone();
        for (i, rule) in rules.iter().enumerate() {
            m.tag(Some(RuleTag::new(NAME, i)));
            let class = m.class_lits(&rule.class);
            let open = m.class_lits(&rule.open);
            let cells = m.spec.cells();
            let reach: Vec<_> = (0..cells).map(|_| m.problem.new_var().pos()).collect();
            for c in 0..cells {
                if m.spec.on_border(c) {
                    m.problem.add_clause(&[!open[c], reach[c]], None);
                }
                let nbrs: Vec<usize> = m.spec.neighbours(c).collect();
                for d in nbrs {
                    m.problem.add_clause(&[!open[c], !reach[d], reach[c]], None);
                }
            }
            let mut sealed = Vec::with_capacity(cells);
            for c in 0..cells {
                if m.spec.on_border(c) {
                    continue;
                }
                let s = m.problem.new_var().pos();
                m.problem.add_clause(&[!s, class[c]], None);
                let nbrs: Vec<usize> = m.spec.neighbours(c).collect();
                for d in nbrs {
                    m.problem.add_clause(&[!s, !reach[d]], None);
                }
                sealed.push(s);
            }
            if mode != Mode::Lazy && sealed_whole(m, rule) {
                // No class cell may be exposed: off the border, and no neighbour reachable.
                for c in 0..cells {
                    if m.spec.on_border(c) {
                        m.problem.add_clause(&[!class[c]], None);
                    }
                    let nbrs: Vec<usize> = m.spec.neighbours(c).collect();
                    for d in nbrs {
                        m.problem.add_clause(&[!class[c], !reach[d]], None);
                    }
                }
            }
            match rule.min {
                Bound::Absolute(n) => {
                    let n = usize::try_from(n).unwrap_or(usize::MAX);
                    let hi = sealed.len();
                    m.problem.count(&sealed, n, hi.max(n), rule.weight);
                }
                Bound::Ratio { .. } => {
                    let guard = rule.weight.map(|_| m.problem.new_var().pos());
                    ratio(
                        &mut m.problem,
                        &mut m.wished,
                        &sealed,
                        &class,
                        Some(rule.min),
                        None,
                        guard,
                    );
                    if let (Some(g), Some(w)) = (guard, rule.weight) {
                        m.problem.add_clause(&[!g], Some(w));
                    }
                }
            }
        }
        m.tag(None);
    }

    /// The hard enclosures (a soft one is a price, not a rule that can clash).
    fn clash_rules(&self, spec: &GridSpec) -> Vec<(RuleRef, Switch)> {
        let hard = (0..spec.enclosure.len()).filter(|&i| spec.enclosure[i].weight.is_none());
        tagged(spec, NAME, &["class", "open", "min"], hard)
    }

    /// The best bound of the hard rules with an absolute `min` (`bound.rs`): a ratio's floor
    /// depends on the level's class count, which the relaxation does not price.
    fn soft_bound(
        &self,
        m: &GridModel,
        costs: &[Vec<u64>],
        halt: &dyn Fn() -> bool,
    ) -> Option<SoftBound> {
        let spec = &m.spec;
        let mut best: Option<SoftBound> = None;
        for rule in spec.enclosure.iter().filter(|r| r.weight.is_none()) {
            let Bound::Absolute(k) = rule.min else {
                continue;
            };
            let Some(found) = rule_bound(spec, rule, k, costs, halt) else {
                continue;
            };
            if best.as_ref().is_none_or(|b| found.lower > b.lower) {
                best = Some(found);
            }
        }
        best
    }
}

/// The branch and bound's work per rule, in max flows times cells (each flow is over a
/// network of two nodes per cell): about 10,400 flows on a 12×12 site, where the slowest of
/// seeds 0–99 of both shipped sites needs 3,203 (site-12-15 seed 39, 0.21 CPU s in all), and
/// proportionally fewer on larger grids, so that a bound that does not close costs about a
/// second at most before the core-guided search goes on alone.
const BOUND_WORK: u64 = 1_500_000;

/// One rule's bound (see `bound.rs`): `None` when the relaxation says nothing (no sealed set
/// possible, or weights too large for its integer prices).
fn rule_bound(
    spec: &GridSpec,
    rule: &EnclosureRule,
    k: u64,
    costs: &[Vec<u64>],
    halt: &dyn Fn() -> bool,
) -> Option<SoftBound> {
    let cells = spec.cells();
    let k = usize::try_from(k).ok()?;
    if costs.len() != cells || k == 0 {
        return None;
    }
    let cheapest = |c: usize, keep: &dyn Fn(usize) -> bool| {
        (0..costs[c].len())
            .filter(|&t| keep(t))
            .min_by_key(|&t| (costs[c][t], t))
    };
    let any = |c: usize| cheapest(c, &|_| true);
    let closed = |c: usize| cheapest(c, &|t| !rule.open.get(t).copied().unwrap_or(false));
    let class = |c: usize| cheapest(c, &|t| rule.class.get(t).copied().unwrap_or(false));
    let mut base = 0u64;
    let (mut a, mut d) = (Vec::with_capacity(cells), Vec::with_capacity(cells));
    for c in 0..cells {
        let m0 = costs[c][any(c)?];
        base = base.checked_add(m0)?;
        a.push(closed(c).map(|t| costs[c][t] - m0));
        d.push(class(c).map(|t| costs[c][t] - m0));
    }
    let site = bound::Site {
        nbrs: (0..cells).map(|c| spec.neighbours(c).collect()).collect(),
        border: (0..cells).map(|c| spec.on_border(c)).collect(),
        a,
        d,
        k,
    };
    let relaxed = bound::least_inside(&site, BOUND_WORK / cells.max(1) as u64, halt)?;
    if relaxed.lower == u64::MAX {
        return None;
    }
    let lower = base.checked_add(relaxed.lower)?;
    // The witness: the k cheapest class cells inside, the rim closed, every other cell its
    // cheapest tile; it costs `base + f(I)`, so it is one only when that is `lower`.
    let witness = relaxed.best.and_then(|(cost, inside)| {
        if cost != relaxed.lower {
            return None;
        }
        let mut tiles: Vec<usize> = (0..cells).map(|c| any(c).unwrap_or(0)).collect();
        let mut inner: Vec<usize> = (0..cells).filter(|&c| inside[c]).collect();
        inner.sort_by_key(|&c| (site.d[c].unwrap_or(u64::MAX), c));
        for &c in inner.iter().take(k) {
            tiles[c] = class(c)?;
        }
        for c in 0..cells {
            if !inside[c] && site.nbrs[c].iter().any(|&m| inside[m]) {
                tiles[c] = closed(c)?;
            }
        }
        Some(tiles)
    });
    Some(SoftBound { lower, witness })
}

/// Whether a hard enclosure rule can only hold with every class cell sealed: its floor is
/// above 0, and a hard connectivity rule's class `K` has `class ⊆ K ⊆ open` (read from the
/// connectivity family's rules). Then exposure is
/// all or nothing: an exposed class cell is an open cell reachable from the border, so every
/// cell of its `K` component — all of `K`, connected — is reachable, and every class cell
/// exposed; a floor above 0 then forbids any exposure.
///
/// Why the clauses: the Horn encoding alone lets the search discover this one counted cell at
/// a time. On `benches/grid/keep-connected-16.json` (connected floor, at least half of it
/// sealed) and on `instances/grid/enclosure-soft-12.json` neither propagator nor cut loop
/// finished in 60 s without them (measured in FORMAT.md). They are implied, so every level
/// keeps them: the propagated model and the export (issue 40) carry them; the cut loop's model
/// does not, because the clash diagnosis builds that one and needs every clause to come from
/// one rule.
fn sealed_whole(m: &GridModel, rule: &EnclosureRule) -> bool {
    if rule.weight.is_some() || rule.min.fraction().0 == 0 {
        return false;
    }
    let subset = |a: &[bool], b: &[bool]| a.iter().zip(b).all(|(&x, &y)| !x || y);
    m.spec
        .connectivity
        .iter()
        .any(|k| subset(&rule.class, &k.class) && subset(&k.class, &rule.open))
}
