//! [`GridSpec`]: a `grid.json` read and validated — the one value the rest of the pipeline
//! (compile, solve, referee) starts from.
//!
//! `GridSpec` is an aggregate: the geometry and vocabulary (`width`, `height`, `tiles`, `layers`)
//! and one field per rule family, whose type that family owns (`families/<name>/rule.rs`,
//! re-exported here so that `grim_levels::spec::CountRule` and the other public paths stay where
//! they were). The reading itself is each family's, run in passes by `read.rs` on the helpers of
//! `spec/reader.rs`; this module only holds the result and the geometry every family asks of it
//! (cells, neighbours, the border).
//!
//! Why the aggregate names the families' types at all: its fields are public API
//! (`spec.connectivity`, `spec.paths`, read by tools and tests), so it cannot hold them
//! type-erased. The families' rule modules import only the vocabulary and the reader core, so
//! naming them here adds no cycle (`ARCHITECTURE.md`, "the import graph").

pub(crate) mod problem;
pub(crate) mod reader;
pub(crate) mod vocab;

pub use crate::families::acyclic::rule::AcyclicRule;
pub use crate::families::chokepoints::rule::ChokepointRule;
pub use crate::families::connectivity::rule::ConnectivityRule;
pub use crate::families::counts::rule::CountRule;
pub use crate::families::dead_ends::rule::DeadEndRule;
pub use crate::families::enclosure::rule::EnclosureRule;
pub use crate::families::locks::rule::{LockColor, LockRule, MAX_LOCK_COLORS};
pub use crate::families::paths::rule::{Endpoint, PathRule};
pub use crate::families::preferences::rule::Preferences;
pub use crate::families::runs::rule::{RunAxis, RunRule};
pub use crate::families::separation::rule::SeparationRule;
pub use crate::families::symmetry::rule::{SymmetryKind, SymmetryRule};
pub use problem::{AdjacencySource, Axis, Expected, FieldProblem, JsonProblem};
pub(crate) use vocab::RuleTag;
pub use vocab::{
    Bound, Dir, Layer, LayerValue, MAX_CHOKEPOINT_EXPORT_CLAUSES, MAX_PATH_LAYERS,
    MAX_SEPARATION_PAIRS, MAX_SIDE, MAX_TILES, RATIO_DENOMINATOR, Region, RuleRef, Selection, Tile,
    TileSet,
};

use crate::families::adjacency::rule::AdjacencyOrigin;
use crate::families::tiles::rule::DomainOrigin;
use serde_json::Value;
use std::sync::Arc;

/// A validated `grid.json`: every name resolved to an index, every number checked.
///
/// ```
/// use grim_levels::GridSpec;
///
/// let spec = GridSpec::from_json(r##"{
///   "width": 8, "height": 6,
///   "tiles": [{"name": "wall", "glyph": "#"}, {"name": "floor", "glyph": "."}],
///   "connectivity": [{"class": "floor"}]
/// }"##).unwrap();
/// assert_eq!((spec.width, spec.height, spec.cells()), (8, 6, 48));
/// assert_eq!(spec.tiles[1].name, "floor");
/// assert!(spec.on_border(spec.index(0, 3)));
///
/// // A mistake is an error naming where it is and what was expected there.
/// let err = GridSpec::from_json(r##"{"width": 8, "height": 6, "tiles": [{"name": 3}]}"##)
///     .unwrap_err();
/// assert!(err.to_string().contains("name"), "{err}");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GridSpec {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// The tiles, at least one.
    pub tiles: Vec<Tile>,
    /// Extra layers.
    pub layers: Vec<Layer>,
    /// `adjacent[dir][a][b]`: tile `b` may sit on the `dir` side of tile `a`. Symmetric by
    /// construction: `adjacent[d][a][b] == adjacent[d.opposite()][b][a]`.
    pub adjacent: [Vec<Vec<bool>>; 4],
    /// Per cell (row-major), the tiles allowed there (mask, pins and `allowed` combined);
    /// never empty.
    pub domains: Vec<TileSet>,
    /// Count rules.
    pub counts: Vec<CountRule>,
    /// Enclosure rules.
    pub enclosure: Vec<EnclosureRule>,
    /// Connectivity rules.
    pub connectivity: Vec<ConnectivityRule>,
    /// Path rules.
    pub paths: Vec<PathRule>,
    /// Seeded preferences, if given.
    pub preferences: Option<Preferences>,
    /// Run rules (`runs`).
    pub runs: Vec<RunRule>,
    /// Dead-end rules (`dead_ends`).
    pub dead_ends: Vec<DeadEndRule>,
    /// Separation rules (`separation`).
    pub separation: Vec<SeparationRule>,
    /// Symmetry rules (`symmetry`).
    pub symmetry: Vec<SymmetryRule>,
    /// Acyclic rules (`acyclic`).
    pub acyclic: Vec<AcyclicRule>,
    /// Chokepoint rules (`chokepoints`).
    pub chokepoints: Vec<ChokepointRule>,
    /// Locks-and-keys rules (`locks`).
    pub locks: Vec<LockRule>,
    /// The document as written, for the referee ([`crate::check_level`]), which reads every
    /// rule from it by its own interpretation of `FORMAT.md` instead of from the tables above:
    /// a misreading then has to be made twice, independently, to go unseen.
    pub(crate) document: Arc<Value>,
    /// Which rule each domain and adjacency restriction came from, for naming the rules that
    /// clash when no level exists (`clash.rs`).
    pub(crate) origins: Origins,
}

