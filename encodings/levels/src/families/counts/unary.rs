//! The export's counts (issue 40): every count unary, none binary, so that unit propagation
//! in any solver sees a bound as soon as it is reached.
//!
//! - Without `per`: the front end of `grim-encodings` (`Problem::count`), which picks
//!   pairwise, counter, totalizer or cardinality network (Asín et al., Constraints 2011) by
//!   measured size; for the large bounds of a level (floor 30–60 % of the grid) that is the
//!   cardinality network, `O(n log² k)`, arc-consistent.
//! - With `per` (`min·|B| ≤ |A| ≤ max·|B|`): both sides sorted by a network
//!   (`cardnet::sorted_outputs_directed`: `A≥j` for at least `j` of `A`), then one clause per
//!   step of the bound: `B≥k → A≥⌈min·k⌉` for the floor and `A≥j → B≥⌈j/max⌉` for the ceiling,
//!   only at the `k` (`j`) where the needed count changes (the others are implied through the
//!   sorted outputs' order). Unit propagation then enforces the ratio on the sorted outputs.
//!
//! Size (issue 40, `benches/results/issue40-size-2026-12-07.md`): the clauses are planned
//! first and each network built with only the outputs they read, each in the direction read
//! (a clause's condition needs "enough inputs make it true", its conclusion "true only with
//! enough inputs": the one-directional clauses of Asín et al., sound and complete for the
//! clauses as planned); and a ratio's sides stop at the hard ceiling a plain count over its
//! denominator's cells puts on them (dungeon-64: the floor ≤ 2,457 of 4,096 leaves the enemies
//! ≤ 491, not 819; the floor's network stops at 2,458). dungeon-64 64.76 → 60.74 MB, cave-64
//! 78.61 → 76.48 MB; the solvers unchanged.
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
use grim_encodings::card::cardnet::sorted_outputs_directed;
use grim_solver::Lit;
use std::collections::BTreeMap;

/// The sorted networks of every rule, by their non-constant inputs: a selection counted by
/// several rules (the floor's own bounds and the enemies' ratio to it) is sorted once. The
/// first pass ([`plan`]) records which outputs the clauses read and in which direction; a
/// network is built when the second pass first reads it, with exactly those.
#[derive(Default)]
struct Nets {
    by_free: BTreeMap<Vec<Lit>, usize>,
    nets: Vec<Net>,
}

/// One planned network.
struct Net {
    /// Its inputs (the non-constant literals of the selection).
    free: Vec<Lit>,
    /// `(up, down)` per output (see `sorted_outputs_directed`).
    need: Vec<(bool, bool)>,
    /// Its output literals, once built.
    built: Option<Vec<Option<Lit>>>,
}

/// What a rule asks for, in order: a count for the front end, or a clause `if → then`.
enum Step {
    Front(Vec<Lit>, usize, usize),
    Implies(Atom, Atom),
}

/// Encodes every count rule (hard or soft) with unary structures only, each tagged by its
/// rule; see the module doc.
pub(super) fn encode_rules(m: &mut GridModel, rules: &[CountRule]) {
    let mut nets = Nets::default();
    let steps = plan(m, rules, &mut nets);
    for (i, (rule, steps)) in rules.iter().zip(steps).enumerate() {
        m.tag(Some(RuleTag::new(NAME, i)));
        m.part(format!("counts {i}"));
        let guard = rule.weight.map(|_| m.problem.new_var().pos());
        let mut priced = false;
        for step in steps {
            match step {
                Step::Front(a, lo, hi) => {
                    // The front end prices a soft bound itself (the guard stays unused).
                    m.problem.count(&a, lo, hi, rule.weight);
                    priced = true;
                }
                Step::Implies(cond, then) => {
                    let (cond, then) = (nets.lit(m, cond), nets.lit(m, then));
                    implies(m, cond, then, guard);
                }
            }
        }
        if let (Some(g), Some(w), false) = (guard, rule.weight, priced) {
            m.problem.add_clause(&[!g], Some(w));
        }
    }
    m.tag(None);
}

/// The first pass: every rule's steps, and in `nets` every network's outputs as read.
fn plan(m: &mut GridModel, rules: &[CountRule], nets: &mut Nets) -> Vec<Vec<Step>> {
    // Selections that a ratio sorts: a plain count over the same cells asserts its bounds on
    // that network instead of building a cardinality network of its own.
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
    let mut all = Vec::with_capacity(rules.len());
    for rule in rules {
        let mut steps = Vec::new();
        let a = cell_lits(m, &rule.of, &rule.region);
        match &rule.per {
            None if shared.contains(&free(m, &a)) => {
                let (lo, hi) = bounds(rule, a.len());
                // Outputs past the bounds' are never read (a ratio over these cells reads only
                // up to the ceiling, see `ratio`).
                let s = Sorted::new(m, nets, &a, lo.max(hi.saturating_add(1)));
                implies_step(nets, &mut steps, Atom::True, s.at_least(lo));
                implies_step(
                    nets,
                    &mut steps,
                    s.at_least(hi.saturating_add(1)),
                    Atom::False,
                );
            }
            None => {
                let (lo, hi) = bounds(rule, a.len());
                steps.push(Step::Front(a, lo, hi));
            }
            Some(per) => {
                let b = cell_lits(m, per, &rule.region);
                let cap = caps.get(&free(m, &b)).copied().unwrap_or(usize::MAX);
                let nb = ones(m, &b).saturating_add(cap).min(b.len());
                ratio(m, nets, &mut steps, &a, (&b, nb), rule.min, rule.max);
            }
        }
        all.push(steps);
    }
    all
}

