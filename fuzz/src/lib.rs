//! What the fuzz targets share: decoding fuzzer bytes into small formulas, the brute-force
//! oracle, and the checks of one `solve` answer (status, model, core) against it.
//!
//! Everything stays at ≤ [`MAX_VARS`] variables, so brute force is at most 4096 assignments
//! over bit-packed clauses: a few hundred microseconds per solve, which keeps the targets at
//! thousands of executions per second.
#![forbid(unsafe_code)]

use grim_solver::{Lit, Options, Solver, Status, Var};

/// The most variables any target uses.
pub const MAX_VARS: u32 = 12;

/// The most clauses a decoded formula keeps, and the most literals per clause: enough for
/// every interesting shape on twelve variables, small enough for a fast oracle.
pub const MAX_CLAUSES: usize = 80;
/// See [`MAX_CLAUSES`].
pub const MAX_CLAUSE_LEN: usize = 5;

/// The literal a fuzzer byte names over `vars` variables: bit 0 is the sign, the rest the
/// variable (modulo `vars`).
pub fn lit_of(byte: u8, vars: u32) -> Lit {
    let var = Var::new(u32::from(byte >> 1) % vars.max(1)).expect("small index");
    Lit::new(var, byte & 1 == 1)
}

/// The option set a fuzzer byte picks: default, aggressive, aggressive with a seed,
/// aggressive without minimisation/stable mode/walks/elimination, aggressive with every
/// inprocessing technique at every chance (probing, substitution, subsumption, elimination
/// rounds, vivification of irredundant clauses), or aggressive with no inprocessing at all.
/// The model check is always on.
pub fn options_of(choice: u8, seed: u64) -> Options {
    let aggressive = Options::aggressive();
    match choice % 6 {
        4 => Options {
            probe_interval: 1,
            substitute_interval: 1,
            subsume_interval: 1,
            eliminate_interval: 1,
            vivify_irredundant_share: 0.5,
            seed,
            ..aggressive
        },
        5 => Options {
            probe: false,
            substitute: false,
            subsume: false,
            eliminate: false,
            vivify_effort: 0.0,
            seed,
            ..aggressive
        },
        0 => Options {
            check_model: true,
            ..Options::default()
        },
        1 => aggressive,
        2 => Options { seed, ..aggressive },
        _ => Options {
            minimize: false,
            stable: false,
            walk_effort: 0.0,
            eliminate: false,
            seed,
            ..aggressive
        },
    }
}

/// A clause as two bit masks over the variables: satisfied by `a` iff `a & pos != 0` or
/// `!a & neg != 0`.
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

/// Whether some assignment satisfies every clause and every literal of `assumptions`.
/// Panics past [`MAX_VARS`] variables (a target bug, not an engine one).
pub fn brute_force(clauses: &[Vec<Lit>], assumptions: &[Lit]) -> bool {
    let vars = vars_of(clauses, assumptions);
    assert!(vars <= MAX_VARS, "brute force over {vars} variables");
    let cs: Vec<Masks> = clauses.iter().map(|c| masks(c)).collect();
    let units = masks(assumptions);
    (0..1u32 << vars).any(|a| {
        // Every assumption literal true: all positive bits set, all negative bits clear.
        a & units.pos == units.pos
            && !a & units.neg == units.neg
            && cs.iter().all(|m| a & m.pos != 0 || !a & m.neg != 0)
    })
}

/// What one `solve` answered, with what a reference model must remember of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The model, one value per variable.
    Sat(Vec<bool>),
    /// The failed assumptions.
    Unsat(Vec<Lit>),
    /// Budget or terminate flag.
    Unknown,
}

fn lit_true(model: &[bool], l: Lit) -> bool {
    model.get(l.var().index()).copied().unwrap_or(false) != l.is_negative()
}

/// Checks the answer `s` just gave against brute force and returns it: the status matches the
/// oracle; a model has one value per variable, satisfies every clause and assumption and
/// agrees with `value`; a core is a subset of the assumptions, agrees with `failed`, and is
/// unsatisfiable with the clauses. `Unknown` is accepted only when `may_be_unknown`.
pub fn check_answer(
    s: &Solver,
    status: Status,
    clauses: &[Vec<Lit>],
    assumptions: &[Lit],
    may_be_unknown: bool,
) -> Answer {
    assert_eq!(
        s.last_status(),
        Some(status),
        "last_status vs solve's answer"
    );
    match status {
        Status::Sat => {
            assert!(
                brute_force(clauses, assumptions),
                "SAT, but brute force finds no model of {clauses:?} under {assumptions:?}"
            );
            let model = s.model().expect("a model after Sat");
            assert_eq!(model.len(), s.num_vars(), "model length vs num_vars");
            for c in clauses {
                assert!(
                    c.iter().any(|&l| lit_true(&model, l)),
                    "model {model:?} falsifies {c:?}"
                );
            }
            for &a in assumptions {
                assert!(
                    lit_true(&model, a),
                    "model {model:?} violates assumption {a:?}"
                );
            }
            for (i, &b) in model.iter().enumerate() {
                let v = Var::new(i as u32).expect("small index");
                assert_eq!(s.value(v.pos()), Some(b), "value({v:?}) vs the model");
                assert_eq!(s.value(v.neg()), Some(!b), "value(¬{v:?}) vs the model");
            }
            assert!(s.failed_assumptions().is_empty(), "a failed set after Sat");
            Answer::Sat(model)
        }
        Status::Unsat => {
            assert!(
                !brute_force(clauses, assumptions),
                "UNSAT, but brute force finds a model of {clauses:?} under {assumptions:?}"
            );
            let core = s.failed_assumptions().to_vec();
            for l in &core {
                assert!(
                    assumptions.contains(l),
                    "failed {l:?} is not among the assumptions {assumptions:?}"
                );
            }
            for &a in assumptions {
                assert_eq!(s.failed(a), core.contains(&a), "failed({a:?}) vs {core:?}");
                assert_eq!(
                    s.failed(!a),
                    core.contains(&!a),
                    "failed(¬{a:?}) vs {core:?}"
                );
            }
            assert!(
                !brute_force(clauses, &core),
                "core {core:?} of {assumptions:?} is satisfiable with {clauses:?}"
            );
            assert!(s.model().is_none(), "a model after Unsat");
            Answer::Unsat(core)
        }
        Status::Unknown => {
            assert!(
                may_be_unknown,
                "Unknown without a budget or terminate flag: {clauses:?} under {assumptions:?}"
            );
            assert!(s.model().is_none(), "a model after Unknown");
            assert!(
                s.failed_assumptions().is_empty(),
                "a failed set after Unknown"
            );
            Answer::Unknown
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn l(d: i64) -> Lit {
        Lit::from_dimacs(d).expect("non-zero")
    }

    #[test]
    fn brute_force_sees_units_assumptions_and_the_empty_clause() {
        assert!(brute_force(&[], &[]));
        assert!(!brute_force(&[vec![]], &[]));
        assert!(brute_force(&[vec![l(1), l(2)]], &[l(-1)]));
        assert!(!brute_force(&[vec![l(1), l(2)]], &[l(-1), l(-2)]));
        assert!(!brute_force(&[], &[l(3), l(-3)]));
        assert!(brute_force(&[vec![l(12)]], &[l(12)]));
    }
}
