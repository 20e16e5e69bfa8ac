//! The grid propagator: one `grim_solver::Propagator` made of the parts the families leave to
//! the search (connectivity's reachability, paths' witness walks, the large counts' counters),
//! each a [`SearchPart`] in its family's module.
//!
//! The composite owns what the parts share and nothing else: the notification counter (every
//! assignment is stamped with its place in the order the engine told them, so that a lazy
//! reason can name only literals false before the one it explains), and which part propagated
//! each literal, so that `explain` asks that part. It forwards every callback to every part,
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

    /// The rest of the reason of `lit`, which this part propagated through [`Lazy`]: `reason`
    /// already holds `lit`.
    fn explain(&mut self, lit: Lit, reason: &mut Vec<Lit>);

    /// The next decision, if the part wants to choose it.
    fn decide(&mut self, ctx: &Context<'_>) -> Option<Lit> {
        let _ = ctx;
        None
    }

    /// Forget what earlier passes established, so that the next `propagate` checks everything
    /// (the safety net of `check_model`).
    fn recheck(&mut self);
}

/// No part propagated the literal.
const NOBODY: u8 = u8::MAX;

/// How a part propagates a literal whose reason it gives later: the composite notes which
/// part to ask.
pub(crate) struct Lazy<'a> {
    owners: &'a mut Vec<u8>,
    part: u8,
}

impl Lazy<'_> {
    /// Propagates `lit` through `ctx`, its reason to be asked of this part
    /// ([`SearchPart::explain`]) if conflict analysis needs it. The part records why first.
    pub(crate) fn propagate(&mut self, ctx: &mut Context<'_>, lit: Lit) {
        self.note(lit);
        ctx.propagate(lit);
    }

    /// Notes that this part propagates `lit` lazily, for a part that calls
    /// `Context::propagate` itself (from inside a loop that holds the context).
    pub(crate) fn note(&mut self, lit: Lit) {
        let code = lit.code();
        if self.owners.len() <= code {
            self.owners.resize(code + 1, NOBODY);
        }
        self.owners[code] = self.part;
    }
}

/// The parts as one propagator (see the module doc).
pub(crate) struct Composite {
    /// In rank order.
    parts: Vec<Box<dyn SearchPart>>,
    /// Per literal code: the part that last propagated it lazily (`NOBODY`: none). Like the
    /// parts' own reason records, stale entries are harmless: the engine asks only for the
    /// reason of a literal on its trail, whose entry is the latest.
    owners: Vec<u8>,
    /// Notifications so far.
    now: u64,
}

impl Composite {
    /// The parts, sorted by rank (stable: equal ranks keep the table's order).
    pub(crate) fn new(mut parts: Vec<Box<dyn SearchPart>>) -> Composite {
        debug_assert!(parts.len() < NOBODY as usize);
        parts.sort_by_key(|p| p.rank());
        Composite {
            parts,
            owners: Vec::new(),
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
        self.parts.iter_mut().find_map(|p| p.decide(ctx))
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) {
        for (i, p) in self.parts.iter_mut().enumerate() {
            let mut lazy = Lazy {
                owners: &mut self.owners,
                part: i as u8,
            };
            if p.propagate(ctx, self.now, &mut lazy) {
                return; // a conflict
            }
        }
    }

    fn explain(&mut self, lit: Lit, reason: &mut Vec<Lit>) {
        reason.push(lit);
        let Some(&part) = self.owners.get(lit.code()) else {
            return; // the engine's check reports the missing reason
        };
        if let Some(p) = self.parts.get_mut(part as usize) {
            p.explain(lit, reason);
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
