//! [`solve`]: the engine on a [`GridModel`], every answer checked by the referee.
//!
//! By default ([`ConnectivityStrategy::Propagator`]) connectivity, paths and large counts are
//! enforced inside the search by the grid propagator (`search.rs`, whose parts the families
//! make): one engine call for a hard level, one OLL run for a soft one. The rest of this doc is
//! the cut loop ([`ConnectivityStrategy::Lazy`]), kept as an option and as a cross-check in the
//! tests.
//!
//! Hard-only models run one incremental engine: solve, ask every family for the cuts the level
//! breaks ([`Family::cuts`](crate::family::Family::cuts): connectivity's separator cuts for the
//! components that are not the main one), add them, steer the next round as the families say
//! (connectivity hints and assumes the cells bridging the components), solve again; learned clauses
//! and saved phases carry over, so each round is a small repair. Models with soft rules re-optimise
//! with OLL after each round of cuts (added as hard clauses): the cuts hold in every connected
//! level, so the optimum of the relaxation, once connected, is the optimum of the full model.
//!
//! What made the loop converge, on the 32×32 dungeon (seed 7, CPU s, counts as sorting
//! networks at the time): boundary cuts alone, 119 rounds / 5.7 s (each round grows a stray
//! component by one cell); with the bridge hints and every ring, 21 rounds / 3.6 s; with the
//! small-fragment cuts too, 24 rounds / 2.1 s. The eager founded encoding instead took 0.95 s
//! at 12×12 (65,182 conflicts) where the loop takes 0.01–0.03 s.

use crate::anytime::{self, OnLevel};
use crate::clash;
use crate::error::{GridError, Rejection};
use crate::families::FAMILIES;
use crate::level::Level;
use crate::model::{GridModel, Mode};
use crate::options::GridOptions;
use crate::referee::{check_level, level_cost};
use crate::spec::{GridSpec, RuleRef};
use grim_maxsat::problem::{Effort, Outcome};
use grim_maxsat::{MaxSatStatus, Oll, OllOptions};
use grim_solver::{Budget, Lit, Solver, Status, Terminator};
use std::fmt;

/// How [`solve_with`] handles connectivity rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ConnectivityStrategy {
    /// Reachability reasoned about inside the search by an external propagator
    /// (`families/connectivity/propagate.rs`): conflicts as soon as a class cell is cut off, cells
    /// forced in and out, small separators as explanations (the default: measured fastest, see
    /// `FORMAT.md`).
    #[default]
    Propagator,
    /// Separator cuts added after each solve until the model is connected.
    Lazy,
    /// The eager founded encoding that [`GridModel::to_cnf`] exports.
    Eager,
}

/// What [`solve_with`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolveStats {
    /// Engine (or optimiser) calls.
    pub rounds: usize,
    /// Separator cuts added.
    pub cuts: usize,
    /// Variables of the model solved.
    pub vars: usize,
    /// Hard clauses of the model solved (cuts not included).
    pub clauses: usize,
    /// Engine conflicts, over all rounds.
    pub conflicts: u64,
}

impl SolveStats {
    /// The statistics of a solve of `wcnf` before it starts: its size, nothing done yet.
    pub(crate) fn of(wcnf: &grim_formula::Wcnf) -> SolveStats {
        SolveStats {
            vars: wcnf.num_vars,
            clauses: wcnf.hard.len(),
            ..SolveStats::default()
        }
    }
}

/// What stopped a [`solve`] before its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// The conflict or propagation budget ran out.
    Budget,
    /// The stop handle given to [`solve_within`] was set.
    Interrupted,
}

/// How a [`solve`] ended: an answer, never an error. "No level" is proven; "stopped" is not a
/// statement that no level exists.
///
/// ```
/// use grim_levels::{Budget, GridOptions, GridOutcome, GridSpec};
///
/// // Floor on at least 60% of the cells and on at most 40%: no level, and the two named.
/// let spec = GridSpec::from_json(r######"{
///   "width": 5, "height": 5,
///   "tiles": [{"name": "wall", "glyph": "#"}, {"name": "floor", "glyph": "."}],
///   "counts": [{"of": "floor", "min": 0.6}, {"of": "floor", "max": 0.4}]
/// }"######).unwrap();
/// match grim_levels::solve(&spec, &GridOptions::default(), Budget::UNLIMITED).unwrap() {
///     GridOutcome::NoLevel { clash } => {
///         let named: Vec<String> = clash.iter().map(|rule| rule.path.clone()).collect();
///         assert_eq!(named, ["counts[0]", "counts[1]"]);
///     }
///     other => panic!("expected no level, got {other}"),
/// }
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GridOutcome {
    /// A level: any level satisfying the hard rules, or, when something is soft, one of least
    /// cost (proven). It has passed [`check_level`] (and its cost, when soft, the optimiser's
    /// claim).
    Level(Level),
    /// The hard rules admit no level (proven). `clash` names rules that together admit none,
    /// in file order — a small set, shrunk until dropping any one of them leaves a level (best
    /// effort within the diagnosis's budget; empty when the diagnosis could not finish).
    NoLevel {
        /// The rules that cannot all hold.
        clash: Vec<RuleRef>,
    },
    /// Stopped before a level (or, with soft rules, a proven optimum) was found.
    Stopped {
        /// What stopped it.
        reason: StopReason,
        /// With soft rules: the best level found so far that passes every rule (connectivity
        /// included) and the referee, if any; its [`level_cost`] bounds the optimum from above.
        best: Option<Level>,
        /// A proven lower bound on the optimal cost (0 for hard-only specs).
        lower_bound: u64,
    },
}

impl GridOutcome {
    /// The level, if the solve found one ([`GridOutcome::Level`]).
    pub fn level(&self) -> Option<&Level> {
        match self {
            GridOutcome::Level(level) => Some(level),
            _ => None,
        }
    }

