//! grim-levels: grid level generation. A tiled map described by `grid.json` (see `FORMAT.md`
//! in this directory), encoded as hard rules and weighted wishes over the
//! [`Problem`](grim_maxsat::problem::Problem) API of `grim-maxsat`, solved by the engine, and
//! checked by an independent referee before it is returned; written out as annotated CNF/WCNF
//! for any other solver ([`encode`]), read back from that solver's answer ([`decode`]), and
//! drawn ([`svg`]).
//!
//! A game depends on this crate alone: the engine types it needs beside the grid's own
//! ([`Budget`], [`Terminator`], [`Solver`], [`Status`], [`Options`], [`Lit`], [`Var`]) are
//! re-exported, and so are the engine crate ([`grim_solver`]) and the optimiser
//! ([`grim_maxsat`]).
//!
//! ```
//! use grim_levels::{Budget, GridOptions, GridSpec};
//!
//! let spec = GridSpec::from_json(r##"{
//!   "width": 6, "height": 4,
//!   "tiles": [{"name": "wall", "glyph": "#"}, {"name": "floor", "glyph": "."}],
//!   "counts": [{"of": "floor", "min": 0.5}],
//!   "connectivity": [{"class": "floor"}],
//!   "preferences": {"seed": 7}
//! }"##).unwrap();
//! // An outcome, not an error: a level, no level (proven, with the clash), or stopped.
//! let outcome = grim_levels::solve(&spec, &GridOptions::default(), Budget::UNLIMITED).unwrap();
//! let level = outcome.level().expect("this spec has levels");
//! assert!(grim_levels::check_level(&spec, level).is_ok());
//! assert_eq!(level.to_text(&spec).lines().count(), 4);
//! ```
//!
//! # Modules, one rule family each
//! - `spec`: reading and validating `grid.json` into a [`GridSpec`] (names resolved, ratios
//!   exact, adjacency tables merged and checked for contradictions).
//! - `tiles`: exactly one tile per cell (pairwise) and the cell domains (mask, pins, allowed).
//! - `adjacency`: what may sit beside what, per direction.
//! - `layers`: extra layers, one value per cell, with `requires`.
//! - `counts`: absolute counts, ratios of a region, ratios between two selections (sorting
//!   networks shared by both sides), hard or soft.
//! - `enclosure`: Horn reachability from the border; at least a fraction sealed off.
//! - `connectivity`: the eager founded encoding (parent pointers + binary ranks, sound and
//!   complete) that the exported CNF carries, and the separator cuts `solve` adds lazily.
//! - `paths`: a walk between endpoints through a class, bounded (layered) or not (founded).
//! - `prefs`: seeded preferences (splitmix64), as phase hints or soft unit clauses.
//! - `referee`: [`check_level`] and [`level_cost`], judging a [`Level`] against the document
//!   as written — its own reading of every field, never the encoder's tables.
//! - `solve`: [`solve`], the engine loop with lazy connectivity cuts.
//! - `clash`: when no level exists, the rules that clash (activation literals, the failed
//!   core, shrunk by deletion).
//! - `level`: [`Level`] and its text form ([`Level::to_text`], [`Level::from_text`]).
//!
//! Around the model, what a program that hands the level to another solver needs
//! (`grim-encode` is one):
//! - `encode`: the annotated CNF/WCNF `grim-encode` writes (`c cell`, `c layer`, `c phase`
//!   lines; names through [`comment_name`]).
//! - `decode`: any SAT or MaxSAT solver's output read back into the model of a grid.
//! - `svg`: the SVG picture of a level.
//!
//! And to measure what came out (issue 39):
//! - `describe`: [`describe()`], a level's structure per tile and class — open fraction, local
//!   density, runs, components, bridges, articulation cells, blocks, cycle rank, chamber cores,
//!   dead ends, symmetry — as a [`Description`] (serde JSON, or a text table).
//! - `range`: the expressive range of many levels of one spec: a CSV row per level and an SVG
//!   of two measures against each other, with thumbnails of the extremes.

// Rules walk parallel per-cell arrays (literals, domains, neighbours) by cell index; an index
// loop reads better than zipped iterators there.
#![allow(clippy::needless_range_loop)]
#![forbid(unsafe_code)]

mod adjacency;
mod clash;
mod connectivity;
mod countprop;
mod counts;
pub mod decode;
pub mod describe;
mod enclosure;
pub mod encode;
mod layers;
mod level;
mod model;
mod pathprop;
mod paths;
mod prefs;
mod propagator;
pub mod range;
mod reach;
mod referee;
mod solve;
pub mod spec;
pub mod svg;
mod tiles;

pub use clash::{DIAGNOSIS_BASE, DIAGNOSIS_FACTOR};
pub use describe::{Description, describe};
pub use grim_formula::SplitMix64;
/// The optimiser and the Problem API, for everything not re-exported here.
pub use grim_maxsat;
/// The engine, for everything not re-exported below.
pub use grim_solver;
pub use grim_solver::{Budget, Lit, Options, Solver, Status, Terminator, Var};
pub use level::{Level, TextProblem, TextRows};
pub use model::GridModel;
pub use referee::{Finding, Violation, check_level, level_cost};
pub use solve::{
    ConnectivityStrategy, GridOutcome, Progress, ProgressReport, SolveStats, StopReason, solve,
    solve_with, solve_within,
};
pub use spec::{AdjacencySource, Axis, Expected, FieldProblem, GridSpec, JsonProblem, RuleRef};

