//! grim-maxsat: core-guided weighted MaxSAT — OLL on the grim engine, engineered the way RC2
//! is — and the Problem API above it ([`problem`]: hard rules and weighted wishes, solved to a
//! proven optimum and checked by a referee).
//!
//! The engine and formula types these APIs speak in ([`Budget`], [`Terminator`], [`Solver`],
//! [`Status`], [`Options`], [`Lit`], [`Var`], [`ClauseSink`], [`Cnf`], [`Wcnf`]) are
//! re-exported, and so are the engine crate itself ([`grim_solver`]) and the cardinality
//! encodings OLL builds on ([`grim_encodings`]), so one dependency is enough to optimise.
//!
//! ```
//! use grim_maxsat::{Budget, Lit, MaxSatStatus, Oll, OllOptions, Wcnf};
//!
//! // Hard: ¬a ∨ ¬b. Soft: a (weight 3), b (weight 2). The optimum gives up b.
//! let lit = |d: i64| Lit::from_dimacs(d).unwrap();
//! let mut w = Wcnf::new(2);
//! w.hard.push(vec![lit(-1), lit(-2)]);
//! w.add_soft(3, &[lit(1)]);
//! w.add_soft(2, &[lit(2)]);
//! let mut oll = Oll::new(&w, OllOptions::default()).unwrap();
//! let status = oll.solve(Budget::UNLIMITED, &mut |_| {});
//! assert_eq!(status, MaxSatStatus::Optimum);
//! assert_eq!(oll.best_cost(), Some(2));
//! assert_eq!(w.cost(oll.best_model().unwrap()), Some(2));
//! ```
//!
//! # The algorithm
//! Every soft clause becomes an *objective term*: a literal the optimiser would like true (the
//! soft literal itself for a unit soft, otherwise a fresh selector `s` with the hard clause
//! `C ∨ ¬s`) and a weight. The engine is asked to satisfy all terms of the current stratum as
//! assumptions. A SAT answer is a model (priced on the original instance with
//! [`Wcnf::cost`](crate::Wcnf::cost)); an UNSAT answer names a core of terms, at least one
//! of which every solution violates. The core's minimum weight `w` is added to the lower bound
//! and taken off each term; the violation literals of the core go into a totalizer whose output
//! "at most one is violated" becomes a new term of weight `w` (OLL: Andres, Kaufmann, Matheis &
//! Schaub, ICLP 2012, doi:10.4230/LIPIcs.ICLP.2012.211; Morgado, Dodaro & Marques-Silva, CP
//! 2014, doi:10.1007/978-3-319-10428-7_41). When "at most k" of a totalizer is itself in a core,
//! "at most k + 1" joins the terms with the totalizer's weight. The lower bound and the cost of
//! the best model meet at the optimum.
//!
//! On top of that, as in RC2 (Ignatiev, Morgado & Marques-Silva, JSAT 11(1) 2019,
//! doi:10.3233/SAT190116), each technique in its own file:
//! - `stratify`: diversity-based stratification (assume the heavy terms first);
//! - `harden`: terms heavier than the gap between the bounds become hard clauses;
//! - `core`: core trimming, deletion-based minimisation and exhaustion;
//! - `relax`: the totalizers over cores, weight-aware core extraction (delayed relaxation);
//! - `am1`: at-most-one groups among the soft literals, found by unit propagation;
//! - `symmetry`: one variable fixed when flipping every variable maps the instance onto itself;
//! - `equiv`: terms on literals the hard clauses make equal or opposite, merged;
//! - `sle`: subsumed label elimination, soft literals made hard before the search;
//! - `flat`: the instance's clauses normalised once, read by `am1`, `satlike` and `bnb`;
//! - `anytime`: when the lower bound stalls, local search (`satlike`) improves the upper bound;
//! - `bnb`: branch and bound with unit-propagation lower bounds, sharing the time with the
//!   core-guided search on small instances, where it proves what cores cannot (random
//!   Max-2/3-SAT, max-cut, spin glasses);
//! - `oll`: the [`Oll`] state and the main loop;
//! - `veripb`: VeriPB proofs of the answer ([`Oll::with_proof`], [`VeriPbInput`]), checked by
//!   `veripb --wcnf`: models, the engine's clauses, cores, totalizers, hardening, the bound;
//! - `problem`: the Problem API — counts, clauses, conjunctions and implications, hard or
//!   weighted — encoded into a [`Wcnf`] and solved by [`Oll`].
//!
//! Determinism: the same instance and options give the same events, bounds and final model on
//! every run; nothing iterates over a hash map, and cores are sorted before use (the proof
//! logger's maps are only looked up, and the values it collects are sorted before written). The terminate
//! flag (a wall-clock limit or a signal) is the one documented exception.

