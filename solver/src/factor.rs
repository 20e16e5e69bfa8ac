//! Bounded variable addition ("factor"): replace a product of clauses by a sum through a
//! fresh variable. When the irredundant clauses contain every `lᵢ ∨ C'ⱼ` for a set of
//! literals `L = {l₁ … lₘ}` and a set of clause remainders `{C'₁ … C'ₙ}`, the `m·n` clauses
//! are replaced by `m + n` clauses over a fresh variable `x`: `x ∨ C'ⱼ` for every `j` and
//! `¬x ∨ lᵢ` for every `i`. Resolving on `x` gives back every replaced clause, so the new
//! formula has the same models over the old variables (each model extends: `x` true when every
//! `lᵢ` is, false otherwise, which then forces every `C'ⱼ`).
//!
//! Why: at-most-one constraints written pairwise (`¬a ∨ ¬b` for every pair, as in the
//! pigeonhole and many scheduling and colouring encodings) are such products, and resolution
//! proofs over the pairwise form are exponential where the re-encoded form has shorter ones. On
//! a shuffled pigeonhole of 9 holes (`benches/shuffle-php.py 9 1`) grim took 8.3 s without this
//! file and 4.1 s with it (Kissat 4, which factors too, 2.0 s); on the own structured set
//! (`benches/instances/sat-structured`) factoring turned 5 solved into 7 of 17 at 60 s, hole011
//! in 3.6 s where Kissat needs 48 s. The new clauses are also fewer, so propagation is
//! cheaper.
//!
//! The technique: Manthey, Heule & Biere, "Automated reencoding of Boolean formulas" (HVC 2012,
//! SimpleBVA); Haberlandt, Green & Heule, "Effective auxiliary variables via structured
//! reencoding" (SAT 2023), which Kissat 4 implements as `factor`. Ours is SimpleBVA: literals are
//! taken from a queue, most occurrences first; for literal `l` the match starts as `L = {l}`
//! with every clause of `l` (up to `factor_clause_length` literals) as a row, and grows by the
//! literal `l'` for which the most rows `C` have a partner clause `(C ∖ {l}) ∪ {l'}` — found
//! through the shortest occurrence list among `C ∖ {l}`'s literals — for as long as the
//! reduction `m·n − m − n` grows. Ties go to the smaller literal code, so the result is
//! deterministic. Deviations: the structured tie-breaking of Haberlandt et al. (the 3-hop
//! heuristic) is left out; pairs `l' = ¬l` are skipped; and it runs once per solver, at the first
//! `solve` before the first elimination round (Kissat repeats it in its elimination rounds),
//! within `factor_effort` literal visits per literal of the formula. Before, because
//! elimination resolves the pairwise products away first: on the shuffled pigeonhole of 9
//! holes, factoring after elimination left the search at 594,464 conflicts (8.3 s), before it
//! 143,272 (3.6 s).
//!
//! Extension variables are the engine's, not the user's: they get the next internal indices, and
//! `Solver::num_vars`, the model and every API call see only the user's variables. If the user
//! later creates a variable whose index an extension variable holds (a new clause, an
//! assumption, `new_var`, an observed variable) — or connects an external propagator — the
//! engine undoes the factoring first (`unfactor`): every clause over an extension variable,
//! learned ones included, is deleted, their level-0 values are forgotten, eliminated clauses are
//! restored if they mention them, and a copy of the irredundant clauses taken just before the
//! first factoring (plus every clause added since) is added back. Why the whole copy and not
//! only the replaced clauses: inprocessing since then may have removed clauses over the user's
//! variables because clauses over extension variables implied them (vivification, subsumption by
//! a shorter resolvent), and those must come back with the extension variables gone. Learned
//! clauses and level-0 units over the user's variables stay: they follow from the formula over
//! the user's variables alone, because the re-encoding is conservative. The only cost is a
//! formula-sized copy while extension variables exist. Factoring is skipped under assumptions,
//! with an external propagator connected, when `factor` is off, and once the user has set or
//! seeded a phase: decisions on extension variables (which have no user phase) would force
//! the user's variables through `x ∨ C'ⱼ` before their own wishes are tried — level
//! generation's preferred cells in an exactly-one were lost that way.
//!
//! Proofs: each `x ∨ C'ⱼ` is logged first (a RAT clause on `x`, which no other clause has), then
//! each `¬x ∨ lᵢ` (RAT on `¬x`: every resolvent with an `x ∨ C'ⱼ` is a replaced clause still
//! present), then the deletions of the replaced clauses. The variable's DRAT number is one more
//! than its index, like any other's; it is above every variable of the input, so a checker
//! sees a fresh variable. When an undo happens with a proof on, the copy's clauses are logged
//! as additions; a checker accepts them only if they are RUP at that point, which holds for
//! the replaced clauses but is not guaranteed for others, so a proof across an undo may not
//! check (a one-shot run such as `grim-sat` never undoes).

