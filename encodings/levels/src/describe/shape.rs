//! The per-cell shape measures of a set of cells: runs, local density, dead ends, chamber
//! cores, mirror agreement. Each is one or two row-major scans of the grid (cores: a
//! summed-area table, then a flood fill), so describing a 256 × 256 level stays linear in its
//! cells. The definitions, with their denominators, are in `FORMAT.md` ("Measuring levels:
//! describe"); the items here say how they are computed.

use std::collections::BTreeMap;

use super::blocks::side_neighbour;

/// The maximal runs of consecutive member cells along rows (`vertical == false`) or columns,
/// as a histogram `length → number of runs`.
pub(crate) fn runs(
    width: usize,
    height: usize,
    member: &[bool],
    vertical: bool,
) -> BTreeMap<usize, usize> {
    let is = |x: usize, y: usize| member.get(y * width + x).copied().unwrap_or(false);
    let (lines, along) = if vertical {
        (width, height)
    } else {
        (height, width)
    };
    let mut histogram = BTreeMap::new();
    for line in 0..lines {
        let mut run = 0usize;
        for i in 0..=along {
            let inside = i < along && {
                let (x, y) = if vertical { (line, i) } else { (i, line) };
                is(x, y)
            };
            if inside {
                run += 1;
            } else if run > 0 {
                *histogram.entry(run).or_insert(0) += 1;
                run = 0;
            }
        }
    }
    histogram
}

/// Mean, over the member cells that have at least one 8-neighbour inside the grid, of the
/// share of those 8-neighbours that are members. `None` when no member cell has a neighbour
/// (no member at all, or a 1 × 1 grid).
pub(crate) fn local_density(width: usize, height: usize, member: &[bool]) -> Option<f64> {
    let is = |x: usize, y: usize| member.get(y * width + x).copied().unwrap_or(false);
    let mut sum = 0.0f64;
    let mut counted = 0usize;
    for y in 0..height {
        for x in 0..width {
            if !is(x, y) {
                continue;
            }
            let (mut inside, mut members) = (0u32, 0u32);
            for ny in y.saturating_sub(1)..=(y + 1).min(height - 1) {
                for nx in x.saturating_sub(1)..=(x + 1).min(width - 1) {
                    if (nx, ny) != (x, y) {
                        inside += 1;
                        members += u32::from(is(nx, ny));
                    }
                }
            }
            if inside > 0 {
                sum += f64::from(members) / f64::from(inside);
                counted += 1;
            }
        }
    }
    (counted > 0).then(|| sum / counted as f64)
}

/// Member cells by number of member 4-neighbours: `[0, 1, 2, 3, 4]`. Index 0 is the
/// isolated cells, index 1 the dead ends.
pub(crate) fn degrees(width: usize, height: usize, member: &[bool]) -> [usize; 5] {
    let is = |c: usize| member.get(c).copied().unwrap_or(false);
    let mut out = [0usize; 5];
    for c in 0..width * height {
        if is(c) {
            let d = (0..4)
                .filter_map(|s| side_neighbour(width, height, c, s))
                .filter(|&v| is(v))
                .count();
            out[d] += 1;
        }
    }
    out
}

/// The core cells at clearance `radius`: the cells whose Chebyshev ball of that radius (the
/// `(2r+1) × (2r+1)` square centred on them) lies inside the grid and holds only members.
///
/// A summed-area table gives each square's member count in four lookups, so the cost is one
/// pass over the grid whatever the radius (a direct check is `(2r+1)²` per cell: 81 at r = 4).
pub(crate) fn core(width: usize, height: usize, member: &[bool], radius: usize) -> Vec<bool> {
    let is = |c: usize| member.get(c).copied().unwrap_or(false);
    let stride = width + 1;
    // sums[(y) * stride + x] = members in the rectangle [0, x) × [0, y).
    let mut sums = vec![0u32; stride * (height + 1)];
    for y in 0..height {
        let mut row = 0u32;
        for x in 0..width {
            row += u32::from(is(y * width + x));
            sums[(y + 1) * stride + x + 1] = sums[y * stride + x + 1] + row;
        }
    }
    let side = 2 * radius + 1;
    let full = (side * side) as u32;
    let mut out = vec![false; width * height];
    if side > width || side > height {
        return out;
    }
    for y in radius..height - radius {
        for x in radius..width - radius {
            let (x0, y0, x1, y1) = (x - radius, y - radius, x + radius + 1, y + radius + 1);
            let inside = sums[y1 * stride + x1] + sums[y0 * stride + x0]
                - sums[y0 * stride + x1]
                - sums[y1 * stride + x0];
            out[y * width + x] = inside == full;
        }
    }
    out
}

