//! The referee: judges a [`Level`] against the `grid.json` document **as written**.
//!
//! Why it reads the document and not the [`GridSpec`] tables: the encoder works from tables that
//! the reader resolves (`spec/`, and each family's `rule.rs`) (names to tile sets, adjacency rules
//! merged per direction, ratios to fractions, domains intersected). A referee reading the same
//! tables shares every misreading of them — a directional `forbid` resolved as an allow-list went
//! unseen exactly that way (issue 14: the encoder and the old referee both read the inverted
//! table). So this module interprets every field itself, from `FORMAT.md`, with code of its own:
//! its own name lookup, its own decimal reading of ratios, its own rounding, each adjacency rule
//! checked cell by cell as stated (a `forbid` pair against both orders, a directional rule against
//! the one neighbour it names), its own BFS and flood fill, its own seeded wishes. It shares with
//! the encoder only the `Level` (plain indices into the document's arrays) and the published
//! splitmix64 stream. A misreading now has to be made twice, independently, to go unseen — the way
//! the engine's model check re-reads the original clauses.
//!
//! The document has passed validation when it reaches here, so a field the referee cannot
//! read is reported as a violation of `document` (it never panics), not silently skipped.

mod locks;
mod maze;
pub(crate) mod verdict;
mod vocab;

pub use verdict::{Finding, Violation};

use crate::level::Level;
use crate::options::GridOptions;
use crate::spec::{Dir, GridSpec};
use grim_formula::SplitMix64;
use serde_json::{Map, Value};

/// `Ok` when `level` keeps every hard rule of the document `spec` was read from; otherwise
/// every violation found (each names the rule and, where one cell shows it, the cell). Soft
/// rules never fail here; [`level_cost`] prices them.
pub fn check_level(spec: &GridSpec, level: &Level) -> Result<(), Vec<Violation>> {
    let doc = Doc::read(spec.document()).map_err(|v| vec![v])?;
    doc.fits(level).map_err(|v| vec![v])?;
    let mut found = Vec::new();
    if let Err(v) = doc.domains(level, &mut |v| found.push(v)) {
        found.push(v);
    }
    if let Err(v) = doc.adjacency(level, &mut |v| found.push(v)) {
        found.push(v);
    }
    if let Err(v) = doc.layers_requires(level, &mut |v| found.push(v)) {
        found.push(v);
    }
    for (_, judged) in doc.weighable(level) {
        match judged {
            Ok(Judged {
                soft: false,
                broken: Some(v),
            }) => found.push(v),
            Ok(_) => {}
            Err(v) => found.push(v),
        }
    }
    for rule in doc.list("connectivity") {
        if let Err(v) = doc.connectivity(rule, level) {
            found.push(v);
        }
    }
    for rule in doc.list("paths") {
        if let Err(v) = doc.path(rule, level) {
            found.push(v);
        }
    }
    for rule in doc.list("locks") {
        if let Err(v) = doc.locks(rule, level) {
            found.push(v);
        }
    }
    if found.is_empty() { Ok(()) } else { Err(found) }
}

/// The summed weight of the soft rules `level` breaks — soft counts and enclosures, and, when
/// preferences are soft under `options`, `weight` for each cell whose tile is not its seeded
/// wish — read from the document as written, like [`check_level`]. This is the cost
/// [`solve`](fn@crate::solve) minimises; `u64::MAX` for a level that does not fit the document or a
/// document the referee cannot read (never a cost a real level has: the sum saturates, and
/// validation bounds the total weight below it).
pub fn level_cost(spec: &GridSpec, options: &GridOptions, level: &Level) -> u64 {
    let Ok(doc) = Doc::read(spec.document()) else {
        return u64::MAX;
    };
    if doc.fits(level).is_err() {
        return u64::MAX;
    }
    let mut cost = 0u64;
    for (rule, judged) in doc.weighable(level) {
        match judged {
            Ok(Judged {
                soft: true,
                broken: Some(_),
            }) => cost = cost.saturating_add(doc.weight(rule).unwrap_or(0)),
            Ok(_) => {}
            Err(_) => return u64::MAX,
        }
    }
    match doc.soft_wishes(options) {
        Ok(Some((wishes, weight))) => {
            for (c, &w) in wishes.iter().enumerate() {
                if level.tiles[c] != w {
                    cost = cost.saturating_add(weight);
                }
            }
        }
        Ok(None) => {}
        Err(_) => return u64::MAX,
    }
    cost
}

/// One entry of a rule list: its path (`counts[2]`) and its object.
#[derive(Clone, Copy)]
struct Rule<'a> {
    key: &'a str,
    index: usize,
    map: &'a Map<String, Value>,
}

impl<'a> Rule<'a> {
    fn path(&self) -> String {
        format!("{}[{}]", self.key, self.index)
    }

    /// The present field `key`, with its path (`enclosure[0].class`) for the messages of
    /// whatever reads it; when it is missing the document is unreadable there.
    fn field(&self, key: &str) -> Result<(&'a Value, String), Violation> {
        let at = format!("{}.{key}", self.path());
        match get(self.map, key) {
            Some(v) => Ok((v, at)),
            None => Err(unreadable(at)),
        }
    }
}

