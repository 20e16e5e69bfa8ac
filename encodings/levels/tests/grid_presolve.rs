//! The bounds presolve (issue 41), both ways: on random small specs with contradicting counts,
//! ratios, regions, `requires`, pins, masks and rooted connectivity, whenever the presolve
//! says "no level" the enumeration finds none, and whenever it answers bounds, every level the
//! referee accepts keeps them (no level is lost). And the issue's cases by name: each answered
//! "no level" with the rules that clash, in every connectivity mode, without a search.

use grim_levels::spec::Selection;
use grim_levels::{
    self as grid, Budget, ConnectivityStrategy, GridOptions, GridOutcome, GridSpec, Level,
    Presolved, SplitMix64,
};
use grim_testkit::grid::all_levels;
use serde_json::{Value, json};

/// How many cells of `level` a count's selection holds in its region.
fn count(spec: &GridSpec, level: &Level, sel: &Selection, region: &grid::spec::Region) -> u64 {
    (0..spec.cells())
        .filter(|&c| region.contains(c % spec.width, c / spec.width))
        .filter(|&c| match sel {
            Selection::Tiles(set) => set[level.tiles[c]],
            Selection::LayerValue { layer, value } => level.layers[*layer][c] == *value,
        })
        .count() as u64
}

/// A random small spec: 3×2 or 3×3, two or three tiles, maybe a layer whose item requires a
/// tile, pins, a mask, counts over the grid, regions and ratios, maybe a rooted connectivity.
fn random_spec(rng: &mut SplitMix64) -> Value {
    let mut pick = |n: usize| (rng.next_u64() % n as u64) as usize;
    let layer = pick(3) == 0;
    let three = !layer && pick(2) == 0;
    let (w, h) = if layer || three { (3, 2) } else { (3, 3) };
    let names: &[&str] = if three { &["a", "b", "c"] } else { &["a", "b"] };
    let tiles: Vec<Value> = (names.iter().enumerate())
        .map(|(i, n)| {
            let mut t = json!({"name": n, "glyph": n});
            if i > 0 {
                t["classes"] = json!(["k"]);
            }
            t
        })
        .collect();
    let mut doc = json!({"width": w, "height": h, "tiles": tiles});
    let mut selections: Vec<&str> = names.to_vec();
    selections.push("k");
    if layer {
        doc["layers"] = json!([{"name": "items", "values": [
            {"name": "none", "glyph": " "},
            {"name": "item", "glyph": "i", "requires": [names[pick(2)]]}]}]);
        selections.push("items.item");
    }
    let pins: Vec<Value> = (0..pick(3))
        .map(|_| json!({"x": pick(w), "y": pick(h), "tile": names[pick(names.len())]}))
        .collect();
    doc["pins"] = Value::Array(pins);
    if pick(3) == 0 {
        let rows: Vec<Value> = (0..h)
            .map(|_| {
                let row: String = (0..w)
                    .map(|_| match pick(5) {
                        0 => names[pick(names.len())].chars().next().unwrap(),
                        _ => '?',
                    })
                    .collect();
                Value::String(row)
            })
            .collect();
        doc["mask"] = Value::Array(rows);
    }
    let n = w * h;
    let counts: Vec<Value> = (0..1 + pick(3))
        .map(|_| {
            let of = selections[pick(selections.len())];
            let mut c = json!({"of": of});
            match pick(4) {
                0 => {
                    // A ratio of another selection.
                    let per = selections[pick(selections.len())];
                    c["per"] = json!(per);
                    let fractions = [0.0, 0.25, 0.5, 1.0];
                    if pick(2) == 0 {
                        c["min"] = json!(fractions[pick(4)]);
                    } else {
                        c["max"] = json!(fractions[pick(4)]);
                    }
                }
                1 => {
                    // A region, absolute or a ratio of its cells.
                    let (x, y) = (pick(w), pick(h));
                    let (rw, rh) = (1 + pick(w - x), 1 + pick(h - y));
                    c["region"] = json!({"x": x, "y": y, "w": rw, "h": rh});
                    if pick(2) == 0 {
                        c["min"] = json!(pick(rw * rh + 1));
                    } else {
                        c["max"] = json!([0.0, 0.34, 0.5][pick(3)]);
                    }
                }
                _ => {
                    let lo = pick(n + 1);
                    match pick(3) {
                        0 => c["min"] = json!(lo),
                        1 => c["max"] = json!(lo),
                        _ => {
                            c["min"] = json!(lo);
                            c["max"] = json!(lo + pick(3));
                        }
                    }
                }
            }
            c
        })
        .collect();
    doc["counts"] = Value::Array(counts);
    if pick(2) == 0 {
        let mut c = json!({"class": selections[pick(names.len() + 1)]});
        if pick(3) > 0 {
            c["root"] = json!({"x": pick(w), "y": pick(h)});
        }
        doc["connectivity"] = json!([c]);
    }
    doc
}

