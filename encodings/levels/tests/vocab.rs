//! The level-vocabulary families of issue 42 (`runs`, `dead_ends`, `separation`, `symmetry`)
//! against a brute-force definition of each rule, written here from `FORMAT.md` without the
//! crate's referee, by exhaustive enumeration on 3×3 to 4×4 grids:
//! - both ways per level, in the exported model (`GridModel::build`) and in the propagated
//!   model (`GridModel::build_for_propagator` with its propagator connected): a level is a
//!   model (its cell and layer variables assumed) exactly when the brute force keeps the rule,
//!   and exactly when the referee accepts it;
//! - the number of levels the export admits, counted with blocking clauses over the cell and
//!   layer variables, equals the number the brute force keeps;
//! - a spec with no level names the rule in its clash, and the referee names the rule on a
//!   hand-made level that breaks it.

use grim_levels::{
    self as grid, Finding, GridModel, GridOptions, GridOutcome, GridSpec, Level, check_level,
    level_cost,
};
use grim_solver::{Budget, Lit, Status};
use grim_testkit::grid::{all_levels, assumptions, engine, model_levels};

fn spec(json: &str) -> GridSpec {
    GridSpec::from_json(json).unwrap_or_else(|e| panic!("{e}\n{json}"))
}

/// The brute force's verdict on a level.
type Rule = dyn Fn(&Level) -> bool;

/// Both ways, in both models: every level is a model exactly when `keeps` says the rule holds
/// (and the referee agrees); and the export admits as many levels as `keeps` accepts (counted
/// with blocking clauses). Returns (kept, broken) so that a test can assert it saw both.
fn both_ways(json: &str, keeps: &Rule) -> (usize, usize) {
    let spec = spec(json);
    let levels = all_levels(&spec);
    // The mask is not under test here: a level keeps the rules when it also fits the domains.
    let fits = |l: &Level| (0..spec.cells()).all(|c| spec.domains[c][l.tiles[c]]);
    let keeps = |l: &Level| fits(l) && keeps(l);
    let kept = levels.iter().filter(|l| keeps(l)).count();
    for l in &levels {
        assert_eq!(
            check_level(&spec, l).is_ok(),
            keeps(l),
            "the referee against the brute force on\n{}{:?}",
            l.to_text(&spec),
            check_level(&spec, l)
        );
    }
    let options = GridOptions::default();
    let export = GridModel::build(&spec, &options).unwrap();
    let propagated = GridModel::build_for_propagator(&spec, &options).unwrap();
    for (name, model) in [("export", &export), ("propagated", &propagated)] {
        let mut s = engine(model);
        for l in &levels {
            let got = s.solve(&assumptions(model, &spec, l), Budget::UNLIMITED);
            assert_eq!(s.propagator_error(), None);
            assert_eq!(
                got == Status::Sat,
                keeps(l),
                "{name} model on\n{}",
                l.to_text(&spec)
            );
        }
    }
    assert_eq!(models(&export, &spec), kept, "levels the export admits");
    (kept, levels.len() - kept)
}

/// The number of distinct levels among the models of `model`'s hard clauses, by blocking
/// each level's cell and layer variables after it is found.
fn models(model: &GridModel, spec: &GridSpec) -> usize {
    model_levels(model, spec).0.len()
}

fn assert_mixed((kept, broken): (usize, usize)) {
    assert!(kept > 0 && broken > 0, "kept {kept}, broken {broken}");
}

/// The rules that clash in a spec with no level.
fn clash(json: &str) -> Vec<String> {
    let spec = spec(json);
    match grid::solve(&spec, &GridOptions::default(), Budget::UNLIMITED) {
        Ok(GridOutcome::NoLevel { clash }) => clash.into_iter().map(|r| r.path).collect(),
        other => panic!("expected no level, got {other:?}"),
    }
}

const AB: &str =
    r#""tiles": [{"name": "a", "glyph": "a"}, {"name": "b", "glyph": "b", "classes": ["k"]}]"#;
