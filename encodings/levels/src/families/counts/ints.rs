//! Counts as integers in the search (issue 41): each large count's cells get an integer `N =
//! Σ cells` with **order literals** `[N ≥ k]`, the literals a lazy-clause-generation solver
//! gives an integer (Ohrimenko, Stuckey & Codish, "Propagation via lazy clause generation",
//! Constraints 14(3), 2009, doi:10.1007/s10601-008-9064-x), and the rules become statements
//! about those literals:
//!
//! - a count's bounds are unit clauses `[N ≥ lo]`, `¬[N ≥ hi+1]` (with a soft count's guard);
//! - a ratio (`per`) is a row `den·N(of) − num·N(per) ≥ 0` over two integers;
//! - two counts whose cells nest (a region inside a region, a tile set inside a tile set: the
//!   literal sets are then subsets, `GridModel::count_lits`) are linked by two rows,
//!   `N(inner) ≤ N(outer) ≤ N(inner) + |rest|`. (An integer of the difference, with its own
//!   order literals, was measured first: 5,270 more variables on the 64×64 caves, whose "moss
//!   ≥ 40" nests in "open 35–65 %", for 30 % more CPU time on cave-64; the two rows refute
//!   nested counts the same way.)
//!
//! The part of the grid propagator here ([`Ints`]) does two things. The **channel** keeps each
//! integer equal to its cells: `k` true cells make `[N ≥ k]` true, `n−k+1` false ones make it
//! false (each explained once, by those cells), and a bound that is reached fixes the free
//! cells (explained by the bound literal and the cells). The **rows** are propagated on bounds,
//! explained by bound literals only: a ratio's conflict is two literals, not the hundreds of
//! cells the counters of `propagate.rs` name. Counts over the same cells share one integer,
//! so "water ≤ 30" beside "water ≥ 40" is `¬[N ≥ 31]` and `[N ≥ 40]` with the chain clause
//! `[N ≥ 40] → [N ≥ 31]` between them: refuted by unit propagation before any decision.
//!
//! **Why eager literals.** The engine's propagator interface (`grim_solver::external`) cannot
//! create a variable during the search, so the literals are made when the model is built:
//! every threshold `1..=n` of every integer, with the chain `[N ≥ k+1] → [N ≥ k]` as binary
//! clauses (n variables and n−1 binary clauses per integer: 4,096 of each for a count over a
//! 64×64 map). Every bound a row derives then has its literal, so no propagation is rounded
//! away.
//!
//! **Why the engine decides them last** (`Solver::defer_decision`, through
//! `GridModel::connect_search`). An order literal is a function of the cells, so the search
//! never needs to decide one; but it appears in reasons, conflicts bump it, and a decision on
//! it is a guessed bound: `¬[N ≥ k]` with `k − 1` cells true makes the channel fix every
//! free cell false, each explained by the `k − 1` true cells. That was the slow seeds of the
//! first measurement (cave-runs-64 seed 3: 1.15 million such explanations of ~205 literals in
//! 2,002 conflicts, 19 s; deferred: the same 576 conflicts as the counters, 0.8 s;
//! `benches/results/issue41-ints-2026-12-07b.md`). Phase hints did not cure it: hinted with
//! the wished count the decisions pin `N` to it (arena-mirrored-64 seed 1: 1.8 s → no level
//! in 25 s), hinted false they still guess upper bounds (cave-no-dead-ends-64 seed 4: 0.25 →
//! 1.3 s). An integer whose cells are all fixed fixes its own order literals, so the engine
//! is never left to decide them at the end either.
//!
//! **Blocks** (optional, [`count_block`](crate::options::GridOptions::count_block), off by
//! default). A cell fixed at a reached bound is explained by the bound literal and the cells
//! on the count's side: up to thousands of literals for a whole-grid count, and every such
//! reason the analysis reads becomes an arena clause (dungeon-locks-zoned-64 seed 4: 228,000
//! reasons of 2,720 literals in 300 conflicts, 2.57 GB). A count over more than `count_block`
//! cells is then split into blocks of consecutive cells, each an integer with its own order
//! literals (one per cell: n more variables per count, not n·log n as a tree of sums would
//! take), and `N = Σ B_j` is kept on bounds by [`Ints::split`]: while the cells leave `N`'s
//! bounds open nothing happens but counting; when they reach one, the blocks' bounds are
//! brought to their cells and `N`'s bound pushes the others' (`B_j ≥ lb(N) − Σ ub(B_i)`,
//! `B_j ≤ ub(N) − Σ lb(B_i)`), so a fixed cell is explained by its block's bound and ≤ block
//! cells, a block's bound by `N`'s and one per other block. The reasons read the bounds at
//! their notification (`lb_hist`, `ub_hist`), as a row's reason keeps them in its numbers.
//! Measured off by default: the caves pay 25,000 variables and up to 40% more instructions
//! with the same search, and the zoned seed it was made for needs more than its reasons
//! (`benches/results/issue41-tree-2026-12-07.md`).
//!
//! It is the default of the propagated model
//! ([`count_ints`](crate::options::GridOptions::count_ints)); `off` keeps the counters of
//! `propagate.rs`.

use crate::model::{GridModel, SearchPlan};
use crate::search::{Lazy, Reason, SearchPart};
use grim_solver::{ClauseKind, Context, Lit, Var};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Where the part runs: first, as the counters it replaces.
const RANK: u32 = 1;

/// One integer: the sum of `cells`, with `order[k-1]` = `[N ≥ k]`.
#[derive(Clone, Debug)]
struct SumDef {
    cells: Vec<Lit>,
    order: Vec<Lit>,
    /// The integers of its blocks when it is split (module doc, "Blocks"): they partition
    /// `cells`, and the integer is their sum. Empty: in one piece.
    blocks: Vec<u32>,
}

/// `Σ c·N ≥ bound` over at most [`MAX_TERMS`] integers, unless `guard` is true (a soft rule's
/// relaxation literal).
#[derive(Clone, Debug)]
struct RowDef {
    terms: Vec<(i64, u32)>,
    bound: i64,
    guard: Option<Lit>,
}

/// A row names at most three integers (a ratio or a nesting two), so that the bounds it
/// read fit in a [`Reason`] beside its index.
const MAX_TERMS: usize = 3;

/// The integers and rows of a model, built while the counts encode (`encode.rs`).
pub(super) struct Builder {
    /// An integer over more cells is split into blocks of at most this many (0: never).
    block: usize,
    sums: Vec<SumDef>,
    /// Sorted literal codes → integer.
    index: BTreeMap<Vec<usize>, u32>,
    rows: Vec<RowDef>,
    /// The integers a rule counts (the nesting links are drawn between these).
    ruled: Vec<u32>,
}

