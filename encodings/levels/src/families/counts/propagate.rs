//! Counts inside the search: the large `counts` rules of a grid checked by a part of the grid
//! propagator (`search.rs`) as linear constraints `Σ wᵢ·[lᵢ] ≥ bound`, instead of the adder
//! trees of `encode.rs`.
//!
//! A count over a whole 64×64 map is a sum of about 4,000 literals. Encoded as clauses (binary
//! adders and a comparator, `encode.rs`) it costs 15,000–70,000 auxiliary variables and
//! 80,000–360,000 clauses per rule, and CDCL decides those auxiliary variables like any other:
//! on a 64×64 cave with "open 35–65 %" and "water at most 10 %" (and nothing else but tiles and
//! adjacency) neither grim nor CaDiCaL 1.5.3 without its `lucky` phases found a level in 15 s,
//! although the seeded hints all but satisfy both counts. Checked here, the same rules take one
//! counter per rule and a comparison per assignment: the search decides only cells.
//!
//! Each rule is normalised to positive weights (`a − b ≥ 0` for a ratio becomes
//! `den·Σa + num·Σ¬b ≥ num·|b|`; a literal and its negation cancel into the bound) and keeps
//! `lost`, the weight of its terms that are false. With `slack = Σw − lost − bound`:
//! - `slack < 0` is a conflict, explained by the false terms assigned earliest whose weight
//!   exceeds `Σw − bound` (so the clause is implied by the rule alone);
//! - a free term heavier than `slack` is propagated true, lazily: its reason, asked for only
//!   if conflict analysis needs it, is the earliest false terms (false before the propagation)
//!   whose weight exceeds `Σw − bound − w`.
//!
//! Terms are sorted by weight, heaviest first, so a pass stops at the first term no heavier
//! than the slack: a count with room left costs one comparison. This is the counter-based
//! propagation of pseudo-Boolean solvers (Chai & Kuehlmann, "A fast pseudo-Boolean constraint
//! solver", DAC 2003, without their watched subsets: one counter per rule suffices for a few
//! rules over a few thousand cells).
//!
//! What is given up: an encoding's auxiliary variables let learned clauses speak of partial
//! sums ("at least 3 of these 10"); reasons here name cells only, so a search whose counts are
//! tight everywhere learns long clauses. Small counts (within `encode.rs`'s `SMALL` of either
//! end, or over few cells) stay encoded for that reason.

use crate::model::{GridModel, SearchPlan};
use crate::search::{Lazy, Reason, SearchPart};
use grim_solver::{ClauseKind, Context, Lit, Var};

/// One count rule as the propagator takes it: the weighted terms and the bound of
/// `Σ w·[lit] ≥ bound`.
pub(super) type Linear = (Vec<(u64, Lit)>, u64);

/// Where the counts run among the search parts: first, the cheapest check (a comparison per
/// rule that lost weight).
const RANK: u32 = 1;

/// The count rows a propagated model leaves to the search (`encode.rs` records it).
#[derive(Debug)]
pub(super) struct Plan(pub(super) Vec<Linear>);

impl SearchPlan for Plan {
    fn part(&self, _m: &GridModel) -> Box<dyn SearchPart> {
        Box::new(Tally::new(&self.0))
    }
}

/// The count rules of a grid as one part of the grid propagator.
pub(super) struct Tally {
    counts: Counts,
}

impl Tally {
    /// A part for `rows`, each of which [`Counts::add`] accepts (`encode.rs` checked).
    pub(super) fn new(rows: &[Linear]) -> Tally {
        let mut counts = Counts::default();
        for (terms, bound) in rows {
            let added = counts.add(terms, *bound);
            debug_assert!(added, "a count row no assignment satisfies");
        }
        Tally { counts }
    }
}

impl SearchPart for Tally {
    fn rank(&self) -> u32 {
        RANK
    }

    fn observed(&self, out: &mut Vec<Var>) {
        out.extend(self.counts.lits().map(|l| l.var()));
    }

