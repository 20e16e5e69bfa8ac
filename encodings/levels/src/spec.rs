//! `grid.json`: reading, validating and resolving a level description into a checked
//! [`GridSpec`].
//!
//! The file is parsed into a `serde_json::Value` first and then walked by hand rather than
//! deserialised with derived types: a derived deserialiser reports "invalid type: string, expected
//! u64 at line 4 column 17", while a designer needs the field and the value
//! (`tiles[3].glyph: "##" must be one character`). Every name is resolved here (tile, class,
//! `layer.value`), every number range-checked, ratios turned into exact fractions and
//! adjacency tables merged and checked for contradictions, so the encodings and the referee
//! only ever see indices. The format is documented in `FORMAT.md` next to this file.

use super::{Dir, GridError};
use serde_json::{Map, Value};
use std::sync::Arc;

/// Largest accepted `width` or `height`. The encodings are linear-ish in the number of cells
/// (the eager connectivity encoding is about 230 clauses per cell at 32×32, growing with
/// log₂ cells), and this keeps a typo (`"width": 1e9`) from allocating without bound: 256×256
/// is about 20 million clauses with a connectivity rule.
pub const MAX_SIDE: usize = 256;
/// Largest accepted `max_length × cells` of a path (the layered encoding's variables / 2).
pub const MAX_PATH_LAYERS: usize = 1 << 22;
/// Largest accepted number of tiles, and of values per layer.
pub const MAX_TILES: usize = 256;
/// Ratios are read to this many decimal places (6): `0.3333333` is `333333/1000000`.
pub const RATIO_DENOMINATOR: u64 = 1_000_000;

/// One tile kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tile {
    /// Unique name.
    pub name: String,
    /// The one character drawn for it.
    pub glyph: char,
    /// Selection weight for seeded preferences (default 1).
    pub weight: u64,
    /// Class names the tile belongs to.
    pub classes: Vec<String>,
    /// Optional colour for pictures (any string; not interpreted here).
    pub color: Option<String>,
}

/// One value of an extra layer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayerValue {
    /// Name, unique within the layer.
    pub name: String,
    /// The glyph of this value in the layer's rows of the text form (and drawn over the tile in
    /// pictures); unique within the layer.
    pub glyph: char,
    /// The tiles this value may sit on (`None`: any tile).
    pub requires: Option<TileSet>,
}

/// An extra layer: every cell holds exactly one of its values (the first is "nothing").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layer {
    /// Unique name (also distinct from every tile and class name).
    pub name: String,
    /// The values, at least one.
    pub values: Vec<LayerValue>,
}

/// A set of tiles, one flag per tile index.
pub type TileSet = Vec<bool>;

/// What a count, a `per`, or a path endpoint selects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Selection {
    /// Cells holding one of these tiles.
    Tiles(TileSet),
    /// Cells whose `layer` holds `value`.
    LayerValue {
        /// Layer index.
        layer: usize,
        /// Value index in that layer.
        value: usize,
    },
}

/// A rectangle of cells (`x`, `y` its north-west corner).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    /// Column of the west edge.
    pub x: usize,
    /// Row of the north edge.
    pub y: usize,
    /// Width, ≥ 1.
    pub w: usize,
    /// Height, ≥ 1.
    pub h: usize,
}

impl Region {
    /// Whether cell `(x, y)` lies in the region.
    pub fn contains(&self, x: usize, y: usize) -> bool {
        x >= self.x && x < self.x + self.w && y >= self.y && y < self.y + self.h
    }

    /// Number of cells.
    pub fn cells(&self) -> usize {
        self.w * self.h
    }
}

/// A bound as written: an absolute count, or an exact fraction `num/den` of a base.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// A number of cells.
    Absolute(u64),
    /// `num / den` (`den` = [`RATIO_DENOMINATOR`] reduced), `num ≤ den`.
    Ratio {
        /// Numerator.
        num: u64,
        /// Denominator, ≥ 1.
        den: u64,
    },
}

impl Bound {
    /// The bound as a lower bound on a count whose base is `base` cells: `⌈ratio · base⌉`.
    pub fn lower(&self, base: u64) -> u64 {
        match *self {
            Bound::Absolute(n) => n,
            Bound::Ratio { num, den } => {
                let p = num as u128 * base as u128;
                p.div_ceil(den as u128) as u64
            }
        }
    }

    /// The bound as an upper bound on a count whose base is `base` cells: `⌊ratio · base⌋`.
    pub fn upper(&self, base: u64) -> u64 {
        match *self {
            Bound::Absolute(n) => n,
            Bound::Ratio { num, den } => (num as u128 * base as u128 / den as u128) as u64,
        }
    }

    /// `(num, den)` of the bound read as a fraction (an absolute `n` is `n/1`).
    pub fn fraction(&self) -> (u64, u64) {
        match *self {
            Bound::Absolute(n) => (n, 1),
            Bound::Ratio { num, den } => (num, den),
        }
    }
}

/// `counts[i]`: how many cells of a selection, absolute, as a ratio of a region, or as a ratio
/// of another selection's count (`per`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountRule {
    /// What is counted.
    pub of: Selection,
    /// With `per`, the bounds are fractions of this selection's count in the same region.
    pub per: Option<Selection>,
    /// The cells counted (the whole grid by default).
    pub region: Region,
    /// Lower bound (`None`: 0).
    pub min: Option<Bound>,
    /// Upper bound (`None`: no upper bound).
    pub max: Option<Bound>,
    /// `None`: hard; `Some(w)`: a wish costing `w` when broken.
    pub weight: Option<u64>,
}

/// `enclosure[i]`: at least `min` of the `class` cells cannot be reached from the border
/// through `open` cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnclosureRule {
    /// The cells that should be sealed off.
    pub class: TileSet,
    /// The cells one can walk through.
    pub open: TileSet,
    /// An absolute number of sealed cells, or a fraction of the class's count.
    pub min: Bound,
    /// `None`: hard; `Some(w)`: a wish.
    pub weight: Option<u64>,
}

/// `connectivity[i]`: every `class` cell is reachable from the root through `class` cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConnectivityRule {
    /// The cells that must form one 4-connected component.
    pub class: TileSet,
    /// `Some((x, y))`: that cell is the root and must hold the class; `None`: any.
    pub root: Option<(usize, usize)>,
}

/// A path endpoint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Endpoint {
    /// One cell `(x, y)`.
    Cell(usize, usize),
    /// Any cell holding the selection.
    Select(Selection),
}

/// `paths[i]`: a 4-neighbour walk from a `from` cell to a `to` cell whose cells strictly
/// between the two ends hold `through`, of at most `max_length` steps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathRule {
    /// Start.
    pub from: Endpoint,
    /// End.
    pub to: Endpoint,
    /// What the cells between the ends must hold.
    pub through: TileSet,
    /// Maximum number of steps (`None`: unbounded).
    pub max_length: Option<usize>,
}

/// Seeded preferences.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Preferences {
    /// The PRNG seed.
    pub seed: u64,
    /// `false`: phase hints ("hint"); `true`: weighted soft clauses ("soft").
    pub soft: bool,
    /// The weight of each soft wish (mode "soft").
    pub weight: u64,
}

/// A validated `grid.json`: every name resolved to an index, every number checked.
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
    /// The document as written, for the referee ([`super::check_level`]), which reads every
    /// rule from it by its own interpretation of `FORMAT.md` instead of from the tables above:
    /// a misreading then has to be made twice, independently, to go unseen.
    pub(crate) document: Arc<Value>,
    /// Which rule each domain and adjacency restriction came from, for naming the rules that
    /// clash when no level exists (`clash.rs`).
    pub(crate) origins: Origins,
}

/// A rule of `grid.json` as the file writes it: its field path (`pins[2]`,
/// `adjacency.directional[1]`, `counts[0]`) and a short reminder of what it says, so that a
/// designer told which rules clash can find them without counting array entries.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RuleRef {
    /// The field path, as in validation errors (`mask[3]` for a character of the mask's row 3).
    pub path: String,
    /// The one cell `(x, y)` the rule is about: a mask character, a pin, an `allowed` entry.
    pub cell: Option<(usize, usize)>,
    /// What the rule says, in a few words (`x=3 y=4: wall`); may be empty.
    pub summary: String,
}

impl RuleRef {
    pub(crate) fn new(path: impl Into<String>, summary: impl Into<String>) -> RuleRef {
        RuleRef {
            path: path.into(),
            cell: None,
            summary: summary.into(),
        }
    }
}

