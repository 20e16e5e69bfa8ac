//! [`GridModel`]: a [`GridSpec`] encoded into a [`Problem`], with the variable map that lets
//! any solver's model be read back as a [`Level`].
//!
//! Variable layout (DIMACS numbers are these plus one): variable 0 is the Problem API's
//! constant true; then one variable per cell and tile (`1 + cell · tiles + tile`, row-major
//! cells), then one per cell and value of each layer in turn; everything after is auxiliary.
//! The layout is stable so that comment lines of an exported CNF can name cells.
//!
//! This is the model's core: what every family encodes into and reads from — the variables,
//! the class literals (`class_lits`, shared by every rule over the same tile set), the tags
//! that name each hard clause's rule for the clash diagnosis, the wished values the hints come
//! from, and the search plans that become the propagator. It names no family: the families
//! write into it (`families/<name>/`), and `compile.rs` runs them through the table.

use crate::error::{GridError, ModelFault};
use crate::level::Level;
use crate::options::GridOptions;
use crate::search::{Composite, SearchPart};
use crate::spec::{GridSpec, Region, RuleTag, Selection, TileSet};
use grim_formula::{Cnf, Wcnf};
use grim_maxsat::problem::Problem;
use grim_solver::{Lit, Var};
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

/// Which model a build makes: every family encodes its rules completely for the export, or
/// leaves its global part to the loop or the propagator that checks it during the solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Everything as clauses (connectivity's founded encoding, paths' layers, counts' adders):
    /// sound and complete on its own; what the export writes.
    Eager,
    /// As `Eager` but connectivity only as the small-fragment cuts: the cut loop of `solve.rs`
    /// adds separator cuts (and the clash diagnosis builds its model this way).
    Lazy,
    /// Connectivity, paths and large counts left to the propagator ([`GridModel::propagator`]),
    /// which the engine solving this model must have connected.
    Propagate,
}

/// What a family leaves the search to check in a propagated model, recorded while it encodes:
/// [`SearchPlan::part`] makes a fresh checker (a part of the composite propagator,
/// `search.rs`) for each engine. Shared, not copied, by clones of the model.
pub(crate) trait SearchPlan: fmt::Debug + Send + Sync {
    /// A fresh part for a new engine, built from the finished model (its wished values).
    fn part(&self, m: &GridModel) -> Box<dyn SearchPart>;
}

/// A grid encoded as a [`Problem`]; see the module doc for the variable layout.
#[derive(Clone, Debug)]
pub struct GridModel {
    pub(crate) spec: GridSpec,
    /// The options it was built with.
    pub(crate) options: GridOptions,
    /// Which model this is: the export's, the cut loop's or the propagator's.
    pub(crate) mode: Mode,
    pub(crate) problem: Problem,
    /// `cell · tiles + tile` → variable.
    pub(crate) cell_vars: Vec<Var>,
    /// Per layer, `cell · values + value` → variable.
    pub(crate) layer_vars: Vec<Vec<Var>>,
    /// Cache of "the cell holds a tile of this set" literals, per set.
    pub(crate) class_lits: BTreeMap<TileSet, Vec<Lit>>,
    pub(crate) hints: Vec<Lit>,
    /// Auxiliary variables (index ranges) the CNF export writes as they are, where it negates
    /// every other auxiliary variable ([`GridModel::export_negated`]): the lower half of each
    /// set of reachability layers from fixed bases (`layered.rs`), the locks family's
    /// (`compile.rs`).
    pub(crate) export_plain: Vec<std::ops::Range<usize>>,
    /// Whether the wishes are soft clauses (set by the preferences family).
    pub(crate) soft_preferences: bool,
    /// Per variable, its value in the wished-for level (seeded preferences), when known:
    /// cell and layer variables, and the auxiliary variables the encodings define as functions
    /// of them (sorting-network nodes, class literals). Every known value becomes a phase
    /// hint, so the engine never decides an auxiliary variable against the wishes.
    pub(crate) wished: Vec<Option<bool>>,
    /// Which rule made the hard clauses: from clause index `.0` of the problem on (until the
    /// next entry) the clauses belong to rule `.1`; `None` is structural (exactly one tile or
    /// value per cell, the definitions of class literals), which holds in every level.
    pub(crate) tags: Vec<(usize, Option<RuleTag>)>,
    /// What the families left to the search, in table order (see [`SearchPlan`]): the parts
    /// of [`GridModel::propagator`].
    pub(crate) plans: Vec<Arc<dyn SearchPlan>>,
    /// Variables the engine should decide only after every other one
    /// (`Solver::defer_decision`): auxiliary literals the search parts fix by propagation
    /// once the cells are fixed (the count integers' order literals, `families/counts/ints.rs`).
    pub(crate) deferred: Vec<Var>,
    /// Why this model cannot be built, when a family found out while encoding (an exact
    /// encoding too large for the export): the build returns it instead of the model.
    pub(crate) refused: Option<GridError>,
    /// Where each named part of the encoding started: its name, the variable count and the
    /// hard clause count at that moment (see [`GridModel::sizes`]). Marked by the compile
    /// stage per family and by the large encodings per sub-part.
    pub(crate) parts: Vec<(String, usize, usize)>,
    /// Reachability layers one rule built for another to read (the export only: a
    /// connectivity rule's for a bounded path from its root through its class).
    pub(crate) shared_layers: Vec<SharedLayers>,
}

