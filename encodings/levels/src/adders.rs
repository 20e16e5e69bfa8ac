//! Binary arithmetic as clauses: the number of true literals by an adder tree, a constant
//! multiple by shifted additions, and `x ≥ y` by a comparator chain; together, a ratio
//! `min·|B| ≤ |A| ≤ max·|B|` between two counts. The counts family encodes its large counts
//! with them (why binary and not sorting networks: `families/counts/encode.rs`), the enclosure
//! family its "at least this fraction sealed"; so they are shared here, over the model's
//! problem and wished values, and name no family.

use crate::model::{set_wished, wished_value};
use crate::spec::Bound;
use grim_maxsat::problem::Problem;
use grim_solver::Lit;

/// `min·|B| ≤ |A| ≤ max·|B|` (each side optional; bounds read as fractions, an absolute `n`
/// being `n/1`), every asserting clause guarded by `guard` when given.
pub(crate) fn ratio(
    p: &mut Problem,
    wished: &mut Vec<Option<bool>>,
    a: &[Lit],
    b: &[Lit],
    min: Option<Bound>,
    max: Option<Bound>,
    guard: Option<Lit>,
) {
    let sa = binary_count(p, wished, a);
    let sb = binary_count(p, wished, b);
    if let Some((num, den)) = min.map(|x| x.fraction()) {
        let x = binary_times(p, wished, &sa, den);
        let y = binary_times(p, wished, &sb, num);
        binary_at_least(p, &x, &y, guard);
    }
    if let Some((num, den)) = max.map(|x| x.fraction()) {
        let x = binary_times(p, wished, &sb, num);
        let y = binary_times(p, wished, &sa, den);
        binary_at_least(p, &x, &y, guard);
    }
}

/// The number of true `lits` in binary (least significant bit first), by an adder tree: one
/// full or half adder per input beyond the first, so `n` inputs cost under `n` adders.
pub(crate) fn binary_count(
    p: &mut Problem,
    wished: &mut Vec<Option<bool>>,
    lits: &[Lit],
) -> Vec<Lit> {
    match lits.len() {
        0 => Vec::new(),
        1 => vec![lits[0]],
        n => {
            let (lo, hi) = lits.split_at(n / 2);
            let x = binary_count(p, wished, lo);
            let y = binary_count(p, wished, hi);
            binary_add(p, wished, &x, &y)
        }
    }
}

/// `x + y` by a ripple-carry adder (outputs defined both ways).
fn binary_add(p: &mut Problem, wished: &mut Vec<Option<bool>>, x: &[Lit], y: &[Lit]) -> Vec<Lit> {
    let ff = p.always_false();
    let n = x.len().max(y.len());
    let mut out = Vec::with_capacity(n + 1);
    let mut carry = ff;
    for i in 0..n {
        let a = x.get(i).copied().unwrap_or(ff);
        let b = y.get(i).copied().unwrap_or(ff);
        let (s, c) = full_adder(p, wished, [a, b, carry]);
        out.push(s);
        carry = c;
    }
    if carry != ff {
        out.push(carry);
    }
    out
}

/// `(a ⊕ b ⊕ c, at least two of a, b, c)` with constant-false inputs folded away.
fn full_adder(p: &mut Problem, wished: &mut Vec<Option<bool>>, ins: [Lit; 3]) -> (Lit, Lit) {
    let ff = p.always_false();
    let ins: Vec<Lit> = ins.into_iter().filter(|&l| l != ff).collect();
    if ins.len() <= 1 {
        return (ins.first().copied().unwrap_or(ff), ff);
    }
    let s = p.new_var().pos();
    let k = p.new_var().pos();
    let vals: Option<Vec<bool>> = ins.iter().map(|&l| wished_value(wished, l)).collect();
    if let Some(v) = vals {
        let ones = v.iter().filter(|&&b| b).count();
        set_wished(wished, s, Some(ones % 2 == 1));
        set_wished(wished, k, Some(ones >= 2));
    }
    let m = ins.len();
    // s ↔ parity: exclude every input pattern with the wrong output.
    for mask in 0u32..(1 << m) {
        let mut clause: Vec<Lit> = (0..m)
            .map(|i| if mask >> i & 1 == 1 { !ins[i] } else { ins[i] })
            .collect();
        clause.push(if mask.count_ones() % 2 == 1 { s } else { !s });
        p.add_clause(&clause, None);
    }
    // k ↔ at least two.
    for i in 0..m {
        for j in i + 1..m {
            p.add_clause(&[!ins[i], !ins[j], k], None);
        }
    }
    if m == 2 {
        p.add_clause(&[ins[0], !k], None);
        p.add_clause(&[ins[1], !k], None);
    } else {
        for (i, j) in [(0, 1), (0, 2), (1, 2)] {
            p.add_clause(&[ins[i], ins[j], !k], None);
        }
    }
    (s, k)
}

/// `k · x` by shifted additions.
fn binary_times(p: &mut Problem, wished: &mut Vec<Option<bool>>, x: &[Lit], k: u64) -> Vec<Lit> {
    let ff = p.always_false();
    let mut acc: Vec<Lit> = Vec::new();
    for bit in 0..64 {
        if k >> bit & 1 == 1 {
            let mut shifted = vec![ff; bit];
            shifted.extend_from_slice(x);
            acc = if acc.is_empty() {
                shifted
            } else {
                binary_add(p, wished, &acc, &shifted)
            };
        }
    }
    acc
}

/// The constant `k` in binary.
pub(crate) fn binary_const(p: &Problem, k: u64) -> Vec<Lit> {
    (0..64 - k.leading_zeros())
        .map(|i| {
            if k >> i & 1 == 1 {
                p.always_true()
            } else {
                p.always_false()
            }
        })
        .collect()
}

/// Asserts `x ≥ y` (binary), every clause guarded.
pub(crate) fn binary_at_least(p: &mut Problem, x: &[Lit], y: &[Lit], guard: Option<Lit>) {
    let (tt, ff) = (p.always_true(), p.always_false());
    let n = x.len().max(y.len());
    // ge_i: "x[i..0] ≥ y[i..0]", asserted at the top; ge_{-1} is true.
    let mut ge = guard.map_or(tt, |g| !g);
    for i in (0..n).rev() {
        let xi = x.get(i).copied().unwrap_or(ff);
        let yi = y.get(i).copied().unwrap_or(ff);
        let below = if i == 0 { tt } else { p.new_var().pos() };
        p.add_clause(&[!ge, xi, !yi], None);
        p.add_clause(&[!ge, xi, below], None);
        p.add_clause(&[!ge, !yi, below], None);
        ge = below;
    }
}