#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod am1;
mod anytime;
mod bnb;
mod core;
mod equiv;
mod flat;
mod harden;
mod oll;
mod relax;
mod satlike;
mod sle;
mod stratify;
mod symmetry;
mod upcore;
mod veripb;

pub mod problem;

use std::fmt;

/// The cardinality encodings, for everything not re-exported here.
pub use grim_encodings;
pub use grim_formula::{ClauseSink, Cnf, Wcnf};
/// The engine, for everything not re-exported below.
pub use grim_solver;
pub use grim_solver::{Budget, Lit, Options, Solver, Status, Terminator, Var};
pub use oll::Oll;
pub use veripb::VeriPbInput;

/// The outcome of [`Oll::solve`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MaxSatStatus {
    /// The best model is optimal: the lower bound met its cost.
    Optimum,
    /// A model was found, but the budget or the terminate flag stopped the search before its
    /// optimality was proven. Calling `solve` again resumes.
    Satisfiable,
    /// The hard clauses alone are unsatisfiable: no model exists whatever it costs.
    Unsatisfiable,
    /// The search stopped before any model was found. Nothing was proven.
    Unknown,
}

grim_solver::options_table! {
    /// The tunables of [`Oll`], one row each of the same options table as the engine's
    /// ([`grim_solver::options_table!`]: name, default, range, doc; `grim-sat --opt NAME=VALUE`
    /// sets them and `--help-options` lists them). `Default` gives the best measured
    /// configuration.
    ///
    /// Every switch can be turned off on its own: the brute-force tests run every feature alone
    /// and all of them off, so each stays correct independently.
    pub struct OllOptions {
        /// Options of the SAT engine underneath (their own table, [`grim_solver::Options`]).
        solver: grim_solver::Options = grim_solver::Options::default(),
    }
    // Renamed by issue 45 (a sub-option carries its file's prefix); the old names still work
    // in `set` (and so in `grim-sat --opt`) until the next release.
    [aliases: "stall_conflicts" => anytime_stall_conflicts, "first_model" => anytime_first_model]
    /// Diversity-based stratification: assume the heaviest terms first. Go down a level on every
    /// SAT answer (Ansótegui, Bonet, Gabàs & Levy, SAT 2012; RC2's `div`). Only weights matter: on
    /// unweighted instances there is one level whatever this says.
    stratify: bool = true, [0, 1];
    /// Hardening: a term heavier than (best cost − lower bound) becomes a hard unit clause. No
    /// improving solution can violate it.
    hardening: bool = true, [0, 1];
    /// Core exhaustion (RC2's `exhaust`, "cover optimisation") of each new totalizer. After a
    /// totalizer is built, raise its bound while the engine proves the lower one impossible.
    exhaust: bool = true, [0, 1];
    /// Conflict budget of each exhaustion call (0 = none). An exhaustion call that runs out keeps
    /// the bound reached so far. None, as RC2: a cap of 1000 turned 28.6 s into 48.2 s (CPU) on 14
    /// `maxsat-main` instances (wsc_220_120_4_50_1: 3.5 → 10.8 s) — the UNSAT answers it cuts short
    /// are the expensive and valuable ones.
    exhaust_conflicts: u64 = 0, [0, u64::MAX];
    /// Seed the engine's saved phases with the best model before every exhaustion call. Through
    /// [`grim_solver::Solver::seed_phases`]: a model that violates few terms of the core is often
    /// near that one, and a raise that fails ends with it found sooner. Over all of `maxsat-main`
    /// with engine seeds 0, 1 and 2: 6.65M → 6.35M conflicts and 170.4 → 163.2 s CPU in the mean
    /// (rmax2_42_420_1 with seeds 1 and 2: 45 → 39 and 35 s); with seed 0, the default, no change
    /// beyond noise (148.5 → 150.2 s).
    exhaust_phases: bool = true, [0, 1];
    /// Deletion-based core minimisation: the conflict budget of each deletion probe. The first
    /// probe that runs out ends the minimisation. 0 turns it off. RC2 uses 1000; on 14
    /// `maxsat-main` instances 100 measured best (28.6 s CPU, against 36.0 for 50, 33.6 for 300,
    /// 37.1 for 1000 and 57.9 with minimisation off).
    minimize_conflicts: u64 = 100, [0, u64::MAX];
    /// Core trimming: re-solve under the core's own literals up to this many times (RC2's `trim`).
    /// It stops when the core stops shrinking. 0 turns it off.
    trim: u32 = 0, [0, 1000];
    /// Weight-aware core extraction: delay new cores' totalizers until the next SAT answer. Berg &
    /// Järvisalo, CP 2017, doi:10.1007/978-3-319-66158-2_42: cheap disjoint cores are collected
    /// first. On by measurement: off, the same 14 instances took 156 s instead of 48 s (one
    /// timeout); the unweighted max-cut and Max-2-SAT families gain most.
    wce: bool = true, [0, 1];
    /// Conflicts a main call may spend while `wce` delays cores; then they are relaxed at once.
    /// Their totalizers are built and the search goes on with them; 0: no cap, the call runs
    /// until its SAT answer. Only on instances with hard clauses (`Oll::wce_cap` says why). Why:
    /// the search for a core disjoint from the delayed ones can be far harder than the same
    /// search with their totalizers in place — `enclosure-soft-12`'s exported WCNF, seed 1, sat
    /// at the lower bound 43 (optimum 44) past 400k conflicts, where without `wce` the next core
    /// took 703. Measured in `benches/results/maxsat-wce-2026-12-07.md`.
    wce_conflicts: u64 = 5_000, [0, u64::MAX];
    /// Replace groups of soft literals of which at most one can be true by one term each. RC2's
    /// `adapt`; the groups are detected before the search.
    am1: bool = true, [0, 1];
    /// Fix one variable when the instance is complement-symmetric (`symmetry.rs`). That is when
    /// flipping every variable maps it onto itself, as max-cut does.
    symmetry: bool = true, [0, 1];
    /// Work limit of the at-most-one detection, in watch-list visits of its probes. Over the whole
    /// instance; past it the groups found so far are used.
    am1_effort: u64 = 20_000_000, [0, u64::MAX];
    /// Look for cores by unit propagation before asking the search (`upcore.rs`). Failed literals
    /// give cores, and the smallest are relaxed first: small cores make a small reformulation. Over
    /// `maxsat-main` with engine seeds 0, 1 and 2: 163.2 → 124.9 s CPU in the mean, random
    /// Max-2-SAT and max-cut 10–35× faster (the figures per family are in `upcore.rs`).
    up_cores: bool = true, [0, 1];
    /// Flips of each local-search burst of the anytime phase (`anytime.rs`). Scaled up with the
    /// slice, run once after the first model and whenever a main call spends its conflict slice. 0
    /// turns the phase off. On for the runs that are cut off: on the six instances of the real set
    /// that no solver here finishes in 60 s it is what leaves grim with a good solution (figures in
    /// `anytime.rs`). Its price on `maxsat-main`, engine seed 0, all proved: 105.7 s CPU without
    /// it, 116.4 s with it (the searches move, as under any perturbation; `compare.py` timed 122.5
    /// s both before and with the phase).
    anytime_flips: u64 = 100_000, [0, u64::MAX];
    /// The first conflict slice of a main engine call once a model exists (`anytime.rs`). It
    /// doubles at every stall. 0 lets main calls run unsliced (and the phase run only after the
    /// first model). Called `stall_conflicts` until issue 45; `set` (and so `grim-sat --opt`)
    /// still takes that name until the next release.
    anytime_stall_conflicts: u64 = 20_000, [0, u64::MAX];
    /// Find a model of the hard clauses before the first core-guided call (`anytime.rs`). Within
    /// one `anytime_stall_conflicts` slice: an upper bound from the start, for hardening and for a
    /// run cut off early. The anytime phase and the branch and bound need it and run it whatever this says;
    /// alone it pays on soft grids, whose propagator turns those two off: showcase-12
    /// `--preferences soft`, seeds 0–9, 76.9k engine conflicts in all with it against 128.9k
    /// without (seed 2: 44k against 98k; the others within ±25%). Called `first_model` until
    /// issue 45; `set` still takes that name until the next release.
    anytime_first_model: bool = true, [0, 1];
    /// Freeze every objective term's variable against bounded variable elimination. Elimination
    /// then works on the other variables only and never has to be undone when a term is assumed for
    /// the first time (a lighter stratum, a totalizer output). MaxPre's "BVE on non-objective
    /// variables" (Korhonen et al., SAT 2017). Measured on `maxsat-main`, engine seed 0: 4.53M →
    /// 4.33M conflicts, 119.2 → 116.4 s CPU (a small gain, at the noise level); the grid levels do
    /// not slow down (showcase-12 0.39 → 0.32 s, dungeon-32 1.87 → 1.76 s), unlike freezing every
    /// instance variable (stop 12).
    freeze_terms: bool = true, [0, 1];
    /// Subsumed label elimination before the search (`sle.rs`). Off: measured not to pay. It
    /// fires on 2 of the 42 real instances (spot5, 1 and 8 labels, both solved in under 0.1 s
    /// either way) and leaves `maxsat-main` as it was (seed 0: 4.33M conflicts with it, 4.35M
    /// without, 116.4 s both).
    sle: bool = false, [0, 1];
    /// Merge soft terms that two hard binary clauses make equivalent or opposite (`equiv.rs`). Off:
    /// measured not to pay. It merges one pair on the real set (bwt3cc, solved in milliseconds
    /// either way) and none on `maxsat-main` (identical conflicts with and without).
    equiv: bool = false, [0, 1];
    /// Merge soft clauses that are the same set of literals into one term of their summed
    /// weight. Off while a VeriPB proof is written (the checker's objective has one selector
    /// per clause of the file, and the merge is not logged); `grim-sat --opt merge_softs=0`
    /// gives the same search without a proof, which is how the proof's own cost is measured.
    /// Unit soft clauses on one literal are always merged.
    merge_softs: bool = true, [0, 1];
    /// Work of the first branch-and-bound burst (`bnb.rs`), in clause visits. 0 turns the branch
    /// and bound off. Once a model exists the two searches share the time: a burst is due when the
    /// core-guided search has spent as many engine conflicts as the burst is worth (4000 visits a
    /// conflict, about equal time), and every burst doubles.
    bnb_ticks: u64 = 2_000_000, [0, u64::MAX];
    /// The branch and bound runs only on instances of at most this many literals. Hard and soft
    /// clauses together: its every node costs time linear in the instance.
    bnb_max_literals: u64 = 20_000, [0, u64::MAX];
}

