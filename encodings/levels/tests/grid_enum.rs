//! Every grid rule family against the referee by exhaustive enumeration on tiny grids, both
//! ways at once: for every level (every tile per cell, every layer value per cell), the
//! encoding with the level's cell and layer variables assumed is satisfiable exactly when
//! `check_level` accepts the level. So every model of the encoding satisfies the rule, and
//! every level satisfying the rule is reachable.

use grim_levels::{
    self as grid, GridModel, GridOptions, GridSpec, Level, check_level, level_cost, separator_cuts,
};
use grim_solver::{Budget, Solver, Status};

use grim_testkit::grid::{all_levels, assumptions, referee_agrees_level_by_level};

fn spec(json: &str) -> GridSpec {
    GridSpec::from_json(json).unwrap_or_else(|e| panic!("{e}\n{json}"))
}

/// Loads the hard clauses of `model` into an engine.
fn engine(model: &GridModel) -> Solver {
    let w = model.to_wcnf();
    let mut s = Solver::new();
    s.reserve_vars(w.num_vars);
    for c in &w.hard {
        s.add_clause(c);
    }
    s
}

/// Both ways: SAT under the level's assumptions ⇔ the referee accepts it. Returns
/// (accepted, rejected) counts so each test can assert it saw both.
fn both_ways(json: &str) -> (usize, usize) {
    let spec = spec(json);
    let model = GridModel::build(&spec, &GridOptions::default()).unwrap();
    referee_agrees_level_by_level(&model, &spec, all_levels(&spec))
}

fn assert_mixed((yes, no): (usize, usize)) {
    assert!(yes > 0 && no > 0, "accepted {yes}, rejected {no}");
}

const AB: &str =
    r#""tiles": [{"name": "a", "glyph": "a"}, {"name": "b", "glyph": "b", "classes": ["k"]}]"#;
const ABC: &str = r#""tiles": [{"name": "a", "glyph": "a"}, {"name": "b", "glyph": "b", "classes": ["k"]},
    {"name": "c", "glyph": "c", "classes": ["k"]}]"#;

#[test]
fn domains_from_mask_pins_and_allowed_match_the_referee() {
    assert_mixed(both_ways(&format!(
        r#"{{"width": 2, "height": 2, {ABC}, "mask": ["a?", "??"],
            "pins": [{{"x": 1, "y": 1, "tile": "c"}}],
            "allowed": [{{"x": 0, "y": 1, "tiles": ["a", "b"]}}]}}"#
    )));
}

#[test]
fn adjacency_symmetric_and_directional_rules_match_the_referee() {
    assert_mixed(both_ways(&format!(
        r#"{{"width": 3, "height": 2, {ABC}, "adjacency": {{"forbid": [["a", "c"]],
            "directional": [{{"tile": "b", "dir": "E", "allow": ["a", "b"]}},
                            {{"tile": "c", "dir": "N", "forbid": ["b"]}}]}}}}"#
    )));
}

#[test]
fn adjacency_symmetric_allow_list_matches_the_referee() {
    assert_mixed(both_ways(&format!(
        r#"{{"width": 3, "height": 2, {ABC}, "adjacency": {{"allow": [["a", "a"], ["a", "b"], ["c", "c"]]}}}}"#
    )));
}

#[test]
fn layers_with_requires_match_the_referee() {
    assert_mixed(both_ways(&format!(
        r#"{{"width": 2, "height": 2, {AB}, "layers": [{{"name": "it", "values": [
            {{"name": "none", "glyph": " "}}, {{"name": "gem", "glyph": "*", "requires": ["b"]}},
            {{"name": "orb", "glyph": "o", "requires": "a"}}]}}]}}"#
    )));
}

#[test]
fn absolute_and_region_ratio_counts_match_the_referee() {
    assert_mixed(both_ways(&format!(
        r#"{{"width": 3, "height": 3, {AB}, "counts": [
            {{"of": "b", "min": 0.34, "max": 0.67}},
            {{"of": "a", "region": {{"x": 0, "y": 0, "w": 2, "h": 2}}, "min": 1, "max": 3}}]}}"#
    )));
}