/// Whether cell `c` of `l` holds one of `tiles`.
fn holds(l: &Level, c: usize, tiles: &[usize]) -> bool {
    tiles.contains(&l.tiles[c])
}

// ----- runs -----

/// The longest run of `member` cells along rows (`rows`) or columns of the
/// `x0, y0, w, h` rectangle.
fn longest_run(
    l: &Level,
    rect: (usize, usize, usize, usize),
    rows: bool,
    member: &dyn Fn(usize) -> bool,
) -> usize {
    let (x0, y0, w, h) = rect;
    let mut best = 0;
    let (outer, inner) = if rows { (h, w) } else { (w, h) };
    for o in 0..outer {
        let mut run = 0;
        for i in 0..inner {
            let (x, y) = if rows {
                (x0 + i, y0 + o)
            } else {
                (x0 + o, y0 + i)
            };
            if member(y * l.width + x) {
                run += 1;
                best = best.max(run);
            } else {
                run = 0;
            }
        }
    }
    best
}

#[test]
fn runs_of_a_class_along_both_axes_match_the_brute_force() {
    let json = format!(r#"{{"width": 4, "height": 3, {AB}, "runs": [{{"of": "b", "max": 2}}]}}"#);
    let keeps = |l: &Level| {
        let m = |c| holds(l, c, &[1]);
        longest_run(l, (0, 0, 4, 3), true, &m) <= 2 && longest_run(l, (0, 0, 4, 3), false, &m) <= 2
    };
    assert_mixed(both_ways(&json, &keeps));
}

#[test]
fn runs_along_one_axis_in_a_region_and_of_a_layer_value_match_the_brute_force() {
    let json = format!(
        r#"{{"width": 4, "height": 3, {AB}, "runs": [
            {{"of": "k", "max": 1, "axis": "column", "region": {{"x": 1, "y": 0, "w": 2, "h": 3}}}},
            {{"of": "b", "max": 2, "axis": "row"}}]}}"#
    );
    let keeps = |l: &Level| {
        longest_run(l, (1, 0, 2, 3), false, &|c| holds(l, c, &[1])) <= 1
            && longest_run(l, (0, 0, 4, 3), true, &|c| holds(l, c, &[1])) <= 2
    };
    assert_mixed(both_ways(&json, &keeps));
    let json = format!(
        r#"{{"width": 3, "height": 2, {AB}, "layers": [{{"name": "it", "values": [
            {{"name": "none", "glyph": " "}}, {{"name": "gem", "glyph": "*", "requires": "b"}}]}}],
            "runs": [{{"of": "it.gem", "max": 1, "axis": "row"}}]}}"#
    );
    let keeps = |l: &Level| {
        let gem_ok = (0..6).all(|c| l.layers[0][c] == 0 || l.tiles[c] == 1);
        gem_ok && longest_run(l, (0, 0, 3, 2), true, &|c| l.layers[0][c] == 1) <= 1
    };
    assert_mixed(both_ways(&json, &keeps));
}

#[test]
fn a_soft_run_rule_costs_its_weight_once_and_the_solver_finds_the_least_cost() {
    // All b is forced in the middle row; the soft rule says no run of 3: the least cost is 4,
    // paid once however many runs are too long.
    let json = format!(
        r#"{{"width": 3, "height": 3, {AB}, "mask": ["???", "bbb", "???"],
            "runs": [{{"of": "b", "max": 2, "axis": "row", "weight": 4}}],
            "counts": [{{"of": "b", "min": 8, "weight": 1}}]}}"#
    );
    let spec = spec(&json);
    let options = GridOptions::default();
    let best = all_levels(&spec)
        .iter()
        .filter(|l| check_level(&spec, l).is_ok())
        .map(|l| level_cost(&spec, &options, l))
        .min()
        .unwrap();
    assert_eq!(best, 4, "the all-b level breaks the rule, and pays once");
    let level = grim_testkit::grid::solve_level(&spec, &options);
    assert_eq!(level_cost(&spec, &options, &level), best);
}