/// What a count or enclosure rule came to on a level.
struct Judged {
    soft: bool,
    broken: Option<Violation>,
}

/// A tile as the document writes it.
struct TileDoc<'a> {
    name: &'a str,
    glyph: &'a str,
    weight: u64,
    classes: Vec<&'a str>,
}

/// A layer as the document writes it: its name and, per value, its name and `requires`.
struct LayerDoc<'a> {
    name: &'a str,
    values: Vec<(&'a str, Option<&'a Value>)>,
}

/// What a name in the document picks out, per cell.
enum Pick {
    /// Cells whose tile is marked.
    Tiles(Vec<bool>),
    /// Cells whose layer `.0` holds value `.1`.
    Value(usize, usize),
    /// One cell.
    Cell(usize),
}

/// The document, read once: the grid, its tiles and layers; rules are read as they are judged.
struct Doc<'a> {
    width: usize,
    height: usize,
    tiles: Vec<TileDoc<'a>>,
    layers: Vec<LayerDoc<'a>>,
    top: &'a Map<String, Value>,
}

/// A present, non-null field (`null` counts as absent, as `FORMAT.md` says).
fn get<'a>(m: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    m.get(key).filter(|v| !v.is_null())
}

/// `v` as an object, or the document is unreadable at `path`.
fn object(v: &Value, path: impl Into<String>) -> Result<&Map<String, Value>, Violation> {
    v.as_object().ok_or_else(|| unreadable(path))
}

/// The field `v` (from [`get`]) as an array, or the document is unreadable at `path`.
fn array(v: Option<&Value>, path: impl Into<String>) -> Result<&[Value], Violation> {
    v.and_then(Value::as_array)
        .map(Vec::as_slice)
        .ok_or_else(|| unreadable(path))
}

/// The field `v` (from [`get`]) as a string, or the document is unreadable at `path`.
fn string(v: Option<&Value>, path: impl Into<String>) -> Result<&str, Violation> {
    v.and_then(Value::as_str).ok_or_else(|| unreadable(path))
}

fn unreadable(what: impl Into<String>) -> Violation {
    Violation {
        rule: "document".to_string(),
        cell: None,
        found: Finding::Unreadable { what: what.into() },
    }
}

fn broken(rule: String, cell: Option<(usize, usize)>, found: Finding) -> Violation {
    Violation { rule, cell, found }
}

/// A bound computed in `u128` (a ratio times a base) as a `u64`: exact for a validated
/// document, whose bounds are at most its cell count or an absolute `u64`.
fn saturate(n: u128) -> u64 {
    u64::try_from(n).unwrap_or(u64::MAX)
}

/// A number's text rounded to whole millionths, halves up: the digits are shifted by the
/// exponent and cut after the sixth decimal, and the seventh decides the rounding. `None` when
/// the text is not a plain non-negative decimal (a negative zero reads as 0).
fn millionths(text: &str) -> Option<u64> {
    let (negative, body) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (mantissa, exp) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], body[i + 1..].parse::<i64>().ok()?),
        None => (body, 0),
    };
    let point = mantissa.find('.').unwrap_or(mantissa.len()) as i64;
    let digits: Vec<u8> = mantissa.bytes().filter(|&b| b != b'.').collect();
    if digits.is_empty() || digits.iter().any(|b| !b.is_ascii_digit()) {
        return None;
    }
    if negative {
        return digits.iter().all(|&b| b == b'0').then_some(0);
    }
    // The decimal point sits after `point + exp` digits; keep 6 more.
    let end = point.checked_add(exp)?.checked_add(6)?;
    let digit = |i: i64| -> u64 {
        usize::try_from(i)
            .ok()
            .and_then(|i| digits.get(i))
            .map_or(0, |&b| u64::from(b - b'0'))
    };
    let mut n: u64 = 0;
    // Leading digits beyond 10^19 cannot be a ratio of at most 1; refuse them rather than wrap.
    let first = (0..digits.len() as i64)
        .find(|&i| digit(i) != 0)
        .unwrap_or(i64::MAX);
    if first < end && end - first > 19 {
        return None;
    }
    for i in first.min(end)..end {
        n = n.checked_mul(10)?.checked_add(digit(i))?;
    }
    if digit(end) >= 5 {
        n = n.checked_add(1)?;
    }
    Some(n)
}

/// A bound as written: a JSON integer, or a decimal read as millionths.
#[derive(Clone, Copy)]
enum Num {
    Whole(u64),
    Millionths(u64),
}

const MILLION: u128 = 1_000_000;

impl Num {
    fn read(v: &Value) -> Option<Num> {
        if let Some(n) = v.as_u64() {
            return Some(Num::Whole(n));
        }
        if !v.is_number() {
            return None;
        }
        millionths(&v.to_string()).map(Num::Millionths)
    }

    /// As a ratio (with `per`, every number is one: `1` is 100%): millionths.
    fn as_ratio(self) -> u128 {
        match self {
            Num::Whole(n) => n as u128 * MILLION,
            Num::Millionths(p) => p as u128,
        }
    }

