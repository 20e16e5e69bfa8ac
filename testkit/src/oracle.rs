//! Brute-force oracles: every assignment enumerated, nothing clever, so that they cannot share
//! a bug with the engine. Assignments are bit-packed (bit `i` is variable `i`) and clauses
//! turned into two masks, which keeps 4096 assignments of 80 clauses at a few microseconds —
//! fast enough for the fuzz targets' thousands of executions per second.

use grim_formula::Wcnf;
use grim_solver::Lit;

/// The most variables [`satisfiable`] enumerates (2^20 assignments).
pub const MAX_SAT_VARS: u32 = 20;

/// The most variables [`maxsat_optimum`] enumerates.
pub const MAX_MAXSAT_VARS: usize = 20;

/// A clause as two masks: satisfied by `a` iff `a & pos != 0` or `!a & neg != 0`.
#[derive(Clone, Copy, Debug)]
struct Masks {
    pos: u32,
    neg: u32,
}

fn masks(clause: &[Lit]) -> Masks {
    let mut m = Masks { pos: 0, neg: 0 };
    for l in clause {
        let bit = 1u32 << l.var().index();
        if l.is_negative() {
            m.neg |= bit;
        } else {
            m.pos |= bit;
        }
    }
    m
}

/// One more than the largest variable in `clauses` and `lits` (0 when there is none).
pub fn vars_of(clauses: &[Vec<Lit>], lits: &[Lit]) -> u32 {
    clauses
        .iter()
        .flatten()
        .chain(lits)
        .map(|l| l.var().index() as u32 + 1)
        .max()
        .unwrap_or(0)
}

/// Whether some assignment satisfies every clause and every literal of `assumptions`. The
/// empty clause is never satisfied; no clauses are always satisfied.
///
/// Panics past [`MAX_SAT_VARS`] variables.
pub fn satisfiable(clauses: &[Vec<Lit>], assumptions: &[Lit]) -> bool {
    let vars = vars_of(clauses, assumptions);
    assert!(vars <= MAX_SAT_VARS, "brute force over {vars} variables");
    let cs: Vec<Masks> = clauses.iter().map(|c| masks(c)).collect();
    let units = masks(assumptions);
    (0..1u32 << vars).any(|a| {
        a & units.pos == units.pos
            && !a & units.neg == units.neg
            && cs.iter().all(|m| a & m.pos != 0 || !a & m.neg != 0)
    })
}

/// The least cost of a model of the hard clauses (the sum of the weights of the soft clauses
/// it falsifies), by enumeration of all `w.num_vars` variables; `None` when the hard clauses
/// are unsatisfiable. Costs are computed by [`Wcnf::cost`].
///
/// Panics past [`MAX_MAXSAT_VARS`] variables.
pub fn maxsat_optimum(w: &Wcnf) -> Option<u64> {
    let n = w.num_vars;
    assert!(n <= MAX_MAXSAT_VARS, "brute force over {n} variables");
    let mut model = vec![false; n];
    (0u32..1 << n)
        .filter_map(|bits| {
            for (i, value) in model.iter_mut().enumerate() {
                *value = bits >> i & 1 == 1;
            }
            w.cost(&model)
        })
        .min()
}

/// Unit propagation of `clauses` under `assumptions`, to fixpoint, by naive passes over the
/// clause list (nothing shared with the engine's watches). `None` on a conflict (a clause with
/// every literal false, or contradictory assumptions), else the partial assignment indexed by
/// variable, over at least `num_vars` variables.
///
/// The oracle of two things: an encoding's propagation strength (what unit propagation alone
/// must derive), and RUP (a lemma is RUP when propagating its negation conflicts). A literal
/// repeated in a clause counts twice, as in the clause lists it is given; a proof checker
/// that wants clauses as sets dedups them first.
pub fn unit_propagate(
    clauses: &[Vec<Lit>],
    num_vars: usize,
    assumptions: &[Lit],
) -> Option<Vec<Option<bool>>> {
    let n = num_vars.max(vars_of(clauses, assumptions) as usize);
    let mut vals: Vec<Option<bool>> = vec![None; n];
    let value = |vals: &[Option<bool>], l: Lit| vals[l.var().index()].map(|b| b == l.is_positive());
    for &a in assumptions {
        match value(&vals, a) {
            Some(false) => return None,
            Some(true) => {}
            None => vals[a.var().index()] = Some(a.is_positive()),
        }
    }
    loop {
        let mut changed = false;
        for clause in clauses {
            let mut unassigned = None;
            let mut free = 0;
            let mut sat = false;
            for &l in clause {
                match value(&vals, l) {
                    Some(true) => {
                        sat = true;
                        break;
                    }
                    Some(false) => {}
                    None => {
                        free += 1;
                        unassigned = Some(l);
                    }
                }
            }
            if sat {
                continue;
            }
            match (free, unassigned) {
                (0, _) => return None,
                (1, Some(l)) => {
                    vals[l.var().index()] = Some(l.is_positive());
                    changed = true;
                }
                _ => {}
            }
        }
        if !changed {
            return Some(vals);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dimacs as l;

    #[test]
    fn satisfiable_sees_units_assumptions_and_the_empty_clause() {
        assert!(satisfiable(&[], &[]));
        assert!(!satisfiable(&[vec![]], &[]));
        assert!(satisfiable(&[vec![l(1), l(2)]], &[l(-1)]));
        assert!(!satisfiable(&[vec![l(1), l(2)]], &[l(-1), l(-2)]));
        assert!(!satisfiable(&[], &[l(3), l(-3)]));
        assert!(satisfiable(&[vec![l(12)]], &[l(12)]));
    }

    #[test]
    fn the_optimum_of_two_opposite_soft_units_is_the_lighter_weight() {
        let w = Wcnf {
            num_vars: 1,
            hard: vec![],
            soft: vec![(3, vec![l(1)]), (5, vec![l(-1)])],
        };
        assert_eq!(maxsat_optimum(&w), Some(3));
        let unsat = Wcnf {
            num_vars: 1,
            hard: vec![vec![l(1)], vec![l(-1)]],
            soft: vec![],
        };
        assert_eq!(maxsat_optimum(&unsat), None);
    }
}