/// `instances/grid/NAME`'s level for each of `seeds`, which must be found within `budget`
/// conflicts and pass the referee.
fn found_within(name: &str, seeds: std::ops::RangeInclusive<u64>, budget: u64) {
    let path = format!("{}/../../instances/grid/{name}", env!("CARGO_MANIFEST_DIR"));
    let spec = spec(&std::fs::read_to_string(path).unwrap());
    for seed in seeds {
        let options = GridOptions {
            seed: Some(seed),
            ..GridOptions::default()
        };
        match grid::solve(&spec, &options, Budget::conflicts(budget)) {
            Ok(GridOutcome::Level(l)) => {
                assert_eq!(check_level(&spec, &l), Ok(()), "{name} seed {seed}")
            }
            other => panic!("{name} seed {seed}: no level within {budget} conflicts: {other:?}"),
        }
    }
}

/// The shipped cave whose rock comes in runs of at most 8 (`cave-runs-64.json`) finds its
/// level in few conflicts on every seed: connectivity's decisions open the region toward every
/// run window it has not reached before closing the cells the wishes leave out
/// (`cover_windows`). Without that the breadth-first frontier sealed rock pockets wider than
/// the runs allow, each found by conflicts: 372–616 on seeds 1–5 (about 14,000 on the 128×128
/// version), against 5–17 now.
#[test]
fn a_cave_with_bounded_rock_runs_is_found_in_few_conflicts() {
    found_within("cave-runs-64.json", 1..=3, 100);
}

/// The shipped cave with no chokepoints (`cave-loops-64.json`): connectivity's decisions do
/// not close a frontier cell that would leave a class cell with one class neighbour (its
/// neighbour would be a chokepoint; `no_leaves`). Seeds 1–5 take 71, 75, 90, 76, 77 conflicts
/// (63, 158, 70, 111, 90 without; 128×128: 244–301 against 371–628).
#[test]
fn a_cave_without_chokepoints_is_found_in_few_conflicts() {
    found_within("cave-loops-64.json", 1..=5, 100);
}

#[test]
fn runs_that_cannot_hold_are_named_in_the_clash() {
    let json = format!(
        r#"{{"width": 4, "height": 3, {AB}, "mask": ["????", "bbbb", "????"],
            "counts": [{{"of": "a", "max": 5}}], "runs": [{{"of": "b", "max": 3}}]}}"#
    );
    let named = clash(&json);
    assert!(named.contains(&"runs[0]".to_string()), "{named:?}");
    assert!(
        named.iter().all(|r| r == "runs[0]" || r == "mask[1]"),
        "{named:?}"
    );
}