#[test]
fn ratio_between_selections_matches_the_referee() {
    // Gems on b cells: between 25% and 50% of the b cells (exact rational comparison).
    assert_mixed(both_ways(&format!(
        r#"{{"width": 3, "height": 2, {AB}, "layers": [{{"name": "it", "values": [
            {{"name": "none", "glyph": " "}}, {{"name": "gem", "glyph": "*"}}]}}],
            "counts": [{{"of": "it.gem", "per": "b", "min": 0.25, "max": 0.5}}]}}"#
    )));
}

#[test]
fn ratio_with_a_region_and_a_zero_max_matches_the_referee() {
    assert_mixed(both_ways(&format!(
        r#"{{"width": 3, "height": 3, {AB}, "counts": [
            {{"of": "a", "per": "b", "region": {{"x": 0, "y": 1, "w": 3, "h": 2}}, "min": 0.5}},
            {{"of": "b", "per": "a", "region": {{"x": 0, "y": 0, "w": 3, "h": 1}}, "max": 0}}]}}"#
    )));
}

#[test]
fn shared_sorter_counts_match_the_referee() {
    // The same list counted absolutely and as the base of a ratio shares one network.
    assert_mixed(both_ways(&format!(
        r#"{{"width": 3, "height": 3, {AB}, "layers": [{{"name": "it", "values": [
            {{"name": "none", "glyph": " "}}, {{"name": "gem", "glyph": "*", "requires": "b"}}]}}],
            "counts": [{{"of": "b", "min": 3, "max": 6}},
                       {{"of": "it.gem", "per": "b", "min": 0.2, "max": 0.4}}]}}"#
    )));
}

#[test]
fn enclosure_matches_the_flood_fill() {
    assert_mixed(both_ways(&format!(
        r#"{{"width": 4, "height": 3, {AB}, "enclosure": [{{"class": "b", "open": "b", "min": 0.5}}]}}"#
    )));
    assert_mixed(both_ways(&format!(
        r#"{{"width": 3, "height": 4, {ABC}, "mask": ["???", "???", "???", "aaa"],
            "enclosure": [{{"class": "c", "open": "k", "min": 1}}]}}"#
    )));
}

/// A `width`×`height` spec over `tiles` with the one connectivity rule `rule`.
fn connected(width: u32, height: u32, tiles: &str, rule: &str) -> String {
    format!(r#"{{"width": {width}, "height": {height}, {tiles}, "connectivity": [{rule}]}}"#)
}

#[test]
fn connectivity_with_any_root_matches_the_bfs() {
    let json = connected(3, 3, AB, r#"{"class": "b", "root": "any"}"#);
    assert_mixed(both_ways(&json));
    assert_mixed(both_ways(&connected(4, 2, ABC, r#"{"class": "k"}"#)));
}

#[test]
fn connectivity_with_a_given_root_matches_the_bfs() {
    let json = connected(3, 3, AB, r#"{"class": "b", "root": {"x": 1, "y": 0}}"#);
    assert_mixed(both_ways(&json));
}

#[test]
fn bounded_and_unbounded_paths_match_the_bfs() {
    assert_mixed(both_ways(&format!(
        r#"{{"width": 3, "height": 3, {ABC}, "mask": ["???", "?a?", "???"],
            "paths": [{{"from": {{"x": 0, "y": 0}}, "to": "c", "through": "b", "max_length": 3}}]}}"#
    )));
    assert_mixed(both_ways(&format!(
        r#"{{"width": 3, "height": 3, {AB},
            "paths": [{{"from": {{"x": 0, "y": 0}}, "to": {{"x": 2, "y": 2}}, "through": "b"}}]}}"#
    )));
    assert_mixed(both_ways(&format!(
        r#"{{"width": 4, "height": 2, {ABC},
            "paths": [{{"from": "c", "to": "c", "through": "b", "max_length": 2}}]}}"#
    )));
}