impl std::fmt::Display for RuleRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.summary.is_empty() {
            write!(f, "{}", self.path)
        } else {
            write!(f, "{} ({})", self.path, self.summary)
        }
    }
}

/// What is wrong with one field of `grid.json` ([`GridError::Invalid`], whose `field` is the
/// path). `Display` writes the sentence after `field: `, quoting the value.
///
/// Why an enum and not a sentence: a caller (an editor plug-in, a test, the fuzz target) can
/// tell a name that resolves to nothing from a number out of range without parsing English,
/// and each sentence is written once, here, instead of at each of the fifty places in this
/// file that detect one. What stays text is data: a quoted offending value (`value`, compact
/// JSON cut at 40 characters, as the file wrote it), a name, a field path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FieldProblem {
    /// The value has the wrong type or is outside what the field accepts:
    /// `"##" must be one character`.
    WrongValue {
        /// The value, compact JSON cut at 40 characters.
        value: String,
        /// What the field accepts.
        expected: Expected,
    },
    /// The object has a key the format does not know (the path ends in that key); usually a
    /// typo (`colour`), so the message lists the keys that are known.
    UnknownField {
        /// The keys this object may have, in the order `FORMAT.md` lists them.
        known: &'static [&'static str],
    },
    /// A required field is absent (or `null`).
    Missing,
    /// `tiles` is empty: every cell must hold a tile.
    NoTiles,
    /// More than [`MAX_TILES`] tiles.
    TooManyTiles {
        /// How many the file lists.
        count: usize,
    },
    /// A tile's glyph is `?`, which the mask reserves for a free cell.
    ReservedGlyph,
    /// A tile's glyph is already an earlier tile's (the text form could not be read back).
    GlyphTaken {
        /// The glyph.
        glyph: char,
        /// The index of the earlier tile in `tiles`.
        tile: usize,
    },
    /// A layer value's glyph is already an earlier value's of the same layer.
    ValueGlyphTaken {
        /// The glyph.
        glyph: char,
        /// The layer's index in `layers`.
        layer: usize,
        /// The index of the earlier value in the layer's `values`.
        value: usize,
    },
    /// A tile or layer name is already an earlier tile's.
    NameTaken {
        /// The name, as JSON.
        value: String,
        /// The index of the earlier tile in `tiles`.
        tile: usize,
    },
    /// A class is named like a tile (a name must select one thing).
    ClassNamedLikeTile {
        /// The class name, as JSON.
        value: String,
    },
    /// A tile is named like a class of an earlier or later tile.
    TileNamedLikeClass {
        /// The tile name.
        name: String,
    },
    /// A layer is named like a class or an earlier layer.
    LayerNameTaken {
        /// The layer name, as JSON.
        value: String,
    },
    /// A layer lists no values, or more than [`MAX_TILES`].
    ValueCount {
        /// How many values it lists.
        count: usize,
    },
    /// A layer lists the same value name twice.
    DuplicateValue {
        /// The value name, as JSON.
        value: String,
    },
    /// A pin names no tile (a pin takes a tile, not a class).
    NotATile {
        /// The name, as JSON.
        value: String,
    },
    /// A name is neither a tile nor a class.
    NotATileOrClass {
        /// The name, as JSON.
        value: String,
    },
    /// A `layer.value` selection whose layer does not exist.
    NoSuchLayer {
        /// The selection, as JSON.
        value: String,
        /// The part before the dot.
        layer: String,
    },
    /// A `layer.value` selection whose layer has no such value.
    NoSuchLayerValue {
        /// The selection, as JSON.
        value: String,
        /// The layer's name.
        layer: String,
        /// The part after the dot.
        name: String,
    },
    /// The mask has another number of rows than the grid.
    MaskRows {
        /// Rows in the mask.
        rows: usize,
        /// Rows in the grid.
        height: usize,
    },
    /// A mask row has another number of characters than the grid has columns.
    MaskRowLength {
        /// The row, as JSON.
        value: String,
        /// Its characters.
        chars: usize,
        /// The grid's width.
        width: usize,
    },
    /// A mask character is neither `?` nor a tile glyph.
    MaskGlyph {
        /// The character.
        glyph: char,
        /// Its column.
        x: usize,
    },
    /// A cell coordinate lies outside the grid.
    OutsideGrid {
        /// The coordinate as written.
        coordinate: u64,
        /// Which coordinate: `x` is bounded by the width, `y` by the height.
        axis: Axis,
        /// The grid's width (for `x`) or height (for `y`).
        size: usize,
    },
    /// The restriction (mask row, pin, `allowed` entry: the path) leaves a cell no tile.
    NoTileLeft {
        /// The cell `(x, y)`.
        cell: (usize, usize),
        /// The path of the restriction that narrowed the cell before, if any.
        after: Option<String>,
    },
    /// A count rule gives neither bound.
    NeedsMinOrMax,
    /// An enclosure has a `max`, which its Horn encoding cannot enforce (see `Display`).
    EnclosureCeiling,
    /// A connectivity root lies on a cell that the mask, pins or `allowed` keep from holding
    /// the class.
    RootCannotHoldClass {
        /// The cell `(x, y)`.
        cell: (usize, usize),
        /// The paths of the restrictions on that cell.
        by: Vec<String>,
        /// The names of the tiles they leave it.
        left: Vec<String>,
    },
    /// A bounded path needs more than [`MAX_PATH_LAYERS`] layer-cells.
    PathTooLong {
        /// `max_length`.
        steps: u64,
        /// Cells in the grid.
        cells: usize,
    },
    /// A directional adjacency rule gives both or neither of `allow` and `forbid`.
    NeedsAllowOrForbid,
    /// One adjacency rule allows what another forbids: `tile` on the `dir` side of `of`.
    Contradiction {
        /// The tile beside.
        tile: String,
        /// The side.
        dir: Dir,
        /// The tile it sits beside.
        of: String,
        /// The rule that allows it.
        allowed_by: AdjacencySource,
        /// The rule that forbids it.
        forbidden_by: AdjacencySource,
    },
}

/// What a field accepts, for [`FieldProblem::WrongValue`]; `Display` writes it after
/// `must be ` (`a whole number from 1 to 256`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expected {
    /// A JSON object.
    Object,
    /// A JSON array.
    Array,
    /// A JSON string.
    String,
    /// A JSON number.
    Number,
    /// A string of one (non-control) character: a glyph.
    Character,
    /// A non-empty name without `.` (the dot separates `layer.value`).
    Name,
    /// A whole number ≥ 0.
    WholeNumber,
    /// A column (`x`).
    Column,
    /// A row (`y`).
    Row,
    /// A path's `max_length`.
    Steps,
    /// A whole number at least this.
    AtLeast(u64),
    /// A whole number in `min..=max` (`u64::MAX` written `2^64 - 1`).
    Range {
        /// Smallest accepted.
        min: u64,
        /// Largest accepted.
        max: u64,
    },
    /// A ratio in `[0, 1]` (a number with a decimal point).
    Ratio,
    /// A ratio in `[0, 1]` where a whole number above 1 was given: a count with `per` takes
    /// ratios only (`1` is 100%).
    RatioWithPer,
    /// A whole number of cells or a ratio in `[0, 1]`.
    CountOrRatio,
    /// A non-empty rectangle inside the grid.
    Rectangle {
        /// The grid's width.
        width: usize,
        /// The grid's height.
        height: usize,
    },
    /// A connectivity root: `"any"` or a cell.
    Root,
    /// A path endpoint: a cell or a name.
    Endpoint,
    /// A preferences mode: `"hint"` or `"soft"`.
    Mode,
    /// A direction: `"N"`, `"E"`, `"S"` or `"W"`.
    Dir,
    /// A pair of names `["a", "b"]`.
    Pair,
}

/// The coordinate of a cell that [`FieldProblem::OutsideGrid`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Axis {
    /// The column, bounded by `width`.
    X,
    /// The row, bounded by `height`.
    Y,
}

