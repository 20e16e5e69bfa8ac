//! [`Family`]: what the pipeline asks of a rule family, and the one way it asks.
//!
//! A family (tiles and domains, adjacency, layers, counts, enclosure, connectivity, paths,
//! preferences) is one module under `families/` that owns its rule types, their reading from
//! `grid.json`, their clauses, their share of the search-time propagator and their names in a
//! clash. The read stage (`read.rs`), the compile stage (`compile.rs`), the cut loop
//! (`solve.rs`) and the clash diagnosis (`clash.rs`) walk the table (`families/mod.rs`) and
//! call these methods; none of them names a family. Every method but [`Family::name`],
//! [`Family::read`] and [`Family::encode`] has a default that does nothing, so a family
//! implements only what it takes part in.
//!
//! Why a trait object table and not generics: the stages run the families in a loop, in the
//! table's order, a handful of calls per solve — dispatch there costs nothing measurable. The
//! hot path (the propagator's callbacks) goes through [`crate::search::SearchPart`], also
//! dynamic but once per callback and part, not per literal.

use crate::error::GridError;
use crate::level::Level;
use crate::model::GridModel;
use crate::spec::reader::{self, Reader};
use crate::spec::{GridSpec, RuleRef, RuleTag};
use grim_solver::Lit;
use serde_json::{Map, Value};

/// The passes of the read stage. Each family reads its fields in the pass where what they
/// name is known; the passes also keep the order in which the reader has always reported the
/// first of several mistakes (names, then the adjacency tables, then the cell rules and the
/// global rules in table order).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pass {
    /// The names every other field refers to: the tiles (and their classes), the layers (and
    /// their values).
    Names,
    /// Tables over pairs of tiles: what may sit beside what.
    Tables,
    /// Everything about cells: domains, counts, enclosure, connectivity, paths, preferences.
    Rules,
}

/// How the clash diagnosis switches one rule on and off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Switch {
    /// The model tagged the rule's clauses while encoding; the diagnosis guards each of them.
    Tagged(RuleTag),
    /// The reader merged the rule into a table (the domains, the adjacency tables): the
    /// diagnosis opens the table ([`Family::open`]) and the family gives this rule's clauses
    /// itself ([`Family::own_clauses`]); the number is the family's own.
    Own(usize),
}

/// What a family reads with: the pass, the names read so far, the document, and the spec it
/// fills in.
pub(crate) struct Reading<'a> {
    /// The pass now running.
    pub(crate) pass: Pass,
    /// The tiles and layers read so far, and the name resolving.
    pub(crate) reader: &'a mut Reader,
    /// The document's top level.
    pub(crate) doc: &'a Map<String, Value>,
    /// The spec being read.
    pub(crate) spec: &'a mut GridSpec,
}

impl Reading<'_> {
    /// The list of rules under `field`, each read by `item`, handed to `store` — in the rules
    /// pass, when the document has the field (what most families read).
    pub(crate) fn rules<T>(
        &mut self,
        field: &str,
        item: fn(&Reader, &Value, &str) -> Result<T, GridError>,
        store: fn(&mut GridSpec, Vec<T>),
    ) -> Result<(), GridError> {
        if self.pass == Pass::Rules
            && let Some(v) = reader::field(self.doc, field)
        {
            store(self.spec, self.reader.list(v, field, item)?);
        }
        Ok(())
    }
}