    /// As a lower bound on a count out of `base` cells: whole numbers as they are, ratios
    /// rounded up.
    fn at_least(self, base: u64) -> u128 {
        match self {
            Num::Whole(n) => n as u128,
            Num::Millionths(p) => (p as u128 * base as u128).div_ceil(MILLION),
        }
    }

    /// As an upper bound: ratios rounded down.
    fn at_most(self, base: u64) -> u128 {
        match self {
            Num::Whole(n) => n as u128,
            Num::Millionths(p) => p as u128 * base as u128 / MILLION,
        }
    }
}

impl<'a> Doc<'a> {
    fn read(v: &'a Value) -> Result<Doc<'a>, Violation> {
        let top = v.as_object().ok_or_else(|| unreadable("the top level"))?;
        let side = |k: &str| {
            get(top, k)
                .and_then(Value::as_u64)
                .and_then(|n| usize::try_from(n).ok())
                .filter(|&n| n >= 1)
                .ok_or_else(|| unreadable(k))
        };
        let (width, height) = (side("width")?, side("height")?);
        let mut tiles = Vec::new();
        for (i, t) in array(get(top, "tiles"), "tiles")?.iter().enumerate() {
            let m = object(t, format!("tiles[{i}]"))?;
            let text = |k: &str| string(get(m, k), format!("tiles[{i}].{k}"));
            let classes = match get(m, "classes") {
                None => Vec::new(),
                Some(c) => c
                    .as_array()
                    .and_then(|a| a.iter().map(Value::as_str).collect::<Option<Vec<_>>>())
                    .ok_or_else(|| unreadable(format!("tiles[{i}].classes")))?,
            };
            tiles.push(TileDoc {
                name: text("name")?,
                glyph: text("glyph")?,
                // "whole number ≥ 0 (default 1)"
                weight: match get(m, "weight") {
                    None => 1,
                    Some(w) => w
                        .as_u64()
                        .ok_or_else(|| unreadable(format!("tiles[{i}].weight")))?,
                },
                classes,
            });
        }
        let mut layers = Vec::new();
        if let Some(ls) = get(top, "layers") {
            for (i, l) in array(Some(ls), "layers")?.iter().enumerate() {
                let lm = object(l, format!("layers[{i}]"))?;
                let name = string(get(lm, "name"), format!("layers[{i}].name"))?;
                let mut values = Vec::new();
                let all = array(get(lm, "values"), format!("layers[{i}].values"))?;
                for (k, x) in all.iter().enumerate() {
                    let xm = object(x, format!("layers[{i}].values[{k}]"))?;
                    let vname = string(get(xm, "name"), format!("layers[{i}].values[{k}].name"))?;
                    values.push((vname, get(xm, "requires")));
                }
                layers.push(LayerDoc { name, values });
            }
        }
        Ok(Doc {
            width,
            height,
            tiles,
            layers,
            top,
        })
    }

    fn cells(&self) -> usize {
        self.width * self.height
    }

    fn xy(&self, c: usize) -> (usize, usize) {
        (c % self.width, c / self.width)
    }

    /// The cell one step from `c` towards `dir` (`N`: y − 1, `E`: x + 1, `S`: y + 1,
    /// `W`: x − 1), if inside the grid.
    fn step(&self, c: usize, dir: &str) -> Option<usize> {
        let (x, y) = self.xy(c);
        let (nx, ny) = match dir {
            "N" => (Some(x), y.checked_sub(1)),
            "S" => (Some(x), Some(y + 1)),
            "W" => (x.checked_sub(1), Some(y)),
            "E" => (Some(x + 1), Some(y)),
            _ => (None, None),
        };
        match (nx, ny) {
            (Some(nx), Some(ny)) if nx < self.width && ny < self.height => {
                Some(ny * self.width + nx)
            }
            _ => None,
        }
    }

    /// The four sides (no diagonals), as `FORMAT.md` defines neighbours.
    fn around(&self, c: usize) -> impl Iterator<Item = usize> + '_ {
        ["N", "E", "S", "W"]
            .into_iter()
            .filter_map(move |d| self.step(c, d))
    }

    fn on_border(&self, c: usize) -> bool {
        let (x, y) = self.xy(c);
        x == 0 || y == 0 || x + 1 == self.width || y + 1 == self.height
    }

