//! The `Solver`: the composition of the techniques' states, and the public, IPASIR-like API.
//! The techniques live in their own files (`propagate.rs`, `analyze.rs`, …), each with the
//! struct that holds its state and the `impl Solver` block of its predicate and action; this
//! file wires them together and owns the answers (model, failed assumptions, status). See
//! `ARCHITECTURE.md` for the map of who owns and who writes each piece.

#![forbid(unsafe_code)]

use crate::analyze::Analysis;
use crate::budget::{Limits, Terminator};
use crate::bump::Bump;
use crate::check::ModelCheck;
use crate::clause::{Arena, Clauses, NO_REASON};
use crate::congruence::Congruence;
use crate::decide::{Deferred, Phases, Scores};
use crate::eliminate::Elimination;
use crate::external::External;
use crate::factor::Factor;
use crate::lrat::Lrat;
use crate::lucky::Lucky;
use crate::mode::Mode;
use crate::options::Options;
use crate::probe::Probing;
use crate::proof::Proof;
use crate::randec::RandomDecisions;
use crate::reduce::Reduce;
use crate::rephase::Rephase;
use crate::restart::Restart;
use crate::search::{Progress, ProgressFn};
use crate::simplify::Simplify;
use crate::stats::Stats;
use crate::substitute::Substitute;
use crate::subsume::Subsume;
use crate::trail::Trail;
use crate::transred::TransRed;
use crate::types::{Budget, L_FALSE, L_TRUE, L_UNDEF, LBool, Lit, Status, Var};
use crate::vivify::Vivify;
use crate::walk::Walk;
use crate::watch::Watches;

/// The CDCL engine. See the crate documentation for its life cycle.
///
/// Incremental, the IPASIR way: clauses are added before and between solves, a solve takes
/// assumptions, and learned clauses carry over from one solve to the next.
///
/// ```
/// use grim_solver::{Budget, Solver, Status};
///
/// let mut s = Solver::new();
/// let (a, b, c) = (s.new_var(), s.new_var(), s.new_var());
/// s.add_clause(&[a.pos(), b.pos()]); // a or b
/// s.add_clause(&[!a.pos(), c.pos()]); // a implies c
/// assert_eq!(s.solve(&[], Budget::UNLIMITED), Status::Sat);
/// assert!(s.value(a.pos()) != Some(true) || s.value(c.pos()) == Some(true));
///
/// // Under assumptions: with b and c both false there is no model, and the core says why.
/// assert_eq!(s.solve(&[!b.pos(), !c.pos()], Budget::UNLIMITED), Status::Unsat);
/// let core = s.failed_assumptions();
/// assert!(!core.is_empty() && core.iter().all(|l| [!b.pos(), !c.pos()].contains(l)));
///
/// // Without them it is satisfiable again; a clause added now holds from here on.
/// s.add_clause(&[!b.pos()]);
/// assert_eq!(s.solve(&[], Budget::conflicts(1_000)), Status::Sat);
/// assert_eq!(s.value(a.pos()), Some(true));
/// ```
///
/// One field per part; each part's struct lives in the file named after its technique, which
/// states the part's invariants and who may write it (`ARCHITECTURE.md` has the table).
pub struct Solver {
    /// The options table (`options.rs`).
    pub(crate) opts: Options,
    /// The counters (`stats.rs`); each counter's doc names the file that counts it.
    pub(crate) stats: Stats,

    // ---- the assignment and the clauses ----
    /// Values, levels, reasons and the trail (`trail.rs`).
    pub(crate) trail: Trail,
    /// The watch lists (`watch.rs`).
    pub(crate) watches: Watches,
    /// The clause memory (`clause.rs`).
    pub(crate) arena: Arena,
    /// Which arena clauses are irredundant and which learned (`clause.rs`).
    pub(crate) clauses: Clauses,