impl OllOptions {
    /// Every technique off: plain OLL with totalizers (the baseline the tests compare against).
    pub fn plain() -> OllOptions {
        OllOptions {
            solver: grim_solver::Options::default(),
            stratify: false,
            hardening: false,
            exhaust: false,
            exhaust_conflicts: 0,
            exhaust_phases: false,
            minimize_conflicts: 0,
            trim: 0,
            wce: false,
            wce_conflicts: 0,
            am1: false,
            symmetry: false,
            am1_effort: 0,
            up_cores: false,
            anytime_flips: 0,
            anytime_stall_conflicts: 0,
            anytime_first_model: false,
            freeze_terms: false,
            sle: false,
            equiv: false,
            // A normalisation rather than a technique: plain OLL has always merged.
            merge_softs: true,
            bnb_ticks: 0,
            bnb_max_literals: 0,
        }
    }
}

/// What [`Oll::solve`] reports while it runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event<'a> {
    /// A model cheaper than every earlier one: its cost (recomputed on the original instance)
    /// and its values over the instance's variables.
    Improved {
        /// The cost, as [`Wcnf::cost`](crate::Wcnf::cost) computes it.
        cost: u64,
        /// One value per variable of the instance.
        model: &'a [bool],
    },
    /// The proven lower bound rose to this value.
    LowerBound(u64),
}

