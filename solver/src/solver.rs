//! The `Solver`: its state and its public, IPASIR-like API. The techniques live in their own
//! files (`propagate.rs`, `analyze.rs`, …) as further `impl Solver` blocks; this file owns the
//! data and the entry points.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::clause::{Arena, CRef, NO_REASON};
use crate::heap::VarHeap;
use crate::options::Options;
use crate::stats::Stats;
use crate::types::{Budget, L_FALSE, L_TRUE, L_UNDEF, LBool, Lit, Status, Var};
use crate::watch::Watch;

/// A handle that stops a running [`Solver::solve`] from another thread or a signal handler.
///
/// Setting it is one atomic store, which is async-signal-safe. The flag stays set until
/// [`Terminator::reset`]: a signal that lands between two `solve` calls is not lost, and every
/// later `solve` answers `Unknown` at its first check until someone resets it.
#[derive(Clone, Debug, Default)]
pub struct Terminator(Arc<AtomicBool>);

impl Terminator {
    /// Asks the solver to stop; `solve` returns `Status::Unknown` at its next check (every
    /// conflict and every decision).
    pub fn terminate(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Clears the flag so the next `solve` runs normally.
    pub fn reset(&self) {
        self.0.store(false, Ordering::Relaxed);
    }

    /// Whether termination was requested.
    pub fn is_set(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// The underlying flag, for APIs such as `signal_hook::flag::register` that want an
    /// `Arc<AtomicBool>`.
    pub fn flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.0)
    }
}

/// A progress callback: receives the cumulative statistics (see [`Solver::set_progress`]).
pub type ProgressFn = Box<dyn FnMut(&Stats) + Send>;

/// The CDCL engine. See the crate documentation for its life cycle.
pub struct Solver {
    pub(crate) opts: Options,
    pub(crate) stats: Stats,

    // ---- per literal (indexed by `Lit::code`) ----
    /// Truth value of each literal: `vals[l] == -vals[!l]` always.
    pub(crate) vals: Vec<LBool>,
    /// `watches[l]`: clauses watching `¬l`, visited when `l` becomes true (see `watch.rs`).
    pub(crate) watches: Vec<Vec<Watch>>,

    // ---- per variable ----
    pub(crate) level: Vec<u32>,
    pub(crate) reason: Vec<CRef>,
    /// Phase saving: the last value each variable had.
    pub(crate) saved: Vec<bool>,
    /// Target phase (stable mode): the value in the longest conflict-free trail since the last
    /// rephase; `L_UNDEF` when unknown.
    pub(crate) target: Vec<LBool>,
    /// Best phase: the value in the longest conflict-free trail seen overall (for rephasing).
    pub(crate) best: Vec<LBool>,
    /// User phase preference (`set_phase`): `L_UNDEF` when none.
    pub(crate) user_phase: Vec<LBool>,
    /// Variables removed by bounded variable elimination (`eliminate.rs`).
    pub(crate) eliminated: Vec<bool>,
    /// Frozen variables are never eliminated (`freeze`).
    pub(crate) frozen: Vec<bool>,
    pub(crate) activity: Vec<f64>,
    pub(crate) heap: VarHeap,
    /// Scratch marks for analysis and minimisation (0 = unmarked).
    pub(crate) seen: Vec<u8>,

    // ---- trail ----
    pub(crate) trail: Vec<Lit>,
    /// `trail_lim[d]` = trail length when decision level `d + 1` began.
    pub(crate) trail_lim: Vec<usize>,
    /// Next trail position to propagate.
    pub(crate) qhead: usize,

    // ---- clauses ----
    pub(crate) arena: Arena,
    /// Irredundant (original) clauses of two or more literals.
    pub(crate) originals: Vec<CRef>,
    /// Learned clauses of two or more literals.
    pub(crate) learnts: Vec<CRef>,
    /// False once the clauses are unsatisfiable without assumptions: every later solve is Unsat.
    pub(crate) ok: bool,
    /// Set when the arena would outgrow 32-bit offsets: solve answers `Unknown` from then on.
    pub(crate) out_of_memory: bool,

