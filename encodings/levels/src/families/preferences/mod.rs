//! Seeded preferences: one wished-for tile per cell, drawn from the tile weights.
//!
//! The generator is splitmix64 (`grim_formula::rng`, shared with `grim-gen`), so that the same
//! seed gives the same level on every platform and every version of every dependency.
//! Cells are visited in row-major order and each draws exactly one 64-bit number, whether or not
//! its domain leaves a choice, so a pin in one cell does not shift the wishes of the others
//! (and a kept cell of a regenerated level draws from the domain as read, `keep.rs`). The
//! wish is drawn among the tiles the cell's domain allows, with probability proportional to
//! their weights (`draw % total`; uniform when every allowed weight is 0 — the modulo bias is
//! below 2^-40 for any realistic total). Every tile variable of the cell is hinted: the wish
//! true, the others false. Layers are hinted to their first value ("nothing"), so items appear
//! where the rules need them. As hints (default) the wishes steer which of the equally good
//! levels is found; as soft unit clauses (mode "soft") each unmet wish costs `weight`.
//!
//! The family is this file and `rule.rs` ([`rule::Preferences`] and its reading). It draws the
//! wishes before any family encodes (`Family::wish`) and emits the hints after all of them,
//! last in the table, so that every auxiliary variable whose wished value the encodings
//! derived is hinted too. It has no rules that can clash: wishes are never hard.

pub(crate) mod rule;

use crate::error::GridError;
use crate::family::{Family, Pass, Reading};
use crate::model::{GridModel, set_wished};
use crate::options::GridOptions;
use crate::spec::reader::field;
use crate::spec::{GridSpec, Selection};
use grim_formula::SplitMix64;
use grim_solver::Var;
use rule::Preferences;

/// The family in the table (`families/mod.rs`).
pub(crate) struct Prefs;

impl Family for Prefs {
    fn fields(&self) -> &'static [&'static str] {
        &["preferences"]
    }

    fn read(&self, at: &mut Reading<'_>) -> Result<(), GridError> {
        if at.pass == Pass::Rules
            && let Some(v) = field(at.doc, "preferences")
        {
            at.spec.preferences = Some(rule::read_rule(v)?);
        }
        Ok(())
    }

    fn wish(&self, m: &mut GridModel) {
        let p = resolve(&m.spec, &m.options);
        m.soft_preferences = p.as_ref().is_some_and(|p| p.soft);
        if let Some(p) = &p {
            wish(m, p);
        }
    }

    fn encode(&self, m: &mut GridModel) {
        if let Some(p) = resolve(&m.spec, &m.options) {
            encode(m, &p);
        }
    }

    /// The diagnosis asks which hard rules clash: no wishes, no hints.
    fn open(&self, spec: &mut GridSpec) {
        spec.preferences = None;
    }
}

/// The effective preferences: the file's, overridden by the options.
fn resolve(spec: &GridSpec, options: &GridOptions) -> Option<Preferences> {
    let mut p = match (&spec.preferences, options.seed) {
        (Some(p), _) => p.clone(),
        (None, Some(_)) => Preferences {
            seed: 0,
            soft: false,
            weight: 1,
        },
        (None, None) => return None,
    };
    if let Some(seed) = options.seed {
        p.seed = seed;
    }
    if let Some(soft) = options.soft_preferences {
        p.soft = soft;
    }
    Some(p)
}

/// The wished-for tile of every cell (row-major), as drawn from `seed`.
fn wishes(spec: &GridSpec, seed: u64) -> Vec<usize> {
    let mut rng = SplitMix64::new(seed);
    let t = spec.tiles.len();
    // A regenerated level's kept cells narrow `domains`; the wishes are the whole level's.
    let domains = spec
        .origins
        .domains_as_read
        .as_ref()
        .unwrap_or(&spec.domains);
    (0..spec.cells())
        .map(|c| {
            let draw = rng.next_u64();
            let allowed: Vec<usize> = (0..t).filter(|&a| domains[c][a]).collect();
            let total: u128 = allowed.iter().map(|&a| spec.tiles[a].weight as u128).sum();
            if total == 0 {
                return allowed
                    [(draw % allowed.len().max(1) as u64) as usize % allowed.len().max(1)];
            }
            let mut r = draw as u128 % total;
            for &a in &allowed {
                let w = spec.tiles[a].weight as u128;
                if r < w {
                    return a;
                }
                r -= w;
            }
            allowed[allowed.len() - 1]
        })
        .collect()
}