/// Reachability layers a connectivity rule with a fixed root built, kept for a bounded path
/// from the same root through the same class, whose walks they already describe: `g_t(c)` =
/// "a walk of at most `t` class cells from `root` ends at `c`" is the path's reachability when
/// its `pass` is the class. The connectivity rule widened the windows to the path's (`hi(c) ≥
/// max_length − dist(c, to)`), so reading layer `max_length − 1` of a cell on a shortest walk
/// is complete (`layered.rs`).
#[derive(Clone, Debug)]
pub(crate) struct SharedLayers {
    /// The root cell.
    pub(crate) root: usize,
    /// The class the walk goes through.
    pub(crate) class: TileSet,
    /// The path's `max_length` the windows were widened to.
    pub(crate) len: usize,
    /// Per cell, its window's first layer and literals (`layered::Layers::windows`).
    pub(crate) windows: Vec<(usize, Vec<Lit>)>,
}

/// What one part of an encoding cost (see [`GridModel::sizes`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartSize {
    /// The part: a family's name, or a family's rule and sub-part (`connectivity 0 layers`).
    pub name: String,
    /// Variables the part created.
    pub vars: usize,
    /// Hard clauses the part added.
    pub clauses: usize,
}

impl GridModel {
    /// A model of `spec` with its cell and layer variables and nothing encoded yet: what the
    /// families encode into (`compile.rs`).
    /// `problem` is an empty one: [`Problem::new`], or [`Problem::streaming`] for the streamed
    /// export (`encode.rs`).
    pub(crate) fn new_in(
        spec: &GridSpec,
        options: &GridOptions,
        mode: Mode,
        mut problem: Problem,
    ) -> GridModel {
        let (cells, t) = (spec.cells(), spec.tiles.len());
        let cell_vars: Vec<Var> = (0..cells * t).map(|_| problem.new_var()).collect();
        let layer_vars: Vec<Vec<Var>> = spec
            .layers
            .iter()
            .map(|l| {
                (0..cells * l.values.len())
                    .map(|_| problem.new_var())
                    .collect()
            })
            .collect();
        GridModel {
            spec: spec.clone(),
            options: *options,
            mode,
            problem,
            cell_vars,
            layer_vars,
            class_lits: BTreeMap::new(),
            hints: Vec::new(),
            export_plain: Vec::new(),
            soft_preferences: false,
            wished: Vec::new(),
            tags: Vec::new(),
            plans: Vec::new(),
            deferred: Vec::new(),
            refused: None,
            parts: Vec::new(),
            shared_layers: Vec::new(),
        }
    }

