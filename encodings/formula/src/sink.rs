//! Clause sinks: where encodings write their clauses.
//!
//! An encoding never owns a solver: it takes fresh variables from a [`ClauseSink`] and writes
//! clauses to it, so the same code feeds a live incremental [`Solver`] (OLL's totalizers grow
//! between solves) or an in-memory [`Cnf`] / [`Wcnf`] that a tool writes to a file.

use grim_solver::{Lit, Solver, Var};

/// Something that hands out fresh variables and accepts clauses.
///
/// Why a trait with two methods and nothing else: every encoding above this crate needs exactly
/// these, and the solver, the in-memory formulas and test doubles (counting sinks for size
/// tables) can all provide them without adapters.
pub trait ClauseSink {
    /// A variable not used so far by this sink.
    fn new_var(&mut self) -> Var;
    /// Adds a hard clause. The empty clause is legal: it makes the sink unsatisfiable.
    fn add_clause(&mut self, lits: &[Lit]);
}

/// A CNF formula: a variable count and a list of clauses.
///
/// Why `Vec<Vec<Lit>>` and not one flat literal array with clause ends: this is the exchange
/// type between readers, writers, generators and tests, where plain field access beats a
/// bespoke API; the engine copies clauses into its own arena anyway. `grim-sat` streams
/// clauses straight from the reader and never builds a `Cnf`, so large instances do not pay
/// the per-clause allocation there.
///
/// `num_vars` may exceed the largest variable used (declared but unused variables are
/// legal DIMACS). Degenerate cases: the empty formula (no clauses) is satisfiable; an empty
/// clause is kept, and makes the formula unsatisfiable.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cnf {
    /// Number of variables; DIMACS variables are `1..=num_vars`.
    pub num_vars: usize,
    /// The clauses, in input order.
    pub clauses: Vec<Vec<Lit>>,
}

impl Cnf {
    /// An empty formula over `num_vars` variables.
    pub fn new(num_vars: usize) -> Cnf {
        Cnf {
            num_vars,
            clauses: Vec::new(),
        }
    }

    /// Appends a clause, extending `num_vars` to cover its variables.
    pub fn add_clause(&mut self, lits: &[Lit]) {
        if let Some(max) = lits.iter().map(|l| l.var().index() + 1).max() {
            self.num_vars = self.num_vars.max(max);
        }
        self.clauses.push(lits.to_vec());
    }

    /// Total number of literals over all clauses.
    pub fn num_literals(&self) -> usize {
        self.clauses.iter().map(Vec::len).sum()
    }

    /// One more than the largest variable index occurring in a clause (0 when none does);
    /// never more than `num_vars` for a formula built by [`Cnf::add_clause`] or the reader.
    pub fn vars_used(&self) -> usize {
        self.clauses
            .iter()
            .flatten()
            .map(|l| l.var().index() + 1)
            .max()
            .unwrap_or(0)
    }

    /// The index of the first clause that no literal satisfies under `value` (which answers
    /// `Some(true)`/`Some(false)` for assigned literals and `None` for unassigned ones), or
    /// `None` when every clause has a true literal. An unassigned literal never satisfies a
    /// clause: a partial model must make each clause true by what it does assign.
    pub fn first_unsatisfied(&self, value: impl Fn(Lit) -> Option<bool>) -> Option<usize> {
        self.clauses
            .iter()
            .position(|clause| !clause.iter().any(|&l| value(l) == Some(true)))
    }
}

impl ClauseSink for Cnf {
    fn new_var(&mut self) -> Var {
        let v = Var::new(self.num_vars as u32).unwrap_or_else(|| {
            // 2^31 variables do not fit in memory as clauses anyway; saturate rather than panic.
            Var::new(Var::MAX_INDEX).unwrap_or_default()
        });
        self.num_vars = self.num_vars.max(v.index() + 1);
        v
    }
    fn add_clause(&mut self, lits: &[Lit]) {
        Cnf::add_clause(self, lits)
    }
}