/// Records the wished level's value of every cell and layer variable (before the rules are
/// encoded, so that encodings can derive the values of their auxiliary variables).
fn wish(m: &mut GridModel, p: &Preferences) {
    let mut tiles = wishes(&m.spec, p.seed);
    if !p.soft {
        mirror_wishes(&m.spec, &mut tiles);
    }
    let layers = layer_wishes(&m.spec, p.seed, &tiles);
    let t = m.spec.tiles.len();
    for (c, &w) in tiles.iter().enumerate() {
        for a in 0..t {
            let lit = m.tile_lit(c, a);
            set_wished(&mut m.wished, lit, Some(a == w));
        }
    }
    for (l, wish) in layers.iter().enumerate() {
        for (c, &w) in wish.iter().enumerate() {
            for v in 0..m.spec.layers[l].values.len() {
                let lit = m.value_lit(l, c, v);
                set_wished(&mut m.wished, lit, Some(v == w));
            }
        }
    }
}

/// Emits the hints — every variable whose wished value is known, in variable order (cells and
/// layers first) — and, in soft mode, one soft unit clause per cell for its wished tile.
fn encode(m: &mut GridModel, p: &Preferences) {
    for i in 0..m.wished.len() {
        if let (Some(v), Some(var)) = (m.wished[i], Var::new(i as u32)) {
            m.hints.push(var.lit(v));
            m.problem.prefer(var, v);
        }
    }
    if p.soft {
        let t = m.spec.tiles.len();
        for c in 0..m.spec.cells() {
            for a in 0..t {
                let lit = m.tile_lit(c, a);
                if m.wished(lit) == Some(true) {
                    m.problem.add_clause(&[lit], Some(p.weight));
                }
            }
        }
    }
}

/// The wished-for value of every layer cell. Layer values have no weights; what a designer
/// wants of them is in the count rules ("one key", "enemies on 5–20% of the floor"). So each
/// count rule on a layer value, in file order, wishes the value onto a seeded choice of cells
/// whose wished tile it may sit on: as many as the middle of the rule's bounds (for a ratio
/// `per` a selection, the middle of the bounds applied to the wished tiles' count). Every other
/// cell wishes the first value ("nothing"). Why: hinting every item to "nothing" made the
/// engine discover each needed enemy through a conflict — on the 32×32 dungeon, thousands of
/// conflicts per solve (measurements in `FORMAT.md`).
fn layer_wishes(spec: &GridSpec, seed: u64, tiles: &[usize]) -> Vec<Vec<usize>> {
    let cells = spec.cells();
    let mut out: Vec<Vec<usize>> = spec.layers.iter().map(|_| vec![0; cells]).collect();
    let mut rng = SplitMix64::new(seed ^ 0x6c61_7965_7273_2121);
    let holds = |sel: &Selection, c: usize, out: &[Vec<usize>]| match sel {
        Selection::Tiles(set) => set[tiles[c]],
        Selection::LayerValue { layer, value } => out[*layer][c] == *value,
    };
    for rule in &spec.counts {
        let Selection::LayerValue { layer, value } = rule.of else {
            continue;
        };
        if value == 0 {
            continue;
        }
        let region = rule.region;
        let in_region: Vec<usize> = (0..cells)
            .filter(|&c| region.contains(c % spec.width, c / spec.width))
            .collect();
        let base = match &rule.per {
            Some(per) => in_region.iter().filter(|&&c| holds(per, c, &out)).count() as u64,
            None => region.cells() as u64,
        };
        let lo = rule.min.map_or(0, |b| b.lower(base));
        let hi = rule.max.map_or(lo, |b| b.upper(base)).max(lo);
        let target = usize::try_from(lo + (hi - lo) / 2).unwrap_or(usize::MAX);
        let requires = &spec.layers[layer].values[value].requires;
        let mut candidates: Vec<usize> = in_region
            .into_iter()
            .filter(|&c| out[layer][c] == 0 && requires.as_ref().is_none_or(|r| r[tiles[c]]))
            .collect();
        // A seeded partial Fisher–Yates shuffle picks `target` of the candidates.
        // With a hard Manhattan separation of the value, a draw closer than its distance to a
        // cell already wished the value is passed over (the next draw replaces it); with a hard
        // symmetry over the layer, a drawn cell's images wish the value too.
        let apart = spacing(spec, layer, value);
        let orbits = orbits(spec, Some(layer));
        let mut chosen: Vec<usize> = (0..cells).filter(|&c| out[layer][c] == value).collect();
        let (mut placed, mut i) = (0, 0);
        while placed < target && i < candidates.len() {
            let j = i + (rng.next_u64() % (candidates.len() - i) as u64) as usize;
            candidates.swap(i, j);
            let c = candidates[i];
            i += 1;
            if out[layer][c] != 0 || chosen.iter().any(|&o| manhattan(spec, o, c) < apart) {
                continue;
            }
            for &d in orbits.members(c) {
                let fits = out[layer][d] == 0 && requires.as_ref().is_none_or(|r| r[tiles[d]]);
                if fits && (d == c || chosen.iter().all(|&o| manhattan(spec, o, d) >= apart)) {
                    out[layer][d] = value;
                    chosen.push(d);
                    placed += 1;
                }
            }
        }
    }
    out
}

