//! Which rules clash: when no level exists, a small set of rules that together admit none.
//!
//! "No level satisfies the hard rules" is true but useless to a designer with forty rules. So once
//! [`solve`](fn@crate::solve) has proven it, this module names the culprits: it encodes the spec
//! again with every rule behind an *activation literal* of its own (each clause of rule `r` gets
//! `¬g_r`; the structural clauses — one tile and one value per cell, the definitions of class
//! literals — stay unguarded, since they hold in every level), solves with all the activation
//! literals assumed, and takes the engine's failed-assumption core: rules whose conjunction has no
//! level. The core is then shrunk by deletion (drop one rule, solve again under the rest: still no
//! level ⇒ the rule goes, and the new, smaller core replaces the old; a level ⇒ the rule is
//! needed), the classic minimal-unsatisfiable-subset loop over assumptions (as in Marques-Silva &
//! Lynce's survey of MUS extraction, and the "clause set refinement" of Belov & Marques-Silva,
//! FMCAD 2011).
//!
//! How the rules are separated: every family lists its hard rules (`Family::clash_rules`), in
//! table order, each with its switch. Domain rules (`mask` rows, `pins`, `allowed`) and
//! adjacency rules are merged into tables by the reader, so the diagnosis encodes a copy of
//! the spec whose tables their families opened (`Family::open`) and asks those families for
//! each rule's clauses (`Family::own_clauses`). Every other rule's clauses are found by the tags
//! the model records while encoding (`RuleTag`). Connectivity is lazy as in `solve`'s cut
//! loop: a model that breaks an active rule gets the cuts its family gives (`Family::cuts`),
//! guarded by the rule's literal, and is solved again.
//!
//! Soundness of the answer (the named rules really admit no level): with exactly the named
//! rules active, every clause of the diagnosis is either structural, a clause of an active
//! rule, or switched off; switching a rule off only removes constraints (a definition shared
//! with an inactive rule at worst leaves an auxiliary variable free, which weakens, never
//! strengthens, the active rules). So an unsatisfiable answer under those assumptions is a
//! proof about those rules alone. Minimality is best effort: each deletion test has a budget,
//! and a test that runs out keeps its rule.
//!
//! Cost: the answer is already proven, so the diagnosis is extra work; it may spend up to
//! `DIAGNOSIS_BASE + DIAGNOSIS_FACTOR · c` conflicts in all, `c` being the conflicts of the
//! proof, and stops at once when the caller's stop handle is set. When it cannot finish, the
//! core found so far (still a set of rules with no level) is reported, or none at all.

use crate::error::{GridError, Rejection};
use crate::families::FAMILIES;
use crate::families::{connectivity, counts};
use crate::family::{Family, Switch};
use crate::model::{GridModel, Mode};
use crate::options::GridOptions;
use crate::presolve::{self, Active, Bounds, Fact, Presolve};
use crate::referee::check_level;
use crate::spec::{GridSpec, MAX_TILES, RuleRef};
use grim_solver::{Budget, Lit, Solver, Status, Terminator, Var};

/// Conflicts the diagnosis may always spend (whatever the proof cost).
pub const DIAGNOSIS_BASE: u64 = 20_000;
/// And this many per conflict of the proof that no level exists.
pub const DIAGNOSIS_FACTOR: u64 = 4;

/// The rules of `spec` that together admit no level, in file order, given that the hard rules
/// have no level (proven by a solve that took `proof_conflicts` conflicts). Empty when the
/// diagnosis could not finish its first solve within its allowance. An error only when the
/// diagnosis finds a level after all — the proof was wrong, an internal error.
pub(crate) fn explain(
    spec: &GridSpec,
    proof_conflicts: u64,
    stop: Option<&Terminator>,
) -> Result<Vec<RuleRef>, GridError> {
    let allowance = DIAGNOSIS_BASE.saturating_add(DIAGNOSIS_FACTOR.saturating_mul(proof_conflicts));
    let mut d = Diagnosis::new(spec, stop)?;
    let all: Vec<usize> = (0..d.rules.len()).collect();
    let mut core = match d.test(&all, allowance)? {
        Test::Unsat(core) => core,
        // (With every rule active, a level is reported by `test` as an error, not as `Sat`.)
        Test::Unknown | Test::Sat => return Ok(Vec::new()),
    };
    // Deletion: `core[..i]` are known to be needed (dropping one leaves a level).
    let mut i = 0;
    while i < core.len() {
        let left = allowance.saturating_sub(d.solver.stats().conflicts);
        if left == 0 || stop.is_some_and(Terminator::is_set) {
            break;
        }
        let without = [&core[..i], &core[i + 1..]].concat();
        match d.test(&without, left)? {
            // A subset of `without`: it still holds every needed rule (dropping one of them
            // leaves a level, so no core can lack it), and those are its smallest indices.
            Test::Unsat(smaller) => core = smaller,
            Test::Sat | Test::Unknown => i += 1,
        }
    }
    Ok(core.iter().map(|&r| d.rules[r].0.clone()).collect())
}

