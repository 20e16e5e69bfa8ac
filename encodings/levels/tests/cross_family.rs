//! Several rule families at once in the propagated model, against the referee: the search parts
//! of the grid propagator (one per family, run in rank order, stopping at the first conflict)
//! must keep their state right when another part's conflict backtracks the engine before they
//! ran — the per-family tests mostly check one family at a time, and a stale pending cell of
//! the connectivity part (fixed in 7477e74) showed that only a mix catches such bugs.
//!
//! Random small masked grids (3×3 to 5×5, at most 2¹¹ tilings) mixing connectivity (rooted and
//! "any"), paths (`max_length`, `min_length`), ratio counts (always left to the count part),
//! acyclic, chokepoints (`max`, `min`, `loop`), dead ends, runs, separation (Manhattan and
//! walking) and locks. For each spec, every tiling the domains allow is judged by the referee
//! (`check_level`); one engine holding the propagated model solves them one after another under
//! assumptions (file order, then shuffled orders) and must be satisfiable exactly on the
//! accepted ones with no propagator error; the model admits exactly as many levels as the
//! referee accepts; and a fresh `grim_levels::solve` answers "no level" exactly when the
//! referee accepts none. `CROSS_FAMILY_ROUNDS` (default 60) sets the number of specs.

use grim_levels::{GridModel, GridOptions, GridOutcome, GridSpec, Level, check_level};
use grim_solver::{Budget, Status};
use grim_testkit::SplitMix64;
use grim_testkit::grid::{assumptions, checked_model_count, engine, fitting};

/// Pick one of `options` at random.
fn pick<'a>(rng: &mut SplitMix64, options: &[&'a str]) -> &'a str {
    options[rng.index(options.len())]
}