#[test]
fn presolved_no_level_is_confirmed_by_enumeration_and_presolved_bounds_lose_no_level() {
    let mut rng = SplitMix64::new(41);
    let (mut empty, mut bounded, mut tightened, mut invalid) = (0, 0, 0, 0);
    for case in 0..260 {
        let doc = random_spec(&mut rng);
        let Ok(spec) = GridSpec::from_json(&doc.to_string()) else {
            invalid += 1;
            continue;
        };
        let presolved = match grid::presolve(&spec) {
            Ok(p) => p,
            Err(e) => {
                // Only a count whose own min exceeds its max is refused here.
                assert!(
                    e.to_string().contains("is above \"max\""),
                    "case {case}: {e}"
                );
                invalid += 1;
                continue;
            }
        };
        let valid: Vec<Level> = all_levels(&spec)
            .into_iter()
            .filter(|l| grid::check_level(&spec, l).is_ok())
            .collect();
        match presolved {
            Presolved::NoLevel { clash } => {
                empty += 1;
                assert!(!clash.is_empty(), "case {case}: nothing named: {doc}");
                assert!(
                    valid.is_empty(),
                    "case {case}: presolve said no level ({clash:?}) but {} exist: {doc}",
                    valid.len()
                );
            }
            Presolved::Bounds(bounds) => {
                bounded += 1;
                let mut tighter = false;
                for level in &valid {
                    for (c, &t) in level.tiles.iter().enumerate() {
                        assert!(
                            bounds.domains[c][t],
                            "case {case}: cell {c} holds tile {t}, excluded: {doc}"
                        );
                    }
                    for (i, rule) in spec.counts.iter().enumerate() {
                        let Some((lo, hi)) = bounds.counts[i] else {
                            continue;
                        };
                        let n = count(&spec, level, &rule.of, &rule.region);
                        assert!(
                            lo <= n && n <= hi,
                            "case {case}: counts[{i}] is {n} outside [{lo}, {hi}]: {doc}"
                        );
                    }
                    for (sel, region, lo, hi) in &bounds.sums {
                        let n = count(&spec, level, sel, region);
                        assert!(*lo <= n && n <= *hi, "case {case}: a sum: {doc}");
                    }
                }
                tighter |= bounds.domains != spec.domains;
                tighter |= (spec.counts.iter().zip(&bounds.counts)).any(|(r, b)| {
                    let cells = r.region.cells() as u64;
                    let lo = r.min.map_or(0, |m| m.lower(cells));
                    let hi = r.max.map_or(cells, |m| m.upper(cells)).min(cells);
                    r.per.is_none() && b.is_some_and(|(l, h)| l > lo || h < hi)
                });
                tightened += usize::from(tighter);
                if valid.is_empty() {
                    // Not refuted by the presolve: the search must still say so.
                    let got = grid::solve(&spec, &GridOptions::default(), Budget::UNLIMITED);
                    assert!(
                        matches!(got, Ok(GridOutcome::NoLevel { .. })),
                        "case {case}: {got:?}: {doc}"
                    );
                }
            }
        }
    }
    assert!(
        empty >= 40 && bounded >= 40 && tightened >= 20,
        "no level {empty}, bounds {bounded} (tighter {tightened}), invalid {invalid}"
    );
}

/// `solve` in every connectivity mode answers "no level" naming exactly `paths` (those of
/// them that start with a `*` are only required to be among the named).
fn no_level_in_every_mode(json: &str, expected: &[&str]) {
    let spec = GridSpec::from_json(json).unwrap();
    for strategy in [
        ConnectivityStrategy::Propagator,
        ConnectivityStrategy::Lazy,
        ConnectivityStrategy::Eager,
    ] {
        // A small budget: the presolve answers without a search, and a search of these
        // specs is what took minutes before it.
        let got = grid::solve_with(
            &spec,
            &GridOptions::default(),
            Budget::conflicts(10_000),
            strategy,
        );
        let Ok((GridOutcome::NoLevel { clash }, stats)) = &got else {
            panic!("{strategy:?}: {got:?}");
        };
        assert_eq!(stats.conflicts, 0, "{strategy:?}: a search ran");
        let paths: Vec<&str> = clash.iter().map(|r| r.path.as_str()).collect();
        for p in expected {
            assert!(paths.contains(p), "{strategy:?}: {p} not in {paths:?}");
        }
    }
}