#[test]
fn the_referee_names_a_run_too_long_with_its_first_cell() {
    let json = format!(r#"{{"width": 4, "height": 2, {AB}, "runs": [{{"of": "k", "max": 2}}]}}"#);
    let spec = spec(&json);
    let level = Level::from_text(&spec, "abbb\naaab\n").unwrap();
    let v = check_level(&spec, &level).unwrap_err();
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(v[0].rule, "runs[0]");
    assert_eq!(v[0].cell, Some((1, 0)));
    assert_eq!(
        v[0].found,
        Finding::LongRun {
            length: 3,
            max: 2,
            vertical: false
        }
    );
}

// ----- dead ends -----

/// The dead ends of `member` cells: members with exactly one member among their 4-neighbours.
fn dead_ends(l: &Level, member: &dyn Fn(usize) -> bool) -> usize {
    let (w, h) = (l.width, l.height);
    (0..w * h)
        .filter(|&c| {
            let (x, y) = (c % w, c / w);
            let mut nbrs = Vec::new();
            if x > 0 {
                nbrs.push(c - 1);
            }
            if x + 1 < w {
                nbrs.push(c + 1);
            }
            if y > 0 {
                nbrs.push(c - w);
            }
            if y + 1 < h {
                nbrs.push(c + w);
            }
            member(c) && nbrs.into_iter().filter(|&d| member(d)).count() == 1
        })
        .count()
}

#[test]
fn no_dead_ends_matches_the_brute_force() {
    let json =
        format!(r#"{{"width": 4, "height": 3, {AB}, "dead_ends": [{{"class": "b", "max": 0}}]}}"#);
    let keeps = |l: &Level| dead_ends(l, &|c| holds(l, c, &[1])) == 0;
    assert_mixed(both_ways(&json, &keeps));
}

#[test]
fn dead_ends_between_bounds_with_connectivity_match_the_brute_force() {
    // Between 2 and 3 dead ends of a connected class: a corridor with a side branch at most.
    let json = format!(
        r#"{{"width": 3, "height": 3, {AB}, "connectivity": [{{"class": "b"}}],
            "dead_ends": [{{"class": "b", "min": 2, "max": 3}}]}}"#
    );
    let keeps = |l: &Level| {
        let n = dead_ends(l, &|c| holds(l, c, &[1]));
        (2..=3).contains(&n) && connected(l, &|c| holds(l, c, &[1]))
    };
    assert_mixed(both_ways(&json, &keeps));
    let json =
        format!(r#"{{"width": 4, "height": 3, {AB}, "dead_ends": [{{"class": "a", "min": 3}}]}}"#);
    let keeps = |l: &Level| dead_ends(l, &|c| holds(l, c, &[0])) >= 3;
    assert_mixed(both_ways(&json, &keeps));
}

/// Whether the `member` cells are 4-connected (the empty set is).
fn connected(l: &Level, member: &dyn Fn(usize) -> bool) -> bool {
    let (w, n) = (l.width, l.width * l.height);
    let cells: Vec<usize> = (0..n).filter(|&c| member(c)).collect();
    let Some(&start) = cells.first() else {
        return true;
    };
    let mut seen = vec![false; n];
    seen[start] = true;
    let mut todo = vec![start];
    let mut reached = 1;
    while let Some(c) = todo.pop() {
        let (x, y) = (c % w, c / w);
        let mut nbrs = Vec::new();
        if x > 0 {
            nbrs.push(c - 1);
        }
        if x + 1 < w {
            nbrs.push(c + 1);
        }
        if y > 0 {
            nbrs.push(c - w);
        }
        if c + w < n {
            nbrs.push(c + w);
        }
        for d in nbrs {
            if member(d) && !seen[d] {
                seen[d] = true;
                reached += 1;
                todo.push(d);
            }
        }
    }
    reached == cells.len()
}

#[test]
fn a_soft_dead_end_rule_reaches_the_brute_force_optimum() {
    let json = format!(
        r#"{{"width": 3, "height": 3, {AB}, "mask": ["?b?", "?b?", "???"],
            "dead_ends": [{{"class": "b", "max": 0, "weight": 3}}],
            "counts": [{{"of": "b", "max": 3, "weight": 2}}]}}"#
    );
    let spec = spec(&json);
    let options = GridOptions::default();
    let best = all_levels(&spec)
        .iter()
        .filter(|l| check_level(&spec, l).is_ok())
        .map(|l| level_cost(&spec, &options, l))
        .min()
        .unwrap();
    // Three b in a column end in two dead ends; a loop of b needs four: either rule pays.
    assert_eq!(best, 2);
    let level = grim_testkit::grid::solve_level(&spec, &options);
    assert_eq!(level_cost(&spec, &options, &level), best);
}