/// In hint mode, the cells a hard symmetry rule ties together wish the same tile: each takes
/// the wish of the first cell (row-major) of its orbit when its domain allows that tile. Why:
/// drawn cell by cell, half the wishes of a mirrored grid contradict their image's, and the
/// engine learns each contradiction through a conflict (the 64×64 dungeon with a vertical
/// mirror: up to 1.9 s against 0.15 s without it, `benches/results/issue42-perf-2026-12-07.md`).
/// Soft wishes stay as drawn: their cost is the file's wishes, which the referee recomputes.
fn mirror_wishes(spec: &GridSpec, tiles: &mut [usize]) {
    let orbits = orbits(spec, None);
    let domains = spec
        .origins
        .domains_as_read
        .as_ref()
        .unwrap_or(&spec.domains);
    for c in 0..tiles.len() {
        let first = orbits.first(c);
        if first != c && domains[c][tiles[first]] {
            tiles[c] = tiles[first];
        }
    }
}

/// The largest `min_distance` of the hard Manhattan separation rules on `layer`'s `value`
/// (0 when none): wishes closer than that would break the rule.
fn spacing(spec: &GridSpec, layer: usize, value: usize) -> usize {
    spec.separation
        .iter()
        .filter(|r| r.weight.is_none() && r.of == Selection::LayerValue { layer, value })
        .map(|r| r.min_distance)
        .max()
        .unwrap_or(0)
}

/// The Manhattan distance between cells `a` and `b` (row-major indices).
fn manhattan(spec: &GridSpec, a: usize, b: usize) -> usize {
    let (ax, ay, bx, by) = (
        a % spec.width,
        a / spec.width,
        b % spec.width,
        b / spec.width,
    );
    ax.abs_diff(bx) + ay.abs_diff(by)
}

/// The cells tied together by the hard symmetry rules — every rule for the tiles (`None`), the
/// rules mirroring the layer for a layer — as a union–find over the grid's cells.
struct Orbits {
    parent: Vec<usize>,
    /// Each orbit's cells in row-major order, by the orbit's first cell.
    members: Vec<Vec<usize>>,
}

impl Orbits {
    /// The first cell (row-major) of `c`'s orbit.
    fn first(&self, c: usize) -> usize {
        self.parent[c]
    }

    /// The cells of `c`'s orbit, `c` among them.
    fn members(&self, c: usize) -> &[usize] {
        &self.members[self.parent[c]]
    }
}