#![forbid(unsafe_code)]

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::clause::CRef;
use crate::solver::Solver;
use crate::types::{Lit, Var};

/// The factoring state: whether it ran, where the extension variables start, and the copy of
/// the formula an undo restores. Written only here.
///
/// Invariant (owned here; `Solver::reserve_vars` and `Solver::connect_propagator` rely on it):
/// when `first_ext` is `Some(f)`, every variable from `f` up is an extension variable or unused,
/// no user-visible index reaches `f`, and `copy` plus the clauses the user added since hold a
/// formula equivalent to the user's over the user's variables.
#[derive(Default)]
pub(crate) struct Factor {
    /// Factoring had its one chance.
    tried: bool,
    /// The first extension variable, while any exists.
    first_ext: Option<usize>,
    /// The irredundant clauses before the first factoring, and every clause added while
    /// extension variables exist, flattened; clause `i` ends at `ends[i]`.
    copy: Vec<Lit>,
    ends: Vec<u32>,
}

impl Factor {
    /// Gives up factoring's chance: the user set or seeded phases (module doc).
    pub(crate) fn forgo(&mut self) {
        self.tried = true;
    }

    /// Whether extension variables exist.
    #[inline]
    pub(crate) fn active(&self) -> bool {
        self.first_ext.is_some()
    }

    /// Records a clause the user added while extension variables exist (invariant).
    pub(crate) fn record(&mut self, lits: &[Lit]) {
        if self.active() {
            self.copy.extend_from_slice(lits);
            self.ends.push(self.copy.len() as u32);
        }
    }
}

/// One row of a match: a clause `C` of the queue's literal `l` and, for each literal of the
/// match, in order, the clause `(C ∖ {l}) ∪ {lᵢ}` (the first is `C` itself).
struct Row {
    partners: Vec<CRef>,
}

impl Solver {
    /// Whether factoring should run now (module doc): once, at the first `solve`, without
    /// assumptions or an external propagator.
    pub(crate) fn factoring(&self) -> bool {
        self.opts.factor
            && self.ok
            && !self.factor.tried
            && self.assumptions.is_empty()
            && self.external.is_none()
    }

