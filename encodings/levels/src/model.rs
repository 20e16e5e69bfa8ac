//! [`GridModel`]: a [`GridSpec`] encoded into a [`Problem`], with the variable map that lets
//! any solver's model be read back as a [`Level`].
//!
//! Variable layout (DIMACS numbers are these plus one): variable 0 is the Problem API's
//! constant true; then one variable per cell and tile (`1 + cell · tiles + tile`, row-major
//! cells), then one per cell and value of each layer in turn; everything after is auxiliary.
//! The layout is stable so that comment lines of an exported CNF can name cells.

use super::spec::{Endpoint, Selection, TileSet};
use super::{GridError, GridOptions, GridSpec, Level, ModelFault};
use super::{adjacency, connectivity, counts, enclosure, layers, paths, prefs, tiles};
use grim_formula::{Cnf, Wcnf};
use grim_maxsat::problem::Problem;
use grim_solver::{Lit, Var};
use std::collections::BTreeMap;

/// How the connectivity rules are encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ConnMode {
    /// The founded encoding (parent pointers + ranks): complete and sound on its own.
    Eager,
    /// Nothing beyond the class literals and the small-fragment cuts: the solve loop adds
    /// separator cuts.
    Lazy,
    /// Nothing beyond the class literals (and a given root pinned): the grid propagator
    /// (`propagator.rs`) enforces the rule during the search.
    Propagate,
}

/// A rule whose hard clauses the model tags, so that the clash diagnosis (`clash.rs`) can
/// switch each rule on and off by a literal of its own. Domain and adjacency rules are not
/// here: the diagnosis emits their clauses itself, rule by rule, from `GridSpec::origins`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum RuleTag {
    /// `layers[layer].values[value].requires`.
    Requires {
        /// Layer index.
        layer: usize,
        /// Value index.
        value: usize,
    },
    /// `counts[i]`.
    Count(usize),
    /// `enclosure[i]`.
    Enclosure(usize),
    /// `connectivity[i]`.
    Connectivity(usize),
    /// `paths[i]`.
    Path(usize),
}

/// A grid encoded as a [`Problem`]; see the module doc for the variable layout.
#[derive(Clone, Debug)]
pub struct GridModel {
    pub(crate) spec: GridSpec,
    pub(crate) problem: Problem,
    /// `cell · tiles + tile` → variable.
    pub(crate) cell_vars: Vec<Var>,
    /// Per layer, `cell · values + value` → variable.
    pub(crate) layer_vars: Vec<Vec<Var>>,
    /// Cache of "the cell holds a tile of this set" literals, per set.
    pub(crate) class_lits: BTreeMap<TileSet, Vec<Lit>>,
    pub(crate) hints: Vec<Lit>,
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
    /// The path rules left to the propagator (`ConnMode::Propagate`): per rule the `from`,
    /// `to` and `through` literal of each cell, and the bound.
    pub(crate) path_lits: Vec<PathLits>,
    /// The count rules left to the propagator (`ConnMode::Propagate`, `countprop.rs`): per
    /// rule the weighted terms and the bound of `Σ w·[lit] ≥ bound`.
    pub(crate) count_rows: Vec<(Vec<(u64, Lit)>, u64)>,
}

/// One path rule's literals for the propagator: `from`, `to`, `through` per cell, and
/// `max_length`.
pub(crate) type PathLits = (Vec<Lit>, Vec<Lit>, Vec<Lit>, Option<usize>);

impl GridModel {
    /// Encodes `spec` completely (the eager connectivity encoding included): what an external
    /// solver gets through [`GridModel::to_cnf`] / [`GridModel::to_wcnf`].
    pub fn build(spec: &GridSpec, options: &GridOptions) -> Result<GridModel, GridError> {
        GridModel::build_with(spec, options, ConnMode::Eager)
    }

    /// The model [`super::solve`] starts from: every rule encoded as in [`GridModel::build`]
    /// except connectivity, which is only the small-fragment cuts (and a given root pinned to
    /// the class). Complete — every valid level is a model — but not sound for connectivity on
    /// its own: `solve` adds separator cuts until the model is connected. Public for callers
    /// who run their own loop, and for the tests.
    pub fn build_relaxed(spec: &GridSpec, options: &GridOptions) -> Result<GridModel, GridError> {
        GridModel::build_with(spec, options, ConnMode::Lazy)
    }

    /// The model [`super::solve`] uses by default: every rule encoded as in
    /// [`GridModel::build`] except connectivity, of which only a given root is (pinned to the
    /// class), bounded paths, and counts too large for the unary encodings; those rules are
    /// enforced during the search by the propagator from
    /// [`GridModel::propagator`], which the engine solving this model must have connected. For
    /// callers who run their own engine, and for the tests.
    pub fn build_for_propagator(
        spec: &GridSpec,
        options: &GridOptions,
    ) -> Result<GridModel, GridError> {
        GridModel::build_with(spec, options, ConnMode::Propagate)
    }

