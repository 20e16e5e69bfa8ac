//! The words every rule of `grid.json` is written in: the grid's sides, tiles and their classes,
//! layers and their values, the selections, regions and bounds that name cells and numbers,
//! and the limits every field is checked against.
//!
//! Why these are not in a family: every family resolves its names against the tiles, classes
//! and layers, and the reader core ([`super::reader`]) does that resolving once for all of
//! them, so the vocabulary sits below both. The limits are here because the one error enum
//! ([`super::problem::FieldProblem`]) quotes them in its messages.

use std::fmt;

/// The four sides of a cell. `x` grows east, `y` grows south (row 0 is the north edge).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    /// North: `y − 1`.
    N = 0,
    /// East: `x + 1`.
    E = 1,
    /// South: `y + 1`.
    S = 2,
    /// West: `x − 1`.
    W = 3,
}

impl Dir {
    /// All four, in N, E, S, W order.
    pub const ALL: [Dir; 4] = [Dir::N, Dir::E, Dir::S, Dir::W];

    /// The side facing this one.
    pub fn opposite(self) -> Dir {
        match self {
            Dir::N => Dir::S,
            Dir::E => Dir::W,
            Dir::S => Dir::N,
            Dir::W => Dir::E,
        }
    }

    /// "north", "east", ...
    pub fn name(self) -> &'static str {
        match self {
            Dir::N => "north",
            Dir::E => "east",
            Dir::S => "south",
            Dir::W => "west",
        }
    }
}

/// Largest accepted `width` or `height`. The encodings are linear-ish in the number of cells
/// (the eager connectivity encoding is about 230 clauses per cell at 32×32, growing with
/// log₂ cells), and this keeps a typo (`"width": 1e9`) from allocating without bound: 256×256
/// is about 20 million clauses with a connectivity rule.
pub const MAX_SIDE: usize = 256;
/// Largest accepted `max_length × cells` of a path (the layered encoding's variables / 2).
pub const MAX_PATH_LAYERS: usize = 1 << 22;
/// The most cell pairs a `separation` rule may make the export spell out (a binary clause
/// each, `cells · d · (d − 1)` bounding them): 2²⁵, some 400 MB of CNF; `min_distance` 45 on
/// a 64×64 grid is 8.1 million.
pub const MAX_SEPARATION_PAIRS: u64 = 1 << 25;
/// The most clauses a `chokepoints` rule's exact export encoding may take (estimated before
/// encoding; it grows with the square of the region's cells): 2²³, a 16×16 grid's fits, a
/// 24×24 grid's does not. Only the export refuses; the in-process solve needs no such encoding.
pub const MAX_CHOKEPOINT_EXPORT_CLAUSES: u64 = 1 << 23;
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
    /// Every window of `k` consecutive cells of the region: along its rows when `rows` (row by
    /// row, each west to east), then along its columns when `columns` (column by column, each
    /// north to south); each as (first cell, step to the next cell) on a grid `width` wide.
    /// Shared by the runs family (its clauses) and connectivity's decisions (the windows the
    /// class should reach into), which must see the same windows in the same order.
    pub(crate) fn windows(
        &self,
        width: usize,
        k: usize,
        rows: bool,
        columns: bool,
    ) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        if rows && k > 0 && self.w >= k {
            for y in self.y..self.y + self.h {
                for x in self.x..=self.x + self.w - k {
                    out.push((y * width + x, 1));
                }
            }
        }
        if columns && k > 0 && self.h >= k {
            for x in self.x..self.x + self.w {
                for y in self.y..=self.y + self.h - k {
                    out.push((y * width + x, width));
                }
            }
        }
        out
    }

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

impl fmt::Display for RuleRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.summary.is_empty() {
            write!(f, "{}", self.path)
        } else {
            write!(f, "{} ({})", self.path, self.summary)
        }
    }
}

/// A rule whose hard clauses the model tags, so that the clash diagnosis (`clash.rs`) can
/// switch each rule on and off by a literal of its own: the family that encoded it (its
/// `grid.json` field, `NAME` in the family's `rule.rs`) and the family's own number for the
/// rule. Here, not with the model, because each family's `rule.rs` makes its tags and must
/// import nothing that imports the spec. Rules the reader
/// merged into tables (domains, adjacency) are not tagged: their families give the diagnosis
/// their clauses rule by rule (`Family::guarded`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct RuleTag {
    /// The family's name (`Family::name`).
    pub(crate) family: &'static str,
    /// The family's number for the rule (its index in the family's field, as a rule).
    pub(crate) rule: usize,
}

impl RuleTag {
    /// The tag of rule number `rule` of the family named `family`.
    pub(crate) const fn new(family: &'static str, rule: usize) -> RuleTag {
        RuleTag { family, rule }
    }
}
