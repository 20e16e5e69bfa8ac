//! The Problem API: hard rules and weighted wishes over Boolean variables, solved to a proven
//! optimum.
//!
//! This is the mid-level layer level generation is written against: build a [`Problem`] from
//! clauses, conjunctions, counts and implications — each either *hard* (`weight: None`, must
//! hold) or *soft* (`Some(w)`, costs `w` when it does not) — add phase hints, and call
//! [`Problem::solve`]. The answer is checked by [`Problem::check`], a referee that evaluates the
//! constraints *as stated* (counts counted, conjunctions conjoined), independently of the clauses
//! the encodings produced; a disagreement is reported as an error, never returned as an answer.
//!
//! ```
//! use grim_maxsat::problem::{Outcome, Problem};
//! use grim_solver::Budget;
//!
//! let mut p = Problem::new();
//! let cells: Vec<_> = (0..4).map(|_| p.new_var().pos()).collect();
//! p.count(&cells, 1, 2, None);             // hard: one or two cells are walls
//! p.count(&cells, 3, 4, Some(5));          // a wish: at least three (costs 5 if not)
//! p.add_clause(&[!cells[0]], Some(1));     // a wish: cell 0 open (costs 1 if not)
//! let outcome = p.solve(Budget::UNLIMITED).expect("weights and sizes fit");
//! let s = outcome.optimum().expect("no budget: the optimum is proven");
//! assert_eq!(s.cost(), 5);                 // the count wish cannot be met; the other can
//! assert_eq!(s.unmet_wishes().len(), 1);
//! assert!(!s.value(cells[0]));
//! assert!(p.check(s.model()).is_ok());
//!
//! p.add_clause(&[], None);                 // the empty hard clause: nothing satisfies it
//! assert_eq!(p.solve(Budget::UNLIMITED), Ok(Outcome::Unsatisfiable)); // an answer, not an error
//! ```
//!
//! # Encoding
//! Everything goes into one [`Wcnf`]. Variable 0 is asserted true (a hard unit) and serves as
//! [`Problem::always_true`] / [`Problem::always_false`]. A soft clause is a soft clause of the
//! WCNF. A soft count gets a relaxation variable `r`: the counter's defining clauses are hard,
//! only the clauses asserting the bound carry `r` ([`card::CardOptions::guard`]), and the
//! soft unit `¬r` carries the weight — so a violated wish costs exactly its weight and the
//! counter still propagates. Hard counts use [`card::between`] (pairwise for small
//! exactly-one, a counter, totalizer or network otherwise, by measured size).
//!
//! A problem made by [`Problem::streaming`] keeps no hard clauses: each goes to a
//! [`HardClauseSink`] as it is made (the grid export writes them to a file, so its memory does
//! not grow with 16 million clauses). It keeps the counts, soft clauses and hints, and is never
//! solved. Rejected: a flat clause arena (one literal array and clause ends) for every
//! problem — it would halve the memory, not bound it, and the export needs neither the clauses
//! nor the constraints as stated once they are written.
//!
//! # Two referees
//! [`Problem::check`] evaluates the constraints as stated (counts counted, conjunctions
//! conjoined): it would catch an encoding bug instead of agreeing with it.
//! [`Problem::check_clauses`] evaluates the hard clauses actually built — the referee of the
//! module this grew from, and the one that applies to an external solver's answer to the
//! exported WCNF. [`Problem::solve`] runs both.

use crate::{MaxSatError, MaxSatStatus, Oll, OllOptions};
use grim_encodings::card::{self, CardOptions};
use grim_formula::{ClauseSink, Wcnf};
use grim_solver::{Budget, Terminator, normalise_clause};
pub use grim_solver::{Lit, Var};
use std::fmt;
use std::sync::{Arc, Mutex};