    /// The propagator that enforces this model's connectivity, path and large count rules
    /// inside the search (`propagator.rs`, `pathprop.rs`, `countprop.rs`): connect it with
    /// `Solver::connect_propagator` to the engine holding the model's clauses. `None` when the
    /// model leaves it nothing to check. It observes the literals those rules read, decides
    /// along the seeded wishes (growing each class from its anchor), and knows the least class
    /// size the hard counts imply.
    pub fn propagator(&self) -> Option<Box<dyn grim_solver::Propagator>> {
        let spec = &self.spec;
        if spec.connectivity.is_empty() && self.path_lits.is_empty() && self.count_rows.is_empty() {
            return None;
        }
        let rules: Vec<(Vec<Lit>, Option<usize>)> = spec
            .connectivity
            .iter()
            .map(|r| {
                let lits = self.class_lits.get(&r.class).cloned().unwrap_or_default();
                (lits, r.root.map(|(x, y)| spec.index(x, y)))
            })
            .collect();
        let wishes: Vec<Vec<Option<bool>>> = rules
            .iter()
            .map(|(lits, _)| lits.iter().map(|&l| self.wished(l)).collect())
            .collect();
        let mut p = super::propagator::GridPropagator::new(spec.width, spec.height, rules);
        for (from, to, through, max_length) in &self.path_lits {
            p.add_path(from.clone(), to.clone(), through.clone(), *max_length);
        }
        for (terms, bound) in &self.count_rows {
            // `counts.rs` only leaves rules that some assignment satisfies.
            let added = p.add_count(terms, *bound);
            debug_assert!(added, "a count row no assignment satisfies");
        }
        for (r, w) in wishes.into_iter().enumerate() {
            p.set_wishes(r, w);
            p.set_min_size(
                r,
                super::solve::min_class_size(spec, &spec.connectivity[r].class),
            );
        }
        Some(Box::new(p))
    }

    pub(crate) fn build_with(
        spec: &GridSpec,
        options: &GridOptions,
        mode: ConnMode,
    ) -> Result<GridModel, GridError> {
        let mut problem = Problem::new();
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
        let prefs = prefs::resolve(spec, options);
        let mut m = GridModel {
            spec: spec.clone(),
            problem,
            cell_vars,
            layer_vars,
            class_lits: BTreeMap::new(),
            hints: Vec::new(),
            soft_preferences: prefs.as_ref().is_some_and(|p| p.soft),
            wished: Vec::new(),
            tags: Vec::new(),
            path_lits: Vec::new(),
            count_rows: Vec::new(),
        };
        if let Some(p) = &prefs {
            prefs::wish(&mut m, p);
        }
        tiles::encode(&mut m);
        adjacency::encode(&mut m);
        layers::encode(&mut m);
        counts::encode(&mut m, mode);
        enclosure::encode(&mut m, mode);
        connectivity::encode(&mut m, mode);
        paths::encode(&mut m, mode);
        if let Some(p) = prefs {
            prefs::encode(&mut m, &p);
        }
        if m.is_soft() && m.problem.to_wcnf().total_soft_weight().is_none() {
            return Err(GridError::WeightOverflow);
        }
        Ok(m)
    }

    /// The spec this model encodes.
    pub fn spec(&self) -> &GridSpec {
        &self.spec
    }

    /// The underlying problem (its referee checks the clauses as stated; the grid's own
    /// referee is [`super::check_level`]).
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// Whether anything is soft: then only [`GridModel::to_wcnf`] describes the model.
    pub fn is_soft(&self) -> bool {
        // Soft clauses come only from soft rules, so the spec answers without copying the WCNF.
        self.spec.has_soft(self.soft_preferences)
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

    /// The model as a weighted CNF (hard clauses, soft counts and soft preferences).
    pub fn to_wcnf(&self) -> Wcnf {
        self.problem.to_wcnf()
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

    // ----- helpers for the rule files -----

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
    pub(crate) fn count_lits(&self, sel: &Selection, region: &super::spec::Region) -> Vec<Lit> {
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

    /// One literal per cell for a path endpoint.
    pub(crate) fn endpoint_lits(&mut self, e: &Endpoint) -> Vec<Lit> {
        match e {
            Endpoint::Cell(x, y) => {
                let target = self.spec.index(*x, *y);
                let (tt, ff) = (self.problem.always_true(), self.problem.always_false());
                (0..self.spec.cells())
                    .map(|c| if c == target { tt } else { ff })
                    .collect()
            }
            Endpoint::Select(sel) => self.selection_lits(sel),
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
