//! [`describe`]: a level measured — the vocabulary of inspectable structure a designer asks
//! for ("more loops, fewer dead ends", "bigger chambers"), counted on a finished [`Level`].
//!
//! Every measure is taken **per set of tiles**: each tile of the spec, then each class (the
//! names in the tiles' `classes`), because a designer thinks in both ("floor", and
//! "passable" = floor, door and grass). A set's cells are the cells holding one of its tiles;
//! its **class graph** joins every two 4-neighbours that both belong to it (the grid's own
//! neighbourhood, as in every rule of `FORMAT.md`). Per set ([`SetDescription`]): cell count
//! and open fraction, local density (8-neighbours), horizontal and vertical run lengths,
//! components with sizes, edges and cycle rank, bridges, articulation cells and biconnected
//! blocks (one linear-time search: `blocks.rs`), dead ends and isolated cells, chamber cores at
//! clearance radii 2, 3 and 4, and mirror agreement per symmetry. For the level as a whole:
//! the tiles' mirror agreement, per layer the count of each value, and per rule the quantity
//! it bounds where no set measure is it: a path's shortest walk (`walks.rs`), a separation's
//! closest pair and a lock rule's progression (`apart.rs`).
//!
//! The vocabulary follows the level-structure analysis issue 39 cites (open fraction, local
//! density, run lengths, components, bridges, articulation cells, blocks, cycle rank, chamber
//! cores, dead ends, symmetry); the exact definitions and denominators chosen here are in
//! `FORMAT.md`, section "Measuring levels: describe". Expressive-range analysis (Smith &
//! Whitehead, "Analyzing the expressive range of a level generator", PCGames 2010,
//! doi:10.1145/1814256.1814260) plots two such measures over many seeds: [`crate::range`].
//!
//! Deterministic: the same spec and level give the same [`Description`], field for field and
//! (through serde_json) byte for byte — lists are in fixed orders, histograms are
//! `BTreeMap`s, floating sums run row-major.

mod apart;
mod blocks;
mod shape;
mod walks;

pub use apart::LockDescription;
pub use blocks::{Blocks, blocks};

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use crate::level::Level;
use crate::spec::GridSpec;
use shape::Mirror;

/// The clearance radii at which chamber cores are measured. 2 is the smallest room worth the
/// name (a 5 × 5 open square around the core cell); 4 (9 × 9) is about the largest room a
/// 32 × 32 dungeon holds; both ends and the middle are reported.
pub const CORE_RADII: [usize; 3] = [2, 3, 4];

/// A level measured: see the [module](self) documentation and `FORMAT.md`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Description {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// `width × height`: the denominator of every "share of cells".
    pub cells: usize,
    /// Mirror agreement of the tiles: the share of cells holding the same tile as their image.
    pub symmetry: Symmetry,
    /// Per tile (file order), then per class (order of first mention in `tiles[].classes`).
    pub sets: Vec<SetDescription>,
    /// Per layer (file order), the count of each value.
    pub layers: Vec<LayerCounts>,
    /// Per `paths` rule (file order), the steps of the shortest walk between its ends, as the
    /// rule defines a walk (`None`: no walk) — what `min_length` and `max_length` bound.
    pub paths: Vec<Option<usize>>,
    /// Per `separation` rule (file order), the distance between its two closest cells in the
    /// rule's metric (`None`: fewer than two, or no walk joins any two) — what `min_distance`
    /// bounds.
    pub separation: Vec<Option<usize>>,
    /// Per `locks` rule (file order), the progression: rounds, the round each colour opens in,
    /// doors reached of all doors, gated colours — what the rule requires.
    pub locks: Vec<LockDescription>,
}

/// Whether a [`SetDescription`] is about one tile or a class of tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SetKind {
    /// One tile of the spec.
    Tile,
    /// A class: every tile naming it in `classes`.
    Class,
}

