//! Counts as integers (issue 41, `GridOptions::count_ints`, `families/counts/ints.rs`) against
//! enumeration: on tiny grids the propagated model with integer counts admits exactly the
//! levels the referee accepts; on random small specs whose counts meet regions (nested and
//! overlapping), ratios, `requires`, pins, adjacency and connectivity, the propagated model
//! (no presolve in front of it) has a level exactly when enumeration finds one, and every level
//! the solve returns passes the referee. And the cases the presolve cannot answer, by name.

use grim_levels::{
    self as grid, Budget, GridModel, GridOptions, GridOutcome, GridSpec, Presolved, SplitMix64,
    check_level,
};
use grim_solver::Status;
use grim_testkit::grid::{all_levels, engine, referee_agrees_level_by_level};
use serde_json::{Value, json};

fn ints() -> GridOptions {
    GridOptions {
        count_ints: Some(true),
        soft_preferences: Some(false),
        ..GridOptions::default()
    }
}

/// Every level of `json`: the propagated model with integer counts admits it (under its cell
/// and layer assumptions) exactly when the referee accepts it. Returns (accepted, rejected).
fn both_ways(json: &str) -> (usize, usize) {
    let spec = GridSpec::from_json(json).unwrap_or_else(|e| panic!("{e}\n{json}"));
    let model = GridModel::build_for_propagator(&spec, &ints()).unwrap();
    referee_agrees_level_by_level(&model, &spec, all_levels(&spec))
}

const ABC: &str = r#""tiles": [{"name": "a", "glyph": "a"},
    {"name": "b", "glyph": "b", "classes": ["k"]}, {"name": "c", "glyph": "c", "classes": ["k"]}]"#;

#[test]
fn nested_regions_and_classes_as_integers_admit_exactly_the_referee_s_levels() {
    // b in the grid, in a region inside it, and in a region inside that; the class k (b or
    // c) around b; a ratio between them: the integers of nested cells are linked by the
    // integer of their difference.
    let (yes, no) = both_ways(&format!(
        r#"{{"width": 3, "height": 2, {ABC}, "counts": [
            {{"of": "b", "min": 2, "max": 4}},
            {{"of": "b", "region": {{"x": 0, "y": 0, "w": 2, "h": 2}}, "max": 2}},
            {{"of": "b", "region": {{"x": 0, "y": 0, "w": 1, "h": 2}}, "min": 1}},
            {{"of": "k", "max": 5}},
            {{"of": "c", "per": "k", "max": 0.5}}]}}"#
    ));
    assert!(yes > 10 && no > 100, "accepted {yes}, rejected {no}");
}

#[test]
fn layer_ratios_and_requires_as_integers_admit_exactly_the_referee_s_levels() {
    let (yes, no) = both_ways(
        r#"{"width": 3, "height": 2,
            "tiles": [{"name": "a", "glyph": "a"}, {"name": "b", "glyph": "b"}],
            "layers": [{"name": "it", "values": [{"name": "none", "glyph": " "},
                {"name": "gem", "glyph": "*", "requires": "b"}]}],
            "counts": [{"of": "it.gem", "per": "b", "min": 0.5},
                       {"of": "b", "region": {"x": 1, "y": 0, "w": 2, "h": 2}, "min": 2},
                       {"of": "it.gem", "max": 2}]}"#,
    );
    assert!(yes > 10 && no > 100, "accepted {yes}, rejected {no}");
}