/// Why an instance could not be handed to [`Oll`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MaxSatError {
    /// The soft weights add up past `u64::MAX`; costs could not be represented.
    WeightOverflow {
        /// The index (in input order) of the soft clause whose weight made the sum overflow.
        soft_index: usize,
    },
    /// The instance names more variables than the engine can hold.
    TooManyVariables {
        /// The number of variables the instance needs.
        num_vars: usize,
    },
}

impl fmt::Display for MaxSatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MaxSatError::WeightOverflow { soft_index } => write!(
                f,
                "the soft clause weights overflow 64 bits at soft clause {} (0-based, input \
                 order); scale the weights down",
                soft_index
            ),
            MaxSatError::TooManyVariables { num_vars } => write!(
                f,
                "the instance needs {num_vars} variables; the engine holds at most {}",
                grim_solver::Var::MAX_INDEX as u64 + 1
            ),
        }
    }
}

impl std::error::Error for MaxSatError {}

grim_solver::stats_table! {
    /// Counters of one [`Oll`] run (cumulative over `solve` calls): one row each of OLL's
    /// statistics table ([`OllStats::TABLE`], beside the options table above; field, printed
    /// label, doc), which `grim-sat --stats` prints from, in this order.
    pub struct OllStats {
        /// Engine calls of the main loop (`oll.rs`), probes and exhaustion excluded.
        sat_calls: "sat calls";
        /// Main-loop calls answered SAT (`oll.rs`).
        sat_answers: "sat answers";
        /// Cores processed, unit cores included (`relax.rs`).
        cores: "cores";
        /// Cores of one term, turned into hard units (`relax.rs`).
        unit_cores: "unit cores";
        /// Sum of the sizes of the processed cores, after trimming and minimisation (`relax.rs`).
        core_literals: "core literals";
        /// The largest processed core (`relax.rs`).
        max_core: "largest core";
        /// Core literals removed by trimming (`core.rs`).
        trimmed: "trimmed";
        /// Core literals removed by minimisation (`core.rs`).
        minimized: "minimized";
        /// Engine calls made by trimming and minimisation (`core.rs`).
        probe_calls: "probe calls";
        /// Minimisation probes that ran out of their conflict budget (`core.rs`).
        probe_unknown: "probe unknown";
        /// Engine conflicts spent in trimming and minimisation probes (`core.rs`).
        probe_conflicts: "probe conflicts";
        /// Engine conflicts spent in exhaustion calls (`core.rs`).
        exhaust_conflicts: "exhaust conflicts";
        /// Totalizer bounds raised by exhaustion (`core.rs`).
        exhausted: "exhausted";
        /// Totalizers built (`relax.rs`).
        totalizers: "totalizers";
        /// Totalizer outputs activated because the previous bound was in a core (`relax.rs`).
        outputs_activated: "outputs activated";
        /// Cores whose relaxation weight-aware core extraction delayed (`relax.rs`).
        delayed: "delayed cores";
        /// Main calls that spent `wce_conflicts` while delayed cores waited, after which the
        /// delayed totalizers were built (`oll.rs`).
        wce_stalls: "wce stalls";
        /// Terms made hard by hardening (`harden.rs`).
        hardened: "hardened";
        /// Strata (stratification levels) entered (`stratify.rs`).
        strata: "strata";
        /// 1 when the complement symmetry was broken by fixing a variable (`symmetry.rs`).
        symmetry_units: "symmetry units";
        /// At-most-one groups replaced (`am1.rs`).
        am1_groups: "am1 groups";
        /// Terms in those groups (`am1.rs`).
        am1_terms: "am1 terms";
        /// Soft clauses merged into an earlier identical one, or complementary unit softs
        /// cancelled (`oll.rs`).
        merged_softs: "merged softs";
        /// Improving models found (`oll.rs`).
        improvements: "improvements";
        /// Cores taken from unit-propagation probes (`up_cores`), before minimisation.
        up_cores: "up cores";
        /// Literals probed for them.
        up_probes: "up probes";
        /// Engine propagations spent probing (included in `propagations`).
        up_propagations: "up propagations";
        /// Pairs of terms merged as equivalent or opposite literals (`equiv.rs`).
        equiv_merged: "equivalent merged";
        /// Terms made hard by subsumed label elimination (`sle.rs`).
        sle_hardened: "labels eliminated";
        /// Main calls that spent their conflict slice (`anytime.rs`).
        stalls: "stalls";
        /// Local-search bursts run (`anytime.rs`).
        ls_runs: "local search runs";
        /// Flips made by the local-search bursts (`anytime.rs`).
        ls_flips: "local search flips";
        /// Local-search bursts that improved the best model (`anytime.rs`).
        ls_improvements: "local search wins";
        /// Branch-and-bound bursts run (`bnb/mod.rs`).
        bnb_runs: "bnb bursts";
        /// Branch-and-bound work, in clause visits (`bnb/mod.rs`).
        bnb_ticks: "bnb ticks";
        /// Branch-and-bound nodes visited (`bnb/mod.rs`).
        bnb_nodes: "bnb nodes";
        /// Branch-and-bound models that improved the best one (`bnb/mod.rs`).
        bnb_improvements: "bnb wins";
        /// Branch-and-bound trees exhausted: proofs of optimality (`bnb/mod.rs`).
        bnb_proofs: "bnb proofs";
        /// Engine conflicts over all calls (from the engine's statistics).
        conflicts: "conflicts";
        /// Engine propagations over all calls (from the engine's statistics).
        propagations: "propagations";
        /// Engine decisions over all calls (from the engine's statistics).
        decisions: "decisions";
    }
}

