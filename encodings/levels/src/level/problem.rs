//! [`TextProblem`]: what is wrong with a level's text form, as data; apart from [`super::Level`]
//! so that the error enum can carry it without importing the level (which returns that enum).

use std::fmt;

/// What is wrong with a level's text form ([`GridError::BadText`](crate::GridError::BadText), which
/// carries the line and column); `Display` says what was expected there.
///
/// Why typed: a level editor reading a level back can point at the cell and say "unknown
/// glyph" or "row too short" in its own words, and the sentence is written once, here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TextProblem {
    /// The text ends before row `row` of `rows`.
    MissingRow {
        /// The row (0 is north).
        row: usize,
        /// The block it belongs to.
        rows: TextRows,
    },
    /// Row `row` of `rows` has another number of glyphs than the grid has columns (the column
    /// is the first one past the shorter of the two).
    RowLength {
        /// The row (0 is north).
        row: usize,
        /// The block it belongs to.
        rows: TextRows,
        /// Glyphs in the row.
        glyphs: usize,
        /// The grid's width.
        width: usize,
    },
    /// A character that is none of the block's glyphs.
    UnknownGlyph {
        /// The character.
        glyph: char,
        /// The block it appears in.
        rows: TextRows,
    },
    /// A layer's block does not start with an empty line.
    MissingBlankLine,
    /// The line after the empty one is not the next layer's header `[name]`.
    MissingHeader {
        /// The layer expected (file order).
        layer: String,
    },
    /// Something other than the final newline follows the last block.
    TrailingText,
}

/// A block of rows of the text form: the tiles, or one layer's values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TextRows {
    /// The tile rows, first in the text.
    Tiles,
    /// The rows of the layer of this name.
    Layer(String),
}

impl fmt::Display for TextRows {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TextRows::Tiles => write!(f, "tiles"),
            TextRows::Layer(name) => write!(f, "layer {name}"),
        }
    }
}

impl fmt::Display for TextProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TextProblem::MissingRow { row, rows } => write!(f, "expected row {row} of the {rows}"),
            TextProblem::RowLength {
                row,
                rows,
                glyphs,
                width,
            } => write!(
                f,
                "row {row} of the {rows} has {glyphs} glyphs; the grid is {width} wide"
            ),
            TextProblem::UnknownGlyph { glyph, rows } => {
                write!(f, "{glyph:?} is not a glyph of the {rows}")
            }
            TextProblem::MissingBlankLine => write!(f, "expected an empty line before a layer"),
            TextProblem::MissingHeader { layer } => {
                write!(f, "expected the layer header [{layer}]")
            }
            TextProblem::TrailingText => write!(f, "expected the end of the level"),
        }
    }
}