/// One constraint as the caller stated it (after dropping tautologies and merging duplicate
/// literals of clauses), kept for the referee. `weight: None` is hard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Constraint {
    /// At least one of `lits` is true ([`Problem::add_clause`]; variable 0's unit is index 0).
    Clause {
        /// The literals.
        lits: Vec<Lit>,
        /// `None`: hard; `Some(w)`: costs `w` when violated.
        weight: Option<u64>,
    },
    /// `lo ≤ |{l ∈ lits : l}| ≤ hi`, counted with multiplicity ([`Problem::count`]).
    Count {
        /// The literals counted.
        lits: Vec<Lit>,
        /// Lower bound.
        lo: usize,
        /// Upper bound.
        hi: usize,
        /// `None`: hard; `Some(w)`: costs `w` when violated.
        weight: Option<u64>,
    },
    /// `out ↔ ⋀ lits` ([`Problem::conj`]); always hard.
    Conj {
        /// The defined literal.
        out: Lit,
        /// The conjuncts.
        lits: Vec<Lit>,
    },
    /// `l → ⋁ ms` ([`Problem::implies_any`]).
    ImpliesAny {
        /// The premise.
        l: Lit,
        /// The alternatives.
        ms: Vec<Lit>,
        /// `None`: hard; `Some(w)`: costs `w` when violated.
        weight: Option<u64>,
    },
}

impl Constraint {
    /// The constraint's weight (`None`: hard).
    pub fn weight(&self) -> Option<u64> {
        match self {
            Constraint::Clause { weight, .. }
            | Constraint::Count { weight, .. }
            | Constraint::ImpliesAny { weight, .. } => *weight,
            Constraint::Conj { .. } => None,
        }
    }

    /// Whether `assignment` satisfies the constraint as stated (variables beyond the slice are
    /// false).
    pub fn holds(&self, assignment: &[bool]) -> bool {
        let value =
            |l: Lit| assignment.get(l.var().index()).copied().unwrap_or(false) == l.is_positive();
        match self {
            Constraint::Clause { lits, .. } => lits.iter().any(|&l| value(l)),
            Constraint::Count { lits, lo, hi, .. } => {
                let c = lits.iter().filter(|&&l| value(l)).count();
                *lo <= c && c <= *hi
            }
            Constraint::Conj { out, lits } => value(*out) == lits.iter().all(|&l| value(l)),
            Constraint::ImpliesAny { l, ms, .. } => !value(*l) || ms.iter().any(|&m| value(m)),
        }
    }
}

/// The referee's verdict on an assignment that breaks a hard constraint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// The index of the first violated hard constraint in [`Problem::constraints`].
    pub index: usize,
    /// That constraint.
    pub constraint: Constraint,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "hard constraint {} is violated: {:?}",
            self.index, self.constraint
        )
    }
}

impl std::error::Error for Violation {}

/// An answer of [`Problem::solve`]: an assignment satisfying every hard constraint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    model: Vec<bool>,
    cost: u64,
    unmet: Vec<usize>,
}

impl Solution {
    /// The value of `lit` (variables the problem never used are false).
    pub fn value(&self, lit: Lit) -> bool {
        self.model.get(lit.var().index()).copied().unwrap_or(false) == lit.is_positive()
    }

    /// One value per variable of the problem (auxiliary encoding variables included).
    pub fn model(&self) -> &[bool] {
        &self.model
    }

    /// The summed weight of the wishes this solution leaves unmet, as the referee counts it
    /// ([`Problem::unmet`]). Zero means every wish is met; more means the wishes conflict with
    /// the rules or with each other — an answer, not an error.
    pub fn cost(&self) -> u64 {
        self.cost
    }

    /// The indices (in [`Problem::constraints`]) of the wishes left unmet.
    pub fn unmet_wishes(&self) -> &[usize] {
        &self.unmet
    }
}

/// Engine work done by [`Problem::solve_within`], in the units of a [`Budget`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Effort {
    /// Conflicts, over every engine call.
    pub conflicts: u64,
    /// Propagations, over every engine call.
    pub propagations: u64,
}

impl Effort {
    /// What is left of `budget` after this much work (`None` limits stay `None`).
    pub fn left_of(&self, budget: Budget) -> Budget {
        budget.left_after(self.conflicts, self.propagations)
    }
}

