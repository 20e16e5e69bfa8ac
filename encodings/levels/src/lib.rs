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
//! # The pipeline, and where each part lives
//! One way through, each stage a module: **read** (`read.rs`: `grid.json` into a [`GridSpec`])
//! → **compile** (`compile.rs`: the spec into a [`GridModel`]) → **solve** (`solve.rs`: the
//! engine, with the grid propagator of `search.rs` connected) → **decode**
//! ([`GridModel::decode`]: a model back into a [`Level`]) → **referee** (`referee/`:
//! [`check_level`], [`level_cost`]). `ARCHITECTURE.md`, next to `src/`, is the long form.
//!
//! The rule families, one module each under `families/`, each owning its rule types, their
//! reading, its clauses, its part of the propagator and its names in a clash; the stages call
//! them through one interface (`family.rs`) and a table (`families/mod.rs`):
//! - `tiles`: exactly one tile per cell (pairwise) and the cell domains (mask, pins, allowed).
//! - `adjacency`: what may sit beside what, per direction.
//! - `layers`: extra layers, one value per cell, with `requires`.
//! - `counts`: absolute counts, ratios of a region, ratios between two selections (binary
//!   adders in the export, counters in the search), hard or soft.
//! - `enclosure`: Horn reachability from the border; at least a fraction sealed off.
//! - `connectivity`: the eager founded encoding that the exported CNF carries, the separator
//!   cuts of the cut loop, and the reachability part of the propagator.
//! - `paths`: a walk between endpoints through a class: layered or founded clauses, or a
//!   witness walk in the search.
//! - `preferences`: seeded preferences (splitmix64), as phase hints or soft unit clauses.
//!
//! The core the families share, which names none of them:
//! - `spec`: the [`GridSpec`] aggregate and its geometry; `spec/vocab.rs` (tiles, layers,
//!   selections, bounds), `spec/problem.rs` ([`FieldProblem`], [`JsonProblem`]),
//!   `spec/reader.rs` (the JSON helpers and the name resolving every family reads with).
//! - `model`: the [`GridModel`]'s variables, class literals, rule tags and wished values.
//! - `search`: the composite propagator that runs the families' parts.
//! - `graph`, `founded`, `adders`: the cell graph of the search, founded reachability and
//!   binary arithmetic as clauses, each shared by two families.
//! - `clash`: when no level exists, the rules that clash (activation literals, the failed
//!   core, shrunk by deletion).
//! - `anytime`: [`solve_soft_anytime`], soft levels for a frame budget — the first valid
//!   level at once, then better ones through a callback, from neighbourhood probes on the
//!   optimiser's engine between slices of its core-guided search.
//! - `keep`: regenerating a region of a level ([`solve_region`]): the kept cells as pins, each
//!   a rule a clash can name.
//! - `distinct`: several levels for one seed ([`solve_distinct`]), pairwise a given number of
//!   cells apart, by blocking constraints.
//! - `level`: [`Level`] and its text form ([`Level::to_text`], [`Level::from_text`]);
//!   `error`: [`GridError`]; `options`: [`GridOptions`].
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
#![warn(missing_docs)]
#![allow(clippy::needless_range_loop)]
#![forbid(unsafe_code)]

mod adders;
mod anytime;
mod clash;
mod compile;
pub mod decode;
pub mod describe;
mod distinct;
pub mod encode;
mod error;
mod families;
mod family;
mod founded;
mod graph;
mod keep;
mod layered;
mod level;
mod model;
mod options;
mod presolve;
pub mod range;
mod read;
mod referee;
mod search;
mod solve;
pub mod spec;
pub mod svg;

pub use anytime::{Flow, Improvement, OnLevel};
pub use clash::{DIAGNOSIS_BASE, DIAGNOSIS_FACTOR, Presolved, presolve};
pub use describe::{Description, describe};
pub use distinct::{Distinct, Series, SeriesEnd, solve_distinct};
pub use encode::comment_name;
pub use error::{GridError, KeepProblem, ModelFault, Rejection};
#[doc(hidden)]
pub use families::connectivity::separator_cuts;
pub use grim_formula::SplitMix64;
/// The optimiser and the Problem API, for everything not re-exported here.
pub use grim_maxsat;
/// The engine, for everything not re-exported below.
pub use grim_solver;
pub use grim_solver::{Budget, Lit, Options, Solver, Status, Terminator, Var};
pub use keep::{Keep, solve_region, solve_region_within};
pub use level::{Level, TextProblem, TextRows};
pub use model::{GridModel, PartSize};
pub use options::GridOptions;
pub use presolve::Bounds;
pub use referee::{Finding, Violation, check_level, level_cost};
pub use solve::{
    ConnectivityStrategy, GridOutcome, Progress, ProgressReport, SolveStats, StopReason, solve,
    solve_soft_anytime, solve_with, solve_within,
};
pub use spec::{
    AdjacencySource, Axis, Dir, Expected, FieldProblem, GridSpec, JsonProblem, Region, RuleRef,
};