    fn notify(&mut self, lits: &[Lit], level: u32, first: u64) {
        for (i, &l) in lits.iter().enumerate() {
            self.counts.assigned(l, level, first + i as u64);
        }
    }

    fn backtrack(&mut self, level: u32) {
        self.counts.backtrack(level);
    }

    fn propagate(&mut self, ctx: &mut Context<'_>, now: u64, lazy: &mut Lazy<'_>) -> bool {
        let mut record =
            |lit: Lit, w: CountWhy| lazy.record(lit, Reason::new(0, [w.row, 0, 0, 0], w.stamp));
        self.counts.propagate(ctx, now, &mut record)
    }

    fn explain(&mut self, lit: Lit, why: Reason, reason: &mut Vec<Lit>) {
        let w = CountWhy {
            row: why.at[0],
            stamp: why.stamp,
        };
        self.counts.explain(lit, w, reason);
    }

    fn recheck(&mut self) {
        self.counts.recheck();
    }
}

/// One linear rule `Σ w·[lit] ≥ bound`, weights positive, heaviest first (the bound lives on
/// in `room`).
struct Row {
    terms: Vec<(u64, Lit)>,
    /// `Σ w − bound`: the slack with no term false (never negative: see [`Counts::add`]).
    room: u64,
    /// The weight of the terms now false.
    lost: u64,
}

/// Why a literal was propagated: by `row`, with the assignments up to notification `stamp`.
#[derive(Clone, Copy)]
pub(super) struct CountWhy {
    row: u32,
    stamp: u64,
}

/// The count rules of a grid: the counters [`Tally`] runs (and `encode.rs` probes, to keep the
/// rules it cannot check encoded).
#[derive(Default)]
pub(super) struct Counts {
    rows: Vec<Row>,
    /// Per literal code: the (row, term weight) of the rows where that literal is a term.
    occurs: Vec<Vec<(u32, u64)>>,
    /// Per variable: the notification that assigned it (`u64::MAX` while free).
    stamp: Vec<u64>,
    /// Per variable: the polarity it was assigned (meaningful while `stamp` is set).
    positive: Vec<bool>,
    /// What was told, in order, with its level.
    told: Vec<(Lit, u32)>,
    /// Rows that lost weight since their last check.
    dirty: Vec<u32>,
    is_dirty: Vec<bool>,
    /// Scratch of the explanations: (stamp, weight, literal) of the false terms.
    scratch: Vec<(u64, u64, Lit)>,
}

impl Counts {
    /// Adds the rule `Σ w·[lit] ≥ bound`. Returns `false`, adding nothing, when no assignment
    /// can satisfy it or its normalised weights do not fit a `u64` in all (the caller encodes
    /// it as clauses, which state the contradiction or hold the large numbers), and adds
    /// nothing when every assignment satisfies it.
    pub(super) fn add(&mut self, terms: &[(u64, Lit)], bound: u64) -> bool {
        // Per variable: the coefficient of the positive literal, and the constant that
        // negative literals bring (w·¬x = w − w·x).
        let mut coef: std::collections::BTreeMap<usize, (i128, Lit)> = Default::default();
        let mut constant: i128 = 0;
        for &(w, l) in terms {
            let w = i128::from(w);
            let e = coef.entry(l.var().index()).or_insert((0, l.var().pos()));
            if l.is_positive() {
                e.0 += w;
            } else {
                e.0 -= w;
                constant += w;
            }
        }
        let mut bound = i128::from(bound) - constant;
        let mut row: Vec<(u64, Lit)> = Vec::new();
        for (c, x) in coef.into_values() {
            // c·x = c + |c|·¬x for a negative c.
            let (w, l) = if c < 0 { (-c, !x) } else { (c, x) };
            bound -= c.min(0);
            match u64::try_from(w) {
                Ok(0) => {}
                Ok(w) => row.push((w, l)),
                Err(_) => return false, // a weight past u64: left to the encoding
            }
        }
        if bound <= 0 {
            return true;
        }
        let total: i128 = row.iter().map(|&(w, _)| i128::from(w)).sum();
        // `lost` and `room` are u64: a total past it is left to the encoding too.
        if total < bound || u64::try_from(total).is_err() {
            return false;
        }
        let Ok(room) = u64::try_from(total - bound) else {
            return false;
        };
        row.sort_by_key(|&(w, l)| (std::cmp::Reverse(w), l.code()));
        let r = self.rows.len() as u32;
        for &(w, l) in &row {
            let code = l.code();
            if self.occurs.len() <= code {
                self.occurs.resize(code + 1, Vec::new());
            }
            self.occurs[code].push((r, w));
            let v = l.var().index();
            if self.stamp.len() <= v {
                self.stamp.resize(v + 1, u64::MAX);
                self.positive.resize(v + 1, false);
            }
        }
        self.rows.push(Row {
            terms: row,
            room,
            lost: 0,
        });
        // A new row is checked once (its bound may already force terms).
        self.is_dirty.push(true);
        self.dirty.push(r);
        true
    }

