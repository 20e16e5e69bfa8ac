//! Checking answers independently of the solvers that gave them.
//!
//! One run ([`check_run`]):
//! - `SATISFIABLE` / `OPTIMUM FOUND`: the model must satisfy every (hard) clause (unassigned
//!   variables count as false); for a WCNF the cost is recomputed from the model and must equal
//!   the last `o` line when there is one. A failure is a **wrong** answer.
//! - against a known answer (see [`super::expected`]): UNSAT where SAT is known, an optimum
//!   above a cost known to have a model, or a proven optimum that differs, is **wrong**; a
//!   checked model that contradicts the known answer (a model where UNSAT is "known", a cost
//!   below a proven optimum) is a **disagreement** with the file — the model is the stronger
//!   evidence, so the file is suspect, not the solver.
//!
//! One instance across solvers ([`disagreements`]): the answers that survived their own check
//! must agree: SAT vs UNSAT, two different proven optima, a model under a claimed UNSAT, or a
//! checked model cheaper than another solver's "optimum" is a **disagreement**.
//!
//! UNSAT claims cannot be checked without a proof; they are only compared.

use super::answer::{Answer, Status};
use super::expected::Known;
use super::instance::Instance;

/// The outcome of checking one run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    /// The status claimed.
    pub status: Status,
    /// The cost recomputed from the model (WCNF with a checked model only).
    pub cost: Option<u64>,
    /// Why the answer is wrong, if it is.
    pub wrong: Option<String>,
    /// A disagreement with the known answer that the checked model settles against the file.
    pub file_disagrees: Option<String>,
}

impl Checked {
    /// Whether the answer passed its checks.
    pub fn ok(&self) -> bool {
        self.wrong.is_none()
    }

    /// Whether this answer counts as solving the instance (before the time limit is looked
    /// at): SAT or UNSAT for a CNF, an optimum or UNSAT for a WCNF — as `compare.py` counts —
    /// and passing the checks.
    pub fn solves(&self, weighted: bool) -> bool {
        let answered = match self.status {
            Status::Sat => !weighted,
            Status::Unsat => true,
            Status::Optimum => weighted,
            Status::Unknown => false,
        };
        answered && self.ok()
    }
}

fn clause_holds(answer: &Answer, clause: &[grim_solver::Lit]) -> bool {
    clause
        .iter()
        .any(|l| answer.holds(l.var().index(), l.is_positive()))
}

/// Checks one run's answer on `instance` (see the module documentation).
pub fn check_run(instance: &Instance, answer: &Answer, known: Option<Known>) -> Checked {
    let status = answer.status();
    let mut checked = Checked {
        status,
        cost: None,
        wrong: None,
        file_disagrees: None,
    };
    if matches!(status, Status::Sat | Status::Optimum) {
        if let Some(i) = instance.hard.iter().position(|c| !clause_holds(answer, c)) {
            let what = if answer.has_model {
                "the model falsifies"
            } else {
                "no model; falsified"
            };
            checked.wrong = Some(format!("{what} hard clause {}", i + 1));
            return checked;
        }
        if instance.weighted {
            let real = instance
                .soft
                .iter()
                .filter(|(_, c)| !clause_holds(answer, c))
                .try_fold(0u64, |sum, (w, _)| sum.checked_add(*w));
            let Some(real) = real else {
                checked.wrong = Some("the model's cost overflows 64 bits".to_string());
                return checked;
            };
            checked.cost = Some(real);
            if let Some(claimed) = answer.cost
                && claimed != real
            {
                checked.wrong = Some(format!("reported cost {claimed}, the model costs {real}"));
                return checked;
            }
        }
    }
    let Some(known) = known else {
        return checked;
    };
    match (status, known) {
        (Status::Unsat, Known::Sat | Known::Cost { .. }) => {
            checked.wrong = Some("UNSAT, but the instance is known satisfiable".to_string());
        }
        (Status::Sat | Status::Optimum, Known::Unsat) => {
            checked.file_disagrees =
                Some("a checked model, but the expected answers say UNSAT".to_string());
        }
        (Status::Sat | Status::Optimum, Known::Cost { value, proven }) => {
            let cost = checked.cost.unwrap_or(0);
            if cost < value && proven {
                checked.file_disagrees = Some(format!(
                    "a checked model of cost {cost}, below the known optimum {value}"
                ));
            } else if status == Status::Optimum && cost > value {
                checked.wrong = Some(format!(
                    "optimum {cost} claimed, but cost {value} is known to be reachable"
                ));
            } else if status == Status::Optimum && cost < value && !proven {
                // Better than the best known: a checked improvement, not an error.
            }
        }
        _ => {}
    }
    checked
}