#[test]
fn dead_ends_that_cannot_hold_are_named_in_the_clash() {
    // A b corridor pinned from the west edge to the east edge, and no b elsewhere: its two
    // ends are dead ends.
    let json = format!(
        r#"{{"width": 4, "height": 3, {AB}, "mask": ["aaaa", "bbbb", "aaaa"],
            "counts": [{{"of": "b", "max": 6}}], "dead_ends": [{{"class": "b", "max": 1}}]}}"#
    );
    let named = clash(&json);
    assert!(named.contains(&"dead_ends[0]".to_string()), "{named:?}");
    assert!(
        named
            .iter()
            .all(|r| r == "dead_ends[0]" || r.starts_with("mask[")),
        "{named:?}"
    );
}

#[test]
fn the_referee_counts_dead_ends_and_names_the_first() {
    let json =
        format!(r#"{{"width": 4, "height": 3, {AB}, "dead_ends": [{{"class": "b", "max": 0}}]}}"#);
    let spec = spec(&json);
    // A loop of four b has none; the tail at x=3 y=2 is one.
    let ok = Level::from_text(&spec, "bbaa\nbbaa\naaaa\n").unwrap();
    assert_eq!(check_level(&spec, &ok), Ok(()));
    let level = Level::from_text(&spec, "bbaa\nbbab\naaab\n").unwrap();
    let v = check_level(&spec, &level).unwrap_err();
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(v[0].rule, "dead_ends[0]");
    assert_eq!(v[0].cell, Some((3, 1)));
    assert_eq!(
        v[0].found,
        Finding::DeadEnds {
            found: 2,
            min: 0,
            max: Some(0)
        }
    );
}

// ----- separation -----

/// Whether every two distinct `member` cells are at least `d` apart (Manhattan).
fn apart(l: &Level, d: usize, member: &dyn Fn(usize) -> bool) -> bool {
    let w = l.width;
    let cells: Vec<usize> = (0..l.tiles.len()).filter(|&c| member(c)).collect();
    cells.iter().all(|&a| {
        cells
            .iter()
            .all(|&b| a == b || (a % w).abs_diff(b % w) + (a / w).abs_diff(b / w) >= d)
    })
}

#[test]
fn separation_of_a_tile_matches_the_brute_force() {
    for d in [2, 3, 5] {
        let json = format!(
            r#"{{"width": 4, "height": 3, {AB}, "separation": [{{"of": "b", "min_distance": {d}}}]}}"#
        );
        let keeps = move |l: &Level| apart(l, d, &|c| holds(l, c, &[1]));
        assert_mixed(both_ways(&json, &keeps));
    }
}

#[test]
fn separation_of_a_layer_value_with_a_pinned_cell_matches_the_brute_force() {
    // A pinned b under the class k: its constant literal makes units in both models.
    let json = format!(
        r#"{{"width": 3, "height": 3, {AB}, "mask": ["b??", "???", "???"],
            "separation": [{{"of": "k", "min_distance": 2}}]}}"#
    );
    let keeps = |l: &Level| apart(l, 2, &|c| holds(l, c, &[1]));
    assert_mixed(both_ways(&json, &keeps));
    let json = format!(
        r#"{{"width": 3, "height": 2, {AB}, "layers": [{{"name": "it", "values": [
            {{"name": "none", "glyph": " "}}, {{"name": "gem", "glyph": "*"}}]}}],
            "separation": [{{"of": "it.gem", "min_distance": 3}}]}}"#
    );
    let keeps = |l: &Level| apart(l, 3, &|c| l.layers[0][c] == 1);
    assert_mixed(both_ways(&json, &keeps));
}

/// The number of distinct levels among the models of the **propagated** model, its propagator
/// connected (so its parts decide: separation places its items itself), by blocking each
/// level's cell and layer variables after it is found.
fn propagated_models(spec: &GridSpec) -> usize {
    let model = GridModel::build_for_propagator(spec, &GridOptions::default()).unwrap();
    let mut s = engine(&model);
    let vars = model.to_wcnf().num_vars;
    let mut n = 0;
    while s.solve(&[], Budget::UNLIMITED) == Status::Sat {
        assert_eq!(s.propagator_error(), None);
        let values: Vec<bool> = (0..vars)
            .map(|v| {
                let var = grim_solver::Var::new(v as u32).expect("a variable index");
                s.value(var.pos()) == Some(true)
            })
            .collect();
        let level = model.decode(&values).expect("a model decodes");
        assert!(check_level(spec, &level).is_ok(), "{}", level.to_text(spec));
        let block: Vec<Lit> = assumptions(&model, spec, &level)
            .into_iter()
            .map(|l| !l)
            .collect();
        s.add_clause(&block);
        n += 1;
    }
    n
}