#[test]
fn the_relaxed_model_keeps_every_connected_level() {
    for json in [
        connected(3, 3, AB, r#"{"class": "b"}"#),
        connected(4, 2, ABC, r#"{"class": "k", "root": {"x": 0, "y": 1}}"#),
    ] {
        let spec = spec(&json);
        let model = GridModel::build_relaxed(&spec, &GridOptions::default()).unwrap();
        let mut s = engine(&model);
        let mut connected = 0;
        for level in all_levels(&spec) {
            if check_level(&spec, &level).is_ok() {
                connected += 1;
                let got = s.solve(&assumptions(&model, &spec, &level), Budget::UNLIMITED);
                assert_eq!(got, Status::Sat, "{}", level.to_text(&spec));
            }
        }
        assert!(connected > 10);
    }
}

#[test]
fn separator_cuts_cut_off_the_disconnected_level_and_keep_every_connected_one() {
    // The class b connected, with no root and rooted at x=2 y=1.
    for root in ["", r#", "root": {"x": 2, "y": 1}"#] {
        let spec = spec(&connected(3, 3, AB, &format!(r#"{{"class": "b"{root}}}"#)));
        let levels = all_levels(&spec);
        let good: Vec<&Level> = levels
            .iter()
            .filter(|l| check_level(&spec, l).is_ok())
            .collect();
        let holds = |l: &Level, c: usize, pos: bool| (l.tiles[c] == 1) == pos;
        let mut cut_levels = 0;
        for level in &levels {
            let cuts = separator_cuts(&spec, 0, level);
            if check_level(&spec, level).is_ok() {
                assert!(cuts.is_empty());
                continue;
            }
            // A given root is pinned to the class by a unit clause, not by cuts.
            if let Some((x, y)) = spec.connectivity[0].root
                && level.tiles[spec.index(x, y)] != 1
            {
                continue;
            }
            assert!(!cuts.is_empty(), "{}", level.to_text(&spec));
            cut_levels += 1;
            assert!(
                cuts.iter()
                    .any(|cut| !cut.iter().any(|&(c, pos)| holds(level, c, pos))),
                "no cut excludes\n{}",
                level.to_text(&spec)
            );
            for cut in &cuts {
                for g in &good {
                    assert!(
                        cut.iter().any(|&(c, pos)| holds(g, c, pos)),
                        "cut {cut:?} from\n{}excludes the connected\n{}",
                        level.to_text(&spec),
                        g.to_text(&spec)
                    );
                }
            }
        }
        assert!(cut_levels > 100);
    }
}

/// The least cost over all levels the referee accepts, by brute force.
fn brute_force_optimum(spec: &GridSpec, options: &GridOptions) -> Option<u64> {
    all_levels(spec)
        .iter()
        .filter(|l| check_level(spec, l).is_ok())
        .map(|l| level_cost(spec, options, l))
        .min()
}

/// Issue 41: a hard enclosure with an absolute floor and soft wishes (the site's shape, where
/// the enclosure's min-cut bound ends the search) reaches the brute-force optimum, on both
/// tile sets the bound prices differently (a closed tile only; an open tile besides the class).
#[test]
fn a_hard_enclosure_with_soft_wishes_reaches_the_brute_force_optimum() {
    let two = r##""tiles": [{"name": "floor", "glyph": "."}, {"name": "wall", "glyph": "#"}]"##;
    let three = r##""tiles": [{"name": "empty", "glyph": " "}, {"name": "floor", "glyph": "."},
        {"name": "solid", "glyph": "#"}]"##;
    let cases = [
        (4, 4, two, r#""open": "floor""#, 1),
        (4, 4, two, r#""open": "floor""#, 3),
        (5, 4, two, r#""open": "floor""#, 4),
        (4, 3, three, r#""open": ["empty", "floor"]"#, 2),
    ];
    for (w, h, tiles, open, min) in cases {
        let json = format!(
            r#"{{"width": {w}, "height": {h}, {tiles},
                "enclosure": [{{"class": "floor", {open}, "min": {min}}}]}}"#
        );
        let spec = spec(&json);
        let levels = all_levels(&spec);
        for seed in 0..4 {
            let options = GridOptions {
                seed: Some(seed),
                soft_preferences: Some(true),
                ..GridOptions::default()
            };
            let best = levels
                .iter()
                .filter(|l| check_level(&spec, l).is_ok())
                .map(|l| level_cost(&spec, &options, l))
                .min()
                .expect("some level is valid");
            let level = grim_testkit::grid::solve_level(&spec, &options);
            assert!(check_level(&spec, &level).is_ok());
            assert_eq!(
                level_cost(&spec, &options, &level),
                best,
                "{json} seed {seed}"
            );
        }
    }
}

#[test]
fn soft_rules_reach_the_brute_force_optimum() {
    let cases = [
        format!(
            r#"{{"width": 3, "height": 2, {AB}, "counts": [
                {{"of": "b", "min": 4, "weight": 3}}, {{"of": "b", "max": 2, "weight": 2}},
                {{"of": "a", "region": {{"x": 0, "y": 0, "w": 1, "h": 2}}, "min": 2, "weight": 1}}]}}"#
        ),
        format!(
            r#"{{"width": 3, "height": 2, {AB}, "layers": [{{"name": "it", "values": [
                {{"name": "none", "glyph": " "}}, {{"name": "gem", "glyph": "*", "requires": "b"}}]}}],
                "counts": [{{"of": "it.gem", "per": "b", "min": 0.5, "weight": 4}},
                           {{"of": "b", "max": 1, "weight": 3}}, {{"of": "it.gem", "min": 2, "weight": 2}}]}}"#
        ),
        format!(
            r#"{{"width": 3, "height": 3, {AB}, "connectivity": [{{"class": "b"}}],
                "enclosure": [{{"class": "b", "open": "b", "min": 1, "weight": 5}}],
                "counts": [{{"of": "b", "min": 0.5, "weight": 2}}],
                "preferences": {{"seed": 3, "mode": "soft", "weight": 1}}}}"#
        ),
    ];
    for json in &cases {
        let spec = spec(json);
        let options = GridOptions::default();
        let best = brute_force_optimum(&spec, &options).expect("some level is valid");
        let level = grim_testkit::grid::solve_level(&spec, &options);
        assert!(check_level(&spec, &level).is_ok());
        assert_eq!(level_cost(&spec, &options, &level), best, "{json}");
    }
    // Soft preferences alone: the optimum is the wished level wherever the rules allow.
    let spec = spec(&format!(
        r#"{{"width": 3, "height": 3, {AB}, "adjacency": {{"forbid": [["b", "b"]]}}}}"#
    ));
    for seed in 0..5 {
        let options = GridOptions {
            seed: Some(seed),
            soft_preferences: Some(true),
            ..GridOptions::default()
        };
        let best = brute_force_optimum(&spec, &options).unwrap();
        let level = grim_testkit::grid::solve_level(&spec, &options);
        assert_eq!(level_cost(&spec, &options, &level), best, "seed {seed}");
    }
}

