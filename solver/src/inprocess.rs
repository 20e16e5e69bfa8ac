//! What the inprocessing techniques share: the √-spaced round schedule of subsumption,
//! probing and substitution, the propagation-relative effort budget every round measures
//! itself by, and starting a round at the root (level 0, propagated).
//!
//! Cold code: each helper runs once per round or once per unit fixed at level 0, never inside
//! propagation or analysis. It exists so that the schedule arithmetic is written once — the
//! three copies it replaces were identical to the character, and a change to one (say, a
//! different growth) would otherwise have to be made three times.
#![forbid(unsafe_code)]

use crate::clause::{CRef, NO_REASON};
use crate::solver::Solver;
use crate::trail::Trail;
use crate::types::{L_FALSE, L_TRUE, Lit};

/// A schedule of rounds spaced `interval · √rounds` conflicts apart, each with an effort
/// relative to the propagations since the previous one.
#[derive(Default)]
pub(crate) struct Rounds {
    /// The next round happens at this conflict count (0: at the first chance).
    pub(crate) next: u64,
    /// Rounds so far (the interval grows with √rounds).
    pub(crate) rounds: u64,
    /// Propagation count at the end of the previous round (the effort is relative to it).
    pub(crate) props_mark: u64,
}

impl Rounds {
    /// Whether a round is due at `conflicts`.
    pub(crate) fn due(&self, conflicts: u64) -> bool {
        conflicts >= self.next
    }

    /// Counts a round starting at `conflicts`; the next is due `interval · √rounds` later.
    pub(crate) fn start(&mut self, conflicts: u64, interval: u64) {
        self.rounds += 1;
        let k = self.rounds as f64;
        self.next = conflicts + (interval as f64 * k.sqrt()) as u64;
    }

    /// The round's budget: `effort` steps per search propagation since the previous round.
    pub(crate) fn budget(&self, propagations: u64, effort: f64) -> u64 {
        effort_since(self.props_mark, propagations, effort)
    }
}

/// `effort` steps per propagation from `mark` to `propagations`: the budget of a round
/// relative to the search since the previous one (walk, vivification, elimination and the
/// [`Rounds`] techniques).
pub(crate) fn effort_since(mark: u64, propagations: u64, effort: f64) -> u64 {
    ((propagations - mark) as f64 * effort) as u64
}

/// Collects `lits` into the empty `out` as a clause at the root: level-0 false literals
/// dropped, duplicates merged. False when the clause is satisfied at level 0 or a tautology
/// (a literal is true, or `out` would hold a literal and its negation); `out` is then
/// partial. The resolvents of `eliminate.rs` and the rewritten clauses of `substitute.rs`.
/// `marks` is indexed by literal code and is 0 everywhere before and after.
pub(crate) fn collect_root_clause(
    trail: &Trail,
    lits: impl IntoIterator<Item = Lit>,
    marks: &mut [u8],
    out: &mut Vec<Lit>,
) -> bool {
    debug_assert!(
        out.is_empty(),
        "collect_root_clause into a non-empty buffer"
    );
    let mut keep = true;
    for l in lits {
        match trail.value(l) {
            L_TRUE => {
                keep = false;
                break;
            }
            L_FALSE => continue,
            _ => {}
        }
        if marks[(!l).code()] != 0 {
            keep = false;
            break;
        }
        if marks[l.code()] == 0 {
            marks[l.code()] = 1;
            out.push(l);
        }
    }
    for &l in out.iter() {
        marks[l.code()] = 0;
    }
    keep
}

impl Solver {
    /// Logs `lits` as a derived clause, adds it as irredundant at level 0, and, when it became
    /// a clause of the arena (not a unit, not satisfied), lists it in the occurrence lists
    /// `occ` (indexed by literal code). The resolvents of `eliminate.rs` and the extension
    /// clauses of `factor.rs`.
    /// `hints` are its LRAT hints.
    pub(crate) fn add_derived_indexed(
        &mut self,
        lits: &[Lit],
        hints: &[i64],
        occ: &mut [Vec<CRef>],
    ) {
        let id = self.proof.add(lits, hints);
        let before = self.clauses.originals.len();
        self.add_irredundant(lits, id);
        if self.clauses.originals.len() > before
            && let Some(&c) = self.clauses.originals.last()
        {
            for &l in self.arena.lits(c) {
                occ[l.code()].push(c);
            }
        }
    }

    /// Propagates at level 0; a conflict there refutes the formula
    /// ([`Solver::refute_with`]) and answers false. Pre: level 0.
    pub(crate) fn propagate_root(&mut self) -> bool {
        let conflict = self.propagate();
        if conflict != NO_REASON {
            self.refute_with(conflict);
            return false;
        }
        true
    }

    /// Whether a round of a [`Rounds`] technique is due: its option `enabled`, the formula not
    /// refuted, and `schedule`'s conflict count reached. The predicate of `subsuming`,
    /// `probing` and `substituting`.
    pub(crate) fn round_due(&self, enabled: bool, schedule: &Rounds) -> bool {
        enabled && self.ok && schedule.due(self.stats.conflicts)
    }

    /// Starts a round of the [`Rounds`] technique whose schedule `rounds` selects: counted,
    /// the next one due `interval · √rounds` conflicts later, and the solver at the root
    /// ([`Solver::start_at_root`]). False when that refutes the formula: the round then does
    /// nothing more (it has still been counted, so a refuted solver is not retried).
    pub(crate) fn start_round(
        &mut self,
        rounds: impl FnOnce(&mut Solver) -> &mut Rounds,
        interval: u64,
    ) -> bool {
        let conflicts = self.stats.conflicts;
        rounds(self).start(conflicts, interval);
        self.start_at_root()
    }

    /// Where a round starts: back to level 0, propagated. False when that refutes the
    /// formula.
    pub(crate) fn start_at_root(&mut self) -> bool {
        self.backtrack(0);
        self.propagate_root()
    }

    /// Assigns the level-0 `units` a round derived (each with the identifier of its unit
    /// clause in the proof), skipping those already true; one already false refutes the
    /// formula and answers false (nothing is propagated: the caller propagates after).
    pub(crate) fn fix_units(&mut self, units: &[(Lit, u64)]) -> bool {
        for &(u, id) in units {
            match self.trail.value(u) {
                L_TRUE => {}
                L_FALSE => {
                    self.refute_units(u, id);
                    return false;
                }
                _ => {
                    self.trail.assign(u, NO_REASON);
                    self.proof.set_unit(u.var().index(), id);
                }
            }
        }
        true
    }
}