    /// The entries of a top-level rule list (empty when absent).
    fn list(&self, key: &'a str) -> Vec<Rule<'a>> {
        get(self.top, key)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .enumerate()
                    .filter_map(|(index, v)| v.as_object().map(|map| Rule { key, index, map }))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Every rule that may be soft (counts, enclosures, and the vocabulary rules of
    /// `vocab.rs`) judged on `level`, in file order.
    fn weighable<'d>(
        &'d self,
        level: &'d Level,
    ) -> impl Iterator<Item = (Rule<'a>, Result<Judged, Violation>)> + 'd {
        let counts = self.list("counts").into_iter();
        let enclosures = self.list("enclosure").into_iter();
        let runs = self.list("runs").into_iter();
        let dead_ends = self.list("dead_ends").into_iter();
        let separation = self.list("separation").into_iter();
        let symmetry = self.list("symmetry").into_iter();
        let acyclic = self.list("acyclic").into_iter();
        let chokepoints = self.list("chokepoints").into_iter();
        counts
            .map(move |r| (r, self.count(r, level)))
            .chain(enclosures.map(move |r| (r, self.enclosure(r, level))))
            .chain(runs.map(move |r| (r, self.runs(r, level))))
            .chain(dead_ends.map(move |r| (r, self.dead_ends(r, level))))
            .chain(separation.map(move |r| (r, self.separation(r, level))))
            .chain(symmetry.map(move |r| (r, self.symmetry(r, level))))
            .chain(acyclic.map(move |r| (r, self.acyclic(r, level))))
            .chain(chokepoints.map(move |r| (r, self.chokepoints(r, level))))
    }

    fn weight(&self, rule: Rule) -> Option<u64> {
        get(rule.map, "weight").and_then(Value::as_u64)
    }

    /// The level has this document's size, one known tile per cell and one known value per
    /// cell and layer.
    fn fits(&self, level: &Level) -> Result<(), Violation> {
        let bad = |found: Finding| Err(broken("level".to_string(), None, found));
        if level.width != self.width || level.height != self.height {
            return bad(Finding::LevelSize {
                level: (level.width, level.height),
                document: (self.width, self.height),
            });
        }
        if level.tiles.len() != self.cells() {
            return bad(Finding::TileCount {
                tiles: level.tiles.len(),
                cells: self.cells(),
            });
        }
        if let Some(c) = (0..self.cells()).find(|&c| level.tiles[c] >= self.tiles.len()) {
            return bad(Finding::UnknownTile {
                cell: self.xy(c),
                tile: level.tiles[c],
                tiles: self.tiles.len(),
            });
        }
        if level.layers.len() != self.layers.len() {
            return bad(Finding::LayerCount {
                layers: level.layers.len(),
                document: self.layers.len(),
            });
        }
        for (l, (cells, layer)) in level.layers.iter().zip(&self.layers).enumerate() {
            if cells.len() != self.cells() || cells.iter().any(|&v| v >= layer.values.len()) {
                return bad(Finding::BadLayer {
                    layer: l,
                    name: layer.name.to_string(),
                });
            }
        }
        Ok(())
    }

    /// Does tile `t` answer to `name` (its own name, or one of its classes)?
    fn named(&self, t: usize, name: &str) -> bool {
        self.tiles
            .get(t)
            .is_some_and(|tile| tile.name == name || tile.classes.contains(&name))
    }

    /// [`Doc::tile_names`] of the rule's required field `key`.
    fn tiles_of(&self, rule: Rule, key: &str) -> Result<Vec<bool>, Violation> {
        let (v, at) = rule.field(key)?;
        self.tile_names(v, &at)
    }

    /// A name or a list of names: the tiles any of them names.
    fn tile_names(&self, v: &Value, what: &str) -> Result<Vec<bool>, Violation> {
        let names: Vec<&str> = match v {
            Value::String(s) => vec![s.as_str()],
            Value::Array(a) => a
                .iter()
                .map(Value::as_str)
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| unreadable(what.to_string()))?,
            _ => return Err(unreadable(what.to_string())),
        };
        Ok((0..self.tiles.len())
            .map(|t| names.iter().any(|n| self.named(t, n)))
            .collect())
    }

    /// A selection: `layer.value` or a tile/class name.
    fn pick(&self, v: &Value, what: &str) -> Result<Pick, Violation> {
        let s = v.as_str().ok_or_else(|| unreadable(what.to_string()))?;
        if let Some((layer, value)) = s.split_once('.') {
            let l = self
                .layers
                .iter()
                .position(|x| x.name == layer)
                .ok_or_else(|| unreadable(what.to_string()))?;
            let k = self.layers[l]
                .values
                .iter()
                .position(|x| x.0 == value)
                .ok_or_else(|| unreadable(what.to_string()))?;
            return Ok(Pick::Value(l, k));
        }
        self.tile_names(v, what).map(Pick::Tiles)
    }

    /// A path endpoint: a cell `{"x", "y"}` or a selection.
    fn endpoint(&self, v: &Value, what: &str) -> Result<Pick, Violation> {
        match v {
            Value::Object(m) => self.cell_at(m, what).map(Pick::Cell),
            _ => self.pick(v, what),
        }
    }

    fn cell_at(&self, m: &Map<String, Value>, what: &str) -> Result<usize, Violation> {
        let coord = |k: &str| get(m, k).and_then(Value::as_u64).map(|n| n as usize);
        match (coord("x"), coord("y")) {
            (Some(x), Some(y)) if x < self.width && y < self.height => Ok(y * self.width + x),
            _ => Err(unreadable(format!("{what} (a cell)"))),
        }
    }

    fn picks(&self, p: &Pick, level: &Level, c: usize) -> bool {
        match p {
            Pick::Tiles(set) => set.get(level.tiles[c]).copied().unwrap_or(false),
            Pick::Value(l, k) => level.layers[*l][c] == *k,
            Pick::Cell(x) => *x == c,
        }
    }

    /// Per cell, the tiles `mask`, `pins` and `allowed` leave, each restriction with its rule:
    /// `report` gets one violation per cell a rule's restriction excludes the level's tile from
    /// (when `level` is given).
    fn domains(&self, level: &Level, report: &mut dyn FnMut(Violation)) -> Result<(), Violation> {
        self.walk_domains(&mut |rule, c, allowed| {
            let t = level.tiles[c];
            if !allowed.get(t).copied().unwrap_or(false) {
                report(broken(
                    rule.to_string(),
                    Some(self.xy(c)),
                    Finding::Excluded {
                        tile: self.tiles[t].name.to_string(),
                    },
                ));
            }
        })
    }

    /// Calls `each(rule, cell, tiles left)` for every cell restriction, in file order.
    fn walk_domains(&self, each: &mut dyn FnMut(&str, usize, &[bool])) -> Result<(), Violation> {
        let n = self.tiles.len();
        if let Some(mask) = get(self.top, "mask") {
            let rows = mask.as_array().ok_or_else(|| unreadable("mask"))?;
            for (y, row) in rows.iter().enumerate() {
                let row = row
                    .as_str()
                    .ok_or_else(|| unreadable(format!("mask[{y}]")))?;
                for (x, ch) in row.chars().enumerate() {
                    if ch == '?' || x >= self.width || y >= self.height {
                        continue;
                    }
                    let mut glyph = [0u8; 4];
                    let g: &str = ch.encode_utf8(&mut glyph);
                    let set: Vec<bool> = self.tiles.iter().map(|t| t.glyph == g).collect();
                    each(&format!("mask[{y}]"), y * self.width + x, &set);
                }
            }
        }
        for rule in self.list("pins") {
            let c = self.cell_at(rule.map, &rule.path())?;
            let name = get(rule.map, "tile")
                .and_then(Value::as_str)
                .ok_or_else(|| unreadable(format!("{}.tile", rule.path())))?;
            let set: Vec<bool> = self.tiles.iter().map(|t| t.name == name).collect();
            each(&rule.path(), c, &set);
        }
        for rule in self.list("allowed") {
            let c = self.cell_at(rule.map, &rule.path())?;
            let v = get(rule.map, "tiles")
                .ok_or_else(|| unreadable(format!("{}.tiles", rule.path())))?;
            let set = self.tile_names(v, &format!("{}.tiles", rule.path()))?;
            debug_assert_eq!(set.len(), n);
            each(&rule.path(), c, &set);
        }
        Ok(())
    }

    /// Every adjacency rule, checked as stated on every pair of neighbouring cells.
    fn adjacency(&self, level: &Level, report: &mut dyn FnMut(Violation)) -> Result<(), Violation> {
        let Some(adj) = get(self.top, "adjacency") else {
            return Ok(());
        };
        let adj = adj.as_object().ok_or_else(|| unreadable("adjacency"))?;
        let name = |c: usize| self.tiles[level.tiles[c]].name;
        // Each unordered pair of neighbouring cells once: east and south of every cell.
        let mut touching = Vec::new();
        for c in 0..self.cells() {
            for d in ["E", "S"] {
                if let Some(e) = self.step(c, d) {
                    touching.push((c, e));
                }
            }
        }
        type Pairs = Vec<(Vec<bool>, Vec<bool>)>;
        let pairs = |key: &str| -> Result<Pairs, Violation> {
            let mut out = Vec::new();
            if let Some(list) = get(adj, key) {
                let list = list
                    .as_array()
                    .ok_or_else(|| unreadable(format!("adjacency.{key}")))?;
                for (i, p) in list.iter().enumerate() {
                    let what = format!("adjacency.{key}[{i}]");
                    match p.as_array().map(Vec::as_slice) {
                        Some([a, b]) => {
                            out.push((self.tile_names(a, &what)?, self.tile_names(b, &what)?))
                        }
                        _ => return Err(unreadable(what)),
                    }
                }
            }
            Ok(out)
        };
        // `forbid`: `b` may not sit on any side of `a`, nor `a` of `b`.
        for (i, (a, b)) in pairs("forbid")?.iter().enumerate() {
            for &(u, v) in &touching {
                let (tu, tv) = (level.tiles[u], level.tiles[v]);
                if (a[tu] && b[tv]) || (b[tu] && a[tv]) {
                    report(broken(
                        format!("adjacency.forbid[{i}]"),
                        Some(self.xy(u)),
                        Finding::ForbiddenPair {
                            tile: name(u).to_string(),
                            other: name(v).to_string(),
                            at: self.xy(v),
                        },
                    ));
                }
            }
        }
        // `allow`: only the listed pairs may touch, on any side, in either order.
        if get(adj, "allow").is_some() {
            let listed = pairs("allow")?;
            for &(u, v) in &touching {
                let (tu, tv) = (level.tiles[u], level.tiles[v]);
                if !listed
                    .iter()
                    .any(|(a, b)| (a[tu] && b[tv]) || (b[tu] && a[tv]))
                {
                    report(broken(
                        "adjacency.allow".to_string(),
                        Some(self.xy(u)),
                        Finding::UnlistedPair {
                            tile: name(u).to_string(),
                            other: name(v).to_string(),
                            at: self.xy(v),
                        },
                    ));
                }
            }
        }
        // `directional`: what may (allow) or may not (forbid) sit on side `dir` of `tile`.
        if let Some(list) = get(adj, "directional") {
            let list = list
                .as_array()
                .ok_or_else(|| unreadable("adjacency.directional"))?;
            for (i, r) in list.iter().enumerate() {
                let path = format!("adjacency.directional[{i}]");
                let rm = r.as_object().ok_or_else(|| unreadable(path.clone()))?;
                let whose = get(rm, "tile").ok_or_else(|| unreadable(format!("{path}.tile")))?;
                let whose = self.tile_names(whose, &path)?;
                let dir = get(rm, "dir")
                    .and_then(Value::as_str)
                    .ok_or_else(|| unreadable(format!("{path}.dir")))?;
                // Only for naming the side in a violation; `step` reads `dir` itself.
                let side = match dir {
                    "N" => Dir::N,
                    "E" => Dir::E,
                    "S" => Dir::S,
                    "W" => Dir::W,
                    _ => return Err(unreadable(format!("{path}.dir"))),
                };
                let (listed, allow) = match (get(rm, "allow"), get(rm, "forbid")) {
                    (Some(l), None) => (self.tile_names(l, &path)?, true),
                    (None, Some(l)) => (self.tile_names(l, &path)?, false),
                    _ => return Err(unreadable(path)),
                };
                for c in 0..self.cells() {
                    if !whose[level.tiles[c]] {
                        continue;
                    }
                    let Some(e) = self.step(c, dir) else { continue };
                    let inside = listed[level.tiles[e]];
                    if inside != allow {
                        report(broken(
                            path.clone(),
                            Some(self.xy(c)),
                            Finding::Directional {
                                tile: name(e).to_string(),
                                dir: side,
                                of: name(c).to_string(),
                                allow,
                            },
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    /// Every layer value's `requires`: the tiles it may sit on.
    fn layers_requires(
        &self,
        level: &Level,
        report: &mut dyn FnMut(Violation),
    ) -> Result<(), Violation> {
        for (l, layer) in self.layers.iter().enumerate() {
            let sets: Vec<Option<Vec<bool>>> = layer
                .values
                .iter()
                .enumerate()
                .map(|(k, (_, req))| {
                    req.map(|r| self.tile_names(r, &format!("layers[{l}].values[{k}].requires")))
                        .transpose()
                })
                .collect::<Result<_, _>>()?;
            for c in 0..self.cells() {
                let k = level.layers[l][c];
                if let Some(set) = &sets[k]
                    && !set[level.tiles[c]]
                {
                    report(broken(
                        format!("layers[{l}].values[{k}].requires"),
                        Some(self.xy(c)),
                        Finding::Requires {
                            value: format!("{}.{}", layer.name, layer.values[k].0),
                            tile: self.tiles[level.tiles[c]].name.to_string(),
                        },
                    ));
                }
            }
        }
        Ok(())
    }

    /// The rule's `region` as `(x, y, w, h)` (the whole grid when absent).
    fn rect(&self, rule: Rule) -> Result<(usize, usize, usize, usize), Violation> {
        let Some(r) = get(rule.map, "region") else {
            return Ok((0, 0, self.width, self.height));
        };
        let what = format!("{}.region", rule.path());
        let rm = r.as_object().ok_or_else(|| unreadable(what.clone()))?;
        let n = |k: &str| {
            get(rm, k)
                .and_then(Value::as_u64)
                .and_then(|v| usize::try_from(v).ok())
                .ok_or_else(|| unreadable(what.clone()))
        };
        let (x0, y0, w, h) = (n("x")?, n("y")?, n("w")?, n("h")?);
        if x0.saturating_add(w) > self.width || y0.saturating_add(h) > self.height {
            return Err(unreadable(what));
        }
        Ok((x0, y0, w, h))
    }

    /// `region` (default: the whole grid) as the list of its cells.
    fn region(&self, rule: Rule) -> Result<Vec<usize>, Violation> {
        let (x0, y0, w, h) = self.rect(rule)?;
        Ok((y0..y0 + h)
            .flat_map(|y| (x0..x0 + w).map(move |x| y * self.width + x))
            .collect())
    }

    /// A count: `of` counted in the region, against absolute bounds, ratios of the region's
    /// size, or (with `per`) ratios of `per`'s count there.
    fn count(&self, rule: Rule, level: &Level) -> Result<Judged, Violation> {
        let path = rule.path();
        let of = get(rule.map, "of").ok_or_else(|| unreadable(format!("{path}.of")))?;
        let of = self.pick(of, &format!("{path}.of"))?;
        let per = match get(rule.map, "per") {
            Some(p) => Some(self.pick(p, &format!("{path}.per"))?),
            None => None,
        };
        let cells = self.region(rule)?;
        let bound = |k: &str| -> Result<Option<Num>, Violation> {
            get(rule.map, k)
                .map(|v| Num::read(v).ok_or_else(|| unreadable(format!("{path}.{k}"))))
                .transpose()
        };
        let (min, max) = (bound("min")?, bound("max")?);
        let a = cells.iter().filter(|&&c| self.picks(&of, level, c)).count() as u64;
        let soft = self.weight(rule).is_some();
        let found = match &per {
            None => {
                let base = cells.len() as u64;
                let lo = min.map_or(0, |m| m.at_least(base));
                let hi = max.map(|m| m.at_most(base));
                let bad = (a as u128) < lo || hi.is_some_and(|hi| a as u128 > hi);
                bad.then_some(Finding::Count {
                    counted: a,
                    base,
                    min: saturate(lo),
                    max: hi.map(saturate),
                })
            }
            Some(per) => {
                let b = cells.iter().filter(|&&c| self.picks(per, level, c)).count() as u64;
                // |of| ≥ min · |per| and |of| ≤ max · |per|, compared exactly in millionths.
                let low = min.is_some_and(|m| (a as u128) * MILLION < m.as_ratio() * b as u128);
                let high = max.is_some_and(|m| (a as u128) * MILLION > m.as_ratio() * b as u128);
                (low || high).then_some(Finding::Ratio {
                    counted: a,
                    base: b,
                    low,
                })
            }
        };
        Ok(Judged {
            soft,
            broken: found.map(|m| broken(path, None, m)),
        })
    }

    /// An enclosure: at least `min` of the class cells are sealed off from the border.
    fn enclosure(&self, rule: Rule, level: &Level) -> Result<Judged, Violation> {
        let path = rule.path();
        let (class, open) = (self.tiles_of(rule, "class")?, self.tiles_of(rule, "open")?);
        let min = get(rule.map, "min")
            .and_then(Num::read)
            .ok_or_else(|| unreadable(format!("{path}.min")))?;
        let is_open = |c: usize| open[level.tiles[c]];
        // Open cells reachable from the border through open cells.
        let mut reached = vec![false; self.cells()];
        let mut todo: Vec<usize> = (0..self.cells())
            .filter(|&c| self.on_border(c) && is_open(c))
            .collect();
        for &c in &todo {
            reached[c] = true;
        }
        while let Some(c) = todo.pop() {
            for d in self.around(c) {
                if is_open(d) && !reached[d] {
                    reached[d] = true;
                    todo.push(d);
                }
            }
        }
        let members: Vec<usize> = (0..self.cells())
            .filter(|&c| class[level.tiles[c]])
            .collect();
        let sealed = members
            .iter()
            .filter(|&&c| !self.on_border(c) && !self.around(c).any(|d| reached[d]))
            .count() as u64;
        let need = min.at_least(members.len() as u64);
        Ok(Judged {
            soft: self.weight(rule).is_some(),
            broken: ((sealed as u128) < need).then(|| {
                broken(
                    path,
                    None,
                    Finding::Enclosure {
                        sealed,
                        members: members.len(),
                        need: saturate(need),
                    },
                )
            }),
        })
    }

    /// Connectivity: every class cell reachable from the root through class cells.
    fn connectivity(&self, rule: Rule, level: &Level) -> Result<(), Violation> {
        let path = rule.path();
        let class = self.tiles_of(rule, "class")?;
        let member = |c: usize| class[level.tiles[c]];
        let members: Vec<usize> = (0..self.cells()).filter(|&c| member(c)).collect();
        let root = match get(rule.map, "root") {
            None => None,
            Some(Value::String(s)) if s == "any" => None,
            Some(Value::Object(m)) => Some(self.cell_at(m, &format!("{path}.root"))?),
            Some(_) => return Err(unreadable(format!("{path}.root"))),
        };
        let start = match root {
            Some(r) if !member(r) => {
                return Err(broken(
                    path,
                    Some(self.xy(r)),
                    Finding::RootOutsideClass {
                        tile: self.tiles[level.tiles[r]].name.to_string(),
                    },
                ));
            }
            Some(r) => r,
            None => match members.first() {
                Some(&c) => c,
                None => return Ok(()), // an empty class is connected
            },
        };
        let mut seen = vec![false; self.cells()];
        seen[start] = true;
        let mut todo = vec![start];
        let mut reached = 1;
        while let Some(c) = todo.pop() {
            for d in self.around(c) {
                if member(d) && !seen[d] {
                    seen[d] = true;
                    reached += 1;
                    todo.push(d);
                }
            }
        }
        if reached == members.len() {
            return Ok(());
        }
        let stray = members.iter().copied().find(|&c| !seen[c]);
        Err(broken(
            path,
            stray.map(|c| self.xy(c)),
            Finding::Disconnected {
                unreached: members.len() - reached,
                members: members.len(),
                root: root.map(|r| self.xy(r)),
            },
        ))
    }

    /// A path: a walk from a `from` cell to a `to` cell whose inner cells hold `through`, of at
    /// most `max_length` steps, and none of fewer than `min_length` steps.
    fn path(&self, rule: Rule, level: &Level) -> Result<(), Violation> {
        let path = rule.path();
        let end = |k: &str| rule.field(k).and_then(|(v, at)| self.endpoint(v, &at));
        let (from, to) = (end("from")?, end("to")?);
        let through = self.tiles_of(rule, "through")?;
        let limit = match get(rule.map, "max_length") {
            None => None,
            Some(v) => Some(
                v.as_u64()
                    .ok_or_else(|| unreadable(format!("{path}.max_length")))?,
            ),
        };
        // Breadth-first over walks: steps[c] = fewest steps from a `from` cell to c. A walk
        // may go on from c only when c can be an inner cell (it holds `through`) or starts a
        // walk of its own (it is a `from` cell: a walk restarted there is no longer).
        let n = self.cells();
        let mut steps: Vec<Option<u64>> = vec![None; n];
        let mut queue = std::collections::VecDeque::new();
        for c in 0..n {
            if self.picks(&from, level, c) {
                steps[c] = Some(0);
                queue.push_back(c);
            }
        }
        while let Some(c) = queue.pop_front() {
            let here = steps[c].unwrap_or(0);
            let may_go_on = self.picks(&from, level, c) || through[level.tiles[c]];
            if !may_go_on {
                continue;
            }
            for d in self.around(c) {
                if steps[d].is_none() {
                    steps[d] = Some(here + 1);
                    queue.push_back(d);
                }
            }
        }
        let floor = match get(rule.map, "min_length") {
            None => None,
            Some(v) => Some(
                v.as_u64()
                    .ok_or_else(|| unreadable(format!("{path}.min_length")))?,
            ),
        };
        let best = (0..n)
            .filter(|&c| self.picks(&to, level, c))
            .filter_map(|c| steps[c].map(|s| (s, c)))
            .min();
        if let (Some((s, c)), Some(min)) = (best, floor)
            && s < min
        {
            return Err(broken(
                path,
                Some(self.xy(c)),
                Finding::PathTooShort { steps: s, min },
            ));
        }
        let best = best.map(|(s, _)| s);
        match (best, limit) {
            (Some(s), Some(l)) if s > l => Err(broken(
                path,
                None,
                Finding::PathTooLong { steps: s, limit: l },
            )),
            (Some(_), _) => Ok(()),
            (None, _) => Err(broken(path, None, Finding::NoWalk)),
        }
    }

    /// The seeded wishes when preferences are soft under `options`: one wished tile per cell
    /// and the weight of each, or `None` when preferences are off or hints.
    fn soft_wishes(&self, options: &GridOptions) -> Result<Option<(Vec<usize>, u64)>, Violation> {
        let prefs = get(self.top, "preferences").and_then(Value::as_object);
        if prefs.is_none() && options.seed.is_none() {
            return Ok(None);
        }
        let read = |k: &str| prefs.and_then(|p| get(p, k));
        let file_soft = match read("mode") {
            None => false,
            Some(Value::String(s)) if s == "hint" => false,
            Some(Value::String(s)) if s == "soft" => true,
            Some(_) => return Err(unreadable("preferences.mode")),
        };
        if !options.soft_preferences.unwrap_or(file_soft) {
            return Ok(None);
        }
        let seed = match options.seed {
            Some(s) => s,
            None => match read("seed") {
                None => 0,
                Some(v) => v.as_u64().ok_or_else(|| unreadable("preferences.seed"))?,
            },
        };
        let weight = match read("weight") {
            None => 1,
            Some(v) => v.as_u64().ok_or_else(|| unreadable("preferences.weight"))?,
        };
        // The cell domains as written: all tiles, narrowed by every restriction.
        let mut left = vec![vec![true; self.tiles.len()]; self.cells()];
        self.walk_domains(&mut |_, c, allowed| {
            for (l, &a) in left[c].iter_mut().zip(allowed) {
                *l &= a;
            }
        })?;
        // One draw per cell, row-major; `draw mod total weight` walks the allowed tiles in
        // file order (uniform when their weights are all 0).
        let mut rng = SplitMix64::new(seed);
        let mut wishes = Vec::with_capacity(self.cells());
        for cell in &left {
            let draw = rng.next_u64();
            let allowed: Vec<usize> = (0..self.tiles.len()).filter(|&t| cell[t]).collect();
            if allowed.is_empty() {
                return Err(unreadable("a cell domain (it is empty)"));
            }
            let total: u128 = allowed.iter().map(|&t| self.tiles[t].weight as u128).sum();
            let wish = if total == 0 {
                allowed[(draw % allowed.len() as u64) as usize]
            } else {
                let mut r = draw as u128 % total;
                let mut pick = allowed[allowed.len() - 1];
                for &t in &allowed {
                    let w = self.tiles[t].weight as u128;
                    if r < w {
                        pick = t;
                        break;
                    }
                    r -= w;
                }
                pick
            };
            wishes.push(wish);
        }
        Ok(Some((wishes, weight)))
    }
}

#[cfg(test)]
mod tests {
    use super::millionths;

    #[test]
    fn ratios_are_read_to_six_decimals_halves_up() {
        assert_eq!(millionths("0.3"), Some(300_000));
        assert_eq!(millionths("1.0"), Some(1_000_000));
        assert_eq!(millionths("0.3333333"), Some(333_333));
        assert_eq!(millionths("0.0078125"), Some(7_813));
        assert_eq!(millionths("5e-7"), Some(1));
        assert_eq!(millionths("4.9e-7"), Some(0));
        assert_eq!(millionths("1e-10"), Some(0));
        assert_eq!(millionths("2.5e-1"), Some(250_000));
        assert_eq!(millionths("-0.0"), Some(0));
        assert_eq!(millionths("-0.5"), None);
        assert_eq!(millionths("x"), None);
    }
}