impl Nets {
    /// The literal of an atom, building its network (with every output the plan reads) the
    /// first time one of its outputs is asked for. An output the plan did not ask for stays an
    /// unresolved `Out`, which [`implies`] drops (a caller's error; weaker, never wrong).
    fn lit(&mut self, m: &mut GridModel, atom: Atom) -> Atom {
        let Atom::Out(id, j) = atom else {
            return atom;
        };
        let Net { free, need, built } = &mut self.nets[id];
        let outs = built.get_or_insert_with(|| sorted_outputs_directed(&mut m.problem, free, need));
        match outs.get(j).copied().flatten() {
            Some(l) => Atom::Lit(l),
            None => {
                debug_assert!(false, "output {j} of network {id} was not planned");
                atom
            }
        }
    }
}

/// Records the step `cond → then` and the directions it reads its outputs in: `cond` must
/// become true whenever its count is reached ("≥", up), `then` may be true only when it is
/// ("≤", down).
fn implies_step(nets: &mut Nets, steps: &mut Vec<Step>, cond: Atom, then: Atom) {
    if let Atom::Out(id, j) = cond {
        nets.nets[id].need[j].0 = true;
    }
    if let Atom::Out(id, j) = then {
        nets.nets[id].need[j].1 = true;
    }
    steps.push(Step::Implies(cond, then));
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

/// A count in unary: `at_least(j)` is an output of a planned network (or a constant) for
/// "at least `j` of the literals are true".
struct Sorted {
    /// The network in [`Nets`].
    id: usize,
    /// Literals fixed true among the inputs.
    ones: usize,
    /// Every input, the constants true included.
    total: usize,
    /// The outputs planned: `at_least(j)` for `j − ones ≤ outs`.
    outs: usize,
}

/// What `at_least` answers: a literal, a planned network output (network, output index:
/// "at least index + 1 of its inputs"), or a constant.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Atom {
    True,
    False,
    Lit(Lit),
    Out(usize, usize),
}

impl Sorted {
    /// The sorted outputs of `lits` up to "at least `count`" (all of them for `usize::MAX`),
    /// on the network over the same inputs if one is planned already (made larger if need be).
    fn new(m: &mut GridModel, nets: &mut Nets, lits: &[Lit], count: usize) -> Sorted {
        let ones = ones(m, lits);
        let free = free(m, lits);
        let total = ones + free.len();
        let want = count.saturating_sub(ones).min(free.len());
        let id = match nets.by_free.get(&free) {
            Some(&id) => id,
            None => {
                nets.nets.push(Net {
                    free: free.clone(),
                    need: Vec::new(),
                    built: None,
                });
                nets.by_free.insert(free, nets.nets.len() - 1);
                nets.nets.len() - 1
            }
        };
        let need = &mut nets.nets[id].need;
        if need.len() < want {
            need.resize(want, (false, false));
        }
        Sorted {
            id,
            ones,
            total,
            outs: want,
        }
    }

    fn len(&self) -> usize {
        self.total
    }

    /// "At least `j` inputs": a constant outside `1 ..= total`. A `j` beyond the outputs
    /// planned is a caller's error (it sized the network too small); it answers `True` in
    /// release builds.
    fn at_least(&self, j: usize) -> Atom {
        if j <= self.ones {
            Atom::True
        } else if j > self.total {
            Atom::False
        } else if j - self.ones <= self.outs {
            Atom::Out(self.id, j - self.ones - 1)
        } else {
            debug_assert!(false, "at_least({j}) beyond the {} outputs", self.outs);
            Atom::True
        }
    }
}

/// The clause `if → then` (or-ed with `guard`), with constants folded: nothing when it holds
/// anyway, the (guarded) empty clause when it cannot.
fn implies(m: &mut GridModel, cond: Atom, then: Atom, guard: Option<Lit>) {
    let mut clause: Vec<Lit> = guard.into_iter().collect();
    match cond {
        // An output not resolved by `Nets::lit` drops the clause (see there).
        Atom::False | Atom::Out(..) => return,
        Atom::Lit(l) => clause.push(!l),
        Atom::True => {}
    }
    match then {
        Atom::True | Atom::Out(..) => return,
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
    nets: &mut Nets,
    steps: &mut Vec<Step>,
    a: &[Lit],
    (b, nb): (&[Lit], usize),
    min: Option<Bound>,
    max: Option<Bound>,
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
    let sa = Sorted::new(m, nets, a, reach_a.min(a.len()));
    let sb = Sorted::new(m, nets, b, nb.saturating_add(1));
    if let Some((num, den)) = min.map(|x| x.fraction()) {
        // B≥k → A≥⌈num·k/den⌉, at each k where the need grows.
        let mut last = 0;
        for k in 1..=nb {
            let need = ceil_mul(k, num, den);
            if need > last {
                implies_step(nets, steps, sb.at_least(k), sa.at_least(need));
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
                implies_step(nets, steps, sa.at_least(j), Atom::False);
                break;
            }
            if need > last {
                implies_step(nets, steps, sa.at_least(j), sb.at_least(need));
                last = need;
            }
        }
    }
}