    // ---- model checking ----
    /// Copy of every clause as added (flattened, each ended by a sentinel), for `check.rs`.
    pub(crate) original_lits: Vec<Lit>,
    pub(crate) original_ends: Vec<u32>,
    /// False when some clause was added while `check_model` was off (so the copy is partial).
    pub(crate) original_complete: bool,

    /// Clauses removed by elimination, for model reconstruction: flattened, each with its
    /// witness literal first; `elim_ends[i]` is the end of clause `i` (see `eliminate.rs`).
    pub(crate) elim_stack: Vec<Lit>,
    pub(crate) elim_ends: Vec<u32>,
    /// Elimination ran already (it runs once, before the first search).
    pub(crate) elim_done: bool,

    // ---- answers ----
    pub(crate) model: Vec<LBool>,
    pub(crate) assumptions: Vec<Lit>,
    /// The failed assumptions of the last Unsat answer.
    pub(crate) failed: Vec<Lit>,
    pub(crate) last_status: Option<Status>,

    // ---- heuristics state ----
    pub(crate) var_inc: f64,
    pub(crate) cla_inc: f32,
    pub(crate) stable: bool,
    pub(crate) mode_limit: u64,
    pub(crate) mode_length: f64,
    pub(crate) ema_fast: f64,
    pub(crate) ema_slow: f64,
    pub(crate) ema_fast_beta: f64,
    pub(crate) ema_slow_beta: f64,
    pub(crate) restart_limit: u64,
    pub(crate) luby_index: u64,
    pub(crate) reduce_limit: u64,
    pub(crate) reduce_count: u64,
    pub(crate) rephase_limit: u64,
    pub(crate) target_assigned: usize,
    pub(crate) best_assigned: usize,
    pub(crate) simplify_assigned: usize,
    /// Propagation count at the previous walk (the walk budget is relative to it).
    pub(crate) walk_props_mark: u64,
    /// A reduction happened since the last vivification round.
    pub(crate) vivify_pending: bool,
    /// Propagation count at the previous vivification round.
    pub(crate) vivify_props_mark: u64,

    // ---- scratch ----
    pub(crate) learnt: Vec<Lit>,
    pub(crate) analyze_stack: Vec<Lit>,
    pub(crate) analyze_clear: Vec<Lit>,
    pub(crate) level_stamp: Vec<u64>,
    pub(crate) stamp: u64,
    pub(crate) add_buf: Vec<Lit>,

    pub(crate) terminator: Terminator,
    /// DRAT proof output (`proof.rs`), when requested.
    pub(crate) proof: Option<crate::proof::Proof>,
    /// Progress report: called with the statistics every `progress_every` conflicts.
    pub(crate) progress: Option<ProgressFn>,
    pub(crate) progress_every: u64,
    pub(crate) budget: Budget,
    pub(crate) budget_conflicts_start: u64,
    pub(crate) budget_props_start: u64,
}

impl Default for Solver {
    fn default() -> Solver {
        Solver::new()
    }
}

impl Solver {
    /// An empty solver with default options.
    pub fn new() -> Solver {
        Solver::with_options(Options::default())
    }

