//! What the referee says about a level: [`Violation`] (a rule, a cell, a [`Finding`]). Apart
//! from the referee's reading so that the error enum can carry a verdict without importing the
//! referee.

use crate::spec::vocab::Dir;
use std::fmt;

/// One broken rule, as the referee found it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// The rule's field path in `grid.json` (`counts[2]`, `adjacency.directional[0]`,
    /// `mask[3]`, `layers[0].values[2].requires`); `level` when the level does not fit the
    /// document at all (wrong size, an index out of range); `document` when the referee could
    /// not read a field (an internal error: validation should have refused it).
    pub rule: String,
    /// The cell `(x, y)` where it shows, when one cell does.
    pub cell: Option<(usize, usize)>,
    /// What was found, with the numbers.
    pub found: Finding,
}

/// What the referee found wrong ([`Violation::found`]); `Display` writes it after the rule
/// and cell.
///
/// Why typed: a test or a tool can ask "was it a connectivity break, and how many cells were
/// cut off?" without parsing the sentence; the numbers are fields. Names are the document's
/// (`tile`, `layer`, `dir` as written there), since the referee reads the document, not the
/// spec's tables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finding {
    /// The referee could not read this field (an internal error: validation should have
    /// refused the document); the rule is `document`.
    Unreadable {
        /// The field, or a description of it (`the top level`, `pins[0] (a cell)`).
        what: String,
    },
    /// The level's size is not the document's (rule `level`).
    LevelSize {
        /// The level's `(width, height)`.
        level: (usize, usize),
        /// The document's `(width, height)`.
        document: (usize, usize),
    },
    /// The level has another number of tiles than cells (rule `level`).
    TileCount {
        /// Tiles in the level.
        tiles: usize,
        /// Cells in the document's grid.
        cells: usize,
    },
    /// A cell holds a tile index the document does not have (rule `level`).
    UnknownTile {
        /// The cell `(x, y)`.
        cell: (usize, usize),
        /// The index it holds.
        tile: usize,
        /// The number of tiles in the document.
        tiles: usize,
    },
    /// The level has another number of layers than the document (rule `level`).
    LayerCount {
        /// Layers in the level.
        layers: usize,
        /// Layers in the document.
        document: usize,
    },
    /// A layer of the level has a wrong length or a value index out of range (rule `level`).
    BadLayer {
        /// The layer's index.
        layer: usize,
        /// Its name.
        name: String,
    },
    /// The cell holds a tile that the rule (mask row, pin, `allowed` entry) excludes.
    Excluded {
        /// The tile's name.
        tile: String,
    },
    /// Two tiles of an `adjacency.forbid` pair touch.
    ForbiddenPair {
        /// The tile at the violation's cell.
        tile: String,
        /// The tile beside it.
        other: String,
        /// The other tile's cell `(x, y)`.
        at: (usize, usize),
    },
    /// Two tiles touch that `adjacency.allow` does not list as a pair.
    UnlistedPair {
        /// The tile at the violation's cell.
        tile: String,
        /// The tile beside it.
        other: String,
        /// The other tile's cell `(x, y)`.
        at: (usize, usize),
    },
    /// A tile sits on the `dir` side of the rule's tile against a directional rule.
    Directional {
        /// The tile beside.
        tile: String,
        /// The side (written as the document writes it: `N`, `E`, `S`, `W`).
        dir: Dir,
        /// The rule's tile, at the violation's cell.
        of: String,
        /// `true`: the rule's allow list does not name `tile`; `false`: its forbid list does.
        allow: bool,
    },
    /// A layer value sits on a tile its `requires` does not allow.
    Requires {
        /// The value as a selection names it: `layer.value`. One string rather than two keeps
        /// [`Violation`] under clippy's `result_large_err` bound (128 bytes).
        value: String,
        /// The tile under it.
        tile: String,
    },
    /// An absolute or region-ratio count is outside its bounds (as cell counts, rounded
    /// inward: `⌈min · base⌉`, `⌊max · base⌋`; saturated at `u64::MAX`, which a validated
    /// document never reaches).
    Count {
        /// Cells counted.
        counted: u64,
        /// Cells in the region.
        base: u64,
        /// The lower bound.
        min: u64,
        /// The upper bound (`None`: none).
        max: Option<u64>,
    },
    /// A count against a `per` selection is outside its ratio bounds.
    Ratio {
        /// Cells of `of` counted.
        counted: u64,
        /// Cells of `per` counted (the base).
        base: u64,
        /// `true`: below the minimum ratio; `false`: above the maximum.
        low: bool,
    },
    /// Fewer class cells are sealed off than an enclosure needs.
    Enclosure {
        /// Class cells sealed off.
        sealed: u64,
        /// Class cells.
        members: usize,
        /// Sealed cells needed (saturated at `u64::MAX`).
        need: u64,
    },
    /// A connectivity root holds a tile outside the class.
    RootOutsideClass {
        /// The tile at the root.
        tile: String,
    },
    /// Some class cells cannot be reached (the violation's cell is one of them).
    Disconnected {
        /// Class cells not reached.
        unreached: usize,
        /// Class cells.
        members: usize,
        /// The root `(x, y)` searched from, or `None` (any: from the first class cell).
        root: Option<(usize, usize)>,
    },
    /// The shortest walk between a path's ends is longer than its `max_length`.
    PathTooLong {
        /// Steps of the shortest walk.
        steps: u64,
        /// `max_length`.
        limit: u64,
    },
    /// No walk connects a path's ends.
    NoWalk,
    /// A door of a `locks` rule's colour can be reached (stood on or beside) without a key of
    /// that colour (the violation's cell is the door).
    DoorBeforeKey {
        /// The colour's index in `colors`.
        color: usize,
    },
    /// A door of a `locks` rule is never entered by the progression (the violation's cell).
    DoorNeverOpens {
        /// The colour's index in `colors`.
        color: usize,
    },
    /// The shortest walk between a path's ends is shorter than its `min_length` (the
    /// violation's cell is the walk's end).
    PathTooShort {
        /// Steps of the shortest walk.
        steps: u64,
        /// `min_length`.
        min: u64,
    },
    /// A run of consecutive cells is longer than a `runs` rule allows (the violation's cell is
    /// its first cell: its west end, or its north end when `vertical`).
    LongRun {
        /// Cells in the run.
        length: u64,
        /// The rule's `max`.
        max: u64,
        /// Along a column (`true`) or a row.
        vertical: bool,
    },
    /// The number of dead ends (class cells with exactly one class neighbour) is outside a
    /// `dead_ends` rule's bounds (the violation's cell: the first dead end, if any).
    DeadEnds {
        /// Dead ends in the level.
        found: u64,
        /// The rule's `min` (0 when absent).
        min: u64,
        /// The rule's `max` (`None`: none).
        max: Option<u64>,
    },
    /// Two cells of a `separation` rule's selection are closer than its `min_distance` (the
    /// violation's cell is the first of the closest pair, row-major).
    TooClose {
        /// The other cell `(x, y)`.
        other: (usize, usize),
        /// Their Manhattan distance.
        distance: u64,
        /// The rule's `min_distance`.
        min: u64,
    },
    /// A cell differs from its image under a `symmetry` rule (the violation's cell is the first
    /// such cell, row-major).
    Asymmetric {
        /// The image `(x, y)`.
        image: (usize, usize),
        /// Cells of the region that differ from their image.
        cells: u64,
    },
    /// An `acyclic` rule's class cells have a cycle (the violation's cell lies on one, or on a
    /// walk between two).
    Cycle {
        /// Independent cycles: edges − cells + pieces of the class graph.
        rank: u64,
    },
    /// The number of articulation cells is outside a `chokepoints` rule's bounds (the
    /// violation's cell: the first articulation cell, if any).
    Chokepoints {
        /// Articulation cells in the level.
        found: u64,
        /// The rule's `min` (0 when absent).
        min: u64,
        /// The rule's `max` (`None`: none).
        max: Option<u64>,
    },
    /// A class cell of a `chokepoints` rule with `loop: true` lies on no cycle of class cells.
    OffLoop,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Finding::Unreadable { what } => write!(
                f,
                "the referee cannot read {what} (validation should have refused it)"
            ),
            Finding::LevelSize {
                level: (lw, lh),
                document: (dw, dh),
            } => write!(f, "the level is {lw}x{lh}, the document {dw}x{dh}"),
            Finding::TileCount { tiles, cells } => write!(f, "{tiles} tiles for {cells} cells"),
            Finding::UnknownTile {
                cell: (x, y),
                tile,
                tiles,
            } => write!(
                f,
                "cell x={x} y={y} holds tile {tile}, the document has {tiles}"
            ),
            Finding::LayerCount { layers, document } => {
                write!(f, "{layers} layers, the document has {document}")
            }
            Finding::BadLayer { layer, name } => write!(
                f,
                "layer {layer} ({name:?}) has a wrong length or a value out of range"
            ),
            Finding::Excluded { tile } => {
                write!(f, "the cell holds {tile:?}, which this rule excludes")
            }
            Finding::ForbiddenPair {
                tile,
                other,
                at: (x, y),
            } => write!(f, "{tile:?} touches {other:?} at x={x} y={y}"),
            Finding::UnlistedPair {
                tile,
                other,
                at: (x, y),
            } => write!(
                f,
                "{tile:?} touches {other:?} at x={x} y={y}, a pair the list does not name"
            ),
            Finding::Directional {
                tile,
                dir,
                of,
                allow,
            } => {
                let why = if *allow {
                    "which its allow list does not name"
                } else {
                    "which its forbid list names"
                };
                let side = match dir {
                    Dir::N => 'N',
                    Dir::E => 'E',
                    Dir::S => 'S',
                    Dir::W => 'W',
                };
                write!(f, "{tile:?} sits on the {side} side of {of:?}, {why}")
            }
            Finding::Requires { value, tile } => {
                write!(f, "{value} sits on {tile:?}, which it does not allow")
            }
            Finding::Count {
                counted,
                base,
                min,
                max,
            } => {
                write!(f, "{counted} of the {base} cells counted, outside [{min}, ")?;
                match max {
                    Some(m) => write!(f, "{m}]"),
                    None => write!(f, "∞]"),
                }
            }
            Finding::Ratio { counted, base, low } => write!(
                f,
                "{counted} counted against {base} of the base: {}",
                if *low {
                    "below the minimum ratio"
                } else {
                    "above the maximum ratio"
                }
            ),
            Finding::Enclosure {
                sealed,
                members,
                need,
            } => write!(
                f,
                "{sealed} of the {members} class cells are sealed off, fewer than {need}"
            ),
            Finding::RootOutsideClass { tile } => {
                write!(f, "the root holds {tile:?}, which is not in the class")
            }
            Finding::Disconnected {
                unreached,
                members,
                root,
            } => {
                write!(
                    f,
                    "{unreached} of the {members} class cells cannot be reached from "
                )?;
                match root {
                    Some((x, y)) => write!(f, "the root x={x} y={y}"),
                    None => write!(f, "the others"),
                }
            }
            Finding::PathTooLong { steps, limit } => write!(
                f,
                "the shortest walk takes {steps} steps, more than {limit}"
            ),
            Finding::NoWalk => write!(f, "no walk connects the ends"),
            Finding::DoorBeforeKey { color } => write!(
                f,
                "a door of colour {color} can be reached without a key of that colour"
            ),
            Finding::DoorNeverOpens { color } => write!(
                f,
                "a door of colour {color} is never entered: the progression gets stuck"
            ),
            Finding::PathTooShort { steps, min } => {
                write!(f, "the shortest walk takes {steps} steps, fewer than {min}")
            }
            Finding::LongRun {
                length,
                max,
                vertical,
            } => write!(
                f,
                "a run of {length} cells along a {}, more than {max}",
                if *vertical { "column" } else { "row" }
            ),
            Finding::Asymmetric {
                image: (x, y),
                cells,
            } => write!(
                f,
                "the cell differs from its image x={x} y={y} ({cells} cells differ)"
            ),
            Finding::TooClose {
                other: (x, y),
                distance,
                min,
            } => write!(f, "x={x} y={y} is {distance} steps away, closer than {min}"),
            Finding::Cycle { rank } => write!(f, "the class has {rank} independent cycles"),
            Finding::Chokepoints { found, min, max } => {
                write!(f, "{found} articulation cells, outside [{min}, ")?;
                match max {
                    Some(m) => write!(f, "{m}]"),
                    None => write!(f, "∞]"),
                }
            }
            Finding::OffLoop => write!(f, "a class cell on no loop of class cells"),
            Finding::DeadEnds { found, min, max } => {
                write!(f, "{found} dead ends, outside [{min}, ")?;
                match max {
                    Some(m) => write!(f, "{m}]"),
                    None => write!(f, "∞]"),
                }
            }
        }
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.cell {
            Some((x, y)) => write!(f, "{} at x={x} y={y}: {}", self.rule, self.found),
            None => write!(f, "{}: {}", self.rule, self.found),
        }
    }
}

impl std::error::Error for Violation {}
