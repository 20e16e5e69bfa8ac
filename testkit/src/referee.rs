//! Referees: they judge one answer against the original clauses and the brute-force oracle,
//! never against the engine's own word (STYLE.md, "never trust our own solver's word").

use grim_solver::{Lit, Solver, Status, Var};

use crate::oracle::satisfiable;

/// Whether `l` is true under `model` (a variable past the model's end is false).
pub fn lit_true(model: &[bool], l: Lit) -> bool {
    model.get(l.var().index()).copied().unwrap_or(false) != l.is_negative()
}

/// The index of the first clause that `model` falsifies, if any.
pub fn falsified(model: &[bool], clauses: &[Vec<Lit>]) -> Option<usize> {
    clauses
        .iter()
        .position(|c| !c.iter().any(|&l| lit_true(model, l)))
}

/// Whether `model` satisfies every clause.
pub fn satisfies(model: &[bool], clauses: &[Vec<Lit>]) -> bool {
    falsified(model, clauses).is_none()
}

/// What one `solve` answered, with what a reference model of the solver must remember of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The model, one value per variable.
    Sat(Vec<bool>),
    /// The failed assumptions.
    Unsat(Vec<Lit>),
    /// Budget or terminate flag.
    Unknown,
}

/// Checks the answer `s` just gave against brute force and returns it: the status matches the
/// oracle; a model has one value per variable, satisfies every clause and assumption and
/// agrees with `value`; a core is a subset of the assumptions, agrees with `failed`, and is
/// unsatisfiable with the clauses. `Unknown` is accepted only when `may_be_unknown`.
///
/// Panics (with the formula in the message) on the first disagreement.
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
                satisfiable(clauses, assumptions),
                "SAT, but brute force finds no model of {clauses:?} under {assumptions:?}"
            );
            let model = s.model().expect("a model after Sat");
            assert_eq!(model.len(), s.num_vars(), "model length vs num_vars");
            if let Some(i) = falsified(&model, clauses) {
                panic!("model {model:?} falsifies {:?}", clauses.get(i));
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
                !satisfiable(clauses, assumptions),
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
                // The negation of an assumption is in the core only if it was assumed too.
                assert_eq!(
                    s.failed(!a),
                    core.contains(&!a),
                    "failed(¬{a:?}) vs {core:?}"
                );
            }
            assert!(
                !satisfiable(clauses, &core),
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