    /// Runs factoring (module doc). Leaves the solver at level 0, propagated, or `ok == false`.
    pub(crate) fn factor(&mut self) {
        self.factor.tried = true;
        if !self.start_at_root() {
            return;
        }
        if self.simplifying() {
            self.simplify();
        }
        let max_len = self.opts.factor_clause_length as usize;
        let n = self.trail.num_vars();
        let mut occ: Vec<Vec<CRef>> = vec![Vec::new(); 2 * n];
        let mut literals = 0usize;
        for &c in &self.clauses.originals {
            if self.arena.is_deleted(c) || self.arena.len(c) > max_len {
                continue;
            }
            for &l in self.arena.lits(c) {
                occ[l.code()].push(c);
                literals += 1;
            }
        }
        let budget = (literals as f64 * self.opts.factor_effort) as u64;
        let vars_before = self.stats.factor_vars;
        let mut ticks = 0u64;
        // Max-queue of literals by occurrences, ties to the smaller code; entries go stale
        // when counts change and are re-queued when popped.
        let mut queue: BinaryHeap<(usize, Reverse<usize>)> = (0..2 * n)
            .filter(|&code| occ[code].len() >= 2)
            .map(|code| (occ[code].len(), Reverse(code)))
            .collect();
        let mut marks: Vec<u8> = vec![0; 2 * n];
        // Per literal code: the rows (index into `rows`) and partner clauses found this step.
        let mut found: Vec<Vec<(usize, CRef)>> = vec![Vec::new(); 2 * n];
        let mut touched: Vec<usize> = Vec::new();
        while let Some((count, Reverse(code))) = queue.pop() {
            if ticks > budget || !self.ok {
                break;
            }
            let arena = &self.arena;
            occ[code].retain(|&c| !arena.is_deleted(c));
            let live = occ[code].len();
            if live != count {
                if live >= 2 {
                    queue.push((live, Reverse(code)));
                }
                continue;
            }
            let l = Lit::from_code(code);
            let mut lits = vec![l];
            // One row per distinct clause: duplicates would share their partners and make the
            // reduction look larger than it is.
            let mut keyed: Vec<(Vec<Lit>, CRef)> = occ[code]
                .iter()
                .map(|&c| {
                    let mut key = self.arena.lits(c).to_vec();
                    key.sort_unstable();
                    (key, c)
                })
                .collect();
            ticks += keyed.iter().map(|(k, _)| k.len() as u64).sum::<u64>();
            keyed.sort_unstable();
            keyed.dedup_by(|a, b| a.0 == b.0);
            let mut rows: Vec<Row> = keyed
                .into_iter()
                .map(|(_, c)| Row { partners: vec![c] })
                .collect();
            loop {
                // Find, for every row, the partners `(C ∖ {l}) ∪ {l'}` with `l'` new.
                for &m in &lits {
                    marks[m.code()] = 2;
                }
                for (ri, row) in rows.iter().enumerate() {
                    let c = row.partners[0];
                    let cl = self.arena.lits(c);
                    let mut best: Option<Lit> = None;
                    for &k in cl {
                        if k == l {
                            continue;
                        }
                        marks[k.code()] = 1;
                        if best.is_none_or(|b| {
                            (occ[k.code()].len(), k.code()) < (occ[b.code()].len(), b.code())
                        }) {
                            best = Some(k);
                        }
                    }
                    if let Some(b) = best {
                        for &d in &occ[b.code()] {
                            if d == c || self.arena.is_deleted(d) || self.arena.len(d) != cl.len() {
                                continue;
                            }
                            let dl = self.arena.lits(d);
                            ticks += dl.len() as u64;
                            let mut extra = None;
                            let mut inside = 0usize;
                            for &k in dl {
                                if marks[k.code()] == 1 {
                                    inside += 1;
                                } else if extra.is_none() {
                                    extra = Some(k);
                                } else {
                                    extra = None;
                                    inside = 0;
                                    break;
                                }
                            }
                            let Some(e) = extra else { continue };
                            // `e` already in the match (mark 2), or `¬l`: not a new partner.
                            if inside + 1 != cl.len() || marks[e.code()] == 2 || e == !l {
                                continue;
                            }
                            let list = &mut found[e.code()];
                            if list.last().is_some_and(|&(r, _)| r == ri) {
                                continue; // a duplicate partner of the same row
                            }
                            if list.is_empty() {
                                touched.push(e.code());
                            }
                            list.push((ri, d));
                        }
                    }
                    for &k in cl {
                        if k != l {
                            marks[k.code()] = 0;
                        }
                    }
                }
                for &m in &lits {
                    marks[m.code()] = 0;
                }
                let mut pick: Option<usize> = None;
                for &t in &touched {
                    if pick
                        .is_none_or(|p| (found[t].len(), Reverse(t)) > (found[p].len(), Reverse(p)))
                    {
                        pick = Some(t);
                    }
                }
                let (m, k) = (lits.len() as i64, rows.len() as i64);
                let grows = pick.is_some_and(|p| {
                    let k2 = found[p].len() as i64;
                    (m + 1) * k2 - (m + 1) - k2 > m * k - m - k
                });
                if grows && let Some(p) = pick {
                    let mut next = Vec::with_capacity(found[p].len());
                    for &(ri, d) in &found[p] {
                        let mut row = Row {
                            partners: std::mem::take(&mut rows[ri].partners),
                        };
                        row.partners.push(d);
                        next.push(row);
                    }
                    rows = next;
                    lits.push(Lit::from_code(p));
                }
                for &t in &touched {
                    found[t].clear();
                }
                touched.clear();
                if !grows {
                    break;
                }
            }
            let (m, k) = (lits.len(), rows.len());
            if m < 2 || k < 2 || m * k <= m + k {
                continue;
            }
            let Some(x) = self.apply_factor(l, &lits, &rows, &mut occ, &mut marks, &mut found)
            else {
                break;
            };
            for t in lits.iter().copied().chain([x, !x]) {
                queue.push((occ[t.code()].len(), Reverse(t.code())));
            }
        }
        if self.stats.factor_vars > vars_before {
            self.watches.sweep(&self.arena);
            self.clauses.retain_live(&self.arena);
        }
        self.debug_check();
    }

