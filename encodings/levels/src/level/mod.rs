//! [`Level`]: a solved grid, and its text form.
//!
//! # The text form
//! The tile rows first — `height` lines of `width` glyphs, row 0 (north) first — and then,
//! for each layer in file order, an empty line, the layer's name in brackets (`[items]`) and
//! its own `height` rows of value glyphs, the first value ("nothing") drawn with its own glyph
//! like every other. Every line ends in `\n`. A level without layers is its tile rows alone.
//!
//! Why not one picture with items drawn over their tiles (the format before issue 14): an
//! item hid the tile under it and a second layer hid the first, so a printed level could not
//! be checked by eye or read back. Here every cell of every layer is on the page, and since
//! glyphs are unique among the tiles and within each layer, [`Level::from_text`] reads the
//! text back into the same level.

pub(crate) mod problem;

pub use problem::{TextProblem, TextRows};

use crate::error::GridError;
use crate::spec::GridSpec;

/// A level: one tile per cell and one value per cell and layer.
///
/// Why plain indices: the level is what the referee checks and what pictures are drawn from;
/// indices into the spec's `tiles` / `layers[i].values` keep it independent of the encoding.
///
/// ```
/// use grim_levels::{GridSpec, Level};
///
/// let spec = GridSpec::from_json(r##"{
///   "width": 3, "height": 2,
///   "tiles": [{"name": "wall", "glyph": "#"}, {"name": "floor", "glyph": "."}]
/// }"##).unwrap();
/// // Levels come from `solve`; a hand-made one reads from its text form.
/// let level = Level::from_text(&spec, "#.#\n...\n").unwrap();
/// assert_eq!(level.tile(1, 0), Some(1)); // floor, the spec's tile 1
/// assert_eq!(level.tiles, [0, 1, 0, 1, 1, 1]);
/// assert_eq!(level.to_text(&spec), "#.#\n...\n");
/// assert!(grim_levels::check_level(&spec, &level).is_ok());
/// // A glyph the spec does not know is an error naming line and column.
/// let err = Level::from_text(&spec, "#.#\n.x.\n").unwrap_err();
/// assert!(err.to_string().contains("2"), "{err}");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Level {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Tile index per cell, row-major (`y * width + x`).
    pub tiles: Vec<usize>,
    /// Per layer, the value index per cell (row-major).
    pub layers: Vec<Vec<usize>>,
}

impl Level {
    /// The tile at `(x, y)`, if inside.
    pub fn tile(&self, x: usize, y: usize) -> Option<usize> {
        if x < self.width && y < self.height {
            self.tiles.get(y * self.width + x).copied()
        } else {
            None
        }
    }

    /// The number of cells whose tile differs between `self` and `other` (the Hamming distance
    /// of the tile rows; cells past the shorter level count as differing): how far apart
    /// [`solve_distinct`](crate::solve_distinct) keeps its levels.
    pub fn distance_to(&self, other: &Level) -> usize {
        let common = (self.tiles.iter().zip(&other.tiles))
            .filter(|(a, b)| a != b)
            .count();
        common + self.tiles.len().abs_diff(other.tiles.len())
    }

    /// The text form (see the module documentation): the tile rows, then each layer's rows
    /// under its name. Indices outside the spec draw as `?` (a level from elsewhere is
    /// rendered, not rejected — [`check_level`](crate::check_level) is the place to reject it).
    pub fn to_text(&self, spec: &GridSpec) -> String {
        let rows = |glyph: &dyn Fn(usize) -> char| -> String {
            let mut out = String::with_capacity((self.width + 1) * self.height);
            for y in 0..self.height {
                for x in 0..self.width {
                    out.push(glyph(y * self.width + x));
                }
                out.push('\n');
            }
            out
        };
        let mut out = rows(&|c| {
            self.tiles
                .get(c)
                .and_then(|&t| spec.tiles.get(t))
                .map_or('?', |t| t.glyph)
        });
        for (l, layer) in spec.layers.iter().enumerate() {
            out.push('\n');
            out.push('[');
            out.push_str(&layer.name);
            out.push_str("]\n");
            out.push_str(&rows(&|c| {
                self.layers
                    .get(l)
                    .and_then(|values| values.get(c))
                    .and_then(|&v| layer.values.get(v))
                    .map_or('?', |v| v.glyph)
            }));
        }
        out
    }

    /// Reads the text form back (the inverse of [`Level::to_text`] on every level of `spec`).
    /// Errors name the line and column (1-based) and what was expected there.
    pub fn from_text(spec: &GridSpec, text: &str) -> Result<Level, GridError> {
        let lines: Vec<&str> = text.split('\n').collect();
        let bad = |line: usize, column: usize, problem: TextProblem| GridError::BadText {
            line: line + 1,
            column,
            problem,
        };
        let (w, h) = (spec.width, spec.height);
        // Reads `h` rows of `w` glyphs starting at line `at`, each glyph through `index`.
        let read_rows = |at: usize, rows: TextRows, index: &dyn Fn(char) -> Option<usize>| {
            let mut cells = Vec::with_capacity(w * h);
            for y in 0..h {
                let Some(line) = lines.get(at + y) else {
                    return Err(bad(at + y, 1, TextProblem::MissingRow { row: y, rows }));
                };
                let glyphs: Vec<char> = line.chars().collect();
                if glyphs.len() != w {
                    return Err(bad(
                        at + y,
                        glyphs.len().min(w) + 1,
                        TextProblem::RowLength {
                            row: y,
                            rows,
                            glyphs: glyphs.len(),
                            width: w,
                        },
                    ));
                }
                for (x, &g) in glyphs.iter().enumerate() {
                    let Some(i) = index(g) else {
                        return Err(bad(
                            at + y,
                            x + 1,
                            TextProblem::UnknownGlyph { glyph: g, rows },
                        ));
                    };
                    cells.push(i);
                }
            }
            Ok(cells)
        };
        let tiles = read_rows(0, TextRows::Tiles, &|g| {
            spec.tiles.iter().position(|t| t.glyph == g)
        })?;
        let mut at = h;
        let mut layers = Vec::with_capacity(spec.layers.len());
        for layer in &spec.layers {
            if lines.get(at).is_none_or(|l| !l.is_empty()) {
                return Err(bad(at, 1, TextProblem::MissingBlankLine));
            }
            let header = format!("[{}]", layer.name);
            if lines.get(at + 1) != Some(&header.as_str()) {
                return Err(bad(
                    at + 1,
                    1,
                    TextProblem::MissingHeader {
                        layer: layer.name.clone(),
                    },
                ));
            }
            let rows = TextRows::Layer(layer.name.clone());
            let cells = read_rows(at + 2, rows, &|g| {
                layer.values.iter().position(|v| v.glyph == g)
            })?;
            layers.push(cells);
            at += 2 + h;
        }
        // Nothing may follow but the final newline.
        if lines[at..].iter().any(|l| !l.is_empty()) || lines.len() > at + 1 {
            return Err(bad(at, 1, TextProblem::TrailingText));
        }
        Ok(Level {
            width: w,
            height: h,
            tiles,
            layers,
        })
    }
}
