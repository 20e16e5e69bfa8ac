//! The [`Oll`] optimiser: its state, the translation of a [`Wcnf`] into objective terms, and
//! the main loop (a ladder over the techniques of the sibling files).
//!
//! **Invariant (the reformulation is exact).** For every assignment τ of the instance's
//! variables that satisfies the hard clauses, `cost(τ) = lower_bound + Σ weight(t)` over the
//! live terms `t` violated by the canonical extension of τ (each selector true exactly when its
//! clause is, each totalizer output true exactly when its count is reached). Every step below —
//! a core, an exhausted bound, an at-most-one group, a hardened term — preserves it; that is
//! why a SAT answer under *all* live terms proves the optimum, and why hardening a term heavier
//! than `best − lower_bound` loses no improving solution. Models are nevertheless priced on the
//! original instance by [`Wcnf::cost`], never by this bookkeeping.
//!
//! **The parts.** [`Oll`] is a composition, as the engine's `Solver` is: the objective and the
//! answers here, and one field per technique whose state is a struct in the technique's file,
//! fields private to it (only that file writes them; the others call its methods).
//!
//! | `Oll` field | struct | file | what it holds |
//! |---|---|---|---|
//! | `wcnf`, `flat`, `num_vars` | `Wcnf`, `Flat` | `oll.rs`, `flat.rs` | the instance (the referee of every cost), its clauses normalised once |
//! | `opts`, `stats` | `OllOptions`, `OllStats` | `lib.rs` | the options table; the counters (each doc names the file that counts it) |
//! | `solver` | `Solver` | the engine | the hard clauses, selector definitions, totalizers, facts and hardened terms |
//! | `terms`, `term_of`, `lb`, `best` | `Term` | `oll.rs` | the objective terms and their index, the lower bound, the best model |
//! | `strata` | `Strata` | `stratify.rs` | the threshold of the current stratum, the diversity parameter |
//! | `relax` | `Relax` | `relax.rs` | the totalizers over cores, the cores weight-aware extraction delayed |
//! | `am1` | `Am1` | `am1.rs` | the at-most-one detector's propagator and the exclusions found |
//! | `symmetry_fact` | — | `symmetry.rs` | the unit that breaks the complement symmetry |
//! | `up` | `UpCores` | `upcore.rs` | whether a pass of propagation cores is due |
//! | `anytime` | `Anytime` | `anytime.rs` | the local search, the conflict slice of the main calls, the first burst |
//! | `bnb` | `Bursts` | `bnb/mod.rs` | the branch and bound's search and its bursts' schedule |
//! | `limits`, `started`, `done`, `reported_lb` | `Limits` | `oll.rs` | the running `solve` call's budget; where the run is |
//! | `proof` | `PbProof` | `veripb.rs` | the VeriPB proof being written ([`Oll::with_proof`]), if any |
//!
//! **The loop** ([`Oll::solve`] → `run`), each rung a technique's predicate and action:
//! - once, `start`: the first stratum (`stratify.rs`), its at-most-one groups (`am1.rs`),
//!   and a first model of the hard clauses with a burst of local search (`anytime.rs`);
//! - the best cost met the lower bound: optimum;
//! - `bnb_due` → `bnb_burst` (`bnb/`), then `harden` (`harden.rs`);
//! - `up_cores_due` → `up_cores` (`upcore.rs`);
//! - otherwise `main_call`: the stratum's assumptions (`stratify.rs`) within the slices of the
//!   anytime phase, the branch and bound and, while delayed cores wait, `wce_cap`; its answer:
//!   - SAT, `on_model`: price it; `first_burst_due` → `first_burst` (`anytime.rs`);
//!     `relaxing` → `relax_pending` (`relax.rs`), else the optimum when every live term was
//!     assumed, else `next_stratum` (`stratify.rs`) and `adapt` (`am1.rs`); `harden` either way;
//!   - UNSAT, `on_core`: `shrink` (`core.rs`), `process_core` (`relax.rs`, exhaustion in
//!     `core.rs`), `harden`; an empty core means the hard clauses are unsatisfiable;
//!   - UNKNOWN: a slice ran out (`wce_spent` → `relax_pending`, `relax.rs`, when it was
//!     `wce_cap`; else `stalled`, `anytime.rs`, when it was the anytime phase's), or the budget
//!     or the terminate flag stopped the run.

use std::io::Write;

use grim_solver::{Budget, Lit, ProofFormat, Solver, Status, Terminator, Var};

use grim_formula::Wcnf;

use super::anytime::Anytime;
use super::bnb::Bursts;
use super::flat::Flat;
use super::relax::Relax;
use super::stratify::Strata;
use super::upcore::UpCores;
use super::veripb::{PbProof, VeriPbInput};
use super::{Event, MaxSatError, MaxSatStatus, OllOptions, OllStats, am1, symmetry};

/// What a term's literal stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// A soft clause's literal or selector (also the selector of an at-most-one group).
    Soft,
    /// `¬outputs()[bound]` of totalizer `sum`: "at most `bound` of its inputs are violated".
    Output { sum: usize, bound: usize },
}