impl Builder {
    /// A builder whose integers over more than `block` cells are split into blocks (0: none
    /// are).
    pub(super) fn new(block: usize) -> Builder {
        Builder {
            block,
            sums: Vec::new(),
            index: BTreeMap::new(),
            rows: Vec::new(),
            ruled: Vec::new(),
        }
    }

    /// The integer of `cells` (one per distinct set of literals), made with its order literals
    /// and chain clauses the first time; over more than `block` cells, split into blocks of
    /// nearly equal size, consecutive by literal code (on a grid, bands of rows), each an
    /// integer of its own.
    fn sum(&mut self, m: &mut GridModel, cells: &[Lit]) -> u32 {
        let mut codes: Vec<usize> = cells.iter().map(|l| l.code()).collect();
        codes.sort_unstable();
        if let Some(&s) = self.index.get(&codes) {
            return s;
        }
        let mut cells: Vec<Lit> = cells.to_vec();
        cells.sort_unstable_by_key(|l| l.code());
        let mut blocks = Vec::new();
        if self.block > 0 && cells.len() > self.block {
            let parts = cells.len().div_ceil(self.block);
            let size = cells.len().div_ceil(parts);
            for chunk in cells.chunks(size) {
                blocks.push(self.sum(m, chunk));
            }
        }
        // The chain defines the literals: it belongs to no rule (like a class literal's
        // definition), so the clash diagnosis never switches it off.
        let owner = m.tags.last().and_then(|t| t.1);
        m.tag(None);
        let order: Vec<Lit> = (0..cells.len())
            .map(|_| m.problem.new_var().pos())
            .collect();
        for k in 1..order.len() {
            m.problem.add_clause(&[!order[k], order[k - 1]], None);
        }
        m.deferred.extend(order.iter().map(|o| o.var()));
        m.tag(owner);
        let s = self.sums.len() as u32;
        self.sums.push(SumDef {
            cells,
            order,
            blocks,
        });
        self.index.insert(codes, s);
        s
    }

    /// Whether an integer over exactly `cells` exists.
    pub(super) fn has(&self, cells: &[Lit]) -> bool {
        let mut codes: Vec<usize> = cells.iter().map(|l| l.code()).collect();
        codes.sort_unstable();
        self.index.contains_key(&codes)
    }

    /// `lo ≤ Σ cells ≤ hi` (`hi` at most the number of cells), unless `guard`: unit (or
    /// guarded binary) clauses on the order literals, under the caller's tag.
    pub(super) fn count(
        &mut self,
        m: &mut GridModel,
        cells: &[Lit],
        lo: usize,
        hi: usize,
        guard: Option<Lit>,
    ) {
        let s = self.sum(m, cells);
        self.ruled.push(s);
        let order = self.sums[s as usize].order.clone();
        let ff = m.problem.always_false();
        let mut unit = |l: Lit| match guard {
            Some(g) => m.problem.add_clause(&[g, l], None),
            None => m.problem.add_clause(&[l], None),
        };
        if lo > order.len() {
            // Unreachable for the counts `encode.rs` sends (it checks), but total: no level.
            unit(ff);
        } else if lo > 0 {
            unit(order[lo - 1]);
        }
        if let Some(&o) = order.get(hi) {
            unit(!o);
        }
    }

    /// `den·Σa ≥ num·Σb` (the `min` of a ratio `num/den`), unless `guard`.
    pub(super) fn ratio(
        &mut self,
        m: &mut GridModel,
        a: &[Lit],
        b: &[Lit],
        (num, den): (u64, u64),
        guard: Option<Lit>,
    ) -> bool {
        let (Ok(num), Ok(den)) = (i64::try_from(num), i64::try_from(den)) else {
            return false;
        };
        let (sa, sb) = (self.sum(m, a), self.sum(m, b));
        self.ruled.extend([sa, sb]);
        // A ratio of 0 (`min: 0`, or `max: 0` with the roles swapped) leaves a term with
        // coefficient 0, which says nothing and which the row's propagation divides by.
        let terms: Vec<(i64, u32)> = [(den, sa), (-num, sb)]
            .into_iter()
            .filter(|&(c, _)| c != 0)
            .collect();
        if !terms.is_empty() {
            self.rows.push(RowDef {
                terms,
                bound: 0,
                guard,
            });
        }
        true
    }

    /// Links the integers whose cells nest (`inner ⊂ outer`, no ruled integer strictly
    /// between) by two rows: `N(inner) ≤ N(outer) ≤ N(inner) + |outer \ inner|`.
    fn nest(&mut self) {
        let mut ruled = self.ruled.clone();
        ruled.sort_unstable();
        ruled.dedup();
        let sets: Vec<Vec<usize>> = (ruled.iter())
            .map(|&s| {
                let mut c: Vec<usize> = self.sums[s as usize]
                    .cells
                    .iter()
                    .map(|l| l.code())
                    .collect();
                c.sort_unstable();
                c
            })
            .collect();
        let subset = |a: &[usize], b: &[usize]| {
            a.len() < b.len() && a.iter().all(|x| b.binary_search(x).is_ok())
        };
        let mut links = Vec::new();
        for (i, a) in sets.iter().enumerate() {
            for (j, b) in sets.iter().enumerate() {
                if a.is_empty() || !subset(a, b) {
                    continue;
                }
                let between = sets.iter().any(|c| subset(a, c) && subset(c, b));
                if !between {
                    links.push((i, j));
                }
            }
        }
        for (i, j) in links {
            let (inner, outer) = (ruled[i], ruled[j]);
            let rest = (sets[j].len() - sets[i].len()) as i64;
            // N(inner) ≤ N(outer) and N(outer) ≤ N(inner) + |rest|.
            self.rows.push(RowDef {
                terms: vec![(1, outer), (-1, inner)],
                bound: 0,
                guard: None,
            });
            self.rows.push(RowDef {
                terms: vec![(1, inner), (-1, outer)],
                bound: -rest,
                guard: None,
            });
        }
    }

    /// Links the nested integers and records the plan, when there is anything to check.
    pub(super) fn finish(mut self, m: &mut GridModel) {
        if self.sums.is_empty() {
            return;
        }
        self.nest();
        m.plans.push(Arc::new(IntPlan {
            sums: self.sums,
            rows: self.rows,
        }));
    }
}

/// The integers and rows a propagated model leaves to the search.
#[derive(Debug)]
struct IntPlan {
    sums: Vec<SumDef>,
    rows: Vec<RowDef>,
}