use grim_maxsat::problem::SolveError;
use std::fmt;

/// The four sides of a cell. `x` grows east, `y` grows south (row 0 is the north edge).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    /// North: `y − 1`.
    N = 0,
    /// East: `x + 1`.
    E = 1,
    /// South: `y + 1`.
    S = 2,
    /// West: `x − 1`.
    W = 3,
}

impl Dir {
    /// All four, in N, E, S, W order.
    pub const ALL: [Dir; 4] = [Dir::N, Dir::E, Dir::S, Dir::W];

    /// The side facing this one.
    pub fn opposite(self) -> Dir {
        match self {
            Dir::N => Dir::S,
            Dir::E => Dir::W,
            Dir::S => Dir::N,
            Dir::W => Dir::E,
        }
    }

    /// "north", "east", ...
    pub fn name(self) -> &'static str {
        match self {
            Dir::N => "north",
            Dir::E => "east",
            Dir::S => "south",
            Dir::W => "west",
        }
    }
}

/// Options of [`GridModel::build`] and [`solve`]; `Default` follows the file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GridOptions {
    /// Overrides `preferences.seed` (and turns preferences on, as hints, when the file has
    /// none).
    pub seed: Option<u64>,
    /// Overrides `preferences.mode`: `Some(true)` soft clauses, `Some(false)` phase hints.
    pub soft_preferences: Option<bool>,
}

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
    /// A model handed to [`GridModel::decode`] does not describe a level (too short, or a
    /// cell without exactly one tile).
    BadModel(ModelFault),
    /// A level's text form handed to [`Level::from_text`] does not fit the spec.
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
    /// Internal error: the solver's answer failed the referee. Please report it with the
    /// grid.json.
    Rejected(Rejection),
}

/// What is wrong with a model handed to [`GridModel::decode`] ([`GridError::BadModel`]).
/// Cells are `(x, y)`; `what` is `"tile"` or `"layer value"`.
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
    /// The level breaks rules of the spec, as [`check_level`] judges them.
    Violations(Vec<Violation>),
    /// The optimiser's optimum and the referee's [`level_cost`] differ.
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
    /// The engine proved that no level exists, but the clash diagnosis found one (`level`, in
    /// its text form), which the referee judged as `violations` (empty: it accepts it).
    DiagnosisFoundLevel {
        /// The level found, as [`Level::to_text`] writes it.
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
            Rejection::Propagator(e) => write!(f, "the grid propagator misbehaved: {e}"),
            Rejection::Problem(r) => write!(f, "{}", SolveError::Rejected(r.clone())),
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

/// The separator cuts [`solve`] would add for `spec.connectivity[rule]` on `level`, each a
/// clause over "cell `c` holds the class" literals given as `(c, positive)`. Empty when the
/// rule holds. Exposed for the tests, which check every cut against every connected level.
#[doc(hidden)]
pub fn separator_cuts(spec: &GridSpec, rule: usize, level: &Level) -> Vec<Vec<(usize, bool)>> {
    let Some(r) = spec.connectivity.get(rule) else {
        return Vec::new();
    };
    let lits: Vec<grim_solver::Lit> = (0..spec.cells())
        .map(|c| grim_solver::Var::new(c as u32).unwrap_or_default().pos())
        .collect();
    let holds: Vec<bool> = level
        .tiles
        .iter()
        .map(|&t| r.class.get(t).copied().unwrap_or(false))
        .collect();
    if holds.len() != spec.cells() {
        return Vec::new();
    }
    let root = r.root.map(|(x, y)| spec.index(x, y));
    connectivity::cuts(spec, &lits, &holds, root)
        .into_iter()
        .map(|c| {
            c.into_iter()
                .map(|l| (l.var().index(), l.is_positive()))
                .collect()
        })
        .collect()
}

impl From<SolveError> for GridError {
    fn from(e: SolveError) -> GridError {
        match e {
            SolveError::WeightOverflow => GridError::WeightOverflow,
            SolveError::TooManyVariables { num_vars } => GridError::TooManyVariables { num_vars },
            SolveError::Rejected(r) => GridError::Rejected(Rejection::Problem(r)),
        }
    }
}

/// A name as written in a `c` comment line: whitespace, control characters and `%` are
/// percent-encoded (`%20` for a space), so every comment line splits on blanks into the same
/// fields whatever the designer named a tile. Names without such characters (the usual case)
/// are written as they are.
pub fn comment_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        if c.is_whitespace() || c.is_control() || c == '%' {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{b:02X}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comment_names_keep_plain_names_and_escape_blanks_and_percent() {
        for (name, written) in [
            ("floor", "floor"),
            ("deep water", "deep%20water"),
            ("50%", "50%25"),
            ("a\tb\n", "a%09b%0A"),
            ("é", "é"),
        ] {
            assert_eq!(comment_name(name), written, "the comment name of {name:?}");
        }
    }
}