#[test]
fn separation_deciding_its_items_admits_exactly_the_brute_force_levels() {
    // The separation part decides (its items on, cell after cell): the propagated model,
    // enumerated with those decisions, still admits every level the brute force keeps and
    // no other, with a count and connectivity beside it.
    let json = format!(
        r#"{{"width": 3, "height": 3, {AB}, "layers": [{{"name": "it", "values": [
            {{"name": "none", "glyph": " "}}, {{"name": "gem", "glyph": "*", "requires": ["b"]}}]}}],
            "counts": [{{"of": "it.gem", "min": 2, "max": 2}}],
            "connectivity": [{{"class": "b"}}],
            "separation": [{{"of": "it.gem", "min_distance": 3}}]}}"#
    );
    let spec = spec(&json);
    let keeps = |l: &Level| {
        let gem = |c: usize| l.layers[0][c] == 1;
        let gems = (0..l.tiles.len()).filter(|&c| gem(c)).count();
        let b = |c: usize| holds(l, c, &[1]);
        gems == 2
            && (0..l.tiles.len()).all(|c| !gem(c) || b(c))
            && connected(l, &b)
            && apart(l, 3, &gem)
    };
    let kept = all_levels(&spec).iter().filter(|l| keeps(l)).count();
    assert!(kept > 0);
    assert_eq!(propagated_models(&spec), kept);
}

#[test]
fn mirrored_arenas_with_separated_spawns_pass_the_referee_on_every_seed() {
    // The arena benchmark's rules at 12×12 (separation decides, the wishes follow the mirror
    // and keep the spawns apart): every seed's level passes the referee.
    let json = r##"{"width": 12, "height": 12,
        "tiles": [{"name": "wall", "glyph": "#", "weight": 3}, {"name": "floor", "glyph": ".", "weight": 5},
                  {"name": "grass", "glyph": "g", "weight": 2}],
        "layers": [{"name": "items", "values": [{"name": "none", "glyph": " "},
            {"name": "enemy", "glyph": "e", "requires": ["floor"]},
            {"name": "spawn", "glyph": "s", "requires": ["floor"]}]}],
        "counts": [{"of": "floor", "min": 0.3, "max": 0.6}, {"of": "items.spawn", "min": 4, "max": 4},
                   {"of": "items.enemy", "per": "floor", "min": 0.05, "max": 0.2}],
        "connectivity": [{"class": "floor"}],
        "separation": [{"of": "items.spawn", "min_distance": 6}, {"of": "items.enemy", "min_distance": 3}],
        "symmetry": [{"kind": "vertical"}],
        "preferences": {"seed": 1}}"##;
    let spec = spec(json);
    for seed in 1..=8 {
        let options = GridOptions {
            seed: Some(seed),
            ..GridOptions::default()
        };
        match grid::solve(&spec, &options, Budget::UNLIMITED) {
            Ok(GridOutcome::Level(l)) => {
                assert!(
                    check_level(&spec, &l).is_ok(),
                    "seed {seed}\n{}",
                    l.to_text(&spec)
                );
                let spawns = (0..l.tiles.len()).filter(|&c| l.layers[0][c] == 2).count();
                assert_eq!(spawns, 4, "seed {seed}");
            }
            other => panic!("seed {seed}: {other:?}"),
        }
    }
}