/// An objective term: a literal the optimiser wants true, and what violating it still costs.
#[derive(Clone, Debug)]
pub(super) struct Term {
    pub(super) lit: Lit,
    /// The remaining weight (after the reductions of the cores it was in).
    pub(super) weight: u64,
    pub(super) kind: Kind,
    /// False once the weight reached 0 or the term was hardened; dead terms keep their index so
    /// that `term_of` stays valid, and are never assumed again.
    pub(super) live: bool,
}

/// The budget of the running [`Oll::solve`] call and the engine's counters at its start (every
/// engine call of the run spends from it: `Oll::call`).
#[derive(Debug)]
struct Limits {
    budget: Budget,
    start_conflicts: u64,
    start_propagations: u64,
}

/// What a main call answered, and whether it ran out of a slice rather than the budget.
struct MainCall {
    status: Status,
    /// Engine conflicts it spent, and its cap: the smaller of `stall_cap` (the anytime phase's
    /// slice) and the branch and bound's share.
    used: u64,
    cap: Option<u64>,
    stall_cap: Option<u64>,
    /// The cap `wce_conflicts` put on it, when delayed cores were waiting.
    wce_cap: Option<u64>,
}

impl MainCall {
    /// It spent its cap (a slice), so an `Unknown` answer is no interruption.
    fn slice_spent(&self) -> bool {
        self.cap.is_some_and(|c| self.used >= c)
    }

    /// It spent the anytime phase's slice: the lower bound has stalled.
    fn stalled(&self) -> bool {
        self.stall_cap.is_some_and(|c| self.used >= c)
    }

    /// It spent the conflicts `wce_conflicts` allows while delayed cores wait.
    fn wce_spent(&self) -> bool {
        self.wce_cap.is_some_and(|c| self.used >= c)
    }
}

/// Weighted core-guided MaxSAT (OLL with RC2's techniques) over one [`Wcnf`].
///
/// Build with [`Oll::new`], then call [`Oll::solve`]; it may be called again after it returned
/// `Satisfiable` or `Unknown` (budget or terminate flag) and resumes where it stopped.
///
/// ```
/// use grim_maxsat::{Event, Lit, MaxSatStatus, Oll, OllOptions, Wcnf};
///
/// // Two variables that may not both be true, each wished true: one wish must go.
/// let (a, b) = (Lit::from_dimacs(1).unwrap(), Lit::from_dimacs(2).unwrap());
/// let mut w = Wcnf::new(2);
/// w.hard.push(vec![!a, !b]);
/// w.add_soft(3, &[a]);
/// w.add_soft(2, &[b]);
/// let mut oll = Oll::new(&w, OllOptions::default()).unwrap();
/// let mut improved = Vec::new();
/// let status = oll.solve(grim_maxsat::Budget::UNLIMITED, &mut |event| {
///     if let Event::Improved { cost, .. } = event {
///         improved.push(cost);
///     }
/// });
/// assert_eq!(status, MaxSatStatus::Optimum);
/// assert_eq!(oll.best_cost(), Some(2)); // give up the cheaper wish
/// assert_eq!(oll.lower_bound(), 2);
/// assert_eq!(improved.last(), Some(&2)); // every improvement was reported, the optimum last
/// let model = oll.best_model().unwrap();
/// assert_eq!(w.cost(model), Some(2));
/// ```
pub struct Oll {
    /// The original instance, the referee of every model's cost.
    pub(super) wcnf: Wcnf,
    /// The instance's clauses normalised once (`flat.rs`): the soft clauses the terms come
    /// from, read again by the at-most-one detection, the local search and the branch and bound.
    pub(super) flat: Flat,
    /// Variables of the instance (at least `wcnf.num_vars`; see [`Oll::new`]).
    pub(super) num_vars: usize,
    pub(super) opts: OllOptions,
    pub(super) solver: Solver,
    pub(super) terms: Vec<Term>,
    /// `term_of[lit.code()]` is the index + 1 of the term with that literal, 0 for none.
    term_of: Vec<u32>,
    pub(super) lb: u64,
    reported_lb: u64,
    pub(super) best: Option<(u64, Vec<bool>)>,
    pub(super) stats: OllStats,
    /// The techniques' own state, one struct each in its file (the table at the top).
    pub(super) strata: Strata,
    pub(super) relax: Relax,
    /// The at-most-one detector (with `am1` on).
    pub(super) am1: Option<am1::Am1>,
    /// The unit added by `symmetry` (the branch and bound adds it too).
    pub(super) symmetry_fact: Option<Lit>,
    pub(super) up: UpCores,
    pub(super) anytime: Anytime,
    pub(super) bnb: Bursts,
    limits: Limits,
    started: bool,
    /// Set once the answer is final (`Optimum` or `Unsatisfiable`).
    done: Option<MaxSatStatus>,
    /// The VeriPB proof being written (`veripb.rs`), if one was asked for.
    pub(super) proof: Option<PbProof>,
    /// Switches of past probes not yet made false (`Oll::probe`, `Oll::retire`).
    retired: Vec<Lit>,
}