impl SearchPlan for IntPlan {
    fn part(&self, _m: &GridModel) -> Box<dyn SearchPart> {
        Box::new(Ints::new(&self.sums, &self.rows))
    }
}

/// What the assignment of a literal means to the part.
#[derive(Clone, Copy, Debug)]
enum Occ {
    /// A cell of integer `s` became true.
    CellTrue(u32),
    /// A cell of integer `s` became false.
    CellFalse(u32),
    /// `[N_s ≥ k]` became true.
    AtLeast(u32, u32),
    /// `[N_s ≥ k+1]` became false: `N_s ≤ k`.
    AtMost(u32, u32),
    /// Row `r`'s guard became false.
    Guard(u32),
}

/// What to undo on backtrack.
#[derive(Clone, Copy, Debug)]
enum Undo {
    True(u32),
    False(u32),
    Lb(u32, u32),
    Ub(u32, u32),
}

/// The kinds of [`Reason`] this part records.
const UP: u8 = 0; // [N ≥ k] by k true cells: at = [s, k]
const DOWN: u8 = 1; // ¬[N ≥ k] by n−k+1 false cells: at = [s, k]
const CELL_FALSE: u8 = 2; // a cell false by ¬[N ≥ ub+1] and ub true cells: at = [s, ub]
const CELL_TRUE: u8 = 3; // a cell true by [N ≥ lb] and n−lb false cells: at = [s, lb]
const GUARD: u8 = 4; // a row's guard, by its bounds: at = [r, bounds…]
const SPLIT_LB: u8 = 5; // block j of s, `[B ≥ k]` by `[N ≥ lb]` and the others' ub: at = [s, j]
const SPLIT_UB: u8 = 6; // block j of s, `¬[B ≥ k+1]` by `¬[N ≥ ub+1]` and the others' lb
const ROW: u8 = 16; // ROW + j: term j's bound, by the other bounds: at = [r, bounds…]

/// The integers and rows of a grid as one part of the grid propagator.
pub(super) struct Ints {
    cells: Vec<Vec<Lit>>,
    order: Vec<Vec<Lit>>,
    /// Per integer: true cells, false cells, and the bounds the order literals say.
    t: Vec<u32>,
    f: Vec<u32>,
    lb: Vec<u32>,
    ub: Vec<u32>,
    rows: Vec<RowDef>,
    /// Per integer, the rows naming it. An integer no row names has its bounds from units
    /// only: its channel then fixes cells at a bound and refutes a crossed one, but does not
    /// propagate the order literals the cells imply (`[N ≥ t]` after `t` true cells), which
    /// nothing would read; on a 64×64 map that is one propagation per cell assignment saved.
    rows_of: Vec<Vec<u32>>,
    /// Per literal code: what its becoming true means.
    occ: Vec<Vec<Occ>>,
    /// Per variable: the notification that assigned it (`u64::MAX` while free), and the
    /// polarity.
    stamp: Vec<u64>,
    positive: Vec<bool>,
    /// What was told, with its level; and the bound changes, with theirs.
    told: Vec<(Lit, u32)>,
    undo: Vec<(u32, Undo)>,
    dirty_sums: Vec<u32>,
    sum_dirty: Vec<bool>,
    dirty_rows: Vec<u32>,
    row_dirty: Vec<bool>,
    scratch: Vec<(u64, Lit)>,
    /// Per integer: its blocks when split; the split integers it is a block of; for a split
    /// integer, the sums of its blocks' lower and upper bounds and the size of its largest
    /// block.
    blocks: Vec<Vec<u32>>,
    roots_of: Vec<Vec<u32>>,
    sl: Vec<u32>,
    su: Vec<u32>,
    widest: Vec<u32>,
    /// Per integer, its bounds as they changed: (notification, new bound), so that a split's
    /// reason names the bounds it read at its notification.
    lb_hist: Vec<Vec<(u64, u32)>>,
    ub_hist: Vec<Vec<(u64, u32)>>,
    /// The last channel reason explained (`UP`, `DOWN`, `CELL_FALSE`, `CELL_TRUE`) and its
    /// literals after the explained one; forgotten at every notification and backtrack. The
    /// cells a reached bound fixes at once share one reason of up to thousands of cells, and
    /// the engine's analysis asks for them one after another (dungeon-locks-zoned-64 seed 4:
    /// ~760 reasons of ~2,720 cells per conflict, `cells_at` scanning the whole count for
    /// each was a fifth of the run): the same reason gives the same literals, so they are
    /// copied instead of recomputed.
    last_why: Option<Reason>,
    last_out: Vec<Lit>,
}

impl Ints {
    fn new(sums: &[SumDef], rows: &[RowDef]) -> Ints {
        let n = sums.len();
        let mut me = Ints {
            cells: sums.iter().map(|s| s.cells.clone()).collect(),
            order: sums.iter().map(|s| s.order.clone()).collect(),
            t: vec![0; n],
            f: vec![0; n],
            lb: vec![0; n],
            ub: sums.iter().map(|s| s.cells.len() as u32).collect(),
            rows: rows.to_vec(),
            rows_of: vec![Vec::new(); n],
            occ: Vec::new(),
            stamp: Vec::new(),
            positive: Vec::new(),
            told: Vec::new(),
            undo: Vec::new(),
            dirty_sums: (0..n as u32).collect(),
            sum_dirty: vec![true; n],
            dirty_rows: (0..rows.len() as u32).collect(),
            row_dirty: vec![true; rows.len()],
            scratch: Vec::new(),
            blocks: sums.iter().map(|s| s.blocks.clone()).collect(),
            roots_of: vec![Vec::new(); n],
            sl: vec![0; n],
            su: (sums.iter())
                .map(|d| {
                    d.blocks
                        .iter()
                        .map(|&b| sums[b as usize].order.len() as u32)
                        .sum()
                })
                .collect(),
            widest: (sums.iter())
                .map(|d| {
                    (d.blocks.iter())
                        .map(|&b| sums[b as usize].order.len() as u32)
                        .max()
                })
                .map(|w| w.unwrap_or(0))
                .collect(),
            lb_hist: vec![Vec::new(); n],
            ub_hist: vec![Vec::new(); n],
            last_why: None,
            last_out: Vec::new(),
        };
        let mut occ: Vec<(Lit, Occ)> = Vec::new();
        for (s, def) in sums.iter().enumerate() {
            let s = s as u32;
            for &c in &def.cells {
                occ.push((c, Occ::CellTrue(s)));
                occ.push((!c, Occ::CellFalse(s)));
            }
            for (k, &o) in def.order.iter().enumerate() {
                occ.push((o, Occ::AtLeast(s, k as u32 + 1)));
                occ.push((!o, Occ::AtMost(s, k as u32)));
            }
        }
        for (s, def) in sums.iter().enumerate() {
            for &b in &def.blocks {
                me.roots_of[b as usize].push(s as u32);
            }
        }
        for (r, row) in rows.iter().enumerate() {
            for &(_, s) in &row.terms {
                me.rows_of[s as usize].push(r as u32);
            }
            if let Some(g) = row.guard {
                occ.push((!g, Occ::Guard(r as u32)));
            }
        }
        for (l, o) in occ {
            if me.occ.len() <= l.code() {
                me.occ.resize(l.code() + 1, Vec::new());
            }
            me.occ[l.code()].push(o);
            let v = l.var().index();
            if me.stamp.len() <= v {
                me.stamp.resize(v + 1, u64::MAX);
                me.positive.resize(v + 1, false);
            }
        }
        me
    }