#[test]
fn a_soft_separation_reaches_the_brute_force_optimum() {
    let json = format!(
        r#"{{"width": 3, "height": 3, {AB},
            "separation": [{{"of": "b", "min_distance": 3, "weight": 2}}],
            "counts": [{{"of": "b", "min": 4, "weight": 3}}, {{"of": "b", "min": 3}}]}}"#
    );
    let spec = spec(&json);
    let options = GridOptions::default();
    let best = all_levels(&spec)
        .iter()
        .filter(|l| check_level(&spec, l).is_ok())
        .map(|l| level_cost(&spec, &options, l))
        .min()
        .unwrap();
    // No three cells of a 3×3 grid are pairwise 3 apart, so with three b (hard) some pair is
    // closer: the least cost is the separation's 2, not the count's 3.
    assert_eq!(best, 2);
    let level = grim_testkit::grid::solve_level(&spec, &options);
    assert_eq!(level_cost(&spec, &options, &level), best);
}

#[test]
fn separation_that_cannot_hold_is_named_in_the_clash() {
    let json = format!(
        r#"{{"width": 4, "height": 3, {AB}, "counts": [{{"of": "b", "min": 4}}],
            "separation": [{{"of": "b", "min_distance": 4}}]}}"#
    );
    assert_eq!(clash(&json), ["counts[0]", "separation[0]"]);
}

#[test]
fn the_referee_names_the_closest_pair() {
    let json = format!(
        r#"{{"width": 4, "height": 3, {AB}, "separation": [{{"of": "b", "min_distance": 3}}]}}"#
    );
    let spec = spec(&json);
    let ok = Level::from_text(&spec, "baaa\naaab\naaaa\n").unwrap();
    assert_eq!(check_level(&spec, &ok), Ok(()));
    let level = Level::from_text(&spec, "baaa\naaab\naaba\n").unwrap();
    let v = check_level(&spec, &level).unwrap_err();
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(v[0].rule, "separation[0]");
    assert_eq!(v[0].cell, Some((3, 1)));
    assert_eq!(
        v[0].found,
        Finding::TooClose {
            other: (2, 2),
            distance: 2,
            min: 3
        }
    );
}

#[test]
fn a_separation_too_large_to_spell_out_is_refused_with_the_field() {
    let json = format!(
        r#"{{"width": 256, "height": 256, {AB}, "separation": [{{"of": "b", "min_distance": 40}}]}}"#
    );
    let e = GridSpec::from_json(&json).unwrap_err().to_string();
    assert!(
        e.starts_with("separation[0].min_distance: 40 on this grid makes up to"),
        "{e}"
    );
}

// ----- symmetry -----

/// Whether every cell of the `x0, y0, w, h` rectangle holds what its image under `map` (in the
/// rectangle's coordinates) holds, by `same`.
fn invariant(
    l: &Level,
    rect: (usize, usize, usize, usize),
    map: &CellMap,
    same: &dyn Fn(usize, usize) -> bool,
) -> bool {
    let (x0, y0, w, h) = rect;
    (0..h).all(|y| {
        (0..w).all(|x| {
            let (ix, iy) = map(x, y);
            same((y0 + y) * l.width + x0 + x, (y0 + iy) * l.width + x0 + ix)
        })
    })
}

/// A map of a rectangle's cells onto themselves, in its own coordinates.
type CellMap = dyn Fn(usize, usize) -> (usize, usize);

