//! Expressive range: many levels of one spec described ([`crate::describe()`]) and set side by
//! side — a CSV with one row per level, and an SVG picture of two chosen measures against each
//! other (Smith & Whitehead, "Analyzing the expressive range of a level generator", PCGames
//! 2010, doi:10.1145/1814256.1814260): a density heatmap of the levels over the two axes, each
//! level as a dot, and thumbnails of the levels at the extremes of either axis.
//!
//! Why: variety that has not been measured over seeds cannot be trusted, and two generators
//! (grimoire's solve, another solver's decoded output) can only be compared on the same axes.
//! This module does the bookkeeping and the drawing, and nothing else: who produces the levels
//! (solving seeds, reading files) and how long it took is the caller's (`grim-encode range`
//! is one), so the same picture serves any generator.
//!
//! Memory: a row keeps its scalar measures (a few hundred numbers), not its level; only the
//! (at most four) levels at the current extremes are kept, so a range over thousands of
//! 256 × 256 levels stays small. Deterministic: the same levels added in the same order give
//! the same CSV and SVG bytes (ties between extremes go to the first level added; numbers are
//! printed with Rust's shortest round-trip formatting or a fixed number of decimals).

use std::fmt::{self, Write as _};

use crate::describe::{describe, scalar_names};
use crate::level::Level;
use crate::spec::GridSpec;
use crate::svg::{escape, render};

/// A measure chosen as an axis: one of [`scalar_names`]. Made by [`Metric::named`], so a
/// [`Range`] never meets a name it cannot plot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Metric {
    name: String,
    index: usize,
}

impl Metric {
    /// The metric of this name for `spec`'s levels, or `None` when the spec has no such
    /// scalar (the caller shows [`scalar_names`]).
    pub fn named(spec: &GridSpec, name: &str) -> Option<Metric> {
        scalar_names(spec)
            .iter()
            .position(|n| n == name)
            .map(|index| Metric {
                name: name.to_string(),
                index,
            })
    }

    /// The name, as in [`crate::describe::Description::scalars`].
    pub fn name(&self) -> &str {
        &self.name
    }
}

/// The set the default axes measure: the class of the first connectivity rule (what the
/// designer asked to hold together), else of the first enclosure rule, else the first path's
/// `through`, else the first class, else the first tile — as the name of the tile or class
/// with exactly those tiles (tiles first), or the first tile when none matches.
pub fn main_set(spec: &GridSpec) -> String {
    let wanted = spec
        .connectivity
        .first()
        .map(|r| r.class.clone())
        .or_else(|| spec.enclosure.first().map(|r| r.class.clone()))
        .or_else(|| spec.paths.first().map(|r| r.through.clone()));
    let tile_set = |t: usize| -> Vec<bool> { (0..spec.tiles.len()).map(|i| i == t).collect() };
    let class_set = |class: &str| -> Vec<bool> {
        spec.tiles
            .iter()
            .map(|t| t.classes.iter().any(|c| c == class))
            .collect()
    };
    let classes: Vec<&str> = {
        let mut seen: Vec<&str> = Vec::new();
        for c in spec.tiles.iter().flat_map(|t| &t.classes) {
            if !seen.contains(&c.as_str()) {
                seen.push(c);
            }
        }
        seen
    };
    let first_tile = spec
        .tiles
        .first()
        .map(|t| t.name.clone())
        .unwrap_or_default();
    let Some(wanted) = wanted else {
        return classes.first().map_or(first_tile, |c| (*c).to_string());
    };
    if let Some(t) = (0..spec.tiles.len()).find(|&t| tile_set(t) == wanted) {
        return spec.tiles[t].name.clone();
    }
    classes
        .iter()
        .find(|c| class_set(c) == wanted)
        .map_or(first_tile, |c| (*c).to_string())
}

/// The default axes: [`main_set`]'s open fraction (x) and its dead ends (y) — how much of the
/// map the set takes, against how much of it leads nowhere.
pub fn default_axes(spec: &GridSpec) -> (String, String) {
    let set = main_set(spec);
    (format!("{set}.open_fraction"), format!("{set}.dead_ends"))
}