/// Switches of probes retired together (`Oll::retire`).
const RETIRE_BATCH: usize = 256;

impl Oll {
    /// Translates `wcnf` for the engine.
    ///
    /// Degenerate cases, all total: a hard empty clause makes the instance `Unsatisfiable`; an
    /// empty soft clause costs its weight in every model (it starts the lower bound); a
    /// tautological soft clause and a soft clause of weight 0 cost nothing and are dropped;
    /// identical soft clauses (as literal sets) are merged, their weights summed; two unit
    /// softs `l` and `¬l` cancel down to their weight difference (the smaller weight is paid
    /// by every model). Clauses may name variables at or beyond `wcnf.num_vars`: the model then
    /// covers them too (its length is one more than the largest variable used).
    ///
    /// Errors: [`MaxSatError::WeightOverflow`] when the soft weights add up past `u64::MAX`,
    /// [`MaxSatError::TooManyVariables`] past the engine's variable limit.
    pub fn new(wcnf: &Wcnf, options: OllOptions) -> Result<Oll, MaxSatError> {
        Oll::build(wcnf, options, None)
    }

    /// An optimiser that writes a VeriPB proof of its answer to `out` (`veripb.rs`): the
    /// optimum, or the hard clauses' unsatisfiability, certified for `veripb --wcnf FILE
    /// PROOF`, where `input` says where the soft clauses sit in FILE
    /// ([`VeriPbInput::hard_first`] for the file grim's writer makes of `wcnf`).
    ///
    /// The techniques whose reasoning the proof does not log are off (the list is in
    /// `veripb.rs`; `options` is otherwise taken as given). Call [`Oll::finish_proof`] after
    /// the last [`Oll::solve`]: it writes the conclusion and reports whether the proof is
    /// complete.
    pub fn with_proof(
        wcnf: &Wcnf,
        mut options: OllOptions,
        out: Box<dyn Write + Send>,
        input: VeriPbInput,
    ) -> Result<Oll, MaxSatError> {
        options.am1 = false;
        options.symmetry = false;
        options.bnb_ticks = 0;
        options.sle = false;
        options.equiv = false;
        options.merge_softs = false;
        // Factoring's extension clauses are RAT, not RUP.
        options.solver.factor = false;
        let proof = PbProof::new(out, input, wcnf.vars_spanned());
        Oll::build(wcnf, options, Some(proof))
    }

    /// Ends the proof (`with_proof`): the conclusion that the answer so far supports — the
    /// optimum after `Optimum`, infeasibility after `Unsatisfiable`, none otherwise — and a
    /// flush. An error means the proof is incomplete and must not be used. Without a proof,
    /// `Ok` at once.
    pub fn finish_proof(&mut self) -> std::io::Result<()> {
        let Some(proof) = &mut self.proof else {
            return Ok(());
        };
        let optimum = match self.done {
            Some(MaxSatStatus::Optimum) => Some(self.lb),
            _ => None,
        };
        let unsat = self.done == Some(MaxSatStatus::Unsatisfiable);
        proof.finish(&mut self.solver, optimum, unsat)
    }

    fn build(wcnf: &Wcnf, options: OllOptions, proof: Option<PbProof>) -> Result<Oll, MaxSatError> {
        let num_vars = wcnf.vars_spanned();
        if num_vars > Var::MAX_INDEX as usize {
            return Err(MaxSatError::TooManyVariables { num_vars });
        }
        let mut total = 0u64;
        for (i, (w, _)) in wcnf.soft.iter().enumerate() {
            total = total
                .checked_add(*w)
                .ok_or(MaxSatError::WeightOverflow { soft_index: i })?;
        }

        let mut solver = Solver::with_options(options.solver.clone());
        if let Some(proof) = &proof {
            solver.set_proof(Box::new(proof.engine_feed()), ProofFormat::Binary);
        }
        solver.reserve_vars(num_vars);
        for clause in &wcnf.hard {
            solver.add_clause(clause);
        }
        let mut oll = Oll {
            wcnf: wcnf.clone(),
            flat: Flat::new(wcnf, num_vars),
            num_vars,
            solver,
            terms: Vec::new(),
            term_of: vec![0; 2 * num_vars],
            lb: 0,
            reported_lb: 0,
            best: None,
            stats: OllStats::default(),
            strata: Strata::new(),
            relax: Relax::default(),
            am1: None,
            symmetry_fact: None,
            up: UpCores::new(),
            anytime: Anytime::new(options.anytime_stall_conflicts),
            bnb: Bursts::new(options.bnb_ticks),
            limits: Limits {
                budget: Budget::UNLIMITED,
                start_conflicts: 0,
                start_propagations: 0,
            },
            started: false,
            done: None,
            opts: options,
            proof,
            retired: Vec::new(),
        };
        let definitions = oll.add_softs();
        if let Some(proof) = &mut oll.proof {
            proof.selectors_done();
        }
        if oll.opts.equiv {
            oll.merge_equivalent_terms(&wcnf.hard);
        }
        if oll.opts.am1 {
            oll.am1 = Some(am1::Am1::new(definitions.clone()));
        }
        let mut symmetry_fact = Vec::new();
        if oll.opts.symmetry
            && let Some(v) = symmetry::complement_symmetry(wcnf)
        {
            oll.stats.symmetry_units += 1;
            oll.add_fact(v.pos());
            symmetry_fact.push(v.pos());
            oll.symmetry_fact = Some(v.pos());
        }
        if oll.opts.sle {
            let clauses = wcnf
                .hard
                .iter()
                .chain(definitions.iter())
                .map(Vec::as_slice);
            oll.eliminate_subsumed_labels(clauses.chain(std::iter::once(&symmetry_fact[..])));
        }
        oll.measure_diversity();
        Ok(oll)
    }

