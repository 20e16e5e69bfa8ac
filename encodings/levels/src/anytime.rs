//! Anytime soft solving for a frame budget ([`solve_soft_anytime`](crate::solve_soft_anytime)): the first valid level at
//! once, then better ones, each delivered through the caller's callback with its cost and the
//! proven lower bound, until the optimum is proven, the budget runs out or the callback says
//! stop.
//!
//! **Why.** A game generates levels while the player waits. OLL proves optima from below: on a
//! grid whose wishes are all of one weight its only models are the first one (the hard rules
//! alone) and the optimum, so a run cut off by a frame budget answers with the first model —
//! on the 64×64 soft cave, cost 1000 against a lower bound of 278 after 4 CPU s.
//!
//! **Technique: neighbourhood probes on OLL's own engine** (a large-neighbourhood search in the
//! sense of Shaw, CP 1998, with the engine as the repair operator, read to learn). Between
//! slices of the core-guided search, a probe ([`Oll::probe`]) asks the engine, under the grid
//! propagator, for a level that keeps every wish the best level meets outside up to [`BATCH`]
//! small squares, each centred on an unmet wish, and meets at least one unmet wish in each
//! square (the wishes met inside a square are free to go); the squares the engine names in its
//! failed assumptions are dropped and the rest asked again, so one answer repairs many squares.
//! The engine's phases point at the wishes and at the best level, so the answer is that level
//! repaired locally. Every model is priced by the optimiser's referee (the WCNF's cost); only
//! cheaper ones are delivered, after the grid's referee ([`check_level`]) accepted them, so
//! costs never rise. The squares grow (radius 1 to [`MAX_RADIUS`]) while a pass over all unmet
//! wishes improves nothing, and shrink back after an improvement. The probes and the
//! core-guided slices take turns, each with a share of engine propagations that doubles, so the
//! lower bound keeps climbing and the optimum is still proven in the end. Measured:
//! `benches/results/issue41-anytime-2026-12-06.md` (64×64 soft cave: the first level at
//! 0.22–0.29 CPU s of the process, cost 564–642 by 1 s against 1000–1394 without the probes);
//! with the first call's engine unpreprocessed and the lighter set-up, 0.16–0.19 s
//! (`benches/results/issue41-anytime-2026-12-07c.md`, not yet the 50 ms a frame wants).
//!
//! The probes need nothing from the families: a wish is a unit soft clause on a cell's tile or
//! layer-value variable, and a cell's neighbourhood is a square of the grid. Other soft rules
//! (soft counts, soft enclosures) are priced with everything else but never assumed.

use crate::error::{GridError, Rejection};
use crate::level::Level;
use crate::model::GridModel;
use crate::options::GridOptions;
use crate::referee::{check_level, level_cost};
use crate::spec::GridSpec;
use grim_maxsat::{Event, MaxSatStatus, Oll};
use grim_solver::{Budget, Lit, Status, Terminator};

/// One improvement of an anytime solve, as its callback sees it.
#[derive(Clone, Copy, Debug)]
pub struct Improvement<'a> {
    /// The level: it satisfies every hard rule ([`check_level`] accepted it).
    pub level: &'a Level,
    /// Its cost, [`level_cost`]: below every level delivered before it.
    pub cost: u64,
    /// The proven lower bound on the optimum when it was found.
    pub lower_bound: u64,
}

/// What the callback of [`solve_soft_anytime`](crate::solve_soft_anytime) wants next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep improving.
    Continue,
    /// Stop now: the solve returns this level as its best, unproven
    /// ([`GridOutcome::Stopped`](crate::GridOutcome::Stopped) with
    /// [`StopReason::Interrupted`](crate::StopReason::Interrupted)) unless it is already proven
    /// optimal.
    Stop,
}