/// The adjacency rule that allows or forbids a pair, in a [`FieldProblem::Contradiction`];
/// `Display` writes its path (`adjacency.directional[1]`).
///
/// Why not just a path: an allow-list forbids the pairs it does *not* name, and a designer
/// looking at the rule would not find the pair written there, so the message says so. And an
/// index, not a path string, keeps [`GridError`] small enough to return by value (clippy's
/// `result_large_err` bound of 128 bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AdjacencySource {
    /// `adjacency.allow[i]` names the pair.
    Allow(usize),
    /// `adjacency.forbid[i]` names the pair.
    Forbid(usize),
    /// `adjacency.directional[i]` lists the tile (in its `allow` or its `forbid`).
    Directional(usize),
    /// `adjacency.allow` does not list the pair (the symmetric allow-list forbids every pair
    /// it does not name).
    NotInAllow,
    /// `adjacency.directional[i]` has an allow list without the tile.
    NotInDirectionalAllow(usize),
}

impl std::fmt::Display for AdjacencySource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AdjacencySource::Allow(i) => write!(f, "adjacency.allow[{i}]"),
            AdjacencySource::Forbid(i) => write!(f, "adjacency.forbid[{i}]"),
            AdjacencySource::Directional(i) => write!(f, "adjacency.directional[{i}]"),
            AdjacencySource::NotInAllow => write!(f, "adjacency.allow (not listed)"),
            AdjacencySource::NotInDirectionalAllow(i) => {
                write!(f, "adjacency.directional[{i}] (not in its allow list)")
            }
        }
    }
}

impl std::fmt::Display for Expected {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Expected::Object => write!(f, "an object"),
            Expected::Array => write!(f, "an array"),
            Expected::String => write!(f, "a string"),
            Expected::Number => write!(f, "a number"),
            Expected::Character => write!(f, "one character"),
            Expected::Name => write!(f, "a non-empty name without '.'"),
            Expected::WholeNumber => write!(f, "a whole number"),
            Expected::Column => write!(f, "a column"),
            Expected::Row => write!(f, "a row"),
            Expected::Steps => write!(f, "a whole number of steps"),
            Expected::AtLeast(n) => write!(f, "a whole number ≥ {n}"),
            Expected::Range { min, max } if max == u64::MAX => {
                write!(f, "a whole number from {min} to 2^64 - 1")
            }
            Expected::Range { min, max } => write!(f, "a whole number from {min} to {max}"),
            Expected::Ratio => write!(f, "a ratio between 0 and 1"),
            Expected::RatioWithPer => write!(f, "a ratio between 0 and 1 here"),
            Expected::CountOrRatio => {
                write!(f, "a whole number of cells or a ratio between 0 and 1")
            }
            Expected::Rectangle { width, height } => {
                write!(f, "a non-empty rectangle inside the {width}x{height} grid")
            }
            Expected::Root => write!(f, "\"any\" or a cell {{\"x\": .., \"y\": ..}}"),
            Expected::Endpoint => write!(f, "a cell {{\"x\": .., \"y\": ..}} or a name"),
            Expected::Mode => write!(f, "\"hint\" or \"soft\""),
            Expected::Dir => write!(f, "one of \"N\", \"E\", \"S\", \"W\""),
            Expected::Pair => write!(f, "a pair [\"a\", \"b\"]"),
        }
    }
}

impl std::fmt::Display for FieldProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // A one-character string as the file would quote it: `"x"`.
        let quoted = |c: char| format!("{:?}", c.to_string());
        match self {
            FieldProblem::WrongValue { value, expected } => {
                write!(f, "{value} must be {expected}")
            }
            FieldProblem::UnknownField { known } => {
                write!(f, "unknown field; expected one of {}", known.join(", "))
            }
            FieldProblem::Missing => write!(f, "is required"),
            FieldProblem::NoTiles => write!(f, "must list at least one tile"),
            FieldProblem::TooManyTiles { count } => {
                write!(f, "{count} tiles; at most {MAX_TILES} are supported")
            }
            FieldProblem::ReservedGlyph => {
                write!(f, "\"?\" is reserved for free cells in the mask")
            }
            FieldProblem::GlyphTaken { glyph, tile } => write!(
                f,
                "{} is already the glyph of tiles[{tile}]",
                quoted(*glyph)
            ),
            FieldProblem::ValueGlyphTaken {
                glyph,
                layer,
                value,
            } => write!(
                f,
                "{} is already the glyph of layers[{layer}].values[{value}] (each value of a \
                 layer needs its own glyph, so that the layer's rows can be read back)",
                quoted(*glyph)
            ),
            FieldProblem::NameTaken { value, tile } => {
                write!(f, "{value} is already the name of tiles[{tile}]")
            }
            FieldProblem::ClassNamedLikeTile { value } => {
                write!(f, "{value} is a tile name; a class needs its own name")
            }
            FieldProblem::TileNamedLikeClass { name } => {
                write!(f, "{name:?} is also a class name")
            }
            FieldProblem::LayerNameTaken { value } => {
                write!(f, "{value} is already a class or layer name")
            }
            FieldProblem::ValueCount { .. } => {
                write!(f, "must list from 1 to {MAX_TILES} values")
            }
            FieldProblem::DuplicateValue { value } => {
                write!(f, "{value} appears twice in the layer")
            }
            FieldProblem::NotATile { value } => write!(f, "{value} is not a tile"),
            FieldProblem::NotATileOrClass { value } => {
                write!(f, "{value} is neither a tile nor a class")
            }
            FieldProblem::NoSuchLayer { value, layer } => {
                write!(f, "{value} names no layer {layer:?}")
            }
            FieldProblem::NoSuchLayerValue { value, layer, name } => {
                write!(f, "{value} names no value {name:?} of layer {layer:?}")
            }
            FieldProblem::MaskRows { rows, height } => {
                write!(f, "has {rows} rows; the grid has {height}")
            }
            FieldProblem::MaskRowLength {
                value,
                chars,
                width,
            } => write!(
                f,
                "{value} has {chars} characters; the grid is {width} wide"
            ),
            FieldProblem::MaskGlyph { glyph, x } => write!(
                f,
                "{} at x={x} is neither \"?\" nor a tile glyph",
                quoted(*glyph)
            ),
            FieldProblem::OutsideGrid {
                coordinate,
                axis,
                size,
            } => {
                let side = match axis {
                    Axis::X => "width",
                    Axis::Y => "height",
                };
                write!(f, "{coordinate} is outside the grid ({side} {size})")
            }
            FieldProblem::NoTileLeft {
                cell: (x, y),
                after,
            } => {
                write!(f, "leaves no tile for cell x={x} y={y}")?;
                match after {
                    Some(a) => write!(f, " (after {a})"),
                    None => Ok(()),
                }
            }
            FieldProblem::NeedsMinOrMax => write!(f, "needs \"min\", \"max\" or both"),
            FieldProblem::EnclosureCeiling => write!(
                f,
                "an enclosure takes only a floor (\"min\"): reachability from the border is \
                 encoded by Horn clauses whose solutions may over-approximate what is \
                 reachable, which is sound for \"at least this much is sealed\" but would let a \
                 ceiling be met by calling sealed cells reachable; bound the class with a count \
                 instead"
            ),
            FieldProblem::RootCannotHoldClass {
                cell: (x, y),
                by,
                left,
            } => write!(
                f,
                "cell x={x} y={y} cannot hold the class: {} leave{} it only {}",
                by.join(" and "),
                if by.len() == 1 { "s" } else { "" },
                left.join(", ")
            ),
            FieldProblem::PathTooLong { steps: n, cells } => write!(
                f,
                "{n} steps on {cells} cells needs {n} layers of {cells} variables; at most \
                 {MAX_PATH_LAYERS} layer-cells are supported — shorten it or drop it (an \
                 unbounded path costs no layers)"
            ),
            FieldProblem::NeedsAllowOrForbid => {
                write!(f, "needs exactly one of \"allow\" and \"forbid\"")
            }
            FieldProblem::Contradiction {
                tile,
                dir,
                of,
                allowed_by,
                forbidden_by,
            } => write!(
                f,
                "contradiction for {tile:?} on the {} side of {of:?}: {allowed_by} allows it, \
                 {forbidden_by} forbids it",
                dir.name()
            ),
        }
    }
}

