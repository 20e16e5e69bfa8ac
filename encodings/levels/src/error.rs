//! [`GridError`], the crate's one error enum, and what its variants carry that is not some
//! stage's own problem type: [`ModelFault`] (a model that is not a level) and [`Rejection`]
//! (an answer the referees refused).
//!
//! The problem types the variants carry live with what finds them — [`FieldProblem`] and
//! [`JsonProblem`] with the reader (`spec/problem.rs`), [`TextProblem`] with the level's text
//! form (`level/problem.rs`), [`Violation`] with the referee (`referee/verdict.rs`) — each in
//! a module that imports nothing back, so this one can name them all and every stage can
//! return a `GridError` without a cycle.

use crate::level::problem::TextProblem;
use crate::referee::verdict::Violation;
use crate::spec::problem::{FieldProblem, JsonProblem};
use grim_maxsat::problem::SolveError;
use std::fmt;

/// Everything that can go wrong between `grid.json` and a level.
///
/// Bad input is described by data, not prose: a position or a field path, and a typed
/// problem ([`JsonProblem`], [`FieldProblem`], [`TextProblem`]) whose `Display` is the
/// sentence a designer reads. Callers match on the problem; only `Display` writes English.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GridError {
    /// The text is not JSON.
    Syntax {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What serde_json found wrong there.
        problem: JsonProblem,
    },
    /// The JSON is well formed but a field is wrong: `field` is its path
    /// (`tiles[3].glyph`), `problem` what is wrong with which value.
    Invalid {
        /// The field's path (empty for the document itself).
        field: String,
        /// What is wrong, quoting the value.
        problem: FieldProblem,
    },
    /// A model handed to [`GridModel::decode`](crate::GridModel::decode) does not describe a level
    /// (too short, or a cell without exactly one tile).
    BadModel(ModelFault),
    /// A level's text form handed to [`Level::from_text`](crate::Level::from_text) does not fit the
    /// spec.
    BadText {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What was expected there.
        problem: TextProblem,
    },
    /// The soft weights (preferences and soft rules) add up past `u64::MAX`; scale them down.
    WeightOverflow,
    /// The model needs more variables than the engine holds.
    TooManyVariables {
        /// The number of variables the model needs.
        num_vars: usize,
    },
    /// What to keep of a level for [`solve_region`](crate::solve_region) does not fit the spec
    /// (a level of another size, a region outside the grid, a mask of another length).
    BadKeep(KeepProblem),
    /// Internal error: the solver's answer failed the referee. Please report it with the
    /// grid.json.
    Rejected(Rejection),
}

/// Why a [`Keep`](crate::Keep) does not fit its spec ([`GridError::BadKeep`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeepProblem {
    /// The level has another size than the spec's grid.
    LevelSize {
        /// The level's width and height.
        level: (usize, usize),
        /// The grid's.
        grid: (usize, usize),
    },
    /// The level holds a tile (or a layer value) the spec does not have, at cell `(x, y)`.
    UnknownTile {
        /// The cell.
        cell: (usize, usize),
    },
    /// The level has another number of layers than the spec.
    Layers {
        /// The level's.
        level: usize,
        /// The spec's.
        spec: usize,
    },
    /// The region to regenerate is empty or reaches outside the grid.
    RegionOutside {
        /// The region, `(x, y, w, h)`.
        region: (usize, usize, usize, usize),
        /// The grid's width and height.
        grid: (usize, usize),
    },
    /// The mask of kept cells has another length than the grid has cells.
    MaskLength {
        /// The mask's length.
        mask: usize,
        /// The grid's cells.
        cells: usize,
    },
}

impl fmt::Display for KeepProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            KeepProblem::LevelSize {
                level: (lw, lh),
                grid: (gw, gh),
            } => write!(f, "the level is {lw}x{lh}; the grid is {gw}x{gh}"),
            KeepProblem::UnknownTile { cell: (x, y) } => write!(
                f,
                "the level's cell x={x} y={y} holds a tile or value the spec does not have"
            ),
            KeepProblem::Layers { level, spec } => {
                write!(f, "the level has {level} layers; the spec has {spec}")
            }
            KeepProblem::RegionOutside {
                region: (x, y, w, h),
                grid: (gw, gh),
            } => {
                if w == 0 || h == 0 {
                    write!(f, "the region x={x} y={y} w={w} h={h} is empty")
                } else {
                    write!(
                        f,
                        "the region x={x} y={y} w={w} h={h} reaches outside the {gw}x{gh} grid \
                         (columns 0..{gw}, rows 0..{gh})"
                    )
                }
            }
            KeepProblem::MaskLength { mask, cells } => write!(
                f,
                "the mask of kept cells has {mask} entries; the grid has {cells} cells"
            ),
        }
    }
}

/// What is wrong with a model handed to [`GridModel::decode`](crate::GridModel::decode)
/// ([`GridError::BadModel`]). Cells are `(x, y)`; `what` is `"tile"` or `"layer value"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelFault {
    /// A variable of the cell has no value (the model is too short).
    Unassigned {
        /// The DIMACS number of the variable.
        var: u32,
        /// What the variable chooses.
        what: &'static str,
        /// The cell.
        cell: (usize, usize),
    },
    /// The cell holds two of `what`.
    Two {
        /// What the cell holds two of.
        what: &'static str,
        /// The cell.
        cell: (usize, usize),
    },
    /// The cell holds none of `what`.
    None {
        /// What the cell holds none of.
        what: &'static str,
        /// The cell.
        cell: (usize, usize),
    },
}