    /// Marks every rule for a check (the safety net of `check_model`).
    pub(super) fn recheck(&mut self) {
        for r in 0..self.rows.len() {
            if !self.is_dirty[r] {
                self.is_dirty[r] = true;
                self.dirty.push(r as u32);
            }
        }
    }

    /// Every literal the rules read.
    pub(super) fn lits(&self) -> impl Iterator<Item = Lit> + '_ {
        self.rows
            .iter()
            .flat_map(|r| r.terms.iter().map(|&(_, l)| l))
    }

    /// `lit` became true at `level`, told as notification `now`.
    pub(super) fn assigned(&mut self, lit: Lit, level: u32, now: u64) {
        let v = lit.var().index();
        let Some(s) = self.stamp.get_mut(v) else {
            return;
        };
        *s = now;
        self.positive[v] = lit.is_positive();
        self.told.push((lit, level));
        if let Some(occ) = self.occurs.get((!lit).code()) {
            for &(r, w) in occ {
                let row = &mut self.rows[r as usize];
                row.lost += w;
                if !self.is_dirty[r as usize] {
                    self.is_dirty[r as usize] = true;
                    self.dirty.push(r);
                }
            }
        }
    }

    /// Every assignment above `level` was undone.
    pub(super) fn backtrack(&mut self, level: u32) {
        while let Some(&(lit, l)) = self.told.last() {
            if l <= level {
                break;
            }
            self.told.pop();
            self.stamp[lit.var().index()] = u64::MAX;
            if let Some(occ) = self.occurs.get((!lit).code()) {
                for &(r, w) in occ {
                    self.rows[r as usize].lost -= w;
                }
            }
        }
    }

    /// Checks the rules that lost weight: a conflict clause (returns true), or propagations,
    /// each recorded through `record` with its lazy reason.
    pub(super) fn propagate(
        &mut self,
        ctx: &mut Context<'_>,
        now: u64,
        record: &mut dyn FnMut(Lit, CountWhy),
    ) -> bool {
        while let Some(r) = self.dirty.pop() {
            self.is_dirty[r as usize] = false;
            let row = &self.rows[r as usize];
            if row.lost > row.room {
                let mut clause = Vec::new();
                self.reason(r as usize, u64::MAX, row.room, &mut clause);
                ctx.add_clause(&clause, ClauseKind::Learned);
                // Checked again after the backjump.
                self.is_dirty[r as usize] = true;
                self.dirty.push(r);
                return true;
            }
            let slack = row.room - row.lost;
            for &(w, l) in &row.terms {
                if w <= slack {
                    break;
                }
                if ctx.value(l).is_none() {
                    record(l, CountWhy { row: r, stamp: now });
                    ctx.propagate(l);
                }
            }
        }
        false
    }

    /// The reason of `lit`, propagated for `why`: `lit` and the false terms before it.
    pub(super) fn explain(&mut self, lit: Lit, why: CountWhy, reason: &mut Vec<Lit>) {
        let row = &self.rows[why.row as usize];
        let w = row
            .terms
            .iter()
            .find(|&&(_, l)| l == lit)
            .map_or(0, |&(w, _)| w);
        // Falsified terms must weigh more than room − w for the rest to fall short of the
        // bound without lit.
        let need = row.room.saturating_sub(w);
        self.reason(why.row as usize, why.stamp, need, reason);
    }

    /// Appends the earliest false terms of row `r` (assigned at notification `stamp` or
    /// before) whose weight exceeds `need`, as the (false) literals of a clause.
    fn reason(&mut self, r: usize, stamp: u64, need: u64, out: &mut Vec<Lit>) {
        self.scratch.clear();
        for &(w, l) in &self.rows[r].terms {
            let s = self.stamp[l.var().index()];
            // A term is false when its negation was told; `stamp` orders the tellings.
            if s <= stamp && self.was_false(l) {
                self.scratch.push((s, w, l));
            }
        }
        self.scratch
            .sort_unstable_by_key(|&(s, _, l)| (s, l.code()));
        let mut lost = 0u64;
        for &(_, w, l) in &self.scratch {
            out.push(l);
            lost += w;
            if lost > need {
                break;
            }
        }
    }

    /// Whether term literal `l` is false now: its variable is assigned (a set stamp) and the
    /// polarity told is the opposite of `l`'s.
    fn was_false(&self, l: Lit) -> bool {
        let v = l.var().index();
        self.stamp[v] != u64::MAX && self.positive[v] != l.is_positive()
    }
}