/// What a row is: a seed the spec was solved with, or a level read from a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Label {
    /// The seed of the preferences.
    Seed(u64),
    /// A level file (its path as the user gave it).
    File(String),
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Label::Seed(s) => write!(f, "seed {s}"),
            Label::File(name) => write!(f, "{name}"),
        }
    }
}

/// How a row's level came about (the CSV's `status` column).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowStatus {
    /// `level`: solved; a proven optimum when something is soft.
    Level,
    /// `best`: the budget stopped a soft solve with a level in hand, not proven least.
    Best,
    /// `no-level`: the hard rules admit no level (proven).
    NoLevel,
    /// `stopped`: the budget ran out before any level.
    Stopped,
    /// `valid`: a level read from a file that passes `check_level`.
    Valid,
    /// `invalid`: a level read from a file that breaks a rule (still described).
    Invalid,
}

impl RowStatus {
    /// The CSV spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            RowStatus::Level => "level",
            RowStatus::Best => "best",
            RowStatus::NoLevel => "no-level",
            RowStatus::Stopped => "stopped",
            RowStatus::Valid => "valid",
            RowStatus::Invalid => "invalid",
        }
    }
}

/// What the caller knows about one level besides the level itself.
#[derive(Clone, Debug, PartialEq)]
pub struct RowInfo {
    /// Seed or file.
    pub label: Label,
    /// How the level came about.
    pub status: RowStatus,
    /// The soft cost (`level_cost`), when something is soft.
    pub cost: Option<u64>,
    /// CPU seconds the level took to make, when measured.
    pub cpu_seconds: Option<f64>,
    /// Wall-clock seconds the level took to make, when measured.
    pub wall_seconds: Option<f64>,
}

/// One row: the caller's information and, when there was a level, its scalar measures (in
/// [`Range::names`] order).
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// What the caller said.
    pub info: RowInfo,
    /// The level's scalars; `None` without a level.
    pub values: Option<Vec<Option<f64>>>,
}

/// Which extreme a kept level is: the smallest or largest value on the x or y axis.
const EXTREMES: [(bool, bool); 4] = [(false, false), (false, true), (true, false), (true, true)];

/// An expressive range under construction: [`Range::add`] each level, then [`Range::csv`] and
/// [`Range::svg`].
#[derive(Clone, Debug)]
pub struct Range<'a> {
    spec: &'a GridSpec,
    names: Vec<String>,
    x: Metric,
    y: Metric,
    rows: Vec<Row>,
    /// Per [`EXTREMES`] entry (min x, max x, min y, max y): the row index, its value and the
    /// level, the first of equals kept.
    extremes: [Option<(usize, f64, Level)>; 4],
}

