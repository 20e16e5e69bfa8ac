//! The rules named when no level exists: on hundreds of random small specs, whenever `solve`
//! answers `Unsatisfiable`, the brute force agrees that no level exists, the rules it names
//! admit no level on their own (a spec keeping only them, checked over every tiling by the
//! referee), and dropping any one of them admits a level (the set is minimal).

use grim_levels::{self as grid, GridOptions, GridOutcome, GridSpec, RuleRef, SplitMix64};
use grim_solver::Budget;
use serde_json::{Value, json};

use grim_testkit::grid::all_levels;

/// Whether any tiling keeps every hard rule of `doc` (by the referee).
fn has_level(doc: &Value) -> bool {
    let spec = GridSpec::from_json(&doc.to_string()).unwrap_or_else(|e| panic!("{e}: {doc}"));
    all_levels(&spec)
        .iter()
        .any(|l| grid::check_level(&spec, l).is_ok())
}

/// `doc` keeping only the rules in `keep` (and the grid, tiles and layers).
fn only(doc: &Value, keep: &[RuleRef]) -> Value {
    let named = |path: &str| keep.iter().any(|r| r.path == path);
    let mut out = json!({
        "width": doc["width"], "height": doc["height"], "tiles": doc["tiles"],
    });
    if let Some(layers) = doc.get("layers") {
        let mut layers = layers.clone();
        for (l, layer) in layers.as_array_mut().unwrap().iter_mut().enumerate() {
            for (k, v) in layer["values"]
                .as_array_mut()
                .unwrap()
                .iter_mut()
                .enumerate()
            {
                if !named(&format!("layers[{l}].values[{k}].requires")) {
                    v.as_object_mut().unwrap().remove("requires");
                }
            }
        }
        out["layers"] = layers;
    }
    if let Some(mask) = doc.get("mask") {
        let rows: Vec<Value> = mask
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
            .map(|(y, row)| {
                let row: String = row
                    .as_str()
                    .unwrap()
                    .chars()
                    .enumerate()
                    .map(|(x, ch)| {
                        let kept = keep
                            .iter()
                            .any(|r| r.path == format!("mask[{y}]") && r.cell == Some((x, y)));
                        if kept { ch } else { '?' }
                    })
                    .collect();
                Value::String(row)
            })
            .collect();
        out["mask"] = Value::Array(rows);
    }
    // The entries of a rule list whose names (`prefix[i]`) are kept.
    let kept = |list: &Value, prefix: &str| -> Option<Value> {
        Some(Value::Array(
            list.as_array()?
                .iter()
                .enumerate()
                .filter(|(i, _)| named(&format!("{prefix}[{i}]")))
                .map(|(_, v)| v.clone())
                .collect(),
        ))
    };
    #[rustfmt::skip]
    let lists = ["pins", "allowed", "counts", "enclosure", "connectivity", "paths"];
    for key in lists {
        if let Some(v) = doc.get(key).and_then(|l| kept(l, key)) {
            out[key] = v;
        }
    }
    if let Some(adj) = doc.get("adjacency") {
        let mut a = json!({});
        if let Some(v) = adj.get("forbid").and_then(|l| kept(l, "adjacency.forbid")) {
            a["forbid"] = v;
        }
        if named("adjacency.allow") {
            a["allow"] = adj["allow"].clone();
        }
        if let Some(v) = adj
            .get("directional")
            .and_then(|l| kept(l, "adjacency.directional"))
        {
            a["directional"] = v;
        }
        out["adjacency"] = a;
    }
    out
}

/// A random small spec: 3×3 with two tiles or 3×2 with three, a few rules of every family.
fn random_spec(rng: &mut SplitMix64) -> Value {
    let mut pick = |n: u64| (rng.next_u64() % n) as usize;
    let three = pick(2) == 0;
    let (w, h) = if three { (3, 2) } else { (3, 3) };
    let names: &[&str] = if three { &["a", "b", "c"] } else { &["a", "b"] };
    let tiles: Vec<Value> = names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let mut t = json!({"name": n, "glyph": n});
            if i > 0 {
                t["classes"] = json!(["k"]);
            }
            t
        })
        .collect();
    let mut doc = json!({"width": w, "height": h, "tiles": tiles});
    let name = |p: &mut dyn FnMut(u64) -> usize| -> Value {
        match p(names.len() as u64 + 1) {
            i if i < names.len() => json!(names[i]),
            _ => json!("k"),
        }
    };
    let pins: Vec<Value> = (0..pick(4))
        .map(|_| json!({"x": pick(w), "y": pick(h), "tile": names[pick(names.len() as u64)]}))
        .collect();
    doc["pins"] = Value::Array(pins);
    if pick(3) == 0 {
        let rows: Vec<Value> = (0..h)
            .map(|_| {
                let row: String = (0..w)
                    .map(|_| match pick(6) {
                        0 => names[pick(names.len() as u64)].chars().next().unwrap(),
                        _ => '?',
                    })
                    .collect();
                Value::String(row)
            })
            .collect();
        doc["mask"] = Value::Array(rows);
    }
    if pick(3) == 0 {
        doc["allowed"] = json!([{"x": pick(w), "y": pick(h), "tiles": [name(&mut pick)]}]);
    }
    let dirs = ["N", "E", "S", "W"];
    let mut adj = json!({});
    if pick(2) == 0 {
        adj["forbid"] = json!([[name(&mut pick), name(&mut pick)]]);
    }
    let directional: Vec<Value> = (0..pick(3))
        .map(|_| {
            let key = if pick(2) == 0 { "allow" } else { "forbid" };
            let mut r = json!({"tile": name(&mut pick), "dir": dirs[pick(4)]});
            r[key] = json!([name(&mut pick)]);
            r
        })
        .collect();
    adj["directional"] = Value::Array(directional);
    doc["adjacency"] = adj;
    let counts: Vec<Value> = (0..pick(3))
        .map(|_| {
            let mut c = json!({"of": name(&mut pick)});
            let n = w * h;
            let lo = pick(n + 1);
            match pick(3) {
                0 => c["min"] = json!(lo),
                1 => c["max"] = json!(lo),
                _ => {
                    c["min"] = json!(lo);
                    c["max"] = json!(lo + pick(3));
                }
            }
            c
        })
        .collect();
    doc["counts"] = Value::Array(counts);
    if pick(2) == 0 {
        let mut c = json!({"class": name(&mut pick)});
        if pick(2) == 0 {
            c["root"] = json!({"x": pick(w), "y": pick(h)});
        }
        doc["connectivity"] = json!([c]);
    }
    if pick(4) == 0 {
        doc["enclosure"] =
            json!([{"class": name(&mut pick), "open": name(&mut pick), "min": pick(2)}]);
    }
    if pick(4) == 0 {
        doc["paths"] = json!([{"from": {"x": 0, "y": 0}, "to": {"x": w - 1, "y": h - 1},
            "through": name(&mut pick), "max_length": 2 + pick(3)}]);
    }
    doc
}