#[cfg(test)]
mod tests {
    //! The count rules on their own, connected to an engine through a thin propagator, against
    //! brute force: the same models (enumerated by blocking clauses), the same answers under
    //! assumptions, with weights, repeated variables and both polarities of one variable in a
    //! rule, and with the aggressive schedule.

    use super::{CountWhy, Counts};
    use grim_solver::{Budget, Context, Lit, Options, Propagator, Solver, SplitMix64, Status, Var};

    /// `Counts` as a whole propagator (the grid propagator does the same with more parts).
    struct Only {
        counts: Counts,
        why: Vec<Option<CountWhy>>,
        now: u64,
    }

    impl Propagator for Only {
        fn observed(&self) -> Vec<Var> {
            let mut v: Vec<Var> = self.counts.lits().map(|l| l.var()).collect();
            v.sort_unstable_by_key(|v| v.index());
            v.dedup();
            v
        }
        fn notify_assignments(&mut self, lits: &[Lit], level: u32) {
            for &l in lits {
                self.now += 1;
                self.counts.assigned(l, level, self.now);
            }
        }
        fn notify_backtrack(&mut self, level: u32) {
            self.counts.backtrack(level);
        }
        fn propagate(&mut self, ctx: &mut Context<'_>) {
            let why = &mut self.why;
            let mut record = |l: Lit, w: CountWhy| {
                if why.len() <= l.code() {
                    why.resize(l.code() + 1, None);
                }
                why[l.code()] = Some(w);
            };
            self.counts.propagate(ctx, self.now, &mut record);
        }
        fn explain(&mut self, lit: Lit, reason: &mut Vec<Lit>) {
            reason.push(lit);
            if let Some(Some(w)) = self.why.get(lit.code()).copied() {
                self.counts.explain(lit, w, reason);
            }
        }
        fn check_model(&mut self, ctx: &mut Context<'_>) {
            self.counts.recheck();
            self.propagate(ctx);
        }
    }

    type Row = (Vec<(u64, Lit)>, u64);

    fn holds(rows: &[Row], clauses: &[Vec<Lit>], x: u32) -> bool {
        let val = |l: Lit| (x >> l.var().index() & 1 == 1) == l.is_positive();
        rows.iter().all(|(t, b)| {
            t.iter()
                .filter(|&&(_, l)| val(l))
                .map(|&(w, _)| w)
                .sum::<u64>()
                >= *b
        }) && clauses.iter().all(|c| c.iter().any(|&l| val(l)))
    }