/// What the bounds presolve (`presolve.rs`) says about a spec before any search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Presolved {
    /// Bounds every level keeps: what the encoder is given instead of the rules as written.
    Bounds(Bounds),
    /// No level: these rules (in file order) admit none, by arithmetic on the counts, the
    /// domains and what the connectivity roots reach — shrunk by deletion as a clash found by
    /// the search is.
    NoLevel {
        /// The rules that cannot all hold.
        clash: Vec<RuleRef>,
    },
}

/// The presolve of `spec` with every rule active: its bounds, or "no level" with the rules
/// that clash. The clash is shrunk twice: by deletion with the presolve itself as the oracle
/// (dropping a rule the presolve still refutes without), then by the diagnosis's deletion with
/// the engine (each test within [`DIAGNOSIS_BASE`] conflicts in all; a test that runs out
/// keeps its rule), so that the named set is minimal for the rules as a whole, not only for
/// what the presolve sees. A count whose own `min` exceeds its `max` is an error naming it.
pub fn presolve(spec: &GridSpec) -> Result<Presolved, GridError> {
    presolve_within(spec, None)
}

/// [`presolve`] that stops shrinking a clash once `stop` is set (the clash then may be larger
/// than needed, never wrong).
pub(crate) fn presolve_within(
    spec: &GridSpec,
    stop: Option<&Terminator>,
) -> Result<Presolved, GridError> {
    presolve::check_counts(spec)?;
    let found = match presolve::presolve(spec, &Active::all(spec)) {
        Presolve::Bounds(b) => return Ok(Presolved::Bounds(b)),
        Presolve::Empty(found) => found,
    };
    let rules = listed(spec);
    let facts: Vec<Option<Fact>> = rules.iter().map(|(_, s, f)| fact(*f, *s)).collect();
    // The rules of a set of facts (indices into `rules`, sorted).
    let of = |found: &[Fact]| -> Vec<usize> {
        (0..rules.len())
            .filter(|&k| facts[k].is_some_and(|f| found.contains(&f)))
            .collect()
    };
    let refutes = |set: &[usize]| -> Option<Vec<usize>> {
        let active: Vec<Fact> = set.iter().filter_map(|&k| facts[k]).collect();
        match presolve::presolve(spec, &Active::only(spec, &active)) {
            Presolve::Empty(found) => Some(of(&found)),
            Presolve::Bounds(_) => None,
        }
    };
    let mut core = of(&found);
    // Deletion by halves, then one by one (the presolve is cheap; a mask makes hundreds of
    // domain rules, of which a clash needs a few).
    let mut chunk = core.len().div_ceil(2).max(1);
    loop {
        let mut i = 0;
        while i < core.len() {
            if stop.is_some_and(Terminator::is_set) {
                break;
            }
            let end = (i + chunk).min(core.len());
            let without = [&core[..i], &core[end..]].concat();
            match refutes(&without) {
                Some(smaller) => core = smaller,
                None => i += chunk,
            }
        }
        if chunk == 1 {
            break;
        }
        chunk = chunk.div_ceil(2);
    }
    // The engine: a rule the presolve needs may still be spared by the rules as a whole.
    // Each test solves the spec of the other rules of the clash alone (a propagated model,
    // usually a level within a few conflicts); a level means the rule is needed.
    let mut spent = 0u64;
    let mut i = 0;
    while core.len() > 1 && i < core.len() {
        let left = DIAGNOSIS_BASE.saturating_sub(spent);
        if left == 0 || stop.is_some_and(Terminator::is_set) {
            break;
        }
        let without = [&core[..i], &core[i + 1..]].concat();
        let active: Vec<Fact> = without.iter().filter_map(|&k| facts[k]).collect();
        let sub = presolve::restricted(spec, &active);
        // The bounds the presolve finds for the rest go in, as in a solve: a ratio of counts
        // alone is a hard search without them (issue 41).
        let sub = match presolve::presolve(&sub, &Active::all(&sub)) {
            Presolve::Bounds(b) => b.apply(&sub, true),
            Presolve::Empty(_) => {
                core = without;
                continue;
            }
        };
        let (status, conflicts) = has_level(&sub, left, stop)?;
        spent = spent.saturating_add(conflicts);
        match status {
            Status::Unsat => core = without,
            Status::Sat | Status::Unknown => i += 1,
        }
    }
    Ok(Presolved::NoLevel {
        clash: core.iter().map(|&k| rules[k].0.clone()).collect(),
    })
}