    fn touch_sum(&mut self, s: u32) {
        if !self.sum_dirty[s as usize] {
            self.sum_dirty[s as usize] = true;
            self.dirty_sums.push(s);
        }
    }

    fn touch_rows(&mut self, s: u32) {
        for i in 0..self.rows_of[s as usize].len() {
            let r = self.rows_of[s as usize][i];
            self.touch_row(r);
        }
    }

    fn touch_row(&mut self, r: u32) {
        if !self.row_dirty[r as usize] {
            self.row_dirty[r as usize] = true;
            self.dirty_rows.push(r);
        }
    }

    /// Whether literal `l` was true at notification `stamp` (or before).
    fn true_at(&self, l: Lit, stamp: u64) -> bool {
        let v = l.var().index();
        self.stamp.get(v).is_some_and(|&s| s <= stamp) && self.positive[v] == l.is_positive()
    }

    /// Appends the negations of the `k` earliest cells of `s` true at `stamp` (a clause's
    /// false literals), or of its false cells (`value` false: the cells themselves).
    fn cells_at(&mut self, s: u32, value: bool, k: u32, stamp: u64, out: &mut Vec<Lit>) {
        self.scratch.clear();
        for &c in &self.cells[s as usize] {
            let l = if value { c } else { !c };
            if self.true_at(l, stamp) {
                self.scratch.push((self.stamp[c.var().index()], c));
            }
        }
        // The `k` earliest, in no order (the engine sorts a reason itself): a selection, not
        // a sort. Sorting the cells of a whole-grid count for every reason asked was 23% of
        // dungeon-locks-zoned-64 seed 4 (`benches/results/issue42-tails-2026-12-07c.md`).
        let k = (k as usize).min(self.scratch.len());
        if k > 0 && k < self.scratch.len() {
            self.scratch
                .select_nth_unstable_by_key(k - 1, |&(st, c)| (st, c.code()));
        }
        for &(_, c) in &self.scratch[..k] {
            out.push(if value { !c } else { c });
        }
    }

    /// The literals of a channel reason (`UP`, `DOWN`, `CELL_FALSE`, `CELL_TRUE`) but the
    /// explained one.
    fn channel_reason(&mut self, why: Reason, out: &mut Vec<Lit>) {
        let [a, b, _, _] = why.at;
        let n = self.cells[a as usize].len() as u32;
        match why.kind {
            UP => self.cells_at(a, true, b, why.stamp, out),
            DOWN => self.cells_at(a, false, n - b + 1, why.stamp, out),
            CELL_FALSE => {
                if let Some(&o) = self.order[a as usize].get(b as usize) {
                    out.push(o);
                }
                self.cells_at(a, true, b, why.stamp, out);
            }
            _ => {
                if b > 0 {
                    out.push(!self.order[a as usize][b as usize - 1]);
                }
                self.cells_at(a, false, n - b, why.stamp, out);
            }
        }
    }

    /// The literal (false, in a clause) that says term `(c, s)` of a row was at `bound`:
    /// `[N ≥ ub+1]` for a positive coefficient, `¬[N ≥ lb]` for a negative one; none when the
    /// bound is the trivial one.
    fn bound_lit(&self, c: i64, s: u32, bound: u32) -> Option<Lit> {
        let order = &self.order[s as usize];
        if c > 0 {
            order.get(bound as usize).copied()
        } else {
            (bound > 0).then(|| !order[bound as usize - 1])
        }
    }

    /// The bounds of row `r`'s terms that its best case reads: `ub` where the coefficient is
    /// positive, `lb` where it is negative.
    fn row_bounds(&self, r: u32) -> [u32; MAX_TERMS] {
        let mut out = [0; MAX_TERMS];
        for (i, &(c, s)) in self.rows[r as usize].terms.iter().enumerate() {
            out[i] = if c > 0 {
                self.ub[s as usize]
            } else {
                self.lb[s as usize]
            };
        }
        out
    }

    /// The channel of integer `s`: a conflict clause (true), or propagations.
    fn channel(&mut self, s: u32, ctx: &mut Context<'_>, now: u64, lazy: &mut Lazy<'_>) -> bool {
        let i = s as usize;
        let n = self.cells[i].len() as u32;
        let (t, f, lb, ub) = (self.t[i], self.f[i], self.lb[i], self.ub[i]);
        let split = !self.blocks[i].is_empty();
        if split {
            // Its bounds follow the cells as in one piece; its conflicts and the cells it
            // fixes go through the blocks.
            let read = !self.rows_of[i].is_empty() || t + f == n;
            if read && t > lb && t <= ub {
                let o = self.order[i][t as usize - 1];
                lazy.propagate(ctx, o, Reason::new(UP, [s, t, 0, 0], now));
            }
            if read && n - f < ub && n - f >= lb {
                let k = n - f + 1;
                let o = self.order[i][k as usize - 1];
                lazy.propagate(ctx, !o, Reason::new(DOWN, [s, k, 0, 0], now));
            }
            return self.split(s, ctx, now, lazy);
        }
        if t > ub {
            let mut clause = vec![self.order[i][ub as usize]];
            self.cells_at(s, true, ub + 1, now, &mut clause);
            ctx.add_clause(&clause, ClauseKind::Learned);
            return true;
        }
        if n - f < lb {
            let mut clause = vec![!self.order[i][lb as usize - 1]];
            self.cells_at(s, false, n - lb + 1, now, &mut clause);
            ctx.add_clause(&clause, ClauseKind::Learned);
            return true;
        }
        // Once every cell is fixed the integer is known: its order literals are then fixed
        // too, so that the engine, which decides them last, never has to guess one.
        let read = !self.rows_of[i].is_empty() || t + f == n;
        if read && t > lb {
            let o = self.order[i][t as usize - 1];
            lazy.propagate(ctx, o, Reason::new(UP, [s, t, 0, 0], now));
        }
        if read && n - f < ub {
            let k = n - f + 1;
            let o = self.order[i][k as usize - 1];
            lazy.propagate(ctx, !o, Reason::new(DOWN, [s, k, 0, 0], now));
        }
        if t + f < n {
            let fix = if t == ub {
                Some((false, Reason::new(CELL_FALSE, [s, ub, 0, 0], now)))
            } else if n - f == lb {
                Some((true, Reason::new(CELL_TRUE, [s, lb, 0, 0], now)))
            } else {
                None
            };
            if let Some((value, why)) = fix {
                for k in 0..self.cells[i].len() {
                    let c = self.cells[i][k];
                    if self.stamp[c.var().index()] == u64::MAX {
                        lazy.propagate(ctx, if value { c } else { !c }, why);
                    }
                }
            }
        }
        false
    }

