//! Lucky phases: before the first conflict, try a handful of fixed assignment orders that
//! satisfy whole classes of formulas outright, each one a single descent that gives up at the
//! first decision whose both polarities conflict (at its first conflict with `lucky_flip` off).
//!
//! Why: many encodings are satisfied by "everything false" or "everything true" once unit
//! propagation has filled in the forced values (a count or a grid with a budget of open cells,
//! a Horn-like planning encoding). The CDCL search reaches such models only after its decision
//! heuristic has wandered through conflicts; on the pure-count cave level of `grim-encode`
//! (64×64 cells, sequential-counter counts) grim searched 30 s without an answer where
//! CaDiCaL's lucky phase answered in 0.18 s. A strategy costs one propagation of the trail
//! at most (about two with flips), and all of them together a few descents, so they are tried unconditionally once.
//!
//! The technique is CaDiCaL's `lucky` phase (Biere, "CaDiCaL at the SAT Race 2019", and the
//! Kissat/CaDiCaL system descriptions since). Ours tries six strategies, in this order, each
//! deciding the unassigned, non-eliminated variables and propagating after every decision:
//! index order with every decision false, then true; reverse index order, false then true;
//! then the two Horn strategies — walk the irredundant clauses in order, and for each one not
//! yet satisfied decide its first unassigned positive (respectively negative) literal, giving
//! up if it has none, then decide everything left false (respectively true). CaDiCaL's
//! separate "trivially satisfiable" checks are left out: when every clause has a negative
//! literal, the first strategy finds the same model (propagation never forces a variable
//! true), and likewise for positive literals and the second.
//!
//! A decision that conflicts is flipped once (`lucky_flip`, on by default): the descent
//! undoes it, decides the other polarity, and gives up only when that conflicts too — the
//! later CaDiCaL's "discrepancy" descent. On the exported 32×32 dungeon of `grim-encode`
//! (issue 40) backward-true succeeds with 9,464 flips and fails without them.
//!
//! Deviations and guards: lucky runs once per solver, at the start of the first `solve`,
//! before the first elimination — on the formula as given, because the simple orders follow
//! the encoding: on the cave level above, forward-false finds a model in 0.2 s on the input
//! and fails after elimination (19,223 variables eliminated). It does not run when the call has
//! assumptions or an external propagator is connected, and never once the user has set or
//! seeded a phase (`set_phase`, `seed_phases`) — level generation draws per-cell wishes with
//! `set_phase` and expects the search to honour them, OLL seeds its best model, and a lucky
//! all-false model would ignore both. A failed strategy is undone without saving its
//! phases, so the search starts exactly as it would have without it; a successful one leaves
//! the complete assignment on the trail and `solve` answers Sat without searching (the model
//! is checked like any other). Lucky adds no clause, so
//! proofs are unaffected.

#![forbid(unsafe_code)]

use crate::clause::NO_REASON;
use crate::solver::Solver;
use crate::types::{L_TRUE, L_UNDEF, Lit, Var};

/// Whether lucky has had its one chance. Written here, and through [`Lucky::forgo`] by the
/// phase API in `solver.rs`.
#[derive(Default)]
pub(crate) struct Lucky {
    /// Set at the first `solve` that asks, whether or not the strategies applied, or when the
    /// user expressed phases (`forgo`).
    tried: bool,
}

impl Lucky {
    /// Gives up lucky's chance: the user set or seeded phases, and a lucky model would ignore
    /// them (module doc).
    pub(crate) fn forgo(&mut self) {
        self.tried = true;
    }
}

/// One fixed assignment order (module doc).
#[derive(Clone, Copy)]
enum Strategy {
    /// Every variable in index order, with this polarity.
    Forward(bool),
    /// Every variable in reverse index order, with this polarity.
    Backward(bool),
    /// Each unsatisfied irredundant clause satisfied by its first unassigned literal of this
    /// polarity, then every variable left with the other polarity.
    Horn(bool),
}

/// The largest literal-weighted mean clause length lucky descends on
/// ([`Solver::lucky_too_costly`]): far above the few dozen of real encodings, far below a
/// clause of millions of literals.
const LUCKY_MEAN_LENGTH: u128 = 1000;

/// The strategies in the order they are tried.
const STRATEGIES: [Strategy; 6] = [
    Strategy::Forward(false),
    Strategy::Forward(true),
    Strategy::Backward(false),
    Strategy::Backward(true),
    Strategy::Horn(true),
    Strategy::Horn(false),
];

impl Solver {
    /// Whether lucky's one chance is still open: the predicate `solve` tests before the first
    /// elimination and search.
    #[inline]
    pub(crate) fn lucky_due(&self) -> bool {
        !self.lucky.tried && self.opts.lucky
    }