    /// Turns the soft clauses of the flat formula into terms (an empty soft clause raises the
    /// lower bound); returns the selector definitions `C ∨ ¬s` (for the at-most-one detection,
    /// which propagates over them).
    fn add_softs(&mut self) -> Vec<Vec<Lit>> {
        let mut definitions = Vec::new();
        // Non-unit soft clauses by their sorted literal set, for merging duplicates. A sorted
        // Vec searched by binary search, not a hash map: determinism, and no new dependency.
        let mut seen: Vec<(Vec<Lit>, usize)> = Vec::new();
        self.lb = self.lb.saturating_add(self.flat.offset);
        for c in self.flat.num_hard..self.flat.num_clauses() {
            let c_index = c;
            let w = self.flat.soft_weight[c - self.flat.num_hard];
            match *self.flat.clause(c) {
                [l] if self.proof.is_some() => {
                    // A longer clause in the file (a literal repeated): the checker's
                    // objective has its selector, which the input constraint links to `l`.
                    let soft = self.flat.soft_origin[c - self.flat.num_hard];
                    if let Some(proof) = &mut self.proof {
                        let id = proof.soft_constraint(soft);
                        if id > 0 {
                            proof.ledger_add(id, w);
                        }
                    }
                    match self.term_index(l) {
                        Some(t) => {
                            self.stats.merged_softs += 1;
                            self.terms[t].weight = self.terms[t].weight.saturating_add(w);
                        }
                        None => {
                            self.add_term(l, w, Kind::Soft);
                        }
                    }
                }
                [l] => match self.term_index(l) {
                    Some(t) => {
                        self.stats.merged_softs += 1;
                        self.terms[t].weight = self.terms[t].weight.saturating_add(w);
                    }
                    None => {
                        self.add_term(l, w, Kind::Soft);
                    }
                },
                ref clause => match seen.binary_search_by(|(k, _)| k.as_slice().cmp(clause)) {
                    // With a proof, identical clauses keep their own selectors (`veripb.rs`).
                    Ok(pos) if self.opts.merge_softs => {
                        self.stats.merged_softs += 1;
                        let t = seen[pos].1;
                        self.terms[t].weight = self.terms[t].weight.saturating_add(w);
                    }
                    Ok(_) | Err(_) => {
                        let pos = match seen.binary_search_by(|(k, _)| k.as_slice().cmp(clause)) {
                            Ok(p) | Err(p) => p,
                        };
                        let c = clause.to_vec();
                        let s = self.solver.new_var().pos();
                        let flat_soft = c_index - self.flat.num_hard;
                        if let Some(proof) = &mut self.proof {
                            proof.name_selector(
                                s.var(),
                                self.flat.soft_origin[flat_soft],
                                flat_soft,
                            );
                        }
                        let mut def = c.clone();
                        def.push(!s);
                        self.solver.add_clause(&def);
                        definitions.push(def);
                        let t = self.add_term(s, w, Kind::Soft);
                        seen.insert(pos, (c, t));
                    }
                },
            }
        }
        // Complementary unit softs: w1·[¬l] + w2·[l] = min + (w1 − min)·[¬l] + (w2 − min)·[l].
        for t in 0..self.terms.len() {
            let lit = self.terms[t].lit;
            if let Some(u) = self.term_index(!lit)
                && u > t
                && self.terms[t].live
                && self.terms[u].live
            {
                let m = self.terms[t].weight.min(self.terms[u].weight);
                self.lb = self.lb.saturating_add(m);
                self.stats.merged_softs += 1;
                self.reduce(t, m);
                self.reduce(u, m);
            }
        }
        definitions
    }

    /// Adds a live term and indexes its literal; returns its index.
    pub(super) fn add_term(&mut self, lit: Lit, weight: u64, kind: Kind) -> usize {
        let t = self.terms.len();
        if self.opts.freeze_terms {
            self.solver.freeze(lit.var());
        }
        self.terms.push(Term {
            lit,
            weight,
            kind,
            live: weight > 0,
        });
        let code = lit.code();
        if code >= self.term_of.len() {
            self.term_of.resize(code + 2, 0);
        }
        self.term_of[code] = t as u32 + 1;
        t
    }

