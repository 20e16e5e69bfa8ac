//! The bounds presolve: interval reasoning over the counts before any search, so that rules
//! which contradict by arithmetic answer "no level" at once, and the bounds they imply reach
//! the encoder.
//!
//! Why it exists: in the propagated solve a large count is a linear row whose conflicts are
//! explained by the cells it counts; two counts that contradict by arithmetic ("water ≤ 30"
//! beside "water ≥ 40" on a 20×20 grid, or "enemies ≤ 8", "enemies ≥ ½ floor", "floor ≥ 35 %")
//! then cost an exponential search (issue 41: no answer in 12 minutes), though three lines of
//! arithmetic settle them. This module does those lines.
//!
//! **What it reasons about.** The cells are split into *atoms*: cells in the same count regions
//! with the same domain. Per atom and tile an integer `x[t][A]` (how many of its cells hold `t`),
//! per atom and layer value `y[l][v][A]`, and per counted `(selection, region)` an integer `N`.
//! The rows, all linear, are propagated to a fixpoint by interval (bounds) propagation:
//!
//! - each atom's tiles, and each layer's values, sum to its size;
//! - `N` is the sum of its selection over the atoms inside its region (nested, overlapping and
//!   disjoint regions are all just sums over shared atoms — this extends the counts family's
//!   confinement, which handled disjoint regions inside one cap);
//! - a count rule bounds its `N`; a ratio (`per`) is `den·N(of) ≥ num·N(per)` (and `≤` for the
//!   max), in exact integers;
//! - a layer value with `requires` counts at most the cells of its tiles in every atom;
//! - the domains (mask, pins, `allowed`) fix `x[t][A] = 0` for the tiles an atom's cells cannot
//!   hold;
//! - **reachability** from a connectivity root: only the cells the root reaches through cells
//!   whose domain allows the class can hold the class (a rule without a root uses a cell the
//!   domains force into the class, when there is one). Cells cut off lose the class's tiles.
//! - **ratio cycles** (`ratio_cycles`): the ratio rows and the containments between counted
//!   quantities (`containments`) read as `a ≤ f·b`; the cheapest product of every cycle is
//!   found by Floyd–Warshall over exact fractions, and a quantity on a cycle below 1 is 0 —
//!   the Fourier–Motzkin elimination of the cycle's rows, which bounds propagation can only
//!   approach one unit a visit (`water ≤ 0.999·lava`, `lava ≤ 0.999·water`: ~400 visits per
//!   row on a 20×20 grid, past [`ROW_VISITS`]). Its reasons are the cycle's rules.
//! - **distance** (`Cells::far_rows`): once the bounds put a cell of a rooted connectivity
//!   class in a count region the root lies outside, the class holds at least as many cells
//!   outside the region as the fewest steps from the root to it through cells that may hold
//!   the class (the connecting walk's cells before it enters). Its reasons: the rule, the
//!   root, the exclusions that make the walk that long, and the bound that needs the cell.
//!
//! Tiles an atom can no longer hold (`x[t][A] ≤ 0`) or must hold everywhere leave the domains,
//! and the rounds repeat (reachability sees the narrower domains) until nothing changes.
//!
//! **Provenance.** Every bound carries the set of rules ([`Fact`]) it was derived from: a domain
//! exclusion its restriction, an unreachable cell the connectivity rule and the exclusions
//! that wall the root in, a propagated bound its row's rule and the bounds the row read. An
//! empty interval is answered with the union of its two bounds' sets, a superset of rules
//! that admits no level; the clash stage (`clash.rs`) shrinks it by deletion, first with this
//! presolve as the oracle (cheap), then with the engine (the same deletion as for a proof by
//! search).
//!
//! The reasoning is sound (every bound holds in every level of the active rules), so a
//! tightened bound loses no level; it is not complete, and anything it misses is left to the
//! search. The propagation is capped ([`ROW_VISITS`]) because ratio rows can step a bound down
//! one unit per visit; a cap that cuts it short only leaves bounds looser.

use crate::error::GridError;
use crate::spec::problem::FieldProblem;
use crate::spec::{Bound, CountRule, GridSpec, Region, Selection, TileSet};
use std::collections::BTreeMap;
use std::rc::Rc;

/// A rule the presolve reasons from, in the families' own numbering.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Fact {
    /// A cell restriction (`GridSpec::origins.domain[i]`: a mask character, a pin, an
    /// `allowed` entry).
    Domain(usize),
    /// `counts[i]` (hard ones only take part).
    Count(usize),
    /// `layers[l].values[v].requires`.
    Requires(usize, usize),
    /// `connectivity[i]`.
    Connectivity(usize),
}

/// Which rules take part: all of them for the solve, a subset while the clash stage shrinks a
/// clash.
#[derive(Clone, Debug)]
pub(crate) struct Active {
    domain: Vec<bool>,
    counts: Vec<bool>,
    requires: Vec<Vec<bool>>,
    connectivity: Vec<bool>,
}

impl Active {
    /// Every rule of `spec` (soft counts never take part: they are prices, not rules).
    pub(crate) fn all(spec: &GridSpec) -> Active {
        Active {
            domain: vec![true; spec.origins.domain.len()],
            counts: spec.counts.iter().map(|c| c.weight.is_none()).collect(),
            requires: (spec.layers.iter())
                .map(|l| l.values.iter().map(|v| v.requires.is_some()).collect())
                .collect(),
            connectivity: vec![true; spec.connectivity.len()],
        }
    }

    /// Only `facts` (those `spec` has; a soft count stays out).
    pub(crate) fn only(spec: &GridSpec, facts: &[Fact]) -> Active {
        let mut a = Active::all(spec);
        let all = a.clone();
        a.domain.fill(false);
        a.counts.fill(false);
        a.requires.iter_mut().for_each(|r| r.fill(false));
        a.connectivity.fill(false);
        for &f in facts {
            let (now, was) = match f {
                Fact::Domain(i) => (a.domain.get_mut(i), all.domain.get(i)),
                Fact::Count(i) => (a.counts.get_mut(i), all.counts.get(i)),
                Fact::Requires(l, v) => (
                    a.requires.get_mut(l).and_then(|r| r.get_mut(v)),
                    all.requires.get(l).and_then(|r| r.get(v)),
                ),
                Fact::Connectivity(i) => (a.connectivity.get_mut(i), all.connectivity.get(i)),
            };
            if let (Some(now), Some(&was)) = (now, was) {
                *now = was;
            }
        }
        a
    }