    // ---- the techniques ----
    /// Conflict-analysis scratch: marks, the learned clause, LBD stamps (`analyze.rs`,
    /// `minimize.rs`).
    pub(crate) analysis: Analysis,
    /// The decision orders: EVSIDS scores and heap, the VMTF queue (`decide.rs`, `heap.rs`,
    /// `queue.rs`).
    pub(crate) scores: Scores,
    /// The variables the current conflict bumps; reason-side bumping's schedule (`bump.rs`).
    pub(crate) bump: Bump,
    /// Saved, target, best and user phases (`decide.rs`).
    pub(crate) phases: Phases,
    /// The variables decided last (`decide.rs`, [`Solver::defer_decision`]).
    pub(crate) deferred: Deferred,
    /// Focused/stable mode and its schedule (`mode.rs`).
    pub(crate) mode: Mode,
    /// Random decision sequences: their schedule and stream (`randec.rs`).
    pub(crate) randec: RandomDecisions,
    /// The restart schedule and LBD averages (`restart.rs`).
    pub(crate) restart: Restart,
    /// The reduction schedule and clause-activity increment (`reduce.rs`).
    pub(crate) reduce: Reduce,
    /// The rephasing schedule (`rephase.rs`).
    pub(crate) rephase: Rephase,
    /// Local search's memory between walks (`walk.rs`).
    pub(crate) walk: Walk,
    /// The vivification schedule (`vivify.rs`).
    pub(crate) vivify: Vivify,
    /// The level-0 simplification schedule (`simplify.rs`).
    pub(crate) simplify: Simplify,
    /// The subsumption schedule (`subsume.rs`).
    pub(crate) subsume: Subsume,
    /// The failed-literal probing schedule and the probe tree (`probe.rs`).
    pub(crate) probing: Probing,
    /// The congruence-closure schedule (`congruence.rs`).
    pub(crate) congruence: Congruence,
    /// The equivalent-literal substitution schedule (`substitute.rs`).
    pub(crate) substitute: Substitute,
    /// The transitive-reduction schedule and cursor (`transred.rs`).
    pub(crate) transred: TransRed,
    /// Whether the lucky phases have had their chance (`lucky.rs`).
    pub(crate) lucky: Lucky,
    /// Eliminated and frozen variables, and the reconstruction stack (`eliminate.rs`).
    pub(crate) elim: Elimination,
    /// Extension variables of bounded variable addition and the copy that undoes it
    /// (`factor.rs`).
    pub(crate) factor: Factor,
    /// The copy of the clauses as added, for the model check (`check.rs`).
    pub(crate) check: ModelCheck,
    /// DRAT or LRAT proof output (`proof.rs`).
    pub(crate) proof: Proof,
    /// LRAT hints: the walk's scratch, the level-0 units' cursor (`lrat.rs`).
    pub(crate) lrat: Lrat,
    /// The budget of the current call and the terminate flag (`budget.rs`).
    pub(crate) limits: Limits,
    /// The progress callback (`search.rs`).
    pub(crate) progress: Progress,