    fn lit(rng: &mut SplitMix64, n: u32) -> Lit {
        let v = Var::new((rng.next_u64() % u64::from(n)) as u32).expect("a small variable");
        v.lit(rng.next_u64() & 1 == 0)
    }

    #[test]
    fn count_rules_in_the_search_have_the_models_brute_force_finds() {
        let mut rng = SplitMix64::new(0xc0_47);
        let (mut sat, mut unsat, mut propagated) = (0, 0, 0);
        for round in 0..400 {
            let n = 2 + (rng.next_u64() % 7) as u32;
            let mut rows: Vec<Row> = Vec::new();
            for _ in 0..1 + rng.next_u64() % 3 {
                let len = 1 + rng.next_u64() % u64::from(2 * n);
                let terms: Vec<(u64, Lit)> = (0..len)
                    .map(|_| (1 + rng.next_u64() % 4, lit(&mut rng, n)))
                    .collect();
                let total: u64 = terms.iter().map(|&(w, _)| w).sum();
                let bound = rng.next_u64() % (total + 2);
                rows.push((terms, bound));
            }
            let clauses: Vec<Vec<Lit>> = (0..rng.next_u64() % u64::from(n))
                .map(|_| {
                    (0..2 + rng.next_u64() % 2)
                        .map(|_| lit(&mut rng, n))
                        .collect()
                })
                .collect();
            let mut counts = Counts::default();
            let feasible = rows.iter().all(|(t, b)| counts.add(t, *b));
            let opts = if round % 2 == 0 {
                Options::default()
            } else {
                Options::aggressive()
            };
            let mut s = Solver::with_options(opts);
            s.reserve_vars(n as usize);
            for c in &clauses {
                s.add_clause(c);
            }
            if !feasible {
                s.add_clause(&[]);
            }
            s.connect_propagator(Box::new(Only {
                counts,
                why: Vec::new(),
                now: 0,
            }));
            let expected: Vec<u32> = (0..1u32 << n)
                .filter(|&x| holds(&rows, &clauses, x))
                .collect();
            // Under random assumptions first (incremental calls on one engine).
            for _ in 0..3 {
                let a: Vec<Lit> = (0..rng.next_u64() % 3).map(|_| lit(&mut rng, n)).collect();
                let want = expected.iter().any(|&x| {
                    a.iter()
                        .all(|&l| (x >> l.var().index() & 1 == 1) == l.is_positive())
                });
                let got = s.solve(&a, Budget::UNLIMITED);
                assert_eq!(
                    got == Status::Sat,
                    want,
                    "round {round}, assumptions {a:?}, rows {rows:?}"
                );
            }
            // Then every model, each blocked in turn.
            let mut found = Vec::new();
            while s.solve(&[], Budget::UNLIMITED) == Status::Sat {
                let m = s.model().expect("a model after Sat");
                let x = (0..n).fold(0u32, |x, v| x | u32::from(m[v as usize]) << v);
                assert!(
                    holds(&rows, &clauses, x),
                    "round {round}: model {x:#b} breaks {rows:?}"
                );
                found.push(x);
                let block: Vec<Lit> = (0..n)
                    .map(|v| Var::new(v).expect("small").lit(!m[v as usize]))
                    .collect();
                s.add_clause(&block);
            }
            assert_eq!(s.propagator_error(), None, "round {round}");
            found.sort_unstable();
            assert_eq!(
                found, expected,
                "round {round}: rows {rows:?}, clauses {clauses:?}"
            );
            if expected.is_empty() {
                unsat += 1;
            } else {
                sat += 1;
            }
            propagated += usize::from(s.stats().external_conflicts > 0);
        }
        assert!(sat > 100 && unsat > 50, "sat {sat}, unsat {unsat}");
        assert!(
            propagated > 50,
            "only {propagated} rounds had a count conflict"
        );
    }
}
