//! The anytime phase: when the lower bound stalls, improve the upper bound.
//!
//! **Technique.** Core-guided search proves optima from below; on instances whose cores are
//! hard to find, it can run for minutes with a poor best model, and a run cut off by a limit or
//! a signal then answers with that model. Here the main engine calls run in *conflict slices*
//! (`OllOptions::anytime_stall_conflicts`, doubling after each use): a call that spends its slice
//! without an answer means the lower bound has stalled, and the phase runs a burst of local
//! search (`satlike.rs`) from the best model before the call resumes (the engine keeps its
//! learned clauses, so a resumed call loses little). The phase also runs once right after the
//! first model, so that hardening (`harden.rs`) works against a good upper bound from the
//! start — the "hardening by bounds" of MaxSAT preprocessing (MaxPre: Korhonen, Berg, Saikko &
//! Järvisalo, SAT 2017, doi:10.1007/978-3-319-66263-3_28, read to learn). Every improvement is
//! priced by the referee and reported as an `Improved` event (an `o` line in `grim-sat`), and
//! the engine's saved phases are seeded with it, so the next SAT answers start near it.
//!
//! **Effort.** A burst has `anytime_flips × slice / anytime_stall_conflicts` flips, so the walk keeps
//! a fixed share of the time as the slices double.
//!
//! **Measured** (`compare.py --timeout 60`, the 42-instance real set, grim with and without
//! `--anytime-flips 0`, `benches/results/maxsat-real-2026-12-01-grim.*`): the six instances no
//! solver here finishes in 60 s end at costs 9 / 161 / 21 / 22 / 160 / 78 with the phase and
//! none / 178 / 34 / 52 / 192 / 78 without it (HG-3SAT-V250-C1000-1, s2v120c1200-1,
//! s3v70c700-1, s3v90c800-1, maxcut-140-630-0.7-1, t5pm3-7777: all soft, so without the
//! phase's first model of the hard clauses the first highgirth model never comes). The 36
//! proved instances are proved either way (PAR-2 756.9 s against 746.7 s). On `maxsat-main`
//! (engine seed 0, every instance proved) it costs 105.7 → 116.4 s CPU in the harness, and in
//! `compare.py` the final optimiser takes 123.0 s against 125.3 s before this work
//! (`benches/results/maxsat-main-2026-12-01.*`): the searches move, as under any perturbation
//! of the engine.
//!
//! **Where ours differs.** Core-boosted linear search (Berg, Demirović & Stuckey, CP 2019) and
//! EvalMaxSAT/UWrMaxSat switch to solution-improving SAT search at a fixed point; we keep the
//! core-guided loop in charge and only interleave local search, so nothing proven is lost and
//! every lower bound stays valid.

use super::Event;
use super::oll::Oll;
use super::satlike::LocalSearch;

/// The anytime phase's state (`Oll::anytime`), written only here.
pub(super) struct Anytime {
    /// The local search, built on its first burst and kept (its dynamic weights carry over).
    ls: Option<LocalSearch>,
    /// The conflict slice of the next main call (`anytime_stall_conflicts`, doubled at every
    /// stall).
    slice: u64,
    /// The first burst after the first model is still to run (a model came from a main call,
    /// not from `first_model`, which runs its own burst).
    first_due: bool,
}

impl Anytime {
    pub(super) fn new(stall_conflicts: u64) -> Anytime {
        Anytime {
            ls: None,
            slice: stall_conflicts,
            first_due: true,
        }
    }
}

impl Oll {
    /// The conflict cap of the next main call: the current slice once a model exists (before
    /// that there is nothing for the walk to start from), none with the phase off.
    pub(super) fn main_cap(&self) -> Option<u64> {
        (self.opts.anytime_flips > 0
            && self.opts.anytime_stall_conflicts > 0
            && self.best.is_some())
        .then_some(self.anytime.slice)
    }

    /// Whether a model of the hard clauses is looked for before the first core-guided call:
    /// asked for (`anytime_first_model`), or needed by the phase or by the branch and bound.
    pub(super) fn first_model_due(&self) -> bool {
        self.opts.anytime_first_model || self.opts.anytime_flips > 0 || self.opts.bnb_ticks > 0
    }

    /// Before the first core-guided call: a model of the hard clauses alone (within one slice),
    /// and a burst of local search from it. Without it an instance whose every core is hard
    /// (random Max-3-SAT: all clauses soft) has no model at all until its optimum is proven.
    pub(super) fn first_model(&mut self, on_event: &mut dyn FnMut(Event<'_>)) {
        let cap = Some(self.opts.anytime_stall_conflicts).filter(|&c| c > 0);
        if self.call(&[], cap) == grim_solver::Status::Sat {
            self.record_model(on_event);
            self.anytime.first_due = false;
            self.anytime(on_event);
            self.harden();
        }
    }

    /// Whether the burst after the first model is due: the phase is on, and the first model
    /// came from a main call (the caller has just recorded it).
    pub(super) fn first_burst_due(&self) -> bool {
        self.anytime.first_due && self.opts.anytime_flips > 0
    }

    /// The burst after the first model (no earlier model to start from). Its caller hardens.
    pub(super) fn first_burst(&mut self, on_event: &mut dyn FnMut(Event<'_>)) {
        self.anytime.first_due = false;
        self.anytime(on_event);
    }

    /// A main call spent its slice: run the phase and double the slice.
    pub(super) fn stalled(&mut self, on_event: &mut dyn FnMut(Event<'_>)) {
        self.stats.stalls += 1;
        self.anytime(on_event);
        self.harden();
        self.anytime.slice = self.anytime.slice.saturating_mul(2);
    }

    /// One burst of local search from the best model; an improvement is reported and seeds the
    /// engine's phases. The caller hardens: only it knows when that is safe (between calls).
    pub(super) fn anytime(&mut self, on_event: &mut dyn FnMut(Event<'_>)) {
        let Some((ub, model)) = &self.best else {
            return;
        };
        if self.opts.anytime_flips == 0 {
            return;
        }
        let (ub, model) = (*ub, model.clone());
        let scale = (self.anytime.slice / self.opts.anytime_stall_conflicts.max(1)).max(1);
        let flips = self.opts.anytime_flips.saturating_mul(scale);
        let stop = self.solver.terminator();
        let flat = &self.flat;
        let ls = self
            .anytime
            .ls
            .get_or_insert_with(|| LocalSearch::new(flat));
        let before = ls.flips;
        let found = ls.improve(flat, &model, ub, self.lb, flips, &stop);
        self.stats.ls_flips += ls.flips - before;
        self.stats.ls_runs += 1;
        if let Some(m) = found
            && self.offer_model(m, on_event)
        {
            self.stats.ls_improvements += 1;
            if let Some((_, best)) = &self.best {
                self.solver.seed_phases(best);
            }
        }
    }
}