/// One rule family, as the stages see it. See the module doc.
pub(crate) trait Family: Sync {
    /// The top-level fields of `grid.json` the family reads, the one its rules are listed
    /// under first (the read stage checks them against the document's list of known fields).
    fn fields(&self) -> &'static [&'static str];

    /// The family's name: the first of its fields (`counts`); it tags the family's rules
    /// ([`RuleTag::family`]).
    fn name(&self) -> &'static str {
        self.fields()[0]
    }

    /// Reads the family's fields in `at.pass` (nothing in the passes where it has nothing to
    /// read): names into `at.reader`, rules into `at.spec`. Errors name the field and the value.
    fn read(&self, at: &mut Reading<'_>) -> Result<(), GridError>;

    /// Records the wished values the family knows, before any family encodes (only the
    /// preferences draw wishes; `compile.rs` says why first).
    fn wish(&self, m: &mut GridModel) {
        let _ = m;
    }

    /// Encodes the family's rules into `m`, as `m.mode` asks: clauses (tagged by rule), and in
    /// a propagated model the search plan of what it leaves to the propagator
    /// ([`GridModel::plans`]).
    fn encode(&self, m: &mut GridModel);

    /// The family's hard rules the clash diagnosis can switch on and off, in file order, each
    /// with its name (field path and a few words from the document) and its switch.
    fn clash_rules(&self, spec: &GridSpec) -> Vec<(RuleRef, Switch)> {
        let _ = spec;
        Vec::new()
    }

    /// Opens what the family merged into tables of `spec` (a domain allowing every tile, no
    /// adjacency forbidden) and drops what the diagnosis does not need, so that a model of it
    /// holds none of the family's [`Switch::Own`] rules.
    fn open(&self, spec: &mut GridSpec) {
        let _ = spec;
    }

    /// The clauses of the family's rule `rule` ([`Switch::Own`]) in the model `m` of the opened
    /// spec (the diagnosis guards each); `spec` is the spec as read.
    fn own_clauses(&self, spec: &GridSpec, m: &GridModel, rule: usize) -> Vec<Vec<Lit>> {
        let _ = (spec, m, rule);
        Vec::new()
    }

    /// For the cut loop (`Mode::Lazy`): the literals its cuts are made of (frozen, so that the
    /// engine's elimination keeps them).
    fn cut_lits(&self, m: &GridModel) -> Vec<Lit> {
        let _ = m;
        Vec::new()
    }

    /// For the cut loop: the clauses that `level` (a model of the lazy model) breaks and every
    /// level keeps, each with the tag of the rule it comes from. Empty when the level keeps the
    /// family's rules.
    fn cuts(&self, m: &GridModel, level: &Level) -> Vec<(RuleTag, Vec<Lit>)> {
        let _ = (m, level);
        Vec::new()
    }

    /// For the cut loop, after cuts: phase hints that steer the next round towards a level
    /// that keeps the rules (a steer, not a rule).
    fn steer_phases(&self, m: &GridModel, level: &Level) -> Vec<Lit> {
        let _ = (m, level);
        Vec::new()
    }

    /// For the cut loop's hard rounds: literals to assume for one round (dropped when they
    /// make it unsatisfiable).
    fn steer_assumptions(&self, m: &GridModel, level: &Level) -> Vec<Lit> {
        let _ = (m, level);
        Vec::new()
    }

    /// For soft levels: a lower bound on the cost from the family's hard rules alone, where
    /// `costs[c][t]` is what cell `c` pays for tile `t` (the soft unit wishes on tiles; every
    /// other soft clause only adds). Why: a bound a family derives from its structure (a
    /// min cut for the enclosure) can end a search the core-guided engine would take thousands
    /// of cores to close (issue 41). `halt` is the caller's stop, asked now and then. `None`:
    /// the family has nothing to say.
    fn soft_bound(
        &self,
        m: &GridModel,
        costs: &[Vec<u64>],
        halt: &dyn Fn() -> bool,
    ) -> Option<SoftBound> {
        let _ = (m, costs, halt);
        None
    }

    /// For soft levels, once the search holds a level of cost `cap + 1` and has not proven it:
    /// a lower bound on the cost as [`Family::soft_bound`], which only needs to be exact up to
    /// `cap` (a bound above `cap` proves that level optimal). Why a second hook: a bound too
    /// costly to compute before every search (a dynamic program over the grid) becomes cheap
    /// when partial solutions that cannot end at `cap` are dropped, and is worth its time only
    /// on the seeds the search does not close at once (issue 41). `work` is what the caller
    /// lets the families spend over all its calls (in the families' own units: the program's
    /// transitions), decreased by what this call spent. `None`: nothing to say.
    fn soft_bound_below(
        &self,
        m: &GridModel,
        costs: &[Vec<u64>],
        cap: u64,
        work: &mut u64,
        halt: &dyn Fn() -> bool,
    ) -> Option<LateBound> {
        let _ = (m, costs, cap, work, halt);
        None
    }
}

/// A family's bound up to a cap ([`Family::soft_bound_below`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct LateBound {
    /// No level costs less.
    pub(crate) lower: u64,
    /// When the relaxation's least is at most the cap: the tiles each cell may take in a
    /// solution of the relaxation costing `lower` (row-major) — for the search to try.
    pub(crate) cells: Option<Vec<Vec<usize>>>,
}

/// A family's lower bound on a soft level's cost ([`Family::soft_bound`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SoftBound {
    /// No level costs less (in the wishes' units, every soft clause counted).
    pub(crate) lower: u64,
    /// Tiles per cell (row-major) of a level of the relaxation that costs `lower` in wishes,
    /// when the family found one: a candidate for the real search to confirm (it may break
    /// other rules), which then proves the optimum.
    pub(crate) witness: Option<Vec<usize>>,
}

/// A field of the document as a designer reads it, for the few words of a [`RuleRef`]: names
/// bare, lists joined, a cell as `x=3 y=4`.
pub(crate) fn text(v: Option<&Value>) -> String {
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

/// The rules `field[i]` for `i` in `rules`, each named by [`rule_ref`] with `keys` and switched
/// by its tag: what most families' clash rules are.
pub(crate) fn tagged(
    spec: &GridSpec,
    field: &'static str,
    keys: &[&str],
    rules: impl Iterator<Item = usize>,
) -> Vec<(RuleRef, Switch)> {
    let named = |i| {
        (
            rule_ref(spec, field, i, keys),
            Switch::Tagged(RuleTag::new(field, i)),
        )
    };
    rules.map(named).collect()
}

/// `field[i]` as a clash names it: its path, and the listed `keys` of the document's entry
/// that are present (`of floor, min 0.3`).
pub(crate) fn rule_ref(spec: &GridSpec, field: &str, i: usize, keys: &[&str]) -> RuleRef {
    let entry = spec.document().get(field).and_then(|v| v.get(i));
    let summary = keys
        .iter()
        .filter_map(|&k| {
            let f = entry.and_then(|v| v.get(k)).filter(|f| !f.is_null())?;
            Some(format!("{k} {}", text(Some(f))))
        })
        .collect::<Vec<_>>()
        .join(", ");
    RuleRef::new(format!("{field}[{i}]"), summary)
}