/// A random small spec whose counts meet other rules: 3×2 or 3×3, tiles a, b, c (b and c in
/// class k), maybe a layer value requiring a tile, pins, a forbidden adjacency, counts over
/// nested and overlapping regions and ratios, maybe a rooted connectivity.
fn random_spec(rng: &mut SplitMix64) -> Value {
    let mut pick = |n: usize| (rng.next_u64() % n as u64) as usize;
    let layer = pick(3) == 0;
    let (w, h) = if layer { (3, 2) } else { (3, 2 + pick(2)) };
    let names = ["a", "b", "c"];
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
    let mut selections = vec!["a", "b", "c", "k"];
    if layer {
        doc["layers"] = json!([{"name": "it", "values": [
            {"name": "none", "glyph": " "},
            {"name": "gem", "glyph": "*", "requires": [names[1 + pick(2)]]}]}]);
        selections.push("it.gem");
    }
    let pins: Vec<Value> = (0..pick(3))
        .map(|_| json!({"x": pick(w), "y": pick(h), "tile": names[pick(3)]}))
        .collect();
    doc["pins"] = Value::Array(pins);
    if pick(3) > 0 {
        let pairs: Vec<Value> = (0..1 + pick(2))
            .map(|_| json!([names[pick(3)], names[pick(3)]]))
            .collect();
        doc["adjacency"] = json!({"forbid": pairs});
    }
    let regions = [
        json!({"x": 0, "y": 0, "w": w, "h": h}),
        json!({"x": 0, "y": 0, "w": 2, "h": h}),
        json!({"x": 1, "y": 0, "w": 2, "h": h}),
        json!({"x": 0, "y": 0, "w": 1, "h": h}),
        json!({"x": 0, "y": 0, "w": 2, "h": 1}),
    ];
    let counts: Vec<Value> = (0..2 + pick(3))
        .map(|_| {
            let of = selections[pick(selections.len())];
            let region = regions[pick(regions.len())].clone();
            let cells = region["w"].as_u64().unwrap() * region["h"].as_u64().unwrap();
            let mut c = json!({"of": of, "region": region});
            if pick(4) == 0 {
                c["per"] = json!(selections[pick(selections.len())]);
                let f = [0.25, 0.5, 1.0][pick(3)];
                c[if pick(2) == 0 { "min" } else { "max" }] = json!(f);
            } else {
                let lo = pick(cells as usize + 1);
                match pick(3) {
                    0 => c["min"] = json!(lo),
                    1 => c["max"] = json!(lo),
                    _ => {
                        c["min"] = json!(lo);
                        c["max"] = json!(lo + pick(2));
                    }
                }
            }
            c
        })
        .collect();
    doc["counts"] = Value::Array(counts);
    if pick(3) == 0 {
        let mut c = json!({"class": selections[pick(4)]});
        if pick(2) == 0 {
            c["root"] = json!({"x": pick(w), "y": pick(h)});
        }
        doc["connectivity"] = json!([c]);
    }
    doc
}

#[test]
fn integer_counts_answer_as_enumeration_does_on_random_small_specs() {
    let mut rng = SplitMix64::new(0x41_17);
    let (mut levels, mut none, mut unseen) = (0, 0, 0);
    for case in 0..120 {
        let doc = random_spec(&mut rng);
        let Ok(spec) = GridSpec::from_json(&doc.to_string()) else {
            continue; // a count whose min is above its max
        };
        // The propagated model alone, with no presolve in front of it.
        let model = GridModel::build_for_propagator(&spec, &ints()).unwrap();
        let valid = engine_agrees_with_enumeration(&model, &spec, &format!("case {case}: {doc}"));
        // The whole solve, presolve first: a level that passes the referee, or "no level".
        match grid::solve(&spec, &ints(), Budget::UNLIMITED) {
            Ok(GridOutcome::Level(level)) => {
                assert!(valid, "case {case}: a level where none exists: {doc}");
                assert_eq!(check_level(&spec, &level), Ok(()), "case {case}: {doc}");
                levels += 1;
            }
            Ok(GridOutcome::NoLevel { .. }) => {
                assert!(
                    !valid,
                    "case {case}: no level, yet enumeration finds one: {doc}"
                );
                none += 1;
                let presolved = grid::presolve(&spec);
                unseen += usize::from(matches!(presolved, Ok(Presolved::Bounds(_))));
            }
            other => panic!("case {case}: {other:?}: {doc}"),
        }
    }
    assert!(
        levels > 40 && none > 30 && unseen >= 5,
        "levels {levels}, no level {none} (the presolve blind to {unseen})"
    );
}