    /// [`GridOutcome::level`], by value.
    pub fn into_level(self) -> Option<Level> {
        match self {
            GridOutcome::Level(level) => Some(level),
            _ => None,
        }
    }
}

/// What the outcome says, for a person: the level's dimensions, the rules that clash, or what
/// stopped the search and what it leaves.
impl fmt::Display for GridOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GridOutcome::Level(level) => write!(f, "a {}x{} level", level.width, level.height),
            GridOutcome::NoLevel { clash } => match clash.as_slice() {
                [] => write!(
                    f,
                    "no level satisfies the hard rules (proven); the rules that clash could \
                     not be narrowed down within the diagnosis budget"
                ),
                [one] => write!(f, "no level: {one} cannot hold"),
                [rest @ .., last] => {
                    let rest: Vec<String> = rest.iter().map(ToString::to_string).collect();
                    let all = if clash.len() == 2 { "both" } else { "all" };
                    write!(
                        f,
                        "no level: {} and {last} cannot {all} hold",
                        rest.join(", ")
                    )
                }
            },
            GridOutcome::Stopped {
                reason,
                best: Some(_),
                lower_bound,
            } => write!(
                f,
                "{} before the optimum was proven: the best level found is kept, and no level \
                 costs less than {lower_bound}",
                match reason {
                    StopReason::Budget => "the budget ran out",
                    StopReason::Interrupted => "stopped",
                }
            ),
            GridOutcome::Stopped {
                reason: StopReason::Budget,
                ..
            } => write!(
                f,
                "the budget ran out before a level was found; this is not a proof that none \
                 exists — give it more budget"
            ),
            GridOutcome::Stopped {
                reason: StopReason::Interrupted,
                ..
            } => write!(
                f,
                "stopped before a level was found; this is not a proof that none exists"
            ),
        }
    }
}

/// A level for `spec`: any level satisfying the hard rules (steered by the seeded hints), or,
/// when something is soft, one of least cost (proven); or the proof that there is none, or
/// what was found before `budget` ran out ([`GridOutcome`]). `budget` bounds the engine's
/// conflicts and propagations over all rounds (connectivity cuts make several). Errors are for
/// specs the encoder cannot represent and for answers the referee rejects (internal errors).
/// Deterministic: the same spec and options give the same outcome.
///
/// ```
/// use grim_levels::{Budget, GridOptions, GridSpec};
///
/// // Wall on the border (the mask), at least six floor cells: the inside is 3×2, all floor.
/// let spec = GridSpec::from_json(r######"{
///   "width": 5, "height": 4,
///   "tiles": [{"name": "wall", "glyph": "#"}, {"name": "floor", "glyph": "."}],
///   "mask": ["#####", "#???#", "#???#", "#####"],
///   "counts": [{"of": "floor", "min": 6}]
/// }"######).unwrap();
/// let options = GridOptions::default();
/// let level = grim_levels::solve(&spec, &options, Budget::UNLIMITED)
///     .unwrap()
///     .into_level()
///     .expect("one level exists");
/// assert_eq!(level.to_text(&spec), "#####\n#...#\n#...#\n#####\n");
/// // Deterministic: the same spec and options, the same level.
/// let again = grim_levels::solve(&spec, &options, Budget::UNLIMITED).unwrap();
/// assert_eq!(again.level(), Some(&level));
/// ```
pub fn solve(
    spec: &GridSpec,
    options: &GridOptions,
    budget: Budget,
) -> Result<GridOutcome, GridError> {
    solve_with(spec, options, budget, ConnectivityStrategy::default()).map(|(outcome, _)| outcome)
}

/// [`solve`] with the connectivity strategy chosen, and statistics.
pub fn solve_with(
    spec: &GridSpec,
    options: &GridOptions,
    budget: Budget,
    strategy: ConnectivityStrategy,
) -> Result<(GridOutcome, SolveStats), GridError> {
    solve_within(spec, options, budget, strategy, None, None)
}

/// A progress report of a long solve, for [`solve_within`]'s `progress`: what the search has
/// done so far and, for soft levels, the bounds on the optimum.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Progress {
    /// Seconds (wall-clock) since the search began.
    pub seconds: f64,
    /// Engine conflicts so far.
    pub conflicts: u64,
    /// Of which the grid propagator found (a cut-off class cell, a missing path).
    pub propagator_conflicts: u64,
    /// Soft levels: the proven lower bound on the cost (0 before the first core).
    pub lower: Option<u64>,
    /// Soft levels: the cost of the best level found, once there is one.
    pub upper: Option<u64>,
}

/// Where progress goes, and how often: `report` is called about every `every` while the
/// search runs (checked every 64 conflicts; never when the search ends sooner). Reports only
/// observe: the search takes the same path with and without them.
pub struct ProgressReport {
    /// The interval between two reports.
    pub every: std::time::Duration,
    /// The receiver.
    pub report: Box<dyn FnMut(&Progress) + Send>,
}

/// The bounds a soft solve shares with its progress report (`u64::MAX`: none yet).
#[derive(Default)]
struct SharedBounds {
    lower: std::sync::atomic::AtomicU64,
    upper: std::sync::atomic::AtomicU64,
}

/// The engine's progress callback for `progress`, reading `bounds` when given.
fn engine_progress(
    progress: ProgressReport,
    bounds: Option<std::sync::Arc<SharedBounds>>,
) -> grim_solver::ProgressFn {
    use std::sync::atomic::Ordering;
    let began = std::time::Instant::now();
    let mut last = began;
    let ProgressReport { every, mut report } = progress;
    Box::new(move |stats: &grim_solver::Stats| {
        let now = std::time::Instant::now();
        if now.duration_since(last) < every {
            return;
        }
        last = now;
        let read = |a: &std::sync::atomic::AtomicU64| {
            Some(a.load(Ordering::Relaxed)).filter(|&v| v != u64::MAX)
        };
        report(&Progress {
            seconds: now.duration_since(began).as_secs_f64(),
            conflicts: stats.conflicts,
            propagator_conflicts: stats.external_conflicts,
            lower: bounds.as_ref().map(|b| read(&b.lower).unwrap_or(0)),
            upper: bounds.as_ref().and_then(|b| read(&b.upper)),
        });
    })
}

