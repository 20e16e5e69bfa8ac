//! Regenerating part of a level ("local repair"): keep an existing level's cells outside a
//! region (or wherever a mask says), solve the rest under every rule of the spec.
//!
//! How: the kept cells become pins. [`solve_region`] narrows a copy of the spec — each kept
//! cell's domain to the level's tile there, each kept layer value to a unit — with every kept
//! cell recorded as a rule of its own (`keep (x=3 y=4: wall)`) beside the spec's `mask`, `pins`
//! and `allowed`, and hands that copy to [`solve_within`]. So everything a solve does holds
//! here unchanged: the seed draws the same wishes (the grid has the same size, and the seed
//! draws per cell), soft rules and soft preferences give the optimum among the completions,
//! and when no completion exists the clash diagnosis (`clash.rs`) switches each kept cell on
//! and off like a pin, so the rules it names include the kept cells that clash.
//!
//! Why not a separate search over the region alone: the global rules (counts, connectivity,
//! enclosure, paths) span the whole grid, so the region cannot be solved apart from the cells
//! around it; as pins, the kept cells cost one unit clause per excluded tile and the engine's
//! propagation does the rest (dungeon-32, an 8×8 region: `benches/results/issue38-game-2026-12-06.md`).
//!
//! The referee ([`check_level`](crate::check_level)) reads the document, which knows nothing of
//! what was kept, so the kept cells are checked here, on every level returned.

use crate::error::{GridError, KeepProblem, Rejection};
use crate::level::Level;
use crate::options::GridOptions;
use crate::solve::{ConnectivityStrategy, GridOutcome, ProgressReport, SolveStats, solve_within};
use crate::spec::{GridSpec, Region, RuleRef};
use grim_solver::{Budget, Terminator};

/// What [`solve_region`] keeps: an existing level of the spec and which of its cells stay as
/// they are (tile and every layer value); the others are solved again.
///
/// ```
/// use grim_levels::{Budget, GridOptions, GridSpec, Keep, Region};
///
/// let spec = GridSpec::from_json(r##"{
///   "width": 6, "height": 4,
///   "tiles": [{"name": "wall", "glyph": "#"}, {"name": "floor", "glyph": "."}],
///   "counts": [{"of": "floor", "min": 0.5}],
///   "connectivity": [{"class": "floor"}],
///   "preferences": {"seed": 7}
/// }"##).unwrap();
/// let options = GridOptions::default();
/// let level = grim_levels::solve(&spec, &options, Budget::UNLIMITED).unwrap();
/// let level = level.into_level().unwrap();
/// // Solve the 2x2 square at (2, 1) again, with another seed; every other cell stays.
/// let keep = Keep::outside(&spec, level.clone(), Region { x: 2, y: 1, w: 2, h: 2 }).unwrap();
/// let options = GridOptions { seed: Some(8), ..options };
/// let outcome = grim_levels::solve_region(&spec, &keep, &options, Budget::UNLIMITED).unwrap();
/// let new = outcome.level().unwrap();
/// assert!(grim_levels::check_level(&spec, new).is_ok());
/// assert_eq!(new.tile(0, 0), level.tile(0, 0));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Keep {
    level: Level,
    /// Per cell (row-major), whether it is kept.
    kept: Vec<bool>,
}

impl Keep {
    /// Keeps every cell of `level` outside `region`, the rectangle to regenerate. An error when
    /// the level does not fit `spec` (size, tiles, layers) or the region is empty or reaches
    /// outside the grid.
    pub fn outside(spec: &GridSpec, level: Level, region: Region) -> Result<Keep, GridError> {
        let inside = region.w > 0
            && region.h > 0
            && region
                .x
                .checked_add(region.w)
                .is_some_and(|e| e <= spec.width)
            && region
                .y
                .checked_add(region.h)
                .is_some_and(|e| e <= spec.height);
        if !inside {
            return Err(GridError::BadKeep(KeepProblem::RegionOutside {
                region: (region.x, region.y, region.w, region.h),
                grid: (spec.width, spec.height),
            }));
        }
        let kept = (0..spec.cells())
            .map(|c| !region.contains(c % spec.width, c / spec.width))
            .collect();
        Keep::cells(spec, level, kept)
    }

    /// Keeps the cells of `level` where `kept` (row-major, one entry per cell) is true. An
    /// error when the level or the mask does not fit `spec`.
    pub fn cells(spec: &GridSpec, level: Level, kept: Vec<bool>) -> Result<Keep, GridError> {
        let keep = Keep { level, kept };
        keep.fits(spec)?;
        Ok(keep)
    }

    /// Whether the level and the mask fit `spec`: its size, its tiles, its layers.
    fn fits(&self, spec: &GridSpec) -> Result<(), GridError> {
        let (level, kept) = (&self.level, &self.kept);
        let bad = |p| Err(GridError::BadKeep(p));
        if (level.width, level.height) != (spec.width, spec.height)
            || level.tiles.len() != spec.cells()
        {
            return bad(KeepProblem::LevelSize {
                level: (level.width, level.height),
                grid: (spec.width, spec.height),
            });
        }
        if level.layers.len() != spec.layers.len() {
            return bad(KeepProblem::Layers {
                level: level.layers.len(),
                spec: spec.layers.len(),
            });
        }
        if kept.len() != spec.cells() {
            return bad(KeepProblem::MaskLength {
                mask: kept.len(),
                cells: spec.cells(),
            });
        }
        for c in 0..spec.cells() {
            let layers_fit = level
                .layers
                .iter()
                .zip(&spec.layers)
                .all(|(values, layer)| {
                    values.len() == spec.cells() && values[c] < layer.values.len()
                });
            if level.tiles[c] >= spec.tiles.len() || !layers_fit {
                return bad(KeepProblem::UnknownTile {
                    cell: (c % spec.width, c / spec.width),
                });
            }
        }
        Ok(())
    }