/// How [`Problem::solve`] ended: an answer, never an error. Running out of budget is an
/// answer too (what was found and what was proven), as UNSAT is.
///
/// Conflicting wishes are not a separate case: the optimum then has a positive
/// [`Solution::cost`] and names its [`Solution::unmet_wishes`].
///
/// ```
/// use grim_maxsat::problem::{Outcome, Problem};
/// use grim_solver::Budget;
///
/// let mut p = Problem::new();
/// let x: Vec<_> = (0..6).map(|_| p.new_var().pos()).collect();
/// p.count(&x, 2, 2, None);
/// for &l in &x {
///     p.add_clause(&[l], Some(1));
/// }
/// match p.solve(Budget::UNLIMITED).unwrap() {
///     Outcome::Optimum(s) => assert_eq!(s.cost(), 4),
///     Outcome::Unsatisfiable => unreachable!("two of six can be true"),
///     Outcome::Stopped { best, lower_bound } => {
///         // Only with a finite budget: what was found, and what was proven.
///         assert!(best.is_none_or(|s| s.cost() >= lower_bound));
///     }
/// }
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A solution of least cost, proven optimal, checked by both referees.
    Optimum(Solution),
    /// The hard rules cannot be satisfied, whatever the wishes: proven, not a budget matter.
    Unsatisfiable,
    /// The budget ran out (or the stop handle was set) before optimality was proven. This is
    /// not a statement that no answer exists: `best` is the best solution found so far (if any,
    /// checked by the referees; its cost is an upper bound on the optimum) and `lower_bound`
    /// what was proven about the optimum's cost. Solve again with more budget.
    Stopped {
        /// The best solution found, if any.
        best: Option<Solution>,
        /// A proven lower bound on the optimal cost.
        lower_bound: u64,
    },
}

impl Outcome {
    /// The proven optimum, if that is how the solve ended.
    pub fn optimum(&self) -> Option<&Solution> {
        match self {
            Outcome::Optimum(s) => Some(s),
            _ => None,
        }
    }

    /// The best solution known: the optimum, or the best found before a stop.
    pub fn best(&self) -> Option<&Solution> {
        match self {
            Outcome::Optimum(s) => Some(s),
            Outcome::Stopped { best, .. } => best.as_ref(),
            Outcome::Unsatisfiable => None,
        }
    }

    /// [`Outcome::optimum`], by value.
    pub fn into_optimum(self) -> Option<Solution> {
        match self {
            Outcome::Optimum(s) => Some(s),
            _ => None,
        }
    }
}

/// Why [`Problem::solve`] could not answer at all: input the optimiser cannot represent, or an
/// internal error caught by the referees. Unsatisfiable rules and spent budgets are
/// [`Outcome`]s, not errors.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// The soft weights add up past `u64::MAX`; scale them down.
    WeightOverflow,
    /// More variables than the engine can hold.
    TooManyVariables {
        /// The number of variables the problem needs.
        num_vars: usize,
    },
    /// The optimiser's answer failed the referee: an internal error, reported rather than
    /// returned as an answer. Please report it with the problem.
    Rejected(Rejection),
    /// The problem's hard clauses were handed to a stream as they were made and not kept
    /// ([`Problem::streaming`]): it can be written out, not solved.
    Streamed,
}

/// What the referee found wrong with an optimiser's answer ([`SolveError::Rejected`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rejection {
    /// The model breaks a hard constraint as stated.
    HardViolated(Violation),
    /// The optimiser's claimed optimum and the referee's count of unmet wishes differ.
    CostMismatch {
        /// The optimiser's cost (on the WCNF).
        optimiser: Option<u64>,
        /// The referee's cost (on the constraints as stated).
        referee: u64,
    },
    /// The model falsifies a hard clause of the built encoding ([`Problem::check_clauses`]).
    ClauseFalsified {
        /// The index of the clause in [`Problem::to_wcnf`]'s `hard` list.
        clause: usize,
    },
    /// A solution was reported without a model.
    NoModel,
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::WeightOverflow => {
                write!(f, "the soft weights add up past 2^64 - 1; scale them down")
            }
            SolveError::TooManyVariables { num_vars } => {
                write!(
                    f,
                    "the problem needs {num_vars} variables, more than the engine holds"
                )
            }
            SolveError::Rejected(r) => {
                write!(
                    f,
                    "internal error: the optimiser's answer failed the referee: "
                )?;
                match r {
                    Rejection::HardViolated(v) => write!(f, "{v}"),
                    Rejection::CostMismatch { optimiser, referee } => write!(
                        f,
                        "the optimiser's optimum costs {optimiser:?}, the referee counts {referee}"
                    ),
                    Rejection::ClauseFalsified { clause } => {
                        write!(
                            f,
                            "the model falsifies hard clause {clause} of the encoding"
                        )
                    }
                    Rejection::NoModel => write!(f, "a solution was reported without a model"),
                }
            }
            SolveError::Streamed => write!(
                f,
                "the problem's hard clauses were streamed out, not kept: nothing to solve"
            ),
        }
    }
}