/// Whether `spec` has a level, by the propagated model with at most `budget` conflicts: the
/// status and the conflicts spent. No referee: the spec is a restriction whose document is
/// the original's.
fn has_level(
    spec: &GridSpec,
    budget: u64,
    stop: Option<&Terminator>,
) -> Result<(Status, u64), GridError> {
    let options = GridOptions {
        seed: None,
        soft_preferences: Some(false),
        ..GridOptions::default()
    };
    let model = GridModel::build_with(spec, &options, Mode::Propagate)?;
    let wcnf = model.problem.to_wcnf();
    let mut s = Solver::new();
    if let Some(stop) = stop {
        s.set_terminator(stop);
    }
    s.reserve_vars(wcnf.num_vars);
    for c in &wcnf.hard {
        s.add_clause(c);
    }
    model.connect_search(&mut s);
    let status = s.solve(&[], Budget::conflicts(budget));
    if let Some(e) = s.propagator_error() {
        return Err(GridError::Rejected(Rejection::Propagator(e.clone())));
    }
    Ok((status, s.stats().conflicts))
}

/// The fact of the presolve a rule is, if the presolve reasons from it.
fn fact(family: &dyn Family, switch: Switch) -> Option<Fact> {
    match switch {
        Switch::Own(i) if family.name() == "tiles" => Some(Fact::Domain(i)),
        Switch::Own(_) => None,
        Switch::Tagged(tag) if tag.family == counts::rule::NAME => Some(Fact::Count(tag.rule)),
        Switch::Tagged(tag) if tag.family == connectivity::rule::NAME => {
            Some(Fact::Connectivity(tag.rule))
        }
        Switch::Tagged(tag) if tag.family == "layers" => {
            Some(Fact::Requires(tag.rule / MAX_TILES, tag.rule % MAX_TILES))
        }
        Switch::Tagged(_) => None,
    }
}

/// Every family's hard rules, in table order, each with its switch and its family.
fn listed(spec: &GridSpec) -> Vec<(RuleRef, Switch, &'static dyn Family)> {
    let mut out = Vec::new();
    for family in FAMILIES {
        for (r, switch) in family.clash_rules(spec) {
            debug_assert!(
                !matches!(switch, Switch::Tagged(t) if t.family != family.name()),
                "{} names a rule it does not tag: {r}",
                family.name(),
            );
            out.push((r, switch, family));
        }
    }
    out
}

enum Test {
    /// The active rules admit a level.
    Sat,
    /// They do not; the failed core (indices into `rules`, sorted).
    Unsat(Vec<usize>),
    /// The allowance ran out or the stop handle was set.
    Unknown,
}

struct Diagnosis<'a> {
    spec: &'a GridSpec,
    model: GridModel,
    solver: Solver,
    /// Per rule: its name, its switch, its activation literal.
    rules: Vec<(RuleRef, Switch, Lit)>,
}