/// The measures of one set of tiles (a tile, or a class) in a level.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SetDescription {
    /// The tile's or class's name.
    pub name: String,
    /// Tile or class.
    pub kind: SetKind,
    /// The tiles of the set, in file order.
    pub tiles: Vec<String>,
    /// Cells holding one of the tiles.
    pub cells: usize,
    /// `cells / (width × height)`; 0 on an empty grid.
    pub open_fraction: f64,
    /// Mean, over the set's cells with at least one 8-neighbour in the grid, of the share of
    /// those 8-neighbours in the set; `None` when no such cell exists.
    pub local_density: Option<f64>,
    /// Maximal runs of set cells along each row.
    pub horizontal_runs: Runs,
    /// Maximal runs of set cells along each column.
    pub vertical_runs: Runs,
    /// Sizes (cells) of the 4-connected components, largest first.
    pub components: Vec<usize>,
    /// Edges of the class graph: 4-neighbour pairs of set cells.
    pub edges: usize,
    /// `edges − cells + components`: the number of independent cycles (0 for a forest).
    pub cycle_rank: usize,
    /// Edges of the class graph whose removal leaves one more component.
    pub bridges: usize,
    /// Set cells whose removal leaves more components.
    pub articulation_cells: usize,
    /// Sizes (cells) of the biconnected blocks, largest first; a bridge is a block of two
    /// cells, an isolated cell a block of one.
    pub blocks: Vec<usize>,
    /// Set cells with exactly one 4-neighbour in the set.
    pub dead_ends: usize,
    /// Set cells with no 4-neighbour in the set.
    pub isolated_cells: usize,
    /// Chamber cores, one per radius of [`CORE_RADII`].
    pub cores: Vec<Core>,
    /// Mirror agreement of membership: the share of cells whose membership equals their
    /// image's.
    pub symmetry: Symmetry,
}

/// Run lengths along rows or columns: a run is a maximal sequence of consecutive set cells.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Runs {
    /// Number of runs.
    pub count: usize,
    /// Mean length (set cells / runs); `None` without runs.
    pub mean: Option<f64>,
    /// Longest run (0 without runs).
    pub max: usize,
    /// Length → number of runs of that length.
    pub histogram: BTreeMap<usize, usize>,
}

/// The chamber cores of a set at one clearance radius `r`: the set cells whose
/// `(2r+1) × (2r+1)` square (Chebyshev ball of radius `r`) lies inside the grid and in the set.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Core {
    /// The clearance radius.
    pub radius: usize,
    /// Core cells.
    pub cells: usize,
    /// Sizes (cells) of the 4-connected regions of core cells — the chambers at this
    /// clearance — largest first.
    pub regions: Vec<usize>,
}

/// Mirror agreement: per symmetry of the grid, the share of all cells whose value (tile, or
/// membership) equals the value at their image. Cells on an axis agree with themselves. The
/// last three apply to square grids only (`None` otherwise).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Symmetry {
    /// Across the vertical axis, `(x, y) ↔ (w−1−x, y)`: left-right mirror.
    pub vertical: Option<f64>,
    /// Across the horizontal axis, `(x, y) ↔ (x, h−1−y)`: top-bottom mirror.
    pub horizontal: Option<f64>,
    /// Half a turn, `(x, y) → (w−1−x, h−1−y)`.
    pub rotation_180: Option<f64>,
    /// A quarter turn, `(x, y) → (w−1−y, x)` (the other direction gives the same share).
    pub rotation_90: Option<f64>,
    /// Across the main diagonal, `(x, y) ↔ (y, x)`.
    pub diagonal: Option<f64>,
    /// Across the anti-diagonal, `(x, y) ↔ (w−1−y, w−1−x)`.
    pub antidiagonal: Option<f64>,
}

/// The values of one layer, counted.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LayerCounts {
    /// The layer's name.
    pub name: String,
    /// Per value, in file order (the first is "nothing").
    pub values: Vec<ValueCount>,
}

/// How many cells hold one layer value.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ValueCount {
    /// The value's name.
    pub name: String,
    /// Cells holding it.
    pub count: usize,
}