    /// The term whose literal is `lit`, if any (live or dead).
    pub(super) fn term_index(&self, lit: Lit) -> Option<usize> {
        match self.term_of.get(lit.code()) {
            Some(&i) if i > 0 => Some(i as usize - 1),
            _ => None,
        }
    }

    /// Takes `m` (at most its weight) off term `t`; the term dies at weight 0.
    pub(super) fn reduce(&mut self, t: usize, m: u64) {
        if let Some(term) = self.terms.get_mut(t) {
            term.weight = term.weight.saturating_sub(m);
            if term.weight == 0 {
                term.live = false;
            }
        }
    }

    /// Adds the hard unit clause `lit` (a proven fact or a hardened term) to the engine and to
    /// the at-most-one detector.
    pub(super) fn add_fact(&mut self, lit: Lit) {
        if let Some(proof) = &mut self.proof {
            proof.unit(&mut self.solver, lit);
        }
        self.solver.add_clause(&[lit]);
        if let Some(am1) = &mut self.am1 {
            am1.add_clause(&[lit]);
        }
    }

    /// Raises the lower bound by `w`. It never passes the optimum (≤ the total soft weight,
    /// checked in `new`), so saturation is only a guard.
    pub(super) fn raise_lb(&mut self, w: u64) {
        debug_assert!(self.lb.checked_add(w).is_some(), "lower bound overflow");
        self.lb = self.lb.saturating_add(w);
    }

