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
//! reduction `m·n − m − n` grows. Ties between literals that would keep equally many rows go
//! to the one best connected to `l` by paths of length three in the variable incidence graph
//! (the structured tie-break of Haberlandt et al., `Hops`, option `factor_structured`), then to
//! the smaller literal code, so the result is deterministic. Why the tie-break matters: in a
//! pairwise at-most-one every literal ties, and the code order of a shuffled file splits each
//! constraint along a different, accidental partition, where the 3-hop count finds the
//! partition the long clauses share (each pigeon's clause links its holes), so the extension
//! variables of different constraints line up (test
//! `the_structured_tie_break_groups_the_same_pigeons_in_every_hole`). On the own structured set
//! at 60 s (2026-12-03) it took hole011_shuffled from a time-out to 4.3 s, chnl-010x011 to
//! 2.7 s, fpga10_12 to 1.2 s, and the set from 10 to 16 of 23 solved. Deviations: the
//! incidence graph counts every irredundant clause, as the paper's, but only factoring's own
//! clauses (up to `factor_clause_length`) are re-encoded; pairs `l' = ¬l` are skipped; and it
//! runs once per solver, at the first `solve` before the first elimination round (Kissat
//! repeats it in its elimination rounds), within `factor_effort` literal visits per literal of
//! the formula but at least `factor_budget_min`, extended by as much again while the last
//! budget's worth removed at least `factor_extend_gain` clauses net per million visits
//! (`Extension`; the 3-hop counts have a budget of their own, past which ties fall back to the
//! code order). Before, because
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
//! present), then the deletions of the replaced clauses. In LRAT these are RAT steps: `x ∨ C'ⱼ`
//! with no hints (no clause holds `¬x`), `¬x ∨ lᵢ` with the group `-id(x ∨ C'ⱼ)
//! id(lᵢ ∨ C'ⱼ)` for every row `j`. The variable's DRAT number is one more
//! than its index, like any other's; it is above every variable of the input, so a checker
//! sees a fresh variable. When an undo happens with a proof on, the copy's clauses are logged
//! as additions; a checker accepts them only if they are RUP at that point, which holds for
//! the replaced clauses but is not guaranteed for others, so a DRAT proof across an undo may
//! not check, and an LRAT proof fails outright (`Solver::flush_proof` says so); a one-shot run
//! such as `grim-sat` never undoes.

#![forbid(unsafe_code)]

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::clause::{Arena, CRef};
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

/// The structured tie-break of Haberlandt, Green & Heule (SAT 2023): among literals that
/// would grow a match by the same number of rows, prefer the one whose variable is best
/// connected to the queue literal's in the variable incidence graph, counted as weighted
/// paths of length three. The graph's edge weight between two variables is the number of
/// irredundant clauses that hold both; a variable is its own neighbour.
/// Why three hops: in an encoding shuffled by renaming, the literals that belong to the same
/// row or column of the original structure are those with many short paths between them, and
/// grouping those keeps the re-encoding regular (the paper's pigeonhole and clique-colouring
/// figures). Rows of the adjacency are built on demand and dropped when a re-encoding changes
/// a variable's clauses.
struct Hops {
    /// Per variable: its neighbours and weights, once built (see `build`).
    rows: Vec<Option<Vec<(u32, u32)>>>,
    /// Per variable, `build`'s scratch count; all 0 between builds.
    tally: Vec<u32>,
    /// The queue literal's row, dense, for the dot products; `dense_of` says whose it is.
    dense: Vec<u32>,
    dense_of: Option<usize>,
    /// Path counts computed for the current queue literal, per variable (`u64::MAX`: not yet),
    /// and the variables that hold one; valid until a re-encoding or the next literal.
    memo: Vec<u64>,
    memoised: Vec<usize>,
    /// Literal visits spent here, against a budget of its own (`spent > budget` turns the
    /// heuristic off for the rest of the run, back to the code order).
    spent: u64,
    budget: u64,
    /// Per literal code, every irredundant clause holding it (not only those factoring
    /// re-encodes: a pigeonhole's long pigeon clauses are what tie one hole's literals to the
    /// next hole's), built at the first tie.
    occ: Option<Vec<Vec<CRef>>>,
}

