//! Grid levels for tests: enumerating the levels of a small spec (every one, or a seeded
//! sample) — the brute force that the grid referee and solver are checked against — and the
//! assumptions that fix a level's cell and layer variables in a model; an engine holding a
//! model, and the levels its models decode to.

use grim_levels::{GridModel, GridOptions, GridOutcome, GridSpec, Level};

use crate::SplitMix64;
use grim_solver::{Budget, Lit, Solver, Status, Var};

/// The radix of every digit of a level: a tile per cell, then a value per cell and layer.
fn radices(spec: &GridSpec) -> Vec<usize> {
    let cells = spec.cells();
    let mut radices = vec![spec.tiles.len(); cells];
    for l in &spec.layers {
        radices.extend(std::iter::repeat_n(l.values.len(), cells));
    }
    radices
}

fn level(spec: &GridSpec, digits: &[usize]) -> Level {
    let cells = spec.cells();
    Level {
        width: spec.width,
        height: spec.height,
        tiles: digits[..cells].to_vec(),
        layers: (0..spec.layers.len())
            .map(|l| digits[cells * (l + 1)..cells * (l + 2)].to_vec())
            .collect(),
    }
}

/// How many levels `spec` has (`None` beyond `u64`).
pub fn count(spec: &GridSpec) -> Option<u64> {
    radices(spec)
        .iter()
        .try_fold(1u64, |acc, &r| acc.checked_mul(r as u64))
}

/// Every level of `spec`: tiles then layer values, odometer order.
pub fn all_levels(spec: &GridSpec) -> Vec<Level> {
    let radices = radices(spec);
    let total = count(spec).expect("a space small enough to enumerate") as usize;
    let mut out = Vec::with_capacity(total);
    let mut digits = vec![0usize; radices.len()];
    for _ in 0..total {
        out.push(level(spec, &digits));
        for (d, &r) in digits.iter_mut().zip(&radices) {
            *d += 1;
            if *d < r {
                break;
            }
            *d = 0;
        }
    }
    out
}

/// Every level of `spec` (tiles only: a spec without layers) whose tiles fit the cells'
/// domains (`spec.domains`: mask, pins and `allowed`), odometer order over the free cells — the
/// brute force for a masked grid whose whole space `all_levels` would be too large to list.
pub fn fitting(spec: &GridSpec) -> Vec<Level> {
    assert!(spec.layers.is_empty(), "fitting lists tiles only");
    let options: Vec<Vec<usize>> = spec
        .domains
        .iter()
        .map(|d| (0..d.len()).filter(|&t| d[t]).collect())
        .collect();
    let total = options
        .iter()
        .try_fold(1usize, |acc, o| acc.checked_mul(o.len()))
        .expect("a space small enough to enumerate");
    let mut out = Vec::with_capacity(total);
    let mut digits = vec![0usize; options.len()];
    for _ in 0..total {
        out.push(Level {
            width: spec.width,
            height: spec.height,
            tiles: digits.iter().zip(&options).map(|(&d, o)| o[d]).collect(),
            layers: Vec::new(),
        });
        for (d, o) in digits.iter_mut().zip(&options) {
            *d += 1;
            if *d < o.len() {
                break;
            }
            *d = 0;
        }
    }
    out
}

/// Every level when there are at most `limit`, else a seeded sample of `sample` levels.
pub fn levels(spec: &GridSpec, limit: u64, sample: usize, seed: u64) -> Vec<Level> {
    match count(spec) {
        Some(n) if n <= limit => all_levels(spec),
        _ => {
            let radices = radices(spec);
            let mut rng = SplitMix64::new(seed);
            (0..sample)
                .map(|_| {
                    let digits: Vec<usize> = radices
                        .iter()
                        .map(|&r| (rng.next_u64() % r as u64) as usize)
                        .collect();
                    level(spec, &digits)
                })
                .collect()
        }
    }
}

