//! What the fuzz targets share: decoding fuzzer bytes into small formulas. The brute-force
//! oracle and the referee of one `solve` answer (status, model, core) are `grim-testkit`'s,
//! the same ones the engine's tests use.
//!
//! Everything stays at ≤ [`MAX_VARS`] variables, so brute force is at most 4096 assignments
//! over bit-packed clauses: a few hundred microseconds per solve, which keeps the targets at
//! thousands of executions per second.
#![forbid(unsafe_code)]

use grim_formats::{ParseError, Warning};
use grim_solver::{Budget, Lit, Options, Solver, Status, Terminator, Var};

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

/// The literals of the first `most` fuzzer bytes over [`MAX_VARS`] variables (see
/// [`lit_of`]): how the sequence targets decode a clause or a set of assumptions.
pub fn lits_of(bytes: &[u8], most: usize) -> Vec<Lit> {
    bytes
        .iter()
        .take(most)
        .map(|&b| lit_of(b, MAX_VARS))
        .collect()
}

/// The budget of a fuzzer's optional byte: none is unlimited, `n` is `n` conflicts (small, so
/// that `Unknown` answers are common).
pub fn budget_of(conflicts: Option<u8>) -> Budget {
    conflicts.map_or(Budget::UNLIMITED, |n| Budget::conflicts(u64::from(n)))
}

/// A sequence target's `Solve` step: the first `most` assumption bytes decoded (see
/// [`lits_of`]), solved under the budget of the optional conflict byte (see [`budget_of`]).
/// Returns the assumptions, for the referee, and the status.
pub fn solve_bytes(
    s: &mut Solver,
    assumptions: &[u8],
    most: usize,
    conflicts: Option<u8>,
) -> (Vec<Lit>, Status) {
    let a = lits_of(assumptions, most);
    let status = s.solve(&a, budget_of(conflicts));
    (a, status)
}

/// The option set a fuzzer byte picks: default, aggressive, aggressive with a seed,
/// aggressive without minimisation/stable mode/walks/elimination, aggressive with the lucky
/// phases and every inprocessing technique at every chance (probing, substitution, transitive
/// reduction,
/// subsumption, elimination rounds with AND/ITE/XOR gates, vivification of irredundant
/// clauses), or aggressive with no inprocessing at all (factoring and learned-clause shrinking
/// off too; shrinking is on in the four with minimisation; EVSIDS in both modes, without
/// reason-side bumping, where the aggressive schedule decides by VMTF in focused mode and
/// bumps reasons; no random decision sequences, where the aggressive schedule starts one every
/// few conflicts; fixed tier limits instead of the ones computed from the uses). Factoring is on
/// in the other five (its default), so every target that adds variables after a solve also
/// undoes it (`factor.rs`); the one without minimisation also breaks factoring's ties by code
/// order instead of the 3-hop heuristic (`factor_structured` off), so both re-encodings run.
/// Chronological backtracking: the aggressive schedule backtracks one level on every conflict
/// (`chrono_levels` 0); the seeded set jumps up to two levels and backtracks one level past
/// that, so both kinds of backtrack meet in one search; the one without minimisation turns it
/// off, so the classic backjump is fuzzed under the aggressive schedule too; the default set
/// keeps the default threshold. Congruence closure (`congruence.rs`) runs in the set with every
/// technique at every chance (every conflict) and in the seeded set (every four), whatever its
/// default. The model check is always on.
pub fn options_of(choice: u8, seed: u64) -> Options {
    let aggressive = Options::aggressive();
    match choice % 6 {
        4 => Options {
            probe_interval: 1,
            substitute_interval: 1,
            transred_interval: 1,
            subsume_interval: 1,
            eliminate_interval: 1,
            vivify_irredundant_share: 0.5,
            // Lucky first (the aggressive schedule turns it off), then every inprocessing
            // technique on whatever lucky left.
            lucky: true,
            eliminate_gates_ite_xor: true,
            congruence: true,
            congruence_interval: 1,
            seed,
            ..aggressive
        },
        5 => Options {
            probe: false,
            substitute: false,
            transred: false,
            subsume: false,
            eliminate: false,
            vivify_effort: 0.0,
            factor: false,
            shrink: false,
            vmtf: false,
            bump_reasons: false,
            randec: false,
            reduce_tier1_relative: 0.0,
            reduce_tier2_relative: 0.0,
            seed,
            ..aggressive
        },
        0 => Options {
            check_model: true,
            ..Options::default()
        },
        1 => aggressive,
        2 => Options {
            chrono_levels: 2,
            congruence: true,
            seed,
            ..aggressive
        },
        _ => Options {
            minimize: false,
            stable: false,
            walk_effort: 0.0,
            eliminate: false,
            factor_structured: false,
            chrono: false,
            seed,
            ..aggressive
        },
    }
}

pub use grim_testkit::{Answer, check_answer, vars_of};

/// The brute-force oracle of `grim-testkit` ([`grim_testkit::satisfiable`]), bounded here by
/// [`MAX_VARS`] so that a target that decodes too many variables fails loudly.
pub fn brute_force(clauses: &[Vec<Lit>], assumptions: &[Lit]) -> bool {
    let vars = vars_of(clauses, assumptions);
    assert!(vars <= MAX_VARS, "brute force over {vars} variables");
    grim_testkit::satisfiable(clauses, assumptions)
}

/// A solver's [`Terminator`] and whether the sequence has raised it, for the sequence targets'
/// `Terminate` and `Reset` steps: while raised, `Unknown` is a legal answer (the flag stays
/// up across calls until [`Stop::reset`], as the terminator does).
pub struct Stop {
    terminator: Terminator,
    raised: bool,
}

impl Stop {
    /// `terminator` (the solver's, from `Solver::terminator`), not raised.
    pub fn new(terminator: Terminator) -> Self {
        Stop {
            terminator,
            raised: false,
        }
    }

    /// Raises the terminator: every later call may answer `Unknown`.
    pub fn terminate(&mut self) {
        self.terminator.terminate();
        self.raised = true;
    }

    /// Lowers it again.
    pub fn reset(&mut self) {
        self.terminator.reset();
        self.raised = false;
    }

    /// Whether it is raised.
    pub fn raised(&self) -> bool {
        self.raised
    }
}

/// The first check of both text-reader targets: a strict read that succeeds equals the
/// lenient one and has no warnings. `parts` picks a parse's formula and warnings.
pub fn assert_strict_agrees<P, T: PartialEq + std::fmt::Debug>(
    lenient: &Result<P, ParseError>,
    strict: &Result<P, ParseError>,
    parts: impl Fn(&P) -> (&T, &[Warning]),
) {
    if let Ok(strict) = strict {
        let lenient = lenient
            .as_ref()
            .expect("strict accepted what lenient refused");
        let ((strict, warnings), (lenient, _)) = (parts(strict), parts(lenient));
        assert_eq!(strict, lenient, "strict and lenient reads differ");
        assert!(warnings.is_empty(), "a strict read with warnings");
    }
}