/// A random spec: a mask over 3 or 4 tiles (wall, floor, maybe gem and door for locks and
/// separation), then three to five rules of different families. Returns its JSON.
fn random_spec(rng: &mut SplitMix64) -> String {
    let w = 3 + rng.index(3);
    let h = 3 + rng.index(3);
    let locks = rng.below(4) == 0;
    let gem = locks || rng.below(2) == 0;
    let mut tiles = vec![
        r##"{"name": "wall", "glyph": "#"}"##,
        r##"{"name": "floor", "glyph": "."}"##,
    ];
    let mut glyphs = vec!['#', '.'];
    if gem {
        tiles.push(r##"{"name": "gem", "glyph": "g"}"##);
        glyphs.push('g');
    }
    if locks {
        tiles.push(r##"{"name": "door", "glyph": "+"}"##);
        glyphs.push('+');
    }
    let k = glyphs.len() as f64;
    let mut cells: Vec<char> = (0..w * h)
        .map(|_| match rng.below(10) {
            0 | 1 => '#',
            2 => '.',
            _ => '?',
        })
        .collect();
    cells[0] = '.';
    // At most 2^11 tilings: free cells have `k` tiles each.
    let limit = (11.0 / k.log2()).floor() as usize;
    while cells.iter().filter(|&&c| c == '?').count() > limit {
        let c = rng.index(w * h);
        if cells[c] == '?' {
            cells[c] = glyphs[rng.index(2)];
        }
    }
    let rows: Vec<String> = cells
        .chunks(w)
        .map(|r| format!("\"{}\"", r.iter().collect::<String>()))
        .collect();
    let (lx, ly) = (w - 1, h - 1);
    let mut rules: Vec<String> = Vec::new();
    let mut families: Vec<usize> = (0..10).collect();
    // A random subset of three to five families, in random order.
    for i in (1..families.len()).rev() {
        families.swap(i, rng.index(i + 1));
    }
    let n = 3 + rng.index(3);
    let mut keys: Vec<&str> = Vec::new();
    let floorish = if locks {
        r##"["floor", "gem"]"##
    } else {
        r##""floor""##
    };
    for &f in &families[..n] {
        let (key, body) = match f {
            0 => {
                let root = if rng.below(2) == 0 {
                    r##""any""##.to_string()
                } else {
                    r##"{"x": 0, "y": 0}"##.to_string()
                };
                ("connectivity", format!(r##"{{"class": "floor", "root": {root}}}"##))
            }
            1 => {
                let through = pick(rng, &[r##""floor""##, floorish]);
                let to = if rng.below(3) == 0 && gem {
                    r##""gem""##.to_string()
                } else {
                    format!(r##"{{"x": {lx}, "y": {ly}}}"##)
                };
                let mut extra = String::new();
                if rng.below(2) == 0 {
                    extra += &format!(r##", "max_length": {}"##, lx + ly + rng.index(4));
                }
                if rng.below(2) == 0 {
                    extra += &format!(r##", "min_length": {}"##, 1 + rng.index(lx + ly + 2));
                }
                (
                    "paths",
                    format!(r##"{{"from": {{"x": 0, "y": 0}}, "to": {to}, "through": {through}{extra}}}"##),
                )
            }
            2 => {
                let (of, per) = if gem && rng.below(2) == 0 {
                    ("gem", "floor")
                } else {
                    ("floor", "wall")
                };
                let mut b = Vec::new();
                let a = 0.1 + 0.1 * rng.index(6) as f64;
                if rng.below(2) == 0 {
                    b.push(format!(r##""min": {a:.1}"##));
                }
                if b.is_empty() || rng.below(2) == 0 {
                    b.push(format!(r##""max": {:.1}"##, (a + 0.1 * rng.index(8) as f64).min(1.0)));
                }
                // `per` ratios go to the count part of the propagator whatever their size.
                (
                    "counts",
                    format!(r##"{{"of": "{of}", "per": "{per}", {}}}"##, b.join(", ")),
                )
            }
            3 => ("acyclic", r##"{"class": "floor"}"##.to_string()),
            4 => {
                let b = pick(
                    rng,
                    &[r##""max": 0"##, r##""max": 1"##, r##""min": 1"##, r##""loop": true"##, r##""min": 1, "max": 2"##],
                );
                ("chokepoints", format!(r##"{{"class": "floor", {b}}}"##))
            }
            5 => {
                let b = pick(rng, &[r##""max": 0"##, r##""max": 1"##, r##""min": 1"##, r##""min": 1, "max": 2"##]);
                ("dead_ends", format!(r##"{{"class": "floor", {b}}}"##))
            }
            6 => {
                let axis = pick(rng, &["row", "column", "both"]);
                let max = 1 + rng.index(3);
                ("runs", format!(r##"{{"of": "floor", "max": {max}, "axis": "{axis}"}}"##))
            }
            7 => {
                let of = if gem { "gem" } else { "floor" };
                let d = 2 + rng.index(3);
                let metric = if rng.below(2) == 0 {
                    r##", "metric": "walk", "through": "floor""##
                } else {
                    ""
                };
                ("separation", format!(r##"{{"of": "{of}", "min_distance": {d}{metric}}}"##))
            }
            8 if locks => (
                "locks",
                r##"{"start": {"x": 0, "y": 0}, "through": ["floor", "gem"], "colors": [{"key": "gem", "door": "door"}]}"##
                    .to_string(),
            ),
            _ => {
                // A second connectivity-like family when locks are off: connectivity "any"
                // over floor or a second path.
                (
                    "paths",
                    format!(
                        r##"{{"from": {{"x": 0, "y": 0}}, "to": {{"x": {lx}, "y": 0}}, "through": "floor", "max_length": {}}}"##,
                        lx + rng.index(3)
                    ),
                )
            }
        };
        if !keys.contains(&key) {
            keys.push(key);
        }
        rules.push(format!("\"{key}\": [{body}]"));
    }
    // The same key twice: merge into one array.
    let mut merged: Vec<String> = Vec::new();
    for key in &keys {
        let bodies: Vec<&str> = rules
            .iter()
            .filter(|r| r.starts_with(&format!("\"{key}\"")))
            .map(|r| {
                let start = r.find('[').unwrap() + 1;
                &r[start..r.len() - 1]
            })
            .collect();
        merged.push(format!("\"{key}\": [{}]", bodies.join(", ")));
    }
    format!(
        r##"{{"width": {w}, "height": {h}, "tiles": [{}], "mask": [{}], {}}}"##,
        tiles.join(", "),
        rows.join(", "),
        merged.join(", ")
    )
}

/// Solve every level of `order` in one engine; panics on the first disagreement with the
/// referee's verdict `accepted`.
fn one_engine(
    json: &str,
    spec: &GridSpec,
    model: &GridModel,
    levels: &[Level],
    accepted: &[bool],
    order: &[usize],
) {
    let mut s = engine(model);
    for (step, &i) in order.iter().enumerate() {
        let got = s.solve(&assumptions(model, spec, &levels[i]), Budget::UNLIMITED);
        assert!(
            s.propagator_error().is_none(),
            "propagator error at step {step}\n{json}"
        );
        assert_eq!(
            got == Status::Sat,
            accepted[i],
            "step {step} of order {:?}: the engine against the referee ({:?}) on\n{}\nspec {json}\nlevels before: {}",
            &order[..=step],
            check_level(spec, &levels[i]),
            levels[i].to_text(spec),
            order[..step]
                .iter()
                .map(|&j| format!("\n{}(referee {})", levels[j].to_text(spec), accepted[j]))
                .collect::<String>()
        );
    }
}

/// Everything the module doc lists, on one spec. Returns (accepted, rejected), or `None` when
/// the spec is refused by the parser or the builder (a random spec may be inconsistent).
fn check_spec(json: &str, rng: &mut SplitMix64, shuffles: usize) -> Option<(usize, usize)> {
    if std::env::var("CROSS_FAMILY_VERBOSE").is_ok() {
        eprintln!("{json}");
    }
    let spec = GridSpec::from_json(json).ok()?;
    let levels = fitting(&spec);
    let accepted: Vec<bool> = levels
        .iter()
        .map(|l| check_level(&spec, l).is_ok())
        .collect();
    let kept = accepted.iter().filter(|&&a| a).count();
    let options = GridOptions::default();
    let outcome = grim_levels::solve(&spec, &options, Budget::UNLIMITED);
    match &outcome {
        Ok(GridOutcome::Level(l)) => {
            assert!(
                kept > 0,
                "solve found a level, the referee accepts none\n{json}"
            );
            assert!(
                check_level(&spec, l).is_ok(),
                "solve's level refused\n{json}"
            );
        }
        Ok(GridOutcome::NoLevel { .. }) => {
            assert_eq!(
                kept, 0,
                "solve said no level, the referee accepts {kept}\n{json}"
            )
        }
        Ok(other) => panic!("unlimited solve stopped: {other:?}\n{json}"),
        Err(_) => {}
    }
    let mut tried_model = false;
    for count_ints in [false, true] {
        let options = GridOptions {
            count_ints: Some(count_ints),
            ..GridOptions::default()
        };
        let Ok(model) = GridModel::build_for_propagator(&spec, &options) else {
            continue;
        };
        tried_model = true;
        let mut order: Vec<usize> = (0..levels.len()).collect();
        one_engine(json, &spec, &model, &levels, &accepted, &order);
        for _ in 0..shuffles {
            for i in (1..order.len()).rev() {
                order.swap(i, rng.index(i + 1));
            }
            one_engine(json, &spec, &model, &levels, &accepted, &order);
        }
        assert_eq!(
            checked_model_count(&model, &spec),
            kept,
            "levels the propagated model admits (count_ints {count_ints})\n{json}"
        );
    }
    if !tried_model {
        assert!(outcome.is_err() || kept == 0, "no model but levels\n{json}");
        return None;
    }
    Some((kept, levels.len() - kept))
}

#[test]
fn mixed_families_admit_exactly_the_referees_levels_one_after_another() {
    let rounds: usize = std::env::var("CROSS_FAMILY_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(60);
    let seed: u64 = std::env::var("CROSS_FAMILY_SEED")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(0x0c05_5fa7);
    let mut rng = SplitMix64::new(seed);
    let (mut specs, mut kept, mut broken) = (0, 0, 0);
    for _ in 0..rounds {
        let json = random_spec(&mut rng);
        if let Some((k, b)) = check_spec(&json, &mut rng, 2) {
            specs += 1;
            kept += k;
            broken += b;
        }
    }
    assert!(
        specs * 2 > rounds && kept > 0 && broken > 0,
        "the rounds saw {specs} usable specs, {kept} kept and {broken} broken levels"
    );
}

#[test]
fn locks_chokepoints_ratio_dead_ends_and_runs_solve_without_a_crash() {
    let json = r##"{"width": 5, "height": 3, "tiles": [{"name": "wall", "glyph": "#"}, {"name": "floor", "glyph": "."}, {"name": "gem", "glyph": "g"}, {"name": "door", "glyph": "+"}], "mask": [".??..", "?..##", ".?#.?"], "locks": [{"start": {"x": 0, "y": 0}, "through": ["floor", "gem"], "colors": [{"key": "gem", "door": "door"}]}], "chokepoints": [{"class": "floor", "min": 1}], "counts": [{"of": "gem", "per": "floor", "min": 0.5, "max": 0.9}], "dead_ends": [{"class": "floor", "min": 1, "max": 2}], "runs": [{"of": "floor", "max": 3, "axis": "row"}]}"##;
    for seed in 0..20 {
        let mut rng = SplitMix64::new(seed);
        assert!(check_spec(json, &mut rng, 3).is_some());
    }
}
