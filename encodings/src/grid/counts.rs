//! Counts: absolute, as a ratio of a region, or as a ratio of another selection's count.
//!
//! **Absolute and region ratios** have fixed bounds once the ratio is rounded (`min` up, `max`
//! down, in exact integer arithmetic on the 6-decimal fraction) and go to
//! [`crate::problem::Problem::count`], whose front end picks pairwise, counter, totalizer or
//! cardinality network by measured size (`card/mod.rs`): a network for the dungeon's floor
//! (30–60% of 1,024 cells), a counter for "exactly one key".
//!
//! **Ratios between selections** (`per`: enemies 5–20% of the floor) compare two counts,
//! `q·|A| ≥ p·|B|`. Both sides are sorted by an odd–even merge sorting network (Batcher,
//! AFIPS 1968) whose outputs `a_k ⇔ |A| ≥ k` are unary; then "min p/q" is, for every `k`,
//! the clause `b_k → a_⌈pk/q⌉`, and "max p/q" is `a_j → b_⌈jq/p⌉`. The network has
//! `O(n log² n)` comparators (n = 1,024: about 24,000), where a totalizer over all `n` outputs
//! would need `O(n²)` clauses at the root alone. Only the directions the bounds use are
//! emitted (`≥`: inputs force outputs; `≤`: outputs need inputs), comparators whose outputs no
//! clause reads are never built, and constants fold (padding to a power of two is free). The
//! comparisons are exact for every `|B|`: the rounding `⌈min·|B|⌉`, `⌊max·|B|⌋` is implied by
//! integrality.
//!
//! Soft counts: the clauses that assert the bound carry a relaxation literal `r` and the soft
//! unit `¬r` carries the weight; the networks themselves stay hard.

use super::GridModel;
use super::model::{set_wished, wished_value};
use super::spec::{Bound, CountRule};
use crate::problem::Problem;
use grim_solver::Lit;
use std::collections::BTreeMap;

/// Emits every count rule. Lists counted by a ratio get one sorting network each, shared
/// with every other rule counting the same list (the dungeon's floor: 30–60% of the grid and
/// the base of the enemies' ratio); other absolute counts go to `Problem::count`.
pub(crate) fn encode(m: &mut GridModel) {
    let rules = m.spec.counts.clone();
    let lists: Vec<(Vec<Lit>, Option<Vec<Lit>>)> = rules
        .iter()
        .map(|r| {
            let b = r.per.as_ref().map(|per| m.count_lits(per, &r.region));
            (m.count_lits(&r.of, &r.region), b)
        })
        .collect();
    // Plan: what each shared list needs.
    let mut needs: BTreeMap<Vec<Lit>, Need> = BTreeMap::new();
    let mut plans: Vec<Option<RatioPlan>> = Vec::with_capacity(rules.len());
    for (rule, (a, b)) in rules.iter().zip(&lists) {
        match b {
            Some(b) => {
                let plan = RatioPlan::new(a.len(), b.len(), rule.min, rule.max);
                needs.entry(a.clone()).or_default().merge(plan.a);
                needs.entry(b.clone()).or_default().merge(plan.b);
                plans.push(Some(plan));
            }
            None => plans.push(None),
        }
    }
    let bounds = |rule: &CountRule, n: usize| {
        let base = rule.region.cells() as u64;
        let lo = to_usize(rule.min.map_or(0, |b| b.lower(base)));
        let hi = to_usize(rule.max.map_or(u64::MAX, |b| b.upper(base))).min(n);
        (lo, hi)
    };
    for (rule, (a, b)) in rules.iter().zip(&lists) {
        if b.is_none()
            && std::env::var_os("GRID_NO_SHARE").is_none()
            && let Some(need) = needs.get_mut(a)
        {
            let (lo, hi) = bounds(rule, a.len());
            if lo > 0 && lo <= a.len() {
                need.merge(Need {
                    upto: lo,
                    up: false,
                    down: true,
                });
            }
            if hi < a.len() {
                need.merge(Need {
                    upto: hi + 1,
                    up: true,
                    down: false,
                });
            }
        }
    }
    let mut sorted: BTreeMap<Vec<Lit>, Vec<Lit>> = BTreeMap::new();
    for (lits, need) in &needs {
        let out = sorter(
            &mut m.problem,
            &mut m.wished,
            lits,
            need.upto,
            need.up,
            need.down,
        );
        sorted.insert(lits.clone(), out);
    }
    for ((rule, (a, b)), plan) in rules.iter().zip(&lists).zip(&plans) {
        match (b, plan) {
            (Some(b), Some(plan)) => {
                let (sa, sb) = (&sorted[a], &sorted[b]);
                plan.emit(&mut m.problem, sa, sb, rule.weight);
            }
            _ => {
                let (lo, hi) = bounds(rule, a.len());
                let shared = if std::env::var_os("GRID_NO_SHARE").is_none() {
                    sorted.get(a)
                } else {
                    None
                };
                match shared {
                    Some(out)
                        if lo <= hi
                            && lo <= a.len()
                            && (lo == 0 || out.len() >= lo)
                            && (hi >= a.len() || out.len() > hi) =>
                    {
                        // Units on the shared outputs: o_lo and ¬o_{hi+1}.
                        let guard = rule.weight.map(|_| m.problem.new_var().pos());
                        let mut unit = |l: Lit| {
                            let mut c = vec![l];
                            c.extend(guard);
                            m.problem.add_clause(&c, None);
                        };
                        if lo > 0 {
                            unit(out[lo - 1]);
                        }
                        if hi < a.len() {
                            unit(!out[hi]);
                        }
                        if let (Some(g), Some(w)) = (guard, rule.weight) {
                            m.problem.add_clause(&[!g], Some(w));
                        }
                    }
                    _ => m.problem.count(a, lo, hi, rule.weight),
                }
            }
        }
    }
}