impl<'a> Diagnosis<'a> {
    fn new(spec: &'a GridSpec, stop: Option<&'a Terminator>) -> Result<Diagnosis<'a>, GridError> {
        // A copy whose tables allow everything: the rules merged into them come back one by
        // one below, each behind its own literal.
        let mut open = spec.clone();
        for family in FAMILIES {
            family.open(&mut open);
        }
        let options = GridOptions {
            seed: None,
            soft_preferences: Some(false),
            ..GridOptions::default()
        };
        let model = GridModel::build_with(&open, &options, Mode::Lazy)?;
        let wcnf = model.problem.to_wcnf();
        // Every family's rules, in table order; `owner[k]` is the family of `rules[k]`.
        let (rules, owner): (Vec<(RuleRef, Switch)>, Vec<&dyn Family>) = listed(spec)
            .into_iter()
            .map(|(r, switch, family)| ((r, switch), family))
            .unzip();
        let mut solver = Solver::new();
        if let Some(stop) = stop {
            solver.set_terminator(stop);
        }
        solver.reserve_vars(wcnf.num_vars + rules.len());
        let guard = |k: usize| -> Lit {
            Var::new((wcnf.num_vars + k) as u32)
                .unwrap_or_default()
                .pos()
        };
        let rules: Vec<(RuleRef, Switch, Lit)> = rules
            .into_iter()
            .enumerate()
            .map(|(k, (r, switch))| (r, switch, guard(k)))
            .collect();
        for &(_, _, g) in &rules {
            solver.freeze(g.var());
        }
        let tag_guard = |tag| -> Option<Lit> {
            rules
                .iter()
                .find(|(_, switch, _)| *switch == Switch::Tagged(tag))
                .map(|r| r.2)
        };
        let mut clause = Vec::new();
        for (i, c) in wcnf.hard.iter().enumerate() {
            clause.clear();
            clause.extend_from_slice(c);
            // A clause of a soft rule has no guard (it is not among the rules): its relaxation
            // literal is free in the hard part anyway.
            if let Some(g) = model.tag_of(i).and_then(tag_guard) {
                clause.push(!g);
            }
            solver.add_clause(&clause);
        }
        for ((_, switch, g), family) in rules.iter().zip(&owner) {
            if let Switch::Own(i) = *switch {
                for c in family.own_clauses(spec, &model, i) {
                    clause.clear();
                    clause.push(!*g);
                    clause.extend_from_slice(&c);
                    solver.add_clause(&clause);
                }
            }
        }
        for family in FAMILIES {
            for l in family.cut_lits(&model) {
                solver.freeze(l.var());
            }
        }
        Ok(Diagnosis {
            spec,
            model,
            solver,
            rules,
        })
    }

    /// Solves with the rules `active` (indices into `rules`) switched on, adding connectivity
    /// cuts until the model keeps every active connectivity rule; at most `allowance`
    /// conflicts.
    fn test(&mut self, active: &[usize], allowance: u64) -> Result<Test, GridError> {
        let assume: Vec<Lit> = active.iter().map(|&r| self.rules[r].2).collect();
        let start = self.solver.stats().conflicts;
        loop {
            let used = self.solver.stats().conflicts - start;
            let left = allowance.saturating_sub(used);
            if left == 0 {
                return Ok(Test::Unknown);
            }
            match self.solver.solve(&assume, Budget::conflicts(left)) {
                Status::Unknown => return Ok(Test::Unknown),
                Status::Unsat => {
                    let failed = self.solver.failed_assumptions();
                    let mut core: Vec<usize> = active
                        .iter()
                        .copied()
                        .filter(|&r| failed.contains(&self.rules[r].2))
                        .collect();
                    core.sort_unstable();
                    return Ok(Test::Unsat(core));
                }
                Status::Sat => {}
            }
            let values = self.solver.model().unwrap_or_default();
            let level = self.model.decode(&values)?;
            let mut cut_any = false;
            for family in FAMILIES {
                for (tag, mut cut) in family.cuts(&self.model, &level) {
                    let rule = self.rules.iter().position(|r| r.1 == Switch::Tagged(tag));
                    let Some(k) = rule.filter(|k| active.contains(k)) else {
                        continue;
                    };
                    cut.push(!self.rules[k].2);
                    self.solver.add_clause(&cut);
                    cut_any = true;
                }
            }
            if cut_any {
                continue;
            }
            if active.len() < self.rules.len() {
                return Ok(Test::Sat);
            }
            // Every rule holds in this level, yet the solve proved that none exists.
            return Err(GridError::Rejected(Rejection::DiagnosisFoundLevel {
                level: level.to_text(self.spec),
                violations: check_level(self.spec, &level).err().unwrap_or_default(),
            }));
        }
    }
}