    pub(super) fn live_weights(&self) -> impl Iterator<Item = u64> + '_ {
        self.terms.iter().filter(|t| t.live).map(|t| t.weight)
    }

    /// An optimiser whose engine has `propagator` connected (`grim_solver::Propagator`), so that
    /// the propagator's rules hold in every model it reports — a grid's connectivity inside the
    /// search. Three techniques that reason from the clauses alone are off: the complement
    /// symmetry break (the propagator's rules need not be symmetric), the anytime phase's
    /// local search and the branch and bound (their models would not see the propagator).
    /// Everything else — cores,
    /// stratification, hardening, exhaustion, unit-propagation cores — stays sound: it reasons
    /// from implied clauses and the engine's answers.
    pub fn with_propagator(
        wcnf: &Wcnf,
        mut options: OllOptions,
        propagator: Box<dyn grim_solver::Propagator>,
    ) -> Result<Oll, MaxSatError> {
        options.symmetry = false;
        options.anytime_flips = 0;
        options.bnb_ticks = 0;
        let mut oll = Oll::new(wcnf, options)?;
        oll.solver.connect_propagator(propagator);
        Ok(oll)
    }

    /// Keeps `vars` out of the engine's decisions until nothing else is left
    /// (`Solver::defer_decision`). Why: a propagator's auxiliary variables that propagation
    /// fixes from the ones they describe (a grid's count order literals `[N ≥ k]`) are guesses
    /// when decided, and costly ones; the grid's soft path defers them as its hard path does.
    pub fn defer_decisions(&mut self, vars: &[grim_solver::Var]) {
        for &v in vars {
            self.solver.defer_decision(v);
        }
    }

    /// Reports the engine's progress every `every_conflicts` conflicts over all of its calls
    /// (`Solver::set_progress`; 0 or `None` turns it off): a long optimisation whose bounds do
    /// not move still shows that it searches. The report only observes.
    pub fn set_progress(&mut self, every_conflicts: u64, report: Option<grim_solver::ProgressFn>) {
        self.solver.set_progress(every_conflicts, report);
    }

    /// The engine's propagator error, if the connected propagator misbehaved (the solve then
    /// stopped with `Unknown` or `Satisfiable`).
    pub fn propagator_error(&self) -> Option<&grim_solver::PropagatorError> {
        self.solver.propagator_error()
    }

    /// Forwards phase hints to the engine: each decision on the variable of `lit` tries `lit`
    /// true first. Hints change which models are found first, never the optimum's cost.
    pub fn set_phases(&mut self, lits: &[Lit]) {
        for &l in lits {
            self.solver.set_phase(l);
        }
    }

    /// The engine's terminate handle: setting it stops [`Oll::solve`] at the engine's next
    /// check, which then answers `Satisfiable` (with the best model) or `Unknown`.
    pub fn terminator(&self) -> Terminator {
        self.solver.terminator()
    }

    /// Makes `stop` the engine's terminate handle (see [`Solver::set_terminator`]).
    pub fn set_terminator(&mut self, stop: &Terminator) {
        self.solver.set_terminator(stop);
    }

    /// The engine's options, to change between calls (they take effect at the next one).
    /// Why: a caller that wants a first model fast can turn the engine's preprocessing off for
    /// that call and back on for the rest of the run (the grid's anytime schedule, whose
    /// first call was mostly a bounded variable elimination of the whole formula).
    pub fn engine_options_mut(&mut self) -> &mut grim_solver::Options {
        self.solver.options_mut()
    }

    /// The cost of the best model found so far.
    pub fn best_cost(&self) -> Option<u64> {
        self.best.as_ref().map(|(c, _)| *c)
    }

    /// The best model found so far: one value per variable of the instance; its cost is
    /// [`Oll::best_cost`] as [`Wcnf::cost`] computes it.
    pub fn best_model(&self) -> Option<&[bool]> {
        self.best.as_ref().map(|(_, m)| m.as_slice())
    }

    /// The proven lower bound on the optimum (equal to the best cost once it is proven).
    pub fn lower_bound(&self) -> u64 {
        self.lb
    }

    /// Counters of the run so far.
    pub fn stats(&self) -> &OllStats {
        &self.stats
    }

    /// Runs the optimisation within `budget` (conflicts and propagations over *all* engine
    /// calls of this `solve` call), reporting every improving model and every rise of the lower
    /// bound to `on_event`.
    ///
    /// `Optimum` and `Unsatisfiable` are final (later calls return them at once);
    /// `Satisfiable` and `Unknown` mean the budget or the terminate flag stopped the search,
    /// and a later call resumes.
    pub fn solve(&mut self, budget: Budget, on_event: &mut dyn FnMut(Event<'_>)) -> MaxSatStatus {
        if let Some(status) = self.done {
            return status;
        }
        self.retire();
        self.limits = Limits {
            budget,
            start_conflicts: self.solver.stats().conflicts,
            start_propagations: self.solver.stats().propagations,
        };
        let status = self.run(on_event);
        let engine = self.solver.stats();
        self.stats.conflicts = engine.conflicts;
        self.stats.propagations = engine.propagations;
        self.stats.decisions = engine.decisions;
        if matches!(status, MaxSatStatus::Optimum | MaxSatStatus::Unsatisfiable) {
            self.done = Some(status);
        }
        status
    }

    /// The main loop, a ladder of the techniques' predicates and actions (the list at the top
    /// of this file): each rung names the file that owns it.
    fn run(&mut self, on_event: &mut dyn FnMut(Event<'_>)) -> MaxSatStatus {
        if !self.started {
            self.start(on_event);
        }
        loop {
            self.report_lb(on_event);
            if self.best_cost().is_some_and(|ub| ub <= self.lb) {
                return MaxSatStatus::Optimum;
            }
            if self.bnb_due() {
                self.bnb_burst(on_event); // bnb/mod.rs
                self.harden(); // harden.rs
                continue;
            }
            if self.up_cores_due() {
                self.up_cores(on_event); // upcore.rs
                continue;
            }
            let call = self.main_call();
            let end = match call.status {
                Status::Sat => self.on_model(on_event),
                Status::Unsat => self.on_core(on_event),
                Status::Unknown if call.slice_spent() && !self.solver.terminator().is_set() => {
                    // The slice ran out, not the budget. Either the search for a core
                    // disjoint from the delayed ones is too hard: relax them now (relax.rs);
                    // or the lower bound has stalled (or a branch-and-bound burst is due, at
                    // the top of the loop).
                    if call.wce_spent() {
                        self.stats.wce_stalls += 1;
                        self.relax_pending(on_event); // relax.rs
                        self.harden();
                    } else if call.stalled() {
                        self.stalled(on_event); // anytime.rs
                    }
                    None
                }
                Status::Unknown => Some(self.interrupted()),
            };
            if let Some(status) = end {
                return status;
            }
        }
    }

    /// The first rung, once per run: the first stratum (`stratify.rs`) and its at-most-one
    /// groups (`am1.rs`), and a model of the hard clauses to start from (`anytime.rs`).
    fn start(&mut self, on_event: &mut dyn FnMut(Event<'_>)) {
        self.started = true;
        self.first_stratum();
        self.adapt();
        if self.first_model_due() {
            self.first_model(on_event);
        }
    }

    /// One engine call under the stratum's assumptions, within the conflict slice of the
    /// anytime phase (`main_cap`) and what the core-guided search may spend before the next
    /// branch-and-bound burst (`bnb_cap`).
    fn main_call(&mut self) -> MainCall {
        let assumptions = self.stratum();
        self.stats.sat_calls += 1;
        let stall_cap = self.main_cap();
        let wce_cap = self.wce_cap();
        let cap = [stall_cap, self.bnb_cap(), wce_cap]
            .into_iter()
            .flatten()
            .min();
        let before = self.solver.stats().conflicts;
        let status = self.call(&assumptions, cap);
        MainCall {
            status,
            used: self.solver.stats().conflicts - before,
            cap,
            stall_cap,
            wce_cap,
        }
    }

    /// The conflicts a main call may spend while delayed cores wait (`wce_conflicts`): only
    /// when some are waiting, and only on instances with hard clauses. Without hard clauses
    /// (random Max-2-SAT and Max-3-SAT, max-cut) every call is over soft clauses alone,
    /// disjoint cores abound, and the long searches for them are the ones that pay: a cap of
    /// 1,000 to 20,000 conflicts lost `max2sat--s2v120c1200-1` (41.8 s without it) and slowed
    /// `max3sat--s3v70c700-1` from 4.6 s to 8.5–49.6 s.
    fn wce_cap(&self) -> Option<u64> {
        (self.relaxing() && self.opts.wce_conflicts > 0 && !self.wcnf.hard.is_empty())
            .then_some(self.opts.wce_conflicts)
    }

    /// A SAT answer of the main call: price the model; the first local-search burst if due;
    /// then build the delayed totalizers, or prove the optimum when every live term was
    /// assumed, or go down a stratum. `Some` when the run ends.
    fn on_model(&mut self, on_event: &mut dyn FnMut(Event<'_>)) -> Option<MaxSatStatus> {
        self.up.after_model();
        self.stats.sat_answers += 1;
        self.record_model(on_event);
        // Read before the first burst: a term it lets `harden` remove must not make this
        // model, found without that term, look final.
        let everything_assumed = !self.relaxing() && self.everything_assumed();
        if self.first_burst_due() {
            self.first_burst(on_event); // anytime.rs
        }
        if self.relaxing() {
            self.relax_pending(on_event); // relax.rs
            self.harden();
            return None;
        }
        self.harden();
        if everything_assumed {
            // The model satisfies every live term, so its cost is the lower bound (the
            // invariant at the top of this file); `record_model` priced it.
            debug_assert_eq!(self.best_cost(), Some(self.lb), "exactness broken");
            return Some(if self.best_cost() == Some(self.lb) {
                MaxSatStatus::Optimum
            } else {
                MaxSatStatus::Satisfiable
            });
        }
        self.next_stratum(); // stratify.rs
        self.adapt(); // am1.rs
        None
    }

    /// An UNSAT answer of the main call: shrink the core (`core.rs`), relax it (`relax.rs`),
    /// harden. `Some` when the core is empty: the hard clauses are unsatisfiable.
    fn on_core(&mut self, on_event: &mut dyn FnMut(Event<'_>)) -> Option<MaxSatStatus> {
        let core = self.solver.failed_assumptions().to_vec();
        if core.is_empty() {
            // The hard clauses (with the facts and hardened terms added since) are
            // unsatisfiable. Facts are implied and hardening keeps the best model's extension,
            // so with a model in hand this cannot happen.
            debug_assert!(self.best.is_none(), "hardening lost the best model");
            return Some(match self.best {
                Some(_) => MaxSatStatus::Satisfiable,
                None => MaxSatStatus::Unsatisfiable,
            });
        }
        let core = self.shrink(core);
        self.process_core(&core, on_event);
        self.harden();
        None
    }

    fn interrupted(&self) -> MaxSatStatus {
        if self.best.is_some() {
            MaxSatStatus::Satisfiable
        } else {
            MaxSatStatus::Unknown
        }
    }

    pub(super) fn report_lb(&mut self, on_event: &mut dyn FnMut(Event<'_>)) {
        if self.lb > self.reported_lb {
            self.reported_lb = self.lb;
            on_event(Event::LowerBound(self.lb));
        }
    }

    /// One engine call within what is left of the budget (and within `cap` conflicts, for
    /// probes). Answers `Unknown` without calling when the budget is spent.
    pub(super) fn call(&mut self, assumptions: &[Lit], cap: Option<u64>) -> Status {
        let st = self.solver.stats();
        let Budget {
            conflicts,
            propagations,
        } = self.limits.budget.left_after(
            st.conflicts.saturating_sub(self.limits.start_conflicts),
            st.propagations
                .saturating_sub(self.limits.start_propagations),
        );
        if conflicts == Some(0) || propagations == Some(0) {
            return Status::Unknown;
        }
        let conflicts = match (conflicts, cap) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let status = self.solver.solve(
            assumptions,
            Budget {
                conflicts,
                propagations,
            },
        );
        if status == Status::Unsat
            && let Some(proof) = &mut self.proof
        {
            let failed = self.solver.failed_assumptions().to_vec();
            if !failed.is_empty() {
                proof.core(&mut self.solver, &failed);
            }
        }
        status
    }

    /// An improving probe from outside the core-guided loop: one engine call under `keep`
    /// (literals that must hold) and, for each group of `wants`, "at least one of its literals
    /// holds", within `conflicts`. Each of these is a clause set switched on for this call only
    /// by a fresh literal (made false for good afterwards), so nothing outlives the call. A
    /// model it finds is priced on the original instance and, when cheaper than the best,
    /// stored and reported as [`Event::Improved`] like every other (and the engine's saved
    /// phases seeded with it). On `Unsat`, `failed` receives the indices of the groups in the
    /// engine's failed assumptions (a subset of `wants` that cannot hold together with `keep`;
    /// empty when `keep` alone cannot).
    ///
    /// Why: a caller that knows the instance's shape (a grid's cells) can search
    /// neighbourhoods of the best model — keep the wishes it meets far away, ask for one more
    /// in each of several small windows — where the core-guided loop improves its upper bound
    /// only when it reaches the optimum; the engine's learned clauses serve both. Sound
    /// whatever the arguments: the switched clauses are off outside the call and nothing the
    /// loop proved depends on the probe. It may run between two [`Oll::solve`] calls; after
    /// the final answer, or when a proof is being written (the switched clauses are not
    /// logged), it answers `Unknown` without searching.
    pub fn probe(
        &mut self,
        keep: &[Lit],
        wants: &[Vec<Lit>],
        conflicts: u64,
        failed: &mut Vec<usize>,
        on_event: &mut dyn FnMut(Event<'_>),
    ) -> Status {
        failed.clear();
        if self.done.is_some() || self.proof.is_some() {
            return Status::Unknown;
        }
        // `keep` as binary clauses under one switch: one decision for them all (thousands of
        // assumptions would be thousands of decision levels, each a round of a connected
        // propagator).
        let mut switches = Vec::with_capacity(wants.len() + 1);
        if !keep.is_empty() {
            let act = self.solver.new_var().pos();
            for &l in keep {
                self.solver.add_clause(&[!act, l]);
            }
            switches.push(act);
        }
        let first_want = switches.len();
        for group in wants {
            let act = self.solver.new_var().pos();
            let mut clause = vec![!act];
            clause.extend_from_slice(group);
            self.solver.add_clause(&clause);
            switches.push(act);
        }
        let status = self.solver.solve(
            &switches,
            Budget {
                conflicts: Some(conflicts),
                propagations: None,
            },
        );
        match status {
            Status::Sat => {
                let before = self.best_cost();
                self.record_model(on_event);
                if self.best_cost() != before
                    && let Some((_, best)) = &self.best
                {
                    self.solver.seed_phases(best);
                }
            }
            Status::Unsat => {
                for (i, &act) in switches.iter().enumerate().skip(first_want) {
                    if self.solver.failed(act) {
                        failed.push(i - first_want);
                    }
                }
            }
            Status::Unknown => {}
        }
        self.retired.extend(switches);
        if self.retired.len() >= RETIRE_BATCH {
            self.retire();
        }
        let engine = self.solver.stats();
        self.stats.conflicts = engine.conflicts;
        self.stats.propagations = engine.propagations;
        self.stats.decisions = engine.decisions;
        status
    }

    /// Makes the switches of past probes false for good (`probe`): a unit clause each, which
    /// lets the engine delete their clauses at its next simplification. Batched, because each
    /// batch of units costs a simplification of the whole formula (on a 64×64 grid it was most
    /// of a probe's time when every probe paid it); until then a retired switch is an
    /// unconstrained variable whose clauses any model satisfies by making it false.
    fn retire(&mut self) {
        for act in std::mem::take(&mut self.retired) {
            self.solver.add_clause(&[!act]);
        }
    }

    /// Prices the engine's model on the original instance; stores and reports it when it is
    /// the best so far.
    pub(super) fn record_model(&mut self, on_event: &mut dyn FnMut(Event<'_>)) {
        // A first pass over the soft clauses with the engine's values, cheap enough for every
        // SAT answer; the stored model is then checked by the referee, `Wcnf::cost`.
        let mut cost = 0u64;
        for (w, clause) in &self.wcnf.soft {
            if *w > 0 && !clause.iter().any(|&l| self.solver.value(l) == Some(true)) {
                cost = cost.saturating_add(*w);
            }
        }
        if matches!(&self.best, Some((ub, _)) if cost >= *ub) {
            return;
        }
        let Some(mut model) = self.solver.model() else {
            return;
        };
        model.truncate(self.num_vars);
        model.resize(self.num_vars, false);
        if self.wcnf.cost(&model) != Some(cost) {
            debug_assert!(false, "the engine's model fails the referee");
            return;
        }
        self.stats.improvements += 1;
        if let Some(proof) = &mut self.proof {
            proof.solution(&mut self.solver, &model, cost, &self.flat, &self.wcnf);
        }
        let (c, m) = self.best.insert((cost, model));
        on_event(Event::Improved { cost: *c, model: m });
    }

    /// Stores and reports `model` (one value per instance variable, from outside the engine)
    /// when the referee prices it below the best so far; returns whether it did.
    pub(super) fn offer_model(
        &mut self,
        mut model: Vec<bool>,
        on_event: &mut dyn FnMut(Event<'_>),
    ) -> bool {
        model.resize(self.num_vars, false);
        let Some(cost) = self.wcnf.cost(&model) else {
            return false;
        };
        if matches!(&self.best, Some((ub, _)) if cost >= *ub) {
            return false;
        }
        self.stats.improvements += 1;
        if let Some(proof) = &mut self.proof {
            proof.solution(&mut self.solver, &model, cost, &self.flat, &self.wcnf);
        }
        let (c, m) = self.best.insert((cost, model));
        on_event(Event::Improved { cost: *c, model: m });
        true
    }
}