#[test]
fn water_at_most_30_and_at_least_40_on_20x20_is_no_level_at_once() {
    let json = r##"{"width": 20, "height": 20,
      "tiles": [{"name": "wall", "glyph": "#"}, {"name": "water", "glyph": "~"}],
      "counts": [{"of": "water", "max": 30}, {"of": "water", "min": 40}]}"##;
    no_level_in_every_mode(json, &["counts[0]", "counts[1]"]);
}

/// The enemies-per-floor arithmetic: `floor ≥ f`, `enemies ≤ e`, `enemies ≥ ½ floor` with
/// `2e < f`, enemies only on floor.
fn enemies(side: usize, floor: &str, cap: u64) -> String {
    format!(
        r##"{{"width": {side}, "height": {side},
          "tiles": [{{"name": "wall", "glyph": "#"}}, {{"name": "floor", "glyph": "."}},
                    {{"name": "door", "glyph": "+"}}],
          "layers": [{{"name": "items", "values": [{{"name": "none", "glyph": " "}},
                      {{"name": "enemy", "glyph": "e", "requires": ["floor"]}}]}}],
          "counts": [{{"of": "floor", "min": {floor}}}, {{"of": "items.enemy", "max": {cap}}},
                     {{"of": "items.enemy", "per": "floor", "min": 0.5}}],
          "connectivity": [{{"class": ["floor", "door"], "root": "any"}}]}}"##
    )
}

#[test]
fn enemies_capped_below_half_the_floor_on_20x20_is_no_level_at_once() {
    no_level_in_every_mode(
        &enemies(20, "0.35", 8),
        &["counts[0]", "counts[1]", "counts[2]"],
    );
}

#[test]
fn enemies_capped_below_half_the_floor_on_12x12_is_no_level_at_once() {
    no_level_in_every_mode(
        &enemies(12, "10", 3),
        &["counts[0]", "counts[1]", "counts[2]"],
    );
}

#[test]
fn a_root_walled_in_by_pins_is_no_level_at_once() {
    let side = 20;
    let mask: Vec<String> = (0..side)
        .map(|y| {
            (0..side)
                .map(|x| {
                    if x == 0 || y == 0 || x == side - 1 || y == side - 1 {
                        '#'
                    } else {
                        '?'
                    }
                })
                .collect()
        })
        .collect();
    let doc = json!({"width": side, "height": side,
        "tiles": [{"name": "wall", "glyph": "#"}, {"name": "floor", "glyph": "."},
                  {"name": "door", "glyph": "+"}],
        "mask": mask,
        "pins": [{"x": 1, "y": 1, "tile": "floor"}, {"x": 1, "y": 2, "tile": "wall"},
                 {"x": 2, "y": 1, "tile": "wall"}],
        "counts": [{"of": "floor", "min": 0.35, "max": 0.60}],
        "connectivity": [{"class": ["floor", "door"], "root": {"x": 1, "y": 1}}]});
    no_level_in_every_mode(
        &doc.to_string(),
        &["pins[1]", "pins[2]", "counts[0]", "connectivity[0]"],
    );
}

#[test]
fn a_count_whose_min_exceeds_its_max_after_rounding_is_a_spec_error_naming_it() {
    // 0.3 and 0.32 of a 3-cell region: at least 1 (0.9 rounded up), at most 0 (0.96 down).
    let json = r##"{"width": 3, "height": 3,
      "tiles": [{"name": "wall", "glyph": "#"}, {"name": "floor", "glyph": "."}],
      "counts": [{"of": "floor", "min": 2},
                 {"of": "floor", "region": {"x": 0, "y": 0, "w": 3, "h": 1},
                  "min": 0.3, "max": 0.32}]}"##;
    let err = GridSpec::from_json(json).unwrap_err();
    assert_eq!(
        err.to_string(),
        "counts[1]: \"min\" 0.3 is above \"max\" 0.32: of the region's 3 cells, min rounds up \
         to 1 and max down to 0, so no count meets both"
    );
}