    /// Whether integer `i` is split or a block (the only ones whose bound histories a reason
    /// reads; the others keep none, so that a model without blocks does no more work).
    fn split_part(&self, i: usize) -> bool {
        !self.blocks[i].is_empty() || !self.roots_of[i].is_empty()
    }

    /// Records that a bound of `s` (`lower` or upper) became `k` at notification `stamp`.
    fn history(&mut self, s: u32, lower: bool, stamp: u64, k: u32) {
        let i = s as usize;
        if self.split_part(i) {
            let h = if lower {
                &mut self.lb_hist[i]
            } else {
                &mut self.ub_hist[i]
            };
            h.push((stamp, k));
        }
    }

    /// The lower bound of integer `s` at notification `stamp`.
    fn lb_at(&self, s: u32, stamp: u64) -> u32 {
        let h = &self.lb_hist[s as usize];
        let at = h.partition_point(|&(st, _)| st <= stamp);
        if at == 0 { 0 } else { h[at - 1].1 }
    }

    /// The upper bound of integer `s` at notification `stamp`.
    fn ub_at(&self, s: u32, stamp: u64) -> u32 {
        let h = &self.ub_hist[s as usize];
        let at = h.partition_point(|&(st, _)| st <= stamp);
        if at == 0 {
            self.order[s as usize].len() as u32
        } else {
            h[at - 1].1
        }
    }

    /// `¬[N_s ≥ lb]` (false in a clause while `N_s ≥ lb`), none for the trivial bound.
    fn lb_lit(&self, s: u32, lb: u32) -> Option<Lit> {
        (lb > 0).then(|| !self.order[s as usize][lb as usize - 1])
    }

    /// `[N_s ≥ ub+1]` (false in a clause while `N_s ≤ ub`), none for the trivial bound.
    fn ub_lit(&self, s: u32, ub: u32) -> Option<Lit> {
        self.order[s as usize].get(ub as usize).copied()
    }

    /// A split integer `s` and its blocks (module doc, "Blocks"): `N = Σ B_j` on bounds, a
    /// conflict clause (true) or propagations, every reason a few bound literals.
    fn split(&mut self, s: u32, ctx: &mut Context<'_>, now: u64, lazy: &mut Lazy<'_>) -> bool {
        let i = s as usize;
        let n = self.order[i].len() as u32;
        let (t, f, lb, ub) = (self.t[i], self.f[i], self.lb[i], self.ub[i]);
        // When the cells reach (or cross) a bound of `N`, the blocks' bounds are brought to
        // their cells, which the rule below then fixes (or finds crossed).
        let (full, empty) = (t >= ub, n - f <= lb);
        if full || empty {
            for k in 0..self.blocks[i].len() {
                let b = self.blocks[i][k];
                let j = b as usize;
                let nb = self.order[j].len() as u32;
                if full && self.t[j] > self.lb[j] {
                    let tb = self.t[j];
                    let o = self.order[j][tb as usize - 1];
                    lazy.propagate(ctx, o, Reason::new(UP, [b, tb, 0, 0], now));
                }
                if empty && nb - self.f[j] < self.ub[j] {
                    let kb = nb - self.f[j] + 1;
                    let o = self.order[j][kb as usize - 1];
                    lazy.propagate(ctx, !o, Reason::new(DOWN, [b, kb, 0, 0], now));
                }
            }
        }
        let (sl, su) = (self.sl[i], self.su[i]);
        if sl > ub || su < lb {
            let mut clause = Vec::new();
            for k in 0..self.blocks[i].len() {
                let b = self.blocks[i][k];
                let l = if sl > ub {
                    self.lb_lit(b, self.lb[b as usize])
                } else {
                    self.ub_lit(b, self.ub[b as usize])
                };
                clause.extend(l);
            }
            clause.extend(if sl > ub {
                self.ub_lit(s, ub)
            } else {
                self.lb_lit(s, lb)
            });
            ctx.add_clause(&clause, ClauseKind::Learned);
            return true;
        }
        // A block's bound moves only when the slack between `N`'s bound and the blocks' is
        // below the block's range, so at most its size.
        let widest = self.widest[i];
        if su - lb < widest || ub - sl < widest {
            for k in 0..self.blocks[i].len() {
                let b = self.blocks[i][k];
                let j = b as usize;
                let (lbb, ubb) = (self.lb[j], self.ub[j]);
                // N ≥ lb with the others at most their ub: B ≥ lb − (su − ubb).
                let new = i64::from(lb) - i64::from(su - ubb);
                if new > i64::from(lbb) {
                    let o = self.order[j][new as usize - 1];
                    lazy.propagate(ctx, o, Reason::new(SPLIT_LB, [s, k as u32, 0, 0], now));
                }
                // N ≤ ub with the others at least their lb: B ≤ ub − (sl − lbb).
                let new = ub - (sl - lbb);
                if new < ubb {
                    let o = self.order[j][new as usize];
                    lazy.propagate(ctx, !o, Reason::new(SPLIT_UB, [s, k as u32, 0, 0], now));
                }
            }
        }
        false
    }

    /// The reason of a split's inference of kind `kind` about integer `s` (block `skip`, for
    /// the blocks' kinds) at notification `stamp`: the bounds it read, as false literals.
    fn split_reason(&self, kind: u8, s: u32, skip: u32, stamp: u64, out: &mut Vec<Lit>) {
        let lower = kind == SPLIT_UB;
        if lower {
            out.extend(self.ub_lit(s, self.ub_at(s, stamp)));
        } else {
            out.extend(self.lb_lit(s, self.lb_at(s, stamp)));
        }
        for (k, &b) in self.blocks[s as usize].iter().enumerate() {
            if k as u32 == skip {
                continue;
            }
            out.extend(if lower {
                self.lb_lit(b, self.lb_at(b, stamp))
            } else {
                self.ub_lit(b, self.ub_at(b, stamp))
            });
        }
    }