/// Conflicts between two looks at the clock of a progress report.
const PROGRESS_CONFLICTS: u64 = 64;

/// [`solve_with`] that also stops, answering [`StopReason::Interrupted`], once `stop` is set —
/// from another thread or a timer: a wall-clock limit such as a frame-time budget, which
/// conflicts cannot express. The engine checks the flag at every conflict and decision, so it
/// stops within microseconds and leaves nothing half-done; the handle stays set until its
/// owner resets it.
pub fn solve_within(
    spec: &GridSpec,
    options: &GridOptions,
    budget: Budget,
    strategy: ConnectivityStrategy,
    stop: Option<&Terminator>,
    progress: Option<ProgressReport>,
) -> Result<(GridOutcome, SolveStats), GridError> {
    solve_inner(spec, options, budget, strategy, stop, progress, None)
}

/// Anytime soft solving for a frame budget: the first level that satisfies every hard rule as
/// soon as the engine finds one, then better and better levels, each handed to `on_level`
/// with its cost and the proven lower bound (the schedule and its measurements are in
/// `anytime.rs`), until the optimum is proven ([`GridOutcome::Level`]), `budget` (engine
/// conflicts over all calls: a deadline that does not depend on the machine) runs out, `stop`
/// is set, or `on_level` answers [`Flow::Stop`](crate::Flow::Stop) — then
/// [`GridOutcome::Stopped`] with the best level delivered and the lower bound. A stop from
/// the callback sets `stop` when it is given (the engine watches one handle), and answers
/// [`StopReason::Interrupted`].
///
/// Every level delivered has passed the referee ([`check_level`]) and its [`level_cost`] is
/// the cost reported, strictly below the previous one's. A hard-only spec delivers its one
/// level at cost 0. Connectivity is solved by the propagator (the default strategy).
/// Deterministic, as [`solve`], when no wall-clock stop intervenes.
///
/// ```
/// use grim_levels::{Budget, Flow, GridOptions, GridSpec};
///
/// let spec = GridSpec::from_json(r######"{
///   "width": 6, "height": 6,
///   "tiles": [{"name": "wall", "glyph": "#"}, {"name": "floor", "glyph": "."}],
///   "counts": [{"of": "floor", "min": 0.5}],
///   "connectivity": [{"class": "floor"}],
///   "preferences": {"seed": 3, "mode": "soft"}
/// }"######).unwrap();
/// let mut costs = Vec::new();
/// let (outcome, _) = grim_levels::solve_soft_anytime(
///     &spec, &GridOptions::default(), Budget::UNLIMITED, None, None,
///     &mut |better| {
///         assert!(grim_levels::check_level(&spec, better.level).is_ok());
///         costs.push(better.cost);
///         Flow::Continue
///     },
/// ).unwrap();
/// // The last level delivered is the proven optimum, and costs only fell.
/// let level = outcome.level().expect("a level exists");
/// let least = grim_levels::level_cost(&spec, &GridOptions::default(), level);
/// assert_eq!(costs.last(), Some(&least));
/// assert!(costs.windows(2).all(|w| w[1] < w[0]));
/// ```
pub fn solve_soft_anytime(
    spec: &GridSpec,
    options: &GridOptions,
    budget: Budget,
    stop: Option<&Terminator>,
    progress: Option<ProgressReport>,
    on_level: OnLevel<'_>,
) -> Result<(GridOutcome, SolveStats), GridError> {
    solve_inner(
        spec,
        options,
        budget,
        ConnectivityStrategy::Propagator,
        stop,
        progress,
        Some(on_level),
    )
}