impl Hops {
    fn new(n: usize, budget: u64) -> Hops {
        Hops {
            rows: vec![None; n],
            tally: vec![0; n],
            dense: vec![0; n],
            dense_of: None,
            memo: vec![u64::MAX; n],
            memoised: Vec::new(),
            spent: 0,
            budget,
            occ: None,
        }
    }

    /// Builds the full occurrence lists at the first tie.
    fn index(&mut self, originals: &[CRef], arena: &Arena) {
        if self.occ.is_some() {
            return;
        }
        let mut occ = vec![Vec::new(); 2 * self.rows.len()];
        for &c in originals {
            if arena.is_deleted(c) {
                continue;
            }
            let lits = arena.lits(c);
            self.spent += lits.len() as u64;
            for &k in lits {
                occ[k.code()].push(c);
            }
        }
        self.occ = Some(occ);
    }

    /// Indexes the clauses of a new extension variable `x` (all of them hold `x` or `¬x`, and
    /// all are among factoring's `short` lists).
    fn add_extension(&mut self, x: Lit, short: &[Vec<CRef>], arena: &Arena) {
        let Some(occ) = &mut self.occ else { return };
        occ.resize(2 * self.rows.len(), Vec::new());
        for k in [x, !x] {
            for &c in &short[k.code()] {
                for &m in arena.lits(c) {
                    occ[m.code()].push(c);
                }
            }
        }
    }

    /// Whether the budget still allows the heuristic.
    fn usable(&self) -> bool {
        self.spent <= self.budget
    }

    /// Drops the path counts: a new queue literal, or a re-encoding.
    fn new_match(&mut self) {
        for &v in &self.memoised {
            self.memo[v] = u64::MAX;
        }
        self.memoised.clear();
    }

    /// Makes room for a new (extension) variable.
    fn grow(&mut self, n: usize) {
        self.rows.resize(n, None);
        self.tally.resize(n, 0);
        self.dense.resize(n, 0);
        self.memo.resize(n, u64::MAX);
    }

    /// Drops a variable's row: its clauses changed.
    fn forget(&mut self, v: usize) {
        if self.dense_of == Some(v) {
            self.clear_dense();
        }
        self.rows[v] = None;
    }

    fn clear_dense(&mut self) {
        if let Some(v) = self.dense_of.take()
            && let Some(row) = &self.rows[v]
        {
            for &(w, _) in row {
                self.dense[w as usize] = 0;
            }
        }
    }

    /// Builds variable `v`'s row if it is not built: each variable of `v`'s clauses with the
    /// number of those clauses it is in, in the order the variables are first met. Counted in
    /// `tally` (issue 40: collecting one entry per literal and sorting them all, to merge the
    /// repeats, was a fifth of grim-sat's time before the first decision on the dungeon-128
    /// export, whose hub variables are in thousands of clauses; sorting the distinct
    /// variables still cost a tenth). The order does not matter: every use of a row
    /// (`pick`'s dot products and path sums, `dense`) is a sum, and the path sums saturate,
    /// which is order-free too.
    fn build(&mut self, v: usize, arena: &Arena) {
        if self.rows[v].is_some() {
            return;
        }
        let Some(occ) = &self.occ else { return };
        let mut vars: Vec<u32> = Vec::new();
        for code in [2 * v, 2 * v + 1] {
            for &c in &occ[code] {
                if arena.is_deleted(c) {
                    continue;
                }
                let lits = arena.lits(c);
                self.spent += lits.len() as u64;
                for k in lits {
                    let w = k.var().index();
                    if self.tally[w] == 0 {
                        vars.push(w as u32);
                    }
                    self.tally[w] += 1;
                }
            }
        }
        let row = vars
            .iter()
            .map(|&w| (w, std::mem::take(&mut self.tally[w as usize])))
            .collect();
        self.rows[v] = Some(row);
    }

