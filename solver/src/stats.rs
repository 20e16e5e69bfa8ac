//! The one statistics struct. Every counter says where it is counted; all are cumulative over
//! the solver's lifetime (across incremental calls).

/// Counters of the engine's work, read with [`crate::Solver::stats`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Calls of `solve` (`Solver::solve`).
    pub solves: u64,
    /// Decisions taken, assumptions excluded (`decide.rs`).
    pub decisions: u64,
    /// Literals propagated: each trail literal whose watch lists were visited (`propagate.rs`).
    pub propagations: u64,
    /// Conflicts found by propagation (`search.rs`).
    pub conflicts: u64,
    /// Restarts (`restart.rs`).
    pub restarts: u64,
    /// Switches between focused and stable mode (`mode.rs`).
    pub mode_switches: u64,
    /// Rephasings (`rephase.rs`).
    pub rephases: u64,
    /// Learned-clause database reductions (`reduce.rs`).
    pub reductions: u64,
    /// Learned clauses added, units and binaries included (`analyze.rs`).
    pub learned: u64,
    /// Learned unit clauses (`analyze.rs`).
    pub learned_units: u64,
    /// Literals in learned clauses before minimisation (`analyze.rs`).
    pub learned_literals: u64,
    /// Literals removed by minimisation (`minimize.rs`).
    pub minimized_literals: u64,
    /// Learned clauses deleted by reduction (`reduce.rs`).
    pub deleted: u64,
    /// Clauses removed because satisfied at level 0 (`simplify.rs`).
    pub simplified: u64,
    /// Arena garbage collections (`clause.rs`).
    pub collections: u64,
    /// Local-search walks (`walk.rs`).
    pub walks: u64,
    /// Falsified clauses in the best assignment of the latest walk (`walk.rs`).
    pub walk_best_broken: u64,
    /// Vivification rounds (`vivify.rs`).
    pub vivify_rounds: u64,
    /// Learned clauses shortened by vivification (`vivify.rs`).
    pub vivified: u64,
    /// Literals removed by vivification (`vivify.rs`).
    pub vivified_literals: u64,
    /// Variables eliminated (`eliminate.rs`).
    pub eliminated: u64,
    /// Clauses removed by subsumption before elimination (`eliminate.rs`).
    pub subsumed: u64,
    /// Resolvents added by elimination (`eliminate.rs`).
    pub resolvents: u64,
    /// Restorations of eliminated clauses for a reappearing variable (`eliminate.rs`).
    pub restored: u64,
    /// Models checked against the original clauses (`check.rs`).
    pub models_checked: u64,
}