    /// Marks the start of a named part of the encoding: everything created from here to the
    /// next mark is counted under `name` by [`GridModel::sizes`].
    pub(crate) fn part(&mut self, name: impl Into<String>) {
        let (vars, clauses) = (self.problem.num_vars(), self.problem.hard_len());
        self.parts.push((name.into(), vars, clauses));
    }

    /// Variables and hard clauses per part of the encoding, in the order they were made
    /// (parts that made nothing left out): which rule a large export's size comes from, for
    /// `grim-encode -v` and the measurements of issue 40. The cell and layer variables come
    /// first, under `cells`; the parts sum to the whole model.
    pub fn sizes(&self) -> Vec<PartSize> {
        let mut marks = vec![("cells".to_string(), 0, 0)];
        marks.extend(self.parts.iter().cloned());
        let end = (
            String::new(),
            self.problem.num_vars(),
            self.problem.hard_len(),
        );
        let mut out: Vec<PartSize> = Vec::new();
        for (i, (name, v, c)) in marks.iter().enumerate() {
            let (_, nv, nc) = marks.get(i + 1).unwrap_or(&end);
            let (vars, clauses) = (nv.saturating_sub(*v), nc.saturating_sub(*c));
            if vars == 0 && clauses == 0 {
                continue;
            }
            match out.iter_mut().find(|p| p.name == *name) {
                Some(p) => {
                    p.vars += vars;
                    p.clauses += clauses;
                }
                None => out.push(PartSize {
                    name: name.clone(),
                    vars,
                    clauses,
                }),
            }
        }
        out
    }

    /// The propagator that enforces this model's connectivity, path and large count rules
    /// inside the search: connect it with `Solver::connect_propagator` to the engine holding
    /// the model's clauses. `None` when the model leaves it nothing to check. Each family that
    /// left something to the search made a part of it (a `SearchPlan`); the parts decide along
    /// the seeded wishes (growing each class from its anchor).
    pub fn propagator(&self) -> Option<Box<dyn grim_solver::Propagator>> {
        let parts: Vec<Box<dyn SearchPart>> = self.plans.iter().map(|p| p.part(self)).collect();
        if parts.is_empty() {
            return None;
        }
        Some(Box::new(Composite::new(parts)))
    }

    /// Connects [`GridModel::propagator`] (when there is one) to `s`, the engine holding the
    /// model's clauses, and tells it which variables to decide last
    /// (`Solver::defer_decision`: the count integers' order literals, which the propagator
    /// fixes once the cells are fixed; a decision on one is a guessed bound that fixes
    /// hundreds of cells at once). Every engine that solves the propagated model should be
    /// connected this way.
    pub fn connect_search(&self, s: &mut grim_solver::Solver) {
        if let Some(p) = self.propagator() {
            s.connect_propagator(p);
        }
        for &v in &self.deferred {
            s.defer_decision(v);
        }
    }

    /// The spec this model encodes.
    pub fn spec(&self) -> &GridSpec {
        &self.spec
    }

    /// The underlying problem (its referee checks the clauses as stated; the grid's own
    /// referee is [`check_level`](crate::check_level)).
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// Whether anything is soft: then only [`GridModel::to_wcnf`] describes the model.
    pub fn is_soft(&self) -> bool {
        // Soft clauses come only from soft rules; the model's own clauses (borrowed, not copied)
        // also answer, so that a family whose soft rules `has_soft` does not list yet is
        // never solved as if it were hard.
        self.spec.has_soft(self.soft_preferences) || !self.problem.as_wcnf().soft.is_empty()
    }

    /// The model as a CNF, or `None` when something is soft (use [`GridModel::to_wcnf`]).
    pub fn to_cnf(&self) -> Option<Cnf> {
        if self.is_soft() {
            return None;
        }
        let w = self.problem.to_wcnf();
        Some(Cnf {
            num_vars: w.num_vars,
            clauses: w.hard,
        })
    }

