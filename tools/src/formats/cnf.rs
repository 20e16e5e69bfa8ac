//! `Cnf`: a formula in memory, as read from or written to DIMACS.

use grim_solver::Lit;

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
