//! Several levels for one seed: [`solve_distinct`], the level a solve finds and then the
//! next-best levels, each differing from every earlier one in at least `distance` cells — so
//! a game can offer alternatives without changing the seed (the seed draws the same wishes for
//! all of them; they are the best levels under those wishes that are far enough apart).
//!
//! How: after each level `L`, a blocking constraint "at least `distance` cells hold another
//! tile than in `L`" — `at_least(distance)` over the literals `¬tile(c, L[c])`, one per cell,
//! by `grim-encodings`' cardinality front end (a sequential counter or a totalizer by size:
//! at 32×32 with `distance` 20 about 20k auxiliary variables) — joins the model's clauses, and
//! the model is solved again with every blocking constraint so far, under the same rules, the
//! same seed and the same propagator. With soft rules each level is the optimum among the
//! levels far enough from the earlier ones, so the series is ordered by cost.
//!
//! Why a fresh engine per level and not one incremental engine: the soft path is an OLL run,
//! whose cores and totalizers are built for one set of hard clauses; re-running it with the
//! blocking clauses added keeps one code path for hard and soft, and a level's solve is a small
//! part of the series' time (dungeon-32: `benches/results/issue38-game-2026-12-06.md`). The
//! hard path would keep learned clauses across levels in one engine; that is left for when a
//! measurement asks for it.
//!
//! The distance counts tiles only: two levels that differ only in layer values are the same
//! level here. Every level returned has passed the referee, and the pairwise distances are
//! counted again on the levels themselves before the series is returned.

use crate::error::{GridError, Rejection};
use crate::level::Level;
use crate::model::{GridModel, Mode};
use crate::options::GridOptions;
use crate::solve::{
    GridOutcome, Job, SolveStats, StopReason, solve_propagated, solve_soft_propagated,
};
use crate::spec::{GridSpec, RuleRef};
use grim_solver::{Budget, Lit, Terminator};

/// How many levels [`solve_distinct`] looks for, and how far apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Distinct {
    /// Levels wanted, at most.
    pub count: usize,
    /// Cells whose tile differs, at least, between any two of them (0 reads as 1: a series
    /// never repeats a level).
    pub distance: usize,
}

/// The levels [`solve_distinct`] found, and why the series ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Series {
    /// The levels, in the order found (by cost, when something is soft).
    pub levels: Vec<Level>,
    /// Why there are no more.
    pub end: SeriesEnd,
    /// What the solves did, summed over the series (`vars` and `clauses`: the base model's).
    pub stats: SolveStats,
}

/// Why a [`Series`] ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeriesEnd {
    /// Every level asked for was found.
    Complete,
    /// No further level differs from every level found in at least `distance` cells (proven):
    /// fewer levels than asked for exist.
    Exhausted,
    /// No level at all (proven): the rules that clash, as [`GridOutcome::NoLevel`] names them.
    NoLevel {
        /// The rules that cannot all hold.
        clash: Vec<RuleRef>,
    },
    /// The budget or the stop handle ended the search before the next level (with soft rules,
    /// before its optimum was proven; the unproven level is not returned).
    Stopped(StopReason),
}

/// Up to `want.count` levels of `spec` under `options`, pairwise at least `want.distance`
/// cells apart (see the module doc): the level [`solve`](fn@crate::solve) finds, then the next
/// best. `budget` bounds the engine's conflicts over the whole series (propagations per
/// level); `stop` ends it as in [`solve_within`](crate::solve_within). Deterministic.
///
/// ```
/// use grim_levels::{Budget, Distinct, GridOptions, GridSpec, SeriesEnd};
///
/// let spec = GridSpec::from_json(r##"{
///   "width": 6, "height": 4,
///   "tiles": [{"name": "wall", "glyph": "#"}, {"name": "floor", "glyph": "."}],
///   "counts": [{"of": "floor", "min": 0.5}],
///   "connectivity": [{"class": "floor"}],
///   "preferences": {"seed": 7}
/// }"##).unwrap();
/// let want = Distinct { count: 3, distance: 4 };
/// let series = grim_levels::solve_distinct(&spec, &GridOptions::default(), want,
///                                          Budget::UNLIMITED, None).unwrap();
/// assert_eq!(series.end, SeriesEnd::Complete);
/// assert!(series.levels[0].distance_to(&series.levels[2]) >= 4);
/// ```
pub fn solve_distinct(
    spec: &GridSpec,
    options: &GridOptions,
    want: Distinct,
    budget: Budget,
    stop: Option<&Terminator>,
) -> Result<Series, GridError> {
    let distance = want.distance.max(1);
    let model = GridModel::build_with(spec, options, Mode::Propagate)?;
    let mut wcnf = model.problem.to_wcnf();
    let mut total = SolveStats::of(&wcnf);
    let mut levels: Vec<Level> = Vec::new();
    let mut end = SeriesEnd::Complete;
    while levels.len() < want.count {
        let left = budget.left_after(total.conflicts, 0);
        let first = levels.is_empty();
        let job = Job(
            spec,
            &model,
            std::borrow::Cow::Borrowed(&wcnf),
            SolveStats::of(&wcnf),
            left,
            stop,
            None,
            first,
        );
        let (outcome, stats) = if model.is_soft() {
            solve_soft_propagated(job, options, None)?
        } else {
            solve_propagated(job)?
        };
        total.rounds += stats.rounds;
        total.conflicts += stats.conflicts;
        match outcome {
            GridOutcome::Level(level) => {
                let lits: Vec<Lit> = (0..spec.cells())
                    .map(|c| !model.tile_lit(c, level.tiles[c]))
                    .collect();
                grim_encodings::card::at_least(&mut wcnf, &lits, distance);
                levels.push(level);
            }
            GridOutcome::NoLevel { clash } => {
                end = match first {
                    true => SeriesEnd::NoLevel { clash },
                    false => SeriesEnd::Exhausted,
                };
                break;
            }
            GridOutcome::Stopped { reason, .. } => {
                end = SeriesEnd::Stopped(reason);
                break;
            }
        }
    }
    // Never trust the blocking clauses' word: count the differences on the levels.
    for j in 0..levels.len() {
        for i in 0..j {
            let differ = levels[i].distance_to(&levels[j]);
            if differ < distance {
                return Err(GridError::Rejected(Rejection::TooClose {
                    levels: (i, j),
                    differ,
                    distance,
                }));
            }
        }
    }
    Ok(Series {
        levels,
        end,
        stats: total,
    })
}