    /// An empty solver with the given options.
    pub fn with_options(opts: Options) -> Solver {
        let check = opts.check_model;
        Solver {
            opts,
            stats: Stats::default(),
            vals: Vec::new(),
            watches: Vec::new(),
            level: Vec::new(),
            reason: Vec::new(),
            saved: Vec::new(),
            target: Vec::new(),
            best: Vec::new(),
            user_phase: Vec::new(),
            eliminated: Vec::new(),
            frozen: Vec::new(),
            elim_stack: Vec::new(),
            elim_ends: Vec::new(),
            elim_done: false,
            activity: Vec::new(),
            heap: VarHeap::default(),
            seen: Vec::new(),
            trail: Vec::new(),
            trail_lim: Vec::new(),
            qhead: 0,
            arena: Arena::default(),
            originals: Vec::new(),
            learnts: Vec::new(),
            ok: true,
            out_of_memory: false,
            original_lits: Vec::new(),
            original_ends: Vec::new(),
            original_complete: check,
            model: Vec::new(),
            assumptions: Vec::new(),
            failed: Vec::new(),
            last_status: None,
            var_inc: 1.0,
            cla_inc: 1.0,
            stable: false,
            mode_limit: 0,
            mode_length: 0.0,
            ema_fast: 0.0,
            ema_slow: 0.0,
            ema_fast_beta: 1.0,
            ema_slow_beta: 1.0,
            restart_limit: 0,
            luby_index: 0,
            reduce_limit: 0,
            reduce_count: 0,
            rephase_limit: 0,
            target_assigned: 0,
            best_assigned: 0,
            simplify_assigned: 0,
            walk_props_mark: 0,
            vivify_pending: false,
            vivify_props_mark: 0,
            learnt: Vec::new(),
            analyze_stack: Vec::new(),
            analyze_clear: Vec::new(),
            level_stamp: Vec::new(),
            stamp: 0,
            add_buf: Vec::new(),
            terminator: Terminator::default(),
            proof: None,
            progress: None,
            progress_every: 0,
            budget: Budget::UNLIMITED,
            budget_conflicts_start: 0,
            budget_props_start: 0,
        }
    }

    /// The options in force. Change them with [`Solver::options_mut`] between solves.
    pub fn options(&self) -> &Options {
        &self.opts
    }

    /// Mutable access to the options. Turning `check_model` on after clauses were added
    /// without it cannot recover their copy: such models are then not checked (documented
    /// limitation; set it before adding clauses).
    pub fn options_mut(&mut self) -> &mut Options {
        &mut self.opts
    }

    /// Cumulative statistics.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// Number of variables (the largest used index + 1).
    pub fn num_vars(&self) -> usize {
        self.level.len()
    }

    /// Number of irredundant clauses of length ≥ 2 currently kept (units live on the trail).
    pub fn num_clauses(&self) -> usize {
        self.originals.len()
    }

    /// Number of learned clauses of length ≥ 2 currently kept.
    pub fn num_learned(&self) -> usize {
        self.learnts.len()
    }

    /// A fresh variable. Panics only past 2^31 - 1 variables ([`Var::MAX_INDEX`]), which no
    /// memory can hold anyway; use [`Solver::try_new_var`] to get `None` instead.
    pub fn new_var(&mut self) -> Var {
        match self.try_new_var() {
            Some(v) => v,
            None => panic!("grim-solver: more than 2^31 - 1 variables"),
        }
    }

    /// A fresh variable, or `None` past [`Var::MAX_INDEX`].
    pub fn try_new_var(&mut self) -> Option<Var> {
        let v = Var::new(self.num_vars() as u32)?;
        self.reserve_vars(v.index() + 1);
        Some(v)
    }