    /// The level whose cells are kept.
    pub fn level(&self) -> &Level {
        &self.level
    }

    /// Per cell (row-major), whether it is kept.
    pub fn kept(&self) -> &[bool] {
        &self.kept
    }

    /// The first kept cell where `level` differs from the kept level (its tile or a layer
    /// value), as `(x, y)`; `None` when `level` keeps every kept cell.
    pub fn changed_cell(&self, level: &Level) -> Option<(usize, usize)> {
        let w = self.level.width;
        (0..self.kept.len())
            .filter(|&c| self.kept[c])
            .find(|&c| {
                level.tiles.get(c) != self.level.tiles.get(c)
                    || (self.level.layers.iter().enumerate())
                        .any(|(l, v)| level.layers.get(l).and_then(|x| x.get(c)) != v.get(c))
            })
            .map(|c| (c % w, c / w))
    }

    /// `spec` with the kept cells pinned, each a rule of its own; or, when a kept tile is one
    /// the spec's own restrictions exclude from its cell, the two rules that clash (the
    /// restriction, then the kept cell) — a spec whose domain runs empty is not encoded.
    fn narrow(&self, spec: &GridSpec) -> Result<GridSpec, Vec<RuleRef>> {
        let mut out = spec.clone();
        out.origins.domains_as_read = Some(spec.domains.clone());
        let w = spec.width;
        for c in (0..spec.cells()).filter(|&c| self.kept[c]) {
            let (x, y) = (c % w, c / w);
            let t = self.level.tiles[c];
            let tile = &spec.tiles[t].name;
            let rule = RuleRef {
                path: "keep".to_string(),
                cell: Some((x, y)),
                summary: format!("x={x} y={y}: {tile}"),
            };
            if !spec.domains[c][t] {
                let by = spec
                    .origins
                    .domain
                    .iter()
                    .find(|(_, cell, set)| *cell == c && !set[t]);
                return Err(by
                    .map(|(r, ..)| r.clone())
                    .into_iter()
                    .chain([rule])
                    .collect());
            }
            let set: Vec<bool> = (0..spec.tiles.len()).map(|a| a == t).collect();
            out.domains[c].clone_from(&set);
            out.origins.domain.push((rule, c, set));
            for (l, layer) in spec.layers.iter().enumerate() {
                let v = self.level.layers[l][c];
                let rule = RuleRef {
                    path: "keep".to_string(),
                    cell: Some((x, y)),
                    summary: format!("x={x} y={y}: {} {}", layer.name, layer.values[v].name),
                };
                out.origins.kept_values.push((rule, l, c, v));
            }
        }
        Ok(out)
    }

    /// Every level `outcome` holds keeps the kept cells, or the internal error naming the
    /// first one changed.
    fn verify(&self, outcome: &GridOutcome) -> Result<(), GridError> {
        let level = match outcome {
            GridOutcome::Level(level) => level,
            GridOutcome::Stopped {
                best: Some(level), ..
            } => level,
            _ => return Ok(()),
        };
        match self.changed_cell(level) {
            Some(cell) => Err(GridError::Rejected(Rejection::KeptCellChanged { cell })),
            None => Ok(()),
        }
    }
}

/// A level for `spec` that keeps the cells `keep` keeps and solves the rest under every rule:
/// [`solve`](fn@crate::solve) with the kept cells pinned (same seed semantics, same outcomes). When no
/// completion exists the outcome is [`GridOutcome::NoLevel`], whose clash names the kept
/// cells involved (`keep (x=3 y=4: wall)`) beside the spec's rules.
pub fn solve_region(
    spec: &GridSpec,
    keep: &Keep,
    options: &GridOptions,
    budget: Budget,
) -> Result<GridOutcome, GridError> {
    let strategy = ConnectivityStrategy::default();
    solve_region_within(spec, keep, options, budget, strategy, None, None).map(|(o, _)| o)
}

/// [`solve_region`] with the strategy, a stop handle and progress reports, as
/// [`solve_within`] takes them.
pub fn solve_region_within(
    spec: &GridSpec,
    keep: &Keep,
    options: &GridOptions,
    budget: Budget,
    strategy: ConnectivityStrategy,
    stop: Option<&Terminator>,
    progress: Option<ProgressReport>,
) -> Result<(GridOutcome, SolveStats), GridError> {
    // (Again: a `Keep` may have been made for another spec.)
    keep.fits(spec)?;
    let pinned = match keep.narrow(spec) {
        Ok(pinned) => pinned,
        Err(clash) => return Ok((GridOutcome::NoLevel { clash }, SolveStats::default())),
    };
    let (outcome, stats) = solve_within(&pinned, options, budget, strategy, stop, progress)?;
    keep.verify(&outcome)?;
    Ok((outcome, stats))
}