impl fmt::Display for ModelFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModelFault::Unassigned {
                var,
                what,
                cell: (x, y),
            } => write!(
                f,
                "variable {var} ({what} of cell x={x} y={y}) has no value"
            ),
            ModelFault::Two { what, cell: (x, y) } => {
                write!(f, "cell x={x} y={y} holds two {what}s")
            }
            ModelFault::None { what, cell: (x, y) } => {
                write!(f, "cell x={x} y={y} holds no {what}")
            }
        }
    }
}

/// What the referee found wrong with the solver's answer ([`GridError::Rejected`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rejection {
    /// The level breaks rules of the spec, as [`check_level`](crate::check_level) judges them.
    Violations(Vec<Violation>),
    /// The optimiser's optimum and the referee's [`level_cost`](crate::level_cost) differ.
    CostMismatch {
        /// The optimiser's cost.
        optimiser: u64,
        /// The referee's cost.
        referee: u64,
    },
    /// The engine reported SAT without a model.
    NoModel,
    /// The optimiser's answer failed the [`grim_maxsat::problem::Problem`] referees.
    Problem(grim_maxsat::problem::Rejection),
    /// The grid propagator broke the engine's contract (a malformed reason or clause); the
    /// engine stopped rather than trust it.
    Propagator(grim_solver::PropagatorError),
    /// A regenerated level changed a cell it was to keep ([`crate::solve_region`]).
    KeptCellChanged {
        /// The cell.
        cell: (usize, usize),
    },
    /// Two levels of a series ([`crate::solve_distinct`]) differ in fewer cells than asked.
    TooClose {
        /// The two levels' places in the series (0-based).
        levels: (usize, usize),
        /// Cells whose tile differs.
        differ: usize,
        /// The distance asked for.
        distance: usize,
    },
    /// A model whose hard clauses were streamed out for the export
    /// ([`grim_maxsat::problem::Problem::streaming`]) was handed to a solver: it holds no
    /// clauses to solve.
    Streamed,
    /// The engine proved that no level exists, but the clash diagnosis found one (`level`, in
    /// its text form), which the referee judged as `violations` (empty: it accepts it).
    DiagnosisFoundLevel {
        /// The level found, as [`Level::to_text`](crate::Level::to_text) writes it.
        level: String,
        /// What the referee found wrong with it.
        violations: Vec<Violation>,
    },
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |v: &[Violation]| {
            v.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("; ")
        };
        match self {
            Rejection::Violations(v) => write!(f, "{}", list(v)),
            Rejection::CostMismatch { optimiser, referee } => write!(
                f,
                "the optimiser's optimum costs {optimiser}, the referee counts {referee}"
            ),
            Rejection::NoModel => write!(f, "the engine reported SAT without a model"),
            Rejection::Streamed => write!(f, "{}", SolveError::Streamed),
            Rejection::Propagator(e) => write!(f, "the grid propagator misbehaved: {e}"),
            Rejection::Problem(r) => write!(f, "{}", SolveError::Rejected(r.clone())),
            Rejection::KeptCellChanged { cell: (x, y) } => {
                write!(f, "the regenerated level changed the kept cell x={x} y={y}")
            }
            Rejection::TooClose {
                levels: (a, b),
                differ,
                distance,
            } => write!(
                f,
                "levels {} and {} of the series differ in {differ} cells, fewer than {distance}",
                a + 1,
                b + 1
            ),
            Rejection::DiagnosisFoundLevel { level, violations } => {
                let verdict = if violations.is_empty() {
                    "and the referee accepts it".to_string()
                } else {
                    format!("which the referee rejects ({})", list(violations))
                };
                write!(
                    f,
                    "the engine proved that no level exists, but the clash diagnosis found \
                     one, {verdict}:\n{level}"
                )
            }
        }
    }
}

impl fmt::Display for GridError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GridError::Syntax {
                line,
                column,
                problem,
            } => write!(f, "line {line}, column {column}: {problem}"),
            GridError::Invalid { field, problem } => write!(f, "{field}: {problem}"),
            GridError::BadModel(fault) => write!(f, "the model is not a level: {fault}"),
            GridError::BadText {
                line,
                column,
                problem,
            } => write!(f, "line {line}, column {column}: {problem}"),
            GridError::WeightOverflow => {
                write!(f, "the soft weights add up past 2^64 - 1; scale them down")
            }
            GridError::TooManyVariables { num_vars } => write!(
                f,
                "the level needs {num_vars} variables, more than the engine holds"
            ),
            GridError::BadKeep(problem) => write!(f, "{problem}"),
            GridError::Rejected(r) => {
                write!(
                    f,
                    "internal error: the solver's level failed the referee: {r}"
                )
            }
        }
    }
}

impl std::error::Error for GridError {}

impl From<SolveError> for GridError {
    fn from(e: SolveError) -> GridError {
        match e {
            SolveError::WeightOverflow => GridError::WeightOverflow,
            SolveError::TooManyVariables { num_vars } => GridError::TooManyVariables { num_vars },
            SolveError::Rejected(r) => GridError::Rejected(Rejection::Problem(r)),
            SolveError::Streamed => GridError::Rejected(Rejection::Streamed),
        }
    }
}