#[test]
fn the_named_rules_admit_no_level_together_and_each_one_is_needed() {
    let mut rng = SplitMix64::new(14);
    let (mut unsat, mut sat, mut invalid, mut named) = (0, 0, 0, 0);
    for case in 0..600 {
        let doc = random_spec(&mut rng);
        let Ok(spec) = GridSpec::from_json(&doc.to_string()) else {
            invalid += 1;
            continue;
        };
        match grid::solve(&spec, &GridOptions::default(), Budget::UNLIMITED) {
            Ok(GridOutcome::Level(level)) => {
                assert_eq!(grid::check_level(&spec, &level), Ok(()));
                sat += 1;
            }
            Ok(GridOutcome::NoLevel { clash }) => {
                unsat += 1;
                assert!(!has_level(&doc), "case {case}: solve found no level: {doc}");
                assert!(!clash.is_empty(), "case {case}: nothing named: {doc}");
                named += clash.len();
                assert!(
                    !has_level(&only(&doc, &clash)),
                    "case {case}: the named rules {clash:?} admit a level: {doc}"
                );
                for i in 0..clash.len() {
                    let mut fewer = clash.clone();
                    let dropped = fewer.remove(i);
                    assert!(
                        has_level(&only(&doc, &fewer)),
                        "case {case}: {dropped} is not needed in {clash:?}: {doc}"
                    );
                }
                let message = GridOutcome::NoLevel {
                    clash: clash.clone(),
                }
                .to_string();
                assert!(message.starts_with("no level: "), "{message}");
                for r in &clash {
                    assert!(message.contains(&r.to_string()), "{message}");
                }
            }
            Ok(stopped @ GridOutcome::Stopped { .. }) => {
                panic!("case {case}: {stopped} without a budget: {doc}")
            }
            Err(e) => panic!("case {case}: {e}: {doc}"),
        }
    }
    assert!(
        unsat >= 60 && sat >= 60,
        "unsat {unsat}, sat {sat}, invalid {invalid}"
    );
    assert!(
        named > unsat,
        "every clash had a single rule: {named} for {unsat}"
    );
}

#[test]
fn a_soft_spec_whose_hard_rules_clash_names_them_too() {
    let json = r#"{"width": 3, "height": 3,
      "tiles": [{"name": "wall", "glyph": "%"}, {"name": "floor", "glyph": "."}],
      "pins": [{"x": 0, "y": 0, "tile": "wall"}],
      "counts": [{"of": "floor", "min": 9}, {"of": "wall", "min": 2, "weight": 5}],
      "preferences": {"seed": 1, "mode": "soft"}}"#;
    let spec = GridSpec::from_json(json).unwrap();
    let got = grid::solve(&spec, &GridOptions::default(), Budget::UNLIMITED);
    let Ok(GridOutcome::NoLevel { clash }) = &got else {
        panic!("{got:?}");
    };
    let paths: Vec<&str> = clash.iter().map(|r| r.path.as_str()).collect();
    assert_eq!(paths, ["pins[0]", "counts[0]"]);
    assert_eq!(
        got.unwrap().to_string(),
        "no level: pins[0] (x=0 y=0: wall) and counts[0] (of floor, min 9) cannot both hold"
    );
}

#[test]
fn a_root_that_no_class_tile_may_hold_is_a_spec_error_naming_the_root() {
    let json = r#"{"width": 3, "height": 3,
      "tiles": [{"name": "wall", "glyph": "%"}, {"name": "floor", "glyph": "."}],
      "pins": [{"x": 0, "y": 0, "tile": "floor"}, {"x": 1, "y": 2, "tile": "wall"}],
      "connectivity": [{"class": "floor", "root": {"x": 1, "y": 2}}]}"#;
    assert_eq!(
        GridSpec::from_json(json).unwrap_err().to_string(),
        "connectivity[0].root: cell x=1 y=2 cannot hold the class: pins[1] leaves it only wall"
    );
}
