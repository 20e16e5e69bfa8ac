//! Regenerating a region ([`grid::solve_region`]) and several distinct levels per seed
//! ([`grid::solve_distinct`]), both ways against enumeration on tiny grids: every level
//! returned keeps what it must and passes the referee; a completion (or a further distinct
//! level) is found whenever enumeration says one exists; "no level" names kept cells that
//! really admit none; and with soft rules each answer is the enumerated optimum.

use grim_levels::{
    self as grid, Budget, Distinct, GridError, GridOptions, GridOutcome, GridSpec, Keep,
    KeepProblem, Level, Region, SeriesEnd, check_level, level_cost,
};
use grim_testkit::grid::all_levels;

fn spec(json: &str) -> GridSpec {
    GridSpec::from_json(json).unwrap_or_else(|e| panic!("{e}\n{json}"))
}

/// Three tiles on 3×3: the floor connected, between three and six floor cells, no water
/// beside a wall; 8,954 of the 19,683 levels are rejected somewhere.
const ROOMS: &str = r##"{"width": 3, "height": 3,
  "tiles": [{"name": "wall", "glyph": "#"}, {"name": "floor", "glyph": ".", "classes": ["open"]},
            {"name": "water", "glyph": "~", "classes": ["open"]}],
  "adjacency": {"forbid": [["wall", "water"]]},
  "counts": [{"of": "floor", "min": 3, "max": 6}],
  "connectivity": [{"class": "open"}],
  "preferences": {"seed": 5}}"##;

/// Two tiles and a layer on 2×3: a key only on floor, exactly one key.
const KEYS: &str = r##"{"width": 2, "height": 3,
  "tiles": [{"name": "wall", "glyph": "#"}, {"name": "floor", "glyph": "."}],
  "layers": [{"name": "items", "values": [{"name": "none", "glyph": " "},
             {"name": "key", "glyph": "k", "requires": ["floor"]}]}],
  "counts": [{"of": "items.key", "min": 1, "max": 1}, {"of": "floor", "min": 2}],
  "connectivity": [{"class": "floor"}],
  "preferences": {"seed": 2}}"##;

/// Whether `a` and `b` agree on every cell `kept` marks (tile and every layer value).
fn agree(a: &Level, b: &Level, kept: &[bool]) -> bool {
    (0..kept.len()).filter(|&c| kept[c]).all(|c| {
        a.tiles[c] == b.tiles[c] && a.layers.iter().zip(&b.layers).all(|(x, y)| x[c] == y[c])
    })
}

fn kept_outside(spec: &GridSpec, r: Region) -> Vec<bool> {
    (0..spec.cells())
        .map(|c| !r.contains(c % spec.width, c / spec.width))
        .collect()
}

/// Every `stride`-th level of `spec` and about twenty of its valid levels as the level to
/// keep, with every region of `regions`: solve_region against the enumerated completions.
/// Returns (levels found, no level).
fn both_ways(
    json: &str,
    options: &GridOptions,
    stride: usize,
    regions: &[Region],
) -> (usize, usize) {
    let spec = spec(json);
    let every = all_levels(&spec);
    let valid: Vec<&Level> = every
        .iter()
        .filter(|l| check_level(&spec, l).is_ok())
        .collect();
    let soft = spec.has_soft(options.soft_preferences.unwrap_or(false));
    let (mut found, mut none) = (0, 0);
    let some_valid = valid.iter().copied().step_by(valid.len() / 20 + 1);
    for source in every.iter().step_by(stride).chain(some_valid) {
        for &region in regions {
            let kept = kept_outside(&spec, region);
            let completions: Vec<&&Level> =
                valid.iter().filter(|l| agree(l, source, &kept)).collect();
            let keep = Keep::outside(&spec, source.clone(), region).unwrap();
            let outcome = grid::solve_region(&spec, &keep, options, Budget::UNLIMITED).unwrap();
            let shown = || format!("keeping outside {region:?}\n{}", source.to_text(&spec));
            match outcome {
                GridOutcome::Level(level) => {
                    assert!(
                        agree(&level, source, &kept),
                        "a kept cell changed, {}",
                        shown()
                    );
                    assert_eq!(check_level(&spec, &level), Ok(()), "{}", shown());
                    assert_eq!(keep.changed_cell(&level), None);
                    if soft {
                        let best = completions.iter().map(|l| level_cost(&spec, options, l));
                        assert_eq!(
                            Some(level_cost(&spec, options, &level)),
                            best.min(),
                            "not the least-cost completion, {}",
                            shown()
                        );
                    }
                    found += 1;
                }
                GridOutcome::NoLevel { clash } => {
                    assert!(
                        completions.is_empty(),
                        "no level claimed, but {} completions exist, {}",
                        completions.len(),
                        shown()
                    );
                    // The spec alone has levels, so the clash names kept cells; and no valid
                    // level agrees with the source on the kept cells it names.
                    let named: Vec<(usize, usize)> = (clash.iter())
                        .filter(|r| r.path == "keep")
                        .filter_map(|r| r.cell)
                        .collect();
                    assert!(!named.is_empty(), "the clash {clash:?} names no kept cell");
                    let mut named_kept = vec![false; spec.cells()];
                    for &(x, y) in &named {
                        named_kept[spec.index(x, y)] = true;
                    }
                    assert!(
                        !valid.iter().any(|l| agree(l, source, &named_kept)),
                        "the kept cells {named:?} of the clash admit a level, {}",
                        shown()
                    );
                    none += 1;
                }
                other => panic!("{other:?}"),
            }
        }
    }
    (found, none)
}