fn to_usize(n: u64) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

/// `min·|B| ≤ |A| ≤ max·|B|` (each side optional), hard or soft. Bounds are read as fractions
/// (an absolute `n` is `n/1`).
pub(crate) fn ratio(
    p: &mut Problem,
    wished: &mut Vec<Option<bool>>,
    a: &[Lit],
    b: &[Lit],
    min: Option<Bound>,
    max: Option<Bound>,
    weight: Option<u64>,
) {
    let plan = RatioPlan::new(a.len(), b.len(), min, max);
    let sa = sorter(p, wished, a, plan.a.upto, plan.a.up, plan.a.down);
    let sb = sorter(p, wished, b, plan.b.upto, plan.b.up, plan.b.down);
    plan.emit(p, &sa, &sb, weight);
}

/// Which unary outputs a count needs (`upto`) and in which directions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Need {
    upto: usize,
    /// `|lits| ≥ k → o_k` (serves upper bounds).
    up: bool,
    /// `o_k → |lits| ≥ k` (serves lower bounds).
    down: bool,
}

impl Need {
    fn merge(&mut self, other: Need) {
        self.upto = self.upto.max(other.upto);
        self.up |= other.up;
        self.down |= other.down;
    }
}

/// `min·|B| ≤ |A| ≤ max·|B|` as clauses over unary outputs: min `p/q` is `b_k → a_⌈pk/q⌉`
/// for every `k`, max `p/q` is `a_j → b_⌈jq/p⌉` up to the first `j` that would need more than
/// `|B|` (asserted false).
struct RatioPlan {
    na: usize,
    nb: usize,
    min: Option<(u64, u64)>,
    max: Option<(u64, u64)>,
    /// The first `j` with `⌈j·q/p⌉ > |B|` (0 without max).
    j0: usize,
    a: Need,
    b: Need,
}