    /// The facts, numbered: domains, counts, requires, connectivity.
    fn facts(&self) -> Vec<Fact> {
        let mut out: Vec<Fact> = (0..self.domain.len()).map(Fact::Domain).collect();
        out.extend((0..self.counts.len()).map(Fact::Count));
        for (l, r) in self.requires.iter().enumerate() {
            out.extend((0..r.len()).map(|v| Fact::Requires(l, v)));
        }
        out.extend((0..self.connectivity.len()).map(Fact::Connectivity));
        out
    }
}

/// What the presolve proved: the tightened bounds, or a set of rules that admits no level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Presolve {
    /// Bounds that hold in every level of the active rules.
    Bounds(Bounds),
    /// The active rules admit no level; these (a subset of them) already do not.
    Empty(Vec<Fact>),
}

/// Bounds every level of the active rules keeps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// Per count rule, the interval of its counted quantity (`of` in its region; for a ratio
    /// the numerator's count, not the ratio); `None` for a rule that did not take part (soft).
    pub counts: Vec<Option<(u64, u64)>>,
    /// Every quantity the hard counts name (`of` and `per`, each in its rule's region), with
    /// its interval: a ratio's two sides get absolute bounds this way.
    pub sums: Vec<(Selection, Region, u64, u64)>,
    /// Per cell (row-major), the tiles it may still hold: within `GridSpec::domains`, narrowed
    /// by reachability and the counts.
    pub domains: Vec<TileSet>,
}

/// A count whose own `min` exceeds its `max` once both are rounded (a ratio of a region: `min`
/// up, `max` down) is a mistake in the spec, not a rule that clashes with others: the error
/// names it. Ratios of another count (`per`) are not rounded and are left alone (their
/// `min > max` still admits a zero count).
pub(crate) fn check_counts(spec: &GridSpec) -> Result<(), GridError> {
    for (i, rule) in spec.counts.iter().enumerate() {
        if let (Some(Some(cells)), Some(lo), Some(hi)) = (rule.crossing(), rule.min, rule.max) {
            // The reader refuses these already; a spec built in code meets the same words.
            let shown = |b: Bound| match b {
                Bound::Absolute(n) => n.to_string(),
                Bound::Ratio { num, den } => (num as f64 / den as f64).to_string(),
            };
            return Err(GridError::Invalid {
                field: format!("counts[{i}]"),
                problem: FieldProblem::MinAboveMax {
                    min: shown(lo),
                    max: shown(hi),
                    cells: Some(cells),
                },
            });
        }
    }
    Ok(())
}

/// Row visits allowed per row before the propagation stops where it is (sound, only looser).
pub(crate) const ROW_VISITS: usize = 64;
/// Counted quantities beyond which the ratio-cycle closure (cubic in them) is skipped.
const CLOSURE_QUANTITIES: usize = 128;
/// Rounds of domains → reachability → counts before stopping where it is.
const ROUNDS: usize = 16;

/// A counted quantity and its interval.
type Sum = (Selection, Region, u64, u64);

/// Per count rule its interval, and every counted quantity's.
type Found = (Vec<Option<(u64, u64)>>, Vec<Sum>);

/// A set of facts (indices into `Active::facts`), shared: bounds copy their reasons often.
type Why = Rc<Vec<u64>>;

fn union(a: &Why, b: &Why) -> Why {
    if b.is_empty() || Rc::ptr_eq(a, b) {
        return a.clone();
    }
    if a.is_empty() {
        return b.clone();
    }
    let (long, short) = if a.len() >= b.len() { (a, b) } else { (b, a) };
    let mut out: Vec<u64> = long.to_vec();
    for (o, s) in out.iter_mut().zip(short.iter()) {
        *o |= *s;
    }
    if out == **long {
        return long.clone();
    }
    Rc::new(out)
}

fn single(i: usize) -> Why {
    let mut v = vec![0u64; i / 64 + 1];
    v[i / 64] |= 1 << (i % 64);
    Rc::new(v)
}

/// Presolves `spec` with the `active` rules.
pub(crate) fn presolve(spec: &GridSpec, active: &Active) -> Presolve {
    let facts = active.facts();
    let index: BTreeMap<Fact, usize> = facts.iter().enumerate().map(|(i, &f)| (f, i)).collect();
    let why_of = |f: Fact| {
        index
            .get(&f)
            .map_or_else(|| Rc::new(Vec::new()), |&i| single(i))
    };
    let mut p = Cells::new(spec, active, &why_of);
    let result = (|| -> Result<Found, Why> {
        p.check_empty()?;
        let mut counts = (vec![None; spec.counts.len()], Vec::new());
        for _ in 0..ROUNDS {
            let mut changed = false;
            for k in 0..spec.connectivity.len() {
                if active.connectivity[k] {
                    changed |= p.reach(k, &why_of(Fact::Connectivity(k)))?;
                }
            }
            let (c, narrowed) = p.counts(&why_of)?;
            counts = c;
            if !(changed || narrowed) {
                break;
            }
        }
        Ok(counts)
    })();
    match result {
        Ok((counts, sums)) => Presolve::Bounds(Bounds {
            counts,
            sums,
            domains: p.allowed,
        }),
        Err(why) => {
            let mut out = Vec::new();
            for (w, word) in why.iter().enumerate() {
                for b in 0..64 {
                    if word >> b & 1 == 1
                        && let Some(&f) = facts.get(w * 64 + b)
                    {
                        out.push(f);
                    }
                }
            }
            Presolve::Empty(out)
        }
    }
}