#[cfg(test)]
mod options_tests {
    use super::OllOptions;

    /// The style rule "a test fails when an option is never read", for OLL's rows: each must be
    /// read as `opts.NAME` in a technique file of `maxsat/` (this file only declares them).
    #[test]
    fn every_oll_option_is_read_by_a_technique() {
        let sources = grim_testkit::sources_except(env!("CARGO_MANIFEST_DIR"), "src", "lib.rs");
        assert!(OllOptions::TABLE.len() >= 17, "the table lost rows");
        for spec in OllOptions::TABLE {
            let needle = format!("opts.{}", spec.name);
            let found = sources.match_indices(&needle).any(|(i, _)| {
                !sources[i + needle.len()..]
                    .starts_with(|c: char| c == '_' || c.is_ascii_alphanumeric())
            });
            assert!(
                found,
                "OLL option `{}` is never read (no `{needle}` in maxsat/)",
                spec.name
            );
        }
    }

    #[test]
    fn every_oll_default_round_trips_through_set_and_lies_in_its_range() {
        let defaults = OllOptions::default();
        for spec in OllOptions::TABLE {
            let text = defaults.get(spec.name).expect("every row has a getter");
            let mut o = OllOptions::plain();
            o.set(spec.name, &text)
                .unwrap_or_else(|e| panic!("default of {} rejected: {e}", spec.name));
            assert_eq!(
                o.get(spec.name),
                Some(text),
                "{} did not round-trip",
                spec.name
            );
        }
        let mut o = OllOptions::default();
        assert!(o.set("trim", "1001").is_err(), "trim's range is [0, 1000]");
        assert!(o.set("stratify", "maybe").is_err());
        assert!(
            o.set("minimize", "1").is_err(),
            "an engine row is not an OLL row"
        );
    }