impl std::error::Error for SolveError {}

/// Hard rules and weighted wishes over Boolean variables; see the module doc.
///
/// ```
/// use grim_maxsat::problem::Problem;
/// use grim_solver::Budget;
///
/// // Three rooms, at most one lit; each room wishes to be lit, the middle one twice as much.
/// let mut p = Problem::new();
/// let rooms: Vec<_> = (0..3).map(|_| p.new_var().pos()).collect();
/// p.count(&rooms, 0, 1, None);
/// for (i, &room) in rooms.iter().enumerate() {
///     p.add_clause(&[room], Some(if i == 1 { 2 } else { 1 }));
/// }
/// let best = p.solve(Budget::UNLIMITED).unwrap().into_optimum().unwrap();
/// assert!(best.value(rooms[1]));
/// assert_eq!(best.cost(), 2); // the two side rooms' wishes go unmet
/// assert!(p.check(best.model()).is_ok());
/// ```
#[derive(Clone, Debug)]
pub struct Problem {
    /// The clauses; with a `stream`, only the soft ones (and the variable count).
    wcnf: Wcnf,
    constraints: Vec<Constraint>,
    /// Phase hints by variable index (`None`: no hint).
    phases: Vec<Option<bool>>,
    /// Where the hard clauses go instead of `wcnf.hard` ([`Problem::streaming`]), and how many
    /// went there.
    stream: Option<(HardStream, usize)>,
}

/// Receives the hard clauses of a [`Problem::streaming`] problem, one at a time, in the order
/// [`Problem::to_wcnf`] would have listed them. Infallible by design: a sink that writes to a
/// file keeps its first I/O error and reports it when its owner asks, so that the encoders
/// (which cannot fail) need no error path.
pub trait HardClauseSink: Send {
    /// One hard clause: sorted, deduplicated, never a tautology (as the problem stores it).
    fn clause(&mut self, lits: &[Lit]);
}

/// The shared handle to a [`HardClauseSink`] a streaming [`Problem`] writes to. Shared (an
/// `Arc`) because the problem is `Clone` and the caller keeps its own handle to read the sink
/// back; a clone of a streaming problem writes to the same sink. The lock is uncontended (one
/// thread builds), so it costs two atomic operations a clause.
#[derive(Clone)]
pub struct HardStream(pub Arc<Mutex<dyn HardClauseSink>>);

impl fmt::Debug for HardStream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("HardStream")
    }
}

/// A [`ClauseSink`] that routes hard clauses to a problem's stream or its WCNF: what the
/// cardinality encodings write through.
struct HardOut<'a> {
    wcnf: &'a mut Wcnf,
    stream: Option<&'a mut (HardStream, usize)>,
}

impl ClauseSink for HardOut<'_> {
    fn new_var(&mut self) -> Var {
        self.wcnf.new_var()
    }
    fn add_clause(&mut self, lits: &[Lit]) {
        match &mut self.stream {
            None => self.wcnf.add_clause(lits),
            Some((sink, count)) => {
                // As `Wcnf::add_clause` would: the variable count covers every clause.
                if let Some(max) = lits.iter().map(|l| l.var().index() + 1).max() {
                    self.wcnf.num_vars = self.wcnf.num_vars.max(max);
                }
                *count += 1;
                // A poisoned lock means a sink panicked earlier; its data is still the
                // sink's own to judge, so keep writing to it.
                let mut sink = sink.0.lock().unwrap_or_else(|e| e.into_inner());
                sink.clause(lits);
            }
        }
    }
}