    /// Row `r` on bounds: a conflict clause (true), its guard, or tighter bounds.
    fn row(&mut self, r: u32, ctx: &mut Context<'_>, now: u64, lazy: &mut Lazy<'_>) -> bool {
        let row = &self.rows[r as usize];
        let guard = row.guard.map(|g| (g, ctx.value(g)));
        if let Some((_, Some(true))) = guard {
            return false;
        }
        let bounds = self.row_bounds(r);
        let best: i128 = (row.terms.iter().zip(bounds))
            .map(|(&(c, _), b)| i128::from(c) * i128::from(b))
            .sum();
        let slack = best - i128::from(row.bound);
        let at = [r, bounds[0], bounds[1], bounds[2]];
        if slack < 0 {
            match guard {
                Some((g, None)) => lazy.propagate(ctx, g, Reason::new(GUARD, at, now)),
                _ => {
                    let mut clause = Vec::new();
                    self.row_reason(r, None, at, &mut clause);
                    ctx.add_clause(&clause, ClauseKind::Learned);
                    return true;
                }
            }
            return false;
        }
        if let Some((_, None)) = guard {
            return false; // bounds follow only once the guard is false
        }
        for j in 0..row.terms.len() {
            let (c, s) = row.terms[j];
            if c == 0 {
                continue; // `Builder::ratio` makes none; a zero term bounds nothing
            }
            let (lb, ub) = (self.lb[s as usize], self.ub[s as usize]);
            let step = slack / i128::from(c.unsigned_abs());
            if c > 0 {
                let new = i128::from(ub) - step;
                if new > i128::from(lb) {
                    let o = self.order[s as usize][new as usize - 1];
                    lazy.propagate(ctx, o, Reason::new(ROW + j as u8, at, now));
                }
            } else {
                let new = i128::from(lb) + step;
                if new < i128::from(ub) {
                    let o = self.order[s as usize][new as usize];
                    lazy.propagate(ctx, !o, Reason::new(ROW + j as u8, at, now));
                }
            }
        }
        false
    }

    /// The false literals of row `r`'s reason: the bounds `at` of every term but `skip`, and
    /// the guard unless the guard is what is explained (`skip` = `Some(MAX_TERMS)`).
    fn row_reason(&self, r: u32, skip: Option<usize>, at: [u32; 4], out: &mut Vec<Lit>) {
        let row = &self.rows[r as usize];
        for (i, &(c, s)) in row.terms.iter().enumerate() {
            if Some(i) != skip
                && let Some(l) = self.bound_lit(c, s, at[i + 1])
            {
                out.push(l);
            }
        }
        if let Some(g) = row.guard.filter(|_| skip != Some(MAX_TERMS)) {
            out.push(g);
        }
    }
}

impl SearchPart for Ints {
    fn rank(&self) -> u32 {
        RANK
    }

    fn observed(&self, out: &mut Vec<Var>) {
        for (l, o) in self.occ.iter().enumerate() {
            if !o.is_empty()
                && let Some(v) = Var::new((l / 2) as u32)
            {
                out.push(v);
            }
        }
    }

    fn notify(&mut self, lits: &[Lit], level: u32, first: u64) {
        self.last_why = None;
        for (k, &l) in lits.iter().enumerate() {
            let v = l.var().index();
            if v >= self.stamp.len() {
                continue;
            }
            self.stamp[v] = first + k as u64;
            self.positive[v] = l.is_positive();
            self.told.push((l, level));
            let Some(occ) = self.occ.get(l.code()) else {
                continue;
            };
            for i in 0..occ.len() {
                match self.occ[l.code()][i] {
                    Occ::CellTrue(s) => {
                        self.t[s as usize] += 1;
                        self.undo.push((level, Undo::True(s)));
                        self.touch_sum(s);
                    }
                    Occ::CellFalse(s) => {
                        self.f[s as usize] += 1;
                        self.undo.push((level, Undo::False(s)));
                        self.touch_sum(s);
                    }
                    Occ::AtLeast(s, k) => {
                        let old = self.lb[s as usize];
                        if k > old {
                            self.lb[s as usize] = k;
                            self.history(s, true, self.stamp[v], k);
                            self.undo.push((level, Undo::Lb(s, old)));
                            self.touch_sum(s);
                            self.touch_rows(s);
                            for j in 0..self.roots_of[s as usize].len() {
                                let r = self.roots_of[s as usize][j];
                                self.sl[r as usize] += k - old;
                                self.touch_sum(r);
                            }
                        }
                    }
                    Occ::AtMost(s, k) => {
                        let old = self.ub[s as usize];
                        if k < old {
                            self.ub[s as usize] = k;
                            self.history(s, false, self.stamp[v], k);
                            self.undo.push((level, Undo::Ub(s, old)));
                            self.touch_sum(s);
                            self.touch_rows(s);
                            for j in 0..self.roots_of[s as usize].len() {
                                let r = self.roots_of[s as usize][j];
                                self.su[r as usize] -= old - k;
                                self.touch_sum(r);
                            }
                        }
                    }
                    Occ::Guard(r) => self.touch_row(r),
                }
            }
        }
    }

    fn backtrack(&mut self, level: u32) {
        self.last_why = None;
        while let Some(&(l, lv)) = self.told.last() {
            if lv <= level {
                break;
            }
            self.told.pop();
            self.stamp[l.var().index()] = u64::MAX;
        }
        while let Some(&(lv, u)) = self.undo.last() {
            if lv <= level {
                break;
            }
            self.undo.pop();
            match u {
                Undo::True(s) => self.t[s as usize] -= 1,
                Undo::False(s) => self.f[s as usize] -= 1,
                Undo::Lb(s, old) => {
                    let i = s as usize;
                    for &r in &self.roots_of[i] {
                        self.sl[r as usize] -= self.lb[i] - old;
                    }
                    self.lb[i] = old;
                    if self.split_part(i) {
                        self.lb_hist[i].pop();
                    }
                }
                Undo::Ub(s, old) => {
                    let i = s as usize;
                    for &r in &self.roots_of[i] {
                        self.su[r as usize] += old - self.ub[i];
                    }
                    self.ub[i] = old;
                    if self.split_part(i) {
                        self.ub_hist[i].pop();
                    }
                }
            }
        }
    }

