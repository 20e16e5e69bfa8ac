//! The grid propagator: one `grim_solver::Propagator` made of the parts the families leave to
//! the search (connectivity's reachability, paths' witness walks, the large counts' counters),
//! each a [`SearchPart`] in its family's module.
//!
//! The composite owns what the parts share and nothing else: the notification counter (every
//! assignment is stamped with its place in the order the engine told them, so that a lazy
//! reason can name only literals false before the one it explains), and one table of why each
//! literal was propagated lazily — which part, and the part's few numbers ([`Reason`]) — so
//! that `explain` asks that part. One table for all parts, not one per part: the engine asks for
//! the reason of the latest propagation of a literal, and with one table the latest record is
//! the one there (per-part tables would keep stale records a second part cannot see past). It forwards every callback to every part,
//! cheapest first ([`SearchPart::rank`]): a conflict found by a cheap part ends the callback
//! before the expensive passes run, as the engine backtracks anyway.
//!
//! Dispatch is dynamic, once per callback and part (three parts at most), never per literal:
//! each part receives the whole batch of notified literals. Measured against the single
//! propagator this replaced (callgrind, `benches/results/issue39-families-no-change-*.md`).

use grim_solver::{Context, Lit, Propagator, Var};

/// One family's share of the search-time checking. The composite calls each method once per
/// engine callback, in [`SearchPart::rank`] order.
pub(crate) trait SearchPart: Send {
    /// Where the part runs in each callback: lower first. Cheap checks come first (a count is a
    /// comparison per rule that lost weight, a path nothing while its witness walk stands,
    /// connectivity a pass over the region), so that a conflict they find spares the rest.
    fn rank(&self) -> u32;

    /// Appends the variables the part reads (the composite sorts and deduplicates them).
    fn observed(&self, out: &mut Vec<Var>);

    /// `lits` were assigned at `level`; `lits[i]` was told as notification `first + i`.
    fn notify(&mut self, lits: &[Lit], level: u32, first: u64);

    /// Every assignment above `level` was undone.
    fn backtrack(&mut self, level: u32);

    /// A propagation fixpoint, `now` the last notification: propagate (lazily through `lazy`,
    /// or with a reason through `ctx`) or add clauses. Returns true when it reported a
    /// conflict, which ends the callback.
    fn propagate(&mut self, ctx: &mut Context<'_>, now: u64, lazy: &mut Lazy<'_>) -> bool;

    /// The rest of the reason of `lit`, which this part propagated through [`Lazy`] with `why`:
    /// `reason` already holds `lit`.
    fn explain(&mut self, lit: Lit, why: Reason, reason: &mut Vec<Lit>);

    /// Whether the part ever chooses decisions ([`SearchPart::decide`]); the composite asks
    /// only those that do.
    fn decides(&self) -> bool {
        false
    }

    /// Where the part is asked for a decision among the parts that decide: lower first (its
    /// [`SearchPart::rank`] unless it says otherwise). Why apart from the rank: a part can be
    /// cheap to propagate yet want to decide only once another part's decisions are done (a
    /// separated item placed after the region it stands on is grown).
    fn decide_rank(&self) -> u32 {
        self.rank()
    }

    /// The next decision, if the part wants to choose it.
    fn decide(&mut self, ctx: &Context<'_>) -> Option<Lit> {
        let _ = ctx;
        None
    }

    /// Forget what earlier passes established, so that the next `propagate` checks everything
    /// (the safety net of `check_model`).
    fn recheck(&mut self);
}

/// Why a part propagated a literal, in the part's own terms: what kind of inference (`kind`),
/// up to four numbers it needs (rule, cells, a row), and the notification it was made at; and
/// which part it was (`part`, filled in by [`Lazy`]). 32 bytes, written once per lazy
/// propagation (the single propagator this replaced wrote a 48-byte enum), read back only
/// when conflict analysis asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Reason {
    /// The part's own kind of inference.
    pub(crate) kind: u8,
    /// The part that propagated (an index into the composite's parts; `NOBODY`: none).
    part: u8,
    /// The part's numbers.
    pub(crate) at: [u32; 4],
    /// The notification the inference was made at.
    pub(crate) stamp: u64,
}