/// What is wrong with `grid.json` as JSON ([`GridError::Syntax`]); `Display` writes
/// serde_json's own words, so messages read as they always have.
///
/// Why a mirror of serde_json's list: serde_json's error code is private and its public
/// [`serde_json::error::Category`] says only "syntax" or "end of input", which loses what a
/// designer needs ("expected `,` or `}`" at the column of a missing comma). The one place the
/// description exists is serde_json's text, so [`JsonProblem::classify`] matches that text
/// against the known descriptions: those of serde_json 1.0's `ErrorCode` that reading a
/// `Value` from a `&str` can produce. Left out: the closing quote or number of a numeric key
/// and a non-finite float key (they come from typed map keys), and "invalid unicode code
/// point" (a `&str` is valid UTF-8, and a bad `\u` escape fails as a surrogate). A test
/// (`tests/grid_errors.rs`) provokes each listed one, so a rewording in serde_json fails it.
/// A description this list does not know (a newer serde_json) is kept as
/// [`JsonProblem::Unclassified`] — the one free text left in [`GridError`] — not lost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JsonProblem {
    /// The text ends inside an array.
    EofInList,
    /// The text ends inside an object.
    EofInObject,
    /// The text ends inside a string.
    EofInString,
    /// The text ends where a value should start (an empty file, or after `:`).
    EofInValue,
    /// A key is not followed by `:`.
    ExpectedColon,
    /// An array element is followed by neither `,` nor `]`.
    ExpectedListCommaOrEnd,
    /// An object member is followed by neither `,` nor `}`.
    ExpectedObjectCommaOrEnd,
    /// A bare word that is not `true`, `false` or `null`.
    ExpectedIdent,
    /// A character that cannot start a value.
    ExpectedValue,
    /// A backslash escape that JSON does not have.
    InvalidEscape,
    /// A malformed number.
    InvalidNumber,
    /// A number too large for a double.
    NumberOutOfRange,
    /// A raw control character inside a string.
    ControlCharacterInString,
    /// An object key that is not a string.
    KeyMustBeAString,
    /// A `\uD800`-style high surrogate escape without its low half.
    LoneLeadingSurrogate,
    /// A comma before `]` or `}`.
    TrailingComma,
    /// More text after the document.
    TrailingCharacters,
    /// A `\u` escape cut short.
    UnexpectedEndOfHexEscape,
    /// Arrays and objects nested more than 128 deep.
    RecursionLimitExceeded,
    /// A description this list does not know, as serde_json wrote it (without the position).
    Unclassified {
        /// serde_json's description: the one free text left, kept because there is nothing
        /// typed to map it to.
        description: String,
    },
}

impl JsonProblem {
    /// Every classified problem, for [`JsonProblem::classify`].
    pub const KNOWN: [JsonProblem; 19] = [
        JsonProblem::EofInList,
        JsonProblem::EofInObject,
        JsonProblem::EofInString,
        JsonProblem::EofInValue,
        JsonProblem::ExpectedColon,
        JsonProblem::ExpectedListCommaOrEnd,
        JsonProblem::ExpectedObjectCommaOrEnd,
        JsonProblem::ExpectedIdent,
        JsonProblem::ExpectedValue,
        JsonProblem::InvalidEscape,
        JsonProblem::InvalidNumber,
        JsonProblem::NumberOutOfRange,
        JsonProblem::ControlCharacterInString,
        JsonProblem::KeyMustBeAString,
        JsonProblem::LoneLeadingSurrogate,
        JsonProblem::TrailingComma,
        JsonProblem::TrailingCharacters,
        JsonProblem::UnexpectedEndOfHexEscape,
        JsonProblem::RecursionLimitExceeded,
    ];

    /// The problem serde_json's error describes: its description (its text without the
    /// trailing ` at line L column C`, which [`GridError::Syntax`] carries as numbers) matched
    /// against [`JsonProblem::KNOWN`], else [`JsonProblem::Unclassified`].
    pub fn classify(e: &serde_json::Error) -> JsonProblem {
        let text = e.to_string();
        let description = match text.rfind(" at line ") {
            Some(i) => &text[..i],
            None => &text,
        };
        JsonProblem::KNOWN
            .into_iter()
            .find(|p| p.to_string() == description)
            .unwrap_or_else(|| JsonProblem::Unclassified {
                description: description.to_string(),
            })
    }
}

impl std::fmt::Display for JsonProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = match self {
            JsonProblem::EofInList => "EOF while parsing a list",
            JsonProblem::EofInObject => "EOF while parsing an object",
            JsonProblem::EofInString => "EOF while parsing a string",
            JsonProblem::EofInValue => "EOF while parsing a value",
            JsonProblem::ExpectedColon => "expected `:`",
            JsonProblem::ExpectedListCommaOrEnd => "expected `,` or `]`",
            JsonProblem::ExpectedObjectCommaOrEnd => "expected `,` or `}`",
            JsonProblem::ExpectedIdent => "expected ident",
            JsonProblem::ExpectedValue => "expected value",
            JsonProblem::InvalidEscape => "invalid escape",
            JsonProblem::InvalidNumber => "invalid number",
            JsonProblem::NumberOutOfRange => "number out of range",
            JsonProblem::ControlCharacterInString => {
                "control character (\\u0000-\\u001F) found while parsing a string"
            }
            JsonProblem::KeyMustBeAString => "key must be a string",
            JsonProblem::LoneLeadingSurrogate => "lone leading surrogate in hex escape",
            JsonProblem::TrailingComma => "trailing comma",
            JsonProblem::TrailingCharacters => "trailing characters",
            JsonProblem::UnexpectedEndOfHexEscape => "unexpected end of hex escape",
            JsonProblem::RecursionLimitExceeded => "recursion limit exceeded",
            JsonProblem::Unclassified { description } => description,
        };
        f.write_str(s)
    }
}

/// A cell restriction: the rule, the cell and the tiles it leaves there.
pub(crate) type DomainOrigin = (RuleRef, usize, TileSet);

/// An adjacency rule and the `(dir, a, b)` triples it forbids.
pub(crate) type AdjacencyOrigin = (RuleRef, Vec<(Dir, usize, usize)>);

/// The restrictions the resolved tables merge, each with the rule it came from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Origins {
    /// Each cell restriction of `mask`, `pins` and `allowed`: the rule, the cell and the tiles
    /// it leaves there (`domains` is their intersection).
    pub(crate) domain: Vec<DomainOrigin>,
    /// Each adjacency rule and the `(dir, a, b)` triples it forbids ("`b` on the `dir` side of
    /// `a`"), mirrors included (`adjacent` is true outside their union).
    pub(crate) adjacency: Vec<AdjacencyOrigin>,
}

impl GridSpec {
    /// Reads and validates `grid.json` text. Errors name the field path and the offending
    /// value, or the line and column of a JSON syntax error.
    pub fn from_json(text: &str) -> Result<GridSpec, GridError> {
        let value: Value = serde_json::from_str(text).map_err(|e| GridError::Syntax {
            line: e.line().max(1),
            column: e.column().max(1),
            problem: JsonProblem::classify(&e),
        })?;
        Reader::default().spec(&value)
    }

    /// Number of cells.
    pub fn cells(&self) -> usize {
        self.width * self.height
    }

    /// The `grid.json` document this spec was read from, as written. The referee
    /// ([`super::check_level`]) judges levels against it, not against the resolved tables of
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
            || soft_preferences
    }
}

/// A value shown in an error: compact JSON, cut at 40 characters.
fn show(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 40 {
        let cut: String = s.chars().take(37).collect();
        format!("{cut}...")
    } else {
        s
    }
}

fn invalid(field: &str, problem: FieldProblem) -> GridError {
    GridError::Invalid {
        field: field.to_string(),
        problem,
    }
}

/// `v` is not what the field at `path` accepts.
fn wrong(path: &str, v: &Value, expected: Expected) -> GridError {
    invalid(
        path,
        FieldProblem::WrongValue {
            value: show(v),
            expected,
        },
    )
}

type R<T> = Result<T, GridError>;

fn object<'a>(
    v: &'a Value,
    path: &str,
    known: &'static [&'static str],
) -> R<&'a Map<String, Value>> {
    let Some(m) = v.as_object() else {
        return Err(wrong(path, v, Expected::Object));
    };
    for key in m.keys() {
        if !known.contains(&key.as_str()) {
            let at = if path.is_empty() {
                key.clone()
            } else {
                format!("{path}.{key}")
            };
            return Err(invalid(&at, FieldProblem::UnknownField { known }));
        }
    }
    Ok(m)
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// A present, non-null field.
fn field<'a>(m: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    m.get(key).filter(|v| !v.is_null())
}

fn required<'a>(m: &'a Map<String, Value>, path: &str, key: &str) -> R<&'a Value> {
    field(m, key).ok_or_else(|| invalid(&join(path, key), FieldProblem::Missing))
}

fn uint(v: &Value, path: &str, expected: Expected) -> R<u64> {
    v.as_u64().ok_or_else(|| wrong(path, v, expected))
}