    /// The hard clauses and the number of variables, borrowed (no copy): what the export
    /// writes when nothing is soft (`encode.rs`).
    pub(crate) fn hard_clauses(&self) -> (usize, &[Vec<Lit>]) {
        let w = self.problem.as_wcnf();
        (w.num_vars, &w.hard)
    }

    /// The model as a weighted CNF (hard clauses, soft counts and soft preferences).
    pub fn to_wcnf(&self) -> Wcnf {
        self.problem.to_wcnf()
    }

    /// The first auxiliary variable: every variable from this index on is the encodings' own
    /// (the cell and layer variables and the constant come before it; FORMAT.md, "The
    /// variable map").
    pub fn first_aux_var(&self) -> usize {
        self.cell_vars
            .iter()
            .chain(self.layer_vars.iter().flatten())
            .map(|v| v.index() + 1)
            .max()
            .unwrap_or(1)
    }

    /// Per variable, whether the CNF export writes it negated; empty for a WCNF export
    /// (written as it is). Negated: every auxiliary variable ([`GridModel::first_aux_var`] on)
    /// but the lower half of each set of reachability layers from fixed bases (a given root,
    /// a path's start cell) and the locks family's; the cell and layer variables never. The file's variable `v` then
    /// means `¬v` of [`GridModel::to_cnf`] where this says so, and a model of the file gives a
    /// model of the encoding by flipping those variables back ([`GridModel::model_of_export`],
    /// which `grim-encode decode` applies). Sound and complete as before: negating a variable
    /// in every clause maps models one to one.
    ///
    /// Why (issue 40, `benches/results/issue40-solvers-2026-12-07.md`): CaDiCaL and Kissat
    /// start from the phase "true", so the file's orientation is their first guess. With the
    /// auxiliary variables negated that guess is "false" for the counters, sorting networks,
    /// ranks and layers, and CaDiCaL 1.5.3 answers the 64×64 cave's export in 52 conflicts
    /// (2.6 s) where it found nothing in 30 s before, the 64×64 arena with spawns in 1.9 s;
    /// Kissat and grim-sat the 64×64 dungeon in 4.1 / 1.2 s instead of 10.6 / 9.7. On layers
    /// from a fixed root (the cave) negating the lower half too lost Kissat and grim-sat the
    /// cave (4.8 → 10.5 s, 1.7 → 18 s) and leaving every layer as it is lost CaDiCaL it again;
    /// on `"any"` roots keeping the lower half lost all three the arena.
    pub fn export_negated(&self) -> Vec<bool> {
        if self.is_soft() {
            return Vec::new();
        }
        let n = self.problem.num_vars();
        let first = self.first_aux_var().min(n);
        let mut negated = vec![false; n];
        negated[first..].iter_mut().for_each(|b| *b = true);
        for r in &self.export_plain {
            let r = r.start.min(n)..r.end.min(n);
            negated[r].iter_mut().for_each(|b| *b = false);
        }
        negated
    }

    /// A model of the exported CNF as a model of [`GridModel::to_cnf`]: the variables the
    /// export writes negated ([`GridModel::export_negated`]) flipped back, in place
    /// (`values[v]` is variable `v`'s value, `None` where the solver gave none).
    pub fn model_of_export(&self, values: &mut [Option<bool>]) {
        for (v, negated) in values.iter_mut().zip(self.export_negated()) {
            if negated {
                *v = v.map(|b| !b);
            }
        }
    }

    /// The phase hints (seeded preferences in "hint" mode): literals a solver should try
    /// first. Empty without preferences.
    pub fn phase_hints(&self) -> Vec<Lit> {
        self.hints.clone()
    }

    /// The variable "cell `(x, y)` holds `tile`". Out-of-range arguments give variable 0 (the
    /// constant); callers iterate over the spec's ranges.
    pub fn cell_var(&self, x: usize, y: usize, tile: usize) -> Var {
        let t = self.spec.tiles.len();
        if x >= self.spec.width || y >= self.spec.height || tile >= t {
            return Var::default();
        }
        self.cell_vars[(y * self.spec.width + x) * t + tile]
    }