    // ---- the question and the answers (this file) ----
    /// The variables the user has created: `num_vars`, the length of the model. The engine's
    /// own count (`trail.num_vars()`) is larger when factoring added extension variables
    /// (`factor.rs`).
    pub(crate) user_vars: usize,
    /// The assumptions of the current (or last) `solve`.
    pub(crate) assumptions: Vec<Lit>,
    /// The model of the last `Sat` answer, one value per variable; empty otherwise.
    pub(crate) model: Vec<LBool>,
    /// The failed assumptions of the last `Unsat` answer.
    pub(crate) failed: Vec<Lit>,
    /// The answer of the last `solve`, until a clause is added.
    pub(crate) last_status: Option<Status>,
    /// False once the clauses are unsatisfiable without assumptions: every later solve is Unsat.
    pub(crate) ok: bool,
    /// Set when the arena would outgrow 32-bit offsets: solve answers `Unknown` from then on.
    pub(crate) out_of_memory: bool,
    /// Scratch for `add_irredundant`.
    add_buf: Vec<Lit>,
    /// The connected external propagator and its bookkeeping (`external.rs`).
    pub(crate) external: Option<External>,
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
        let check = ModelCheck::new(opts.check_model);
        Solver {
            opts,
            stats: Stats::default(),
            trail: Trail::default(),
            watches: Watches::default(),
            arena: Arena::default(),
            clauses: Clauses::default(),
            analysis: Analysis::default(),
            scores: Scores::default(),
            bump: Bump::default(),
            phases: Phases::default(),
            deferred: Deferred::default(),
            mode: Mode::default(),
            randec: RandomDecisions::default(),
            restart: Restart::default(),
            reduce: Reduce::default(),
            rephase: Rephase::default(),
            walk: Walk::default(),
            vivify: Vivify::default(),
            simplify: Simplify::default(),
            subsume: Subsume::default(),
            probing: Probing::default(),
            congruence: Congruence::default(),
            substitute: Substitute::default(),
            transred: TransRed::default(),
            lucky: Lucky::default(),
            elim: Elimination::default(),
            factor: Factor::default(),
            check,
            proof: Proof::default(),
            lrat: Lrat::default(),
            limits: Limits::default(),
            progress: Progress::default(),
            user_vars: 0,
            assumptions: Vec::new(),
            model: Vec::new(),
            failed: Vec::new(),
            last_status: None,
            ok: true,
            out_of_memory: false,
            add_buf: Vec::new(),
            external: None,
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

    /// Number of variables (the largest used index + 1). The engine's own extension variables
    /// (`factor.rs`) are not counted: they are invisible to the API.
    pub fn num_vars(&self) -> usize {
        self.user_vars
    }

    /// Number of irredundant clauses of length ≥ 2 currently kept (units live on the trail).
    pub fn num_clauses(&self) -> usize {
        self.clauses.originals.len()
    }

    /// Number of learned clauses of length ≥ 2 currently kept.
    pub fn num_learned(&self) -> usize {
        self.clauses.learnts.len()
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

    /// Makes variables `0..n` exist (IPASIR semantics: using a variable creates it). An index
    /// held by one of the engine's extension variables is handed over after undoing the
    /// factoring that made it (`factor.rs`).
    pub fn reserve_vars(&mut self, n: usize) {
        if n <= self.user_vars {
            return;
        }
        if self.factor.active() {
            self.unfactor();
        }
        self.user_vars = n;
        self.grow_vars(n);
    }

    /// Makes the engine's variables `0..n` exist, user-visible or not (`factor.rs` grows them
    /// for its extension variables).
    pub(crate) fn grow_vars(&mut self, n: usize) {
        let old = self.trail.num_vars();
        if n <= old {
            return;
        }
        self.trail.grow(n);
        self.watches.grow(n);
        self.phases.grow(n, self.opts.phase_initial);
        self.elim.grow(n);
        self.analysis.grow(n);
        self.bump.grow(n);
        // Decision levels reach the variable count plus one per assumption (`init_search`);
        // factoring grows the count after `init_search` has reserved the levels.
        self.analysis.levels.reserve(n + self.assumptions.len() + 2);
        self.scores.grow(old, n, self.opts.seed);
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
            self.check.record(lits);
        } else {
            self.check.skip();
        }
        if self.elim.touches(lits) {
            self.restore_eliminated();
        }
        self.factor.record(lits);
        self.scores.shape.note(lits.len());
        let id = self.proof.original();
        self.add_irredundant(lits, id);
    }

    /// Adds an irredundant clause at level 0 (simplified against level-0 values); shared by
    /// `add_clause`, the restoration of eliminated clauses and the clauses inprocessing
    /// derives. `id` is the clause's LRAT identifier: it is already known to the proof (an
    /// original clause, a restored one the proof never deleted, or one just logged).
    pub(crate) fn add_irredundant(&mut self, lits: &[Lit], id: u64) {
        if !self.ok {
            return;
        }
        let mut buf = std::mem::take(&mut self.add_buf);
        buf.clear();
        buf.extend_from_slice(lits);
        if !crate::normalise_clause(&mut buf) {
            self.add_buf = buf;
            return;
        }
        if buf
            .iter()
            .any(|&l| self.trail.value(l) == L_TRUE && self.trail.level[l.var().index()] == 0)
        {
            self.add_buf = buf;
            return;
        }
        let distinct = buf.len();
        let mut id = id;
        if self.proof.is_lrat() {
            let trail = &self.trail;
            let falses: Vec<Lit> = buf
                .iter()
                .copied()
                .filter(|&l| trail.value(l) == L_FALSE)
                .collect();
            self.lrat.hints.clear();
            self.root_hints(falses);
            self.lrat.hints.push(id as i64);
        }
        buf.retain(|&l| self.trail.value(l) != L_FALSE);
        if buf.len() < distinct || buf.is_empty() {
            // Level-0 false literals removed: the shorter clause is derived (RUP). An empty
            // clause as given is logged too, so that the proof ends in one.
            id = self.proof.add(&buf, &self.lrat.hints);
        }
        match buf.len() {
            0 => self.ok = false,
            1 => {
                self.trail.assign(buf[0], NO_REASON);
                self.proof.set_unit(buf[0].var().index(), id);
                let conflict = self.propagate();
                if conflict != NO_REASON {
                    self.refute_with(conflict);
                }
            }
            _ => match self.arena.alloc(&buf, false, 0, id) {
                Some(c) => {
                    self.watches.attach(&self.arena, c);
                    self.clauses.originals.push(c);
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
        if self.elim.touches(assumptions) {
            self.restore_eliminated();
            if !self.ok {
                self.last_status = Some(Status::Unsat);
                return Status::Unsat;
            }
        }
        self.assumptions.clear();
        self.assumptions.extend_from_slice(assumptions);
        self.limits.start(budget, &self.stats);
        self.external_start();
        // Late units a propagator's reasons left at the end of the previous call
        // (`External::late_units`) are assigned before the level-0 passes below, which expect
        // a fixpoint (the search loop does the same after its restarts).
        if self.assign_late_units() && self.ok {
            self.propagate_root();
        }
        self.trail.debug_check();
        self.init_search();
        // Lucky's one chance comes first, on the formula as given: after elimination its
        // simple orders no longer line up with the encoding (`lucky.rs`).
        let mut status = if self.ok && self.lucky_due() && self.lucky() {
            Status::Sat
        } else if !self.ok {
            Status::Unsat
        } else {
            // Congruence closure first, on the gates as the encoder wrote them (elimination
            // resolves gate variables away; `congruence.rs`).
            if self.congruencing() {
                self.congruence();
            }
            // Factoring next: elimination would resolve away the pairwise products it
            // re-encodes (`factor.rs`).
            if self.ok && self.factoring() {
                self.factor();
            }
            if self.ok && self.eliminating() {
                self.eliminate();
            }
            if self.ok {
                self.search()
            } else {
                Status::Unsat
            }
        };
        if status == Status::Sat {
            self.model.clear();
            let trail = &self.trail;
            self.model
                .extend((0..trail.num_vars()).map(|v| trail.var_value(v)));
            self.elim.extend_model(&mut self.model, &self.phases);
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
            // Extension variables are the engine's own (`factor.rs`).
            self.model.truncate(self.user_vars);
        }
        if self.propagator_failed() {
            // A propagator's malformed answer stopped the search: nothing it led to is trusted.
            self.model.clear();
            self.failed.clear();
            status = Status::Unknown;
        }
        self.backtrack(0);
        let _ = self.flush_external_log();
        self.analysis.debug_check_clear();
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
        self.phases.user[lit.var().index()] = if lit.is_positive() { L_TRUE } else { L_FALSE };
        self.lucky.forgo();
        self.factor.forgo();
    }

    /// Decides `var` only once every other variable is assigned: it stays out of the decision
    /// orders (EVSIDS and VMTF) and of random decisions, and is decided only when nothing else
    /// is left. Creates the variable if needed.
    ///
    /// Why: for auxiliary variables that propagation fixes once the variables they describe
    /// are fixed — an external propagator's order literals `[N ≥ k]` of a sum of cells — a
    /// decision is a guess the formula never needs, and a costly one (the propagator then
    /// fixes every cell the guessed bound leaves no room for). The search stays complete: a
    /// deferred variable still free at the end is decided like any other.
    pub fn defer_decision(&mut self, var: Var) {
        self.reserve_vars(var.index() + 1);
        self.deferred.add(var.index());
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
        let saved = &mut self.phases.saved;
        let n = values.len().min(self.user_vars);
        saved[..n].copy_from_slice(&values[..n]);
        self.lucky.forgo();
        self.factor.forgo();
    }

    /// Keeps `var` from being eliminated by preprocessing. Needed only for speed: a variable
    /// that reappears in a later clause or assumption after being eliminated is restored with
    /// all eliminated clauses (correct, but it undoes the elimination).
    pub fn freeze(&mut self, var: Var) {
        self.reserve_vars(var.index() + 1);
        self.elim.freeze(var.index());
    }

    /// Removes the user phase preference of `var` (saved/target phases decide again).
    pub fn clear_phase(&mut self, var: Var) {
        if let Some(p) = self.phases.user.get_mut(var.index()) {
            *p = L_UNDEF;
        }
    }

    /// Calls `report` with the statistics every `every_conflicts` conflicts during `solve`
    /// (`None` or 0 turns it off). Why a callback and not repeated budgeted solves: a budgeted
    /// slice returns to level 0 and re-initialises the schedules, so progress output would
    /// change the search; a callback observes it without touching it.
    pub fn set_progress(&mut self, every_conflicts: u64, report: Option<ProgressFn>) {
        self.progress = Progress::new(every_conflicts, report);
    }

    /// A handle that stops `solve` from another thread or a signal handler.
    pub fn terminator(&self) -> Terminator {
        self.limits.terminator().clone()
    }

    /// Makes `stop` this solver's terminate handle (instead of its own), so one handle can
    /// stop several solvers, or a solver a library creates internally: a game's frame-time
    /// watchdog, say, holding the handle before the level generator builds its engine.
    pub fn set_terminator(&mut self, stop: &Terminator) {
        self.limits.set_terminator(stop);
    }

    /// Level-0 value of `lit`: `Some` when the clauses alone fix it (a unit consequence found
    /// so far), `None` otherwise. Useful between solves to read proven facts.
    pub fn fixed(&self, lit: Lit) -> Option<bool> {
        let v = lit.var().index();
        if v >= self.num_vars() || self.trail.level[v] != 0 {
            return None;
        }
        match self.trail.value(lit) {
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

    /// Undoes every assignment above `level`, saving phases and returning the variables to
    /// the decision heap.
    pub(crate) fn backtrack(&mut self, level: u32) {
        self.undo_to(level, true);
        if self.external.is_some() {
            self.external_backtracked(level);
        }
    }

    /// `backtrack`, with the choice of saving the phases of the undone assignments (probes do
    /// not: their assignments are not the search's). Inlined so that `backtrack`, on the hot
    /// path, compiles with the flag constant and no test in its loop.
    #[inline(always)]
    pub(crate) fn undo_to(&mut self, level: u32, save_phases: bool) {
        let Solver {
            trail,
            phases,
            scores,
            ..
        } = self;
        trail.undo_to(level, |l| {
            let v = l.var().index();
            if save_phases {
                phases.saved[v] = l.is_positive();
            }
            scores.insert(v);
        });
    }

    /// Checks the invariants of the trail and the watches in debug builds (linear in the
    /// clauses: called after collections, sweeps and simplification rounds, not per `solve`,
    /// which an enumerating caller runs thousands of times).
    pub(crate) fn debug_check(&self) {
        if cfg!(debug_assertions) {
            self.trail.debug_check();
            let elim = &self.elim;
            self.scores
                .queue
                .debug_check(&self.trail, |v| !elim.is_eliminated(v));
            self.watches
                .debug_check(&self.arena, &self.clauses, &self.trail);
        }
    }
}
