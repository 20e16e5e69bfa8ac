//! [`solve`]: the engine on a [`GridModel`], connectivity cut in lazily, every answer checked
//! by the referee.
//!
//! Hard-only models run one incremental engine: solve, flood-fill each connectivity rule's
//! class in the model, add the separator cuts (`connectivity.rs`) for the components that are
//! not the main one, hint the cells bridging them to the main one, solve again; learned clauses
//! and saved phases carry over, so each round is a small repair. Models with soft rules
//! re-optimise with OLL after each round of cuts (added as hard clauses): the cuts hold in every
//! connected level, so the optimum of the relaxation, once connected, is the optimum of the
//! full model.
//!
//! What made the loop converge, on the 32×32 dungeon (seed 7, CPU s, counts as sorting
//! networks at the time): boundary cuts alone, 119 rounds / 5.7 s (each round grows a stray
//! component by one cell); with the bridge hints and every ring, 21 rounds / 3.6 s; with the
//! small-fragment cuts too, 24 rounds / 2.1 s. The eager founded encoding instead took 0.95 s
//! at 12×12 (65,182 conflicts) where the loop takes 0.01–0.03 s.

use super::model::ConnMode;
use super::propagator::GridPropagator;
use super::{
    GridError, GridModel, GridOptions, GridSpec, Level, check_level, clash, connectivity,
    level_cost,
};
use crate::problem::{Effort, SolveError};
use grim_solver::{Budget, Lit, Solver, Status, Terminator};

/// How [`solve_with`] handles connectivity rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ConnectivityStrategy {
    /// Reachability reasoned about inside the search by an external propagator
    /// (`propagator.rs`): conflicts as soon as a class cell is cut off, cells forced in and
    /// out, small separators as explanations (the default: measured fastest, see `FORMAT.md`).
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

/// A level for `spec`: any level satisfying the hard rules (steered by the seeded hints), or,
/// when something is soft, one of least cost (proven). `budget` bounds the engine's conflicts
/// and propagations over all rounds (connectivity cuts make several). The level has passed
/// [`check_level`] (and its cost, when soft, the optimiser's claim) before it is returned.
/// Deterministic: the same spec and options give the same level.
pub fn solve(spec: &GridSpec, options: &GridOptions, budget: Budget) -> Result<Level, GridError> {
    solve_with(spec, options, budget, ConnectivityStrategy::Lazy).map(|(level, _)| level)
}

/// [`solve`] with the connectivity strategy chosen, and statistics.
pub fn solve_with(
    spec: &GridSpec,
    options: &GridOptions,
    budget: Budget,
    strategy: ConnectivityStrategy,
) -> Result<(Level, SolveStats), GridError> {
    solve_within(spec, options, budget, strategy, None)
}

