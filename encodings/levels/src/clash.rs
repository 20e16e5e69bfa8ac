//! Which rules clash: when no level exists, a small set of rules that together admit none.
//!
//! "No level satisfies the hard rules" is true but useless to a designer with forty rules.
//! So once [`super::solve`] has proven it, this module names the culprits: it encodes the spec
//! again with every rule behind an *activation literal* of its own (each clause of rule `r`
//! gets `¬g_r`; the structural clauses — one tile and one value per cell, the definitions of
//! class literals — stay unguarded, since they hold in every level), solves with all the
//! activation literals assumed, and takes the engine's failed-assumption core: rules whose
//! conjunction has no level. The core is then shrunk by deletion (drop one rule, solve again
//! under the rest: still no level ⇒ the rule goes, and the new, smaller core replaces the old;
//! a level ⇒ the rule is needed), the classic minimal-unsatisfiable-subset loop over
//! assumptions (as in Marques-Silva & Lynce's survey of MUS extraction, and the "clause set
//! refinement" of Belov & Marques-Silva, FMCAD 2011).
//!
//! How the rules are separated: domain rules (`mask` rows, `pins`, `allowed`) and adjacency
//! rules are merged into tables by `spec.rs`, so the diagnosis encodes a copy of the spec whose
//! domains and adjacency tables allow everything and emits each domain or adjacency rule's
//! clauses itself, from the per-rule lists the reader kept (`GridSpec::origins`). Every other
//! rule's clauses are found by the tags the model records while encoding (`RuleTag`).
//! Connectivity is lazy as in `solve`: a model that breaks an active connectivity rule gets
//! that rule's separator cuts, guarded by the rule's literal, and is solved again.
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

use super::connectivity;
use super::model::{ConnMode, RuleTag};
use super::spec::RuleRef;
use super::{Dir, GridError, GridModel, GridOptions, GridSpec, Rejection, check_level};
use grim_solver::{Budget, Lit, Solver, Status, Terminator, Var};
use serde_json::Value;

/// Conflicts the diagnosis may always spend (whatever the proof cost).
pub const DIAGNOSIS_BASE: u64 = 20_000;
/// And this many per conflict of the proof that no level exists.
pub const DIAGNOSIS_FACTOR: u64 = 4;

/// One rule the diagnosis can switch on and off.
enum Kind {
    /// `GridSpec::origins.domain[i]`.
    Domain(usize),
    /// `GridSpec::origins.adjacency[i]`.
    Adjacency(usize),
    /// A rule the model tags.
    Tagged(RuleTag),
}

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
    /// Per rule: its name, what it is, its activation literal.
    rules: Vec<(RuleRef, Kind, Lit)>,
    /// Per connectivity rule: its class literals, root cell and index in `rules`.
    connectivity: Vec<(Vec<Lit>, Option<usize>, usize)>,
}