/// The cells' domains under the active rules, each exclusion with its reason.
struct Cells<'a> {
    spec: &'a GridSpec,
    active: &'a Active,
    allowed: Vec<TileSet>,
    /// `out[c][t]`: why cell `c` cannot hold tile `t` (set whenever `allowed[c][t]` is false).
    out: Vec<Vec<Option<Why>>>,
}

impl<'a> Cells<'a> {
    fn new(spec: &'a GridSpec, active: &'a Active, why_of: &dyn Fn(Fact) -> Why) -> Cells<'a> {
        let t = spec.tiles.len();
        let mut allowed = vec![vec![true; t]; spec.cells()];
        let mut out = vec![vec![None; t]; spec.cells()];
        for (i, (_, c, tiles)) in spec.origins.domain.iter().enumerate() {
            if !active.domain[i] {
                continue;
            }
            for a in 0..t {
                if !tiles[a] && allowed[*c][a] {
                    allowed[*c][a] = false;
                    out[*c][a] = Some(why_of(Fact::Domain(i)));
                }
            }
        }
        Cells {
            spec,
            active,
            allowed,
            out,
        }
    }

    /// Why `c` cannot hold any tile of `set` (the union of the exclusions; empty when it can).
    fn why_none(&self, c: usize, set: &[bool]) -> Why {
        let mut why: Why = Rc::new(Vec::new());
        for (a, &inside) in set.iter().enumerate() {
            if inside && let Some(w) = &self.out[c][a] {
                why = union(&why, w);
            }
        }
        why
    }

    fn check_empty(&self) -> Result<(), Why> {
        let every = vec![true; self.spec.tiles.len()];
        for c in 0..self.spec.cells() {
            if !self.allowed[c].iter().any(|&b| b) {
                return Err(self.why_none(c, &every));
            }
        }
        Ok(())
    }

    /// Excludes tile `a` from cell `c` for `why`; whether it was still allowed. An emptied
    /// domain is an error with the cell's reasons.
    fn exclude(&mut self, c: usize, a: usize, why: &Why) -> Result<bool, Why> {
        if !self.allowed[c][a] {
            return Ok(false);
        }
        self.allowed[c][a] = false;
        self.out[c][a] = Some(why.clone());
        if !self.allowed[c].iter().any(|&b| b) {
            let every = vec![true; self.spec.tiles.len()];
            return Err(self.why_none(c, &every));
        }
        Ok(true)
    }

    /// Whether cell `c` may still hold a tile of `class`.
    fn can(&self, c: usize, class: &[bool]) -> bool {
        (0..class.len()).any(|a| class[a] && self.allowed[c][a])
    }

    /// The root of connectivity rule `k` and why it is one: its `root`, or else a cell the
    /// domains force into the class (every class cell is connected to it); `None` when the
    /// rule has no root and no cell is forced.
    fn root(&self, k: usize, rule_why: &Why) -> Option<(usize, Why)> {
        let spec = self.spec;
        let class = &spec.connectivity[k].class;
        match spec.connectivity[k].root {
            Some((x, y)) => Some((spec.index(x, y), rule_why.clone())),
            None => {
                let not_class: Vec<bool> = class.iter().map(|&b| !b).collect();
                let c = (0..spec.cells()).find(|&c| {
                    self.can(c, class) && (0..class.len()).all(|a| class[a] || !self.allowed[c][a])
                })?;
                Some((c, union(rule_why, &self.why_none(c, &not_class))))
            }
        }
    }

    /// The fewest steps from `root` to a cell of `region` through cells that may hold `class`
    /// (4-neighbours, breadth first), and why no walk is shorter: the exclusions of the class
    /// from the cells next to those nearer than that (opening any other cell shortens
    /// nothing). `None` when no such walk reaches the region.
    fn distance(&self, root: usize, region: &Region, class: &[bool]) -> Option<(usize, Why)> {
        let spec = self.spec;
        let inside = |c: usize| region.contains(c % spec.width, c / spec.width);
        let mut why: Why = Rc::new(Vec::new());
        let mut seen = vec![false; spec.cells()];
        seen[root] = true;
        let mut layer = vec![root];
        let mut d = 0;
        while !layer.is_empty() {
            if layer.iter().any(|&c| inside(c)) {
                return Some((d, why));
            }
            let mut next = Vec::new();
            for &c in &layer {
                for e in spec.neighbours(c) {
                    if seen[e] {
                        continue;
                    }
                    if self.can(e, class) {
                        seen[e] = true;
                        next.push(e);
                    } else {
                        why = union(&why, &self.why_none(e, class));
                    }
                }
            }
            layer = next;
            d += 1;
        }
        None
    }

    /// Rows from the distance to a region: for a rooted connectivity rule (its root as
    /// [`Cells::root`] finds it) and a count region `R` the root lies outside, once the bounds say `R` holds a
    /// cell of the class (a quantity within the class has a lower bound ≥ 1 there, or an atom
    /// of `R` holds a class tile), the class cells outside `R` number at least the distance
    /// `d` from the root to `R` through cells that may hold the class: the walk of class
    /// cells that connects the root to that cell has `d` cells before it first enters `R`.
    /// The row is `Σ_{atoms outside R} Σ_{t ∈ class} x[t][A] ≥ d`, its reasons the rule, the
    /// root's, the walls that make the distance (`distance`) and the bound that puts a class
    /// cell in `R`. `placed` holds the (rule, region) pairs that have their row already.
    fn far_rows(
        &self,
        view: &AtomView,
        lp: &Lp,
        qs: &[Quantity],
        placed: &[(usize, usize)],
    ) -> Vec<FarRow> {
        let spec = self.spec;
        let t = view.t;
        let mut out = Vec::new();
        for k in (0..spec.connectivity.len()).filter(|&k| self.active.connectivity[k]) {
            let class = &spec.connectivity[k].class;
            let mut root = None;
            for (ri, region) in view.regions.iter().enumerate() {
                if placed.contains(&(k, ri)) {
                    continue;
                }
                // A class cell in the region, and why.
                let mut inside: Option<Why> = None;
                for &(sel, r, v) in qs {
                    if r == region
                        && lp.lo[v] >= 1
                        && let Some(w) = view.within_class(sel, class)
                    {
                        inside = Some(union(&w, &lp.why_lo[v]));
                        break;
                    }
                }
                if inside.is_none() {
                    'atoms: for (a, sig) in view.sigs.iter().enumerate() {
                        for tile in (0..t).filter(|&x| sig[ri] && class[x]) {
                            if lp.lo[a * t + tile] >= 1 {
                                inside = Some(lp.why_lo[a * t + tile].clone());
                                break 'atoms;
                            }
                        }
                    }
                }
                let Some(inside) = inside else { continue };
                if root.is_none() {
                    root = Some(self.root(k, &(view.why_of)(Fact::Connectivity(k))));
                }
                let Some(Some((r, root_why))) = &root else {
                    break;
                };
                let Some((d, walls)) = self.distance(*r, region, class) else {
                    continue;
                };
                if d == 0 {
                    continue;
                }
                let mut terms = Vec::new();
                for (a, _) in view.sigs.iter().enumerate().filter(|(_, s)| !s[ri]) {
                    terms.extend((0..t).filter(|&x| class[x]).map(|x| (1, a * t + x)));
                }
                let why = union(&union(root_why, &walls), &inside);
                out.push(((k, ri), terms, d as i64, why));
            }
        }
        out
    }

    /// Connectivity rule `k`: the cells its root cannot reach through cells that may hold the
    /// class lose the class. Whether a domain changed.
    fn reach(&mut self, k: usize, rule_why: &Why) -> Result<bool, Why> {
        let spec = self.spec;
        let class = &spec.connectivity[k].class;
        let can = |s: &Self, c: usize| s.can(c, class);
        let Some((root, mut why)) = self.root(k, rule_why) else {
            return Ok(false);
        };
        let mut changed = false;
        // The root holds the class.
        for a in 0..class.len() {
            if !class[a] {
                changed |= self.exclude(root, a, &why)?;
            }
        }
        let mut seen = vec![false; spec.cells()];
        let mut stack = vec![root];
        seen[root] = true;
        while let Some(c) = stack.pop() {
            for e in spec.neighbours(c) {
                if seen[e] {
                    continue;
                }
                if can(self, e) {
                    seen[e] = true;
                    stack.push(e);
                } else {
                    // A wall of the reached region: why it cannot hold the class.
                    why = union(&why, &self.why_none(e, class));
                }
            }
        }
        for c in 0..spec.cells() {
            if !seen[c] {
                for a in 0..class.len() {
                    if class[a] {
                        changed |= self.exclude(c, a, &why)?;
                    }
                }
            }
        }
        Ok(changed)
    }

    /// Builds the atoms and the rows over the current domains, propagates them, narrows the
    /// domains by what it found. The counts' intervals, and whether a domain changed.
    fn counts(&mut self, why_of: &dyn Fn(Fact) -> Why) -> Result<(Found, bool), Why> {
        let spec = self.spec;
        let active = self.active;
        let t = spec.tiles.len();
        let rules: Vec<usize> = (0..spec.counts.len())
            .filter(|&i| active.counts[i])
            .collect();
        let mut regions: Vec<Region> = Vec::new();
        for &i in &rules {
            if !regions.contains(&spec.counts[i].region) {
                regions.push(spec.counts[i].region);
            }
        }
        // Atoms: cells with the same regions and the same domain.
        let mut atoms: BTreeMap<(Vec<bool>, Vec<bool>), usize> = BTreeMap::new();
        let mut members: Vec<Vec<usize>> = Vec::new();
        let mut sigs: Vec<Vec<bool>> = Vec::new();
        for c in 0..spec.cells() {
            let (x, y) = (c % spec.width, c / spec.width);
            let sig: Vec<bool> = regions.iter().map(|r| r.contains(x, y)).collect();
            let key = (sig.clone(), self.allowed[c].clone());
            let next = atoms.len();
            let id = *atoms.entry(key).or_insert(next);
            if id == next {
                members.push(Vec::new());
                sigs.push(sig);
            }
            members[id].push(c);
        }
        let mut lp = Lp::default();
        let n_atoms = members.len();
        // x[t][A] at var A·t + tile.
        for a in 0..n_atoms {
            let size = members[a].len() as i64;
            let first = members[a][0];
            for tile in 0..t {
                if self.allowed[first][tile] {
                    lp.var(0, size);
                } else {
                    let mut why: Why = Rc::new(Vec::new());
                    for &c in &members[a] {
                        if let Some(w) = &self.out[c][tile] {
                            why = union(&why, w);
                        }
                    }
                    let v = lp.var(0, 0);
                    lp.why_hi[v] = why;
                }
            }
            let terms = (0..t).map(|tile| (1, a * t + tile)).collect();
            lp.row(terms, size, size, Rc::new(Vec::new()));
        }
        // y[l][v][A], only for the layers some active count or requires uses.
        let mut y_base: Vec<Option<usize>> = vec![None; spec.layers.len()];
        for (l, layer) in spec.layers.iter().enumerate() {
            let counted = rules.iter().any(|&i| {
                let r = &spec.counts[i];
                [Some(&r.of), r.per.as_ref()]
                    .into_iter()
                    .flatten()
                    .any(|s| matches!(s, Selection::LayerValue { layer, .. } if *layer == l))
            });
            if !counted {
                continue;
            }
            let n = layer.values.len();
            let base = lp.lo.len();
            y_base[l] = Some(base);
            for a in 0..n_atoms {
                let size = members[a].len() as i64;
                for _ in 0..n {
                    lp.var(0, size);
                }
                let terms = (0..n).map(|v| (1, base + a * n + v)).collect();
                lp.row(terms, size, size, Rc::new(Vec::new()));
                for (v, value) in layer.values.iter().enumerate() {
                    let Some(req) = &value.requires else { continue };
                    if !active.requires[l][v] {
                        continue;
                    }
                    let mut terms = vec![(1, base + a * n + v)];
                    terms.extend((0..t).filter(|&x| req[x]).map(|x| (-1, a * t + x)));
                    lp.row(terms, i64::MIN, 0, why_of(Fact::Requires(l, v)));
                }
            }
        }
        // N per (selection, region).
        let mut n_vars: Vec<(Selection, Region, usize)> = Vec::new();
        let mut n_var = |lp: &mut Lp, sel: &Selection, region: &Region| -> usize {
            if let Some(&(_, _, v)) = n_vars.iter().find(|(s, r, _)| s == sel && r == region) {
                return v;
            }
            let ri = regions.iter().position(|r| r == region).unwrap_or(0);
            let v = lp.var(0, region.cells() as i64);
            let mut terms = vec![(1, v)];
            for a in (0..n_atoms).filter(|&a| sigs[a].get(ri) == Some(&true)) {
                match sel {
                    Selection::Tiles(set) => {
                        terms.extend((0..t).filter(|&x| set[x]).map(|x| (-1, a * t + x)));
                    }
                    Selection::LayerValue { layer, value } => {
                        if let Some(base) = y_base[*layer] {
                            let n = spec.layers[*layer].values.len();
                            terms.push((-1, base + a * n + value));
                        }
                    }
                }
            }
            lp.row(terms, 0, 0, Rc::new(Vec::new()));
            n_vars.push((sel.clone(), *region, v));
            v
        };
        let mut of_var = vec![None; spec.counts.len()];
        // The ratio rows as `a ≤ (num/den)·b` between counted quantities, with their rules.
        let mut ratios: Vec<Edge> = Vec::new();
        for &i in &rules {
            let r = &spec.counts[i];
            let why = why_of(Fact::Count(i));
            let a = n_var(&mut lp, &r.of, &r.region);
            of_var[i] = Some(a);
            match &r.per {
                None => {
                    let base = r.region.cells() as u64;
                    let lo = r.min.map_or(0, |b| b.lower(base));
                    let hi = r.max.map_or(u64::MAX, |b| b.upper(base));
                    lp.row(vec![(1, a)], clamp(lo), clamp(hi), why);
                }
                Some(per) => {
                    let b = n_var(&mut lp, per, &r.region);
                    let side = |bound: Option<Bound>| bound.map(|x| x.fraction());
                    if let Some((num, den)) = side(r.min) {
                        // `den·a ≥ num·b`: `b ≤ (den/num)·a` when `num > 0`.
                        if num > 0 {
                            ratios.push((b, a, Frac::new(den, num), why.clone()));
                        }
                        lp.row(
                            vec![(den as i64, a), (-(num as i64), b)],
                            0,
                            i64::MAX,
                            why.clone(),
                        );
                    }
                    if let Some((num, den)) = side(r.max) {
                        ratios.push((a, b, Frac::new(num, den), why.clone()));
                        lp.row(vec![(den as i64, a), (-(num as i64), b)], i64::MIN, 0, why);
                    }
                }
            }
        }
        lp.propagate()?;
        // Cycles of ratios (and of containments) whose product is below 1: their quantities
        // are 0 (`ratio_cycles`), which bounds propagation only reaches one unit per visit.
        let quantities: Vec<Quantity> = n_vars.iter().map(|(s, r, v)| (s, r, *v)).collect();
        let view = AtomView {
            spec,
            active,
            t,
            regions: &regions,
            sigs: &sigs,
            y_base: &y_base,
            why_of,
        };
        let mut edges = ratios;
        edges.extend(containments(&view, &lp, &quantities));
        let mut zero = false;
        for (v, why) in ratio_cycles(&quantities, &edges) {
            lp.row(vec![(1, v)], i64::MIN, 0, why);
            zero = true;
        }
        if zero {
            lp.propagate()?;
        }
        // Distances from the connectivity roots (`far_rows`), until no new row is added.
        let mut placed: Vec<(usize, usize)> = Vec::new();
        loop {
            let rows = self.far_rows(&view, &lp, &quantities, &placed);
            if rows.is_empty() {
                break;
            }
            for (key, terms, d, why) in rows {
                placed.push(key);
                lp.row(terms, d, i64::MAX, why);
            }
            lp.propagate()?;
        }
        let counts = of_var
            .iter()
            .map(|v| v.map(|v| (lp.lo[v].max(0) as u64, lp.hi[v].max(0) as u64)))
            .collect();
        // Narrow the domains.
        let mut changed = false;
        for a in 0..n_atoms {
            let size = members[a].len() as i64;
            for tile in 0..t {
                let v = a * t + tile;
                if !self.allowed[members[a][0]][tile] {
                    continue;
                }
                if lp.hi[v] <= 0 {
                    let why = lp.why_hi[v].clone();
                    for &c in &members[a] {
                        changed |= self.exclude(c, tile, &why)?;
                    }
                } else if lp.lo[v] >= size {
                    let why = lp.why_lo[v].clone();
                    for &c in &members[a] {
                        for other in (0..t).filter(|&o| o != tile) {
                            changed |= self.exclude(c, other, &why)?;
                        }
                    }
                }
            }
        }
        let sums = (n_vars.iter())
            .map(|(sel, r, v)| {
                (
                    sel.clone(),
                    *r,
                    lp.lo[*v].max(0) as u64,
                    lp.hi[*v].max(0) as u64,
                )
            })
            .collect();
        Ok(((counts, sums), changed))
    }
}