fn string<'a>(v: &'a Value, path: &str) -> R<&'a str> {
    v.as_str().ok_or_else(|| wrong(path, v, Expected::String))
}

fn array<'a>(v: &'a Value, path: &str) -> R<&'a Vec<Value>> {
    v.as_array().ok_or_else(|| wrong(path, v, Expected::Array))
}

fn glyph(v: &Value, path: &str) -> R<char> {
    let s = string(v, path)?;
    let mut it = s.chars();
    match (it.next(), it.next()) {
        (Some(c), None) if !c.is_control() => Ok(c),
        _ => Err(wrong(path, v, Expected::Character)),
    }
}

/// A number read as a bound: a JSON integer is absolute; a number with a fraction part (or a
/// decimal point, `1.0`) is a ratio in [0, 1], read to 6 decimal places.
fn bound(v: &Value, path: &str, ratio_only: bool) -> R<Bound> {
    if let Some(n) = v.as_u64() {
        if !ratio_only {
            return Ok(Bound::Absolute(n));
        }
        if n <= 1 {
            return Ok(reduce(n * RATIO_DENOMINATOR, RATIO_DENOMINATOR));
        }
        return Err(wrong(path, v, Expected::RatioWithPer));
    }
    match v.as_f64() {
        Some(f) if (0.0..=1.0).contains(&f) => match millionths(&v.to_string()) {
            Some(num) if num <= RATIO_DENOMINATOR => Ok(reduce(num, RATIO_DENOMINATOR)),
            _ => Err(wrong(path, v, Expected::Ratio)),
        },
        Some(_) if v.is_number() => Err(wrong(path, v, Expected::CountOrRatio)),
        _ => Err(wrong(path, v, Expected::Number)),
    }
}

/// A decimal number's text (`0.3`, `1.0`, `5e-7`: what serde_json prints for the number read,
/// the shortest text that reads back as the same double) rounded to a whole number of
/// millionths, halves up (`0.0000005` is 1). Exact decimal arithmetic rather than `f · 10⁶`
/// in floating point, whose rounding could move a value written just below a half across it.
/// `None` for a negative number or text that is not a plain decimal.
fn millionths(text: &str) -> Option<u64> {
    let (mantissa, exponent) = match text.split_once(['e', 'E']) {
        Some((m, e)) => (m, e.parse::<i32>().ok()?),
        None => (text, 0),
    };
    if let Some(magnitude) = mantissa.strip_prefix('-') {
        // Only zero may carry a sign.
        return magnitude.chars().all(|c| c == '0' || c == '.').then_some(0);
    }
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits: String = format!("{int}{frac}");
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let digits = digits.trim_start_matches('0');
    // value = digits · 10^shift; we want round(value · 10⁶).
    let shift = exponent
        .checked_sub(i32::try_from(frac.len()).ok()?)?
        .checked_add(6)?;
    if digits.is_empty() {
        return Some(0);
    }
    if shift >= 0 {
        // A whole number of millionths; anything longer than 20 digits is far beyond 1.
        let padded = format!(
            "{digits}{}",
            "0".repeat(usize::try_from(shift).ok()?.min(40))
        );
        return padded.parse::<u64>().ok();
    }
    let cut = usize::try_from(-shift).ok()?;
    if cut > digits.len() {
        // Below a tenth of a millionth: rounds to 0.
        return Some(0);
    }
    let (keep, dropped) = digits.split_at(digits.len() - cut);
    let whole = if keep.is_empty() {
        0
    } else {
        keep.parse::<u64>().ok()?
    };
    let half_or_more = dropped.as_bytes().first().is_some_and(|&b| b >= b'5');
    whole.checked_add(half_or_more as u64)
}

