//! grid.json validation messages, determinism, and `solve` answers passing the referee.

use grim_levels::{
    self as grid, GridError, GridModel, GridOptions, GridOutcome, GridSpec, StopReason, check_level,
};
use grim_solver::{Budget, Solver, Status};

fn err(json: &str) -> String {
    match GridSpec::from_json(json) {
        Ok(_) => panic!("accepted: {json}"),
        Err(e) => e.to_string(),
    }
}

const T2: &str = r#""tiles": [{"name": "wall", "glyph": "%"}, {"name": "floor", "glyph": ".", "classes": ["open"]}]"#;

#[test]
fn malformed_grid_json_is_rejected_with_the_field_and_the_value() {
    let cases: Vec<(String, &str)> = vec![
        ("{\"width\": 3,\n  \"height\": }".into(), "line 2, column 13: expected value"),
        ("[1, 2]".into(), ": [1,2] must be an object"),
        (r#"{"height": 2, "tiles": []}"#.into(), "width: is required"),
        (r#"{"width": 0, "height": 2}"#.into(), "width: 0 must be a whole number from 1 to 256"),
        (r#"{"width": 2, "height": 1e9}"#.into(), "height: 1000000000.0 must be a whole number from 1 to 256"),
        (r#"{"width": 2, "height": 2, "tiles": []}"#.into(), "tiles: must list at least one tile"),
        (
            r###"{"width": 2, "height": 2, "tiles": [{"name": "a", "glyph": "a"}, {"name": "b", "glyph": "b"}, {"name": "c", "glyph": "c"}, {"name": "d", "glyph": "##"}]}"###.into(),
            r###"tiles[3].glyph: "##" must be one character"###,
        ),
        (
            r#"{"width": 2, "height": 2, "tiles": [{"name": "a", "glyph": "a"}, {"name": "a", "glyph": "b"}]}"#.into(),
            r#"tiles[1].name: "a" is already the name of tiles[0]"#,
        ),
        (
            r#"{"width": 2, "height": 2, "tiles": [{"name": "a", "glyph": "x"}, {"name": "b", "glyph": "x"}]}"#.into(),
            r#"tiles[1].glyph: "x" is already the glyph of tiles[0]"#,
        ),
        (
            r#"{"width": 2, "height": 2, "tiles": [{"name": "a", "glyph": "a", "colour": "red"}]}"#.into(),
            "tiles[0].colour: unknown field; expected one of name, glyph, weight, classes, color",
        ),
        (
            r#"{"width": 2, "height": 2, "tiles": [{"name": "a", "glyph": "a", "weight": -1}]}"#.into(),
            "tiles[0].weight: -1 must be a whole number ≥ 0",
        ),
        (format!(r#"{{"width": 2, "height": 2, {T2}, "mask": ["%?"]}}"#), "mask: has 1 rows; the grid has 2"),
        (format!(r#"{{"width": 2, "height": 2, {T2}, "mask": ["%?", "?x"]}}"#), r#"mask[1]: "x" at x=1 is neither "?" nor a tile glyph"#),
        (
            format!(r#"{{"width": 2, "height": 2, {T2}, "mask": ["%?", "??"], "pins": [{{"x": 0, "y": 0, "tile": "floor"}}]}}"#),
            "pins[0]: leaves no tile for cell x=0 y=0 (after mask[0])",
        ),
        (format!(r#"{{"width": 2, "height": 2, {T2}, "pins": [{{"x": 2, "y": 0, "tile": "floor"}}]}}"#), "pins[0].x: 2 is outside the grid (width 2)"),
        (format!(r#"{{"width": 2, "height": 2, {T2}, "counts": [{{"of": "lava", "min": 1}}]}}"#), r#"counts[0].of: "lava" is neither a tile nor a class"#),
        (format!(r#"{{"width": 2, "height": 2, {T2}, "counts": [{{"of": "floor"}}]}}"#), r#"counts[0]: needs "min", "max" or both"#),
        (format!(r#"{{"width": 2, "height": 2, {T2}, "counts": [{{"of": "floor", "min": 1.5}}]}}"#), "counts[0].min: 1.5 must be a whole number of cells or a ratio between 0 and 1"),
        (format!(r#"{{"width": 2, "height": 2, {T2}, "counts": [{{"of": "floor", "per": "wall", "max": 2}}]}}"#), "counts[0].max: 2 must be a ratio between 0 and 1 here"),
        (format!(r#"{{"width": 2, "height": 2, {T2}, "counts": [{{"of": "floor", "min": 1, "weight": 0}}]}}"#), "counts[0].weight: 0 must be a whole number ≥ 1"),
        (format!(r#"{{"width": 2, "height": 2, {T2}, "counts": [{{"of": "items.key", "min": 1}}]}}"#), r#"counts[0].of: "items.key" names no layer "items""#),
        (
            format!(r#"{{"width": 2, "height": 2, {T2}, "counts": [{{"of": "floor", "region": {{"x": 1, "y": 0, "w": 2, "h": 1}}, "min": 1}}]}}"#),
            r#"counts[0].region: {"h":1,"w":2,"x":1,"y":0} must be a non-empty rectangle inside the 2x2 grid"#,
        ),
        (
            format!(r#"{{"width": 2, "height": 2, {T2}, "enclosure": [{{"class": "floor", "open": "open", "max": 0.5}}]}}"#),
            "enclosure[0].max: an enclosure takes only a floor",
        ),
        (format!(r#"{{"width": 2, "height": 2, {T2}, "connectivity": [{{"class": "floor", "root": "first"}}]}}"#), r#"connectivity[0].root: "first" must be "any" or a cell {"x": .., "y": ..}"#),
        (format!(r#"{{"width": 2, "height": 2, {T2}, "paths": [{{"from": 3, "to": "floor", "through": "floor"}}]}}"#), r#"paths[0].from: 3 must be a cell {"x": .., "y": ..} or a name"#),
        (
            format!(r#"{{"width": 256, "height": 256, {T2}, "paths": [{{"from": "floor", "to": "floor", "through": "floor", "max_length": 100}}]}}"#),
            "paths[0].max_length: 100 steps on 65536 cells needs 100 layers of 65536 variables",
        ),
        (format!(r#"{{"width": 2, "height": 2, {T2}, "preferences": {{"mode": "random"}}}}"#), r#"preferences.mode: "random" must be "hint" or "soft""#),
        (
            format!(r#"{{"width": 2, "height": 2, {T2}, "adjacency": {{"forbid": [["wall", "floor"]], "directional": [{{"tile": "wall", "dir": "N", "allow": ["floor"]}}]}}}}"#),
            r#"adjacency: contradiction for "floor" on the north side of "wall": adjacency.directional[0] allows it, adjacency.forbid[0] forbids it"#,
        ),
        (
            format!(r#"{{"width": 2, "height": 2, {T2}, "adjacency": {{"directional": [{{"tile": "wall", "dir": "E", "allow": ["floor"]}}, {{"tile": "floor", "dir": "W", "allow": ["floor"]}}]}}}}"#),
            r#"adjacency: contradiction for "floor" on the east side of "wall": adjacency.directional[0] allows it, adjacency.directional[1] (not in its allow list) forbids it"#,
        ),
        (format!(r#"{{"width": 2, "height": 2, {T2}, "adjacency": {{"directional": [{{"tile": "wall", "dir": "up", "allow": ["floor"]}}]}}}}"#), r#"adjacency.directional[0].dir: "up" must be one of "N", "E", "S", "W""#),
        (format!(r#"{{"width": 2, "height": 2, {T2}, "adjacency": {{"forbid": [["wall"]]}}}}"#), r#"adjacency.forbid[0]: ["wall"] must be a pair ["a", "b"]"#),
    ];
    for (json, want) in &cases {
        let got = err(json);
        assert!(
            got.starts_with(want),
            "for {json}\n got: {got}\nwant: {want}"
        );
    }
}

#[test]
fn a_syntax_error_reports_line_and_column() {
    match GridSpec::from_json("{\n  \"width\": 3,\n  oops\n}") {
        Err(GridError::Syntax { line, column, .. }) => assert_eq!((line, column), (3, 3)),
        other => panic!("{other:?}"),
    }
}

fn dungeon() -> GridSpec {
    GridSpec::from_json(&grim_testkit::grid::dungeon_json(12)).unwrap()
}

#[test]
fn the_dungeon_solves_and_passes_the_referee() {
    let spec = dungeon();
    let level = grim_testkit::grid::solve_level(&spec, &GridOptions::default());
    assert_eq!(check_level(&spec, &level), Ok(()));
    let text = level.to_text(&spec);
    // 12 tile rows, then the items layer under its header: nothing is drawn over anything.
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 12 + 2 + 12, "{text}");
    assert_eq!(lines[12], "");
    assert_eq!(lines[13], "[items]");
    let rows: Vec<&str> = lines[..12].iter().chain(&lines[14..]).copied().collect();
    assert!(rows.iter().all(|l| l.chars().count() == 12), "{text}");
    let items: String = lines[14..].concat();
    assert_eq!(items.matches('k').count(), 1, "{text}");
    assert_eq!(items.matches('c').count(), 1, "{text}");
    // The tile under the key is on the page: floor, as `requires` says.
    let key = items.find('k').unwrap();
    assert_eq!(lines[..12].concat().chars().nth(key), Some('.'), "{text}");
    assert_eq!(grid::Level::from_text(&spec, &text), Ok(level));
}

#[test]
fn the_same_seed_gives_the_same_level_and_different_seeds_differ() {
    let spec = dungeon();
    let mut texts = Vec::new();
    for seed in [1u64, 2, 3] {
        let options = grim_testkit::grid::seeded(seed);
        let a = grim_testkit::grid::solve_level(&spec, &options);
        let b = grim_testkit::grid::solve_level(&spec, &options);
        assert_eq!(a.to_text(&spec), b.to_text(&spec), "seed {seed}");
        assert_eq!(a, b);
        texts.push(a.to_text(&spec));
    }
    assert_ne!(texts[0], texts[1]);
    assert_ne!(texts[1], texts[2]);
    assert_ne!(texts[0], texts[2]);
}

#[test]
fn the_eager_model_agrees_with_the_referee_on_solved_levels() {
    // What an external solver gets: the exported CNF accepts solve's level (every variable of
    // the level assumed), and its own models decode to levels the referee accepts.
    let spec = dungeon();
    let model = GridModel::build(&spec, &GridOptions::default()).unwrap();
    assert!(!model.is_soft());
    let cnf = model.to_cnf().expect("nothing is soft");
    let level = grim_testkit::grid::solve_level(&spec, &GridOptions::default());
    let mut s = Solver::new();
    s.reserve_vars(cnf.num_vars);
    for c in &cnf.clauses {
        s.add_clause(c);
    }
    let mut assume = Vec::new();
    for c in 0..spec.cells() {
        let (x, y) = (c % spec.width, c / spec.width);
        for t in 0..spec.tiles.len() {
            assume.push(model.cell_var(x, y, t).lit(level.tiles[c] == t));
        }
        for v in 0..spec.layers[0].values.len() {
            assume.push(model.layer_var(0, x, y, v).lit(level.layers[0][c] == v));
        }
    }
    assert_eq!(s.solve(&assume, Budget::UNLIMITED), Status::Sat);
    let decoded = model.decode(&s.model().unwrap()).unwrap();
    assert_eq!(decoded, level);
    assert!(!model.phase_hints().is_empty());
}

#[test]
fn decode_rejects_a_model_that_is_not_a_level() {
    let spec = GridSpec::from_json(&format!(r#"{{"width": 2, "height": 1, {T2}}}"#)).unwrap();
    let model = GridModel::build(&spec, &GridOptions::default()).unwrap();
    let mut values = vec![false; model.to_wcnf().num_vars];
    assert!(matches!(
        model.decode(&values),
        Err(GridError::BadModel { .. })
    ));
    values[model.cell_var(0, 0, 0).index()] = true;
    values[model.cell_var(0, 0, 1).index()] = true;
    assert!(matches!(
        model.decode(&values),
        Err(GridError::BadModel { .. })
    ));
    assert!(model.decode(&[]).is_err());
}

#[test]
fn unsatisfiable_rules_are_reported_as_such() {
    let spec = GridSpec::from_json(&format!(
        r#"{{"width": 3, "height": 3, {T2}, "mask": ["...", "%%%", "..."],
            "connectivity": [{{"class": "floor"}}]}}"#
    ))
    .unwrap();
    let got = grid::solve(&spec, &GridOptions::default(), Budget::UNLIMITED);
    let Ok(GridOutcome::NoLevel { clash }) = got else {
        panic!("{got:?}");
    };
    // A floor cell above, one below, the three walls between them, and connectivity.
    let paths: Vec<&str> = clash.iter().map(|r| r.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "mask[0]",
            "mask[1]",
            "mask[1]",
            "mask[1]",
            "mask[2]",
            "connectivity[0]"
        ],
        "{clash:?}"
    );
}

#[test]
fn every_family_together_solves_to_a_level_the_referee_accepts() {
    let json = r#"{
      "width": 10, "height": 8,
      "tiles": [
        {"name": "wall", "glyph": "%", "weight": 2},
        {"name": "floor", "glyph": ".", "weight": 4, "classes": ["walk"]},
        {"name": "door", "glyph": "+", "weight": 1, "classes": ["walk"]},
        {"name": "water", "glyph": "~", "weight": 1}
      ],
      "adjacency": {"forbid": [["door", "door"], ["water", "door"]],
                    "directional": [{"tile": "door", "dir": "N", "allow": ["wall", "floor"]}]},
      "layers": [{"name": "it", "values": [{"name": "none", "glyph": " "},
                 {"name": "gem", "glyph": "*", "requires": "floor"}]}],
      "mask": ["%%%%%%%%%%", "%????????%", "%????????%", "%????????%",
               "%????????%", "%????????%", "%????????%", "%%%%%%%%%%"],
      "pins": [{"x": 1, "y": 1, "tile": "floor"}],
      "counts": [{"of": "floor", "min": 0.3, "max": 0.6}, {"of": "it.gem", "min": 2, "max": 4},
                 {"of": "door", "region": {"x": 0, "y": 0, "w": 5, "h": 8}, "min": 1}],
      "enclosure": [{"class": "floor", "open": "walk", "min": 0.5}],
      "connectivity": [{"class": "walk", "root": {"x": 1, "y": 1}}],
      "paths": [{"from": {"x": 1, "y": 1}, "to": "door", "through": "walk", "max_length": 12}],
      "preferences": {"seed": 11}
    }"#;
    let spec = GridSpec::from_json(json).unwrap();
    for seed in 0..4 {
        let options = grim_testkit::grid::seeded(seed);
        let level = grim_testkit::grid::solve_level(&spec, &options);
        assert_eq!(check_level(&spec, &level), Ok(()), "seed {seed}");
        let (eager, _) = grid::solve_with(
            &spec,
            &options,
            Budget::UNLIMITED,
            grid::ConnectivityStrategy::Eager,
        )
        .unwrap();
        let eager = eager.into_level().expect("a level");
        assert_eq!(check_level(&spec, &eager), Ok(()), "seed {seed} (eager)");
    }
}

/// The budget of a soft grid holds for all its rounds together (each connectivity round
/// re-solves the optimisation): a budget one conflict short of what the unlimited run used in
/// all rounds must run out, though every single round used less than it.
#[test]
fn soft_grid_budget_counts_every_round() {
    let spec = grim_testkit::grid::shipped("showcase-12.json");
    let mut checked = 0;
    for seed in 0..8 {
        let options = grim_testkit::grid::seeded(seed);
        let lazy = grid::ConnectivityStrategy::Lazy;
        let (outcome, stats) = grid::solve_with(&spec, &options, Budget::UNLIMITED, lazy).unwrap();
        let level = outcome.level().expect("a level");
        assert_eq!(check_level(&spec, level), Ok(()), "seed {seed}");
        // Every round needs conflicts of its own for the claim to mean something.
        if stats.rounds < 2 || stats.conflicts < 2 * stats.rounds as u64 {
            continue;
        }
        checked += 1;
        // A budget that is not reached changes nothing.
        let ample = Budget::conflicts(2 * stats.conflicts);
        let (again, again_stats) = grid::solve_with(&spec, &options, ample, lazy).unwrap();
        assert_eq!(
            again, outcome,
            "seed {seed}: an ample budget changed the answer"
        );
        assert_eq!(again_stats, stats, "seed {seed}");
        let short = Budget::conflicts(stats.conflicts - 1);
        let stopped = grid::solve_with(&spec, &options, short, lazy).map(|(o, _)| o);
        assert!(
            matches!(
                stopped,
                Ok(GridOutcome::Stopped {
                    reason: StopReason::Budget,
                    ..
                })
            ),
            "seed {seed}: {} rounds, {} conflicts: {stopped:?}",
            stats.rounds,
            stats.conflicts
        );
        if checked == 2 {
            break;
        }
    }
    assert!(
        checked >= 2,
        "only {checked} seeds needed several rounds with conflicts"
    );
}

/// A stop handle stops both solving paths: set before the call, every grid answers
/// `Interrupted` (not `BudgetExhausted`, which names the other limit); never set, the answer
/// is the one `solve_with` gives; set from another thread while the engine runs on the 64×64
/// dungeon (tens of seconds of work), the call returns early with `Interrupted`.
#[test]
fn a_stop_handle_interrupts_hard_and_soft_grids() {
    use grim_solver::Terminator;
    let lazy = grid::ConnectivityStrategy::Lazy;
    let file = |name: &str| {
        let path = format!("{}/../../instances/grid/{name}", env!("CARGO_MANIFEST_DIR"));
        GridSpec::from_json(&std::fs::read_to_string(path).unwrap()).unwrap()
    };
    let options = GridOptions::default();
    for (name, soft) in [("dungeon-12.json", false), ("showcase-12.json", true)] {
        let spec = file(name);
        let model = GridModel::build(&spec, &options).unwrap();
        assert_eq!(model.is_soft(), soft, "{name}");
        let stop = Terminator::default();
        let free = grid::solve_within(&spec, &options, Budget::UNLIMITED, lazy, Some(&stop), None);
        assert_eq!(
            free,
            grid::solve_with(&spec, &options, Budget::UNLIMITED, lazy),
            "{name}"
        );
        assert!(free.is_ok(), "{name}");
        stop.terminate();
        let stopped =
            grid::solve_within(&spec, &options, Budget::UNLIMITED, lazy, Some(&stop), None)
                .map(|(o, _)| o);
        assert!(
            matches!(
                stopped,
                Ok(GridOutcome::Stopped {
                    reason: StopReason::Interrupted,
                    best: None,
                    ..
                })
            ),
            "{name}: {stopped:?}"
        );
        assert!(stop.is_set(), "the handle stays set for its owner to reset");
    }
    let spec = file("dungeon-64.json");
    let stop = Terminator::default();
    let timer = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(100));
            stop.terminate();
        })
    };
    let result = grid::solve_within(&spec, &options, Budget::UNLIMITED, lazy, Some(&stop), None);
    timer.join().unwrap();
    // The 64×64 dungeon takes tens of seconds of CPU (benches/grid/results-*.csv): no machine
    // finishes it in 100 ms, so anything but `Interrupted` means the handle was not heard.
    assert!(
        matches!(
            result,
            Ok((
                GridOutcome::Stopped {
                    reason: StopReason::Interrupted,
                    ..
                },
                _
            ))
        ),
        "{:?}",
        result.map(|(_, stats)| stats)
    );
}

/// An empty or blank file is a syntax error at a real position (line 1, column 1 at least):
/// `FILE:LINE:COLUMN` never names column 0.
#[test]
fn an_empty_grid_json_is_an_error_at_line_one_column_one() {
    for text in ["", "\n", "   "] {
        match GridSpec::from_json(text) {
            Err(GridError::Syntax { line, column, .. }) => {
                assert!(line >= 1 && column >= 1, "{text:?}: {line}:{column}");
            }
            other => panic!("{text:?}: {other:?}"),
        }
    }
}

/// The late bound (`solve.rs`, `solve_with_late_bound`) hands the search the connectivity
/// program's witness: on dungeon-12 `--preferences soft` seed 38 the core-guided search has
/// best 26 and bound 22 after its 12,000 conflicts alone; the program's first round (capped at
/// 23) proves the least above 23 without a witness, the second (capped at 24) meets 24 with
/// one, and that witness is a level of cost 24, proven at once. When the second round's
/// witness was dropped for having the same bound as the first, the search had to find the
/// level itself (seed 9, whose first round now meets its least: 174k conflicts in all). The
/// optimum's value is checked elsewhere (brute force on small grids, RC2 on the export); here
/// the level, its proof and the conflicts.
#[test]
fn the_late_bounds_witness_ends_a_soft_dungeon_at_once() {
    let spec = grim_testkit::grid::shipped("dungeon-12.json");
    let mut options = grim_testkit::grid::seeded(38);
    options.soft_preferences = Some(true);
    let strategy = grid::ConnectivityStrategy::Propagator;
    let (outcome, stats) = grid::solve_with(&spec, &options, Budget::UNLIMITED, strategy).unwrap();
    let GridOutcome::Level(level) = outcome else {
        panic!("no proven optimum: {outcome}");
    };
    assert_eq!(check_level(&spec, &level), Ok(()));
    // 12,000 conflicts before the late bound, at most 2,000 for the witness, a few to confirm.
    assert!(
        stats.conflicts <= 14_500,
        "{} conflicts: the witness did not end the search",
        stats.conflicts
    );
}