/// The orbits of the hard symmetry rules that tie tiles (`layer` `None`) or `layer`'s values.
fn orbits(spec: &GridSpec, layer: Option<usize>) -> Orbits {
    let cells = spec.cells();
    let mut parent: Vec<usize> = (0..cells).collect();
    fn root(parent: &mut [usize], mut c: usize) -> usize {
        while parent[c] != c {
            parent[c] = parent[parent[c]];
            c = parent[c];
        }
        c
    }
    for rule in &spec.symmetry {
        if rule.weight.is_some() || (layer.is_some() && rule.layer != layer) {
            continue;
        }
        let r = rule.region;
        for y in r.y..r.y + r.h {
            for x in r.x..r.x + r.w {
                let (ix, iy) = rule.image(x, y);
                let (a, b) = (
                    root(&mut parent, spec.index(x, y)),
                    root(&mut parent, spec.index(ix, iy)),
                );
                // The smaller index becomes the root: the root is the orbit's first cell.
                let (lo, hi) = (a.min(b), a.max(b));
                parent[hi] = lo;
            }
        }
    }
    let mut members = vec![Vec::new(); cells];
    for c in 0..cells {
        let r = root(&mut parent, c);
        parent[c] = r;
        members[r].push(c);
    }
    Orbits { parent, members }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(json: &str) -> GridSpec {
        GridSpec::from_json(json).unwrap_or_else(|e| panic!("{e}"))
    }

    const ARENA: &str = r##"{"width": 9, "height": 7,
        "tiles": [{"name": "wall", "glyph": "#", "weight": 3}, {"name": "floor", "glyph": ".", "weight": 5},
                  {"name": "grass", "glyph": "g", "weight": 2}],
        "mask": ["?????????", "?????????", "?????????", "?????????", "?????????", "?????????", "#????????"],
        "layers": [{"name": "items", "values": [{"name": "none", "glyph": " "},
            {"name": "spawn", "glyph": "s", "requires": ["floor"]}]}],
        "counts": [{"of": "items.spawn", "min": 3, "max": 5}],
        "separation": [{"of": "items.spawn", "min_distance": 4}],
        "symmetry": [{"kind": "vertical"}, {"kind": "horizontal", "region": {"x": 0, "y": 0, "w": 9, "h": 3}}]}"##;

    #[test]
    fn hinted_wishes_follow_the_orbits_of_the_hard_symmetries_where_domains_allow() {
        let s = spec(ARENA);
        let orbits = orbits(&s, None);
        for seed in 0..20 {
            let drawn = wishes(&s, seed);
            let mut mirrored = drawn.clone();
            mirror_wishes(&s, &mut mirrored);
            for c in 0..s.cells() {
                let first = orbits.first(c);
                let allowed = s.domains[c][drawn[first]];
                // A cell takes its orbit's first wish when its domain allows it, else keeps its
                // own draw (the pinned corner).
                let want = if allowed { drawn[first] } else { drawn[c] };
                assert_eq!(mirrored[c], want, "seed {seed} cell {c}");
            }
            // The two rules tie (x, y), (8 − x, y) and, in the top three rows, (x, 2 − y).
            let (x, y) = (1, 0);
            assert_eq!(orbits.first(s.index(8 - x, y)), s.index(x, y));
            assert_eq!(orbits.first(s.index(8 - x, 2 - y)), s.index(x, y));
            assert_ne!(orbits.first(s.index(x, 4)), orbits.first(s.index(x, 0)));
        }
    }

    #[test]
    fn layer_wishes_keep_a_hard_separation_and_the_middle_count() {
        let s = spec(ARENA);
        for seed in 0..50 {
            let tiles = wishes(&s, seed);
            let layers = layer_wishes(&s, seed, &tiles);
            let spawns: Vec<usize> = (0..s.cells()).filter(|&c| layers[0][c] == 1).collect();
            for (i, &a) in spawns.iter().enumerate() {
                assert_eq!(tiles[a], 1, "a spawn wished on a cell not wished floor");
                for &b in &spawns[i + 1..] {
                    assert!(manhattan(&s, a, b) >= 4, "seed {seed}: {a} and {b}");
                }
            }
            // The middle of the bounds (4) unless the floor wishes leave no room for it.
            assert!(spawns.len() <= 4, "seed {seed}: {}", spawns.len());
        }
    }
}