/// The sizes of the 4-connected regions of the cells with `member`, largest first (a flood
/// fill with an explicit stack).
pub(crate) fn regions(width: usize, height: usize, member: &[bool]) -> Vec<usize> {
    let n = width * height;
    let is = |c: usize| member.get(c).copied().unwrap_or(false);
    let mut seen = vec![false; n];
    let mut sizes = Vec::new();
    let mut stack = Vec::new();
    for start in 0..n {
        if !is(start) || seen[start] {
            continue;
        }
        seen[start] = true;
        stack.push(start);
        let mut size = 0;
        while let Some(c) = stack.pop() {
            size += 1;
            for s in 0..4 {
                if let Some(v) = side_neighbour(width, height, c, s)
                    && is(v)
                    && !seen[v]
                {
                    seen[v] = true;
                    stack.push(v);
                }
            }
        }
        sizes.push(size);
    }
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    sizes
}

/// A symmetry of the grid: where each cell `(x, y)` goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mirror {
    /// Across the vertical axis: `(w−1−x, y)`.
    Vertical,
    /// Across the horizontal axis: `(x, h−1−y)`.
    Horizontal,
    /// Half a turn: `(w−1−x, h−1−y)`.
    Rotation180,
    /// A quarter turn clockwise (square grids): `(w−1−y, x)`.
    Rotation90,
    /// Across the main diagonal (square grids): `(y, x)`.
    Diagonal,
    /// Across the anti-diagonal (square grids): `(w−1−y, w−1−x)`.
    Antidiagonal,
}

impl Mirror {
    /// Whether the symmetry maps the grid onto itself (the last three need a square grid).
    pub(crate) fn applies(self, width: usize, height: usize) -> bool {
        match self {
            Mirror::Vertical | Mirror::Horizontal | Mirror::Rotation180 => true,
            Mirror::Rotation90 | Mirror::Diagonal | Mirror::Antidiagonal => width == height,
        }
    }

    fn image(self, width: usize, height: usize, x: usize, y: usize) -> (usize, usize) {
        match self {
            Mirror::Vertical => (width - 1 - x, y),
            Mirror::Horizontal => (x, height - 1 - y),
            Mirror::Rotation180 => (width - 1 - x, height - 1 - y),
            Mirror::Rotation90 => (width - 1 - y, x),
            Mirror::Diagonal => (y, x),
            Mirror::Antidiagonal => (width - 1 - y, width - 1 - x),
        }
    }
}

/// The share of all cells `c` with `value(c) == value(mirror(c))`; `None` when the symmetry
/// does not apply to the grid's shape or the grid is empty. Cells the symmetry fixes (on the
/// axis) agree with themselves and count.
pub(crate) fn agreement<T: PartialEq>(
    width: usize,
    height: usize,
    mirror: Mirror,
    value: impl Fn(usize) -> T,
) -> Option<f64> {
    if width == 0 || height == 0 || !mirror.applies(width, height) {
        return None;
    }
    let mut agree = 0usize;
    for y in 0..height {
        for x in 0..width {
            let (mx, my) = mirror.image(width, height, x, y);
            agree += usize::from(value(y * width + x) == value(my * width + mx));
        }
    }
    Some(agree as f64 / (width * height) as f64)
}