/// The sets [`describe`] measures: each tile (file order), then each class in the order of
/// its first mention in `tiles[].classes`, with the tile flags of each.
fn sets(spec: &GridSpec) -> Vec<(String, SetKind, Vec<bool>)> {
    let n = spec.tiles.len();
    let mut out: Vec<(String, SetKind, Vec<bool>)> = spec
        .tiles
        .iter()
        .enumerate()
        .map(|(t, tile)| {
            let mut flags = vec![false; n];
            flags[t] = true;
            (tile.name.clone(), SetKind::Tile, flags)
        })
        .collect();
    for (t, tile) in spec.tiles.iter().enumerate() {
        for class in &tile.classes {
            let found = out
                .iter_mut()
                .find(|(name, kind, _)| *kind == SetKind::Class && name == class);
            match found {
                Some((_, _, flags)) => flags[t] = true,
                None => {
                    let mut flags = vec![false; n];
                    flags[t] = true;
                    out.push((class.clone(), SetKind::Class, flags));
                }
            }
        }
    }
    out
}

fn share(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

fn symmetry<T: PartialEq>(width: usize, height: usize, value: impl Fn(usize) -> T) -> Symmetry {
    let a = |m| shape::agreement(width, height, m, &value);
    Symmetry {
        vertical: a(Mirror::Vertical),
        horizontal: a(Mirror::Horizontal),
        rotation_180: a(Mirror::Rotation180),
        rotation_90: a(Mirror::Rotation90),
        diagonal: a(Mirror::Diagonal),
        antidiagonal: a(Mirror::Antidiagonal),
    }
}

fn runs_of(histogram: BTreeMap<usize, usize>) -> Runs {
    let count = histogram.values().sum();
    let cells: usize = histogram.iter().map(|(len, n)| len * n).sum();
    Runs {
        count,
        mean: (count > 0).then(|| cells as f64 / count as f64),
        max: histogram.keys().next_back().copied().unwrap_or(0),
        histogram,
    }
}

fn largest_first(mut sizes: Vec<usize>) -> Vec<usize> {
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    sizes
}

/// Measures `level` with the tiles, classes and layers of `spec` (see the [module](self)
/// documentation; every definition is in `FORMAT.md`, "Measuring levels: describe").
///
/// Total: the grid is the level's own `width × height`; a cell whose tile index is outside
/// `spec.tiles` (or missing from a short `level.tiles`) belongs to no set, and a layer value
/// outside the spec's list is counted under no value. `O(cells × sets)`.
pub fn describe(spec: &GridSpec, level: &Level) -> Description {
    let (w, h) = (level.width, level.height);
    let n = w.saturating_mul(h);
    let tile_at = |c: usize| level.tiles.get(c).copied();
    let sets = sets(spec)
        .into_iter()
        .map(|(name, kind, flags)| {
            let member: Vec<bool> = (0..n)
                .map(|c| tile_at(c).and_then(|t| flags.get(t).copied()) == Some(true))
                .collect();
            describe_set(spec, w, h, name, kind, &flags, &member)
        })
        .collect();
    let layers = spec
        .layers
        .iter()
        .enumerate()
        .map(|(l, layer)| {
            let mut counts = vec![0usize; layer.values.len()];
            if let Some(values) = level.layers.get(l) {
                for &v in values.iter().take(n) {
                    if let Some(count) = counts.get_mut(v) {
                        *count += 1;
                    }
                }
            }
            LayerCounts {
                name: layer.name.clone(),
                values: layer
                    .values
                    .iter()
                    .zip(counts)
                    .map(|(value, count)| ValueCount {
                        name: value.name.clone(),
                        count,
                    })
                    .collect(),
            }
        })
        .collect();
    Description {
        width: w,
        height: h,
        cells: n,
        symmetry: symmetry(w, h, tile_at),
        sets,
        layers,
        paths: walks::shortest_walks(spec, level),
        separation: apart::closest_pairs(spec, level),
        locks: apart::progressions(spec, level),
    }
}

fn describe_set(
    spec: &GridSpec,
    w: usize,
    h: usize,
    name: String,
    kind: SetKind,
    flags: &[bool],
    member: &[bool],
) -> SetDescription {
    let n = w * h;
    let cells = member.iter().filter(|&&m| m).count();
    let graph = blocks(w, h, member);
    let degrees = shape::degrees(w, h, member);
    let cores = CORE_RADII
        .iter()
        .map(|&radius| {
            let core = shape::core(w, h, member, radius);
            Core {
                radius,
                cells: core.iter().filter(|&&c| c).count(),
                regions: shape::regions(w, h, &core),
            }
        })
        .collect();
    SetDescription {
        name,
        kind,
        tiles: spec
            .tiles
            .iter()
            .zip(flags)
            .filter(|(_, in_set)| **in_set)
            .map(|(t, _)| t.name.clone())
            .collect(),
        cells,
        open_fraction: share(cells, n),
        local_density: shape::local_density(w, h, member),
        horizontal_runs: runs_of(shape::runs(w, h, member, false)),
        vertical_runs: runs_of(shape::runs(w, h, member, true)),
        // edges + components ≥ cells in every graph (a spanning forest has cells −
        // components edges), so the subtraction cannot wrap.
        cycle_rank: (graph.edges + graph.components.len()).saturating_sub(cells),
        components: largest_first(graph.components),
        edges: graph.edges,
        bridges: graph.bridges.len(),
        articulation_cells: graph.articulation.len(),
        blocks: largest_first(graph.blocks.iter().map(Vec::len).collect()),
        dead_ends: degrees[1],
        isolated_cells: degrees[0],
        cores,
        symmetry: symmetry(w, h, |c| member.get(c).copied().unwrap_or(false)),
    }
}

/// One scalar of a [`Description`]: its name (see [`Description::scalars`]) and its value
/// (`None` where undefined: a mean over nothing, a symmetry of another grid shape).
#[derive(Clone, Debug, PartialEq)]
pub struct Scalar {
    /// `metric` for the level as a whole, `set.metric` for a tile or class, `layer.value.count`
    /// for a layer value.
    pub name: String,
    /// The value; counts are whole numbers.
    pub value: Option<f64>,
}

/// The per-set scalars: (name suffix, label in the text table, value).
fn set_scalars(s: &SetDescription) -> Vec<(String, String, Option<f64>)> {
    let count = |v: usize| Some(v as f64);
    let mut out: Vec<(String, String, Option<f64>)> = Vec::new();
    let mut push = |name: &str, label: &str, value: Option<f64>| {
        out.push((name.to_string(), label.to_string(), value));
    };
    push("cells", "cells", count(s.cells));
    push("open_fraction", "open fraction", Some(s.open_fraction));
    push("local_density", "local density (8-nbr)", s.local_density);
    for (prefix, label, runs) in [
        ("h", "horizontal", &s.horizontal_runs),
        ("v", "vertical", &s.vertical_runs),
    ] {
        push(
            &format!("{prefix}_runs"),
            &format!("{label} runs"),
            count(runs.count),
        );
        push(&format!("{prefix}_run_mean"), "  mean length", runs.mean);
        push(&format!("{prefix}_run_max"), "  longest", count(runs.max));
    }
    push("components", "components", count(s.components.len()));
    push(
        "largest_component",
        "  largest (cells)",
        count(s.components.first().copied().unwrap_or(0)),
    );
    push("edges", "edges (4-nbr pairs)", count(s.edges));
    push("cycle_rank", "cycle rank", count(s.cycle_rank));
    push("bridges", "bridges", count(s.bridges));
    push(
        "articulation_cells",
        "articulation cells",
        count(s.articulation_cells),
    );
    push("blocks", "blocks", count(s.blocks.len()));
    push(
        "cyclic_blocks",
        "  with a cycle (>= 3 cells)",
        count(s.blocks.iter().filter(|&&b| b >= 3).count()),
    );
    push(
        "largest_block",
        "  largest (cells)",
        count(s.blocks.first().copied().unwrap_or(0)),
    );
    push("dead_ends", "dead ends", count(s.dead_ends));
    push("isolated_cells", "isolated cells", count(s.isolated_cells));
    for core in &s.cores {
        let r = core.radius;
        push(
            &format!("core{r}_cells"),
            &format!("core r={r}: cells"),
            count(core.cells),
        );
        push(
            &format!("core{r}_regions"),
            "  chambers",
            count(core.regions.len()),
        );
        push(
            &format!("core{r}_largest"),
            "  largest (cells)",
            count(core.regions.first().copied().unwrap_or(0)),
        );
    }
    for (name, label, value) in symmetry_scalars(&s.symmetry) {
        push(&name, &label, value);
    }
    out
}

fn symmetry_scalars(s: &Symmetry) -> [(String, String, Option<f64>); 6] {
    [
        ("vertical", "mirror |", s.vertical),
        ("horizontal", "mirror -", s.horizontal),
        ("rotation_180", "rotation 180", s.rotation_180),
        ("rotation_90", "rotation 90", s.rotation_90),
        ("diagonal", "mirror \\", s.diagonal),
        ("antidiagonal", "mirror /", s.antidiagonal),
    ]
    .map(|(name, label, value)| {
        (
            format!("symmetry_{name}"),
            format!("symmetry: {label}"),
            value,
        )
    })
}

impl Description {
    /// Every scalar measure, flattened, in a fixed order: the tiles' mirror agreements
    /// (`symmetry_vertical`, ...), then per set `set.metric` (`floor.dead_ends`,
    /// `passable.core2_regions`, ...), then per layer value `layer.value.count`. The names
    /// depend on the spec only (never on the level), so the descriptions of one spec's
    /// levels give the same columns; they cannot collide, since tile, class and layer names
    /// contain no `.`. Lists (component sizes, histograms) are summarised: count, largest,
    /// mean.
    pub fn scalars(&self) -> Vec<Scalar> {
        let mut out: Vec<Scalar> = symmetry_scalars(&self.symmetry)
            .into_iter()
            .map(|(name, _, value)| Scalar { name, value })
            .collect();
        for set in &self.sets {
            for (name, _, value) in set_scalars(set) {
                out.push(Scalar {
                    name: format!("{}.{name}", set.name),
                    value,
                });
            }
        }
        for layer in &self.layers {
            for value in &layer.values {
                out.push(Scalar {
                    name: format!("{}.{}.count", layer.name, value.name),
                    value: Some(value.count as f64),
                });
            }
        }
        for (i, steps) in self.paths.iter().enumerate() {
            out.push(Scalar {
                name: format!("paths[{i}].shortest_walk"),
                value: steps.map(|s| s as f64),
            });
        }
        for (i, d) in self.separation.iter().enumerate() {
            out.push(Scalar {
                name: format!("separation[{i}].closest"),
                value: d.map(|d| d as f64),
            });
        }
        for (i, l) in self.locks.iter().enumerate() {
            let gated = l.gated.iter().filter(|&&g| g).count();
            let opened = l.opened_in.iter().filter(|r| r.is_some()).count();
            for (name, value) in [
                ("rounds", l.rounds),
                ("colors_opened", opened),
                ("colors_gated", gated),
                ("doors", l.doors),
                ("doors_reached", l.doors_reached),
            ] {
                out.push(Scalar {
                    name: format!("locks[{i}].{name}"),
                    value: Some(value as f64),
                });
            }
        }
        out
    }

    /// The description as pretty-printed JSON (serde), ending in a newline: every field of
    /// [`Description`], histograms as objects keyed by run length, undefined values as `null`.
    pub fn to_json(&self) -> String {
        // Serialising these types cannot fail: every map key is an integer (written as a
        // string) and every value a number, string, list or struct.
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        text
    }

    /// The short text table `grim-encode describe` prints: one row per measure, one column
    /// per tile and class, then the tiles' symmetry and the layer counts. Counts print whole,
    /// shares and means with three decimals, undefined values as `-`.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{}x{} level, {} cells; per tile and class (FORMAT.md, \"Measuring levels\"):",
            self.width, self.height, self.cells
        );
        let columns: Vec<Vec<(String, String, Option<f64>)>> =
            self.sets.iter().map(set_scalars).collect();
        let labels: Vec<&str> = columns
            .first()
            .map(|c| c.iter().map(|(_, label, _)| label.as_str()).collect())
            .unwrap_or_default();
        let label_width = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0);
        let widths: Vec<usize> = self
            .sets
            .iter()
            .map(|s| s.name.chars().count().max(7))
            .collect();
        let _ = write!(out, "{:label_width$}", "");
        for (set, width) in self.sets.iter().zip(&widths) {
            let _ = write!(out, "  {:>width$}", set.name);
        }
        out.push('\n');
        for (row, label) in labels.iter().enumerate() {
            let _ = write!(out, "{label:label_width$}");
            for (column, width) in columns.iter().zip(&widths) {
                let value = column
                    .get(row)
                    .and_then(|(name, _, v)| v.map(|v| (name, v)));
                let text = match value {
                    None => "-".to_string(),
                    Some((name, v)) => format_value(name, v),
                };
                let _ = write!(out, "  {text:>width$}");
            }
            out.push('\n');
        }
        let tiles: Vec<String> = symmetry_scalars(&self.symmetry)
            .into_iter()
            .filter_map(|(name, _, v)| {
                v.map(|v| format!("{} {v:.3}", name.trim_start_matches("symmetry_")))
            })
            .collect();
        let _ = writeln!(out, "tile symmetry: {}", tiles.join(", "));
        for layer in &self.layers {
            let values: Vec<String> = layer
                .values
                .iter()
                .map(|v| format!("{} {}", v.name, v.count))
                .collect();
            let _ = writeln!(out, "layer {}: {}", layer.name, values.join(", "));
        }
        for (i, steps) in self.paths.iter().enumerate() {
            let text = steps.map_or("no walk".to_string(), |s| format!("{s} steps"));
            let _ = writeln!(out, "paths[{i}]: shortest walk {text}");
        }
        for (i, d) in self.separation.iter().enumerate() {
            let text = d.map_or("none (fewer than two, or no walk)".to_string(), |d| {
                format!("{d} apart")
            });
            let _ = writeln!(out, "separation[{i}]: the closest two {text}");
        }
        for (i, l) in self.locks.iter().enumerate() {
            let colors: Vec<String> = l
                .opened_in
                .iter()
                .zip(&l.gated)
                .enumerate()
                .map(|(c, (round, gated))| {
                    let round =
                        round.map_or("never opens".to_string(), |r| format!("opens in round {r}"));
                    let gate = if *gated { "gated" } else { "NOT gated" };
                    format!("colour {c} {round}, {gate}")
                })
                .collect();
            let _ = writeln!(
                out,
                "locks[{i}]: rounds {}, doors reached {} of {}; {}",
                l.rounds,
                l.doors_reached,
                l.doors,
                colors.join("; ")
            );
        }
        out
    }
}

/// A scalar as the text table and the CSV print it: shares and means with three decimals in
/// the table, counts whole.
fn format_value(name: &str, v: f64) -> String {
    let fractional = name.contains("fraction")
        || name.contains("density")
        || name.contains("mean")
        || name.starts_with("symmetry");
    if fractional {
        format!("{v:.3}")
    } else {
        format!("{v}")
    }
}

/// The scalar names [`Description::scalars`] gives for every level of `spec`, in order: what
/// a `--x`/`--y` metric or a CSV column may be. Computed by describing a blank level (every
/// cell the first tile and the first layer values), so the list cannot drift from `scalars`.
pub fn scalar_names(spec: &GridSpec) -> Vec<String> {
    let cells = spec.cells();
    let blank = Level {
        width: spec.width,
        height: spec.height,
        tiles: vec![0; cells],
        layers: vec![vec![0; cells]; spec.layers.len()],
    };
    describe(spec, &blank)
        .scalars()
        .into_iter()
        .map(|s| s.name)
        .collect()
}