/// Two ratios that allow only an empty map, and one water cell pinned: the presolve answers
/// by the cycle's product (its interval propagation alone stepped one cell per visit and
/// stopped at its cap); the integers, with no presolve in front, step inside one propagation
/// at the root.
#[test]
fn ratios_in_a_cycle_below_one_are_no_level_in_the_presolve_and_without_a_conflict() {
    let doc = json!({"width": 20, "height": 20,
        "tiles": [{"name": "wall", "glyph": "#"}, {"name": "water", "glyph": "~"},
                  {"name": "lava", "glyph": "^"}],
        "pins": [{"x": 10, "y": 10, "tile": "water"}],
        "counts": [{"of": "water", "per": "lava", "max": 0.999},
                   {"of": "lava", "per": "water", "max": 0.999}]});
    let spec = GridSpec::from_json(&doc.to_string()).unwrap();
    assert!(matches!(
        grid::presolve(&spec),
        Ok(Presolved::NoLevel { .. })
    ));
    let model = GridModel::build_for_propagator(&spec, &ints()).unwrap();
    let mut s = engine(&model);
    assert_eq!(s.solve(&[], Budget::conflicts(1_000)), Status::Unsat);
    assert_eq!(s.stats().conflicts, 0);
}

/// Two soft counts over the same cells that contradict: each core is one conflict between
/// their bound literals, and the optimum breaks the cheaper one.
#[test]
fn contradicting_soft_counts_cost_the_cheaper_one() {
    let doc = json!({"width": 12, "height": 12,
        "tiles": [{"name": "wall", "glyph": "#"}, {"name": "water", "glyph": "~"}],
        "counts": [{"of": "water", "max": 30, "weight": 2},
                   {"of": "water", "min": 40, "weight": 3}]});
    let spec = GridSpec::from_json(&doc.to_string()).unwrap();
    let options = ints();
    let got = grid::solve(&spec, &options, Budget::conflicts(10_000));
    let Ok(GridOutcome::Level(level)) = got else {
        panic!("{got:?}");
    };
    assert_eq!(grid::level_cost(&spec, &options, &level), 2);
}

/// The issue's cases with no presolve in front: the propagated model with integer counts is
/// refuted at the root, before any conflict ("water ≤ 30" against "water ≥ 40"; "floor ≥ 35 %",
/// "enemies ≤ 8" and "enemies ≥ ½ floor", the small cap on the ratio's integer).
#[test]
fn the_issue_s_contradicting_counts_are_refuted_at_the_root_without_the_presolve() {
    let water = r##"{"width": 20, "height": 20,
        "tiles": [{"name": "wall", "glyph": "#"}, {"name": "water", "glyph": "~"}],
        "counts": [{"of": "water", "max": 30}, {"of": "water", "min": 40}]}"##;
    let enemies = r##"{"width": 20, "height": 20,
        "tiles": [{"name": "wall", "glyph": "#"}, {"name": "floor", "glyph": "."}],
        "layers": [{"name": "items", "values": [{"name": "none", "glyph": " "},
            {"name": "enemy", "glyph": "e", "requires": "floor"}]}],
        "counts": [{"of": "floor", "min": 0.35}, {"of": "items.enemy", "max": 8},
                   {"of": "items.enemy", "per": "floor", "min": 0.5}]}"##;
    for json in [water, enemies] {
        let spec = GridSpec::from_json(json).unwrap();
        let model = GridModel::build_for_propagator(&spec, &ints()).unwrap();
        let mut s = engine(&model);
        assert_eq!(
            s.solve(&[], Budget::conflicts(1_000)),
            Status::Unsat,
            "{json}"
        );
        assert_eq!(s.stats().conflicts, 0, "{json}");
    }
}