#[test]
fn a_count_confined_to_a_region_matches_the_referee() {
    // One c at most, and one in the east column: the other columns' c literals become units
    // (`families/counts/encode.rs`'s confinement), which must lose no level.
    assert_mixed(both_ways(
        r#"{"width": 3, "height": 3, "tiles": [
            {"name": "a", "glyph": "a"}, {"name": "b", "glyph": "b"}, {"name": "c", "glyph": "c"}],
            "counts": [{"of": "c", "max": 1},
                       {"of": "c", "region": {"x": 2, "y": 0, "w": 1, "h": 3}, "min": 1},
                       {"of": "b", "min": 2}]}"#,
    ));
}

#[test]
fn large_counts_checked_in_the_search_match_the_referee_on_sampled_levels() {
    large_counts_on_sampled_levels(true);
}

#[test]
fn large_binary_counts_and_ratios_match_the_referee_on_sampled_levels() {
    large_counts_on_sampled_levels(false);
}

/// The sampled-level check below, on the encoded counts (binary adders) or, `propagated`, on
/// the counts the grid propagator checks (`families/counts/propagate.rs`).
fn large_counts_on_sampled_levels(propagated: bool) {
    // 72 cells: the floor-like count [20, 50] and the ratio are binary adders (the small ones
    // above go to the front end's unary encodings). Too many levels to enumerate: random
    // levels, plus levels with exactly 19, 20, 50 and 51 b cells and gems at the ratio's edges.
    let spec = spec(&format!(
        r#"{{"width": 9, "height": 8, {AB}, "layers": [{{"name": "it", "values": [
            {{"name": "none", "glyph": " "}}, {{"name": "gem", "glyph": "*", "requires": "b"}}]}}],
            "counts": [{{"of": "b", "min": 20, "max": 50}},
                       {{"of": "it.gem", "per": "b", "min": 0.1, "max": 0.3}}]}}"#
    ));
    let model = if propagated {
        GridModel::build_for_propagator(&spec, &GridOptions::default()).unwrap()
    } else {
        GridModel::build(&spec, &GridOptions::default()).unwrap()
    };
    let mut s = engine(&model);
    if propagated {
        s.connect_propagator(
            model
                .propagator()
                .expect("the large counts are checked in the search"),
        );
    }
    let mut rng = grid::SplitMix64::new(42);
    let (mut yes, mut no) = (0, 0);
    for i in 0..600 {
        let cells = spec.cells();
        let target_b = [19, 20, 35, 50, 51][i % 5];
        let mut order: Vec<usize> = (0..cells).collect();
        for k in (1..cells).rev() {
            order.swap(k, (rng.next_u64() % (k as u64 + 1)) as usize);
        }
        let mut tiles = vec![0; cells];
        for &c in &order[..target_b] {
            tiles[c] = 1;
        }
        // Gems: around the ratio's edges (⌈0.1·b⌉ − 1 … ⌊0.3·b⌋ + 1), on b cells mostly.
        let lo = target_b.div_ceil(10);
        let hi = target_b * 3 / 10;
        let gems = lo.saturating_sub(1) + (rng.next_u64() % (hi - lo + 3) as u64) as usize;
        let mut layer = vec![0; cells];
        for &c in order.iter().take(gems) {
            layer[c] = 1;
        }
        if i % 7 == 0 {
            layer[order[cells - 1]] = 1; // a gem off the b cells
        }
        let level = Level {
            width: spec.width,
            height: spec.height,
            tiles,
            layers: vec![layer],
        };
        let expected = check_level(&spec, &level).is_ok();
        let got = s.solve(&assumptions(&model, &spec, &level), Budget::UNLIMITED);
        assert_eq!(s.propagator_error(), None);
        assert_eq!(got == Status::Sat, expected, "{}", level.to_text(&spec));
        if expected {
            yes += 1;
        } else {
            no += 1;
        }
    }
    assert!(yes > 100 && no > 100, "accepted {yes}, rejected {no}");
}