const REGIONS: [Region; 4] = [
    Region {
        x: 0,
        y: 0,
        w: 1,
        h: 1,
    },
    Region {
        x: 1,
        y: 1,
        w: 1,
        h: 1,
    },
    Region {
        x: 1,
        y: 0,
        w: 2,
        h: 2,
    },
    Region {
        x: 0,
        y: 1,
        w: 1,
        h: 2,
    },
];

#[test]
fn a_regenerated_region_keeps_the_rest_and_is_found_whenever_a_completion_exists() {
    let (found, none) = both_ways(ROOMS, &GridOptions::default(), 613, &REGIONS);
    assert!(found > 10 && none > 10, "found {found}, none {none}");
}

#[test]
fn kept_layer_values_are_kept_and_named_in_a_clash() {
    let (found, none) = both_ways(KEYS, &GridOptions::default(), 97, &REGIONS[..2]);
    assert!(found > 10 && none > 10, "found {found}, none {none}");
}

#[test]
fn with_soft_preferences_the_region_is_the_least_cost_completion() {
    let options = GridOptions {
        seed: Some(11),
        soft_preferences: Some(true),
        ..GridOptions::default()
    };
    let (found, none) = both_ways(ROOMS, &options, 1999, &REGIONS);
    assert!(found > 5 && none > 0, "found {found}, none {none}");
}

#[test]
fn a_kept_tile_the_spec_excludes_clashes_with_the_rule_that_excludes_it() {
    let json = ROOMS.replace(
        r#""preferences""#,
        r#""pins": [{"x": 0, "y": 0, "tile": "wall"}], "preferences""#,
    );
    let spec = spec(&json);
    let mut level = grim_testkit::grid::solve_level(&spec, &GridOptions::default());
    level.tiles[0] = 1; // floor where the pin says wall
    let keep = Keep::outside(
        &spec,
        level,
        Region {
            x: 2,
            y: 2,
            w: 1,
            h: 1,
        },
    )
    .unwrap();
    let outcome = grid::solve_region(&spec, &keep, &GridOptions::default(), Budget::UNLIMITED);
    let GridOutcome::NoLevel { clash } = outcome.unwrap() else {
        panic!("a level despite the pin")
    };
    let paths: Vec<&str> = clash.iter().map(|r| r.path.as_str()).collect();
    assert_eq!(paths, ["pins[0]", "keep"]);
    assert_eq!(clash[1].cell, Some((0, 0)));
    let said = GridOutcome::NoLevel { clash }.to_string();
    assert!(said.contains("keep (x=0 y=0: floor)"), "{said}");
}

#[test]
fn regions_and_levels_that_do_not_fit_the_grid_are_errors() {
    let spec = spec(ROOMS);
    let level = grim_testkit::grid::solve_level(&spec, &GridOptions::default());
    let outside =
        |x, y, w, h| Keep::outside(&spec, level.clone(), Region { x, y, w, h }).unwrap_err();
    for (x, y, w, h) in [
        (2, 0, 2, 1),
        (0, 3, 1, 1),
        (0, 0, 0, 2),
        (usize::MAX, 0, 2, 1),
    ] {
        let e = outside(x, y, w, h);
        assert_eq!(
            e,
            GridError::BadKeep(KeepProblem::RegionOutside {
                region: (x, y, w, h),
                grid: (3, 3)
            })
        );
        assert!(
            e.to_string().contains(&format!("x={x} y={y} w={w} h={h}")),
            "{e}"
        );
    }
    let mut small = level.clone();
    small.width = 2;
    small.tiles.truncate(6);
    let e = Keep::outside(
        &spec,
        small,
        Region {
            x: 0,
            y: 0,
            w: 1,
            h: 1,
        },
    )
    .unwrap_err();
    assert_eq!(e.to_string(), "the level is 2x3; the grid is 3x3");
    let e = Keep::cells(&spec, level.clone(), vec![true; 8]).unwrap_err();
    assert!(matches!(
        e,
        GridError::BadKeep(KeepProblem::MaskLength { mask: 8, cells: 9 })
    ));
    let mut alien = level.clone();
    alien.tiles[4] = 7;
    let e = Keep::cells(&spec, alien, vec![true; 9]).unwrap_err();
    assert!(matches!(
        e,
        GridError::BadKeep(KeepProblem::UnknownTile { cell: (1, 1) })
    ));
    // A `Keep` of another spec of the same size but more tiles is refused by the solve.
    let mut watery = level;
    watery.tiles[0] = 2;
    let keep = Keep::cells(&spec, watery, vec![true; 9]).unwrap();
    let r = grid::solve_region(
        &spec_two_tiles(),
        &keep,
        &GridOptions::default(),
        Budget::UNLIMITED,
    );
    assert_eq!(
        r,
        Err(GridError::BadKeep(KeepProblem::UnknownTile {
            cell: (0, 0)
        }))
    );
}