    /// Tries the strategies in order; the first that reaches a complete conflict-free
    /// assignment leaves it on the trail and answers true (`solve` then reads the model off
    /// the trail), a failed one is undone to level 0 without saving phases. False also when
    /// lucky does not apply (module doc) or the root propagation refutes the formula (`ok`
    /// is then off). Pre: level 0.
    pub(crate) fn lucky(&mut self) -> bool {
        self.lucky.tried = true;
        if !self.assumptions.is_empty()
            || self.external.is_some()
            || self.trail.decision_level() != 0
            || self.stats.conflicts != 0
            || self.lucky_too_costly()
            || !self.propagate_root()
        {
            return false;
        }
        for strategy in STRATEGIES {
            if self.limits.exhausted(&self.stats) {
                return false;
            }
            self.stats.lucky_attempts += 1;
            if self.lucky_descend(strategy) {
                self.stats.lucky_models += 1;
                return true;
            }
            self.undo_to(0, false);
        }
        false
    }

    /// Whether the formula has clauses so long that a descent could cost quadratic time:
    /// when a fixed order falsifies a long clause's literals one by one, every falsified watch
    /// rescans the clause for a replacement, `len²/2` literal visits in all. The
    /// literal-weighted mean clause length `Σ len² / Σ len` bounds that cost per literal of
    /// the formula; above `LUCKY_MEAN_LENGTH` lucky is skipped. (The `hostile` CLI test's
    /// single clause of two million literals took minutes in a debug build; elimination, which
    /// comes next, removes its pure literals at once.)
    fn lucky_too_costly(&self) -> bool {
        let (mut sum, mut sum_sq) = (0u128, 0u128);
        for &c in &self.clauses.originals {
            let len = self.arena.len(c) as u128;
            sum += len;
            sum_sq += len * len;
        }
        sum_sq > LUCKY_MEAN_LENGTH * sum.max(1)
    }

    /// One strategy's descent; true when every variable ended assigned without a conflict.
    fn lucky_descend(&mut self, strategy: Strategy) -> bool {
        let n = self.trail.num_vars();
        match strategy {
            Strategy::Forward(positive) => (0..n).all(|v| self.lucky_decide_var(v, positive)),
            Strategy::Backward(positive) => {
                (0..n).rev().all(|v| self.lucky_decide_var(v, positive))
            }
            Strategy::Horn(positive) => {
                // By index: deciding propagates, which reorders literals inside clauses (the
                // watches) but never the list itself.
                for i in 0..self.clauses.originals.len() {
                    let c = self.clauses.originals[i];
                    if self.arena.is_deleted(c) {
                        continue;
                    }
                    let lits = self.arena.lits(c);
                    if lits.iter().any(|&l| self.trail.value(l) == L_TRUE) {
                        continue;
                    }
                    let pick = lits
                        .iter()
                        .copied()
                        .find(|&l| l.is_positive() == positive && self.trail.value(l) == L_UNDEF);
                    match pick {
                        Some(l) if self.lucky_decide(l) => {}
                        _ => return false,
                    }
                }
                (0..n).all(|v| self.lucky_decide_var(v, !positive))
            }
        }
    }

    /// Decides `v` with the given polarity unless it is assigned or eliminated; false on a
    /// conflict.
    fn lucky_decide_var(&mut self, v: usize, positive: bool) -> bool {
        if self.trail.var_value(v) != L_UNDEF || self.elim.is_eliminated(v) {
            return true;
        }
        self.lucky_decide(Var::from_index(v).lit(positive))
    }

    /// Decides `l` on a new level and propagates; on a conflict (and with the `lucky_flip`
    /// option, on by default), undoes that level and tries `¬l` instead (one discrepancy per decision, as CaDiCaL's later lucky phases do); false
    /// when both conflict. Why the second try: the export of the 32×32 dungeon
    /// (`grim-encode`, issue 40) is satisfied by the backward all-true descent only with
    /// 8,873 such flips — CaDiCaL answers it without a conflict that way, and grim searched
    /// 13,000 conflicts (4–5 s) without them.
    fn lucky_decide(&mut self, l: Lit) -> bool {
        let level = self.trail.decision_level();
        self.trail.new_decision_level();
        self.trail.assign(l, NO_REASON);
        if self.propagate() == NO_REASON {
            return true;
        }
        if !self.opts.lucky_flip {
            return false;
        }
        self.undo_to(level, false);
        self.stats.lucky_flips += 1;
        self.trail.new_decision_level();
        self.trail.assign(!l, NO_REASON);
        self.propagate() == NO_REASON
    }
}