#[test]
fn soft_large_counts_checked_in_the_search_reach_the_encoding_s_optimum() {
    // 9×8: the counts are too large for the unary encodings, so the propagated solve checks
    // them in the search (guarded by their relaxation literal) while the eager one encodes
    // adders; with soft wishes against them, both must prove the same optimum.
    use grid::{ConnectivityStrategy, GridOutcome};
    let spec = spec(&format!(
        r#"{{"width": 9, "height": 8, {AB}, "layers": [{{"name": "it", "values": [
            {{"name": "none", "glyph": " "}}, {{"name": "gem", "glyph": "*", "requires": "b"}}]}}],
            "counts": [{{"of": "b", "min": 40, "weight": 3}}, {{"of": "b", "max": 45, "weight": 2}},
                       {{"of": "it.gem", "per": "b", "min": 0.2, "max": 0.25, "weight": 5}},
                       {{"of": "it.gem", "min": 9}}],
            "preferences": {{"seed": 1, "mode": "soft", "weight": 1}}}}"#
    ));
    let mut costly = 0;
    for seed in 0..6 {
        let options = GridOptions {
            seed: Some(seed),
            soft_preferences: Some(true),
            ..GridOptions::default()
        };
        let mut costs = Vec::new();
        for strategy in [
            ConnectivityStrategy::Propagator,
            ConnectivityStrategy::Eager,
        ] {
            let (outcome, _) = grid::solve_with(&spec, &options, Budget::UNLIMITED, strategy)
                .unwrap_or_else(|e| panic!("seed {seed}, {strategy:?}: {e}"));
            let GridOutcome::Level(level) = outcome else {
                panic!("seed {seed}, {strategy:?}: {outcome:?}");
            };
            assert!(
                check_level(&spec, &level).is_ok(),
                "seed {seed}, {strategy:?}"
            );
            costs.push(level_cost(&spec, &options, &level));
        }
        assert_eq!(costs[0], costs[1], "seed {seed}: propagated against eager");
        costly += usize::from(costs[0] > 0);
    }
    assert!(
        costly >= 3,
        "the wishes and counts pulled apart on {costly} seeds of 6"
    );
}