/// Literals that fix every cell and layer variable of `model` to `level`.
pub fn assumptions(model: &GridModel, spec: &GridSpec, level: &Level) -> Vec<Lit> {
    let mut a = Vec::new();
    for c in 0..spec.cells() {
        let (x, y) = (c % spec.width, c / spec.width);
        for t in 0..spec.tiles.len() {
            a.push(model.cell_var(x, y, t).lit(level.tiles[c] == t));
        }
        for (l, layer) in spec.layers.iter().enumerate() {
            for v in 0..layer.values.len() {
                a.push(model.layer_var(l, x, y, v).lit(level.layers[l][c] == v));
            }
        }
    }
    a
}

/// Options that differ from the file's only in the seed of the preferences.
pub fn seeded(seed: u64) -> GridOptions {
    GridOptions {
        seed: Some(seed),
        soft_preferences: None,
        count_ints: None,
        count_block: None,
    }
}

/// A shipped spec, `instances/grid/NAME`, read and parsed: a panic names the file when it
/// cannot be (a test's setup, not what it tests).
pub fn shipped(name: &str) -> GridSpec {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../instances/grid")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    GridSpec::from_json(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// [`grim_levels::solve`] without a budget, for a spec that has levels: the level,
/// or a panic naming the outcome or the error.
pub fn solve_level(spec: &GridSpec, options: &GridOptions) -> Level {
    match grim_levels::solve(spec, options, grim_solver::Budget::UNLIMITED) {
        Ok(GridOutcome::Level(level)) => level,
        other => panic!("expected a level, got {other:?}"),
    }
}

/// The dungeon of the grid issue on a `size`×`size` grid, as grid.json: five tiles (walls,
/// floor, water, doors, grass; colours on three of them), forbidden neighbours, an items layer
/// whose key, chest and enemies need floor, floor and item counts, connected floor, seed 7 as
/// a hint. The one copy the encodings' and grim-encode's tests share.
pub fn dungeon_json(size: u32) -> String {
    const TEMPLATE: &str = r##"{
  "width": SIZE, "height": SIZE,
  "tiles": [
    {"name": "wall",  "glyph": "#",  "weight": 3, "classes": ["solid"], "color": "#3b3b46"},
    {"name": "floor", "glyph": ".",  "weight": 5, "classes": ["passable"], "color": "#d9c9a3"},
    {"name": "water", "glyph": "~",  "weight": 1, "color": "#3f7fbf"},
    {"name": "door",  "glyph": "+",  "weight": 1, "classes": ["passable"]},
    {"name": "grass", "glyph": "\"", "weight": 2, "classes": ["passable"]}
  ],
  "adjacency": {"forbid": [["wall", "water"], ["water", "door"], ["door", "door"]]},
  "layers": [{"name": "items", "values": [
    {"name": "none", "glyph": " "},
    {"name": "enemy", "glyph": "e", "requires": ["floor"]},
    {"name": "key", "glyph": "k", "requires": ["floor"]},
    {"name": "chest", "glyph": "c", "requires": ["floor"]}]}],
  "counts": [
    {"of": "floor", "min": 0.30, "max": 0.60},
    {"of": "items.key", "min": 1, "max": 1},
    {"of": "items.chest", "min": 1, "max": 1},
    {"of": "items.enemy", "per": "floor", "min": 0.05, "max": 0.20}
  ],
  "connectivity": [{"class": "floor", "root": "any"}],
  "preferences": {"seed": 7, "mode": "hint"}
}"##;
    TEMPLATE.replace("SIZE", &size.to_string())
}

/// An engine holding the hard clauses of `model`, with its grid propagator when it has one
/// (the propagated model; the export has none): what the both-ways tests solve under a
/// level's [`assumptions`].
pub fn engine(model: &GridModel) -> Solver {
    let w = model.to_wcnf();
    let mut s = Solver::new();
    s.reserve_vars(w.num_vars);
    for c in &w.hard {
        s.add_clause(c);
    }
    model.connect_search(&mut s);
    s
}