impl<'a> Range<'a> {
    /// An empty range of `spec`'s levels plotted over `x` and `y`.
    pub fn new(spec: &'a GridSpec, x: Metric, y: Metric) -> Range<'a> {
        Range {
            spec,
            names: scalar_names(spec),
            x,
            y,
            rows: Vec::new(),
            extremes: [None, None, None, None],
        }
    }

    /// The scalar names: the CSV's metric columns, in order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The rows added so far.
    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    /// Adds a row: `level` (when there is one) is described with the spec and kept if it is
    /// an extreme on either axis so far. Returns the row.
    pub fn add(&mut self, info: RowInfo, level: Option<&Level>) -> &Row {
        let index = self.rows.len();
        let values = level.map(|level| {
            let scalars = describe(self.spec, level).scalars();
            let values: Vec<Option<f64>> = scalars.iter().map(|s| s.value).collect();
            for (slot, (on_y, largest)) in self.extremes.iter_mut().zip(EXTREMES) {
                let metric = if on_y { &self.y } else { &self.x };
                let Some(v) = values.get(metric.index).copied().flatten() else {
                    continue;
                };
                let better = match slot {
                    None => true,
                    Some((_, best, _)) => {
                        if largest {
                            v > *best
                        } else {
                            v < *best
                        }
                    }
                };
                if better {
                    *slot = Some((index, v, level.clone()));
                }
            }
            values
        });
        self.rows.push(Row { info, values });
        &self.rows[index]
    }

    /// The CSV: a header, then one row per level added, in order. Columns: `seed` (when every
    /// row is a seed; else `level`, the file), `status`, `cost` (empty when nothing is soft),
    /// `cpu_s`, `wall_s` (empty when not measured), then every scalar of [`Range::names`]
    /// (empty without a level, or where undefined). Fields holding `,`, `"` or a line break
    /// are quoted (RFC 4180).
    pub fn csv(&self) -> String {
        let seeds = self
            .rows
            .iter()
            .all(|r| matches!(r.info.label, Label::Seed(_)));
        let mut out = String::new();
        let mut header = vec![
            if seeds { "seed" } else { "level" }.to_string(),
            "status".to_string(),
            "cost".to_string(),
            "cpu_s".to_string(),
            "wall_s".to_string(),
        ];
        header.extend(self.names.iter().cloned());
        csv_line(&mut out, &header);
        for row in &self.rows {
            let info = &row.info;
            let mut fields = vec![
                match &info.label {
                    Label::Seed(s) => s.to_string(),
                    Label::File(name) => name.clone(),
                },
                info.status.as_str().to_string(),
                info.cost.map(|c| c.to_string()).unwrap_or_default(),
                info.cpu_seconds
                    .map(|s| format!("{s:.4}"))
                    .unwrap_or_default(),
                info.wall_seconds
                    .map(|s| format!("{s:.4}"))
                    .unwrap_or_default(),
            ];
            match &row.values {
                Some(values) => fields.extend(
                    values
                        .iter()
                        .map(|v| v.map(|v| v.to_string()).unwrap_or_default()),
                ),
                None => fields.extend(self.names.iter().map(|_| String::new())),
            }
            csv_line(&mut out, &fields);
        }
        out
    }

    /// The expressive-range picture, headed by `title` (see the [module](self)
    /// documentation). Structure tests and scripts can rely on: the plot's bins are
    /// `<rect class="bin" data-count="N">` (non-empty bins only; the counts add up to the
    /// levels plotted), every plotted level one `<circle class="level">`, every thumbnail one
    /// `<g class="thumbnail">` holding the level as [`crate::svg::render`] draws it.
    pub fn svg(&self, title: &str) -> String {
        picture(self, title)
    }
}

fn csv_line(out: &mut String, fields: &[String]) {
    for (i, f) in fields.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        if f.contains([',', '"', '\n', '\r']) {
            out.push('"');
            out.push_str(&f.replace('"', "\"\""));
            out.push('"');
        } else {
            out.push_str(f);
        }
    }
    out.push('\n');
}

/// A row's label as a thumbnail caption: a file by its name alone, cut to its last 26
/// characters so it fits over the thumbnail (the full path is in the CSV and in the dot's
/// tooltip).
fn caption(label: &Label) -> String {
    let text = match label {
        Label::Seed(_) => label.to_string(),
        Label::File(path) => std::path::Path::new(path)
            .file_name()
            .map_or_else(|| path.clone(), |n| n.to_string_lossy().into_owned()),
    };
    let chars: Vec<char> = text.chars().collect();
    if chars.len() <= 26 {
        text
    } else {
        let tail: String = chars.iter().skip(chars.len() - 25).collect();
        format!("…{tail}")
    }
}

/// Heatmap bins per axis: 10 × 10 keeps a bin at 40 px and, at 100 levels, one level per bin
/// on average.
const BINS: usize = 10;
/// The plot's side and its top-left corner.
const PLOT: f64 = 400.0;
const LEFT: f64 = 80.0;
const TOP: f64 = 80.0;
/// Thumbnail side and where the thumbnails start.
const THUMB: f64 = 200.0;
const THUMBS_LEFT: f64 = 540.0;
/// Empty to full bins: white to a dark blue.
const HEAT_FULL: (f64, f64, f64) = (8.0, 48.0, 107.0);

fn heat(t: f64) -> String {
    let t = t.clamp(0.0, 1.0);
    let mix = |full: f64| (255.0 + (full - 255.0) * t).round() as u8;
    format!(
        "#{:02x}{:02x}{:02x}",
        mix(HEAT_FULL.0),
        mix(HEAT_FULL.1),
        mix(HEAT_FULL.2)
    )
}

