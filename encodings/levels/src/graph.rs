//! The cell graph the search-time parts walk: four neighbours per cell, precomputed, so that
//! the hot loops of connectivity (`families/connectivity/reach.rs`) and paths
//! (`families/paths/propagate.rs`) read a table instead of recomputing coordinates. The
//! spec's own `GridSpec::neighbours` serves the encodings, which run once.

/// The cell graph: four neighbours per cell (`NONE` where the grid ends).
#[derive(Clone, Debug)]
pub(crate) struct Graph {
    nbrs: Vec<[u32; 4]>,
    width: usize,
    height: usize,
}

/// No neighbour on that side: the grid ends.
pub(crate) const NONE: u32 = u32::MAX;

impl Graph {
    /// The 4-neighbour grid of `width × height` cells, row-major.
    pub(crate) fn grid(width: usize, height: usize) -> Graph {
        let mut nbrs = Vec::with_capacity(width * height);
        for y in 0..height {
            for x in 0..width {
                let c = y * width + x;
                let n = |ok: bool, v: usize| if ok { v as u32 } else { NONE };
                nbrs.push([
                    n(y > 0, c.wrapping_sub(width)),
                    n(x + 1 < width, c + 1),
                    n(y + 1 < height, c + width),
                    n(x > 0, c.wrapping_sub(1)),
                ]);
            }
        }
        Graph {
            nbrs,
            width,
            height,
        }
    }

    /// Whether taking cell `c` out cannot disconnect anything: its open 4-neighbours (those
    /// `open` says are not out) all lie on one run of open cells of the ring of 8 cells around
    /// it, so every walk through `c` can go around it instead (a *simple point* of digital
    /// topology, for 4-connectivity). Cells beyond the grid count as closed. O(1).
    pub(crate) fn locally_simple(&self, c: usize, open: &dyn Fn(usize) -> bool) -> bool {
        let (w, h) = (self.width as isize, self.height as isize);
        let (x, y) = ((c % self.width) as isize, (c / self.width) as isize);
        let mut is_open = [false; 8];
        for (k, (dx, dy)) in RING.iter().enumerate() {
            let (nx, ny) = (x + dx, y + dy);
            is_open[k] = nx >= 0 && ny >= 0 && nx < w && ny < h && open((ny * w + nx) as usize);
        }
        // Count the runs of open ring cells that hold a 4-neighbour.
        let Some(start) = (0..8).find(|&k| !is_open[k]) else {
            return true; // the whole ring is open
        };
        let mut runs_with_side = 0;
        let mut in_run_side = false;
        for step in 1..=8 {
            let k = (start + step) % 8;
            if is_open[k] {
                in_run_side |= k % 2 == 0;
            } else {
                runs_with_side += in_run_side as u32;
                in_run_side = false;
            }
        }
        runs_with_side <= 1
    }

    /// Columns.
    pub(crate) fn width(&self) -> usize {
        self.width
    }

    /// Rows.
    pub(crate) fn height(&self) -> usize {
        self.height
    }

    /// The neighbours of `c` on the N, E, S and W sides, [`NONE`] where the grid ends.
    #[inline]
    pub(crate) fn sides(&self, c: usize) -> [u32; 4] {
        self.nbrs[c]
    }

    /// Number of cells.
    pub(crate) fn len(&self) -> usize {
        self.nbrs.len()
    }

    /// The neighbours of `c`.
    #[inline]
    pub(crate) fn around(&self, c: usize) -> impl Iterator<Item = usize> + '_ {
        self.nbrs[c]
            .iter()
            .filter(|&&n| n != NONE)
            .map(|&n| n as usize)
    }
}

/// The ring of 8 cells around a cell, clockwise from north: even positions are the
/// 4-neighbours (N, E, S, W, the order of [`around`]), odd ones the diagonals.
pub(crate) const RING: [(isize, isize); 8] = [
    (0, -1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
];

/// The 4-neighbours of `c` on a `w`×`h` grid, N, E, S, W — for a search part that keeps the
/// grid's size but no [`Graph`] (the acyclic family's forest, the locks' walks).
pub(crate) fn around(w: usize, h: usize, c: usize) -> impl Iterator<Item = usize> + use<> {
    let (x, y) = (c % w, c / w);
    [
        (y > 0).then(|| c - w),
        (x + 1 < w).then(|| c + 1),
        (y + 1 < h).then(|| c + w),
        (x > 0).then(|| c - 1),
    ]
    .into_iter()
    .flatten()
}