    /// The tie among `ties` (literal codes, ascending) with the most weighted 3-hop paths from
    /// variable `v`; equal counts go to the first.
    fn pick(&mut self, v: usize, ties: &[usize], originals: &[CRef], arena: &Arena) -> usize {
        self.index(originals, arena);
        if self.dense_of != Some(v) {
            self.clear_dense();
            self.new_match();
            self.build(v, arena);
            if let Some(row) = &self.rows[v] {
                for &(w, k) in row {
                    self.dense[w as usize] = k;
                }
            }
            self.dense_of = Some(v);
        }
        let mut best = (0u64, ties[0]);
        for (i, &t) in ties.iter().enumerate() {
            let u = t / 2;
            let paths = if self.memo[u] != u64::MAX {
                self.memo[u]
            } else {
                self.build(u, arena);
                let mut paths = 0u64;
                let neighbours = self.rows[u].take().unwrap_or_default();
                for &(w, k) in &neighbours {
                    let w = w as usize;
                    if w != u {
                        self.build(w, arena);
                    }
                    let row = if w == u {
                        &neighbours
                    } else {
                        self.rows[w].as_deref().unwrap_or(&[])
                    };
                    self.spent += row.len() as u64;
                    let dot: u64 = row
                        .iter()
                        .map(|&(z, j)| u64::from(j) * u64::from(self.dense[z as usize]))
                        .sum();
                    paths = paths.saturating_add(u64::from(k).saturating_mul(dot));
                }
                self.rows[u] = Some(neighbours);
                self.memo[u] = paths;
                self.memoised.push(u);
                paths
            };
            if i == 0 || paths > best.0 {
                best = (paths, t);
            }
        }
        best.1
    }
}

/// The least literal-visit budget of the 3-hop tie-break (`Hops`). Why this much: the crafted
/// formulas where the tie-break decides (channel and fpga routing, pigeonholes, clique
/// colouring) spend 0.2M to 2.8M; large application formulas would spend any budget (at about
/// 18 ns a visit: 0.4 s of q_query_3_L60_coli's parse and solve at 22M), and the tie-break
/// did not show a gain there.
const HOPS_MIN_BUDGET: u64 = 5_000_000;

/// The growing budget of one factoring run. The first `budget` literal visits are always
/// spent; each time the budget runs out, another `budget` is granted if the visits since the
/// last grant removed at least `gain` clauses net per million visits (removed minus added), up to
/// `max` grants. Why: a fixed budget stops formulas that are mostly products half re-encoded —
/// `rbcl_xits_08` (202,155 literals) re-encodes 25,466 clauses in the first 20M visits and
/// 79,624 in 46M, and only the whole re-encoding makes it easy (grim 0.95 s against more than
/// 60 s; Kissat, which repeats factoring during search, 1.7 s) — while a larger fixed budget is
/// spent in vain on formulas with nothing to factor (`op-85`'s 1.8M literals: 789M visits, no
/// match), which stop at the first budget as before.
struct Extension {
    /// Visits past which the next grant is decided.
    end: u64,
    chunk: u64,
    gain: f64,
    grants_left: u64,
    /// Visits and net clauses removed at the last decision.
    last_ticks: u64,
    last_net: u64,
}

impl Extension {
    fn new(budget: u64, gain: f64, max: u64) -> Extension {
        Extension {
            end: budget,
            chunk: budget,
            gain,
            grants_left: max,
            last_ticks: 0,
            last_net: 0,
        }
    }

