//! [`Level`]: a solved grid, and its text rendering.

use super::GridSpec;

/// A level: one tile per cell and one value per cell and layer.
///
/// Why plain indices: the level is what the referee checks and what pictures are drawn from;
/// indices into the spec's `tiles` / `layers[i].values` keep it independent of the encoding.
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

    /// Glyph rows, one line per row, each ending in `\n`. A layer value other than the first
    /// (the "nothing" value) draws its glyph over the tile; the last such layer wins. Indices
    /// outside the spec draw as `?` (a level from elsewhere is rendered, not rejected —
    /// [`super::check_level`] is the place to reject it).
    pub fn to_text(&self, spec: &GridSpec) -> String {
        let mut out = String::with_capacity((self.width + 1) * self.height);
        for y in 0..self.height {
            for x in 0..self.width {
                let c = y * self.width + x;
                let mut g = self
                    .tiles
                    .get(c)
                    .and_then(|&t| spec.tiles.get(t))
                    .map_or('?', |t| t.glyph);
                for (l, values) in self.layers.iter().enumerate() {
                    if let Some(&v) = values.get(c)
                        && v != 0
                    {
                        g = spec
                            .layers
                            .get(l)
                            .and_then(|layer| layer.values.get(v))
                            .map_or('?', |x| x.glyph);
                    }
                }
                out.push(g);
            }
            out.push('\n');
        }
        out
    }
}