impl<'a> Diagnosis<'a> {
    fn new(spec: &'a GridSpec, stop: Option<&'a Terminator>) -> Result<Diagnosis<'a>, GridError> {
        // A copy whose domains and adjacency allow everything: those rules come back one by
        // one below, each behind its own literal.
        let mut open = spec.clone();
        for d in &mut open.domains {
            d.fill(true);
        }
        for table in &mut open.adjacent {
            for row in table.iter_mut() {
                row.fill(true);
            }
        }
        open.preferences = None;
        let options = GridOptions {
            seed: None,
            soft_preferences: Some(false),
        };
        let model = GridModel::build_with(&open, &options, ConnMode::Lazy)?;
        let wcnf = model.problem.to_wcnf();
        let mut rules: Vec<(RuleRef, Kind)> = Vec::new();
        for (i, (rule, _, _)) in spec.origins.domain.iter().enumerate() {
            rules.push((rule.clone(), Kind::Domain(i)));
        }
        for (i, (rule, _)) in spec.origins.adjacency.iter().enumerate() {
            rules.push((rule.clone(), Kind::Adjacency(i)));
        }
        for tag in tags(spec) {
            rules.push((describe(spec, tag), Kind::Tagged(tag)));
        }
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
        let rules: Vec<(RuleRef, Kind, Lit)> = rules
            .into_iter()
            .enumerate()
            .map(|(k, (r, kind))| (r, kind, guard(k)))
            .collect();
        for &(_, _, g) in &rules {
            solver.freeze(g.var());
        }
        let tag_guard = |tag: RuleTag| -> Option<Lit> {
            rules
                .iter()
                .find(|(_, kind, _)| matches!(kind, Kind::Tagged(t) if *t == tag))
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
        let t = spec.tiles.len();
        for (_, kind, g) in &rules {
            match *kind {
                Kind::Domain(i) => {
                    let (_, c, allowed) = &spec.origins.domain[i];
                    for a in (0..t).filter(|&a| !allowed[a]) {
                        solver.add_clause(&[!*g, !model.tile_lit(*c, a)]);
                    }
                }
                Kind::Adjacency(i) => {
                    let (_, forbidden) = &spec.origins.adjacency[i];
                    // Each pair of neighbours through its east and south sides (the mirrors
                    // in the list say the same of the west and north sides).
                    for &(d, a, b) in forbidden.iter().filter(|t| matches!(t.0, Dir::E | Dir::S)) {
                        for c in 0..spec.cells() {
                            if let Some(e) = spec.neighbour(c, d) {
                                let x = model.tile_lit(c, a);
                                let y = model.tile_lit(e, b);
                                solver.add_clause(&[!*g, !x, !y]);
                            }
                        }
                    }
                }
                Kind::Tagged(_) => {}
            }
        }
        let mut connectivity = Vec::new();
        for (i, rule) in spec.connectivity.iter().enumerate() {
            let lits = model
                .class_lits
                .get(&rule.class)
                .cloned()
                .unwrap_or_default();
            for l in &lits {
                solver.freeze(l.var());
            }
            let k = rules.iter().position(
                |(_, kind, _)| matches!(kind, Kind::Tagged(RuleTag::Connectivity(j)) if *j == i),
            );
            if let Some(k) = k {
                connectivity.push((lits, rule.root.map(|(x, y)| spec.index(x, y)), k));
            }
        }
        Ok(Diagnosis {
            spec,
            model,
            solver,
            rules,
            connectivity,
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
            for (lits, root, k) in &self.connectivity {
                if !active.contains(k) {
                    continue;
                }
                let class = &self.spec.connectivity[cut_index(&self.rules[*k].1)].class;
                let holds: Vec<bool> = level.tiles.iter().map(|&t| class[t]).collect();
                for mut cut in connectivity::cuts(self.spec, lits, &holds, *root) {
                    cut.push(!self.rules[*k].2);
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

/// The connectivity rule index of a tagged kind.
fn cut_index(kind: &Kind) -> usize {
    match kind {
        Kind::Tagged(RuleTag::Connectivity(i)) => *i,
        _ => 0,
    }
}

/// The hard rules the model tags, in file order.
fn tags(spec: &GridSpec) -> Vec<RuleTag> {
    let mut out = Vec::new();
    for (l, layer) in spec.layers.iter().enumerate() {
        for (v, value) in layer.values.iter().enumerate() {
            if value.requires.is_some() {
                out.push(RuleTag::Requires { layer: l, value: v });
            }
        }
    }
    for (i, c) in spec.counts.iter().enumerate() {
        if c.weight.is_none() {
            out.push(RuleTag::Count(i));
        }
    }
    for (i, e) in spec.enclosure.iter().enumerate() {
        if e.weight.is_none() {
            out.push(RuleTag::Enclosure(i));
        }
    }
    out.extend((0..spec.connectivity.len()).map(RuleTag::Connectivity));
    out.extend((0..spec.paths.len()).map(RuleTag::Path));
    out
}

/// A field as a designer reads it: names bare, lists joined, a cell as `x=3 y=4`.
fn text(v: Option<&Value>) -> String {
    match v {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(a)) => a
            .iter()
            .map(|x| text(Some(x)))
            .collect::<Vec<_>>()
            .join(", "),
        Some(Value::Object(m)) => match (m.get("x"), m.get("y")) {
            (Some(x), Some(y)) => format!("x={x} y={y}"),
            _ => Value::Object(m.clone()).to_string(),
        },
        Some(other) => other.to_string(),
    }
}

/// A rule's name and a few words of what it says, from the document as written.
fn describe(spec: &GridSpec, tag: RuleTag) -> RuleRef {
    let doc = spec.document();
    let entry = |key: &str, i: usize| doc.get(key).and_then(|v| v.get(i));
    let fields = |v: Option<&Value>, keys: &[&str]| -> String {
        keys.iter()
            .filter_map(|&k| {
                let f = v.and_then(|v| v.get(k)).filter(|f| !f.is_null())?;
                Some(format!("{k} {}", text(Some(f))))
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    match tag {
        RuleTag::Requires { layer, value } => {
            let l = &spec.layers[layer];
            let v = doc
                .get("layers")
                .and_then(|x| x.get(layer))
                .and_then(|x| x.get("values"))
                .and_then(|x| x.get(value));
            RuleRef::new(
                format!("layers[{layer}].values[{value}].requires"),
                format!(
                    "{}.{} only on {}",
                    l.name,
                    l.values[value].name,
                    text(v.and_then(|v| v.get("requires")))
                ),
            )
        }
        RuleTag::Count(i) => RuleRef::new(
            format!("counts[{i}]"),
            fields(entry("counts", i), &["of", "per", "min", "max", "region"]),
        ),
        RuleTag::Enclosure(i) => RuleRef::new(
            format!("enclosure[{i}]"),
            fields(entry("enclosure", i), &["class", "open", "min"]),
        ),
        RuleTag::Connectivity(i) => RuleRef::new(
            format!("connectivity[{i}]"),
            fields(entry("connectivity", i), &["class", "root"]),
        ),
        RuleTag::Path(i) => RuleRef::new(
            format!("paths[{i}]"),
            fields(entry("paths", i), &["from", "to", "through", "max_length"]),
        ),
    }
}