impl RatioPlan {
    fn new(na: usize, nb: usize, min: Option<Bound>, max: Option<Bound>) -> RatioPlan {
        let min = min.map(|x| x.fraction()).filter(|&(num, _)| num > 0);
        let max = max.map(|x| x.fraction());
        let (mut a, mut b) = (Need::default(), Need::default());
        if let Some((num, den)) = min {
            let j = ceil_div(num as u128 * nb as u128, den as u128);
            a.merge(Need {
                upto: j.min(na as u128) as usize,
                up: false,
                down: true,
            });
            b.merge(Need {
                upto: nb,
                up: true,
                down: false,
            });
        }
        let mut j0 = 0usize;
        if let Some((num, den)) = max {
            // The first j with ⌈j·den/num⌉ > nb, i.e. j > ⌊nb·num/den⌋.
            j0 = if num == 0 {
                1
            } else {
                (nb as u128 * num as u128 / den as u128 + 1).min(na as u128 + 1) as usize
            };
            a.merge(Need {
                upto: j0.min(na),
                up: true,
                down: false,
            });
            b.merge(Need {
                upto: nb,
                up: false,
                down: true,
            });
        }
        RatioPlan {
            na,
            nb,
            min,
            max,
            j0,
            a,
            b,
        }
    }

    /// Emits the comparison clauses over sorter outputs `sa`, `sb` (at least as long as the
    /// plan's needs); soft with a relaxation literal when `weight` is given.
    fn emit(&self, p: &mut Problem, sa: &[Lit], sb: &[Lit], weight: Option<u64>) {
        if self.min.is_none() && self.max.is_none() {
            return;
        }
        let guard = weight.map(|_| p.new_var().pos());
        let clause = |p: &mut Problem, lits: &[Lit]| {
            let mut c = lits.to_vec();
            c.extend(guard);
            p.add_clause(&c, None);
        };
        if let Some((num, den)) = self.min {
            for k in 1..=self.nb {
                let j = ceil_div(num as u128 * k as u128, den as u128) as usize;
                if j > self.na {
                    clause(p, &[!sb[k - 1]]);
                } else {
                    clause(p, &[!sb[k - 1], sa[j - 1]]);
                }
            }
        }
        if let Some((num, den)) = self.max {
            for j in 1..=self.j0.min(self.na) {
                if j == self.j0 {
                    clause(p, &[!sa[j - 1]]);
                } else {
                    let k = ceil_div(j as u128 * den as u128, num as u128) as usize;
                    clause(p, &[!sa[j - 1], sb[k - 1]]);
                }
            }
        }
        if let (Some(g), Some(w)) = (guard, weight) {
            p.add_clause(&[!g], Some(w));
        }
    }
}

fn ceil_div(a: u128, b: u128) -> u128 {
    a.div_ceil(b.max(1))
}

/// A node of the symbolic sorting network.
#[derive(Clone, Copy, Debug)]
enum Node {
    Const(bool),
    Input(Lit),
    /// `a ∨ b` (the larger output of a comparator).
    Max(usize, usize),
    /// `a ∧ b` (the smaller).
    Min(usize, usize),
}