    /// Whether factoring may go on past `end`, having spent `ticks` visits with `net` clauses
    /// removed net since the run began; moves `end` on by a chunk if so.
    fn grant(&mut self, ticks: u64, net: u64) -> bool {
        if self.grants_left == 0 || self.chunk == 0 {
            return false;
        }
        let spent = ticks.saturating_sub(self.last_ticks).max(1) as f64;
        let removed = net.saturating_sub(self.last_net) as f64;
        if removed * 1e6 < self.gain * spent || self.gain <= 0.0 {
            return false;
        }
        self.grants_left -= 1;
        self.last_ticks = ticks;
        self.last_net = net;
        self.end = ticks.saturating_add(self.chunk);
        true
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
        // At least enough to finish a small crafted formula (`factor_budget_min`).
        let budget = if self.opts.factor_effort > 0.0 {
            ((literals as f64 * self.opts.factor_effort) as u64).max(self.opts.factor_budget_min)
        } else {
            0
        };
        let vars_before = self.stats.factor_vars;
        let (removed_before, added_before) = (self.stats.factor_removed, self.stats.factor_added);
        let mut ticks = 0u64;
        // The budget grows by another `budget` while factoring pays (`Extension`).
        let mut extension = Extension::new(
            budget,
            self.opts.factor_extend_gain,
            self.opts.factor_extend_max,
        );
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
        let structured = self.opts.factor_structured;
        // The heuristic's own budget: a quarter of factoring's, and at least enough for a
        // small crafted formula, where it matters most and costs milliseconds (`HOPS_MIN_BUDGET`).
        let mut hops = Hops::new(n, (budget / 4).max(HOPS_MIN_BUDGET));
        while let Some((count, Reverse(code))) = queue.pop() {
            if !self.ok {
                break;
            }
            if ticks > extension.end {
                let net = (self.stats.factor_removed - removed_before)
                    .saturating_sub(self.stats.factor_added - added_before);
                if !extension.grant(ticks, net) {
                    break;
                }
                self.stats.factor_extensions += 1;
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
                        // Every visit counts, the skipped ones too: they are most of the time
                        // on large formulas, where the shortest list is still long.
                        ticks += occ[b.code()].len() as u64;
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
                if structured
                    && hops.usable()
                    && let Some(p) = pick
                {
                    let best = found[p].len();
                    let mut ties: Vec<usize> = touched
                        .iter()
                        .copied()
                        .filter(|&t| found[t].len() == best)
                        .collect();
                    if ties.len() > 1 {
                        ties.sort_unstable();
                        let v = l.var().index();
                        pick = Some(hops.pick(v, &ties, &self.clauses.originals, &self.arena));
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
            if structured {
                // Every variable of a replaced clause changes its neighbourhood.
                for &c in rows.iter().flat_map(|r| &r.partners) {
                    for &k in self.arena.lits(c) {
                        hops.forget(k.var().index());
                    }
                }
            }
            let Some(x) = self.apply_factor(l, &lits, &rows, &mut occ, &mut marks, &mut found)
            else {
                break;
            };
            hops.grow(self.trail.num_vars());
            hops.add_extension(x, &occ, &self.arena);
            hops.new_match();
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
        let add = |s: &mut Solver, clause: &[Lit], hints: &[i64], occ: &mut Vec<Vec<CRef>>| {
            s.add_derived_indexed(clause, hints, occ);
            s.stats.factor_added += 1;
        };
        // LRAT: the identifiers of the `x ∨ C'ⱼ`, row by row (they increase).
        let mut row_ids: Vec<u64> = Vec::with_capacity(rows.len());
        for row in rows {
            clause.clear();
            clause.push(x);
            let c = row.partners[0];
            clause.extend(self.arena.lits(c).iter().copied().filter(|&k| k != l));
            // RAT on x with no hints: no clause holds ¬x yet.
            add(self, &clause, &[], occ);
            row_ids.push(self.proof.last_id());
        }
        let mut hints: Vec<i64> = Vec::new();
        for (i, &li) in lits.iter().enumerate() {
            hints.clear();
            if self.proof.is_lrat() {
                // RAT on ¬x: the clauses with x are the `x ∨ C'ⱼ`, and each resolvent
                // `lᵢ ∨ C'ⱼ` is row j's partner for lᵢ, still present (falsified at once).
                for (row, &id) in rows.iter().zip(&row_ids) {
                    hints.push(-(id as i64));
                    hints.push(self.arena.id(row.partners[i]) as i64);
                }
            }
            add(self, &[!x, li], &hints, occ);
        }
        for row in rows {
            for &d in &row.partners {
                if self.arena.is_deleted(d) {
                    continue;
                }
                // The watches go in one sweep at the end of the round: detaching one by one
                // scans the lists, quadratic on a large at-most-one.
                self.proof
                    .delete(self.arena.lits(d), self.arena.id(d), &self.trail);
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
        // The copy's clauses come back without hints a checker could follow (module doc).
        self.proof.fail(
            "factoring was undone (a variable or propagator claimed an extension variable's \
             index), and LRAT cannot state the restored clauses",
        );
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
            let id = self.proof.add(clause, &[]);
            self.add_irredundant(clause, id);
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
                proof.delete(arena.lits(c), arena.id(c), trail);
                arena.delete(c);
            }
        }
        watches.sweep(arena);
        clauses.retain_live(arena);
        // Forget the extension variables' level-0 values; the other level-0 reasons may name
        // deleted clauses now (`trail.rs` invariant 6 lets them go).
        let freed = trail.forget_root(|l| ext(&l));
        for l in &freed {
            proof.set_unit(l.var().index(), 0);
        }
        self.lrat.forget_root();
        // Simplification may have stripped a false extension literal from a clause and left
        // it as a blocker: it is unassigned now.
        watches.reset_blockers(arena, |l| ext(&l));
        let len = trail.lits.len();
        for l in freed {
            self.scores.unfix(l.var().index());
        }
        self.simplify.forget_beyond(len);
        self.debug_check();
    }
}

#[cfg(test)]
mod tests {
    use super::{Arena, Hops};
    use crate::Lit;

    /// `Hops::build`'s row, against the definition: every variable `w` of `v`'s clauses once,
    /// with the number of those clauses holding `w` — on random clause sets with
    /// hub variables, deleted clauses and rebuilt rows (the tally must be left at zero).
    #[test]
    fn a_row_holds_each_neighbour_once_with_the_number_of_clauses_it_shares() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |bound: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % bound
        };
        for round in 0..200 {
            let n = 2 + next(30) as usize;
            let mut arena = Arena::default();
            let mut clauses = Vec::new();
            for _ in 0..next(60) {
                let mut vars: Vec<usize> =
                    (0..1 + next(6)).map(|_| next(n as u64) as usize).collect();
                if next(3) == 0 {
                    vars.push(0); // a hub
                }
                vars.sort_unstable();
                vars.dedup();
                let lits: Vec<Lit> = vars
                    .iter()
                    .map(|&v| Lit::from_code(2 * v + next(2) as usize))
                    .collect();
                let c = arena.alloc(&lits, false, 0, 0).expect("small arena");
                if next(5) == 0 {
                    arena.delete(c);
                }
                clauses.push(c);
            }
            let mut hops = Hops::new(n, u64::MAX);
            hops.index(&clauses, &arena);
            for pass in 0..2 {
                for v in 0..n {
                    hops.forget(v);
                    hops.build(v, &arena);
                    let mut expected = std::collections::BTreeMap::new();
                    for &c in &clauses {
                        let lits = arena.lits(c);
                        if !arena.is_deleted(c) && lits.iter().any(|l| l.var().index() == v) {
                            for l in lits {
                                *expected.entry(l.var().index() as u32).or_insert(0u32) += 1;
                            }
                        }
                    }
                    let expected: Vec<(u32, u32)> = expected.into_iter().collect();
                    let mut row = hops.rows[v].clone();
                    if let Some(row) = &mut row {
                        row.sort_unstable();
                    }
                    assert_eq!(
                        row.as_deref(),
                        Some(&expected[..]),
                        "round {round}, pass {pass}, variable {v}"
                    );
                }
            }
            assert!(hops.tally.iter().all(|&t| t == 0));
        }
    }
}