/// Counts over nested cells (a 10×10 region inside the 20×20 map) are linked by the rows
/// `N(inner) ≤ N(outer) ≤ N(inner) + |rest|`: with no presolve in front, "≥ 30 inside" against
/// "≤ 25 in all", and "≤ 20 inside" against "≥ 321 in all" (300 cells outside), are refuted
/// before any conflict; one cell less on the second ("≥ 320") is a level, which passes the
/// referee: the rows cut no level.
#[test]
fn nested_counts_refute_each_other_at_the_root_and_cut_no_level() {
    let spec = |inner: Value, outer: Value| {
        let doc = json!({"width": 20, "height": 20,
            "tiles": [{"name": "wall", "glyph": "#"}, {"name": "water", "glyph": "~"}],
            "counts": [inner, outer]});
        GridSpec::from_json(&doc.to_string()).unwrap()
    };
    let region = json!({"x": 5, "y": 5, "w": 10, "h": 10});
    let cases = [
        (
            json!({"of": "water", "region": region, "min": 30}),
            json!({"of": "water", "max": 25}),
            false,
        ),
        (
            json!({"of": "water", "region": region, "max": 20}),
            json!({"of": "water", "min": 321}),
            false,
        ),
        (
            json!({"of": "water", "region": region, "max": 20}),
            json!({"of": "water", "min": 310}),
            true,
        ),
    ];
    for (inner, outer, level) in cases {
        let spec = spec(inner, outer);
        let model = GridModel::build_for_propagator(&spec, &ints()).unwrap();
        let mut s = engine(&model);
        let got = s.solve(&[], Budget::conflicts(100_000));
        assert_eq!(s.propagator_error(), None);
        if level {
            assert_eq!(got, Status::Sat);
            let values = s.model().expect("a model after Sat");
            let found = model.decode(&values).unwrap();
            check_level(&spec, &found).unwrap();
        } else {
            assert_eq!(got, Status::Unsat);
            assert_eq!(s.stats().conflicts, 0);
        }
    }
}

/// Whether `spec` has a level by enumeration (one the referee accepts); asserts that the
/// engine on `model` alone answers the same, without a propagator error, and that its level
/// passes the referee. `what` names the case in a failure.
fn engine_agrees_with_enumeration(model: &GridModel, spec: &GridSpec, what: &str) -> bool {
    let valid = all_levels(spec)
        .into_iter()
        .any(|l| check_level(spec, &l).is_ok());
    let mut s = engine(model);
    let got = s.solve(&[], Budget::UNLIMITED);
    assert_eq!(s.propagator_error(), None, "{what}");
    assert_eq!(got == Status::Sat, valid, "{what}");
    if valid {
        let level = model.decode(&s.model().unwrap()).unwrap();
        assert_eq!(check_level(spec, &level), Ok(()), "{what}");
    }
    valid
}

/// Split counts (`GridOptions::count_block`, `ints.rs` "Blocks") forced to blocks of two cells
/// so that they form on tiny grids: on random small specs the propagated model admits every
/// level of a 3×2 spec exactly when the referee accepts it, and on a 3×3 one has a level
/// exactly when enumeration finds one, which passes the referee.
#[test]
fn split_counts_admit_exactly_the_referee_s_levels_on_random_small_specs() {
    let blocked = GridOptions {
        count_block: Some(2),
        ..ints()
    };
    let mut rng = SplitMix64::new(0x41_b10c);
    let (mut split, mut yes, mut no) = (0, 0, 0);
    for case in 0..60 {
        let doc = random_spec(&mut rng);
        let Ok(spec) = GridSpec::from_json(&doc.to_string()) else {
            continue;
        };
        let model = GridModel::build_for_propagator(&spec, &blocked).unwrap();
        let whole = GridModel::build_for_propagator(&spec, &ints()).unwrap();
        split += usize::from(model.problem().num_vars() > whole.problem().num_vars());
        if spec.width * spec.height <= 6 {
            let (y, n) = referee_agrees_level_by_level(&model, &spec, all_levels(&spec));
            yes += y;
            no += n;
            continue;
        }
        engine_agrees_with_enumeration(&model, &spec, &format!("case {case}: {doc}"));
    }
    assert!(
        split > 20 && yes > 50 && no > 1000,
        "split {split}, accepted {yes}, rejected {no}"
    );
}