/// A counted quantity of the rows: its selection, its region, its variable.
type Quantity<'q> = (&'q Selection, &'q Region, usize);

/// A distance row: its (connectivity rule, region), its terms, its least sum, its reasons.
type FarRow = ((usize, usize), Vec<(i64, usize)>, i64, Why);

/// `a ≤ f·b` between two quantities' variables, with its reasons.
type Edge = (usize, usize, Frac, Why);

/// What the atoms are, for the rules that read them after the rows are built.
struct AtomView<'v> {
    spec: &'v GridSpec,
    active: &'v Active,
    /// Tiles.
    t: usize,
    /// The count regions; `sigs[a][ri]`: whether atom `a` lies in `regions[ri]`.
    regions: &'v [Region],
    sigs: &'v [Vec<bool>],
    /// Per layer, the first `y` variable (`None`: the layer is not counted).
    y_base: &'v [Option<usize>],
    why_of: &'v dyn Fn(Fact) -> Why,
}

impl AtomView<'_> {
    fn region_index(&self, r: &Region) -> Option<usize> {
        self.regions.iter().position(|x| x == r)
    }

    /// Whether `sel` selects only cells of `class`, and the rules that say so (a layer value
    /// by its `requires`).
    fn within_class(&self, sel: &Selection, class: &[bool]) -> Option<Why> {
        match sel {
            Selection::Tiles(set) => (0..self.t)
                .all(|x| !set[x] || class[x])
                .then(|| Rc::new(Vec::new())),
            Selection::LayerValue { layer, value } => {
                let req = self.spec.layers[*layer].values[*value].requires.as_ref();
                let req = req.filter(|_| self.active.requires[*layer][*value])?;
                (0..self.t)
                    .all(|x| !req[x] || class[x])
                    .then(|| self.requires_why(*layer, *value))
            }
        }
    }

    fn requires_why(&self, layer: usize, value: usize) -> Why {
        (self.why_of)(Fact::Requires(layer, value))
    }
}