impl Default for Problem {
    fn default() -> Problem {
        Problem::new()
    }
}

impl Problem {
    /// An empty problem: variable 0 exists and is asserted true (a hard unit clause), so
    /// [`Problem::always_true`] and [`Problem::always_false`] are literals like any other.
    pub fn new() -> Problem {
        let mut wcnf = Wcnf::new(0);
        let zero = wcnf.new_var().pos();
        wcnf.add_clause(&[zero]);
        Problem {
            wcnf,
            constraints: vec![Constraint::Clause {
                lits: vec![zero],
                weight: None,
            }],
            phases: Vec::new(),
            stream: None,
        }
    }

    /// An empty problem, as [`Problem::new`], whose hard clauses go to `sink` as they are made
    /// instead of being kept (variable 0's unit first): for writing out an instance too large
    /// to hold, such as the 128×128 grid export (16 million clauses, issue 40).
    ///
    /// Kept as in any problem: the variable count (covering every clause), the soft clauses,
    /// the phase hints and [`Problem::hard_len`]. Not kept: the hard clauses and the
    /// constraints as stated, so [`Problem::constraints`] is empty, the referees
    /// [`Problem::check`] and [`Problem::check_clauses`] judge nothing, and
    /// [`Problem::solve`] answers [`SolveError::Streamed`]. [`Problem::to_wcnf`] and
    /// [`Problem::as_wcnf`] hold the soft clauses only.
    pub fn streaming(sink: HardStream) -> Problem {
        let mut p = Problem {
            wcnf: Wcnf::new(0),
            constraints: Vec::new(),
            phases: Vec::new(),
            stream: Some((sink, 0)),
        };
        let zero = p.wcnf.new_var().pos();
        p.hard().add_clause(&[zero]);
        p
    }

    /// Whether the hard clauses go to a stream ([`Problem::streaming`]).
    pub fn is_streaming(&self) -> bool {
        self.stream.is_some()
    }