/// [`solve_within`], and with `on_level` [`solve_soft_anytime`].
fn solve_inner(
    spec: &GridSpec,
    options: &GridOptions,
    budget: Budget,
    strategy: ConnectivityStrategy,
    stop: Option<&Terminator>,
    progress: Option<ProgressReport>,
    on_level: Option<OnLevel<'_>>,
) -> Result<(GridOutcome, SolveStats), GridError> {
    let mode = match strategy {
        ConnectivityStrategy::Propagator => Mode::Propagate,
        ConnectivityStrategy::Lazy => Mode::Lazy,
        ConnectivityStrategy::Eager => Mode::Eager,
    };
    // The bounds presolve first: "no level" by arithmetic needs no search, and the bounds it
    // finds are what the encoder is given (the referee still judges by the document).
    let tight = match clash::presolve_within(spec, stop)? {
        clash::Presolved::NoLevel { clash } => {
            return Ok((GridOutcome::NoLevel { clash }, SolveStats::default()));
        }
        clash::Presolved::Bounds(bounds) => bounds.apply(spec, false),
    };
    let model = GridModel::build_with(&tight, options, mode)?;
    if mode == Mode::Propagate {
        // Borrowed: the engine (or the optimiser) copies the clauses in anyway, and a copy
        // here was 39M instructions of the 64×64 soft cave's first level (callgrind).
        let wcnf = std::borrow::Cow::Borrowed(model.problem.as_wcnf());
        let stats = SolveStats::of(&wcnf);
        let job = Job(spec, &model, wcnf, stats, budget, stop, progress, true);
        if model.is_soft() {
            let anytime = match on_level {
                Some(f) => Some(Some(f)),
                None => ANYTIME_BY_DEFAULT.then_some(None),
            };
            return solve_soft_propagated(job, options, anytime);
        }
        let solved = solve_propagated(job)?;
        if let (Some(on_level), GridOutcome::Level(level)) = (on_level, &solved.0) {
            // A hard level costs nothing: it is the optimum, delivered once.
            let _ = on_level(&anytime::Improvement {
                level,
                cost: 0,
                lower_bound: 0,
            });
        }
        return Ok(solved);
    }
    let wcnf = model.problem.to_wcnf();
    let mut stats = SolveStats::of(&wcnf);
    // The eager model is complete: it has no cuts to add, and its loop ends after one round.
    let lazy = mode == Mode::Lazy;
    let cuts_for = |level: &Level| -> Vec<Vec<Lit>> {
        let mut out = Vec::new();
        for family in FAMILIES.iter().filter(|_| lazy) {
            out.extend(family.cuts(&model, level).into_iter().map(|(_, cut)| cut));
        }
        out
    };
    let level = if !model.is_soft() {
        let mut s = Solver::new();
        if let Some(stop) = stop {
            s.set_terminator(stop);
        }
        if let Some(p) = progress {
            s.set_progress(PROGRESS_CONFLICTS, Some(engine_progress(p, None)));
        }
        s.reserve_vars(wcnf.num_vars);
        for family in FAMILIES.iter().filter(|_| lazy) {
            for l in family.cut_lits(&model) {
                s.freeze(l.var());
            }
        }
        for c in &wcnf.hard {
            s.add_clause(c);
        }
        for l in model.problem.phases() {
            s.set_phase(l);
        }
        let mut assume: Vec<Lit> = Vec::new();
        loop {
            let used = s.stats();
            let left = budget.left_after(used.conflicts, used.propagations);
            stats.rounds += 1;
            let mut status = s.solve(&assume, left);
            if status == Status::Unsat && !assume.is_empty() {
                // The bridges were only a guess: drop them and solve again.
                assume.clear();
                stats.rounds += 1;
                status = s.solve(&[], left);
            }
            stats.conflicts = s.stats().conflicts;
            if let Some(outcome) = unanswered(spec, status, stats.conflicts, stop, true)? {
                return Ok((outcome, stats));
            }
            let values = s.model().ok_or(GridError::Rejected(Rejection::NoModel))?;
            let level = model.decode(&values)?;
            let cuts = cuts_for(&level);
            if cuts.is_empty() {
                break level;
            }
            stats.cuts += cuts.len();
            for c in &cuts {
                s.add_clause(c);
            }
            for l in steer_phases(&model, &level) {
                s.set_phase(l);
            }
            // Also assume for one round what the families ask (dropped if that is
            // unsatisfiable).
            assume = steer_assumptions(&model, &level);
        }
    } else {
        let mut problem = model.problem.clone();
        // Every round re-solves from scratch; the budget holds for all of them together.
        let mut effort = Effort::default();
        loop {
            stats.rounds += 1;
            let outcome = problem.solve_within(effort.left_of(budget), stop, &mut effort)?;
            stats.conflicts = effort.conflicts;
            let solution = match outcome {
                Outcome::Optimum(solution) => solution,
                Outcome::Unsatisfiable => {
                    let clash = clash::explain(spec, stats.conflicts, stop)?;
                    return Ok((GridOutcome::NoLevel { clash }, stats));
                }
                Outcome::Stopped { best, lower_bound } => {
                    // The best model of the relaxation counts only if it is a whole level:
                    // connected, and accepted by the referee.
                    let best = match best {
                        Some(b) => Some(model.decode(b.model())?),
                        None => None,
                    }
                    .filter(|level| cuts_for(level).is_empty() && check_level(spec, level).is_ok());
                    let stopped = GridOutcome::Stopped {
                        reason: stop_reason(stop),
                        best,
                        lower_bound,
                    };
                    return Ok((stopped, stats));
                }
            };
            let level = model.decode(solution.model())?;
            let cuts = cuts_for(&level);
            if cuts.is_empty() {
                let cost = level_cost(spec, options, &level);
                if cost != solution.cost() {
                    return Err(GridError::Rejected(Rejection::CostMismatch {
                        optimiser: solution.cost(),
                        referee: cost,
                    }));
                }
                break level;
            }
            stats.cuts += cuts.len();
            for c in &cuts {
                problem.add_clause(c, None);
            }
            for l in steer_phases(&model, &level) {
                problem.prefer(l.var(), l.is_positive());
            }
        }
    };
    check_level(spec, &level).map_err(|found| GridError::Rejected(Rejection::Violations(found)))?;
    Ok((GridOutcome::Level(level), stats))
}

/// A propagated solve's inputs: the spec, its model, the model's clauses (borrowed from the
/// model; perhaps with more beside them: `distinct.rs` adds its blocking constraints), the
/// statistics so far, the budget, the stop handle, the progress report, and whether "no level"
/// is explained by the clash diagnosis (not when the added clauses are why: the spec's rules
/// alone have levels).
pub(crate) struct Job<'a>(
    pub(crate) &'a GridSpec,
    pub(crate) &'a GridModel,
    pub(crate) std::borrow::Cow<'a, grim_formula::Wcnf>,
    pub(crate) SolveStats,
    pub(crate) Budget,
    pub(crate) Option<&'a Terminator>,
    pub(crate) Option<ProgressReport>,
    pub(crate) bool,
);

/// What a solve path returns.
pub(crate) type Solved = Result<(GridOutcome, SolveStats), GridError>;