    fn propagate(&mut self, ctx: &mut Context<'_>, now: u64, lazy: &mut Lazy<'_>) -> bool {
        while let Some(s) = self.dirty_sums.pop() {
            self.sum_dirty[s as usize] = false;
            if self.channel(s, ctx, now, lazy) {
                self.touch_sum(s);
                return true;
            }
        }
        while let Some(r) = self.dirty_rows.pop() {
            self.row_dirty[r as usize] = false;
            if self.row(r, ctx, now, lazy) {
                self.touch_row(r);
                return true;
            }
        }
        false
    }

    fn explain(&mut self, _lit: Lit, why: Reason, reason: &mut Vec<Lit>) {
        let [a, b, _, _] = why.at;
        if matches!(why.kind, UP | DOWN | CELL_FALSE | CELL_TRUE) {
            // Nothing was assigned or undone since the last reason (`last_why`): the same
            // reason reads the same cells.
            if self.last_why != Some(why) {
                let mut out = std::mem::take(&mut self.last_out);
                out.clear();
                self.channel_reason(why, &mut out);
                self.last_out = out;
                self.last_why = Some(why);
            }
            reason.extend_from_slice(&self.last_out);
            return;
        }
        match why.kind {
            GUARD => self.row_reason(a, Some(MAX_TERMS), why.at, reason),
            SPLIT_LB | SPLIT_UB => self.split_reason(why.kind, a, b, why.stamp, reason),
            k => self.row_reason(a, Some(usize::from(k - ROW)), why.at, reason),
        }
    }

    fn recheck(&mut self) {
        for s in 0..self.cells.len() as u32 {
            self.touch_sum(s);
        }
        for r in 0..self.rows.len() as u32 {
            self.touch_row(r);
        }
    }
}

#[cfg(test)]
mod tests {
    //! The integer part on its own against brute force: random integers over random literal
    //! sets (both polarities, nested sets with their difference), random bounds and ratio rows,
    //! some guarded; every model the engine enumerates (projected on the cells and guards, the
    //! order literals being functions of them) is one brute force finds and none is missed,
    //! with the default and the aggressive schedule.

    use super::{Ints, RowDef, SumDef};
    use crate::search::{Composite, SearchPart};
    use grim_solver::{Budget, Lit, Options, Solver, SplitMix64, Status, Var};
    use std::io::Write;
    use std::sync::{Arc, Mutex};

    fn var(i: u32) -> Var {
        Var::new(i).expect("a small variable")
    }

    /// A new variable (`next`, then counted) with room for it in `s`.
    fn fresh(s: &mut Solver, next: &mut u32) -> Var {
        let v = var(*next);
        *next += 1;
        s.reserve_vars(*next as usize);
        v
    }

    /// A new integer over `cells` in `sums`: its order literals fresh, their chain clauses in
    /// `s`, in one piece (the caller sets `blocks`). Returns its index.
    fn new_sum(s: &mut Solver, next: &mut u32, cells: Vec<Lit>, sums: &mut Vec<SumDef>) -> u32 {
        let order: Vec<Lit> = (0..cells.len()).map(|_| fresh(s, next).pos()).collect();
        for k in 1..order.len() {
            s.add_clause(&[!order[k], order[k - 1]]);
        }
        sums.push(SumDef {
            cells,
            order,
            blocks: Vec::new(),
        });
        sums.len() as u32 - 1
    }