/// The restrictions the resolved tables merge, each with the rule it came from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Origins {
    /// Each cell restriction of `mask`, `pins` and `allowed`: the rule, the cell and the tiles
    /// it leaves there (`domains` is their intersection).
    pub(crate) domain: Vec<DomainOrigin>,
    /// Each adjacency rule and the `(dir, a, b)` triples it forbids ("`b` on the `dir` side of
    /// `a`"), mirrors included (`adjacent` is true outside their union).
    pub(crate) adjacency: Vec<AdjacencyOrigin>,
    /// Layer values a regenerated level keeps (`keep.rs`): the rule naming the kept cell, the
    /// layer, the cell and the value (the kept tiles narrow `domains` and join `domain`). Empty
    /// for a spec as read.
    pub(crate) kept_values: Vec<(RuleRef, usize, usize, usize)>,
    /// The domains as read, before kept cells narrowed them (`None` when nothing is kept): what
    /// the seed draws the wishes from (`families/preferences`), so that a regenerated level is
    /// wished for as the whole level was and the referee's cost agrees.
    pub(crate) domains_as_read: Option<Vec<TileSet>>,
}

impl GridSpec {
    /// Number of cells.
    pub fn cells(&self) -> usize {
        self.width * self.height
    }

    /// The `grid.json` document this spec was read from, as written. The referee
    /// ([`crate::check_level`]) judges levels against it, not against the resolved tables of
    /// this struct, so editing those tables changes what is encoded but not what is checked.
    pub fn document(&self) -> &Value {
        &self.document
    }

    /// The cell index of `(x, y)` (row-major).
    pub fn index(&self, x: usize, y: usize) -> usize {
        y * self.width + x
    }

    /// The neighbour of cell `c` on side `d`, if inside the grid.
    pub fn neighbour(&self, c: usize, d: Dir) -> Option<usize> {
        let (x, y) = (c % self.width, c / self.width);
        match d {
            Dir::N => (y > 0).then(|| c - self.width),
            Dir::S => (y + 1 < self.height).then(|| c + self.width),
            Dir::W => (x > 0).then(|| c - 1),
            Dir::E => (x + 1 < self.width).then(|| c + 1),
        }
    }

    /// The neighbours of cell `c` (N, E, S, W order).
    pub fn neighbours(&self, c: usize) -> impl Iterator<Item = usize> + '_ {
        Dir::ALL
            .into_iter()
            .filter_map(move |d| self.neighbour(c, d))
    }

    /// Whether cell `c` lies on the border of the grid.
    pub fn on_border(&self, c: usize) -> bool {
        let (x, y) = (c % self.width, c / self.width);
        x == 0 || y == 0 || x + 1 == self.width || y + 1 == self.height
    }

    /// The whole grid as a region.
    pub fn full_region(&self) -> Region {
        Region {
            x: 0,
            y: 0,
            w: self.width,
            h: self.height,
        }
    }

    /// Whether anything is soft (a weighted count or enclosure, or soft preferences under
    /// `options`).
    pub fn has_soft(&self, soft_preferences: bool) -> bool {
        self.counts.iter().any(|c| c.weight.is_some())
            || self.enclosure.iter().any(|e| e.weight.is_some())
            || self.runs.iter().any(|r| r.weight.is_some())
            || self.dead_ends.iter().any(|r| r.weight.is_some())
            || self.separation.iter().any(|r| r.weight.is_some())
            || self.symmetry.iter().any(|r| r.weight.is_some())
            || self.acyclic.iter().any(|r| r.weight.is_some())
            || self.chokepoints.iter().any(|r| r.weight.is_some())
            || soft_preferences
    }

    /// A spec of `width × height` cells with nothing read yet: the value the families fill in,
    /// pass by pass (`read.rs`), from `document`.
    pub(crate) fn blank(width: usize, height: usize, document: &Value) -> GridSpec {
        GridSpec {
            width,
            height,
            tiles: Vec::new(),
            layers: Vec::new(),
            adjacent: Default::default(),
            domains: Vec::new(),
            counts: Vec::new(),
            enclosure: Vec::new(),
            connectivity: Vec::new(),
            paths: Vec::new(),
            preferences: None,
            runs: Vec::new(),
            dead_ends: Vec::new(),
            separation: Vec::new(),
            locks: Vec::new(),
            symmetry: Vec::new(),
            acyclic: Vec::new(),
            chokepoints: Vec::new(),
            document: Arc::new(document.clone()),
            origins: Origins::default(),
        }
    }
}