    /// The variable "cell `(x, y)` of `layer` holds `value`" (variable 0 out of range).
    pub fn layer_var(&self, layer: usize, x: usize, y: usize, value: usize) -> Var {
        let Some(l) = self.spec.layers.get(layer) else {
            return Var::default();
        };
        let n = l.values.len();
        if x >= self.spec.width || y >= self.spec.height || value >= n {
            return Var::default();
        }
        self.layer_vars[layer][(y * self.spec.width + x) * n + value]
    }

    /// Reads a level from a model (`model[v]` is variable `v`'s value, auxiliary variables may
    /// be missing). Every cell must hold exactly one tile and every layer exactly one value.
    pub fn decode(&self, model: &[bool]) -> Result<Level, GridError> {
        let spec = &self.spec;
        let value = |v: Var| model.get(v.index()).copied();
        let mut level = Level {
            width: spec.width,
            height: spec.height,
            tiles: Vec::with_capacity(spec.cells()),
            layers: Vec::new(),
        };
        let one_of = |vars: &[Var], what: &'static str, c: usize| -> Result<usize, GridError> {
            let mut found = None;
            for (i, &v) in vars.iter().enumerate() {
                match value(v) {
                    None => {
                        return Err(GridError::BadModel(ModelFault::Unassigned {
                            var: v.to_dimacs(),
                            what,
                            cell: (c % spec.width, c / spec.width),
                        }));
                    }
                    Some(true) if found.is_some() => {
                        return Err(GridError::BadModel(ModelFault::Two {
                            what,
                            cell: (c % spec.width, c / spec.width),
                        }));
                    }
                    Some(true) => found = Some(i),
                    Some(false) => {}
                }
            }
            found.ok_or(GridError::BadModel(ModelFault::None {
                what,
                cell: (c % spec.width, c / spec.width),
            }))
        };
        let t = spec.tiles.len();
        for c in 0..spec.cells() {
            level
                .tiles
                .push(one_of(&self.cell_vars[c * t..(c + 1) * t], "tile", c)?);
        }
        for (l, layer) in spec.layers.iter().enumerate() {
            let n = layer.values.len();
            let mut values = Vec::with_capacity(spec.cells());
            for c in 0..spec.cells() {
                values.push(one_of(
                    &self.layer_vars[l][c * n..(c + 1) * n],
                    "layer value",
                    c,
                )?);
            }
            level.layers.push(values);
        }
        Ok(level)
    }

    // ----- what the families encode with -----

    /// Records why the model cannot be built (the first reason is kept).
    pub(crate) fn refuse(&mut self, why: GridError) {
        self.refused.get_or_insert(why);
    }

    /// From here on, the hard clauses belong to `tag` (`None`: structural).
    pub(crate) fn tag(&mut self, tag: Option<RuleTag>) {
        let at = self.problem.hard_len();
        match self.tags.last_mut() {
            Some(last) if last.1 == tag => {}
            Some(last) if last.0 == at => last.1 = tag,
            _ => self.tags.push((at, tag)),
        }
    }

    /// The rule that made hard clause `i` (see [`GridModel::tags`]).
    pub(crate) fn tag_of(&self, i: usize) -> Option<RuleTag> {
        let k = self.tags.partition_point(|&(start, _)| start <= i);
        k.checked_sub(1).and_then(|k| self.tags[k].1)
    }

    /// The wished value of `l`, if known.
    pub(crate) fn wished(&self, l: Lit) -> Option<bool> {
        wished_value(&self.wished, l)
    }

    /// The literal "cell `c` holds `tile`".
    pub(crate) fn tile_lit(&self, c: usize, tile: usize) -> Lit {
        self.cell_vars[c * self.spec.tiles.len() + tile].pos()
    }

    /// The literal "cell `c` of `layer` holds `value`".
    pub(crate) fn value_lit(&self, layer: usize, c: usize, value: usize) -> Lit {
        let n = self.spec.layers[layer].values.len();
        self.layer_vars[layer][c * n + value].pos()
    }

    /// The tile literals of `set` that the cell's domain allows (the others are false).
    pub(crate) fn set_lits(&self, c: usize, set: &[bool]) -> Vec<Lit> {
        (0..self.spec.tiles.len())
            .filter(|&a| set[a] && self.spec.domains[c][a])
            .map(|a| self.tile_lit(c, a))
            .collect()
    }

    /// One literal per cell meaning "the cell holds a tile of `set`": a tile variable when the
    /// domain leaves one candidate, a constant when it leaves none or all, otherwise an
    /// auxiliary variable defined both ways (`y ↔ ⋁ tiles`). Cached per set.
    pub(crate) fn class_lits(&mut self, set: &TileSet) -> Vec<Lit> {
        if let Some(v) = self.class_lits.get(set) {
            return v.clone();
        }
        let (tt, ff) = (self.problem.always_true(), self.problem.always_false());
        // Definitions hold in every level: they belong to no rule, so a rule switched off by
        // the clash diagnosis does not take away a class literal another rule shares.
        let owner = self.tags.last().and_then(|t| t.1);
        self.tag(None);
        let mut out = Vec::with_capacity(self.spec.cells());
        for c in 0..self.spec.cells() {
            let lits = self.set_lits(c, set);
            let domain = self.spec.domains[c].iter().filter(|&&b| b).count();
            let lit = match lits.len() {
                0 => ff,
                n if n == domain => tt,
                1 => lits[0],
                _ => {
                    let y = self.problem.new_var().pos();
                    let any = lits
                        .iter()
                        .map(|&l| self.wished(l))
                        .try_fold(false, |acc, v| v.map(|v| acc || v));
                    set_wished(&mut self.wished, y, any);
                    let mut clause = vec![!y];
                    clause.extend_from_slice(&lits);
                    self.problem.add_clause(&clause, None);
                    for &l in &lits {
                        self.problem.add_clause(&[!l, y], None);
                    }
                    y
                }
            };
            out.push(lit);
        }
        self.tag(owner);
        self.class_lits.insert(set.clone(), out.clone());
        out
    }

    /// The literals whose count is the number of cells of `region` holding `sel`: tile
    /// variables of the set (at most one per cell is true) or layer-value variables.
    pub(crate) fn count_lits(&self, sel: &Selection, region: &Region) -> Vec<Lit> {
        let mut out = Vec::new();
        for y in region.y..region.y + region.h {
            for x in region.x..region.x + region.w {
                let c = self.spec.index(x, y);
                match sel {
                    Selection::Tiles(set) => out.extend(self.set_lits(c, set)),
                    Selection::LayerValue { layer, value } => {
                        out.push(self.value_lit(*layer, c, *value))
                    }
                }
            }
        }
        out
    }

    /// One literal per cell for a selection ("holds the set" / "holds the layer value").
    pub(crate) fn selection_lits(&mut self, sel: &Selection) -> Vec<Lit> {
        match sel {
            Selection::Tiles(set) => self.class_lits(set),
            Selection::LayerValue { layer, value } => (0..self.spec.cells())
                .map(|c| self.value_lit(*layer, c, *value))
                .collect(),
        }
    }
}

/// The wished value of `l` in `wished` (see [`GridModel`]'s field).
pub(crate) fn wished_value(wished: &[Option<bool>], l: Lit) -> Option<bool> {
    wished
        .get(l.var().index())
        .copied()
        .flatten()
        .map(|v| v == l.is_positive())
}

/// Records the wished value of `l` (nothing when `value` is `None`).
pub(crate) fn set_wished(wished: &mut Vec<Option<bool>>, l: Lit, value: Option<bool>) {
    let Some(v) = value else { return };
    let i = l.var().index();
    if wished.len() <= i {
        wished.resize(i + 1, None);
    }
    wished[i] = Some(v == l.is_positive());
}
