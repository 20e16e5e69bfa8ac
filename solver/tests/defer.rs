//! `Solver::defer_decision`: deferred variables are decided only once every other variable
//! is assigned, and deferring never changes what the engine answers.

use grim_solver::{Budget, Lit, Options, Solver, Status, Var};
use grim_testkit::generate::random_cnf;
use grim_testkit::{Answer, SplitMix64 as Rng, satisfiable as brute_force};

fn var(i: u32) -> Var {
    Var::new(i).expect("a small variable")
}

/// Ten variables `x` and forty deferred `d`, every `d` excluding every `x` (`¬d ∨ ¬x`), all
/// preferring true. A decision on any `d` first would make every `x` false; decided last, the
/// `d` find every `x` true and are propagated false. Under every schedule (the aggressive one
/// makes random decisions and restarts every few conflicts), the model has every `x` true.
#[test]
fn deferred_variables_are_decided_after_every_other_one() {
    for (round, opts) in [Options::default(), Options::aggressive(), {
        let mut o = Options::aggressive();
        o.seed = 11;
        o
    }]
    .into_iter()
    .enumerate()
    {
        // The deferred variables come first (0..nd), where the decision orders' ties put
        // them ahead of the `x` (nd..nd+nx); five more deferred ones at the end are in no
        // clause and must still be assigned in the model.
        let (nx, nd) = (10u32, 40u32);
        let all = nx + nd + 5;
        let is_x = |v: u32| (nd..nd + nx).contains(&v);
        let mut s = Solver::with_options(opts);
        s.reserve_vars(all as usize);
        for d in (0..all).filter(|&v| !is_x(v)) {
            for x in nd..nd + nx {
                if d < nd {
                    s.add_clause(&[var(d).neg(), var(x).neg()]);
                }
            }
            s.defer_decision(var(d));
        }
        for v in 0..all {
            s.set_phase(var(v).pos());
            // Kept from elimination: each `d` is pure, which preprocessing would settle alone.
            s.freeze(var(v));
        }
        assert_eq!(
            s.solve(&[], Budget::UNLIMITED),
            Status::Sat,
            "round {round}"
        );
        let m = s.model().expect("a model after Sat");
        assert_eq!(m.len(), all as usize, "round {round}");
        assert!(
            (0..all).filter(|&v| is_x(v)).all(|v| m[v as usize]),
            "round {round}: {m:?}"
        );
        assert!((0..nd).all(|v| !m[v as usize]), "round {round}");
    }
}

/// Random small CNFs with a random set of deferred variables: the same status as brute force,
/// and every model satisfies the clauses.
#[test]
fn deferring_decisions_keeps_the_answers_of_brute_force() {
    let mut rng = Rng::new(0xde_fe);
    let (mut sat, mut unsat) = (0, 0);
    for round in 0..600 {
        let vars = 3 + rng.below(10) as u32;
        let clauses: Vec<Vec<Lit>> = random_cnf(&mut rng, vars, vars as usize * (2 + round % 3), 3);
        let mut s = Solver::with_options(if round % 2 == 0 {
            Options::default()
        } else {
            Options::aggressive()
        });
        s.reserve_vars(vars as usize);
        for c in &clauses {
            s.add_clause(c);
        }
        for v in 0..vars {
            if rng.below(2) == 0 {
                s.defer_decision(var(v));
            }
        }
        let status = s.solve(&[], Budget::UNLIMITED);
        // The referee checks the model against the clauses (or the refutation's status).
        match grim_testkit::check_answer(&s, status, &clauses, &[], false) {
            Answer::Sat(_) => sat += 1,
            _ => unsat += 1,
        }
        assert_eq!(
            status == Status::Sat,
            brute_force(&clauses, &[]),
            "round {round}"
        );
    }
    assert!(sat > 100 && unsat > 100, "sat {sat}, unsat {unsat}");
}