#[test]
fn mirrors_and_turns_match_the_brute_force() {
    let cases: [(&str, (usize, usize), &CellMap); 4] = [
        ("vertical", (4, 3), &|x, y| (3 - x, y)),
        ("horizontal", (3, 4), &|x, y| (x, 3 - y)),
        ("rotate_180", (4, 3), &|x, y| (3 - x, 2 - y)),
        ("rotate_90", (3, 3), &|x, y| (2 - y, x)),
    ];
    for (kind, (w, h), map) in cases {
        let json =
            format!(r#"{{"width": {w}, "height": {h}, {AB}, "symmetry": [{{"kind": "{kind}"}}]}}"#);
        let keeps =
            move |l: &Level| invariant(l, (0, 0, w, h), map, &|a, b| l.tiles[a] == l.tiles[b]);
        assert_mixed(both_ways(&json, &keeps));
    }
}

#[test]
fn a_symmetric_region_with_a_layer_matches_the_brute_force() {
    let json = format!(
        r#"{{"width": 4, "height": 3, {AB}, "symmetry": [{{"kind": "rotate_90",
            "region": {{"x": 1, "y": 0, "w": 3, "h": 3}}}}]}}"#
    );
    let keeps = |l: &Level| {
        invariant(l, (1, 0, 3, 3), &|x, y| (2 - y, x), &|a, b| {
            l.tiles[a] == l.tiles[b]
        })
    };
    assert_mixed(both_ways(&json, &keeps));
    let json = format!(
        r#"{{"width": 3, "height": 2, {AB}, "layers": [{{"name": "it", "values": [
            {{"name": "none", "glyph": " "}}, {{"name": "gem", "glyph": "*"}}]}}],
            "symmetry": [{{"kind": "vertical", "layer": "it"}}]}}"#
    );
    let keeps = |l: &Level| {
        invariant(l, (0, 0, 3, 2), &|x, y| (2 - x, y), &|a, b| {
            l.tiles[a] == l.tiles[b] && l.layers[0][a] == l.layers[0][b]
        })
    };
    assert_mixed(both_ways(&json, &keeps));
}

#[test]
fn a_soft_symmetry_reaches_the_brute_force_optimum() {
    let json = format!(
        r#"{{"width": 3, "height": 3, {AB}, "mask": ["b??", "???", "??a"],
            "symmetry": [{{"kind": "rotate_180", "weight": 5}}, {{"kind": "vertical", "weight": 2}}]}}"#
    );
    let spec = spec(&json);
    let options = GridOptions::default();
    let best = all_levels(&spec)
        .iter()
        .filter(|l| check_level(&spec, l).is_ok())
        .map(|l| level_cost(&spec, &options, l))
        .min()
        .unwrap();
    // The pinned corners break the half turn; a vertical mirror is still possible.
    assert_eq!(best, 5);
    let level = grim_testkit::grid::solve_level(&spec, &options);
    assert_eq!(level_cost(&spec, &options, &level), best);
}

#[test]
fn a_symmetry_that_cannot_hold_is_named_in_the_clash() {
    let json = format!(
        r#"{{"width": 4, "height": 3, {AB}, "pins": [{{"x": 0, "y": 1, "tile": "a"}},
            {{"x": 3, "y": 1, "tile": "b"}}], "symmetry": [{{"kind": "vertical"}}]}}"#
    );
    assert_eq!(clash(&json), ["pins[0]", "pins[1]", "symmetry[0]"]);
}

#[test]
fn the_referee_names_the_first_cell_that_differs_from_its_image() {
    let json =
        format!(r#"{{"width": 4, "height": 2, {AB}, "symmetry": [{{"kind": "horizontal"}}]}}"#);
    let spec = spec(&json);
    let ok = Level::from_text(&spec, "abba\nabba\n").unwrap();
    assert_eq!(check_level(&spec, &ok), Ok(()));
    let level = Level::from_text(&spec, "abba\nabbb\n").unwrap();
    let v = check_level(&spec, &level).unwrap_err();
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(v[0].rule, "symmetry[0]");
    assert_eq!(v[0].cell, Some((3, 0)));
    assert_eq!(
        v[0].found,
        Finding::Asymmetric {
            image: (3, 1),
            cells: 2
        }
    );
    let e = GridSpec::from_json(&json.replace("horizontal", "rotate_90")).unwrap_err();
    assert_eq!(
        e.to_string(),
        "symmetry[0].kind: \"rotate_90\" needs a square region; this one is 4x2"
    );
}