/// A tick or value label: whole numbers whole, others to at most three decimals.
fn number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else {
        let s = format!("{v:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// Tick values between `lo` and `hi`: multiples of a round step (1, 2, 2.5 or 5 times a power
/// of ten; 2.5 and fractions left out when every value is whole), about four to eight.
fn ticks(lo: f64, hi: f64, integral: bool) -> Vec<f64> {
    let raw = (hi - lo) / 5.0;
    if !(raw > 0.0 && raw.is_finite()) {
        return vec![lo];
    }
    let magnitude = 10f64.powf(raw.log10().floor());
    let mut step = [1.0, 2.0, 2.5, 5.0, 10.0]
        .into_iter()
        .filter(|m| !(integral && *m == 2.5))
        .map(|m| m * magnitude)
        .find(|&step| step >= raw)
        .unwrap_or(10.0 * magnitude);
    if integral {
        step = step.max(1.0);
    }
    let first = (lo / step).ceil() as i64;
    let last = (hi / step + 1e-9).floor() as i64;
    (first..=last.min(first + 20))
        .map(|k| k as f64 * step)
        .collect()
}

/// The axis's span over the plotted values, widened by 4% each way so the dots at the
/// extremes sit inside the frame, or by half a unit each way when all are equal (so the single
/// value sits in the middle).
fn span(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() || !hi.is_finite() {
        return (0.0, 1.0);
    }
    if hi - lo <= 0.0 {
        (lo - 0.5, hi + 0.5)
    } else {
        let pad = (hi - lo) * 0.04;
        (lo - pad, hi + pad)
    }
}

fn picture(range: &Range<'_>, title: &str) -> String {
    let (xi, yi) = (range.x.index, range.y.index);
    let points: Vec<(usize, f64, f64)> = range
        .rows
        .iter()
        .enumerate()
        .filter_map(|(i, r)| {
            let v = r.values.as_ref()?;
            Some((
                i,
                v.get(xi).copied().flatten()?,
                v.get(yi).copied().flatten()?,
            ))
        })
        .collect();
    let (x_lo, x_hi) = span(points.iter().map(|p| p.1));
    let (y_lo, y_hi) = span(points.iter().map(|p| p.2));
    let px = |v: f64| LEFT + (v - x_lo) / (x_hi - x_lo) * PLOT;
    let py = |v: f64| TOP + PLOT - (v - y_lo) / (y_hi - y_lo) * PLOT;
    let bin =
        |v: f64, lo: f64, hi: f64| (((v - lo) / (hi - lo) * BINS as f64) as usize).min(BINS - 1);
    let mut counts = [[0usize; BINS]; BINS];
    for &(_, x, y) in &points {
        counts[bin(y, y_lo, y_hi)][bin(x, x_lo, x_hi)] += 1;
    }
    let most = counts.iter().flatten().copied().max().unwrap_or(0).max(1);

    // Distinct rows among the extremes, each with the roles it plays.
    let mut thumbs: Vec<(usize, &Level, Vec<String>)> = Vec::new();
    for (slot, (on_y, largest)) in range.extremes.iter().zip(EXTREMES) {
        let Some((row, value, level)) = slot else {
            continue;
        };
        let metric = if on_y { &range.y } else { &range.x };
        let role = format!(
            "{} {} = {}",
            if largest { "max" } else { "min" },
            metric.name,
            number(*value)
        );
        match thumbs.iter_mut().find(|t| t.0 == *row) {
            Some(t) => t.2.push(role),
            None => thumbs.push((*row, level, vec![role])),
        }
    }

    // Each thumbnail's drawing, as `svg::render` makes it, without its own `<svg …>` and
    // `</svg>` (a nested `<svg>` below places and scales it), and the height of the whole
    // drawing, legend included, read from its opening tag.
    let drawings: Vec<(String, Option<f64>)> = thumbs
        .iter()
        .map(|(_, level, _)| {
            let drawn = render(range.spec, level);
            let Some((open, inner)) = drawn.split_once('>') else {
                return (String::new(), None);
            };
            let height = open
                .split_once(" height=\"")
                .and_then(|(_, rest)| rest.split_once('"'))
                .and_then(|(h, _)| h.parse::<f64>().ok());
            let inner = inner.trim_end().strip_suffix("</svg>").unwrap_or_default();
            (inner.trim_start().to_string(), height)
        })
        .collect();
    // The tiles' and layer values' legend, shown once under the plot: the first thumbnail's
    // own legend (below its map, outside the thumbnail's viewBox), referenced with `<use>`.
    let legend = thumbs
        .first()
        .zip(drawings.first())
        .and_then(|((_, level, _), (_, h))| {
            let map_h = (level.height * crate::svg::CELL) as f64;
            let legend_h = h.map(|h| h - map_h).filter(|&l| l > 0.0)?;
            Some((map_h, legend_h))
        });
    const LEGEND_SCALE: f64 = 0.75;
    let legend_top = TOP + PLOT + 60.0;
    let rows_of_thumbs = thumbs.len().div_ceil(2);
    let width = THUMBS_LEFT + 2.0 * (THUMB + 20.0);
    let height = (legend_top + legend.map_or(0.0, |(_, l)| 20.0 + l * LEGEND_SCALE) + 10.0)
        .max(TOP + rows_of_thumbs as f64 * (THUMB + 50.0) + 10.0);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="sans-serif" font-size="13">"#
    );
    let _ = writeln!(s, "<title>{}</title>", escape(title));
    let _ = writeln!(
        s,
        r##"<rect x="0" y="0" width="{width:.0}" height="{height:.0}" fill="#ffffff"/>"##
    );
    let plotted = points.len();
    let total = range.rows.len();
    let _ = writeln!(
        s,
        r#"<text x="{LEFT}" y="26" font-size="16">{}</text>"#,
        escape(title)
    );
    let _ = writeln!(
        s,
        r#"<text x="{LEFT}" y="48">{plotted} of {total} levels plotted; heatmap of {BINS} × {BINS} bins, darker = more levels (at most {most} in one)</text>"#
    );
    // The heatmap.
    s.push_str("<g class=\"heatmap\">\n");
    let side = PLOT / BINS as f64;
    for (by, row) in counts.iter().enumerate() {
        for (bx, &count) in row.iter().enumerate() {
            if count == 0 {
                continue;
            }
            let x = LEFT + bx as f64 * side;
            let y = TOP + PLOT - (by + 1) as f64 * side;
            let _ = writeln!(
                s,
                r#"<rect class="bin" data-count="{count}" x="{x:.1}" y="{y:.1}" width="{side:.1}" height="{side:.1}" fill="{}"><title>{count} level{}</title></rect>"#,
                heat(count as f64 / most as f64),
                if count == 1 { "" } else { "s" }
            );
        }
    }
    s.push_str("</g>\n");
    // The frame, ticks and axis names.
    let _ = writeln!(
        s,
        r##"<rect x="{LEFT}" y="{TOP}" width="{PLOT}" height="{PLOT}" fill="none" stroke="#000000"/>"##
    );
    s.push_str("<g class=\"axes\" font-size=\"11\">\n");
    let integral = |i: usize| {
        points
            .iter()
            .all(|p| if i == 0 { p.1 } else { p.2 }.fract() == 0.0)
    };
    for xv in ticks(x_lo, x_hi, integral(0)) {
        let x = px(xv);
        let _ = writeln!(
            s,
            r##"<line x1="{x:.1}" y1="{b:.1}" x2="{x:.1}" y2="{b2:.1}" stroke="#000000"/><text x="{x:.1}" y="{ty:.1}" text-anchor="middle">{}</text>"##,
            number(xv),
            b = TOP + PLOT,
            b2 = TOP + PLOT + 5.0,
            ty = TOP + PLOT + 18.0,
        );
    }
    for yv in ticks(y_lo, y_hi, integral(1)) {
        let y = py(yv);
        let _ = writeln!(
            s,
            r##"<line x1="{l2:.1}" y1="{y:.1}" x2="{LEFT:.1}" y2="{y:.1}" stroke="#000000"/><text x="{tx:.1}" y="{ty:.1}" text-anchor="end">{}</text>"##,
            number(yv),
            l2 = LEFT - 5.0,
            tx = LEFT - 8.0,
            ty = y + 4.0,
        );
    }
    s.push_str("</g>\n");
    let _ = writeln!(
        s,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
        LEFT + PLOT / 2.0,
        TOP + PLOT + 40.0,
        escape(&range.x.name)
    );
    let _ = writeln!(
        s,
        r#"<text transform="translate({:.1} {:.1}) rotate(-90)" text-anchor="middle">{}</text>"#,
        LEFT - 50.0,
        TOP + PLOT / 2.0,
        escape(&range.y.name)
    );
    // Every level as a dot, the extremes ringed and lettered.
    s.push_str("<g class=\"points\">\n");
    for &(row, x, y) in &points {
        let label = range
            .rows
            .get(row)
            .map(|r| r.info.label.to_string())
            .unwrap_or_default();
        let _ = writeln!(
            s,
            r##"<circle class="level" cx="{:.1}" cy="{:.1}" r="2.5" fill="#ff7f0e" stroke="#000000" stroke-width="0.5"><title>{}: {}, {}</title></circle>"##,
            px(x),
            py(y),
            escape(&label),
            number(x),
            number(y)
        );
    }
    for (k, (row, _, _)) in thumbs.iter().enumerate() {
        let Some(&(_, x, y)) = points.iter().find(|p| p.0 == *row) else {
            continue;
        };
        let letter = char::from(b'A' + k as u8);
        let _ = writeln!(
            s,
            r##"<circle cx="{cx:.1}" cy="{cy:.1}" r="7" fill="none" stroke="#d62728" stroke-width="2"/><text x="{tx:.1}" y="{ty:.1}" fill="#d62728" font-weight="bold">{letter}</text>"##,
            cx = px(x),
            cy = py(y),
            tx = px(x) + 8.0,
            ty = py(y) - 8.0,
        );
    }
    s.push_str("</g>\n");
    // The thumbnails, two per row, each the level as `svg::render` draws it, cropped to the
    // map (its legend falls outside the viewBox).
    for (k, ((row, level, roles), (inner, _))) in thumbs.iter().zip(&drawings).enumerate() {
        let letter = char::from(b'A' + k as u8);
        let x = THUMBS_LEFT + (k % 2) as f64 * (THUMB + 20.0);
        let y = TOP + (k / 2) as f64 * (THUMB + 50.0);
        let label = range
            .rows
            .get(*row)
            .map(|r| caption(&r.info.label))
            .unwrap_or_default();
        let _ = writeln!(s, r#"<g class="thumbnail">"#);
        let _ = writeln!(
            s,
            r#"<text x="{x:.1}" y="{:.1}" font-weight="bold">{letter}: {}</text>"#,
            y - 6.0,
            escape(&label)
        );
        for (i, role) in roles.iter().enumerate() {
            let _ = writeln!(
                s,
                r#"<text x="{x:.1}" y="{:.1}" font-size="11">{}</text>"#,
                y + THUMB + 14.0 + 13.0 * i as f64,
                escape(role)
            );
        }
        let map_w = level.width * crate::svg::CELL;
        let map_h = level.height * crate::svg::CELL;
        let _ = writeln!(
            s,
            r#"<svg x="{x:.1}" y="{y:.1}" width="{THUMB}" height="{THUMB}" viewBox="0 0 {map_w} {map_h}" preserveAspectRatio="xMidYMid meet" font-family="monospace" font-size="{}"><g id="range-level-{k}">"#,
            crate::svg::CELL * 2 / 3
        );
        s.push_str(inner);
        s.push_str("\n</g></svg>\n</g>\n");
    }
    if let Some((map_h, legend_h)) = legend {
        let _ = writeln!(
            s,
            r#"<g class="legend"><text x="{LEFT}" y="{:.1}">Tiles and layer values</text>"#,
            legend_top + 12.0
        );
        let _ = writeln!(
            s,
            r##"<svg x="{LEFT}" y="{:.1}" width="{:.1}" height="{:.1}" viewBox="0 {} 220 {legend_h}" font-family="monospace" font-size="{}"><use href="#range-level-0"/></svg></g>"##,
            legend_top + 20.0,
            220.0 * LEGEND_SCALE,
            legend_h * LEGEND_SCALE,
            map_h + 2.0,
            crate::svg::CELL * 2 / 3
        );
    }
    s.push_str("</svg>\n");
    s
}