impl Reason {
    /// A reason of kind `kind` with the numbers `at`, made at notification `stamp`.
    #[inline]
    pub(crate) fn new(kind: u8, at: [u32; 4], stamp: u64) -> Reason {
        Reason {
            kind,
            part: NOBODY,
            at,
            stamp,
        }
    }
}

/// No part propagated the literal.
const NOBODY: u8 = u8::MAX;

/// How a part propagates a literal whose reason it gives later: the composite records which
/// part, and why.
pub(crate) struct Lazy<'a> {
    records: &'a mut Vec<Reason>,
    part: u8,
}

impl Lazy<'_> {
    /// Propagates `lit` through `ctx`; if conflict analysis asks for its reason, this part is
    /// given `why` back ([`SearchPart::explain`]).
    #[inline]
    pub(crate) fn propagate(&mut self, ctx: &mut Context<'_>, lit: Lit, why: Reason) {
        self.record(lit, why);
        ctx.propagate(lit);
    }

    /// Records `why` for `lit`, for a part that calls `Context::propagate` itself (from inside
    /// a loop that holds the context).
    #[inline]
    pub(crate) fn record(&mut self, lit: Lit, why: Reason) {
        let code = lit.code();
        if self.records.len() <= code {
            self.records.resize(code + 1, Reason::new(0, [0; 4], 0));
        }
        self.records[code] = Reason {
            part: self.part,
            ..why
        };
    }
}

/// The parts as one propagator (see the module doc).
pub(crate) struct Composite {
    /// In rank order.
    parts: Vec<Box<dyn SearchPart>>,
    /// The parts that decide ([`SearchPart::decides`]), in [`SearchPart::decide_rank`] order.
    deciders: Vec<usize>,
    /// Per literal code: why it was last propagated lazily, by which part (`NOBODY`: none).
    /// Stale entries are harmless: the engine asks only for the reason of a literal on its
    /// trail, whose entry is the latest.
    records: Vec<Reason>,
    /// Notifications so far.
    now: u64,
}

impl Composite {
    /// The parts, sorted by rank (stable: equal ranks keep the table's order).
    pub(crate) fn new(mut parts: Vec<Box<dyn SearchPart>>) -> Composite {
        debug_assert!(parts.len() < NOBODY as usize);
        parts.sort_by_key(|p| p.rank());
        let mut deciders: Vec<usize> = (0..parts.len()).filter(|&i| parts[i].decides()).collect();
        deciders.sort_by_key(|&i| parts[i].decide_rank());
        Composite {
            parts,
            deciders,
            records: Vec::new(),
            now: 0,
        }
    }
}

impl Propagator for Composite {
    fn observed(&self) -> Vec<Var> {
        let mut vars = Vec::new();
        for p in &self.parts {
            p.observed(&mut vars);
        }
        vars.sort_unstable_by_key(|v| v.index());
        vars.dedup();
        vars
    }

    fn notify_assignments(&mut self, lits: &[Lit], level: u32) {
        let first = self.now + 1;
        for p in &mut self.parts {
            p.notify(lits, level, first);
        }
        self.now += lits.len() as u64;
    }

    fn notify_backtrack(&mut self, level: u32) {
        for p in &mut self.parts {
            p.backtrack(level);
        }
    }

    fn decide(&mut self, ctx: &Context<'_>) -> Option<Lit> {
        let parts = &mut self.parts;
        self.deciders.iter().find_map(|&i| parts[i].decide(ctx))
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) {
        for (i, p) in self.parts.iter_mut().enumerate() {
            let mut lazy = Lazy {
                records: &mut self.records,
                part: i as u8,
            };
            if p.propagate(ctx, self.now, &mut lazy) {
                return; // a conflict
            }
        }
    }

    fn explain(&mut self, lit: Lit, reason: &mut Vec<Lit>) {
        reason.push(lit);
        let Some(&why) = self.records.get(lit.code()) else {
            return; // the engine's check reports the missing reason
        };
        if let Some(p) = self.parts.get_mut(why.part as usize) {
            p.explain(lit, why, reason);
        }
    }

    fn check_model(&mut self, ctx: &mut Context<'_>) {
        // Every fixpoint was propagated, so a complete assignment keeps every rule; this is
        // the safety net that makes it a guarantee.
        for p in &mut self.parts {
            p.recheck();
        }
        self.propagate(ctx);
    }
}