fn reduce(num: u64, den: u64) -> Bound {
    let g = gcd(num, den).max(1);
    Bound::Ratio {
        num: num / g,
        den: den / g,
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// The merged adjacency table (see [`GridSpec::adjacent`]) and each rule's forbidden triples.
type AdjacencyTables = (
    [Vec<Vec<bool>>; 4],
    Vec<(RuleRef, Vec<(Dir, usize, usize)>)>,
);

/// A name or a list of names as a short text: `wall`, `wall, water`.
fn compact_names(v: &Value) -> String {
    match v {
        Value::Array(list) => list
            .iter()
            .map(|x| x.as_str().unwrap_or("?"))
            .collect::<Vec<_>>()
            .join(", "),
        _ => v.as_str().unwrap_or("?").to_string(),
    }
}

/// Validation state: what has been read so far (later sections resolve names against it).
#[derive(Default)]
struct Reader {
    width: usize,
    height: usize,
    tiles: Vec<Tile>,
    layers: Vec<Layer>,
}

impl Reader {
    fn spec(mut self, v: &Value) -> R<GridSpec> {
        let m = object(
            v,
            "",
            &[
                "width",
                "height",
                "tiles",
                "adjacency",
                "layers",
                "mask",
                "pins",
                "allowed",
                "counts",
                "enclosure",
                "connectivity",
                "paths",
                "preferences",
                "comment",
            ],
        )?;
        self.width = self.side(m, "width")?;
        self.height = self.side(m, "height")?;
        self.tiles(required(m, "", "tiles")?)?;
        if let Some(v) = field(m, "layers") {
            self.layers(v)?;
        }
        let (adjacent, adjacency_origins) = match field(m, "adjacency") {
            Some(v) => self.adjacency(v)?,
            None => {
                let t = self.tiles.len();
                (std::array::from_fn(|_| vec![vec![true; t]; t]), Vec::new())
            }
        };
        let (domains, domain_origins) = self.domains(m)?;
        let counts = match field(m, "counts") {
            Some(v) => self.list(v, "counts", Reader::count)?,
            None => Vec::new(),
        };
        let enclosure = match field(m, "enclosure") {
            Some(v) => self.list(v, "enclosure", Reader::enclosure)?,
            None => Vec::new(),
        };
        let connectivity = match field(m, "connectivity") {
            Some(v) => self.list(v, "connectivity", Reader::connectivity)?,
            None => Vec::new(),
        };
        for (i, rule) in connectivity.iter().enumerate() {
            let Some((x, y)) = rule.root else { continue };
            let c = y * self.width + x;
            if !domains[c].iter().zip(&rule.class).any(|(&d, &k)| d && k) {
                let by: Vec<String> = domain_origins
                    .iter()
                    .filter(|(_, cell, _)| *cell == c)
                    .map(|(r, _, _)| r.path.clone())
                    .collect();
                let left: Vec<String> = (0..self.tiles.len())
                    .filter(|&a| domains[c][a])
                    .map(|a| self.tiles[a].name.clone())
                    .collect();
                return Err(invalid(
                    &format!("connectivity[{i}].root"),
                    FieldProblem::RootCannotHoldClass {
                        cell: (x, y),
                        by,
                        left,
                    },
                ));
            }
        }
        let paths = match field(m, "paths") {
            Some(v) => self.list(v, "paths", Reader::path)?,
            None => Vec::new(),
        };
        let preferences = match field(m, "preferences") {
            Some(v) => Some(self.preferences(v)?),
            None => None,
        };
        Ok(GridSpec {
            width: self.width,
            height: self.height,
            tiles: self.tiles,
            layers: self.layers,
            adjacent,
            domains,
            counts,
            enclosure,
            connectivity,
            paths,
            preferences,
            document: Arc::new(v.clone()),
            origins: Origins {
                domain: domain_origins,
                adjacency: adjacency_origins,
            },
        })
    }

    fn side(&self, m: &Map<String, Value>, key: &str) -> R<usize> {
        let v = required(m, "", key)?;
        match v.as_u64() {
            Some(n) if n >= 1 && n <= MAX_SIDE as u64 => Ok(n as usize),
            _ => Err(wrong(
                key,
                v,
                Expected::Range {
                    min: 1,
                    max: MAX_SIDE as u64,
                },
            )),
        }
    }

    fn list<T>(&self, v: &Value, path: &str, item: fn(&Reader, &Value, &str) -> R<T>) -> R<Vec<T>> {
        array(v, path)?
            .iter()
            .enumerate()
            .map(|(i, v)| item(self, v, &format!("{path}[{i}]")))
            .collect()
    }

    fn tiles(&mut self, v: &Value) -> R<()> {
        let list = array(v, "tiles")?;
        if list.is_empty() {
            return Err(invalid("tiles", FieldProblem::NoTiles));
        }
        if list.len() > MAX_TILES {
            return Err(invalid(
                "tiles",
                FieldProblem::TooManyTiles { count: list.len() },
            ));
        }
        for (i, t) in list.iter().enumerate() {
            let path = format!("tiles[{i}]");
            let m = object(t, &path, &["name", "glyph", "weight", "classes", "color"])?;
            let name = self.new_name(required(m, &path, "name")?, &join(&path, "name"))?;
            let g = glyph(required(m, &path, "glyph")?, &join(&path, "glyph"))?;
            if g == '?' {
                return Err(invalid(&join(&path, "glyph"), FieldProblem::ReservedGlyph));
            }
            if let Some(j) = self.tiles.iter().position(|t| t.glyph == g) {
                return Err(invalid(
                    &join(&path, "glyph"),
                    FieldProblem::GlyphTaken { glyph: g, tile: j },
                ));
            }
            let weight = match field(m, "weight") {
                Some(w) => uint(w, &join(&path, "weight"), Expected::AtLeast(0))?,
                None => 1,
            };
            let mut classes = Vec::new();
            if let Some(c) = field(m, "classes") {
                let cp = join(&path, "classes");
                for (k, c) in array(c, &cp)?.iter().enumerate() {
                    let at = format!("{cp}[{k}]");
                    let s = string(c, &at)?;
                    if s.is_empty() || s.contains('.') {
                        return Err(wrong(&at, c, Expected::Name));
                    }
                    if self.tiles.iter().any(|t| t.name == s) || s == name {
                        return Err(invalid(
                            &at,
                            FieldProblem::ClassNamedLikeTile { value: show(c) },
                        ));
                    }
                    if !classes.iter().any(|x: &String| x == s) {
                        classes.push(s.to_string());
                    }
                }
            }
            let color = match field(m, "color") {
                Some(c) => Some(string(c, &join(&path, "color"))?.to_string()),
                None => None,
            };
            self.tiles.push(Tile {
                name,
                glyph: g,
                weight,
                classes,
                color,
            });
        }
        // A tile named like an earlier tile's class.
        for (i, t) in self.tiles.iter().enumerate() {
            if self.tiles.iter().any(|u| u.classes.contains(&t.name)) {
                return Err(invalid(
                    &format!("tiles[{i}].name"),
                    FieldProblem::TileNamedLikeClass {
                        name: t.name.clone(),
                    },
                ));
            }
        }
        Ok(())
    }

    /// A tile or layer name: non-empty, no '.', not taken.
    fn new_name(&self, v: &Value, path: &str) -> R<String> {
        let s = string(v, path)?;
        if s.is_empty() || s.contains('.') || s == "?" {
            return Err(wrong(path, v, Expected::Name));
        }
        if let Some(j) = self.tiles.iter().position(|t| t.name == s) {
            return Err(invalid(
                path,
                FieldProblem::NameTaken {
                    value: show(v),
                    tile: j,
                },
            ));
        }
        Ok(s.to_string())
    }

    /// A tile name or class name → the set of its tiles.
    fn tile_set(&self, v: &Value, path: &str) -> R<TileSet> {
        let s = string(v, path)?;
        let set: TileSet = self
            .tiles
            .iter()
            .map(|t| t.name == s || t.classes.iter().any(|c| c == s))
            .collect();
        if set.iter().any(|&b| b) {
            Ok(set)
        } else {
            Err(invalid(
                path,
                FieldProblem::NotATileOrClass { value: show(v) },
            ))
        }
    }

    /// A name or a list of names → the union of their tile sets.
    fn tile_sets(&self, v: &Value, path: &str) -> R<TileSet> {
        match v {
            Value::Array(list) => {
                let mut set = vec![false; self.tiles.len()];
                for (i, x) in list.iter().enumerate() {
                    for (s, b) in set
                        .iter_mut()
                        .zip(self.tile_set(x, &format!("{path}[{i}]"))?)
                    {
                        *s |= b;
                    }
                }
                Ok(set)
            }
            _ => self.tile_set(v, path),
        }
    }

    /// A tile or class name, or `layer.value`.
    fn selection(&self, v: &Value, path: &str) -> R<Selection> {
        let s = string(v, path)?;
        if let Some((layer, value)) = s.split_once('.') {
            let Some(li) = self.layers.iter().position(|l| l.name == layer) else {
                return Err(invalid(
                    path,
                    FieldProblem::NoSuchLayer {
                        value: show(v),
                        layer: layer.to_string(),
                    },
                ));
            };
            let Some(vi) = self.layers[li].values.iter().position(|x| x.name == value) else {
                return Err(invalid(
                    path,
                    FieldProblem::NoSuchLayerValue {
                        value: show(v),
                        layer: layer.to_string(),
                        name: value.to_string(),
                    },
                ));
            };
            return Ok(Selection::LayerValue {
                layer: li,
                value: vi,
            });
        }
        Ok(Selection::Tiles(self.tile_set(v, path)?))
    }

    fn layers(&mut self, v: &Value) -> R<()> {
        for (i, l) in array(v, "layers")?.iter().enumerate() {
            let path = format!("layers[{i}]");
            let m = object(l, &path, &["name", "values"])?;
            let nv = required(m, &path, "name")?;
            let name = self.new_name(nv, &join(&path, "name"))?;
            if self.tiles.iter().any(|t| t.classes.contains(&name))
                || self.layers.iter().any(|l| l.name == name)
            {
                return Err(invalid(
                    &join(&path, "name"),
                    FieldProblem::LayerNameTaken { value: show(nv) },
                ));
            }
            let vp = join(&path, "values");
            let list = array(required(m, &path, "values")?, &vp)?;
            if list.is_empty() || list.len() > MAX_TILES {
                return Err(invalid(&vp, FieldProblem::ValueCount { count: list.len() }));
            }
            let mut values: Vec<LayerValue> = Vec::new();
            for (k, x) in list.iter().enumerate() {
                let p = format!("{vp}[{k}]");
                let xm = object(x, &p, &["name", "glyph", "requires"])?;
                let xn = required(xm, &p, "name")?;
                let n = string(xn, &join(&p, "name"))?;
                if n.is_empty() || n.contains('.') {
                    return Err(wrong(&join(&p, "name"), xn, Expected::Name));
                }
                if values.iter().any(|y| y.name == n) {
                    return Err(invalid(
                        &join(&p, "name"),
                        FieldProblem::DuplicateValue { value: show(xn) },
                    ));
                }
                let g = glyph(required(xm, &p, "glyph")?, &join(&p, "glyph"))?;
                if let Some(k2) = values.iter().position(|y| y.glyph == g) {
                    return Err(invalid(
                        &join(&p, "glyph"),
                        FieldProblem::ValueGlyphTaken {
                            glyph: g,
                            layer: i,
                            value: k2,
                        },
                    ));
                }
                let requires = match field(xm, "requires") {
                    Some(r) => Some(self.tile_sets(r, &join(&p, "requires"))?),
                    None => None,
                };
                values.push(LayerValue {
                    name: n.to_string(),
                    glyph: g,
                    requires,
                });
            }
            self.layers.push(Layer { name, values });
        }
        Ok(())
    }

    /// The merged per-direction table, and each rule's forbidden triples.
    ///
    /// Every rule marks the `(dir, a, b)` triples it explicitly allows or forbids, with their
    /// mirrors `(opposite(dir), b, a)`: a symmetric `forbid` pair forbids it on every side, the
    /// symmetric `allow` list forbids every pair it does not name, a directional `allow` forbids
    /// the tiles *outside* its list on that side and a directional `forbid` the tiles *in* it.
    /// A triple is allowed when no rule forbids it; one rule allowing what another forbids is
    /// the contradiction error.
    fn adjacency(&self, v: &Value) -> R<AdjacencyTables> {
        let m = object(v, "adjacency", &["allow", "forbid", "directional"])?;
        let t = self.tiles.len();
        // Per (dir, a, b): the first rule that explicitly allows / forbids the pair.
        let mut allowed_by: Vec<Option<AdjacencySource>> = vec![None; 4 * t * t];
        let mut forbidden_by: Vec<Option<AdjacencySource>> = vec![None; 4 * t * t];
        let at = |d: Dir, a: usize, b: usize| (d as usize * t + a) * t + b;
        // Each rule's forbidden triples (mirrors included), in rule order.
        let mut rules: Vec<AdjacencyOrigin> = Vec::new();
        // Marks (a, d, b) and its mirror (b, opposite(d), a) in `table`, and in `own` (the
        // rule's list) when given.
        let mark = |table: &mut Vec<Option<AdjacencySource>>,
                    own: Option<&mut Vec<(Dir, usize, usize)>>,
                    d: Dir,
                    a: usize,
                    b: usize,
                    src: &AdjacencySource| {
            let mut own = own;
            for (i, j, e) in [(a, b, d), (b, a, d.opposite())] {
                let slot = &mut table[at(e, i, j)];
                if slot.is_none() {
                    *slot = Some(*src);
                }
                if let Some(list) = own.as_deref_mut()
                    && !list.contains(&(e, i, j))
                {
                    list.push((e, i, j));
                }
            }
        };
        let pairs = |key: &str| -> R<Vec<(TileSet, TileSet, String, String)>> {
            let mut out = Vec::new();
            if let Some(list) = field(m, key) {
                let p = format!("adjacency.{key}");
                for (i, pair) in array(list, &p)?.iter().enumerate() {
                    let pp = format!("{p}[{i}]");
                    match pair.as_array().map(|a| a.as_slice()) {
                        Some([x, y]) => out.push((
                            self.tile_set(x, &format!("{pp}[0]"))?,
                            self.tile_set(y, &format!("{pp}[1]"))?,
                            pp,
                            format!(
                                "{} beside {}",
                                x.as_str().unwrap_or("?"),
                                y.as_str().unwrap_or("?")
                            ),
                        )),
                        _ => {
                            return Err(wrong(&pp, pair, Expected::Pair));
                        }
                    }
                }
            }
            Ok(out)
        };
        for (i, (x, y, _, _)) in pairs("allow")?.into_iter().enumerate() {
            let src = AdjacencySource::Allow(i);
            for a in (0..t).filter(|&a| x[a]) {
                for b in (0..t).filter(|&b| y[b]) {
                    for d in Dir::ALL {
                        mark(&mut allowed_by, None, d, a, b, &src);
                    }
                }
            }
        }
        for (i, (x, y, path, summary)) in pairs("forbid")?.into_iter().enumerate() {
            let src = AdjacencySource::Forbid(i);
            let mut own = Vec::new();
            for a in (0..t).filter(|&a| x[a]) {
                for b in (0..t).filter(|&b| y[b]) {
                    for d in Dir::ALL {
                        mark(&mut forbidden_by, Some(&mut own), d, a, b, &src);
                    }
                }
            }
            rules.push((RuleRef::new(path, summary), own));
        }
        // The symmetric allow-list forbids every pair it does not name.
        if field(m, "allow").is_some() {
            let mut own = Vec::new();
            let src = AdjacencySource::NotInAllow;
            for a in 0..t {
                for b in 0..t {
                    for d in Dir::ALL {
                        if allowed_by[at(d, a, b)].is_none() {
                            mark(&mut forbidden_by, Some(&mut own), d, a, b, &src);
                        }
                    }
                }
            }
            let summary = "only the listed pairs may touch";
            rules.push((RuleRef::new("adjacency.allow", summary), own));
        }
        if let Some(list) = field(m, "directional") {
            for (i, r) in array(list, "adjacency.directional")?.iter().enumerate() {
                let p = format!("adjacency.directional[{i}]");
                let rm = object(r, &p, &["tile", "dir", "allow", "forbid"])?;
                let tv = required(rm, &p, "tile")?;
                let tiles = self.tile_set(tv, &join(&p, "tile"))?;
                let dv = required(rm, &p, "dir")?;
                let d = match dv.as_str() {
                    Some("N") => Dir::N,
                    Some("E") => Dir::E,
                    Some("S") => Dir::S,
                    Some("W") => Dir::W,
                    _ => {
                        return Err(wrong(&join(&p, "dir"), dv, Expected::Dir));
                    }
                };
                let (allow, forbid) = (field(rm, "allow"), field(rm, "forbid"));
                let (list, is_allow) = match (allow, forbid) {
                    (Some(a), None) => (a, true),
                    (None, Some(f)) => (f, false),
                    _ => {
                        return Err(invalid(&p, FieldProblem::NeedsAllowOrForbid));
                    }
                };
                let key = if is_allow { "allow" } else { "forbid" };
                let set = self.tile_sets(list, &join(&p, key))?;
                let mut own = Vec::new();
                let listed = AdjacencySource::Directional(i);
                let unlisted = AdjacencySource::NotInDirectionalAllow(i);
                for a in (0..t).filter(|&a| tiles[a]) {
                    for b in 0..t {
                        match (is_allow, set[b]) {
                            // Listed in an allow-list: explicitly allowed.
                            (true, true) => mark(&mut allowed_by, None, d, a, b, &listed),
                            // Outside an allow-list: forbidden.
                            (true, false) => {
                                mark(&mut forbidden_by, Some(&mut own), d, a, b, &unlisted)
                            }
                            // Listed in a forbid-list: forbidden.
                            (false, true) => {
                                mark(&mut forbidden_by, Some(&mut own), d, a, b, &listed)
                            }
                            // Outside a forbid-list: this rule says nothing about it.
                            (false, false) => {}
                        }
                    }
                }
                let summary = format!(
                    "{} of {}: {} {}",
                    d.name(),
                    tv.as_str().unwrap_or("?"),
                    if is_allow { "only" } else { "not" },
                    compact_names(list)
                );
                rules.push((RuleRef::new(p, summary), own));
            }
        }
        let mut adjacent: [Vec<Vec<bool>>; 4] = std::array::from_fn(|_| vec![vec![true; t]; t]);
        for d in Dir::ALL {
            for a in 0..t {
                for b in 0..t {
                    let k = at(d, a, b);
                    if let (Some(yes), Some(no)) = (&allowed_by[k], &forbidden_by[k]) {
                        return Err(invalid(
                            "adjacency",
                            FieldProblem::Contradiction {
                                tile: self.tiles[b].name.clone(),
                                dir: d,
                                of: self.tiles[a].name.clone(),
                                allowed_by: *yes,
                                forbidden_by: *no,
                            },
                        ));
                    }
                    adjacent[d as usize][a][b] = forbidden_by[k].is_none();
                }
            }
        }
        Ok((adjacent, rules))
    }

    fn cell(&self, v: &Value, path: &str) -> R<(usize, usize)> {
        let m = object(v, path, &["x", "y"])?;
        let x = uint(required(m, path, "x")?, &join(path, "x"), Expected::Column)?;
        let y = uint(required(m, path, "y")?, &join(path, "y"), Expected::Row)?;
        if x >= self.width as u64 {
            return Err(invalid(
                &join(path, "x"),
                FieldProblem::OutsideGrid {
                    coordinate: x,
                    axis: Axis::X,
                    size: self.width,
                },
            ));
        }
        if y >= self.height as u64 {
            return Err(invalid(
                &join(path, "y"),
                FieldProblem::OutsideGrid {
                    coordinate: y,
                    axis: Axis::Y,
                    size: self.height,
                },
            ));
        }
        Ok((x as usize, y as usize))
    }

    /// The cell domains, and each restriction with the rule it came from.
    fn domains(&self, m: &Map<String, Value>) -> R<(Vec<TileSet>, Vec<DomainOrigin>)> {
        let t = self.tiles.len();
        let (w, h) = (self.width, self.height);
        let mut domains = vec![vec![true; t]; w * h];
        let mut origins: Vec<DomainOrigin> = Vec::new();
        // Which rule last narrowed each cell, for the error when a cell runs empty.
        let mut why: Vec<Option<String>> = vec![None; w * h];
        let names = |set: &[bool]| -> String {
            let v: Vec<&str> = (0..t)
                .filter(|&a| set[a])
                .map(|a| self.tiles[a].name.as_str())
                .collect();
            v.join(", ")
        };
        let mut narrow = |c: usize, set: &[bool], src: String| -> R<()> {
            let (x, y) = (c % w, c / w);
            let rule = RuleRef {
                path: src.clone(),
                cell: Some((x, y)),
                summary: format!("x={x} y={y}: {}", names(set)),
            };
            origins.push((rule, c, set.to_vec()));
            for (d, s) in domains[c].iter_mut().zip(set) {
                *d &= *s;
            }
            if !domains[c].iter().any(|&b| b) {
                let after = why[c].take();
                return Err(invalid(
                    &src,
                    FieldProblem::NoTileLeft {
                        cell: (x, y),
                        after,
                    },
                ));
            }
            why[c] = Some(src);
            Ok(())
        };
        if let Some(mask) = field(m, "mask") {
            let rows = array(mask, "mask")?;
            if rows.len() != h {
                return Err(invalid(
                    "mask",
                    FieldProblem::MaskRows {
                        rows: rows.len(),
                        height: h,
                    },
                ));
            }
            for (y, row) in rows.iter().enumerate() {
                let p = format!("mask[{y}]");
                let s = string(row, &p)?;
                let chars: Vec<char> = s.chars().collect();
                if chars.len() != w {
                    return Err(invalid(
                        &p,
                        FieldProblem::MaskRowLength {
                            value: show(row),
                            chars: chars.len(),
                            width: w,
                        },
                    ));
                }
                for (x, ch) in chars.into_iter().enumerate() {
                    if ch == '?' {
                        continue;
                    }
                    let Some(ti) = self.tiles.iter().position(|t| t.glyph == ch) else {
                        return Err(invalid(&p, FieldProblem::MaskGlyph { glyph: ch, x }));
                    };
                    let set: Vec<bool> = (0..t).map(|i| i == ti).collect();
                    narrow(y * w + x, &set, p.clone())?;
                }
            }
        }
        if let Some(pins) = field(m, "pins") {
            for (i, pin) in array(pins, "pins")?.iter().enumerate() {
                let p = format!("pins[{i}]");
                let pm = object(pin, &p, &["x", "y", "tile"])?;
                let mut xy = Map::new();
                for k in ["x", "y"] {
                    xy.insert(k.to_string(), required(pm, &p, k)?.clone());
                }
                let (x, y) = self.cell(&Value::Object(xy), &p)?;
                let tv = required(pm, &p, "tile")?;
                let name = string(tv, &join(&p, "tile"))?;
                let Some(ti) = self.tiles.iter().position(|t| t.name == name) else {
                    return Err(invalid(
                        &join(&p, "tile"),
                        FieldProblem::NotATile { value: show(tv) },
                    ));
                };
                let set: Vec<bool> = (0..t).map(|i| i == ti).collect();
                narrow(y * w + x, &set, p)?;
            }
        }
        if let Some(allowed) = field(m, "allowed") {
            for (i, a) in array(allowed, "allowed")?.iter().enumerate() {
                let p = format!("allowed[{i}]");
                let am = object(a, &p, &["x", "y", "tiles"])?;
                let mut xy = Map::new();
                for k in ["x", "y"] {
                    xy.insert(k.to_string(), required(am, &p, k)?.clone());
                }
                let (x, y) = self.cell(&Value::Object(xy), &p)?;
                let set = self.tile_sets(required(am, &p, "tiles")?, &join(&p, "tiles"))?;
                narrow(y * w + x, &set, p)?;
            }
        }
        Ok((domains, origins))
    }

    fn region(&self, v: &Value, path: &str) -> R<Region> {
        let m = object(v, path, &["x", "y", "w", "h"])?;
        let get = |k: &str| uint(required(m, path, k)?, &join(path, k), Expected::WholeNumber);
        let (x, y, w, h) = (get("x")?, get("y")?, get("w")?, get("h")?);
        if w == 0
            || h == 0
            || x.saturating_add(w) > self.width as u64
            || y.saturating_add(h) > self.height as u64
        {
            return Err(wrong(
                path,
                v,
                Expected::Rectangle {
                    width: self.width,
                    height: self.height,
                },
            ));
        }
        Ok(Region {
            x: x as usize,
            y: y as usize,
            w: w as usize,
            h: h as usize,
        })
    }

    fn weight(m: &Map<String, Value>, path: &str) -> R<Option<u64>> {
        match field(m, "weight") {
            None => Ok(None),
            Some(v) => match v.as_u64() {
                Some(w) if w >= 1 => Ok(Some(w)),
                _ => Err(wrong(&join(path, "weight"), v, Expected::AtLeast(1))),
            },
        }
    }

    fn count(&self, v: &Value, path: &str) -> R<CountRule> {
        let m = object(v, path, &["of", "per", "region", "min", "max", "weight"])?;
        let of = self.selection(required(m, path, "of")?, &join(path, "of"))?;
        let per = match field(m, "per") {
            Some(p) => Some(self.selection(p, &join(path, "per"))?),
            None => None,
        };
        let region = match field(m, "region") {
            Some(r) => self.region(r, &join(path, "region"))?,
            None => Region {
                x: 0,
                y: 0,
                w: self.width,
                h: self.height,
            },
        };
        let ratio_only = per.is_some();
        let min = match field(m, "min") {
            Some(b) => Some(bound(b, &join(path, "min"), ratio_only)?),
            None => None,
        };
        let max = match field(m, "max") {
            Some(b) => Some(bound(b, &join(path, "max"), ratio_only)?),
            None => None,
        };
        if min.is_none() && max.is_none() {
            return Err(invalid(path, FieldProblem::NeedsMinOrMax));
        }
        Ok(CountRule {
            of,
            per,
            region,
            min,
            max,
            weight: Reader::weight(m, path)?,
        })
    }

    fn enclosure(&self, v: &Value, path: &str) -> R<EnclosureRule> {
        let m = object(v, path, &["class", "open", "min", "max", "weight"])?;
        if field(m, "max").is_some() {
            return Err(invalid(&join(path, "max"), FieldProblem::EnclosureCeiling));
        }
        let class = self.tile_sets(required(m, path, "class")?, &join(path, "class"))?;
        let open = self.tile_sets(required(m, path, "open")?, &join(path, "open"))?;
        let min = bound(required(m, path, "min")?, &join(path, "min"), false)?;
        Ok(EnclosureRule {
            class,
            open,
            min,
            weight: Reader::weight(m, path)?,
        })
    }

    fn connectivity(&self, v: &Value, path: &str) -> R<ConnectivityRule> {
        let m = object(v, path, &["class", "root"])?;
        let class = self.tile_sets(required(m, path, "class")?, &join(path, "class"))?;
        let root = match field(m, "root") {
            None => None,
            Some(Value::String(s)) if s == "any" => None,
            Some(r @ Value::Object(_)) => Some(self.cell(r, &join(path, "root"))?),
            Some(r) => {
                return Err(wrong(&join(path, "root"), r, Expected::Root));
            }
        };
        Ok(ConnectivityRule { class, root })
    }

    fn endpoint(&self, v: &Value, path: &str) -> R<Endpoint> {
        match v {
            Value::Object(_) => {
                let (x, y) = self.cell(v, path)?;
                Ok(Endpoint::Cell(x, y))
            }
            Value::String(_) => Ok(Endpoint::Select(self.selection(v, path)?)),
            _ => Err(wrong(path, v, Expected::Endpoint)),
        }
    }

    fn path(&self, v: &Value, path: &str) -> R<PathRule> {
        let m = object(v, path, &["from", "to", "through", "max_length"])?;
        let from = self.endpoint(required(m, path, "from")?, &join(path, "from"))?;
        let to = self.endpoint(required(m, path, "to")?, &join(path, "to"))?;
        let through = self.tile_sets(required(m, path, "through")?, &join(path, "through"))?;
        let cells = self.width * self.height;
        let max_length = match field(m, "max_length") {
            Some(l) => {
                let lp = join(path, "max_length");
                let n = uint(l, &lp, Expected::Steps)?;
                // A shortest walk never takes more than cells − 1 steps: longer is unbounded.
                if n >= cells as u64 {
                    None
                } else if (n as usize).saturating_mul(cells) > MAX_PATH_LAYERS {
                    return Err(invalid(&lp, FieldProblem::PathTooLong { steps: n, cells }));
                } else {
                    Some(n as usize)
                }
            }
            None => None,
        };
        Ok(PathRule {
            from,
            to,
            through,
            max_length,
        })
    }

    fn preferences(&self, v: &Value) -> R<Preferences> {
        let path = "preferences";
        let m = object(v, path, &["seed", "mode", "weight"])?;
        let seed = match field(m, "seed") {
            Some(s) => uint(
                s,
                "preferences.seed",
                Expected::Range {
                    min: 0,
                    max: u64::MAX,
                },
            )?,
            None => 0,
        };
        let soft = match field(m, "mode") {
            None => false,
            Some(Value::String(s)) if s == "hint" => false,
            Some(Value::String(s)) if s == "soft" => true,
            Some(x) => {
                return Err(wrong("preferences.mode", x, Expected::Mode));
            }
        };
        Ok(Preferences {
            seed,
            soft,
            weight: Reader::weight(m, path)?.unwrap_or(1),
        })
    }
}