    /// Replaces the `m·n` clauses of a match by `m + n` clauses over a fresh variable (module
    /// doc), keeping the occurrence lists and scratch arrays in step with the new variable.
    /// Returns the new variable's positive literal; `None` past [`Var::MAX_INDEX`].
    fn apply_factor(
        &mut self,
        l: Lit,
        lits: &[Lit],
        rows: &[Row],
        occ: &mut Vec<Vec<CRef>>,
        marks: &mut Vec<u8>,
        found: &mut Vec<Vec<(usize, CRef)>>,
    ) -> Option<Lit> {
        let v = self.trail.num_vars();
        let var = Var::new(v as u32)?;
        if !self.factor.active() {
            // The copy an undo restores: the irredundant clauses before the first change.
            for &c in &self.clauses.originals {
                if !self.arena.is_deleted(c) {
                    self.factor.copy.extend_from_slice(self.arena.lits(c));
                    self.factor.ends.push(self.factor.copy.len() as u32);
                }
            }
        }
        self.grow_vars(v + 1);
        self.factor.first_ext.get_or_insert(v);
        occ.resize(2 * (v + 1), Vec::new());
        marks.resize(2 * (v + 1), 0);
        found.resize(2 * (v + 1), Vec::new());
        let x = var.pos();
        let mut clause: Vec<Lit> = Vec::new();
        let add = |s: &mut Solver, clause: &[Lit], occ: &mut Vec<Vec<CRef>>| {
            s.add_derived_indexed(clause, occ);
            s.stats.factor_added += 1;
        };
        for row in rows {
            clause.clear();
            clause.push(x);
            let c = row.partners[0];
            clause.extend(self.arena.lits(c).iter().copied().filter(|&k| k != l));
            add(self, &clause, occ);
        }
        for &li in lits {
            add(self, &[!x, li], occ);
        }
        for row in rows {
            for &d in &row.partners {
                if self.arena.is_deleted(d) {
                    continue;
                }
                // The watches go in one sweep at the end of the round: detaching one by one
                // scans the lists, quadratic on a large at-most-one.
                self.proof.delete(self.arena.lits(d), &self.trail);
                self.arena.delete(d);
                self.stats.factor_removed += 1;
            }
        }
        self.stats.factor_vars += 1;
        Some(x)
    }

    /// Undoes every factoring (module doc): called before a user-visible index reaches the
    /// extension variables, or before an external propagator connects.
    pub(crate) fn unfactor(&mut self) {
        let Some(first) = self.factor.first_ext.take() else {
            return;
        };
        self.stats.factor_undone += 1;
        let copy = std::mem::take(&mut self.factor.copy);
        let ends = std::mem::take(&mut self.factor.ends);
        if !self.ok {
            return;
        }
        self.backtrack(0);
        if self.elim.mentions_from(first) || self.elim.touches(&copy) {
            self.restore_eliminated();
        }
        // The copy first, while the clauses over extension variables still make its replaced
        // clauses RUP (module doc, proofs).
        let mut start = 0usize;
        for &end in &ends {
            let clause = &copy[start..end as usize];
            start = end as usize;
            self.proof.add(clause);
            self.add_irredundant(clause);
        }
        let ext = |l: &Lit| l.var().index() >= first;
        let Solver {
            arena,
            clauses,
            watches,
            proof,
            trail,
            ..
        } = self;
        for &c in clauses.originals.iter().chain(&clauses.learnts) {
            if !arena.is_deleted(c) && arena.lits(c).iter().any(ext) {
                proof.delete(arena.lits(c), trail);
                arena.delete(c);
            }
        }
        watches.sweep(arena);
        clauses.retain_live(arena);
        // Forget the extension variables' level-0 values; the other level-0 reasons may name
        // deleted clauses now (`trail.rs` invariant 5 lets them go).
        let freed = trail.forget_root(|l| ext(&l));
        // Simplification may have stripped a false extension literal from a clause and left
        // it as a blocker: it is unassigned now.
        watches.reset_blockers(arena, |l| ext(&l));
        let len = trail.lits.len();
        for l in freed {
            self.vsids.insert(l.var().index());
        }
        self.simplify.forget_beyond(len);
        self.debug_check();
    }
}