/// A soft grid: one OLL run to a proven optimum, its engine with the grid propagator connected
/// (`Oll::with_propagator`), so connectivity holds in every model it considers — no rounds.
///
/// With `anytime`, the schedule of `anytime.rs` (the first level at once, neighbourhood probes
/// between core-guided slices) and every better level handed to the callback, if one is given.
pub(crate) fn solve_soft_propagated(
    job: Job<'_>,
    options: &GridOptions,
    anytime: Option<Option<OnLevel<'_>>>,
) -> Solved {
    let Job(spec, model, wcnf, mut stats, budget, stop, progress, explain) = job;
    stats.rounds = 1;
    let mut oll_options = OllOptions {
        // The anytime schedule finds its first level itself (a probe without assumptions).
        anytime_first_model: anytime.is_none(),
        ..OllOptions::default()
    };
    oll_options.solver.restart_min = GRID_RESTART_MIN;
    // No unit-propagation cores: on grids their cores are large (a cell's wish fails only
    // through long chains of counts and adjacency) and the later calls pay for them.
    // showcase-12 `--preferences soft`, seeds 0-9, engine conflicts with / without them:
    // 15149/2183, 1470/1102, 44447/8336, 428/385, 12963/12088, 419/306, 582/1119, 175/228,
    // 739/703, 525/513 (77k against 27k in all); enclosure-soft-12 933 against 949.
    oll_options.up_cores = false;
    // Longer deletion probes in core minimisation (300 conflicts each, OLL's default 100): the
    // same ten seeds, 27.0k -> 19.5k conflicts in all, the slowest 12.1k -> 6.4k (seed 4:
    // 12088 -> 2943); enclosure-soft-12 unchanged (949).
    oll_options.minimize_conflicts = 300;
    let built = match model.propagator() {
        Some(p) => Oll::with_propagator(&wcnf, oll_options, p),
        None => Oll::new(&wcnf, oll_options),
    };
    let mut oll = built.map_err(|e| match e {
        grim_maxsat::MaxSatError::WeightOverflow { .. } => GridError::WeightOverflow,
        grim_maxsat::MaxSatError::TooManyVariables { num_vars } => {
            GridError::TooManyVariables { num_vars }
        }
    })?;
    oll.set_phases(&model.problem.phases());
    // The count integers' order literals, as on the hard path (`GridModel::connect_search`).
    oll.defer_decisions(&model.deferred);
    if let Some(stop) = stop {
        oll.set_terminator(stop);
    }
    let bounds = std::sync::Arc::new(SharedBounds::default());
    bounds
        .upper
        .store(u64::MAX, std::sync::atomic::Ordering::Relaxed);
    if let Some(p) = progress {
        oll.set_progress(
            PROGRESS_CONFLICTS,
            Some(engine_progress(p, Some(bounds.clone()))),
        );
    }
    let mut observe = |event: grim_maxsat::Event<'_>| {
        use std::sync::atomic::Ordering;
        match event {
            grim_maxsat::Event::Improved { cost, .. } => {
                bounds.upper.store(cost, Ordering::Relaxed)
            }
            grim_maxsat::Event::LowerBound(lb) => {
                // The largest heard: the families' late bound may pass the optimiser's.
                bounds.lower.fetch_max(lb, Ordering::Relaxed);
            }
        }
    };
    let mut called_off = false;
    // The best level the anytime callback was given, if any: what a stopped solve returns.
    let mut delivered: Option<Level> = None;
    let known = match anytime {
        None => {
            let term = oll.terminator();
            family_bound(model, &wcnf, &|| term.is_set())
        }
        Some(_) => None,
    };
    let mut known_lower = known.as_ref().map_or(0, |k| k.lower);
    let status = match (anytime, known) {
        (None, None) => solve_with_late_bound(
            &mut oll,
            model,
            &wcnf,
            budget,
            &mut observe,
            &mut known_lower,
        ),
        (None, Some(known)) => solve_to_bound(&mut oll, model, &known, budget, &mut observe),
        (Some(on_level), _) => {
            let mut wishes = anytime::Wishes::new(model, &wcnf);
            let mut deliver = anytime::Deliver {
                spec,
                options,
                model,
                on_level,
                observe: &mut observe,
                stop: oll.terminator(),
                lower: 0,
                last: None,
                best: None,
                stopped: false,
                error: None,
            };
            let mut bound = |oll: &mut Oll, observe: &mut dyn FnMut(grim_maxsat::Event<'_>)| {
                late_bound(oll, model, &wcnf, observe)
            };
            let mut late = anytime::Late {
                after: LATE_BOUND_AFTER,
                bound: &mut bound,
                lower: 0,
            };
            let status = anytime::run(&mut oll, &mut wishes, budget, &mut deliver, &mut late);
            known_lower = late.lower;
            if let Some(e) = deliver.error {
                oll.set_progress(0, None);
                return Err(e);
            }
            called_off = deliver.stopped;
            delivered = deliver.best;
            status
        }
    };
    oll.set_progress(0, None);
    stats.conflicts = oll.stats().conflicts;
    if let Some(e) = oll.propagator_error() {
        return Err(GridError::Rejected(Rejection::Propagator(e.clone())));
    }
    match status {
        MaxSatStatus::Unsatisfiable => {
            let clash = match explain {
                true => clash::explain(spec, stats.conflicts, stop)?,
                false => Vec::new(),
            };
            return Ok((GridOutcome::NoLevel { clash }, stats));
        }
        MaxSatStatus::Optimum => {}
        _ => {
            // The best model so far counts only if it is a whole level the referee accepts
            // (the propagator keeps every model connected, so no cuts are needed). With the
            // anytime callback, the best level it was given (priced by the referee, which may
            // rank the optimiser's models differently: `anytime.rs`, `Deliver::event`).
            let best = match (delivered, oll.best_model()) {
                (Some(level), _) => Some(level),
                (None, Some(values)) if model.problem.check(values).is_ok() => {
                    Some(model.decode(values)?)
                }
                _ => None,
            }
            .filter(|level| check_level(spec, level).is_ok());
            let reason = match called_off {
                true => StopReason::Interrupted,
                false => stop_reason(stop),
            };
            let stopped = GridOutcome::Stopped {
                reason,
                best,
                lower_bound: oll.lower_bound().max(known_lower),
            };
            return Ok((stopped, stats));
        }
    }
    let values = oll
        .best_model()
        .ok_or(GridError::Rejected(Rejection::NoModel))?;
    // The problem's own referee on the constraints as stated and on the clauses built.
    let problem = &model.problem;
    if let Err(v) = problem.check(values) {
        return Err(GridError::Rejected(Rejection::Problem(
            grim_maxsat::problem::Rejection::HardViolated(v),
        )));
    }
    if let Err(clause) = problem.check_clauses(values) {
        return Err(GridError::Rejected(Rejection::Problem(
            grim_maxsat::problem::Rejection::ClauseFalsified { clause },
        )));
    }
    let level = model.decode(values)?;
    check_level(spec, &level).map_err(|found| GridError::Rejected(Rejection::Violations(found)))?;
    let cost = level_cost(spec, options, &level);
    if Some(cost) != oll.best_cost() || cost != problem.unmet(values) {
        return Err(GridError::Rejected(Rejection::CostMismatch {
            optimiser: oll.best_cost().unwrap_or(u64::MAX),
            referee: cost,
        }));
    }
    Ok((GridOutcome::Level(level), stats))
}