/// The callback of an anytime solve.
pub type OnLevel<'a> = &'a mut dyn FnMut(&Improvement<'_>) -> Flow;

/// The largest half-width of a probe's square (radius 3: 7×7 cells).
pub(crate) const MAX_RADIUS: usize = 3;

/// Targets (squares) of one probe.
const BATCH: usize = 32;

/// Conflicts of one probe: small, so that a hopeless square costs little.
const PROBE_CONFLICTS: u64 = 200;

/// Engine propagations of the first slice of each kind (probes, core-guided search); both
/// double. Propagations, not conflicts: a probe's answer assigns every variable with few
/// conflicts, while a core-guided call may spend milliseconds per conflict under the grid
/// propagator (64×64 cave: 500 conflicts took 1.6 s), so conflicts shared the time badly.
const FIRST_SLICE: u64 = 250_000;

/// Conflicts allowed for the first level, a solve of the hard rules alone (more than the
/// 64×64 dungeons and caves need: 13–40).
const FIRST_LEVEL_CONFLICTS: u64 = 20_000;

/// A wish: its literal and its cell.
type Wish = (Lit, usize);

/// The wishes of a model as the probes see them: each unit soft clause on a cell's variable,
/// with its cell.
pub(crate) struct Wishes {
    width: usize,
    height: usize,
    /// `(literal, cell)` per wish.
    wishes: Vec<(Lit, usize)>,
    /// The radius of the next probes.
    radius: usize,
    /// Where the next pass over the unmet wishes starts (an index into the unmet list).
    cursor: usize,
    /// Probes since the last improvement (a pass without one grows the radius).
    fruitless: usize,
}

impl Wishes {
    /// The unit wishes of `model`'s WCNF `wcnf` on cell and layer-value variables.
    pub(crate) fn new(model: &GridModel, wcnf: &grim_formula::Wcnf) -> Wishes {
        let spec = &model.spec;
        let cells = spec.cells();
        // Variable → cell, for the cell and layer-value variables.
        let mut cell_of = vec![usize::MAX; wcnf.vars_spanned() + 1];
        let t = spec.tiles.len();
        for (i, v) in model.cell_vars.iter().enumerate() {
            if let Some(slot) = cell_of.get_mut(v.index()) {
                *slot = i / t.max(1);
            }
        }
        for (l, vars) in model.layer_vars.iter().enumerate() {
            let n = spec.layers[l].values.len().max(1);
            for (i, v) in vars.iter().enumerate() {
                if let Some(slot) = cell_of.get_mut(v.index()) {
                    *slot = i / n;
                }
            }
        }
        let wishes = wcnf
            .soft
            .iter()
            .filter_map(|(w, clause)| match clause.as_slice() {
                [l] if *w > 0 => {
                    let c = cell_of.get(l.var().index()).copied()?;
                    (c < cells).then_some((*l, c))
                }
                _ => None,
            })
            .collect();
        Wishes {
            width: spec.width,
            height: spec.height,
            wishes,
            radius: 1,
            cursor: 0,
            fruitless: 0,
        }
    }

    /// Whether there is anything to probe.
    pub(crate) fn is_empty(&self) -> bool {
        self.wishes.is_empty()
    }

    /// Probes within `share` (engine conflicts and propagations, counted on `oll`'s
    /// statistics; a probe may pass it by its own conflict cap), until the
    /// best model reaches the lower bound or `stop` is set. Models go to `on_event`.
    ///
    /// Each probe takes up to [`BATCH`] unmet wishes as targets, in turn, with squares of the
    /// current radius around them that do not overlap; it keeps every met wish outside the
    /// squares and asks, in each square, for one of its unmet wishes. The squares whose wish
    /// cannot be met that way (the engine's failed assumptions) are dropped and the rest asked
    /// again, so one answer usually repairs many squares at once.
    pub(crate) fn probe(
        &mut self,
        oll: &mut Oll,
        share: Budget,
        stop: &Terminator,
        on_event: &mut dyn FnMut(Event<'_>),
    ) {
        let (c0, p0) = (oll.stats().conflicts, oll.stats().propagations);
        let left = |oll: &Oll| {
            share.left_after(
                oll.stats().conflicts.saturating_sub(c0),
                oll.stats().propagations.saturating_sub(p0),
            )
        };
        let over = |b: Budget| b.conflicts == Some(0) || b.propagations == Some(0);
        let mut failed = Vec::new();
        if oll.best_model().is_none() {
            let c = left(oll).conflicts.unwrap_or(FIRST_LEVEL_CONFLICTS);
            oll.probe(&[], &[], c, &mut failed, on_event);
            return;
        }
        let cells = self.width * self.height;
        let mut square = vec![usize::MAX; cells];
        while !over(left(oll)) && !stop.is_set() {
            let (Some(best), Some(cost)) = (oll.best_model(), oll.best_cost()) else {
                return;
            };
            let is_met = |(l, _): (Lit, usize)| best.get(l.var().index()) == Some(&l.is_positive());
            let (met, unmet): (Vec<Wish>, Vec<Wish>) =
                self.wishes.iter().partition(|&&w| is_met(w));
            if unmet.is_empty() || cost <= oll.lower_bound() {
                return;
            }
            if self.fruitless >= unmet.len() {
                // A whole pass without a better level: larger squares, or start over small.
                self.fruitless = 0;
                self.radius = if self.radius >= MAX_RADIUS {
                    1
                } else {
                    self.radius + 1
                };
            }
            let r = self.radius;
            let (w, h) = (self.width, self.height);
            // Targets in turn from the cursor, their squares pairwise apart.
            let mut targets: Vec<usize> = Vec::new();
            let mut scanned = 0;
            while scanned < unmet.len() && targets.len() < BATCH {
                let c = unmet[(self.cursor + scanned) % unmet.len()].1;
                scanned += 1;
                let apart =
                    |t: &usize| (c % w).abs_diff(t % w) > 2 * r || (c / w).abs_diff(t / w) > 2 * r;
                if targets.iter().all(apart) {
                    targets.push(c);
                }
            }
            self.cursor = self.cursor.wrapping_add(scanned);
            loop {
                square.fill(usize::MAX);
                for (k, &t) in targets.iter().enumerate() {
                    let (tx, ty) = (t % w, t / w);
                    for y in ty.saturating_sub(r)..(ty + r + 1).min(h) {
                        for x in tx.saturating_sub(r)..(tx + r + 1).min(w) {
                            square[y * w + x] = k;
                        }
                    }
                }
                let keep: Vec<Lit> = met
                    .iter()
                    .filter(|&&(_, c)| square[c] == usize::MAX)
                    .map(|&(l, _)| l)
                    .collect();
                let mut wants = vec![Vec::new(); targets.len()];
                for &(l, c) in &unmet {
                    if let Some(group) = wants.get_mut(square[c]) {
                        group.push(l);
                    }
                }
                let c = left(oll)
                    .conflicts
                    .map_or(PROBE_CONFLICTS, |c| c.clamp(1, PROBE_CONFLICTS));
                let before = (oll.stats().conflicts, oll.stats().propagations);
                let status = oll.probe(&keep, &wants, c, &mut failed, on_event);
                if (oll.stats().conflicts, oll.stats().propagations) == before {
                    // The optimiser did not search (its answer is final): nothing to gain.
                    return;
                }
                if status == Status::Sat && oll.best_cost() < Some(cost) {
                    self.fruitless = 0;
                    self.radius = 1;
                    break;
                }
                if status != Status::Unsat || failed.is_empty() || stop.is_set() {
                    self.fruitless += targets.len();
                    break;
                }
                self.fruitless += failed.len();
                let mut k = 0;
                targets.retain(|_| {
                    k += 1;
                    !failed.contains(&(k - 1))
                });
                if targets.is_empty() {
                    break;
                }
            }
        }
    }
}

/// Where the models of an anytime solve go: priced, judged by the referee, and handed to the
/// caller's callback when cheaper than the last one delivered.
pub(crate) struct Deliver<'a, 'b> {
    pub(crate) spec: &'a GridSpec,
    pub(crate) options: &'a GridOptions,
    pub(crate) model: &'a GridModel,
    pub(crate) on_level: Option<OnLevel<'b>>,
    /// Sees every event first (the progress report's bounds).
    pub(crate) observe: &'a mut dyn FnMut(Event<'_>),
    /// The engine's stop handle, set when the callback says stop.
    pub(crate) stop: Terminator,
    /// The lower bound, as the optimiser reported it.
    pub(crate) lower: u64,
    /// The cost of the last level delivered.
    pub(crate) last: Option<u64>,
    /// The last level delivered: the best, by the referee's price (the optimiser's best model
    /// may be priced higher by the WCNF and lower by the referee, see `event`).
    pub(crate) best: Option<Level>,
    /// Whether the callback said stop.
    pub(crate) stopped: bool,
    /// The referee's rejection of a model, if any (an internal error: the solve fails with it).
    pub(crate) error: Option<GridError>,
}

impl Deliver<'_, '_> {
    /// Takes one optimiser event.
    pub(crate) fn event(&mut self, event: Event<'_>) {
        (self.observe)(event);
        match event {
            // The largest bound heard: the families' late bound may pass the optimiser's.
            Event::LowerBound(lb) => self.lower = self.lower.max(lb),
            Event::Improved { cost, model } => {
                if self.error.is_some() {
                    return;
                }
                let Some(on_level) = self.on_level.as_mut() else {
                    return;
                };
                let level = match self.model.decode(model) {
                    Ok(level) => level,
                    Err(e) => {
                        self.error = Some(e);
                        self.stop.terminate();
                        return;
                    }
                };
                if let Err(found) = check_level(self.spec, &level) {
                    self.error = Some(GridError::Rejected(Rejection::Violations(found)));
                    self.stop.terminate();
                    return;
                }
                // The WCNF's cost of a model bounds its level's from above, and may pass it: a
                // soft count's relaxation literal may be true (paid for) while the count holds
                // — the optimiser never pays it at the optimum, but its intermediate models do
                // (showcase-12 with soft preferences: the optimiser's 35 for a level the
                // referee prices at 28, which failed the solve before). The referee's price is
                // the level's cost; a price above the optimiser's is an internal error.
                let priced = level_cost(self.spec, self.options, &level);
                if priced > cost {
                    self.error = Some(GridError::Rejected(Rejection::CostMismatch {
                        optimiser: cost,
                        referee: priced,
                    }));
                    self.stop.terminate();
                    return;
                }
                if self.last.is_some_and(|l| priced >= l) {
                    return;
                }
                self.last = Some(priced);
                let improvement = Improvement {
                    level: &level,
                    cost: priced,
                    lower_bound: self.lower.min(priced),
                };
                let flow = on_level(&improvement);
                self.best = Some(level);
                if flow == Flow::Stop {
                    self.stopped = true;
                    self.stop.terminate();
                }
            }
        }
    }
}

/// The engine's options for the call that finds the first level: every technique that
/// rewrites the formula before or during the search off. Why: on the 64×64 soft cave that call
/// (the hard rules alone, 28 conflicts) spent 236M of its 1,040M instructions in the bounded
/// variable elimination of the 134k clauses and 45M more in the level-0 simplification and
/// equivalent-literal substitution, none of which the first level needs (callgrind,
/// `benches/results/issue41-anytime-2026-12-07c.md`). They are restored after the call, and
/// the engine runs its elimination at the start of the next one, where the core-guided search
/// and the probes profit from it as before.
pub(crate) fn first_level_options(o: &mut grim_solver::Options) {
    o.eliminate = false;
    o.simplify = false;
    o.substitute = false;
    o.probe = false;
    o.subsume = false;
    o.transred = false;
    o.vivify_effort = 0.0;
}

/// The late bound's computation: the optimiser, where its events go; the bound.
pub(crate) type LateBoundFn<'a> =
    dyn FnMut(&mut Oll, &mut dyn FnMut(Event<'_>)) -> Option<u64> + 'a;

/// The families' late bound for the anytime schedule (`solve.rs`, `late_bound`): asked once,
/// after `after` engine conflicts with a level in hand; `bound` tries its witness as a level
/// (through the events it is given) and answers the bound when it passes the optimiser's own.
pub(crate) struct Late<'a> {
    pub(crate) after: u64,
    pub(crate) bound: &'a mut LateBoundFn<'a>,
    /// The bound it gave, 0 before (or without) one.
    pub(crate) lower: u64,
}

/// The anytime schedule on a built optimiser: the first level from a solve of the hard rules,
/// then probes and core-guided slices in turn, each kind doubling its share, within `budget`
/// (engine conflicts and propagations over all calls), and the families' late bound once
/// (`late`): a level at that bound is optimal. Answers as [`Oll::solve`] does.
pub(crate) fn run(
    oll: &mut Oll,
    wishes: &mut Wishes,
    budget: Budget,
    deliver: &mut Deliver<'_, '_>,
    late: &mut Late<'_>,
) -> MaxSatStatus {
    let stop = deliver.stop.clone();
    let (c0, p0) = (oll.stats().conflicts, oll.stats().propagations);
    let left = |oll: &Oll| {
        budget.left_after(
            oll.stats().conflicts.saturating_sub(c0),
            oll.stats().propagations.saturating_sub(p0),
        )
    };
    let spent = |b: Budget| b.conflicts == Some(0) || b.propagations == Some(0);
    let cap = |limit: Option<u64>, slice: u64| Some(limit.map_or(slice, |l| l.min(slice)));
    let first = cap(left(oll).conflicts, FIRST_LEVEL_CONFLICTS).unwrap_or(0);
    // The first level from the engine as the formula was built: no preprocessing or
    // inprocessing in this call (they run at the next one, on the same clauses), see
    // `first_level_options`.
    let saved = oll.engine_options_mut().clone();
    first_level_options(oll.engine_options_mut());
    oll.probe(&[], &[], first, &mut Vec::new(), &mut |e| deliver.event(e));
    *oll.engine_options_mut() = saved;
    let mut slice = FIRST_SLICE;
    let mut asked = false;
    loop {
        let proven = oll.lower_bound().max(late.lower);
        if oll.best_cost().is_some_and(|c| c <= proven) {
            return MaxSatStatus::Optimum;
        }
        if stop.is_set() || spent(left(oll)) {
            return match oll.best_model() {
                Some(_) => MaxSatStatus::Satisfiable,
                None => MaxSatStatus::Unknown,
            };
        }
        if !asked && oll.best_model().is_some() && oll.stats().conflicts - c0 >= late.after {
            // As the default schedule does after as many conflicts (`solve.rs`): the seeds
            // the slices have not closed by then are the ones the families' bound closes.
            asked = true;
            if let Some(lower) = (late.bound)(oll, &mut |e| deliver.event(e)) {
                late.lower = lower;
            }
            continue;
        }
        if !wishes.is_empty() {
            let b = left(oll);
            let share = Budget {
                conflicts: b.conflicts,
                propagations: cap(b.propagations, slice),
            };
            wishes.probe(oll, share, &stop, &mut |e| deliver.event(e));
        }
        let b = left(oll);
        let share = Budget {
            conflicts: b.conflicts,
            propagations: cap(b.propagations, slice),
        };
        let status = oll.solve(share, &mut |e| deliver.event(e));
        match status {
            MaxSatStatus::Optimum | MaxSatStatus::Unsatisfiable => return status,
            _ => {}
        }
        slice = slice.saturating_mul(2);
    }
}