    #[test]
    fn integers_in_the_search_have_the_models_brute_force_finds() {
        let mut rng = SplitMix64::new(0x41_1a7);
        let mut pick = move |n: u64| (rng.next_u64() % n.max(1)) as u32;
        let (mut sat, mut unsat, mut conflicts, mut split) = (0, 0, 0, 0);
        for round in 0..300 {
            let n = 3 + pick(5); // cell variables 0..n
            let mut s = Solver::with_options(if round % 2 == 0 {
                Options::default()
            } else {
                Options::aggressive()
            });
            let mut next = n;
            s.reserve_vars(n as usize);
            let mut sums: Vec<SumDef> = Vec::new();
            // Integers over random sets of cells (a cell at most once per set).
            for _ in 0..1 + pick(3) {
                let mut cells: Vec<Lit> = Vec::new();
                for v in 0..n {
                    if pick(3) > 0 {
                        cells.push(var(v).lit(pick(4) > 0));
                    }
                }
                new_sum(&mut s, &mut next, cells, &mut sums);
            }
            // Half the time the first integer is split into two or three blocks (module doc,
            // "Blocks"), each an integer of its own.
            if pick(2) == 0 && sums[0].cells.len() >= 2 {
                let cells = sums[0].cells.clone();
                let parts = 2 + pick(2) as usize;
                let size = cells.len().div_ceil(parts);
                let mut blocks = Vec::new();
                for chunk in cells.chunks(size) {
                    blocks.push(new_sum(&mut s, &mut next, chunk.to_vec(), &mut sums));
                }
                sums[0].blocks = blocks;
                split += 1;
            }
            let mut rows: Vec<RowDef> = Vec::new();
            // A nesting: an inner subset of the first integer, and the rest.
            if pick(2) == 0 && !sums[0].cells.is_empty() {
                let outer = sums[0].cells.clone();
                let (inner, rest): (Vec<Lit>, Vec<Lit>) = outer.iter().partition(|_| pick(2) == 0);
                let i = new_sum(&mut s, &mut next, inner, &mut sums);
                let r = new_sum(&mut s, &mut next, rest, &mut sums);
                let terms = vec![(1, i), (1, r), (-1, 0)];
                let neg = terms.iter().map(|&(c, s)| (-c, s)).collect();
                rows.push(RowDef {
                    terms,
                    bound: 0,
                    guard: None,
                });
                rows.push(RowDef {
                    terms: neg,
                    bound: 0,
                    guard: None,
                });
            }
            let k = sums.len() as u32;
            let mut guards: Vec<Var> = Vec::new();
            let mut guard = |s: &mut Solver, pick: &mut dyn FnMut(u64) -> u32| {
                (pick(3) == 0).then(|| {
                    let g = fresh(s, &mut next);
                    guards.push(g);
                    g.pos()
                })
            };
            // Bounds (units on the order literals, maybe guarded).
            let mut bounds: Vec<(u32, u32, u32, Option<Lit>)> = Vec::new();
            for _ in 0..pick(4) {
                let si = pick(u64::from(k));
                let len = sums[si as usize].cells.len() as u32;
                let lo = pick(u64::from(len) + 2);
                let hi = lo.saturating_sub(1) + pick(u64::from(len) + 1);
                let g = guard(&mut s, &mut pick);
                let order = &sums[si as usize].order;
                let mut unit = |l: Lit| match g {
                    Some(g) => s.add_clause(&[g, l]),
                    None => s.add_clause(&[l]),
                };
                if lo as usize > order.len() {
                    unit(!order.first().copied().unwrap_or(var(0).pos()));
                    unit(order.first().copied().unwrap_or(var(0).pos()));
                } else if lo > 0 {
                    unit(order[lo as usize - 1]);
                }
                if let Some(&o) = order.get(hi as usize) {
                    unit(!o);
                }
                bounds.push((si, lo, hi, g));
            }
            // Ratio rows den·a − num·b ≥ 0 (maybe guarded).
            for _ in 0..pick(3) {
                let (a, b) = (pick(u64::from(k)), pick(u64::from(k)));
                let (num, den) = (1 + i64::from(pick(3)), 1 + i64::from(pick(3)));
                let g = guard(&mut s, &mut pick);
                rows.push(RowDef {
                    terms: vec![(den, a), (-num, b)],
                    bound: 0,
                    guard: g,
                });
            }
            let value = |x: u64, l: Lit| (x >> l.var().index() & 1 == 1) == l.is_positive();
            let count = |x: u64, si: u32| {
                sums[si as usize]
                    .cells
                    .iter()
                    .filter(|&&l| value(x, l))
                    .count() as i64
            };
            let holds = |x: u64| {
                bounds.iter().all(|&(si, lo, hi, g)| {
                    g.is_some_and(|g| value(x, g)) || {
                        let c = count(x, si);
                        c >= i64::from(lo) && c <= i64::from(hi)
                    }
                }) && rows.iter().all(|r| {
                    r.guard.is_some_and(|g| value(x, g))
                        || r.terms.iter().map(|&(c, si)| c * count(x, si)).sum::<i64>() >= r.bound
                })
            };
            // The projection: cells and guards.
            let mut shown: Vec<Var> = (0..n).map(var).collect();
            shown.extend(guards.iter().copied());
            let mask = |x: u64| shown.iter().fold(0u64, |m, v| m | (x & (1 << v.index())));
            let mut expected: Vec<u64> = Vec::new();
            for bits in 0..1u64 << shown.len() {
                let x = (0..shown.len())
                    .filter(|&i| bits >> i & 1 == 1)
                    .fold(0u64, |x, i| x | 1 << shown[i].index());
                if holds(x) {
                    expected.push(x);
                }
            }
            expected.sort_unstable();
            let part: Box<dyn SearchPart> = Box::new(Ints::new(&sums, &rows));
            s.connect_propagator(Box::new(Composite::new(vec![part])));
            let mut found = Vec::new();
            while s.solve(&[], Budget::UNLIMITED) == Status::Sat {
                let m = s.model().expect("a model after Sat");
                let x = (0..next).fold(0u64, |x, v| x | u64::from(m[v as usize]) << v);
                assert!(holds(x), "round {round}: model {x:#b} breaks the rules");
                found.push(mask(x));
                let block: Vec<Lit> = shown.iter().map(|&v| v.lit(!m[v.index()])).collect();
                s.add_clause(&block);
            }
            assert_eq!(s.propagator_error(), None, "round {round}");
            found.sort_unstable();
            assert_eq!(found, expected, "round {round}");
            if expected.is_empty() {
                unsat += 1;
            } else {
                sat += 1;
            }
            conflicts += usize::from(s.stats().external_conflicts > 0);
        }
        assert!(sat > 80 && unsat > 40, "sat {sat}, unsat {unsat}");
        assert!(split > 80, "only {split} rounds split an integer");
        assert!(
            conflicts > 40,
            "only {conflicts} rounds had an integer conflict"
        );
    }

    /// A `Write` into a buffer the test reads afterwards.
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().expect("the log").extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// 128 cells, at least 65 true; assumption `d` makes the 63 odd cells false, so the count
    /// fixes every even cell true, and a clause forbids cells 0 and 2 together: unsatisfiable
    /// under `d`, and the answer needs the reasons of cells fixed at the reached bound. In one
    /// piece each names the bound and the 63 false cells; split into 16 blocks of 8, a cell's
    /// names its block's bound and ≤ 8 cells, a block's bound that of `N` and one per other
    /// block (module doc, "Blocks"). Returns the longest clause the part gave the engine (the
    /// external-clause log: reasons, conflicts) and how many it gave.
    fn longest_clause(blocks: usize) -> (usize, usize) {
        let n = 128u32;
        let mut s = Solver::with_options(Options::default());
        let mut next = n;
        let mut sums: Vec<SumDef> = Vec::new();
        s.reserve_vars(n as usize);
        let cells: Vec<Lit> = (0..n).map(|v| var(v).pos()).collect();
        let root = new_sum(&mut s, &mut next, cells.clone(), &mut sums);
        if let Some(size) = cells.len().checked_div(blocks) {
            let parts: Vec<u32> = (cells.chunks(size))
                .map(|c| new_sum(&mut s, &mut next, c.to_vec(), &mut sums))
                .collect();
            sums[root as usize].blocks = parts;
        }
        s.add_clause(&[sums[root as usize].order[64]]);
        let d = fresh(&mut s, &mut next).pos();
        for p in 0..63 {
            s.add_clause(&[!d, !cells[2 * p + 1]]);
        }
        s.add_clause(&[!cells[0], !cells[2]]);
        let part: Box<dyn SearchPart> = Box::new(Ints::new(&sums, &[]));
        s.connect_propagator(Box::new(Composite::new(vec![part])));
        let log = Arc::new(Mutex::new(Vec::new()));
        s.set_external_clause_log(Box::new(Shared(log.clone())));
        assert_eq!(s.solve(&[d], Budget::UNLIMITED), Status::Unsat);
        assert_eq!(s.propagator_error(), None);
        let text = String::from_utf8(log.lock().expect("the log").clone()).expect("DIMACS");
        let lens: Vec<usize> = (text.lines())
            .map(|l| l.split_whitespace().count().saturating_sub(1))
            .collect();
        (lens.iter().copied().max().unwrap_or(0), lens.len())
    }

    #[test]
    fn a_split_count_gives_the_engine_short_clauses() {
        let (whole, made) = longest_clause(0);
        assert!(
            made > 0 && whole >= 60,
            "in one piece: longest {whole} of {made}"
        );
        let (split, made) = longest_clause(16);
        // A cell: its block's bound and ≤ 8 cells; a block's bound: N's and 15 others'.
        assert!(made > 0 && split <= 17, "split: longest {split} of {made}");
    }
}