/// An exact non-negative fraction `n/d` (`d > 0`), kept below 2⁶² in both parts by rounding
/// it **up** (`a ≤ f·b` stays true for a larger `f`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Frac {
    n: u128,
    d: u128,
}

impl Frac {
    const LIMIT: u128 = 1 << 62;

    fn new(n: u64, d: u64) -> Frac {
        Frac::reduced(n as u128, d.max(1) as u128).unwrap_or(Frac { n: 1, d: 0 })
    }

    fn reduced(mut n: u128, mut d: u128) -> Option<Frac> {
        let g = gcd(n, d).max(1);
        (n, d) = (n / g, d / g);
        while n > Frac::LIMIT || d > Frac::LIMIT {
            n = n.div_ceil(2);
            d /= 2;
            if d == 0 {
                return None;
            }
        }
        Some(Frac { n, d })
    }

    /// The product, rounded up; `None` when it is too large to say anything.
    fn times(self, o: Frac) -> Option<Frac> {
        if self.d == 0 || o.d == 0 {
            return None;
        }
        Frac::reduced(self.n * o.n, self.d * o.d)
    }

    fn less(self, o: Frac) -> bool {
        self.n * o.d < o.n * self.d
    }

    fn below_one(self) -> bool {
        self.d > 0 && self.n < self.d
    }
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// Containments between counted quantities as `a ≤ 1·b`: every cell and tile (or layer
/// value) that `a` may count, `b` counts too (a tile set within another over a region within
/// another; a layer value within the tiles its `requires` allows). Where `a` would count
/// something `b` does not but the bounds exclude it, the exclusion's reasons go with it.
fn containments(view: &AtomView, lp: &Lp, qs: &[Quantity]) -> Vec<Edge> {
    let mut out = Vec::new();
    let one = Frac { n: 1, d: 1 };
    for (i, &(s1, r1, v1)) in qs.iter().enumerate() {
        for (j, &(s2, r2, v2)) in qs.iter().enumerate() {
            if i != j
                && let Some(why) = contained(view, lp, (s1, r1), (s2, r2))
            {
                out.push((v1, v2, one, why));
            }
        }
    }
    out
}

/// Whether `(s1, r1)` counts only what `(s2, r2)` counts, and why.
fn contained(
    view: &AtomView,
    lp: &Lp,
    (s1, r1): (&Selection, &Region),
    (s2, r2): (&Selection, &Region),
) -> Option<Why> {
    let (ri1, ri2) = (view.region_index(r1)?, view.region_index(r2)?);
    let t = view.t;
    let mut why: Why = Rc::new(Vec::new());
    let holds = |tile: usize| matches!(s2, Selection::Tiles(set) if set[tile]);
    for (a, sig) in view.sigs.iter().enumerate() {
        if !sig[ri1] {
            continue;
        }
        let in2 = sig[ri2];
        match s1 {
            Selection::Tiles(set) => {
                for tile in (0..t).filter(|&x| set[x]) {
                    if in2 && holds(tile) {
                        continue;
                    }
                    let v = a * t + tile;
                    if lp.hi[v] > 0 {
                        return None;
                    }
                    why = union(&why, &lp.why_hi[v]);
                }
            }
            Selection::LayerValue { layer, value } => {
                let base = view.y_base.get(*layer).copied().flatten()?;
                let n = view.spec.layers[*layer].values.len();
                let yv = base + a * n + value;
                if lp.hi[yv] <= 0 {
                    why = union(&why, &lp.why_hi[yv]);
                    continue;
                }
                if !in2 {
                    return None;
                }
                match s2 {
                    Selection::LayerValue {
                        layer: l2,
                        value: v2,
                    } if l2 == layer && v2 == value => {}
                    Selection::Tiles(set) => {
                        // Within the tiles its `requires` allows, where that rule takes part.
                        let req = view.spec.layers[*layer].values[*value].requires.as_ref();
                        let req = req.filter(|_| view.active.requires[*layer][*value])?;
                        for tile in (0..t).filter(|&x| req[x] && !set[x]) {
                            let v = a * t + tile;
                            if lp.hi[v] > 0 {
                                return None;
                            }
                            why = union(&why, &lp.why_hi[v]);
                        }
                        why = union(&why, &view.requires_why(*layer, *value));
                    }
                    Selection::LayerValue { .. } => return None,
                }
            }
        }
    }
    Some(why)
}

/// The quantities on a cycle of `edges` (`a ≤ f·b`) whose product is below 1, each with the
/// reasons of its cycle: `a ≤ F·a` with `F < 1` and `a ≥ 0` is `a = 0`. The cheapest product
/// from each quantity to each other is found by Floyd–Warshall over exact fractions (products
/// rounded up, so every one is still implied); a cycle through a quantity that brings it below
/// itself is its cycle. Interval propagation alone lowers such a bound by one unit a visit
/// (`water ≤ 0.999·lava`, `lava ≤ 0.999·water`: 400 visits on a 20×20 grid), which the visit
/// cap cuts short; this is the Fourier–Motzkin elimination of the cycle's rows, in one step.
fn ratio_cycles(qs: &[Quantity], edges: &[Edge]) -> Vec<(usize, Why)> {
    let m = qs.len();
    // The closure is cubic; a spec with more counted quantities than this keeps its bounds.
    if m > CLOSURE_QUANTITIES || edges.is_empty() {
        return Vec::new();
    }
    let at = |v: usize| qs.iter().position(|q| q.2 == v);
    let mut best: Vec<Option<(Frac, Why)>> = vec![None; m * m];
    for (a, b, f, why) in edges {
        let (Some(i), Some(j)) = (at(*a), at(*b)) else {
            continue;
        };
        let cell = &mut best[i * m + j];
        if cell.as_ref().is_none_or(|(g, _)| f.less(*g)) {
            *cell = Some((*f, why.clone()));
        }
    }
    for k in 0..m {
        for i in 0..m {
            let Some((fik, wik)) = best[i * m + k].clone() else {
                continue;
            };
            for j in 0..m {
                let Some((fkj, wkj)) = &best[k * m + j] else {
                    continue;
                };
                let Some(f) = fik.times(*fkj) else { continue };
                if best[i * m + j].as_ref().is_none_or(|(g, _)| f.less(*g)) {
                    best[i * m + j] = Some((f, union(&wik, wkj)));
                }
            }
        }
    }
    (0..m)
        .filter_map(|i| match &best[i * m + i] {
            Some((f, why)) if f.below_one() => Some((qs[i].2, why.clone())),
            _ => None,
        })
        .collect()
}

fn clamp(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// Integer variables with bounds and reasons, and linear rows `lo ≤ Σ a·v ≤ hi` with theirs.
#[derive(Default)]
struct Lp {
    lo: Vec<i64>,
    hi: Vec<i64>,
    why_lo: Vec<Why>,
    why_hi: Vec<Why>,
    rows: Vec<Row>,
    /// Per variable, the rows it appears in.
    uses: Vec<Vec<usize>>,
}

struct Row {
    terms: Vec<(i64, usize)>,
    lo: i64,
    hi: i64,
    why: Why,
}

impl Lp {
    fn var(&mut self, lo: i64, hi: i64) -> usize {
        self.lo.push(lo);
        self.hi.push(hi);
        self.why_lo.push(Rc::new(Vec::new()));
        self.why_hi.push(Rc::new(Vec::new()));
        self.uses.push(Vec::new());
        self.lo.len() - 1
    }

    fn row(&mut self, terms: Vec<(i64, usize)>, lo: i64, hi: i64, why: Why) {
        let r = self.rows.len();
        for &(_, v) in &terms {
            if self.uses[v].last() != Some(&r) {
                self.uses[v].push(r);
            }
        }
        self.rows.push(Row { terms, lo, hi, why });
    }

    /// Bounds propagation to a fixpoint (or the visit cap); an empty interval is an error with
    /// its reasons.
    fn propagate(&mut self) -> Result<(), Why> {
        let mut queued = vec![true; self.rows.len()];
        let mut queue: std::collections::VecDeque<usize> = (0..self.rows.len()).collect();
        let mut visits = 0usize;
        let cap = ROW_VISITS.saturating_mul(self.rows.len().max(1));
        while let Some(r) = queue.pop_front() {
            queued[r] = false;
            visits += 1;
            if visits > cap {
                break;
            }
            for v in self.visit(r)? {
                for &u in &self.uses[v] {
                    if !queued[u] {
                        queued[u] = true;
                        queue.push_back(u);
                    }
                }
            }
        }
        Ok(())
    }

    /// The reasons of row `r` and of the bounds its greatest (`upper`) or least sum reads.
    fn why_side(&self, r: usize, upper: bool) -> Why {
        let row = &self.rows[r];
        let mut why = row.why.clone();
        for &(a, v) in &row.terms {
            let w = if (a > 0) == upper {
                &self.why_hi[v]
            } else {
                &self.why_lo[v]
            };
            why = union(&why, w);
        }
        why
    }

    /// One row: the variables whose bounds it tightened.
    fn visit(&mut self, r: usize) -> Result<Vec<usize>, Why> {
        let row = &self.rows[r];
        // The least and greatest values of the sum, and the reasons of the bounds each reads.
        let (mut min, mut max) = (0i128, 0i128);
        for &(a, v) in &row.terms {
            let (l, h) = (
                a as i128 * self.lo[v] as i128,
                a as i128 * self.hi[v] as i128,
            );
            min += l.min(h);
            max += l.max(h);
        }
        if row.lo != i64::MIN && max < row.lo as i128 {
            return Err(self.why_side(r, true));
        }
        if row.hi != i64::MAX && min > row.hi as i128 {
            return Err(self.why_side(r, false));
        }
        let mut changed = Vec::new();
        let mut upper_why: Option<Why> = None;
        let mut lower_why: Option<Why> = None;
        let terms = row.terms.clone();
        let (lo, hi) = (row.lo, row.hi);
        for (a, v) in terms {
            let (l, h) = (
                a as i128 * self.lo[v] as i128,
                a as i128 * self.hi[v] as i128,
            );
            let (own_min, own_max) = (l.min(h), l.max(h));
            // From `Σ ≥ lo`: a·v ≥ lo − (max − own_max).
            if lo != i64::MIN {
                let need = lo as i128 - (max - own_max);
                let (new_lo, new_hi) = bound(a, need, true);
                let why = upper_why
                    .get_or_insert_with(|| self.why_side(r, true))
                    .clone();
                self.tighten(v, new_lo, new_hi, &why, &mut changed)?;
            }
            // From `Σ ≤ hi`: a·v ≤ hi − (min − own_min).
            if hi != i64::MAX {
                let room = hi as i128 - (min - own_min);
                let (new_lo, new_hi) = bound(a, room, false);
                let why = lower_why
                    .get_or_insert_with(|| self.why_side(r, false))
                    .clone();
                self.tighten(v, new_lo, new_hi, &why, &mut changed)?;
            }
        }
        Ok(changed)
    }

    fn tighten(
        &mut self,
        v: usize,
        lo: Option<i128>,
        hi: Option<i128>,
        why: &Why,
        changed: &mut Vec<usize>,
    ) -> Result<(), Why> {
        if let Some(lo) = lo
            && lo > self.lo[v] as i128
        {
            self.lo[v] = lo.min(i64::MAX as i128) as i64;
            self.why_lo[v] = why.clone();
            changed.push(v);
        }
        if let Some(hi) = hi
            && hi < self.hi[v] as i128
        {
            self.hi[v] = hi.max(i64::MIN as i128) as i64;
            self.why_hi[v] = why.clone();
            changed.push(v);
        }
        if self.lo[v] > self.hi[v] {
            return Err(union(&self.why_lo[v], &self.why_hi[v]));
        }
        Ok(())
    }
}

/// The bound `a·v ≥ k` (`at_least`) or `a·v ≤ k` puts on `v`: `(lower, upper)`.
fn bound(a: i64, k: i128, at_least: bool) -> (Option<i128>, Option<i128>) {
    let a = a as i128;
    if a == 0 {
        return (None, None);
    }
    let floor = |n: i128, d: i128| {
        let q = n / d;
        if n % d != 0 && ((n < 0) != (d < 0)) {
            q - 1
        } else {
            q
        }
    };
    let ceil = |n: i128, d: i128| -floor(-n, d);
    match (at_least, a > 0) {
        (true, true) | (false, false) => (Some(ceil(k, a)), None),
        (true, false) | (false, true) => (None, Some(floor(k, a))),
    }
}

impl Bounds {
    /// `spec` with these bounds in place of the rules as written: the narrower domains, and
    /// every hard count without `per` bounded by its interval where that is tighter, and, with
    /// `sums`, the other counted quantities (the sides of ratios) bounded by counts of their
    /// own. What the encoder is given (`solve.rs`); the referee still judges by the document.
    ///
    /// The solve leaves `sums` out: on the 64×64 cave (seed 1) the crystal count it adds
    /// (`items.crystal` 15–133, from "1–5 % of the open cells" and "open 35–65 %") took the
    /// default solve from 0.17 s to no level in 30 s (not analysed further: the count is one
    /// more large row for the propagator, and the preferences read layer-value counts to draw
    /// their wishes). The clash stage's solves of a clash's other rules
    /// take it: there a ratio alone, with no wishes, is a hard search without it.
    pub(crate) fn apply(&self, spec: &GridSpec, sums: bool) -> GridSpec {
        let mut out = spec.clone();
        if self.domains.len() == out.domains.len() {
            out.domains = self.domains.clone();
        }
        for (rule, bounds) in out.counts.iter_mut().zip(&self.counts) {
            let Some((lo, hi)) = *bounds else { continue };
            if rule.per.is_some() || rule.weight.is_some() {
                continue;
            }
            let base = rule.region.cells() as u64;
            if lo > rule.min.map_or(0, |b| b.lower(base)) {
                rule.min = Some(Bound::Absolute(lo));
            }
            if rule.max.is_none_or(|b| hi < b.upper(base)) && hi < base {
                rule.max = Some(Bound::Absolute(hi));
            }
        }
        // The other quantities (the sides of ratios) as absolute counts of their own, where
        // their interval says more than the region's size.
        for (sel, region, lo, hi) in self.sums.iter().filter(|_| sums) {
            let (lo, hi) = (*lo, *hi);
            let cells = region.cells() as u64;
            let stated = out.counts.iter().any(|r| {
                r.weight.is_none() && r.per.is_none() && r.of == *sel && r.region == *region
            });
            if stated || (lo == 0 && hi >= cells) {
                continue;
            }
            out.counts.push(CountRule {
                of: sel.clone(),
                per: None,
                region: *region,
                min: (lo > 0).then_some(Bound::Absolute(lo)),
                max: (hi < cells).then_some(Bound::Absolute(hi)),
                weight: None,
            });
        }
        out
    }
}

/// `spec` with only the rules `facts` (the kinds the presolve reasons from): the domains of
/// those restrictions alone, those hard counts, those `requires`, those connectivity rules;
/// adjacency open, no enclosure, path, soft count or preference. The clash stage solves it to
/// learn whether a presolve clash still needs a rule (a level without it: needed). Its
/// document is still the original's, so the referee must not judge its levels.
pub(crate) fn restricted(spec: &GridSpec, facts: &[Fact]) -> GridSpec {
    let mut out = spec.clone();
    let t = spec.tiles.len();
    out.domains = vec![vec![true; t]; spec.cells()];
    let mut counts = Vec::new();
    for &f in facts {
        match f {
            Fact::Domain(i) => {
                if let Some((_, c, tiles)) = spec.origins.domain.get(i) {
                    for a in 0..t {
                        out.domains[*c][a] &= tiles[a];
                    }
                }
            }
            Fact::Count(i) => {
                if let Some(rule) = spec.counts.get(i).filter(|r| r.weight.is_none()) {
                    counts.push(rule.clone());
                }
            }
            _ => {}
        }
    }
    out.counts = counts;
    // Its own restrictions are the kept ones (a presolve of it must not see the others).
    out.origins.domain = (spec.origins.domain.iter().enumerate())
        .filter(|&(i, _)| facts.contains(&Fact::Domain(i)))
        .map(|(_, o)| o.clone())
        .collect();
    for (l, layer) in out.layers.iter_mut().enumerate() {
        for (v, value) in layer.values.iter_mut().enumerate() {
            if !facts.contains(&Fact::Requires(l, v)) {
                value.requires = None;
            }
        }
    }
    out.connectivity = (spec.connectivity.iter().enumerate())
        .filter(|&(k, _)| facts.contains(&Fact::Connectivity(k)))
        .map(|(_, r)| r.clone())
        .collect();
    for table in &mut out.adjacent {
        for row in table.iter_mut() {
            row.fill(true);
        }
    }
    out.enclosure.clear();
    out.paths.clear();
    out.preferences = None;
    out
}