/// The best lower bound the families derive from their structure ([`Family::soft_bound`]):
/// `costs[c][t]` is read from the soft unit clauses on tile literals (`¬t` wished: `t` costs;
/// `t` wished: every other tile of the cell costs), the rest of the objective only adds.
///
/// [`Family::soft_bound`]: crate::family::Family::soft_bound
fn family_bound(
    model: &GridModel,
    wcnf: &grim_formula::Wcnf,
    halt: &dyn Fn() -> bool,
) -> Option<crate::family::SoftBound> {
    let costs = tile_costs(model, wcnf)?;
    FAMILIES
        .iter()
        .filter_map(|f| f.soft_bound(model, &costs, halt))
        .max_by_key(|b| b.lower)
}

/// What each cell pays for each tile: `costs[c][t]` read from the soft unit clauses on tile
/// literals (`¬t` wished: `t` costs; `t` wished: every other tile of the cell costs). `None`
/// when no soft clause is on a tile, or the weights overflow.
fn tile_costs(model: &GridModel, wcnf: &grim_formula::Wcnf) -> Option<Vec<Vec<u64>>> {
    let cells = model.spec.cells();
    let tiles = model.spec.tiles.len();
    let mut of_lit = std::collections::HashMap::new();
    for c in 0..cells {
        for t in 0..tiles {
            of_lit.insert(model.tile_lit(c, t), (c, t));
        }
    }
    let mut costs = vec![vec![0u64; tiles]; cells];
    let mut any = false;
    for (w, clause) in &wcnf.soft {
        let [l] = clause.as_slice() else { continue };
        if let Some(&(c, t)) = of_lit.get(l) {
            for (u, cost) in costs[c].iter_mut().enumerate() {
                if u != t {
                    *cost = cost.checked_add(*w)?;
                }
            }
            any = true;
        } else if let Some(&(c, t)) = of_lit.get(&!*l) {
            costs[c][t] = costs[c][t].checked_add(*w)?;
            any = true;
        }
    }
    any.then_some(costs)
}

/// Conflicts the core-guided search spends alone before the families' late bound
/// ([`Family::soft_bound_below`]) is asked: the seeds it closes by then never pay for the bound.
/// dungeon-12 `--preferences soft` seeds 30, 51, 72 (0.14–0.19 CPU s alone) need more than
/// 4000 and paid 0.5 s for a bound that added nothing.
///
/// [`Family::soft_bound_below`]: crate::family::Family::soft_bound_below
const LATE_BOUND_AFTER: u64 = 12_000;

/// What the late bound's rounds may spend in all, in the families' units (the connectivity
/// program's transitions: 15–20M a CPU second). Spent only on seeds the core-guided search
/// has not closed in [`LATE_BOUND_AFTER`] conflicts. dungeon-12 `--preferences soft` seed 16
/// needs 57M over four rounds to reach its least (27) with a witness that is a level: 3.3 CPU
/// s in all, where without it the search had not proven 27 after 60 s; seed 14 needs 26M
/// (1.7 s, against 14 s). It was 14M per round before: both ran out.
const LATE_BOUND_WORK: u64 = 60_000_000;

/// How far above the search's own bound the late bound's first round is capped. Each later
/// round is capped at the bound the round before proved (one above its cap), the cheapest
/// round that can return a witness there. Capped at the search's bound, a first round can
/// only say whether the least passes it, without a witness when it does, and the slow seeds'
/// least is above it: dungeon-12 `--preferences soft`, CPU s with 0 → 1 (seeds 9, 14, 16, 38,
/// 46, 86, 87): 0.84 → 0.72, 1.76 → 1.35, 3.77 → 3.74, 1.76 → 1.49, 1.04 → 0.59, 0.94 → 0.62,
/// 0.70 → 0.62; with 2, 0.58, 1.87, 2.73, 0.82, 0.52, 0.93, 0.56. Over seeds 0–99 the sums
/// hardly move (dungeon-12 14.40 → 14.18 s, showcase-12 17.38 → 17.92 s, the other seeds paying
/// a little for the larger first cap) and p95 drops (0.84 → 0.69 s); 2 gave 0.71.
const LATE_BOUND_FIRST: u64 = 1;