/// The distinct levels among the models of `model` (hard clauses and propagator), each found
/// by [`engine`] and then blocked by its cell and layer literals, with whether the engine's
/// propagator reported an error on the way: how many levels a model admits, against the
/// brute force's count.
pub fn model_levels(model: &GridModel, spec: &GridSpec) -> (Vec<Level>, bool) {
    let mut s = engine(model);
    let mut out = Vec::new();
    // Once: the conversion copies the whole model.
    let num_vars = model.to_wcnf().num_vars;
    while s.solve(&[], Budget::UNLIMITED) == Status::Sat {
        let values: Vec<bool> = (0..num_vars as u32)
            .map(|v| Var::new(v).is_some_and(|var| s.value(var.pos()) == Some(true)))
            .collect();
        let level = model.decode(&values).expect("a model decodes");
        let block: Vec<Lit> = assumptions(model, spec, &level)
            .into_iter()
            .map(|l| !l)
            .collect();
        s.add_clause(&block);
        out.push(level);
    }
    (out, s.propagator_error().is_some())
}

/// Both ways, in the export and in the propagated model of `spec`, over `levels`: the referee
/// accepts a level exactly when `keeps` (and the cell domains) do; each model is satisfiable
/// under a level's [`assumptions`] exactly then; and each admits exactly as many levels as
/// `keeps` accepts, every one of them passing the referee ([`model_levels`]). Returns (kept,
/// broken) so that a test can assert it saw both.
pub fn both_ways_in_both_models(
    spec: &GridSpec,
    levels: &[Level],
    keeps: &dyn Fn(&Level) -> bool,
) -> (usize, usize) {
    let fits = |l: &Level| (0..spec.cells()).all(|c| spec.domains[c][l.tiles[c]]);
    let keeps = |l: &Level| fits(l) && keeps(l);
    let kept = levels.iter().filter(|l| keeps(l)).count();
    for l in levels {
        assert_eq!(
            grim_levels::check_level(spec, l).is_ok(),
            keeps(l),
            "the referee against the brute force on\n{}{:?}",
            l.to_text(spec),
            grim_levels::check_level(spec, l)
        );
    }
    let options = GridOptions::default();
    let export = GridModel::build(spec, &options).expect("the export builds");
    let propagated = GridModel::build_for_propagator(spec, &options).expect("the model builds");
    for (name, model) in [("export", &export), ("propagated", &propagated)] {
        let mut s = engine(model);
        for l in levels {
            let got = s.solve(&assumptions(model, spec, l), Budget::UNLIMITED);
            assert!(
                s.propagator_error().is_none(),
                "{name}: the propagator failed"
            );
            assert_eq!(
                got == Status::Sat,
                keeps(l),
                "{name} model on\n{}",
                l.to_text(spec)
            );
        }
        assert_eq!(
            checked_model_count(model, spec),
            kept,
            "levels the {name} model admits"
        );
    }
    (kept, levels.len() - kept)
}

/// How many levels `model` admits ([`model_levels`]), asserting that each passes the referee
/// and that the propagator reported no error.
pub fn checked_model_count(model: &GridModel, spec: &GridSpec) -> usize {
    let (found, propagator_error) = model_levels(model, spec);
    for level in &found {
        assert!(
            grim_levels::check_level(spec, level).is_ok(),
            "a model the referee rejects:\n{}",
            level.to_text(spec)
        );
    }
    assert!(!propagator_error, "the propagator reported an error");
    found.len()
}

/// Every level of `levels`, in order, solved under its [`assumptions`] in one engine holding
/// `model` ([`engine`]): satisfiable exactly when the referee (`grim_levels::check_level`)
/// accepts it, never unknown, with no propagator error on the way. Returns (accepted, rejected) so that a test
/// can assert it saw both. One engine for all of them on purpose: what it learns from one level
/// must not cost another (the incremental use of the enumeration and the soft optimiser).
pub fn referee_agrees_level_by_level(
    model: &GridModel,
    spec: &GridSpec,
    levels: impl IntoIterator<Item = Level>,
) -> (usize, usize) {
    let mut s = engine(model);
    let (mut yes, mut no) = (0, 0);
    for level in levels {
        let verdict = grim_levels::check_level(spec, &level);
        let got = s.solve(&assumptions(model, spec, &level), Budget::UNLIMITED);
        assert_eq!(s.propagator_error(), None);
        assert_ne!(got, Status::Unknown);
        assert_eq!(
            got == Status::Sat,
            verdict.is_ok(),
            "level\n{}referee says {verdict:?}",
            level.to_text(spec)
        );
        if verdict.is_ok() {
            yes += 1;
        } else {
            no += 1;
        }
    }
    (yes, no)
}