fn spec_two_tiles() -> GridSpec {
    spec(
        r##"{"width": 3, "height": 3, "tiles": [{"name": "wall", "glyph": "#"},
            {"name": "floor", "glyph": "."}]}"##,
    )
}

/// Checks a series against enumeration: every level valid, pairwise `distance` apart, each
/// the least-cost level (any level, when hard) far enough from the ones before, and, when the
/// series ends early, no valid level left far from all of them.
fn check_series(json: &str, options: &GridOptions, count: usize, distance: usize) -> usize {
    let spec = spec(json);
    let valid: Vec<Level> = all_levels(&spec)
        .into_iter()
        .filter(|l| check_level(&spec, l).is_ok())
        .collect();
    let want = Distinct { count, distance };
    let series = grid::solve_distinct(&spec, options, want, Budget::UNLIMITED, None).unwrap();
    let again = grid::solve_distinct(&spec, options, want, Budget::UNLIMITED, None).unwrap();
    assert_eq!(series, again, "not deterministic");
    let soft = spec.has_soft(options.soft_preferences.unwrap_or(false));
    let far = |l: &Level, earlier: &[Level]| earlier.iter().all(|e| e.distance_to(l) >= distance);
    for (i, level) in series.levels.iter().enumerate() {
        assert_eq!(check_level(&spec, level), Ok(()));
        let earlier = &series.levels[..i];
        assert!(
            far(level, earlier),
            "level {i} is too close:\n{}",
            level.to_text(&spec)
        );
        if soft {
            let best = (valid.iter().filter(|l| far(l, earlier)))
                .map(|l| level_cost(&spec, options, l))
                .min();
            assert_eq!(
                Some(level_cost(&spec, options, level)),
                best,
                "level {i} not next-best"
            );
        }
    }
    let left = valid.iter().filter(|l| far(l, &series.levels)).count();
    match series.end {
        SeriesEnd::Complete => assert_eq!(series.levels.len(), count),
        SeriesEnd::Exhausted => {
            assert!(series.levels.len() < count);
            assert_eq!(
                left, 0,
                "the series ended with {left} levels still far enough"
            );
        }
        other => panic!("{other:?}"),
    }
    series.levels.len()
}

#[test]
fn several_levels_are_pairwise_apart_and_end_only_when_no_level_is_left() {
    // Far more than exist at distance 4: the series must run dry, and only then.
    let n = check_series(ROOMS, &GridOptions::default(), 400, 4);
    assert!(n > 3, "{n} levels");
    assert_eq!(check_series(ROOMS, &GridOptions::default(), 3, 2), 3);
    let n = check_series(KEYS, &GridOptions::default(), 100, 2);
    assert!(n > 1, "{n} levels");
}

#[test]
fn with_soft_preferences_each_level_is_the_next_best() {
    let options = GridOptions {
        seed: Some(3),
        soft_preferences: Some(true),
        ..GridOptions::default()
    };
    let n = check_series(ROOMS, &options, 5, 3);
    assert_eq!(n, 5);
}

#[test]
fn a_series_of_a_spec_without_levels_names_the_clash() {
    let json = ROOMS.replace(
        r#"{"of": "floor", "min": 3, "max": 6}"#,
        r#"{"of": "floor", "min": 3, "max": 6}, {"of": "open", "max": 2}"#,
    );
    let spec = spec(&json);
    let want = Distinct {
        count: 3,
        distance: 2,
    };
    let series = grid::solve_distinct(
        &spec,
        &GridOptions::default(),
        want,
        Budget::UNLIMITED,
        None,
    )
    .unwrap();
    assert!(series.levels.is_empty());
    let SeriesEnd::NoLevel { clash } = series.end else {
        panic!("{:?}", series.end)
    };
    let paths: Vec<&str> = clash.iter().map(|r| r.path.as_str()).collect();
    assert_eq!(paths, ["counts[0]", "counts[1]"]);
}