/// The core-guided search, and once it has spent [`LATE_BOUND_AFTER`] conflicts without an
/// answer, the families' late bound below its best cost: a bound at the best cost proves that
/// level optimal at once; a smaller one above the search's own ends the search as soon as a
/// level costs it (`solve_to_bound`). `late` receives the bound. Sound whatever the families
/// return as long as it is a lower bound: levels are still found and priced by the engine.
fn solve_with_late_bound(
    oll: &mut Oll,
    model: &GridModel,
    wcnf: &grim_formula::Wcnf,
    budget: Budget,
    observe: &mut dyn FnMut(grim_maxsat::Event<'_>),
    late: &mut u64,
) -> MaxSatStatus {
    let start = (oll.stats().conflicts, oll.stats().propagations);
    let first = Budget {
        conflicts: Some(
            budget
                .conflicts
                .map_or(LATE_BOUND_AFTER, |c| c.min(LATE_BOUND_AFTER)),
        ),
        propagations: budget.propagations,
    };
    let status = oll.solve(first, observe);
    let ask = matches!(status, MaxSatStatus::Satisfiable | MaxSatStatus::Unknown)
        && !oll.terminator().is_set();
    let rest = budget.left_after(
        oll.stats().conflicts - start.0,
        oll.stats().propagations - start.1,
    );
    if !ask || rest.conflicts == Some(0) || rest.propagations == Some(0) {
        return status;
    }
    match late_bound(oll, model, wcnf, observe) {
        Some(lower) => {
            *late = lower;
            let known = crate::family::SoftBound {
                lower,
                witness: None,
            };
            solve_to_bound(oll, model, &known, rest, observe)
        }
        None => oll.solve(rest, observe),
    }
}

/// The families' late bound ([`Family::soft_bound_below`]) below the search's best cost, by
/// deepening from the search's own bound, and its witness tried as a level (a probe): the
/// bound when it passes the search's own, else `None`. Used by the default schedule after
/// [`LATE_BOUND_AFTER`] conflicts and by the anytime one (`anytime.rs`) at the same point.
///
/// [`Family::soft_bound_below`]: crate::family::Family::soft_bound_below
pub(crate) fn late_bound(
    oll: &mut Oll,
    model: &GridModel,
    wcnf: &grim_formula::Wcnf,
    observe: &mut dyn FnMut(grim_maxsat::Event<'_>),
) -> Option<u64> {
    let bound = match (oll.best_cost(), tile_costs(model, wcnf)) {
        (Some(best), Some(costs)) if best > oll.lower_bound() => {
            let term = oll.terminator();
            let halt = || term.is_set();
            // Deepening: a cap a unit above the search's bound keeps the families' programs
            // small; a bound past the cap raises it (dungeon-12 seed 38: least 24, search bound
            // 22, best 26). A first round that finds the least at or below the search's own
            // bound has nothing to add.
            let mut known: Option<crate::family::LateBound> = None;
            let mut cap = oll.lower_bound() + LATE_BOUND_FIRST;
            let mut work = LATE_BOUND_WORK;
            loop {
                cap = cap.min(best - 1);
                let Some(b) = FAMILIES
                    .iter()
                    .filter_map(|f| f.soft_bound_below(model, &costs, cap, &mut work, &halt))
                    .max_by_key(|b| b.lower)
                else {
                    break;
                };
                let lower = b.lower;
                // A round that meets the bound of the round before (at a higher cap) brings
                // what that one could not: the witness. Keeping only larger bounds dropped it,
                // and the search then had to find the optimum itself (dungeon-12 seed 9: 162k
                // more conflicts, 4.5 s in all, against the witness's level at once).
                let better = |k: &crate::family::LateBound| {
                    lower > k.lower || (lower == k.lower && k.cells.is_none())
                };
                if known.as_ref().is_none_or(better) {
                    known = Some(b);
                }
                if lower <= cap || cap + 1 >= best {
                    break;
                }
                // The least is above the cap: the next round asks whether it is just above.
                cap = lower;
            }
            known
        }
        _ => None,
    };
    match bound {
        Some(b) if b.lower > oll.lower_bound() => {
            // Heard before the witness's level, which the anytime callback then sees with it.
            observe(grim_maxsat::Event::LowerBound(b.lower));
            if let Some(cells) = &b.cells {
                // The relaxation's solution as a probe: the cells it keeps on one tile kept
                // there, each other cell on one of its tiles.
                let mut keep = Vec::new();
                let mut wants = Vec::new();
                for (c, tiles) in cells.iter().enumerate() {
                    let lits: Vec<Lit> = tiles.iter().map(|&t| model.tile_lit(c, t)).collect();
                    match lits.as_slice() {
                        [one] => keep.push(*one),
                        _ => wants.push(lits),
                    }
                }
                let mut failed = Vec::new();
                oll.probe(&keep, &wants, WITNESS_CONFLICTS, &mut failed, observe);
            }
            Some(b.lower)
        }
        _ => None,
    }
}

/// Conflicts for the engine to confirm a family's witness level (every tile fixed: the rest
/// is propagation and the counters' auxiliaries).
const WITNESS_CONFLICTS: u64 = 2000;

/// Conflicts per slice of the core-guided search when a family's bound can end it.
const BOUND_SLICE: u64 = 2000;

/// The core-guided search, ended as soon as its best level costs the families' bound
/// `known.lower` (then that level is optimal), after first asking the engine for the witness
/// level (every tile as the family chose it): on a spec whose only rule is the family's, that
/// is the optimum at once. Sound whatever the witness: the probe only finds levels of the hard
/// clauses, priced by the engine; optimality rests on `known.lower` alone.
fn solve_to_bound(
    oll: &mut Oll,
    model: &GridModel,
    known: &crate::family::SoftBound,
    budget: Budget,
    observe: &mut dyn FnMut(grim_maxsat::Event<'_>),
) -> MaxSatStatus {
    if let Some(tiles) = &known.witness {
        let keep: Vec<Lit> = tiles
            .iter()
            .enumerate()
            .map(|(c, &t)| model.tile_lit(c, t))
            .collect();
        let mut failed = Vec::new();
        oll.probe(&keep, &[], WITNESS_CONFLICTS, &mut failed, observe);
    }
    let start = (oll.stats().conflicts, oll.stats().propagations);
    loop {
        if oll.best_cost().is_some_and(|c| c <= known.lower) {
            return MaxSatStatus::Optimum;
        }
        let left = budget.left_after(
            oll.stats().conflicts - start.0,
            oll.stats().propagations - start.1,
        );
        if left.conflicts == Some(0) || left.propagations == Some(0) {
            return match oll.best_cost() {
                Some(_) => MaxSatStatus::Satisfiable,
                None => MaxSatStatus::Unknown,
            };
        }
        let slice = Budget {
            conflicts: Some(left.conflicts.map_or(BOUND_SLICE, |c| c.min(BOUND_SLICE))),
            propagations: left.propagations,
        };
        let status = oll.solve(slice, observe);
        match status {
            MaxSatStatus::Optimum | MaxSatStatus::Unsatisfiable => return status,
            _ if oll.best_cost().is_some_and(|c| c <= known.lower) => {
                return MaxSatStatus::Optimum;
            }
            _ if oll.terminator().is_set() => return status,
            _ => {}
        }
    }
}

/// Whether a soft solve without a callback runs the anytime schedule too (`anytime.rs`).
const ANYTIME_BY_DEFAULT: bool = false;

/// The engine's `restart_min` for propagator solves (measured in `solve_propagated`).
const GRID_RESTART_MIN: u64 = 100;

/// Conflicts before the engine's first elimination round in a hard propagator solve
/// (`eliminate_delay`). Why: the shipped 64×64 grids answer in tens of conflicts, and the
/// round before the search was a sixth of the whole process (cave-64: 253M of 1.47G
/// instructions, callgrind); a grid that needs thousands of conflicts still gets it then.
/// Measured in `benches/results/issue41-anytime-2026-12-07c.md`.
const GRID_ELIMINATE_DELAY: u64 = 1000;

/// A hard grid solved in one engine call with the grid propagator connected.
pub(crate) fn solve_propagated(job: Job<'_>) -> Solved {
    let Job(spec, model, wcnf, mut stats, budget, stop, progress, explain) = job;
    // Restarts at least 100 conflicts apart: the propagator's growth decisions make a
    // restart rebuild the whole level (trail reuse keeps only VSIDS-ordered prefixes).
    // dungeon-64 seeds 1-5, CPU s: 1.33-2.64 with the default minimum of 2 (200-415
    // restarts), 0.33-0.53 with 100 (4-14 restarts); 20: 0.31-0.84, 1000: 0.30-0.61.
    let opts = grim_solver::Options {
        restart_min: GRID_RESTART_MIN,
        eliminate_delay: GRID_ELIMINATE_DELAY,
        ..grim_solver::Options::default()
    };
    let mut s = Solver::with_options(opts);
    if let Some(stop) = stop {
        s.set_terminator(stop);
    }
    s.reserve_vars(wcnf.num_vars);
    for c in &wcnf.hard {
        s.add_clause(c);
    }
    for l in model.problem.phases() {
        s.set_phase(l);
    }
    model.connect_search(&mut s);
    if let Some(p) = progress {
        s.set_progress(PROGRESS_CONFLICTS, Some(engine_progress(p, None)));
    }
    stats.rounds = 1;
    let status = s.solve(&[], budget);
    s.set_progress(0, None);
    stats.conflicts = s.stats().conflicts;
    if let Some(e) = s.propagator_error() {
        return Err(GridError::Rejected(Rejection::Propagator(e.clone())));
    }
    if let Some(outcome) = unanswered(spec, status, stats.conflicts, stop, explain)? {
        return Ok((outcome, stats));
    }
    let values = s.model().ok_or(GridError::Rejected(Rejection::NoModel))?;
    let level = model.decode(&values)?;
    check_level(spec, &level).map_err(|found| GridError::Rejected(Rejection::Violations(found)))?;
    Ok((GridOutcome::Level(level), stats))
}

/// What stopped a search that ended without an answer: the stop handle when it is set, else
/// the budget.
fn stop_reason(stop: Option<&Terminator>) -> StopReason {
    if stop.is_some_and(Terminator::is_set) {
        StopReason::Interrupted
    } else {
        StopReason::Budget
    }
}

/// The outcome of a hard engine call that did not answer `Sat` (`None` when it did): the rules
/// that clash when no level exists (when `explain`; else no rules named), or what stopped it
/// (a hard solve has no best level and no bound to report).
fn unanswered(
    spec: &GridSpec,
    status: Status,
    conflicts: u64,
    stop: Option<&Terminator>,
    explain: bool,
) -> Result<Option<GridOutcome>, GridError> {
    Ok(match status {
        Status::Sat => None,
        Status::Unsat => Some(GridOutcome::NoLevel {
            clash: match explain {
                true => clash::explain(spec, conflicts, stop)?,
                false => Vec::new(),
            },
        }),
        Status::Unknown => Some(GridOutcome::Stopped {
            reason: stop_reason(stop),
            best: None,
            lower_bound: 0,
        }),
    })
}

/// The cut loop's phase hints for the next round, every family's
/// ([`Family::steer_phases`](crate::family::Family::steer_phases)).
fn steer_phases(model: &GridModel, level: &Level) -> Vec<Lit> {
    FAMILIES
        .iter()
        .flat_map(|f| f.steer_phases(model, level))
        .collect()
}

/// The literals the cut loop's next hard round assumes, every family's
/// ([`Family::steer_assumptions`](crate::family::Family::steer_assumptions)), sorted and without
/// repeats.
fn steer_assumptions(model: &GridModel, level: &Level) -> Vec<Lit> {
    let mut out: Vec<Lit> = FAMILIES
        .iter()
        .flat_map(|f| f.steer_assumptions(model, level))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}
