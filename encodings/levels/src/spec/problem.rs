//! What is wrong with `grid.json`, as data: [`FieldProblem`] for a field (with [`Expected`],
//! [`Axis`] and [`AdjacencySource`], what it carries), [`JsonProblem`] for the JSON itself.
//!
//! One enum for every family's field problems rather than one per family: the enum is public
//! and matched on by callers and tests, its `Display` texts are the messages designers read, and
//! a split would rename every variant's path (`grim_levels::FieldProblem::PathTooLong`) and
//! buy nothing a caller can use — a family's problems are already told apart by the field path
//! of [`crate::error::GridError::Invalid`].

use super::vocab::{
    Dir, MAX_CHOKEPOINT_EXPORT_CLAUSES, MAX_PATH_LAYERS, MAX_SEPARATION_PAIRS, MAX_TILES,
};

/// What is wrong with one field of `grid.json` ([`GridError::Invalid`](crate::GridError::Invalid),
/// whose `field` is the path). `Display` writes the sentence after `field: `, quoting the value.
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
    /// A count rule's `min` lies above its `max` once both are rounded to whole cells of the
    /// region (`min` up, `max` down): no count meets both. With `per`, the two fractions
    /// themselves are compared (`cells` is `None`).
    MinAboveMax {
        /// `min` as written.
        min: String,
        /// `max` as written.
        max: String,
        /// The region's cells and the rounded bounds `(cells, min, max)`, when the base is
        /// fixed (no `per`).
        cells: Option<(u64, u64, u64)>,
    },
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
    /// A quarter-turn symmetry over a region that is not square.
    QuarterTurnNeedsSquare {
        /// The region's width.
        width: usize,
        /// Its height.
        height: usize,
    },
    /// A separation rule would spell out more than `MAX_SEPARATION_PAIRS` pairs of cells.
    SeparationTooLarge {
        /// `min_distance` (cut to the grid's diameter).
        distance: u64,
        /// The bound on the pairs it makes, `cells · d · (d − 1)`.
        pairs: u64,
    },
    /// A chokepoint rule's exact export encoding would take more than
    /// [`MAX_CHOKEPOINT_EXPORT_CLAUSES`] clauses (it grows with the square of the cells).
    ChokepointsExportTooLarge {
        /// The estimated clauses.
        clauses: u64,
    },
    /// A chokepoint rule with `loop: true` and a `min` or `max` above 0.
    LoopWithBounds,
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
    /// A separation's `"metric"`: `"manhattan"` or `"walk"` (and `through` only with `"walk"`).
    Metric,
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
    /// A run rule's axis: `"row"`, `"column"` or `"both"`.
    RunAxis,
    /// `true` or `false`.
    Boolean,
    /// A symmetry's kind.
    SymmetryKind,
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
/// Why not just a path: an allow-list forbids the pairs it does *not* name, and a designer looking
/// at the rule would not find the pair written there, so the message says so. And an index, not a
/// path string, keeps [`GridError`](crate::GridError) small enough to return by value (clippy's
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
            Expected::Boolean => write!(f, "true or false"),
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
            Expected::Metric => write!(
                f,
                "\"manhattan\" or \"walk\" (\"through\" goes with \"walk\" only)"
            ),
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
            Expected::RunAxis => write!(f, "\"row\", \"column\" or \"both\""),
            Expected::SymmetryKind => write!(
                f,
                "\"vertical\", \"horizontal\", \"rotate_180\" or \"rotate_90\""
            ),
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
            FieldProblem::MinAboveMax { min, max, cells } => match cells {
                Some((n, lo, hi)) => write!(
                    f,
                    "\"min\" {min} is above \"max\" {max}: of the region's {n} cells, min rounds \
                     up to {lo} and max down to {hi}, so no count meets both"
                ),
                None => write!(
                    f,
                    "\"min\" {min} is above \"max\" {max}: no count meets both"
                ),
            },
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
            FieldProblem::QuarterTurnNeedsSquare { width, height } => write!(
                f,
                "\"rotate_90\" needs a square region; this one is {width}x{height}"
            ),
            FieldProblem::SeparationTooLarge { distance, pairs } => write!(
                f,
                "{distance} on this grid makes up to {pairs} pairs of cells to keep apart; at \
                 most {} are supported (a smaller distance, or a count rule for a sparse \
                 selection)",
                MAX_SEPARATION_PAIRS
            ),
            FieldProblem::ChokepointsExportTooLarge { clauses } => write!(
                f,
                "the exact export of this rule takes about {clauses} clauses, more than the \
                 {} the export allows (it grows with the square of the region's cells): solve \
                 in process (`grim-encode solve`), or export a smaller region",
                MAX_CHOKEPOINT_EXPORT_CLAUSES
            ),
            FieldProblem::LoopWithBounds => write!(
                f,
                "`loop: true` means no articulation cell at all: leave out `min` and `max` \
                 (or set them to 0)"
            ),
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

/// What is wrong with `grid.json` as JSON ([`GridError::Syntax`](crate::GridError::Syntax));
/// `Display` writes serde_json's own words, so messages read as they always have.
///
/// Why a mirror of serde_json's list: serde_json's error code is private and its public
/// [`serde_json::error::Category`] says only "syntax" or "end of input", which loses what a
/// designer needs ("expected `,` or `}`" at the column of a missing comma). The one place the
/// description exists is serde_json's text, so [`JsonProblem::classify`] matches that text against
/// the known descriptions: those of serde_json 1.0's `ErrorCode` that reading a `Value` from a
/// `&str` can produce. Left out: the closing quote or number of a numeric key and a non-finite
/// float key (they come from typed map keys), and "invalid unicode code point" (a `&str` is valid
/// UTF-8, and a bad `\u` escape fails as a surrogate). A test (`tests/grid_errors.rs`) provokes
/// each listed one, so a rewording in serde_json fails it. A description this list does not know (a
/// newer serde_json) is kept as [`JsonProblem::Unclassified`] — the one free text left in
/// [`GridError`](crate::GridError) — not lost.
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
    /// trailing ` at line L column C`, which [`GridError::Syntax`](crate::GridError::Syntax)
    /// carries as numbers) matched against [`JsonProblem::KNOWN`], else [`JsonProblem::Unclassified`].
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