/// [`solve_with`] that also stops, answering [`GridError::Interrupted`], once `stop` is set —
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
) -> Result<(Level, SolveStats), GridError> {
    let stopped = || stop.is_some_and(Terminator::is_set);
    let mode = match strategy {
        ConnectivityStrategy::Propagator => ConnMode::Propagate,
        ConnectivityStrategy::Lazy => ConnMode::Lazy,
        ConnectivityStrategy::Eager => ConnMode::Eager,
    };
    let model = GridModel::build_with(spec, options, mode)?;
    if mode == ConnMode::Propagate && !model.is_soft() {
        return solve_propagated(spec, &model, budget, stop);
    }
    // Soft grids with the propagator strategy use the cut loop until OLL can host a
    // propagator.
    let mode = if mode == ConnMode::Propagate {
        ConnMode::Lazy
    } else {
        mode
    };
    let model = if mode == ConnMode::Lazy && strategy == ConnectivityStrategy::Propagator {
        GridModel::build_with(spec, options, mode)?
    } else {
        model
    };
    let wcnf = model.problem.to_wcnf();
    let mut stats = SolveStats {
        vars: wcnf.num_vars,
        clauses: wcnf.hard.len(),
        ..SolveStats::default()
    };
    let class: Vec<(Vec<Lit>, Option<usize>)> = if mode == ConnMode::Lazy {
        spec.connectivity
            .iter()
            .map(|r| {
                let lits = model.class_lits.get(&r.class).cloned().unwrap_or_default();
                (lits, r.root.map(|(x, y)| spec.index(x, y)))
            })
            .collect()
    } else {
        Vec::new()
    };
    let cuts_for = |level: &Level| -> Vec<Vec<Lit>> {
        let mut out = Vec::new();
        for (rule, (lits, root)) in spec.connectivity.iter().zip(&class) {
            let holds: Vec<bool> = level.tiles.iter().map(|&t| rule.class[t]).collect();
            out.extend(connectivity::cuts(spec, lits, &holds, *root));
        }
        out
    };
    let level = if !model.is_soft() {
        let mut s = Solver::new();
        if let Some(stop) = stop {
            s.set_terminator(stop);
        }
        s.reserve_vars(wcnf.num_vars);
        for (lits, _) in &class {
            for l in lits {
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
            match status {
                Status::Unsat => {
                    let clash = clash::explain(spec, stats.conflicts, stop)?;
                    return Err(GridError::Unsatisfiable { clash });
                }
                Status::Unknown if stopped() => return Err(GridError::Interrupted),
                Status::Unknown => return Err(GridError::BudgetExhausted),
                Status::Sat => {}
            }
            let values = s.model().ok_or_else(|| GridError::Rejected {
                problems: vec!["the engine reported SAT without a model".to_string()],
            })?;
            let level = model.decode(&values)?;
            let cuts = cuts_for(&level);
            if cuts.is_empty() {
                break level;
            }
            stats.cuts += cuts.len();
            for c in &cuts {
                s.add_clause(c);
            }
            for l in bridge_phases(&model, &level) {
                s.set_phase(l);
            }
            // Also assume the bridges for the next round (dropped if that is unsatisfiable):
            // on the 32x32 dungeon, seeds 1, 3, 5: 1.07, 2.21, 1.13 s CPU against 2.05, 2.63,
            // 1.39 s with the hints alone.
            assume = bridge_lits(&model, &level, &class);
        }
    } else {
        let mut problem = model.problem.clone();
        // Every round re-solves from scratch; the budget holds for all of them together.
        let mut effort = Effort::default();
        loop {
            stats.rounds += 1;
            let result = problem.solve_within(effort.left_of(budget), stop, &mut effort);
            stats.conflicts = effort.conflicts;
            let solution = match result {
                Err(SolveError::BudgetExhausted { .. }) if stopped() => {
                    return Err(GridError::Interrupted);
                }
                Err(SolveError::HardRulesUnsatisfiable) => {
                    let clash = clash::explain(spec, stats.conflicts, stop)?;
                    return Err(GridError::Unsatisfiable { clash });
                }
                r => r?,
            };
            let level = model.decode(solution.model())?;
            let cuts = cuts_for(&level);
            if cuts.is_empty() {
                let cost = level_cost(spec, options, &level);
                if cost != solution.cost() {
                    return Err(GridError::Rejected {
                        problems: vec![format!(
                            "the optimiser's optimum costs {}, the referee counts {cost}",
                            solution.cost()
                        )],
                    });
                }
                break level;
            }
            stats.cuts += cuts.len();
            for c in &cuts {
                problem.add_clause(c, None);
            }
            for l in bridge_phases(&model, &level) {
                problem.prefer(l.var(), l.is_positive());
            }
        }
    };
    check_level(spec, &level).map_err(|found| GridError::Rejected {
        problems: found.iter().map(ToString::to_string).collect(),
    })?;
    Ok((level, stats))
}

/// The engine's `restart_min` for propagator solves (measured in `solve_propagated`).
const GRID_RESTART_MIN: u64 = 100;

/// A hard grid solved in one engine call with the grid propagator connected.
fn solve_propagated(
    spec: &GridSpec,
    model: &GridModel,
    budget: Budget,
    stop: Option<&Terminator>,
) -> Result<(Level, SolveStats), GridError> {
    let stopped = || stop.is_some_and(Terminator::is_set);
    let wcnf = model.problem.to_wcnf();
    let mut stats = SolveStats {
        vars: wcnf.num_vars,
        clauses: wcnf.hard.len(),
        ..SolveStats::default()
    };
    // Restarts at least 100 conflicts apart: the propagator's growth decisions make a
    // restart rebuild the whole level (trail reuse keeps only VSIDS-ordered prefixes).
    // dungeon-64 seeds 1-5, CPU s: 1.33-2.64 with the default minimum of 2 (200-415
    // restarts), 0.33-0.53 with 100 (4-14 restarts); 20: 0.31-0.84, 1000: 0.30-0.61.
    let opts = grim_solver::Options {
        restart_min: GRID_RESTART_MIN,
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
    let rules: Vec<(Vec<Lit>, Option<usize>)> = spec
        .connectivity
        .iter()
        .map(|r| {
            let lits = model.class_lits.get(&r.class).cloned().unwrap_or_default();
            (lits, r.root.map(|(x, y)| spec.index(x, y)))
        })
        .collect();
    if !rules.is_empty() {
        let wishes: Vec<Vec<Option<bool>>> = rules
            .iter()
            .map(|(lits, _)| lits.iter().map(|&l| model.wished(l)).collect())
            .collect();
        let mut p = GridPropagator::new(spec.width, spec.height, rules);
        for (r, w) in wishes.into_iter().enumerate() {
            p.set_wishes(r, w);
            p.set_min_size(r, min_class_size(spec, &spec.connectivity[r].class));
        }
        s.connect_propagator(Box::new(p));
    }
    stats.rounds = 1;
    let status = s.solve(&[], budget);
    stats.conflicts = s.stats().conflicts;
    if let Some(e) = s.propagator_error() {
        return Err(GridError::Rejected {
            problems: vec![format!("the grid propagator misbehaved: {e}")],
        });
    }
    let level = match status {
        Status::Unsat => {
            let clash = clash::explain(spec, stats.conflicts, stop)?;
            return Err(GridError::Unsatisfiable { clash });
        }
        Status::Unknown if stopped() => return Err(GridError::Interrupted),
        Status::Unknown => return Err(GridError::BudgetExhausted),
        Status::Sat => {
            let values = s.model().ok_or_else(|| GridError::Rejected {
                problems: vec!["the engine reported SAT without a model".to_string()],
            })?;
            model.decode(&values)?
        }
    };
    check_level(spec, &level).map_err(|found| GridError::Rejected {
        problems: found.iter().map(ToString::to_string).collect(),
    })?;
    Ok((level, stats))
}

/// The least number of cells of `class` every level has by the hard whole-grid counts of a
/// subset of it (0 when none bounds it).
fn min_class_size(spec: &GridSpec, class: &[bool]) -> usize {
    spec.counts
        .iter()
        .filter(|c| c.weight.is_none() && c.per.is_none() && c.region == spec.full_region())
        .filter_map(|c| match &c.of {
            super::spec::Selection::Tiles(set) if set.iter().zip(class).all(|(&s, &k)| !s || k) => {
                c.min.map(|m| m.lower(spec.cells() as u64))
            }
            _ => None,
        })
        .max()
        .map_or(0, |m| usize::try_from(m).unwrap_or(usize::MAX))
}

/// Phase hints that steer the next round towards joining the stray components: on the cells
/// of [`connectivity::bridges`], the heaviest tile of the rule's class that the cell allows
/// true and the cell's other tiles false.
fn bridge_phases(model: &GridModel, level: &Level) -> Vec<Lit> {
    let spec = model.spec();
    let mut out = Vec::new();
    for rule in &spec.connectivity {
        let holds: Vec<bool> = level.tiles.iter().map(|&t| rule.class[t]).collect();
        let root = rule.root.map(|(x, y)| spec.index(x, y));
        for c in connectivity::bridges(spec, &holds, root) {
            let best = (0..spec.tiles.len())
                .filter(|&a| rule.class[a] && spec.domains[c][a])
                .max_by_key(|&a| (spec.tiles[a].weight, std::cmp::Reverse(a)));
            let Some(best) = best else { continue };
            for a in 0..spec.tiles.len() {
                let lit = model.tile_lit(c, a);
                out.push(if a == best { lit } else { !lit });
            }
        }
    }
    out
}

/// The class literals of the bridge cells (see [`bridge_phases`]), to assume for one round.
fn bridge_lits(model: &GridModel, level: &Level, class: &[(Vec<Lit>, Option<usize>)]) -> Vec<Lit> {
    let spec = model.spec();
    let mut out = Vec::new();
    for (rule, (lits, root)) in spec.connectivity.iter().zip(class) {
        let holds: Vec<bool> = level.tiles.iter().map(|&t| rule.class[t]).collect();
        for c in connectivity::bridges(spec, &holds, *root) {
            out.push(lits[c]);
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}