/// A weighted CNF: hard clauses and weighted soft clauses (MaxSAT).
///
/// A soft clause of weight `w` costs `w` when falsified; the cost of an assignment is the sum
/// over falsified soft clauses, computed in `u64` with overflow reported, never wrapped.
/// Degenerate cases: no soft clauses (cost 0 for any model of the hard clauses); an empty soft
/// clause (always costs its weight); weight 0 (never costs anything, kept for round trips).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Wcnf {
    /// Number of variables; DIMACS variables are `1..=num_vars`.
    pub num_vars: usize,
    /// Hard clauses, in input order.
    pub hard: Vec<Vec<Lit>>,
    /// Soft clauses with their weights, in input order.
    pub soft: Vec<(u64, Vec<Lit>)>,
}

impl Wcnf {
    /// An empty instance over `num_vars` variables.
    pub fn new(num_vars: usize) -> Wcnf {
        Wcnf {
            num_vars,
            ..Wcnf::default()
        }
    }

    fn cover(&mut self, lits: &[Lit]) {
        if let Some(max) = lits.iter().map(|l| l.var().index() + 1).max() {
            self.num_vars = self.num_vars.max(max);
        }
    }

    /// Appends a soft clause of weight `weight`.
    pub fn add_soft(&mut self, weight: u64, lits: &[Lit]) {
        self.cover(lits);
        self.soft.push((weight, lits.to_vec()));
    }

    /// The variables the instance spans: `num_vars`, or one more than the largest variable a
    /// clause names when that is larger (a clause may name variables past a header's count).
    pub fn vars_spanned(&self) -> usize {
        let used = self
            .hard
            .iter()
            .chain(self.soft.iter().map(|(_, c)| c))
            .flatten()
            .map(|l| l.var().index() + 1)
            .max()
            .unwrap_or(0);
        self.num_vars.max(used)
    }

    /// The total weight of all soft clauses, or `None` when it overflows `u64`.
    pub fn total_soft_weight(&self) -> Option<u64> {
        self.soft
            .iter()
            .try_fold(0u64, |acc, (w, _)| acc.checked_add(*w))
    }

    /// The cost of a full assignment (`model[v]` is the value of variable `v`): `None` when a
    /// hard clause is falsified or the sum overflows. Variables beyond `model` count as false.
    pub fn cost(&self, model: &[bool]) -> Option<u64> {
        let value =
            |l: &Lit| model.get(l.var().index()).copied().unwrap_or(false) == l.is_positive();
        if !self.hard.iter().all(|c| c.iter().any(value)) {
            return None;
        }
        self.soft
            .iter()
            .filter(|(_, c)| !c.iter().any(value))
            .try_fold(0u64, |acc, (w, _)| acc.checked_add(*w))
    }
}

impl ClauseSink for Wcnf {
    fn new_var(&mut self) -> Var {
        let v = Var::new(self.num_vars as u32)
            .unwrap_or_else(|| Var::new(Var::MAX_INDEX).unwrap_or_default());
        self.num_vars = self.num_vars.max(v.index() + 1);
        v
    }
    /// Clauses written through the sink are hard.
    fn add_clause(&mut self, lits: &[Lit]) {
        self.cover(lits);
        self.hard.push(lits.to_vec());
    }
}

/// A sink that stores nothing and counts what it is given: the size of an encoding
/// (variables, clauses, literals) without the memory of a [`Cnf`]. What the size tables of the
/// cardinality encodings are measured with (grim-encodings' `examples/card_sizes.rs` and
/// `examples/card_sweep.rs`, the size tests). Its variables are numbered from 0, like a fresh [`Cnf`]'s.
#[derive(Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counting {
    /// Variables handed out.
    pub vars: usize,
    /// Clauses added.
    pub clauses: usize,
    /// Literals over all clauses added.
    pub literals: usize,
}

impl ClauseSink for Counting {
    fn new_var(&mut self) -> Var {
        self.vars += 1;
        Var::new((self.vars - 1) as u32).unwrap_or_default()
    }
    fn add_clause(&mut self, lits: &[Lit]) {
        self.clauses += 1;
        self.literals += lits.len();
    }
}

/// The engine itself: an encoding added to a [`Solver`] goes straight into its clause arena.
impl ClauseSink for Solver {
    fn new_var(&mut self) -> Var {
        Solver::new_var(self)
    }
    fn add_clause(&mut self, lits: &[Lit]) {
        Solver::add_clause(self, lits)
    }
}
