//! Cardinality encodings against enumeration: a bound `lo ≤ Σ lits ≤ hi` over up to 8 input
//! literals on up to 6 variables (repeats and negations allowed, counted as a multiset), with a
//! fuzzer-chosen encoding (or the front end's choice) and optionally a guard literal. For every
//! assignment of the input variables, the clauses extend to a model exactly when the bound
//! holds (or the guard is true) — checked by the engine under those values as assumptions.
#![no_main]

use arbitrary::{Arbitrary, Unstructured};
use grim_encodings::card::{CardOptions, Encoding, between_with};
use grim_encodings::{Cnf, Lit};
use grim_solver::{Budget, Solver, Status};
use libfuzzer_sys::fuzz_target;

#[derive(Debug)]
struct Case {
    vars: usize,
    lits: Vec<Lit>,
    lo: usize,
    hi: usize,
    encoding: Option<Encoding>,
    guarded: bool,
}

impl<'a> Arbitrary<'a> for Case {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Case> {
        let vars = u.int_in_range(1..=6usize)?;
        let n = u.int_in_range(0..=8usize)?;
        let lits = (0..n)
            .map(|_| {
                let v = u.int_in_range(1..=vars as i64)?;
                let neg: bool = u.arbitrary()?;
                Ok(Lit::from_dimacs(if neg { -v } else { v }).expect("in range"))
            })
            .collect::<arbitrary::Result<Vec<Lit>>>()?;
        let lo = u.int_in_range(0..=n + 1)?;
        let hi = u.int_in_range(0..=n + 1)?;
        let encoding = match u.int_in_range(0..=4u8)? {
            0 => None,
            1 => Some(Encoding::Pairwise),
            2 => Some(Encoding::SeqCounter),
            3 => Some(Encoding::Totalizer),
            _ => Some(Encoding::CardNet),
        };
        Ok(Case {
            vars,
            lits,
            lo,
            hi,
            encoding,
            guarded: u.arbitrary()?,
        })
    }
}

fuzz_target!(|case: Case| {
    let mut cnf = Cnf::new(case.vars + usize::from(case.guarded));
    let guard = case
        .guarded
        .then(|| Lit::from_dimacs(case.vars as i64 + 1).expect("in range"));
    between_with(
        &mut cnf,
        &case.lits,
        case.lo,
        case.hi,
        CardOptions {
            encoding: case.encoding,
            guard,
        },
    );
    let mut solver = Solver::new();
    solver.reserve_vars(cnf.num_vars.max(case.vars + 1));
    for c in &cnf.clauses {
        solver.add_clause(c);
    }
    for bits in 0u32..1 << case.vars {
        let value = |l: Lit| (bits >> l.var().index() & 1 == 1) == l.is_positive();
        let count = case.lits.iter().filter(|&&l| value(l)).count();
        let holds = case.lo <= count && count <= case.hi;
        let inputs: Vec<Lit> = (0..case.vars)
            .map(|v| {
                let l = Lit::from_dimacs(v as i64 + 1).expect("in range");
                if bits >> v & 1 == 1 { l } else { !l }
            })
            .collect();
        let guard_values: &[bool] = if guard.is_some() {
            &[false, true]
        } else {
            &[false]
        };
        for &guard_value in guard_values {
            let mut assumptions = inputs.clone();
            if let Some(g) = guard {
                assumptions.push(if guard_value { g } else { !g });
            }
            let expected = holds || guard_value;
            let status = solver.solve(&assumptions, Budget::UNLIMITED);
            assert_eq!(
                status == Status::Sat,
                expected,
                "{case:?}: assignment {bits:0w$b}, count {count}, guard {guard_value}",
                w = case.vars
            );
        }
    }
});