/// Unary outputs `o_1..o_upto` of `lits`, `o_k` standing for "at least `k` are true": with
/// `up`, `|lits| ≥ k → o_k`; with `down`, `o_k → |lits| ≥ k`. Returns `upto` literals
/// (`upto ≤ lits.len()`).
pub(crate) fn sorter(
    p: &mut Problem,
    wished: &mut Vec<Option<bool>>,
    lits: &[Lit],
    upto: usize,
    up: bool,
    down: bool,
) -> Vec<Lit> {
    let upto = upto.min(lits.len());
    if upto == 0 {
        return Vec::new();
    }
    let mut nodes: Vec<Node> = vec![Node::Const(false), Node::Const(true)];
    let size = lits.len().next_power_of_two();
    let mut wires: Vec<usize> = (0..size)
        .map(|i| match lits.get(i) {
            Some(&l) => {
                nodes.push(Node::Input(l));
                nodes.len() - 1
            }
            None => 0,
        })
        .collect();
    odd_even_sort(&mut nodes, &mut wires, 0, size);
    // Emit backwards from the outputs used: only reachable comparators get variables.
    let mut lit_of: Vec<Option<Lit>> = vec![None; nodes.len()];
    let mut needed = vec![false; nodes.len()];
    let mut stack: Vec<usize> = wires[..upto].to_vec();
    while let Some(n) = stack.pop() {
        if needed[n] {
            continue;
        }
        needed[n] = true;
        if let Node::Max(a, b) | Node::Min(a, b) = nodes[n] {
            stack.push(a);
            stack.push(b);
        }
    }
    // Node values in the wished-for level, to hint the node variables.
    let mut value: Vec<Option<bool>> = vec![None; nodes.len()];
    for n in 0..nodes.len() {
        value[n] = match nodes[n] {
            Node::Const(b) => Some(b),
            Node::Input(l) => wished_value(wished, l),
            Node::Max(a, b) => match (value[a], value[b]) {
                (Some(true), _) | (_, Some(true)) => Some(true),
                (Some(false), Some(false)) => Some(false),
                _ => None,
            },
            Node::Min(a, b) => match (value[a], value[b]) {
                (Some(false), _) | (_, Some(false)) => Some(false),
                (Some(true), Some(true)) => Some(true),
                _ => None,
            },
        };
    }
    for n in 0..nodes.len() {
        if !needed[n] {
            continue;
        }
        let lit = match nodes[n] {
            Node::Const(true) => p.always_true(),
            Node::Const(false) => p.always_false(),
            Node::Input(l) => l,
            Node::Max(a, b) | Node::Min(a, b) => {
                let (la, lb) = (
                    lit_of[a].unwrap_or(p.always_false()),
                    lit_of[b].unwrap_or(p.always_false()),
                );
                let o = p.new_var().pos();
                set_wished(wished, o, value[n]);
                if matches!(nodes[n], Node::Max(..)) {
                    if up {
                        p.add_clause(&[!la, o], None);
                        p.add_clause(&[!lb, o], None);
                    }
                    if down {
                        p.add_clause(&[!o, la, lb], None);
                    }
                } else {
                    if up {
                        p.add_clause(&[!la, !lb, o], None);
                    }
                    if down {
                        p.add_clause(&[!o, la], None);
                        p.add_clause(&[!o, lb], None);
                    }
                }
                o
            }
        };
        lit_of[n] = Some(lit);
    }
    wires[..upto]
        .iter()
        .map(|&w| lit_of[w].unwrap_or(p.always_false()))
        .collect()
}

/// A comparator on wires `i`, `j`: the larger value to `i`. Constants fold.
fn compare(nodes: &mut Vec<Node>, wires: &mut [usize], i: usize, j: usize) {
    let (a, b) = (wires[i], wires[j]);
    let (hi, lo) = match (nodes[a], nodes[b]) {
        (Node::Const(false), _) => (b, a),
        (_, Node::Const(false)) => (a, b),
        (Node::Const(true), _) => (a, b),
        (_, Node::Const(true)) => (b, a),
        _ => {
            nodes.push(Node::Max(a, b));
            nodes.push(Node::Min(a, b));
            (nodes.len() - 2, nodes.len() - 1)
        }
    };
    wires[i] = hi;
    wires[j] = lo;
}

/// Batcher's odd–even merge sort of `wires[lo..lo + n]` (`n` a power of two), descending.
fn odd_even_sort(nodes: &mut Vec<Node>, wires: &mut [usize], lo: usize, n: usize) {
    if n > 1 {
        let m = n / 2;
        odd_even_sort(nodes, wires, lo, m);
        odd_even_sort(nodes, wires, lo + m, m);
        odd_even_merge(nodes, wires, lo, n, 1);
    }
}

/// Merges the two sorted halves of the `r`-strided subsequence of `wires[lo..lo + n]`.
fn odd_even_merge(nodes: &mut Vec<Node>, wires: &mut [usize], lo: usize, n: usize, r: usize) {
    let step = r * 2;
    if step < n {
        odd_even_merge(nodes, wires, lo, n, step);
        odd_even_merge(nodes, wires, lo + r, n, step);
        let mut i = lo + r;
        while i + r < lo + n {
            compare(nodes, wires, i, i + r);
            i += step;
        }
    } else {
        compare(nodes, wires, lo, lo + r);
    }
}