    /// Makes variables `0..n` exist (IPASIR semantics: using a variable creates it).
    pub fn reserve_vars(&mut self, n: usize) {
        let old = self.num_vars();
        if n <= old {
            return;
        }
        self.vals.resize(2 * n, L_UNDEF);
        self.watches.resize_with(2 * n, Vec::new);
        self.level.resize(n, 0);
        self.reason.resize(n, NO_REASON);
        self.saved.resize(n, self.opts.phase_initial);
        self.target.resize(n, L_UNDEF);
        self.best.resize(n, L_UNDEF);
        self.user_phase.resize(n, L_UNDEF);
        self.eliminated.resize(n, false);
        self.frozen.resize(n, false);
        self.seen.resize(n, 0);
        self.activity.resize(n, 0.0);
        self.heap.grow(n);
        if self.opts.seed != 0 {
            // A deterministic, seeded tie-break of the initial order: tiny activities from a
            // splitmix64 stream, far below one bump, so they only order untouched variables.
            for v in old..n {
                let mut z = self
                    .opts
                    .seed
                    .wrapping_add((v as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
                z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                z ^= z >> 31;
                self.activity[v] = (z >> 11) as f64 / (1u64 << 53) as f64 * 1e-3;
            }
        }
        for v in old..n {
            self.heap.insert(v, &self.activity);
        }
    }

    /// Adds a clause (a disjunction of literals), before or between solves.
    ///
    /// Variables are created as needed. Duplicate literals are merged, tautologies dropped, and
    /// the empty clause is kept: it makes every later solve answer Unsat. Adding a clause
    /// discards the previous model and failed set (IPASIR's state rule).
    pub fn add_clause(&mut self, lits: &[Lit]) {
        self.reset_answer();
        if let Some(max) = lits.iter().map(|l| l.var().index()).max() {
            self.reserve_vars(max + 1);
        }
        if self.opts.check_model {
            self.original_lits.extend_from_slice(lits);
            self.original_ends.push(self.original_lits.len() as u32);
        } else {
            self.original_complete = false;
        }
        if lits.iter().any(|l| self.eliminated[l.var().index()]) {
            self.restore_eliminated();
        }
        self.add_irredundant(lits);
    }

    /// Adds an irredundant clause at level 0 (simplified against level-0 values); shared by
    /// `add_clause` and the restoration of eliminated clauses.
    pub(crate) fn add_irredundant(&mut self, lits: &[Lit]) {
        if !self.ok {
            return;
        }
        let mut buf = std::mem::take(&mut self.add_buf);
        buf.clear();
        buf.extend_from_slice(lits);
        buf.sort_unstable();
        buf.dedup();
        // After sorting, x and ¬x are adjacent (codes 2v, 2v+1).
        if buf.windows(2).any(|w| w[0] == !w[1]) {
            self.add_buf = buf;
            return;
        }
        if buf
            .iter()
            .any(|&l| self.lit_value(l) == L_TRUE && self.level[l.var().index()] == 0)
        {
            self.add_buf = buf;
            return;
        }
        let distinct = buf.len();
        buf.retain(|&l| self.lit_value(l) != L_FALSE);
        if buf.len() < distinct {
            // Level-0 false literals removed: the shorter clause is derived (RUP).
            self.proof_add(&buf);
        }
        match buf.len() {
            0 => self.ok = false,
            1 => {
                self.assign(buf[0], NO_REASON);
                if self.propagate() != NO_REASON {
                    self.ok = false;
                    self.proof_empty();
                }
            }
            _ => match self.arena.alloc(&buf, false, 0) {
                Some(c) => {
                    self.attach(c);
                    self.originals.push(c);
                }
                None => self.out_of_memory = true,
            },
        }
        self.add_buf = buf;
    }

    /// Decides satisfiability under `assumptions` (literals forced true for this call only),
    /// within `budget`.
    ///
    /// `Sat`: read the model with [`Solver::value`] / [`Solver::model`]. `Unsat`: the
    /// clauses contradict the assumptions; [`Solver::failed`] gives the responsible subset
    /// (empty when the clauses alone are unsatisfiable). `Unknown`: budget or terminate flag.
    pub fn solve(&mut self, assumptions: &[Lit], budget: Budget) -> Status {
        self.reset_answer();
        self.stats.solves += 1;
        if let Some(max) = assumptions.iter().map(|l| l.var().index()).max() {
            self.reserve_vars(max + 1);
        }
        if self.out_of_memory {
            self.last_status = Some(Status::Unknown);
            return Status::Unknown;
        }
        if !self.ok {
            self.last_status = Some(Status::Unsat);
            return Status::Unsat;
        }
        if assumptions.iter().any(|l| self.eliminated[l.var().index()]) {
            self.restore_eliminated();
            if !self.ok {
                self.last_status = Some(Status::Unsat);
                return Status::Unsat;
            }
        }
        self.assumptions.clear();
        self.assumptions.extend_from_slice(assumptions);
        self.budget = budget;
        self.budget_conflicts_start = self.stats.conflicts;
        self.budget_props_start = self.stats.propagations;
        self.init_search();
        let mut status = if self.eliminating() {
            self.eliminate();
            if self.ok {
                self.search()
            } else {
                Status::Unsat
            }
        } else {
            self.search()
        };
        if status == Status::Sat {
            self.model.clear();
            self.model
                .extend((0..self.num_vars()).map(|v| self.vals[Var::from_index(v).pos().code()]));
            self.extend_model();
            debug_assert!(
                !self.model.contains(&L_UNDEF),
                "a variable without a value in a model"
            );
            if !self.check_model() {
                // An internal error, never an input's fault: refuse to hand out a wrong model.
                debug_assert!(
                    false,
                    "grim-solver: model failed the check against the original clauses"
                );
                self.model.clear();
                status = Status::Unknown;
            }
        }
        self.backtrack(0);
        self.last_status = Some(status);
        status
    }

    /// The value of `lit` in the model of the last `Sat` answer; `None` when there is no model
    /// (no solve yet, not Sat, or clauses added since) or the variable is newer than the model.
    pub fn value(&self, lit: Lit) -> Option<bool> {
        let v = *self.model.get(lit.var().index())?;
        let v = if lit.is_negative() { -v } else { v };
        match v {
            L_TRUE => Some(true),
            L_FALSE => Some(false),
            // Variables not in any clause and never decided still get a value when the heap
            // empties, so this arm is unreachable in practice; report it honestly anyway.
            _ => None,
        }
    }

    /// The model of the last `Sat` answer, one `bool` per variable (index order), or `None`.
    pub fn model(&self) -> Option<Vec<bool>> {
        if self.last_status != Some(Status::Sat) || self.model.len() != self.num_vars() {
            return None;
        }
        Some(self.model.iter().map(|&v| v == L_TRUE).collect())
    }

    /// Whether assumption `lit` is in the failed set of the last `Unsat` answer (IPASIR's
    /// `ipasir_failed`).
    pub fn failed(&self, lit: Lit) -> bool {
        self.failed.contains(&lit)
    }

    /// The failed assumptions of the last `Unsat` answer: a subset of the assumptions that is
    /// unsatisfiable together with the clauses. Empty when the clauses alone are unsatisfiable.
    pub fn failed_assumptions(&self) -> &[Lit] {
        &self.failed
    }

    /// The status of the last `solve`, if no clause was added since.
    pub fn last_status(&self) -> Option<Status> {
        self.last_status
    }

    /// Prefers `lit` to be true: every decision on its variable tries this polarity first,
    /// overriding saved and target phases. Creates the variable if needed.
    pub fn set_phase(&mut self, lit: Lit) {
        self.reserve_vars(lit.var().index() + 1);
        self.user_phase[lit.var().index()] = if lit.is_positive() { L_TRUE } else { L_FALSE };
    }

    /// Overwrites the saved phase (phase saving's memory) of variable `i` with `values[i]`, for
    /// every variable the solver has; extra values are ignored.
    ///
    /// Why, next to [`Solver::set_phase`]: this is a *soft* hint. A user phase is tried on every
    /// decision forever; a saved phase is only where the search starts, and phase saving,
    /// target phases (stable mode) and rephasing move on from it as soon as conflicts say so.
    /// It suits a caller that knows a good assignment of a formula close to the next query —
    /// OLL seeds its best model before each core-exhaustion call, whose answer is often that
    /// model's neighbourhood.
    pub fn seed_phases(&mut self, values: &[bool]) {
        let n = values.len().min(self.saved.len());
        self.saved[..n].copy_from_slice(&values[..n]);
    }

    /// Keeps `var` from being eliminated by preprocessing. Needed only for speed: a variable
    /// that reappears in a later clause or assumption after being eliminated is restored with
    /// all eliminated clauses (correct, but it undoes the elimination).
    pub fn freeze(&mut self, var: Var) {
        self.reserve_vars(var.index() + 1);
        self.frozen[var.index()] = true;
    }

    /// Removes the user phase preference of `var` (saved/target phases decide again).
    pub fn clear_phase(&mut self, var: Var) {
        if let Some(p) = self.user_phase.get_mut(var.index()) {
            *p = L_UNDEF;
        }
    }

    /// Calls `report` with the statistics every `every_conflicts` conflicts during `solve`
    /// (`None` or 0 turns it off). Why a callback and not repeated budgeted solves: a budgeted
    /// slice returns to level 0 and re-initialises the schedules, so progress output would
    /// change the search; a callback observes it without touching it.
    pub fn set_progress(&mut self, every_conflicts: u64, report: Option<ProgressFn>) {
        self.progress_every = every_conflicts;
        self.progress = report;
    }

    /// A handle that stops `solve` from another thread or a signal handler.
    pub fn terminator(&self) -> Terminator {
        self.terminator.clone()
    }

    /// Makes `stop` this solver's terminate handle (instead of its own), so one handle can
    /// stop several solvers, or a solver a library creates internally: a game's frame-time
    /// watchdog, say, holding the handle before the level generator builds its engine.
    pub fn set_terminator(&mut self, stop: &Terminator) {
        self.terminator = stop.clone();
    }

    /// Level-0 value of `lit`: `Some` when the clauses alone fix it (a unit consequence found
    /// so far), `None` otherwise. Useful between solves to read proven facts.
    pub fn fixed(&self, lit: Lit) -> Option<bool> {
        let v = lit.var().index();
        if v >= self.num_vars() || self.level[v] != 0 {
            return None;
        }
        match self.lit_value(lit) {
            L_TRUE => Some(true),
            L_FALSE => Some(false),
            _ => None,
        }
    }

    pub(crate) fn reset_answer(&mut self) {
        self.model.clear();
        self.failed.clear();
        self.last_status = None;
    }

    // ---- small helpers used across the technique files ----

    #[inline(always)]
    pub(crate) fn lit_value(&self, l: Lit) -> LBool {
        self.vals[l.code()]
    }

    #[inline(always)]
    pub(crate) fn decision_level(&self) -> u32 {
        self.trail_lim.len() as u32
    }

    /// Assigns `l` true at the current level with reason `reason`.
    #[inline(always)]
    pub(crate) fn assign(&mut self, l: Lit, reason: CRef) {
        debug_assert_eq!(self.lit_value(l), L_UNDEF);
        let v = l.var().index();
        self.vals[l.code()] = L_TRUE;
        self.vals[(!l).code()] = L_FALSE;
        self.level[v] = self.decision_level();
        self.reason[v] = reason;
        self.trail.push(l);
    }

    pub(crate) fn new_decision_level(&mut self) {
        self.trail_lim.push(self.trail.len());
    }

    /// Undoes every assignment above `level`, saving phases and returning the variables to
    /// the decision heap.
    pub(crate) fn backtrack(&mut self, level: u32) {
        self.undo_to(level, true);
    }

    /// `backtrack`, with the choice of saving the phases of the undone assignments (probes do
    /// not: their assignments are not the search's). Inlined so that `backtrack`, on the hot
    /// path, compiles with the flag constant and no test in its loop.
    #[inline(always)]
    pub(crate) fn undo_to(&mut self, level: u32, save_phases: bool) {
        if self.decision_level() <= level {
            return;
        }
        let start = self.trail_lim[level as usize];
        for i in (start..self.trail.len()).rev() {
            let l = self.trail[i];
            let v = l.var().index();
            self.vals[l.code()] = L_UNDEF;
            self.vals[(!l).code()] = L_UNDEF;
            if save_phases {
                self.saved[v] = l.is_positive();
            }
            self.heap.insert(v, &self.activity);
        }
        self.trail.truncate(start);
        self.trail_lim.truncate(level as usize);
        self.qhead = start;
    }

    /// Whether the budget or the terminate flag says stop.
    pub(crate) fn out_of_budget(&self) -> bool {
        if self.terminator.is_set() {
            return true;
        }
        if let Some(c) = self.budget.conflicts
            && self.stats.conflicts - self.budget_conflicts_start >= c
        {
            return true;
        }
        if let Some(p) = self.budget.propagations
            && self.stats.propagations - self.budget_props_start >= p
        {
            return true;
        }
        false
    }
}