    /// Where hard clauses go: the stream or the WCNF.
    fn hard(&mut self) -> HardOut<'_> {
        HardOut {
            wcnf: &mut self.wcnf,
            stream: self.stream.as_mut(),
        }
    }

    /// Records a constraint as stated, unless the problem streams (which keeps none).
    fn record(&mut self, c: Constraint) {
        if self.stream.is_none() {
            self.constraints.push(c);
        }
    }

    /// The literal that is true in every solution (variable 0).
    pub fn always_true(&self) -> Lit {
        Lit::new(Var::default(), false)
    }

    /// The literal that is false in every solution (¬ variable 0).
    pub fn always_false(&self) -> Lit {
        !self.always_true()
    }

    /// A fresh variable.
    pub fn new_var(&mut self) -> Var {
        self.wcnf.new_var()
    }

    /// The number of hard clauses emitted so far (the index the next one will have in
    /// [`Problem::to_wcnf`]'s `hard`), so that an encoder can tell which clauses a rule made.
    pub fn hard_len(&self) -> usize {
        self.wcnf.hard.len() + self.stream.as_ref().map_or(0, |s| s.1)
    }

    /// The number of variables, variable 0 and the encodings' auxiliary variables included.
    pub fn num_vars(&self) -> usize {
        self.wcnf.num_vars
    }

    /// Adds the clause `⋁ lits`: hard (`None`) or a wish of weight `w` (`Some(w)`).
    ///
    /// Duplicate literals are merged; a tautology (`x ∨ ¬x`, or containing
    /// [`Problem::always_true`]) is dropped — it holds anyway; [`Problem::always_false`] is
    /// dropped from the clause. The empty clause is kept: hard, it makes the problem
    /// unsatisfiable; soft, it always costs its weight.
    pub fn add_clause(&mut self, lits: &[Lit], weight: Option<u64>) {
        let Some(lits) = self.simplify_clause(lits) else {
            return;
        };
        match weight {
            None => self.hard().add_clause(&lits),
            Some(w) => self.wcnf.add_soft(w, &lits),
        }
        self.record(Constraint::Clause { lits, weight });
    }

    /// Sorted, deduplicated, without `always_false`; `None` for a tautology.
    fn simplify_clause(&self, lits: &[Lit]) -> Option<Vec<Lit>> {
        normalise(lits, self.always_false(), self.always_true())
    }

    /// A literal `y` with `y ↔ ⋀ lits` (always hard: it defines `y`).
    ///
    /// Degenerate cases fold without a new variable: the empty conjunction is
    /// [`Problem::always_true`], one containing `x` and `¬x` or `always_false` is
    /// [`Problem::always_false`], and a single literal is itself.
    pub fn conj(&mut self, lits: &[Lit]) -> Lit {
        let (t, f) = (self.always_true(), self.always_false());
        let Some(v) = normalise(lits, t, f) else {
            return f;
        };
        match v.as_slice() {
            [] => return t,
            [one] => return *one,
            _ => {}
        }
        let y = self.wcnf.new_var().pos();
        let mut hard = self.hard();
        for &l in &v {
            hard.add_clause(&[!y, l]);
        }
        let mut big: Vec<Lit> = v.iter().map(|&l| !l).collect();
        big.push(y);
        hard.add_clause(&big);
        self.record(Constraint::Conj { out: y, lits: v });
        y
    }

    /// Requires `lo ≤ |{l ∈ lits : l}| ≤ hi` (with multiplicity): hard (`None`) or a wish of
    /// weight `w`.
    ///
    /// A vacuous bound (`lo == 0`, `hi ≥ lits.len()`) emits nothing and records nothing. An
    /// impossible one (`lo > hi` or `lo > lits.len()`) emits the empty clause — hard: the problem
    /// is unsatisfiable; soft: it always costs `w`. Otherwise the encoding is
    /// [`card::between`]'s choice (pairwise for small exactly-one, a counter, totalizer or
    /// network by size); a soft count guards only its assertions by a relaxation variable whose
    /// negation is a soft unit of weight `w`, and its defining clauses are hard.
    pub fn count(&mut self, lits: &[Lit], lo: usize, hi: usize, weight: Option<u64>) {
        let n = lits.len();
        if lo == 0 && hi >= n {
            return;
        }
        if lo > hi || lo > n {
            match weight {
                None => self.hard().add_clause(&[]),
                Some(w) => self.wcnf.add_soft(w, &[]),
            }
        } else {
            match weight {
                None => card::between(&mut self.hard(), lits, lo, hi),
                Some(w) => {
                    let r = self.wcnf.new_var().pos();
                    let options = CardOptions {
                        encoding: None,
                        guard: Some(r),
                    };
                    card::between_with(&mut self.hard(), lits, lo, hi, options);
                    self.wcnf.add_soft(w, &[!r]);
                }
            }
        }
        if self.stream.is_none() {
            self.constraints.push(Constraint::Count {
                lits: lits.to_vec(),
                lo,
                hi,
                weight,
            });
        }
    }

    /// Requires `l → ⋁ ms` (the clause `¬l ∨ ms…`): hard (`None`) or a wish of weight `w`.
    /// With `ms` empty it says `¬l`. Simplified like [`Problem::add_clause`]; a tautology
    /// (`l` among `ms`, say) is dropped.
    pub fn implies_any(&mut self, l: Lit, ms: &[Lit], weight: Option<u64>) {
        let mut clause = Vec::with_capacity(ms.len() + 1);
        clause.push(!l);
        clause.extend_from_slice(ms);
        let Some(lits) = self.simplify_clause(&clause) else {
            return;
        };
        match weight {
            None => self.hard().add_clause(&lits),
            Some(w) => self.wcnf.add_soft(w, &lits),
        }
        self.record(Constraint::ImpliesAny {
            l,
            ms: ms.to_vec(),
            weight,
        });
    }

    /// A phase hint: when the solver decides `v`, it tries `value` first. Hints steer which of
    /// the equally good solutions is found (level variety comes from seeded hints), never the
    /// optimum's cost. A later hint for the same variable replaces the earlier one.
    pub fn prefer(&mut self, v: Var, value: bool) {
        let i = v.index();
        if self.phases.len() <= i {
            self.phases.resize(i + 1, None);
        }
        if let Some(slot) = self.phases.get_mut(i) {
            *slot = Some(value);
        }
    }

    /// The phase hints, as the literals preferred true, in variable order.
    pub fn phases(&self) -> Vec<Lit> {
        self.phases
            .iter()
            .enumerate()
            .filter_map(|(i, p)| {
                let v = Var::new(u32::try_from(i).ok()?)?;
                p.map(|value| v.lit(value))
            })
            .collect()
    }

    /// The constraints as stated, in the order given (index 0 is variable 0's unit).
    pub fn constraints(&self) -> &[Constraint] {
        &self.constraints
    }

    /// The referee: `Ok` when `assignment` (one value per variable index; missing ones are
    /// false) satisfies every hard constraint as stated, else the first one it violates. It
    /// evaluates the constraints themselves, not the clauses encoding them.
    pub fn check(&self, assignment: &[bool]) -> Result<(), Violation> {
        match self
            .constraints
            .iter()
            .enumerate()
            .find(|(_, c)| c.weight().is_none() && !c.holds(assignment))
        {
            None => Ok(()),
            Some((index, c)) => Err(Violation {
                index,
                constraint: c.clone(),
            }),
        }
    }

    /// The second referee: `Ok` when `assignment` satisfies every hard clause actually built
    /// (variable 0's unit, the hard constraints' clauses, the encodings' definitions and
    /// guarded assertions), else the index in [`Problem::to_wcnf`]'s `hard` list of the first
    /// clause it falsifies. This is what an external solver's answer to the exported WCNF is
    /// checked against, since such an answer also sets the encodings' auxiliary variables.
    ///
    /// **Why two referees.** [`Problem::check`] judges the constraints as stated and would
    /// catch an encoding that forbids too little; this one judges the clauses and catches a
    /// solver whose model breaks them. [`Problem::solve`] runs both before it answers.
    pub fn check_clauses(&self, assignment: &[bool]) -> Result<(), usize> {
        let value =
            |l: &Lit| assignment.get(l.var().index()).copied().unwrap_or(false) == l.is_positive();
        match self.wcnf.hard.iter().position(|c| !c.iter().any(value)) {
            None => Ok(()),
            Some(i) => Err(i),
        }
    }

    /// The summed weight of the wishes `assignment` leaves unmet, as stated (saturating at
    /// `u64::MAX`; [`Problem::solve`] rejects weights whose total overflows).
    pub fn unmet(&self, assignment: &[bool]) -> u64 {
        self.unmet_list(assignment)
            .iter()
            .filter_map(|&i| self.constraints.get(i).and_then(Constraint::weight))
            .fold(0u64, u64::saturating_add)
    }

    fn unmet_list(&self, assignment: &[bool]) -> Vec<usize> {
        self.constraints
            .iter()
            .enumerate()
            .filter(|(_, c)| c.weight().is_some() && !c.holds(assignment))
            .map(|(i, _)| i)
            .collect()
    }

    /// The problem as a weighted CNF: hard clauses (variable 0's unit, the hard constraints,
    /// the encodings' definitions) and soft clauses (soft clauses as given; soft counts as the
    /// unit `¬r` of their relaxation variable). Its optimum cost is the problem's.
    pub fn to_wcnf(&self) -> Wcnf {
        self.wcnf.clone()
    }

    /// The hard and soft clauses as they are stored, borrowed: what a writer reads without the
    /// copy [`Problem::to_wcnf`] makes (the 128×128 dungeon's export, 16 million clauses, held
    /// two copies at once before: 3.2 GB at its peak, issue 40).
    pub fn as_wcnf(&self) -> &Wcnf {
        &self.wcnf
    }

    /// Finds a solution of least cost within `budget` (conflicts and propagations over all the
    /// engine calls), proven optimal, with the phase hints applied.
    ///
    /// Every solution in the outcome is re-checked by the referees ([`Problem::check`],
    /// [`Problem::check_clauses`], [`Problem::unmet`]) before it is returned. The [`Outcome`]
    /// tells apart a proven optimum, hard rules that are unsatisfiable (proven), and a budget
    /// that ran out (the best solution so far and the proven lower bound); errors are only for
    /// weights or sizes the optimiser cannot represent, and for an answer the referees reject.
    /// Deterministic: the same problem and budget give the same outcome.
    pub fn solve(&self, budget: Budget) -> Result<Outcome, SolveError> {
        self.solve_within(budget, None, &mut Effort::default())
    }

    /// [`Problem::solve`] that also stops when `stop` is set (from another thread: a wall-clock
    /// limit, a cancelled request), answering [`Outcome::Stopped`] with the best solution so
    /// far, and adds the engine work it did to `effort` whatever the outcome, so
    /// that a caller that solves several times (adding clauses in between, as the grid solver
    /// adds connectivity cuts) can hold all the calls to one budget.
    pub fn solve_within(
        &self,
        budget: Budget,
        stop: Option<&Terminator>,
        effort: &mut Effort,
    ) -> Result<Outcome, SolveError> {
        if self.stream.is_some() {
            return Err(SolveError::Streamed);
        }
        let mut oll = Oll::new(&self.wcnf, OllOptions::default()).map_err(|e| match e {
            MaxSatError::WeightOverflow { .. } => SolveError::WeightOverflow,
            MaxSatError::TooManyVariables { num_vars } => SolveError::TooManyVariables { num_vars },
        })?;
        oll.set_phases(&self.phases());
        if let Some(stop) = stop {
            oll.set_terminator(stop);
        }
        let status = oll.solve(budget, &mut |_| {});
        effort.conflicts = effort.conflicts.saturating_add(oll.stats().conflicts);
        effort.propagations = effort.propagations.saturating_add(oll.stats().propagations);
        match status {
            MaxSatStatus::Unsatisfiable => Ok(Outcome::Unsatisfiable),
            MaxSatStatus::Optimum => {
                let solution = self.referee(oll.best_model())?;
                match oll.best_cost() {
                    Some(c) if c == solution.cost => Ok(Outcome::Optimum(solution)),
                    optimiser => Err(SolveError::Rejected(Rejection::CostMismatch {
                        optimiser,
                        referee: solution.cost,
                    })),
                }
            }
            MaxSatStatus::Satisfiable | MaxSatStatus::Unknown => Ok(Outcome::Stopped {
                best: match oll.best_model() {
                    Some(m) => Some(self.referee(Some(m))?),
                    None => None,
                },
                lower_bound: oll.lower_bound(),
            }),
        }
    }

    /// Checks a model from the optimiser and prices it.
    fn referee(&self, model: Option<&[bool]>) -> Result<Solution, SolveError> {
        let Some(model) = model else {
            return Err(SolveError::Rejected(Rejection::NoModel));
        };
        if let Err(v) = self.check(model) {
            return Err(SolveError::Rejected(Rejection::HardViolated(v)));
        }
        if let Err(clause) = self.check_clauses(model) {
            return Err(SolveError::Rejected(Rejection::ClauseFalsified { clause }));
        }
        let unmet = self.unmet_list(model);
        Ok(Solution {
            model: model.to_vec(),
            cost: self.unmet(model),
            unmet,
        })
    }
}

/// A problem is a clause sink: encodings can write to it directly. Clauses added this way are
/// hard and are recorded as stated constraints (the referee checks them).
impl ClauseSink for Problem {
    fn new_var(&mut self) -> Var {
        Problem::new_var(self)
    }
    fn add_clause(&mut self, lits: &[Lit]) {
        Problem::add_clause(self, lits, None)
    }
}

/// `lits` without `neutral`, sorted and deduplicated: the normal form of a clause
/// (`neutral` = always-false) and of a conjunction (`neutral` = always-true). `None` when
/// the result is absorbed: it contains `absorbing` (the other constant) or a literal and its
/// negation.
fn normalise(lits: &[Lit], neutral: Lit, absorbing: Lit) -> Option<Vec<Lit>> {
    let mut v: Vec<Lit> = lits.iter().copied().filter(|&l| l != neutral).collect();
    (normalise_clause(&mut v) && !v.contains(&absorbing)).then_some(v)
}