/// What the solvers' checked answers on one instance say, by solver name: the disagreements
/// among them, one sentence each (empty when they agree).
pub fn disagreements(weighted: bool, answers: &[(&str, &Checked)]) -> Vec<String> {
    let valid: Vec<(&str, &Checked)> = answers.iter().filter(|(_, c)| c.ok()).copied().collect();
    let names = |pred: &dyn Fn(&Checked) -> bool| -> Vec<&str> {
        valid
            .iter()
            .filter(|(_, c)| pred(c))
            .map(|(n, _)| *n)
            .collect()
    };
    let mut out = Vec::new();
    let with_model = names(&|c| matches!(c.status, Status::Sat | Status::Optimum));
    let unsat = names(&|c| c.status == Status::Unsat);
    if !with_model.is_empty() && !unsat.is_empty() {
        out.push(format!(
            "{} found a model, {} claimed UNSAT",
            with_model.join("+"),
            unsat.join("+")
        ));
    }
    if weighted {
        let mut optima: Vec<(u64, &str)> = valid
            .iter()
            .filter(|(_, c)| c.status == Status::Optimum)
            .filter_map(|(n, c)| c.cost.map(|cost| (cost, *n)))
            .collect();
        optima.sort();
        if let (Some(low), Some(high)) = (optima.first(), optima.last())
            && low.0 != high.0
        {
            let list: Vec<String> = optima.iter().map(|(c, n)| format!("{n} {c}")).collect();
            out.push(format!("different proven optima: {}", list.join(", ")));
        }
        // A checked model (any status) cheaper than someone's proven optimum.
        if let Some(&(best_opt, opt_name)) = optima.last() {
            for (n, c) in &valid {
                if c.status == Status::Sat
                    && let Some(cost) = c.cost
                    && cost < best_opt
                {
                    out.push(format!(
                        "{n} found cost {cost}, below {opt_name}'s optimum {best_opt}"
                    ));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::answer::parse_output;
    use grim_solver::Lit;
    use std::path::PathBuf;

    fn lits(c: &[i64]) -> Vec<Lit> {
        c.iter().map(|&d| Lit::from_dimacs(d).unwrap()).collect()
    }

    fn cnf() -> Instance {
        Instance {
            path: PathBuf::from("t.cnf"),
            weighted: false,
            num_vars: 2,
            hard: vec![lits(&[1, 2]), lits(&[-1])],
            soft: vec![],
        }
    }

    fn wcnf() -> Instance {
        Instance {
            path: PathBuf::from("t.wcnf"),
            weighted: true,
            num_vars: 2,
            hard: vec![lits(&[1, 2])],
            soft: vec![(3, lits(&[-1])), (5, lits(&[-2]))],
        }
    }

    #[test]
    fn a_model_that_falsifies_a_clause_is_wrong_and_a_good_one_passes() {
        let good = check_run(&cnf(), &parse_output("s SATISFIABLE\nv -1 2 0\n", 2), None);
        assert!(good.ok() && good.solves(false), "{good:?}");
        let bad = check_run(&cnf(), &parse_output("s SATISFIABLE\nv 1 2 0\n", 2), None);
        assert_eq!(
            bad.wrong.as_deref(),
            Some("the model falsifies hard clause 2")
        );
        assert!(!bad.solves(false));
        let missing = check_run(&cnf(), &parse_output("s SATISFIABLE\n", 2), None);
        assert!(!missing.ok(), "{missing:?}");
    }

    #[test]
    fn the_cost_is_recomputed_and_a_false_claim_is_wrong() {
        let good = check_run(
            &wcnf(),
            &parse_output("o 3\ns OPTIMUM FOUND\nv 10\n", 2),
            None,
        );
        assert_eq!((good.cost, good.ok()), (Some(3), true));
        let lie = check_run(
            &wcnf(),
            &parse_output("o 2\ns OPTIMUM FOUND\nv 10\n", 2),
            None,
        );
        assert_eq!(
            lie.wrong.as_deref(),
            Some("reported cost 2, the model costs 3")
        );
        let known = Some(Known::Cost {
            value: 3,
            proven: true,
        });
        let high = check_run(
            &wcnf(),
            &parse_output("o 5\ns OPTIMUM FOUND\nv 01\n", 2),
            known,
        );
        assert!(high.wrong.is_some(), "{high:?}");
        let unsat = check_run(&wcnf(), &parse_output("s UNSATISFIABLE\n", 2), known);
        assert!(unsat.wrong.is_some());
    }

    #[test]
    fn sat_against_unsat_and_different_optima_disagree() {
        let sat = check_run(&cnf(), &parse_output("s SATISFIABLE\nv -1 2 0\n", 2), None);
        let unsat = check_run(&cnf(), &parse_output("s UNSATISFIABLE\n", 2), None);
        assert_eq!(disagreements(false, &[("a", &sat), ("b", &unsat)]).len(), 1);
        assert!(disagreements(false, &[("a", &sat), ("b", &sat)]).is_empty());
        let three = check_run(&wcnf(), &parse_output("s OPTIMUM FOUND\nv 10\n", 2), None);
        let five = check_run(&wcnf(), &parse_output("s OPTIMUM FOUND\nv 01\n", 2), None);
        let d = disagreements(true, &[("a", &three), ("b", &five)]);
        assert_eq!(d, vec!["different proven optima: a 3, b 5".to_string()]);
    }
}