    /// A renamed row's old name reaches the new row through `set` and `get`, and is no row
    /// itself (nor an engine row).
    #[test]
    fn the_old_names_of_renamed_rows_still_set_them() {
        assert!(!OllOptions::ALIASES.is_empty());
        for &(old, new) in OllOptions::ALIASES {
            assert!(
                OllOptions::TABLE.iter().any(|s| s.name == new),
                "{new} is a row"
            );
            assert!(
                !OllOptions::TABLE.iter().any(|s| s.name == old)
                    && !grim_solver::Options::TABLE.iter().any(|s| s.name == old),
                "{old} is still a row"
            );
            let mut o = OllOptions::plain();
            let value = OllOptions::default().get(new).expect("a row");
            o.set(old, &value).expect("the old name is accepted");
            assert_eq!(o.get(new), Some(value.clone()), "{old} → {new}");
            assert_eq!(o.get(old), Some(value), "get takes the old name too");
        }
    }

    /// `grim-sat --opt NAME=VALUE` looks a name up in both tables, so no name may be in both.
    #[test]
    fn no_oll_option_shares_a_name_with_an_engine_option() {
        for spec in OllOptions::TABLE {
            assert!(
                !grim_solver::Options::TABLE
                    .iter()
                    .any(|e| e.name == spec.name),
                "`{}` is a row of both tables",
                spec.name
            );
        }
    }
}
